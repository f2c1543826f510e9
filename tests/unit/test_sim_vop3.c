/* tests/unit/test_sim_vop3.c — the simulator's VOP3-only VALU semantics
   (lib/sim/vop3.c), every executed opcode checked against references this file
   computes itself from the ISA's descriptions (bit loops, limb arithmetic, its
   own f16 rounding; never the simulator's helpers):

     three-source integer ops (24-bit multiply-add, signed bit-field extract, lerp,
     align, min3/max3/med3, sums of absolute differences, xad, and_or) with
     integer clamp; 16-bit integer and f16 ops with every op_sel bit; 64-bit
     shifts, lshl_add_u64 and the multiply-adds with their carry-out lane mask;
     f32/f16/f64 min/max/median (NaN, signed zero), minimum3/maximum3, ldexp,
     mul_legacy; packing conversions (pknorm, pk_u8, pk_u16/i16, pk_f16).

   Each opcode runs as kernels of 64 lanes, one case per lane (edge values, then
   random ones), with a partial EXEC: lanes outside it keep the old vdst (and get
   0 in the carry-out mask). The opcodes left out stop the run with
   WA_E_UNSUPPORTED and the reason wa_sim_unsupported gives. */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NL 64u

static uint64_t g_rng = 0xD1B54A32D192ED03ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}
static uint64_t rnd64(void) { return (uint64_t)rnd() << 32 | rnd(); }

/* ---- value pools ----------------------------------------------------------------------- */

enum { K_I32, K_F32, K_I16, K_F16, K_I64, K_F64, K_SMALL, K_F8R };

static const uint32_t i32_edge[] = { 0, 1, 2, 3, 31, 32, 33, 0x7F, 0x80, 0xFF, 0xFFFF, 0x10000,
                                     0x7FFF, 0x8000, 0xFFFFFF, 0x1000000, 0x800000, 0x7FFFFFFF,
                                     0x80000000u, 0xFFFFFFFFu, 0xFFFFFFFEu, 0x01FF80FFu };
static const uint32_t f32_edge[] = { 0, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x7F800000u,
                                     0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFC00001u, 1,
                                     0x80000001u, 0x7F7FFFFFu, 0x3F000000u, 0x40000000u,
                                     0xC0400000u, 0x00800000u, 0x477FE000u, 0x3F7FFFFFu };
static const uint16_t f16_edge[] = { 0, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x7C01,
                                     0xFE01, 1, 0x8001, 0x7BFF, 0x3800, 0x4000, 0xC200, 0x0400 };
static const uint64_t f64_edge[] = { 0, 0x8000000000000000ull, 0x3FF0000000000000ull,
                                     0xBFF0000000000000ull, 0x7FF0000000000000ull,
                                     0xFFF0000000000000ull, 0x7FF8000000000000ull,
                                     0x7FF0000000000001ull, 1, 0x8000000000000001ull,
                                     0x7FEFFFFFFFFFFFFFull, 0x3FE0000000000000ull };

static uint32_t rnd_f32(void)
{
    uint32_t e = 100 + rnd() % 56; /* around 1 */
    return (rnd() & 0x80000000u) | e << 23 | (rnd() & 0x7FFFFFu);
}
static uint32_t rnd_f16(void) { return (rnd() & 0x8000u) | (5 + rnd() % 20) << 10 | (rnd() & 0x3FFu); }

/* Value i of kind k: the edge values first, then random ones. A 16-bit kind
   fills both halves (op_sel picks one). */
static uint64_t value(int k, unsigned i)
{
    unsigned ne;
    switch (k) {
    case K_I32:
        ne = sizeof(i32_edge) / sizeof(i32_edge[0]);
        return i < ne ? i32_edge[i] : (rnd() & 1) ? rnd() : rnd() % 70;
    case K_SMALL:
        return i < 40 ? i : rnd() % 80;
    case K_F32:
        ne = sizeof(f32_edge) / sizeof(f32_edge[0]);
        return i < ne ? f32_edge[i] : rnd_f32();
    case K_I16: {
        uint32_t lo = i < 22 ? i32_edge[i] & 0xFFFFu : rnd() & 0xFFFFu;
        return lo | (rnd() & 0xFFFFu) << 16;
    }
    case K_F16: {
        ne = sizeof(f16_edge) / sizeof(f16_edge[0]);
        uint32_t lo = i < ne ? f16_edge[i] : rnd_f16();
        uint32_t hi = (rnd() & 3) ? rnd_f16() : f16_edge[rnd() % ne];
        return lo | hi << 16;
    }
    case K_F8R: {
        /* f32 values around the 8-bit float ranges: edges (the largest finite
           values, the rounding ties beside them, NaN, infinities, zeros, the
           smallest subnormals and their halves), then random magnitudes 2^-20..2^17 */
        static const uint32_t e[] = { 0, 0x80000000u, 0x7FC00000u, 0x7F800000u, 0xFF800000u,
                                      0x43700000u /* 240 */, 0x43780000u /* 248 */,
                                      0x4377FFFFu, 0x43E00000u /* 448 */, 0x43E80000u /* 464 */,
                                      0x43E80001u, 0x47600000u /* 57344 */, 0x47700000u /* 61440 */,
                                      0x476FFFFFu, 0x3B000000u /* 2^-9 */, 0x3A800000u /* 2^-10 */,
                                      0x3A000000u /* 2^-11 */, 0x39800000u, 0x37800000u /* 2^-16 */,
                                      0x37000000u /* 2^-17 */, 0x36800000u, 0xC3780000u,
                                      0x3FA00000u /* 1.25 */, 0x3F900000u /* 1.125: a tie */ };
        ne = sizeof(e) / sizeof(e[0]);
        if (i < ne)
            return e[i];
        return (rnd() & 0x80000000u) | (107u + rnd() % 38u) << 23 | (rnd() & 0x7FFFFFu);
    }
    case K_I64:
        return i < 22 ? (uint64_t)i32_edge[i] << (i % 3 == 0 ? 32 : 0) | (i % 2 ? 0xFFFFFFFF00000000ull : 0)
                      : rnd64();
    default:
        ne = sizeof(f64_edge) / sizeof(f64_edge[0]);
        if (i < ne)
            return f64_edge[i];
        return (uint64_t)(rnd() & 0x80000000u) << 32 | (uint64_t)(1000 + rnd() % 48) << 52 |
               (rnd64() & 0xFFFFFFFFFFFFFull);
    }
}

/* ---- references ------------------------------------------------------------------------ */

typedef struct rc {
    uint64_t a, b, d, old;
    int clamp;
    unsigned opsel;
    int carry; /* out */
} rc;
typedef uint64_t (*ref_fn)(rc *r);

static int64_t sx(uint64_t v, unsigned bits)
{
    if (bits < 64 && (v >> (bits - 1) & 1u))
        v |= ~0ull << bits;
    else if (bits < 64)
        v &= (1ull << bits) - 1u;
    return (int64_t)v;
}
static uint32_t lo32(uint64_t v) { return (uint32_t)v; }
static uint64_t clamp_s(int64_t v, int64_t lo, int64_t hi, int on, unsigned bits)
{
    if (on)
        v = v < lo ? lo : v > hi ? hi : v;
    return (uint64_t)v & (bits == 64 ? ~0ull : (1ull << bits) - 1u);
}

static uint64_t r_mad_i24(rc *r)
{
    int64_t v = sx(r->a, 24) * sx(r->b, 24) + (int32_t)lo32(r->d);
    return clamp_s(v, INT32_MIN, INT32_MAX, r->clamp, 32);
}
static uint64_t r_mad_u24(rc *r)
{
    int64_t v = (int64_t)((r->a & 0xFFFFFF) * (r->b & 0xFFFFFF) + lo32(r->d));
    return clamp_s(v, 0, 0xFFFFFFFFll, r->clamp, 32);
}
static uint64_t r_bfe_i32(rc *r)
{
    unsigned off = lo32(r->b) & 31, w = lo32(r->d) & 31;
    uint32_t a = lo32(r->a), v = 0;
    if (!w)
        return 0;
    for (unsigned i = 0; i < w; i++) {
        unsigned src = off + i > 31 ? 31 : off + i;
        v |= (a >> src & 1u) << i;
    }
    return (uint32_t)sx(v, w);
}
static uint64_t r_lerp(rc *r)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned x = lo32(r->a) >> (8 * i) & 255, y = lo32(r->b) >> (8 * i) & 255;
        unsigned z = lo32(r->d) >> (8 * i) & 1;
        v |= ((x + y + z) / 2) << (8 * i);
    }
    return v;
}
static uint64_t align_bits(rc *r, unsigned shift)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++) {
        unsigned s = i + shift; /* bit s of {a, b} */
        unsigned bit = s < 32 ? lo32(r->b) >> s & 1 : lo32(r->a) >> (s - 32) & 1;
        v |= (uint32_t)bit << i;
    }
    return v;
}
static uint64_t r_alignbit(rc *r) { return align_bits(r, lo32(r->d) & 31); }
static uint64_t r_alignbyte(rc *r) { return align_bits(r, 8 * (lo32(r->d) & 3)); }

static void sort3(int64_t v[3])
{
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2 - i; j++)
            if (v[j] > v[j + 1]) {
                int64_t t = v[j];
                v[j] = v[j + 1];
                v[j + 1] = t;
            }
}
static uint64_t pick3(rc *r, int sign, unsigned bits, int which)
{
    int64_t v[3];
    uint64_t s[3] = { r->a, r->b, r->d };
    for (int i = 0; i < 3; i++) {
        uint64_t x = bits == 16 ? (s[i] >> ((r->opsel >> i & 1) ? 16 : 0)) & 0xFFFF : lo32(s[i]);
        v[i] = sign ? sx(x, bits) : (int64_t)x;
    }
    sort3(v);
    return (uint64_t)v[which] & (bits == 16 ? 0xFFFFull : 0xFFFFFFFFull);
}
static uint64_t r_min3_u32(rc *r) { return pick3(r, 0, 32, 0); }
static uint64_t r_max3_u32(rc *r) { return pick3(r, 0, 32, 2); }
static uint64_t r_med3_u32(rc *r) { return pick3(r, 0, 32, 1); }
static uint64_t r_min3_i32(rc *r) { return pick3(r, 1, 32, 0); }
static uint64_t r_max3_i32(rc *r) { return pick3(r, 1, 32, 2); }
static uint64_t r_med3_i32(rc *r) { return pick3(r, 1, 32, 1); }
static uint64_t r_med3_const(rc *r)
{
    rc c = *r;
    c.a = (uint32_t)-5;
    c.d = 17;
    return pick3(&c, 1, 32, 1);
}

/* the 16-bit result placed by op_sel bit 3 (the other half kept), else zero-extended */
static uint64_t place16(rc *r, uint64_t v)
{
    v &= 0xFFFF;
    return (r->opsel & 8) ? (r->old & 0xFFFF) | v << 16 : v;
}
static uint64_t r_min3_u16(rc *r) { return place16(r, pick3(r, 0, 16, 0)); }
static uint64_t r_max3_u16(rc *r) { return place16(r, pick3(r, 0, 16, 2)); }
static uint64_t r_med3_u16(rc *r) { return place16(r, pick3(r, 0, 16, 1)); }
static uint64_t r_min3_i16(rc *r) { return place16(r, pick3(r, 1, 16, 0)); }
static uint64_t r_max3_i16(rc *r) { return place16(r, pick3(r, 1, 16, 2)); }
static uint64_t r_med3_i16(rc *r) { return place16(r, pick3(r, 1, 16, 1)); }

static uint32_t half(rc *r, int i)
{
    uint64_t s = i == 0 ? r->a : i == 1 ? r->b : r->d;
    return (uint32_t)(s >> ((r->opsel >> i & 1) ? 16 : 0)) & 0xFFFF;
}
static uint64_t r_mad_u16(rc *r)
{
    int64_t v = (int64_t)half(r, 0) * half(r, 1) + half(r, 2);
    return place16(r, clamp_s(v, 0, 0xFFFF, r->clamp, 16));
}
static uint64_t r_mad_i16(rc *r)
{
    int64_t v = sx(half(r, 0), 16) * sx(half(r, 1), 16) + sx(half(r, 2), 16);
    return place16(r, clamp_s(v, -32768, 32767, r->clamp, 16));
}
static uint64_t r_add_i16(rc *r)
{
    return place16(r, clamp_s(sx(half(r, 0), 16) + sx(half(r, 1), 16), -32768, 32767, r->clamp, 16));
}
static uint64_t r_sub_i16(rc *r)
{
    return place16(r, clamp_s(sx(half(r, 0), 16) - sx(half(r, 1), 16), -32768, 32767, r->clamp, 16));
}
static uint64_t r_mad_u32_u16(rc *r)
{
    int64_t v = (int64_t)half(r, 0) * half(r, 1) + lo32(r->d);
    return clamp_s(v, 0, 0xFFFFFFFFll, r->clamp, 32);
}
static uint64_t r_mad_i32_i16(rc *r)
{
    int64_t v = sx(half(r, 0), 16) * sx(half(r, 1), 16) + (int32_t)lo32(r->d);
    return clamp_s(v, INT32_MIN, INT32_MAX, r->clamp, 32);
}

static uint64_t sadn(rc *r, unsigned w, int masked)
{
    uint64_t s = 0;
    for (unsigned i = 0; i < 32; i += w) {
        uint64_t m = w == 32 ? 0xFFFFFFFFull : (1ull << w) - 1;
        int64_t x = (int64_t)(lo32(r->a) >> i & m), y = (int64_t)(lo32(r->b) >> i & m);
        if (masked && !y)
            continue;
        s += (uint64_t)(x > y ? x - y : y - x);
    }
    return s;
}
static uint64_t r_sad_u8(rc *r) { return clamp_s((int64_t)(sadn(r, 8, 0) + lo32(r->d)), 0, 0xFFFFFFFFll, r->clamp, 32); }
static uint64_t r_sad_hi_u8(rc *r) { return clamp_s((int64_t)((sadn(r, 8, 0) << 16) + lo32(r->d)), 0, 0xFFFFFFFFll, r->clamp, 32); }
static uint64_t r_sad_u16(rc *r) { return clamp_s((int64_t)(sadn(r, 16, 0) + lo32(r->d)), 0, 0xFFFFFFFFll, r->clamp, 32); }
static uint64_t r_sad_u32(rc *r) { return clamp_s((int64_t)(sadn(r, 32, 0) + lo32(r->d)), 0, 0xFFFFFFFFll, r->clamp, 32); }
static uint64_t r_msad_u8(rc *r) { return clamp_s((int64_t)(sadn(r, 8, 1) + lo32(r->d)), 0, 0xFFFFFFFFll, r->clamp, 32); }
static uint64_t r_xad(rc *r) { return (uint32_t)((lo32(r->a) ^ lo32(r->b)) + lo32(r->d)); }
static uint64_t r_and_or(rc *r) { return (lo32(r->a) & lo32(r->b)) | lo32(r->d); }
static uint64_t r_mul_hi_i32(rc *r) { return (uint32_t)((uint64_t)((int64_t)(int32_t)lo32(r->a) * (int32_t)lo32(r->b)) >> 32); }
static uint64_t r_bcnt(rc *r)
{
    uint32_t n = 0;
    for (unsigned i = 0; i < 32; i++)
        n += lo32(r->a) >> i & 1;
    return (uint32_t)(n + lo32(r->b));
}
static uint64_t r_bfm(rc *r)
{
    uint32_t v = 0, w = lo32(r->a) & 31, o = lo32(r->b) & 31;
    for (unsigned i = 0; i < w; i++)
        if (i + o < 32)
            v |= 1u << (i + o);
    return v;
}
static uint64_t r_pk_u16_u32(rc *r)
{
    uint32_t x = lo32(r->a) > 65535 ? 65535 : lo32(r->a), y = lo32(r->b) > 65535 ? 65535 : lo32(r->b);
    return x | y << 16;
}
static uint64_t r_pk_i16_i32(rc *r)
{
    return clamp_s((int32_t)lo32(r->a), -32768, 32767, 1, 16) |
           clamp_s((int32_t)lo32(r->b), -32768, 32767, 1, 16) << 16;
}
static uint64_t r_add_i32(rc *r) { return clamp_s((int64_t)(int32_t)lo32(r->a) + (int32_t)lo32(r->b), INT32_MIN, INT32_MAX, r->clamp, 32); }
static uint64_t r_sub_i32(rc *r) { return clamp_s((int64_t)(int32_t)lo32(r->a) - (int32_t)lo32(r->b), INT32_MIN, INT32_MAX, r->clamp, 32); }

/* 64-bit: src0 is the shift amount of the b64 shifts */
static uint64_t r_lshl64(rc *r) { unsigned n = lo32(r->a) & 63; uint64_t v = r->b; while (n--) v <<= 1; return v; }
static uint64_t r_lshr64(rc *r) { unsigned n = lo32(r->a) & 63; uint64_t v = r->b; while (n--) v >>= 1; return v; }
static uint64_t r_ashr64(rc *r)
{
    unsigned n = lo32(r->a) & 63;
    uint64_t v = r->b;
    while (n--)
        v = v >> 1 | (v & 0x8000000000000000ull);
    return v;
}
static uint64_t r_lshl_add_u64(rc *r)
{
    uint64_t v = r->a;
    for (unsigned n = lo32(r->b) & 7; n; n--)
        v <<= 1;
    return v + r->d;
}
/* {carry, D} = a * b + d in 32-bit limbs */
static uint64_t r_mad_u64(rc *r)
{
    uint64_t p = (uint64_t)lo32(r->a) * lo32(r->b);
    uint64_t l = (p & 0xFFFFFFFF) + (r->d & 0xFFFFFFFF);
    uint64_t h = (p >> 32) + (r->d >> 32) + (l >> 32);
    r->carry = (int)(h >> 32);
    uint64_t v = (h << 32) | (l & 0xFFFFFFFF);
    return r->carry && r->clamp ? ~0ull : v;
}
static uint64_t r_mad_i64(rc *r)
{
    int64_t p = (int64_t)(int32_t)lo32(r->a) * (int32_t)lo32(r->b);
    uint64_t pl = (uint64_t)p & 0xFFFFFFFF, dl = r->d & 0xFFFFFFFF;
    int64_t ph = p >> 32, dh = (int64_t)r->d >> 32;
    uint64_t l = pl + dl;
    int64_t h = ph + dh + (int64_t)(l >> 32); /* exact: the high part as a wide signed value */
    r->carry = h > INT32_MAX || h < INT32_MIN;
    uint64_t v = (uint64_t)h << 32 | (l & 0xFFFFFFFF);
    if (r->carry && r->clamp)
        return h < 0 ? 0x8000000000000000ull : 0x7FFFFFFFFFFFFFFFull;
    return v;
}

/* floats */
static float fb(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static uint32_t bf(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static int nan32(uint32_t x) { return (x & 0x7FFFFFFFu) > 0x7F800000u; }
static int nan16(uint32_t x) { return (x & 0x7FFFu) > 0x7C00u; }
static int nan64(uint64_t x) { return (x & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull; }
/* order key: a total order of non-NaN values with -0 below +0 */
static int64_t key32(uint32_t x) { return (x >> 31) ? -(int64_t)(x & 0x7FFFFFFF) - 1 : (int64_t)x; }
static int64_t key16(uint32_t x) { return (x >> 15) ? -(int64_t)(x & 0x7FFF) - 1 : (int64_t)x; }

/* IEEE-mode min/max (ISA): a signaling NaN gives it quieted, a quiet NaN the other */
static uint32_t mm32(uint32_t x, uint32_t y, int max)
{
    if (nan32(x) && !(x & 0x400000)) return x | 0x400000;
    if (nan32(y) && !(y & 0x400000)) return y | 0x400000;
    if (nan32(x)) return y;
    if (nan32(y)) return x;
    return (key32(x) < key32(y)) == (max != 0) ? y : x;
}
static uint32_t mm16(uint32_t x, uint32_t y, int max)
{
    if (nan16(x) && !(x & 0x200)) return x | 0x200;
    if (nan16(y) && !(y & 0x200)) return y | 0x200;
    if (nan16(x)) return y;
    if (nan16(y)) return x;
    return (key16(x) < key16(y)) == (max != 0) ? y : x;
}
static uint64_t r_min3_f32(rc *r) { return mm32(mm32(lo32(r->a), lo32(r->b), 0), lo32(r->d), 0); }
static uint64_t r_max3_f32(rc *r) { return mm32(mm32(lo32(r->a), lo32(r->b), 1), lo32(r->d), 1); }
static uint64_t r_med3_f32(rc *r)
{
    uint32_t x = lo32(r->a), y = lo32(r->b), z = lo32(r->d);
    if (nan32(x) || nan32(y) || nan32(z))
        return r_min3_f32(r);
    int64_t k[3] = { key32(x), key32(y), key32(z) };
    sort3(k);
    return k[1] < 0 ? (uint32_t)(-(k[1] + 1)) | 0x80000000u : (uint32_t)k[1];
}
static uint64_t r_min3_f16(rc *r) { return place16(r, mm16(mm16(half(r, 0), half(r, 1), 0), half(r, 2), 0)); }
static uint64_t r_max3_f16(rc *r) { return place16(r, mm16(mm16(half(r, 0), half(r, 1), 1), half(r, 2), 1)); }
static uint64_t r_med3_f16(rc *r)
{
    uint32_t x = half(r, 0), y = half(r, 1), z = half(r, 2);
    if (nan16(x) || nan16(y) || nan16(z))
        return r_min3_f16(r);
    int64_t k[3] = { key16(x), key16(y), key16(z) };
    sort3(k);
    return place16(r, k[1] < 0 ? (uint32_t)(-(k[1] + 1)) | 0x8000u : (uint32_t)k[1]);
}
/* IEEE 754-2019 minimum/maximum: a NaN operand (the first) quieted */
static uint32_t mq32(uint32_t x, uint32_t y, int max)
{
    if (nan32(x)) return x | 0x400000;
    if (nan32(y)) return y | 0x400000;
    return (key32(x) < key32(y)) == (max != 0) ? y : x;
}
static uint64_t r_minimum3(rc *r) { return mq32(mq32(lo32(r->a), lo32(r->b), 0), lo32(r->d), 0); }
static uint64_t r_maximum3(rc *r) { return mq32(mq32(lo32(r->a), lo32(r->b), 1), lo32(r->d), 1); }
static uint64_t r_ldexp_f32(rc *r)
{
    if (nan32(lo32(r->a)))
        return lo32(r->a) | 0x400000;
    int32_t n = (int32_t)lo32(r->b);
    n = n > 400 ? 400 : n < -400 ? -400 : n;
    return bf(ldexpf(fb(lo32(r->a)), n));
}
static uint64_t r_mul_legacy(rc *r)
{
    if (!(lo32(r->a) & 0x7FFFFFFF) || !(lo32(r->b) & 0x7FFFFFFF))
        return 0;
    return bf(fb(lo32(r->a)) * fb(lo32(r->b)));
}
static double db(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}
static uint64_t bd(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}
static uint64_t mm64(uint64_t x, uint64_t y, int max)
{
    if (nan64(x) && !(x >> 51 & 1)) return x | 1ull << 51;
    if (nan64(y) && !(y >> 51 & 1)) return y | 1ull << 51;
    if (nan64(x)) return y;
    if (nan64(y)) return x;
    int less = db(x) < db(y) || (db(x) == db(y) && (x >> 63) && !(y >> 63));
    return less == (max != 0) ? y : x;
}
static uint64_t r_min_f64(rc *r) { return mm64(r->a, r->b, 0); }
static uint64_t r_max_f64(rc *r) { return mm64(r->a, r->b, 1); }
static uint64_t r_ldexp_f64(rc *r)
{
    if (nan64(r->a))
        return r->a | 1ull << 51;
    int32_t n = (int32_t)lo32(r->b);
    n = n > 3000 ? 3000 : n < -3000 ? -3000 : n;
    return bd(ldexp(db(r->a), n));
}

/* f16 from a double, rounded once to nearest even, by counting units of the
   result's ulp */
static uint32_t to_f16(double v)
{
    uint32_t s = v < 0 || (v == 0 && signbit(v)) ? 0x8000 : 0;
    double a = fabs(v);
    if (a != a)
        return s | 0x7E00;
    if (a >= 65536.0) /* infinity and beyond the largest binade */
        return s | 0x7C00;
    unsigned e = 0; /* biased exponent of the result's binade (0: subnormal) */
    while (e < 30 && a >= ldexp(1.0, (int)e + 1 - 15))
        e++;
    double ulp = ldexp(1.0, (e ? (int)e : 1) - 25);
    double q = a / ulp, fl = floor(q);
    uint64_t n = (uint64_t)fl;
    if (q - fl > 0.5 || (q - fl == 0.5 && (n & 1)))
        n++;
    uint64_t bits = e ? ((uint64_t)e << 10) + (n - 1024) : n; /* carries into the exponent */
    return bits >= 0x7C00 ? s | 0x7C00 : s | (uint32_t)bits;
}
static double f16v(uint32_t h)
{
    unsigned e = h >> 10 & 31, m = h & 1023;
    double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
    return (h & 0x8000) ? -v : v;
}
static uint64_t r_fma_f16(rc *r)
{
    uint32_t x = half(r, 0), y = half(r, 1), z = half(r, 2);
    if (nan16(x) || nan16(y) || nan16(z))
        return place16(r, 0x7E00);
    return place16(r, to_f16(f16v(x) * f16v(y) + f16v(z)));
}
static uint64_t r_pk_f16_f32(rc *r)
{
    uint32_t x = lo32(r->a), y = lo32(r->b);
    uint32_t hx = nan32(x) ? 0x7E00 | (x >> 16 & 0x8000) : to_f16(fb(x));
    uint32_t hy = nan32(y) ? 0x7E00 | (y >> 16 & 0x8000) : to_f16(fb(y));
    return hx | hy << 16;
}
static uint32_t norm(double v, int sign)
{
    if (v != v)
        return 0;
    double lo = sign ? -1 : 0;
    v = v < lo ? lo : v > 1 ? 1 : v;
    double q = v * (sign ? 32767 : 65535), fl = floor(q);
    int64_t n = (int64_t)fl;
    if (q - fl > 0.5 || (q - fl == 0.5 && (n & 1)))
        n++;
    return (uint32_t)n & 0xFFFF;
}
static uint64_t r_pknorm_i16_f32(rc *r) { return norm(fb(lo32(r->a)), 1) | norm(fb(lo32(r->b)), 1) << 16; }
static uint64_t r_pknorm_u16_f32(rc *r) { return norm(fb(lo32(r->a)), 0) | norm(fb(lo32(r->b)), 0) << 16; }
static uint64_t r_pknorm_i16_f16(rc *r)
{
    uint32_t x = half(r, 0), y = half(r, 1);
    return (nan16(x) ? 0 : norm(f16v(x), 1)) | (nan16(y) ? 0 : norm(f16v(y), 1)) << 16;
}
static uint64_t r_pknorm_u16_f16(rc *r)
{
    uint32_t x = half(r, 0), y = half(r, 1);
    return (nan16(x) ? 0 : norm(f16v(x), 0)) | (nan16(y) ? 0 : norm(f16v(y), 0)) << 16;
}
static uint32_t u8of(uint32_t x)
{
    if (nan32(x))
        return 0;
    double v = fb(x), fl;
    if (v <= 0)
        return 0;
    if (v >= 255)
        return 255;
    fl = floor(v);
    uint32_t n = (uint32_t)fl;
    if (v - fl > 0.5 || (v - fl == 0.5 && (n & 1)))
        n++;
    return n;
}
static uint64_t r_pk_u8(rc *r)
{
    unsigned sh = 8 * (lo32(r->b) & 3);
    return (lo32(r->d) & ~(0xFFu << sh)) | u8of(lo32(r->a)) << sh;
}
static uint64_t r_pkaccum(rc *r)
{
    unsigned sh = 8 * (lo32(r->b) & 3);
    return (lo32(r->old) & ~(0xFFu << sh)) | u8of(lo32(r->a)) << sh;
}

/* ---- the harness ------------------------------------------------------------------------

   Lane l reads a (v[2:3]), b (v[4:5]), d (v[6:7]) and the old vdst (v[8:9]) from
   in + 32 l; `line` names them (vdst v8 or v[8:9], carry-out s[20:21]). The lanes of
   `exec` run it; then vdst and the carry-out mask go to out + 16 l. */
/* 8-bit floats, from their definitions: E4M3 (fp8) and E5M2 (bf8); gfx942's
   FNUZ flavour (bias 8 / 16, 0x80 the only NaN, no infinity, no -0) and gfx950's
   OCP one (E4M3FN: bias 7, S.1111.111 NaN; E5M2: bias 15, infinities and NaNs
   as IEEE). */
static double f8_value(unsigned v, int bf8, int ocp)
{
    unsigned mb = bf8 ? 2u : 3u, eb = bf8 ? 5u : 4u;
    int bias = bf8 ? (ocp ? 15 : 16) : (ocp ? 7 : 8);
    unsigned s = v >> 7, e = (v >> mb) & ((1u << eb) - 1u), m = v & ((1u << mb) - 1u);
    if (!ocp && v == 0x80)
        return NAN;
    if (ocp && !bf8 && e == 15 && m == 7)
        return NAN;
    if (ocp && bf8 && e == 31)
        return m ? NAN : (s ? -INFINITY : INFINITY);
    double x = e ? ldexp(1.0 + m / (double)(1u << mb), (int)e - bias)
                 : ldexp(m / (double)(1u << mb), 1 - bias);
    return s ? -x : x;
}

/* f32 -> 8-bit float, round to nearest even, by searching every code: a value
   nearer to the step beyond the largest finite one (or tied with it when that
   step would be even) overflows to NaN (gfx950 bf8: infinity). */
static unsigned f8_ref(uint32_t bits, int bf8, int ocp)
{
    float f;
    memcpy(&f, &bits, 4);
    unsigned sign = bits >> 31 ? 0x80u : 0;
    unsigned nan = ocp ? (sign | 0x7Fu) : 0x80u, over = ocp && bf8 ? (sign | 0x7Cu) : nan;
    if (isnan(f))
        return nan;
    if (isinf(f))
        return over;
    unsigned best = 0;
    double bd = INFINITY, maxv = 0;
    unsigned maxc = 0;
    for (unsigned v = 0; v < 256; v++) {
        double x = f8_value(v, bf8, ocp);
        if (isnan(x) || isinf(x))
            continue;
        if (x > maxv) {
            maxv = x;
            maxc = v;
        }
        double dist = fabs(x - (double)f);
        int better = dist < bd ||
                     (dist == bd && ((v & 1u) == 0 && (best & 1u)));
        if (dist == bd && x == f8_value(best, bf8, ocp)) /* +0 and -0: the input's sign */
            better = (v & 0x80u) == sign;
        if (better) {
            bd = dist;
            best = v;
        }
    }
    unsigned mb = bf8 ? 2u : 3u;
    double beyond = maxv + ldexp(1.0, ilogb(maxv) - (int)mb);
    double dover = fabs(beyond - fabs((double)f));
    int beyond_even = ((maxc & ((1u << mb) - 1u)) + 1u) % 2u == 0;
    if (dover < bd || (dover == bd && beyond_even))
        return over;
    return best;
}

static uint64_t pk_f8(rc *r, int bf8, int ocp)
{
    uint32_t w = f8_ref(lo32(r->a), bf8, ocp) | f8_ref(lo32(r->b), bf8, ocp) << 8;
    unsigned hi = (r->opsel & 8u) ? 16u : 0u;
    return (lo32(r->old) & ~(0xFFFFu << hi)) | w << hi;
}
static uint64_t r_pk_fp8(rc *r) { return pk_f8(r, 0, 0); }
static uint64_t r_pk_bf8(rc *r) { return pk_f8(r, 1, 0); }
static uint64_t r_pk_fp8_ocp(rc *r) { return pk_f8(r, 0, 1); }
static uint64_t r_pk_bf8_ocp(rc *r) { return pk_f8(r, 1, 1); }

typedef struct vcase {
    const char *line;
    ref_fn ref;
    int k[3];      /* kinds of a, b, d */
    int clamp;
    unsigned opsel;
    int res64;     /* vdst is a pair */
    int carry;     /* writes s[20:21] */
    int nan_any;   /* a NaN result need only be a NaN */
    int gfx950;
} vcase;

static wa_status run(const vcase *vc, const uint32_t *in, uint32_t *out, uint64_t exec, char *diag,
                     size_t nd)
{
    char text[2048];
    snprintf(text, sizeof(text),
             ".kernel t\n  .target %s\n  .abi kernarg_ptr, workitem_id_x\n"
             "  .arg in, global_buffer, offset:0, size:8, align:8\n"
             "  .arg out, global_buffer, offset:8, size:8, align:8\n"
             "  s_load_dwordx4 s[4:7], s[0:1], 0\n  s_waitcnt lgkmcnt(0)\n"
             "  v_lshlrev_b32 v1, 5, v0\n  v_lshlrev_b32 v12, 4, v0\n"
             "  global_load_dwordx4 v[2:5], v1, s[4:5]\n"
             "  global_load_dwordx4 v[6:9], v1, s[4:5] offset:16\n"
             "  s_mov_b64 s[20:21], 0\n  s_waitcnt vmcnt(0)\n"
             "  s_mov_b32 exec_lo, 0x%x\n  s_mov_b32 exec_hi, 0x%x\n"
             "  %s\n"
             "  s_mov_b64 exec, -1\n"
             "  v_mov_b32 v10, s20\n  v_mov_b32 v11, s21\n"
             "  global_store_dwordx4 v12, v[8:11], s[6:7]\n  s_endpgm\n.end_kernel\n",
             vc->gfx950 ? "gfx950" : "gfx942", (unsigned)exec, (unsigned)(exec >> 32), vc->line);
    wa_context *ctx = ut_context_new(vc->gfx950 ? WA_TARGET_GFX950 : WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, text);
    wa_status st = WA_E_PARSE;
    if (prog) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        wa_sim *sim = NULL;
        st = wa_sim_create(&sim, prog, &o);
        if (st == WA_OK) {
            wa_sim_bind_buffer(sim, 0, (void *)in, 32 * NL);
            wa_sim_bind_buffer(sim, 1, out, 16 * NL);
            st = wa_sim_run(sim);
        }
        wa_sim_destroy(sim);
    }
    snprintf(diag, nd, "%s", wa_context_last_error(ctx));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return st;
}

static void check_case(const vcase *vc)
{
    ut_context("%s", vc->line);
    for (unsigned batch = 0; batch < 4; batch++) {
        uint32_t in[8 * NL], out[4 * NL];
        rc r[NL];
        for (unsigned l = 0; l < NL; l++) {
            unsigned i = batch * NL + l;
            /* the edge values of each source against each other: index by digits */
            unsigned ia = batch < 2 ? i % 24 : i, ib = batch < 2 ? (i / 24) % 24 : i, id = batch < 2 ? (i / 7) % 24 : i;
            r[l].a = value(vc->k[0], ia);
            r[l].b = value(vc->k[1], ib);
            r[l].d = value(vc->k[2], id);
            r[l].old = rnd64();
            r[l].clamp = vc->clamp;
            r[l].opsel = vc->opsel;
            r[l].carry = 0;
            uint64_t v[4] = { r[l].a, r[l].b, r[l].d, r[l].old };
            for (unsigned j = 0; j < 4; j++) {
                in[8 * l + 2 * j] = (uint32_t)v[j];
                in[8 * l + 2 * j + 1] = (uint32_t)(v[j] >> 32);
            }
        }
        uint64_t exec = batch == 3 ? rnd64() | 1 : ~0ull;
        memset(out, 0xA5, sizeof(out));
        char diag[512];
        wa_status st = run(vc, in, out, exec, diag, sizeof(diag));
        CHECK_MSG(st == WA_OK, "%s: status %d: %s", vc->line, (int)st, diag);
        if (st != WA_OK)
            return;
        uint64_t carry_want = 0, carry_got = (uint64_t)out[3] << 32 | out[2];
        for (unsigned l = 0; l < NL; l++) {
            uint64_t got = (uint64_t)out[4 * l + 1] << 32 | out[4 * l];
            uint64_t want;
            if (exec >> l & 1) {
                want = vc->ref(&r[l]);
                if (!vc->res64)
                    want = (r[l].old & 0xFFFFFFFF00000000ull) | (want & 0xFFFFFFFFu);
                if (r[l].carry)
                    carry_want |= 1ull << l;
            } else {
                want = r[l].old;
            }
            if (vc->nan_any && (exec >> l & 1)) {
                int wn = vc->res64 ? nan64(want) : nan32((uint32_t)want) || nan16((uint32_t)want & 0xFFFF);
                if (wn && (vc->res64 ? nan64(got) : (nan32((uint32_t)got) || nan16((uint32_t)got & 0xFFFF))))
                    continue;
            }
            CHECK_MSG(got == want,
                      "%s lane %u: a 0x%llx b 0x%llx d 0x%llx old 0x%llx: got 0x%llx, want 0x%llx",
                      vc->line, l, (unsigned long long)r[l].a, (unsigned long long)r[l].b,
                      (unsigned long long)r[l].d, (unsigned long long)r[l].old,
                      (unsigned long long)got, (unsigned long long)want);
        }
        if (vc->carry)
            CHECK_EQ_HEX(carry_got, carry_want);
    }
    ut_context("%s", "");
}

#define V1 "v8"
#define V2 "v[8:9]"
static const vcase int_cases[] = {
    { "v_mad_i32_i24 v8, v2, v4, v6", r_mad_i24, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_mad_i32_i24 v8, v2, v4, v6 clamp", r_mad_i24, { K_I32, K_I32, K_I32 }, 1, 0, 0, 0, 0, 0 },
    { "v_mad_u32_u24 v8, v2, v4, v6", r_mad_u24, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_mad_u32_u24 v8, v2, v4, v6 clamp", r_mad_u24, { K_I32, K_I32, K_I32 }, 1, 0, 0, 0, 0, 0 },
    { "v_bfe_i32 v8, v2, v4, v6", r_bfe_i32, { K_I32, K_SMALL, K_SMALL }, 0, 0, 0, 0, 0, 0 },
    { "v_lerp_u8 v8, v2, v4, v6", r_lerp, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_alignbit_b32 v8, v2, v4, v6", r_alignbit, { K_I32, K_I32, K_SMALL }, 0, 0, 0, 0, 0, 0 },
    { "v_alignbyte_b32 v8, v2, v4, v6", r_alignbyte, { K_I32, K_I32, K_SMALL }, 0, 0, 0, 0, 0, 0 },
    { "v_min3_u32 v8, v2, v4, v6", r_min3_u32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_max3_u32 v8, v2, v4, v6", r_max3_u32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_med3_u32 v8, v2, v4, v6", r_med3_u32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_min3_i32 v8, v2, v4, v6", r_min3_i32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_max3_i32 v8, v2, v4, v6", r_max3_i32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_med3_i32 v8, v2, v4, v6", r_med3_i32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_sad_u8 v8, v2, v4, v6", r_sad_u8, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_sad_u8 v8, v2, v4, v6 clamp", r_sad_u8, { K_I32, K_I32, K_I32 }, 1, 0, 0, 0, 0, 0 },
    { "v_sad_hi_u8 v8, v2, v4, v6 clamp", r_sad_hi_u8, { K_I32, K_I32, K_I32 }, 1, 0, 0, 0, 0, 0 },
    { "v_sad_hi_u8 v8, v2, v4, v6", r_sad_hi_u8, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_sad_u16 v8, v2, v4, v6", r_sad_u16, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_sad_u32 v8, v2, v4, v6 clamp", r_sad_u32, { K_I32, K_I32, K_I32 }, 1, 0, 0, 0, 0, 0 },
    { "v_msad_u8 v8, v2, v4, v6", r_msad_u8, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_xad_u32 v8, v2, v4, v6", r_xad, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_and_or_b32 v8, v2, v4, v6", r_and_or, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_mul_hi_i32 v8, v2, v4", r_mul_hi_i32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_bcnt_u32_b32 v8, v2, v4", r_bcnt, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_bfm_b32 v8, v2, v4", r_bfm, { K_SMALL, K_SMALL, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_cvt_pk_u16_u32 v8, v2, v4", r_pk_u16_u32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_cvt_pk_i16_i32 v8, v2, v4", r_pk_i16_i32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_add_i32 v8, v2, v4", r_add_i32, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_add_i32 v8, v2, v4 clamp", r_add_i32, { K_I32, K_I32, K_I32 }, 1, 0, 0, 0, 0, 0 },
    { "v_sub_i32 v8, v2, v4 clamp", r_sub_i32, { K_I32, K_I32, K_I32 }, 1, 0, 0, 0, 0, 0 },
    /* constants and SGPRs as sources */
    { "v_med3_i32 v8, -5, v4, 17", r_med3_const, { K_I32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
};

static const vcase wide_cases[] = {
    { "v_lshlrev_b64 v[8:9], v2, v[4:5]", r_lshl64, { K_SMALL, K_I64, K_I64 }, 0, 0, 1, 0, 0, 0 },
    { "v_lshrrev_b64 v[8:9], v2, v[4:5]", r_lshr64, { K_SMALL, K_I64, K_I64 }, 0, 0, 1, 0, 0, 0 },
    { "v_ashrrev_i64 v[8:9], v2, v[4:5]", r_ashr64, { K_SMALL, K_I64, K_I64 }, 0, 0, 1, 0, 0, 0 },
    { "v_lshl_add_u64 v[8:9], v[2:3], v4, v[6:7]", r_lshl_add_u64, { K_I64, K_SMALL, K_I64 }, 0, 0, 1, 0, 0, 0 },
    { "v_mad_u64_u32 v[8:9], s[20:21], v2, v4, v[6:7]", r_mad_u64, { K_I32, K_I32, K_I64 }, 0, 0, 1, 1, 0, 0 },
    { "v_mad_u64_u32 v[8:9], s[20:21], v2, v4, v[6:7] clamp", r_mad_u64, { K_I32, K_I32, K_I64 }, 1, 0, 1, 1, 0, 0 },
    { "v_mad_i64_i32 v[8:9], s[20:21], v2, v4, v[6:7]", r_mad_i64, { K_I32, K_I32, K_I64 }, 0, 0, 1, 1, 0, 0 },
    { "v_mad_i64_i32 v[8:9], s[20:21], v2, v4, v[6:7] clamp", r_mad_i64, { K_I32, K_I32, K_I64 }, 1, 0, 1, 1, 0, 0 },
};

static const vcase half_cases[] = {
    { "v_mad_u16 v8, v2, v4, v6", r_mad_u16, { K_I16, K_I16, K_I16 }, 0, 0, 0, 0, 0, 0 },
    { "v_mad_u16 v8, v2, v4, v6 op_sel:[1,0,1,1] clamp", r_mad_u16, { K_I16, K_I16, K_I16 }, 1, 0xD, 0, 0, 0, 0 },
    { "v_mad_i16 v8, v2, v4, v6 op_sel:[0,1,0,0]", r_mad_i16, { K_I16, K_I16, K_I16 }, 0, 0x2, 0, 0, 0, 0 },
    { "v_mad_i16 v8, v2, v4, v6 clamp", r_mad_i16, { K_I16, K_I16, K_I16 }, 1, 0, 0, 0, 0, 0 },
    { "v_mad_legacy_u16 v8, v2, v4, v6 clamp", r_mad_u16, { K_I16, K_I16, K_I16 }, 1, 0, 0, 0, 0, 0 },
    { "v_mad_legacy_i16 v8, v2, v4, v6", r_mad_i16, { K_I16, K_I16, K_I16 }, 0, 0, 0, 0, 0, 0 },
    { "v_min3_u16 v8, v2, v4, v6 op_sel:[1,1,1,1]", r_min3_u16, { K_I16, K_I16, K_I16 }, 0, 0xF, 0, 0, 0, 0 },
    { "v_max3_u16 v8, v2, v4, v6", r_max3_u16, { K_I16, K_I16, K_I16 }, 0, 0, 0, 0, 0, 0 },
    { "v_med3_u16 v8, v2, v4, v6 op_sel:[0,0,1,0]", r_med3_u16, { K_I16, K_I16, K_I16 }, 0, 0x4, 0, 0, 0, 0 },
    { "v_min3_i16 v8, v2, v4, v6 op_sel:[1,0,0,0]", r_min3_i16, { K_I16, K_I16, K_I16 }, 0, 0x1, 0, 0, 0, 0 },
    { "v_max3_i16 v8, v2, v4, v6 op_sel:[0,0,0,1]", r_max3_i16, { K_I16, K_I16, K_I16 }, 0, 0x8, 0, 0, 0, 0 },
    { "v_med3_i16 v8, v2, v4, v6", r_med3_i16, { K_I16, K_I16, K_I16 }, 0, 0, 0, 0, 0, 0 },
    { "v_add_i16 v8, v2, v4 op_sel:[1,0,1] clamp", r_add_i16, { K_I16, K_I16, K_I16 }, 1, 0x9, 0, 0, 0, 0 },
    { "v_add_i16 v8, v2, v4", r_add_i16, { K_I16, K_I16, K_I16 }, 0, 0, 0, 0, 0, 0 },
    { "v_sub_i16 v8, v2, v4 op_sel:[0,1,0] clamp", r_sub_i16, { K_I16, K_I16, K_I16 }, 1, 0x2, 0, 0, 0, 0 },
    { "v_mad_u32_u16 v8, v2, v4, v6 op_sel:[1,1,0,0] clamp", r_mad_u32_u16, { K_I16, K_I16, K_I32 }, 1, 0x3, 0, 0, 0, 0 },
    { "v_mad_i32_i16 v8, v2, v4, v6 op_sel:[0,1,0,0]", r_mad_i32_i16, { K_I16, K_I16, K_I32 }, 0, 0x2, 0, 0, 0, 0 },
    { "v_mad_i32_i16 v8, v2, v4, v6 clamp", r_mad_i32_i16, { K_I16, K_I16, K_I32 }, 1, 0, 0, 0, 0, 0 },
    { "v_min3_f16 v8, v2, v4, v6 op_sel:[1,0,1,0]", r_min3_f16, { K_F16, K_F16, K_F16 }, 0, 0x5, 0, 0, 0, 0 },
    { "v_max3_f16 v8, v2, v4, v6 op_sel:[0,1,0,1]", r_max3_f16, { K_F16, K_F16, K_F16 }, 0, 0xA, 0, 0, 0, 0 },
    { "v_med3_f16 v8, v2, v4, v6", r_med3_f16, { K_F16, K_F16, K_F16 }, 0, 0, 0, 0, 0, 0 },
    { "v_fma_f16 v8, v2, v4, v6", r_fma_f16, { K_F16, K_F16, K_F16 }, 0, 0, 0, 0, 1, 0 },
    { "v_fma_f16 v8, v2, v4, v6 op_sel:[1,1,0,1]", r_fma_f16, { K_F16, K_F16, K_F16 }, 0, 0xB, 0, 0, 1, 0 },
    { "v_cvt_pknorm_i16_f16 v8, v2, v4 op_sel:[1,0,0]", r_pknorm_i16_f16, { K_F16, K_F16, K_F16 }, 0, 0x1, 0, 0, 0, 0 },
    { "v_cvt_pknorm_u16_f16 v8, v2, v4 op_sel:[0,1,0]", r_pknorm_u16_f16, { K_F16, K_F16, K_F16 }, 0, 0x2, 0, 0, 0, 0 },
};

static const vcase float_cases[] = {
    { "v_min3_f32 v8, v2, v4, v6", r_min3_f32, { K_F32, K_F32, K_F32 }, 0, 0, 0, 0, 0, 0 },
    { "v_max3_f32 v8, v2, v4, v6", r_max3_f32, { K_F32, K_F32, K_F32 }, 0, 0, 0, 0, 0, 0 },
    { "v_med3_f32 v8, v2, v4, v6", r_med3_f32, { K_F32, K_F32, K_F32 }, 0, 0, 0, 0, 0, 0 },
    { "v_minimum3_f32 v8, v2, v4, v6", r_minimum3, { K_F32, K_F32, K_F32 }, 0, 0, 0, 0, 0, 1 },
    { "v_maximum3_f32 v8, v2, v4, v6", r_maximum3, { K_F32, K_F32, K_F32 }, 0, 0, 0, 0, 0, 1 },
    { "v_ldexp_f32 v8, v2, v4", r_ldexp_f32, { K_F32, K_I32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_ldexp_f32 v8, v2, v4", r_ldexp_f32, { K_F32, K_SMALL, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_mul_legacy_f32 v8, v2, v4", r_mul_legacy, { K_F32, K_F32, K_I32 }, 0, 0, 0, 0, 1, 0 },
    { "v_min_f64 v[8:9], v[2:3], v[4:5]", r_min_f64, { K_F64, K_F64, K_F64 }, 0, 0, 1, 0, 0, 0 },
    { "v_max_f64 v[8:9], v[2:3], v[4:5]", r_max_f64, { K_F64, K_F64, K_F64 }, 0, 0, 1, 0, 0, 0 },
    { "v_ldexp_f64 v[8:9], v[2:3], v4", r_ldexp_f64, { K_F64, K_I32, K_I32 }, 0, 0, 1, 0, 0, 0 },
    { "v_cvt_pknorm_i16_f32 v8, v2, v4", r_pknorm_i16_f32, { K_F32, K_F32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_cvt_pknorm_u16_f32 v8, v2, v4", r_pknorm_u16_f32, { K_F32, K_F32, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_cvt_pk_u8_f32 v8, v2, v4, v6", r_pk_u8, { K_F32, K_SMALL, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_cvt_pk_fp8_f32 v8, v2, v4", r_pk_fp8, { K_F8R, K_F8R, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_cvt_pk_fp8_f32 v8, v2, v4 op_sel:[0,0,1]", r_pk_fp8, { K_F8R, K_F8R, K_I32 }, 0, 8, 0, 0, 0, 0 },
    { "v_cvt_pk_bf8_f32 v8, v2, v4", r_pk_bf8, { K_F8R, K_F8R, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_cvt_pk_fp8_f32 v8, v2, v4", r_pk_fp8_ocp, { K_F8R, K_F8R, K_I32 }, 0, 0, 0, 0, 0, 1 },
    { "v_cvt_pk_bf8_f32 v8, v2, v4 op_sel:[0,0,1]", r_pk_bf8_ocp, { K_F8R, K_F8R, K_I32 }, 0, 8, 0, 0, 0, 1 },
    { "v_cvt_pkaccum_u8_f32 v8, v2, v4", r_pkaccum, { K_F32, K_SMALL, K_I32 }, 0, 0, 0, 0, 0, 0 },
    { "v_cvt_pk_f16_f32 v8, v2, v4", r_pk_f16_f32, { K_F32, K_F32, K_I32 }, 0, 0, 0, 0, 0, 1 },
};

static void run_all(const vcase *cs, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        check_case(&cs[i]);
}
static void integer_three_source(void) { run_all(int_cases, sizeof(int_cases) / sizeof(int_cases[0])); }
static void wide_and_carry(void) { run_all(wide_cases, sizeof(wide_cases) / sizeof(wide_cases[0])); }
static void sixteen_bit_op_sel(void) { run_all(half_cases, sizeof(half_cases) / sizeof(half_cases[0])); }
static void float_ops(void) { run_all(float_cases, sizeof(float_cases) / sizeof(float_cases[0])); }

/* Every executed VOP3 row of this file's families is named by a case above. */
static void every_executed_opcode_tested(void)
{
    const vcase *all[4] = { int_cases, wide_cases, half_cases, float_cases };
    unsigned ns[4] = { sizeof(int_cases) / sizeof(int_cases[0]), sizeof(wide_cases) / sizeof(wide_cases[0]),
                       sizeof(half_cases) / sizeof(half_cases[0]), sizeof(float_cases) / sizeof(float_cases[0]) };
    /* rows executed by the older semantics (alu.c) and tested in test_sim_ops.c */
    static const char *const older[] = { "v_mul_lo_u32", "v_mul_hi_u32", "v_mbcnt_lo_u32_b32",
        "v_mbcnt_hi_u32_b32", "v_pack_b32_f16", "v_cvt_pkrtz_f16_f32", "v_lshl_add_u32",
        "v_lshl_or_b32", "v_add_lshl_u32", "v_or3_b32", "v_add3_u32", "v_bfe_u32", "v_bfi_b32",
        "v_perm_b32", "v_fma_f32", "v_div_scale_f32", "v_div_fmas_f32", "v_div_fixup_f32",
        "v_fma_f64", "v_add_f64", "v_mul_f64", "v_cvt_pk_bf16_f32", "v_readlane_b32",
        "v_writelane_b32" };
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if (info->format != WA_FMT_VOP3 || wa_sim_unsupported(op))
            continue;
        int found = 0;
        size_t len = strlen(info->mnemonic);
        for (unsigned g = 0; g < 4 && !found; g++)
            for (unsigned i = 0; i < ns[g] && !found; i++)
                found = strncmp(all[g][i].line, info->mnemonic, len) == 0 && all[g][i].line[len] == ' ';
        for (unsigned i = 0; i < sizeof(older) / sizeof(older[0]) && !found; i++)
            found = strcmp(older[i], info->mnemonic) == 0;
        CHECK_MSG(found, "%s is executed but has no case", info->mnemonic);
    }
}

/* The rows left out stop with WA_E_UNSUPPORTED and the reason; op_sel bits an
   operation gives no meaning stop too. */
static void refused(void)
{
    static const struct {
        const char *line;
        int gfx950;
    } cs[] = {
        { "v_cvt_sr_fp8_f32 v8, v2, v4", 0 },
        { "v_div_scale_f64 v[8:9], vcc, v[2:3], v[4:5], v[6:7]", 0 },
        { "v_trig_preop_f64 v[8:9], v[2:3], v4", 0 },
        { "v_cvt_scalef32_pk_fp8_f32 v8, v2, v4, v6", 1 },
        { "v_bitop3_b32 v8, v2, v4, v6", 1 },
    };
    for (unsigned i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
        vcase vc = { cs[i].line, NULL, { 0, 0, 0 }, 0, 0, 0, 0, 0, cs[i].gfx950 };
        uint32_t in[8 * NL] = { 0 }, out[4 * NL];
        char diag[512];
        CHECK_STATUS(run(&vc, in, out, ~0ull, diag, sizeof(diag)), WA_E_UNSUPPORTED);
        wa_opcode op;
        char mn[64];
        snprintf(mn, sizeof(mn), "%.*s", (int)strcspn(cs[i].line, " "), cs[i].line);
        if (wa_isa_lookup(&op, mn) == WA_OK && wa_sim_unsupported(op))
            CHECK_STR_CONTAINS(diag, wa_sim_unsupported(op));
        else
            CHECK_MSG(0, "%s: not refused by the table", mn);
    }
    vcase vc = { "v_alignbit_b32 v8, v2, v4, v6 op_sel:[1,0,0,0]", NULL, { 0, 0, 0 }, 0, 0, 0, 0, 0, 0 };
    uint32_t in[8 * NL] = { 0 }, out[4 * NL];
    char diag[512];
    CHECK_STATUS(run(&vc, in, out, ~0ull, diag, sizeof(diag)), WA_E_UNSUPPORTED);
    CHECK_STR_CONTAINS(diag, "op_sel");
}

UT_SUITE(UT_CASE(integer_three_source) UT_CASE(wide_and_carry) UT_CASE(sixteen_bit_op_sel)
         UT_CASE(float_ops) UT_CASE(every_executed_opcode_tested) UT_CASE(refused));
