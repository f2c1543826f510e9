/* include/waveasm/liveness.h — control flow and liveness of a program.

   Blocks come from labels and branches (fall-through and taken edges). Liveness
   is computed per virtual register and per physical register by backward
   dataflow to a fixed point; a virtual register is live while any of its
   components is. The result describes the program as it was when computed:
   recompute after editing the program.

   Program points: item i (see wa_program_get) has a use point 2*i (where it reads
   its operands) and a def point 2*i+1 (where it writes). A live segment [start,
   end] covers points start..end inclusive. */
#ifndef WAVEASM_LIVENESS_H
#define WAVEASM_LIVENESS_H

#include <waveasm/program.h>

WA_BEGIN_DECLS

typedef struct wa_liveness wa_liveness;

#define WA_NONE 0xFFFFFFFFu

#define WA_LIVENESS_SSA_CHECK 0x1u  /* also check SSA form: one definition per component,
                                       uses dominated by their definition (errors) */

typedef struct wa_liveness_options {
    unsigned version;  /* WA_LIVENESS_OPTIONS_VERSION */
    unsigned flags;    /* WA_LIVENESS_* */
    /* new fields only ever appended */
} wa_liveness_options;
#define WA_LIVENESS_OPTIONS_VERSION 1
#define WA_LIVENESS_OPTIONS_INIT { WA_LIVENESS_OPTIONS_VERSION, 0 }

/* Computes blocks, dominators, loops, live sets, live segments and pressure.
   Fails with WA_E_VALIDATE when the SSA check is requested and fails (one
   diagnostic per violation, with tags and source positions). `opts` may be NULL. */
WA_API wa_status wa_liveness_compute(wa_liveness **out, const wa_program *prog,
                                     const wa_liveness_options *opts);
WA_API void wa_liveness_destroy(wa_liveness *live);

/* ---- blocks ------------------------------------------------------------------------ */

typedef struct wa_block_info {
    unsigned first_item, last_item; /* items [first_item, last_item] of the program */
    unsigned num_preds, num_succs;
    unsigned idom;                  /* immediate dominator block, WA_NONE for the entry
                                       and for unreachable blocks */
    unsigned loop_depth;            /* 0 outside loops */
    unsigned loop;                  /* innermost loop (index), WA_NONE outside loops */
    int reachable;                  /* reachable from the entry block */
} wa_block_info;

WA_API unsigned wa_liveness_block_count(const wa_liveness *live);
WA_API wa_status wa_liveness_block(wa_block_info *out, const wa_liveness *live, unsigned block);
/* Block holding program item `item`. */
WA_API unsigned wa_liveness_block_of(const wa_liveness *live, unsigned item);
/* Predecessor / successor block indices. Borrowed arrays, valid until destroy. */
WA_API const unsigned *wa_liveness_preds(const wa_liveness *live, unsigned block, unsigned *count);
WA_API const unsigned *wa_liveness_succs(const wa_liveness *live, unsigned block, unsigned *count);
/* Virtual register ids live on entry to / exit from a block, ascending. Borrowed. */
WA_API const unsigned *wa_liveness_live_in(const wa_liveness *live, unsigned block, unsigned *count);
WA_API const unsigned *wa_liveness_live_out(const wa_liveness *live, unsigned block, unsigned *count);

/* ---- loops: natural loops of back edges (edges whose target dominates the source) -- */

typedef struct wa_loop_info {
    unsigned header;      /* block */
    unsigned parent;      /* enclosing loop, WA_NONE for outermost */
    unsigned depth;       /* 1 for outermost */
    unsigned num_blocks;  /* blocks in the loop, nested loops included */
    unsigned num_exits;   /* edges leaving the loop */
} wa_loop_info;

WA_API unsigned wa_liveness_loop_count(const wa_liveness *live);
WA_API wa_status wa_liveness_loop(wa_loop_info *out, const wa_liveness *live, unsigned loop);

/* ---- live segments ------------------------------------------------------------------ */

typedef struct wa_live_segment {
    unsigned start, end; /* program points, inclusive */
} wa_live_segment;

/* Live segments of virtual register `vreg`, ascending and disjoint (holes between
   them). count 0 for ids without a live range. Borrowed. */
WA_API const wa_live_segment *wa_liveness_segments(const wa_liveness *live, unsigned vreg,
                                                   unsigned *count);
/* 1 if `vreg` is live at program point `point`. */
WA_API int wa_liveness_is_live(const wa_liveness *live, unsigned vreg, unsigned point);
/* Virtual registers of `cls` live at `point`: writes up to `cap` ids to `out`
   (may be NULL with cap 0) and returns how many there are. */
WA_API unsigned wa_liveness_live_at(unsigned *out, unsigned cap, const wa_liveness *live,
                                    unsigned point, wa_reg_class cls);
/* Virtual registers live on entry to the kernel (read before any definition on
   some path). Borrowed, ascending. */
WA_API const unsigned *wa_liveness_live_on_entry(const wa_liveness *live, unsigned *count);

/* ---- EXEC ------------------------------------------------------------------------------ */

/* 1 if EXEC may differ from its value at kernel entry at item `item`, on some
   path (never in unreachable code). The analysis follows 64-bit bitwise writes
   of EXEC and SGPR pairs through the ISA table's truth tables (wa_isa_logic:
   every saveexec/wrexec form, s_and/s_or/s_xor/s_andn2/s_orn2/s_nand/s_nor/
   s_xnor/s_not/s_mov_b64), lane by lane for the lanes on at entry and the
   others, from EXEC, pairs it has described, and the constants 0 and -1: EXEC
   is whole where the result is exactly the entry mask (s_or_b64 exec, exec, S
   with S saved by s_and_saveexec_b64 S, ... restores it; s_mov_b64 exec, -1
   does not). A compare writing EXEC keeps it within the entry mask; any other
   write of EXEC is unknown.
   There a VGPR or AGPR write leaves the other lanes as they were, so liveness
   keeps the old value alive up to the write wherever one may be defined
   ("partial writes" in docs/regalloc.md). */
WA_API int wa_liveness_exec_partial(const wa_liveness *live, unsigned item);

/* ---- pressure ------------------------------------------------------------------------ */

/* Registers of `cls` needed at item `item` (the larger of its use and def
   points): the sizes of live virtual registers plus live physical registers. An
   MFMA whose vdst may take the registers of a srcC that ends there (a tie, see
   regalloc.h) counts them once at its use point, although both are live there. */
WA_API unsigned wa_liveness_pressure(const wa_liveness *live, unsigned item, wa_reg_class cls);
/* Maximum pressure over the program; `out_item` (may be NULL) gets the first item
   where it occurs (WA_NONE for an empty program). */
WA_API unsigned wa_liveness_max_pressure(const wa_liveness *live, wa_reg_class cls,
                                         unsigned *out_item);

/* Text report of blocks, edges, loops, live-in/out and segments (what
   WAVE_DEBUG_LIVENESS logs). Released with wa_free(). */
WA_API wa_status wa_liveness_print(char **out, size_t *out_len, const wa_liveness *live);

/* ---- reports for kernel authors --------------------------------------------------------- */

/* The program listing with, per instruction, the live VGPR/SGPR/AGPR counts, the
   block and loop depth, and a marker on the items of maximum pressure. `live` must
   have been computed from `prog` as it is now. Released with wa_free(). */
WA_API wa_status wa_pressure_report(char **out, size_t *out_len, const wa_program *prog,
                                    const wa_liveness *live);
/* A standalone SVG plot of VGPR, SGPR and AGPR pressure over the program (x:
   instruction, y: registers), loops shaded, the maximum of each class marked.
   Released with wa_free(). */
WA_API wa_status wa_pressure_svg(char **out, size_t *out_len, const wa_program *prog,
                                 const wa_liveness *live);

WA_END_DECLS
#endif
