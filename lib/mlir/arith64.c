/* lib/mlir/arith64.c — 64-bit integer and f64 arithmetic of arith and math. The
   values live in register pairs (low word first). Integers on uniform operands
   use SALU (carry through SCC, 64-bit logic and shifts); per-lane ones VALU
   (carry through an SGPR pair). f64 uses the VALU's f64 instructions, which are
   correctly rounded; min/max and compares get the NaN and signed-zero rules of
   MLIR as the f32 path does. Constants fold. */
#include "internal.h"

#include <math.h>
#include <string.h>

#define TR_I64 ((ety){ ET_INT, 64, EF_NONE, 0 })
#define TR_F64 ((ety){ ET_FLOAT, 64, EF_F64, 0 })

static int is_vgpr_op(wa_operand o)
{
    return (o.kind == WA_OPND_VIRT || o.kind == WA_OPND_PHYS) && o.reg_class == WA_REG_VGPR;
}

static int scalar_elem(const wv *e)
{
    return e->kind == WV_CONST || e->kind == WV_SREG;
}

/* Word h of a 64-bit element as a 32-bit source. */
static wa_operand half(const wv *e, unsigned h)
{
    if (e->kind == WV_CONST)
        return wa_opnd_imm((int64_t)(int32_t)(uint32_t)(e->c >> (32 * h)));
    return wa_opnd_sub(e->r, h, 1);
}

/* A 64-bit VALU source: the pair, or the constant (emit.c makes it legal). */
static wa_operand src64(const wv *e)
{
    if (e->kind == WV_CONST)
        return wa_opnd_imm((int64_t)e->c);
    return e->r;
}

/* A 32-bit source of a VALU instruction with an SGPR carry: a VGPR or an inline
   integer, else copied to a VGPR. */
static wa_operand vsrc(tr *T, wa_operand o)
{
    if (is_vgpr_op(o))
        return o;
    if (o.kind == WA_OPND_IMM && o.imm.i >= -16 && o.imm.i <= 64)
        return o;
    return tr_to_vgpr(T, o);
}

/* ---- integers ----------------------------------------------------------------------------- */

static uint64_t fold_i64(tr_i64op op, uint64_t a, uint64_t b)
{
    unsigned s = (unsigned)(b & 63);
    switch (op) {
    case I64_ADD: return a + b;
    case I64_SUB: return a - b;
    case I64_MUL: return a * b;
    case I64_AND: return a & b;
    case I64_OR: return a | b;
    case I64_XOR: return a ^ b;
    case I64_SHL: return a << s;
    case I64_SHRU: return a >> s;
    default:
        /* arithmetic shift without relying on signed >> */
        return (a >> s) | ((a >> 63) && s ? ~(~0ull >> s) : 0);
    }
}

/* a + b or a - b with the carry between the words. */
static wv addsub(tr *T, int sub, const wv *a, const wv *b, int salu, int uniform)
{
    if (salu) {
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
        tr_salu(T, sub ? WA_OP_S_SUB_U32 : WA_OP_S_ADD_U32, wa_opnd_sub(d, 0, 1), half(a, 0),
                half(b, 0));
        tr_salu(T, sub ? WA_OP_S_SUBB_U32 : WA_OP_S_ADDC_U32, wa_opnd_sub(d, 1, 1), half(a, 1),
                half(b, 1));
        return wv_sreg(d);
    }
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    wa_operand c0 = tr_vreg(T, WA_REG_SGPR, 2), c1 = tr_vreg(T, WA_REG_SGPR, 2);
    wa_operand lo[4] = { wa_opnd_sub(d, 0, 1), c0, vsrc(T, half(a, 0)), vsrc(T, half(b, 0)) };
    tr_emit(T, sub ? WA_OP_V_SUB_CO_U32 : WA_OP_V_ADD_CO_U32, lo, 4, NULL);
    wa_operand hi[5] = { wa_opnd_sub(d, 1, 1), c1, vsrc(T, half(a, 1)), vsrc(T, half(b, 1)), c0 };
    tr_emit(T, sub ? WA_OP_V_SUBB_CO_U32 : WA_OP_V_ADDC_CO_U32, hi, 5, NULL);
    return wv_vreg(d, uniform);
}

/* The low (hi = 0) or high word of x * y into d. */
static wa_operand mul32(tr *T, int salu, int hi, wa_operand d, wa_operand x, wa_operand y)
{
    if (salu)
        tr_salu(T, hi ? WA_OP_S_MUL_HI_U32 : WA_OP_S_MUL_I32, d, x, y);
    else
        tr_valu_c(T, hi ? WA_OP_V_MUL_HI_U32 : WA_OP_V_MUL_LO_U32, d, x, y);
    return d;
}

/* a * b mod 2^64: lo(al*bl), hi(al*bl) + al*bh + ah*bl; terms with a zero
   constant word are left out. */
static wv mul64(tr *T, const wv *a, const wv *b, int salu, int uniform)
{
    wa_reg_class cls = salu ? WA_REG_SGPR : WA_REG_VGPR;
    wa_operand d = tr_vreg(T, cls, 2);
    wa_operand al = half(a, 0), ah = half(a, 1), bl = half(b, 0), bh = half(b, 1);
    int zah = a->kind == WV_CONST && !(a->c >> 32), zbh = b->kind == WV_CONST && !(b->c >> 32);
    wa_operand terms[3];
    unsigned nt = 0;
    terms[nt++] = mul32(T, salu, 1, tr_vreg(T, cls, 1), al, bl);
    if (!zbh)
        terms[nt++] = mul32(T, salu, 0, tr_vreg(T, cls, 1), al, bh);
    if (!zah)
        terms[nt++] = mul32(T, salu, 0, tr_vreg(T, cls, 1), ah, bl);
    mul32(T, salu, 0, wa_opnd_sub(d, 0, 1), al, bl);
    if (salu) {
        wa_operand acc = terms[0];
        for (unsigned k = 1; k < nt; k++) {
            wa_operand s = k + 1 == nt ? wa_opnd_sub(d, 1, 1) : tr_vreg(T, WA_REG_SGPR, 1);
            tr_salu(T, WA_OP_S_ADD_U32, s, acc, terms[k]);
            acc = s;
        }
        if (nt == 1) {
            wa_operand m[2] = { wa_opnd_sub(d, 1, 1), acc };
            tr_emit(T, WA_OP_S_MOV_B32, m, 2, NULL);
        }
        return wv_sreg(d);
    }
    wa_operand dh = wa_opnd_sub(d, 1, 1);
    if (nt == 3)
        tr_valu(T, WA_OP_V_ADD3_U32, dh, terms[0], terms[1], terms[2]);
    else if (nt == 2)
        tr_valu_c(T, WA_OP_V_ADD_U32, dh, terms[0], terms[1]);
    else
        tr_valu(T, WA_OP_V_MOV_B32, dh, terms[0], wa_opnd_none(), wa_opnd_none());
    return wv_vreg(d, uniform);
}

wv tr_i64_bin(tr *T, tr_i64op op, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return wv_const(fold_i64(op, a->c, b->c));
    int commutes = op == I64_ADD || op == I64_MUL || op == I64_AND || op == I64_OR || op == I64_XOR;
    if (commutes && a->kind == WV_CONST) {
        const wv *t = a;
        a = b;
        b = t;
    }
    if (b->kind == WV_CONST) {
        uint64_t c = b->c;
        if ((c == 0 && op != I64_MUL && op != I64_AND) || (c == 1 && op == I64_MUL) ||
            (c == ~0ull && op == I64_AND) || ((c & 63) == 0 && op >= I64_SHL))
            return *a;
        if (c == 0 && (op == I64_MUL || op == I64_AND))
            return wv_const(0);
        if (c == ~0ull && op == I64_OR)
            return wv_const(~0ull);
    }
    int salu = scalar_elem(a) && scalar_elem(b);
    int u = uniform || (a->uniform && b->uniform);
    switch (op) {
    case I64_ADD:
    case I64_SUB: return addsub(T, op == I64_SUB, a, b, salu, u);
    case I64_MUL: return mul64(T, a, b, salu, u);
    case I64_AND:
    case I64_OR:
    case I64_XOR: {
        static const wa_opcode sop[3] = { WA_OP_S_AND_B64, WA_OP_S_OR_B64, WA_OP_S_XOR_B64 };
        static const wa_opcode vop[3] = { WA_OP_V_AND_B32, WA_OP_V_OR_B32, WA_OP_V_XOR_B32 };
        unsigned k = (unsigned)(op - I64_AND);
        if (salu) {
            wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
            wa_operand ops[3] = { d, tr_src64(T, a), tr_src64(T, b) };
            tr_emit(T, sop[k], ops, 3, NULL);
            return wv_sreg(d);
        }
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
        for (unsigned h = 0; h < 2; h++)
            tr_valu_c(T, vop[k], wa_opnd_sub(d, h, 1), half(a, h), half(b, h));
        return wv_vreg(d, u);
    }
    default: {
        /* the amount is the low word (modulo 64, as the hardware reads it) */
        static const wa_opcode sop[3] = { WA_OP_S_LSHL_B64, WA_OP_S_LSHR_B64, WA_OP_S_ASHR_I64 };
        static const wa_opcode vop[3] = { WA_OP_V_LSHLREV_B64, WA_OP_V_LSHRREV_B64,
                                          WA_OP_V_ASHRREV_I64 };
        unsigned k = (unsigned)(op - I64_SHL);
        wa_operand amt = b->kind == WV_CONST ? wa_opnd_imm((int64_t)(b->c & 63)) : half(b, 0);
        if (salu) {
            wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
            wa_operand ops[3] = { d, tr_src64(T, a), amt };
            tr_emit(T, sop[k], ops, 3, NULL);
            return wv_sreg(d);
        }
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
        tr_valu(T, vop[k], d, amt, src64(a), wa_opnd_none());
        return wv_vreg(d, u);
    }
    }
}

/* cmpi predicates: eq ne slt sle sgt sge ult ule ugt uge */
static const wa_opcode vcmp64[10] = {
    WA_OP_V_CMP_EQ_U64, WA_OP_V_CMP_NE_U64, WA_OP_V_CMP_LT_I64, WA_OP_V_CMP_LE_I64,
    WA_OP_V_CMP_GT_I64, WA_OP_V_CMP_GE_I64, WA_OP_V_CMP_LT_U64, WA_OP_V_CMP_LE_U64,
    WA_OP_V_CMP_GT_U64, WA_OP_V_CMP_GE_U64,
};
/* the SALU compares of the words: the low word unsigned with the predicate's
   strictness, the high word strict with its signedness */
static const wa_opcode scmp_lo[10] = {
    WA_OP_S_CMP_EQ_U32, WA_OP_S_CMP_LG_U32, WA_OP_S_CMP_LT_U32, WA_OP_S_CMP_LE_U32,
    WA_OP_S_CMP_GT_U32, WA_OP_S_CMP_GE_U32, WA_OP_S_CMP_LT_U32, WA_OP_S_CMP_LE_U32,
    WA_OP_S_CMP_GT_U32, WA_OP_S_CMP_GE_U32,
};
static const wa_opcode scmp_hi[10] = {
    WA_OP_S_CMP_EQ_U32, WA_OP_S_CMP_LG_U32, WA_OP_S_CMP_LT_I32, WA_OP_S_CMP_LT_I32,
    WA_OP_S_CMP_GT_I32, WA_OP_S_CMP_GT_I32, WA_OP_S_CMP_LT_U32, WA_OP_S_CMP_LT_U32,
    WA_OP_S_CMP_GT_U32, WA_OP_S_CMP_GT_U32,
};

static int cmp_fold(int pred, uint64_t a, uint64_t b)
{
    return tr_icmp_fold(pred, (int64_t)a, (int64_t)b, a, b);
}

wv tr_i64_cmp(tr *T, int pred, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return wv_const((uint64_t)cmp_fold(pred, a->c, b->c));
    if (scalar_elem(a) && scalar_elem(b)) {
        if (pred <= 1) {
            wa_operand ops[2] = { tr_src64(T, a), tr_src64(T, b) };
            tr_emit(T, pred ? WA_OP_S_CMP_LG_U64 : WA_OP_S_CMP_EQ_U64, ops, 2, NULL);
            return tr_sbool_of_scc(T);
        }
        /* high words equal: the low words decide, else the high words */
        tr_salu(T, scmp_lo[pred], wa_opnd_none(), half(a, 0), half(b, 0));
        wv lo = tr_sbool_of_scc(T);
        tr_salu(T, scmp_hi[pred], wa_opnd_none(), half(a, 1), half(b, 1));
        wv hi = tr_sbool_of_scc(T);
        tr_salu(T, WA_OP_S_CMP_EQ_U32, wa_opnd_none(), half(a, 1), half(b, 1));
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
        wa_operand ops[3] = { d, lo.r, hi.r };
        tr_emit(T, WA_OP_S_CSELECT_B32, ops, 3, NULL);
        wv r = wv_sreg(d);
        r.kind = WV_SBOOL;
        return r;
    }
    wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
    tr_valu(T, vcmp64[pred], d, src64(a), src64(b), wa_opnd_none());
    return wv_maskv(d, uniform || (a->uniform && b->uniform));
}

wv tr_i64_minmax(tr *T, const wv *a, const wv *b, int is_signed, int is_max, int uniform)
{
    int pred = is_signed ? (is_max ? 4 : 2) : (is_max ? 8 : 6);
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return cmp_fold(pred, a->c, b->c) ? *a : *b;
    wv c = tr_i64_cmp(T, pred, a, b, uniform);
    return tr_select(T, &c, a, b, TR_I64, uniform);
}

/* ---- f64 --------------------------------------------------------------------------------- */

static double dval(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof(d));
    return d;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

#define F64_QNAN 0x7FF8000000000000ull

/* The element in a VGPR pair. */
static wa_operand vpair_of(tr *T, const wv *e)
{
    if (e->kind == WV_VREG)
        return e->r;
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    for (unsigned h = 0; h < 2; h++) {
        wa_operand ops[2] = { wa_opnd_sub(d, h, 1), half(e, h) };
        tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
    }
    return d;
}

/* -e (sign bit flipped; exact). */
static wv fneg64(tr *T, const wv *e)
{
    if (e->kind == WV_CONST)
        return wv_const(e->c ^ (1ull << 63));
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    wa_operand lo[2] = { wa_opnd_sub(d, 0, 1), half(e, 0) };
    tr_emit(T, WA_OP_V_MOV_B32, lo, 2, NULL);
    tr_valu(T, WA_OP_V_XOR_B32, wa_opnd_sub(d, 1, 1),
            tr_to_sgpr(T, wa_opnd_imm((int64_t)(int32_t)0x80000000u)), half(e, 1), wa_opnd_none());
    return wv_vreg(d, e->uniform);
}

wv tr_f64_bin(tr *T, int which, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST) {
        double x = dval(a->c), y = dval(b->c);
        return wv_const(dbits(which == 0 ? x + y : which == 1 ? x - y : x * y));
    }
    wv nb;
    if (which == 1) {
        nb = fneg64(T, b);
        b = &nb;
    }
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    tr_valu(T, which == 2 ? WA_OP_V_MUL_F64 : WA_OP_V_ADD_F64, d, src64(a), src64(b),
            wa_opnd_none());
    return wv_vreg(d, uniform);
}

wv tr_f64_fma(tr *T, const wv *a, const wv *b, const wv *c, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST && c->kind == WV_CONST)
        return wv_const(dbits(fma(dval(a->c), dval(b->c), dval(c->c))));
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    tr_valu(T, WA_OP_V_FMA_F64, d, src64(a), src64(b), src64(c));
    return wv_vreg(d, uniform);
}

/* Per-word v_cndmask of two VGPR pairs: m ? t : f. */
static wa_operand sel64(tr *T, wa_operand m, wa_operand t, wa_operand f)
{
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    for (unsigned h = 0; h < 2; h++)
        tr_valu(T, WA_OP_V_CNDMASK_B32, wa_opnd_sub(d, h, 1), wa_opnd_sub(f, h, 1),
                wa_opnd_sub(t, h, 1), m);
    return d;
}

static wa_operand is_nan64(tr *T, wa_operand v)
{
    wa_operand m = tr_vreg(T, WA_REG_SGPR, 2);
    tr_valu(T, WA_OP_V_CMP_NEQ_F64, m, v, v, wa_opnd_none());
    return m;
}

wv tr_f64_minmax(tr *T, int kind, const wv *a, const wv *b, int uniform)
{
    int is_max = kind & 1;
    if (a->kind == WV_CONST && b->kind == WV_CONST) {
        double x = dval(a->c), y = dval(b->c);
        if (kind < 2 && (isnan(x) || isnan(y)))
            return wv_const(F64_QNAN);
        if (isnan(x))
            return *b;
        if (isnan(y))
            return *a;
        if (x == y) /* max: a & b of the bits (+0 wins), min: a | b (-0 wins) */
            return wv_const(is_max ? a->c & b->c : a->c | b->c);
        return (is_max ? x > y : x < y) ? *a : *b;
    }
    wa_operand va = vpair_of(T, a), vb = vpair_of(T, b);
    wa_operand r = tr_vreg(T, WA_REG_VGPR, 2);
    tr_valu(T, is_max ? WA_OP_V_MAX_F64 : WA_OP_V_MIN_F64, r, va, vb, wa_opnd_none());
    wa_operand an = is_nan64(T, va), bn = is_nan64(T, vb);
    if (kind >= 2) {
        /* a NaN operand gives the other one */
        wa_operand r1 = sel64(T, an, vb, r);
        return wv_vreg(sel64(T, bn, va, r1), uniform);
    }
    /* equal operands (+0 and -0 among them): and / or of the bits orders the zeros */
    wa_operand eq = tr_vreg(T, WA_REG_SGPR, 2), z = tr_vreg(T, WA_REG_VGPR, 2);
    tr_valu(T, WA_OP_V_CMP_EQ_F64, eq, va, vb, wa_opnd_none());
    for (unsigned h = 0; h < 2; h++)
        tr_valu(T, is_max ? WA_OP_V_AND_B32 : WA_OP_V_OR_B32, wa_opnd_sub(z, h, 1),
                wa_opnd_sub(va, h, 1), wa_opnd_sub(vb, h, 1), wa_opnd_none());
    wa_operand r1 = sel64(T, eq, z, r);
    /* NaN in either: NaN */
    wa_operand any = tr_vreg(T, WA_REG_SGPR, 2);
    wa_operand o[3] = { any, an, bn };
    tr_emit(T, WA_OP_S_OR_B64, o, 3, NULL);
    wv q = wv_const(F64_QNAN);
    return wv_vreg(sel64(T, any, vpair_of(T, &q), r1), uniform);
}

/* cmpf: false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true, each
   one instruction (the unordered forms are the negated ordered conditions). */
static const wa_opcode fcmp64[16] = {
    WA_OP_V_CMP_F_F64,   WA_OP_V_CMP_EQ_F64,  WA_OP_V_CMP_GT_F64,  WA_OP_V_CMP_GE_F64,
    WA_OP_V_CMP_LT_F64,  WA_OP_V_CMP_LE_F64,  WA_OP_V_CMP_LG_F64,  WA_OP_V_CMP_O_F64,
    WA_OP_V_CMP_NLG_F64, WA_OP_V_CMP_NLE_F64, WA_OP_V_CMP_NLT_F64, WA_OP_V_CMP_NGE_F64,
    WA_OP_V_CMP_NGT_F64, WA_OP_V_CMP_NEQ_F64, WA_OP_V_CMP_U_F64,   WA_OP_V_CMP_TRU_F64,
};

wv tr_f64_cmp(tr *T, int pred, const wv *a, const wv *b, int uniform)
{
    if (pred == 0 || pred == 15)
        return wv_const(pred == 15);
    wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
    tr_valu(T, fcmp64[pred], d, src64(a), src64(b), wa_opnd_none());
    return wv_maskv(d, uniform);
}

wv tr_f64_from_f32(tr *T, wa_operand f32, int uniform)
{
    if (f32.kind == WA_OPND_IMM) {
        uint32_t u = (uint32_t)f32.imm.i;
        float f;
        memcpy(&f, &u, sizeof(f));
        return wv_const(dbits((double)f));
    }
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    tr_valu(T, WA_OP_V_CVT_F64_F32, d, f32, wa_opnd_none(), wa_opnd_none());
    return wv_vreg(d, uniform);
}

wa_operand tr_f32_of_f64(tr *T, const wv *e)
{
    if (e->kind == WV_CONST) {
        float f = (float)dval(e->c);
        uint32_t u;
        memcpy(&u, &f, sizeof(u));
        return wa_opnd_imm((int64_t)(int32_t)u);
    }
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_CVT_F32_F64, d, e->r, wa_opnd_none(), wa_opnd_none());
    return d;
}

wv tr_f64_from_int(tr *T, wa_operand i32, int is_signed, int uniform)
{
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
    tr_valu(T, is_signed ? WA_OP_V_CVT_F64_I32 : WA_OP_V_CVT_F64_U32, d, i32, wa_opnd_none(),
            wa_opnd_none());
    return wv_vreg(d, uniform);
}

wv tr_f64_to_int(tr *T, const wv *e, int is_signed, int uniform)
{
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, is_signed ? WA_OP_V_CVT_I32_F64 : WA_OP_V_CVT_U32_F64, d, e->r, wa_opnd_none(),
            wa_opnd_none());
    return wv_vreg(d, uniform);
}
