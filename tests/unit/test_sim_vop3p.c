/* tests/unit/test_sim_vop3p.c — the simulator's VOP3P semantics (lib/sim/vop3p.c):
   every packed 16-bit integer and f16 opcode, the packed f32 ones, every dot
   product, the three v_fma_mix forms and the accvgpr moves, each against
   references this file computes itself from the ISA's descriptions (exact integer
   arithmetic: the float results are rounded here from exact scaled integers, with
   this file's own f16/bf16/f32 conversions, never the simulator's helpers).

   Each case runs one instruction over 64 lanes of random and edge inputs with a
   partial EXEC (inactive lanes keep the old destination), under random op_sel,
   op_sel_hi, neg_lo, neg_hi (float rows) and clamp; further cases take SGPR and
   inline-constant sources (LLVM's 32-bit constant values) and check the modifiers
   the simulator refuses. */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 i128;

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}

/* ---- reference number formats ------------------------------------------------------------- */

/* An exact value n * 2^e (n signed, arbitrary e). */
typedef struct exact {
    i128 n;
    int e;
    int special; /* 0 finite, 1 +inf, 2 -inf, 3 NaN */
} exact;

/* f16 bits -> exact */
static exact x_f16(uint32_t h)
{
    exact x = { 0, 0, 0 };
    unsigned ex = (h >> 10) & 31u, man = h & 1023u;
    if (ex == 31) {
        x.special = man ? 3 : (h & 0x8000u) ? 2 : 1;
        return x;
    }
    x.n = ex ? (i128)(man | 1024u) : (i128)man;
    x.e = (ex ? (int)ex : 1) - 25;
    if (h & 0x8000u)
        x.n = -x.n;
    return x;
}
static exact x_f32(uint32_t b)
{
    exact x = { 0, 0, 0 };
    unsigned ex = (b >> 23) & 255u, man = b & 0x7FFFFFu;
    if (ex == 255) {
        x.special = man ? 3 : (b >> 31) ? 2 : 1;
        return x;
    }
    x.n = ex ? (i128)(man | 0x800000u) : (i128)man;
    x.e = (ex ? (int)ex : 1) - 150;
    if (b >> 31)
        x.n = -x.n;
    return x;
}
static exact x_bf16(uint32_t h) { return x_f32((h & 0xFFFFu) << 16); }

static exact x_neg(exact x)
{
    if (x.special == 1 || x.special == 2)
        x.special = 3 - x.special;
    x.n = -x.n;
    return x;
}
static exact x_abs(exact x)
{
    if (x.special == 2)
        x.special = 1;
    if (x.n < 0)
        x.n = -x.n;
    return x;
}

static int top_bit(i128 n)
{
    int t = -1;
    for (i128 v = n < 0 ? -n : n; v; v >>= 1)
        t++;
    return t;
}

/* a + b exactly, except that an addend more than 60 bits below the other becomes a
   sticky unit 70 bits below it (the rounding to 24 or fewer bits is the same), so
   that the aligned integers stay within 110 bits. */
static exact x_add(exact a, exact b)
{
    exact r = { 0, 0, 0 };
    if (a.special == 3 || b.special == 3 || (a.special && b.special && a.special != b.special)) {
        r.special = 3;
        return r;
    }
    if (a.special || b.special) {
        r.special = a.special ? a.special : b.special;
        return r;
    }
    if (a.n == 0)
        return b;
    if (b.n == 0)
        return a;
    int ta = a.e + top_bit(a.n), tb = b.e + top_bit(b.n);
    if (ta < tb) {
        exact t = a;
        a = b;
        b = t;
        int tt = ta;
        ta = tb;
        tb = tt;
    }
    if (tb < ta - 60) {
        b.n = b.n < 0 ? -1 : 1;
        b.e = ta - 70;
    }
    int e = a.e < b.e ? a.e : b.e;
    r.n = a.n * ((i128)1 << (a.e - e)) + b.n * ((i128)1 << (b.e - e));
    r.e = e;
    return r;
}
static exact x_mul(exact a, exact b)
{
    exact r = { 0, 0, 0 };
    int za = !a.special && a.n == 0, zb = !b.special && b.n == 0;
    if (a.special == 3 || b.special == 3 || (a.special && zb) || (b.special && za)) {
        r.special = 3;
        return r;
    }
    if (a.special || b.special) {
        int neg = (a.special == 2 || (!a.special && a.n < 0)) != (b.special == 2 || (!b.special && b.n < 0));
        r.special = neg ? 2 : 1;
        return r;
    }
    r.n = a.n * b.n;
    r.e = a.e + b.e;
    return r;
}

/* Rounds an exact value to nearest even in a binary format with `mbits` stored
   mantissa bits and `ebits` exponent bits; `negzero`: an exact zero is -0. */
static uint32_t x_round(exact x, unsigned mbits, unsigned ebits, int negzero)
{
    uint32_t sign_bit = 1u << (mbits + ebits), inf = ((1u << ebits) - 1u) << mbits;
    if (x.special == 3)
        return inf | 1u << (mbits - 1); /* the default quiet NaN */
    if (x.special)
        return (x.special == 2 ? sign_bit : 0) | inf;
    if (x.n == 0)
        return negzero ? sign_bit : 0;
    uint32_t sign = x.n < 0 ? sign_bit : 0;
    i128 n = x.n < 0 ? -x.n : x.n;
    int e = x.e, bias = (1 << (ebits - 1)) - 1;
    int emin = 1 - bias - (int)mbits; /* exponent of the smallest subnormal's unit */
    int top = top_bit(n);
    int shift = top - (int)mbits; /* low bits to round off */
    if (e + shift < emin)
        shift = emin - e;
    if (shift > top + 1) {
        n = 0; /* below half a unit */
    } else if (shift > 0) {
        i128 keep = n >> shift, rem = n - (keep << shift), half = (i128)1 << (shift - 1);
        if (rem > half || (rem == half && (keep & 1)))
            keep++;
        n = keep;
    } else {
        n <<= -shift;
    }
    e += shift;
    if (n >> (mbits + 1)) { /* carried into the next binade */
        n >>= 1;
        e++;
    }
    if (n == 0)
        return sign;
    if (n < ((i128)1 << mbits))
        return sign | (uint32_t)n; /* subnormal */
    int be = e + (int)mbits + bias;
    if (be >= (1 << ebits) - 1)
        return sign | inf;
    return sign | (uint32_t)be << mbits | ((uint32_t)n & ((1u << mbits) - 1u));
}
static uint32_t r_f16(exact x, int nz) { return x_round(x, 10, 5, nz); }
static uint32_t r_f32(exact x, int nz) { return x_round(x, 23, 8, nz); }

static int is_nan16(uint32_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu); }
static int is_nan32(uint32_t b) { return (b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu); }

/* the sign of an exact zero result of x*y+z: -0 only when both terms are -0 */
static int zero_sign(int p_neg_zero, int z_neg_zero) { return p_neg_zero && z_neg_zero; }

/* ---- the harness ------------------------------------------------------------------------------

   Lane l reads 8 dwords at in + 32 l: v[2:3] src0, v[4:5] src1, v[6:7] src2 and the
   old destination v[8:9]; runs the instruction with EXEC = `exec`; stores v[8:9] at
   out + 8 l. */
typedef struct lane {
    uint32_t s0[2], s1[2], s2[2], old[2];
} lane;

static uint64_t g_exec = 0xF0F0FFFF5A5A7E81ull;

/* Runs `insn` (its text, operands included) on `target`; 0 on success with out[]
   filled, else the status (the diagnostic in diag). */
static wa_status run(const char *target, const char *insn, const char *pre, const lane in[64],
                     uint32_t out[128], char *diag, size_t ndiag)
{
    char text[2048];
    snprintf(text, sizeof(text),
             ".kernel t\n  .target %s\n  .workgroup_size 64, 1, 1\n"
             "  .abi kernarg_ptr, workitem_id_x\n"
             "  .arg in, global_buffer, offset:0, size:8, align:8\n"
             "  .arg out, global_buffer, offset:8, size:8, align:8\n"
             "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
             "  v_lshlrev_b32 v1, 5, v0\n"
             "  v_lshlrev_b32 v10, 3, v0\n"
             "  s_waitcnt lgkmcnt(0)\n"
             "  global_load_dwordx4 v[2:5], v1, s[4:5]\n"
             "  global_load_dwordx4 v[6:9], v1, s[4:5] offset:16\n"
             "  s_waitcnt vmcnt(0)\n"
             "%s"
             "  s_mov_b32 exec_lo, 0x%08x\n  s_mov_b32 exec_hi, 0x%08x\n"
             "  %s ; @I7\n"
             "  s_mov_b64 exec, -1\n"
             "  global_store_dwordx2 v10, v[8:9], s[6:7]\n"
             "  s_endpgm\n.end_kernel\n",
             target, pre ? pre : "", (unsigned)g_exec, (unsigned)(g_exec >> 32), insn);
    wa_target t = strcmp(target, "gfx950") == 0   ? WA_TARGET_GFX950
                  : strcmp(target, "gfx90a") == 0 ? WA_TARGET_GFX90A
                                                  : WA_TARGET_GFX942;
    wa_context *ctx = ut_context_new(t);
    wa_program *prog = ut_parse(ctx, text);
    wa_status st = WA_E_PARSE;
    if (prog) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        wa_sim *sim = NULL;
        st = wa_sim_create(&sim, prog, &o);
        if (st == WA_OK) {
            wa_sim_bind_buffer(sim, 0, (void *)in, 64 * sizeof(lane));
            wa_sim_bind_buffer(sim, 1, out, 128 * sizeof(uint32_t));
            st = wa_sim_run(sim);
        }
        wa_sim_destroy(sim);
    }
    if (diag)
        snprintf(diag, ndiag, "%s", wa_context_last_error(ctx));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return st;
}

/* Modifiers of one case, as written (op_sel_hi as written, default per row). */
typedef struct mods {
    unsigned op_sel, op_sel_hi, neg_lo, neg_hi, clamp, neg, abs;
} mods;

static void list(char *b, size_t n, const char *name, unsigned bits, unsigned count)
{
    size_t k = strlen(b);
    snprintf(b + k, n - k, " %s:[", name);
    for (unsigned i = 0; i < count; i++) {
        k = strlen(b);
        snprintf(b + k, n - k, "%s%u", i ? "," : "", bits >> i & 1u);
    }
    k = strlen(b);
    snprintf(b + k, n - k, "]");
}

/* ---- packed 16-bit ------------------------------------------------------------------------ */

typedef uint32_t (*el_fn)(uint32_t a, uint32_t b, uint32_t c, int clamp);

static int32_t si(uint32_t v) { return (int32_t)(int16_t)(uint16_t)v; }
static uint32_t sat_s(int32_t v) { return (uint32_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v) & 0xFFFFu; }
static uint32_t sat_u(int32_t v) { return (uint32_t)(v > 65535 ? 65535 : v < 0 ? 0 : v); }

static uint32_t e_mul_lo(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; (void)k; return (a * b) & 0xFFFFu; }
static uint32_t e_add_i(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; return k ? sat_s(si(a) + si(b)) : (a + b) & 0xFFFFu; }
static uint32_t e_sub_i(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; return k ? sat_s(si(a) - si(b)) : (a - b) & 0xFFFFu; }
static uint32_t e_add_u(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; return k ? sat_u((int32_t)(a + b)) : (a + b) & 0xFFFFu; }
static uint32_t e_sub_u(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; return k ? sat_u((int32_t)a - (int32_t)b) : (a - b) & 0xFFFFu; }
static uint32_t e_lshl(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; (void)k; return (b << (a % 16)) & 0xFFFFu; }
static uint32_t e_lshr(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; (void)k; return b >> (a % 16); }
/* arithmetic shift: floor(b / 2^n) */
static uint32_t e_ashr(uint32_t a, uint32_t b, uint32_t c, int k)
{
    (void)c;
    (void)k;
    int32_t v = si(b), d = 1 << (a % 16);
    int32_t q = v >= 0 ? v / d : -((-v + d - 1) / d);
    return (uint32_t)q & 0xFFFFu;
}
static uint32_t e_max_i(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; (void)k; return si(a) >= si(b) ? a : b; }
static uint32_t e_min_i(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; (void)k; return si(a) <= si(b) ? a : b; }
static uint32_t e_max_u(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; (void)k; return a >= b ? a : b; }
static uint32_t e_min_u(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; (void)k; return a <= b ? a : b; }
static uint32_t e_mad_i(uint32_t a, uint32_t b, uint32_t c, int k) { (void)k; return (uint32_t)(si(a) * si(b) + si(c)) & 0xFFFFu; }
static uint32_t e_mad_u(uint32_t a, uint32_t b, uint32_t c, int k) { (void)k; return (a * b + c) & 0xFFFFu; }

static uint32_t quiet16(uint32_t h) { return h | 0x200u; }
static uint32_t clamp_f16(uint32_t h)
{
    if (is_nan16(h) || (h & 0x8000u))
        return 0;
    return h > 0x3C00u ? 0x3C00u : h;
}
static uint32_t clamp_f32(uint32_t b)
{
    if (is_nan32(b) || (b >> 31))
        return 0;
    return b > 0x3F800000u ? 0x3F800000u : b;
}
static int lt16(uint32_t a, uint32_t b) /* a < b for non-NaN f16, -0 < +0 */
{
    int sa = (a >> 15) & 1, sb = (b >> 15) & 1;
    if (sa != sb)
        return sa;
    return sa ? (a & 0x7FFFu) > (b & 0x7FFFu) : (a & 0x7FFFu) < (b & 0x7FFFu);
}
static uint32_t f_arith(uint32_t a, uint32_t b, uint32_t c, int kind, int k)
{
    uint32_t r;
    if (is_nan16(a))
        r = quiet16(a);
    else if (is_nan16(b))
        r = quiet16(b);
    else if (kind == 2 && is_nan16(c))
        r = quiet16(c);
    else if (kind == 0) /* add */
        r = r_f16(x_add(x_f16(a), x_f16(b)), (a & b) == 0x8000u);
    else if (kind == 1) /* mul */
        r = r_f16(x_mul(x_f16(a), x_f16(b)), 0);
    else {
        exact p = x_mul(x_f16(a), x_f16(b));
        int pnz = !p.special && p.n == 0 && ((a ^ b) & 0x8000u);
        r = r_f16(x_add(p, x_f16(c)), zero_sign(pnz, c == 0x8000u));
    }
    if (kind == 1 && !is_nan16(a) && !is_nan16(b) && (r & 0x7FFFu) == 0)
        r = ((a ^ b) & 0x8000u); /* a zero product has the sign of the product */
    return k ? clamp_f16(r) : r;
}
static uint32_t e_add_f(uint32_t a, uint32_t b, uint32_t c, int k) { return f_arith(a, b, c, 0, k); }
static uint32_t e_mul_f(uint32_t a, uint32_t b, uint32_t c, int k) { return f_arith(a, b, c, 1, k); }
static uint32_t e_fma_f(uint32_t a, uint32_t b, uint32_t c, int k) { return f_arith(a, b, c, 2, k); }
/* IEEE-mode min/max: a signaling NaN gives it quieted, a quiet NaN the other operand */
static uint32_t mm(uint32_t a, uint32_t b, int max)
{
    if (is_nan16(a) && !(a & 0x200u))
        return quiet16(a);
    if (is_nan16(b) && !(b & 0x200u))
        return quiet16(b);
    if (is_nan16(a))
        return b;
    if (is_nan16(b))
        return a;
    return (lt16(a, b) != max) ? a : b;
}
static uint32_t e_min_f(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; uint32_t r = mm(a, b, 0); return k ? clamp_f16(r) : r; }
static uint32_t e_max_f(uint32_t a, uint32_t b, uint32_t c, int k) { (void)c; uint32_t r = mm(a, b, 1); return k ? clamp_f16(r) : r; }
/* IEEE 754-2019 minimum/maximum: any NaN gives a NaN (the first, quieted) */
static uint32_t mm19(uint32_t a, uint32_t b, int max)
{
    if (is_nan16(a))
        return quiet16(a);
    if (is_nan16(b))
        return quiet16(b);
    return (lt16(a, b) != max) ? a : b;
}
static uint32_t e_minimum3(uint32_t a, uint32_t b, uint32_t c, int k) { uint32_t r = mm19(mm19(a, b, 0), c, 0); return k ? clamp_f16(r) : r; }
static uint32_t e_maximum3(uint32_t a, uint32_t b, uint32_t c, int k) { uint32_t r = mm19(mm19(a, b, 1), c, 1); return k ? clamp_f16(r) : r; }

typedef struct pk16_case {
    const char *mn, *target;
    el_fn f;
    unsigned nsrc;
    int fl;      /* float elements: neg_lo/neg_hi apply */
    int clamp;   /* clamp modelled */
} pk16_case;

static const pk16_case pk16_cases[] = {
    { "v_pk_mul_lo_u16", "gfx942", e_mul_lo, 2, 0, 0 },
    { "v_pk_add_i16", "gfx942", e_add_i, 2, 0, 1 },
    { "v_pk_sub_i16", "gfx90a", e_sub_i, 2, 0, 1 },
    { "v_pk_lshlrev_b16", "gfx942", e_lshl, 2, 0, 0 },
    { "v_pk_lshrrev_b16", "gfx950", e_lshr, 2, 0, 0 },
    { "v_pk_ashrrev_i16", "gfx942", e_ashr, 2, 0, 0 },
    { "v_pk_max_i16", "gfx942", e_max_i, 2, 0, 1 },
    { "v_pk_min_i16", "gfx942", e_min_i, 2, 0, 1 },
    { "v_pk_add_u16", "gfx942", e_add_u, 2, 0, 1 },
    { "v_pk_sub_u16", "gfx950", e_sub_u, 2, 0, 1 },
    { "v_pk_max_u16", "gfx942", e_max_u, 2, 0, 1 },
    { "v_pk_min_u16", "gfx90a", e_min_u, 2, 0, 1 },
    { "v_pk_mad_i16", "gfx942", e_mad_i, 3, 0, 0 },
    { "v_pk_mad_u16", "gfx942", e_mad_u, 3, 0, 0 },
    { "v_pk_fma_f16", "gfx942", e_fma_f, 3, 1, 1 },
    { "v_pk_add_f16", "gfx942", e_add_f, 2, 1, 1 },
    { "v_pk_mul_f16", "gfx90a", e_mul_f, 2, 1, 1 },
    { "v_pk_min_f16", "gfx942", e_min_f, 2, 1, 1 },
    { "v_pk_max_f16", "gfx950", e_max_f, 2, 1, 1 },
    { "v_pk_minimum3_f16", "gfx950", e_minimum3, 3, 1, 1 },
    { "v_pk_maximum3_f16", "gfx950", e_maximum3, 3, 1, 1 },
};

static const uint16_t f16_edges[] = { 0x0000, 0x8000, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x0001, 0x8001,
                                      0x03FF, 0x0400, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE11, 0x3555,
                                      0x5640, 0x1400, 0x0200, 0x7800 };
static const uint16_t i16_edges[] = { 0, 1, 0xFFFF, 0x7FFF, 0x8000, 0x8001, 15, 16, 17, 0x00FF, 0xFF00 };

static uint32_t rnd_half(int fl)
{
    unsigned k = rnd() % 4;
    if (k == 0)
        return fl ? f16_edges[rnd() % (sizeof(f16_edges) / sizeof(f16_edges[0]))]
                  : i16_edges[rnd() % (sizeof(i16_edges) / sizeof(i16_edges[0]))];
    if (fl && k == 1) /* moderate magnitudes, so sums round */
        return (rnd() & 0x8000u) | (0x3000u + rnd() % 0x1800u);
    return rnd() & 0xFFFFu;
}

static void fill(lane in[64], int fl, int f32)
{
    for (unsigned l = 0; l < 64; l++)
        for (unsigned k = 0; k < 2; k++) {
            uint32_t *v[4] = { &in[l].s0[k], &in[l].s1[k], &in[l].s2[k], &in[l].old[k] };
            for (unsigned j = 0; j < 4; j++)
                *v[j] = f32 ? 0 : rnd_half(fl) | rnd_half(fl) << 16;
        }
}

static uint32_t word(const lane *in, unsigned s, unsigned comp)
{
    return s == 0 ? in->s0[comp] : s == 1 ? in->s1[comp] : in->s2[comp];
}

/* the element of source s a result element reads: the half `hi` picks, negated */
static uint32_t elem16(uint32_t w, int hi, int neg) { return ((hi ? w >> 16 : w) & 0xFFFFu) ^ (neg ? 0x8000u : 0); }

static void pk16_all(void)
{
    for (size_t ci = 0; ci < sizeof(pk16_cases) / sizeof(pk16_cases[0]); ci++) {
        const pk16_case *pc = &pk16_cases[ci];
        for (unsigned iter = 0; iter < 12; iter++) {
            lane in[64];
            uint32_t out[128];
            fill(in, pc->fl, 0);
            mods m = { 0, 7, 0, 0, 0, 0, 0 };
            unsigned full = (1u << pc->nsrc) - 1u;
            if (iter) {
                m.op_sel = rnd() & full;
                m.op_sel_hi = rnd() & full;
                if (pc->fl) {
                    m.neg_lo = rnd() & full;
                    m.neg_hi = rnd() & full;
                }
                if (pc->clamp)
                    m.clamp = rnd() & 1u;
            }
            char line[256];
            snprintf(line, sizeof(line), "%s v8, v2, v4%s", pc->mn, pc->nsrc == 3 ? ", v6" : "");
            if (m.op_sel)
                list(line, sizeof(line), "op_sel", m.op_sel, pc->nsrc);
            if ((m.op_sel_hi & full) != full)
                list(line, sizeof(line), "op_sel_hi", m.op_sel_hi, pc->nsrc);
            if (m.neg_lo)
                list(line, sizeof(line), "neg_lo", m.neg_lo, pc->nsrc);
            if (m.neg_hi)
                list(line, sizeof(line), "neg_hi", m.neg_hi, pc->nsrc);
            if (m.clamp)
                strcat(line, " clamp");
            ut_context("%s", line);
            char diag[512];
            wa_status st = run(pc->target, line, NULL, in, out, diag, sizeof(diag));
            if (!CHECK_MSG(st == WA_OK, "%s: status %d: %s", line, (int)st, diag))
                continue;
            unsigned bad = 0;
            for (unsigned l = 0; l < 64 && bad < 3; l++) {
                uint32_t want = in[l].old[0];
                if (g_exec >> l & 1u) {
                    uint32_t lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
                    for (unsigned s = 0; s < pc->nsrc; s++) {
                        lo[s] = elem16(word(&in[l], s, 0), m.op_sel >> s & 1u, m.neg_lo >> s & 1u);
                        hi[s] = elem16(word(&in[l], s, 0), m.op_sel_hi >> s & 1u, m.neg_hi >> s & 1u);
                    }
                    want = pc->f(lo[0], lo[1], lo[2], (int)m.clamp) |
                           pc->f(hi[0], hi[1], hi[2], (int)m.clamp) << 16;
                }
                if (!CHECK_MSG(out[2 * l] == want, "%s lane %u: got 0x%08x, want 0x%08x (a 0x%08x b 0x%08x c 0x%08x)",
                               line, l, out[2 * l], want, in[l].s0[0], in[l].s1[0], in[l].s2[0]))
                    bad++;
            }
        }
    }
    ut_context("%s", "");
}

/* ---- packed f32 ----------------------------------------------------------------------------- */

static uint32_t rnd_f32(void)
{
    static const uint32_t edges[] = { 0, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x7F7FFFFFu,
                                      0x00000001u, 0x807FFFFFu, 0x7F800000u, 0xFF800000u,
                                      0x7FC00000u, 0x7F800123u, 0x00800000u };
    unsigned k = rnd() % 4;
    if (k == 0)
        return edges[rnd() % (sizeof(edges) / sizeof(edges[0]))];
    /* exponents -20..20 */
    return (rnd() & 0x80000000u) | (uint32_t)(107 + rnd() % 41) << 23 | (rnd() & 0x7FFFFFu);
}

static uint32_t f32_ref(int kind, uint32_t a, uint32_t b, uint32_t c)
{
    if (is_nan32(a))
        return a | 0x400000u;
    if (is_nan32(b))
        return b | 0x400000u;
    if (kind == 0 && is_nan32(c))
        return c | 0x400000u;
    exact p;
    int pneg = (int)((a ^ b) >> 31);
    if (kind == 2) { /* add */
        return r_f32(x_add(x_f32(a), x_f32(b)), a == 0x80000000u && b == 0x80000000u);
    }
    p = x_mul(x_f32(a), x_f32(b));
    if (kind == 1) {
        uint32_t r = r_f32(p, 0);
        if (!is_nan32(r) && (r & 0x7FFFFFFFu) == 0)
            r = (uint32_t)pneg << 31;
        return r;
    }
    int pnz = !p.special && p.n == 0 && pneg;
    return r_f32(x_add(p, x_f32(c)), zero_sign(pnz, c == 0x80000000u));
}

static void pk32_all(void)
{
    static const struct {
        const char *mn;
        int kind; /* 0 fma, 1 mul, 2 add */
        unsigned nsrc;
    } cases[] = { { "v_pk_fma_f32", 0, 3 }, { "v_pk_mul_f32", 1, 2 }, { "v_pk_add_f32", 2, 2 } };
    static const char *const targets[] = { "gfx90a", "gfx942", "gfx950" };
    for (size_t ci = 0; ci < 3; ci++)
        for (unsigned iter = 0; iter < 9; iter++) {
            lane in[64];
            uint32_t out[128];
            for (unsigned l = 0; l < 64; l++)
                for (unsigned k = 0; k < 2; k++) {
                    in[l].s0[k] = rnd_f32();
                    in[l].s1[k] = rnd_f32();
                    /* the addend near the product's magnitude (the exact sum stays small) */
                    in[l].s2[k] = rnd() % 3 ? (rnd() & 0x80000000u) | (uint32_t)(117 + rnd() % 21) << 23 | (rnd() & 0x7FFFFFu) : rnd_f32();
                    in[l].old[k] = rnd();
                }
            unsigned n = cases[ci].nsrc, full = (1u << n) - 1u;
            mods m = { 0, full, 0, 0, 0, 0, 0 };
            if (iter) {
                m.op_sel = rnd() & full;
                m.op_sel_hi = rnd() & full;
                m.neg_lo = rnd() & full;
                m.neg_hi = rnd() & full;
                m.clamp = rnd() & 1u;
            }
            char line[256];
            snprintf(line, sizeof(line), "%s v[8:9], v[2:3], v[4:5]%s", cases[ci].mn, n == 3 ? ", v[6:7]" : "");
            if (m.op_sel)
                list(line, sizeof(line), "op_sel", m.op_sel, n);
            if (m.op_sel_hi != full)
                list(line, sizeof(line), "op_sel_hi", m.op_sel_hi, n);
            if (m.neg_lo)
                list(line, sizeof(line), "neg_lo", m.neg_lo, n);
            if (m.neg_hi)
                list(line, sizeof(line), "neg_hi", m.neg_hi, n);
            if (m.clamp)
                strcat(line, " clamp");
            ut_context("%s", line);
            char diag[512];
            wa_status st = run(targets[iter % 3], line, NULL, in, out, diag, sizeof(diag));
            if (!CHECK_MSG(st == WA_OK, "%s: status %d: %s", line, (int)st, diag))
                continue;
            unsigned bad = 0;
            for (unsigned l = 0; l < 64 && bad < 3; l++)
                for (unsigned half = 0; half < 2; half++) {
                    uint32_t want = in[l].old[half];
                    if (g_exec >> l & 1u) {
                        uint32_t v[3] = { 0, 0, 0 };
                        unsigned sel = half ? m.op_sel_hi : m.op_sel, ng = half ? m.neg_hi : m.neg_lo;
                        for (unsigned s = 0; s < n; s++)
                            v[s] = word(&in[l], s, sel >> s & 1u) ^ ((ng >> s & 1u) ? 0x80000000u : 0);
                        want = f32_ref(cases[ci].kind, v[0], v[1], v[2]);
                        if (m.clamp)
                            want = clamp_f32(want);
                    }
                    if (!CHECK_MSG(out[2 * l + half] == want, "%s lane %u.%u: got 0x%08x, want 0x%08x",
                                   line, l, half, out[2 * l + half], want))
                        bad++;
                }
        }
    ut_context("%s", "");
}

static void pk_mov(void)
{
    lane in[64];
    uint32_t out[128];
    fill(in, 0, 0);
    for (unsigned sel = 0; sel < 4; sel++) {
        char line[128];
        snprintf(line, sizeof(line), "v_pk_mov_b32 v[8:9], v[2:3], v[4:5] op_sel:[%u,%u]", sel & 1u, sel >> 1);
        ut_context("%s", line);
        if (!CHECK_OK(run("gfx942", line, NULL, in, out, NULL, 0)))
            continue;
        for (unsigned l = 0; l < 64; l++) {
            int on = g_exec >> l & 1u;
            CHECK_EQ_HEX(out[2 * l], on ? in[l].s0[sel & 1u] : in[l].old[0]);
            CHECK_EQ_HEX(out[2 * l + 1], on ? in[l].s1[sel >> 1] : in[l].old[1]);
        }
    }
    ut_context("%s", "");
}

/* ---- dot products ------------------------------------------------------------------------------ */

static int64_t field(uint32_t w, unsigned i, unsigned bits, int sgn)
{
    uint32_t v = (w >> (bits * i)) & ((1u << bits) - 1u);
    if (sgn && (v >> (bits - 1)))
        return (int64_t)v - ((int64_t)1 << bits);
    return v;
}

static void dot_all(void)
{
    static const struct {
        const char *mn, *target;
        unsigned n, bits; /* elements, bits each (0: f16, 1: bf16) */
        int sgn, opsel;
    } cases[] = {
        { "v_dot2_f32_f16", "gfx90a", 2, 0, 0, 1 },   { "v_dot2_f32_f16", "gfx942", 2, 0, 0, 0 },
        { "v_dot2_f32_bf16", "gfx950", 2, 1, 0, 0 },  { "v_dot2_i32_i16", "gfx90a", 2, 16, 1, 1 },
        { "v_dot2_u32_u16", "gfx942", 2, 16, 0, 0 },  { "v_dot4_i32_i8", "gfx942", 4, 8, 1, 0 },
        { "v_dot4_u32_u8", "gfx950", 4, 8, 0, 0 },    { "v_dot8_i32_i4", "gfx90a", 8, 4, 1, 0 },
        { "v_dot8_u32_u4", "gfx942", 8, 4, 0, 0 },
    };
    for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++)
        for (unsigned iter = 0; iter < 8; iter++) {
            int fl = cases[ci].bits < 2;
            lane in[64];
            uint32_t out[128];
            for (unsigned l = 0; l < 64; l++) {
                uint32_t *w[2] = { &in[l].s0[0], &in[l].s1[0] };
                for (unsigned j = 0; j < 2; j++) {
                    if (cases[ci].bits == 1) /* bf16: exponents near 1 */
                        *w[j] = ((rnd() & 0x80FFu) | (uint32_t)(118 + rnd() % 20) << 7) |
                                ((rnd() & 0x80FFu) | (uint32_t)(118 + rnd() % 20) << 7) << 16;
                    else
                        *w[j] = fl ? rnd_half(1) | rnd_half(1) << 16 : rnd();
                }
                in[l].s2[0] = fl ? (rnd() % 4 ? (rnd() & 0x80000000u) | (uint32_t)(110 + rnd() % 25) << 23 | (rnd() & 0x7FFFFFu) : rnd_f32())
                                 : (rnd() % 4 ? rnd() : (rnd() & 1u) ? 0x7FFFFFF0u : 0x80000010u);
                in[l].old[0] = rnd();
                in[l].s0[1] = in[l].s1[1] = in[l].s2[1] = in[l].old[1] = 0;
            }
            mods m = { 0, 3, 0, 0, 0, 0, 0 };
            if (iter) {
                if (cases[ci].opsel) {
                    m.op_sel = rnd() & 3u;
                    m.op_sel_hi = rnd() & 3u;
                }
                if (fl) {
                    m.neg_lo = rnd() & 3u;
                    m.neg_hi = rnd() & 3u;
                }
                m.clamp = rnd() & 1u;
            }
            char line[256];
            snprintf(line, sizeof(line), "%s v8, v2, v4, v6", cases[ci].mn);
            if (m.op_sel)
                list(line, sizeof(line), "op_sel", m.op_sel, 3);
            if (m.op_sel_hi != 3)
                list(line, sizeof(line), "op_sel_hi", m.op_sel_hi | 4u, 3);
            if (m.neg_lo)
                list(line, sizeof(line), "neg_lo", m.neg_lo, 3);
            if (m.neg_hi)
                list(line, sizeof(line), "neg_hi", m.neg_hi, 3);
            if (m.clamp)
                strcat(line, " clamp");
            ut_context("%s", line);
            char diag[512];
            wa_status st = run(cases[ci].target, line, NULL, in, out, diag, sizeof(diag));
            if (!CHECK_MSG(st == WA_OK, "%s: status %d: %s", line, (int)st, diag))
                continue;
            unsigned bad = 0;
            for (unsigned l = 0; l < 64 && bad < 3; l++) {
                uint32_t want = in[l].old[0];
                if (g_exec >> l & 1u) {
                    uint32_t a = in[l].s0[0], b = in[l].s1[0], c = in[l].s2[0];
                    if (fl) {
                        exact (*cv)(uint32_t) = cases[ci].bits ? x_bf16 : x_f16;
                        exact sum = x_f32(c);
                        int nan = is_nan32(c);
                        for (unsigned i = 0; i < 2; i++) {
                            unsigned selbits = i ? m.op_sel_hi : m.op_sel, ng = i ? m.neg_hi : m.neg_lo;
                            uint32_t ea = elem16(a, selbits & 1u, ng & 1u), eb = elem16(b, selbits >> 1 & 1u, ng >> 1 & 1u);
                            if (cases[ci].bits) {
                                nan |= (ea & 0x7F80u) == 0x7F80u && (ea & 0x7Fu);
                                nan |= (eb & 0x7F80u) == 0x7F80u && (eb & 0x7Fu);
                            } else {
                                nan |= is_nan16(ea) || is_nan16(eb);
                            }
                            sum = x_add(sum, x_mul(cv(ea), cv(eb)));
                        }
                        /* (a zero sum's sign is not checked: compared as any zero) */
                        want = nan ? 0x7FC00000u : r_f32(sum, 0);
                        if (m.clamp)
                            want = clamp_f32(want);
                    } else {
                        unsigned bits = cases[ci].bits;
                        int sgn = cases[ci].sgn;
                        int64_t acc = sgn ? (int64_t)(int32_t)c : (int64_t)c;
                        for (unsigned i = 0; i < cases[ci].n; i++) {
                            unsigned ia = i, ib = i;
                            if (cases[ci].n == 2) { /* i16/u16 elements: half selects */
                                unsigned selbits = i ? m.op_sel_hi : m.op_sel;
                                ia = selbits & 1u;
                                ib = selbits >> 1 & 1u;
                            }
                            acc += field(a, ia, bits, sgn) * field(b, ib, bits, sgn);
                        }
                        if (m.clamp)
                            want = sgn ? (uint32_t)(int32_t)(acc > 2147483647 ? 2147483647 : acc < -2147483647 - 1 ? -2147483647 - 1 : acc)
                                       : (uint32_t)(acc > 4294967295ll ? 4294967295ll : acc < 0 ? 0 : acc);
                        else
                            want = (uint32_t)acc;
                    }
                }
                int zero_ok = (want & 0x7FFFFFFFu) == 0 && (out[2 * l] & 0x7FFFFFFFu) == 0 && fl;
                if (!CHECK_MSG(out[2 * l] == want || zero_ok, "%s lane %u: got 0x%08x, want 0x%08x (a 0x%08x b 0x%08x c 0x%08x)",
                               line, l, out[2 * l], want, in[l].s0[0], in[l].s1[0], in[l].s2[0]))
                    bad++;
            }
        }
    ut_context("%s", "");
}

/* ---- v_fma_mix --------------------------------------------------------------------------------- */

static void mix_all(void)
{
    static const char *const mns[] = { "v_fma_mix_f32", "v_fma_mixlo_f16", "v_fma_mixhi_f16" };
    static const char *const targets[] = { "gfx90a", "gfx942", "gfx950" };
    for (unsigned form = 0; form < 3; form++)
        for (unsigned iter = 0; iter < 12; iter++) {
            lane in[64];
            uint32_t out[128];
            mods m = { 0, 0, 0, 0, 0, 0, 0 };
            m.op_sel_hi = iter ? rnd() & 7u : 0;
            m.op_sel = iter ? rnd() & 7u : 0;
            m.neg = iter ? rnd() & 7u : 0;
            m.abs = iter ? rnd() & 7u : 0;
            m.clamp = iter ? rnd() & 1u : 0;
            for (unsigned l = 0; l < 64; l++) {
                uint32_t *w[3] = { &in[l].s0[0], &in[l].s1[0], &in[l].s2[0] };
                for (unsigned s = 0; s < 3; s++) {
                    if (m.op_sel_hi >> s & 1u)
                        *w[s] = rnd_half(1) | rnd_half(1) << 16;
                    else /* f32 with exponents -12..12, or an edge */
                        *w[s] = rnd() % 5 ? (rnd() & 0x80000000u) | (uint32_t)(115 + rnd() % 25) << 23 | (rnd() & 0x7FFFFFu)
                                          : rnd_f32() & (rnd() % 2 ? 0xFFFFFFFFu : 0xFF800000u);
                }
                in[l].old[0] = rnd();
                in[l].s0[1] = in[l].s1[1] = in[l].s2[1] = in[l].old[1] = 0;
            }
            char line[256], op[3][16];
            for (unsigned s = 0; s < 3; s++) {
                unsigned r = 2 + 2 * s;
                int ng = m.neg >> s & 1u, ab = m.abs >> s & 1u;
                snprintf(op[s], sizeof(op[s]), "%s%sv%u%s", ng ? "-" : "", ab ? "|" : "", r, ab ? "|" : "");
            }
            snprintf(line, sizeof(line), "%s v8, %s, %s, %s", mns[form], op[0], op[1], op[2]);
            if (m.op_sel)
                list(line, sizeof(line), "op_sel", m.op_sel, 3);
            if (m.op_sel_hi)
                list(line, sizeof(line), "op_sel_hi", m.op_sel_hi, 3);
            if (m.clamp)
                strcat(line, " clamp");
            ut_context("%s", line);
            char diag[512];
            wa_status st = run(targets[iter % 3], line, NULL, in, out, diag, sizeof(diag));
            if (!CHECK_MSG(st == WA_OK, "%s: status %d: %s", line, (int)st, diag))
                continue;
            unsigned bad = 0;
            for (unsigned l = 0; l < 64 && bad < 3; l++) {
                uint32_t want = in[l].old[0];
                if (g_exec >> l & 1u) {
                    exact v[3];
                    int nan = 0, negzero[3];
                    for (unsigned s = 0; s < 3; s++) {
                        uint32_t w = word(&in[l], s, 0);
                        if (m.op_sel_hi >> s & 1u) {
                            uint32_t h = (m.op_sel >> s & 1u) ? w >> 16 : w & 0xFFFFu;
                            nan |= is_nan16(h);
                            v[s] = x_f16(h);
                            negzero[s] = h == 0x8000u;
                        } else {
                            nan |= is_nan32(w);
                            v[s] = x_f32(w);
                            negzero[s] = w == 0x80000000u;
                        }
                        if (m.abs >> s & 1u) {
                            v[s] = x_abs(v[s]);
                            negzero[s] = 0;
                        }
                        if (m.neg >> s & 1u) {
                            v[s] = x_neg(v[s]);
                            negzero[s] = !v[s].special && v[s].n == 0 && !negzero[s];
                        }
                    }
                    exact p = x_mul(v[0], v[1]);
                    int pnz = 0;
                    if (!p.special && p.n == 0) {
                        /* sign of a zero product: the xor of the factors' signs */
                        int s0 = v[0].special ? v[0].special == 2 : (v[0].n ? v[0].n < 0 : negzero[0]);
                        int s1 = v[1].special ? v[1].special == 2 : (v[1].n ? v[1].n < 0 : negzero[1]);
                        pnz = s0 != s1;
                    }
                    exact sum = x_add(p, v[2]);
                    int nz = zero_sign(pnz, negzero[2]);
                    if (form == 0) {
                        want = nan ? 0x7FC00000u : r_f32(sum, nz);
                        if (m.clamp)
                            want = clamp_f32(want);
                    } else {
                        uint32_t h = nan ? 0x7E00u : r_f16(sum, nz);
                        if (m.clamp)
                            h = clamp_f16(h);
                        want = form == 1 ? (in[l].old[0] & 0xFFFF0000u) | h : (in[l].old[0] & 0xFFFFu) | h << 16;
                    }
                }
                if (!CHECK_MSG(out[2 * l] == want, "%s lane %u: got 0x%08x, want 0x%08x (a 0x%08x b 0x%08x c 0x%08x)",
                               line, l, out[2 * l], want, in[l].s0[0], in[l].s1[0], in[l].s2[0]))
                    bad++;
            }
        }
    ut_context("%s", "");
}

/* ---- constants, SGPRs, accvgpr, refusals ------------------------------------------------------- */

/* One lane's result of `line` (all lanes get the same sources: SGPRs or constants,
   v2/v4/v6 set to a, b, c). */
static int run_uniform(const char *target, const char *line, const char *pre, uint32_t a, uint32_t b,
                       uint32_t c, uint32_t got[2])
{
    lane in[64];
    uint32_t out[128];
    for (unsigned l = 0; l < 64; l++) {
        in[l].s0[0] = a, in[l].s1[0] = b, in[l].s2[0] = c;
        in[l].s0[1] = in[l].s1[1] = in[l].s2[1] = 0;
        in[l].old[0] = in[l].old[1] = 0xDEADBEEFu;
    }
    char diag[512];
    wa_status st = run(target, line, pre, in, out, diag, sizeof(diag));
    if (!CHECK_MSG(st == WA_OK, "%s: status %d: %s", line, (int)st, diag))
        return 0;
    got[0] = out[0];
    got[1] = out[1];
    return 1;
}

static void constants_and_scalars(void)
{
    /* Inline constants as 32-bit values: f16 1.0 is 0x00003C00 (high half 0), -1 is
       0xFFFFFFFF, a packed-integer 1.0 the f32 pattern 0x3F800000. Lane 0 is active. */
    static const struct {
        const char *line;
        uint32_t a, b, c, want;
    } cases[] = {
        /* lo: 1.0 + 2.0 = 3.0 (0x4200); hi: 0 + 1.0 */
        { "v_pk_add_f16 v8, 1.0, v4", 0, 0x3C004000u, 0, 0x3C004200u },
        /* op_sel_hi:[0,1]: the constant in both halves */
        { "v_pk_add_f16 v8, 1.0, v4 op_sel_hi:[0,1]", 0, 0x3C004000u, 0, 0x40004200u },
        /* -1: 0xFFFF in both halves (sign-extended): -1 + 1 = 0 each */
        { "v_pk_add_u16 v8, -1, v4", 0, 0x00010001u, 0, 0 },
        /* 64: 64 in the low half, 0 in the high one */
        { "v_pk_add_u16 v8, 64, v4", 0, 0x00050005u, 0, 0x00050045u },
        /* 1.0 on a packed integer: 0x3F800000: lo += 0, hi += 0x3F80 */
        { "v_pk_add_u16 v8, v4, 1.0", 0, 0x00010002u, 0, 0x3F810002u },
        /* SGPR source */
        { "v_pk_mul_f16 v8, s20, v4", 0, 0x40004000u, 0, 0x46004400u },
        /* dot with constants: 1.0 (0x00003C00) . (2.0, 3.0) + 0.5 = 2.5 */
        { "v_dot2_f32_f16 v8, 1.0, v4, 0.5", 0, 0x42004000u, 0, 0x40200000u },
        /* one rounding: 256(1 + 2^-23) + 2^-16 - 2^-48 lies just below the tie between
           0x43800001 and 0x43800002, which a double sum (56 bits) would reach */
        { "v_dot2_f32_f16 v8, v2, v4, v6", 0x00011C00u, 0x80011C00u, 0x43800001u, 0x43800001u },
        /* integer dot: 2 (0x00000002) . (7, 9) + 1 = 15 */
        { "v_dot2_u32_u16 v8, 2, v4, 1", 0, 0x00090007u, 0, 15 },
        /* mix: f16 sources 1.0 (op_sel_hi), f32 accumulator integer constant 0 */
        { "v_fma_mix_f32 v8, 1.0, v4, 0 op_sel_hi:[1,1,0]", 0, 0x4400u, 0, 0x40800000u },
        /* packed f32: the constant in the first register, both results with op_sel_hi:[0,1] */
        { "v_pk_mul_f32 v[8:9], 2.0, v[4:5] op_sel_hi:[0,1]", 0, 0x3F800000u, 0, 0x40000000u },
        /* accvgpr moves: a constant through a1 and back */
        { "v_accvgpr_write_b32 a1, -16", 0, 0, 0, 0xDEADBEEFu },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t got[2];
        ut_context("%s", cases[i].line);
        if (run_uniform("gfx942", cases[i].line, "  s_mov_b32 s20, 0x42004000\n", cases[i].a,
                        cases[i].b, cases[i].c, got))
            CHECK_EQ_HEX(got[0], cases[i].want);
    }
    /* accvgpr: write then read back, every lane (a register, an SGPR, a constant) */
    uint32_t got[2];
    ut_context("%s", "accvgpr");
    if (run_uniform("gfx90a", "v_accvgpr_read_b32 v8, a3",
                    "  v_accvgpr_write_b32 a3, v2\n", 0x12345678u, 0, 0, got))
        CHECK_EQ_HEX(got[0], 0x12345678u);
    if (run_uniform("gfx950", "v_accvgpr_read_b32 v8, a3",
                    "  s_mov_b32 s20, 0xCAFEF00D\n  v_accvgpr_write_b32 a3, s20\n", 0, 0, 0, got))
        CHECK_EQ_HEX(got[0], 0xCAFEF00Du);
    if (run_uniform("gfx942", "v_accvgpr_read_b32 v8, a3",
                    "  v_accvgpr_write_b32 a3, 0.5\n", 0, 0, 0, got))
        CHECK_EQ_HEX(got[0], 0x3F000000u);
    /* packed f32 from an SGPR pair, registers swapped by op_sel */
    if (run_uniform("gfx942", "v_pk_add_f32 v[8:9], s[20:21], v[4:5] op_sel:[1,0] op_sel_hi:[0,1]",
                    "  s_mov_b32 s20, 1.0\n  s_mov_b32 s21, 4.0\n", 0, 0x3F800000u, 0, got)) {
        CHECK_EQ_HEX(got[0], 0x40A00000u); /* 4 + 1 */
        CHECK_EQ_HEX(got[1], 0x3F800000u); /* 1 + hi of v[4:5] (0) */
    }
    ut_context("%s", "");
}

static void refused(void)
{
    static const struct {
        const char *target, *line, *words;
    } cases[] = {
        { "gfx942", "v_pk_add_u16 v8, v2, v4 neg_lo:[1,0]", "neg_lo/neg_hi on integer elements" },
        { "gfx942", "v_pk_mad_u16 v8, v2, v4, v6 clamp", "clamp is not documented" },
        { "gfx942", "v_pk_lshlrev_b16 v8, v2, v4 clamp", "clamp is not documented" },
        { "gfx942", "v_pk_mov_b32 v[8:9], v[2:3], v[4:5] op_sel_hi:[0,1]", "op_sel_hi is not documented" },
        { "gfx942", "v_pk_mov_b32 v[8:9], v[2:3], v[4:5] neg_lo:[1,0]", "neg_lo/neg_hi" },
        { "gfx942", "v_dot4_u32_u8 v8, v2, v4, v6 neg_hi:[1,0,0]", "integer elements" },
        { "gfx942", "v_dot2_f32_f16 v8, v2, v4, v6 neg_lo:[0,0,1]", "32-bit accumulator" },
        { "gfx90a", "v_dot2_f32_f16 v8, v2, v4, v6 op_sel:[0,0,1]", "op_sel/op_sel_hi on the 32-bit accumulator" },
        { "gfx950", "v_dot2_f32_bf16 v8, 1.0, v4, v6", "bf16" },
        { "gfx942", "v_fma_mix_f32 v8, 2.0, v4, v6", "f32-read" },
        { "gfx942", "v_pk_fma_f32 v[8:9], 1.0, v[4:5], v[6:7]", "second register of a constant" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        lane in[64];
        uint32_t out[128];
        char diag[512];
        memset(in, 0, sizeof(in));
        ut_context("%s", cases[i].line);
        CHECK_STATUS(run(cases[i].target, cases[i].line, NULL, in, out, diag, sizeof(diag)),
                     WA_E_UNSUPPORTED);
        CHECK_STR_CONTAINS(diag, cases[i].words);
    }
    /* the integer clamps that are modelled: saturation */
    uint32_t got[2];
    ut_context("%s", "saturation");
    if (run_uniform("gfx942", "v_pk_add_i16 v8, v2, v4 clamp", NULL, 0x80007FFFu, 0x80000001u, 0, got))
        CHECK_EQ_HEX(got[0], 0x80007FFFu);
    if (run_uniform("gfx942", "v_pk_sub_u16 v8, v2, v4 clamp", NULL, 0x00050001u, 0x00030002u, 0, got))
        CHECK_EQ_HEX(got[0], 0x00020000u);
    ut_context("%s", "");
}

UT_SUITE(UT_CASE(pk16_all) UT_CASE(pk32_all) UT_CASE(pk_mov) UT_CASE(dot_all) UT_CASE(mix_all)
         UT_CASE(constants_and_scalars) UT_CASE(refused));
