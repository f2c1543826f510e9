/* include/waveasm/sim.h — a wave64 functional simulator of the kernel IR.

   Runs a program (virtual registers, or physical ones after allocation) on host
   memory: every workgroup of the grid, its waves interleaved, with the kernel ABI
   the hardware sets up (kernarg pointer, workgroup ids, packed work-item ids in
   v0). Global-buffer arguments are host buffers bound in place; buffer resource
   descriptors built by the kernel are range-checked (out-of-range loads return 0,
   stores are dropped); LDS is private to each workgroup.

   The timing model is for testing, not for performance: every memory operation
   completes at a seeded random time that respects the hardware's ordering (vector
   memory in order, LDS in order, scalar memory in any order), and `s_waitcnt`
   blocks until its counts hold. A register read while a load into it is still in
   flight, or overwritten before that load lands, is an error (WA_E_SIM_WAIT), as
   is LDS read while another wave's (or an LDS-DMA) write to it is in flight. The
   hazard mode reports a consumer that follows its producer with fewer wait states
   than the hardware requires (WA_E_SIM_HAZARD).

   Every register lane and memory byte carries a "defined" bit: values computed
   from undefined inputs stay undefined, and wa_sim_compare judges one run against
   another only where the first is defined. Errors carry the instruction's tag and
   source position. */
#ifndef WAVEASM_SIM_H
#define WAVEASM_SIM_H

#include <waveasm/program.h>

WA_BEGIN_DECLS

typedef struct wa_sim wa_sim;

#define WA_SIM_TIMING 0x1u      /* random completion times; wait errors (on by default) */
#define WA_SIM_HAZARDS 0x2u     /* check wait states between dependent instructions */
#define WA_SIM_PERMISSIVE 0x4u  /* memory outside bound buffers is a sparse scratch space
                                   (reads of untouched bytes give a fixed pattern), LDS out
                                   of range reads 0 and drops writes: for fuzzed programs */
#define WA_SIM_UNDEF_ERRORS 0x8u /* an active lane reading an undefined register is an error */
#define WA_SIM_CLOCK_UNDEFINED 0x10u /* s_memtime and s_memrealtime give undefined values.
                                   The model clock depends on the instruction stream, so two
                                   compilations of one program read different times; set it
                                   for both runs of a wa_sim_compare */

typedef struct wa_sim_options {
    unsigned version;          /* WA_SIM_OPTIONS_VERSION */
    unsigned flags;            /* WA_SIM_* */
    uint64_t seed;             /* timing and wave interleaving; same seed, same run */
    unsigned grid[3];          /* workgroups in x, y, z; 0 counts as 1 */
    unsigned workgroup_size[3]; /* work-items; 0: the program's .workgroup_size */
    uint64_t max_instructions; /* per wave; 0: 100 million (WA_E_SIM_LIMIT beyond) */
    /* new fields only ever appended */
} wa_sim_options;
#define WA_SIM_OPTIONS_VERSION 1
#define WA_SIM_OPTIONS_INIT \
    { WA_SIM_OPTIONS_VERSION, WA_SIM_TIMING, 1, { 1, 1, 1 }, { 0, 0, 0 }, 0 }

/* Prepares a run of `prog` (which must validate, virtual or physical registers).
   The program is copied: later edits do not affect the simulator. */
WA_API wa_status wa_sim_create(wa_sim **out, const wa_program *prog, const wa_sim_options *opts);
WA_API void wa_sim_destroy(wa_sim *sim);

/* Binds host memory to global-buffer argument `arg` (its index among the
   program's arguments). The kernel reads and writes `data` in place; its device
   address (what the kernarg segment holds) is wa_sim_buffer_address(). */
WA_API wa_status wa_sim_bind_buffer(wa_sim *sim, unsigned arg, void *data, size_t bytes);
/* The value of by-value argument `arg` (`bytes` must equal its size). */
WA_API wa_status wa_sim_set_arg(wa_sim *sim, unsigned arg, const void *value, size_t bytes);
/* Device address of argument `arg`'s buffer (0 if unbound or not a buffer). */
WA_API uint64_t wa_sim_buffer_address(const wa_sim *sim, unsigned arg);

/* Runs the whole grid. On an error the diagnostics name the instruction (tag,
   line), the wave and the workgroup; memory then holds what was done so far. A
   simulator can run again (memory is not reset: bound buffers keep the results). */
WA_API wa_status wa_sim_run(wa_sim *sim);

typedef struct wa_sim_stats {
    unsigned version;           /* WA_SIM_STATS_VERSION (set by the library) */
    unsigned workgroups, waves;
    uint64_t instructions;      /* executed, over all waves */
    uint64_t memory_ops;        /* loads, stores, atomics, LDS-DMA issued */
    uint64_t waits;             /* s_waitcnt that blocked */
    uint64_t barriers;          /* s_barrier releases */
    uint64_t cycles;            /* simulated time of the slowest wave (model units) */
    uint64_t undefined_bytes;   /* bytes stored from undefined register lanes */
    uint64_t undefined_addresses; /* permissive mode: stores (or branches) that depended on
                                   an undefined value and were skipped; a run with any is
                                   not a reliable reference for wa_sim_compare */
    /* new fields only ever appended */
} wa_sim_stats;
#define WA_SIM_STATS_VERSION 1

/* Statistics of the last wa_sim_run. */
WA_API wa_status wa_sim_get_stats(wa_sim_stats *out, const wa_sim *sim);

/* Compares the memory of two simulators after their runs (same program shape:
   the same arguments): bound buffers argument by argument and, with
   WA_SIM_PERMISSIVE, the scratch space. A byte counts when `ref` holds a defined
   value there; `other` must hold the same defined value. *out_diffs (may be NULL)
   gets the number of differing bytes; the first few are described as notes.
   WA_OK when equal, WA_E_VALIDATE when not. */
WA_API wa_status wa_sim_compare(unsigned *out_diffs, const wa_sim *ref, const wa_sim *other);

/* Whether the simulator executes opcode `op`: NULL if it does (labels and
   comments included), else the reason it does not. */
WA_API const char *wa_sim_unsupported(unsigned op);

WA_END_DECLS
#endif
