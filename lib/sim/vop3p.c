/* lib/sim/vop3p.c — VOP3P semantics: packed 16-bit integer and f16 math, packed f32,
   dot products, the mixed-precision FMAs and the accumulation-register moves.

   Sources. A packed source holds two elements (the halves of a register, or the two
   registers of a pair for the f32 forms). The low result element reads the element
   op_sel[i] picks, the high one the element op_sel_hi[i] picks (wa_mods stores
   op_sel_hi inverted for these rows); neg_lo[i]/neg_hi[i] flip the sign of the
   float element read for the low/high result. The v_fma_mix rows read source i as
   an f32, or with op_sel_hi[i] as the f16 half op_sel[i] picks; -/|..| apply to
   the value read.

   Inline constants are 32-bit values, as LLVM 22 reads them: an integer
   sign-extended, a float one as the f32 pattern on 32-bit and packed integer
   operands and as the f16 pattern in the low half (high half 0) on f16 operands;
   half selects pick halves of that value like a register's. Where the value the
   hardware supplies is not documented the instruction stops with WA_E_UNSUPPORTED:
   a float constant on a bf16 source or on an f32-read v_fma_mix source, and the
   second register of a constant on a packed f32 source.

   Floats: IEEE mode, denormals kept (the default MODE), results rounded once to
   nearest even (products of f16/bf16 and f32 values are exact in a double; sums are
   rounded to odd in a double first, so the final rounding is the only one). A NaN
   result of a packed f16/f32 operation is the first NaN source element quieted, an
   invalid operation on numbers gives the default NaN; the mixed-precision rows
   (dot products, v_fma_mix) give the default NaN for any NaN result. min/max follow
   v_min_f32/v_max_f32 (IEEE mode: a signaling NaN gives that NaN quieted, a quiet
   one the other operand, -0 below +0); gfx950's v_pk_minimum3/maximum3 are IEEE
   754-2019 minimum/maximum (any NaN gives a NaN). clamp limits a float result to
   [+0, 1] (NaN gives +0: DX10_CLAMP is on) and makes integer add/sub/dot results
   saturate; on min/max it changes nothing. The modifiers whose effect is not
   documented (listed in docs/simulator.md) stop the run. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

#define DEF_NAN16 0x7E00u
#define DEF_NAN32 0x7FC00000u

/* ---- float helpers ------------------------------------------------------------------------ */

static double h2d(uint32_t h) { return (double)sim_f16_to_f32((uint16_t)h); }
static double bf2d(uint32_t h) { return (double)sim_bf16_to_f32((uint16_t)h); }
static double f2d(uint32_t b) { return (double)sim_f32(b); }
static int nan16(uint32_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu); }
static int nan32(uint32_t b) { return (b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu); }

/* A double rounded to nearest even f16 bits (overflow to infinity, NaN default).
   With n units of the last place 2^u (u = -24 in the subnormal and lowest normal
   binade), the f16 encoding is ((u + 24) << 10) + n, a carry into the next binade
   included. */
static uint32_t d2h(double v)
{
    if (isnan(v))
        return DEF_NAN16;
    uint32_t sign = signbit(v) ? 0x8000u : 0;
    double a = fabs(v);
    if (a == 0.0)
        return sign;
    if (a >= 65520.0) /* the largest f16, 65504, plus half an ulp */
        return sign | 0x7C00u;
    int e;
    (void)frexp(a, &e); /* a in [2^(e-1), 2^e) */
    int u = e - 11 < -24 ? -24 : e - 11;
    double q = ldexp(a, -u), fl = floor(q), rem = q - fl;
    uint32_t n = (uint32_t)fl;
    if (rem > 0.5 || (rem == 0.5 && (n & 1u)))
        n++;
    uint32_t bits = ((uint32_t)(u + 24) << 10) + n;
    return sign | (bits >= 0x7C00u ? 0x7C00u : bits);
}

/* A double rounded to nearest even f32 bits (overflow to infinity). */
static uint32_t d2f(double v)
{
    if (isnan(v))
        return DEF_NAN32;
    if (fabs(v) >= 0x1.ffffffp+127)
        return v < 0 ? 0xFF800000u : 0x7F800000u;
    return sim_f32_bits((float)v);
}

static void two_sum(double a, double b, double *s, double *e)
{
    *s = a + b;
    double bb = *s - a;
    *e = (a - (*s - bb)) + (b - bb);
}

/* r nudged to odd when `rest` (the exact remainder) is not zero: rounding r to 24 or
   fewer bits afterwards equals rounding the exact value once. */
static double to_odd(double r, double rest)
{
    uint64_t bits;
    memcpy(&bits, &r, sizeof(bits));
    if (rest != 0.0 && !(bits & 1u) && isfinite(r))
        r = nextafter(r, rest > 0 ? INFINITY : -INFINITY);
    return r;
}

/* x + y (exact doubles) rounded to odd. */
static double sum2_odd(double x, double y)
{
    if (!isfinite(x) || !isfinite(y))
        return x + y;
    double s, e;
    two_sum(x, y, &s, &e);
    return to_odd(s, e);
}

/* x + y + z (exact doubles) rounded to odd. */
static double sum3_odd(double x, double y, double z)
{
    if (!isfinite(x) || !isfinite(y) || !isfinite(z))
        return x + y + z;
    double a, ea, b, eb, t, et, r, er;
    two_sum(x, y, &a, &ea);
    two_sum(a, z, &b, &eb);
    two_sum(ea, eb, &t, &et);
    two_sum(b, t, &r, &er);
    return to_odd(r, er != 0.0 ? er : et);
}

/* clamp of a float result to [+0, 1] (NaN -> +0) */
static uint32_t clamp16(uint32_t h)
{
    if (nan16(h) || (h & 0x8000u))
        return 0;
    return h > 0x3C00u ? 0x3C00u : h;
}
static uint32_t clamp32(uint32_t b)
{
    if (nan32(b) || (b & 0x80000000u))
        return 0;
    return b > 0x3F800000u ? 0x3F800000u : b;
}

/* ---- sources ------------------------------------------------------------------------------ */

/* The operand index of source slot s. */
static unsigned src_opnd(const sim_ctx *c, unsigned s)
{
    for (unsigned k = 0; k < c->info->num_operands; k++)
        if (wa_source_slot(c->info, k) == (int)s)
            return k;
    return 0;
}

static int is_imm(const sim_ctx *c, unsigned k)
{
    const wa_operand *o = &c->in->ops[k];
    return o->kind == WA_OPND_IMM || o->kind == WA_OPND_FIMM;
}

/* The 32-bit value of the constant operand k read as register `comp` (0, or 1 for
   the second register of a packed f32 source); `as_f32` for an f32-read v_fma_mix
   source. 0 after a refusal. */
static int const_word(sim_ctx *c, unsigned k, unsigned comp, int as_f32, uint32_t *out)
{
    const wa_operand *o = &c->in->ops[k];
    wa_data_type ty = (wa_data_type)c->info->operands[k].type;
    const char *mn = c->info->mnemonic;
    int is_int = 0;
    int64_t iv = 0;
    double d = 0;
    if (o->kind == WA_OPND_IMM) {
        iv = o->imm.i;
        if (iv >= 0xFFFFFFF0ll && iv <= 0xFFFFFFFFll)
            iv -= 0x100000000ll;
        else if (ty == WA_TY_F16 && iv >= 0xFFF0 && iv <= 0xFFFF)
            iv -= 0x10000;
        if (iv >= -16 && iv <= 64) {
            is_int = 1;
        } else {
            /* an inline float written as its bit pattern */
            d = ty == WA_TY_F16 || ty == WA_TY_PK_F16 ? h2d((uint32_t)iv)
                : ty == WA_TY_PK_BF16                 ? bf2d((uint32_t)iv)
                                                      : f2d((uint32_t)iv);
        }
    } else {
        d = o->imm.f;
    }
    if (comp) {
        sim_fail(c, WA_E_UNSUPPORTED,
                 "%s: the second register of a constant on a packed f32 source is not "
                 "documented (op_sel/op_sel_hi pick it)", mn);
        return 0;
    }
    if (is_int) {
        *out = (uint32_t)(int32_t)iv;
        return 1;
    }
    if (ty == WA_TY_PK_BF16 || (ty == WA_TY_F16 && as_f32)) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: the value of the inline float constant %g on %s "
                 "source is not documented", mn, d,
                 ty == WA_TY_PK_BF16 ? "a bf16" : "an f32-read");
        return 0;
    }
    if (ty == WA_TY_F16 || ty == WA_TY_PK_F16)
        *out = d2h(d);
    else
        *out = d2f(d);
    return 1;
}

/* Register `comp` of source slot s, per lane; 0 after a failure. */
static int read_src(sim_ctx *c, unsigned s, unsigned comp, int as_f32, uint32_t out[SIM_LANES],
                    uint64_t *def)
{
    unsigned k = src_opnd(c, s);
    if (is_imm(c, k)) {
        uint32_t v;
        if (!const_word(c, k, comp, as_f32, &v))
            return 0;
        for (unsigned l = 0; l < SIM_LANES; l++)
            out[l] = v;
        *def = SIM_ALL_LANES;
        return !sim_failed(c);
    }
    sim_read_vec(c, k, comp, out, def);
    return !sim_failed(c);
}

static int sel_lo(const sim_ctx *c, unsigned s) { return c->in->mods.op_sel >> s & 1u; }
/* packed rows: op_sel_hi is stored inverted */
static int sel_hi(const sim_ctx *c, unsigned s) { return !(c->in->mods.op_sel_hi >> s & 1u); }

/* Packed 16-bit source slot s: lo[l] and hi[l] are the elements read for the low
   and high result, with neg_lo/neg_hi applied when `fneg` (float elements). */
static int read_pk16(sim_ctx *c, unsigned s, int fneg, uint32_t lo[SIM_LANES],
                     uint32_t hi[SIM_LANES], uint64_t *def)
{
    uint32_t w[SIM_LANES];
    if (!read_src(c, s, 0, 0, w, def))
        return 0;
    unsigned ls = sel_lo(c, s) ? 16u : 0u, hs = sel_hi(c, s) ? 16u : 0u;
    uint32_t nl = fneg && (c->in->mods.neg >> s & 1u) ? 0x8000u : 0;
    uint32_t nh = fneg && (c->in->mods.neg_hi >> s & 1u) ? 0x8000u : 0;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        lo[l] = ((w[l] >> ls) & 0xFFFFu) ^ nl;
        hi[l] = ((w[l] >> hs) & 0xFFFFu) ^ nh;
    }
    return 1;
}

/* Packed f32 source slot s: the registers op_sel/op_sel_hi pick, negated as asked. */
static int read_pk32(sim_ctx *c, unsigned s, uint32_t lo[SIM_LANES], uint32_t hi[SIM_LANES],
                     uint64_t *def)
{
    uint64_t d0, d1;
    if (!read_src(c, s, (unsigned)sel_lo(c, s), 0, lo, &d0) ||
        !read_src(c, s, (unsigned)sel_hi(c, s), 0, hi, &d1))
        return 0;
    uint32_t nl = (c->in->mods.neg >> s & 1u) ? 0x80000000u : 0;
    uint32_t nh = (c->in->mods.neg_hi >> s & 1u) ? 0x80000000u : 0;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        lo[l] ^= nl;
        hi[l] ^= nh;
    }
    *def = d0 & d1;
    return 1;
}

static int refuse(sim_ctx *c, const char *what)
{
    sim_fail(c, WA_E_UNSUPPORTED, "%s: %s is not documented for this instruction",
             c->info->mnemonic, what);
    return 1;
}

/* Refuses integer-row modifiers: neg_lo/neg_hi always, clamp unless `clamp_ok`. */
static int int_mods_refused(sim_ctx *c, int clamp_ok)
{
    const wa_mods *m = &c->in->mods;
    if (m->neg || m->neg_hi)
        return refuse(c, "neg_lo/neg_hi on integer elements");
    if ((m->flags & WA_MOD_CLAMP) && !clamp_ok)
        return refuse(c, "clamp");
    return 0;
}

/* ---- packed 16-bit ------------------------------------------------------------------------ */

enum {
    PK_MUL_LO, PK_ADD_I, PK_SUB_I, PK_LSHL, PK_LSHR, PK_ASHR, PK_MAX_I, PK_MIN_I, PK_ADD_U,
    PK_SUB_U, PK_MAX_U, PK_MIN_U, PK_MAD_I, PK_MAD_U,
    PK_FMA_F, PK_ADD_F, PK_MUL_F, PK_MIN_F, PK_MAX_F, PK_MINIMUM3_F, PK_MAXIMUM3_F
};

static uint32_t sat_i16(int32_t v) { return (uint32_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v) & 0xFFFFu; }
static uint32_t sat_u16(int32_t v) { return (uint32_t)(v > 65535 ? 65535 : v < 0 ? 0 : v); }
static int32_t s16(uint32_t v) { return (int32_t)(int16_t)(uint16_t)v; }

static uint32_t int16_op(unsigned kind, uint32_t a, uint32_t b, uint32_t d, int clamp)
{
    switch (kind) {
    case PK_MUL_LO: return (a * b) & 0xFFFFu;
    case PK_ADD_I: return clamp ? sat_i16(s16(a) + s16(b)) : (a + b) & 0xFFFFu;
    case PK_SUB_I: return clamp ? sat_i16(s16(a) - s16(b)) : (a - b) & 0xFFFFu;
    case PK_ADD_U: return clamp ? sat_u16((int32_t)(a + b)) : (a + b) & 0xFFFFu;
    case PK_SUB_U: return clamp ? sat_u16((int32_t)a - (int32_t)b) : (a - b) & 0xFFFFu;
    case PK_LSHL: return (b << (a & 15u)) & 0xFFFFu;
    case PK_LSHR: return b >> (a & 15u);
    case PK_ASHR: return (uint32_t)(s16(b) >> (a & 15u)) & 0xFFFFu;
    case PK_MAX_I: return s16(a) > s16(b) ? a : b;
    case PK_MIN_I: return s16(a) < s16(b) ? a : b;
    case PK_MAX_U: return a > b ? a : b;
    case PK_MIN_U: return a < b ? a : b;
    case PK_MAD_I: return (uint32_t)(s16(a) * s16(b) + s16(d)) & 0xFFFFu;
    case PK_MAD_U: return (a * b + d) & 0xFFFFu;
    default: return 0;
    }
}

/* quieted f16 NaN */
static uint32_t q16(uint32_t h) { return h | 0x200u; }

/* v_min_f16/v_max_f16 in IEEE mode, as v_min_f32/v_max_f32 */
static uint32_t minmax16(uint32_t a, uint32_t b, int max)
{
    int sa = nan16(a) && !(a & 0x200u), sb = nan16(b) && !(b & 0x200u);
    if (sa)
        return q16(a);
    if (sb)
        return q16(b);
    if (nan16(a))
        return b;
    if (nan16(b))
        return a;
    if (!((a | b) & 0x7FFFu))
        return max ? a & b : a | b;
    double x = h2d(a), y = h2d(b);
    if (max)
        return x >= y ? a : b;
    return x < y ? a : b;
}

/* IEEE 754-2019 minimum/maximum of two f16: NaN in, NaN out (the first, quieted) */
static uint32_t minmax16_2019(uint32_t a, uint32_t b, int max)
{
    if (nan16(a))
        return q16(a);
    if (nan16(b))
        return q16(b);
    if (!((a | b) & 0x7FFFu))
        return max ? a & b : a | b;
    double x = h2d(a), y = h2d(b);
    if (max)
        return x >= y ? a : b;
    return x < y ? a : b;
}

static uint32_t f16_op(unsigned kind, uint32_t a, uint32_t b, uint32_t d)
{
    switch (kind) {
    case PK_MIN_F: return minmax16(a, b, 0);
    case PK_MAX_F: return minmax16(a, b, 1);
    case PK_MINIMUM3_F: return minmax16_2019(minmax16_2019(a, b, 0), d, 0);
    case PK_MAXIMUM3_F: return minmax16_2019(minmax16_2019(a, b, 1), d, 1);
    default: break;
    }
    if (nan16(a))
        return q16(a);
    if (nan16(b))
        return q16(b);
    if (kind == PK_FMA_F && nan16(d))
        return q16(d);
    double x = h2d(a), y = h2d(b);
    switch (kind) {
    case PK_ADD_F: return d2h(x + y); /* exact in a double */
    case PK_MUL_F: return d2h(x * y);
    case PK_FMA_F: return d2h(sum2_odd(x * y, h2d(d)));
    default: return 0;
    }
}

static void pk16(sim_ctx *c, unsigned kind)
{
    int fl = kind >= PK_FMA_F;
    unsigned nsrc = wa_source_count(c->info);
    int clamp = (c->in->mods.flags & WA_MOD_CLAMP) != 0;
    if (!fl) {
        int clamp_ok = kind == PK_ADD_I || kind == PK_SUB_I || kind == PK_ADD_U || kind == PK_SUB_U ||
                       kind == PK_MAX_I || kind == PK_MIN_I || kind == PK_MAX_U || kind == PK_MIN_U;
        if (int_mods_refused(c, clamp_ok))
            return;
    }
    uint32_t lo[3][SIM_LANES], hi[3][SIM_LANES], r[SIM_LANES];
    uint64_t def = SIM_ALL_LANES, ex = sim_exec(c);
    for (unsigned s = 0; s < nsrc; s++) {
        uint64_t d;
        if (!read_pk16(c, s, fl, lo[s], hi[s], &d))
            return;
        def &= d;
    }
    if (nsrc < 3) {
        memset(lo[2], 0, sizeof(lo[2]));
        memset(hi[2], 0, sizeof(hi[2]));
    }
    for (unsigned l = 0; l < SIM_LANES; l++) {
        if (!(ex >> l & 1u)) {
            r[l] = 0;
            continue;
        }
        uint32_t rl, rh;
        if (fl) {
            rl = f16_op(kind, lo[0][l], lo[1][l], lo[2][l]);
            rh = f16_op(kind, hi[0][l], hi[1][l], hi[2][l]);
            if (clamp) {
                rl = clamp16(rl);
                rh = clamp16(rh);
            }
        } else {
            rl = int16_op(kind, lo[0][l], lo[1][l], lo[2][l], clamp);
            rh = int16_op(kind, hi[0][l], hi[1][l], hi[2][l], clamp);
        }
        r[l] = rl | rh << 16;
    }
    sim_write_vec(c, 0, 0, r, ex, def);
}

#define PK16(name, kind) static void op_##name(sim_ctx *c) { pk16(c, kind); }
PK16(pk_mul_lo_u16, PK_MUL_LO)
PK16(pk_add_i16, PK_ADD_I)
PK16(pk_sub_i16, PK_SUB_I)
PK16(pk_lshlrev_b16, PK_LSHL)
PK16(pk_lshrrev_b16, PK_LSHR)
PK16(pk_ashrrev_i16, PK_ASHR)
PK16(pk_max_i16, PK_MAX_I)
PK16(pk_min_i16, PK_MIN_I)
PK16(pk_add_u16, PK_ADD_U)
PK16(pk_sub_u16, PK_SUB_U)
PK16(pk_max_u16, PK_MAX_U)
PK16(pk_min_u16, PK_MIN_U)
PK16(pk_mad_i16, PK_MAD_I)
PK16(pk_mad_u16, PK_MAD_U)
PK16(pk_fma_f16, PK_FMA_F)
PK16(pk_add_f16, PK_ADD_F)
PK16(pk_mul_f16, PK_MUL_F)
PK16(pk_min_f16, PK_MIN_F)
PK16(pk_max_f16, PK_MAX_F)
PK16(pk_minimum3_f16, PK_MINIMUM3_F)
PK16(pk_maximum3_f16, PK_MAXIMUM3_F)

/* ---- packed f32 --------------------------------------------------------------------------- */

enum { PF_FMA, PF_MUL, PF_ADD };

static uint32_t f32_op(unsigned kind, uint32_t a, uint32_t b, uint32_t d)
{
    if (nan32(a))
        return a | 0x400000u;
    if (nan32(b))
        return b | 0x400000u;
    if (kind == PF_FMA && nan32(d))
        return d | 0x400000u;
    float x = sim_f32(a), y = sim_f32(b);
    float r = kind == PF_FMA ? fmaf(x, y, sim_f32(d)) : kind == PF_MUL ? x * y : x + y;
    return isnan(r) ? DEF_NAN32 : sim_f32_bits(r);
}

static void pk32(sim_ctx *c, unsigned kind)
{
    unsigned nsrc = wa_source_count(c->info);
    int clamp = (c->in->mods.flags & WA_MOD_CLAMP) != 0;
    uint32_t lo[3][SIM_LANES], hi[3][SIM_LANES], rl[SIM_LANES], rh[SIM_LANES];
    uint64_t def = SIM_ALL_LANES, ex = sim_exec(c);
    for (unsigned s = 0; s < nsrc; s++) {
        uint64_t d;
        if (!read_pk32(c, s, lo[s], hi[s], &d))
            return;
        def &= d;
    }
    if (nsrc < 3) {
        memset(lo[2], 0, sizeof(lo[2]));
        memset(hi[2], 0, sizeof(hi[2]));
    }
    for (unsigned l = 0; l < SIM_LANES; l++) {
        rl[l] = rh[l] = 0;
        if (!(ex >> l & 1u))
            continue;
        rl[l] = f32_op(kind, lo[0][l], lo[1][l], lo[2][l]);
        rh[l] = f32_op(kind, hi[0][l], hi[1][l], hi[2][l]);
        if (clamp) {
            rl[l] = clamp32(rl[l]);
            rh[l] = clamp32(rh[l]);
        }
    }
    sim_write_vec(c, 0, 0, rl, ex, def);
    sim_write_vec(c, 0, 1, rh, ex, def);
}
static void op_pk_fma_f32(sim_ctx *c) { pk32(c, PF_FMA); }
static void op_pk_mul_f32(sim_ctx *c) { pk32(c, PF_MUL); }
static void op_pk_add_f32(sim_ctx *c) { pk32(c, PF_ADD); }

/* v_pk_mov_b32: D[0] = src0's register op_sel[0], D[1] = src1's register op_sel[1]. */
static void op_pk_mov_b32(sim_ctx *c)
{
    const wa_mods *m = &c->in->mods;
    if (m->op_sel_hi || m->neg || m->neg_hi || (m->flags & WA_MOD_CLAMP)) {
        refuse(c, m->op_sel_hi ? "op_sel_hi" : (m->neg || m->neg_hi) ? "neg_lo/neg_hi" : "clamp");
        return;
    }
    uint32_t a[SIM_LANES], b[SIM_LANES];
    uint64_t da, db, ex = sim_exec(c);
    if (!read_src(c, 0, (unsigned)sel_lo(c, 0), 0, a, &da) ||
        !read_src(c, 1, (unsigned)sel_lo(c, 1), 0, b, &db))
        return;
    sim_write_vec(c, 0, 0, a, ex, da & db);
    sim_write_vec(c, 0, 1, b, ex, da & db);
}

/* ---- dot products ------------------------------------------------------------------------- */

/* The accumulator (src2, 32 bits) takes no modifier whose reading is documented. */
static int dot_mods_refused(sim_ctx *c, int float_elems)
{
    const wa_mods *m = &c->in->mods;
    if (!float_elems && (m->neg || m->neg_hi))
        return refuse(c, "neg_lo/neg_hi on integer elements");
    if ((m->neg | m->neg_hi) & 4u)
        return refuse(c, "neg_lo/neg_hi on the 32-bit accumulator");
    if ((m->op_sel | m->op_sel_hi) & 4u)
        return refuse(c, "op_sel/op_sel_hi on the 32-bit accumulator");
    return 0;
}

enum { DOT2_F16, DOT2_BF16, DOT2_I16, DOT2_U16, DOT4_I8, DOT4_U8, DOT8_I4, DOT8_U4 };

static uint32_t sat32(int64_t v, int sgn)
{
    if (sgn)
        return (uint32_t)(int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
    return (uint32_t)(v > (int64_t)UINT32_MAX ? UINT32_MAX : v < 0 ? 0 : v);
}

/* sum of `n` products of `bits`-bit fields of a and b (signed or not) */
static int64_t dot_int(uint32_t a, uint32_t b, unsigned n, unsigned bits, int sgn)
{
    int64_t acc = 0;
    uint32_t mask = (1u << bits) - 1u;
    for (unsigned k = 0; k < n; k++) {
        uint32_t x = (a >> (bits * k)) & mask, y = (b >> (bits * k)) & mask;
        int64_t xs = x, ys = y;
        if (sgn) {
            xs = (x & (1u << (bits - 1))) ? (int64_t)x - (1ll << bits) : (int64_t)x;
            ys = (y & (1u << (bits - 1))) ? (int64_t)y - (1ll << bits) : (int64_t)y;
        }
        acc += xs * ys;
    }
    return acc;
}

static void dot(sim_ctx *c, unsigned kind)
{
    int fl = kind == DOT2_F16 || kind == DOT2_BF16;
    int two = kind <= DOT2_U16;
    if (dot_mods_refused(c, fl))
        return;
    int clamp = (c->in->mods.flags & WA_MOD_CLAMP) != 0;
    uint32_t al[SIM_LANES], ah[SIM_LANES], bl[SIM_LANES], bh[SIM_LANES], a[SIM_LANES],
        b[SIM_LANES], d[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, dd, ex = sim_exec(c);
    if (two) {
        if (!read_pk16(c, 0, fl, al, ah, &da) || !read_pk16(c, 1, fl, bl, bh, &db))
            return;
    } else if (!read_src(c, 0, 0, 0, a, &da) || !read_src(c, 1, 0, 0, b, &db)) {
        return;
    }
    if (!read_src(c, 2, 0, 0, d, &dd))
        return;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        r[l] = 0;
        if (!(ex >> l & 1u))
            continue;
        switch (kind) {
        case DOT2_F16:
        case DOT2_BF16: {
            double (*cv)(uint32_t) = kind == DOT2_F16 ? h2d : bf2d;
            double p0 = cv(al[l]) * cv(bl[l]), p1 = cv(ah[l]) * cv(bh[l]);
            uint32_t v = d2f(sum3_odd(p0, p1, f2d(d[l])));
            r[l] = clamp ? clamp32(v) : v;
            break;
        }
        case DOT2_I16:
        case DOT2_U16: {
            int sgn = kind == DOT2_I16;
            int64_t p = dot_int(al[l], bl[l], 1, 16, sgn) + dot_int(ah[l], bh[l], 1, 16, sgn);
            int64_t acc = sgn ? (int64_t)(int32_t)d[l] : (int64_t)d[l];
            r[l] = clamp ? sat32(p + acc, sgn) : (uint32_t)(p + acc);
            break;
        }
        default: {
            int sgn = kind == DOT4_I8 || kind == DOT8_I4;
            unsigned n = kind == DOT4_I8 || kind == DOT4_U8 ? 4 : 8;
            int64_t p = dot_int(a[l], b[l], n, 32 / n, sgn);
            int64_t acc = sgn ? (int64_t)(int32_t)d[l] : (int64_t)d[l];
            r[l] = clamp ? sat32(p + acc, sgn) : (uint32_t)(p + acc);
            break;
        }
        }
    }
    sim_write_vec(c, 0, 0, r, ex, da & db & dd);
}
static void op_dot2_f32_f16(sim_ctx *c) { dot(c, DOT2_F16); }
static void op_dot2_f32_bf16(sim_ctx *c) { dot(c, DOT2_BF16); }
static void op_dot2_i32_i16(sim_ctx *c) { dot(c, DOT2_I16); }
static void op_dot2_u32_u16(sim_ctx *c) { dot(c, DOT2_U16); }
static void op_dot4_i32_i8(sim_ctx *c) { dot(c, DOT4_I8); }
static void op_dot4_u32_u8(sim_ctx *c) { dot(c, DOT4_U8); }
static void op_dot8_i32_i4(sim_ctx *c) { dot(c, DOT8_I4); }
static void op_dot8_u32_u4(sim_ctx *c) { dot(c, DOT8_U4); }

/* ---- mixed precision ---------------------------------------------------------------------- */

/* v_fma_mix_f32 (dst 0), mixlo (1: the low half, the high half kept), mixhi (2). */
static void fma_mix(sim_ctx *c, unsigned dst)
{
    const wa_mods *m = &c->in->mods;
    int clamp = (m->flags & WA_MOD_CLAMP) != 0;
    uint32_t w[3][SIM_LANES], old[SIM_LANES], r[SIM_LANES];
    double v[3];
    uint64_t def = SIM_ALL_LANES, ex = sim_exec(c);
    for (unsigned s = 0; s < 3; s++) {
        uint64_t d;
        if (!read_src(c, s, 0, !(m->op_sel_hi >> s & 1u), w[s], &d))
            return;
        def &= d;
    }
    if (dst) {
        uint64_t d;
        sim_read_vec(c, 0, 0, old, &d);
        if (sim_failed(c))
            return;
        def &= d;
    }
    for (unsigned l = 0; l < SIM_LANES; l++) {
        r[l] = 0;
        if (!(ex >> l & 1u))
            continue;
        int anynan = 0;
        for (unsigned s = 0; s < 3; s++) {
            uint32_t x = w[s][l];
            if (m->op_sel_hi >> s & 1u) {
                x = (m->op_sel >> s & 1u) ? x >> 16 : x & 0xFFFFu;
                anynan |= nan16(x);
                v[s] = h2d(x);
            } else {
                anynan |= nan32(x);
                v[s] = f2d(x);
            }
            if (m->abs >> s & 1u)
                v[s] = fabs(v[s]);
            if (m->neg >> s & 1u)
                v[s] = -v[s];
        }
        double sum = anynan ? NAN : sum2_odd(v[0] * v[1], v[2]);
        if (dst == 0) {
            uint32_t b = d2f(sum);
            r[l] = clamp ? clamp32(b) : b;
        } else {
            uint32_t h = d2h(sum);
            if (clamp)
                h = clamp16(h);
            r[l] = dst == 1 ? (old[l] & 0xFFFF0000u) | h : (old[l] & 0xFFFFu) | h << 16;
        }
    }
    sim_write_vec(c, 0, 0, r, ex, def);
}
static void op_fma_mix_f32(sim_ctx *c) { fma_mix(c, 0); }
static void op_fma_mixlo_f16(sim_ctx *c) { fma_mix(c, 1); }
static void op_fma_mixhi_f16(sim_ctx *c) { fma_mix(c, 2); }

/* ---- accumulation registers ---------------------------------------------------------------- */

static void op_accvgpr_move(sim_ctx *c)
{
    uint32_t a[SIM_LANES];
    uint64_t da, ex = sim_exec(c);
    sim_read_vec(c, 1, 0, a, &da);
    sim_write_vec(c, 0, 0, a, ex, da);
}

/* ---- the table ------------------------------------------------------------------------------ */

static const sim_fn vop3p_fns[WA_OP_COUNT_] = {
    [WA_OP_V_ACCVGPR_READ_B32] = op_accvgpr_move,
    [WA_OP_V_ACCVGPR_WRITE_B32] = op_accvgpr_move,
    [WA_OP_V_DOT2_F32_F16] = op_dot2_f32_f16,
    [WA_OP_V_DOT4_I32_I8] = op_dot4_i32_i8,
    [WA_OP_V_DOT2_I32_I16] = op_dot2_i32_i16,
    [WA_OP_V_DOT2_U32_U16] = op_dot2_u32_u16,
    [WA_OP_V_DOT4_U32_U8] = op_dot4_u32_u8,
    [WA_OP_V_DOT8_I32_I4] = op_dot8_i32_i4,
    [WA_OP_V_DOT8_U32_U4] = op_dot8_u32_u4,
    [WA_OP_V_DOT2_F32_BF16] = op_dot2_f32_bf16,
    [WA_OP_V_PK_MAD_I16] = op_pk_mad_i16,
    [WA_OP_V_PK_MUL_LO_U16] = op_pk_mul_lo_u16,
    [WA_OP_V_PK_ADD_I16] = op_pk_add_i16,
    [WA_OP_V_PK_SUB_I16] = op_pk_sub_i16,
    [WA_OP_V_PK_LSHLREV_B16] = op_pk_lshlrev_b16,
    [WA_OP_V_PK_LSHRREV_B16] = op_pk_lshrrev_b16,
    [WA_OP_V_PK_ASHRREV_I16] = op_pk_ashrrev_i16,
    [WA_OP_V_PK_MAX_I16] = op_pk_max_i16,
    [WA_OP_V_PK_MIN_I16] = op_pk_min_i16,
    [WA_OP_V_PK_MAD_U16] = op_pk_mad_u16,
    [WA_OP_V_PK_ADD_U16] = op_pk_add_u16,
    [WA_OP_V_PK_SUB_U16] = op_pk_sub_u16,
    [WA_OP_V_PK_MAX_U16] = op_pk_max_u16,
    [WA_OP_V_PK_MIN_U16] = op_pk_min_u16,
    [WA_OP_V_PK_FMA_F16] = op_pk_fma_f16,
    [WA_OP_V_PK_ADD_F16] = op_pk_add_f16,
    [WA_OP_V_PK_MUL_F16] = op_pk_mul_f16,
    [WA_OP_V_PK_MIN_F16] = op_pk_min_f16,
    [WA_OP_V_PK_MAX_F16] = op_pk_max_f16,
    [WA_OP_V_PK_MINIMUM3_F16] = op_pk_minimum3_f16,
    [WA_OP_V_PK_MAXIMUM3_F16] = op_pk_maximum3_f16,
    [WA_OP_V_PK_FMA_F32] = op_pk_fma_f32,
    [WA_OP_V_PK_MUL_F32] = op_pk_mul_f32,
    [WA_OP_V_PK_ADD_F32] = op_pk_add_f32,
    [WA_OP_V_PK_MOV_B32] = op_pk_mov_b32,
    [WA_OP_V_FMA_MIX_F32] = op_fma_mix_f32,
    [WA_OP_V_FMA_MIXLO_F16] = op_fma_mixlo_f16,
    [WA_OP_V_FMA_MIXHI_F16] = op_fma_mixhi_f16,
};

sim_fn sim_vop3p_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? vop3p_fns[op] : NULL;
}

/* Every VOP3P row executes; the modifiers left out stop at run time. */
const char *sim_vop3p_why_not(unsigned op)
{
    (void)op;
    return NULL;
}
