/* lib/regalloc/result.c — allocation results: lookup, statistics, and results a
   host builds or edits itself (its own allocator's mapping, to check and apply). */
#include "regalloc_internal.h"

#include <string.h>

void wa_regalloc_destroy(wa_regalloc_result *res)
{
    if (!res)
        return;
    wa_context *ctx = res->ctx;
    wa_mem_free(ctx, res->reg);
    wa_mem_free(ctx, res->cls);
    wa_mem_free(ctx, res->size);
    wa_mem_free(ctx, res);
}

wa_regalloc_result *wa_regalloc_result_new(const wa_program *prog)
{
    wa_context *ctx = prog->ctx;
    wa_regalloc_result *res = wa_mem_calloc(ctx, 1, sizeof(*res));
    if (!res)
        return NULL;
    res->ctx = ctx;
    res->target = prog->target;
    res->nvregs = prog->nvregs;
    res->reg = wa_mem_calloc(ctx, prog->nvregs + 1, sizeof(uint32_t));
    res->cls = wa_mem_calloc(ctx, prog->nvregs + 1, 1);
    res->size = wa_mem_calloc(ctx, prog->nvregs + 1, sizeof(uint32_t));
    if (!res->reg || !res->cls || !res->size) {
        wa_regalloc_destroy(res);
        return NULL;
    }
    for (unsigned v = 0; v < prog->nvregs; v++) {
        res->reg[v] = WA_NONE;
        res->cls[v] = prog->vregs[v].cls;
        res->size[v] = prog->vregs[v].size;
    }
    /* the program's own physical registers count in the peaks */
    for (unsigned i = 0; i < prog->ninstrs; i++)
        for (unsigned k = 0; k < prog->instrs[i].nops; k++) {
            const wa_operand *o = &prog->instrs[i].ops[k];
            if (o->kind == WA_OPND_PHYS && o->reg_class >= WA_REG_VGPR && o->reg_class <= WA_REG_AGPR &&
                o->id + o->count > res->fixed_peak[o->reg_class])
                res->fixed_peak[o->reg_class] = o->id + o->count;
        }
    res->stats.version = WA_REGALLOC_STATS_VERSION;
    return res;
}

wa_status wa_regalloc_result_create(wa_regalloc_result **out, const wa_program *prog)
{
    if (!out || !prog)
        return WA_E_INVALID;
    *out = wa_regalloc_result_new(prog);
    return *out ? WA_OK : wa_error_nomem(prog->ctx);
}

wa_status wa_regalloc_assign(wa_regalloc_result *res, unsigned vreg, unsigned reg)
{
    if (!res)
        return WA_E_INVALID;
    if (vreg >= res->nvregs || res->cls[vreg] == WA_REG_NONE)
        return wa_error(res->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "wa_regalloc_assign: %u is not a virtual register of the program", vreg);
    if (reg != WA_NONE) {
        unsigned file = res->cls[vreg] == WA_REG_SGPR ? 128u : 256u;
        if (reg >= file || res->size[vreg] > file - reg)
            return wa_error(res->ctx, WA_E_INVALID, WA_LOC_NONE,
                            "wa_regalloc_assign: %u registers from %u do not fit the %u-register file",
                            res->size[vreg], reg, file);
    }
    res->reg[vreg] = reg;
    return WA_OK;
}

wa_status wa_regalloc_lookup(wa_operand *out, const wa_regalloc_result *res, unsigned vreg)
{
    if (!out || !res)
        return WA_E_INVALID;
    if (vreg >= res->nvregs || res->reg[vreg] == WA_NONE)
        return wa_error(res->ctx, WA_E_NOT_FOUND, WA_LOC_NONE,
                        "virtual register %u has no allocation (no live range)", vreg);
    *out = wa_opnd_phys((wa_reg_class)res->cls[vreg], res->reg[vreg], res->size[vreg]);
    return WA_OK;
}

wa_status wa_regalloc_get_stats(wa_regalloc_stats *out, const wa_regalloc_result *res)
{
    if (!out || !res)
        return WA_E_INVALID;
    *out = res->stats;
    /* peaks and counts follow the mapping, edits included */
    unsigned peak[4], n = 0;
    memcpy(peak, res->fixed_peak, sizeof(peak));
    for (unsigned v = 0; v < res->nvregs; v++) {
        if (res->reg[v] == WA_NONE || res->cls[v] < WA_REG_VGPR || res->cls[v] > WA_REG_AGPR)
            continue;
        n++;
        if (res->reg[v] + res->size[v] > peak[res->cls[v]])
            peak[res->cls[v]] = res->reg[v] + res->size[v];
    }
    out->peak_vgprs = peak[WA_REG_VGPR];
    out->peak_sgprs = peak[WA_REG_SGPR];
    out->peak_agprs = peak[WA_REG_AGPR];
    out->intervals = n;
    return WA_OK;
}
