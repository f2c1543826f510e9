/* lib/regalloc/rewrite.c — applies an allocation: virtual operands become physical
   registers, and copies that became self-moves disappear. */
#include "regalloc_internal.h"

#include <string.h>

wa_status wa_regalloc_apply(wa_program *prog, const wa_regalloc_result *res, unsigned *out_removed)
{
    if (!prog || !res)
        return WA_E_INVALID;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    if (out_removed)
        *out_removed = 0;
    /* Check everything first: the program is changed only if all operands map. */
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        for (unsigned k = 0; k < in->nops; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind != WA_OPND_VIRT)
                continue;
            if (o->id >= res->nvregs || res->reg[o->id] == WA_NONE ||
                res->cls[o->id] != o->reg_class || res->size[o->id] != prog->vregs[o->id].size)
                return wa_error(ctx, WA_E_INVALID, wa_instr_loc(prog, in),
                                "the allocation does not match this program (%%%u has no register)",
                                o->id);
        }
    }
    unsigned removed = 0, w = 0;
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        wa_instr in = prog->instrs[i];
        for (unsigned k = 0; k < in.nops; k++) {
            wa_operand *o = &in.ops[k];
            if (o->kind != WA_OPND_VIRT)
                continue;
            *o = wa_opnd_phys((wa_reg_class)o->reg_class, res->reg[o->id] + o->first, o->count);
        }
        const wa_isa_info *info = wa_isa(in.op);
        wa_mods none = WA_MODS_INIT;
        if ((info->flags & WA_IF_MOVE) && in.nops == 2 && in.ops[0].kind == WA_OPND_PHYS &&
            in.ops[1].kind == WA_OPND_PHYS && in.ops[0].reg_class == in.ops[1].reg_class &&
            in.ops[0].id == in.ops[1].id && in.ops[0].count == in.ops[1].count &&
            in.mods.flags == none.flags) {
            removed++;
            continue; /* a copy onto itself */
        }
        prog->instrs[w++] = in;
    }
    prog->ninstrs = w;
    prog->nvregs = 0; /* every register is physical now */
    prog->insert_at = WA_END;
    if (out_removed)
        *out_removed = removed;
    return WA_OK;
}
