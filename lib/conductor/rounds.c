/* lib/conductor/rounds.c — the round loop: ask the oracle, apply its commands,
   measure, keep the state if it is better, revert otherwise. */
#include "conductor_internal.h"

#include <string.h>

wa_status wa_schedule_run(wa_sched_result *out, wa_schedule *s, wa_sched_oracle oracle,
                          void *oracle_payload, const wa_sched_run_options *opts)
{
    if (!s || !oracle)
        return WA_E_INVALID;
    wa_context *ctx = s->ctx;
    wa_diag_reset(ctx);
    wa_sched_run_options ro = WA_SCHED_RUN_OPTIONS_INIT;
    if (opts) {
        wa_status vst = wa_check_options_version(ctx, opts->version, WA_SCHED_RUN_OPTIONS_VERSION,
                                                 "wa_sched_run_options");
        if (vst)
            return vst;
        ro = *opts;
    }
    unsigned budget = ro.rounds ? ro.rounds : 8;
    wa_sched_result res;
    memset(&res, 0, sizeof(res));
    res.version = WA_SCHED_RESULT_VERSION;
    wa_status st = wa_schedule_measure(&res.baseline, s);
    if (st)
        return st;
    res.best = res.baseline;
    unsigned *best = wa_mem_alloc(ctx, (s->n ? s->n : 1) * sizeof(unsigned));
    if (!best)
        return wa_error_nomem(ctx);
    memcpy(best, s->at, s->n * sizeof(unsigned));
    for (unsigned round = 1; round <= budget; round++) {
        char *prompt = NULL;
        st = wa_schedule_print(&prompt, NULL, s, &res.best);
        if (st)
            break;
        const char *answer = oracle(prompt, oracle_payload);
        wa_free(prompt);
        if (!answer)
            break;
        res.rounds++;
        wa_sched_round r;
        wa_status ast = wa_schedule_apply(&r, s, answer, strlen(answer));
        int kept = 0;
        wa_sched_metrics m = res.best;
        if (ast) {
            res.failed++;
            wa_diag_reset(ctx); /* reported to the oracle, not the host's error */
        } else if (r.commands) {
            wa_status mst = wa_schedule_measure(&m, s);
            if (mst == WA_OK && wa_sched_metrics_better(s, &m, &res.best)) {
                res.best = m;
                memcpy(best, s->at, s->n * sizeof(unsigned));
                res.kept++;
                kept = 1;
            } else {
                /* a regression (or a state that does not compile) is undone */
                wa_diag_reset(ctx);
                wa_sched_set_order(s, best);
                res.regressed++;
                wa_sb_puts(&s->report, mst == WA_OK ? "round did not improve the metrics: reverted\n"
                                                    : "round's state did not compile: reverted\n");
                m = res.best;
            }
        }
        if (ro.progress)
            ro.progress(round, &r, &m, kept, ro.progress_payload);
        if (r.done && !ast)
            break;
    }
    wa_sched_set_order(s, best);
    wa_mem_free(ctx, best);
    if (out)
        *out = res;
    return st;
}
