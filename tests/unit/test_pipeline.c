/* tests/unit/test_pipeline.c — the pipeline object and wa_compile: stage names,
   options, enabling and replacing stages, per-stage statistics, verification, and
   the whole default pipeline checked end to end: every output validates, passes
   both checkers, runs in the simulator with random memory timing and in hazard
   mode, and computes what the input computes (random programs, every example,
   the benchmark kernels). */
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

static void report(const char *what, const sd_result *r, unsigned programs)
{
    printf("     %s: %u programs, %u (program, seed) runs compared, %u inconclusive, %u skipped,"
           " %u failures\n",
           what, programs, r->runs, r->inconclusive, r->skipped, r->failures);
    if (r->failures)
        printf("     first failure: %s\n", r->first_failure);
    if (r->skipped)
        printf("     first skipped: %s\n", r->first_skip);
}

/* A kernel with a load, a use, an MFMA and its result read: needs waits and nops. */
static const char *const kernel_text =
    ".kernel pipe\n"
    "  .target gfx942\n"
    "  .abi kernarg_ptr, workitem_id_x\n"
    "  .arg p, global_buffer, offset:0, size:8, align:8\n"
    "  s_load_dwordx2 %s1<2,align=2>, s[0:1], 0\n"
    "  v_lshlrev_b32 %v2, 2, v0\n"
    "  v_lshlrev_b32 %v3, 2, v0\n"
    "  global_load_dword %v4, %v2, %s1\n"
    "  v_add_u32 %v5, %v4, %v3\n"
    "  v_mov_b32 %v6, 0\n"
    "  v_add_u32 %v7, %v6, %v5\n"
    "  global_store_dword %v2, %v7, %s1\n"
    "  s_endpgm\n"
    ".end_kernel\n";

static void names(void)
{
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++) {
        const char *n = wa_stage_name((wa_stage)s);
        REQUIRE(n != NULL);
        wa_stage back;
        CHECK_OK(wa_stage_from_name(&back, n));
        CHECK_EQ_INT(back, s);
    }
    CHECK_STR_EQ(wa_stage_name(WA_STAGE_CSE), "cse");
    CHECK_STR_EQ(wa_stage_name(WA_STAGE_HAZARDS), "hazards");
    CHECK(wa_stage_name(WA_STAGE_COUNT_) == NULL);
    CHECK(wa_stage_name((wa_stage)-1) == NULL);
    wa_stage x;
    CHECK_STATUS(wa_stage_from_name(&x, "schedule"), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_stage_from_name(&x, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_stage_from_name(NULL, "cse"), WA_E_INVALID);
}

static void bad_options(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_pipeline *pl = NULL;
    CHECK_STATUS(wa_pipeline_create(NULL, ctx, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_pipeline_create(&pl, NULL, NULL), WA_E_INVALID);
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.version = 99;
    CHECK_STATUS(wa_pipeline_create(&pl, ctx, &po), WA_E_INVALID);
    CHECK(pl == NULL);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "wa_pipeline_options");
    po.version = WA_PIPELINE_OPTIONS_VERSION;
    po.flags = 0x80;
    CHECK_STATUS(wa_pipeline_create(&pl, ctx, &po), WA_E_INVALID);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "flags");
    po.flags = 0;
    wa_waitcnt_options wo = WA_WAITCNT_OPTIONS_INIT;
    wo.version = 0;
    po.waitcnt = &wo;
    CHECK_STATUS(wa_pipeline_create(&pl, ctx, &po), WA_E_INVALID);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "wa_waitcnt_options");
    wa_program *prog = ut_parse(ctx, kernel_text);
    REQUIRE(prog != NULL);
    CHECK_STATUS(wa_compile(prog, &po), WA_E_INVALID);
    CHECK_STATUS(wa_run_stage(prog, WA_STAGE_WAITCNT, &po, NULL), WA_E_INVALID);
    po.waitcnt = NULL;
    CHECK_STATUS(wa_run_stage(prog, WA_STAGE_COUNT_, &po, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_run_stage(NULL, WA_STAGE_CSE, NULL, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_compile(NULL, NULL), WA_E_INVALID);
    REQUIRE_OK(wa_pipeline_create(&pl, ctx, NULL));
    CHECK_STATUS(wa_pipeline_enable(pl, WA_STAGE_COUNT_, 0), WA_E_INVALID);
    CHECK_STATUS(wa_pipeline_replace(pl, (wa_stage)-3, NULL, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_pipeline_run(pl, NULL), WA_E_INVALID);
    wa_stage_stats ss;
    CHECK_STATUS(wa_pipeline_stats(&ss, pl, WA_STAGE_COUNT_), WA_E_INVALID);
    CHECK_STATUS(wa_pipeline_stats(NULL, pl, WA_STAGE_CSE), WA_E_INVALID);
    wa_pipeline_destroy(pl);
    wa_pipeline_destroy(NULL);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static unsigned count_op(const wa_program *p, wa_opcode op)
{
    unsigned n = 0;
    for (unsigned i = 0; i < wa_program_size(p); i++) {
        wa_instr_view v;
        if (wa_program_get(&v, p, i) == WA_OK && v.opcode == op)
            n++;
    }
    return n;
}

static int has_virtual(const wa_program *p)
{
    for (unsigned i = 0; i < wa_program_size(p); i++) {
        wa_instr_view v;
        if (wa_program_get(&v, p, i) != WA_OK)
            continue;
        for (unsigned k = 0; k < v.num_operands; k++)
            if (v.operands[k].kind == WA_OPND_VIRT)
                return 1;
    }
    return 0;
}

/* The default pipeline on the small kernel: every stage runs and reports. */
static void default_pipeline_stats(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, kernel_text);
    REQUIRE(prog != NULL);
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.flags = WA_PIPELINE_VERIFY;
    wa_pipeline *pl = NULL;
    REQUIRE_OK(wa_pipeline_create(&pl, ctx, &po));
    REQUIRE_OK(wa_pipeline_run(pl, prog));
    CHECK(!has_virtual(prog));
    unsigned errors = 0;
    CHECK_OK(wa_program_validate(&errors, prog, NULL));
    CHECK_OK(wa_check_waitcnt(&errors, prog, NULL));
    CHECK_OK(wa_check_hazards(&errors, prog, NULL));
    wa_stage_stats st[WA_STAGE_COUNT_];
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++) {
        REQUIRE_OK(wa_pipeline_stats(&st[s], pl, (wa_stage)s));
        CHECK_EQ_UINT(st[s].version, WA_STAGE_STATS_VERSION);
        CHECK_EQ_UINT(st[s].pass.version, WA_PASS_STATS_VERSION);
        CHECK_EQ_INT(st[s].ran, 1);
        CHECK(st[s].seconds >= 0);
        CHECK_EQ_UINT(st[s].instrs, st[s].pass.instrs_after);
        if (s > 0)
            CHECK_EQ_UINT(st[s].pass.instrs_before, st[s - 1].instrs);
    }
    /* the two copies of v0 << 2 are one value after CSE; the add of 0 is gone */
    CHECK_EQ_UINT(st[WA_STAGE_CSE].pass.eliminated, 1);
    CHECK(st[WA_STAGE_PEEPHOLE].pass.folded + st[WA_STAGE_PEEPHOLE].pass.moves_removed >= 1);
    /* virtual until regalloc: no register counts; physical afterwards */
    CHECK_EQ_UINT(st[WA_STAGE_PEEPHOLE].peak_vgprs, 0);
    CHECK(st[WA_STAGE_REGALLOC].peak_vgprs >= 2);
    CHECK(st[WA_STAGE_REGALLOC].peak_sgprs >= 2); /* the pointer may reuse s[0:1] */
    CHECK_EQ_UINT(st[WA_STAGE_HAZARDS].peak_vgprs, st[WA_STAGE_REGALLOC].peak_vgprs);
    /* one wait for the scalar load, one for the vector load */
    CHECK_EQ_UINT(st[WA_STAGE_WAITCNT].pass.waitcnts_inserted, 2);
    CHECK_EQ_UINT(count_op(prog, WA_OP_S_WAITCNT), 2);
    CHECK_EQ_UINT(st[WA_STAGE_WAITCNT].instrs, st[WA_STAGE_REGALLOC].instrs + 2);
    CHECK_EQ_UINT(st[WA_STAGE_HAZARDS].pass.nops_inserted, count_op(prog, WA_OP_S_NOP));
    wa_pipeline_destroy(pl);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- enabling and replacing stages ------------------------------------------------------- */

typedef struct counter {
    unsigned calls;
    wa_status result;
    unsigned seen_before;
} counter;

static wa_status counting_stage(wa_program *prog, wa_pass_stats *stats, void *payload)
{
    counter *c = payload;
    c->calls++;
    c->seen_before = stats->instrs_before;
    stats->changed = 7;
    (void)prog;
    return c->result;
}

static void enable_and_replace(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, kernel_text);
    REQUIRE(prog != NULL);
    wa_pipeline *pl = NULL;
    REQUIRE_OK(wa_pipeline_create(&pl, ctx, NULL));
    /* only allocation: the program becomes physical, nothing is inserted */
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++)
        REQUIRE_OK(wa_pipeline_enable(pl, (wa_stage)s, s == WA_STAGE_REGALLOC));
    wa_program *p1 = NULL;
    REQUIRE_OK(wa_program_clone(&p1, prog));
    REQUIRE_OK(wa_pipeline_run(pl, p1));
    CHECK(!has_virtual(p1));
    CHECK_EQ_UINT(count_op(p1, WA_OP_S_WAITCNT), 0);
    wa_stage_stats ss;
    REQUIRE_OK(wa_pipeline_stats(&ss, pl, WA_STAGE_WAITCNT));
    CHECK_EQ_INT(ss.ran, 0);
    REQUIRE_OK(wa_pipeline_stats(&ss, pl, WA_STAGE_REGALLOC));
    CHECK_EQ_INT(ss.ran, 1);
    wa_program_destroy(p1);

    /* the host's own peephole stage runs in its place, sees the statistics */
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++)
        REQUIRE_OK(wa_pipeline_enable(pl, (wa_stage)s, 1));
    counter c = { 0, WA_OK, 0 };
    REQUIRE_OK(wa_pipeline_replace(pl, WA_STAGE_PEEPHOLE, counting_stage, &c));
    REQUIRE_OK(wa_program_clone(&p1, prog));
    REQUIRE_OK(wa_pipeline_run(pl, p1));
    CHECK_EQ_UINT(c.calls, 1);
    REQUIRE_OK(wa_pipeline_stats(&ss, pl, WA_STAGE_PEEPHOLE));
    CHECK_EQ_UINT(ss.pass.changed, 7);
    CHECK_EQ_UINT(ss.pass.instrs_before, c.seen_before);
    CHECK_EQ_UINT(ss.pass.folded, 0); /* the library's peephole did not run */
    wa_program_destroy(p1);

    /* a failing replacement stops the pipeline with its status */
    c.result = WA_E_UNSUPPORTED;
    REQUIRE_OK(wa_program_clone(&p1, prog));
    CHECK_STATUS(wa_pipeline_run(pl, p1), WA_E_UNSUPPORTED);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "peephole");
    CHECK(has_virtual(p1)); /* allocation never ran */
    REQUIRE_OK(wa_pipeline_stats(&ss, pl, WA_STAGE_REGALLOC));
    CHECK_EQ_INT(ss.ran, 0);
    wa_program_destroy(p1);

    /* NULL restores the library's stage */
    REQUIRE_OK(wa_pipeline_replace(pl, WA_STAGE_PEEPHOLE, NULL, &c));
    unsigned calls = c.calls;
    REQUIRE_OK(wa_program_clone(&p1, prog));
    REQUIRE_OK(wa_pipeline_run(pl, p1));
    CHECK_EQ_UINT(c.calls, calls);
    wa_program_destroy(p1);
    wa_pipeline_destroy(pl);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A waitcnt stage replaced by one that does nothing: verification catches it. */
static wa_status do_nothing(wa_program *prog, wa_pass_stats *stats, void *payload)
{
    (void)prog;
    (void)stats;
    (void)payload;
    return WA_OK;
}

static void verify_catches_missing_waits(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, kernel_text);
    REQUIRE(prog != NULL);
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.flags = WA_PIPELINE_VERIFY;
    wa_pipeline *pl = NULL;
    REQUIRE_OK(wa_pipeline_create(&pl, ctx, &po));
    REQUIRE_OK(wa_pipeline_replace(pl, WA_STAGE_WAITCNT, do_nothing, NULL));
    CHECK_STATUS(wa_pipeline_run(pl, prog), WA_E_VALIDATE);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "waitcnt");
    /* without verification the same pipeline "succeeds" */
    wa_pipeline_destroy(pl);
    wa_program_destroy(prog);
    prog = ut_parse(ctx, kernel_text);
    REQUIRE(prog != NULL);
    REQUIRE_OK(wa_pipeline_create(&pl, ctx, NULL));
    REQUIRE_OK(wa_pipeline_replace(pl, WA_STAGE_WAITCNT, do_nothing, NULL));
    CHECK_OK(wa_pipeline_run(pl, prog));
    unsigned errors = 0;
    CHECK_STATUS(wa_check_waitcnt(&errors, prog, NULL), WA_E_VALIDATE);
    CHECK(errors >= 1);
    wa_pipeline_destroy(pl);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* WA_PIPELINE_VERIFY runs the independent allocation checker on the library's
   allocation (its WAVE_DEBUG_REGALLOC log line shows it ran), in the pipeline
   and in wa_run_stage; without the flag it does not run. */
static void verify_runs_allocation_checker(void)
{
    static const char *const env[] = { "WAVE_DEBUG_REGALLOC", NULL };
    for (int verify = 0; verify <= 1; verify++) {
        for (int single = 0; single <= 1; single++) {
            ut_log_lines lines;
            wa_context *ctx = ut_context_logging(WA_TARGET_GFX942, &lines, env);
            wa_program *prog = ut_parse(ctx, kernel_text);
            REQUIRE(prog != NULL);
            wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
            po.flags = verify ? WA_PIPELINE_VERIFY : 0;
            if (single) {
                CHECK_OK(wa_run_stage(prog, WA_STAGE_REGALLOC, &po, NULL));
            } else {
                CHECK_OK(wa_compile(prog, &po));
            }
            ut_context("verify %d, %s", verify, single ? "wa_run_stage" : "wa_compile");
            CHECK(strstr(lines.text, "[REGALLOC] checker:") != NULL ? verify : !verify);
            if (verify)
                CHECK_STR_CONTAINS(lines.text, "0 problems");
            ut_context("%s", "");
            wa_program_destroy(prog);
            wa_context_destroy(ctx);
        }
    }
}

/* The pipeline validates first: a program the validator rejects is not
   compiled (the program is left as it was), with the validator's located
   diagnostics; WA_PIPELINE_NO_VALIDATE skips the check. */
static void invalid_input_is_not_compiled(void)
{
    static const char *const bodies[] = {
        /* a literal in a VOP3 instruction */
        "  v_fma_f32 v1, v0, v0, 0x12345\n  global_store_dword v0, v1, s[0:1]\n  s_endpgm\n",
        /* a read of a never-defined register */
        "  v_add_u32 %v1, %v2, v0\n  global_store_dword v0, %v1, s[0:1]\n  s_endpgm\n",
    };
    static const char *const words[] = { "v_fma_f32|literal", "%v2|never defined" };
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned t = 0; t < 2; t++) {
        ut_context("case %u", t);
        wa_program *prog = NULL;
        REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942", bodies[t]));
        wa_program *orig = NULL;
        REQUIRE_OK(wa_program_clone(&orig, prog));
        CHECK_STATUS(wa_compile(prog, NULL), WA_E_VALIDATE);
        CHECK_DIAG(ctx, WA_E_VALIDATE, words[t], UT_BODY_LINE, 3, UT_ANY);
        CHECK(wa_program_equal(prog, orig));
        wa_pipeline *pl = NULL;
        REQUIRE_OK(wa_pipeline_create(&pl, ctx, NULL));
        CHECK_STATUS(wa_pipeline_run(pl, prog), WA_E_VALIDATE);
        wa_stage_stats ss;
        REQUIRE_OK(wa_pipeline_stats(&ss, pl, WA_STAGE_CSE));
        CHECK_EQ_INT(ss.ran, 0);
        wa_pipeline_destroy(pl);
        /* without the check the stages run on it */
        wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
        po.flags = WA_PIPELINE_NO_VALIDATE;
        REQUIRE_OK(wa_pipeline_create(&pl, ctx, &po));
        wa_pipeline_run(pl, prog);
        REQUIRE_OK(wa_pipeline_stats(&ss, pl, WA_STAGE_CSE));
        CHECK_EQ_INT(ss.ran, 1);
        wa_pipeline_destroy(pl);
        wa_program_destroy(orig);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* Per-stage options reach the stage: with the barrier wait turned off, the
   pipeline inserts fewer waits before s_barrier. */
static void stage_options(void)
{
    static const char *const text =
        ".kernel lds\n"
        "  .target gfx942\n"
        "  .workgroup_size 128, 1, 1\n"
        "  .lds_bytes 1024\n"
        "  .abi workitem_id_x\n"
        "  v_lshlrev_b32 %v1, 2, v0\n"
        "  ds_write_b32 %v1, v0\n"
        "  s_barrier\n"
        "  ds_read_b32 %v2, %v1 offset:4\n"
        "  ds_write_b32 %v1, %v2 offset:512\n"
        "  s_endpgm\n"
        ".end_kernel\n";
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    unsigned waits[2];
    for (unsigned k = 0; k < 2; k++) {
        wa_program *prog = ut_parse(ctx, text);
        REQUIRE(prog != NULL);
        wa_waitcnt_options wo = WA_WAITCNT_OPTIONS_INIT;
        wo.flags = k ? WA_WAITCNT_NO_BARRIER : 0;
        wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
        po.waitcnt = &wo;
        REQUIRE_OK(wa_compile(prog, &po));
        waits[k] = count_op(prog, WA_OP_S_WAITCNT);
        wa_program_destroy(prog);
    }
    CHECK_EQ_UINT(waits[0], 2); /* before the barrier and before the second write */
    CHECK_EQ_UINT(waits[1], 1);
    wa_context_destroy(ctx);
}

/* ---- end to end ----------------------------------------------------------------------------- */

static void end_to_end_config(sd_config *sc)
{
    sd_config_default(sc);
    sc->timing = 0;         /* inputs carry no waits of their own */
    sc->after_timing = 1;   /* the pipeline output must wait where it needs to */
    sc->after_hazards = 1;  /* and keep every wait state */
    sc->checks = SD_CHECK_WAITCNT | SD_CHECK_HAZARDS;
    sc->max_instructions = 50000;
}

static void random_programs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1;
    cfg.masked = 1;
    sd_config sc;
    end_to_end_config(&sc);
    sc.seeds = 2;
    sd_result res;
    memset(&res, 0, sizeof(res));
    static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    unsigned programs = 0;
    for (uint64_t seed = 7001; seed < 7001 + 150; seed++) {
        cfg.items = 40 + (unsigned)(seed % 60);
        wa_program *gen = rp_generate(ctx, targets[seed % 3], seed, &cfg);
        if (!CHECK(gen != NULL))
            continue;
        wa_program *prog = NULL;
        if (CHECK_OK(sd_strip_waits_and_nops(&prog, gen))) {
            programs++;
            unsigned before = res.failures;
            sd_check_pass(prog, sd_pass_pipeline, "default pipeline", &sc, &res);
            if (res.failures > before && res.failures <= 2) {
                char *text = NULL;
                if (wa_program_print(&text, NULL, prog, NULL) == WA_OK)
                    fprintf(stderr, "---- seed %llu ----\n%s\n", (unsigned long long)seed, text);
                wa_free(text);
            }
        }
        wa_program_destroy(prog);
        wa_program_destroy(gen);
    }
    report("random programs, default pipeline", &res, programs);
    CHECK_MSG(res.failures == 0, "%u failures; first: %s", res.failures, res.first_failure);
    CHECK_MSG(res.runs >= programs, "only %u runs compared", res.runs);
    wa_context_destroy(ctx);
}

static void examples(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    REQUIRE(n >= 5);
    sd_config sc;
    end_to_end_config(&sc);
    sc.seeds = 3;
    sd_result res;
    memset(&res, 0, sizeof(res));
    static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    for (unsigned t = 0; t < 3; t++) {
        wa_context *ctx = ut_context_new(targets[t]);
        for (unsigned i = 0; i < n; i++) {
            wa_program *ex = NULL;
            if (!CHECK_OK(wa_program_parse_file(&ex, ctx, files[i])))
                continue;
            REQUIRE_OK(wa_program_set_target(ex, targets[t]));
            /* the examples' own waits and nops go: the pipeline puts back what is needed */
            wa_program *prog = NULL;
            if (CHECK_OK(sd_strip_waits_and_nops(&prog, ex)))
                sd_check_pass(prog, sd_pass_pipeline, files[i], &sc, &res);
            /* compared with the original, hand-waited example too */
            sd_config orig = sc;
            orig.timing = 1;
            sd_check_pass(ex, sd_pass_pipeline, files[i], &orig, &res);
            wa_program_destroy(prog);
            wa_program_destroy(ex);
        }
        wa_context_destroy(ctx);
    }
    report("examples x 3 targets, default pipeline", &res, 2 * 3 * n);
    CHECK_MSG(res.failures == 0, "%u failures; first: %s", res.failures, res.first_failure);
    CHECK_EQ_UINT(res.runs, 2 * 3 * n * sc.seeds);
    ut_free_list(files, n);
}

static void bench_kernels(void)
{
#ifdef WAVEASM_HAVE_GEMM_GEN
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    sd_config sc;
    end_to_end_config(&sc);
    sc.seeds = 2;
    sc.max_instructions = 400000;
    sd_result res;
    memset(&res, 0, sizeof(res));
    for (unsigned s = 0; s < GEMM_GEN_SHAPE_COUNT; s++) {
        gemm_gen_options go = GEMM_GEN_OPTIONS_INIT;
        go.shape = (gemm_gen_shape)s;
        go.instructions = 1000;
        wa_program *gen = NULL;
        REQUIRE_OK(gemm_gen_build(&gen, NULL, ctx, &go));
        wa_program *prog = NULL;
        if (CHECK_OK(sd_strip_waits_and_nops(&prog, gen)))
            sd_check_pass(prog, sd_pass_pipeline, gemm_gen_shape_name(go.shape), &sc, &res);
        wa_program_destroy(prog);
        wa_program_destroy(gen);
    }
    report("benchmark kernels (1k instructions), default pipeline", &res, GEMM_GEN_SHAPE_COUNT);
    CHECK_MSG(res.failures == 0, "%u failures; first: %s", res.failures, res.first_failure);
    CHECK_EQ_UINT(res.runs, GEMM_GEN_SHAPE_COUNT * sc.seeds);
    wa_context_destroy(ctx);
#else
    printf("     (the benchmark kernel generator is not built)\n");
#endif
}

UT_SUITE(UT_CASE(names) UT_CASE(bad_options) UT_CASE(default_pipeline_stats)
             UT_CASE(enable_and_replace) UT_CASE(verify_catches_missing_waits)
                 UT_CASE(verify_runs_allocation_checker) UT_CASE(invalid_input_is_not_compiled)
                 UT_CASE(stage_options) UT_CASE(random_programs) UT_CASE(examples)
                     UT_CASE(bench_kernels));
