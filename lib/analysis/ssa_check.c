/* lib/analysis/ssa_check.c — the opt-in SSA check of wa_liveness_compute: each
   component of a virtual register is defined once, and every use is dominated by
   the definitions of the components it reads. Read-modify-write operands
   (v_writelane_b32's destination) update a value in place and are exempt. */
#include "analysis.h"

#include <string.h>

typedef struct def_site {
    unsigned item;   /* WA_NONE: not defined */
} def_site;

unsigned wa_ssa_check(const wa_program *prog, const wa_cfg *cfg)
{
    wa_context *ctx = prog->ctx;
    unsigned errors = 0;
    /* first definition site per (register, component) */
    unsigned *base = wa_mem_calloc(ctx, prog->nvregs + 1, sizeof(unsigned));
    unsigned total = 0;
    if (!base) {
        wa_error_nomem(ctx);
        return 1;
    }
    for (unsigned v = 0; v < prog->nvregs; v++) {
        base[v] = total;
        total += prog->vregs[v].size;
    }
    unsigned *site = wa_mem_calloc(ctx, total + 1, sizeof(unsigned));
    if (!site) {
        wa_mem_free(ctx, base);
        wa_error_nomem(ctx);
        return 1;
    }
    for (unsigned i = 0; i < total; i++)
        site[i] = WA_NONE;
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind != WA_OPND_VIRT || wa_instr_role(in, info, k) != WA_ROLE_DEF)
                continue;
            for (unsigned c = o->first; c < o->first + o->count; c++) {
                unsigned *s = &site[base[o->id] + c];
                if (*s == WA_NONE) {
                    *s = i;
                    continue;
                }
                const wa_instr *first = &prog->instrs[*s];
                wa_error(ctx, WA_E_VALIDATE, wa_instr_loc(prog, in),
                         "not SSA: component %u of %%%c%u is defined again (first definition: I%u%s%u)",
                         c, "?vsa"[prog->vregs[o->id].cls & 3], o->id, first->tag,
                         first->line ? ", line " : ", item ", first->line ? first->line : *s);
                errors++;
                break;
            }
        }
    }
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        unsigned ub = cfg->item_block[i];
        if (cfg->rpo_index[ub] == WA_NONE)
            continue; /* dominance means nothing in unreachable code */
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind != WA_OPND_VIRT || wa_instr_role(in, info, k) != WA_ROLE_USE)
                continue;
            for (unsigned c = o->first; c < o->first + o->count; c++) {
                unsigned d = site[base[o->id] + c];
                const char cl = "?vsa"[prog->vregs[o->id].cls & 3];
                if (d == WA_NONE) {
                    wa_error(ctx, WA_E_VALIDATE, wa_instr_loc(prog, in),
                             "not SSA: component %u of %%%c%u is used but never defined", c, cl, o->id);
                    errors++;
                    break;
                }
                unsigned db = cfg->item_block[d];
                int dominated = db == ub ? d < i : wa_cfg_dominates(cfg, db, ub);
                if (!dominated) {
                    wa_error(ctx, WA_E_VALIDATE, wa_instr_loc(prog, in),
                             "not SSA: this use of %%%c%u is not dominated by its definition (I%u)",
                             cl, o->id, prog->instrs[d].tag);
                    errors++;
                    break;
                }
            }
        }
    }
    wa_mem_free(ctx, site);
    wa_mem_free(ctx, base);
    return errors;
}
