/* tests/unit/simdiff.c — the differential harness (see simdiff.h). */
#include "simdiff.h"

#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sd_config_default(sd_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->seeds = 3;
    cfg->first_seed = 1;
    cfg->buffer_bytes = 64 * 1024;
    cfg->by_value = 64;
    cfg->grid[0] = cfg->grid[1] = cfg->grid[2] = 1;
    cfg->max_instructions = 200000;
    cfg->timing = -1;
    cfg->after_timing = SD_AS_BEFORE;
}

typedef struct bufs {
    unsigned n;
    uint8_t **data;
} bufs;

static void bufs_free(bufs *b)
{
    for (unsigned i = 0; i < b->n; i++)
        free(b->data[i]);
    free(b->data);
    b->data = NULL;
    b->n = 0;
}

/* A simulator for `prog` with its arguments set; NULL on failure (message in err). */
static wa_sim *make_sim(const wa_program *prog, const sd_config *cfg, uint64_t seed, int timing,
                        int hazards, uint64_t max_instructions, bufs *b, char *err, size_t errn)
{
    wa_context *ctx = wa_program_context(prog);
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.flags = WA_SIM_PERMISSIVE | WA_SIM_CLOCK_UNDEFINED | (timing ? WA_SIM_TIMING : 0) |
              (hazards ? WA_SIM_HAZARDS : 0);
    o.seed = seed;
    memcpy(o.grid, cfg->grid, sizeof(o.grid));
    o.max_instructions = max_instructions;
    wa_sim *sim = NULL;
    if (wa_sim_create(&sim, prog, &o) != WA_OK) {
        snprintf(err, errn, "wa_sim_create: %s", wa_context_last_error(ctx));
        return NULL;
    }
    unsigned na = wa_program_arg_count(prog);
    b->n = na;
    b->data = calloc(na + 1, sizeof(uint8_t *));
    for (unsigned a = 0; a < na; a++) {
        wa_kernel_arg arg;
        if (wa_program_arg(&arg, prog, a) != WA_OK)
            continue;
        if (arg.kind == WA_ARG_GLOBAL_BUFFER) {
            b->data[a] = malloc(cfg->buffer_bytes);
            for (size_t i = 0; i < cfg->buffer_bytes; i++)
                b->data[a][i] = (uint8_t)((i * 31u + a * 7u + 3u) >> 2);
            wa_sim_bind_buffer(sim, a, b->data[a], cfg->buffer_bytes);
        } else if (arg.kind == WA_ARG_BY_VALUE) {
            uint8_t v[64];
            memset(v, 0, sizeof(v));
            memcpy(v, &cfg->by_value, sizeof(cfg->by_value) < arg.size ? sizeof(cfg->by_value) : arg.size);
            if (arg.size <= sizeof(v))
                wa_sim_set_arg(sim, a, v, arg.size);
        }
    }
    return sim;
}

static void fail(sd_result *res, const char *fmt, ...) UT_PRINTF(2, 3);
static void fail(sd_result *res, const char *fmt, ...)
{
    if (res->failures++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(res->first_failure, sizeof(res->first_failure), fmt, ap);
        va_end(ap);
    }
}

unsigned sd_compare(const wa_program *before, const wa_program *after, const sd_config *cfg,
                    sd_result *res)
{
    unsigned f0 = res->failures;
    wa_context *cb = wa_program_context(before), *ca = wa_program_context(after);
    int timing = cfg->timing;
    for (unsigned s = 0; s < cfg->seeds; s++) {
        uint64_t seed = cfg->first_seed + s;
        char err[256] = "";
        bufs b1 = { 0, NULL }, b2 = { 0, NULL };
        int t = timing < 0 ? 1 : timing;
        wa_sim *s1 = make_sim(before, cfg, seed, t, 0, cfg->max_instructions, &b1, err,
                              sizeof(err));
        wa_status st1 = s1 ? wa_sim_run(s1) : WA_E_INVALID;
        if (timing < 0 && st1 == WA_E_SIM_WAIT) {
            /* a program without the waits it would need: run it synchronously */
            wa_sim_destroy(s1);
            bufs_free(&b1);
            timing = 0;
            t = 0;
            s1 = make_sim(before, cfg, seed, t, 0, cfg->max_instructions, &b1, err,
                          sizeof(err));
            st1 = s1 ? wa_sim_run(s1) : WA_E_INVALID;
        }
        if (st1 != WA_OK) {
            if (res->skipped++ == 0)
                snprintf(res->first_skip, sizeof(res->first_skip), "%s",
                         s1 ? wa_context_last_error(cb) : err);
            wa_sim_destroy(s1);
            bufs_free(&b1);
            continue;
        }
        wa_sim_stats ss;
        wa_sim_get_stats(&ss, s1);
        if (ss.undefined_addresses) {
            res->inconclusive++;
            wa_sim_destroy(s1);
            bufs_free(&b1);
            continue;
        }
        int t2 = cfg->after_timing == SD_AS_BEFORE ? t : cfg->after_timing;
        uint64_t limit2 = cfg->after_max_instructions ? cfg->after_max_instructions
                                                      : cfg->max_instructions;
        wa_sim *s2 = make_sim(after, cfg, seed, t2, cfg->after_hazards, limit2, &b2, err,
                              sizeof(err));
        wa_status st2 = s2 ? wa_sim_run(s2) : WA_E_INVALID;
        res->runs++;
        if (st2 != WA_OK) {
            fail(res, "the transformed program fails: %s (seed %llu)",
                 s2 ? wa_context_last_error(ca) : err, (unsigned long long)seed);
        } else {
            unsigned diffs = 0;
            if (wa_sim_compare(&diffs, s1, s2) != WA_OK) {
                char notes[400] = "";
                size_t len = 0;
                for (unsigned i = 0; i < wa_context_diag_count(cb) && len + 80 < sizeof(notes); i++)
                    len += (size_t)snprintf(notes + len, sizeof(notes) - len, " | %s",
                                            wa_context_diag(cb, i)->message);
                fail(res, "memory differs after the transformation%s (seed %llu)", notes,
                     (unsigned long long)seed);
            }
        }
        wa_sim_destroy(s1);
        wa_sim_destroy(s2);
        bufs_free(&b1);
        bufs_free(&b2);
    }
    return res->failures - f0;
}

wa_status sd_pass_regalloc(wa_program **out, const wa_program *in)
{
    wa_program *copy = NULL;
    wa_status st = wa_program_clone(&copy, in);
    if (st)
        return st;
    wa_regalloc_result *ra = NULL;
    st = wa_regalloc_run(&ra, copy, NULL);
    if (st == WA_OK)
        st = wa_regalloc_apply(copy, ra, NULL);
    wa_regalloc_destroy(ra);
    if (st) {
        wa_program_destroy(copy);
        return st;
    }
    *out = copy;
    return WA_OK;
}

/* Clones `in` and runs `fn` on the copy. */
typedef wa_status (*inplace_fn)(wa_program *prog);

static wa_status on_copy(wa_program **out, const wa_program *in, inplace_fn fn)
{
    wa_program *copy = NULL;
    wa_status st = wa_program_clone(&copy, in);
    if (st)
        return st;
    st = fn(copy);
    if (st) {
        wa_program_destroy(copy);
        return st;
    }
    *out = copy;
    return WA_OK;
}

static wa_status run_waitcnt(wa_program *p) { return wa_pass_waitcnt(p, NULL, NULL); }
static wa_status run_hazards(wa_program *p) { return wa_pass_hazards(p, NULL, NULL); }
static wa_status run_peephole(wa_program *p) { return wa_pass_peephole(p, NULL, NULL); }
static wa_status run_cse(wa_program *p) { return wa_pass_cse(p, NULL, NULL); }
static wa_status run_pipeline(wa_program *p) { return wa_compile(p, NULL); }

wa_status sd_pass_waitcnt(wa_program **out, const wa_program *in) { return on_copy(out, in, run_waitcnt); }
wa_status sd_pass_hazards(wa_program **out, const wa_program *in) { return on_copy(out, in, run_hazards); }
wa_status sd_pass_peephole(wa_program **out, const wa_program *in) { return on_copy(out, in, run_peephole); }
wa_status sd_pass_cse(wa_program **out, const wa_program *in) { return on_copy(out, in, run_cse); }
wa_status sd_pass_pipeline(wa_program **out, const wa_program *in) { return on_copy(out, in, run_pipeline); }

static wa_status strip(wa_program *p)
{
    for (unsigned i = wa_program_size(p); i-- > 0;) {
        wa_instr_view v;
        if (wa_program_get(&v, p, i) != WA_OK)
            return WA_E_INTERNAL;
        if (v.opcode == WA_OP_S_WAITCNT || v.opcode == WA_OP_S_NOP) {
            wa_status st = wa_program_erase(p, i);
            if (st)
                return st;
        }
    }
    return WA_OK;
}

wa_status sd_strip_waits_and_nops(wa_program **out, const wa_program *in)
{
    return on_copy(out, in, strip);
}

unsigned sd_check_pass(const wa_program *prog, sd_pass_fn pass, const char *name,
                       const sd_config *cfg, sd_result *res)
{
    wa_program *after = NULL;
    wa_status st = pass(&after, prog);
    if (st != WA_OK) {
        if (res->failures++ == 0)
            snprintf(res->first_failure, sizeof(res->first_failure), "%s failed: %s", name,
                     wa_context_last_error(wa_program_context(prog)));
        return 1;
    }
    wa_context *ca = wa_program_context(after);
    unsigned f0 = res->failures, errors = 0;
    if ((cfg->checks & SD_CHECK_WAITCNT) && wa_check_waitcnt(&errors, after, NULL) != WA_OK)
        fail(res, "%s: wa_check_waitcnt finds %u problem(s) in the output: %s", name, errors,
             wa_context_last_error(ca));
    if ((cfg->checks & SD_CHECK_HAZARDS) && wa_check_hazards(&errors, after, NULL) != WA_OK)
        fail(res, "%s: wa_check_hazards finds %u problem(s) in the output: %s", name, errors,
             wa_context_last_error(ca));
    sd_compare(prog, after, cfg, res);
    wa_program_destroy(after);
    return res->failures - f0;
}
