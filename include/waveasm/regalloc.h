/* include/waveasm/regalloc.h — register allocation: virtual registers to physical.

   Linear scan over live intervals, one pool per class (VGPR, SGPR, AGPR), with
   contiguous aligned ranges (the target's tuple rules and each register's own
   alignment), precolored registers (the program's physical registers, e.g. the
   ABI's v0 and s[0:1], are respected while they are live), reserved registers,
   tied MFMA accumulators (vdst takes srcC's registers when srcC ends there, and
   never overlaps srcA/srcB or partially overlaps srcC), and coalescing hints for
   moves. There is no spilling: when a value cannot be placed, allocation fails
   with WA_E_ALLOC and a diagnostic naming the value, every value overlapping it
   (longest first) and the pool state; no partial result is returned. */
#ifndef WAVEASM_REGALLOC_H
#define WAVEASM_REGALLOC_H

#include <waveasm/liveness.h>
#include <waveasm/program.h>

WA_BEGIN_DECLS

typedef struct wa_regalloc_result wa_regalloc_result;

#define WA_REGALLOC_NO_COALESCE 0x1u  /* ignore move hints */
#define WA_REGALLOC_NO_HOLES 0x2u     /* never place a value in another's lifetime hole */
#define WA_REGALLOC_CHECK 0x4u        /* run wa_regalloc_check on the result */

typedef struct wa_regalloc_options {
    unsigned version;                /* WA_REGALLOC_OPTIONS_VERSION */
    unsigned max_vgprs;              /* usable v0 .. v(max-1), at most 256 */
    unsigned max_sgprs;              /* usable s0 .. s(max-1), at most 102 */
    unsigned max_agprs;              /* usable a0 .. a(max-1), at most 256 */
    uint32_t reserved_vgprs[8];      /* bit r set: never allocate v<r> */
    uint32_t reserved_sgprs[4];      /* bit r set: never allocate s<r> */
    uint32_t reserved_agprs[8];      /* bit r set: never allocate a<r> */
    unsigned flags;                  /* WA_REGALLOC_* */
    /* version 2: */
    const wa_liveness *liveness;     /* optional: liveness already computed from this very
                                        program (saves recomputing it); NULL = compute */
    /* new fields only ever appended */
} wa_regalloc_options;
#define WA_REGALLOC_OPTIONS_VERSION 2
#define WA_REGALLOC_OPTIONS_INIT                                                  \
    { WA_REGALLOC_OPTIONS_VERSION, 256, 102, 256, { 0 }, { 0 }, { 0 }, 0, NULL }

/* Allocates every virtual register of `prog` (the program is not changed; see
   wa_regalloc_apply). Fails with WA_E_ALLOC when a value cannot be placed and with
   WA_E_VALIDATE when a virtual register may be read before it is defined. */
WA_API wa_status wa_regalloc_run(wa_regalloc_result **out, const wa_program *prog,
                                 const wa_regalloc_options *opts);
WA_API void wa_regalloc_destroy(wa_regalloc_result *res);

/* The physical registers given to virtual register `vreg` (the whole register);
   WA_E_NOT_FOUND for ids that have no live range. */
WA_API wa_status wa_regalloc_lookup(wa_operand *out, const wa_regalloc_result *res, unsigned vreg);

/* A result for `prog` made by the host (its own allocator, or a test): no
   virtual register has a register until wa_regalloc_assign gives it one. It can
   be checked (wa_regalloc_check), applied (wa_regalloc_apply) and queried like a
   result of wa_regalloc_run; its statistics carry the peaks and the count of
   assigned registers, and zero for what only the allocator knows (pressure,
   coalesced, tied, hole fits). */
WA_API wa_status wa_regalloc_result_create(wa_regalloc_result **out, const wa_program *prog);

/* Gives virtual register `vreg` the registers reg .. reg+size-1 of its class
   (WA_NONE: none), in any result. Only the register file's bounds are checked
   here (WA_E_INVALID); alignment, limits and conflicts are wa_regalloc_check's. */
WA_API wa_status wa_regalloc_assign(wa_regalloc_result *res, unsigned vreg, unsigned reg);

typedef struct wa_regalloc_stats {
    unsigned version;               /* WA_REGALLOC_STATS_VERSION (set by the library) */
    unsigned peak_vgprs, peak_sgprs, peak_agprs;     /* highest register used + 1 (the
                                                        program's own ones included) */
    unsigned max_pressure_vgpr, max_pressure_sgpr, max_pressure_agpr;
    unsigned intervals;             /* virtual registers with a register */
    unsigned coalesced;             /* move hints honoured */
    unsigned tied;                  /* MFMA vdst given its srcC's registers */
    unsigned hole_fits;             /* values placed in another value's lifetime hole */
    /* new fields only ever appended */
} wa_regalloc_stats;
#define WA_REGALLOC_STATS_VERSION 1

WA_API wa_status wa_regalloc_get_stats(wa_regalloc_stats *out, const wa_regalloc_result *res);

/* Rewrites `prog` (the program allocated) to physical registers and deletes moves
   that became self-moves. `out_removed` (may be NULL) gets their number. The
   program's virtual register table is emptied. */
WA_API wa_status wa_regalloc_apply(wa_program *prog, const wa_regalloc_result *res,
                                   unsigned *out_removed);

/* Independent checker: with its own liveness, verifies that no two simultaneously
   live values of `prog` (virtual or precolored) share a physical register under
   `res`, that tuples are aligned, registers within the class limits of `opts`
   (may be NULL for the defaults) and outside reserved registers, and that MFMA
   vdst does not overlap srcA/srcB nor partially overlap srcC. One diagnostic per
   violation; WA_E_VALIDATE if any. */
WA_API wa_status wa_regalloc_check(unsigned *out_errors, const wa_program *prog,
                                   const wa_regalloc_result *res, const wa_regalloc_options *opts);

WA_END_DECLS
#endif
