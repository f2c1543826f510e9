/* bench/regalloc_bench.c — liveness and register allocation speed and quality on
   generated GEMM-like kernels (bench/gemm_gen.h).

   For each shape (one_loop, many_loops) and size (default 1k, 10k, 100k, 1M
   instructions): generate the kernel and validate it (not timed), time
   wa_liveness_compute and wa_regalloc_run (best of N runs each), and print one
   table row: time, throughput, maximum register pressure, allocated peak and
   their ratio. Timings are printed, never asserted. See bench/README.md. */
#define _POSIX_C_SOURCE 199309L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "bench_args.h"
#include "gemm_gen.h"

/* The liveness and allocation entry points are referenced weakly on ELF
   platforms, so that the benchmark also builds and runs (and says what is
   missing) against a library that does not provide them yet. */
#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#define BENCH_WEAK_API 1
#pragma weak wa_liveness_compute
#pragma weak wa_liveness_destroy
#pragma weak wa_liveness_block_count
#pragma weak wa_liveness_max_pressure
#pragma weak wa_regalloc_run
#pragma weak wa_regalloc_destroy
#pragma weak wa_regalloc_get_stats
#pragma weak wa_regalloc_check
#else
#define BENCH_WEAK_API 0
#endif

static int have_liveness(void)
{
#if BENCH_WEAK_API
    return wa_liveness_compute != NULL && wa_liveness_destroy != NULL &&
           wa_liveness_block_count != NULL && wa_liveness_max_pressure != NULL;
#else
    return 1;
#endif
}

static int have_regalloc(void)
{
#if BENCH_WEAK_API
    return wa_regalloc_run != NULL && wa_regalloc_destroy != NULL &&
           wa_regalloc_get_stats != NULL && wa_regalloc_check != NULL;
#else
    return 1;
#endif
}

/* ---- options ------------------------------------------------------------------------------ */

#define MAX_SIZES 32
#define MAX_RUNS 1000
#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_MISSING 77  /* the library lacks the entry points (ctest: skipped) */

typedef struct bench_opts {
    unsigned sizes[MAX_SIZES], nsizes;
    int shapes[GEMM_GEN_SHAPE_COUNT];
    uint64_t seed;
    unsigned runs;            /* 0: adaptive */
    unsigned budget_ms;       /* adaptive: time spent per measurement */
    unsigned block_size;
    unsigned max_vgprs;       /* allocator limit (default 256) */
    int check, csv, comments, verbose;
    const char *emit_text;
    unsigned random_shapes;   /* > 0: that many random kernels, pressure vs peak only */
} bench_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: regalloc_bench [options]\n"
            "  --sizes=N,N,...     target instruction counts (suffix k or M allowed;\n"
            "                      default 1k,10k,100k,1M)\n"
            "  --shape=S           one_loop, many_loops or all (default all)\n"
            "  --seed=N            generator seed (default 1)\n"
            "  --runs=N            timed runs per measurement, best kept (default: adaptive)\n"
            "  --budget=MS         adaptive runs: time per measurement (default 300)\n"
            "  --block-size=N      many_loops: average instructions per block (default 30)\n"
            "  --max-vgprs=N       allocator VGPR limit (default 256)\n"
            "  --check             verify each allocation with wa_regalloc_check (not timed)\n"
            "  --emit-text=FILE    write the generated kernel(s) as text IR (\"-\": stdout);\n"
            "                      with several kernels, FILE gets -<shape>-<size> inserted\n"
            "  --comments          put section comments into the generated kernels\n"
            "  --random-shapes=N   instead of the table: N kernels of random shape, size\n"
            "                      (1k-20k), block size (10-60) and generator seed, each\n"
            "                      allocated once; prints how often the allocated peak\n"
            "                      equals the pressure, per class (with --verbose, each)\n"
            "  --csv               comma-separated output\n"
            "  --verbose           also report generation, validation and check times and\n"
            "                      the kernels' composition (on stderr)\n"
            "  --help\n"
            "exit status: 0 all good, 1 a generation, validation, liveness, allocation or\n"
            "check failure, 2 usage, 77 the library has no liveness/regalloc entry points\n");
}

static int parse_u64(uint64_t *out, const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || *s == '-')
        return -1;
    *out = v;
    return 0;
}

static int parse_uint(unsigned *out, const char *s, unsigned min, unsigned max)
{
    uint64_t v;
    if (parse_u64(&v, s) || v < min || v > max)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int parse_sizes(bench_opts *o, const char *s)
{
    int n = bench_parse_sizes(o->sizes, MAX_SIZES, s, 100, 100000000);
    o->nsizes = n < 0 ? 0 : (unsigned)n;
    return n < 0 ? -1 : 0;
}

static int parse_args(bench_opts *o, int argc, char **argv)
{
    static const unsigned default_sizes[] = { 1000, 10000, 100000, 1000000 };
    memset(o, 0, sizeof *o);
    for (unsigned i = 0; i < 4; i++)
        o->sizes[i] = default_sizes[i];
    o->nsizes = 4;
    o->shapes[GEMM_GEN_ONE_LOOP] = o->shapes[GEMM_GEN_MANY_LOOPS] = 1;
    o->seed = 1;
    o->budget_ms = 300;
    o->block_size = 30;
    o->max_vgprs = 256;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if ((v = bench_arg_value(a, "--sizes"))) {
            if (parse_sizes(o, v))
                return fprintf(stderr, "bad --sizes: %s (100 .. 100M each)\n", v), -1;
        } else if ((v = bench_arg_value(a, "--shape"))) {
            gemm_gen_shape s;
            memset(o->shapes, 0, sizeof o->shapes);
            if (strcmp(v, "all") == 0)
                o->shapes[GEMM_GEN_ONE_LOOP] = o->shapes[GEMM_GEN_MANY_LOOPS] = 1;
            else if (gemm_gen_shape_from_name(&s, v) == 0)
                o->shapes[s] = 1;
            else
                return fprintf(stderr, "bad --shape: %s\n", v), -1;
        } else if ((v = bench_arg_value(a, "--seed"))) {
            if (parse_u64(&o->seed, v))
                return fprintf(stderr, "bad --seed: %s\n", v), -1;
        } else if ((v = bench_arg_value(a, "--runs"))) {
            if (parse_uint(&o->runs, v, 1, MAX_RUNS))
                return fprintf(stderr, "bad --runs: %s (1 .. %d)\n", v, MAX_RUNS), -1;
        } else if ((v = bench_arg_value(a, "--budget"))) {
            if (parse_uint(&o->budget_ms, v, 1, 600000))
                return fprintf(stderr, "bad --budget: %s\n", v), -1;
        } else if ((v = bench_arg_value(a, "--block-size"))) {
            if (parse_uint(&o->block_size, v, 10, 10000))
                return fprintf(stderr, "bad --block-size: %s (10 .. 10000)\n", v), -1;
        } else if ((v = bench_arg_value(a, "--max-vgprs"))) {
            if (parse_uint(&o->max_vgprs, v, 1, 256))
                return fprintf(stderr, "bad --max-vgprs: %s (1 .. 256)\n", v), -1;
        } else if ((v = bench_arg_value(a, "--emit-text"))) {
            if (!*v)
                return fprintf(stderr, "--emit-text needs a file name\n"), -1;
            o->emit_text = v;
        } else if ((v = bench_arg_value(a, "--random-shapes"))) {
            if (parse_uint(&o->random_shapes, v, 1, 100000))
                return fprintf(stderr, "bad --random-shapes: %s\n", v), -1;
        } else if (strcmp(a, "--check") == 0) {
            o->check = 1;
        } else if (strcmp(a, "--csv") == 0) {
            o->csv = 1;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            o->verbose = 1;
        } else if (strcmp(a, "--comments") == 0) {
            o->comments = 1;
        } else {
            fprintf(stderr, "unknown option: %s\n", a);
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

/* ---- measurement -------------------------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Whether to run again after `done` runs that took `spent` ms in all. */
static int again(const bench_opts *o, unsigned done, double spent)
{
    if (o->runs)
        return done < o->runs;
    double per_run = spent / done;
    return done < MAX_RUNS && spent + per_run <= (double)o->budget_ms;
}

enum { CHECK_NOT_RUN = -1, CHECK_FAILED = 0, CHECK_PASSED = 1 };

typedef struct row {
    gemm_gen_shape shape;
    unsigned target;
    gemm_gen_info info;
    unsigned blocks;
    double gen_ms, live_ms, alloc_ms;   /* best run; < 0 when not measured */
    unsigned live_runs, alloc_runs;
    unsigned press[3], peak[3];         /* VGPR, SGPR, AGPR */
    int have_press, have_peak;
    int check;                          /* CHECK_* */
    unsigned check_errors;
    const char *status;                 /* "ok" or what failed first */
    int failed;
} row;

static const wa_reg_class classes[3] = { WA_REG_VGPR, WA_REG_SGPR, WA_REG_AGPR };

/* Records the first failure of a row, and prints what failed with the diagnostics
   on `ctx` (the first few). */
static void fail(row *r, wa_context *ctx, const char *what, const char *status, wa_status st)
{
    if (!r->failed)
        r->status = status;
    r->failed = 1;
    fprintf(stderr, "%s %u: %s failed: %s (%d)\n", gemm_gen_shape_name(r->shape), r->target,
            what, wa_status_string(st), (int)st);
    unsigned n = ctx ? wa_context_diag_count(ctx) : 0;
    for (unsigned i = 0; i < n && i < 10; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        if (d->tag != WA_NO_TAG)
            fprintf(stderr, "  %s [I%u]\n", d->message, d->tag);
        else
            fprintf(stderr, "  %s\n", d->message);
    }
    if (n > 10)
        fprintf(stderr, "  ... %u more diagnostics\n", n - 10);
}

static int write_text(const bench_opts *o, const wa_program *prog, row *r, int several)
{
    char *text;
    size_t len;
    wa_status st = wa_program_print(&text, &len, prog, NULL);
    if (st != WA_OK) {
        fail(r, wa_program_context(prog), "printing", "print failed", st);
        return -1;
    }
    FILE *f = stdout;
    char path[4096];
    if (strcmp(o->emit_text, "-") != 0) {
        const char *name = o->emit_text;
        if (several) {
            const char *slash = strrchr(name, '/');
            const char *dot = strrchr(slash ? slash : name, '.');
            size_t stem = dot ? (size_t)(dot - name) : strlen(name);
            snprintf(path, sizeof path, "%.*s-%s-%u%s", (int)stem, name,
                     gemm_gen_shape_name(r->shape), r->target, dot ? dot : "");
            name = path;
        }
        f = fopen(name, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s: %s\n", name, strerror(errno));
            wa_free(text);
            fail(r, NULL, "writing the kernel text", "write failed", WA_E_IO);
            return -1;
        }
    }
    int bad = fwrite(text, 1, len, f) != len;
    if (f != stdout)
        bad |= fclose(f) != 0;
    wa_free(text);
    if (bad)
        fail(r, NULL, "writing the kernel text", "write failed", WA_E_IO);
    return bad ? -1 : 0;
}

/* Returns the liveness of the first run (the caller destroys it), or NULL. */
static wa_liveness *time_liveness(const bench_opts *o, const wa_program *prog, row *r)
{
    double spent = 0;
    wa_liveness *keep = NULL;
    do {
        wa_liveness *live = NULL;
        double t0 = now_ms();
        wa_status st = wa_liveness_compute(&live, prog, NULL);
        double t = now_ms() - t0;
        if (st != WA_OK) {
            fail(r, wa_program_context(prog), "wa_liveness_compute", "liveness failed", st);
            wa_liveness_destroy(live);
            break;
        }
        spent += t;
        r->live_runs++;
        if (r->live_ms < 0 || t < r->live_ms)
            r->live_ms = t;
        if (!keep)
            keep = live;
        else
            wa_liveness_destroy(live);
    } while (again(o, r->live_runs, spent));
    if (keep) {
        r->blocks = wa_liveness_block_count(keep);
        for (unsigned c = 0; c < 3; c++)
            r->press[c] = wa_liveness_max_pressure(keep, classes[c], NULL);
        r->have_press = 1;
    }
    return keep;
}

/* Times the allocation of `prog`; `live` (may be NULL) is its liveness, handed to
   the allocator so that the time is the allocation's alone. */
static void time_regalloc(const bench_opts *o, const wa_program *prog, const wa_liveness *live,
                          row *r)
{
    wa_regalloc_options ro = WA_REGALLOC_OPTIONS_INIT;
    ro.max_vgprs = o->max_vgprs;
    ro.liveness = live;
    double spent = 0;
    wa_regalloc_result *keep = NULL;
    do {
        wa_regalloc_result *res = NULL;
        double t0 = now_ms();
        wa_status st = wa_regalloc_run(&res, prog, &ro);
        double t = now_ms() - t0;
        if (st != WA_OK) {
            fail(r, wa_program_context(prog), "wa_regalloc_run", "allocation failed", st);
            wa_regalloc_destroy(res);
            break;
        }
        spent += t;
        r->alloc_runs++;
        if (r->alloc_ms < 0 || t < r->alloc_ms)
            r->alloc_ms = t;
        if (!keep)
            keep = res;
        else
            wa_regalloc_destroy(res);
    } while (again(o, r->alloc_runs, spent));
    if (!keep)
        return;

    wa_regalloc_stats s;
    memset(&s, 0, sizeof s);
    wa_status st = wa_regalloc_get_stats(&s, keep);
    if (st == WA_OK) {
        unsigned press[3] = { s.max_pressure_vgpr, s.max_pressure_sgpr, s.max_pressure_agpr };
        r->peak[0] = s.peak_vgprs;
        r->peak[1] = s.peak_sgprs;
        r->peak[2] = s.peak_agprs;
        r->have_peak = 1;
        if (!r->have_press) {
            memcpy(r->press, press, sizeof press);
            r->have_press = 1;
        } else if (memcmp(r->press, press, sizeof press) != 0) {
            fprintf(stderr,
                    "%s %u: note: pressure from the allocator %u/%u/%u differs from liveness "
                    "%u/%u/%u (the table shows liveness)\n",
                    gemm_gen_shape_name(r->shape), r->target, press[0], press[1], press[2],
                    r->press[0], r->press[1], r->press[2]);
        }
    } else {
        fail(r, wa_program_context(prog), "wa_regalloc_get_stats", "stats failed", st);
    }

    if (o->check) {
        unsigned errors = 0;
        ro.liveness = NULL;
        double t0 = now_ms();
        st = wa_regalloc_check(&errors, prog, keep, &ro);
        if (o->verbose)
            fprintf(stderr, "%s %u: checked in %.1f ms\n", gemm_gen_shape_name(r->shape),
                    r->target, now_ms() - t0);
        r->check_errors = errors;
        r->check = st == WA_OK && errors == 0 ? CHECK_PASSED : CHECK_FAILED;
        if (r->check == CHECK_FAILED)
            fail(r, wa_program_context(prog), "wa_regalloc_check", "check failed",
                 st != WA_OK ? st : WA_E_VALIDATE);
    }
    wa_regalloc_destroy(keep);
}

/* ---- output ------------------------------------------------------------------------------- */

static void print_header(const bench_opts *o)
{
    if (o->csv) {
        printf("shape,target,instructions,blocks,loops,live_ms,alloc_ms,total_ms,instr_per_s,"
               "ns_per_instr,pressure_vgpr,pressure_sgpr,pressure_agpr,peak_vgpr,peak_sgpr,"
               "peak_agpr,ratio_vgpr,live_runs,alloc_runs,check,status\n");
        return;
    }
    printf("%-10s %8s %6s %6s %9s %9s %9s %9s %8s %12s %12s %6s %5s %s\n", "shape", "instrs",
           "blocks", "i/blk", "live_ms", "alloc_ms", "total_ms", "Minstr/s", "ns/instr",
           "pressure VSA", "peak VSA", "ratio", "check", "status");
}

static const char *check_text(const row *r)
{
    return r->check == CHECK_PASSED ? "pass" : r->check == CHECK_FAILED ? "FAIL" : "-";
}

static void print_row(const bench_opts *o, const row *r)
{
    int timed = r->live_ms >= 0 && r->alloc_ms >= 0;
    double total = timed ? r->live_ms + r->alloc_ms : -1;
    double ips = timed && total > 0 ? r->info.instructions / (total * 1e-3) : 0;
    double ns = timed ? total * 1e6 / r->info.instructions : 0;
    double ratio = r->have_press && r->have_peak && r->press[0] ? (double)r->peak[0] / r->press[0]
                                                                : 0;
    if (o->csv) {
        printf("%s,%u,%u,%u,%u,", gemm_gen_shape_name(r->shape), r->target, r->info.instructions,
               r->blocks, r->info.loops);
        if (r->live_ms >= 0) printf("%.4f,", r->live_ms); else printf(",");
        if (r->alloc_ms >= 0) printf("%.4f,", r->alloc_ms); else printf(",");
        if (timed) printf("%.4f,%.0f,%.2f,", total, ips, ns); else printf(",,,");
        if (r->have_press) printf("%u,%u,%u,", r->press[0], r->press[1], r->press[2]);
        else printf(",,,");
        if (r->have_peak) printf("%u,%u,%u,", r->peak[0], r->peak[1], r->peak[2]);
        else printf(",,,");
        if (ratio > 0) printf("%.4f,", ratio); else printf(",");
        printf("%u,%u,%s,%s\n", r->live_runs, r->alloc_runs,
               r->check == CHECK_PASSED ? "pass" : r->check == CHECK_FAILED ? "fail" : "",
               r->status);
        fflush(stdout);
        return;
    }
    char live[32] = "-", alloc[32] = "-", tot[32] = "-", mips[32] = "-", nsi[32] = "-";
    char press[32] = "-", peak[32] = "-", rat[32] = "-";
    if (r->live_ms >= 0) snprintf(live, sizeof live, "%.3f", r->live_ms);
    if (r->alloc_ms >= 0) snprintf(alloc, sizeof alloc, "%.3f", r->alloc_ms);
    if (timed) {
        snprintf(tot, sizeof tot, "%.3f", total);
        snprintf(mips, sizeof mips, "%.2f", ips * 1e-6);
        snprintf(nsi, sizeof nsi, "%.1f", ns);
    }
    if (r->have_press)
        snprintf(press, sizeof press, "%u/%u/%u", r->press[0], r->press[1], r->press[2]);
    if (r->have_peak)
        snprintf(peak, sizeof peak, "%u/%u/%u", r->peak[0], r->peak[1], r->peak[2]);
    if (ratio > 0) snprintf(rat, sizeof rat, "%.3f", ratio);
    printf("%-10s %8u %6u %6.1f %9s %9s %9s %9s %8s %12s %12s %6s %5s %s\n",
           gemm_gen_shape_name(r->shape), r->info.instructions, r->blocks,
           r->blocks ? (double)r->info.instructions / r->blocks : 0.0, live, alloc, tot, mips, nsi,
           press, peak, rat, check_text(r), r->status);
    fflush(stdout);
}

/* Per shape: spread of ns/instruction over the sizes of 10k instructions and more. */
static void print_summary(const bench_opts *o, const row *rows, unsigned n)
{
    if (o->csv)
        return;
    for (unsigned s = 0; s < GEMM_GEN_SHAPE_COUNT; s++) {
        double lo = 0, hi = 0;
        unsigned count = 0, from = 0, to = 0;
        for (unsigned i = 0; i < n; i++) {
            const row *r = &rows[i];
            if ((unsigned)r->shape != s || r->target < 10000 || r->live_ms < 0 ||
                r->alloc_ms < 0)
                continue;
            double ns = (r->live_ms + r->alloc_ms) * 1e6 / r->info.instructions;
            if (!count || ns < lo) lo = ns;
            if (!count || ns > hi) hi = ns;
            if (!count || r->info.instructions < from) from = r->info.instructions;
            if (!count || r->info.instructions > to) to = r->info.instructions;
            count++;
        }
        if (count >= 2)
            printf("%s: ns/instr from %u to %u instructions: min %.1f, max %.1f, max/min %.2f "
                   "(+-%.1f%% around the middle)\n",
                   gemm_gen_shape_name((gemm_gen_shape)s), from, to, lo, hi, hi / lo,
                   100.0 * (hi - lo) / (hi + lo));
    }
}

/* ---- random shapes -------------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* N kernels of random shape, size, block size and generator seed, each
   allocated once: how often the peak equals the pressure, per class, and the
   largest excess. A figure over one hand-picked kernel says little; this one
   moves with the generator's whole range. Returns 1 if anything failed. */
static int random_shapes(const bench_opts *o, wa_context *ctx)
{
    bench_opts q = *o;
    q.runs = 1;
    uint64_t s = o->seed;
    unsigned equal[3] = { 0, 0, 0 }, worst[3] = { 0, 0, 0 }, done = 0, failed = 0;
    printf("libwaveasm %s, gfx942, %u random kernels from seed %llu\n", wa_version_string(),
           o->random_shapes, (unsigned long long)o->seed);
    for (unsigned i = 0; i < o->random_shapes; i++) {
        row r;
        memset(&r, 0, sizeof r);
        r.live_ms = r.alloc_ms = -1;
        r.check = CHECK_NOT_RUN;
        r.status = "ok";
        gemm_gen_options go = GEMM_GEN_OPTIONS_INIT;
        go.shape = (gemm_gen_shape)(splitmix(&s) % GEMM_GEN_SHAPE_COUNT);
        go.instructions = 1000 + (unsigned)(splitmix(&s) % 19001u);
        go.block_size = 10 + (unsigned)(splitmix(&s) % 51u);
        go.seed = splitmix(&s);
        r.shape = go.shape;
        r.target = go.instructions;
        wa_program *prog = NULL;
        if (gemm_gen_build(&prog, &r.info, ctx, &go) != WA_OK ||
            wa_program_validate(NULL, prog, NULL) != WA_OK) {
            fprintf(stderr, "kernel %u: %s\n", i, wa_context_last_error(ctx));
            wa_program_destroy(prog);
            failed++;
            continue;
        }
        wa_liveness *live = time_liveness(&q, prog, &r);
        if (live)
            time_regalloc(&q, prog, live, &r);
        wa_liveness_destroy(live);
        wa_program_destroy(prog);
        if (r.failed || !r.have_peak || !r.have_press) {
            failed++;
            continue;
        }
        done++;
        for (unsigned c = 0; c < 3; c++) {
            if (r.peak[c] <= r.press[c])
                equal[c]++;
            else if (r.peak[c] - r.press[c] > worst[c])
                worst[c] = r.peak[c] - r.press[c];
        }
        if (o->verbose)
            printf("  %-10s %6u instrs, blocks of ~%2u, seed %016llx: pressure %u/%u/%u, "
                   "peak %u/%u/%u\n",
                   gemm_gen_shape_name(go.shape), r.info.instructions, go.block_size,
                   (unsigned long long)go.seed, r.press[0], r.press[1], r.press[2], r.peak[0],
                   r.peak[1], r.peak[2]);
    }
    printf("peak == pressure in %u (VGPR), %u (SGPR), %u (AGPR) of %u kernels; largest excess "
           "+%u / +%u / +%u; %u failed\n",
           equal[0], equal[1], equal[2], done, worst[0], worst[1], worst[2], failed);
    return failed != 0;
}

/* ---- main --------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    bench_opts o;
    if (parse_args(&o, argc, argv))
        return EXIT_USAGE;

    int live_ok = have_liveness(), alloc_ok = have_regalloc();
    if (!live_ok)
        fprintf(stderr, "liveness is not available: this libwaveasm has no "
                        "wa_liveness_compute (or its queries)\n");
    if (!alloc_ok)
        fprintf(stderr, "register allocation is not available: this libwaveasm has no "
                        "wa_regalloc_run (or its result queries)\n");

    wa_context *ctx;
    wa_context_options co = WA_CONTEXT_OPTIONS_INIT;   /* gfx942, wave64 */
    if (wa_context_create(&ctx, &co) != WA_OK) {
        fprintf(stderr, "cannot create a context\n");
        return EXIT_FAILED;
    }

    if (o.random_shapes) {
        int bad = live_ok && alloc_ok ? random_shapes(&o, ctx) : 0;
        wa_context_destroy(ctx);
        return bad ? EXIT_FAILED : live_ok && alloc_ok ? 0 : EXIT_MISSING;
    }

    unsigned nshapes = 0;
    for (unsigned s = 0; s < GEMM_GEN_SHAPE_COUNT; s++)
        nshapes += o.shapes[s] != 0;
    int several = nshapes * o.nsizes > 1;

    row rows[GEMM_GEN_SHAPE_COUNT * MAX_SIZES];
    unsigned nrows = 0;
    int failed = 0;
    if (!o.csv) {
        printf("libwaveasm %s, gfx942, seed %llu, %s runs%s\n", wa_version_string(),
               (unsigned long long)o.seed, o.runs ? "fixed" : "adaptive",
               o.check ? ", allocations checked" : "");
    }
    print_header(&o);

    for (unsigned s = 0; s < GEMM_GEN_SHAPE_COUNT; s++) {
        if (!o.shapes[s])
            continue;
        for (unsigned z = 0; z < o.nsizes; z++) {
            row *r = &rows[nrows++];
            memset(r, 0, sizeof *r);
            r->shape = (gemm_gen_shape)s;
            r->target = o.sizes[z];
            r->live_ms = r->alloc_ms = -1;
            r->check = CHECK_NOT_RUN;
            r->status = "ok";

            gemm_gen_options go = GEMM_GEN_OPTIONS_INIT;
            go.shape = r->shape;
            go.instructions = r->target;
            go.seed = o.seed;
            go.block_size = o.block_size;
            go.flags = o.comments ? GEMM_GEN_COMMENTS : 0;
            wa_program *prog = NULL;
            double t0 = now_ms();
            wa_status st = gemm_gen_build(&prog, &r->info, ctx, &go);
            r->gen_ms = now_ms() - t0;
            if (st != WA_OK) {
                fail(r, ctx, "generation", "generation failed", st);
                failed = 1;
                print_row(&o, r);
                continue;
            }
            r->blocks = r->info.blocks;
            if (o.emit_text)
                write_text(&o, prog, r, several);
            t0 = now_ms();
            st = wa_program_validate(NULL, prog, NULL);
            double validate_ms = now_ms() - t0;
            if (o.verbose)
                fprintf(stderr,
                        "%s %u: generated in %.1f ms (%u instructions, %u items, %u blocks, "
                        "%u loops, %u K steps, %u MFMAs, %u virtual registers, %u long-lived "
                        "values), validated in %.1f ms\n",
                        gemm_gen_shape_name(r->shape), r->target, r->gen_ms, r->info.instructions,
                        r->info.items, r->info.blocks, r->info.loops, r->info.steps, r->info.mfmas,
                        r->info.vregs, r->info.long_lived, validate_ms);
            if (st != WA_OK) {
                fail(r, ctx, "wa_program_validate", "invalid kernel", st);
            } else {
                wa_liveness *live = live_ok ? time_liveness(&o, prog, r) : NULL;
                if (alloc_ok)
                    time_regalloc(&o, prog, live, r);
                if (live)
                    wa_liveness_destroy(live);
                if (!r->failed && (!live_ok || !alloc_ok))
                    r->status = !live_ok ? "no liveness" : "no regalloc";
            }
            failed |= r->failed;
            print_row(&o, r);
            wa_program_destroy(prog);
        }
    }
    print_summary(&o, rows, nrows);
    wa_context_destroy(ctx);
    if (failed)
        return EXIT_FAILED;
    return live_ok && alloc_ok ? 0 : EXIT_MISSING;
}
