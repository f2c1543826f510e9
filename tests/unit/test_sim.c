/* tests/unit/test_sim.c — the simulator as a host uses it (sim.h): the API and its
   bad input, the example kernels against results computed here, a K-loop GEMM
   of four waves staging A and B through LDS with barriers against a CPU matrix
   multiply (before and after register allocation), and the timing model: each
   missing wait a real kernel could have is reported, and a correct kernel gives
   the same memory whatever the seed. */
#include "check.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wa_program *parse_file(wa_context *ctx, const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", ut_examples_dir(), name);
    wa_program *prog = NULL;
    if (!CHECK_OK(wa_program_parse_file(&prog, ctx, path)))
        return NULL;
    return prog;
}

static wa_sim *sim_new(const wa_program *prog, uint64_t seed, unsigned flags, unsigned gx)
{
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.seed = seed;
    o.flags = flags;
    o.grid[0] = gx;
    wa_sim *sim = NULL;
    if (!CHECK_MSG(wa_sim_create(&sim, prog, &o) == WA_OK, "wa_sim_create: %s",
                   wa_context_last_error(wa_program_context(prog))))
        return NULL;
    return sim;
}

/* ---- the API --------------------------------------------------------------------------------- */

static void api_and_bad_input(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse_file(ctx, "copy.wa");
    REQUIRE(prog);
    wa_sim *sim = NULL;
    CHECK_STATUS(wa_sim_create(NULL, prog, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_sim_create(&sim, NULL, NULL), WA_E_INVALID);
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.version = 99;
    CHECK_STATUS(wa_sim_create(&sim, prog, &o), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "unknown wa_sim_options version 99", UT_ANY, UT_ANY, UT_ANY);
    o = (wa_sim_options)WA_SIM_OPTIONS_INIT;
    o.flags = 0x100;
    CHECK_STATUS(wa_sim_create(&sim, prog, &o), WA_E_INVALID);
    o = (wa_sim_options)WA_SIM_OPTIONS_INIT;
    o.workgroup_size[0] = 2048;
    CHECK_STATUS(wa_sim_create(&sim, prog, &o), WA_E_INVALID);
    CHECK(sim == NULL);

    REQUIRE(CHECK_OK(wa_sim_create(&sim, prog, NULL)) && sim);
    unsigned char buf[512], small[4];
    CHECK_STATUS(wa_sim_bind_buffer(NULL, 0, buf, sizeof(buf)), WA_E_INVALID);
    CHECK_STATUS(wa_sim_bind_buffer(sim, 0, NULL, 8), WA_E_INVALID);
    CHECK_STATUS(wa_sim_bind_buffer(sim, 5, buf, sizeof(buf)), WA_E_NOT_FOUND);
    CHECK_LAST_DIAG(ctx, WA_E_NOT_FOUND, "the kernel has 2 arguments, no argument 5", UT_ANY, UT_ANY,
                    UT_ANY);
    CHECK_STATUS(wa_sim_set_arg(sim, 0, small, 4), WA_E_INVALID); /* a buffer, not a value */
    CHECK_EQ_UINT(wa_sim_buffer_address(sim, 0), 0);
    CHECK_OK(wa_sim_bind_buffer(sim, 0, buf, sizeof(buf)));
    CHECK(wa_sim_buffer_address(sim, 0) != 0);
    CHECK(wa_sim_buffer_address(sim, 0) != wa_sim_buffer_address(sim, 1));
    CHECK_EQ_UINT(wa_sim_buffer_address(NULL, 0), 0);
    /* the output buffer is unbound: the store faults, located at the instruction */
    memset(buf, 7, sizeof(buf));
    CHECK_STATUS(wa_sim_run(sim), WA_E_SIM_FAULT);
    const wa_diag *d = wa_context_last_diag(ctx);
    REQUIRE(d);
    CHECK_STR_CONTAINS(d->message, "buffer_store_dwordx2");
    CHECK(d->line > 0 && d->tag != WA_NO_TAG);
    wa_sim_stats st;
    CHECK_STATUS(wa_sim_get_stats(NULL, sim), WA_E_INVALID);
    CHECK_OK(wa_sim_get_stats(&st, sim));
    CHECK_EQ_UINT(st.version, WA_SIM_STATS_VERSION);
    wa_sim_destroy(sim);
    wa_sim_destroy(NULL);
    CHECK_STATUS(wa_sim_run(NULL), WA_E_INVALID);
    wa_program_destroy(prog);

    /* a by-value argument that was never given a value */
    prog = parse_file(ctx, "vector_add.wa");
    REQUIRE(prog);
    REQUIRE(CHECK_OK(wa_sim_create(&sim, prog, NULL)));
    CHECK_STATUS(wa_sim_set_arg(sim, 3, small, 2), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "argument 3 has 4 bytes, not 2", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_sim_run(sim), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "argument 3 (by value) has no value", UT_ANY, UT_ANY, UT_ANY);
    wa_sim_destroy(sim);
    wa_program_destroy(prog);

    /* a program that does not validate is refused */
    wa_program *bad = NULL;
    REQUIRE(CHECK_OK(ut_parse_body(&bad, ctx, "gfx942", "  global_load_dwordx2 v[1:2], v0, s[0:1]\n"
                                                         "  s_endpgm\n"))); /* misaligned pair */
    CHECK_STATUS(wa_sim_create(&sim, bad, NULL), WA_E_VALIDATE);
    wa_program_destroy(bad);
    wa_context_destroy(ctx);
}

/* ---- the examples ---------------------------------------------------------------------------- */

static void copy_kernel(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse_file(ctx, "copy.wa");
    REQUIRE(prog);
    uint64_t cycles[4];
    for (uint64_t seed = 1; seed <= 4; seed++) {
        uint16_t in[256], out[256];
        for (unsigned i = 0; i < 256; i++) {
            in[i] = (uint16_t)(i * 2654435761u >> 7);
            out[i] = 0xDEAD;
        }
        wa_sim *sim = sim_new(prog, seed, WA_SIM_TIMING, 1);
        REQUIRE(sim);
        CHECK_OK(wa_sim_bind_buffer(sim, 0, in, sizeof(in)));
        CHECK_OK(wa_sim_bind_buffer(sim, 1, out, sizeof(out)));
        CHECK_MSG(wa_sim_run(sim) == WA_OK, "seed %llu: %s", (unsigned long long)seed,
                  wa_context_last_error(ctx));
        CHECK(memcmp(in, out, sizeof(in)) == 0);
        wa_sim_stats st;
        wa_sim_get_stats(&st, sim);
        CHECK_EQ_UINT(st.workgroups, 1);
        CHECK_EQ_UINT(st.waves, 1);
        CHECK_EQ_UINT(st.memory_ops, 4); /* two s_load, one load, one store */
        CHECK(st.waits >= 2);
        cycles[seed - 1] = st.cycles;
        wa_sim_destroy(sim);
    }
    /* the seed changes the timing, not the result */
    CHECK(cycles[0] != cycles[1] || cycles[1] != cycles[2] || cycles[2] != cycles[3]);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* vector_add over several workgroups, with n not a multiple of the workgroup: the
   lanes past n must not store. */
static void vector_add_kernel(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse_file(ctx, "vector_add.wa");
    REQUIRE(prog);
    const unsigned n = 700, cap = 1024;
    float *a = malloc(cap * sizeof(float)), *b = malloc(cap * sizeof(float)),
          *c = malloc(cap * sizeof(float));
    REQUIRE(a && b && c);
    for (unsigned i = 0; i < cap; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1000.0f - (float)i;
        c[i] = -1.0f;
    }
    wa_sim *sim = sim_new(prog, 3, WA_SIM_TIMING, (n + 255) / 256);
    REQUIRE(sim);
    CHECK_OK(wa_sim_bind_buffer(sim, 0, a, cap * sizeof(float)));
    CHECK_OK(wa_sim_bind_buffer(sim, 1, b, cap * sizeof(float)));
    CHECK_OK(wa_sim_bind_buffer(sim, 2, c, cap * sizeof(float)));
    CHECK_OK(wa_sim_set_arg(sim, 3, &n, sizeof(n)));
    CHECK_MSG(wa_sim_run(sim) == WA_OK, "%s", wa_context_last_error(ctx));
    unsigned bad = 0;
    for (unsigned i = 0; i < cap; i++) {
        float want = i < n ? a[i] + b[i] : -1.0f;
        bad += c[i] != want;
    }
    CHECK_EQ_UINT(bad, 0);
    wa_sim_stats st;
    wa_sim_get_stats(&st, sim);
    CHECK_EQ_UINT(st.workgroups, 3);
    CHECK_EQ_UINT(st.waves, 12);
    wa_sim_destroy(sim);
    free(a);
    free(b);
    free(c);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- a GEMM of four waves with LDS staging and barriers --------------------------------------- */

/* C (32x32 f32) = A (32xK f16, row-major) x B, with B given transposed (Bt, 32xK,
   row-major): every operand K-contiguous. Four waves each own a 16x16 quarter of
   C (wave w: rows 16*(w/2), columns 16*(w%2)). Each K step of 16: the 256
   work-items copy A's and Bt's 32x16 slices into LDS (threads 0-127 A, 128-255
   Bt, 8 bytes each, with EXEC narrowed to each half), barrier, each wave reads its
   MFMA operands from LDS, one v_mfma_f32_16x16x16_f16, barrier. */
static const char gemm_lds_text[] =
    ".kernel gemm_lds\n"
    "  .target gfx942\n"
    "  .workgroup_size 256, 1, 1\n"
    "  .lds_bytes 2048\n"
    "  .abi kernarg_ptr, workitem_id_x\n"
    "  .arg a, global_buffer, offset:0, size:8, align:8, const\n"
    "  .arg bt, global_buffer, offset:8, size:8, align:8, const\n"
    "  .arg c, global_buffer, offset:16, size:8, align:8\n"
    "  .arg k, by_value, offset:24, size:4, align:4\n"
    "  s_load_dwordx2 %s1<2,align=2>, s[0:1], 0\n"
    "  s_load_dwordx2 %s2<2,align=2>, s[0:1], 8\n"
    "  s_load_dwordx2 %s3<2,align=2>, s[0:1], 16\n"
    "  s_load_dword %s4, s[0:1], 24\n"
    "  v_and_b32 %v5, 0x7f, v0\n"                 /* t % 128 */
    "  v_lshrrev_b32 %v6, 2, %v5\n"               /* row */
    "  v_and_b32 %v7, 3, v0\n"                    /* chunk of 4 halves */
    "  v_lshlrev_b32 %v8, 3, %v7\n"               /* its byte offset */
    "  v_lshrrev_b32 %v9, 7, v0\n"                /* 0: A, 1: Bt */
    "  v_lshlrev_b32 %v10, 10, %v9\n"
    "  v_lshl_add_u32 %v11, %v6, 5, %v10\n"
    "  v_add_u32 %v11, %v11, %v8\n"               /* LDS write address */
    "  s_waitcnt lgkmcnt(0)\n"
    "  v_mul_lo_u32 %v12, %v6, %s4\n"
    "  v_lshl_add_u32 %v12, %v12, 1, %v8\n"       /* global byte offset at k0 = 0 */
    "  v_lshrrev_b32 %v13, 6, v0\n"
    "  v_readfirstlane_b32 %s14, %v13\n"          /* wave */
    "  s_lshr_b32 %s15, %s14, 1\n"                /* wm */
    "  s_and_b32 %s16, %s14, 1\n"                 /* wn */
    "  v_and_b32 %v17, 63, v0\n"
    "  v_and_b32 %v18, 15, %v17\n"                /* i = j = lane % 16 */
    "  v_lshrrev_b32 %v19, 4, %v17\n"             /* q */
    "  s_lshl_b32 %s20, %s15, 4\n"
    "  v_add_u32 %v21, %s20, %v18\n"
    "  v_lshlrev_b32 %v21, 5, %v21\n"
    "  v_lshl_add_u32 %v21, %v19, 3, %v21\n"      /* A fragment in LDS */
    "  s_lshl_b32 %s22, %s16, 4\n"
    "  v_add_u32 %v23, %s22, %v18\n"
    "  v_lshlrev_b32 %v23, 5, %v23\n"
    "  v_lshl_add_u32 %v23, %v19, 3, %v23\n"
    "  v_add_u32 %v23, 0x400, %v23\n"             /* Bt fragment in LDS */
    "  v_mov_b32 %v24<4,align=2>[0], 0\n"
    "  v_mov_b32 %v24[1], 0\n"
    "  v_mov_b32 %v24[2], 0\n"
    "  v_mov_b32 %v24[3], 0\n"
    "  s_lshr_b32 %s25, %s4, 4\n"                 /* K steps */
    "  s_mov_b32 %s26, 0\n"
    "  v_cmp_gt_u32 vcc, 0x80, v0\n"              /* the A half */
    "  s_mov_b64 %s27<2,align=2>, vcc\n"
    "loop:\n"
    "  s_and_saveexec_b64 %s28<2,align=2>, %s27\n"
    "  global_load_dwordx2 %v29<2,align=2>, %v12, %s1\n"
    "  s_andn2_b64 exec, %s28, %s27\n"
    "  global_load_dwordx2 %v29, %v12, %s2\n"
    "  s_mov_b64 exec, %s28\n"
    "  s_waitcnt vmcnt(0)\n"
    "  ds_write_b64 %v11, %v29\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  s_barrier\n"
    "  ds_read_b64 %v30<2,align=2>, %v21\n"
    "  ds_read_b64 %v31<2,align=2>, %v23\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  v_mfma_f32_16x16x16_f16 %v24, %v30, %v31, %v24\n"
    "  s_barrier\n"
    "  v_add_u32 %v12, 32, %v12\n"
    "  s_add_u32 %s26, %s26, 1\n"
    "  s_cmp_lt_u32 %s26, %s25\n"
    "  s_cbranch_scc1 loop\n"
    "  v_lshlrev_b32 %v32, 2, %v19\n"
    "  v_add_u32 %v32, %s20, %v32\n"
    "  v_lshlrev_b32 %v32, 5, %v32\n"
    "  v_add_u32 %v32, %s22, %v32\n"
    "  v_add_u32 %v32, %v32, %v18\n"
    "  v_lshlrev_b32 %v32, 2, %v32\n"             /* C byte offset of row 4q, column j */
    "  s_nop 7\n"
    "  global_store_dword %v32, %v24[0], %s3\n"
    "  global_store_dword %v32, %v24[1], %s3 offset:128\n"
    "  global_store_dword %v32, %v24[2], %s3 offset:256\n"
    "  global_store_dword %v32, %v24[3], %s3 offset:384\n"
    "  s_endpgm\n"
    ".end_kernel\n";

/* f16 bit pattern of a small integer (exact) */
static uint16_t f16_of(int v)
{
    if (v == 0)
        return 0;
    unsigned sign = v < 0, m = (unsigned)(v < 0 ? -v : v), e = 0;
    while ((m >> e) > 1)
        e++;
    unsigned frac = (m << (10 - e)) & 0x3FFu;
    return (uint16_t)(sign << 15 | (e + 15) << 10 | frac);
}

/* Runs the GEMM program for K; returns the status and counts wrong C entries. */
static wa_status run_gemm(const wa_program *prog, unsigned K, uint64_t seed, unsigned *wrong)
{
    uint16_t *a = calloc(32 * (size_t)K, 2), *bt = calloc(32 * (size_t)K, 2);
    float c[32 * 32];
    int ai[32][64], bi[32][64];
    for (unsigned r = 0; r < 32; r++)
        for (unsigned k = 0; k < K; k++) {
            ai[r][k] = (int)((r * 3 + k * 5) % 7) - 3;
            bi[r][k] = (int)((r * 5 + k) % 5) - 2;
            a[r * K + k] = f16_of(ai[r][k]);
            bt[r * K + k] = f16_of(bi[r][k]);
        }
    for (unsigned i = 0; i < 32 * 32; i++)
        c[i] = 12345.0f;
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.seed = seed;
    wa_sim *sim = NULL;
    wa_status st = wa_sim_create(&sim, prog, &o);
    if (st == WA_OK) {
        wa_sim_bind_buffer(sim, 0, a, 64 * (size_t)K);
        wa_sim_bind_buffer(sim, 1, bt, 64 * (size_t)K);
        wa_sim_bind_buffer(sim, 2, c, sizeof(c));
        wa_sim_set_arg(sim, 3, &K, sizeof(K));
        st = wa_sim_run(sim);
    }
    *wrong = 0;
    for (unsigned i = 0; i < 32; i++)
        for (unsigned j = 0; j < 32; j++) {
            int want = 0;
            for (unsigned k = 0; k < K; k++)
                want += ai[i][k] * bi[j][k]; /* B[k][j] = Bt[j][k] */
            *wrong += c[i * 32 + j] != (float)want;
        }
    wa_sim_destroy(sim);
    free(a);
    free(bt);
    return st;
}

static void gemm_lds_four_waves(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, gemm_lds_text);
    REQUIRE(prog);
    REQUIRE(CHECK_OK(wa_program_validate(NULL, prog, NULL)));
    wa_program *alloc = NULL;
    REQUIRE(CHECK_OK(wa_program_clone(&alloc, prog)));
    wa_regalloc_result *ra = NULL;
    REQUIRE(CHECK_OK(wa_regalloc_run(&ra, alloc, NULL)));
    CHECK_OK(wa_regalloc_apply(alloc, ra, NULL));
    wa_regalloc_destroy(ra);
    for (unsigned K = 16; K <= 64; K += 48)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            unsigned wrong = 99;
            wa_status st = run_gemm(prog, K, seed, &wrong);
            CHECK_MSG(st == WA_OK && wrong == 0, "K %u seed %llu: %d, %u wrong: %s", K,
                      (unsigned long long)seed, (int)st, wrong, wa_context_last_error(ctx));
            st = run_gemm(alloc, K, seed, &wrong);
            CHECK_MSG(st == WA_OK && wrong == 0, "allocated, K %u seed %llu: %d, %u wrong: %s", K,
                      (unsigned long long)seed, (int)st, wrong, wa_context_last_error(ctx));
        }
    wa_program_destroy(alloc);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- missing waits ---------------------------------------------------------------------------- */

/* The GEMM text with the first `from` replaced by `to`. */
static wa_program *gemm_edited(wa_context *ctx, const char *from, const char *to)
{
    const char *at = strstr(gemm_lds_text, from);
    if (!CHECK(at != NULL))
        return NULL;
    size_t n = strlen(gemm_lds_text), len = strlen(from), tl = strlen(to);
    char *text = malloc(n + tl + 1);
    size_t head = (size_t)(at - gemm_lds_text);
    memcpy(text, gemm_lds_text, head);
    memcpy(text + head, to, tl);
    memcpy(text + head + tl, at + len, n - head - len + 1);
    wa_program *prog = ut_parse(ctx, text);
    free(text);
    return prog;
}

/* Over a few seeds the missing wait must be reported (the timing is random, so
   a single seed may be lucky), with the status and words given. */
static void expect_wait_error(const char *from, const char *to, const char *words)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = gemm_edited(ctx, from, to);
    REQUIRE(prog);
    unsigned flagged = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        unsigned wrong;
        wa_status st = run_gemm(prog, 64, seed, &wrong);
        if (st == WA_E_SIM_WAIT) {
            flagged++;
            const wa_diag *d = wa_context_last_diag(ctx);
            CHECK_MSG(d && strstr(d->message, words), "seed %llu: %s", (unsigned long long)seed,
                      d ? d->message : "(none)");
        } else {
            CHECK_MSG(st == WA_OK, "seed %llu: %s", (unsigned long long)seed,
                      wa_context_last_error(ctx));
        }
    }
    CHECK_MSG(flagged > 0, "removing \"%s\" was never reported", from);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void missing_vmcnt_before_lds_write(void)
{
    expect_wait_error("  s_waitcnt vmcnt(0)\n", "", "before the load into it");
}

static void missing_lgkmcnt_before_barrier(void)
{
    /* another wave reads the LDS a wave has not finished writing */
    expect_wait_error("  s_waitcnt lgkmcnt(0)\n  s_barrier\n", "  s_barrier\n",
                      "has not finished writing");
}

static void missing_lgkmcnt_before_mfma(void)
{
    expect_wait_error("  s_waitcnt lgkmcnt(0)\n  v_mfma", "  v_mfma", "before the load into it");
}

/* Accesses of different waves to the same LDS bytes with no s_barrier between
   them race whatever the timing: reported on every seed, and without the
   timing model too. */
static void expect_race(const char *from, const char *to, const char *words)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = gemm_edited(ctx, from, to);
    REQUIRE(prog);
    for (uint64_t seed = 0; seed <= 4; seed++) {
        unsigned wrong;
        wa_status st = run_gemm(prog, 64, seed, &wrong);
        const wa_diag *d = wa_context_last_diag(ctx);
        CHECK_MSG(st == WA_E_SIM_WAIT && d && strstr(d->message, words) &&
                      strstr(d->message, "race (missing s_barrier between them)"),
                  "seed %llu: status %d: %s", (unsigned long long)seed, (int)st,
                  d ? d->message : "(none)");
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void lds_write_after_read_race(void)
{
    /* without the second barrier a wave's next ds_write overwrites operands
       another wave may not have read yet */
    expect_race("  s_barrier\n  v_add_u32 %v12", "  v_add_u32 %v12", "writes LDS byte");
}

static void lds_read_after_write_race(void)
{
    /* without the first barrier a wave reads what another wave writes (which
       of the two accesses comes first, and is reported, depends on the order
       the waves run in) */
    expect_race("  s_waitcnt lgkmcnt(0)\n  s_barrier\n  ds_read_b64",
                "  s_waitcnt lgkmcnt(0)\n  ds_read_b64", "LDS byte");
}

static void missing_lgkmcnt_after_smem(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse_file(ctx, "copy.wa");
    REQUIRE(prog);
    char *text = ut_print(prog);
    REQUIRE(text);
    char *w = strstr(text, "s_waitcnt lgkmcnt(0)");
    REQUIRE(w);
    memcpy(w, "s_nop 0             ", 20); /* same length: the kernel keeps its shape */
    wa_program *bad = ut_parse(ctx, text);
    wa_free(text);
    REQUIRE(bad);
    uint8_t in[512], out[512];
    memset(in, 1, sizeof(in));
    wa_sim *sim = sim_new(bad, 1, WA_SIM_TIMING, 1);
    REQUIRE(sim);
    wa_sim_bind_buffer(sim, 0, in, sizeof(in));
    wa_sim_bind_buffer(sim, 1, out, sizeof(out));
    CHECK_STATUS(wa_sim_run(sim), WA_E_SIM_WAIT);
    CHECK_LAST_DIAG(ctx, WA_E_SIM_WAIT, "reads s4|before the load into it|missing s_waitcnt", UT_ANY,
                    UT_ANY, UT_ANY);
    wa_sim_destroy(sim);
    /* without the timing model every load lands at once: no error */
    sim = sim_new(bad, 1, 0, 1);
    REQUIRE(sim);
    wa_sim_bind_buffer(sim, 0, in, sizeof(in));
    wa_sim_bind_buffer(sim, 1, out, sizeof(out));
    CHECK_OK(wa_sim_run(sim));
    CHECK(memcmp(in, out, sizeof(in)) == 0);
    wa_sim_destroy(sim);
    wa_program_destroy(bad);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- runs compared ------------------------------------------------------------------------------- */

static void compare_runs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse_file(ctx, "copy.wa");
    REQUIRE(prog);
    uint8_t in[512], o1[512], o2[512];
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(i * 13);
    memset(o1, 0, sizeof(o1));
    memset(o2, 0, sizeof(o2));
    wa_sim *s1 = sim_new(prog, 1, WA_SIM_TIMING, 1), *s2 = sim_new(prog, 9, WA_SIM_TIMING, 1);
    REQUIRE(s1 && s2);
    wa_sim_bind_buffer(s1, 0, in, sizeof(in));
    wa_sim_bind_buffer(s1, 1, o1, sizeof(o1));
    wa_sim_bind_buffer(s2, 0, in, sizeof(in));
    wa_sim_bind_buffer(s2, 1, o2, sizeof(o2));
    CHECK_OK(wa_sim_run(s1));
    CHECK_OK(wa_sim_run(s2));
    unsigned diffs = 99;
    CHECK_OK(wa_sim_compare(&diffs, s1, s2));
    CHECK_EQ_UINT(diffs, 0);
    o2[17] ^= 0x40; /* the other run's memory changed by hand */
    CHECK_STATUS(wa_sim_compare(&diffs, s1, s2), WA_E_VALIDATE);
    CHECK_EQ_UINT(diffs, 1);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "differ in 1 byte", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_sim_compare(NULL, NULL, s2), WA_E_INVALID);
    wa_sim_destroy(s1);
    wa_sim_destroy(s2);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Modifiers the semantics do not model stop the run with WA_E_UNSUPPORTED,
   naming the modifier, at the instruction that carries it (docs/simulator.md). */
static void modifiers_not_modelled(void)
{
    static const struct {
        const char *line, *words;
    } cases[] = {
        { "v_add_f32_e64 v1, v2, v3 clamp", "does not model clamp (on v_add_f32)" },
        { "v_add_f32_e64 v1, v2, v3 mul:2", "output modifier" },
        { "v_add_f32_e64 v1, -v2, v3", "source negation" },
        { "v_mul_f32_e64 v1, |v2|, v3", "absolute-value" },
        { "v_mov_b32_sdwa v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0", "SDWA" },
        { "v_pack_b32_f16 v1, v2, v3 op_sel:[1,0,0]", "op_sel" },
        /* VOP3P: lib/sim/vop3p.c refuses what is not documented */
        { "v_dot4_i32_i8 v1, v2, v3, v4 neg_lo:[1,0,0]", "neg_lo/neg_hi on integer elements" },
        { "v_dot2_f32_f16 v1, v2, v3, v4 neg_hi:[0,0,1]", "32-bit accumulator" },
        { "v_pk_mov_b32 v[6:7], v[2:3], v[4:5] clamp", "clamp is not documented" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[512];
        snprintf(text, sizeof(text),
                 ".kernel t\n  .target gfx942\n  .abi workitem_id_x\n"
                 "  v_mov_b32 v2, 1.0\n  v_mov_b32 v3, 2.0\n  v_mov_b32 v4, 0\n"
                 "  %s ; @I7\n  s_endpgm\n.end_kernel\n",
                 cases[i].line);
        ut_context("%s", cases[i].line);
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        wa_program *prog = ut_parse(ctx, text);
        if (CHECK(prog != NULL)) {
            wa_sim *sim = sim_new(prog, 1, 0, 1);
            if (sim) {
                CHECK_STATUS(wa_sim_run(sim), WA_E_UNSUPPORTED);
                CHECK_LAST_DIAG(ctx, WA_E_UNSUPPORTED, cases[i].words, UT_ANY, UT_ANY, 7);
                wa_sim_destroy(sim);
            }
        }
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
    }
    ut_context("%s", "");
}

/* Every opcode of the table is executed, or the simulator says why not (a
   reason of its family, never the generic "no semantics"). The block-scaled
   MFMAs are among those it leaves out. */
static void opcodes_executed(void)
{
    unsigned executed = 0, other = 0, scaled = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        const char *why = wa_sim_unsupported(op);
        if (info->flags & WA_IF_PSEUDO) {
            CHECK(why == NULL);
            continue;
        }
        if (!why) {
            executed++;
        } else {
            CHECK_MSG(strcmp(why, "no semantics") != 0, "%s has no semantics and no reason",
                      info->mnemonic);
            if (info->flags & WA_IF_F8F6F4)
                scaled++;
            other++;
        }
    }
    printf("     %u opcodes executed, %u not (%u f8f6f4 MFMAs)\n", executed, other, scaled);
    CHECK_EQ_UINT(scaled, 0); /* the f8f6f4 MFMAs, scaled or not, are executed */
    CHECK(wa_sim_unsupported(wa_isa_count()) != NULL);
}

UT_SUITE(UT_CASE(opcodes_executed) UT_CASE(api_and_bad_input) UT_CASE(copy_kernel) UT_CASE(vector_add_kernel)
             UT_CASE(gemm_lds_four_waves) UT_CASE(missing_vmcnt_before_lds_write)
                 UT_CASE(missing_lgkmcnt_before_barrier) UT_CASE(lds_write_after_read_race)
                 UT_CASE(lds_read_after_write_race) UT_CASE(missing_lgkmcnt_before_mfma)
                     UT_CASE(missing_lgkmcnt_after_smem) UT_CASE(compare_runs)
                         UT_CASE(modifiers_not_modelled));
