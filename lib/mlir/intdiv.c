/* lib/mlir/intdiv.c — 32-bit integer division and remainder.

   By a constant: powers of two become shifts and masks (with the rounding
   corrections signed division needs), other divisors a multiply-high by a
   "magic" reciprocal (Granlund and Montgomery, "Division by invariant integers
   using multiplication", 1994; the algorithms of Warren's Hacker's Delight,
   chapter 10). Floor and ceiling division and the floor modulus adjust the
   truncating quotient by the remainder's sign. By a variable: the unsigned
   quotient from a float reciprocal refined by one Newton step and two
   correction steps (exact for all 32-bit operands), signed through magnitudes.
   Known value ranges pick the unsigned forms for non-negative operands and fold
   quotients of values smaller than the divisor. */
#include "internal.h"

#include <string.h>

/* ---- magic numbers -------------------------------------------------------------------- */

void tr_udiv_magic_compute(uint32_t d, tr_udiv_magic *mg)
{
    /* d >= 2, not a power of two (Hacker's Delight, magicu) */
    uint32_t nc = (uint32_t)-1 - (uint32_t)(-d) % d;
    unsigned p = 31;
    uint32_t q1 = 0x80000000u / nc, r1 = 0x80000000u - q1 * nc;
    uint32_t q2 = 0x7FFFFFFFu / d, r2 = 0x7FFFFFFFu - q2 * d;
    uint32_t delta;
    int add = 0;
    do {
        p++;
        if (r1 >= nc - r1) {
            q1 = 2 * q1 + 1;
            r1 = 2 * r1 - nc;
        } else {
            q1 = 2 * q1;
            r1 = 2 * r1;
        }
        if (r2 + 1 >= d - r2) {
            if (q2 >= 0x7FFFFFFFu)
                add = 1;
            q2 = 2 * q2 + 1;
            r2 = 2 * r2 + 1 - d;
        } else {
            if (q2 >= 0x80000000u)
                add = 1;
            q2 = 2 * q2;
            r2 = 2 * r2 + 1;
        }
        delta = d - 1 - r2;
    } while (p < 64 && (q1 < delta || (q1 == delta && r1 == 0)));
    mg->m = q2 + 1;
    mg->shift = p - 32;
    mg->add = add;
    mg->pre = 0;
}

void tr_sdiv_magic_compute(int32_t d, tr_sdiv_magic *mg)
{
    /* |d| >= 2 (Hacker's Delight, magic) */
    const uint32_t two31 = 0x80000000u;
    uint32_t ad = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;
    uint32_t t = two31 + ((uint32_t)d >> 31);
    uint32_t anc = t - 1 - t % ad;
    unsigned p = 31;
    uint32_t q1 = two31 / anc, r1 = two31 - q1 * anc;
    uint32_t q2 = two31 / ad, r2 = two31 - q2 * ad;
    uint32_t delta;
    do {
        p++;
        q1 = 2 * q1;
        r1 = 2 * r1;
        if (r1 >= anc) {
            q1++;
            r1 -= anc;
        }
        q2 = 2 * q2;
        r2 = 2 * r2;
        if (r2 >= ad) {
            q2++;
            r2 -= ad;
        }
        delta = ad - r2;
    } while (q1 < delta || (q1 == delta && r1 == 0));
    uint32_t m = q2 + 1;
    if (d < 0)
        m = 0u - m;
    mg->m = (int32_t)m;
    mg->shift = p - 32;
}

static uint32_t mulhu(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a * b) >> 32);
}

uint32_t tr_udiv_magic_eval(uint32_t x, uint32_t d, const tr_udiv_magic *mg)
{
    (void)d;
    uint32_t t = mulhu(x, mg->m);
    if (!mg->add)
        return t >> mg->shift;
    return (((x - t) >> 1) + t) >> (mg->shift - 1);
}

int32_t tr_sdiv_magic_eval(int32_t x, int32_t d, const tr_sdiv_magic *mg)
{
    /* signed multiply-high through the unsigned one, as the code does */
    uint32_t ux = (uint32_t)x, um = (uint32_t)mg->m;
    uint32_t h = mulhu(ux, um);
    if (mg->m < 0)
        h -= ux;
    if (x < 0)
        h -= um;
    int32_t q = (int32_t)h;
    if (d > 0 && mg->m < 0)
        q = (int32_t)((uint32_t)q + ux);
    if (d < 0 && mg->m > 0)
        q = (int32_t)((uint32_t)q - ux);
    q >>= mg->shift;
    q = (int32_t)((uint32_t)q + ((uint32_t)q >> 31));
    return q;
}

/* ---- emission helpers ------------------------------------------------------------------- */

static wv cint(int64_t v)
{
    return wv_const_int(TR_I32, (int64_t)(uint32_t)v);
}

static int is_vec(const wv *e)
{
    return e->kind == WV_VREG || e->kind == WV_MASK;
}

static wv mulhu_e(tr *T, const wv *a, const wv *b, int uniform)
{
    if (a->kind == WV_CONST && b->kind == WV_CONST)
        return cint(mulhu((uint32_t)a->c, (uint32_t)b->c));
    wa_operand x = tr_src(T, a), y = tr_src(T, b);
    if (!is_vec(a) && !is_vec(b)) {
        wa_operand d = tr_vreg(T, WA_REG_SGPR, 1);
        tr_salu(T, WA_OP_S_MUL_HI_U32, d, x, y);
        return wv_sreg(d);
    }
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu_c(T, WA_OP_V_MUL_HI_U32, d, x, y);
    return wv_vreg(d, uniform || (a->uniform && b->uniform));
}

static wv neg_e(tr *T, const wv *a, int u)
{
    wv z = cint(0);
    return tr_isub(T, &z, a, u);
}

static wv sra31(tr *T, const wv *a, int u)
{
    wv s = cint(31);
    return tr_ishift(T, 2, a, &s, u);
}

/* x / d for constant d >= 2 (not a power of two), unsigned */
static wv udiv_const(tr *T, const wv *x, uint32_t d, int u)
{
    tr_udiv_magic mg;
    tr_udiv_magic_compute(d, &mg);
    wv m = cint(mg.m);
    wv xs = tr_settle(T, x);
    wv t = mulhu_e(T, &xs, &m, u);
    if (!mg.add) {
        wv s = cint(mg.shift);
        return tr_ishift(T, 1, &t, &s, u);
    }
    wv one = cint(1), s1 = cint(mg.shift - 1);
    wv diff = tr_isub(T, &xs, &t, u);
    diff = tr_settle(T, &diff);
    wv half = tr_ishift(T, 1, &diff, &one, u);
    wv sum = tr_iadd(T, &half, &t, u);
    sum = tr_settle(T, &sum);
    return tr_ishift(T, 1, &sum, &s1, u);
}

/* x / d for constant |d| >= 2 (not a power of two), signed truncating */
static wv sdiv_const(tr *T, const wv *x, int32_t d, int u)
{
    tr_sdiv_magic mg;
    tr_sdiv_magic_compute(d, &mg);
    wv xs = tr_settle(T, x);
    wv m = cint((uint32_t)mg.m);
    wv h = mulhu_e(T, &xs, &m, u);
    if (mg.m < 0)
        h = tr_isub(T, &h, &xs, u);
    /* (x < 0 ? m : 0) */
    wv sx = sra31(T, &xs, u);
    wv corr = tr_iand(T, &sx, &m, u);
    h = tr_isub(T, &h, &corr, u);
    if (d > 0 && mg.m < 0)
        h = tr_iadd(T, &h, &xs, u);
    if (d < 0 && mg.m > 0)
        h = tr_isub(T, &h, &xs, u);
    h = tr_settle(T, &h);
    wv s = cint(mg.shift);
    wv q = tr_ishift(T, 2, &h, &s, u);
    wv s31 = cint(31);
    wv sign = tr_ishift(T, 1, &q, &s31, u);
    return tr_iadd(T, &q, &sign, u);
}

/* unsigned a / b, a % b for a variable b (VALU) */
static void udiv_var(tr *T, const wv *a, const wv *b, int u, wv *q_out, wv *r_out)
{
    wa_operand y = tr_vsrc(T, b);
    wa_operand fy = tr_vreg(T, WA_REG_VGPR, 1), ry = tr_vreg(T, WA_REG_VGPR, 1),
               sy = tr_vreg(T, WA_REG_VGPR, 1), z0 = tr_vreg(T, WA_REG_VGPR, 1);
    tr_valu(T, WA_OP_V_CVT_F32_U32, fy, y, wa_opnd_none(), wa_opnd_none());
    tr_valu(T, WA_OP_V_RCP_F32, ry, fy, wa_opnd_none(), wa_opnd_none());
    /* 2^32 * (1 - 2^-23): keeps the estimate below 1/y */
    tr_valu_c(T, WA_OP_V_MUL_F32, sy, wa_opnd_imm(0x4F7FFFFE), ry);
    tr_valu(T, WA_OP_V_CVT_U32_F32, z0, sy, wa_opnd_none(), wa_opnd_none());
    wv z = wv_vreg(z0, u), yv = wv_vreg(y, u);
    wv ny = neg_e(T, &yv, u);
    wv nyz = tr_imul(T, &ny, &z, u);
    wv corr = mulhu_e(T, &z, &nyz, u);
    z = tr_iadd(T, &z, &corr, u);
    z = tr_settle(T, &z);
    wv av = tr_settle(T, a);
    wv q = mulhu_e(T, &av, &z, u);
    wv qy = tr_imul(T, &q, &yv, u);
    wv r = tr_isub(T, &av, &qy, u);
    r = tr_settle(T, &r);
    wv one = cint(1);
    for (unsigned step = 0; step < 2; step++) {
        wv ge = tr_icmp(T, 9, &r, &yv, TR_I32, u);
        wv q1 = tr_iadd(T, &q, &one, u);
        q1 = tr_settle(T, &q1);
        wv r1 = tr_isub(T, &r, &yv, u);
        r1 = tr_settle(T, &r1);
        q = tr_select(T, &ge, &q1, &q, TR_I32, u);
        r = tr_select(T, &ge, &r1, &r, TR_I32, u);
    }
    q.has_range = r.has_range = 0;
    *q_out = q;
    *r_out = r;
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

/* signed truncating quotient and remainder by a constant d (|d| >= 2) */
static void sdivrem_const(tr *T, const wv *x, int32_t d, int u, wv *q, wv *r)
{
    uint32_t ad = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;
    wv xs = tr_settle(T, x);
    if (is_pow2(ad)) {
        unsigned k = log2u(ad);
        /* bias negative values by 2^k - 1 so that the shift truncates toward zero */
        wv sx = sra31(T, &xs, u);
        wv sh = cint(32 - k);
        wv bias = tr_ishift(T, 1, &sx, &sh, u);
        wv t = tr_iadd(T, &xs, &bias, u);
        t = tr_settle(T, &t);
        wv kk = cint(k);
        *q = tr_ishift(T, 2, &t, &kk, u);
        if (d < 0)
            *q = neg_e(T, q, u);
    } else {
        *q = sdiv_const(T, &xs, d, u);
    }
    wv dv = cint((uint32_t)d);
    wv qd = tr_imul(T, q, &dv, u);
    *r = tr_isub(T, &xs, &qd, u);
    q->has_range = r->has_range = 0;
}

wv tr_divrem(tr *T, tr_divk kind, const wv *a, const wv *b, int uniform)
{
    int u = uniform;
    int is_signed = kind != TR_DIV_U && kind != TR_REM_U;
    /* constants */
    if (a->kind == WV_CONST && b->kind == WV_CONST && b->c != 0) {
        uint32_t ua = (uint32_t)a->c, ub = (uint32_t)b->c;
        int64_t sa = (int32_t)ua, sb = (int32_t)ub;
        int64_t v;
        switch (kind) {
        case TR_DIV_U: v = ua / ub; break;
        case TR_REM_U: v = ua % ub; break;
        case TR_DIV_S: v = (sa == INT32_MIN && sb == -1) ? INT32_MIN : sa / sb; break;
        case TR_REM_S: v = sb == -1 ? 0 : sa % sb; break;
        case TR_DIV_FLOOR:
        case TR_MOD_FLOOR:
        case TR_DIV_CEIL: {
            if (sb == -1 && sa == INT32_MIN) {
                v = kind == TR_MOD_FLOOR ? 0 : INT32_MIN;
                break;
            }
            int64_t q = sa / sb, r = sa % sb;
            if (kind == TR_DIV_CEIL) {
                v = (r != 0 && ((r < 0) == (sb < 0))) ? q + 1 : q;
            } else if (r != 0 && ((r < 0) != (sb < 0))) {
                v = kind == TR_DIV_FLOOR ? q - 1 : r + sb;
            } else {
                v = kind == TR_DIV_FLOOR ? q : r;
            }
            break;
        }
        default: v = 0;
        }
        return cint(v);
    }
    int nonneg = a->has_range && a->lo >= 0;
    if (b->kind == WV_CONST) {
        uint32_t ub = (uint32_t)b->c;
        int32_t sb = (int32_t)ub;
        if (!is_signed || (nonneg && sb > 0)) {
            /* unsigned forms (the signed ones agree for x >= 0, d > 0) */
            int is_rem = kind == TR_REM_U || kind == TR_REM_S || kind == TR_MOD_FLOOR;
            int ceil = kind == TR_DIV_CEIL;
            if (nonneg && a->has_range && (uint64_t)a->hi < ub) {
                if (ceil) {
                    wv z = cint(0), one = cint(1);
                    wv nz = tr_icmp(T, 1, a, &z, TR_I32, u);
                    return tr_select(T, &nz, &one, &z, TR_I32, u);
                }
                return is_rem ? *a : cint(0);
            }
            if (ub == 1)
                return is_rem ? cint(0) : *a;
            wv q, r;
            wv xs = tr_settle(T, a);
            if (is_pow2(ub)) {
                unsigned k = log2u(ub);
                wv kk = cint(k), mask = cint(ub - 1);
                q = tr_ishift(T, 1, &xs, &kk, u);
                r = tr_iand(T, &xs, &mask, u);
            } else {
                q = udiv_const(T, &xs, ub, u);
                wv dv = cint(ub);
                wv qd = tr_imul(T, &q, &dv, u);
                r = is_rem || ceil ? tr_isub(T, &xs, &qd, u) : cint(0);
            }
            if (a->has_range && nonneg) {
                wv_set_range(&q, a->lo / (int64_t)ub, a->hi / (int64_t)ub);
                if (is_rem)
                    wv_set_range(&r, 0, (int64_t)ub - 1);
            }
            if (ceil) {
                wv z = cint(0), one = cint(1);
                wv nz = tr_icmp(T, 1, &r, &z, TR_I32, u);
                wv inc = tr_select(T, &nz, &one, &z, TR_I32, u);
                return tr_iadd(T, &q, &inc, u);
            }
            return is_rem ? r : q;
        }
        /* signed with a constant divisor */
        if (sb == 1)
            return (kind == TR_REM_S || kind == TR_MOD_FLOOR) ? cint(0) : *a;
        if (sb == -1) {
            if (kind == TR_REM_S || kind == TR_MOD_FLOOR)
                return cint(0);
            return neg_e(T, a, u);
        }
        if (sb > 0 && is_pow2(ub) && (kind == TR_DIV_FLOOR || kind == TR_MOD_FLOOR)) {
            /* floor by 2^k is the arithmetic shift; the floor modulus the mask */
            wv xs = tr_settle(T, a);
            unsigned k = log2u(ub);
            wv kk = cint(k), mask = cint(ub - 1);
            if (kind == TR_DIV_FLOOR)
                return tr_ishift(T, 2, &xs, &kk, u);
            wv r = tr_iand(T, &xs, &mask, u);
            wv_set_range(&r, 0, (int64_t)ub - 1);
            return r;
        }
        wv q, r;
        sdivrem_const(T, a, sb, u, &q, &r);
        if (kind == TR_DIV_S)
            return q;
        if (kind == TR_REM_S)
            return r;
        /* floor / ceiling corrections: r != 0 and sign(r) vs sign(d) */
        wv z = cint(0);
        wv rnz = tr_icmp(T, 1, &r, &z, TR_I32, u);
        wv rneg = tr_icmp(T, 2, &r, &z, TR_I32, u);
        wv diff = sb > 0 ? rneg : tr_not_mask(T, &rneg); /* sign(r) != sign(d) */
        wv fls = wv_const(0);
        wv adj_floor = tr_select(T, &rnz, &diff, &fls, TR_I1, u);
        if (kind == TR_DIV_FLOOR) {
            wv m1 = cint((uint32_t)-1);
            wv qm = tr_iadd(T, &q, &m1, u);
            return tr_select(T, &adj_floor, &qm, &q, TR_I32, u);
        }
        if (kind == TR_MOD_FLOOR) {
            wv dv = cint(ub);
            wv rd = tr_iadd(T, &r, &dv, u);
            wv res = tr_select(T, &adj_floor, &rd, &r, TR_I32, u);
            if (sb > 0)
                wv_set_range(&res, 0, sb - 1);
            return res;
        }
        /* ceiling: r != 0 and same signs */
        wv same = tr_not_mask(T, &diff);
        wv adj = tr_select(T, &rnz, &same, &fls, TR_I1, u);
        wv one = cint(1);
        wv qp = tr_iadd(T, &q, &one, u);
        return tr_select(T, &adj, &qp, &q, TR_I32, u);
    }
    /* variable divisor */
    if (!is_signed) {
        wv q, r;
        udiv_var(T, a, b, u, &q, &r);
        return kind == TR_DIV_U ? q : r;
    }
    int bnonneg = b->has_range && b->lo > 0;
    if (nonneg && bnonneg) {
        wv q, r;
        udiv_var(T, a, b, u, &q, &r);
        if (kind == TR_DIV_CEIL) {
            wv z = cint(0), one = cint(1);
            wv nz = tr_icmp(T, 1, &r, &z, TR_I32, u);
            wv inc = tr_select(T, &nz, &one, &z, TR_I32, u);
            return tr_iadd(T, &q, &inc, u);
        }
        return (kind == TR_REM_S || kind == TR_MOD_FLOOR) ? r : q;
    }
    /* signs apart: |a| / |b| */
    wv as = tr_settle(T, a), bs = tr_settle(T, b);
    wv sa = sra31(T, &as, u), sbv = sra31(T, &bs, u);
    /* |x| = (x ^ s) - s */
    wv ta = tr_ixor(T, &as, &sa, u);
    wv tb = tr_ixor(T, &bs, &sbv, u);
    wv ua = tr_isub(T, &ta, &sa, u), ubv = tr_isub(T, &tb, &sbv, u);
    ua = tr_settle(T, &ua);
    ubv = tr_settle(T, &ubv);
    wv uq, ur;
    udiv_var(T, &ua, &ubv, u, &uq, &ur);
    /* q = (uq ^ s) - s with s = sa ^ sb; r takes a's sign */
    wv sq = tr_ixor(T, &sa, &sbv, u);
    wv tq = tr_ixor(T, &uq, &sq, u);
    wv q = tr_isub(T, &tq, &sq, u);
    wv trr = tr_ixor(T, &ur, &sa, u);
    wv r = tr_isub(T, &trr, &sa, u);
    q = tr_settle(T, &q);
    r = tr_settle(T, &r);
    if (kind == TR_DIV_S)
        return q;
    if (kind == TR_REM_S)
        return r;
    wv z = cint(0);
    wv rnz = tr_icmp(T, 1, &r, &z, TR_I32, u);
    wv rs = sra31(T, &r, u);
    wv rsd = tr_ixor(T, &rs, &sbv, u); /* -1 when the signs differ */
    wv differ = tr_icmp(T, 1, &rsd, &z, TR_I32, u);
    wv f = wv_const(0);
    if (kind == TR_DIV_CEIL) {
        wv same = tr_not_mask(T, &differ);
        wv adj = tr_select(T, &rnz, &same, &f, TR_I1, u);
        wv one = cint(1);
        wv qp = tr_iadd(T, &q, &one, u);
        return tr_select(T, &adj, &qp, &q, TR_I32, u);
    }
    wv adj = tr_select(T, &rnz, &differ, &f, TR_I1, u);
    if (kind == TR_DIV_FLOOR) {
        wv m1 = cint((uint32_t)-1);
        wv qm = tr_iadd(T, &q, &m1, u);
        return tr_select(T, &adj, &qm, &q, TR_I32, u);
    }
    wv rb = tr_iadd(T, &r, &bs, u);
    return tr_select(T, &adj, &rb, &r, TR_I32, u);
}
