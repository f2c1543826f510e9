/* bench/object_bench.c — writing the code object in process against the
   toolchain path it replaces.

   For the examples and for big generated kernels (bench/gemm_gen.h, after the
   default pipeline): the assembly is emitted and assembled and linked with
   llvm-mc and ld.lld -shared (subprocesses, timed from the shell command); the
   reference object's machine code then goes into the library's code object
   writer, timed in process. Printed per kernel: the object's size, both times
   and their ratio, and whether our object equals the reference byte for byte
   (with the linker's .comment text). Times are the best of several runs; no
   time is judged.

   The in-process figure covers the writer only: the machine code comes from
   the reference, as the instruction encoder is a separate stage.

     object_bench [--sizes=1k,10k,15k] [--runs=N] [--work-dir=DIR]
                  [--llvm-mc=PATH] [--ld-lld=PATH] [--examples=DIR] */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "../lib/object/object.h"
#include "../tests/object/ref_elf.h"
#include "bench_args.h"
#include "gemm_gen.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

typedef struct config {
    const char *llvm_mc, *ld_lld, *work_dir, *examples;
    unsigned runs;
} config;

/* One kernel: emit, time the toolchain, time the writer, compare. */
static int bench_kernel(const config *cfg, wa_context *ctx, wa_program *p, const char *label)
{
    char *text = NULL;
    size_t len = 0;
    double e0 = now_us();
    if (wa_emit_asm(&text, &len, p, NULL) != WA_OK) {
        fprintf(stderr, "object_bench: %s: %s\n", label, wa_context_last_error(ctx));
        return 1;
    }
    double emit_us = now_us() - e0;
    char s_path[512], o_path[512], so_path[512], cmd[4096];
    snprintf(s_path, sizeof(s_path), "%s/%s.s", cfg->work_dir, label);
    snprintf(o_path, sizeof(o_path), "%s/%s.o", cfg->work_dir, label);
    snprintf(so_path, sizeof(so_path), "%s/%s.hsaco", cfg->work_dir, label);
    FILE *f = fopen(s_path, "w");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "object_bench: cannot write %s\n", s_path);
        wa_free(text);
        return 1;
    }
    wa_free(text);
    int cn = snprintf(cmd, sizeof(cmd),
             "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj '%s' -o '%s' && "
             "%s -shared '%s' -o '%s'",
             cfg->llvm_mc, wa_target_name(wa_program_target(p)), s_path, o_path, cfg->ld_lld,
             o_path, so_path);
    if (cn < 0 || (size_t)cn >= sizeof(cmd)) {
        fprintf(stderr, "object_bench: paths too long\n");
        return 1;
    }
    double tool_best = 0;
    for (unsigned r = 0; r < cfg->runs; r++) {
        double t0 = now_us();
        if (system(cmd) != 0) {
            fprintf(stderr, "object_bench: %s: llvm-mc or ld.lld failed\n", label);
            return 1;
        }
        double t = now_us() - t0;
        if (r == 0 || t < tool_best)
            tool_best = t;
    }

    elf_view v;
    if (!elf_open(&v, so_path)) {
        fprintf(stderr, "object_bench: cannot read %s\n", so_path);
        free(v.data);
        return 1;
    }
    uint64_t value = 0, size = 0;
    const char *name = wa_program_name(p);
    if (!elf_symbol(&v, name, 1, 0, 0, &value, &size)) {
        fprintf(stderr, "object_bench: no kernel symbol in %s\n", so_path);
        free(v.data);
        return 1;
    }
    unsigned nlabels = wa_program_label_count(p);
    uint32_t *labels = calloc(nlabels + 1, sizeof(uint32_t));
    for (unsigned l = 0; l < nlabels; l++) {
        uint64_t lv, ls;
        if (elf_symbol(&v, wa_program_label_name(p, (wa_label)l), 0, value, value + size, &lv, &ls))
            labels[l] = (uint32_t)(lv - value);
    }
    wa_object_kernel k = { p, v.data + v.text_off + (value - v.text_addr), (size_t)size, labels, 0 };

    /* Adaptive: at least 5 runs and 100 ms. */
    double best = 0, spent = 0;
    unsigned runs = 0;
    size_t out_len = 0;
    int same = 0;
    while (runs < 5 || (spent < 100e3 && runs < 100000)) {
        unsigned char *bytes = NULL;
        double t0 = now_us();
        wa_status st = wa_object_write(ctx, &k, 1, &bytes, &out_len);
        double t = now_us() - t0;
        wa_free(bytes);
        if (st != WA_OK) {
            fprintf(stderr, "object_bench: %s: %s\n", label, wa_context_last_error(ctx));
            free(labels);
            free(v.data);
            return 1;
        }
        if (runs == 0 || t < best)
            best = t;
        spent += t;
        runs++;
    }
    unsigned char *bytes = NULL;
    size_t n = 0;
    if (wa_object_write_comment(ctx, &k, 1, v.comment, &bytes, &n) == WA_OK)
        same = n == v.size && memcmp(bytes, v.data, n) == 0;
    wa_free(bytes);
    printf("%-28s %8u %9zu %10.1f %10.1f %12.1f %9.0fx  %s\n", label, wa_program_size(p),
           (size_t)size, emit_us, best, tool_best / 1e3, tool_best / best, same ? "yes" : "NO");
    free(labels);
    free(v.data);
    return 0;
}

int main(int argc, char **argv)
{
    config cfg = { "llvm-mc-22", "ld.lld-22", NULL, WAVEASM_BENCH_EXAMPLES, 3 };
    /* Bigger one-loop kernels have branches beyond the 16-bit offset llvm-mc
       accepts (the emitter does not relax branches). */
    unsigned sizes[8] = { 1000, 10000, 15000 };
    int nsizes = 3;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = bench_arg_value(argv[i], "--sizes"))) {
            nsizes = bench_parse_sizes(sizes, 8, v, 300, 10000000);
            if (nsizes < 0) {
                fprintf(stderr, "object_bench: bad --sizes\n");
                return 2;
            }
        } else if ((v = bench_arg_value(argv[i], "--runs")))
            cfg.runs = (unsigned)atoi(v) > 0 ? (unsigned)atoi(v) : 1;
        else if ((v = bench_arg_value(argv[i], "--work-dir")))
            cfg.work_dir = v;
        else if ((v = bench_arg_value(argv[i], "--llvm-mc")))
            cfg.llvm_mc = v;
        else if ((v = bench_arg_value(argv[i], "--ld-lld")))
            cfg.ld_lld = v;
        else if ((v = bench_arg_value(argv[i], "--examples")))
            cfg.examples = v;
        else {
            fprintf(stderr, "usage: object_bench [--sizes=1k,10k,15k] [--runs=N] [--work-dir=DIR] "
                            "[--llvm-mc=PATH] [--ld-lld=PATH] [--examples=DIR]\n");
            return 2;
        }
    }
    /* the assembly and the toolchain's objects go to a fresh directory, removed
       at the end, unless --work-dir names one to keep them in */
    char tmp[64] = "";
    if (!cfg.work_dir) {
        snprintf(tmp, sizeof(tmp), "/tmp/waveasm-object-bench-XXXXXX");
        if (!mkdtemp(tmp)) {
            perror("object_bench: mkdtemp");
            return 1;
        }
        cfg.work_dir = tmp;
    }
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK)
        return 1;
    printf("code object: in-process writer vs llvm-mc + ld.lld -shared (best of runs)\n");
    printf("%-28s %8s %9s %10s %10s %12s %10s  %s\n", "kernel", "items", "code B", "emit us",
           "write us", "mc+lld ms", "ratio", "identical");
    static const char *const examples[] = { "copy.wa", "vector_add.wa", "mfma_lds.wa",
                                            "gemm_kloop.wa", "gemm_kloop_virtual.wa" };
    int rc = 0;
    for (unsigned e = 0; e < sizeof(examples) / sizeof(examples[0]); e++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", cfg.examples, examples[e]);
        size_t len = 0;
        char *text = (char *)ref_read_file(path, &len);
        wa_program *p = NULL;
        if (!text || wa_program_parse(&p, ctx, text, len, path) != WA_OK ||
            wa_compile(p, NULL) != WA_OK) {
            fprintf(stderr, "object_bench: %s: %s\n", path,
                    text ? wa_context_last_error(ctx) : "cannot read");
            rc = 1;
        } else {
            char label[64];
            snprintf(label, sizeof(label), "%.*s", (int)(strlen(examples[e]) - 3), examples[e]);
            rc |= bench_kernel(&cfg, ctx, p, label);
        }
        wa_program_destroy(p);
        free(text);
    }
    for (int s = 0; s < nsizes; s++) {
        gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
        g.instructions = sizes[s];
        /* one loop's back branch outgrows the 16-bit branch field past ~16k
           instructions (llvm-mc refuses it too): many short loops beyond */
        g.shape = sizes[s] > 15000 ? GEMM_GEN_MANY_LOOPS : GEMM_GEN_ONE_LOOP;
        wa_program *p = NULL;
        if (gemm_gen_build(&p, NULL, ctx, &g) != WA_OK || wa_compile(p, NULL) != WA_OK) {
            fprintf(stderr, "object_bench: gemm %u: %s\n", sizes[s], wa_context_last_error(ctx));
            rc = 1;
        } else {
            char label[64];
            snprintf(label, sizeof(label), "gemm_%s_%u", gemm_gen_shape_name(g.shape), sizes[s]);
            rc |= bench_kernel(&cfg, ctx, p, label);
        }
        wa_program_destroy(p);
    }
    wa_context_destroy(ctx);
    if (tmp[0]) {
        char cmd[128];
        snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "object_bench: could not remove %s\n", tmp);
    }
    return rc;
}
