/* include/waveasm/passes.h — correctness and optimisation passes, their
   independent checkers, and the default pipeline.

   Every pass is its own entry point: `wa_pass_<name>(prog, opts, stats)` edits
   `prog` in place, reads opcode facts from the ISA table, and fills `stats` (may
   be NULL) with what it changed. Options may be NULL for the defaults; a non-NULL
   option struct with an unknown version is WA_E_INVALID. Passes work on virtual
   and on physical programs unless their comment says otherwise. Instructions a
   pass inserts get new tags; instructions it keeps keep theirs.

   The checkers are written independently of the passes (different algorithms
   over the same hardware facts) and are what the tests trust:
     wa_check_waitcnt  every register written by a memory operation is covered by
                       an s_waitcnt on every path before it is read or rewritten;
     wa_check_hazards  every hazard rule has enough wait states between producer
                       and consumer on every path.
   Both report one diagnostic per violation (with the consumer's tag) and return
   WA_E_VALIDATE if there is any.

   The default pipeline (docs/pipeline.md):
     cse -> peephole -> regalloc -> waitcnt -> hazards
   CSE and peephole work best on virtual registers; waitcnt runs after allocation
   so that a register reused by the allocator while a load into its previous
   value is still in flight gets its wait; the hazard pass runs last, on physical
   registers, because register overlap decides hazards. */
#ifndef WAVEASM_PASSES_H
#define WAVEASM_PASSES_H

#include <waveasm/program.h>
#include <waveasm/regalloc.h>

WA_BEGIN_DECLS

/* What a pass did. Fields a pass does not use stay 0. */
typedef struct wa_pass_stats {
    unsigned version;             /* WA_PASS_STATS_VERSION (set by the library) */
    unsigned instrs_before;       /* real instructions (no labels or comments) */
    unsigned instrs_after;
    unsigned inserted;            /* instructions inserted */
    unsigned removed;             /* instructions removed */
    unsigned changed;             /* instructions changed in place */
    unsigned waitcnts_inserted;   /* waitcnt: new s_waitcnt instructions */
    unsigned waitcnts_merged;     /* waitcnt: required waits folded into an existing one */
    unsigned nops_inserted;       /* hazards: new s_nop instructions */
    unsigned nop_wait_states;     /* hazards: wait states those s_nop provide */
    unsigned fused;               /* peephole: instruction pairs fused into one */
    unsigned folded;              /* peephole: identities removed, constants folded,
                                     multiplications made shifts */
    unsigned moves_removed;       /* peephole: redundant moves dropped */
    unsigned acc_inits_removed;   /* peephole: MFMA accumulators zeroed by inline 0 instead */
    unsigned eliminated;          /* cse: instructions replaced by an equal earlier value */
    unsigned hoisted;             /* cse: loop-invariant instructions moved before their loop */
    unsigned iterations;          /* dataflow passes over the CFG to reach a fixed point */
    /* new fields only ever appended */
} wa_pass_stats;
#define WA_PASS_STATS_VERSION 1

/* ---- waitcnt insertion ------------------------------------------------------------- */

#define WA_WAITCNT_BARRIER_VMEM 0x1u  /* before s_barrier also wait for vector memory
                                         stores and atomics (global memory shared by the
                                         workgroup's waves), not only for LDS */
#define WA_WAITCNT_NO_BARRIER 0x2u    /* no waits for s_barrier at all (the host orders
                                         memory itself) */

typedef struct wa_waitcnt_options {
    unsigned version;             /* WA_WAITCNT_OPTIONS_VERSION */
    unsigned flags;               /* WA_WAITCNT_* */
    /* new fields only ever appended */
} wa_waitcnt_options;
#define WA_WAITCNT_OPTIONS_VERSION 1
#define WA_WAITCNT_OPTIONS_INIT { WA_WAITCNT_OPTIONS_VERSION, 0 }

/* Inserts the s_waitcnt instructions the program needs: before a register
   written by an outstanding memory operation is read or rewritten (vmcnt for
   buffer/global loads, stores and atomics, in order; lgkmcnt for LDS, in order,
   and scalar memory, out of order), before LDS is accessed while an LDS-DMA
   (`buffer_load ... lds`) may still write it, and before s_barrier for the
   workgroup's LDS traffic (see the flags). Forward dataflow over the CFG to a
   fixed point, so loads issued in one loop iteration and used in the next are
   covered. Waits already in the program are kept and count; a required wait
   right after an existing s_waitcnt tightens it instead of adding another. No
   count exceeds its field's maximum (vmcnt 63, lgkmcnt 15). */
WA_API wa_status wa_pass_waitcnt(wa_program *prog, const wa_waitcnt_options *opts,
                                 wa_pass_stats *stats);

/* Independent checker for the same rules (same options). */
WA_API wa_status wa_check_waitcnt(unsigned *out_errors, const wa_program *prog,
                                  const wa_waitcnt_options *opts);

/* ---- hazard mitigation ------------------------------------------------------------- */

typedef struct wa_hazard_options {
    unsigned version;             /* WA_HAZARD_OPTIONS_VERSION */
    unsigned flags;               /* none yet */
    /* new fields only ever appended */
} wa_hazard_options;
#define WA_HAZARD_OPTIONS_VERSION 1
#define WA_HAZARD_OPTIONS_INIT { WA_HAZARD_OPTIONS_VERSION, 0 }

/* Inserts the fewest s_nop wait states that satisfy every hazard rule of the
   program's target (gfx90a, gfx942, gfx950): instructions already between a
   producer and its consumer count, the search looks back across blocks and
   around loop back edges, and every path is covered. Register overlap is per
   32-bit register, so run it after allocation (virtual registers that the
   allocator later merges can create new hazards: run it again then). */
WA_API wa_status wa_pass_hazards(wa_program *prog, const wa_hazard_options *opts,
                                 wa_pass_stats *stats);

/* Independent checker: the wait states on every path between every producer and
   consumer that a rule pairs. */
WA_API wa_status wa_check_hazards(unsigned *out_errors, const wa_program *prog,
                                  const wa_hazard_options *opts);

/* ---- peephole ---------------------------------------------------------------------- */

#define WA_PEEPHOLE_NO_FUSE 0x1u      /* keep shift+add, or+or, ... pairs apart */
#define WA_PEEPHOLE_NO_FOLD 0x2u      /* keep identities, constants and multiplications */
#define WA_PEEPHOLE_NO_MOVES 0x4u     /* keep redundant moves */
#define WA_PEEPHOLE_NO_ACC_INIT 0x8u  /* keep MFMA accumulator zeroing */
#define WA_PEEPHOLE_NO_DEAD 0x10u     /* keep instructions whose results nothing reads */

typedef struct wa_peephole_options {
    unsigned version;             /* WA_PEEPHOLE_OPTIONS_VERSION */
    unsigned flags;               /* WA_PEEPHOLE_* */
    /* new fields only ever appended */
} wa_peephole_options;
#define WA_PEEPHOLE_OPTIONS_VERSION 1
#define WA_PEEPHOLE_OPTIONS_INIT { WA_PEEPHOLE_OPTIONS_VERSION, 0 }

/* Local rewrites in linear time: shift+add -> v_lshl_add_u32, shift+or ->
   v_lshl_or_b32, or+or -> v_or3_b32, add+add -> v_add3_u32, add+shift ->
   v_add_lshl_u32 (when the intermediate value has no other reader);
   multiplication by 2^n -> shift; identities (x+0, x|0, x*1, x<<0, ...) and
   redundant moves removed; constants folded into inline constants; an MFMA whose
   accumulator was just zeroed reads the inline constant 0 instead, when nothing
   else can read those zeros. */
WA_API wa_status wa_pass_peephole(wa_program *prog, const wa_peephole_options *opts,
                                  wa_pass_stats *stats);

/* ---- common subexpression elimination ------------------------------------------------ */

#define WA_CSE_NO_HOIST 0x1u          /* do not move loop-invariant values out of loops */

typedef struct wa_cse_options {
    unsigned version;             /* WA_CSE_OPTIONS_VERSION */
    unsigned flags;               /* WA_CSE_* */
    /* version 2: the register limits the allocation after the pass will have (as in
       wa_regalloc_options; 0: the allocator's defaults). Hoisting keeps every loop's
       pressure within them, less a margin for alignment and fragmentation. */
    unsigned max_vgprs, max_sgprs, max_agprs;
    /* new fields only ever appended */
} wa_cse_options;
#define WA_CSE_OPTIONS_VERSION 2
#define WA_CSE_OPTIONS_INIT { WA_CSE_OPTIONS_VERSION, 0, 0, 0, 0 }

/* Scoped value numbering over the dominator tree: an instruction that computes
   a value already available from a dominating instruction is removed and its
   readers use the earlier register; loop-invariant values are computed once
   before their loop, as long as the loop's register pressure stays within the
   limits of the options. Memory operations, instructions with side effects and
   those that read or write special registers (SCC, VCC, EXEC, M0) are left
   alone. Works on virtual registers (a physical program is left unchanged). */
WA_API wa_status wa_pass_cse(wa_program *prog, const wa_cse_options *opts,
                             wa_pass_stats *stats);

/* ---- physical registers back to virtual ------------------------------------------------ */

#define WA_VIRTUALIZE_KEEP_WAITS 0x1u /* keep the s_waitcnt instructions (default: removed) */
#define WA_VIRTUALIZE_KEEP_NOPS 0x2u  /* keep the s_nop instructions (default: removed) */

typedef struct wa_virtualize_options {
    unsigned version;             /* WA_VIRTUALIZE_OPTIONS_VERSION */
    unsigned flags;               /* WA_VIRTUALIZE_* */
    /* new fields only ever appended */
} wa_virtualize_options;
#define WA_VIRTUALIZE_OPTIONS_VERSION 1
#define WA_VIRTUALIZE_OPTIONS_INIT { WA_VIRTUALIZE_OPTIONS_VERSION, 0 }

/* Turns an allocated program (such as assembly imported with
   wa_program_parse_asm) back into virtual registers so that the pipeline can
   allocate it again: each definition web (a write, the reads it reaches and the
   other writes those reads see, merged where paths join and where a vector
   write under a partial EXEC keeps the old lanes) becomes one virtual register
   spanning its registers, with the alignment its tuples need. Webs read before
   any write (ABI inputs) keep their physical registers. s_waitcnt and s_nop are
   removed unless the options keep them. Stats: `removed` waits and nops,
   `changed` instructions renamed. */
WA_API wa_status wa_pass_virtualize(wa_program *prog, const wa_virtualize_options *opts,
                                    wa_pass_stats *stats);

/* ---- the pipeline -------------------------------------------------------------------- */

typedef enum wa_stage {
    WA_STAGE_CSE = 0,
    WA_STAGE_PEEPHOLE,
    WA_STAGE_REGALLOC,
    WA_STAGE_WAITCNT,
    WA_STAGE_HAZARDS,
    WA_STAGE_COUNT_
} wa_stage;

/* "cse", "peephole", "regalloc", "waitcnt", "hazards"; NULL when out of range. */
WA_API const char *wa_stage_name(wa_stage stage);
/* WA_E_NOT_FOUND for an unknown name. */
WA_API wa_status wa_stage_from_name(wa_stage *out, const char *name);

/* A host's replacement for a stage: edits `prog` and may fill `stats`. */
typedef wa_status (*wa_stage_fn)(wa_program *prog, wa_pass_stats *stats, void *payload);

#define WA_PIPELINE_VERIFY 0x1u   /* after every stage: validate, and run the checkers
                                     that apply (regalloc: wa_regalloc_check on the
                                     library's allocation before it is applied, and no
                                     virtual register left after a host's replacement;
                                     waitcnt and later: wa_check_waitcnt; hazards:
                                     wa_check_hazards); a failure stops the pipeline.
                                     wa_run_stage honours it for regalloc too. */
#define WA_PIPELINE_NO_VALIDATE 0x2u /* skip the validation that wa_pipeline_run (and
                                        wa_compile) does before the first stage: a program
                                        the validator rejects (WA_E_VALIDATE, with its
                                        diagnostics) is otherwise never compiled */
#define WA_PIPELINE_SCHEDULE 0x4u /* version 2: run the Conductor's list scheduler
                                     (wa_stage_schedule, conductor.h) between peephole
                                     and regalloc, as an inserted stage named "schedule";
                                     off by default */

struct wa_schedule_options;

typedef struct wa_pipeline_options {
    unsigned version;             /* WA_PIPELINE_OPTIONS_VERSION */
    unsigned flags;               /* WA_PIPELINE_* */
    const wa_cse_options *cse;    /* per-stage options; NULL: defaults */
    const wa_peephole_options *peephole;
    const wa_regalloc_options *regalloc;
    const wa_waitcnt_options *waitcnt;
    const wa_hazard_options *hazards;
    /* version 2: the schedule stage (WA_PIPELINE_SCHEDULE): its options (NULL:
       defaults; kept by pointer, keep it alive) and its rounds (0: 2) */
    const struct wa_schedule_options *schedule;
    unsigned schedule_rounds;
    /* new fields only ever appended */
} wa_pipeline_options;
#define WA_PIPELINE_OPTIONS_VERSION 2
#define WA_PIPELINE_OPTIONS_INIT \
    { WA_PIPELINE_OPTIONS_VERSION, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0 }

/* Runs one stage of the library (not a replacement) with the stage's options
   from `opts` (may be NULL). Regalloc allocates and rewrites the program. */
WA_API wa_status wa_run_stage(wa_program *prog, wa_stage stage, const wa_pipeline_options *opts,
                              wa_pass_stats *stats);

typedef struct wa_pipeline wa_pipeline;

/* A pipeline with every stage enabled, in the default order. The option
   structs are copied. */
WA_API wa_status wa_pipeline_create(wa_pipeline **out, wa_context *ctx,
                                    const wa_pipeline_options *opts);
WA_API void wa_pipeline_destroy(wa_pipeline *pl);
WA_API wa_status wa_pipeline_enable(wa_pipeline *pl, wa_stage stage, int enabled);
/* Replaces a stage by `fn` (NULL restores the library's pass). */
WA_API wa_status wa_pipeline_replace(wa_pipeline *pl, wa_stage stage, wa_stage_fn fn,
                                     void *payload);
/* Inserts a host stage that runs just before (`after` 0) or just after (`after`
   1) the library stage `where`, whether that one is enabled or not; stages
   inserted at one point run in the order they were inserted. `name` (copied,
   at most 31 characters) names it in diagnostics and statistics. With
   WA_PIPELINE_VERIFY it is verified like the library stage next to it. */
WA_API wa_status wa_pipeline_insert(wa_pipeline *pl, wa_stage where, int after, const char *name,
                                    wa_stage_fn fn, void *payload);
/* Inserted stages (the schedule stage of WA_PIPELINE_SCHEDULE included), in
   the order of insertion. */
WA_API unsigned wa_pipeline_inserted_count(const wa_pipeline *pl);

/* Runs the enabled stages in order on `prog`. On failure the program holds the
   result of the stages before the failing one plus whatever that one did. */
WA_API wa_status wa_pipeline_run(wa_pipeline *pl, wa_program *prog);

/* Statistics of a stage in the last run (zeroed for stages that did not run). */
typedef struct wa_stage_stats {
    unsigned version;             /* WA_STAGE_STATS_VERSION (set by the library) */
    int ran;                      /* 1 if the stage ran in the last run */
    double seconds;               /* wall time of the stage */
    unsigned instrs;              /* real instructions after the stage */
    unsigned peak_vgprs, peak_sgprs, peak_agprs; /* registers used after the stage
                                                    (physical programs; 0 while virtual
                                                    registers remain) */
    wa_pass_stats pass;           /* what the stage reported */
    /* new fields only ever appended */
} wa_stage_stats;
#define WA_STAGE_STATS_VERSION 1

WA_API wa_status wa_pipeline_stats(wa_stage_stats *out, const wa_pipeline *pl, wa_stage stage);
/* Statistics of inserted stage `index` in the last run, and its name (borrowed;
   `out_name` may be NULL). */
WA_API wa_status wa_pipeline_inserted_stats(wa_stage_stats *out, const char **out_name,
                                            const wa_pipeline *pl, unsigned index);

/* Convenience: runs the default pipeline once. */
WA_API wa_status wa_compile(wa_program *prog, const wa_pipeline_options *opts);

WA_END_DECLS
#endif
