/* tests/mlir/test_mlir_mfma.c — amdgpu.mfma of several shapes and input
   types: each lane loads its A and B fragments, the MFMA multiplies, each lane
   stores its accumulator fragment; the reference rebuilds the matrices from
   the fragments with the hardware's operand layouts and multiplies them. */
#include "check.h"
#include "mlir_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum it { F16, BF16, F32, I8 } it;
static const char *const it_name[] = { "f16", "bf16", "f32", "i8" };
static const unsigned it_bytes[] = { 2, 2, 4, 1 };

typedef struct shape {
    unsigned m, n, k;
    it in;
} shape;

static double in_value(const void *buf, it t, unsigned i)
{
    const uint8_t *p = buf;
    switch (t) {
    case F16: {
        uint16_t h;
        memcpy(&h, p + 2 * i, 2);
        return mk_f16_to_f32(h);
    }
    case BF16: {
        uint16_t h;
        memcpy(&h, p + 2 * i, 2);
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case F32: {
        float f;
        memcpy(&f, p + 4 * i, 4);
        return f;
    }
    default: return (int8_t)p[i];
    }
}

static void run_shape(const shape *s)
{
    const unsigned groups = s->m == 32 ? 2 : 4;    /* lanes / row count */
    const unsigned kpl = s->k / (64 / s->m);        /* k elements per lane */
    const unsigned nacc = s->m * s->n / 64;         /* accumulator elements per lane */
    const char *t = it_name[s->in], *acc = s->in == I8 ? "i32" : "f32";
    (void)groups;
    ut_context("%ux%ux%u %s", s->m, s->n, s->k, t);
    char text[4096];
    snprintf(text, sizeof(text),
             "gpu.module @m {\n"
             "  gpu.func @mfma(%%a: memref<%ux%s>, %%b: memref<%ux%s>, %%c: memref<%ux%s>) kernel {\n"
             "    %%l = gpu.thread_id x\n"
             "    %%kpl = arith.constant %u : index\n"
             "    %%nacc = arith.constant %u : index\n"
             "    %%o = arith.muli %%l, %%kpl : index\n"
             "    %%oc = arith.muli %%l, %%nacc : index\n"
             "    %%av = vector.load %%a[%%o] : memref<%ux%s>, vector<%ux%s>\n"
             "    %%bv = vector.load %%b[%%o] : memref<%ux%s>, vector<%ux%s>\n"
             "    %%z = arith.constant dense<0%s> : vector<%ux%s>\n"
             "    %%d = amdgpu.mfma %ux%ux%u %%av * %%bv + %%z blgp = none : vector<%ux%s>, "
             "vector<%ux%s>, vector<%ux%s>\n"
             "    vector.store %%d, %%c[%%oc] : memref<%ux%s>, vector<%ux%s>\n"
             "    gpu.return\n  }\n}\n",
             64 * kpl, t, 64 * kpl, t, 64 * nacc, acc, kpl, nacc, 64 * kpl, t, kpl, t, 64 * kpl,
             t, kpl, t, s->in == I8 ? "" : ".0", nacc, acc, s->m, s->n, s->k, kpl, t, kpl, t,
             nacc, acc, 64 * nacc, acc, nacc, acc);
    if (kpl == 1) {
        /* one element per lane: the operands are scalars */
        snprintf(text, sizeof(text),
                 "gpu.module @m {\n"
                 "  gpu.func @mfma(%%a: memref<64x%s>, %%b: memref<64x%s>, %%c: memref<%ux%s>) kernel {\n"
                 "    %%l = gpu.thread_id x\n"
                 "    %%nacc = arith.constant %u : index\n"
                 "    %%oc = arith.muli %%l, %%nacc : index\n"
                 "    %%av = memref.load %%a[%%l] : memref<64x%s>\n"
                 "    %%bv = memref.load %%b[%%l] : memref<64x%s>\n"
                 "    %%z = arith.constant dense<0.0> : vector<%ux%s>\n"
                 "    %%d = amdgpu.mfma %ux%ux%u %%av * %%bv + %%z blgp = none : %s, %s, vector<%ux%s>\n"
                 "    vector.store %%d, %%c[%%oc] : memref<%ux%s>, vector<%ux%s>\n"
                 "    gpu.return\n  }\n}\n",
                 t, t, 64 * nacc, acc, nacc, t, t, nacc, acc, s->m, s->n, s->k, t, t, nacc, acc,
                 64 * nacc, acc, nacc, acc);
    }
    size_t ab = (size_t)64 * kpl * it_bytes[s->in];
    uint8_t *a = malloc(ab), *b = malloc(ab);
    for (size_t i = 0; i < 64 * kpl; i++) {
        float f = mk_randf();
        uint32_t u;
        memcpy(&u, &f, 4);
        switch (s->in) {
        case F16: {
            uint16_t h = mk_f32_to_f16(f), h2 = mk_f32_to_f16(-f * 0.5f);
            memcpy(a + 2 * i, &h, 2);
            memcpy(b + 2 * i, &h2, 2);
            break;
        }
        case BF16: {
            uint16_t h = (uint16_t)(u >> 16), h2 = (uint16_t)((u ^ 0x80000000u) >> 16);
            memcpy(a + 2 * i, &h, 2);
            memcpy(b + 2 * i, &h2, 2);
            break;
        }
        case F32: {
            float g = f * 0.75f + 0.125f;
            memcpy(a + 4 * i, &f, 4);
            memcpy(b + 4 * i, &g, 4);
            break;
        }
        default:
            a[i] = (uint8_t)mk_rand();
            b[i] = (uint8_t)mk_rand();
            break;
        }
    }
    uint32_t *c = calloc(64 * nacc, 4);
    mk k = { 0 };
    if (mk_load_text(&k, text, "mfma.mlir", NULL) == 0) {
        mk_buffer(&k, "arg0", a, ab);
        mk_buffer(&k, "arg1", b, ab);
        mk_buffer(&k, "arg2", c, 64 * nacc * 4);
        if (mk_run(&k, 1, 1, 1) == 0) {
            unsigned bad = 0, rows_per = 64 / s->m; /* lane groups along k */
            for (unsigned l = 0; l < 64; l++)
                for (unsigned r = 0; r < nacc; r++) {
                    unsigned col = l % s->n, row;
                    if (s->m == 32)
                        row = 8 * (r / 4) + 4 * (l / 32) + r % 4;
                    else
                        row = 4 * (l / 16) + r;
                    double sum = 0;
                    for (unsigned kk = 0; kk < s->k; kk++) {
                        unsigned la = row + s->m * (kk / kpl), lb = col + s->n * (kk / kpl);
                        sum += in_value(a, s->in, la * kpl + kk % kpl) *
                               in_value(b, s->in, lb * kpl + kk % kpl);
                    }
                    (void)rows_per;
                    uint32_t g = c[l * nacc + r];
                    int ok;
                    if (s->in == I8) {
                        ok = (int32_t)g == (int32_t)sum;
                    } else {
                        float gf;
                        memcpy(&gf, &g, 4);
                        double err = gf - sum;
                        ok = (err < 0 ? -err : err) <= 1e-5 * (sum < 0 ? -sum : sum) + 1e-6;
                    }
                    if (!ok && bad++ < 3)
                        CHECK_MSG(0, "lane %u element %u (C[%u][%u]): got 0x%08x, want %g", l, r,
                                  row, col, g, sum);
                }
            if (bad > 3)
                CHECK_MSG(0, "%u mismatches in all", bad);
        }
    }
    mk_free(&k);
    free(a);
    free(b);
    free(c);
    ut_context("%s", "");
}

static void mfma_shapes(void)
{
    static const shape shapes[] = {
        { 16, 16, 16, F16 }, { 32, 32, 8, F16 }, { 16, 16, 16, BF16 }, { 32, 32, 8, BF16 },
        { 16, 16, 4, F32 },  { 16, 16, 32, I8 },
    };
    mk_srand(31);
    for (unsigned i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        run_shape(&shapes[i]);
}

UT_SUITE(UT_CASE(mfma_shapes));
