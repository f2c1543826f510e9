/* lib/mlir/emit.c — instruction emission for the lowering: new registers and
   labels, VALU/SALU instructions whose operands are made legal for the ISA
   table's rules (inline constants, one literal where the 32-bit encoding takes
   it, one scalar value on the constant bus), and materialisation of scalar
   elements (constants, pending addends, sub-dword positions, lane masks) and
   of packed vectors. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static void builder_failed(tr *T, const char *what)
{
    if (T->failed)
        return;
    const wa_diag *d = wa_context_last_diag(T->ctx);
    tr_error(T, T->cur_loc, WA_E_INTERNAL, "internal error: %s: %s", what,
             d ? d->message : "failed");
}

wa_operand tr_vreg(tr *T, wa_reg_class cls, unsigned size)
{
    wa_operand o = wa_opnd_none();
    if (wa_program_vreg(&o, T->prog, cls, size, 0) != WA_OK)
        builder_failed(T, "new register");
    return o;
}

wa_label tr_label(tr *T, const char *hint)
{
    char name[64];
    snprintf(name, sizeof(name), "%s_%u", hint ? hint : "L", T->label_id++);
    wa_label l = 0;
    if (wa_program_label_create(&l, T->prog, name) != WA_OK)
        builder_failed(T, "new label");
    return l;
}

void tr_place(tr *T, wa_label l)
{
    if (wa_build_label(T->prog, l) != WA_OK)
        builder_failed(T, "label");
}

void tr_branch(tr *T, wa_opcode op, wa_label l)
{
    if (wa_build_branch(NULL, T->prog, op, l) != WA_OK)
        builder_failed(T, "branch");
}

void tr_comment(tr *T, const char *text)
{
    if (wa_build_comment(T->prog, text) != WA_OK)
        builder_failed(T, "comment");
}

void tr_emit(tr *T, wa_opcode op, const wa_operand *ops, unsigned n, const wa_mods *mods)
{
    if (T->failed)
        return;
    if (wa_build(NULL, T->prog, op, ops, n, mods) != WA_OK) {
        char what[96];
        snprintf(what, sizeof(what), "building %s", wa_isa_get(op)->mnemonic);
        builder_failed(T, what);
    }
}

/* ---- operand legality ------------------------------------------------------------------ */

static int is_reg(const wa_operand *o)
{
    return o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS;
}

static int is_vgpr(const wa_operand *o)
{
    return is_reg(o) && o->reg_class == WA_REG_VGPR;
}

static int is_scalar_reg(const wa_operand *o)
{
    return (is_reg(o) && o->reg_class == WA_REG_SGPR) || o->kind == WA_OPND_SPECIAL;
}

static int same_operand(const wa_operand *a, const wa_operand *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == WA_OPND_IMM)
        return a->imm.i == b->imm.i;
    return a->reg_class == b->reg_class && a->id == b->id && a->first == b->first &&
           a->count == b->count;
}

static const uint32_t f32_inline[] = { 0x3F000000u, 0xBF000000u, 0x3F800000u, 0xBF800000u,
                                       0x40000000u, 0xC0000000u, 0x40800000u, 0xC0800000u,
                                       0x3E22F983u };
static const uint32_t f16_inline[] = { 0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000,
                                       0xC000, 0x4400, 0xC400, 0x3118 };

static const uint64_t f64_inline[] = { 0x3FE0000000000000ull, 0xBFE0000000000000ull,
                                       0x3FF0000000000000ull, 0xBFF0000000000000ull,
                                       0x4000000000000000ull, 0xC000000000000000ull,
                                       0x4010000000000000ull, 0xC010000000000000ull,
                                       0x3FC45F306DC9C882ull };

/* Whether immediate `v` is an inline constant for an operand of type `ty`. */
static int imm_inline(int64_t v, unsigned ty)
{
    if (v >= -16 && v <= 64)
        return 1;
    if (ty == WA_TY_F16) {
        for (unsigned i = 0; i < sizeof(f16_inline) / sizeof(f16_inline[0]); i++)
            if ((uint64_t)v == f16_inline[i])
                return 1;
        return 0;
    }
    if (ty == WA_TY_B64 || ty == WA_TY_F64) {
        /* the f64 bit patterns of the inline floats */
        for (unsigned i = 0; i < sizeof(f64_inline) / sizeof(f64_inline[0]); i++)
            if ((uint64_t)v == f64_inline[i])
                return 1;
        return 0;
    }
    if (v >= 0xFFFFFFF0ll && v <= 0xFFFFFFFFll)
        return 1;
    uint32_t b = (uint32_t)v;
    if ((int64_t)b != v && (int64_t)(int32_t)b != v)
        return 0;
    for (unsigned i = 0; i < sizeof(f32_inline) / sizeof(f32_inline[0]); i++)
        if (b == f32_inline[i])
            return 1;
    return 0;
}

wa_operand tr_to_vgpr(tr *T, wa_operand src)
{
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    wa_operand ops[2] = { d, src };
    tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
    return d;
}

wa_operand tr_to_sgpr(tr *T, wa_operand src)
{
    wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
    if (is_vgpr(&src)) {
        wa_operand ops[2] = { d, src };
        tr_emit(T, WA_OP_V_READFIRSTLANE_B32, ops, 2, NULL);
        return d;
    }
    wa_operand ops[2] = { d, src };
    tr_emit(T, WA_OP_S_MOV_B32, ops, 2, NULL);
    return d;
}

/* A 64-bit immediate or SGPR pair copied to a VGPR pair. */
static wa_operand vpair(tr *T, wa_operand src)
{
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    for (unsigned h = 0; h < 2; h++) {
        uint32_t word = (uint32_t)((uint64_t)src.imm.i >> (32 * h));
        wa_operand s = src.kind == WA_OPND_IMM ? wa_opnd_imm((int64_t)(int32_t)word)
                                               : wa_opnd_sub(src, h, 1);
        wa_operand ops[2] = { wa_opnd_sub(d, h, 1), s };
        tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
    }
    return d;
}

/* The common legaliser of VALU instructions with one destination. */
static void valu_legal(tr *T, wa_opcode op, wa_operand dst, wa_operand *src, unsigned nsrc,
                       int commute)
{
    const wa_isa_info *info = wa_isa_get(op);
    unsigned first_use = 0;
    while (first_use < info->num_operands && info->operands[first_use].role == WA_ROLE_DEF)
        first_use++;
    if (nsrc > info->num_operands - first_use)
        nsrc = info->num_operands - first_use;
    int is_vopx = info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2 ||
                  info->format == WA_FMT_VOPC;
    /* VOP2: the second source must be a VGPR for the 32-bit form. */
    if (commute && nsrc >= 2 && is_vopx && !is_vgpr(&src[1]) && is_vgpr(&src[0])) {
        wa_operand t = src[0];
        src[0] = src[1];
        src[1] = t;
    }
    int vop3 = !is_vopx;
    if (is_vopx) {
        if (info->format == WA_FMT_VOPC &&
            !(dst.kind == WA_OPND_SPECIAL && dst.id == WA_SPECIAL_VCC))
            vop3 = 1;
        for (unsigned k = 1; k < nsrc; k++) {
            const wa_isa_operand *spec = &info->operands[first_use + k];
            if (strcmp(spec->name, "mask") == 0) {
                if (!(src[k].kind == WA_OPND_SPECIAL && src[k].id == WA_SPECIAL_VCC))
                    vop3 = 1;
            } else if (!is_vgpr(&src[k])) {
                vop3 = 1;
            }
        }
    }
    /* Immediates: inline constants stay; a literal stays only in src0 of a 32-bit
       encoding; everything else goes to a register. Registers of a class the
       position does not take are copied to a VGPR. */
    int literal_used = 0;
    for (unsigned k = 0; k < nsrc; k++) {
        const wa_isa_operand *spec = &info->operands[first_use + k];
        wa_operand *o = &src[k];
        if (o->kind == WA_OPND_IMM) {
            if (imm_inline(o->imm.i, spec->type) && (spec->classes & WA_OC_INLINE))
                continue;
            if (spec->size == 2) {
                /* a 32-bit literal cannot stand for a 64-bit value: a VGPR pair */
                *o = vpair(T, *o);
                continue;
            }
            if (!vop3 && !literal_used && (spec->classes & WA_OC_LITERAL)) {
                literal_used = 1;
                continue;
            }
            /* a literal in a register: an SGPR if the bus may still be free */
            *o = tr_to_vgpr(T, *o);
            continue;
        }
        if (is_reg(o) && o->reg_class == WA_REG_SGPR && !(spec->classes & WA_OC_SGPR)) {
            *o = tr_to_vgpr(T, *o);
            continue;
        }
    }
    /* Constant bus: one scalar value (SGPRs counted once, literal included).
       Scalars that must stay (a lane mask, positions without VGPRs) are
       counted first; the others move to VGPRs once the bus is taken. */
    const wa_operand *seen[WA_ISA_MAX_OPERANDS];
    unsigned nseen = 0;
    unsigned scalars = literal_used;
    if (info->implicit_uses & WA_IMPL_VCC)
        scalars++;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned k = 0; k < nsrc; k++) {
            wa_operand *o = &src[k];
            if (!is_scalar_reg(o))
                continue;
            const wa_isa_operand *spec = &info->operands[first_use + k];
            int fixed = strcmp(spec->name, "mask") == 0 || !(spec->classes & WA_OC_VGPR) ||
                        (o->count != 1 && !(o->count == 2 && spec->size == 2 && is_reg(o)));
            if (fixed != (pass == 0))
                continue;
            int dup = 0;
            for (unsigned j = 0; j < nseen; j++)
                dup |= same_operand(seen[j], o);
            if (dup)
                continue;
            if (scalars >= 1 && !fixed) {
                *o = o->count == 2 ? vpair(T, *o) : tr_to_vgpr(T, *o);
                continue;
            }
            seen[nseen++] = o;
            scalars++;
        }
    wa_operand ops[WA_ISA_MAX_OPERANDS];
    unsigned n = 0;
    ops[n++] = dst;
    for (unsigned k = 0; k < nsrc; k++)
        ops[n++] = src[k];
    tr_emit(T, op, ops, n, NULL);
}

static unsigned count_src(wa_operand a, wa_operand b, wa_operand c)
{
    return c.kind != WA_OPND_NONE ? 3 : b.kind != WA_OPND_NONE ? 2 : a.kind != WA_OPND_NONE ? 1 : 0;
}

void tr_valu(tr *T, wa_opcode op, wa_operand dst, wa_operand a, wa_operand b, wa_operand c)
{
    wa_operand s[3] = { a, b, c };
    valu_legal(T, op, dst, s, count_src(a, b, c), 0);
}

void tr_valu_c(tr *T, wa_opcode op, wa_operand dst, wa_operand a, wa_operand b)
{
    wa_operand s[2] = { a, b };
    valu_legal(T, op, dst, s, 2, 1);
}

void tr_salu(tr *T, wa_opcode op, wa_operand dst, wa_operand a, wa_operand b)
{
    const wa_isa_info *info = wa_isa_get(op);
    /* one literal at most; VGPRs cannot be read */
    wa_operand s[2] = { a, b };
    int lits = 0;
    for (unsigned k = 0; k < 2; k++) {
        if (s[k].kind == WA_OPND_IMM && !imm_inline(s[k].imm.i, WA_TY_B32)) {
            if (lits)
                s[k] = tr_to_sgpr(T, s[k]);
            else
                lits = 1;
        } else if (is_vgpr(&s[k])) {
            s[k] = tr_to_sgpr(T, s[k]); /* caller guarantees uniformity */
        }
    }
    wa_operand ops[3];
    unsigned n = 0;
    if (info->operands[0].role == WA_ROLE_DEF)
        ops[n++] = dst;
    for (unsigned k = 0; k < 2 && n < info->num_operands; k++)
        ops[n++] = s[k];
    tr_emit(T, op, ops, n, NULL);
}

/* ---- scalar elements ----------------------------------------------------------------------- */

wv wv_sreg(wa_operand r)
{
    wv e;
    memset(&e, 0, sizeof(e));
    e.kind = WV_SREG;
    e.r = r;
    e.uniform = 1;
    return e;
}

wv wv_vreg(wa_operand r, int uniform)
{
    wv e;
    memset(&e, 0, sizeof(e));
    e.kind = WV_VREG;
    e.r = r;
    e.uniform = (uint8_t)(uniform != 0);
    return e;
}

wv wv_maskv(wa_operand r, int uniform)
{
    wv e;
    memset(&e, 0, sizeof(e));
    e.kind = WV_MASK;
    e.r = r;
    e.uniform = (uint8_t)(uniform != 0);
    return e;
}

static wa_operand imm32(uint64_t bits)
{
    return wa_opnd_imm((int64_t)(int32_t)(uint32_t)bits);
}

wv tr_settle(tr *T, const wv *e)
{
    wv r = *e;
    if (e->kind == WV_SREG) {
        if (e->shift) {
            wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
            tr_salu(T, WA_OP_S_LSHR_B32, d, e->r, wa_opnd_imm(e->shift));
            r.r = d;
            r.shift = 0;
        }
        if (e->add) {
            wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
            tr_salu(T, WA_OP_S_ADD_U32, d, r.r, imm32((uint64_t)e->add));
            r.r = d;
            r.add = 0;
        }
    } else if (e->kind == WV_VREG) {
        if (e->shift) {
            wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
            tr_valu(T, WA_OP_V_LSHRREV_B32, d, wa_opnd_imm(e->shift), e->r, wa_opnd_none());
            r.r = d;
            r.shift = 0;
        }
        if (e->add) {
            wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
            tr_valu_c(T, WA_OP_V_ADD_U32, d, imm32((uint64_t)e->add), r.r);
            r.r = d;
            r.add = 0;
        }
    }
    return r;
}

wa_operand tr_src(tr *T, const wv *e)
{
    switch (e->kind) {
    case WV_CONST: return imm32(e->c);
    case WV_SREG:
    case WV_VREG: {
        wv s = tr_settle(T, e);
        return s.r;
    }
    case WV_SBOOL: return e->r;
    case WV_MASK: {
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_CNDMASK_B32, d, wa_opnd_imm(0), wa_opnd_imm(1), e->r);
        return d;
    }
    default:
        tr_error(T, T->cur_loc, WA_E_INTERNAL, "internal error: value without a location");
        return wa_opnd_imm(0);
    }
}

wa_operand tr_vsrc(tr *T, const wv *e)
{
    wa_operand s = tr_src(T, e);
    if (is_vgpr(&s))
        return s;
    return tr_to_vgpr(T, s);
}

wa_operand tr_ssrc(tr *T, const wv *e)
{
    if (e->kind == WV_VREG || e->kind == WV_MASK) {
        if (!e->uniform) {
            tr_error(T, T->cur_loc, WA_E_INTERNAL,
                     "internal error: a per-lane value is used where a uniform value is needed");
            return wa_opnd_imm(0);
        }
        wa_operand v = tr_src(T, e);
        return tr_to_sgpr(T, v);
    }
    wa_operand s = tr_src(T, e);
    if (s.kind == WA_OPND_IMM)
        return tr_to_sgpr(T, s);
    return s;
}

wa_operand tr_src64(tr *T, const wv *e)
{
    if (e->kind == WV_CONST) {
        if (e->c <= 64 || (int64_t)e->c >= -16)
            if ((int64_t)e->c >= -16 && (int64_t)e->c <= 64)
                return wa_opnd_imm((int64_t)e->c);
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand lo[2] = { wa_opnd_sub(d, 0, 1), imm32(e->c) };
        wa_operand hi[2] = { wa_opnd_sub(d, 1, 1), imm32(e->c >> 32) };
        tr_emit(T, WA_OP_S_MOV_B32, lo, 2, NULL);
        tr_emit(T, WA_OP_S_MOV_B32, hi, 2, NULL);
        return d;
    }
    return e->r;
}

wa_operand tr_src_ext(tr *T, const wv *e, ety et, int is_signed)
{
    unsigned bits = et.bits;
    if (e->kind == WV_CONST) {
        int64_t v = is_signed ? wv_sext(e, et) : (int64_t)wv_zext(e, et);
        return imm32((uint64_t)v);
    }
    if (bits >= 32 || e->kind == WV_MASK || e->kind == WV_SBOOL)
        return tr_src(T, e);
    wv s = *e;
    if (s.add)
        s = tr_settle(T, &s);
    if (s.kind == WV_SREG) {
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
        if (!is_signed) {
            tr_salu(T, WA_OP_S_BFE_U32, d, s.r, wa_opnd_imm((int64_t)(bits << 16 | s.shift)));
        } else {
            wa_operand t = tr_vreg(T, WA_REG_SGPR, 1);
            tr_salu(T, WA_OP_S_LSHL_B32, t, s.r, wa_opnd_imm(32 - bits - s.shift));
            tr_salu(T, WA_OP_S_ASHR_I32, d, t, wa_opnd_imm(32 - bits));
        }
        return d;
    }
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    if (!is_signed) {
        tr_valu(T, WA_OP_V_BFE_U32, d, s.r, wa_opnd_imm(s.shift), wa_opnd_imm(bits));
    } else {
        wa_operand t = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_LSHLREV_B32, t, wa_opnd_imm(32 - bits - s.shift), s.r, wa_opnd_none());
        tr_valu(T, WA_OP_V_ASHRREV_I32, d, wa_opnd_imm(32 - bits), t, wa_opnd_none());
    }
    return d;
}

wa_operand tr_mask(tr *T, const wv *e)
{
    switch (e->kind) {
    case WV_CONST:
        if (e->c & 1)
            return wa_opnd_special(WA_SPECIAL_EXEC);
        return wa_opnd_imm(0);
    case WV_MASK: return e->r;
    case WV_SBOOL:
    case WV_SREG: {
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand c[2] = { tr_src(T, e), wa_opnd_imm(0) };
        tr_emit(T, WA_OP_S_CMP_LG_U32, c, 2, NULL);
        wa_operand s[3] = { d, wa_opnd_special(WA_SPECIAL_EXEC), wa_opnd_imm(0) };
        tr_emit(T, WA_OP_S_CSELECT_B64, s, 3, NULL);
        return d;
    }
    case WV_VREG: {
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand v = tr_src(T, e);
        tr_valu(T, WA_OP_V_CMP_NE_U32, d, wa_opnd_imm(0), v, wa_opnd_none());
        return d;
    }
    default:
        tr_error(T, T->cur_loc, WA_E_INTERNAL, "internal error: i1 without a location");
        return wa_opnd_imm(0);
    }
}

wa_operand tr_sbool(tr *T, const wv *e)
{
    switch (e->kind) {
    case WV_CONST: return tr_to_sgpr(T, wa_opnd_imm((int64_t)(e->c & 1)));
    case WV_SBOOL: return e->r;
    case WV_SREG: return tr_src(T, e);
    case WV_MASK: {
        if (!e->uniform)
            break;
        wa_operand t = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand a[3] = { t, e->r, wa_opnd_special(WA_SPECIAL_EXEC) };
        tr_emit(T, WA_OP_S_AND_B64, a, 3, NULL);
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
        wa_operand s[3] = { d, wa_opnd_imm(1), wa_opnd_imm(0) };
        tr_emit(T, WA_OP_S_CSELECT_B32, s, 3, NULL);
        return d;
    }
    case WV_VREG:
        if (!e->uniform)
            break;
        return tr_ssrc(T, e);
    default: break;
    }
    tr_error(T, T->cur_loc, WA_E_INTERNAL,
             "internal error: a per-lane condition is used where a uniform one is needed");
    return wa_opnd_imm(0);
}

/* ---- packed vectors ------------------------------------------------------------------------ */

/* One byte of a dword being assembled: from a register's byte, or a constant. */
typedef struct pbyte {
    int is_const;
    uint8_t value;
    wa_operand reg;
    unsigned byte;
} pbyte;

/* Builds dword `dst` from four bytes with v_perm_b32 (D = bytes of {src0:src1}
   chosen by the selector: 0-3 from src1, 4-7 from src0, 0x0C a zero byte),
   two new source registers per step, keeping the bytes already placed. */
static void pack_dword(tr *T, wa_operand dst, const pbyte *in)
{
    pbyte b[4];
    memcpy(b, in, sizeof(b));
    uint32_t cval = 0;
    int nonzero_const = 0, nreg = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (b[i].is_const) {
            cval |= (uint32_t)b[i].value << (8 * i);
            nonzero_const |= b[i].value != 0;
        } else {
            nreg++;
        }
    }
    if (nreg == 0) {
        wa_operand ops[2] = { dst, imm32(cval) };
        tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
        return;
    }
    if (nonzero_const) {
        wa_operand c = tr_to_vgpr(T, imm32(cval));
        for (unsigned i = 0; i < 4; i++)
            if (b[i].is_const && b[i].value) {
                b[i].is_const = 0;
                b[i].reg = c;
                b[i].byte = i;
            }
    }
    wa_operand srcs[4];
    unsigned ns = 0;
    for (unsigned i = 0; i < 4; i++) {
        if (b[i].is_const)
            continue;
        unsigned k = 0;
        while (k < ns && !same_operand(&srcs[k], &b[i].reg))
            k++;
        if (k == ns)
            srcs[ns++] = b[i].reg;
    }
    if (ns == 1 && !b[0].is_const && !b[1].is_const && !b[2].is_const && !b[3].is_const &&
        b[0].byte == 0 && b[1].byte == 1 && b[2].byte == 2 && b[3].byte == 3) {
        wa_operand ops[2] = { dst, srcs[0] };
        tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
        return;
    }
    int placed[4] = { 0, 0, 0, 0 };
    wa_operand acc = wa_opnd_none();
    int have_acc = 0;
    unsigned k = 0;
    while (k < ns) {
        wa_operand s1, s0;
        if (!have_acc) {
            s1 = srcs[k++];
            s0 = k < ns ? srcs[k++] : s1;
        } else {
            s1 = acc;
            s0 = srcs[k++];
        }
        uint32_t sel = 0;
        for (unsigned i = 0; i < 4; i++) {
            unsigned v = 0x0C;
            if (b[i].is_const) {
                v = 0x0C;
            } else if (placed[i]) {
                v = i;
            } else if (!have_acc && same_operand(&b[i].reg, &s1)) {
                v = b[i].byte;
                placed[i] = 1;
            } else if (same_operand(&b[i].reg, &s0)) {
                v = 4 + b[i].byte;
                placed[i] = 1;
            }
            sel |= v << (8 * i);
        }
        wa_operand out = k >= ns ? dst : tr_vreg(T, WA_REG_VGPR, 1);
        wa_operand selr = tr_to_sgpr(T, imm32(sel));
        tr_valu(T, WA_OP_V_PERM_B32, out, s0, s1, selr);
        acc = out;
        have_acc = 1;
    }
}

/* Fills `b` with the bytes of element e (width `bits`) placed at byte `at`. */
static void elem_bytes(tr *T, const wv *e, unsigned bits, pbyte *b, unsigned at)
{
    unsigned nb = bits / 8;
    if (e->kind == WV_CONST) {
        for (unsigned i = 0; i < nb; i++) {
            b[at + i].is_const = 1;
            b[at + i].value = (uint8_t)(e->c >> (8 * i));
        }
        return;
    }
    wa_operand r;
    unsigned shift = 0;
    if (e->kind == WV_MASK || e->kind == WV_SBOOL) {
        r = tr_src(T, e);
    } else if (e->add || e->shift % 8) {
        wv s = tr_settle(T, e);
        r = s.r;
    } else {
        r = e->r;
        shift = e->shift;
    }
    if (!is_vgpr(&r))
        r = tr_to_vgpr(T, r);
    for (unsigned i = 0; i < nb; i++) {
        b[at + i].is_const = 0;
        b[at + i].reg = r;
        b[at + i].byte = shift / 8 + i;
    }
}

static int packed_in_place(const wval *w, unsigned first, unsigned count, wa_operand *out)
{
    unsigned bits = w->et.bits;
    const wv *e0 = &w->e[first];
    if (e0->kind != WV_VREG || e0->add || e0->shift || e0->r.kind != WA_OPND_VIRT)
        return 0;
    unsigned ndw = (count * bits + 31) / 32;
    for (unsigned i = 0; i < count; i++) {
        const wv *e = &w->e[first + i];
        unsigned pos = i * bits;
        if (e->kind != WV_VREG || e->add || e->r.kind != WA_OPND_VIRT || e->r.id != e0->r.id ||
            e->r.first != e0->r.first + pos / 32 || e->shift != pos % 32)
            return 0;
    }
    /* sub-dword tails: the unused high bits of the last dword are fine */
    wa_operand o = e0->r;
    o.count = (uint16_t)ndw;
    *out = o;
    return 1;
}

static void pack_into(tr *T, const wval *w, unsigned first, unsigned count, wa_operand dst)
{
    unsigned bits = w->et.bits;
    if (bits == 64) {
        for (unsigned i = 0; i < count; i++) {
            const wv *e = &w->e[first + i];
            for (unsigned h = 0; h < 2; h++) {
                wa_operand src;
                if (e->kind == WV_CONST)
                    src = imm32(e->c >> (32 * h));
                else
                    src = wa_opnd_sub(e->r, h, 1);
                wa_operand ops[2] = { wa_opnd_sub(dst, 2 * i + h, 1), src };
                tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
            }
        }
        return;
    }
    if (bits == 32) {
        for (unsigned i = 0; i < count; i++) {
            wa_operand src = tr_src(T, &w->e[first + i]);
            wa_operand ops[2] = { wa_opnd_sub(dst, i, 1), src };
            tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
        }
        return;
    }
    unsigned per = 32 / bits;
    unsigned ndw = (count + per - 1) / per;
    for (unsigned d = 0; d < ndw; d++) {
        pbyte b[4];
        memset(b, 0, sizeof(b));
        for (unsigned i = 0; i < 4; i++) {
            b[i].is_const = 1;
            b[i].value = 0;
        }
        for (unsigned k = 0; k < per; k++) {
            unsigned idx = d * per + k;
            if (idx >= count)
                break;
            elem_bytes(T, &w->e[first + idx], bits, b, k * bits / 8);
        }
        pack_dword(T, wa_opnd_sub(dst, d, 1), b);
    }
}

wa_operand tr_pack(tr *T, const wval *w, unsigned first, unsigned count)
{
    unsigned bits = w->et.bits;
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
        tr_error(T, T->cur_loc, WA_E_UNSUPPORTED,
                 "vectors of %u-bit elements cannot be kept in registers", bits);
        return wa_opnd_none();
    }
    wa_operand o;
    if (packed_in_place(w, first, count, &o))
        return o;
    unsigned ndw = (count * bits + 31) / 32;
    wa_operand dst = tr_vreg(T, WA_REG_VGPR, ndw);
    pack_into(T, w, first, count, dst);
    return dst;
}

void tr_pack_to(tr *T, const wval *w, unsigned first, unsigned count, wa_operand dst)
{
    pack_into(T, w, first, count, dst);
}

void tr_unpack(tr *T, wv *out, wa_operand tuple, ety et, unsigned count, int uniform)
{
    (void)T;
    unsigned bits = et.bits;
    for (unsigned i = 0; i < count; i++) {
        unsigned pos = i * bits;
        wv e = wv_vreg(wa_opnd_sub(tuple, pos / 32, bits == 64 ? 2 : 1), uniform);
        e.shift = (uint8_t)(bits < 32 ? pos % 32 : 0);
        out[i] = e;
    }
}
