/* tests/unit/test_validate.c — the validator, one rule at a time: a passing and a
   failing case each. Failing cases check that the message names the problem and
   that the diagnostic carries the tag and line:col of the instruction.

   The "valid" assembly lines below were checked by hand with
   llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=<target> -show-encoding. */
#include "check.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static wa_context *g_ctx;

/* Body lines are numbered from 1; the kernel text puts body line 1 on line 3. */
#define BL(n) ((n) + UT_BODY_LINE - 1u)

static void expect_valid_at(const char *target, const char *body, const char *file, int line)
{
    unsigned nerr = 99;
    wa_status st = ut_validate_body(g_ctx, target, body, &nerr);
    ut_check(st == WA_OK && nerr == 0, file, line, "expected valid on %s, got %d (%u errors):%s\n%s",
             target, (int)st, nerr, ut_diags_text(g_ctx), body);
}

static void expect_invalid_at(const char *target, const char *body, const char *words,
                              unsigned bline, unsigned col, unsigned tag, const char *file, int line)
{
    unsigned nerr = 0;
    wa_status st = ut_validate_body(g_ctx, target, body, &nerr);
    if (!ut_check(st == WA_E_VALIDATE && nerr >= 1, file, line,
                  "expected a validation error on %s, got %d:\n%s", target, (int)st, body))
        return;
    ut_check(wa_context_diag_count(g_ctx) >= nerr, file, line, "fewer diagnostics than errors");
    ut_check_diag(g_ctx, WA_E_VALIDATE, words, bline == UT_ANY ? UT_ANY : BL(bline), col, tag,
                  file, line);
    const wa_diag *d = ut_find_diag(g_ctx, words);
    if (d)
        ut_check(strcmp(d->file, "file.wa") == 0, file, line, "diagnostic file is '%s'", d->file);
}

#define VALID(target, body) expect_valid_at((target), (body), __FILE__, __LINE__)
/* The first body line is line 1; instructions are tagged I0, I1, ... in order. */
#define INVALID(target, body, words, bline, col, tag) \
    expect_invalid_at((target), (body), (words), (bline), (col), (tag), __FILE__, __LINE__)

static void setup(void)
{
    g_ctx = ut_context_new(WA_TARGET_GFX942);
}

static void teardown(void)
{
    wa_context_destroy(g_ctx);
    g_ctx = NULL;
}

#define END "  s_endpgm\n"

static void opcode_availability(void)
{
    setup();
    VALID("gfx950", "  v_cvt_pk_bf16_f32 v0, v1, v2\n" END);
    INVALID("gfx942", "  v_cvt_pk_bf16_f32 v0, v1, v2\n" END, "v_cvt_pk_bf16_f32|not available|gfx942",
            1, 3, 0);
    INVALID("gfx90a", "  s_nop 0\n  v_cvt_pk_bf16_f32 v0, v1, v2\n" END, "not available|gfx90a", 2, 3, 1);
    VALID("gfx942", "  v_mfma_f32_16x16x32_fp8_fp8 v[0:3], v[4:5], v[6:7], v[0:3]\n" END);
    VALID("gfx950", "  v_mfma_f32_16x16x32_fp8_fp8 v[0:3], v[4:5], v[6:7], v[0:3]\n" END);
    INVALID("gfx90a", "  v_mfma_f32_16x16x32_fp8_fp8 v[0:3], v[4:5], v[6:7], v[0:3]\n" END,
            "v_mfma_f32_16x16x32_fp8_fp8|not available|gfx90a", 1, 3, 0);
    VALID("gfx950", "  v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]\n" END);
    INVALID("gfx942", "  v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]\n" END,
            "not available|gfx942", 1, 3, 0);
    /* either spelling parses; the gfx90a one is valid on gfx90a */
    VALID("gfx90a", "  v_mfma_f32_16x16x16f16 v[0:3], v[4:5], v[6:7], v[0:3]\n" END);
    VALID("gfx942", "  v_mfma_f32_16x16x16f16 v[0:3], v[4:5], v[6:7], v[0:3]\n" END);
    /* LDS-DMA dwordx4 is gfx950 only */
    VALID("gfx950", "  buffer_load_dwordx4 v0, s[8:11], 0 offen lds\n" END);
    INVALID("gfx942", "  buffer_load_dwordx4 v0, s[8:11], 0 offen lds\n" END, "not available", 1, 3, 0);
    VALID("gfx942", "  buffer_load_dword v0, s[8:11], 0 offen lds\n" END);
    teardown();
}

static void operand_class(void)
{
    setup();
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], a[6:7], v[0:3]\n" END);
    INVALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], s[4:5], v[6:7], v[0:3]\n" END,
            "srcA|SGPR|s[4:5]", 1, 3, 0);
    VALID("gfx942", "  v_add_u32 v0, s1, v1\n" END);
    INVALID("gfx942", "  v_add_u32 v0, a1, v1\n" END, "src0|AGPR|a1", 1, 3, 0);
    INVALID("gfx942", "  v_add_u32 v0, v1, a1\n" END, "src1|AGPR", 1, 3, 0);
    INVALID("gfx942", "  s_mov_b32 s0, v1\n" END, "src0|VGPR", 1, 3, 0);
    INVALID("gfx942", "  v_mov_b32 s0, v1\n" END, "vdst|SGPR", 1, 3, 0);
    VALID("gfx942", "  v_accvgpr_write_b32 a0, s1\n" END);
    INVALID("gfx942", "  v_accvgpr_write_b32 v0, s1\n" END, "vdst|VGPR", 1, 3, 0);
    /* scc is implicit; SMEM destinations are numbered SGPRs */
    INVALID("gfx942", "  s_mov_b32 s0, scc\n" END, "scc", 1, 3, 0);
    INVALID("gfx942", "  s_load_dword m0, s[0:1], 0\n" END, "numbered SGPR", 1, 3, 0);
    VALID("gfx942", "  s_mov_b32 m0, s1\n" END);
    teardown();

    /* A label where a register goes: the builder refuses it (the text form could
       not carry it), and so does an edit. */
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_label l;
    REQUIRE_OK(wa_program_label_create(&l, prog, "somewhere"));
    REQUIRE_OK(wa_build_label(prog, l));
    wa_operand ops[2] = { wa_opnd_phys(WA_REG_VGPR, 0, 1), wa_opnd_label(l) };
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_V_MOV_B32, ops, 2, NULL), WA_E_INVALID);
    CHECK_DIAG(ctx, WA_E_INVALID, "v_mov_b32 operand 1 (src0)|a label can only be a branch target",
               0, 0, WA_NO_TAG);
    ops[1] = wa_opnd_phys(WA_REG_VGPR, 1, 1);
    REQUIRE_OK(wa_build(NULL, prog, WA_OP_V_MOV_B32, ops, 2, NULL));
    CHECK_STATUS(wa_program_set_operand(prog, 1, 1, wa_opnd_label(l)), WA_E_INVALID);
    REQUIRE_OK(wa_build(NULL, prog, WA_OP_S_ENDPGM, NULL, 0, NULL));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void operand_size(void)
{
    setup();
    VALID("gfx942", "  global_load_dwordx2 v[0:1], v[4:5], off\n" END);
    INVALID("gfx942", "  global_load_dwordx2 v[0:2], v[4:5], off\n" END, "vdst|expected 2 registers, got 3",
            1, 3, 0);
    INVALID("gfx942", "  s_load_dwordx4 s[4:5], s[0:1], 0\n" END, "sdst|expected 4 registers", 1, 3, 0);
    /* global vaddr: a pair with `off`, one register with an SGPR base */
    VALID("gfx942", "  global_load_dword v0, v2, s[0:1]\n" END);
    INVALID("gfx942", "  global_load_dword v0, v[2:3], s[0:1]\n" END, "vaddr|expected 1 register", 1, 3, 0);
    INVALID("gfx942", "  global_load_dword v0, v2, off\n" END, "vaddr|expected 2 registers", 1, 3, 0);
    /* MUBUF vaddr: a pair with idxen+offen */
    VALID("gfx942", "  buffer_load_dword v0, v[2:3], s[4:7], 0 idxen offen\n" END);
    INVALID("gfx942", "  buffer_load_dword v0, v2, s[4:7], 0 idxen offen\n" END, "vaddr|expected 2", 1, 3, 0);
    /* v_cndmask's mask is a pair; vcc is one */
    VALID("gfx942", "  v_cndmask_b32 v0, v2, v1, s[2:3]\n" END);
    INVALID("gfx942", "  v_cndmask_b32 v0, v2, v1, vcc_lo\n" END, "mask|expected 2", 1, 3, 0);
    /* scaled MFMA: A follows cbsz (fp4 = 4 registers), B follows blgp */
    VALID("gfx950", "  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21\n" END);
    VALID("gfx950", "  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:7], v[12:19], v[0:3], v20, v21 cbsz:4\n" END);
    INVALID("gfx950", "  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21 cbsz:4\n" END,
            "srcA|expected 4 registers, got 8", 1, 3, 0);
    /* the reserved format codes 5..7 take the fp8 size, as the assembler reads them */
    VALID("gfx950", "  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21 blgp:5\n" END);
    INVALID("gfx950", "  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:15], v[0:3], v20, v21 blgp:5\n" END,
            "srcB|expected 8 registers", 1, 3, 0);
    teardown();
}

static void tuple_alignment(void)
{
    setup();
    static const char *const targets[] = { "gfx90a", "gfx942", "gfx950" };
    for (unsigned i = 0; i < 3; i++) {
        ut_context("%s", targets[i]);
        VALID(targets[i], "  global_load_dwordx2 v[2:3], v[4:5], off\n" END);
        INVALID(targets[i], "  global_load_dwordx2 v[1:2], v[4:5], off\n" END,
                "misaligned|v[1:2]|vdst", 1, 3, 0);
        INVALID(targets[i], "  global_load_dword v1, v[3:4], off\n" END, "misaligned|v[3:4]|vaddr", 1, 3, 0);
        /* 4-register VGPR tuples need only even alignment */
        VALID(targets[i], "  global_load_dwordx4 v[2:5], v[6:7], off\n" END);
        VALID(targets[i], "  buffer_load_dword v1, v0, s[4:7], 0 offen\n" END);
        INVALID(targets[i], "  buffer_load_dword v1, v0, s[2:5], 0 offen\n" END,
                "misaligned|s[2:5]|srsrc|multiple of 4", 1, 3, 0);
        INVALID(targets[i], "  s_mov_b64 s[1:2], 0\n" END, "misaligned|s[1:2]", 1, 3, 0);
        INVALID(targets[i], "  v_mfma_f32_16x16x16_f16 v[0:3], v[5:6], v[8:9], v[0:3]\n" END,
                "misaligned|srcA", 1, 3, 0);
    }
    ut_context("%s", "");
    /* virtual registers: the register's alignment and the first component count */
    VALID("gfx942", "  global_load_dwordx2 %v0<2,align=2>, v[4:5], off\n" END);
    INVALID("gfx942", "  global_load_dwordx2 %v0<2,align=1>, v[4:5], off\n" END,
            "misaligned|%v0|alignment 1", 1, 3, 0);
    VALID("gfx942", "  global_load_dwordx2 %v0<4,align=4>[2:3], v[4:5], off\n" END);
    INVALID("gfx942", "  global_load_dwordx2 %v0<4,align=4>[1:2], v[4:5], off\n" END,
            "misaligned|%v0[1:2]|first component 1", 1, 3, 0);
    INVALID("gfx942", "  s_load_dwordx4 %s0<4,align=2>, s[0:1], 0\n" END, "misaligned|%s0", 1, 3, 0);
    VALID("gfx942", "  s_load_dwordx4 %s0<8,align=4>[4:7], s[0:1], 0\n" END);
    INVALID("gfx942", "  s_load_dwordx4 %s0<8,align=4>[2:5], s[0:1], 0\n" END, "misaligned", 1, 3, 0);
    /* single registers never need alignment */
    VALID("gfx942", "  v_mov_b32 %v0<4,align=4>[3], 0\n" END);
    teardown();
}

static void register_file_limits(void)
{
    setup();
    VALID("gfx942", "  v_mov_b32 v0, s101\n" END);
    INVALID("gfx942", "  v_mov_b32 v0, s102\n" END, "s102|outside the register file|s101", 1, 3, 0);
    INVALID("gfx942", "  s_mov_b64 s[100:101], s[102:103]\n" END, "s[102:103]|outside", 1, 3, 0);
    VALID("gfx942", "  v_accvgpr_read_b32 v255, a255\n" END);
    teardown();

    /* Built programs name the registers the text does: v[254:255] is fine,
       a[256:257] (which the text cannot spell) is refused by the builder. */
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    REQUIRE_OK(wa_build_global(NULL, prog, WA_OP_GLOBAL_LOAD_DWORDX2, wa_opnd_phys(WA_REG_VGPR, 254, 2),
                               wa_opnd_phys(WA_REG_VGPR, 0, 2), wa_opnd_off(), NULL));
    CHECK_STATUS(wa_build_global(NULL, prog, WA_OP_GLOBAL_LOAD_DWORDX2, wa_opnd_phys(WA_REG_AGPR, 256, 2),
                                 wa_opnd_phys(WA_REG_VGPR, 0, 2), wa_opnd_off(), NULL),
                 WA_E_INVALID);
    CHECK_DIAG(ctx, WA_E_INVALID, "operand 0|bad physical register range", 0, 0, WA_NO_TAG);
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void literals(void)
{
    setup();
    /* VOP2 takes a literal in src0 (verified), VOP3 none */
    VALID("gfx942", "  v_add_u32 v0, 0x1234, v1\n" END);
    VALID("gfx942", "  v_add_f32 v0, 1.5, v1\n" END);
    INVALID("gfx942", "  v_mul_lo_u32 v0, 0x1234, v1\n" END, "v_mul_lo_u32|src0|4660|no literal", 1, 3, 0);
    INVALID("gfx942", "  v_fma_f32 v0, 1.5, v1, v2\n" END, "v_fma_f32|src0|1.5|no literal", 1, 3, 0);
    /* inline constants are fine in VOP3 */
    VALID("gfx942", "  v_mul_lo_u32 v0, 64, v1\n  v_mul_lo_u32 v0, -16, v1\n  v_mul_lo_u32 v0, 1.0, v1\n" END);
    INVALID("gfx942", "  v_mul_lo_u32 v0, 65, v1\n" END, "65", 1, 3, 0);
    INVALID("gfx942", "  s_nop 0\n  v_mul_lo_u32 v0, -17, v1\n" END, "-17", 2, 3, 1);
    /* inline constants are bit patterns: the unsigned spelling of -1 or -16 is the
       same inline constant (llvm-mc encodes 0xffffffff as -1) */
    VALID("gfx942", "  v_fma_f32 v0, 0xffffffff, v1, v2\n" END);
    VALID("gfx942", "  v_mul_lo_u32 v0, 0xfffffff0, v1\n" END);
    VALID("gfx942", "  v_pack_b32_f16 v0, 0xffff, v1\n" END);
    VALID("gfx942", "  v_cndmask_b32 v0, 0xffffffff, v1, vcc\n" END);
    VALID("gfx942", "  s_add_u32 s0, 0xffffffff, 0x12345\n" END);
    /* and float bit patterns are inline constants wherever they are spelled */
    VALID("gfx942", "  v_fma_f32 v0, 0x3f800000, v1, v2\n  v_mul_lo_u32 v0, 0.5, v1\n" END);
    VALID("gfx942", "  v_fma_f32 v0, 0.15915494309189532, v1, v2\n  v_pack_b32_f16 v0, 0x3118, v1\n" END);
    INVALID("gfx942", "  v_fma_f32 v0, 8.0, v1, v2\n" END, "8.0|no literal", 1, 3, 0);
    /* 64-bit integer operands: f64 bit patterns are inline constants, a literal is
       a 32-bit integer (signed or unsigned), never a float */
    VALID("gfx942", "  s_mov_b64 s[0:1], 0x3ff0000000000000\n  s_mov_b64 s[0:1], 0x87654321\n"
                    "  s_mov_b64 s[0:1], -0x12345678\n  s_mov_b64 s[0:1], 0.15915494309189532\n"
                    "  s_mov_b64 s[0:1], 0x3fc45f306dc9c882\n  s_mov_b64 s[0:1], -2.0\n" END);
    INVALID("gfx942", "  s_mov_b64 s[0:1], 0x100000000\n" END, "0x100000000|32-bit literal", 1, 3, 0);
    INVALID("gfx942", "  s_mov_b64 s[0:1], 3.25\n" END, "3.25|32-bit literal", 1, 3, 0);
    /* -0.0 is not the inline constant 0: as a float it needs a literal */
    VALID("gfx942", "  v_mov_b32 v0, -0.0\n  v_fma_f32 v0, 0.0, v1, v2\n" END);
    INVALID("gfx942", "  v_fma_f32 v0, -0.0, v1, v2\n" END, "-0.0|no literal", 1, 3, 0);
    INVALID("gfx942", "  v_mul_lo_u32 v0, -0.0, v1\n" END, "-0.0", 1, 3, 0);
    /* the literal needs the 32-bit encoding: src1 a VGPR, vcc as the compare result */
    INVALID("gfx942", "  v_add_u32 v0, 0x1234, s1\n" END, "literal", 1, 3, 0);
    VALID("gfx942", "  v_cmp_eq_u32 vcc, 0x1234, v1\n" END);
    INVALID("gfx942", "  v_cmp_eq_u32 s[0:1], 0x1234, v1\n" END, "v_cmp_eq_u32|literal|32-bit encoding", 1, 3, 0);
    /* literals are not allowed where the table has none */
    INVALID("gfx942", "  v_add_u32 v0, v1, 0x1234\n" END, "src1|no literal", 1, 3, 0);
    /* SALU: one distinct literal */
    VALID("gfx942", "  s_add_u32 s0, 0x1234, 0x1234\n" END);
    INVALID("gfx942", "  s_add_u32 s0, 0x1234, 0x5678\n" END, "s_add_u32|one distinct 32-bit literal", 1, 3, 0);
    VALID("gfx942", "  s_mov_b64 s[0:1], 0x12345678\n" END);
    INVALID("gfx942", "  s_mov_b32 s0, 0x100000000\n" END, "does not fit a 32-bit literal", 1, 3, 0);
    VALID("gfx942", "  s_mov_b32 s0, 0xffffffff\n  s_mov_b32 s1, -2147483648\n" END);
    INVALID("gfx942", "  s_mov_b32 s0, -2147483649\n" END, "does not fit", 1, 3, 0);
    /* SMEM offsets: 21-bit signed immediates */
    VALID("gfx942", "  s_load_dword s0, s[0:1], 0xfffff\n  s_load_dword s0, s[0:1], -1\n" END);
    INVALID("gfx942", "  s_load_dword s0, s[0:1], 0x100000\n" END, "soffset|out of range", 1, 3, 0);
    VALID("gfx942", "  s_buffer_load_dword s0, s[4:7], 0xfffff\n" END);
    INVALID("gfx942", "  s_buffer_load_dword s0, s[4:7], -1\n" END, "soffset|out of range", 1, 3, 0);
    /* MUBUF soffset: SGPR or inline constant */
    VALID("gfx942", "  buffer_store_dword a1, off, s[8:11], -1 nt\n" END);
    INVALID("gfx942", "  buffer_load_dword v0, off, s[8:11], 100\n" END, "soffset|100", 1, 3, 0);
    /* MFMA C: inline constants, no literals */
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 0\n" END);
    INVALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 1000\n" END, "srcC|1000", 1, 3, 0);
    teardown();
}

static void constant_bus(void)
{
    setup();
    VALID("gfx942", "  v_fma_f32 v0, s1, s1, v3\n" END);
    INVALID("gfx942", "  v_fma_f32 v0, s1, s2, v3\n" END, "v_fma_f32|constant bus", 1, 3, 0);
    INVALID("gfx942", "  v_fma_f32 v0, s1, vcc_lo, v3\n" END, "constant bus", 1, 3, 0);
    VALID("gfx942", "  v_add_u32 v0, s1, s1\n  v_add_u32 v0, 64, s1\n" END);
    VALID("gfx942", "  v_cndmask_b32 v0, v2, v1, s[2:3]\n" END);
    INVALID("gfx942", "  v_cndmask_b32 v0, s1, v1, s[2:3]\n" END, "v_cndmask_b32|constant bus", 1, 3, 0);
    INVALID("gfx942", "  v_cndmask_b32 v0, s1, v1, vcc\n" END, "constant bus", 1, 3, 0);
    INVALID("gfx942", "  v_cndmask_b32 v0, 0x1234, v1, vcc\n" END, "constant bus", 1, 3, 0);
    /* v_writelane: m0 as the lane select is free, not as the value */
    VALID("gfx942", "  v_writelane_b32 v1, s1, m0\n" END);
    VALID("gfx90a", "  v_writelane_b32 v1, s1, m0\n" END);
    INVALID("gfx942", "  v_writelane_b32 v1, m0, s2\n" END, "v_writelane_b32|constant bus", 1, 3, 0);
    VALID("gfx942", "  v_readlane_b32 s0, v1, m0\n" END);
    teardown();
}

static void mfma_operands(void)
{
    setup();
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]\n" END);
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], a[0:3]\n" END);
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[8:11]\n" END);
    /* The overlap rule (WA_IF_EARLY_CLOBBER): a result of 128 bits or less may
       overlap any source; a wider one takes srcC identical or disjoint and
       shares nothing with srcA/srcB. */
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[2:5]\n" END);
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[0:1], v[2:3], 0\n" END);
    INVALID("gfx942", "  v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[2:17]\n" END,
            "srcC|identical to vdst or not overlap", 1, 3, 0);
    INVALID("gfx942", "  v_mfma_f32_32x32x8_f16 %v0<32,align=2>[0:15], v[32:33], v[34:35], %v0[2:17]\n" END,
            "srcC|overlap", 1, 3, 0);
    VALID("gfx942", "  v_mfma_f32_32x32x8_f16 %v0<32,align=2>[0:15], v[32:33], v[34:35], %v0[16:31]\n" END);
    INVALID("gfx942", "  v_mfma_f32_32x32x8_f16 v[0:15], v[14:15], v[18:19], 0\n" END,
            "srcA|vdst must not overlap", 1, 3, 0);
    INVALID("gfx90a", "  v_mfma_f64_16x16x4f64 v[0:7], v[16:17], v[4:5], 0\n" END,
            "srcB|vdst must not overlap", 1, 3, 0);
    VALID("gfx90a", "  v_mfma_f64_4x4x4f64 v[0:1], v[0:1], v[2:3], v[0:1]\n" END);
    INVALID("gfx942", "  v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], v[0:3]\n" END,
            "srcC and vdst|both be VGPRs or both AGPRs", 1, 3, 0);
    /* broadcast controls */
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] cbsz:1 abid:1 blgp:7\n" END);
    /* abid beyond 2^cbsz assembles (the simulator refuses what it cannot place) */
    VALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] cbsz:1 abid:2\n" END);
    /* f64: blgp on gfx90a, neg:[a,b,c] in the same field on gfx942/gfx950 */
    VALID("gfx90a", "  v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7] blgp:1\n" END);
    INVALID("gfx90a", "  v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7] neg:[1,0,0]\n" END,
            "neg|gfx90a", 1, 3, 0);
    VALID("gfx942", "  v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7] neg:[1,0,1]\n" END);
    INVALID("gfx942", "  v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7] blgp:1\n" END,
            "blgp|neg modifier", 1, 3, 0);
    /* SMFMAC: vdst is the accumulator, the last operand one index VGPR; no blgp */
    VALID("gfx942", "  v_smfmac_f32_16x16x32_f16 a[0:3], v[4:5], a[8:11], v1 cbsz:1 abid:3\n" END);
    INVALID("gfx942", "  v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[8:11], a1\n" END, "idx", 1, 3, 0);
    INVALID("gfx942", "  v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[8:11], v[0:3]\n" END,
            "idx|expected 1 register", 1, 3, 0);
    INVALID("gfx942", "  v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[8:11], v1 blgp:1\n" END, "blgp", 1, 3, 0);
    INVALID("gfx90a", "  v_smfmac_f32_16x16x32_f16 v[0:3], v[4:5], v[8:11], v1\n" END, "gfx90a", 1, 3, 0);
    /* xf32 exists on gfx942 only */
    VALID("gfx942", "  v_mfma_f32_16x16x8_xf32 v[0:3], v[4:5], v[6:7], v[0:3]\n" END);
    INVALID("gfx950", "  v_mfma_f32_16x16x8_xf32 v[0:3], v[4:5], v[6:7], v[0:3]\n" END, "gfx950", 1, 3, 0);
    /* the unscaled f8f6f4 MFMAs take cbsz/blgp, no op_sel */
    VALID("gfx950", "  v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:9], v[12:15], v[0:3] cbsz:2 blgp:4\n" END);
    INVALID("gfx950", "  v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3] op_sel:[1,0,0]\n" END,
            "op_sel", 1, 3, 0);
    INVALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] blgp:8\n" END, "blgp", 1, 3, 0);
    INVALID("gfx942", "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] op_sel:[1,0,0]\n" END,
            "op_sel", 1, 3, 0);
    INVALID("gfx950", "  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21 abid:1\n" END,
            "abid", 1, 3, 0);
    VALID("gfx950", "  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3], v20, v21 op_sel:[1,0,0]\n" END);
    teardown();
}

static void modifier_ranges(void)
{
    setup();
    VALID("gfx942", "  buffer_load_dword v1, v0, s[8:11], 0 offen offset:4095\n" END);
    INVALID("gfx942", "  buffer_load_dword v1, v0, s[8:11], 0 offen offset:4096\n" END,
            "buffer_load_dword|offset 4096|0..4095", 1, 3, 0);
    INVALID("gfx942", "  buffer_load_dword v1, v0, s[8:11], 0 offen offset:-1\n" END, "offset -1", 1, 3, 0);
    VALID("gfx942", "  global_load_dword v1, v[2:3], off offset:-4096\n  global_load_dword v1, v[2:3], off offset:4095\n" END);
    INVALID("gfx942", "  global_load_dword v1, v[2:3], off offset:-4097\n" END,
            "global_load_dword|offset -4097|-4096..4095", 1, 3, 0);
    INVALID("gfx942", "  global_load_dword v1, v[2:3], off offset:4096\n" END, "offset 4096", 1, 3, 0);
    VALID("gfx942", "  ds_read_b32 v1, v2 offset:65535\n" END);
    INVALID("gfx942", "  ds_read_b32 v1, v2 offset:65536\n" END, "ds_read_b32|offset 65536|0..65535", 1, 3, 0);
    VALID("gfx942", "  ds_read2_b32 v[0:1], v2 offset0:255 offset1:255\n" END);
    INVALID("gfx942", "  ds_read2_b32 v[0:1], v2 offset1:256\n" END, "ds_read2_b32|offset1 256|0..255", 1, 3, 0);
    INVALID("gfx942", "  ds_write2_b32 v2, v0, v1 offset0:256\n" END, "offset0 256|0..255", 1, 3, 0);
    VALID("gfx942", "  s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)\n" END);
    INVALID("gfx942", "  s_waitcnt vmcnt(64)\n" END, "s_waitcnt|vmcnt|0..63", 1, 3, 0);
    INVALID("gfx942", "  s_waitcnt lgkmcnt(16)\n" END, "lgkmcnt|0..15", 1, 3, 0);
    INVALID("gfx942", "  s_waitcnt expcnt(8)\n" END, "expcnt|0..7", 1, 3, 0);
    VALID("gfx942", "  s_nop 15\n" END);
    INVALID("gfx942", "  s_nop 16\n" END, "s_nop|16|0..15", 1, 3, 0);
    VALID("gfx942", "  s_movk_i32 s0, 0xffff\n  s_movk_i32 s0, -32768\n" END);
    INVALID("gfx942", "  s_movk_i32 s0, 0x10000\n" END, "s_movk_i32|65536|-32768..65535", 1, 3, 0);
    INVALID("gfx942", "  s_movk_i32 s0, -32769\n" END, "-32769", 1, 3, 0);
    VALID("gfx942", "  s_sleep 127\n  s_setprio 3\n" END);
    INVALID("gfx942", "  s_sleep 128\n" END, "s_sleep|128", 1, 3, 0);
    INVALID("gfx942", "  s_setprio 4\n" END, "s_setprio|4", 1, 3, 0);
    INVALID("gfx942", "  s_nop 1.5\n" END, "s_nop|integer", 1, 3, 0);
    teardown();
}

static void modifier_formats(void)
{
    setup();
    INVALID("gfx942", "  v_add_u32 v0, v1, v2 glc\n" END, "v_add_u32 takes no glc/sc0", 1, 3, 0);
    INVALID("gfx942", "  global_load_dword v0, v[2:3], off offen\n" END, "takes no offen", 1, 3, 0);
    INVALID("gfx942", "  v_add_u32 v0, v1, v2 offset:4\n" END, "v_add_u32 takes no offset", 1, 3, 0);
    INVALID("gfx942", "  ds_read_b32 v0, v1 offset1:4\n" END, "ds_read_b32 takes no offset1", 1, 3, 0);
    INVALID("gfx942", "  buffer_load_dword v0, v1, s[4:7], 0 offen cbsz:1\n" END, "cbsz", 1, 3, 0);
    INVALID("gfx942", "  s_nop 0 vmcnt(0)\n" END, "s_nop takes no vmcnt", 1, 3, 0);
    INVALID("gfx942", "  s_load_dword s0, s[0:1], 0 offset:4\n" END, "offset:4 needs an SGPR soffset", 1, 3, 0);
    VALID("gfx942", "  s_load_dword s0, s[0:1], s2 offset:4\n" END);
    INVALID("gfx942", "  s_load_dword s0, s[0:1], 0 nt\n" END, "takes no slc/nt", 1, 3, 0);
    VALID("gfx942", "  s_load_dword s0, s[0:1], 0 glc\n" END);
    /* a buffer load without an lds form cannot take `lds` (a parse error: no such opcode) */
    {
        wa_context *c2 = ut_context_new(WA_TARGET_GFX942);
        wa_program *p2 = NULL;
        CHECK_STATUS(wa_program_parse(&p2, c2, ".kernel k\n  buffer_load_dwordx2 v[0:1], v2, s[4:7], 0 offen lds\n  s_endpgm\n.end_kernel\n",
                                      strlen(".kernel k\n  buffer_load_dwordx2 v[0:1], v2, s[4:7], 0 offen lds\n  s_endpgm\n.end_kernel\n"),
                                      "m.wa"),
                     WA_E_PARSE);
        CHECK_LAST_DIAG(c2, WA_E_PARSE, "buffer_load_dwordx2|no lds form", 2, 3, WA_NO_TAG);
        CHECK(p2 == NULL);
        wa_context_destroy(c2);
    }
    VALID("gfx942", "  buffer_load_dword v1, v0, s[8:11], 0 offen sc0 sc1 nt\n" END);
    VALID("gfx90a", "  buffer_load_dword v1, v0, s[8:11], 0 offen glc slc scc\n" END);
    VALID("gfx942", "  global_load_dwordx2 v[2:3], v[4:5], off offset:-4096 sc1\n" END);
    teardown();
}

/* Modifier values that fit the struct but not the instruction's fields: the
   builder refuses them (the printer and the emitter could not spell them), both
   when building and when replacing modifiers. */
static void modifier_fields(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX950);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_operand d = wa_opnd_phys(WA_REG_VGPR, 0, 4), a = wa_opnd_phys(WA_REG_VGPR, 4, 8),
               b = wa_opnd_phys(WA_REG_VGPR, 12, 8), sc = wa_opnd_phys(WA_REG_VGPR, 20, 1);
    wa_mods m = WA_MODS_INIT;
    m.op_sel = 7;
    m.op_sel_hi = 7;
    REQUIRE_OK(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4, d, a, b, d, sc, sc, &m));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    m.op_sel = 16; /* a fifth selector bit does not exist */
    CHECK_STATUS(wa_program_set_mods(prog, 0, &m), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "op_sel", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4, d, a, b, d, sc,
                               sc, &m),
                 WA_E_INVALID);
    m.op_sel = 1;
    m.op_sel_hi = 12;
    CHECK_STATUS(wa_program_set_mods(prog, 0, &m), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "op_sel", UT_ANY, UT_ANY, UT_ANY);
    CHECK_EQ_UINT(wa_program_size(prog), 2);
    CHECK_OK(wa_program_validate(NULL, prog, NULL)); /* unchanged by the refused edits */
    wa_program_destroy(prog);

    /* s_waitcnt: -1 means "do not wait"; other negative counts mean nothing */
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_mods w = WA_MODS_INIT;
    w.vmcnt = -1;
    w.lgkmcnt = 0;
    REQUIRE_OK(wa_build(NULL, prog, WA_OP_S_WAITCNT, NULL, 0, &w));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    w.vmcnt = -5;
    CHECK_STATUS(wa_program_set_mods(prog, 0, &w), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "waitcnt", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_S_WAITCNT, NULL, 0, &w), WA_E_INVALID);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void mubuf_vaddr(void)
{
    setup();
    VALID("gfx942", "  buffer_load_dword v0, off, s[4:7], 0\n" END);
    VALID("gfx942", "  buffer_load_dword v0, v1, s[4:7], 0 idxen\n" END);
    INVALID("gfx942", "  buffer_load_dword v0, off, s[4:7], 0 offen\n" END,
            "buffer_load_dword|vaddr is 'off'|offen", 1, 3, 0);
    INVALID("gfx942", "  buffer_store_dword v0, off, s[4:7], 0 idxen\n" END, "vaddr is 'off'", 1, 3, 0);
    INVALID("gfx942", "  buffer_load_dword v0, v1, s[4:7], 0\n" END, "vaddr|must be 'off'", 1, 3, 0);
    teardown();
}

static void labels_and_flow(void)
{
    setup();
    VALID("gfx942", "  s_cbranch_scc1 skip\n  s_nop 0\nskip:\n" END);
    VALID("gfx942", "top:\n  s_nop 0\n  s_branch top\n");
    INVALID("gfx942", "  s_nop 0\n  s_cbranch_scc1 nowhere\n" END, "undefined label 'nowhere'", 2, 3, 1);
    /* the wave must not run off the end */
    INVALID("gfx942", "  s_nop 0\n  s_nop 1\n", "last instruction|s_endpgm or s_branch", 2, 3, 1);
    INVALID("gfx942", "top:\n  s_cbranch_scc0 top\n", "last instruction", 2, 3, 0);
    VALID("gfx942", "  s_endpgm\nafter:\n  ; a comment\n");
    INVALID("gfx942", "", "no instructions", UT_ANY, UT_ANY, WA_NO_TAG);
    INVALID("gfx942", "only:\n", "no instructions", UT_ANY, UT_ANY, WA_NO_TAG);
    teardown();

    /* Built: a branch to a label that is never placed. */
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_label l;
    REQUIRE_OK(wa_program_label_create(&l, prog, NULL));
    REQUIRE_OK(wa_build_branch(NULL, prog, WA_OP_S_CBRANCH_VCCZ, l));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "undefined label 'L0'", 0, 0, 0);
    REQUIRE_OK(wa_build_label(prog, l));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    wa_program_destroy(prog);

    /* A label created but neither placed nor named by a branch is not part of
       the code (the text form and the assembly leave it out): its name cannot
       clash with the kernel's symbols, and the program validates as its
       printed text does. Once placed it counts. */
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    REQUIRE_OK(wa_program_label_create(&l, prog, "k"));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    char *text = ut_print(prog);
    wa_program *back = NULL;
    if (text)
        CHECK_OK(wa_program_parse(&back, ctx, text, strlen(text), "k.wa"));
    if (back)
        CHECK_OK(wa_program_validate(NULL, back, NULL));
    wa_program_destroy(back);
    wa_free(text);
    REQUIRE_OK(wa_program_set_insert_point(prog, 0));
    REQUIRE_OK(wa_build_label(prog, l));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "label 'k' clashes", UT_ANY, UT_ANY, WA_NO_TAG);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void undefined_virtual_registers(void)
{
    setup();
    VALID("gfx942", "  v_mov_b32 %v5, 0\n  v_mov_b32 v0, %v5\n" END);
    INVALID("gfx942", "  v_mov_b32 v0, %v5\n" END, "%v5|used but never defined", 1, 3, 0);
    /* reported once per register, at the first use */
    unsigned nerr = 0;
    CHECK_STATUS(ut_validate_body(g_ctx, "gfx942", "  s_nop 0\n  v_mov_b32 v0, %v5\n  v_mov_b32 v1, %v5\n" END, &nerr),
                 WA_E_VALIDATE);
    CHECK_EQ_UINT(nerr, 1);
    CHECK_DIAG(g_ctx, WA_E_VALIDATE, "%v5", BL(2), 3, 1);
    /* any component defined counts for the whole register; read-modify-write defines */
    VALID("gfx942", "  v_mov_b32 %v0<2,align=2>[0], 0\n  global_store_dwordx2 v[4:5], %v0, off\n" END);
    VALID("gfx942", "  v_writelane_b32 %v3, s0, 0\n  v_mov_b32 v0, %v3\n" END);
    /* a returning atomic (glc) defines its data register */
    VALID("gfx942", "  v_mov_b32 %v1, 0\n  buffer_atomic_add_f32 %v1, v2, s[4:7], 0 offen sc0\n  v_mov_b32 v0, %v1\n" END);
    teardown();

    /* A built program: the message names the register. */
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_operand s;
    REQUIRE_OK(wa_program_vreg(&s, prog, WA_REG_SGPR, 2, 0));
    REQUIRE_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B64, wa_opnd_special(WA_SPECIAL_EXEC), s, wa_opnd_none()));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%s0|never defined", 0, 0, 0);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void duplicate_tags(void)
{
    setup();
    VALID("gfx942", "  s_nop 0 ; @I3\n  s_nop 1 ; @I4\n  s_endpgm ; @I1\n");
    INVALID("gfx942", "  s_nop 0 ; @I3\n  s_nop 1 ; @I3\n  s_endpgm ; @I1\n",
            "duplicate tag I3|first used on line 3", 2, 3, 3);
    teardown();
}

static void attributes(void)
{
    setup();
    /* workgroup sizes */
    VALID("gfx942", "  .workgroup_size 1024, 1, 1\n" END);
    VALID("gfx942", "  .workgroup_size 32, 32, 1\n" END);
    VALID("gfx942", "  .workgroup_size 1, 1, 1024\n" END);
    INVALID("gfx942", "  .workgroup_size 2048, 1, 1\n" END, "workgroup size x = 2048|1..1024", UT_ANY, UT_ANY,
            WA_NO_TAG);
    INVALID("gfx942", "  .workgroup_size 64, 0, 1\n" END, "workgroup size y = 0", UT_ANY, UT_ANY, WA_NO_TAG);
    INVALID("gfx942", "  .workgroup_size 64, 32, 1\n" END, "64x32x1|2048 work-items|1024", UT_ANY, UT_ANY,
            WA_NO_TAG);
    /* LDS per target */
    VALID("gfx942", "  .lds_bytes 65536\n" END);
    INVALID("gfx942", "  .lds_bytes 65537\n" END, "LDS size 65537|65536|gfx942", UT_ANY, UT_ANY, WA_NO_TAG);
    INVALID("gfx90a", "  .lds_bytes 65537\n" END, "gfx90a", UT_ANY, UT_ANY, WA_NO_TAG);
    VALID("gfx950", "  .lds_bytes 163840\n" END);
    INVALID("gfx950", "  .lds_bytes 163841\n" END, "163841|163840|gfx950", UT_ANY, UT_ANY, WA_NO_TAG);
    /* arguments */
    VALID("gfx942", "  .arg a, global_buffer, offset:0, size:8\n  .arg n, by_value, offset:8, size:4\n" END);
    INVALID("gfx942", "  .arg a, by_value, offset:0, size:8\n  .arg b, by_value, offset:4, size:4\n" END,
            "argument 1 'b' overlaps argument 0 'a'", UT_ANY, UT_ANY, WA_NO_TAG);
    INVALID("gfx942", "  .arg a, by_value, offset:4, size:8, align:8\n" END,
            "argument 0 'a'|offset 4|alignment 8", UT_ANY, UT_ANY, WA_NO_TAG);
    INVALID("gfx942", "  .arg p, global_buffer, size:4\n" END, "global pointer arguments are 8 bytes", UT_ANY,
            UT_ANY, WA_NO_TAG);
    /* an LDS pointer is 4 bytes as LLVM writes it (8 as a generic pointer) */
    VALID("gfx942", "  .arg l, dynamic_shared_pointer, offset:0, size:4\n" END);
    VALID("gfx942", "  .arg l, dynamic_shared_pointer, offset:0, size:8\n" END);
    INVALID("gfx942", "  .arg l, dynamic_shared_pointer, offset:0, size:2\n" END,
            "dynamic shared pointers are 4 bytes", UT_ANY, UT_ANY, WA_NO_TAG);
    /* every value kind of code object v5 metadata */
    VALID("gfx942", "  .arg -, hidden_hostcall_buffer, offset:0, size:8\n"
                    "  .arg -, hidden_heap_v1, offset:8, size:8\n"
                    "  .arg -, hidden_private_base, offset:16, size:4\n" END);
    INVALID("gfx942", "  .arg big, by_value, offset:65536, size:4\n" END, "64 KiB", UT_ANY, UT_ANY, WA_NO_TAG);
    teardown();

    /* Attribute errors point at the .kernel line of parsed input. */
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    static const char text[] = "; leading comment\n\n.kernel k\n  .lds_bytes 70000\n  s_endpgm\n.end_kernel\n";
    REQUIRE_OK(wa_program_parse(&prog, ctx, text, strlen(text), "attr.wa"));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "LDS size 70000", 3, 1, WA_NO_TAG);
    wa_program_destroy(prog);

    /* Built programs: the same rules through the setters. */
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    REQUIRE_OK(wa_program_set_workgroup_size(prog, 1025, 1, 1));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "1025", 0, 0, WA_NO_TAG);
    REQUIRE_OK(wa_program_set_workgroup_size(prog, 256, 4, 1));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    REQUIRE_OK(wa_program_set_lds_bytes(prog, 163840));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    REQUIRE_OK(wa_program_set_target(prog, WA_TARGET_GFX950));
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.offset = 6;
    a.size = 4;
    REQUIRE_OK(wa_program_add_arg(NULL, prog, &a));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "(unnamed)|offset 6", 0, 0, WA_NO_TAG);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void physical_only(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_validate_options o = WA_VALIDATE_OPTIONS_INIT;
    o.flags = WA_VALIDATE_PHYSICAL;
    wa_program *prog = ut_parse(ctx, ".kernel k\n  v_mov_b32 %v0, 0\n  v_mov_b32 v1, %v0\n  s_endpgm\n.end_kernel\n");
    REQUIRE(prog);
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    unsigned nerr = 0;
    CHECK_STATUS(wa_program_validate(&nerr, prog, &o), WA_E_VALIDATE);
    CHECK_EQ_UINT(nerr, 2);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "virtual register %v0|not allowed", 2, 3, 0);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "virtual register %v0|not allowed", 3, 3, 1);
    wa_program_destroy(prog);
    prog = ut_parse(ctx, ".kernel k\n  v_mov_b32 v0, 0\n  s_endpgm\n.end_kernel\n");
    REQUIRE(prog);
    CHECK_OK(wa_program_validate(&nerr, prog, &o));
    CHECK_EQ_UINT(nerr, 0);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 0);
    /* options */
    o.version = 0;
    CHECK_STATUS(wa_program_validate(NULL, prog, &o), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "version", UT_ANY, UT_ANY, UT_ANY);
    o.version = WA_VALIDATE_OPTIONS_VERSION + 1;
    CHECK_STATUS(wa_program_validate(NULL, prog, &o), WA_E_INVALID);
    CHECK_STATUS(wa_program_validate(NULL, NULL, NULL), WA_E_INVALID);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void max_errors(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char text[] = ".kernel k\n"
                               "  s_nop 16\n"
                               "  s_nop 17\n"
                               "  s_nop 18\n"
                               "  s_nop 19\n"
                               "  s_nop 20\n"
                               "  s_endpgm\n"
                               ".end_kernel\n";
    wa_program *prog = ut_parse(ctx, text);
    REQUIRE(prog);
    unsigned nerr = 0;
    CHECK_STATUS(wa_program_validate(&nerr, prog, NULL), WA_E_VALIDATE);
    CHECK_EQ_UINT(nerr, 5);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 5);
    for (unsigned i = 0; i < 5; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        REQUIRE(d);
        CHECK_EQ_UINT(d->line, 2 + i);
        CHECK_EQ_UINT(d->tag, i);
    }
    wa_validate_options o = WA_VALIDATE_OPTIONS_INIT;
    o.max_errors = 2;
    CHECK_STATUS(wa_program_validate(&nerr, prog, &o), WA_E_VALIDATE);
    CHECK_EQ_UINT(nerr, 2);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 2);
    CHECK_EQ_UINT(wa_context_diag(ctx, 1)->line, 3);
    o.max_errors = 1;
    CHECK_STATUS(wa_program_validate(&nerr, prog, &o), WA_E_VALIDATE);
    CHECK_EQ_UINT(nerr, 1);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 1);
    o.max_errors = 100;
    CHECK_STATUS(wa_program_validate(&nerr, prog, &o), WA_E_VALIDATE);
    CHECK_EQ_UINT(nerr, 5);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* One instruction with several problems reports each of them. */
static void several_problems(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, ".kernel k\n"
                                     "  .workgroup_size 2048, 1, 1\n"
                                     "  buffer_load_dword v1, off, s[2:5], 0 offen offset:5000\n"
                                     "  s_nop 0\n"
                                     ".end_kernel\n");
    REQUIRE(prog);
    unsigned nerr = 0;
    CHECK_STATUS(wa_program_validate(&nerr, prog, NULL), WA_E_VALIDATE);
    CHECK(nerr >= 5);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "2048", 1, 1, WA_NO_TAG);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "misaligned|s[2:5]", 3, 3, 0);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "vaddr is 'off'", 3, 3, 0);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "offset 5000", 3, 3, 0);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "last instruction", 4, 3, 1);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Every opcode of the table, on every target that has it, with operands chosen
   from its own table row, is valid, prints, reads back and emits. */
static wa_operand operand_for(const wa_isa_info *info, unsigned k, wa_label l, unsigned *vnext,
                              unsigned *snext, unsigned *anext, int *scalar_read)
{
    const wa_isa_operand *spec = &info->operands[k];
    unsigned size = spec->size;
    if (spec->classes & WA_OC_LABEL)
        return wa_opnd_label(l);
    if (spec->classes & WA_OC_OFF && !(spec->classes & WA_OC_VGPR))
        return wa_opnd_off(); /* global saddr */
    /* one scalar read per VALU instruction: later scalar positions get a constant */
    if (!(spec->classes & (WA_OC_VGPR | WA_OC_AGPR)) && (spec->classes & WA_OC_INLINE) &&
        spec->role == WA_ROLE_USE && *scalar_read)
        return wa_opnd_imm(1);
    if (!(spec->classes & (WA_OC_VGPR | WA_OC_AGPR)) && (spec->classes & WA_OC_SGPR) &&
        spec->role != WA_ROLE_DEF)
        *scalar_read = 1;
    if (size == 0) {
        if (info->format == WA_FMT_MUBUF)
            return wa_opnd_off(); /* no offen/idxen */
        if (info->format == WA_FMT_GLOBAL)
            size = 2;             /* saddr is off */
        else
            size = 8;             /* F8F6F4 with cbsz/blgp 0 (fp8) */
    }
    if (spec->classes & WA_OC_VGPR) {
        wa_operand o = wa_opnd_phys(WA_REG_VGPR, *vnext, size);
        *vnext += (size + 1) & ~1u;
        return o;
    }
    if (spec->classes & WA_OC_AGPR) {
        wa_operand o = wa_opnd_phys(WA_REG_AGPR, *anext, size);
        *anext += (size + 1) & ~1u;
        return o;
    }
    if (spec->classes & WA_OC_SGPR) {
        wa_operand o = wa_opnd_phys(WA_REG_SGPR, *snext, size);
        *snext += (size + 3) & ~3u;
        return o;
    }
    if (spec->classes & WA_OC_OFF)
        return wa_opnd_off();
    if (spec->classes & WA_OC_IMM)
        return wa_opnd_imm(spec->imm_min > 0 ? spec->imm_min : 0);
    return wa_opnd_imm(1);
}

static void every_opcode_has_a_valid_form(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    unsigned built = 0;
    for (int t = WA_TARGET_GFX90A; t <= WA_TARGET_GFX950; t++) {
        for (unsigned op = 0; op < wa_isa_count(); op++) {
            const wa_isa_info *info = wa_isa_get(op);
            if ((info->flags & WA_IF_PSEUDO) || !wa_isa_available(op, (wa_target)t))
                continue;
            ut_context("%s on %s", info->mnemonic, wa_target_name((wa_target)t));
            wa_program *prog = NULL;
            REQUIRE_OK(wa_program_create(&prog, ctx, "one"));
            REQUIRE_OK(wa_program_set_target(prog, (wa_target)t));
            wa_label l;
            REQUIRE_OK(wa_program_label_create(&l, prog, "target"));
            REQUIRE_OK(wa_build_label(prog, l));
            wa_operand ops[WA_ISA_MAX_OPERANDS];
            unsigned vnext = 0, snext = 4, anext = 0;
            int scalar_read = 0;
            for (unsigned k = 0; k < info->num_operands; k++)
                ops[k] = operand_for(info, k, l, &vnext, &snext, &anext, &scalar_read);
            if ((info->flags & WA_IF_MFMA) && strcmp(info->operands[3].name, "srcC") == 0)
                ops[3] = ops[0]; /* C = D (SMFMAC: operand 3 is the index VGPR) */
            if (!CHECK_OK(wa_build(NULL, prog, (wa_opcode)op, ops, info->num_operands, NULL))) {
                wa_program_destroy(prog);
                continue;
            }
            CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
            built++;
            unsigned nerr = 0;
            wa_status st = wa_program_validate(&nerr, prog, NULL);
            CHECK_MSG(st == WA_OK, "not valid:%s", ut_diags_text(ctx));
            char *text = NULL;
            if (CHECK_OK(wa_program_print(&text, NULL, prog, NULL))) {
                wa_program *back = NULL;
                wa_status pst = wa_program_parse(&back, ctx, text, strlen(text), "one.wa");
                CHECK_MSG(pst == WA_OK, "does not read back:%s\n%s", ut_diags_text(ctx), text);
                if (back)
                    CHECK_MSG(wa_program_equal(prog, back), "reads back differently:\n%s", text);
                wa_program_destroy(back);
            }
            wa_free(text);
            char *asm_text = NULL;
            if (st == WA_OK && CHECK_OK(wa_emit_asm(&asm_text, NULL, prog, NULL))) {
                char want[96];
                snprintf(want, sizeof(want), "\t%s ", wa_isa_mnemonic(op, (wa_target)t));
                if (info->num_operands == 0 && !(info->flags & WA_IF_WAITCNT))
                    snprintf(want, sizeof(want), "\t%s\n", wa_isa_mnemonic(op, (wa_target)t));
                char want64[104]; /* the VOP3 form of a VOP1/VOP2/VOPC row */
                snprintf(want64, sizeof(want64), "\t%s_e64 ", wa_isa_mnemonic(op, (wa_target)t));
                CHECK_MSG(strstr(asm_text, want) || strstr(asm_text, want64),
                          "the assembly names neither %s nor %s:\n%s", want, want64, asm_text);
            }
            wa_free(asm_text);
            wa_program_destroy(prog);
        }
    }
    ut_context("%s", "");
    CHECK(built > 3 * 150);
    wa_context_destroy(ctx);
}

/* The rows for the hazard rules: implicit VCC on the constant bus, M0-relative
   bases physical, DGEMM blgp, hwreg fields, gfx950-only lane swaps. */
static void hazard_rule_rows(void)
{
    setup();
    VALID("gfx942", "  v_div_scale_f32 v0, vcc, v1, v2, v3\n  v_div_scale_f32 v0, s[4:5], s1, v2, 1.0\n" END);
    INVALID("gfx942", "  v_div_scale_f32 v0, s[4:5], v1, s2, s3\n" END, "v_div_scale_f32|constant bus", 1, 3, 0);
    VALID("gfx942", "  v_div_fmas_f32 v0, 1.0, v2, v3\n" END);
    /* v_div_fmas reads VCC: no room for an SGPR (llvm-mc agrees) */
    INVALID("gfx942", "  v_div_fmas_f32 v0, s1, v2, v3\n" END, "v_div_fmas_f32 reads 2 scalar values", 1, 3, 0);
    INVALID("gfx942", "  v_div_fixup_f32 v0, v1, v2, 0x1234\n" END, "takes no literal", 1, 3, 0);
    VALID("gfx90a", "  v_fma_f64 v[0:1], s[2:3], v[4:5], 1.0\n  v_add_f64 v[0:1], v[2:3], -16\n" END);
    INVALID("gfx942", "  v_fma_f64 v[0:1], v[1:2], v[4:5], v[6:7]\n" END, "misaligned", 1, 3, 0);
    INVALID("gfx942", "  v_mul_f64 v[0:1], v[2:3], 0.3\n" END, "not an inline constant", 1, 3, 0);
    VALID("gfx942", "  v_cmpx_eq_u32 vcc, 0x1234, v2\n  v_cmpx_lt_f32 s[4:5], v1, 2.0\n" END);
    INVALID("gfx942", "  v_cmpx_eq_u32 s[4:5], 0x1234, v2\n" END, "literal needs the 32-bit encoding", 1, 3, 0);
    VALID("gfx942", "  v_dot2_f32_f16 v0, s1, v2, 1.0\n  v_dot4_i32_i8 v0, v1, v2, -3\n" END);
    VALID("gfx942", "  v_dot2_f32_f16 v0, 1.0, v2, v3\n  v_pk_add_u16 v0, 0x3f800000, v1\n" END);
    INVALID("gfx942", "  v_dot2_f32_f16 v0, 0x3c01, v2, v3\n" END, "v_dot2_f32_f16 operand src0|not an inline constant", 1, 3, 0);
    INVALID("gfx942", "  v_dot2_f32_f16 v0, v1, v2, v3 op_sel:[1,0,0]\n" END, "takes no op_sel/op_sel_hi on gfx942", 1, 3, 0);
    VALID("gfx90a", "  v_dot2_f32_f16 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1]\n" END);
    VALID("gfx942", "  s_movrels_b32 s0, s1\n  s_movreld_b64 s[0:1], 0x12345\n" END);
    INVALID("gfx942", "  s_mov_b32 %s0, 0\n  s_movrels_b32 s2, %s0\n" END,
            "s_movrels_b32 operand srel|must be a physical SGPR", 2, 3, 1);
    INVALID("gfx942", "  s_movrels_b32 s0, vcc_lo\n" END, "srel", 1, 3, 0);
    VALID("gfx942", "  s_getreg_b32 m0, hwreg(HW_REG_MODE)\n  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), vcc_hi\n"
                    "  s_setreg_imm32_b32 hwreg(63, 31, 32), -1\n" END);
    INVALID("gfx942", "  s_setreg_b32 hwreg(HW_REG_MODE), 5\n" END, "s_setreg_b32 operand 1 (src)", 1, 3, 0);
    VALID("gfx90a", "  v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], 1.0\n" END);
    VALID("gfx950", "  v_mfma_f64_4x4x4_4b_f64 a[0:1], v[8:9], v[10:11], a[0:1] cbsz:1 abid:1\n" END);
    INVALID("gfx942", "  v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7] blgp:1\n" END,
            "takes no blgp", 1, 3, 0);
    INVALID("gfx942", "  v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[2:9]\n" END,
            "identical to vdst or not overlap", 1, 3, 0);
    VALID("gfx950", "  v_permlane16_swap_b32 v0, v0\n  v_permlane32_swap_b32 v5, v255\n" END);
    INVALID("gfx942", "  v_permlane16_swap_b32 v0, v1\n" END, "not available on gfx942", 1, 3, 0);
    INVALID("gfx950", "  v_permlane16_swap_b32 v0, s1\n" END, "src0", 1, 3, 0);
    teardown();
}

/* DPP where the hardware has it (llvm-mc's answers): VOP1/VOP2 writing a VGPR from
   a VGPR src0, every source a VGPR, v_cndmask's mask vcc, a GFX9 control. */
static void dpp_rules(void)
{
    setup();
    VALID("gfx90a", "  v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
                    "  v_add_f32_dpp v0, v1, v2 row_shl:1 row_mask:0xa bank_mask:0x5 bound_ctrl:1\n"
                    "  v_cndmask_b32_dpp v0, v1, v2, vcc row_bcast:31 row_mask:0xc bank_mask:0xf\n"
                    "  v_cvt_f32_f16_dpp v0, v1 wave_ror:1 row_mask:0xf bank_mask:0xf\n"
                    "  v_rcp_f32_dpp v0, v1 row_half_mirror row_mask:0x0 bank_mask:0x0\n" END);
    VALID("gfx950", "  v_lshlrev_b32_dpp %v0, %v1, %v2 row_ror:15 row_mask:0xf bank_mask:0xf\n"
                    "  v_mov_b32 %v1, 0\n  v_mov_b32 %v2, 0\n" END);
    INVALID("gfx942", "  v_mov_b32_dpp v0, s1 quad_perm:[0,0,0,0]\n" END,
            "v_mov_b32 with DPP: src0 must be a VGPR, not an SGPR (s1)", 1, 3, 0);
    INVALID("gfx942", "  v_add_f32_dpp v0, v1, s2 quad_perm:[0,0,0,0]\n" END, "src1 must be a VGPR", 1, 3, 0);
    INVALID("gfx942", "  v_mov_b32_dpp v0, 1 quad_perm:[0,0,0,0]\n" END, "src0 must be a VGPR, not an immediate", 1, 3, 0);
    INVALID("gfx942", "  v_cndmask_b32_dpp v0, v1, v2, s[0:1] quad_perm:[1,0,3,2]\n" END,
            "mask must be vcc", 1, 3, 0);
    INVALID("gfx942", "  v_readfirstlane_b32_dpp s0, v1 quad_perm:[1,0,3,2]\n" END,
            "v_readfirstlane_b32 takes no DPP modifier", 1, 3, 0);
    INVALID("gfx942", "  v_accvgpr_mov_b32_dpp a0, a1 quad_perm:[1,0,3,2]\n" END, "takes no DPP modifier", 1, 3, 0);
    INVALID("gfx950", "  v_permlane16_swap_b32_dpp v0, v1 quad_perm:[1,0,3,2]\n" END, "takes no DPP modifier", 1, 3, 0);
    INVALID("gfx942", "  v_cmp_eq_u32_dpp vcc, v1, v2 quad_perm:[1,0,3,2]\n" END, "DPP", 1, 3, 0);
    INVALID("gfx942", "  v_fma_f32_dpp v0, v1, v2, v3 quad_perm:[1,0,3,2]\n" END, "DPP", 1, 3, 0);
    INVALID("gfx942", "  v_mov_b32_dpp v0, v1 dpp_ctrl:0x150\n" END, "DPP control 0x150", 1, 3, 0);
    INVALID("gfx942", "  v_mov_b32_dpp v0, v1 dpp_ctrl:0x100\n" END, "DPP control 0x100", 1, 3, 0);
    INVALID("gfx942", "  v_mov_b32_dpp v[0:1], v[2:3] quad_perm:[1,0,3,2]\n" END, "expected 1 register", 1, 3, 0);
    teardown();
}

/* A host built against version 1 of wa_mods passes a shorter struct: the library
   reads none of the later fields (the struct below ends exactly where version 1
   did, so ASan would see any read past it) and gives them their defaults. */
static void mods_version_1(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    size_t v1 = offsetof(wa_mods, dpp_ctrl);
    /* filled from a whole struct, then only its version-1 prefix is handed over */
    wa_mods full = WA_MODS_INIT;
    full.version = 1;
    full.flags = WA_MOD_GLC;
    unsigned char *m = malloc(v1);
    REQUIRE(m != NULL);
    memcpy(m, &full, v1);
    wa_operand ops[3] = { wa_opnd_phys(WA_REG_VGPR, 0, 1), wa_opnd_phys(WA_REG_VGPR, 2, 2), wa_opnd_off() };
    CHECK_OK(wa_build(NULL, prog, WA_OP_GLOBAL_LOAD_DWORD, ops, 3, (const wa_mods *)(void *)m));
    wa_instr_view v;
    CHECK_OK(wa_program_get(&v, prog, 0));
    CHECK_EQ_UINT(v.mods->version, WA_MODS_VERSION);
    CHECK_EQ_HEX(v.mods->flags, WA_MOD_GLC);
    CHECK_EQ_UINT(v.mods->dpp_ctrl, 0);
    CHECK_EQ_UINT(v.mods->row_mask, 0xF);
    CHECK_EQ_UINT(v.mods->bank_mask, 0xF);
    full.flags = 0;
    memcpy(m, &full, v1);
    CHECK_OK(wa_program_set_mods(prog, 0, (const wa_mods *)(void *)m));
    CHECK_OK(wa_program_get(&v, prog, 0));
    CHECK_EQ_HEX(v.mods->flags, 0);
    CHECK_EQ_UINT(v.mods->row_mask, 0xF);
    /* version 1 has no DPP bits */
    full.flags = WA_MOD_DPP;
    memcpy(m, &full, v1);
    CHECK_STATUS(wa_program_set_mods(prog, 0, (const wa_mods *)(void *)m), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "unknown modifier flags 0x40", UT_ANY, UT_ANY, UT_ANY);
    free(m);
    /* version 2: DPP fields travel; bound_ctrl needs DPP; masks have 4 bits */
    wa_mods d = WA_MODS_INIT;
    d.flags = WA_MOD_BOUND_CTRL;
    wa_operand mv[2] = { wa_opnd_phys(WA_REG_VGPR, 0, 1), wa_opnd_phys(WA_REG_VGPR, 1, 1) };
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_V_MOV_B32, mv, 2, &d), WA_E_INVALID);
    d.flags = WA_MOD_DPP;
    d.row_mask = 16;
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_V_MOV_B32, mv, 2, &d), WA_E_INVALID);
    d.row_mask = 0xA;
    d.dpp_ctrl = WA_DPP_ROW_SHR(3);
    CHECK_OK(wa_build_valu_mods(NULL, prog, WA_OP_V_MOV_B32, mv[0], mv[1], wa_opnd_none(),
                                wa_opnd_none(), &d));
    CHECK_OK(wa_program_get(&v, prog, 1));
    CHECK_EQ_UINT(v.mods->dpp_ctrl, 0x113);
    CHECK_EQ_UINT(v.mods->row_mask, 0xA);
    /* DPP fields without the flag are ignored */
    wa_mods z = WA_MODS_INIT;
    z.row_mask = 0;
    z.dpp_ctrl = 5;
    CHECK_OK(wa_build(NULL, prog, WA_OP_V_MOV_B32, mv, 2, &z));
    CHECK_OK(wa_program_get(&v, prog, 2));
    CHECK_EQ_UINT(v.mods->row_mask, 0xF);
    CHECK_EQ_UINT(v.mods->dpp_ctrl, 0);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Overlapping arguments among many: none in a large shuffled layout, and each
   kind of overlap still reported with the kernel's location. */
static void argument_overlaps_at_scale(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    /* 8000 four-byte arguments at offsets 4 * ((i * 3001) mod 8000): all distinct */
    enum { N = 8000 };
    for (unsigned i = 0; i < N; i++) {
        wa_kernel_arg a = WA_KERNEL_ARG_INIT;
        a.offset = 4u * (unsigned)((i * 3001ull) % N);
        a.size = 4;
        REQUIRE_OK(wa_program_add_arg(NULL, prog, &a));
    }
    unsigned errors = 99;
    CHECK_OK(wa_program_validate(&errors, prog, NULL));
    CHECK_EQ_UINT(errors, 0);

    /* one more argument across two of them: both overlaps reported */
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.name = "wide";
    a.offset = 4u * 1234u + 2u;
    a.size = 4;
    a.align = 2;
    REQUIRE_OK(wa_program_add_arg(NULL, prog, &a));
    CHECK_STATUS(wa_program_validate(&errors, prog, NULL), WA_E_VALIDATE);
    CHECK_EQ_UINT(errors, 2);
    for (unsigned i = 0; i < N; i++) {
        unsigned slot = (unsigned)((i * 3001ull) % N);
        if (slot != 1234 && slot != 1235)
            continue;
        char words[64];
        snprintf(words, sizeof(words), "argument %u 'wide' overlaps argument %u '(unnamed)'", N, i);
        CHECK_DIAG(ctx, WA_E_VALIDATE, words, 0, 0, WA_NO_TAG);
    }
    wa_program_destroy(prog);

    /* an earlier argument containing later ones, and equal ones: every argument
       that starts inside another is named, in index order, at its .arg line */
    static const char text[] =
        "\n.kernel k\n"
        "  .arg big, by_value, offset:16, size:32, align:16\n" /* 0: 16..48 */
        "  .arg in1, by_value, offset:20, size:4\n"           /* 1: inside big */
        "  .arg ok, by_value, offset:48, size:4\n"            /* 2: right after big */
        "  .arg in2, by_value, offset:44, size:4\n"           /* 3: inside big */
        "  .arg same, by_value, offset:48, size:4\n"          /* 4: equal to ok */
        "  .arg low, by_value, offset:0, size:4\n"            /* 5: alone */
        "  s_endpgm\n.end_kernel\n";
    REQUIRE_OK(wa_program_parse(&prog, ctx, text, strlen(text), "args.wa"));
    CHECK_STATUS(wa_program_validate(&errors, prog, NULL), WA_E_VALIDATE);
    CHECK_EQ_UINT(errors, 3);
    static const char *const want[] = {
        "argument 1 'in1' overlaps argument 0 'big'",
        "argument 3 'in2' overlaps argument 0 'big'",
        "argument 4 'same' overlaps argument 2 'ok'",
    };
    static const unsigned want_line[] = { 4, 6, 7 };
    for (unsigned k = 0; k < 3 && k < wa_context_diag_count(ctx); k++) {
        const wa_diag *d = wa_context_diag(ctx, k);
        CHECK_STR_EQ(d->message, want[k]);
        CHECK_EQ_UINT(d->line, want_line[k]);
        CHECK_EQ_UINT(d->col, 3);
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

UT_SUITE(
    UT_CASE(opcode_availability)
    UT_CASE(operand_class)
    UT_CASE(operand_size)
    UT_CASE(tuple_alignment)
    UT_CASE(register_file_limits)
    UT_CASE(literals)
    UT_CASE(constant_bus)
    UT_CASE(mfma_operands)
    UT_CASE(modifier_ranges)
    UT_CASE(modifier_formats)
    UT_CASE(modifier_fields)
    UT_CASE(mubuf_vaddr)
    UT_CASE(labels_and_flow)
    UT_CASE(undefined_virtual_registers)
    UT_CASE(duplicate_tags)
    UT_CASE(attributes)
    UT_CASE(argument_overlaps_at_scale)
    UT_CASE(physical_only)
    UT_CASE(max_errors)
    UT_CASE(several_problems)
    UT_CASE(every_opcode_has_a_valid_form)
    UT_CASE(hazard_rule_rows)
    UT_CASE(dpp_rules)
    UT_CASE(mods_version_1)
);
