/* lib/conductor/rounds.c — the round loop: ask the oracle, apply its commands,
   measure, keep the state if it is better, revert otherwise. */
#include "conductor_internal.h"

#include <stdio.h>
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
    /* the cache: key from the tagged text before any move */
    char key[65], dir[4096], cache_msg[600];
    cache_msg[0] = '\0';
    int use_cache = 0;
    if (ro.flags & WA_SCHED_RUN_CACHE) {
        use_cache = wa_sched_cache_dir(dir, sizeof(dir), ro.cache_dir);
        if (!use_cache)
            snprintf(cache_msg, sizeof(cache_msg),
                     "no cache directory (neither XDG_CACHE_HOME nor HOME is set): cache unused");
        else if (wa_sched_cache_key(key, s) != WA_OK)
            use_cache = 0;
    }
    wa_status st = wa_schedule_measure(&res.baseline, s);
    if (st)
        return st;
    res.best = res.baseline;
    unsigned *best = wa_mem_alloc(ctx, (s->n ? s->n : 1) * sizeof(unsigned));
    if (!best)
        return wa_error_nomem(ctx);
    memcpy(best, s->at, s->n * sizeof(unsigned));
    wa_sb kept_moves;
    wa_sb_init(&kept_moves, ctx);
    if (use_cache) {
        char *moves = NULL;
        int found = wa_sched_cache_load(s, dir, key, &moves, cache_msg, sizeof(cache_msg));
        if (found == 1) {
            wa_sched_round r;
            wa_sched_metrics m;
            if (wa_schedule_apply(&r, s, moves, strlen(moves)) == WA_OK &&
                wa_schedule_measure(&m, s) == WA_OK && !wa_sched_metrics_better(s, &res.best, &m)) {
                res.best = m;
                res.cache_hit = 1;
                memcpy(best, s->at, s->n * sizeof(unsigned));
            } else {
                snprintf(cache_msg, sizeof(cache_msg),
                         "cache entry %s: its moves do not apply or do not help: ignored", key);
                wa_sched_set_order(s, best);
            }
            wa_diag_reset(ctx);
        }
        wa_mem_free(ctx, moves);
    }
    for (unsigned round = 1; round <= budget && !res.cache_hit; round++) {
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
                wa_sb_putn(&kept_moves, s->last_cmds.data ? s->last_cmds.data : "",
                           s->last_cmds.len);
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
    if (use_cache && !res.cache_hit && !st) {
        wa_sb_putc(&kept_moves, '\0');
        if (wa_sched_cache_store(s, dir, key, kept_moves.data ? kept_moves.data : "", &res.best,
                                 res.rounds))
            snprintf(cache_msg, sizeof(cache_msg), "cannot write the cache entry %s in %.400s", key,
                     dir);
    }
    wa_sb_free(&kept_moves);
    if (cache_msg[0]) {
        wa_diag_reset(ctx);
        wa_warning(ctx, WA_LOC_NONE, "%s", cache_msg);
    }
    if (out)
        *out = res;
    return st;
}
