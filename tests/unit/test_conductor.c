/* tests/unit/test_conductor.c — the Conductor: command text, every check of a
   move, every warning, rounds reverted on an invalid command and on a
   regression, and schedules (the list scheduler's, random command streams')
   that compile, pass the checkers and compute what the input computes in the
   simulator (simdiff.h) on random programs, the examples and GEMM kernels. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv, popen, strdup */
#include "check.h"
#include "randprog.h"
#include "simdiff.h"
#include "util.h"

#ifdef WAVEASM_HAVE_GEMM_GEN
#include "gemm_gen.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Tags follow the instruction order: the first instruction of the body is I0. */
static const char *const body_main =
    "  .lds_bytes 256\n"
    "  s_load_dwordx4 %s1<4,align=4>, s[0:1], 0\n"      /* I0 */
    "  s_waitcnt lgkmcnt(0)\n"                          /* I1 pinned */
    "  v_mov_b32 %v2, 0\n"                              /* I2 */
    "  v_mov_b32 %v3, 4\n"                              /* I3 */
    "  buffer_load_dword %v4, %v2, %s1, 0 offen\n"      /* I4 */
    "  buffer_store_dword %v3, %v2, %s1, 0 offen offset:4\n" /* I5 disjoint from I4 */
    "  buffer_store_dword %v3, %v2, %s1, 0 offen\n"     /* I6 same bytes as I4 */
    "  buffer_load_dword %v5, %v3, %s1, 0 offen\n"      /* I7 may alias I6 */
    "  v_add_u32 %v6, %v4, %v5\n"                       /* I8 */
    "  s_add_u32 %s7, %s1[0], 1\n"                      /* I9 writes scc */
    "  s_cmp_eq_u32 %s1[1], 0\n"                        /* I10 writes scc */
    "  s_cselect_b32 %s8, 1, 0\n"                       /* I11 reads scc */
    "  s_add_u32 %s12, %s7, 2\n"                        /* I12 writes scc */
    "  ds_write_b32 %v2, %v6\n"                         /* I13 */
    "  s_barrier\n"                                     /* I14 pinned */
    "  ds_read_b32 %v9, %v2\n"                          /* I15 */
    "  v_mov_b32 %v10, 1\n"                             /* I16 */
    "  buffer_store_dword %v9, %v2, %s1, 0 offen offset:8\n"  /* I17 */
    "  buffer_store_dword %v10, %v3, %s1, 0 offen offset:12\n" /* I18 may alias I17 */
    "  buffer_atomic_add %v10, %v2, %s1, 0 offen offset:64\n" /* I19 */
    "  s_dcache_wb\n"                                   /* I20 side effects */
    "  v_mov_b32 %v11, 3\n"                             /* I21 */
    "  s_endpgm\n";                                     /* I22 */

typedef struct fixture {
    wa_context *ctx;
    wa_program *prog;
    wa_schedule *s;
    char *before;
} fixture;

static int fx_open(fixture *f, const char *body, unsigned flags, unsigned distance)
{
    memset(f, 0, sizeof(*f));
    f->ctx = ut_context_new(WA_TARGET_GFX942);
    if (!CHECK_OK(ut_parse_body(&f->prog, f->ctx, "gfx942", body)))
        return 0;
    wa_schedule_options o = WA_SCHEDULE_OPTIONS_INIT;
    o.flags = flags;
    o.address_distance = distance;
    if (!CHECK_OK(wa_schedule_create(&f->s, f->prog, &o)))
        return 0;
    f->before = ut_print(f->prog);
    return f->before != NULL;
}

static void fx_close(fixture *f)
{
    wa_schedule_destroy(f->s);
    wa_program_destroy(f->prog);
    wa_free(f->before);
    wa_context_destroy(f->ctx);
}

/* Applies `cmds`; returns the status. */
static wa_status fx_apply(fixture *f, const char *cmds, wa_sched_round *r)
{
    return wa_schedule_apply(r, f->s, cmds, strlen(cmds));
}

/* The program as it was when the fixture opened? */
static int fx_unchanged(const fixture *f)
{
    char *now = ut_print(f->prog);
    int same = now && strcmp(now, f->before) == 0;
    wa_free(now);
    return same;
}

/* An invalid command: WA_E_INVALID, the reason in the report and on the
   context, nothing changed. */
static void expect_invalid(const char *cmds, const char *reason, unsigned flags)
{
    fixture f;
    if (fx_open(&f, body_main, flags, 0)) {
        wa_sched_round r;
        ut_context("%s", cmds);
        CHECK_STATUS(fx_apply(&f, cmds, &r), WA_E_INVALID);
        CHECK_STR_CONTAINS(wa_schedule_report(f.s), reason);
        CHECK(ut_find_diag(f.ctx, reason) != NULL);
        CHECK_EQ_INT(r.failed, 0);
        CHECK(fx_unchanged(&f));
        ut_context("%s", "");
    }
    fx_close(&f);
}

static void tags_and_pinned(void)
{
    expect_invalid("move I99 after I2\n", "no instruction I99", 0);
    expect_invalid("move I2 after I77\n", "no instruction I77", 0);
    expect_invalid("move I1 after I3\n", "I1 (s_waitcnt) is pinned", 0);
    expect_invalid("move I14 before I13\n", "I14 (s_barrier) is pinned", 0);
    expect_invalid("move I22 before I21\n", "is pinned", 0);
    expect_invalid("swap I21 I22\n", "I22 (s_endpgm) is pinned", 0);
    expect_invalid("move I21 after I22\n", "past the block's terminator I22", 0);
    expect_invalid("move I2 after I2\n", "named twice", 0);
}

static void register_dependences(void)
{
    /* a use stays after its definition, both ways of moving */
    expect_invalid("move I8 before I4\n", "I8 reads %v4", 0);
    expect_invalid("move I2 after I4\n", "I4 reads %v2", 0);
    /* implicit SCC of the ISA table: read after write, write after write, write after read */
    expect_invalid("move I11 before I10\n", "reads scc defined by I10", 0);
    expect_invalid("move I9 after I10\n", "writes scc after I9", 0);
    expect_invalid("move I12 before I11\n", "writes scc that I11 reads", 0);
}

static void exec_dependence(void)
{
    fixture f;
    if (fx_open(&f,
                "  v_mov_b32 %v1, 1\n"              /* I0 */
                "  s_mov_b64 exec, -1\n"            /* I1 */
                "  v_mov_b32 %v2, 2\n"              /* I2 */
                "  s_endpgm\n",
                0, 0)) {
        wa_sched_round r;
        CHECK_STATUS(fx_apply(&f, "move I2 before I1\n", &r), WA_E_INVALID);
        CHECK_STR_CONTAINS(wa_schedule_report(f.s), "exec_lo");
        CHECK_STATUS(fx_apply(&f, "move I0 after I1\n", &r), WA_E_INVALID);
        CHECK(fx_unchanged(&f));
        /* two lane-wise instructions that only read EXEC may swap */
        CHECK_OK(fx_apply(&f, "swap I0 I1\n", &r) == WA_E_INVALID ? WA_OK : WA_E_INTERNAL);
    }
    fx_close(&f);
}

static void blocks(void)
{
    fixture f;
    if (fx_open(&f,
                "  v_mov_b32 %v1, 1\n"              /* I0 */
                "  v_mov_b32 %v2, 2\n"              /* I1 */
                "  s_branch next\n"                 /* I2 */
                "next:\n"
                "  v_mov_b32 %v3, 3\n"              /* I3 */
                "  v_mov_b32 %v4, 4\n"              /* I4 */
                "  s_endpgm\n",
                0, 0)) {
        wa_sched_round r;
        CHECK_STATUS(fx_apply(&f, "move I3 before I1\n", &r), WA_E_INVALID);
        CHECK_STR_CONTAINS(wa_schedule_report(f.s), "different basic blocks");
        CHECK(fx_unchanged(&f));
        CHECK_OK(fx_apply(&f, "swap I3 I4\n", &r));
        CHECK_EQ_UINT(wa_schedule_region_count(f.s), 2);
        char *now = ut_print(f.prog);
        CHECK(now && strstr(now, "next:\n  v_mov_b32 %v4, 4") != NULL);
        wa_free(now);
    }
    fx_close(&f);
}

static void memory_order(void)
{
    /* the same bytes: an error whatever the mode */
    expect_invalid("move I6 before I4\n", "access the same global memory", 0);
    expect_invalid("move I6 before I4\n", "access the same global memory", WA_SCHED_MEMORY_WARN);
    /* may alias: an error by default */
    expect_invalid("move I7 before I6\n", "may access the same global memory", 0);
    /* atomics keep their order even when the mode allows may-alias moves */
    expect_invalid("move I19 before I18\n", "may access the same", WA_SCHED_MEMORY_WARN);
    /* LDS and memory operations do not cross a barrier */
    expect_invalid("move I15 before I13\n", "cannot cross the barrier I14", 0);
    expect_invalid("move I13 after I15\n", "cannot cross the barrier I14", 0);
    /* nothing crosses other side effects */
    expect_invalid("move I21 before I19\n", "(s_dcache_wb has side effects)", 0);
    /* provably disjoint: same descriptor and address register, offsets 0 and 4 */
    fixture f;
    if (fx_open(&f, body_main, 0, 0)) {
        wa_sched_round r;
        CHECK_OK(fx_apply(&f, "move I5 before I4\n", &r));
        CHECK_EQ_UINT(r.warnings, 0);
        CHECK_EQ_UINT(r.applied, 1);
        CHECK(!fx_unchanged(&f));
        /* and back again */
        CHECK_OK(fx_apply(&f, "move I4 before I5\n", &r));
        CHECK(fx_unchanged(&f));
    }
    fx_close(&f);
}

static void expect_warning(const char *cmds, unsigned flags, unsigned distance,
                           wa_sched_severity sev, const char *text)
{
    fixture f;
    if (fx_open(&f, body_main, flags, distance)) {
        wa_sched_round r;
        ut_context("%s", cmds);
        CHECK_OK(fx_apply(&f, cmds, &r));
        int found = 0;
        for (unsigned i = 0; i < r.warnings; i++) {
            wa_sched_warning w;
            if (CHECK_OK(wa_schedule_warning(&w, f.s, i)) && w.severity == sev &&
                strstr(w.message, text))
                found = 1;
        }
        CHECK_MSG(found, "no warning '%s' (severity %d): report:\n%s", text, (int)sev,
                  wa_schedule_report(f.s));
        CHECK(!fx_unchanged(&f));
        ut_context("%s", "");
    }
    fx_close(&f);
}

static void warnings(void)
{
    expect_warning("move I7 before I6\n", WA_SCHED_MEMORY_WARN, 0, WA_SCHED_WARN,
                   "read I7 moved past write I6 that may access the same global memory");
    expect_warning("swap I17 I18\n", WA_SCHED_MEMORY_WARN, 0, WA_SCHED_CRITICAL,
                   "that may access the same global memory");
    expect_warning("move I16 before I13\n", 0, 0, WA_SCHED_WARN,
                   "I16 (v_mov_b32) moved past the barrier I14");
    expect_warning("move I2 before I0\n", 0, 2, WA_SCHED_INFO,
                   "address computation I2 moved 4 instructions away from its consumer I4");
    /* the report names the severity and the command */
    fixture f;
    if (fx_open(&f, body_main, 0, 0)) {
        wa_sched_round r;
        CHECK_OK(fx_apply(&f, "move I16 before I13\n", &r));
        CHECK_STR_CONTAINS(wa_schedule_report(f.s), "warn: move I16 before I13 -- ");
    }
    fx_close(&f);
}

static void command_text(void)
{
    fixture f;
    if (fx_open(&f, body_main, 0, 0)) {
        wa_sched_round r;
        CHECK_STATUS(fx_apply(&f, "move I5 afterr I4\n", &r), WA_E_PARSE);
        CHECK_LAST_DIAG(f.ctx, WA_E_PARSE, "expected|after|before", 1, 9, UT_ANY);
        CHECK_STATUS(fx_apply(&f, "move I5 before I4\n\n  swap I2\n", &r), WA_E_PARSE);
        CHECK_LAST_DIAG(f.ctx, WA_E_PARSE, "instruction tag", 3, 10, UT_ANY);
        CHECK_STATUS(fx_apply(&f, "jump I5\n", &r), WA_E_PARSE);
        CHECK_LAST_DIAG(f.ctx, WA_E_PARSE, "expected 'move'", 1, 1, UT_ANY);
        CHECK_STATUS(fx_apply(&f, "move I5 before I4 now\n", &r), WA_E_PARSE);
        CHECK_LAST_DIAG(f.ctx, WA_E_PARSE, "unexpected text", 1, 19, UT_ANY);
        CHECK_STATUS(fx_apply(&f, "move Ix before I4\n", &r), WA_E_PARSE);
        CHECK(fx_unchanged(&f));
        /* comments, @-tags, fences, done (and nothing after it) */
        CHECK_OK(fx_apply(&f, "```\n# a comment\nmove @I5 before I4  # why\ndone\nmove I99 after I0\n```\n",
                          &r));
        CHECK_EQ_UINT(r.commands, 1);
        CHECK_EQ_INT(r.done, 1);
        CHECK(!fx_unchanged(&f));
    }
    fx_close(&f);
}

static void revert_on_error(void)
{
    fixture f;
    if (fx_open(&f, body_main, 0, 0)) {
        wa_sched_round r;
        CHECK_STATUS(fx_apply(&f,
                              "move I5 before I4\nmove I16 before I15\nmove I8 before I4\n"
                              "move I3 before I2\n",
                              &r),
                     WA_E_INVALID);
        CHECK_EQ_INT(r.failed, 2);
        CHECK_EQ_UINT(r.applied, 2);
        CHECK_EQ_UINT(r.commands, 4);
        const char *rep = wa_schedule_report(f.s);
        CHECK_STR_CONTAINS(rep, "applied: move I5 before I4, move I16 before I15\n");
        CHECK_STR_CONTAINS(rep, "failed: move I8 before I4 -- I8 reads %v4 defined by I4");
        CHECK_STR_CONTAINS(rep, "all commands of the round reverted");
        /* the failing line is located */
        CHECK_LAST_DIAG(f.ctx, WA_E_INVALID, "I8 reads", 3, 1, 8);
        CHECK(fx_unchanged(&f));
        /* the printed schedule carries the report */
        char *text = NULL;
        CHECK_OK(wa_schedule_print(&text, NULL, f.s, NULL));
        CHECK(text && strstr(text, "; last round:\n;   applied: move I5 before I4") != NULL);
        CHECK(text && strstr(text, "s_barrier ; @I14 [pinned]") != NULL);
        CHECK(text && strstr(text, "latency (cycles): salu=4 valu=8") != NULL);
        wa_free(text);
    }
    fx_close(&f);
}

/* ---- the round loop ---------------------------------------------------------------- */

static const char *const body_latency =
    "  s_load_dwordx4 %s1<4,align=4>, s[0:1], 0\n"      /* I0 */
    "  s_waitcnt lgkmcnt(0)\n"                          /* I1 */
    "  v_mov_b32 %v2, 0\n"                              /* I2 */
    "  buffer_load_dword %v3, %v2, %s1, 0 offen\n"      /* I3 */
    "  v_mov_b32 %v4, 1\n"                              /* I4 */
    "  v_mov_b32 %v5, 2\n"                              /* I5 */
    "  v_mov_b32 %v6, 3\n"                              /* I6 */
    "  v_add_u32 %v7, %v4, %v5\n"                       /* I7 */
    "  v_add_u32 %v8, %v7, %v6\n"                       /* I8 */
    "  v_add_u32 %v9, %v3, %v8\n"                       /* I9 */
    "  buffer_store_dword %v9, %v2, %s1, 0 offen offset:64\n" /* I10 */
    "  s_endpgm\n";

typedef struct scripted {
    const char *const *answers;
    unsigned n, asked;
    unsigned progress_calls, progress_kept;
    char last_prompt[256];
} scripted;

static const char *scripted_oracle(const char *prompt, void *payload)
{
    scripted *sc = payload;
    snprintf(sc->last_prompt, sizeof(sc->last_prompt), "%s", prompt);
    return sc->asked < sc->n ? sc->answers[sc->asked++] : NULL;
}

static void count_progress(unsigned round, const wa_sched_round *r, const wa_sched_metrics *m,
                           int kept, void *payload)
{
    (void)round;
    (void)r;
    (void)m;
    scripted *sc = payload;
    sc->progress_calls++;
    sc->progress_kept += kept != 0;
}

static void revert_on_regression(void)
{
    fixture f;
    if (!fx_open(&f, body_latency, 0, 0)) {
        fx_close(&f);
        return;
    }
    /* the load issued later hides less of its latency: worse, reverted; then a
       failing round; then `done` */
    static const char *const answers[] = { "move I3 after I8\n", "move I9 before I3\n", "done\n" };
    scripted sc;
    memset(&sc, 0, sizeof(sc));
    sc.answers = answers;
    sc.n = 3;
    wa_sched_run_options ro = WA_SCHED_RUN_OPTIONS_INIT;
    ro.rounds = 10;
    ro.progress = count_progress;
    ro.progress_payload = &sc;
    wa_sched_result res;
    REQUIRE_OK(wa_schedule_run(&res, f.s, scripted_oracle, &sc, &ro));
    CHECK_EQ_UINT(res.rounds, 3);
    CHECK_EQ_UINT(res.regressed, 1);
    CHECK_EQ_UINT(res.failed, 1);
    CHECK_EQ_UINT(res.kept, 0);
    CHECK_EQ_UINT(sc.progress_calls, 3);
    CHECK(res.baseline.cycles > 0);
    CHECK_EQ_UINT(res.best.cycles, res.baseline.cycles);
    CHECK(fx_unchanged(&f));
    CHECK_STR_CONTAINS(sc.last_prompt, "; schedule of kernel");
    /* the regressing state really is worse */
    wa_sched_round r;
    wa_sched_metrics worse;
    REQUIRE_OK(fx_apply(&f, "move I3 after I8\n", &r));
    REQUIRE_OK(wa_schedule_measure(&worse, f.s));
    CHECK(worse.cycles > res.baseline.cycles);
    CHECK(wa_sched_metrics_better(f.s, &res.baseline, &worse));
    CHECK(!wa_sched_metrics_better(f.s, &worse, &res.baseline));
    fx_close(&f);
}

static const char *heuristic_oracle(const char *prompt, void *payload)
{
    static char *last;
    (void)prompt;
    wa_free(last);
    last = NULL;
    if (!payload)
        return NULL;
    if (wa_schedule_heuristic(&last, NULL, payload) != WA_OK)
        return NULL;
    return last;
}

static void heuristic_improves(void)
{
    fixture f;
    if (!fx_open(&f, body_latency, 0, 0)) {
        fx_close(&f);
        return;
    }
    /* the worse order first: the load after the arithmetic */
    wa_sched_round r;
    REQUIRE_OK(fx_apply(&f, "move I3 after I8\n", &r));
    wa_sched_result res;
    REQUIRE_OK(wa_schedule_run(&res, f.s, heuristic_oracle, f.s, NULL));
    CHECK(res.best.cycles < res.baseline.cycles);
    CHECK_EQ_UINT(res.kept, 1);
    /* the load issues before the arithmetic again, as soon as its address is ready */
    char *now = ut_print(f.prog);
    const char *load = now ? strstr(now, "buffer_load_dword") : NULL;
    const char *add = now ? strstr(now, "v_add_u32 %v7") : NULL;
    CHECK(load && add && load < add);
    wa_free(now);
    heuristic_oracle(NULL, NULL);
    fx_close(&f);
}

static void bad_options(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942", "  s_endpgm\n"));
    wa_schedule_options o = WA_SCHEDULE_OPTIONS_INIT;
    o.version = 77;
    wa_schedule *s = NULL;
    CHECK_STATUS(wa_schedule_create(&s, prog, &o), WA_E_INVALID);
    o.version = WA_SCHEDULE_OPTIONS_VERSION;
    o.order[0] = 99;
    CHECK_STATUS(wa_schedule_create(&s, prog, &o), WA_E_INVALID);
    CHECK(s == NULL);
    CHECK_OK(wa_schedule_create(&s, prog, NULL));
    CHECK_EQ_UINT(wa_schedule_region_count(s), 0);
    wa_schedule_destroy(s);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- schedules that compute what the input computes ------------------------------------- */

static unsigned g_mode;      /* 0: heuristic, 1: random commands */
static uint64_t g_seed;
static unsigned g_accepted, g_rejected, g_changed;

/* Random commands over the program's tags (some invalid), a few per round. */
static void random_commands(char *buf, size_t cap, const wa_program *prog, rp_rng *rng)
{
    unsigned n = wa_program_size(prog);
    size_t len = 0;
    unsigned k = rp_chance(rng, 60) ? 1 : 1 + rp_below(rng, 4);
    buf[0] = '\0';
    for (unsigned c = 0; c < k && len + 64 < cap; c++) {
        wa_instr_view a, b;
        /* mostly near each other (valid more often), sometimes anywhere */
        unsigned ia = rp_below(rng, n), ib = rp_below(rng, n);
        if (rp_chance(rng, 80)) {
            unsigned d = 1 + rp_below(rng, 6);
            ib = rp_chance(rng, 50) ? (ia + d < n ? ia + d : ia) : (ia >= d ? ia - d : ia);
        }
        wa_program_get(&a, prog, ia);
        wa_program_get(&b, prog, ib);
        unsigned ta = a.tag == WA_NO_TAG ? 100000 : a.tag, tb = b.tag == WA_NO_TAG ? 100001 : b.tag;
        unsigned kind = rp_below(rng, 3);
        if (kind == 2)
            len += (size_t)snprintf(buf + len, cap - len, "swap I%u I%u\n", ta, tb);
        else
            len += (size_t)snprintf(buf + len, cap - len, "move I%u %s I%u\n", ta,
                                    kind ? "before" : "after", tb);
    }
}

static wa_status scheduled_pipeline(wa_program **out, const wa_program *in)
{
    wa_program *p = NULL;
    wa_status st = wa_program_clone(&p, in);
    if (st)
        return st;
    wa_schedule_options so = WA_SCHEDULE_OPTIONS_INIT;
    so.flags = WA_SCHED_VERIFY;
    wa_schedule *s = NULL;
    st = wa_schedule_create(&s, p, &so);
    if (!st && g_mode == 0) {
        wa_sched_run_options ro = WA_SCHED_RUN_OPTIONS_INIT;
        ro.rounds = 2;
        wa_sched_result res;
        st = wa_schedule_run(&res, s, heuristic_oracle, s, &ro);
        g_accepted += res.kept;
    } else if (!st) {
        rp_rng rng;
        rp_seed(&rng, g_seed++);
        char buf[1024];
        for (unsigned round = 0; round < 30; round++) {
            random_commands(buf, sizeof(buf), p, &rng);
            char *before = NULL;
            wa_program_print(&before, NULL, p, NULL);
            wa_sched_round r;
            wa_status ast = wa_schedule_apply(&r, s, buf, strlen(buf));
            char *after = NULL;
            wa_program_print(&after, NULL, p, NULL);
            if (ast) {
                g_rejected++;
                /* never a corrupted program: a rejected round leaves it as it was */
                if (!before || !after || strcmp(before, after) != 0)
                    st = WA_E_INTERNAL;
            } else {
                g_accepted++;
                g_changed += before && after && strcmp(before, after) != 0;
            }
            wa_free(before);
            wa_free(after);
            if (st)
                break;
        }
    }
    wa_schedule_destroy(s);
    heuristic_oracle(NULL, NULL);
    if (!st) {
        wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
        po.flags = WA_PIPELINE_VERIFY;
        st = wa_compile(p, &po);
    }
    if (st) {
        wa_program_destroy(p);
        return st;
    }
    *out = p;
    return WA_OK;
}

static void end_to_end_config(sd_config *sc)
{
    sd_config_default(sc);
    sc->timing = 0;
    sc->after_timing = 1;
    sc->after_hazards = 1;
    sc->checks = SD_CHECK_WAITCNT | SD_CHECK_HAZARDS;
    sc->max_instructions = 50000;
    sc->seeds = 2;
}

static void random_programs(unsigned mode, unsigned count, const char *what)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1;
    cfg.masked = 1;
    sd_config sc;
    end_to_end_config(&sc);
    sd_result res;
    memset(&res, 0, sizeof(res));
    g_mode = mode;
    g_seed = 1;
    g_accepted = g_rejected = g_changed = 0;
    unsigned programs = 0;
    for (uint64_t seed = 9001; seed < 9001 + count; seed++) {
        cfg.items = 40 + (unsigned)(seed % 60);
        wa_program *gen = rp_generate(ctx, WA_TARGET_GFX942, seed, &cfg);
        if (!CHECK(gen != NULL))
            continue;
        wa_program *prog = NULL;
        if (CHECK_OK(sd_strip_waits_and_nops(&prog, gen))) {
            programs++;
            sd_check_pass(prog, scheduled_pipeline, what, &sc, &res);
        }
        wa_program_destroy(prog);
        wa_program_destroy(gen);
    }
    printf("     %s: %u programs, %u runs, %u skipped, %u failures; rounds accepted %u, "
           "rejected %u, changed %u\n",
           what, programs, res.runs, res.skipped, res.failures, g_accepted, g_rejected, g_changed);
    CHECK_MSG(res.failures == 0, "%u failures; first: %s", res.failures, res.first_failure);
    CHECK(res.runs >= programs);
    if (mode == 1) {
        CHECK(g_rejected > 0);
        CHECK(g_changed > 0);
    }
    wa_context_destroy(ctx);
}

static void random_programs_heuristic(void)
{
    random_programs(0, 60, "random programs, list scheduler");
}

static void random_programs_random_commands(void)
{
    random_programs(1, 60, "random programs, random commands");
}

static void examples_scheduled(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    REQUIRE(n >= 5);
    sd_config sc;
    end_to_end_config(&sc);
    sd_result res;
    memset(&res, 0, sizeof(res));
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned mode = 0; mode < 2; mode++) {
        g_mode = mode;
        for (unsigned i = 0; i < n; i++) {
            wa_program *ex = NULL;
            if (!CHECK_OK(wa_program_parse_file(&ex, ctx, files[i])))
                continue;
            wa_program *prog = NULL;
            if (CHECK_OK(sd_strip_waits_and_nops(&prog, ex)))
                sd_check_pass(prog, scheduled_pipeline, files[i], &sc, &res);
            /* with the host's own waits in place (pinned) */
            sd_config orig = sc;
            orig.timing = 1;
            sd_check_pass(ex, scheduled_pipeline, files[i], &orig, &res);
            wa_program_destroy(prog);
            wa_program_destroy(ex);
        }
    }
    printf("     examples, scheduled: %u runs, %u failures\n", res.runs, res.failures);
    CHECK_MSG(res.failures == 0, "%u failures; first: %s", res.failures, res.first_failure);
    CHECK_EQ_UINT(res.runs, 2 * 2 * n * sc.seeds);
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

static void gemm_kernels_scheduled(void)
{
#ifdef WAVEASM_HAVE_GEMM_GEN
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    sd_config sc;
    end_to_end_config(&sc);
    sc.max_instructions = 400000;
    sc.seeds = 4;
    sd_result res;
    memset(&res, 0, sizeof(res));
    for (unsigned mode = 0; mode < 2; mode++) {
        g_mode = mode;
        g_accepted = 0;
        for (unsigned sh = 0; sh < GEMM_GEN_SHAPE_COUNT; sh++) {
            gemm_gen_options go = GEMM_GEN_OPTIONS_INIT;
            go.shape = (gemm_gen_shape)sh;
            go.instructions = 1000;
            wa_program *gen = NULL;
            REQUIRE_OK(gemm_gen_build(&gen, NULL, ctx, &go));
            /* one wave per workgroup: with four, the unscheduled kernel through the
               default pipeline already differs from its input on some timing seeds
               (waves racing in the generated kernel), which would hide what is tested */
            REQUIRE_OK(wa_program_set_workgroup_size(gen, 64, 1, 1));
            wa_program *prog = NULL;
            unsigned before = res.failures;
            if (CHECK_OK(sd_strip_waits_and_nops(&prog, gen)))
                sd_check_pass(prog, scheduled_pipeline, gemm_gen_shape_name(go.shape), &sc, &res);
            if (res.failures > before)
                printf("     failing: %s, %s\n", mode ? "random commands" : "list scheduler",
                       gemm_gen_shape_name(go.shape));
            wa_program_destroy(prog);
            wa_program_destroy(gen);
        }
        if (mode == 0)
            CHECK_MSG(g_accepted > 0, "the list scheduler improved no GEMM kernel");
    }
    printf("     GEMM kernels, scheduled: %u runs, %u failures\n", res.runs, res.failures);
    CHECK_MSG(res.failures == 0, "%u failures; first: %s", res.failures, res.first_failure);
    CHECK_EQ_UINT(res.runs, 2 * GEMM_GEN_SHAPE_COUNT * sc.seeds);
    wa_context_destroy(ctx);
#else
    printf("     (GEMM generator not built)\n");
#endif
}


/* ---- the pipeline: the schedule stage and stages a host inserts ---------------------------- */

typedef struct trace {
    char log[256];
} trace;

static wa_status tracing_stage(wa_program *prog, wa_pass_stats *stats, void *payload)
{
    trace *t = payload;
    /* the program is virtual before regalloc and physical after it */
    unsigned n = wa_program_vreg_count(prog);
    size_t len = strlen(t->log);
    snprintf(t->log + len, sizeof(t->log) - len, "%s%s", len ? "," : "", n ? "virt" : "phys");
    stats->changed = 3;
    return WA_OK;
}

static void pipeline_stages(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942", body_latency));
    /* make the order worse first, so that the schedule stage has work */
    {
        wa_schedule *s = NULL;
        REQUIRE_OK(wa_schedule_create(&s, prog, NULL));
        wa_sched_round r;
        CHECK_OK(wa_schedule_apply(&r, s, "move I3 after I8\n", 16));
        wa_schedule_destroy(s);
    }
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.flags = WA_PIPELINE_VERIFY | WA_PIPELINE_SCHEDULE;
    wa_pipeline *pl = NULL;
    REQUIRE_OK(wa_pipeline_create(&pl, ctx, &po));
    CHECK_EQ_UINT(wa_pipeline_inserted_count(pl), 1);
    /* (cse and peephole would fold the constants away; a stage inserted next to a
       disabled one still runs) */
    REQUIRE_OK(wa_pipeline_enable(pl, WA_STAGE_CSE, 0));
    REQUIRE_OK(wa_pipeline_enable(pl, WA_STAGE_PEEPHOLE, 0));
    trace t;
    memset(&t, 0, sizeof(t));
    CHECK_OK(wa_pipeline_insert(pl, WA_STAGE_CSE, 0, "first", tracing_stage, &t));
    CHECK_OK(wa_pipeline_insert(pl, WA_STAGE_REGALLOC, 1, "after-ra", tracing_stage, &t));
    CHECK_OK(wa_pipeline_insert(pl, WA_STAGE_HAZARDS, 1, "last", tracing_stage, &t));
    CHECK_STATUS(wa_pipeline_insert(pl, WA_STAGE_COUNT_, 1, "bad", tracing_stage, &t),
                 WA_E_INVALID);
    CHECK_STATUS(wa_pipeline_insert(pl, WA_STAGE_CSE, 1, "", tracing_stage, &t), WA_E_INVALID);
    CHECK_STATUS(wa_pipeline_insert(pl, WA_STAGE_CSE, 1, "x", NULL, &t), WA_E_INVALID);
    wa_program *p1 = NULL;
    REQUIRE_OK(wa_program_clone(&p1, prog));
    REQUIRE_OK(wa_pipeline_run(pl, p1));
    CHECK_STR_EQ(t.log, "virt,phys,phys");
    CHECK_EQ_UINT(wa_pipeline_inserted_count(pl), 4);
    wa_stage_stats ss;
    const char *name = NULL;
    REQUIRE_OK(wa_pipeline_inserted_stats(&ss, &name, pl, 0));
    CHECK_STR_EQ(name, "schedule");
    CHECK_EQ_INT(ss.ran, 1);
    CHECK(ss.pass.changed > 0); /* the load moved back up */
    REQUIRE_OK(wa_pipeline_inserted_stats(&ss, &name, pl, 2));
    CHECK_STR_EQ(name, "after-ra");
    CHECK_EQ_UINT(ss.pass.changed, 3);
    CHECK(ss.peak_vgprs > 0);
    CHECK_STATUS(wa_pipeline_inserted_stats(&ss, &name, pl, 4), WA_E_INVALID);
    /* the scheduled program computes what the input computes */
    sd_config sc;
    sd_config_default(&sc);
    sc.timing = 0;
    sc.after_timing = 1;
    sd_result res;
    memset(&res, 0, sizeof(res));
    sd_compare(prog, p1, &sc, &res);
    CHECK_MSG(res.failures == 0, "%s", res.first_failure);
    CHECK(res.runs > 0);
    wa_program_destroy(p1);
    wa_pipeline_destroy(pl);
    /* off by default: no inserted stage, the order kept */
    wa_pipeline_options v1 = WA_PIPELINE_OPTIONS_INIT;
    v1.version = 1; /* a version-1 struct is read up to its end only */
    REQUIRE_OK(wa_pipeline_create(&pl, ctx, &v1));
    CHECK_EQ_UINT(wa_pipeline_inserted_count(pl), 0);
    wa_pipeline_destroy(pl);
    /* the stage function on its own */
    wa_pass_stats ps;
    REQUIRE_OK(wa_program_clone(&p1, prog));
    CHECK_OK(wa_stage_schedule(p1, &ps, NULL));
    CHECK(ps.changed > 0);
    CHECK_EQ_UINT(ps.instrs_before, ps.instrs_after);
    wa_program_destroy(p1);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- SHA-256 and the cache --------------------------------------------------------------- */

static void sha256_vectors(void)
{
    char hex[65];
    wa_sha256_hex(hex, "", 0);
    CHECK_STR_EQ(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    wa_sha256_hex(hex, "abc", 3);
    CHECK_STR_EQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    wa_sha256_hex(hex, m448, strlen(m448));
    CHECK_STR_EQ(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    wa_sha256_hex(hex, m896, strlen(m896));
    CHECK_STR_EQ(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    char *million = malloc(1000000);
    REQUIRE(million != NULL);
    memset(million, 'a', 1000000);
    wa_sha256_hex(hex, million, 1000000);
    CHECK_STR_EQ(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(million);
    /* 55 and 56 bytes: the length still fits the last block, or needs another */
    wa_sha256_hex(hex, m448, 55);
    CHECK_STR_EQ(hex, "aa353e009edbaebfc6e494c8d847696896cb8b398e0173a4b5c1b636292d87c7");
    uint8_t raw[32];
    wa_sha256(raw, "abc", 3);
    CHECK_EQ_HEX(raw[0], 0xba);
    CHECK_EQ_HEX(raw[31], 0xad);
}

typedef struct counting_oracle {
    unsigned calls;
    const char *answer;
} counting_oracle;

static const char *count_oracle(const char *prompt, void *payload)
{
    counting_oracle *c = payload;
    (void)prompt;
    c->calls++;
    return c->calls == 1 ? c->answer : NULL;
}

/* A kernel whose load is issued late, scheduled with the cache in `dir`. */
static char g_warning[512];

static void cached_run(const char *dir, counting_oracle *c, wa_sched_result *res, char **text,
                       wa_context **out_ctx)
{
    g_warning[0] = '\0';
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    *out_ctx = ctx;
    *text = NULL;
    wa_program *prog = NULL;
    if (!CHECK_OK(ut_parse_body(&prog, ctx, "gfx942", body_latency)))
        return;
    wa_schedule *s = NULL;
    if (CHECK_OK(wa_schedule_create(&s, prog, NULL))) {
        wa_sched_round r;
        CHECK_OK(wa_schedule_apply(&r, s, "move I3 after I8\n", 16));
        wa_schedule_destroy(s);
        s = NULL;
    }
    /* the moved program is the input of the cached run */
    if (CHECK_OK(wa_schedule_create(&s, prog, NULL))) {
        wa_sched_run_options ro = WA_SCHED_RUN_OPTIONS_INIT;
        ro.flags = WA_SCHED_RUN_CACHE;
        ro.cache_dir = dir;
        CHECK_OK(wa_schedule_run(res, s, count_oracle, c, &ro));
        const wa_diag *d = wa_context_last_diag(ctx);
        if (d && d->severity == WA_SEVERITY_WARNING)
            snprintf(g_warning, sizeof(g_warning), "%s", d->message);
        *text = ut_print(prog);
    }
    wa_schedule_destroy(s);
    wa_program_destroy(prog);
}

static void cache(void)
{
    char base[] = "/tmp/wa-conductor-cache-XXXXXX";
    REQUIRE(mkdtemp(base) != NULL);
    char dir[256];
    snprintf(dir, sizeof(dir), "%s/nested/dir", base);
    /* first run: the oracle is asked, the entry written */
    counting_oracle c1 = { 0, "move I3 after I2\ndone\n" };
    wa_sched_result r1;
    char *t1 = NULL;
    wa_context *ctx = NULL;
    cached_run(dir, &c1, &r1, &t1, &ctx);
    CHECK_EQ_UINT(c1.calls, 1);
    CHECK_EQ_INT(r1.cache_hit, 0);
    CHECK_EQ_UINT(r1.kept, 1);
    wa_context_destroy(ctx);
    /* second run: replayed from the cache, the oracle not asked */
    counting_oracle c2 = { 0, "done\n" };
    wa_sched_result r2;
    char *t2 = NULL;
    cached_run(dir, &c2, &r2, &t2, &ctx);
    CHECK_EQ_UINT(c2.calls, 0);
    CHECK_EQ_INT(r2.cache_hit, 1);
    CHECK_EQ_UINT(r2.best.cycles, r1.best.cycles);
    CHECK(t1 && t2 && strcmp(t1, t2) == 0);
    CHECK_STR_EQ(g_warning, "");
    wa_context_destroy(ctx);
    /* the entry: one JSON file named by the key, holding the moves */
    char cmd[512], path[512] = "";
    snprintf(cmd, sizeof(cmd), "ls %s/*.json", dir);
    FILE *ls = popen(cmd, "r");
    REQUIRE(ls != NULL);
    if (!fgets(path, sizeof(path), ls))
        path[0] = '\0';
    pclose(ls);
    path[strcspn(path, "\n")] = '\0';
    size_t len = 0;
    char *json = ut_read_file(path, &len, 1);
    REQUIRE(json != NULL);
    CHECK_STR_CONTAINS(json, "\"moves\": [\"move I3 after I2\"]");
    CHECK_STR_CONTAINS(json, "\"format\": \"waveasm-conductor-cache\"");
    CHECK(strlen(strrchr(path, '/') + 1) == 64 + 5);
    free(json);
    /* a corrupt entry: ignored with a warning, the oracle asked again, the entry rewritten */
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    fputs("{\"format\": \"waveasm-conductor-cache\", \"moves\": [\"move", f);
    fclose(f);
    counting_oracle c3 = { 0, "move I3 after I2\ndone\n" };
    wa_sched_result r3;
    char *t3 = NULL;
    cached_run(dir, &c3, &r3, &t3, &ctx);
    CHECK_EQ_UINT(c3.calls, 1);
    CHECK_EQ_INT(r3.cache_hit, 0);
    CHECK_STR_CONTAINS(g_warning, "is corrupt: ignored");
    wa_context_destroy(ctx);
    /* a stale entry (another key inside, or moves that do not apply): ignored */
    f = fopen(path, "wb");
    REQUIRE(f != NULL);
    fputs("{\"format\": \"waveasm-conductor-cache\", \"version\": 1, \"key\": \"00\", "
          "\"moves\": []}\n",
          f);
    fclose(f);
    counting_oracle c4 = { 0, "done\n" };
    wa_sched_result r4;
    char *t4 = NULL;
    cached_run(dir, &c4, &r4, &t4, &ctx);
    CHECK_EQ_UINT(c4.calls, 1);
    CHECK_STR_CONTAINS(g_warning, "is stale");
    wa_context_destroy(ctx);
    wa_free(t4);
    wa_free(t3);
    /* the default directory follows XDG_CACHE_HOME */
    char xdg[256];
    snprintf(xdg, sizeof(xdg), "%s/xdg", base);
    setenv("XDG_CACHE_HOME", xdg, 1);
    counting_oracle c5 = { 0, "done\n" };
    wa_sched_result r5;
    char *t5 = NULL;
    cached_run(NULL, &c5, &r5, &t5, &ctx);
    wa_context_destroy(ctx);
    wa_free(t5);
    snprintf(cmd, sizeof(cmd), "ls %s/waveasm/conductor/*.json > /dev/null 2>&1", xdg);
    CHECK_EQ_INT(system(cmd), 0);
    unsetenv("XDG_CACHE_HOME");
    snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
    CHECK_EQ_INT(system(cmd), 0);
    wa_free(t1);
    wa_free(t2);
}

static void profile_csv(void)
{
    fixture f;
    if (fx_open(&f, body_latency, 0, 0)) {
        const char *csv = "# rocprof, per instruction\n"
                          "tag,mnemonic,hits,lat_min,lat_mean,lat_max\n"
                          "I3,buffer_load_dword,1024,88,102.5,145\n"
                          "@I9, v_add_u32 ,1024,4,5,9\n"
                          "I999,gone,1,1,1,1\n";
        CHECK_OK(wa_schedule_set_profile(f.s, csv, strlen(csv)));
        char *text = NULL;
        CHECK_OK(wa_schedule_print(&text, NULL, f.s, NULL));
        CHECK(text && strstr(text, "; profile (previous run):\n;   I3 buffer_load_dword hits=1024 "
                                   "lat_min=88 lat_mean=102 lat_max=145\n;   I9 v_add_u32 hits=1024") != NULL);
        wa_free(text);
        /* the rows follow the instructions when they move */
        wa_sched_round r;
        CHECK_OK(fx_apply(&f, "move I9 after I10\n", &r) == WA_E_INVALID ? WA_OK : WA_E_INTERNAL);
        /* bad text: located, the old profile kept out */
        const char *bad = "tag,hits\nI3,12x\n";
        CHECK_STATUS(wa_schedule_set_profile(f.s, bad, strlen(bad)), WA_E_PARSE);
        CHECK_LAST_DIAG(f.ctx, WA_E_PARSE, "expected a number", 2, 4, UT_ANY);
        const char *nohdr = "hits,lat_min\n1,2\n";
        CHECK_STATUS(wa_schedule_set_profile(f.s, nohdr, strlen(nohdr)), WA_E_PARSE);
        CHECK_LAST_DIAG(f.ctx, WA_E_PARSE, "no 'tag' column", 1, 1, UT_ANY);
        const char *badtag = "tag,hits\nJ3,1\n";
        CHECK_STATUS(wa_schedule_set_profile(f.s, badtag, strlen(badtag)), WA_E_PARSE);
        CHECK_LAST_DIAG(f.ctx, WA_E_PARSE, "bad tag", 2, UT_ANY, UT_ANY);
        text = NULL;
        CHECK_OK(wa_schedule_print(&text, NULL, f.s, NULL));
        CHECK(text && strstr(text, "; profile") == NULL);
        wa_free(text);
        CHECK_OK(wa_schedule_set_profile(f.s, NULL, 0));
    }
    fx_close(&f);
}

/* Agent 0 proposes a worse order, agent 1 the better one, the others random
   commands drawn from the seed. */
static const char *beam_oracle(const char *prompt, unsigned agent, uint64_t seed, void *payload)
{
    static char buf[1024];
    const wa_program *prog = payload;
    (void)prompt;
    if (agent == 0)
        return "move I2 after I7\n";
    if (agent == 1)
        return "move I8 after I2\n";
    rp_rng rng;
    rp_seed(&rng, seed);
    random_commands(buf, sizeof(buf), prog, &rng);
    return buf;
}

static char *beam_once(uint64_t seed, wa_sched_result *res, unsigned agents)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    char *text = NULL;
    if (CHECK_OK(ut_parse_body(&prog, ctx, "gfx942", body_latency))) {
        wa_schedule *s = NULL;
        wa_sched_round r;
        if (CHECK_OK(wa_schedule_create(&s, prog, NULL)) &&
            CHECK_OK(wa_schedule_apply(&r, s, "move I3 after I8\n", 16))) {
            wa_schedule_destroy(s);
            s = NULL;
            CHECK_OK(wa_schedule_create(&s, prog, NULL));
        }
        wa_sched_beam_options bo = WA_SCHED_BEAM_OPTIONS_INIT;
        bo.agents = agents;
        bo.interval = 2;
        bo.keep = 2;
        bo.checkpoints = 3;
        bo.seed = seed;
        if (s && CHECK_OK(wa_schedule_beam(res, s, beam_oracle, prog, &bo))) {
            char *t = ut_print(prog);
            text = t ? strdup(t) : NULL;
            wa_free(t);
            wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
            po.flags = WA_PIPELINE_VERIFY;
            CHECK_OK(wa_compile(prog, &po));
        }
        wa_schedule_destroy(s);
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return text;
}

static void beam_search(void)
{
    wa_sched_result a, b, c;
    char *ta = beam_once(7, &a, 5), *tb = beam_once(7, &b, 5), *tc = beam_once(8, &c, 5);
    REQUIRE(ta && tb && tc);
    /* deterministic per seed */
    CHECK_STR_EQ(ta, tb);
    CHECK_EQ_UINT(a.best.cycles, b.best.cycles);
    CHECK_EQ_UINT(a.kept, b.kept);
    CHECK_EQ_UINT(a.rounds, 5 * 2 * 3);
    /* agent 1's move is found and kept; agent 0's is never kept */
    CHECK(a.best.cycles < a.baseline.cycles);
    CHECK(a.regressed > 0);
    CHECK_EQ_UINT(c.best.cycles, a.best.cycles);
    free(ta);
    free(tb);
    free(tc);
    /* options */
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942", body_latency));
    wa_schedule *s = NULL;
    REQUIRE_OK(wa_schedule_create(&s, prog, NULL));
    wa_sched_beam_options bo = WA_SCHED_BEAM_OPTIONS_INIT;
    bo.agents = 65;
    CHECK_STATUS(wa_schedule_beam(NULL, s, beam_oracle, prog, &bo), WA_E_INVALID);
    bo.version = 9;
    CHECK_STATUS(wa_schedule_beam(NULL, s, beam_oracle, prog, &bo), WA_E_INVALID);
    wa_schedule_destroy(s);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(tags_and_pinned) UT_CASE(register_dependences) UT_CASE(exec_dependence)
             UT_CASE(blocks) UT_CASE(memory_order) UT_CASE(warnings) UT_CASE(command_text)
                 UT_CASE(revert_on_error) UT_CASE(revert_on_regression)
                     UT_CASE(heuristic_improves) UT_CASE(bad_options)
                         UT_CASE(random_programs_heuristic)
                             UT_CASE(random_programs_random_commands)
                                 UT_CASE(examples_scheduled) UT_CASE(gemm_kernels_scheduled) UT_CASE(pipeline_stages) UT_CASE(sha256_vectors) UT_CASE(cache) UT_CASE(profile_csv) UT_CASE(beam_search));
