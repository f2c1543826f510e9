/* lib/analysis/analysis.h — internal layout of the CFG and liveness results, shared
   by the analysis files and the register allocator. Not installed. */
#ifndef WAVEASM_ANALYSIS_H
#define WAVEASM_ANALYSIS_H

#include <waveasm/liveness.h>

#include "../ir/ir.h"

/* Physical register units tracked by liveness: v0..v255, a0..a255, s0..s127. */
#define WA_UNIT_VGPR 0u
#define WA_UNIT_AGPR 256u
#define WA_UNIT_SGPR 512u
#define WA_UNITS 640u

static inline unsigned wa_phys_unit(wa_reg_class cls, unsigned reg)
{
    return cls == WA_REG_VGPR ? WA_UNIT_VGPR + reg : cls == WA_REG_AGPR ? WA_UNIT_AGPR + reg
                                                                        : WA_UNIT_SGPR + reg;
}

static inline wa_reg_class wa_unit_class(unsigned unit)
{
    return unit < WA_UNIT_AGPR ? WA_REG_VGPR : unit < WA_UNIT_SGPR ? WA_REG_AGPR : WA_REG_SGPR;
}

static inline unsigned wa_unit_reg(unsigned unit)
{
    return unit < WA_UNIT_AGPR ? unit : unit < WA_UNIT_SGPR ? unit - WA_UNIT_AGPR : unit - WA_UNIT_SGPR;
}

/* Compressed sparse rows: row r holds data[off[r] .. off[r+1]). */
typedef struct wa_csr {
    unsigned *off;
    unsigned *data;
} wa_csr;

typedef struct wa_cfg {
    unsigned nblocks;
    unsigned *first, *last;      /* item range of each block */
    unsigned *item_block;        /* block of each item */
    wa_csr succ, pred;
    unsigned *rpo;               /* reachable blocks in reverse post-order */
    unsigned nrpo;
    unsigned *rpo_index;         /* position in rpo, WA_NONE if unreachable */
    unsigned *idom;              /* immediate dominator, WA_NONE for entry/unreachable */
    unsigned *dom_pre, *dom_post; /* dominator-tree DFS numbers (for O(1) queries) */
    /* loops */
    unsigned nloops;
    wa_loop_info *loops;
    unsigned *block_loop;        /* innermost loop of each block, WA_NONE */
    unsigned *block_depth;
} wa_cfg;

/* Builds the CFG (blocks, edges, RPO, dominators, loops) of `prog`. */
wa_status wa_cfg_build(wa_cfg *cfg, const wa_program *prog);
void wa_cfg_free(wa_cfg *cfg, wa_context *ctx);
/* 1 if block a dominates block b (both reachable). */
int wa_cfg_dominates(const wa_cfg *cfg, unsigned a, unsigned b);

/* Per item: 1 where EXEC may hold fewer lanes than at kernel entry (exec_mask.c).
   *out is freed with wa_mem_free; *any tells whether any item is. */
wa_status wa_exec_partial(uint8_t **out, int *any, const wa_program *prog, const wa_cfg *cfg);
/* 1 if `in` writes EXEC (or a half of it). */
int wa_instr_writes_exec(const wa_instr *in, const wa_isa_info *info);
/* Operand k of `in` is a lane-masked write: a VGPR or AGPR the instruction writes
   (without reading it). Under a partial EXEC it also keeps the old value's lanes. */
int wa_lane_masked_write(const wa_instr *in, const wa_isa_info *info, unsigned k);

struct wa_liveness {
    wa_context *ctx;
    unsigned nitems;
    unsigned nvregs;
    wa_cfg cfg;
    /* merged live segments per key: keys 0..nvregs-1 are virtual registers,
       nvregs + unit are physical units */
    wa_csr seg_index;            /* off only: segments of key k at segs[off[k]..off[k+1]) */
    wa_live_segment *segs;
    uint8_t *seg_live_in;        /* bit per segment: it starts where its value enters a block */
    /* vreg class and size (copied so results outlive edits of the program) */
    uint8_t *vcls;
    uint32_t *vsize;
    /* per-block live sets of virtual registers (ascending), built from the
       segments on first request */
    wa_csr live_in, live_out;
    int sets_built;
    unsigned *entry_live;        /* virtual registers live on entry */
    unsigned nentry_live;
    /* (vreg, block) pairs, sorted: registers whose segment holds the block's
       first point only because an MFMA there redefines them early */
    unsigned *not_live_in;
    unsigned n_not_live_in;
    uint8_t *exec_partial;       /* per item: EXEC may be partial; NULL if nowhere */
    /* registers written or read in pieces: per vreg the first entry of its
       components in comp_end (WA_NONE for others), and per component 1 + the
       last point it is live (0: never) */
    unsigned *comp_first;
    unsigned *comp_end;
    /* pressure per item and class (index by class 1..3) */
    unsigned *pressure[4];
    unsigned max_pressure[4];
    unsigned max_item[4];
};

/* Segments of key `k` (virtual register id, or nvregs + unit). */
static inline const wa_live_segment *wa_live_key_segs(const wa_liveness *l, unsigned k,
                                                       unsigned *n)
{
    *n = l->seg_index.off[k + 1] - l->seg_index.off[k];
    return l->segs + l->seg_index.off[k];
}

/* The SSA check (opt-in part of wa_liveness_compute). Returns the error count. */
unsigned wa_ssa_check(const wa_program *prog, const wa_cfg *cfg);

#endif
