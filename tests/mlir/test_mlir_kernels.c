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

static void reduce_multiwave(void)
{
    mk k = { 0 };
    if (mk_load(&k, "reduce_multiwave.mlir", NULL) == 0) {
        const unsigned groups = 3;
        uint32_t *in = mk_alloc_u32(groups * 1024, 1), *out = mk_alloc_u32(groups, 0);
        uint32_t want[3] = { 0, 0, 0 };
        for (unsigned i = 0; i < groups * 1024; i++)
            want[i / 1024] += in[i];
        mk_buffer(&k, "arg0", in, groups * 1024 * 4);
        mk_value(&k, "arg0_size0", groups * 1024);
        mk_buffer(&k, "arg1", out, groups * 4);
        mk_value(&k, "arg1_size0", groups);
        if (mk_run(&k, groups, 1, 1) == 0)
            mk_check_u32(out, want, groups, "out");
        free(in);
        free(out);
    }
    mk_free(&k);
}

/* A 3x2x2 grid of 8x4x2 workgroups. */
static void grid_ids(void)
{
    mk k = { 0 };
    if (mk_load(&k, "grid_ids.mlir", NULL) == 0) {
        const unsigned gx = 3, gy = 2, gz = 2, dx = 8, dy = 4, dz = 2, n = gx * gy * gz * dx * dy * dz;
        uint32_t *out = mk_alloc_u32(n, 0), *want = mk_alloc_u32(n, 0);
        for (unsigned bz = 0; bz < gz; bz++)
            for (unsigned by = 0; by < gy; by++)
                for (unsigned bx = 0; bx < gx; bx++)
                    for (unsigned tz = 0; tz < dz; tz++)
                        for (unsigned ty = 0; ty < dy; ty++)
                            for (unsigned tx = 0; tx < dx; tx++) {
                                unsigned wg = (bz * gy + by) * gx + bx, t = (tz * dy + ty) * dx + tx;
                                want[wg * dx * dy * dz + t] = (bx * dx + tx) +
                                                              1000u * (gx + 10 * gy + 100 * gz) +
                                                              1000000u * t;
                            }
        mk_buffer(&k, "arg0", out, n * 4);
        mk_value(&k, "arg0_size0", n);
        if (mk_run(&k, gx, gy, gz) == 0)
            mk_check_u32(out, want, n, "out");
        free(out);
        free(want);
    }
    mk_free(&k);
}

static void divergent_if(void)
{
    mk k = { 0 };
    if (mk_load(&k, "divergent_if.mlir", NULL) == 0) {
        uint32_t *in = mk_alloc_u32(256, 1), *out = mk_alloc_u32(256, 0);
        uint32_t *flags = mk_alloc_u32(256, 1), *want = mk_alloc_u32(256, 0);
        uint32_t *want_flags = malloc(256 * 4);
        memcpy(want_flags, flags, 256 * 4);
        for (unsigned i = 0; i < 256; i++) {
            if (i % 5 == 0)
                in[i] = (uint32_t)-(int32_t)(i * 3); /* small negative values too */
            int32_t x = (int32_t)in[i];
            uint32_t r, f;
            if (x < 0) {
                uint32_t y = 0u - (uint32_t)x, m = y % 7;
                if (m > 3)
                    want_flags[i] = m;
                r = y;
                f = m;
            } else {
                r = (uint32_t)x * 3u;
                f = 100;
            }
            want[i] = r + f;
        }
        mk_buffer(&k, "arg0", in, 1024);
        mk_buffer(&k, "arg1", out, 1024);
        mk_buffer(&k, "arg2", flags, 1024);
        if (mk_run(&k, 4, 1, 1) == 0) {
            mk_check_u32(out, want, 256, "out");
            mk_check_u32(flags, want_flags, 256, "flags");
        }
        free(in);
        free(out);
        free(flags);
        free(want);
        free(want_flags);
    }
    mk_free(&k);
}

static void loops(void)
{
    mk k = { 0 };
    if (mk_load(&k, "loops.mlir", NULL) == 0) {
        const unsigned n = 5;
        uint32_t *in = mk_alloc_u32(n * 64, 1), *out = mk_alloc_u32(3 * 64, 0);
        uint32_t want[3 * 64];
        for (unsigned t = 0; t < 64; t++) {
            uint32_t s = 0, x = 0;
            for (unsigned i = 0; i < n; i++) {
                s += in[i * 64 + t];
                x ^= in[i * 64 + t];
            }
            uint32_t q = 0;
            for (unsigned j = t % 5; j < t % 11; j += 2)
                q += j * j;
            uint32_t v = t + 1, steps = 0;
            while (v != 1) {
                v = (v & 1) ? 3 * v + 1 : v / 2;
                steps++;
            }
            want[3 * t] = s + x;
            want[3 * t + 1] = q;
            want[3 * t + 2] = steps;
        }
        mk_buffer(&k, "arg0", in, n * 64 * 4);
        mk_value(&k, "arg0_size0", n * 64);
        mk_buffer(&k, "arg1", out, 3 * 64 * 4);
        mk_value(&k, "arg1_size0", 3 * 64);
        mk_value(&k, "arg2", n);
        if (mk_run(&k, 1, 1, 1) == 0)
            mk_check_u32(out, want, 3 * 64, "out");
        free(in);
        free(out);
    }
    mk_free(&k);
}

/* M and N not multiples of the 16x16 workgroup; the input rows are `pitch`
   apart from element `off` of the flat input. */
static void dynamic_shapes(void)
{
    mk k = { 0 };
    if (mk_load(&k, "dynamic_shapes.mlir", NULL) == 0) {
        const unsigned m = 37, n = 21, pitch = 29, off = 5, gx = 2, gy = 3;
        const unsigned in_n = off + m * pitch;
        float *in = mk_alloc_f32(in_n, 1), *bias = mk_alloc_f32(n, 1);
        float *out = mk_alloc_f32(m * n, 1), *want = malloc(m * n * sizeof(float));
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++)
                want[i * n + j] = in[off + i * pitch + j] * 2.0f + bias[j];
        mk_buffer(&k, "arg0", in, in_n * 4);
        mk_value(&k, "arg0_size0", in_n);
        mk_buffer(&k, "arg1", bias, n * 4);
        mk_value(&k, "arg1_size0", n);
        mk_buffer(&k, "arg2", out, m * n * 4);
        mk_value(&k, "arg2_size0", m);
        mk_value(&k, "arg2_size1", n);
        mk_value(&k, "arg3", m);
        mk_value(&k, "arg4", n);
        mk_value(&k, "arg5", pitch);
        mk_value(&k, "arg6", off);
        if (mk_run(&k, gx, gy, 1) == 0)
            mk_check_f32(out, want, m * n, 0, "out");
        free(in);
        free(bias);
        free(out);
        free(want);
    }
    mk_free(&k);
}

static void stream_binding(void)
{
    mk k = { 0 };
    if (mk_load(&k, "stream_binding.mlir", NULL) == 0) {
        float *a = mk_alloc_f32(512, 1), *b = mk_alloc_f32(512 + 16, 1), *o = mk_alloc_f32(512, 0);
        float want[512], s = 1.75f;
        for (unsigned i = 0; i < 512; i++)
            want[i] = a[i] * s + b[16 + i];
        uint32_t sbits;
        memcpy(&sbits, &s, 4);
        mk_buffer(&k, "arg0", a, 512 * 4);
        mk_buffer(&k, "arg1", b, (512 + 16) * 4);
        mk_buffer(&k, "arg2", o, 512 * 4);
        mk_value(&k, "arg3", sbits);
        if (mk_run(&k, 4, 1, 1) == 0)
            mk_check_f32(o, want, 512, 1e-6, "out");
        free(a);
        free(b);
        free(o);
    }
    mk_free(&k);
}

static void vector_ops(void)
{
    mk k = { 0 };
    if (mk_load(&k, "vector_ops.mlir", NULL) == 0) {
        float *in = mk_alloc_f32(512, 1), *out = mk_alloc_f32(1024, 0);
        uint32_t *ini = mk_alloc_u32(512, 1), *outi = mk_alloc_u32(512, 0);
        float *want = mk_alloc_f32(1024, 0);
        uint32_t *wanti = mk_alloc_u32(512, 0);
        for (unsigned t = 0; t < 64; t++) {
            const float *v = in + 8 * t;
            float *w = want + 16 * t;
            for (unsigned j = 0; j < 4; j++) {
                w[2 * j] = v[j];
                w[2 * j + 1] = fmaf(v[j], v[4 + j], v[7]);
            }
            float sum = 0, mx = v[0], prod = 1, mn = v[4];
            for (unsigned j = 0; j < 8; j++) {
                sum += v[j];
                mx = v[j] > mx ? v[j] : mx;
            }
            for (unsigned j = 0; j < 4; j++) {
                prod *= v[j];
                mn = v[4 + j] < mn ? v[4 + j] : mn;
            }
            float ins[8] = { v[0], v[0], sum, mx, prod, mn, v[0], v[0] };
            memcpy(w + 8, ins, sizeof(ins));
            const uint32_t *vi = ini + 8 * t;
            uint32_t a = ~0u, o = 0, x = 0, mu = ~0u;
            int32_t ms = INT32_MIN;
            for (unsigned j = 0; j < 8; j++) {
                a &= vi[j];
                o |= vi[j];
                x ^= vi[j];
                ms = (int32_t)vi[j] > ms ? (int32_t)vi[j] : ms;
                mu = vi[j] < mu ? vi[j] : mu;
            }
            uint32_t b0;
            memcpy(&b0, &v[1], 4);
            uint32_t r[8] = { 2 * a, 2 * o, 2 * x, 2 * (uint32_t)ms, 2 * mu, 2 * b0, vi[2],
                              vi[2] - 1 };
            memcpy(wanti + 8 * t, r, sizeof(r));
        }
        mk_buffer(&k, "arg0", in, 512 * 4);
        mk_buffer(&k, "arg1", ini, 512 * 4);
        mk_buffer(&k, "arg2", out, 1024 * 4);
        mk_buffer(&k, "arg3", outi, 512 * 4);
        if (mk_run(&k, 1, 1, 1) == 0) {
            mk_check_f32(out, want, 1024, 1e-5, "out");
            mk_check_u32(outi, wanti, 512, "outi");
        }
        free(in);
        free(out);
        free(ini);
        free(outi);
        free(want);
        free(wanti);
    }
    mk_free(&k);
}

static void misc_ops(void)
{
    mk k = { 0 };
    if (mk_load(&k, "misc_ops.mlir", NULL) == 0) {
        for (unsigned sign = 0; sign < 2; sign++) {
            float *in = mk_alloc_f32(128, 1), *out = mk_alloc_f32(512, 0);
            float acc[4] = { 0.5f, -0.25f, 7.0f, 9.0f }, want_acc[4];
            in[0] = sign ? -fabsf(in[0]) : fabsf(in[0]);
            float *want = mk_alloc_f32(512, 0);
            double sx = 0, sy = 0;
            for (unsigned t = 0; t < 64; t++) {
                float *w = want + 8 * t;
                float x = in[t];
                sx += x;
                sy += in[64 + t];
                w[0] = in[63 - t] + ((t & 1) ? 100.0f : 0.0f);
                w[1] = in[64 + 63 - t];
                w[2] = in[5];
                w[3] = t >= 3 ? in[t - 3] : 0.0f;
                w[4] = in[0];
                w[5] = in[64];
                unsigned a2 = t + 3 < 63 ? t + 3 : 63, a3 = t + 3 > 63 ? t + 3 : 63;
                w[6] = (float)(2 * t + 1 + a2 + a3 + 64 + 64);
                w[7] = in[0] < 0 ? -1.0f : 1.0f;
            }
            want_acc[0] = (float)(acc[0] + sx);
            want_acc[1] = (float)(acc[1] + sy);
            want_acc[2] = acc[2];
            want_acc[3] = acc[3];
            mk_buffer(&k, "arg0", in, 128 * 4);
            mk_buffer(&k, "arg1", out, 512 * 4);
            mk_buffer(&k, "arg2", acc, sizeof(acc));
            if (mk_run(&k, 1, 1, 1) == 0) {
                for (unsigned t = 0; t < 3; t++)
                    out[8 * t + 3] = 0.0f; /* shuffle up from below lane 0: unspecified */
                mk_check_f32(out, want, 512, 0, "out");
                mk_check_f32(acc, want_acc, 4, 1e-5, "acc");
            }
            free(in);
            free(out);
            free(want);
        }
    }
    mk_free(&k);
}

static void gather_to_lds(void)
{
    mk k = { 0 };
    if (mk_load(&k, "gather_to_lds.mlir", NULL) == 0) {
        float *in = mk_alloc_f32(256, 1), *out = mk_alloc_f32(256, 0), want[256];
        for (unsigned t = 0; t < 256; t++) {
            unsigned t2 = (t + 64) % 256, w = t2 / 64, l = t2 % 64;
            want[t] = in[64 * w + 63 - l];
        }
        mk_buffer(&k, "arg0", in, 256 * 4);
        mk_buffer(&k, "arg1", out, 256 * 4);
        if (mk_run(&k, 1, 1, 1) == 0)
            mk_check_f32(out, want, 256, 0, "out");
        free(in);
        free(out);
    }
    mk_free(&k);
}

static void uniform_control(void)
{
    mk k = { 0 };
    if (mk_load(&k, "uniform_control.mlir", NULL) == 0) {
        static const uint32_t cases[3][3] = { { 84, 36, 0 }, { 1071, 462, 1 }, { 17, 5, 3 } };
        for (unsigned c = 0; c < 3; c++) {
            uint32_t p = cases[c][0], q = cases[c][1], mode = cases[c][2];
            uint32_t *out = mk_alloc_u32(256, 0), want[256];
            uint32_t x = p, y = q;
            while (y) {
                uint32_t r = x % y;
                x = y;
                y = r;
            }
            for (unsigned t = 0; t < 64; t++) {
                want[4 * t] = mode == 0 ? p + q : p - q;
                want[4 * t + 1] = mode == 0 ? p : (p - q) * q;
                want[4 * t + 2] = x;
                uint32_t s = 0;
                for (unsigned i = 0; i < mode + 2; i++)
                    for (unsigned j = 0; j < t % 4; j++)
                        s += (i + j) % 3 == 1 ? i + j : 1;
                want[4 * t + 3] = s;
            }
            mk_buffer(&k, "arg0", out, 256 * 4);
            mk_value(&k, "arg1", p);
            mk_value(&k, "arg2", q);
            mk_value(&k, "arg3", mode);
            if (mk_run(&k, 1, 1, 1) == 0)
                mk_check_u32(out, want, 256, "out");
            free(out);
        }
    }
    mk_free(&k);
}

UT_SUITE(UT_CASE(copy_1d) UT_CASE(copy_2d) UT_CASE(vector_add) UT_CASE(reduction) UT_CASE(lds_transpose)
         UT_CASE(mfma_16x16x16) UT_CASE(gemm_kloop)
         UT_CASE(reduce_multiwave) UT_CASE(grid_ids) UT_CASE(divergent_if) UT_CASE(loops)
         UT_CASE(dynamic_shapes) UT_CASE(stream_binding)
         UT_CASE(vector_ops) UT_CASE(misc_ops) UT_CASE(gather_to_lds)
         UT_CASE(uniform_control));
