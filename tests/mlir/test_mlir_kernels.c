/* tests/mlir/test_mlir_kernels.c — the MLIR kernels of this folder translated,
   compiled with the default pipeline, assembled by llvm-mc and run in the
   simulator on random inputs; results are compared with a CPU reference. */
#include "check.h"
#include "mlir_harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void copy_1d(void)
{
    mk k = { 0 };
    if (mk_load(&k, "copy_1d.mlir", NULL) == 0) {
        float *src = mk_alloc_f32(1024, 1), *dst = mk_alloc_f32(1024, 0);
        mk_buffer(&k, "arg0", src, 4096);
        mk_buffer(&k, "arg1", dst, 4096);
        if (mk_run(&k, 16, 1, 1) == 0)
            mk_check_f32(dst, src, 1024, 0, "dst");
        free(src);
        free(dst);
    }
    mk_free(&k);
}

static void copy_2d(void)
{
    mk k = { 0 };
    if (mk_load(&k, "copy_2d.mlir", NULL) == 0) {
        float *src = mk_alloc_f32(64 * 128, 1), *dst = mk_alloc_f32(64 * 128, 0);
        mk_buffer(&k, "arg0", src, 64 * 128 * 4);
        mk_buffer(&k, "arg1", dst, 64 * 128 * 4);
        if (mk_run(&k, 8, 16, 1) == 0)
            mk_check_f32(dst, src, 64 * 128, 0, "dst");
        free(src);
        free(dst);
    }
    mk_free(&k);
}

/* n not a multiple of the 256 elements of a workgroup: the last one masks. */
static void vector_add(void)
{
    mk k = { 0 };
    if (mk_load(&k, "vector_add.mlir", NULL) == 0) {
        const unsigned n = 1000, groups = (n + 255) / 256, cap = groups * 256 + 64;
        float *a = mk_alloc_f32(cap, 1), *b = mk_alloc_f32(cap, 1), *c = mk_alloc_f32(cap, 1);
        float *want = malloc(cap * sizeof(float));
        memcpy(want, c, cap * sizeof(float));
        for (unsigned i = 0; i < n; i++)
            want[i] = a[i] + b[i];
        mk_buffer(&k, "arg0", a, cap * 4);
        mk_buffer(&k, "arg1", b, cap * 4);
        mk_buffer(&k, "arg2", c, cap * 4);
        mk_value(&k, "arg3", n);
        mk_value(&k, "arg0_size0", cap);
        mk_value(&k, "arg1_size0", cap);
        mk_value(&k, "arg2_size0", cap);
        if (mk_run(&k, groups, 1, 1) == 0)
            mk_check_f32(c, want, cap, 0, "c");
        free(a);
        free(b);
        free(c);
        free(want);
    }
    mk_free(&k);
}

static void reduction(void)
{
    mk k = { 0 };
    if (mk_load(&k, "reduction.mlir", NULL) == 0) {
        const unsigned groups = 8;
        float *in = mk_alloc_f32(groups * 256, 1), *out = mk_alloc_f32(groups, 0);
        float want[8];
        for (unsigned g = 0; g < groups; g++) {
            double s = 0;
            for (unsigned i = 0; i < 256; i++)
                s += in[g * 256 + i];
            want[g] = (float)s;
        }
        mk_buffer(&k, "arg0", in, groups * 256 * 4);
        mk_buffer(&k, "arg1", out, groups * 4);
        mk_value(&k, "arg0_size0", groups * 256);
        mk_value(&k, "arg1_size0", groups);
        if (mk_run(&k, groups, 1, 1) == 0)
            mk_check_f32(out, want, groups, 1e-5, "out");
        free(in);
        free(out);
    }
    mk_free(&k);
}

static void lds_transpose(void)
{
    mk k = { 0 };
    if (mk_load(&k, "lds_transpose.mlir", NULL) == 0) {
        float *in = mk_alloc_f32(64 * 64, 1), *out = mk_alloc_f32(64 * 64, 0);
        float *want = malloc(64 * 64 * sizeof(float));
        for (unsigned r = 0; r < 64; r++)
            for (unsigned c = 0; c < 64; c++)
                want[c * 64 + r] = in[r * 64 + c];
        mk_buffer(&k, "arg0", in, 64 * 64 * 4);
        mk_buffer(&k, "arg1", out, 64 * 64 * 4);
        if (mk_run(&k, 2, 2, 1) == 0)
            mk_check_f32(out, want, 64 * 64, 0, "out");
        free(in);
        free(out);
        free(want);
    }
    mk_free(&k);
}

/* f16 matrices of random values; the reference sums the exact products in
   double (the MFMA accumulates in f32). */
static uint16_t *rand_f16(size_t n, float *as_f32)
{
    uint16_t *h = malloc(n * sizeof(uint16_t));
    for (size_t i = 0; i < n; i++) {
        h[i] = mk_f32_to_f16(mk_randf());
        as_f32[i] = mk_f16_to_f32(h[i]);
    }
    return h;
}

static void matmul_ref(float *c, const float *a, const float *b, unsigned m, unsigned n,
                       unsigned kk)
{
    for (unsigned i = 0; i < m; i++)
        for (unsigned j = 0; j < n; j++) {
            double s = 0;
            for (unsigned k = 0; k < kk; k++)
                s += (double)a[i * kk + k] * (double)b[k * n + j];
            c[i * n + j] = (float)s;
        }
}

static void mfma_16x16x16(void)
{
    mk k = { 0 };
    if (mk_load(&k, "mfma_16x16x16.mlir", NULL) == 0) {
        float af[256], bf[256], want[256];
        uint16_t *a = rand_f16(256, af), *b = rand_f16(256, bf);
        float *c = mk_alloc_f32(256, 0);
        matmul_ref(want, af, bf, 16, 16, 16);
        mk_buffer(&k, "arg0", a, 512);
        mk_buffer(&k, "arg1", b, 512);
        mk_buffer(&k, "arg2", c, 1024);
        if (mk_run(&k, 1, 1, 1) == 0)
            mk_check_f32(c, want, 256, 1e-5, "C");
        free(a);
        free(b);
        free(c);
    }
    mk_free(&k);
}

/* 4 waves per workgroup, a 2x2 grid, LDS staging with barriers in a K loop. */
static void gemm_kloop(void)
{
    mk k = { 0 };
    if (mk_load(&k, "gemm_kloop.mlir", NULL) == 0) {
        const unsigned K = 80;
        float *af = malloc(64 * K * sizeof(float)), *bf = malloc(K * 64 * sizeof(float));
        float *want = malloc(64 * 64 * sizeof(float));
        uint16_t *a = rand_f16(64 * K, af), *b = rand_f16(K * 64, bf);
        float *c = mk_alloc_f32(64 * 64, 0);
        matmul_ref(want, af, bf, 64, 64, K);
        mk_buffer(&k, "arg0", a, 64 * K * 2);
        mk_value(&k, "arg0_size1", K);
        mk_buffer(&k, "arg1", b, K * 64 * 2);
        mk_value(&k, "arg1_size0", K);
        mk_buffer(&k, "arg2", c, 64 * 64 * 4);
        if (mk_run(&k, 2, 2, 1) == 0)
            mk_check_f32(c, want, 64 * 64, 1e-5, "C");
        free(af);
        free(bf);
        free(want);
        free(a);
        free(b);
        free(c);
    }
    mk_free(&k);
}

UT_SUITE(UT_CASE(copy_1d) UT_CASE(copy_2d) UT_CASE(vector_add) UT_CASE(reduction) UT_CASE(lds_transpose)
         UT_CASE(mfma_16x16x16) UT_CASE(gemm_kloop));
