/* tests/unit/simdiff.h — the differential harness: a program before and after a
   pass (or any two programs with the same arguments) run in the simulator over
   several seeds, their memory compared byte by byte (the "after" run must hold
   every defined byte of the "before" run). Public API only.

   Kernel arguments get deterministic contents: global buffers of `buffer_bytes`
   filled with a pattern, by-value arguments a small constant. Memory outside the
   buffers is the simulator's scratch space (WA_SIM_PERMISSIVE), so fuzzed
   programs with arbitrary addresses run too. A program whose "before" run stores
   through an undefined address (its effect is unknown) is inconclusive, not a
   failure. */
#ifndef WAVEASM_UNIT_SIMDIFF_H
#define WAVEASM_UNIT_SIMDIFF_H

#include <waveasm/waveasm.h>

typedef struct sd_config {
    unsigned seeds;           /* runs per program (different timing and interleaving) */
    uint64_t first_seed;
    size_t buffer_bytes;      /* per global-buffer argument */
    uint32_t by_value;        /* value of every by-value argument (4 bytes and less) */
    unsigned grid[3];
    uint64_t max_instructions;/* per wave and run */
    int timing;               /* 1: random completion times (programs with their waits);
                                 0: every memory operation lands at once;
                                 -1: timing if the "before" run has no wait errors */
    int after_timing;         /* the "after" run: SD_AS_BEFORE (default) or 0 / 1 as
                                 above (1 for the output of the waitcnt pass: it must
                                 carry every wait it needs) */
    int after_hazards;        /* 1: run the "after" program in hazard mode too */
    unsigned checks;          /* SD_CHECK_*: checkers run on the output of
                                 sd_check_pass; a finding is a failure */
    uint64_t after_max_instructions; /* the "after" run's limit (0: max_instructions);
                                 passes that insert waits and nops need more */
} sd_config;
#define SD_AS_BEFORE (-2)
#define SD_CHECK_WAITCNT 0x1u   /* wa_check_waitcnt */
#define SD_CHECK_HAZARDS 0x2u   /* wa_check_hazards */

void sd_config_default(sd_config *cfg);

typedef struct sd_result {
    unsigned runs;            /* (program, seed) pairs compared */
    unsigned inconclusive;    /* "before" stored through an undefined address */
    unsigned skipped;         /* "before" failed to run (limit, fault, unsupported) */
    unsigned failures;        /* "after" failed or differed */
    char first_failure[512];  /* description of the first failure */
    char first_skip[512];     /* why the first skipped program did not run */
} sd_result;

/* Runs `before` and `after` with the same arguments over cfg->seeds seeds and
   accumulates into `res`. Returns the number of failures added. */
unsigned sd_compare(const wa_program *before, const wa_program *after, const sd_config *cfg,
                    sd_result *res);

/* A transformation under test: makes `*out` from `in` (a copy the pass may
   change); returns WA_OK or an error (recorded as a failure). */
typedef wa_status (*sd_pass_fn)(wa_program **out, const wa_program *in);

/* Register allocation then rewrite (the default options). */
wa_status sd_pass_regalloc(wa_program **out, const wa_program *in);
/* The passes with their default options, and the default pipeline. */
wa_status sd_pass_waitcnt(wa_program **out, const wa_program *in);
wa_status sd_pass_hazards(wa_program **out, const wa_program *in);
wa_status sd_pass_peephole(wa_program **out, const wa_program *in);
wa_status sd_pass_cse(wa_program **out, const wa_program *in);
wa_status sd_pass_pipeline(wa_program **out, const wa_program *in);
/* A copy of `in` without its s_waitcnt and s_nop instructions (what the waitcnt
   and hazard passes are then asked to put back). */
wa_status sd_strip_waits_and_nops(wa_program **out, const wa_program *in);

/* Applies `pass` to `prog` and compares before and after. */
unsigned sd_check_pass(const wa_program *prog, sd_pass_fn pass, const char *name,
                       const sd_config *cfg, sd_result *res);

#endif
