/* tests/unit/test_sim_vopc.c — the simulator's vector compares (VOPC): every v_cmp_*,
   v_cmpx_* and v_cmp_class_* row of the table, checked against references this file
   computes itself from the mnemonic (condition and type words) and the ISA's
   description, never from the simulator's helpers or the table's compare facts:

     floats     the 16 conditions with their NaN rules (f, lt, eq, le, gt, lg, ge, o, u,
                nge, nlg, ngt, nle, neq, nlt, tru), -0 == +0, denormals, infinities
     integers   the 8 conditions, signed and unsigned, 16, 32 and 64 bits (a 16-bit
                compare ignores the high half of its registers)
     class      the ten class bits of src1 against src0 (signaling/quiet NaN, +-inf,
                +-normal, +-denormal, +-0)

   Each row runs in its 32-bit form (vcc) and VOP3 form (an SGPR pair, sources
   swapped) under full, empty and partial EXEC: inactive lanes get 0, and v_cmpx also
   writes EXEC (the second compare then runs under the first one's mask). Then the
   forms with constants, SGPR sources, exec as sdst, the clamp bit, and the
   modifiers that other parts of the simulator model (neg/abs, SDWA). */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NL 64u

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}
static uint64_t rnd64(void) { return (uint64_t)rnd() << 32 | rnd(); }

/* ---- the harness -------------------------------------------------------------------

   Lane l loads a (v[2:3]) and b (v[4:5]) from in + 16 l; EXEC is set from in + 1024;
   vcc and s[20:21] hold all ones before `ops` run. Afterwards vcc, s[20:21] and EXEC
   are read back. */
typedef struct vio {
    uint64_t a[NL], b[NL];
    uint64_t exec;
    uint64_t vcc, sd, exec_after;
} vio;

static wa_status vrun(const char *ops, vio *io, char *diag, size_t ndiag)
{
    uint32_t in[258], out[6];
    for (unsigned l = 0; l < NL; l++) {
        in[4 * l] = (uint32_t)io->a[l];
        in[4 * l + 1] = (uint32_t)(io->a[l] >> 32);
        in[4 * l + 2] = (uint32_t)io->b[l];
        in[4 * l + 3] = (uint32_t)(io->b[l] >> 32);
    }
    in[256] = (uint32_t)io->exec;
    in[257] = (uint32_t)(io->exec >> 32);
    memset(out, 0xA5, sizeof(out));
    ut_tb t = { 0 };
    ut_tb_printf(&t,
              ".kernel t\n"
              "  .target gfx942\n"
              "  .workgroup_size 64, 1, 1\n"
              "  .abi kernarg_ptr, workitem_id_x\n"
              "  .arg in, global_buffer, offset:0, size:8, align:8\n"
              "  .arg out, global_buffer, offset:8, size:8, align:8\n"
              "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
              "  v_lshlrev_b32 v1, 4, v0\n"
              "  s_waitcnt lgkmcnt(0)\n"
              "  s_load_dwordx2 s[8:9], s[4:5], 1024\n"
              "  global_load_dwordx4 v[2:5], v1, s[4:5]\n"
              "  s_mov_b64 vcc, -1\n"
              "  s_mov_b64 s[20:21], -1\n"
              "  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
              "  s_mov_b64 exec, s[8:9]\n"
              "%s"
              "  s_nop 4\n"
              "  s_mov_b64 s[22:23], exec\n"
              "  s_mov_b64 exec, -1\n"
              "  v_mov_b32 v8, 0\n"
              "  v_mov_b32 v10, vcc_lo\n"
              "  v_mov_b32 v11, vcc_hi\n"
              "  v_mov_b32 v12, s20\n"
              "  v_mov_b32 v13, s21\n"
              "  v_mov_b32 v14, s22\n"
              "  v_mov_b32 v15, s23\n"
              "  global_store_dwordx4 v8, v[10:13], s[6:7]\n"
              "  global_store_dwordx2 v8, v[14:15], s[6:7] offset:16\n"
              "  s_endpgm\n"
              ".end_kernel\n",
              ops);
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, t.s);
    wa_status st = WA_E_PARSE;
    if (prog) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        o.seed = 3;
        wa_sim *sim = NULL;
        st = wa_sim_create(&sim, prog, &o);
        if (st == WA_OK) {
            wa_sim_bind_buffer(sim, 0, in, sizeof(in));
            wa_sim_bind_buffer(sim, 1, out, sizeof(out));
            st = wa_sim_run(sim);
        }
        wa_sim_destroy(sim);
    }
    if (diag)
        snprintf(diag, ndiag, "%s", wa_context_last_error(ctx));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    free(t.s);
    io->vcc = out[0] | (uint64_t)out[1] << 32;
    io->sd = out[2] | (uint64_t)out[3] << 32;
    io->exec_after = out[4] | (uint64_t)out[5] << 32;
    return st;
}

static int vrun_ok(const char *ops, vio *io)
{
    char diag[512];
    wa_status st = vrun(ops, io, diag, sizeof(diag));
    return CHECK_MSG(st == WA_OK, "%s: status %d: %s", ops, (int)st, diag);
}

/* ---- references ---------------------------------------------------------------------- */

typedef struct cmp_desc {
    int x;            /* v_cmpx */
    int is_class;
    char cond[8];     /* "lt", "nge", ... */
    char ty;          /* 'f', 'i', 'u' */
    unsigned bits;    /* 16, 32, 64 */
} cmp_desc;

/* Parses "v_cmp[x]_<cond>_<type>" and "v_cmp[x]_class_<type>". */
static int parse_mn(const char *mn, cmp_desc *d)
{
    memset(d, 0, sizeof(*d));
    const char *p;
    if (strncmp(mn, "v_cmpx_", 7) == 0) {
        d->x = 1;
        p = mn + 7;
    } else if (strncmp(mn, "v_cmp_", 6) == 0) {
        p = mn + 6;
    } else {
        return 0;
    }
    const char *us = strrchr(p, '_');
    if (!us || (size_t)(us - p) >= sizeof(d->cond))
        return 0;
    memcpy(d->cond, p, (size_t)(us - p));
    d->ty = us[1];
    d->bits = (unsigned)atoi(us + 2);
    d->is_class = strcmp(d->cond, "class") == 0;
    return d->bits == 16 || d->bits == 32 || d->bits == 64;
}

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, -24);
    else
        v = ldexp((double)(m + 1024), e - 25);
    return (h & 0x8000u) ? -v : v;
}

static double to_double(uint64_t v, unsigned bits)
{
    if (bits == 16)
        return half_to_double((uint16_t)v);
    if (bits == 32) {
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, sizeof(f));
        return (double)f;
    }
    double d;
    memcpy(&d, &v, sizeof(d));
    return d;
}

static int float_cond(const char *c, double a, double b)
{
    int un = isnan(a) || isnan(b);
    if (!strcmp(c, "f")) return 0;
    if (!strcmp(c, "lt")) return a < b;
    if (!strcmp(c, "eq")) return a == b;
    if (!strcmp(c, "le")) return a <= b;
    if (!strcmp(c, "gt")) return a > b;
    if (!strcmp(c, "lg")) return !un && a != b;
    if (!strcmp(c, "ge")) return a >= b;
    if (!strcmp(c, "o")) return !un;
    if (!strcmp(c, "u")) return un;
    if (!strcmp(c, "nge")) return !(a >= b);
    if (!strcmp(c, "nlg")) return un || a == b;
    if (!strcmp(c, "ngt")) return !(a > b);
    if (!strcmp(c, "nle")) return !(a <= b);
    if (!strcmp(c, "neq")) return !(a == b);
    if (!strcmp(c, "nlt")) return !(a < b);
    if (!strcmp(c, "tru")) return 1;
    CHECK_MSG(0, "unknown float condition %s", c);
    return 0;
}

static int int_cond(const char *c, int sgn, unsigned bits, uint64_t a, uint64_t b)
{
    int lt, eq = 0;
    if (bits < 64) {
        a &= (1ull << bits) - 1u;
        b &= (1ull << bits) - 1u;
    }
    eq = a == b;
    if (sgn) {
        int64_t sa = bits == 16 ? (int16_t)a : bits == 32 ? (int32_t)a : (int64_t)a;
        int64_t sb = bits == 16 ? (int16_t)b : bits == 32 ? (int32_t)b : (int64_t)b;
        lt = sa < sb;
    } else {
        lt = a < b;
    }
    if (!strcmp(c, "f")) return 0;
    if (!strcmp(c, "lt")) return lt;
    if (!strcmp(c, "eq")) return eq;
    if (!strcmp(c, "le")) return lt || eq;
    if (!strcmp(c, "gt")) return !lt && !eq;
    if (!strcmp(c, "ne")) return !eq;
    if (!strcmp(c, "ge")) return !lt;
    if (!strcmp(c, "t")) return 1;
    CHECK_MSG(0, "unknown integer condition %s", c);
    return 0;
}

/* The class of float bits v: 0 signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
   4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf. */
static unsigned float_class(uint64_t v, unsigned bits)
{
    double d = to_double(v, bits);
    double min_normal = bits == 16 ? ldexp(1.0, -14) : bits == 32 ? ldexp(1.0, -126) : ldexp(1.0, -1022);
    uint64_t quiet = bits == 16 ? 0x200u : bits == 32 ? 0x400000u : 1ull << 51;
    if (isnan(d))
        return (v & quiet) ? 1 : 0;
    int neg = signbit(d) != 0;
    if (isinf(d))
        return neg ? 2 : 9;
    if (d == 0)
        return neg ? 5 : 6;
    if (fabs(d) < min_normal)
        return neg ? 4 : 7;
    return neg ? 3 : 8;
}

static int ref_lane(const cmp_desc *d, uint64_t a, uint64_t b)
{
    uint64_t m = d->bits == 64 ? ~0ull : (1ull << d->bits) - 1u;
    if (d->is_class)
        return (uint32_t)b >> float_class(a & m, d->bits) & 1u;
    if (d->ty == 'f')
        return float_cond(d->cond, to_double(a & m, d->bits), to_double(b & m, d->bits));
    return int_cond(d->cond, d->ty == 'i', d->bits, a, b);
}

static uint64_t ref_mask(const cmp_desc *d, const uint64_t *a, const uint64_t *b, uint64_t exec)
{
    uint64_t r = 0;
    for (unsigned l = 0; l < NL; l++)
        if (exec >> l & 1u && ref_lane(d, a[l], b[l]))
            r |= 1ull << l;
    return r;
}

/* ---- inputs ---------------------------------------------------------------------------- */

static const uint16_t f16_edge[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3C01, 0x7BFF,
    0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE00, 0x4000, 0x3800,
};
static const uint32_t f32_edge[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00800000u,
    0x3F800000u, 0xBF800000u, 0x3F800001u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u,
    0xFF800000u, 0x7FC00000u, 0x7F800001u, 0xFFC00000u, 0x40000000u, 0x3F000000u,
};
static const uint64_t f64_edge[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull, 0x8000000000000001ull,
    0x000FFFFFFFFFFFFFull, 0x0010000000000000ull, 0x3FF0000000000000ull, 0xBFF0000000000000ull,
    0x3FF0000000000001ull, 0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull, 0x7FF0000000000000ull,
    0xFFF0000000000000ull, 0x7FF8000000000000ull, 0x7FF0000000000001ull, 0xFFF8000000000000ull,
    0x4000000000000000ull, 0x3FE0000000000000ull,
};
static const uint64_t int_edge[] = {
    0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFFull, 0x80000000ull,
    0xFFFFFFFFull, 0x100000000ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, ~0ull,
    0xFFFFFFFF00000000ull,
};
#define NEDGE 18u

static uint64_t edge_value(const cmp_desc *d, unsigned i)
{
    if (d->ty == 'f')
        return d->bits == 16 ? f16_edge[i % NEDGE] : d->bits == 32 ? f32_edge[i % NEDGE]
                                                                   : f64_edge[i % NEDGE];
    return int_edge[i % NEDGE];
}

/* Round 0: edge values against edge values; 1: random values (random sign, small
   exponents for floats so that orderings vary); 2: equal pairs and neighbours; for
   class rows b is a random class mask. The bits above a 16/32-bit value are random
   (they must not matter). */
static void make_inputs(const cmp_desc *d, unsigned round, vio *io)
{
    for (unsigned l = 0; l < NL; l++) {
        uint64_t a, b;
        if (round == 0) {
            a = edge_value(d, l);
            b = edge_value(d, l / NEDGE * 5 + l * 7);
        } else if (round == 1) {
            a = rnd64();
            b = rnd64();
            if (d->ty == 'f' && l % 2) { /* nearby magnitudes */
                b = a ^ (rnd() & 0xFFu);
            }
        } else {
            a = l % 2 ? edge_value(d, l) : rnd64();
            b = l % 3 ? a : a + 1;
        }
        if (d->is_class)
            b = l % 4 ? (uint64_t)(rnd() & 0x3FFu) : rnd64();
        if (d->bits == 16) {
            a = (a & 0xFFFFu) | (uint64_t)rnd() << 16;
            if (!d->is_class)
                b = (b & 0xFFFFu) | (uint64_t)rnd() << 16;
        }
        io->a[l] = a;
        io->b[l] = b;
    }
}

static const uint64_t g_execs[] = { ~0ull, 0x8000000000000001ull, 0xF0F0F0F00FF00FF0ull, 0 };

static void regs(const cmp_desc *d, char *ra, char *rb, size_t n)
{
    if (d->bits == 64) {
        snprintf(ra, n, "v[2:3]");
        snprintf(rb, n, d->is_class ? "v4" : "v[4:5]");
    } else {
        snprintf(ra, n, "v2");
        snprintf(rb, n, "v4");
    }
}

/* ---- every row ---------------------------------------------------------------------------- */

static void all_compares(void)
{
    unsigned rows = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if (info->format != WA_FMT_VOPC)
            continue;
        cmp_desc d;
        if (!CHECK_MSG(parse_mn(info->mnemonic, &d), "unexpected VOPC mnemonic %s", info->mnemonic))
            continue;
        CHECK_MSG(wa_sim_unsupported(op) == NULL, "%s not executed", info->mnemonic);
        CHECK_EQ_INT(d.x, (info->implicit_defs & WA_IMPL_EXEC) != 0);
        rows++;
        char ra[16], rb[16], ops[256];
        regs(&d, ra, rb, sizeof(ra));
        for (unsigned round = 0; round < 4; round++) {
            vio io;
            memset(&io, 0, sizeof(io));
            make_inputs(&d, round % 3, &io);
            io.exec = g_execs[(round + op) % 4];
            /* the VOP3 form swaps the sources (class: same order, src1 is the mask) */
            if (d.is_class)
                snprintf(ops, sizeof(ops), "  %s vcc, %s, %s\n  %s_e64 s[20:21], %s, %s\n",
                         info->mnemonic, ra, rb, info->mnemonic, ra, rb);
            else
                snprintf(ops, sizeof(ops), "  %s vcc, %s, %s\n  %s_e64 s[20:21], %s, %s\n",
                         info->mnemonic, ra, rb, info->mnemonic, rb, ra);
            ut_context("%s round %u", info->mnemonic, round);
            if (!vrun_ok(ops, &io))
                break;
            uint64_t w1 = ref_mask(&d, io.a, io.b, io.exec);
            uint64_t exec2 = d.x ? w1 : io.exec;
            uint64_t w2 = d.is_class ? ref_mask(&d, io.a, io.b, exec2)
                                     : ref_mask(&d, io.b, io.a, exec2);
            CHECK_EQ_HEX(io.vcc, w1);
            CHECK_EQ_HEX(io.sd, w2);
            CHECK_EQ_HEX(io.exec_after, d.x ? w2 : io.exec);
        }
    }
    CHECK_EQ_UINT(rows, 198u);
    ut_context("%s", "");
}

/* The NaN and zero rules spelled out on a few lanes (f32): lg false and neq true on
   NaN, o/u, nge true on NaN, -0 equal to +0. */
static void nan_rules(void)
{
    vio io;
    memset(&io, 0, sizeof(io));
    io.a[0] = 0x7FC00000u; io.b[0] = 0x3F800000u; /* qNaN, 1 */
    io.a[1] = 0x3F800000u; io.b[1] = 0x7F800001u; /* 1, sNaN */
    io.a[2] = 0x80000000u; io.b[2] = 0x00000000u; /* -0, +0 */
    io.a[3] = 0x3F800000u; io.b[3] = 0x40000000u; /* 1, 2 */
    io.exec = 0xF;
    if (!vrun_ok("  v_cmp_lg_f32 vcc, v2, v4\n  v_cmp_neq_f32_e64 s[20:21], v2, v4\n", &io))
        return;
    CHECK_EQ_HEX(io.vcc, 0x8u);
    CHECK_EQ_HEX(io.sd, 0xBu);
    if (!vrun_ok("  v_cmp_o_f32 vcc, v2, v4\n  v_cmp_nge_f32_e64 s[20:21], v2, v4\n", &io))
        return;
    CHECK_EQ_HEX(io.vcc, 0xCu);
    CHECK_EQ_HEX(io.sd, 0xBu);
    if (!vrun_ok("  v_cmp_u_f32 vcc, v2, v4\n  v_cmp_eq_f32_e64 s[20:21], v2, v4\n", &io))
        return;
    CHECK_EQ_HEX(io.vcc, 0x3u);
    CHECK_EQ_HEX(io.sd, 0x4u);
}

/* Constants in src0 (inline and literal, every width), SGPR sources, exec as the
   destination of a v_cmp, and the clamp bit (no effect on the mask). */
static void constants_and_scalars(void)
{
    vio io;
    memset(&io, 0, sizeof(io));
    for (unsigned l = 0; l < NL; l++) {
        double d = (double)((int)l - 20) * 0.25;
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, sizeof(u));
        uint64_t u64;
        memcpy(&u64, &d, sizeof(u64));
        io.a[l] = u;
        io.b[l] = u64;
    }
    io.exec = ~0ull;
    static const struct {
        const char *ops;
        double k; /* a < k per lane, in the type of the compare */
        int f64;
    } fc[] = {
        { "  v_cmp_gt_f32 vcc, 0.5, v2\n", 0.5, 0 },
        { "  v_cmp_gt_f32 vcc, 0x40400000, v2\n", 3.0, 0 },      /* literal 3.0 */
        { "  v_cmp_gt_f32 vcc, 1.5, v2\n", 1.5, 0 },             /* literal */
        { "  v_cmp_gt_f64 vcc, 0.5, v[4:5]\n", 0.5, 1 },
        { "  v_cmp_gt_f64 vcc, 1.5, v[4:5]\n", 1.5, 1 },         /* literal: high half */
        { "  v_cmp_gt_f64 vcc, 0x40080000, v[4:5]\n", 3.0, 1 },  /* literal 3.0 */
        { "  v_cmp_gt_f64_e64 vcc, -4.0, v[4:5] clamp\n", -4.0, 1 },
    };
    for (unsigned i = 0; i < sizeof(fc) / sizeof(fc[0]); i++) {
        ut_context("%s", fc[i].ops);
        if (!vrun_ok(fc[i].ops, &io))
            continue;
        uint64_t w = 0;
        for (unsigned l = 0; l < NL; l++)
            if (((int)l - 20) * 0.25 < fc[i].k)
                w |= 1ull << l;
        CHECK_EQ_HEX(io.vcc, w);
    }
    /* integers: a = l - 20 (16, 32 and 64 bits) */
    for (unsigned l = 0; l < NL; l++) {
        io.a[l] = (uint64_t)(int64_t)((int)l - 20);
        io.b[l] = (uint64_t)(int64_t)((int)l - 20) * 0x100000001ull;
    }
    static const struct {
        const char *ops;
        int64_t k;
        int which; /* 0: a as i32, 1: a as i16, 2: b as i64, 3: a as u16 */
    } ic[] = {
        { "  v_cmp_gt_i32 vcc, -7, v2\n", -7, 0 },
        { "  v_cmp_gt_i32 vcc, 0x1f, v2\n", 31, 0 },
        { "  v_cmp_gt_i16 vcc, -16, v2\n", -16, 1 },
        { "  v_cmp_gt_i16 vcc, 0x7ff0, v2\n", 0x7FF0, 1 },       /* literal */
        { "  v_cmp_gt_u16 vcc, 0xfff0, v2\n", 0xFFF0, 3 },       /* literal */
        { "  v_cmp_gt_i64 vcc, 12, v[4:5]\n", 12, 2 },
        { "  v_cmp_gt_i64 vcc, 0x12345678, v[4:5]\n", 0x12345678, 2 },
        { "  s_mov_b64 s[10:11], 5\n  v_cmp_gt_i64_e64 vcc, s[10:11], v[4:5]\n", 5, 2 },
        { "  s_mov_b32 s10, -3\n  v_cmp_gt_i32 vcc, s10, v2\n", -3, 0 },
    };
    for (unsigned i = 0; i < sizeof(ic) / sizeof(ic[0]); i++) {
        ut_context("%s", ic[i].ops);
        if (!vrun_ok(ic[i].ops, &io))
            continue;
        uint64_t w = 0;
        for (unsigned l = 0; l < NL; l++) {
            int64_t v = (int64_t)l - 20;
            if (ic[i].which == 3)
                v = (int64_t)(uint16_t)v;
            else if (ic[i].which == 2)
                v = (int64_t)io.b[l];
            if (ic[i].k > v)
                w |= 1ull << l;
        }
        CHECK_EQ_HEX(io.vcc, w);
    }
    /* an inline float on a 16-bit integer compare is the f16 pattern (0.5: 0x3800) */
    for (unsigned l = 0; l < NL; l++)
        io.a[l] = 0x3800u - 32u + l;
    ut_context("%s", "v_cmp_eq_u16_e64 0.5");
    if (vrun_ok("  v_cmp_eq_u16_e64 vcc, 0.5, v2\n", &io))
        CHECK_EQ_HEX(io.vcc, 1ull << 32);
    /* exec as the destination of a v_cmp: EXEC is the mask */
    io.exec = 0x00FF00FF00FF00FFull;
    ut_context("%s", "v_cmp_gt_u32_e64 exec");
    if (vrun_ok("  v_cmp_gt_u32_e64 exec, v2, 40\n", &io)) {
        uint64_t w = 0;
        for (unsigned l = 0; l < NL; l++)
            if ((uint32_t)io.a[l] > 40u && (io.exec >> l & 1u))
                w |= 1ull << l;
        CHECK_EQ_HEX(io.exec_after, w);
    }
    /* a 64-bit integer literal with bit 31 set is refused */
    char diag[512];
    ut_context("%s", "bit 31 literal");
    CHECK_STATUS(vrun("  v_cmp_gt_i64 vcc, 0x80000000, v[4:5]\n", &io, diag, sizeof(diag)),
                 WA_E_UNSUPPORTED);
    CHECK_STR_CONTAINS(diag, "bit 31");
    ut_context("%s", "");
}

/* neg/abs and SDWA are applied by the operand helpers. Where the simulator refuses
   them the run stops with WA_E_UNSUPPORTED naming the modifier; where it runs, the
   mask must be the reference. */
static void modifiers(void)
{
    vio io;
    memset(&io, 0, sizeof(io));
    for (unsigned l = 0; l < NL; l++) {
        float fa = (float)((int)l - 32) * 0.5f, fb = (float)((int)(l * 7 % 64) - 32) * 0.25f;
        uint32_t ua, ub;
        memcpy(&ua, &fa, sizeof(ua));
        memcpy(&ub, &fb, sizeof(ub));
        io.a[l] = ua;
        io.b[l] = ub | (uint64_t)rnd() << 32;
    }
    io.exec = ~0ull;
    static const struct {
        const char *ops;
        const char *word; /* in the refusal */
        int neg_a, abs_b, sel_a_hi;
    } mc[] = {
        { "  v_cmp_lt_f32_e64 vcc, -v2, |v4|\n", "neg", 1, 1, 0 },
        { "  v_cmp_lt_f32_e64 vcc, v2, |v4|\n", "abs", 0, 1, 0 },
        { "  v_cmp_lt_f32_sdwa vcc, -v2, v4 src0_sel:DWORD src1_sel:DWORD\n", "does not model", 1, 0, 0 },
        { "  v_cmp_lt_i32_sdwa vcc, v2, v4 src0_sel:WORD_1 src1_sel:DWORD\n", "SDWA", 0, 0, 1 },
    };
    for (unsigned i = 0; i < sizeof(mc) / sizeof(mc[0]); i++) {
        ut_context("%s", mc[i].ops);
        char diag[512];
        wa_status st = vrun(mc[i].ops, &io, diag, sizeof(diag));
        if (st == WA_E_UNSUPPORTED) {
            CHECK_STR_CONTAINS(diag, mc[i].word);
            continue;
        }
        if (!CHECK_MSG(st == WA_OK, "status %d: %s", (int)st, diag))
            continue;
        uint64_t w = 0;
        for (unsigned l = 0; l < NL; l++) {
            if (mc[i].sel_a_hi) {
                int32_t x = (int32_t)(uint16_t)(io.a[l] >> 16); /* zero-extended */
                if (x < (int32_t)(uint32_t)io.b[l])
                    w |= 1ull << l;
                continue;
            }
            double x = to_double(io.a[l], 32), y = to_double(io.b[l], 32);
            if (mc[i].neg_a)
                x = -x;
            if (mc[i].abs_b)
                y = fabs(y);
            if (x < y)
                w |= 1ull << l;
        }
        CHECK_EQ_HEX(io.vcc, w);
    }
    ut_context("%s", "");
}

UT_SUITE(UT_CASE(all_compares) UT_CASE(nan_rules) UT_CASE(constants_and_scalars)
         UT_CASE(modifiers));
