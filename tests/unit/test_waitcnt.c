/* tests/unit/test_waitcnt.c — the s_waitcnt pass (wa_pass_waitcnt) and its
   independent checker (wa_check_waitcnt).

   Exact expectations on small kernels (the waits follow from the counting rules
   by hand: in-order vmcnt with stores and atomics counted, in-order DS, scalar
   loads forcing lgkmcnt(0), LDS-DMA, barriers, existing waits, loops, joins,
   saturation at 70 loads, physical WAW), statistics, API and bad input; the
   checker finding each kind of violation with its location, tag and the wait
   that would cover it, and accepting correct programs.

   Then differential tests in the simulator (simdiff.h): random programs, random
   programs after register allocation, every example and the GEMM benchmark
   kernels, each stripped of its waits: the stripped program runs with every
   memory operation landing at once, the pass output with random completion
   times (it must carry every wait it needs: no WA_E_SIM_WAIT, same memory), and
   the checker must accept the output. Checker agreement: whatever the checker
   accepts never fails with a missing wait in the simulator, and it rejects the
   stripped programs that need waits. */
#include "check.h"
#include "randprog.h"
#include "simdiff.h"
#include "util.h"

#ifdef WAVEASM_HAVE_GEMM_GEN
#include "gemm_gen.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------- */

/* The instruction lines of `prog` (no tags, no comments), one per line, without
   the header directives and indentation. */
static char *body_of(const wa_program *prog)
{
    char *text = ut_print_flags(prog, 0);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    size_t o = 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *s = p;
        while (s < p + len && *s == ' ')
            s++;
        size_t l2 = len - (size_t)(s - p);
        while (l2 && s[l2 - 1] == ' ')
            l2--;
        if (l2 && *s != '.') {
            memcpy(out + o, s, l2);
            o += l2;
            out[o++] = '\n';
        }
        p = e ? e + 1 : p + len;
    }
    out[o] = 0;
    wa_free(text);
    return out;
}

/* Runs the pass with `flags` on the body and returns the resulting body text
   (malloc'd; NULL on failure). Fills `stats` when non-NULL. */
static char *run_pass(wa_context *ctx, const char *target, const char *body, unsigned flags,
                      wa_pass_stats *stats)
{
    wa_program *prog = NULL;
    if (!CHECK_OK(ut_parse_body(&prog, ctx, target, body)))
        return NULL;
    wa_waitcnt_options o = WA_WAITCNT_OPTIONS_INIT;
    o.flags = flags;
    char *out = NULL;
    if (CHECK_MSG(wa_pass_waitcnt(prog, &o, stats) == WA_OK, "pass: %s", ut_diags_text(ctx))) {
        out = body_of(prog);
        unsigned errors = 99;
        CHECK_MSG(wa_check_waitcnt(&errors, prog, &o) == WA_OK && errors == 0,
                  "the checker rejects the pass output: %s\n%s", ut_diags_text(ctx), out);
    }
    wa_program_destroy(prog);
    return out;
}

#define EXPECT_BODY(ctx, body, flags, want)                                               \
    do {                                                                                  \
        char *got_ = run_pass((ctx), "gfx942", (body), (flags), NULL);                    \
        if (got_)                                                                         \
            CHECK_STR_EQ(got_, (want));                                                   \
        free(got_);                                                                       \
    } while (0)

/* Checker on a body: returns its status, *errors the count. */
static wa_status check_body(wa_context *ctx, const char *body, unsigned flags, unsigned *errors)
{
    wa_program *prog = NULL;
    if (!CHECK_OK(ut_parse_body(&prog, ctx, "gfx942", body)))
        return WA_E_PARSE;
    wa_waitcnt_options o = WA_WAITCNT_OPTIONS_INIT;
    o.flags = flags;
    *errors = 12345;
    wa_status st = wa_check_waitcnt(errors, prog, &o);
    wa_program_destroy(prog);
    return st;
}

/* The differential set-up for this pass: the stripped program runs with every
   memory operation landing at once, the pass output with random completion
   times and the checker on it. */
static void sd_for_waits(sd_config *sc)
{
    sd_config_default(sc);
    sc->timing = 0;       /* the stripped program: every operation lands at once */
    sc->after_timing = 1; /* the pass output: random completion times */
    sc->checks = SD_CHECK_WAITCNT;
    sc->seeds = 2;
    sc->max_instructions = 50000;
}

/* ---- API and bad input ------------------------------------------------------------------ */

static void api_bad_input(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_pass_stats s;
    unsigned errors = 7;
    CHECK_STATUS(wa_pass_waitcnt(NULL, NULL, &s), WA_E_INVALID);
    CHECK_STATUS(wa_check_waitcnt(&errors, NULL, NULL), WA_E_INVALID);
    CHECK_EQ_UINT(errors, 0);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942",
                             "  global_load_dword v1, v[2:3], off\n"
                             "  v_mov_b32 v4, v1\n"
                             "  s_endpgm\n"));
    wa_waitcnt_options o = WA_WAITCNT_OPTIONS_INIT;
    o.version = 0;
    CHECK_STATUS(wa_pass_waitcnt(prog, &o, &s), WA_E_INVALID);
    CHECK_STATUS(wa_check_waitcnt(&errors, prog, &o), WA_E_INVALID);
    o.version = WA_WAITCNT_OPTIONS_VERSION + 1;
    CHECK_STATUS(wa_pass_waitcnt(prog, &o, &s), WA_E_INVALID);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "wa_waitcnt_options");
    CHECK_STATUS(wa_check_waitcnt(&errors, prog, &o), WA_E_INVALID);
    o.version = WA_WAITCNT_OPTIONS_VERSION;
    o.flags = 0x4;
    CHECK_STATUS(wa_pass_waitcnt(prog, &o, &s), WA_E_INVALID);
    CHECK_STATUS(wa_check_waitcnt(&errors, prog, &o), WA_E_INVALID);
    o.flags = WA_WAITCNT_BARRIER_VMEM | WA_WAITCNT_NO_BARRIER;
    CHECK_STATUS(wa_pass_waitcnt(prog, &o, &s), WA_E_INVALID);
    CHECK_STATUS(wa_check_waitcnt(&errors, prog, &o), WA_E_INVALID);
    /* nothing changed by the refused calls */
    CHECK_STATUS(wa_check_waitcnt(&errors, prog, NULL), WA_E_VALIDATE);
    CHECK_EQ_UINT(errors, 1);
    CHECK_EQ_UINT(wa_program_size(prog), 3);
    /* NULL options and NULL stats are the defaults */
    CHECK_OK(wa_pass_waitcnt(prog, NULL, NULL));
    CHECK_EQ_UINT(wa_program_size(prog), 4);
    CHECK_OK(wa_check_waitcnt(NULL, prog, NULL));
    /* a second run finds nothing to do */
    CHECK_OK(wa_pass_waitcnt(prog, NULL, &s));
    CHECK_EQ_UINT(s.version, WA_PASS_STATS_VERSION);
    CHECK_EQ_UINT(s.waitcnts_inserted + s.waitcnts_merged + s.inserted + s.changed, 0);
    CHECK_EQ_UINT(s.instrs_before, 4);
    CHECK_EQ_UINT(s.instrs_after, 4);
    wa_program_destroy(prog);
    /* an empty kernel */
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942", ""));
    CHECK_OK(wa_pass_waitcnt(prog, NULL, &s));
    CHECK_EQ_UINT(s.instrs_after, 0);
    CHECK_OK(wa_check_waitcnt(&errors, prog, NULL));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- exact waits ------------------------------------------------------------------------- */

static void exact_waits(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* in order on vmcnt, a store between the loads counts */
    EXPECT_BODY(ctx,
                "  global_load_dword v1, v[10:11], off\n"
                "  buffer_store_dword v2, off, s[4:7], 0\n"
                "  global_load_dwordx2 v[4:5], v[10:11], off\n"
                "  global_load_dword v6, v[10:11], off\n"
                "  v_mov_b32 v7, v5\n"
                "  v_mov_b32 v8, v1\n"
                "  s_endpgm\n",
                0,
                "global_load_dword v1, v[10:11], off\n"
                "buffer_store_dword v2, off, s[4:7], 0\n"
                "global_load_dwordx2 v[4:5], v[10:11], off\n"
                "global_load_dword v6, v[10:11], off\n"
                "s_waitcnt vmcnt(1)\n"
                "v_mov_b32 v7, v5\n"
                "v_mov_b32 v8, v1\n"
                "s_endpgm\n");
    /* a wait at the start of a fall-through block (no label) and none in the
       taken path's block, which does not read the load */
    EXPECT_BODY(ctx,
                "  s_load_dword s4, s[0:1], 0\n"
                "  s_cmp_eq_u32 s5, 0\n"
                "  s_cbranch_scc1 out\n"
                "  s_add_u32 s6, s4, 1\n"
                "out:\n"
                "  s_endpgm\n",
                0,
                "s_load_dword s4, s[0:1], 0\n"
                "s_cmp_eq_u32 s5, 0\n"
                "s_cbranch_scc1 out\n"
                "s_waitcnt lgkmcnt(0)\n"
                "s_add_u32 s6, s4, 1\n"
                "out:\n"
                "s_endpgm\n");
    /* unreachable code (after s_endpgm) is left alone */
    EXPECT_BODY(ctx,
                "  s_endpgm\n"
                "  global_load_dword v1, v[10:11], off\n"
                "  v_mov_b32 v2, v1\n"
                "  s_endpgm\n",
                0,
                "s_endpgm\n"
                "global_load_dword v1, v[10:11], off\n"
                "v_mov_b32 v2, v1\n"
                "s_endpgm\n");
    /* tightening keeps the other fields of the existing wait (expcnt too) */
    EXPECT_BODY(ctx,
                "  global_load_dword v1, v[10:11], off\n"
                "  ds_read_b32 v2, v12\n"
                "  s_waitcnt vmcnt(0) expcnt(3)\n"
                "  v_mov_b32 v3, v2\n"
                "  s_endpgm\n",
                0,
                "global_load_dword v1, v[10:11], off\n"
                "ds_read_b32 v2, v12\n"
                "s_waitcnt vmcnt(0) expcnt(3) lgkmcnt(0)\n"
                "v_mov_b32 v3, v2\n"
                "s_endpgm\n");
    /* nested loops: the inner loop's DS read is in flight around both back edges
       and at the outer head it has one younger DS write behind it */
    EXPECT_BODY(ctx,
                "  v_mov_b32 v1, 0\n"
                "  s_mov_b32 s4, 0\n"
                "outer:\n"
                "  v_add_u32_e64 v3, v1, 1\n"
                "  s_mov_b32 s5, 0\n"
                "inner:\n"
                "  ds_read_b32 v1, v12\n"
                "  s_add_u32 s5, s5, 1\n"
                "  s_cmp_lt_u32 s5, 4\n"
                "  s_cbranch_scc1 inner\n"
                "  ds_write_b32 v12, v3\n"
                "  s_add_u32 s4, s4, 1\n"
                "  s_cmp_lt_u32 s4, 4\n"
                "  s_cbranch_scc1 outer\n"
                "  s_endpgm\n",
                0,
                "v_mov_b32 v1, 0\n"
                "s_mov_b32 s4, 0\n"
                "outer:\n"
                "s_waitcnt lgkmcnt(1)\n"
                "v_add_u32_e64 v3, v1, 1\n"
                "s_mov_b32 s5, 0\n"
                "inner:\n"
                "ds_read_b32 v1, v12\n"
                "s_add_u32 s5, s5, 1\n"
                "s_cmp_lt_u32 s5, 4\n"
                "s_cbranch_scc1 inner\n"
                "ds_write_b32 v12, v3\n"
                "s_add_u32 s4, s4, 1\n"
                "s_cmp_lt_u32 s4, 4\n"
                "s_cbranch_scc1 outer\n"
                "s_endpgm\n");
    /* the barrier flags through the API */
    static const char *barrier_body = "  ds_write_b32 v10, v1\n"
                                      "  buffer_atomic_add_f32 v2, v10, s[4:7], 0 offen\n"
                                      "  s_barrier\n"
                                      "  s_endpgm\n";
    EXPECT_BODY(ctx, barrier_body, 0,
                "ds_write_b32 v10, v1\n"
                "buffer_atomic_add_f32 v2, v10, s[4:7], 0 offen\n"
                "s_waitcnt lgkmcnt(0)\n"
                "s_barrier\n"
                "s_endpgm\n");
    EXPECT_BODY(ctx, barrier_body, WA_WAITCNT_BARRIER_VMEM,
                "ds_write_b32 v10, v1\n"
                "buffer_atomic_add_f32 v2, v10, s[4:7], 0 offen\n"
                "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                "s_barrier\n"
                "s_endpgm\n");
    EXPECT_BODY(ctx, barrier_body, WA_WAITCNT_NO_BARRIER,
                "ds_write_b32 v10, v1\n"
                "buffer_atomic_add_f32 v2, v10, s[4:7], 0 offen\n"
                "s_barrier\n"
                "s_endpgm\n");
    wa_context_destroy(ctx);
}

/* The DS forms beyond plain reads and writes count on lgkmcnt in DS order from
   the table alone: a returning atomic's vdst, a d16 read's half (vdst read and
   written), append's vdst, a lane exchange's result; non-returning atomics and
   ds_nop count but write nothing. */
static void ds_forms(void)
{
    static const char *targets[3] = { "gfx90a", "gfx942", "gfx950" };
    static const char *body = "  ds_add_rtn_u32 v1, v12, v2\n"
                              "  ds_read_u16_d16_hi v3, v12 offset:2\n"
                              "  ds_max_u32 v12, v2\n"
                              "  ds_append v4\n"
                              "  ds_bpermute_b32 v5, v12, v2\n"
                              "  ds_nop\n"
                              "  v_add_u32 v6, v1, v3\n"
                              "  v_add_u32 v7, v4, v5\n"
                              "  ds_wrxchg2st64_rtn_b64 v[8:11], v12, v[14:15], v[16:17] offset1:1\n"
                              "  v_mov_b32 v14, 0\n"
                              "  v_mov_b32 v20, v9\n"
                              "  s_endpgm\n";
    for (unsigned t = 0; t < 3; t++) {
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        ut_context("%s", targets[t]);
        char *got = run_pass(ctx, targets[t], body, 0, NULL);
        if (got)
            CHECK_STR_EQ(got, "ds_add_rtn_u32 v1, v12, v2\n"
                              "ds_read_u16_d16_hi v3, v12 offset:2\n"
                              "ds_max_u32 v12, v2\n"
                              "ds_append v4\n"
                              "ds_bpermute_b32 v5, v12, v2\n"
                              "ds_nop\n"
                              "s_waitcnt lgkmcnt(4)\n"
                              "v_add_u32 v6, v1, v3\n"
                              "s_waitcnt lgkmcnt(1)\n"
                              "v_add_u32 v7, v4, v5\n"
                              "ds_wrxchg2st64_rtn_b64 v[8:11], v12, v[14:15], v[16:17] offset1:1\n"
                              "v_mov_b32 v14, 0\n"
                              "s_waitcnt lgkmcnt(0)\n"
                              "v_mov_b32 v20, v9\n"
                              "s_endpgm\n");
        free(got);
        wa_context_destroy(ctx);
    }
}

/* The same counts on every target; the pass keeps the tags of the instructions
   it keeps, gives new ones to its waits, and finds nothing to do a second time. */
static void targets_tags_idempotence(void)
{
    static const char *targets[3] = { "gfx90a", "gfx942", "gfx950" };
    static const char *body = "  ds_read_b32 v1, v12\n"
                              "  ds_read_b32 v2, v12 offset:4\n"
                              "  global_load_dword v3, v[10:11], off\n"
                              "  v_add_u32 v4, v1, v3\n"
                              "  s_endpgm\n";
    for (unsigned t = 0; t < 3; t++) {
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        ut_context("%s", targets[t]);
        char *got = run_pass(ctx, targets[t], body, 0, NULL);
        if (got)
            CHECK_STR_EQ(got, "ds_read_b32 v1, v12\n"
                              "ds_read_b32 v2, v12 offset:4\n"
                              "global_load_dword v3, v[10:11], off\n"
                              "s_waitcnt vmcnt(0) lgkmcnt(1)\n"
                              "v_add_u32 v4, v1, v3\n"
                              "s_endpgm\n");
        free(got);
        wa_program *prog = NULL;
        if (CHECK_OK(ut_parse_body(&prog, ctx, targets[t], body))) {
            wa_pass_stats s;
            REQUIRE_OK(wa_pass_waitcnt(prog, NULL, &s));
            unsigned where = 99;
            CHECK_OK(wa_program_find_tag(&where, prog, 3)); /* v_add_u32 kept its tag */
            CHECK_EQ_UINT(where, 4);
            wa_instr_view v;
            REQUIRE_OK(wa_program_get(&v, prog, 3));
            CHECK_EQ_INT(v.opcode, WA_OP_S_WAITCNT);
            CHECK_EQ_UINT(v.tag, 5); /* the next free tag */
            CHECK_OK(wa_pass_waitcnt(prog, NULL, &s));
            CHECK_EQ_UINT(s.inserted + s.changed + s.waitcnts_inserted + s.waitcnts_merged, 0);
            CHECK_EQ_UINT(s.instrs_before, 6);
            CHECK_EQ_UINT(s.instrs_after, 6);
            wa_program_destroy(prog);
        }
        ut_context("%s", "");
        wa_context_destroy(ctx);
    }
}

static void stats_values(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_pass_stats s;
    memset(&s, 0xAB, sizeof(s));
    /* three waits inserted (the scalar load waits for the vector store in
       flight), one existing wait tightened, a straight line */
    char *got = run_pass(ctx, "gfx942",
                         "  global_load_dword v1, v[10:11], off\n"
                         "  global_store_dword v[10:11], v4, off\n"
                         "  global_load_dword v2, v[10:11], off offset:4\n"
                         "  v_mov_b32 v5, v1\n"
                         "  s_load_dword s4, s[0:1], 0\n"
                         "  s_waitcnt vmcnt(0)\n"
                         "  s_mov_b32 s5, s4\n"
                         "  ds_read_b32 v6, v12\n"
                         "  v_mov_b32 v7, v6\n"
                         "  s_endpgm\n",
                         0, &s);
    if (got)
        CHECK_STR_EQ(got, "global_load_dword v1, v[10:11], off\n"
                          "global_store_dword v[10:11], v4, off\n"
                          "global_load_dword v2, v[10:11], off offset:4\n"
                          "s_waitcnt vmcnt(2)\n"
                          "v_mov_b32 v5, v1\n"
                          "s_waitcnt vmcnt(1)\n"
                          "s_load_dword s4, s[0:1], 0\n"
                          "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                          "s_mov_b32 s5, s4\n"
                          "ds_read_b32 v6, v12\n"
                          "s_waitcnt lgkmcnt(0)\n"
                          "v_mov_b32 v7, v6\n"
                          "s_endpgm\n");
    free(got);
    CHECK_EQ_UINT(s.version, WA_PASS_STATS_VERSION);
    CHECK_EQ_UINT(s.instrs_before, 10);
    CHECK_EQ_UINT(s.instrs_after, 13);
    CHECK_EQ_UINT(s.inserted, 3);
    CHECK_EQ_UINT(s.waitcnts_inserted, 3);
    CHECK_EQ_UINT(s.waitcnts_merged, 1);
    CHECK_EQ_UINT(s.changed, 1);
    CHECK_EQ_UINT(s.removed, 0);
    CHECK_EQ_UINT(s.iterations, 1);
    CHECK_EQ_UINT(s.nops_inserted + s.fused + s.folded + s.eliminated + s.hoisted, 0);
    /* a load read in the next iteration: the back edge changes the head's state
       once (two sweeps); a loop whose back edge carries nothing new: one */
    free(run_pass(ctx, "gfx942",
                  "  v_mov_b32 v1, 0\n"
                  "  s_mov_b32 s4, 0\n"
                  "loop:\n"
                  "  v_add_u32 v2, v1, v2\n"
                  "  global_load_dword v1, v[10:11], off\n"
                  "  s_add_u32 s4, s4, 1\n"
                  "  s_cmp_lt_u32 s4, 8\n"
                  "  s_cbranch_scc1 loop\n"
                  "  s_endpgm\n",
                  0, &s));
    CHECK_EQ_UINT(s.iterations, 2);
    CHECK_EQ_UINT(s.waitcnts_inserted, 1);
    free(run_pass(ctx, "gfx942",
                  "  s_mov_b32 s4, 0\n"
                  "loop:\n"
                  "  global_load_dword v1, v[10:11], off\n"
                  "  v_add_u32 v2, v1, v2\n"
                  "  s_add_u32 s4, s4, 1\n"
                  "  s_cmp_lt_u32 s4, 8\n"
                  "  s_cbranch_scc1 loop\n"
                  "  s_endpgm\n",
                  0, &s));
    CHECK_EQ_UINT(s.iterations, 1);
    CHECK_EQ_UINT(s.waitcnts_inserted, 1);
    wa_context_destroy(ctx);
}

/* ---- the checker ----------------------------------------------------------------------- */

/* Checks `body` and expects `n` errors; the first is at the instruction tagged
   `tag` (on body line `line`, from 0) and its message contains `text`. */
static void expect_errors(wa_context *ctx, const char *body, unsigned flags, unsigned n,
                          unsigned tag, unsigned line, const char *text)
{
    unsigned errors = 0;
    wa_status st = check_body(ctx, body, flags, &errors);
    CHECK_STATUS(st, n ? WA_E_VALIDATE : WA_OK);
    CHECK_EQ_UINT(errors, n);
    unsigned nd = 0;
    for (unsigned i = 0; i < wa_context_diag_count(ctx); i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        if (d->severity != WA_SEVERITY_ERROR)
            continue;
        if (nd++ == 0 && n) {
            CHECK_EQ_UINT(d->tag, tag);
            CHECK_MSG(strstr(d->message, text) != NULL, "'%s' lacks '%s'", d->message, text);
            CHECK_EQ_UINT(d->line, UT_BODY_LINE + line);
            CHECK_EQ_UINT(d->col, 3);
        }
    }
    CHECK_EQ_UINT(nd, n);
}

static void checker_violations(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* RAW, vector memory: no wait, then a wait too loose */
    expect_errors(ctx,
                  "  global_load_dword v1, v[10:11], off\n"
                  "  global_load_dword v2, v[10:11], off\n"
                  "  v_mov_b32 v3, v2\n"
                  "  s_endpgm\n",
                  0, 1, 2, 2, "reads v2 while global_load_dword @I1, which writes it, may still be in "
                           "flight: needs s_waitcnt vmcnt(0)");
    expect_errors(ctx,
                  "  global_load_dword v1, v[10:11], off\n"
                  "  global_load_dword v2, v[10:11], off\n"
                  "  s_waitcnt vmcnt(2)\n"
                  "  v_mov_b32 v3, v1\n"
                  "  s_endpgm\n",
                  0, 1, 3, 3, "needs s_waitcnt vmcnt(1)");
    /* RAW, scalar: lgkmcnt(1) never retires a scalar load */
    expect_errors(ctx,
                  "  s_load_dword s4, s[0:1], 0\n"
                  "  s_load_dword s5, s[0:1], 4\n"
                  "  s_waitcnt lgkmcnt(1)\n"
                  "  s_mov_b32 s6, s4\n"
                  "  s_endpgm\n",
                  0, 1, 3, 3, "reads s4 while s_load_dword @I0, which writes it, may still be in "
                           "flight: needs s_waitcnt lgkmcnt(0)");
    /* RAW through a virtual register component, the tuple's other half is fine */
    expect_errors(ctx,
                  "  global_load_dwordx2 %v1<2,align=2>[0:1], v[10:11], off\n"
                  "  v_mov_b32 %v2, %v1[1]\n"
                  "  s_endpgm\n",
                  0, 1, 1, 1, "reads %v1[1] while global_load_dwordx2 @I0");
    /* WAW: VALU over a DS read; a vector load behind a vector load is fine */
    expect_errors(ctx,
                  "  global_load_dword v1, v[10:11], off\n"
                  "  global_load_dword v1, v[10:11], off\n"
                  "  s_waitcnt vmcnt(0)\n"
                  "  ds_read_b32 v1, v12\n"
                  "  v_mov_b32 v1, 0\n"
                  "  s_endpgm\n",
                  0, 1, 4, 4, "overwrites v1 while ds_read_b32 @I3, which writes it, may still be in "
                           "flight: needs s_waitcnt lgkmcnt(0)");
    /* a DS instruction while an LDS-DMA is in flight */
    expect_errors(ctx,
                  "  s_mov_b32 m0, 0\n"
                  "  buffer_load_dword v1, s[4:7], 0 offen lds\n"
                  "  ds_read_b32 v2, v12\n"
                  "  s_endpgm\n",
                  0, 1, 2, 2, "accesses LDS while buffer_load_dword @I1 (LDS-DMA)");
    /* barriers per option */
    static const char *bar = "  ds_write_b32 v12, v1\n"
                             "  global_store_dword v[10:11], v1, off\n"
                             "  s_barrier\n"
                             "  s_endpgm\n";
    expect_errors(ctx, bar, 0, 1, 2, 2, "s_barrier while ds_write_b32 @I0");
    expect_errors(ctx, bar, WA_WAITCNT_BARRIER_VMEM, 2, 2, 2, "s_barrier while ds_write_b32 @I0");
    expect_errors(ctx, bar, WA_WAITCNT_NO_BARRIER, 0, 0, 0, "");
    /* memory through two queues */
    expect_errors(ctx,
                  "  global_store_dword v[10:11], v1, off\n"
                  "  s_load_dword s4, s[0:1], 0\n"
                  "  s_endpgm\n",
                  0, 1, 1, 1, "reads memory while global_store_dword @I0 may still be writing it");
    /* a field above the maximum */
    expect_errors(ctx, "  s_waitcnt lgkmcnt(20)\n  s_endpgm\n", 0, 1, 0, 0,
                  "s_waitcnt field above its maximum");
    /* loop: in flight around the back edge only */
    expect_errors(ctx,
                  "  v_mov_b32 v1, 0\n"
                  "  s_mov_b32 s4, 0\n"
                  "loop:\n"
                  "  v_add_u32 v2, v1, v2\n"
                  "  global_load_dword v1, v[10:11], off\n"
                  "  s_add_u32 s4, s4, 1\n"
                  "  s_cmp_lt_u32 s4, 8\n"
                  "  s_cbranch_scc1 loop\n"
                  "  s_waitcnt vmcnt(0)\n"
                  "  s_endpgm\n",
                  0, 1, 2, 3, "reads v1 while global_load_dword @I3");
    /* one diagnostic per violation: two registers from two loads */
    expect_errors(ctx,
                  "  global_load_dword v1, v[10:11], off\n"
                  "  ds_read_b32 v2, v12\n"
                  "  v_add_u32 v3, v1, v2\n"
                  "  v_add_u32 v4, v1, v2\n"
                  "  s_endpgm\n",
                  0, 2, 2, 2, "reads v1 while global_load_dword @I0");
    wa_context_destroy(ctx);
}

/* Scalar stores and atomics count on lgkmcnt and complete in any order: a
   store's data is read at issue (its register may be rewritten at once), a
   returning atomic writes sdata (read it after lgkmcnt(0)), every memory access
   after a scalar store or atomic waits for it, and a scalar store waits for the
   scalar loads before it. The checker reports each missing wait. */
static void scalar_stores_and_atomics(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    EXPECT_BODY(ctx,
                "  s_store_dword s8, s[0:1], 0\n"
                "  s_mov_b32 s8, 1\n"
                "  s_atomic_add s9, s[0:1], 4\n"
                "  s_mov_b32 s9, 2\n"
                "  s_atomic_add s10, s[0:1], 8 glc\n"
                "  s_add_u32 s11, s10, 1\n"
                "  s_endpgm\n",
                0,
                "s_store_dword s8, s[0:1], 0\n"
                "s_mov_b32 s8, 1\n"
                "s_waitcnt lgkmcnt(0)\n"
                "s_atomic_add s9, s[0:1], 4\n"
                "s_mov_b32 s9, 2\n"
                "s_waitcnt lgkmcnt(0)\n"
                "s_atomic_add s10, s[0:1], 8 glc\n"
                "s_waitcnt lgkmcnt(0)\n"
                "s_add_u32 s11, s10, 1\n"
                "s_endpgm\n");
    EXPECT_BODY(ctx,
                "  s_load_dword s4, s[0:1], 0\n"
                "  s_store_dword s8, s[0:1], 4\n"
                "  global_load_dword v1, v[2:3], off\n"
                "  s_endpgm\n",
                0,
                "s_load_dword s4, s[0:1], 0\n"
                "s_waitcnt lgkmcnt(0)\n"
                "s_store_dword s8, s[0:1], 4\n"
                "s_waitcnt lgkmcnt(0)\n"
                "global_load_dword v1, v[2:3], off\n"
                "s_endpgm\n");
    /* the checker: a load behind a scalar store, a store behind a scalar load, a
       returning atomic's result read early */
    expect_errors(ctx,
                  "  s_store_dword s8, s[0:1], 0\n"
                  "  s_load_dword s4, s[0:1], 0\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_endpgm\n",
                  0, 1, 1, 1, "accesses memory while s_store_dword @I0");
    expect_errors(ctx,
                  "  s_load_dword s4, s[0:1], 0\n"
                  "  s_buffer_store_dword s8, s[12:15], 0\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_endpgm\n",
                  0, 1, 1, 1, "writes memory while s_load_dword @I0");
    expect_errors(ctx,
                  "  s_atomic_cmpswap s[8:9], s[0:1], 0 glc\n"
                  "  s_mov_b32 s10, s8\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_endpgm\n",
                  0, 1, 1, 1, "reads s8 while s_atomic_cmpswap @I0");
    expect_errors(ctx,
                  "  s_store_dwordx2 s[8:9], s[0:1], 0\n"
                  "  s_mov_b64 s[8:9], 0\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_endpgm\n",
                  0, 0, 0, 0, "");
    wa_context_destroy(ctx);
}

static void checker_accepts(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* exact waits, saturated counts, precision beyond the pass (lgkmcnt(1) with a
       scalar load in flight retires the older DS read; DS behind DS) */
    static const char *ok[] = {
        "  global_load_dword v1, v[10:11], off\n"
        "  global_store_dword v[10:11], v4, off\n"
        "  global_load_dword v2, v[10:11], off\n"
        "  s_waitcnt vmcnt(2)\n"
        "  v_mov_b32 v5, v1\n"
        "  s_endpgm\n",
        "  s_load_dword s4, s[0:1], 0\n"
        "  ds_read_b32 v1, v12\n"
        "  ds_read_b32 v2, v12\n"
        "  s_waitcnt lgkmcnt(1)\n"
        "  v_mov_b32 v3, v1\n"
        "  ds_read_b32 v6, v12\n"
        "  ds_read_b32 v6, v12\n"
        "  s_endpgm\n",
        "  s_mov_b32 m0, 0\n"
        "  buffer_load_dword v1, s[4:7], 0 offen lds\n"
        "  buffer_load_dword v1, s[4:7], 0 offen lds offset:64\n"
        "  global_load_dword v2, v[10:11], off\n"
        "  s_waitcnt vmcnt(1)\n"
        "  ds_read_b32 v3, v12\n"
        "  s_waitcnt lgkmcnt(0)\n"
        "  s_barrier\n"
        "  s_endpgm\n",
        "  buffer_atomic_add_f32 v1, v10, s[4:7], 0 offen\n"
        "  v_mov_b32 v1, 0\n"
        "  v_mov_b32 v2, v1\n"
        "  s_endpgm\n",
        "  s_endpgm\n"
        "  global_load_dword v1, v[10:11], off\n"
        "  v_mov_b32 v2, v1\n"
        "  s_endpgm\n",
    };
    for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        unsigned errors = 1;
        ut_context("program %u", i);
        CHECK_STATUS(check_body(ctx, ok[i], 0, &errors), WA_OK);
        CHECK_EQ_UINT(errors, 0);
        CHECK_EQ_UINT(wa_context_diag_count(ctx), 0);
    }
    ut_context("%s", "");
    /* every example as written */
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    for (unsigned i = 0; i < n; i++) {
        wa_program *prog = NULL;
        if (!CHECK_OK(wa_program_parse_file(&prog, ctx, files[i])))
            continue;
        unsigned errors = 1;
        CHECK_MSG(wa_check_waitcnt(&errors, prog, NULL) == WA_OK && errors == 0, "%s: %s",
                  files[i], wa_context_last_error(ctx));
        wa_program_destroy(prog);
    }
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

/* ---- several waves: LDS, LDS-DMA and barriers in the simulator -------------------------------- */

/* Four waves exchange data through LDS (wave w reads what wave w^1 wrote,
   partner = tid ^ 64), then through an LDS-DMA of the input placed by each wave
   at 1024 + 256 * wave: out[t] = (in[t ^ 64] + 1) + (in[t] + 1) and
   out[256 + t] = in[t ^ 64] + out[t]. The waits are the hand-written ones the
   pass must reproduce. */
static const char *exchange_kernel =
    ".kernel exchange\n"
    "  .target gfx942\n"
    "  .workgroup_size 256, 1, 1\n"
    "  .lds_bytes 2048\n"
    "  .abi kernarg_ptr, workitem_id_x\n"
    "  .arg in, global_buffer, offset:0, size:8, align:8, const\n"
    "  .arg out, global_buffer, offset:8, size:8, align:8\n"
    "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
    "  v_lshlrev_b32 v1, 2, v0\n"
    "  v_xor_b32 v3, 0x100, v1\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  global_load_dword v2, v1, s[4:5]\n"
    "  s_waitcnt vmcnt(0)\n"
    "  v_add_u32 v2, 1, v2\n"
    "  ds_write_b32 v1, v2\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  s_barrier\n"
    "  ds_read_b32 v4, v3\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  v_add_u32 v4, v4, v2\n"
    "  global_store_dword v1, v4, s[6:7]\n"
    "  v_readfirstlane_b32 s12, v0\n"
    "  s_lshr_b32 s12, s12, 6\n"
    "  s_lshl_b32 s12, s12, 8\n"
    "  s_add_u32 m0, s12, 1024\n"
    "  s_mov_b32 s8, s4\n"
    "  s_mov_b32 s9, s5\n"
    "  s_mov_b32 s10, 1024\n"
    "  s_mov_b32 s11, 0x20000\n"
    "  buffer_load_dword v1, s[8:11], 0 offen lds\n"
    "  s_waitcnt vmcnt(0)\n"
    "  s_barrier\n"
    "  ds_read_b32 v5, v3 offset:1024\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  v_add_u32 v5, v5, v4\n"
    "  global_store_dword v1, v5, s[6:7] offset:1024\n"
    "  s_endpgm\n"
    ".end_kernel\n";

/* Waves exchange data through global memory across a barrier:
   out[256 + t] = (in[t ^ 64] + 7) + (in[t] + 7). Correct only if the store is
   complete at the barrier (WA_WAITCNT_BARRIER_VMEM). */
static const char *global_exchange_kernel =
    ".kernel global_exchange\n"
    "  .target gfx942\n"
    "  .workgroup_size 256, 1, 1\n"
    "  .abi kernarg_ptr, workitem_id_x\n"
    "  .arg in, global_buffer, offset:0, size:8, align:8, const\n"
    "  .arg out, global_buffer, offset:8, size:8, align:8\n"
    "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
    "  v_lshlrev_b32 v1, 2, v0\n"
    "  v_xor_b32 v3, 0x100, v1\n"
    "  global_load_dword v2, v1, s[4:5]\n"
    "  v_add_u32 v2, 7, v2\n"
    "  global_store_dword v1, v2, s[6:7]\n"
    "  s_barrier\n"
    "  global_load_dword v4, v3, s[6:7]\n"
    "  v_add_u32 v4, v4, v2\n"
    "  global_store_dword v1, v4, s[6:7] offset:1024\n"
    "  s_endpgm\n"
    ".end_kernel\n";

#define XBYTES 4096u

/* Runs `prog` with timing (seed) on in[] = 3 * i + 11 and a zeroed out[];
   returns the status, out[] the result. */
static wa_status run_exchange(const wa_program *prog, uint64_t seed, uint32_t *out)
{
    static uint32_t in[XBYTES / 4];
    for (unsigned i = 0; i < XBYTES / 4; i++)
        in[i] = 3u * i + 11u;
    memset(out, 0, XBYTES);
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.flags = WA_SIM_TIMING;
    o.seed = seed;
    wa_sim *sim = NULL;
    wa_status st = wa_sim_create(&sim, prog, &o);
    if (!CHECK_OK(st))
        return st;
    CHECK_OK(wa_sim_bind_buffer(sim, 0, in, XBYTES));
    CHECK_OK(wa_sim_bind_buffer(sim, 1, out, XBYTES));
    st = wa_sim_run(sim);
    wa_sim_destroy(sim);
    return st;
}

static wa_status pass_barrier_vmem(wa_program **out, const wa_program *in)
{
    wa_program *copy = NULL;
    wa_status st = wa_program_clone(&copy, in);
    if (st)
        return st;
    wa_waitcnt_options o = WA_WAITCNT_OPTIONS_INIT;
    o.flags = WA_WAITCNT_BARRIER_VMEM;
    st = wa_pass_waitcnt(copy, &o, NULL);
    if (st) {
        wa_program_destroy(copy);
        return st;
    }
    *out = copy;
    return WA_OK;
}

static void several_waves(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static uint32_t out[XBYTES / 4];
    wa_program *orig = ut_parse(ctx, exchange_kernel), *stripped = NULL, *waited = NULL;
    REQUIRE(orig != NULL);
    REQUIRE_OK(sd_strip_waits_and_nops(&stripped, orig));
    REQUIRE_OK(sd_pass_waitcnt(&waited, stripped));
    /* the hand-written waits, no more and no fewer */
    char *want = body_of(orig), *got = body_of(waited);
    if (want && got)
        CHECK_STR_EQ(got, want);
    free(want);
    free(got);
    unsigned waits_missing = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        waits_missing += run_exchange(stripped, seed, out) == WA_E_SIM_WAIT;
        if (!CHECK_OK(run_exchange(waited, seed, out)))
            continue;
        unsigned bad = 0;
        for (unsigned t = 0; t < 256; t++) {
            uint32_t a = 3u * t + 11u, b = 3u * (t ^ 64u) + 11u;
            bad += out[t] != (a + 1u) + (b + 1u);
            bad += out[256 + t] != b + (a + 1u) + (b + 1u);
        }
        CHECK_MSG(bad == 0, "seed %llu: %u wrong values", (unsigned long long)seed, bad);
    }
    CHECK_EQ_UINT(waits_missing, 6); /* the stripped kernel needs its waits */
    wa_program_destroy(orig);
    wa_program_destroy(stripped);
    wa_program_destroy(waited);

    /* global memory across the barrier: only BARRIER_VMEM drains the store */
    REQUIRE((orig = ut_parse(ctx, global_exchange_kernel)) != NULL);
    sd_config sc;
    sd_for_waits(&sc);
    sc.seeds = 6;
    sd_result lds_only, vmem;
    memset(&lds_only, 0, sizeof(lds_only));
    memset(&vmem, 0, sizeof(vmem));
    sd_check_pass(orig, sd_pass_waitcnt, "waitcnt", &sc, &lds_only);
    sd_check_pass(orig, pass_barrier_vmem, "waitcnt (barrier vmem)", &sc, &vmem);
    CHECK_EQ_UINT(lds_only.runs, 6);
    CHECK_MSG(lds_only.failures > 0, "the store in flight at the barrier went unnoticed");
    CHECK_EQ_UINT(vmem.runs, 6);
    CHECK_MSG(vmem.failures == 0, "%s", vmem.first_failure);
    REQUIRE_OK(pass_barrier_vmem(&waited, orig));
    for (uint64_t seed = 1; seed <= 6; seed++) {
        if (!CHECK_OK(run_exchange(waited, seed, out)))
            continue;
        unsigned bad = 0;
        for (unsigned t = 0; t < 256; t++)
            bad += out[256 + t] != (3u * t + 11u + 7u) + (3u * (t ^ 64u) + 11u + 7u);
        CHECK_MSG(bad == 0, "seed %llu: %u wrong values", (unsigned long long)seed, bad);
    }
    wa_program_destroy(waited);
    wa_program_destroy(orig);
    wa_context_destroy(ctx);
}

/* ---- differential tests ------------------------------------------------------------------- */

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


static void dump(const char *what, uint64_t seed, const wa_program *prog)
{
    char *text = NULL;
    if (wa_program_print(&text, NULL, prog, NULL) == WA_OK)
        fprintf(stderr, "---- %s, seed %llu ----\n%s\n", what, (unsigned long long)seed, text);
    wa_free(text);
}

#define RANDOM_PROGRAMS 300u

static void random_programs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1;
    sd_config sc;
    sd_for_waits(&sc);
    sd_result res, res_ra;
    memset(&res, 0, sizeof(res));
    memset(&res_ra, 0, sizeof(res_ra));
    unsigned programs = 0, programs_ra = 0;
    static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    for (uint64_t seed = 1; seed <= RANDOM_PROGRAMS; seed++) {
        cfg.items = 40 + (unsigned)(seed % 80);
        wa_program *orig = rp_generate(ctx, targets[seed % 3], seed, &cfg);
        if (!CHECK(orig != NULL))
            continue;
        wa_program *prog = NULL;
        if (!CHECK_OK(sd_strip_waits_and_nops(&prog, orig))) {
            wa_program_destroy(orig);
            continue;
        }
        programs++;
        unsigned before = res.failures;
        sd_check_pass(prog, sd_pass_waitcnt, "waitcnt", &sc, &res);
        if (res.failures > before && res.failures <= 2)
            dump("random program", seed, prog);
        /* after allocation: physical registers reused while loads are in flight */
        wa_program *phys = NULL;
        if (sd_pass_regalloc(&phys, prog) == WA_OK) {
            programs_ra++;
            before = res_ra.failures;
            sd_check_pass(phys, sd_pass_waitcnt, "waitcnt after regalloc", &sc, &res_ra);
            if (res_ra.failures > before && res_ra.failures <= 2)
                dump("random program after allocation", seed, phys);
            wa_program_destroy(phys);
        }
        wa_program_destroy(prog);
        wa_program_destroy(orig);
    }
    report("random programs, stripped, waitcnt", &res, programs);
    report("random programs, stripped, regalloc, waitcnt", &res_ra, programs_ra);
    CHECK_MSG(res.failures == 0, "%u failures; first: %s", res.failures, res.first_failure);
    CHECK_MSG(res_ra.failures == 0, "%u failures; first: %s", res_ra.failures, res_ra.first_failure);
    CHECK_MSG(res.runs >= programs * sc.seeds / 2, "only %u of %u runs compared", res.runs,
              programs * sc.seeds);
    CHECK_MSG(programs_ra >= programs * 9 / 10, "only %u of %u programs allocated", programs_ra,
              programs);
    CHECK_MSG(res_ra.runs >= programs_ra * sc.seeds / 2, "only %u of %u runs compared",
              res_ra.runs, programs_ra * sc.seeds);
    wa_context_destroy(ctx);
}

static void examples(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    sd_config sc;
    sd_for_waits(&sc);
    sc.seeds = 4;
    sd_result res;
    memset(&res, 0, sizeof(res));
    for (unsigned i = 0; i < n; i++) {
        wa_program *orig = NULL, *prog = NULL;
        if (!CHECK_OK(wa_program_parse_file(&orig, ctx, files[i])))
            continue;
        if (CHECK_OK(sd_strip_waits_and_nops(&prog, orig))) {
            sd_check_pass(prog, sd_pass_waitcnt, "waitcnt", &sc, &res);
            wa_program_destroy(prog);
        }
        wa_program_destroy(orig);
    }
    report("examples, stripped, waitcnt", &res, n);
    CHECK_MSG(res.failures == 0, "first failure: %s", res.first_failure);
    CHECK_EQ_UINT(res.skipped, 0);
    CHECK_EQ_UINT(res.runs, n * sc.seeds);
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

/* 1 if a run of `prog` with random completion times reports a missing wait on
   one of `seeds` seeds (arguments as the differential harness gives them). */
static int sim_finds_missing_wait(const wa_program *prog, unsigned seeds)
{
    static uint8_t bufs[4][64 * 1024];
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        o.flags = WA_SIM_TIMING | WA_SIM_PERMISSIVE;
        o.seed = seed;
        o.max_instructions = 50000;
        wa_sim *sim = NULL;
        if (wa_sim_create(&sim, prog, &o) != WA_OK)
            return 0;
        unsigned nb = 0;
        for (unsigned a = 0; a < wa_program_arg_count(prog); a++) {
            wa_kernel_arg arg;
            if (wa_program_arg(&arg, prog, a) != WA_OK)
                continue;
            if (arg.kind == WA_ARG_GLOBAL_BUFFER && nb < 4) {
                for (size_t i = 0; i < sizeof(bufs[nb]); i++)
                    bufs[nb][i] = (uint8_t)((i * 31u + a * 7u + 3u) >> 2);
                wa_sim_bind_buffer(sim, a, bufs[nb], sizeof(bufs[nb]));
                nb++;
            } else if (arg.kind == WA_ARG_BY_VALUE && arg.size <= 4) {
                uint32_t v = 64;
                wa_sim_set_arg(sim, a, &v, arg.size);
            }
        }
        wa_status st = wa_sim_run(sim);
        wa_sim_destroy(sim);
        if (st == WA_E_SIM_WAIT)
            return 1;
    }
    return 0;
}

/* The checker against the pass and the simulator on the stripped random
   programs: whatever the simulator catches reading (or overwriting) data in
   flight, the checker rejects; whatever the checker rejects, the pass changes;
   the pass output always passes. */
static void checker_agreement(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1;
    static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    unsigned programs = 0, rejected = 0, caught = 0, changed = 0, conservative = 0;
    unsigned mutants = 0, m_rejected = 0, m_caught = 0, m_readded = 0, m_conservative = 0;
    for (uint64_t seed = 1001; seed <= 1000 + RANDOM_PROGRAMS; seed++) {
        cfg.items = 40 + (unsigned)(seed % 80);
        wa_program *orig = rp_generate(ctx, targets[seed % 3], seed, &cfg), *prog = NULL,
                   *out = NULL;
        if (!CHECK(orig != NULL))
            continue;
        if (!CHECK_OK(sd_strip_waits_and_nops(&prog, orig)) ||
            !CHECK_OK(wa_program_clone(&out, prog))) {
            wa_program_destroy(prog);
            wa_program_destroy(orig);
            continue;
        }
        programs++;
        unsigned errors = 0;
        wa_status cst = wa_check_waitcnt(&errors, prog, NULL);
        CHECK(cst == WA_OK || cst == WA_E_VALIDATE);
        CHECK_EQ_UINT(errors > 0, cst == WA_E_VALIDATE);
        rejected += cst == WA_E_VALIDATE;
        wa_pass_stats st;
        CHECK_OK(wa_pass_waitcnt(out, NULL, &st));
        changed += st.waitcnts_inserted + st.waitcnts_merged > 0;
        CHECK_MSG(wa_check_waitcnt(&errors, out, NULL) == WA_OK,
                  "seed %llu: the pass output fails the checker: %s", (unsigned long long)seed,
                  wa_context_last_error(ctx));
        if (cst == WA_E_VALIDATE)
            CHECK_MSG(st.waitcnts_inserted > 0, "seed %llu: rejected but left unchanged",
                      (unsigned long long)seed);
        else if (st.waitcnts_inserted)
            conservative++;
        if (sim_finds_missing_wait(prog, 2)) {
            caught++;
            CHECK_MSG(cst == WA_E_VALIDATE,
                      "seed %llu: the simulator finds a missing wait the checker accepts",
                      (unsigned long long)seed);
        }
        /* mutants: the pass output without one of its waits */
        for (unsigned i = 0; seed % 3 == 0 && i < wa_program_size(out); i++) {
            wa_instr_view v;
            wa_program *m = NULL;
            if (wa_program_get(&v, out, i) != WA_OK || v.opcode != WA_OP_S_WAITCNT ||
                !CHECK_OK(wa_program_clone(&m, out)))
                continue;
            CHECK_OK(wa_program_erase(m, i));
            mutants++;
            wa_status ms = wa_check_waitcnt(&errors, m, NULL);
            int sim = sim_finds_missing_wait(m, 2);
            m_rejected += ms == WA_E_VALIDATE;
            m_caught += sim;
            CHECK_MSG(!sim || ms == WA_E_VALIDATE,
                      "seed %llu: without the wait at item %u the simulator finds a missing "
                      "wait the checker accepts", (unsigned long long)seed, i);
            unsigned first_new = 0;
            for (unsigned k = 0; k < wa_program_size(m); k++)
                if (wa_program_get(&v, m, k) == WA_OK && v.tag != WA_NO_TAG && v.tag >= first_new)
                    first_new = v.tag + 1;
            CHECK_OK(wa_pass_waitcnt(m, NULL, &st));
            int readded = st.waitcnts_inserted + st.waitcnts_merged > 0;
            m_readded += readded;
            if (ms == WA_E_VALIDATE) {
                CHECK_MSG(readded, "seed %llu: the pass does not repair mutant %u",
                          (unsigned long long)seed, i);
            } else if (readded) {
                /* the pass's one conservative rule: a DS read over the destination of
                   a DS read in flight while a scalar load may be in flight */
                m_conservative++;
                CHECK_EQ_UINT(st.waitcnts_merged, 0);
                for (unsigned k = 0; k + 1 < wa_program_size(m); k++) {
                    wa_instr_view w, next;
                    if (wa_program_get(&w, m, k) != WA_OK || w.tag == WA_NO_TAG || w.tag < first_new)
                        continue;
                    unsigned j = k + 1;
                    while (wa_program_get(&next, m, j) == WA_OK && next.opcode == WA_OP_COMMENT)
                        j++;
                    const wa_isa_info *ni = wa_isa_get(next.opcode);
                    CHECK_MSG(w.mods->vmcnt == -1 && w.mods->lgkmcnt == 0 &&
                                  ni->format == WA_FMT_DS && (ni->flags & WA_IF_LOAD),
                              "seed %llu: the pass adds a wait the checker does not ask for "
                              "before %s", (unsigned long long)seed, ni->mnemonic);
                }
            }
            wa_program_destroy(m);
        }
        wa_program_destroy(out);
        wa_program_destroy(prog);
        wa_program_destroy(orig);
    }
    printf("     checker agreement: %u stripped random programs; the checker rejects %u, the "
           "simulator catches %u (2 seeds), the pass changes %u (%u beyond the checker)\n",
           programs, rejected, caught, changed, conservative);
    printf("     mutants (a pass output without one of its waits): %u; the checker rejects %u, "
           "the simulator catches %u, the pass changes %u (%u beyond the checker)\n",
           mutants, m_rejected, m_caught, m_readded, m_conservative);
    CHECK(caught > programs / 4);
    CHECK(rejected >= caught);
    wa_context_destroy(ctx);
}

#ifdef WAVEASM_HAVE_GEMM_GEN
static void bench_kernels(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    sd_config sc;
    sd_for_waits(&sc);
    sc.max_instructions = 200000;
    sd_result res;
    memset(&res, 0, sizeof(res));
    for (int shape = 0; shape < GEMM_GEN_SHAPE_COUNT; shape++) {
        gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
        g.shape = (gemm_gen_shape)shape;
        g.instructions = 1000;
        wa_program *orig = NULL, *prog = NULL;
        if (!CHECK_OK(gemm_gen_build(&orig, NULL, ctx, &g)))
            continue;
        /* one wave: the generated kernels let a wave overwrite LDS for the next K
           step while other waves may still read the previous one (no second
           barrier), a race of the kernel itself, independent of its waits */
        CHECK_OK(wa_program_set_workgroup_size(orig, 64, 1, 1));
        if (CHECK_OK(sd_strip_waits_and_nops(&prog, orig))) {
            sd_check_pass(prog, sd_pass_waitcnt, "waitcnt", &sc, &res);
            wa_program_destroy(prog);
        }
        wa_program_destroy(orig);
    }
    report("benchmark kernels (1k instructions), stripped, waitcnt", &res, GEMM_GEN_SHAPE_COUNT);
    CHECK_MSG(res.failures == 0, "first failure: %s", res.first_failure);
    CHECK_EQ_UINT(res.runs, GEMM_GEN_SHAPE_COUNT * sc.seeds);
    wa_context_destroy(ctx);
}
#define BENCH_CASE UT_CASE(bench_kernels)
#else
#define BENCH_CASE
#endif

/* ---- many predecessors ---------------------------------------------------------------------

   A block with many predecessors (the pass keeps join counts for it instead of
   rejoining every predecessor): forty paths to one label, each leaving a load
   of v1 followed by a different number of stores, so the wait at the label is
   set by the path with the fewest, wherever it is among the predecessors.

   In the loop form the forty paths run from a loop header to the join, which
   branches back. The first sweep sees only the entry's v1 at the header (20
   stores old, so vmcnt(20)) and v5 (14 stores old) still in flight through the
   paths, and the join waits for v5. Once the back edge arrives the header waits
   for v1 with vmcnt(fewest), which retires v5 too: every path's exit loses v5,
   the join's entry state shrinks, and the join needs no wait at all. */

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) UT_PRINTF(2, 3);
static void sb_add(sbuf *b, const char *fmt, ...)
{
    char line[128];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + (size_t)k + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q)
            return;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, line, (size_t)k + 1);
    b->n += (size_t)k;
}

#define NPRED 40

/* The body (indented input when `indent`) of the join or loop kernel whose
   path `k` has `fewest` stores; `wait` >= 0 puts s_waitcnt vmcnt(wait) where the
   pass must. */
static char *many_pred_body(int loop, unsigned k, unsigned fewest, int wait, int indent)
{
    sbuf b = { NULL, 0, 0 };
    const char *in = indent ? "  " : "";
    sb_add(&b, "%sglobal_load_dword v1, v[10:11], off\n", in);
    if (loop) {
        for (unsigned j = 0; j < 20; j++) {
            if (j == 5)
                sb_add(&b, "%sglobal_load_dword v5, v[10:11], off\n", in);
            sb_add(&b, "%sbuffer_store_dword v2, off, s[4:7], 0\n", in);
        }
        sb_add(&b, "head:\n");
        if (wait >= 0)
            sb_add(&b, "s_waitcnt vmcnt(%d)\n", wait);
        sb_add(&b, "%sv_add_u32 v3, v1, v3\n", in);
    } else {
        sb_add(&b, "%sbuffer_store_dword v2, off, s[4:7], 0\n", in);
    }
    for (unsigned i = 0; i < NPRED; i++) {
        unsigned stores = i == k ? fewest : 3u + (i * 7u) % 11u;
        if (i)
            sb_add(&b, "c%u:\n", i);
        sb_add(&b, "%ss_cbranch_scc0 c%u\n", in, i + 1);
        sb_add(&b, "%sglobal_load_dword v1, v[10:11], off\n", in);
        for (unsigned j = 0; j < stores; j++)
            sb_add(&b, "%sbuffer_store_dword v2, off, s[4:7], 0\n", in);
        sb_add(&b, "%ss_branch join\n", in);
    }
    sb_add(&b, "c%u:\n%ss_endpgm\n", NPRED, in);
    sb_add(&b, "join:\n");
    if (loop) {
        sb_add(&b, "%sv_add_u32 v6, v5, v6\n%ss_branch head\n", in, in);
    } else {
        if (wait >= 0)
            sb_add(&b, "s_waitcnt vmcnt(%d)\n", wait);
        sb_add(&b, "%sv_mov_b32 v3, v1\n%ss_endpgm\n", in, in);
    }
    return b.p;
}

static void many_predecessors(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const unsigned where[] = { 0, 17, NPRED - 1 };
    for (int loop = 0; loop < 2; loop++)
        for (unsigned w = 0; w < 3; w++)
            for (unsigned fewest = 0; fewest < 3; fewest++) {
                unsigned k = where[w];
                ut_context("%s, fewest stores (%u) on path %u", loop ? "loop" : "join", fewest, k);
                char *body = many_pred_body(loop, k, fewest, -1, 1);
                /* the other paths have 3 or more stores, the loop's entry 20 */
                char *want = many_pred_body(loop, k, fewest, (int)fewest, 0);
                wa_pass_stats st;
                char *got = body && want ? run_pass(ctx, "gfx942", body, 0, &st) : NULL;
                if (got) {
                    CHECK_STR_EQ(got, want);
                    CHECK_EQ_UINT(st.waitcnts_inserted, 1);
                    /* forward joins settle in one sweep; in the loop the second
                       sweep changes the header, the paths and the join, and the
                       join's exit state stays what it was */
                    CHECK_EQ_UINT(st.iterations, loop ? 2u : 1u);
                }
                free(got);
                free(body);
                free(want);
            }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(api_bad_input) UT_CASE(exact_waits) UT_CASE(scalar_stores_and_atomics) UT_CASE(many_predecessors) UT_CASE(ds_forms) UT_CASE(targets_tags_idempotence)
             UT_CASE(stats_values) UT_CASE(checker_violations) UT_CASE(checker_accepts) UT_CASE(several_waves) UT_CASE(random_programs) UT_CASE(checker_agreement) UT_CASE(examples) BENCH_CASE);
