/* tests/unit/randprog.h — support for the liveness and register allocation tests:
   a seeded generator of random kernels, a brute-force liveness reference and an
   allocation verifier written from scratch against the public API only.

   The reference solves the textbook dataflow per *instruction* over register
   components (every component of every virtual register and every physical
   register is one bit), iterating live_out(i) = U live_in(succ), live_in(i) =
   use(i) U (live_out(i) - def(i)) to a fixed point. From those sets it derives
   what the library reports (program points: use point 2i, def point 2i+1; an
   MFMA writes its result at its use point, because vdst must not share registers
   with the sources it reads), its own blocks, dominators and natural loops. */
#ifndef WAVEASM_UNIT_RANDPROG_H
#define WAVEASM_UNIT_RANDPROG_H

#include <waveasm/waveasm.h>

#include <stdint.h>

/* ---- random numbers (splitmix64: stable across platforms) --------------------- */

typedef struct rp_rng {
    uint64_t state;
} rp_rng;

void rp_seed(rp_rng *r, uint64_t seed);
uint64_t rp_next(rp_rng *r);
/* Uniform in [0, n); n > 0. */
unsigned rp_below(rp_rng *r, unsigned n);
/* 1 with probability percent/100. */
int rp_chance(rp_rng *r, unsigned percent);

/* ---- generator ------------------------------------------------------------------ */

typedef struct rp_config {
    unsigned items;        /* rough number of items to emit (>= 10) */
    unsigned max_vregs;    /* cap on virtual registers */
    unsigned max_depth;    /* loop nesting limit */
    int loops, ifs, unreachable, mfma, agprs, wide, phys_temps, holes;
    int tuples;            /* 0: VGPRs and AGPRs are single registers only (no MFMA,
                              no wide loads, no partial definitions) */
    int masked;            /* regions under a narrowed EXEC (s_and_saveexec_b64) */
    int bounded_loops;     /* every loop counts its own iterations (1 to 4) and
                              stops: programs that terminate, for the simulator */
} rp_config;

/* Everything on: loops, diamonds, unreachable code, MFMAs, AGPRs, SGPR/VGPR tuples up
   to 8 (and a 16-register MFMA result now and then), physical temporaries. */
void rp_config_default(rp_config *c);

/* Generates a kernel for `target` from `seed` with the builder API: ABI inputs
   s[0:1] (kernarg pointer), s2 (workgroup id x) and v0 (work-item id), read at the
   start and now and then later; straight-line code, if/else diamonds and
   triangles, do-while loops (nested, with several exits, with loop-carried
   redefinitions), unreachable blocks after s_branch and after s_endpgm. Every
   virtual register component is defined on every path before it is read. Returns
   NULL (and records a check failure) if a builder call fails. */
wa_program *rp_generate(wa_context *ctx, wa_target target, uint64_t seed, const rp_config *c);

/* ---- brute-force reference ------------------------------------------------------------ */

typedef struct rp_ref rp_ref;

/* NULL only when out of memory. Reads the program through the public API. */
rp_ref *rp_ref_compute(const wa_program *prog);
void rp_ref_free(rp_ref *r);

unsigned rp_ref_items(const rp_ref *r);
/* Virtual register `vreg` live at program point `point` (any component). */
int rp_ref_is_live(const rp_ref *r, unsigned vreg, unsigned point);
/* Registers of `cls` live at item `item` (max of its two points), precolored included. */
unsigned rp_ref_pressure(const rp_ref *r, unsigned item, wa_reg_class cls);
unsigned rp_ref_max_pressure(const rp_ref *r, wa_reg_class cls, unsigned *out_item);
unsigned rp_ref_block_count(const rp_ref *r);
/* A lower bound on the registers of `cls` any allocation needs: the most registers
   live at once just before or just after an instruction (writes included, whole
   virtual registers), and the highest physical register the program names + 1.
   Unlike the pressure it does not count an MFMA's vdst together with a srcC that
   dies there, since the two may share their registers. */
unsigned rp_ref_alloc_lower_bound(const rp_ref *r, wa_reg_class cls);

/* Compares everything the liveness result reports with the reference: blocks and
   edges, reachability, dominators, loops, block live-in/live-out sets, live on
   entry, every segment of every virtual register, live_at, pressure per item and
   the maximum. Records a check failure per difference (at most `max_reports`
   reported in detail) and returns the number of differences. */
unsigned rp_compare_liveness(const rp_ref *r, const wa_program *prog, const wa_liveness *live,
                             unsigned max_reports);

/* An allocation verifier independent of the library's checker: every used
   virtual register has a register of its class and size, aligned to
   max(declared, tuple rule), below the limits and outside the reserved sets of
   `opts` (NULL = defaults); no two values live at once (before or after any
   instruction, writes included) share a physical register; MFMA vdst does not
   overlap srcA/srcB and is identical to or disjoint from srcC. Returns the number
   of violations; describes the first ones (up to `max_reports`) as check failures
   when `report` is set. */
unsigned rp_verify_allocation(const rp_ref *r, const wa_program *prog,
                              const wa_regalloc_result *res, const wa_regalloc_options *opts,
                              int report, unsigned max_reports);

/* Pairs of virtual registers that share a physical register although their live
   ranges' hulls (first to last live point) overlap: one sits in a lifetime hole
   of the other. WA_REGALLOC_NO_HOLES promises there are none. */
unsigned rp_hole_sharing(const rp_ref *r, const wa_program *prog, const wa_regalloc_result *res);

#endif
