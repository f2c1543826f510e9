/* tests/unit/test_peephole.c — the peephole pass (wa_pass_peephole).

   API and bad input; exact rewrites and statistics on crafted kernels (virtual
   and physical, each option flag); then differential testing in the simulator
   (simdiff.h): a generator of its own that emits programs rich in what the pass
   rewrites (shift/add/or chains, multiplications, identities, constant moves,
   copies, MFMA accumulators zeroed in and out of loops, masked EXEC regions,
   loops and branches) and stores every value it computed, plus the shared random
   programs, every example and small GEMM benchmark kernels. Every output must
   validate, compute the same memory as its input over several seeds, survive a
   second run unchanged and allocate. */
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

/* ---- helpers ------------------------------------------------------------------------ */

static wa_program *parse_body(wa_context *ctx, const char *body)
{
    wa_program *prog = NULL;
    if (!CHECK_MSG(ut_parse_body(&prog, ctx, "gfx942", body) == WA_OK && prog, "parse: %s\n%s",
                   ut_diags_text(ctx), body))
        return NULL;
    return prog;
}

/* The program's instructions, one per line, without tags or header. */
static char *body_text(const wa_program *prog)
{
    char *text = ut_print_flags(prog, WA_PRINT_COMMENTS);
    if (!text)
        return NULL;
    const char *b = strstr(text, "\n  ");
    size_t cap = strlen(text) + 1, n = 0;
    char *out = malloc(cap);
    if (!out) {
        wa_free(text);
        return NULL;
    }
    out[0] = '\0';
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        /* instruction lines (indented, not a directive) and labels */
        size_t skip = len > 2 && p[0] == ' ' && p[1] == ' ' && p[2] != '.' ? 2 : 0;
        if (skip || (len > 1 && p[len - 1] == ':' && p[0] != '.' && p[0] != ' ')) {
            memcpy(out + n, p + skip, len - skip);
            n += len - skip;
            out[n++] = '\n';
            out[n] = '\0';
        }
        p = e ? e + 1 : NULL;
    }
    (void)b;
    wa_free(text);
    return out;
}

/* `body` as the printer writes it (decimal immediates, register shapes at the
   first mention). */
static char *canonical(const char *body)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *p = parse_body(ctx, body);
    char *text = p ? body_text(p) : NULL;
    wa_program_destroy(p);
    wa_context_destroy(ctx);
    return text;
}

/* Runs the pass on `body` and checks the result's instructions (`want`, a body in
   the text form) and statistics. */
static void expect(const char *body, unsigned flags, const char *want_body, const wa_pass_stats *want_st)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse_body(ctx, body);
    char *want = canonical(want_body);
    if (!prog || !want) {
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
        free(want);
        return;
    }
    wa_peephole_options o = WA_PEEPHOLE_OPTIONS_INIT;
    o.flags = flags;
    wa_pass_stats st;
    if (CHECK_OK(wa_pass_peephole(prog, &o, &st))) {
        char *got = body_text(prog);
        CHECK_MSG(got && strcmp(got, want) == 0, "input:\n%s--- got:\n%s--- want:\n%s", body,
                  got ? got : "(null)", want);
        free(got);
        CHECK_OK(wa_program_validate(NULL, prog, NULL));
        if (want_st) {
            CHECK_EQ_UINT(st.fused, want_st->fused);
            CHECK_EQ_UINT(st.folded, want_st->folded);
            CHECK_EQ_UINT(st.moves_removed, want_st->moves_removed);
            CHECK_EQ_UINT(st.acc_inits_removed, want_st->acc_inits_removed);
            CHECK_EQ_UINT(st.removed, want_st->removed);
            CHECK_EQ_UINT(st.changed, want_st->changed);
            CHECK_EQ_UINT(st.inserted, 0);
            CHECK_EQ_UINT(st.instrs_before - st.instrs_after, st.removed);
        }
    }
    free(want);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static wa_pass_stats stats_of(unsigned fused, unsigned folded, unsigned moves, unsigned acc,
                              unsigned removed, unsigned changed)
{
    wa_pass_stats s;
    memset(&s, 0, sizeof(s));
    s.fused = fused;
    s.folded = folded;
    s.moves_removed = moves;
    s.acc_inits_removed = acc;
    s.removed = removed;
    s.changed = changed;
    return s;
}

/* ---- API ------------------------------------------------------------------------------ */

static void api_bad_input(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    CHECK_STATUS(wa_pass_peephole(NULL, NULL, NULL), WA_E_INVALID);
    wa_program *prog = parse_body(ctx, "  v_mov_b32 %v0, 1\n  global_store_dword v1, %v0, s[0:1]\n"
                                       "  s_endpgm\n");
    REQUIRE(prog);
    wa_peephole_options o = WA_PEEPHOLE_OPTIONS_INIT;
    o.version = 0;
    CHECK_STATUS(wa_pass_peephole(prog, &o, NULL), WA_E_INVALID);
    CHECK(ut_find_diag(ctx, "wa_peephole_options") != NULL);
    o.version = WA_PEEPHOLE_OPTIONS_VERSION + 1;
    CHECK_STATUS(wa_pass_peephole(prog, &o, NULL), WA_E_INVALID);
    /* defaults, no statistics wanted */
    CHECK_OK(wa_pass_peephole(prog, NULL, NULL));
    wa_pass_stats st;
    memset(&st, 0xAB, sizeof(st));
    CHECK_OK(wa_pass_peephole(prog, NULL, &st));
    CHECK_EQ_UINT(st.version, WA_PASS_STATS_VERSION);
    CHECK_EQ_UINT(st.instrs_before, 3);
    CHECK_EQ_UINT(st.instrs_after, 3);
    CHECK_EQ_UINT(st.waitcnts_inserted, 0);
    CHECK_EQ_UINT(st.eliminated, 0);
    wa_program_destroy(prog);

    /* an empty kernel */
    wa_program *empty = NULL;
    REQUIRE_OK(wa_program_create(&empty, ctx, "empty"));
    CHECK_OK(wa_pass_peephole(empty, NULL, &st));
    CHECK_EQ_UINT(st.instrs_before, 0);
    CHECK_EQ_UINT(wa_program_size(empty), 0);
    wa_program_destroy(empty);

    /* registers past the file the pass tracks cannot reach it: the builder
       refuses them (the text form cannot spell them either) */
    wa_program *bad = NULL;
    REQUIRE_OK(wa_program_create(&bad, ctx, "bad"));
    CHECK_STATUS(wa_build_salu(NULL, bad, WA_OP_S_MOV_B32, wa_opnd_phys(WA_REG_SGPR, 200, 1),
                               wa_opnd_imm(1), wa_opnd_none()), WA_E_INVALID);
    /* the highest one it can hold is fine for the pass (the validator objects) */
    REQUIRE_OK(wa_build_salu(NULL, bad, WA_OP_S_MOV_B32, wa_opnd_phys(WA_REG_SGPR, 127, 1),
                             wa_opnd_imm(1), wa_opnd_none()));
    REQUIRE_OK(wa_build_sopp(NULL, bad, WA_OP_S_ENDPGM, 0));
    CHECK_OK(wa_pass_peephole(bad, NULL, NULL));
    CHECK_EQ_UINT(wa_program_size(bad), 2);
    wa_program_destroy(bad);
    wa_context_destroy(ctx);
}

/* ---- exact rewrites ------------------------------------------------------------------- */

static void fusion_patterns(void)
{
    wa_pass_stats s = stats_of(1, 0, 0, 0, 1, 1);
    /* shift+add, t second operand of the add */
    expect("  v_lshlrev_b32 %v1, 3, v0\n  v_add_u32 %v2, s2, %v1\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0, "v_lshl_add_u32 %v2, v0, 3, s2\nglobal_store_dword v0, %v2, s[0:1]\ns_endpgm\n", &s);
    /* shift by a register amount + or */
    expect("  v_lshlrev_b32 %v1, v0, s2\n  v_or_b32 %v2, %v1, v0\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0, "v_lshl_or_b32 %v2, s2, v0, v0\nglobal_store_dword v0, %v2, s[0:1]\ns_endpgm\n", &s);
    expect("  v_or_b32 %v1, 7, v0\n  v_or_b32 %v2, %v1, s2\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0, "v_or3_b32 %v2, 7, v0, s2\nglobal_store_dword v0, %v2, s[0:1]\ns_endpgm\n", &s);
    expect("  v_add_u32 %v1, v0, v0\n  v_add_u32 %v2, -4, %v1\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0, "v_add3_u32 %v2, v0, v0, -4\nglobal_store_dword v0, %v2, s[0:1]\ns_endpgm\n", &s);
    expect("  v_add_u32 %v1, s2, v0\n  v_lshlrev_b32 %v2, 2, %v1\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0, "v_add_lshl_u32 %v2, s2, v0, 2\nglobal_store_dword v0, %v2, s[0:1]\ns_endpgm\n", &s);
}

static void fusion_negative(void)
{
    wa_pass_stats none = stats_of(0, 0, 0, 0, 0, 0);
    /* a second reader of t */
    const char *two_readers = "  v_lshlrev_b32 %v1, 3, v0\n  v_add_u32 %v2, v0, %v1\n"
                              "  global_store_dword v0, %v2, s[0:1]\n"
                              "  global_store_dword v0, %v1, s[0:1] offset:256\n  s_endpgm\n";
    expect(two_readers, 0,
           "v_lshlrev_b32 %v1, 3, v0\nv_add_u32 %v2, v0, %v1\nglobal_store_dword v0, %v2, s[0:1]\n"
           "global_store_dword v0, %v1, s[0:1] offset:256\ns_endpgm\n",
           &none);
    /* the shifted value redefined in between */
    expect("  v_mov_b32 %v3, v0\n  v_lshlrev_b32 %v1, 3, %v3\n  v_add_u32 %v3, 1, v0\n"
           "  v_add_u32 %v2, %v3, %v1\n  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           WA_PEEPHOLE_NO_MOVES,
           "v_mov_b32 %v3, v0\nv_lshlrev_b32 %v1, 3, %v3\nv_add_u32 %v3, 1, v0\n"
           "v_add_u32 %v2, %v3, %v1\nglobal_store_dword v0, %v2, s[0:1]\ns_endpgm\n",
           &none);
    /* t used as the shift amount of v_lshlrev_b32: no v_add_lshl_u32 */
    expect("  v_add_u32 %v1, s2, v0\n  v_lshlrev_b32 %v2, %v1, v0\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0,
           "v_add_u32 %v1, s2, v0\nv_lshlrev_b32 %v2, %v1, v0\nglobal_store_dword v0, %v2, s[0:1]\n"
           "s_endpgm\n",
           &none);
    /* two different SGPRs: the constant bus allows one */
    expect("  v_lshlrev_b32 %v1, 3, s2\n  v_add_u32 %v2, s3, %v1\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0,
           "v_lshlrev_b32 %v1, 3, s2\nv_add_u32 %v2, s3, %v1\nglobal_store_dword v0, %v2, s[0:1]\n"
           "s_endpgm\n",
           &none);
    /* a literal cannot go into the VOP3 form */
    expect("  v_add_u32 %v1, 0x1234, v0\n  v_add_u32 %v2, %v1, v0\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0,
           "v_add_u32 %v1, 0x1234, v0\nv_add_u32 %v2, %v1, v0\nglobal_store_dword v0, %v2, s[0:1]\n"
           "s_endpgm\n",
           &none);
    /* EXEC written in between */
    expect("  v_lshlrev_b32 %v1, 3, v0\n  s_mov_b64 exec, exec\n  v_add_u32 %v2, v0, %v1\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0,
           "v_lshlrev_b32 %v1, 3, v0\ns_mov_b64 exec, exec\nv_add_u32 %v2, v0, %v1\n"
           "global_store_dword v0, %v2, s[0:1]\ns_endpgm\n",
           &none);
    /* different blocks */
    expect("  v_lshlrev_b32 %v1, 3, v0\nnext:\n  v_add_u32 %v2, v0, %v1\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0,
           "v_lshlrev_b32 %v1, 3, v0\nnext:\nv_add_u32 %v2, v0, %v1\n"
           "global_store_dword v0, %v2, s[0:1]\ns_endpgm\n",
           &none);
    /* the same pair with NO_FUSE */
    expect("  v_lshlrev_b32 %v1, 3, v0\n  v_add_u32 %v2, v0, %v1\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           WA_PEEPHOLE_NO_FUSE,
           "v_lshlrev_b32 %v1, 3, v0\nv_add_u32 %v2, v0, %v1\nglobal_store_dword v0, %v2, s[0:1]\n"
           "s_endpgm\n",
           &none);
}

static void folds(void)
{
    /* multiplications by 2^n: VALU always, SALU only with SCC dead */
    wa_pass_stats s1 = stats_of(0, 2, 0, 0, 0, 2);
    expect("  v_mul_lo_u32 %v1, 64, v0\n  s_mul_i32 %s2, s2, 0x100\n"
           "  global_store_dword v0, %v1, s[0:1]\n  s_store:\n  v_mov_b32 %v3, %s2\n"
           "  global_store_dword v0, %v3, s[0:1]\n  s_endpgm\n",
           WA_PEEPHOLE_NO_MOVES,
           "v_lshlrev_b32 %v1, 6, v0\ns_lshl_b32 %s2, s2, 8\nglobal_store_dword v0, %v1, s[0:1]\n"
           "s_store:\nv_mov_b32 %v3, %s2\nglobal_store_dword v0, %v3, s[0:1]\ns_endpgm\n",
           &s1);
    /* SCC live across s_mul_i32 (s_cselect reads the compare): kept; a
       non-power-of-two multiplier: kept */
    wa_pass_stats none = stats_of(0, 0, 0, 0, 0, 0);
    const char *scc_live = "  s_cmp_lt_u32 s2, 5\n  s_mul_i32 %s1, s2, 4\n  v_mul_lo_u32 %v4, 6, v0\n"
                           "  s_cselect_b32 %s3, %s1, 0\n  v_mov_b32 %v2, %s3\n"
                           "  global_store_dword v0, %v2, s[0:1]\n"
                           "  global_store_dword v0, %v4, s[0:1] offset:256\n  s_endpgm\n";
    expect(scc_live, WA_PEEPHOLE_NO_MOVES,
           "s_cmp_lt_u32 s2, 5\ns_mul_i32 %s1, s2, 4\nv_mul_lo_u32 %v4, 6, v0\n"
           "s_cselect_b32 %s3, %s1, 0\nv_mov_b32 %v2, %s3\nglobal_store_dword v0, %v2, s[0:1]\n"
           "global_store_dword v0, %v4, s[0:1] offset:256\ns_endpgm\n",
           &none);
    /* SCC live out of the block (the successor branches on it) */
    expect("  s_cmp_lt_u32 s2, 5\n  s_mul_i32 %s1, s2, 4\nnext:\n  s_cbranch_scc1 done\n"
           "  v_mov_b32 %v2, %s1\n  global_store_dword v0, %v2, s[0:1]\ndone:\n  s_endpgm\n",
           WA_PEEPHOLE_NO_MOVES,
           "s_cmp_lt_u32 s2, 5\ns_mul_i32 %s1, s2, 4\nnext:\ns_cbranch_scc1 done\n"
           "v_mov_b32 %v2, %s1\nglobal_store_dword v0, %v2, s[0:1]\ndone:\ns_endpgm\n",
           &none);
    /* identities: x+0 becomes a move the reader sees through, x<<32 (5-bit
       amount), x*1 via a constant register, x&-1 on SALU with SCC dead */
    wa_pass_stats s2 = stats_of(0, 5, 5, 0, 5, 1);
    expect("  v_add_u32 %v1, 0, v0\n  v_lshlrev_b32 %v2, 32, %v1\n  s_mov_b32 %s5, 1\n"
           "  v_mul_lo_u32 %v3, %v2, %s5\n  s_and_b32 %s4, -1, s2\n"
           "  v_add_u32 %v6, %v3, %s4\n  global_store_dword v0, %v6, s[0:1]\n  s_endpgm\n",
           WA_PEEPHOLE_NO_FUSE, "v_add_u32 %v6, v0, s2\nglobal_store_dword v0, %v6, s[0:1]\ns_endpgm\n",
           &s2);
    /* NO_FOLD keeps them all */
    expect("  v_add_u32 %v1, 0, v0\n  v_mul_lo_u32 %v3, %v1, 8\n  global_store_dword v0, %v3, s[0:1]\n"
           "  s_endpgm\n",
           WA_PEEPHOLE_NO_FOLD,
           "v_add_u32 %v1, 0, v0\nv_mul_lo_u32 %v3, %v1, 8\nglobal_store_dword v0, %v3, s[0:1]\n"
           "s_endpgm\n",
           &none);
    /* constants: folded into readers that take inline constants, the move goes
       when nothing reads it any more; a literal is not an inline constant; a
       VOP3 reader next to an SGPR takes it (inline constants use no bus) */
    wa_pass_stats s3 = stats_of(0, 2, 1, 0, 1, 2);
    expect("  v_mov_b32 %v1, 0.5\n  s_mov_b32 %s2, 0x4567\n  v_add_f32 %v3, v0, %v1\n"
           "  v_fma_f32 %v4, s2, %v1, v0\n  v_add_u32 %v5, %s2, v0\n"
           "  global_store_dword v0, %v3, s[0:1]\n"
           "  global_store_dword v0, %v4, s[0:1] offset:256\n"
           "  global_store_dword v0, %v5, s[0:1] offset:512\n  s_endpgm\n",
           0,
           "  s_mov_b32 %s2, 0x4567\n  v_add_f32 %v3, v0, 0.5\n  v_fma_f32 %v4, s2, 0.5, v0\n"
           "  v_add_u32 %v5, %s2, v0\n  global_store_dword v0, %v3, s[0:1]\n"
           "  global_store_dword v0, %v4, s[0:1] offset:256\n"
           "  global_store_dword v0, %v5, s[0:1] offset:512\n  s_endpgm\n",
           &s3);
}

static void moves(void)
{
    /* self-move, copy of a pair, AGPR copy chain, all in one block */
    wa_pass_stats s = stats_of(0, 0, 4, 0, 4, 3);
    expect("  s_mov_b64 %s1<2,align=2>, s[0:1]\n  v_mov_b32 %v2, v0\n  v_mov_b32 %v2, %v2\n"
           "  v_accvgpr_write_b32 %a3, %v2\n  v_accvgpr_mov_b32 %a4, %a3\n"
           "  v_accvgpr_read_b32 %v5, %a4\n  global_store_dword v0, %v5, %s1\n  s_endpgm\n",
           0,
           "v_accvgpr_write_b32 %a3, v0\nv_accvgpr_read_b32 %v5, %a3\nglobal_store_dword v0, %v5, s[0:1]\n"
           "s_endpgm\n",
           &s);
    /* a copy made under a narrowed EXEC writes only the active lanes: the reader
       after the restore must keep reading it */
    wa_pass_stats none = stats_of(0, 0, 0, 0, 0, 0);
    const char *masked = "  v_mov_b32 %v1, s2\n  v_cmp_gt_u32 vcc, 16, v0\n"
                         "  s_and_saveexec_b64 %s4<2,align=2>, vcc\n  v_mov_b32 %v1, v0\n"
                         "  s_or_b64 exec, exec, %s4\n  global_store_dword v0, %v1, s[0:1]\n"
                         "  s_endpgm\n";
    expect(masked, 0,
           "v_mov_b32 %v1, s2\nv_cmp_gt_u32 vcc, 16, v0\ns_and_saveexec_b64 %s4<2,align=2>, vcc\n"
           "v_mov_b32 %v1, v0\ns_or_b64 exec, exec, %s4\nglobal_store_dword v0, %v1, s[0:1]\n"
           "s_endpgm\n",
           &none);
    /* NO_MOVES keeps the copies (the self-move too) */
    expect("  v_mov_b32 %v2, v0\n  v_mov_b32 %v2, %v2\n  global_store_dword v0, %v2, s[0:1]\n"
           "  s_endpgm\n",
           WA_PEEPHOLE_NO_MOVES,
           "v_mov_b32 %v2, v0\nv_mov_b32 %v2, %v2\nglobal_store_dword v0, %v2, s[0:1]\ns_endpgm\n",
           &none);
    /* removing the identity leaves %s1 one definition, a constant: the read the
       sweep has passed takes it in another round, so that a second run of the
       pass has nothing left to do */
    const char *late = "  s_mov_b32 %s1, 5\n  s_branch second\nbody:\n"
                       "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\nsecond:\n"
                       "  v_add_u32 %v2, %s1, v0\n  s_add_u32 %s1, %s1, 0\n  s_branch body\n";
    const char *late_want = "s_branch second\nbody:\nglobal_store_dword v0, %v2, s[0:1]\n"
                            "s_endpgm\nsecond:\nv_add_u32 %v2, 5, v0\ns_branch body\n";
    expect(late, 0, late_want, NULL);
    expect(late_want, 0, late_want, &none);
    /* a copy read in a later block: renamed when both run once and the source's
       only definition dominates the copy */
    wa_pass_stats r = stats_of(0, 0, 1, 0, 1, 2);
    expect("  v_add_u32 %v1, s2, v0\n  v_mov_b32 %v2, %v1\n  s_cmp_eq_u32 s2, 0\n"
           "  s_cbranch_scc1 skip\n  global_store_dword v0, %v2, s[0:1]\nskip:\n"
           "  global_store_dword v0, %v2, s[0:1] offset:256\n  s_endpgm\n",
           0,
           "v_add_u32 %v1, s2, v0\ns_cmp_eq_u32 s2, 0\ns_cbranch_scc1 skip\n"
           "global_store_dword v0, %v1, s[0:1]\nskip:\nglobal_store_dword v0, %v1, s[0:1] offset:256\n"
           "s_endpgm\n",
           &r);
    /* a self-move or an identity that is its register's only definition stays:
       without it the register would be read with no definition at all */
    expect("  v_mov_b32 %v1, %v1\n  v_add_u32 %v2, %v2, 0\n  v_or_b32 %v3, 0, %v3\n"
           "  global_store_dword v0, %v1, s[0:1]\n  global_store_dword v0, %v2, s[0:1]\n"
           "  global_store_dword v0, %v3, s[0:1]\n  s_endpgm\n",
           0,
           "v_mov_b32 %v1, %v1\nv_add_u32 %v2, %v2, 0\nv_or_b32 %v3, 0, %v3\n"
           "global_store_dword v0, %v1, s[0:1]\nglobal_store_dword v0, %v2, s[0:1]\n"
           "global_store_dword v0, %v3, s[0:1]\ns_endpgm\n",
           &none);
    /* ... but goes when another definition remains */
    wa_pass_stats two = stats_of(0, 1, 3, 0, 3, 1);
    expect("  v_mov_b32 %v1, v0\n  v_mov_b32 %v1, %v1\n  v_add_u32 %v1, %v1, 0\n"
           "  global_store_dword v0, %v1, s[0:1]\n  s_endpgm\n",
           0, "global_store_dword v0, v0, s[0:1]\ns_endpgm\n", &two);
    /* ... but not inside a loop, where the source changes every iteration */
    expect("  s_mov_b32 %s3, 0\nloop:\n  v_add_u32 %v1, %s3, v0\n  v_mov_b32 %v2, %v1\n"
           "  s_add_u32 %s3, %s3, 1\n  s_cmp_lt_u32 %s3, 3\n  s_cbranch_scc1 loop\n"
           "  global_store_dword v0, %v2, s[0:1]\n  s_endpgm\n",
           0,
           "s_mov_b32 %s3, 0\nloop:\nv_add_u32 %v1, %s3, v0\nv_mov_b32 %v2, %v1\n"
           "s_add_u32 %s3, %s3, 1\ns_cmp_lt_u32 %s3, 3\ns_cbranch_scc1 loop\n"
           "global_store_dword v0, %v2, s[0:1]\ns_endpgm\n",
           &none);
}

static void accumulator_init(void)
{
    wa_pass_stats s = stats_of(0, 0, 0, 1, 4, 1);
    const char *head = "  v_mov_b32 %v1<2,align=2>[0], v0\n  v_mov_b32 %v1[1], v0\n";
    char body[2048];
    /* zeroed by VALU moves and by AGPR writes, D identical to C */
    snprintf(body, sizeof(body),
             "%s  v_mov_b32 %%v2<4,align=2>[0], 0\n  v_mov_b32 %%v2[1], 0\n"
             "  v_mov_b32 %%v2[2], 0\n  v_mov_b32 %%v2[3], 0\n"
             "  v_mfma_f32_16x16x16_f16 %%v2, %%v1, %%v1, %%v2\n"
             "  global_store_dwordx4 v0, %%v2, s[0:1]\n  s_endpgm\n",
             head);
    expect(body, WA_PEEPHOLE_NO_MOVES,
           "v_mov_b32 %v1<2,align=2>[0], v0\nv_mov_b32 %v1[1], v0\n"
           "v_mfma_f32_16x16x16_f16 %v2<4,align=2>, %v1, %v1, 0\n"
           "global_store_dwordx4 v0, %v2, s[0:1]\ns_endpgm\n",
           &s);
    snprintf(body, sizeof(body),
             "%s  v_accvgpr_write_b32 %%a2<4,align=2>[0], 0\n  v_accvgpr_write_b32 %%a2[1], 0\n"
             "  v_accvgpr_write_b32 %%a2[2], 0.0\n  v_accvgpr_write_b32 %%a2[3], 0\n"
             "  v_mfma_f32_16x16x16_f16 %%v3<4,align=2>, %%v1, %%v1, %%a2\n"
             "  global_store_dwordx4 v0, %%v3, s[0:1]\n  s_endpgm\n",
             head);
    expect(body, WA_PEEPHOLE_NO_MOVES,
           "v_mov_b32 %v1<2,align=2>[0], v0\nv_mov_b32 %v1[1], v0\n"
           "v_mfma_f32_16x16x16_f16 %v3<4,align=2>, %v1, %v1, 0\n"
           "global_store_dwordx4 v0, %v3, s[0:1]\ns_endpgm\n",
           &s);
    wa_pass_stats none = stats_of(0, 0, 0, 0, 0, 0);
    /* zeroed before a loop, accumulated inside: unchanged */
    snprintf(body, sizeof(body),
             "%s  v_mov_b32 %%v2<4,align=2>[0], 0\n  v_mov_b32 %%v2[1], 0\n"
             "  v_mov_b32 %%v2[2], 0\n  v_mov_b32 %%v2[3], 0\n  s_mov_b32 %%s4, 0\nloop:\n"
             "  v_mfma_f32_16x16x16_f16 %%v2, %%v1, %%v1, %%v2\n  s_add_u32 %%s4, %%s4, 1\n"
             "  s_cmp_lt_u32 %%s4, 2\n  s_cbranch_scc1 loop\n"
             "  global_store_dwordx4 v0, %%v2, s[0:1]\n  s_endpgm\n",
             head);
    char *want = NULL;
    {
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        wa_program *p = parse_body(ctx, body);
        want = p ? body_text(p) : NULL;
        wa_program_destroy(p);
        wa_context_destroy(ctx);
    }
    if (want)
        expect(body, WA_PEEPHOLE_NO_MOVES, want, &none);
    free(want);
    /* one component not zeroed; the zeros read again after the MFMA (D != C) */
    const char *cases[2] = {
        "  v_mov_b32 %v2<4,align=2>[0], 0\n  v_mov_b32 %v2[1], 0\n  v_mov_b32 %v2[2], 0\n"
        "  v_mov_b32 %v2[3], 1\n  v_mfma_f32_16x16x16_f16 %v2, %v1, %v1, %v2\n"
        "  global_store_dwordx4 v0, %v2, s[0:1]\n  s_endpgm\n",
        "  v_mov_b32 %v2<4,align=2>[0], 0\n  v_mov_b32 %v2[1], 0\n  v_mov_b32 %v2[2], 0\n"
        "  v_mov_b32 %v2[3], 0\n  v_mfma_f32_16x16x16_f16 %v3<4,align=2>, %v1, %v1, %v2\n"
        "  global_store_dwordx4 v0, %v3, s[0:1]\n  global_store_dwordx4 v0, %v2, s[0:1] offset:1024\n"
        "  s_endpgm\n",
    };
    for (unsigned c = 0; c < 2; c++) {
        snprintf(body, sizeof(body), "%s%s", head, cases[c]);
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        wa_program *p = parse_body(ctx, body);
        want = p ? body_text(p) : NULL;
        wa_program_destroy(p);
        wa_context_destroy(ctx);
        if (want)
            expect(body, WA_PEEPHOLE_NO_MOVES | WA_PEEPHOLE_NO_FOLD, want, &none);
        free(want);
    }
    /* NO_ACC_INIT */
    snprintf(body, sizeof(body),
             "%s  v_mov_b32 %%v2<4,align=2>[0], 0\n  v_mov_b32 %%v2[1], 0\n"
             "  v_mov_b32 %%v2[2], 0\n  v_mov_b32 %%v2[3], 0\n"
             "  v_mfma_f32_16x16x16_f16 %%v2, %%v1, %%v1, %%v2\n"
             "  global_store_dwordx4 v0, %%v2, s[0:1]\n  s_endpgm\n",
             head);
    expect(body, WA_PEEPHOLE_NO_MOVES | WA_PEEPHOLE_NO_ACC_INIT,
           "v_mov_b32 %v1<2,align=2>[0], v0\nv_mov_b32 %v1[1], v0\nv_mov_b32 %v2<4,align=2>[0], 0\n"
           "v_mov_b32 %v2[1], 0\n"
           "v_mov_b32 %v2[2], 0\nv_mov_b32 %v2[3], 0\nv_mfma_f32_16x16x16_f16 %v2, %v1, %v1, %v2\n"
           "global_store_dwordx4 v0, %v2, s[0:1]\ns_endpgm\n",
           &none);
}

/* Physical registers: the liveness of the fixed registers decides. */
static void physical(void)
{
    /* v1 dies at the add: fused; v3 is read again: not fused; v4 is overwritten
       by its only reader: fused with the constant folded in */
    wa_pass_stats s = stats_of(2, 1, 1, 0, 3, 2);
    expect("  v_lshlrev_b32 v1, 3, v0\n  v_add_u32 v2, v0, v1\n  v_lshlrev_b32 v3, 2, v0\n"
           "  v_add_u32 v4, v0, v3\n  v_mov_b32 v5, 4\n  v_add_u32 v4, v4, v5\n"
           "  global_store_dword v0, v2, s[0:1]\n  global_store_dword v0, v4, s[0:1] offset:256\n"
           "  global_store_dword v0, v3, s[0:1] offset:512\n  s_endpgm\n",
           0,
           "v_lshl_add_u32 v2, v0, 3, v0\nv_lshlrev_b32 v3, 2, v0\nv_add3_u32 v4, v0, v3, 4\n"
           "global_store_dword v0, v2, s[0:1]\n"
           "global_store_dword v0, v4, s[0:1] offset:256\nglobal_store_dword v0, v3, s[0:1] offset:512\n"
           "s_endpgm\n",
           &s);
    /* a constant move whose register stays live out of the block keeps its move */
    wa_pass_stats f = stats_of(0, 1, 0, 0, 0, 1);
    expect("  v_mov_b32 v5, 4\n  v_add_u32 v4, v0, v5\nnext:\n  global_store_dword v0, v5, s[0:1]\n"
           "  global_store_dword v0, v4, s[0:1] offset:256\n  s_endpgm\n",
           0,
           "v_mov_b32 v5, 4\nv_add_u32 v4, v0, 4\nnext:\nglobal_store_dword v0, v5, s[0:1]\n"
           "global_store_dword v0, v4, s[0:1] offset:256\ns_endpgm\n",
           &f);
}

/* Statistics on a program with one of everything. */
static void stats_counts(void)
{
    const char *body = "  v_lshlrev_b32 %v1, 2, v0\n"       /* fused with the add */
                       "  v_add_u32 %v2, %v1, v0\n"
                       "  v_mov_b32 %v3, 0\n"                /* constant: folded, dropped */
                       "  v_or_b32 %v4, %v2, %v3\n"          /* then x|0: identity */
                       "  v_mul_lo_u32 %v5, %v4, 16\n"       /* shift, then fused */
                       "  v_add_u32 %v6, %v5, s2\n"
                       "  v_mov_b32 %v7, %v6\n"              /* copy: propagated, dropped */
                       "  global_store_dword v0, %v7, s[0:1]\n"
                       "  s_endpgm\n";
    wa_pass_stats s = stats_of(2, 3, 3, 0, 5, 3);
    expect(body, 0,
           "v_lshl_add_u32 %v2, v0, 2, v0\nv_lshl_add_u32 %v6, %v2, 4, s2\n"
           "global_store_dword v0, %v6, s[0:1]\ns_endpgm\n",
           &s);
}

/* ---- a generator of programs the pass has much to do in ------------------------------------

   Text kernels with virtual registers: arguments out (global), in (global) and n
   (by value); values loaded from `in`, computed by random chains of the
   rewritable patterns (and their negative variants: second readers, sources
   redefined, EXEC written between, constant-bus conflicts, literals, SCC live),
   inside masked regions, if-blocks and bounded loops; every value ends up in
   `out`. */

typedef struct gbuf {
    char *s;
    size_t n, cap;
} gbuf;

static void emit(gbuf *b, const char *fmt, ...) UT_PRINTF(2, 3);
static void emit(gbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int w = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (w >= 0 && (size_t)w < b->cap - b->n) {
            b->n += (size_t)w;
            return;
        }
        b->cap = b->cap * 2 + (size_t)(w > 0 ? w : 256);
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            exit(1);
    }
}

#define PG_MAXV 32
#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

typedef struct pgen {
    gbuf b;
    rp_rng rng;
    unsigned next;           /* next virtual register id */
    unsigned v[PG_MAXV], nv; /* VGPR values defined on every path here */
    unsigned s[PG_MAXV], ns; /* SGPR values */
    unsigned labels;
    unsigned depth;
    unsigned masked;         /* inside a masked region */           /* MFMA results to store (4-register VGPRs) */
    unsigned acc[8], nacc;
} pgen;

static unsigned pick(pgen *g, unsigned n) { return rp_below(&g->rng, n); }

static unsigned new_reg(pgen *g) { return g->next++; }

static void add_v(pgen *g, unsigned r)
{
    if (g->nv < PG_MAXV) /* a full pool keeps its values (blocks restore counts) */
        g->v[g->nv++] = r;
}

static void add_s(pgen *g, unsigned r)
{
    if (g->ns < PG_MAXV)
        g->s[g->ns++] = r;
}

/* A source operand for a VALU position: a VGPR value mostly, else an SGPR value
   or an inline constant (or a literal when `lit`). */
static void vsrc(pgen *g, char *out, size_t n, int scalar_ok, int lit)
{
    unsigned r = pick(g, 20);
    if (r < 12 || (!scalar_ok && r < 17))
        snprintf(out, n, "%%v%u", g->v[pick(g, g->nv)]);
    else if (r < 15 && scalar_ok)
        snprintf(out, n, "%%s%u", g->s[pick(g, g->ns)]);
    else if (r < 19 || !lit)
        snprintf(out, n, "%d", (int)pick(g, 81) - 16);
    else
        snprintf(out, n, "0x%x", 0x100u + pick(g, 0x10000));
}

static void ssrc(pgen *g, char *out, size_t n, int lit)
{
    unsigned r = pick(g, 10);
    if (r < 7)
        snprintf(out, n, "%%s%u", g->s[pick(g, g->ns)]);
    else if (r < 9 || !lit)
        snprintf(out, n, "%d", (int)pick(g, 81) - 16);
    else
        snprintf(out, n, "0x%x", 0x100u + pick(g, 0x10000));
}

static const char *const pow_or_not[] = { "1", "2", "4", "8", "16", "32", "64", "3", "6", "12", "0" };

/* One fusion candidate pair, with a variation that may forbid it. Operand rules
   of the 32-bit forms: src0 takes anything, src1 a register or an inline
   constant; one scalar value per instruction. */
static void gen_pair(pgen *g)
{
    static const char *const shapes[5][2] = {
        { "v_lshlrev_b32", "v_add_u32" }, { "v_lshlrev_b32", "v_or_b32" }, { "v_or_b32", "v_or_b32" },
        { "v_add_u32", "v_add_u32" }, { "v_add_u32", "v_lshlrev_b32" },
    };
    unsigned sh = pick(g, 5);
    char a[32], c[32];
    unsigned t = new_reg(g), d = new_reg(g);
    if (sh <= 1 && pick(g, 2))
        snprintf(a, sizeof(a), "%u", pick(g, 40)); /* shift amount, sometimes 32 or more */
    else
        vsrc(g, a, sizeof(a), 1, 1);
    emit(&g->b, "  %s %%v%u, %s, %%v%u\n", shapes[sh][0], t, a, g->v[pick(g, g->nv)]);
    unsigned var = pick(g, 10);
    if (var == 0) { /* a source redefined in between */
        unsigned r = g->v[pick(g, g->nv)];
        emit(&g->b, "  v_add_u32 %%v%u, 1, %%v%u\n", r, r);
    } else if (var == 1) { /* EXEC written in between */
        emit(&g->b, "  s_mov_b64 exec, exec\n");
    }
    if (pick(g, 2)) { /* t second: the other source may be anything */
        vsrc(g, c, sizeof(c), 1, 1);
        if (sh == 4 && pick(g, 2))
            snprintf(c, sizeof(c), "%u", pick(g, 40));
        emit(&g->b, "  %s %%v%u, %s, %%v%u\n", shapes[sh][1], d, c, t);
    } else { /* t first (for the shift: t is the amount, which does not fuse) */
        vsrc(g, c, sizeof(c), 1, 0);
        emit(&g->b, "  %s %%v%u, %%v%u, %s\n", shapes[sh][1], d, t, c);
    }
    if (var == 2 || var == 3) /* a second reader of t */
        add_v(g, t);
    add_v(g, d);
}

static void gen_step(pgen *g);

static void gen_block(pgen *g, unsigned steps)
{
    for (unsigned k = 0; k < steps; k++)
        gen_step(g);
}

static void gen_step(pgen *g)
{
    char a[32], b[32];
    unsigned r = pick(g, 100);
    if (r < 30) {
        gen_pair(g);
    } else if (r < 38) { /* multiplications */
        unsigned d = new_reg(g);
        const char *k = pow_or_not[pick(g, N_ELEMS(pow_or_not))];
        vsrc(g, a, sizeof(a), 1, 0);
        if (pick(g, 3) == 0) { /* the factor in a constant register */
            unsigned c = new_reg(g);
            emit(&g->b, "  s_mov_b32 %%s%u, %s\n", c, k);
            emit(&g->b, "  v_mul_lo_u32 %%v%u, %s, %%s%u\n", d, a[0] == '%' && a[1] == 's' ? "v0" : a, c);
        } else {
            emit(&g->b, "  v_mul_lo_u32 %%v%u, %s, %s\n", d, k, a);
        }
        add_v(g, d);
        unsigned s = new_reg(g);
        int big = pick(g, 2);
        ssrc(g, b, sizeof(b), !big);
        int live = pick(g, 2);
        if (live)
            emit(&g->b, "  s_cmp_lt_u32 %%s%u, 7\n", g->s[pick(g, g->ns)]);
        emit(&g->b, "  s_mul_i32 %%s%u, %s, %s\n", s, b, big ? "0x100" : k);
        if (live) {
            unsigned c = new_reg(g);
            emit(&g->b, "  s_cselect_b32 %%s%u, %%s%u, 5\n", c, s);
            add_s(g, c);
        }
        add_s(g, s);
    } else if (r < 50) { /* identities */
        static const char *const vid[][2] = {
            { "v_add_u32", "0" }, { "v_or_b32", "0" }, { "v_xor_b32", "0" }, { "v_and_b32", "-1" },
            { "v_mul_lo_u32", "1" }, { "v_sub_u32", "0" }, { "v_subrev_u32", "0" },
            { "v_lshlrev_b32", "32" }, { "v_lshrrev_b32", "0" }, { "v_ashrrev_i32", "64" },
        };
        static const char *const sid[][2] = {
            { "s_add_u32", "0" }, { "s_or_b32", "0" }, { "s_and_b32", "-1" }, { "s_mul_i32", "1" },
            { "s_sub_u32", "0" }, { "s_lshl_b32", "0" }, { "s_lshr_b32", "32" }, { "s_xor_b32", "0" },
        };
        char k[32];
        if (pick(g, 2)) {
            unsigned i = pick(g, N_ELEMS(vid)), d = new_reg(g);
            snprintf(k, sizeof(k), "%s", vid[i][1]);
            if (pick(g, 3) == 0) { /* the identity value from a constant move */
                unsigned c = new_reg(g);
                emit(&g->b, "  v_mov_b32 %%v%u, %s\n", c, k);
                snprintf(k, sizeof(k), "%%v%u", c);
            }
            snprintf(a, sizeof(a), "%%v%u", g->v[pick(g, g->nv)]);
            /* the identity value goes where it is one (amounts first, subtrahend second) */
            if (i == 5)
                emit(&g->b, "  %s %%v%u, %s, %s\n", vid[i][0], d, a, k);
            else
                emit(&g->b, "  %s %%v%u, %s, %s\n", vid[i][0], d, k, a);
            add_v(g, d);
        } else {
            unsigned i = pick(g, N_ELEMS(sid)), d = new_reg(g);
            ssrc(g, a, sizeof(a), 1);
            int live = pick(g, 3) == 0;
            if (live)
                emit(&g->b, "  s_cmp_eq_u32 %%s%u, 3\n", g->s[pick(g, g->ns)]);
            if (i == 4 || i == 5 || i == 6)
                emit(&g->b, "  %s %%s%u, %s, %s\n", sid[i][0], d, a, sid[i][1]);
            else
                emit(&g->b, "  %s %%s%u, %s, %s\n", sid[i][0], d, sid[i][1], a);
            if (live) {
                unsigned c = new_reg(g);
                emit(&g->b, "  s_cselect_b32 %%s%u, 1, 2\n", c);
                add_s(g, c);
            }
            add_s(g, d);
        }
    } else if (r < 60) { /* constants and copies */
        unsigned d = new_reg(g);
        switch (pick(g, 6)) {
        case 0: emit(&g->b, "  v_mov_b32 %%v%u, %d\n", d, (int)pick(g, 81) - 16); add_v(g, d); break;
        case 1: emit(&g->b, "  v_mov_b32 %%v%u, %s\n", d, pick(g, 2) ? "-2.0" : "0x3e800000"); add_v(g, d); break;
        case 2: emit(&g->b, "  s_mov_b32 %%s%u, %d\n", d, (int)pick(g, 81) - 16); add_s(g, d); break;
        case 3:
            emit(&g->b, "  v_mov_b32 %%v%u, %%v%u\n", d, g->v[pick(g, g->nv)]);
            add_v(g, d);
            break;
        case 4:
            emit(&g->b, "  s_mov_b32 %%s%u, %%s%u\n", d, g->s[pick(g, g->ns)]);
            add_s(g, d);
            break;
        default: { /* through AGPRs */
            unsigned a1 = new_reg(g), a2 = new_reg(g);
            emit(&g->b, "  v_accvgpr_write_b32 %%a%u, %%v%u\n", a1, g->v[pick(g, g->nv)]);
            emit(&g->b, "  v_accvgpr_mov_b32 %%a%u, %%a%u\n", a2, a1);
            emit(&g->b, "  v_accvgpr_read_b32 %%v%u, %%a%u\n", d, a2);
            add_v(g, d);
            break;
        }
        }
        /* a reader of the fresh value in a float position now and then */
        if (pick(g, 3) == 0 && g->nv) {
            unsigned e = new_reg(g);
            emit(&g->b, "  v_add_f32 %%v%u, %%v%u, %%v%u\n", e, g->v[pick(g, g->nv)], g->v[g->nv - 1]);
            add_v(g, e);
        }
    } else if (r < 66 && g->depth < 2) { /* masked region with defaults */
        unsigned sv = new_reg(g), d = new_reg(g);
        emit(&g->b, "  v_mov_b32 %%v%u, %%v%u\n", d, g->v[pick(g, g->nv)]);
        emit(&g->b, "  v_cmp_gt_u32 vcc, %u, v0\n", 1 + pick(g, 63));
        emit(&g->b, "  s_and_saveexec_b64 %%s%u<2,align=2>, vcc\n", sv);
        unsigned keep_nv = g->nv, keep_ns = g->ns;
        g->depth++;
        g->masked++;
        gen_block(g, 1 + pick(g, 4));
        emit(&g->b, "  v_mov_b32 %%v%u, %%v%u\n", d, g->v[pick(g, g->nv)]);
        g->masked--;
        g->depth--;
        /* values defined inside hold only the active lanes: store them here */
        for (unsigned k = keep_nv; k < g->nv; k++)
            emit(&g->b, "  global_store_dword %%v%u, %%v%u, %%s1 offset:%u\n", g->v[0], g->v[k],
                 256u * pick(g, 16));
        g->nv = keep_nv;
        g->ns = keep_ns;
        emit(&g->b, "  s_or_b64 exec, exec, %%s%u\n", sv);
        add_v(g, d);
    } else if (r < 72 && g->depth < 2) { /* if-block */
        unsigned l = g->labels++;
        emit(&g->b, "  s_cmp_eq_u32 %%s%u, %u\n", g->s[pick(g, g->ns)], pick(g, 4));
        emit(&g->b, "  s_cbranch_scc1 skip%u\n", l);
        unsigned keep_nv = g->nv, keep_ns = g->ns, keep_acc = g->nacc;
        g->depth++;
        gen_block(g, 1 + pick(g, 4));
        g->depth--;
        for (unsigned k = keep_nv; k < g->nv; k++)
            emit(&g->b, "  global_store_dword %%v%u, %%v%u, %%s1 offset:%u\n", g->v[0], g->v[k],
                 256u * pick(g, 16));
        /* accumulators of the block are defined on one path only */
        for (unsigned k = keep_acc; k < g->nacc; k++)
            emit(&g->b, "  global_store_dwordx4 %%v%u, %%%c%u, %%s1 offset:%u\n", g->v[0],
                 g->acc[k] >> 31 ? 'a' : 'v', g->acc[k] & 0x7FFFFFFFu, 1024u * pick(g, 3));
        g->nacc = keep_acc;
        g->nv = keep_nv;
        g->ns = keep_ns;
        emit(&g->b, "skip%u:\n", l);
    } else if (r < 80 && g->depth < 2) { /* bounded loop with loop-carried values */
        unsigned l = g->labels++, cnt = new_reg(g), acc = new_reg(g);
        emit(&g->b, "  s_mov_b32 %%s%u, 0\n", cnt);
        emit(&g->b, "  v_mov_b32 %%v%u, %%v%u\n", acc, g->v[pick(g, g->nv)]);
        emit(&g->b, "loop%u:\n", l);
        unsigned keep_nv = g->nv, keep_ns = g->ns;
        g->depth++;
        gen_block(g, 1 + pick(g, 5));
        emit(&g->b, "  v_lshl_add_u32 %%v%u, %%v%u, 1, %%v%u\n", acc, acc, g->v[pick(g, g->nv)]);
        g->depth--;
        g->nv = keep_nv;
        g->ns = keep_ns;
        emit(&g->b, "  s_add_u32 %%s%u, %%s%u, 1\n", cnt, cnt);
        emit(&g->b, "  s_cmp_lt_u32 %%s%u, %u\n", cnt, 2 + pick(g, 2));
        emit(&g->b, "  s_cbranch_scc1 loop%u\n", l);
        add_v(g, acc);
    } else if (g->nacc < 8 && !g->masked) { /* MFMA with an accumulator zeroed here or before a loop */
        unsigned q = new_reg(g), ab = new_reg(g), agpr = pick(g, 2), way = pick(g, 4);
        char cr = agpr ? 'a' : 'v';
        emit(&g->b, "  v_and_b32 %%v%u<2,align=2>[0], 0x3c003c00, %%v%u\n", ab, g->v[pick(g, g->nv)]);
        emit(&g->b, "  v_and_b32 %%v%u[1], 0x3c003c00, %%v%u\n", ab, g->v[pick(g, g->nv)]);
        for (unsigned c = 0; c < 4; c++) {
            const char *zero = way == 3 && c == 2 ? "1" : "0";
            if (agpr)
                emit(&g->b, "  v_accvgpr_write_b32 %%a%u%s[%u], %s\n", q, c ? "" : "<4,align=2>", c, zero);
            else
                emit(&g->b, "  v_mov_b32 %%v%u%s[%u], %s\n", q, c ? "" : "<4,align=2>", c, zero);
        }
        if (way == 1) { /* accumulate in a loop */
            unsigned l = g->labels++, cnt = new_reg(g);
            emit(&g->b, "  s_mov_b32 %%s%u, 0\nmloop%u:\n", cnt, l);
            emit(&g->b, "  v_mfma_f32_16x16x16_f16 %%%c%u, %%v%u, %%v%u, %%%c%u\n", cr, q, ab, ab, cr, q);
            emit(&g->b, "  s_add_u32 %%s%u, %%s%u, 1\n  s_cmp_lt_u32 %%s%u, 2\n  s_cbranch_scc1 mloop%u\n",
                 cnt, cnt, cnt, l);
        } else {
            emit(&g->b, "  v_mfma_f32_16x16x16_f16 %%%c%u, %%v%u, %%v%u, %%%c%u\n", cr, q, ab, ab, cr, q);
        }
        emit(&g->b, "  s_nop 15\n");
        g->acc[g->nacc++] = q | (agpr ? 0x80000000u : 0);
    } else {
        gen_pair(g);
    }
}

/* A whole kernel; `seed` decides everything. */
static char *gen_program(uint64_t seed, unsigned steps)
{
    pgen g;
    memset(&g, 0, sizeof(g));
    rp_seed(&g.rng, seed);
    g.b.cap = 4096;
    g.b.s = malloc(g.b.cap);
    if (!g.b.s)
        exit(1);
    g.b.s[0] = '\0';
    emit(&g.b, ".kernel peep\n  .target gfx942\n  .abi kernarg_ptr, workgroup_id_x, workitem_id_x\n"
               "  .arg out, global_buffer, offset:0, size:8, align:8\n"
               "  .arg in, global_buffer, offset:8, size:8, align:8, const\n"
               "  .arg n, by_value, offset:16, size:4, align:4\n");
    /* %s1 out, %s2 in, %s3 n; %v0 the lane's byte offset; loaded values */
    emit(&g.b, "  s_load_dwordx2 %%s1<2,align=2>, s[0:1], 0\n  s_load_dwordx2 %%s2<2,align=2>, s[0:1], 8\n"
               "  s_load_dword %%s3, s[0:1], 16\n  v_lshlrev_b32 %%v0, 2, v0\n  s_waitcnt lgkmcnt(0)\n");
    g.next = 4;
    g.v[g.nv++] = 0;
    g.s[g.ns++] = 3;
    for (unsigned k = 0; k < 4; k++) {
        unsigned r = new_reg(&g);
        emit(&g.b, "  global_load_dword %%v%u, %%v0, %%s2 offset:%u\n", r, 256u * k);
        add_v(&g, r);
    }
    emit(&g.b, "  s_waitcnt vmcnt(0)\n");
    unsigned s4 = new_reg(&g);
    emit(&g.b, "  s_add_u32 %%s%u, s2, %%s3\n", s4); /* workgroup id + n */
    add_s(&g, s4);
    gen_block(&g, steps);
    /* store everything: VGPR values at 256-byte slots (two bases), SGPR values
       through VGPRs, MFMA results */
    unsigned base2 = new_reg(&g);
    emit(&g.b, "  v_add_u32 %%v%u, 0x1000, %%v0\n", base2);
    for (unsigned k = 0; k < g.nv; k++)
        emit(&g.b, "  global_store_dword %%v%u, %%v%u, %%s1 offset:%u\n", k < 16 ? 0 : base2, g.v[k],
             256u * (k % 16));
    unsigned base3 = new_reg(&g);
    emit(&g.b, "  v_add_u32 %%v%u, 0x2000, %%v0\n", base3);
    for (unsigned k = 0; k < g.ns && k < 16; k++) {
        unsigned t = new_reg(&g);
        emit(&g.b, "  v_mov_b32 %%v%u, %%s%u\n", t, g.s[k]);
        emit(&g.b, "  global_store_dword %%v%u, %%v%u, %%s1 offset:%u\n", base3, t, 256u * k);
    }
    unsigned base4 = new_reg(&g), l16 = new_reg(&g);
    emit(&g.b, "  v_lshlrev_b32 %%v%u, 4, v0\n  v_add_u32 %%v%u, 0x3000, %%v%u\n", l16, base4, l16);
    for (unsigned k = 0; k < g.nacc; k++) {
        unsigned q = g.acc[k] & 0x7FFFFFFFu;
        emit(&g.b, "  global_store_dwordx4 %%v%u, %%%c%u, %%s1 offset:%u\n", base4,
             g.acc[k] >> 31 ? 'a' : 'v', q, 1024u * (k % 4));
        if (k % 4 == 3 && k + 1 < g.nacc)
            emit(&g.b, "  v_add_u32 %%v%u, 0x1000, %%v%u\n", base4, base4);
    }
    emit(&g.b, "  s_endpgm\n.end_kernel\n");
    return g.b.s;
}

/* ---- differential tests -------------------------------------------------------------- */

/* Rewrites counted over every pass run of the differential tests, and over the
   runs of the current variant (g_var: virtual or physical input). */
static wa_pass_stats g_total, g_var[2];
static unsigned g_pass_runs, g_var_runs[2], g_idem_failures, g_invalid, g_cur;

static void add_stats(wa_pass_stats *t, const wa_pass_stats *s)
{
    t->fused += s->fused;
    t->folded += s->folded;
    t->moves_removed += s->moves_removed;
    t->acc_inits_removed += s->acc_inits_removed;
    t->removed += s->removed;
    t->changed += s->changed;
    t->instrs_before += s->instrs_before;
    t->instrs_after += s->instrs_after;
}

static void accumulate(const wa_pass_stats *s)
{
    add_stats(&g_var[g_cur], s);
    g_var_runs[g_cur]++;
    g_total.fused += s->fused;
    g_total.folded += s->folded;
    g_total.moves_removed += s->moves_removed;
    g_total.acc_inits_removed += s->acc_inits_removed;
    g_total.removed += s->removed;
    g_total.changed += s->changed;
    g_total.instrs_before += s->instrs_before;
    g_total.instrs_after += s->instrs_after;
    g_pass_runs++;
}

/* The pass on `prog` in place; the result must validate (when the input does) and
   a second run must change nothing. */
static wa_status peephole_checked(wa_program *prog, int input_valid)
{
    wa_pass_stats st;
    wa_status s = wa_pass_peephole(prog, NULL, &st);
    if (s != WA_OK)
        return s;
    accumulate(&st);
    if (input_valid && wa_program_validate(NULL, prog, NULL) != WA_OK) {
        if (g_invalid++ < 3) {
            char *text = ut_print(prog);
            CHECK_MSG(0, "the pass output does not validate: %s\n%s",
                      ut_diags_text(wa_program_context(prog)), text ? text : "");
            wa_free(text);
        }
        return WA_E_VALIDATE;
    }
    wa_program *again = NULL;
    if (wa_program_clone(&again, prog) != WA_OK)
        return WA_E_NOMEM;
    wa_pass_stats st2;
    s = wa_pass_peephole(again, NULL, &st2);
    int same = s == WA_OK && wa_program_equal(prog, again) && st2.removed == 0 && st2.changed == 0;
    if (!same && g_idem_failures++ < 3) {
        char *t1 = ut_print(prog), *t2 = ut_print(again);
        CHECK_MSG(0, "a second run changed the program (removed %u, changed %u):\n%s\n--- became ---\n%s",
                  st2.removed, st2.changed, t1 ? t1 : "", t2 ? t2 : "");
        wa_free(t1);
        wa_free(t2);
    }
    wa_program_destroy(again);
    return WA_OK;
}

static int g_input_valid = 1;

static wa_status pass_peephole(wa_program **out, const wa_program *in)
{
    wa_program *copy = NULL;
    wa_status s = wa_program_clone(&copy, in);
    if (s == WA_OK)
        s = peephole_checked(copy, g_input_valid);
    if (s != WA_OK) {
        wa_program_destroy(copy);
        return s;
    }
    *out = copy;
    return WA_OK;
}

/* peephole, then register allocation */
static wa_status pass_peephole_regalloc(wa_program **out, const wa_program *in)
{
    wa_program *mid = NULL;
    wa_status s = pass_peephole(&mid, in);
    if (s != WA_OK)
        return s;
    s = sd_pass_regalloc(out, mid);
    wa_program_destroy(mid);
    return s;
}

/* register allocation, then peephole on the physical program */
static wa_status pass_regalloc_peephole(wa_program **out, const wa_program *in)
{
    wa_program *mid = NULL;
    wa_status s = sd_pass_regalloc(&mid, in);
    if (s != WA_OK)
        return s;
    g_cur = 1;
    s = peephole_checked(mid, g_input_valid);
    g_cur = 0;
    if (s != WA_OK) {
        wa_program_destroy(mid);
        return s;
    }
    *out = mid;
    return WA_OK;
}

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

/* Rewrites of the virtual and physical runs since the last call. */
static void report_rewrites(const char *what)
{
    static const char *const kind[2] = { "virtual input", "physical input (after regalloc)" };
    for (unsigned v = 0; v < 2; v++) {
        const wa_pass_stats *t = &g_var[v];
        if (g_var_runs[v])
            printf("     %s, %s: %u pass runs: %u fused, %u folded, %u moves removed, %u accumulator "
                   "inits; %u removed, %u changed; %u -> %u instructions\n",
                   what, kind[v], g_var_runs[v], t->fused, t->folded, t->moves_removed,
                   t->acc_inits_removed, t->removed, t->changed, t->instrs_before, t->instrs_after);
        memset(&g_var[v], 0, sizeof(g_var[v]));
        g_var_runs[v] = 0;
    }
}

static void check_program(const wa_program *prog, sd_pass_fn fn, const char *name, const sd_config *sc,
                          sd_result *res, uint64_t seed)
{
    unsigned before = res->failures;
    sd_check_pass(prog, fn, name, sc, res);
    if (res->failures > before && res->failures <= 2) {
        char *text = ut_print(prog);
        fprintf(stderr, "---- %s, program %llu ----\n%s\n", name, (unsigned long long)seed,
                text ? text : "");
        wa_free(text);
    }
}

#define GEN_PROGRAMS 160u

static void generated_programs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 2;
    sc.timing = 1; /* the generator places its waits */
    sd_result res, res_ra, res_phys;
    memset(&res, 0, sizeof(res));
    memset(&res_ra, 0, sizeof(res_ra));
    memset(&res_phys, 0, sizeof(res_phys));
    wa_pass_stats start = g_total;
    unsigned programs = 0, invalid_inputs = 0;
    g_input_valid = 1;
    for (uint64_t seed = 1; seed <= GEN_PROGRAMS; seed++) {
        char *text = gen_program(seed, 10 + (unsigned)(seed % 30));
        wa_program *prog = NULL;
        if (!CHECK_MSG(wa_program_parse(&prog, ctx, text, strlen(text), "gen.wa") == WA_OK,
                       "generated program %llu does not parse: %s\n%s", (unsigned long long)seed,
                       ut_diags_text(ctx), text)) {
            free(text);
            continue;
        }
        if (wa_program_validate(NULL, prog, NULL) != WA_OK) {
            if (invalid_inputs++ == 0)
                CHECK_MSG(0, "generated program %llu is not valid: %s\n%s", (unsigned long long)seed,
                          ut_diags_text(ctx), text);
            free(text);
            wa_program_destroy(prog);
            continue;
        }
        free(text);
        programs++;
        check_program(prog, pass_peephole, "peephole", &sc, &res, seed);
        check_program(prog, pass_peephole_regalloc, "peephole + regalloc", &sc, &res_ra, seed);
        check_program(prog, pass_regalloc_peephole, "regalloc + peephole", &sc, &res_phys, seed);
        wa_program_destroy(prog);
    }
    report("generated programs, peephole", &res, programs);
    report("generated programs, peephole then regalloc", &res_ra, programs);
    report("generated programs, regalloc then peephole (physical)", &res_phys, programs);
    /* the physical runs rewrite too (with the liveness of physical registers) */
    CHECK(g_var[1].fused > 0 && g_var[1].folded > 0 && g_var[1].moves_removed > 0 &&
          g_var[1].acc_inits_removed > 0);
    report_rewrites("generated programs");
    CHECK_EQ_UINT(invalid_inputs, 0);
    CHECK_MSG(res.failures == 0, "first failure: %s", res.first_failure);
    CHECK_MSG(res_ra.failures == 0, "first failure: %s", res_ra.first_failure);
    CHECK_MSG(res_phys.failures == 0, "first failure: %s", res_phys.first_failure);
    CHECK_EQ_UINT(res.skipped, 0);
    CHECK_EQ_UINT(res.runs, programs * sc.seeds);
    /* the generator gives the pass work of every kind */
    CHECK(g_total.fused - start.fused > programs);
    CHECK(g_total.folded - start.folded > programs);
    CHECK(g_total.moves_removed - start.moves_removed > programs / 2);
    CHECK(g_total.acc_inits_removed - start.acc_inits_removed > programs / 8);
    CHECK_EQ_UINT(g_idem_failures, 0);
    wa_context_destroy(ctx);
}

#define RANDOM_PROGRAMS 150u

static void random_programs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1;
    cfg.masked = 1;
    sd_config sc;
    sd_config_default(&sc);
    sc.timing = 0; /* no waits in these programs */
    sc.seeds = 1;
    sc.max_instructions = 50000;
    sd_result res, res_ra, res_phys;
    memset(&res, 0, sizeof(res));
    memset(&res_ra, 0, sizeof(res_ra));
    memset(&res_phys, 0, sizeof(res_phys));
    wa_pass_stats start = g_total;
    unsigned programs = 0;
    static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    for (uint64_t seed = 1; seed <= RANDOM_PROGRAMS; seed++) {
        cfg.items = 40 + (unsigned)(seed % 60);
        wa_program *prog = rp_generate(ctx, targets[seed % 3], seed, &cfg);
        if (!CHECK(prog != NULL))
            continue;
        programs++;
        g_input_valid = wa_program_validate(NULL, prog, NULL) == WA_OK;
        check_program(prog, pass_peephole, "peephole", &sc, &res, seed);
        check_program(prog, pass_peephole_regalloc, "peephole + regalloc", &sc, &res_ra, seed);
        check_program(prog, pass_regalloc_peephole, "regalloc + peephole", &sc, &res_phys, seed);
        wa_program_destroy(prog);
    }
    g_input_valid = 1;
    report("random programs, peephole", &res, programs);
    report("random programs, peephole then regalloc", &res_ra, programs);
    report("random programs, regalloc then peephole (physical)", &res_phys, programs);
    CHECK(g_total.folded > start.folded && g_total.moves_removed > start.moves_removed);
    report_rewrites("random programs");
    CHECK_MSG(res.failures == 0, "first failure: %s", res.first_failure);
    CHECK_MSG(res_ra.failures == 0, "first failure: %s", res_ra.first_failure);
    CHECK_MSG(res_phys.failures == 0, "first failure: %s", res_phys.first_failure);
    CHECK_MSG(res.runs >= programs / 3, "only %u of %u runs compared", res.runs, programs);
    CHECK_EQ_UINT(g_idem_failures, 0);
    wa_context_destroy(ctx);
}

static void examples(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 3;
    sc.timing = 1;
    sd_result res, res_ra;
    memset(&res, 0, sizeof(res));
    memset(&res_ra, 0, sizeof(res_ra));
    for (unsigned i = 0; i < n; i++) {
        wa_program *prog = NULL;
        if (!CHECK_OK(wa_program_parse_file(&prog, ctx, files[i])))
            continue;
        wa_pass_stats before = g_total;
        check_program(prog, pass_peephole, "peephole", &sc, &res, i);
        const char *base = strrchr(files[i], '/');
        printf("     %s: %u fused, %u folded, %u moves removed, %u accumulator inits\n",
               base ? base + 1 : files[i], g_total.fused - before.fused,
               g_total.folded - before.folded, g_total.moves_removed - before.moves_removed,
               g_total.acc_inits_removed - before.acc_inits_removed);
        check_program(prog, pass_peephole_regalloc, "peephole + regalloc", &sc, &res_ra, i);
        wa_program_destroy(prog);
    }
    report("examples, peephole", &res, n);
    report("examples, peephole then regalloc", &res_ra, n);
    report_rewrites("examples");
    CHECK_MSG(res.failures == 0, "first failure: %s", res.first_failure);
    CHECK_MSG(res_ra.failures == 0, "first failure: %s", res_ra.first_failure);
    CHECK_EQ_UINT(res.skipped, 0);
    CHECK_EQ_UINT(res.runs, n * sc.seeds);
    CHECK_EQ_UINT(g_idem_failures, 0);
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

#ifdef WAVEASM_HAVE_GEMM_GEN
static void bench_kernels(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 2;
    sd_result res, res_ra;
    memset(&res, 0, sizeof(res));
    memset(&res_ra, 0, sizeof(res_ra));
    wa_pass_stats start = g_total;
    unsigned programs = 0;
    for (int shape = 0; shape < GEMM_GEN_SHAPE_COUNT; shape++) {
        for (uint64_t seed = 1; seed <= 2; seed++) {
            gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
            g.shape = (gemm_gen_shape)shape;
            g.instructions = 1000;
            g.seed = seed;
            wa_program *prog = NULL;
            if (!CHECK_OK(gemm_gen_build(&prog, NULL, ctx, &g)))
                continue;
            /* The kernel's waves store to overlapping addresses, so with several
               waves its memory depends on their timing, which any change in the
               instruction count shifts: compare one wave per workgroup. */
            REQUIRE_OK(wa_program_set_workgroup_size(prog, 64, 1, 1));
            programs++;
            wa_pass_stats before = g_total;
            check_program(prog, pass_peephole, "peephole", &sc, &res, seed);
            printf("     gemm %s seed %llu: %u fused, %u folded, %u moves removed, %u accumulator "
                   "inits, %u -> %u instructions\n",
                   gemm_gen_shape_name(g.shape), (unsigned long long)seed,
                   g_total.fused - before.fused, g_total.folded - before.folded,
                   g_total.moves_removed - before.moves_removed,
                   g_total.acc_inits_removed - before.acc_inits_removed,
                   g_total.instrs_before - before.instrs_before,
                   g_total.instrs_after - before.instrs_after);
            check_program(prog, pass_peephole_regalloc, "peephole + regalloc", &sc, &res_ra, seed);
            wa_program_destroy(prog);
        }
    }
    report("benchmark kernels (1k instructions), peephole", &res, programs);
    report("benchmark kernels, peephole then regalloc", &res_ra, programs);
    report_rewrites("benchmark kernels");
    CHECK_MSG(res.failures == 0, "first failure: %s", res.first_failure);
    CHECK_MSG(res_ra.failures == 0, "first failure: %s", res_ra.first_failure);
    CHECK_EQ_UINT(res.runs, programs * sc.seeds);
    CHECK(g_total.acc_inits_removed > start.acc_inits_removed);
    CHECK(g_total.folded > start.folded);
    CHECK_EQ_UINT(g_idem_failures, 0);
    wa_context_destroy(ctx);
}
#define BENCH_CASE UT_CASE(bench_kernels)
#else
#define BENCH_CASE
#endif

/* A fusion made wrong on purpose: v_lshlrev_b32 + v_add_u32 fused and the shift
   dropped even when its result has other readers. The harness must notice on
   the generated programs (the tests above can fail). */
static int other_reader(const wa_program *p, unsigned skip_a, unsigned skip_b, unsigned id)
{
    unsigned n = wa_program_size(p);
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view v;
        if (i == skip_a || i == skip_b || wa_program_get(&v, p, i) != WA_OK)
            continue;
        for (unsigned k = 0; k < v.num_operands; k++)
            if (v.operands[k].kind == WA_OPND_VIRT && v.operands[k].id == id &&
                v.operands[k].reg_class == WA_REG_VGPR)
                return 1;
    }
    return 0;
}

static int g_wrong_sites;

static wa_status wrong_fusion(wa_program **out, const wa_program *in)
{
    wa_program *copy = NULL;
    wa_status s = wa_program_clone(&copy, in);
    if (s != WA_OK)
        return s;
    g_wrong_sites = 0;
    for (unsigned i = 0; i + 1 < wa_program_size(copy); i++) {
        wa_instr_view a, b;
        if (wa_program_get(&a, copy, i) != WA_OK || wa_program_get(&b, copy, i + 1) != WA_OK)
            continue;
        if (a.opcode != WA_OP_V_LSHLREV_B32 || b.opcode != WA_OP_V_ADD_U32 ||
            a.operands[0].kind != WA_OPND_VIRT || b.operands[2].kind != WA_OPND_VIRT ||
            b.operands[2].id != a.operands[0].id || a.operands[1].kind != WA_OPND_IMM ||
            a.operands[2].kind != WA_OPND_VIRT || b.operands[1].kind != WA_OPND_VIRT ||
            !other_reader(copy, i, i + 1, a.operands[0].id))
            continue;
        wa_operand d = b.operands[0], x = b.operands[1], val = a.operands[2], amt = a.operands[1];
        if (wa_program_set_insert_point(copy, i + 2) != WA_OK ||
            wa_build_valu(NULL, copy, WA_OP_V_LSHL_ADD_U32, d, val, amt, x) != WA_OK ||
            wa_program_erase(copy, i + 1) != WA_OK || wa_program_erase(copy, i) != WA_OK)
            break;
        g_wrong_sites++;
    }
    *out = copy;
    return WA_OK;
}

static void harness_catches_wrong_rewrite(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 1;
    sc.timing = 1;
    unsigned tried = 0, caught = 0;
    for (uint64_t seed = 1000; seed < 1040; seed++) {
        char *text = gen_program(seed, 30);
        wa_program *prog = NULL;
        if (wa_program_parse(&prog, ctx, text, strlen(text), "gen.wa") == WA_OK) {
            sd_result res;
            memset(&res, 0, sizeof(res));
            sd_check_pass(prog, wrong_fusion, "wrong fusion", &sc, &res);
            if (g_wrong_sites && res.runs) {
                tried++;
                caught += res.failures > 0;
            }
        }
        wa_program_destroy(prog);
        free(text);
    }
    printf("     wrong rewrites: %u of %u programs differ\n", caught, tried);
    CHECK(tried > 5);
    CHECK_MSG(caught * 2 > tried, "only %u of %u wrong programs noticed", caught, tried);
    wa_context_destroy(ctx);
}

static void summary(void)
{
    printf("     all differential cases: %u pass runs; %u fused, %u folded, %u moves removed, "
           "%u accumulator inits, %u removed, %u changed\n",
           g_pass_runs, g_total.fused, g_total.folded, g_total.moves_removed,
           g_total.acc_inits_removed, g_total.removed, g_total.changed);
    CHECK(1);
}

/* Values nothing reads go, chains of them in one run (also around a loop);
   memory, implicit writes (SCC, VCC), physical and special destinations stay;
   WA_PEEPHOLE_NO_DEAD keeps them all. */
static void dead_values(void)
{
    static const char body[] =
        "  s_mov_b32 %s1, 5\n"                 /* read only by dead %s2 */
        "  s_cmp_lt_u32 %s1, 9\n"              /* writes SCC: stays */
        "  s_cselect_b32 %s2, %s1, 0\n"        /* dead: nobody reads %s2 */
        "  v_add_u32 %v3, %s1, v0\n"           /* read by %v4 only */
        "  v_lshlrev_b32 %v4, 2, %v3\n"        /* dead */
        "  v_add_co_u32 %v5, vcc, %v3, 1\n"    /* writes VCC: stays */
        "  global_load_dword %v6, v0, s[0:1]\n" /* memory: stays */
        "  v_mov_b32 v7, %s1\n"                /* physical destination: stays */
        "loop:\n"
        "  v_add_u32 %v8, %v9, 1\n"            /* dead, reads %v9 from the latch */
        "  v_mov_b32 %v9, %v10\n"              /* read by the dead %v8 only */
        "  v_mov_b32 %v10, 3\n"
        "  s_cbranch_scc1 loop\n"
        "  s_endpgm\n";
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse_body(ctx, body);
    REQUIRE(prog);
    wa_pass_stats st;
    CHECK_OK(wa_pass_peephole(prog, NULL, &st));
    char *text = body_text(prog);
    CHECK_STR_NOT_CONTAINS(text, "s_cselect");
    CHECK_STR_NOT_CONTAINS(text, "v_lshlrev_b32");
    CHECK_STR_NOT_CONTAINS(text, "%v8");
    CHECK_STR_NOT_CONTAINS(text, "%v9");
    CHECK_STR_NOT_CONTAINS(text, "%v10");
    CHECK_STR_CONTAINS(text, "s_cmp_lt_u32");
    CHECK_STR_CONTAINS(text, "v_add_co_u32");
    CHECK_STR_CONTAINS(text, "global_load_dword");
    CHECK_STR_CONTAINS(text, "v_mov_b32 v7");
    free(text);
    /* a second run has nothing left */
    CHECK_OK(wa_pass_peephole(prog, NULL, &st));
    CHECK_EQ_UINT(st.removed, 0);
    wa_program_destroy(prog);

    prog = parse_body(ctx, body);
    REQUIRE(prog);
    wa_peephole_options o = WA_PEEPHOLE_OPTIONS_INIT;
    o.flags = WA_PEEPHOLE_NO_DEAD;
    CHECK_OK(wa_pass_peephole(prog, &o, &st));
    text = body_text(prog);
    CHECK_STR_CONTAINS(text, "s_cselect_b32");
    CHECK_STR_CONTAINS(text, "v_lshlrev_b32");
    free(text);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(dead_values) UT_CASE(api_bad_input) UT_CASE(fusion_patterns) UT_CASE(fusion_negative) UT_CASE(folds)
             UT_CASE(moves) UT_CASE(accumulator_init) UT_CASE(physical) UT_CASE(stats_counts)
                 UT_CASE(generated_programs) UT_CASE(random_programs) UT_CASE(examples)
                     BENCH_CASE UT_CASE(harness_catches_wrong_rewrite) UT_CASE(summary));
