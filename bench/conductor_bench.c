/* bench/conductor_bench.c — the Conductor's list scheduler on GEMM-like kernels.

   For kernels of randomised shapes (bench/gemm_gen.c, one K loop whose steps
   read their MFMA operands from LDS in a cluster before the MFMA chain):
   estimated cycles per iteration of the loop body (the schedule's issue model
   over the compiled body) before and after the list scheduler, peak registers
   and occupancy before and after (the schedule never keeps a state below the
   input's occupancy tier), then the time to schedule one large region: the
   heuristic's commands, and applying them with every check.

   The generator's hand-written waits are removed first (--keep-waits keeps
   them, pinned): the schedule runs before the waitcnt pass.

   Usage: conductor_bench [--kernels=N] [--seed=S] [--rounds=R] [--large=SIZE]
                          [--keep-waits]
   Figures are printed, never judged. */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <waveasm/waveasm.h>

#include "bench_args.h"
#include "gemm_gen.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *heuristic_oracle(const char *prompt, void *payload)
{
    static char *last;
    (void)prompt;
    wa_free(last);
    last = NULL;
    if (payload && wa_schedule_heuristic(&last, NULL, payload) != WA_OK)
        return NULL;
    return last;
}

/* The deepest region: the K loop's body. */
static unsigned loop_region(const wa_schedule *s)
{
    unsigned best = 0, depth = 0, size = 0;
    for (unsigned r = 0; r < wa_schedule_region_count(s); r++) {
        wa_sched_region ri;
        if (wa_schedule_region(&ri, s, r) != WA_OK)
            continue;
        if (ri.loop_depth > depth || (ri.loop_depth == depth && ri.instrs > size)) {
            best = r;
            depth = ri.loop_depth;
            size = ri.instrs;
        }
    }
    return best;
}

/* The generator writes plausible waits; the schedule comes before the waitcnt
   pass, which puts back the waits the final order needs. */
static void strip_waits(wa_program *prog)
{
    for (unsigned i = wa_program_size(prog); i-- > 0;) {
        wa_instr_view v;
        if (wa_program_get(&v, prog, i) == WA_OK && v.opcode == WA_OP_S_WAITCNT)
            wa_program_erase(prog, i);
    }
}

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng_state >> 33) % n);
}

int main(int argc, char **argv)
{
    unsigned kernels = 8, rounds = 2, large = 10000;
    int keep_waits = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = bench_arg_value(argv[i], "--kernels")))
            kernels = (unsigned)strtoul(v, NULL, 10);
        else if ((v = bench_arg_value(argv[i], "--seed")))
            rng_state = strtoull(v, NULL, 10) * 2654435761ull + 1;
        else if ((v = bench_arg_value(argv[i], "--rounds")))
            rounds = (unsigned)strtoul(v, NULL, 10);
        else if (strcmp(argv[i], "--keep-waits") == 0)
            keep_waits = 1;
        else if ((v = bench_arg_value(argv[i], "--large"))) {
            if (bench_parse_sizes(&large, 1, v, 300, 1000000) != 1) {
                fprintf(stderr, "conductor_bench: bad --large\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: conductor_bench [--kernels=N] [--seed=S] [--rounds=R] "
                            "[--large=SIZE] [--keep-waits]\n");
            return 2;
        }
    }
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK)
        return 1;
    int rc = 0;
    printf("%-6s %-7s %-6s | %-10s %-10s %-7s | %-15s %-15s | %-6s %-6s | %s\n", "kernel", "instrs",
           "body", "cyc/iter", "after", "gain", "vgpr/agpr", "after", "waves", "after", "ms");
    double gain_sum = 0;
    unsigned measured = 0, tier_kept = 0;
    for (unsigned k = 0; k < kernels; k++) {
        gemm_gen_options go = GEMM_GEN_OPTIONS_INIT;
        go.shape = GEMM_GEN_ONE_LOOP;
        go.instructions = 400 + rnd(2600);
        go.seed = 1 + rnd(100000);
        wa_program *prog = NULL;
        gemm_gen_info gi;
        if (gemm_gen_build(&prog, &gi, ctx, &go) != WA_OK) {
            fprintf(stderr, "conductor_bench: %s\n", wa_context_last_error(ctx));
            rc = 1;
            break;
        }
        if (!keep_waits)
            strip_waits(prog);
        wa_schedule *s = NULL;
        wa_sched_result res;
        double t0 = now();
        wa_status st = wa_schedule_create(&s, prog, NULL);
        unsigned body = 0;
        uint64_t before = 0, after = 0;
        if (st == WA_OK) {
            body = loop_region(s);
            wa_sched_metrics m;
            st = wa_schedule_measure(&m, s);
            before = wa_schedule_region_cycles(s, body);
        }
        wa_sched_run_options ro = WA_SCHED_RUN_OPTIONS_INIT;
        ro.rounds = rounds;
        if (st == WA_OK)
            st = wa_schedule_run(&res, s, heuristic_oracle, s, &ro);
        double ms = (now() - t0) * 1e3;
        if (st == WA_OK) {
            wa_sched_metrics m;
            st = wa_schedule_measure(&m, s);
            after = wa_schedule_region_cycles(s, body);
        }
        if (st != WA_OK) {
            fprintf(stderr, "conductor_bench: kernel %u: %s\n", k, wa_context_last_error(ctx));
            rc = 1;
        } else {
            wa_sched_region ri;
            wa_schedule_region(&ri, s, body);
            double gain = before ? 100.0 * ((double)before - (double)after) / (double)before : 0;
            gain_sum += gain;
            measured++;
            tier_kept += res.best.waves_per_simd >= res.baseline.waves_per_simd;
            printf("%-6u %-7u %-6u | %-10llu %-10llu %6.1f%% | %3u/%-11u %3u/%-11u | %-6u %-6u | "
                   "%.1f\n",
                   k, gi.instructions, ri.instrs, (unsigned long long)before,
                   (unsigned long long)after, gain, res.baseline.peak_vgprs,
                   res.baseline.peak_agprs, res.best.peak_vgprs, res.best.peak_agprs,
                   res.baseline.waves_per_simd, res.best.waves_per_simd, ms);
        }
        heuristic_oracle(NULL, NULL);
        wa_schedule_destroy(s);
        wa_program_destroy(prog);
    }
    if (measured)
        printf("mean gain in estimated cycles per iteration: %.1f%%; occupancy tier kept in %u of "
               "%u kernels\n",
               gain_sum / measured, tier_kept, measured);
    /* one large region: the time to make and to check the commands */
    {
        gemm_gen_options go = GEMM_GEN_OPTIONS_INIT;
        go.shape = GEMM_GEN_ONE_LOOP;
        go.instructions = large;
        wa_program *prog = NULL;
        gemm_gen_info gi;
        wa_schedule *s = NULL;
        char *cmds = NULL;
        size_t len = 0;
        double t0 = now();
        wa_status st = gemm_gen_build(&prog, &gi, ctx, &go);
        if (st == WA_OK && !keep_waits)
            strip_waits(prog);
        double t1 = now();
        if (st == WA_OK)
            st = wa_schedule_create(&s, prog, NULL);
        double t2 = now();
        if (st == WA_OK)
            st = wa_schedule_heuristic(&cmds, &len, s);
        double t3 = now();
        wa_sched_round r;
        if (st == WA_OK)
            st = wa_schedule_apply(&r, s, cmds, len);
        double t4 = now();
        if (st != WA_OK) {
            fprintf(stderr, "conductor_bench: large region: %s\n", wa_context_last_error(ctx));
            rc = 1;
        } else {
            wa_sched_region ri;
            wa_schedule_region(&ri, s, loop_region(s));
            printf("large kernel: %u instructions, loop body %u instructions; schedule object "
                   "%.1f ms, list scheduler %.1f ms (%u commands), checking and applying them "
                   "%.1f ms; total %.1f ms (building the kernel %.1f ms)\n",
                   gi.instructions, ri.instrs, (t2 - t1) * 1e3, (t3 - t2) * 1e3, r.commands,
                   (t4 - t3) * 1e3, (t4 - t1) * 1e3, (t1 - t0) * 1e3);
        }
        wa_free(cmds);
        wa_schedule_destroy(s);
        wa_program_destroy(prog);
    }
    wa_context_destroy(ctx);
    return rc;
}
