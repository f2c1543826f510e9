/* lib/conductor/metrics.c — what a schedule costs: a clone compiled by the rest
   of the pipeline (regalloc, waitcnt, hazards), its registers, inserted waits
   and nops, and an estimate of the cycles of each region from an in-order
   issue model over the compiled block. */
#include "conductor_internal.h"

#include <waveasm/emit.h>

#include <stddef.h>
#include <string.h>

/* Issue model of one straight-line block of a compiled (physical) program:
   one instruction issues every 4 cycles in order; it waits for its source
   registers (latency of the producer's class, MFMA passes * 4), for the MFMA
   pipe (busy for the passes of the MFMA before it), for s_waitcnt counters
   (vector memory and LDS/scalar memory complete in issue order) and for the
   wait states of s_nop. Memory in flight when the block starts is ignored. */
typedef struct issue_model {
    const wa_schedule *s;
    const wa_program *prog;
    wa_unit_map um;
    uint64_t *ready;
    uint64_t *vm, *lgkm;       /* completion times per counter, in issue order */
    unsigned nvm, nlgkm, cap;
} issue_model;

static uint64_t wait_for(const uint64_t *q, unsigned n, int count, uint64_t t)
{
    if (count < 0 || (unsigned)count >= n)
        return t;
    uint64_t need = q[n - 1 - (unsigned)count];
    return need > t ? need : t;
}

static uint64_t block_cycles(issue_model *m, unsigned first, unsigned last, wa_sunits *su)
{
    const wa_program *prog = m->prog;
    uint64_t t = 0, mfma_free = 0;
    m->nvm = m->nlgkm = 0;
    /* registers are ready at the start of the block */
    for (unsigned i = first; i <= last; i++) {
        const wa_instr *in = &prog->instrs[i];
        if (wa_sched_units(su, m->s, in) != WA_OK)
            return 0;
        for (unsigned k = 0; k < su->nuse; k++)
            if (su->use[k] < m->um.count)
                m->ready[su->use[k]] = 0;
        for (unsigned k = 0; k < su->ndef; k++)
            if (su->def[k] < m->um.count)
                m->ready[su->def[k]] = 0;
    }
    for (unsigned i = first; i <= last; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        wa_sched_units(su, m->s, in);
        uint64_t start = t;
        for (unsigned k = 0; k < su->nuse; k++)
            if (su->use[k] < m->um.count && m->ready[su->use[k]] > start)
                start = m->ready[su->use[k]];
        uint64_t cost = 4;
        if (info->flags & WA_IF_WAITCNT) {
            start = wait_for(m->vm, m->nvm, in->mods.vmcnt, start);
            start = wait_for(m->lgkm, m->nlgkm, in->mods.lgkmcnt, start);
        } else if (info->flags & WA_IF_NOP) {
            cost = (uint64_t)(in->nops ? in->ops[0].imm.i : 0) + 1;
        }
        uint64_t lat = wa_sched_class_latency(m->s, info->latency);
        if (info->flags & WA_IF_MFMA) {
            unsigned passes = wa_isa_mfma_passes(in->op, prog->target);
            if (mfma_free > start)
                start = mfma_free;
            mfma_free = start + (uint64_t)(passes ? passes : 4) * 4;
            lat = (uint64_t)(passes ? passes : 4) * 4;
        }
        uint64_t done = start + lat;
        if (info->counters & WA_CNT_VM) {
            if (m->nvm && m->vm[m->nvm - 1] > done)
                done = m->vm[m->nvm - 1];
            if (m->nvm < m->cap)
                m->vm[m->nvm++] = done;
        } else if (info->counters & WA_CNT_LGKM) {
            if (m->nlgkm && m->lgkm[m->nlgkm - 1] > done)
                done = m->lgkm[m->nlgkm - 1];
            if (m->nlgkm < m->cap)
                m->lgkm[m->nlgkm++] = done;
        }
        for (unsigned k = 0; k < su->ndef; k++)
            if (su->def[k] < m->um.count)
                m->ready[su->def[k]] = done;
        t = start + cost;
    }
    return t;
}

/* The block of `prog` holding item `i`: from the item after the previous
   terminator or at the previous label, to the next terminator or label. */
static void block_around(const wa_program *prog, unsigned i, unsigned *first, unsigned *last)
{
    unsigned a = i;
    while (a > 0) {
        const wa_instr *p = &prog->instrs[a - 1];
        unsigned f = wa_isa(p->op)->flags;
        if (f & (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM) || prog->instrs[a].op == WA_OP_LABEL)
            break;
        a--;
    }
    unsigned b = i;
    while (b + 1 < prog->ninstrs) {
        unsigned f = wa_isa(prog->instrs[b].op)->flags;
        if (f & (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM) || prog->instrs[b + 1].op == WA_OP_LABEL)
            break;
        b++;
    }
    *first = a;
    *last = b;
}

static uint64_t depth_weight(unsigned depth)
{
    uint64_t w = 1;
    for (unsigned d = 0; d < depth && d < 6; d++)
        w *= 10;
    return w;
}

static wa_status estimate(wa_schedule *s, const wa_program *clone, uint64_t *total)
{
    issue_model m;
    memset(&m, 0, sizeof(m));
    m.s = s;
    m.prog = clone;
    wa_status st = wa_unit_map_init(&m.um, clone);
    if (st)
        return st;
    wa_sunits su;
    memset(&su, 0, sizeof(su));
    m.cap = clone->ninstrs + 1;
    m.ready = wa_mem_calloc(s->ctx, m.um.count ? m.um.count : 1, sizeof(uint64_t));
    m.vm = wa_mem_alloc(s->ctx, m.cap * sizeof(uint64_t));
    m.lgkm = wa_mem_alloc(s->ctx, m.cap * sizeof(uint64_t));
    *total = 0;
    if (!m.ready || !m.vm || !m.lgkm) {
        st = wa_error_nomem(s->ctx);
        goto out;
    }
    /* the unit map of the schedule would name virtual registers: use the clone's */
    wa_unit_map saved = s->units;
    ((wa_schedule *)s)->units = m.um;
    for (unsigned r = 0; r < s->nregions; r++) {
        unsigned b = s->region_block[r];
        unsigned at = WA_NONE;
        for (unsigned i = s->bfirst[b]; i <= s->blast[b] && at == WA_NONE; i++) {
            unsigned nd = s->at[i];
            if (!(s->node[nd].flags & WA_SN_REAL))
                continue;
            unsigned idx;
            if (wa_program_find_tag(&idx, clone, wa_sched_tag(s, nd)) == WA_OK)
                at = idx;
        }
        s->region_cycles[r] = 0;
        if (at == WA_NONE)
            continue;
        unsigned first, last;
        block_around(clone, at, &first, &last);
        s->region_cycles[r] = block_cycles(&m, first, last, &su);
        *total += s->region_cycles[r] * depth_weight(s->bdepth[b]);
    }
    s->units = saved;
    wa_diag_reset(s->ctx);
out:
    wa_sunits_free(&su, s->ctx);
    wa_mem_free(s->ctx, m.ready);
    wa_mem_free(s->ctx, m.vm);
    wa_mem_free(s->ctx, m.lgkm);
    wa_unit_map_free(&m.um, s->ctx);
    return st;
}

wa_status wa_schedule_measure(wa_sched_metrics *out, wa_schedule *s)
{
    if (!out || !s)
        return WA_E_INVALID;
    wa_diag_reset(s->ctx);
    memset(out, 0, sizeof(*out));
    out->version = WA_SCHED_METRICS_VERSION;
    wa_program *clone = NULL;
    wa_status st = wa_program_clone(&clone, s->prog);
    if (st)
        return st;
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    const wa_pipeline_options *hp = s->opts.pipeline;
    if (hp) /* a version-1 struct ends before the schedule fields */
        memcpy(&po, hp, hp->version >= 2 ? sizeof(*hp) : offsetof(wa_pipeline_options, schedule));
    po.version = WA_PIPELINE_OPTIONS_VERSION;
    po.flags &= ~WA_PIPELINE_SCHEDULE; /* measuring never schedules again */
    if (s->opts.flags & WA_SCHED_VERIFY)
        po.flags |= WA_PIPELINE_VERIFY;
    wa_pipeline *pl = NULL;
    st = wa_pipeline_create(&pl, s->ctx, &po);
    if (!st) {
        wa_pipeline_enable(pl, WA_STAGE_CSE, 0);
        wa_pipeline_enable(pl, WA_STAGE_PEEPHOLE, 0);
        st = wa_pipeline_run(pl, clone);
    }
    if (!st) {
        wa_stage_stats ws, hs;
        wa_pipeline_stats(&ws, pl, WA_STAGE_WAITCNT);
        wa_pipeline_stats(&hs, pl, WA_STAGE_HAZARDS);
        out->waits_inserted = ws.pass.waitcnts_inserted;
        out->nops_inserted = hs.pass.nops_inserted;
        out->instrs = wa_count_instrs(clone);
        wa_kernel_resources kr;
        st = wa_kernel_resources_compute(&kr, clone);
        if (!st) {
            out->peak_vgprs = kr.arch_vgprs;
            out->peak_sgprs = kr.next_free_sgpr;
            out->peak_agprs = kr.agprs;
            out->waves_per_simd = kr.waves_per_simd;
        }
    }
    if (!st)
        st = estimate(s, clone, &out->cycles);
    out->critical_path = s->critical;
    wa_pipeline_destroy(pl);
    wa_program_destroy(clone);
    if (!st && !s->baseline_waves)
        s->baseline_waves = out->waves_per_simd;
    return st;
}

static uint64_t criterion(const wa_sched_metrics *m, unsigned c)
{
    switch (c) {
    case WA_SCHED_BY_CYCLES: return m->cycles;
    case WA_SCHED_BY_WAITS: return m->waits_inserted;
    case WA_SCHED_BY_NOPS: return m->nops_inserted;
    case WA_SCHED_BY_VGPRS: return m->peak_vgprs;
    case WA_SCHED_BY_SGPRS: return m->peak_sgprs;
    case WA_SCHED_BY_AGPRS: return m->peak_agprs;
    case WA_SCHED_BY_INSTRS: return m->instrs;
    case WA_SCHED_BY_CRITICAL: return m->critical_path;
    default: return 0;
    }
}

int wa_sched_metrics_better(const wa_schedule *s, const wa_sched_metrics *a,
                            const wa_sched_metrics *b)
{
    if (!s || !a || !b)
        return 0;
    unsigned target = s->opts.min_waves ? s->opts.min_waves : s->baseline_waves;
    int a_ok = a->waves_per_simd >= target, b_ok = b->waves_per_simd >= target;
    if (a_ok != b_ok)
        return a_ok;
    for (unsigned k = 0; k < WA_SCHED_MAX_CRITERIA && s->opts.order[k]; k++) {
        uint64_t x = criterion(a, s->opts.order[k]), y = criterion(b, s->opts.order[k]);
        if (x != y)
            return x < y;
    }
    return 0;
}
