/* lib/encode/disasm.c — the encoder's bytes back to instructions. Each word's
   prefix names the format; the table rows of that format and opcode available on
   the target are the candidates; the operands and modifiers are read back from
   the fields for a candidate, and the candidate is kept only if encoding it gives
   the same words (which settles rows sharing an opcode: the returning atomics,
   the lds forms). The text is wa_format_instr's, the syntax of the IR. */
#include "encode.h"

#include <stdio.h>
#include <string.h>

typedef struct dec {
    wa_context *ctx;
    wa_program *prog;   /* target and label names for printing */
    wa_target target;
    const uint32_t *w;  /* the instruction's words */
    unsigned avail;     /* words left from w */
} dec;

static const double inline_float_values[] = { 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0,
                                              0.15915494309189532 };

static int is_16bit(wa_data_type t)
{
    return t == WA_TY_F16 || t == WA_TY_B16 || t == WA_TY_BF16;
}

/* Operand of a 9-bit source code for a position of the row. */
static wa_operand src_operand(const dec *d, const wa_isa_operand *spec, unsigned size,
                              uint32_t code, uint32_t lit, int acc)
{
    if (code >= WA_SRC_VGPR0) {
        int a = (acc && (spec->classes & WA_OC_AGPR)) ||
                ((spec->classes & WA_OC_AGPR) && !(spec->classes & WA_OC_VGPR));
        return wa_opnd_phys(a ? WA_REG_AGPR : WA_REG_VGPR, code - WA_SRC_VGPR0, size);
    }
    if (code < 102)
        return wa_opnd_phys(WA_REG_SGPR, code, size);
    if (code >= 128 && code <= 192)
        return wa_opnd_imm((int64_t)code - 128);
    if (code >= 193 && code <= 208)
        return wa_opnd_imm(192 - (int64_t)code);
    if (code >= 240 && code <= 248)
        return wa_opnd_fimm(inline_float_values[code - 240]);
    if (code == WA_SRC_LITERAL) {
        wa_data_type t = (wa_data_type)spec->type;
        if ((t == WA_TY_B16 && lit >= 0xFFFF8000u) || (spec->classes & WA_OC_IMM && spec->imm_min < 0))
            return wa_opnd_imm((int64_t)(int32_t)lit);
        if (is_16bit(t) && lit > 0xFFFFu) { /* a float written for a 16-bit integer */
            float f;
            memcpy(&f, &lit, sizeof(f));
            return wa_opnd_fimm((double)f);
        }
        return wa_opnd_imm((int64_t)lit);
    }
    for (unsigned s = 0; s < WA_SPECIAL_COUNT_; s++) {
        if (wa_enc_special_code(s) != code)
            continue;
        int wide = s == WA_SPECIAL_VCC || s == WA_SPECIAL_EXEC;
        if (wide == (size == 2))
            return wa_opnd_special((wa_special)s);
    }
    return wa_opnd_none();
}

/* Registers of operand k now that the modifiers and the other operands are known
   (size 0 in the table: decided by them). */
static unsigned size_of(const wa_instr *in, const wa_isa_info *info, unsigned k)
{
    const wa_isa_operand *spec = &info->operands[k];
    if (spec->size)
        return spec->size;
    if (info->format == WA_FMT_MUBUF)
        return (in->mods.flags & (WA_MOD_OFFEN | WA_MOD_IDXEN)) == (WA_MOD_OFFEN | WA_MOD_IDXEN) ? 2u : 1u;
    if (info->format == WA_FMT_GLOBAL) {
        int s = wa_enc_operand(info, "saddr");
        return s >= 0 && in->ops[s].kind == WA_OPND_OFF ? 2u : 1u;
    }
    if (info->flags & WA_IF_F8F6F4) {
        static const unsigned regs[8] = { 8, 8, 6, 6, 4, 8, 8, 8 };
        return regs[(strcmp(spec->name, "srcA") == 0 ? in->mods.cbsz : in->mods.blgp) & 7u];
    }
    return 1;
}

static wa_operand vreg8(const wa_isa_operand *spec, uint32_t n, unsigned size, int acc)
{
    int a = acc || ((spec->classes & WA_OC_AGPR) && !(spec->classes & WA_OC_VGPR));
    return wa_opnd_phys(a ? WA_REG_AGPR : WA_REG_VGPR, n, size);
}

static wa_operand sreg7(const dec *d, const wa_isa_operand *spec, unsigned size, uint32_t code)
{
    return src_operand(d, spec, size, code, 0, 0);
}

/* Reads candidate row `op`'s operands and modifiers from the words. */
static void read_fields(const dec *d, wa_instr *in, const wa_isa_info *info, int vop3,
                        uint32_t lit_word)
{
    const uint32_t *w = d->w;
    wa_mods *m = &in->mods;
    wa_format fmt = info->format;
    uint32_t src[3] = { 0, 0, 0 }, vdst = 0, sdst = 0;
    int acc[3] = { 0, 0, 0 }, acc_data = 0, acc_cd = 0;
    uint32_t data0 = 0, data1 = 0, addr = 0, saddr = WA_FLAT_SADDR_OFF, srsrc = 0;
    uint32_t simm = 0, data = 0;
    int sdwa_sd = 0;
    unsigned base = 0; /* the word the instruction proper starts at */
    switch (fmt) {
    case WA_FMT_SOP1: sdst = (w[0] >> 16) & 0x7F; src[0] = w[0] & 0xFF; break;
    case WA_FMT_SOP2:
        sdst = (w[0] >> 16) & 0x7F;
        src[0] = w[0] & 0xFF;
        src[1] = (w[0] >> 8) & 0xFF;
        break;
    case WA_FMT_SOPC: src[0] = w[0] & 0xFF; src[1] = (w[0] >> 8) & 0xFF; break;
    case WA_FMT_SOPK: sdst = (w[0] >> 16) & 0x7F; simm = w[0] & 0xFFFF; break;
    case WA_FMT_SOPP: simm = w[0] & 0xFFFF; break;
    case WA_FMT_SMEM:
        if (w[0] & (1u << 16))
            m->flags |= WA_MOD_GLC;
        sdst = (w[0] >> 6) & 0x7F;
        srsrc = (w[0] & 0x3F) << 1;
        break;
    case WA_FMT_DS:
        acc_data = (w[0] >> 25) & 1;
        if (info->flags & WA_IF_DS_2ADDR) {
            m->offset = (int32_t)(w[0] & 0xFF);
            m->offset1 = (int32_t)((w[0] >> 8) & 0xFF);
        } else {
            m->offset = (int32_t)(w[0] & 0xFFFF);
        }
        vdst = w[1] >> 24;
        data1 = (w[1] >> 16) & 0xFF;
        data0 = (w[1] >> 8) & 0xFF;
        addr = w[1] & 0xFF;
        break;
    case WA_FMT_MUBUF:
        m->offset = (int32_t)(w[0] & 0xFFF);
        m->flags |= ((w[0] >> 12) & 1 ? WA_MOD_OFFEN : 0) | ((w[0] >> 13) & 1 ? WA_MOD_IDXEN : 0) |
                    ((w[0] >> 14) & 1 ? WA_MOD_GLC : 0) | ((w[0] >> 15) & 1 ? WA_MOD_SCC : 0) |
                    ((w[0] >> 17) & 1 ? WA_MOD_SLC : 0);
        if (wa_lds_by_modifier(info))
            m->flags |= WA_MOD_LDS;
        src[0] = w[1] >> 24; /* soffset */
        acc_data = (w[1] >> 23) & 1;
        srsrc = ((w[1] >> 16) & 0x1F) << 2;
        data = (w[1] >> 8) & 0xFF;
        addr = w[1] & 0xFF;
        break;
    case WA_FMT_FLAT:
    case WA_FMT_GLOBAL:
    case WA_FMT_SCRATCH: {
        uint32_t off = w[0] & 0x1FFF;
        m->offset = fmt == WA_FMT_FLAT ? (int32_t)(off & 0xFFF)
                                       : (int32_t)(off & 0x1000 ? off - 0x2000 : off);
        m->flags |= ((w[0] >> 16) & 1 ? WA_MOD_GLC : 0) | ((w[0] >> 17) & 1 ? WA_MOD_SLC : 0) |
                    ((w[0] >> 25) & 1 ? WA_MOD_SCC : 0);
        if (wa_lds_by_modifier(info))
            m->flags |= WA_MOD_LDS;
        vdst = w[1] >> 24;
        acc_data = (w[1] >> 23) & 1;
        saddr = (w[1] >> 16) & 0x7F;
        data = (w[1] >> 8) & 0xFF;
        addr = w[1] & 0xFF;
        break;
    }
    case WA_FMT_MAI:
        if (wa_enc_operand(info, "scaleA") >= 0) {
            m->op_sel = (uint8_t)((w[0] >> 11) & 3u);
            m->op_sel_hi = (uint8_t)((w[1] >> 27) & 3u);
            base = 2;
        }
        acc_cd = (w[base] >> 15) & 1;
        m->abid = (uint8_t)((w[base] >> 11) & 15u);
        if (base)
            m->abid &= (uint8_t)~1u;
        m->cbsz = (uint8_t)((w[base] >> 8) & 7u);
        vdst = w[base] & 0xFF;
        src[0] = w[base + 1] & 0x1FF;
        src[1] = (w[base + 1] >> 9) & 0x1FF;
        src[2] = (w[base + 1] >> 18) & 0x1FF;
        acc[0] = (w[base + 1] >> 27) & 1;
        acc[1] = (w[base + 1] >> 28) & 1;
        acc[2] = acc_cd;
        /* neg:[a,b,c] of the f64 MFMAs shares the blgp field */
        if ((info->mods_ok & WA_MODOK_NEG) && d->target != WA_TARGET_GFX90A)
            m->neg = (uint8_t)(w[base + 1] >> 29);
        else
            m->blgp = (uint8_t)(w[base + 1] >> 29);
        break;
    case WA_FMT_VOP3P: {
        int packed = wa_vop3p_packed(info);
        uint32_t hi = ((w[0] >> 14) & 1u) << 2 | ((w[1] >> 27) & 3u);
        m->op_sel_hi = (uint8_t)(packed ? (~hi & 7u) : hi);
        if (packed)
            m->neg_hi = (uint8_t)((w[0] >> 8) & 7u);
        else
            m->abs = (uint8_t)((w[0] >> 8) & 7u);
        m->op_sel = (uint8_t)((w[0] >> 11) & 7u);
        if ((w[0] >> 15) & 1)
            m->flags |= WA_MOD_CLAMP;
        m->neg = (uint8_t)(w[1] >> 29);
        vdst = w[0] & 0xFF;
        src[0] = w[1] & 0x1FF;
        src[1] = (w[1] >> 9) & 0x1FF;
        src[2] = (w[1] >> 18) & 0x1FF;
        break;
    }
    default: /* VOP1/VOP2/VOPC/VOP3 */
        if (vop3 || fmt == WA_FMT_VOP3) {
            if ((w[0] >> 15) & 1)
                m->flags |= WA_MOD_CLAMP;
            if (wa_enc_operand(info, "vdst") >= 0 && wa_enc_operand(info, "sdst") >= 0) {
                sdst = (w[0] >> 8) & 0x7F;
            } else {
                m->op_sel = (uint8_t)((w[0] >> 11) & 15u);
                m->abs = (uint8_t)((w[0] >> 8) & 7u);
            }
            vdst = w[0] & 0xFF;
            if (wa_enc_operand(info, "vdst") < 0)
                sdst = vdst;
            m->neg = (uint8_t)(w[1] >> 29);
            m->omod = (uint8_t)((w[1] >> 27) & 3u);
            src[0] = w[1] & 0x1FF;
            src[1] = (w[1] >> 9) & 0x1FF;
            src[2] = (w[1] >> 18) & 0x1FF;
            break;
        }
        src[0] = w[0] & 0x1FF;
        src[1] = WA_SRC_VGPR0 + ((w[0] >> 9) & 0xFF);
        vdst = sdst = (w[0] >> 17) & 0xFF;
        if (fmt == WA_FMT_VOPC)
            sdst = WA_SRC_VCC_LO;
        if (src[0] == WA_SRC_DPP) {
            uint32_t x = w[1];
            m->flags |= WA_MOD_DPP | ((x >> 19) & 1 ? WA_MOD_BOUND_CTRL : 0);
            m->dpp_ctrl = (uint16_t)((x >> 8) & 0x1FF);
            m->neg = (uint8_t)(((x >> 20) & 1) | ((x >> 22) & 1) << 1);
            m->abs = (uint8_t)(((x >> 21) & 1) | ((x >> 23) & 1) << 1);
            m->bank_mask = (uint8_t)((x >> 24) & 15u);
            m->row_mask = (uint8_t)(x >> 28);
            src[0] = WA_SRC_VGPR0 + (x & 0xFF);
        } else if (src[0] == WA_SRC_SDWA) {
            uint32_t x = w[1];
            m->flags |= WA_MOD_SDWA;
            if (fmt == WA_FMT_VOPC) {
                if ((x >> 15) & 1) {
                    sdst = (x >> 8) & 0x7F;
                    sdwa_sd = 1;
                }
            } else {
                m->dst_sel = (uint8_t)((x >> 8) & 7u);
                m->dst_unused = (uint8_t)((x >> 11) & 3u);
                if ((x >> 13) & 1)
                    m->flags |= WA_MOD_CLAMP;
                m->omod = (uint8_t)((x >> 14) & 3u);
            }
            m->src0_sel = (uint8_t)((x >> 16) & 7u);
            m->sext = (uint8_t)(((x >> 19) & 1) | ((x >> 27) & 1) << 1);
            m->neg = (uint8_t)(((x >> 20) & 1) | ((x >> 28) & 1) << 1);
            m->abs = (uint8_t)(((x >> 21) & 1) | ((x >> 29) & 1) << 1);
            src[0] = (x & 0xFF) + ((x >> 23) & 1 ? 0 : WA_SRC_VGPR0);
            if (wa_enc_operand(info, "src1") >= 0) {
                m->src1_sel = (uint8_t)((x >> 24) & 7u);
                if ((x >> 31) & 1)
                    src[1] -= WA_SRC_VGPR0;
            }
        }
        break;
    }
    if ((info->flags & WA_IF_WAITCNT)) {
        int vm = (int)((simm & 15u) | ((simm >> 14) & 3u) << 4), exp = (int)((simm >> 4) & 7u);
        int lgkm = (int)((simm >> 8) & 15u);
        m->vmcnt = (int8_t)(vm == 63 ? -1 : vm);
        m->expcnt = (int8_t)(exp == 7 ? -1 : exp);
        m->lgkmcnt = (int8_t)(lgkm == 15 ? -1 : lgkm);
    }

    /* operands, in the row's order; sizes that depend on other operands second */
    int imm_seen = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned k = 0; k < info->num_operands; k++) {
            const wa_isa_operand *spec = &info->operands[k];
            const char *nm = spec->name;
            if ((pass == 0) != (spec->size != 0 || (strcmp(nm, "saddr") == 0)))
                continue;
            unsigned size = size_of(in, info, k);
            wa_operand o = wa_opnd_none();
            int f = wa_enc_src_field(nm);
            int e32 = (fmt == WA_FMT_VOP1 || fmt == WA_FMT_VOP2 || fmt == WA_FMT_VOPC) && !vop3;
            if (spec->classes & WA_OC_LABEL) {
                o = wa_opnd_label(0); /* the caller places it */
            } else if (e32 && (spec->classes & WA_OC_VCC32) && !sdwa_sd) {
                o = wa_opnd_special(WA_SPECIAL_VCC); /* implied by the 32-bit form */
            } else if (fmt == WA_FMT_MAI && (strcmp(nm, "scaleA") == 0 || strcmp(nm, "scaleB") == 0)) {
                uint32_t c = nm[5] == 'A' ? (d->w[1] & 0x1FF) : ((d->w[1] >> 9) & 0x1FF);
                o = src_operand(d, spec, size, c, 0, 0);
            } else if (fmt == WA_FMT_SOPP || fmt == WA_FMT_SOPK) {
                if (spec->classes & (WA_OC_IMM)) {
                    o = wa_opnd_imm(imm_seen++ == 0 ? (int64_t)(simm & 0xFFFF)
                                                    : (int64_t)lit_word);
                    if (imm_seen == 1 && !(spec->classes & WA_OC_HWREG) && spec->imm_min < 0 &&
                        simm >= 0x8000 && spec->imm_max < 0x8000)
                        o.imm.i -= 0x10000;
                } else {
                    o = sreg7(d, spec, size, sdst);
                }
            } else if (fmt == WA_FMT_SOPC && (spec->classes & WA_OC_IMM)) {
                o = wa_opnd_imm((int64_t)src[1]);
            } else if (fmt == WA_FMT_SMEM) {
                if (strcmp(nm, "probe") == 0)
                    o = wa_opnd_imm((int64_t)sdst);
                else if (strcmp(nm, "sbase") == 0)
                    o = sreg7(d, spec, size, srsrc);
                else if (strcmp(nm, "soffset") == 0) {
                    uint32_t imm = (d->w[0] >> 17) & 1, soe = (d->w[0] >> 14) & 1;
                    uint32_t off = d->w[1] & 0x1FFFFF;
                    if (imm && !soe)
                        o = wa_opnd_imm((int64_t)((off & 0x100000) ? (int64_t)off - 0x200000 : (int64_t)off));
                    else if (soe) {
                        o = sreg7(d, spec, 1, d->w[1] >> 25);
                        m->offset = (int32_t)((off & 0x100000) ? (int64_t)off - 0x200000 : (int64_t)off);
                    } else
                        o = sreg7(d, spec, 1, off & 0x7F);
                } else
                    o = sreg7(d, spec, size, sdst);
            } else if (fmt == WA_FMT_DS) {
                uint32_t n = strcmp(nm, "vdst") == 0 ? vdst : strcmp(nm, "addr") == 0 ? addr
                           : strcmp(nm, "data0") == 0 ? data0 : data1;
                o = vreg8(spec, n, size, strcmp(nm, "addr") != 0 && acc_data);
            } else if (fmt == WA_FMT_MUBUF) {
                if (strcmp(nm, "vdata") == 0)
                    o = vreg8(spec, data, size, acc_data);
                else if (strcmp(nm, "vaddr") == 0)
                    o = (m->flags & (WA_MOD_OFFEN | WA_MOD_IDXEN)) ? vreg8(spec, addr, size, 0)
                                                                   : wa_opnd_off();
                else if (strcmp(nm, "srsrc") == 0)
                    o = sreg7(d, spec, size, srsrc);
                else
                    o = src_operand(d, spec, size, src[0], 0, 0);
            } else if (fmt == WA_FMT_FLAT || fmt == WA_FMT_GLOBAL || fmt == WA_FMT_SCRATCH) {
                if (strcmp(nm, "vdst") == 0)
                    o = vreg8(spec, vdst, size, acc_data);
                else if (strcmp(nm, "vdata") == 0)
                    o = vreg8(spec, data, size, acc_data);
                else if (strcmp(nm, "saddr") == 0)
                    o = saddr == WA_FLAT_SADDR_OFF ? wa_opnd_off() : sreg7(d, spec, size, saddr);
                else if (fmt == WA_FMT_SCRATCH && !(d->w[0] & (1u << 13)) &&
                         d->target != WA_TARGET_GFX90A)
                    o = wa_opnd_off();
                else if (fmt == WA_FMT_SCRATCH && d->target == WA_TARGET_GFX90A &&
                         saddr != WA_FLAT_SADDR_OFF)
                    o = wa_opnd_off();
                else
                    o = vreg8(spec, addr, size, 0);
            } else if (f >= 0) {
                int a = (fmt == WA_FMT_MAI) ? acc[f] : 0;
                o = src_operand(d, spec, size, src[f], lit_word, a);
            } else if (strcmp(nm, "k") == 0) {
                o = wa_opnd_imm((int64_t)lit_word);
            } else if (strcmp(nm, "vdst") == 0) {
                o = vreg8(spec, vdst, size, fmt == WA_FMT_MAI && acc_cd);
            } else if (strcmp(nm, "sdst") == 0 || strcmp(nm, "drel") == 0) {
                o = sreg7(d, spec, size, sdst);
            } else if (strcmp(nm, "srel") == 0) {
                o = sreg7(d, spec, size, src[0]);
            }
            if (fmt == WA_FMT_SOPK && (spec->classes & WA_OC_IMM) && imm_seen == 2 &&
                spec->imm_min < 0)
                o.imm.i = (int64_t)(int32_t)lit_word;
            if (fmt == WA_FMT_SOP1 && strcmp(nm, "src0") == 0)
                o = src_operand(d, spec, size, src[0], lit_word, 0);
            if ((fmt == WA_FMT_SOP2 || fmt == WA_FMT_SOPC) && f >= 0 && !(spec->classes & WA_OC_IMM))
                o = src_operand(d, spec, size, src[f], lit_word, 0);
            in->ops[k] = o;
        }
    }
    in->nops = (uint16_t)info->num_operands;
}

/* Words of the encoding a format family starts with, and its candidates' format. */
static int family(uint32_t w0, wa_format *fmt, unsigned *op)
{
    if ((w0 >> 23) == 0x17D) { *fmt = WA_FMT_SOP1; *op = (w0 >> 8) & 0xFF; return 1; }
    if ((w0 >> 23) == 0x17E) { *fmt = WA_FMT_SOPC; *op = (w0 >> 16) & 0x7F; return 1; }
    if ((w0 >> 23) == 0x17F) { *fmt = WA_FMT_SOPP; *op = (w0 >> 16) & 0x7F; return 1; }
    if ((w0 >> 28) == 0xB) { *fmt = WA_FMT_SOPK; *op = (w0 >> 23) & 0x1F; return 1; }
    if ((w0 >> 30) == 2) { *fmt = WA_FMT_SOP2; *op = (w0 >> 23) & 0x7F; return 1; }
    if ((w0 >> 26) == 0x30) { *fmt = WA_FMT_SMEM; *op = (w0 >> 18) & 0xFF; return 1; }
    if ((w0 >> 25) == 0x3F) { *fmt = WA_FMT_VOP1; *op = (w0 >> 9) & 0xFF; return 1; }
    if ((w0 >> 25) == 0x3E) { *fmt = WA_FMT_VOPC; *op = (w0 >> 17) & 0xFF; return 1; }
    if ((w0 >> 31) == 0) { *fmt = WA_FMT_VOP2; *op = (w0 >> 25) & 0x3F; return 1; }
    if ((w0 >> 23) == 0x1A7) { *fmt = WA_FMT_VOP3P; *op = (w0 >> 16) & 0x7F; return 1; }
    if ((w0 >> 26) == 0x34) { *fmt = WA_FMT_VOP3; *op = (w0 >> 16) & 0x3FF; return 1; }
    if ((w0 >> 26) == 0x36) { *fmt = WA_FMT_DS; *op = (w0 >> 17) & 0xFF; return 1; }
    if ((w0 >> 26) == 0x37) {
        static const wa_format segs[4] = { WA_FMT_FLAT, WA_FMT_SCRATCH, WA_FMT_GLOBAL, WA_FMT_PSEUDO };
        *fmt = segs[(w0 >> 14) & 3];
        *op = (w0 >> 18) & 0x7F;
        return *fmt != WA_FMT_PSEUDO;
    }
    if ((w0 >> 26) == 0x38) { *fmt = WA_FMT_MUBUF; *op = (w0 >> 18) & 0x7F; return 1; }
    return 0;
}

/* Does row `info` (format `fmt`, maybe reached through the VOP3 opcode space)
   have opcode `op`? *vop3 says the row is a VOP1/VOP2/VOPC in its VOP3 form. */
static int row_matches(const wa_isa_info *info, wa_target t, wa_format fmt, unsigned op, int *vop3)
{
    unsigned enc = t == WA_TARGET_GFX90A ? info->encoding_gfx90a : info->encoding;
    *vop3 = 0;
    if (fmt == WA_FMT_VOP3P)
        return (info->format == WA_FMT_VOP3P || info->format == WA_FMT_MAI) && enc == op;
    if (fmt == WA_FMT_VOP3) {
        if (info->format == WA_FMT_VOP3)
            return enc == op;
        *vop3 = 1;
        return (info->format == WA_FMT_VOPC && WA_ENC_VOP3_OF_VOPC(enc) == op) ||
               (info->format == WA_FMT_VOP2 && WA_ENC_VOP3_OF_VOP2(enc) == op) ||
               (info->format == WA_FMT_VOP1 && WA_ENC_VOP3_OF_VOP1(enc) == op);
    }
    return info->format == fmt && enc == op;
}

typedef struct decoded {
    wa_instr in;
    wa_operand ops[WA_ISA_MAX_OPERANDS];
    uint32_t offset;  /* bytes */
    int label_k;
    int64_t target;   /* branch target in bytes */
} decoded;

/* Decodes the instruction at d->w into *out (its words in *nw). */
static wa_status decode_one(dec *d, decoded *out, unsigned *nw)
{
    const uint32_t *w = d->w;
    wa_format fmt;
    unsigned op;
    if (!family(w[0], &fmt, &op))
        return WA_E_PARSE;
    /* the block-scaled MFMA pair: its second half names the row */
    unsigned skip = 0;
    if (fmt == WA_FMT_VOP3P && op == WA_ENC_LD_SCALE_OP && d->avail >= 4) {
        skip = 2;
        op = (w[2] >> 16) & 0x7F;
    }
    for (unsigned r = 0; r < wa_isa_count(); r++) {
        const wa_isa_info *info = wa_isa(r);
        int vop3;
        if ((info->flags & WA_IF_PSEUDO) || !wa_isa_available(r, d->target) ||
            !row_matches(info, d->target, fmt, op, &vop3))
            continue;
        if ((skip != 0) != (wa_enc_operand(info, "scaleA") >= 0))
            continue;
        wa_instr *in = &out->in;
        memset(in, 0, sizeof(*in));
        wa_mods m = WA_MODS_INIT;
        in->mods = m;
        in->op = (uint16_t)r;
        in->tag = WA_NO_TAG;
        in->ops = out->ops;
        memset(out->ops, 0, sizeof(out->ops));
        /* the literal, if any, follows the instruction's own words */
        unsigned own = (fmt == WA_FMT_VOP1 || fmt == WA_FMT_VOP2 || fmt == WA_FMT_VOPC ||
                        fmt == WA_FMT_SOP1 || fmt == WA_FMT_SOP2 || fmt == WA_FMT_SOPC ||
                        fmt == WA_FMT_SOPK || fmt == WA_FMT_SOPP)
                           ? 1u
                           : 2u;
        if ((fmt == WA_FMT_VOP1 || fmt == WA_FMT_VOP2 || fmt == WA_FMT_VOPC) &&
            ((w[0] & 0x1FF) == WA_SRC_DPP || (w[0] & 0x1FF) == WA_SRC_SDWA))
            own = 2;
        own += skip;
        if (own > d->avail)
            continue;
        uint32_t lit = own < d->avail ? w[own] : 0;
        read_fields(d, in, info, vop3, lit);
        /* rows sharing an opcode differ in the modifiers they take (the atomics
           with and without a result: glc/sc0 selects the returning one) */
        if (((in->mods.flags & WA_MOD_GLC) && !(info->mods_ok & WA_MODOK_GLC)) ||
            ((in->mods.flags & WA_MOD_SLC) && !(info->mods_ok & WA_MODOK_SLC)) ||
            ((in->mods.flags & WA_MOD_SCC) && !(info->mods_ok & WA_MODOK_SC1)))
            continue;
        uint32_t again[6];
        unsigned n = 0;
        int label_k = -1;
        if (wa_encode_instr(d->ctx, d->prog, in, again, &n, &label_k) != WA_OK || n > d->avail)
            continue;
        int same = 1;
        for (unsigned i = 0; i < n && same; i++) {
            uint32_t mask = (i == 0 && label_k >= 0) ? 0xFFFF0000u : 0xFFFFFFFFu;
            same = (again[i] & mask) == (w[i] & mask);
        }
        if (!same)
            continue;
        /* a modifier the row's VOP3 form implies is not spelled: the promoted form
           must be the one the encoder picks */
        if (vop3 != wa_instr_needs_vop3(in, info) &&
            (info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2 ||
             info->format == WA_FMT_VOPC))
            continue;
        out->label_k = label_k;
        if (label_k >= 0)
            out->target = (int64_t)(int16_t)(w[0] & 0xFFFF) * 4 + 4;
        *nw = n;
        wa_diag_reset(d->ctx);
        return WA_OK;
    }
    return WA_E_PARSE;
}

wa_status wa_disassemble(char **text, size_t *len, wa_context *ctx, const unsigned char *code,
                         size_t n, wa_target target, const wa_disasm_options *opts)
{
    if (!text || !ctx || (!code && n))
        return WA_E_INVALID;
    *text = NULL;
    if (len)
        *len = 0;
    wa_disasm_options defaults = WA_DISASM_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    wa_diag_reset(ctx);
    if (opts->version < 1 || opts->version > WA_DISASM_OPTIONS_VERSION)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_disasm_options version %u",
                        opts->version);
    if (n % 4)
        return wa_error(ctx, WA_E_PARSE, WA_LOC_NONE, "code size %zu is not a multiple of 4", n);
    size_t nwords = n / 4;
    uint32_t *words = wa_mem_alloc(ctx, (nwords ? nwords : 1) * sizeof(uint32_t));
    decoded *dv = wa_mem_alloc(ctx, (nwords ? nwords : 1) * sizeof(decoded));
    unsigned char *is_target = wa_mem_calloc(ctx, nwords + 1, 1);
    wa_program *prog = NULL;
    wa_status st = WA_OK;
    unsigned ndec = 0;
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    if (!words || !dv || !is_target) {
        st = wa_error_nomem(ctx);
        goto out;
    }
    for (size_t i = 0; i < nwords; i++)
        words[i] = (uint32_t)code[4 * i] | (uint32_t)code[4 * i + 1] << 8 |
                   (uint32_t)code[4 * i + 2] << 16 | (uint32_t)code[4 * i + 3] << 24;
    if ((st = wa_program_create(&prog, ctx, "disassembly")) ||
        (st = wa_program_set_target(prog, target)))
        goto out;
    dec d = { ctx, prog, target, NULL, 0 };
    for (size_t at = 0; at < nwords;) {
        unsigned nw = 0;
        d.w = words + at;
        d.avail = (unsigned)(nwords - at);
        decoded *x = &dv[ndec];
        if (decode_one(&d, x, &nw) != WA_OK) {
            wa_diag_reset(ctx);
            st = wa_error(ctx, WA_E_PARSE, WA_LOC_NONE,
                          "offset 0x%zx: no instruction of %s encodes as 0x%08x", at * 4,
                          wa_target_name(target), (unsigned)words[at]);
            goto out;
        }
        x->offset = (uint32_t)(at * 4);
        if (x->label_k >= 0) {
            x->target += (int64_t)x->offset;
            if (x->target < 0 || x->target > (int64_t)n || (x->target % 4) != 0) {
                st = wa_error(ctx, WA_E_PARSE, WA_LOC_NONE,
                              "offset 0x%zx: branch to 0x%llx, outside the code", at * 4,
                              (long long)x->target);
                goto out;
            }
            is_target[x->target / 4] = 1;
        }
        at += nw;
        ndec++;
    }
    /* labels, named by their byte offset, in offset order */
    unsigned *label_of = wa_mem_calloc(ctx, nwords + 1, sizeof(unsigned));
    if (!label_of) {
        st = wa_error_nomem(ctx);
        goto out;
    }
    for (size_t i = 0; i <= nwords && st == WA_OK; i++) {
        if (!is_target[i])
            continue;
        char name[32];
        snprintf(name, sizeof(name), "wa_%zu", i * 4);
        st = wa_program_label_create(&label_of[i], prog, name);
    }
    unsigned next = 0;
    for (unsigned i = 0; i < ndec && st == WA_OK; i++) {
        decoded *x = &dv[i];
        for (; next <= x->offset / 4; next++)
            if (is_target[next] && next * 4 != x->offset)
                st = wa_error(ctx, WA_E_PARSE, WA_LOC_NONE,
                              "a branch goes to 0x%x, inside an instruction", next * 4);
        if (is_target[x->offset / 4])
            wa_sb_printf(&sb, "wa_%u:\n", x->offset);
        if (x->label_k >= 0)
            x->ops[x->label_k] = wa_opnd_label(label_of[x->target / 4]);
        wa_sb_putc(&sb, '\t');
        size_t start = sb.len;
        wa_format_instr(&sb, prog, &x->in, NULL, WA_FMT_ASM | WA_FMT_NO_DECL);
        if (opts->flags & WA_DISASM_OFFSETS) {
            wa_sb_pad_to(&sb, start, 48);
            wa_sb_printf(&sb, " ; 0x%04x", x->offset);
        }
        wa_sb_putc(&sb, '\n');
    }
    if (st == WA_OK && is_target[nwords])
        wa_sb_printf(&sb, "wa_%zu:\n", nwords * 4);
    wa_mem_free(ctx, label_of);
    if (st == WA_OK)
        st = wa_sb_finish(&sb, text, len);
out:
    if (st)
        wa_sb_free(&sb);
    wa_program_destroy(prog);
    wa_mem_free(ctx, words);
    wa_mem_free(ctx, dv);
    wa_mem_free(ctx, is_target);
    return st;
}
