/* tests/unit/test_cse.c — common subexpression elimination and loop-invariant
   hoisting (wa_pass_cse).

   API and bad input, statistics, the value rules on small kernels (exact
   output), a physical program left alone, and differential testing in the
   simulator (simdiff.h): a generator of kernels rich in repeated and
   loop-invariant expressions (below), the seeded random programs of randprog.c,
   every example and the GEMM benchmark kernels. Every output validates, stores
   the same memory as its input over several seeds, still does after register
   allocation, and a second run of the pass finds nothing more. */
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

/* ---- helpers -------------------------------------------------------------------------------- */

static char *print_plain(const wa_program *prog)
{
    return ut_print_flags(prog, 0);
}

/* Parses `body`, runs the pass with `flags`, and returns the printed result
   without tags (NULL on failure). */
static char *cse_body(wa_context *ctx, const char *body, unsigned flags, wa_pass_stats *stats)
{
    wa_program *prog = NULL;
    if (!CHECK_OK(ut_parse_body(&prog, ctx, "gfx942", body)))
        return NULL;
    wa_cse_options o = WA_CSE_OPTIONS_INIT;
    o.flags = flags;
    wa_pass_stats local;
    char *text = NULL;
    if (CHECK_OK(wa_pass_cse(prog, &o, stats ? stats : &local))) {
        unsigned errors = 0;
        CHECK_MSG(wa_program_validate(&errors, prog, NULL) == WA_OK, "output invalid: %s",
                  ut_diags_text(ctx));
        text = print_plain(prog);
    }
    wa_program_destroy(prog);
    return text;
}

/* The instruction lines of a printed kernel (after the header), for exact
   comparisons. */
static const char *body_of(const char *text)
{
    const char *p = strstr(text, "  .abi");
    if (!p)
        return text;
    p = strchr(p, '\n');
    while (p && (strncmp(p + 1, "  .arg", 6) == 0 || strncmp(p + 1, "  .vreg", 7) == 0))
        p = strchr(p + 1, '\n');
    return p ? p + 1 : text;
}

#define CHECK_BODY(text, expect)                                                               \
    do {                                                                                       \
        if (text)                                                                              \
            CHECK_STR_EQ(body_of(text), expect ".end_kernel\n");                               \
    } while (0)

/* ---- API ------------------------------------------------------------------------------------- */

static void api_bad_input(void)
{
    CHECK_STATUS(wa_pass_cse(NULL, NULL, NULL), WA_E_INVALID);
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942",
                             "  v_add_u32 %v1, 1, v0\n"
                             "  v_add_u32 %v2, 1, v0\n"
                             "  global_store_dword v0, %v2, s[0:1]\n"
                             "  s_endpgm\n"));
    wa_program *orig = NULL;
    REQUIRE_OK(wa_program_clone(&orig, prog));
    wa_cse_options bad = WA_CSE_OPTIONS_INIT;
    bad.version = 0;
    CHECK_STATUS(wa_pass_cse(prog, &bad, NULL), WA_E_INVALID);
    CHECK(ut_find_diag(ctx, "wa_cse_options") != NULL);
    bad.version = WA_CSE_OPTIONS_VERSION + 1;
    CHECK_STATUS(wa_pass_cse(prog, &bad, NULL), WA_E_INVALID);
    bad.version = WA_CSE_OPTIONS_VERSION;
    bad.flags = 0x80;
    CHECK_STATUS(wa_pass_cse(prog, &bad, NULL), WA_E_INVALID);
    CHECK(ut_find_diag(ctx, "unknown flags") != NULL);
    /* rejected options leave the program alone */
    CHECK(wa_program_equal(prog, orig));
    /* NULL options and NULL stats are fine */
    CHECK_OK(wa_pass_cse(prog, NULL, NULL));
    CHECK(!wa_program_equal(prog, orig));
    wa_program_destroy(prog);
    wa_program_destroy(orig);
    wa_context_destroy(ctx);
}

static void stats_and_tags(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942",
                             "  v_mov_b32 %v1, 7\n"          /* @I0 */
                             "  v_add_u32 %v2, %v1, v0\n"    /* @I1 */
                             "  v_add_u32 %v3, v0, %v1\n"    /* @I2: = @I1 (commuted) */
                             "  s_mov_b32 %s4, 0\n"          /* @I3 */
                             "loop:\n"
                             "  v_lshlrev_b32 %v5, 2, %v3\n" /* @I4: invariant */
                             "  v_add_u32 %v6, %v5, %v2\n"   /* @I5: invariant */
                             "  s_add_u32 %s4, %s4, 1\n"
                             "  s_cmp_lt_u32 %s4, 4\n"
                             "  s_cbranch_scc1 loop\n"
                             "  global_store_dword v0, %v6, s[0:1]\n"
                             "  s_endpgm\n"));
    wa_pass_stats s;
    memset(&s, 0xAB, sizeof(s));
    REQUIRE_OK(wa_pass_cse(prog, NULL, &s));
    CHECK_EQ_UINT(s.version, WA_PASS_STATS_VERSION);
    CHECK_EQ_UINT(s.instrs_before, 11);
    CHECK_EQ_UINT(s.instrs_after, 10);
    CHECK_EQ_UINT(s.eliminated, 1);
    CHECK_EQ_UINT(s.removed, 1);
    CHECK_EQ_UINT(s.hoisted, 2);
    CHECK_EQ_UINT(s.changed, 1); /* the reader of %v3 */
    CHECK_EQ_UINT(s.inserted, 0);
    CHECK_EQ_UINT(s.waitcnts_inserted, 0);
    CHECK_EQ_UINT(s.nops_inserted, 0);
    CHECK_EQ_UINT(s.fused, 0);
    /* moved instructions keep their tags and their order, before the loop's
       label; the removed register is gone */
    unsigned i4 = 0, i5 = 0, label = 0;
    CHECK_OK(wa_program_find_tag(&i4, prog, 4));
    CHECK_OK(wa_program_find_tag(&i5, prog, 5));
    for (unsigned i = 0; i < wa_program_size(prog); i++) {
        wa_instr_view v;
        if (wa_program_get(&v, prog, i) == WA_OK && v.opcode == WA_OP_LABEL)
            label = i;
    }
    CHECK_EQ_UINT(i5, i4 + 1);
    CHECK_EQ_UINT(label, i5 + 1);
    char *text = print_plain(prog);
    if (text) {
        CHECK_STR_CONTAINS(text, "  v_lshlrev_b32 %v5, 2, %v2\n  v_add_u32 %v6, %v5, %v2\nloop:\n");
        CHECK_STR_NOT_CONTAINS(text, "%v3");
    }
    wa_free(text);
    /* idempotent: a second run changes nothing */
    wa_program *once = NULL;
    REQUIRE_OK(wa_program_clone(&once, prog));
    REQUIRE_OK(wa_pass_cse(prog, NULL, &s));
    CHECK_EQ_UINT(s.eliminated + s.hoisted + s.changed + s.removed, 0);
    CHECK_EQ_UINT(s.instrs_before, 10);
    CHECK_EQ_UINT(s.instrs_after, 10);
    CHECK(wa_program_equal(prog, once));
    wa_program_destroy(once);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void physical_program_unchanged(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    /* equal expressions, but physical registers can be reused: nothing is a value */
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942",
                             "  v_add_u32 v1, 1, v0\n"
                             "  v_add_u32 v2, 1, v0\n"
                             "  s_mov_b32 s4, 0\n"
                             "loop:\n"
                             "  v_lshlrev_b32 v3, 2, v1\n"
                             "  s_add_u32 s4, s4, 1\n"
                             "  s_cmp_lt_u32 s4, 4\n"
                             "  s_cbranch_scc1 loop\n"
                             "  global_store_dword v0, v3, s[0:1]\n"
                             "  global_store_dword v0, v2, s[0:1] offset:256\n"
                             "  s_endpgm\n"));
    wa_program *orig = NULL;
    REQUIRE_OK(wa_program_clone(&orig, prog));
    wa_pass_stats s;
    CHECK_OK(wa_pass_cse(prog, NULL, &s));
    CHECK(wa_program_equal(prog, orig));
    CHECK_EQ_UINT(s.eliminated + s.hoisted + s.removed + s.changed + s.inserted, 0);
    CHECK_EQ_UINT(s.instrs_before, 10);
    CHECK_EQ_UINT(s.instrs_after, 10);
    wa_program_destroy(prog);
    wa_program_destroy(orig);
    /* every example that is written with physical registers stays as it is */
    char **files = NULL;
    unsigned n = ut_list_examples(&files), physical = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!CHECK_OK(wa_program_parse_file(&prog, ctx, files[i])))
            continue;
        char *text = ut_print(prog);
        int virt = text && strchr(text, '%') != NULL;
        wa_free(text);
        if (!virt) {
            physical++;
            REQUIRE_OK(wa_program_clone(&orig, prog));
            CHECK_OK(wa_pass_cse(prog, NULL, &s));
            CHECK_MSG(wa_program_equal(prog, orig), "%s changed", files[i]);
            wa_program_destroy(orig);
        }
        wa_program_destroy(prog);
    }
    CHECK(physical >= 1);
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

/* ---- allocation failures ----------------------------------------------------------------------- */

typedef struct books {
    long live;
    unsigned long attempts, fail_at;
    int failed;
} books;

static void *hook(void *ptr, size_t size, void *user)
{
    books *b = user;
    if (size == 0) {
        if (ptr)
            b->live--;
        free(ptr);
        return NULL;
    }
    b->attempts++;
    if (b->fail_at && b->attempts == b->fail_at) {
        b->failed = 1;
        return NULL;
    }
    void *p = realloc(ptr, size);
    if (p && !ptr)
        b->live++;
    return p;
}

/* The pass's Nth allocation fails, for N = 1, 2, ... until none does: the
   failure comes back as WA_E_NOMEM with a diagnostic and the program is as it
   was; the first run without a failure gives the normal output; nothing leaks.
   The kernel needs eliminations, hoisting and a new preheader label. */
static void allocation_failures(void)
{
    const char *text = ".kernel t\n  .target gfx942\n"
                       "  s_load_dword %s1, s[0:1], 8\n"
                       "  s_waitcnt lgkmcnt(0)\n"
                       "  v_add_u32 %v2, 1, v0\n"
                       "  s_cmp_eq_u32 %s1, 0\n"
                       "  s_cbranch_scc1 head\n"
                       "  v_add_u32 %v3, 1, v0\n"
                       "  global_store_dword v0, %v3, s[0:1]\n"
                       "head:\n"
                       "  v_lshlrev_b32 %v4, 2, %v2\n"
                       "  v_add_u32 %v5, 1, v0\n"
                       "  global_store_dword v0, %v5, s[0:1]\n"
                       "  global_store_dword v0, %v4, s[0:1]\n"
                       "  s_add_u32 %s1, %s1, 1\n"
                       "  s_cmp_lt_u32 %s1, 3\n"
                       "  s_cbranch_scc1 head\n"
                       "  s_endpgm\n"
                       ".end_kernel\n";
    char *want = NULL;
    unsigned failures = 0;
    for (unsigned long n = 0; n < 10000; n++) {
        books b;
        memset(&b, 0, sizeof(b));
        wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
        o.realloc_fn = hook;
        o.alloc_user = &b;
        wa_context *ctx = NULL;
        REQUIRE_OK(wa_context_create(&ctx, &o));
        wa_program *prog = NULL, *orig = NULL;
        REQUIRE_OK(wa_program_parse(&prog, ctx, text, strlen(text), "t.wa"));
        REQUIRE_OK(wa_program_clone(&orig, prog));
        b.fail_at = n ? b.attempts + n : 0;
        wa_pass_stats s;
        wa_status st = wa_pass_cse(prog, NULL, &s);
        b.fail_at = 0;
        int done = !b.failed;
        if (b.failed) {
            failures++;
            CHECK_MSG(st == WA_E_NOMEM, "allocation %lu failed, status %d", n, (int)st);
            CHECK(wa_context_diag_count(ctx) > 0);
            CHECK_MSG(wa_program_equal(prog, orig), "allocation %lu failed: program changed", n);
        } else {
            CHECK_OK(st);
            char *out = print_plain(prog);
            if (n == 0) {
                want = out ? ut_strdup(out) : NULL; /* outlives the context */
                if (want) {
                    CHECK_STR_CONTAINS(want, "head_ph:\n  v_lshlrev_b32 %v4, 2, %v2\nhead:\n");
                    CHECK_EQ_UINT(s.eliminated, 2);
                    CHECK_EQ_UINT(s.hoisted, 1);
                }
            } else if (want && out) {
                CHECK_STR_EQ(out, want);
            }
            wa_free(out);
        }
        wa_program_destroy(prog);
        wa_program_destroy(orig);
        wa_context_destroy(ctx);
        CHECK_MSG(b.live == 0, "allocation %lu: %ld blocks leaked", n, b.live);
        if (done && n > 0)
            break;
    }
    printf("     allocation failures: %u injected, each reported and harmless\n", failures);
    CHECK(failures > 10);
    free(want);
}

/* ---- the rules on small kernels ----------------------------------------------------------------- */

static void dominating_and_sibling_blocks(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    char *t = cse_body(ctx,
                       "  s_load_dword %s1, s[0:1], 8\n"
                       "  s_waitcnt lgkmcnt(0)\n"
                       "  v_xor_b32 %v2, %s1, v0\n"
                       "  s_cmp_eq_u32 %s1, 0\n"
                       "  s_cbranch_scc1 else\n"
                       "  v_xor_b32 %v3, %s1, v0\n"      /* dominated: removed */
                       "  v_and_b32 %v4, 15, %v3\n"
                       "  global_store_dword v0, %v4, s[0:1]\n"
                       "  s_branch join\n"
                       "else:\n"
                       "  v_and_b32 %v5, 15, %v2\n"      /* sibling of %v4: kept */
                       "  global_store_dword v0, %v5, s[0:1]\n"
                       "join:\n"
                       "  v_xor_b32_e64 %v6, v0, %s1\n"      /* commuted: removed */
                       "  global_store_dword v0, %v6, s[0:1]\n"
                       "  s_endpgm\n",
                       0, NULL);
    CHECK_BODY(t, "  s_load_dword %s1, s[0:1], 8\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  v_xor_b32 %v2, %s1, v0\n"
                  "  s_cmp_eq_u32 %s1, 0\n"
                  "  s_cbranch_scc1 else\n"
                  "  v_and_b32 %v4, 15, %v2\n"
                  "  global_store_dword v0, %v4, s[0:1]\n"
                  "  s_branch join\n"
                  "else:\n"
                  "  v_and_b32 %v5, 15, %v2\n"
                  "  global_store_dword v0, %v5, s[0:1]\n"
                  "join:\n"
                  "  global_store_dword v0, %v2, s[0:1]\n"
                  "  s_endpgm\n");
    wa_free(t);
    wa_context_destroy(ctx);
}

/* Commutative rows match with their sources swapped only when no per-source
   modifier tells the sources apart (SDWA selects, op_sel, neg_lo, ...: swapping
   them with the sources is not tried); the packed integer rows commute, the packed
   float ones (first NaN source) do not. */
static void commuted_with_modifiers(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    char *t = cse_body(ctx,
                       "  v_add_u32 %v1, 7, v0\n"
                       "  v_add_u32_sdwa %v2, v0, %v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_1\n"
                       "  v_add_u32_sdwa %v3, %v1, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_1\n"
                       "  v_add_u32_sdwa %v4, %v1, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_1\n"
                       "  v_add_u32_sdwa %v5, v0, %v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_1\n"
                       "  v_pk_add_u16 %v6, v0, %v1\n"
                       "  v_pk_add_u16 %v7, %v1, v0\n"                      /* commuted: removed */
                       "  v_pk_add_u16 %v8, v0, %v1 op_sel:[1,0]\n"
                       "  v_pk_add_u16 %v9, %v1, v0 op_sel:[1,0]\n"
                       "  v_pk_add_u16 %v10, %v1, v0 op_sel:[0,1]\n"        /* = %v8, not seen */
                       "  v_pk_add_f16 %v11, v0, %v1\n"
                       "  v_pk_add_f16 %v12, %v1, v0\n"
                       "  v_pk_max_i16 %v13, v0, %v1 clamp\n"
                       "  v_pk_max_i16 %v14, %v1, v0 clamp\n"               /* removed */
                       "  v_or3_b32 %v15, %v2, %v3, %v4\n"
                       "  v_or3_b32 %v16, %v5, %v6, %v7\n"
                       "  v_or3_b32 %v17, %v8, %v9, %v10\n"
                       "  v_or3_b32 %v18, %v11, %v12, %v13\n"
                       "  v_or3_b32 %v19, %v14, %v15, %v16\n"
                       "  v_or3_b32 %v20, %v17, %v18, %v19\n"
                       "  global_store_dword v0, %v20, s[0:1]\n"
                       "  s_endpgm\n",
                       0, NULL);
    CHECK_BODY(t, "  v_add_u32 %v1, 7, v0\n"
                  "  v_add_u32_sdwa %v2, v0, %v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_1\n"
                  "  v_add_u32_sdwa %v3, %v1, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:WORD_1\n"
                  "  v_add_u32_sdwa %v4, %v1, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_1\n"
                  "  v_pk_add_u16 %v6, v0, %v1\n"
                  "  v_pk_add_u16 %v8, v0, %v1 op_sel:[1,0]\n"
                  "  v_pk_add_u16 %v9, %v1, v0 op_sel:[1,0]\n"
                  "  v_pk_add_u16 %v10, %v1, v0 op_sel:[0,1]\n"
                  "  v_pk_add_f16 %v11, v0, %v1\n"
                  "  v_pk_add_f16 %v12, %v1, v0\n"
                  "  v_pk_max_i16 %v13, v0, %v1 clamp\n"
                  "  v_or3_b32 %v15, %v2, %v3, %v4\n"
                  "  v_or3_b32 %v16, %v4, %v6, %v6\n"
                  "  v_or3_b32 %v17, %v8, %v9, %v10\n"
                  "  v_or3_b32 %v18, %v11, %v12, %v13\n"
                  "  v_or3_b32 %v19, %v13, %v15, %v16\n"
                  "  v_or3_b32 %v20, %v17, %v18, %v19\n"
                  "  global_store_dword v0, %v20, s[0:1]\n"
                  "  s_endpgm\n");
    wa_free(t);
    wa_context_destroy(ctx);
}

/* Facts from the table: instructions with side effects (s_getreg, s_getpc) or a
   counter (s_memtime) are never values; pure SALU rows are, and commutative ones
   (WA_IF_COMMUTATIVE) match with their sources swapped. */
static void table_flags_decide(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    char *t = cse_body(ctx,
                       "  s_getreg_b32 %s1, hwreg(HW_REG_MODE)\n"
                       "  s_getreg_b32 %s2, hwreg(HW_REG_MODE)\n"
                       "  s_memtime %s3<2,align=2>\n"
                       "  s_memtime %s4<2,align=2>\n"
                       "  s_getpc_b64 %s5<2,align=2>\n"
                       "  s_getpc_b64 %s6<2,align=2>\n"
                       "  s_bitreplicate_b64_b32 %s7<2,align=2>, %s1\n"
                       "  s_bitreplicate_b64_b32 %s8<2,align=2>, %s1\n"
                       "  s_mul_hi_u32 %s9, %s1, %s2\n"
                       "  s_mul_hi_u32 %s10, %s2, %s1\n"
                       "  s_waitcnt lgkmcnt(0)\n"
                       "  s_store_dwordx2 %s3, s[0:1], 0\n"
                       "  s_store_dwordx2 %s4, s[0:1], 8\n"
                       "  s_store_dwordx2 %s5, s[0:1], 16\n"
                       "  s_store_dwordx2 %s6, s[0:1], 24\n"
                       "  s_store_dwordx2 %s7, s[0:1], 32\n"
                       "  s_store_dwordx2 %s8, s[0:1], 40\n"
                       "  s_store_dword %s9, s[0:1], 48\n"
                       "  s_store_dword %s10, s[0:1], 52\n"
                       "  s_endpgm\n",
                       0, NULL);
    CHECK_BODY(t, "  s_getreg_b32 %s1, hwreg(HW_REG_MODE)\n"
                  "  s_getreg_b32 %s2, hwreg(HW_REG_MODE)\n"
                  "  s_memtime %s3<2,align=2>\n"
                  "  s_memtime %s4<2,align=2>\n"
                  "  s_getpc_b64 %s5<2,align=2>\n"
                  "  s_getpc_b64 %s6<2,align=2>\n"
                  "  s_bitreplicate_b64_b32 %s7<2,align=2>, %s1\n"
                  "  s_mul_hi_u32 %s9, %s1, %s2\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_store_dwordx2 %s3, s[0:1], 0\n"
                  "  s_store_dwordx2 %s4, s[0:1], 8\n"
                  "  s_store_dwordx2 %s5, s[0:1], 16\n"
                  "  s_store_dwordx2 %s6, s[0:1], 24\n"
                  "  s_store_dwordx2 %s7, s[0:1], 32\n"
                  "  s_store_dwordx2 %s7, s[0:1], 40\n"
                  "  s_store_dword %s9, s[0:1], 48\n"
                  "  s_store_dword %s9, s[0:1], 52\n"
                  "  s_endpgm\n");
    wa_free(t);
    wa_context_destroy(ctx);
}

static void redefined_registers_are_not_values(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* %v1 is written twice, %v3 by components, %v5 is read before its definition
       in the loop, %v8 is written under a narrowed EXEC (its other lanes keep
       the earlier value of no one: still not a whole write): none is a value */
    const char *body = "  v_mov_b32 %v1, 1\n"
                       "  v_add_u32 %v2, %v1, v0\n"
                       "  v_mov_b32 %v1, 2\n"
                       "  v_add_u32 %v12, %v1, v0\n"
                       "  v_mov_b32 %v3<2,align=2>[0], 5\n"
                       "  v_mov_b32 %v3[1], 6\n"
                       "  v_add_u32 %v4, %v3[1], v0\n"
                       "  v_add_u32 %v13, %v3[1], v0\n"
                       "  s_mov_b32 %s9, 0\n"
                       "loop:\n"
                       "  v_add_u32_e64 %v6, %v5, 1\n"
                       "  v_add_u32 %v5, 3, v0\n"
                       "  s_add_u32 %s9, %s9, 1\n"
                       "  s_cmp_lt_u32 %s9, 3\n"
                       "  s_cbranch_scc1 loop\n"
                       "  v_cmp_gt_u32_e64 %s10<2,align=2>, 16, v0\n"
                       "  s_and_saveexec_b64 %s11<2,align=2>, %s10\n"
                       "  v_add_u32 %v8, 3, v0\n"
                       "  s_or_b64 exec, exec, %s11\n"
                       "  v_add_u32 %v14, 3, v0\n"
                       "  global_store_dword v0, %v2, s[0:1]\n"
                       "  global_store_dword v0, %v12, s[0:1]\n"
                       "  global_store_dword v0, %v4, s[0:1]\n"
                       "  global_store_dword v0, %v13, s[0:1]\n"
                       "  global_store_dword v0, %v6, s[0:1]\n"
                       "  global_store_dword v0, %v8, s[0:1]\n"
                       "  global_store_dword v0, %v14, s[0:1]\n"
                       "  s_endpgm\n";
    wa_pass_stats s;
    char *t = cse_body(ctx, body, 0, &s);
    CHECK_EQ_UINT(s.eliminated, 0);
    /* %v6 reads %v5 from the previous iteration: not invariant, not hoisted;
       %v5 itself is invariant, but its reader before it needs the old value */
    CHECK_EQ_UINT(s.hoisted, 0);
    wa_free(t);
    wa_context_destroy(ctx);
}

static void masked_vgpr_writes(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* two equal VALU instructions in one narrowed region, same epoch: their
       VGPRs are written lane by lane, so neither is a value; the SGPR results
       of the compares are whole and the second goes */
    wa_pass_stats s;
    char *t = cse_body(ctx,
                       "  v_cmp_gt_u32_e64 %s1<2,align=2>, 16, v0\n"
                       "  s_and_saveexec_b64 %s2<2,align=2>, %s1\n"
                       "  v_add_u32 %v3, 5, v0\n"
                       "  v_add_u32 %v4, 5, v0\n"
                       "  v_cmp_gt_u32_e64 %s5<2,align=2>, 8, v0\n"
                       "  v_cmp_gt_u32_e64 %s6<2,align=2>, 8, v0\n"
                       "  v_cndmask_b32_e64 %v7, %v3, %v4, %s6\n"
                       "  global_store_dword v0, %v7, s[0:1]\n"
                       "  s_or_b64 exec, exec, %s2\n"
                       "  s_endpgm\n",
                       0, &s);
    CHECK_EQ_UINT(s.eliminated, 1);
    if (t) {
        CHECK_STR_CONTAINS(t, "  v_add_u32 %v3, 5, v0\n  v_add_u32 %v4, 5, v0\n");
        CHECK_STR_CONTAINS(t, "v_cndmask_b32_e64 %v7, %v3, %v4, %s5\n");
    }
    wa_free(t);
    wa_context_destroy(ctx);
}

static void degenerate_programs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    const char *bodies[] = {
        "",
        "l0:\nl1:\n",
        "  s_endpgm\n",
        /* virtual registers only in unreachable code, a loop of one block */
        "  s_branch end\n  v_add_u32 %v1, 1, v0\n  v_add_u32 %v2, 1, v0\nend:\n  s_endpgm\n",
        "self:\n  s_mov_b32 %s1, 1\n  s_cbranch_scc1 self\n  s_endpgm\n",
    };
    for (unsigned k = 0; k < sizeof(bodies) / sizeof(bodies[0]); k++) {
        wa_program *prog = NULL;
        if (!CHECK_OK(ut_parse_body(&prog, ctx, "gfx942", bodies[k])))
            continue;
        wa_program *orig = NULL;
        REQUIRE_OK(wa_program_clone(&orig, prog));
        wa_pass_stats s;
        CHECK_OK(wa_pass_cse(prog, NULL, &s));
        CHECK_EQ_UINT(s.eliminated, 0);
        CHECK_EQ_UINT(s.instrs_after, s.instrs_before);
        /* the last one: s_mov_b32 of a constant leaves its one-block loop for a
           new block before it */
        if (k + 1 < sizeof(bodies) / sizeof(bodies[0])) {
            CHECK_MSG(wa_program_equal(prog, orig), "body %u changed", k);
        } else {
            CHECK_EQ_UINT(s.hoisted, 1);
            char *t = print_plain(prog);
            if (t)
                CHECK_STR_CONTAINS(t, "  s_mov_b32 %s1, 1\nself:\n  s_cbranch_scc1 self\n");
            wa_free(t);
        }
        wa_program_destroy(orig);
        wa_program_destroy(prog);
    }
    wa_context_destroy(ctx);
}

static void alignment_and_components(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* the later register was declared with a larger alignment: the earlier one
       takes it; component reads of the removed register read the earlier one */
    char *t = cse_body(ctx,
                       "  s_mov_b64 %s1<2,align=2>, 12\n"
                       "  s_mov_b64 %s2<2,align=4>, 12\n"
                       "  v_mov_b32 %v3, %s2[1]\n"
                       "  global_store_dword v0, %v3, s[0:1]\n"
                       "  global_store_dword v0, %v3, %s1\n"
                       "  s_endpgm\n",
                       0, NULL);
    CHECK_BODY(t, "  s_mov_b64 %s1<2,align=4>, 12\n"
                  "  v_mov_b32 %v3, %s1[1]\n"
                  "  global_store_dword v0, %v3, s[0:1]\n"
                  "  global_store_dword v0, %v3, %s1\n"
                  "  s_endpgm\n");
    wa_free(t);
    wa_context_destroy(ctx);
}

static void exec_epochs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* the compare results differ in the lanes EXEC switches off: the second is
       not the first; SALU results do not depend on EXEC */
    wa_pass_stats s;
    char *t = cse_body(ctx,
                       "  v_cmp_gt_u32_e64 %s1<2,align=2>, 40, v0\n"
                       "  s_mul_i32 %s5, s2, 12\n"
                       "  v_cmp_gt_u32_e64 %s2<2,align=2>, 16, v0\n"
                       "  s_and_saveexec_b64 %s3<2,align=2>, %s2\n"
                       "  v_cmp_gt_u32_e64 %s4<2,align=2>, 40, v0\n"
                       "  s_mul_i32 %s6, s2, 12\n"
                       "  v_cndmask_b32_e64 %v7, 0, 1, %s4\n"
                       "  s_or_b64 exec, exec, %s3\n"
                       "  v_cmp_gt_u32_e64 %s12<2,align=2>, 40, v0\n"  /* entry mask again: = %s1 */
                       "  v_cndmask_b32_e64 %v8, 0, 1, %s12\n"
                       "  s_mov_b64 exec, -1\n"
                       "  v_cmp_gt_u32_e64 %s13<2,align=2>, 40, v0\n"  /* all lanes: kept */
                       "  v_cndmask_b32_e64 %v10, 0, 1, %s13\n"
                       "  global_store_dword v0, %v10, s[0:1]\n"
                       "  v_mov_b32 %v9, %s6\n"
                       "  global_store_dword v0, %v7, s[0:1]\n"
                       "  global_store_dword v0, %v8, s[0:1]\n"
                       "  global_store_dword v0, %v9, s[0:1]\n"
                       "  s_endpgm\n",
                       0, &s);
    CHECK_EQ_UINT(s.eliminated, 2);
    if (t) {
        CHECK_STR_CONTAINS(t, "v_cmp_gt_u32_e64 %s4<2,align=2>, 40, v0\n");
        CHECK_STR_CONTAINS(t, "v_cndmask_b32_e64 %v8, 0, 1, %s1\n");
        CHECK_STR_CONTAINS(t, "v_cmp_gt_u32_e64 %s13<2,align=2>, 40, v0\n");
        CHECK_STR_CONTAINS(t, "v_mov_b32 %v9, %s5\n");
    }
    wa_free(t);
    wa_context_destroy(ctx);
}

static void exec_writing_loop(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* EXEC narrows in every iteration: the compare of invariant operands stays
       in the loop, the SALU multiplication leaves it */
    const char *body = "  s_mov_b64 %s1<2,align=2>, exec\n"
                       "  s_mov_b32 %s2, 0\n"
                       "  v_mov_b32 %v3, 64\n"
                       "loop:\n"
                       "  v_cmp_gt_u32_e64 %s4<2,align=2>, 40, v0\n"
                       "  s_mul_i32 %s5, s2, 12\n"
                       "  v_mov_b32 %v6, %s4[0]\n"
                       "  v_add_u32_e64 %v6, %v6, %s5\n"
                       "  global_store_dword v0, %v6, s[0:1]\n"
                       "  v_subrev_u32 %v3, 9, %v3\n"
                       "  v_cmp_gt_u32_e64 %s7<2,align=2>, %v3, v0\n"
                       "  s_and_b64 exec, exec, %s7\n"
                       "  s_add_u32 %s2, %s2, 1\n"
                       "  s_cmp_lt_u32 %s2, 3\n"
                       "  s_cbranch_scc1 loop\n"
                       "  s_mov_b64 exec, %s1\n"
                       "  s_endpgm\n";
    wa_pass_stats s;
    char *t = cse_body(ctx, body, 0, &s);
    CHECK_EQ_UINT(s.hoisted, 1);
    CHECK_EQ_UINT(s.eliminated, 0);
    if (t)
        CHECK_STR_CONTAINS(t, "  v_mov_b32 %v3, 64\n  s_mul_i32 %s5, s2, 12\nloop:\n"
                              "  v_cmp_gt_u32_e64 %s4<2,align=2>, 40, v0\n");
    wa_free(t);
    /* WA_CSE_NO_HOIST keeps everything in place */
    t = cse_body(ctx, body, WA_CSE_NO_HOIST, &s);
    CHECK_EQ_UINT(s.hoisted, 0);
    if (t)
        CHECK_STR_CONTAINS(t, "loop:\n  v_cmp_gt_u32_e64 %s4<2,align=2>, 40, v0\n"
                              "  s_mul_i32 %s5, s2, 12\n");
    wa_free(t);
    wa_context_destroy(ctx);
}

/* ---- a generator of kernels rich in repeated and invariant expressions -------------------------

   Built with the public builder API: the output pointer and a by-value
   argument loaded from the kernarg segment, then a random sequence of pure
   expressions over values in scope (VALU, SALU, compares into SGPR pairs,
   v_cndmask on them), repeats of earlier expressions (now and then with the
   sources swapped, equal only for commutative operations), redefinitions of a
   few variables (never values), reads of a pair written by components,
   v_readfirstlane, if/else diamonds, do-while loops with 1..3 iterations (some
   entered by a branch as well, some skipped by one, some narrowing EXEC in every
   iteration), regions under a narrowed EXEC with compares repeated inside, and
   stores of values, variables, scalars and lane masks (through a VGPR, so that
   the bits EXEC leaves out are compared too) to one slot each. Values defined
   in a branch, a region or a loop that may not run leave scope after it. One
   random draw per statement, so every compiler builds the same program. */

#define G_POOL 64
#define G_HIST 96
#define G_SLOTS 112
#define G_SLOT_BYTES 512

typedef struct g_expr {
    wa_opcode op;
    wa_reg_class cls;   /* destination */
    unsigned size;
    unsigned nsrc;
    wa_operand src[3];
} g_expr;

typedef struct cgen {
    wa_program *p;
    rp_rng rng;
    int failed;
    long left;
    unsigned depth, loops;
    int masked;                  /* inside a region under a narrowed EXEC */
    wa_operand v[G_POOL];        /* VGPR values defined on every path here */
    unsigned nv;
    wa_operand s[G_POOL];        /* SGPR values (single registers) */
    unsigned ns;
    wa_operand m[G_POOL];        /* SGPR pair values (lane masks) */
    unsigned nm;
    wa_operand var[3];           /* VGPRs redefined anywhere (always defined) */
    wa_operand svar;             /* an SGPR redefined anywhere */
    wa_operand tuple;            /* a pair written by components */
    g_expr hist[G_HIST];
    unsigned nh;
    wa_operand base, voff, lane;
    unsigned slot;
} cgen;

static void gck(cgen *g, wa_status st)
{
    if (st != WA_OK && !g->failed) {
        g->failed = 1;
        CHECK_MSG(0, "generator: %s", wa_context_last_error(wa_program_context(g->p)));
    }
}

static wa_operand g_vreg(cgen *g, wa_reg_class cls, unsigned size)
{
    wa_operand o = wa_opnd_none();
    gck(g, wa_program_vreg(&o, g->p, cls, size, 0));
    return o;
}

static wa_operand g_inline(cgen *g)
{
    return wa_opnd_imm((int64_t)rp_below(&g->rng, 81) - 16);
}

/* Recent values half of the time (they are the ones defined in loops). */
static wa_operand pick(cgen *g, const wa_operand *pool, unsigned n)
{
    if (n > 6 && rp_chance(&g->rng, 50))
        return pool[n - 1 - rp_below(&g->rng, 6)];
    return pool[rp_below(&g->rng, n)];
}

/* A VGPR source: a value, now and then a redefined variable or the lane id. */
static wa_operand g_vsrc(cgen *g)
{
    unsigned r = rp_below(&g->rng, 100);
    if (r < 7)
        return g->var[rp_below(&g->rng, 3)];
    if (r < 12)
        return g->lane;
    if (r < 15 && !g->masked)
        return wa_opnd_sub(g->tuple, 1, 1);
    return pick(g, g->v, g->nv);
}

static wa_operand g_ssrc(cgen *g)
{
    unsigned r = rp_below(&g->rng, 100);
    if (r < 10)
        return g->svar;
    if (r < 20)
        return wa_opnd_phys(WA_REG_SGPR, 2, 1); /* workgroup id: never written */
    return pick(g, g->s, g->ns);
}

static void push(wa_operand *pool, unsigned *n, wa_operand o)
{
    if (*n < G_POOL) /* a full pool drops the value (scopes truncate it) */
        pool[(*n)++] = o;
}

static void remember(cgen *g, const g_expr *e)
{
    if (g->nh < G_HIST)
        g->hist[g->nh++] = *e;
    else
        g->hist[rp_below(&g->rng, G_HIST)] = *e;
}

static int in_pool(const wa_operand *pool, unsigned n, const wa_operand *o)
{
    for (unsigned k = 0; k < n; k++)
        if (pool[k].kind == o->kind && pool[k].id == o->id && pool[k].first == o->first &&
            pool[k].count == o->count)
            return 1;
    return 0;
}

/* A source still readable here: a value in scope, a variable, a constant. */
static int available(const cgen *g, const wa_operand *o)
{
    if (o->kind != WA_OPND_VIRT)
        return 1;
    if (o->id == g->svar.id || o->id == g->tuple.id)
        return o->id != g->tuple.id || !g->masked;
    for (unsigned k = 0; k < 3; k++)
        if (o->id == g->var[k].id)
            return 1;
    return in_pool(g->v, g->nv, o) || in_pool(g->s, g->ns, o) || in_pool(g->m, g->nm, o);
}

static void store_mask(cgen *g, wa_operand m);

/* Emits `e` into a new register and makes it a value of its kind. */
static void emit_expr(cgen *g, const g_expr *e)
{
    wa_operand d = g_vreg(g, e->cls, e->size);
    const wa_isa_info *info = wa_isa_get(e->op);
    wa_operand ops[4];
    ops[0] = d;
    for (unsigned k = 0; k < e->nsrc; k++)
        ops[k + 1] = e->src[k];
    gck(g, wa_build(NULL, g->p, e->op, ops, e->nsrc + 1, NULL));
    g->left--;
    if (e->cls == WA_REG_VGPR) {
        if (!g->masked || rp_chance(&g->rng, 50)) /* masked writes: local use only */
            push(g->v, &g->nv, d);
    } else if (e->size == 2) {
        push(g->m, &g->nm, d);
        if (rp_chance(&g->rng, 40))
            store_mask(g, d);
    } else {
        push(g->s, &g->ns, d);
    }
    (void)info;
}

/* A new random pure expression. */
static void new_expr(cgen *g)
{
    static const wa_opcode vop2[] = { WA_OP_V_ADD_U32, WA_OP_V_SUB_U32, WA_OP_V_XOR_B32,
                                      WA_OP_V_AND_B32, WA_OP_V_OR_B32, WA_OP_V_MAX_U32,
                                      WA_OP_V_LSHLREV_B32, WA_OP_V_MUL_LO_U32 };
    static const wa_opcode vop3[] = { WA_OP_V_LSHL_ADD_U32, WA_OP_V_ADD3_U32, WA_OP_V_BFE_U32,
                                      WA_OP_V_OR3_B32 };
    static const wa_opcode sop[] = { WA_OP_S_MUL_I32, WA_OP_S_ADD_U32, WA_OP_S_LSHL_B32,
                                     WA_OP_S_AND_B32, WA_OP_S_MUL_HI_U32 };
    static const wa_opcode cmp[] = { WA_OP_V_CMP_GT_U32, WA_OP_V_CMP_EQ_U32, WA_OP_V_CMP_LT_I32 };
    g_expr e;
    memset(&e, 0, sizeof(e));
    unsigned r = rp_below(&g->rng, 100);
    if (r < 40) {
        e.op = vop2[rp_below(&g->rng, sizeof(vop2) / sizeof(vop2[0]))];
        e.cls = WA_REG_VGPR;
        e.size = 1;
        e.nsrc = 2;
        unsigned k = rp_below(&g->rng, 10);
        /* at most one SGPR (constant bus), constants first */
        e.src[0] = k < 3 ? g_inline(g) : k < 5 ? g_ssrc(g) : g_vsrc(g);
        e.src[1] = g_vsrc(g);
        if (e.op == WA_OP_V_MUL_LO_U32 && e.src[0].kind == WA_OPND_IMM && rp_chance(&g->rng, 50))
            e.src[0] = g_vsrc(g);
    } else if (r < 55) {
        e.op = vop3[rp_below(&g->rng, sizeof(vop3) / sizeof(vop3[0]))];
        e.cls = WA_REG_VGPR;
        e.size = 1;
        e.nsrc = 3;
        e.src[0] = g_vsrc(g);
        e.src[1] = rp_chance(&g->rng, 50) ? wa_opnd_imm((int64_t)rp_below(&g->rng, 8)) : g_vsrc(g);
        e.src[2] = rp_chance(&g->rng, 30) ? g_ssrc(g) : g_vsrc(g);
    } else if (r < 63) {
        e.op = WA_OP_V_MOV_B32;
        e.cls = WA_REG_VGPR;
        e.size = 1;
        e.nsrc = 1;
        e.src[0] = rp_chance(&g->rng, 50) ? wa_opnd_imm((int64_t)rp_below(&g->rng, 5000))
                                          : g_ssrc(g);
    } else if (r < 68) {
        e.op = rp_chance(&g->rng, 50) ? WA_OP_V_MBCNT_LO_U32_B32 : WA_OP_V_NOT_B32;
        e.cls = WA_REG_VGPR;
        e.size = 1;
        e.nsrc = e.op == WA_OP_V_NOT_B32 ? 1 : 2;
        e.src[0] = e.op == WA_OP_V_NOT_B32 ? g_vsrc(g) : wa_opnd_imm(-1);
        e.src[1] = wa_opnd_imm(0);
    } else if (r < 85) {
        e.op = sop[rp_below(&g->rng, sizeof(sop) / sizeof(sop[0]))];
        e.cls = WA_REG_SGPR;
        e.size = 1;
        e.nsrc = 2;
        e.src[0] = g_ssrc(g);
        e.src[1] = rp_chance(&g->rng, 60) ? g_inline(g) : g_ssrc(g);
        if (e.op == WA_OP_S_LSHL_B32)
            e.src[1] = wa_opnd_imm((int64_t)rp_below(&g->rng, 6));
    } else if (r < 95) {
        e.op = cmp[rp_below(&g->rng, sizeof(cmp) / sizeof(cmp[0]))];
        e.cls = WA_REG_SGPR;
        e.size = 2;
        e.nsrc = 2;
        e.src[0] = rp_chance(&g->rng, 50) ? g_inline(g) : g_ssrc(g);
        e.src[1] = g_vsrc(g);
    } else {
        if (!g->nm)
            return;
        /* v_cndmask reads its mask from an SGPR pair: the sources stay VGPRs or
           constants (constant bus) */
        e.op = WA_OP_V_CNDMASK_B32;
        e.cls = WA_REG_VGPR;
        e.size = 1;
        e.nsrc = 3;
        e.src[0] = rp_chance(&g->rng, 40) ? g_inline(g) : g_vsrc(g);
        e.src[1] = g_vsrc(g);
        e.src[2] = pick(g, g->m, g->nm);
    }
    emit_expr(g, &e);
    remember(g, &e);
}

/* An earlier expression again, if its sources can still be read here. */
static void repeat_expr(cgen *g)
{
    if (!g->nh) {
        new_expr(g);
        return;
    }
    for (unsigned tries = 0; tries < 4; tries++) {
        const g_expr *e = &g->hist[g->nh - 1 - rp_below(&g->rng, g->nh < 24 ? g->nh : 24)];
        if (rp_chance(&g->rng, 30))
            e = &g->hist[rp_below(&g->rng, g->nh)];
        int ok = 1;
        for (unsigned k = 0; k < e->nsrc && ok; k++)
            ok = available(g, &e->src[k]);
        if (ok) {
            g_expr copy = *e;
            /* swapped sources: equal for commutative operations only (a literal
               stays first, where VOP2 allows it) */
            int literal = copy.src[0].kind == WA_OPND_IMM &&
                          (copy.src[0].imm.i < -16 || copy.src[0].imm.i > 64);
            if (copy.nsrc >= 2 && copy.op != WA_OP_V_CNDMASK_B32 && !literal &&
                rp_chance(&g->rng, 35)) {
                wa_operand x = copy.src[0];
                copy.src[0] = copy.src[1];
                copy.src[1] = x;
            }
            emit_expr(g, &copy);
            return;
        }
    }
    new_expr(g);
}

/* An earlier compare again (its lane mask depends on EXEC), stored. */
static void repeat_compare(cgen *g)
{
    for (unsigned k = g->nh; k-- > 0;) {
        const g_expr *e = &g->hist[k];
        if (e->cls != WA_REG_SGPR || e->size != 2 || !available(g, &e->src[0]) ||
            !available(g, &e->src[1]))
            continue;
        g_expr copy = *e;
        emit_expr(g, &copy);
        store_mask(g, g->m[g->nm - 1]);
        return;
    }
}

static void store_value(cgen *g, wa_operand data)
{
    wa_operand addr = g_vreg(g, WA_REG_VGPR, 1);
    unsigned slot = g->slot++ % G_SLOTS;
    gck(g, wa_build_valu(NULL, g->p, WA_OP_V_ADD_U32, addr,
                         wa_opnd_imm((int64_t)slot * G_SLOT_BYTES), g->voff, wa_opnd_none()));
    gck(g, wa_build_global(NULL, g->p, WA_OP_GLOBAL_STORE_DWORD, data, addr, g->base, NULL));
    g->left -= 2;
}

static void store_mask(cgen *g, wa_operand m)
{
    wa_operand v = g_vreg(g, WA_REG_VGPR, 1);
    gck(g, wa_build_valu(NULL, g->p, WA_OP_V_MOV_B32, v, wa_opnd_sub(m, rp_below(&g->rng, 2), 1),
                         wa_opnd_none(), wa_opnd_none()));
    g->left--;
    store_value(g, v);
}

static void store_something(cgen *g)
{
    unsigned r = rp_below(&g->rng, 100);
    if (r < 45) {
        store_value(g, g_vsrc(g));
        return;
    }
    /* scalars and lane masks through a VGPR, so that every bit is compared
       (the lanes EXEC leaves out of a compare's mask too) */
    wa_operand v = g_vreg(g, WA_REG_VGPR, 1), src;
    if (r < 60 || !g->nm) {
        src = g_ssrc(g);
    } else {
        wa_operand m = pick(g, g->m, g->nm);
        src = wa_opnd_sub(m, rp_below(&g->rng, 2), 1);
    }
    gck(g, wa_build_valu(NULL, g->p, WA_OP_V_MOV_B32, v, src, wa_opnd_none(), wa_opnd_none()));
    g->left--;
    store_value(g, v);
}

static void redefine_variable(cgen *g)
{
    unsigned r = rp_below(&g->rng, 100);
    if (r < 70) {
        /* one random draw per statement: the same program whatever order a
           compiler evaluates arguments in */
        wa_operand x = g->var[rp_below(&g->rng, 3)];
        wa_opcode op = rp_chance(&g->rng, 50) ? WA_OP_V_ADD_U32 : WA_OP_V_XOR_B32;
        wa_operand k = g_inline(g);
        wa_operand y = rp_chance(&g->rng, 50) ? x : g_vsrc(g);
        gck(g, wa_build_valu(NULL, g->p, op, x, k, y, wa_opnd_none()));
    } else {
        gck(g, wa_build_salu(NULL, g->p, WA_OP_S_ADD_U32, g->svar, g->svar, g_inline(g)));
    }
    g->left--;
}

static void g_seq(cgen *g, long steps);

static wa_label g_label(cgen *g)
{
    wa_label l = 0;
    gck(g, wa_program_label_create(&l, g->p, NULL));
    return l;
}

static void g_if(cgen *g, long steps)
{
    unsigned nv = g->nv, ns = g->ns, nm = g->nm;
    wa_label other = g_label(g), join = g_label(g);
    int with_else = rp_chance(&g->rng, 70);
    wa_operand a = g_ssrc(g), k = g_inline(g);
    gck(g, wa_build_salu(NULL, g->p, WA_OP_S_CMP_GT_U32, wa_opnd_none(), a, k));
    gck(g, wa_build_branch(NULL, g->p, WA_OP_S_CBRANCH_SCC1, with_else ? other : join));
    g->left -= 2;
    g->depth++;
    g_seq(g, steps);
    g->nv = nv, g->ns = ns, g->nm = nm;
    if (with_else) {
        gck(g, wa_build_branch(NULL, g->p, WA_OP_S_BRANCH, join));
        gck(g, wa_build_label(g->p, other));
        g_seq(g, steps);
        g->nv = nv, g->ns = ns, g->nm = nm;
    }
    g->depth--;
    gck(g, wa_build_label(g->p, join));
}

/* do { body } while (++counter < trips): sometimes skipped as a whole by a
   branch around it (the header then has no block of its own before it), and
   sometimes narrowing EXEC in every iteration (restored after the loop). */
static void g_loop(cgen *g, long steps)
{
    wa_operand cnt = g_vreg(g, WA_REG_SGPR, 1), save = wa_opnd_none(), thr = wa_opnd_none();
    int guarded = rp_chance(&g->rng, 30), narrowing = !g->masked && rp_chance(&g->rng, 20);
    wa_label head = g_label(g), after = guarded ? g_label(g) : 0;
    if (narrowing) {
        save = g_vreg(g, WA_REG_SGPR, 2);
        thr = g_vreg(g, WA_REG_VGPR, 1);
        gck(g, wa_build_salu(NULL, g->p, WA_OP_S_MOV_B64, save, wa_opnd_special(WA_SPECIAL_EXEC),
                             wa_opnd_none()));
        gck(g, wa_build_valu(NULL, g->p, WA_OP_V_MOV_B32, thr, wa_opnd_imm(64), wa_opnd_none(),
                             wa_opnd_none()));
    }
    gck(g, wa_build_salu(NULL, g->p, WA_OP_S_MOV_B32, cnt, wa_opnd_imm(0), wa_opnd_none()));
    if (guarded) {
        wa_operand a = g_ssrc(g), k = g_inline(g);
        gck(g, wa_build_salu(NULL, g->p, WA_OP_S_CMP_EQ_U32, wa_opnd_none(), a, k));
        gck(g, wa_build_branch(NULL, g->p, WA_OP_S_CBRANCH_SCC1, after));
    } else if (rp_chance(&g->rng, 25)) {
        /* entered by a branch as well as by falling through */
        unsigned nv0 = g->nv, ns0 = g->ns, nm0 = g->nm;
        wa_operand a = g_ssrc(g), k = g_inline(g);
        gck(g, wa_build_salu(NULL, g->p, WA_OP_S_CMP_LT_U32, wa_opnd_none(), a, k));
        gck(g, wa_build_branch(NULL, g->p, WA_OP_S_CBRANCH_SCC1, head));
        g->depth++;
        g_seq(g, 2);
        g->depth--;
        g->nv = nv0, g->ns = ns0, g->nm = nm0;
    }
    gck(g, wa_build_label(g->p, head));
    g->left -= 4;
    unsigned nv = g->nv, ns = g->ns, nm = g->nm;
    int masked = g->masked;
    g->depth++;
    g->loops++;
    if (narrowing)
        g->masked = 1; /* from the second iteration on */
    g_seq(g, steps);
    if (narrowing) {
        wa_operand m = g_vreg(g, WA_REG_SGPR, 2);
        gck(g, wa_build_valu(NULL, g->p, WA_OP_V_SUBREV_U32, thr,
                             wa_opnd_imm(1 + (int64_t)rp_below(&g->rng, 20)), thr, wa_opnd_none()));
        gck(g, wa_build_valu(NULL, g->p, WA_OP_V_CMP_GT_U32, m, thr, g->lane, wa_opnd_none()));
        gck(g, wa_build_salu(NULL, g->p, WA_OP_S_AND_B64, wa_opnd_special(WA_SPECIAL_EXEC),
                             wa_opnd_special(WA_SPECIAL_EXEC), m));
        g->masked = 1;
        g_seq(g, 2);
        g->left -= 3;
    }
    g->masked = masked;
    g->loops--;
    g->depth--;
    gck(g, wa_build_salu(NULL, g->p, WA_OP_S_ADD_U32, cnt, cnt, wa_opnd_imm(1)));
    gck(g, wa_build_salu(NULL, g->p, WA_OP_S_CMP_LT_U32, wa_opnd_none(), cnt,
                         wa_opnd_imm(1 + (int64_t)rp_below(&g->rng, 3))));
    gck(g, wa_build_branch(NULL, g->p, WA_OP_S_CBRANCH_SCC1, head));
    g->left -= 3;
    if (narrowing) {
        gck(g, wa_build_salu(NULL, g->p, WA_OP_S_MOV_B64, wa_opnd_special(WA_SPECIAL_EXEC), save,
                             wa_opnd_none()));
        g->nv = nv, g->ns = ns, g->nm = nm; /* written under a narrowed EXEC */
    }
    if (guarded) {
        gck(g, wa_build_label(g->p, after));
        g->nv = nv, g->ns = ns, g->nm = nm; /* the loop may not have run */
    }
}

/* Lanes below a constant, then EXEC restored. */
static void g_masked(cgen *g, long steps)
{
    wa_operand m = g_vreg(g, WA_REG_SGPR, 2), save = g_vreg(g, WA_REG_SGPR, 2);
    gck(g, wa_build_valu(NULL, g->p, WA_OP_V_CMP_GT_U32, m,
                         wa_opnd_imm(8 + (int64_t)rp_below(&g->rng, 50)), g->lane, wa_opnd_none()));
    gck(g, wa_build_salu(NULL, g->p, WA_OP_S_AND_SAVEEXEC_B64, save, m, wa_opnd_none()));
    g->left -= 3;
    unsigned nv = g->nv, ns = g->ns, nm = g->nm;
    int masked = g->masked;
    g->masked = 1;
    g->depth++;
    g_seq(g, steps);
    g->depth--;
    g->masked = masked;
    g->nv = nv, g->ns = ns, g->nm = nm;
    gck(g, wa_build_salu(NULL, g->p, WA_OP_S_OR_B64, wa_opnd_special(WA_SPECIAL_EXEC),
                         wa_opnd_special(WA_SPECIAL_EXEC), save));
}

static void g_seq(cgen *g, long steps)
{
    while (steps-- > 0 && g->left > 0 && !g->failed) {
        unsigned r = rp_below(&g->rng, 100);
        long sub = 3 + (long)rp_below(&g->rng, 8);
        if (r < 9 && g->depth < 3) {
            g_loop(g, sub);
        } else if (r < 17 && g->depth < 3) {
            g_if(g, sub);
        } else if (r < 20 && g->depth < 3 && !g->masked) {
            g_masked(g, sub);
        } else if (r < 28 && g->masked && g->nm < G_POOL) {
            repeat_compare(g);
        } else if (r < 55) {
            repeat_expr(g);
        } else if (r < 75) {
            new_expr(g);
        } else if (r < 82) {
            redefine_variable(g);
        } else if (r < 85 && !g->masked) {
            /* a cross-lane read (never a candidate) */
            wa_operand d = g_vreg(g, WA_REG_SGPR, 1);
            gck(g, wa_build_valu(NULL, g->p, WA_OP_V_READFIRSTLANE_B32, d, g_vsrc(g),
                                 wa_opnd_none(), wa_opnd_none()));
            push(g->s, &g->ns, d);
            g->left--;
        } else {
            store_something(g);
        }
    }
}

static wa_program *cse_generate(wa_context *ctx, uint64_t seed, unsigned items)
{
    cgen *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    rp_seed(&g->rng, seed);
    g->left = (long)items;
    wa_status st = wa_program_create(&g->p, ctx, "cse_rand");
    if (!CHECK_OK(st)) {
        free(g);
        return NULL;
    }
    /* one full wave, or a full one and a partial one */
    gck(g, wa_program_set_workgroup_size(g->p, seed % 3 == 0 ? 96 : 64, 1, 1));
    gck(g, wa_program_set_abi_inputs(g->p, WA_ABI_BIT(WA_ABI_KERNARG_PTR) |
                                               WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X) |
                                               WA_ABI_BIT(WA_ABI_WORKITEM_ID_X)));
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.name = "out";
    a.kind = WA_ARG_GLOBAL_BUFFER;
    a.offset = 0;
    a.size = 8;
    gck(g, wa_program_add_arg(NULL, g->p, &a));
    a.name = "n";
    a.kind = WA_ARG_BY_VALUE;
    a.offset = 8;
    a.size = 4;
    gck(g, wa_program_add_arg(NULL, g->p, &a));
    wa_operand kernarg = wa_opnd_phys(WA_REG_SGPR, 0, 2);
    g->lane = wa_opnd_phys(WA_REG_VGPR, 0, 1);
    g->base = g_vreg(g, WA_REG_SGPR, 2);
    wa_operand n = g_vreg(g, WA_REG_SGPR, 1);
    gck(g, wa_build_smem(NULL, g->p, WA_OP_S_LOAD_DWORDX2, g->base, kernarg, wa_opnd_imm(0), NULL));
    gck(g, wa_build_smem(NULL, g->p, WA_OP_S_LOAD_DWORD, n, kernarg, wa_opnd_imm(8), NULL));
    gck(g, wa_build_waitcnt(NULL, g->p, -1, 0, -1));
    g->voff = g_vreg(g, WA_REG_VGPR, 1);
    gck(g, wa_build_valu(NULL, g->p, WA_OP_V_LSHLREV_B32, g->voff, wa_opnd_imm(2), g->lane,
                         wa_opnd_none()));
    push(g->s, &g->ns, n);
    push(g->v, &g->nv, g->voff);
    for (unsigned k = 0; k < 3; k++) {
        g->var[k] = g_vreg(g, WA_REG_VGPR, 1);
        gck(g, wa_build_valu(NULL, g->p, WA_OP_V_ADD_U32, g->var[k], wa_opnd_imm((int64_t)k + 1),
                             g->lane, wa_opnd_none()));
    }
    g->svar = g_vreg(g, WA_REG_SGPR, 1);
    gck(g, wa_build_salu(NULL, g->p, WA_OP_S_MOV_B32, g->svar, wa_opnd_imm(5), wa_opnd_none()));
    g->tuple = g_vreg(g, WA_REG_VGPR, 2);
    gck(g, wa_build_valu(NULL, g->p, WA_OP_V_MOV_B32, wa_opnd_sub(g->tuple, 0, 1), wa_opnd_imm(3),
                         wa_opnd_none(), wa_opnd_none()));
    gck(g, wa_build_valu(NULL, g->p, WA_OP_V_ADD_U32, wa_opnd_sub(g->tuple, 1, 1), wa_opnd_imm(9),
                         g->lane, wa_opnd_none()));
    g->left -= 12;
    g_seq(g, 1000000);
    /* everything still in scope goes to memory */
    for (unsigned k = 0; k < g->nv && k < 8; k++)
        store_value(g, g->v[g->nv - 1 - k]);
    for (unsigned k = 0; k < 3; k++)
        store_value(g, g->var[k]);
    gck(g, wa_build_sopp(NULL, g->p, WA_OP_S_ENDPGM, 0));
    wa_program *p = g->p;
    int failed = g->failed;
    free(g);
    if (failed) {
        wa_program_destroy(p);
        return NULL;
    }
    return p;
}

/* ---- differential testing ------------------------------------------------------------------------ */

static wa_status pass_cse_regalloc(wa_program **out, const wa_program *in)
{
    wa_program *mid = NULL;
    wa_status st = sd_pass_cse(&mid, in);
    if (st)
        return st;
    st = sd_pass_regalloc(out, mid);
    wa_program_destroy(mid);
    return st;
}

typedef struct totals {
    unsigned programs, eliminated, hoisted, before, after;
    unsigned budget_bound; /* programs where the pressure budget held invariants back */
    sd_result cse, cse_ra;
} totals;

/* Contexts of the generated programs log to here: the pass says when its
   pressure budget kept invariants in their loops. */
static unsigned budget_lines;

static void count_budget_lines(const char *line, void *user)
{
    (void)user;
    if (strstr(line, "stay in their loops"))
        budget_lines++;
}

static wa_context *logging_context(void)
{
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.target = WA_TARGET_GFX942;
    o.log_fn = count_budget_lines;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &o) != WA_OK || !ctx) {
        fprintf(stderr, "cannot create a context\n");
        exit(1);
    }
    return ctx;
}

/* Runs the pass on a copy of `prog`: the output validates, a second run finds
   nothing to eliminate (and nothing to hoist unless the first run's pressure
   budget held invariants back: the hoists change the pressure it measures),
   and both it and the allocated output store what `prog` stores. */
static void check_program(const wa_program *prog, const sd_config *sc, totals *t, const char *what,
                          int regalloc)
{
    wa_program *once = NULL;
    if (!CHECK_OK(wa_program_clone(&once, prog)))
        return;
    wa_context *ctx = wa_program_context(prog);
    wa_pass_stats s;
    budget_lines = 0;
    if (!CHECK_MSG(wa_pass_cse(once, NULL, &s) == WA_OK, "%s: %s", what, ut_diags_text(ctx))) {
        wa_program_destroy(once);
        return;
    }
    int budget_bound = budget_lines > 0;
    t->budget_bound += (unsigned)budget_bound;
    t->programs++;
    t->eliminated += s.eliminated;
    t->hoisted += s.hoisted;
    t->before += s.instrs_before;
    t->after += s.instrs_after;
    CHECK_EQ_UINT(s.instrs_before - s.instrs_after, s.eliminated);
    unsigned errors = 0;
    CHECK_MSG(wa_program_validate(&errors, once, NULL) == WA_OK, "%s: output invalid: %s", what,
              ut_diags_text(ctx));
    wa_program *twice = NULL;
    if (CHECK_OK(wa_program_clone(&twice, once))) {
        wa_pass_stats s2;
        CHECK_OK(wa_pass_cse(twice, NULL, &s2));
        CHECK_MSG(s2.eliminated == 0 && (s2.hoisted == 0 || budget_bound),
                  "%s: a second run eliminates %u, hoists %u", what, s2.eliminated, s2.hoisted);
        if (s2.hoisted == 0)
            CHECK_MSG(wa_program_equal(twice, once), "%s: a second run changes the program", what);
        wa_program_destroy(twice);
    }
    unsigned f0 = t->cse.failures + t->cse_ra.failures;
    sd_check_pass(prog, sd_pass_cse, "cse", sc, &t->cse);
    if (regalloc)
        sd_check_pass(prog, pass_cse_regalloc, "cse + regalloc", sc, &t->cse_ra);
    if (t->cse.failures + t->cse_ra.failures > f0 && f0 < 2) {
        char *text = ut_print(prog), *out = ut_print(once);
        fprintf(stderr, "---- %s: input ----\n%s\n---- output ----\n%s\n", what, text ? text : "",
                out ? out : "");
        wa_free(text);
        wa_free(out);
    }
    wa_program_destroy(once);
}

static void report(const char *what, const totals *t, unsigned seeds)
{
    printf("     %s: %u programs x %u seeds: %u runs compared (cse), %u (cse + regalloc), "
           "%u inconclusive, %u skipped; %u eliminated, %u hoisted, %u -> %u instructions; "
           "pressure budget bound in %u\n",
           what, t->programs, seeds, t->cse.runs, t->cse_ra.runs, t->cse.inconclusive,
           t->cse.skipped, t->eliminated, t->hoisted, t->before, t->after, t->budget_bound);
    CHECK_MSG(t->cse.failures == 0, "%s, cse: %u failures; first: %s", what, t->cse.failures,
              t->cse.first_failure);
    CHECK_MSG(t->cse_ra.failures == 0, "%s, cse + regalloc: %u failures; first: %s", what,
              t->cse_ra.failures, t->cse_ra.first_failure);
    if (t->cse.skipped)
        printf("     first skipped: %s\n", t->cse.first_skip);
}

/* ---- pressure budget ------------------------------------------------------------------------ */

/* A loop of `n` invariants, each read once right away: 3 VGPRs live as written,
   n + 2 when every invariant is hoisted. */
static wa_program *many_invariants(wa_context *ctx, unsigned n)
{
    size_t cap = 512 + (size_t)n * 64, len = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    len += (size_t)snprintf(text + len, cap - len,
                            ".kernel many\n  .target gfx942\n  .abi kernarg_ptr, workitem_id_x\n"
                            "  .arg out, global_buffer, offset:0, size:8, align:8\n"
                            "  s_mov_b32 %%s4, 0\n  v_mov_b32 %%v6, 0\nloop:\n");
    for (unsigned k = 0; k < n; k++)
        len += (size_t)snprintf(text + len, cap - len,
                                "  v_add_u32 %%v%u, %u, v0\n  v_add_u32 %%v6, %%v6, %%v%u\n",
                                100 + k, k + 1, 100 + k);
    snprintf(text + len, cap - len,
             "  s_add_u32 %%s4, %%s4, 1\n  s_cmp_lt_u32 %%s4, 4\n  s_cbranch_scc1 loop\n"
             "  global_store_dword v0, %%v6, s[0:1]\n  s_endpgm\n.end_kernel\n");
    wa_program *prog = ut_parse(ctx, text);
    free(text);
    return prog;
}

static unsigned vgprs_after_regalloc(wa_program *prog, const wa_regalloc_options *ro)
{
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.regalloc = ro;
    if (!CHECK_OK(wa_run_stage(prog, WA_STAGE_REGALLOC, &po, NULL)))
        return 0;
    wa_kernel_resources kr;
    if (!CHECK_OK(wa_kernel_resources_compute(&kr, prog)))
        return 0;
    return kr.arch_vgprs;
}

/* Hoisting keeps the pressure within the budget: 300 invariants that allocate
   in 3 VGPRs as written would need 302 hoisted (more than there are). */
static void pressure_budget(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* defaults: no more than the occupancy of the kernel's peak allows (8 waves:
       64 VGPRs) */
    wa_program *prog = many_invariants(ctx, 300);
    REQUIRE(prog != NULL);
    wa_pass_stats s;
    REQUIRE_OK(wa_pass_cse(prog, NULL, &s));
    CHECK(s.hoisted > 30 && s.hoisted <= 62);
    unsigned v = vgprs_after_regalloc(prog, NULL);
    CHECK_MSG(v > 30 && v <= 64, "%u VGPRs after hoisting %u", v, s.hoisted);
    wa_program_destroy(prog);

    /* a limit from the options, less its margin (1/16) */
    static const unsigned limits[] = { 24, 48, 96 };
    for (unsigned i = 0; i < 3; i++) {
        prog = many_invariants(ctx, 300);
        REQUIRE(prog != NULL);
        wa_cse_options co = WA_CSE_OPTIONS_INIT;
        co.max_vgprs = limits[i];
        REQUIRE_OK(wa_pass_cse(prog, &co, &s));
        unsigned budget = limits[i] - limits[i] / 16;
        if (budget > 64)
            budget = 64;
        ut_context("limit %u", limits[i]);
        CHECK(s.hoisted > 0 && s.hoisted + 3 <= budget);
        wa_regalloc_options ro = WA_REGALLOC_OPTIONS_INIT;
        ro.max_vgprs = limits[i];
        v = vgprs_after_regalloc(prog, &ro);
        CHECK_MSG(v > 0 && v <= budget, "%u VGPRs after hoisting %u", v, s.hoisted);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");

    /* a smaller loop hoists everything */
    prog = many_invariants(ctx, 20);
    REQUIRE(prog != NULL);
    REQUIRE_OK(wa_pass_cse(prog, NULL, &s));
    CHECK_EQ_UINT(s.hoisted, 20);
    wa_program_destroy(prog);

    /* limits beyond the register files are refused */
    prog = many_invariants(ctx, 2);
    wa_cse_options bad = WA_CSE_OPTIONS_INIT;
    bad.max_vgprs = 300;
    CHECK_STATUS(wa_pass_cse(prog, &bad, NULL), WA_E_INVALID);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "register limits out of range");
    /* a version 1 struct (no limits) is still accepted */
    wa_cse_options v1 = WA_CSE_OPTIONS_INIT;
    v1.version = 1;
    v1.max_vgprs = 999; /* not read: not part of version 1 */
    CHECK_OK(wa_pass_cse(prog, &v1, NULL));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* The default pipeline never makes a kernel that allocates as written fail:
   when the allocation fails after hoisting (here the allocator's limit is far
   below what CSE was told), it compiles the program again without hoisting. */
static void pipeline_falls_back_without_hoisting(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = many_invariants(ctx, 300);
    REQUIRE(prog != NULL);
    wa_cse_options co = WA_CSE_OPTIONS_INIT;
    co.max_vgprs = 256;
    wa_regalloc_options ro = WA_REGALLOC_OPTIONS_INIT;
    ro.max_vgprs = 8;
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.cse = &co;
    po.regalloc = &ro;
    po.flags = WA_PIPELINE_VERIFY;
    wa_pipeline *pl = NULL;
    REQUIRE_OK(wa_pipeline_create(&pl, ctx, &po));
    CHECK_OK(wa_pipeline_run(pl, prog));
    wa_stage_stats ss;
    CHECK_OK(wa_pipeline_stats(&ss, pl, WA_STAGE_CSE));
    CHECK_EQ_UINT(ss.pass.hoisted, 0); /* the run that succeeded */
    CHECK_OK(wa_pipeline_stats(&ss, pl, WA_STAGE_REGALLOC));
    CHECK(ss.peak_vgprs > 0 && ss.peak_vgprs <= 8);
    wa_pipeline_destroy(pl);
    /* without CSE the limit holds too; with hoisting forced and no fallback
       (CSE as its own pass, then the allocator) it does not */
    wa_program_destroy(prog);
    prog = many_invariants(ctx, 300);
    REQUIRE(prog != NULL);
    wa_pass_stats s;
    REQUIRE_OK(wa_pass_cse(prog, &co, &s));
    CHECK(s.hoisted > 8);
    po.flags = 0;
    CHECK_STATUS(wa_run_stage(prog, WA_STAGE_REGALLOC, &po, NULL), WA_E_ALLOC);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void generated_programs(void)
{
    wa_context *ctx = logging_context();
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 2;
    totals t;
    memset(&t, 0, sizeof(t));
    unsigned generated = 0;
    static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    for (uint64_t seed = 1; seed <= 300; seed++) {
        wa_program *prog = cse_generate(ctx, seed, 60 + (unsigned)(seed % 5) * 30);
        if (!CHECK(prog != NULL))
            continue;
        CHECK_OK(wa_program_set_target(prog, targets[seed % 3]));
        generated++;
        unsigned errors = 0;
        CHECK_MSG(wa_program_validate(&errors, prog, NULL) == WA_OK, "seed %llu: invalid: %s",
                  (unsigned long long)seed, ut_diags_text(ctx));
        char what[64];
        snprintf(what, sizeof(what), "generated seed %llu", (unsigned long long)seed);
        check_program(prog, &sc, &t, what, 1);
        wa_program_destroy(prog);
    }
    report("generated programs", &t, sc.seeds);
    CHECK_EQ_UINT(t.programs, generated);
    /* the programs are built to give the pass work, and the harness really runs them */
    CHECK(t.eliminated > 4 * t.programs);
    CHECK(t.hoisted > t.programs);
    CHECK_MSG(t.cse.runs == t.programs * sc.seeds && t.cse.skipped == 0,
              "%u of %u runs compared", t.cse.runs, t.programs * sc.seeds);
    CHECK(t.cse_ra.runs == t.cse.runs);
    wa_context_destroy(ctx);
}

static void random_programs(void)
{
    wa_context *ctx = logging_context();
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1;
    cfg.masked = 1;
    sd_config sc;
    sd_config_default(&sc);
    sc.timing = 0; /* the generator places no waits */
    sc.seeds = 1;
    sc.max_instructions = 50000;
    totals t;
    memset(&t, 0, sizeof(t));
    static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    for (uint64_t seed = 1; seed <= 300; seed++) {
        cfg.items = 40 + (unsigned)(seed % 80);
        wa_program *prog = rp_generate(ctx, targets[seed % 3], seed, &cfg);
        if (!CHECK(prog != NULL))
            continue;
        char what[64];
        snprintf(what, sizeof(what), "randprog seed %llu", (unsigned long long)seed);
        check_program(prog, &sc, &t, what, seed % 2 == 0);
        wa_program_destroy(prog);
    }
    report("random programs (randprog)", &t, sc.seeds);
    CHECK(t.programs == 300);
    CHECK_MSG(t.cse.runs >= t.programs / 3, "only %u runs compared", t.cse.runs);
    wa_context_destroy(ctx);
}

static void examples(void)
{
    wa_context *ctx = logging_context();
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 4;
    sc.timing = 1; /* the examples carry their waits */
    totals t;
    memset(&t, 0, sizeof(t));
    for (unsigned i = 0; i < n; i++) {
        wa_program *prog = NULL;
        if (!CHECK_OK(wa_program_parse_file(&prog, ctx, files[i])))
            continue;
        unsigned e0 = t.eliminated, h0 = t.hoisted;
        check_program(prog, &sc, &t, files[i], 1);
        const char *base = strrchr(files[i], '/');
        printf("     %s: %u eliminated, %u hoisted\n", base ? base + 1 : files[i],
               t.eliminated - e0, t.hoisted - h0);
        wa_program_destroy(prog);
    }
    report("examples", &t, sc.seeds);
    CHECK_EQ_UINT(t.programs, n);
    CHECK_EQ_UINT(t.cse.skipped, 0);
    CHECK_EQ_UINT(t.cse.runs, n * sc.seeds);
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

#ifdef WAVEASM_HAVE_GEMM_GEN
static void bench_kernels(void)
{
    wa_context *ctx = logging_context();
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 2;
    totals t;
    memset(&t, 0, sizeof(t));
    for (int shape = 0; shape < GEMM_GEN_SHAPE_COUNT; shape++) {
        for (unsigned size = 1000; size <= 3000; size += 2000) {
            gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
            g.shape = (gemm_gen_shape)shape;
            g.instructions = size;
            wa_program *prog = NULL;
            if (!CHECK_OK(gemm_gen_build(&prog, NULL, ctx, &g)))
                continue;
            /* One wave: with four, a wave may overwrite the LDS stage another is
               still reading (no barrier after the reads), which the simulator does
               not report, and any change of instruction count changes what the
               slower waves read. */
            CHECK_OK(wa_program_set_workgroup_size(prog, 64, 1, 1));
            unsigned e0 = t.eliminated, h0 = t.hoisted;
            char what[64];
            snprintf(what, sizeof(what), "gemm %s %u", gemm_gen_shape_name(g.shape), size);
            check_program(prog, &sc, &t, what, size == 1000);
            printf("     %s: %u eliminated, %u hoisted\n", what, t.eliminated - e0, t.hoisted - h0);
            wa_program_destroy(prog);
        }
    }
    report("benchmark kernels", &t, sc.seeds);
    CHECK_EQ_UINT(t.programs, 2 * GEMM_GEN_SHAPE_COUNT);
    CHECK_EQ_UINT(t.cse.runs, t.programs * sc.seeds);
    wa_context_destroy(ctx);
}
#define BENCH_CASE UT_CASE(bench_kernels)
#else
#define BENCH_CASE
#endif

UT_SUITE(UT_CASE(api_bad_input) UT_CASE(stats_and_tags) UT_CASE(physical_program_unchanged) UT_CASE(table_flags_decide)
             UT_CASE(allocation_failures) UT_CASE(pressure_budget)
             UT_CASE(pipeline_falls_back_without_hoisting)
             UT_CASE(dominating_and_sibling_blocks) UT_CASE(redefined_registers_are_not_values)
                 UT_CASE(alignment_and_components) UT_CASE(masked_vgpr_writes)
                     UT_CASE(degenerate_programs) UT_CASE(exec_epochs)
                     UT_CASE(exec_writing_loop) UT_CASE(generated_programs)
                         UT_CASE(random_programs) UT_CASE(examples) UT_CASE(commuted_with_modifiers)
                         BENCH_CASE);
