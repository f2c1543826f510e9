/* tests/hip/hip_object_test.c — loads code objects written by the library's
   code object writer with hipModuleLoadData and runs the copy and vector-add
   example kernels on the GPU, checking their results.

     hip_object_test DIR    DIR holds <target>-copy.hsaco, <target>-vector_add.hsaco
                            for gfx90a, gfx942 and gfx950

   Exit 0 on success, 1 on a failure, 77 (skipped) without an AMD GPU or
   without objects for the GPU's processor. */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#include "../object/ref_elf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SKIP 77

#define HIP_CHECK(call)                                                                  \
    do {                                                                                 \
        hipError_t e_ = (call);                                                          \
        if (e_ != hipSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                    hipGetErrorString(e_));                                              \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

static int load(hipModule_t *mod, hipFunction_t *fn, const char *dir, const char *target,
                const char *name, const char *kernel)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s-%s.hsaco", dir, target, name);
    size_t size = 0;
    unsigned char *image = ref_read_file(path, &size);
    if (!image) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    hipError_t e = hipModuleLoadData(mod, image);
    free(image);
    if (e != hipSuccess) {
        fprintf(stderr, "hipModuleLoadData(%s): %s\n", path, hipGetErrorString(e));
        return 1;
    }
    HIP_CHECK(hipModuleGetFunction(fn, *mod, kernel));
    return 0;
}

static int launch(hipFunction_t fn, unsigned grid, unsigned block, void *args, size_t size)
{
    void *config[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, args, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                       &size, HIP_LAUNCH_PARAM_END };
    HIP_CHECK(hipModuleLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, NULL, NULL, config));
    HIP_CHECK(hipDeviceSynchronize());
    return 0;
}

/* copy_kernel: one wave moves 512 bytes. */
static int run_copy(const char *dir, const char *target)
{
    hipModule_t mod;
    hipFunction_t fn;
    if (load(&mod, &fn, dir, target, "copy", "copy_kernel"))
        return 1;
    uint16_t in[256], out[256];
    for (unsigned i = 0; i < 256; i++) {
        in[i] = (uint16_t)(i * 7 + 3);
        out[i] = 0;
    }
    void *din = NULL, *dout = NULL;
    HIP_CHECK(hipMalloc(&din, sizeof(in)));
    HIP_CHECK(hipMalloc(&dout, sizeof(out)));
    HIP_CHECK(hipMemcpy(din, in, sizeof(in), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(dout, 0, sizeof(out)));
    struct {
        void *in, *out;
    } args = { din, dout };
    if (launch(fn, 1, 64, &args, sizeof(args)))
        return 1;
    HIP_CHECK(hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost));
    int bad = memcmp(in, out, sizeof(in)) != 0;
    if (bad)
        fprintf(stderr, "copy_kernel on %s: output differs from input\n", target);
    hipFree(din);
    hipFree(dout);
    hipModuleUnload(mod);
    return bad;
}

/* vector_add: c[i] = a[i] + b[i] for i < n, n not a multiple of the workgroup. */
static int run_vector_add(const char *dir, const char *target)
{
    hipModule_t mod;
    hipFunction_t fn;
    if (load(&mod, &fn, dir, target, "vector_add", "vector_add"))
        return 1;
    enum { N = 700, CAP = 768 };
    float a[CAP], b[CAP], c[CAP];
    for (unsigned i = 0; i < CAP; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1000.0f - (float)i;
        c[i] = -1.0f;
    }
    void *da = NULL, *db = NULL, *dc = NULL;
    HIP_CHECK(hipMalloc(&da, sizeof(a)));
    HIP_CHECK(hipMalloc(&db, sizeof(b)));
    HIP_CHECK(hipMalloc(&dc, sizeof(c)));
    HIP_CHECK(hipMemcpy(da, a, sizeof(a), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(db, b, sizeof(b), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(dc, c, sizeof(c), hipMemcpyHostToDevice));
    struct {
        void *a, *b, *c;
        uint32_t n, pad;
    } args = { da, db, dc, N, 0 };
    if (launch(fn, (N + 255) / 256, 256, &args, sizeof(args)))
        return 1;
    HIP_CHECK(hipMemcpy(c, dc, sizeof(c), hipMemcpyDeviceToHost));
    int bad = 0;
    for (unsigned i = 0; i < CAP && !bad; i++) {
        float want = i < N ? a[i] + b[i] : -1.0f;
        if (c[i] != want) {
            fprintf(stderr, "vector_add on %s: c[%u] = %g, want %g\n", target, i, c[i], want);
            bad = 1;
        }
    }
    hipFree(da);
    hipFree(db);
    hipFree(dc);
    hipModuleUnload(mod);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hip_object_test DIR\n");
        return 2;
    }
    int count = 0;
    if (hipGetDeviceCount(&count) != hipSuccess || count == 0) {
        printf("SKIP: no AMD GPU\n");
        return SKIP;
    }
    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    char target[16] = { 0 };
    size_t n = strcspn(prop.gcnArchName, ":");
    if (n >= sizeof(target))
        n = sizeof(target) - 1;
    memcpy(target, prop.gcnArchName, n);
    if (strcmp(target, "gfx90a") && strcmp(target, "gfx942") && strcmp(target, "gfx950")) {
        printf("SKIP: GPU %s is not a target of the library\n", prop.gcnArchName);
        return SKIP;
    }
    int rc = run_copy(argv[1], target) | run_vector_add(argv[1], target);
    printf("%s: copy_kernel and vector_add from in-process code objects on %s\n",
           rc ? "FAIL" : "ok", prop.gcnArchName);
    return rc;
}
