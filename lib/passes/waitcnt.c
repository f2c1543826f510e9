/* lib/passes/waitcnt.c — s_waitcnt insertion (docs/waitcnt.md).

   A scoreboard in the style of LLVM's WaitcntBrackets (SIInsertWaitcnts.cpp):
   every memory operation takes the next score of its queue and stamps it on the
   register units it will write; an instruction that reads (or rewrites) a unit
   whose score lies above the queue's retired bound needs the wait that retires
   it. Three queues, from the ISA table's `counters` and format:

     vm    WA_CNT_VM: buffer/global loads, stores, atomics, LDS-DMA, all in issue
           order (so a store between two loads counts);
     ds    WA_CNT_LGKM with the DS format: in order among themselves;
     sm    any other WA_CNT_LGKM operation (scalar memory): out of order, only
           lgkmcnt(0) is known to retire one.

   lgkmcnt(N) retires the DS operations with at least N younger DS operations
   (DS complete in order, and at most N lgkm operations of any kind remain);
   a DS result needed while a scalar load may be pending takes lgkmcnt(0).
   A field at its maximum retires nothing (a saturated counter reads the
   maximum whatever is outstanding), so no wait above maximum - 1 is emitted.

   Besides register units the scoreboard has five pseudo units: the newest
   LDS-DMA (a DS instruction waits for it: the DMA writes LDS when it
   completes), the newest vector store or atomic and the newest DS operation
   (what s_barrier waits for, see the flags, and what keeps the wave's own
   accesses to one memory in program order across queues), the newest scalar
   memory operation (whether the lgkm queue is out of order), and the newest
   scalar store or atomic: scalar memory completes in any order, so every later
   memory access waits for it (lgkmcnt(0)), and it waits for the scalar loads
   before it. A scalar store reads its data when it issues (no wait before the
   data register is rewritten); a returning atomic (glc) writes its sdata.

   Control flow: forward dataflow over the CFG in reverse post-order to a fixed
   point (see "block states" below). States are sparse: only the units with a
   pending operation, each with its distance (younger operations in its queue,
   the minimum over the paths, capped at the counter maximum) — a smaller
   distance needs a tighter wait, so the minimum is the conservative join.
   Inside a block the scoreboard is a flat array per queue over the units that
   any memory operation writes; retiring is one bound per queue. Waits follow
   from the converged states in a final sweep. Unreachable blocks are left as
   they are (they cannot execute, and their states must not leak into code that
   can). */
#include "pass_util.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

/* Pseudo units (tracked indices 0..3); register units follow. */
enum { PU_DMA = 0, PU_VMSTORE, PU_DS, PU_SMEM, PU_SMSTORE, PU_COUNT };

/* Queues of an instruction (a bit set). */
#define Q_VM 0x1u
#define Q_DS 0x2u
#define Q_SM 0x4u
#define Q_ALL (Q_VM | Q_DS | Q_SM)

#define NO_DIST 0xFFu   /* not pending in that queue */
#define JOIN_DIRECT 8u  /* blocks with more predecessors keep join counts */
#define ENTRY_BASE 64u  /* scores of entry units sit below this (above every cap) */

/* One pending unit of a sparse block state. */
typedef struct ent {
    uint32_t t;         /* tracked index */
    uint8_t vm, ds;     /* distance in the vm / ds queue, NO_DIST if not pending */
    uint8_t sm;         /* written by a scalar load that may be pending */
    uint8_t pad;
} ent;

typedef struct bstate {
    unsigned off, n;    /* into the pool */
    int valid;          /* a state has reached the block */
} bstate;

/* Per entry of a block's entry state: how many predecessors' exit states hold
   the unit, and its vm / ds distance and sm bit exactly as the entry does. */
typedef struct jcount {
    uint32_t any, vm, ds, sm;
} jcount;

/* Join counts of one block (see "join counts" below). */
typedef struct jstate {
    unsigned off;       /* into cpool: one jcount per entry of the entry state */
    unsigned nbad;      /* predecessor exit states the entry state does not cover */
    unsigned nmiss;     /* entry components no predecessor holds exactly */
} jstate;

typedef struct W {
    wa_program *prog;
    wa_context *ctx;
    const wa_cfg *cfg;
    wa_unit_map map;
    unsigned flags;
    unsigned vm_max, lgkm_max;  /* largest encodable field values */
    uint32_t *track;            /* unit -> tracked index, 0 = never written by memory */
    unsigned ntrack;
    /* flat scoreboard of the current block */
    uint32_t *vm_sc, *ds_sc, *sm_sc;
    uint32_t vm_ub, vm_lb, ds_ub, ds_lb, sm_ub, sm_lb;
    uint32_t *stamp;            /* last run that touched the tracked index */
    uint32_t run;
    uint32_t *touched;
    unsigned ntouched;
    /* block states */
    bstate *st;                 /* entry state of each block */
    bstate *outst;              /* exit state of each block */
    ent *pool;
    unsigned npool, cappool;
    ent *out, *tmp, *tmp2;      /* scratch lists */
    /* join counts of the blocks with many predecessors (see "join counts") */
    uint8_t *many;              /* per block: more than JOIN_DIRECT predecessors */
    jstate *js;                 /* per block */
    jcount *cpool;
    unsigned ncpool, capcpool;
    /* emission */
    wa_edit edit;
    wa_pass_stats *stats;
} W;

static const ent *list_of(const W *w, const bstate *bs)
{
    return bs->n ? w->pool + bs->off : NULL;
}

/* Encodable maxima per target (all three CDNA targets share the GFX9 layout:
   vmcnt 6 bits, lgkmcnt 4 bits). */
static void target_limits(wa_target t, unsigned *vm, unsigned *lgkm)
{
    (void)t;
    *vm = 63;
    *lgkm = 15;
}

/* Queue of a counted instruction (0 if it counts in none). */
static unsigned queue_of(const wa_isa_info *info)
{
    unsigned q = 0;
    if (info->counters & WA_CNT_VM)
        q |= Q_VM;
    if (info->counters & WA_CNT_LGKM)
        q |= info->format == WA_FMT_DS ? Q_DS : Q_SM;
    return q;
}

/* The units of register operand `o`: a contiguous range [*u0, *u0 + n). */
static unsigned operand_units(const W *w, const wa_operand *o, unsigned *u0)
{
    switch (o->kind) {
    case WA_OPND_VIRT:
        if (o->id >= w->prog->nvregs)
            return 0;
        *u0 = w->map.vbase[o->id] + o->first;
        if (*u0 >= w->map.count)
            return 0;
        return *u0 + o->count <= w->map.count ? o->count : w->map.count - *u0;
    case WA_OPND_PHYS: {
        unsigned lim = o->reg_class == WA_REG_SGPR ? WA_UNITS - WA_UNIT_SGPR : 256u;
        if (o->id >= lim)
            return 0;
        *u0 = wa_phys_unit((wa_reg_class)o->reg_class, o->id);
        return o->id + o->count <= lim ? o->count : lim - o->id;
    }
    case WA_OPND_SPECIAL: {
        unsigned u[2];
        unsigned n = wa_unit_map_operand(&w->map, o, u, 2);
        if (n)
            *u0 = u[0]; /* vcc/exec halves are adjacent units */
        return n;
    }
    default:
        return 0;
    }
}

static int role_def(const wa_instr *in, const wa_isa_info *info, unsigned k)
{
    return k < info->num_operands && (wa_instr_role(in, info, k) & WA_ROLE_DEF);
}

static int role_use(const wa_instr *in, const wa_isa_info *info, unsigned k)
{
    return k < info->num_operands && (wa_instr_role(in, info, k) & WA_ROLE_USE);
}

/* Marks the units that memory operations write and numbers them densely. */
static wa_status build_tracking(W *w)
{
    wa_program *prog = w->prog;
    w->track = wa_tmp_calloc(w->ctx, w->map.count + 1u, sizeof(uint32_t));
    if (!w->track)
        return wa_error_nomem(w->ctx);
    unsigned n = PU_COUNT;
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if (!queue_of(info))
            continue;
        for (unsigned k = 0; k < in->nops; k++) {
            unsigned u0, c;
            if (!role_def(in, info, k) || !(c = operand_units(w, &in->ops[k], &u0)))
                continue;
            for (unsigned j = 0; j < c; j++)
                if (!w->track[u0 + j])
                    w->track[u0 + j] = n++;
        }
        for (unsigned f = 1; f <= WA_IMPL_M0; f <<= 1) {
            unsigned u[2], c = (info->implicit_defs & f) ? wa_unit_map_implicit(f, u) : 0;
            for (unsigned j = 0; j < c; j++)
                if (!w->track[u[j]])
                    w->track[u[j]] = n++;
        }
    }
    w->ntrack = n;
    w->vm_sc = wa_tmp_calloc(w->ctx, n, sizeof(uint32_t));
    w->ds_sc = wa_tmp_calloc(w->ctx, n, sizeof(uint32_t));
    w->sm_sc = wa_tmp_calloc(w->ctx, n, sizeof(uint32_t));
    w->stamp = wa_tmp_calloc(w->ctx, n, sizeof(uint32_t));
    w->touched = wa_tmp_alloc(w->ctx, (size_t)n * sizeof(uint32_t));
    w->out = wa_tmp_alloc(w->ctx, (size_t)n * sizeof(ent));
    w->tmp = wa_tmp_alloc(w->ctx, (size_t)n * sizeof(ent));
    w->tmp2 = wa_tmp_alloc(w->ctx, (size_t)n * sizeof(ent));
    w->st = wa_tmp_calloc(w->ctx, w->cfg->nblocks + 1u, sizeof(bstate));
    w->outst = wa_tmp_calloc(w->ctx, w->cfg->nblocks + 1u, sizeof(bstate));
    w->many = wa_tmp_calloc(w->ctx, w->cfg->nblocks + 1u, 1);
    w->js = wa_tmp_calloc(w->ctx, w->cfg->nblocks + 1u, sizeof(jstate));
    if (!w->vm_sc || !w->ds_sc || !w->sm_sc || !w->stamp || !w->touched || !w->out || !w->tmp ||
        !w->tmp2 || !w->st || !w->outst || !w->many || !w->js)
        return wa_error_nomem(w->ctx);
    for (unsigned b = 0; b < w->cfg->nblocks; b++)
        w->many[b] = w->cfg->pred.off[b + 1] - w->cfg->pred.off[b] > JOIN_DIRECT;
    return WA_OK;
}

/* ---- the scoreboard of one block ------------------------------------------------------- */

static void touch(W *w, uint32_t t)
{
    if (w->stamp[t] != w->run) {
        w->stamp[t] = w->run;
        w->vm_sc[t] = w->ds_sc[t] = w->sm_sc[t] = 0;
        w->touched[w->ntouched++] = t;
    }
}

static void load_state(W *w, const ent *e, unsigned n)
{
    w->run++;
    w->ntouched = 0;
    w->vm_ub = w->ds_ub = ENTRY_BASE;
    w->vm_lb = w->ds_lb = 0;
    w->sm_ub = 1;
    w->sm_lb = 0;
    for (unsigned k = 0; k < n; k++) {
        touch(w, e[k].t);
        if (e[k].vm != NO_DIST)
            w->vm_sc[e[k].t] = ENTRY_BASE - e[k].vm;
        if (e[k].ds != NO_DIST)
            w->ds_sc[e[k].t] = ENTRY_BASE - e[k].ds;
        if (e[k].sm)
            w->sm_sc[e[k].t] = 1;
    }
}

static int cmp_ent(const void *a, const void *b)
{
    uint32_t x = ((const ent *)a)->t, y = ((const ent *)b)->t;
    return x < y ? -1 : x > y;
}

/* The pending units at the end of the block, sorted, into w->out. */
static unsigned save_state(W *w)
{
    unsigned n = 0;
    for (unsigned k = 0; k < w->ntouched; k++) {
        uint32_t t = w->touched[k];
        ent e = { t, NO_DIST, NO_DIST, 0, 0 };
        if (w->vm_sc[t] > w->vm_lb) {
            uint32_t d = w->vm_ub - w->vm_sc[t];
            e.vm = (uint8_t)(d < w->vm_max ? d : w->vm_max);
        }
        if (w->ds_sc[t] > w->ds_lb) {
            uint32_t d = w->ds_ub - w->ds_sc[t];
            e.ds = (uint8_t)(d < w->lgkm_max ? d : w->lgkm_max);
        }
        e.sm = w->sm_sc[t] > w->sm_lb;
        if (e.vm != NO_DIST || e.ds != NO_DIST || e.sm)
            w->out[n++] = e;
    }
    if (n > 1)
        qsort(w->out, n, sizeof(ent), cmp_ent);
    return n;
}

/* A wait: -1 = none in that field. */
typedef struct waitv {
    int vm, lgkm;
} waitv;

static int min_field(int a, int b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

/* Field value that retires an operation with `d` younger ones: a saturated
   counter can only be trusted below its maximum. */
static int field_for(uint32_t d, unsigned max)
{
    return (int)(d < max ? d : max - 1);
}

/* Adds to `need` what makes tracked unit `t` safe for the queues in `mask`. */
static void require(const W *w, uint32_t t, unsigned mask, waitv *need)
{
    if (w->stamp[t] != w->run)
        return;
    if ((mask & Q_VM) && w->vm_sc[t] > w->vm_lb)
        need->vm = min_field(need->vm, field_for(w->vm_ub - w->vm_sc[t], w->vm_max));
    if ((mask & Q_DS) && w->ds_sc[t] > w->ds_lb) {
        int smem = w->stamp[PU_SMEM] == w->run && w->sm_sc[PU_SMEM] > w->sm_lb;
        need->lgkm = min_field(need->lgkm, smem ? 0 : field_for(w->ds_ub - w->ds_sc[t], w->lgkm_max));
    }
    if ((mask & Q_SM) && w->sm_sc[t] > w->sm_lb)
        need->lgkm = 0;
}

static void apply_wait(W *w, int vm, int lgkm)
{
    if (vm >= 0 && (unsigned)vm < w->vm_max && w->vm_ub - (uint32_t)vm > w->vm_lb)
        w->vm_lb = w->vm_ub - (uint32_t)vm;
    if (lgkm >= 0 && (unsigned)lgkm < w->lgkm_max) {
        if (w->ds_ub - (uint32_t)lgkm > w->ds_lb)
            w->ds_lb = w->ds_ub - (uint32_t)lgkm;
        if (lgkm == 0)
            w->sm_lb = w->sm_ub;
    }
}

/* Stamps the newest score of queue q on tracked unit t. */
static void stamp_unit(W *w, uint32_t t, unsigned q)
{
    touch(w, t);
    if (q & Q_VM)
        w->vm_sc[t] = w->vm_ub;
    if (q & Q_DS)
        w->ds_sc[t] = w->ds_ub;
    if (q & Q_SM)
        w->sm_sc[t] = w->sm_ub;
}

/* Runs block b from its entry state; with `emit`, records the waits. */
static wa_status run_block(W *w, unsigned b, int emit)
{
    wa_program *prog = w->prog;
    const bstate *bs = &w->st[b];
    load_state(w, list_of(w, bs), bs->n);
    unsigned last_wait = WA_NONE; /* s_waitcnt with only comments after it */
    for (unsigned i = w->cfg->first[b]; i <= w->cfg->last[b]; i++) {
        wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        if (info->flags & WA_IF_WAITCNT) {
            apply_wait(w, in->mods.vmcnt, in->mods.lgkmcnt);
            last_wait = i;
            continue;
        }
        unsigned q = queue_of(info);
        waitv need = { -1, -1 };
        /* RAW: every register read */
        for (unsigned k = 0; k < in->nops; k++) {
            unsigned u0, c;
            if (!role_use(in, info, k) || !(c = operand_units(w, &in->ops[k], &u0)))
                continue;
            for (unsigned j = 0; j < c; j++)
                if (w->track[u0 + j])
                    require(w, w->track[u0 + j], Q_ALL, &need);
        }
        /* WAW: a load behind another of the same in-order queue lands after it */
        int smem = w->stamp[PU_SMEM] == w->run && w->sm_sc[PU_SMEM] > w->sm_lb;
        unsigned waw = Q_ALL;
        if (q == Q_VM)
            waw = Q_DS | Q_SM;
        else if (q == Q_DS && !smem)
            waw = Q_VM | Q_SM;
        for (unsigned k = 0; k < in->nops; k++) {
            unsigned u0, c;
            if (!role_def(in, info, k) || !(c = operand_units(w, &in->ops[k], &u0)))
                continue;
            for (unsigned j = 0; j < c; j++)
                if (w->track[u0 + j])
                    require(w, w->track[u0 + j], waw, &need);
        }
        for (unsigned f = 1; f <= WA_IMPL_M0; f <<= 1) {
            unsigned u[2], c;
            if ((info->implicit_uses & f) && (c = wa_unit_map_implicit(f, u)))
                for (unsigned j = 0; j < c; j++)
                    if (w->track[u[j]])
                        require(w, w->track[u[j]], Q_ALL, &need);
            if ((info->implicit_defs & f) && (c = wa_unit_map_implicit(f, u)))
                for (unsigned j = 0; j < c; j++)
                    if (w->track[u[j]])
                        require(w, w->track[u[j]], waw, &need);
        }
        /* LDS written by a DMA in flight */
        if (info->format == WA_FMT_DS)
            require(w, PU_DMA, Q_VM, &need);
        /* the wave's own accesses to one memory through two queues stay in program
           order: scalar loads after vector stores and atomics, vector stores and
           atomics after scalar loads, LDS-DMA after DS accesses */
        if (q & Q_SM)
            require(w, PU_VMSTORE, Q_VM, &need);
        if ((q & Q_VM) && (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)))
            require(w, PU_SMEM, Q_SM, &need);
        if (info->flags & WA_IF_LDS_DMA)
            require(w, PU_DS, Q_DS, &need);
        /* scalar memory completes in any order: a scalar store or atomic is
           waited for before any later memory access, and waits for the scalar
           loads before it */
        if (q)
            require(w, PU_SMSTORE, Q_SM, &need);
        if ((q & Q_SM) && (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)))
            require(w, PU_SMEM, Q_SM, &need);
        /* other waves read what this one wrote to LDS (and, with BARRIER_VMEM, to
           memory) once they pass the barrier */
        if ((info->flags & WA_IF_BARRIER) && !(w->flags & WA_WAITCNT_NO_BARRIER)) {
            require(w, PU_DS, Q_DS, &need);
            require(w, PU_DMA, Q_VM, &need);
            if (w->flags & WA_WAITCNT_BARRIER_VMEM) {
                require(w, PU_VMSTORE, Q_VM, &need);
                require(w, PU_SMSTORE, Q_SM, &need);
            }
        }
        if (need.vm >= 0 || need.lgkm >= 0) {
            if (emit) {
                if (last_wait != WA_NONE) {
                    wa_mods *m = &prog->instrs[last_wait].mods;
                    m->vmcnt = (int8_t)min_field(m->vmcnt, need.vm);
                    m->lgkmcnt = (int8_t)min_field(m->lgkmcnt, need.lgkm);
                    w->stats->waitcnts_merged++;
                    w->stats->changed++;
                } else {
                    wa_mods m = WA_MODS_INIT;
                    m.vmcnt = (int8_t)need.vm;
                    m.lgkmcnt = (int8_t)need.lgkm;
                    wa_status st = wa_edit_insert(&w->edit, i, WA_OP_S_WAITCNT, NULL, 0, &m);
                    if (st)
                        return st;
                    w->stats->waitcnts_inserted++;
                    w->stats->inserted++;
                }
            }
            apply_wait(w, need.vm, need.lgkm);
        }
        last_wait = WA_NONE;
        if (!q)
            continue;
        /* the operation's own events */
        if (q & Q_VM)
            w->vm_ub++;
        if (q & Q_DS)
            w->ds_ub++;
        if (q & Q_SM)
            w->sm_ub++;
        for (unsigned k = 0; k < in->nops; k++) {
            unsigned u0, c;
            if (!role_def(in, info, k) || !(c = operand_units(w, &in->ops[k], &u0)))
                continue;
            for (unsigned j = 0; j < c; j++)
                stamp_unit(w, w->track[u0 + j], q);
        }
        for (unsigned f = 1; f <= WA_IMPL_M0; f <<= 1) {
            unsigned u[2], c;
            if ((info->implicit_defs & f) && (c = wa_unit_map_implicit(f, u)))
                for (unsigned j = 0; j < c; j++)
                    stamp_unit(w, w->track[u[j]], q);
        }
        if (info->flags & WA_IF_LDS_DMA)
            stamp_unit(w, PU_DMA, Q_VM);
        if ((q & Q_VM) && (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)))
            stamp_unit(w, PU_VMSTORE, Q_VM);
        if (q & Q_DS)
            stamp_unit(w, PU_DS, Q_DS);
        if (q & Q_SM)
            stamp_unit(w, PU_SMEM, Q_SM);
        if ((q & Q_SM) && (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)))
            stamp_unit(w, PU_SMSTORE, Q_SM);
    }
    return WA_OK;
}

/* ---- block states ----------------------------------------------------------------------

   The transfer function of a block is not monotone: a larger entry state can
   make the block insert a wait that leaves less in flight at its end. So the
   analysis first iterates exactly (each entry state recomputed as the join of
   its predecessors' current exit states), which stops at a fixed point of the
   program with the waits that state implies — safe, and without stale facts of
   earlier sweeps. Should that not settle within PRECISE_SWEEPS sweeps, entry
   states only grow from then on (LLVM's scheme), which terminates because
   distances only shrink and sets only grow, and ends at a state that covers
   every exit state reaching it: safe as well. */
#define PRECISE_SWEEPS 8

/* Merge of two sorted lists into dst (distinct from both); returns its length. */
static unsigned merge_lists(ent *dst, const ent *a, unsigned na, const ent *b, unsigned nb)
{
    unsigned m = 0, ia = 0, ib = 0;
    while (ia < na || ib < nb) {
        if (ib == nb || (ia < na && a[ia].t < b[ib].t)) {
            dst[m++] = a[ia++];
        } else if (ia == na || b[ib].t < a[ia].t) {
            dst[m++] = b[ib++];
        } else {
            ent e = a[ia++];
            const ent *x = &b[ib++];
            if (x->vm < e.vm)
                e.vm = x->vm;
            if (x->ds < e.ds)
                e.ds = x->ds;
            e.sm |= x->sm;
            dst[m++] = e;
        }
    }
    return m;
}

static int lists_equal(const ent *a, unsigned na, const ent *b, unsigned nb)
{
    if (na != nb)
        return 0;
    for (unsigned k = 0; k < na; k++)
        if (a[k].t != b[k].t || a[k].vm != b[k].vm || a[k].ds != b[k].ds || a[k].sm != b[k].sm)
            return 0;
    return 1;
}

/* Stores a copy of e[0..n) as state `bs` (the old list stays as garbage). */
static int store_state(W *w, bstate *bs, const ent *e, unsigned n)
{
    if (WA_GROW(w->ctx, w->pool, w->cappool, w->npool + n + 1))
        return -1;
    if (n)
        memcpy(w->pool + w->npool, e, n * sizeof(ent));
    bs->off = w->npool;
    bs->n = n;
    bs->valid = 1;
    w->npool += n;
    return 0;
}

/* The join of the exit states of b's predecessors (those that have one); the
   result is in *out (one of the scratch lists). */
static unsigned join_preds(W *w, unsigned b, const ent **out)
{
    const wa_cfg *cfg = w->cfg;
    ent *cur = w->tmp, *other = w->tmp2;
    unsigned n = 0;
    for (unsigned e = cfg->pred.off[b]; e < cfg->pred.off[b + 1]; e++) {
        const bstate *o = &w->outst[cfg->pred.data[e]];
        if (!o->valid)
            continue;
        n = merge_lists(other, cur, n, list_of(w, o), o->n);
        ent *t = cur;
        cur = other;
        other = t;
    }
    *out = cur;
    return n;
}

/* ---- join counts ------------------------------------------------------------------------

   While entry states are exact, a change of one exit state needs to know whether
   the join of all of a successor's predecessors still equals the successor's
   entry state; recomputing the join is linear in the predecessors, quadratic in
   all for a label that many branches target. A block with many predecessors
   keeps counts instead: the join equals the entry state E exactly when every
   predecessor's exit state lies below E (its units are in E, at distances no
   smaller, with sm only where E has it) and every component of E (the unit,
   its vm and ds distances, its sm bit) is held exactly by some predecessor.
   `nbad` counts the exit states not below E, and for the others each entry of
   E counts the exit states holding each component; `nmiss` counts the
   components no one holds. An exit state's change subtracts its old list and
   adds its new one; a new E recounts every predecessor. */

/* The entry of `t` in the sorted list e[0..n), or -1. */
static long find_ent(const ent *e, unsigned n, uint32_t t)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (e[mid].t < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && e[lo].t == t ? (long)lo : -1;
}

static void jc_bump(uint32_t *c, int sign, unsigned *nmiss)
{
    if (sign > 0) {
        if ((*c)++ == 0)
            (*nmiss)--;
    } else if (--*c == 0) {
        (*nmiss)++;
    }
}

/* Adds (sign +1) or removes (-1) the exit state x[0..nx) in the counts of block s. */
static void jc_apply(W *w, unsigned s, const ent *x, unsigned nx, int sign)
{
    const bstate *bs = &w->st[s];
    const ent *e = list_of(w, bs);
    jstate *j = &w->js[s];
    for (unsigned k = 0; k < nx; k++) {
        long at = find_ent(e, bs->n, x[k].t);
        if (at < 0 || x[k].vm < e[at].vm || x[k].ds < e[at].ds || (x[k].sm && !e[at].sm)) {
            if (sign > 0)
                j->nbad++;
            else
                j->nbad--;
            return;
        }
    }
    jcount *c = w->cpool + j->off;
    for (unsigned k = 0; k < nx; k++) {
        long at = find_ent(e, bs->n, x[k].t);
        jc_bump(&c[at].any, sign, &j->nmiss);
        if (x[k].vm != NO_DIST && x[k].vm == e[at].vm)
            jc_bump(&c[at].vm, sign, &j->nmiss);
        if (x[k].ds != NO_DIST && x[k].ds == e[at].ds)
            jc_bump(&c[at].ds, sign, &j->nmiss);
        if (x[k].sm)
            jc_bump(&c[at].sm, sign, &j->nmiss);
    }
}

/* Counts block s's predecessors against its (new, valid) entry state. */
static int jc_build(W *w, unsigned s)
{
    const bstate *bs = &w->st[s];
    if (WA_GROW(w->ctx, w->cpool, w->capcpool, w->ncpool + bs->n + 1))
        return -1;
    jstate *j = &w->js[s];
    j->off = w->ncpool;
    w->ncpool += bs->n;
    j->nbad = 0;
    j->nmiss = 0;
    const ent *e = list_of(w, bs);
    for (unsigned k = 0; k < bs->n; k++) {
        memset(&w->cpool[j->off + k], 0, sizeof(jcount));
        j->nmiss += 1u + (e[k].vm != NO_DIST) + (e[k].ds != NO_DIST) + (e[k].sm != 0);
    }
    const wa_cfg *cfg = w->cfg;
    for (unsigned p = cfg->pred.off[s]; p < cfg->pred.off[s + 1]; p++) {
        const bstate *o = &w->outst[cfg->pred.data[p]];
        if (o->valid)
            jc_apply(w, s, list_of(w, o), o->n, 1);
    }
    return 0;
}

/* 1 if the join of block s's predecessors' exit states differs from its entry
   state (precise phase). */
static int join_differs(W *w, unsigned s)
{
    const bstate *bs = &w->st[s];
    if (!bs->valid)
        return 1;
    if (w->many[s])
        return w->js[s].nbad || w->js[s].nmiss;
    const ent *j;
    unsigned nj = join_preds(w, s, &j);
    return !lists_equal(j, nj, list_of(w, bs), bs->n);
}

/* Makes block s's entry state the join of its predecessors' exit states
   (precise phase). Returns -1 when out of memory. */
static int take_join(W *w, unsigned s)
{
    if (w->many[s] && !join_differs(w, s))
        return 0;
    const ent *j;
    unsigned nj = join_preds(w, s, &j);
    if (w->st[s].valid && lists_equal(j, nj, list_of(w, &w->st[s]), w->st[s].n))
        return 0;
    if (store_state(w, &w->st[s], j, nj))
        return -1;
    return w->many[s] ? jc_build(w, s) : 0;
}

static int merge_into(W *w, unsigned s, unsigned n);

static wa_status analyse(W *w)
{
    const wa_cfg *cfg = w->cfg;
    if (!cfg->nrpo)
        return WA_OK;
    uint8_t *dirty = wa_tmp_calloc(w->ctx, cfg->nblocks + 1u, 1);
    if (!dirty)
        return wa_error_nomem(w->ctx);
    dirty[cfg->rpo[0]] = 1;
    int precise = 1;
    unsigned sweeps = 0;
    wa_status st = WA_OK;
    for (int again = 1; again && st == WA_OK;) {
        again = 0;
        int ran = 0;
        for (unsigned r = 0; r < cfg->nrpo && st == WA_OK; r++) {
            unsigned b = cfg->rpo[r];
            if (!dirty[b])
                continue;
            dirty[b] = 0;
            ran = 1;
            if (precise && take_join(w, b)) {
                st = wa_error_nomem(w->ctx);
                break;
            }
            st = run_block(w, b, 0);
            if (st)
                break;
            unsigned n = save_state(w);
            bstate *o = &w->outst[b];
            if (o->valid && lists_equal(w->out, n, list_of(w, o), o->n))
                continue;
            bstate old = *o;
            if (store_state(w, o, w->out, n)) {
                st = wa_error_nomem(w->ctx);
                break;
            }
            for (unsigned e = cfg->succ.off[b]; e < cfg->succ.off[b + 1]; e++) {
                unsigned s = cfg->succ.data[e];
                int changed;
                if (precise) {
                    if (w->many[s] && w->st[s].valid) {
                        if (old.valid)
                            jc_apply(w, s, list_of(w, &old), old.n, -1);
                        jc_apply(w, s, list_of(w, o), o->n, 1);
                    }
                    changed = join_differs(w, s);
                } else {
                    changed = merge_into(w, s, n);
                    if (changed < 0) {
                        st = wa_error_nomem(w->ctx);
                        break;
                    }
                }
                if (changed) {
                    dirty[s] = 1;
                    /* a successor earlier in the order waits for the next sweep */
                    if (cfg->rpo_index[s] <= r)
                        again = 1;
                }
            }
        }
        w->stats->iterations += ran;
        sweeps += ran;
        if (again && precise && sweeps >= PRECISE_SWEEPS && st == WA_OK) {
            /* from now on entry states only grow: start from states that cover
               every exit state reaching them */
            precise = 0;
            for (unsigned r = 0; r < cfg->nrpo && st == WA_OK; r++) {
                unsigned b = cfg->rpo[r];
                const ent *j;
                unsigned nj = join_preds(w, b, &j);
                unsigned m = merge_lists(w->out, j, nj, list_of(w, &w->st[b]), w->st[b].n);
                if (!lists_equal(w->out, m, list_of(w, &w->st[b]), w->st[b].n)) {
                    if (store_state(w, &w->st[b], w->out, m))
                        st = wa_error_nomem(w->ctx);
                    dirty[b] = 1;
                }
            }
        }
    }
    wa_tmp_free(w->ctx, dirty);
    return st;
}

/* Merges w->out (n entries) into the entry state of block s; returns 1 if it
   changed (-1 when out of memory). */
static int merge_into(W *w, unsigned s, unsigned n)
{
    bstate *bs = &w->st[s];
    unsigned m = merge_lists(w->tmp, list_of(w, bs), bs->valid ? bs->n : 0, w->out, n);
    if (bs->valid && lists_equal(w->tmp, m, list_of(w, bs), bs->n))
        return 0;
    return store_state(w, bs, w->tmp, m) ? -1 : 1;
}

static void w_free(W *w)
{
    wa_context *ctx = w->ctx;
    wa_tmp_free(ctx, w->track);
    wa_tmp_free(ctx, w->vm_sc);
    wa_tmp_free(ctx, w->ds_sc);
    wa_tmp_free(ctx, w->sm_sc);
    wa_tmp_free(ctx, w->stamp);
    wa_tmp_free(ctx, w->touched);
    wa_tmp_free(ctx, w->out);
    wa_tmp_free(ctx, w->tmp);
    wa_tmp_free(ctx, w->tmp2);
    wa_tmp_free(ctx, w->st);
    wa_tmp_free(ctx, w->outst);
    wa_tmp_free(ctx, w->many);
    wa_tmp_free(ctx, w->js);
    wa_mem_free(ctx, w->pool);
    wa_mem_free(ctx, w->cpool);
    wa_edit_free(&w->edit);
    wa_unit_map_free(&w->map, ctx);
}

wa_status wa_pass_waitcnt(wa_program *prog, const wa_waitcnt_options *opts, wa_pass_stats *stats)
{
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
        if (flags & ~(WA_WAITCNT_BARRIER_VMEM | WA_WAITCNT_NO_BARRIER))
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                            "wa_waitcnt_options: unknown flags 0x%x",
                            flags & ~(WA_WAITCNT_BARRIER_VMEM | WA_WAITCNT_NO_BARRIER));
        if ((flags & WA_WAITCNT_BARRIER_VMEM) && (flags & WA_WAITCNT_NO_BARRIER))
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                            "wa_waitcnt_options: WA_WAITCNT_BARRIER_VMEM and "
                            "WA_WAITCNT_NO_BARRIER contradict each other");
    }
    wa_pass_stats local;
    wa_pass_stats *s = wa_stats_begin(stats, &local, prog);
    wa_cfg cfg;
    memset(&cfg, 0, sizeof(cfg));
    W w;
    memset(&w, 0, sizeof(w));
    w.prog = prog;
    w.ctx = ctx;
    w.cfg = &cfg;
    w.flags = flags;
    w.stats = s;
    target_limits(prog->target, &w.vm_max, &w.lgkm_max);
    wa_edit_init(&w.edit, prog);
    wa_status st = wa_cfg_build(&cfg, prog);
    if (!st)
        st = wa_unit_map_init(&w.map, prog);
    if (!st)
        st = build_tracking(&w);
    if (!st)
        st = analyse(&w);
    for (unsigned r = 0; r < cfg.nrpo && !st; r++)
        st = run_block(&w, cfg.rpo[r], 1);
    if (!st)
        st = wa_edit_apply(&w.edit);
    w_free(&w);
    wa_cfg_free(&cfg, ctx);
    wa_stats_end(s, prog);
    return st;
}
