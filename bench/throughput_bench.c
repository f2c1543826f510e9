/* bench/throughput_bench.c — many independent kernels compiled on N threads,
   one context per thread, as a runtime that compiles kernels in parallel.

   Each thread parses the example kernels and builds GEMM generator kernels of
   `--gemm-size` instructions in turn, runs the default pipeline and emits the
   assembly text, until it has compiled `--kernels` kernels. For each thread
   count 1..N it prints kernels per second in all, per thread, and the speed-up
   over one thread. The library holds no global mutable state, so threads
   share nothing but the read-only inputs. Timings are printed, never
   asserted. See bench/README.md. */
#define _POSIX_C_SOURCE 199309L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "bench_args.h"
#include "gemm_gen.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define MAX_TEXTS 8

typedef struct job {
    const char *texts[MAX_TEXTS];
    size_t lens[MAX_TEXTS];
    unsigned ntexts;
    unsigned kernels;     /* kernels per thread */
    unsigned gemm_size;   /* 0: no generated kernels */
} job;

typedef struct worker {
    job *j;
    unsigned failed;
    unsigned long long instrs;
} worker;

/* Compiles the thread's share of kernels with its own context. */
static void *run_worker(void *arg)
{
    worker *w = arg;
    const job *j = w->j;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK) {
        w->failed = 1;
        return NULL;
    }
    unsigned kinds = j->ntexts + (j->gemm_size ? 1u : 0u);
    for (unsigned k = 0; k < j->kernels && !w->failed; k++) {
        unsigned which = k % kinds;
        wa_program *p = NULL;
        wa_status st;
        if (which < j->ntexts) {
            st = wa_program_parse(&p, ctx, j->texts[which], j->lens[which], "kernel.wa");
        } else {
            gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
            g.instructions = j->gemm_size;
            g.seed = k + 1;
            st = gemm_gen_build(&p, NULL, ctx, &g);
        }
        if (st == WA_OK)
            st = wa_compile(p, NULL);
        char *text = NULL;
        size_t len = 0;
        if (st == WA_OK)
            st = wa_emit_asm(&text, &len, p, NULL);
        if (st != WA_OK) {
            fprintf(stderr, "throughput_bench: %s\n", wa_context_last_error(ctx));
            w->failed = 1;
        } else {
            w->instrs += wa_program_size(p);
        }
        wa_free(text);
        wa_program_destroy(p);
    }
    wa_context_destroy(ctx);
    return NULL;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: throughput_bench [--threads=N] [--kernels=N] [--gemm-size=N] [--examples=DIR]\n"
            "  --threads=N    largest thread count (default 2); runs 1..N\n"
            "  --kernels=N    kernels compiled per thread (default 2000)\n"
            "  --gemm-size=N  every fifth kernel is a generated GEMM kernel of about N\n"
            "                 instructions (default 300; 0: examples only)\n");
    return 2;
}

int main(int argc, char **argv)
{
    unsigned maxthreads = 2, kernels = 2000, gemm_size = 300;
    const char *examples = WAVEASM_BENCH_EXAMPLES;
    for (int i = 1; i < argc; i++) {
        const char *v;
        char *end;
        if ((v = bench_arg_value(argv[i], "--threads"))) {
            maxthreads = (unsigned)strtoul(v, &end, 10);
            if (*end || maxthreads == 0 || maxthreads > 256)
                return usage();
        } else if ((v = bench_arg_value(argv[i], "--kernels"))) {
            kernels = (unsigned)strtoul(v, &end, 10);
            if (*end || kernels == 0)
                return usage();
        } else if ((v = bench_arg_value(argv[i], "--gemm-size"))) {
            gemm_size = (unsigned)strtoul(v, &end, 10);
            if (*end || (gemm_size && gemm_size < 300))
                return usage();
        } else if ((v = bench_arg_value(argv[i], "--examples"))) {
            examples = v;
        } else {
            return usage();
        }
    }
    static const char *const files[] = { "copy.wa", "vector_add.wa", "mfma_lds.wa",
                                         "gemm_kloop_virtual.wa" };
    job j;
    memset(&j, 0, sizeof(j));
    j.kernels = kernels;
    j.gemm_size = gemm_size;
    char *owned[MAX_TEXTS];
    for (unsigned k = 0; k < 4; k++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", examples, files[k]);
        owned[k] = bench_read_file(path, &j.lens[k]);
        if (!owned[k]) {
            fprintf(stderr, "throughput_bench: cannot read %s (see --examples)\n", path);
            return 1;
        }
        j.texts[k] = owned[k];
        j.ntexts++;
    }
    printf("libwaveasm %s: %u kernels per thread (the 4 examples%s in turn), default pipeline "
           "and assembly text, one context per thread\n",
           wa_version_string(), kernels, gemm_size ? " and a generated GEMM kernel" : "");
    printf("%7s %10s %12s %14s %9s %12s\n", "threads", "seconds", "kernels/s", "kernels/s/thr",
           "speed-up", "Minstr/s");
    double base = 0;
    int rc = 0;
    for (unsigned t = 1; t <= maxthreads && !rc; t++) {
        pthread_t *tid = calloc(t, sizeof(pthread_t));
        worker *w = calloc(t, sizeof(worker));
        if (!tid || !w)
            return 1;
        double t0 = now_s();
        unsigned started = 0;
        for (unsigned i = 0; i < t; i++) {
            w[i].j = &j;
            if (pthread_create(&tid[i], NULL, run_worker, &w[i]) != 0)
                break;
            started++;
        }
        unsigned long long instrs = 0;
        for (unsigned i = 0; i < started; i++) {
            pthread_join(tid[i], NULL);
            rc |= (int)w[i].failed;
            instrs += w[i].instrs;
        }
        double secs = now_s() - t0;
        if (started != t)
            rc = 1;
        double rate = (double)kernels * t / secs;
        if (t == 1)
            base = rate;
        printf("%7u %10.3f %12.0f %14.0f %9.2f %12.2f\n", t, secs, rate, rate / t, rate / base,
               (double)instrs / secs * 1e-6);
        fflush(stdout);
        free(tid);
        free(w);
    }
    for (unsigned k = 0; k < j.ntexts; k++)
        free(owned[k]);
    return rc;
}
