/* lib/mlir/lower_arith.c — arith: constants, integer and float arithmetic,
   comparisons, select, casts. i64 and f64 arithmetic is in arith64.c; the
   other integers are computed in 32 bits (index too): narrower ones sit in the
   low bits of a register and are extended where
   the upper bits matter. Uniform integers use SALU, per-lane ones VALU; floats
   always use VALU (f16, bf16 and fp8 through f32, exact for add, sub, mul, div,
   fma and sqrt of f16/bf16 because f32 has more than twice their precision).
   Constants fold; integer constants added to a register stay pending so that
   addresses fold them into instruction offsets. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- integer helpers -------------------------------------------------------------- */

static int is_vec_reg(const wv *e)
{
    return e->kind == WV_VREG || e->kind == WV_MASK;
}

static int uses_salu(const wv *a, const wv *b)
{
    return !is_vec_reg(a) && (!b || !is_vec_reg(b));
}

/* Register value with its sub-dword shift folded (pending add kept). */
static wv raw(tr *T, const wv *e)
{
    if (e->kind == WV_CONST || !e->shift)
        return *e;
    wv t = *e;
    t.add = 0;
    wv r = tr_settle(T, &t);
    r.add = e->add;
    return r;
}

static int64_t sat_add(int64_t a, int64_t b, int *ovf)
{
    if ((b > 0 && a > INT64_MAX / 4 - b) || (b < 0 && a < INT64_MIN / 4 - b))
        *ovf = 1;
    return a + b;
}

static void range_fix32(wv *r)
{
    if (r->has_range && (r->lo < INT32_MIN || r->hi > INT32_MAX))
        r->has_range = 0;
}

static unsigned min_u(unsigned a, unsigned b)
{
    return a < b ? a : b;
}

static unsigned ctz32(uint32_t v)
{
    if (!v)
        return 31;
    unsigned n = 0;
    while (!(v >> n & 1))
        n++;
    return n;
}

static wv vres(tr *T, int salu, int uniform)
{
    if (salu)
        return wv_sreg(tr_vreg(T, WA_REG_SGPR, 1));
    return wv_vreg(tr_vreg(T, WA_REG_VGPR, 1), uniform);
}

wv tr_iadd(tr *T, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return wv_const_int(TR_I32, (int64_t)(uint32_t)(a->c + b->c));
    if (a->kind == WV_CONST) {
        const wv *t = a;
        a = b;
        b = t;
    }
    int ovf = 0;
    if (b->kind == WV_CONST) {
        wv r = raw(T, a);
        int64_t c = (int64_t)(int32_t)(uint32_t)b->c;
        r.add = (int64_t)(int32_t)(uint32_t)(r.add + c);
        if (r.has_range) {
            r.lo = sat_add(r.lo, c, &ovf);
            r.hi = sat_add(r.hi, c, &ovf);
            if (ovf)
                r.has_range = 0;
            range_fix32(&r);
        }
        r.align_log2 = (uint8_t)min_u(a->align_log2, ctz32((uint32_t)c));
        return r;
    }
    wv x = raw(T, a), y = raw(T, b);
    int salu = uses_salu(&x, &y);
    wv r = vres(T, salu, uniform || (x.uniform && y.uniform));
    wa_operand xs = x.r, ys = y.r;
    if (x.kind == WV_SBOOL || x.kind == WV_MASK)
        xs = tr_src(T, &x);
    if (y.kind == WV_SBOOL || y.kind == WV_MASK)
        ys = tr_src(T, &y);
    if (salu)
        tr_salu(T, WA_OP_S_ADD_U32, r.r, xs, ys);
    else
        tr_valu_c(T, WA_OP_V_ADD_U32, r.r, xs, ys);
    r.add = (int64_t)(int32_t)(uint32_t)(x.add + y.add);
    if (a->has_range && b->has_range) {
        r.lo = sat_add(a->lo, b->lo, &ovf);
        r.hi = sat_add(a->hi, b->hi, &ovf);
        r.has_range = !ovf;
        range_fix32(&r);
    }
    r.align_log2 = (uint8_t)min_u(a->align_log2, b->align_log2);
    return r;
}

wv tr_isub(tr *T, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return wv_const_int(TR_I32, (int64_t)(uint32_t)(a->c - b->c));
    if (b->kind == WV_CONST) {
        wv nb = wv_const_int(TR_I32, (int64_t)(uint32_t)(0u - (uint32_t)b->c));
        return tr_iadd(T, a, &nb, uniform);
    }
    wv x = raw(T, a), y = raw(T, b);
    int salu = uses_salu(&x, &y);
    wv r = vres(T, salu, uniform || (x.uniform && y.uniform));
    wa_operand xs = x.kind == WV_CONST ? tr_src(T, &x) : x.r;
    if (x.kind == WV_CONST)
        x.add = 0;
    if (salu)
        tr_salu(T, WA_OP_S_SUB_U32, r.r, xs, y.r);
    else if (is_vec_reg(&y) || xs.kind != WA_OPND_VIRT)
        tr_valu(T, WA_OP_V_SUB_U32, r.r, xs, y.r, wa_opnd_none());
    else
        tr_valu(T, WA_OP_V_SUBREV_U32, r.r, y.r, xs, wa_opnd_none());
    r.add = (int64_t)(int32_t)(uint32_t)(x.add - y.add);
    if (a->has_range && b->has_range) {
        int ovf = 0;
        r.lo = sat_add(a->lo, -b->hi, &ovf);
        r.hi = sat_add(a->hi, -b->lo, &ovf);
        r.has_range = !ovf;
        range_fix32(&r);
    }
    r.align_log2 = (uint8_t)min_u(a->align_log2, b->align_log2);
    return r;
}

static int is_pow2(uint32_t c)
{
    return c && !(c & (c - 1));
}

static unsigned log2u(uint32_t c)
{
    unsigned k = 0;
    while ((1u << k) < c)
        k++;
    return k;
}

static void mul_range(wv *r, const wv *a, const wv *b)
{
    r->has_range = 0;
    if (!a->has_range || !b->has_range)
        return;
    if (a->lo < -(1ll << 31) || a->hi > (1ll << 32) || b->lo < -(1ll << 31) || b->hi > (1ll << 32))
        return;
    int64_t p[4] = { a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi };
    int64_t lo = p[0], hi = p[0];
    for (unsigned i = 1; i < 4; i++) {
        lo = p[i] < lo ? p[i] : lo;
        hi = p[i] > hi ? p[i] : hi;
    }
    r->has_range = 1;
    r->lo = lo;
    r->hi = hi;
    range_fix32(r);
}

wv tr_imul(tr *T, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return wv_const_int(TR_I32, (int64_t)(uint32_t)((uint32_t)a->c * (uint32_t)b->c));
    if (a->kind == WV_CONST) {
        const wv *t = a;
        a = b;
        b = t;
    }
    if (b->kind == WV_CONST) {
        uint32_t c = (uint32_t)b->c;
        if (c == 0)
            return wv_const_int(TR_I32, 0);
        if (c == 1)
            return *a;
        wv x = raw(T, a);
        int salu = uses_salu(&x, NULL);
        wv r = vres(T, salu, uniform || x.uniform);
        if (is_pow2(c)) {
            unsigned k = log2u(c);
            if (salu)
                tr_salu(T, WA_OP_S_LSHL_B32, r.r, x.r, wa_opnd_imm(k));
            else
                tr_valu(T, WA_OP_V_LSHLREV_B32, r.r, wa_opnd_imm(k), x.r, wa_opnd_none());
        } else {
            if (salu)
                tr_salu(T, WA_OP_S_MUL_I32, r.r, x.r, wa_opnd_imm((int64_t)(int32_t)c));
            else
                tr_valu(T, WA_OP_V_MUL_LO_U32, r.r, x.r, wa_opnd_imm((int64_t)(int32_t)c),
                        wa_opnd_none());
        }
        r.add = (int64_t)(int32_t)((uint32_t)x.add * c);
        mul_range(&r, a, b);
        r.align_log2 = (uint8_t)min_u(31, a->align_log2 + ctz32(c));
        return r;
    }
    wv x = tr_settle(T, a), y = tr_settle(T, b);
    int salu = uses_salu(&x, &y);
    wv r = vres(T, salu, uniform || (x.uniform && y.uniform));
    if (salu)
        tr_salu(T, WA_OP_S_MUL_I32, r.r, x.r, y.r);
    else
        tr_valu_c(T, WA_OP_V_MUL_LO_U32, r.r, tr_src(T, &x), tr_src(T, &y));
    mul_range(&r, a, b);
    r.align_log2 = (uint8_t)min_u(31, a->align_log2 + b->align_log2);
    return r;
}

wv tr_iand(tr *T, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return wv_const_int(TR_I32, (int64_t)(uint32_t)(a->c & b->c));
    if (a->kind == WV_CONST) {
        const wv *t = a;
        a = b;
        b = t;
    }
    if (b->kind == WV_CONST) {
        uint32_t c = (uint32_t)b->c;
        if (c == 0xFFFFFFFFu)
            return *a;
        if (c == 0)
            return wv_const_int(TR_I32, 0);
        /* a mask that keeps every bit the value can have */
        if (a->has_range && a->lo >= 0 && is_pow2(c + 1) && (uint64_t)a->hi <= c)
            return *a;
    }
    wv x = tr_settle(T, a);
    wa_operand ys = tr_src(T, b);
    int salu = uses_salu(&x, b);
    wv r = vres(T, salu, uniform || (x.uniform && b->uniform));
    if (salu)
        tr_salu(T, WA_OP_S_AND_B32, r.r, tr_src(T, &x), ys);
    else
        tr_valu_c(T, WA_OP_V_AND_B32, r.r, tr_src(T, &x), ys);
    if (b->kind == WV_CONST && is_pow2((uint32_t)b->c + 1)) {
        wv_set_range(&r, 0, (int64_t)(uint32_t)b->c);
    }
    if (b->kind == WV_CONST)
        r.align_log2 = (uint8_t)ctz32((uint32_t)b->c) > a->align_log2
                           ? (uint8_t)ctz32((uint32_t)b->c)
                           : a->align_log2;
    return r;
}

static wv ibitop(tr *T, wa_opcode vop, wa_opcode sop, const wv *a, const wv *b, int uniform)
{
    wv x = tr_settle(T, a), y = tr_settle(T, b);
    int salu = uses_salu(&x, &y);
    wv r = vres(T, salu, uniform || (x.uniform && y.uniform));
    if (salu)
        tr_salu(T, sop, r.r, tr_src(T, &x), tr_src(T, &y));
    else
        tr_valu_c(T, vop, r.r, tr_src(T, &x), tr_src(T, &y));
    return r;
}

wv tr_ixor(tr *T, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return wv_const_int(TR_I32, (int64_t)(uint32_t)(a->c ^ b->c));
    return ibitop(T, WA_OP_V_XOR_B32, WA_OP_S_XOR_B32, a, b, uniform);
}

wv tr_ishift(tr *T, int kind, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST) {
        uint32_t x = (uint32_t)a->c, s = (uint32_t)b->c & 31;
        uint32_t v = kind == 0 ? x << s : kind == 1 ? x >> s : (uint32_t)((int32_t)x >> s);
        return wv_const_int(TR_I32, (int64_t)v);
    }
    if (b->kind == WV_CONST && (b->c & 31) == 0)
        return *a;
    if (kind == 0 && b->kind == WV_CONST) {
        wv c = wv_const_int(TR_I32, (int64_t)(1u << (b->c & 31)));
        return tr_imul(T, a, &c, uniform);
    }
    wv x = tr_settle(T, a);
    int salu = uses_salu(&x, b);
    wv r = vres(T, salu, uniform || (x.uniform && b->uniform));
    static const wa_opcode vops[3] = { WA_OP_V_LSHLREV_B32, WA_OP_V_LSHRREV_B32,
                                       WA_OP_V_ASHRREV_I32 };
    static const wa_opcode sops[3] = { WA_OP_S_LSHL_B32, WA_OP_S_LSHR_B32, WA_OP_S_ASHR_I32 };
    wa_operand amount = tr_src(T, b);
    if (salu)
        tr_salu(T, sops[kind], r.r, tr_src(T, &x), amount);
    else
        tr_valu(T, vops[kind], r.r, amount, tr_src(T, &x), wa_opnd_none());
    if (b->kind == WV_CONST && kind == 1 && a->has_range && a->lo >= 0)
        wv_set_range(&r, a->lo >> (b->c & 31), a->hi >> (b->c & 31));
    if (b->kind == WV_CONST && kind == 1 && !(a->has_range && a->lo >= 0))
        wv_set_range(&r, 0, (int64_t)(0xFFFFFFFFu >> (b->c & 31)));
    return r;
}

/* cmpi predicates: eq ne slt sle sgt sge ult ule ugt uge */
static const wa_opcode vcmp_op[10] = {
    WA_OP_V_CMP_EQ_U32, WA_OP_V_CMP_NE_U32, WA_OP_V_CMP_LT_I32, WA_OP_V_CMP_LE_I32,
    WA_OP_V_CMP_GT_I32, WA_OP_V_CMP_GE_I32, WA_OP_V_CMP_LT_U32, WA_OP_V_CMP_LE_U32,
    WA_OP_V_CMP_GT_U32, WA_OP_V_CMP_GE_U32,
};
static const wa_opcode scmp_op[10] = {
    WA_OP_S_CMP_EQ_U32, WA_OP_S_CMP_LG_U32, WA_OP_S_CMP_LT_I32, WA_OP_S_CMP_LE_I32,
    WA_OP_S_CMP_GT_I32, WA_OP_S_CMP_GE_I32, WA_OP_S_CMP_LT_U32, WA_OP_S_CMP_LE_U32,
    WA_OP_S_CMP_GT_U32, WA_OP_S_CMP_GE_U32,
};
/* the predicate with its operands swapped */
static const int swap_pred[10] = { 0, 1, 4, 5, 2, 3, 8, 9, 6, 7 };

int tr_icmp_fold(int pred, int64_t sa, int64_t sb, uint64_t ua, uint64_t ub)
{
    switch (pred) {
    case 0: return ua == ub;
    case 1: return ua != ub;
    case 2: return sa < sb;
    case 3: return sa <= sb;
    case 4: return sa > sb;
    case 5: return sa >= sb;
    case 6: return ua < ub;
    case 7: return ua <= ub;
    case 8: return ua > ub;
    default: return ua >= ub;
    }
}

wv tr_not_mask(tr *T, const wv *e)
{
    if (e->kind == WV_CONST)
        return wv_const(e->c ^ 1);
    if (e->kind == WV_SBOOL || e->kind == WV_SREG) {
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
        tr_salu(T, WA_OP_S_XOR_B32, d, tr_src(T, e), wa_opnd_imm(1));
        wv r = wv_sreg(d);
        r.kind = WV_SBOOL;
        return r;
    }
    wa_operand m = tr_mask(T, e);
    wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
    wa_operand ops[3] = { d, wa_opnd_special(WA_SPECIAL_EXEC), m };
    tr_emit(T, WA_OP_S_ANDN2_B64, ops, 3, NULL);
    return wv_maskv(d, e->uniform);
}

wv tr_sbool_of_scc(tr *T)
{
    wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
    wa_operand ops[3] = { d, wa_opnd_imm(1), wa_opnd_imm(0) };
    tr_emit(T, WA_OP_S_CSELECT_B32, ops, 3, NULL);
    wv r = wv_sreg(d);
    r.kind = WV_SBOOL;
    return r;
}

/* i1 logic on booleans: op 0 and, 1 or, 2 xor */
static wv bool_logic(tr *T, int op, const wv *a, const wv *b)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST) {
        uint64_t x = a->c & 1, y = b->c & 1;
        return wv_const(op == 0 ? x & y : op == 1 ? x | y : x ^ y);
    }
    if (a->kind == WV_CONST) {
        const wv *t = a;
        a = b;
        b = t;
    }
    if (b->kind == WV_CONST) {
        int v = (int)(b->c & 1);
        if ((op == 0 && v) || (op != 0 && !v))
            return *a;
        if (op == 0)
            return wv_const(0);
        if (op == 1)
            return wv_const(1);
        return tr_not_mask(T, a);
    }
    int sb = (a->kind == WV_SBOOL || a->kind == WV_SREG) && (b->kind == WV_SBOOL || b->kind == WV_SREG);
    if (sb) {
        static const wa_opcode ops[3] = { WA_OP_S_AND_B32, WA_OP_S_OR_B32, WA_OP_S_XOR_B32 };
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
        tr_salu(T, ops[op], d, tr_src(T, a), tr_src(T, b));
        wv r = wv_sreg(d);
        r.kind = WV_SBOOL;
        return r;
    }
    wa_operand x = tr_mask(T, a), y = tr_mask(T, b);
    wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
    if (op == 2) {
        /* xor = (x | y) & ~(x & y) */
        wa_operand o = tr_vreg(T, WA_REG_SGPR, 2), n = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand a1[3] = { o, x, y }, a2[3] = { n, x, y }, a3[3] = { d, o, n };
        tr_emit(T, WA_OP_S_OR_B64, a1, 3, NULL);
        tr_emit(T, WA_OP_S_AND_B64, a2, 3, NULL);
        tr_emit(T, WA_OP_S_ANDN2_B64, a3, 3, NULL);
    } else {
        wa_operand ops[3] = { d, x, y };
        tr_emit(T, op == 0 ? WA_OP_S_AND_B64 : WA_OP_S_OR_B64, ops, 3, NULL);
    }
    return wv_maskv(d, a->uniform && b->uniform);
}

wv tr_icmp(tr *T, int pred, const wv *a, const wv *b, ety et, int uniform)
{
    if (et.bits == 1) {
        /* booleans: eq/ne are xor; orderings compare 0/1 (0/-1 signed) */
        if (pred == 0 || pred == 1) {
            wv x = bool_logic(T, 2, a, b);
            return pred == 1 ? x : tr_not_mask(T, &x);
        }
        int sg = pred >= 2 && pred <= 5;
        wv one = wv_const_int(TR_I32, sg ? -1 : 1), zero = wv_const_int(TR_I32, 0);
        wv ax = tr_select(T, a, &one, &zero, TR_I32, uniform);
        wv bx = tr_select(T, b, &one, &zero, TR_I32, uniform);
        return tr_icmp(T, pred, &ax, &bx, TR_I32, uniform);
    }
    int is_signed = pred >= 2 && pred <= 5;
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return wv_const((uint64_t)tr_icmp_fold(pred, wv_sext(a, et), wv_sext(b, et), wv_zext(a, et),
                                            wv_zext(b, et)));
    /* facts decide some comparisons of index values */
    if (et.bits == 32 && a->has_range && b->has_range && !a->add && !b->add) {
        int known = -1;
        if (pred == 2 || (pred == 6 && a->lo >= 0 && b->lo >= 0)) {
            if (a->hi < b->lo)
                known = 1;
            else if (a->lo >= b->hi)
                known = 0;
        }
        if (known >= 0)
            return wv_const((uint64_t)known);
    }
    wa_operand x, y;
    int need_ext = et.bits < 32 && et.bits > 1;
    if (need_ext) {
        x = tr_src_ext(T, a, et, is_signed);
        y = tr_src_ext(T, b, et, is_signed);
    } else {
        x = tr_src(T, a);
        y = tr_src(T, b);
    }
    int salu = uses_salu(a, b);
    if (salu) {
        wa_operand ops[2] = { x, y };
        if (x.kind == WA_OPND_IMM && y.kind == WA_OPND_IMM)
            ops[0] = tr_to_sgpr(T, x);
        tr_emit(T, scmp_op[pred], ops, 2, NULL);
        return tr_sbool_of_scc(T);
    }
    /* VALU compare into a lane mask: a VGPR second source keeps it legal */
    int p = pred;
    wa_operand s0 = x, s1 = y;
    if (!(s1.kind == WA_OPND_VIRT || s1.kind == WA_OPND_PHYS) || s1.reg_class != WA_REG_VGPR) {
        if ((s0.kind == WA_OPND_VIRT || s0.kind == WA_OPND_PHYS) && s0.reg_class == WA_REG_VGPR) {
            s0 = y;
            s1 = x;
            p = swap_pred[pred];
        }
    }
    wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
    tr_valu(T, vcmp_op[p], d, s0, s1, wa_opnd_none());
    return wv_maskv(d, uniform || (a->uniform && b->uniform));
}

wv tr_imin(tr *T, const wv *a, const wv *b, int is_signed, int is_max, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST) {
        int64_t sa = (int32_t)a->c, sb = (int32_t)b->c;
        uint32_t ua = (uint32_t)a->c, ub = (uint32_t)b->c;
        int take_a = is_signed ? (is_max ? sa >= sb : sa <= sb) : (is_max ? ua >= ub : ua <= ub);
        return take_a ? *a : *b;
    }
    if (a->has_range && b->has_range && !a->add && !b->add &&
        (is_signed || (a->lo >= 0 && b->lo >= 0))) {
        if (a->hi <= b->lo)
            return is_max ? *b : *a;
        if (b->hi <= a->lo)
            return is_max ? *a : *b;
    }
    wv x = tr_settle(T, a), y = tr_settle(T, b);
    int salu = uses_salu(&x, &y);
    wv r;
    /* one instruction either way (a compare and a select would cost a VCC
       write, and wait states before v_cndmask reads it) */
    static const wa_opcode sop[2][2] = { { WA_OP_S_MIN_U32, WA_OP_S_MAX_U32 },
                                         { WA_OP_S_MIN_I32, WA_OP_S_MAX_I32 } };
    static const wa_opcode vop[2][2] = { { WA_OP_V_MIN_U32, WA_OP_V_MAX_U32 },
                                         { WA_OP_V_MIN_I32, WA_OP_V_MAX_I32 } };
    r = vres(T, salu, uniform || (x.uniform && y.uniform));
    if (salu)
        tr_salu(T, sop[is_signed != 0][is_max != 0], r.r, tr_src(T, &x), tr_src(T, &y));
    else
        tr_valu_c(T, vop[is_signed != 0][is_max != 0], r.r, tr_src(T, &x), tr_src(T, &y));
    if (a->has_range && b->has_range) {
        r.has_range = 1;
        r.lo = is_max ? (a->lo > b->lo ? a->lo : b->lo) : (a->lo < b->lo ? a->lo : b->lo);
        r.hi = is_max ? (a->hi > b->hi ? a->hi : b->hi) : (a->hi < b->hi ? a->hi : b->hi);
    }
    r.align_log2 = (uint8_t)min_u(a->align_log2, b->align_log2);
    return r;
}

wv tr_select(tr *T, const wv *c, const wv *t, const wv *f, ety et, int uniform)
{
    if (c->kind == WV_CONST)
        return (c->c & 1) ? *t : *f;
    if (et.bits == 1) {
        /* (t & c) | (f & ~c) */
        wv nc = tr_not_mask(T, c);
        wv a = bool_logic(T, 0, t, c), b = bool_logic(T, 0, f, &nc);
        return bool_logic(T, 1, &a, &b);
    }
    unsigned dw = et.bits == 64 ? 2 : 1;
    int cs = c->kind == WV_SBOOL || c->kind == WV_SREG;
    if (cs && !is_vec_reg(t) && !is_vec_reg(f)) {
        wa_operand cond[2] = { tr_src(T, c), wa_opnd_imm(0) };
        wa_operand d = tr_vreg(T, WA_REG_SGPR, dw);
        if (dw == 1) {
            wa_operand ts = tr_src(T, t), fs = tr_src(T, f);
            tr_emit(T, WA_OP_S_CMP_LG_U32, cond, 2, NULL);
            wa_operand ops[3] = { d, ts, fs };
            tr_emit(T, WA_OP_S_CSELECT_B32, ops, 3, NULL);
        } else {
            wa_operand ts = tr_src64(T, t), fs = tr_src64(T, f);
            tr_emit(T, WA_OP_S_CMP_LG_U32, cond, 2, NULL);
            wa_operand ops[3] = { d, ts, fs };
            tr_emit(T, WA_OP_S_CSELECT_B64, ops, 3, NULL);
        }
        wv r = wv_sreg(d);
        if (t->has_range && f->has_range)
            wv_set_range(&r, t->lo < f->lo ? t->lo : f->lo, t->hi > f->hi ? t->hi : f->hi);
        return r;
    }
    wa_operand m = tr_mask(T, c);
    wa_operand d = tr_vreg(T, WA_REG_VGPR, dw);
    if (dw == 1) {
        wa_operand ts = tr_src(T, t), fs = tr_src(T, f);
        tr_valu(T, WA_OP_V_CNDMASK_B32, d, fs, ts, m);
    } else {
        for (unsigned h = 0; h < 2; h++) {
            wa_operand ts = t->kind == WV_CONST ? wa_opnd_imm((int64_t)(int32_t)(uint32_t)(t->c >> (32 * h)))
                                                : wa_opnd_sub(t->r, h, 1);
            wa_operand fs = f->kind == WV_CONST ? wa_opnd_imm((int64_t)(int32_t)(uint32_t)(f->c >> (32 * h)))
                                                : wa_opnd_sub(f->r, h, 1);
            tr_valu(T, WA_OP_V_CNDMASK_B32, wa_opnd_sub(d, h, 1), fs, ts, m);
        }
    }
    wv r = wv_vreg(d, uniform || (c->uniform && t->uniform && f->uniform));
    if (t->has_range && f->has_range)
        wv_set_range(&r, t->lo < f->lo ? t->lo : f->lo, t->hi > f->hi ? t->hi : f->hi);
    return r;
}

/* ---- float helpers ---------------------------------------------------------------------- */

static wa_operand fimm32(double d)
{
    return wa_opnd_imm((int64_t)(int32_t)(uint32_t)tr_float_bits(d, EF_F32));
}

/* fp8/fp6/fp4 element bits to f32: the bits below the sign moved into an f32's
   exponent and mantissa, scaled by 2^(127 - bias) (exact, subnormals too),
   the sign put back; NaN encodings fixed up. */
static wa_operand small_float_to_f32(tr *T, wa_operand x, ety et)
{
    unsigned ebits, mbits, bias, total = et.bits;
    switch (et.fkind) {
    case EF_F8E4M3FNUZ: ebits = 4, mbits = 3, bias = 8; break;
    case EF_F8E5M2FNUZ: ebits = 5, mbits = 2, bias = 16; break;
    case EF_F8E4M3FN: ebits = 4, mbits = 3, bias = 7; break;
    case EF_F8E5M2: ebits = 5, mbits = 2, bias = 15; break;
    case EF_F6E2M3: ebits = 2, mbits = 3, bias = 1; break;
    case EF_F6E3M2: ebits = 3, mbits = 2, bias = 3; break;
    case EF_F4E2M1: ebits = 2, mbits = 1, bias = 1; break;
    default: ebits = 0, mbits = 0, bias = 0; break;
    }
    if (et.fkind == EF_F8E8M0) {
        /* 2^(x - 127): the byte is the f32 exponent; 0xFF is NaN */
        wa_operand b = tr_vreg(T, WA_REG_VGPR, 1), r = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_AND_B32, b, wa_opnd_imm(0xFF), x, wa_opnd_none());
        tr_valu(T, WA_OP_V_LSHLREV_B32, r, wa_opnd_imm(23), b, wa_opnd_none());
        wa_operand isnan = tr_vreg(T, WA_REG_SGPR, 2), r2 = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_CMP_EQ_U32, isnan, wa_opnd_imm(0xFF), b, wa_opnd_none());
        tr_valu(T, WA_OP_V_CNDMASK_B32, r2, r, tr_to_vgpr(T, wa_opnd_imm(0x7FC00000)), isnan);
        /* x = 0 is 2^-127, an f32 denormal */
        wa_operand z = tr_vreg(T, WA_REG_SGPR, 2), r3 = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_CMP_EQ_U32, z, wa_opnd_imm(0), b, wa_opnd_none());
        tr_valu(T, WA_OP_V_CNDMASK_B32, r3, r2, tr_to_vgpr(T, wa_opnd_imm(0x00400000)), z);
        return r3;
    }
    unsigned body = ebits + mbits;
    wa_operand em = tr_vreg(T, WA_REG_VGPR, 1), sh = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_AND_B32, em, wa_opnd_imm((int64_t)((1u << body) - 1)), x, wa_opnd_none());
    tr_valu(T, WA_OP_V_LSHLREV_B32, sh, wa_opnd_imm(23 - mbits), em, wa_opnd_none());
    wa_operand mag = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_MUL_F32, mag, fimm32(ldexp(1.0, 127 - (int)bias)), sh, wa_opnd_none());
    /* sign */
    wa_operand s = tr_vreg(T, WA_REG_VGPR, 1), sg = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_LSHLREV_B32, s, wa_opnd_imm(32 - total), x, wa_opnd_none());
    tr_valu(T, WA_OP_V_AND_B32, sg, tr_to_sgpr(T, wa_opnd_imm((int64_t)(int32_t)0x80000000u)), s,
            wa_opnd_none());
    wa_operand r = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_OR_B32, r, mag, sg, wa_opnd_none());
    /* specials */
    int fnuz = et.fkind == EF_F8E4M3FNUZ || et.fkind == EF_F8E5M2FNUZ;
    int ocp_e4 = et.fkind == EF_F8E4M3FN;
    int ieee = et.fkind == EF_F8E5M2;
    if (fnuz || ocp_e4 || ieee) {
        wa_operand lowbits = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_AND_B32, lowbits, wa_opnd_imm(0xFF), x, wa_opnd_none());
        wa_operand isnan = tr_vreg(T, WA_REG_SGPR, 2);
        if (fnuz) {
            tr_valu(T, WA_OP_V_CMP_EQ_U32, isnan, tr_to_sgpr(T, wa_opnd_imm(0x80)), lowbits,
                    wa_opnd_none());
        } else if (ocp_e4) {
            tr_valu(T, WA_OP_V_CMP_EQ_U32, isnan, tr_to_sgpr(T, wa_opnd_imm(0x7F)), em,
                    wa_opnd_none());
        } else {
            /* e5m2: exponent all ones: inf (mantissa 0) or NaN */
            wa_operand isinf = tr_vreg(T, WA_REG_SGPR, 2);
            tr_valu(T, WA_OP_V_CMP_EQ_U32, isinf, tr_to_sgpr(T, wa_opnd_imm(0x7C)), em,
                    wa_opnd_none());
            wa_operand inf = tr_vreg(T, WA_REG_VGPR, 1), r2 = tr_vreg(T, WA_REG_VGPR, 1);
            tr_valu(T, WA_OP_V_OR_B32, inf, tr_to_sgpr(T, wa_opnd_imm(0x7F800000)), sg,
                    wa_opnd_none());
            tr_valu(T, WA_OP_V_CNDMASK_B32, r2, r, inf, isinf);
            r = r2;
            tr_valu(T, WA_OP_V_CMP_GT_U32, isnan, em, tr_to_sgpr(T, wa_opnd_imm(0x7C)),
                    wa_opnd_none());
        }
        wa_operand r3 = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_CNDMASK_B32, r3, r, tr_to_vgpr(T, wa_opnd_imm(0x7FC00000)), isnan);
        r = r3;
    }
    return r;
}

wa_operand tr_f32_of(tr *T, const wv *e, ety et)
{
    if (e->kind == WV_CONST) {
        double d = tr_float_value(e->c, (et_float)et.fkind);
        return fimm32(d);
    }
    switch (et.fkind) {
    case EF_F32: return tr_src(T, e);
    case EF_F16: {
        wa_operand s = tr_src(T, e);
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_CVT_F32_F16, d, s, wa_opnd_none(), wa_opnd_none());
        return d;
    }
    case EF_BF16: {
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
        if (e->kind != WV_CONST && e->shift == 16) {
            tr_valu(T, WA_OP_V_AND_B32, d, wa_opnd_imm((int64_t)(int32_t)0xFFFF0000u), e->r,
                    wa_opnd_none());
        } else {
            wa_operand s = tr_src(T, e);
            tr_valu(T, WA_OP_V_LSHLREV_B32, d, wa_opnd_imm(16), s, wa_opnd_none());
        }
        return d;
    }
    case EF_F64: {
        tr_error(T, T->cur_loc, WA_E_UNSUPPORTED, "f64 to f32 conversion is not supported");
        return wa_opnd_imm(0);
    }
    default: {
        wa_operand s = tr_src(T, e);
        if (!(s.kind == WA_OPND_VIRT || s.kind == WA_OPND_PHYS) || s.reg_class != WA_REG_VGPR)
            s = tr_to_vgpr(T, s);
        return small_float_to_f32(T, s, et);
    }
    }
}

/* f32 -> bf16 with round to nearest even (NaN stays a quiet NaN). */
static wa_operand f32_to_bf16(tr *T, wa_operand f)
{
    if (!((f.kind == WA_OPND_VIRT || f.kind == WA_OPND_PHYS) && f.reg_class == WA_REG_VGPR))
        f = tr_to_vgpr(T, f);
    if (T->target == WA_TARGET_GFX950) {
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_CVT_PK_BF16_F32, d, f, wa_opnd_imm(0), wa_opnd_none());
        return d;
    }
    wa_operand lsb = tr_vreg(T, WA_REG_VGPR, 1), sum = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_BFE_U32, lsb, f, wa_opnd_imm(16), wa_opnd_imm(1));
    tr_valu(T, WA_OP_V_ADD3_U32, sum, f, lsb, tr_to_sgpr(T, wa_opnd_imm(0x7FFF)));
    wa_operand hi = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_LSHRREV_B32, hi, wa_opnd_imm(16), sum, wa_opnd_none());
    wa_operand isnan = tr_vreg(T, WA_REG_SGPR, 2);
    tr_valu(T, WA_OP_V_CMP_NEQ_F32, isnan, f, f, wa_opnd_none());
    wa_operand qn = tr_vreg(T, WA_REG_VGPR, 1), d = tr_vreg(T, WA_REG_VGPR, 1);
    wa_operand fh = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_LSHRREV_B32, fh, wa_opnd_imm(16), f, wa_opnd_none());
    tr_valu(T, WA_OP_V_OR_B32, qn, tr_to_sgpr(T, wa_opnd_imm(0x40)), fh, wa_opnd_none());
    tr_valu(T, WA_OP_V_CNDMASK_B32, d, hi, qn, isnan);
    return d;
}

wv tr_f32_to(tr *T, wa_operand f, ety et, int uniform)
{
    switch (et.fkind) {
    case EF_F32:
        if (f.kind == WA_OPND_IMM)
            return wv_const((uint64_t)(uint32_t)f.imm.i);
        return wv_vreg(f, uniform);
    case EF_F16: {
        if (f.kind == WA_OPND_IMM) {
            double d = tr_float_value((uint64_t)(uint32_t)f.imm.i, EF_F32);
            return wv_const(tr_float_bits(d, EF_F16));
        }
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_CVT_F16_F32, d, f, wa_opnd_none(), wa_opnd_none());
        return wv_vreg(d, uniform);
    }
    case EF_BF16:
        if (f.kind == WA_OPND_IMM) {
            double d = tr_float_value((uint64_t)(uint32_t)f.imm.i, EF_F32);
            return wv_const(tr_float_bits(d, EF_BF16));
        }
        return wv_vreg(f32_to_bf16(T, f), uniform);
    default:
        if (f.kind == WA_OPND_IMM) {
            double d = tr_float_value((uint64_t)(uint32_t)f.imm.i, EF_F32);
            return wv_const(tr_float_bits(d, (et_float)et.fkind));
        }
        tr_error(T, T->cur_loc, WA_E_UNSUPPORTED,
                 "conversion of f32 to this small float format is not supported");
        return wv_const(0);
    }
}

static int is_vgpr_op(wa_operand o)
{
    return (o.kind == WA_OPND_VIRT || o.kind == WA_OPND_PHYS) && o.reg_class == WA_REG_VGPR;
}

/* IEEE f32 division: the scale / reciprocal / refine / fixup sequence (correctly
   rounded, denormals kept). */
static wa_operand fdiv_f32(tr *T, wa_operand a, wa_operand b)
{
    wa_operand vcc = wa_opnd_special(WA_SPECIAL_VCC);
    wa_operand va = is_vgpr_op(a) ? a : tr_to_vgpr(T, a);
    wa_operand vb = is_vgpr_op(b) ? b : tr_to_vgpr(T, b);
    wa_operand den = tr_vreg(T, WA_REG_VGPR, 1), num = tr_vreg(T, WA_REG_VGPR, 1);
    wa_operand dm = tr_vreg(T, WA_REG_SGPR, 2);
    wa_operand s1[5] = { den, dm, vb, vb, va };
    tr_emit(T, WA_OP_V_DIV_SCALE_F32, s1, 5, NULL);
    wa_operand s2[5] = { num, vcc, va, vb, va };
    tr_emit(T, WA_OP_V_DIV_SCALE_F32, s2, 5, NULL);
    wa_operand rcp = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_RCP_F32, rcp, den, wa_opnd_none(), wa_opnd_none());
    wa_operand nden = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_XOR_B32, nden, tr_to_sgpr(T, wa_opnd_imm((int64_t)(int32_t)0x80000000u)),
            den, wa_opnd_none());
    wa_operand f0 = tr_vreg(T, WA_REG_VGPR, 1), f1 = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_FMA_F32, f0, nden, rcp, wa_opnd_imm(0x3F800000));
    tr_valu(T, WA_OP_V_FMA_F32, f1, f0, rcp, rcp);
    wa_operand mul = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_MUL_F32, mul, num, f1, wa_opnd_none());
    wa_operand f2 = tr_vreg(T, WA_REG_VGPR, 1), f3 = tr_vreg(T, WA_REG_VGPR, 1),
               f4 = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_FMA_F32, f2, nden, mul, num);
    tr_valu(T, WA_OP_V_FMA_F32, f3, f2, f1, mul);
    tr_valu(T, WA_OP_V_FMA_F32, f4, nden, f3, num);
    wa_operand fm = tr_vreg(T, WA_REG_VGPR, 1);
    wa_operand s3[4] = { fm, f4, f1, f3 };
    tr_emit(T, WA_OP_V_DIV_FMAS_F32, s3, 4, NULL);
    wa_operand r = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_DIV_FIXUP_F32, r, fm, vb, va);
    return r;
}

static wa_operand fneg32(tr *T, wa_operand a)
{
    if (a.kind == WA_OPND_IMM)
        return wa_opnd_imm((int64_t)(int32_t)((uint32_t)a.imm.i ^ 0x80000000u));
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_XOR_B32, d, tr_to_sgpr(T, wa_opnd_imm((int64_t)(int32_t)0x80000000u)), a,
            wa_opnd_none());
    return d;
}

/* f32 min/max: op 0 minimumf, 1 maximumf (NaN propagating, -0 < +0), 2 minnumf,
   3 maxnumf (the non-NaN operand wins). */
static wa_operand fminmax(tr *T, int kind, wa_operand a, wa_operand b)
{
    int is_max = kind & 1;
    wa_operand r = tr_vreg(T, WA_REG_VGPR, 1);
    if (kind >= 2) {
        /* minNum: a NaN operand gives the other one */
        wa_operand an = tr_vreg(T, WA_REG_SGPR, 2), bn = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand va = is_vgpr_op(a) ? a : tr_to_vgpr(T, a), vb = is_vgpr_op(b) ? b : tr_to_vgpr(T, b);
        tr_valu_c(T, is_max ? WA_OP_V_MAX_F32 : WA_OP_V_MIN_F32, r, va, vb);
        tr_valu(T, WA_OP_V_CMP_NEQ_F32, an, va, va, wa_opnd_none());
        tr_valu(T, WA_OP_V_CMP_NEQ_F32, bn, vb, vb, wa_opnd_none());
        wa_operand r1 = tr_vreg(T, WA_REG_VGPR, 1), r2 = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_CNDMASK_B32, r1, r, vb, an);
        tr_valu(T, WA_OP_V_CNDMASK_B32, r2, r1, va, bn);
        return r2;
    }
    wa_operand va = is_vgpr_op(a) ? a : tr_to_vgpr(T, a), vb = is_vgpr_op(b) ? b : tr_to_vgpr(T, b);
    tr_valu_c(T, is_max ? WA_OP_V_MAX_F32 : WA_OP_V_MIN_F32, r, va, vb);
    /* equal operands (+0 and -0 among them): or / and of the bits orders the zeros */
    wa_operand eq = tr_vreg(T, WA_REG_SGPR, 2), z = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_CMP_EQ_F32, eq, va, vb, wa_opnd_none());
    tr_valu(T, is_max ? WA_OP_V_AND_B32 : WA_OP_V_OR_B32, z, va, vb, wa_opnd_none());
    wa_operand r1 = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_CNDMASK_B32, r1, r, z, eq);
    /* NaN in either: NaN */
    wa_operand un = tr_vreg(T, WA_REG_SGPR, 2), bn = tr_vreg(T, WA_REG_SGPR, 2),
               any = tr_vreg(T, WA_REG_SGPR, 2);
    tr_valu(T, WA_OP_V_CMP_NEQ_F32, un, va, va, wa_opnd_none());
    tr_valu(T, WA_OP_V_CMP_NEQ_F32, bn, vb, vb, wa_opnd_none());
    wa_operand o[3] = { any, un, bn };
    tr_emit(T, WA_OP_S_OR_B64, o, 3, NULL);
    wa_operand r2 = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_CNDMASK_B32, r2, r1, tr_to_vgpr(T, wa_opnd_imm(0x7FC00000)), any);
    return r2;
}

/* cmpf: false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true */
static wv fcmp(tr *T, int pred, wa_operand a, wa_operand b, int uniform)
{
    if (pred == 0)
        return wv_const(0);
    if (pred == 15)
        return wv_const(1);
    wa_opcode op;
    int negate = 0;
    switch (pred) {
    case 1: op = WA_OP_V_CMP_EQ_F32; break;
    case 2: op = WA_OP_V_CMP_GT_F32; break;
    case 3: op = WA_OP_V_CMP_GE_F32; break;
    case 4: op = WA_OP_V_CMP_LT_F32; break;
    case 5: op = WA_OP_V_CMP_LE_F32; break;
    case 6: op = WA_OP_V_CMP_LG_F32; break;
    case 8: op = WA_OP_V_CMP_LG_F32, negate = 1; break;  /* ueq = !one */
    case 9: op = WA_OP_V_CMP_LE_F32, negate = 1; break;  /* ugt = !ole */
    case 10: op = WA_OP_V_CMP_LT_F32, negate = 1; break; /* uge = !olt */
    case 11: op = WA_OP_V_CMP_GE_F32, negate = 1; break; /* ult = !oge */
    case 12: op = WA_OP_V_CMP_GT_F32, negate = 1; break; /* ule = !ogt */
    case 13: op = WA_OP_V_CMP_NEQ_F32; break;
    case 7: /* ord: a == a && b == b */
    case 14: { /* uno */
        wa_operand ma = tr_vreg(T, WA_REG_SGPR, 2), mb = tr_vreg(T, WA_REG_SGPR, 2),
                   d = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand va = is_vgpr_op(a) ? a : tr_to_vgpr(T, a), vb = is_vgpr_op(b) ? b : tr_to_vgpr(T, b);
        wa_opcode c = pred == 7 ? WA_OP_V_CMP_EQ_F32 : WA_OP_V_CMP_NEQ_F32;
        tr_valu(T, c, ma, va, va, wa_opnd_none());
        tr_valu(T, c, mb, vb, vb, wa_opnd_none());
        wa_operand o[3] = { d, ma, mb };
        tr_emit(T, pred == 7 ? WA_OP_S_AND_B64 : WA_OP_S_OR_B64, o, 3, NULL);
        return wv_maskv(d, uniform);
    }
    default: return wv_const(0);
    }
    wa_operand d = tr_vreg(T, WA_REG_SGPR, 2);
    if (!is_vgpr_op(b) && is_vgpr_op(a)) {
        /* keep a VGPR second source: swap with the mirrored predicate */
        static const struct { wa_opcode from, to; } mirror[] = {
            { WA_OP_V_CMP_GT_F32, WA_OP_V_CMP_LT_F32 }, { WA_OP_V_CMP_LT_F32, WA_OP_V_CMP_GT_F32 },
            { WA_OP_V_CMP_GE_F32, WA_OP_V_CMP_LE_F32 }, { WA_OP_V_CMP_LE_F32, WA_OP_V_CMP_GE_F32 },
        };
        for (unsigned i = 0; i < sizeof(mirror) / sizeof(mirror[0]); i++)
            if (mirror[i].from == op) {
                op = mirror[i].to;
                break;
            }
        wa_operand t = a;
        a = b;
        b = t;
    }
    tr_valu(T, op, d, a, b, wa_opnd_none());
    wv r = wv_maskv(d, uniform);
    return negate ? tr_not_mask(T, &r) : r;
}

/* ---- elementwise driver ---------------------------------------------------------------- */

typedef int (*elem_fn)(tr *T, MlirOperation op, wv *out, wv *const *in, ety ein, ety eout,
                       int uniform);

static int elementwise(tr *T, MlirOperation op, unsigned nin, elem_fn fn)
{
    wval *r = tr_result_val(T, op, 0);
    if (!r)
        return -1;
    wval *in[3];
    ety ein = r->et;
    for (unsigned k = 0; k < nin; k++) {
        in[k] = tr_val(T, tr_operand(op, k));
        if (!in[k])
            return -1;
        if (in[k]->kind != VK_SCALAR && in[k]->kind != VK_VECTOR)
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "operand %u is not a scalar or vector", k);
    }
    if (nin)
        ein = in[nin - 1]->et;
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    for (unsigned i = 0; i < r->n; i++) {
        wv *args[3];
        for (unsigned k = 0; k < nin; k++)
            args[k] = &in[k]->e[in[k]->n == 1 ? 0 : i];
        if (fn(T, op, &r->e[i], args, ein, r->et, uniform))
            return -1;
        if (T->failed)
            return -1;
    }
    return tr_set_val(T, tr_result(op, 0), r);
}

/* ---- integer ops ------------------------------------------------------------------------- */

static int check_int(tr *T, MlirOperation op, ety et)
{
    if (et.kind != ET_INT)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "integer operation on a non-integer type");
    if (et.bits == 64) {
        /* only division and remainder get here */
        MlirStringRef n = tr_op_name(op);
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "'%.*s' on i64 is not supported: 64-bit integer division and "
                           "remainder are not implemented",
                           (int)n.length, n.data);
    }
    return 0;
}

static wv norm_const(wv r, ety et)
{
    if (r.kind == WV_CONST) {
        r.c &= tr_mask_bits(et.bits);
        wv_infer_const_facts(&r, et);
    }
    return r;
}

static int e_addi(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    if (ei.kind == ET_INT && ei.bits == 64) {
        *out = tr_i64_bin(T, I64_ADD, in[0], in[1], u);
        return 0;
    }
    if (check_int(T, op, ei))
        return -1;
    if (ei.bits == 1) {
        *out = bool_logic(T, 2, in[0], in[1]);
        return 0;
    }
    *out = norm_const(tr_iadd(T, in[0], in[1], u), ei);
    if (ei.bits < 32)
        out->has_range = 0;
    return 0;
}

static int e_subi(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    if (ei.kind == ET_INT && ei.bits == 64) {
        *out = tr_i64_bin(T, I64_SUB, in[0], in[1], u);
        return 0;
    }
    if (check_int(T, op, ei))
        return -1;
    if (ei.bits == 1) {
        *out = bool_logic(T, 2, in[0], in[1]);
        return 0;
    }
    *out = norm_const(tr_isub(T, in[0], in[1], u), ei);
    if (ei.bits < 32)
        out->has_range = 0;
    return 0;
}

static int e_muli(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    if (ei.kind == ET_INT && ei.bits == 64) {
        *out = tr_i64_bin(T, I64_MUL, in[0], in[1], u);
        return 0;
    }
    if (check_int(T, op, ei))
        return -1;
    if (ei.bits == 1) {
        *out = bool_logic(T, 0, in[0], in[1]);
        return 0;
    }
    *out = norm_const(tr_imul(T, in[0], in[1], u), ei);
    if (ei.bits < 32)
        out->has_range = 0;
    return 0;
}

static int e_bitop(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, int which, int u)
{
    if (ei.kind == ET_INT && ei.bits == 64) {
        *out = tr_i64_bin(T, (tr_i64op)(I64_AND + which), in[0], in[1], u);
        return 0;
    }
    if (check_int(T, op, ei))
        return -1;
    if (ei.bits == 1) {
        *out = bool_logic(T, which, in[0], in[1]);
        return 0;
    }
    const wv *a = in[0], *b = in[1];
    if (a->kind == WV_CONST && b->kind == WV_CONST) {
        uint64_t v = which == 0 ? a->c & b->c : which == 1 ? a->c | b->c : a->c ^ b->c;
        *out = wv_const_int(ei, (int64_t)v);
        return 0;
    }
    if (which == 0) {
        *out = tr_iand(T, a, b, u);
        return 0;
    }
    if (a->kind == WV_CONST) {
        const wv *t = a;
        a = b;
        b = t;
    }
    if (b->kind == WV_CONST && (b->c & tr_mask_bits(ei.bits)) == 0) {
        *out = *a;
        return 0;
    }
    /* or of values whose bits cannot overlap is an add (folds constants) */
    if (which == 1 && b->kind == WV_CONST && a->align_log2 < 32 &&
        (b->c & tr_mask_bits(ei.bits)) < (1ull << a->align_log2) && ei.bits == 32) {
        *out = tr_iadd(T, a, b, u);
        return 0;
    }
    *out = ibitop(T, which == 1 ? WA_OP_V_OR_B32 : WA_OP_V_XOR_B32,
                  which == 1 ? WA_OP_S_OR_B32 : WA_OP_S_XOR_B32, a, b, u);
    return 0;
}

static int e_andi(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    return e_bitop(T, op, out, in, ei, 0, u);
}
static int e_ori(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    return e_bitop(T, op, out, in, ei, 1, u);
}
static int e_xori(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    return e_bitop(T, op, out, in, ei, 2, u);
}

static int e_shift(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, int kind, int u)
{
    if (ei.kind == ET_INT && ei.bits == 64) {
        *out = tr_i64_bin(T, (tr_i64op)(I64_SHL + kind), in[0], in[1], u);
        return 0;
    }
    if (check_int(T, op, ei))
        return -1;
    const wv *a = in[0];
    wv ext;
    if (ei.bits < 32 && kind != 0) {
        if (a->kind == WV_CONST) {
            ext = wv_const_int(TR_I32, kind == 2 ? wv_sext(a, ei) : (int64_t)wv_zext(a, ei));
        } else {
            wa_operand r = tr_src_ext(T, a, ei, kind == 2);
            ext = r.reg_class == WA_REG_SGPR ? wv_sreg(r) : wv_vreg(r, a->uniform);
        }
        a = &ext;
    }
    *out = norm_const(tr_ishift(T, kind, a, in[1], u), ei);
    if (ei.bits < 32)
        out->has_range = 0;
    return 0;
}

static int e_shli(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    return e_shift(T, op, out, in, ei, 0, u);
}
static int e_shrui(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    return e_shift(T, op, out, in, ei, 1, u);
}
static int e_shrsi(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    return e_shift(T, op, out, in, ei, 2, u);
}

/* narrow integers extended to 32 bits for min/max/div */
static wv ext32(tr *T, const wv *a, ety et, int is_signed)
{
    if (et.bits >= 32)
        return *a;
    if (a->kind == WV_CONST)
        return wv_const_int(TR_I32, is_signed ? wv_sext(a, et) : (int64_t)wv_zext(a, et));
    wa_operand r = tr_src_ext(T, a, et, is_signed);
    wv e = r.reg_class == WA_REG_SGPR ? wv_sreg(r) : wv_vreg(r, a->uniform);
    if (is_signed)
        wv_set_range(&e, -(1ll << (et.bits - 1)), (1ll << (et.bits - 1)) - 1);
    else
        wv_set_range(&e, 0, (1ll << et.bits) - 1);
    return e;
}

static int e_minmax(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, int is_signed,
                    int is_max, int u)
{
    if (ei.kind == ET_INT && ei.bits == 64) {
        *out = tr_i64_minmax(T, in[0], in[1], is_signed, is_max, u);
        return 0;
    }
    if (check_int(T, op, ei))
        return -1;
    wv a = ext32(T, in[0], ei, is_signed), b = ext32(T, in[1], ei, is_signed);
    *out = norm_const(tr_imin(T, &a, &b, is_signed, is_max, u), ei);
    return 0;
}

#define MINMAX(name, s, m)                                                                    \
    static int e_##name(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u) \
    {                                                                                         \
        (void)eo;                                                                             \
        return e_minmax(T, op, out, in, ei, s, m, u);                                         \
    }
MINMAX(minsi, 1, 0)
MINMAX(maxsi, 1, 1)
MINMAX(minui, 0, 0)
MINMAX(maxui, 0, 1)

static int e_div(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, tr_divk k, int u)
{
    if (check_int(T, op, ei))
        return -1;
    int is_signed = k != TR_DIV_U && k != TR_REM_U;
    wv a = ext32(T, in[0], ei, is_signed), b = ext32(T, in[1], ei, is_signed);
    if (b.kind == WV_CONST && b.c == 0)
        return tr_error_op(T, op, WA_E_INVALID, "integer division by the constant zero");
    *out = norm_const(tr_divrem(T, k, &a, &b, u), ei);
    return 0;
}

#define DIVOP(name, kind)                                                                     \
    static int e_##name(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u) \
    {                                                                                         \
        (void)eo;                                                                             \
        return e_div(T, op, out, in, ei, kind, u);                                            \
    }
DIVOP(divui, TR_DIV_U)
DIVOP(remui, TR_REM_U)
DIVOP(divsi, TR_DIV_S)
DIVOP(remsi, TR_REM_S)
DIVOP(floordivsi, TR_DIV_FLOOR)
DIVOP(ceildivsi, TR_DIV_CEIL)

static int e_ceildivui(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    if (check_int(T, op, ei))
        return -1;
    /* (a + b - 1) / b without overflow: a == 0 ? 0 : (a - 1) / b + 1 */
    wv a = ext32(T, in[0], ei, 0), b = ext32(T, in[1], ei, 0);
    if (b.kind == WV_CONST && b.c == 0)
        return tr_error_op(T, op, WA_E_INVALID, "integer division by the constant zero");
    wv one = wv_const_int(TR_I32, 1), zero = wv_const_int(TR_I32, 0);
    wv am1 = tr_isub(T, &a, &one, u);
    wv q = tr_divrem(T, TR_DIV_U, &am1, &b, u);
    wv q1 = tr_iadd(T, &q, &one, u);
    wv isz = tr_icmp(T, 0, &a, &zero, TR_I32, u);
    *out = norm_const(tr_select(T, &isz, &zero, &q1, TR_I32, u), ei);
    return 0;
}

static int e_cmpi(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    int64_t pred = tr_attr_int(op, "predicate", -1);
    if (pred < 0 || pred > 9)
        return tr_error_op(T, op, WA_E_INVALID, "bad cmpi predicate");
    if (ei.kind != ET_INT)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "cmpi on a non-integer type");
    if (ei.bits == 64) {
        *out = tr_i64_cmp(T, (int)pred, in[0], in[1], u);
        return 0;
    }
    *out = tr_icmp(T, (int)pred, in[0], in[1], ei, u);
    return 0;
}

static int e_select(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)op;
    (void)ei;
    *out = tr_select(T, in[0], in[1], in[2], eo, u);
    return 0;
}

/* ---- float ops --------------------------------------------------------------------------- */

static int check_float(tr *T, MlirOperation op, ety et)
{
    if (et.kind != ET_FLOAT)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "float operation on a non-float type");
    if (et.fkind == EF_F64) {
        MlirStringRef n = tr_op_name(op);
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "'%.*s' on f64 is not supported",
                           (int)n.length, n.data);
    }
    return 0;
}

static double cval(const wv *e, ety et)
{
    return tr_float_value(e->c, (et_float)et.fkind);
}

static int both_const(wv *const *in, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        if (in[k]->kind != WV_CONST)
            return 0;
    return 1;
}

/* Result of an f32 computation folded at compile time, rounded through f32 then
   to the element type (what the hardware sequence does). */
static wv fold_f(double v, ety et)
{
    float f = (float)v;
    return wv_const(tr_float_bits((double)f, (et_float)et.fkind));
}

static int fbin(tr *T, MlirOperation op, wv *out, wv *const *in, ety et, int which, int u)
{
    if (et.kind == ET_FLOAT && et.fkind == EF_F64 && which < 3) {
        *out = tr_f64_bin(T, which, in[0], in[1], u);
        return 0;
    }
    if (check_float(T, op, et))
        return -1;
    if (both_const(in, 2)) {
        float a = (float)cval(in[0], et), b = (float)cval(in[1], et);
        double r = which == 0 ? (double)(a + b) : which == 1 ? (double)(a - b)
                   : which == 2 ? (double)(a * b) : (double)(a / b);
        *out = fold_f(r, et);
        return 0;
    }
    wa_operand a = tr_f32_of(T, in[0], et), b = tr_f32_of(T, in[1], et);
    wa_operand d;
    switch (which) {
    case 0:
        d = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu_c(T, WA_OP_V_ADD_F32, d, a, b);
        break;
    case 1:
        d = tr_vreg(T, WA_REG_VGPR, 1);
        if (!is_vgpr_op(b) && is_vgpr_op(a)) {
            /* a - b = a + (-b) (exact) keeps the VGPR second source */
            tr_valu_c(T, WA_OP_V_ADD_F32, d, fneg32(T, b), a);
        } else {
            tr_valu(T, WA_OP_V_SUB_F32, d, a, b, wa_opnd_none());
        }
        break;
    case 2:
        d = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu_c(T, WA_OP_V_MUL_F32, d, a, b);
        break;
    default: d = fdiv_f32(T, a, b); break;
    }
    *out = tr_f32_to(T, d, et, u);
    return 0;
}

#define FBIN(name, w)                                                                         \
    static int e_##name(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u) \
    {                                                                                         \
        (void)ei;                                                                             \
        return fbin(T, op, out, in, eo, w, u);                                                \
    }
FBIN(addf, 0)
FBIN(subf, 1)
FBIN(mulf, 2)
FBIN(divf, 3)

static int e_negf(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)ei;
    if (eo.kind != ET_FLOAT)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "negf on a non-float type");
    uint64_t sign = 1ull << (eo.bits - 1);
    if (in[0]->kind == WV_CONST) {
        *out = wv_const(in[0]->c ^ sign);
        return 0;
    }
    if (eo.bits == 64) {
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
        wa_operand lo[2] = { wa_opnd_sub(d, 0, 1), wa_opnd_sub(in[0]->r, 0, 1) };
        tr_emit(T, WA_OP_V_MOV_B32, lo, 2, NULL);
        tr_valu(T, WA_OP_V_XOR_B32, wa_opnd_sub(d, 1, 1),
                tr_to_sgpr(T, wa_opnd_imm((int64_t)(int32_t)0x80000000u)),
                wa_opnd_sub(in[0]->r, 1, 1), wa_opnd_none());
        *out = wv_vreg(d, u);
        return 0;
    }
    wa_operand s = tr_src(T, in[0]);
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_XOR_B32, d, tr_to_sgpr(T, wa_opnd_imm((int64_t)(int32_t)(uint32_t)sign)), s,
            wa_opnd_none());
    *out = wv_vreg(d, u);
    return 0;
}

static int e_remf(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)ei;
    if (check_float(T, op, eo))
        return -1;
    if (both_const(in, 2)) {
        *out = fold_f(fmod((float)cval(in[0], eo), (float)cval(in[1], eo)), eo);
        return 0;
    }
    /* fmod(a, b) = a - trunc(a / b) * b, exact while |a / b| < 2^23: the quotient is
       truncated through a 32-bit integer of its magnitude */
    wa_operand a = tr_f32_of(T, in[0], eo), b = tr_f32_of(T, in[1], eo);
    wa_operand q = fdiv_f32(T, a, b);
    wa_operand mag = tr_vreg(T, WA_REG_VGPR, 1), iq = tr_vreg(T, WA_REG_VGPR, 1),
               fq = tr_vreg(T, WA_REG_VGPR, 1), sq = tr_vreg(T, WA_REG_VGPR, 1),
               tq = tr_vreg(T, WA_REG_VGPR, 1), sgn = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_AND_B32, mag, tr_to_sgpr(T, wa_opnd_imm(0x7FFFFFFF)), q, wa_opnd_none());
    tr_valu(T, WA_OP_V_CVT_U32_F32, iq, mag, wa_opnd_none(), wa_opnd_none());
    tr_valu(T, WA_OP_V_CVT_F32_U32, fq, iq, wa_opnd_none(), wa_opnd_none());
    tr_valu(T, WA_OP_V_AND_B32, sgn, tr_to_sgpr(T, wa_opnd_imm((int64_t)(int32_t)0x80000000u)), q,
            wa_opnd_none());
    tr_valu(T, WA_OP_V_OR_B32, sq, sgn, fq, wa_opnd_none());
    /* |q| >= 2^23 is already an integer (and may not fit the conversion) */
    wa_operand small = tr_vreg(T, WA_REG_SGPR, 2);
    tr_valu(T, WA_OP_V_CMP_GE_F32, small, tr_to_sgpr(T, wa_opnd_imm(0x4B000000)), mag,
            wa_opnd_none());
    tr_valu(T, WA_OP_V_CNDMASK_B32, tq, q, sq, small);
    wa_operand nb = fneg32(T, b);
    wa_operand r = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_FMA_F32, r, tq, is_vgpr_op(nb) ? nb : tr_to_vgpr(T, nb),
            is_vgpr_op(a) ? a : tr_to_vgpr(T, a));
    *out = tr_f32_to(T, r, eo, u);
    return 0;
}

static int fminmax_e(tr *T, MlirOperation op, wv *out, wv *const *in, ety et, int kind, int u)
{
    if (et.kind == ET_FLOAT && et.fkind == EF_F64) {
        *out = tr_f64_minmax(T, kind, in[0], in[1], u);
        return 0;
    }
    if (check_float(T, op, et))
        return -1;
    if (both_const(in, 2)) {
        double a = cval(in[0], et), b = cval(in[1], et), r;
        if (kind < 2 && (isnan(a) || isnan(b)))
            r = NAN;
        else if (kind >= 2 && isnan(a))
            r = b;
        else if (kind >= 2 && isnan(b))
            r = a;
        else if (a == b)
            r = (kind & 1) ? (signbit(a) ? b : a) : (signbit(a) ? a : b);
        else
            r = (kind & 1) ? (a > b ? a : b) : (a < b ? a : b);
        *out = fold_f(r, et);
        return 0;
    }
    wa_operand a = tr_f32_of(T, in[0], et), b = tr_f32_of(T, in[1], et);
    *out = tr_f32_to(T, fminmax(T, kind, a, b), et, u);
    return 0;
}

#define FMM(name, k)                                                                          \
    static int e_##name(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u) \
    {                                                                                         \
        (void)ei;                                                                             \
        return fminmax_e(T, op, out, in, eo, k, u);                                           \
    }
FMM(minimumf, 0)
FMM(maximumf, 1)
FMM(minnumf, 2)
FMM(maxnumf, 3)

static int e_cmpf(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)eo;
    int64_t pred = tr_attr_int(op, "predicate", -1);
    if (pred < 0 || pred > 15)
        return tr_error_op(T, op, WA_E_INVALID, "bad cmpf predicate");
    if ((ei.kind != ET_FLOAT || ei.fkind != EF_F64) && check_float(T, op, ei))
        return -1;
    if (both_const(in, 2)) {
        double a = cval(in[0], ei), b = cval(in[1], ei);
        int uno = isnan(a) || isnan(b), r;
        switch (pred) {
        case 0: r = 0; break;
        case 1: r = !uno && a == b; break;
        case 2: r = !uno && a > b; break;
        case 3: r = !uno && a >= b; break;
        case 4: r = !uno && a < b; break;
        case 5: r = !uno && a <= b; break;
        case 6: r = !uno && a != b; break;
        case 7: r = !uno; break;
        case 8: r = uno || a == b; break;
        case 9: r = uno || a > b; break;
        case 10: r = uno || a >= b; break;
        case 11: r = uno || a < b; break;
        case 12: r = uno || a <= b; break;
        case 13: r = uno || a != b; break;
        case 14: r = uno; break;
        default: r = 1; break;
        }
        *out = wv_const((uint64_t)r);
        return 0;
    }
    if (ei.fkind == EF_F64) {
        *out = tr_f64_cmp(T, (int)pred, in[0], in[1], u);
        return 0;
    }
    wa_operand a = tr_f32_of(T, in[0], ei), b = tr_f32_of(T, in[1], ei);
    *out = fcmp(T, (int)pred, a, b, u);
    return 0;
}

/* ---- casts --------------------------------------------------------------------------------- */

static int e_int_cast(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int sgn)
{
    const wv *a = in[0];
    if (eo.bits == 64 && ei.bits <= 32) {
        /* widen into a register pair */
        if (a->kind == WV_CONST) {
            int64_t v = sgn ? wv_sext(a, ei) : (int64_t)wv_zext(a, ei);
            *out = wv_const((uint64_t)v);
            return 0;
        }
        wa_operand lo = ei.bits == 1 ? tr_src(T, a) : tr_src_ext(T, a, ei, sgn);
        int v = !(a->kind == WV_SREG || a->kind == WV_SBOOL);
        wa_operand d = tr_vreg(T, v ? WA_REG_VGPR : WA_REG_SGPR, 2);
        if (v) {
            wa_operand m[2] = { wa_opnd_sub(d, 0, 1), lo };
            tr_emit(T, WA_OP_V_MOV_B32, m, 2, NULL);
            if (sgn)
                tr_valu(T, WA_OP_V_ASHRREV_I32, wa_opnd_sub(d, 1, 1), wa_opnd_imm(31), lo,
                        wa_opnd_none());
            else {
                wa_operand z[2] = { wa_opnd_sub(d, 1, 1), wa_opnd_imm(0) };
                tr_emit(T, WA_OP_V_MOV_B32, z, 2, NULL);
            }
            *out = wv_vreg(d, a->uniform);
        } else {
            wa_operand m[2] = { wa_opnd_sub(d, 0, 1), lo };
            tr_emit(T, WA_OP_S_MOV_B32, m, 2, NULL);
            if (sgn)
                tr_salu(T, WA_OP_S_ASHR_I32, wa_opnd_sub(d, 1, 1), lo, wa_opnd_imm(31));
            else {
                wa_operand z[2] = { wa_opnd_sub(d, 1, 1), wa_opnd_imm(0) };
                tr_emit(T, WA_OP_S_MOV_B32, z, 2, NULL);
            }
            *out = wv_sreg(d);
        }
        return 0;
    }
    if (ei.bits == 64 && eo.bits <= 32) {
        /* low word */
        if (a->kind == WV_CONST) {
            *out = wv_const_int(eo, (int64_t)a->c);
            return 0;
        }
        wv r = *a;
        r.r = wa_opnd_sub(a->r, 0, 1);
        r.has_range = 0;
        *out = r;
        return 0;
    }
    if (ei.bits == 64 && eo.bits == 64) {
        *out = *a;
        return 0;
    }
    if (eo.bits <= ei.bits) {
        /* truncation: the low bits are already the value */
        if (a->kind == WV_CONST) {
            *out = wv_const_int(eo, (int64_t)a->c);
        } else if (eo.bits == 1 && a->kind != WV_MASK && a->kind != WV_SBOOL) {
            /* i1 from the low bit */
            wv one = wv_const_int(TR_I32, 1);
            wv b = tr_iand(T, a, &one, a->uniform);
            wv z = wv_const_int(TR_I32, 0);
            *out = tr_icmp(T, 1, &b, &z, TR_I32, a->uniform);
        } else {
            *out = *a;
            if (eo.bits < ei.bits)
                out->has_range = 0;
        }
        return 0;
    }
    /* extension to at most 32 bits */
    if (a->kind == WV_CONST) {
        *out = wv_const_int(eo, sgn ? wv_sext(a, ei) : (int64_t)wv_zext(a, ei));
        return 0;
    }
    if (ei.bits == 1) {
        /* i1 -> 0/1 (or 0/-1 signed) */
        wv one = wv_const_int(TR_I32, sgn ? -1 : 1), zero = wv_const_int(TR_I32, 0);
        *out = tr_select(T, a, &one, &zero, TR_I32, a->uniform);
        return 0;
    }
    if (ei.bits == 32) {
        *out = *a;
        return 0;
    }
    *out = ext32(T, a, ei, sgn);
    (void)op;
    return 0;
}

static int e_extsi(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)u;
    return e_int_cast(T, op, out, in, ei, eo, 1);
}
static int e_extui(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)u;
    return e_int_cast(T, op, out, in, ei, eo, 0);
}

/* an integer or float conversion the front end does not do */
static int conv_error(tr *T, MlirOperation op, ety ei, ety eo)
{
    char b1[32], b2[32];
    MlirStringRef n = tr_op_name(op);
    return tr_error_op(T, op, WA_E_UNSUPPORTED, "'%.*s' from %s to %s is not supported",
                       (int)n.length, n.data, tr_ety_name(ei, b1, sizeof(b1)),
                       tr_ety_name(eo, b2, sizeof(b2)));
}

static int e_sitofp(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    if (ei.kind == ET_INT && ei.bits == 64)
        return conv_error(T, op, ei, eo);
    int to64 = eo.kind == ET_FLOAT && eo.fkind == EF_F64;
    if ((!to64 && check_float(T, op, eo)) || ei.kind != ET_INT)
        return T->failed ? -1 : tr_error_op(T, op, WA_E_UNSUPPORTED, "conversion not supported");
    int sgn = tr_name_is(op, "arith.sitofp");
    if (in[0]->kind == WV_CONST) {
        double v = sgn ? (double)wv_sext(in[0], ei) : (double)wv_zext(in[0], ei);
        /* a 32-bit integer is exact in f64 */
        *out = to64 ? wv_const(tr_float_bits(v, EF_F64)) : fold_f(v, eo);
        return 0;
    }
    wa_operand x;
    if (ei.bits == 1) {
        /* true is -1 as a signed i1, 1 unsigned */
        wv t = wv_const_int(TR_I32, sgn ? -1 : 1), f = wv_const_int(TR_I32, 0);
        wv xv = tr_select(T, in[0], &t, &f, TR_I32, u);
        x = tr_src(T, &xv);
    } else {
        x = tr_src_ext(T, in[0], ei, sgn);
    }
    if (to64) {
        *out = tr_f64_from_int(T, x, sgn, u);
        return 0;
    }
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, sgn ? WA_OP_V_CVT_F32_I32 : WA_OP_V_CVT_F32_U32, d, x, wa_opnd_none(),
            wa_opnd_none());
    *out = tr_f32_to(T, d, eo, u);
    return 0;
}

static int e_fptosi(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    if (eo.kind == ET_INT && eo.bits == 64)
        return conv_error(T, op, ei, eo);
    int from64 = ei.kind == ET_FLOAT && ei.fkind == EF_F64;
    if ((!from64 && check_float(T, op, ei)) || eo.kind != ET_INT)
        return T->failed ? -1 : tr_error_op(T, op, WA_E_UNSUPPORTED, "conversion not supported");
    int sgn = tr_name_is(op, "arith.fptosi");
    if (from64) {
        if (in[0]->kind == WV_CONST) {
            /* out of range is poison in MLIR; the hardware saturates, so does the fold */
            double v = trunc(cval(in[0], ei));
            if (isnan(v))
                v = 0;
            double lo = sgn ? -2147483648.0 : 0, hi = sgn ? 2147483647.0 : 4294967295.0;
            v = v < lo ? lo : v > hi ? hi : v;
            *out = wv_const_int(eo, sgn ? (int64_t)v : (int64_t)(uint32_t)v);
            return 0;
        }
        *out = tr_f64_to_int(T, in[0], sgn, u);
        return 0;
    }
    if (in[0]->kind == WV_CONST) {
        double v = trunc((double)(float)cval(in[0], ei));
        *out = wv_const_int(eo, sgn ? (int64_t)v : (int64_t)(uint64_t)(v < 0 ? 0 : v));
        return 0;
    }
    wa_operand f = tr_f32_of(T, in[0], ei);
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    if (!sgn) {
        tr_valu(T, WA_OP_V_CVT_U32_F32, d, f, wa_opnd_none(), wa_opnd_none());
    } else {
        /* toward zero through the magnitude: -u32(|x|) for negative x */
        wa_operand mag = tr_vreg(T, WA_REG_VGPR, 1), m = tr_vreg(T, WA_REG_VGPR, 1),
                   neg = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_AND_B32, mag, tr_to_sgpr(T, wa_opnd_imm(0x7FFFFFFF)), f, wa_opnd_none());
        tr_valu(T, WA_OP_V_CVT_U32_F32, m, mag, wa_opnd_none(), wa_opnd_none());
        tr_valu(T, WA_OP_V_SUB_U32, neg, wa_opnd_imm(0), m, wa_opnd_none());
        wa_operand isneg = tr_vreg(T, WA_REG_SGPR, 2);
        tr_valu(T, WA_OP_V_CMP_LT_I32, isneg, f, wa_opnd_imm(0), wa_opnd_none());
        tr_valu(T, WA_OP_V_CNDMASK_B32, d, m, neg, isneg);
    }
    *out = wv_vreg(d, u);
    return 0;
}

static int e_extf(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    if (ei.kind != ET_FLOAT || eo.kind != ET_FLOAT)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "this float conversion is not supported");
    /* f64 narrows only to f32: through f32 a narrower format would round twice */
    if (ei.fkind == EF_F64 && eo.fkind != EF_F32 && eo.fkind != EF_F64)
        return conv_error(T, op, ei, eo);
    if (in[0]->kind == WV_CONST) {
        *out = wv_const(tr_float_bits(cval(in[0], ei), (et_float)eo.fkind));
        return 0;
    }
    if (ei.fkind == EF_F64 && eo.fkind == EF_F64) {
        *out = *in[0];
        return 0;
    }
    if (ei.fkind == EF_F64) {
        *out = tr_f32_to(T, tr_f32_of_f64(T, in[0]), eo, u);
        return 0;
    }
    if (eo.fkind == EF_F64) {
        *out = tr_f64_from_f32(T, tr_f32_of(T, in[0], ei), u);
        return 0;
    }
    wa_operand f = tr_f32_of(T, in[0], ei);
    *out = tr_f32_to(T, f, eo, u);
    return 0;
}

static int e_bitcast(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)u;
    if (ei.bits != eo.bits)
        return tr_error_op(T, op, WA_E_INVALID, "bitcast between different widths");
    *out = *in[0];
    out->has_range = 0;
    if (out->kind == WV_CONST)
        wv_infer_const_facts(out, eo);
    else if (out->add && eo.kind != ET_INT)
        *out = tr_settle(T, in[0]);
    return 0;
}

static int e_index_cast(tr *T, MlirOperation op, wv *out, wv *const *in, ety ei, ety eo, int u)
{
    (void)u;
    return e_int_cast(T, op, out, in, ei, eo, tr_name_is(op, "arith.index_cast"));
}

/* ---- constant ------------------------------------------------------------------------------ */

static int lower_constant(tr *T, MlirOperation op)
{
    MlirValue res = tr_result(op, 0);
    MlirType t = mlirValueGetType(res);
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
    wval *w = tr_new_val_type(T, t);
    if (!w)
        return -1;
    if (mlirAttributeIsAElements(a)) {
        int64_t ne = mlirElementsAttrGetNumElements(a);
        if (ne != (int64_t)w->n)
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "constant of this shape");
        int splat = mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a);
        for (unsigned i = 0; i < w->n; i++) {
            MlirAttribute el;
            if (splat) {
                el = mlirDenseElementsAttrGetSplatValue(a);
            } else {
                uint64_t idx[TR_MAX_RANK];
                unsigned rem = i;
                for (int d = (int)w->rank - 1; d >= 0; d--) {
                    idx[d] = rem % (unsigned)w->shape[d];
                    rem /= (unsigned)w->shape[d];
                }
                el = mlirElementsAttrGetValue(a, (intptr_t)w->rank, idx);
            }
            uint64_t bits;
            if (tr_attr_bits(T, el, w->et, &bits))
                return tr_error_op(T, op, WA_E_UNSUPPORTED, "constant element of this kind");
            w->e[i] = wv_const(bits);
            wv_infer_const_facts(&w->e[i], w->et);
        }
    } else {
        uint64_t bits;
        if (mlirAttributeIsNull(a) || tr_attr_bits(T, a, w->et, &bits))
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "constant of this kind");
        for (unsigned i = 0; i < w->n; i++) {
            w->e[i] = wv_const(bits);
            wv_infer_const_facts(&w->e[i], w->et);
        }
    }
    return tr_set_val(T, res, w);
}

/* ---- dispatch -------------------------------------------------------------------------- */

#define EW(fn, n)                                                                              \
    static int l_##fn(tr *T, MlirOperation op) { return elementwise(T, op, n, e_##fn); }
EW(addi, 2)
EW(subi, 2)
EW(muli, 2)
EW(andi, 2)
EW(ori, 2)
EW(xori, 2)
EW(shli, 2)
EW(shrui, 2)
EW(shrsi, 2)
EW(minsi, 2)
EW(maxsi, 2)
EW(minui, 2)
EW(maxui, 2)
EW(divui, 2)
EW(remui, 2)
EW(divsi, 2)
EW(remsi, 2)
EW(floordivsi, 2)
EW(ceildivsi, 2)
EW(ceildivui, 2)
EW(cmpi, 2)
EW(cmpf, 2)
EW(select, 3)
EW(addf, 2)
EW(subf, 2)
EW(mulf, 2)
EW(divf, 2)
EW(remf, 2)
EW(negf, 1)
EW(minimumf, 2)
EW(maximumf, 2)
EW(minnumf, 2)
EW(maxnumf, 2)
EW(extsi, 1)
EW(extui, 1)
EW(sitofp, 1)
EW(fptosi, 1)
EW(extf, 1)
EW(bitcast, 1)
EW(index_cast, 1)

static int l_vector_bitcast_like(tr *T, MlirOperation op)
{
    /* arith.bitcast of vectors with a different element width: through the
       packed registers */
    wval *in = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!in || !r)
        return -1;
    if (in->et.bits == r->et.bits)
        return l_bitcast(T, op);
    wa_operand t = tr_pack(T, in, 0, in->n);
    tr_unpack(T, r->e, t, r->et, r->n, !tr_is_divergent(T, tr_result(op, 0)));
    return tr_set_val(T, tr_result(op, 0), r);
}

const tr_op_entry tr_arith_ops[] = {
    { "arith.constant", lower_constant },
    { "arith.addi", l_addi },
    { "arith.subi", l_subi },
    { "arith.muli", l_muli },
    { "arith.andi", l_andi },
    { "arith.ori", l_ori },
    { "arith.xori", l_xori },
    { "arith.shli", l_shli },
    { "arith.shrui", l_shrui },
    { "arith.shrsi", l_shrsi },
    { "arith.minsi", l_minsi },
    { "arith.maxsi", l_maxsi },
    { "arith.minui", l_minui },
    { "arith.maxui", l_maxui },
    { "arith.divui", l_divui },
    { "arith.remui", l_remui },
    { "arith.divsi", l_divsi },
    { "arith.remsi", l_remsi },
    { "arith.floordivsi", l_floordivsi },
    { "arith.ceildivsi", l_ceildivsi },
    { "arith.ceildivui", l_ceildivui },
    { "arith.cmpi", l_cmpi },
    { "arith.cmpf", l_cmpf },
    { "arith.select", l_select },
    { "arith.addf", l_addf },
    { "arith.subf", l_subf },
    { "arith.mulf", l_mulf },
    { "arith.divf", l_divf },
    { "arith.remf", l_remf },
    { "arith.negf", l_negf },
    { "arith.minimumf", l_minimumf },
    { "arith.maximumf", l_maximumf },
    { "arith.minnumf", l_minnumf },
    { "arith.maxnumf", l_maxnumf },
    { "arith.extsi", l_extsi },
    { "arith.extui", l_extui },
    { "arith.trunci", l_extsi },
    { "arith.sitofp", l_sitofp },
    { "arith.uitofp", l_sitofp },
    { "arith.fptosi", l_fptosi },
    { "arith.fptoui", l_fptosi },
    { "arith.extf", l_extf },
    { "arith.truncf", l_extf },
    { "arith.bitcast", l_vector_bitcast_like },
    { "arith.index_cast", l_index_cast },
    { "arith.index_castui", l_index_cast },
    { NULL, NULL },
};
