/* include/waveasm/emit.h — assembly emission: the kernel's code, its
   `.amdhsa_kernel` descriptor and `.amdgpu_metadata` (code object v5), ready for
   an AMDGPU assembler (llvm-mc) and linker (ld.lld). */
#ifndef WAVEASM_EMIT_H
#define WAVEASM_EMIT_H

#include <waveasm/program.h>

WA_BEGIN_DECLS

/* What the descriptor and metadata say about a kernel, computed from the
   program alone (registers used, ABI inputs, attributes). */
typedef struct wa_kernel_resources {
    unsigned version;            /* WA_KERNEL_RESOURCES_VERSION (set by the library) */
    unsigned arch_vgprs;         /* highest VGPR used + 1 (v0 counts if an input) */
    unsigned agprs;              /* highest AGPR used + 1 */
    unsigned accum_offset;       /* first AGPR in the unified file: align4(max(1, arch)) */
    unsigned total_vgprs;        /* .amdhsa_next_free_vgpr: arch, or accum_offset + agprs */
    unsigned next_free_sgpr;     /* highest SGPR used or preloaded + 1 */
    unsigned sgpr_count;         /* next_free_sgpr + VCC/FLAT_SCRATCH/XNACK (6) */
    unsigned vgpr_granules;      /* GRANULATED_WORKITEM_VGPR_COUNT (granule 8) */
    unsigned sgpr_granules;      /* GRANULATED_WAVEFRONT_SGPR_COUNT (granule 8) */
    unsigned user_sgprs;         /* USER_SGPR_COUNT */
    unsigned uses_vcc;           /* reads or writes vcc */
    unsigned waves_per_simd;     /* occupancy bound from registers */
    unsigned kernarg_size;       /* bytes */
    unsigned group_segment_size; /* static LDS bytes */
    uint32_t rsrc1, rsrc2, rsrc3;
    uint16_t kernel_code_properties;
    /* new fields only ever appended */
} wa_kernel_resources;
#define WA_KERNEL_RESOURCES_VERSION 1

/* Fails with WA_E_VALIDATE if the program still has virtual registers. */
WA_API wa_status wa_kernel_resources_compute(wa_kernel_resources *out, const wa_program *prog);

#define WA_EMIT_TAGS 0x1u       /* "; @I<n>" after each instruction */
#define WA_EMIT_COMMENTS 0x2u   /* program comments */

typedef struct wa_emit_options {
    unsigned version;              /* WA_EMIT_OPTIONS_VERSION */
    unsigned flags;                /* WA_EMIT_* */
    unsigned code_object_version;  /* 5 (the only one supported) */
    /* new fields only ever appended */
} wa_emit_options;
#define WA_EMIT_OPTIONS_VERSION 1
#define WA_EMIT_OPTIONS_INIT { WA_EMIT_OPTIONS_VERSION, WA_EMIT_COMMENTS, 5 }

/* Validates the program (all registers must be physical) and writes a complete
   assembly file. `*out` is released with wa_free(); `opts` may be NULL. */
WA_API wa_status wa_emit_asm(char **out, size_t *out_len, const wa_program *prog,
                             const wa_emit_options *opts);

WA_END_DECLS
#endif
