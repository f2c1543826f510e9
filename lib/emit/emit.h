/* lib/emit/emit.h — internal interface between the emitter files. */
#ifndef WAVEASM_EMIT_INTERNAL_H
#define WAVEASM_EMIT_INTERNAL_H

#include <waveasm/emit.h>

#include "../ir/ir.h"

/* Fills `out` without validating; registers must be physical. */
void wa_resources_compute(wa_kernel_resources *out, const wa_program *prog);
/* Extra SGPRs the hardware allocates behind the program's (VCC, FLAT_SCRATCH,
   XNACK_MASK). */
#define WA_EXTRA_SGPRS 6u

/* The kernel descriptor as the `.amdhsa_*` directives state it: the assembly
   emitter prints these values, the code object writer packs the same values into
   the descriptor's 64 bytes (rsrc words packed here, as the assembler does). */
typedef struct wa_kd_fields {
    unsigned group_segment_fixed_size, private_segment_fixed_size, kernarg_size;
    unsigned user_sgpr_count;
    unsigned user_sgpr_dispatch_ptr, user_sgpr_queue_ptr, user_sgpr_kernarg_segment_ptr;
    unsigned user_sgpr_dispatch_id, user_sgpr_private_segment_size;
    unsigned workgroup_id_x, workgroup_id_y, workgroup_id_z, workgroup_info;
    unsigned workitem_id;          /* 0: x, 1: x and y, 2: x, y and z */
    unsigned next_free_vgpr, next_free_sgpr, accum_offset, reserve_vcc;
    unsigned float_round_mode_32, float_round_mode_16_64;
    unsigned float_denorm_mode_32, float_denorm_mode_16_64;
    unsigned dx10_clamp, ieee_mode, fp16_overflow, tg_split;
    unsigned vgpr_granules, sgpr_granules;
    uint32_t rsrc1, rsrc2, rsrc3;
    uint16_t kernel_code_properties, kernarg_preload;
} wa_kd_fields;

/* The descriptor of `prog` whose register counts are `r` (from
   wa_resources_compute, which calls this for its rsrc words). */
void wa_kd_fields_compute(wa_kd_fields *out, const wa_program *prog, const wa_kernel_resources *r);

/* s_nop words after each kernel's code: instruction prefetch may read past the
   end of the last kernel. */
#define WA_CODE_TAIL_NOPS 256u
#define WA_S_NOP_0 0xbf800000u

/* The target id: the processor, then the features the context names, in
   LLVM's order ("gfx942:sramecc+:xnack-"); ANY features are left out. */
void wa_target_id(char *out, size_t n, const wa_program *prog);
/* .kernarg_segment_align: the largest argument alignment, at least 4. */
unsigned wa_kernarg_align(const wa_program *prog);

#endif
