/* lib/ir/immediate.c — what an immediate means for an operand type: inline
   constant or 32-bit literal (GFX9 operand codes 128..208 and 240..248).

   Per data type, as llvm-mc 22 decides (checked on gfx90a/gfx942/gfx950):
     every type      integers -16..64; the floats +-0.5, +-1.0, +-2.0, +-4.0, 0.0
                     and 1/(2*pi) written as floats
     B32 F32 PK_F32  also their f32 bit patterns, and 0xFFFFFFF0..0xFFFFFFFF
     PK_B16          (packed 16-bit integers: a 32-bit constant) the same
     F16             also its f16 bit patterns, and 0xFFF0..0xFFFF
     PK_F16          also the f16 bit patterns (the low half; the high half 0), and
                     0xFFFFFFF0..0xFFFFFFFF (not 0xFFF0..0xFFFF)
     BF16 PK_BF16    also the bf16 bit patterns (PK_BF16 also 0xFFFFFFF0..0xFFFFFFFF)
     B64 F64         also the f64 bit patterns
     B16 PK_B16      nothing more (0x3C00 is a literal, 0xFFF0 too)
   A literal is 32 bits: 16-bit types take 16-bit values (a float written for B16
   or BF16 must lie in the f16 range; B16 encodes its f32 bits), F64 the high half of a
   double whose low half is zero, B64 an integer of 32 bits (signed or not). */
#include "ir.h"

#include <math.h>
#include <string.h>

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

/* Round-to-nearest-even conversion to IEEE half; returns 0 for overflow/NaN. */
static int f16_bits(double d, uint16_t *out)
{
    if (!isfinite(d))
        return 0;
    float f = (float)d;
    uint32_t x = f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    int exp = (int)((x >> 23) & 0xFF) - 127 + 15;
    uint32_t mant = x & 0x7FFFFFu;
    if (((x >> 23) & 0xFF) == 0 && mant == 0) {
        *out = (uint16_t)sign;
        return 1;
    }
    if (exp >= 31)
        return 0;
    if (exp <= 0) {
        if (exp < -10) {
            *out = (uint16_t)sign;
            return 1;
        }
        mant |= 0x800000u;
        unsigned shift = (unsigned)(14 - exp);
        uint32_t h = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1u)))
            h++;
        *out = (uint16_t)(sign | h);
        return 1;
    }
    uint32_t h = ((uint32_t)exp << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;
    if ((h >> 10) >= 31)
        return 0;
    *out = (uint16_t)(sign | h);
    return 1;
}

static double f16_value(uint16_t h)
{
    int exp = (h >> 10) & 0x1F;
    double m = h & 0x3FF;
    double v = exp == 0 ? ldexp(m, -24) : ldexp(m + 1024.0, exp - 25);
    return (h & 0x8000) ? -v : v;
}

static const double inline_floats[] = { 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 };

static int is_inline_float_value(double d)
{
    for (unsigned i = 0; i < sizeof(inline_floats) / sizeof(inline_floats[0]); i++)
        if (d == inline_floats[i])
            return 1;
    return 0;
}

/* Bit patterns of the inline floats (and 1/(2*pi)) at each width. */
static int is_inline_f32_bits(uint32_t b)
{
    if (b == 0x3E22F983u)
        return 1;
    for (unsigned i = 0; i < sizeof(inline_floats) / sizeof(inline_floats[0]); i++)
        if (b == f32_bits((float)inline_floats[i]))
            return 1;
    return 0;
}

static int is_inline_f16_bits(uint32_t b)
{
    static const uint16_t bits[] = { 0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118 };
    for (unsigned i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
        if (b == bits[i])
            return 1;
    return 0;
}

static int is_inline_bf16_bits(uint32_t b)
{
    static const uint16_t bits[] = { 0x3F00, 0xBF00, 0x3F80, 0xBF80, 0x4000, 0xC000, 0x4080, 0xC080, 0x3E22 };
    for (unsigned i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
        if (b == bits[i])
            return 1;
    return 0;
}

/* Round-to-nearest-even conversion to bfloat16 (the top half of an f32); returns 0
   for overflow/NaN. */
static int bf16_bits(double d, uint16_t *out)
{
    if (!isfinite(d) || fabs(d) > 3.4028234663852886e38)
        return 0;
    uint32_t x = f32_bits((float)d);
    uint32_t r = x + 0x7FFFu + ((x >> 16) & 1u);
    if (((r >> 23) & 0xFF) == 0xFF)
        return 0;
    *out = (uint16_t)(r >> 16);
    return 1;
}

static int is_inline_f64_bits(uint64_t b)
{
    if (b == 0x3FC45F306DC9C882ull)
        return 1;
    for (unsigned i = 0; i < sizeof(inline_floats) / sizeof(inline_floats[0]); i++) {
        uint64_t u;
        memcpy(&u, &inline_floats[i], sizeof(u));
        if (b == u)
            return 1;
    }
    return 0;
}

static int is_inv2pi(double d, wa_data_type type)
{
    if (type == WA_TY_F16 || type == WA_TY_PK_F16) {
        uint16_t h;
        return f16_bits(d, &h) && h == 0x3118;
    }
    if (type == WA_TY_BF16 || type == WA_TY_PK_BF16) {
        uint16_t h;
        /* llvm-mc takes the double it reads for 0.15915494 (the f32 1/(2*pi)
           printed to 8 digits) as the bf16 constant; other values must round to
           the bf16 pattern 0x3E22 */
        uint64_t u;
        memcpy(&u, &d, sizeof(u));
        return u == 0x3FC45F306725FEEDull || (bf16_bits(d, &h) && h == 0x3E22);
    }
    if (type == WA_TY_F64 || type == WA_TY_B64)
        return d == 0.15915494309189532;
    return f32_bits((float)d) == 0x3E22F983u;
}

int wa_imm_is_inline(const wa_operand *o, wa_data_type type)
{
    if (o->kind == WA_OPND_IMM) {
        int64_t v = o->imm.i;
        if (v >= -16 && v <= 64)
            return 1;
        /* -16..-1 written as unsigned 32-bit (or 16-bit for f16) patterns. */
        if ((type == WA_TY_B32 || type == WA_TY_F32 || type == WA_TY_PK_F32 ||
             type == WA_TY_PK_B16 || type == WA_TY_PK_F16 || type == WA_TY_PK_BF16) &&
            v >= 0xFFFFFFF0ll && v <= 0xFFFFFFFFll)
            return 1;
        if (type == WA_TY_F16 && v >= 0xFFF0 && v <= 0xFFFF)
            return 1;
        /* A literal equal to an inline float pattern is encoded as that constant
           (as llvm-mc does; 16-bit integer operands, plain or packed, take the
           integers only). */
        switch (type) {
        case WA_TY_F32:
        case WA_TY_B32:
        case WA_TY_PK_F32:
        case WA_TY_PK_B16:
            return v >= 0 && v <= 0xFFFFFFFFll && is_inline_f32_bits((uint32_t)v);
        case WA_TY_F16:
        case WA_TY_PK_F16:
            return v >= 0 && v <= 0xFFFF && is_inline_f16_bits((uint32_t)v);
        case WA_TY_BF16:
        case WA_TY_PK_BF16:
            return v >= 0 && v <= 0xFFFF && is_inline_bf16_bits((uint32_t)v);
        case WA_TY_F64:
        case WA_TY_B64:
            return is_inline_f64_bits((uint64_t)v);
        default:
            return 0;
        }
    }
    if (o->kind == WA_OPND_FIMM) {
        double d = o->imm.f;
        if (is_inline_float_value(d) || (d == 0.0 && !signbit(d)))
            return 1;
        return is_inv2pi(d, type);
    }
    return 0;
}

int wa_imm_bits32(const wa_operand *o, wa_data_type type, uint32_t *bits)
{
    if (o->kind == WA_OPND_IMM) {
        int64_t v = o->imm.i;
        if (type == WA_TY_F16 || type == WA_TY_B16 || type == WA_TY_BF16) {
            if (v < -32768 || v > 65535)
                return 0;
            *bits = (uint32_t)v & 0xFFFFu;
            return 1;
        }
        if (v < -2147483648ll || v > 4294967295ll)
            return 0;
        *bits = (uint32_t)v;
        return 1;
    }
    if (o->kind == WA_OPND_FIMM) {
        double d = o->imm.f;
        if (!isfinite(d))
            return 0;
        switch (type) {
        case WA_TY_F16: {
            uint16_t h;
            if (!f16_bits(d, &h))
                return 0;
            /* Like the assembler: rounding is fine, underflow is not. */
            double back = f16_value(h);
            if (back != d && fabs(back) < 6.103515625e-05)
                return 0;
            *bits = h;
            return 1;
        }
        case WA_TY_BF16:
        case WA_TY_PK_BF16: {
            uint16_t h, h16;
            /* llvm-mc 22 checks a float written for a bf16 operand against the f16
               range and underflow rule before encoding it as bf16 */
            if (!f16_bits(d, &h16) || (f16_value(h16) != d && fabs(f16_value(h16)) < 6.103515625e-05))
                return 0;
            if (!bf16_bits(d, &h))
                return 0;
            *bits = h;
            return 1;
        }
        case WA_TY_PK_F16: {
            uint16_t h;
            if (!f16_bits(d, &h))
                return 0;
            *bits = h;
            return 1;
        }
        case WA_TY_B16: {
            /* llvm-mc 22 takes a float for a 16-bit integer operand within the f16
               range (and without f16 underflow), and encodes its f32 bits */
            uint16_t h16;
            if (!f16_bits(d, &h16) || (f16_value(h16) != d && fabs(f16_value(h16)) < 6.103515625e-05))
                return 0;
            *bits = f32_bits((float)d);
            return 1;
        }
        case WA_TY_B64:
        case WA_TY_PK_B16:
            return 0; /* integer operands wider or narrower than 32 bits take integer
                         literals only (a float is an inline constant or nothing) */
        case WA_TY_F64: {
            uint64_t u;
            memcpy(&u, &d, sizeof(u));
            if (u & 0xFFFFFFFFull)
                return 0; /* a 32-bit literal only supplies the high half */
            *bits = (uint32_t)(u >> 32);
            return 1;
        }
        default: {
            if (fabs(d) > 3.4028234663852886e38)
                return 0;
            float f = (float)d;
            if ((double)f != d && fabs((double)f) < 1.1754943508222875e-38)
                return 0; /* underflow: tiny and inexact */
            *bits = f32_bits(f);
            return 1;
        }
        }
    }
    return 0;
}

/* The operand code (128..208, 240..248) of an inline constant: integers by value,
   float bit patterns of the type by the float they spell. */
int wa_imm_inline_code(const wa_operand *o, wa_data_type type)
{
    static const int codes[] = { 240, 241, 242, 243, 244, 245, 246, 247 };
    if (!wa_imm_is_inline(o, type))
        return -1;
    if (o->kind == WA_OPND_IMM) {
        int64_t v = o->imm.i;
        if (v >= 0 && v <= 64)
            return 128 + (int)v;
        if (v >= -16 && v < 0)
            return 192 - (int)v;
        if (v >= 0xFFFFFFF0ll && v <= 0xFFFFFFFFll)
            return 192 + (int)(0x100000000ll - v);
        if (type == WA_TY_F16 && v >= 0xFFF0 && v <= 0xFFFF)
            return 192 + (int)(0x10000 - v);
        /* a float bit pattern of the type */
        for (unsigned i = 0; i < 8; i++) {
            if (type == WA_TY_F64 || type == WA_TY_B64) {
                uint64_t u;
                memcpy(&u, &inline_floats[i], sizeof(u));
                if ((uint64_t)v == u)
                    return codes[i];
            } else if (type == WA_TY_F16 || type == WA_TY_PK_F16) {
                uint16_t h;
                if (f16_bits(inline_floats[i], &h) && (uint64_t)v == h)
                    return codes[i];
            } else if (type == WA_TY_BF16 || type == WA_TY_PK_BF16) {
                uint16_t h;
                if (bf16_bits(inline_floats[i], &h) && (uint64_t)v == h)
                    return codes[i];
            } else if ((uint64_t)v == f32_bits((float)inline_floats[i])) {
                return codes[i];
            }
        }
        return 248; /* the remaining inline pattern: 1/(2*pi) */
    }
    double d = o->imm.f;
    if (d == 0.0)
        return 128;
    for (unsigned i = 0; i < 8; i++)
        if (d == inline_floats[i])
            return codes[i];
    return 248;
}
