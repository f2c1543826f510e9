/* tests/unit/test_sim_ops.c — the semantics of every non-MFMA opcode the simulator
   executes, run as small kernels and checked against expectations this file
   computes itself (bit-level references, never the simulator's own helpers):

     VALU     integer ops, shifts, f32 arithmetic (NaN, signed zero, denormals),
              compares (every predicate, both destinations), v_cndmask, conversions
              (f16/bf16 rounding, subnormals, overflow, NaN; integer clamping),
              mbcnt, lane ops, accumulation registers, EXEC masking, partial waves
              v_cmpx (mask and EXEC), LLVM's f32 division sequence against correctly
              rounded division and the three helpers case by case, f64 VALU, dot
              products, the gfx950 lane swaps, DPP (every control, masks, bound_ctrl)
     SALU     every opcode with its SCC, 64-bit ops, branches and loops, M0-relative
              moves, s_getreg/s_setreg on the MODE/STATUS model
     SMEM     kernarg loads, s_buffer_load range check
     MUBUF    offen / idxen / stride / add_tid, offsets, range checks, data format
              0, extension, stores, atomics, LDS-DMA
     global   saddr and 64-bit addresses, instruction offsets, every width
     DS       every read and write, read2/write2, extension, range
     machine  defined-bit tracking and wa_sim_compare, statistics, determinism,
              arguments and ABI inputs, and the error paths with their messages.

   Kernels keep the timing model on (the default) and carry the s_waitcnt they
   need; those where timing matters run with several seeds. The tests link only
   the public API (and no libm: float references are built from bits).

   Where the hardware reference marks a rule unconfirmed, the tests pin what the
   simulator documents: raw-buffer range checks per dword against num_records
   without soffset (with 4-aligned offsets, so checking a dword's start or its
   end agrees), 16-byte LDS-DMA lane slots for dwordx3, s_bfe_u32 widths of 32
   and more taking every bit above the offset. */
#include "check.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NL 64u

/* ---- small utilities ------------------------------------------------------------- */

/* A growing text buffer for kernel text. */

/* Deterministic test data (xorshift). */
static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}

static float f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static double f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static uint64_t bits64(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static int is_nan32(uint32_t b) { return (b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu); }
static int is_nan16(uint16_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu); }

/* 2^e as a double (normal range only). */
static double pow2(int e) { return f64((uint64_t)(e + 1023) << 52); }

/* Round a non-negative double below 2^52 to an integer: to nearest even (the
   default rounding mode) or toward zero. */
static double round_int(double x, int rtz)
{
    if (rtz) {
        uint64_t b = bits64(x);
        int e = (int)((b >> 52) & 0x7FF) - 1023;
        if (e < 0)
            return 0.0;
        if (e >= 52)
            return x;
        return f64(b & ~((1ull << (52 - e)) - 1u));
    }
    volatile double big = 4503599627370496.0; /* 2^52 */
    volatile double t = x + big;
    return t - big;
}

/* Floor of log2 of a positive finite double. */
static int ilog2(double x)
{
    return (int)((bits64(x) >> 52) & 0x7FF) - 1023;
}

/* A finite double -> a binary float format with `man` fraction bits, exponent
   bias `bias` and `ebits` exponent bits (IEEE style, with infinities), rounding
   to nearest even or toward zero. Returns the bit pattern. Reference only. */
static uint32_t ref_narrow(double v, int man, int bias, int ebits, int rtz)
{
    uint32_t sign = bits64(v) >> 63 ? 1u : 0u;
    double a = sign ? -v : v;
    uint32_t sbit = sign << (man + ebits);
    uint32_t inf = ((1u << ebits) - 1u) << man;
    if (a == 0.0)
        return sbit;
    int emin = 1 - bias;               /* exponent of the smallest normal */
    int e = ilog2(a);
    if (e < emin)
        e = emin;                      /* subnormal: fixed quantum */
    double quantum = pow2(e - man);
    double q = round_int(a / quantum, rtz); /* exact scaling by a power of two */
    double r = q * quantum;
    double maxfin = (pow2(man + 1) - 1.0) * pow2((1 << ebits) - 2 - bias - man);
    if (r > maxfin)
        return rtz ? sbit | (inf - 1u) : sbit | inf;
    if (r < pow2(emin))                /* subnormal (or rounded up to the smallest normal) */
        return sbit | (uint32_t)(r / pow2(emin - man));
    int re = ilog2(r);
    uint32_t frac = (uint32_t)(r / pow2(re - man) - pow2(man));
    return sbit | (uint32_t)(re + bias) << man | frac;
}

/* References for the conversions: NaN and infinity handled here, the rest by
   ref_narrow. NaN results are reported as the canonical quiet NaN with the input's
   sign; the checks accept any quiet NaN for them. */
static uint16_t ref_f32_to_f16(uint32_t x, int rtz)
{
    if (is_nan32(x))
        return (uint16_t)((x >> 16 & 0x8000u) | 0x7E00u);
    if ((x & 0x7FFFFFFFu) == 0x7F800000u)
        return (uint16_t)((x >> 16 & 0x8000u) | 0x7C00u);
    return (uint16_t)ref_narrow((double)f32(x), 10, 15, 5, rtz);
}

static uint16_t ref_f32_to_bf16(uint32_t x)
{
    if (is_nan32(x))
        return (uint16_t)((x >> 16 & 0x8000u) | 0x7FC0u);
    if ((x & 0x7FFFFFFFu) == 0x7F800000u)
        return (uint16_t)(x >> 16);
    return (uint16_t)ref_narrow((double)f32(x), 7, 127, 8, 0);
}

/* f16 -> f32 by value: (-1)^s * m * 2^(e-25), exact in double then in float. */
static uint32_t ref_f16_to_f32(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31;
    unsigned e = (h >> 10) & 31u, m = h & 0x3FFu;
    if (e == 31)
        return m ? (s | 0x7FC00000u) : (s | 0x7F800000u);
    double v = e ? (double)(1024u + m) * pow2((int)e - 25) : (double)m * pow2(-24);
    return s | bits((float)v);
}

/* ---- running kernels -------------------------------------------------------------- */

/* One kernel: its context, program and simulator. */
typedef struct kr {
    wa_context *ctx;
    wa_program *prog;
    wa_sim *sim;
} kr;

static wa_sim_options sim_opts(uint64_t seed)
{
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.seed = seed;
    return o;
}

/* Parses `text` and creates its simulator with `o` (NULL: the defaults). Returns 1
   on success; a failed check otherwise (with the diagnostics). */
static int kr_open(kr *k, const char *text, const wa_sim_options *o)
{
    memset(k, 0, sizeof(*k));
    k->ctx = ut_context_new(WA_TARGET_GFX942);
    k->prog = ut_parse(k->ctx, text);
    if (!k->prog)
        return 0;
    wa_status st = wa_sim_create(&k->sim, k->prog, o);
    return CHECK_MSG(st == WA_OK && k->sim, "wa_sim_create: %d:%s\n%s", (int)st,
                     ut_diags_text(k->ctx), text);
}

static void kr_close(kr *k)
{
    wa_sim_destroy(k->sim);
    wa_program_destroy(k->prog);
    if (k->ctx)
        wa_context_destroy(k->ctx);
    memset(k, 0, sizeof(*k));
}

static int kr_bind(kr *k, unsigned arg, void *data, size_t bytes)
{
    return CHECK_OK(wa_sim_bind_buffer(k->sim, arg, data, bytes));
}

/* Runs and expects `want`; on a mismatch the diagnostics are shown. */
static int kr_run_expect(kr *k, wa_status want)
{
    wa_status st = wa_sim_run(k->sim);
    return CHECK_MSG(st == want, "wa_sim_run: %d (%s), wanted %d:%s", (int)st, wa_status_string(st),
                     (int)want, ut_diags_text(k->ctx));
}

static int kr_run(kr *k) { return kr_run_expect(k, WA_OK); }

/* The usual header: one kernel with buffers `in` (argument 0) and `out`
   (argument 1), kernarg pointer in s[0:1], lane id in v0. */
static void head(ut_tb *t, const char *target, unsigned wgx, unsigned lds)
{
    ut_tb_printf(t,
              ".kernel t\n"
              "  .target %s\n"
              "  .workgroup_size %u, 1, 1\n"
              "  .lds_bytes %u\n"
              "  .abi kernarg_ptr, workitem_id_x\n"
              "  .arg in, global_buffer, offset:0, size:8, align:8\n"
              "  .arg out, global_buffer, offset:8, size:8, align:8\n",
              target, wgx, lds);
}

/* Runs a whole kernel text with `in` and `out` bound; returns 1 if it ran. */
static int run_io(const char *text, void *in, size_t in_bytes, void *out, size_t out_bytes,
                  uint64_t seed)
{
    kr k;
    wa_sim_options o = sim_opts(seed);
    int ok = kr_open(&k, text, &o) && kr_bind(&k, 0, in, in_bytes) && kr_bind(&k, 1, out, out_bytes) &&
             kr_run(&k);
    if (!ok)
        fprintf(stderr, "--- kernel ---\n%s", text);
    kr_close(&k);
    return ok;
}

/* ---- the lane harness ----------------------------------------------------------------

   Runs instruction lines `ops` in one wave with
     v2, v3, v4   per-lane inputs a, b, c
     v5, v6, v7   results (preloaded with `old`, so lanes an instruction leaves
                  alone are visible)
     s[12:15]     scalar inputs/results (preloaded with s[])
     vcc          0 before the ops
     EXEC         `exec` while the ops run (all lanes again afterwards)
   and reads back v5..v7, s12..s15 and vcc. */
typedef struct lanes {
    uint32_t a[NL], b[NL], c[NL];
    uint32_t old[3][NL];
    uint32_t s[4];
    uint64_t exec;
    uint32_t r[3][NL];
    uint32_t rs[4];
    uint64_t vcc;
} lanes;

static void lanes_init(lanes *io)
{
    memset(io, 0, sizeof(*io));
    for (unsigned l = 0; l < NL; l++)
        for (unsigned k = 0; k < 3; k++)
            io->old[k][l] = 0xDEAD0000u | k << 8 | l;
    for (unsigned k = 0; k < 4; k++)
        io->s[k] = 0x5EED0000u | k;
    io->exec = ~0ull;
}

static int lanes_run_t(const char *target, const char *ops, lanes *io, uint64_t seed)
{
    uint32_t in[392], out[200];
    memcpy(in, io->a, sizeof(io->a));
    memcpy(in + 64, io->b, sizeof(io->b));
    memcpy(in + 128, io->c, sizeof(io->c));
    memcpy(in + 192, io->old, sizeof(io->old));
    in[384] = (uint32_t)io->exec;
    in[385] = (uint32_t)(io->exec >> 32);
    memcpy(in + 386, io->s, sizeof(io->s));
    in[390] = in[391] = 0;
    memset(out, 0xA5, sizeof(out));
    ut_tb t = { 0 };
    head(&t, target, 64, 0);
    ut_tb_printf(&t,
              "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
              "  v_lshlrev_b32 v1, 2, v0\n"
              "  s_waitcnt lgkmcnt(0)\n"
              "  s_load_dwordx2 s[8:9], s[4:5], 1536\n"
              "  s_load_dwordx4 s[12:15], s[4:5], 1544\n"
              "  global_load_dword v2, v1, s[4:5]\n"
              "  global_load_dword v3, v1, s[4:5] offset:256\n"
              "  global_load_dword v4, v1, s[4:5] offset:512\n"
              "  global_load_dword v5, v1, s[4:5] offset:768\n"
              "  global_load_dword v6, v1, s[4:5] offset:1024\n"
              "  global_load_dword v7, v1, s[4:5] offset:1280\n"
              "  s_mov_b64 vcc, 0\n"
              "  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
              "  s_mov_b64 exec, s[8:9]\n"
              "%s"
              "  s_mov_b64 exec, -1\n"
              "  global_store_dword v1, v5, s[6:7]\n"
              "  global_store_dword v1, v6, s[6:7] offset:256\n"
              "  global_store_dword v1, v7, s[6:7] offset:512\n"
              "  v_mov_b32 v8, 0\n"
              "  v_mov_b32 v10, s12\n"
              "  v_mov_b32 v11, s13\n"
              "  v_mov_b32 v12, s14\n"
              "  v_mov_b32 v13, s15\n"
              "  v_mov_b32 v14, vcc_lo\n"
              "  v_mov_b32 v15, vcc_hi\n"
              "  global_store_dwordx4 v8, v[10:13], s[6:7] offset:768\n"
              "  global_store_dwordx2 v8, v[14:15], s[6:7] offset:784\n"
              "  s_endpgm\n"
              ".end_kernel\n",
              ops);
    int ok = run_io(t.s, in, sizeof(in), out, sizeof(out), seed);
    ut_tb_free(&t);
    if (!ok)
        return 0;
    memcpy(io->r, out, sizeof(io->r));
    memcpy(io->rs, out + 192, sizeof(io->rs));
    io->vcc = out[196] | (uint64_t)out[197] << 32;
    return 1;
}

static int lanes_run(const char *ops, lanes *io) { return lanes_run_t("gfx942", ops, io, 1); }

/* Checks result register k (v5 + k) against want[] in the active lanes and the old
   value elsewhere; reports at most a few lanes. Returns 1 if all match. */
static int check_lanes(const lanes *io, unsigned k, const uint32_t want[NL], const char *what)
{
    unsigned bad = 0;
    for (unsigned l = 0; l < NL; l++) {
        uint32_t w = io->exec >> l & 1u ? want[l] : io->old[k][l];
        if (io->r[k][l] != w && ++bad <= 4)
            CHECK_MSG(0, "%s: v%u lane %u: 0x%08x, want 0x%08x (inputs 0x%08x 0x%08x 0x%08x%s)", what,
                      5 + k, l, io->r[k][l], w, io->a[l], io->b[l], io->c[l],
                      io->exec >> l & 1u ? "" : ", inactive");
    }
    return CHECK_MSG(bad == 0, "%s: %u lanes differ", what, bad);
}

/* Masks used for partial EXEC. */
static const uint64_t g_masks[] = { ~0ull, 0xF0F0F0F0F0F0F0F0ull ^ 0x8000000000000001ull,
                                    0x00000000FFFFFFFEull, 0x8000000100000000ull };

/* Integer inputs. Rounds 0..3 pair every edge value with every other one (a from
   the lane, b from the round); round 4 and later are random, with small shift-like
   values in some lanes. */
static void int_inputs(lanes *io, unsigned round)
{
    static const uint32_t edge[16] = { 0, 1, 2, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 31, 32, 33, 63,
                                       64, 0xFFFFFFE0u, 0xFFFFFFE1u, 0x0000FFFFu, 0xFFFF0000u, 0x12345678u };
    for (unsigned l = 0; l < NL; l++) {
        if (round < 4) {
            io->a[l] = edge[l % 16];
            io->b[l] = edge[l / 16 + 4 * round];
            io->c[l] = edge[(l * 7 + round) % 16];
        } else {
            io->a[l] = rnd();
            io->b[l] = l % 4 == 0 ? rnd() % 80 : rnd();
            io->c[l] = l % 3 == 0 ? rnd() % 40 : rnd();
        }
    }
}

/* ---- VALU: integer operations ----------------------------------------------------------- */

typedef uint32_t (*ref3)(uint32_t a, uint32_t b, uint32_t c);

#define REF3(name, expr)                                      \
    static uint32_t name(uint32_t a, uint32_t b, uint32_t c) \
    {                                                         \
        (void)a;                                              \
        (void)b;                                              \
        (void)c;                                              \
        return (expr);                                        \
    }
REF3(r_mov, a)
REF3(r_not, ~a)
REF3(r_add, a + b)
REF3(r_sub, a - b)
REF3(r_subrev, b - a)
REF3(r_and, a & b)
REF3(r_or, a | b)
REF3(r_xor, a ^ b)
REF3(r_lshlrev, b << (a % 32u))
REF3(r_lshrrev, b >> (a % 32u))
REF3(r_ashrrev, (b >> (a % 32u)) | ((b >> 31) && (a % 32u) ? ~(0xFFFFFFFFu >> (a % 32u)) : 0u))
REF3(r_max_u32, a > b ? a : b)
REF3(r_min_u32, a < b ? a : b)
REF3(r_mul_lo, (uint32_t)((uint64_t)a * b))
REF3(r_mul_hi, (uint32_t)(((uint64_t)a * b) >> 32))
REF3(r_lshl_add, (a << (b % 32u)) + c)
REF3(r_lshl_or, (a << (b % 32u)) | c)
REF3(r_add_lshl, (a + b) << (c % 32u))
REF3(r_or3, a | b | c)
REF3(r_add3, a + b + c)
REF3(r_bfi, (a & b) | (~a & c))

/* v_bfe_u32: offset and width are 5-bit fields (S1[4:0], S2[4:0]). */
static uint32_t r_bfe(uint32_t a, uint32_t b, uint32_t c)
{
    unsigned off = b % 32u, w = c % 32u;
    uint64_t field = (uint64_t)a >> off;
    return (uint32_t)(field & ((1ull << w) - 1u));
}

/* v_perm_b32: each selector byte of S2 picks a byte of the 64-bit {S0, S1} (S1 the
   low half): 0-7 a byte, 8-11 the sign of bytes 1, 3, 5, 7 spread over 8 bits,
   12 zero, 13 and above 0xFF. */
static uint32_t r_perm(uint32_t s0, uint32_t s1, uint32_t sel)
{
    uint8_t src[8];
    for (unsigned i = 0; i < 4; i++) {
        src[i] = (uint8_t)(s1 >> (8 * i));
        src[4 + i] = (uint8_t)(s0 >> (8 * i));
    }
    uint32_t r = 0;
    for (unsigned k = 0; k < 4; k++) {
        unsigned s = (sel >> (8 * k)) & 0xFFu;
        uint8_t v;
        if (s <= 7)
            v = src[s];
        else if (s <= 11)
            v = (src[2 * (s - 8) + 1] & 0x80u) ? 0xFF : 0x00;
        else if (s == 12)
            v = 0;
        else
            v = 0xFF;
        r |= (uint32_t)v << (8 * k);
    }
    return r;
}

static const struct {
    const char *mn;
    unsigned nsrc;
    ref3 f;
} g_int_ops[] = {
    { "v_mov_b32", 1, r_mov },           { "v_not_b32", 1, r_not },
    { "v_add_u32", 2, r_add },           { "v_sub_u32", 2, r_sub },
    { "v_subrev_u32", 2, r_subrev },     { "v_and_b32", 2, r_and },
    { "v_or_b32", 2, r_or },             { "v_xor_b32", 2, r_xor },
    { "v_lshlrev_b32", 2, r_lshlrev },   { "v_lshrrev_b32", 2, r_lshrrev },
    { "v_ashrrev_i32", 2, r_ashrrev },   { "v_max_u32", 2, r_max_u32 },
    { "v_min_u32", 2, r_min_u32 },       { "v_mul_lo_u32", 2, r_mul_lo },
    { "v_mul_hi_u32", 2, r_mul_hi },     { "v_lshl_add_u32", 3, r_lshl_add },
    { "v_lshl_or_b32", 3, r_lshl_or },   { "v_add_lshl_u32", 3, r_add_lshl },
    { "v_or3_b32", 3, r_or3 },           { "v_add3_u32", 3, r_add3 },
    { "v_bfe_u32", 3, r_bfe },           { "v_bfi_b32", 3, r_bfi },
    { "v_perm_b32", 3, r_perm },
};

/* Every integer VALU opcode on every pair of edge values and on random values,
   under full and partial EXEC (inactive lanes keep their old values). */
static void valu_integer_ops(void)
{
    for (unsigned i = 0; i < sizeof(g_int_ops) / sizeof(g_int_ops[0]); i++) {
        for (unsigned round = 0; round < 6; round++) {
            lanes io;
            lanes_init(&io);
            int_inputs(&io, round);
            if (g_int_ops[i].f == r_perm && round >= 4)
                for (unsigned l = 0; l < NL; l += 2) /* selector bytes 0..15 */
                    io.c[l] &= 0x0F0F0F0Fu;
            io.exec = g_masks[round % 4];
            char ops[128];
            const char *srcs = g_int_ops[i].nsrc == 1 ? "v2" : g_int_ops[i].nsrc == 2 ? "v2, v3" : "v2, v3, v4";
            snprintf(ops, sizeof(ops), "  %s v5, %s\n", g_int_ops[i].mn, srcs);
            ut_context("%s, round %u", g_int_ops[i].mn, round);
            if (!lanes_run(ops, &io))
                continue;
            uint32_t want[NL];
            for (unsigned l = 0; l < NL; l++)
                want[l] = g_int_ops[i].f(io.a[l], io.b[l], io.c[l]);
            check_lanes(&io, 0, want, g_int_ops[i].mn);
        }
    }
    ut_context("%s", "");
}

/* Hand-computed cases: shift amounts use 5 bits, v_perm selectors, bfe widths. */
static void valu_integer_fixed_cases(void)
{
    lanes io;
    lanes_init(&io);
    io.a[0] = 33;          io.b[0] = 0x00000003u; /* shift by 33 = by 1 */
    io.a[1] = 0xFFFFFFFFu; io.b[1] = 0x80000000u; /* shift by 31 */
    io.a[2] = 32;          io.b[2] = 0x80000001u; /* shift by 0 */
    io.a[3] = 4;           io.b[3] = 0xF0000000u;
    io.c[0] = 0x0C0D0708u; io.c[1] = 0x03020100u; io.c[2] = 0x0B0A0908u; io.c[3] = 0x07060504u;
    if (!lanes_run("  v_lshlrev_b32 v5, v2, v3\n"
                   "  v_ashrrev_i32 v6, v2, v3\n"
                   "  v_perm_b32 v7, v2, v3, v4\n",
                   &io))
        return;
    CHECK_EQ_HEX(io.r[0][0], 0x00000006u);
    CHECK_EQ_HEX(io.r[0][1], 0x00000000u);
    CHECK_EQ_HEX(io.r[0][2], 0x80000001u);
    CHECK_EQ_HEX(io.r[0][3], 0x00000000u);
    CHECK_EQ_HEX(io.r[1][0], 0x00000001u);
    CHECK_EQ_HEX(io.r[1][1], 0xFFFFFFFFu);
    CHECK_EQ_HEX(io.r[1][2], 0x80000001u);
    CHECK_EQ_HEX(io.r[1][3], 0xFF000000u);
    /* lane 0: {S0=33, S1=3}: sel 8 (sign of S1 byte 1) = 0, 7 = S0 byte 3 = 0, 13 = 0xFF, 12 = 0 */
    CHECK_EQ_HEX(io.r[2][0], 0x00FF0000u);
    /* lane 1: bytes of S1 in order */
    CHECK_EQ_HEX(io.r[2][1], 0x80000000u);
    /* lane 2: signs of bytes 1, 3 (S1 = 0x80000001: 0, 0xFF), 5, 7 (S0 = 32: 0, 0) */
    CHECK_EQ_HEX(io.r[2][2], 0x0000FF00u);
    /* lane 3: bytes of S0 = 4 */
    CHECK_EQ_HEX(io.r[2][3], 0x00000004u);

    lanes_init(&io);
    io.a[0] = 0xABCD1234u; io.b[0] = 8;  io.c[0] = 8;   /* 0x12 */
    io.a[1] = 0xABCD1234u; io.b[1] = 28; io.c[1] = 8;   /* past bit 31: 0xA */
    io.a[2] = 0xABCD1234u; io.b[2] = 0;  io.c[2] = 32;  /* width 32 = 0 */
    io.a[3] = 0xABCD1234u; io.b[3] = 36; io.c[3] = 36;  /* offset 4, width 4 */
    if (!lanes_run("  v_bfe_u32 v5, v2, v3, v4\n"
                   "  v_mul_hi_u32 v6, v2, v2\n"
                   "  v_mul_lo_u32 v7, v2, v2\n",
                   &io))
        return;
    CHECK_EQ_HEX(io.r[0][0], 0x12u);
    CHECK_EQ_HEX(io.r[0][1], 0xAu);
    CHECK_EQ_HEX(io.r[0][2], 0u);
    CHECK_EQ_HEX(io.r[0][3], 0x3u);
    /* 0xABCD1234^2 = 0x734B9A97_A0935A90 */
    CHECK_EQ_HEX(io.r[1][0], 0x734B9A97u);
    CHECK_EQ_HEX(io.r[2][0], 0xA0935A90u);
}

/* Sources: SGPR broadcast, inline constants, literals, float constants, exec and
   vcc halves as sources. */
static void valu_operand_sources(void)
{
    lanes io;
    lanes_init(&io);
    int_inputs(&io, 5);
    io.s[0] = 0x01020304u;
    io.exec = g_masks[1];
    if (!lanes_run("  v_add_u32 v5, s12, v3\n"
                   "  v_sub_u32 v6, 0x12345678, v3\n"
                   "  v_xor_b32 v7, -1, v3\n",
                   &io))
        return;
    uint32_t w0[NL], w1[NL], w2[NL];
    for (unsigned l = 0; l < NL; l++) {
        w0[l] = 0x01020304u + io.b[l];
        w1[l] = 0x12345678u - io.b[l];
        w2[l] = ~io.b[l];
    }
    check_lanes(&io, 0, w0, "v_add_u32 with an SGPR");
    check_lanes(&io, 1, w1, "v_sub_u32 with a literal");
    check_lanes(&io, 2, w2, "v_xor_b32 with -1");

    lanes_init(&io);
    for (unsigned l = 0; l < NL; l++)
        io.a[l] = bits((float)l - 20.25f);
    if (!lanes_run("  v_add_f32 v5, 1.0, v2\n"
                   "  v_mul_f32 v6, -4.0, v2\n"
                   "  v_fma_f32 v7, v2, 0.5, -2.0\n",
                   &io))
        return;
    for (unsigned l = 0; l < NL; l++) {
        float x = (float)l - 20.25f;
        w0[l] = bits(x + 1.0f);
        w1[l] = bits(x * -4.0f);
        w2[l] = bits(x * 0.5f - 2.0f); /* exact: no rounding in either step */
    }
    check_lanes(&io, 0, w0, "v_add_f32 1.0");
    check_lanes(&io, 1, w1, "v_mul_f32 -4.0");
    check_lanes(&io, 2, w2, "v_fma_f32 0.5, -2.0");

    lanes_init(&io);
    int_inputs(&io, 4);
    io.exec = 0x00000000FFFF0000ull | 0x0000FF0000000000ull;
    if (!lanes_run("  v_mov_b32 v5, exec_lo\n"
                   "  v_mov_b32 v6, exec_hi\n"
                   "  v_add3_u32 v7, v2, 7, -3\n",
                   &io))
        return;
    for (unsigned l = 0; l < NL; l++) {
        w0[l] = (uint32_t)io.exec;
        w1[l] = (uint32_t)(io.exec >> 32);
        w2[l] = io.a[l] + 4u;
    }
    check_lanes(&io, 0, w0, "v_mov_b32 exec_lo");
    check_lanes(&io, 1, w1, "v_mov_b32 exec_hi");
    check_lanes(&io, 2, w2, "v_add3_u32 with constants");
}

/* ---- VALU: f32 arithmetic ----------------------------------------------------------------- */

/* Special f32 values: zeros, ones, denormals, the normal limits, infinities, quiet
   and signaling NaNs, and values whose sums and products round. */
static const uint32_t g_fspecial[16] = {
    0x00000000u, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x00000001u, 0x807FFFFFu, 0x00800000u, 0x7F7FFFFFu,
    0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0x3FC00000u, 0x33800001u, 0xFFC01234u, 0x4B800001u,
};

/* A random finite float with a moderate exponent (and now and then a denormal). */
static uint32_t rnd_float(void)
{
    uint32_t r = rnd();
    if (r % 16 == 0)
        return (r & 0x80000000u) | (rnd() & 0x7FFFFFu); /* denormal */
    return (r & 0x80000000u) | (100u + rnd() % 56u) << 23 | (rnd() & 0x7FFFFFu);
}

static void float_inputs(lanes *io, unsigned round)
{
    for (unsigned l = 0; l < NL; l++) {
        if (round < 4) {
            io->a[l] = g_fspecial[l % 16];
            io->b[l] = g_fspecial[l / 16 + 4 * round];
            io->c[l] = g_fspecial[(l * 5 + round) % 16];
        } else {
            io->a[l] = rnd_float();
            io->b[l] = l % 4 == 1 ? io->a[l] ^ 0x80000000u ^ (rnd() & 3u) : rnd_float(); /* cancellation */
            io->c[l] = l % 8 == 2 ? io->a[l] ^ 0x80000000u : rnd_float();
        }
    }
}

/* Like check_lanes, but a NaN expectation accepts any quiet NaN (hardware NaN
   payloads are not modelled bit for bit). */
static int check_lanes_f(const lanes *io, unsigned k, const uint32_t want[NL], const char *what)
{
    unsigned bad = 0;
    for (unsigned l = 0; l < NL; l++) {
        int act = (int)(io->exec >> l & 1u);
        uint32_t w = act ? want[l] : io->old[k][l], g = io->r[k][l];
        int ok = act && is_nan32(w) ? is_nan32(g) && (g & 0x00400000u) : g == w;
        if (!ok && ++bad <= 4)
            CHECK_MSG(0, "%s: v%u lane %u: 0x%08x, want 0x%08x (inputs 0x%08x 0x%08x 0x%08x)", what, 5 + k,
                      l, g, w, io->a[l], io->b[l], io->c[l]);
    }
    return CHECK_MSG(bad == 0, "%s: %u lanes differ", what, bad);
}

static uint32_t next_up(uint32_t f) /* the next float toward +inf (finite f) */
{
    if (f == 0x80000000u)
        return 1u;
    return f >> 31 ? f - 1u : f + 1u;
}

/* fma(a, b, c) rounded once. The product is exact in double; the sum is exact as
   s + err (two-sum), and only a double sum that sits on a float midpoint needs the
   error's sign to round correctly. */
static uint32_t ref_fma(uint32_t a, uint32_t b, uint32_t c)
{
    if (is_nan32(a) || is_nan32(b) || is_nan32(c))
        return 0x7FC00000u;
    double p = (double)f32(a) * (double)f32(b), z = (double)f32(c);
    volatile double s = p + z;
    if (s != s)
        return 0x7FC00000u;
    volatile double bb = s - p;
    double err = (p - (s - bb)) + (z - bb);
    float r = (float)s;
    if ((double)r == s || err == 0.0 || s - s != 0.0)
        return bits(r);
    uint32_t lo = bits(r), hi;
    if ((double)r > s) { /* r is above s: the other neighbour is below */
        hi = lo;
        lo = bits(r) >> 31 ? bits(r) + 1u : (bits(r) == 0 ? 0x80000001u : bits(r) - 1u);
    } else {
        hi = next_up(lo);
    }
    double mid = ((double)f32(lo) + (double)f32(hi)) / 2.0;
    if (s != mid)
        return bits(r);
    return err > 0 ? hi : lo;
}

/* v_min_f32 / v_max_f32 in IEEE mode: a signaling NaN gives that NaN quieted, a
   quiet NaN the other operand, and -0 orders below +0. */
static uint32_t ref_minmax(uint32_t a, uint32_t b, int max)
{
    int sa = is_nan32(a) && !(a & 0x00400000u), sb = is_nan32(b) && !(b & 0x00400000u);
    if (sa)
        return a | 0x00400000u;
    if (sb)
        return b | 0x00400000u;
    if (is_nan32(a))
        return b;
    if (is_nan32(b))
        return a;
    if (((a | b) & 0x7FFFFFFFu) == 0) /* two zeros */
        return max ? (a & b) : (a | b);
    float x = f32(a), y = f32(b);
    if (max)
        return x >= y ? a : b;
    return x < y ? a : b;
}

static uint32_t r_addf(uint32_t a, uint32_t b, uint32_t c) { (void)c; volatile float r = f32(a) + f32(b); return bits(r); }
static uint32_t r_subf(uint32_t a, uint32_t b, uint32_t c) { (void)c; volatile float r = f32(a) - f32(b); return bits(r); }
static uint32_t r_mulf(uint32_t a, uint32_t b, uint32_t c) { (void)c; volatile float r = f32(a) * f32(b); return bits(r); }
static uint32_t r_fma(uint32_t a, uint32_t b, uint32_t c) { return ref_fma(a, b, c); }
static uint32_t r_maxf(uint32_t a, uint32_t b, uint32_t c) { (void)c; return ref_minmax(a, b, 1); }
static uint32_t r_minf(uint32_t a, uint32_t b, uint32_t c) { (void)c; return ref_minmax(a, b, 0); }

/* add/sub/mul/fma/min/max on every pair of special values and on random values. */
static void valu_float_arith(void)
{
    static const struct {
        const char *ops;
        ref3 f;
        int exact_nan; /* min/max: the NaN result is specified bit for bit */
    } t[] = {
        { "  v_add_f32 v5, v2, v3\n", r_addf, 0 }, { "  v_sub_f32 v5, v2, v3\n", r_subf, 0 },
        { "  v_mul_f32 v5, v2, v3\n", r_mulf, 0 }, { "  v_fma_f32 v5, v2, v3, v4\n", r_fma, 0 },
        { "  v_max_f32 v5, v2, v3\n", r_maxf, 1 }, { "  v_min_f32 v5, v2, v3\n", r_minf, 1 },
    };
    for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        for (unsigned round = 0; round < 7; round++) {
            lanes io;
            lanes_init(&io);
            float_inputs(&io, round);
            io.exec = g_masks[round % 4];
            ut_context("%s round %u", t[i].ops + 2, round);
            if (!lanes_run(t[i].ops, &io))
                continue;
            uint32_t want[NL];
            for (unsigned l = 0; l < NL; l++)
                want[l] = t[i].f(io.a[l], io.b[l], io.c[l]);
            if (t[i].exact_nan)
                check_lanes(&io, 0, want, t[i].ops + 2);
            else
                check_lanes_f(&io, 0, want, t[i].ops + 2);
        }
    ut_context("%s", "");
}

/* Cases worked out by hand: fma rounds once, denormals are kept (no flush),
   signed zeros, min/max of zeros in both orders. */
static void valu_float_fixed_cases(void)
{
    lanes io;
    lanes_init(&io);
    /* (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; unfused it would be 2^-11 */
    io.a[0] = 0x3F800800u; io.b[0] = 0x3F800800u; io.c[0] = 0xBF800000u;
    /* denormal inputs and results: 2^-149 * 2 + 2^-149 = 3 * 2^-149 */
    io.a[1] = 0x00000001u; io.b[1] = 0x40000000u; io.c[1] = 0x00000001u;
    /* -0 * 1 + -0 = -0; +0 + -0 = +0 */
    io.a[2] = 0x80000000u; io.b[2] = 0x3F800000u; io.c[2] = 0x80000000u;
    io.a[3] = 0x00000000u; io.b[3] = 0x80000000u; io.c[3] = 0x80000000u;
    /* the largest denormal plus the smallest denormal is the smallest normal */
    io.a[4] = 0x007FFFFFu; io.b[4] = 0x00000001u; io.c[4] = 0;
    if (!lanes_run("  v_fma_f32 v5, v2, v3, v4\n"
                   "  v_add_f32 v6, v2, v3\n"
                   "  v_max_f32 v7, v2, v3\n",
                   &io))
        return;
    CHECK_EQ_HEX(io.r[0][0], 0x3A000400u); /* 2^-11 * (1 + 2^-13) */
    CHECK_EQ_HEX(io.r[0][1], 0x00000003u);
    CHECK_EQ_HEX(io.r[0][2], 0x80000000u);
    CHECK_EQ_HEX(io.r[1][3], 0x00000000u);
    CHECK_EQ_HEX(io.r[1][4], 0x00800000u);
    CHECK_EQ_HEX(io.r[1][1], 0x40000000u); /* 2 + 2^-149 rounds to 2 */
    CHECK_EQ_HEX(io.r[2][2], 0x3F800000u);
    CHECK_EQ_HEX(io.r[2][3], 0x00000000u); /* max(+0, -0) = +0 */

    lanes_init(&io);
    io.a[0] = 0x80000000u; io.b[0] = 0x00000000u;
    io.a[1] = 0x00000000u; io.b[1] = 0x80000000u;
    io.a[2] = 0x7FC00000u; io.b[2] = 0xC0000000u; /* qNaN: the other operand */
    io.a[3] = 0x7F800001u; io.b[3] = 0x3F800000u; /* sNaN: quieted */
    io.a[4] = 0x00000001u; io.b[4] = 0x80000001u;
    if (!lanes_run("  v_max_f32 v5, v2, v3\n"
                   "  v_min_f32 v6, v2, v3\n"
                   "  v_min_f32 v7, v3, v2\n",
                   &io))
        return;
    CHECK_EQ_HEX(io.r[0][0], 0x00000000u);
    CHECK_EQ_HEX(io.r[0][1], 0x00000000u);
    CHECK_EQ_HEX(io.r[1][0], 0x80000000u);
    CHECK_EQ_HEX(io.r[1][1], 0x80000000u);
    CHECK_EQ_HEX(io.r[2][0], 0x80000000u);
    CHECK_EQ_HEX(io.r[0][2], 0xC0000000u);
    CHECK_EQ_HEX(io.r[1][2], 0xC0000000u);
    CHECK_EQ_HEX(io.r[0][3], 0x7FC00001u);
    CHECK_EQ_HEX(io.r[1][3], 0x7FC00001u);
    CHECK_EQ_HEX(io.r[0][4], 0x00000001u);
    CHECK_EQ_HEX(io.r[1][4], 0x80000001u);
}

/* exp2/log2 references for the tolerance checks, from series in double. */
static double ref_exp2(double x)
{
    int n = (int)(x < 0 ? x - 1.0 : x); /* floor for the range used */
    if ((double)n > x)
        n--;
    double f = (x - n) * 0.69314718055994530942, term = 1.0, sum = 1.0;
    for (int k = 1; k < 30; k++) {
        term *= f / k;
        sum += term;
    }
    return sum * pow2(n);
}

static double ref_log2(double x) /* x > 0, normal */
{
    int e = ilog2(x);
    double m = x / pow2(e); /* 1 <= m < 2 */
    double y = (m - 1.0) / (m + 1.0), y2 = y * y, term = y, sum = 0.0;
    for (int k = 1; k < 80; k += 2) {
        sum += term / k;
        term *= y2;
    }
    return e + 2.0 * sum / 0.69314718055994530942;
}

static int close_rel(uint32_t got, double want, double rel)
{
    double g = (double)f32(got), d = g - want;
    if (d < 0)
        d = -d;
    return d <= rel * (want < 0 ? -want : want);
}

/* v_rcp/v_exp/v_log/v_sqrt: exact where the result is representable (and for the
   special inputs), within a few ulp elsewhere. */
static void valu_transcendental(void)
{
    lanes io;
    lanes_init(&io);
    static const uint32_t x[] = { 0x40000000u, 0x3E800000u, 0x00000000u, 0x80000000u, 0x7F800000u,
                                  0xFF800000u, 0x7FC00000u, 0x40800000u, 0x41100000u, 0xBF800000u,
                                  0x3F800000u, 0x40400000u };
    unsigned nx = sizeof(x) / sizeof(x[0]);
    for (unsigned l = 0; l < NL; l++)
        io.a[l] = l < nx ? x[l] : bits(0.5f + (float)(rnd() % 100000) / 997.0f);
    io.exec = ~2ull; /* lane 1 inactive */
    if (!lanes_run("  v_rcp_f32 v5, v2\n"
                   "  v_sqrt_f32 v6, v2\n"
                   "  v_log_f32 v7, v2\n",
                   &io))
        return;
    /* rcp: 2 -> 0.5, +0 -> +inf, -0 -> -inf, inf -> 0, -inf -> -0, 4 -> 0.25 */
    CHECK_EQ_HEX(io.r[0][0], 0x3F000000u);
    CHECK_EQ_HEX(io.r[0][1], io.old[0][1]);
    CHECK_EQ_HEX(io.r[0][2], 0x7F800000u);
    CHECK_EQ_HEX(io.r[0][3], 0xFF800000u);
    CHECK_EQ_HEX(io.r[0][4], 0x00000000u);
    CHECK_EQ_HEX(io.r[0][5], 0x80000000u);
    CHECK(is_nan32(io.r[0][6]));
    CHECK_EQ_HEX(io.r[0][7], 0x3E800000u);
    /* sqrt: 2 -> sqrt 2, 0 -> 0, -0 -> -0, inf -> inf, -inf -> NaN, 4 -> 2, 9 -> 3, -1 -> NaN */
    CHECK(close_rel(io.r[1][0], 1.41421356237309505, 3e-7));
    CHECK_EQ_HEX(io.r[1][2], 0x00000000u);
    CHECK_EQ_HEX(io.r[1][3], 0x80000000u);
    CHECK_EQ_HEX(io.r[1][4], 0x7F800000u);
    CHECK(is_nan32(io.r[1][5]));
    CHECK_EQ_HEX(io.r[1][7], 0x40000000u);
    CHECK_EQ_HEX(io.r[1][8], 0x40400000u);
    CHECK(is_nan32(io.r[1][9]));
    /* log2: 2 -> 1, 0.25 -> -2, +-0 -> -inf, inf -> inf, -inf and -1 -> NaN, 1 -> 0 */
    CHECK_EQ_HEX(io.r[2][0], 0x3F800000u);
    CHECK_EQ_HEX(io.r[2][2], 0xFF800000u);
    CHECK_EQ_HEX(io.r[2][3], 0xFF800000u);
    CHECK_EQ_HEX(io.r[2][4], 0x7F800000u);
    CHECK(is_nan32(io.r[2][5]));
    CHECK(is_nan32(io.r[2][9]));
    CHECK_EQ_HEX(io.r[2][10], 0x00000000u);
    CHECK_EQ_HEX(io.r[2][7], 0x40000000u);
    for (unsigned l = nx; l < NL; l++) {
        double v = (double)f32(io.a[l]);
        CHECK_MSG(close_rel(io.r[0][l], 1.0 / v, 3e-7), "rcp lane %u", l);
        double sq = (double)f32(io.r[1][l]) * (double)f32(io.r[1][l]);
        CHECK_MSG(sq > v * (1 - 6e-7) && sq < v * (1 + 6e-7), "sqrt lane %u: %.9g", l, (double)f32(io.r[1][l]));
        double lg = ref_log2(v);
        double tol = 4e-7 * (lg < 0 ? -lg : lg) + 1e-7;
        double d = (double)f32(io.r[2][l]) - lg;
        CHECK_MSG(d <= tol && d >= -tol, "log lane %u: %.9g vs %.9g", l, (double)f32(io.r[2][l]), lg);
    }

    lanes_init(&io);
    static const uint32_t e[] = { 0x40400000u, 0xC0000000u, 0x00000000u, 0x80000000u, 0x7F800000u,
                                  0xFF800000u, 0x3F000000u, 0xC1200000u, 0x43000000u };
    for (unsigned l = 0; l < NL; l++)
        io.a[l] = l < 9 ? e[l] : bits((float)((int)(rnd() % 4000) - 2000) / 97.0f);
    if (!lanes_run("  v_exp_f32 v5, v2\n", &io))
        return;
    CHECK_EQ_HEX(io.r[0][0], 0x41000000u); /* 2^3 */
    CHECK_EQ_HEX(io.r[0][1], 0x3E800000u); /* 2^-2 */
    CHECK_EQ_HEX(io.r[0][2], 0x3F800000u);
    CHECK_EQ_HEX(io.r[0][3], 0x3F800000u);
    CHECK_EQ_HEX(io.r[0][4], 0x7F800000u);
    CHECK_EQ_HEX(io.r[0][5], 0x00000000u);
    CHECK(close_rel(io.r[0][6], 1.41421356237309505, 3e-7));
    CHECK_EQ_HEX(io.r[0][7], 0x3A800000u); /* 2^-10 */
    CHECK_EQ_HEX(io.r[0][8], 0x7F800000u); /* 2^128 overflows */
    for (unsigned l = 9; l < NL; l++)
        CHECK_MSG(close_rel(io.r[0][l], ref_exp2((double)f32(io.a[l])), 1e-6), "exp lane %u", l);
}

/* ---- VALU: compares and v_cndmask ------------------------------------------------------------ */

typedef int (*cmp_ref)(uint32_t a, uint32_t b);
#define CMPREF(name, expr) \
    static int name(uint32_t a, uint32_t b) { return (expr); }
#define SI(x) ((int32_t)(x))
CMPREF(c_lt_i, SI(a) < SI(b))
CMPREF(c_eq_i, a == b)
CMPREF(c_le_i, SI(a) <= SI(b))
CMPREF(c_gt_i, SI(a) > SI(b))
CMPREF(c_ne_i, a != b)
CMPREF(c_ge_i, SI(a) >= SI(b))
CMPREF(c_lt_u, a < b)
CMPREF(c_le_u, a <= b)
CMPREF(c_gt_u, a > b)
CMPREF(c_ge_u, a >= b)
/* floats: ordered predicates are false on NaN; lg is ordered, neq is not */
CMPREF(c_lt_f, f32(a) < f32(b))
CMPREF(c_eq_f, f32(a) == f32(b))
CMPREF(c_le_f, f32(a) <= f32(b))
CMPREF(c_gt_f, f32(a) > f32(b))
CMPREF(c_lg_f, !is_nan32(a) && !is_nan32(b) && f32(a) != f32(b))
CMPREF(c_ge_f, f32(a) >= f32(b))
CMPREF(c_neq_f, is_nan32(a) || is_nan32(b) || f32(a) != f32(b))
#undef SI

static const struct {
    const char *mn;
    cmp_ref f;
    int fp;
} g_cmps[] = {
    { "v_cmp_lt_i32", c_lt_i, 0 }, { "v_cmp_eq_i32", c_eq_i, 0 }, { "v_cmp_le_i32", c_le_i, 0 },
    { "v_cmp_gt_i32", c_gt_i, 0 }, { "v_cmp_ne_i32", c_ne_i, 0 }, { "v_cmp_ge_i32", c_ge_i, 0 },
    { "v_cmp_lt_u32", c_lt_u, 0 }, { "v_cmp_eq_u32", c_eq_i, 0 }, { "v_cmp_le_u32", c_le_u, 0 },
    { "v_cmp_gt_u32", c_gt_u, 0 }, { "v_cmp_ne_u32", c_ne_i, 0 }, { "v_cmp_ge_u32", c_ge_u, 0 },
    { "v_cmp_lt_f32", c_lt_f, 1 }, { "v_cmp_eq_f32", c_eq_f, 1 }, { "v_cmp_le_f32", c_le_f, 1 },
    { "v_cmp_gt_f32", c_gt_f, 1 }, { "v_cmp_lg_f32", c_lg_f, 1 }, { "v_cmp_ge_f32", c_ge_f, 1 },
    { "v_cmp_neq_f32", c_neq_f, 1 },
};

/* Every compare, VCC form and SGPR-pair form (operands swapped), under partial
   EXEC: inactive lanes write 0 into a mask that held ones. */
static void valu_compares(void)
{
    for (unsigned i = 0; i < sizeof(g_cmps) / sizeof(g_cmps[0]); i++)
        for (unsigned round = 0; round < 6; round++) {
            lanes io;
            lanes_init(&io);
            if (g_cmps[i].fp)
                float_inputs(&io, round);
            else
                int_inputs(&io, round);
            if (round == 5)
                for (unsigned l = 0; l < NL; l += 3)
                    io.b[l] = io.a[l]; /* equal pairs */
            io.exec = g_masks[(round + i) % 4];
            io.s[0] = io.s[1] = 0xFFFFFFFFu;
            char ops[160];
            snprintf(ops, sizeof(ops), "  s_mov_b64 vcc, -1\n  %s vcc, v2, v3\n  %s s[12:13], v3, v2\n",
                     g_cmps[i].mn, g_cmps[i].mn);
            ut_context("%s round %u", g_cmps[i].mn, round);
            if (!lanes_run(ops, &io))
                continue;
            uint64_t w = 0, ws = 0;
            for (unsigned l = 0; l < NL; l++) {
                if (!(io.exec >> l & 1u))
                    continue;
                w |= (uint64_t)(g_cmps[i].f(io.a[l], io.b[l]) != 0) << l;
                ws |= (uint64_t)(g_cmps[i].f(io.b[l], io.a[l]) != 0) << l;
            }
            CHECK_EQ_HEX(io.vcc, w);
            CHECK_EQ_HEX(io.rs[0] | (uint64_t)io.rs[1] << 32, ws);
        }
    ut_context("%s", "");
}

/* The NaN rules spelled out: lg is false on NaN, neq is true; -0 equals +0. */
static void valu_compare_nan_cases(void)
{
    lanes io;
    lanes_init(&io);
    io.a[0] = 0x7FC00000u; io.b[0] = 0x3F800000u;
    io.a[1] = 0x3F800000u; io.b[1] = 0x7F800001u;
    io.a[2] = 0x80000000u; io.b[2] = 0x00000000u;
    io.a[3] = 0x3F800000u; io.b[3] = 0x40000000u;
    io.a[4] = 0x7FC00000u; io.b[4] = 0x7FC00000u;
    io.exec = 0x1F;
    if (!lanes_run("  v_cmp_lg_f32 vcc, v2, v3\n"
                   "  v_cmp_neq_f32 s[12:13], v2, v3\n"
                   "  v_cmp_eq_f32 s[14:15], v2, v3\n",
                   &io))
        return;
    CHECK_EQ_HEX(io.vcc, 0x08u);
    CHECK_EQ_HEX(io.rs[0], 0x1Bu);
    CHECK_EQ_HEX(io.rs[1], 0u);
    CHECK_EQ_HEX(io.rs[2], 0x04u);
    CHECK_EQ_HEX(io.rs[3], 0u);
}

/* v_cndmask_b32: the mask from vcc or an SGPR pair picks src1 where set. */
static void valu_cndmask(void)
{
    for (unsigned round = 0; round < 4; round++) {
        lanes io;
        lanes_init(&io);
        int_inputs(&io, 4);
        io.s[0] = rnd();
        io.s[1] = rnd();
        io.s[2] = rnd();
        io.s[3] = rnd();
        io.exec = g_masks[round];
        if (!lanes_run("  s_mov_b64 vcc, s[14:15]\n"
                       "  v_cndmask_b32 v5, v2, v3, vcc\n"
                       "  v_cndmask_b32 v6, v2, v3, s[12:13]\n"
                       "  v_cndmask_b32 v7, 0, -1, s[12:13]\n",
                       &io))
            continue;
        uint64_t mv = io.s[2] | (uint64_t)io.s[3] << 32, ms = io.s[0] | (uint64_t)io.s[1] << 32;
        uint32_t w0[NL], w1[NL], w2[NL];
        for (unsigned l = 0; l < NL; l++) {
            w0[l] = mv >> l & 1u ? io.b[l] : io.a[l];
            w1[l] = ms >> l & 1u ? io.b[l] : io.a[l];
            w2[l] = ms >> l & 1u ? 0xFFFFFFFFu : 0u;
        }
        check_lanes(&io, 0, w0, "v_cndmask_b32 vcc");
        check_lanes(&io, 1, w1, "v_cndmask_b32 s[12:13]");
        check_lanes(&io, 2, w2, "v_cndmask_b32 0, -1");
        CHECK_EQ_HEX(io.vcc, mv);
    }
}

/* ---- VALU: conversions ------------------------------------------------------------------------ */

/* Runs `op` (an instruction line computing v5 from v2 and v3) over n elements
   (n a multiple of 64) in a loop: out[i] = op(a[i], b[i]). The loop counts down
   an SGPR and branches on SCC, and the second input's base is computed with
   s_add_u32/s_addc_u32. */
static int stream_run(const char *target, const char *op, const uint32_t *a, const uint32_t *b,
                      uint32_t *out, unsigned n)
{
    size_t bytes = (size_t)n * 4;
    uint32_t *in = malloc(2 * bytes);
    if (!in)
        abort();
    memcpy(in, a, bytes);
    if (b)
        memcpy(in + n, b, bytes);
    else
        memset(in + n, 0, bytes);
    ut_tb t = { 0 };
    ut_tb_printf(&t,
              ".kernel stream\n"
              "  .target %s\n"
              "  .workgroup_size 64, 1, 1\n"
              "  .abi kernarg_ptr, workitem_id_x\n"
              "  .arg in, global_buffer, offset:0, size:8, align:8\n"
              "  .arg out, global_buffer, offset:8, size:8, align:8\n"
              "  .arg n, by_value, offset:16, size:4, align:4\n"
              "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
              "  s_load_dword s8, s[0:1], 16\n"
              "  v_lshlrev_b32 v1, 2, v0\n"
              "  s_waitcnt lgkmcnt(0)\n"
              "  s_lshl_b32 s9, s8, 8\n"
              "  s_add_u32 s10, s4, s9\n"
              "  s_addc_u32 s11, s5, 0\n"
              "loop:\n"
              "  global_load_dword v2, v1, s[4:5]\n"
              "  global_load_dword v3, v1, s[10:11]\n"
              "  s_waitcnt vmcnt(0)\n"
              "%s"
              "  global_store_dword v1, v5, s[6:7]\n"
              "  v_add_u32 v1, 0x100, v1\n"
              "  s_sub_u32 s8, s8, 1\n"
              "  s_cmp_lg_u32 s8, 0\n"
              "  s_cbranch_scc1 loop\n"
              "  s_endpgm\n"
              ".end_kernel\n",
              target, op);
    kr k;
    uint32_t iters = n / 64;
    int ok = kr_open(&k, t.s, NULL) && kr_bind(&k, 0, in, 2 * bytes) && kr_bind(&k, 1, out, bytes) &&
             CHECK_OK(wa_sim_set_arg(k.sim, 2, &iters, 4)) && kr_run(&k);
    kr_close(&k);
    ut_tb_free(&t);
    free(in);
    return ok;
}

/* Checks a stream result against a reference; NaN expectations accept any quiet NaN
   of the width (`half`: the low 16 bits, with a zero high half). */
static unsigned check_stream(const char *what, const uint32_t *a, const uint32_t *b, const uint32_t *got,
                             const uint32_t *want, unsigned n, int half)
{
    unsigned bad = 0;
    for (unsigned i = 0; i < n; i++) {
        int ok;
        if (half == 1 && is_nan16((uint16_t)want[i]))
            ok = is_nan16((uint16_t)got[i]) && (got[i] & 0x200u) && !(got[i] >> 16);
        else if (half == 2 && (is_nan16((uint16_t)want[i]) || is_nan16((uint16_t)(want[i] >> 16))))
            ok = (is_nan16((uint16_t)want[i]) ? is_nan16((uint16_t)got[i]) : (uint16_t)got[i] == (uint16_t)want[i]) &&
                 (is_nan16((uint16_t)(want[i] >> 16)) ? is_nan16((uint16_t)(got[i] >> 16))
                                                     : got[i] >> 16 == want[i] >> 16);
        else if (!half && is_nan32(want[i]))
            ok = is_nan32(got[i]) && (got[i] & 0x00400000u);
        else
            ok = got[i] == want[i];
        if (!ok && ++bad <= 6)
            CHECK_MSG(0, "%s: element %u (0x%08x, 0x%08x): 0x%08x, want 0x%08x", what, i, a[i], b ? b[i] : 0,
                      got[i], want[i]);
    }
    CHECK_MSG(bad == 0, "%s: %u of %u elements differ", what, bad, n);
    return bad;
}

/* Every f16 value converted to f32 (garbage in the ignored high half). */
static void cvt_f32_f16_all(void)
{
    unsigned n = 65536;
    uint32_t *a = malloc(n * 4), *out = malloc(n * 4), *want = malloc(n * 4);
    if (!a || !out || !want)
        abort();
    for (unsigned i = 0; i < n; i++) {
        a[i] = (rnd() << 16) | i;
        want[i] = ref_f16_to_f32((uint16_t)i);
    }
    if (stream_run("gfx942", "  v_cvt_f32_f16 v5, v2\n", a, NULL, out, n))
        check_stream("v_cvt_f32_f16", a, NULL, out, want, n, 0);
    free(a);
    free(out);
    free(want);
}

/* f32 values around every f16 value: the value itself, the midpoint to the next
   f16 (a tie), and one f32 ulp either side of the midpoint, plus f32 denormals,
   infinities and NaNs. */
static unsigned f16_probe_inputs(uint32_t *a)
{
    unsigned n = 0;
    for (unsigned h = 0; h < 0x7C00u; h++) {
        for (unsigned s = 0; s < 2; s++) {
            uint32_t x = ref_f16_to_f32((uint16_t)h) | (uint32_t)s << 31;
            double lo = (double)f32(x);
            double hi = h == 0x7BFFu ? 65536.0 : (double)f32(ref_f16_to_f32((uint16_t)(h + 1)));
            if (s)
                hi = -hi;
            uint32_t mid = bits((float)((lo + hi) / 2)); /* exact: 12 significant bits */
            a[n++] = x;
            a[n++] = mid;
            a[n++] = mid + 1;
            if ((mid & 0x7FFFFFFFu) != 0)
                a[n++] = mid - 1;
        }
    }
    static const uint32_t extra[] = { 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7F800001u,
                                      0x7F7FFFFFu, 0xFF7FFFFFu, 0x00000001u, 0x807FFFFFu, 0x477FF000u,
                                      0x477FEFFFu, 0x477FF001u, 0x47800000u, 0x33000000u, 0x33000001u,
                                      0xB3000000u, 0x387FC000u, 0x387FE000u };
    for (unsigned i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
        a[n++] = extra[i];
    while (n % 64)
        a[n++] = rnd_float();
    return n;
}

static void cvt_f16_f32_sweep(void)
{
    uint32_t *a = malloc(300000 * 4), *out = malloc(300000 * 4), *want = malloc(300000 * 4);
    if (!a || !out || !want)
        abort();
    unsigned n = f16_probe_inputs(a);
    for (unsigned i = 0; i < n; i++)
        want[i] = ref_f32_to_f16(a[i], 0);
    if (stream_run("gfx942", "  v_cvt_f16_f32 v5, v2\n", a, NULL, out, n))
        check_stream("v_cvt_f16_f32", a, NULL, out, want, n, 1);
    /* v_cvt_pkrtz_f16_f32 rounds toward zero: S0 in the low half, S1 in the high */
    uint32_t *b = malloc(n * 4);
    if (!b)
        abort();
    for (unsigned i = 0; i < n; i++)
        b[i] = a[(i * 7919u + 13u) % n];
    for (unsigned i = 0; i < n; i++)
        want[i] = (uint32_t)ref_f32_to_f16(a[i], 1) | (uint32_t)ref_f32_to_f16(b[i], 1) << 16;
    if (stream_run("gfx942", "  v_cvt_pkrtz_f16_f32 v5, v2, v3\n", a, b, out, n))
        check_stream("v_cvt_pkrtz_f16_f32", a, b, out, want, n, 2);
    free(a);
    free(b);
    free(out);
    free(want);
}

/* gfx950 v_cvt_pk_bf16_f32: round to nearest even into bf16, S0 low. */
static void cvt_pk_bf16_sweep(void)
{
    unsigned n = 64 * 256;
    uint32_t *a = malloc(n * 4), *b = malloc(n * 4), *out = malloc(n * 4), *want = malloc(n * 4);
    if (!a || !b || !out || !want)
        abort();
    static const uint32_t edge[] = { 0x3F808000u, 0x3F818000u, 0x3F808001u, 0x3F807FFFu, 0x7F7FFFFFu,
                                     0x7F7F7FFFu, 0x7F7F8000u, 0x00008000u, 0x00018000u, 0x80000001u,
                                     0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u, 0x00000000u,
                                     0x80000000u };
    for (unsigned i = 0; i < n; i++) {
        uint32_t r = rnd();
        a[i] = i < 16 ? edge[i] : (i % 3 == 0 ? (r & 0xFFFF0000u) | 0x8000u : (i % 5 == 0 ? r & 0x807FFFFFu : r));
        b[i] = i < 16 ? edge[15 - i] : rnd();
        want[i] = (uint32_t)ref_f32_to_bf16(a[i]) | (uint32_t)ref_f32_to_bf16(b[i]) << 16;
    }
    if (stream_run("gfx950", "  v_cvt_pk_bf16_f32 v5, v2, v3\n", a, b, out, n)) {
        unsigned bad = 0;
        for (unsigned i = 0; i < n; i++)
            for (unsigned h = 0; h < 2; h++) {
                uint16_t g = (uint16_t)(out[i] >> (16 * h)), w = (uint16_t)(want[i] >> (16 * h));
                int wnan = (w & 0x7F80u) == 0x7F80u && (w & 0x7Fu);
                int ok = wnan ? (g & 0x7FC0u) == 0x7FC0u : g == w;
                if (!ok && ++bad <= 6)
                    CHECK_MSG(0, "v_cvt_pk_bf16_f32 element %u half %u (0x%08x): 0x%04x, want 0x%04x", i, h,
                              h ? b[i] : a[i], g, w);
            }
        CHECK_EQ_UINT(bad, 0);
    }
    free(a);
    free(b);
    free(out);
    free(want);
}

/* Integer <-> float conversions: rounding of large u32/i32, clamping of
   out-of-range, negative and NaN inputs to u32. */
static uint32_t ref_cvt_u32(uint32_t x)
{
    if (is_nan32(x) || (x >> 31))
        return 0; /* NaN, negatives and -0 */
    double v = (double)f32(x);
    if (v >= 4294967296.0)
        return 0xFFFFFFFFu;
    return (uint32_t)round_int(v, 1);
}

static void cvt_integer_sweep(void)
{
    unsigned n = 64 * 64;
    uint32_t *a = malloc(n * 4), *out = malloc(n * 4), *want = malloc(n * 4);
    if (!a || !out || !want)
        abort();
    static const uint32_t ints[] = { 0, 1, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x01000001u, 0x01000003u,
                                     0xFFFFFF80u, 0xFFFFFF7Fu, 0x00FFFFFFu, 0x81000001u, 0x7FFFFFC0u };
    for (unsigned i = 0; i < n; i++)
        a[i] = i < 12 ? ints[i] : (i % 2 ? rnd() : rnd() >> (rnd() % 32));
    for (unsigned i = 0; i < n; i++)
        want[i] = bits((float)a[i]);
    if (stream_run("gfx942", "  v_cvt_f32_u32 v5, v2\n", a, NULL, out, n))
        check_stream("v_cvt_f32_u32", a, NULL, out, want, n, 0);
    for (unsigned i = 0; i < n; i++)
        want[i] = bits((float)(int32_t)a[i]);
    if (stream_run("gfx942", "  v_cvt_f32_i32 v5, v2\n", a, NULL, out, n))
        check_stream("v_cvt_f32_i32", a, NULL, out, want, n, 0);
    static const uint32_t fl[] = { 0x00000000u, 0x80000000u, 0x3F000000u, 0x3F7FFFFFu, 0x3FFFFFFFu,
                                   0xBF800000u, 0xBF000000u, 0x4F800000u, 0x4F7FFFFFu, 0x7F800000u,
                                   0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x00000001u,
                                   0x5F000000u, 0x4B3FFFFFu };
    for (unsigned i = 0; i < n; i++)
        a[i] = i < 17 ? fl[i] : (rnd() & 0x80000000u) | (110u + rnd() % 50u) << 23 | (rnd() & 0x7FFFFFu);
    for (unsigned i = 0; i < n; i++)
        want[i] = ref_cvt_u32(a[i]);
    if (stream_run("gfx942", "  v_cvt_u32_f32 v5, v2\n", a, NULL, out, n))
        check_stream("v_cvt_u32_f32", a, NULL, out, want, n, -1);
    CHECK_EQ_HEX(want[7], 0xFFFFFFFFu); /* 2^32 clamps */
    CHECK_EQ_HEX(want[8], 0xFFFFFF00u); /* just below 2^32 */
    free(a);
    free(out);
    free(want);
}

/* v_pack_b32_f16 packs the low halves; the conversions under partial EXEC. */
static void cvt_pack_and_masking(void)
{
    lanes io;
    lanes_init(&io);
    int_inputs(&io, 4);
    float_inputs(&io, 4); /* finite a; random bits in b */
    for (unsigned l = 0; l < NL; l++)
        io.b[l] = rnd();
    io.exec = g_masks[1];
    if (!lanes_run("  v_pack_b32_f16 v5, v2, v3\n"
                   "  v_cvt_f16_f32 v6, v2\n"
                   "  v_cvt_f32_f16 v7, v3\n",
                   &io))
        return;
    uint32_t w0[NL], w1[NL], w2[NL];
    for (unsigned l = 0; l < NL; l++) {
        w0[l] = (io.a[l] & 0xFFFFu) | io.b[l] << 16;
        w1[l] = ref_f32_to_f16(io.a[l], 0);
        w2[l] = ref_f16_to_f32((uint16_t)io.b[l]);
    }
    check_lanes(&io, 0, w0, "v_pack_b32_f16");
    check_lanes_f(&io, 1, w1, "v_cvt_f16_f32");
    check_lanes_f(&io, 2, w2, "v_cvt_f32_f16");
    /* a signaling f16 NaN comes out quiet */
    lanes_init(&io);
    io.a[0] = 0x7C01u;
    io.a[1] = 0xFE00u;
    io.a[2] = 0x7C00u;
    io.exec = 7;
    if (!lanes_run("  v_cvt_f32_f16 v5, v2\n", &io))
        return;
    CHECK(is_nan32(io.r[0][0]) && (io.r[0][0] & 0x00400000u));
    CHECK(is_nan32(io.r[0][1]) && (io.r[0][1] & 0x00400000u));
    CHECK_EQ_HEX(io.r[0][2], 0x7F800000u);
}

/* ---- VALU: lanes, mbcnt, accumulation registers ------------------------------------------------ */

static unsigned popcount64(uint64_t x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* v_mbcnt_lo/hi count the mask bits below the lane (in the low and the high half)
   and add the second operand; lo then hi with -1 gives the lane id. */
static void valu_mbcnt(void)
{
    for (unsigned round = 0; round < 4; round++) {
        lanes io;
        lanes_init(&io);
        int_inputs(&io, 4);
        io.s[0] = round == 0 ? 0xFFFFFFFFu : rnd();
        io.s[1] = round == 0 ? 0xFFFFFFFFu : rnd();
        io.exec = g_masks[round];
        if (!lanes_run("  v_mbcnt_lo_u32_b32 v5, -1, 0\n"
                       "  v_mbcnt_hi_u32_b32 v5, -1, v5\n"
                       "  v_mbcnt_lo_u32_b32 v6, s12, v3\n"
                       "  v_mbcnt_hi_u32_b32 v7, s13, v3\n",
                       &io))
            continue;
        uint32_t w0[NL], w1[NL], w2[NL];
        uint64_t m = io.s[0] | (uint64_t)io.s[1] << 32;
        for (unsigned l = 0; l < NL; l++) {
            w0[l] = l;
            uint64_t below = l ? (~0ull >> (64 - l)) : 0;
            w1[l] = popcount64(m & below & 0xFFFFFFFFull) + io.b[l];
            w2[l] = popcount64(m & below & 0xFFFFFFFF00000000ull) + io.b[l];
        }
        check_lanes(&io, 0, w0, "lane id from mbcnt");
        check_lanes(&io, 1, w1, "v_mbcnt_lo_u32_b32");
        check_lanes(&io, 2, w2, "v_mbcnt_hi_u32_b32");
    }
}

/* v_readfirstlane (first active lane; lane 0 when EXEC is 0), v_readlane (lane
   number modulo 64, from an SGPR or a constant, whatever EXEC is), v_writelane
   (writes its lane even when inactive). */
static void valu_lane_ops(void)
{
    static const uint64_t masks[] = { ~0ull, 0xFFFF000000000000ull, 0x0000000000000100ull, 0 };
    for (unsigned round = 0; round < 4; round++) {
        lanes io;
        lanes_init(&io);
        int_inputs(&io, 4);
        io.s[3] = 70; /* lane 6 */
        io.s[2] = 0xCAFEF00Du;
        io.exec = masks[round];
        if (!lanes_run("  v_readfirstlane_b32 s12, v2\n"
                       "  v_readlane_b32 s13, v2, 37\n"
                       "  v_readlane_b32 s15, v2, s15\n"
                       "  v_writelane_b32 v5, s14, 5\n"
                       "  v_writelane_b32 v6, 17, s15\n"
                       "  v_mov_b32 v7, v2\n",
                       &io))
            continue;
        unsigned first = 0;
        while (first < 63 && io.exec && !(io.exec >> first & 1u))
            first++;
        CHECK_EQ_HEX(io.rs[0], io.a[io.exec ? first : 0]);
        CHECK_EQ_HEX(io.rs[1], io.a[37]);
        CHECK_EQ_HEX(io.rs[3], io.a[6]);
        for (unsigned l = 0; l < NL; l++) {
            CHECK_EQ_HEX(io.r[0][l], l == 5 ? 0xCAFEF00Du : io.old[0][l]);
            /* the lane select of the second writelane is s15 after the readlane */
            CHECK_EQ_HEX(io.r[1][l], l == (io.a[6] & 63u) ? 17u : io.old[1][l]);
            CHECK_EQ_HEX(io.r[2][l], io.exec >> l & 1u ? io.a[l] : io.old[2][l]);
        }
    }
}

/* AGPRs: write from a VGPR, a constant and an SGPR, move between AGPRs, read back;
   inactive lanes keep their values in both files. */
static void valu_accvgpr(void)
{
    lanes io;
    lanes_init(&io);
    int_inputs(&io, 4);
    io.s[0] = 0x13579BDFu;
    io.exec = g_masks[1];
    if (!lanes_run("  v_accvgpr_write_b32 a0, v2\n"
                   "  v_accvgpr_mov_b32 a1, a0\n"
                   "  v_accvgpr_read_b32 v5, a1\n"
                   "  v_accvgpr_write_b32 a2, -7\n"
                   "  v_accvgpr_read_b32 v6, a2\n"
                   "  v_accvgpr_write_b32 a3, s12\n"
                   "  v_accvgpr_read_b32 v7, a3\n",
                   &io))
        return;
    uint32_t w0[NL], w1[NL], w2[NL];
    for (unsigned l = 0; l < NL; l++) {
        w0[l] = io.a[l];
        w1[l] = 0xFFFFFFF9u;
        w2[l] = 0x13579BDFu;
    }
    check_lanes(&io, 0, w0, "v_accvgpr_write/mov/read");
    check_lanes(&io, 1, w1, "v_accvgpr_write -7");
    check_lanes(&io, 2, w2, "v_accvgpr_write s12");
    /* inactive lanes of an AGPR keep their value: a0 written fully, then partly */
    lanes_init(&io);
    int_inputs(&io, 4);
    io.exec = ~0ull;
    if (!lanes_run("  v_accvgpr_write_b32 a0, v2\n"
                   "  s_mov_b64 exec, 0xFF\n"
                   "  v_accvgpr_write_b32 a0, v3\n"
                   "  s_mov_b64 exec, -1\n"
                   "  v_accvgpr_read_b32 v5, a0\n",
                   &io))
        return;
    for (unsigned l = 0; l < NL; l++)
        w0[l] = l < 8 ? io.b[l] : io.a[l];
    check_lanes(&io, 0, w0, "AGPR under partial EXEC");
}

/* A workgroup of 100 work-items: two waves, the second with lanes 0..35 active.
   Each work-item writes its id; EXEC of each wave is stored; the inactive lanes
   neither store nor compute. */
static void valu_partial_waves(void)
{
    ut_tb t = { 0 };
    head(&t, "gfx942", 100, 0);
    ut_tb_printf(&t, "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                  "  v_mbcnt_lo_u32_b32 v1, -1, 0\n"
                  "  v_mbcnt_hi_u32_b32 v1, -1, v1\n"   /* lane id */
                  "  v_lshlrev_b32 v2, 2, v0\n"
                  "  v_mul_lo_u32 v3, v0, v0\n"
                  "  v_add_u32 v3, v3, v1\n"           /* id^2 + lane */
                  "  v_mov_b32 v4, exec_lo\n"
                  "  v_mov_b32 v5, exec_hi\n"
                  "  v_readfirstlane_b32 s8, v0\n"      /* the wave's first work-item */
                  "  s_lshr_b32 s8, s8, 6\n"            /* the wave index */
                  "  s_lshl_b32 s8, s8, 3\n"
                  "  v_mov_b32 v6, s8\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  global_store_dword v2, v3, s[6:7]\n"
                  "  global_store_dwordx2 v6, v[4:5], s[4:5]\n" /* wave w's EXEC at in + 8 w */
                  "  s_endpgm\n"
                  ".end_kernel\n");
    uint32_t in[4] = { 0 }, out[128];
    for (unsigned i = 0; i < 128; i++)
        out[i] = 0x77777777u;
    if (run_io(t.s, in, sizeof(in), out, sizeof(out), 3)) {
        for (unsigned i = 0; i < 128; i++)
            CHECK_EQ_HEX(out[i], i < 100 ? i * i + i % 64 : 0x77777777u);
        CHECK_EQ_HEX(in[0], 0xFFFFFFFFu);
        CHECK_EQ_HEX(in[1], 0xFFFFFFFFu);
        CHECK_EQ_HEX(in[2], 0xFFFFFFFFu);
        CHECK_EQ_HEX(in[3], 0x0000000Fu);
    }
    ut_tb_free(&t);
}

/* ---- SALU ------------------------------------------------------------------------------------ */

typedef struct scase {
    uint32_t a, b, scc;
} scase;

/* Runs each case through "OP s12, s8, s9" with SCC = case.scc before it (set by
   s_cmp_eq_u32), then reads s12 and SCC (through s_cselect_b32). `cmp`: the op is
   an s_cmp (no destination: "OP s8, s9"). */
static int salu_run32(const char *mn, int cmp, const scase *cs, unsigned n, uint32_t *r, uint32_t *scc)
{
    uint32_t *in = calloc(n, 16), *out = calloc(n, 8);
    if (!in || !out)
        abort();
    for (unsigned i = 0; i < n; i++) {
        in[4 * i] = cs[i].a;
        in[4 * i + 1] = cs[i].b;
        in[4 * i + 2] = cs[i].scc;
    }
    ut_tb t = { 0 };
    head(&t, "gfx942", 64, 0);
    ut_tb_printf(&t, "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                  "  v_mov_b32 v1, 0\n"
                  "  s_waitcnt lgkmcnt(0)\n");
    for (unsigned i = 0; i < n; i++) {
        ut_tb_printf(&t, "  s_load_dwordx4 s[8:11], s[4:5], %u\n"
                      "  s_mov_b32 s12, 0x%x\n"
                      "  s_waitcnt lgkmcnt(0)\n"
                      "  s_cmp_eq_u32 s10, 1\n",
                  16 * i, 0xB0B0u + i);
        if (cmp)
            ut_tb_printf(&t, "  %s s8, s9\n", mn);
        else
            ut_tb_printf(&t, "  %s s12, s8, s9\n", mn);
        ut_tb_printf(&t, "  s_cselect_b32 s13, 1, 0\n"
                      "  v_mov_b32 v2, s12\n"
                      "  v_mov_b32 v3, s13\n"
                      "  global_store_dwordx2 v1, v[2:3], s[6:7] offset:%u\n",
                  8 * i);
    }
    ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");
    int ok = run_io(t.s, in, (size_t)n * 16, out, (size_t)n * 8, 5);
    for (unsigned i = 0; ok && i < n; i++) {
        r[i] = out[2 * i];
        scc[i] = out[2 * i + 1];
    }
    ut_tb_free(&t);
    free(in);
    free(out);
    return ok;
}

typedef uint32_t (*sref)(uint32_t a, uint32_t b, uint32_t si, uint32_t *so);
#define SREF(name, rexpr, sexpr)                                                   \
    static uint32_t name(uint32_t a, uint32_t b, uint32_t si, uint32_t *so)        \
    {                                                                              \
        uint32_t r = (rexpr);                                                      \
        (void)si;                                                                  \
        *so = (sexpr) ? 1u : 0u;                                                   \
        return r;                                                                  \
    }
SREF(s_add_u, a + b, (uint64_t)a + b > 0xFFFFFFFFull)
SREF(s_sub_u, a - b, b > a)
SREF(s_add_i, a + b, (int64_t)(int32_t)a + (int32_t)b > 0x7FFFFFFFll || (int64_t)(int32_t)a + (int32_t)b < -0x80000000ll)
SREF(s_addc_u, a + b + si, (uint64_t)a + b + si > 0xFFFFFFFFull)
SREF(s_subb_u, a - b - si, (uint64_t)b + si > a)
SREF(s_min_u, a < b ? a : b, a < b)
SREF(s_max_u, a > b ? a : b, a > b)
SREF(s_csel, si ? a : b, si)
SREF(s_and, a & b, r != 0)
SREF(s_or, a | b, r != 0)
SREF(s_xor, a ^ b, r != 0)
SREF(s_lshl, a << (b & 31u), r != 0)
SREF(s_lshr, a >> (b & 31u), r != 0)
SREF(s_ashr, (uint32_t)(((int64_t)(int32_t)a) >> (b & 31u)), r != 0)
SREF(s_mul_i, (uint32_t)((uint64_t)a * b), si)
SREF(s_mul_hi_u, (uint32_t)(((uint64_t)a * b) >> 32), si)
/* s_bfe_u32: offset S1[4:0], width S1[22:16] (7 bits; 32 and more: every bit above
   the offset) */
SREF(s_bfe_u, (uint32_t)(((uint64_t)a >> (b & 31u)) & (((b >> 16) & 0x7Fu) >= 32 ? 0xFFFFFFFFull
                                                          : (1ull << ((b >> 16) & 0x7Fu)) - 1u)),
     r != 0)
SREF(s_cmp_eq_i, a, a == b)
SREF(s_cmp_lg_i, a, a != b)
SREF(s_cmp_gt_i, a, (int32_t)a > (int32_t)b)
SREF(s_cmp_ge_i, a, (int32_t)a >= (int32_t)b)
SREF(s_cmp_lt_i, a, (int32_t)a < (int32_t)b)
SREF(s_cmp_le_i, a, (int32_t)a <= (int32_t)b)
SREF(s_cmp_gt_u, a, a > b)
SREF(s_cmp_ge_u, a, a >= b)
SREF(s_cmp_lt_u, a, a < b)
SREF(s_cmp_le_u, a, a <= b)

static const struct {
    const char *mn;
    sref f;
    int cmp, bfe;
} g_salu32[] = {
    { "s_add_u32", s_add_u, 0, 0 },        { "s_sub_u32", s_sub_u, 0, 0 },
    { "s_add_i32", s_add_i, 0, 0 },        { "s_addc_u32", s_addc_u, 0, 0 },
    { "s_subb_u32", s_subb_u, 0, 0 },      { "s_min_u32", s_min_u, 0, 0 },
    { "s_max_u32", s_max_u, 0, 0 },        { "s_cselect_b32", s_csel, 0, 0 },
    { "s_and_b32", s_and, 0, 0 },          { "s_or_b32", s_or, 0, 0 },
    { "s_xor_b32", s_xor, 0, 0 },          { "s_lshl_b32", s_lshl, 0, 0 },
    { "s_lshr_b32", s_lshr, 0, 0 },        { "s_ashr_i32", s_ashr, 0, 0 },
    { "s_mul_i32", s_mul_i, 0, 0 },        { "s_mul_hi_u32", s_mul_hi_u, 0, 0 },
    { "s_bfe_u32", s_bfe_u, 0, 1 },        { "s_cmp_eq_i32", s_cmp_eq_i, 1, 0 },
    { "s_cmp_lg_i32", s_cmp_lg_i, 1, 0 },  { "s_cmp_gt_i32", s_cmp_gt_i, 1, 0 },
    { "s_cmp_ge_i32", s_cmp_ge_i, 1, 0 },  { "s_cmp_lt_i32", s_cmp_lt_i, 1, 0 },
    { "s_cmp_le_i32", s_cmp_le_i, 1, 0 },  { "s_cmp_eq_u32", s_cmp_eq_i, 1, 0 },
    { "s_cmp_lg_u32", s_cmp_lg_i, 1, 0 },  { "s_cmp_gt_u32", s_cmp_gt_u, 1, 0 },
    { "s_cmp_ge_u32", s_cmp_ge_u, 1, 0 },  { "s_cmp_lt_u32", s_cmp_lt_u, 1, 0 },
    { "s_cmp_le_u32", s_cmp_le_u, 1, 0 },
};

/* Every 32-bit SALU opcode and compare on every pair of edge values with SCC in both
   states, and on random values: the result and SCC (carry, borrow, signed
   overflow, nonzero result, or unchanged). */
static void salu_ops32(void)
{
    static const uint32_t edge[16] = { 0, 1, 2, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 31, 32, 33,
                                       0xFFFFFFFEu, 0x80000001u, 0x0000FFFFu, 0xFFFF0000u, 0x12345678u,
                                       0x40000000u, 0xC0000000u };
    enum { N = 16 * 16 + 64 };
    scase cs[N];
    uint32_t r[N], scc[N];
    for (unsigned op = 0; op < sizeof(g_salu32) / sizeof(g_salu32[0]); op++) {
        for (unsigned i = 0; i < N; i++) {
            if (i < 256) {
                cs[i].a = edge[i % 16];
                cs[i].b = edge[i / 16];
            } else {
                cs[i].a = rnd();
                cs[i].b = i % 2 ? rnd() : rnd() % 40;
            }
            cs[i].scc = (i * 7 + op) % 3 == 0;
            if (g_salu32[op].bfe) /* offset | width << 16, with junk elsewhere now and then */
                cs[i].b = (rnd() % 32) | (i % 41) << 16 | (i % 5 == 0 ? (rnd() & 0xFF80FFE0u) : 0);
        }
        ut_context("%s", g_salu32[op].mn);
        if (!salu_run32(g_salu32[op].mn, g_salu32[op].cmp, cs, N, r, scc))
            continue;
        unsigned bad = 0;
        for (unsigned i = 0; i < N; i++) {
            uint32_t so = 0, want = g_salu32[op].cmp ? 0xB0B0u + i : g_salu32[op].f(cs[i].a, cs[i].b, cs[i].scc, &so);
            if (g_salu32[op].cmp)
                g_salu32[op].f(cs[i].a, cs[i].b, cs[i].scc, &so);
            if ((r[i] != want || scc[i] != so) && ++bad <= 4)
                CHECK_MSG(0, "%s 0x%08x, 0x%08x (scc %u): 0x%08x scc %u, want 0x%08x scc %u", g_salu32[op].mn,
                          cs[i].a, cs[i].b, cs[i].scc, r[i], scc[i], want, so);
        }
        CHECK_EQ_UINT(bad, 0);
    }
    ut_context("%s", "");
}

/* The scalar harness: s[16:31] preloaded from in[0..15], s[8:15] from in[16..23];
   after `ops`, s[16:31], SCC, VCC and EXEC are read back (out[0..15], 16, 17-18,
   19-20). EXEC is all lanes before the ops. */
typedef struct scal {
    uint32_t in[24];
    uint32_t out[24];
} scal;

static int scal_run(const char *ops, scal *s, uint64_t seed)
{
    ut_tb t = { 0 };
    head(&t, "gfx942", 64, 0);
    ut_tb_printf(&t,
              "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
              "  v_mov_b32 v1, 0\n"
              "  s_mov_b64 vcc, 0\n"
              "  s_waitcnt lgkmcnt(0)\n"
              "  s_load_dwordx8 s[16:23], s[4:5], 0\n"
              "  s_load_dwordx8 s[24:31], s[4:5], 32\n"
              "  s_load_dwordx8 s[8:15], s[4:5], 64\n"
              "  s_waitcnt lgkmcnt(0)\n"
              "%s"
              "  s_cselect_b32 s2, 1, 0\n"
              "  s_mov_b64 s[40:41], exec\n"
              "  s_mov_b64 exec, -1\n",
              ops);
    for (unsigned i = 0; i < 16; i++)
        ut_tb_printf(&t, "  v_mov_b32 v%u, s%u\n", 2 + i, 16 + i);
    ut_tb_printf(&t,
              "  v_mov_b32 v18, s2\n"
              "  v_mov_b32 v19, vcc_lo\n"
              "  v_mov_b32 v20, vcc_hi\n"
              "  v_mov_b32 v21, s40\n"
              "  v_mov_b32 v22, s41\n"
              "  global_store_dwordx4 v1, v[2:5], s[6:7]\n"
              "  global_store_dwordx4 v1, v[6:9], s[6:7] offset:16\n"
              "  global_store_dwordx4 v1, v[10:13], s[6:7] offset:32\n"
              "  global_store_dwordx4 v1, v[14:17], s[6:7] offset:48\n"
              "  global_store_dwordx4 v1, v[18:21], s[6:7] offset:64\n"
              "  global_store_dword v1, v22, s[6:7] offset:80\n"
              "  s_endpgm\n.end_kernel\n");
    memset(s->out, 0xEE, sizeof(s->out));
    int ok = run_io(t.s, s->in, sizeof(s->in), s->out, sizeof(s->out), seed);
    ut_tb_free(&t);
    return ok;
}

static uint64_t u64_of(const uint32_t *p) { return p[0] | (uint64_t)p[1] << 32; }

/* 64-bit ops (and, or, andn2, cselect, lshl) with SCC, on edge and random pairs. */
static void salu_ops64(void)
{
    static const uint64_t edge[8] = { 0, 1, ~0ull, 0x8000000000000000ull, 0x00000000FFFFFFFFull,
                                      0xFFFFFFFF00000000ull, 0x0123456789ABCDEFull, 0x8000000000000001ull };
    static const char *const mn[] = { "s_and_b64", "s_or_b64", "s_andn2_b64", "s_cselect_b64", "s_lshl_b64" };
    for (unsigned op = 0; op < 5; op++) {
        for (unsigned round = 0; round < 24; round++) {
            scal s;
            memset(&s, 0, sizeof(s));
            ut_tb ops = { 0 };
            uint64_t a[4], b[4];
            for (unsigned k = 0; k < 4; k++) {
                unsigned i = round * 4 + k;
                a[k] = i < 64 ? edge[i % 8] : (uint64_t)rnd() << 32 | rnd();
                b[k] = i < 64 ? edge[i / 8] : (uint64_t)rnd() << 32 | rnd();
                if (op == 4)
                    b[k] = i < 64 ? i : rnd() % 130;
                s.in[4 * k] = (uint32_t)a[k];
                s.in[4 * k + 1] = (uint32_t)(a[k] >> 32);
                s.in[4 * k + 2] = (uint32_t)b[k];
                s.in[4 * k + 3] = (uint32_t)(b[k] >> 32);
                unsigned d = 16 + 4 * k;
                ut_tb_printf(&ops, "  s_cmp_eq_u32 s%u, %u\n", 8 + k, 1u);
                if (op == 4)
                    ut_tb_printf(&ops, "  %s s[%u:%u], s[%u:%u], s%u\n", mn[op], d, d + 1, d, d + 1, d + 2);
                else
                    ut_tb_printf(&ops, "  %s s[%u:%u], s[%u:%u], s[%u:%u]\n", mn[op], d, d + 1, d, d + 1, d + 2, d + 3);
                ut_tb_printf(&ops, "  s_cselect_b32 s%u, 1, 0\n", d + 2);
            }
            for (unsigned k = 0; k < 4; k++)
                s.in[16 + k] = (round + k) % 2;
            ut_context("%s round %u", mn[op], round);
            if (scal_run(ops.s, &s, 1)) {
                for (unsigned k = 0; k < 4; k++) {
                    uint64_t want;
                    int si = (int)s.in[16 + k], so;
                    switch (op) {
                    case 0: want = a[k] & b[k]; so = want != 0; break;
                    case 1: want = a[k] | b[k]; so = want != 0; break;
                    case 2: want = a[k] & ~b[k]; so = want != 0; break;
                    case 3: want = si ? a[k] : b[k]; so = si; break;
                    default: want = a[k] << (b[k] % 64u); so = want != 0; break;
                    }
                    CHECK_EQ_HEX(u64_of(&s.out[4 * k]), want);
                    CHECK_EQ_UINT(s.out[4 * k + 2], (unsigned)so);
                }
            }
            ut_tb_free(&ops);
        }
    }
    ut_context("%s", "");
}

/* Moves: s_movk_i32 sign extension, s_mov_b64 of inline constants (sign
   extended), literals, SGPR pairs; s_mov_b32 of special registers. */
static void salu_moves(void)
{
    scal s;
    memset(&s, 0, sizeof(s));
    s.in[16] = 0xAABBCCDDu;
    s.in[17] = 0x11223344u;
    if (!scal_run("  s_movk_i32 s16, 0x8000\n"
                  "  s_movk_i32 s17, 0x7fff\n"
                  "  s_movk_i32 s18, -1\n"
                  "  s_movk_i32 s19, 0xffff\n"
                  "  s_movk_i32 s20, -32768\n"
                  "  s_mov_b64 s[22:23], -5\n"
                  "  s_mov_b64 s[24:25], 0x12345678\n"
                  "  s_mov_b64 s[26:27], s[8:9]\n"
                  "  s_mov_b32 s28, 0x87654321\n"
                  "  s_mov_b32 s29, -16\n"
                  "  s_mov_b64 vcc, s[8:9]\n"
                  "  s_mov_b32 s30, vcc_hi\n"
                  "  s_mov_b32 m0, s9\n"
                  "  s_mov_b32 s31, m0\n",
                  &s, 1))
        return;
    CHECK_EQ_HEX(s.out[0], 0xFFFF8000u);
    CHECK_EQ_HEX(s.out[1], 0x00007FFFu);
    CHECK_EQ_HEX(s.out[2], 0xFFFFFFFFu);
    CHECK_EQ_HEX(s.out[3], 0xFFFFFFFFu);
    CHECK_EQ_HEX(s.out[4], 0xFFFF8000u);
    CHECK_EQ_HEX(u64_of(&s.out[6]), 0xFFFFFFFFFFFFFFFBull);
    CHECK_EQ_HEX(u64_of(&s.out[8]), 0x12345678ull);
    CHECK_EQ_HEX(u64_of(&s.out[10]), 0x11223344AABBCCDDull);
    CHECK_EQ_HEX(s.out[12], 0x87654321u);
    CHECK_EQ_HEX(s.out[13], 0xFFFFFFF0u);
    CHECK_EQ_HEX(s.out[14], 0x11223344u);
    CHECK_EQ_HEX(s.out[15], 0x11223344u);
    CHECK_EQ_HEX(u64_of(&s.out[17]), 0x11223344AABBCCDDull);
}

/* Carry chains: a 64-bit add and subtract from s_add_u32/s_addc_u32 and
   s_sub_u32/s_subb_u32, on pairs that carry across the halves. */
static void salu_carry_chains(void)
{
    static const uint64_t pairs[][2] = {
        { 0x00000000FFFFFFFFull, 1 },          { 0xFFFFFFFFFFFFFFFFull, 1 },
        { 0x0000000100000000ull, 1 },          { 0x123456789ABCDEF0ull, 0x0FEDCBA987654321ull },
    };
    for (unsigned i = 0; i < 4; i++) {
        scal s;
        memset(&s, 0, sizeof(s));
        s.in[0] = (uint32_t)pairs[i][0];
        s.in[1] = (uint32_t)(pairs[i][0] >> 32);
        s.in[2] = (uint32_t)pairs[i][1];
        s.in[3] = (uint32_t)(pairs[i][1] >> 32);
        if (!scal_run("  s_add_u32 s20, s16, s18\n"
                      "  s_addc_u32 s21, s17, s19\n"
                      "  s_cselect_b32 s22, 1, 0\n"
                      "  s_sub_u32 s24, s16, s18\n"
                      "  s_subb_u32 s25, s17, s19\n"
                      "  s_cselect_b32 s26, 1, 0\n"
                      "  s_add_u32 s28, s16, s18\n"
                      "  s_add_u32 s29, s17, s19\n", /* without the carry */
                      &s, 1))
            continue;
        uint64_t sum = pairs[i][0] + pairs[i][1], dif = pairs[i][0] - pairs[i][1];
        CHECK_EQ_HEX(u64_of(&s.out[4]), sum);
        CHECK_EQ_UINT(s.out[6], sum < pairs[i][0]);
        CHECK_EQ_HEX(u64_of(&s.out[8]), dif);
        CHECK_EQ_UINT(s.out[10], pairs[i][1] > pairs[i][0]);
        CHECK_EQ_HEX(s.out[13], (uint32_t)(pairs[i][0] >> 32) + (uint32_t)(pairs[i][1] >> 32));
    }
}

/* s_and_saveexec_b64: the old EXEC saved, EXEC &= source, SCC = EXEC != 0;
   execz/execnz branches follow. */
static void salu_saveexec(void)
{
    lanes io;
    lanes_init(&io);
    int_inputs(&io, 4);
    io.exec = g_masks[1];
    if (!lanes_run("  v_cmp_gt_u32 vcc, v2, v3\n"
                   "  s_and_saveexec_b64 s[12:13], vcc\n"
                   "  s_cselect_b32 s14, 1, 0\n"
                   "  v_mov_b32 v5, v3\n"
                   "  s_mov_b64 exec, s[12:13]\n"
                   "  v_mov_b32 v6, 7\n"
                   "  v_cmp_eq_u32 vcc, 0, v2\n"      /* no lane: a is random */
                   "  s_and_saveexec_b64 s[12:13], vcc\n"
                   "  s_cselect_b32 s15, 1, 0\n"
                   "  s_cbranch_execz skip\n"
                   "  v_mov_b32 v7, 1\n"
                   "skip:\n"
                   "  s_mov_b64 exec, s[12:13]\n",
                   &io))
        return;
    uint32_t w0[NL], w1[NL];
    uint64_t m = 0;
    for (unsigned l = 0; l < NL; l++) {
        int gt = io.a[l] > io.b[l];
        m |= (uint64_t)(gt && (io.exec >> l & 1u)) << l;
        w0[l] = gt ? io.b[l] : io.old[0][l];
        w1[l] = 7;
    }
    check_lanes(&io, 0, w0, "v_mov under s_and_saveexec");
    check_lanes(&io, 1, w1, "v_mov after restoring EXEC");
    check_lanes(&io, 2, io.old[2], "skipped by s_cbranch_execz");
    CHECK_EQ_HEX(io.rs[0] | (uint64_t)io.rs[1] << 32, io.exec);
    CHECK_EQ_UINT(io.rs[2], m != 0);
    CHECK_EQ_UINT(io.rs[3], 0);
}

/* Every conditional branch taken and not taken: each records in a bit of s16
   whether it fell through. The conditions come from s8..s15. */
static void salu_branches(void)
{
    for (unsigned round = 0; round < 2; round++) {
        scal s;
        memset(&s, 0, sizeof(s));
        s.in[16] = round ? 5 : 6;          /* s8: compared with 5 */
        s.in[18] = round ? 0 : 0x100;      /* vcc = s[10:11] */
        s.in[19] = 0;
        s.in[20] = 0;                      /* exec = s[12:13] */
        s.in[21] = round ? 0 : 0x80000000u;
        if (!scal_run("  s_mov_b32 s16, 0\n"
                      "  s_cmp_eq_u32 s8, 5\n"
                      "  s_cbranch_scc0 br1\n"
                      "  s_or_b32 s16, s16, 1\n"
                      "br1:\n"
                      "  s_cmp_eq_u32 s8, 5\n"
                      "  s_cbranch_scc1 br2\n"
                      "  s_or_b32 s16, s16, 2\n"
                      "br2:\n"
                      "  s_mov_b64 vcc, s[10:11]\n"
                      "  s_cbranch_vccz br3\n"
                      "  s_or_b32 s16, s16, 4\n"
                      "br3:\n"
                      "  s_cbranch_vccnz br4\n"
                      "  s_or_b32 s16, s16, 8\n"
                      "br4:\n"
                      "  s_mov_b64 s[18:19], exec\n"
                      "  s_mov_b64 exec, s[12:13]\n"
                      "  s_cbranch_execz br5\n"
                      "  s_or_b32 s16, s16, 16\n"
                      "br5:\n"
                      "  s_cbranch_execnz br6\n"
                      "  s_or_b32 s16, s16, 32\n"
                      "br6:\n"
                      "  s_mov_b64 exec, s[18:19]\n"
                      "  s_branch br7\n"
                      "  s_or_b32 s16, s16, 64\n"
                      "br7:\n",
                      &s, 1))
            continue;
        /* round 1: scc1 taken, vcc zero, exec zero; round 0: the opposite */
        CHECK_EQ_HEX(s.out[0], round ? (1u | 8u | 32u) : (2u | 4u | 16u));
    }
}

/* Loops: a counted SALU loop (sum of 1..n), nested loops, a loop on vccnz and a
   divergent per-lane loop on execnz that narrows EXEC. */
static void salu_loops(void)
{
    scal s;
    memset(&s, 0, sizeof(s));
    s.in[16] = 100;
    s.in[17] = 7;
    s.in[18] = 5;
    if (scal_run("  s_mov_b32 s16, 0\n"
                 "  s_mov_b32 s17, 1\n"
                 "l1:\n"
                 "  s_add_u32 s16, s16, s17\n"
                 "  s_add_u32 s17, s17, 1\n"
                 "  s_cmp_le_u32 s17, s8\n"
                 "  s_cbranch_scc1 l1\n"
                 "  s_mov_b32 s18, 0\n"         /* nested: s18 = s9 * s10 */
                 "  s_mov_b32 s19, s9\n"
                 "outer:\n"
                 "  s_mov_b32 s20, s10\n"
                 "inner:\n"
                 "  s_add_u32 s18, s18, 1\n"
                 "  s_sub_u32 s20, s20, 1\n"
                 "  s_cmp_lg_u32 s20, 0\n"
                 "  s_cbranch_scc1 inner\n"
                 "  s_sub_u32 s19, s19, 1\n"
                 "  s_cbranch_scc0 outer_next\n" /* borrow clear: go on */
                 "outer_next:\n"
                 "  s_cmp_eq_u32 s19, 0\n"
                 "  s_cbranch_scc0 outer\n"
                 "  s_mov_b32 s21, 0\n"          /* vccnz loop: count down a vector value */
                 "  v_mov_b32 v30, 9\n"
                 "l3:\n"
                 "  v_sub_u32 v30, v30, 1\n"
                 "  s_add_u32 s21, s21, 1\n"
                 "  v_cmp_ne_u32 vcc, 0, v30\n"
                 "  s_cbranch_vccnz l3\n",
                 &s, 1)) {
        CHECK_EQ_UINT(s.out[0], 5050);
        CHECK_EQ_UINT(s.out[1], 101);
        CHECK_EQ_UINT(s.out[2], 35);
        CHECK_EQ_UINT(s.out[5], 9);
    }

    for (unsigned round = 0; round < 3; round++) {
        lanes io;
        lanes_init(&io);
        for (unsigned l = 0; l < NL; l++)
            io.a[l] = rnd() % 20;
        io.exec = g_masks[round];
        if (!lanes_run("  v_mov_b32 v5, 0\n"
                       "  s_mov_b64 s[12:13], exec\n"
                       "  s_mov_b32 s14, 0\n"
                       "dl:\n"
                       "  v_add_u32 v5, v5, 1\n"
                       "  s_add_u32 s14, s14, 1\n"
                       "  v_cmp_lt_u32 vcc, v5, v2\n"
                       "  s_and_b64 exec, exec, vcc\n"
                       "  s_cbranch_execnz dl\n"
                       "  s_mov_b64 exec, s[12:13]\n",
                       &io))
            continue;
        uint32_t want[NL], iters = 0;
        for (unsigned l = 0; l < NL; l++) {
            want[l] = io.a[l] > 1 ? io.a[l] : 1;
            if (io.exec >> l & 1u && want[l] > iters)
                iters = want[l];
        }
        check_lanes(&io, 0, want, "divergent loop");
        CHECK_EQ_UINT(io.rs[2], iters);
    }
}

/* ---- SMEM ----------------------------------------------------------------------------------- */

/* s_load_dword/x2/x4/x8 from the kernarg segment: immediate offsets, an SGPR
   offset, a negative offset from a moved base. */
static void smem_kernarg_loads(void)
{
    ut_tb t = { 0 };
    ut_tb_printf(&t, ".kernel t\n  .target gfx942\n  .workgroup_size 64, 1, 1\n"
                  "  .abi kernarg_ptr, workitem_id_x\n");
    for (unsigned i = 0; i < 8; i++)
        ut_tb_printf(&t, "  .arg a%u, by_value, offset:%u, size:4, align:4\n", i, 4 * i);
    ut_tb_printf(&t, "  .arg out, global_buffer, offset:32, size:8, align:8\n"
                  "  s_load_dword s8, s[0:1], 4\n"
                  "  s_load_dwordx2 s[10:11], s[0:1], 8\n"
                  "  s_load_dwordx4 s[12:15], s[0:1], 16\n"
                  "  s_load_dwordx8 s[16:23], s[0:1], 0\n"
                  "  s_load_dwordx2 s[6:7], s[0:1], 32\n"
                  "  s_mov_b32 s24, 12\n"
                  "  s_load_dword s25, s[0:1], s24\n"
                  "  s_add_u32 s26, s0, 16\n"
                  "  s_addc_u32 s27, s1, 0\n"
                  "  s_load_dword s28, s[26:27], -12\n"
                  "  v_mov_b32 v1, 0\n"
                  "  s_waitcnt lgkmcnt(0)\n");
    static const unsigned regs[] = { 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 25, 28 };
    for (unsigned i = 0; i < 17; i++)
        ut_tb_printf(&t, "  v_mov_b32 v%u, s%u\n", 2 + i, regs[i]);
    for (unsigned i = 0; i < 17; i++)
        ut_tb_printf(&t, "  global_store_dword v1, v%u, s[6:7] offset:%u\n", 2 + i, 4 * i);
    ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");
    for (uint64_t seed = 1; seed <= 3; seed++) {
        kr k;
        uint32_t out[17];
        memset(out, 0, sizeof(out));
        wa_sim_options o = sim_opts(seed);
        if (kr_open(&k, t.s, &o)) {
            uint32_t v[8];
            for (unsigned i = 0; i < 8; i++) {
                v[i] = 0x1000u * (i + 1) + (uint32_t)seed;
                CHECK_OK(wa_sim_set_arg(k.sim, i, &v[i], 4));
            }
            if (kr_bind(&k, 8, out, sizeof(out)) && kr_run(&k)) {
                static const unsigned want[] = { 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 3, 1 };
                for (unsigned i = 0; i < 17; i++)
                    CHECK_EQ_HEX(out[i], v[want[i]]);
            }
        }
        kr_close(&k);
    }
    ut_tb_free(&t);
}

/* s_buffer_load_dword: base from the descriptor, immediate or SGPR offset, and the
   range check against num_records (out of range reads 0). */
static void smem_buffer_load(void)
{
    ut_tb t = { 0 };
    head(&t, "gfx942", 64, 0);
    ut_tb_printf(&t, "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                  "  v_mov_b32 v1, 0\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_mov_b32 s12, s4\n"
                  "  s_and_b32 s13, s5, 0xffff\n"
                  "  s_mov_b32 s14, 16\n"
                  "  s_mov_b32 s15, 0x20000\n"
                  "  s_mov_b32 s20, 8\n"
                  "  s_mov_b32 s21, 20\n"
                  "  s_buffer_load_dword s8, s[12:15], 0\n"
                  "  s_buffer_load_dword s9, s[12:15], 12\n"
                  "  s_buffer_load_dword s10, s[12:15], 16\n"
                  "  s_buffer_load_dword s11, s[12:15], 0x100\n"
                  "  s_buffer_load_dword s16, s[12:15], s20\n"
                  "  s_buffer_load_dword s17, s[12:15], s21\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  v_mov_b32 v2, s8\n"
                  "  v_mov_b32 v3, s9\n"
                  "  v_mov_b32 v4, s10\n"
                  "  v_mov_b32 v5, s11\n"
                  "  v_mov_b32 v6, s16\n"
                  "  v_mov_b32 v7, s17\n"
                  "  global_store_dwordx4 v1, v[2:5], s[6:7]\n"
                  "  global_store_dwordx2 v1, v[6:7], s[6:7] offset:16\n"
                  "  s_endpgm\n.end_kernel\n");
    uint32_t in[128], out[6];
    for (unsigned i = 0; i < 128; i++)
        in[i] = 0xC0DE0000u + i;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        memset(out, 0xFF, sizeof(out));
        if (run_io(t.s, in, sizeof(in), out, sizeof(out), seed)) {
            CHECK_EQ_HEX(out[0], in[0]);
            CHECK_EQ_HEX(out[1], in[3]);
            CHECK_EQ_HEX(out[2], 0u);
            CHECK_EQ_HEX(out[3], 0u);
            CHECK_EQ_HEX(out[4], in[2]);
            CHECK_EQ_HEX(out[5], 0u);
        }
    }
    ut_tb_free(&t);
}

/* ---- MUBUF ---------------------------------------------------------------------------------- */

/* A buffer kernel: s[8:11] describes `in` and s[12:15] `out` (base from the
   kernarg pointers; stride, num_records and word 3 as given), s16 = soffset,
   v1 = lane * 4, v2 = lane * 16, v3 = lane. The in buffer holds bytes i * 7 + 3
   (as dwords, little-endian). */
typedef struct bufdesc {
    uint32_t stride, num_records, word3;
} bufdesc;

#define RAW(n) { 0, (n), 0x20000u }

static char *buf_kernel(const char *target, unsigned lds, bufdesc din, bufdesc dout, uint32_t soff, const char *ops)
{
    ut_tb t = { 0 };
    head(&t, target, 64, lds);
    ut_tb_printf(&t,
              "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
              "  v_lshlrev_b32 v1, 2, v0\n"
              "  v_lshlrev_b32 v2, 4, v0\n"
              "  v_mov_b32 v3, v0\n"
              "  s_waitcnt lgkmcnt(0)\n"
              "  s_mov_b32 s8, s4\n"
              "  s_and_b32 s9, s5, 0xffff\n"
              "  s_or_b32 s9, s9, 0x%x\n"
              "  s_mov_b32 s10, 0x%x\n"
              "  s_mov_b32 s11, 0x%x\n"
              "  s_mov_b32 s12, s6\n"
              "  s_and_b32 s13, s7, 0xffff\n"
              "  s_or_b32 s13, s13, 0x%x\n"
              "  s_mov_b32 s14, 0x%x\n"
              "  s_mov_b32 s15, 0x%x\n"
              "  s_mov_b32 s16, 0x%x\n"
              "%s"
              "  s_endpgm\n.end_kernel\n",
              din.stride << 16, din.num_records, din.word3, dout.stride << 16, dout.num_records, dout.word3,
              soff, ops);
    return t.s;
}

static uint8_t in_byte(unsigned i) { return (uint8_t)(i * 7u + 3u); }

static uint32_t in_dword(unsigned byte) /* 4 bytes at `byte` of the in buffer */
{
    return (uint32_t)in_byte(byte) | (uint32_t)in_byte(byte + 1) << 8 | (uint32_t)in_byte(byte + 2) << 16 |
           (uint32_t)in_byte(byte + 3) << 24;
}

#define IN_BYTES 8192u
#define OUT_DW 2048u

/* Runs a buffer kernel (several seeds), out prefilled with 0xEEEEEEEE. */
static int buf_run(const char *target, unsigned lds, bufdesc din, bufdesc dout, uint32_t soff, const char *ops,
                   uint32_t *out, uint64_t seed)
{
    static uint8_t in[IN_BYTES];
    for (unsigned i = 0; i < IN_BYTES; i++)
        in[i] = in_byte(i);
    for (unsigned i = 0; i < OUT_DW; i++)
        out[i] = 0xEEEEEEEEu;
    char *text = buf_kernel(target, lds, din, dout, soff, ops);
    int ok = run_io(text, in, sizeof(in), out, OUT_DW * 4, seed);
    free(text);
    return ok;
}

/* Raw buffers: offen, the instruction offset and the VGPR offset in the range
   check, soffset in the address but not in the check, per-dword checks of the
   wide loads straddling num_records. */
static void mubuf_raw_loads(void)
{
    uint32_t out[OUT_DW];
    for (uint64_t seed = 1; seed <= 3; seed++) {
        /* num_records 200; voffset lane*4; offset:8; soffset 16 */
        if (!buf_run("gfx942", 0, (bufdesc)RAW(200), (bufdesc)RAW(4096), 16,
                     "  buffer_load_dword v10, v1, s[8:11], s16 offen offset:8\n"
                     "  buffer_load_dwordx2 v[12:13], v1, s[8:11], s16 offen offset:8\n"
                     "  buffer_load_dwordx3 v[14:16], v1, s[8:11], 0 offen\n"
                     "  buffer_load_dwordx4 v[20:23], v1, s[8:11], 0 offen offset:4\n"
                     "  s_waitcnt vmcnt(0)\n"
                     "  buffer_store_dword v10, v2, s[12:15], 0 offen\n"
                     "  buffer_store_dwordx2 v[12:13], v2, s[12:15], 0 offen offset:1024\n"
                     "  buffer_store_dwordx3 v[14:16], v2, s[12:15], 0 offen offset:2048\n"
                     "  buffer_store_dwordx4 v[20:23], v2, s[12:15], 0 offen offset:3072\n",
                     out, seed))
            return;
        unsigned bad = 0;
        for (unsigned l = 0; l < NL; l++) {
            unsigned v = 4 * l;
            /* dword k at check offset v + off + 4k must end within 200 */
            uint32_t w1 = v + 8 + 4 <= 200 ? in_dword(16 + v + 8) : 0;
            bad += out[4 * l] != w1;
            for (unsigned k = 0; k < 2; k++)
                bad += out[256 + 4 * l + k] != (v + 8 + 4 * k + 4 <= 200 ? in_dword(16 + v + 8 + 4 * k) : 0);
            for (unsigned k = 0; k < 3; k++)
                bad += out[512 + 4 * l + k] != (v + 4 * k + 4 <= 200 ? in_dword(v + 4 * k) : 0);
            for (unsigned k = 0; k < 4; k++)
                bad += out[768 + 4 * l + k] != (v + 4 + 4 * k + 4 <= 200 ? in_dword(v + 4 + 4 * k) : 0);
            bad += out[4 * l + 1] != 0xEEEEEEEEu;
            bad += out[512 + 4 * l + 3] != 0xEEEEEEEEu;
        }
        CHECK_EQ_UINT(bad, 0);
        /* spelled out: lane 47 (voffset 188) ends exactly at 200, lane 48 does not;
           lane 47's x4 at 192 has dwords 0..1 in range, 2..3 out */
        CHECK_EQ_HEX(out[4 * 47], in_dword(16 + 188 + 8));
        CHECK_EQ_HEX(out[4 * 48], 0u);
        CHECK_EQ_HEX(out[768 + 4 * 47 + 1], in_dword(196));
        CHECK_EQ_HEX(out[768 + 4 * 47 + 2], 0u);
    }
}

/* Structured buffers: idxen with a stride (index against num_records, offset
   against the stride), idxen + offen (index in vaddr, offset in vaddr+1),
   add_tid_enable with and without idxen. */
static void mubuf_indexed_loads(void)
{
    uint32_t out[OUT_DW];
    /* stride 12, 40 records */
    bufdesc d = { 12, 40, 0x20000u };
    if (buf_run("gfx942", 0, d, (bufdesc)RAW(4096), 4,
                "  buffer_load_dword v10, v3, s[8:11], s16 idxen offset:4\n"
                "  v_and_b32 v4, 7, v3\n"              /* offsets 0..7 */
                "  v_lshlrev_b32 v4, 1, v4\n"          /* 0..14 */
                "  v_mov_b32 v5, v4\n"
                "  v_mov_b32 v4, v3\n"
                "  buffer_load_dword v11, v[4:5], s[8:11], 0 idxen offen\n"
                "  buffer_load_dwordx2 v[12:13], v3, s[8:11], 0 idxen offset:4\n"
                "  s_waitcnt vmcnt(0)\n"
                "  buffer_store_dword v10, v2, s[12:15], 0 offen\n"
                "  buffer_store_dword v11, v2, s[12:15], 0 offen offset:4\n"
                "  buffer_store_dwordx2 v[12:13], v2, s[12:15], 0 offen offset:8\n",
                out, 2)) {
        unsigned bad = 0;
        for (unsigned l = 0; l < NL; l++) {
            uint32_t w0 = l < 40 ? in_dword(4 + 12 * l + 4) : 0;
            unsigned o = 2 * (l & 7);
            uint32_t w1 = l < 40 && o < 12 ? in_dword(12 * l + o) : 0;
            uint32_t w2 = l < 40 ? in_dword(12 * l + 4) : 0;
            uint32_t w3 = l < 40 ? in_dword(12 * l + 8) : 0;
            if (out[4 * l] != w0 || out[4 * l + 1] != w1 || out[4 * l + 2] != w2 || out[4 * l + 3] != w3) {
                if (++bad <= 4)
                    CHECK_MSG(0, "lane %u: %08x %08x %08x %08x, want %08x %08x %08x %08x", l, out[4 * l],
                              out[4 * l + 1], out[4 * l + 2], out[4 * l + 3], w0, w1, w2, w3);
            }
        }
        CHECK_EQ_UINT(bad, 0);
    }
    /* add_tid_enable (word 3 bit 23): index = lane (+ vindex), stride 8, 50 records */
    bufdesc t = { 8, 50, 0x20000u | 1u << 23 };
    if (buf_run("gfx942", 0, t, (bufdesc)RAW(4096), 0,
                "  buffer_load_dword v10, off, s[8:11], 0 offset:4\n"
                "  v_mov_b32 v4, 3\n"
                "  buffer_load_dword v11, v4, s[8:11], 0 idxen\n"
                "  s_waitcnt vmcnt(0)\n"
                "  buffer_store_dword v10, v2, s[12:15], 0 offen\n"
                "  buffer_store_dword v11, v2, s[12:15], 0 offen offset:4\n",
                out, 3)) {
        unsigned bad = 0;
        for (unsigned l = 0; l < NL; l++) {
            bad += out[4 * l] != (l < 50 ? in_dword(8 * l + 4) : 0);
            bad += out[4 * l + 1] != (l + 3 < 50 ? in_dword(8 * (l + 3)) : 0);
        }
        CHECK_EQ_UINT(bad, 0);
    }
}

/* Byte and short loads (zero and sign extension), data format 0 (every access
   out of range), and stores of every width with the out-of-range ones dropped. */
static void mubuf_small_and_stores(void)
{
    uint32_t out[OUT_DW];
    if (buf_run("gfx942", 0, (bufdesc)RAW(4096), (bufdesc)RAW(4096), 0,
                "  v_mul_lo_u32 v4, v3, 3\n"
                "  buffer_load_ubyte v10, v4, s[8:11], 0 offen\n"
                "  buffer_load_sbyte v11, v4, s[8:11], 0 offen\n"
                "  buffer_load_ushort v12, v4, s[8:11], 0 offen offset:1\n"
                "  buffer_load_sshort v13, v4, s[8:11], 0 offen offset:1\n"
                "  s_waitcnt vmcnt(0)\n"
                "  buffer_store_dwordx4 v[10:13], v2, s[12:15], 0 offen\n",
                out, 4)) {
        unsigned bad = 0;
        for (unsigned l = 0; l < NL; l++) {
            unsigned o = 3 * l;
            uint32_t b = in_byte(o), h = in_byte(o + 1) | (uint32_t)in_byte(o + 2) << 8;
            bad += out[4 * l] != b;
            bad += out[4 * l + 1] != (b & 0x80u ? b | 0xFFFFFF00u : b);
            bad += out[4 * l + 2] != h;
            bad += out[4 * l + 3] != (h & 0x8000u ? h | 0xFFFF0000u : h);
        }
        CHECK_EQ_UINT(bad, 0);
    }
    /* data format 0: loads give 0, stores are dropped */
    bufdesc inval = { 0, 4096, 0 };
    if (buf_run("gfx942", 0, inval, (bufdesc){ 0, 4096, 0x7000u }, 0,
                "  buffer_load_dword v10, v1, s[8:11], 0 offen\n"
                "  s_waitcnt vmcnt(0)\n"
                "  global_store_dword v1, v10, s[6:7]\n"
                "  buffer_store_dword v3, v1, s[12:15], 0 offen offset:1024\n",
                out, 5)) {
        unsigned bad = 0;
        for (unsigned l = 0; l < NL; l++)
            bad += out[l] != 0 || out[256 + l] != 0xEEEEEEEEu;
        CHECK_EQ_UINT(bad, 0);
    }
    /* stores: every width, num_records 1000 on the out buffer; lane l stores at
       16 * l (+ the width's region), so the upper lanes fall out of range dword by
       dword */
    if (buf_run("gfx942", 0, (bufdesc)RAW(4096), (bufdesc)RAW(1000), 0,
                "  v_or_b32 v10, 0x11111100, v3\n"
                "  v_or_b32 v11, 0x22222200, v3\n"
                "  v_or_b32 v12, 0x33333300, v3\n"
                "  v_or_b32 v13, 0x44444400, v3\n"
                "  v_add_u32 v20, 0x200, v2\n"       /* x2 region at 512 + 16 l */
                "  buffer_store_byte v10, v2, s[12:15], 0 offen\n"
                "  buffer_store_short v11, v2, s[12:15], 0 offen offset:4\n"
                "  buffer_store_dword v12, v2, s[12:15], 0 offen offset:8\n"
                "  buffer_store_dwordx2 v[10:11], v20, s[12:15], 0 offen\n"
                "  buffer_store_dwordx3 v[10:12], v20, s[12:15], 0 offen offset:8\n"
                "  buffer_store_dwordx4 v[10:13], v2, s[12:15], 0 offen offset:2048\n",
                out, 6)) {
        /* per store dword: (region, offset within the lane's 16 bytes, bytes, value
           register); the x2 and x3 regions overlap the next lane's, and the x3 store
           comes after the x2 (stores land in order) */
        static const unsigned st[][4] = { { 0, 0, 1, 0 },    { 0, 4, 2, 1 },    { 0, 8, 4, 2 },
                                          { 512, 0, 4, 0 },  { 512, 4, 4, 1 },  { 512, 8, 4, 0 },
                                          { 512, 12, 4, 1 }, { 512, 16, 4, 2 }, { 2048, 0, 4, 0 },
                                          { 2048, 4, 4, 1 }, { 2048, 8, 4, 2 }, { 2048, 12, 4, 3 } };
        uint8_t want[OUT_DW * 4];
        memset(want, 0xEE, sizeof(want));
        for (unsigned s = 0; s < sizeof(st) / sizeof(st[0]); s++)
            for (unsigned l = 0; l < NL; l++) {
                unsigned off = st[s][0] + 16 * l + st[s][1];
                uint32_t val = 0x11111100u * (st[s][3] + 1) | l;
                if (off + st[s][2] <= 1000)
                    for (unsigned b = 0; b < st[s][2]; b++)
                        want[off + b] = (uint8_t)(val >> (8 * b));
            }
        CHECK(memcmp(out, want, sizeof(want)) == 0);
        if (memcmp(out, want, sizeof(want)) != 0)
            for (unsigned i = 0, shown = 0; i < sizeof(want) && shown < 8; i++)
                if (((uint8_t *)out)[i] != want[i]) {
                    CHECK_MSG(0, "out byte %u: 0x%02x, want 0x%02x", i, ((uint8_t *)out)[i], want[i]);
                    shown++;
                }
    }
}

/* Like buf_run with the out buffer's initial contents given. */
static int buf_run_init(const char *target, unsigned lds, bufdesc din, bufdesc dout, uint32_t soff,
                        const char *ops, uint32_t *out, const uint32_t *init, uint64_t seed)
{
    static uint8_t in[IN_BYTES];
    for (unsigned i = 0; i < IN_BYTES; i++)
        in[i] = in_byte(i);
    memcpy(out, init, OUT_DW * 4);
    char *text = buf_kernel(target, lds, din, dout, soff, ops);
    int ok = run_io(text, in, sizeof(in), out, OUT_DW * 4, seed);
    free(text);
    return ok;
}

/* buffer_atomic_add_f32: with glc the old value comes back, without it the data
   register is left alone; many lanes adding to one address all count; out of
   range an atomic does nothing (and returns 0). */
static void mubuf_atomic_add_f32(void)
{
    static uint32_t init[OUT_DW], out[OUT_DW];
    for (uint64_t seed = 1; seed <= 3; seed++) {
        for (unsigned i = 0; i < OUT_DW; i++)
            init[i] = bits(1.0f + (float)(i % 64) * 0.25f);
        if (!buf_run_init("gfx942", 0, (bufdesc)RAW(4096), (bufdesc)RAW(2048), 0,
                          "  v_cvt_f32_u32 v10, v3\n"
                          "  v_mul_f32 v10, 0.5, v10\n"           /* 0.5 * lane */
                          "  v_mov_b32 v11, v10\n"
                          "  v_mov_b32 v12, v10\n"
                          "  v_add_u32 v4, 0x800, v1\n"          /* beyond num_records */
                          "  buffer_atomic_add_f32 v10, v1, s[12:15], 0 offen glc\n"
                          "  buffer_atomic_add_f32 v11, v1, s[12:15], 0 offen offset:256\n"
                          "  buffer_atomic_add_f32 v11, off, s[12:15], 0 offset:512\n"
                          "  buffer_atomic_add_f32 v12, v4, s[12:15], 0 offen glc\n"
                          "  s_waitcnt vmcnt(0)\n"
                          "  global_store_dword v1, v10, s[6:7] offset:768\n"
                          "  global_store_dword v1, v11, s[6:7] offset:1024\n"
                          "  global_store_dword v1, v12, s[6:7] offset:1280\n",
                          out, init, seed))
            return;
        float sum = 1.0f;
        for (unsigned l = 0; l < NL; l++)
            sum += 0.5f * (float)l;
        unsigned bad = 0;
        for (unsigned l = 0; l < NL; l++) {
            float v = 0.5f * (float)l;
            bad += out[l] != bits(f32(init[l]) + v);
            bad += out[64 + l] != bits(f32(init[64 + l]) + v);
            bad += out[192 + l] != init[l];     /* old value */
            bad += out[256 + l] != bits(v);     /* no glc: unchanged */
            bad += out[320 + l] != 0;           /* out of range: 0 */
            bad += out[512 + l] != init[512 + l];
        }
        CHECK_EQ_UINT(bad, 0);
        CHECK_EQ_HEX(out[128], bits(sum)); /* init[128] = 1.0 plus every lane */
        CHECK_EQ_HEX(out[129], init[129]);
    }
}

/* gfx950 buffer_atomic_pk_add_bf16: two bf16 adds per dword, rounded to nearest
   even; the old value with glc. */
static void mubuf_atomic_pk_add_bf16(void)
{
    static uint32_t init[OUT_DW], out[OUT_DW];
    uint32_t add[NL];
    for (unsigned i = 0; i < OUT_DW; i++)
        init[i] = 0;
    for (unsigned l = 0; l < NL; l++) {
        /* bf16 values with close exponents: their f32 sum is exact */
        uint32_t x = (uint32_t)(0x3C00u + rnd() % 0x0400u) | (rnd() % 2u) << 15;
        uint32_t y = (uint32_t)(0x3C00u + rnd() % 0x0400u) | (rnd() % 2u) << 15;
        init[l] = x | y << 16;
        add[l] = (uint32_t)(0x3C00u + rnd() % 0x0400u) | (uint32_t)(0x3C00u + rnd() % 0x0400u) << 16;
    }
    init[300] = 0;
    /* the value added comes from the in buffer: put it there through the out
       buffer's second half (read back with global loads) */
    for (unsigned l = 0; l < NL; l++)
        init[512 + l] = add[l];
    if (!buf_run_init("gfx950", 0, (bufdesc)RAW(4096), (bufdesc)RAW(4096), 0,
                      "  global_load_dword v10, v1, s[6:7] offset:2048\n"
                      "  s_waitcnt vmcnt(0)\n"
                      "  v_mov_b32 v11, 0x40003f80\n"              /* (1.0, 2.0) */
                      "  buffer_atomic_pk_add_bf16 v10, v1, s[12:15], 0 offen glc\n"
                      "  buffer_atomic_pk_add_bf16 v11, off, s[12:15], 0 offset:1200\n"
                      "  s_waitcnt vmcnt(0)\n"
                      "  global_store_dword v1, v10, s[6:7] offset:768\n",
                      out, init, 1))
        return;
    unsigned bad = 0;
    for (unsigned l = 0; l < NL; l++) {
        uint32_t w = 0;
        for (unsigned h = 0; h < 2; h++) {
            float s = f32((init[l] >> (16 * h) & 0xFFFFu) << 16) + f32((add[l] >> (16 * h) & 0xFFFFu) << 16);
            w |= (uint32_t)ref_f32_to_bf16(bits(s)) << (16 * h);
        }
        if (out[l] != w && ++bad <= 4)
            CHECK_MSG(0, "lane %u: 0x%08x + 0x%08x = 0x%08x, want 0x%08x", l, init[l], add[l], out[l], w);
        bad += out[192 + l] != init[l];
    }
    CHECK_EQ_UINT(bad, 0);
    CHECK_EQ_HEX(out[300], 0x43004280u); /* 64 * (1.0, 2.0) = (64.0, 128.0) */
}

/* LDS-DMA: LDS address = M0 + instruction offset + lane * 4, the instruction
   offset also in the memory address (and soffset in it, outside the range
   check), small elements extended to 32 bits, out-of-range lanes writing 0; read
   back with ds_read after s_waitcnt vmcnt(0). */
static void mubuf_lds_dma(void)
{
    uint32_t out[OUT_DW];
    for (uint64_t seed = 1; seed <= 4; seed++) {
        if (!buf_run("gfx942", 4096, (bufdesc)RAW(200), (bufdesc)RAW(4096), 16,
                     "  s_mov_b32 m0, 0\n"
                     "  s_nop 0\n"
                     "  buffer_load_dword v1, s[8:11], 0 offen lds\n"
                     "  s_mov_b32 m0, 0x200\n"
                     "  s_nop 0\n"
                     "  buffer_load_dword v1, s[8:11], s16 offen offset:12 lds\n"
                     "  s_mov_b32 m0, 0x800\n"
                     "  s_nop 0\n"
                     "  buffer_load_ubyte v1, s[8:11], 0 offen lds\n"
                     "  s_mov_b32 m0, 0xa00\n"
                     "  s_nop 0\n"
                     "  buffer_load_sbyte v1, s[8:11], 0 offen offset:1 lds\n"
                     "  s_mov_b32 m0, 0xc00\n"
                     "  s_nop 0\n"
                     "  buffer_load_ushort v1, s[8:11], 0 offen lds\n"
                     "  s_mov_b32 m0, 0xe00\n"
                     "  s_nop 0\n"
                     "  buffer_load_sshort v1, s[8:11], 0 offen offset:2 lds\n"
                     "  s_waitcnt vmcnt(0)\n"
                     "  ds_read_b32 v10, v1\n"
                     "  ds_read_b32 v11, v1 offset:524\n"
                     "  ds_read_b32 v12, v1 offset:2048\n"
                     "  ds_read_b32 v13, v1 offset:2561\n"
                     "  ds_read_b32 v14, v1 offset:3072\n"
                     "  ds_read_b32 v15, v1 offset:3586\n"
                     "  s_waitcnt lgkmcnt(0)\n"
                     "  global_store_dwordx4 v2, v[10:13], s[6:7]\n"
                     "  global_store_dwordx2 v2, v[14:15], s[6:7] offset:1024\n",
                     out, seed))
            return;
        unsigned bad = 0;
        for (unsigned l = 0; l < NL; l++) {
            unsigned v = 4 * l;
            uint32_t b0 = in_byte(v + 1), h0 = in_dword(v) & 0xFFFFu, h1 = in_dword(v + 2) & 0xFFFFu;
            uint32_t want[6] = {
                v + 4 <= 200 ? in_dword(v) : 0,
                v + 12 + 4 <= 200 ? in_dword(16 + v + 12) : 0,
                v + 1 <= 200 ? in_byte(v) : 0,
                v + 1 + 1 <= 200 ? (b0 & 0x80u ? b0 | 0xFFFFFF00u : b0) : 0,
                v + 2 <= 200 ? h0 : 0,
                v + 2 + 2 <= 200 ? (h1 & 0x8000u ? h1 | 0xFFFF0000u : h1) : 0,
            };
            uint32_t got[6] = { out[4 * l], out[4 * l + 1], out[4 * l + 2], out[4 * l + 3], out[256 + 4 * l],
                                out[256 + 4 * l + 1] };
            for (unsigned k = 0; k < 6; k++)
                if (got[k] != want[k] && ++bad <= 4)
                    CHECK_MSG(0, "seed %u lane %u load %u: 0x%08x, want 0x%08x", (unsigned)seed, l, k, got[k], want[k]);
        }
        CHECK_EQ_UINT(bad, 0);
    }
}

/* gfx950 LDS-DMA of 12 and 16 bytes per lane: lanes 16 bytes apart in LDS. */
static void mubuf_lds_dma_wide(void)
{
    uint32_t out[OUT_DW];
    if (!buf_run("gfx950", 4096, (bufdesc)RAW(4096), (bufdesc)RAW(4096), 0,
                 "  s_mov_b32 m0, 0\n"
                 "  s_nop 0\n"
                 "  buffer_load_dwordx4 v2, s[8:11], 0 offen lds\n"
                 "  s_mov_b32 m0, 0x400\n"
                 "  s_nop 0\n"
                 "  buffer_load_dwordx3 v2, s[8:11], 0 offen offset:4 lds\n"
                 "  s_waitcnt vmcnt(0)\n"
                 "  ds_read_b128 v[10:13], v2\n"
                 "  ds_read_b128 v[14:17], v2 offset:1028\n"
                 "  s_waitcnt lgkmcnt(0)\n"
                 "  global_store_dwordx4 v2, v[10:13], s[6:7]\n"
                 "  global_store_dwordx3 v2, v[14:16], s[6:7] offset:1024\n",
                 out, 2))
        return;
    unsigned bad = 0;
    for (unsigned l = 0; l < NL; l++)
        for (unsigned k = 0; k < 4; k++) {
            bad += out[4 * l + k] != in_dword(16 * l + 4 * k);
            if (k < 3)
                bad += out[256 + 4 * l + k] != in_dword(16 * l + 4 + 4 * k);
        }
    CHECK_EQ_UINT(bad, 0);
}

/* ---- global ------------------------------------------------------------------------------------ */

/* global loads and stores of every width, with saddr (a 32-bit VGPR offset) and
   with saddr off (a 64-bit VGPR address), positive and negative instruction
   offsets, and partial EXEC. */
static void global_loads_stores(void)
{
    uint32_t out[OUT_DW];
    for (uint64_t seed = 1; seed <= 3; seed++) {
        if (!buf_run("gfx942", 0, (bufdesc)RAW(4096), (bufdesc)RAW(4096), 0,
                     "  v_add_u32 v4, 64, v2\n"              /* 16 l + 64 */
                     "  v_add_u32 v6, s4, v4\n"              /* 64-bit address of in + 16 l + 64 */
                     "  v_mov_b32 v7, s5\n"                   /* (the buffer bases have 32 zero low bits) */
                     "  v_add_u32 v8, s6, v4\n"
                     "  v_mov_b32 v9, s7\n"
                     "  global_load_dword v10, v4, s[4:5] offset:-64\n"
                     "  global_load_dwordx2 v[12:13], v4, s[4:5] offset:4\n"
                     "  global_load_dwordx3 v[14:16], v4, s[4:5] offset:-12\n"
                     "  global_load_dwordx4 v[20:23], v4, s[4:5] offset:4095\n"
                     "  global_load_dword v24, v[6:7], off offset:-61\n"
                     "  global_load_dwordx2 v[26:27], v[6:7], off\n"
                     "  global_load_dwordx3 v[28:30], v[6:7], off offset:2000\n"
                     "  global_load_dwordx4 v[32:35], v[6:7], off offset:-64\n"
                     "  s_waitcnt vmcnt(0)\n"
                     "  global_store_dword v4, v10, s[6:7] offset:-64\n"
                     "  global_store_dwordx2 v4, v[12:13], s[6:7] offset:960\n"   /* 1024 + 16 l */
                     "  global_store_dwordx3 v[8:9], v[14:16], off offset:1984\n" /* 2048 + 16 l */
                     "  global_store_dwordx4 v[8:9], v[20:23], off offset:3008\n" /* 3072 + 16 l */
                     "  s_mov_b64 exec, 0x5555\n"
                     "  global_store_dword v[8:9], v24, off offset:-60\n"          /* 4 + 16 l */
                     "  global_store_dwordx2 v4, v[26:27], s[6:7] offset:-56\n"    /* 8 + 16 l */
                     "  s_mov_b64 exec, -1\n"
                     "  global_store_dwordx3 v4, v[28:30], s[6:7] offset:1032\n"   /* 1096 + 16 l */
                     "  global_store_dwordx4 v[8:9], v[32:35], off offset:2048\n", /* 2112 + 16 l */
                     out, seed))
            return;
        uint32_t want[OUT_DW];
        for (unsigned i = 0; i < OUT_DW; i++)
            want[i] = 0xEEEEEEEEu;
        for (unsigned l = 0; l < NL; l++) {
            unsigned a = 16 * l + 64;
            want[4 * l] = in_dword(a - 64);
            for (unsigned k = 0; k < 2; k++)
                want[256 + 4 * l + k] = in_dword(a + 4 + 4 * k);
            for (unsigned k = 0; k < 3; k++)
                want[512 + 4 * l + k] = in_dword(a - 12 + 4 * k);
            for (unsigned k = 0; k < 4; k++)
                want[768 + 4 * l + k] = in_dword(a + 4095 + 4 * k);
            if (l < 16 && l % 2 == 0) {
                want[4 * l + 1] = in_dword(a - 61);
                want[4 * l + 2] = in_dword(a);
                want[4 * l + 3] = in_dword(a + 4);
            }
        }
        /* the x3 at 1096 + 16 l and the x4 at 2112 + 16 l overlap the stores above
           them; they come later */
        for (unsigned l = 0; l < NL; l++)
            for (unsigned k = 0; k < 3; k++)
                want[274 + 4 * l + k] = in_dword(16 * l + 64 + 2000 + 4 * k);
        for (unsigned l = 0; l < NL; l++)
            for (unsigned k = 0; k < 4; k++)
                want[528 + 4 * l + k] = in_dword(16 * l + 4 * k);
        unsigned bad = 0;
        for (unsigned i = 0; i < OUT_DW; i++)
            if (out[i] != want[i] && ++bad <= 6)
                CHECK_MSG(0, "seed %u out[%u] = 0x%08x, want 0x%08x", (unsigned)seed, i, out[i], want[i]);
        CHECK_EQ_UINT(bad, 0);
    }
}

/* ---- DS ---------------------------------------------------------------------------------------- */

/* Every DS write and read form against a byte model of LDS: b8/b16/b32/b64/b128
   writes, write2 with offsets in element units, u8/i8/u16/i16 (zero and sign
   extension), b32/b64/b128 reads, read2 with offsets in element units. */
static void ds_all_forms(void)
{
    static const char *ops =
        "  v_mul_lo_u32 v10, v3, s20\n"
        "  v_xor_b32 v11, s21, v10\n"
        "  v_add_u32 v12, s20, v11\n"
        "  v_sub_u32 v13, v10, v12\n"
        "  v_lshlrev_b32 v5, 3, v3\n"           /* 8 l */
        "  ds_write_b32 v1, v10\n"              /* 0 + 4 l */
        "  ds_write_b64 v5, v[10:11] offset:256\n"
        "  ds_write_b128 v2, v[10:13] offset:1024\n"
        "  ds_write_b8 v3, v11 offset:2048\n"
        "  v_lshlrev_b32 v6, 1, v3\n"
        "  ds_write_b16 v6, v12 offset:2112\n"
        "  v_add_u32 v7, 0xa00, v2\n"          /* 2560 + 16 l */
        "  ds_write2_b32 v7, v12, v13 offset0:1 offset1:3\n" /* 2564 + 16 l, 2572 + 16 l */
        "  v_lshlrev_b32 v8, 5, v3\n"
        "  v_add_u32 v8, 0x1000, v8\n"         /* 4096 + 32 l */
        "  ds_write2_b64 v8, v[10:11], v[12:13] offset0:1 offset1:3\n" /* +8, +24 */
        "  s_waitcnt lgkmcnt(0)\n"
        "  ds_read_b32 v20, v1 offset:2\n"
        "  ds_read_b64 v[22:23], v5 offset:256\n"
        "  ds_read_b128 v[24:27], v2 offset:1024\n"
        "  ds_read_u8 v28, v3 offset:2048\n"
        "  ds_read_i8 v29, v3 offset:2048\n"
        "  ds_read_u16 v30, v6 offset:2112\n"
        "  ds_read_i16 v31, v6 offset:2112\n"
        "  ds_read2_b32 v[32:33], v7 offset0:3 offset1:1\n"
        "  ds_read2_b64 v[36:39], v8 offset0:1 offset1:3\n"
        "  ds_read_u16 v34, v1 offset:1025\n"
        "  s_waitcnt lgkmcnt(0)\n"
        "  global_store_dwordx4 v2, v[20:23], s[6:7]\n"
        "  global_store_dwordx4 v2, v[24:27], s[6:7] offset:1024\n"
        "  global_store_dwordx4 v2, v[28:31], s[6:7] offset:2048\n"
        "  global_store_dwordx3 v2, v[32:34], s[6:7] offset:3072\n"
        "  v_add_u32 v40, 0x1000, v2\n"
        "  global_store_dwordx4 v40, v[36:39], s[6:7]\n";
    for (uint64_t seed = 1; seed <= 3; seed++) {
        uint32_t out[OUT_DW];
        ut_tb o = { 0 };
        ut_tb_printf(&o, "  s_mov_b32 s20, 0x9e3779b1\n  s_mov_b32 s21, 0x85ebca6b\n%s", ops);
        if (!buf_run("gfx942", 8192, (bufdesc)RAW(4096), (bufdesc)RAW(4096), 0, o.s, out, seed)) {
            ut_tb_free(&o);
            return;
        }
        ut_tb_free(&o);
        /* the model */
        static uint8_t lds[8192];
        memset(lds, 0, sizeof(lds));
        uint32_t v[NL][4];
        for (unsigned l = 0; l < NL; l++) {
            v[l][0] = l * 0x9E3779B1u;
            v[l][1] = 0x85EBCA6Bu ^ v[l][0];
            v[l][2] = 0x9E3779B1u + v[l][1];
            v[l][3] = v[l][0] - v[l][2];
        }
#define PUT(addr, val, n)                                        \
    do {                                                         \
        for (unsigned b_ = 0; b_ < (n); b_++)                    \
            lds[(addr) + b_] = (uint8_t)((val) >> (8 * b_));     \
    } while (0)
        for (unsigned l = 0; l < NL; l++)
            PUT(4 * l, v[l][0], 4);
        for (unsigned l = 0; l < NL; l++) {
            PUT(256 + 8 * l, v[l][0], 4);
            PUT(256 + 8 * l + 4, v[l][1], 4);
        }
        for (unsigned l = 0; l < NL; l++)
            for (unsigned k = 0; k < 4; k++)
                PUT(1024 + 16 * l + 4 * k, v[l][k], 4);
        for (unsigned l = 0; l < NL; l++)
            PUT(2048 + l, v[l][1], 1);
        for (unsigned l = 0; l < NL; l++)
            PUT(2112 + 2 * l, v[l][2], 2);
        for (unsigned l = 0; l < NL; l++) {
            PUT(2564 + 16 * l, v[l][2], 4);
            PUT(2572 + 16 * l, v[l][3], 4);
        }
        for (unsigned l = 0; l < NL; l++) {
            PUT(4096 + 32 * l + 8, v[l][0], 4);
            PUT(4096 + 32 * l + 12, v[l][1], 4);
            PUT(4096 + 32 * l + 24, v[l][2], 4);
            PUT(4096 + 32 * l + 28, v[l][3], 4);
        }
#undef PUT
#define GET(addr) ((uint32_t)lds[(addr)] | (uint32_t)lds[(addr) + 1] << 8 | (uint32_t)lds[(addr) + 2] << 16 | \
                   (uint32_t)lds[(addr) + 3] << 24)
        unsigned bad = 0;
        for (unsigned l = 0; l < NL; l++) {
            uint32_t b = lds[2048 + l], h = lds[2112 + 2 * l] | (uint32_t)lds[2113 + 2 * l] << 8;
            uint32_t want[19] = {
                GET(4 * l + 2), 0xEEEEEEEEu, GET(256 + 8 * l), GET(260 + 8 * l),
                GET(1024 + 16 * l), GET(1028 + 16 * l), GET(1032 + 16 * l), GET(1036 + 16 * l),
                b, b & 0x80u ? b | 0xFFFFFF00u : b, h, h & 0x8000u ? h | 0xFFFF0000u : h,
                GET(2572 + 16 * l), GET(2564 + 16 * l),
                lds[4 * l + 1025] | (uint32_t)lds[4 * l + 1026] << 8,
                GET(4104 + 32 * l), GET(4108 + 32 * l), GET(4120 + 32 * l), GET(4124 + 32 * l),
            };
            uint32_t got[19] = { out[4 * l], out[4 * l + 1], out[4 * l + 2], out[4 * l + 3],
                                 out[256 + 4 * l], out[257 + 4 * l], out[258 + 4 * l], out[259 + 4 * l],
                                 out[512 + 4 * l], out[513 + 4 * l], out[514 + 4 * l], out[515 + 4 * l],
                                 out[768 + 4 * l], out[769 + 4 * l], out[770 + 4 * l],
                                 out[1024 + 4 * l], out[1025 + 4 * l], out[1026 + 4 * l], out[1027 + 4 * l] };
            for (unsigned k = 0; k < 19; k++) {
                if (k == 1)
                    continue; /* the store of v21 (never loaded): not compared */
                if (got[k] != want[k] && ++bad <= 6)
                    CHECK_MSG(0, "seed %u lane %u value %u: 0x%08x, want 0x%08x", (unsigned)seed, l, k, got[k], want[k]);
            }
        }
#undef GET
        CHECK_EQ_UINT(bad, 0);
    }
}

/* LDS outside .lds_bytes: a fault that names the instruction normally; with
   WA_SIM_PERMISSIVE reads give 0 and writes are dropped. */
static void ds_out_of_range(void)
{
    ut_tb t = { 0 };
    head(&t, "gfx942", 64, 256);
    ut_tb_printf(&t, "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                  "  v_lshlrev_b32 v1, 2, v0\n"
                  "  v_mov_b32 v2, 7\n"
                  "  ds_write_b32 v1, v2\n"
                  "  ds_write_b32 v1, v2 offset:200\n"   /* lanes 14.. beyond 256 */
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  ds_read_b32 v3, v1 offset:192\n"    /* lanes 16.. beyond */
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  global_store_dword v1, v3, s[6:7]\n"
                  "  s_endpgm\n.end_kernel\n");
    uint32_t in[4] = { 0 }, out[64];
    kr k;
    if (kr_open(&k, t.s, NULL) && kr_bind(&k, 0, in, sizeof(in)) && kr_bind(&k, 1, out, sizeof(out))) {
        kr_run_expect(&k, WA_E_SIM_FAULT);
        CHECK_DIAG(k.ctx, WA_E_SIM_FAULT, "ds_write_b32|writes LDS bytes 256..259|beyond|256", 12, UT_ANY, UT_ANY);
    }
    kr_close(&k);
    wa_sim_options o = sim_opts(2);
    o.flags |= WA_SIM_PERMISSIVE;
    memset(out, 0xEE, sizeof(out));
    if (kr_open(&k, t.s, &o) && kr_bind(&k, 0, in, sizeof(in)) && kr_bind(&k, 1, out, sizeof(out)) && kr_run(&k)) {
        /* LDS bytes 192..255 hold 7 from lanes 48..63 of the first write and lanes
           0..13 of the second (200 + 4 l < 256) */
        for (unsigned l = 0; l < NL; l++) {
            unsigned a = 192 + 4 * l;
            CHECK_EQ_HEX(out[l], a + 4 <= 256 ? 7u : 0u);
        }
    }
    kr_close(&k);
    ut_tb_free(&t);
}

/* ---- defined bits and wa_sim_compare ------------------------------------------------------------- */

/* 1-based line of the first line containing `marker`. */
static unsigned line_of(const char *text, const char *marker)
{
    const char *p = strstr(text, marker);
    if (!p)
        return 0;
    unsigned line = 1;
    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}

/* A kernel storing: out[0..63] from LDS never written (undefined) or written
   with `a`, out[64..127] from a VGPR never written (undefined) or = `b`,
   out[128..191] = lane + `c`. */
static char *defbits_kernel(int lds_defined, int reg_defined, unsigned a, unsigned b, unsigned c)
{
    ut_tb t = { 0 };
    head(&t, "gfx942", 64, 256);
    ut_tb_printf(&t, "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                  "  v_lshlrev_b32 v1, 2, v0\n");
    if (lds_defined)
        ut_tb_printf(&t, "  v_mov_b32 v2, %u\n  ds_write_b32 v1, v2\n  s_waitcnt lgkmcnt(0)\n", a);
    if (reg_defined)
        ut_tb_printf(&t, "  v_mov_b32 v40, %u\n", b);
    ut_tb_printf(&t, "  ds_read_b32 v3, v1\n"
                  "  v_add_u32 v4, %u, v0\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  global_store_dword v1, v3, s[6:7]\n"
                  "  global_store_dword v1, v40, s[6:7] offset:256\n"
                  "  global_store_dword v1, v4, s[6:7] offset:512\n"
                  "  s_endpgm\n.end_kernel\n",
                  c);
    return t.s;
}

typedef struct dbrun {
    kr k;
    uint32_t in[4], out[192];
    wa_sim_stats st;
} dbrun;

static int db_start(dbrun *r, int lds_defined, int reg_defined, unsigned a, unsigned b, unsigned c, uint32_t fill)
{
    char *text = defbits_kernel(lds_defined, reg_defined, a, b, c);
    memset(r->in, 0, sizeof(r->in));
    for (unsigned i = 0; i < 192; i++)
        r->out[i] = fill;
    int ok = kr_open(&r->k, text, NULL) && kr_bind(&r->k, 0, r->in, sizeof(r->in)) &&
             kr_bind(&r->k, 1, r->out, sizeof(r->out)) && kr_run(&r->k) && CHECK_OK(wa_sim_get_stats(&r->st, r->k.sim));
    free(text);
    return ok;
}

/* Stored undefined bytes are counted; the reference run's undefined bytes do not
   count in wa_sim_compare, a defined byte that differs or is undefined in the
   other run does (and the notes say which). */
static void defined_bits_and_compare(void)
{
    dbrun ref, oth;
    /* undefined LDS and register: 2 * 64 * 4 undefined bytes stored */
    if (db_start(&ref, 0, 0, 0, 0, 5, 0x11111111u)) {
        CHECK_EQ_UINT(ref.st.undefined_bytes, 2 * 64 * 4);
        /* the same kernel with defined values where ref is undefined: equal */
        if (db_start(&oth, 1, 1, 123, 456, 5, 0x22222222u)) {
            unsigned diffs = 99;
            CHECK_OK(wa_sim_compare(&diffs, ref.k.sim, oth.k.sim));
            CHECK_EQ_UINT(diffs, 0);
            CHECK_EQ_UINT(oth.st.undefined_bytes, 0);
            CHECK_EQ_UINT(oth.out[0], 123);
            CHECK_EQ_UINT(oth.out[64], 456);
            /* the other way round: ref defined, other undefined: 512 bytes */
            CHECK_STATUS(wa_sim_compare(&diffs, oth.k.sim, ref.k.sim), WA_E_VALIDATE);
            CHECK_EQ_UINT(diffs, 512);
            CHECK_DIAG(oth.k.ctx, WA_E_VALIDATE, "differ in 512 bytes", UT_ANY, UT_ANY, UT_ANY);
            unsigned notes = wa_context_diag_count(oth.k.ctx);
            int saw_undef = 0, saw_more = 0;
            for (unsigned i = 0; i < notes; i++) {
                const char *m = wa_context_diag(oth.k.ctx, i)->message;
                saw_undef |= strstr(m, "undefined in the other run") != NULL;
                saw_more |= strstr(m, "504 more differing bytes") != NULL;
            }
            CHECK(saw_undef);
            CHECK(saw_more);
            kr_close(&oth.k);
        }
        /* a defined byte that differs: lane + 6 instead of lane + 5 */
        if (db_start(&oth, 0, 0, 0, 0, 6, 0x33333333u)) {
            unsigned diffs = 0;
            CHECK_STATUS(wa_sim_compare(&diffs, ref.k.sim, oth.k.sim), WA_E_VALIDATE);
            /* lane + 5 vs lane + 6 differ in the low byte of each of the 64 dwords
               (no carry into byte 1 below 250) */
            CHECK_EQ_UINT(diffs, 64);
            CHECK_DIAG(ref.k.ctx, WA_E_VALIDATE, "differ in 64 bytes", UT_ANY, UT_ANY, UT_ANY);
            kr_close(&oth.k);
        }
        /* NULL out_diffs is allowed; a run against itself is equal */
        CHECK_OK(wa_sim_compare(NULL, ref.k.sim, ref.k.sim));
        CHECK_STATUS(wa_sim_compare(NULL, NULL, ref.k.sim), WA_E_INVALID);
    }
    kr_close(&ref.k);
}

/* Values computed from undefined inputs stay undefined: an add with one undefined
   operand, a compare with an undefined lane feeding v_cndmask, a scalar op. With
   WA_SIM_UNDEF_ERRORS reading an undefined register is an error. */
static void defined_bits_propagate(void)
{
    ut_tb t = { 0 };
    head(&t, "gfx942", 64, 0);
    ut_tb_printf(&t, "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                  "  v_lshlrev_b32 v1, 2, v0\n"
                  "  v_add_u32 v2, v50, v0\n"           /* undefined */
                  "  v_mov_b32 v3, 1\n"
                  "  v_mul_lo_u32 v4, v3, v0\n"         /* defined */
                  "  s_add_u32 s20, s30, 1\n"           /* undefined */
                  "  v_mov_b32 v5, s20\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  global_store_dword v1, v2, s[6:7]\n"
                  "  global_store_dword v1, v4, s[6:7] offset:256\n"
                  "  global_store_dword v1, v5, s[6:7] offset:512\n"
                  "  s_endpgm\n.end_kernel\n");
    uint32_t in[4] = { 0 }, out[192];
    kr k;
    if (kr_open(&k, t.s, NULL) && kr_bind(&k, 0, in, sizeof(in)) && kr_bind(&k, 1, out, sizeof(out)) && kr_run(&k)) {
        wa_sim_stats st;
        CHECK_OK(wa_sim_get_stats(&st, k.sim));
        CHECK_EQ_UINT(st.undefined_bytes, 2 * 256);
        for (unsigned l = 0; l < NL; l++)
            CHECK_EQ_UINT(out[64 + l], l);
    }
    kr_close(&k);
    wa_sim_options o = sim_opts(1);
    o.flags |= WA_SIM_UNDEF_ERRORS;
    if (kr_open(&k, t.s, &o) && kr_bind(&k, 0, in, sizeof(in)) && kr_bind(&k, 1, out, sizeof(out))) {
        kr_run_expect(&k, WA_E_SIM_FAULT);
        CHECK_DIAG(k.ctx, WA_E_SIM_FAULT, "v50|no defined value", line_of(t.s, "v50"), UT_ANY, UT_ANY);
    }
    kr_close(&k);
    ut_tb_free(&t);
}

/* ---- statistics and determinism ------------------------------------------------------------------ */

/* Straight-line kernel over a grid of 3 workgroups of 2 waves: exact counts of
   workgroups, waves, instructions, memory operations and barriers; waits and
   cycles positive. */
static void stats_fields(void)
{
    ut_tb t = { 0 };
    ut_tb_printf(&t, ".kernel t\n  .target gfx942\n  .workgroup_size 128, 1, 1\n  .lds_bytes 512\n"
                  "  .abi kernarg_ptr, workgroup_id_x, workitem_id_x\n"
                  "  .arg in, global_buffer, offset:0, size:8, align:8\n"
                  "  .arg out, global_buffer, offset:8, size:8, align:8\n"
                  "  s_load_dwordx4 s[4:7], s[0:1], 0\n"   /* 1 memory op */
                  "  v_lshlrev_b32 v1, 2, v0\n"
                  "  ds_write_b32 v1, v0\n"                /* 2 */
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_barrier\n"
                  "  ds_read_b32 v2, v1\n"                 /* 3 */
                  "  s_lshl_b32 s8, s2, 9\n"
                  "  v_add_u32 v1, s8, v1\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  global_store_dword v1, v2, s[6:7]\n"  /* 4 */
                  "  s_endpgm\n.end_kernel\n");
    uint32_t in[4] = { 0 }, out[384];
    wa_sim_options o = sim_opts(9);
    o.grid[0] = 3;
    kr k;
    if (kr_open(&k, t.s, &o) && kr_bind(&k, 0, in, sizeof(in)) && kr_bind(&k, 1, out, sizeof(out)) && kr_run(&k)) {
        wa_sim_stats st;
        memset(&st, 0xFF, sizeof(st));
        CHECK_OK(wa_sim_get_stats(&st, k.sim));
        CHECK_EQ_UINT(st.version, WA_SIM_STATS_VERSION);
        CHECK_EQ_UINT(st.workgroups, 3);
        CHECK_EQ_UINT(st.waves, 6);
        CHECK_EQ_UINT(st.instructions, 6 * 11);
        CHECK_EQ_UINT(st.memory_ops, 6 * 4);
        CHECK_EQ_UINT(st.barriers, 3);
        CHECK(st.waits >= 6);            /* every wave waits for its s_load at least */
        CHECK(st.cycles > 11);
        CHECK_EQ_UINT(st.undefined_bytes, 0);
        CHECK_EQ_UINT(st.undefined_addresses, 0);
        for (unsigned i = 0; i < 384; i++)
            CHECK_EQ_UINT(out[i], i % 128);
        /* the simulator runs again, with the same results */
        memset(out, 0, sizeof(out));
        if (kr_run(&k))
            for (unsigned i = 0; i < 384; i++)
                CHECK_EQ_UINT(out[i], i % 128);
        CHECK_STATUS(wa_sim_get_stats(NULL, k.sim), WA_E_INVALID);
        CHECK_STATUS(wa_sim_get_stats(&st, NULL), WA_E_INVALID);
    }
    kr_close(&k);
    ut_tb_free(&t);
}

/* The same seed gives the same run (memory, cycles, waits); another seed gives
   other timing but the same memory for a correct kernel. */
static void determinism(void)
{
    ut_tb t = { 0 };
    ut_tb_printf(&t, ".kernel t\n  .target gfx942\n  .workgroup_size 256, 1, 1\n  .lds_bytes 1024\n"
                  "  .abi kernarg_ptr, workgroup_id_x, workitem_id_x\n"
                  "  .arg in, global_buffer, offset:0, size:8, align:8\n"
                  "  .arg out, global_buffer, offset:8, size:8, align:8\n"
                  "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                  "  v_lshlrev_b32 v1, 2, v0\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  global_load_dword v2, v1, s[4:5]\n"
                  "  global_load_dword v3, v1, s[4:5] offset:1024\n"
                  "  s_waitcnt vmcnt(1)\n"
                  "  ds_write_b32 v1, v2\n"
                  "  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                  "  s_barrier\n"
                  "  v_sub_u32 v4, 0x3fc, v1\n"           /* 1020 - 4 i: another wave's slot */
                  "  ds_read_b32 v5, v4\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  v_add_u32 v5, v5, v3\n"
                  "  s_lshl_b32 s8, s2, 10\n"
                  "  v_add_u32 v1, s8, v1\n"
                  "  global_store_dword v1, v5, s[6:7]\n"
                  "  s_endpgm\n.end_kernel\n");
    uint32_t in[512];
    for (unsigned i = 0; i < 512; i++)
        in[i] = rnd();
    static uint32_t out[5][512];
    kr k[5];
    wa_sim_stats st[5];
    uint64_t seeds[5] = { 11, 11, 12, 13, 14 };
    int ok = 1;
    for (unsigned r = 0; r < 5; r++) {
        wa_sim_options o = sim_opts(seeds[r]);
        o.grid[0] = 2;
        memset(out[r], 0, sizeof(out[r]));
        ok &= kr_open(&k[r], t.s, &o) && kr_bind(&k[r], 0, in, sizeof(in)) && kr_bind(&k[r], 1, out[r], sizeof(out[r])) &&
              kr_run(&k[r]) && CHECK_OK(wa_sim_get_stats(&st[r], k[r].sim));
    }
    if (ok) {
        for (unsigned i = 0; i < 512; i++)
            CHECK_EQ_HEX(out[0][i], in[255 - i % 256] + in[256 + i % 256]);
        CHECK_EQ_UINT(st[0].cycles, st[1].cycles);
        CHECK_EQ_UINT(st[0].waits, st[1].waits);
        CHECK(memcmp(out[0], out[1], sizeof(out[0])) == 0);
        int cycles_differ = 0;
        for (unsigned r = 2; r < 5; r++) {
            unsigned diffs = 1;
            CHECK_OK(wa_sim_compare(&diffs, k[0].sim, k[r].sim));
            CHECK_EQ_UINT(diffs, 0);
            cycles_differ |= st[r].cycles != st[0].cycles;
        }
        CHECK(cycles_differ);
    }
    for (unsigned r = 0; r < 5; r++)
        kr_close(&k[r]);
    ut_tb_free(&t);
}

/* ---- arguments and ABI inputs ----------------------------------------------------------------------- */

/* By-value arguments of 4 and 8 bytes, the hidden arguments (block counts, group
   sizes, grid dimensions), buffer addresses in the kernarg segment. */
static void args_and_hidden(void)
{
    static const char *text =
        ".kernel t\n  .target gfx942\n  .workgroup_size 64, 2, 1\n"
        "  .abi kernarg_ptr, workgroup_id_x, workgroup_id_y, workitem_id_x\n"
        "  .arg out, global_buffer, offset:0, size:8, align:8\n"
        "  .arg x, by_value, offset:8, size:4, align:4\n"
        "  .arg y, by_value, offset:16, size:8, align:8\n"
        "  .arg -, hidden_block_count_x, offset:24, size:4, align:4\n"
        "  .arg -, hidden_block_count_y, offset:28, size:4, align:4\n"
        "  .arg -, hidden_block_count_z, offset:32, size:4, align:4\n"
        "  .arg -, hidden_group_size_x, offset:36, size:2, align:2\n"
        "  .arg -, hidden_group_size_y, offset:38, size:2, align:2\n"
        "  .arg -, hidden_group_size_z, offset:40, size:2, align:2\n"
        "  .arg -, hidden_grid_dims, offset:42, size:2, align:2\n"
        "  s_load_dwordx8 s[4:11], s[0:1], 0\n"
        "  s_load_dwordx4 s[12:15], s[0:1], 32\n"
        "  v_mov_b32 v1, 0\n"
        "  s_waitcnt lgkmcnt(0)\n"
        "  s_or_b32 s16, s2, s3\n"                 /* only workgroup (0,0) stores */
        "  s_cmp_eq_u32 s16, 0\n"
        "  s_cbranch_scc0 done\n"
        "  v_mov_b32 v2, s6\n"
        "  v_mov_b32 v3, s8\n"
        "  v_mov_b32 v4, s9\n"
        "  v_mov_b32 v5, s10\n"
        "  v_mov_b32 v6, s11\n"
        "  v_mov_b32 v7, s12\n"
        "  v_mov_b32 v8, s13\n"
        "  v_mov_b32 v9, s14\n"
        "  v_mov_b32 v10, s4\n"
        "  v_mov_b32 v11, s5\n"
        "  global_store_dwordx4 v1, v[2:5], s[4:5]\n"
        "  global_store_dwordx4 v1, v[6:9], s[4:5] offset:16\n"
        "  global_store_dwordx2 v1, v[10:11], s[4:5] offset:32\n"
        "done:\n"
        "  s_endpgm\n.end_kernel\n";
    wa_sim_options o = sim_opts(4);
    o.grid[0] = 5;
    o.grid[1] = 3;
    kr k;
    uint32_t out[10];
    memset(out, 0, sizeof(out));
    if (!kr_open(&k, text, &o))
        return;
    uint32_t x = 0xA1B2C3D4u;
    uint64_t y = 0x0102030405060708ull;
    CHECK_EQ_HEX(wa_sim_buffer_address(k.sim, 0), 0); /* not bound yet */
    if (kr_bind(&k, 0, out, sizeof(out)) && CHECK_OK(wa_sim_set_arg(k.sim, 1, &x, 4)) &&
        CHECK_OK(wa_sim_set_arg(k.sim, 2, &y, 8)) && kr_run(&k)) {
        uint64_t addr = wa_sim_buffer_address(k.sim, 0);
        CHECK(addr != 0);
        CHECK_EQ_HEX(wa_sim_buffer_address(k.sim, 1), 0); /* by value */
        CHECK_EQ_HEX(wa_sim_buffer_address(k.sim, 3), 0); /* hidden */
        CHECK_EQ_HEX(wa_sim_buffer_address(k.sim, 99), 0);
        CHECK_EQ_HEX(out[0], x);
        CHECK_EQ_HEX(out[1] | (uint64_t)out[2] << 32, y);
        CHECK_EQ_UINT(out[3], 5);           /* block count x */
        CHECK_EQ_UINT(out[4], 3);           /* y */
        CHECK_EQ_UINT(out[5], 1);           /* z */
        CHECK_EQ_HEX(out[6], 64u | 2u << 16); /* group size x, y */
        CHECK_EQ_HEX(out[7], 1u | 2u << 16);  /* group size z, grid dims 2 */
        CHECK_EQ_HEX(out[8] | (uint64_t)out[9] << 32, addr);
    }
    kr_close(&k);
}

/* Workgroup ids over a 3 x 2 x 2 grid, and the packed work-item ids in v0 for 2D
   and 3D workgroups (one, two and a partial second wave). s[0:1] is the kernarg
   pointer, s2..s4 the workgroup ids. */
static void abi_ids(void)
{
    static const unsigned wgs[][3] = { { 8, 8, 1 }, { 4, 4, 4 }, { 8, 4, 3 }, { 5, 3, 2 } };
    for (unsigned w = 0; w < 4; w++) {
        unsigned items = wgs[w][0] * wgs[w][1] * wgs[w][2];
        ut_tb t = { 0 };
        ut_tb_printf(&t, ".kernel t\n  .target gfx942\n  .workgroup_size %u, %u, %u\n"
                      "  .abi kernarg_ptr, workgroup_id_x, workgroup_id_y, workgroup_id_z, workitem_id_x, "
                      "workitem_id_y, workitem_id_z\n"
                      "  .arg out, global_buffer, offset:0, size:8, align:8\n"
                      "  .arg ids, global_buffer, offset:8, size:8, align:8\n"
                      "  s_load_dwordx4 s[12:15], s[0:1], 0\n"
                      "  s_mul_i32 s9, s4, 2\n"            /* flat workgroup: x + 3 (y + 2 z) */
                      "  s_add_u32 s9, s9, s3\n"
                      "  s_mul_i32 s9, s9, 3\n"
                      "  s_add_u32 s9, s9, s2\n"
                      "  v_bfe_u32 v1, v0, 0, 10\n"        /* the work-item's flat index */
                      "  v_bfe_u32 v2, v0, 10, 10\n"
                      "  v_bfe_u32 v3, v0, 20, 10\n"
                      "  v_mov_b32 v4, %u\n"
                      "  v_mul_lo_u32 v3, v3, v4\n"
                      "  v_add_u32 v2, v2, v3\n"
                      "  v_mov_b32 v4, %u\n"
                      "  v_mul_lo_u32 v2, v2, v4\n"
                      "  v_add_u32 v1, v1, v2\n"           /* x + X (y + Y z) */
                      "  s_mul_i32 s10, s9, %u\n"          /* + workgroup * items */
                      "  v_add_u32 v1, s10, v1\n"
                      "  v_lshlrev_b32 v1, 2, v1\n"
                      "  s_waitcnt lgkmcnt(0)\n"
                      "  global_store_dword v1, v0, s[12:13]\n"
                      "  s_lshl_b32 s9, s9, 4\n"
                      "  v_mov_b32 v5, s9\n"
                      "  v_mov_b32 v6, s2\n"
                      "  v_mov_b32 v7, s3\n"
                      "  v_mov_b32 v8, s4\n"
                      "  v_mov_b32 v9, 1\n"
                      "  global_store_dwordx4 v5, v[6:9], s[14:15]\n"
                      "  s_endpgm\n.end_kernel\n",
                  wgs[w][0], wgs[w][1], wgs[w][2], wgs[w][1], wgs[w][0], items);
        uint32_t *out = calloc(12 * items, 4), ids[48];
        if (!out)
            abort();
        memset(ids, 0, sizeof(ids));
        wa_sim_options o = sim_opts(w + 1);
        o.grid[0] = 3;
        o.grid[1] = 2;
        o.grid[2] = 2;
        kr k;
        if (kr_open(&k, t.s, &o) && kr_bind(&k, 0, out, 12 * items * 4) && kr_bind(&k, 1, ids, sizeof(ids)) &&
            kr_run(&k)) {
            unsigned bad = 0;
            for (unsigned g = 0; g < 12; g++) {
                unsigned gx = g % 3, gy = (g / 3) % 2, gz = g / 6;
                bad += ids[4 * g] != gx || ids[4 * g + 1] != gy || ids[4 * g + 2] != gz || ids[4 * g + 3] != 1;
                for (unsigned i = 0; i < items; i++) {
                    unsigned x = i % wgs[w][0], y = (i / wgs[w][0]) % wgs[w][1], z = i / (wgs[w][0] * wgs[w][1]);
                    uint32_t want = x | y << 10 | z << 20;
                    if (out[g * items + i] != want && ++bad <= 4)
                        CHECK_MSG(0, "wg %u item %u: v0 = 0x%08x, want 0x%08x", g, i, out[g * items + i], want);
                }
            }
            CHECK_EQ_UINT(bad, 0);
            wa_sim_stats st;
            CHECK_OK(wa_sim_get_stats(&st, k.sim));
            CHECK_EQ_UINT(st.workgroups, 12);
            CHECK_EQ_UINT(st.waves, 12 * ((items + 63) / 64));
        }
        kr_close(&k);
        free(out);
        ut_tb_free(&t);
    }
}

/* ---- error paths ---------------------------------------------------------------------------------------- */

/* Bad option structs, bad arguments to the argument functions, and a by-value
   argument that was never set. */
static void errors_api(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char *text =
        ".kernel t\n  .target gfx942\n  .abi kernarg_ptr, workitem_id_x\n"
        "  .arg out, global_buffer, offset:0, size:8, align:8\n"
        "  .arg n, by_value, offset:8, size:4, align:4\n"
        "  s_load_dwordx2 s[4:5], s[0:1], 0\n"
        "  s_load_dword s6, s[0:1], 8\n"
        "  s_waitcnt lgkmcnt(0)\n"
        "  s_endpgm\n.end_kernel\n";
    wa_program *prog = ut_parse(ctx, text);
    if (!prog) {
        wa_context_destroy(ctx);
        return;
    }
    wa_sim *sim = (wa_sim *)1;
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.version = 0;
    CHECK_STATUS(wa_sim_create(&sim, prog, &o), WA_E_INVALID);
    CHECK(sim == NULL);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "unknown wa_sim_options version 0", UT_ANY, UT_ANY, UT_ANY);
    o.version = WA_SIM_OPTIONS_VERSION + 1;
    CHECK_STATUS(wa_sim_create(&sim, prog, &o), WA_E_INVALID);
    o.version = WA_SIM_OPTIONS_VERSION;
    o.flags = WA_SIM_TIMING | 0x100u;
    CHECK_STATUS(wa_sim_create(&sim, prog, &o), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "unknown wa_sim_options flags 0x100", UT_ANY, UT_ANY, UT_ANY);
    o.flags = WA_SIM_TIMING;
    o.workgroup_size[0] = 2048;
    CHECK_STATUS(wa_sim_create(&sim, prog, &o), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "at most 1024", UT_ANY, UT_ANY, UT_ANY);
    o.workgroup_size[0] = 0;
    CHECK_STATUS(wa_sim_create(NULL, prog, &o), WA_E_INVALID);
    CHECK_STATUS(wa_sim_create(&sim, NULL, &o), WA_E_INVALID);

    REQUIRE_OK(wa_sim_create(&sim, prog, &o));
    uint32_t v = 5, buf[4];
    uint64_t big = 1;
    CHECK_STATUS(wa_sim_set_arg(sim, 2, &v, 4), WA_E_NOT_FOUND);
    CHECK_LAST_DIAG(ctx, WA_E_NOT_FOUND, "wa_sim_set_arg|has 2 arguments, no argument 2", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_sim_bind_buffer(sim, 9, buf, sizeof(buf)), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_sim_set_arg(sim, 1, &big, 8), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "argument 1 has 4 bytes, not 8", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_sim_set_arg(sim, 0, &big, 8), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not passed by value", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_sim_bind_buffer(sim, 1, buf, sizeof(buf)), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not a global buffer", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_sim_set_arg(sim, 1, NULL, 4), WA_E_INVALID);
    CHECK_STATUS(wa_sim_bind_buffer(sim, 0, NULL, 16), WA_E_INVALID);
    CHECK_STATUS(wa_sim_set_arg(NULL, 1, &v, 4), WA_E_INVALID);
    CHECK_STATUS(wa_sim_run(NULL), WA_E_INVALID);
    /* the by-value argument was never set */
    CHECK_OK(wa_sim_bind_buffer(sim, 0, buf, sizeof(buf)));
    CHECK_STATUS(wa_sim_run(sim), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "argument 1 (by value) has no value", UT_ANY, UT_ANY, UT_ANY);
    /* once set, the run works */
    CHECK_OK(wa_sim_set_arg(sim, 1, &v, 4));
    CHECK_OK(wa_sim_run(sim));
    wa_sim_destroy(sim);
    wa_sim_destroy(NULL);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Runs `text` (buffers `out` as argument 0 and, if `two`, argument 1 unbound)
   and expects `st`; returns the kr for diagnostics checks (closed by caller). */
static int run_expect(kr *k, const char *text, const wa_sim_options *o, wa_status st)
{
    static uint32_t out[256];
    if (!kr_open(k, text, o) || !kr_bind(k, 0, out, sizeof(out)))
        return 0;
    return kr_run_expect(k, st);
}

#define ERR_HEAD                                                                      \
    ".kernel t\n  .target gfx942\n  .workgroup_size 64, 1, 1\n  .lds_bytes 1024\n" \
    "  .abi kernarg_ptr, workitem_id_x\n"                                             \
    "  .arg out, global_buffer, offset:0, size:8, align:8\n"                          \
    "  .arg other, global_buffer, offset:8, size:8, align:8\n"                        \
    "  s_load_dwordx4 s[4:7], s[0:1], 0\n"                                            \
    "  v_lshlrev_b32 v1, 2, v0\n"                                                     \
    "  s_waitcnt lgkmcnt(0)\n"

/* Faults with their messages, source lines and tags: a store to an unbound
   buffer, running off the end, the instruction limit. */
static void errors_faults(void)
{
    kr k;
    const char *t1 = ERR_HEAD "  v_mov_b32 v2, 1\n"
                              "  global_store_dword v1, v2, s[6:7] ; @I40 to the unbound buffer\n"
                              "  s_endpgm\n.end_kernel\n";
    if (run_expect(&k, t1, NULL, WA_E_SIM_FAULT))
        CHECK_DIAG(k.ctx, WA_E_SIM_FAULT, "global_store_dword|writes 4 bytes at address 0x|outside the kernarg segment",
                   line_of(t1, "@I40"), UT_ANY, 40);
    kr_close(&k);
    const char *t1b = ERR_HEAD "  global_load_dword v2, v1, s[6:7] ; @I41\n"
                               "  s_waitcnt vmcnt(0)\n"
                               "  s_endpgm\n.end_kernel\n";
    if (run_expect(&k, t1b, NULL, WA_E_SIM_FAULT))
        CHECK_DIAG(k.ctx, WA_E_SIM_FAULT, "global_load_dword|reads 4 bytes", line_of(t1b, "@I41"), UT_ANY, 41);
    kr_close(&k);
    /* a load from the kernarg segment past its end (and its 256 bytes of slack) */
    const char *t1c = ERR_HEAD "  s_load_dword s8, s[0:1], 0x1000 ; @I42\n"
                               "  s_waitcnt lgkmcnt(0)\n"
                               "  s_endpgm\n.end_kernel\n";
    if (run_expect(&k, t1c, NULL, WA_E_SIM_FAULT))
        CHECK_DIAG(k.ctx, WA_E_SIM_FAULT, "s_load_dword|outside", line_of(t1c, "@I42"), UT_ANY, 42);
    kr_close(&k);
    /* the validator wants s_endpgm or s_branch last; a branch to a label after
       the last instruction runs off the end */
    const char *t2 = ERR_HEAD "  s_branch tail ; @I43\n  s_endpgm\ntail:\n.end_kernel\n";
    if (run_expect(&k, t2, NULL, WA_E_SIM_FAULT))
        CHECK_DIAG(k.ctx, WA_E_SIM_FAULT, "ran past the end|no s_endpgm", UT_ANY, UT_ANY, UT_ANY);
    kr_close(&k);
    const char *t3 = ERR_HEAD "spin:\n"
                              "  s_add_u32 s8, s8, 1\n"
                              "  s_branch spin\n"
                              "  s_endpgm\n.end_kernel\n";
    wa_sim_options o = sim_opts(1);
    o.max_instructions = 1000;
    if (run_expect(&k, t3, &o, WA_E_SIM_LIMIT))
        CHECK_DIAG(k.ctx, WA_E_SIM_LIMIT, "executed 1000 instructions without ending", UT_ANY, UT_ANY, UT_ANY);
    kr_close(&k);
    /* the limit counts the instructions of a wave: 5 run (s_endpgm included) */
    const char *t4 = ERR_HEAD "  s_nop 0\n  s_endpgm\n.end_kernel\n";
    o.max_instructions = 5;
    run_expect(&k, t4, &o, WA_OK);
    kr_close(&k);
    o.max_instructions = 4;
    if (run_expect(&k, t4, &o, WA_E_SIM_LIMIT))
        CHECK_DIAG(k.ctx, WA_E_SIM_LIMIT, "executed 4 instructions", line_of(t4, "s_endpgm"), UT_ANY, UT_ANY);
    kr_close(&k);
}

/* Missing waits: a register read (or overwritten) while a VMEM, SMEM or DS load
   into it is in flight, with the consumer's line and tag and the load's tag in
   the message. Deterministic: every latency exceeds one instruction. */
static void errors_missing_waits(void)
{
    static const struct {
        const char *body, *words;
    } t[] = {
        { "  global_load_dword v2, v1, s[4:5] ; @I30\n"
          "  v_add_u32 v3, v2, v1 ; @I31\n",
          "reads v2 before the load into it (@I30) has completed|missing s_waitcnt" },
        { "  s_load_dword s8, s[0:1], 4 ; @I30\n"
          "  s_add_u32 s9, s8, 1 ; @I31\n",
          "reads s8 before the load into it (@I30)|missing s_waitcnt" },
        { "  ds_read_b32 v2, v1 ; @I30\n"
          "  v_mov_b32 v3, v2 ; @I31\n",
          "reads v2 before the load into it (@I30)|missing s_waitcnt" },
        { "  global_load_dwordx2 v[2:3], v1, s[4:5] ; @I30\n"
          "  v_mov_b32 v3, 0 ; @I31\n",
          "overwrites v3 while the load into it (@I30) is still in flight" },
        { "  buffer_load_dword v2, off, s[8:11], 0 ; @I30\n"
          "  s_waitcnt vmcnt(1)\n"
          "  v_mov_b32 v4, v2 ; @I31\n",
          "reads v2 before the load into it (@I30)" },
        /* an SMEM load into a register another SMEM load still writes: they may
           land in either order */
        { "  s_load_dword s8, s[0:1], 0 ; @I30\n"
          "  s_load_dword s8, s[0:1], 4 ; @I31\n",
          "loads into s8 while an earlier load into it (@I30) may still land later" },
    };
    for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        ut_tb text = { 0 };
        ut_tb_printf(&text, ERR_HEAD "  v_mov_b32 v2, 0\n  ds_write_b32 v1, v2\n  s_waitcnt lgkmcnt(0)\n"
                                  "  s_mov_b32 s8, s4\n  s_mov_b32 s9, s5\n  s_mov_b32 s10, 256\n"
                                  "  s_mov_b32 s11, 0x20000\n%s  s_waitcnt vmcnt(0) lgkmcnt(0)\n  s_endpgm\n.end_kernel\n",
                  t[i].body);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            kr k;
            wa_sim_options o = sim_opts(seed);
            ut_context("case %u seed %u", i, (unsigned)seed);
            if (run_expect(&k, text.s, &o, WA_E_SIM_WAIT))
                CHECK_DIAG(k.ctx, WA_E_SIM_WAIT, t[i].words, line_of(text.s, "@I31"), UT_ANY, 31);
            kr_close(&k);
        }
        ut_tb_free(&text);
    }
    ut_context("%s", "");
}

/* LDS written by another wave and read after s_barrier: without s_waitcnt
   lgkmcnt(0) before the barrier some seeds catch the write in flight; with it,
   no seed does. Likewise LDS-DMA data read without s_waitcnt vmcnt. */
static void errors_lds_races(void)
{
    static const char *before =
        ".kernel t\n  .target gfx942\n  .workgroup_size 128, 1, 1\n  .lds_bytes 512\n"
        "  .abi kernarg_ptr, workitem_id_x\n"
        "  .arg out, global_buffer, offset:0, size:8, align:8\n"
        "  .arg other, global_buffer, offset:8, size:8, align:8\n"
        "  s_load_dwordx2 s[4:5], s[0:1], 0\n"
        "  v_lshlrev_b32 v1, 2, v0\n"
        "  v_add_u32 v3, 0x100, v0\n"
        "  ds_write_b32 v1, v3 ; @I20\n";
    static const char *after =
        "  s_barrier\n"
        "  v_sub_u32 v2, 0x1fc, v1\n"          /* 508 - 4 i: the other wave's slot */
        "  ds_read_b32 v4, v2 ; @I21\n"
        "  s_waitcnt lgkmcnt(0)\n"
        "  global_store_dword v1, v4, s[4:5]\n"
        "  s_endpgm\n.end_kernel\n";
    unsigned failed = 0;
    for (int waited = 0; waited < 2; waited++) {
        ut_tb text = { 0 };
        ut_tb_printf(&text, "%s%s%s", before, waited ? "  s_waitcnt lgkmcnt(0)\n" : "", after);
        for (uint64_t seed = 1; seed <= 12; seed++) {
            kr k;
            static uint32_t out[128];
            wa_sim_options o = sim_opts(seed);
            memset(out, 0, sizeof(out));
            if (!kr_open(&k, text.s, &o) || !kr_bind(&k, 0, out, sizeof(out))) {
                kr_close(&k);
                continue;
            }
            wa_status st = wa_sim_run(k.sim);
            if (waited) {
                CHECK_MSG(st == WA_OK, "seed %u: %d%s", (unsigned)seed, (int)st, ut_diags_text(k.ctx));
            } else if (st != WA_OK) {
                failed++;
                CHECK_EQ_INT(st, WA_E_SIM_WAIT);
                CHECK_DIAG(k.ctx, WA_E_SIM_WAIT, "reads LDS bytes|ds_write_b32 @I20|has not finished writing|before s_barrier",
                           line_of(text.s, "@I21"), UT_ANY, 21);
            }
            if (st == WA_OK)
                for (unsigned i = 0; i < 128; i++)
                    CHECK_EQ_UINT(out[i], 0x100 + 127 - i);
            kr_close(&k);
        }
        ut_tb_free(&text);
    }
    CHECK_MSG(failed > 0, "no seed caught the missing s_waitcnt before s_barrier");

    /* LDS-DMA then ds_read without vmcnt */
    failed = 0;
    for (int waited = 0; waited < 2; waited++) {
        ut_tb text = { 0 };
        ut_tb_printf(&text, ERR_HEAD "  s_mov_b32 s8, s4\n  s_mov_b32 s9, s5\n  s_mov_b32 s10, 256\n"
                                  "  s_mov_b32 s11, 0x20000\n  s_mov_b32 m0, 0\n  s_nop 0\n"
                                  "  buffer_load_dword v1, s[8:11], 0 offen lds ; @I50\n%s"
                                  "  ds_read_b32 v2, v1 ; @I51\n"
                                  "  s_waitcnt lgkmcnt(0)\n"
                                  "  global_store_dword v1, v2, s[4:5] offset:512\n"
                                  "  s_endpgm\n.end_kernel\n",
                  waited ? "  s_waitcnt vmcnt(0)\n" : "");
        for (uint64_t seed = 1; seed <= 8; seed++) {
            kr k;
            static uint32_t out[256];
            wa_sim_options o = sim_opts(seed);
            for (unsigned i = 0; i < 256; i++)
                out[i] = i * 0x01010101u;
            if (!kr_open(&k, text.s, &o) || !kr_bind(&k, 0, out, sizeof(out))) {
                kr_close(&k);
                continue;
            }
            wa_status st = wa_sim_run(k.sim);
            if (waited) {
                CHECK_MSG(st == WA_OK, "seed %u: %d%s", (unsigned)seed, (int)st, ut_diags_text(k.ctx));
            } else if (st != WA_OK) {
                failed++;
                CHECK_EQ_INT(st, WA_E_SIM_WAIT);
                CHECK_DIAG(k.ctx, WA_E_SIM_WAIT, "buffer_load_dword @I50|has not finished writing|vmcnt",
                           line_of(text.s, "@I51"), UT_ANY, 51);
            }
            if (st == WA_OK)
                for (unsigned i = 0; i < 64; i++)
                    CHECK_EQ_HEX(out[128 + i], i * 0x01010101u);
            kr_close(&k);
        }
        ut_tb_free(&text);
    }
    CHECK_MSG(failed > 0, "no seed caught the missing s_waitcnt vmcnt after LDS-DMA");
}

/* ---- s_waitcnt counting ----------------------------------------------------------------------------- */

/* vmcnt(N) and lgkmcnt(N) with in-order queues: the older loads are done; stores
   count in vmcnt; SMEM completes in any order, so lgkmcnt(1) after two s_loads
   guarantees neither (some seeds catch it, some do not). */
static void waitcnt_counts(void)
{
    const char *ok_text = ERR_HEAD "  global_load_dword v2, v1, s[4:5]\n"
                                   "  global_load_dword v3, v1, s[4:5] offset:256\n"
                                   "  s_waitcnt vmcnt(1)\n"
                                   "  v_mov_b32 v4, v2\n"
                                   "  ds_write_b32 v1, v4\n"
                                   "  ds_read_b32 v5, v1\n"
                                   "  ds_read_b32 v6, v1 offset:4\n"
                                   "  s_waitcnt lgkmcnt(1)\n"
                                   "  v_add_u32 v7, v5, 1\n"
                                   "  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                                   "  v_add_u32 v8, v3, v6\n"
                                   "  s_endpgm\n.end_kernel\n";
    for (uint64_t seed = 1; seed <= 6; seed++) {
        kr k;
        wa_sim_options o = sim_opts(seed);
        run_expect(&k, ok_text, &o, WA_OK);
        kr_close(&k);
    }
    /* a store counts in vmcnt: after load, store, vmcnt(1) the load is done */
    const char *store_ok = ERR_HEAD "  global_load_dword v2, v1, s[4:5]\n"
                                    "  global_store_dword v1, v1, s[4:5] offset:512\n"
                                    "  s_waitcnt vmcnt(1)\n"
                                    "  v_mov_b32 v3, v2\n"
                                    "  s_endpgm\n.end_kernel\n";
    /* after store, load, vmcnt(1) only the store is: most seeds catch the read */
    const char *store_bad = ERR_HEAD "  global_store_dword v1, v1, s[4:5] offset:512\n"
                                     "  global_load_dword v2, v1, s[4:5] ; @I60\n"
                                     "  s_waitcnt vmcnt(1)\n"
                                     "  v_mov_b32 v3, v2 ; @I61\n"
                                     "  s_endpgm\n.end_kernel\n";
    unsigned caught = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        kr k;
        wa_sim_options o = sim_opts(seed);
        run_expect(&k, store_ok, &o, WA_OK);
        kr_close(&k);
        static uint32_t out[256];
        if (kr_open(&k, store_bad, &o) && kr_bind(&k, 0, out, sizeof(out))) {
            wa_status st = wa_sim_run(k.sim);
            if (st != WA_OK) {
                caught++;
                CHECK_EQ_INT(st, WA_E_SIM_WAIT);
                CHECK_DIAG(k.ctx, WA_E_SIM_WAIT, "reads v2|(@I60)", line_of(store_bad, "@I61"), UT_ANY, 61);
            }
        }
        kr_close(&k);
    }
    CHECK(caught > 0);
    const char *smem_text = ERR_HEAD "  s_load_dword s8, s[0:1], 0\n"
                                     "  s_load_dword s9, s[0:1], 4\n"
                                     "  s_waitcnt lgkmcnt(1)\n"
                                     "  s_mov_b32 s10, s8\n"
                                     "  s_waitcnt lgkmcnt(0)\n"
                                     "  s_endpgm\n.end_kernel\n";
    unsigned passed = 0, failed = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        kr k;
        wa_sim_options o = sim_opts(seed);
        static uint32_t out[256];
        if (kr_open(&k, smem_text, &o) && kr_bind(&k, 0, out, sizeof(out))) {
            wa_status st = wa_sim_run(k.sim);
            CHECK(st == WA_OK || st == WA_E_SIM_WAIT);
            passed += st == WA_OK;
            failed += st == WA_E_SIM_WAIT;
        }
        kr_close(&k);
    }
    CHECK(passed > 0);
    CHECK(failed > 0);
}

/* Immediates take the operand's type: float constants as f16 bits in f16
   operands, f32 bits in b32 and f32 operands. */
static void valu_typed_immediates(void)
{
    lanes io;
    lanes_init(&io);
    if (!lanes_run("  v_cvt_f32_f16 v5, 0.5\n"
                   "  v_pack_b32_f16 v6, 1.0, -2.0\n"
                   "  v_cvt_pkrtz_f16_f32 v7, 1.0, 0.5\n"
                   "  v_mov_b32 v8, 1.0\n"
                   "  v_mov_b32 v9, -4.0\n"
                   "  v_readfirstlane_b32 s12, v8\n"
                   "  v_readfirstlane_b32 s13, v9\n"
                   "  s_mov_b32 s14, 2.0\n",
                   &io))
        return;
    uint32_t w0[NL], w1[NL], w2[NL];
    for (unsigned l = 0; l < NL; l++) {
        w0[l] = 0x3F000000u;
        w1[l] = 0xC0003C00u;
        w2[l] = 0x38003C00u;
    }
    check_lanes(&io, 0, w0, "v_cvt_f32_f16 0.5");
    check_lanes(&io, 1, w1, "v_pack_b32_f16 1.0, -2.0");
    check_lanes(&io, 2, w2, "v_cvt_pkrtz_f16_f32 1.0, 0.5");
    CHECK_EQ_HEX(io.rs[0], 0x3F800000u);
    CHECK_EQ_HEX(io.rs[1], 0xC0800000u);
    CHECK_EQ_HEX(io.rs[2], 0x40000000u);
}

/* AGPRs as the data of memory instructions: global, buffer and DS loads into
   AGPRs, stores from them. */
static void memory_agpr_operands(void)
{
    uint32_t out[OUT_DW];
    if (!buf_run("gfx942", 1024, (bufdesc)RAW(4096), (bufdesc)RAW(4096), 0,
                 "  global_load_dword a0, v1, s[4:5]\n"
                 "  buffer_load_dwordx2 a[2:3], v1, s[8:11], 0 offen offset:256\n"
                 "  s_waitcnt vmcnt(0)\n"
                 "  ds_write_b32 v1, a0\n"
                 "  ds_write2_b32 v1, a2, a3 offset0:64 offset1:128\n"
                 "  s_waitcnt lgkmcnt(0)\n"
                 "  ds_read_b32 a4, v1 offset:256\n"
                 "  ds_read_b64 a[6:7], v1\n"
                 "  s_waitcnt lgkmcnt(0)\n"
                 "  global_store_dword v1, a4, s[6:7]\n"
                 "  buffer_store_dwordx2 a[6:7], v2, s[12:15], 0 offen offset:1024\n"
                 "  v_accvgpr_read_b32 v10, a3\n"
                 "  global_store_dword v1, v10, s[6:7] offset:2048\n",
                 out, 1))
        return;
    unsigned bad = 0;
    for (unsigned l = 0; l < NL; l++) {
        /* LDS: [4l] = in[4l], [256 + 4l] = in[256 + 4l], [512 + 4l] = in[260 + 4l];
           lane 63's ds_read_b64 reads [252] and [256] */
        bad += out[l] != in_dword(256 + 4 * l);
        bad += out[256 + 4 * l] != in_dword(4 * l);
        bad += out[257 + 4 * l] != (l < 63 ? in_dword(4 * l + 4) : in_dword(256));
        bad += out[512 + l] != in_dword(260 + 4 * l);
    }
    CHECK_EQ_UINT(bad, 0);
}

/* Addresses computed from undefined values: a fault normally; in the permissive
   mode the access is skipped and counted. A branch on an undefined SCC: a fault. */
static void errors_undefined_addresses(void)
{
    const char *t1 = ERR_HEAD "  v_mov_b32 v2, 1\n"
                              "  global_store_dword v50, v2, s[4:5] ; @I70\n"
                              "  s_endpgm\n.end_kernel\n";
    kr k;
    if (run_expect(&k, t1, NULL, WA_E_SIM_FAULT))
        CHECK_DIAG(k.ctx, WA_E_SIM_FAULT, "global_store_dword uses an address computed from undefined values",
                   line_of(t1, "@I70"), UT_ANY, 70);
    kr_close(&k);
    wa_sim_options o = sim_opts(1);
    o.flags |= WA_SIM_PERMISSIVE;
    if (run_expect(&k, t1, &o, WA_OK)) {
        wa_sim_stats st;
        CHECK_OK(wa_sim_get_stats(&st, k.sim));
        CHECK(st.undefined_addresses > 0);
    }
    kr_close(&k);
    const char *t2 = ".kernel t\n  .target gfx942\n  .abi none\n"
                     "  s_cbranch_scc1 skip ; @I71\n"
                     "skip:\n"
                     "  s_endpgm\n.end_kernel\n";
    if (kr_open(&k, t2, NULL)) {
        kr_run_expect(&k, WA_E_SIM_FAULT);
        CHECK_DIAG(k.ctx, WA_E_SIM_FAULT, "branches on SCC, which holds no defined value", line_of(t2, "@I71"),
                   UT_ANY, 71);
    }
    kr_close(&k);
}

/* s_nop, s_setprio and s_sleep execute (and count) without changing results;
   s_sleep takes model time. */
static void control_no_effect_ops(void)
{
    uint64_t cycles[2] = { 0, 0 };
    for (unsigned sleep = 0; sleep < 2; sleep++) {
        ut_tb t = { 0 };
        head(&t, "gfx942", 64, 0);
        ut_tb_printf(&t, "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                      "  v_lshlrev_b32 v1, 2, v0\n"
                      "  s_setprio 3\n"
                      "  s_nop 15\n"
                      "  s_sleep %u\n"
                      "  s_setprio 0\n"
                      "  s_waitcnt lgkmcnt(0)\n"
                      "  global_store_dword v1, v0, s[6:7]\n"
                      "  s_endpgm\n.end_kernel\n",
                  sleep ? 20u : 0u);
        uint32_t in[4] = { 0 }, out[64];
        kr k;
        wa_sim_options o = sim_opts(7);
        if (kr_open(&k, t.s, &o) && kr_bind(&k, 0, in, sizeof(in)) && kr_bind(&k, 1, out, sizeof(out)) &&
            kr_run(&k)) {
            wa_sim_stats st;
            CHECK_OK(wa_sim_get_stats(&st, k.sim));
            CHECK_EQ_UINT(st.instructions, 9);
            cycles[sleep] = st.cycles;
            for (unsigned l = 0; l < NL; l++)
                CHECK_EQ_UINT(out[l], l);
        }
        kr_close(&k);
        ut_tb_free(&t);
    }
    /* the sleep overlaps the s_load's latency, so only its own length adds up */
    CHECK_MSG(cycles[1] > cycles[0] && cycles[1] >= 20 * 64, "s_sleep 20: %llu cycles, without: %llu",
              (unsigned long long)cycles[1], (unsigned long long)cycles[0]);
}

/* ---- ISA extension: v_cmpx, division helpers, f64, dot products, s_movrel ------------------ */

/* v_cmpx: the result goes to the destination mask and to EXEC (inactive lanes 0);
   a VALU after it runs in the new EXEC only. */
static void valu_cmpx(void)
{
    for (unsigned i = 0; i < sizeof(g_cmps) / sizeof(g_cmps[0]); i++)
        for (unsigned round = 0; round < 4; round++) {
            lanes io;
            lanes_init(&io);
            if (g_cmps[i].fp)
                float_inputs(&io, round + 2);
            else
                int_inputs(&io, round + 2);
            for (unsigned l = 0; l < NL; l += 5)
                io.b[l] = io.a[l];
            io.exec = g_masks[(round + i) % 4];
            io.s[0] = io.s[1] = 0xFFFFFFFFu;
            char mn[32], ops[256];
            snprintf(mn, sizeof(mn), "v_cmpx_%s", g_cmps[i].mn + 6);
            snprintf(ops, sizeof(ops),
                     "  s_mov_b64 vcc, -1\n  %s %s, v2, v3\n  s_mov_b64 s[14:15], exec\n"
                     "  v_mov_b32 v5, 7\n",
                     mn, round % 2 ? "s[12:13]" : "vcc");
            ut_context("%s round %u", mn, round);
            if (!lanes_run(ops, &io))
                continue;
            uint64_t w = 0;
            for (unsigned l = 0; l < NL; l++)
                if (io.exec >> l & 1u)
                    w |= (uint64_t)(g_cmps[i].f(io.a[l], io.b[l]) != 0) << l;
            CHECK_EQ_HEX(round % 2 ? io.rs[0] | (uint64_t)io.rs[1] << 32 : io.vcc, w);
            CHECK_EQ_HEX(round % 2 ? io.vcc : io.rs[0] | (uint64_t)io.rs[1] << 32, ~0ull); /* untouched */
            CHECK_EQ_HEX(io.rs[2] | (uint64_t)io.rs[3] << 32, w);
            uint32_t want[NL];
            for (unsigned l = 0; l < NL; l++)
                want[l] = w >> l & 1u ? 7u : io.old[0][l];
            lanes view = io;
            view.exec = ~0ull;
            check_lanes(&view, 0, want, "v_mov_b32 after v_cmpx");
        }
    ut_context("%s", "");
}

/* A float with any exponent (sign, exponent and fraction random; no NaN/inf). */
static uint32_t rnd_float_wide(void)
{
    uint32_t r = rnd();
    return (r & 0x80000000u) | (rnd() % 255u) << 23 | (rnd() & 0x7FFFFFu);
}

/* LLVM's f32 division sequence (denormals kept): a / b in v5, against the host's
   correctly rounded division, on special values, extreme exponent pairs and
   random values of every magnitude. */
static const char g_div_seq[] =
    "  v_div_scale_f32 v8, s[16:17], v3, v3, v2\n"
    "  v_div_scale_f32 v9, vcc, v2, v3, v2\n"
    "  v_rcp_f32 v10, v8\n"
    "  v_xor_b32 v11, 0x80000000, v8\n"
    "  v_fma_f32 v12, v11, v10, 1.0\n"
    "  v_fma_f32 v12, v12, v10, v10\n"
    "  v_mul_f32 v13, v9, v12\n"
    "  v_fma_f32 v14, v11, v13, v9\n"
    "  v_fma_f32 v13, v14, v12, v13\n"
    "  v_fma_f32 v14, v11, v13, v9\n"
    "  v_div_fmas_f32 v5, v14, v12, v13\n"
    "  v_div_fixup_f32 v5, v5, v3, v2\n";

static void valu_div_sequence(void)
{
    static const uint32_t edge[][2] = {
        { 0x7F7FFFFFu, 0x00000001u }, /* overflow to inf */
        { 0x00000001u, 0x7F7FFFFFu }, /* underflow to 0 */
        { 0x3F800000u, 0x7F000000u }, /* 1 / 2^127: 1/b is denormal */
        { 0x00800000u, 0x7F000000u }, /* both 1/b and a/b denormal */
        { 0x00400000u, 0x40000000u }, /* denormal / 2 */
        { 0x00000003u, 0x40000000u }, /* 3 * 2^-149 / 2: a tie, to even */
        { 0x7F000000u, 0x20000000u }, /* exponent gap >= 96 */
        { 0x7E000000u, 0x1F800000u },
        { 0x3F800000u, 0x40400000u }, /* 1/3 */
        { 0x40E00000u, 0x3F000000u }, /* 7 / 0.5 */
        { 0x0C000000u, 0x4B000000u }, /* tiny numerator */
        { 0x80000000u, 0x3F800000u }, /* -0 / 1 */
        { 0x3F800000u, 0x80000000u }, /* 1 / -0 */
        { 0x7F800000u, 0x7F800000u }, /* inf / inf */
        { 0x00000000u, 0x00000000u }, /* 0 / 0 */
        { 0x7F800000u, 0x00000005u }, /* inf / denormal */
        { 0x00000005u, 0xFF800000u }, /* denormal / -inf */
        { 0x7FC00000u, 0x3F800000u }, /* NaN */
        { 0x3F800000u, 0x7F800001u }, /* sNaN */
        { 0x007FFFFFu, 0x3F7FFFFFu }, /* largest denormal / (1 - ulp) */
        { 0x34000000u, 0x5F000000u }, /* 2^-23 / 2^63 */
        { 0x5F800000u, 0x1F800000u }, /* 2^64 / 2^-64 */
    };
    unsigned checked = 0;
    for (unsigned round = 0; round < 24; round++) {
        lanes io;
        lanes_init(&io);
        for (unsigned l = 0; l < NL; l++) {
            unsigned e = round * NL + l;
            if (e < sizeof(edge) / sizeof(edge[0])) {
                io.a[l] = edge[e][0];
                io.b[l] = edge[e][1];
            } else if (round < 4) {
                io.a[l] = g_fspecial[l % 16];
                io.b[l] = g_fspecial[(l / 16 + 4 * round + l) % 16];
            } else if (round < 12) {
                io.a[l] = rnd_float_wide();
                io.b[l] = rnd_float_wide();
            } else if (round < 18) {
                io.a[l] = rnd_float();
                io.b[l] = rnd_float();
            } else { /* quotients near the denormal and overflow limits */
                io.a[l] = (rnd() & 0x807FFFFFu) | (rnd() % 40u) << 23;
                io.b[l] = (rnd() & 0x807FFFFFu) | (90u + rnd() % 60u + (round % 2) * 100u) << 23;
                if (round % 2) {
                    uint32_t t = io.a[l];
                    io.a[l] = io.b[l] | 0x7E000000u;
                    io.b[l] = t;
                }
            }
        }
        io.exec = round == 5 ? g_masks[1] : ~0ull;
        ut_context("division round %u", round);
        if (!lanes_run(g_div_seq, &io))
            continue;
        uint32_t want[NL];
        for (unsigned l = 0; l < NL; l++) {
            volatile float q = f32(io.a[l]) / f32(io.b[l]);
            want[l] = bits(q);
            checked += (unsigned)(io.exec >> l & 1u);
        }
        check_lanes_f(&io, 0, want, "a / b by the division sequence");
    }
    ut_context("%s", "");
    CHECK(checked > 1400);
}

/* The helpers one at a time, with the cases the pseudo-code lists. */
static void valu_div_helpers(void)
{
    lanes io;
    lanes_init(&io);
    /* div_scale(s0, den, num) with s0 = den in v5, s0 = num in v6; a = num, b = den */
    static const uint32_t ds[8][4] = {
        /* num, den, scaled den, scaled num */
        { 0x3F800000u, 0x40400000u, 0x40400000u, 0x3F800000u }, /* 1/3: nothing */
        { 0x7F000000u, 0x20000000u, 0x40000000u, 0x7F000000u }, /* gap >= 96: den * 2^64, VCC */
        { 0x2B800000u, 0x00000100u, 0x19000000u, 0x4B800000u }, /* denormal den: both * 2^64 */
        { 0x44800000u, 0x7F000000u, 0x5F000000u, 0x24800000u }, /* 1/den denormal: both * 2^-64 */
        { 0x00800000u, 0x4B000000u, 0x4B000000u, 0x20800000u }, /* quotient denormal: num * 2^64, VCC */
        { 0x0B800000u, 0x3F800000u, 0x5F800000u, 0x2B800000u }, /* exp(num) <= 23: both * 2^64 */
        { 0x00000000u, 0x3F800000u, 0x7FC00000u, 0x7FC00000u }, /* zero: NaN */
        { 0x3F800000u, 0x7F000000u, 0x5F000000u, 0x3F800000u }, /* 1/den and quotient denormal:
                                                                   den * 2^-64, VCC */
    };
    for (unsigned l = 0; l < 8; l++) {
        io.a[l] = ds[l][0];
        io.b[l] = ds[l][1];
    }
    io.exec = 0xFF;
    if (!lanes_run("  v_div_scale_f32 v5, s[12:13], v3, v3, v2\n"
                   "  v_div_scale_f32 v6, vcc, v2, v3, v2\n",
                   &io))
        return;
    uint32_t w0[NL], w1[NL];
    for (unsigned l = 0; l < NL; l++) {
        w0[l] = l < 8 ? ds[l][2] : 0;
        w1[l] = l < 8 ? ds[l][3] : 0;
    }
    check_lanes_f(&io, 0, w0, "v_div_scale_f32 (denominator)");
    check_lanes_f(&io, 1, w1, "v_div_scale_f32 (numerator)");
    CHECK_EQ_HEX(io.vcc, 0x92ull);
    CHECK_EQ_HEX(io.rs[0] | (uint64_t)io.rs[1] << 32, 0x92ull);

    /* div_fmas: fma, then * 2^64 (exp(src2) >= 127) or * 2^-64 where VCC is set,
       rounded once: 1.5 * 2^-64 * 2^-64 lands in the denormals exactly. */
    lanes_init(&io);
    io.a[0] = 0x3F800000u; io.b[0] = 0x3F800000u; io.c[0] = 0x3F800000u; /* 2, no scale */
    io.a[1] = 0x3F800000u; io.b[1] = 0x3F800000u; io.c[1] = 0x3F800000u; /* 2 * 2^64 */
    io.a[2] = 0x00000000u; io.b[2] = 0x00000000u; io.c[2] = 0x1FC00000u; /* 1.5*2^-64 * 2^-64 */
    io.a[3] = 0x3F800000u; io.b[3] = 0x00000000u; io.c[3] = 0x1F800001u; /* rounds once */
    io.exec = 0xF;
    if (!lanes_run("  s_mov_b64 vcc, 14\n  v_div_fmas_f32 v5, v2, v3, v4\n", &io))
        return;
    uint32_t w[NL] = { 0x40000000u, 0x60000000u, 0x00300000u, 0x00200000u };
    check_lanes(&io, 0, w, "v_div_fmas_f32");

    /* div_fixup(q, den, num): special cases from the original operands */
    lanes_init(&io);
    static const uint32_t fx[][4] = {
        /* q, den, num, result */
        { 0x3F800000u, 0xC0000000u, 0x40000000u, 0xBF800000u }, /* sign of num/den */
        { 0x12345678u, 0x00000000u, 0x3F800000u, 0x7F800000u }, /* x / 0 */
        { 0x12345678u, 0x7F800000u, 0x3F800000u, 0x00000000u }, /* x / inf */
        { 0x12345678u, 0x00000000u, 0x80000000u, 0xFFC00000u }, /* 0 / 0: the ISA's NaN */
        { 0x12345678u, 0x3F800000u, 0x7FC00001u, 0x7FC00001u }, /* NaN num kept (quiet) */
        { 0x12345678u, 0x7F7FFFFFu, 0x00000001u, 0x00000000u }, /* below 2^-150 */
    };
    for (unsigned l = 0; l < 6; l++) {
        io.a[l] = fx[l][0];
        io.b[l] = fx[l][1];
        io.c[l] = fx[l][2];
        w[l] = fx[l][3];
    }
    io.exec = 0x3F;
    if (!lanes_run("  v_div_fixup_f32 v5, v2, v3, v4\n", &io))
        return;
    check_lanes(&io, 0, w, "v_div_fixup_f32");
}

/* A double with a 26-bit significand (so that products are exact) and a
   moderate exponent. */
static uint64_t rnd_double_short(void)
{
    uint64_t s = (uint64_t)(rnd() & 1u) << 63, e = 1023u - 40u + rnd() % 80u;
    uint64_t m = ((uint64_t)rnd() << 26 | rnd()) & 0xFFFFFF8000000ull;
    return s | e << 52 | m;
}

/* v_add_f64 / v_mul_f64 / v_fma_f64 on register pairs, SGPR pairs and inline
   constants (an integer constant is the 64-bit integer, a float one the double). */
static void valu_f64(void)
{
    static const uint64_t special[] = { 0, 0x8000000000000000ull, 0x3FF0000000000000ull,
                                        0x7FF0000000000000ull, 0xFFF0000000000000ull,
                                        0x7FF8000000000000ull, 0x0000000000000001ull,
                                        0x7FEFFFFFFFFFFFFFull, 0x000FFFFFFFFFFFFFull,
                                        0x3CA0000000000000ull /* 2^-53 */ };
    for (unsigned round = 0; round < 6; round++) {
        lanes io;
        lanes_init(&io);
        uint64_t x[NL], y[NL], z[NL];
        for (unsigned l = 0; l < NL; l++) {
            if (round == 0) {
                x[l] = special[l % 10];
                y[l] = special[(l / 10 + l) % 10];
                z[l] = special[(l * 3) % 10];
            } else {
                x[l] = rnd_double_short();
                y[l] = rnd_double_short();
                z[l] = l % 5 == 0 ? x[l] ^ 0x8000000000000000ull : rnd_double_short();
            }
            io.a[l] = (uint32_t)x[l];
            io.b[l] = (uint32_t)(x[l] >> 32);
            io.c[l] = (uint32_t)y[l];
            io.old[0][l] = (uint32_t)(y[l] >> 32); /* v5 */
            io.old[1][l] = (uint32_t)z[l];         /* v6 */
            io.old[2][l] = (uint32_t)(z[l] >> 32); /* v7 */
        }
        io.exec = g_masks[round % 4];
        static const char *const ops[3] = {
            "  v_mov_b32 v8, v4\n  v_mov_b32 v9, v5\n  v_mov_b32 v10, v6\n  v_mov_b32 v11, v7\n"
            "  v_add_f64 v[6:7], v[2:3], v[8:9]\n",
            "  v_mov_b32 v8, v4\n  v_mov_b32 v9, v5\n  v_mov_b32 v10, v6\n  v_mov_b32 v11, v7\n"
            "  v_mul_f64 v[6:7], v[2:3], v[8:9]\n",
            "  v_mov_b32 v8, v4\n  v_mov_b32 v9, v5\n  v_mov_b32 v10, v6\n  v_mov_b32 v11, v7\n"
            "  v_fma_f64 v[6:7], v[2:3], v[8:9], v[10:11]\n",
        };
        for (unsigned k = 0; k < 3; k++) {
            lanes run = io;
            ut_context("f64 op %u round %u", k, round);
            if (!lanes_run(ops[k], &run))
                continue;
            unsigned bad = 0;
            for (unsigned l = 0; l < NL; l++) {
                uint64_t got = run.r[1][l] | (uint64_t)run.r[2][l] << 32, want;
                volatile double a = f64(x[l]), b = f64(y[l]), c = f64(z[l]), p = a * b;
                if (!(io.exec >> l & 1u))
                    want = z[l];
                else if (k == 0)
                    want = bits64(a + b);
                else if (k == 1)
                    want = bits64(p);
                else
                    want = bits64(p + c); /* the product is exact: one rounding */
                int nan = (want & 0x7FF0000000000000ull) == 0x7FF0000000000000ull &&
                          (want & 0xFFFFFFFFFFFFFull);
                int ok = nan ? (got & 0x7FF8000000000000ull) == 0x7FF8000000000000ull : got == want;
                if (!ok && ++bad <= 3)
                    CHECK_MSG(0, "lane %u: 0x%016llx, want 0x%016llx", l, (unsigned long long)got,
                              (unsigned long long)want);
            }
            CHECK_EQ_UINT(bad, 0);
        }
    }
    ut_context("%s", "");

    /* constants and SGPR pairs */
    lanes io;
    lanes_init(&io);
    for (unsigned l = 0; l < NL; l++) {
        io.a[l] = 0;
        io.b[l] = l == 1 ? 0x40080000u : 0; /* lane 1: 3.0 */
    }
    io.s[0] = 0;
    io.s[1] = 0xC0000000u; /* s[12:13] = -2.0 */
    io.exec = 0x3;
    if (!lanes_run("  v_add_f64 v[6:7], v[2:3], 7\n"
                   "  v_mul_f64 v[8:9], v[2:3], s[12:13]\n"
                   "  v_fma_f64 v[10:11], v[2:3], -0.5, 1.0\n"
                   "  v_mov_b32 v5, v8\n  v_mov_b32 v7, v9\n"
                   "  v_readlane_b32 s14, v10, 1\n  v_readlane_b32 s15, v11, 1\n",
                   &io))
        return;
    CHECK_EQ_HEX(io.r[1][0], 7u); /* 0 + the 64-bit pattern 7 (a denormal) */
    CHECK_EQ_HEX(io.r[0][1], 0u); /* 3.0 * -2.0 = -6.0 */
    CHECK_EQ_HEX(io.r[2][1], 0xC0180000u);
    CHECK_EQ_HEX(io.rs[2], 0u); /* 3.0 * -0.5 + 1.0 = -0.5 */
    CHECK_EQ_HEX(io.rs[3], 0xBFE00000u);
}

/* An f16 value (normal range, small exponent) as bits. */
static uint16_t rnd_f16_small(void)
{
    return (uint16_t)((rnd() & 0x8000u) | (11u + rnd() % 9u) << 10 | (rnd() & 0x3FFu));
}

static float f16v(uint16_t h)
{
    unsigned e = (h >> 10) & 31u, m = h & 0x3FFu;
    double v = e ? (1024.0 + m) * pow2((int)e - 25) : m * pow2(-24);
    return (float)(h >> 15 ? -v : v);
}

/* v_dot2_f32_f16 with magnitudes whose exact sum fits a double (so one rounding
   of the double sum is the exact rounding), and v_dot4_i32_i8 on random bytes. */
static void valu_dot(void)
{
    for (unsigned round = 0; round < 4; round++) {
        lanes io;
        lanes_init(&io);
        for (unsigned l = 0; l < NL; l++) {
            io.a[l] = rnd_f16_small() | (uint32_t)rnd_f16_small() << 16;
            io.b[l] = rnd_f16_small() | (uint32_t)rnd_f16_small() << 16;
            io.c[l] = (rnd() & 0x80000000u) | (120u + rnd() % 14u) << 23 | (rnd() & 0x7FFFFFu);
        }
        io.exec = g_masks[round];
        ut_context("v_dot2_f32_f16 round %u", round);
        if (!lanes_run(round % 2 ? "  v_dot2_f32_f16 v5, v2, v3, v4\n"
                                 : "  v_readfirstlane_b32 s12, v2\n  v_dot2_f32_f16 v5, s12, v3, v4\n",
                       &io))
            continue;
        uint32_t first = io.a[0];
        for (unsigned l = 0; l < NL; l++)
            if (io.exec >> l & 1u) {
                first = io.a[l];
                break;
            }
        uint32_t want[NL];
        for (unsigned l = 0; l < NL; l++) {
            uint32_t a = round % 2 ? io.a[l] : first;
            volatile double s = (double)f16v((uint16_t)a) * f16v((uint16_t)io.b[l]);
            s = s + (double)f16v((uint16_t)(a >> 16)) * f16v((uint16_t)(io.b[l] >> 16));
            s = s + (double)f32(io.c[l]);
            volatile float r = (float)s;
            want[l] = bits(r);
        }
        check_lanes(&io, 0, want, "v_dot2_f32_f16");
    }
    /* the sum is rounded once: 1 + 2^-24 + 2^-24 is 1 + 2^-23, where rounding the
       two products first would give 1 */
    lanes io;
    lanes_init(&io);
    io.a[0] = 0x0C003C00u; /* lo 1.0, hi 2^-12 */
    io.b[0] = 0x0C003C00u;
    io.c[0] = 0x33800000u; /* 2^-24 */
    io.exec = 1;
    if (lanes_run("  v_dot2_f32_f16 v5, v2, v3, v4\n", &io)) {
        uint32_t w[NL] = { 0x3F800001u };
        check_lanes(&io, 0, w, "v_dot2_f32_f16 single rounding");
    }
    for (unsigned round = 0; round < 3; round++) {
        lanes_init(&io);
        for (unsigned l = 0; l < NL; l++) {
            io.a[l] = rnd();
            io.b[l] = l < 4 ? 0x80808080u : rnd();
            io.c[l] = rnd();
        }
        io.a[0] = 0x80808080u; /* (-128)^2 * 4 */
        io.exec = g_masks[round];
        ut_context("v_dot4_i32_i8 round %u", round);
        if (!lanes_run("  v_dot4_i32_i8 v5, v2, v3, v4\n  v_dot4_i32_i8 v6, v2, v3, -3\n", &io))
            continue;
        uint32_t w0[NL], w1[NL];
        for (unsigned l = 0; l < NL; l++) {
            int64_t acc = 0;
            for (unsigned k = 0; k < 4; k++)
                acc += (int64_t)(int8_t)(io.a[l] >> (8 * k)) * (int8_t)(io.b[l] >> (8 * k));
            w0[l] = (uint32_t)((uint64_t)acc + io.c[l]);
            w1[l] = (uint32_t)((uint64_t)acc - 3u);
        }
        check_lanes(&io, 0, w0, "v_dot4_i32_i8");
        check_lanes(&io, 1, w1, "v_dot4_i32_i8 with an inline constant");
    }
    ut_context("%s", "");
}

/* s_movrels / s_movreld index SGPRs by M0; past s101 or with M0 undefined they fault. */
static void salu_movrel(void)
{
    lanes io;
    lanes_init(&io);
    if (lanes_run("  s_mov_b32 s20, 0x100\n  s_mov_b32 s21, 0x101\n"
                  "  s_mov_b32 s22, 0x102\n  s_mov_b32 s23, 0x103\n"
                  "  s_mov_b32 m0, 2\n"
                  "  s_movrels_b32 s12, s20\n"
                  "  s_movrels_b64 s[14:15], s[20:21]\n"
                  "  s_mov_b32 m0, 1\n"
                  "  s_movreld_b32 s20, 0x777\n"
                  "  s_mov_b32 s13, s21\n"
                  "  s_mov_b32 m0, 0\n"
                  "  s_movreld_b64 s[22:23], -1\n"
                  "  s_and_b32 s14, s14, s23\n",
                  &io)) {
        CHECK_EQ_HEX(io.rs[0], 0x102u);
        CHECK_EQ_HEX(io.rs[1], 0x777u);
        CHECK_EQ_HEX(io.rs[2], 0x102u);
        CHECK_EQ_HEX(io.rs[3], 0x103u);
    }
    static const struct {
        const char *body, *msg;
    } bad[] = {
        { "  s_mov_b32 m0, 100\n  s_movrels_b32 s0, s4\n", "past s101" },
        { "  s_movreld_b32 s4, 1\n", "M0, which holds no defined value" },
    };
    for (unsigned i = 0; i < 2; i++) {
        ut_tb t = { 0 };
        ut_tb_printf(&t, ".kernel t\n  .target gfx942\n%s  s_endpgm\n.end_kernel\n", bad[i].body);
        kr k;
        if (kr_open(&k, t.s, NULL) && kr_run_expect(&k, WA_E_SIM_FAULT))
            CHECK_STR_CONTAINS(ut_diags_text(k.ctx), bad[i].msg);
        kr_close(&k);
        ut_tb_free(&t);
    }
}

/* s_getreg / s_setreg on the MODE and STATUS model: MODE starts as the kernel
   descriptor sets it, bit fields read and write in place, float instructions
   stop under a non-default float mode (integer ones run), STATUS gives SCC,
   EXECZ, VCCZ and VALID; what is not modelled is reported, not invented. */
static void salu_hwreg(void)
{
    lanes io;
    lanes_init(&io);
    io.exec = 0xFFFFFFFF00000000ull;
    if (lanes_run("  s_getreg_b32 s12, hwreg(HW_REG_MODE)\n"
                  "  s_getreg_b32 s13, hwreg(HW_REG_MODE, 4, 4)\n"
                  "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 5\n"
                  "  s_getreg_b32 s14, hwreg(HW_REG_MODE)\n"
                  "  v_add_u32 v5, 3, v0\n"
                  "  s_mov_b32 s15, 0\n"
                  "  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s15\n"
                  "  v_add_f32 v6, 1.0, 1.0\n"
                  "  s_cmp_eq_u32 s15, 0\n"
                  "  s_getreg_b32 s15, hwreg(HW_REG_STATUS, 0, 1)\n"
                  "  s_getreg_b32 s16, hwreg(HW_REG_STATUS, 9, 2)\n"
                  "  s_getreg_b32 s17, hwreg(HW_REG_STATUS, 16, 1)\n"
                  "  s_lshl_b32 s16, s16, 4\n"
                  "  s_lshl_b32 s17, s17, 8\n"
                  "  s_or_b32 s15, s15, s16\n"
                  "  s_or_b32 s15, s15, s17\n",
                  &io)) {
        CHECK_EQ_HEX(io.rs[0], 0x3F0u);
        CHECK_EQ_HEX(io.rs[1], 0xFu);
        CHECK_EQ_HEX(io.rs[2], 0x3F5u);
        /* SCC 1; EXECZ 0 and VCCZ 1 (bits 9 and 10, read as a 2-bit field); VALID 1 */
        CHECK_EQ_HEX(io.rs[3], 0x121u);
        uint32_t w5[NL], w6[NL];
        for (unsigned l = 0; l < NL; l++) {
            w5[l] = l + 3u;
            w6[l] = 0x40000000u;
        }
        check_lanes(&io, 0, w5, "integer VALU under a non-default MODE");
        check_lanes(&io, 1, w6, "v_add_f32 after MODE is restored");
    }
    static const struct {
        const char *body, *msg;
    } bad[] = {
        { "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0\n  v_mov_b32 v1, 1\n  v_add_f32 v1, v1, v1\n",
          "v_add_f32 runs with MODE 0x000003c0" },
        { "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 1\n  v_mov_b32 v1, 0\n  v_cvt_f32_u32 v1, v1\n",
          "models only the default float mode" },
        { "  s_getreg_b32 s0, hwreg(HW_REG_HW_ID)\n", "hwreg id 4 bits 0..31 are not modelled" },
        { "  s_getreg_b32 s0, hwreg(HW_REG_STATUS)\n", "hwreg id 2 bits 0..31 are not modelled" },
        { "  s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0\n", "writing hwreg id 3 is not modelled" },
        { "  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 28, 1), 1\n", "MODE bits 0x10000000" },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ut_tb t = { 0 };
        ut_tb_printf(&t, ".kernel t\n  .target gfx942\n%s  s_endpgm\n.end_kernel\n", bad[i].body);
        kr k;
        ut_context("%s", bad[i].body);
        if (kr_open(&k, t.s, NULL) && kr_run_expect(&k, WA_E_UNSUPPORTED))
            CHECK_STR_CONTAINS(ut_diags_text(k.ctx), bad[i].msg);
        kr_close(&k);
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* gfx950 v_permlane16_swap / v_permlane32_swap: odd 16-lane rows of vdst trade
   with even rows of src0 (permlane32: the upper half of vdst with the lower half
   of src0); one register as both operands swaps its own rows. Partial EXEC is
   reported as not modelled. */
static void valu_permlane_swap(void)
{
    for (unsigned span = 16; span <= 32; span *= 2) {
        lanes io;
        lanes_init(&io);
        char ops[160];
        snprintf(ops, sizeof(ops), "  v_permlane%u_swap_b32 v5, v6\n  v_permlane%u_swap_b32 v7, v7\n",
                 span, span);
        ut_context("permlane%u", span);
        if (!lanes_run_t("gfx950", ops, &io, 3))
            continue;
        uint32_t w5[NL], w6[NL], w7[NL];
        for (unsigned l = 0; l < NL; l++) {
            int upper = (l / span) % 2;
            w5[l] = upper ? io.old[1][l - span] : io.old[0][l];
            w6[l] = upper ? io.old[1][l] : io.old[0][l + span];
            w7[l] = io.old[2][l ^ span];
        }
        check_lanes(&io, 0, w5, "vdst after the swap");
        check_lanes(&io, 1, w6, "src0 after the swap");
        check_lanes(&io, 2, w7, "one register as both operands");
    }
    ut_context("%s", "");
    kr k;
    if (kr_open(&k, ".kernel t\n  .target gfx950\n  s_mov_b32 exec_lo, 0\n"
                    "  v_permlane32_swap_b32 v0, v1\n  s_endpgm\n.end_kernel\n", NULL) &&
        kr_run_expect(&k, WA_E_UNSUPPORTED))
        CHECK_STR_CONTAINS(ut_diags_text(k.ctx), "under a partial EXEC");
    kr_close(&k);
}

/* DPP on VOP1/VOP2: src0 from another lane. The reference below spells out each
   control's source lane and the write rules (row_mask/bank_mask select written
   lanes; a source lane that does not exist or is off in EXEC gives 0 with
   bound_ctrl, else the lane keeps its value). */
static int ref_dpp_source(unsigned ctrl, unsigned l, unsigned *s)
{
    unsigned r = l / 16, i = l % 16;
    if (ctrl < 0x100) {
        *s = 4 * (l / 4) + ((ctrl >> (2 * (l % 4))) & 3u);
        return 1;
    }
    if (ctrl > 0x100 && ctrl < 0x110) { /* row_shl:n reads the lane n above */
        *s = l + (ctrl - 0x100);
        return i + (ctrl - 0x100) <= 15;
    }
    if (ctrl > 0x110 && ctrl < 0x120) { /* row_shr:n reads the lane n below */
        *s = l - (ctrl - 0x110);
        return i >= ctrl - 0x110;
    }
    if (ctrl > 0x120 && ctrl < 0x130) { /* row_ror:n: rotate right within the row */
        *s = 16 * r + (i + 16 - (ctrl - 0x120)) % 16;
        return 1;
    }
    switch (ctrl) {
    case 0x130: *s = l + 1; return l != 63;        /* wave_shl */
    case 0x134: *s = (l + 1) % 64; return 1;       /* wave_rol */
    case 0x138: *s = l - 1; return l != 0;         /* wave_shr */
    case 0x13C: *s = (l + 63) % 64; return 1;      /* wave_ror */
    case 0x140: *s = 16 * r + 15 - i; return 1;    /* row_mirror */
    case 0x141: *s = 8 * (l / 8) + 7 - l % 8; return 1; /* row_half_mirror */
    case 0x142: *s = 16 * r - 1; return r > 0;     /* row_bcast:15 */
    default: *s = 31; return r >= 2;              /* row_bcast:31 */
    }
}

static void valu_dpp(void)
{
    static const struct {
        const char *text;
        unsigned ctrl;
    } ctrls[] = {
        { "quad_perm:[1,0,3,2]", 0xB1 }, { "quad_perm:[3,3,0,1]", 0x4F }, { "row_shl:1", 0x101 },
        { "row_shl:15", 0x10F }, { "row_shr:1", 0x111 }, { "row_shr:4", 0x114 },
        { "row_ror:3", 0x123 }, { "row_ror:15", 0x12F }, { "wave_shl:1", 0x130 },
        { "wave_rol:1", 0x134 }, { "wave_shr:1", 0x138 }, { "wave_ror:1", 0x13C },
        { "row_mirror", 0x140 }, { "row_half_mirror", 0x141 }, { "row_bcast:15", 0x142 },
        { "row_bcast:31", 0x143 },
    };
    static const unsigned masks[][2] = { { 0xF, 0xF }, { 0xA, 0xF }, { 0xF, 0x5 }, { 0x6, 0x9 } };
    unsigned runs = 0;
    for (unsigned i = 0; i < sizeof(ctrls) / sizeof(ctrls[0]); i++)
        for (unsigned v = 0; v < 8; v++) {
            lanes io;
            lanes_init(&io);
            for (unsigned l = 0; l < NL; l++) {
                io.a[l] = 0x1000u + l;
                io.b[l] = 0x20000u * (l + 1);
            }
            io.exec = g_masks[v % 4];
            unsigned rm = masks[v / 2 % 4][0], bm = masks[v / 2 % 4][1], bound = v % 2;
            char ops[256];
            snprintf(ops, sizeof(ops),
                     "  v_mov_b32_dpp v5, v2 %s row_mask:0x%x bank_mask:0x%x%s\n"
                     "  v_add_u32_dpp v6, v2, v3 %s row_mask:0x%x bank_mask:0x%x%s\n",
                     ctrls[i].text, rm, bm, bound ? " bound_ctrl:1" : "", ctrls[i].text, rm, bm,
                     bound ? " bound_ctrl:0" : "");
            ut_context("%s", ops);
            if (!lanes_run(ops, &io))
                continue;
            runs++;
            uint32_t w5[NL], w6[NL];
            for (unsigned l = 0; l < NL; l++) {
                w5[l] = io.old[0][l];
                w6[l] = io.old[1][l];
                if (!(io.exec >> l & 1u) || !(rm >> (l / 16) & 1u) || !(bm >> (l % 16 / 4) & 1u))
                    continue;
                unsigned s;
                int valid = ref_dpp_source(ctrls[i].ctrl, l, &s) && (io.exec >> s & 1u);
                if (!valid && !bound)
                    continue;
                uint32_t x = valid ? io.a[s] : 0;
                w5[l] = x;
                w6[l] = x + io.b[l];
            }
            lanes view = io;
            view.exec = ~0ull; /* the expectations already hold the lanes not written */
            check_lanes(&view, 0, w5, ctrls[i].text);
            check_lanes(&view, 1, w6, ctrls[i].text);
        }
    ut_context("%s", "");
    CHECK_EQ_UINT(runs, 16 * 8);
    /* a float op and v_cndmask (mask vcc from the own lane) with DPP */
    lanes io;
    lanes_init(&io);
    for (unsigned l = 0; l < NL; l++) {
        io.a[l] = bits((float)l);
        io.b[l] = bits(0.5f);
    }
    if (lanes_run("  s_mov_b32 vcc_lo, 0x55555555\n  s_mov_b32 vcc_hi, 0x55555555\n"
                  "  v_add_f32_dpp v5, v2, v3 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1\n"
                  "  v_cndmask_b32_dpp v6, v3, v2, vcc row_mirror row_mask:0xf bank_mask:0xf\n",
                  &io)) {
        uint32_t w5[NL], w6[NL];
        for (unsigned l = 0; l < NL; l++) {
            w5[l] = bits(l % 16 ? (float)(l - 1) + 0.5f : 0.5f);
            w6[l] = l % 2 == 0 ? bits((float)l) : io.b[16 * (l / 16) + 15 - l % 16];
        }
        check_lanes(&io, 0, w5, "v_add_f32_dpp row_shr:1 bound_ctrl");
        check_lanes(&io, 1, w6, "v_cndmask_b32_dpp row_mirror");
    }
}

UT_SUITE(
    UT_CASE(valu_integer_ops) UT_CASE(valu_integer_fixed_cases) UT_CASE(valu_operand_sources)
    UT_CASE(valu_float_arith) UT_CASE(valu_float_fixed_cases) UT_CASE(valu_transcendental)
    UT_CASE(valu_compares) UT_CASE(valu_compare_nan_cases) UT_CASE(valu_cndmask)
    UT_CASE(cvt_f32_f16_all) UT_CASE(cvt_f16_f32_sweep) UT_CASE(cvt_pk_bf16_sweep)
    UT_CASE(cvt_integer_sweep) UT_CASE(cvt_pack_and_masking) UT_CASE(valu_mbcnt) UT_CASE(valu_lane_ops)
    UT_CASE(valu_accvgpr) UT_CASE(valu_partial_waves) UT_CASE(valu_typed_immediates)
    UT_CASE(salu_ops32) UT_CASE(salu_ops64) UT_CASE(salu_moves) UT_CASE(salu_carry_chains)
    UT_CASE(salu_saveexec) UT_CASE(salu_branches) UT_CASE(salu_loops) UT_CASE(waitcnt_counts)
    UT_CASE(control_no_effect_ops)
    UT_CASE(smem_kernarg_loads) UT_CASE(smem_buffer_load) UT_CASE(mubuf_raw_loads)
    UT_CASE(mubuf_indexed_loads) UT_CASE(mubuf_small_and_stores) UT_CASE(mubuf_atomic_add_f32)
    UT_CASE(mubuf_atomic_pk_add_bf16) UT_CASE(mubuf_lds_dma) UT_CASE(mubuf_lds_dma_wide)
    UT_CASE(global_loads_stores) UT_CASE(ds_all_forms) UT_CASE(ds_out_of_range)
    UT_CASE(memory_agpr_operands)
    UT_CASE(defined_bits_and_compare) UT_CASE(defined_bits_propagate) UT_CASE(stats_fields)
    UT_CASE(determinism) UT_CASE(args_and_hidden) UT_CASE(abi_ids) UT_CASE(errors_api)
    UT_CASE(errors_faults) UT_CASE(errors_missing_waits) UT_CASE(errors_lds_races)
    UT_CASE(errors_undefined_addresses) UT_CASE(valu_cmpx) UT_CASE(valu_div_sequence)
    UT_CASE(valu_div_helpers) UT_CASE(valu_f64) UT_CASE(valu_dot) UT_CASE(salu_movrel)
    UT_CASE(salu_hwreg) UT_CASE(valu_permlane_swap) UT_CASE(valu_dpp));
