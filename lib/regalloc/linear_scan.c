/* lib/regalloc/linear_scan.c — linear-scan register allocation.

   Intervals (one per virtual register, made of its live segments) are taken in
   order of their start. Each class has a pool of registers. An interval that owns
   registers is active while the scan is inside one of its segments and inactive
   in the holes between them (Wimmer and Franz's linear scan, without splitting);
   an event heap moves intervals between the two states and expires them after
   their last segment. A register is free for a new interval if no active
   interval owns it and every inactive owner resumes only after the new interval
   ends. A new interval gets, in order:
   1. the register its tie or move hint names, if that range is free;
   2. otherwise the best-fitting free aligned range: the smallest run of free
      registers that holds it (the open run at the top of the pool counts as
      infinite), lowest first — this keeps aligned blocks intact for the tuples
      that need them and the peak low;
   3. otherwise (unless disabled) a range whose owners are all in a lifetime hole
      for the whole of the new interval (exact segment test).
   Physical registers the program uses are fixed intervals: a range overlapping
   one of their segments is never chosen. There is no spilling: if nothing fits,
   the allocation fails with a diagnostic describing the conflict. */
#include "regalloc_internal.h"
#include "../analysis/hazard_rules.h"

#include <stdlib.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define NREG 256u

typedef struct hint {
    unsigned other;     /* interval index */
    int delta;          /* reg(this) = reg(other) + delta */
    unsigned tie_point; /* MFMA tie: `other` may end exactly where this starts */
    int mfma;           /* vdst and srcC of an MFMA (counted as a tie when taken) */
    unsigned win_lo, win_hi; /* copy tie: this may start from win_lo while `other`
                                ends by win_hi (WA_NONE: none) */
} hint;

typedef struct ival {
    unsigned vreg, cls, size, align;
    unsigned start, end;
    const wa_live_segment *segs;
    unsigned nsegs;
    unsigned hint_head; /* linked list through hint_next, WA_NONE */
    unsigned cur;       /* segment the scan is in or will reach next */
    int active;         /* inside segment `cur` */
    int in_flight;      /* a memory operation writes it and its last point is no
                           read: the write may still be pending when it ends */
} ival;

typedef struct event {
    unsigned point;     /* when the interval changes state */
    unsigned ival;
} event;

typedef struct owner {
    unsigned ival;
    unsigned next;
} owner;

typedef struct pool {
    unsigned cls, limit;
    uint64_t blocked[4];   /* reserved, or beyond the limit */
    uint64_t busy[4];      /* an active interval owns the register */
    uint64_t has_inactive[4]; /* an inactive interval owns it */
    uint64_t has_fixed[4];
    unsigned avail[NREG];  /* with inactive owners: the earliest point one resumes */
    unsigned head[NREG];   /* owner list per register */
    const wa_live_segment *fseg[NREG];
    unsigned fn[NREG];
    unsigned pend[NREG];   /* a memory write may still land up to this point */
    unsigned readpt[NREG]; /* 1 + the last point an expired owner was live (0: none) */
    unsigned rel_cur;      /* next component release of the class (ra.rel) */
    unsigned fixed_peak;   /* highest precolored register used + 1 */
    unsigned peak;
    event *heap;           /* min-heap by point */
    unsigned hn, hcap;
} pool;

typedef struct ra {
    const wa_program *prog;
    wa_context *ctx;
    const wa_liveness *live;
    wa_regalloc_options opts;
    wa_regalloc_result *res;
    ival *iv;
    unsigned niv;
    unsigned *vreg_iv;     /* vreg -> interval index, WA_NONE */
    hint *hints;
    unsigned *hint_next;
    unsigned nhints, caphints;
    owner *own;
    unsigned nown, capown;
    unsigned free_own;     /* free list of owner nodes */
    pool pools[4];
    int log_ra, log_alloc;
    unsigned policy;
    unsigned coalesced[4], tied[4], hole_fits[4]; /* this attempt, per class */
    /* tuples-first: where pass A put each tuple, and per class and register the
       segments of the tuples there (rows of a CSR, sorted by start) */
    uint32_t *tuple_reg;
    unsigned *occ_off[4];
    unsigned *occ_cur[4];  /* per register: first segment not yet behind the scan */
    unsigned occ_top[4];   /* registers above this hold no tuple */
    wa_live_segment *occ[4];
    int tuples_fixed;
    unsigned *clause_from; /* per item: first item of its soft clause (XNACK replay),
                              WA_NONE when it is in none of two or more */
    /* components of register tuples that are dead for the rest of their
       register's life, per class in order of the point from which their
       register is free (sub-register liveness) */
    struct release {
        unsigned point, ival, comp;
    } *rel[4];
    unsigned nrel[4];
} ra;

/* ---- bits ------------------------------------------------------------------------------------ */

static int bit_get(const uint64_t *m, unsigned r) { return (int)((m[r >> 6] >> (r & 63)) & 1u); }
static void bit_set(uint64_t *m, unsigned r) { m[r >> 6] |= 1ull << (r & 63); }
static void bit_clear(uint64_t *m, unsigned r) { m[r >> 6] &= ~(1ull << (r & 63)); }

/* First position >= from (and < limit) whose bit in m equals `want`, else limit. */
static unsigned next_bit(const uint64_t *m, unsigned from, unsigned limit, int want)
{
    for (unsigned p = from; p < limit;) {
        unsigned w = p >> 6;
        uint64_t x = want ? m[w] : ~m[w];
        x &= ~0ull << (p & 63);
        if (x) {
            unsigned q = (w << 6) + wa_ctz64(x);
            return q < limit ? q : limit;
        }
        p = (w + 1) << 6;
    }
    return limit;
}

/* ---- segments ------------------------------------------------------------------------------ */

static int seg_hit(const wa_live_segment *s, unsigned n, unsigned a, unsigned b)
{
    /* does any segment of s intersect [a, b]? */
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (s[mid].end < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && s[lo].start <= b;
}

static int segs_overlap(const wa_live_segment *a, unsigned na, const wa_live_segment *b, unsigned nb)
{
    if (!na || !nb || a[na - 1].end < b[0].start || b[nb - 1].end < a[0].start)
        return 0;
    if (na > nb) {
        const wa_live_segment *t = a;
        a = b;
        b = t;
        unsigned tn = na;
        na = nb;
        nb = tn;
    }
    for (unsigned i = 0; i < na; i++)
        if (seg_hit(b, nb, a[i].start, a[i].end))
            return 1;
    return 0;
}

/* ---- options -------------------------------------------------------------------------------- */

wa_status wa_regalloc_options_check(wa_regalloc_options *out, wa_context *ctx,
                                    const wa_regalloc_options *opts)
{
    wa_regalloc_options d = WA_REGALLOC_OPTIONS_INIT;
    if (!opts)
        opts = &d;
    if (opts->version < 1 || opts->version > WA_REGALLOC_OPTIONS_VERSION)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_regalloc_options version %u",
                        opts->version);
    if (opts->max_vgprs > 256 || opts->max_agprs > 256 || opts->max_sgprs > WA_MAX_SGPR)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "register limits out of range (VGPR <= 256, SGPR <= %u, AGPR <= 256): %u, %u, %u",
                        WA_MAX_SGPR, opts->max_vgprs, opts->max_sgprs, opts->max_agprs);
    if (opts->flags & ~(WA_REGALLOC_NO_COALESCE | WA_REGALLOC_NO_HOLES | WA_REGALLOC_CHECK))
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_regalloc_options flags 0x%x",
                        opts->flags);
    if (opts->version == 1) {
        /* a caller built before `liveness` existed: read only what it has */
        memcpy(out, opts, offsetof(wa_regalloc_options, liveness));
        out->liveness = NULL;
    } else {
        *out = *opts;
    }
    out->version = WA_REGALLOC_OPTIONS_VERSION;
    return WA_OK;
}

unsigned wa_regalloc_align(wa_target target, wa_reg_class cls, unsigned size, unsigned declared)
{
    unsigned a = wa_target_tuple_align(target, cls, size);
    return declared > a ? declared : a;
}

/* ---- owners and the event heap --------------------------------------------------------------- */

/* Recomputes a register's state from its owners. */
static void unit_refresh(ra *R, pool *P, unsigned r)
{
    int busy = 0;
    unsigned avail = WA_NONE;
    for (unsigned n = P->head[r]; n != WA_NONE; n = R->own[n].next) {
        const ival *J = &R->iv[R->own[n].ival];
        if (J->active)
            busy = 1;
        else if (J->segs[J->cur].start < avail)
            avail = J->segs[J->cur].start;
    }
    if (busy)
        bit_set(P->busy, r);
    else
        bit_clear(P->busy, r);
    P->avail[r] = avail;
    if (avail != WA_NONE)
        bit_set(P->has_inactive, r);
    else
        bit_clear(P->has_inactive, r);
}

static int own_add(ra *R, unsigned reg, pool *P, unsigned iv)
{
    unsigned n;
    if (R->free_own != WA_NONE) {
        n = R->free_own;
        R->free_own = R->own[n].next;
    } else {
        if (WA_GROW(R->ctx, R->own, R->capown, R->nown + 1))
            return -1;
        n = R->nown++;
    }
    R->own[n].ival = iv;
    R->own[n].next = P->head[reg];
    P->head[reg] = n;
    unit_refresh(R, P, reg);
    return 0;
}

static void own_remove(ra *R, pool *P, unsigned reg, unsigned iv)
{
    unsigned *link = &P->head[reg];
    while (*link != WA_NONE) {
        unsigned n = *link;
        if (R->own[n].ival == iv) {
            *link = R->own[n].next;
            R->own[n].next = R->free_own;
            R->free_own = n;
            break;
        }
        link = &R->own[n].next;
    }
    unit_refresh(R, P, reg);
}

static int heap_push(ra *R, pool *P, unsigned point, unsigned iv)
{
    if (WA_GROW(R->ctx, P->heap, P->hcap, P->hn + 1))
        return -1;
    unsigned i = P->hn++;
    P->heap[i] = (event){ point, iv };
    while (i && P->heap[i].point < P->heap[(i - 1) / 2].point) {
        unsigned p = (i - 1) / 2;
        event t = P->heap[p];
        P->heap[p] = P->heap[i];
        P->heap[i] = t;
        i = p;
    }
    return 0;
}

static event heap_pop(pool *P)
{
    event top = P->heap[0];
    P->heap[0] = P->heap[--P->hn];
    unsigned i = 0;
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        if (l < P->hn && P->heap[l].point < P->heap[m].point)
            m = l;
        if (r < P->hn && P->heap[r].point < P->heap[m].point)
            m = r;
        if (m == i)
            break;
        event t = P->heap[m];
        P->heap[m] = P->heap[i];
        P->heap[i] = t;
        i = m;
    }
    return top;
}

static char cls_letter(unsigned cls)
{
    return cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : 'a';
}

/* "v5" or "v[4:7]" */
static void reg_text(char *buf, size_t n, unsigned cls, unsigned reg, unsigned size)
{
    if (size == 1)
        snprintf(buf, n, "%c%u", cls_letter(cls), reg);
    else
        snprintf(buf, n, "%c[%u:%u]", cls_letter(cls), reg, reg + size - 1);
}

/* Brings every owner up to date with the scan position: intervals whose segment
   ended go inactive (or expire after their last one), inactive intervals whose
   next segment has begun become active again. */
static int advance(ra *R, pool *P, unsigned point)
{
    /* dead components first: their registers are free from here */
    while (P->rel_cur < R->nrel[P->cls] && R->rel[P->cls][P->rel_cur].point <= point) {
        const struct release *x = &R->rel[P->cls][P->rel_cur++];
        const ival *J = &R->iv[x->ival];
        unsigned base = R->res->reg[J->vreg];
        if (base == WA_NONE)
            continue;
        own_remove(R, P, base + x->comp, x->ival);
        if (P->readpt[base + x->comp] < x->point)
            P->readpt[base + x->comp] = x->point;
    }
    while (P->hn && P->heap[0].point <= point) {
        event e = heap_pop(P);
        ival *J = &R->iv[e.ival];
        unsigned base = R->res->reg[J->vreg];
        if (J->active && J->cur + 1 == J->nsegs) {
            for (unsigned r = base; r < base + J->size; r++) {
                own_remove(R, P, r, e.ival);
                P->readpt[r] = J->end + 1;
            }
            if (R->log_alloc) {
                char where[32];
                reg_text(where, sizeof(where), J->cls, base, J->size);
                wa_log(R->ctx, "[FREE] %s %%%c%u", where, cls_letter(J->cls), J->vreg);
            }
            continue;
        }
        unsigned next;
        if (J->active) {
            J->active = 0;
            J->cur++;
            next = J->segs[J->cur].start;
        } else {
            J->active = 1;
            next = J->segs[J->cur].end + 1;
        }
        for (unsigned r = base; r < base + J->size; r++)
            unit_refresh(R, P, r);
        if (heap_push(R, P, next, e.ival))
            return -1;
    }
    return 0;
}

/* How long after its interval ends a register written by a memory operation
   counts as possibly pending (program points, two per instruction): past a
   loop's end, a prefetch the last iteration never reads is still in flight,
   and a new value defined in that register must first wait for it. */
#define PENDING_POINTS 512u

/* Any of reg..reg+size-1 possibly still written by a memory operation at `point`. */
static int pending_at(const pool *P, unsigned reg, unsigned size, unsigned point)
{
    for (unsigned r = reg; r < reg + size; r++)
        if (P->pend[r] > point)
            return 1;
    return 0;
}

/* Intervals a memory operation (a counter in the ISA table) writes whose last
   point is not a read of the value: the write may land after the interval ends
   (a dead load, or a value live around a loop whose last iteration's load is
   never read). A read at the end means a wait there already covered it. */
static void mark_in_flight(ra *R)
{
    const wa_program *prog = R->prog;
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if (!(info->counters & (WA_CNT_VM | WA_CNT_LGKM)))
            continue;
        for (unsigned k = 0; k < in->nops; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind != WA_OPND_VIRT || o->id >= prog->nvregs ||
                !(wa_instr_role(in, info, k) & WA_ROLE_DEF) || R->vreg_iv[o->id] == WA_NONE)
                continue;
            ival *I = &R->iv[R->vreg_iv[o->id]];
            if (I->in_flight)
                continue;
            int read_at_end = 0;
            if (I->end % 2 == 0 && I->end / 2 < prog->ninstrs) {
                const wa_instr *last = &prog->instrs[I->end / 2];
                const wa_isa_info *li = wa_isa(last->op);
                for (unsigned j = 0; j < last->nops && !read_at_end; j++)
                    read_at_end = last->ops[j].kind == WA_OPND_VIRT && last->ops[j].id == o->id &&
                                  (wa_instr_role(last, li, j) & WA_ROLE_USE);
            }
            I->in_flight = !read_at_end;
        }
    }
}

static int cmp_release(const void *a, const void *b)
{
    const struct release *x = a, *y = b;
    return x->point < y->point ? -1 : x->point > y->point ? 1 : x->ival < y->ival ? -1 : x->ival > y->ival;
}

/* Components that die before their tuple: liveness gives, for registers
   written or read in pieces, the last point each component is live. */
static int find_releases(ra *R)
{
    const wa_liveness *L = R->live;
    /* without holes, no register is shared inside another value's hull */
    if (!L->comp_first || (R->opts.flags & WA_REGALLOC_NO_HOLES))
        return 0;
    for (unsigned pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < R->niv; i++) {
            const ival *I = &R->iv[i];
            unsigned first = L->comp_first[I->vreg];
            if (I->size < 2 || first == WA_NONE)
                continue;
            for (unsigned c = 0; c < I->size; c++) {
                unsigned e = L->comp_end[first + c]; /* 1 + last live point */
                if (e > I->end)
                    continue;
                if (e <= I->start)
                    e = I->start + 1; /* written at its start: held there */
                if (pass)
                    R->rel[I->cls][R->nrel[I->cls]++] = (struct release){ e, i, c };
                else
                    R->nrel[I->cls]++;
            }
        }
        for (unsigned c = 1; !pass && c <= 3; c++) {
            if (!R->nrel[c])
                continue;
            R->rel[c] = wa_tmp_alloc(R->ctx, R->nrel[c] * sizeof(struct release));
            if (!R->rel[c])
                return -1;
            R->nrel[c] = 0;
        }
    }
    for (unsigned c = 1; c <= 3; c++)
        if (R->nrel[c] > 1)
            qsort(R->rel[c], R->nrel[c], sizeof(struct release), cmp_release);
    return 0;
}

/* Soft clauses (H35): with XNACK possibly on, a run of two or more memory
   instructions of one kind is replayed after a fault, so none of them may write
   a register that one of them reads; the hazard pass otherwise breaks the run
   with s_nop. Per item: the first item of its run, when the run has two or more. */
static int find_clauses(ra *R)
{
    const wa_program *prog = R->prog;
    if (!wa_hz_soft_clauses(prog))
        return 0;
    R->clause_from = wa_tmp_alloc(R->ctx, ((size_t)prog->ninstrs + 1) * sizeof(unsigned));
    if (!R->clause_from)
        return -1;
    unsigned run = WA_NONE, kind = 0, len = 0;
    for (unsigned i = 0; i <= prog->ninstrs; i++) {
        unsigned k = i < prog->ninstrs ? wa_hz_clause_kind(wa_isa(prog->instrs[i].op)) : 0;
        if (i < prog->ninstrs && prog->instrs[i].op == WA_OP_COMMENT && run != WA_NONE) {
            R->clause_from[i] = WA_NONE;
            continue;
        }
        if (k && k == kind && run != WA_NONE) {
            len++;
        } else {
            /* close the previous run */
            for (unsigned j = run; run != WA_NONE && j < i; j++)
                R->clause_from[j] = len >= 2 && prog->instrs[j].op != WA_OP_COMMENT ? run : WA_NONE;
            run = k ? i : WA_NONE;
            len = k ? 1 : 0;
            kind = k;
        }
        if (i < prog->ninstrs && !k)
            R->clause_from[i] = WA_NONE;
    }
    return 0;
}

/* Register r held a value (an expired owner's, or a precolored one) somewhere
   in [from, to]. */
static int read_since(const pool *P, unsigned r, unsigned from, unsigned to)
{
    if (P->readpt[r] > from)
        return 1;
    if (bit_get(P->has_fixed, r))
        for (unsigned k = 0; k < P->fn[r]; k++)
            if (P->fseg[r][k].end >= from && P->fseg[r][k].start <= to)
                return 1;
    return 0;
}

/* `fix` plus every register the soft clause defining I has read so far. */
static void clause_fix(const ra *R, const pool *P, const ival *I, const uint64_t fix[4],
                       uint64_t out[4])
{
    memcpy(out, fix, 4 * sizeof(uint64_t));
    unsigned from = 2 * R->clause_from[I->start / 2];
    for (unsigned r = 0; r < P->limit; r++)
        if (read_since(P, r, from, I->start))
            bit_set(out, r);
}

/* A register of reg..reg+size-1 read inside the clause that defines I (by an
   owner that has expired since): writing it there would break the replay. */
static int clause_reads(const ra *R, const pool *P, const ival *I, unsigned reg, unsigned size)
{
    unsigned item = I->start / 2;
    if (!R->clause_from || item >= R->prog->ninstrs || R->clause_from[item] == WA_NONE)
        return 0;
    unsigned from = 2 * R->clause_from[item];
    for (unsigned r = reg; r < reg + size; r++)
        if (read_since(P, r, from, I->start))
            return 1;
    return 0;
}

static int assign(ra *R, pool *P, unsigned i, unsigned reg, const char *how)
{
    ival *I = &R->iv[i];
    I->cur = 0;
    I->active = 1;
    for (unsigned r = reg; r < reg + I->size; r++)
        if (own_add(R, r, P, i))
            return -1;
    if (heap_push(R, P, I->segs[0].end + 1, i))
        return -1;
    R->res->reg[I->vreg] = reg;
    if (I->in_flight)
        for (unsigned r = reg; r < reg + I->size; r++)
            if (P->pend[r] < I->end + PENDING_POINTS)
                P->pend[r] = I->end + PENDING_POINTS;
    if (reg + I->size > P->peak)
        P->peak = reg + I->size;
    if (R->log_alloc) {
        char where[32];
        reg_text(where, sizeof(where), I->cls, reg, I->size);
        wa_log(R->ctx, "[ALLOC] %s %%%c%u (%s, align=%u)", where, cls_letter(I->cls), I->vreg,
               I->size == 1 ? "single" : "range", I->align);
    }
    if (R->log_ra)
        wa_log(R->ctx, "[REGALLOC] %%%c%u x%u align %u, points %u..%u -> %c%u (%s)",
               cls_letter(I->cls), I->vreg, I->size, I->align, I->start, I->end, cls_letter(I->cls),
               reg, how);
    return 0;
}

/* Registers whose fixed (precolored) segments meet the interval. */
static void fixed_conflicts(const pool *P, const ival *I, uint64_t out[4])
{
    memset(out, 0, 4 * sizeof(uint64_t));
    for (unsigned w = 0; w < 4; w++) {
        uint64_t m = P->has_fixed[w];
        while (m) {
            unsigned r = (w << 6) + wa_ctz64(m);
            m &= m - 1;
            if (segs_overlap(P->fseg[r], P->fn[r], I->segs, I->nsegs))
                bit_set(out, r);
        }
    }
}

static int range_ok_static(const pool *P, const uint64_t fix[4], unsigned reg, unsigned size,
                           unsigned align)
{
    if (reg % align || reg + size > P->limit)
        return 0;
    for (unsigned r = reg; r < reg + size; r++)
        if (bit_get(P->blocked, r) || bit_get(fix, r))
            return 0;
    return 1;
}

/* 1. hints */
static unsigned try_hints(ra *R, pool *P, unsigned i, const uint64_t fix[4], int *tied)
{
    const ival *I = &R->iv[i];
    for (unsigned h = I->hint_head; h != WA_NONE; h = R->hint_next[h]) {
        const hint *H = &R->hints[h];
        unsigned other = R->iv[H->other].vreg;
        unsigned base = R->res->reg[other];
        if (base == WA_NONE || R->iv[H->other].cls != I->cls)
            continue;
        long q = (long)base + H->delta;
        if (q < 0 || !range_ok_static(P, fix, (unsigned)q, I->size, I->align))
            continue;
        int ok = 1;
        for (unsigned r = (unsigned)q; r < (unsigned)q + I->size && ok; r++) {
            for (unsigned n = P->head[r]; n != WA_NONE; n = R->own[n].next) {
                unsigned j = R->own[n].ival;
                const ival *J = &R->iv[j];
                int tie_ok = H->tie_point != WA_NONE && j == H->other &&
                             J->end == H->tie_point && I->start == H->tie_point;
                tie_ok |= H->win_lo != WA_NONE && j == H->other && J->end <= H->win_hi &&
                          I->start >= H->win_lo;
                int hole_ok = !(R->opts.flags & WA_REGALLOC_NO_HOLES) && !J->active &&
                              J->segs[J->cur].start > I->end;
                if (!tie_ok && !hole_ok) {
                    ok = 0;
                    break;
                }
            }
        }
        if (ok) {
            *tied = H->mfma;
            return (unsigned)q;
        }
    }
    return WA_NONE;
}

/* 2. best fit among free runs */
/* Placement policies:
   0 smallest free run that fits, lowest position in it;
   1 as 0, but a single register first looks for a slot whose aligned partner
     (r^1) is taken, and a pair for one whose partner pair (r^2) is, so small
     values pack into aligned blocks that free up whole;
   2 lowest position anywhere (first fit);
   3 as 1, with the remaining choices at the top of their run;
   4 tuples first: place every register of two or more (policy 1) ignoring the
     single ones, then allocate again with the tuples fixed where they landed and
     fit the single registers around them, each as low as it goes (policy 2).
     Linear scan cannot see a quad coming when it places a single just before
     it; this pass can. Singles placed low leave the registers above the tuples
     whole for the long-lived singles still to come.
   On the benchmark kernels (10 seeds x 8 kernels) the peak met the pressure bound
   in 79 of 80 with policy 4 alone (62 when its second pass used policy 1 too),
   26 with policy 1 alone, and 80 with 4 then 1. Allocation runs 4, and 1 only if
   4 misses the bound. */
#define NPOLICIES 2
#define POLICY_TUPLES_FIRST 4u
static const unsigned policy_order[NPOLICIES] = { POLICY_TUPLES_FIRST, 1 };

static unsigned best_fit(const pool *P, const ival *I, const uint64_t fix[4], unsigned policy,
                         int no_holes)
{
    uint64_t fr[4];
    for (unsigned w = 0; w < 4; w++) {
        fr[w] = ~(P->busy[w] | P->blocked[w] | fix[w]);
        if (no_holes)
            fr[w] &= ~P->has_inactive[w]; /* owners in a hole keep their registers */
        /* inactive owners must stay away until after this interval */
        uint64_t m = P->has_inactive[w] & fr[w];
        while (m) {
            unsigned r = (w << 6) + wa_ctz64(m);
            m &= m - 1;
            if (P->avail[r] <= I->end)
                bit_clear(fr, r);
        }
    }
    if ((policy == 1 || policy == 3) && (I->size == 1 || I->size == 2) && I->align <= I->size) {
        /* buddy packing: the lowest free aligned slot of this size whose partner
           (the other half of the aligned block twice its size) is taken, word by
           word: swapping neighbouring bits (pairs) lines each slot up with its
           partner */
        const uint64_t odd1 = 0x5555555555555555ull, odd2 = 0x3333333333333333ull;
        for (unsigned w = 0; w < 4; w++) {
            unsigned base = w << 6;
            if (base >= P->limit)
                break;
            uint64_t below = base + 64 <= P->peak ? ~0ull
                           : P->peak <= base ? 0 : (1ull << (P->peak - base)) - 1;
            uint64_t taken = ~fr[w] & below;
            uint64_t cand;
            if (I->size == 1) {
                uint64_t partner = ((taken >> 1) & odd1) | ((taken & odd1) << 1);
                cand = fr[w] & partner;
            } else {
                uint64_t pair_free = fr[w] & (fr[w] >> 1) & odd1;
                uint64_t pair_taken = (taken | (taken >> 1)) & odd1;
                uint64_t partner = ((pair_taken >> 2) & odd2) | ((pair_taken & odd2) << 2);
                cand = pair_free & partner;
            }
            /* slots must end inside the limit */
            unsigned room = P->limit - base; /* > 0 */
            if (room < 64 + I->size)
                cand &= room >= I->size ? (room - I->size + 1 >= 64 ? ~0ull : (1ull << (room - I->size + 1)) - 1) : 0;
            if (cand)
                return base + wa_ctz64(cand);
        }
    }
    unsigned best = WA_NONE, best_len = 0;
    for (unsigned p = 0; p < P->limit;) {
        unsigned rs = next_bit(fr, p, P->limit, 1);
        if (rs >= P->limit)
            break;
        unsigned re = next_bit(fr, rs, P->limit, 0);
        unsigned q = (rs + I->align - 1) / I->align * I->align;
        if (q + I->size <= re) {
            unsigned len = re == P->limit ? 0xFFFFFFFFu : re - rs;
            if (policy == 2)
                return q;
            if (best == WA_NONE || len < best_len) {
                int top = re != P->limit && policy == 3;
                best = top ? (re - I->size) / I->align * I->align : q;
                best_len = len;
            }
        }
        p = re;
    }
    return best;
}

/* 3. the lowest range below `limit` whose registers are free or whose every
   owner is in a lifetime hole for the whole new interval (exact segment test;
   with `no_holes`, free registers only). *in_hole tells whether an owner was
   there. */
static unsigned exact_fit(ra *R, pool *P, unsigned i, const uint64_t fix[4], unsigned limit,
                          int no_holes, int *in_hole)
{
    const ival *I = &R->iv[i];
    for (unsigned q = 0; q + I->size <= limit; q += I->align) {
        if (!range_ok_static(P, fix, q, I->size, I->align))
            continue;
        int ok = 1, owned = 0;
        for (unsigned r = q; r < q + I->size && ok; r++)
            for (unsigned n = P->head[r]; n != WA_NONE && ok; n = R->own[n].next) {
                const ival *J = &R->iv[R->own[n].ival];
                owned = 1;
                if (no_holes || segs_overlap(I->segs, I->nsegs, J->segs, J->nsegs))
                    ok = 0;
            }
        if (ok) {
            *in_hole = owned;
            return q;
        }
    }
    return WA_NONE;
}

/* ---- failure report ---------------------------------------------------------------------------- */

static wa_loc point_loc(const ra *R, unsigned point)
{
    unsigned item = point / 2;
    if (item >= R->prog->ninstrs)
        return WA_LOC_NONE;
    return wa_instr_loc(R->prog, &R->prog->instrs[item]);
}

static unsigned point_tag(const ra *R, unsigned point)
{
    unsigned item = point / 2;
    for (; item < R->prog->ninstrs; item++)
        if (R->prog->instrs[item].tag != WA_NO_TAG)
            return R->prog->instrs[item].tag;
    return WA_NO_TAG;
}

static int cmp_len_desc(const void *a, const void *b, const ra *R)
{
    const ival *x = &R->iv[*(const unsigned *)a], *y = &R->iv[*(const unsigned *)b];
    unsigned lx = x->end - x->start, ly = y->end - y->start;
    if (lx != ly)
        return lx > ly ? -1 : 1;
    return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

static wa_status report_failure(ra *R, pool *P, unsigned i, const uint64_t fix[4])
{
    const ival *I = &R->iv[i];
    char c = cls_letter(I->cls);
    static const char *const cname[4] = { "", "VGPR", "SGPR", "AGPR" };
    if (P->limit == 0) /* the class is limited to no registers at all */
        wa_error(R->ctx, WA_E_ALLOC, point_loc(R, I->start),
                 "cannot allocate %%%c%u (%s x%u, align %u, live from I%u to I%u): no %s may be "
                 "used (the limit is 0)",
                 c, I->vreg, cname[I->cls], I->size, I->align, point_tag(R, I->start),
                 point_tag(R, I->end), cname[I->cls]);
    else
        wa_error(R->ctx, WA_E_ALLOC, point_loc(R, I->start),
                 "cannot allocate %%%c%u (%s x%u, align %u, live from I%u to I%u): no free "
                 "aligned range in %c0..%c%u",
                 c, I->vreg, cname[I->cls], I->size, I->align, point_tag(R, I->start),
                 point_tag(R, I->end), c, c, P->limit - 1);
    /* overlapping values, longest first */
    unsigned *list = wa_mem_calloc(R->ctx, R->niv + 1, sizeof(unsigned));
    unsigned char *seen = wa_mem_calloc(R->ctx, R->niv + 1, 1);
    unsigned n = 0;
    if (list && seen) {
        for (unsigned r = 0; r < P->limit; r++)
            for (unsigned o = P->head[r]; o != WA_NONE; o = R->own[o].next) {
                unsigned j = R->own[o].ival;
                if (seen[j])
                    continue;
                seen[j] = 1;
                const ival *J = &R->iv[j];
                if (segs_overlap(I->segs, I->nsegs, J->segs, J->nsegs))
                    list[n++] = j;
            }
        /* sort by length, longest first (small lists: insertion sort) */
        for (unsigned a = 1; a < n; a++) {
            unsigned t = list[a], b = a;
            while (b > 0 && cmp_len_desc(&list[b - 1], &t, R) > 0) {
                list[b] = list[b - 1];
                b--;
            }
            list[b] = t;
        }
        /* the longest few say what holds the registers; hundreds would bury the
           summary that follows */
        unsigned shown = n > 16u ? 16u : n;
        for (unsigned k = 0; k < shown; k++) {
            const ival *J = &R->iv[list[k]];
            unsigned base = R->res->reg[J->vreg];
            char where[32];
            if (J->size == 1)
                snprintf(where, sizeof(where), "%c%u", c, base);
            else
                snprintf(where, sizeof(where), "%c[%u:%u]", c, base, base + J->size - 1);
            wa_note(R->ctx, point_loc(R, J->start),
                    "overlaps %%%c%u (x%u) in %s, live from I%u to I%u (%u points)", c, J->vreg,
                    J->size, where, point_tag(R, J->start), point_tag(R, J->end),
                    J->end - J->start + 1);
        }
        if (n > shown)
            wa_note(R->ctx, WA_LOC_NONE, "... and %u more overlapping values (shorter)", n - shown);
    }
    wa_mem_free(R->ctx, list);
    wa_mem_free(R->ctx, seen);
    for (unsigned r = 0; r < P->limit; r++)
        if (bit_get(fix, r))
            wa_note(R->ctx, WA_LOC_NONE, "overlaps precolored %c%u (used by the program)", c, r);
    /* pool state as ranges */
    wa_sb sb;
    wa_sb_init(&sb, R->ctx);
    wa_sb_printf(&sb, "%s pool at I%u (limit %u):", cname[I->cls], point_tag(R, I->start), P->limit);
    for (unsigned r = 0; r < P->limit;) {
        int kind = bit_get(P->blocked, r) ? 2 : bit_get(P->busy, r) ? 1 : bit_get(fix, r) ? 3 : 0;
        unsigned e = r + 1;
        while (e < P->limit) {
            int k2 = bit_get(P->blocked, e) ? 2 : bit_get(P->busy, e) ? 1 : bit_get(fix, e) ? 3 : 0;
            if (k2 != kind)
                break;
            e++;
        }
        static const char *const word[4] = { "free", "busy", "reserved", "precolored" };
        const char *sep = e < P->limit ? ";" : "";
        if (e - r == 1)
            wa_sb_printf(&sb, " %c%u %s%s", c, r, word[kind], sep);
        else
            wa_sb_printf(&sb, " %c%u-%c%u %s%s", c, r, c, e - 1, word[kind], sep);
        r = e;
    }
    if (!sb.failed && sb.data)
        wa_note(R->ctx, WA_LOC_NONE, "%s", sb.data);
    wa_sb_free(&sb);
    /* whether any allocation could fit: the class's pressure against the
       registers the limit and the reserved ones leave */
    unsigned at = WA_NONE, usable = 0;
    unsigned mp = wa_liveness_max_pressure(R->live, (wa_reg_class)I->cls, &at);
    for (unsigned r = 0; r < P->limit; r++)
        usable += !bit_get(P->blocked, r);
    if (at != WA_NONE && mp > usable)
        wa_note(R->ctx, point_loc(R, 2 * at),
                "%u %ss are live at once at I%u, more than the %u the limit leaves (no spilling: "
                "the kernel must keep fewer values live)",
                mp, cname[I->cls], point_tag(R, 2 * at), usable);
    else if (at != WA_NONE)
        wa_note(R->ctx, point_loc(R, 2 * at),
                "at most %u %ss are live at once (I%u), within the %u available: tuple alignment "
                "or fragmentation left no room",
                mp, cname[I->cls], point_tag(R, 2 * at), usable);
    return WA_E_ALLOC;
}

/* ---- setup -------------------------------------------------------------------------------------- */

static int add_hint(ra *R, unsigned a, unsigned other, int delta, unsigned tie_point, int mfma)
{
    if (WA_GROW(R->ctx, R->hints, R->caphints, R->nhints + 1))
        return -1;
    unsigned cap = R->caphints;
    unsigned *p = wa_mem_realloc(R->ctx, R->hint_next, (cap ? cap : 1) * sizeof(unsigned));
    if (!p)
        return -1;
    R->hint_next = p;
    unsigned h = R->nhints++;
    R->hints[h] = (hint){ other, delta, tie_point, mfma, WA_NONE, WA_NONE };
    R->hint_next[h] = R->iv[a].hint_head;
    R->iv[a].hint_head = h;
    return 0;
}

/* Tuples copied component by component (v_mov_b32 / v_accvgpr_mov_b32 of each
   element, as a lowering of a tuple copy writes them). Whole intervals overlap
   while the copies run, so a plain hint never holds; but when the destination
   is first written by these copies, each component once, all from one source
   at one offset, in one block, and the source is not written between the first
   copy and its own end, which comes no later than the last copy, each
   component holds the value it is copied from: the destination may take the
   source's registers from the first copy on, and the copies become moves of a
   register onto itself, which wa_regalloc_apply drops. */
static int collect_copy_ties(ra *R)
{
    const wa_program *prog = R->prog;
    unsigned nv = prog->nvregs;
    typedef struct cgrp {
        unsigned src, first, last, copies;
        unsigned other_def; /* first definition that is not such a copy */
        int delta, bad;
    } cgrp;
    cgrp *g = wa_tmp_calloc(R->ctx, nv + 1, sizeof(cgrp));
    if (!g)
        return -1;
    for (unsigned v = 0; v < nv; v++)
        g[v].src = g[v].other_def = WA_NONE;
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        for (unsigned k = 0; k < in->nops; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind != WA_OPND_VIRT || o->id >= nv || !(wa_instr_role(in, info, k) & WA_ROLE_DEF))
                continue;
            cgrp *G = &g[o->id];
            const wa_operand *s = k == 0 && in->nops >= 2 ? &in->ops[1] : NULL;
            if (!(info->flags & WA_IF_MOVE) || !s || s->kind != WA_OPND_VIRT || s->id == o->id ||
                s->reg_class != o->reg_class || s->count != o->count ||
                (in->mods.flags & (WA_MOD_DPP | WA_MOD_SDWA))) {
                if (G->other_def == WA_NONE)
                    G->other_def = i;
                continue;
            }
            int delta = (int)s->first - (int)o->first;
            if (G->src == WA_NONE) {
                G->src = s->id;
                G->delta = delta;
                G->first = i;
            } else if (G->src != s->id || G->delta != delta ||
                       R->live->cfg.item_block[i] != R->live->cfg.item_block[G->first]) {
                G->bad = 1;
            }
            G->last = i;
            G->copies += o->count;
        }
    }
    int rc = 0;
    for (unsigned v = 0; v < nv && !rc; v++) {
        cgrp *G = &g[v];
        /* each component copied once, and nothing else writes the destination
           before the last copy */
        if (G->bad || G->src == WA_NONE || G->copies != prog->vregs[v].size ||
            prog->vregs[v].size < 2 || (G->other_def != WA_NONE && G->other_def <= G->last))
            continue;
        unsigned a = R->vreg_iv[v], b = R->vreg_iv[G->src];
        if (a == WA_NONE || b == WA_NONE || R->iv[b].end > 2 * G->last)
            continue;
        /* the source keeps its value through the copies */
        int written = 0;
        for (unsigned i = G->first; i <= G->last && !written; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            for (unsigned k = 0; k < in->nops && !written; k++)
                written = in->ops[k].kind == WA_OPND_VIRT && in->ops[k].id == G->src &&
                          (wa_instr_role(in, info, k) & WA_ROLE_DEF);
        }
        if (written)
            continue;
        rc = add_hint(R, a, b, G->delta, WA_NONE, 0);
        if (!rc) {
            R->hints[R->nhints - 1].win_lo = 2 * G->first + 1;
            R->hints[R->nhints - 1].win_hi = 2 * G->last;
        }
    }
    wa_tmp_free(R->ctx, g);
    return rc;
}

static int collect_hints(ra *R)
{
    const wa_program *prog = R->prog;
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        const wa_operand *d, *s;
        unsigned tie = WA_NONE;
        int mfma = 0;
        if ((info->flags & WA_IF_MOVE) && !(R->opts.flags & WA_REGALLOC_NO_COALESCE)) {
            d = &in->ops[0];
            s = &in->ops[1];
        } else if ((info->flags & WA_IF_MFMA) && in->nops >= 4 &&
                   strcmp(info->operands[3].name, "srcC") == 0) { /* SMFMAC: vdst is C */
            d = &in->ops[0];
            s = &in->ops[3];
            /* An early-clobber vdst is defined at the use point and may take
               srcC's registers where srcC ends, unless srcA or srcB read that
               register too (vdst must not overlap them). Other MFMAs define vdst
               after the reads, like any instruction: a plain hint. */
            int ab_reads_c = s->kind == WA_OPND_VIRT &&
                             ((in->ops[1].kind == WA_OPND_VIRT && in->ops[1].id == s->id) ||
                              (in->ops[2].kind == WA_OPND_VIRT && in->ops[2].id == s->id));
            if (info->flags & WA_IF_EARLY_CLOBBER)
                tie = ab_reads_c ? WA_NONE : 2 * i;
            mfma = 1;
        } else {
            continue;
        }
        if (d->kind != WA_OPND_VIRT || s->kind != WA_OPND_VIRT || d->id == s->id ||
            d->reg_class != s->reg_class || d->count != s->count)
            continue;
        unsigned a = R->vreg_iv[d->id], b = R->vreg_iv[s->id];
        if (a == WA_NONE || b == WA_NONE)
            continue;
        int delta = (int)s->first - (int)d->first;
        if (add_hint(R, a, b, delta, tie, mfma) || add_hint(R, b, a, -delta, WA_NONE, mfma))
            return -1;
    }
    return (R->opts.flags & WA_REGALLOC_NO_COALESCE) ? 0 : collect_copy_ties(R);
}

static void setup_pool(ra *R, pool *P, unsigned cls)
{
    event *heap = P->heap;
    unsigned hcap = P->hcap;
    memset(P, 0, sizeof(*P));
    P->heap = heap;
    P->hcap = hcap;
    P->cls = cls;
    for (unsigned r = 0; r < NREG; r++) {
        P->head[r] = WA_NONE;
        P->avail[r] = WA_NONE;
    }
    const uint32_t *reserved = cls == WA_REG_VGPR ? R->opts.reserved_vgprs
                             : cls == WA_REG_SGPR ? R->opts.reserved_sgprs : R->opts.reserved_agprs;
    unsigned nbits = cls == WA_REG_SGPR ? 128u : 256u;
    P->limit = cls == WA_REG_VGPR ? R->opts.max_vgprs
             : cls == WA_REG_SGPR ? R->opts.max_sgprs : R->opts.max_agprs;
    for (unsigned r = 0; r < NREG; r++)
        if (r >= P->limit || (r < nbits && wa_reserved_bit(reserved, r)))
            bit_set(P->blocked, r);
    /* precolored registers: segments of the physical units */
    const wa_liveness *L = R->live;
    for (unsigned r = 0; r < nbits; r++) {
        unsigned n;
        const wa_live_segment *s = wa_live_key_segs(L, L->nvregs + wa_phys_unit((wa_reg_class)cls, r), &n);
        if (!n)
            continue;
        P->fseg[r] = s;
        P->fn[r] = n;
        bit_set(P->has_fixed, r);
        if (r + 1 > P->fixed_peak)
            P->fixed_peak = r + 1;
    }
}

static void ra_free(ra *R)
{
    wa_tmp_free(R->ctx, R->clause_from);
    R->clause_from = NULL;
    for (unsigned c = 0; c < 4; c++) {
        wa_tmp_free(R->ctx, R->rel[c]);
        R->rel[c] = NULL;
    }
    wa_tmp_free(R->ctx, R->iv);
    wa_tmp_free(R->ctx, R->vreg_iv);
    wa_mem_free(R->ctx, R->hints);
    wa_mem_free(R->ctx, R->hint_next);
    wa_mem_free(R->ctx, R->own);
    for (unsigned c = 0; c < 4; c++)
        wa_mem_free(R->ctx, R->pools[c].heap);
}

/* Reports virtual registers read before any definition. */
static wa_status check_entry(ra *R)
{
    unsigned n;
    const unsigned *v = wa_liveness_live_on_entry(R->live, &n);
    if (!n)
        return WA_OK;
    const wa_program *prog = R->prog;
    for (unsigned k = 0; k < n && k < 32; k++) {
        unsigned id = v[k];
        wa_loc loc = WA_LOC_NONE;
        for (unsigned i = 0; i < prog->ninstrs && loc.tag == WA_NO_TAG; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            for (unsigned j = 0; j < in->nops && j < info->num_operands; j++)
                if (in->ops[j].kind == WA_OPND_VIRT && in->ops[j].id == id &&
                    (wa_instr_role(in, info, j) & WA_ROLE_USE)) {
                    loc = wa_instr_loc(prog, in);
                    break;
                }
        }
        wa_error(R->ctx, WA_E_VALIDATE, loc,
                 "%%%c%u may be read before it is defined (it is live on entry to the kernel)",
                 cls_letter(prog->vregs[id].cls), id);
    }
    return WA_E_VALIDATE;
}

/* Tuples-first, pass B: registers where a tuple placed in pass A is live during
   the interval. Singles come in start order and a register's tuple segments are
   disjoint and sorted, so a cursor per register skips the ones already past. */
static void tuple_conflicts(ra *R, const ival *I, uint64_t out[4])
{
    const unsigned *off = R->occ_off[I->cls];
    unsigned *cur = R->occ_cur[I->cls];
    const wa_live_segment *occ = R->occ[I->cls];
    for (unsigned r = 0; r < R->occ_top[I->cls]; r++) {
        unsigned j = cur[r], e = off[r + 1];
        while (j < e && occ[j].end < I->start)
            j++;
        cur[r] = j;
        for (; j < e && occ[j].start <= I->end; j++)
            if ((R->opts.flags & WA_REGALLOC_NO_HOLES) ||
                seg_hit(I->segs, I->nsegs, occ[j].start, occ[j].end)) {
                bit_set(out, r);
                break;
            }
    }
}

static int cmp_start(const void *a, const void *b)
{
    const wa_live_segment *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static void occ_free(ra *R)
{
    wa_tmp_free(R->ctx, R->tuple_reg);
    R->tuple_reg = NULL;
    for (unsigned c = 1; c <= 3; c++) {
        wa_tmp_free(R->ctx, R->occ_off[c]);
        wa_tmp_free(R->ctx, R->occ[c]);
        wa_tmp_free(R->ctx, R->occ_cur[c]);
        R->occ_off[c] = NULL;
        R->occ[c] = NULL;
        R->occ_cur[c] = NULL;
    }
    R->tuples_fixed = 0;
}

static wa_status attempt(ra *R, const unsigned *order, unsigned policy, int report, int log);

/* Tuples-first: pass A places the tuples, pass B everything around them. */
static wa_status attempt_tuples_first(ra *R, const unsigned *order, int report, int log)
{
    wa_regalloc_result *res = R->res;
    R->tuple_reg = wa_tmp_alloc(R->ctx, (R->niv + 1) * sizeof(uint32_t));
    if (!R->tuple_reg)
        return WA_E_NOMEM;
    wa_status st = attempt(R, order, POLICY_TUPLES_FIRST, 0, 0); /* pass B logs */
    if (st) {
        occ_free(R);
        return st;
    }
    for (unsigned i = 0; i < R->niv; i++)
        R->tuple_reg[i] = R->iv[i].size > 1 ? res->reg[R->iv[i].vreg] : WA_NONE;
    for (unsigned c = 1; c <= 3; c++) {
        unsigned *off = wa_tmp_calloc(R->ctx, NREG + 2, sizeof(unsigned));
        R->occ_off[c] = off;
        if (!off) {
            occ_free(R);
            return WA_E_NOMEM;
        }
        /* with NO_HOLES a tuple occupies its whole hull */
        int hulls = (R->opts.flags & WA_REGALLOC_NO_HOLES) != 0;
        for (unsigned i = 0; i < R->niv; i++)
            if (R->iv[i].cls == c && R->tuple_reg[i] != WA_NONE)
                for (unsigned r = R->tuple_reg[i]; r < R->tuple_reg[i] + R->iv[i].size; r++)
                    off[r + 1] += hulls ? 1 : R->iv[i].nsegs;
        for (unsigned r = 0; r < NREG; r++)
            off[r + 1] += off[r];
        R->occ[c] = wa_tmp_alloc(R->ctx, (off[NREG] + 1) * sizeof(wa_live_segment));
        unsigned *fill = wa_tmp_calloc(R->ctx, NREG + 1, sizeof(unsigned));
        if (!R->occ[c] || !fill) {
            wa_tmp_free(R->ctx, fill);
            occ_free(R);
            return WA_E_NOMEM;
        }
        for (unsigned i = 0; i < R->niv; i++)
            if (R->iv[i].cls == c && R->tuple_reg[i] != WA_NONE)
                for (unsigned r = R->tuple_reg[i]; r < R->tuple_reg[i] + R->iv[i].size; r++) {
                    if (hulls) {
                        R->occ[c][off[r] + fill[r]++] = (wa_live_segment){ R->iv[i].start, R->iv[i].end };
                        continue;
                    }
                    for (unsigned k = 0; k < R->iv[i].nsegs; k++)
                        R->occ[c][off[r] + fill[r]++] = R->iv[i].segs[k];
                }
        for (unsigned r = 0; r < NREG; r++)
            qsort(R->occ[c] + off[r], off[r + 1] - off[r], sizeof(wa_live_segment), cmp_start);
        wa_tmp_free(R->ctx, fill);
        R->occ_cur[c] = wa_tmp_alloc(R->ctx, NREG * sizeof(unsigned));
        if (!R->occ_cur[c]) {
            occ_free(R);
            return WA_E_NOMEM;
        }
        R->occ_top[c] = 0;
        for (unsigned r = 0; r < NREG; r++) {
            R->occ_cur[c][r] = off[r];
            if (off[r + 1] > off[r])
                R->occ_top[c] = r + 1;
        }
    }
    /* pass A made the ties and coalescing of the tuples: keep its counts */
    unsigned tied[4], coalesced[4], holes[4];
    memcpy(tied, R->tied, sizeof(tied));
    memcpy(coalesced, R->coalesced, sizeof(coalesced));
    memcpy(holes, R->hole_fits, sizeof(holes));
    R->tuples_fixed = 1;
    st = attempt(R, order, POLICY_TUPLES_FIRST, report, log);
    for (unsigned c = 0; c < 4; c++) {
        R->tied[c] += tied[c];
        R->coalesced[c] += coalesced[c];
        R->hole_fits[c] += holes[c];
    }
    occ_free(R);
    return st;
}

/* One allocation pass over all intervals with a placement policy. With
   `report`, a failure records its diagnostic. */
static wa_status attempt(ra *R, const unsigned *order, unsigned policy, int report, int log)
{
    wa_regalloc_result *res = R->res;
    R->policy = policy;
    R->nown = 0;
    R->free_own = WA_NONE;
    memset(R->coalesced, 0, sizeof(R->coalesced));
    memset(R->tied, 0, sizeof(R->tied));
    memset(R->hole_fits, 0, sizeof(R->hole_fits));
    for (unsigned v = 0; v < res->nvregs; v++)
        res->reg[v] = WA_NONE;
    for (unsigned c = 1; c <= 3; c++)
        setup_pool(R, &R->pools[c], c);
    int log_ra = R->log_ra, log_alloc = R->log_alloc;
    if (!log) /* debug logs describe the first attempt only */
        R->log_ra = R->log_alloc = 0;
    wa_status st = WA_OK;
    for (unsigned k = 0; k < R->niv; k++) {
        unsigned i = order[k];
        ival *I = &R->iv[i];
        pool *P = &R->pools[I->cls];
        if (R->tuple_reg && !R->tuples_fixed && I->size == 1)
            continue; /* tuples-first, pass A: tuples only */
        if (advance(R, P, I->start)) {
            st = WA_E_NOMEM;
            break;
        }
        uint64_t fix[4];
        fixed_conflicts(P, I, fix);
        if (R->tuples_fixed && I->size > 1) {
            /* pass B: the tuple goes where pass A put it */
            unsigned reg = R->tuple_reg[i];
            int ok = range_ok_static(P, fix, reg, I->size, I->align);
            for (unsigned r = reg; ok && r < reg + I->size; r++)
                ok = !bit_get(P->busy, r);
            if (!ok) {
                st = WA_E_ALLOC;
                break;
            }
            if (assign(R, P, i, reg, "tuples first")) {
                st = WA_E_NOMEM;
                break;
            }
            continue;
        }
        if (R->tuples_fixed)
            tuple_conflicts(R, I, fix); /* pass B: singles keep off the tuples */
        int tied = 0;
        const char *how = "hint";
        unsigned reg = try_hints(R, P, i, fix, &tied);
        if (reg != WA_NONE && tied) {
            R->tied[I->cls]++;
            how = "tied to srcC";
        } else if (reg != WA_NONE) {
            R->coalesced[I->cls]++;
        }
        if (reg == WA_NONE) {
            /* tuples-first: pass A packs the tuples (1), pass B puts each single
               as low as it fits (2), keeping clear of the tuples' registers above */
            unsigned pol = policy != POLICY_TUPLES_FIRST ? policy : R->tuples_fixed ? 2u : 1u;
            reg = best_fit(P, I, fix, pol,
                           (R->opts.flags & WA_REGALLOC_NO_HOLES) != 0);
            how = "best fit";
            if (reg != WA_NONE && pending_at(P, reg, I->size, I->start)) {
                /* a register a load may still write would cost a wait before
                   this value's definition: take another one if that does not
                   raise the peak */
                uint64_t fix2[4];
                memcpy(fix2, fix, sizeof(fix2));
                for (unsigned r = 0; r < P->limit; r++)
                    if (P->pend[r] > I->start)
                        bit_set(fix2, r);
                unsigned alt = best_fit(P, I, fix2, pol,
                                        (R->opts.flags & WA_REGALLOC_NO_HOLES) != 0);
                unsigned top = reg + I->size > P->peak ? reg + I->size : P->peak;
                if (alt != WA_NONE && alt + I->size <= top) {
                    reg = alt;
                    how = "best fit, clear of pending loads";
                }
            }
            if (reg != WA_NONE && clause_reads(R, P, I, reg, I->size)) {
                /* a register the soft clause defining this value reads: take
                   another one if that does not raise the peak */
                uint64_t fix2[4];
                clause_fix(R, P, I, fix, fix2);
                unsigned alt = best_fit(P, I, fix2, pol,
                                        (R->opts.flags & WA_REGALLOC_NO_HOLES) != 0);
                unsigned top = reg + I->size > P->peak ? reg + I->size : P->peak;
                /* SGPRs bound the waves per SIMD only beyond 94 (100 with VCC,
                   FLAT_SCRATCH and XNACK_MASK): below, a higher one is free and
                   a broken clause costs an s_nop. VGPRs and AGPRs keep the peak
                   at the pressure. */
                if (alt != WA_NONE &&
                    (alt + I->size <= top || (I->cls == WA_REG_SGPR && alt + I->size <= 94))) {
                    reg = alt;
                    how = "best fit, clear of its soft clause's reads";
                }
            }
        }
        /* Before growing the peak (or failing), look below it for free registers or
           ones whose owners are all in a lifetime hole for this whole interval. */
        if (reg == WA_NONE || reg + I->size > P->peak) {
            unsigned lim = reg == WA_NONE ? P->limit : P->peak;
            int in_hole = 0;
            unsigned h = exact_fit(R, P, i, fix, lim, (R->opts.flags & WA_REGALLOC_NO_HOLES) != 0,
                                   &in_hole);
            if (h != WA_NONE && clause_reads(R, P, I, h, I->size)) {
                /* as above: clear of the soft clause's reads where possible */
                uint64_t fix2[4];
                clause_fix(R, P, I, fix, fix2);
                int in_hole2 = 0;
                unsigned h2 = exact_fit(R, P, i, fix2, lim,
                                        (R->opts.flags & WA_REGALLOC_NO_HOLES) != 0, &in_hole2);
                if (h2 != WA_NONE) {
                    h = h2;
                    in_hole = in_hole2;
                } else if (reg != WA_NONE && !clause_reads(R, P, I, reg, I->size)) {
                    h = WA_NONE; /* the best fit above the peak is clear of it */
                }
            }
            if (h != WA_NONE) {
                reg = h;
                how = in_hole ? "lifetime hole" : "below the peak";
            }
        }
        if (reg != WA_NONE) {
            /* registers still owned by a value in its lifetime hole: a hole fit (an
               active owner here can only be the tied srcC) */
            int hole = 0;
            for (unsigned r = reg; r < reg + I->size && !hole; r++)
                for (unsigned n = P->head[r]; n != WA_NONE; n = R->own[n].next)
                    if (!R->iv[R->own[n].ival].active)
                        hole = 1;
            R->hole_fits[I->cls] += (unsigned)hole;
        }
        if (reg == WA_NONE) {
            st = report ? report_failure(R, P, i, fix) : WA_E_ALLOC;
            break;
        }
        if (assign(R, P, i, reg, how)) {
            st = WA_E_NOMEM;
            break;
        }
    }
    /* release what is still allocated, so every allocation has its free event */
    for (unsigned c = 1; c <= 3 && st == WA_OK; c++)
        if (advance(R, &R->pools[c], WA_NONE))
            st = WA_E_NOMEM;
    R->log_ra = log_ra;
    R->log_alloc = log_alloc;
    return st;
}

wa_status wa_regalloc_run(wa_regalloc_result **out, const wa_program *prog,
                          const wa_regalloc_options *opts)
{
    if (!out || !prog)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    ra R;
    memset(&R, 0, sizeof(R));
    R.prog = prog;
    R.ctx = ctx;
    R.free_own = WA_NONE;
    wa_status st = wa_regalloc_options_check(&R.opts, ctx, opts);
    if (st)
        return st;
    R.log_ra = (ctx->debug & WA_DEBUG_REGALLOC) != 0;
    R.log_alloc = (ctx->debug & WA_DEBUG_ALLOC) != 0;

    wa_liveness *live = NULL; /* owned here only when computed here */
    if (R.opts.liveness) {
        const wa_liveness *given = R.opts.liveness;
        if (given->nitems != prog->ninstrs || given->nvregs != prog->nvregs || given->ctx != ctx)
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                            "the liveness passed in the options was not computed from this program");
        R.live = given;
    } else {
        st = wa_liveness_compute(&live, prog, NULL);
        if (st)
            return st;
        R.live = live;
    }
    if ((st = check_entry(&R)) != WA_OK) {
        wa_liveness_destroy(live);
        return st;
    }

    wa_regalloc_result *res = wa_regalloc_result_new(prog);
    if (!res)
        goto nomem;
    R.res = res;
    R.vreg_iv = wa_tmp_calloc(ctx, prog->nvregs + 1, sizeof(unsigned));
    R.iv = wa_tmp_calloc(ctx, prog->nvregs + 1, sizeof(ival));
    if (!R.vreg_iv || !R.iv)
        goto nomem;

    /* intervals */
    for (unsigned v = 0; v < prog->nvregs; v++) {
        R.vreg_iv[v] = WA_NONE;
        unsigned n;
        const wa_live_segment *s = wa_live_key_segs(R.live, v, &n);
        if (!n || prog->vregs[v].cls == WA_REG_NONE)
            continue;
        ival *I = &R.iv[R.niv];
        I->vreg = v;
        I->cls = prog->vregs[v].cls;
        I->size = prog->vregs[v].size;
        I->align = wa_regalloc_align(prog->target, (wa_reg_class)I->cls, I->size, prog->vregs[v].align);
        I->segs = s;
        I->nsegs = n;
        I->start = s[0].start;
        I->end = s[n - 1].end;
        I->hint_head = WA_NONE;
        R.vreg_iv[v] = R.niv++;
    }
    mark_in_flight(&R);
    if (find_clauses(&R) || find_releases(&R) || collect_hints(&R))
        goto nomem;

    /* order: start point (counting sort), larger first on ties, then id */
    unsigned npts = 2 * prog->ninstrs + 2;
    unsigned *cnt = wa_tmp_calloc(ctx, npts + 1, sizeof(unsigned));
    unsigned *order = wa_tmp_calloc(ctx, R.niv + 1, sizeof(unsigned));
    if (!cnt || !order) {
        wa_tmp_free(ctx, cnt);
        wa_tmp_free(ctx, order);
        goto nomem;
    }
    for (unsigned i = 0; i < R.niv; i++)
        cnt[R.iv[i].start + 1]++;
    for (unsigned p = 0; p < npts; p++)
        cnt[p + 1] += cnt[p];
    for (unsigned i = 0; i < R.niv; i++)
        order[cnt[R.iv[i].start]++] = i;
    /* within one start point: larger registers first (stable otherwise) */
    for (unsigned a = 1; a < R.niv; a++) {
        unsigned t = order[a], b = a;
        while (b > 0 && R.iv[order[b - 1]].start == R.iv[t].start &&
               R.iv[order[b - 1]].size < R.iv[t].size) {
            order[b] = order[b - 1];
            b--;
        }
        order[b] = t;
    }
    wa_tmp_free(ctx, cnt);

    /* The program's own physical registers must fit the limits too. */
    for (unsigned c = 1; c <= 3; c++) {
        setup_pool(&R, &R.pools[c], c);
        const pool *P = &R.pools[c];
        if (P->fixed_peak > P->limit) {
            static const char *const cname[4] = { "", "VGPR", "SGPR", "AGPR" };
            unsigned r = P->fixed_peak - 1;
            wa_loc loc = WA_LOC_NONE;
            for (unsigned i = 0; i < prog->ninstrs && loc.tag == WA_NO_TAG; i++)
                for (unsigned k = 0; k < prog->instrs[i].nops; k++) {
                    const wa_operand *o = &prog->instrs[i].ops[k];
                    if (o->kind == WA_OPND_PHYS && o->reg_class == c && o->id <= r &&
                        r < o->id + o->count) {
                        loc = wa_instr_loc(prog, &prog->instrs[i]);
                        break;
                    }
                }
            st = wa_error(ctx, WA_E_ALLOC, loc,
                          "the program itself uses %c%u, beyond the %s limit of %u registers",
                          cls_letter(c), r, cname[c], P->limit);
        }
    }
    if (st) {
        wa_tmp_free(ctx, order);
        wa_regalloc_destroy(res);
        ra_free(&R);
        wa_liveness_destroy(live);
        return st;
    }

    /* Attempts with the placement policies; per class the lowest peak wins. */
    unsigned pressure[4] = { 0, wa_liveness_max_pressure(R.live, WA_REG_VGPR, NULL),
                             wa_liveness_max_pressure(R.live, WA_REG_SGPR, NULL),
                             wa_liveness_max_pressure(R.live, WA_REG_AGPR, NULL) };
    unsigned best_peak[4] = { 0, WA_NONE, WA_NONE, WA_NONE };
    unsigned res_class_stats[4][3];
    memset(res_class_stats, 0, sizeof(res_class_stats));
    uint32_t *best_reg = wa_tmp_alloc(ctx, (prog->nvregs + 1) * sizeof(uint32_t));
    if (!best_reg) {
        wa_tmp_free(ctx, order);
        goto nomem;
    }
    for (unsigned v = 0; v <= prog->nvregs; v++)
        best_reg[v] = WA_NONE;
    wa_status first_st = WA_OK;
    for (unsigned pi = 0; pi < NPOLICIES; pi++) {
        unsigned policy = policy_order[pi];
        int done = 1;
        for (unsigned c = 1; c <= 3; c++)
            done &= best_peak[c] != WA_NONE && best_peak[c] <= pressure[c];
        if (done)
            break;
        st = policy == POLICY_TUPLES_FIRST ? attempt_tuples_first(&R, order, 0, pi == 0)
                                           : attempt(&R, order, policy, 0, pi == 0);
        if (st == WA_E_NOMEM) {
            wa_tmp_free(ctx, best_reg);
            wa_tmp_free(ctx, order);
            goto nomem;
        }
        if (pi == 0)
            first_st = st;
        if (st)
            continue;
        for (unsigned c = 1; c <= 3; c++) {
            unsigned peak = R.pools[c].peak > R.pools[c].fixed_peak ? R.pools[c].peak : R.pools[c].fixed_peak;
            if (best_peak[c] != WA_NONE && peak >= best_peak[c])
                continue;
            best_peak[c] = peak;
            for (unsigned v = 0; v < prog->nvregs; v++)
                if (res->cls[v] == c)
                    best_reg[v] = res->reg[v];
            if (c == WA_REG_VGPR) res->stats.peak_vgprs = peak;
            if (c == WA_REG_SGPR) res->stats.peak_sgprs = peak;
            if (c == WA_REG_AGPR) res->stats.peak_agprs = peak;
            /* statistics of the winning attempt for this class */
            res_class_stats[c][0] = R.coalesced[c];
            res_class_stats[c][1] = R.tied[c];
            res_class_stats[c][2] = R.hole_fits[c];
        }
    }
    st = best_peak[1] == WA_NONE ? first_st : WA_OK;
    if (st == WA_E_ALLOC) {
        /* no attempt fitted: describe the conflict as the plain scan meets it */
        st = attempt(&R, order, 1, 1, 0);
        if (st == WA_OK)
            st = WA_E_INTERNAL; /* a plain attempt cannot succeed where 1 failed */
    }
    if (st == WA_OK) {
        if (first_st)
            wa_diag_reset(ctx); /* a later policy succeeded where the first failed */
        for (unsigned v = 0; v < prog->nvregs; v++)
            res->reg[v] = best_reg[v];
        for (unsigned c = 1; c <= 3; c++) {
            res->stats.coalesced += res_class_stats[c][0];
            res->stats.tied += res_class_stats[c][1];
            res->stats.hole_fits += res_class_stats[c][2];
        }
    }
    wa_tmp_free(ctx, best_reg);
    wa_tmp_free(ctx, order);
    if (st) {
        wa_regalloc_destroy(res);
        ra_free(&R);
        wa_liveness_destroy(live);
        return st;
    }
    res->stats.version = WA_REGALLOC_STATS_VERSION;
    res->stats.intervals = R.niv;
    unsigned peaks[4] = { 0, res->stats.peak_vgprs, res->stats.peak_sgprs, res->stats.peak_agprs };
    res->stats.max_pressure_vgpr = wa_liveness_max_pressure(R.live, WA_REG_VGPR, NULL);
    res->stats.max_pressure_sgpr = wa_liveness_max_pressure(R.live, WA_REG_SGPR, NULL);
    res->stats.max_pressure_agpr = wa_liveness_max_pressure(R.live, WA_REG_AGPR, NULL);
    if (R.log_ra)
        wa_log(ctx, "[REGALLOC] %u intervals; peak v%u s%u a%u; max pressure v%u s%u a%u; %u coalesced, %u tied, %u hole fits",
               R.niv, peaks[1], peaks[2], peaks[3], res->stats.max_pressure_vgpr,
               res->stats.max_pressure_sgpr, res->stats.max_pressure_agpr, res->stats.coalesced,
               res->stats.tied, res->stats.hole_fits);
    ra_free(&R);
    wa_liveness_destroy(live);
    if (R.opts.flags & WA_REGALLOC_CHECK) {
        st = wa_regalloc_check(NULL, prog, res, &R.opts);
        if (st) {
            wa_regalloc_destroy(res);
            return st;
        }
    }
    *out = res;
    return WA_OK;
nomem:
    wa_regalloc_destroy(res);
    ra_free(&R);
    wa_liveness_destroy(live);
    return wa_error_nomem(ctx);
}
