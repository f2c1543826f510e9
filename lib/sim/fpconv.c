/* lib/sim/fpconv.c — float formats: f32 bit casts, f16 and bf16 with round to
   nearest even (and f16 toward zero), and the 8-bit E4M3 formats of the targets. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

float sim_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

uint32_t sim_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

float sim_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
    if (exp == 0x1F) /* inf / NaN (payload kept, quieted) */
        return sim_f32(sign | 0x7F800000u | man << 13 | (man ? 0x400000u : 0));
    if (exp == 0) {
        if (!man)
            return sim_f32(sign);
        float f = (float)man * 5.9604644775390625e-08f; /* man * 2^-24, exact */
        return sign ? -f : f;
    }
    return sim_f32(sign | (exp + 112u) << 23 | man << 13);
}

/* f32 -> f16 with rounding `rtz` (toward zero) or to nearest even. */
static uint16_t to_f16(float f, int rtz)
{
    uint32_t b = sim_f32_bits(f);
    uint16_t sign = (uint16_t)((b >> 16) & 0x8000u);
    uint32_t exp = (b >> 23) & 0xFFu, man = b & 0x7FFFFFu;
    if (exp == 0xFF)
        return (uint16_t)(sign | 0x7C00u | (man ? 0x200u | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31) /* overflow: inf, or the largest finite toward zero */
        return (uint16_t)(sign | (rtz ? 0x7BFFu : 0x7C00u));
    uint32_t m = man | 0x800000u; /* 24 bits with the implicit one */
    unsigned shift;
    if (e <= 0) {
        if (e < -10)
            return rtz ? sign : sign; /* below half the smallest subnormal: 0 */
        shift = (unsigned)(14 - e); /* subnormal: mantissa shifted right further */
    } else {
        shift = 13;
    }
    uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    if (!rtz && (rem > halfway || (rem == halfway && (q & 1u))))
        q++;
    if (e <= 0)
        return (uint16_t)(sign | q); /* q may carry into the smallest normal: fine */
    uint32_t r = ((uint32_t)e << 10) + (q - 0x400u);
    if (r >= 0x7C00u) /* rounding carried into infinity */
        return (uint16_t)(sign | (rtz ? 0x7BFFu : 0x7C00u));
    return (uint16_t)(sign | r);
}

uint16_t sim_f32_to_f16(float f) { return to_f16(f, 0); }
uint16_t sim_f32_to_f16_rtz(float f) { return to_f16(f, 1); }

float sim_bf16_to_f32(uint16_t h) { return sim_f32((uint32_t)h << 16); }

uint16_t sim_f32_to_bf16(float f)
{
    uint32_t b = sim_f32_bits(f);
    if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu))
        return (uint16_t)((b >> 16) | 0x40u); /* quiet NaN */
    uint32_t round = 0x7FFFu + ((b >> 16) & 1u);
    return (uint16_t)((b + round) >> 16);
}

float sim_fp8_to_f32(uint8_t v, wa_target target)
{
    unsigned sign = v >> 7, exp = (v >> 3) & 0xFu, man = v & 7u;
    if (target == WA_TARGET_GFX950) { /* OCP E4M3FN: bias 7, S.1111.111 is NaN, no inf */
        if (exp == 15 && man == 7)
            return NAN;
        float f = exp ? ldexpf(1.0f + (float)man / 8.0f, (int)exp - 7) : ldexpf((float)man / 8.0f, -6);
        return sign ? -f : f;
    }
    /* gfx942: E4M3FNUZ: bias 8, 0x80 is NaN, no negative zero, no inf */
    if (v == 0x80)
        return NAN;
    float f = exp ? ldexpf(1.0f + (float)man / 8.0f, (int)exp - 8) : ldexpf((float)man / 8.0f, -7);
    return sign ? -f : f;
}

/* f32 to fp8 (bf8 = 0: E4M3, 1: E5M2) of the target's flavour, rounding to
   nearest even: gfx942's FNUZ formats (bias 8 / 16, 0x80 the only NaN, no
   infinity, no negative zero) or gfx950's OCP formats (E4M3FN: bias 7, S.1111.111
   NaN, no infinity; E5M2: bias 15, IEEE-like infinities and NaNs). A value beyond
   the largest finite one becomes NaN (E5M2 on gfx950: infinity): the conversions
   have no clamp bit, and the non-saturating truncation of LLVM and MLIR relies on
   that. */
uint8_t sim_f32_to_f8(float f, int bf8, wa_target target)
{
    int ocp = target == WA_TARGET_GFX950;
    unsigned mbits = bf8 ? 2u : 3u;
    int bias = bf8 ? (ocp ? 15 : 16) : (ocp ? 7 : 8);
    unsigned emax_field = bf8 ? (ocp ? 30u : 31u) : 15u;
    unsigned mmax_at_top = (!bf8 && ocp) ? 6u : (1u << mbits) - 1u;
    uint8_t sign = signbit(f) ? 0x80u : 0;
    uint8_t nan = ocp ? (uint8_t)(sign | (bf8 ? 0x7Fu : 0x7Fu)) : 0x80u;
    uint8_t overflow = (ocp && bf8) ? (uint8_t)(sign | 0x7Cu) : nan;
    if (isnan(f))
        return nan;
    if (isinf(f))
        return overflow;
    double a = fabs((double)f);
    int emin = 1 - bias;
    unsigned expf_, man;
    int e;
    (void)frexp(a, &e);
    e -= 1; /* a = 1.x * 2^e */
    if (a == 0.0 || e < emin) {
        /* zero or subnormal: multiples of 2^(emin - mbits) */
        double m = nearbyint(ldexp(a, (int)mbits - emin));
        if (m >= (double)(1u << mbits)) { /* rounded up to the smallest normal */
            expf_ = 1;
            man = 0;
        } else {
            expf_ = 0;
            man = (unsigned)m;
        }
    } else {
        double m = nearbyint(ldexp(a, (int)mbits - e)) - (double)(1u << mbits);
        if (m >= (double)(1u << mbits)) {
            e += 1;
            m = 0;
        }
        if (e + bias > (int)emax_field)
            return overflow;
        expf_ = (unsigned)(e + bias);
        man = (unsigned)m;
        if (expf_ == emax_field && man > mmax_at_top)
            return overflow;
    }
    if (expf_ == 0 && man == 0 && !ocp)
        return 0; /* FNUZ: no negative zero */
    return (uint8_t)(sign | expf_ << mbits | man);
}
