/* lib/conductor/beam.c — beam search over move sequences: P agents, each its
   own order of the program, run K rounds of their oracle; at each checkpoint
   the best k survive and the pool is refilled with copies of them. The
   library links no thread library, so the agents take turns on the one
   schedule (their orders are swapped in and out); the result depends only on
   the options and on what the oracle answers. */
#include "conductor_internal.h"

#include <string.h>

typedef struct agent {
    unsigned *at;              /* its order (item -> node) */
    wa_sched_metrics best;     /* metrics of that order */
    char *report;              /* its last round's report (for its next prompt) */
} agent;

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static void set_report(wa_schedule *s, const char *text)
{
    s->report.len = 0;
    if (s->report.data)
        s->report.data[0] = '\0';
    s->have_report = text && text[0];
    if (s->have_report)
        wa_sb_puts(&s->report, text);
}

static char *save_report(wa_schedule *s)
{
    return wa_mem_strdup(s->ctx, s->have_report && s->report.data ? s->report.data : "");
}

wa_status wa_schedule_beam(wa_sched_result *out, wa_schedule *s, wa_sched_agent_oracle oracle,
                           void *payload, const wa_sched_beam_options *opts)
{
    if (!s || !oracle)
        return WA_E_INVALID;
    wa_context *ctx = s->ctx;
    wa_diag_reset(ctx);
    wa_sched_beam_options bo = WA_SCHED_BEAM_OPTIONS_INIT;
    if (opts) {
        wa_status vst = wa_check_options_version(ctx, opts->version, WA_SCHED_BEAM_OPTIONS_VERSION,
                                                 "wa_sched_beam_options");
        if (vst)
            return vst;
        bo = *opts;
    }
    unsigned P = bo.agents ? bo.agents : 4, K = bo.interval ? bo.interval : 2;
    unsigned keep = bo.keep ? bo.keep : 2, checkpoints = bo.checkpoints ? bo.checkpoints : 3;
    if (P > 64)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "wa_sched_beam_options: at most 64 agents");
    if (keep > P)
        keep = P;
    wa_sched_result res;
    memset(&res, 0, sizeof(res));
    res.version = WA_SCHED_RESULT_VERSION;
    wa_status st = wa_schedule_measure(&res.baseline, s);
    if (st)
        return st;
    res.best = res.baseline;
    agent ag[64], next[64];
    memset(ag, 0, sizeof(ag));
    memset(next, 0, sizeof(next));
    size_t bytes = (s->n ? s->n : 1) * sizeof(unsigned);
    unsigned *start = wa_mem_alloc(ctx, bytes);
    unsigned *best_at = wa_mem_alloc(ctx, bytes);
    if (!start || !best_at) {
        st = wa_error_nomem(ctx);
        goto out;
    }
    memcpy(start, s->at, s->n * sizeof(unsigned));
    memcpy(best_at, s->at, s->n * sizeof(unsigned));
    for (unsigned a = 0; a < P; a++) {
        ag[a].at = wa_mem_alloc(ctx, bytes);
        next[a].at = wa_mem_alloc(ctx, bytes);
        if (!ag[a].at || !next[a].at) {
            st = wa_error_nomem(ctx);
            goto out;
        }
        memcpy(ag[a].at, start, s->n * sizeof(unsigned));
        ag[a].best = res.baseline;
    }
    unsigned round_no = 0;
    for (unsigned cp = 0; cp < checkpoints && !st; cp++) {
        for (unsigned a = 0; a < P && !st; a++) {
            wa_sched_set_order(s, ag[a].at);
            set_report(s, ag[a].report);
            for (unsigned k = 0; k < K; k++) {
                char *prompt = NULL;
                st = wa_schedule_print(&prompt, NULL, s, &ag[a].best);
                if (st)
                    break;
                uint64_t seed = mix(bo.seed ^ mix(((uint64_t)a << 32) | (cp * K + k)));
                const char *answer = oracle(prompt, a, seed, payload);
                wa_free(prompt);
                if (!answer)
                    break;
                res.rounds++;
                round_no++;
                wa_sched_round r;
                if (wa_schedule_apply(&r, s, answer, strlen(answer)) != WA_OK) {
                    res.failed++;
                    wa_diag_reset(ctx);
                    continue;
                }
                if (!r.commands)
                    continue;
                wa_sched_metrics m;
                if (wa_schedule_measure(&m, s) == WA_OK &&
                    wa_sched_metrics_better(s, &m, &ag[a].best)) {
                    ag[a].best = m;
                    memcpy(ag[a].at, s->at, s->n * sizeof(unsigned));
                    res.kept++;
                } else {
                    wa_diag_reset(ctx);
                    wa_sched_set_order(s, ag[a].at);
                    res.regressed++;
                    wa_sb_puts(&s->report, "round did not improve the metrics: reverted\n");
                }
            }
            wa_mem_free(ctx, ag[a].report);
            ag[a].report = save_report(s);
            if (!ag[a].report)
                st = wa_error_nomem(ctx);
        }
        if (st)
            break;
        /* checkpoint: rank (stable: the lower index first on a tie), keep the top k,
           refill the pool with copies of them in rank order */
        unsigned rank[64];
        for (unsigned a = 0; a < P; a++)
            rank[a] = a;
        for (unsigned i = 1; i < P; i++)
            for (unsigned j = i; j > 0 && wa_sched_metrics_better(s, &ag[rank[j]].best,
                                                                   &ag[rank[j - 1]].best); j--) {
                unsigned t = rank[j];
                rank[j] = rank[j - 1];
                rank[j - 1] = t;
            }
        if (wa_sched_metrics_better(s, &ag[rank[0]].best, &res.best)) {
            res.best = ag[rank[0]].best;
            memcpy(best_at, ag[rank[0]].at, s->n * sizeof(unsigned));
        }
        for (unsigned a = 0; a < P; a++) {
            const agent *src = &ag[rank[a % keep]];
            memcpy(next[a].at, src->at, s->n * sizeof(unsigned));
            next[a].best = src->best;
            wa_mem_free(ctx, next[a].report);
            next[a].report = wa_mem_strdup(ctx, src->report ? src->report : "");
        }
        for (unsigned a = 0; a < P; a++) {
            agent t = ag[a];
            ag[a] = next[a];
            next[a] = t;
        }
    }
    (void)round_no;
    wa_sched_set_order(s, best_at);
    set_report(s, NULL);
out:
    for (unsigned a = 0; a < 64; a++) {
        wa_mem_free(ctx, ag[a].at);
        wa_mem_free(ctx, next[a].at);
        wa_mem_free(ctx, ag[a].report);
        wa_mem_free(ctx, next[a].report);
    }
    wa_mem_free(ctx, start);
    wa_mem_free(ctx, best_at);
    if (out && !st)
        *out = res;
    return st;
}
