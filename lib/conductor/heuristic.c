/* lib/conductor/heuristic.c — the built-in oracle: a list scheduler over each
   segment of a region (the instructions between two pinned ones) that issues
   the ready instruction able to start first in an in-order issue model, the
   one with the longest latency-weighted path to the segment's end on a tie,
   while the vector registers of values local to the segment stay within the
   peak of the order it was given. MFMAs keep the matrix pipe busy, so LDS
   reads and global loads fill the cycles between them. The result is a list
   of move commands, checked like any oracle's. */
#include "conductor_internal.h"

#include <string.h>

typedef struct seg_state {
    wa_schedule *s;
    unsigned *nodes;          /* segment nodes in current order */
    unsigned k;
    unsigned *local;          /* node -> local index (WA_NONE outside) */
    /* local successor lists (register edges inside the segment plus memory order) */
    unsigned *soff, *sdata, *skind;
    unsigned *npred;
    uint64_t *height, *earliest;
    int *delta;
} seg_state;

static int is_vector_vreg(const wa_program *prog, unsigned v)
{
    unsigned c = prog->vregs[v].cls;
    return c == WA_REG_VGPR || c == WA_REG_AGPR;
}

typedef struct vcount {
    unsigned *reads_prog, *defs_prog;   /* per vreg: reading/defining instructions in the program */
    unsigned *reads_seg, *defs_seg;     /* ... in the segment */
    uint8_t *live;
} vcount;

/* Distinct virtual registers an instruction reads (role USE) or writes. */
static unsigned instr_vregs(const wa_instr *in, unsigned *out, unsigned cap, int want_def)
{
    const wa_isa_info *info = wa_isa(in->op);
    unsigned n = 0;
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        const wa_operand *o = &in->ops[k];
        if (o->kind != WA_OPND_VIRT)
            continue;
        unsigned role = wa_instr_role(in, info, k);
        if (!(role & (want_def ? WA_ROLE_DEF : WA_ROLE_USE)))
            continue;
        unsigned j;
        for (j = 0; j < n && out[j] != o->id; j++)
            ;
        if (j == n && n < cap)
            out[n++] = o->id;
    }
    return n;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Schedules one segment; appends move commands to `sb`. */
static wa_status schedule_segment(seg_state *g, vcount *vc, wa_sb *sb)
{
    wa_schedule *s = g->s;
    wa_context *ctx = s->ctx;
    unsigned k = g->k;
    const wa_program *prog = s->prog;
    for (unsigned i = 0; i < k; i++)
        g->local[g->nodes[i]] = i;
    /* edges: register successors inside the segment, memory order pairs */
    unsigned ne = 0, cap = 0;
    unsigned *efrom = NULL, *eto = NULL, *ekind = NULL, capf = 0, capk = 0;
    wa_status st = WA_OK;
#define PUSH_EDGE(a, b, kd)                                                                   \
    do {                                                                                      \
        if (wa_grow(ctx, (void **)&efrom, &capf, ne + 1, sizeof(unsigned)) ||                 \
            wa_grow(ctx, (void **)&eto, &cap, ne + 1, sizeof(unsigned)) ||                    \
            wa_grow(ctx, (void **)&ekind, &capk, ne + 1, sizeof(unsigned))) {                 \
            st = wa_error_nomem(ctx);                                                         \
            goto out;                                                                         \
        }                                                                                     \
        efrom[ne] = (a);                                                                      \
        eto[ne] = (b);                                                                        \
        ekind[ne] = (kd);                                                                     \
        ne++;                                                                                 \
    } while (0)
    /* barrier intervals: memory order across a barrier goes through its edges */
    unsigned *interval = g->npred; /* free until the edges are counted */
    {
        unsigned iv = 0;
        for (unsigned i = 0; i < k; i++) {
            if (s->node[g->nodes[i]].flags & WA_SN_BARRIER)
                iv++;
            interval[i] = iv;
        }
    }
    for (unsigned i = 0; i < k; i++) {
        unsigned x = g->nodes[i];
        for (unsigned e = s->succ_off[x]; e < s->succ_off[x + 1]; e++) {
            unsigned y = s->succ[e].node;
            if (g->local[y] != WA_NONE)
                PUSH_EDGE(i, g->local[y], s->succ[e].kind);
        }
        const wa_snode *nx = &s->node[x];
        if (nx->flags & WA_SN_BARRIER) {
            /* memory operations keep their side of a barrier: edges to those of
               the intervals next to it and to the next barrier */
            for (unsigned j = 0; j < k; j++) {
                const wa_snode *ny = &s->node[g->nodes[j]];
                if (interval[j] + 1 < interval[i] || interval[j] > interval[i])
                    continue;
                if (j != i && ((ny->rd | ny->wr) || (ny->flags & WA_SN_BARRIER))) {
                    if (j < i)
                        PUSH_EDGE(j, i, WA_DEP_WAW);
                    else
                        PUSH_EDGE(i, j, WA_DEP_WAW);
                }
            }
            continue;
        }
        if (!nx->wr)
            continue;
        for (unsigned j = 0; j < k; j++) {
            if (j == i || interval[j] != interval[i])
                continue;
            unsigned y = g->nodes[j];
            const wa_snode *ny = &s->node[y];
            if (!(ny->rd | ny->wr))
                continue;
            /* a pair of writers is visited twice: keep it once */
            if (ny->wr && j < i)
                continue;
            int a = wa_sched_memory_conflict(s, x, y, NULL);
            if (a < 0 || a == WA_ALIAS_DISJOINT)
                continue;
            if (i < j)
                PUSH_EDGE(i, j, WA_DEP_WAW);
            else
                PUSH_EDGE(j, i, WA_DEP_WAW);
        }
    }
    memset(g->soff, 0, (k + 1) * sizeof(unsigned));
    for (unsigned e = 0; e < ne; e++)
        g->soff[efrom[e] + 1]++;
    for (unsigned i = 0; i < k; i++)
        g->soff[i + 1] += g->soff[i];
    {
        unsigned *fill = g->npred; /* reused as a cursor, then recomputed */
        for (unsigned i = 0; i < k; i++)
            fill[i] = g->soff[i];
        g->sdata = wa_mem_alloc(ctx, (ne ? ne : 1) * sizeof(unsigned));
        g->skind = wa_mem_alloc(ctx, (ne ? ne : 1) * sizeof(unsigned));
        if (!g->sdata || !g->skind) {
            st = wa_error_nomem(ctx);
            goto out;
        }
        for (unsigned e = 0; e < ne; e++) {
            g->sdata[fill[efrom[e]]] = eto[e];
            g->skind[fill[efrom[e]]++] = ekind[e];
        }
    }
    memset(g->npred, 0, k * sizeof(unsigned));
    for (unsigned e = 0; e < ne; e++)
        g->npred[eto[e]]++;
    /* heights, in reverse order (edges go forward in the current order) */
    for (unsigned i = k; i-- > 0;) {
        uint64_t lat = s->node[g->nodes[i]].latency, h = lat;
        for (unsigned e = g->soff[i]; e < g->soff[i + 1]; e++) {
            uint64_t c = g->height[g->sdata[e]] + (g->skind[e] == WA_DEP_RAW ? lat : 0);
            h = max64(h, c);
        }
        g->height[i] = h;
        g->earliest[i] = 0;
    }
    /* register pressure of values local to the segment */
    unsigned vr[64];
    for (unsigned i = 0; i < k; i++) {
        const wa_instr *in = &s->orig[g->nodes[i]];
        unsigned n = instr_vregs(in, vr, 64, 0);
        for (unsigned j = 0; j < n; j++)
            vc->reads_seg[vr[j]]++;
        n = instr_vregs(in, vr, 64, 1);
        for (unsigned j = 0; j < n; j++)
            vc->defs_seg[vr[j]]++;
    }
#define LOCAL_V(v) (is_vector_vreg(prog, v) && vc->reads_seg[v] == vc->reads_prog[v] && \
                    vc->defs_seg[v] == vc->defs_prog[v] && vc->defs_seg[v] > 0)
    /* the peak along the current order is the budget */
    long cur = 0, budget = 0;
    {
        unsigned *rem = wa_mem_alloc(ctx, (prog->nvregs ? prog->nvregs : 1) * sizeof(unsigned));
        if (!rem) {
            st = wa_error_nomem(ctx);
            goto out;
        }
        for (unsigned i = 0; i < k; i++) {
            const wa_instr *in = &s->orig[g->nodes[i]];
            unsigned n = instr_vregs(in, vr, 64, 0);
            for (unsigned j = 0; j < n; j++)
                rem[vr[j]] = vc->reads_seg[vr[j]];
        }
        for (unsigned i = 0; i < k; i++) {
            const wa_instr *in = &s->orig[g->nodes[i]];
            unsigned n = instr_vregs(in, vr, 64, 1);
            for (unsigned j = 0; j < n; j++)
                if (LOCAL_V(vr[j]) && !vc->live[vr[j]]) {
                    vc->live[vr[j]] = 1;
                    cur += prog->vregs[vr[j]].size;
                }
            if (cur > budget)
                budget = cur;
            n = instr_vregs(in, vr, 64, 0);
            for (unsigned j = 0; j < n; j++)
                if (LOCAL_V(vr[j]) && --rem[vr[j]] == 0 && vc->live[vr[j]]) {
                    vc->live[vr[j]] = 0;
                    cur -= prog->vregs[vr[j]].size;
                }
        }
        for (unsigned i = 0; i < k; i++) {
            const wa_instr *in = &s->orig[g->nodes[i]];
            unsigned n = instr_vregs(in, vr, 64, 0);
            for (unsigned j = 0; j < n; j++) {
                vc->live[vr[j]] = 0;
                rem[vr[j]] = 0;
            }
        }
        wa_mem_free(ctx, rem);
        cur = 0;
    }
    /* list scheduling */
    {
        unsigned *ready = wa_mem_alloc(ctx, (k ? k : 1) * sizeof(unsigned));
        unsigned *order = wa_mem_alloc(ctx, (k ? k : 1) * sizeof(unsigned));
        unsigned *remv = wa_mem_calloc(ctx, prog->nvregs ? prog->nvregs : 1, sizeof(unsigned));
        if (!ready || !order || !remv) {
            wa_mem_free(ctx, ready);
            wa_mem_free(ctx, order);
            wa_mem_free(ctx, remv);
            st = wa_error_nomem(ctx);
            goto out;
        }
        for (unsigned i = 0; i < k; i++) {
            const wa_instr *in = &s->orig[g->nodes[i]];
            unsigned n = instr_vregs(in, vr, 64, 0);
            for (unsigned j = 0; j < n; j++)
                remv[vr[j]] = vc->reads_seg[vr[j]];
        }
        /* the virtual registers each instruction writes and reads, once */
        unsigned *voff = wa_mem_alloc(ctx, (2 * (size_t)k + 1) * sizeof(unsigned));
        unsigned *vlist = NULL, nv = 0, capv = 0;
        int *is_mfma = wa_mem_alloc(ctx, (k ? k : 1) * sizeof(int));
        if (!voff || !is_mfma) {
            wa_mem_free(ctx, voff);
            wa_mem_free(ctx, is_mfma);
            wa_mem_free(ctx, ready);
            wa_mem_free(ctx, order);
            wa_mem_free(ctx, remv);
            st = wa_error_nomem(ctx);
            goto out;
        }
        for (unsigned i = 0; i < k && !st; i++) {
            const wa_instr *in = &s->orig[g->nodes[i]];
            is_mfma[i] = (wa_isa(in->op)->flags & WA_IF_MFMA) != 0;
            for (int want_def = 1; want_def >= 0; want_def--) {
                voff[2 * i + (want_def ? 0 : 1)] = nv;
                unsigned n = instr_vregs(in, vr, 64, want_def);
                if (wa_grow(ctx, (void **)&vlist, &capv, nv + n + 1, sizeof(unsigned))) {
                    st = wa_error_nomem(ctx);
                    break;
                }
                memcpy(vlist + nv, vr, n * sizeof(unsigned));
                nv += n;
            }
        }
        voff[2 * k] = nv;
        unsigned nready = 0;
        for (unsigned i = 0; i < k && !st; i++)
            if (!g->npred[i])
                ready[nready++] = i;
        if (st) {
            wa_mem_free(ctx, voff);
            wa_mem_free(ctx, vlist);
            wa_mem_free(ctx, is_mfma);
            wa_mem_free(ctx, ready);
            wa_mem_free(ctx, order);
            wa_mem_free(ctx, remv);
            goto out;
        }
        uint64_t t = 0, mfma_free = 0;
        for (unsigned step = 0; step < k; step++) {
            unsigned best = WA_NONE, bi = 0;
            uint64_t bstart = 0;
            int bover = 1;
            for (unsigned r = 0; r < nready; r++) {
                unsigned i = ready[r];
                uint64_t start = max64(t, g->earliest[i]);
                if (is_mfma[i])
                    start = max64(start, mfma_free);
                /* growth of the local vector registers */
                long d = 0;
                for (unsigned j = voff[2 * i]; j < voff[2 * i + 1]; j++)
                    if (!vc->live[vlist[j]] && LOCAL_V(vlist[j]))
                        d += prog->vregs[vlist[j]].size;
                for (unsigned j = voff[2 * i + 1]; j < voff[2 * i + 2]; j++)
                    if (remv[vlist[j]] == 1 && vc->live[vlist[j]] && LOCAL_V(vlist[j]))
                        d -= prog->vregs[vlist[j]].size;
                int over = cur + d > budget && d > 0;
                int better;
                if (best == WA_NONE)
                    better = 1;
                else if (over != bover)
                    better = !over;
                else if (start != bstart)
                    better = start < bstart;
                else if (g->height[i] != g->height[best])
                    better = g->height[i] > g->height[best];
                else
                    better = i < best;
                if (better) {
                    best = i;
                    bi = r;
                    bstart = start;
                    bover = over;
                }
            }
            ready[bi] = ready[--nready];
            order[step] = best;
            const wa_instr *in = &s->orig[g->nodes[best]];
            unsigned n = instr_vregs(in, vr, 64, 1);
            for (unsigned j = 0; j < n; j++)
                if (LOCAL_V(vr[j]) && !vc->live[vr[j]]) {
                    vc->live[vr[j]] = 1;
                    cur += prog->vregs[vr[j]].size;
                }
            n = instr_vregs(in, vr, 64, 0);
            for (unsigned j = 0; j < n; j++)
                if (remv[vr[j]] && --remv[vr[j]] == 0 && LOCAL_V(vr[j]) && vc->live[vr[j]]) {
                    vc->live[vr[j]] = 0;
                    cur -= prog->vregs[vr[j]].size;
                }
            if (wa_isa(in->op)->flags & WA_IF_MFMA) {
                unsigned passes = wa_isa_mfma_passes(in->op, prog->target);
                mfma_free = bstart + (uint64_t)(passes ? passes : 4) * 4;
            }
            t = bstart + 4;
            uint64_t lat = s->node[g->nodes[best]].latency;
            for (unsigned e = g->soff[best]; e < g->soff[best + 1]; e++) {
                unsigned y = g->sdata[e];
                uint64_t c = bstart + (g->skind[e] == WA_DEP_RAW ? lat : 1);
                g->earliest[y] = max64(g->earliest[y], c);
                if (--g->npred[y] == 0)
                    ready[nready++] = y;
            }
        }
        /* emit the moves: slot by slot, skipping instructions already in place */
        unsigned *cur_order = ready; /* reuse */
        for (unsigned i = 0; i < k; i++)
            cur_order[i] = i;
        for (unsigned i = 0; i < k; i++) {
            unsigned want = order[i];
            if (cur_order[i] == want)
                continue;
            unsigned j = i + 1;
            while (cur_order[j] != want)
                j++;
            if (s->node[g->nodes[want]].flags & WA_SN_PINNED) {
                /* a barrier does not move: what is before it and belongs after it
                   goes after it, last first, so that their order is kept */
                for (unsigned m = j; m-- > i;)
                    wa_sb_printf(sb, "move I%u after I%u\n", wa_sched_tag(s, g->nodes[cur_order[m]]),
                                 wa_sched_tag(s, g->nodes[want]));
                memmove(&cur_order[i + 1], &cur_order[i], (j - i) * sizeof(unsigned));
                cur_order[i] = want;
                continue;
            }
            memmove(&cur_order[i + 1], &cur_order[i], (j - i) * sizeof(unsigned));
            cur_order[i] = want;
            if (i == 0)
                wa_sb_printf(sb, "move I%u before I%u\n", wa_sched_tag(s, g->nodes[want]),
                             wa_sched_tag(s, g->nodes[cur_order[1]]));
            else
                wa_sb_printf(sb, "move I%u after I%u\n", wa_sched_tag(s, g->nodes[want]),
                             wa_sched_tag(s, g->nodes[order[i - 1]]));
        }
        for (unsigned i = 0; i < k; i++) {
            const wa_instr *in2 = &s->orig[g->nodes[i]];
            unsigned n2 = instr_vregs(in2, vr, 64, 0);
            for (unsigned j = 0; j < n2; j++) {
                vc->reads_seg[vr[j]] = 0;
                vc->live[vr[j]] = 0;
            }
            n2 = instr_vregs(in2, vr, 64, 1);
            for (unsigned j = 0; j < n2; j++) {
                vc->defs_seg[vr[j]] = 0;
                vc->live[vr[j]] = 0;
            }
        }
        wa_mem_free(ctx, ready);
        wa_mem_free(ctx, order);
        wa_mem_free(ctx, remv);
        wa_mem_free(ctx, voff);
        wa_mem_free(ctx, vlist);
        wa_mem_free(ctx, is_mfma);
    }
#undef LOCAL_V
#undef PUSH_EDGE
out:
    for (unsigned i = 0; i < k; i++)
        g->local[g->nodes[i]] = WA_NONE;
    wa_mem_free(ctx, g->sdata);
    wa_mem_free(ctx, g->skind);
    g->sdata = g->skind = NULL;
    wa_mem_free(ctx, efrom);
    wa_mem_free(ctx, eto);
    wa_mem_free(ctx, ekind);
    return st;
}

wa_status wa_schedule_heuristic(char **out, size_t *out_len, wa_schedule *s)
{
    if (!out || !s)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = s->ctx;
    wa_diag_reset(ctx);
    const wa_program *prog = s->prog;
    size_t n1 = s->n ? s->n : 1, nv = prog->nvregs ? prog->nvregs : 1;
    seg_state g;
    memset(&g, 0, sizeof(g));
    g.s = s;
    vcount vc;
    memset(&vc, 0, sizeof(vc));
    g.nodes = wa_mem_alloc(ctx, n1 * sizeof(unsigned));
    g.local = wa_mem_alloc(ctx, n1 * sizeof(unsigned));
    g.soff = wa_mem_alloc(ctx, (n1 + 1) * sizeof(unsigned));
    g.npred = wa_mem_alloc(ctx, n1 * sizeof(unsigned));
    g.height = wa_mem_alloc(ctx, n1 * sizeof(uint64_t));
    g.earliest = wa_mem_alloc(ctx, n1 * sizeof(uint64_t));
    vc.reads_prog = wa_mem_calloc(ctx, nv, sizeof(unsigned));
    vc.defs_prog = wa_mem_calloc(ctx, nv, sizeof(unsigned));
    vc.reads_seg = wa_mem_calloc(ctx, nv, sizeof(unsigned));
    vc.defs_seg = wa_mem_calloc(ctx, nv, sizeof(unsigned));
    vc.live = wa_mem_calloc(ctx, nv, 1);
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    wa_status st = WA_OK;
    if (!g.nodes || !g.local || !g.soff || !g.npred || !g.height || !g.earliest ||
        !vc.reads_prog || !vc.defs_prog || !vc.reads_seg || !vc.defs_seg || !vc.live) {
        st = wa_error_nomem(ctx);
        goto out;
    }
    for (unsigned i = 0; i < s->n; i++)
        g.local[i] = WA_NONE;
    {
        unsigned vr[64];
        for (unsigned i = 0; i < prog->ninstrs; i++) {
            unsigned n = instr_vregs(&prog->instrs[i], vr, 64, 0);
            for (unsigned j = 0; j < n; j++)
                vc.reads_prog[vr[j]]++;
            n = instr_vregs(&prog->instrs[i], vr, 64, 1);
            for (unsigned j = 0; j < n; j++)
                vc.defs_prog[vr[j]]++;
        }
    }
    for (unsigned r = 0; r < s->nregions && !st; r++) {
        unsigned b = s->region_block[r];
        g.k = 0;
        for (unsigned i = s->bfirst[b]; i <= s->blast[b] + 1 && !st; i++) {
            int end = i > s->blast[b];
            unsigned nd = end ? WA_NONE : s->at[i];
            if (!end && !(s->node[nd].flags & WA_SN_REAL))
                continue;
            if (end || (s->node[nd].flags & (WA_SN_PINNED | WA_SN_BARRIER)) == WA_SN_PINNED) {
                if (g.k >= 2)
                    st = schedule_segment(&g, &vc, &sb);
                g.k = 0;
                continue;
            }
            g.nodes[g.k++] = nd;
        }
    }
    if (!st) {
        wa_sb_puts(&sb, "done\n");
        st = wa_sb_finish(&sb, out, out_len);
    }
out:
    wa_sb_free(&sb);
    wa_mem_free(ctx, g.nodes);
    wa_mem_free(ctx, g.local);
    wa_mem_free(ctx, g.soff);
    wa_mem_free(ctx, g.npred);
    wa_mem_free(ctx, g.height);
    wa_mem_free(ctx, g.earliest);
    wa_mem_free(ctx, vc.reads_prog);
    wa_mem_free(ctx, vc.defs_prog);
    wa_mem_free(ctx, vc.reads_seg);
    wa_mem_free(ctx, vc.defs_seg);
    wa_mem_free(ctx, vc.live);
    return st;
}

/* ---- the list scheduler as the oracle of the round loop, and as a stage ---------------- */

typedef struct heuristic_payload {
    wa_schedule *s;
    char *last;
} heuristic_payload;

static const char *heuristic_oracle(const char *prompt, void *payload)
{
    heuristic_payload *h = payload;
    (void)prompt;
    wa_free(h->last);
    h->last = NULL;
    if (wa_schedule_heuristic(&h->last, NULL, h->s) != WA_OK)
        return NULL;
    return h->last;
}

wa_status wa_schedule_run_heuristic(wa_sched_result *out, wa_schedule *s, unsigned rounds)
{
    if (!s)
        return WA_E_INVALID;
    heuristic_payload h = { s, NULL };
    wa_sched_run_options ro = WA_SCHED_RUN_OPTIONS_INIT;
    ro.rounds = rounds ? rounds : 2;
    wa_status st = wa_schedule_run(out, s, heuristic_oracle, &h, &ro);
    wa_free(h.last);
    return st;
}

wa_status wa_sched_stage_run(wa_program *prog, wa_pass_stats *stats,
                             const wa_schedule_options *opts, unsigned rounds)
{
    if (!prog)
        return WA_E_INVALID;
    wa_pass_stats local;
    wa_pass_stats *ps = wa_stats_begin(stats, &local, prog);
    wa_schedule *s = NULL;
    wa_status st = wa_schedule_create(&s, prog, opts);
    if (!st && s->nregions) {
        wa_sched_result res;
        st = wa_schedule_run_heuristic(&res, s, rounds);
        unsigned moved = 0;
        for (unsigned i = 0; i < s->n; i++)
            moved += s->at[i] != i;
        ps->changed = moved;
        ps->iterations = res.rounds;
    }
    wa_schedule_destroy(s);
    wa_stats_end(ps, prog);
    return st;
}

wa_status wa_stage_schedule(wa_program *prog, wa_pass_stats *stats, void *payload)
{
    return wa_sched_stage_run(prog, stats, payload, 0);
}
