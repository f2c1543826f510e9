/* tests/unit/test_edit.c — editing programs: insert point, erase, move, operand
   and modifier replacement, comments, tag lookup, clone and equality. */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Builds s_nop 0 .. s_nop n-1 (tags 0 .. n-1). */
static wa_program *nops(wa_context *ctx, unsigned n)
{
    wa_program *prog = NULL;
    if (!CHECK_OK(wa_program_create(&prog, ctx, "k")))
        return NULL;
    for (unsigned i = 0; i < n; i++)
        CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, (int)i));
    return prog;
}

/* "tag:imm" for each item, e.g. "0:0 3:7 1:1"; labels as "L", comments as "C". */
static const char *layout(const wa_program *prog)
{
    static char buf[512];
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < wa_program_size(prog) && len + 16 < sizeof(buf); i++) {
        wa_instr_view v;
        if (wa_program_get(&v, prog, i) != WA_OK)
            break;
        const char *sep = i ? " " : "";
        int w;
        if (v.opcode == WA_OP_LABEL)
            w = snprintf(buf + len, sizeof(buf) - len, "%sL", sep);
        else if (v.opcode == WA_OP_COMMENT)
            w = snprintf(buf + len, sizeof(buf) - len, "%sC", sep);
        else if (v.num_operands == 1 && v.operands[0].kind == WA_OPND_IMM)
            w = snprintf(buf + len, sizeof(buf) - len, "%s%u:%lld", sep, v.tag,
                         (long long)v.operands[0].imm.i);
        else
            w = snprintf(buf + len, sizeof(buf) - len, "%s%u:-", sep, v.tag);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

static void insert_point(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = nops(ctx, 3);
    REQUIRE(prog);
    CHECK_STR_EQ(layout(prog), "0:0 1:1 2:2");
    REQUIRE_OK(wa_program_set_insert_point(prog, 1));
    wa_tag t;
    CHECK_OK(wa_build_sopp(&t, prog, WA_OP_S_NOP, 10));
    CHECK_EQ_UINT(t, 3);
    CHECK_OK(wa_build_sopp(&t, prog, WA_OP_S_NOP, 11));
    CHECK_EQ_UINT(t, 4);
    CHECK_STR_EQ(layout(prog), "0:0 3:10 4:11 1:1 2:2");
    /* labels and comments advance the point too */
    wa_label l;
    REQUIRE_OK(wa_program_label_create(&l, prog, "here"));
    CHECK_OK(wa_build_label(prog, l));
    CHECK_OK(wa_build_comment(prog, "c"));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 12));
    CHECK_STR_EQ(layout(prog), "0:0 3:10 4:11 L C 5:12 1:1 2:2");
    /* at the very front */
    CHECK_OK(wa_program_set_insert_point(prog, 0));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 13));
    CHECK_STR_EQ(layout(prog), "6:13 0:0 3:10 4:11 L C 5:12 1:1 2:2");
    /* index == size is the end, as is WA_END */
    CHECK_OK(wa_program_set_insert_point(prog, wa_program_size(prog)));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 14));
    CHECK_OK(wa_program_set_insert_point(prog, WA_END));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 15));
    CHECK_STR_EQ(layout(prog), "6:13 0:0 3:10 4:11 L C 5:12 1:1 2:2 7:14 8:15");
    /* out of range */
    CHECK_STATUS(wa_program_set_insert_point(prog, wa_program_size(prog) + 1), WA_E_INVALID);
    CHECK_STATUS(wa_program_set_insert_point(NULL, 0), WA_E_INVALID);
    /* a failed build does not move the point */
    CHECK_OK(wa_program_set_insert_point(prog, 1));
    CHECK_STATUS(wa_build_sopp(NULL, prog, WA_OP_V_MOV_B32, 0), WA_E_INVALID);
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 16));
    CHECK_STR_EQ(layout(prog), "6:13 9:16 0:0 3:10 4:11 L C 5:12 1:1 2:2 7:14 8:15");
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void erase_items(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = nops(ctx, 5);
    REQUIRE(prog);
    CHECK_OK(wa_program_erase(prog, 1));
    CHECK_STR_EQ(layout(prog), "0:0 2:2 3:3 4:4");
    unsigned idx = 99;
    CHECK_STATUS(wa_program_find_tag(&idx, prog, 1), WA_E_NOT_FOUND);
    CHECK_OK(wa_program_find_tag(&idx, prog, 3));
    CHECK_EQ_UINT(idx, 2);
    CHECK_OK(wa_program_erase(prog, 3)); /* the last one */
    CHECK_STR_EQ(layout(prog), "0:0 2:2 3:3");
    CHECK_STATUS(wa_program_erase(prog, 3), WA_E_INVALID);
    CHECK_STATUS(wa_program_erase(prog, WA_END), WA_E_INVALID);
    CHECK_STATUS(wa_program_erase(NULL, 0), WA_E_INVALID);
    /* erasing before the insert point keeps it on the same item */
    CHECK_OK(wa_program_set_insert_point(prog, 2)); /* before 3:3 */
    CHECK_OK(wa_program_erase(prog, 0));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 9));
    CHECK_STR_EQ(layout(prog), "2:2 5:9 3:3");
    /* erased tags are not reused */
    CHECK_OK(wa_program_set_insert_point(prog, WA_END));
    wa_tag t;
    CHECK_OK(wa_build_sopp(&t, prog, WA_OP_S_NOP, 8));
    CHECK_EQ_UINT(t, 6);
    /* a label can be erased and placed again */
    wa_label l;
    REQUIRE_OK(wa_program_label_create(&l, prog, "again"));
    CHECK_OK(wa_build_label(prog, l));
    CHECK_OK(wa_program_erase(prog, wa_program_size(prog) - 1));
    CHECK_OK(wa_build_label(prog, l));
    CHECK_EQ_UINT(wa_program_size(prog), 5);
    /* erase everything */
    while (wa_program_size(prog))
        CHECK_OK(wa_program_erase(prog, 0));
    CHECK_STR_EQ(layout(prog), "");
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void move_items(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = nops(ctx, 5);
    REQUIRE(prog);
    CHECK_OK(wa_program_move(prog, 0, 3));
    CHECK_STR_EQ(layout(prog), "1:1 2:2 3:3 0:0 4:4");
    CHECK_OK(wa_program_move(prog, 4, 0));
    CHECK_STR_EQ(layout(prog), "4:4 1:1 2:2 3:3 0:0");
    CHECK_OK(wa_program_move(prog, 2, 2));
    CHECK_STR_EQ(layout(prog), "4:4 1:1 2:2 3:3 0:0");
    CHECK_OK(wa_program_move(prog, 1, 2));
    CHECK_STR_EQ(layout(prog), "4:4 2:2 1:1 3:3 0:0");
    CHECK_OK(wa_program_move(prog, 0, 4));
    CHECK_STR_EQ(layout(prog), "2:2 1:1 3:3 0:0 4:4");
    CHECK_STATUS(wa_program_move(prog, 5, 0), WA_E_INVALID);
    CHECK_STATUS(wa_program_move(prog, 0, 5), WA_E_INVALID);
    CHECK_STATUS(wa_program_move(NULL, 0, 0), WA_E_INVALID);
    CHECK_STR_EQ(layout(prog), "2:2 1:1 3:3 0:0 4:4");
    /* tags follow their instructions */
    for (wa_tag t = 0; t < 5; t++) {
        unsigned idx;
        wa_instr_view v;
        REQUIRE_OK(wa_program_find_tag(&idx, prog, t));
        REQUIRE_OK(wa_program_get(&v, prog, idx));
        CHECK_EQ_INT(v.operands[0].imm.i, (int)t);
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* The insert point stays in front of its item when items move, as it does when
   items before it are erased. */
static void move_keeps_insert_point(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = nops(ctx, 5);
    REQUIRE(prog);
    CHECK_OK(wa_program_set_insert_point(prog, 2)); /* before 2:2 */
    CHECK_OK(wa_program_erase(prog, 0));
    CHECK_OK(wa_program_move(prog, 0, 3));           /* 1:1 goes behind 4:4 */
    CHECK_STR_EQ(layout(prog), "2:2 3:3 4:4 1:1");
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 9));
    CHECK_STR_EQ(layout(prog), "5:9 2:2 3:3 4:4 1:1");
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void replace_operands(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_operand v1, v4, s1;
    REQUIRE_OK(wa_program_vreg(&v1, prog, WA_REG_VGPR, 1, 0));
    REQUIRE_OK(wa_program_vreg(&v4, prog, WA_REG_VGPR, 4, 0));
    REQUIRE_OK(wa_program_vreg(&s1, prog, WA_REG_SGPR, 1, 0));
    wa_tag t;
    REQUIRE_OK(wa_build_valu(&t, prog, WA_OP_V_ADD_U32, v1, v1, v1, wa_opnd_none()));
    CHECK_OK(wa_program_set_operand(prog, 0, 1, wa_opnd_imm(5)));
    CHECK_OK(wa_program_set_operand(prog, 0, 2, s1));
    wa_operand rest = v4;
    rest.first = 2;
    rest.count = 0;
    CHECK_OK(wa_program_set_operand(prog, 0, 0, rest));
    wa_instr_view v;
    REQUIRE_OK(wa_program_get(&v, prog, 0));
    CHECK_EQ_UINT(v.tag, t);
    CHECK_EQ_INT(v.operands[1].kind, WA_OPND_IMM);
    CHECK_EQ_INT(v.operands[1].imm.i, 5);
    CHECK_EQ_INT(v.operands[2].reg_class, WA_REG_SGPR);
    CHECK_EQ_UINT(v.operands[0].first, 2);
    CHECK_EQ_UINT(v.operands[0].count, 2);
    /* structural errors leave the operand alone */
    wa_operand ghost = v1;
    ghost.id = 77;
    CHECK_STATUS(wa_program_set_operand(prog, 0, 1, ghost), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "unknown virtual register 77", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_program_set_operand(prog, 0, 1, wa_opnd_fimm(HUGE_VAL)), WA_E_INVALID);
    CHECK_STATUS(wa_program_set_operand(prog, 0, 3, v1), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "operand index 3", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_program_set_operand(prog, 1, 0, v1), WA_E_INVALID);
    CHECK_STATUS(wa_program_set_operand(prog, 0, 0, wa_opnd_none()), WA_E_INVALID);
    REQUIRE_OK(wa_program_get(&v, prog, 0));
    CHECK_EQ_INT(v.operands[1].imm.i, 5);
    /* a label item's operand is fixed */
    wa_label a, b;
    REQUIRE_OK(wa_program_label_create(&a, prog, "a"));
    REQUIRE_OK(wa_program_label_create(&b, prog, "b"));
    REQUIRE_OK(wa_build_label(prog, a));
    CHECK_STATUS(wa_program_set_operand(prog, 1, 0, wa_opnd_label(b)), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "label", UT_ANY, UT_ANY, UT_ANY);
    /* a branch target can be redirected, but only to a label: the text form
       writes nothing else there */
    REQUIRE_OK(wa_build_branch(NULL, prog, WA_OP_S_BRANCH, a));
    CHECK_OK(wa_program_set_operand(prog, 2, 0, wa_opnd_label(b)));
    REQUIRE_OK(wa_program_get(&v, prog, 2));
    CHECK_EQ_UINT(v.operands[0].id, b);
    CHECK_STATUS(wa_program_set_operand(prog, 2, 0, wa_opnd_imm(4)), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "s_branch operand 0 (target) must be a label", UT_ANY,
                    UT_ANY, UT_ANY);
    CHECK_STATUS(wa_program_set_operand(prog, 0, 1, wa_opnd_label(a)), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "a label can only be a branch target", UT_ANY, UT_ANY,
                    UT_ANY);
    REQUIRE_OK(wa_program_get(&v, prog, 2));
    CHECK_EQ_INT(v.operands[0].kind, WA_OPND_LABEL);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Builders refuse what the printer cannot write back: a branch target that is
   not a label, a label anywhere else, modifiers on a label or a comment. What
   they accept prints and parses back to an equal program. */
static void builders_refuse_what_does_not_print(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_label l;
    REQUIRE_OK(wa_program_label_create(&l, prog, "top"));
    REQUIRE_OK(wa_build_label(prog, l));
    wa_operand imm = wa_opnd_imm(3), vreg = wa_opnd_phys(WA_REG_VGPR, 0, 1);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_S_BRANCH, &imm, 1, NULL), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "s_branch operand 0 (target) must be a label", UT_ANY,
                    UT_ANY, UT_ANY);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_S_CBRANCH_SCC1, &vreg, 1, NULL), WA_E_INVALID);
    wa_operand lab = wa_opnd_label(l);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_S_NOP, &lab, 1, NULL), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "s_nop operand 0 (count)|a label can only be a branch target",
                    UT_ANY, UT_ANY, UT_ANY);
    /* labels and comments take no modifiers */
    wa_mods m = WA_MODS_INIT;
    m.offset = 8;
    wa_label l2;
    REQUIRE_OK(wa_program_label_create(&l2, prog, "next"));
    wa_operand lab2 = wa_opnd_label(l2);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_LABEL, &lab2, 1, &m), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "use wa_build_label", UT_ANY, UT_ANY, UT_ANY);
    REQUIRE_OK(wa_build_comment(prog, "a comment"));
    CHECK_STATUS(wa_program_set_mods(prog, 0, &m), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "a label takes no modifiers", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_program_set_mods(prog, 1, &m), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "a comment takes no modifiers", UT_ANY, UT_ANY, UT_ANY);
    wa_mods dflt = WA_MODS_INIT;
    CHECK_OK(wa_program_set_mods(prog, 1, &dflt)); /* the defaults are fine */
    REQUIRE_OK(wa_build_branch(NULL, prog, WA_OP_S_CBRANCH_SCC1, l));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    /* what was accepted round-trips */
    char *text = ut_print(prog);
    REQUIRE(text != NULL);
    wa_program *again = ut_parse(ctx, text);
    CHECK(again && wa_program_equal(prog, again));
    wa_free(text);
    wa_program_destroy(again);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void replace_mods(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_operand v1, s4;
    REQUIRE_OK(wa_program_vreg(&v1, prog, WA_REG_VGPR, 1, 0));
    REQUIRE_OK(wa_program_vreg(&s4, prog, WA_REG_SGPR, 4, 0));
    wa_mods m = WA_MODS_INIT;
    m.flags = WA_MOD_OFFEN | WA_MOD_LDS;
    REQUIRE_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORD, wa_opnd_none(), v1, s4,
                              wa_opnd_imm(0), &m));
    REQUIRE_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORD, v1, v1, s4, wa_opnd_imm(0), NULL));
    wa_mods n = WA_MODS_INIT;
    n.flags = WA_MOD_OFFEN | WA_MOD_GLC;
    n.offset = 64;
    CHECK_OK(wa_program_set_mods(prog, 1, &n));
    wa_instr_view v;
    REQUIRE_OK(wa_program_get(&v, prog, 1));
    CHECK_EQ_HEX(v.mods->flags, WA_MOD_OFFEN | WA_MOD_GLC);
    CHECK_EQ_INT(v.mods->offset, 64);
    CHECK_EQ_UINT(v.mods->version, WA_MODS_VERSION);
    /* the lds form keeps its modifier */
    CHECK_OK(wa_program_set_mods(prog, 0, &n));
    REQUIRE_OK(wa_program_get(&v, prog, 0));
    CHECK_EQ_HEX(v.mods->flags, WA_MOD_OFFEN | WA_MOD_GLC | WA_MOD_LDS);
    n.version = 0;
    CHECK_STATUS(wa_program_set_mods(prog, 1, &n), WA_E_INVALID);
    n.version = WA_MODS_VERSION;
    CHECK_STATUS(wa_program_set_mods(prog, 2, &n), WA_E_INVALID);
    CHECK_STATUS(wa_program_set_mods(prog, 0, NULL), WA_E_INVALID);
    REQUIRE_OK(wa_program_get(&v, prog, 1));
    CHECK_EQ_INT(v.mods->offset, 64);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void comments_and_tags(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = nops(ctx, 3);
    REQUIRE(prog);
    wa_instr_view v;
    CHECK_OK(wa_program_set_comment(prog, 1, "first"));
    REQUIRE_OK(wa_program_get(&v, prog, 1));
    CHECK_STR_EQ(v.comment, "first");
    CHECK_OK(wa_program_set_comment(prog, 1, "second"));
    REQUIRE_OK(wa_program_get(&v, prog, 1));
    CHECK_STR_EQ(v.comment, "second");
    /* comments follow the instruction */
    CHECK_OK(wa_program_move(prog, 1, 0));
    REQUIRE_OK(wa_program_get(&v, prog, 0));
    CHECK_STR_EQ(v.comment, "second");
    CHECK_EQ_UINT(v.tag, 1);
    CHECK_OK(wa_program_set_comment(prog, 1, NULL));
    REQUIRE_OK(wa_program_get(&v, prog, 0));
    CHECK(v.comment == NULL);
    CHECK_STATUS(wa_program_set_comment(prog, 1, "a\nb"), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "control character", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_program_set_comment(prog, 9, "x"), WA_E_NOT_FOUND);
    CHECK_LAST_DIAG(ctx, WA_E_NOT_FOUND, "I9", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_program_set_comment(prog, WA_NO_TAG, "x"), WA_E_NOT_FOUND);
    /* the caller's buffer may change afterwards */
    char buf[16] = "mutable";
    CHECK_OK(wa_program_set_comment(prog, 2, buf));
    buf[0] = 'X';
    unsigned idx;
    REQUIRE_OK(wa_program_find_tag(&idx, prog, 2));
    REQUIRE_OK(wa_program_get(&v, prog, idx));
    CHECK_STR_EQ(v.comment, "mutable");
    /* labels and comments have no tag */
    REQUIRE_OK(wa_build_comment(prog, "note"));
    CHECK_STATUS(wa_program_find_tag(&idx, prog, WA_NO_TAG), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_program_find_tag(NULL, prog, 0), WA_E_INVALID);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void clone_and_equal(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char text[] = ".kernel k\n"
                               "  .target gfx942\n"
                               "  .workgroup_size 256, 1, 1\n"
                               "  .lds_bytes 1024\n"
                               "  .arg a, global_buffer, size:8\n"
                               "  .arg n, by_value, size:4\n"
                               "  s_load_dwordx2 %s0<2,align=2>, s[0:1], 0 ; @I4 load\n"
                               "  ; a comment\n"
                               "top:\n"
                               "  v_mov_b32 %v2, 1.5\n"
                               "  s_waitcnt lgkmcnt(0)\n"
                               "  global_store_dword v0, %v2, %s0 offset:16\n"
                               "  s_cbranch_scc1 top\n"
                               "  s_endpgm\n"
                               ".end_kernel\n";
    wa_program *a = ut_parse(ctx, text);
    REQUIRE(a);
    wa_program *b = NULL;
    REQUIRE_OK(wa_program_clone(&b, a));
    CHECK(wa_program_equal(a, b));
    CHECK(wa_program_equal(b, a));
    CHECK(wa_program_equal(a, a));
    CHECK(wa_program_equal(NULL, NULL));
    CHECK(!wa_program_equal(a, NULL));
    CHECK(!wa_program_equal(NULL, a));
    CHECK(wa_program_context(b) == ctx);
    /* the clone keeps the source positions */
    wa_instr_view va, vb;
    REQUIRE_OK(wa_program_get(&va, a, 3));
    REQUIRE_OK(wa_program_get(&vb, b, 3));
    CHECK_EQ_UINT(va.line, 10);
    CHECK_EQ_UINT(vb.line, 10);
    CHECK_EQ_UINT(vb.col, 3);
    CHECK(va.operands != vb.operands);
    /* both continue with the same next tag */
    wa_tag ta, tb;
    CHECK_OK(wa_build_sopp(&ta, a, WA_OP_S_NOP, 1));
    CHECK(!wa_program_equal(a, b));
    CHECK_OK(wa_build_sopp(&tb, b, WA_OP_S_NOP, 1));
    CHECK_EQ_UINT(ta, tb);
    CHECK_EQ_UINT(ta, 10);
    CHECK(wa_program_equal(a, b));

    /* each kind of difference is seen */
    wa_program *c = NULL;
#define DIFFERS(edit)                                          \
    do {                                                       \
        REQUIRE_OK(wa_program_clone(&c, a));                   \
        CHECK(wa_program_equal(a, c));                         \
        CHECK_OK(edit);                                        \
        CHECK_MSG(!wa_program_equal(a, c), "%s not seen", #edit); \
        wa_program_destroy(c);                                 \
    } while (0)
    wa_mods m = WA_MODS_INIT;
    m.offset = 20;
    wa_kernel_arg arg = WA_KERNEL_ARG_INIT;
    wa_operand nv;
    DIFFERS(wa_program_set_name(c, "other"));
    DIFFERS(wa_program_set_target(c, WA_TARGET_GFX950));
    DIFFERS(wa_program_set_workgroup_size(c, 256, 2, 1));
    DIFFERS(wa_program_set_lds_bytes(c, 1028));
    DIFFERS(wa_program_set_abi_inputs(c, 0));
    DIFFERS(wa_program_add_arg(NULL, c, &arg));
    DIFFERS(wa_program_set_comment(c, 4, "changed"));
    DIFFERS(wa_program_set_comment(c, 4, NULL));
    DIFFERS(wa_program_set_operand(c, 3, 1, wa_opnd_fimm(2.5)));
    DIFFERS(wa_program_set_operand(c, 3, 1, wa_opnd_imm(1)));
    DIFFERS(wa_program_set_mods(c, 5, &m));
    DIFFERS(wa_program_erase(c, 1));
    DIFFERS(wa_program_move(c, 0, 1));
    DIFFERS(wa_build_comment(c, "more"));
    DIFFERS(wa_program_vreg(&nv, c, WA_REG_VGPR, 1, 0));
#undef DIFFERS

    /* positions do not matter: the same program laid out differently */
    static const char spaced[] = "\n\n.kernel k\n"
                                 ".target gfx942\n"
                                 ".workgroup_size 256,1,1\n"
                                 ".lds_bytes 1024\n"
                                 ".arg a, global_buffer, size:8\n"
                                 ".arg n, by_value, size:4\n"
                                 "      s_load_dwordx2   %s0<2,align=2> , s[0:1] , 0 ;   @I4 load\n"
                                 "; a comment\n"
                                 "top:\n"
                                 "v_mov_b32 %v2,1.5\n"
                                 "s_waitcnt lgkmcnt(0)\n"
                                 "global_store_dword v0,%v2,%s0 offset:16\n"
                                 "s_cbranch_scc1 top\n"
                                 "s_endpgm\n"
                                 ".end_kernel";
    wa_program *d = ut_parse(ctx, spaced);
    wa_program *e = ut_parse(ctx, text);
    if (d && e)
        CHECK(wa_program_equal(d, e));
    wa_program_destroy(d);
    wa_program_destroy(e);
    wa_program_destroy(a);
    wa_program_destroy(b);
    CHECK_STATUS(wa_program_clone(NULL, NULL), WA_E_INVALID);
    wa_context_destroy(ctx);
}

/* Edits that keep a program valid or make it invalid, seen by the validator. */
static void edits_and_validation(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, ".kernel k\n"
                                     "  v_mov_b32 v1, 0\n"
                                     "  s_endpgm\n"
                                     ".end_kernel\n");
    REQUIRE(prog);
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    CHECK_OK(wa_program_move(prog, 1, 0)); /* s_endpgm first */
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "last instruction", 2, 3, 0);
    CHECK_OK(wa_program_move(prog, 0, 1));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    CHECK_OK(wa_program_set_operand(prog, 0, 1, wa_opnd_phys(WA_REG_AGPR, 0, 1)));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "AGPR", 2, 3, 0);
    CHECK_OK(wa_program_erase(prog, 0));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

UT_SUITE(
    UT_CASE(builders_refuse_what_does_not_print)
    UT_CASE(insert_point)
    UT_CASE(erase_items)
    UT_CASE(move_items)
    UT_CASE(move_keeps_insert_point)
    UT_CASE(replace_operands)
    UT_CASE(replace_mods)
    UT_CASE(comments_and_tags)
    UT_CASE(clone_and_equal)
    UT_CASE(edits_and_validation)
);
