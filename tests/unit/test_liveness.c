/* tests/unit/test_liveness.c — CFG and liveness (liveness.h): blocks from labels
   and branches, edges, dominators, natural loops, live-in/live-out, live
   segments, pressure, live_at, live on entry, the opt-in SSA check, and the
   corner cases (unreachable blocks, empty programs, labels and comments only).

   Conventions used by every expectation below: item i of the program (labels
   and comments are items) has a use point 2i and a def point 2i+1; an MFMA
   writes its result at its use point. Kernels are wrapped by ut_kernel_text, so
   the first body line is line 3 and items are numbered from the first line that
   is not a directive. The default ABI inputs are s[0:1] (kernarg pointer) and v0
   (work-item id); they are physical registers live from the entry to their last
   read, and they count in the pressure. Every program here is also compared with
   the brute-force reference of randprog.c. */
#define _POSIX_C_SOURCE 200112L /* setenv */

#include "check.h"
#include "randprog.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE WA_NONE

static wa_program *parse(wa_context *ctx, const char *body)
{
    wa_program *prog = NULL;
    wa_status st = ut_parse_body(&prog, ctx, "gfx942", body);
    CHECK_MSG(st == WA_OK && prog, "parse failed (%d):%s\n%s", (int)st, ut_diags_text(ctx), body);
    return st == WA_OK ? prog : NULL;
}

/* Liveness of `prog`, cross-checked with the brute-force reference. */
static wa_liveness *live_of(const wa_program *prog)
{
    wa_liveness *live = NULL;
    wa_status st = wa_liveness_compute(&live, prog, NULL);
    if (!CHECK_MSG(st == WA_OK && live, "wa_liveness_compute: %d:%s", (int)st,
                   ut_diags_text(wa_program_context(prog))))
        return NULL;
    rp_ref *ref = rp_ref_compute(prog);
    CHECK_EQ_UINT(rp_compare_liveness(ref, prog, live, 10), 0);
    rp_ref_free(ref);
    return live;
}

/* "[a,b] [c,d]" for the segments of a virtual register. */
static const char *segs_text(const wa_liveness *live, unsigned vreg)
{
    static char buf[512];
    unsigned n = 0;
    const wa_live_segment *s = wa_liveness_segments(live, vreg, &n);
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && len + 24 < sizeof(buf); i++)
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s[%u,%u]", i ? " " : "", s[i].start,
                                s[i].end);
    return buf;
}

/* "1 2 5" for a list of ids. */
static const char *ids_text(const unsigned *ids, unsigned n)
{
    static char buf[512];
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && len + 12 < sizeof(buf); i++)
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u", i ? " " : "", ids[i]);
    return buf;
}

static int cmp_uns(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Sorted edge list as text (the order of the arrays is not specified). */
static const char *edges_text(const unsigned *e, unsigned n)
{
    unsigned tmp[64];
    if (n > 64)
        n = 64;
    if (n)
        memcpy(tmp, e, n * sizeof(unsigned));
    qsort(tmp, n, sizeof(unsigned), cmp_uns);
    return ids_text(tmp, n);
}

#define CHECK_SEGS(live, vreg, want) CHECK_STR_EQ(segs_text((live), (vreg)), (want))

static void check_block(const wa_liveness *live, unsigned b, unsigned first, unsigned last,
                        const char *preds, const char *succs, unsigned idom, int line)
{
    wa_block_info bi;
    ut_context("block %u (line %d)", b, line);
    if (!CHECK_OK(wa_liveness_block(&bi, live, b)))
        return;
    CHECK_EQ_UINT(bi.first_item, first);
    CHECK_EQ_UINT(bi.last_item, last);
    CHECK_EQ_UINT(bi.idom, idom);
    unsigned n;
    const unsigned *e = wa_liveness_preds(live, b, &n);
    CHECK_EQ_UINT(bi.num_preds, n);
    CHECK_STR_EQ(edges_text(e, n), preds);
    e = wa_liveness_succs(live, b, &n);
    CHECK_EQ_UINT(bi.num_succs, n);
    CHECK_STR_EQ(edges_text(e, n), succs);
    for (unsigned i = first; i <= last; i++)
        CHECK_EQ_UINT(wa_liveness_block_of(live, i), b);
    ut_context("%s", "");
}
#define CHECK_BLOCK(live, b, first, last, preds, succs, idom) \
    check_block((live), (b), (first), (last), (preds), (succs), (idom), __LINE__)

static void check_live_sets(const wa_liveness *live, unsigned b, const char *in, const char *out)
{
    unsigned n;
    const unsigned *s = wa_liveness_live_in(live, b, &n);
    ut_context("live sets of block %u", b);
    CHECK_STR_EQ(ids_text(s, n), in);
    s = wa_liveness_live_out(live, b, &n);
    CHECK_STR_EQ(ids_text(s, n), out);
    ut_context("%s", "");
}

static void block_loop(const wa_liveness *live, unsigned b, unsigned *loop, unsigned *depth)
{
    wa_block_info bi;
    *loop = *depth = 12345;
    if (CHECK_OK(wa_liveness_block(&bi, live, b))) {
        *loop = bi.loop;
        *depth = bi.loop_depth;
    }
}

/* The loop whose header is block `header` (WA_NONE if none). */
static unsigned loop_with_header(const wa_liveness *live, unsigned header, wa_loop_info *out)
{
    for (unsigned l = 0; l < wa_liveness_loop_count(live); l++)
        if (wa_liveness_loop(out, live, l) == WA_OK && out->header == header)
            return l;
    return NONE;
}

/* ---- straight-line code -------------------------------------------------------------- */

static void straight_line_segments_and_pressure(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* item                                      use def
       0 v1 = 1                                   0   1
       1 v2 = 2                                   2   3
       2 v3 = v1 + v2                             4   5   (v1, v2 die at 4)
       3 v4 = 0       (never read: dead def)      6   7
       4 store v3 at v0 via s[0:1]                8   9   (v0, s[0:1], v3 die)
       5 s_endpgm                                10  11 */
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 1\n"
                                  "  v_mov_b32 %v2, 2\n"
                                  "  v_add_u32 %v3, %v1, %v2\n"
                                  "  v_mov_b32 %v4, 0\n"
                                  "  global_store_dword v0, %v3, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_SEGS(live, 1, "[1,4]");
    CHECK_SEGS(live, 2, "[3,4]");
    CHECK_SEGS(live, 3, "[5,8]");
    CHECK_SEGS(live, 4, "[7,7]"); /* a dead definition still occupies its register */
    CHECK_SEGS(live, 0, "");      /* id 0 is unused */
    CHECK_SEGS(live, 99, "");     /* out of range */
    CHECK(wa_liveness_is_live(live, 1, 4));
    CHECK(!wa_liveness_is_live(live, 1, 5));
    CHECK(!wa_liveness_is_live(live, 3, 4));
    CHECK(wa_liveness_is_live(live, 3, 5));
    CHECK(!wa_liveness_is_live(live, 99, 5));
    /* one block, no edges, no loops */
    CHECK_EQ_UINT(wa_liveness_block_count(live), 1);
    CHECK_EQ_UINT(wa_liveness_loop_count(live), 0);
    CHECK_BLOCK(live, 0, 0, 5, "", "", NONE);
    check_live_sets(live, 0, "", "");
    unsigned n = 99;
    CHECK(wa_liveness_live_on_entry(live, &n) == NULL || n == 0);
    CHECK_EQ_UINT(n, 0);
    /* VGPR pressure: v0 is live on [0,8]. Item 0: max(v0, v0+v1) = 2; item 1:
       v0+v1+v2 = 3; item 2: max(3, v0+v3) = 3; item 3: v0+v3+v4 = 3 at 7;
       item 4: v0+v3 = 2; item 5: 0. The maximum 3 is first reached at item 1. */
    static const unsigned vp[6] = { 2, 3, 3, 3, 2, 0 };
    for (unsigned i = 0; i < 6; i++)
        CHECK_EQ_UINT(wa_liveness_pressure(live, i, WA_REG_VGPR), vp[i]);
    unsigned at = 0;
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_VGPR, &at), 3);
    CHECK_EQ_UINT(at, 1);
    /* SGPR: s0 and s1 live on [0,8]. */
    for (unsigned i = 0; i < 5; i++)
        CHECK_EQ_UINT(wa_liveness_pressure(live, i, WA_REG_SGPR), 2);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 5, WA_REG_SGPR), 0);
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_SGPR, &at), 2);
    CHECK_EQ_UINT(at, 0);
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_AGPR, &at), 0);
    CHECK_EQ_UINT(at, 0);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 6, WA_REG_VGPR), 0);  /* past the end */
    CHECK_EQ_UINT(wa_liveness_pressure(live, 1, WA_REG_NONE), 0);  /* not a class */
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_NONE, &at), 0);
    CHECK_EQ_UINT(at, NONE);
    /* live_at: virtual registers of a class at a point, ascending */
    unsigned ids[8];
    CHECK_EQ_UINT(wa_liveness_live_at(ids, 8, live, 4, WA_REG_VGPR), 2);
    CHECK_STR_EQ(ids_text(ids, 2), "1 2");
    CHECK_EQ_UINT(wa_liveness_live_at(ids, 8, live, 7, WA_REG_VGPR), 2);
    CHECK_STR_EQ(ids_text(ids, 2), "3 4");
    CHECK_EQ_UINT(wa_liveness_live_at(ids, 8, live, 7, WA_REG_SGPR), 0);
    ids[1] = 777;
    CHECK_EQ_UINT(wa_liveness_live_at(ids, 1, live, 4, WA_REG_VGPR), 2); /* count, capped copy */
    CHECK_EQ_UINT(ids[0], 1);
    CHECK_EQ_UINT(ids[1], 777);
    CHECK_EQ_UINT(wa_liveness_live_at(NULL, 0, live, 5, WA_REG_VGPR), 1);
    CHECK_EQ_UINT(wa_liveness_live_at(NULL, 0, live, 11, WA_REG_VGPR), 0);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Blocks start at labels and after branches; a conditional branch has a taken
   and a fall-through edge, s_branch only the taken one. An if/else diamond. */
static void blocks_edges_and_dominators(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* B0 = items 0-2, B1 = 3-4 (then), B2 = 5-6 (else, falls into the join),
       B3 = 7-9 (join). */
    wa_program *prog = parse(ctx, "  s_mov_b32 %s1, 0\n"                     /* 0 */
                                  "  s_cmp_lt_u32 %s1, 4\n"                  /* 1 */
                                  "  s_cbranch_scc1 other\n"                 /* 2 */
                                  "  v_mov_b32 %v2, 1\n"                     /* 3 */
                                  "  s_branch join\n"                        /* 4 */
                                  "other:\n"                                 /* 5 */
                                  "  v_mov_b32 %v2, 2\n"                     /* 6 */
                                  "join:\n"                                  /* 7 */
                                  "  global_store_dword v0, %v2, s[0:1]\n"   /* 8 */
                                  "  s_endpgm\n");                           /* 9 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 4);
    CHECK_BLOCK(live, 0, 0, 2, "", "1 2", NONE);
    CHECK_BLOCK(live, 1, 3, 4, "0", "3", 0);
    CHECK_BLOCK(live, 2, 5, 6, "0", "3", 0);
    CHECK_BLOCK(live, 3, 7, 9, "1 2", "", 0); /* the join is dominated by the branch block */
    CHECK_EQ_UINT(wa_liveness_loop_count(live), 0);
    for (unsigned b = 0; b < 4; b++) {
        wa_block_info bi;
        if (CHECK_OK(wa_liveness_block(&bi, live, b))) {
            CHECK(bi.reachable);
            CHECK_EQ_UINT(bi.loop, NONE);
            CHECK_EQ_UINT(bi.loop_depth, 0);
        }
    }
    /* %v2 is written on both arms and read in the join. In B1 from its def
       (point 7) to the end of the block (9); in B2 at its def point 13, then
       from the join's start (14) to the read at 16: [13,16] after merging. */
    CHECK_SEGS(live, 2, "[7,9] [13,16]");
    CHECK_SEGS(live, 1, "[1,2]");
    check_live_sets(live, 0, "", "");
    check_live_sets(live, 1, "", "2");
    check_live_sets(live, 2, "", "2");
    check_live_sets(live, 3, "2", "");
    CHECK(!wa_liveness_is_live(live, 2, 10)); /* the label of the else arm */
    CHECK_EQ_UINT(wa_liveness_block_of(live, 10), NONE);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A conditional branch to the very next label has one successor, not two. */
static void branch_to_next_label(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  s_cmp_lt_u32 s0, 1\n"
                                  "  s_cbranch_scc1 next\n"
                                  "next:\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 2);
    CHECK_BLOCK(live, 0, 0, 1, "", "1", NONE);
    CHECK_BLOCK(live, 1, 2, 3, "0", "", 0);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Branches whose label is not their first operand (s_call_b64, s_cbranch_i_fork):
   the label and the next instruction are the successors; s_setpc_b64 (an
   address in SGPRs) has none. */
static void branches_with_label_second(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  s_call_b64 s[4:5], callee\n"   /* 0  B0 */
                                  "  s_cbranch_i_fork s[6:7], other\n" /* 1  B1 */
                                  "  s_endpgm\n"                     /* 2  B2 */
                                  "other:\n"                         /* 3  B3 */
                                  "  s_endpgm\n"                     /* 4 */
                                  "callee:\n"                        /* 5  B4 */
                                  "  s_setpc_b64 s[4:5]\n"           /* 6 */
                                  "  s_endpgm\n");                   /* 7  B5 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 6);
    CHECK_BLOCK(live, 0, 0, 0, "", "1 4", NONE);
    CHECK_BLOCK(live, 1, 1, 1, "0", "2 3", 0);
    CHECK_BLOCK(live, 2, 2, 2, "1", "", 1);
    CHECK_BLOCK(live, 3, 3, 4, "1", "", 1);
    CHECK_BLOCK(live, 4, 5, 6, "0", "", 0);
    wa_block_info bi;
    if (CHECK_OK(wa_liveness_block(&bi, live, 5)))
        CHECK(!bi.reachable);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- loops ------------------------------------------------------------------------------ */

/* A value defined before a loop and read inside it is live across the back edge
   (the whole loop, every iteration); a loop-carried redefinition; a value defined
   in the loop and read after it (live out of the loop). */
static void loop_values(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 7\n"                     /* 0  B0 */
                                  "  s_mov_b32 %s2, 0\n"                     /* 1     */
                                  "loop:\n"                                  /* 2  B1 */
                                  "  v_add_u32 %v3, %v1, v0\n"               /* 3     */
                                  "  s_add_u32 %s2, %s2, 1\n"                /* 4     */
                                  "  s_cmp_lt_u32 %s2, 8\n"                  /* 5     */
                                  "  s_cbranch_scc1 loop\n"                  /* 6     */
                                  "  global_store_dword v0, %v3, s[0:1]\n"   /* 7  B2 */
                                  "  s_endpgm\n");                           /* 8     */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 3);
    CHECK_BLOCK(live, 0, 0, 1, "", "1", NONE);
    CHECK_BLOCK(live, 1, 2, 6, "0 1", "1 2", 0); /* its own predecessor: the back edge */
    CHECK_BLOCK(live, 2, 7, 8, "1", "", 1);
    REQUIRE(wa_liveness_loop_count(live) == 1);
    wa_loop_info li;
    REQUIRE(CHECK_OK(wa_liveness_loop(&li, live, 0)));
    CHECK_EQ_UINT(li.header, 1);
    CHECK_EQ_UINT(li.parent, NONE);
    CHECK_EQ_UINT(li.depth, 1);
    CHECK_EQ_UINT(li.num_blocks, 1);
    CHECK_EQ_UINT(li.num_exits, 1);
    unsigned l, d;
    block_loop(live, 1, &l, &d);
    CHECK_EQ_UINT(l, 0);
    CHECK_EQ_UINT(d, 1);
    block_loop(live, 0, &l, &d);
    CHECK_EQ_UINT(l, NONE);
    CHECK_EQ_UINT(d, 0);
    block_loop(live, 2, &l, &d);
    CHECK_EQ_UINT(l, NONE);
    CHECK_EQ_UINT(d, 0);
    /* %v1: from its def (1) through B0 and the whole loop block, including the
       back edge at the branch (13); not after the loop. */
    CHECK_SEGS(live, 1, "[1,13]");
    /* %s2: def at 3, read at 8 and written at 9 by the increment, read at 10,
       live out of the latch into the next iteration: [3,13]. */
    CHECK_SEGS(live, 2, "[3,13]");
    /* %v3: written at 7 each iteration (not live into the loop), live out of it
       and read at 14 after the loop. */
    CHECK_SEGS(live, 3, "[7,14]");
    check_live_sets(live, 0, "", "1 2");
    check_live_sets(live, 1, "1 2", "1 2 3");
    check_live_sets(live, 2, "3", "");
    /* VGPR pressure: v0 is read in the loop and after it, so live on [0,14].
       Items 4-6 hold v0, v1, v3; item 3 reaches 3 at its def point. */
    CHECK_EQ_UINT(wa_liveness_pressure(live, 2, WA_REG_VGPR), 2);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 3, WA_REG_VGPR), 3);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 6, WA_REG_VGPR), 3);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 7, WA_REG_VGPR), 2);
    unsigned at;
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_VGPR, &at), 3);
    CHECK_EQ_UINT(at, 3);
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_SGPR, &at), 3);
    CHECK_EQ_UINT(at, 1);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void nested_loops(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  s_mov_b32 %s1, 0\n"         /* 0  B0 */
                                  "outer:\n"                     /* 1  B1 */
                                  "  s_mov_b32 %s2, 0\n"         /* 2     */
                                  "inner:\n"                     /* 3  B2 */
                                  "  s_add_u32 %s2, %s2, 1\n"    /* 4     */
                                  "  s_cmp_lt_u32 %s2, 4\n"      /* 5     */
                                  "  s_cbranch_scc1 inner\n"     /* 6     */
                                  "  s_add_u32 %s1, %s1, 1\n"    /* 7  B3 */
                                  "  s_cmp_lt_u32 %s1, 4\n"      /* 8     */
                                  "  s_cbranch_scc1 outer\n"     /* 9     */
                                  "  s_endpgm\n");               /* 10 B4 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 5);
    CHECK_BLOCK(live, 0, 0, 0, "", "1", NONE);
    CHECK_BLOCK(live, 1, 1, 2, "0 3", "2", 0);
    CHECK_BLOCK(live, 2, 3, 6, "1 2", "2 3", 1);
    CHECK_BLOCK(live, 3, 7, 9, "2", "1 4", 2);
    CHECK_BLOCK(live, 4, 10, 10, "3", "", 3);
    REQUIRE(wa_liveness_loop_count(live) == 2);
    wa_loop_info outer, inner;
    unsigned lo = loop_with_header(live, 1, &outer), lin = loop_with_header(live, 2, &inner);
    REQUIRE(lo != NONE && lin != NONE);
    CHECK_EQ_UINT(outer.parent, NONE);
    CHECK_EQ_UINT(outer.depth, 1);
    CHECK_EQ_UINT(outer.num_blocks, 3); /* B1, B2, B3: the inner loop counts */
    CHECK_EQ_UINT(outer.num_exits, 1);  /* B3 -> B4 */
    CHECK_EQ_UINT(inner.parent, lo);
    CHECK_EQ_UINT(inner.depth, 2);
    CHECK_EQ_UINT(inner.num_blocks, 1);
    CHECK_EQ_UINT(inner.num_exits, 1);  /* B2 -> B3 */
    unsigned l, d;
    block_loop(live, 1, &l, &d);
    CHECK(l == lo && d == 1);
    block_loop(live, 2, &l, &d);
    CHECK(l == lin && d == 2);
    block_loop(live, 3, &l, &d);
    CHECK(l == lo && d == 1);
    block_loop(live, 4, &l, &d);
    CHECK(l == NONE && d == 0);
    /* %s1 lives through both loops, back edges included, up to the outer
       latch's branch (19); %s2 from its def in the outer body (5) through the
       inner loop (13), not in the outer latch. */
    CHECK_SEGS(live, 1, "[1,19]");
    CHECK_SEGS(live, 2, "[5,13]");
    check_live_sets(live, 1, "1", "1 2");
    check_live_sets(live, 2, "1 2", "1 2");
    check_live_sets(live, 3, "1", "1");
    check_live_sets(live, 4, "", "");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void loop_with_several_exits(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  s_mov_b32 %s1, 0\n"                      /* 0  B0 */
                                  "  v_mov_b32 %v2, 0\n"                      /* 1     */
                                  "head:\n"                                   /* 2  B1 */
                                  "  s_add_u32 %s1, %s1, 1\n"                 /* 3     */
                                  "  s_cmp_eq_u32 %s1, 3\n"                   /* 4     */
                                  "  s_cbranch_scc1 early\n"                  /* 5     */
                                  "  v_add_u32 %v2, 1, %v2\n"                 /* 6  B2 */
                                  "  s_cmp_lt_u32 %s1, 8\n"                   /* 7     */
                                  "  s_cbranch_scc1 head\n"                   /* 8     */
                                  "  global_store_dword v0, %v2, s[0:1]\n"    /* 9  B3 */
                                  "  s_endpgm\n"                              /* 10    */
                                  "early:\n"                                  /* 11 B4 */
                                  "  v_mov_b32 %v3, %s1\n"                    /* 12    */
                                  "  global_store_dword v0, %v3, s[0:1]\n"    /* 13    */
                                  "  s_endpgm\n");                            /* 14    */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 5);
    CHECK_BLOCK(live, 1, 2, 5, "0 2", "2 4", 0);
    CHECK_BLOCK(live, 2, 6, 8, "1", "1 3", 1);
    CHECK_BLOCK(live, 3, 9, 10, "2", "", 2);
    CHECK_BLOCK(live, 4, 11, 14, "1", "", 1);
    REQUIRE(wa_liveness_loop_count(live) == 1);
    wa_loop_info li;
    REQUIRE(CHECK_OK(wa_liveness_loop(&li, live, 0)));
    CHECK_EQ_UINT(li.header, 1);
    CHECK_EQ_UINT(li.num_blocks, 2);
    CHECK_EQ_UINT(li.num_exits, 2); /* B1 -> B4 and B2 -> B3 */
    /* %v2: the loop-carried sum, live through the loop (the early exit does not
       read it, but the other path does) and out of it at the normal exit. */
    CHECK_SEGS(live, 2, "[3,18]");
    /* %s1: live in the loop and out of it at the early exit only. */
    CHECK_SEGS(live, 1, "[1,17] [22,24]");
    CHECK_SEGS(live, 3, "[25,26]");
    check_live_sets(live, 1, "1 2", "1 2");
    check_live_sets(live, 2, "1 2", "1 2");
    check_live_sets(live, 3, "2", "");
    check_live_sets(live, 4, "1", "");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* The entry block is a loop header (a back edge to item 0). */
static void loop_at_entry(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "top:\n"
                                  "  v_mov_b32 %v1, 1\n"
                                  "  s_cmp_lt_u32 s0, 4\n"
                                  "  s_cbranch_scc1 top\n"
                                  "  global_store_dword v0, %v1, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 2);
    CHECK_BLOCK(live, 0, 0, 3, "0", "0 1", NONE);
    REQUIRE(wa_liveness_loop_count(live) == 1);
    wa_loop_info li;
    REQUIRE(CHECK_OK(wa_liveness_loop(&li, live, 0)));
    CHECK_EQ_UINT(li.header, 0);
    CHECK_EQ_UINT(li.num_blocks, 1);
    CHECK_EQ_UINT(li.num_exits, 1);
    /* %v1 is written before it is read in every iteration: not live around the
       back edge, only from its def (3) to the store (8). */
    CHECK_SEGS(live, 1, "[3,8]");
    check_live_sets(live, 0, "", "1");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Two blocks that branch to each other, each also entered from outside: a cycle
   without a natural loop (neither block dominates the other). */
static void irreducible_cycle(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 0\n"                     /* 0  B0 */
                                  "  s_cmp_lt_u32 s0, 1\n"                   /* 1     */
                                  "  s_cbranch_scc1 b\n"                     /* 2     */
                                  "a:\n"                                     /* 3  B1 */
                                  "  v_add_u32 %v1, 1, %v1\n"                /* 4     */
                                  "  s_cmp_lt_u32 s0, 2\n"                   /* 5     */
                                  "  s_cbranch_scc1 out\n"                   /* 6     */
                                  "b:\n"                                     /* 7  B2 */
                                  "  v_add_u32 %v1, 2, %v1\n"                /* 8     */
                                  "  s_cmp_lt_u32 s0, 3\n"                   /* 9     */
                                  "  s_cbranch_scc1 a\n"                     /* 10    */
                                  "out:\n"                                   /* 11 B3 */
                                  "  global_store_dword v0, %v1, s[0:1]\n"   /* 12    */
                                  "  s_endpgm\n");                           /* 13    */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 4);
    CHECK_BLOCK(live, 1, 3, 6, "0 2", "2 3", 0);
    CHECK_BLOCK(live, 2, 7, 10, "0 1", "1 3", 0);
    CHECK_BLOCK(live, 3, 11, 13, "1 2", "", 0);
    CHECK_EQ_UINT(wa_liveness_loop_count(live), 0);
    CHECK_SEGS(live, 1, "[1,24]");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- unreachable code, empty programs --------------------------------------------------------- */

static void unreachable_blocks(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 1\n"                     /* 0  B0 */
                                  "  s_branch over\n"                        /* 1     */
                                  "  v_mov_b32 %v2, %v1\n"                   /* 2  B1: no way in */
                                  "over:\n"                                  /* 3  B2 */
                                  "  global_store_dword v0, %v1, s[0:1]\n"   /* 4     */
                                  "  s_endpgm\n"                             /* 5     */
                                  "dead:\n"                                  /* 6  B3: a dead loop */
                                  "  s_add_u32 %s3, %s3, 1\n"                /* 7     */
                                  "  s_cmp_lt_u32 %s3, 4\n"                  /* 8     */
                                  "  s_cbranch_scc1 dead\n");                /* 9     */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 4);
    CHECK_BLOCK(live, 0, 0, 1, "", "2", NONE);
    CHECK_BLOCK(live, 1, 2, 2, "", "2", NONE);
    CHECK_BLOCK(live, 2, 3, 5, "0 1", "", 0); /* only reachable predecessors dominate */
    CHECK_BLOCK(live, 3, 6, 9, "3", "3", NONE); /* its own successor, nothing after it */
    wa_block_info bi;
    REQUIRE(CHECK_OK(wa_liveness_block(&bi, live, 1)));
    CHECK(!bi.reachable);
    REQUIRE(CHECK_OK(wa_liveness_block(&bi, live, 3)));
    CHECK(!bi.reachable);
    CHECK_EQ_UINT(bi.loop, NONE); /* a cycle in dead code is no loop */
    CHECK_EQ_UINT(bi.loop_depth, 0);
    CHECK_EQ_UINT(wa_liveness_loop_count(live), 0);
    REQUIRE(CHECK_OK(wa_liveness_block(&bi, live, 2)));
    CHECK(bi.reachable);
    /* %v1 is read in the dead block and after it: live there too. */
    CHECK_SEGS(live, 1, "[1,8]");
    CHECK_SEGS(live, 2, "[5,5]");
    check_live_sets(live, 1, "1", "1");
    /* %s3 is read before any write, but only in dead code: it is live around the
       dead loop and not live on entry to the kernel. */
    CHECK_SEGS(live, 3, "[12,19]");
    check_live_sets(live, 3, "3", "3");
    unsigned n = 99;
    wa_liveness_live_on_entry(live, &n);
    CHECK_EQ_UINT(n, 0);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void empty_program(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "");
    REQUIRE(prog);
    CHECK_EQ_UINT(wa_program_size(prog), 0);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 0);
    CHECK_EQ_UINT(wa_liveness_loop_count(live), 0);
    unsigned at = 0;
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_VGPR, &at), 0);
    CHECK_EQ_UINT(at, NONE);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 0, WA_REG_VGPR), 0);
    CHECK_EQ_UINT(wa_liveness_block_of(live, 0), NONE);
    wa_block_info bi;
    CHECK_STATUS(wa_liveness_block(&bi, live, 0), WA_E_INVALID);
    CHECK(wa_context_last_diag(ctx) != NULL);
    unsigned n = 99;
    CHECK(wa_liveness_preds(live, 0, &n) == NULL);
    CHECK_EQ_UINT(n, 0);
    n = 99;
    wa_liveness_live_on_entry(live, &n);
    CHECK_EQ_UINT(n, 0);
    CHECK_EQ_UINT(wa_liveness_live_at(NULL, 0, live, 0, WA_REG_VGPR), 0);
    char *text = NULL;
    if (CHECK_OK(wa_liveness_print(&text, NULL, live)))
        CHECK_STR_CONTAINS(text, "blocks: 0");
    wa_free(text);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void labels_and_comments_only(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  ; nothing but a comment\n" /* 0 B0 */
                                  "a:\n"                        /* 1 B1 */
                                  "b:\n"                        /* 2 B2 */
                                  "  ; another comment\n");     /* 3    */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_block_count(live), 3);
    CHECK_BLOCK(live, 0, 0, 0, "", "1", NONE);
    CHECK_BLOCK(live, 1, 1, 1, "0", "2", 0);
    CHECK_BLOCK(live, 2, 2, 3, "1", "", 1);
    CHECK_EQ_UINT(wa_liveness_loop_count(live), 0);
    unsigned at = 99;
    for (unsigned c = WA_REG_VGPR; c <= WA_REG_AGPR; c++) {
        CHECK_EQ_UINT(wa_liveness_max_pressure(live, (wa_reg_class)c, &at), 0);
        CHECK_EQ_UINT(at, 0);
    }
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- registers: components, partial definitions, MFMA, read-modify-write -------------- */

/* A value used only through components and sub-ranges is live while any of them
   is still to be read; each component counts until its own last read (its
   register is free after that: sub-register liveness). */
static void component_and_subrange_uses(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  global_load_dwordx4 %v1<4,align=2>, v0, s[0:1]\n" /* 0 */
                                  "  v_add_u32 %v2, %v1[3], v0\n"                      /* 1 */
                                  "  global_store_dwordx2 v0, %v1[0:1], s[0:1]\n"      /* 2 */
                                  "  v_mov_b32 %v3, 0\n"                               /* 3 */
                                  "  global_store_dword v0, %v1[2], s[0:1]\n"          /* 4 */
                                  "  s_endpgm\n");                                     /* 5 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    /* component 3 is last read at 2, components 0-1 at 4, component 2 at 8 */
    CHECK_SEGS(live, 1, "[1,8]");
    CHECK_SEGS(live, 2, "[3,3]");
    /* each component counts until its last read: item 1 has v0 + 4 at its use
       point and v0 + 3 + %v2 = 5 at its def point, item 3 v0 + 1 + %v3 = 3
       (components 0-1 are dead), item 4 v0 + 1 = 2; the most is at item 0. */
    CHECK_EQ_UINT(wa_liveness_pressure(live, 1, WA_REG_VGPR), 5);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 3, WA_REG_VGPR), 3);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 4, WA_REG_VGPR), 2);
    unsigned at;
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_VGPR, &at), 5);
    CHECK_EQ_UINT(at, 0);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A register initialised component by component is not live before its first
   component is written, and not live on entry. */
static void partial_definitions(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1<2,align=2>[0], 1\n"          /* 0 */
                                  "  v_mov_b32 %v2, 5\n"                         /* 1 */
                                  "  v_mov_b32 %v1[1], %v2\n"                    /* 2 */
                                  "  global_store_dwordx2 v0, %v1, s[0:1]\n"     /* 3 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_SEGS(live, 1, "[1,6]");
    CHECK_SEGS(live, 2, "[3,4]");
    unsigned n = 99;
    wa_liveness_live_on_entry(live, &n);
    CHECK_EQ_UINT(n, 0);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 1, WA_REG_VGPR), 4); /* v0 + pair + %v2 */
    wa_liveness_destroy(live);
    wa_program_destroy(prog);

    /* With component 0 never written, the pair is read before it is defined. */
    prog = parse(ctx, "  v_mov_b32 %v1<2,align=2>[1], 1\n"
                      "  global_store_dwordx2 v0, %v1, s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    live = live_of(prog);
    REQUIRE(live);
    const unsigned *e = wa_liveness_live_on_entry(live, &n);
    CHECK_STR_EQ(ids_text(e, n), "1");
    CHECK_SEGS(live, 1, "[0,2]");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* An MFMA writes vdst at its use point: vdst overlaps srcA/srcB (it must not
   share their registers). A srcC that ends there may share vdst's registers, so
   the two count once; a srcC read later counts on its own. */
static void mfma_early_clobber_and_tie(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* An early-clobber MFMA (8-register f64 result) writes vdst at its use point. */
    wa_program *prog = parse(ctx, "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"            /* 0 */
                                  "  global_load_dwordx4 %v2<8,align=2>[0:3], v0, s[0:1]\n"       /* 1 */
                                  "  global_load_dwordx4 %v2[4:7], v0, s[0:1]\n"                  /* 2 */
                                  "  v_mfma_f64_16x16x4_f64 %v3<8,align=2>, %v1, %v1, %v2\n"      /* 3 */
                                  "  global_store_dwordx4 v0, %v3[0:3], s[0:1]\n"                 /* 4 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_SEGS(live, 1, "[1,6]");
    CHECK_SEGS(live, 3, "[6,8]"); /* from the MFMA's use point */
    CHECK(wa_liveness_is_live(live, 1, 6) && wa_liveness_is_live(live, 3, 6));
    /* item 3, point 6: v0 + %v1 (2) + %v2 (8) + %v3 (8) - the tie (8) = 11; point 7:
       v0 + %v3 = 9. Items 1 and 2 also have 11 (v0 + 2 + 8). */
    CHECK_EQ_UINT(wa_liveness_pressure(live, 3, WA_REG_VGPR), 11);
    unsigned at;
    CHECK_EQ_UINT(wa_liveness_max_pressure(live, WA_REG_VGPR, &at), 11);
    CHECK_EQ_UINT(at, 1);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);

    /* srcC read again after the MFMA: no tie, 19 registers at the MFMA. */
    prog = parse(ctx, "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                      "  global_load_dwordx4 %v2<8,align=2>[0:3], v0, s[0:1]\n"
                      "  global_load_dwordx4 %v2[4:7], v0, s[0:1]\n"
                      "  v_mfma_f64_16x16x4_f64 %v3<8,align=2>, %v1, %v1, %v2\n"
                      "  global_store_dwordx4 v0, %v3[0:3], s[0:1]\n"
                      "  global_store_dwordx4 v0, %v2[0:3], s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 3, WA_REG_VGPR), 19);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);

    /* srcB reads srcC's register: vdst cannot take it, no tie either. */
    prog = parse(ctx, "  global_load_dwordx4 %a2<8,align=2>[0:3], v0, s[0:1]\n"
                      "  global_load_dwordx4 %a2[4:7], v0, s[0:1]\n"
                      "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                      "  v_mfma_f64_16x16x4_f64 %a3<8,align=2>, %v1, %a2[2:3], %a2\n"
                      "  global_store_dwordx4 v0, %a3[0:3], s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    live = live_of(prog);
    REQUIRE(live);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 3, WA_REG_AGPR), 16);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);

    /* A result of 128 bits or less is written after the reads: vdst starts at
       the def point, and at the MFMA the pressure is the sources' (7), then
       v0 + vdst (5). */
    prog = parse(ctx, "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"            /* 0 */
                      "  global_load_dwordx4 %v2<4,align=2>, v0, s[0:1]\n"            /* 1 */
                      "  v_mfma_f32_16x16x16_f16 %v3<4,align=2>, %v1, %v1, %v2\n"     /* 2 */
                      "  global_store_dwordx4 v0, %v3, s[0:1]\n"                      /* 3 */
                      "  s_endpgm\n");
    REQUIRE(prog);
    live = live_of(prog);
    REQUIRE(live);
    CHECK_SEGS(live, 1, "[1,4]");
    CHECK_SEGS(live, 2, "[3,4]");
    CHECK_SEGS(live, 3, "[5,6]");
    CHECK(!wa_liveness_is_live(live, 3, 4));
    CHECK_EQ_UINT(wa_liveness_pressure(live, 2, WA_REG_VGPR), 7);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A block entered by fall-through (no label) that starts with an MFMA
   redefining a register live out of the block before: the register's segments
   touch at the block boundary and join, yet it is not live into the block. */
static void mfma_redefinition_at_block_start(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"    /* 0 */
                                  "  global_load_dwordx4 %v2<8,align=2>[0:3], v0, s[0:1]\n" /* 1 */
                                  "  global_load_dwordx4 %v2[4:7], v0, s[0:1]\n"         /* 2 */
                                  "  s_cmp_eq_u32 s0, 0\n"                                /* 3 */
                                  "  s_cbranch_scc1 L0\n"                                 /* 4 */
                                  "  v_mfma_f64_16x16x4_f64 %v2, %v1, %v1, 0\n"           /* 5 */
                                  "  global_store_dwordx4 v0, %v2[4:7], s[0:1]\n"         /* 6 */
                                  "  s_endpgm\n"                                          /* 7 */
                                  "L0:\n"                                                 /* 8 */
                                  "  global_store_dwordx4 v0, %v2[0:3], s[0:1]\n"         /* 9 */
                                  "  s_endpgm\n");                                        /* 10 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_SEGS(live, 1, "[1,10]");
    CHECK_SEGS(live, 2, "[3,12] [16,18]");
    check_live_sets(live, 0, "", "1 2");
    check_live_sets(live, 1, "1", "");
    check_live_sets(live, 2, "2", "");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- partial writes: EXEC narrower than at entry ----------------------------------------- */

static const char *exec_text(const wa_liveness *live, unsigned n)
{
    static char buf[128];
    for (unsigned i = 0; i < n && i + 1 < sizeof(buf); i++)
        buf[i] = wa_liveness_exec_partial(live, i) ? 'x' : '.';
    buf[n < sizeof(buf) - 1 ? n : sizeof(buf) - 1] = '\0';
    return buf;
}

/* A default value, then a load for some lanes: the load keeps the default in
   the others, so the default stays live up to it (no hole another value could
   take). A register first written under the narrowed EXEC has nothing to keep. */
static void partial_write_keeps_old_lanes(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 0\n"                          /* 0 */
                                  "  v_cmp_gt_u32 vcc, 16, v0\n"                  /* 1 */
                                  "  s_and_saveexec_b64 %s2<2,align=2>, vcc\n"    /* 2 */
                                  "  global_load_dword %v1, v0, s[0:1]\n"         /* 3 */
                                  "  v_add_u32 %v3, %v1, 1\n"                     /* 4 */
                                  "  v_readfirstlane_b32 %s4, %v3\n"              /* 5 */
                                  "  s_or_b64 exec, exec, %s2\n"                  /* 6 */
                                  "  v_mov_b32 %v5, 7\n"                          /* 7 */
                                  "  global_store_dword v0, %v1, s[0:1]\n"        /* 8 */
                                  "  global_store_dword v0, %v5, s[0:1]\n"        /* 9 */
                                  "  s_endpgm\n");                                /* 10 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_STR_EQ(exec_text(live, 11), "...xxxx....");
    CHECK_SEGS(live, 1, "[1,16]");  /* without the rule: [1,1] [7,16] */
    CHECK_SEGS(live, 3, "[9,10]");
    CHECK_SEGS(live, 5, "[15,18]"); /* EXEC whole again: an ordinary write */
    unsigned n;
    wa_liveness_live_on_entry(live, &n);
    CHECK_EQ_UINT(n, 0);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);

    /* the same without s_and_saveexec_b64: nothing is partial, the hole is back */
    prog = parse(ctx, "  v_mov_b32 %v1, 0\n"
                      "  v_cmp_gt_u32 vcc, 16, v0\n"
                      "  s_mov_b64 %s2<2,align=2>, vcc\n"
                      "  global_load_dword %v1, v0, s[0:1]\n"
                      "  global_store_dword v0, %v1, s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    live = live_of(prog);
    REQUIRE(live);
    CHECK_STR_EQ(exec_text(live, 6), "......");
    CHECK_SEGS(live, 1, "[1,1] [7,8]");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Divergent if/else: each side writes %v2 for its lanes, the join reads all of
   them. The then-side value must survive the else side, where %v3 lives. */
static void partial_write_divergent_if_else(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_cmp_gt_u32 vcc, 16, v0\n"                  /* 0 */
                                  "  s_and_saveexec_b64 %s1<2,align=2>, vcc\n"    /* 1 */
                                  "  v_mov_b32 %v2, 1\n"                          /* 2 */
                                  "  s_andn2_b64 exec, %s1, exec\n"               /* 3 */
                                  "  v_mov_b32 %v3, 5\n"                          /* 4 */
                                  "  v_add_u32 %v2, %v3, 2\n"                     /* 5 */
                                  "  s_or_b64 exec, exec, %s1\n"                  /* 6 */
                                  "  global_store_dword v0, %v2, s[0:1]\n"        /* 7 */
                                  "  s_endpgm\n");                                /* 8 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_STR_EQ(exec_text(live, 9), "..xxxxx..");
    CHECK_SEGS(live, 2, "[5,14]");
    CHECK_SEGS(live, 3, "[9,10]");
    CHECK(wa_liveness_is_live(live, 2, 9) && wa_liveness_is_live(live, 3, 9));
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A loop with a narrowed EXEC: lanes can stop iterating (here they all run the
   same count, but the analysis cannot know), so a value written in the body is
   kept around the back edge; it is not live before the loop, where nothing
   defines it. */
static void partial_write_in_loop(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_cmp_gt_u32 vcc, 16, v0\n"                  /* 0 */
                                  "  s_and_saveexec_b64 %s1<2,align=2>, vcc\n"    /* 1 */
                                  "  s_mov_b32 %s2, 0\n"                          /* 2 */
                                  "L0:\n"                                         /* 3 */
                                  "  v_add_u32 %v3, %s2, v0\n"                    /* 4 */
                                  "  s_add_u32 %s2, %s2, 1\n"                     /* 5 */
                                  "  s_cmp_lt_u32 %s2, 4\n"                       /* 6 */
                                  "  s_cbranch_scc1 L0\n"                         /* 7 */
                                  "  s_or_b64 exec, exec, %s1\n"                  /* 8 */
                                  "  global_store_dword v0, %v3, s[0:1]\n"        /* 9 */
                                  "  s_endpgm\n");                                /* 10 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_STR_EQ(exec_text(live, 11), "..xxxxxxx..");
    CHECK_SEGS(live, 3, "[6,18]"); /* from the loop's first point */
    check_live_sets(live, 0, "", "1 2");
    check_live_sets(live, 1, "1 2 3", "1 2 3");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Which writes of EXEC restore the entry mask: a pair saved while EXEC was whole
   and not written since. A physical VGPR written under a narrowed EXEC always
   holds something: it is live from the entry. */
static void exec_restores(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  s_mov_b64 %s1<2,align=2>, exec\n"            /* 0: saved */
                                  "  v_cmp_gt_u32 vcc, 16, v0\n"                  /* 1 */
                                  "  s_and_saveexec_b64 %s2<2,align=2>, vcc\n"    /* 2 */
                                  "  s_mov_b32 %s2[0], 0\n"                       /* 3: no longer */
                                  "  s_or_b64 exec, exec, %s2\n"                  /* 4: not a restore */
                                  "  v_mov_b32 v1, 3\n"                           /* 5 */
                                  "  s_mov_b64 exec, %s1\n"                       /* 6: a restore */
                                  "  global_store_dword v0, v1, s[0:1]\n"         /* 7 */
                                  "  s_and_b64 exec, exec, %s1\n"                 /* 8: whole & whole */
                                  "  s_endpgm\n");                                /* 9 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_STR_EQ(exec_text(live, 10), "...xxxx...");
    CHECK_EQ_UINT(wa_liveness_pressure(live, 0, WA_REG_VGPR), 2); /* v0 and v1 */
    CHECK_EQ_INT(wa_liveness_exec_partial(live, 10), 0);
    CHECK_EQ_INT(wa_liveness_exec_partial(NULL, 0), 0);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Every bitwise write of EXEC is read from the table's truth tables: the
   saveexec and wrexec forms save the old (new) EXEC and combine the source with
   it; a plain 64-bit logic op writing EXEC gives it the function of its sources.
   EXEC is the entry mask again only when the result is exactly it (every entry
   lane on, no other): s_or_b64 exec, exec, S with S saved, s_not_b64 of its
   complement; all lanes (s_mov_b64 exec, -1) is not. */
static void exec_bitwise_forms(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_cmp_gt_u32 vcc, 16, v0\n"                    /* 0 */
                                  "  s_and_saveexec_b64 %s1<2,align=2>, vcc\n"      /* 1: a subset */
                                  "  v_mov_b32 v1, 1\n"                             /* 2 */
                                  "  s_xor_b64 exec, exec, %s1\n"                   /* 3: the else lanes */
                                  "  v_mov_b32 v1, 2\n"                             /* 4 */
                                  "  s_or_b64 exec, exec, %s1\n"                    /* 5: restored */
                                  "  v_mov_b32 v1, 3\n"                             /* 6 */
                                  "  s_andn2_saveexec_b64 %s2<2,align=2>, %s1\n"    /* 7: E & ~E = 0 */
                                  "  v_mov_b32 v1, 4\n"                             /* 8 */
                                  "  s_orn2_saveexec_b64 %s3<2,align=2>, %s2\n"     /* 9: E | ~0: all */
                                  "  v_mov_b32 v1, 5\n"                             /* 10 */
                                  "  s_and_b64 exec, exec, %s1\n"                   /* 11: all & E */
                                  "  v_mov_b32 v1, 6\n"                             /* 12 */
                                  "  s_nand_saveexec_b64 %s4<2,align=2>, %s3\n"     /* 13: ~(0 & E) */
                                  "  v_mov_b32 v1, 7\n"                             /* 14 */
                                  "  s_xnor_b64 %s5<2,align=2>, %s4, 0\n"           /* 15: ~E, not saved */
                                  "  s_andn1_wrexec_b64 %s6<2,align=2>, %s5\n"      /* 16 */
                                  "  s_mov_b64 exec, %s4\n"                         /* 17: restored */
                                  "  v_mov_b32 v1, 8\n"                             /* 18 */
                                  "  s_nor_saveexec_b64 %s7<2,align=2>, 0\n"        /* 19: ~E */
                                  "  s_not_b64 exec, exec\n"                        /* 20: ~~E = E */
                                  "  v_mov_b32 v1, 9\n"                             /* 21 */
                                  "  s_orn1_saveexec_b64 %s8<2,align=2>, -1\n"      /* 22: 0 | E */
                                  "  s_xnor_saveexec_b64 %s9<2,align=2>, %s8\n"     /* 23: ~(E ^ E) */
                                  "  s_andn2_wrexec_b64 %s10<2,align=2>, -1\n"      /* 24: ~all = 0 */
                                  "  s_mov_b64 exec, -1\n"                          /* 25: all lanes */
                                  "  v_mov_b32 v1, 10\n"                            /* 26 */
                                  "  global_store_dword v0, v1, s[0:1]\n"           /* 27 */
                                  "  s_endpgm\n");                                  /* 28 */
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_STR_EQ(exec_text(live, 29), "..xxxx..xxxx..xxxx..x...xxxxx");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);

    prog = parse(ctx, "  s_or_saveexec_b64 %s1<2,align=2>, 0\n"      /* 0: 0 | E */
                      "  s_xor_saveexec_b64 %s2<2,align=2>, 0\n"     /* 1: 0 ^ E */
                      "  s_andn1_saveexec_b64 %s3<2,align=2>, 0\n"   /* 2: ~0 & E */
                      "  v_mov_b32 v1, 1\n"                          /* 3 */
                      "  s_andn1_saveexec_b64 %s4<2,align=2>, %s1\n" /* 4: ~E & E = 0 */
                      "  v_mov_b32 v1, 2\n"                          /* 5 */
                      "  s_or_saveexec_b64 %s5<2,align=2>, %s3\n"    /* 6: E | 0 */
                      "  v_mov_b32 v1, 3\n"                          /* 7 */
                      "  global_store_dword v0, v1, s[0:1]\n"        /* 8 */
                      "  s_endpgm\n");                               /* 9 */
    REQUIRE(prog);
    live = live_of(prog);
    REQUIRE(live);
    CHECK_STR_EQ(exec_text(live, 10), ".....xx...");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* v_writelane_b32 reads and writes vdst: the value stays live from its
   definition through the write lane, with no hole. */
static void read_modify_write(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 0\n"                       /* 0 */
                                  "  v_mov_b32 %v2, 1\n"                       /* 1 */
                                  "  v_readfirstlane_b32 %s3, %v2\n"           /* 2 */
                                  "  v_writelane_b32 %v1, %s3, 3\n"            /* 3 */
                                  "  global_store_dword v0, %v1, s[0:1]\n"     /* 4 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_SEGS(live, 1, "[1,8]");
    CHECK_SEGS(live, 2, "[3,4]");
    CHECK_SEGS(live, 3, "[5,6]");
    wa_liveness_destroy(live);
    /* and the SSA check accepts it (an update in place, not a second definition) */
    wa_liveness_options o = WA_LIVENESS_OPTIONS_INIT;
    o.flags = WA_LIVENESS_SSA_CHECK;
    CHECK_OK(wa_liveness_compute(&live, prog, &o));
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Partial writes read the rest of their destination: SDWA into part of a VGPR
   with dst_unused:UNUSED_PRESERVE, and op_sel's destination bit (the high half of
   a 16-bit result). Both are updates in place, like v_writelane. */
static void partial_destination_writes(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 0\n"                                  /* 0 */
                                  "  v_mov_b32 %v2, 1\n"                                  /* 1 */
                                  "  v_mov_b32_sdwa %v1, %v2 dst_sel:WORD_1 "
                                  "dst_unused:UNUSED_PRESERVE src0_sel:WORD_0\n"          /* 2 */
                                  "  v_pack_b32_f16 %v1, %v2, %v2 op_sel:[0,0,1]\n"      /* 3 */
                                  "  v_mov_b32_sdwa %v3, %v2 dst_sel:WORD_1 "
                                  "dst_unused:UNUSED_PAD\n"                               /* 4 */
                                  "  global_store_dword v0, %v1, s[0:1]\n"               /* 5 */
                                  "  global_store_dword v0, %v3, s[0:1]\n"               /* 6 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    CHECK_SEGS(live, 1, "[1,10]"); /* one value from item 0 to the store */
    CHECK_SEGS(live, 3, "[9,12]"); /* UNUSED_PAD writes every bit: a new value */
    wa_liveness_destroy(live);
    wa_liveness_options o = WA_LIVENESS_OPTIONS_INIT;
    o.flags = WA_LIVENESS_SSA_CHECK;
    CHECK_OK(wa_liveness_compute(&live, prog, &o));
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Physical registers the program writes and reads are live values too. */
static void physical_registers_count(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  .abi none\n"
                                  "  v_mov_b32 v5, 1\n"          /* 0 */
                                  "  v_mov_b32 %v1, 2\n"         /* 1 */
                                  "  v_add_u32 %v2, %v1, v5\n"   /* 2 */
                                  "  v_readfirstlane_b32 s7, %v2\n" /* 3 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    /* v5 on [1,4] with %v1 on [3,4]: 2 at items 1 and 2; s7 is a dead write */
    CHECK_EQ_UINT(wa_liveness_pressure(live, 0, WA_REG_VGPR), 1);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 1, WA_REG_VGPR), 2);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 2, WA_REG_VGPR), 2);
    CHECK_EQ_UINT(wa_liveness_pressure(live, 3, WA_REG_SGPR), 1);
    CHECK_EQ_UINT(wa_liveness_live_at(NULL, 0, live, 3, WA_REG_VGPR), 1); /* %v1 only */
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- live on entry, SSA check ------------------------------------------------------------ */

static void live_on_entry(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* %v2 is read at item 0 and written at item 1; %s4 only on the path that
       skips its definition. */
    wa_program *prog = parse(ctx, "  v_add_u32 %v1, %v2, v0\n"                /* 0 */
                                  "  v_mov_b32 %v2, 1\n"                      /* 1 */
                                  "  s_cmp_lt_u32 s0, 1\n"                    /* 2 */
                                  "  s_cbranch_scc1 skip\n"                   /* 3 */
                                  "  s_mov_b32 %s4, 0\n"                      /* 4 */
                                  "skip:\n"                                   /* 5 */
                                  "  v_add_u32 %v3, %s4, %v1\n"               /* 6 */
                                  "  global_store_dword v0, %v3, s[0:1]\n"    /* 7 */
                                  "  global_store_dword v0, %v2, s[0:1]\n"    /* 8 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = live_of(prog);
    REQUIRE(live);
    unsigned n;
    const unsigned *e = wa_liveness_live_on_entry(live, &n);
    CHECK_STR_EQ(ids_text(e, n), "2 4");
    CHECK_SEGS(live, 2, "[0,0] [3,16]");
    check_live_sets(live, 0, "2 4", "1 2 4");
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static wa_status ssa(wa_context *ctx, const char *body, wa_liveness **out)
{
    wa_program *prog = parse(ctx, body);
    if (!prog)
        return WA_E_PARSE;
    wa_liveness_options o = WA_LIVENESS_OPTIONS_INIT;
    o.flags = WA_LIVENESS_SSA_CHECK;
    wa_liveness *live = (wa_liveness *)(uintptr_t)1;
    wa_status st = wa_liveness_compute(&live, prog, &o);
    if (st != WA_OK)
        CHECK(live == NULL);
    if (out)
        *out = st == WA_OK ? live : NULL;
    else if (st == WA_OK)
        wa_liveness_destroy(live);
    wa_program_destroy(prog);
    return st;
}

static void ssa_check(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    const unsigned L = UT_BODY_LINE;
    /* a second definition of the same component */
    CHECK_STATUS(ssa(ctx, "  v_mov_b32 %v1, 0\n"
                          "  v_mov_b32 %v1, 1\n"
                          "  global_store_dword v0, %v1, s[0:1]\n"
                          "  s_endpgm\n",
                     NULL),
                 WA_E_VALIDATE);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 1);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "not SSA|component 0 of %v1 is defined again|first definition: I0",
               L + 1, 3, 1);
    const wa_diag *d = wa_context_last_diag(ctx);
    CHECK(d && strcmp(d->file, "file.wa") == 0);

    /* a use on a path that skips the definition */
    CHECK_STATUS(ssa(ctx, "  s_cmp_lt_u32 s0, 4\n"
                          "  s_cbranch_scc1 skip\n"
                          "  v_mov_b32 %v1, 0\n"
                          "skip:\n"
                          "  global_store_dword v0, %v1, s[0:1]\n"
                          "  s_endpgm\n",
                     NULL),
                 WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "not SSA|%v1|not dominated by its definition (I2)", L + 4, 3, 3);

    /* a use in the same block before the definition */
    CHECK_STATUS(ssa(ctx, "  v_add_u32 %v2, %v1, v0\n"
                          "  v_mov_b32 %v1, 0\n"
                          "  global_store_dword v0, %v2, s[0:1]\n"
                          "  s_endpgm\n",
                     NULL),
                 WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "not dominated by its definition (I1)", L, 3, 0);

    /* a register that is never written */
    CHECK_STATUS(ssa(ctx, "  global_store_dword v0, %v5, s[0:1]\n"
                          "  s_endpgm\n",
                     NULL),
                 WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "component 0 of %v5 is used but never defined", L, 3, 0);

    /* several violations: one diagnostic each, in program order */
    CHECK_STATUS(ssa(ctx, "  v_mov_b32 %v1, 0\n"
                          "  v_mov_b32 %v1, 1\n"
                          "  v_mov_b32 %v2, 0\n"
                          "  v_mov_b32 %v2, 1\n"
                          "  global_store_dword v0, %v7, s[0:1]\n"
                          "  s_endpgm\n",
                     NULL),
                 WA_E_VALIDATE);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 3);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v1 is defined again", L + 1, 3, 1);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v2 is defined again", L + 3, 3, 3);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v7 is used but never defined", L + 4, 3, 4);

    /* SSA programs pass: a diamond with a value per arm, a loop whose values are
       defined before it, components written once each, a use in dead code */
    wa_liveness *live = NULL;
    CHECK_OK(ssa(ctx, "  v_mov_b32 %v1<2,align=2>[0], 0\n"
                      "  v_mov_b32 %v1[1], 1\n"
                      "  s_mov_b32 %s2, 0\n"
                      "  s_cmp_lt_u32 s0, 4\n"
                      "  s_cbranch_scc1 other\n"
                      "  v_add_u32 %v3, %v1[0], v0\n"
                      "  global_store_dword v0, %v3, s[0:1]\n"
                      "  s_branch join\n"
                      "  global_store_dword v0, %v9, s[0:1]\n" /* dead: never defined, never reached */
                      "other:\n"
                      "  v_add_u32 %v4, %v1[1], v0\n"
                      "  global_store_dword v0, %v4, s[0:1]\n"
                      "join:\n"
                      "loop:\n"
                      "  s_cmp_lt_u32 %s2, 4\n"
                      "  s_cbranch_scc1 loop\n"
                      "  global_store_dwordx2 v0, %v1, s[0:1]\n"
                      "  s_endpgm\n",
                 &live));
    CHECK(live != NULL);
    CHECK_EQ_UINT(wa_liveness_loop_count(live), 1);
    wa_liveness_destroy(live);
    wa_context_destroy(ctx);
}

/* ---- API ---------------------------------------------------------------------------------- */

static void api_and_options(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "loop:\n"
                                  "  v_mov_b32 %v1, 1\n"
                                  "  s_cmp_lt_u32 s0, 4\n"
                                  "  s_cbranch_scc1 loop\n"
                                  "  global_store_dword v0, %v1, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = (wa_liveness *)(uintptr_t)1;
    wa_liveness_options o = WA_LIVENESS_OPTIONS_INIT;
    o.version = 0;
    CHECK_STATUS(wa_liveness_compute(&live, prog, &o), WA_E_INVALID);
    CHECK(live == NULL);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "wa_liveness_options version 0", UT_ANY, UT_ANY, UT_ANY);
    o.version = WA_LIVENESS_OPTIONS_VERSION + 1;
    CHECK_STATUS(wa_liveness_compute(&live, prog, &o), WA_E_INVALID);
    CHECK_STATUS(wa_liveness_compute(NULL, prog, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_liveness_compute(&live, NULL, NULL), WA_E_INVALID);
    wa_liveness_destroy(NULL);
    /* NULL-safe queries */
    unsigned n = 5;
    CHECK_EQ_UINT(wa_liveness_block_count(NULL), 0);
    CHECK_EQ_UINT(wa_liveness_loop_count(NULL), 0);
    CHECK(wa_liveness_succs(NULL, 0, &n) == NULL && n == 0);
    CHECK(wa_liveness_segments(NULL, 0, &n) == NULL && n == 0);
    CHECK_EQ_UINT(wa_liveness_live_at(NULL, 0, NULL, 0, WA_REG_VGPR), 0);

    REQUIRE(CHECK_OK(wa_liveness_compute(&live, prog, NULL)));
    wa_block_info bi;
    wa_loop_info li;
    CHECK_STATUS(wa_liveness_block(&bi, live, 2), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "block 2 out of range", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_liveness_block(NULL, live, 0), WA_E_INVALID);
    CHECK_STATUS(wa_liveness_loop(&li, live, 1), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "loop 1 out of range", UT_ANY, UT_ANY, UT_ANY);
    n = 5;
    CHECK(wa_liveness_live_in(live, 7, &n) == NULL && n == 0);
    CHECK(wa_liveness_succs(live, 0, NULL) != NULL); /* count may be NULL */
    CHECK_EQ_UINT(wa_liveness_block_of(live, 1000), NONE);

    /* The result describes the program as it was: it outlives the program. */
    wa_program_destroy(prog);
    CHECK_SEGS(live, 1, "[3,8]");
    CHECK_EQ_UINT(wa_liveness_live_at(NULL, 0, live, 5, WA_REG_VGPR), 1);
    char *text = NULL;
    size_t len = 0;
    if (CHECK_OK(wa_liveness_print(&text, &len, live))) {
        CHECK_EQ_UINT(len, strlen(text));
        CHECK_STR_CONTAINS(text, "blocks: 2 (2 reachable), loops: 1");
        CHECK_STR_CONTAINS(text, "loop 0: header block 0, depth 1, 1 blocks, 1 exits");
        CHECK_STR_CONTAINS(text, "%v1: [3,8]");
        CHECK_STR_CONTAINS(text, "max VGPR pressure: 2 at item 1");
    }
    wa_free(text);
    CHECK_STATUS(wa_liveness_print(NULL, NULL, live), WA_E_INVALID);
    wa_liveness_destroy(live);
    wa_context_destroy(ctx);
}

/* The WAVE_DEBUG_LIVENESS switch logs a summary through the context's log hook. */
typedef struct log_lines {
    unsigned n;
    char text[4096];
} log_lines;

static void collect(const char *line, void *user)
{
    log_lines *l = user;
    size_t len = strlen(l->text);
    if (len + strlen(line) + 2 < sizeof(l->text)) {
        memcpy(l->text + len, line, strlen(line));
        l->text[len + strlen(line)] = '\n';
        l->text[len + strlen(line) + 1] = '\0';
    }
    l->n++;
}

static void debug_switch_logs(void)
{
    log_lines lines;
    memset(&lines, 0, sizeof(lines));
    setenv("WAVE_DEBUG_LIVENESS", "1", 1);
    wa_context_options co = WA_CONTEXT_OPTIONS_INIT;
    co.log_fn = collect;
    co.log_user = &lines;
    wa_context *ctx = NULL;
    wa_status st = wa_context_create(&ctx, &co);
    unsetenv("WAVE_DEBUG_LIVENESS");
    REQUIRE(CHECK_OK(st));
    wa_program *prog = parse(ctx, "loop:\n"
                                  "  v_mov_b32 %v1, 1\n"
                                  "  s_cmp_lt_u32 s0, 4\n"
                                  "  s_cbranch_scc1 loop\n"
                                  "  global_store_dword v0, %v1, s[0:1]\n"
                                  "  s_endpgm\n");
    if (prog) {
        wa_liveness *live = NULL;
        CHECK_OK(wa_liveness_compute(&live, prog, NULL));
        CHECK(lines.n > 0);
        CHECK_STR_CONTAINS(lines.text, "[LIVENESS]");
        CHECK_STR_CONTAINS(lines.text, "loop 0: header block 0");
        wa_liveness_destroy(live);
        wa_program_destroy(prog);
    }
    wa_context_destroy(ctx);
}

/* ---- random programs against the reference ------------------------------------------------- */

static void random_programs_match_reference(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    unsigned diffs = 0, programs = 0;
    /* a spread of shapes: no control flow, only branches, only loops, everything */
    for (uint64_t seed = 9000; seed < 9120; seed++) {
        cfg.loops = seed % 4 >= 2;
        cfg.ifs = seed % 2;
        cfg.unreachable = seed % 3 == 0;
        cfg.items = 20 + (unsigned)(seed % 50);
        ut_context("random program, seed %llu", (unsigned long long)seed);
        wa_program *prog = rp_generate(ctx, WA_TARGET_GFX942, seed, &cfg);
        if (!prog)
            continue;
        wa_liveness *live = NULL;
        if (CHECK_OK(wa_liveness_compute(&live, prog, NULL))) {
            rp_ref *ref = rp_ref_compute(prog);
            unsigned d = rp_compare_liveness(ref, prog, live, diffs ? 0 : 10);
            diffs += d;
            programs++;
            rp_ref_free(ref);
        }
        wa_liveness_destroy(live);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    CHECK_EQ_UINT(diffs, 0);
    CHECK_EQ_UINT(programs, 120);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(straight_line_segments_and_pressure) UT_CASE(blocks_edges_and_dominators)
         UT_CASE(branches_with_label_second)
             UT_CASE(branch_to_next_label) UT_CASE(loop_values) UT_CASE(nested_loops)
                 UT_CASE(loop_with_several_exits) UT_CASE(loop_at_entry) UT_CASE(irreducible_cycle)
                     UT_CASE(unreachable_blocks) UT_CASE(empty_program)
                         UT_CASE(labels_and_comments_only) UT_CASE(component_and_subrange_uses)
                             UT_CASE(partial_definitions) UT_CASE(mfma_early_clobber_and_tie)
                             UT_CASE(mfma_redefinition_at_block_start)
                             UT_CASE(partial_write_keeps_old_lanes)
                             UT_CASE(partial_write_divergent_if_else)
                             UT_CASE(partial_write_in_loop) UT_CASE(exec_restores) UT_CASE(exec_bitwise_forms)
                                 UT_CASE(read_modify_write) UT_CASE(partial_destination_writes) UT_CASE(physical_registers_count)
                                     UT_CASE(live_on_entry) UT_CASE(ssa_check)
                                         UT_CASE(api_and_options) UT_CASE(debug_switch_logs)
                                             UT_CASE(random_programs_match_reference));
