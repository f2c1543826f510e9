/* lib/passes/pass_util.h — what the passes and checkers share: register units,
   batched program edits, option and statistics plumbing. Not installed. */
#ifndef WAVEASM_PASS_UTIL_H
#define WAVEASM_PASS_UTIL_H

#include <waveasm/passes.h>

#include "../analysis/analysis.h"

/* ---- register units ----------------------------------------------------------------

   One dense number per 32-bit register a program can name: the physical VGPRs,
   AGPRs and SGPRs (WA_UNIT_* of analysis.h, 640 units), then vcc_lo, vcc_hi,
   exec_lo, exec_hi, m0 and scc, then the hazard rules' pseudo registers (the
   DGEMM marker and the 64 hardware register ids), then every component of
   every virtual register.
   Lets passes keep flat per-register tables whatever mix of virtual and physical
   registers the program holds. */
enum {
    WA_UNIT_VCC_LO = WA_UNITS,
    WA_UNIT_VCC_HI,
    WA_UNIT_EXEC_LO,
    WA_UNIT_EXEC_HI,
    WA_UNIT_M0,
    WA_UNIT_SCC,
    WA_UNIT_PSEUDO, /* WA_HZ_X_COUNT units, in wa_hz_pseudo_index order */
    WA_UNIT_VIRT_BASE = WA_UNIT_PSEUDO + 65 /* first unit of virtual register components */
};

typedef struct wa_unit_map {
    unsigned *vbase;   /* first unit of each virtual register */
    unsigned count;    /* total units */
} wa_unit_map;

wa_status wa_unit_map_init(wa_unit_map *m, const wa_program *prog);
void wa_unit_map_free(wa_unit_map *m, wa_context *ctx);

/* The units of register operand `o` in component order (out[k] is component k);
   0 for operands that are not registers. At most `max` are written. */
unsigned wa_unit_map_operand(const wa_unit_map *m, const wa_operand *o, unsigned *out,
                             unsigned max);
/* The units of an implicit register (WA_IMPL_VCC, WA_IMPL_EXEC, WA_IMPL_M0 or
   WA_IMPL_SCC; one flag). */
unsigned wa_unit_map_implicit(unsigned impl_flag, unsigned *out);
/* The unit of hazard pseudo register `special` (WA_HZ_X_*), or 0 if it is not one. */
unsigned wa_unit_pseudo(unsigned special);
/* The register class of a unit for rule tables (WA_HZ_U_* of hazard_rules.h). */
unsigned wa_unit_hz_class(const wa_unit_map *m, const wa_program *prog, unsigned unit);
/* "v5", "s[0]", "%v12[1]", "vcc_lo", ... for messages. */
void wa_unit_name(char *buf, size_t len, const wa_unit_map *m, const wa_program *prog,
                  unsigned unit);

/* ---- batched edits -------------------------------------------------------------------

   Passes record insertions and erasures against the current item indices and
   apply them in one linear rebuild of the item array. Kept items keep their tags
   and positions relative to each other; inserted instructions get new tags. */
typedef struct wa_edit_ins {
    unsigned at;        /* inserted before item `at` (ninstrs: at the end) */
    unsigned seq;       /* order of recording (stable among insertions at one point) */
    wa_instr in;        /* operands in the program arena; tag assigned on apply */
} wa_edit_ins;

typedef struct wa_edit {
    wa_program *prog;
    wa_edit_ins *ins;
    unsigned nins, capins;
    uint8_t *erased;    /* per item, allocated on the first erasure */
    unsigned nerased;
} wa_edit;

void wa_edit_init(wa_edit *e, wa_program *prog);
/* Records a new instruction before item `at`. Operands are copied into the
   program arena; the instruction is trusted (passes build valid ones). */
wa_status wa_edit_insert(wa_edit *e, unsigned at, wa_opcode op, const wa_operand *ops,
                         unsigned nops, const wa_mods *mods);
wa_status wa_edit_erase(wa_edit *e, unsigned item);
/* Applies everything recorded (in one pass over the items) and resets `e`. */
wa_status wa_edit_apply(wa_edit *e);
void wa_edit_free(wa_edit *e);

/* Replaces item `item` in place by a new instruction (same tag); operands are
   copied into the program arena. */
wa_status wa_instr_replace(wa_program *prog, unsigned item, wa_opcode op, const wa_operand *ops,
                           unsigned nops, const wa_mods *mods);

/* ---- options and statistics ----------------------------------------------------------- */

/* Real instructions (not labels or comments). */
unsigned wa_count_instrs(const wa_program *prog);
/* Starts `stats` (may be NULL: a local is used) with instrs_before; returns the
   struct to fill. */
wa_pass_stats *wa_stats_begin(wa_pass_stats *stats, wa_pass_stats *local, const wa_program *prog);
void wa_stats_end(wa_pass_stats *stats, const wa_program *prog);
/* Checks an option struct's version: WA_E_INVALID with a message when `version`
   is not `expected`. `what` names the struct. */
wa_status wa_check_options_version(wa_context *ctx, unsigned version, unsigned expected,
                                   const char *what);

#endif
