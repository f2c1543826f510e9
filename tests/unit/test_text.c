/* tests/unit/test_text.c — the text form: print/parse round trips (examples and
   programs built through the API), the printed shape, and instruction tags. */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* print -> parse -> print -> parse: the second print equals the first and every
   parsed program equals `prog` (when `equal_to_prog`). */
static void check_roundtrip(const wa_program *prog, unsigned flags, int equal_to_prog)
{
    wa_context *ctx = wa_program_context(prog);
    char *t1 = ut_print_flags(prog, flags);
    REQUIRE(t1 != NULL);
    wa_program *p2 = NULL;
    wa_status st = wa_program_parse(&p2, ctx, t1, strlen(t1), "printed.wa");
    if (!CHECK_MSG(st == WA_OK, "printed text does not parse (%d):%s\n--- text ---\n%s", (int)st,
                   ut_diags_text(ctx), t1)) {
        wa_free(t1);
        return;
    }
    if (equal_to_prog)
        CHECK_MSG(wa_program_equal(prog, p2), "parse(print(p)) differs from p; text:\n%s", t1);
    char *t2 = ut_print_flags(p2, flags);
    if (t2)
        CHECK_STR_EQ(t2, t1);
    wa_program *p3 = NULL;
    if (t2 && CHECK_OK(wa_program_parse(&p3, ctx, t2, strlen(t2), "printed2.wa"))) {
        CHECK(wa_program_equal(p2, p3));
        wa_program_destroy(p3);
    }
    wa_free(t2);
    wa_free(t1);
    wa_program_destroy(p2);
}

/* ---- examples ------------------------------------------------------------------ */

static void examples_roundtrip(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    CHECK_MSG(n >= 1, "no examples found in %s", ut_examples_dir());
    for (unsigned i = 0; i < n; i++) {
        ut_context("example %s", files[i]);
        size_t len = 0;
        char *text = ut_read_file(files[i], &len, 0);
        if (!CHECK(text != NULL))
            continue;
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        wa_program *p1 = NULL;
        wa_status st = wa_program_parse(&p1, ctx, text, len, files[i]);
        if (CHECK_MSG(st == WA_OK, "example does not parse:%s", ut_diags_text(ctx))) {
            /* examples are valid programs */
            wa_status vst = wa_program_validate(NULL, p1, NULL);
            CHECK_MSG(vst == WA_OK, "example is not valid:%s", ut_diags_text(ctx));
            check_roundtrip(p1, WA_PRINT_TAGS | WA_PRINT_COMMENTS, 1);
            check_roundtrip(p1, WA_PRINT_TAGS, 0);
            check_roundtrip(p1, 0, 0);
            /* parsing from a file gives the same program */
            wa_program *pf = NULL;
            if (CHECK_OK(wa_program_parse_file(&pf, ctx, files[i]))) {
                CHECK(wa_program_equal(p1, pf));
                wa_program_destroy(pf);
            }
        }
        wa_program_destroy(p1);
        wa_context_destroy(ctx);
        free(text);
    }
    ut_context("%s", "");
    ut_free_list(files, n);
}

/* ---- a program that uses every feature of the text form --------------------------- */

static wa_operand vr(wa_program *prog, wa_reg_class cls, unsigned size, unsigned align)
{
    wa_operand o = wa_opnd_none();
    CHECK_OK(wa_program_vreg(&o, prog, cls, size, align));
    return o;
}

static wa_program *kitchen_sink(wa_context *ctx, wa_target target)
{
    wa_program *prog = NULL;
    if (!CHECK_OK(wa_program_create(&prog, ctx, "sink")))
        return NULL;
    CHECK_OK(wa_program_set_target(prog, target));
    CHECK_OK(wa_program_set_workgroup_size(prog, 128, 2, 1));
    CHECK_OK(wa_program_set_lds_bytes(prog, 4096));
    CHECK_OK(wa_program_set_abi_inputs(prog, WA_ABI_BIT(WA_ABI_DISPATCH_PTR) |
                                                 WA_ABI_BIT(WA_ABI_KERNARG_PTR) |
                                                 WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X) |
                                                 WA_ABI_BIT(WA_ABI_WORKGROUP_ID_Z) |
                                                 WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) |
                                                 WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y)));
    /* arguments: named, unnamed, every flag, every kind */
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.name = "src";
    a.kind = WA_ARG_GLOBAL_BUFFER;
    a.size = 8;
    a.flags = WA_ARG_CONST | WA_ARG_RESTRICT;
    CHECK_OK(wa_program_add_arg(NULL, prog, &a));
    a.name = NULL;
    a.kind = WA_ARG_BY_VALUE;
    a.size = 4;
    a.flags = WA_ARG_VOLATILE;
    CHECK_OK(wa_program_add_arg(NULL, prog, &a));
    a.name = "lds";
    a.kind = WA_ARG_DYNAMIC_SHARED_POINTER;
    a.size = 8;
    a.flags = 0;
    a.align = 16;
    CHECK_OK(wa_program_add_arg(NULL, prog, &a));
    for (unsigned k = WA_ARG_HIDDEN_BLOCK_COUNT_X; k < WA_ARG_KIND_COUNT_; k++) {
        wa_kernel_arg h = WA_KERNEL_ARG_INIT;
        h.kind = (wa_arg_kind)k;
        h.size = k == WA_ARG_HIDDEN_GLOBAL_OFFSET_X ? 8 : 4;
        CHECK_OK(wa_program_add_arg(NULL, prog, &h));
    }

    /* registers of every class, size and alignment, some never used */
    wa_operand v1 = vr(prog, WA_REG_VGPR, 1, 0);
    wa_operand v1a2 = vr(prog, WA_REG_VGPR, 1, 2);
    wa_operand v2 = vr(prog, WA_REG_VGPR, 2, 0);
    wa_operand v3 = vr(prog, WA_REG_VGPR, 3, 1);
    wa_operand v4 = vr(prog, WA_REG_VGPR, 4, 4);
    wa_operand v8 = vr(prog, WA_REG_VGPR, 8, 0);
    wa_operand v16 = vr(prog, WA_REG_VGPR, 16, 0);
    wa_operand s1 = vr(prog, WA_REG_SGPR, 1, 0);
    wa_operand s2 = vr(prog, WA_REG_SGPR, 2, 0);
    wa_operand s4 = vr(prog, WA_REG_SGPR, 4, 0);
    wa_operand s8 = vr(prog, WA_REG_SGPR, 8, 8);
    wa_operand a1 = vr(prog, WA_REG_AGPR, 1, 0);
    wa_operand a4 = vr(prog, WA_REG_AGPR, 4, 0);
    wa_operand a16 = vr(prog, WA_REG_AGPR, 16, 0);
    vr(prog, WA_REG_VGPR, 1, 0);  /* unused */
    vr(prog, WA_REG_SGPR, 4, 4);  /* unused */
    vr(prog, WA_REG_AGPR, 2, 2);  /* unused */
    wa_operand late = vr(prog, WA_REG_VGPR, 2, 2);
    wa_operand none = wa_opnd_none();

    wa_label loop, done, anon;
    CHECK_OK(wa_program_label_create(&loop, prog, "loop"));
    CHECK_OK(wa_program_label_create(&done, prog, ".Ldone"));
    CHECK_OK(wa_program_label_create(&anon, prog, NULL));

    wa_tag t;
    wa_mods m;
    CHECK_OK(wa_build_comment(prog, "prologue: load the arguments"));
    CHECK_OK(wa_build_smem(&t, prog, WA_OP_S_LOAD_DWORDX2, s2, wa_opnd_phys(WA_REG_SGPR, 2, 2),
                           wa_opnd_imm(0), NULL));
    CHECK_OK(wa_program_set_comment(prog, t, "src pointer"));
    m = (wa_mods)WA_MODS_INIT;
    m.flags = WA_MOD_GLC;
    CHECK_OK(wa_build_smem(NULL, prog, WA_OP_S_LOAD_DWORDX8, s8, wa_opnd_phys(WA_REG_SGPR, 2, 2),
                           s1, &m));
    CHECK_OK(wa_build_waitcnt(NULL, prog, -1, 0, -1));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, s1, wa_opnd_imm(0x12345678), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, s1, wa_opnd_imm(-70000), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, s1, wa_opnd_imm(65536), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, s1, wa_opnd_imm(65537), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, s1, wa_opnd_imm(INT64_MAX), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, s1, wa_opnd_imm(INT64_MIN), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, s1, wa_opnd_imm(-16), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOVK_I32, wa_opnd_sub(s4, 3, 1), wa_opnd_imm(-32768), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B64, wa_opnd_special(WA_SPECIAL_EXEC),
                           wa_opnd_imm(-1), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, wa_opnd_special(WA_SPECIAL_M0),
                           wa_opnd_special(WA_SPECIAL_EXEC_HI), none));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_AND_SAVEEXEC_B64, wa_opnd_sub(s8, 2, 2),
                           wa_opnd_special(WA_SPECIAL_VCC), none));
    CHECK_OK(wa_build_label(prog, loop));
    /* float immediates */
    static const double floats[] = { 0.5, -2.0, 1.0 / 3.0, 1e-7, 3.0e38, -0.0, 0.0,
                                     0.15915494309189532, 1e20, 65536.0, 123456789.125 };
    for (unsigned i = 0; i < sizeof(floats) / sizeof(floats[0]); i++)
        CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_fimm(floats[i]), none, none));
    CHECK_OK(wa_build_valu(&t, prog, WA_OP_V_ADD_U32, v1a2, wa_opnd_imm(64), v1, none));
    CHECK_OK(wa_program_set_comment(prog, t, "trailing; with a semicolon"));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_CNDMASK_B32, v1, v1, v1, wa_opnd_special(WA_SPECIAL_VCC)));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_CMP_LT_U32, wa_opnd_special(WA_SPECIAL_VCC), v1,
                           wa_opnd_sub(v3, 2, 1), none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_CMP_LT_U32, s2, wa_opnd_special(WA_SPECIAL_VCC_LO),
                           wa_opnd_sub(v4, 1, 1), none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_READFIRSTLANE_B32, s1, wa_opnd_sub(v16, 15, 1), none, none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_WRITELANE_B32, v1, s1, wa_opnd_special(WA_SPECIAL_M0), none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_WRITE_B32, a1, wa_opnd_imm(0), none, none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_READ_B32, v1, wa_opnd_sub(a16, 9, 1), none, none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, wa_opnd_phys(WA_REG_VGPR, 255, 1),
                           wa_opnd_phys(WA_REG_SGPR, 101, 1), none, none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_FMA_F32, v1, wa_opnd_fimm(-4.0), v1, wa_opnd_fimm(0.25)));

    /* memory with every modifier kind */
    m = (wa_mods)WA_MODS_INIT;
    m.flags = WA_MOD_OFFEN | WA_MOD_IDXEN | WA_MOD_GLC | WA_MOD_SLC | WA_MOD_SCC;
    m.offset = 4095;
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORDX4, wa_opnd_sub(v8, 4, 4),
                            wa_opnd_sub(v8, 0, 2), s4, wa_opnd_imm(0), &m));
    m = (wa_mods)WA_MODS_INIT;
    m.flags = WA_MOD_OFFEN | WA_MOD_LDS;
    m.offset = 4;
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORD, none, v1, s4, s1, &m));
    m = (wa_mods)WA_MODS_INIT;
    m.flags = WA_MOD_SLC;
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_STORE_DWORD, wa_opnd_sub(a4, 1, 1),
                            wa_opnd_off(), wa_opnd_phys(WA_REG_SGPR, 8, 4), wa_opnd_imm(-1), &m));
    m = (wa_mods)WA_MODS_INIT;
    m.flags = WA_MOD_GLC;
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_ATOMIC_ADD_F32, v1, v1, s4, wa_opnd_imm(0), &m));
    m = (wa_mods)WA_MODS_INIT;
    m.offset = -4096;
    m.flags = WA_MOD_SCC;
    CHECK_OK(wa_build_global(NULL, prog, WA_OP_GLOBAL_LOAD_DWORDX2, late, v2, wa_opnd_off(), &m));
    m.offset = 12;
    m.flags = 0;
    CHECK_OK(wa_build_global(NULL, prog, WA_OP_GLOBAL_STORE_DWORDX4, v4, v1, s2, &m));
    m = (wa_mods)WA_MODS_INIT;
    m.offset = 65535;
    CHECK_OK(wa_build_ds(NULL, prog, WA_OP_DS_READ_B128, wa_opnd_sub(v16, 4, 4), v1, none, none, &m));
    m.offset = 0;
    m.offset1 = 255;
    CHECK_OK(wa_build_ds(NULL, prog, WA_OP_DS_READ2_B64, a4, v1, none, none, &m));
    m.offset = 7;
    m.offset1 = 0;
    CHECK_OK(wa_build_ds(NULL, prog, WA_OP_DS_WRITE2_B32, none, v1, v1, wa_opnd_sub(v3, 1, 1), &m));
    CHECK_OK(wa_build_ds(NULL, prog, WA_OP_DS_WRITE_B64, none, v1, wa_opnd_sub(v16, 2, 2), none, NULL));

    /* MFMA with broadcast controls, and the scaled form with op_sel */
    m = (wa_mods)WA_MODS_INIT;
    m.cbsz = 2;
    m.abid = 3;
    m.blgp = 5;
    CHECK_OK(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_F32_16X16X16_F16, a4, v2, wa_opnd_sub(v8, 6, 2),
                           a4, none, none, &m));
    CHECK_OK(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_F32_32X32X8_BF16, a16, wa_opnd_sub(v4, 2, 2),
                           v2, wa_opnd_fimm(1.0), none, none, NULL));
    m = (wa_mods)WA_MODS_INIT;
    m.cbsz = 4;
    m.blgp = 2;
    m.op_sel = 5;
    m.op_sel_hi = 2;
    CHECK_OK(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4, v4,
                           wa_opnd_sub(v8, 0, 4), wa_opnd_sub(v16, 0, 6), wa_opnd_imm(0), v1, v1, &m));

    CHECK_OK(wa_build_waitcnt(NULL, prog, 0, 0, 0));
    CHECK_OK(wa_build_waitcnt(NULL, prog, 63, -1, 7));
    CHECK_OK(wa_build_waitcnt(NULL, prog, -1, -1, -1));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_BARRIER, 0));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 15));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_SLEEP, 2));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_SETPRIO, 3));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_CMP_LG_U32, none, s1, wa_opnd_imm(0)));
    CHECK_OK(wa_build_branch(NULL, prog, WA_OP_S_CBRANCH_SCC1, loop));
    CHECK_OK(wa_build_branch(NULL, prog, WA_OP_S_CBRANCH_EXECZ, done));
    CHECK_OK(wa_build_label(prog, anon));
    CHECK_OK(wa_build_comment(prog, ""));
    CHECK_OK(wa_build_comment(prog, "  indented; with @I5 inside"));
    CHECK_OK(wa_build_branch(&t, prog, WA_OP_S_BRANCH, loop));
    CHECK_OK(wa_build_label(prog, done));
    CHECK_OK(wa_build_sopp(&t, prog, WA_OP_S_ENDPGM, 0));
    CHECK_OK(wa_program_set_comment(prog, t, "the end"));
    return prog;
}

static void builder_roundtrip(void)
{
    static const wa_target targets[] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    for (unsigned i = 0; i < 3; i++) {
        ut_context("target %s", wa_target_name(targets[i]));
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        wa_program *prog = kitchen_sink(ctx, targets[i]);
        REQUIRE(prog != NULL);
        check_roundtrip(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS, 1);
        /* without tags the parser numbers the instructions in order, as the builder did */
        check_roundtrip(prog, WA_PRINT_COMMENTS, 1);
        check_roundtrip(prog, 0, 0);
        check_roundtrip(prog, WA_PRINT_TAGS, 0);
        /* a clone prints the same */
        wa_program *c = NULL;
        if (CHECK_OK(wa_program_clone(&c, prog))) {
            char *t1 = ut_print(prog), *t2 = ut_print(c);
            CHECK_STR_EQ(t2, t1);
            wa_free(t1);
            wa_free(t2);
            wa_program_destroy(c);
        }
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
    }
    ut_context("%s", "");
}

/* The printed shape of the kitchen sink: spellings a reader (and docs) rely on. */
static void printed_shape(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = kitchen_sink(ctx, WA_TARGET_GFX942);
    REQUIRE(prog);
    char *t = ut_print(prog);
    REQUIRE(t);
    static const char head[] =
        ".kernel sink\n  .target gfx942\n  .workgroup_size 128, 2, 1\n  .lds_bytes 4096\n";
    CHECK_MSG(strncmp(t, head, strlen(head)) == 0, "header:\n%s", t);
    CHECK_STR_CONTAINS(t, "  .abi dispatch_ptr, kernarg_ptr, workgroup_id_x, workgroup_id_z, workitem_id_x, workitem_id_y\n");
    CHECK_STR_CONTAINS(t, "  .arg src, global_buffer, offset:0, size:8, align:8, const, restrict\n");
    CHECK_STR_CONTAINS(t, "  .arg -, by_value, offset:8, size:4, align:4, volatile\n");
    CHECK_STR_CONTAINS(t, "  .arg lds, dynamic_shared_pointer, offset:16, size:8, align:16\n");
    CHECK_STR_CONTAINS(t, "  .arg -, hidden_block_count_x, offset:24, size:4, align:4\n");
    CHECK_STR_CONTAINS(t, "  .vreg %v14, %s15<4,align=4>, %a16<2,align=2>\n");
    /* shapes at the first mention, bare names afterwards */
    CHECK_STR_CONTAINS(t, "s_load_dwordx2 %s8<2,align=2>, s[2:3], 0");
    CHECK_STR_CONTAINS(t, "; @I0 src pointer\n");
    CHECK_STR_CONTAINS(t, "s_load_dwordx8 %s10<8,align=8>, s[2:3], %s7 glc");
    CHECK_STR_CONTAINS(t, "s_movk_i32 %s9<4,align=4>[3], -32768");
    CHECK_STR_CONTAINS(t, "s_mov_b32 %s7, 0x12345678");
    CHECK_STR_CONTAINS(t, "s_mov_b32 %s7, -70000");
    CHECK_STR_CONTAINS(t, "s_mov_b32 %s7, 0x10001");
    CHECK_STR_CONTAINS(t, "s_mov_b32 %s7, -9223372036854775808");
    CHECK_STR_CONTAINS(t, "s_mov_b64 exec, -1");
    CHECK_STR_CONTAINS(t, "s_mov_b32 m0, exec_hi");
    CHECK_STR_CONTAINS(t, "s_and_saveexec_b64 %s10[2:3], vcc");
    CHECK_STR_CONTAINS(t, "\nloop:\n");
    CHECK_STR_CONTAINS(t, "v_mov_b32 %v0, 0.5 ");
    CHECK_STR_CONTAINS(t, "v_mov_b32 %v0, -2.0 ");
    CHECK_STR_CONTAINS(t, "v_mov_b32 %v0, -0.0 ");
    CHECK_STR_CONTAINS(t, "v_add_u32 %v1<1,align=2>, 64, %v0");
    CHECK_STR_CONTAINS(t, "; @I");
    CHECK_STR_CONTAINS(t, " trailing; with a semicolon\n");
    CHECK_STR_CONTAINS(t, "v_cmp_lt_u32 vcc, %v0, %v3<3,align=1>[2]");
    CHECK_STR_CONTAINS(t, "v_cmp_lt_u32_e64 %s8, vcc_lo, %v4<4,align=4>[1]");
    CHECK_STR_CONTAINS(t, "v_accvgpr_read_b32 %v0, %a13<16,align=2>[9]");
    CHECK_STR_CONTAINS(t, "v_readfirstlane_b32 %s7, %v6<16,align=2>[15]");
    CHECK_STR_CONTAINS(t, "v_mov_b32 v255, s101");
    CHECK_STR_CONTAINS(t, "buffer_load_dwordx4 %v5<8,align=2>[4:7], %v5[0:1], %s9, 0 idxen offen offset:4095 sc0 sc1 nt");
    CHECK_STR_CONTAINS(t, "buffer_load_dword %v0, %s9, %s7 offen offset:4 lds");
    CHECK_STR_CONTAINS(t, "buffer_store_dword %a12<4,align=2>[1], off, s[8:11], -1 nt");
    CHECK_STR_CONTAINS(t, "global_load_dwordx2 %v17<2,align=2>, %v2<2,align=2>, off offset:-4096 sc1");
    CHECK_STR_CONTAINS(t, "ds_read2_b64 %a12, %v0 offset1:255");
    CHECK_STR_CONTAINS(t, "ds_write2_b32 %v0, %v0, %v3[1] offset0:7");
    CHECK_STR_CONTAINS(t, "cbsz:2 abid:3 blgp:5");
    CHECK_STR_CONTAINS(t, "op_sel:[1,0,1] op_sel_hi:[0,1,0] cbsz:4 blgp:2");
    CHECK_STR_CONTAINS(t, "s_waitcnt vmcnt(63) expcnt(7) ");
    CHECK_STR_CONTAINS(t, "s_waitcnt lgkmcnt(0) ");
    CHECK_STR_CONTAINS(t, "s_cbranch_execz .Ldone");
    CHECK_STR_CONTAINS(t, "\nL2:\n  ;\n  ;   indented; with @I5 inside\n");
    CHECK_STR_CONTAINS(t, "s_endpgm");
    CHECK_STR_CONTAINS(t, " the end\n.end_kernel\n");
    wa_free(t);

    /* gfx90a spells the cache bits and the MFMAs its own way */
    CHECK_OK(wa_program_set_target(prog, WA_TARGET_GFX90A));
    t = ut_print(prog);
    REQUIRE(t);
    CHECK_STR_CONTAINS(t, "0 idxen offen offset:4095 glc scc slc");
    CHECK_STR_CONTAINS(t, "v_mfma_f32_16x16x16f16 %a12, ");
    CHECK_STR_CONTAINS(t, "v_mfma_f32_32x32x8bf16_1k ");
    CHECK_STR_NOT_CONTAINS(t, " sc0");
    wa_free(t);

    /* without comments: no comment lines and no trailing comments */
    t = ut_print_flags(prog, WA_PRINT_TAGS);
    REQUIRE(t);
    CHECK_STR_NOT_CONTAINS(t, "prologue");
    CHECK_STR_NOT_CONTAINS(t, "src pointer");
    CHECK_STR_CONTAINS(t, "; @I0\n");
    wa_free(t);
    t = ut_print_flags(prog, 0);
    REQUIRE(t);
    CHECK_STR_NOT_CONTAINS(t, ";");
    wa_free(t);

    /* bad options */
    wa_print_options o = WA_PRINT_OPTIONS_INIT;
    o.version = 0;
    char *out = (char *)&o;
    CHECK_STATUS(wa_program_print(&out, NULL, prog, &o), WA_E_INVALID);
    CHECK(out == NULL);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "version", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_program_print(NULL, NULL, prog, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_program_print(&out, NULL, NULL, NULL), WA_E_INVALID);
    /* NULL options are the defaults */
    size_t len = 0;
    REQUIRE_OK(wa_program_print(&out, &len, prog, NULL));
    char *t2 = ut_print(prog);
    CHECK_STR_EQ(out, t2);
    CHECK_EQ_UINT(len, strlen(t2 ? t2 : ""));
    wa_free(out);
    wa_free(t2);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* One small program printed exactly. */
static void golden_print(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "tiny"));
    wa_operand p, v, kernarg;
    REQUIRE_OK(wa_program_abi_reg(&kernarg, prog, WA_ABI_KERNARG_PTR));
    REQUIRE_OK(wa_program_vreg(&p, prog, WA_REG_SGPR, 2, 0));
    REQUIRE_OK(wa_program_vreg(&v, prog, WA_REG_VGPR, 1, 0));
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.name = "out";
    a.kind = WA_ARG_GLOBAL_BUFFER;
    a.size = 8;
    REQUIRE_OK(wa_program_add_arg(NULL, prog, &a));
    REQUIRE_OK(wa_build_smem(NULL, prog, WA_OP_S_LOAD_DWORDX2, p, kernarg, wa_opnd_imm(0), NULL));
    REQUIRE_OK(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v, wa_opnd_imm(42), wa_opnd_none(), wa_opnd_none()));
    REQUIRE_OK(wa_build_waitcnt(NULL, prog, -1, 0, -1));
    wa_operand addr = wa_opnd_phys(WA_REG_VGPR, 0, 1);
    REQUIRE_OK(wa_build_global(NULL, prog, WA_OP_GLOBAL_STORE_DWORD, v, addr, p, NULL));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    char *t = ut_print(prog);
    CHECK_STR_EQ(t, ".kernel tiny\n"
                    "  .target gfx942\n"
                    "  .workgroup_size 64, 1, 1\n"
                    "  .lds_bytes 0\n"
                    "  .abi kernarg_ptr, workitem_id_x\n"
                    "  .arg out, global_buffer, offset:0, size:8, align:8\n"
                    "  s_load_dwordx2 %s0<2,align=2>, s[0:1], 0      ; @I0\n"
                    "  v_mov_b32 %v1, 42                             ; @I1\n"
                    "  s_waitcnt lgkmcnt(0)                          ; @I2\n"
                    "  global_store_dword v0, %v1, %s0               ; @I3\n"
                    "  s_endpgm                                      ; @I4\n"
                    ".end_kernel\n");
    wa_free(t);
    /* print_item: one line without indentation or shapes */
    char *item = NULL;
    CHECK_OK(wa_program_print_item(&item, prog, 0, NULL));
    CHECK_STR_EQ(item, "s_load_dwordx2 %s0, s[0:1], 0 ; @I0");
    wa_free(item);
    wa_print_options notags = { WA_PRINT_OPTIONS_VERSION, 0 };
    CHECK_OK(wa_program_print_item(&item, prog, 3, &notags));
    CHECK_STR_EQ(item, "global_store_dword v0, %v1, %s0");
    wa_free(item);
    item = (char *)&notags;
    CHECK_STATUS(wa_program_print_item(&item, prog, 5, NULL), WA_E_INVALID);
    CHECK(item == NULL);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "out of range", UT_ANY, UT_ANY, WA_NO_TAG);
    wa_label l;
    REQUIRE_OK(wa_program_label_create(&l, prog, "here"));
    REQUIRE_OK(wa_build_label(prog, l));
    REQUIRE_OK(wa_build_comment(prog, "note"));
    CHECK_OK(wa_program_print_item(&item, prog, 5, NULL));
    CHECK_STR_EQ(item, "here:");
    wa_free(item);
    /* "as it appears in the text form (no indentation, no newline)" */
    CHECK_OK(wa_program_print_item(&item, prog, 6, NULL));
    CHECK_STR_EQ(item, "; note");
    wa_free(item);
    /* a trailing comment is part of the item when comments are asked for */
    REQUIRE_OK(wa_program_set_comment(prog, 0, "kernarg"));
    CHECK_OK(wa_program_print_item(&item, prog, 0, NULL));
    CHECK_STR_EQ(item, "s_load_dwordx2 %s0, s[0:1], 0 ; @I0 kernarg");
    wa_free(item);
    wa_print_options tags_only = { WA_PRINT_OPTIONS_VERSION, WA_PRINT_TAGS };
    CHECK_OK(wa_program_print_item(&item, prog, 0, &tags_only));
    CHECK_STR_EQ(item, "s_load_dwordx2 %s0, s[0:1], 0 ; @I0");
    wa_free(item);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- round trips that stress names and ids --------------------------------------- */

/* Labels are numbered by creation in the builder; the text must keep that. */
static void roundtrip_label_ids(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_label first, second;
    REQUIRE_OK(wa_program_label_create(&first, prog, "first"));
    REQUIRE_OK(wa_program_label_create(&second, prog, "second"));
    /* the text mentions `second` before `first` */
    REQUIRE_OK(wa_build_branch(NULL, prog, WA_OP_S_CBRANCH_SCC0, second));
    REQUIRE_OK(wa_build_label(prog, first));
    REQUIRE_OK(wa_build_label(prog, second));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    check_roundtrip(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS, 1);
    wa_program_destroy(prog);

    /* a label that is created but never placed nor used is still part of the program */
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_label spare;
    REQUIRE_OK(wa_program_label_create(&spare, prog, "spare"));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    check_roundtrip(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS, 1);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Names the API accepts must survive the text form (or be refused up front). */
static void roundtrip_names(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char *const label_names[] = { "v1", "s0", "a2", "v1x", "exec", "vcc", "m0", "off",
                                               "scc", ".kernel", ".end_kernel" };
    for (unsigned i = 0; i < sizeof(label_names) / sizeof(label_names[0]); i++) {
        ut_context("label named '%s'", label_names[i]);
        wa_program *prog = NULL;
        REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
        wa_label l;
        if (wa_program_label_create(&l, prog, label_names[i]) == WA_OK) {
            CHECK_OK(wa_build_label(prog, l));
            CHECK_OK(wa_build_branch(NULL, prog, WA_OP_S_BRANCH, l));
            check_roundtrip(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS, 1);
        }
        wa_program_destroy(prog);
    }
    static const char *const arg_names[] = { "a b", "x,y", "-", "n;m", "0size" };
    for (unsigned i = 0; i < sizeof(arg_names) / sizeof(arg_names[0]); i++) {
        ut_context("argument named '%s'", arg_names[i]);
        wa_program *prog = NULL;
        REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
        wa_kernel_arg a = WA_KERNEL_ARG_INIT;
        a.name = arg_names[i];
        if (wa_program_add_arg(NULL, prog, &a) == WA_OK) {
            CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
            check_roundtrip(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS, 1);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* Comments are kept as given (or refused up front). */
static void roundtrip_comments(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char *const texts[] = { "", "trailing space ", "\ttab", " lead", "a  b",
                                         "bell\a", "esc\x1b[0m" };
    for (unsigned i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        ut_context("comment \"%s\"", texts[i]);
        wa_program *prog = NULL;
        REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
        wa_tag t;
        REQUIRE_OK(wa_build_sopp(&t, prog, WA_OP_S_NOP, 0));
        wa_status st1 = wa_program_set_comment(prog, t, texts[i]);
        wa_status st2 = wa_build_comment(prog, texts[i]);
        REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
        if (st1 == WA_OK || st2 == WA_OK) {
            check_roundtrip(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS, 1);
            check_roundtrip(prog, WA_PRINT_COMMENTS, 1);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* Finite float immediates the builder accepts must read back. */
static void roundtrip_float_extremes(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const double values[] = { 1e-310, 4.9406564584124654e-324, 2.2250738585072014e-308,
                                     1.7976931348623157e308, -1e-300, 1e300 };
    for (unsigned i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        ut_context("float %.17g", values[i]);
        wa_program *prog = NULL;
        REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
        wa_operand v;
        REQUIRE_OK(wa_program_vreg(&v, prog, WA_REG_VGPR, 1, 0));
        REQUIRE_OK(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v, wa_opnd_fimm(values[i]),
                                 wa_opnd_none(), wa_opnd_none()));
        check_roundtrip(prog, WA_PRINT_TAGS, 1);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* ---- tags ---------------------------------------------------------------------------- */

static wa_tag tag_at(const wa_program *prog, unsigned index)
{
    wa_instr_view v;
    if (!CHECK_OK(wa_program_get(&v, prog, index)))
        return WA_NO_TAG;
    return v.tag;
}

static void tags_preserved(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char text[] = ".kernel k\n"
                               "  s_nop 0 ; @I7\n"
                               "  s_nop 1 ; @I3 three\n"
                               "  s_nop 2 ;@I12\n"
                               "  s_nop 3 ; not a tag\n"
                               "  s_nop 4 ; @Ix neither\n"
                               "  s_endpgm ; @I5\n"
                               ".end_kernel\n";
    wa_program *prog = ut_parse(ctx, text);
    REQUIRE(prog);
    CHECK_EQ_UINT(tag_at(prog, 0), 7);
    CHECK_EQ_UINT(tag_at(prog, 1), 3);
    CHECK_EQ_UINT(tag_at(prog, 2), 12);
    CHECK_EQ_UINT(tag_at(prog, 3), 13);
    CHECK_EQ_UINT(tag_at(prog, 4), 14);
    CHECK_EQ_UINT(tag_at(prog, 5), 5);
    wa_instr_view v;
    REQUIRE_OK(wa_program_get(&v, prog, 1));
    CHECK_STR_EQ(v.comment, "three");
    REQUIRE_OK(wa_program_get(&v, prog, 0));
    CHECK(v.comment == NULL);
    REQUIRE_OK(wa_program_get(&v, prog, 3));
    CHECK_STR_EQ(v.comment, "not a tag");
    REQUIRE_OK(wa_program_get(&v, prog, 4));
    CHECK_STR_EQ(v.comment, "@Ix neither");
    /* new instructions continue after the largest tag */
    wa_tag t = 0;
    REQUIRE_OK(wa_program_set_insert_point(prog, 0));
    CHECK_OK(wa_build_sopp(&t, prog, WA_OP_S_NOP, 5));
    CHECK_EQ_UINT(t, 15);
    unsigned idx = 99;
    CHECK_OK(wa_program_find_tag(&idx, prog, 3));
    CHECK_EQ_UINT(idx, 2);
    /* and the tags survive printing */
    char *t1 = ut_print(prog);
    CHECK_STR_CONTAINS(t1, "s_nop 5 ");
    CHECK_STR_CONTAINS(t1, "; @I15\n");
    CHECK_STR_CONTAINS(t1, "; @I3 three\n");
    CHECK_STR_CONTAINS(t1, "; @I13 not a tag\n");
    wa_free(t1);
    check_roundtrip(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS, 1);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* An instruction typed without a tag in front of tagged ones (what a person or
   an LLM editing the text does) gets a fresh tag, not one that is taken. */
static void tags_untagged_before_tagged(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char text[] = ".kernel k\n"
                               "  s_nop 9\n"
                               "  s_nop 0 ; @I0\n"
                               "  s_nop 1 ; @I1\n"
                               "  s_endpgm ; @I2\n"
                               ".end_kernel\n";
    wa_program *prog = ut_parse(ctx, text);
    REQUIRE(prog);
    CHECK_EQ_UINT(tag_at(prog, 1), 0);
    CHECK_EQ_UINT(tag_at(prog, 2), 1);
    CHECK_EQ_UINT(tag_at(prog, 3), 2);
    wa_tag fresh = tag_at(prog, 0);
    CHECK_MSG(fresh != 0 && fresh != 1 && fresh != 2 && fresh != WA_NO_TAG,
              "untagged instruction got tag %u, which another instruction has", fresh);
    wa_status vst = wa_program_validate(NULL, prog, NULL);
    CHECK_MSG(vst == WA_OK, "program is not valid:%s", ut_diags_text(ctx));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* The largest tag the text can carry; the next instruction must still get a
   usable tag (or the build must fail), never WA_NO_TAG. */
static void tags_at_the_limit(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char text[] = ".kernel k\n"
                               "  s_endpgm ; @I4294967294\n"
                               ".end_kernel\n";
    wa_program *prog = ut_parse(ctx, text);
    REQUIRE(prog);
    CHECK_EQ_UINT(tag_at(prog, 0), 4294967294u);
    wa_tag t = 0;
    wa_status st = wa_build_sopp(&t, prog, WA_OP_S_NOP, 0);
    if (st == WA_OK) {
        CHECK_MSG(t != WA_NO_TAG, "new instruction got WA_NO_TAG as its tag");
        unsigned idx;
        CHECK_OK(wa_program_find_tag(&idx, prog, t));
    } else {
        CHECK(wa_context_last_diag(ctx) != NULL);
    }
    wa_program_destroy(prog);
    /* WA_NO_TAG itself is not a tag */
    wa_program *bad = NULL;
    CHECK_STATUS(ut_parse_body(&bad, ctx, "gfx942", "  s_endpgm ; @I4294967295\n"), WA_E_RANGE);
    CHECK_LAST_DIAG(ctx, WA_E_RANGE, "tag", 3, 14, WA_NO_TAG);
    CHECK_STATUS(ut_parse_body(&bad, ctx, "gfx942", "  s_endpgm ; @I4294967296\n"), WA_E_RANGE);
    CHECK_STATUS(ut_parse_body(&bad, ctx, "gfx942", "  s_endpgm ; @I7x\n"), WA_E_PARSE);
    CHECK_LAST_DIAG(ctx, WA_E_PARSE, "unexpected 'x'", 3, 17, WA_NO_TAG);
    CHECK_STATUS(ut_parse_body(&bad, ctx, "gfx942", "  s_endpgm ; @I7;x\n"), WA_E_PARSE);
    CHECK_LAST_DIAG(ctx, WA_E_PARSE, "space after the tag", 3, 17, WA_NO_TAG);
    CHECK(bad == NULL);
    wa_context_destroy(ctx);
}

/* Printing without tags and parsing renumbers in program order. */
static void tags_renumbered_without_print_tags(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, ".kernel k\n  s_nop 0 ; @I40\n  s_endpgm ; @I7\n.end_kernel\n");
    REQUIRE(prog);
    char *t = ut_print_flags(prog, WA_PRINT_COMMENTS);
    REQUIRE(t);
    CHECK_STR_NOT_CONTAINS(t, "@I");
    wa_program *p2 = ut_parse(ctx, t);
    if (p2) {
        CHECK_EQ_UINT(tag_at(p2, 0), 0);
        CHECK_EQ_UINT(tag_at(p2, 1), 1);
        CHECK(!wa_program_equal(prog, p2));
        wa_program_destroy(p2);
    }
    wa_free(t);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* hwreg(...) operands: every id, offset and size prints in llvm-mc's form (a name
   where the target has one, the short form for a whole register) and reads back;
   written forms the printer does not produce read to the same field; malformed
   ones are errors at their column. */
static void hwreg_operands(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (int t = WA_TARGET_GFX90A; t <= WA_TARGET_GFX950; t++) {
        wa_program *prog = NULL;
        REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
        REQUIRE_OK(wa_program_set_target(prog, (wa_target)t));
        for (unsigned id = 0; id < 64; id++) {
            unsigned off = (id * 7) % 32, size = 1 + (id * 13) % 32;
            CHECK_OK(wa_build_hwreg(NULL, prog, WA_OP_S_GETREG_B32, WA_HWREG(id, off, size),
                                    wa_opnd_phys(WA_REG_SGPR, id % 100, 1)));
            CHECK_OK(wa_build_hwreg(NULL, prog, WA_OP_S_SETREG_B32, WA_HWREG(id, 0, 32),
                                    wa_opnd_special(WA_SPECIAL_M0)));
        }
        CHECK_OK(wa_build_hwreg(NULL, prog, WA_OP_S_SETREG_IMM32_B32, WA_HWREG(1, 0, 4),
                                wa_opnd_imm(-2147483647 - 1)));
        CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
        ut_context("%s", wa_target_name((wa_target)t));
        check_roundtrip(prog, 0, 1);
        char *text = ut_print_flags(prog, 0);
        if (text) {
            CHECK_STR_CONTAINS(text, "s_setreg_b32 hwreg(HW_REG_MODE), m0\n");
            CHECK_STR_CONTAINS(text, "s_getreg_b32 s1, hwreg(HW_REG_MODE, 7, 14)\n");
            CHECK_STR_CONTAINS(text, "s_setreg_b32 hwreg(0), m0\n");
            CHECK_STR_CONTAINS(text, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), -2147483648\n");
            CHECK_STR_CONTAINS(text, t == WA_TARGET_GFX90A ? "s_setreg_b32 hwreg(20), m0\n"
                                                           : "s_setreg_b32 hwreg(HW_REG_XCC_ID), m0\n");
        }
        wa_free(text);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    /* other spellings of the same fields */
    static const struct {
        const char *in;
        unsigned field;
    } same[] = {
        { "hwreg(HW_REG_MODE, 0, 32)", 0xF801u }, { "hwreg( 1 )", 0xF801u },
        { "hwreg(HW_REG_STATUS,4,3)", 0x1102u }, { "0xf804", 0xF804u }, { "4100", 4100u },
    };
    for (unsigned i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        char body[160];
        snprintf(body, sizeof(body), "  s_getreg_b32 s0, %s\n  s_endpgm\n", same[i].in);
        wa_program *prog = NULL;
        ut_context("%s", same[i].in);
        if (CHECK_OK(ut_parse_body(&prog, ctx, "gfx942", body))) {
            wa_instr_view v;
            CHECK_OK(wa_program_get(&v, prog, 0));
            CHECK_EQ_INT(v.operands[1].kind, WA_OPND_IMM);
            CHECK_EQ_HEX((unsigned)v.operands[1].imm.i, same[i].field);
        }
        wa_program_destroy(prog);
    }
    /* errors point at the offending text */
    static const struct {
        const char *in;
        const char *words;
        unsigned col;
    } bad[] = {
        { "  s_getreg_b32 s0, hwreg(HW_REG_FOO)\n", "unknown hardware register 'HW_REG_FOO'", 26 },
        { "  s_getreg_b32 s0, hwreg(64)\n", "hardware register id out of range (0..63)", 26 },
        { "  s_getreg_b32 s0, hwreg(1, 32, 1)\n", "hwreg bit offset out of range (0..31)", 29 },
        { "  s_getreg_b32 s0, hwreg(1, 0, 0)\n", "hwreg bit-field size out of range (1..32)", 32 },
        { "  s_getreg_b32 s0, hwreg(1, 0)\n", "expected ',' and the bit-field size", 30 },
        { "  s_getreg_b32 s0, hwreg(1\n", "expected ')' to close hwreg before end of line", 27 },
        { "  s_getreg_b32 s0, hwreg 1\n", "expected '(' after hwreg", 26 },
        { "  s_getreg_b32 s0, hwreg(HW_REG_MODE)) \n", "unexpected ')'", 38 },
        { "  s_mov_b32 s0, hwreg(1)\n", "unknown operand 'hwreg'", 17 },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        wa_program *prog = NULL;
        ut_context("%s", bad[i].in);
        wa_status st = ut_parse_body(&prog, ctx, "gfx942", bad[i].in);
        if (CHECK_MSG(st != WA_OK, "parsed: %s", bad[i].in))
            CHECK_DIAG(ctx, st, bad[i].words, UT_ANY, bad[i].col, UT_ANY);
        wa_program_destroy(prog);
    }
    /* a name of another target */
    wa_program *prog = NULL;
    wa_status st = ut_parse_body(&prog, ctx, "gfx90a", "  s_getreg_b32 s0, hwreg(HW_REG_XCC_ID)\n");
    if (CHECK(st != WA_OK))
        CHECK_DIAG(ctx, st, "'HW_REG_XCC_ID' is not available on gfx90a", UT_ANY, 26, UT_ANY);
    wa_program_destroy(prog);
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* DPP modifiers: every control prints as llvm-mc prints it and reads back; the
   bare mnemonic with a control means DPP too; mistakes are errors at their column. */
static void dpp_modifiers(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_operand v0 = wa_opnd_phys(WA_REG_VGPR, 0, 1), v1 = wa_opnd_phys(WA_REG_VGPR, 1, 1);
    unsigned built = 0;
    for (unsigned ctrl = 0; ctrl <= 0x1FF; ctrl++) {
        wa_mods m = WA_MODS_INIT;
        m.flags = WA_MOD_DPP | (ctrl % 3 == 0 ? WA_MOD_BOUND_CTRL : 0);
        m.dpp_ctrl = (uint16_t)ctrl;
        m.row_mask = (uint8_t)(ctrl % 16);
        m.bank_mask = (uint8_t)(15 - ctrl % 16);
        if (CHECK_OK(wa_build_valu_mods(NULL, prog, ctrl % 2 ? WA_OP_V_ADD_F32 : WA_OP_V_MOV_B32, v0, v1,
                                        ctrl % 2 ? v1 : wa_opnd_none(), wa_opnd_none(), &m)))
            built++;
    }
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_EQ_UINT(built, 512);
    check_roundtrip(prog, 0, 1);
    char *text = ut_print_flags(prog, 0);
    if (text) {
        CHECK_STR_CONTAINS(text, "v_add_f32_dpp v0, v1, v1 quad_perm:[1,0,0,0] row_mask:0x1 bank_mask:0xe\n");
        CHECK_STR_CONTAINS(text, "v_add_f32_dpp v0, v1, v1 quad_perm:[3,2,1,0] row_mask:0xb bank_mask:0x4 bound_ctrl:1\n");
        CHECK_STR_CONTAINS(text, "v_add_f32_dpp v0, v1, v1 row_shl:1 row_mask:0x1 bank_mask:0xe\n");
        CHECK_STR_CONTAINS(text, " row_shr:15 ");
        CHECK_STR_CONTAINS(text, " row_ror:1 ");
        CHECK_STR_CONTAINS(text, "v_mov_b32_dpp v0, v1 wave_shl:1 row_mask:0x0 bank_mask:0xf\n");
        CHECK_STR_CONTAINS(text, " wave_rol:1 ");
        CHECK_STR_CONTAINS(text, " wave_shr:1 ");
        CHECK_STR_CONTAINS(text, " wave_ror:1 ");
        CHECK_STR_CONTAINS(text, " row_mirror ");
        CHECK_STR_CONTAINS(text, " row_half_mirror ");
        CHECK_STR_CONTAINS(text, " row_bcast:15 ");
        CHECK_STR_CONTAINS(text, " row_bcast:31 ");
        CHECK_STR_CONTAINS(text, "v_mov_b32_dpp v0, v1 dpp_ctrl:0x100 row_mask:0x0 bank_mask:0xf\n");
    }
    wa_free(text);
    wa_program_destroy(prog);
    /* other spellings */
    static const struct {
        const char *in, *out;
    } same[] = {
        { "v_mov_b32 v0, v1 quad_perm:[1,0,3,2]", "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf" },
        { "v_add_f32_dpp v0, v1, v2 bound_ctrl:0 row_mask:10 row_shl:2",
          "v_add_f32_dpp v0, v1, v2 row_shl:2 row_mask:0xa bank_mask:0xf bound_ctrl:1" },
        { "v_mov_b32_dpp v0, v1 dpp_ctrl:0x142", "v_mov_b32_dpp v0, v1 row_bcast:15 row_mask:0xf bank_mask:0xf" },
    };
    for (unsigned i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        char body[200];
        snprintf(body, sizeof(body), "  %s\n  s_endpgm\n", same[i].in);
        ut_context("%s", same[i].in);
        if (CHECK_OK(ut_parse_body(&prog, ctx, "gfx942", body))) {
            char *t = ut_print_flags(prog, 0);
            if (t)
                CHECK_STR_CONTAINS(t, same[i].out);
            wa_free(t);
        }
        wa_program_destroy(prog);
        prog = NULL;
    }
    static const struct {
        const char *in, *words;
        unsigned col;
    } bad[] = {
        { "  v_mov_b32_dpp v0, v1\n", "DPP needs a control", 3 },
        { "  v_mov_b32 v0, v1 row_mask:0xf\n", "DPP needs a control", 3 },
        { "  v_mov_b32_dpp v0, v1 quad_perm:[1,0,4,2]\n", "quad_perm lane out of range (0..3)", 39 },
        { "  v_mov_b32_dpp v0, v1 quad_perm:[1,0,3]\n", "expected ','", 40 },
        { "  v_mov_b32_dpp v0, v1 row_shl:0\n", "row shift out of range (1..15)", 32 },
        { "  v_mov_b32_dpp v0, v1 row_shr:16\n", "row shift out of range (1..15)", 32 },
        { "  v_mov_b32_dpp v0, v1 wave_shl:2\n", "wave shift out of range (1..1)", 33 },
        { "  v_mov_b32_dpp v0, v1 row_bcast:16\n", "row_bcast takes 15 or 31, not 16", 34 },
        { "  v_mov_b32_dpp v0, v1 row_mask:16 quad_perm:[0,1,2,3]\n", "row_mask out of range (0..15)", 33 },
        { "  v_mov_b32_dpp v0, v1 bound_ctrl:2 row_mirror\n", "bound_ctrl out of range (0..1)", 35 },
        { "  v_mov_b32_dpp v0, v1 row_mirror row_shl:1\n", "a second DPP control", 35 },
        { "  v_mov_b32_dpp v0, v1 row_share:1\n", "unknown modifier 'row_share'", 24 },
        { "  v_mov_b32_e32_dpp v0, v1 row_mirror\n", "unknown mnemonic 'v_mov_b32_e32_dpp'", 3 },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ut_context("%s", bad[i].in);
        wa_status st = ut_parse_body(&prog, ctx, "gfx942", bad[i].in);
        if (CHECK_MSG(st != WA_OK, "parsed: %s", bad[i].in))
            CHECK_DIAG(ctx, st, bad[i].words, UT_ANY, bad[i].col, UT_ANY);
        wa_program_destroy(prog);
        prog = NULL;
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

UT_SUITE(
    UT_CASE(examples_roundtrip)
    UT_CASE(builder_roundtrip)
    UT_CASE(printed_shape)
    UT_CASE(golden_print)
    UT_CASE(roundtrip_label_ids)
    UT_CASE(roundtrip_names)
    UT_CASE(roundtrip_comments)
    UT_CASE(roundtrip_float_extremes)
    UT_CASE(tags_preserved)
    UT_CASE(tags_untagged_before_tagged)
    UT_CASE(tags_at_the_limit)
    UT_CASE(tags_renumbered_without_print_tags)
    UT_CASE(hwreg_operands)
    UT_CASE(dpp_modifiers)
);
