/* bench/text_bench.c — the text path in process: reading the text form,
   printing it, the default pipeline and the assembly text, per instruction.

   For each size it builds the GEMM generator's kernel (one_loop), prints it
   (tags and comments on, as waveasm-opt does), then times (thread CPU time,
   so that other work on the machine counts less), best of N runs:

     print     wa_program_print of the virtual program
     parse     wa_program_parse of that text
     pipeline  the default pipeline on the parsed program (once; per stage
               from the pipeline's own statistics)
     emit      wa_emit_asm of the allocated program

   and the memory the parsed program holds (resident set growth while parsing
   into a fresh process heap, Linux /proc/self/statm) and the peak resident set
   of the whole run. With --check it also verifies that print(parse(text)) is
   the same text and that the parsed program equals the built one.
   Timings are printed, never asserted. See bench/README.md. */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "bench_args.h"
#include "gemm_gen.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Resident set in bytes (0 where /proc is missing). */
static double rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, res = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%lu %lu", &size, &res) != 2)
        res = 0;
    fclose(f);
    return (double)res * 4096.0;
}

static double peak_rss_bytes(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss * 1024.0;
}

static int fail(wa_context *ctx, const char *what)
{
    fprintf(stderr, "text_bench: %s: %s\n", what, wa_context_last_error(ctx));
    return 1;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: text_bench [--sizes=10k,100k,1M] [--runs=N] [--check] [--shape=S]\n"
            "Prints nanoseconds per instruction for print, parse, each pipeline stage\n"
            "and emit, and bytes per instruction of the parsed program.\n");
    return 2;
}

int main(int argc, char **argv)
{
    unsigned sizes[16] = { 10000, 100000, 1000000 };
    int nsizes = 3, check = 0;
    unsigned runs = 3;
    gemm_gen_shape shape = GEMM_GEN_ONE_LOOP;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = bench_arg_value(argv[i], "--sizes"))) {
            nsizes = bench_parse_sizes(sizes, 16, v, 300, 20000000);
            if (nsizes < 0)
                return usage();
        } else if ((v = bench_arg_value(argv[i], "--runs"))) {
            runs = (unsigned)strtoul(v, NULL, 10);
            if (runs == 0 || runs > 1000)
                return usage();
        } else if ((v = bench_arg_value(argv[i], "--shape"))) {
            if (gemm_gen_shape_from_name(&shape, v))
                return usage();
        } else if (strcmp(argv[i], "--check") == 0) {
            check = 1;
        } else {
            return usage();
        }
    }
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK)
        return 1;
    printf("libwaveasm %s, gemm %s, best of %u runs, ns per instruction\n", wa_version_string(),
           gemm_gen_shape_name(shape), runs);
    printf("%9s %7s %7s", "instrs", "print", "parse");
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++)
        printf(" %8s", wa_stage_name((wa_stage)s));
    printf(" %7s %9s %9s %s\n", "emit", "B/instr", "peakMB", check ? "check" : "");
    int rc = 0;
    for (int k = 0; k < nsizes && !rc; k++) {
        gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
        g.shape = shape;
        g.instructions = sizes[k];
        gemm_gen_info info;
        wa_program *built = NULL;
        if (gemm_gen_build(&built, &info, ctx, &g) != WA_OK)
            return fail(ctx, "generate");
        double n = info.instructions;
        char *text = NULL;
        size_t len = 0;
        double t_print = 1e30, t_parse = 1e30, t_emit = 1e30, bytes = 0;
        for (unsigned r = 0; r < runs; r++) {
            wa_free(text);
            text = NULL;
            double t0 = now_s();
            if (wa_program_print(&text, &len, built, NULL) != WA_OK)
                return fail(ctx, "print");
            double t1 = now_s();
            if (t1 - t0 < t_print)
                t_print = t1 - t0;
        }
        wa_program *p = NULL;
        for (unsigned r = 0; r < runs; r++) {
            wa_program_destroy(p);
            p = NULL;
            double m0 = rss_bytes();
            double t0 = now_s();
            if (wa_program_parse(&p, ctx, text, len, "gemm.wa") != WA_OK)
                return fail(ctx, "parse");
            double t1 = now_s();
            double m1 = rss_bytes();
            if (t1 - t0 < t_parse)
                t_parse = t1 - t0;
            if (r == 0)
                bytes = m1 - m0;
        }
        const char *verdict = "";
        if (check) {
            char *again = NULL;
            size_t alen = 0;
            if (wa_program_print(&again, &alen, p, NULL) != WA_OK)
                return fail(ctx, "print again");
            int same = alen == len && memcmp(again, text, len) == 0;
            wa_free(again);
            verdict = same && wa_program_equal(p, built) ? "ok" : "FAIL";
            if (!same || !wa_program_equal(p, built))
                rc = 1;
        }
        wa_program_destroy(built);
        wa_free(text);
        wa_pipeline *pl = NULL;
        if (wa_pipeline_create(&pl, ctx, NULL) != WA_OK || wa_pipeline_run(pl, p) != WA_OK)
            return fail(ctx, "pipeline");
        double stage_ns[WA_STAGE_COUNT_];
        for (unsigned s = 0; s < WA_STAGE_COUNT_; s++) {
            wa_stage_stats ss;
            stage_ns[s] = wa_pipeline_stats(&ss, pl, (wa_stage)s) == WA_OK && ss.ran
                              ? ss.seconds * 1e9 / n : 0;
        }
        wa_pipeline_destroy(pl);
        for (unsigned r = 0; r < runs; r++) {
            char *as = NULL;
            size_t alen = 0;
            double t0 = now_s();
            if (wa_emit_asm(&as, &alen, p, NULL) != WA_OK)
                return fail(ctx, "emit");
            double t1 = now_s();
            wa_free(as);
            if (t1 - t0 < t_emit)
                t_emit = t1 - t0;
        }
        wa_program_destroy(p);
        printf("%9u %7.1f %7.1f", info.instructions, t_print * 1e9 / n, t_parse * 1e9 / n);
        for (unsigned s = 0; s < WA_STAGE_COUNT_; s++)
            printf(" %8.1f", stage_ns[s]);
        printf(" %7.1f %9.1f %9.1f %s\n", t_emit * 1e9 / n, bytes / n, peak_rss_bytes() / 1e6,
               verdict);
        fflush(stdout);
    }
    wa_context_destroy(ctx);
    return rc;
}
