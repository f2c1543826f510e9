/* lib/object/descriptor.c — the kernel descriptor's 64 bytes (AMDHSA kernel
   descriptor layout, little endian) from the values the assembly emitter
   writes as `.amdhsa_*` directives. */
#include "object.h"

#include <string.h>

static void le32(unsigned char *p, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

void wa_kd_bytes(unsigned char out[WA_KD_SIZE], const wa_kd_fields *kd, int64_t entry_offset)
{
    memset(out, 0, WA_KD_SIZE);
    le32(out + 0, kd->group_segment_fixed_size);
    le32(out + 4, kd->private_segment_fixed_size);
    le32(out + 8, kd->kernarg_size);
    /* 12..15 reserved */
    uint64_t e = (uint64_t)entry_offset;
    le32(out + 16, (uint32_t)e);
    le32(out + 20, (uint32_t)(e >> 32));
    /* 24..43 reserved */
    le32(out + 44, kd->rsrc3);
    le32(out + 48, kd->rsrc1);
    le32(out + 52, kd->rsrc2);
    out[56] = (unsigned char)kd->kernel_code_properties;
    out[57] = (unsigned char)(kd->kernel_code_properties >> 8);
    out[58] = (unsigned char)kd->kernarg_preload;
    out[59] = (unsigned char)(kd->kernarg_preload >> 8);
    /* 60..63 reserved */
}
