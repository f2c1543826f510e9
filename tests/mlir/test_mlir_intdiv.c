/* tests/mlir/test_mlir_intdiv.c — integer division and remainder by
   constants: the magic numbers against C for every 16-bit divisor and random
   32-bit ones, and the emitted code in the simulator, exhaustively for 16-bit
   operands and on random and edge 32-bit operands, per lane (VALU) and
   uniform (SALU), for every kind (divui, remui, divsi, remsi, floordivsi,
   ceildivsi, ceildivui). */
#include "check.h"
#include "mlir_harness.h"

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- magic numbers ---------------------------------------------------------------------- */

static int is_pow2(uint32_t d)
{
    return (d & (d - 1)) == 0;
}

static unsigned check_udiv(uint32_t d, uint32_t x)
{
    tr_udiv_magic mg;
    tr_udiv_magic_compute(d, &mg);
    uint32_t q = tr_udiv_magic_eval(x, d, &mg);
    if (q != x / d) {
        CHECK_MSG(0, "udiv magic: %u / %u = %u, want %u", x, d, q, x / d);
        return 1;
    }
    return 0;
}

static unsigned check_sdiv(int32_t d, int32_t x)
{
    tr_sdiv_magic mg;
    tr_sdiv_magic_compute(d, &mg);
    int32_t q = tr_sdiv_magic_eval(x, d, &mg);
    int32_t want = (x == INT32_MIN && d == -1) ? INT32_MIN : x / d;
    if (q != want) {
        CHECK_MSG(0, "sdiv magic: %d / %d = %d, want %d", x, d, q, want);
        return 1;
    }
    return 0;
}

/* Operands that stress a divisor: around its multiples and the extremes. */
static uint32_t probe(uint32_t d, unsigned k)
{
    switch (k % 8) {
    case 0: return mk_rand();
    case 1: return (uint32_t)(mk_rand() % (0xFFFFFFFFu / d)) * d;
    case 2: return (uint32_t)(mk_rand() % (0xFFFFFFFFu / d)) * d - 1;
    case 3: return 0xFFFFFFFFu - k / 8;
    case 4: return 0x80000000u + k / 8 - 64;
    case 5: return 0x7FFFFFFFu - k / 8;
    case 6: return k / 8;
    default: return (uint32_t)(mk_rand() % (0xFFFFFFFFu / d)) * d + d - 1;
    }
}

static void magic_unsigned(void)
{
    mk_srand(11);
    unsigned bad = 0;
    for (uint32_t d = 3; d < 65536 && bad < 10; d++) {
        if (is_pow2(d))
            continue;
        for (unsigned k = 0; k < 256 && bad < 10; k++)
            bad += check_udiv(d, probe(d, k));
    }
    for (unsigned n = 0; n < 20000 && bad < 10; n++) {
        uint32_t d = mk_rand() >> (mk_rand() % 30);
        if (d < 3 || is_pow2(d))
            continue;
        for (unsigned k = 0; k < 64 && bad < 10; k++)
            bad += check_udiv(d, probe(d, k));
    }
    /* every 16-bit dividend, every 16-bit divisor of a sample */
    for (uint32_t d = 3; d < 65536 && bad < 10; d += 997)
        if (!is_pow2(d))
            for (uint32_t x = 0; x < 65536 && bad < 10; x++)
                bad += check_udiv(d, x);
    CHECK_EQ_UINT(bad, 0);
}

static void magic_signed(void)
{
    mk_srand(12);
    unsigned bad = 0;
    for (int32_t d = -65536; d < 65536 && bad < 10; d++) {
        uint32_t ad = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;
        if (ad < 2 || is_pow2(ad))
            continue;
        for (unsigned k = 0; k < 128 && bad < 10; k++)
            bad += check_sdiv(d, (int32_t)probe(ad, k));
    }
    for (unsigned n = 0; n < 20000 && bad < 10; n++) {
        int32_t d = (int32_t)mk_rand() >> (mk_rand() % 30);
        uint32_t ad = d < 0 ? 0u - (uint32_t)d : (uint32_t)d;
        if (ad < 2 || is_pow2(ad))
            continue;
        for (unsigned k = 0; k < 64 && bad < 10; k++)
            bad += check_sdiv(d, (int32_t)probe(ad, k));
    }
    CHECK_EQ_UINT(bad, 0);
}

/* ---- emitted code ----------------------------------------------------------------------- */

typedef enum dk { DIVUI, REMUI, DIVSI, REMSI, FLOORDIVSI, CEILDIVSI, CEILDIVUI, NKINDS } dk;
static const char *const dk_name[] = { "divui", "remui", "divsi", "remsi", "floordivsi",
                                       "ceildivsi", "ceildivui" };

static int64_t ref(dk k, int64_t x, int64_t d, unsigned bits)
{
    uint64_t m = (1ull << bits) - 1;
    uint64_t ux = (uint64_t)x & m, ud = (uint64_t)d & m;
    int64_t sx = (int64_t)(ux << (64 - bits)) >> (64 - bits);
    int64_t sd = (int64_t)(ud << (64 - bits)) >> (64 - bits);
    int64_t q;
    switch (k) {
    case DIVUI: return (int64_t)(ux / ud);
    case REMUI: return (int64_t)(ux % ud);
    case CEILDIVUI: return (int64_t)(ux / ud + (ux % ud != 0));
    case DIVSI: return sx / sd;
    case REMSI: return sx % sd;
    case FLOORDIVSI:
        q = sx / sd;
        return (sx % sd != 0 && ((sx < 0) != (sd < 0))) ? q - 1 : q;
    default:
        q = sx / sd;
        return (sx % sd != 0 && ((sx < 0) == (sd < 0))) ? q + 1 : q;
    }
}

static int is_signed(dk k)
{
    return k == DIVSI || k == REMSI || k == FLOORDIVSI || k == CEILDIVSI;
}

/* A kernel applying `kind` by the constant `d`: per lane to in[i] (a
   256-wide workgroup per 256 elements), or uniform (SALU) to the operands
   x_j = base + j * 0x9E3779B1 of an SGPR loop over j < n, x_j in an SGPR. */
#define UNIFORM_STEP 0x9E3779B1u
static void make_text(char *text, size_t cap, dk kind, int64_t d, unsigned bits, int uniform)
{
    const char *t = bits == 16 ? "i16" : "i32";
    int n = snprintf(text, cap,
                     "gpu.module @m {\n"
                     "  gpu.func @%s_%s(%%in: memref<?x%s>, %%out: memref<?x%s>, %%base: i32) kernel\n"
                     "      attributes {gpu.known_block_size = array<i32: %u, 1, 1>} {\n"
                     "    %%tid = gpu.thread_id x\n"
                     "    %%bid = gpu.block_id x\n"
                     "    %%c0 = arith.constant 0 : index\n"
                     "    %%c1 = arith.constant 1 : index\n"
                     "    %%c256 = arith.constant 256 : index\n"
                     "    %%d = arith.constant %lld : %s\n",
                     dk_name[kind], bits == 16 ? "i16" : "i32", t, t, uniform ? 64u : 256u,
                     (long long)d, t);
    if (!uniform)
        snprintf(text + n, cap - (size_t)n,
                 "    %%b = arith.muli %%bid, %%c256 : index\n"
                 "    %%i = arith.addi %%b, %%tid : index\n"
                 "    %%x = memref.load %%in[%%i] : memref<?x%s>\n"
                 "    %%r = arith.%s %%x, %%d : %s\n"
                 "    memref.store %%r, %%out[%%i] : memref<?x%s>\n"
                 "    gpu.return\n  }\n}\n",
                 t, dk_name[kind], t, t);
    else
        snprintf(text + n, cap - (size_t)n,
                 "    %%n = memref.dim %%out, %%c0 : memref<?x%s>\n"
                 "    %%step = arith.constant %d : i32\n"
                 "    scf.for %%j = %%c0 to %%n step %%c1 {\n"
                 "      %%ji = arith.index_cast %%j : index to i32\n"
                 "      %%o = arith.muli %%ji, %%step : i32\n"
                 "      %%x = arith.addi %%base, %%o : i32\n"
                 "      %%r = arith.%s %%x, %%d : %s\n"
                 "      memref.store %%r, %%out[%%j] : memref<?x%s>\n"
                 "    }\n"
                 "    gpu.return\n  }\n}\n",
                 t, (int32_t)UNIFORM_STEP, dk_name[kind], t, t);
}

/* Runs kind/d over `n` operands (`bits` wide, in `in`); returns mismatches. */
static unsigned run_div(dk kind, int64_t d, unsigned bits, int uniform, const void *in, unsigned n)
{
    char text[4096];
    make_text(text, sizeof(text), kind, d, bits, uniform);
    ut_context("arith.%s by %lld on i%u, %s", dk_name[kind], (long long)d, bits,
               uniform ? "uniform" : "per lane");
    unsigned esz = bits / 8, bad = 0;
    void *out = calloc(n, esz);
    mk k;
    mk_init(&k);
    k.no_assemble = 1;
    if (mk_load_text(&k, text, "div.mlir", NULL) == 0) {
        mk_buffer(&k, "arg0", (void *)in, (size_t)n * esz);
        mk_value(&k, "arg0_size0", n);
        mk_buffer(&k, "arg1", out, (size_t)n * esz);
        mk_value(&k, "arg1_size0", n);
        uint32_t base = uniform ? ((const uint32_t *)in)[0] : 0;
        mk_value(&k, "arg2", base);
        if (mk_run(&k, uniform ? 1 : n / 256, 1, 1) == 0) {
            for (unsigned i = 0; i < n; i++) {
                int64_t x, g;
                if (uniform) {
                    x = base + i * UNIFORM_STEP;
                    g = ((uint32_t *)out)[i];
                } else if (bits == 16) {
                    x = ((const uint16_t *)in)[i];
                    g = ((uint16_t *)out)[i];
                } else {
                    x = ((const uint32_t *)in)[i];
                    g = ((uint32_t *)out)[i];
                }
                int64_t w = ref(kind, x, d, bits) & (int64_t)((1ull << bits) - 1);
                if (g != w && bad++ < 3)
                    CHECK_MSG(0, "x = %lld: got %lld, want %lld", (long long)x, (long long)g,
                              (long long)w);
            }
            if (bad > 3)
                CHECK_MSG(0, "%u mismatches in all", bad);
        } else {
            bad = 1;
        }
    } else {
        bad = 1;
    }
    mk_free(&k);
    free(out);
    ut_context("%s", "");
    return bad;
}

/* Divisors: small, powers of two and their neighbours, large, negative. */
static const int64_t divisors32[] = { 1, 2, 3, 5, 6, 7, 10, 12, 16, 25, 60, 64, 100, 125, 127,
                                      641, 1000, 4096, 65535, 65536, 1000003, 0x40000000,
                                      0x7FFFFFFF, -1, -2, -3, -7, -16, -1000, -65536,
                                      -0x7FFFFFFF, (int64_t)INT32_MIN };
static const int64_t divisors16[] = { 1, 3, 7, 16, 255, 1000, 32767, -1, -3, -256, -32768 };

static int divisor_ok(dk kind, int64_t d, unsigned bits)
{
    /* unsigned kinds see the divisor's bit pattern: all are fine */
    (void)kind;
    (void)bits;
    return d != 0;
}

static void const_i32(int uniform)
{
    mk_srand(uniform ? 22 : 21);
    const unsigned n = uniform ? 256 : 4096;
    uint32_t *in = malloc(n * sizeof(uint32_t));
    for (unsigned kind = 0; kind < NKINDS; kind++)
        for (size_t j = 0; j < sizeof(divisors32) / sizeof(divisors32[0]); j++) {
            int64_t d = divisors32[j];
            /* the SALU forms take every other divisor (each is a separate kernel) */
            if (!divisor_ok((dk)kind, d, 32) || (uniform && j % 2 == 1))
                continue;
            uint32_t ad = d < 0 ? (uint32_t)-d : (uint32_t)d;
            for (unsigned i = 0; i < n; i++) {
                in[i] = probe(ad ? ad : 1, i);
                /* INT_MIN / -1 overflows: MLIR leaves it undefined */
                if (is_signed((dk)kind) && d == -1 && in[i] == 0x80000000u)
                    in[i] = 0x80000001u;
            }
            /* uniform: operands base + i * step, none of them INT_MIN for / -1 */
            if (uniform && is_signed((dk)kind) && d == -1)
                for (unsigned i = 0; i < n; i++)
                    if (in[0] + i * UNIFORM_STEP == 0x80000000u)
                        in[0]++, i = (unsigned)-1;
            run_div((dk)kind, d, 32, uniform, in, n);
        }
    free(in);
}

static void const_i32_per_lane(void)
{
    const_i32(0);
}

static void const_i32_uniform(void)
{
    const_i32(1);
}

/* Every 16-bit operand, per lane. */
static void const_i16_exhaustive(void)
{
    uint16_t *in = malloc(65536 * sizeof(uint16_t));
    for (unsigned kind = 0; kind < NKINDS; kind++)
        for (size_t j = 0; j < sizeof(divisors16) / sizeof(divisors16[0]); j++) {
            int64_t d = divisors16[j];
            unsigned n = 0;
            for (unsigned x = 0; x < 65536; x++) {
                if (is_signed((dk)kind) && d == -1 && x == 0x8000u)
                    continue; /* overflow */
                in[n++] = (uint16_t)x;
            }
            while (n % 256)
                in[n++] = 0;
            run_div((dk)kind, d, 16, 0, in, n);
        }
    free(in);
}

UT_SUITE(UT_CASE(magic_unsigned) UT_CASE(magic_signed) UT_CASE(const_i32_per_lane)
             UT_CASE(const_i32_uniform) UT_CASE(const_i16_exhaustive));
