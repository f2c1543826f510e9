/* bench/corner_bench.c — every stage of the library on inputs that are large in
   one unusual direction, to show that no stage grows faster than about linearly:

     branches    N conditional branches (s_cbranch_scc1) to one label after them:
                 a block with N predecessors;
     back_edges  the same with the label before them: a loop header with N back
                 edges (the loop runs a few times in the simulator, so every
                 iteration takes a branch);
     args        a kernel with N kernel arguments, placed with automatic offsets
                 (one pointer, then N - 1 one-byte values).

   For each input and size the kernel is built through the builder API, then
   every stage is timed on it: print, parse (of the printed text), validate,
   liveness, regalloc, the allocation checker, cse and peephole (on the virtual
   program), rewrite (wa_regalloc_apply), waitcnt and hazards (on the allocated
   program), both independent checkers, assembly emission, simulator setup and
   one simulated workgroup. The table has one row per stage and one column per
   size, in milliseconds (best of --runs), and the growth from the first size to
   the last: about the ratio of the sizes for linear work. Timings are printed,
   never asserted. See bench/README.md. */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "bench_args.h"

#define MAX_SIZES 16
#define MAX_ARGS_IN_LIMIT 65529u /* 8-byte pointer + one byte each within 64 KiB */
#define LOOP_TRIPS 1000          /* back_edges: iterations in the simulator */

enum { IN_BRANCHES, IN_BACK_EDGES, IN_ARGS, IN_COUNT };
static const char *const input_names[IN_COUNT] = { "branches", "back_edges", "args" };
static const char *const input_what[IN_COUNT] = {
    "N s_cbranch_scc1 to one label after them (3 instructions per branch)",
    "N s_cbranch_scc1 back to one loop header (3 instructions per branch)",
    "N kernel arguments with automatic offsets (a pointer, then one-byte values)",
};

enum {
    ST_BUILD, ST_PRINT, ST_PARSE, ST_VALIDATE, ST_LIVENESS, ST_REGALLOC, ST_RA_CHECK, ST_CSE,
    ST_PEEPHOLE, ST_REWRITE, ST_WAITCNT, ST_HAZARDS, ST_CHECK_WAITCNT, ST_CHECK_HAZARDS, ST_EMIT,
    ST_SIM_SETUP, ST_SIM_RUN, ST_COUNT
};
static const char *const stage_names[ST_COUNT] = {
    "build", "print", "parse", "validate", "liveness", "regalloc", "regalloc_check", "cse",
    "peephole", "rewrite", "waitcnt", "hazards", "check_waitcnt", "check_hazards", "emit_asm",
    "sim_setup", "sim_run",
};

/* A stage's outcome in one run. */
enum { R_NONE = 0, R_OK, R_FAIL, R_EXPECTED };

typedef struct bench_opts {
    unsigned sizes[MAX_SIZES], nsizes;
    int inputs[IN_COUNT];
    unsigned runs;
    int csv, verbose;
} bench_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: corner_bench [options]\n"
            "  --sizes=N,N,...   N per input, k/M suffixes allowed (default 10k,40k,100k)\n"
            "  --input=I         branches, back_edges, args or all (default all)\n"
            "  --runs=N          timed runs of each stage, the best is kept (default 1)\n"
            "  --csv             comma-separated output: input,n,stage,ms,result\n"
            "  --verbose         the library's message for every failed stage on stderr\n"
            "Exit status: 0 when every stage did what the input allows (an args kernel\n"
            "past the 64 KiB kernarg segment must fail validation), 1 otherwise, 2 usage.\n");
}

static int parse_args(bench_opts *o, int argc, char **argv)
{
    static const unsigned defaults[] = { 10000, 40000, 100000 };
    memset(o, 0, sizeof(*o));
    memcpy(o->sizes, defaults, sizeof(defaults));
    o->nsizes = 3;
    o->runs = 1;
    for (unsigned k = 0; k < IN_COUNT; k++)
        o->inputs[k] = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if ((v = bench_arg_value(a, "--sizes"))) {
            int n = bench_parse_sizes(o->sizes, MAX_SIZES, v, 2, 2000000);
            if (n < 0)
                return -1;
            o->nsizes = (unsigned)n;
        } else if ((v = bench_arg_value(a, "--input"))) {
            unsigned k = 0;
            while (k < IN_COUNT && strcmp(v, input_names[k]) != 0)
                k++;
            if (k == IN_COUNT && strcmp(v, "all") != 0)
                return -1;
            for (unsigned j = 0; j < IN_COUNT; j++)
                o->inputs[j] = k == IN_COUNT || j == k;
        } else if ((v = bench_arg_value(a, "--runs"))) {
            o->runs = (unsigned)strtoul(v, NULL, 10);
            if (o->runs == 0 || o->runs > 100)
                return -1;
        } else if (strcmp(a, "--csv") == 0) {
            o->csv = 1;
        } else if (strcmp(a, "--verbose") == 0) {
            o->verbose = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else {
            return -1;
        }
    }
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---- the inputs ----------------------------------------------------------------------------- */

typedef struct gen {
    wa_program *p;
    wa_status st; /* first failure */
} gen;

static void g_note(gen *g, wa_status st)
{
    if (st && !g->st)
        g->st = st;
}

static wa_operand g_vreg(gen *g, wa_reg_class cls, unsigned size)
{
    wa_operand o = wa_opnd_none();
    g_note(g, wa_program_vreg(&o, g->p, cls, size, 0));
    return o;
}

static void g_arg(gen *g, const char *name, wa_arg_kind kind, unsigned size)
{
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.name = name;
    a.kind = kind;
    a.size = size; /* offset: WA_ARG_OFFSET_AUTO */
    g_note(g, wa_program_add_arg(NULL, g->p, &a));
}

/* Builds input `kind` with parameter n into a new program. */
static wa_status build_input(wa_program **out, wa_context *ctx, unsigned kind, unsigned n)
{
    gen g = { NULL, WA_OK };
    wa_status st = wa_program_create(&g.p, ctx, "corner");
    if (st)
        return st;
    g_note(&g, wa_program_set_abi_inputs(g.p, (1u << WA_ABI_KERNARG_PTR) |
                                                  (1u << WA_ABI_WORKGROUP_ID_X) |
                                                  (1u << WA_ABI_WORKITEM_ID_X)));
    g_arg(&g, "out", WA_ARG_GLOBAL_BUFFER, 8);
    if (kind == IN_ARGS) {
        char name[32];
        for (unsigned i = 1; i < n && !g.st; i++) {
            snprintf(name, sizeof(name), "a%u", i);
            g_arg(&g, name, WA_ARG_BY_VALUE, 1);
        }
    }
    wa_operand kernarg, wgid, tid;
    g_note(&g, wa_program_abi_reg(&kernarg, g.p, WA_ABI_KERNARG_PTR));
    g_note(&g, wa_program_abi_reg(&wgid, g.p, WA_ABI_WORKGROUP_ID_X));
    g_note(&g, wa_program_abi_reg(&tid, g.p, WA_ABI_WORKITEM_ID_X));
    wa_operand none = wa_opnd_none();
    wa_operand sout = g_vreg(&g, WA_REG_SGPR, 2), voff = g_vreg(&g, WA_REG_VGPR, 1);
    wa_operand vval = g_vreg(&g, WA_REG_VGPR, 1), vsum = g_vreg(&g, WA_REG_VGPR, 1);
    g_note(&g, wa_build_smem(NULL, g.p, WA_OP_S_LOAD_DWORDX2, sout, kernarg, wa_opnd_imm(0), NULL));
    g_note(&g, wa_build_valu(NULL, g.p, WA_OP_V_LSHLREV_B32, voff, wa_opnd_imm(2), tid, none));
    if (kind == IN_ARGS) {
        /* the first four one-byte arguments, stored per lane */
        wa_operand sx = g_vreg(&g, WA_REG_SGPR, 1);
        g_note(&g, wa_build_smem(NULL, g.p, WA_OP_S_LOAD_DWORD, sx, kernarg, wa_opnd_imm(8), NULL));
        g_note(&g, wa_build_valu(NULL, g.p, WA_OP_V_MOV_B32, vsum, sx, none, none));
    } else {
        /* a load in flight across all the branches, an accumulator live through them */
        wa_operand vacc = g_vreg(&g, WA_REG_VGPR, 1), scnt = g_vreg(&g, WA_REG_SGPR, 1);
        wa_label target;
        g_note(&g, wa_program_label_create(&target, g.p, "target"));
        g_note(&g, wa_build_global(NULL, g.p, WA_OP_GLOBAL_LOAD_DWORD, vval, voff, sout, NULL));
        g_note(&g, wa_build_valu(NULL, g.p, WA_OP_V_MOV_B32, vacc, wa_opnd_imm(0), none, none));
        if (kind == IN_BACK_EDGES) {
            g_note(&g, wa_build_salu(NULL, g.p, WA_OP_S_MOV_B32, scnt, wa_opnd_imm(0), none));
            g_note(&g, wa_build_label(g.p, target));
            g_note(&g, wa_build_salu(NULL, g.p, WA_OP_S_ADD_U32, scnt, scnt, wa_opnd_imm(1)));
        }
        for (unsigned i = 0; i < n && !g.st; i++) {
            g_note(&g, wa_build_valu(NULL, g.p, WA_OP_V_ADD_U32, vacc, wa_opnd_imm(1), vacc, none));
            if (kind == IN_BACK_EDGES) /* taken while the counter is below the trip count */
                g_note(&g, wa_build_salu(NULL, g.p, WA_OP_S_CMP_LT_U32, none, scnt,
                                         wa_opnd_imm(LOOP_TRIPS)));
            else /* never taken: the workgroup id is 0 */
                g_note(&g, wa_build_salu(NULL, g.p, WA_OP_S_CMP_EQ_U32, none, wgid,
                                         wa_opnd_imm((int64_t)i + 1)));
            g_note(&g, wa_build_branch(NULL, g.p, WA_OP_S_CBRANCH_SCC1, target));
        }
        if (kind == IN_BRANCHES)
            g_note(&g, wa_build_label(g.p, target));
        g_note(&g, wa_build_valu(NULL, g.p, WA_OP_V_ADD_U32, vsum, vval, vacc, none));
    }
    g_note(&g, wa_build_global(NULL, g.p, WA_OP_GLOBAL_STORE_DWORD, vsum, voff, sout, NULL));
    g_note(&g, wa_build_sopp(NULL, g.p, WA_OP_S_ENDPGM, 0));
    if (g.st) {
        wa_program_destroy(g.p);
        return g.st;
    }
    *out = g.p;
    return WA_OK;
}

/* ---- one run of every stage --------------------------------------------------------------- */

typedef struct run_result {
    double ms[ST_COUNT];
    int res[ST_COUNT];
} run_result;

typedef struct runner {
    const bench_opts *o;
    wa_context *ctx;
    unsigned kind, n;
    int over_limit; /* args past the kernarg segment: validation must fail */
    run_result *r;
    double t0;
    unsigned stage;
} runner;

static void start(runner *R, unsigned stage)
{
    R->stage = stage;
    R->t0 = now_ms();
}

/* Ends the timed stage; returns 1 when it succeeded. */
static int stop(runner *R, wa_status st)
{
    double t = now_ms() - R->t0;
    unsigned s = R->stage;
    R->r->ms[s] = t;
    int expected = R->over_limit && st == WA_E_VALIDATE &&
                   (s == ST_VALIDATE || s == ST_EMIT || s == ST_SIM_SETUP);
    R->r->res[s] = st == WA_OK ? R_OK : expected ? R_EXPECTED : R_FAIL;
    if (st != WA_OK && R->o->verbose)
        fprintf(stderr, "corner_bench: %s n=%u: %s: %s (%s)\n", input_names[R->kind], R->n,
                stage_names[s], wa_status_string(st), wa_context_last_error(R->ctx));
    return st == WA_OK;
}

static void run_once(runner *R)
{
    wa_context *ctx = R->ctx;
    wa_program *prog = NULL, *parsed = NULL, *alloc = NULL, *tmp = NULL;
    wa_liveness *live = NULL;
    wa_regalloc_result *res = NULL;
    wa_sim *sim = NULL;
    char *text = NULL;
    size_t len = 0;
    unsigned errors = 0;

    start(R, ST_BUILD);
    if (!stop(R, build_input(&prog, ctx, R->kind, R->n)))
        return;
    wa_print_options po = WA_PRINT_OPTIONS_INIT;
    start(R, ST_PRINT);
    if (stop(R, wa_program_print(&text, &len, prog, &po))) {
        start(R, ST_PARSE);
        stop(R, wa_program_parse(&parsed, ctx, text, len, "corner.wa"));
        wa_program_destroy(parsed);
        wa_free(text);
    }
    start(R, ST_VALIDATE);
    stop(R, wa_program_validate(&errors, prog, NULL));
    start(R, ST_LIVENESS);
    int have_live = stop(R, wa_liveness_compute(&live, prog, NULL));
    wa_regalloc_options ro = WA_REGALLOC_OPTIONS_INIT;
    ro.liveness = have_live ? live : NULL;
    start(R, ST_REGALLOC);
    int have_res = stop(R, wa_regalloc_run(&res, prog, &ro));
    if (have_res) {
        start(R, ST_RA_CHECK);
        stop(R, wa_regalloc_check(&errors, prog, res, NULL));
    }
    if (wa_program_clone(&tmp, prog) == WA_OK) {
        start(R, ST_CSE);
        stop(R, wa_pass_cse(tmp, NULL, NULL));
        wa_program_destroy(tmp);
        tmp = NULL;
    }
    if (wa_program_clone(&tmp, prog) == WA_OK) {
        start(R, ST_PEEPHOLE);
        stop(R, wa_pass_peephole(tmp, NULL, NULL));
        wa_program_destroy(tmp);
        tmp = NULL;
    }
    if (have_res && wa_program_clone(&alloc, prog) == WA_OK) {
        start(R, ST_REWRITE);
        if (!stop(R, wa_regalloc_apply(alloc, res, NULL))) {
            wa_program_destroy(alloc);
            alloc = NULL;
        }
    }
    if (alloc) {
        start(R, ST_WAITCNT);
        stop(R, wa_pass_waitcnt(alloc, NULL, NULL));
        start(R, ST_HAZARDS);
        stop(R, wa_pass_hazards(alloc, NULL, NULL));
        start(R, ST_CHECK_WAITCNT);
        stop(R, wa_check_waitcnt(&errors, alloc, NULL));
        start(R, ST_CHECK_HAZARDS);
        stop(R, wa_check_hazards(&errors, alloc, NULL));
        start(R, ST_EMIT);
        if (stop(R, wa_emit_asm(&text, &len, alloc, NULL)))
            wa_free(text);
        wa_sim_options so = WA_SIM_OPTIONS_INIT;
        start(R, ST_SIM_SETUP);
        if (stop(R, wa_sim_create(&sim, alloc, &so))) {
            /* by-value arguments and the output buffer, untimed */
            static uint32_t buf[64];
            wa_status st = wa_sim_bind_buffer(sim, 0, buf, sizeof(buf));
            uint8_t v = 1;
            for (unsigned a = 1; a < wa_program_arg_count(alloc) && st == WA_OK; a++)
                st = wa_sim_set_arg(sim, a, &v, 1);
            start(R, ST_SIM_RUN);
            stop(R, st ? st : wa_sim_run(sim));
            wa_sim_destroy(sim);
        }
        wa_program_destroy(alloc);
    }
    wa_regalloc_destroy(res);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
}

/* ---- the table ------------------------------------------------------------------------------ */

static void size_text(char *buf, size_t n, unsigned v)
{
    if (v >= 1000000 && v % 1000000 == 0)
        snprintf(buf, n, "%uM", v / 1000000);
    else if (v >= 1000 && v % 1000 == 0)
        snprintf(buf, n, "%uk", v / 1000);
    else
        snprintf(buf, n, "%u", v);
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
    if (wa_context_create(&ctx, &co) != WA_OK) {
        fprintf(stderr, "corner_bench: cannot create a context\n");
        return 1;
    }
    int failed = 0;
    run_result *best = calloc(MAX_SIZES, sizeof(run_result));
    if (!best)
        return 1;
    if (o.csv)
        printf("input,n,stage,ms,result\n");
    for (unsigned k = 0; k < IN_COUNT; k++) {
        if (!o.inputs[k])
            continue;
        memset(best, 0, MAX_SIZES * sizeof(run_result));
        for (unsigned z = 0; z < o.nsizes; z++) {
            runner R;
            memset(&R, 0, sizeof(R));
            R.o = &o;
            R.ctx = ctx;
            R.kind = k;
            R.n = o.sizes[z];
            R.over_limit = k == IN_ARGS && o.sizes[z] > MAX_ARGS_IN_LIMIT;
            for (unsigned r = 0; r < o.runs; r++) {
                run_result cur;
                memset(&cur, 0, sizeof(cur));
                R.r = &cur;
                run_once(&R);
                for (unsigned s = 0; s < ST_COUNT; s++) {
                    if (!cur.res[s])
                        continue;
                    if (!best[z].res[s] || cur.ms[s] < best[z].ms[s])
                        best[z].ms[s] = cur.ms[s];
                    if (best[z].res[s] != R_FAIL)
                        best[z].res[s] = cur.res[s];
                }
            }
            for (unsigned s = 0; s < ST_COUNT; s++)
                failed |= best[z].res[s] == R_FAIL;
            if (R.over_limit && best[z].res[ST_VALIDATE] != R_EXPECTED)
                failed = 1;
            wa_context_trim(ctx);
        }
        if (o.csv) {
            static const char *const rname[] = { "-", "ok", "fail", "expected_fail" };
            for (unsigned z = 0; z < o.nsizes; z++)
                for (unsigned s = 0; s < ST_COUNT; s++)
                    if (best[z].res[s])
                        printf("%s,%u,%s,%.3f,%s\n", input_names[k], o.sizes[z], stage_names[s],
                               best[z].ms[s], rname[best[z].res[s]]);
            continue;
        }
        char sz[16];
        printf("%s: %s\n", input_names[k], input_what[k]);
        printf("  %-15s", "stage (ms)");
        for (unsigned z = 0; z < o.nsizes; z++) {
            size_text(sz, sizeof(sz), o.sizes[z]);
            printf(" %10s", sz);
        }
        if (o.nsizes > 1)
            printf("   growth (sizes x%.1f)", (double)o.sizes[o.nsizes - 1] / o.sizes[0]);
        printf("\n");
        int note = 0;
        double total[MAX_SIZES] = { 0 };
        for (unsigned s = 0; s < ST_COUNT; s++) {
            printf("  %-15s", stage_names[s]);
            for (unsigned z = 0; z < o.nsizes; z++) {
                int r = best[z].res[s];
                if (r == R_NONE) {
                    printf(" %10s", "-");
                    continue;
                }
                total[z] += best[z].ms[s];
                printf(" %9.2f%c", best[z].ms[s], r == R_OK ? ' ' : r == R_EXPECTED ? '*' : '!');
                note |= r == R_EXPECTED;
            }
            const run_result *a = &best[0], *b = &best[o.nsizes - 1];
            if (o.nsizes > 1 && a->res[s] == R_OK && b->res[s] == R_OK && a->ms[s] > 0.05)
                printf("   x%.1f", b->ms[s] / a->ms[s]);
            printf("\n");
        }
        printf("  %-15s", "total");
        for (unsigned z = 0; z < o.nsizes; z++)
            printf(" %9.2f ", total[z]);
        printf("\n");
        if (note)
            printf("  * fails as it must: the arguments end past the 64 KiB kernarg segment\n");
        printf("\n");
    }
    if (!o.csv && failed)
        printf("! a stage failed (--verbose says why)\n");
    free(best);
    wa_context_destroy(ctx);
    return failed ? 1 : 0;
}
