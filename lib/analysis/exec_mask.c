/* lib/analysis/exec_mask.c — where EXEC may differ from its value at kernel entry.

   A vector instruction writes only the lanes EXEC enables; the other lanes of its
   destination keep what they held. Where EXEC may lack a lane it held at entry,
   such a write is therefore also a read of the old value (for the lanes it
   leaves alone), and liveness must keep that value (liveness.c, "partial
   writes"); CSE gives every point where EXEC is the entry mask one epoch.

   The analysis is a forward dataflow over blocks. The state before an item
   describes EXEC by the bit values its lanes may hold, separately for the lanes
   on at entry and for the others (each a set of {0, 1}), plus SGPR pairs known to
   hold such a described value. EXEC is FULL where it is exactly the entry mask
   (entry lanes 1, others 0) and PARTIAL elsewhere. Writes of EXEC and of SGPR
   pairs are evaluated through the ISA table's bitwise facts (WA_LOGIC): every
   saveexec and wrexec form, and s_and/s_or/s_xor/s_andn2/s_orn2/s_nand/s_nor/
   s_xnor/s_not/s_mov_b64 with EXEC or a pair as the destination; a source is
   EXEC, a described pair, the constant 0 or -1, or unknown (either value in every
   lane), and the truth table gives the result lane by lane. So s_and_saveexec_b64
   saves the entry mask while FULL and leaves EXEC a subset of it,
   s_or_b64 exec, exec, S restores it, an "else" through s_xor_b64 or
   s_andn2_b64 stays a subset, and s_mov_b64 exec, -1 is not the entry mask. A
   compare that writes EXEC (v_cmpx: 0 in the inactive lanes) keeps a subset a
   subset; any other write of EXEC makes it unknown. Pairs are kept while they
   hold a subset of the entry mask. Joins: the union of what each reachable
   predecessor allows; pairs held on every path. Unreachable code never runs and
   counts as FULL. */
#include "analysis.h"

#include <string.h>

#define MAX_SAVED 16u

/* Bit values a set of lanes may hold. */
#define CAN0 1u
#define CAN1 2u

/* A 64-bit mask: what its entry lanes (`in`) and other lanes (`out`) may hold. */
typedef struct lval {
    unsigned in, out;
} lval;

static const lval lv_any = { CAN0 | CAN1, CAN0 | CAN1 };
static const lval lv_entry = { CAN1, CAN0 };

static int lv_eq(lval a, lval b) { return a.in == b.in && a.out == b.out; }
static int lv_subset(lval a) { return a.out == CAN0; }

/* An SGPR pair with a known description: virtual register `id` from component
   `first`, or physical s[first:first+1] (id == WA_NONE). */
typedef struct saved {
    unsigned id, first;
    lval v;
} saved;

typedef struct xstate {
    int known;              /* the block has been reached by the analysis */
    lval exec;
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
        *out = (saved){ o->id, o->first, lv_any };
    else if (o->kind == WA_OPND_PHYS)
        *out = (saved){ WA_NONE, o->id, lv_any };
    else
        return 0;
    return 1;
}

static const saved *find_saved(const xstate *x, const wa_operand *o)
{
    saved p;
    if (!pair_of(o, &p))
        return NULL;
    for (unsigned k = 0; k < x->n; k++)
        if (x->s[k].id == p.id && x->s[k].first == p.first)
            return &x->s[k];
    return NULL;
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

/* Notes what pair `o` (just written) holds, when it is a subset of the entry mask. */
static void remember(xstate *x, const wa_operand *o, lval v)
{
    saved p;
    if (!lv_subset(v) || !pair_of(o, &p) || x->n >= MAX_SAVED || find_saved(x, o))
        return;
    p.v = v;
    x->s[x->n++] = p;
}

static lval classify(const xstate *x, const wa_operand *o)
{
    if (is_exec64(o))
        return x->exec;
    const saved *p = find_saved(x, o);
    if (p)
        return p->v;
    if (o->kind == WA_OPND_IMM && o->imm.i == 0)
        return (lval){ CAN0, CAN0 };
    if (o->kind == WA_OPND_IMM && o->imm.i == -1)
        return (lval){ CAN1, CAN1 };
    return lv_any;
}

/* Possible result bits of truth table `logic` over possible source bits. */
static unsigned apply_set(unsigned logic, unsigned a, unsigned b)
{
    unsigned r = 0;
    for (unsigned i = 0; i < 2; i++)
        for (unsigned j = 0; j < 2; j++)
            if ((a >> i & 1u) && (b >> j & 1u))
                r |= CAN0 << WA_LOGIC_BIT(logic, i, j);
    return r;
}

static lval apply_lval(unsigned logic, lval a, lval b)
{
    return (lval){ apply_set(logic, a.in, b.in), apply_set(logic, a.out, b.out) };
}

/* The value a 64-bit bitwise row writes (src0, src1; SOP1 rows have one source). */
static lval logic_result(const xstate *x, const wa_instr *in, unsigned logic, unsigned nops)
{
    lval a = nops >= 2 ? classify(x, &in->ops[1]) : lv_any;
    lval b = nops >= 3 ? classify(x, &in->ops[2]) : lv_any;
    return apply_lval(logic, a, b);
}

/* State after one item. */
static void step(xstate *x, const wa_instr *in)
{
    const wa_isa_info *info = wa_isa(in->op);
    if (info->flags & WA_IF_PSEUDO)
        return;
    unsigned nops = in->nops < info->num_operands ? in->nops : info->num_operands;
    unsigned logic = wa_isa_logic(in->op);
    int writes_exec = (info->implicit_defs & WA_IMPL_EXEC) != 0;
    const wa_operand *dst = NULL;
    for (unsigned k = 0; k < nops; k++)
        if (wa_instr_role(in, info, k) & WA_ROLE_DEF) {
            if (is_exec(&in->ops[k]))
                writes_exec = 1;
            else if (!dst)
                dst = &in->ops[k];
        }
    if ((logic & WA_LOGIC_EXEC) && nops == 2) {
        /* saveexec / wrexec: dst := old (new) EXEC; EXEC := f(src0, EXEC) */
        lval old = x->exec;
        lval nv = apply_lval(logic, classify(x, &in->ops[1]), old);
        clobber(x, &in->ops[0]);
        if (!is_exec(&in->ops[0]))
            remember(x, &in->ops[0], (logic & WA_LOGIC_WREXEC) ? nv : old);
        x->exec = is_exec64(&in->ops[0]) ? old : nv;
        return;
    }
    int wide = (logic & WA_LOGIC_VALID) && nops >= 2 && info->operands[0].size == 2;
    if (!writes_exec) {
        lval v = wide ? logic_result(x, in, logic, nops) : lv_any;
        for (unsigned k = 0; k < nops; k++)
            if (wa_instr_role(in, info, k) & WA_ROLE_DEF)
                clobber(x, &in->ops[k]);
        if (wide)
            remember(x, &in->ops[0], v);
        return;
    }
    /* EXEC is written */
    if (wide && is_exec64(&in->ops[0]))
        x->exec = logic_result(x, in, logic, nops);
    else if (info->format == WA_FMT_VOPC && lv_subset(x->exec))
        x->exec = (lval){ CAN0 | CAN1, CAN0 }; /* v_cmpx: 0 in the inactive lanes */
    else
        x->exec = lv_any;
    if (dst)
        clobber(x, dst);
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
    lval e = { into->exec.in | from->exec.in, into->exec.out | from->exec.out };
    int changed = !lv_eq(e, into->exec);
    into->exec = e;
    unsigned w = 0;
    for (unsigned k = 0; k < into->n; k++) {
        const saved *other = NULL;
        for (unsigned j = 0; j < from->n && !other; j++)
            if (from->s[j].id == into->s[k].id && from->s[j].first == into->s[k].first)
                other = &from->s[j];
        saved keep = into->s[k];
        if (other) {
            lval v = { keep.v.in | other->v.in, keep.v.out | other->v.out };
            changed |= !lv_eq(v, keep.v);
            keep.v = v;
        }
        if (other && lv_subset(keep.v))
            into->s[w++] = keep;
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
        e->exec = lv_entry;
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
            partial[i] = !lv_eq(x.exec, lv_entry);
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
