/* lib/sim/vop2.c — VOP2 semantics (two sources; their VOP3, DPP and SDWA forms).

   As in vop1.c: EXEC lanes only, definedness from the sources, modifiers from the
   operand helpers (vmods.c), 16-bit results with a zero high half, IEEE float
   arithmetic with denormals kept. Integer clamp saturates where the ISA defines
   it for the operation (unsigned adds and subtracts, the carry forms, the integer
   dot products); the semantics say so through sim_ctx.int_clamp. The carry-out of
   the carry forms is a lane mask (inactive lanes 0). The add/sub/logic/shift rows
   the table had before are executed here too (alu.c keeps its copies for the
   other VALU families' helpers). */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

typedef uint32_t (*bin_fn)(uint32_t a, uint32_t b, int clamp);

static float F(uint32_t b) { return sim_f32(b); }
static uint32_t B(float f) { return sim_f32_bits(f); }
static float H(uint32_t b) { return sim_f16_to_f32((uint16_t)b); }
static uint32_t HB(float f) { return sim_f32_to_f16(f); }

/* vdst = f(src0, src1): operands 1 and 2 (or the named ones of the literal-K forms). */
static void v_bin_at(sim_ctx *c, unsigned ka, unsigned kb, bin_fn f, int sat)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, ex = sim_exec(c);
    int clamp = (c->in->mods.flags & WA_MOD_CLAMP) != 0;
    sim_read_vec(c, ka, 0, a, &da);
    sim_read_vec(c, kb, 0, b, &db);
    for (unsigned l = 0; l < SIM_LANES; l++)
        r[l] = ex >> l & 1u ? f(a[l], b[l], clamp) : 0;
    c->int_clamp = sat;
    sim_write_vec(c, 0, 0, r, ex, da & db);
}

#define VBIN(name, expr)                                                                   \
    static uint32_t fn_##name(uint32_t a, uint32_t b, int clamp)                         \
    {                                                                                      \
        (void)clamp;                                                                       \
        return expr;                                                                       \
    }                                                                                      \
    static void op_##name(sim_ctx *c) { v_bin_at(c, 1, 2, fn_##name, 0); }
/* the same for operations whose clamp saturates (the expression reads `clamp`) */
#define VBIN_SAT(name, expr)                                                               \
    static uint32_t fn_##name(uint32_t a, uint32_t b, int clamp) { return expr; }       \
    static void op_##name(sim_ctx *c) { v_bin_at(c, 1, 2, fn_##name, 1); }

/* ---- helpers -------------------------------------------------------------------------------- */

static int32_t sext24(uint32_t a) { return (int32_t)(a << 8) >> 8; }

static uint32_t add_u(uint32_t a, uint32_t b, int clamp, uint32_t max)
{
    uint64_t s = (uint64_t)a + b;
    return clamp && s > max ? max : (uint32_t)s & max;
}
static uint32_t sub_u(uint32_t a, uint32_t b, int clamp, uint32_t max)
{
    return clamp && b > a ? 0 : (a - b) & max;
}

/* IEEE-mode min/max (the ISA's pseudo-code): a signaling NaN gives that NaN
   quieted (src0 first), a quiet NaN the other operand, -0 below +0. `bits` is
   16 or 32. */
static uint32_t minmax(uint32_t a, uint32_t b, int max, unsigned bits)
{
    uint32_t quiet = bits == 32 ? 0x400000u : 0x200u;
    uint32_t expm = bits == 32 ? 0x7F800000u : 0x7C00u, manm = bits == 32 ? 0x7FFFFFu : 0x3FFu;
    uint32_t sign = bits == 32 ? 0x80000000u : 0x8000u;
    int na = (a & expm) == expm && (a & manm), nb = (b & expm) == expm && (b & manm);
    if (na && !(a & quiet))
        return a | quiet;
    if (nb && !(b & quiet))
        return b | quiet;
    if (na)
        return b;
    if (nb)
        return a;
    if (!((a | b) & ~sign)) /* +0 and -0 */
        return max ? a & b : a | b;
    float fa = bits == 32 ? F(a) : H(a), fb = bits == 32 ? F(b) : H(b);
    if (max)
        return fa >= fb ? a : b;
    return fa < fb ? a : b;
}

/* ldexp on f16: the exponent is a signed 16-bit value */
static uint32_t ldexp_f16(uint32_t a, uint32_t b)
{
    int e = (int16_t)b;
    return HB((float)ldexp((double)H(a), e < -64 ? -64 : e > 64 ? 64 : e));
}

/* ---- the two-source operations ------------------------------------------------------------- */

VBIN(subrev_f32, B(F(b) - F(a)))
VBIN(add_f32, B(F(a) + F(b)))
VBIN(sub_f32, B(F(a) - F(b)))
VBIN(mul_f32, B(F(a) * F(b)))
VBIN(min_f32, minmax(a, b, 0, 32))
VBIN(max_f32, minmax(a, b, 1, 32))
VBIN(mul_i32_i24, (uint32_t)(uint64_t)((int64_t)sext24(a) * sext24(b)))
VBIN(mul_hi_i32_i24, (uint32_t)((uint64_t)((int64_t)sext24(a) * sext24(b)) >> 32))
VBIN(mul_u32_u24, (a & 0xFFFFFFu) * (b & 0xFFFFFFu))
VBIN(mul_hi_u32_u24, (uint32_t)(((uint64_t)(a & 0xFFFFFFu) * (b & 0xFFFFFFu)) >> 32))
VBIN(min_i32, (int32_t)a < (int32_t)b ? a : b)
VBIN(max_i32, (int32_t)a > (int32_t)b ? a : b)
VBIN(min_u32, a < b ? a : b)
VBIN(max_u32, a > b ? a : b)
VBIN(lshrrev_b32, b >> (a & 31u))
VBIN(ashrrev_i32, (uint32_t)((int32_t)b >> (a & 31u)))
VBIN(lshlrev_b32, b << (a & 31u))
VBIN(and_b32, a & b)
VBIN(or_b32, a | b)
VBIN(xor_b32, a ^ b)
VBIN(xnor_b32, ~(a ^ b))
VBIN_SAT(add_u32, add_u(a, b, clamp, 0xFFFFFFFFu))
VBIN_SAT(sub_u32, sub_u(a, b, clamp, 0xFFFFFFFFu))
VBIN_SAT(subrev_u32, sub_u(b, a, clamp, 0xFFFFFFFFu))
VBIN(add_f16, HB(H(a) + H(b)))
VBIN(sub_f16, HB(H(a) - H(b)))
VBIN(subrev_f16, HB(H(b) - H(a)))
VBIN(mul_f16, HB(H(a) * H(b)))
VBIN(max_f16, minmax(a & 0xFFFFu, b & 0xFFFFu, 1, 16))
VBIN(min_f16, minmax(a & 0xFFFFu, b & 0xFFFFu, 0, 16))
VBIN(ldexp_f16, ldexp_f16(a, b))
VBIN_SAT(add_u16, add_u(a & 0xFFFFu, b & 0xFFFFu, clamp, 0xFFFFu))
VBIN_SAT(sub_u16, sub_u(a & 0xFFFFu, b & 0xFFFFu, clamp, 0xFFFFu))
VBIN_SAT(subrev_u16, sub_u(b & 0xFFFFu, a & 0xFFFFu, clamp, 0xFFFFu))
VBIN(mul_lo_u16, (a * b) & 0xFFFFu)
VBIN(lshlrev_b16, ((b & 0xFFFFu) << (a & 15u)) & 0xFFFFu)
VBIN(lshrrev_b16, (b & 0xFFFFu) >> (a & 15u))
VBIN(ashrrev_i16, (uint32_t)(uint16_t)((int16_t)b >> (a & 15u)))
VBIN(max_u16, (a & 0xFFFFu) > (b & 0xFFFFu) ? a & 0xFFFFu : b & 0xFFFFu)
VBIN(min_u16, (a & 0xFFFFu) < (b & 0xFFFFu) ? a & 0xFFFFu : b & 0xFFFFu)
VBIN(max_i16, (uint32_t)(uint16_t)((int16_t)a > (int16_t)b ? (int16_t)a : (int16_t)b))
VBIN(min_i16, (uint32_t)(uint16_t)((int16_t)a < (int16_t)b ? (int16_t)a : (int16_t)b))

/* ---- fused multiply-add forms ----------------------------------------------------------------- */

/* fma3(ka, kb, kc): operand ka * operand kb + operand kc. fmamk is written
   vdst, src0, K, src1 and fmaak vdst, src0, src1, K: both are 1 * 2 + 3. */
static void fma3(sim_ctx *c, unsigned ka, unsigned kb, unsigned kc)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], d[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, dd, ex = sim_exec(c);
    sim_read_vec(c, ka, 0, a, &da);
    sim_read_vec(c, kb, 0, b, &db);
    sim_read_vec(c, kc, 0, d, &dd);
    for (unsigned l = 0; l < SIM_LANES; l++)
        r[l] = ex >> l & 1u ? B(fmaf(F(a[l]), F(b[l]), F(d[l]))) : 0;
    sim_write_vec(c, 0, 0, r, ex, da & db & dd);
}
static void op_fmac_f32(sim_ctx *c) { fma3(c, 1, 2, 0); }
static void op_fmamk_f32(sim_ctx *c) { fma3(c, 1, 2, 3); }
static void op_fmaak_f32(sim_ctx *c) { fma3(c, 1, 2, 3); }

static void read64(sim_ctx *c, unsigned k, double out[SIM_LANES], uint64_t *def)
{
    uint32_t lo[SIM_LANES], hi[SIM_LANES];
    uint64_t dl, dh;
    sim_read_vec(c, k, 0, lo, &dl);
    sim_read_vec(c, k, 1, hi, &dh);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint64_t b = (uint64_t)hi[l] << 32 | lo[l];
        memcpy(&out[l], &b, sizeof(b));
    }
    *def = dl & dh;
}

static void op_fmac_f64(sim_ctx *c)
{
    double a[SIM_LANES], b[SIM_LANES], d[SIM_LANES];
    uint32_t lo[SIM_LANES], hi[SIM_LANES];
    uint64_t da, db, dd, ex = sim_exec(c);
    read64(c, 1, a, &da);
    read64(c, 2, b, &db);
    read64(c, 0, d, &dd);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        double r = ex >> l & 1u ? fma(a[l], b[l], d[l]) : 0.0;
        uint64_t bits;
        memcpy(&bits, &r, sizeof(bits));
        lo[l] = (uint32_t)bits;
        hi[l] = (uint32_t)(bits >> 32);
    }
    sim_write_vec(c, 0, 0, lo, ex, da & db & dd);
    sim_write_vec(c, 0, 1, hi, ex, da & db & dd);
}

/* ---- integer dot products (accumulate into vdst) ---------------------------------------------- */

/* Sum of `n` products of signed `bits`-bit elements plus the accumulator, exact;
   clamp saturates it to i32, otherwise it wraps. */
static void dot_int(sim_ctx *c, unsigned n, unsigned bits)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], d[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, dd, ex = sim_exec(c);
    int clamp = (c->in->mods.flags & WA_MOD_CLAMP) != 0;
    sim_read_vec(c, 1, 0, a, &da);
    sim_read_vec(c, 2, 0, b, &db);
    sim_read_vec(c, 0, 0, d, &dd);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        int64_t s = (int32_t)d[l];
        for (unsigned i = 0; i < n; i++) {
            unsigned sh = 32u - bits;
            int32_t x = (int32_t)(a[l] << (sh - i * bits)) >> sh;
            int32_t y = (int32_t)(b[l] << (sh - i * bits)) >> sh;
            s += (int64_t)x * y;
        }
        if (clamp)
            s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
        r[l] = ex >> l & 1u ? (uint32_t)s : 0;
    }
    c->int_clamp = 1;
    sim_write_vec(c, 0, 0, r, ex, da & db & dd);
}
static void op_dot2c_i32_i16(sim_ctx *c) { dot_int(c, 2, 16); }
static void op_dot4c_i32_i8(sim_ctx *c) { dot_int(c, 4, 8); }
static void op_dot8c_i32_i4(sim_ctx *c) { dot_int(c, 8, 4); }

/* ---- carry forms ---------------------------------------------------------------------------- */

/* vdst = src0 + src1 (+ cin) or src0 - src1 (- cin) (rev: the sources swapped);
   sdst gets the carry or borrow of each active lane. clamp saturates. */
static void carry(sim_ctx *c, int sub, int rev, int has_cin)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, ex = sim_exec(c), cin = 0, out = 0;
    int dcin = 1, clamp = (c->in->mods.flags & WA_MOD_CLAMP) != 0;
    sim_read_vec(c, 2, 0, a, &da);
    sim_read_vec(c, 3, 0, b, &db);
    if (has_cin)
        cin = sim_read_s64(c, 4, &dcin);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint64_t x = rev ? b[l] : a[l], y = rev ? a[l] : b[l], ci = has_cin ? (cin >> l & 1u) : 0;
        uint64_t s = sub ? x - y - ci : x + y + ci;
        int cy = sub ? (y + ci > x) : (s >> 32) != 0;
        uint32_t v = (uint32_t)s;
        if (clamp && cy)
            v = sub ? 0 : 0xFFFFFFFFu;
        r[l] = ex >> l & 1u ? v : 0;
        if ((ex >> l & 1u) && cy)
            out |= 1ull << l;
    }
    uint64_t def = da & db & (dcin ? SIM_ALL_LANES : 0);
    c->int_clamp = 1;
    sim_write_vec(c, 0, 0, r, ex, def);
    sim_write_s64(c, 1, out, (def & ex) == ex);
}
static void op_add_co_u32(sim_ctx *c) { carry(c, 0, 0, 0); }
static void op_sub_co_u32(sim_ctx *c) { carry(c, 1, 0, 0); }
static void op_subrev_co_u32(sim_ctx *c) { carry(c, 1, 1, 0); }
static void op_addc_co_u32(sim_ctx *c) { carry(c, 0, 0, 1); }
static void op_subb_co_u32(sim_ctx *c) { carry(c, 1, 0, 1); }
static void op_subbrev_co_u32(sim_ctx *c) { carry(c, 1, 1, 1); }

/* ---- the table --------------------------------------------------------------------------------- */

static const sim_fn vop2_fns[WA_OP_COUNT_] = {
    [WA_OP_V_ADD_F32] = op_add_f32,
    [WA_OP_V_SUB_F32] = op_sub_f32,
    [WA_OP_V_SUBREV_F32] = op_subrev_f32,
    [WA_OP_V_FMAC_F64] = op_fmac_f64,
    [WA_OP_V_MUL_F32] = op_mul_f32,
    [WA_OP_V_MUL_I32_I24] = op_mul_i32_i24,
    [WA_OP_V_MUL_HI_I32_I24] = op_mul_hi_i32_i24,
    [WA_OP_V_MUL_U32_U24] = op_mul_u32_u24,
    [WA_OP_V_MUL_HI_U32_U24] = op_mul_hi_u32_u24,
    [WA_OP_V_MIN_F32] = op_min_f32,
    [WA_OP_V_MAX_F32] = op_max_f32,
    [WA_OP_V_MIN_I32] = op_min_i32,
    [WA_OP_V_MAX_I32] = op_max_i32,
    [WA_OP_V_MIN_U32] = op_min_u32,
    [WA_OP_V_MAX_U32] = op_max_u32,
    [WA_OP_V_LSHRREV_B32] = op_lshrrev_b32,
    [WA_OP_V_ASHRREV_I32] = op_ashrrev_i32,
    [WA_OP_V_LSHLREV_B32] = op_lshlrev_b32,
    [WA_OP_V_AND_B32] = op_and_b32,
    [WA_OP_V_OR_B32] = op_or_b32,
    [WA_OP_V_XOR_B32] = op_xor_b32,
    [WA_OP_V_FMAMK_F32] = op_fmamk_f32,
    [WA_OP_V_FMAAK_F32] = op_fmaak_f32,
    [WA_OP_V_ADD_CO_U32] = op_add_co_u32,
    [WA_OP_V_SUB_CO_U32] = op_sub_co_u32,
    [WA_OP_V_SUBREV_CO_U32] = op_subrev_co_u32,
    [WA_OP_V_ADDC_CO_U32] = op_addc_co_u32,
    [WA_OP_V_SUBB_CO_U32] = op_subb_co_u32,
    [WA_OP_V_SUBBREV_CO_U32] = op_subbrev_co_u32,
    [WA_OP_V_ADD_F16] = op_add_f16,
    [WA_OP_V_SUB_F16] = op_sub_f16,
    [WA_OP_V_SUBREV_F16] = op_subrev_f16,
    [WA_OP_V_MUL_F16] = op_mul_f16,
    [WA_OP_V_ADD_U16] = op_add_u16,
    [WA_OP_V_SUB_U16] = op_sub_u16,
    [WA_OP_V_SUBREV_U16] = op_subrev_u16,
    [WA_OP_V_MUL_LO_U16] = op_mul_lo_u16,
    [WA_OP_V_LSHLREV_B16] = op_lshlrev_b16,
    [WA_OP_V_LSHRREV_B16] = op_lshrrev_b16,
    [WA_OP_V_ASHRREV_I16] = op_ashrrev_i16,
    [WA_OP_V_MAX_F16] = op_max_f16,
    [WA_OP_V_MIN_F16] = op_min_f16,
    [WA_OP_V_MAX_U16] = op_max_u16,
    [WA_OP_V_MAX_I16] = op_max_i16,
    [WA_OP_V_MIN_U16] = op_min_u16,
    [WA_OP_V_MIN_I16] = op_min_i16,
    [WA_OP_V_LDEXP_F16] = op_ldexp_f16,
    [WA_OP_V_ADD_U32] = op_add_u32,
    [WA_OP_V_SUB_U32] = op_sub_u32,
    [WA_OP_V_SUBREV_U32] = op_subrev_u32,
    [WA_OP_V_DOT2C_I32_I16] = op_dot2c_i32_i16,
    [WA_OP_V_DOT4C_I32_I8] = op_dot4c_i32_i8,
    [WA_OP_V_DOT8C_I32_I4] = op_dot8c_i32_i4,
    [WA_OP_V_FMAC_F32] = op_fmac_f32,
    [WA_OP_V_XNOR_B32] = op_xnor_b32,
};

sim_fn sim_vop2_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? vop2_fns[op] : NULL;
}

#define LEGACY_MAD "the unfused multiply-add's intermediate rounding and denormal handling are not documented"
static const char *const vop2_why[WA_OP_COUNT_] = {
    [WA_OP_V_MAC_F32] = LEGACY_MAD,
    [WA_OP_V_MADMK_F32] = LEGACY_MAD,
    [WA_OP_V_MADAK_F32] = LEGACY_MAD,
    [WA_OP_V_MAC_F16] = LEGACY_MAD,
    [WA_OP_V_MADMK_F16] = LEGACY_MAD,
    [WA_OP_V_MADAK_F16] = LEGACY_MAD,
    [WA_OP_V_DOT2C_F32_F16] = "the float dot product's intermediate rounding is not documented",
    [WA_OP_V_DOT2C_F32_BF16] = "the float dot product's intermediate rounding is not documented",
    [WA_OP_V_PK_FMAC_F16] = "packed f16 in a VOP2 encoding (neg/abs/op_sel per half) is not modelled",
};

const char *sim_vop2_why_not(unsigned op)
{
    return op < WA_OP_COUNT_ ? vop2_why[op] : NULL;
}
