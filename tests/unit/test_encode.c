/* tests/unit/test_encode.c — wa_encode_program and wa_disassemble: encodings
   llvm-mc-22 gives for a few instructions of each format (the reference's
   examples), branches and offsets, the located errors for what cannot be encoded,
   and the disassembly round trip. The whole table is compared with llvm-mc by
   toolchain.encode_llvm_mc. */
#include "check.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Encodes the program; returns the bytes (wa_free) or NULL with a failed check. */
static unsigned char *encode(const wa_program *prog, size_t *len, unsigned flags,
                             uint32_t *offsets)
{
    wa_encode_options o = WA_ENCODE_OPTIONS_INIT;
    o.flags = flags;
    o.item_offsets = offsets;
    unsigned char *code = NULL;
    wa_status st = wa_encode_program(&code, len, prog, &o);
    if (!CHECK_MSG(st == WA_OK && code, "encode failed (%d):%s", (int)st,
                   ut_diags_text(wa_program_context(prog))))
        return NULL;
    return code;
}

static uint32_t word(const unsigned char *c, size_t i)
{
    return (uint32_t)c[4 * i] | (uint32_t)c[4 * i + 1] << 8 | (uint32_t)c[4 * i + 2] << 16 |
           (uint32_t)c[4 * i + 3] << 24;
}

/* One instruction per row and the dwords llvm-mc-22 assembles it to. */
typedef struct sample {
    const char *target, *line;
    unsigned n;
    uint32_t w[4];
} sample;

static const sample samples[] = {
    { "gfx942", "s_mov_b32 s0, s1", 1, { 0xbe800001 } },
    { "gfx942", "s_mov_b64 s[0:1], exec", 1, { 0xbe80017e } },
    { "gfx942", "s_mov_b32 s0, 0x12345678", 2, { 0xbe8000ff, 0x12345678 } },
    { "gfx942", "s_lshl_b64 s[2:3], s[4:5], 3", 1, { 0x8e828304 } },
    { "gfx942", "s_movk_i32 s0, 0x1234", 1, { 0xb0001234 } },
    { "gfx942", "s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)", 1, { 0xb8801801 } },
    { "gfx942", "s_cmp_eq_u32 s0, s1", 1, { 0xbf060100 } },
    { "gfx942", "s_waitcnt vmcnt(0)", 1, { 0xbf8c0f70 } },
    { "gfx942", "s_waitcnt vmcnt(1) lgkmcnt(2)", 1, { 0xbf8c0271 } },
    { "gfx942", "s_load_dword s0, s[4:5], 0x10", 2, { 0xc0020002, 0x00000010 } },
    { "gfx942", "s_load_dword s0, s[4:5], s6 offset:0x10", 2, { 0xc0024002, 0x0c000010 } },
    { "gfx942", "v_add_f32 v0, v1, v2", 1, { 0x02000501 } },
    { "gfx942", "v_add_u32 v0, -16, v2", 1, { 0x680004d0 } },
    { "gfx942", "v_fmamk_f32 v0, v1, 0x12345678, v2", 2, { 0x2e000501, 0x12345678 } },
    { "gfx942", "v_cmp_eq_u32 vcc, v0, v1", 1, { 0x7d940300 } },
    { "gfx942", "v_cmp_eq_u32 s[4:5], v0, v1", 2, { 0xd0ca0004, 0x00020300 } },
    { "gfx942", "v_add_f32 v0, -v1, |v2| clamp", 2, { 0xd1018200, 0x20020501 } },
    { "gfx942", "v_fma_f32 v0, v1, s2, 1.0", 2, { 0xd1cb0000, 0x03c80501 } },
    { "gfx942", "v_div_scale_f32 v0, vcc, v1, v2, v3", 2, { 0xd1e06a00, 0x040e0501 } },
    { "gfx942", "v_pk_add_f16 v0, v1, v2", 2, { 0xd38f4000, 0x18020501 } },
    { "gfx942", "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], a[0:3]", 2,
      { 0xd3cd8000, 0x04020d04 } },
    { "gfx942", "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[6:7], v[0:3] cbsz:2 abid:1 blgp:3", 2,
      { 0xd3ca0a00, 0x64020d04 } },
    { "gfx942", "v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", 2,
      { 0x7e0002fa, 0xff00b101 } },
    { "gfx942",
      "v_add_f32_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 "
      "src1_sel:DWORD",
      2, { 0x020004f9, 0x06041501 } },
    { "gfx942", "ds_read_b32 v0, v1 offset:16", 2, { 0xd86c0010, 0x00000001 } },
    { "gfx942", "ds_read_b32 a0, v1", 2, { 0xda6c0000, 0x00000001 } },
    { "gfx942", "buffer_load_dword v0, v1, s[4:7], 0 offen offset:16", 2,
      { 0xe0501010, 0x80010001 } },
    { "gfx942", "buffer_atomic_add v0, v1, s[4:7], 0 offen sc0", 2, { 0xe1085000, 0x80010001 } },
    { "gfx942", "global_load_dword v0, v2, s[4:5] offset:-8", 2, { 0xdc509ff8, 0x00040002 } },
    { "gfx942", "global_load_dword v0, v[2:3], off sc0 nt sc1", 2, { 0xde538000, 0x007f0002 } },
    { "gfx942", "scratch_load_dword v0, v1, off", 2, { 0xdc506000, 0x007f0001 } },
    { "gfx942", "flat_load_dword v0, v[2:3]", 2, { 0xdc500000, 0x00000002 } },
    { "gfx950", "v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]", 2,
      { 0xd3d40000, 0x04021104 } },
    { "gfx942", "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7] neg:[1,0,0]", 2,
      { 0xd3ee0000, 0x24021508 } },
};

static void known_encodings(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        const sample *s = &samples[i];
        ut_context("%s: %s", s->target, s->line);
        char body[256];
        snprintf(body, sizeof(body), "  %s\n  s_endpgm\n", s->line);
        wa_program *prog = NULL;
        if (!CHECK_OK(ut_parse_body(&prog, ctx, s->target, body)))
            continue;
        size_t len = 0;
        unsigned char *code = encode(prog, &len, 0, NULL);
        if (code && CHECK_EQ_UINT(len, 4u * s->n + 4u)) {
            for (unsigned k = 0; k < s->n; k++)
                CHECK_EQ_HEX(word(code, k), s->w[k]);
            CHECK_EQ_HEX(word(code, s->n), 0xbf810000u); /* s_endpgm */
        }
        wa_free(code);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* Branches count dwords from the next instruction; offsets per item. */
static void branches_and_offsets(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942",
                             "top:\n"
                             "  s_mov_b32 s0, 0x1234\n"      /* 0: 8 bytes */
                             "  s_cbranch_scc1 done\n"       /* 8 */
                             "  ; a comment\n"
                             "  s_branch top\n"              /* 12 */
                             "done:\n"
                             "  s_endpgm\n"));               /* 16 */
    uint32_t offs[8];
    memset(offs, 0xEE, sizeof(offs));
    size_t len = 0;
    unsigned char *code = encode(prog, &len, 0, offs);
    REQUIRE(code);
    CHECK_EQ_UINT(len, 20);
    CHECK_EQ_HEX(word(code, 2), 0xbf850001u);  /* to 16 from 12: +1 */
    CHECK_EQ_HEX(word(code, 3), 0xbf82fffcu);  /* to 0 from 16: -4 */
    static const uint32_t want[] = { 0, 0, 8, 12, 12, 16, 16 };
    REQUIRE(wa_program_size(prog) == 7);
    for (unsigned i = 0; i < 7; i++)
        CHECK_EQ_UINT(offs[i], want[i]);
    wa_free(code);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* The program must fail to encode with `status`, a diagnostic naming `words` at
   the given body line and tag. */
static void expect_refusal(wa_context *ctx, const char *target, const char *body,
                           unsigned flags, wa_status status, const char *words, unsigned line,
                           unsigned tag)
{
    wa_program *prog = NULL;
    ut_context("%s", body);
    if (!CHECK_OK(ut_parse_body(&prog, ctx, target, body)))
        return;
    wa_encode_options o = WA_ENCODE_OPTIONS_INIT;
    o.flags = flags;
    unsigned char *code = (unsigned char *)"untouched";
    size_t len = 99;
    CHECK_STATUS(wa_encode_program(&code, &len, prog, &o), status);
    CHECK(code == NULL);
    CHECK_EQ_UINT(len, 0);
    CHECK_DIAG(ctx, status, words, line, UT_ANY, tag);
    wa_program_destroy(prog);
    ut_context("%s", "");
}

static void refusals(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    unsigned nv = WA_ENCODE_NO_VALIDATE;
    /* the encoder's own checks (validation skipped) */
    expect_refusal(ctx, "gfx942", "  s_nop 0\n  v_mov_b32 %v0, v1\n", nv, WA_E_VALIDATE,
                   "v_mov_b32|virtual", UT_BODY_LINE + 1, 1);
    expect_refusal(ctx, "gfx942", "  v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]\n",
                   nv, WA_E_VALIDATE, "not available|gfx942", UT_BODY_LINE, 0);
    expect_refusal(ctx, "gfx942", "  v_fma_f32 v0, v1, v2, 0x12345\n", nv, WA_E_VALIDATE,
                   "literal", UT_BODY_LINE, 0);
    expect_refusal(ctx, "gfx942", "  ds_read_b32 v0, v1 offset:70000\n", nv, WA_E_RANGE,
                   "offset|70000", UT_BODY_LINE, 0);
    expect_refusal(ctx, "gfx942", "  global_load_dword v0, v[2:3], off offset:5000\n", nv,
                   WA_E_RANGE, "offset|5000", UT_BODY_LINE, 0);
    expect_refusal(ctx, "gfx942", "  s_branch nowhere\n  s_endpgm\n", nv, WA_E_VALIDATE,
                   "nowhere|not placed", UT_BODY_LINE, 0);
    /* through the validator */
    expect_refusal(ctx, "gfx942", "  v_mov_b32 %v0, v1\n", 0, WA_E_VALIDATE, "", UT_BODY_LINE, 0);
    expect_refusal(ctx, "gfx90a", "  v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]\n", 0,
                   WA_E_VALIDATE, "", UT_BODY_LINE, 0);

    /* a branch farther than 32767 dwords */
    ut_tb tb;
    memset(&tb, 0, sizeof(tb));
    ut_tb_printf(&tb, "  s_branch far\n");
    for (unsigned i = 0; i < 32768; i++)
        ut_tb_printf(&tb, "  s_nop 0\n");
    ut_tb_printf(&tb, "far:\n  s_endpgm\n");
    expect_refusal(ctx, "gfx942", tb.s, 0, WA_E_RANGE, "far|32767", UT_BODY_LINE, 0);
    ut_tb_free(&tb);
    wa_context_destroy(ctx);
}

static void bad_options(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942", "  s_endpgm\n"));
    wa_encode_options o = WA_ENCODE_OPTIONS_INIT;
    o.version = 99;
    unsigned char *code = NULL;
    size_t len = 0;
    CHECK_STATUS(wa_encode_program(&code, &len, prog, &o), WA_E_INVALID);
    CHECK_STATUS(wa_encode_program(NULL, &len, prog, NULL), WA_E_INVALID);
    char *text = NULL;
    static const unsigned char junk[] = { 0xff, 0xff, 0xff, 0xff };
    CHECK_STATUS(wa_disassemble(&text, NULL, ctx, junk, 4, WA_TARGET_GFX942, NULL), WA_E_PARSE);
    CHECK_DIAG(ctx, WA_E_PARSE, "0xffffffff", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_disassemble(&text, NULL, ctx, junk, 3, WA_TARGET_GFX942, NULL), WA_E_PARSE);
    /* an instruction cut short: the literal of s_mov_b32 is missing */
    static const unsigned char cut[] = { 0xff, 0x00, 0x80, 0xbe };
    CHECK_STATUS(wa_disassemble(&text, NULL, ctx, cut, 4, WA_TARGET_GFX942, NULL), WA_E_PARSE);
    CHECK(text == NULL);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Every example on every target it validates on: encode, disassemble, parse the
   text, encode again: the same bytes. */
static void examples_round_trip(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    CHECK(n > 0);
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const wa_target targets[] = { WA_TARGET_GFX90A, WA_TARGET_GFX942, WA_TARGET_GFX950 };
    unsigned done = 0;
    for (unsigned i = 0; i < n; i++) {
        size_t flen = 0;
        char *src = ut_read_file(files[i], &flen, 1);
        if (!CHECK(src))
            continue;
        for (unsigned t = 0; t < 3; t++) {
            ut_context("%s on %s", files[i], wa_target_name(targets[t]));
            wa_program *prog = NULL;
            if (wa_program_parse(&prog, ctx, src, flen, files[i]) != WA_OK ||
                wa_program_set_target(prog, targets[t]) != WA_OK) {
                wa_program_destroy(prog);
                continue;
            }
            unsigned char *code = NULL;
            size_t len = 0;
            if (wa_encode_program(&code, &len, prog, NULL) != WA_OK) { /* virtual registers */
                wa_program_destroy(prog);
                continue;
            }
            char *text = NULL;
            size_t tlen = 0;
            wa_disasm_options dopt = WA_DISASM_OPTIONS_INIT;
            dopt.flags = WA_DISASM_OFFSETS;
            if (CHECK_OK(wa_disassemble(&text, &tlen, ctx, code, len, targets[t], &dopt))) {
                CHECK_EQ_UINT(tlen, strlen(text));
                CHECK_STR_CONTAINS(text, "; 0x0000");
                ut_tb k;
                memset(&k, 0, sizeof(k));
                ut_tb_printf(&k, ".kernel rt\n  .target %s\n%s.end_kernel\n",
                             wa_target_name(targets[t]), text);
                wa_program *back = NULL;
                if (CHECK_OK(wa_program_parse(&back, ctx, k.s, strlen(k.s), "rt.wa"))) {
                    size_t len2 = 0;
                    unsigned char *again = encode(back, &len2, 0, NULL);
                    if (again && CHECK_EQ_UINT(len2, len))
                        CHECK(memcmp(again, code, len) == 0);
                    wa_free(again);
                    done++;
                }
                wa_program_destroy(back);
                ut_tb_free(&k);
            }
            wa_free(text);
            wa_free(code);
            wa_program_destroy(prog);
        }
        free(src);
    }
    ut_context("%s", "");
    CHECK(done >= 3);
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

UT_SUITE(
    UT_CASE(known_encodings)
    UT_CASE(branches_and_offsets)
    UT_CASE(refusals)
    UT_CASE(bad_options)
    UT_CASE(examples_round_trip)
);
