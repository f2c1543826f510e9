/* bench/passes_bench.c — the correctness and optimisation passes on generated
   GEMM-like kernels (bench/gemm_gen.h): speed, and how many waits and nops they
   insert against how many the independent checkers prove necessary.

   For each shape and size: generate the kernel (virtual registers), remove the
   generator's own s_waitcnt and s_nop (the passes are asked to put back what is
   needed), then time, each on its own copy of the program it would see in the
   default pipeline:
     cse, peephole          on the virtual program;
     regalloc               (reported for reference, not part of the 1 s budget);
     waitcnt, hazards       on the allocated program (waitcnt's output for hazards);
   and print instructions, milliseconds and throughput per pass, plus the sum of
   cse + peephole + waitcnt + hazards (the target: 1M instructions in under 1 s).

   With --quality (default for sizes up to 20k), every inserted wait and nop is
   loosened by one step on its own (a wait field N -> N+1, or dropped; an s_nop N
   -> N-1, or dropped) and the checkers re-run: a loosening the checker rejects
   proves the original necessary. The table shows inserted vs proven necessary.
   Timings are printed, never asserted. See bench/README.md. */
#define _POSIX_C_SOURCE 199309L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "bench_args.h"
#include "gemm_gen.h"

#define MAX_SIZES 16

typedef struct bench_opts {
    unsigned sizes[MAX_SIZES], nsizes;
    int shape;           /* -1: all */
    uint64_t seed;
    unsigned runs;
    int quality;         /* -1: automatic (sizes <= 20k) */
    wa_target target;
} bench_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: passes_bench [options]\n"
            "  --sizes=N,N,...   instruction counts, k/M suffixes (default 10k,100k,1M)\n"
            "  --shape=S         one_loop, many_loops or all (default all)\n"
            "  --target=T        gfx942 (default), gfx950, gfx90a\n"
            "  --seed=N          generator seed (default 1)\n"
            "  --runs=N          timed runs per pass, best kept (default 3)\n"
            "  --quality / --no-quality  prove inserted waits and nops necessary\n"
            "                    (default: for sizes up to 20k)\n");
}

static int parse_sizes(bench_opts *o, const char *s)
{
    int n = bench_parse_sizes(o->sizes, MAX_SIZES, s, 300, 20000000);
    o->nsizes = n < 0 ? 0 : (unsigned)n;
    return n < 0 ? -1 : 0;
}

static int parse_args(bench_opts *o, int argc, char **argv)
{
    static const unsigned defaults[] = { 10000, 100000, 1000000 };
    memset(o, 0, sizeof(*o));
    memcpy(o->sizes, defaults, sizeof(defaults));
    o->nsizes = 3;
    o->shape = -1;
    o->seed = 1;
    o->runs = 3;
    o->quality = -1;
    o->target = WA_TARGET_GFX942;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if ((v = bench_arg_value(a, "--sizes"))) {
            if (parse_sizes(o, v))
                return -1;
        } else if ((v = bench_arg_value(a, "--shape"))) {
            gemm_gen_shape s;
            if (strcmp(v, "all") == 0)
                o->shape = -1;
            else if (gemm_gen_shape_from_name(&s, v) == 0)
                o->shape = (int)s;
            else
                return -1;
        } else if ((v = bench_arg_value(a, "--target"))) {
            if (wa_target_from_name(&o->target, v) != WA_OK)
                return -1;
        } else if ((v = bench_arg_value(a, "--seed"))) {
            o->seed = strtoull(v, NULL, 10);
        } else if ((v = bench_arg_value(a, "--runs"))) {
            o->runs = (unsigned)strtoul(v, NULL, 10);
            if (o->runs == 0 || o->runs > 100)
                return -1;
        } else if (strcmp(a, "--quality") == 0) {
            o->quality = 1;
        } else if (strcmp(a, "--no-quality") == 0) {
            o->quality = 0;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else {
            return -1;
        }
    }
    return 0;
}

/* Thread CPU time: other work on the machine shows up less than in wall time. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void die(wa_context *ctx, const char *what, wa_status st)
{
    fprintf(stderr, "passes_bench: %s failed: %s (%s)\n", what, wa_status_string(st),
            wa_context_last_error(ctx));
    exit(1);
}

/* Removes every s_waitcnt and s_nop (the generator's own): through the text
   form, dropping their lines, as erasing items one by one costs a move of the
   rest of the program each (quadratic at a million instructions). */
static void strip_waits_and_nops(wa_context *ctx, wa_program **p)
{
    char *text = NULL;
    size_t len = 0;
    wa_status st = wa_program_print(&text, &len, *p, NULL);
    if (st)
        die(ctx, "wa_program_print", st);
    char *out = malloc(len + 1);
    if (!out)
        die(ctx, "malloc", WA_E_NOMEM);
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) + 1 : len;
        size_t k = i;
        while (k < e && text[k] == ' ')
            k++;
        size_t w = k;
        while (w < e && text[w] != ' ' && text[w] != '\n')
            w++;
        int drop = (w - k == 9 && memcmp(text + k, "s_waitcnt", 9) == 0) ||
                   (w - k == 5 && memcmp(text + k, "s_nop", 5) == 0);
        if (!drop) {
            memcpy(out + n, text + i, e - i);
            n += e - i;
        }
        i = e;
    }
    wa_free(text);
    wa_program *q = NULL;
    st = wa_program_parse(&q, ctx, out, n, "generated");
    free(out);
    if (st)
        die(ctx, "wa_program_parse", st);
    wa_program_destroy(*p);
    *p = q;
}

/* Runs `stage` on a copy of `src` `runs` times; keeps the best time and, in
   *out (if not NULL), the result of the last run. */
static double time_stage(wa_context *ctx, const wa_program *src, wa_stage stage, unsigned runs,
                         wa_pass_stats *stats, wa_program **out)
{
    double best = 1e300;
    for (unsigned r = 0; r < runs; r++) {
        wa_program *p = NULL;
        wa_status st = wa_program_clone(&p, src);
        if (st)
            die(ctx, "wa_program_clone", st);
        double t0 = now_ms();
        st = wa_run_stage(p, stage, NULL, stats);
        double t = now_ms() - t0;
        if (st)
            die(ctx, wa_stage_name(stage), st);
        if (t < best)
            best = t;
        if (out && r + 1 == runs)
            *out = p;
        else
            wa_program_destroy(p);
    }
    return best;
}

/* ---- quality: which inserted waits and nops the checkers prove necessary ---------------- */

typedef struct quality {
    unsigned waits, wait_fields, waits_needed, fields_needed;
    unsigned nops, nop_states, nops_needed, states_needed;
} quality;

static int waitcnt_ok(const wa_program *p)
{
    unsigned errors = 0;
    return wa_check_waitcnt(&errors, p, NULL) == WA_OK;
}

static int hazards_ok(const wa_program *p)
{
    unsigned errors = 0;
    return wa_check_hazards(&errors, p, NULL) == WA_OK;
}

/* Loosens one field (0 vmcnt, 1 lgkmcnt) of the wait at `i` by one step; returns
   0 if the field does not wait. */
static int loosen_wait(wa_program *p, unsigned i, unsigned field, const wa_mods *orig)
{
    wa_mods m = *orig;
    int8_t *f = field == 0 ? &m.vmcnt : &m.lgkmcnt;
    int max = field == 0 ? 63 : 15;
    if (*f < 0)
        return 0;
    *f = (int8_t)(*f + 1 >= max ? -1 : *f + 1);
    return wa_program_set_mods(p, i, &m) == WA_OK;
}

static void measure_quality(wa_context *ctx, wa_program *p, quality *q)
{
    memset(q, 0, sizeof(*q));
    if (!waitcnt_ok(p) || !hazards_ok(p)) {
        fprintf(stderr, "passes_bench: the pipeline output fails a checker: %s\n",
                wa_context_last_error(ctx));
        exit(1);
    }
    for (unsigned i = 0; i < wa_program_size(p); i++) {
        wa_instr_view v;
        wa_program_get(&v, p, i);
        if (v.opcode == WA_OP_S_WAITCNT) {
            wa_mods orig = *v.mods;
            int needed = 0;
            q->waits++;
            for (unsigned f = 0; f < 2; f++) {
                if (!loosen_wait(p, i, f, &orig))
                    continue;
                q->wait_fields++;
                if (!waitcnt_ok(p)) {
                    q->fields_needed++;
                    needed = 1;
                }
                wa_program_set_mods(p, i, &orig);
            }
            q->waits_needed += needed;
        } else if (v.opcode == WA_OP_S_NOP) {
            wa_operand orig = v.operands[0];
            unsigned states = (unsigned)orig.imm.i + 1;
            q->nops++;
            q->nop_states += states;
            /* one wait state fewer (s_nop N-1, or no s_nop at all for N = 0) */
            int ok;
            if (states > 1) {
                wa_program_set_operand(p, i, 0, wa_opnd_imm((int64_t)states - 2));
                ok = hazards_ok(p);
                wa_program_set_operand(p, i, 0, orig);
            } else {
                wa_program *c = NULL;
                if (wa_program_clone(&c, p) != WA_OK || wa_program_erase(c, i) != WA_OK)
                    die(ctx, "clone/erase", WA_E_INTERNAL);
                ok = hazards_ok(c);
                wa_program_destroy(c);
            }
            if (!ok) {
                q->nops_needed++;
                q->states_needed += states;
            }
        }
    }
    wa_context_clear_diags(ctx);
}

int main(int argc, char **argv)
{
    bench_opts o;
    if (parse_args(&o, argc, argv)) {
        usage(stderr);
        return 2;
    }
    wa_context *ctx = NULL;
    wa_context_options co = WA_CONTEXT_OPTIONS_INIT;
    co.target = o.target;
    if (wa_context_create(&ctx, &co) != WA_OK) {
        fprintf(stderr, "passes_bench: cannot create a context\n");
        return 1;
    }
    printf("target %s, best of %u runs; times in ms (throughput in M instructions/s)\n",
           wa_target_name(o.target), o.runs);
    printf("%-10s %8s | %16s %16s %16s %16s | %8s | %8s %6s %8s %6s\n", "shape", "instrs",
           "cse", "peephole", "waitcnt", "hazards", "sum", "regalloc", "waits", "nops",
           "states");
    quality qrows[2 * MAX_SIZES];
    unsigned nq = 0;
    const char *qnames[2 * MAX_SIZES];
    unsigned qsizes[2 * MAX_SIZES];
    for (unsigned si = 0; si < o.nsizes; si++) {
        for (int sh = 0; sh < GEMM_GEN_SHAPE_COUNT; sh++) {
            if (o.shape >= 0 && sh != o.shape)
                continue;
            gemm_gen_options go = GEMM_GEN_OPTIONS_INIT;
            go.shape = (gemm_gen_shape)sh;
            go.instructions = o.sizes[si];
            go.seed = o.seed;
            wa_program *gen = NULL;
            gemm_gen_info info;
            wa_status st = gemm_gen_build(&gen, &info, ctx, &go);
            if (st)
                die(ctx, "gemm_gen_build", st);
            strip_waits_and_nops(ctx, &gen);
            unsigned n = info.instructions;
            wa_pass_stats s_cse, s_peep, s_ra, s_wait, s_hz;
            wa_program *after_cse = NULL, *after_peep = NULL, *after_ra = NULL,
                       *after_wait = NULL, *after_hz = NULL;
            double t_cse = time_stage(ctx, gen, WA_STAGE_CSE, o.runs, &s_cse, &after_cse);
            double t_peep =
                time_stage(ctx, after_cse, WA_STAGE_PEEPHOLE, o.runs, &s_peep, &after_peep);
            double t_ra = time_stage(ctx, after_peep, WA_STAGE_REGALLOC, 1, &s_ra, &after_ra);
            double t_wait =
                time_stage(ctx, after_ra, WA_STAGE_WAITCNT, o.runs, &s_wait, &after_wait);
            double t_hz = time_stage(ctx, after_wait, WA_STAGE_HAZARDS, o.runs, &s_hz, &after_hz);
            double sum = t_cse + t_peep + t_wait + t_hz;
#define COL(t) (t), (double)n / ((t) > 0 ? (t) : 1e-3) / 1e3
            printf("%-10s %8u | %7.1f (%6.1f) %7.1f (%6.1f) %7.1f (%6.1f) %7.1f (%6.1f) | %8.1f | "
                   "%8.1f %6u %8u %6u\n",
                   gemm_gen_shape_name((gemm_gen_shape)sh), n, COL(t_cse), COL(t_peep),
                   COL(t_wait), COL(t_hz), sum, t_ra, s_wait.waitcnts_inserted,
                   s_hz.nops_inserted, s_hz.nop_wait_states);
#undef COL
            fflush(stdout);
            int q = o.quality < 0 ? o.sizes[si] <= 20000 : o.quality;
            if (q && nq < 2 * MAX_SIZES) {
                measure_quality(ctx, after_hz, &qrows[nq]);
                qnames[nq] = gemm_gen_shape_name((gemm_gen_shape)sh);
                qsizes[nq++] = n;
            }
            wa_program_destroy(gen);
            wa_program_destroy(after_cse);
            wa_program_destroy(after_peep);
            wa_program_destroy(after_ra);
            wa_program_destroy(after_wait);
            wa_program_destroy(after_hz);
        }
    }
    if (nq) {
        printf("\nnecessity (each inserted wait field loosened by one, each nop shortened by one "
               "wait state; the checker rejects = necessary)\n");
        printf("%-10s %8s | %6s %8s %8s %8s | %6s %8s %8s %8s\n", "shape", "instrs", "waits",
               "needed", "fields", "needed", "nops", "needed", "states", "in-needed");
        for (unsigned i = 0; i < nq; i++)
            printf("%-10s %8u | %6u %8u %8u %8u | %6u %8u %8u %8u\n", qnames[i], qsizes[i],
                   qrows[i].waits, qrows[i].waits_needed, qrows[i].wait_fields,
                   qrows[i].fields_needed, qrows[i].nops, qrows[i].nops_needed,
                   qrows[i].nop_states, qrows[i].states_needed);
    }
    wa_context_destroy(ctx);
    return 0;
}
