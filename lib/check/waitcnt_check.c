/* lib/check/waitcnt_check.c — independent s_waitcnt checker.

   Written apart from the pass (lib/passes/waitcnt.c) on purpose: the pass keeps
   a score per register; this checker keeps the memory operations themselves.
   Its dataflow state at a program point is the set of memory instructions (by
   item index) that may still be in flight there, each with the minimum over all
   paths of the number of younger operations that complete after it:

     vector memory (WA_CNT_VM)   every younger vector memory operation (one
                                 in-order queue: loads, stores, atomics, DMA);
     LDS (lgkm, DS format)       younger DS operations only: scalar loads share
                                 the counter but complete in any order;
     scalar memory (other lgkm)  no count: only lgkmcnt(0) retires it.

   `s_waitcnt vmcnt(N)` retires a vector operation with at least N younger ones;
   `lgkmcnt(N)` a DS operation with at least N younger DS operations (at most N
   lgkm operations remain and DS ones leave in order), and scalar ones when N is
   0. A field at its maximum (vmcnt 63, lgkmcnt 15) retires nothing: a
   saturated counter reads the maximum whatever is outstanding. Counts are
   capped at the maximum (anything beyond is retired by every other wait).

   Inside a block each register unit (and five pseudo units: the LDS written
   by DMA, vector stores and atomics, LDS operations, scalar memory operations,
   scalar stores and atomics) has a chain of the
   operations that may still write it. A newer operation of the same in-order
   queue that writes the unit replaces the older ones in its chain (it lands
   after them, so waiting for it waits for them). Operations no chain refers to
   are dropped from the state. Joins take the union of the operations with the
   minimum count; loops iterate to a fixed point in reverse post-order.

   Reported (one error per violation, at the consumer):
     a read of a unit an in-flight operation writes (RAW);
     a write of such a unit (WAW), unless the writer is a load of the same
       in-order queue (vector after vector, DS after DS);
     a DS instruction while an LDS-DMA may be in flight;
     one memory through two queues out of program order: a scalar load while
       a vector store or atomic may be in flight, a vector store or atomic
       while a scalar load may be, an LDS-DMA while a DS operation may be;
       and since scalar memory completes in any order, any memory access while
       a scalar store or atomic may be in flight, and a scalar store or atomic
       while a scalar load may be;
     s_barrier with LDS operations (and LDS-DMA) in flight, and with
       WA_WAITCNT_BARRIER_VMEM vector stores and atomics too (none with
       WA_WAITCNT_NO_BARRIER);
     an s_waitcnt field above the target's maximum.
   After a report the operations involved count as retired, so one missing wait
   is reported once. Unreachable blocks are not checked. */
#include "../passes/pass_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { QVM = 0, QDS = 1, QSM = 2, QNONE = 3 };
enum { PSEUDO_DMA = 0, PSEUDO_STORE = 1, PSEUDO_LDS = 2, PSEUDO_SMEM = 3, PSEUDO_SSTORE = 4, NPSEUDO = 5 };

#define BASE 1000u /* sequence numbers of operations carried into a block sit below */

typedef struct op_rec {
    unsigned item;
    unsigned q;        /* QVM, QDS, QSM */
    uint32_t seq;      /* position in its queue (scalar: epoch) */
    unsigned refs;     /* chain links that point at it */
    int dead;          /* reported: counts as retired */
} op_rec;

typedef struct link {
    unsigned rec, next;
} link;

typedef struct pend {
    unsigned item;
    unsigned y;        /* younger operations in its queue (minimum over paths) */
} pend;

typedef struct blk {
    pend *p;
    unsigned n;
    int seen;
} blk;

typedef struct C {
    const wa_program *prog;
    wa_context *ctx;
    wa_cfg cfg;
    wa_unit_map map;
    unsigned flags;
    unsigned max_vm, max_lgkm;
    int report;
    unsigned errors;
    /* per block run */
    op_rec *recs;
    unsigned nrecs, caprecs;
    link *links;
    unsigned nlinks, caplinks;
    unsigned *head;    /* per unit (+ pseudo units): first link, valid when hrun == run */
    uint32_t *hrun;
    unsigned *recof;   /* per item: record, valid when rrun == run */
    uint32_t *rrun;
    uint32_t run;
    uint32_t cnt[2], thr[2]; /* vm and DS queues: issued and retired bounds */
    uint32_t sm_cnt, sm_thr;
    /* block states */
    blk *bs;
    pend *scratch;
    unsigned capscratch;
} C;

#define NONE_LINK 0xFFFFFFFFu

static unsigned op_queue(const wa_isa_info *info)
{
    if (info->counters & WA_CNT_VM)
        return QVM;
    if (info->counters & WA_CNT_LGKM)
        return info->format == WA_FMT_DS ? QDS : QSM;
    return QNONE;
}

/* Register units of an operand, into out[] (at most max). */
static unsigned units_of(const C *c, const wa_operand *o, unsigned *out, unsigned max)
{
    if (o->kind == WA_OPND_VIRT && o->id >= c->prog->nvregs)
        return 0;
    unsigned n = wa_unit_map_operand(&c->map, o, out, max), k = 0;
    /* physical numbers past their file (rejected by the validator) name nothing */
    unsigned lim = o->reg_class == WA_REG_SGPR ? WA_UNITS - WA_UNIT_SGPR : 256u;
    for (unsigned j = 0; j < n; j++)
        if (out[j] < c->map.count && (o->kind != WA_OPND_PHYS || o->id + j < lim))
            out[k++] = out[j];
    return k;
}

static int is_def(const wa_instr *in, const wa_isa_info *info, unsigned k)
{
    return k < info->num_operands && (wa_instr_role(in, info, k) & WA_ROLE_DEF) != 0;
}

static int is_use(const wa_instr *in, const wa_isa_info *info, unsigned k)
{
    return k < info->num_operands && (wa_instr_role(in, info, k) & WA_ROLE_USE) != 0;
}

static int pending(const C *c, const op_rec *r)
{
    if (r->dead)
        return 0;
    if (r->q == QSM)
        return r->seq > c->sm_thr;
    return r->seq > c->thr[r->q];
}

/* Younger operations of r's queue, capped at the field maximum. */
static unsigned younger(const C *c, const op_rec *r)
{
    if (r->q == QSM)
        return 0;
    uint32_t y = c->cnt[r->q] - r->seq;
    unsigned cap = r->q == QVM ? c->max_vm : c->max_lgkm;
    return y < cap ? y : cap;
}

/* The wait that retires r, as text. */
static void wait_text(const C *c, const op_rec *r, char *buf, size_t n)
{
    unsigned y = younger(c, r);
    if (r->q == QVM)
        snprintf(buf, n, "s_waitcnt vmcnt(%u)", y < c->max_vm ? y : c->max_vm - 1);
    else
        snprintf(buf, n, "s_waitcnt lgkmcnt(%u)", y < c->max_lgkm ? y : c->max_lgkm - 1);
}

/* ---- chains ---------------------------------------------------------------------------- */

static unsigned chain_head(const C *c, unsigned u)
{
    return c->hrun[u] == c->run ? c->head[u] : NONE_LINK;
}

static int chain_push(C *c, unsigned u, unsigned rec)
{
    if (WA_GROW(c->ctx, c->links, c->caplinks, c->nlinks + 1))
        return -1;
    c->links[c->nlinks].rec = rec;
    c->links[c->nlinks].next = chain_head(c, u);
    c->head[u] = c->nlinks++;
    c->hrun[u] = c->run;
    c->recs[rec].refs++;
    return 0;
}

static void chain_clear(C *c, unsigned u)
{
    for (unsigned l = chain_head(c, u); l != NONE_LINK; l = c->links[l].next)
        c->recs[c->links[l].rec].refs--;
    c->hrun[u] = c->run;
    c->head[u] = NONE_LINK;
}

/* Drops links to operations that are no longer in flight. */
static void chain_prune(C *c, unsigned u)
{
    unsigned *prev = NULL;
    if (c->hrun[u] != c->run)
        return;
    prev = &c->head[u];
    while (*prev != NONE_LINK) {
        link *l = &c->links[*prev];
        if (!pending(c, &c->recs[l->rec])) {
            c->recs[l->rec].refs--;
            *prev = l->next;
        } else {
            prev = &l->next;
        }
    }
}

/* ---- records ------------------------------------------------------------------------- */

static int rec_get(C *c, unsigned item, unsigned q, unsigned *out)
{
    if (c->rrun[item] == c->run) {
        *out = c->recof[item];
        return 0;
    }
    if (WA_GROW(c->ctx, c->recs, c->caprecs, c->nrecs + 1))
        return -1;
    op_rec *r = &c->recs[c->nrecs];
    memset(r, 0, sizeof(*r));
    r->item = item;
    r->q = q;
    c->rrun[item] = c->run;
    c->recof[item] = c->nrecs;
    *out = c->nrecs++;
    return 0;
}

/* Links record `rec` (instruction `in`) to the units it writes and to its
   pseudo units; with `replace`, older writers of those units are dropped first
   (an operation being issued: it lands after them). */
static int link_writes(C *c, unsigned rec, const wa_instr *in, int replace)
{
    const wa_isa_info *info = wa_isa(in->op);
    unsigned u[64];
    for (unsigned k = 0; k < in->nops; k++) {
        if (!is_def(in, info, k))
            continue;
        unsigned n = units_of(c, &in->ops[k], u, 64);
        for (unsigned j = 0; j < n; j++) {
            if (replace)
                chain_clear(c, u[j]);
            if (chain_push(c, u[j], rec))
                return -1;
        }
    }
    static const unsigned impl[4] = { WA_IMPL_SCC, WA_IMPL_VCC, WA_IMPL_EXEC, WA_IMPL_M0 };
    for (unsigned f = 0; f < 4; f++) {
        if (!(info->implicit_defs & impl[f]))
            continue;
        unsigned n = wa_unit_map_implicit(impl[f], u);
        for (unsigned j = 0; j < n; j++) {
            if (replace)
                chain_clear(c, u[j]);
            if (chain_push(c, u[j], rec))
                return -1;
        }
    }
    unsigned q = c->recs[rec].q;
    unsigned pseudo[NPSEUDO], np = 0;
    if (info->flags & WA_IF_LDS_DMA)
        pseudo[np++] = PSEUDO_DMA;
    if (q == QVM && (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)))
        pseudo[np++] = PSEUDO_STORE;
    if (q == QDS)
        pseudo[np++] = PSEUDO_LDS;
    if (q == QSM)
        pseudo[np++] = PSEUDO_SMEM;
    if (q == QSM && (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)))
        pseudo[np++] = PSEUDO_SSTORE;
    for (unsigned j = 0; j < np; j++) {
        unsigned pu = c->map.count + pseudo[j];
        if (replace)
            chain_clear(c, pu);
        if (chain_push(c, pu, rec))
            return -1;
    }
    return 0;
}

/* ---- reporting ----------------------------------------------------------------------- */

static const char *mnem(const C *c, unsigned item)
{
    return wa_isa_mnemonic(c->prog->instrs[item].op, c->prog->target);
}

static unsigned tag_of(const C *c, unsigned item)
{
    return (unsigned)c->prog->instrs[item].tag;
}

/* Collects the in-flight writers of units[0..n) whose queue is not `allowed`
   (QNONE: none allowed); per queue the youngest is reported, all count as
   retired afterwards. `what` is "reads" or "overwrites". */
static void check_units(C *c, unsigned item, const unsigned *units, unsigned n, unsigned allowed,
                        const char *what)
{
    unsigned best[3] = { NONE_LINK, NONE_LINK, NONE_LINK }, best_unit[3] = { 0, 0, 0 };
    int any = 0;
    for (unsigned j = 0; j < n; j++) {
        chain_prune(c, units[j]);
        for (unsigned l = chain_head(c, units[j]); l != NONE_LINK; l = c->links[l].next) {
            op_rec *r = &c->recs[c->links[l].rec];
            if (r->q == allowed)
                continue;
            any = 1;
            if (best[r->q] == NONE_LINK || c->recs[best[r->q]].seq < r->seq) {
                best[r->q] = c->links[l].rec;
                best_unit[r->q] = units[j];
            }
        }
    }
    if (!any)
        return;
    for (unsigned q = 0; q < 3; q++) {
        if (best[q] == NONE_LINK)
            continue;
        const op_rec *r = &c->recs[best[q]];
        if (c->report) {
            char name[48], wait[48];
            wa_unit_name(name, sizeof(name), &c->map, c->prog, best_unit[q]);
            wait_text(c, r, wait, sizeof(wait));
            wa_error(c->ctx, WA_E_VALIDATE, wa_instr_loc(c->prog, &c->prog->instrs[item]),
                     "%s %s while %s @I%u, which writes it, may still be in flight: needs %s",
                     what, name, mnem(c, r->item), tag_of(c, r->item), wait);
        }
        c->errors++;
    }
    /* retire what was reported */
    for (unsigned j = 0; j < n; j++)
        for (unsigned l = chain_head(c, units[j]); l != NONE_LINK; l = c->links[l].next) {
            op_rec *r = &c->recs[c->links[l].rec];
            if (r->q != allowed)
                r->dead = 1;
        }
}

/* The youngest in-flight operation on pseudo unit `p`; reports it as
   "<subject> while <producer> @I<n> <tail>: needs <wait>". */
static void check_pseudo(C *c, unsigned item, unsigned p, const char *subject, const char *tail)
{
    unsigned pu = c->map.count + p, best = NONE_LINK;
    chain_prune(c, pu);
    for (unsigned l = chain_head(c, pu); l != NONE_LINK; l = c->links[l].next) {
        unsigned rec = c->links[l].rec;
        if (best == NONE_LINK || c->recs[rec].seq > c->recs[best].seq)
            best = rec;
    }
    if (best == NONE_LINK)
        return;
    if (c->report) {
        char wait[48];
        wait_text(c, &c->recs[best], wait, sizeof(wait));
        wa_error(c->ctx, WA_E_VALIDATE, wa_instr_loc(c->prog, &c->prog->instrs[item]),
                 "%s while %s @I%u %s: needs %s", subject, mnem(c, c->recs[best].item),
                 tag_of(c, c->recs[best].item), tail, wait);
    }
    c->errors++;
    for (unsigned l = chain_head(c, pu); l != NONE_LINK; l = c->links[l].next)
        c->recs[c->links[l].rec].dead = 1;
}

/* ---- one block ----------------------------------------------------------------------- */

static wa_status enter(C *c, const blk *b)
{
    c->run++;
    c->nrecs = c->nlinks = 0;
    c->cnt[QVM] = c->cnt[QDS] = BASE;
    c->thr[QVM] = c->thr[QDS] = 0;
    c->sm_cnt = 1;
    c->sm_thr = 0;
    for (unsigned k = 0; k < b->n; k++) {
        const wa_instr *in = &c->prog->instrs[b->p[k].item];
        unsigned q = op_queue(wa_isa(in->op)), rec;
        if (q == QNONE || rec_get(c, b->p[k].item, q, &rec))
            return q == QNONE ? WA_E_INTERNAL : wa_error_nomem(c->ctx);
        c->recs[rec].seq = q == QSM ? 1u : BASE - b->p[k].y;
        if (link_writes(c, rec, in, 0))
            return wa_error_nomem(c->ctx);
    }
    return WA_OK;
}

static void apply_wait(C *c, const wa_instr *in, unsigned item)
{
    int vm = in->mods.vmcnt, lgkm = in->mods.lgkmcnt;
    if (c->report && ((vm >= 0 && (unsigned)vm > c->max_vm) ||
                      (lgkm >= 0 && (unsigned)lgkm > c->max_lgkm)))
        wa_error(c->ctx, WA_E_VALIDATE, wa_instr_loc(c->prog, in),
                 "s_waitcnt field above its maximum on %s (vmcnt %u, lgkmcnt %u)",
                 wa_target_name(c->prog->target), c->max_vm, c->max_lgkm);
    if ((vm >= 0 && (unsigned)vm > c->max_vm) || (lgkm >= 0 && (unsigned)lgkm > c->max_lgkm))
        c->errors++;
    (void)item;
    if (vm >= 0 && (unsigned)vm < c->max_vm && c->cnt[QVM] - (uint32_t)vm > c->thr[QVM])
        c->thr[QVM] = c->cnt[QVM] - (uint32_t)vm;
    if (lgkm >= 0 && (unsigned)lgkm < c->max_lgkm) {
        if (c->cnt[QDS] - (uint32_t)lgkm > c->thr[QDS])
            c->thr[QDS] = c->cnt[QDS] - (uint32_t)lgkm;
        if (lgkm == 0)
            c->sm_thr = c->sm_cnt;
    }
}

static wa_status run(C *c, unsigned b)
{
    const wa_program *prog = c->prog;
    wa_status st = enter(c, &c->bs[b]);
    if (st)
        return st;
    unsigned u[64];
    static const unsigned impl[4] = { WA_IMPL_SCC, WA_IMPL_VCC, WA_IMPL_EXEC, WA_IMPL_M0 };
    for (unsigned i = c->cfg.first[b]; i <= c->cfg.last[b]; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        if (info->flags & WA_IF_WAITCNT) {
            apply_wait(c, in, i);
            continue;
        }
        unsigned q = op_queue(info);
        for (unsigned k = 0; k < in->nops; k++) {
            if (!is_use(in, info, k))
                continue;
            unsigned n = units_of(c, &in->ops[k], u, 64);
            if (n)
                check_units(c, i, u, n, QNONE, "reads");
        }
        for (unsigned f = 0; f < 4; f++)
            if (info->implicit_uses & impl[f]) {
                unsigned n = wa_unit_map_implicit(impl[f], u);
                check_units(c, i, u, n, QNONE, "reads");
            }
        /* a load of an in-order queue may follow one of the same queue */
        unsigned allowed = (q == QVM || q == QDS) ? q : QNONE;
        for (unsigned k = 0; k < in->nops; k++) {
            if (!is_def(in, info, k))
                continue;
            unsigned n = units_of(c, &in->ops[k], u, 64);
            if (n)
                check_units(c, i, u, n, allowed, "overwrites");
        }
        for (unsigned f = 0; f < 4; f++)
            if (info->implicit_defs & impl[f]) {
                unsigned n = wa_unit_map_implicit(impl[f], u);
                check_units(c, i, u, n, allowed, "overwrites");
            }
        if (info->format == WA_FMT_DS)
            check_pseudo(c, i, PSEUDO_DMA, "accesses LDS", "(LDS-DMA) may still be writing it");
        /* one memory reached through two queues: the wave's own accesses in order */
        if (q == QSM)
            check_pseudo(c, i, PSEUDO_STORE, "reads memory", "may still be writing it");
        if (q == QVM && (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)))
            check_pseudo(c, i, PSEUDO_SMEM, "writes memory", "may still be reading it");
        /* scalar stores and atomics complete in any order with every later access */
        if (q != QNONE)
            check_pseudo(c, i, PSEUDO_SSTORE, "accesses memory", "may still be writing it");
        if (q == QSM && (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)))
            check_pseudo(c, i, PSEUDO_SMEM, "writes memory", "may still be reading it");
        if (info->flags & WA_IF_LDS_DMA)
            check_pseudo(c, i, PSEUDO_LDS, "writes LDS (LDS-DMA)", "may still be accessing it");
        if ((info->flags & WA_IF_BARRIER) && !(c->flags & WA_WAITCNT_NO_BARRIER)) {
            check_pseudo(c, i, PSEUDO_LDS, "s_barrier",
                         "may still be in flight (other waves would not see its LDS access)");
            check_pseudo(c, i, PSEUDO_DMA, "s_barrier", "(LDS-DMA) may still be writing LDS");
            if (c->flags & WA_WAITCNT_BARRIER_VMEM) {
                check_pseudo(c, i, PSEUDO_STORE, "s_barrier",
                             "may still be in flight (other waves would not see its memory "
                             "access)");
                check_pseudo(c, i, PSEUDO_SSTORE, "s_barrier",
                             "may still be in flight (other waves would not see its memory "
                             "access)");
            }
        }
        /* the written units now wait for this instruction (or for nothing) */
        if (q == QNONE) {
            for (unsigned k = 0; k < in->nops; k++) {
                if (!is_def(in, info, k))
                    continue;
                unsigned n = units_of(c, &in->ops[k], u, 64);
                for (unsigned j = 0; j < n; j++)
                    chain_clear(c, u[j]);
            }
            for (unsigned f = 0; f < 4; f++)
                if (info->implicit_defs & impl[f]) {
                    unsigned n = wa_unit_map_implicit(impl[f], u);
                    for (unsigned j = 0; j < n; j++)
                        chain_clear(c, u[j]);
                }
            continue;
        }
        unsigned rec;
        if (rec_get(c, i, q, &rec))
            return wa_error_nomem(c->ctx);
        if (q == QSM)
            c->recs[rec].seq = ++c->sm_cnt;
        else
            c->recs[rec].seq = ++c->cnt[q];
        c->recs[rec].dead = 0;
        if (link_writes(c, rec, in, 1))
            return wa_error_nomem(c->ctx);
    }
    return WA_OK;
}

static int cmp_pend(const void *a, const void *b)
{
    unsigned x = ((const pend *)a)->item, y = ((const pend *)b)->item;
    return x < y ? -1 : x > y;
}

/* The operations still in flight and referred to, sorted, into c->scratch. */
static int leave(C *c, unsigned *out_n)
{
    if (c->nrecs > c->capscratch) {
        void *p = c->scratch;
        if (wa_grow(c->ctx, &p, &c->capscratch, c->nrecs, sizeof(pend)))
            return -1;
        c->scratch = p;
    }
    unsigned n = 0;
    for (unsigned r = 0; r < c->nrecs; r++) {
        const op_rec *x = &c->recs[r];
        if (x->refs && pending(c, x)) {
            c->scratch[n].item = x->item;
            c->scratch[n].y = younger(c, x);
            n++;
        }
    }
    if (n > 1)
        qsort(c->scratch, n, sizeof(pend), cmp_pend);
    *out_n = n;
    return 0;
}

/* Union with the minimum count; returns 1 if the state of `s` changed, -1 when
   out of memory. */
static int join(C *c, unsigned s, const pend *in, unsigned n)
{
    blk *b = &c->bs[s];
    unsigned cap = b->n + n, m = 0, i = 0, j = 0;
    pend *u = wa_mem_alloc(c->ctx, (cap ? cap : 1u) * sizeof(pend));
    if (!u)
        return -1;
    int changed = !b->seen;
    while (i < b->n || j < n) {
        if (j == n || (i < b->n && b->p[i].item < in[j].item)) {
            u[m++] = b->p[i++];
        } else if (i == b->n || in[j].item < b->p[i].item) {
            u[m++] = in[j++];
            changed = 1;
        } else {
            pend x = b->p[i];
            if (in[j].y < x.y) {
                x.y = in[j].y;
                changed = 1;
            }
            u[m++] = x;
            i++;
            j++;
        }
    }
    if (!changed) {
        wa_mem_free(c->ctx, u);
        return 0;
    }
    wa_mem_free(c->ctx, b->p);
    b->p = u;
    b->n = m;
    b->seen = 1;
    return 1;
}

static wa_status solve(C *c)
{
    const wa_cfg *g = &c->cfg;
    if (!g->nrpo)
        return WA_OK;
    uint8_t *todo = wa_mem_calloc(c->ctx, g->nblocks + 1u, 1);
    if (!todo)
        return wa_error_nomem(c->ctx);
    c->bs[g->rpo[0]].seen = 1;
    todo[g->rpo[0]] = 1;
    wa_status st = WA_OK;
    int again = 1;
    while (again && !st) {
        again = 0;
        for (unsigned r = 0; r < g->nrpo && !st; r++) {
            unsigned b = g->rpo[r];
            if (!todo[b])
                continue;
            todo[b] = 0;
            unsigned n = 0;
            st = run(c, b);
            if (!st && leave(c, &n))
                st = wa_error_nomem(c->ctx);
            for (unsigned e = g->succ.off[b]; !st && e < g->succ.off[b + 1]; e++) {
                unsigned s = g->succ.data[e];
                int ch = join(c, s, c->scratch, n);
                if (ch < 0)
                    st = wa_error_nomem(c->ctx);
                else if (ch) {
                    todo[s] = 1;
                    again |= g->rpo_index[s] <= r;
                }
            }
        }
    }
    wa_mem_free(c->ctx, todo);
    return st;
}

wa_status wa_check_waitcnt(unsigned *out_errors, const wa_program *prog,
                           const wa_waitcnt_options *opts)
{
    if (out_errors)
        *out_errors = 0;
    if (!prog)
        return WA_E_INVALID;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    unsigned flags = 0;
    if (opts) {
        wa_status st = wa_check_options_version(ctx, opts->version, WA_WAITCNT_OPTIONS_VERSION,
                                                "wa_waitcnt_options");
        if (st)
            return st;
        flags = opts->flags;
        if ((flags & ~(WA_WAITCNT_BARRIER_VMEM | WA_WAITCNT_NO_BARRIER)) ||
            flags == (WA_WAITCNT_BARRIER_VMEM | WA_WAITCNT_NO_BARRIER))
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                            "wa_waitcnt_options: invalid flags 0x%x", flags);
    }
    C c;
    memset(&c, 0, sizeof(c));
    c.prog = prog;
    c.ctx = ctx;
    c.flags = flags;
    /* GFX9 s_waitcnt layout on gfx90a, gfx942 and gfx950 */
    c.max_vm = 63;
    c.max_lgkm = 15;
    wa_status st = wa_cfg_build(&c.cfg, prog);
    if (!st)
        st = wa_unit_map_init(&c.map, prog);
    if (!st) {
        unsigned nu = c.map.count + NPSEUDO;
        c.head = wa_mem_alloc(ctx, (size_t)nu * sizeof(unsigned));
        c.hrun = wa_mem_calloc(ctx, nu, sizeof(uint32_t));
        c.recof = wa_mem_alloc(ctx, (size_t)(prog->ninstrs + 1u) * sizeof(unsigned));
        c.rrun = wa_mem_calloc(ctx, prog->ninstrs + 1u, sizeof(uint32_t));
        c.bs = wa_mem_calloc(ctx, c.cfg.nblocks + 1u, sizeof(blk));
        if (!c.head || !c.hrun || !c.recof || !c.rrun || !c.bs)
            st = wa_error_nomem(ctx);
    }
    if (!st)
        st = solve(&c);
    /* the fixed point reached: once more over every reachable block, reporting */
    c.report = 1;
    c.errors = 0;
    for (unsigned r = 0; !st && r < c.cfg.nrpo; r++)
        st = run(&c, c.cfg.rpo[r]);
    unsigned errors = c.errors;
    if (c.bs)
        for (unsigned b = 0; b < c.cfg.nblocks; b++)
            wa_mem_free(ctx, c.bs[b].p);
    wa_mem_free(ctx, c.bs);
    wa_mem_free(ctx, c.head);
    wa_mem_free(ctx, c.hrun);
    wa_mem_free(ctx, c.recof);
    wa_mem_free(ctx, c.rrun);
    wa_mem_free(ctx, c.recs);
    wa_mem_free(ctx, c.links);
    wa_mem_free(ctx, c.scratch);
    wa_unit_map_free(&c.map, ctx);
    wa_cfg_free(&c.cfg, ctx);
    if (st)
        return st;
    if (out_errors)
        *out_errors = errors;
    return errors ? WA_E_VALIDATE : WA_OK;
}
