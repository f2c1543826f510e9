/* lib/regalloc/regalloc_internal.h — the allocation result, shared by the
   allocator, the rewrite and the checker. Not installed. */
#ifndef WAVEASM_REGALLOC_INTERNAL_H
#define WAVEASM_REGALLOC_INTERNAL_H

#include <waveasm/regalloc.h>

#include "../analysis/analysis.h"

struct wa_regalloc_result {
    wa_context *ctx;
    wa_target target;
    unsigned nvregs;
    uint32_t *reg;    /* first physical register per virtual register, WA_NONE if none */
    uint8_t *cls;
    uint32_t *size;
    unsigned fixed_peak[4];   /* per class: the program's own physical registers, highest + 1 */
    wa_regalloc_stats stats;  /* peaks and intervals are recomputed from the mapping */
};

/* A result for `prog` with no register assigned yet (NULL: out of memory). */
wa_regalloc_result *wa_regalloc_result_new(const wa_program *prog);

/* Validates an options struct (NULL means the defaults) into *out. */
wa_status wa_regalloc_options_check(wa_regalloc_options *out, wa_context *ctx,
                                    const wa_regalloc_options *opts);

/* Tuple alignment the allocator uses for a virtual register. */
unsigned wa_regalloc_align(wa_target target, wa_reg_class cls, unsigned size, unsigned declared);

static inline int wa_reserved_bit(const uint32_t *mask, unsigned r)
{
    return (mask[r >> 5] >> (r & 31)) & 1u;
}

#endif
