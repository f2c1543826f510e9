/* tests/unit/test_isa.c — the public instruction table (isa.h / isa.def). */
#include "check.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table's ids, straight from the public .def file. */
static const char *const def_ids[] = {
#define WA_INSN(id, ...) #id,
#include <waveasm/isa.def>
#undef WA_INSN
};

#define ALL_TARGETS                                                                 \
    (WA_TARGET_BIT(WA_TARGET_GFX90A) | WA_TARGET_BIT(WA_TARGET_GFX942) |            \
     WA_TARGET_BIT(WA_TARGET_GFX950))

static int lower_ident(const char *s)
{
    if (!s || !*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

static int upper_ident(const char *s)
{
    if (!s || !*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

static wa_opcode op_by_id(const char *id)
{
    for (unsigned op = 0; op < wa_isa_count(); op++)
        if (strcmp(wa_isa_get(op)->id, id) == 0)
            return (wa_opcode)op;
    return WA_OP_COUNT_;
}

static void count_and_bounds(void)
{
    CHECK_EQ_UINT(wa_isa_count(), WA_OP_COUNT_);
    CHECK_EQ_UINT(sizeof(def_ids) / sizeof(def_ids[0]), WA_OP_COUNT_);
    CHECK(wa_isa_count() > 150);
    CHECK(wa_isa_get(WA_OP_COUNT_) == NULL);
    CHECK(wa_isa_mfma_shape(WA_OP_COUNT_) == NULL);
    CHECK(wa_isa_get(0xFFFFFFFFu) == NULL);
    CHECK(wa_isa_mnemonic(WA_OP_COUNT_, WA_TARGET_GFX942) == NULL);
    CHECK(!wa_isa_available(WA_OP_COUNT_, WA_TARGET_GFX942));
    CHECK(!wa_isa_available(WA_OP_V_MOV_B32, WA_TARGET_UNKNOWN));
    CHECK(!wa_isa_available(WA_OP_V_MOV_B32, (wa_target)WA_TARGET_COUNT));
    CHECK(!wa_isa_available(WA_OP_V_MOV_B32, (wa_target)-1));
    /* Enumerators follow the table order. */
    CHECK_STR_EQ(wa_isa_get(WA_OP_V_MOV_B32)->id, "V_MOV_B32");
    CHECK_STR_EQ(wa_isa_get(WA_OP_S_ENDPGM)->id, "S_ENDPGM");
    CHECK_STR_EQ(wa_isa_get(WA_OP_BUFFER_LOAD_DWORD_LDS)->id, "BUFFER_LOAD_DWORD_LDS");
    CHECK_STR_EQ(wa_isa_get(WA_OP_LABEL)->mnemonic, "label");
    CHECK_STR_EQ(wa_isa_get(WA_OP_COMMENT)->mnemonic, "comment");
}

/* An MFMA's shape agrees with its mnemonic (..._MxNxK[_NB]_..., or the gfx90a-only
   ..._MxNxK<type>) and with its operand sizes: C/D hold M*N*blocks/64 registers, A
   and B hold K*M (K*N) elements per block spread over 64 lanes (SMFMAC: A holds
   half of them, operand 3 is the index VGPR). */
static void mfma_shape_consistent(const wa_isa_info *in, const wa_mfma_shape *s)
{
    REQUIRE(s != NULL);
    unsigned m = 0, n = 0, k = 0, blocks = 1;
    const char *p = in->mnemonic;
    while (*p && sscanf(p, "_%ux%ux%u", &m, &n, &k) != 3)
        p++;
    REQUIRE(*p != '\0');
    const char *b = strstr(p + 1, "b_");
    if (b && b[-1] >= '0' && b[-1] <= '9' && b - p < 16) {
        while (b > p && b[-1] >= '0' && b[-1] <= '9')
            b--;
        blocks = (unsigned)atoi(b);
    } else if (in->mnemonic_gfx90a == NULL && in->targets == WA_TARGET_BIT(WA_TARGET_GFX90A)) {
        blocks = s->blocks; /* the gfx90a-only names carry no block count */
    }
    CHECK_EQ_UINT(s->m, m);
    CHECK_EQ_UINT(s->n, n);
    CHECK_EQ_UINT(s->k, k);
    CHECK_EQ_UINT(s->blocks, blocks);
    CHECK_EQ_HEX(s->blgp_targets & ~in->targets, 0);
    unsigned cwords = s->input == WA_MFMA_IN_F64 ? 2 : 1; /* registers per C/D element */
    CHECK_EQ_UINT(in->operands[0].size, m * n * blocks / 64 * cwords);
    if (s->sparse) {
        CHECK_EQ_UINT(in->operands[0].role, WA_ROLE_DEFUSE);
        CHECK_EQ_UINT(in->operands[3].size, 1);
        CHECK_EQ_HEX(in->operands[3].classes, WA_OC_VGPR);
        CHECK_EQ_INT(strncmp(in->mnemonic, "v_smfmac_", 9), 0);
    } else {
        CHECK_EQ_UINT(in->operands[3].size, m * n * blocks / 64 * cwords);
        CHECK_EQ_INT(strncmp(in->mnemonic, "v_mfma_", 7), 0);
    }
    CHECK_EQ_INT(s->input == WA_MFMA_IN_F64, in->hazard == WA_HZ_MFMA_DGEMM);
    CHECK_EQ_INT(s->input == WA_MFMA_IN_F32, in->hazard == WA_HZ_MFMA_SMFMA);
    if (s->input == WA_MFMA_IN_F8F6F4) {
        CHECK(in->flags & WA_IF_F8F6F4);
        CHECK_EQ_UINT(s->input_b, WA_MFMA_IN_F8F6F4);
        return;
    }
    static const char *const names[] = { NULL, "f16", "bf16", "fp8", "i8", "f32", NULL, "f64", "bf8", "xf32" };
    static const unsigned bits[] = { 0, 16, 16, 8, 8, 32, 0, 64, 8, 32 };
    REQUIRE(s->input >= WA_MFMA_IN_F16 && s->input <= WA_MFMA_IN_XF32 && s->input != WA_MFMA_IN_F8F6F4);
    REQUIRE(s->input_b >= WA_MFMA_IN_F16 && s->input_b <= WA_MFMA_IN_XF32 && s->input_b != WA_MFMA_IN_F8F6F4);
    /* the type suffix: _A_B for mixed fp8/bf8 opcodes (and fp8_fp8, bf8_bf8), else _A;
       gfx90a-only names glue it to the shape (32x32x4bf16) */
    char want[32];
    int mixed = s->input == WA_MFMA_IN_FP8 || s->input == WA_MFMA_IN_BF8;
    if (mixed)
        snprintf(want, sizeof(want), "_%s_%s", names[s->input], names[s->input_b]);
    else
        snprintf(want, sizeof(want), "%s%s", in->mnemonic_gfx90a == NULL &&
                 in->targets == WA_TARGET_BIT(WA_TARGET_GFX90A) ? "" : "_", names[s->input]);
    if (!mixed)
        CHECK_EQ_UINT(s->input_b, s->input);
    size_t len = strlen(in->mnemonic), nl = strlen(want);
    CHECK_MSG(len > nl && strcmp(in->mnemonic + len - nl, want) == 0, "suffix %s", want);
    unsigned asize = k * m * blocks / 64 * bits[s->input] / 32;
    CHECK_EQ_UINT(in->operands[1].size, s->sparse ? asize / 2 : asize);
    CHECK_EQ_UINT(in->operands[2].size, k * n * blocks / 64 * bits[s->input_b] / 32);
}

static void entries_well_formed(void)
{
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *in = wa_isa_get(op);
        REQUIRE(in != NULL);
        ut_context("opcode %u (%s)", op, in->id ? in->id : "?");
        CHECK(upper_ident(in->id));
        CHECK_STR_EQ(in->id, def_ids[op]);
        CHECK(lower_ident(in->mnemonic));
        CHECK(in->mnemonic_gfx90a == NULL || (lower_ident(in->mnemonic_gfx90a) &&
                                              strcmp(in->mnemonic_gfx90a, in->mnemonic) != 0));
        for (unsigned j = 0; j < op; j++)
            CHECK(strcmp(wa_isa_get(j)->id, in->id) != 0);

        CHECK((unsigned)in->format < WA_FMT_COUNT_);
        CHECK(wa_format_name(in->format) != NULL);
        CHECK(wa_latency_class_name(in->latency) != NULL);
        CHECK(wa_hazard_class_name(in->hazard) != NULL);
        CHECK(in->targets != 0);
        CHECK_EQ_HEX(in->targets & ~ALL_TARGETS, 0);
        CHECK_EQ_INT(!!(in->flags & WA_IF_PSEUDO), in->format == WA_FMT_PSEUDO);
        CHECK_EQ_INT(!!(in->flags & WA_IF_MFMA), in->format == WA_FMT_MAI);

        REQUIRE(in->num_operands <= WA_ISA_MAX_OPERANDS);
        for (unsigned i = 0; i < WA_ISA_MAX_OPERANDS; i++) {
            const wa_isa_operand *o = &in->operands[i];
            ut_context("opcode %s operand %u", in->id, i);
            if (i < in->num_operands) {
                CHECK(o->name != NULL && o->name[0] != '\0');
                CHECK(o->classes != 0);
                CHECK(o->role == WA_ROLE_DEF || o->role == WA_ROLE_USE ||
                      o->role == WA_ROLE_DEFUSE);
                CHECK_EQ_HEX(o->classes & ~0xFFFu, 0);
                /* A hwreg field is a 16-bit immediate. */
                if (o->classes & WA_OC_HWREG)
                    CHECK(o->classes == (WA_OC_IMM | WA_OC_HWREG) && o->imm_min == 0 &&
                          o->imm_max == 65535);
                if (o->classes & WA_OC_IMM)
                    CHECK(o->imm_min <= o->imm_max);
                /* Defined operands are registers. */
                if (o->role & WA_ROLE_DEF)
                    CHECK_EQ_HEX(o->classes & (WA_OC_INLINE | WA_OC_LITERAL | WA_OC_IMM |
                                               WA_OC_LABEL | WA_OC_OFF), 0);
                /* Register operands have a size unless modifiers decide it. */
                if (o->classes & (WA_OC_VGPR | WA_OC_SGPR | WA_OC_AGPR)) {
                    int variable = ((in->format == WA_FMT_MUBUF || in->format == WA_FMT_GLOBAL) &&
                                    strcmp(o->name, "vaddr") == 0) ||
                                   ((in->flags & WA_IF_F8F6F4) &&
                                    (strcmp(o->name, "srcA") == 0 || strcmp(o->name, "srcB") == 0));
                    CHECK_MSG(variable ? o->size == 0 : o->size >= 1 && o->size <= 32,
                              "size %u", o->size);
                }
                for (unsigned j = 0; j < i; j++)
                    CHECK(strcmp(in->operands[j].name, o->name) != 0);
            } else {
                CHECK(o->name == NULL);
                CHECK_EQ_UINT(o->classes, 0);
                CHECK_EQ_UINT(o->role, 0);
            }
        }
        ut_context("opcode %s", in->id);
        /* Labels appear exactly in branches and the label pseudo. */
        int has_label = 0;
        for (unsigned i = 0; i < in->num_operands; i++)
            has_label |= (in->operands[i].classes & WA_OC_LABEL) != 0;
        /* Indirect control flow (an address in SGPRs) may have no label. */
        if (!(in->flags & WA_IF_INDIRECT))
            CHECK_EQ_INT(has_label, op == WA_OP_LABEL ||
                                        (in->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)) != 0);
        else
            CHECK(in->flags & (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_SIDE_EFFECTS));
        /* MFMA issue passes. */
        if (in->flags & WA_IF_MFMA) {
            CHECK_EQ_INT(in->mfma_passes_gfx94x > 0,
                         (in->targets & ~WA_TARGET_BIT(WA_TARGET_GFX90A)) != 0);
            CHECK_EQ_INT(in->mfma_passes_gfx90a > 0,
                         (in->targets & WA_TARGET_BIT(WA_TARGET_GFX90A)) != 0);
            CHECK_EQ_INT(in->latency, WA_LAT_MFMA);
            mfma_shape_consistent(in, wa_isa_mfma_shape(op));
        } else {
            CHECK_EQ_UINT(in->mfma_passes_gfx90a, 0);
            CHECK_EQ_UINT(in->mfma_passes_gfx94x, 0);
            CHECK(wa_isa_mfma_shape(op) == NULL);
        }
        /* Memory instructions count on the right counters. */
        if (in->format == WA_FMT_MUBUF || in->format == WA_FMT_GLOBAL)
            CHECK_EQ_HEX(in->counters, WA_CNT_VM);
        else if (in->format == WA_FMT_SMEM || in->format == WA_FMT_DS)
            CHECK_EQ_HEX(in->counters, WA_CNT_LGKM);
        else
            CHECK_EQ_HEX(in->counters, 0);
        /* Every lds (LDS-DMA) form has a plain form with the same mnemonic. */
        if (in->flags & WA_IF_LDS_DMA) {
            wa_opcode plain;
            CHECK_OK(wa_isa_lookup(&plain, in->mnemonic));
            CHECK(!(wa_isa_get(plain)->flags & WA_IF_LDS_DMA));
            CHECK(in->implicit_uses & WA_IMPL_M0);
            CHECK_EQ_UINT(in->num_operands, 3);
        }
    }
    ut_context("%s", "");
}

static void enum_names(void)
{
    static const char *const fmts[] = { "PSEUDO", "SOP1", "SOP2", "SOPK", "SOPC", "SOPP",
                                        "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P",
                                        "MAI", "DS", "MUBUF", "GLOBAL", "FLAT", "SCRATCH" };
    CHECK_EQ_UINT(sizeof(fmts) / sizeof(fmts[0]), WA_FMT_COUNT_);
    for (unsigned f = 0; f < WA_FMT_COUNT_; f++)
        CHECK_STR_EQ(wa_format_name((wa_format)f), fmts[f]);
    CHECK(wa_format_name(WA_FMT_COUNT_) == NULL);
    CHECK(wa_format_name((wa_format)-1) == NULL);
    for (int l = WA_LAT_NONE; l <= WA_LAT_BRANCH; l++) {
        CHECK(wa_latency_class_name((wa_latency_class)l) != NULL);
        for (int j = WA_LAT_NONE; j < l; j++)
            CHECK(strcmp(wa_latency_class_name((wa_latency_class)l),
                         wa_latency_class_name((wa_latency_class)j)) != 0);
    }
    CHECK_STR_EQ(wa_latency_class_name(WA_LAT_VALU), "valu");
    CHECK(wa_latency_class_name((wa_latency_class)(WA_LAT_BRANCH + 1)) == NULL);
    for (int h = WA_HZ_NONE; h <= WA_HZ_LAST_; h++) {
        CHECK(wa_hazard_class_name((wa_hazard_class)h) != NULL);
        for (int j = WA_HZ_NONE; j < h; j++)
            CHECK(strcmp(wa_hazard_class_name((wa_hazard_class)h),
                         wa_hazard_class_name((wa_hazard_class)j)) != 0);
    }
    CHECK_STR_EQ(wa_hazard_class_name(WA_HZ_MFMA_XDL), "mfma_xdl");
    CHECK(wa_hazard_class_name((wa_hazard_class)(WA_HZ_LAST_ + 1)) == NULL);
    /* Appended classes keep the earlier values. */
    CHECK_EQ_INT(WA_HZ_BRANCH, 13);
    CHECK_EQ_INT(WA_HZ_DIV_FMAS, 14);
    CHECK_STR_EQ(wa_hazard_class_name(WA_HZ_DIV_FMAS), "div_fmas");
    CHECK_STR_EQ(wa_hazard_class_name(WA_HZ_MOVREL), "movrel");
    CHECK_STR_EQ(wa_hazard_class_name(WA_HZ_SENDMSG), "sendmsg");
    /* Appended formats keep the earlier values. */
    CHECK_EQ_INT(WA_FMT_GLOBAL, 15);
    CHECK_EQ_INT(WA_FMT_FLAT, 16);
    CHECK_EQ_INT(WA_FMT_SCRATCH, 17);
}

static void lookup_every_mnemonic(void)
{
    char buf[128];
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *in = wa_isa_get(op);
        ut_context("opcode %s", in->id);
        wa_opcode got = WA_OP_COUNT_;
        if (in->flags & WA_IF_PSEUDO) {
            CHECK_STATUS(wa_isa_lookup(&got, in->mnemonic), WA_E_NOT_FOUND);
            continue;
        }
        /* The plain form answers for the mnemonic shared with the lds form. */
        wa_opcode want = (wa_opcode)op;
        if (in->flags & WA_IF_LDS_DMA) {
            want = WA_OP_COUNT_;
            for (unsigned k = 0; k < wa_isa_count(); k++)
                if (k != op && strcmp(wa_isa_get(k)->mnemonic, in->mnemonic) == 0)
                    want = (wa_opcode)k;
            CHECK(want != WA_OP_COUNT_);
        }
        CHECK_OK(wa_isa_lookup(&got, in->mnemonic));
        CHECK_EQ_INT(got, want);
        snprintf(buf, sizeof(buf), "%s_e32", in->mnemonic);
        got = WA_OP_COUNT_;
        CHECK_OK(wa_isa_lookup(&got, buf));
        CHECK_EQ_INT(got, want);
        snprintf(buf, sizeof(buf), "%s_e64", in->mnemonic);
        got = WA_OP_COUNT_;
        CHECK_OK(wa_isa_lookup(&got, buf));
        CHECK_EQ_INT(got, want);
        if (in->mnemonic_gfx90a) {
            got = WA_OP_COUNT_;
            CHECK_OK(wa_isa_lookup(&got, in->mnemonic_gfx90a));
            CHECK_EQ_INT(got, want);
            snprintf(buf, sizeof(buf), "%s_e64", in->mnemonic_gfx90a);
            CHECK_OK(wa_isa_lookup(&got, buf));
            CHECK_EQ_INT(got, want);
        }
        /* Mnemonics are case-sensitive and suffixes are exact. */
        snprintf(buf, sizeof(buf), "%s_e16", in->mnemonic);
        CHECK_STATUS(wa_isa_lookup(&got, buf), WA_E_NOT_FOUND);
        snprintf(buf, sizeof(buf), "%s_e32_e32", in->mnemonic);
        CHECK_STATUS(wa_isa_lookup(&got, buf), WA_E_NOT_FOUND);
        snprintf(buf, sizeof(buf), "%sx", in->mnemonic);
        CHECK_STATUS(wa_isa_lookup(&got, buf), WA_E_NOT_FOUND);
        size_t n = strlen(in->mnemonic);
        memcpy(buf, in->mnemonic, n + 1);
        buf[0] = (char)(buf[0] - 'a' + 'A');
        CHECK_STATUS(wa_isa_lookup(&got, buf), WA_E_NOT_FOUND);
    }
    ut_context("%s", "");
    wa_opcode got;
    CHECK_STATUS(wa_isa_lookup(&got, ""), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_isa_lookup(&got, "_e32"), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_isa_lookup(&got, "_e64"), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_isa_lookup(&got, "V_MOV_B32"), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_isa_lookup(&got, "v_mov_b32 "), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_isa_lookup(&got, "v_mov_b64"), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_isa_lookup(&got, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_isa_lookup(NULL, "v_mov_b32"), WA_E_INVALID);
    got = WA_OP_COUNT_;
    CHECK_OK(wa_isa_lookup(&got, "v_mov_b32_e32"));
    CHECK_EQ_INT(got, WA_OP_V_MOV_B32);
    CHECK_OK(wa_isa_lookup(&got, "v_cmp_eq_u32_e64"));
    CHECK_EQ_INT(got, WA_OP_V_CMP_EQ_U32);
    CHECK_OK(wa_isa_lookup(&got, "buffer_load_dword"));
    CHECK_EQ_INT(got, WA_OP_BUFFER_LOAD_DWORD);
    CHECK_OK(wa_isa_lookup(&got, "v_mfma_f32_16x16x16bf16_1k"));
    CHECK_EQ_INT(got, WA_OP_V_MFMA_F32_16X16X16_BF16);
}

static void availability(void)
{
    static const struct {
        const char *mnemonic;
        int gfx90a, gfx942, gfx950;
    } table[] = {
        { "v_mfma_f32_16x16x32_f16", 0, 0, 1 },
        { "v_mfma_f32_16x16x32_bf16", 0, 0, 1 },
        { "v_cvt_pk_bf16_f32", 0, 0, 1 },
        { "v_mfma_scale_f32_16x16x128_f8f6f4", 0, 0, 1 },
        { "buffer_atomic_pk_add_bf16", 0, 0, 1 },
        { "v_mfma_f32_16x16x32_fp8_fp8", 0, 1, 1 },
        { "v_mfma_f32_32x32x16_fp8_fp8", 0, 1, 1 },
        { "v_mfma_i32_16x16x32_i8", 0, 1, 1 },
        { "v_mfma_f32_16x16x16_f16", 1, 1, 1 },
        { "v_mov_b32", 1, 1, 1 },
        { "s_endpgm", 1, 1, 1 },
        { "global_load_dwordx4", 1, 1, 1 },
    };
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        wa_opcode op;
        ut_context("%s", table[i].mnemonic);
        REQUIRE_OK(wa_isa_lookup(&op, table[i].mnemonic));
        CHECK_EQ_INT(!!wa_isa_available(op, WA_TARGET_GFX90A), table[i].gfx90a);
        CHECK_EQ_INT(!!wa_isa_available(op, WA_TARGET_GFX942), table[i].gfx942);
        CHECK_EQ_INT(!!wa_isa_available(op, WA_TARGET_GFX950), table[i].gfx950);
    }
    ut_context("%s", "");
    /* The lds forms of dwordx3/x4 buffer loads are gfx950 only; dword is everywhere. */
    CHECK(!wa_isa_available(WA_OP_BUFFER_LOAD_DWORDX4_LDS, WA_TARGET_GFX942));
    CHECK(wa_isa_available(WA_OP_BUFFER_LOAD_DWORDX4_LDS, WA_TARGET_GFX950));
    CHECK(wa_isa_available(WA_OP_BUFFER_LOAD_DWORD_LDS, WA_TARGET_GFX90A));
    /* availability agrees with the targets mask for every opcode */
    for (unsigned op = 0; op < wa_isa_count(); op++)
        for (int t = WA_TARGET_GFX90A; t <= WA_TARGET_GFX950; t++)
            CHECK_EQ_INT(!!wa_isa_available(op, (wa_target)t),
                         !!(wa_isa_get(op)->targets & WA_TARGET_BIT(t)));
}

static void gfx90a_spelling(void)
{
    static const struct {
        wa_opcode op;
        const char *gfx90a, *gfx94x;
    } table[] = {
        { WA_OP_V_MFMA_F32_16X16X16_F16, "v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16_f16" },
        { WA_OP_V_MFMA_F32_32X32X8_F16, "v_mfma_f32_32x32x8f16", "v_mfma_f32_32x32x8_f16" },
        { WA_OP_V_MFMA_F32_16X16X16_BF16, "v_mfma_f32_16x16x16bf16_1k", "v_mfma_f32_16x16x16_bf16" },
        { WA_OP_V_MFMA_F32_16X16X4_F32, "v_mfma_f32_16x16x4f32", "v_mfma_f32_16x16x4_f32" },
        { WA_OP_V_MOV_B32, "v_mov_b32", "v_mov_b32" },
        { WA_OP_BUFFER_LOAD_DWORD_LDS, "buffer_load_dword", "buffer_load_dword" },
    };
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        ut_context("%s", table[i].gfx94x);
        CHECK_STR_EQ(wa_isa_mnemonic(table[i].op, WA_TARGET_GFX90A), table[i].gfx90a);
        CHECK_STR_EQ(wa_isa_mnemonic(table[i].op, WA_TARGET_GFX942), table[i].gfx94x);
        CHECK_STR_EQ(wa_isa_mnemonic(table[i].op, WA_TARGET_GFX950), table[i].gfx94x);
    }
    ut_context("%s", "");
    /* gfx90a and gfx942 encodings differ for the _1k bf16 MFMAs only. */
    const wa_isa_info *bf16 = wa_isa_get(WA_OP_V_MFMA_F32_16X16X16_BF16);
    CHECK_EQ_HEX(bf16->encoding, 0x61);
    CHECK_EQ_HEX(bf16->encoding_gfx90a, 0x67);
    const wa_isa_info *f16 = wa_isa_get(WA_OP_V_MFMA_F32_16X16X16_F16);
    CHECK_EQ_HEX(f16->encoding, f16->encoding_gfx90a);
}

/* The rows the hazard rules of gfx90a/gfx942/gfx950 name: implicit registers,
   hazard classes, hwreg fields, availability and pass counts (llvm-mc and LLVM's
   scheduling models). */
static void hazard_rule_rows(void)
{
    const wa_isa_info *in = wa_isa_get(WA_OP_V_DIV_FMAS_F32);
    CHECK(in->implicit_uses & WA_IMPL_VCC);
    CHECK_EQ_INT(in->hazard, WA_HZ_DIV_FMAS);
    in = wa_isa_get(WA_OP_V_DIV_SCALE_F32);
    CHECK_EQ_UINT(in->num_operands, 5);
    CHECK_EQ_UINT(in->operands[1].role, WA_ROLE_DEF);
    CHECK_EQ_UINT(in->operands[1].size, 2);
    CHECK_EQ_HEX(in->encoding, 0x1e0);
    /* v_cmpx writes its sdst and EXEC on GFX9; v_cmp writes only sdst */
    for (unsigned op = WA_OP_V_CMPX_LT_I32; op <= WA_OP_V_CMPX_NEQ_F32; op++) {
        in = wa_isa_get(op);
        ut_context("%s", in->mnemonic);
        CHECK(strncmp(in->mnemonic, "v_cmpx_", 7) == 0);
        CHECK_EQ_HEX(in->implicit_defs, WA_IMPL_EXEC);
        CHECK_EQ_INT(in->format, WA_FMT_VOPC);
        wa_opcode cmp;
        char name[32];
        snprintf(name, sizeof(name), "v_cmp_%s", in->mnemonic + 7);
        if (CHECK_OK(wa_isa_lookup(&cmp, name)))
            CHECK_EQ_HEX(in->encoding, wa_isa_get(cmp)->encoding + 0x10);
    }
    ut_context("%s", "");
    CHECK_EQ_HEX(wa_isa_get(WA_OP_V_CMP_EQ_U32)->implicit_defs, 0);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_FMA_F64)->hazard, WA_HZ_FMA64);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_ADD_F64)->hazard, WA_HZ_VALU);
    CHECK_EQ_UINT(wa_isa_get(WA_OP_V_MUL_F64)->operands[0].size, 2);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_MUL_F64)->operands[1].type, WA_TY_F64);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_DOT2_F32_F16)->hazard, WA_HZ_DOT);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_DOT4_I32_I8)->format, WA_FMT_VOP3P);
    /* s_getreg / s_setreg: a 16-bit hwreg field, SALU, side effects */
    in = wa_isa_get(WA_OP_S_GETREG_B32);
    CHECK_EQ_INT(in->hazard, WA_HZ_GETREG);
    CHECK(in->flags & WA_IF_SIDE_EFFECTS);
    CHECK_EQ_HEX(in->operands[1].classes, WA_OC_IMM | WA_OC_HWREG);
    CHECK_EQ_INT(wa_isa_get(WA_OP_S_SETREG_B32)->hazard, WA_HZ_SETREG);
    CHECK_EQ_INT(wa_isa_get(WA_OP_S_SETREG_IMM32_B32)->hazard, WA_HZ_SETREG);
    CHECK_EQ_HEX(wa_isa_get(WA_OP_S_SETREG_IMM32_B32)->operands[0].classes, WA_OC_IMM | WA_OC_HWREG);
    CHECK_EQ_HEX(WA_HWREG(WA_HWREG_MODE, 0, 4), 0x1801u);   /* llvm-mc: 01 18 */
    CHECK_EQ_HEX(WA_HWREG(WA_HWREG_HW_ID, 0, 32), 0xF804u);
    CHECK_EQ_UINT(WA_HWREG_SIZE(0xFFFFu), 32);
    CHECK_EQ_UINT(WA_HWREG_OFFSET(0x11C2u), 7);
    CHECK_STR_EQ(wa_hwreg_name(WA_HWREG_IB_STS, WA_TARGET_GFX90A), "HW_REG_IB_STS");
    CHECK_STR_EQ(wa_hwreg_name(20, WA_TARGET_GFX942), "HW_REG_XCC_ID");
    CHECK(wa_hwreg_name(20, WA_TARGET_GFX90A) == NULL);
    CHECK(wa_hwreg_name(8, WA_TARGET_GFX950) == NULL);
    CHECK(wa_hwreg_name(1, WA_TARGET_UNKNOWN) == NULL);
    CHECK(wa_hwreg_name(64, WA_TARGET_GFX942) == NULL);
    /* s_movrel*: M0 indexes the SGPR operand whose classes are exactly SGPR */
    for (unsigned op = WA_OP_S_MOVRELS_B32; op <= WA_OP_S_MOVRELD_B64; op++) {
        in = wa_isa_get(op);
        ut_context("%s", in->mnemonic);
        CHECK(in->implicit_uses & WA_IMPL_M0);
        CHECK(in->flags & WA_IF_REL_M0);
        CHECK_EQ_INT(in->hazard, WA_HZ_MOVREL);
        unsigned based = 0;
        for (unsigned k = 0; k < in->num_operands; k++)
            based += in->operands[k].classes == WA_OC_SGPR;
        CHECK_EQ_UINT(based, 1);
    }
    ut_context("%s", "");
    /* gfx950 lane swaps: both operands read and written */
    in = wa_isa_get(WA_OP_V_PERMLANE16_SWAP_B32);
    CHECK_EQ_UINT(in->operands[0].role, WA_ROLE_DEFUSE);
    CHECK_EQ_UINT(in->operands[1].role, WA_ROLE_DEFUSE);
    CHECK_EQ_INT(in->hazard, WA_HZ_PERMLANE_SWAP);
    CHECK(!wa_isa_available(WA_OP_V_PERMLANE32_SWAP_B32, WA_TARGET_GFX942));
    CHECK(wa_isa_available(WA_OP_V_PERMLANE32_SWAP_B32, WA_TARGET_GFX950));
    /* DGEMM: passes per target, gfx90a spelling, F64 shape */
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_MFMA_F64_16X16X4_F64, WA_TARGET_GFX942), 8);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_MFMA_F64_16X16X4_F64, WA_TARGET_GFX950), 16);
    CHECK_EQ_UINT(wa_isa_get(WA_OP_V_MFMA_F64_16X16X4_F64)->mfma_passes_gfx94x, 8);
    CHECK_EQ_UINT(wa_isa_get(WA_OP_V_MFMA_F64_16X16X4_F64)->mfma_passes_gfx950, 16);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_MFMA_F64_4X4X4_4B_F64, WA_TARGET_GFX90A), 4);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_MFMA_F32_16X16X16_F16, WA_TARGET_GFX950),
                  wa_isa_get(WA_OP_V_MFMA_F32_16X16X16_F16)->mfma_passes_gfx94x);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_ADD_U32, WA_TARGET_GFX942), 0);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_PERMLANE16_SWAP_B32, WA_TARGET_GFX942), 0);
    CHECK_STR_EQ(wa_isa_mnemonic(WA_OP_V_MFMA_F64_4X4X4_4B_F64, WA_TARGET_GFX90A), "v_mfma_f64_4x4x4f64");
    CHECK_EQ_INT(wa_isa_mfma_shape(WA_OP_V_MFMA_F64_16X16X4_F64)->input, WA_MFMA_IN_F64);
    /* every row's gfx950 pass count equals gfx942's unless it is an MFMA */
    for (unsigned op = 0; op < wa_isa_count(); op++)
        if (!(wa_isa_get(op)->flags & WA_IF_MFMA))
            CHECK_EQ_UINT(wa_isa_get(op)->mfma_passes_gfx950, 0);
}

/* Facts the rest of the library depends on, spot-checked against the hardware docs. */
static void selected_facts(void)
{
    const wa_isa_info *in;
    in = wa_isa_get(op_by_id("V_CNDMASK_B32"));
    REQUIRE(in && in->num_operands == 4);
    CHECK_STR_EQ(in->operands[3].name, "mask");
    CHECK_EQ_UINT(in->operands[3].size, 2);
    CHECK(in->operands[3].classes & WA_OC_SGPR);

    in = wa_isa_get(WA_OP_S_LOAD_DWORDX4);
    CHECK_EQ_UINT(in->operands[0].size, 4);
    CHECK_EQ_UINT(in->operands[1].size, 2);
    CHECK(in->flags & WA_IF_LOAD);

    in = wa_isa_get(WA_OP_S_NOP);
    CHECK_EQ_UINT(in->num_operands, 1);
    CHECK_EQ_HEX(in->operands[0].classes, WA_OC_IMM);
    CHECK_EQ_INT(in->operands[0].imm_min, 0);
    CHECK_EQ_INT(in->operands[0].imm_max, 15);

    in = wa_isa_get(WA_OP_S_MOVK_I32);
    CHECK_EQ_INT(in->operands[1].imm_min, -32768);
    CHECK_EQ_INT(in->operands[1].imm_max, 65535);

    in = wa_isa_get(WA_OP_S_WAITCNT);
    CHECK_EQ_UINT(in->num_operands, 0);
    CHECK(in->flags & WA_IF_WAITCNT);
    CHECK_EQ_INT(in->format, WA_FMT_SOPP);

    in = wa_isa_get(WA_OP_S_CBRANCH_VCCZ);
    CHECK(in->flags & WA_IF_CBRANCH);
    CHECK(in->implicit_uses & WA_IMPL_VCC);
    CHECK(wa_isa_get(WA_OP_S_BRANCH)->flags & WA_IF_BRANCH);
    CHECK(wa_isa_get(WA_OP_S_ENDPGM)->flags & WA_IF_ENDPGM);
    CHECK(wa_isa_get(WA_OP_S_ADD_U32)->implicit_defs & WA_IMPL_SCC);
    CHECK(wa_isa_get(WA_OP_S_CSELECT_B32)->implicit_uses & WA_IMPL_SCC);

    in = wa_isa_get(WA_OP_V_WRITELANE_B32);
    CHECK_EQ_UINT(in->operands[0].role, WA_ROLE_DEFUSE);
    CHECK_EQ_INT(in->hazard, WA_HZ_WRITELANE);

    in = wa_isa_get(WA_OP_V_MFMA_F32_16X16X16_F16);
    CHECK_EQ_UINT(in->num_operands, 4);
    CHECK_EQ_UINT(in->operands[0].size, 4);
    CHECK_EQ_UINT(in->operands[1].size, 2);
    CHECK_EQ_HEX(in->operands[1].classes & WA_OC_SGPR, 0);
    CHECK(in->operands[3].classes & WA_OC_INLINE);
    CHECK_EQ_INT(in->hazard, WA_HZ_MFMA_XDL);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_MFMA_F32_16X16X4_F32)->hazard, WA_HZ_MFMA_SMFMA);
    CHECK_EQ_UINT(wa_isa_get(WA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4)->num_operands, 6);

    in = wa_isa_get(WA_OP_GLOBAL_STORE_DWORD);
    CHECK_STR_EQ(in->operands[0].name, "vaddr");
    CHECK(in->flags & WA_IF_STORE);
    CHECK_EQ_HEX(in->operands[2].classes & WA_OC_SPECIAL, 0); /* saddr: numbered SGPRs */

    in = wa_isa_get(WA_OP_DS_READ2_B32);
    CHECK(in->flags & WA_IF_DS_2ADDR);
    CHECK_EQ_UINT(in->operands[0].size, 2);

    CHECK(wa_isa_get(WA_OP_V_EXP_F32)->flags & WA_IF_TRANS);
    CHECK(wa_isa_get(WA_OP_V_ADD_U32)->implicit_uses & WA_IMPL_EXEC);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_ADD_U32)->format, WA_FMT_VOP2);
    CHECK_EQ_HEX(wa_isa_get(WA_OP_V_ADD_U32)->encoding, 0x34);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_MUL_LO_U32)->format, WA_FMT_VOP3);
    CHECK_EQ_HEX(wa_isa_get(WA_OP_V_MUL_LO_U32)->operands[1].classes & WA_OC_LITERAL, 0);
}

UT_SUITE(
    UT_CASE(count_and_bounds)
    UT_CASE(entries_well_formed)
    UT_CASE(enum_names)
    UT_CASE(lookup_every_mnemonic)
    UT_CASE(availability)
    UT_CASE(gfx90a_spelling)
    UT_CASE(selected_facts)
    UT_CASE(hazard_rule_rows)
);
