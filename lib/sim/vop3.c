/* lib/sim/vop3.c — semantics of the VOP3-only VALU instructions added with the
   family's rows (the older rows stay in alu.c): three-source integer arithmetic
   and bit operations, sums of absolute differences, 16-bit integer and f16
   arithmetic with op_sel, 64-bit shifts and adds with the carry-out lane mask,
   three-way float min/max/median, ldexp, packing conversions.

   Each follows the pseudo-code of AMD's Vega/CDNA3 ISA descriptions. Operands are
   read and results written through the machine's operand helpers, so the float
   source and output modifiers apply as they do for every VALU instruction.
   Integer clamp is per operation: the result saturates to the range of the
   destination (the unsigned adds and multiply-adds to 0xFFFFFFFF, the signed
   ones to INT_MIN/INT_MAX, 16-bit results to 16 bits); on min/max/median and
   other results that cannot leave the range it changes nothing.

   16-bit operations: op_sel bit i reads the high half of source i; bit 3 writes
   the result to the high half of vdst and keeps the low half. Without it the
   result goes to the low half and the high half becomes 0.

   Not executed (sim_vop3_why_not): stochastic rounding, the fp8/bf8/fp6/fp4
   conversions with scale, the f64 division helpers, trig_preop, cube-map
   helpers, the unfused multiply-adds, the masked quad SADs, bitop3. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

#define NL SIM_LANES

/* ---- operand access ------------------------------------------------------------------------ */

static void rd(sim_ctx *c, unsigned k, unsigned comp, uint32_t out[NL], uint64_t *def)
{
    sim_read_vec(c, k, comp, out, def);
}

static void rd64(sim_ctx *c, unsigned k, uint64_t out[NL], uint64_t *def)
{
    uint32_t lo[NL], hi[NL];
    uint64_t dl, dh;
    rd(c, k, 0, lo, &dl);
    rd(c, k, 1, hi, &dh);
    for (unsigned l = 0; l < NL; l++)
        out[l] = (uint64_t)hi[l] << 32 | lo[l];
    *def = dl & dh;
}

static void wr64(sim_ctx *c, const uint64_t v[NL], uint64_t lanes, uint64_t def)
{
    uint32_t lo[NL], hi[NL];
    for (unsigned l = 0; l < NL; l++) {
        lo[l] = (uint32_t)v[l];
        hi[l] = (uint32_t)(v[l] >> 32);
    }
    sim_write_vec(c, 0, 0, lo, lanes, def);
    sim_write_vec(c, 0, 1, hi, lanes, def);
}

static int clamp_on(const sim_ctx *c) { return (c->in->mods.flags & WA_MOD_CLAMP) != 0; }
static unsigned opsel(const sim_ctx *c) { return c->in->mods.op_sel; }

/* op_sel bits the operation does not give a meaning to stop the run. */
static int opsel_allowed(sim_ctx *c, unsigned ok)
{
    if (opsel(c) & ~ok) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: op_sel:0x%x has no documented effect here",
                 c->info->mnemonic, opsel(c));
        return 0;
    }
    return 1;
}

/* ---- 32-bit integer, three sources ---------------------------------------------------------- */

typedef uint32_t (*tri_fn)(uint32_t a, uint32_t b, uint32_t d, int clamp);
typedef uint32_t (*bin_fn)(uint32_t a, uint32_t b, int clamp);

static void run_tri(sim_ctx *c, tri_fn f)
{
    if (!opsel_allowed(c, 0))
        return;
    uint32_t a[NL], b[NL], d[NL], r[NL];
    uint64_t da, db, dd, ex = sim_exec(c);
    rd(c, 1, 0, a, &da);
    rd(c, 2, 0, b, &db);
    rd(c, 3, 0, d, &dd);
    int cl = clamp_on(c);
    for (unsigned l = 0; l < NL; l++)
        r[l] = ex >> l & 1u ? f(a[l], b[l], d[l], cl) : 0;
    sim_write_vec(c, 0, 0, r, ex, da & db & dd);
}

static void run_bin(sim_ctx *c, bin_fn f)
{
    if (!opsel_allowed(c, 0))
        return;
    uint32_t a[NL], b[NL], r[NL];
    uint64_t da, db, ex = sim_exec(c);
    rd(c, 1, 0, a, &da);
    rd(c, 2, 0, b, &db);
    int cl = clamp_on(c);
    for (unsigned l = 0; l < NL; l++)
        r[l] = ex >> l & 1u ? f(a[l], b[l], cl) : 0;
    sim_write_vec(c, 0, 0, r, ex, da & db);
}

#define TRI(name, expr)                                                                     \
    static uint32_t fn_##name(uint32_t a, uint32_t b, uint32_t d, int clamp)                \
    {                                                                                       \
        (void)clamp;                                                                        \
        return expr;                                                                        \
    }                                                                                       \
    static void op_##name(sim_ctx *c) { run_tri(c, fn_##name); }
#define BIN(name, expr)                                                                     \
    static uint32_t fn_##name(uint32_t a, uint32_t b, int clamp)                            \
    {                                                                                       \
        (void)clamp;                                                                        \
        return expr;                                                                        \
    }                                                                                       \
    static void op_##name(sim_ctx *c) { run_bin(c, fn_##name); }

static uint32_t sat_u32(uint64_t v, int clamp) { return clamp && v > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)v; }
static uint32_t sat_i32(int64_t v, int clamp)
{
    if (clamp && v > INT32_MAX)
        return (uint32_t)INT32_MAX;
    if (clamp && v < INT32_MIN)
        return (uint32_t)INT32_MIN;
    return (uint32_t)v;
}
static int64_t sext(uint64_t v, unsigned bits)
{
    uint64_t m = 1ull << (bits - 1);
    v &= (bits == 64 ? ~0ull : (1ull << bits) - 1u);
    return (int64_t)((v ^ m) - m);
}

static uint32_t mad_i24(uint32_t a, uint32_t b, uint32_t d, int clamp)
{
    return sat_i32(sext(a, 24) * sext(b, 24) + (int32_t)d, clamp);
}
static uint32_t mad_u24(uint32_t a, uint32_t b, uint32_t d, int clamp)
{
    return sat_u32((uint64_t)(a & 0xFFFFFFu) * (b & 0xFFFFFFu) + d, clamp);
}

/* Signed bit-field extract: width d[4:0] bits from offset b[4:0], sign-extended;
   a field reaching past bit 31 takes the bits up to 31 with bit 31 as the sign. */
static uint32_t bfe_i32(uint32_t a, uint32_t b, uint32_t d, int clamp)
{
    (void)clamp;
    unsigned off = b & 31u, w = d & 31u;
    if (!w)
        return 0;
    if (off + w >= 32)
        return (uint32_t)((int32_t)a >> off);
    return (uint32_t)sext(a >> off, w);
}

/* Unsigned byte average per byte, rounding up when the low bit of d's byte is set. */
static uint32_t lerp_u8(uint32_t a, uint32_t b, uint32_t d, int clamp)
{
    (void)clamp;
    uint32_t r = 0;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t x = (a >> (8 * i)) & 0xFFu, y = (b >> (8 * i)) & 0xFFu, z = (d >> (8 * i)) & 1u;
        r |= ((x + y + z) >> 1) << (8 * i);
    }
    return r;
}

static uint32_t absdiff(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }

/* Sums of absolute differences: per byte (u8, hi_u8: the sum in bits 31:16), per
   half (u16), whole (u32); msad skips the bytes where b is 0. */
static uint32_t sad(uint32_t a, uint32_t b, unsigned width, int masked)
{
    uint32_t s = 0, m = width == 32 ? 0xFFFFFFFFu : (1u << width) - 1u;
    for (unsigned i = 0; i < 32; i += width) {
        uint32_t x = (a >> i) & m, y = (b >> i) & m;
        if (!masked || y)
            s += absdiff(x, y);
    }
    return s;
}

TRI(mad_i32_i24, mad_i24(a, b, d, clamp))
TRI(mad_u32_u24, mad_u24(a, b, d, clamp))
TRI(bfe_i32, bfe_i32(a, b, d, clamp))
TRI(lerp_u8, lerp_u8(a, b, d, clamp))
TRI(alignbit, (uint32_t)((((uint64_t)a << 32) | b) >> (d & 31u)))
TRI(alignbyte, (uint32_t)((((uint64_t)a << 32) | b) >> (8u * (d & 3u))))
TRI(sad_u8, sat_u32((uint64_t)sad(a, b, 8, 0) + d, clamp))
TRI(sad_hi_u8, sat_u32(((uint64_t)sad(a, b, 8, 0) << 16) + d, clamp))
TRI(sad_u16, sat_u32((uint64_t)sad(a, b, 16, 0) + d, clamp))
TRI(sad_u32, sat_u32((uint64_t)sad(a, b, 32, 0) + d, clamp))
TRI(msad_u8, sat_u32((uint64_t)sad(a, b, 8, 1) + d, clamp))
TRI(xad_u32, (a ^ b) + d)
TRI(and_or_b32, (a & b) | d)

static uint32_t umin(uint32_t x, uint32_t y) { return x < y ? x : y; }
static uint32_t umax(uint32_t x, uint32_t y) { return x > y ? x : y; }
static int32_t smin(int32_t x, int32_t y) { return x < y ? x : y; }
static int32_t smax(int32_t x, int32_t y) { return x > y ? x : y; }
static uint32_t umed(uint32_t x, uint32_t y, uint32_t z) { return umax(umin(x, y), umin(umax(x, y), z)); }
static int32_t smed(int32_t x, int32_t y, int32_t z) { return smax(smin(x, y), smin(smax(x, y), z)); }

TRI(min3_u32, umin(umin(a, b), d))
TRI(max3_u32, umax(umax(a, b), d))
TRI(med3_u32, umed(a, b, d))
TRI(min3_i32, (uint32_t)smin(smin((int32_t)a, (int32_t)b), (int32_t)d))
TRI(max3_i32, (uint32_t)smax(smax((int32_t)a, (int32_t)b), (int32_t)d))
TRI(med3_i32, (uint32_t)smed((int32_t)a, (int32_t)b, (int32_t)d))

static uint32_t popcount(uint32_t v)
{
    uint32_t n = 0;
    for (; v; v &= v - 1u)
        n++;
    return n;
}
static uint32_t sat16u(uint32_t v) { return v > 0xFFFFu ? 0xFFFFu : v; }
static uint32_t sat16s(int32_t v) { return (uint32_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v) & 0xFFFFu; }

BIN(mul_hi_i32, (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32))
BIN(bcnt_u32_b32, popcount(a) + b)
BIN(bfm_b32, (uint32_t)(((1ull << (a & 31u)) - 1u) << (b & 31u)))
BIN(cvt_pk_u16_u32, sat16u(a) | sat16u(b) << 16)
BIN(cvt_pk_i16_i32, sat16s((int32_t)a) | sat16s((int32_t)b) << 16)
BIN(add_i32, sat_i32((int64_t)(int32_t)a + (int32_t)b, clamp))
BIN(sub_i32, sat_i32((int64_t)(int32_t)a - (int32_t)b, clamp))

/* ---- 64-bit integer ------------------------------------------------------------------------- */

/* v_lshlrev_b64 / v_lshrrev_b64 / v_ashrrev_i64: src1 shifted by src0[5:0]. */
static void shift64(sim_ctx *c, int kind)
{
    uint32_t s[NL];
    uint64_t v[NL], r[NL], ds, dv, ex = sim_exec(c);
    rd(c, 1, 0, s, &ds);
    rd64(c, 2, v, &dv);
    for (unsigned l = 0; l < NL; l++) {
        unsigned n = s[l] & 63u;
        r[l] = kind == 0 ? v[l] << n : kind == 1 ? v[l] >> n : (uint64_t)((int64_t)v[l] >> n);
    }
    wr64(c, r, ex, ds & dv);
}
static void op_lshlrev_b64(sim_ctx *c) { shift64(c, 0); }
static void op_lshrrev_b64(sim_ctx *c) { shift64(c, 1); }
static void op_ashrrev_i64(sim_ctx *c) { shift64(c, 2); }

/* v_lshl_add_u64: (src0 << src1[2:0]) + src2, modulo 2^64. */
static void op_lshl_add_u64(sim_ctx *c)
{
    uint32_t s[NL];
    uint64_t a[NL], d[NL], r[NL], da, ds, dd, ex = sim_exec(c);
    rd64(c, 1, a, &da);
    rd(c, 2, 0, s, &ds);
    rd64(c, 3, d, &dd);
    for (unsigned l = 0; l < NL; l++)
        r[l] = (a[l] << (s[l] & 7u)) + d[l];
    wr64(c, r, ex, da & ds & dd);
}

/* v_mad_u64_u32 / v_mad_i64_i32: {carry, vdst} = src0 * src1 + src2 (64-bit src2);
   sdst gets the carry out of the 64-bit sum per lane (unsigned: the 65th bit;
   signed: the sum does not fit in 64 signed bits), 0 in lanes EXEC leaves out.
   clamp saturates an overflowing result. */
static void mad64(sim_ctx *c, int sign)
{
    uint32_t a[NL], b[NL];
    uint64_t d[NL], r[NL], da, db, dd, ex = sim_exec(c), carry = 0;
    rd(c, 2, 0, a, &da);
    rd(c, 3, 0, b, &db);
    rd64(c, 4, d, &dd);
    int cl = clamp_on(c);
    for (unsigned l = 0; l < NL; l++) {
        if (!(ex >> l & 1u)) {
            r[l] = 0;
            continue;
        }
        int ovf;
        if (sign) {
            int64_t p = (int64_t)(int32_t)a[l] * (int32_t)b[l], s2 = (int64_t)d[l];
            uint64_t sum = (uint64_t)p + (uint64_t)s2;
            ovf = (p >= 0) == (s2 >= 0) && ((int64_t)sum >= 0) != (p >= 0);
            r[l] = ovf && cl ? (p >= 0 ? (uint64_t)INT64_MAX : (uint64_t)INT64_MIN) : sum;
        } else {
            uint64_t p = (uint64_t)a[l] * b[l], sum = p + d[l];
            ovf = sum < p;
            r[l] = ovf && cl ? ~0ull : sum;
        }
        if (ovf)
            carry |= 1ull << l;
    }
    uint64_t def = da & db & dd;
    wr64(c, r, ex, def);
    sim_write_s64(c, 1, carry, (def & ex) == ex);
}
static void op_mad_u64_u32(sim_ctx *c) { mad64(c, 0); }
static void op_mad_i64_i32(sim_ctx *c) { mad64(c, 1); }

/* ---- 16-bit integer and f16 with op_sel ----------------------------------------------------- */

typedef uint32_t (*h3_fn)(uint32_t a, uint32_t b, uint32_t d, int clamp);

/* Sources 0..n-1 as 16-bit halves chosen by op_sel (or 32-bit where `wide` has
   the source's bit); the 16-bit result lands in the half op_sel bit 3 names. */
static void run_half(sim_ctx *c, unsigned n, unsigned wide, int wide_result, h3_fn f)
{
    uint32_t s[3][NL], r[NL];
    uint64_t ds[3] = { SIM_ALL_LANES, SIM_ALL_LANES, SIM_ALL_LANES }, ex = sim_exec(c);
    unsigned os = opsel(c);
    if (!opsel_allowed(c, (wide_result ? 0u : 8u) | (((1u << n) - 1u) & ~wide)))
        return;
    for (unsigned k = 0; k < n; k++) {
        rd(c, k + 1, 0, s[k], &ds[k]);
        if (!(wide >> k & 1u))
            for (unsigned l = 0; l < NL; l++)
                s[k][l] = (os >> k & 1u) ? s[k][l] >> 16 : s[k][l] & 0xFFFFu;
    }
    for (unsigned k = n; k < 3; k++)
        memset(s[k], 0, sizeof(s[k]));
    int cl = clamp_on(c);
    uint32_t old[NL];
    uint64_t dold = SIM_ALL_LANES;
    if (os & 8u)
        rd(c, 0, 0, old, &dold);
    for (unsigned l = 0; l < NL; l++) {
        uint32_t v = ex >> l & 1u ? f(s[0][l], s[1][l], s[2][l], cl) : 0;
        if (wide_result)
            r[l] = v;
        else
            r[l] = (os & 8u) ? (old[l] & 0xFFFFu) | (v & 0xFFFFu) << 16 : v & 0xFFFFu;
    }
    sim_write_vec(c, 0, 0, r, ex, ds[0] & ds[1] & ds[2] & ((os & 8u) ? dold : SIM_ALL_LANES));
}

static uint32_t sat_u16(uint32_t v, int clamp) { return clamp && v > 0xFFFFu ? 0xFFFFu : v & 0xFFFFu; }
static uint32_t sat_i16(int32_t v, int clamp)
{
    if (clamp)
        return sat16s(v);
    return (uint32_t)v & 0xFFFFu;
}
static int32_t s16(uint32_t v) { return (int32_t)sext(v, 16); }

#define H3(name, n, wide, wres, expr)                                                       \
    static uint32_t fn_##name(uint32_t a, uint32_t b, uint32_t d, int clamp)                \
    {                                                                                       \
        (void)a; (void)b; (void)d; (void)clamp;                                             \
        return expr;                                                                        \
    }                                                                                       \
    static void op_##name(sim_ctx *c) { run_half(c, n, wide, wres, fn_##name); }

H3(mad_u16, 3, 0, 0, sat_u16(a * b + d, clamp))
H3(mad_i16, 3, 0, 0, sat_i16(s16(a) * s16(b) + s16(d), clamp))
H3(min3_u16, 3, 0, 0, umin(umin(a, b), d))
H3(max3_u16, 3, 0, 0, umax(umax(a, b), d))
H3(med3_u16, 3, 0, 0, umed(a, b, d))
H3(min3_i16, 3, 0, 0, (uint32_t)smin(smin(s16(a), s16(b)), s16(d)) & 0xFFFFu)
H3(max3_i16, 3, 0, 0, (uint32_t)smax(smax(s16(a), s16(b)), s16(d)) & 0xFFFFu)
H3(med3_i16, 3, 0, 0, (uint32_t)smed(s16(a), s16(b), s16(d)) & 0xFFFFu)
H3(add_i16, 2, 0, 0, sat_i16(s16(a) + s16(b), clamp))
H3(sub_i16, 2, 0, 0, sat_i16(s16(a) - s16(b), clamp))
/* 16 x 16 products with a 32-bit addend and result */
H3(mad_u32_u16, 3, 4, 1, sat_u32((uint64_t)a * b + d, clamp))
H3(mad_i32_i16, 3, 4, 1, sat_i32((int64_t)s16(a) * s16(b) + (int32_t)d, clamp))

/* f16: values are exact in f32; IEEE-mode min/max as for f32 (a signaling NaN
   gives it quieted, a quiet NaN the other operand, -0 below +0). */
static int h_nan(uint32_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu); }
static int h_snan(uint32_t h) { return h_nan(h) && !(h & 0x200u); }
static int h_less(uint32_t x, uint32_t y) /* x < y, neither NaN, -0 < +0 */
{
    float fx = sim_f16_to_f32((uint16_t)x), fy = sim_f16_to_f32((uint16_t)y);
    if (fx == fy)
        return (x & 0x8000u) && !(y & 0x8000u);
    return fx < fy;
}
static uint32_t h_minmax(uint32_t x, uint32_t y, int max)
{
    if (h_snan(x))
        return x | 0x200u;
    if (h_snan(y))
        return y | 0x200u;
    if (h_nan(x))
        return y;
    if (h_nan(y))
        return x;
    return (h_less(x, y) != 0) == (max != 0) ? y : x;
}
/* med3 (ISA): with a NaN operand the minimum of the three, else the middle one. */
static uint32_t h_med3(uint32_t x, uint32_t y, uint32_t z)
{
    if (h_nan(x) || h_nan(y) || h_nan(z))
        return h_minmax(h_minmax(x, y, 0), z, 0);
    uint32_t mx = h_minmax(h_minmax(x, y, 1), z, 1);
    if (mx == x)
        return h_minmax(y, z, 1);
    if (mx == y)
        return h_minmax(x, z, 1);
    return h_minmax(x, y, 1);
}
/* A double rounded once to f16 (nearest even; overflow to infinity). */
static uint32_t d_to_f16(double v)
{
    uint32_t sign = signbit(v) ? 0x8000u : 0u;
    double a = fabs(v);
    if (isnan(v))
        return sign | 0x7E00u;
    if (a >= 65520.0)
        return sign | 0x7C00u;
    if (a < 0x1p-14) /* subnormal: units of 2^-24 */
        return sign | (uint32_t)nearbyint(a * 0x1p24);
    int e;
    frexp(a, &e); /* a = m * 2^e, 0.5 <= m < 1 */
    double q = nearbyint(ldexp(a, 11 - e)); /* 1024 .. 2048 */
    if (q >= 2048.0) {
        q = 1024.0;
        e++;
    }
    if (e + 14 >= 31)
        return sign | 0x7C00u;
    return sign | (uint32_t)(e + 14) << 10 | ((uint32_t)q & 0x3FFu);
}
/* fma in f16: the product of two f16 is exact in double, the sum nearly always. */
static uint32_t h_fma(uint32_t x, uint32_t y, uint32_t z)
{
    double v = (double)sim_f16_to_f32((uint16_t)x) * sim_f16_to_f32((uint16_t)y) +
               sim_f16_to_f32((uint16_t)z);
    uint32_t r = d_to_f16(v);
    if (h_nan(x) || h_nan(y) || h_nan(z))
        r = 0x7E00u; /* the default quiet NaN */
    return r;
}

H3(min3_f16, 3, 0, 0, h_minmax(h_minmax(a, b, 0), d, 0))
H3(max3_f16, 3, 0, 0, h_minmax(h_minmax(a, b, 1), d, 1))
H3(med3_f16, 3, 0, 0, h_med3(a, b, d))
H3(fma_f16, 3, 0, 0, h_fma(a, b, d))

/* ---- f32 / f64 ------------------------------------------------------------------------------ */

static int f_nan(uint32_t a) { return (a & 0x7F800000u) == 0x7F800000u && (a & 0x7FFFFFu); }
static int f_snan(uint32_t a) { return f_nan(a) && !(a & 0x400000u); }
static int f_less(uint32_t x, uint32_t y)
{
    float fx = sim_f32(x), fy = sim_f32(y);
    if (fx == fy)
        return (x & 0x80000000u) && !(y & 0x80000000u);
    return fx < fy;
}
static uint32_t f_minmax(uint32_t x, uint32_t y, int max)
{
    if (f_snan(x))
        return x | 0x400000u;
    if (f_snan(y))
        return y | 0x400000u;
    if (f_nan(x))
        return y;
    if (f_nan(y))
        return x;
    return (f_less(x, y) != 0) == (max != 0) ? y : x;
}
static uint32_t f_med3(uint32_t x, uint32_t y, uint32_t z)
{
    if (f_nan(x) || f_nan(y) || f_nan(z))
        return f_minmax(f_minmax(x, y, 0), z, 0);
    uint32_t mx = f_minmax(f_minmax(x, y, 1), z, 1);
    if (mx == x)
        return f_minmax(y, z, 1);
    if (mx == y)
        return f_minmax(x, z, 1);
    return f_minmax(x, y, 1);
}
/* IEEE 754-2019 minimum/maximum: any NaN gives a quiet NaN, -0 below +0. */
static uint32_t f_minimum(uint32_t x, uint32_t y, int max)
{
    if (f_nan(x))
        return x | 0x400000u;
    if (f_nan(y))
        return y | 0x400000u;
    return (f_less(x, y) != 0) == (max != 0) ? y : x;
}
static uint32_t ldexp_f32(uint32_t a, uint32_t e)
{
    int32_t n = (int32_t)e;
    if (n > 1000)
        n = 1000;
    if (n < -1000)
        n = -1000;
    if (f_nan(a))
        return a | 0x400000u;
    return sim_f32_bits(ldexpf(sim_f32(a), n));
}
static uint32_t mul_legacy(uint32_t a, uint32_t b)
{
    /* 0 times anything (infinity, NaN) is +0 */
    if (!(a & 0x7FFFFFFFu) || !(b & 0x7FFFFFFFu))
        return 0;
    return sim_f32_bits(sim_f32(a) * sim_f32(b));
}

TRI(min3_f32, f_minmax(f_minmax(a, b, 0), d, 0))
TRI(max3_f32, f_minmax(f_minmax(a, b, 1), d, 1))
TRI(med3_f32, f_med3(a, b, d))
TRI(minimum3_f32, f_minimum(f_minimum(a, b, 0), d, 0))
TRI(maximum3_f32, f_minimum(f_minimum(a, b, 1), d, 1))
BIN(ldexp_f32, ldexp_f32(a, b))
BIN(mul_legacy_f32, mul_legacy(a, b))
BIN(cvt_pk_f16_f32, (uint32_t)sim_f32_to_f16(sim_f32(a)) | (uint32_t)sim_f32_to_f16(sim_f32(b)) << 16)

static int d_nan(uint64_t a) { return (a & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (a & 0xFFFFFFFFFFFFFull); }
static int d_snan(uint64_t a) { return d_nan(a) && !(a & 0x8000000000000ull); }
static double D(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof(d));
    return d;
}
static uint64_t DB(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof(b));
    return b;
}
static uint64_t d_minmax(uint64_t x, uint64_t y, int max)
{
    if (d_snan(x))
        return x | 0x8000000000000ull;
    if (d_snan(y))
        return y | 0x8000000000000ull;
    if (d_nan(x))
        return y;
    if (d_nan(y))
        return x;
    int less = D(x) == D(y) ? (x >> 63) && !(y >> 63) : D(x) < D(y);
    return (less != 0) == (max != 0) ? y : x;
}

/* v_min_f64 / v_max_f64 / v_ldexp_f64 */
static void f64_bin(sim_ctx *c, int kind)
{
    uint64_t a[NL], b[NL], r[NL], da, db, ex = sim_exec(c);
    rd64(c, 1, a, &da);
    if (kind == 2) {
        uint32_t e[NL];
        rd(c, 2, 0, e, &db);
        for (unsigned l = 0; l < NL; l++) {
            int32_t n = (int32_t)e[l];
            n = n > 5000 ? 5000 : n < -5000 ? -5000 : n;
            r[l] = d_nan(a[l]) ? a[l] | 0x8000000000000ull : DB(ldexp(D(a[l]), n));
        }
    } else {
        rd64(c, 2, b, &db);
        for (unsigned l = 0; l < NL; l++)
            r[l] = d_minmax(a[l], b[l], kind);
    }
    wr64(c, r, ex, da & db);
}
static void op_min_f64(sim_ctx *c) { f64_bin(c, 0); }
static void op_max_f64(sim_ctx *c) { f64_bin(c, 1); }
static void op_ldexp_f64(sim_ctx *c) { f64_bin(c, 2); }

/* ---- packing conversions -------------------------------------------------------------------- */

/* Float to a normalized integer: snorm16 = rne(clamp(x, -1, 1) * 32767), unorm16 =
   rne(clamp(x, 0, 1) * 65535); NaN gives 0. */
static uint32_t norm16(float x, int sign)
{
    if (isnan(x))
        return 0;
    double lo = sign ? -1.0 : 0.0, v = x < lo ? lo : x > 1.0 ? 1.0 : x;
    return (uint32_t)(int32_t)nearbyint(v * (sign ? 32767.0 : 65535.0)) & 0xFFFFu;
}
BIN(cvt_pknorm_i16_f32, norm16(sim_f32(a), 1) | norm16(sim_f32(b), 1) << 16)
BIN(cvt_pknorm_u16_f32, norm16(sim_f32(a), 0) | norm16(sim_f32(b), 0) << 16)

static uint32_t fn_pknorm_h(uint32_t a, uint32_t b, uint32_t d, int clamp, int sign)
{
    (void)d;
    (void)clamp;
    return norm16(sim_f16_to_f32((uint16_t)a), sign) | norm16(sim_f16_to_f32((uint16_t)b), sign) << 16;
}
static uint32_t fn_pknorm_i16_f16(uint32_t a, uint32_t b, uint32_t d, int cl) { return fn_pknorm_h(a, b, d, cl, 1); }
static uint32_t fn_pknorm_u16_f16(uint32_t a, uint32_t b, uint32_t d, int cl) { return fn_pknorm_h(a, b, d, cl, 0); }
static void op_cvt_pknorm_i16_f16(sim_ctx *c) { run_half(c, 2, 0, 1, fn_pknorm_i16_f16); }
static void op_cvt_pknorm_u16_f16(sim_ctx *c) { run_half(c, 2, 0, 1, fn_pknorm_u16_f16); }

/* f32 to an unsigned byte (round to nearest even, clamped to 0..255, NaN 0),
   placed in byte src1[1:0] of src2 (v_cvt_pk_u8_f32) or of vdst (pkaccum). */
static uint32_t to_u8(uint32_t a)
{
    float f = sim_f32(a);
    if (isnan(f) || f <= 0.0f)
        return 0;
    if (f >= 255.0f)
        return 255;
    return (uint32_t)nearbyintf(f);
}
TRI(cvt_pk_u8_f32, (d & ~(0xFFu << (8u * (b & 3u)))) | to_u8(a) << (8u * (b & 3u)))

static void op_cvt_pkaccum_u8_f32(sim_ctx *c)
{
    if (!opsel_allowed(c, 0))
        return;
    uint32_t a[NL], b[NL], d[NL], r[NL];
    uint64_t da, db, dd, ex = sim_exec(c);
    rd(c, 1, 0, a, &da);
    rd(c, 2, 0, b, &db);
    rd(c, 0, 0, d, &dd);
    for (unsigned l = 0; l < NL; l++)
        r[l] = fn_cvt_pk_u8_f32(a[l], b[l], d[l], 0);
    sim_write_vec(c, 0, 0, r, ex, da & db & dd);
}

/* v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32: two f32 to two 8-bit floats, packed into
   the low word of vdst (op_sel's destination bit: the high word); the other
   word keeps its bits. */
static void cvt_pk_f8(sim_ctx *c, int bf8)
{
    if (!opsel_allowed(c, 8u))
        return;
    uint32_t a[NL], b[NL], d[NL], r[NL];
    uint64_t da, db, dd, ex = sim_exec(c);
    rd(c, 1, 0, a, &da);
    rd(c, 2, 0, b, &db);
    rd(c, 0, 0, d, &dd);
    unsigned hi = (opsel(c) & 8u) ? 16u : 0u;
    for (unsigned l = 0; l < NL; l++) {
        uint32_t w = (uint32_t)sim_f32_to_f8(sim_f32(a[l]), bf8, c->sim->target) |
                     (uint32_t)sim_f32_to_f8(sim_f32(b[l]), bf8, c->sim->target) << 8;
        r[l] = (d[l] & ~(0xFFFFu << hi)) | w << hi;
    }
    sim_write_vec(c, 0, 0, r, ex, da & db & dd);
}
static void op_cvt_pk_fp8_f32(sim_ctx *c) { cvt_pk_f8(c, 0); }
static void op_cvt_pk_bf8_f32(sim_ctx *c) { cvt_pk_f8(c, 1); }

/* ---- tables --------------------------------------------------------------------------------- */

static const sim_fn vop3_fns[WA_OP_COUNT_] = {
    [WA_OP_V_MAD_I32_I24] = op_mad_i32_i24,
    [WA_OP_V_MAD_U32_U24] = op_mad_u32_u24,
    [WA_OP_V_BFE_I32] = op_bfe_i32,
    [WA_OP_V_LERP_U8] = op_lerp_u8,
    [WA_OP_V_ALIGNBIT_B32] = op_alignbit,
    [WA_OP_V_ALIGNBYTE_B32] = op_alignbyte,
    [WA_OP_V_MIN3_F32] = op_min3_f32,
    [WA_OP_V_MIN3_I32] = op_min3_i32,
    [WA_OP_V_MIN3_U32] = op_min3_u32,
    [WA_OP_V_MAX3_F32] = op_max3_f32,
    [WA_OP_V_MAX3_I32] = op_max3_i32,
    [WA_OP_V_MAX3_U32] = op_max3_u32,
    [WA_OP_V_MED3_F32] = op_med3_f32,
    [WA_OP_V_MED3_I32] = op_med3_i32,
    [WA_OP_V_MED3_U32] = op_med3_u32,
    [WA_OP_V_SAD_U8] = op_sad_u8,
    [WA_OP_V_SAD_HI_U8] = op_sad_hi_u8,
    [WA_OP_V_SAD_U16] = op_sad_u16,
    [WA_OP_V_SAD_U32] = op_sad_u32,
    [WA_OP_V_CVT_PK_U8_F32] = op_cvt_pk_u8_f32,
    [WA_OP_V_CVT_PK_FP8_F32] = op_cvt_pk_fp8_f32,
    [WA_OP_V_CVT_PK_BF8_F32] = op_cvt_pk_bf8_f32,
    [WA_OP_V_MSAD_U8] = op_msad_u8,
    [WA_OP_V_MAD_U64_U32] = op_mad_u64_u32,
    [WA_OP_V_MAD_I64_I32] = op_mad_i64_i32,
    [WA_OP_V_MAD_LEGACY_U16] = op_mad_u16,
    [WA_OP_V_MAD_LEGACY_I16] = op_mad_i16,
    [WA_OP_V_CVT_PKACCUM_U8_F32] = op_cvt_pkaccum_u8_f32,
    [WA_OP_V_MAD_U32_U16] = op_mad_u32_u16,
    [WA_OP_V_MAD_I32_I16] = op_mad_i32_i16,
    [WA_OP_V_XAD_U32] = op_xad_u32,
    [WA_OP_V_MIN3_F16] = op_min3_f16,
    [WA_OP_V_MIN3_I16] = op_min3_i16,
    [WA_OP_V_MIN3_U16] = op_min3_u16,
    [WA_OP_V_MAX3_F16] = op_max3_f16,
    [WA_OP_V_MAX3_I16] = op_max3_i16,
    [WA_OP_V_MAX3_U16] = op_max3_u16,
    [WA_OP_V_MED3_F16] = op_med3_f16,
    [WA_OP_V_MED3_I16] = op_med3_i16,
    [WA_OP_V_MED3_U16] = op_med3_u16,
    [WA_OP_V_AND_OR_B32] = op_and_or_b32,
    [WA_OP_V_MAD_U16] = op_mad_u16,
    [WA_OP_V_MAD_I16] = op_mad_i16,
    [WA_OP_V_FMA_F16] = op_fma_f16,
    [WA_OP_V_LSHL_ADD_U64] = op_lshl_add_u64,
    [WA_OP_V_MINIMUM3_F32] = op_minimum3_f32,
    [WA_OP_V_MAXIMUM3_F32] = op_maximum3_f32,
    [WA_OP_V_CVT_PK_F16_F32] = op_cvt_pk_f16_f32,
    [WA_OP_V_MIN_F64] = op_min_f64,
    [WA_OP_V_MAX_F64] = op_max_f64,
    [WA_OP_V_LDEXP_F64] = op_ldexp_f64,
    [WA_OP_V_MUL_HI_I32] = op_mul_hi_i32,
    [WA_OP_V_LDEXP_F32] = op_ldexp_f32,
    [WA_OP_V_BCNT_U32_B32] = op_bcnt_u32_b32,
    [WA_OP_V_LSHLREV_B64] = op_lshlrev_b64,
    [WA_OP_V_LSHRREV_B64] = op_lshrrev_b64,
    [WA_OP_V_ASHRREV_I64] = op_ashrrev_i64,
    [WA_OP_V_BFM_B32] = op_bfm_b32,
    [WA_OP_V_CVT_PKNORM_I16_F32] = op_cvt_pknorm_i16_f32,
    [WA_OP_V_CVT_PKNORM_U16_F32] = op_cvt_pknorm_u16_f32,
    [WA_OP_V_CVT_PK_U16_U32] = op_cvt_pk_u16_u32,
    [WA_OP_V_CVT_PK_I16_I32] = op_cvt_pk_i16_i32,
    [WA_OP_V_CVT_PKNORM_I16_F16] = op_cvt_pknorm_i16_f16,
    [WA_OP_V_CVT_PKNORM_U16_F16] = op_cvt_pknorm_u16_f16,
    [WA_OP_V_ADD_I32] = op_add_i32,
    [WA_OP_V_SUB_I32] = op_sub_i32,
    [WA_OP_V_ADD_I16] = op_add_i16,
    [WA_OP_V_SUB_I16] = op_sub_i16,
    [WA_OP_V_MUL_LEGACY_F32] = op_mul_legacy_f32,
};

sim_fn sim_vop3_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? vop3_fns[op] : NULL;
}

/* Integer clamp and op_sel are modelled by the operations above: the machine
   lets them through for these rows (sim_vop3_models). */
unsigned sim_vop3_models(unsigned op)
{
    if (op >= WA_OP_COUNT_ || !vop3_fns[op])
        return 0;
    const wa_isa_info *info = wa_isa_get(op);
    unsigned m = info->mods_ok & WA_MODOK_OPSEL;
    /* integer results: clamp saturates (float results: the machine's output modifiers) */
    wa_data_type t = (wa_data_type)info->operands[0].type;
    if (t == WA_TY_B32 || t == WA_TY_B16 || t == WA_TY_B64)
        m |= info->mods_ok & WA_MODOK_CLAMP;
    return m;
}

#define SR "stochastic rounding: which bits of the random operand decide the rounding is not documented"
#define SCALE "scaled fp8/bf8/fp6/fp4 conversion (gfx950): not modelled yet"
static const char *const vop3_why[WA_OP_COUNT_] = {
    [WA_OP_V_MAD_LEGACY_F32] = "unfused multiply-add: its intermediate rounding and denormal flushing are not modelled",
    [WA_OP_V_MAD_F32] = "unfused multiply-add: its intermediate rounding and denormal flushing are not modelled",
    [WA_OP_V_MAD_F16] = "unfused multiply-add: its intermediate rounding and denormal flushing are not modelled",
    [WA_OP_V_MAD_LEGACY_F16] = "unfused multiply-add: its intermediate rounding and denormal flushing are not modelled",
    [WA_OP_V_FMA_LEGACY_F16] = "legacy f16 fma (gfx8 behaviour of the high half): not modelled",
    [WA_OP_V_CUBEID_F32] = "cube-map face selection (graphics helper): not modelled",
    [WA_OP_V_CUBESC_F32] = "cube-map coordinate (graphics helper): not modelled",
    [WA_OP_V_CUBETC_F32] = "cube-map coordinate (graphics helper): not modelled",
    [WA_OP_V_CUBEMA_F32] = "cube-map major axis (graphics helper): not modelled",
    [WA_OP_V_DIV_FIXUP_F64] = "f64 division helpers: not modelled",
    [WA_OP_V_DIV_SCALE_F64] = "f64 division helpers: not modelled",
    [WA_OP_V_DIV_FMAS_F64] = "f64 division helpers: not modelled",
    [WA_OP_V_DIV_FIXUP_F16] = "f16 division fix-up: its special-case table is not modelled",
    [WA_OP_V_DIV_FIXUP_LEGACY_F16] = "f16 division fix-up: its special-case table is not modelled",
    [WA_OP_V_QSAD_PK_U16_U8] = "quad SAD over sliding byte windows: not modelled",
    [WA_OP_V_MQSAD_PK_U16_U8] = "masked quad SAD over sliding byte windows: not modelled",
    [WA_OP_V_MQSAD_U32_U8] = "masked quad SAD over sliding byte windows: not modelled",
    [WA_OP_V_TRIG_PREOP_F64] = "trig_preop reads the hardware's 2/pi table: not modelled",
    [WA_OP_V_BITOP3_B16] = "bitop3: the table has no bitop3 modifier yet (every instance computes function 0)",
    [WA_OP_V_BITOP3_B32] = "bitop3: the table has no bitop3 modifier yet (every instance computes function 0)",
    [WA_OP_V_ASHR_PK_I8_I32] = "packed shift-and-saturate to bytes (gfx950): not modelled yet",
    [WA_OP_V_ASHR_PK_U8_I32] = "packed shift-and-saturate to bytes (gfx950): not modelled yet",
    [WA_OP_V_CVT_SR_FP8_F32] = SR,
    [WA_OP_V_CVT_SR_BF8_F32] = SR,
    [WA_OP_V_CVT_SR_F16_F32] = SR,
    [WA_OP_V_CVT_SR_BF16_F32] = SR,
    [WA_OP_V_CVT_SCALEF32_PK_FP8_F32] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_BF8_F32] = SCALE,
    [WA_OP_V_CVT_SCALEF32_SR_FP8_F32] = SR,
    [WA_OP_V_CVT_SCALEF32_SR_BF8_F32] = SR,
    [WA_OP_V_CVT_SCALEF32_PK_F32_FP8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_F32_BF8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_F32_FP8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_F32_BF8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_FP4_F32] = SCALE,
    [WA_OP_V_CVT_SCALEF32_SR_PK_FP4_F32] = SR,
    [WA_OP_V_CVT_SCALEF32_PK_F32_FP4] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_FP8_F16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_BF8_F16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_SR_FP8_F16] = SR,
    [WA_OP_V_CVT_SCALEF32_SR_BF8_F16] = SR,
    [WA_OP_V_CVT_SCALEF32_PK_FP8_BF16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_BF8_BF16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_SR_FP8_BF16] = SR,
    [WA_OP_V_CVT_SCALEF32_SR_BF8_BF16] = SR,
    [WA_OP_V_CVT_SCALEF32_PK_F16_FP8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_F16_BF8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_F16_FP8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_F16_BF8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_FP4_F16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_FP4_BF16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_SR_PK_FP4_F16] = SR,
    [WA_OP_V_CVT_SCALEF32_SR_PK_FP4_BF16] = SR,
    [WA_OP_V_CVT_SCALEF32_PK_F16_FP4] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_BF16_FP4] = SCALE,
    [WA_OP_V_CVT_SCALEF32_2XPK16_FP6_F32] = SCALE,
    [WA_OP_V_CVT_SCALEF32_2XPK16_BF6_F32] = SCALE,
    [WA_OP_V_CVT_SCALEF32_SR_PK32_FP6_F32] = SR,
    [WA_OP_V_CVT_SCALEF32_SR_PK32_BF6_F32] = SR,
    [WA_OP_V_CVT_SCALEF32_PK32_F32_FP6] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK32_F32_BF6] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK32_FP6_F16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK32_FP6_BF16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK32_BF6_F16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK32_BF6_BF16] = SCALE,
    [WA_OP_V_CVT_SCALEF32_SR_PK32_FP6_F16] = SR,
    [WA_OP_V_CVT_SCALEF32_SR_PK32_FP6_BF16] = SR,
    [WA_OP_V_CVT_SCALEF32_SR_PK32_BF6_F16] = SR,
    [WA_OP_V_CVT_SCALEF32_SR_PK32_BF6_BF16] = SR,
    [WA_OP_V_CVT_SCALEF32_PK32_F16_FP6] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK32_BF16_FP6] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK32_F16_BF6] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK32_BF16_BF6] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_BF16_FP8] = SCALE,
    [WA_OP_V_CVT_SCALEF32_PK_BF16_BF8] = SCALE,
};

const char *sim_vop3_why_not(unsigned op)
{
    return op < WA_OP_COUNT_ ? vop3_why[op] : NULL;
}
