/* lib/analysis/liveness.c — liveness by backward dataflow, solved per value.

   Values: each virtual register is one value, except registers written in pieces
   (a definition of some components only), which get one value per component so a
   component-wise initialisation does not look live before it; each physical
   register is a value of its own (precolored registers, ABI inputs).

   1. One forward pass per block finds upward-exposed uses and full definitions.
   2. For each value, live-in is propagated backwards from the blocks with exposed
      uses through predecessors until blocks that define it (live_in = use ∪
      (live_out − def), live_out = ∪ live_in of successors). This reaches the same
      fixed point as iterating the equations over the whole program, in time
      proportional to the size of the result.
   3. A backward scan of each block from its live-out set yields live segments
      over program points (use point 2i, def point 2i+1).
   4. Segments are merged per virtual register (and physical register), then an
      event sweep gives the pressure per class at every item. */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pair {
    unsigned a, b;
} pair;

typedef struct chain {
    unsigned seg, end;
} chain;

typedef struct seg3 {
    unsigned key, start, end;
    unsigned val; /* the value (component of a split register) */
} seg3;

typedef struct vec {
    void *data;
    unsigned n, cap;
} vec;

#define VEC_PUSH(ctx, v, T, val, fail)                                   \
    do {                                                                 \
        if ((v).n == (v).cap) {                                          \
            void *_d = (v).data;                                         \
            if (wa_grow((ctx), &_d, &(v).cap, (v).n + 1, sizeof(T))) \
                goto fail;                                               \
            (v).data = _d;                                               \
        }                                                                \
        ((T *)(v).data)[(v).n++] = (val);                                \
    } while (0)

/* The segment buffer is sized for the worst case up front (scratch memory). */
#define SEG_PUSH(v, val, fail)                                           \
    do {                                                                 \
        if ((v).n == (v).cap)                                            \
            goto fail;                                                   \
        ((seg3 *)(v).data)[(v).n++] = (val);                             \
    } while (0)

#define LIVE_IN_FLAG 0x80000000u

typedef struct lv {
    const wa_program *prog;
    wa_context *ctx;
    const wa_cfg *cfg;
    unsigned nv, nvalues, phys_base;
    unsigned *vbase;     /* vreg -> first value, WA_NONE if unused */
    uint8_t *split;
    unsigned *val_key;   /* value -> key (vreg id or nv + unit) */
    uint32_t *val_full;  /* value -> mask of all its components */
    int writes_exec;     /* some instruction writes EXEC */
    const uint8_t *partial; /* per item: EXEC may be partial (NULL: never) */
} lv;

/* Expands an operand into (value, component mask) pairs. */
static inline unsigned expand(const lv *L, const wa_operand *o, unsigned *vals, uint32_t *masks)
{
    unsigned n = 0;
    if (o->kind == WA_OPND_VIRT) {
        unsigned v = o->id, base = L->vbase[v];
        if (base == WA_NONE)
            return 0;
        if (L->split[v]) {
            for (unsigned c = o->first; c < o->first + o->count && n < 32; c++) {
                vals[n] = base + c;
                masks[n++] = 1;
            }
        } else {
            vals[0] = base;
            masks[0] = (o->count >= 32 ? 0xFFFFFFFFu : ((1u << o->count) - 1u)) << o->first;
            n = 1;
        }
    } else if (o->kind == WA_OPND_PHYS) {
        unsigned limit = o->reg_class == WA_REG_SGPR ? 128u : 256u;
        for (unsigned r = o->id; r < o->id + o->count && r < limit && n < 32; r++) {
            vals[n] = L->phys_base + wa_phys_unit((wa_reg_class)o->reg_class, r);
            masks[n++] = 1;
        }
    }
    return n;
}

/* A write that keeps the old value's other lanes: a lane-masked write (a VGPR or
   AGPR destination) where EXEC may be partial. It reads the old value where one
   may be defined (a weak use, see compute()). */
static int weak_use(const lv *L, unsigned item, const wa_instr *in, const wa_isa_info *info,
                    unsigned k)
{
    return L->partial && L->partial[item] && wa_lane_masked_write(in, info, k);
}

/* Early-clobber definition: a wide MFMA result must not share registers with
   the sources it reads (vdst is written while srcA/srcB are still being read),
   so it is defined at the instruction's use point. */
static int early_clobber(const wa_isa_info *info, unsigned role)
{
    return (info->flags & WA_IF_EARLY_CLOBBER) && role == WA_ROLE_DEF;
}

static wa_status setup_values(lv *L)
{
    const wa_program *prog = L->prog;
    wa_context *ctx = L->ctx;
    unsigned nv = prog->nvregs;
    L->nv = nv;
    L->vbase = wa_tmp_calloc(ctx, nv + 1, sizeof(unsigned));
    L->split = wa_tmp_calloc(ctx, nv + 1, 1);
    if (!L->vbase || !L->split)
        return wa_error_nomem(ctx);
    uint8_t *used = wa_tmp_calloc(ctx, nv + 1, 1);
    if (!used)
        return wa_error_nomem(ctx);
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if (!L->writes_exec && wa_instr_writes_exec(in, info))
            L->writes_exec = 1;
        for (unsigned k = 0; k < in->nops; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind != WA_OPND_VIRT)
                continue;
            used[o->id] = 1;
            /* written or read in pieces: one value per component, so that each
               component's liveness is its own (a dead component's registers can
               be reused while the others live on) */
            if (k < info->num_operands && o->count < prog->vregs[o->id].size)
                L->split[o->id] = 1;
        }
    }
    unsigned next = 0;
    for (unsigned v = 0; v < nv; v++) {
        if (!used[v] || prog->vregs[v].cls == WA_REG_NONE) {
            L->vbase[v] = WA_NONE;
            continue;
        }
        L->vbase[v] = next;
        next += L->split[v] ? prog->vregs[v].size : 1;
    }
    wa_tmp_free(ctx, used);
    L->phys_base = next;
    L->nvalues = next + WA_UNITS;
    L->val_key = wa_tmp_calloc(ctx, L->nvalues, sizeof(unsigned));
    L->val_full = wa_tmp_calloc(ctx, L->nvalues, sizeof(uint32_t));
    if (!L->val_key || !L->val_full)
        return wa_error_nomem(ctx);
    for (unsigned v = 0; v < nv; v++) {
        if (L->vbase[v] == WA_NONE)
            continue;
        unsigned size = prog->vregs[v].size;
        if (L->split[v]) {
            for (unsigned c = 0; c < size; c++) {
                L->val_key[L->vbase[v] + c] = v;
                L->val_full[L->vbase[v] + c] = 1;
            }
        } else {
            L->val_key[L->vbase[v]] = v;
            L->val_full[L->vbase[v]] = size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1u;
        }
    }
    for (unsigned u = 0; u < WA_UNITS; u++) {
        L->val_key[L->phys_base + u] = nv + u;
        L->val_full[L->phys_base + u] = 1;
    }
    return WA_OK;
}

/* Counting sort of pairs by `a` into CSR (off has rows+1 entries; data gets b). */
/* `tmp`: the rows are scratch (freed with csr_free_tmp), not part of a result. */
static wa_status pairs_to_csr(wa_context *ctx, const pair *p, unsigned n, unsigned rows, wa_csr *out,
                              int tmp)
{
    out->off = tmp ? wa_tmp_calloc(ctx, rows + 1, sizeof(unsigned))
                   : wa_mem_calloc(ctx, rows + 1, sizeof(unsigned));
    out->data = tmp ? wa_tmp_alloc(ctx, (n + 1) * sizeof(unsigned))
                    : wa_mem_alloc(ctx, (n + 1) * sizeof(unsigned));
    if (!out->off || !out->data)
        return wa_error_nomem(ctx);
    for (unsigned i = 0; i < n; i++)
        out->off[p[i].a + 1]++;
    for (unsigned r = 0; r < rows; r++)
        out->off[r + 1] += out->off[r];
    unsigned *fill = wa_tmp_calloc(ctx, rows + 1, sizeof(unsigned));
    if (!fill)
        return wa_error_nomem(ctx);
    for (unsigned i = 0; i < n; i++)
        out->data[out->off[p[i].a] + fill[p[i].a]++] = p[i].b;
    wa_tmp_free(ctx, fill);
    return WA_OK;
}

static void csr_free(wa_context *ctx, wa_csr *c)
{
    wa_mem_free(ctx, c->off);
    wa_mem_free(ctx, c->data);
    c->off = c->data = NULL;
}

static void csr_free_tmp(wa_context *ctx, wa_csr *c)
{
    wa_tmp_free(ctx, c->off);
    wa_tmp_free(ctx, c->data);
    c->off = c->data = NULL;
}

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

static int segs_contain(const wa_live_segment *s, unsigned n, unsigned point)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (s[mid].end < point)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && s[lo].start <= point;
}

/* Per-block live sets, derived from the segments when first asked for: a
   register is live into block b when one of its segments holds b's first use
   point, and either started earlier or started there because the value was live
   into the block (not because the first instruction defines it early); live out
   of b when live into a successor (live_out = U live_in). With partial writes
   that no longer holds (a successor can have a value live in from another
   predecessor while it is undefined at the end of b): compute() then keeps the
   live-out sets it used. */
static int build_sets(wa_liveness *l)
{
    wa_context *ctx = l->ctx;
    const wa_cfg *cfg = &l->cfg;
    unsigned nb = cfg->nblocks;
    vec recs = { 0 };
    const pair *ex = (const pair *)l->not_live_in; /* sorted (vreg, block) */
    unsigned ei = 0, ne = l->n_not_live_in;
    for (unsigned v = 0; v < l->nvregs; v++) {
        while (ei < ne && ex[ei].a < v)
            ei++;
        unsigned n;
        const wa_live_segment *sg = wa_live_key_segs(l, v, &n);
        unsigned b = 0;
        for (unsigned k = 0; k < n; k++) {
            /* first block starting at or after the segment start */
            unsigned lo = b, hi = nb;
            while (lo < hi) {
                unsigned mid = lo + (hi - lo) / 2;
                if (2 * cfg->first[mid] < sg[k].start)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            unsigned idx = (unsigned)(sg + k - l->segs);
            int starts_live = (l->seg_live_in[idx >> 3] >> (idx & 7)) & 1u;
            for (b = lo; b < nb && 2 * cfg->first[b] <= sg[k].end; b++) {
                if (2 * cfg->first[b] <= sg[k].start && !starts_live)
                    continue;
                while (ei < ne && ex[ei].a == v && ex[ei].b < b)
                    ei++;
                if (ei < ne && ex[ei].a == v && ex[ei].b == b)
                    continue;
                VEC_PUSH(ctx, recs, pair, ((pair){ b, v }), fail);
            }
        }
    }
    {
        pair *p = recs.data;
        if (pairs_to_csr(ctx, p, recs.n, nb, &l->live_in, 0))
            goto fail;
        /* rows come out ascending: registers were visited in order */
    }
    /* live-out: merge the successors' (at most two) sorted rows */
    if (!l->live_out.off) {
        const wa_csr *in = &l->live_in;
        size_t total = 0;
        for (unsigned b = 0; b < nb; b++)
            for (unsigned e = cfg->succ.off[b]; e < cfg->succ.off[b + 1]; e++) {
                unsigned t = cfg->succ.data[e];
                total += in->off[t + 1] - in->off[t];
            }
        l->live_out.off = wa_mem_calloc(ctx, nb + 1, sizeof(unsigned));
        l->live_out.data = wa_mem_alloc(ctx, (total + 1) * sizeof(unsigned));
        if (!l->live_out.off || !l->live_out.data)
            goto fail;
        unsigned w = 0;
        for (unsigned b = 0; b < nb; b++) {
            l->live_out.off[b] = w;
            unsigned ns = cfg->succ.off[b + 1] - cfg->succ.off[b];
            const unsigned *xa = NULL, *xb = NULL;
            unsigned na = 0, nbb = 0;
            if (ns >= 1) {
                unsigned t = cfg->succ.data[cfg->succ.off[b]];
                xa = in->data + in->off[t];
                na = in->off[t + 1] - in->off[t];
            }
            if (ns >= 2) {
                unsigned t = cfg->succ.data[cfg->succ.off[b] + 1];
                xb = in->data + in->off[t];
                nbb = in->off[t + 1] - in->off[t];
            }
            unsigned ia = 0, ib = 0;
            while (ia < na || ib < nbb) {
                unsigned x;
                if (ib >= nbb || (ia < na && xa[ia] < xb[ib]))
                    x = xa[ia++];
                else if (ia >= na || xb[ib] < xa[ia])
                    x = xb[ib++];
                else {
                    x = xa[ia++];
                    ib++;
                }
                l->live_out.data[w++] = x;
            }
        }
        l->live_out.off[nb] = w;
    }
    wa_mem_free(ctx, recs.data);
    return 1;
fail:
    wa_mem_free(ctx, recs.data);
    return 0;
}

/* Builds the per-block sets on first use (accessors take a const result). */
static int ensure_sets(const wa_liveness *cl)
{
    wa_liveness *l = (wa_liveness *)cl;
    if (l->sets_built)
        return l->sets_built > 0;
    l->sets_built = build_sets(l) ? 1 : -1;
    return l->sets_built > 0;
}

/* Liveness from the weak uses of value x (writes that keep the old value's other
   lanes under a partial EXEC), after its ordinary liveness (ist: blocks x is live
   into; ost: blocks x is live out of, with their pairs in `liveout`). A weak use
   keeps the old value only where one may be defined:

     live = S | (A & MD)

   with S the liveness of the ordinary uses, A that of all uses, and MD the blocks
   some definition of x reaches from a reachable block (and every unreachable
   block, for itself). Blocks of A
   outside S are found backwards from the exposed weak uses (wst); MD is then
   followed forwards from the blocks that write x, through A (mst: a path from a
   definition to a block of A stays in A). x is live out of a block whose
   successor it is live into that way if x may be defined at that block's end.
   Exposed weak uses where nothing may be defined are listed in `dropped`: the
   segment scan opens nothing for them. Returns -1 when out of memory. */
static int weak_live(const lv *L, const wa_cfg *cfg, unsigned x, const wa_csr *wue,
                     const wa_csr *dfb, const unsigned *kst, const unsigned *ist, unsigned *ost,
                     unsigned *wst, unsigned *mst, unsigned *dst, vec *work, vec *wlist, vec *liveout,
                     vec *dropped)
{
    wa_context *ctx = L->ctx;
    unsigned stamp = x + 1;
#define IN_A(blk) (ist[blk] == stamp || wst[blk] == stamp)
#define UNREACHABLE(blk) (cfg->rpo_index[blk] == WA_NONE)
    work->n = wlist->n = 0;
    for (unsigned e = wue->off[x]; e < wue->off[x + 1]; e++) {
        unsigned b = wue->data[e];
        if (ist[b] != stamp && wst[b] != stamp) {
            wst[b] = stamp;
            VEC_PUSH(ctx, *work, unsigned, b, fail);
            VEC_PUSH(ctx, *wlist, unsigned, b, fail);
        }
    }
    while (work->n) {
        unsigned b = ((unsigned *)work->data)[--work->n];
        for (unsigned e = cfg->pred.off[b]; e < cfg->pred.off[b + 1]; e++) {
            unsigned p = cfg->pred.data[e];
            if (kst[p] != stamp && ist[p] != stamp && wst[p] != stamp) {
                wst[p] = stamp;
                VEC_PUSH(ctx, *work, unsigned, p, fail);
                VEC_PUSH(ctx, *wlist, unsigned, p, fail);
            }
        }
    }
    /* may be defined: forwards from the writers of x, within A (unreachable
       blocks count as defining everything, but only for themselves) */
    for (unsigned e = dfb->off[x]; e < dfb->off[x + 1]; e++) {
        unsigned d = dfb->data[e];
        dst[d] = stamp;
        if (UNREACHABLE(d))
            continue;
        for (unsigned f = cfg->succ.off[d]; f < cfg->succ.off[d + 1]; f++) {
            unsigned t = cfg->succ.data[f];
            if (IN_A(t) && mst[t] != stamp) {
                mst[t] = stamp;
                VEC_PUSH(ctx, *work, unsigned, t, fail);
            }
        }
    }
    for (unsigned k = 0; k < wlist->n; k++) {
        unsigned b = ((unsigned *)wlist->data)[k];
        if (UNREACHABLE(b))
            mst[b] = stamp;
    }
    while (work->n) {
        unsigned c = ((unsigned *)work->data)[--work->n];
        for (unsigned f = cfg->succ.off[c]; f < cfg->succ.off[c + 1]; f++) {
            unsigned t = cfg->succ.data[f];
            if (IN_A(t) && mst[t] != stamp) {
                mst[t] = stamp;
                VEC_PUSH(ctx, *work, unsigned, t, fail);
            }
        }
    }
    /* live out of the predecessors of the blocks it is live into that way, and
       of unreachable predecessors of any block of A (where everything may be
       defined, and that defines nothing for reachable blocks) */
    for (unsigned k = 0; k < wlist->n; k++) {
        unsigned b = ((unsigned *)wlist->data)[k];
        int md = mst[b] == stamp;
        for (unsigned e = cfg->pred.off[b]; e < cfg->pred.off[b + 1]; e++) {
            unsigned p = cfg->pred.data[e];
            if (ost[p] != stamp &&
                (UNREACHABLE(p) || (md && (dst[p] == stamp || mst[p] == stamp)))) {
                ost[p] = stamp;
                VEC_PUSH(ctx, *liveout, pair, ((pair){ x, p }), fail);
            }
        }
    }
    for (unsigned e = wue->off[x]; e < wue->off[x + 1]; e++) {
        unsigned b = wue->data[e];
        if (ist[b] != stamp && mst[b] != stamp)
            VEC_PUSH(ctx, *dropped, pair, ((pair){ b, x }), fail);
    }
#undef IN_A
#undef UNREACHABLE
    return 0;
fail:
    return -1;
}

/* The live-out sets of virtual registers per block, from the value-level rows the
   segment scan uses (sorted, one entry per register). Returns -1 when out of
   memory. */
static int keep_live_out(wa_liveness *R, const lv *L, const wa_csr *lo, unsigned nb)
{
    wa_context *ctx = L->ctx;
    R->live_out.off = wa_mem_calloc(ctx, nb + 1, sizeof(unsigned));
    R->live_out.data = wa_mem_alloc(ctx, ((size_t)lo->off[nb] + 1) * sizeof(unsigned));
    if (!R->live_out.off || !R->live_out.data)
        return -1;
    unsigned w = 0;
    for (unsigned b = 0; b < nb; b++) {
        unsigned start = w;
        R->live_out.off[b] = w;
        for (unsigned e = lo->off[b]; e < lo->off[b + 1]; e++)
            if (L->val_key[lo->data[e]] < L->nv)
                R->live_out.data[w++] = L->val_key[lo->data[e]];
        if (w - start > 1)
            qsort(R->live_out.data + start, w - start, sizeof(unsigned), cmp_unsigned);
        unsigned u = start;
        for (unsigned k = start; k < w; k++)
            if (k == start || R->live_out.data[k] != R->live_out.data[u - 1])
                R->live_out.data[u++] = R->live_out.data[k];
        w = u;
    }
    R->live_out.off[nb] = w;
    return 0;
}

static wa_status compute(wa_liveness *R, lv *L)
{
    const wa_program *prog = L->prog;
    wa_context *ctx = L->ctx;
    const wa_cfg *cfg = L->cfg;
    unsigned nb = cfg->nblocks, NV = L->nvalues;
    wa_status st = WA_E_NOMEM;
    vec ue = { 0 }, kill = { 0 }, touched = { 0 }, liveout = { 0 }, segs = { 0 },
        work = { 0 }, openl = { 0 }, notin = { 0 };
    wa_csr ue_csr = { 0 }, kill_csr = { 0 }, lo_csr = { 0 };
    /* partial writes (EXEC may be partial somewhere): exposed weak uses, blocks
       defining each value, weak uses with nothing to keep (block, value) */
    vec wue = { 0 }, dfb = { 0 }, wlist = { 0 }, dropped = { 0 };
    wa_csr wue_csr = { 0 }, dfb_csr = { 0 }, drop_csr = { 0 };
    unsigned *st3 = NULL, *wst = NULL, *mst = NULL, *dst = NULL;
    unsigned *st1 = wa_tmp_calloc(ctx, NV + 1, sizeof(unsigned));   /* block stamp */
    uint32_t *dmask = wa_tmp_calloc(ctx, NV + 1, sizeof(uint32_t));
    unsigned *st2 = wa_tmp_calloc(ctx, NV + 1, sizeof(unsigned));   /* exposed-use stamp */
    unsigned *kst = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    unsigned *ist = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    unsigned *ost = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    unsigned vals[32];
    uint32_t masks[32];
    size_t nrefs = 0; /* value references: bounds the number of segments */
    if (!st1 || !dmask || !st2 || !kst || !ist || !ost)
        goto fail;
    if (L->partial) {
        st3 = wa_tmp_calloc(ctx, NV + 1, sizeof(unsigned));
        wst = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
        mst = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
        dst = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
        if (!st3 || !wst || !mst || !dst)
            goto fail;
    }

    /* 1. exposed uses and full definitions per block (and, with partial writes,
       exposed weak uses and every block that writes a value) */
    for (unsigned b = 0; b < nb; b++) {
        touched.n = 0;
        for (unsigned i = cfg->first[b]; i <= cfg->last[b]; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            if (info->flags & WA_IF_PSEUDO)
                continue;
            for (int pass = 0; pass < 2; pass++) { /* reads before writes */
                for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
                    unsigned role = wa_instr_role(in, info, k);
                    int weak = !pass && weak_use(L, i, in, info, k);
                    if (!(role & (pass ? WA_ROLE_DEF : WA_ROLE_USE)) && !weak)
                        continue;
                    unsigned n = expand(L, &in->ops[k], vals, masks);
                    nrefs += n;
                    for (unsigned j = 0; j < n; j++) {
                        unsigned x = vals[j];
                        if (st1[x] != b + 1) {
                            st1[x] = b + 1;
                            dmask[x] = 0;
                            VEC_PUSH(ctx, touched, unsigned, x, fail);
                        }
                        if (pass) {
                            dmask[x] |= masks[j];
                        } else if (!(masks[j] & ~dmask[x])) {
                            /* defined earlier in the block: not exposed */
                        } else if (weak && x < L->phys_base) {
                            if (st3[x] != b + 1) {
                                st3[x] = b + 1;
                                VEC_PUSH(ctx, wue, pair, ((pair){ x, b }), fail);
                            }
                        } else if (st2[x] != b + 1) {
                            st2[x] = b + 1;
                            VEC_PUSH(ctx, ue, pair, ((pair){ x, b }), fail);
                        }
                    }
                }
            }
        }
        for (unsigned t = 0; t < touched.n; t++) {
            unsigned x = ((unsigned *)touched.data)[t];
            if ((dmask[x] & L->val_full[x]) == L->val_full[x])
                VEC_PUSH(ctx, kill, pair, ((pair){ x, b }), fail);
            if (L->partial && dmask[x])
                VEC_PUSH(ctx, dfb, pair, ((pair){ x, b }), fail);
        }
    }
    if (pairs_to_csr(ctx, ue.data, ue.n, NV, &ue_csr, 1) ||
        pairs_to_csr(ctx, kill.data, kill.n, NV, &kill_csr, 1))
        goto fail;
    if (L->partial && (pairs_to_csr(ctx, wue.data, wue.n, NV, &wue_csr, 1) ||
                       pairs_to_csr(ctx, dfb.data, dfb.n, NV, &dfb_csr, 1)))
        goto fail;

    /* 2. live-in / live-out per value */
    for (unsigned x = 0; x < NV; x++) {
        unsigned us = ue_csr.off[x], ue_end = ue_csr.off[x + 1];
        int has_weak = L->partial && wue_csr.off[x] != wue_csr.off[x + 1];
        if (us == ue_end && !has_weak)
            continue;
        unsigned stamp = x + 1;
        for (unsigned e = kill_csr.off[x]; e < kill_csr.off[x + 1]; e++)
            kst[kill_csr.data[e]] = stamp;
        work.n = 0;
        for (unsigned e = us; e < ue_end; e++) {
            unsigned b = ue_csr.data[e];
            ist[b] = stamp;
            VEC_PUSH(ctx, work, unsigned, b, fail);
        }
        while (work.n) {
            unsigned b = ((unsigned *)work.data)[--work.n];
            for (unsigned e = cfg->pred.off[b]; e < cfg->pred.off[b + 1]; e++) {
                unsigned p = cfg->pred.data[e];
                if (ost[p] != stamp) {
                    ost[p] = stamp;
                    VEC_PUSH(ctx, liveout, pair, ((pair){ x, p }), fail);
                }
                if (kst[p] != stamp && ist[p] != stamp) {
                    ist[p] = stamp;
                    VEC_PUSH(ctx, work, unsigned, p, fail);
                }
            }
        }
        if (nb && ist[0] == stamp && L->val_key[x] < L->nv) {
            /* read before any definition on some path from the entry */
            unsigned key = L->val_key[x];
            if (R->nentry_live == 0 || R->entry_live[R->nentry_live - 1] != key) {
                unsigned *p = wa_mem_realloc(ctx, R->entry_live, (R->nentry_live + 1) * sizeof(unsigned));
                if (!p)
                    goto fail;
                R->entry_live = p;
                R->entry_live[R->nentry_live++] = key;
            }
        }
        if (has_weak && weak_live(L, cfg, x, &wue_csr, &dfb_csr, kst, ist, ost, wst, mst, dst, &work,
                                  &wlist, &liveout, &dropped))
            goto fail;
    }

    /* Live-out values per block (as value ids) for the segment scan. */
    {
        pair *lo = liveout.data;
        pair *flip = wa_tmp_alloc(ctx, (liveout.n + 1) * sizeof(pair));
        if (!flip)
            goto fail;
        for (unsigned i = 0; i < liveout.n; i++)
            flip[i] = (pair){ lo[i].b, lo[i].a };
        wa_status s2 = pairs_to_csr(ctx, flip, liveout.n, nb, &lo_csr, 1);
        wa_tmp_free(ctx, flip);
        if (s2)
            goto fail;
        if (L->partial && pairs_to_csr(ctx, dropped.data, dropped.n, nb, &drop_csr, 1))
            goto fail;
        if (L->partial && keep_live_out(R, L, &lo_csr, nb))
            goto fail;
    }

    /* 3. segments: backward scan of each block. Every segment ends at a
       definition, or is opened by a use or a live-out value: reserve that many. */
    {
        size_t bound = nrefs + liveout.n + 1;
        if (bound > 0xFFFFFFFFu)
            goto fail;
        void *sd = wa_tmp_alloc(ctx, bound * sizeof(seg3));
        if (!sd)
            goto fail;
        segs.data = sd;
        segs.cap = (unsigned)bound;
    }
    {
        unsigned *open_end = st2;      /* reuse: end point of the open segment */
        uint32_t *need = dmask;        /* components still needed above */
        /* A value live out of one block and into the next extends the segment
           that reached the end of the earlier block instead of opening another:
           values live through many short blocks keep one segment. ch[x] is the
           segment of x that reached the end of the last block x was live out of,
           with its end kept there while it grows (written back when the chain
           stops: the segment itself is far away in memory by then); out_seg[x]
           the segment reaching the end of the current block. */
        chain *ch = wa_tmp_alloc(ctx, (NV + 1) * sizeof(chain));
        unsigned *out_seg = st1;       /* reuse */
        unsigned char *isopen = wa_tmp_calloc(ctx, NV + 1, 1);
        if (!isopen || !ch) {
            wa_tmp_free(ctx, ch);
            wa_tmp_free(ctx, isopen);
            goto fail;
        }
        memset(ch, 0xFF, (NV + 1) * sizeof(chain));
        for (unsigned b = 0; b < nb; b++) {
            unsigned bstart = 2 * cfg->first[b], bend = 2 * cfg->last[b] + 1;
            openl.n = 0;
            for (unsigned e = lo_csr.off[b]; e < lo_csr.off[b + 1]; e++) {
                unsigned x = lo_csr.data[e];
                isopen[x] = 1;
                open_end[x] = bend;
                need[x] = L->val_full[x];
                VEC_PUSH(ctx, openl, unsigned, x, fail_open);
            }
            for (unsigned i = cfg->last[b] + 1; i-- > cfg->first[b];) {
                const wa_instr *in = &prog->instrs[i];
                const wa_isa_info *info = wa_isa(in->op);
                if (info->flags & WA_IF_PSEUDO)
                    continue;
                for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
                    unsigned role = wa_instr_role(in, info, k);
                    if (!(role & WA_ROLE_DEF))
                        continue;
                    unsigned dp = early_clobber(info, role) ? 2 * i : 2 * i + 1;
                    unsigned n = expand(L, &in->ops[k], vals, masks);
                    for (unsigned j = 0; j < n; j++) {
                        unsigned x = vals[j];
                        if (isopen[x]) {
                            need[x] &= ~masks[j];
                            if (need[x] == 0) {
                                if (open_end[x] == bend)
                                    out_seg[x] = segs.n;
                                SEG_PUSH(segs, ((seg3){ L->val_key[x], dp, open_end[x], x }), fail_open);
                                isopen[x] = 0;
                            }
                        } else {
                            /* a dead definition still occupies its registers */
                            SEG_PUSH(segs, ((seg3){ L->val_key[x], dp, 2 * i + 1, x }), fail_open);
                        }
                    }
                }
                for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
                    if (!(wa_instr_role(in, info, k) & WA_ROLE_USE) && !weak_use(L, i, in, info, k))
                        continue;
                    unsigned n = expand(L, &in->ops[k], vals, masks);
                    for (unsigned j = 0; j < n; j++) {
                        unsigned x = vals[j];
                        if (!isopen[x]) {
                            isopen[x] = 1;
                            open_end[x] = 2 * i;
                            need[x] = masks[j];
                            VEC_PUSH(ctx, openl, unsigned, x, fail_open);
                        } else {
                            need[x] |= masks[j];
                        }
                    }
                }
            }
            /* weak uses at the block's start with no value that could be kept */
            if (L->partial)
                for (unsigned e = drop_csr.off[b]; e < drop_csr.off[b + 1]; e++)
                    isopen[drop_csr.data[e]] = 0;
            /* An MFMA first in the block writes its result at the block's first
               point, touching a segment that ends the block before; joined, the
               two would read as live into the block. Note each register it
               redefines that is not (no component is open here). */
            if (cfg->first[b] <= cfg->last[b]) {
                const wa_instr *in = &prog->instrs[cfg->first[b]];
                const wa_isa_info *info = wa_isa(in->op);
                for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
                    const wa_operand *o = &in->ops[k];
                    if (!early_clobber(info, wa_instr_role(in, info, k)) || o->kind != WA_OPND_VIRT ||
                        L->vbase[o->id] == WA_NONE)
                        continue;
                    unsigned base = L->vbase[o->id], nval = L->split[o->id] ? prog->vregs[o->id].size : 1;
                    int live = 0;
                    for (unsigned c = 0; c < nval; c++)
                        live |= isopen[base + c];
                    if (!live)
                        VEC_PUSH(ctx, notin, pair, ((pair){ o->id, b }), fail_open);
                }
            }
            for (unsigned t = 0; t < openl.n; t++) {
                unsigned x = ((unsigned *)openl.data)[t];
                if (isopen[x]) {
                    unsigned idx = ch[x].seg;
                    if (idx != WA_NONE && ch[x].end + 1 == bstart) {
                        ch[x].end = open_end[x];
                    } else {
                        /* live into the block: flagged in bit 31 of the start */
                        idx = segs.n;
                        SEG_PUSH(segs, ((seg3){ L->val_key[x], bstart | LIVE_IN_FLAG, open_end[x], x }), fail_open);
                    }
                    if (open_end[x] == bend)
                        out_seg[x] = idx;
                    isopen[x] = 0;
                }
            }
            for (unsigned e = lo_csr.off[b]; e < lo_csr.off[b + 1]; e++) {
                unsigned x = lo_csr.data[e], idx = out_seg[x];
                if (idx == ch[x].seg)
                    continue; /* the chain goes on */
                if (ch[x].seg != WA_NONE)
                    ((seg3 *)segs.data)[ch[x].seg].end = ch[x].end;
                ch[x] = (chain){ idx, bend };
            }
        }
        for (unsigned x = 0; x < NV; x++)
            if (ch[x].seg != WA_NONE)
                ((seg3 *)segs.data)[ch[x].seg].end = ch[x].end;
        wa_tmp_free(ctx, ch);
        wa_tmp_free(ctx, isopen);
        goto segs_done;
    fail_open:
        wa_tmp_free(ctx, ch);
        wa_tmp_free(ctx, isopen);
        goto fail;
    }
segs_done:

    /* per component of a split register: the last point it is live */
    {
        unsigned *first = wa_mem_alloc(ctx, ((size_t)L->nv + 1) * sizeof(unsigned));
        unsigned ncomp = 0;
        if (!first)
            goto fail;
        for (unsigned v = 0; v < L->nv; v++) {
            first[v] = WA_NONE;
            if (L->vbase[v] != WA_NONE && L->split[v]) {
                first[v] = ncomp;
                ncomp += prog->vregs[v].size;
            }
        }
        unsigned *cend = wa_mem_calloc(ctx, (size_t)ncomp + 1, sizeof(unsigned));
        if (!cend) {
            wa_mem_free(ctx, first);
            goto fail;
        }
        seg3 *s3 = segs.data;
        for (unsigned i = 0; i < segs.n; i++) {
            unsigned x = s3[i].val;
            if (x >= L->phys_base)
                continue;
            unsigned v = L->val_key[x];
            if (first[v] == WA_NONE)
                continue;
            unsigned c = first[v] + (x - L->vbase[v]);
            if (s3[i].end + 1 > cend[c])
                cend[c] = s3[i].end + 1; /* 0: never live */
        }
        R->comp_first = first;
        R->comp_end = cend;
    }

    /* 4. merge segments per key. Distributed by key in emission order, a key's
       segments form one descending run per block (the scan goes backwards) with
       blocks in ascending order: reversing each run sorts them. */
    {
        unsigned nkeys = L->nv + WA_UNITS;
        seg3 *s3 = segs.data;
        R->seg_index.off = wa_mem_calloc(ctx, nkeys + 1, sizeof(unsigned));
        R->segs = wa_mem_alloc(ctx, (segs.n + 1) * sizeof(wa_live_segment));
        unsigned *fill = wa_tmp_calloc(ctx, nkeys + 1, sizeof(unsigned));
        if (!R->seg_index.off || !R->segs || !fill) {
            wa_tmp_free(ctx, fill);
            goto fail;
        }
        unsigned *off = R->seg_index.off;
        R->seg_live_in = wa_mem_calloc(ctx, segs.n / 8 + 1, 1);
        if (!R->seg_live_in) {
            wa_tmp_free(ctx, fill);
            goto fail;
        }
        for (unsigned i = 0; i < segs.n; i++)
            off[s3[i].key + 1]++;
        for (unsigned k = 0; k < nkeys; k++)
            off[k + 1] += off[k];
        for (unsigned i = 0; i < segs.n; i++) {
            unsigned k = s3[i].key;
            R->segs[off[k] + fill[k]++] = (wa_live_segment){ s3[i].start, s3[i].end };
        }
        wa_tmp_free(ctx, fill);
        unsigned w = 0;
        for (unsigned k = 0; k < nkeys; k++) {
            unsigned s = off[k], e = off[k + 1];
            wa_live_segment *a = R->segs;
            for (unsigned i = s; i < e;) {
                unsigned j = i + 1;
                while (j < e && (a[j].start & ~LIVE_IN_FLAG) <= (a[j - 1].start & ~LIVE_IN_FLAG))
                    j++;
                for (unsigned lo = i, hi = j - 1; lo < hi; lo++, hi--) {
                    wa_live_segment t = a[lo];
                    a[lo] = a[hi];
                    a[hi] = t;
                }
                i = j;
            }
            off[k] = w;
            for (unsigned i = s; i < e; i++) {
                wa_live_segment t = a[i];
                unsigned flag = t.start & LIVE_IN_FLAG;
                t.start &= ~LIVE_IN_FLAG;
                if (w > off[k] && t.start <= a[w - 1].end + 1) {
                    if (t.end > a[w - 1].end)
                        a[w - 1].end = t.end;
                    if (flag && t.start == a[w - 1].start)
                        R->seg_live_in[(w - 1) >> 3] |= (uint8_t)(1u << ((w - 1) & 7));
                } else {
                    if (flag)
                        R->seg_live_in[w >> 3] |= (uint8_t)(1u << (w & 7));
                    a[w++] = t;
                }
            }
        }
        off[nkeys] = w;
    }

    if (R->nentry_live > 1)
        qsort(R->entry_live, R->nentry_live, sizeof(unsigned), cmp_unsigned);
    if (notin.n) {
        R->not_live_in = wa_mem_alloc(ctx, notin.n * sizeof(pair));
        if (!R->not_live_in)
            goto fail;
        memcpy(R->not_live_in, notin.data, notin.n * sizeof(pair));
        qsort(R->not_live_in, notin.n, sizeof(pair), cmp_pair);
        R->n_not_live_in = notin.n;
    }

    /* 6. pressure: event sweep over program points, one class at a time. An MFMA
       vdst starts at the use point (early clobber); where it can take the
       registers of a srcC that ends there (the allocator's tie), both occupy the
       same registers at that point and count once. */
    {
        unsigned npts = 2 * R->nitems + 2;
        int *diff = wa_tmp_alloc(ctx, (npts + 1) * sizeof(int));
        unsigned *tie = wa_tmp_calloc(ctx, R->nitems + 1, sizeof(unsigned)); /* registers */
        uint8_t *tie_cls = wa_tmp_calloc(ctx, R->nitems + 1, 1);
        if (!tie || !tie_cls) {
            wa_tmp_free(ctx, diff);
            wa_tmp_free(ctx, tie);
            wa_tmp_free(ctx, tie_cls);
            goto fail;
        }
        for (unsigned i = 0; i < R->nitems; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            if (!(info->flags & WA_IF_EARLY_CLOBBER) || in->nops < 4)
                continue;
            const wa_operand *d = &in->ops[0], *c = &in->ops[3];
            if (d->kind != WA_OPND_VIRT || c->kind != WA_OPND_VIRT || d->id == c->id ||
                d->reg_class != c->reg_class || d->count != c->count ||
                (in->ops[1].kind == WA_OPND_VIRT && in->ops[1].id == c->id) ||
                (in->ops[2].kind == WA_OPND_VIRT && in->ops[2].id == c->id))
                continue;
            unsigned nd, nc;
            const wa_live_segment *sd = wa_live_key_segs(R, d->id, &nd);
            const wa_live_segment *sc = wa_live_key_segs(R, c->id, &nc);
            unsigned u = 2 * i;
            if (segs_contain(sc, nc, u) && !segs_contain(sc, nc, u + 1) && segs_contain(sd, nd, u) &&
                (u == 0 || !segs_contain(sd, nd, u - 1))) {
                unsigned zd = prog->vregs[d->id].size, zc = prog->vregs[c->id].size;
                tie[i] = zd < zc ? zd : zc;
                tie_cls[i] = prog->vregs[d->id].cls;
            }
        }
        int ok = diff != NULL;
        for (unsigned c = 1; c <= 3 && ok; c++) {
            R->pressure[c] = wa_mem_alloc(ctx, (R->nitems + 1) * sizeof(unsigned));
            ok = R->pressure[c] != NULL;
        }
        for (unsigned c = 1; c <= 3 && ok; c++) {
            memset(diff, 0, (npts + 1) * sizeof(int));
            for (unsigned k = 0; k < L->nv + WA_UNITS; k++) {
                unsigned cls, size;
                if (k < L->nv) {
                    cls = prog->vregs[k].cls;
                    size = prog->vregs[k].size;
                } else {
                    cls = wa_unit_class(k - L->nv);
                    size = 1;
                }
                if (cls != c)
                    continue;
                for (unsigned i = R->seg_index.off[k]; i < R->seg_index.off[k + 1]; i++) {
                    diff[R->segs[i].start] += (int)size;
                    diff[R->segs[i].end + 1] -= (int)size;
                }
                /* a component dead for the rest of its register's life gives its
                   register back (the allocator releases it there) */
                for (unsigned j = 0; k < L->nv && R->comp_first[k] != WA_NONE && j < size; j++) {
                    unsigned e = R->comp_end[R->comp_first[k] + j]; /* last live point + 1 */
                    unsigned first = R->seg_index.off[k] < R->seg_index.off[k + 1]
                                         ? R->segs[R->seg_index.off[k]].start + 1
                                         : 0;
                    if (e < first)
                        e = first; /* the whole tuple is placed at its first point */
                    for (unsigned i = R->seg_index.off[k]; i < R->seg_index.off[k + 1]; i++) {
                        unsigned a = R->segs[i].start > e ? R->segs[i].start : e;
                        if (a <= R->segs[i].end) {
                            diff[a] -= 1;
                            diff[R->segs[i].end + 1] += 1;
                        }
                    }
                }
            }
            int run = 0;
            R->max_item[c] = WA_NONE;
            for (unsigned i = 0; i < R->nitems; i++) {
                run += diff[2 * i];
                unsigned a = (unsigned)run - (tie_cls[i] == c ? tie[i] : 0u);
                run += diff[2 * i + 1];
                unsigned p = a > (unsigned)run ? a : (unsigned)run;
                R->pressure[c][i] = p;
                if (R->max_item[c] == WA_NONE || p > R->max_pressure[c]) {
                    R->max_pressure[c] = p;
                    R->max_item[c] = i;
                }
            }
        }
        wa_tmp_free(ctx, diff);
        wa_tmp_free(ctx, tie);
        wa_tmp_free(ctx, tie_cls);
        if (!ok)
            goto fail;
    }
    st = WA_OK;
    goto done;
fail:
    st = wa_error_nomem(ctx);
done:
    wa_mem_free(ctx, ue.data);
    wa_mem_free(ctx, kill.data);
    wa_mem_free(ctx, touched.data);
    wa_mem_free(ctx, liveout.data);
    wa_tmp_free(ctx, segs.data);
    wa_mem_free(ctx, work.data);
    wa_mem_free(ctx, openl.data);
    wa_mem_free(ctx, notin.data);
    wa_mem_free(ctx, wue.data);
    wa_mem_free(ctx, dfb.data);
    wa_mem_free(ctx, wlist.data);
    wa_mem_free(ctx, dropped.data);
    csr_free_tmp(ctx, &wue_csr);
    csr_free_tmp(ctx, &dfb_csr);
    csr_free_tmp(ctx, &drop_csr);
    wa_tmp_free(ctx, st3);
    wa_tmp_free(ctx, wst);
    wa_tmp_free(ctx, mst);
    wa_tmp_free(ctx, dst);
    csr_free_tmp(ctx, &ue_csr);
    csr_free_tmp(ctx, &kill_csr);
    csr_free_tmp(ctx, &lo_csr);
    wa_tmp_free(ctx, st1);
    wa_tmp_free(ctx, dmask);
    wa_tmp_free(ctx, st2);
    wa_tmp_free(ctx, kst);
    wa_tmp_free(ctx, ist);
    wa_tmp_free(ctx, ost);
    return st;
}

/* ---- public entry points ----------------------------------------------------------------- */

void wa_liveness_destroy(wa_liveness *R)
{
    if (!R)
        return;
    wa_context *ctx = R->ctx;
    wa_cfg_free(&R->cfg, ctx);
    csr_free(ctx, &R->seg_index);
    wa_mem_free(ctx, R->segs);
    wa_mem_free(ctx, R->seg_live_in);
    wa_mem_free(ctx, R->vcls);
    wa_mem_free(ctx, R->vsize);
    csr_free(ctx, &R->live_in);
    csr_free(ctx, &R->live_out);
    wa_mem_free(ctx, R->entry_live);
    wa_mem_free(ctx, R->not_live_in);
    wa_mem_free(ctx, R->exec_partial);
    wa_mem_free(ctx, R->comp_first);
    wa_mem_free(ctx, R->comp_end);
    for (unsigned c = 0; c < 4; c++)
        wa_mem_free(ctx, R->pressure[c]);
    wa_mem_free(ctx, R);
}

static void debug_log(const wa_liveness *R)
{
    wa_context *ctx = R->ctx;
    wa_log(ctx, "[LIVENESS] %u items, %u blocks (%u reachable), %u loops", R->nitems,
           R->cfg.nblocks, R->cfg.nrpo, R->cfg.nloops);
    for (unsigned l = 0; l < R->cfg.nloops; l++) {
        const wa_loop_info *L = &R->cfg.loops[l];
        wa_log(ctx, "[LIVENESS] loop %u: header block %u (item %u), depth %u, %u blocks, %u exits",
               l, L->header, R->cfg.first[L->header], L->depth, L->num_blocks, L->num_exits);
    }
    static const char *const cls[4] = { "", "VGPR", "SGPR", "AGPR" };
    for (unsigned c = 1; c <= 3; c++)
        if (R->max_item[c] != WA_NONE)
            wa_log(ctx, "[LIVENESS] max %s pressure %u at item %u", cls[c], R->max_pressure[c],
                   R->max_item[c]);
    for (unsigned v = 0; v < R->nvregs; v++) {
        unsigned n;
        const wa_live_segment *s = wa_live_key_segs(R, v, &n);
        if (n)
            wa_log(ctx, "[LIVENESS] %%v%u: %u segment%s, points %u..%u", v, n, n == 1 ? "" : "s",
                   s[0].start, s[n - 1].end);
    }
}

wa_status wa_liveness_compute(wa_liveness **out, const wa_program *prog,
                              const wa_liveness_options *opts)
{
    if (!out || !prog)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    wa_liveness_options defaults = WA_LIVENESS_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    if (opts->version < 1 || opts->version > WA_LIVENESS_OPTIONS_VERSION)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_liveness_options version %u",
                        opts->version);
    wa_liveness *R = wa_mem_calloc(ctx, 1, sizeof(*R));
    if (!R)
        return wa_error_nomem(ctx);
    R->ctx = ctx;
    R->nitems = prog->ninstrs;
    R->nvregs = prog->nvregs;
    wa_status st = wa_cfg_build(&R->cfg, prog);
    if (st) {
        wa_liveness_destroy(R);
        return st;
    }
    R->vcls = wa_mem_calloc(ctx, prog->nvregs + 1, 1);
    R->vsize = wa_mem_calloc(ctx, prog->nvregs + 1, sizeof(uint32_t));
    if (!R->vcls || !R->vsize) {
        wa_liveness_destroy(R);
        return wa_error_nomem(ctx);
    }
    for (unsigned v = 0; v < prog->nvregs; v++) {
        R->vcls[v] = prog->vregs[v].cls;
        R->vsize[v] = prog->vregs[v].size;
    }
    lv L;
    memset(&L, 0, sizeof(L));
    L.prog = prog;
    L.ctx = ctx;
    L.cfg = &R->cfg;
    st = setup_values(&L);
    if (!st && L.writes_exec) {
        int any = 0;
        st = wa_exec_partial(&R->exec_partial, &any, prog, &R->cfg);
        if (!st && !any) {
            wa_mem_free(ctx, R->exec_partial);
            R->exec_partial = NULL;
        }
        L.partial = R->exec_partial;
    }
    if (!st)
        st = compute(R, &L);
    wa_tmp_free(ctx, L.vbase);
    wa_tmp_free(ctx, L.split);
    wa_tmp_free(ctx, L.val_key);
    wa_tmp_free(ctx, L.val_full);
    if (!st && (opts->flags & WA_LIVENESS_SSA_CHECK) && wa_ssa_check(prog, &R->cfg))
        st = WA_E_VALIDATE;
    if (st) {
        wa_liveness_destroy(R);
        return st;
    }
    if (ctx->debug & WA_DEBUG_LIVENESS)
        debug_log(R);
    *out = R;
    return WA_OK;
}

unsigned wa_liveness_block_count(const wa_liveness *live)
{
    return live ? live->cfg.nblocks : 0;
}

wa_status wa_liveness_block(wa_block_info *out, const wa_liveness *live, unsigned b)
{
    if (!out || !live)
        return WA_E_INVALID;
    if (b >= live->cfg.nblocks)
        return wa_error(live->ctx, WA_E_INVALID, WA_LOC_NONE, "block %u out of range (%u blocks)",
                        b, live->cfg.nblocks);
    const wa_cfg *c = &live->cfg;
    out->first_item = c->first[b];
    out->last_item = c->last[b];
    out->num_preds = c->pred.off[b + 1] - c->pred.off[b];
    out->num_succs = c->succ.off[b + 1] - c->succ.off[b];
    out->idom = c->idom[b];
    out->loop_depth = c->block_depth[b];
    out->loop = c->block_loop[b];
    out->reachable = c->rpo_index[b] != WA_NONE;
    return WA_OK;
}

unsigned wa_liveness_block_of(const wa_liveness *live, unsigned item)
{
    if (!live || item >= live->nitems)
        return WA_NONE;
    return live->cfg.item_block[item];
}

static const unsigned *csr_row(const wa_csr *c, unsigned rows, unsigned r, unsigned *count)
{
    if (r >= rows) {
        if (count)
            *count = 0;
        return NULL;
    }
    if (count)
        *count = c->off[r + 1] - c->off[r];
    return c->data + c->off[r];
}

const unsigned *wa_liveness_preds(const wa_liveness *live, unsigned b, unsigned *count)
{
    if (!live) {
        if (count)
            *count = 0;
        return NULL;
    }
    return csr_row(&live->cfg.pred, live->cfg.nblocks, b, count);
}

const unsigned *wa_liveness_succs(const wa_liveness *live, unsigned b, unsigned *count)
{
    if (!live) {
        if (count)
            *count = 0;
        return NULL;
    }
    return csr_row(&live->cfg.succ, live->cfg.nblocks, b, count);
}

const unsigned *wa_liveness_live_in(const wa_liveness *live, unsigned b, unsigned *count)
{
    if (!live || !ensure_sets(live)) {
        if (count)
            *count = 0;
        return NULL;
    }
    return csr_row(&live->live_in, live->cfg.nblocks, b, count);
}

const unsigned *wa_liveness_live_out(const wa_liveness *live, unsigned b, unsigned *count)
{
    if (!live || !ensure_sets(live)) {
        if (count)
            *count = 0;
        return NULL;
    }
    return csr_row(&live->live_out, live->cfg.nblocks, b, count);
}

unsigned wa_liveness_loop_count(const wa_liveness *live)
{
    return live ? live->cfg.nloops : 0;
}

wa_status wa_liveness_loop(wa_loop_info *out, const wa_liveness *live, unsigned loop)
{
    if (!out || !live)
        return WA_E_INVALID;
    if (loop >= live->cfg.nloops)
        return wa_error(live->ctx, WA_E_INVALID, WA_LOC_NONE, "loop %u out of range (%u loops)",
                        loop, live->cfg.nloops);
    *out = live->cfg.loops[loop];
    return WA_OK;
}

const wa_live_segment *wa_liveness_segments(const wa_liveness *live, unsigned vreg, unsigned *count)
{
    if (!live || vreg >= live->nvregs) {
        if (count)
            *count = 0;
        return NULL;
    }
    unsigned n;
    const wa_live_segment *s = wa_live_key_segs(live, vreg, &n);
    if (count)
        *count = n;
    return s;
}

int wa_liveness_is_live(const wa_liveness *live, unsigned vreg, unsigned point)
{
    if (!live || vreg >= live->nvregs)
        return 0;
    unsigned n;
    const wa_live_segment *s = wa_live_key_segs(live, vreg, &n);
    return segs_contain(s, n, point);
}

unsigned wa_liveness_live_at(unsigned *out, unsigned cap, const wa_liveness *live, unsigned point,
                             wa_reg_class cls)
{
    if (!live)
        return 0;
    unsigned count = 0;
    for (unsigned v = 0; v < live->nvregs; v++) {
        if (live->vcls[v] != cls)
            continue;
        unsigned n;
        const wa_live_segment *s = wa_live_key_segs(live, v, &n);
        if (n && segs_contain(s, n, point)) {
            if (out && count < cap)
                out[count] = v;
            count++;
        }
    }
    return count;
}

const unsigned *wa_liveness_live_on_entry(const wa_liveness *live, unsigned *count)
{
    if (!live) {
        if (count)
            *count = 0;
        return NULL;
    }
    if (count)
        *count = live->nentry_live;
    return live->entry_live;
}

int wa_liveness_exec_partial(const wa_liveness *live, unsigned item)
{
    return live && item < live->nitems && live->exec_partial && live->exec_partial[item];
}

unsigned wa_liveness_pressure(const wa_liveness *live, unsigned item, wa_reg_class cls)
{
    if (!live || item >= live->nitems || cls < WA_REG_VGPR || cls > WA_REG_AGPR)
        return 0;
    return live->pressure[cls][item];
}

unsigned wa_liveness_max_pressure(const wa_liveness *live, wa_reg_class cls, unsigned *out_item)
{
    if (!live || cls < WA_REG_VGPR || cls > WA_REG_AGPR) {
        if (out_item)
            *out_item = WA_NONE;
        return 0;
    }
    if (out_item)
        *out_item = live->max_item[cls];
    return live->max_pressure[cls];
}

wa_status wa_liveness_print(char **out, size_t *out_len, const wa_liveness *live)
{
    if (!out || !live)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = live->ctx;
    if (!ensure_sets(live))
        return wa_error_nomem(ctx);
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    const wa_cfg *c = &live->cfg;
    wa_sb_printf(&sb, "blocks: %u (%u reachable), loops: %u\n", c->nblocks, c->nrpo, c->nloops);
    for (unsigned b = 0; b < c->nblocks; b++) {
        wa_sb_printf(&sb, "block %u: items %u..%u", b, c->first[b], c->last[b]);
        if (c->rpo_index[b] == WA_NONE)
            wa_sb_puts(&sb, " (unreachable)");
        if (c->block_loop[b] != WA_NONE)
            wa_sb_printf(&sb, " loop %u depth %u", c->block_loop[b], c->block_depth[b]);
        if (c->idom[b] != WA_NONE)
            wa_sb_printf(&sb, " idom %u", c->idom[b]);
        wa_sb_puts(&sb, "\n  preds:");
        for (unsigned e = c->pred.off[b]; e < c->pred.off[b + 1]; e++)
            wa_sb_printf(&sb, " %u", c->pred.data[e]);
        wa_sb_puts(&sb, "\n  succs:");
        for (unsigned e = c->succ.off[b]; e < c->succ.off[b + 1]; e++)
            wa_sb_printf(&sb, " %u", c->succ.data[e]);
        static const char cl[4] = { '?', 'v', 's', 'a' };
        wa_sb_puts(&sb, "\n  live-in:");
        for (unsigned e = live->live_in.off[b]; e < live->live_in.off[b + 1]; e++) {
            unsigned v = live->live_in.data[e];
            wa_sb_printf(&sb, " %%%c%u", cl[live->vcls[v] & 3], v);
        }
        wa_sb_puts(&sb, "\n  live-out:");
        for (unsigned e = live->live_out.off[b]; e < live->live_out.off[b + 1]; e++) {
            unsigned v = live->live_out.data[e];
            wa_sb_printf(&sb, " %%%c%u", cl[live->vcls[v] & 3], v);
        }
        wa_sb_putc(&sb, '\n');
    }
    for (unsigned l = 0; l < c->nloops; l++) {
        const wa_loop_info *L = &c->loops[l];
        wa_sb_printf(&sb, "loop %u: header block %u, depth %u, %u blocks, %u exits", l, L->header,
                     L->depth, L->num_blocks, L->num_exits);
        if (L->parent != WA_NONE)
            wa_sb_printf(&sb, ", inside loop %u", L->parent);
        wa_sb_putc(&sb, '\n');
    }
    static const char cl2[4] = { '?', 'v', 's', 'a' };
    for (unsigned v = 0; v < live->nvregs; v++) {
        unsigned n;
        const wa_live_segment *s = wa_live_key_segs(live, v, &n);
        if (!n)
            continue;
        wa_sb_printf(&sb, "%%%c%u:", cl2[live->vcls[v] & 3], v);
        for (unsigned i = 0; i < n; i++)
            wa_sb_printf(&sb, " [%u,%u]", s[i].start, s[i].end);
        wa_sb_putc(&sb, '\n');
    }
    if (live->nentry_live) {
        wa_sb_puts(&sb, "live on entry:");
        for (unsigned i = 0; i < live->nentry_live; i++)
            wa_sb_printf(&sb, " %%%c%u", cl2[live->vcls[live->entry_live[i]] & 3],
                         live->entry_live[i]);
        wa_sb_putc(&sb, '\n');
    }
    static const char *const cname[4] = { "", "VGPR", "SGPR", "AGPR" };
    for (unsigned cls = 1; cls <= 3; cls++) {
        wa_sb_printf(&sb, "max %s pressure: %u", cname[cls], live->max_pressure[cls]);
        if (live->max_item[cls] != WA_NONE)
            wa_sb_printf(&sb, " at item %u", live->max_item[cls]);
        wa_sb_putc(&sb, '\n');
    }
    return wa_sb_finish(&sb, out, out_len);
}
