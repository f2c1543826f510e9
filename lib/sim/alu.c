/* lib/sim/alu.c — VALU semantics (scalar ALU: salu.c).

   Vector instructions compute in the lanes EXEC enables and leave the others as
   they were; a result lane is defined when the inputs it reads are. The kernels
   run with IEEE mode on and f32/f16 denormals kept (what the emitter's kernel
   descriptor sets), so float operations are the host's IEEE single-precision
   ones; transcendental results (rcp, exp, log, sqrt) are correctly rounded here,
   where the hardware may differ by an ulp. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

/* ---- vector helpers ------------------------------------------------------------------------ */

typedef uint32_t (*un_fn)(uint32_t a);
typedef uint32_t (*bin_fn)(uint32_t a, uint32_t b);
typedef uint32_t (*tri_fn)(uint32_t a, uint32_t b, uint32_t c);

static void v_un(sim_ctx *c, un_fn f)
{
    uint32_t a[SIM_LANES], r[SIM_LANES];
    uint64_t da, ex = sim_exec(c);
    sim_read_vec(c, 1, 0, a, &da);
    for (unsigned l = 0; l < SIM_LANES; l++)
        r[l] = ex >> l & 1u ? f(a[l]) : 0;
    sim_write_vec(c, 0, 0, r, ex, da);
}

static void v_bin(sim_ctx *c, bin_fn f)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, ex = sim_exec(c);
    sim_read_vec(c, 1, 0, a, &da);
    sim_read_vec(c, 2, 0, b, &db);
    for (unsigned l = 0; l < SIM_LANES; l++)
        r[l] = ex >> l & 1u ? f(a[l], b[l]) : 0;
    sim_write_vec(c, 0, 0, r, ex, da & db);
}

static void v_tri(sim_ctx *c, tri_fn f)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], d[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, dd, ex = sim_exec(c);
    sim_read_vec(c, 1, 0, a, &da);
    sim_read_vec(c, 2, 0, b, &db);
    sim_read_vec(c, 3, 0, d, &dd);
    for (unsigned l = 0; l < SIM_LANES; l++)
        r[l] = ex >> l & 1u ? f(a[l], b[l], d[l]) : 0;
    sim_write_vec(c, 0, 0, r, ex, da & db & dd);
}

static float F(uint32_t b) { return sim_f32(b); }
static uint32_t B(float f) { return sim_f32_bits(f); }

/* A double rounded to f32 (nearest even); overflow goes to infinity explicitly,
   since the C conversion of an out-of-range value is undefined. */
static float to_f32_rne(double v)
{
    if (isnan(v))
        return (float)v;
    if (fabs(v) >= 0x1.ffffffp+127)
        return v < 0 ? -INFINITY : INFINITY;
    return (float)v;
}

#define VUN(name, expr)                                     \
    static uint32_t fn_##name(uint32_t a) { return expr; } \
    static void op_##name(sim_ctx *c) { v_un(c, fn_##name); }
#define VBIN(name, expr)                                                 \
    static uint32_t fn_##name(uint32_t a, uint32_t b) { return expr; } \
    static void op_##name(sim_ctx *c) { v_bin(c, fn_##name); }
#define VTRI(name, expr)                                                             \
    static uint32_t fn_##name(uint32_t a, uint32_t b, uint32_t d) { return expr; } \
    static void op_##name(sim_ctx *c) { v_tri(c, fn_##name); }

static uint32_t cvt_u32(float f)
{
    if (isnan(f) || f <= 0.0f)
        return 0;
    if (f >= 4294967296.0f)
        return 0xFFFFFFFFu;
    return (uint32_t)f;
}

static uint32_t perm(uint32_t s0, uint32_t s1, uint32_t sel)
{
    uint64_t src = (uint64_t)s0 << 32 | s1;
    uint32_t r = 0;
    for (unsigned k = 0; k < 4; k++) {
        unsigned s = (sel >> (8 * k)) & 0xFFu;
        uint32_t byte;
        if (s < 8)
            byte = (uint32_t)(src >> (8 * s)) & 0xFFu;
        else if (s == 8)
            byte = (s1 >> 15 & 1u) ? 0xFFu : 0;
        else if (s == 9)
            byte = (s1 >> 31 & 1u) ? 0xFFu : 0;
        else if (s == 10)
            byte = (s0 >> 15 & 1u) ? 0xFFu : 0;
        else if (s == 11)
            byte = (s0 >> 31 & 1u) ? 0xFFu : 0;
        else if (s == 12)
            byte = 0;
        else
            byte = 0xFFu;
        r |= byte << (8 * k);
    }
    return r;
}

/* Bit-field extract: `width` bits from bit `off` (v_bfe_u32 passes 5-bit fields;
   s_bfe_u32 a 7-bit width, where 32 and more take every bit above the offset). */
static uint32_t bfe(uint32_t v, uint32_t off, uint32_t width)
{
    off &= 31;
    if (!width)
        return 0;
    if (width >= 32)
        return v >> off;
    return (v >> off) & ((1u << width) - 1u);
}

/* v_min_f32 / v_max_f32 in IEEE mode (the ISA's pseudo-code): a signaling NaN
   operand gives that NaN quieted (src0 first), a quiet NaN gives the other
   operand, and -0 orders below +0 (the host's fminf/fmaxf may return either
   zero). */
static int is_snan(uint32_t a) { return (a & 0x7FC00000u) == 0x7F800000u && (a & 0x3FFFFFu); }

static uint32_t minmax_f32(uint32_t a, uint32_t b, int max)
{
    if (is_snan(a))
        return a | 0x400000u;
    if (is_snan(b))
        return b | 0x400000u;
    if (isnan(F(a)))
        return b;
    if (isnan(F(b)))
        return a;
    if (!((a | b) & 0x7FFFFFFFu)) /* +0 and -0: max +0, min -0 */
        return max ? a & b : a | b;
    if (max)
        return F(a) >= F(b) ? a : b;
    return F(a) < F(b) ? a : b;
}

VUN(mov, a)
VUN(not, ~a)
VUN(cvt_f32_f16, B(sim_f16_to_f32((uint16_t)a)))
VUN(cvt_f16_f32, sim_f32_to_f16(F(a)))
VUN(cvt_f32_u32, B((float)a))
VUN(cvt_u32_f32, cvt_u32(F(a)))
VUN(cvt_f32_i32, B((float)(int32_t)a))
VUN(rcp, B(1.0f / F(a)))
VUN(exp, B(exp2f(F(a))))
VUN(log, B(log2f(F(a))))
VUN(sqrt, B(sqrtf(F(a))))
VBIN(add_u32, a + b)
VBIN(sub_u32, a - b)
VBIN(subrev_u32, b - a)
VBIN(and, a & b)
VBIN(or, a | b)
VBIN(xor, a ^ b)
VBIN(lshlrev, b << (a & 31))
VBIN(lshrrev, b >> (a & 31))
VBIN(ashrrev, (uint32_t)((int32_t)b >> (a & 31)))
VBIN(max_u32, a > b ? a : b)
VBIN(min_u32, a < b ? a : b)
VBIN(add_f32, B(F(a) + F(b)))
VBIN(sub_f32, B(F(a) - F(b)))
VBIN(mul_f32, B(F(a) * F(b)))
VBIN(max_f32, minmax_f32(a, b, 1))
VBIN(min_f32, minmax_f32(a, b, 0))
VBIN(mul_lo, a * b)
VBIN(mul_hi, (uint32_t)(((uint64_t)a * b) >> 32))
VBIN(pack_f16, (a & 0xFFFFu) | (b & 0xFFFFu) << 16)
VBIN(pkrtz, (uint32_t)sim_f32_to_f16_rtz(F(a)) | (uint32_t)sim_f32_to_f16_rtz(F(b)) << 16)
VBIN(pk_bf16, (uint32_t)sim_f32_to_bf16(F(a)) | (uint32_t)sim_f32_to_bf16(F(b)) << 16)
VTRI(lshl_add, (a << (b & 31)) + d)
VTRI(lshl_or, (a << (b & 31)) | d)
VTRI(add_lshl, (a + b) << (d & 31))
VTRI(or3, a | b | d)
VTRI(add3, a + b + d)
VTRI(bfe_u32, bfe(a, b, d & 31))
VTRI(bfi, (a & b) | (~a & d))
VTRI(perm, perm(a, b, d))
VTRI(fma_f32, B(fmaf(F(a), F(b), F(d))))

/* v_mbcnt_lo/hi: bits of the mask below this lane, in the low or high half */
static void mbcnt(sim_ctx *c, int hi)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, ex = sim_exec(c);
    sim_read_vec(c, 1, 0, a, &da);
    sim_read_vec(c, 2, 0, b, &db);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint32_t m;
        if (!hi)
            m = l >= 32 ? 0xFFFFFFFFu : (1u << l) - 1u;
        else
            m = l < 32 ? 0 : l == 32 ? 0 : (l - 32 >= 32 ? 0xFFFFFFFFu : (1u << (l - 32)) - 1u);
        uint32_t x = a[l] & m, n = 0;
        while (x) {
            x &= x - 1;
            n++;
        }
        r[l] = n + b[l];
    }
    sim_write_vec(c, 0, 0, r, ex, da & db);
}

static void op_mbcnt_lo(sim_ctx *c) { mbcnt(c, 0); }
static void op_mbcnt_hi(sim_ctx *c) { mbcnt(c, 1); }

static void op_cndmask(sim_ctx *c)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, ex = sim_exec(c);
    int dm;
    sim_read_vec(c, 1, 0, a, &da);
    sim_read_vec(c, 2, 0, b, &db);
    uint64_t mask = sim_read_s64(c, 3, &dm);
    uint64_t def = 0;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        int pick = (int)(mask >> l & 1u);
        r[l] = pick ? b[l] : a[l];
        if (dm && ((pick ? db : da) >> l & 1u))
            def |= 1ull << l;
    }
    sim_write_vec(c, 0, 0, r, ex, def);
}

/* ---- division helpers (f32) ---------------------------------------------------------------

   LLVM divides a / b as: sd = div_scale(b, b, a); sn = div_scale(a, b, a) (its mask
   into VCC); r = rcp(sd); a Newton-Raphson chain of fmas; q = div_fmas(...);
   div_fixup(q, b, a). The three helpers follow the ISA's pseudo-code (AMD's
   instruction set references describe them for every GCN/CDNA generation; the
   scale directions are reconstructed so that each case keeps the quotient in
   range, and the sequence is checked end to end against correctly rounded
   division in the tests):
     div_scale(s0, den, num): D = s0 unless a case applies; VCC = 0 unless noted.
       den or num zero                      -> D = NaN
       exp(num) - exp(den) >= 96            -> VCC = 1; D = s0 * 2^64 if s0 == den
       den denormal                         -> D = s0 * 2^64
       |1/den| and |num/den| both denormal  -> VCC = 1; D = s0 * 2^-64 if s0 == den
       |1/den| denormal                     -> D = s0 * 2^-64
       |num/den| denormal                   -> VCC = 1; D = s0 * 2^64 if s0 == num
       exp(num) <= 23 (tiny numerator)      -> D = s0 * 2^64
     div_fmas(s0, s1, s2): fma(s0, s1, s2), times 2^64 (if exp(s2) >= 127) or 2^-64
       in the lanes where VCC is set; the scaling happens before the one rounding
       (computed here in double precision, then rounded to f32).
     div_fixup(q, den, num): IEEE special cases from the original operands (NaN,
       0/0, inf/inf -> NaN; x/0 and inf/x -> inf; x/inf and 0/x -> 0; quotients
       below 2^-150 -> 0; q infinite or NaN, an overflow on the way -> inf), else
       |q| with the sign of num/den. */
static int fexp(uint32_t b) { return (int)((b >> 23) & 0xFFu); }
static int is_denorm_value(double v) { return v != 0.0 && fabs(v) < 1.1754943508222875e-38; }
static uint32_t scaled(uint32_t b, int e) { return B(to_f32_rne(ldexp((double)F(b), e))); }

static uint32_t div_scale(uint32_t s0, uint32_t den, uint32_t num, int *vcc)
{
    double d = F(den), n = F(num), x = F(s0);
    *vcc = 0;
    if (n == 0.0 || d == 0.0)
        return 0x7FC00000u;
    if (fexp(num) - fexp(den) >= 96) {
        *vcc = 1;
        return x == d ? scaled(s0, 64) : s0;
    }
    if (is_denorm_value(d))
        return scaled(s0, 64);
    int rcp_tiny = is_denorm_value(1.0 / d), quot_tiny = is_denorm_value(n / d);
    if (rcp_tiny && quot_tiny) {
        *vcc = 1;
        return x == d ? scaled(s0, -64) : s0;
    }
    if (rcp_tiny)
        return scaled(s0, -64);
    if (quot_tiny) {
        *vcc = 1;
        return x == n ? scaled(s0, 64) : s0;
    }
    if (fexp(num) <= 23)
        return scaled(s0, 64);
    return s0;
}

static void op_div_scale(sim_ctx *c)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], d[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, dd, ex = sim_exec(c), mask = 0;
    sim_read_vec(c, 2, 0, a, &da);
    sim_read_vec(c, 3, 0, b, &db);
    sim_read_vec(c, 4, 0, d, &dd);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        int v = 0;
        r[l] = ex >> l & 1u ? div_scale(a[l], b[l], d[l], &v) : 0;
        if (ex >> l & 1u && v)
            mask |= 1ull << l;
    }
    uint64_t def = da & db & dd;
    sim_write_vec(c, 0, 0, r, ex, def);
    sim_write_s64(c, 1, mask, (def & ex) == ex);
}

static void op_div_fmas(sim_ctx *c)
{
    uint32_t a[SIM_LANES], b[SIM_LANES], d[SIM_LANES], r[SIM_LANES];
    uint64_t da, db, dd, ex = sim_exec(c), vcc = c->w->vcc;
    sim_read_vec(c, 1, 0, a, &da);
    sim_read_vec(c, 2, 0, b, &db);
    sim_read_vec(c, 3, 0, d, &dd);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        if (!(ex >> l & 1u)) {
            r[l] = 0;
            continue;
        }
        double v = fma((double)F(a[l]), (double)F(b[l]), (double)F(d[l]));
        if (vcc >> l & 1u)
            v = ldexp(v, fexp(d[l]) >= 127 ? 64 : -64);
        r[l] = B(to_f32_rne(v));
    }
    sim_write_vec(c, 0, 0, r, ex, c->w->vcc_def ? da & db & dd : 0);
}

static uint32_t div_fixup(uint32_t q, uint32_t den, uint32_t num)
{
    uint32_t sign = (den ^ num) & 0x80000000u;
    double d = F(den), n = F(num);
    if (isnan(n))
        return num | 0x400000u;
    if (isnan(d))
        return den | 0x400000u;
    if ((d == 0.0 && n == 0.0) || (isinf(d) && isinf(n)))
        return 0xFFC00000u;
    if (d == 0.0 || isinf(n))
        return sign | 0x7F800000u;
    if (isinf(d) || n == 0.0)
        return sign;
    if (fexp(num) - fexp(den) < -150)
        return sign;
    if (fexp(q) == 255) /* the scaled quotient overflowed on the way */
        return sign | 0x7F800000u;
    return sign | (q & 0x7FFFFFFFu);
}
VTRI(div_fixup, div_fixup(a, b, d))

/* ---- 64-bit float ---------------------------------------------------------------------------- */

static void read_f64(sim_ctx *c, unsigned k, double out[SIM_LANES], uint64_t *def)
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

static void write_f64(sim_ctx *c, const double v[SIM_LANES], uint64_t lanes, uint64_t def)
{
    uint32_t lo[SIM_LANES], hi[SIM_LANES];
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint64_t b;
        memcpy(&b, &v[l], sizeof(b));
        lo[l] = (uint32_t)b;
        hi[l] = (uint32_t)(b >> 32);
    }
    sim_write_vec(c, 0, 0, lo, lanes, def);
    sim_write_vec(c, 0, 1, hi, lanes, def);
}

/* v_add_f64 / v_mul_f64 / v_fma_f64: IEEE double arithmetic (denormals kept). */
enum { F64_ADD, F64_MUL, F64_FMA };
static void f64_op(sim_ctx *c, int kind)
{
    unsigned nsrc = kind == F64_FMA ? 3u : 2u;
    double s[3][SIM_LANES], r[SIM_LANES];
    uint64_t d[3] = { SIM_ALL_LANES, SIM_ALL_LANES, SIM_ALL_LANES }, ex = sim_exec(c);
    for (unsigned k = 0; k < nsrc; k++)
        read_f64(c, k + 1, s[k], &d[k]);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        if (!(ex >> l & 1u))
            r[l] = 0.0;
        else if (kind == F64_FMA)
            r[l] = fma(s[0][l], s[1][l], s[2][l]);
        else if (kind == F64_ADD)
            r[l] = s[0][l] + s[1][l];
        else
            r[l] = s[0][l] * s[1][l];
    }
    write_f64(c, r, ex, d[0] & d[1] & d[2]);
}
static void op_fma_f64(sim_ctx *c) { f64_op(c, F64_FMA); }
static void op_add_f64(sim_ctx *c) { f64_op(c, F64_ADD); }
static void op_mul_f64(sim_ctx *c) { f64_op(c, F64_MUL); }

/* ---- gfx950 lane swaps -------------------------------------------------------------------------

   v_permlane16_swap_b32 vdst, src0: in every pair of 16-lane rows, row 2p+1 of
   vdst and row 2p of src0 trade places; v_permlane32_swap_b32: lanes 32..63 of
   vdst and lanes 0..31 of src0 (the operation LLVM's intrinsics describe). Both
   registers are read before either is written, so vdst may be src0 (then the
   rows of the one register swap). The 32-bit form has fetch-inactive and
   bound_ctrl off, whose effect on inactive lanes is not documented: a partial
   EXEC is reported as unsupported. */
static void permlane_swap(sim_ctx *c, unsigned span)
{
    if (sim_exec(c) != SIM_ALL_LANES) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s under a partial EXEC (0x%016llx) is not modelled",
                 c->info->mnemonic, (unsigned long long)sim_exec(c));
        return;
    }
    sim_vec *d = sim_vec_reg(c, 0, 0, 1), *s = sim_vec_reg(c, 1, 0, 1);
    if (!d || !s)
        return;
    sim_vec nd = *d, ns = *s;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        if ((l / span) % 2 == 0)
            continue; /* l: a lane of vdst that moves; l - span: its partner in src0 */
        unsigned p = l - span;
        nd.v[l] = s->v[p];
        ns.v[p] = d->v[l];
        nd.def = (nd.def & ~(1ull << l)) | ((s->def >> p & 1u) << l);
        ns.def = (ns.def & ~(1ull << p)) | ((d->def >> l & 1u) << p);
    }
    if (d == s) { /* one register: both halves of each swap land in it */
        for (unsigned l = 0; l < SIM_LANES; l++)
            if ((l / span) % 2 == 0) {
                nd.v[l] = ns.v[l];
                nd.def = (nd.def & ~(1ull << l)) | (ns.def & (1ull << l));
            }
        *d = nd;
        return;
    }
    *d = nd;
    *s = ns;
}
static void op_permlane16_swap(sim_ctx *c) { permlane_swap(c, 16); }
static void op_permlane32_swap(sim_ctx *c) { permlane_swap(c, 32); }

/* ---- lanes ---------------------------------------------------------------------------------- */

static void op_readfirstlane(sim_ctx *c)
{
    uint32_t a[SIM_LANES];
    uint64_t da, ex = sim_exec(c);
    sim_read_vec(c, 1, 0, a, &da);
    unsigned l = ex ? wa_ctz64(ex) : 0; /* no active lane: lane 0 */
    sim_write_s(c, 0, 0, a[l], (int)(da >> l & 1u));
}

static void op_readlane(sim_ctx *c)
{
    uint32_t a[SIM_LANES];
    uint64_t da;
    int ds;
    sim_read_vec(c, 1, 0, a, &da);
    unsigned l = sim_read_s(c, 2, 0, &ds) & 63u;
    sim_write_s(c, 0, 0, a[l], ds && (da >> l & 1u));
}

static void op_writelane(sim_ctx *c)
{
    int dv, ds;
    uint32_t v = sim_read_s(c, 1, 0, &dv);
    unsigned l = sim_read_s(c, 2, 0, &ds) & 63u;
    sim_vec *r = sim_vec_reg(c, 0, 0, 1);
    if (!r)
        return;
    r->v[l] = v;
    uint64_t bit = 1ull << l;
    r->def = dv && ds ? r->def | bit : r->def & ~bit;
}

/* ---- DPP --------------------------------------------------------------------------------------

   Lane l of an active, unmasked lane reads src0 from lane s (WA_DPP_* in
   program.h give s for each control). Lanes outside EXEC, in a row whose
   row_mask bit is 0 or a bank (4 lanes of a row) whose bank_mask bit is 0 are not
   written. A source lane that does not exist (shifted out of the row or the wave,
   row 0 under row_bcast:15, rows 0-1 under row_bcast:31) or is off in EXEC is
   invalid: with bound_ctrl the lane reads 0, otherwise it is not written. Sources:
   AMD's GCN3/Vega ISA description of the DPP word (row and bank masks apply to the
   destination only), LLVM's DPP documentation for the controls and bound_ctrl, and
   the invalid-lane rule as Mesa's ACO relies on it (bound_ctrl to read 0 from
   inactive lanes). Shifts, rotations, mirrors and broadcasts are the GFX9 set. */
static int dpp_source(unsigned ctrl, unsigned l, unsigned *s)
{
    unsigned row = l & ~15u, in = l & 15u;
    if (ctrl <= 0xFF) {
        *s = (l & ~3u) | ((ctrl >> (2 * (l & 3u))) & 3u);
        return 1;
    }
    if (ctrl >= 0x101 && ctrl <= 0x10F) { /* row_shl: lane l reads l + n */
        unsigned n = ctrl - 0x100;
        *s = l + n;
        return in + n < 16;
    }
    if (ctrl >= 0x111 && ctrl <= 0x11F) { /* row_shr: lane l reads l - n */
        unsigned n = ctrl - 0x110;
        *s = l - n;
        return in >= n;
    }
    if (ctrl >= 0x121 && ctrl <= 0x12F) { /* row_ror */
        *s = row | ((in - (ctrl - 0x120)) & 15u);
        return 1;
    }
    switch (ctrl) {
    case WA_DPP_WAVE_SHL1: *s = l + 1; return l < 63;
    case WA_DPP_WAVE_ROL1: *s = (l + 1) & 63u; return 1;
    case WA_DPP_WAVE_SHR1: *s = l - 1; return l > 0;
    case WA_DPP_WAVE_ROR1: *s = (l - 1) & 63u; return 1;
    case WA_DPP_ROW_MIRROR: *s = row | (15u - in); return 1;
    case WA_DPP_ROW_HALF_MIRROR: *s = (l & ~7u) | (7u - (l & 7u)); return 1;
    case WA_DPP_ROW_BCAST15: *s = row - 1; return row != 0;
    case WA_DPP_ROW_BCAST31: *s = 31; return l >= 32;
    default: return -1;
    }
}

void sim_dpp_prepare(sim_ctx *c)
{
    const wa_mods *m = &c->in->mods;
    uint32_t src[SIM_LANES];
    uint64_t sdef, ex = c->w->exec;
    sim_read_vec(c, 1, 0, src, &sdef);
    if (sim_failed(c))
        return;
    uint64_t lanes = 0, def = 0;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        c->dpp_src0[l] = 0;
        if (!(ex >> l & 1u) || !(m->row_mask >> (l / 16) & 1u) || !(m->bank_mask >> ((l / 4) % 4) & 1u))
            continue;
        unsigned s = 0;
        int ok = dpp_source(m->dpp_ctrl, l, &s);
        if (ok < 0) {
            sim_fail(c, WA_E_UNSUPPORTED, "%s: DPP control 0x%x is not a GFX9 control",
                     c->info->mnemonic, m->dpp_ctrl);
            return;
        }
        if (ok && (ex >> s & 1u)) {
            c->dpp_src0[l] = src[s];
            def |= (sdef >> s & 1u) << l;
        } else if (m->flags & WA_MOD_BOUND_CTRL) {
            def |= 1ull << l; /* reads 0 */
        } else {
            continue; /* not written */
        }
        lanes |= 1ull << l;
    }
    c->dpp_src0_def = def;
    c->dpp_lanes = lanes;
    c->dpp = 1;
}

/* ---- the table ------------------------------------------------------------------------------ */

static const sim_fn alu_fns[WA_OP_COUNT_] = {
    [WA_OP_V_MOV_B32] = op_mov,
    [WA_OP_V_NOT_B32] = op_not,
    [WA_OP_V_READFIRSTLANE_B32] = op_readfirstlane,
    [WA_OP_V_CVT_F32_F16] = op_cvt_f32_f16,
    [WA_OP_V_CVT_F16_F32] = op_cvt_f16_f32,
    [WA_OP_V_CVT_F32_U32] = op_cvt_f32_u32,
    [WA_OP_V_CVT_U32_F32] = op_cvt_u32_f32,
    [WA_OP_V_CVT_F32_I32] = op_cvt_f32_i32,
    [WA_OP_V_RCP_F32] = op_rcp,
    [WA_OP_V_EXP_F32] = op_exp,
    [WA_OP_V_LOG_F32] = op_log,
    [WA_OP_V_SQRT_F32] = op_sqrt,
    [WA_OP_V_ACCVGPR_MOV_B32] = op_mov,
    [WA_OP_V_PERMLANE16_SWAP_B32] = op_permlane16_swap,
    [WA_OP_V_PERMLANE32_SWAP_B32] = op_permlane32_swap,
    [WA_OP_V_ADD_U32] = op_add_u32,
    [WA_OP_V_SUB_U32] = op_sub_u32,
    [WA_OP_V_SUBREV_U32] = op_subrev_u32,
    [WA_OP_V_AND_B32] = op_and,
    [WA_OP_V_OR_B32] = op_or,
    [WA_OP_V_XOR_B32] = op_xor,
    [WA_OP_V_LSHLREV_B32] = op_lshlrev,
    [WA_OP_V_LSHRREV_B32] = op_lshrrev,
    [WA_OP_V_ASHRREV_I32] = op_ashrrev,
    [WA_OP_V_MAX_U32] = op_max_u32,
    [WA_OP_V_MIN_U32] = op_min_u32,
    [WA_OP_V_ADD_F32] = op_add_f32,
    [WA_OP_V_SUB_F32] = op_sub_f32,
    [WA_OP_V_MUL_F32] = op_mul_f32,
    [WA_OP_V_MAX_F32] = op_max_f32,
    [WA_OP_V_MIN_F32] = op_min_f32,
    [WA_OP_V_CNDMASK_B32] = op_cndmask,
    [WA_OP_V_DIV_SCALE_F32] = op_div_scale,
    [WA_OP_V_DIV_FMAS_F32] = op_div_fmas,
    [WA_OP_V_DIV_FIXUP_F32] = op_div_fixup,
    [WA_OP_V_FMA_F64] = op_fma_f64,
    [WA_OP_V_ADD_F64] = op_add_f64,
    [WA_OP_V_MUL_F64] = op_mul_f64,
    [WA_OP_V_MUL_LO_U32] = op_mul_lo,
    [WA_OP_V_MUL_HI_U32] = op_mul_hi,
    [WA_OP_V_MBCNT_LO_U32_B32] = op_mbcnt_lo,
    [WA_OP_V_MBCNT_HI_U32_B32] = op_mbcnt_hi,
    [WA_OP_V_PACK_B32_F16] = op_pack_f16,
    [WA_OP_V_CVT_PKRTZ_F16_F32] = op_pkrtz,
    [WA_OP_V_LSHL_ADD_U32] = op_lshl_add,
    [WA_OP_V_LSHL_OR_B32] = op_lshl_or,
    [WA_OP_V_ADD_LSHL_U32] = op_add_lshl,
    [WA_OP_V_OR3_B32] = op_or3,
    [WA_OP_V_ADD3_U32] = op_add3,
    [WA_OP_V_BFE_U32] = op_bfe_u32,
    [WA_OP_V_BFI_B32] = op_bfi,
    [WA_OP_V_PERM_B32] = op_perm,
    [WA_OP_V_FMA_F32] = op_fma_f32,
    [WA_OP_V_CVT_PK_BF16_F32] = op_pk_bf16,
    [WA_OP_V_READLANE_B32] = op_readlane,
    [WA_OP_V_WRITELANE_B32] = op_writelane,
};

sim_fn sim_alu_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? alu_fns[op] : NULL;
}
