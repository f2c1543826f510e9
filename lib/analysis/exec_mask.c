/* lib/analysis/exec_mask.c — where EXEC may hold fewer lanes than at kernel entry.

   A vector instruction writes only the lanes EXEC enables; the other lanes of its
   destination keep what they held. Where EXEC may be narrower than at entry, such
   a write is therefore also a read of the old value (for the lanes it leaves
   alone), and liveness must keep that value (liveness.c, "partial writes").

   The analysis is a forward dataflow over blocks. The state before an item is
   FULL (EXEC holds the lanes it held at entry) or PARTIAL, plus the set of SGPR
   pairs known to hold the entry mask (saved by s_and_saveexec_b64 or
   s_mov_b64 D, exec while FULL). Restores are recognised: s_mov_b64 exec, S and
   s_or_b64 exec, exec, S with S holding the entry mask make the state FULL
   again. Any other write of EXEC makes it PARTIAL. Joins: FULL only if every
   reachable predecessor is; pairs held on every path. Unreachable code never
   runs and counts as FULL. */
#include "analysis.h"

#include <string.h>

#define MAX_SAVED 16u

/* An SGPR pair known to hold the entry mask: virtual register `id` from
   component `first`, or physical s[first:first+1] (id == WA_NONE). */
typedef struct saved {
    unsigned id, first;
} saved;

typedef struct xstate {
    int known;              /* the block has been reached by the analysis */
    int full;
    unsigned n;
    saved s[MAX_SAVED];
} xstate;

static int is_exec(const wa_operand *o)
{
    return o->kind == WA_OPND_SPECIAL &&
           (o->id == WA_SPECIAL_EXEC || o->id == WA_SPECIAL_EXEC_LO || o->id == WA_SPECIAL_EXEC_HI);
}

static int is_exec64(const wa_operand *o)
{
    return o->kind == WA_OPND_SPECIAL && o->id == WA_SPECIAL_EXEC;
}

/* The pair an operand names, if it is a 2-register SGPR operand. */
static int pair_of(const wa_operand *o, saved *out)
{
    if (o->reg_class != WA_REG_SGPR || o->count != 2)
        return 0;
    if (o->kind == WA_OPND_VIRT)
        *out = (saved){ o->id, o->first };
    else if (o->kind == WA_OPND_PHYS)
        *out = (saved){ WA_NONE, o->id };
    else
        return 0;
    return 1;
}

static int holds_entry(const xstate *x, const wa_operand *o)
{
    saved p;
    if (!pair_of(o, &p))
        return 0;
    for (unsigned k = 0; k < x->n; k++)
        if (x->s[k].id == p.id && x->s[k].first == p.first)
            return 1;
    return 0;
}

/* An operand that is the entry mask: a saved pair, or EXEC itself while FULL. */
static int is_entry_mask(const xstate *x, const wa_operand *o)
{
    return (is_exec64(o) && x->full) || holds_entry(x, o);
}

/* Forgets saved pairs a write of `o` overlaps. */
static void clobber(xstate *x, const wa_operand *o)
{
    unsigned id, lo;
    if (o->reg_class != WA_REG_SGPR)
        return;
    if (o->kind == WA_OPND_VIRT) {
        id = o->id;
        lo = o->first;
    } else if (o->kind == WA_OPND_PHYS) {
        id = WA_NONE;
        lo = o->id;
    } else {
        return;
    }
    unsigned hi = lo + o->count, w = 0;
    for (unsigned k = 0; k < x->n; k++) {
        const saved *s = &x->s[k];
        if (!(s->id == id && s->first < hi && lo < s->first + 2))
            x->s[w++] = *s;
    }
    x->n = w;
}

static void remember(xstate *x, const wa_operand *o)
{
    saved p;
    if (!pair_of(o, &p) || x->n >= MAX_SAVED || holds_entry(x, o))
        return;
    x->s[x->n++] = p;
}

/* State after one item. */
static void step(xstate *x, const wa_instr *in)
{
    const wa_isa_info *info = wa_isa(in->op);
    if (info->flags & WA_IF_PSEUDO)
        return;
    unsigned nops = in->nops < info->num_operands ? in->nops : info->num_operands;
    int writes_exec = (info->implicit_defs & WA_IMPL_EXEC) != 0;
    const wa_operand *dst = NULL;
    for (unsigned k = 0; k < nops; k++)
        if (wa_instr_role(in, info, k) & WA_ROLE_DEF) {
            if (is_exec(&in->ops[k]))
                writes_exec = 1;
            else if (!dst)
                dst = &in->ops[k];
        }
    if (in->op == WA_OP_S_AND_SAVEEXEC_B64 && nops == 2) {
        /* dst := EXEC; EXEC &= src */
        int was_full = x->full;
        int src_full = is_entry_mask(x, &in->ops[1]);
        clobber(x, &in->ops[0]);
        if (was_full)
            remember(x, &in->ops[0]);
        x->full = was_full && src_full;
        return;
    }
    if (!writes_exec) {
        for (unsigned k = 0; k < nops; k++)
            if (wa_instr_role(in, info, k) & WA_ROLE_DEF)
                clobber(x, &in->ops[k]);
        if (in->op == WA_OP_S_MOV_B64 && nops == 2 && is_exec64(&in->ops[1]) && x->full)
            remember(x, &in->ops[0]);
        return;
    }
    /* EXEC is written */
    int full = 0;
    if (nops >= 2 && is_exec64(&in->ops[0])) {
        if (in->op == WA_OP_S_MOV_B64)
            full = is_entry_mask(x, &in->ops[1]);
        else if (in->op == WA_OP_S_OR_B64 && nops == 3)
            full = is_entry_mask(x, &in->ops[1]) || is_entry_mask(x, &in->ops[2]);
        else if (in->op == WA_OP_S_AND_B64 && nops == 3)
            full = is_entry_mask(x, &in->ops[1]) && is_entry_mask(x, &in->ops[2]);
    }
    if (dst)
        clobber(x, dst);
    x->full = full;
}

/* into = into JOIN from; returns 1 if `into` changed. */
static int join(xstate *into, const xstate *from)
{
    if (!from->known)
        return 0;
    if (!into->known) {
        *into = *from;
        return 1;
    }
    int changed = 0;
    if (into->full && !from->full) {
        into->full = 0;
        changed = 1;
    }
    unsigned w = 0;
    for (unsigned k = 0; k < into->n; k++) {
        int both = 0;
        for (unsigned j = 0; j < from->n && !both; j++)
            both = from->s[j].id == into->s[k].id && from->s[j].first == into->s[k].first;
        if (both)
            into->s[w++] = into->s[k];
        else
            changed = 1;
    }
    into->n = w;
    return changed;
}

wa_status wa_exec_partial(uint8_t **out, int *any, const wa_program *prog, const wa_cfg *cfg)
{
    wa_context *ctx = prog->ctx;
    unsigned n = prog->ninstrs, nb = cfg->nblocks;
    *out = NULL;
    *any = 0;
    uint8_t *partial = wa_mem_calloc(ctx, n + 1, 1);
    if (!partial)
        return wa_error_nomem(ctx);
    /* Fast path: a program that never writes EXEC runs with the entry mask. */
    int writes = 0;
    for (unsigned i = 0; i < n && !writes; i++)
        writes = wa_instr_writes_exec(&prog->instrs[i], wa_isa(prog->instrs[i].op));
    if (!writes) {
        *out = partial;
        return WA_OK;
    }
    xstate *in_state = wa_mem_calloc(ctx, nb + 1, sizeof(xstate));
    if (!in_state) {
        wa_mem_free(ctx, partial);
        return wa_error_nomem(ctx);
    }
    if (cfg->nrpo) {
        xstate *e = &in_state[cfg->rpo[0]];
        e->known = 1;
        e->full = 1;
    }
    /* iterate in reverse post-order until nothing changes (the state only
       narrows: FULL -> PARTIAL, pairs dropped) */
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned r = 0; r < cfg->nrpo; r++) {
            unsigned b = cfg->rpo[r];
            xstate x = in_state[b];
            if (!x.known)
                continue;
            for (unsigned i = cfg->first[b]; i <= cfg->last[b]; i++)
                step(&x, &prog->instrs[i]);
            for (unsigned e = cfg->succ.off[b]; e < cfg->succ.off[b + 1]; e++)
                changed |= join(&in_state[cfg->succ.data[e]], &x);
        }
    }
    for (unsigned b = 0; b < nb; b++) {
        xstate x = in_state[b];
        if (!x.known)
            continue; /* unreachable: never runs */
        for (unsigned i = cfg->first[b]; i <= cfg->last[b]; i++) {
            partial[i] = !x.full;
            step(&x, &prog->instrs[i]);
        }
    }
    for (unsigned i = 0; i < n; i++)
        *any |= partial[i];
    wa_mem_free(ctx, in_state);
    *out = partial;
    return WA_OK;
}

int wa_instr_writes_exec(const wa_instr *in, const wa_isa_info *info)
{
    if (info->implicit_defs & WA_IMPL_EXEC)
        return 1;
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
        if ((wa_instr_role(in, info, k) & WA_ROLE_DEF) && is_exec(&in->ops[k]))
            return 1;
    return 0;
}

int wa_lane_masked_write(const wa_instr *in, const wa_isa_info *info, unsigned k)
{
    const wa_operand *o = &in->ops[k];
    unsigned role = wa_instr_role(in, info, k);
    return (role & WA_ROLE_DEF) && !(role & WA_ROLE_USE) &&
           (o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS) &&
           (o->reg_class == WA_REG_VGPR || o->reg_class == WA_REG_AGPR);
}
