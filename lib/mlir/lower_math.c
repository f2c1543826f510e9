/* lib/mlir/lower_math.c — math: fma, exp, exp2, log, log2, sqrt, rsqrt, absf,
   tanh, powf on f32 (f16 and bf16 through f32); fma and absf on f64 too. Accuracy (docs/mlir.md has
   the measured figures):
     fma          correctly rounded (v_fma_f32, v_fma_f64)
     exp2         the hardware's v_exp_f32 (about 1 ulp); results below 2^-126
                  come out as denormals (computed at x + 64, scaled by 2^-64)
     exp          x * log2(e) in extended precision (two FMAs), split into an
                  integer n and a fraction f, exp2(f) * 2^n: about 2 ulp
     log2         v_log_f32 (about 1 ulp); denormal inputs scaled by 2^32 first
     log          log2(x) * ln 2 in extended precision: about 2 ulp away from
                  x = 1, an absolute error near 2^-23 close to 1
     sqrt         v_sqrt_f32 (about 1 ulp), denormal inputs scaled by 2^32
     rsqrt        1 / sqrt(x) with v_rcp_f32: about 2 ulp
     absf         exact (sign bit cleared)
     tanh         odd Taylor polynomial for |x| < 0.25, (1 - e) / (1 + e) with
                  e = exp(-2|x|) (correctly rounded division) above: about 4 ulp
     powf         exp2(y * log2|x|) with the C99 special cases (x = 1, y = 0,
                  negative x with integer y): relative error about
                  2^-22 * max(1, |y * log2 x|) */
#include "internal.h"

#include <math.h>
#include <string.h>

static wa_operand K(double d)
{
    return wa_opnd_imm((int64_t)(int32_t)(uint32_t)tr_float_bits(d, EF_F32));
}

static wa_operand KB(uint32_t bits)
{
    return wa_opnd_imm((int64_t)(int32_t)bits);
}

static wa_operand V(tr *T)
{
    return tr_vreg(T, WA_REG_VGPR, 1);
}

static wa_operand M(tr *T)
{
    return tr_vreg(T, WA_REG_SGPR, 2);
}

static int is_vgpr(wa_operand o)
{
    return (o.kind == WA_OPND_VIRT || o.kind == WA_OPND_PHYS) && o.reg_class == WA_REG_VGPR;
}

static wa_operand vg(tr *T, wa_operand o)
{
    return is_vgpr(o) ? o : tr_to_vgpr(T, o);
}

static wa_operand op2(tr *T, wa_opcode op, wa_operand a, wa_operand b)
{
    wa_operand d = V(T);
    tr_valu_c(T, op, d, a, b);
    return d;
}

static wa_operand fma3(tr *T, wa_operand a, wa_operand b, wa_operand c)
{
    wa_operand d = V(T);
    tr_valu(T, WA_OP_V_FMA_F32, d, a, b, c);
    return d;
}

static wa_operand sel(tr *T, wa_operand m, wa_operand t, wa_operand f)
{
    wa_operand d = V(T);
    tr_valu(T, WA_OP_V_CNDMASK_B32, d, vg(T, f), vg(T, t), m);
    return d;
}

static wa_operand cmp(tr *T, wa_opcode op, wa_operand a, wa_operand b)
{
    wa_operand d = M(T);
    tr_valu(T, op, d, a, vg(T, b), wa_opnd_none());
    return d;
}

static wa_operand neg(tr *T, wa_operand a)
{
    return op2(T, WA_OP_V_XOR_B32, tr_to_sgpr(T, KB(0x80000000u)), vg(T, a));
}

static wa_operand un(tr *T, wa_opcode op, wa_operand a)
{
    wa_operand d = V(T);
    tr_valu(T, op, d, a, wa_opnd_none(), wa_opnd_none());
    return d;
}

/* exp2 with denormal results */
static wa_operand f_exp2(tr *T, wa_operand x)
{
    x = vg(T, x);
    wa_operand small = cmp(T, WA_OP_V_CMP_GT_F32, K(-126.0), x); /* -126 > x */
    wa_operand xs = op2(T, WA_OP_V_ADD_F32, K(64.0), x);
    wa_operand xin = sel(T, small, xs, x);
    wa_operand e = un(T, WA_OP_V_EXP_F32, xin);
    wa_operand es = op2(T, WA_OP_V_MUL_F32, tr_to_sgpr(T, K(ldexp(1.0, -64))), e);
    return sel(T, small, es, e);
}

/* 2^n for an integral float n in [-150, 150], as two normal factors */
static void pow2_factors(tr *T, wa_operand n_int, wa_operand *s1, wa_operand *s2)
{
    wa_operand h1 = V(T), h2 = V(T);
    tr_valu(T, WA_OP_V_ASHRREV_I32, h1, wa_opnd_imm(1), n_int, wa_opnd_none());
    tr_valu(T, WA_OP_V_SUB_U32, h2, n_int, h1, wa_opnd_none());
    wa_operand b1 = V(T), b2 = V(T);
    tr_valu(T, WA_OP_V_ADD_U32, b1, tr_to_sgpr(T, wa_opnd_imm(127)), h1, wa_opnd_none());
    tr_valu(T, WA_OP_V_ADD_U32, b2, tr_to_sgpr(T, wa_opnd_imm(127)), h2, wa_opnd_none());
    *s1 = V(T);
    *s2 = V(T);
    tr_valu(T, WA_OP_V_LSHLREV_B32, *s1, wa_opnd_imm(23), b1, wa_opnd_none());
    tr_valu(T, WA_OP_V_LSHLREV_B32, *s2, wa_opnd_imm(23), b2, wa_opnd_none());
}

static wa_operand f_exp(tr *T, wa_operand x)
{
    x = vg(T, x);
    /* |x| beyond 104 gives inf or 0 anyway; keeps n in range */
    wa_operand xc = op2(T, WA_OP_V_MIN_F32, K(104.0), x);
    xc = op2(T, WA_OP_V_MAX_F32, K(-104.0), xc);
    wa_operand hi = tr_to_sgpr(T, KB(0x3FB8AA3Bu)); /* log2(e) rounded to f32 */
    wa_operand ph = op2(T, WA_OP_V_MUL_F32, hi, xc);
    wa_operand nph = neg(T, ph);
    wa_operand pl = fma3(T, xc, hi, nph);
    pl = fma3(T, xc, tr_to_sgpr(T, KB(0x32A5705Fu)), pl); /* log2(e) - hi */
    /* n = round(ph) with the 1.5 * 2^23 trick; its integer from the bits */
    wa_operand magic = tr_to_sgpr(T, KB(0x4B400000u));
    wa_operand t = op2(T, WA_OP_V_ADD_F32, magic, ph);
    wa_operand n = V(T);
    tr_valu(T, WA_OP_V_SUB_F32, n, t, magic, wa_opnd_none());
    wa_operand ni = V(T);
    tr_valu(T, WA_OP_V_SUBREV_U32, ni, magic, t, wa_opnd_none());
    wa_operand f = V(T);
    tr_valu(T, WA_OP_V_SUB_F32, f, ph, n, wa_opnd_none());
    f = op2(T, WA_OP_V_ADD_F32, f, pl);
    wa_operand e = un(T, WA_OP_V_EXP_F32, f);
    wa_operand s1, s2;
    pow2_factors(T, ni, &s1, &s2);
    wa_operand r = op2(T, WA_OP_V_MUL_F32, e, s1);
    r = op2(T, WA_OP_V_MUL_F32, r, s2);
    wa_operand isnan = cmp(T, WA_OP_V_CMP_NEQ_F32, x, x);
    return sel(T, isnan, x, r);
}

/* log2 with denormal inputs */
static wa_operand f_log2(tr *T, wa_operand x)
{
    x = vg(T, x);
    wa_operand small = cmp(T, WA_OP_V_CMP_GT_F32, tr_to_sgpr(T, KB(0x00800000u)), x);
    wa_operand xs = op2(T, WA_OP_V_MUL_F32, tr_to_sgpr(T, K(4294967296.0)), x);
    wa_operand xin = sel(T, small, xs, x);
    wa_operand l = un(T, WA_OP_V_LOG_F32, xin);
    wa_operand ls = op2(T, WA_OP_V_ADD_F32, tr_to_sgpr(T, K(-32.0)), l);
    return sel(T, small, ls, l);
}

static wa_operand f_log(tr *T, wa_operand x)
{
    wa_operand y = f_log2(T, x);
    wa_operand hi = tr_to_sgpr(T, KB(0x3F317218u)); /* ln 2 rounded to f32 */
    wa_operand r = op2(T, WA_OP_V_MUL_F32, hi, y);
    wa_operand e = fma3(T, y, hi, neg(T, r));
    e = fma3(T, y, tr_to_sgpr(T, KB(0xB102E308u)), e); /* ln 2 - hi */
    wa_operand s = op2(T, WA_OP_V_ADD_F32, r, e);
    /* infinities and NaN: the plain product */
    wa_operand fin = cmp(T, WA_OP_V_CMP_GT_F32, tr_to_sgpr(T, KB(0x7F800000u)),
                         op2(T, WA_OP_V_AND_B32, tr_to_sgpr(T, KB(0x7FFFFFFFu)), y));
    return sel(T, fin, s, r);
}

static wa_operand f_sqrt(tr *T, wa_operand x)
{
    x = vg(T, x);
    wa_operand small = cmp(T, WA_OP_V_CMP_GT_F32, tr_to_sgpr(T, KB(0x0F800000u)), x); /* 2^-96 */
    wa_operand xs = op2(T, WA_OP_V_MUL_F32, tr_to_sgpr(T, K(4294967296.0)), x);
    wa_operand xin = sel(T, small, xs, x);
    wa_operand s = un(T, WA_OP_V_SQRT_F32, xin);
    wa_operand ss = op2(T, WA_OP_V_MUL_F32, tr_to_sgpr(T, K(ldexp(1.0, -16))), s);
    return sel(T, small, ss, s);
}

static wa_operand f_rsqrt(tr *T, wa_operand x)
{
    wa_operand s = f_sqrt(T, x);
    return un(T, WA_OP_V_RCP_F32, s);
}

static wa_operand f_div(tr *T, wa_operand a, wa_operand b)
{
    /* the same sequence as arith.divf */
    wa_operand vcc = wa_opnd_special(WA_SPECIAL_VCC);
    a = vg(T, a);
    b = vg(T, b);
    wa_operand den = V(T), num = V(T), dm = M(T);
    wa_operand s1[5] = { den, dm, b, b, a };
    tr_emit(T, WA_OP_V_DIV_SCALE_F32, s1, 5, NULL);
    wa_operand s2[5] = { num, vcc, a, b, a };
    tr_emit(T, WA_OP_V_DIV_SCALE_F32, s2, 5, NULL);
    wa_operand rcp = un(T, WA_OP_V_RCP_F32, den);
    wa_operand nden = neg(T, den);
    wa_operand f0 = fma3(T, nden, rcp, K(1.0));
    wa_operand f1 = fma3(T, f0, rcp, rcp);
    wa_operand mul = op2(T, WA_OP_V_MUL_F32, num, f1);
    wa_operand f2 = fma3(T, nden, mul, num);
    wa_operand f3 = fma3(T, f2, f1, mul);
    wa_operand f4 = fma3(T, nden, f3, num);
    wa_operand fm = V(T);
    wa_operand s3[4] = { fm, f4, f1, f3 };
    tr_emit(T, WA_OP_V_DIV_FMAS_F32, s3, 4, NULL);
    wa_operand r = V(T);
    tr_valu(T, WA_OP_V_DIV_FIXUP_F32, r, fm, b, a);
    return r;
}

static wa_operand f_tanh(tr *T, wa_operand x)
{
    x = vg(T, x);
    wa_operand ax = op2(T, WA_OP_V_AND_B32, tr_to_sgpr(T, KB(0x7FFFFFFFu)), x);
    /* small: x + x^3 (-1/3 + x^2 (2/15 + x^2 (-17/315 + x^2 62/2835))) */
    wa_operand x2 = op2(T, WA_OP_V_MUL_F32, x, x);
    wa_operand p = fma3(T, x2, tr_to_sgpr(T, K(62.0 / 2835.0)), tr_to_sgpr(T, K(-17.0 / 315.0)));
    p = fma3(T, x2, p, tr_to_sgpr(T, K(2.0 / 15.0)));
    p = fma3(T, x2, p, tr_to_sgpr(T, K(-1.0 / 3.0)));
    wa_operand x3 = op2(T, WA_OP_V_MUL_F32, x2, x);
    wa_operand small_v = fma3(T, x3, p, x);
    /* large: (1 - e) / (1 + e), e = exp(-2|x|), with x's sign */
    wa_operand m2 = op2(T, WA_OP_V_MUL_F32, K(-2.0), ax);
    wa_operand e = f_exp(T, m2);
    wa_operand num = V(T);
    tr_valu(T, WA_OP_V_SUB_F32, num, K(1.0), e, wa_opnd_none());
    wa_operand den = op2(T, WA_OP_V_ADD_F32, K(1.0), e);
    wa_operand q = f_div(T, num, den);
    wa_operand sign = op2(T, WA_OP_V_AND_B32, tr_to_sgpr(T, KB(0x80000000u)), x);
    wa_operand big_v = op2(T, WA_OP_V_OR_B32, sign, q);
    wa_operand small = cmp(T, WA_OP_V_CMP_GT_F32, tr_to_sgpr(T, K(0.25)), ax);
    return sel(T, small, small_v, big_v);
}

static wa_operand f_pow(tr *T, wa_operand x, wa_operand y)
{
    x = vg(T, x);
    y = vg(T, y);
    wa_operand ax = op2(T, WA_OP_V_AND_B32, tr_to_sgpr(T, KB(0x7FFFFFFFu)), x);
    wa_operand l = f_log2(T, ax);
    wa_operand p = op2(T, WA_OP_V_MUL_F32, y, l);
    /* exp2 with overflow to inf and underflow to 0 */
    wa_operand pc = op2(T, WA_OP_V_MIN_F32, K(200.0), p);
    pc = op2(T, WA_OP_V_MAX_F32, K(-200.0), pc);
    wa_operand pn = cmp(T, WA_OP_V_CMP_NEQ_F32, p, p);
    pc = sel(T, pn, p, pc);
    wa_operand r = f_exp2(T, pc);
    /* y integral? odd? (|y| >= 2^24 is an even integer) */
    wa_operand ay = op2(T, WA_OP_V_AND_B32, tr_to_sgpr(T, KB(0x7FFFFFFFu)), y);
    wa_operand iy = un(T, WA_OP_V_CVT_U32_F32, ay);
    wa_operand fy = un(T, WA_OP_V_CVT_F32_U32, iy);
    wa_operand big = cmp(T, WA_OP_V_CMP_LE_F32, tr_to_sgpr(T, K(16777216.0)), ay);
    wa_operand eq = cmp(T, WA_OP_V_CMP_EQ_F32, fy, ay);
    wa_operand isint = M(T);
    wa_operand o1[3] = { isint, big, eq };
    tr_emit(T, WA_OP_S_OR_B64, o1, 3, NULL);
    wa_operand odd_bit = op2(T, WA_OP_V_AND_B32, wa_opnd_imm(1), iy);
    wa_operand oddm = cmp(T, WA_OP_V_CMP_NE_U32, wa_opnd_imm(0), odd_bit);
    wa_operand odd = M(T);
    wa_operand o2[3] = { odd, oddm, isint };
    tr_emit(T, WA_OP_S_AND_B64, o2, 3, NULL);
    wa_operand odd_nb = M(T);
    wa_operand o3[3] = { odd_nb, odd, wa_opnd_special(WA_SPECIAL_EXEC) };
    tr_emit(T, WA_OP_S_AND_B64, o3, 3, NULL);
    wa_operand notbig = M(T);
    wa_operand o4[3] = { notbig, wa_opnd_special(WA_SPECIAL_EXEC), big };
    tr_emit(T, WA_OP_S_ANDN2_B64, o4, 3, NULL);
    wa_operand oddf = M(T);
    wa_operand o5[3] = { oddf, odd_nb, notbig };
    tr_emit(T, WA_OP_S_AND_B64, o5, 3, NULL);
    /* negative x: odd integer y negates, a non-integer y gives NaN */
    wa_operand xneg = cmp(T, WA_OP_V_CMP_GT_F32, K(0.0), x); /* 0 > x */
    wa_operand negr = neg(T, r);
    wa_operand sneg = M(T);
    wa_operand o6[3] = { sneg, xneg, oddf };
    tr_emit(T, WA_OP_S_AND_B64, o6, 3, NULL);
    r = sel(T, sneg, negr, r);
    wa_operand nonint = M(T);
    wa_operand o7[3] = { nonint, wa_opnd_special(WA_SPECIAL_EXEC), isint };
    tr_emit(T, WA_OP_S_ANDN2_B64, o7, 3, NULL);
    wa_operand bad = M(T);
    wa_operand o8[3] = { bad, xneg, nonint };
    tr_emit(T, WA_OP_S_AND_B64, o8, 3, NULL);
    r = sel(T, bad, tr_to_vgpr(T, KB(0x7FC00000u)), r);
    /* x == -0 with odd y: -0 or -inf keep the sign */
    wa_operand zneg = cmp(T, WA_OP_V_CMP_EQ_U32, tr_to_sgpr(T, KB(0x80000000u)), x);
    wa_operand zo = M(T);
    wa_operand o9[3] = { zo, zneg, oddf };
    tr_emit(T, WA_OP_S_AND_B64, o9, 3, NULL);
    r = sel(T, zo, negr, r);
    /* y == 0 or x == 1: 1 */
    wa_operand y0 = cmp(T, WA_OP_V_CMP_EQ_F32, K(0.0), y);
    wa_operand x1 = cmp(T, WA_OP_V_CMP_EQ_F32, K(1.0), x);
    wa_operand one = M(T);
    wa_operand o10[3] = { one, y0, x1 };
    tr_emit(T, WA_OP_S_OR_B64, o10, 3, NULL);
    return sel(T, one, tr_to_vgpr(T, K(1.0)), r);
}

wv tr_math_unary(tr *T, const char *name, wa_operand x, int uniform, MlirOperation op)
{
    wa_operand r;
    if (!strcmp(name, "exp2"))
        r = f_exp2(T, x);
    else if (!strcmp(name, "exp"))
        r = f_exp(T, x);
    else if (!strcmp(name, "log2"))
        r = f_log2(T, x);
    else if (!strcmp(name, "log"))
        r = f_log(T, x);
    else if (!strcmp(name, "sqrt"))
        r = f_sqrt(T, x);
    else if (!strcmp(name, "rsqrt"))
        r = f_rsqrt(T, x);
    else if (!strcmp(name, "tanh"))
        r = f_tanh(T, x);
    else {
        tr_error_op(T, op, WA_E_UNSUPPORTED, "math.%s is not supported", name);
        return wv_const(0);
    }
    return wv_vreg(r, uniform);
}

/* ---- operations ---------------------------------------------------------------------------- */

static int check(tr *T, MlirOperation op, ety et)
{
    if (et.kind != ET_FLOAT || et.fkind == EF_F64) {
        MlirStringRef n = tr_op_name(op);
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "'%.*s' on this type is not supported (f32, f16, "
                                                    "bf16 are)",
                           (int)n.length, n.data);
    }
    return 0;
}

static double host_fn(const char *name, double x)
{
    float f = (float)x;
    if (!strcmp(name, "exp2"))
        return exp2f(f);
    if (!strcmp(name, "exp"))
        return expf(f);
    if (!strcmp(name, "log2"))
        return log2f(f);
    if (!strcmp(name, "log"))
        return logf(f);
    if (!strcmp(name, "sqrt"))
        return sqrtf(f);
    if (!strcmp(name, "rsqrt"))
        return 1.0f / sqrtf(f);
    return tanhf(f);
}

static int unary(tr *T, MlirOperation op, const char *name)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    if (check(T, op, r->et))
        return -1;
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    for (unsigned i = 0; i < r->n; i++) {
        const wv *e = &v->e[v->n == 1 ? 0 : i];
        if (e->kind == WV_CONST) {
            double x = tr_float_value(e->c, (et_float)r->et.fkind);
            r->e[i] = wv_const(tr_float_bits((double)(float)host_fn(name, x), (et_float)r->et.fkind));
            continue;
        }
        wa_operand x = tr_f32_of(T, e, v->et);
        wv y = tr_math_unary(T, name, x, uniform, op);
        if (T->failed)
            return -1;
        r->e[i] = tr_f32_to(T, y.r, r->et, uniform);
    }
    return tr_set_val(T, tr_result(op, 0), r);
}

#define UNARY(fn)                                                                                \
    static int l_##fn(tr *T, MlirOperation op) { return unary(T, op, #fn); }
UNARY(exp)
UNARY(exp2)
UNARY(log)
UNARY(log2)
UNARY(sqrt)
UNARY(rsqrt)
UNARY(tanh)

static int l_absf(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    if (r->et.kind != ET_FLOAT)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "absf on a non-float type");
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    uint64_t mask = tr_mask_bits(r->et.bits - 1);
    for (unsigned i = 0; i < r->n; i++) {
        const wv *e = &v->e[i];
        if (e->kind == WV_CONST) {
            r->e[i] = wv_const(e->c & mask);
            continue;
        }
        if (r->et.bits == 64) {
            wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
            wa_operand lo[2] = { wa_opnd_sub(d, 0, 1), wa_opnd_sub(e->r, 0, 1) };
            tr_emit(T, WA_OP_V_MOV_B32, lo, 2, NULL);
            tr_valu(T, WA_OP_V_AND_B32, wa_opnd_sub(d, 1, 1), tr_to_sgpr(T, KB(0x7FFFFFFFu)),
                    wa_opnd_sub(e->r, 1, 1), wa_opnd_none());
            r->e[i] = wv_vreg(d, uniform);
            continue;
        }
        wa_operand x = tr_src(T, e);
        wa_operand d = V(T);
        tr_valu_c(T, WA_OP_V_AND_B32, d, tr_to_sgpr(T, KB((uint32_t)mask)), x);
        r->e[i] = wv_vreg(d, uniform);
    }
    return tr_set_val(T, tr_result(op, 0), r);
}

static int l_fma(tr *T, MlirOperation op)
{
    wval *a = tr_val(T, tr_operand(op, 0)), *b = tr_val(T, tr_operand(op, 1)),
         *c = tr_val(T, tr_operand(op, 2));
    wval *r = tr_result_val(T, op, 0);
    if (!a || !b || !c || !r)
        return -1;
    int f64 = r->et.kind == ET_FLOAT && r->et.fkind == EF_F64;
    if (!f64 && check(T, op, r->et))
        return -1;
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    for (unsigned i = 0; i < r->n; i++) {
        const wv *x = &a->e[i], *y = &b->e[i], *z = &c->e[i];
        if (f64) {
            r->e[i] = tr_f64_fma(T, x, y, z, uniform);
            continue;
        }
        if (x->kind == WV_CONST && y->kind == WV_CONST && z->kind == WV_CONST) {
            float fx = (float)tr_float_value(x->c, (et_float)r->et.fkind),
                  fy = (float)tr_float_value(y->c, (et_float)r->et.fkind),
                  fz = (float)tr_float_value(z->c, (et_float)r->et.fkind);
            r->e[i] = wv_const(tr_float_bits((double)fmaf(fx, fy, fz), (et_float)r->et.fkind));
            continue;
        }
        wa_operand d = V(T);
        tr_valu(T, WA_OP_V_FMA_F32, d, tr_f32_of(T, x, r->et), tr_f32_of(T, y, r->et),
                tr_f32_of(T, z, r->et));
        r->e[i] = tr_f32_to(T, d, r->et, uniform);
    }
    return tr_set_val(T, tr_result(op, 0), r);
}

static int l_powf(tr *T, MlirOperation op)
{
    wval *a = tr_val(T, tr_operand(op, 0)), *b = tr_val(T, tr_operand(op, 1));
    wval *r = tr_result_val(T, op, 0);
    if (!a || !b || !r)
        return -1;
    if (check(T, op, r->et))
        return -1;
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    for (unsigned i = 0; i < r->n; i++) {
        const wv *x = &a->e[i], *y = &b->e[i];
        if (x->kind == WV_CONST && y->kind == WV_CONST) {
            float fx = (float)tr_float_value(x->c, (et_float)r->et.fkind),
                  fy = (float)tr_float_value(y->c, (et_float)r->et.fkind);
            r->e[i] = wv_const(tr_float_bits((double)powf(fx, fy), (et_float)r->et.fkind));
            continue;
        }
        wa_operand d = f_pow(T, tr_f32_of(T, x, r->et), tr_f32_of(T, y, r->et));
        r->e[i] = tr_f32_to(T, d, r->et, uniform);
    }
    return tr_set_val(T, tr_result(op, 0), r);
}

const tr_op_entry tr_math_ops[] = {
    { "math.exp", l_exp },
    { "math.exp2", l_exp2 },
    { "math.log", l_log },
    { "math.log2", l_log2 },
    { "math.sqrt", l_sqrt },
    { "math.rsqrt", l_rsqrt },
    { "math.tanh", l_tanh },
    { "math.absf", l_absf },
    { "math.fma", l_fma },
    { "math.powf", l_powf },
    { NULL, NULL },
};
