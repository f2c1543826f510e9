/* lib/passes/cse.c — scoped common subexpression elimination and loop-invariant
   hoisting (docs/cse.md).

   The IR is not in SSA form, so the pass first decides which virtual registers
   behave like SSA values: exactly one definition in the whole program, writing
   the whole register (no component write, no lane-masked write where EXEC may be
   narrower than at entry), in reachable code, with every read strictly
   dominated by that definition (so no read sees an older or a missing value).
   Physical registers the program never writes (the ABI inputs) and immediates
   are values too. A candidate is a pure instruction (ISA table facts: no memory,
   no side effects, no special registers, no cross-lane access) whose single
   destination is such a value and whose sources are values.

   Hoisting runs first (reverse post-order, so an operand's definition is placed
   before its readers): a candidate whose sources are all defined outside a loop
   moves to the end of the loop's preheader, as far out as the conditions allow.
   Then one walk of the dominator tree keeps a scoped hash table of the candidate
   expressions seen on the path from the entry (hoisted instructions at their new
   places); an expression already in the table is removed and its register
   renamed to the earlier one. VALU candidates carry the EXEC epoch in their key.
   Finally the items are rebuilt in place (one pass each way): removed and moved
   instructions, new preheader labels, renamed operands. */
#include "pass_util.h"

#include <stddef.h>
#include <string.h>

/* Modifier bytes past the fields the key names one by one: fields appended to
   wa_mods later are compared too, byte by byte (padding at worst makes two
   equal instructions look different). */
#define MODS_KNOWN (offsetof(wa_mods, expcnt) + sizeof(int8_t))
#define MODS_TAIL_WORDS ((sizeof(wa_mods) - MODS_KNOWN + 7u) / 8u)
#define CSE_KEY_WORDS (5u + MODS_TAIL_WORDS + 2u * WA_ISA_MAX_OPERANDS)

/* Per-opcode facts derived from the ISA table once per run. */
#define OPF_PURE 0x1u    /* a pure computation with one destination */
#define OPF_EXEC 0x2u    /* reads EXEC implicitly (VALU): the key carries the epoch */
#define OPF_COMM 0x4u    /* src0 and src1 commute (WA_IF_COMMUTATIVE; for the key only:
                            operands are never reordered in the program) */

enum { ST_KEEP = 0, ST_HOISTED, ST_GONE };

typedef struct cse {
    wa_program *prog;
    wa_context *ctx;
    wa_cfg cfg;
    unsigned n, nb, nv, nl;
    uint8_t opf[WA_OP_COUNT_];
    uint8_t *partial;      /* per item: EXEC may be narrower than at entry (NULL: nowhere) */
    uint8_t *wexec;        /* per item: writes EXEC (NULL: nothing does) */
    unsigned instrs;       /* real instructions */
    unsigned npure;        /* instructions of OPF_PURE opcodes */
    int any_virtual;
    uint8_t *vstate;       /* per vreg: defs seen (0, 1, 2 = more) | VS_BAD */
    unsigned *vdef;        /* per vreg: the defining item */
    unsigned *rep;         /* per vreg: register that now holds its value */
    unsigned *pos_loop;    /* per vreg: innermost loop around the definition's place */
    uint8_t phys_written[WA_UNITS];
    uint8_t *cand;         /* per item: CAND_* (decided on first request) */
    uint8_t *state;        /* per item: ST_* */
    unsigned *epoch;       /* per item: EXEC epoch in effect when it executes (NULL: all 0) */
    unsigned *epoch_in;    /* per block (NULL: all 0) */
    unsigned *hnext;       /* per item: next in its hoist list */
    unsigned *pre_head, *pre_tail;   /* per block: hoisted to a new preheader before it */
    unsigned *post_head, *post_tail; /* per block: hoisted to its end (it is a preheader) */
    /* loops */
    unsigned *lpre, *lpost;          /* loop tree DFS numbers (containment) */
    unsigned *header_loop;           /* per block: the loop it heads, WA_NONE */
    uint8_t *lwrites_exec;           /* per loop */
    unsigned *ph_block;              /* per loop: existing preheader block, WA_NONE */
    uint8_t *ph_create;              /* per loop: a preheader can be created */
    /* dominator tree children */
    unsigned *coff, *cdat;
    /* scoped table */
    unsigned *table;                 /* slot -> entry + 1 */
    unsigned mask;
    uint64_t *ent_hash;
    unsigned *ent_item, *ent_slot;
    unsigned nent;
    /* pressure budget of hoisting (per class 1..3: VGPR, SGPR, AGPR) */
    unsigned limit[4];
    unsigned *blk_peak[4];           /* per block: peak pressure before the pass */
    unsigned *lblocks;               /* blocks inside loops, ordered by their loop's lpre */
    unsigned *lpos;                  /* per DFS number d: lblocks entries with number < d;
                                        loop l's blocks are lblocks[lpos[lpre[l]]..lpos[lpost[l]]) */
    int *blk_extra[4];               /* per block: added by the hoists so far */
    unsigned *nreads;                /* per vreg: operands reading it */
    unsigned *hreads;                /* per vreg: of those, in hoisted instructions */
    unsigned declined;               /* invariants left in place for pressure */
    /* statistics */
    unsigned eliminated, hoisted, changed;
} cse;

#define VS_COUNT 0x3u
#define VS_BAD 0x4u
#define VS_LANES 0x8u  /* the definition is a lane-masked (VGPR/AGPR) write */

enum { CAND_UNKNOWN = 0, CAND_NO, CAND_YES };

/* ---- ISA facts ------------------------------------------------------------------------ */

static unsigned op_facts(unsigned op)
{
    const wa_isa_info *info = wa_isa(op);
    const unsigned impure = WA_IF_PSEUDO | WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM |
                            WA_IF_BARRIER | WA_IF_WAITCNT | WA_IF_NOP | WA_IF_LOAD |
                            WA_IF_STORE | WA_IF_ATOMIC | WA_IF_LDS_DMA | WA_IF_SIDE_EFFECTS |
                            WA_IF_RTN_GLC | WA_IF_SMEM_BUFFER | WA_IF_DS_2ADDR;
    if (info->flags & impure)
        return 0;
    if (info->counters || info->implicit_defs || (info->implicit_uses & ~WA_IMPL_EXEC))
        return 0;
    switch (info->latency) {
    case WA_LAT_SALU:
    case WA_LAT_VALU:
    case WA_LAT_TRANS:
    case WA_LAT_MFMA:
        break;
    default:
        return 0; /* memory, branches, control */
    }
    /* cross-lane: v_readlane/v_readfirstlane read other lanes (the first active
       one depends on EXEC), v_writelane keeps the other lanes */
    if (info->hazard == WA_HZ_READLANE || info->hazard == WA_HZ_WRITELANE)
        return 0;
    unsigned defs = 0;
    for (unsigned k = 0; k < info->num_operands; k++) {
        unsigned r = info->operands[k].role;
        if ((r & WA_ROLE_DEF) && (r & WA_ROLE_USE))
            return 0;
        defs += (r & WA_ROLE_DEF) != 0;
    }
    if (defs != 1)
        return 0;
    unsigned f = OPF_PURE;
    if (info->implicit_uses & WA_IMPL_EXEC)
        f |= OPF_EXEC;
    if (info->flags & WA_IF_COMMUTATIVE)
        f |= OPF_COMM;
    return f;
}

/* ---- helpers ---------------------------------------------------------------------------- */

static unsigned nops_of(const wa_instr *in, const wa_isa_info *info)
{
    return in->nops < info->num_operands ? in->nops : info->num_operands;
}

/* The destination operand of a pure instruction (OPF_PURE: exactly one). */
static unsigned def_index(const wa_instr *in)
{
    const wa_isa_info *info = wa_isa(in->op);
    for (unsigned k = 0; k < in->nops; k++)
        if (info->operands[k].role & WA_ROLE_DEF)
            return k;
    return 0;
}

static int loop_contains(const cse *c, unsigned l, unsigned m)
{
    return m != WA_NONE && c->lpre[l] <= c->lpre[m] && c->lpost[m] <= c->lpost[l];
}

static int reachable(const cse *c, unsigned b)
{
    return c->cfg.rpo_index[b] != WA_NONE;
}

/* Item d's definition strictly precedes item u on every path from the entry. */
static int strictly_dominates(const cse *c, unsigned d, unsigned u)
{
    unsigned bd = c->cfg.item_block[d], bu = c->cfg.item_block[u];
    if (bd == bu)
        return d < u;
    return wa_cfg_dominates(&c->cfg, bd, bu);
}

static int phys_unwritten(const cse *c, const wa_operand *o)
{
    unsigned lim = o->reg_class == WA_REG_SGPR ? 128u : 256u;
    if (o->reg_class != WA_REG_SGPR && o->reg_class != WA_REG_VGPR && o->reg_class != WA_REG_AGPR)
        return 0;
    for (unsigned k = 0; k < o->count; k++) {
        if (o->id + k >= lim)
            return 0;
        if (c->phys_written[wa_phys_unit((wa_reg_class)o->reg_class, o->id + k)])
            return 0;
    }
    return 1;
}

static int vreg_is_value(const cse *c, unsigned v)
{
    return v < c->nv && (c->vstate[v] & (VS_COUNT | VS_BAD)) == 1;
}

/* ---- analysis: values, candidates ------------------------------------------------------- */

static int is_exec_operand(const wa_operand *o)
{
    return o->kind == WA_OPND_SPECIAL &&
           (o->id == WA_SPECIAL_EXEC || o->id == WA_SPECIAL_EXEC_LO || o->id == WA_SPECIAL_EXEC_HI);
}

/* One pass before the CFG: instructions, definitions of every virtual
   register, physical registers written, writes of EXEC. */
static wa_status scan_defs(cse *c)
{
    wa_program *prog = c->prog;
    for (unsigned i = 0; i < c->n; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        c->instrs++;
        c->npure += c->opf[in->op] & OPF_PURE;
        int wexec = (info->implicit_defs & WA_IMPL_EXEC) != 0;
        for (unsigned k = 0, nk = nops_of(in, info); k < nk; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind == WA_OPND_VIRT)
                c->any_virtual = 1;
            if (!(wa_instr_role(in, info, k) & WA_ROLE_DEF))
                continue;
            if (o->kind == WA_OPND_VIRT && o->id < c->nv) {
                uint8_t *st = &c->vstate[o->id];
                if ((*st & VS_COUNT) < 2)
                    (*st)++;
                c->vdef[o->id] = i;
                if (o->first != 0 || o->count != prog->vregs[o->id].size)
                    *st |= VS_BAD;
                if (wa_lane_masked_write(in, info, k))
                    *st |= VS_LANES;
            } else if (o->kind == WA_OPND_PHYS) {
                unsigned lim = o->reg_class == WA_REG_SGPR ? 128u : 256u;
                for (unsigned r = 0; r < o->count && o->id + r < lim; r++)
                    c->phys_written[wa_phys_unit((wa_reg_class)o->reg_class, o->id + r)] = 1;
            } else if (is_exec_operand(o)) {
                wexec = 1;
            }
        }
        if (wexec) {
            if (!c->wexec && !(c->wexec = wa_tmp_calloc(c->ctx, c->n + 1, 1)))
                return wa_error_nomem(c->ctx);
            c->wexec[i] = 1;
        }
    }
    return WA_OK;
}

/* Registers defined once, wholly, in reachable code, not lane by lane under a
   narrowed EXEC, and read only strictly after that definition. */
static void find_values(cse *c)
{
    wa_program *prog = c->prog;
    for (unsigned v = 0; v < c->nv; v++) {
        uint8_t *st = &c->vstate[v];
        if ((*st & VS_COUNT) != 1)
            continue;
        unsigned d = c->vdef[v];
        if (!reachable(c, c->cfg.item_block[d]) ||
            ((*st & VS_LANES) && c->partial && c->partial[d]))
            *st |= VS_BAD;
    }
    for (unsigned r = 0; r < c->cfg.nrpo; r++) {
        unsigned b = c->cfg.rpo[r];
        for (unsigned i = c->cfg.first[b]; i <= c->cfg.last[b]; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            for (unsigned k = 0, nk = nops_of(in, info); k < nk; k++) {
                const wa_operand *o = &in->ops[k];
                if (o->kind != WA_OPND_VIRT || o->id >= c->nv)
                    continue;
                uint8_t *st = &c->vstate[o->id];
                if ((*st & (VS_COUNT | VS_BAD)) == 1 &&
                    (wa_instr_role(in, info, k) & WA_ROLE_USE) &&
                    !strictly_dominates(c, c->vdef[o->id], i))
                    *st |= VS_BAD;
            }
        }
    }
    for (unsigned v = 0; v < c->nv; v++) {
        c->rep[v] = v;
        c->pos_loop[v] = vreg_is_value(c, v) ? c->cfg.block_loop[c->cfg.item_block[c->vdef[v]]]
                                             : WA_NONE;
    }
}

/* A pure instruction of reachable code whose destination is a value it
   defines and whose sources are values or constants. */
static int candidate(cse *c, unsigned i)
{
    if (c->cand[i] != CAND_UNKNOWN)
        return c->cand[i] == CAND_YES;
    const wa_instr *in = &c->prog->instrs[i];
    const wa_isa_info *info = wa_isa(in->op);
    int ok = (c->opf[in->op] & OPF_PURE) && in->nops == info->num_operands &&
             reachable(c, c->cfg.item_block[i]);
    for (unsigned k = 0; k < in->nops && ok; k++) {
        const wa_operand *o = &in->ops[k];
        unsigned role = wa_instr_role(in, info, k);
        if (role & WA_ROLE_DEF) {
            /* a destination also read as executed (DPP keeps masked lanes) is
               not a pure result */
            ok = !(role & WA_ROLE_USE) && o->kind == WA_OPND_VIRT && vreg_is_value(c, o->id) &&
                 c->vdef[o->id] == i;
            continue;
        }
        switch (o->kind) {
        case WA_OPND_IMM:
        case WA_OPND_FIMM:
            break;
        case WA_OPND_VIRT:
            ok = vreg_is_value(c, o->id);
            break;
        case WA_OPND_PHYS:
            ok = phys_unwritten(c, o);
            break;
        default:
            ok = 0; /* special registers, labels, `off` */
            break;
        }
    }
    c->cand[i] = ok ? CAND_YES : CAND_NO;
    return ok;
}

static unsigned epoch_of(const cse *c, unsigned i)
{
    return c->epoch ? c->epoch[i] : 0;
}

static unsigned epoch_in_of(const cse *c, unsigned b)
{
    return c->epoch_in ? c->epoch_in[b] : 0;
}

/* ---- EXEC epochs -------------------------------------------------------------------------

   Two points with the same epoch run under the same EXEC whenever one dominates
   the other: a new epoch starts after every write of EXEC and at every block
   whose predecessors may arrive with different epochs. The back edges of a loop
   that never writes EXEC carry the header's epoch and do not count. Unreachable
   blocks keep whatever their items held (they are never candidates). */

static void compute_epochs(cse *c)
{
    const wa_cfg *g = &c->cfg;
    unsigned next = 1;
    unsigned *eout = c->hnext; /* borrowed: hoist lists are built later */
    for (unsigned r = 0; r < g->nrpo; r++) {
        unsigned b = g->rpo[r], e = WA_NONE;
        int conflict = 0;
        if (r == 0)
            e = 0; /* kernel entry */
        for (unsigned k = g->pred.off[b]; k < g->pred.off[b + 1]; k++) {
            unsigned p = g->pred.data[k];
            if (g->rpo_index[p] == WA_NONE)
                continue;
            if (g->rpo_index[p] >= r) {
                unsigned l = c->header_loop[b];
                if (l != WA_NONE && !c->lwrites_exec[l] && loop_contains(c, l, g->block_loop[p]))
                    continue;
                conflict = 1;
                continue;
            }
            if (e == WA_NONE)
                e = eout[p];
            else if (e != eout[p])
                conflict = 1;
        }
        if (conflict || e == WA_NONE)
            e = next++;
        c->epoch_in[b] = e;
        for (unsigned i = g->first[b]; i <= g->last[b]; i++) {
            c->epoch[i] = e;
            if (c->wexec[i])
                e = next++;
        }
        eout[b] = e;
    }
    /* Where the EXEC analysis proves EXEC holds the entry mask (a region's
       restore, s_or_b64 exec, exec, saved), every point shares epoch 0, however
       it got there; the others keep their epochs, made non-zero. */
    for (unsigned i = 0; i < c->n; i++)
        c->epoch[i] = c->partial[i] ? c->epoch[i] + 1 : 0;
    for (unsigned b = 0; b < c->nb; b++)
        c->epoch_in[b] = c->epoch[g->first[b]];
}

/* ---- loops and preheaders ------------------------------------------------------------------ */

static wa_status analyse_loops(cse *c)
{
    const wa_cfg *g = &c->cfg;
    wa_context *ctx = c->ctx;
    wa_program *prog = c->prog;
    unsigned nl = c->nl, nb = c->nb;
    c->lpre = wa_tmp_calloc(ctx, nl + 1, sizeof(unsigned));
    c->lpost = wa_tmp_calloc(ctx, nl + 1, sizeof(unsigned));
    c->lwrites_exec = wa_tmp_calloc(ctx, nl + 1, 1);
    c->ph_block = wa_tmp_calloc(ctx, nl + 1, sizeof(unsigned));
    c->ph_create = wa_tmp_calloc(ctx, nl + 1, 1);
    c->header_loop = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    unsigned *off = wa_tmp_calloc(ctx, nl + 2, sizeof(unsigned));
    unsigned *dat = wa_tmp_calloc(ctx, nl + 1, sizeof(unsigned));
    unsigned *fill = wa_tmp_calloc(ctx, nl + 1, sizeof(unsigned));
    unsigned *stack = wa_tmp_calloc(ctx, nl + 1, sizeof(unsigned));
    if (!c->lpre || !c->lpost || !c->lwrites_exec || !c->ph_block || !c->ph_create ||
        !c->header_loop || !off || !dat || !fill || !stack) {
        wa_tmp_free(ctx, off);
        wa_tmp_free(ctx, dat);
        wa_tmp_free(ctx, fill);
        wa_tmp_free(ctx, stack);
        return wa_error_nomem(ctx);
    }
    for (unsigned b = 0; b < nb; b++)
        c->header_loop[b] = WA_NONE;
    for (unsigned l = 0; l < nl; l++)
        c->header_loop[g->loops[l].header] = l;
    /* loop tree (parents come before children in cfg->loops) and DFS numbers;
       the roots hang off a virtual node nl */
    for (unsigned l = 0; l < nl; l++) {
        unsigned p = g->loops[l].parent == WA_NONE ? nl : g->loops[l].parent;
        off[p + 1]++;
    }
    for (unsigned l = 0; l <= nl; l++)
        off[l + 1] += off[l];
    for (unsigned l = 0; l < nl; l++) {
        unsigned p = g->loops[l].parent == WA_NONE ? nl : g->loops[l].parent;
        dat[off[p] + fill[p]++] = l;
    }
    memset(fill, 0, (nl + 1) * sizeof(unsigned));
    unsigned sp = 0, counter = 0;
    stack[sp++] = nl;
    while (sp) {
        unsigned l = stack[sp - 1];
        if (off[l] + fill[l] < off[l + 1]) {
            unsigned ch = dat[off[l] + fill[l]++];
            c->lpre[ch] = counter++;
            stack[sp++] = ch;
        } else {
            if (l != nl)
                c->lpost[l] = counter++;
            sp--;
        }
    }
    wa_tmp_free(ctx, off);
    wa_tmp_free(ctx, dat);
    wa_tmp_free(ctx, fill);
    wa_tmp_free(ctx, stack);
    /* blocks inside loops by their loop's DFS number (a counting sort): a loop's
       subtree holds the numbers lpre[l]..lpost[l], so its blocks are one range */
    c->lpos = wa_tmp_calloc(ctx, 2u * nl + 2u, sizeof(unsigned));
    c->lblocks = wa_tmp_alloc(ctx, (nb + 1) * sizeof(unsigned));
    if (!c->lpos || !c->lblocks)
        return wa_error_nomem(ctx);
    for (unsigned b = 0; b < nb; b++)
        if (g->block_loop[b] != WA_NONE)
            c->lpos[c->lpre[g->block_loop[b]] + 1]++;
    for (unsigned d = 0; d < 2u * nl; d++)
        c->lpos[d + 1] += c->lpos[d];
    for (unsigned b = 0; b < nb; b++)
        if (g->block_loop[b] != WA_NONE)
            c->lblocks[c->lpos[c->lpre[g->block_loop[b]]]++] = b;
    for (unsigned d = 2u * nl + 1u; d-- > 1;)
        c->lpos[d] = c->lpos[d - 1];
    c->lpos[0] = 0;
    /* loops that write EXEC (inner loops' writes count for their parents) */
    for (unsigned i = 0; c->wexec && i < c->n; i++) {
        unsigned b = g->item_block[i];
        if (c->wexec[i] && g->block_loop[b] != WA_NONE)
            c->lwrites_exec[g->block_loop[b]] = 1;
    }
    for (unsigned l = nl; l-- > 0;)
        if (c->lwrites_exec[l] && g->loops[l].parent != WA_NONE)
            c->lwrites_exec[g->loops[l].parent] = 1;
    /* preheaders */
    for (unsigned l = 0; l < nl; l++) {
        unsigned h = g->loops[l].header, outside = 0, p0 = WA_NONE;
        c->ph_block[l] = WA_NONE;
        for (unsigned k = g->pred.off[h]; k < g->pred.off[h + 1]; k++) {
            unsigned p = g->pred.data[k];
            if (!reachable(c, p) || loop_contains(c, l, g->block_loop[p]))
                continue;
            outside++;
            p0 = p;
        }
        if (outside == 1 && g->succ.off[p0 + 1] - g->succ.off[p0] == 1) {
            c->ph_block[l] = p0;
            continue;
        }
        /* A new block before the header: the block laid out before it must not be
           one of the loop's own blocks falling into the header (its back edge
           would then run through the new block). */
        int ok = 1;
        if (h > 0) {
            unsigned q = h - 1;
            const wa_isa_info *t = wa_isa(prog->instrs[g->last[q]].op);
            int falls = !(t->flags & (WA_IF_BRANCH | WA_IF_ENDPGM));
            if (falls && reachable(c, q) && loop_contains(c, l, g->block_loop[q]))
                ok = 0;
        }
        c->ph_create[l] = (uint8_t)ok;
    }
    return WA_OK;
}

/* ---- hoisting ------------------------------------------------------------------------------- */

static void list_append(cse *c, unsigned *head, unsigned *tail, unsigned i)
{
    c->hnext[i] = WA_NONE;
    if (*head == WA_NONE)
        *head = i;
    else
        c->hnext[*tail] = i;
    *tail = i;
}

/* The outermost loop `i` can leave: its sources are defined outside (invariance
   fails for every loop around one it fails for), EXEC is the same at the
   preheader for VALU, and the loop has or can get a preheader. */
static unsigned hoist_target(const cse *c, unsigned i)
{
    const wa_cfg *g = &c->cfg;
    const wa_instr *in = &c->prog->instrs[i];
    const wa_isa_info *info = wa_isa(in->op);
    unsigned target = WA_NONE;
    for (unsigned l = g->block_loop[g->item_block[i]]; l != WA_NONE; l = g->loops[l].parent) {
        int inv = 1;
        for (unsigned k = 0; k < in->nops && inv; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind == WA_OPND_VIRT && !(info->operands[k].role & WA_ROLE_DEF))
                inv = !loop_contains(c, l, c->pos_loop[o->id]);
        }
        if (!inv)
            break;
        if ((c->opf[in->op] & OPF_EXEC) &&
            (c->lwrites_exec[l] || epoch_of(c, i) != epoch_in_of(c, g->loops[l].header)))
            continue;
        if (c->ph_block[l] == WA_NONE && !c->ph_create[l])
            continue;
        target = l;
    }
    return target;
}

/* ---- pressure budget ------------------------------------------------------------------------

   A hoisted value is live across its whole loop (its sources, defined outside
   and read inside, already are). Before the first hoist the pass measures each
   block's peak pressure per register class on the program as it is; a hoist to
   loop l is kept while, in every block of l, that peak plus what earlier hoists
   added there plus the value's size stays within the budget: the allocator's
   limit less a margin of 1/16 for alignment and fragmentation, and for VGPRs and
   AGPRs no more than the kernel's peak can grow without losing a wave per SIMD
   (they share one file of 512 per lane, in granules of 8: docs/cse.md). An
   invariant recomputed each iteration costs an instruction; a wave less costs
   the latency hiding of all of them. A source whose every reader has been
   hoisted no longer lives through the loop: its size is given back. Without the
   budget a kernel with a few hundred invariants that allocates as written fails
   after the pass. */

/* The largest VGPR+AGPR total that keeps as many waves per SIMD as `total`. */
static unsigned same_occupancy_top(unsigned total)
{
    unsigned gran = ((total ? total : 1) + 7u) / 8u * 8u;
    unsigned waves = 512u / gran;
    if (waves > 8u)
        waves = 8u;
    if (waves == 0)
        return 512u;
    return 512u / waves / 8u * 8u;
}

static wa_status measure_pressure(cse *c, const wa_cse_options *o)
{
    wa_context *ctx = c->ctx;
    const wa_cfg *g = &c->cfg;
    unsigned def_max[4] = { 0, 256, WA_MAX_SGPR, 256 };
    unsigned want[4] = { 0, o->max_vgprs, o->max_sgprs, o->max_agprs };
    for (unsigned k = 1; k < 4; k++) {
        unsigned lim = want[k] ? want[k] : def_max[k];
        c->limit[k] = lim - lim / 16u;
    }
    wa_liveness *live = NULL;
    wa_status st = wa_liveness_compute(&live, c->prog, NULL);
    if (st == WA_E_NOMEM)
        return st;
    if (st != WA_OK) {
        /* a program liveness refuses: hoist nothing (the allocator reports it) */
        wa_diag_reset(ctx);
        for (unsigned k = 1; k < 4; k++)
            c->limit[k] = 0;
    }
    c->nreads = wa_tmp_calloc(ctx, c->nv + 1, sizeof(unsigned));
    c->hreads = wa_tmp_calloc(ctx, c->nv + 1, sizeof(unsigned));
    if (!c->nreads || !c->hreads) {
        wa_liveness_destroy(live);
        return wa_error_nomem(ctx);
    }
    for (unsigned i = 0; i < c->n; i++) {
        const wa_instr *in = &c->prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        for (unsigned k = 0; k < in->nops; k++)
            if (in->ops[k].kind == WA_OPND_VIRT && (wa_instr_role(in, info, k) & WA_ROLE_USE))
                c->nreads[in->ops[k].id]++;
    }
    for (unsigned k = 1; k < 4; k++) {
        c->blk_peak[k] = wa_tmp_calloc(ctx, c->nb + 1, sizeof(unsigned));
        c->blk_extra[k] = wa_tmp_calloc(ctx, c->nb + 1, sizeof(int));
        if (!c->blk_peak[k] || !c->blk_extra[k]) {
            wa_liveness_destroy(live);
            return wa_error_nomem(ctx);
        }
        if (!live)
            continue;
        for (unsigned b = 0; b < c->nb; b++) {
            unsigned peak = 0;
            for (unsigned i = g->first[b]; i <= g->last[b] && i < c->n; i++)
                if (live->pressure[k][i] > peak)
                    peak = live->pressure[k][i];
            c->blk_peak[k][b] = peak;
        }
    }
    if (live) {
        /* keep the occupancy the kernel's peak pressure allows */
        unsigned pv = live->max_pressure[WA_REG_VGPR], pa = live->max_pressure[WA_REG_AGPR];
        unsigned v4 = ((pv ? pv : 1) + 3u) / 4u * 4u;
        unsigned top = same_occupancy_top(pa ? v4 + pa : pv);
        unsigned vtop = pa ? (top > pa ? (top - pa) / 4u * 4u : 0) : top;
        unsigned atop = top > v4 ? top - v4 : 0;
        if (c->limit[WA_REG_VGPR] > vtop)
            c->limit[WA_REG_VGPR] = vtop;
        if (c->limit[WA_REG_AGPR] > atop)
            c->limit[WA_REG_AGPR] = atop;
    }
    wa_liveness_destroy(live);
    return WA_OK;
}

/* Does hoisting item i's value out of loop l fit the budget? If so, book it. */
static int budget_allows(cse *c, unsigned i, unsigned l)
{
    const wa_instr *in = &c->prog->instrs[i];
    const wa_vreg *v = &c->prog->vregs[in->ops[def_index(in)].id];
    unsigned k = v->cls;
    if (k < 1 || k > 3)
        return 0;
    /* the blocks of loop l and its inner loops: one range of lblocks, so that a
       hoist costs the loop's size rather than the program's */
    const unsigned *lb = c->lblocks + c->lpos[c->lpre[l]];
    unsigned nlb = c->lpos[c->lpost[l]] - c->lpos[c->lpre[l]];
    for (unsigned j = 0; j < nlb; j++)
        if ((long)c->blk_peak[k][lb[j]] + c->blk_extra[k][lb[j]] + (long)v->size >
            (long)c->limit[k])
            return 0;
    for (unsigned j = 0; j < nlb; j++)
        c->blk_extra[k][lb[j]] += (int)v->size;
    const wa_isa_info *info = wa_isa(in->op);
    for (unsigned s = 0; s < in->nops; s++) {
        const wa_operand *o = &in->ops[s];
        if (o->kind != WA_OPND_VIRT || !(wa_instr_role(in, info, s) & WA_ROLE_USE) ||
            ++c->hreads[o->id] != c->nreads[o->id])
            continue;
        const wa_vreg *sv = &c->prog->vregs[o->id];
        if (sv->cls < 1 || sv->cls > 3)
            continue;
        for (unsigned j = 0; j < nlb; j++)
            c->blk_extra[sv->cls][lb[j]] -= (int)sv->size;
    }
    return 1;
}

static void hoist(cse *c)
{
    const wa_cfg *g = &c->cfg;
    for (unsigned r = 0; r < g->nrpo; r++) {
        unsigned b = g->rpo[r];
        if (g->block_loop[b] == WA_NONE)
            continue;
        for (unsigned i = g->first[b]; i <= g->last[b]; i++) {
            if (!(c->opf[c->prog->instrs[i].op] & OPF_PURE) || !candidate(c, i))
                continue;
            unsigned l = hoist_target(c, i);
            if (l == WA_NONE)
                continue;
            if (!budget_allows(c, i, l)) {
                c->declined++;
                continue;
            }
            c->state[i] = ST_HOISTED;
            unsigned p = c->ph_block[l];
            if (p != WA_NONE) {
                list_append(c, &c->post_head[p], &c->post_tail[p], i);
            } else {
                unsigned h = g->loops[l].header;
                list_append(c, &c->pre_head[h], &c->pre_tail[h], i);
            }
            /* the preheader lies in every loop around l, not in l */
            const wa_instr *in = &c->prog->instrs[i];
            c->pos_loop[in->ops[def_index(in)].id] = g->loops[l].parent;
            c->hoisted++;
        }
    }
}

/* ---- keys and the scoped table ------------------------------------------------------------ */

typedef struct cse_key {
    uint64_t w[CSE_KEY_WORDS];
    unsigned n;
} cse_key;

/* Swapping src0 and src1 keeps the value only when nothing the instruction
   attaches to one of them differs from the other's: per-source modifier bits
   (neg, abs, neg_hi, op_sel, op_sel_hi, sext), SDWA selects, DPP (src0's lanes). */
static int sources_swappable(const wa_mods *m)
{
    unsigned diff = (m->neg ^ m->neg >> 1) | (m->abs ^ m->abs >> 1) | (m->neg_hi ^ m->neg_hi >> 1) |
                    (m->op_sel ^ m->op_sel >> 1) | (m->op_sel_hi ^ m->op_sel_hi >> 1) |
                    (m->sext ^ m->sext >> 1);
    if (diff & 1u)
        return 0;
    if (m->flags & WA_MOD_DPP)
        return 0;
    return !(m->flags & WA_MOD_SDWA) || m->src0_sel == m->src1_sel;
}

static void make_key(const cse *c, unsigned i, cse_key *key)
{
    const wa_instr *in = &c->prog->instrs[i];
    unsigned f = c->opf[in->op];
    const wa_mods *m = &in->mods;
    unsigned n = 0, dst = def_index(in);
    const wa_vreg *dv = &c->prog->vregs[in->ops[dst].id];
    key->w[n++] = (uint64_t)in->op | (uint64_t)in->nops << 16 | (uint64_t)dv->cls << 24 |
                  (uint64_t)dv->size << 32;
    key->w[n++] = (f & OPF_EXEC) ? (uint64_t)epoch_of(c, i) + 1 : 0;
    /* every modifier field: those of pure instructions all shape the result */
    key->w[n++] = (uint64_t)m->flags | (uint64_t)(uint32_t)m->offset << 32;
    key->w[n++] = (uint64_t)(uint32_t)m->offset1 | (uint64_t)m->cbsz << 32 |
                  (uint64_t)m->abid << 40 | (uint64_t)m->blgp << 48 | (uint64_t)m->op_sel << 56;
    key->w[n++] = (uint64_t)m->op_sel_hi | (uint64_t)(uint8_t)m->vmcnt << 8 |
                  (uint64_t)(uint8_t)m->lgkmcnt << 16 | (uint64_t)(uint8_t)m->expcnt << 24;
    if (MODS_TAIL_WORDS) {
        memset(&key->w[n], 0, MODS_TAIL_WORDS * sizeof(uint64_t));
        memcpy(&key->w[n], (const unsigned char *)m + MODS_KNOWN, sizeof(wa_mods) - MODS_KNOWN);
        n += (unsigned)MODS_TAIL_WORDS;
    }
    unsigned src0 = n;
    for (unsigned k = 0; k < in->nops; k++) {
        if (k == dst)
            continue;
        const wa_operand *o = &in->ops[k];
        uint64_t a = (uint64_t)o->kind | (uint64_t)o->reg_class << 8 | (uint64_t)o->count << 16;
        uint64_t b = 0;
        switch (o->kind) {
        case WA_OPND_VIRT:
            b = (uint64_t)c->rep[o->id] | (uint64_t)o->first << 32;
            break;
        case WA_OPND_PHYS:
            b = o->id;
            break;
        case WA_OPND_IMM:
            b = (uint64_t)o->imm.i;
            break;
        case WA_OPND_FIMM:
            memcpy(&b, &o->imm.f, sizeof(b));
            break;
        default:
            break;
        }
        key->w[n++] = a;
        key->w[n++] = b;
    }
    if ((f & OPF_COMM) && sources_swappable(m)) {
        /* insertion sort of the (a, b) source pairs */
        for (unsigned x = src0 + 2; x < n; x += 2)
            for (unsigned y = x; y > src0; y -= 2) {
                uint64_t *p = &key->w[y - 2], *q = &key->w[y];
                if (p[0] < q[0] || (p[0] == q[0] && p[1] <= q[1]))
                    break;
                uint64_t t0 = p[0], t1 = p[1];
                p[0] = q[0];
                p[1] = q[1];
                q[0] = t0;
                q[1] = t1;
            }
    }
    key->n = n;
}

static uint64_t key_hash(const cse_key *key)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ key->n;
    for (unsigned k = 0; k < key->n; k++) {
        h ^= key->w[k];
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    return h;
}

/* Entry of the table with the same key as `i`, or WA_NONE; *slot is where `i`
   would go. */
static unsigned table_find(const cse *c, const cse_key *key, uint64_t h, unsigned *slot)
{
    unsigned s = (unsigned)h & c->mask;
    while (c->table[s]) {
        unsigned e = c->table[s] - 1;
        if (c->ent_hash[e] == h) {
            cse_key other;
            make_key(c, c->ent_item[e], &other);
            if (other.n == key->n && memcmp(other.w, key->w, key->n * sizeof(uint64_t)) == 0)
                return e;
        }
        s = (s + 1) & c->mask;
    }
    *slot = s;
    return WA_NONE;
}

static void visit_item(cse *c, unsigned i)
{
    cse_key key;
    make_key(c, i, &key);
    uint64_t h = key_hash(&key);
    unsigned slot = 0, e = table_find(c, &key, h, &slot);
    wa_program *prog = c->prog;
    if (e != WA_NONE) {
        unsigned d = def_index(&prog->instrs[i]);
        unsigned from = prog->instrs[i].ops[d].id, to = prog->instrs[c->ent_item[e]].ops[d].id;
        c->rep[from] = to; /* the registers change in rebuild() */
        if (c->state[i] == ST_HOISTED)
            c->hoisted--;
        c->state[i] = ST_GONE;
        c->eliminated++;
        return;
    }
    unsigned x = c->nent++;
    c->ent_hash[x] = h;
    c->ent_item[x] = i;
    c->ent_slot[x] = slot;
    c->table[slot] = x + 1;
}

static void visit_list(cse *c, unsigned i)
{
    for (; i != WA_NONE; i = c->hnext[i])
        visit_item(c, i);
}

static void visit_block(cse *c, unsigned b)
{
    const wa_cfg *g = &c->cfg;
    visit_list(c, c->pre_head[b]);
    for (unsigned i = g->first[b]; i <= g->last[b]; i++)
        if ((c->opf[c->prog->instrs[i].op] & OPF_PURE) && c->state[i] == ST_KEEP && candidate(c, i))
            visit_item(c, i);
    visit_list(c, c->post_head[b]);
}

/* Entries are removed in the reverse order of insertion, so clearing a slot
   never cuts a probe sequence still in use. */
static void pop_to(cse *c, unsigned mark)
{
    while (c->nent > mark) {
        c->nent--;
        c->table[c->ent_slot[c->nent]] = 0;
    }
}

static wa_status dom_walk(cse *c)
{
    const wa_cfg *g = &c->cfg;
    wa_context *ctx = c->ctx;
    unsigned nb = c->nb, ncand = c->npure;
    unsigned cap = 16;
    while (cap < 2 * ncand + 2)
        cap *= 2;
    c->mask = cap - 1;
    c->table = wa_tmp_calloc(ctx, cap, sizeof(unsigned));
    c->ent_hash = wa_tmp_alloc(ctx, (ncand + 1) * sizeof(uint64_t));
    c->ent_item = wa_tmp_alloc(ctx, (ncand + 1) * sizeof(unsigned));
    c->ent_slot = wa_tmp_alloc(ctx, (ncand + 1) * sizeof(unsigned));
    c->coff = wa_tmp_calloc(ctx, nb + 2, sizeof(unsigned));
    c->cdat = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    unsigned *fill = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    unsigned *stack = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    unsigned *mark = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    if (!c->table || !c->ent_hash || !c->ent_item || !c->ent_slot || !c->coff || !c->cdat ||
        !fill || !stack || !mark) {
        wa_tmp_free(ctx, fill);
        wa_tmp_free(ctx, stack);
        wa_tmp_free(ctx, mark);
        return wa_error_nomem(ctx);
    }
    /* children in reverse post-order */
    for (unsigned r = 1; r < g->nrpo; r++)
        c->coff[g->idom[g->rpo[r]] + 1]++;
    for (unsigned b = 0; b < nb; b++)
        c->coff[b + 1] += c->coff[b];
    for (unsigned r = 1; r < g->nrpo; r++) {
        unsigned b = g->rpo[r], p = g->idom[b];
        c->cdat[c->coff[p] + fill[p]++] = b;
    }
    memset(fill, 0, (nb + 1) * sizeof(unsigned));
    unsigned sp = 0;
    if (g->nrpo) {
        unsigned e = g->rpo[0];
        mark[e] = c->nent;
        visit_block(c, e);
        stack[sp++] = e;
    }
    while (sp) {
        unsigned b = stack[sp - 1];
        if (c->coff[b] + fill[b] < c->coff[b + 1]) {
            unsigned ch = c->cdat[c->coff[b] + fill[b]++];
            mark[ch] = c->nent;
            visit_block(c, ch);
            stack[sp++] = ch;
        } else {
            pop_to(c, mark[b]);
            sp--;
        }
    }
    wa_tmp_free(ctx, fill);
    wa_tmp_free(ctx, stack);
    wa_tmp_free(ctx, mark);
    return WA_OK;
}

/* ---- rebuilding the program ------------------------------------------------------------------- */

/* A fresh label named after the header's ("<name>_ph", "<name>_ph2", ...). */
static wa_status new_label(cse *c, unsigned h, wa_label *out)
{
    wa_program *prog = c->prog;
    const wa_instr *first = &prog->instrs[c->cfg.first[h]];
    const char *base = first->op == WA_OP_LABEL ? prog->labels[first->ops[0].id].name : "loop";
    char buf[300];
    size_t len = strlen(base);
    if (len > 240)
        len = 240;
    for (unsigned k = 1;; k++) {
        memcpy(buf, base, len);
        if (k == 1)
            memcpy(buf + len, "_ph", 4);
        else {
            char num[16];
            unsigned d = 0, v = k;
            do {
                num[d++] = (char)('0' + v % 10);
                v /= 10;
            } while (v);
            memcpy(buf + len, "_ph", 3);
            for (unsigned j = 0; j < d; j++)
                buf[len + 3 + j] = num[d - 1 - j];
            buf[len + 3 + d] = 0;
        }
        if (wa_label_find(prog, buf, strlen(buf)) == WA_NO_TAG)
            break;
    }
    return wa_program_label_create(out, prog, buf);
}

/* Does a new preheader before header `h` need a label: some block outside the
   loop branches to the header. Retargets those branches to `lab` when set. */
static int retarget_branches(cse *c, unsigned l, unsigned h, const wa_label *lab)
{
    const wa_cfg *g = &c->cfg;
    wa_program *prog = c->prog;
    const wa_instr *hl = &prog->instrs[g->first[h]];
    if (hl->op != WA_OP_LABEL)
        return 0;
    int any = 0;
    for (unsigned k = g->pred.off[h]; k < g->pred.off[h + 1]; k++) {
        unsigned p = g->pred.data[k];
        if (reachable(c, p) && loop_contains(c, l, g->block_loop[p]))
            continue;
        wa_instr *t = &prog->instrs[g->last[p]];
        int lk = wa_branch_label_index(t);
        if (lk < 0 || t->ops[lk].id != hl->ops[0].id)
            continue;
        any = 1;
        if (lab)
            t->ops[lk].id = *lab;
    }
    return any;
}

static void rename_operands(cse *c, wa_instr *in)
{
    int ch = 0;
    for (unsigned j = 0; j < in->nops; j++) {
        wa_operand *o = &in->ops[j];
        if (o->kind == WA_OPND_VIRT && o->id < c->nv && c->rep[o->id] != o->id) {
            o->id = c->rep[o->id]; /* renamed once, to a register never renamed */
            ch = 1;
        }
    }
    c->changed += (unsigned)ch;
}

/* Where hoisted instructions go: before original item `at`, a label (`lab`,
   or NULL) then `count` instructions from moved[first..]. */
typedef struct ins_point {
    unsigned at, pos, block;
    wa_operand *lab;
    unsigned first, count;
} ins_point;

static unsigned save_list(cse *c, unsigned x, wa_instr *moved, unsigned nmoved)
{
    for (; x != WA_NONE; x = c->hnext[x])
        if (c->state[x] == ST_HOISTED)
            moved[nmoved++] = c->prog->instrs[x];
    return nmoved;
}

/* Applies everything in place, without a second item array (on a large kernel
   its fresh pages cost more than the rest of the rebuild): the kept items are
   compacted from left to right, then the hoisted ones (kept aside) are put in
   from right to left, each item moving at most once in each direction. All
   allocations come first, so a failure leaves the program as it was. */
static wa_status rebuild(cse *c)
{
    const wa_cfg *g = &c->cfg;
    wa_program *prog = c->prog;
    wa_context *ctx = c->ctx;
    unsigned n = c->n, nb = c->nb, nmoved = 0, npts = 0, nlabels = 0;
    wa_instr *moved = NULL;
    ins_point *pts = NULL;
    wa_status st = WA_OK;
    if (c->hoisted) {
        moved = wa_tmp_alloc(ctx, (size_t)c->hoisted * sizeof(wa_instr));
        pts = wa_tmp_alloc(ctx, (size_t)(2 * nb + 1) * sizeof(ins_point));
        if (!moved || !pts) {
            st = wa_error_nomem(ctx);
            goto done;
        }
        /* points in item order: a header's new preheader comes before the header's
           own items; a block's end comes after them */
        for (unsigned b = 0; b < nb; b++) {
            unsigned m0 = nmoved;
            nmoved = save_list(c, c->pre_head[b], moved, nmoved);
            if (nmoved > m0) {
                ins_point *pt = &pts[npts++];
                pt->at = g->first[b];
                pt->block = b;
                pt->first = m0;
                pt->count = nmoved - m0;
                pt->lab = NULL;
                if (retarget_branches(c, c->header_loop[b], b, NULL)) {
                    wa_label l = 0;
                    if ((st = new_label(c, b, &l)) != WA_OK)
                        goto done;
                    if (!(pt->lab = wa_arena_alloc(&prog->arena, sizeof(wa_operand)))) {
                        st = wa_error_nomem(ctx);
                        goto done;
                    }
                    *pt->lab = wa_opnd_label(l);
                    nlabels++;
                }
            }
            m0 = nmoved;
            nmoved = save_list(c, c->post_head[b], moved, nmoved);
            if (nmoved > m0) {
                unsigned t = g->last[b];
                ins_point *pt = &pts[npts++];
                pt->at = (wa_isa(prog->instrs[t].op)->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)) ? t
                                                                                               : t + 1;
                pt->block = b;
                pt->first = m0;
                pt->count = nmoved - m0;
                pt->lab = NULL;
            }
        }
    }
    unsigned total = n - c->eliminated + nlabels;
    if (total > prog->capinstrs && WA_GROW(ctx, prog->instrs, prog->capinstrs, total)) {
        st = wa_error_nomem(ctx);
        goto done;
    }
    /* nothing fails from here on */
    for (unsigned v = 0; v < c->nv && c->eliminated; v++) {
        unsigned to = c->rep[v];
        if (to == v)
            continue;
        /* readers of v now read `to`: it takes the stricter alignment; nothing
           names v any more (its one definition goes), so its id becomes unused,
           like a parsed program's gaps */
        if (prog->vregs[v].align > prog->vregs[to].align)
            prog->vregs[to].align = prog->vregs[v].align;
        prog->vregs[v].cls = WA_REG_NONE;
    }
    for (unsigned p = 0; p < npts; p++)
        if (pts[p].lab)
            retarget_branches(c, c->header_loop[pts[p].block], pts[p].block, &pts[p].lab->id);
    for (unsigned k = 0; k < nmoved && c->eliminated; k++)
        rename_operands(c, &moved[k]);
    /* left to right: drop removed and moved items, rename the readers */
    wa_instr *items = prog->instrs;
    unsigned out = 0, p = 0;
    for (unsigned i = 0; i < n; i++) {
        for (; p < npts && pts[p].at == i; p++)
            pts[p].pos = out;
        if (c->state[i] != ST_KEEP)
            continue;
        if (out != i)
            items[out] = items[i];
        if (c->eliminated)
            rename_operands(c, &items[out]);
        out++;
    }
    for (; p < npts; p++)
        pts[p].pos = out;
    /* right to left: open the gaps and fill them */
    unsigned src_end = out, dst_end = total;
    for (p = npts; p-- > 0;) {
        const ins_point *pt = &pts[p];
        unsigned seg = src_end - pt->pos;
        if (seg && dst_end - seg != pt->pos)
            memmove(&items[dst_end - seg], &items[pt->pos], seg * sizeof(wa_instr));
        dst_end -= seg;
        src_end = pt->pos;
        dst_end -= pt->count;
        memcpy(&items[dst_end], &moved[pt->first], pt->count * sizeof(wa_instr));
        if (pt->lab) {
            wa_instr *lab = &items[--dst_end];
            wa_mods mods = WA_MODS_INIT;
            memset(lab, 0, sizeof(*lab));
            lab->op = WA_OP_LABEL;
            lab->nops = 1;
            lab->tag = WA_NO_TAG;
            lab->mods = mods;
            lab->ops = pt->lab;
            prog->labels[pt->lab->id].placed++;
        }
    }
    prog->ninstrs = total;
    prog->insert_at = WA_END;
done:
    wa_tmp_free(ctx, moved);
    wa_tmp_free(ctx, pts);
    return st;
}

/* ---- entry point ---------------------------------------------------------------------------- */

static void cse_free(cse *c)
{
    wa_context *ctx = c->ctx;
    wa_mem_free(ctx, c->partial);
    wa_tmp_free(ctx, c->wexec);
    wa_tmp_free(ctx, c->vstate);
    wa_tmp_free(ctx, c->vdef);
    wa_tmp_free(ctx, c->rep);
    wa_tmp_free(ctx, c->pos_loop);
    wa_tmp_free(ctx, c->cand);
    wa_tmp_free(ctx, c->state);
    wa_tmp_free(ctx, c->epoch);
    wa_tmp_free(ctx, c->epoch_in);
    wa_tmp_free(ctx, c->hnext);
    wa_tmp_free(ctx, c->pre_head);
    wa_tmp_free(ctx, c->pre_tail);
    wa_tmp_free(ctx, c->post_head);
    wa_tmp_free(ctx, c->post_tail);
    wa_tmp_free(ctx, c->lpre);
    wa_tmp_free(ctx, c->lpost);
    wa_tmp_free(ctx, c->lpos);
    wa_tmp_free(ctx, c->lblocks);
    wa_tmp_free(ctx, c->header_loop);
    wa_tmp_free(ctx, c->lwrites_exec);
    wa_tmp_free(ctx, c->ph_block);
    wa_tmp_free(ctx, c->ph_create);
    wa_tmp_free(ctx, c->coff);
    wa_tmp_free(ctx, c->cdat);
    wa_tmp_free(ctx, c->table);
    wa_tmp_free(ctx, c->ent_hash);
    wa_tmp_free(ctx, c->ent_item);
    wa_tmp_free(ctx, c->ent_slot);
    for (unsigned k = 1; k < 4; k++) {
        wa_tmp_free(ctx, c->blk_peak[k]);
        wa_tmp_free(ctx, c->blk_extra[k]);
    }
    wa_tmp_free(ctx, c->nreads);
    wa_tmp_free(ctx, c->hreads);
    wa_cfg_free(&c->cfg, ctx);
}

static wa_status run(cse *c, const wa_cse_options *o)
{
    unsigned flags = o->flags;
    wa_program *prog = c->prog;
    wa_context *ctx = c->ctx;
    unsigned n = c->n = prog->ninstrs, nv = c->nv = prog->nvregs;
    for (unsigned op = 0; op < WA_OP_COUNT_; op++)
        c->opf[op] = (uint8_t)op_facts(op);
    c->vstate = wa_tmp_calloc(ctx, nv + 1, 1);
    c->vdef = wa_tmp_alloc(ctx, (nv + 1) * sizeof(unsigned));
    c->rep = wa_tmp_alloc(ctx, (nv + 1) * sizeof(unsigned));
    c->pos_loop = wa_tmp_alloc(ctx, (nv + 1) * sizeof(unsigned));
    if (!c->vstate || !c->vdef || !c->rep || !c->pos_loop)
        return wa_error_nomem(ctx);
    wa_status st = scan_defs(c);
    if (st || !c->any_virtual)
        return st; /* a physical program: registers are reused, nothing is a value */
    if ((st = wa_cfg_build(&c->cfg, prog)) != WA_OK)
        return st;
    unsigned nb = c->nb = c->cfg.nblocks;
    c->nl = c->cfg.nloops;
    if (c->wexec) {
        int any = 0;
        if ((st = wa_exec_partial(&c->partial, &any, prog, &c->cfg)) != WA_OK)
            return st;
        c->epoch = wa_tmp_calloc(ctx, n + 1, sizeof(unsigned));
        c->epoch_in = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
        if (!c->epoch || !c->epoch_in)
            return wa_error_nomem(ctx);
    }
    c->cand = wa_tmp_calloc(ctx, n + 1, 1);
    c->state = wa_tmp_calloc(ctx, n + 1, 1);
    c->hnext = wa_tmp_alloc(ctx, (n > nb ? n + 1 : nb + 1) * sizeof(unsigned));
    c->pre_head = wa_tmp_alloc(ctx, (nb + 1) * sizeof(unsigned));
    c->pre_tail = wa_tmp_alloc(ctx, (nb + 1) * sizeof(unsigned));
    c->post_head = wa_tmp_alloc(ctx, (nb + 1) * sizeof(unsigned));
    c->post_tail = wa_tmp_alloc(ctx, (nb + 1) * sizeof(unsigned));
    if (!c->cand || !c->state || !c->hnext || !c->pre_head || !c->pre_tail || !c->post_head ||
        !c->post_tail)
        return wa_error_nomem(ctx);
    for (unsigned b = 0; b < nb; b++)
        c->pre_head[b] = c->pre_tail[b] = c->post_head[b] = c->post_tail[b] = WA_NONE;
    find_values(c);
    if ((st = analyse_loops(c)) != WA_OK)
        return st;
    if (c->wexec)
        compute_epochs(c);
    if (!(flags & WA_CSE_NO_HOIST) && c->nl) {
        if ((st = measure_pressure(c, o)) != WA_OK)
            return st;
        hoist(c);
        if (c->declined)
            wa_log(ctx, "cse: %u loop-invariant instructions stay in their loops: hoisting "
                        "them would exceed the register budget",
                   c->declined);
    }
    if ((st = dom_walk(c)) != WA_OK)
        return st;
    if (!c->eliminated && !c->hoisted)
        return WA_OK;
    return rebuild(c);
}

wa_status wa_pass_cse(wa_program *prog, const wa_cse_options *opts, wa_pass_stats *stats)
{
    if (!prog)
        return WA_E_INVALID;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    wa_cse_options o = WA_CSE_OPTIONS_INIT;
    if (opts) {
        wa_status st = wa_check_options_version(ctx, opts->version, WA_CSE_OPTIONS_VERSION,
                                                "wa_cse_options");
        if (st)
            return st;
        if (opts->flags & ~WA_CSE_NO_HOIST)
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "wa_cse_options: unknown flags 0x%x",
                            opts->flags & ~WA_CSE_NO_HOIST);
        o.flags = opts->flags;
        if (opts->version >= 2) {
            if (opts->max_vgprs > 256 || opts->max_agprs > 256 || opts->max_sgprs > WA_MAX_SGPR)
                return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                                "wa_cse_options: register limits out of range (VGPR <= 256, "
                                "SGPR <= %u, AGPR <= 256): %u, %u, %u",
                                WA_MAX_SGPR, opts->max_vgprs, opts->max_sgprs, opts->max_agprs);
            o.max_vgprs = opts->max_vgprs;
            o.max_sgprs = opts->max_sgprs;
            o.max_agprs = opts->max_agprs;
        }
    }
    cse c;
    memset(&c, 0, sizeof(c));
    c.prog = prog;
    c.ctx = ctx;
    wa_status st = run(&c, &o);
    cse_free(&c);
    if (stats) {
        memset(stats, 0, sizeof(*stats));
        stats->version = WA_PASS_STATS_VERSION;
        if (st == WA_OK) {
            stats->instrs_before = c.instrs;
            stats->instrs_after = c.instrs - c.eliminated;
            stats->eliminated = stats->removed = c.eliminated;
            stats->hoisted = c.hoisted;
            stats->changed = c.changed;
        } else {
            stats->instrs_before = stats->instrs_after = wa_count_instrs(prog);
        }
    }
    return st;
}
