/* lib/encode/encoder.c — machine code for a finished program, one format at a
   time. Every fact about an opcode comes from the ISA table (format, opcode
   field, operand names, types and classes, modifiers); this file knows only
   where each format puts its fields. Operands are found by their table names
   (vdst, src0, srsrc, ...), which are the format's field names. Branches are
   resolved in a second pass once every label has its offset. */
#include "encode.h"

#include <waveasm/validate.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct fixup {
    uint32_t word;   /* index of the branch's word */
    uint32_t item;   /* the instruction */
    uint32_t label;  /* its label operand's id */
} fixup;


/* Where a row keeps each named operand, and the VOP3-style source field of each
   operand: looked up once per opcode and encode call (the names are the
   formats' field names). */
enum {
    N_VDST, N_SDST, N_DREL, N_SRC0, N_SREL, N_SRC1, N_K, N_SBASE, N_SOFFSET, N_SDATA, N_PROBE, N_DATA0, N_DATA1, N_ADDR, N_VDATA, N_VADDR, N_SADDR, N_SRSRC, N_SCALEA, N_SCALEB, N_SRCA, N_SRCB,
    N_COUNT_
};
static const char *const field_names[N_COUNT_] = {
    "vdst", "sdst", "drel", "src0", "srel", "src1", "k", "sbase", "soffset", "sdata", "probe", "data0", "data1", "addr", "vdata", "vaddr", "saddr", "srsrc", "scaleA", "scaleB", "srcA", "srcB",
};

typedef struct layout {
    int8_t ready;
    int8_t idx[N_COUNT_];                 /* operand index, or -1 */
    int8_t field[WA_ISA_MAX_OPERANDS];    /* wa_enc_src_field of each operand */
} layout;

typedef struct enc {
    wa_context *ctx;
    const wa_program *prog;
    wa_target target;
    const wa_instr *in;
    const wa_isa_info *info;
    uint32_t lit;    /* the instruction's literal dword */
    int has_lit;
    int lit_ok;      /* the encoding being built can carry one */
    int label_k;     /* operand index of a label to resolve, or -1 */
    layout *layouts; /* one per opcode, or NULL: `one` for the current instruction */
    layout one;
    const layout *L; /* the current instruction's */
} enc;

unsigned wa_enc_special_code(unsigned s)
{
    static const unsigned char codes[WA_SPECIAL_COUNT_] = {
        WA_SRC_VCC_LO, WA_SRC_VCC_LO, WA_SRC_VCC_LO + 1, WA_SRC_EXEC_LO, WA_SRC_EXEC_LO,
        WA_SRC_EXEC_LO + 1, WA_SRC_M0, WA_SRC_SCC,
    };
    return s < WA_SPECIAL_COUNT_ ? codes[s] : 0;
}

static wa_status fail(enc *e, wa_status st, const char *fmt, ...) WA_PRINTF(3, 4);
static wa_status fail(enc *e, wa_status st, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return wa_error(e->ctx, st, wa_instr_loc(e->prog, e->in), "cannot encode %s: %s",
                    wa_isa_mnemonic(e->in->op, e->target), msg);
}

int wa_enc_operand(const wa_isa_info *info, const char *name)
{
    for (unsigned k = 0; k < info->num_operands; k++)
        if (strcmp(info->operands[k].name, name) == 0)
            return (int)k;
    return -1;
}

int wa_enc_src_field(const char *name)
{
    static const char *const names[][4] = {
        { "src0", "ssrc0", "srcA", NULL },
        { "src1", "ssrc1", "srcB", NULL },
        { "src2", "mask", "cin", "srcC" },
    };
    for (int f = 0; f < 3; f++)
        for (int i = 0; i < 4 && names[f][i]; i++)
            if (strcmp(names[f][i], name) == 0)
                return f;
    return strcmp(name, "idx") == 0 ? 2 : -1;
}


static const layout *lay(enc *e)
{
    layout *l = e->layouts ? &e->layouts[e->in->op] : &e->one;
    if (!l->ready) {
        for (int n = 0; n < N_COUNT_; n++)
            l->idx[n] = (int8_t)wa_enc_operand(e->info, field_names[n]);
        for (unsigned k = 0; k < WA_ISA_MAX_OPERANDS; k++)
            l->field[k] = (int8_t)(k < e->info->num_operands
                                       ? wa_enc_src_field(e->info->operands[k].name)
                                       : -1);
        l->ready = 1;
    }
    return l;
}

/* Index of the operand named by N_* `n`, or -1. */
static int K(const enc *e, int n)
{
    return e->L->idx[n];
}

static wa_status not_register(enc *e, unsigned k)
{
    const wa_operand *o = &e->in->ops[k];
    if (o->kind == WA_OPND_VIRT)
        return fail(e, WA_E_VALIDATE, "operand %u (%s) is a virtual register", k,
                    e->info->operands[k].name);
    return fail(e, WA_E_VALIDATE, "operand %u (%s) is not a register", k,
                e->info->operands[k].name);
}

/* Takes the 32-bit literal for operand k; one value per instruction. */
static wa_status literal(enc *e, unsigned k, uint32_t *code)
{
    const wa_operand *o = &e->in->ops[k];
    uint32_t bits;
    if (!e->lit_ok)
        return fail(e, WA_E_VALIDATE,
                    "operand %u (%s) needs a literal, which this encoding cannot hold", k,
                    e->info->operands[k].name);
    wa_data_type ty = (wa_data_type)e->info->operands[k].type;
    if (!wa_imm_bits32(o, ty, &bits))
        return fail(e, WA_E_RANGE, "operand %u (%s) does not fit a 32-bit literal", k,
                    e->info->operands[k].name);
    /* a negative integer for a 16-bit integer operand travels sign-extended, as
       llvm-mc writes it (float operands take the 16-bit pattern) */
    if (o->kind == WA_OPND_IMM && o->imm.i < 0 && ty == WA_TY_B16)
        bits = (uint32_t)o->imm.i;
    if (e->has_lit && e->lit != bits)
        return fail(e, WA_E_VALIDATE, "two different literals");
    e->lit = bits;
    e->has_lit = 1;
    *code = WA_SRC_LITERAL;
    return WA_OK;
}

/* 9-bit source code of operand k (registers, specials, constants). */
static wa_status src9(enc *e, int k, uint32_t *code)
{
    if (k < 0 || (unsigned)k >= e->in->nops) {
        *code = 0;
        return WA_OK;
    }
    const wa_operand *o = &e->in->ops[k];
    switch (o->kind) {
    case WA_OPND_PHYS:
        *code = o->reg_class == WA_REG_SGPR ? o->id : WA_SRC_VGPR0 + o->id;
        return WA_OK;
    case WA_OPND_SPECIAL:
        *code = wa_enc_special_code(o->id);
        return WA_OK;
    case WA_OPND_IMM:
    case WA_OPND_FIMM: {
        const wa_isa_operand *spec = &e->info->operands[k];
        int c = (spec->classes & WA_OC_KLIT) ? -1
                                              : wa_imm_inline_code(o, (wa_data_type)spec->type);
        if (c >= 0) {
            *code = (uint32_t)c;
            return WA_OK;
        }
        return literal(e, (unsigned)k, code);
    }
    default:
        return not_register(e, (unsigned)k);
    }
}

/* 8-bit register number of a VGPR/AGPR field (0 when the operand is absent or
   `off`). */
static wa_status vnum(enc *e, int k, uint32_t *out)
{
    *out = 0;
    if (k < 0 || (unsigned)k >= e->in->nops || e->in->ops[k].kind == WA_OPND_OFF)
        return WA_OK;
    const wa_operand *o = &e->in->ops[k];
    if (o->kind != WA_OPND_PHYS || o->reg_class == WA_REG_SGPR)
        return not_register(e, (unsigned)k);
    *out = o->id;
    return WA_OK;
}

/* 7-bit scalar register code (SGPR number or special register). */
static wa_status scode(enc *e, int k, uint32_t *out)
{
    *out = 0;
    if (k < 0 || (unsigned)k >= e->in->nops)
        return WA_OK;
    const wa_operand *o = &e->in->ops[k];
    if (o->kind == WA_OPND_PHYS && o->reg_class == WA_REG_SGPR)
        *out = o->id;
    else if (o->kind == WA_OPND_SPECIAL)
        *out = wa_enc_special_code(o->id);
    else
        return not_register(e, (unsigned)k);
    return WA_OK;
}

static int is_agpr(const enc *e, int k)
{
    return k >= 0 && (unsigned)k < e->in->nops && e->in->ops[k].kind == WA_OPND_PHYS &&
           e->in->ops[k].reg_class == WA_REG_AGPR;
}

static int is_vgpr_like(const enc *e, int k)
{
    return k >= 0 && (unsigned)k < e->in->nops && e->in->ops[k].kind == WA_OPND_PHYS &&
           e->in->ops[k].reg_class != WA_REG_SGPR;
}

static wa_status check_range(enc *e, const char *what, int64_t v, int64_t lo, int64_t hi)
{
    if (v < lo || v > hi)
        return fail(e, WA_E_RANGE, "%s %lld outside %lld..%lld", what, (long long)v,
                    (long long)lo, (long long)hi);
    return WA_OK;
}

/* The 16-bit immediate of SOPP/SOPK: a raw field, a label (resolved later) or
   the s_waitcnt fields. */
static wa_status simm16(enc *e, int k, uint32_t *out)
{
    *out = 0;
    if (e->info->flags & WA_IF_WAITCNT) {
        const wa_mods *m = &e->in->mods;
        int vm = m->vmcnt < 0 ? 63 : m->vmcnt, exp = m->expcnt < 0 ? 7 : m->expcnt;
        int lgkm = m->lgkmcnt < 0 ? 15 : m->lgkmcnt;
        wa_status st;
        if ((st = check_range(e, "vmcnt", vm, 0, 63)) || (st = check_range(e, "expcnt", exp, 0, 7)) ||
            (st = check_range(e, "lgkmcnt", lgkm, 0, 15)))
            return st;
        *out = ((unsigned)vm & 15u) | (unsigned)exp << 4 | (unsigned)lgkm << 8 |
               ((unsigned)vm >> 4) << 14;
        return WA_OK;
    }
    if (k < 0 || (unsigned)k >= e->in->nops)
        return WA_OK;
    const wa_operand *o = &e->in->ops[k];
    if (o->kind == WA_OPND_LABEL) {
        e->label_k = k;
        return WA_OK;
    }
    if (o->kind != WA_OPND_IMM)
        return fail(e, WA_E_VALIDATE, "operand %d (%s) must be an immediate", k,
                    e->info->operands[k].name);
    wa_status st = check_range(e, e->info->operands[k].name, o->imm.i, -32768, 65535);
    *out = (uint32_t)o->imm.i & 0xFFFFu;
    return st;
}

/* Index of the first operand of the row whose classes include `cls`. */
static int first_with(const wa_isa_info *info, unsigned cls)
{
    for (unsigned k = 0; k < info->num_operands; k++)
        if (info->operands[k].classes & cls)
            return (int)k;
    return -1;
}

/* ---- scalar formats -------------------------------------------------------------------- */

static wa_status enc_salu(enc *e, uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    unsigned op = info->encoding;
    uint32_t d = 0, s0 = 0, s1 = 0, imm = 0;
    wa_status st = WA_OK;
    int kd = K(e, N_SDST);
    if (kd < 0)
        kd = K(e, N_DREL);
    e->lit_ok = 1;
    switch (info->format) {
    case WA_FMT_SOP1: {
        int ks = K(e, N_SRC0);
        if (ks < 0)
            ks = K(e, N_SREL);
        if ((st = scode(e, kd, &d)) || (st = src9(e, ks, &s0)))
            return st;
        w[0] = WA_ENC_SOP1 | d << 16 | op << 8 | s0;
        break;
    }
    case WA_FMT_SOP2:
        if ((st = scode(e, kd, &d)) || (st = src9(e, K(e, N_SRC0), &s0)) ||
            (st = src9(e, K(e, N_SRC1), &s1)))
            return st;
        w[0] = WA_ENC_SOP2 | op << 23 | d << 16 | s1 << 8 | s0;
        break;
    case WA_FMT_SOPC: {
        int k1 = K(e, N_SRC1);
        if ((st = src9(e, K(e, N_SRC0), &s0)))
            return st;
        if (k1 >= 0) {
            if ((st = src9(e, k1, &s1)))
                return st;
        } else if ((k1 = first_with(info, WA_OC_IMM)) >= 0) {
            /* a raw 8-bit field in src1's place (s_set_gpr_idx_on's mode) */
            s1 = (uint32_t)e->in->ops[k1].imm.i & 0xFFu;
        }
        w[0] = WA_ENC_SOPC | op << 16 | s1 << 8 | s0;
        break;
    }
    case WA_FMT_SOPK: {
        /* the register field holds sdst, or the one register operand (compares,
           s_setreg); the first immediate, hwreg or label is simm16; a second
           immediate (s_setreg_imm32_b32) is a literal dword */
        int kr = kd >= 0 ? kd : first_with(info, WA_OC_SGPR);
        int ki = first_with(info, WA_OC_IMM | WA_OC_LABEL);
        if ((st = scode(e, kr, &d)) || (st = simm16(e, ki, &imm)))
            return st;
        w[0] = WA_ENC_SOPK | op << 23 | d << 16 | imm;
        for (unsigned k = (unsigned)ki + 1; ki >= 0 && k < info->num_operands; k++)
            if ((info->operands[k].classes & WA_OC_IMM) && k < e->in->nops) {
                e->lit = (uint32_t)e->in->ops[k].imm.i;
                e->has_lit = 1;
            }
        break;
    }
    default: { /* SOPP */
        int ki = first_with(info, WA_OC_IMM | WA_OC_LABEL);
        if ((st = simm16(e, ki, &imm)))
            return st;
        w[0] = WA_ENC_SOPP | op << 16 | imm;
        break;
    }
    }
    *nw = 1;
    return WA_OK;
}

static wa_status enc_smem(enc *e, uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    const wa_mods *m = &e->in->mods;
    uint32_t data = 0, base = 0, imm = 0, soe = 0, off = 0, soff = 0;
    wa_status st;
    int kd = K(e, N_SDST);
    if (kd < 0)
        kd = K(e, N_SDATA);
    int kp = K(e, N_PROBE), kb = K(e, N_SBASE), ko = K(e, N_SOFFSET);
    if (kp >= 0)
        data = (uint32_t)e->in->ops[kp].imm.i & 0x7Fu;
    else if ((st = scode(e, kd, &data)))
        return st;
    if (kb >= 0) {
        if ((st = scode(e, kb, &base)))
            return st;
        base >>= 1;
    }
    int64_t lo = (info->flags & WA_IF_SMEM_BUFFER) ? 0 : -1048576;
    if (ko >= 0) {
        const wa_operand *o = &e->in->ops[ko];
        if (o->kind == WA_OPND_IMM) {
            if ((st = check_range(e, "offset", o->imm.i, lo, 1048575)))
                return st;
            imm = 1;
            off = (uint32_t)o->imm.i & 0x1FFFFFu;
        } else {
            if ((st = scode(e, ko, &soff)))
                return st;
            if (m->offset) {
                if ((st = check_range(e, "offset", m->offset, lo, 1048575)))
                    return st;
                imm = soe = 1;
                off = (uint32_t)m->offset & 0x1FFFFFu;
            } else {
                off = soff;
                soff = 0;
            }
        }
    }
    w[0] = WA_ENC_SMEM | info->encoding << 18 | imm << 17 |
           ((m->flags & WA_MOD_GLC) ? 1u : 0u) << 16 | soe << 14 | data << 6 | base;
    w[1] = off | soff << 25;
    *nw = 2;
    return WA_OK;
}

/* ---- vector ALU ------------------------------------------------------------------------- */

/* Source codes of the three VOP3-style fields. */
static wa_status vop3_sources(enc *e, uint32_t s[3])
{
    s[0] = s[1] = s[2] = 0;
    for (unsigned k = 0; k < e->info->num_operands && k < e->in->nops; k++) {
        if (!(e->info->operands[k].role & WA_ROLE_USE))
            continue;
        int f = e->L->field[k];
        if (f < 0)
            continue;
        wa_status st = src9(e, (int)k, &s[f]);
        if (st)
            return st;
    }
    return WA_OK;
}

/* vdst field: a vector register number, or the scalar destination's code (VOPC
   in VOP3, v_readlane, v_readfirstlane). */
static wa_status valu_dst(enc *e, uint32_t *d, int *sdst_k)
{
    int kv = K(e, N_VDST), ks = K(e, N_SDST);
    *sdst_k = -1;
    if (kv >= 0) {
        *sdst_k = ks;
        return vnum(e, kv, d);
    }
    return scode(e, ks, d);
}

/* The 64-bit VALU encodings (no literal): destination field and the three
   source codes. */
static wa_status vop3_operands(enc *e, uint32_t *d, int *ksd, uint32_t s[3])
{
    wa_status st;
    e->lit_ok = 0;
    if ((st = valu_dst(e, d, ksd)))
        return st;
    return vop3_sources(e, s);
}

static wa_status enc_vop3(enc *e, unsigned op3, uint32_t *w, unsigned *nw)
{
    const wa_mods *m = &e->in->mods;
    uint32_t d, s[3], sd = 0;
    int ksd;
    wa_status st;
    if ((st = vop3_operands(e, &d, &ksd, s)))
        return st;
    uint32_t mid;
    if (ksd >= 0) { /* VOP3B: the scalar result in place of abs/op_sel */
        if ((st = scode(e, ksd, &sd)))
            return st;
        mid = sd << 8;
    } else {
        mid = (uint32_t)(m->op_sel & 15u) << 11 | (uint32_t)(m->abs & 7u) << 8;
    }
    w[0] = WA_ENC_VOP3 | op3 << 16 | ((m->flags & WA_MOD_CLAMP) ? 1u : 0u) << 15 | mid | d;
    w[1] = (uint32_t)(m->neg & 7u) << 29 | (uint32_t)(m->omod & 3u) << 27 | s[2] << 18 |
           s[1] << 9 | s[0];
    *nw = 2;
    return WA_OK;
}

/* VOP3P and MAI: d and s[] from vop3_operands. */
static wa_status enc_vop3p(enc *e, uint32_t d, const uint32_t s[3], uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    const wa_mods *m = &e->in->mods;
    int packed = wa_vop3p_packed(info);
    /* packed rows store op_sel_hi inverted (default [1,1,1]); the mix rows as written,
       with abs in the neg_hi field */
    uint32_t hi = packed ? (~(uint32_t)m->op_sel_hi & 7u) : (m->op_sel_hi & 7u);
    uint32_t neg_hi = packed ? (m->neg_hi & 7u) : (m->abs & 7u);
    w[0] = WA_ENC_VOP3P | info->encoding << 16 | ((m->flags & WA_MOD_CLAMP) ? 1u : 0u) << 15 |
           (hi >> 2) << 14 | (uint32_t)(m->op_sel & 7u) << 11 | neg_hi << 8 | d;
    w[1] = (uint32_t)(m->neg & 7u) << 29 | (hi & 3u) << 27 | s[2] << 18 | s[1] << 9 | s[0];
    *nw = 2;
    return WA_OK;
}

static wa_status enc_mai(enc *e, uint32_t d, const uint32_t s[3], uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    const wa_mods *m = &e->in->mods;
    wa_status st;
    unsigned op = e->target == WA_TARGET_GFX90A ? info->encoding_gfx90a : info->encoding;
    unsigned n = 0;
    int ka = K(e, N_SCALEA);
    if (ka >= 0) {
        /* block-scaled: the v_mfma_ld_scale_b32 word first, op_sel/op_sel_hi as written */
        uint32_t sa, sb;
        if ((st = src9(e, ka, &sa)) || (st = src9(e, K(e, N_SCALEB), &sb)))
            return st;
        /* two sources: the third entries of the lists are not encoded */
        uint32_t hi = m->op_sel_hi & 3u;
        w[0] = WA_ENC_VOP3P | WA_ENC_LD_SCALE_OP << 16 | (uint32_t)(m->op_sel & 3u) << 11;
        w[1] = (hi & 3u) << 27 | sb << 9 | sa;
        n = 2;
    }
    /* the blgp field carries neg:[a,b,c] on the f64 MFMAs */
    uint32_t blgp = (uint32_t)(m->blgp | m->neg) & 7u;
    w[n] = WA_ENC_VOP3P | op << 16 | (is_agpr(e, K(e, N_VDST)) ? 1u : 0u) << 15 |
           (uint32_t)(m->abid & 15u) << 11 | (uint32_t)(m->cbsz & 7u) << 8 | d;
    if (ka >= 0)
        w[n] |= 1u << 11; /* the MFMA half of a scaled pair (its abid bit is fixed) */
    w[n + 1] = blgp << 29 | (is_agpr(e, K(e, N_SRCB)) ? 1u : 0u) << 28 |
               (is_agpr(e, K(e, N_SRCA)) ? 1u : 0u) << 27 | s[2] << 18 | s[1] << 9 | s[0];
    *nw = n + 2;
    return WA_OK;
}

/* VOP1/VOP2/VOPC in their 32-bit form, with DPP or SDWA when asked. */
static wa_status enc_vop32(enc *e, uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    const wa_mods *m = &e->in->mods;
    int dpp = (m->flags & WA_MOD_DPP) != 0, sdwa = (m->flags & WA_MOD_SDWA) != 0;
    int k0 = K(e, N_SRC0), k1 = K(e, N_SRC1);
    uint32_t d = 0, s0 = 0, s1 = 0;
    int ksd;
    wa_status st;
    e->lit_ok = !dpp && !sdwa;
    if (info->format != WA_FMT_VOPC && (st = valu_dst(e, &d, &ksd)))
        return st;
    if ((st = src9(e, k0, &s0)) || (st = src9(e, k1, &s1)))
        return st;
    int kk = K(e, N_K);
    if (kk >= 0) {
        uint32_t lit;
        if ((st = literal(e, (unsigned)kk, &lit)))
            return st;
    }
    uint32_t f0 = dpp ? WA_SRC_DPP : sdwa ? WA_SRC_SDWA : s0;
    if (k1 >= 0 && !sdwa && s1 < WA_SRC_VGPR0)
        return fail(e, WA_E_VALIDATE, "src1 must be a VGPR in the 32-bit encoding");
    uint32_t f1 = s1 & 0xFFu;
    unsigned op = info->encoding;
    switch (info->format) {
    case WA_FMT_VOP1: w[0] = WA_ENC_VOP1 | d << 17 | op << 9 | f0; break;
    case WA_FMT_VOP2: w[0] = op << 25 | d << 17 | f1 << 9 | f0; break;
    default: w[0] = WA_ENC_VOPC | op << 17 | f1 << 9 | f0; break;
    }
    *nw = 1;
    if (dpp) {
        if (s0 < WA_SRC_VGPR0)
            return fail(e, WA_E_VALIDATE, "DPP needs a VGPR src0");
        w[1] = (s0 & 0xFFu) | (uint32_t)m->dpp_ctrl << 8 |
               ((m->flags & WA_MOD_BOUND_CTRL) ? 1u : 0u) << 19 | (uint32_t)(m->neg & 1u) << 20 |
               (uint32_t)(m->abs & 1u) << 21 | (uint32_t)(m->neg >> 1 & 1u) << 22 |
               (uint32_t)(m->abs >> 1 & 1u) << 23 | (uint32_t)(m->bank_mask & 15u) << 24 |
               (uint32_t)(m->row_mask & 15u) << 28;
        *nw = 2;
    } else if (sdwa) {
        uint32_t mid;
        if (info->format == WA_FMT_VOPC) {
            /* the compare's result: vcc implied (sd 0), else sd and its code */
            int ks = K(e, N_SDST);
            const wa_operand *o = &e->in->ops[ks];
            uint32_t sc = 0;
            if (!(o->kind == WA_OPND_SPECIAL && o->id == WA_SPECIAL_VCC)) {
                if ((st = scode(e, ks, &sc)))
                    return st;
                sc |= 0x80u;
            }
            mid = sc << 8;
        } else {
            mid = (uint32_t)(m->dst_sel & 7u) << 8 | (uint32_t)(m->dst_unused & 3u) << 11 |
                  ((m->flags & WA_MOD_CLAMP) ? 1u : 0u) << 13 | (uint32_t)(m->omod & 3u) << 14;
        }
        w[1] = (s0 & 0xFFu) | mid | (uint32_t)(m->src0_sel & 7u) << 16 |
               (uint32_t)(m->sext & 1u) << 19 | (uint32_t)(m->neg & 1u) << 20 |
               (uint32_t)(m->abs & 1u) << 21 | (s0 < WA_SRC_VGPR0 ? 1u : 0u) << 23;
        if (k1 >= 0) /* a single source leaves the src1 fields zero */
            w[1] |= (uint32_t)(m->src1_sel & 7u) << 24 | (uint32_t)(m->sext >> 1 & 1u) << 27 |
                    (uint32_t)(m->neg >> 1 & 1u) << 28 | (uint32_t)(m->abs >> 1 & 1u) << 29 |
                    (s1 < WA_SRC_VGPR0 ? 1u : 0u) << 31;
        *nw = 2;
    }
    return WA_OK;
}

static wa_status enc_valu(enc *e, uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    if (info->format == WA_FMT_VOP3P || info->format == WA_FMT_MAI) {
        uint32_t d, s[3];
        int ksd;
        wa_status st = vop3_operands(e, &d, &ksd, s);
        if (st)
            return st;
        return info->format == WA_FMT_VOP3P ? enc_vop3p(e, d, s, w, nw) : enc_mai(e, d, s, w, nw);
    }
    if (info->format == WA_FMT_VOP3)
        return enc_vop3(e, info->encoding, w, nw);
    if (!wa_instr_needs_vop3(e->in, info))
        return enc_vop32(e, w, nw);
    if (K(e, N_K) >= 0)
        return fail(e, WA_E_VALIDATE, "no VOP3 form (literal-K operand)");
    unsigned op3 = info->format == WA_FMT_VOP1   ? WA_ENC_VOP3_OF_VOP1(info->encoding)
                   : info->format == WA_FMT_VOP2 ? WA_ENC_VOP3_OF_VOP2(info->encoding)
                                                 : WA_ENC_VOP3_OF_VOPC(info->encoding);
    return enc_vop3(e, op3, w, nw);
}

/* ---- memory ------------------------------------------------------------------------------ */

static wa_status enc_ds(enc *e, uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    const wa_mods *m = &e->in->mods;
    int kv = K(e, N_VDST), k0 = K(e, N_DATA0), k1 = K(e, N_DATA1);
    uint32_t vd, a, d0, d1, off;
    wa_status st;
    if ((st = vnum(e, kv, &vd)) || (st = vnum(e, K(e, N_ADDR), &a)) ||
        (st = vnum(e, k0, &d0)) || (st = vnum(e, k1, &d1)))
        return st;
    if (info->flags & WA_IF_DS_2ADDR) {
        if ((st = check_range(e, "offset0", m->offset, 0, 255)) ||
            (st = check_range(e, "offset1", m->offset1, 0, 255)))
            return st;
        off = (uint32_t)m->offset | (uint32_t)m->offset1 << 8;
    } else {
        if ((st = check_range(e, "offset", m->offset, 0, 65535)))
            return st;
        off = (uint32_t)m->offset;
    }
    int acc = is_agpr(e, kv) || is_agpr(e, k0) || is_agpr(e, k1);
    w[0] = WA_ENC_DS | (acc ? 1u : 0u) << 25 | info->encoding << 17 | off;
    w[1] = vd << 24 | d1 << 16 | d0 << 8 | a;
    *nw = 2;
    return WA_OK;
}

static wa_status enc_mubuf(enc *e, uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    const wa_mods *m = &e->in->mods;
    int kd = K(e, N_VDATA);
    uint32_t vd, va, rs = 0, so = 0;
    wa_status st;
    e->lit_ok = 0;
    if ((st = vnum(e, kd, &vd)) || (st = vnum(e, K(e, N_VADDR), &va)) ||
        (st = scode(e, K(e, N_SRSRC), &rs)) || (st = src9(e, K(e, N_SOFFSET), &so)) ||
        (st = check_range(e, "offset", m->offset, 0, 4095)))
        return st;
    unsigned f = m->flags;
    w[0] = WA_ENC_MUBUF | info->encoding << 18 | ((f & WA_MOD_SLC) ? 1u : 0u) << 17 |
           (wa_lds_by_modifier(info) ? 1u : 0u) << 16 | ((f & WA_MOD_SCC) ? 1u : 0u) << 15 |
           ((f & WA_MOD_GLC) ? 1u : 0u) << 14 | ((f & WA_MOD_IDXEN) ? 1u : 0u) << 13 |
           ((f & WA_MOD_OFFEN) ? 1u : 0u) << 12 | (uint32_t)m->offset;
    w[1] = (so & 0xFFu) << 24 | (is_agpr(e, kd) ? 1u : 0u) << 23 | (rs >> 2) << 16 | vd << 8 | va;
    *nw = 2;
    return WA_OK;
}

static wa_status enc_flat(enc *e, uint32_t *w, unsigned *nw)
{
    const wa_isa_info *info = e->info;
    const wa_mods *m = &e->in->mods;
    int kv = K(e, N_VDST), kd = K(e, N_VDATA), ka = K(e, N_VADDR);
    int ks = K(e, N_SADDR);
    uint32_t vd, data, va, sa = 0, seg = 0, bit13 = 0;
    wa_status st;
    if ((st = vnum(e, kv, &vd)) || (st = vnum(e, kd, &data)) || (st = vnum(e, ka, &va)))
        return st;
    if (info->format == WA_FMT_FLAT) {
        if ((st = check_range(e, "offset", m->offset, 0, 4095)))
            return st;
    } else {
        seg = info->format == WA_FMT_GLOBAL ? 2u : 1u;
        if ((st = check_range(e, "offset", m->offset, -4096, 4095)))
            return st;
        if (ks >= 0 && e->in->ops[ks].kind == WA_OPND_OFF)
            sa = WA_FLAT_SADDR_OFF;
        else if ((st = scode(e, ks, &sa)))
            return st;
        /* scratch with a VGPR address: the SVE bit (gfx942/gfx950) */
        if (info->format == WA_FMT_SCRATCH && e->target != WA_TARGET_GFX90A &&
            is_vgpr_like(e, ka))
            bit13 = 1;
    }
    if (wa_lds_by_modifier(info))
        bit13 = 1;
    unsigned f = m->flags;
    w[0] = WA_ENC_FLAT | ((f & WA_MOD_SCC) ? 1u : 0u) << 25 | info->encoding << 18 |
           ((f & WA_MOD_SLC) ? 1u : 0u) << 17 | ((f & WA_MOD_GLC) ? 1u : 0u) << 16 | seg << 14 |
           bit13 << 13 | ((uint32_t)m->offset & 0x1FFFu);
    w[1] = vd << 24 | ((is_agpr(e, kv) || is_agpr(e, kd)) ? 1u : 0u) << 23 | sa << 16 |
           data << 8 | va;
    *nw = 2;
    return WA_OK;
}

/* ---- driver ------------------------------------------------------------------------------ */

/* Encodes the instruction into w[] (at most 4 words before the literal). */
static wa_status encode_one(enc *e, uint32_t *w, unsigned *nw)
{
    e->has_lit = 0;
    e->lit_ok = 0;
    e->label_k = -1;
    e->one.ready = 0;
    e->L = lay(e);
    switch (e->info->format) {
    case WA_FMT_SOP1:
    case WA_FMT_SOP2:
    case WA_FMT_SOPK:
    case WA_FMT_SOPC:
    case WA_FMT_SOPP: return enc_salu(e, w, nw);
    case WA_FMT_SMEM: return enc_smem(e, w, nw);
    case WA_FMT_VOP1:
    case WA_FMT_VOP2:
    case WA_FMT_VOPC:
    case WA_FMT_VOP3:
    case WA_FMT_VOP3P:
    case WA_FMT_MAI: return enc_valu(e, w, nw);
    case WA_FMT_DS: return enc_ds(e, w, nw);
    case WA_FMT_MUBUF: return enc_mubuf(e, w, nw);
    case WA_FMT_GLOBAL:
    case WA_FMT_FLAT:
    case WA_FMT_SCRATCH: return enc_flat(e, w, nw);
    default: return fail(e, WA_E_INTERNAL, "format without an encoding");
    }
}

wa_status wa_encode_instr(wa_context *ctx, const wa_program *prog, const wa_instr *in,
                          uint32_t w[6], unsigned *nw, int *label_operand)
{
    enc e;
    memset(&e, 0, sizeof(e));
    e.ctx = ctx;
    e.prog = prog;
    e.target = prog->target;
    e.in = in;
    e.info = wa_isa(in->op);
    *nw = 0;
    wa_status st = encode_one(&e, w, nw);
    if (st)
        return st;
    if (e.has_lit)
        w[(*nw)++] = e.lit;
    *label_operand = e.label_k;
    return WA_OK;
}

typedef struct wbuf {
    wa_context *ctx;
    uint32_t *w;
    size_t n, cap;
} wbuf;

static int wbuf_put(wbuf *b, const uint32_t *w, unsigned n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->n + n)
            cap *= 2;
        uint32_t *nw = wa_mem_realloc(b->ctx, b->w, cap * sizeof(uint32_t));
        if (!nw)
            return 0;
        b->w = nw;
        b->cap = cap;
    }
    memcpy(b->w + b->n, w, n * sizeof(uint32_t));
    b->n += n;
    return 1;
}

wa_status wa_encode_internal(wa_context *ctx, const wa_program *prog, unsigned char **code,
                             size_t *len, uint32_t *item_offsets)
{
    enc e;
    memset(&e, 0, sizeof(e));
    e.ctx = ctx;
    e.prog = prog;
    e.target = prog->target;
    wbuf b = { ctx, NULL, 0, 0 };
    fixup *fx = NULL;
    unsigned nfx = 0, capfx = 0;
    uint32_t *label_at = wa_mem_calloc(ctx, prog->nlabels ? prog->nlabels : 1, sizeof(uint32_t));
    unsigned char *placed = wa_mem_calloc(ctx, prog->nlabels ? prog->nlabels : 1, 1);
    /* small kernels look their operands up per instruction */
    int memo = prog->ninstrs > 256;
    e.layouts = memo ? wa_mem_calloc(ctx, wa_isa_count(), sizeof(layout)) : NULL;
    wa_status st = WA_OK;
    *code = NULL;
    *len = 0;
    if (!label_at || !placed || (memo && !e.layouts)) {
        st = wa_error_nomem(ctx);
        goto out;
    }
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        if (item_offsets)
            item_offsets[i] = (uint32_t)(b.n * 4);
        if (in->op == WA_OP_LABEL) {
            label_at[in->ops[0].id] = (uint32_t)b.n;
            placed[in->ops[0].id] = 1;
            continue;
        }
        if (in->op == WA_OP_COMMENT)
            continue;
        e.in = in;
        e.info = wa_isa(in->op);
        if (!wa_isa_available(in->op, e.target)) {
            st = fail(&e, WA_E_VALIDATE, "not available on %s", wa_target_name(e.target));
            goto out;
        }
        uint32_t w[6];
        unsigned nw = 0;
        if ((st = encode_one(&e, w, &nw)))
            goto out;
        if (e.has_lit)
            w[nw++] = e.lit;
        if (e.label_k >= 0) {
            if (wa_grow(ctx, (void **)&fx, &capfx, nfx + 1, sizeof(fixup)) != 0) {
                st = wa_error_nomem(ctx);
                goto out;
            }
            fx[nfx].word = (uint32_t)b.n;
            fx[nfx].item = i;
            fx[nfx].label = in->ops[e.label_k].id;
            nfx++;
        }
        if (!wbuf_put(&b, w, nw)) {
            st = wa_error_nomem(ctx);
            goto out;
        }
    }
    /* second pass: branch offsets in dwords from the next instruction */
    for (unsigned f = 0; f < nfx; f++) {
        e.in = &prog->instrs[fx[f].item];
        e.info = wa_isa(e.in->op);
        if (fx[f].label >= prog->nlabels || !placed[fx[f].label]) {
            st = fail(&e, WA_E_VALIDATE, "branch to label '%s', which is not placed",
                      fx[f].label < prog->nlabels ? prog->labels[fx[f].label].name : "?");
            goto out;
        }
        int64_t delta = (int64_t)label_at[fx[f].label] - ((int64_t)fx[f].word + 1);
        if (delta < -32768 || delta > 32767) {
            st = fail(&e, WA_E_RANGE, "branch to '%s' spans %lld dwords (at most 32767 back or 32767 forward)",
                      prog->labels[fx[f].label].name, (long long)delta);
            goto out;
        }
        b.w[fx[f].word] |= (uint32_t)delta & 0xFFFFu;
    }
    {
        size_t bytes = b.n * 4;
        unsigned char *out = wa_mem_alloc(ctx, bytes ? bytes : 1);
        if (!out) {
            st = wa_error_nomem(ctx);
            goto out;
        }
        for (size_t i = 0; i < b.n; i++) {
            out[4 * i] = (unsigned char)b.w[i];
            out[4 * i + 1] = (unsigned char)(b.w[i] >> 8);
            out[4 * i + 2] = (unsigned char)(b.w[i] >> 16);
            out[4 * i + 3] = (unsigned char)(b.w[i] >> 24);
        }
        *code = out;
        *len = bytes;
    }
out:
    wa_mem_free(ctx, b.w);
    wa_mem_free(ctx, fx);
    wa_mem_free(ctx, label_at);
    wa_mem_free(ctx, placed);
    wa_mem_free(ctx, e.layouts);
    return st;
}

wa_status wa_encode_program(unsigned char **code, size_t *len, const wa_program *prog,
                            const wa_encode_options *opts)
{
    if (!code || !len || !prog)
        return WA_E_INVALID;
    *code = NULL;
    *len = 0;
    wa_context *ctx = prog->ctx;
    wa_encode_options defaults = WA_ENCODE_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    wa_diag_reset(ctx);
    if (opts->version < 1 || opts->version > WA_ENCODE_OPTIONS_VERSION)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_encode_options version %u",
                        opts->version);
    if (!(opts->flags & WA_ENCODE_NO_VALIDATE)) {
        wa_validate_options vopts = WA_VALIDATE_OPTIONS_INIT;
        vopts.flags = WA_VALIDATE_PHYSICAL;
        wa_status st = wa_program_validate(NULL, prog, &vopts);
        if (st)
            return st;
    }
    unsigned char *bytes;
    size_t n;
    wa_status st = wa_encode_internal(ctx, prog, &bytes, &n, opts->item_offsets);
    if (st)
        return st;
    unsigned char *out = wa_user_buffer(ctx, n ? n : 1);
    if (!out) {
        wa_mem_free(ctx, bytes);
        return wa_error_nomem(ctx);
    }
    memcpy(out, bytes, n);
    wa_mem_free(ctx, bytes);
    *code = out;
    *len = n;
    return WA_OK;
}
