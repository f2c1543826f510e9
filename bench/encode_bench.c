/* bench/encode_bench.c — the in-process encoder against the assembler: for every
   example and for generated GEMM-like kernels (bench/gemm_gen.h) compiled with the
   default pipeline, time wa_encode_program (best of N runs, with and without its
   validation) and `llvm-mc -filetype=obj` on the same kernel's wa_emit_asm text
   (one subprocess run, best of N), and print ns per instruction and the ratio.
   The encoder's bytes are also compared with the .text llvm-mc produced (a
   mismatch is reported, not judged: toolchain.encode_* are the tests).
   Timings are printed, never asserted.

   usage: encode_bench [--sizes=100k,1M] [--target=gfx942] [--runs=N]
                       [--llvm-mc=PATH] [--no-llvm-mc] */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "bench_args.h"
#include "gemm_gen.h"

#ifndef WAVEASM_BENCH_EXAMPLES
#define WAVEASM_BENCH_EXAMPLES "examples"
#endif

#define MAX_SIZES 8

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static unsigned count_instructions(const wa_program *prog)
{
    unsigned n = 0;
    for (unsigned i = 0; i < wa_program_size(prog); i++) {
        wa_instr_view v;
        if (wa_program_get(&v, prog, i) == WA_OK && v.opcode != WA_OP_LABEL &&
            v.opcode != WA_OP_COMMENT)
            n++;
    }
    return n;
}

/* Best time of `runs` encodings; the bytes of the last in *code. */
static double time_encode(const char *name, const wa_program *prog, unsigned flags,
                          unsigned runs, unsigned char **code, size_t *len)
{
    double best = 1e30;
    for (unsigned r = 0; r < runs; r++) {
        wa_encode_options o = WA_ENCODE_OPTIONS_INIT;
        o.flags = flags;
        unsigned char *c = NULL;
        size_t n = 0;
        double t0 = now();
        wa_status st = wa_encode_program(&c, &n, prog, &o);
        double t = now() - t0;
        if (st != WA_OK) {
            /* e.g. a loop longer than a branch reaches: llvm-mc refuses it too */
            printf("%-28s not encodable: %s\n", name,
                   wa_context_last_error(wa_program_context(prog)));
            return -1;
        }
        if (t < best)
            best = t;
        wa_free(*code);
        *code = c;
        *len = n;
    }
    return best;
}

/* .text of a relocatable ELF64 file (NULL if not found); *n its size. */
static unsigned char *elf_text(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc(sz > 0 ? (size_t)sz : 1);
    unsigned char *out = NULL;
    if (d && fread(d, 1, (size_t)sz, f) == (size_t)sz && sz > 64) {
#define U16(p) ((unsigned)(p)[0] | (unsigned)(p)[1] << 8)
#define U32(p) (U16(p) | (uint32_t)U16((p) + 2) << 16)
#define U64(p) ((uint64_t)U32(p) | (uint64_t)U32((p) + 4) << 32)
        uint64_t shoff = U64(d + 40);
        unsigned shentsize = U16(d + 58), shnum = U16(d + 60), shstrndx = U16(d + 62);
        if (shoff + (uint64_t)shnum * shentsize <= (uint64_t)sz && shstrndx < shnum) {
            const unsigned char *strsh = d + shoff + (uint64_t)shstrndx * shentsize;
            uint64_t stroff = U64(strsh + 24);
            for (unsigned i = 0; i < shnum && !out; i++) {
                const unsigned char *sh = d + shoff + (uint64_t)i * shentsize;
                uint64_t name = stroff + U32(sh), off = U64(sh + 24), size = U64(sh + 32);
                if (name + 6 <= (uint64_t)sz && memcmp(d + name, ".text", 6) == 0 &&
                    off + size <= (uint64_t)sz) {
                    out = malloc(size ? size : 1);
                    if (out) {
                        memcpy(out, d + off, size);
                        *n = size;
                    }
                }
            }
        }
    }
    free(d);
    fclose(f);
    return out;
}

typedef struct cfg {
    wa_target target;
    unsigned runs;
    const char *llvm_mc; /* NULL: not timed */
} cfg;

static void report(const cfg *c, const char *name, const wa_program *prog)
{
    unsigned n = count_instructions(prog);
    unsigned char *code = NULL;
    size_t len = 0;
    double tv = time_encode(name, prog, 0, c->runs, &code, &len);
    double te = tv < 0 ? -1 : time_encode(name, prog, WA_ENCODE_NO_VALIDATE, c->runs, &code, &len);
    if (tv < 0 || te < 0 || n == 0) {
        wa_free(code);
        return;
    }
    printf("%-28s %9u instr %9zu bytes  encode %7.1f ns/instr (%6.1f with validation)", name, n,
           len, te * 1e9 / n, tv * 1e9 / n);
    if (c->llvm_mc) {
        char *text = NULL;
        size_t tlen = 0;
        wa_emit_options eo = WA_EMIT_OPTIONS_INIT;
        eo.flags = 0;
        char src[] = "/tmp/wa_encode_benchXXXXXX";
        int fd = -1;
        if (wa_emit_asm(&text, &tlen, prog, &eo) == WA_OK && (fd = mkstemp(src)) >= 0) {
            FILE *f = fdopen(fd, "w");
            int ok = f && fwrite(text, 1, tlen, f) == tlen;
            if (f)
                fclose(f);
            char obj[64], cmd[512];
            snprintf(obj, sizeof(obj), "%s.o", src);
            snprintf(cmd, sizeof(cmd), "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj %s -o %s",
                     c->llvm_mc, wa_target_name(c->target), src, obj);
            double best = 1e30;
            for (unsigned r = 0; ok && r < c->runs; r++) {
                double t0 = now();
                ok = system(cmd) == 0;
                double t = now() - t0;
                if (t < best)
                    best = t;
            }
            if (ok) {
                size_t tn = 0;
                unsigned char *t = elf_text(obj, &tn);
                int same = t && tn >= len && memcmp(t, code, len) == 0;
                printf("  llvm-mc %8.1f ns/instr  ratio %6.1fx  %s", best * 1e9 / n,
                       best / te, same ? "bytes identical" : "BYTES DIFFER");
                free(t);
            } else {
                printf("  llvm-mc failed");
            }
            remove(obj);
            remove(src);
        }
        wa_free(text);
    }
    putchar('\n');
    fflush(stdout);
    wa_free(code);
}

/* Compiles with the default pipeline (register allocation, waits, hazards). */
static int finish(wa_program *prog)
{
    wa_pipeline *pl = NULL;
    wa_status st = wa_pipeline_create(&pl, wa_program_context(prog), NULL);
    if (st == WA_OK)
        st = wa_pipeline_run(pl, prog);
    wa_pipeline_destroy(pl);
    return st == WA_OK;
}

static void run_examples(const cfg *c, wa_context *ctx)
{
    DIR *dir = opendir(WAVEASM_BENCH_EXAMPLES);
    if (!dir)
        return;
    struct dirent *e;
    char *names[64];
    unsigned n = 0;
    while ((e = readdir(dir)) && n < 64) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".wa") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(dir);
    for (unsigned i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", WAVEASM_BENCH_EXAMPLES, names[i]);
        wa_program *prog = NULL;
        if (wa_program_parse_file(&prog, ctx, path) == WA_OK &&
            wa_program_set_target(prog, c->target) == WA_OK && finish(prog))
            report(c, names[i], prog);
        wa_program_destroy(prog);
        free(names[i]);
    }
}

int main(int argc, char **argv)
{
    cfg c = { WA_TARGET_GFX942, 3, "llvm-mc-22" };
    unsigned sizes[MAX_SIZES] = { 100000, 1000000 }, nsizes = 2;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = bench_arg_value(argv[i], "--sizes"))) {
            int k = bench_parse_sizes(sizes, MAX_SIZES, v, 300, 20000000);
            if (k < 0) {
                fprintf(stderr, "bad --sizes\n");
                return 2;
            }
            nsizes = (unsigned)k;
        } else if ((v = bench_arg_value(argv[i], "--target"))) {
            if (wa_target_from_name(&c.target, v) != WA_OK) {
                fprintf(stderr, "unknown target %s\n", v);
                return 2;
            }
        } else if ((v = bench_arg_value(argv[i], "--runs"))) {
            c.runs = (unsigned)strtoul(v, NULL, 10);
            if (!c.runs)
                c.runs = 1;
        } else if ((v = bench_arg_value(argv[i], "--llvm-mc"))) {
            c.llvm_mc = v;
        } else if (strcmp(argv[i], "--no-llvm-mc") == 0) {
            c.llvm_mc = NULL;
        } else {
            fprintf(stderr, "usage: encode_bench [--sizes=100k,1M] [--target=T] [--runs=N] "
                            "[--llvm-mc=PATH] [--no-llvm-mc]\n");
            return 2;
        }
    }
    if (c.llvm_mc) {
        char probe[512];
        snprintf(probe, sizeof(probe), "%s --version > /dev/null 2>&1", c.llvm_mc);
        if (system(probe) != 0) {
            printf("note: %s not found; encoder timings only\n", c.llvm_mc);
            c.llvm_mc = NULL;
        }
    }
    wa_context_options co = WA_CONTEXT_OPTIONS_INIT;
    co.target = c.target;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &co) != WA_OK)
        return 1;
    printf("target %s, best of %u runs\n", wa_target_name(c.target), c.runs);
    run_examples(&c, ctx);
    for (unsigned s = 0; s < nsizes; s++) {
        for (unsigned shape = 0; shape < GEMM_GEN_SHAPE_COUNT; shape++) {
            gemm_gen_options go = GEMM_GEN_OPTIONS_INIT;
            go.shape = (gemm_gen_shape)shape;
            go.instructions = sizes[s];
            wa_program *prog = NULL;
            char name[64];
            snprintf(name, sizeof(name), "gemm %s %uk", gemm_gen_shape_name(go.shape),
                     sizes[s] / 1000);
            if (gemm_gen_build(&prog, NULL, ctx, &go) == WA_OK && finish(prog))
                report(&c, name, prog);
            else
                printf("%-28s could not be built: %s\n", name, wa_context_last_error(ctx));
            wa_program_destroy(prog);
        }
    }
    wa_context_destroy(ctx);
    return 0;
}
