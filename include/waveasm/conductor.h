/* include/waveasm/conductor.h — the Conductor: instruction scheduling by move
   commands on tagged IR, guided by an oracle (a language model behind a host
   callback, or the built-in list scheduler).

   A schedule works on a program with virtual registers, before allocation, in
   place. Its regions are the basic blocks. Every instruction carries its tag
   (@I<n>); an oracle reads the regions as tagged text and answers with
   commands, one per line:

     move Ix after Iy     move Ix before Iy     swap Ix Iy     done

   (`#` starts a comment; `@Ix` is accepted for `Ix`). Each command is checked
   before it is applied: both tags exist, neither the moved instruction nor the
   block structure is pinned (labels, branches, s_endpgm, s_barrier, s_waitcnt,
   s_nop, s_setprio), the instruction stays in its block, every register
   dependence (explicit operands, the implicit SCC/VCC/EXEC/M0 of the ISA table,
   EXEC for every vector instruction) keeps its order, memory order holds
   (stores against loads and stores of the same address space, atomics, LDS and
   memory operations against s_barrier) and nothing crosses an instruction with
   other side effects. The first invalid command reverts the whole round.
   Valid but risky moves are reported as warnings (see wa_sched_warning).

   Metrics come from compiling a clone of the program with the rest of the
   pipeline (regalloc, waitcnt, hazards): registers, inserted waits and nops,
   instruction count, and an estimate of the cycles of each region (in-order
   issue, latencies per latency class of the ISA table, MFMA passes, s_waitcnt
   counters, s_nop wait states). See docs/conductor.md. */
#ifndef WAVEASM_CONDUCTOR_H
#define WAVEASM_CONDUCTOR_H

#include <waveasm/passes.h>

WA_BEGIN_DECLS

typedef struct wa_schedule wa_schedule;

/* Number of latency classes (wa_latency_class values 0 .. WA_SCHED_LAT_COUNT-1). */
#define WA_SCHED_LAT_COUNT 9

/* May-alias memory reorders (two accesses to the same address space that the
   alias analysis can neither prove disjoint nor overlapping) are warnings
   instead of errors. Proven overlaps and atomics stay errors. */
#define WA_SCHED_MEMORY_WARN 0x1u
/* Run the checkers after every stage when measuring (WA_PIPELINE_VERIFY). */
#define WA_SCHED_VERIFY 0x2u

/* Ordering criteria for wa_sched_metrics_better, compared in order after the
   occupancy constraint. */
typedef enum wa_sched_criterion {
    WA_SCHED_BY_NONE = 0,
    WA_SCHED_BY_CYCLES,      /* estimated cycles (loop bodies weighted) */
    WA_SCHED_BY_WAITS,       /* s_waitcnt inserted */
    WA_SCHED_BY_NOPS,        /* s_nop inserted */
    WA_SCHED_BY_VGPRS,       /* peak VGPRs */
    WA_SCHED_BY_SGPRS,
    WA_SCHED_BY_AGPRS,
    WA_SCHED_BY_INSTRS,      /* instructions after the pipeline */
    WA_SCHED_BY_CRITICAL,    /* critical path */
    WA_SCHED_BY_COUNT_
} wa_sched_criterion;
#define WA_SCHED_MAX_CRITERIA 8

typedef struct wa_schedule_options {
    unsigned version;            /* WA_SCHEDULE_OPTIONS_VERSION */
    unsigned flags;              /* WA_SCHED_* */
    /* Latency in cycles per wa_latency_class; 0 keeps the default (salu 4, valu 8,
       trans 16, smem 64, vmem 300, ds 64, branch 4). MFMA results take their
       passes from the ISA table, 4 cycles each. */
    unsigned latency[WA_SCHED_LAT_COUNT];
    /* An address computation farther than this many instructions from its memory
       consumer is reported (info); 0: 16. */
    unsigned address_distance;
    /* The occupancy target in waves per SIMD: a state with fewer is worse than any
       with enough; 0: the occupancy of the program as given. */
    unsigned min_waves;
    /* Criteria in order; a zero entry ends the list. All zero: cycles, waits, nops. */
    unsigned order[WA_SCHED_MAX_CRITERIA];
    /* Pipeline options for measuring (regalloc limits, waitcnt flags ...); may be
       NULL. Only regalloc, waitcnt and hazards run. Not copied: keep it alive. */
    const wa_pipeline_options *pipeline;
    /* new fields only ever appended */
} wa_schedule_options;
#define WA_SCHEDULE_OPTIONS_VERSION 1
#define WA_SCHEDULE_OPTIONS_INIT \
    { WA_SCHEDULE_OPTIONS_VERSION, 0, { 0 }, 0, 0, { 0 }, NULL }

/* Creates a schedule over `prog` (virtual registers; edited in place by
   the schedule until it is destroyed, and not otherwise while it lives).
   Instructions without a tag get one. WA_E_INVALID for bad options. */
WA_API wa_status wa_schedule_create(wa_schedule **out, wa_program *prog,
                                    const wa_schedule_options *opts);
/* NULL-safe. The program keeps its current order. */
WA_API void wa_schedule_destroy(wa_schedule *s);
WA_API wa_program *wa_schedule_program(const wa_schedule *s);

/* Regions: basic blocks with at least two instructions that may move. */
typedef struct wa_sched_region {
    unsigned version;            /* WA_SCHED_REGION_VERSION (set by the library) */
    unsigned first, last;        /* item range in the current program */
    unsigned instrs;             /* instructions */
    unsigned movable;            /* instructions that may move */
    unsigned loop_depth;         /* 0 outside loops */
    /* new fields only ever appended */
} wa_sched_region;
#define WA_SCHED_REGION_VERSION 1
WA_API unsigned wa_schedule_region_count(const wa_schedule *s);
WA_API wa_status wa_schedule_region(wa_sched_region *out, const wa_schedule *s, unsigned index);

/* What compiling a clone of the current state gives. */
typedef struct wa_sched_metrics {
    unsigned version;            /* WA_SCHED_METRICS_VERSION (set by the library) */
    unsigned peak_vgprs, peak_sgprs, peak_agprs;
    unsigned waves_per_simd;     /* occupancy bound from the registers */
    unsigned nops_inserted, waits_inserted;
    unsigned instrs;             /* instructions after the pipeline */
    uint64_t cycles;             /* estimated cycles of the regions; a region at loop
                                    depth d counts 10^d times */
    uint64_t critical_path;      /* latency-weighted longest dependence chain of the
                                    regions, weighted the same way */
    /* new fields only ever appended */
} wa_sched_metrics;
#define WA_SCHED_METRICS_VERSION 1

/* Compiles a clone of the current state and fills `out`. A failure of the
   pipeline (allocation impossible ...) is returned with its diagnostics. */
WA_API wa_status wa_schedule_measure(wa_sched_metrics *out, wa_schedule *s);
/* Estimated cycles of region `index` in the last measurement (0 before any). */
WA_API uint64_t wa_schedule_region_cycles(const wa_schedule *s, unsigned index);
/* 1 if `a` is strictly better than `b` under the schedule's options, else 0. */
WA_API int wa_sched_metrics_better(const wa_schedule *s, const wa_sched_metrics *a,
                                   const wa_sched_metrics *b);

/* Prints the schedulable regions as tagged text with a header (target,
   register limits, latencies per class) and, when `metrics` is not NULL, the
   metrics; then the report of the last round if there was one. */
WA_API wa_status wa_schedule_print(char **out, size_t *out_len, const wa_schedule *s,
                                   const wa_sched_metrics *metrics);

/* Measured per-instruction figures for the prompt, as CSV: a header line naming
   a `tag` column (I12, @I12 or 12) and any of hits, lat_min, lat_mean, lat_max
   (other columns ignored; '#' lines skipped), then one line per instruction.
   The prompt lists them by region ("; profile (previous run):"). Rows of tags
   the schedule does not have are ignored. Bad text: WA_E_PARSE with the line
   and column. Replaces an earlier profile; `len` 0 removes it. */
WA_API wa_status wa_schedule_set_profile(wa_schedule *s, const char *csv, size_t len);

/* ---- one round of commands ------------------------------------------------------------ */

typedef enum wa_sched_severity {
    WA_SCHED_INFO = 0,
    WA_SCHED_WARN = 1,
    WA_SCHED_CRITICAL = 2
} wa_sched_severity;

typedef struct wa_sched_warning {
    wa_sched_severity severity;
    unsigned command;            /* index of the command in the round */
    const char *message;         /* borrowed until the next round */
} wa_sched_warning;

typedef struct wa_sched_round {
    unsigned version;            /* WA_SCHED_ROUND_VERSION (set by the library) */
    unsigned commands;           /* commands parsed (done excluded) */
    unsigned applied;            /* commands applied before a failure (all if none) */
    int failed;                  /* index of the failing command, -1 if none */
    int done;                    /* the text contained `done` */
    unsigned warnings;           /* warnings of the round */
    /* new fields only ever appended */
} wa_sched_round;
#define WA_SCHED_ROUND_VERSION 1

/* Parses `text` and applies its commands in order. Bad text: WA_E_PARSE with
   the line and column on the context, nothing applied. An invalid command:
   WA_E_INVALID, every command of the round reverted, the reason on the context
   and in the report. Commands after `done` are ignored. `out` may be NULL. */
WA_API wa_status wa_schedule_apply(wa_sched_round *out, wa_schedule *s, const char *text,
                                   size_t len);
WA_API wa_status wa_schedule_warning(wa_sched_warning *out, const wa_schedule *s,
                                     unsigned index);
/* The report of the last round as text ("applied: ...", "failed: ...", warnings).
   Borrowed until the next round; "" before any. */
WA_API const char *wa_schedule_report(const wa_schedule *s);

/* ---- oracles and the round loop --------------------------------------------------------- */

/* An oracle reads the prompt (the printed schedule, metrics and the last report)
   and returns command text, valid until its next call or the end of the loop;
   NULL stops the loop. */
typedef const char *(*wa_sched_oracle)(const char *prompt, void *payload);
/* Called after every round with the metrics of the round's state (the best's
   when the round failed) and whether the round was kept. */
typedef void (*wa_sched_progress)(unsigned round, const wa_sched_round *r,
                                  const wa_sched_metrics *m, int kept, void *payload);

/* Keep the final moves of a run in the cache, and replay them (checked like
   any command) instead of asking the oracle when the same tagged input comes
   again. Entries are JSON files named by the SHA-256 of the tagged text the
   oracle would first read (wa_schedule_print without metrics); a corrupt or
   stale entry is ignored with a warning on the context. */
#define WA_SCHED_RUN_CACHE 0x1u

typedef struct wa_sched_run_options {
    unsigned version;            /* WA_SCHED_RUN_OPTIONS_VERSION */
    unsigned rounds;             /* round budget; 0: 8 */
    wa_sched_progress progress;  /* may be NULL */
    void *progress_payload;
    unsigned flags;              /* WA_SCHED_RUN_* */
    /* the cache directory; NULL: $XDG_CACHE_HOME/waveasm/conductor, else
       $HOME/.cache/waveasm/conductor (created when missing) */
    const char *cache_dir;
    /* new fields only ever appended */
} wa_sched_run_options;
#define WA_SCHED_RUN_OPTIONS_VERSION 1
#define WA_SCHED_RUN_OPTIONS_INIT { WA_SCHED_RUN_OPTIONS_VERSION, 0, NULL, NULL, 0, NULL }

typedef struct wa_sched_result {
    unsigned version;            /* WA_SCHED_RESULT_VERSION (set by the library) */
    unsigned rounds;             /* rounds run */
    unsigned kept;               /* rounds whose state became the best */
    unsigned failed;             /* rounds reverted because a command was invalid */
    unsigned regressed;          /* rounds reverted because the metrics got worse */
    wa_sched_metrics baseline, best;
    int cache_hit;               /* the moves came from the cache (WA_SCHED_RUN_CACHE) */
    /* new fields only ever appended */
} wa_sched_result;
#define WA_SCHED_RESULT_VERSION 1

/* The round loop: measures the baseline, then asks the oracle up to `rounds`
   times; a round whose commands fail or whose metrics are not better is
   reverted; the loop ends on `done`, on NULL from the oracle or at the budget.
   The program is left in the best state. `out` may be NULL. */
WA_API wa_status wa_schedule_run(wa_sched_result *out, wa_schedule *s, wa_sched_oracle oracle,
                                 void *oracle_payload, const wa_sched_run_options *opts);

/* ---- beam search ---------------------------------------------------------------------- */

/* An oracle of the beam search also learns which agent asks and a seed (from
   the options' seed, the agent and the round) to vary its answers by. */
typedef const char *(*wa_sched_agent_oracle)(const char *prompt, unsigned agent, uint64_t seed,
                                             void *payload);

typedef struct wa_sched_beam_options {
    unsigned version;            /* WA_SCHED_BEAM_OPTIONS_VERSION */
    unsigned agents;             /* P, at most 64; 0: 4 */
    unsigned interval;           /* K rounds per agent between checkpoints; 0: 2 */
    unsigned keep;               /* top-k surviving a checkpoint; 0: 2 */
    unsigned checkpoints;        /* 0: 3 */
    uint64_t seed;
    /* new fields only ever appended */
} wa_sched_beam_options;
#define WA_SCHED_BEAM_OPTIONS_VERSION 1
#define WA_SCHED_BEAM_OPTIONS_INIT { WA_SCHED_BEAM_OPTIONS_VERSION, 0, 0, 0, 0, 0 }

/* Beam search: P agents, each with its own order of the program, run K rounds
   each (a round is kept when it improves the agent's metrics); at every
   checkpoint the agents are ranked by wa_sched_metrics_better, the top k
   survive and the pool is refilled with copies of them. The agents take turns
   (the library starts no threads), so the result depends only on the options
   and the oracle's answers. The program is left in the best order found. */
WA_API wa_status wa_schedule_beam(wa_sched_result *out, wa_schedule *s,
                                  wa_sched_agent_oracle oracle, void *payload,
                                  const wa_sched_beam_options *opts);

/* The round loop with the built-in oracle (wa_schedule_heuristic) for `rounds`
   rounds (0: 2). */
WA_API wa_status wa_schedule_run_heuristic(wa_sched_result *out, wa_schedule *s, unsigned rounds);

/* The schedule as a pipeline stage (a wa_stage_fn for wa_pipeline_insert):
   the list scheduler's rounds on `prog`; `payload` is a const
   wa_schedule_options * (NULL: defaults). stats->changed counts the
   instructions that moved. */
WA_API wa_status wa_stage_schedule(wa_program *prog, wa_pass_stats *stats, void *payload);

/* The built-in oracle: a latency- and pressure-aware list scheduler over the
   current state that interleaves LDS reads and global loads with MFMAs. Writes
   its move commands (then `done`) to `*out` (release with wa_free()). */
WA_API wa_status wa_schedule_heuristic(char **out, size_t *out_len, wa_schedule *s);

/* SHA-256 of `len` bytes (the cache key): 32 bytes, or 64 lower-case hex digits
   and a NUL. */
WA_API void wa_sha256(uint8_t out[32], const void *data, size_t len);
WA_API void wa_sha256_hex(char out[65], const void *data, size_t len);

WA_END_DECLS
#endif
