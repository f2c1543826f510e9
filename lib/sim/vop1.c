/* lib/sim/vop1.c — VOP1 semantics (one source; their VOP3, DPP and SDWA forms).

   Lanes outside EXEC keep their values; a result lane is defined when its source
   lane is. Source and output modifiers (abs, neg, clamp, omod, SDWA) are applied
   by the operand helpers (vmods.c). 16-bit results leave the high half of the
   destination zero (the GFX9 behaviour of the VOP1/VOP2 16-bit operations).
   Float results are the host's IEEE operations in round-to-nearest with denormals
   kept (the mode the kernel descriptor sets); transcendental results are
   correctly rounded here where the hardware may differ by an ulp or so. Some of
   v_mov_b32, v_not_b32, the f16/f32 and u32/i32 conversions, rcp/exp/log/sqrt,
   readfirstlane, the accumulation move and the lane swaps are in alu.c. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

typedef uint32_t (*un_fn)(uint32_t a);

static float F(uint32_t b) { return sim_f32(b); }
static uint32_t B(float f) { return sim_f32_bits(f); }
static float H(uint32_t b) { return sim_f16_to_f32((uint16_t)b); }
static uint32_t HB(float f) { return sim_f32_to_f16(f); }

static void v_un(sim_ctx *c, un_fn f)
{
    uint32_t a[SIM_LANES], r[SIM_LANES];
    uint64_t da, ex = sim_exec(c);
    sim_read_vec(c, 1, 0, a, &da);
    for (unsigned l = 0; l < SIM_LANES; l++)
        r[l] = ex >> l & 1u ? f(a[l]) : 0;
    sim_write_vec(c, 0, 0, r, ex, da);
}

#define VUN(name, expr)                                     \
    static uint32_t fn_##name(uint32_t a) { return expr; } \
    static void op_##name(sim_ctx *c) { v_un(c, fn_##name); }

/* ---- 64-bit values --------------------------------------------------------------------- */

static void read64(sim_ctx *c, unsigned k, uint64_t out[SIM_LANES], uint64_t *def)
{
    uint32_t lo[SIM_LANES], hi[SIM_LANES];
    uint64_t dl, dh;
    sim_read_vec(c, k, 0, lo, &dl);
    if (sim_opnd_count(c, k) >= 2 || c->in->ops[k].kind != WA_OPND_IMM) {
        sim_read_vec(c, k, 1, hi, &dh);
    } else { /* a 32-bit constant in a 64-bit position: its 64-bit value */
        for (unsigned l = 0; l < SIM_LANES; l++)
            hi[l] = 0;
        dh = dl;
    }
    for (unsigned l = 0; l < SIM_LANES; l++)
        out[l] = (uint64_t)hi[l] << 32 | lo[l];
    *def = dl & dh;
}

static void write64(sim_ctx *c, const uint64_t v[SIM_LANES], uint64_t lanes, uint64_t def)
{
    uint32_t lo[SIM_LANES], hi[SIM_LANES];
    for (unsigned l = 0; l < SIM_LANES; l++) {
        lo[l] = (uint32_t)v[l];
        hi[l] = (uint32_t)(v[l] >> 32);
    }
    sim_write_vec(c, 0, 0, lo, lanes, def);
    sim_write_vec(c, 0, 1, hi, lanes, def);
}

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

/* Source and destination widths of the row decide how the lanes are read and
   written: a 64-bit operand is a register pair. */
typedef uint64_t (*un64_fn)(uint64_t a);
static void v_un64(sim_ctx *c, un64_fn f)
{
    uint64_t a[SIM_LANES], r[SIM_LANES], da, ex = sim_exec(c);
    if (c->info->operands[1].size == 2) {
        read64(c, 1, a, &da);
    } else {
        uint32_t a32[SIM_LANES];
        sim_read_vec(c, 1, 0, a32, &da);
        for (unsigned l = 0; l < SIM_LANES; l++)
            a[l] = a32[l];
    }
    for (unsigned l = 0; l < SIM_LANES; l++)
        r[l] = ex >> l & 1u ? f(a[l]) : 0;
    if (c->info->operands[0].size == 2) {
        write64(c, r, ex, da);
    } else {
        uint32_t r32[SIM_LANES];
        for (unsigned l = 0; l < SIM_LANES; l++)
            r32[l] = (uint32_t)r[l];
        sim_write_vec(c, 0, 0, r32, ex, da);
    }
}

#define VUN64(name, expr)                                   \
    static uint64_t fn_##name(uint64_t a) { return expr; } \
    static void op_##name(sim_ctx *c) { v_un64(c, fn_##name); }

/* ---- conversions ------------------------------------------------------------------------ */

/* Float to integer: NaN gives 0, out-of-range values saturate, the rest truncate
   toward zero (the ISA's conversions). */
static uint32_t to_i32(double f)
{
    if (isnan(f))
        return 0;
    if (f >= 2147483647.0)
        return 0x7FFFFFFFu;
    if (f <= -2147483648.0)
        return 0x80000000u;
    return (uint32_t)(int32_t)f;
}
static uint32_t to_u32(double f)
{
    if (isnan(f) || f <= 0.0)
        return 0;
    if (f >= 4294967295.0)
        return 0xFFFFFFFFu;
    return (uint32_t)f;
}
static uint32_t to_i16(double f)
{
    if (isnan(f))
        return 0;
    if (f >= 32767.0)
        return 0x7FFFu;
    if (f <= -32768.0)
        return 0x8000u;
    return (uint32_t)(uint16_t)(int16_t)f;
}
static uint32_t to_u16(double f)
{
    if (isnan(f) || f <= 0.0)
        return 0;
    if (f >= 65535.0)
        return 0xFFFFu;
    return (uint32_t)f;
}

/* A double rounded to f32 (nearest even); out-of-range goes to infinity (the C
   conversion of such a value is undefined). */
static float d2f(double v)
{
    if (isnan(v))
        return (float)v;
    if (fabs(v) >= 0x1.ffffffp+127)
        return v < 0 ? -INFINITY : INFINITY;
    return (float)v;
}

/* A 4-bit signed value in [-8, 7] scaled by 1/16. */
static uint32_t cvt_off_i4(uint32_t a)
{
    int v = (int)(a & 15u);
    return B((float)(v >= 8 ? v - 16 : v) / 16.0f);
}

/* 8-bit floats: E5M2 (`bf8`): gfx942 FNUZ (bias 16, 0x80 is NaN, no inf, no -0),
   gfx950 OCP (bias 15, IEEE infinities and NaNs). E4M3 is fpconv.c's. */
static float bf8_to_f32(uint8_t v, wa_target t)
{
    unsigned sign = v >> 7, exp = (v >> 2) & 31u, man = v & 3u;
    int bias = t == WA_TARGET_GFX950 ? 15 : 16;
    float f;
    if (t == WA_TARGET_GFX950) {
        if (exp == 31)
            return man ? NAN : sign ? -INFINITY : INFINITY;
    } else if (v == 0x80) {
        return NAN;
    }
    f = exp ? ldexpf(1.0f + (float)man / 4.0f, (int)exp - bias)
            : ldexpf((float)man / 4.0f, 1 - bias);
    return sign ? -f : f;
}

static void cvt_f8(sim_ctx *c, int bf8, int packed)
{
    uint32_t a[SIM_LANES], r0[SIM_LANES], r1[SIM_LANES];
    uint64_t da, ex = sim_exec(c);
    wa_target t = c->sim->target;
    sim_read_vec(c, 1, 0, a, &da);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint8_t b0 = (uint8_t)a[l], b1 = (uint8_t)(a[l] >> 8);
        r0[l] = B(bf8 ? bf8_to_f32(b0, t) : sim_fp8_to_f32(b0, t));
        r1[l] = B(bf8 ? bf8_to_f32(b1, t) : sim_fp8_to_f32(b1, t));
    }
    sim_write_vec(c, 0, 0, r0, ex, da);
    if (packed)
        sim_write_vec(c, 0, 1, r1, ex, da);
}
static void op_cvt_f32_fp8(sim_ctx *c) { cvt_f8(c, 0, 0); }
static void op_cvt_f32_bf8(sim_ctx *c) { cvt_f8(c, 1, 0); }
static void op_cvt_pk_f32_fp8(sim_ctx *c) { cvt_f8(c, 0, 1); }
static void op_cvt_pk_f32_bf8(sim_ctx *c) { cvt_f8(c, 1, 1); }

/* ---- rounding and parts ------------------------------------------------------------------ */

/* fract: x - floor(x), below 1.0 (the largest float under 1 for tiny negative x);
   infinities give NaN, NaN stays NaN. */
static float fract_f32(float x)
{
    if (isinf(x))
        return NAN;
    float r = x - floorf(x);
    return r >= 1.0f ? 0x1.fffffep-1f : r;
}
static double fract_f64(double x)
{
    if (isinf(x))
        return NAN;
    double r = x - floor(x);
    return r >= 1.0 ? 0x1.fffffffffffffp-1 : r;
}
static float fract_f16(float x)
{
    if (isinf(x))
        return NAN;
    float r = x - floorf(x);
    return sim_f16_to_f32(sim_f32_to_f16(r)) >= 1.0f ? 0x1.ffcp-1f : r;
}

/* frexp: the mantissa in [0.5, 1) and the exponent; infinities and NaN give
   themselves as mantissa and 0 as exponent. */
static float mant_f(float x)
{
    int e;
    return isinf(x) || isnan(x) ? x : frexpf(x, &e);
}
static int exp_f(double x)
{
    int e = 0;
    if (isinf(x) || isnan(x))
        return 0;
    frexp(x, &e);
    return e;
}
static double mant_d(double x)
{
    int e;
    return isinf(x) || isnan(x) ? x : frexp(x, &e);
}

static float rne_f32(float x) { return nearbyintf(x); }
static double rne_f64(double x) { return nearbyint(x); }

/* sin/cos take the angle in revolutions (x * 2 pi radians). */
static float sin_rev(float x) { return d2f(sin((double)x * 6.283185307179586)); }
static float cos_rev(float x) { return d2f(cos((double)x * 6.283185307179586)); }

/* ---- bits ---------------------------------------------------------------------------------- */

static uint32_t bfrev(uint32_t a)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i++)
        r |= ((a >> i) & 1u) << (31 - i);
    return r;
}
/* first one from the MSB (-1 if none) */
static uint32_t ffbh_u(uint32_t a)
{
    for (unsigned i = 0; i < 32; i++)
        if (a >> (31 - i) & 1u)
            return i;
    return 0xFFFFFFFFu;
}
/* first one from the LSB (-1 if none) */
static uint32_t ffbl(uint32_t a)
{
    for (unsigned i = 0; i < 32; i++)
        if (a >> i & 1u)
            return i;
    return 0xFFFFFFFFu;
}
/* first bit that differs from the sign, from the MSB (-1 for 0 and -1) */
static uint32_t ffbh_i(uint32_t a)
{
    uint32_t s = a >> 31;
    for (unsigned i = 1; i < 32; i++)
        if ((a >> (31 - i) & 1u) != s)
            return i;
    return 0xFFFFFFFFu;
}
/* two signed 16-bit halves saturated to unsigned bytes */
static uint32_t sat_u8(int16_t v) { return v < 0 ? 0 : v > 255 ? 255u : (uint32_t)v; }

/* ---- the operations ------------------------------------------------------------------------ */

static void op_nop(sim_ctx *c) { (void)c; }

VUN(cvt_i32_f32, to_i32(F(a)))
VUN(cvt_rpi_i32_f32, to_i32(floor((double)F(a) + 0.5)))
VUN(cvt_flr_i32_f32, to_i32(floor((double)F(a))))
VUN(cvt_off_f32_i4, cvt_off_i4(a))
VUN(cvt_f32_ubyte0, B((float)(a & 0xFFu)))
VUN(cvt_f32_ubyte1, B((float)((a >> 8) & 0xFFu)))
VUN(cvt_f32_ubyte2, B((float)((a >> 16) & 0xFFu)))
VUN(cvt_f32_ubyte3, B((float)(a >> 24)))
VUN(fract_f32, B(fract_f32(F(a))))
VUN(trunc_f32, B(truncf(F(a))))
VUN(ceil_f32, B(ceilf(F(a))))
VUN(rndne_f32, B(rne_f32(F(a))))
VUN(floor_f32, B(floorf(F(a))))
VUN(rsq_f32, B(d2f(1.0 / sqrt((double)F(a)))))
VUN(sin_f32, B(sin_rev(F(a))))
VUN(cos_f32, B(cos_rev(F(a))))
VUN(bfrev, bfrev(a))
VUN(ffbh_u32, ffbh_u(a))
VUN(ffbl_b32, ffbl(a))
VUN(ffbh_i32, ffbh_i(a))
VUN(frexp_exp_i32_f32, (uint32_t)exp_f(F(a)))
VUN(frexp_mant_f32, B(mant_f(F(a))))
VUN(cvt_f16_u16, HB((float)(a & 0xFFFFu)))
VUN(cvt_f16_i16, HB((float)(int16_t)a))
VUN(cvt_u16_f16, to_u16(H(a)))
VUN(cvt_i16_f16, to_i16(H(a)))
VUN(rcp_f16, HB(d2f(1.0 / H(a))))
VUN(sqrt_f16, HB(sqrtf(H(a))))
VUN(rsq_f16, HB(d2f(1.0 / sqrt((double)H(a)))))
VUN(log_f16, HB(log2f(H(a))))
VUN(exp_f16, HB(exp2f(H(a))))
VUN(frexp_mant_f16, HB(mant_f(H(a))))
VUN(frexp_exp_i16_f16, (uint32_t)(uint16_t)(int16_t)exp_f(H(a)))
VUN(floor_f16, HB(floorf(H(a))))
VUN(ceil_f16, HB(ceilf(H(a))))
VUN(trunc_f16, HB(truncf(H(a))))
VUN(rndne_f16, HB(rne_f32(H(a))))
VUN(fract_f16, HB(fract_f16(H(a))))
VUN(sin_f16, HB(sin_rev(H(a))))
VUN(cos_f16, HB(cos_rev(H(a))))
VUN(sat_pk_u8_i16, sat_u8((int16_t)a) | sat_u8((int16_t)(a >> 16)) << 8)
VUN(cvt_f32_bf16, a << 16)
VUN(rcp_iflag_f32, B(1.0f / F(a)))

VUN64(cvt_i32_f64, to_i32(D(a)))
VUN64(cvt_u32_f64, to_u32(D(a)))
VUN64(cvt_f64_i32, DB((double)(int32_t)(uint32_t)a))
VUN64(cvt_f64_u32, DB((double)(uint32_t)a))
VUN64(cvt_f32_f64, B(d2f(D(a))))
VUN64(cvt_f64_f32, DB((double)F((uint32_t)a)))
VUN64(trunc_f64, DB(trunc(D(a))))
VUN64(ceil_f64, DB(ceil(D(a))))
VUN64(rndne_f64, DB(rne_f64(D(a))))
VUN64(floor_f64, DB(floor(D(a))))
VUN64(rcp_f64, DB(1.0 / D(a)))
VUN64(rsq_f64, DB(1.0 / sqrt(D(a))))
VUN64(sqrt_f64, DB(sqrt(D(a))))
VUN64(frexp_exp_i32_f64, (uint32_t)exp_f(D(a)))
VUN64(frexp_mant_f64, DB(mant_d(D(a))))
VUN64(fract_f64, DB(fract_f64(D(a))))
VUN64(mov_b64, a)

/* v_swap_b32: vdst and src0 exchange their values in the active lanes. */
static void op_swap(sim_ctx *c)
{
    uint32_t a[SIM_LANES], b[SIM_LANES];
    uint64_t da, db, ex = sim_exec(c);
    sim_read_vec(c, 0, 0, a, &da);
    sim_read_vec(c, 1, 0, b, &db);
    sim_write_vec(c, 0, 0, b, ex, db);
    /* operand 1 is written too: the same register file helper */
    sim_write_vec(c, 1, 0, a, ex, da);
}

static const sim_fn vop1_fns[WA_OP_COUNT_] = {
    [WA_OP_V_NOP] = op_nop,
    [WA_OP_V_CLREXCP] = op_nop, /* exception bits are not modelled */
    [WA_OP_V_CVT_I32_F64] = op_cvt_i32_f64,
    [WA_OP_V_CVT_F64_I32] = op_cvt_f64_i32,
    [WA_OP_V_CVT_I32_F32] = op_cvt_i32_f32,
    [WA_OP_V_CVT_RPI_I32_F32] = op_cvt_rpi_i32_f32,
    [WA_OP_V_CVT_FLR_I32_F32] = op_cvt_flr_i32_f32,
    [WA_OP_V_CVT_OFF_F32_I4] = op_cvt_off_f32_i4,
    [WA_OP_V_CVT_F32_F64] = op_cvt_f32_f64,
    [WA_OP_V_CVT_F64_F32] = op_cvt_f64_f32,
    [WA_OP_V_CVT_F32_UBYTE0] = op_cvt_f32_ubyte0,
    [WA_OP_V_CVT_F32_UBYTE1] = op_cvt_f32_ubyte1,
    [WA_OP_V_CVT_F32_UBYTE2] = op_cvt_f32_ubyte2,
    [WA_OP_V_CVT_F32_UBYTE3] = op_cvt_f32_ubyte3,
    [WA_OP_V_CVT_U32_F64] = op_cvt_u32_f64,
    [WA_OP_V_CVT_F64_U32] = op_cvt_f64_u32,
    [WA_OP_V_TRUNC_F64] = op_trunc_f64,
    [WA_OP_V_CEIL_F64] = op_ceil_f64,
    [WA_OP_V_RNDNE_F64] = op_rndne_f64,
    [WA_OP_V_FLOOR_F64] = op_floor_f64,
    [WA_OP_V_FRACT_F32] = op_fract_f32,
    [WA_OP_V_TRUNC_F32] = op_trunc_f32,
    [WA_OP_V_CEIL_F32] = op_ceil_f32,
    [WA_OP_V_RNDNE_F32] = op_rndne_f32,
    [WA_OP_V_FLOOR_F32] = op_floor_f32,
    [WA_OP_V_RCP_IFLAG_F32] = op_rcp_iflag_f32,
    [WA_OP_V_RSQ_F32] = op_rsq_f32,
    [WA_OP_V_RCP_F64] = op_rcp_f64,
    [WA_OP_V_RSQ_F64] = op_rsq_f64,
    [WA_OP_V_SQRT_F64] = op_sqrt_f64,
    [WA_OP_V_SIN_F32] = op_sin_f32,
    [WA_OP_V_COS_F32] = op_cos_f32,
    [WA_OP_V_BFREV_B32] = op_bfrev,
    [WA_OP_V_FFBH_U32] = op_ffbh_u32,
    [WA_OP_V_FFBL_B32] = op_ffbl_b32,
    [WA_OP_V_FFBH_I32] = op_ffbh_i32,
    [WA_OP_V_FREXP_EXP_I32_F64] = op_frexp_exp_i32_f64,
    [WA_OP_V_FREXP_MANT_F64] = op_frexp_mant_f64,
    [WA_OP_V_FRACT_F64] = op_fract_f64,
    [WA_OP_V_FREXP_EXP_I32_F32] = op_frexp_exp_i32_f32,
    [WA_OP_V_FREXP_MANT_F32] = op_frexp_mant_f32,
    [WA_OP_V_MOV_B64] = op_mov_b64,
    [WA_OP_V_CVT_F16_U16] = op_cvt_f16_u16,
    [WA_OP_V_CVT_F16_I16] = op_cvt_f16_i16,
    [WA_OP_V_CVT_U16_F16] = op_cvt_u16_f16,
    [WA_OP_V_CVT_I16_F16] = op_cvt_i16_f16,
    [WA_OP_V_RCP_F16] = op_rcp_f16,
    [WA_OP_V_SQRT_F16] = op_sqrt_f16,
    [WA_OP_V_RSQ_F16] = op_rsq_f16,
    [WA_OP_V_LOG_F16] = op_log_f16,
    [WA_OP_V_EXP_F16] = op_exp_f16,
    [WA_OP_V_FREXP_MANT_F16] = op_frexp_mant_f16,
    [WA_OP_V_FREXP_EXP_I16_F16] = op_frexp_exp_i16_f16,
    [WA_OP_V_FLOOR_F16] = op_floor_f16,
    [WA_OP_V_CEIL_F16] = op_ceil_f16,
    [WA_OP_V_TRUNC_F16] = op_trunc_f16,
    [WA_OP_V_RNDNE_F16] = op_rndne_f16,
    [WA_OP_V_FRACT_F16] = op_fract_f16,
    [WA_OP_V_SIN_F16] = op_sin_f16,
    [WA_OP_V_COS_F16] = op_cos_f16,
    [WA_OP_V_SAT_PK_U8_I16] = op_sat_pk_u8_i16,
    [WA_OP_V_SWAP_B32] = op_swap,
    [WA_OP_V_CVT_F32_FP8] = op_cvt_f32_fp8,
    [WA_OP_V_CVT_F32_BF8] = op_cvt_f32_bf8,
    [WA_OP_V_CVT_PK_F32_FP8] = op_cvt_pk_f32_fp8,
    [WA_OP_V_CVT_PK_F32_BF8] = op_cvt_pk_f32_bf8,
    [WA_OP_V_CVT_F32_BF16] = op_cvt_f32_bf16,
};

sim_fn sim_vop1_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? vop1_fns[op] : NULL;
}

static const char *const vop1_why[WA_OP_COUNT_] = {
    [WA_OP_V_EXP_LEGACY_F32] = "the legacy exp special cases (denormal and infinite inputs) are not documented",
    [WA_OP_V_LOG_LEGACY_F32] = "the legacy log special cases (zero, denormal and infinite inputs) are not documented",
    [WA_OP_V_CVT_NORM_I16_F16] = "the rounding of the normalized 16-bit conversion is not documented",
    [WA_OP_V_CVT_NORM_U16_F16] = "the rounding of the normalized 16-bit conversion is not documented",
    [WA_OP_V_PRNG_B32] = "the pseudo-random generator's polynomial is not documented",
};

const char *sim_vop1_why_not(unsigned op)
{
    return op < WA_OP_COUNT_ ? vop1_why[op] : NULL;
}
