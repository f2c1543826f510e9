/* tests/unit/test_sim_diff.c — differential testing of the transformations with the
   simulator (simdiff.h): every program runs before and after a pass over several
   seeds and the memory of the two runs must agree wherever the first is defined.

   Programs: the seeded random generator's (randprog.c: loops, branches, masked
   regions, MFMAs, tuples, partial definitions), every example kernel, and the
   GEMM benchmark kernels at their smallest size. Passes: register allocation with
   rewrite (the others join as they land). A deliberately broken allocation shows
   that the harness catches a wrong transformation. */
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

#define RANDOM_PROGRAMS 400u

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

static void random_programs_regalloc(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1; /* programs that end */
    sd_config sc;
    sd_config_default(&sc);
    /* the generator does not place waits: memory operations land at once, and a
       single wave runs the same way whatever the seed */
    sc.timing = 0;
    sc.seeds = 1;
    sc.max_instructions = 50000;
    sd_result res;
    memset(&res, 0, sizeof(res));
    unsigned programs = 0;
    static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    for (uint64_t seed = 1; seed <= RANDOM_PROGRAMS; seed++) {
        cfg.items = 40 + (unsigned)(seed % 60);
        wa_program *prog = rp_generate(ctx, targets[seed % 3], seed, &cfg);
        if (!CHECK(prog != NULL))
            continue;
        programs++;
        unsigned before = res.failures;
        sd_check_pass(prog, sd_pass_regalloc, "register allocation", &sc, &res);
        if (res.failures > before && res.failures <= 2) {
            char *text = NULL;
            if (wa_program_print(&text, NULL, prog, NULL) == WA_OK)
                fprintf(stderr, "---- seed %llu ----\n%s\n", (unsigned long long)seed, text);
            wa_free(text);
        }
        wa_program_destroy(prog);
    }
    report("random programs, register allocation", &res, programs);
    CHECK_MSG(res.failures == 0, "%u failures; first: %s", res.failures, res.first_failure);
    /* the harness really compares: most programs run */
    CHECK_MSG(res.runs >= programs * sc.seeds / 3, "only %u of %u runs compared", res.runs,
              programs * sc.seeds);
    wa_context_destroy(ctx);
}

/* An allocation made wrong on purpose: one virtual register moved onto another's
   registers while both are live. The harness must notice on some programs. */
static wa_status broken_regalloc(wa_program **out, const wa_program *in)
{
    wa_program *copy = NULL;
    wa_status st = wa_program_clone(&copy, in);
    if (st)
        return st;
    wa_regalloc_result *ra = NULL;
    st = wa_regalloc_run(&ra, copy, NULL);
    if (st) {
        wa_program_destroy(copy);
        return st;
    }
    /* the first VGPR onto the register of the next VGPR of the same size */
    unsigned nv = wa_program_vreg_count(copy), moved = 0;
    for (unsigned v = 0; v < nv && !moved; v++) {
        wa_operand a, b;
        if (wa_regalloc_lookup(&a, ra, v) != WA_OK || a.reg_class != WA_REG_VGPR || a.count != 1)
            continue;
        for (unsigned w = v + 1; w < nv; w++)
            if (wa_regalloc_lookup(&b, ra, w) == WA_OK && b.reg_class == WA_REG_VGPR &&
                b.count == 1 && b.id != a.id) {
                wa_regalloc_assign(ra, v, b.id);
                moved = 1;
                break;
            }
    }
    st = wa_regalloc_apply(copy, ra, NULL);
    wa_regalloc_destroy(ra);
    if (st) {
        wa_program_destroy(copy);
        return st;
    }
    *out = copy;
    return WA_OK;
}

static void harness_catches_wrong_allocation(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1; /* programs that end */
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 1;
    sc.timing = 0;
    sc.max_instructions = 50000;
    unsigned caught = 0, tried = 0;
    for (uint64_t seed = 500; seed < 540; seed++) {
        cfg.items = 60;
        wa_program *prog = rp_generate(ctx, WA_TARGET_GFX942, seed, &cfg);
        if (!prog)
            continue;
        sd_result res;
        memset(&res, 0, sizeof(res));
        sd_check_pass(prog, broken_regalloc, "broken allocation", &sc, &res);
        if (res.runs) {
            tried++;
            caught += res.failures > 0;
        }
        wa_program_destroy(prog);
    }
    printf("     broken allocations: %u of %u programs differ\n", caught, tried);
    CHECK(tried > 10);
    CHECK_MSG(caught > tried / 4, "the harness noticed only %u of %u broken allocations", caught,
              tried);
    wa_context_destroy(ctx);
}

static void examples_regalloc(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 4;
    sc.timing = 1; /* the examples carry their waits */
    sd_result res;
    memset(&res, 0, sizeof(res));
    for (unsigned i = 0; i < n; i++) {
        wa_program *prog = NULL;
        if (!CHECK_OK(wa_program_parse_file(&prog, ctx, files[i])))
            continue;
        sd_check_pass(prog, sd_pass_regalloc, "register allocation", &sc, &res);
        wa_program_destroy(prog);
    }
    report("examples, register allocation", &res, n);
    CHECK_MSG(res.failures == 0, "first failure: %s", res.first_failure);
    CHECK_EQ_UINT(res.skipped, 0);
    CHECK_EQ_UINT(res.runs, n * sc.seeds);
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

#ifdef WAVEASM_HAVE_GEMM_GEN
static void bench_kernels_regalloc(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 2;
    sd_result res;
    memset(&res, 0, sizeof(res));
    for (int shape = 0; shape < GEMM_GEN_SHAPE_COUNT; shape++) {
        gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
        g.shape = (gemm_gen_shape)shape;
        g.instructions = 1000;
        wa_program *prog = NULL;
        if (!CHECK_OK(gemm_gen_build(&prog, NULL, ctx, &g)))
            continue;
        sd_check_pass(prog, sd_pass_regalloc, "register allocation", &sc, &res);
        wa_program_destroy(prog);
    }
    report("benchmark kernels (1k instructions), register allocation", &res, GEMM_GEN_SHAPE_COUNT);
    CHECK_MSG(res.failures == 0, "first failure: %s", res.first_failure);
    CHECK_EQ_UINT(res.runs, GEMM_GEN_SHAPE_COUNT * sc.seeds);
    wa_context_destroy(ctx);
}
#define BENCH_CASE UT_CASE(bench_kernels_regalloc)
#else
#define BENCH_CASE
#endif

UT_SUITE(UT_CASE(random_programs_regalloc) UT_CASE(harness_catches_wrong_allocation)
             UT_CASE(examples_regalloc) BENCH_CASE);
