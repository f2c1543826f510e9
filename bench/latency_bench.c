/* bench/latency_bench.c — in-process latency of small kernels, end to end.

   A host that compiles kernels at run time pays, per kernel: building or parsing
   the program, the default pipeline (cse, peephole, regalloc, waitcnt, hazards)
   and the assembly text. This benchmark repeats exactly that in one process with
   one context, as a JIT would, and reports microseconds per kernel and per
   stage (the mean over the repetitions after a warm-up):

     example files  kernels of examples/ (or the files named on the command
                    line), parsed from text each time;
     built          kernels made with builder calls each time: a chain of
                    `--built-size` instructions of loads, VALU arithmetic on
                    virtual registers and stores, at three sizes;
     gemm           the benchmark GEMM generator's smallest kernel (~300
                    instructions), built each time.

   Stage times come from the pipeline's statistics (CPU time of each stage);
   the total is wall-clock time of the whole repetition. Timings are printed,
   never asserted. See bench/README.md. */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "bench_args.h"
#include "gemm_gen.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* ---- inputs ----------------------------------------------------------------------------- */

typedef struct input {
    const char *name;
    const char *text;    /* parsed each time, or NULL */
    size_t len;
    unsigned built;      /* builder chain of this many instructions, or 0 */
    int gemm;            /* the GEMM generator's small kernel */
} input;

/* A straight-line kernel of about `n` instructions: per group, a global load, a
   wait, three VALU operations on virtual registers and a store. */
static wa_status build_chain(wa_program **out, wa_context *ctx, unsigned n)
{
    wa_program *p = NULL;
    wa_status st = wa_program_create(&p, ctx, "chain");
    if (st)
        return st;
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.name = "buf";
    a.kind = WA_ARG_GLOBAL_BUFFER;
    a.size = 8;
    wa_operand kp = wa_opnd_none(), tid = wa_opnd_none(), base = wa_opnd_none(),
               off = wa_opnd_none();
    st = wa_program_set_abi_inputs(p, WA_ABI_BIT(WA_ABI_KERNARG_PTR) |
                                          WA_ABI_BIT(WA_ABI_WORKITEM_ID_X));
    if (!st)
        st = wa_program_add_arg(NULL, p, &a);
    if (!st)
        st = wa_program_abi_reg(&kp, p, WA_ABI_KERNARG_PTR);
    if (!st)
        st = wa_program_abi_reg(&tid, p, WA_ABI_WORKITEM_ID_X);
    if (!st)
        st = wa_program_vreg(&base, p, WA_REG_SGPR, 2, 2);
    if (!st)
        st = wa_program_vreg(&off, p, WA_REG_VGPR, 1, 1);
    if (!st)
        st = wa_build_smem(NULL, p, WA_OP_S_LOAD_DWORDX2, base, kp, wa_opnd_imm(0), NULL);
    if (!st)
        st = wa_build_valu(NULL, p, WA_OP_V_LSHLREV_B32, off, wa_opnd_imm(2), tid,
                           wa_opnd_none());
    if (!st)
        st = wa_build_waitcnt(NULL, p, -1, 0, -1);
    for (unsigned g = 0; !st && 6 * g + 5 <= n; g++) {
        wa_operand x = wa_opnd_none(), y = wa_opnd_none(), z = wa_opnd_none();
        wa_mods ld = WA_MODS_INIT, sto = WA_MODS_INIT;
        ld.offset = (int32_t)((4 * g) % 2048);
        sto.offset = (int32_t)(2048 + (4 * g) % 2048);
        st = wa_program_vreg(&x, p, WA_REG_VGPR, 1, 1);
        if (!st)
            st = wa_program_vreg(&y, p, WA_REG_VGPR, 1, 1);
        if (!st)
            st = wa_program_vreg(&z, p, WA_REG_VGPR, 1, 1);
        if (!st)
            st = wa_build_global(NULL, p, WA_OP_GLOBAL_LOAD_DWORD, x, off, base, &ld);
        if (!st)
            st = wa_build_waitcnt(NULL, p, 0, -1, -1);
        if (!st)
            st = wa_build_valu(NULL, p, WA_OP_V_ADD_U32, y, x, tid, wa_opnd_none());
        if (!st)
            st = wa_build_valu(NULL, p, WA_OP_V_MUL_LO_U32, z, y, x, wa_opnd_none());
        if (!st)
            st = wa_build_valu(NULL, p, WA_OP_V_XOR_B32, y, wa_opnd_imm((int64_t)g), z,
                               wa_opnd_none());
        if (!st)
            st = wa_build_global(NULL, p, WA_OP_GLOBAL_STORE_DWORD, y, off, base, &sto);
    }
    if (!st)
        st = wa_build_sopp(NULL, p, WA_OP_S_ENDPGM, 0);
    if (st) {
        wa_program_destroy(p);
        return st;
    }
    *out = p;
    return WA_OK;
}

/* ---- one compilation --------------------------------------------------------------------- */

#define NCOLS (2 + WA_STAGE_COUNT_) /* build/parse, the stages, emit */

typedef struct totals {
    double col[NCOLS]; /* microseconds summed over the timed repetitions */
    double wall;
    unsigned instrs;
} totals;

/* Builds or parses `in`, runs the default pipeline and emits assembly; adds
   the times to `t` when `timed`. Returns 0, or 1 after printing an error. */
static int compile_once(wa_context *ctx, const input *in, totals *t, int timed)
{
    double w0 = now_us();
    wa_program *p = NULL;
    wa_status st;
    if (in->text)
        st = wa_program_parse(&p, ctx, in->text, in->len, in->name);
    else if (in->built)
        st = build_chain(&p, ctx, in->built);
    else {
        gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
        g.instructions = 300;
        st = gemm_gen_build(&p, NULL, ctx, &g);
    }
    double w1 = now_us();
    wa_pipeline *pl = NULL;
    if (st == WA_OK)
        st = wa_pipeline_create(&pl, ctx, NULL);
    if (st == WA_OK)
        st = wa_pipeline_run(pl, p);
    double w2 = now_us();
    char *text = NULL;
    size_t len = 0;
    if (st == WA_OK)
        st = wa_emit_asm(&text, &len, p, NULL);
    double w3 = now_us();
    if (st != WA_OK) {
        fprintf(stderr, "latency_bench: %s: %s\n", in->name, wa_context_last_error(ctx));
        wa_pipeline_destroy(pl);
        wa_program_destroy(p);
        return 1;
    }
    if (timed) {
        t->col[0] += w1 - w0;
        double stages = 0;
        for (unsigned s = 0; s < WA_STAGE_COUNT_; s++) {
            wa_stage_stats ss;
            if (wa_pipeline_stats(&ss, pl, (wa_stage)s) == WA_OK && ss.ran) {
                t->col[1 + s] += ss.seconds * 1e6;
                stages += ss.seconds * 1e6;
            }
        }
        (void)stages;
        t->col[NCOLS - 1] += w3 - w2;
        t->wall += w3 - w0;
        t->instrs = (unsigned)wa_program_size(p);
    }
    wa_free(text);
    wa_pipeline_destroy(pl);
    wa_program_destroy(p);
    return 0;
}

/* ---- main --------------------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr,
            "usage: latency_bench [options] [kernel.wa ...]\n"
            "  --iterations=N   timed repetitions per kernel (default 2000)\n"
            "  --built-size=N,N builder chains of about these many instructions\n"
            "                   (default 50,100,200)\n"
            "  --examples=DIR   the example kernels (default: the source tree's)\n"
            "  --target=T       gfx90a, gfx942 (default) or gfx950\n"
            "Prints microseconds per kernel: building or parsing, each pipeline\n"
            "stage, emission and the wall-clock total (mean over the repetitions).\n");
    return 2;
}

int main(int argc, char **argv)
{
    unsigned iterations = 2000, sizes[8] = { 50, 100, 200 };
    int nsizes = 3;
    const char *examples = WAVEASM_BENCH_EXAMPLES;
    wa_target target = WA_TARGET_GFX942;
    input ins[64];
    char *texts[64];
    unsigned nin = 0, ntexts = 0;
    int named = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = bench_arg_value(argv[i], "--iterations"))) {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (*end || n == 0 || n > 100000000ul)
                return usage();
            iterations = (unsigned)n;
        } else if ((v = bench_arg_value(argv[i], "--built-size"))) {
            nsizes = bench_parse_sizes(sizes, 8, v, 10, 100000);
            if (nsizes < 0)
                return usage();
        } else if ((v = bench_arg_value(argv[i], "--examples"))) {
            examples = v;
        } else if ((v = bench_arg_value(argv[i], "--target"))) {
            if (wa_target_from_name(&target, v) != WA_OK)
                return usage();
        } else if (argv[i][0] == '-') {
            return usage();
        } else if (nin < 32) {
            size_t len;
            char *text = bench_read_file(argv[i], &len);
            if (!text) {
                fprintf(stderr, "latency_bench: cannot read %s\n", argv[i]);
                return 1;
            }
            texts[ntexts++] = text;
            ins[nin++] = (input){ argv[i], text, len, 0, 0 };
            named = 1;
        }
    }
    static const char *const example_files[] = { "copy.wa", "vector_add.wa", "mfma_lds.wa",
                                                  "gemm_kloop_virtual.wa" };
    static char paths[4][1024];
    for (unsigned k = 0; !named && k < 4; k++) {
        snprintf(paths[k], sizeof(paths[k]), "%s/%s", examples, example_files[k]);
        size_t len;
        char *text = bench_read_file(paths[k], &len);
        if (!text) {
            fprintf(stderr, "latency_bench: cannot read %s (see --examples)\n", paths[k]);
            return 1;
        }
        texts[ntexts++] = text;
        ins[nin++] = (input){ example_files[k], text, len, 0, 0 };
    }
    static char names[8][32];
    for (int k = 0; k < nsizes; k++) {
        snprintf(names[k], sizeof(names[k]), "built chain %u", sizes[k]);
        ins[nin++] = (input){ names[k], NULL, 0, sizes[k], 0 };
    }
    ins[nin++] = (input){ "built gemm 300", NULL, 0, 0, 1 };

    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.target = target;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &o) != WA_OK) {
        fprintf(stderr, "latency_bench: cannot create a context\n");
        return 1;
    }
    printf("libwaveasm %s, %s, %u repetitions per kernel (after %u untimed), one context, "
           "microseconds per kernel\n",
           wa_version_string(), wa_target_name(target), iterations,
           iterations / 10 + 1);
    printf("%-24s %6s %9s %8s %8s %8s %8s %8s %8s %9s\n", "kernel", "items", "build", "cse",
           "peephole", "regalloc", "waitcnt", "hazards", "emit", "total");
    int rc = 0;
    for (unsigned k = 0; k < nin && !rc; k++) {
        totals t;
        memset(&t, 0, sizeof(t));
        for (unsigned r = 0; r < iterations / 10 + 1 && !rc; r++)
            rc = compile_once(ctx, &ins[k], &t, 0);
        for (unsigned r = 0; r < iterations && !rc; r++)
            rc = compile_once(ctx, &ins[k], &t, 1);
        if (rc)
            break;
        printf("%-24s %6u", ins[k].name, t.instrs);
        for (unsigned c = 0; c < NCOLS; c++)
            printf(c == 0 ? " %9.1f" : " %8.1f", t.col[c] / iterations);
        printf(" %9.1f\n", t.wall / iterations);
    }
    for (unsigned k = 0; k < ntexts; k++)
        free(texts[k]);
    wa_context_destroy(ctx);
    return rc;
}
