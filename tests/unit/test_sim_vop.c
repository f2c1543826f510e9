/* tests/unit/test_sim_vop.c — the simulator's VOP1/VOP2 semantics and the VALU
   modifiers (abs, neg, clamp, omod, SDWA selects), against references computed
   here from the ISA's descriptions (plain C, never the simulator's helpers):

     VOP1   rounding (floor, ceil, trunc, rndne, fract), float-to-integer
            conversions (truncating, round-half-up, floor; saturating), the
            ubyte/i4 conversions, bit reversal and the find-bit operations,
            16-bit conversions, 64-bit conversions and moves, v_swap_b32
     VOP2   24-bit multiplies, signed min/max, xnor, 16-bit integer arithmetic
            and shifts, fused multiply-add forms (fmac, fmamk, fmaak), the
            carry forms (carry-out and carry-in in vcc), unsigned clamp
     mods   -src, |src|, clamp and mul:2/div:2 on f32 results, SDWA src0/src1
            selects with sext() and the three dst_unused modes
   Each runs in one wave over edge and random values with a partial EXEC (lanes
   outside EXEC keep their old values). The rows left out stop the run with
   WA_E_UNSUPPORTED and the reason wa_sim_unsupported gives. */
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

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}
static float fval(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* ---- the lane harness: v2, v3, v4 inputs a, b, c; v5, v6 results (preloaded with
   old values); EXEC partial while the line runs; vcc preloaded, read back. */
typedef struct lanes {
    uint32_t a[NL], b[NL], c[NL], old[2][NL], r[2][NL];
    uint64_t exec, vcc_in, vcc;
} lanes;

static int run_lanes(const char *target, const char *line, lanes *io)
{
    uint32_t in[5 * NL + 4], out[2 * NL + 2];
    memcpy(in, io->a, sizeof(io->a));
    memcpy(in + NL, io->b, sizeof(io->b));
    memcpy(in + 2 * NL, io->c, sizeof(io->c));
    memcpy(in + 3 * NL, io->old, sizeof(io->old));
    in[5 * NL] = (uint32_t)io->exec;
    in[5 * NL + 1] = (uint32_t)(io->exec >> 32);
    in[5 * NL + 2] = (uint32_t)io->vcc_in;
    in[5 * NL + 3] = (uint32_t)(io->vcc_in >> 32);
    char text[4096];
    snprintf(text, sizeof(text),
             ".kernel t\n  .target %s\n  .abi kernarg_ptr, workitem_id_x\n"
             "  .arg in, global_buffer, offset:0, size:8, align:8\n"
             "  .arg out, global_buffer, offset:8, size:8, align:8\n"
             "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
             "  v_lshlrev_b32 v1, 2, v0\n"
             "  s_waitcnt lgkmcnt(0)\n"
             "  s_load_dwordx4 s[8:11], s[4:5], %u\n"
             "  global_load_dword v2, v1, s[4:5]\n"
             "  global_load_dword v3, v1, s[4:5] offset:256\n"
             "  global_load_dword v4, v1, s[4:5] offset:512\n"
             "  global_load_dword v5, v1, s[4:5] offset:768\n"
             "  global_load_dword v6, v1, s[4:5] offset:1024\n"
             "  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
             "  s_mov_b64 vcc, s[10:11]\n"
             "  s_mov_b64 exec, s[8:9]\n"
             "  %s\n"
             "  s_mov_b64 exec, -1\n"
             "  global_store_dword v1, v5, s[6:7]\n"
             "  global_store_dword v1, v6, s[6:7] offset:256\n"
             "  v_mov_b32 v8, 0\n  v_mov_b32 v10, vcc_lo\n  v_mov_b32 v11, vcc_hi\n"
             "  global_store_dwordx2 v8, v[10:11], s[6:7] offset:512\n"
             "  s_endpgm\n.end_kernel\n",
             target, 5 * NL * 4, line);
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, text);
    int ok = 0;
    if (prog) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        wa_sim *sim = NULL;
        if (CHECK_OK(wa_sim_create(&sim, prog, &o)) &&
            CHECK_OK(wa_sim_bind_buffer(sim, 0, in, sizeof(in))) &&
            CHECK_OK(wa_sim_bind_buffer(sim, 1, out, sizeof(out)))) {
            wa_status st = wa_sim_run(sim);
            ok = CHECK_MSG(st == WA_OK, "%s: %s", line, ut_diags_text(ctx));
        }
        wa_sim_destroy(sim);
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    if (ok) {
        memcpy(io->r, out, sizeof(io->r));
        io->vcc = out[2 * NL] | (uint64_t)out[2 * NL + 1] << 32;
    }
    return ok;
}

static void inputs(lanes *io, unsigned round, int floats)
{
    static const uint32_t ie[16] = { 0, 1, 2, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 31, 32,
                                     0x00800000u, 0xFF800000u, 0x00FFFFFFu, 0xFFFF8000u, 0x7FFFu,
                                     0x8000u, 0xFFFFu, 0x12345678u };
    static const float fe[16] = { 0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 1e10f,
                                  -1e10f, 3e9f, -3e9f, 0.49999997f, 1e-3f, 7.75f, -0.25f };
    for (unsigned l = 0; l < NL; l++) {
        if (round == 0) {
            io->a[l] = floats ? fbits(fe[l % 16]) : ie[l % 16];
            io->b[l] = floats ? fbits(fe[(l / 16 + 5 * l) % 16]) : ie[(l * 7 + 3) % 16];
        } else {
            io->a[l] = floats ? fbits((float)(int32_t)rnd() / 65536.0f) : rnd();
            io->b[l] = floats ? fbits((float)(int32_t)rnd() / 1048576.0f) : rnd();
        }
        io->c[l] = floats ? fbits((float)(int32_t)rnd() / 4096.0f) : rnd();
        io->old[0][l] = 0xDEAD0000u | l;
        io->old[1][l] = 0xBEEF0000u | l;
    }
    io->exec = round == 0 ? ~0ull : 0xF0F0F0F0F0F0F0F1ull ^ (uint64_t)rnd() << 20;
    io->vcc_in = (uint64_t)rnd() << 32 | rnd();
}

static int check_res(const lanes *io, unsigned k, const uint32_t want[NL], const char *what)
{
    unsigned bad = 0;
    for (unsigned l = 0; l < NL; l++) {
        uint32_t w = io->exec >> l & 1u ? want[l] : io->old[k][l];
        if (io->r[k][l] != w && ++bad <= 3)
            CHECK_MSG(0, "%s: v%u lane %u: 0x%08x, want 0x%08x (a 0x%08x b 0x%08x c 0x%08x)", what,
                      5 + k, l, io->r[k][l], w, io->a[l], io->b[l], io->c[l]);
    }
    return bad == 0;
}

/* ---- references ------------------------------------------------------------------------ */

typedef uint32_t (*ref_fn)(uint32_t a, uint32_t b, uint32_t c);

static uint32_t sat_i32(double f)
{
    if (f != f)
        return 0;
    if (f >= 2147483647.0)
        return 0x7FFFFFFFu;
    if (f <= -2147483648.0)
        return 0x80000000u;
    return (uint32_t)(int32_t)f;
}
static uint32_t r_floor(uint32_t a, uint32_t b, uint32_t c) { (void)b; (void)c; return fbits(floorf(fval(a))); }
static uint32_t r_ceil(uint32_t a, uint32_t b, uint32_t c) { (void)b; (void)c; return fbits(ceilf(fval(a))); }
static uint32_t r_trunc(uint32_t a, uint32_t b, uint32_t c) { (void)b; (void)c; return fbits(truncf(fval(a))); }
static uint32_t r_rndne(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b; (void)c;
    float x = fval(a), f = floorf(x), d = x - f;
    float r = d > 0.5f ? f + 1.0f : d < 0.5f ? f : (fmodf(f, 2.0f) == 0.0f ? f : f + 1.0f);
    return fbits(copysignf(r, x));
}
static uint32_t r_fract(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b; (void)c;
    float x = fval(a), r = x - floorf(x);
    return fbits(r >= 1.0f ? 0x1.fffffep-1f : r);
}
static uint32_t r_cvt_i32(uint32_t a, uint32_t b, uint32_t c) { (void)b; (void)c; return sat_i32(fval(a)); }
static uint32_t r_cvt_rpi(uint32_t a, uint32_t b, uint32_t c) { (void)b; (void)c; return sat_i32(floor((double)fval(a) + 0.5)); }
static uint32_t r_cvt_flr(uint32_t a, uint32_t b, uint32_t c) { (void)b; (void)c; return sat_i32(floor((double)fval(a))); }
static uint32_t r_ubyte2(uint32_t a, uint32_t b, uint32_t c) { (void)b; (void)c; return fbits((float)((a >> 16) & 255u)); }
static uint32_t r_off_i4(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b; (void)c;
    static const float t[16] = { 0, .0625f, .125f, .1875f, .25f, .3125f, .375f, .4375f,
                                 -.5f, -.4375f, -.375f, -.3125f, -.25f, -.1875f, -.125f, -.0625f };
    return fbits(t[a & 15u]);
}
static uint32_t r_bfrev(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b; (void)c;
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (a & (1u << i))
            r |= 0x80000000u >> i;
    return r;
}
static uint32_t r_ffbh_u(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b; (void)c;
    for (int i = 31; i >= 0; i--)
        if (a & (1u << i))
            return (uint32_t)(31 - i);
    return 0xFFFFFFFFu;
}
static uint32_t r_ffbl(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b; (void)c;
    for (int i = 0; i < 32; i++)
        if (a & (1u << i))
            return (uint32_t)i;
    return 0xFFFFFFFFu;
}
static uint32_t r_ffbh_i(uint32_t a, uint32_t b, uint32_t c)
{
    (void)b; (void)c;
    uint32_t x = (a & 0x80000000u) ? ~a : a;
    for (int i = 30; i >= 0; i--)
        if (x & (1u << i))
            return (uint32_t)(31 - i);
    return 0xFFFFFFFFu;
}
static uint32_t r_mul_i24(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    int64_t x = (a & 0x800000u) ? (int64_t)(a & 0xFFFFFFu) - 0x1000000 : (int64_t)(a & 0xFFFFFFu);
    int64_t y = (b & 0x800000u) ? (int64_t)(b & 0xFFFFFFu) - 0x1000000 : (int64_t)(b & 0xFFFFFFu);
    return (uint32_t)(uint64_t)(x * y);
}
static uint32_t r_mul_hi_i24(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    int64_t x = (a & 0x800000u) ? (int64_t)(a & 0xFFFFFFu) - 0x1000000 : (int64_t)(a & 0xFFFFFFu);
    int64_t y = (b & 0x800000u) ? (int64_t)(b & 0xFFFFFFu) - 0x1000000 : (int64_t)(b & 0xFFFFFFu);
    return (uint32_t)((uint64_t)(x * y) >> 32);
}
static uint32_t r_mul_hi_u24(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    return (uint32_t)(((uint64_t)(a & 0xFFFFFFu) * (b & 0xFFFFFFu)) >> 32);
}
static uint32_t r_min_i32(uint32_t a, uint32_t b, uint32_t c) { (void)c; return (int32_t)a < (int32_t)b ? a : b; }
static uint32_t r_max_i32(uint32_t a, uint32_t b, uint32_t c) { (void)c; return (int32_t)a > (int32_t)b ? a : b; }
static uint32_t r_xnor(uint32_t a, uint32_t b, uint32_t c) { (void)c; return ~(a ^ b); }
static uint32_t r_add_u16(uint32_t a, uint32_t b, uint32_t c) { (void)c; return (a + b) & 0xFFFFu; }
static uint32_t r_add_u16_clamp(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    uint32_t s = (a & 0xFFFFu) + (b & 0xFFFFu);
    return s > 0xFFFFu ? 0xFFFFu : s;
}
static uint32_t r_sub_u32_clamp(uint32_t a, uint32_t b, uint32_t c) { (void)c; return b > a ? 0 : a - b; }
static uint32_t r_ashr_i16(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    int32_t v = (int32_t)(b & 0xFFFFu) - ((b & 0x8000u) ? 0x10000 : 0);
    unsigned s = a & 15u;
    for (unsigned i = 0; i < s; i++)
        v = v < 0 ? -((-v + 1) / 2) : v / 2; /* floor division by 2 */
    return (uint32_t)v & 0xFFFFu;
}
static uint32_t r_max_i16(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    int x = (int)(a & 0xFFFFu) - ((a & 0x8000u) ? 0x10000 : 0);
    int y = (int)(b & 0xFFFFu) - ((b & 0x8000u) ? 0x10000 : 0);
    return (uint32_t)(x > y ? x : y) & 0xFFFFu;
}
static uint32_t r_fmac(uint32_t a, uint32_t b, uint32_t c)
{
    return fbits((float)((double)fval(a) * fval(b) + fval(c))); /* exact in double here */
}
static uint32_t r_neg_abs_add(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    return fbits(-fval(a) + fabsf(fval(b)));
}
static uint32_t r_mul2_clamp(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    float x = (fval(a) + fval(b)) * 2.0f;
    return fbits(x != x || x <= 0.0f ? 0.0f : x >= 1.0f ? 1.0f : x);
}
static uint32_t r_div2(uint32_t a, uint32_t b, uint32_t c) { (void)c; return fbits(fval(a) * fval(b) * 0.5f); }
/* SDWA: src0 byte 1 sign-extended, src1 word 1; result byte 2, UNUSED_PAD */
static uint32_t r_sdwa_pad(uint32_t a, uint32_t b, uint32_t c)
{
    (void)c;
    int32_t x = (int32_t)((a >> 8) & 0xFFu) - (((a >> 8) & 0x80u) ? 256 : 0);
    uint32_t y = b >> 16;
    return (((uint32_t)x + y) & 0xFFu) << 16;
}

typedef struct vcase {
    const char *line;
    ref_fn ref;
    int floats;
} vcase;

static const vcase cases[] = {
    { "v_floor_f32 v5, v2", r_floor, 1 },
    { "v_ceil_f32 v5, v2", r_ceil, 1 },
    { "v_trunc_f32 v5, v2", r_trunc, 1 },
    { "v_rndne_f32 v5, v2", r_rndne, 1 },
    { "v_fract_f32 v5, v2", r_fract, 1 },
    { "v_cvt_i32_f32 v5, v2", r_cvt_i32, 1 },
    { "v_cvt_rpi_i32_f32 v5, v2", r_cvt_rpi, 1 },
    { "v_cvt_flr_i32_f32 v5, v2", r_cvt_flr, 1 },
    { "v_cvt_f32_ubyte2 v5, v2", r_ubyte2, 0 },
    { "v_cvt_off_f32_i4 v5, v2", r_off_i4, 0 },
    { "v_bfrev_b32 v5, v2", r_bfrev, 0 },
    { "v_ffbh_u32 v5, v2", r_ffbh_u, 0 },
    { "v_ffbl_b32 v5, v2", r_ffbl, 0 },
    { "v_ffbh_i32 v5, v2", r_ffbh_i, 0 },
    { "v_mul_i32_i24 v5, v2, v3", r_mul_i24, 0 },
    { "v_mul_hi_i32_i24 v5, v2, v3", r_mul_hi_i24, 0 },
    { "v_mul_hi_u32_u24 v5, v2, v3", r_mul_hi_u24, 0 },
    { "v_min_i32 v5, v2, v3", r_min_i32, 0 },
    { "v_max_i32 v5, v2, v3", r_max_i32, 0 },
    { "v_xnor_b32 v5, v2, v3", r_xnor, 0 },
    { "v_add_u16 v5, v2, v3", r_add_u16, 0 },
    { "v_add_u16_e64 v5, v2, v3 clamp", r_add_u16_clamp, 0 },
    { "v_sub_u32_e64 v5, v2, v3 clamp", r_sub_u32_clamp, 0 },
    { "v_ashrrev_i16 v5, v2, v3", r_ashr_i16, 0 },
    { "v_max_i16 v5, v2, v3", r_max_i16, 0 },
    { "v_fmac_f32 v5, v2, v3", NULL, 1 }, /* accumulates into v5: checked below */
    { "v_add_f32_e64 v5, -v2, |v3|", r_neg_abs_add, 1 },
    { "v_add_f32_e64 v5, v2, v3 clamp mul:2", r_mul2_clamp, 1 },
    { "v_mul_f32_e64 v5, v2, v3 div:2", r_div2, 1 },
    { "v_add_u32_sdwa v5, sext(v2), v3 dst_sel:BYTE_2 dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_1",
      r_sdwa_pad, 0 },
};

static void vop_cases(void)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (!cases[i].ref)
            continue;
        ut_context("%s", cases[i].line);
        for (unsigned round = 0; round < 4; round++) {
            lanes io;
            inputs(&io, round, cases[i].floats);
            if (!run_lanes("gfx942", cases[i].line, &io))
                break;
            uint32_t want[NL];
            for (unsigned l = 0; l < NL; l++)
                want[l] = cases[i].ref(io.a[l], io.b[l], io.c[l]);
            if (!check_res(&io, 0, want, cases[i].line))
                break;
        }
    }
    ut_context("%s", "");
}

/* Accumulating and literal-K forms: v5 starts as c (fmac) or K is 0.75. */
static void fma_forms(void)
{
    for (unsigned round = 0; round < 3; round++) {
        lanes io;
        inputs(&io, round + 1, 1);
        for (unsigned l = 0; l < NL; l++)
            io.old[0][l] = io.c[l];
        uint32_t want[NL];
        if (run_lanes("gfx942", "v_fmac_f32 v5, v2, v3", &io)) {
            for (unsigned l = 0; l < NL; l++)
                want[l] = r_fmac(io.a[l], io.b[l], io.c[l]);
            check_res(&io, 0, want, "v_fmac_f32");
        }
        inputs(&io, round + 1, 1);
        if (run_lanes("gfx942", "v_fmamk_f32 v5, v2, 0x3f400000, v4", &io)) {
            for (unsigned l = 0; l < NL; l++)
                want[l] = r_fmac(io.a[l], fbits(0.75f), io.c[l]);
            check_res(&io, 0, want, "v_fmamk_f32");
        }
        if (run_lanes("gfx942", "v_fmaak_f32 v5, v2, v3, 0x3f400000", &io)) {
            for (unsigned l = 0; l < NL; l++)
                want[l] = r_fmac(io.a[l], io.b[l], fbits(0.75f));
            check_res(&io, 0, want, "v_fmaak_f32");
        }
    }
}

/* Carry forms: vdst and the carry mask (vcc) from 33-bit sums and differences. */
static void carries(void)
{
    for (unsigned round = 0; round < 4; round++) {
        lanes io;
        inputs(&io, round, 0);
        uint32_t want[NL];
        uint64_t cy = 0;
        if (run_lanes("gfx942", "v_add_co_u32 v5, vcc, v2, v3", &io)) {
            for (unsigned l = 0; l < NL; l++) {
                uint64_t s = (uint64_t)io.a[l] + io.b[l];
                want[l] = (uint32_t)s;
                if ((io.exec >> l & 1u) && (s >> 32))
                    cy |= 1ull << l;
            }
            check_res(&io, 0, want, "v_add_co_u32");
            CHECK_EQ_HEX(io.vcc, cy);
        }
        cy = 0;
        if (run_lanes("gfx942", "v_subb_co_u32 v5, vcc, v2, v3, vcc", &io)) {
            for (unsigned l = 0; l < NL; l++) {
                uint64_t bin = io.vcc_in >> l & 1u;
                want[l] = io.a[l] - io.b[l] - (uint32_t)bin;
                if ((io.exec >> l & 1u) && (uint64_t)io.b[l] + bin > io.a[l])
                    cy |= 1ull << l;
            }
            check_res(&io, 0, want, "v_subb_co_u32");
            CHECK_EQ_HEX(io.vcc, cy);
        }
    }
}

/* 64-bit forms and the swap. */
static void wide_and_swap(void)
{
    lanes io;
    inputs(&io, 1, 0);
    uint32_t want0[NL], want1[NL];
    if (run_lanes("gfx942", "v_cvt_f64_i32 v[6:7], v2\n  v_mov_b32 v5, v6\n  v_mov_b32 v6, v7", &io)) {
        for (unsigned l = 0; l < NL; l++) {
            double d = (double)(int32_t)io.a[l];
            uint64_t u;
            memcpy(&u, &d, sizeof(u));
            want0[l] = (uint32_t)u;
            want1[l] = (uint32_t)(u >> 32);
        }
        check_res(&io, 0, want0, "v_cvt_f64_i32 lo");
        check_res(&io, 1, want1, "v_cvt_f64_i32 hi");
    }
    if (run_lanes("gfx942", "v_mov_b64 v[6:7], v[2:3]\n  v_mov_b32 v5, v6\n  v_mov_b32 v6, v7", &io)) {
        check_res(&io, 0, io.a, "v_mov_b64 lo");
        check_res(&io, 1, io.b, "v_mov_b64 hi");
    }
    if (run_lanes("gfx942", "v_swap_b32 v5, v6", &io)) {
        check_res(&io, 0, io.old[1], "v_swap_b32 v5");
        check_res(&io, 1, io.old[0], "v_swap_b32 v6");
    }
    /* SDWA dst_unused: PRESERVE keeps v5's other bytes, SEXT extends the sign */
    if (run_lanes("gfx942", "v_mov_b32_sdwa v5, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0", &io)) {
        for (unsigned l = 0; l < NL; l++)
            want0[l] = (io.old[0][l] & 0xFFFF00FFu) | (io.a[l] & 0xFFu) << 8;
        check_res(&io, 0, want0, "sdwa preserve");
    }
    if (run_lanes("gfx942", "v_mov_b32_sdwa v5, v2 dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1", &io)) {
        for (unsigned l = 0; l < NL; l++)
            want0[l] = (io.a[l] >> 16) | ((io.a[l] & 0x80000000u) ? 0xFFFF0000u : 0);
        check_res(&io, 0, want0, "sdwa sext");
    }
}

/* The rows left out stop the run with the reason wa_sim_unsupported gives. */
static void unsupported(void)
{
    static const struct {
        wa_opcode op;
        const char *line;
    } cs[] = {
        { WA_OP_V_EXP_LEGACY_F32, "v_exp_legacy_f32 v5, v2" },
        { WA_OP_V_LOG_LEGACY_F32, "v_log_legacy_f32 v5, v2" },
        { WA_OP_V_CVT_NORM_I16_F16, "v_cvt_norm_i16_f16 v5, v2" },
        { WA_OP_V_CVT_NORM_U16_F16, "v_cvt_norm_u16_f16 v5, v2" },
        { WA_OP_V_MAC_F16, "v_mac_f16 v5, v2, v3" },
        { WA_OP_V_MADMK_F16, "v_madmk_f16 v5, v2, 0x3c00, v3" },
        { WA_OP_V_MADAK_F16, "v_madak_f16 v5, v2, v3, 0x3c00" },
        { WA_OP_V_DOT2C_F32_F16, "v_dot2c_f32_f16 v5, v2, v3" },
        { WA_OP_V_PK_FMAC_F16, "v_pk_fmac_f16 v5, v2, v3" },
    };
    for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
        ut_context("%s", cs[i].line);
        const char *why = wa_sim_unsupported(cs[i].op);
        if (!CHECK(why != NULL))
            continue;
        char text[1024];
        snprintf(text, sizeof(text),
                 ".kernel t\n  .target gfx942\n  .abi workitem_id_x\n  v_mov_b32 v2, 0\n"
                 "  v_mov_b32 v3, 0\n  v_mov_b32 v5, 0\n  %s\n  s_endpgm\n.end_kernel\n", cs[i].line);
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        wa_program *prog = ut_parse(ctx, text);
        if (prog) {
            wa_sim_options o = WA_SIM_OPTIONS_INIT;
            wa_sim *sim = NULL;
            if (CHECK_OK(wa_sim_create(&sim, prog, &o))) {
                CHECK_STATUS(wa_sim_run(sim), WA_E_UNSUPPORTED);
                CHECK_STR_CONTAINS(ut_diags_text(ctx), why);
            }
            wa_sim_destroy(sim);
        }
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
    }
    /* every other VOP1/VOP2 row executes */
    unsigned left_out = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if ((info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2) && wa_sim_unsupported(op))
            left_out++;
    }
    CHECK_EQ_UINT(left_out, 14u);
    ut_context("%s", "");
}

UT_SUITE(UT_CASE(vop_cases) UT_CASE(fma_forms) UT_CASE(carries) UT_CASE(wide_and_swap)
         UT_CASE(unsupported));
