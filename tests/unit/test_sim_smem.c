/* tests/unit/test_sim_smem.c — the simulator's scalar memory semantics (SMEM),
   checked against expectations this file computes itself:

     loads      every width from an address (immediate, SGPR and SGPR + offset:N
                offsets, negative immediates) and from a buffer resource with the
                num_records range check
     stores     every width, to an address and through a resource (out-of-range
                dwords dropped); data read when the store issues
     atomics    every operation, 32 and 64 bits, on an address and on a resource,
                with glc (the old value returned) and without; cmpswap matching
                and not
     order      scalar memory completes out of order: two stores to one address
                land in either order over seeds, and lgkmcnt(0) orders them
     timers     s_memtime / s_memrealtime: 64-bit, moving forward, returned through
                lgkmcnt (reading early is a missing wait)
     no effect  the cache operations and address-translation probes
     left out  s_scratch_* (WA_E_UNSUPPORTED with the reason). */
#include "check.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}

static wa_status run_text_flags(const char *text, unsigned flags, void *in, size_t in_bytes,
                                void *out, size_t out_bytes, uint64_t seed, char *diag,
                                size_t ndiag)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, text);
    wa_status st = WA_E_PARSE;
    if (prog) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        o.flags |= flags;
        o.seed = seed;
        wa_sim *sim = NULL;
        st = wa_sim_create(&sim, prog, &o);
        if (st == WA_OK) {
            wa_sim_bind_buffer(sim, 0, in, in_bytes);
            wa_sim_bind_buffer(sim, 1, out, out_bytes);
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

static wa_status run_text(const char *text, void *in, size_t in_bytes, void *out, size_t out_bytes,
                          uint64_t seed, char *diag, size_t ndiag)
{
    return run_text_flags(text, 0, in, in_bytes, out, out_bytes, seed, diag, ndiag);
}

/* s[4:5] = in, s[6:7] = out; s[12:15] a buffer resource over `in` with
   num_records `nrec` (stride 0). */
static void head(ut_tb *t, unsigned nrec)
{
    ut_tb_printf(t, ".kernel t\n"
                 "  .target gfx942\n"
                 "  .abi kernarg_ptr, workitem_id_x\n"
                 "  .arg in, global_buffer, offset:0, size:8, align:8\n"
                 "  .arg out, global_buffer, offset:8, size:8, align:8\n"
                 "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                 "  s_waitcnt lgkmcnt(0)\n"
                 "  s_mov_b32 s12, s4\n"
                 "  s_and_b32 s13, s5, 0xffff\n"
                 "  s_mov_b32 s14, %u\n"
                 "  s_mov_b32 s15, 0x27000\n"
                 "  v_mov_b32 v1, 0\n",
              nrec);
}

/* Stores s[first..first+n-1] to out + 4*at (one global store per dword). */
static void dump(ut_tb *t, unsigned first, unsigned n, unsigned at)
{
    for (unsigned k = 0; k < n; k++)
        ut_tb_printf(t, "  v_mov_b32 v2, s%u\n  v_mov_b32 v3, %u\n  global_store_dword v3, v2, s[6:7]\n",
                  first + k, 4 * (at + k));
}

/* "s32" or "s[32:47]" */
static const char *sreg(char *buf, unsigned first, unsigned n)
{
    if (n == 1)
        snprintf(buf, 16, "s%u", first);
    else
        snprintf(buf, 16, "s[%u:%u]", first, first + n - 1);
    return buf;
}

static int run_ok(const char *text, void *in, size_t ni, void *out, size_t no, uint64_t seed)
{
    char diag[512];
    wa_status st = run_text(text, in, ni, out, no, seed, diag, sizeof(diag));
    return CHECK_MSG(st == WA_OK, "status %d: %s", (int)st, diag);
}

/* ---- loads ---------------------------------------------------------------------------------- */

static void loads_all_widths(void)
{
    static const struct {
        const char *mn;
        unsigned n;
    } w[] = { { "s_load_dword", 1 }, { "s_load_dwordx2", 2 }, { "s_load_dwordx4", 4 },
              { "s_load_dwordx8", 8 }, { "s_load_dwordx16", 16 } };
    uint32_t in[256];
    for (unsigned i = 0; i < 256; i++)
        in[i] = 0xA0000000u + i * 3;
    for (unsigned i = 0; i < 5; i++) {
        ut_tb t = { 0 };
        head(&t, 1024);
        /* immediate, SGPR, SGPR + offset:N, and a negative immediate from a moved base */
        char r0[16], r1[16], r2[16], r3[16];
        ut_tb_printf(&t, "  s_mov_b32 s20, 40\n  %s %s, s[4:5], 16\n", w[i].mn, sreg(r0, 32, w[i].n));
        ut_tb_printf(&t, "  %s %s, s[4:5], s20\n", w[i].mn, sreg(r1, 48, w[i].n));
        ut_tb_printf(&t, "  %s %s, s[4:5], s20 offset:0x48\n", w[i].mn, sreg(r2, 64, w[i].n));
        ut_tb_printf(&t, "  s_add_u32 s22, s4, 0x100\n  s_addc_u32 s23, s5, 0\n"
                      "  %s %s, s[22:23], -0x20\n  s_waitcnt lgkmcnt(0)\n",
                  w[i].mn, sreg(r3, 80, w[i].n));
        dump(&t, 32, w[i].n, 0);
        dump(&t, 48, w[i].n, 16);
        dump(&t, 64, w[i].n, 32);
        dump(&t, 80, w[i].n, 48);
        ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");
        uint32_t out[64];
        memset(out, 0xEE, sizeof(out));
        ut_context("%s", w[i].mn);
        if (run_ok(t.s, in, sizeof(in), out, sizeof(out), 3)) {
            for (unsigned k = 0; k < w[i].n; k++) {
                CHECK_EQ_HEX(out[k], in[4 + k]);
                CHECK_EQ_HEX(out[16 + k], in[10 + k]);
                CHECK_EQ_HEX(out[32 + k], in[(40 + 0x48) / 4 + k]);
                CHECK_EQ_HEX(out[48 + k], in[(0x100 - 0x20) / 4 + k]);
            }
        }
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* s_buffer_load_*: the resource's base plus the offset; dwords at or past
   num_records read 0. */
static void buffer_loads_range(void)
{
    static const struct {
        const char *mn;
        unsigned n;
    } w[] = { { "s_buffer_load_dword", 1 }, { "s_buffer_load_dwordx2", 2 },
              { "s_buffer_load_dwordx4", 4 }, { "s_buffer_load_dwordx8", 8 },
              { "s_buffer_load_dwordx16", 16 } };
    uint32_t in[64];
    for (unsigned i = 0; i < 64; i++)
        in[i] = 0xB0000000u + i;
    const unsigned nrec = 40; /* bytes: dwords 0..9 in range */
    for (unsigned i = 0; i < 5; i++) {
        ut_tb t = { 0 };
        head(&t, nrec);
        const char *r = w[i].n == 1 ? "s32" : NULL;
        char dst[32];
        if (!r) {
            snprintf(dst, sizeof(dst), "s[32:%u]", 31 + w[i].n);
            r = dst;
        }
        ut_tb_printf(&t, "  s_mov_b32 s20, 8\n  %s %s, s[12:15], s20 offset:0x10\n  s_waitcnt lgkmcnt(0)\n",
                  w[i].mn, r);
        dump(&t, 32, w[i].n, 0);
        ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");
        uint32_t out[16];
        memset(out, 0xEE, sizeof(out));
        ut_context("%s", w[i].mn);
        if (run_ok(t.s, in, sizeof(in), out, sizeof(out), 2))
            for (unsigned k = 0; k < w[i].n; k++) {
                unsigned dw = 6 + k; /* (8 + 16) / 4 */
                CHECK_EQ_HEX(out[k], 4 * dw + 4 <= nrec ? in[dw] : 0u);
            }
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* ---- stores --------------------------------------------------------------------------------- */

static void stores_all_widths(void)
{
    static const struct {
        const char *mn;
        unsigned n;
        int buffer;
    } w[] = { { "s_store_dword", 1, 0 }, { "s_store_dwordx2", 2, 0 }, { "s_store_dwordx4", 4, 0 },
              { "s_buffer_store_dword", 1, 1 }, { "s_buffer_store_dwordx2", 2, 1 },
              { "s_buffer_store_dwordx4", 4, 1 } };
    for (unsigned i = 0; i < 6; i++) {
        ut_tb t = { 0 };
        const unsigned nrec = 52; /* buffer stores: dwords 0..12 */
        head(&t, nrec);
        /* the resource over `out` for the buffer forms */
        ut_tb_printf(&t, "  s_mov_b32 s12, s6\n  s_and_b32 s13, s7, 0xffff\n");
        for (unsigned k = 0; k < 4; k++)
            ut_tb_printf(&t, "  s_mov_b32 s%u, 0x%x\n", 32 + k, 0x51000000u + 0x111u * (i + 1) + k);
        const char *src = w[i].n == 1 ? "s32" : w[i].n == 2 ? "s[32:33]" : "s[32:35]";
        const char *base = w[i].buffer ? "s[12:15]" : "s[6:7]";
        ut_tb_printf(&t, "  %s %s, %s, 0x20\n", w[i].mn, src, base);
        ut_tb_printf(&t, "  s_mov_b32 s20, 0x28\n  %s %s, %s, s20 offset:0x8\n", w[i].mn, src, base);
        /* the data is read at issue: overwriting it at once changes nothing */
        ut_tb_printf(&t, "  s_mov_b32 s32, 0\n  s_waitcnt lgkmcnt(0)\n  s_endpgm\n.end_kernel\n");
        uint32_t out[32], in[4] = { 0 };
        memset(out, 0x77, sizeof(out));
        ut_context("%s", w[i].mn);
        if (run_ok(t.s, in, sizeof(in), out, sizeof(out), 4)) {
            for (unsigned d = 0; d < 32; d++) {
                uint32_t want = 0x77777777u;
                for (unsigned k = 0; k < w[i].n; k++) {
                    uint32_t v = 0x51000000u + 0x111u * (i + 1) + k;
                    if (d == 8 + k || d == 12 + k)
                        want = w[i].buffer && 4 * d + 4 > nrec ? 0x77777777u : v;
                }
                CHECK_MSG(out[d] == want, "%s: out[%u] = 0x%08x, want 0x%08x", w[i].mn, d, out[d], want);
            }
        }
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* ---- atomics -------------------------------------------------------------------------------- */

/* The new memory value, written from the ISA's description of each operation. */
static uint64_t ref_atomic(const char *op, uint64_t m, uint64_t d, uint64_t cmp, unsigned bytes)
{
    uint64_t mask = bytes == 8 ? ~0ull : 0xFFFFFFFFull;
    int64_t ms = bytes == 8 ? (int64_t)m : (int64_t)(int32_t)(uint32_t)m;
    int64_t ds = bytes == 8 ? (int64_t)d : (int64_t)(int32_t)(uint32_t)d;
    uint64_t r;
    if (!strcmp(op, "swap")) r = d;
    else if (!strcmp(op, "cmpswap")) r = m == cmp ? d : m;
    else if (!strcmp(op, "add")) r = m + d;
    else if (!strcmp(op, "sub")) r = m - d;
    else if (!strcmp(op, "smin")) r = ms < ds ? m : d;
    else if (!strcmp(op, "umin")) r = m < d ? m : d;
    else if (!strcmp(op, "smax")) r = ms > ds ? m : d;
    else if (!strcmp(op, "umax")) r = m > d ? m : d;
    else if (!strcmp(op, "and")) r = m & d;
    else if (!strcmp(op, "or")) r = m | d;
    else if (!strcmp(op, "xor")) r = m ^ d;
    else if (!strcmp(op, "inc")) r = m >= d ? 0 : m + 1;
    else r = (m == 0 || m > d) ? d : m - 1; /* dec */
    return r & mask;
}

static void atomics_all(void)
{
    static const char *const ops[] = { "swap", "cmpswap", "add", "sub", "smin", "umin", "smax",
                                       "umax", "and", "or", "xor", "inc", "dec" };
    enum { NC = 8 };
    for (unsigned oi = 0; oi < 13; oi++)
        for (unsigned wide = 0; wide < 2; wide++)
            for (unsigned buf = 0; buf < 2; buf++) {
                const char *op = ops[oi];
                unsigned bytes = wide ? 8 : 4, words = bytes / 4;
                int cmpswap = oi == 1;
                uint64_t mem[NC], dat[NC], cmp[NC];
                uint32_t memw[2 * NC];
                for (unsigned c = 0; c < NC; c++) {
                    uint64_t m = (uint64_t)rnd() << 32 | rnd(), d = (uint64_t)rnd() << 32 | rnd();
                    if (c == 0) { m = 0; d = 5; }
                    if (c == 1) { m = wide ? 0x8000000000000000ull : 0x80000000u; d = 1; }
                    if (c == 2) { m = 7; d = 7; }
                    if (c == 3) { m = 9; d = 3; }
                    if (!wide) {
                        m &= 0xFFFFFFFFu;
                        d &= 0xFFFFFFFFu;
                    }
                    mem[c] = m;
                    dat[c] = d;
                    cmp[c] = c % 2 ? m : m ^ 1u; /* match and mismatch */
                    memw[2 * c] = (uint32_t)m;
                    memw[2 * c + 1] = (uint32_t)(m >> 32);
                }
                char mn[48];
                snprintf(mn, sizeof(mn), "s_%satomic_%s%s", buf ? "buffer_" : "", op, wide ? "_x2" : "");
                ut_tb t = { 0 };
                head(&t, 1024);
                for (unsigned c = 0; c < NC; c++) {
                    unsigned n = words * (cmpswap ? 2 : 1);
                    uint32_t v[4] = { (uint32_t)dat[c], (uint32_t)(dat[c] >> 32), 0, 0 };
                    if (cmpswap) {
                        v[words] = (uint32_t)cmp[c];
                        if (wide)
                            v[3] = (uint32_t)(cmp[c] >> 32);
                    }
                    for (unsigned k = 0; k < n; k++)
                        ut_tb_printf(&t, "  s_mov_b32 s%u, 0x%x\n", 32 + k, v[k]);
                    char reg[16];
                    if (n == 1)
                        snprintf(reg, sizeof(reg), "s32");
                    else
                        snprintf(reg, sizeof(reg), "s[32:%u]", 31 + n);
                    /* odd cases return the old value (glc); even ones do not */
                    ut_tb_printf(&t, "  %s %s, %s, 0x%x%s\n  s_waitcnt lgkmcnt(0)\n", mn, reg,
                              buf ? "s[12:15]" : "s[4:5]", 8 * c, c % 2 ? " glc" : "");
                    dump(&t, 32, words, 2 * c);
                }
                ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");
                uint32_t out[2 * NC];
                memset(out, 0, sizeof(out));
                ut_context("%s", mn);
                if (run_ok(t.s, memw, sizeof(memw), out, sizeof(out), 5)) {
                    for (unsigned c = 0; c < NC; c++) {
                        uint64_t want = ref_atomic(op, mem[c], dat[c], cmp[c], bytes);
                        uint64_t got = memw[2 * c] | (wide ? (uint64_t)memw[2 * c + 1] << 32 : 0);
                        CHECK_MSG(got == want, "%s case %u: memory 0x%llx, want 0x%llx", mn, c,
                                  (unsigned long long)got, (unsigned long long)want);
                        /* the returned (glc) or unchanged (no glc) first data word(s) */
                        uint64_t ret = out[2 * c] | (wide ? (uint64_t)out[2 * c + 1] << 32 : 0);
                        uint64_t want_ret = c % 2 ? mem[c] : dat[c];
                        CHECK_MSG(ret == want_ret, "%s case %u: sdata 0x%llx, want 0x%llx", mn, c,
                                  (unsigned long long)ret, (unsigned long long)want_ret);
                    }
                }
                ut_tb_free(&t);
            }
    ut_context("%s", "");
}

/* A returning atomic's result is read before lgkmcnt: a missing wait. */
static void atomic_return_needs_wait(void)
{
    ut_tb t = { 0 };
    head(&t, 1024);
    ut_tb_printf(&t, "  s_mov_b32 s32, 1\n  s_atomic_add s32, s[4:5], 0 glc\n  s_add_u32 s33, s32, 1\n"
                  "  s_waitcnt lgkmcnt(0)\n  s_endpgm\n.end_kernel\n");
    uint32_t in[4] = { 0 }, out[4] = { 0 };
    char diag[512];
    CHECK_STATUS(run_text(t.s, in, sizeof(in), out, sizeof(out), 1, diag, sizeof(diag)), WA_E_SIM_WAIT);
    CHECK_STR_CONTAINS(diag, "s32");
    ut_tb_free(&t);
}

/* ---- ordering ------------------------------------------------------------------------------- */

/* Two stores to one address without a wait between them land in either order
   (over seeds 1..16 both orders happen); lgkmcnt(0) between them orders them. */
static void stores_out_of_order(void)
{
    for (int wait = 0; wait < 2; wait++) {
        ut_tb t = { 0 };
        head(&t, 0);
        ut_tb_printf(&t, "  s_mov_b32 s32, 1\n  s_mov_b32 s33, 2\n  s_store_dword s32, s[6:7], 0\n%s"
                      "  s_store_dword s33, s[6:7], 0\n  s_waitcnt lgkmcnt(0)\n  s_endpgm\n.end_kernel\n",
                  wait ? "  s_waitcnt lgkmcnt(0)\n" : "");
        unsigned first = 0, second = 0;
        for (uint64_t seed = 1; seed <= 16; seed++) {
            uint32_t in[1] = { 0 }, out[1] = { 0 };
            if (!run_ok(t.s, in, sizeof(in), out, sizeof(out), seed))
                break;
            first += out[0] == 1;
            second += out[0] == 2;
        }
        CHECK_EQ_UINT(first + second, 16);
        if (wait)
            CHECK_EQ_UINT(second, 16);
        else
            CHECK(first > 0 && second > 0);
        ut_tb_free(&t);
    }
}

/* ---- timers, cache control, scratch --------------------------------------------------------- */

static void timers(void)
{
    static const char *const mn[] = { "s_memtime", "s_memrealtime" };
    for (unsigned i = 0; i < 2; i++) {
        ut_tb t = { 0 };
        head(&t, 0);
        ut_tb_printf(&t, "  %s s[32:33]\n  s_waitcnt lgkmcnt(0)\n", mn[i]);
        for (unsigned k = 0; k < 20; k++)
            ut_tb_printf(&t, "  s_add_u32 s40, s40, 1\n");
        ut_tb_printf(&t, "  s_sleep 2\n  %s s[34:35]\n  s_waitcnt lgkmcnt(0)\n", mn[i]);
        dump(&t, 32, 4, 0);
        ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");
        uint32_t in[1] = { 0 }, out[4] = { 0 };
        ut_context("%s", mn[i]);
        if (run_ok(t.s, in, sizeof(in), out, sizeof(out), 1)) {
            uint64_t a = out[0] | (uint64_t)out[1] << 32, b = out[2] | (uint64_t)out[3] << 32;
            CHECK(b > a);
        }
        ut_tb_free(&t);
        /* the value comes back through lgkmcnt */
        ut_tb_printf(&t, ".kernel t\n  .target gfx942\n  %s s[32:33]\n  s_add_u32 s34, s32, 1\n"
                      "  s_endpgm\n.end_kernel\n", mn[i]);
        char diag[512];
        CHECK_STATUS(run_text(t.s, NULL, 0, NULL, 0, 1, diag, sizeof(diag)), WA_E_SIM_WAIT);
        ut_tb_free(&t);
        /* WA_SIM_CLOCK_UNDEFINED: the time is undefined (for differential runs), both halves */
        for (unsigned k = 0; k < 2; k++) {
            ut_tb_printf(&t, ".kernel t\n  .target gfx942\n  %s s[32:33]\n  s_waitcnt lgkmcnt(0)\n"
                          "  s_add_u32 s34, s%u, 1\n  s_endpgm\n.end_kernel\n",
                      mn[i], 32 + k);
            CHECK_STATUS(run_text_flags(t.s, 0, NULL, 0, NULL, 0, 1, diag, sizeof(diag)), WA_OK);
            CHECK_STATUS(run_text_flags(t.s, WA_SIM_UNDEF_ERRORS, NULL, 0, NULL, 0, 1, diag,
                                        sizeof(diag)),
                         WA_OK);
            CHECK_STATUS(run_text_flags(t.s, WA_SIM_UNDEF_ERRORS | WA_SIM_CLOCK_UNDEFINED, NULL,
                                        0, NULL, 0, 1, diag, sizeof(diag)),
                         WA_E_SIM_FAULT);
            CHECK_STR_CONTAINS(diag, "no defined value");
            ut_tb_free(&t);
        }
    }
    ut_context("%s", "");
}

static void cache_ops_no_effect(void)
{
    ut_tb t = { 0 };
    head(&t, 64);
    ut_tb_printf(&t, "  s_mov_b32 s32, 0x1234\n  s_store_dword s32, s[6:7], 0\n"
                  "  s_dcache_wb\n  s_dcache_wb_vol\n  s_dcache_inv\n  s_dcache_inv_vol\n"
                  "  s_dcache_discard s[6:7], 0\n  s_dcache_discard_x2 s[6:7], 0\n"
                  "  s_atc_probe 3, s[6:7], 0\n  s_atc_probe_buffer 3, s[12:15], 0\n"
                  "  s_waitcnt lgkmcnt(0)\n  s_load_dword s33, s[6:7], 0\n  s_waitcnt lgkmcnt(0)\n");
    dump(&t, 33, 1, 1);
    ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");
    uint32_t in[1] = { 0 }, out[2] = { 0, 0 };
    if (run_ok(t.s, in, sizeof(in), out, sizeof(out), 1)) {
        CHECK_EQ_HEX(out[0], 0x1234u);
        CHECK_EQ_HEX(out[1], 0x1234u);
    }
    ut_tb_free(&t);
}

static void scratch_left_out(void)
{
    static const wa_opcode ops[] = { WA_OP_S_SCRATCH_LOAD_DWORD, WA_OP_S_SCRATCH_LOAD_DWORDX2,
                                     WA_OP_S_SCRATCH_LOAD_DWORDX4, WA_OP_S_SCRATCH_STORE_DWORD,
                                     WA_OP_S_SCRATCH_STORE_DWORDX2, WA_OP_S_SCRATCH_STORE_DWORDX4 };
    for (unsigned i = 0; i < 6; i++) {
        const char *why = wa_sim_unsupported(ops[i]);
        if (CHECK(why != NULL))
            CHECK_STR_CONTAINS(why, "scratch");
    }
    ut_tb t = { 0 };
    head(&t, 0);
    ut_tb_printf(&t, "  s_scratch_load_dword s32, s[6:7], 0\n  s_waitcnt lgkmcnt(0)\n  s_endpgm\n.end_kernel\n");
    uint32_t in[1] = { 0 }, out[1] = { 0 };
    char diag[512];
    CHECK_STATUS(run_text(t.s, in, sizeof(in), out, sizeof(out), 1, diag, sizeof(diag)), WA_E_UNSUPPORTED);
    CHECK_STR_CONTAINS(diag, "scratch");
    ut_tb_free(&t);
    /* every other SMEM opcode is executed */
    unsigned left_out = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++)
        if (wa_isa_get(op)->format == WA_FMT_SMEM && wa_sim_unsupported(op))
            left_out++;
    CHECK_EQ_UINT(left_out, 6);
}

UT_SUITE(UT_CASE(loads_all_widths) UT_CASE(buffer_loads_range) UT_CASE(stores_all_widths)
         UT_CASE(atomics_all) UT_CASE(atomic_return_needs_wait) UT_CASE(stores_out_of_order)
         UT_CASE(timers) UT_CASE(cache_ops_no_effect) UT_CASE(scratch_left_out));
