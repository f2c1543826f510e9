/* lib/sim/alu.c — VALU and SALU semantics.

   Vector instructions compute in the lanes EXEC enables and leave the others as
   they were; a result lane is defined when the inputs it reads are. The kernels
   run with IEEE mode on and f32/f16 denormals kept (what the emitter's kernel
   descriptor sets), so float operations are the host's IEEE single-precision
   ones; transcendental results (rcp, exp, log, sqrt) are correctly rounded here,
   where the hardware may differ by an ulp. Scalar instructions set SCC as the
   ISA defines for each. */
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

/* ---- compares ---------------------------------------------------------------------------- */

typedef int (*cmp_fn)(uint32_t a, uint32_t b);

static void v_cmp(sim_ctx *c, cmp_fn f)
{
    uint32_t a[SIM_LANES], b[SIM_LANES];
    uint64_t da, db, ex = sim_exec(c), r = 0;
    sim_read_vec(c, 1, 0, a, &da);
    sim_read_vec(c, 2, 0, b, &db);
    for (unsigned l = 0; l < SIM_LANES; l++)
        if (ex >> l & 1u && f(a[l], b[l]))
            r |= 1ull << l;
    /* inactive lanes write 0; the mask is defined if every active lane was */
    sim_write_s64(c, 0, r, ((da & db) & ex) == ex);
}

#define VCMP(name, expr)                                               \
    static int fn_##name(uint32_t a, uint32_t b) { return expr; } \
    static void op_##name(sim_ctx *c) { v_cmp(c, fn_##name); }
#define I(x) ((int32_t)(x))
VCMP(lt_i32, I(a) < I(b))
VCMP(eq_i32, a == b)
VCMP(le_i32, I(a) <= I(b))
VCMP(gt_i32, I(a) > I(b))
VCMP(ne_i32, a != b)
VCMP(ge_i32, I(a) >= I(b))
VCMP(lt_u32, a < b)
VCMP(eq_u32, a == b)
VCMP(le_u32, a <= b)
VCMP(gt_u32, a > b)
VCMP(ne_u32, a != b)
VCMP(ge_u32, a >= b)
VCMP(lt_f32, F(a) < F(b))
VCMP(eq_f32, F(a) == F(b))
VCMP(le_f32, F(a) <= F(b))
VCMP(gt_f32, F(a) > F(b))
VCMP(lg_f32, F(a) < F(b) || F(a) > F(b))
VCMP(ge_f32, F(a) >= F(b))
VCMP(neq_f32, !(F(a) == F(b)))
#undef I

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

/* ---- scalar -------------------------------------------------------------------------------- */

static void set_scc(sim_ctx *c, int v, int def)
{
    c->w->scc = v != 0;
    c->w->scc_def = (uint8_t)(def != 0);
}

static void op_s_mov(sim_ctx *c)
{
    int d;
    uint32_t v = sim_read_s(c, 1, 0, &d);
    sim_write_s(c, 0, 0, v, d);
}

static void op_s_mov64(sim_ctx *c)
{
    int d;
    uint64_t v = sim_read_s64(c, 1, &d);
    sim_write_s64(c, 0, v, d);
}

static void op_s_movk(sim_ctx *c)
{
    sim_write_s(c, 0, 0, (uint32_t)(int32_t)(int16_t)(uint16_t)c->in->ops[1].imm.i, 1);
}

static void op_s_and_saveexec(sim_ctx *c)
{
    int d;
    uint64_t s = sim_read_s64(c, 1, &d);
    uint64_t old = c->w->exec;
    int old_def = c->w->exec_def;
    sim_write_s64(c, 0, old, old_def);
    c->w->exec = s & old;
    c->w->exec_def = (uint8_t)(d && old_def);
    set_scc(c, c->w->exec != 0, c->w->exec_def);
}

/* 32-bit SALU with both sources: result and SCC through `f` */
typedef uint32_t (*sbin_fn)(uint32_t a, uint32_t b, int scc_in, int *scc_out);

static void s_bin(sim_ctx *c, sbin_fn f, int reads_scc, int writes_scc)
{
    int da, db;
    uint32_t a = sim_read_s(c, 1, 0, &da);
    uint32_t b = sim_read_s(c, 2, 0, &db);
    int def = da && db && (!reads_scc || c->w->scc_def);
    int scc = c->w->scc;
    uint32_t r = f(a, b, c->w->scc, &scc);
    sim_write_s(c, 0, 0, r, def);
    if (writes_scc)
        set_scc(c, scc, def);
}

#define SBIN(name, rs, ws, expr, sccexpr)                                          \
    static uint32_t fn_s_##name(uint32_t a, uint32_t b, int si, int *so)           \
    {                                                                              \
        uint32_t r = (expr);                                                       \
        (void)si;                                                                  \
        *so = (sccexpr);                                                           \
        return r;                                                                  \
    }                                                                              \
    static void op_s_##name(sim_ctx *c) { s_bin(c, fn_s_##name, rs, ws); }
SBIN(add_u32, 0, 1, a + b, r < a)
SBIN(sub_u32, 0, 1, a - b, a < b)
SBIN(add_i32, 0, 1, a + b, ((~(a ^ b) & (a ^ r)) >> 31) != 0)
SBIN(addc_u32, 1, 1, a + b + (uint32_t)si, ((uint64_t)a + b + (uint64_t)si) >> 32 != 0)
SBIN(subb_u32, 1, 1, a - b - (uint32_t)si, (uint64_t)a < (uint64_t)b + (uint64_t)si)
SBIN(min_u32, 0, 1, a < b ? a : b, a < b)
SBIN(max_u32, 0, 1, a > b ? a : b, a > b)
SBIN(cselect_b32, 1, 0, si ? a : b, si)
SBIN(and_b32, 0, 1, a & b, r != 0)
SBIN(or_b32, 0, 1, a | b, r != 0)
SBIN(xor_b32, 0, 1, a ^ b, r != 0)
SBIN(lshl_b32, 0, 1, a << (b & 31), r != 0)
SBIN(lshr_b32, 0, 1, a >> (b & 31), r != 0)
SBIN(ashr_i32, 0, 1, (uint32_t)((int32_t)a >> (b & 31)), r != 0)
SBIN(mul_i32, 0, 0, a * b, si)
SBIN(bfe_u32, 0, 1, bfe(a, b & 31, (b >> 16) & 0x7Fu), r != 0)
SBIN(mul_hi_u32, 0, 0, (uint32_t)(((uint64_t)a * b) >> 32), si)

typedef uint64_t (*sbin64_fn)(uint64_t a, uint64_t b, int scc_in);

static void s_bin64(sim_ctx *c, sbin64_fn f, int reads_scc, int writes_scc)
{
    int da, db;
    uint64_t a = sim_read_s64(c, 1, &da);
    uint64_t b = sim_read_s64(c, 2, &db);
    int def = da && db && (!reads_scc || c->w->scc_def);
    uint64_t r = f(a, b, c->w->scc);
    sim_write_s64(c, 0, r, def);
    if (writes_scc)
        set_scc(c, r != 0, def);
}

#define SBIN64(name, rs, ws, expr)                                                      \
    static uint64_t fn_s_##name(uint64_t a, uint64_t b, int si)                         \
    {                                                                                   \
        (void)si;                                                                       \
        return (expr);                                                                  \
    }                                                                                   \
    static void op_s_##name(sim_ctx *c) { s_bin64(c, fn_s_##name, rs, ws); }
SBIN64(cselect_b64, 1, 0, si ? a : b)
SBIN64(and_b64, 0, 1, a & b)
SBIN64(or_b64, 0, 1, a | b)
SBIN64(andn2_b64, 0, 1, a & ~b)

static void op_s_lshl_b64(sim_ctx *c)
{
    int da, db;
    uint64_t a = sim_read_s64(c, 1, &da);
    uint32_t b = sim_read_s(c, 2, 0, &db);
    uint64_t r = a << (b & 63);
    sim_write_s64(c, 0, r, da && db);
    set_scc(c, r != 0, da && db);
}

typedef int (*scmp_fn)(uint32_t a, uint32_t b);

static void s_cmp(sim_ctx *c, scmp_fn f)
{
    int da, db;
    uint32_t a = sim_read_s(c, 0, 0, &da);
    uint32_t b = sim_read_s(c, 1, 0, &db);
    set_scc(c, f(a, b), da && db);
}

#define SCMP(name, expr)                                             \
    static int fn_sc_##name(uint32_t a, uint32_t b) { return expr; } \
    static void op_sc_##name(sim_ctx *c) { s_cmp(c, fn_sc_##name); }
#define I(x) ((int32_t)(x))
SCMP(eq_i32, a == b)
SCMP(lg_i32, a != b)
SCMP(gt_i32, I(a) > I(b))
SCMP(ge_i32, I(a) >= I(b))
SCMP(lt_i32, I(a) < I(b))
SCMP(le_i32, I(a) <= I(b))
SCMP(eq_u32, a == b)
SCMP(lg_u32, a != b)
SCMP(gt_u32, a > b)
SCMP(ge_u32, a >= b)
SCMP(lt_u32, a < b)
SCMP(le_u32, a <= b)
#undef I

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
    [WA_OP_V_CMP_LT_I32] = op_lt_i32,
    [WA_OP_V_CMP_EQ_I32] = op_eq_i32,
    [WA_OP_V_CMP_LE_I32] = op_le_i32,
    [WA_OP_V_CMP_GT_I32] = op_gt_i32,
    [WA_OP_V_CMP_NE_I32] = op_ne_i32,
    [WA_OP_V_CMP_GE_I32] = op_ge_i32,
    [WA_OP_V_CMP_LT_U32] = op_lt_u32,
    [WA_OP_V_CMP_EQ_U32] = op_eq_u32,
    [WA_OP_V_CMP_LE_U32] = op_le_u32,
    [WA_OP_V_CMP_GT_U32] = op_gt_u32,
    [WA_OP_V_CMP_NE_U32] = op_ne_u32,
    [WA_OP_V_CMP_GE_U32] = op_ge_u32,
    [WA_OP_V_CMP_LT_F32] = op_lt_f32,
    [WA_OP_V_CMP_EQ_F32] = op_eq_f32,
    [WA_OP_V_CMP_LE_F32] = op_le_f32,
    [WA_OP_V_CMP_GT_F32] = op_gt_f32,
    [WA_OP_V_CMP_LG_F32] = op_lg_f32,
    [WA_OP_V_CMP_GE_F32] = op_ge_f32,
    [WA_OP_V_CMP_NEQ_F32] = op_neq_f32,
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
    [WA_OP_V_ACCVGPR_READ_B32] = op_mov,
    [WA_OP_V_ACCVGPR_WRITE_B32] = op_mov,
    [WA_OP_S_MOV_B32] = op_s_mov,
    [WA_OP_S_MOV_B64] = op_s_mov64,
    [WA_OP_S_AND_SAVEEXEC_B64] = op_s_and_saveexec,
    [WA_OP_S_MOVK_I32] = op_s_movk,
    [WA_OP_S_ADD_U32] = op_s_add_u32,
    [WA_OP_S_SUB_U32] = op_s_sub_u32,
    [WA_OP_S_ADD_I32] = op_s_add_i32,
    [WA_OP_S_ADDC_U32] = op_s_addc_u32,
    [WA_OP_S_SUBB_U32] = op_s_subb_u32,
    [WA_OP_S_MIN_U32] = op_s_min_u32,
    [WA_OP_S_MAX_U32] = op_s_max_u32,
    [WA_OP_S_CSELECT_B32] = op_s_cselect_b32,
    [WA_OP_S_AND_B32] = op_s_and_b32,
    [WA_OP_S_OR_B32] = op_s_or_b32,
    [WA_OP_S_XOR_B32] = op_s_xor_b32,
    [WA_OP_S_LSHL_B32] = op_s_lshl_b32,
    [WA_OP_S_LSHR_B32] = op_s_lshr_b32,
    [WA_OP_S_ASHR_I32] = op_s_ashr_i32,
    [WA_OP_S_MUL_I32] = op_s_mul_i32,
    [WA_OP_S_BFE_U32] = op_s_bfe_u32,
    [WA_OP_S_MUL_HI_U32] = op_s_mul_hi_u32,
    [WA_OP_S_CSELECT_B64] = op_s_cselect_b64,
    [WA_OP_S_AND_B64] = op_s_and_b64,
    [WA_OP_S_OR_B64] = op_s_or_b64,
    [WA_OP_S_ANDN2_B64] = op_s_andn2_b64,
    [WA_OP_S_LSHL_B64] = op_s_lshl_b64,
    [WA_OP_S_CMP_EQ_I32] = op_sc_eq_i32,
    [WA_OP_S_CMP_LG_I32] = op_sc_lg_i32,
    [WA_OP_S_CMP_GT_I32] = op_sc_gt_i32,
    [WA_OP_S_CMP_GE_I32] = op_sc_ge_i32,
    [WA_OP_S_CMP_LT_I32] = op_sc_lt_i32,
    [WA_OP_S_CMP_LE_I32] = op_sc_le_i32,
    [WA_OP_S_CMP_EQ_U32] = op_sc_eq_u32,
    [WA_OP_S_CMP_LG_U32] = op_sc_lg_u32,
    [WA_OP_S_CMP_GT_U32] = op_sc_gt_u32,
    [WA_OP_S_CMP_GE_U32] = op_sc_ge_u32,
    [WA_OP_S_CMP_LT_U32] = op_sc_lt_u32,
    [WA_OP_S_CMP_LE_U32] = op_sc_le_u32,
};

sim_fn sim_alu_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? alu_fns[op] : NULL;
}
