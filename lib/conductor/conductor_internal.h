/* lib/conductor/conductor_internal.h — the schedule object shared by the
   Conductor's files. Not installed. */
#ifndef WAVEASM_CONDUCTOR_INTERNAL_H
#define WAVEASM_CONDUCTOR_INTERNAL_H

#include <waveasm/conductor.h>

#include "../passes/pass_util.h"

/* Node facts (one node per item of the program as the schedule found it). */
#define WA_SN_REAL 0x001u      /* an instruction (not a label or comment) */
#define WA_SN_PINNED 0x002u    /* never moves */
#define WA_SN_TERM 0x004u      /* ends its block (branch, s_endpgm) */
#define WA_SN_BARRIER 0x008u   /* s_barrier */
#define WA_SN_FENCE 0x010u     /* other side effects: nothing crosses it */
#define WA_SN_ATOMIC 0x020u
#define WA_SN_VECTOR 0x040u    /* executes per lane: reads EXEC */

/* Address spaces (bit masks in wa_snode.rd / .wr). */
#define WA_SPACE_GLOBAL 0x1u
#define WA_SPACE_LDS 0x2u
#define WA_SPACE_SCRATCH 0x4u

/* Dependence edge kinds. */
enum { WA_DEP_RAW = 0, WA_DEP_WAR, WA_DEP_WAW };

typedef struct wa_sedge {
    unsigned node;        /* the other end */
    unsigned unit;        /* register unit */
    unsigned kind;        /* WA_DEP_* */
} wa_sedge;

typedef struct wa_snode {
    unsigned flags;       /* WA_SN_* */
    unsigned rd, wr;      /* address spaces read / written */
    unsigned block;
    unsigned latency;     /* cycles until its result can be read */
} wa_snode;

typedef struct wa_swarn {
    unsigned severity, command;
    size_t msg;           /* offset in the warning text buffer */
} wa_swarn;

struct wa_schedule {
    wa_context *ctx;
    wa_program *prog;
    wa_schedule_options opts;
    unsigned lat[WA_SCHED_LAT_COUNT];
    unsigned n;                 /* items (== nodes) */
    wa_instr *orig;             /* node -> its item (operands in the program arena) */
    wa_snode *node;
    unsigned *pos;              /* node -> current item index */
    unsigned *at;               /* item index -> node */
    unsigned *tag_node;         /* tag -> node (WA_NONE: none) */
    unsigned ntags;
    /* dependences: preds of node i at pred[pred_off[i] .. pred_off[i+1]) */
    unsigned *pred_off, *succ_off;
    wa_sedge *pred, *succ;
    /* blocks (item ranges are fixed: moves stay inside a block) */
    unsigned nblocks;
    unsigned *bfirst, *blast, *bdepth;
    unsigned nregions;
    unsigned *region_block;
    uint64_t *region_cycles;
    uint64_t critical;          /* weighted critical path (order independent) */
    wa_unit_map units;
    unsigned baseline_waves;    /* occupancy of the program as given (0: unknown) */
    /* last round */
    wa_sb report;
    wa_sb warn_text;
    wa_swarn *warns;
    unsigned nwarns, capwarns;
    int have_report;
    wa_sb last_cmds;            /* the commands of the last successful round, one per line */
    uint64_t *profile;          /* per node: present flag, then WA_SCHED_PROFILE_COLS figures */
};

#define WA_SCHED_PROFILE_COLS 4
/* The profile section of the prompt (profile.c). */
void wa_sched_print_profile(wa_sb *sb, const wa_schedule *s);

/* Sizes and units of an item's register accesses: the units it reads and
   writes (explicit operands by role, the table's implicit registers, EXEC for
   vector instructions). Returns WA_E_NOMEM only. */
typedef struct wa_sunits {
    unsigned *use, *def;
    unsigned nuse, ndef, cap;
} wa_sunits;
wa_status wa_sched_units(wa_sunits *u, const wa_schedule *s, const wa_instr *in);
void wa_sunits_free(wa_sunits *u, wa_context *ctx);

/* Builds the dependence graph and node facts (deps.c). */
wa_status wa_sched_build_deps(wa_schedule *s);

/* Alias analysis (alias.c): may the two memory accesses touch the same bytes?
   `between_lo`..`between_hi` is the item range separating them now. */
enum { WA_ALIAS_DISJOINT = 0, WA_ALIAS_MAY, WA_ALIAS_MUST };
int wa_sched_alias(const wa_schedule *s, unsigned a, unsigned b, unsigned *space_out);
/* Do nodes a and b need their order (at least one writes a space both access)?
   Returns the alias result for that space, or -1 when they do not conflict. */
int wa_sched_memory_conflict(const wa_schedule *s, unsigned a, unsigned b, unsigned *space_out);

/* Checks and performs moving node x to item index `to` (index after removal);
   records warnings against command `cmd`. On an invalid move returns
   WA_E_INVALID with the reason in `why` (nothing moved). */
wa_status wa_sched_move(wa_schedule *s, unsigned x, unsigned to, unsigned cmd, char *why,
                        size_t why_len);
void wa_sched_add_warning(wa_schedule *s, unsigned severity, unsigned cmd, const char *fmt, ...)
    WA_PRINTF(4, 5);
/* Puts the items in the order `at` (item -> node). */
void wa_sched_set_order(wa_schedule *s, const unsigned *at);

/* The schedule stage: `rounds` of the list scheduler on `prog` (heuristic.c). */
wa_status wa_sched_stage_run(wa_program *prog, wa_pass_stats *stats,
                             const wa_schedule_options *opts, unsigned rounds);

/* The cache (cache.c). The key: SHA-256 of the tagged text without metrics. */
wa_status wa_sched_cache_key(char key[65], const wa_schedule *s);
/* The directory of the cache for `dir` (NULL: the default); 0 if none. */
int wa_sched_cache_dir(char *out, size_t cap, const char *dir);
/* The moves of entry `key` (one per line, wa_mem_free'd by the caller): 1 when
   found and well formed; 0 when missing; -1 with a message in `why` when the
   entry is corrupt or stale. */
int wa_sched_cache_load(const wa_schedule *s, const char *dir, const char *key, char **moves,
                        char *why, size_t why_len);
/* Writes the entry (replacing it); 0 on success. */
int wa_sched_cache_store(const wa_schedule *s, const char *dir, const char *key,
                         const char *moves, const wa_sched_metrics *m, unsigned rounds);
/* The printed schedule, with the last round's report or without. */
wa_status wa_sched_print_impl(char **out, size_t *out_len, const wa_schedule *s,
                              const wa_sched_metrics *metrics, int with_report);

/* "I12" of node i, and its mnemonic. */
const char *wa_sched_mnemonic(const wa_schedule *s, unsigned node);
static inline wa_tag wa_sched_tag(const wa_schedule *s, unsigned node)
{
    return s->orig[node].tag;
}
/* Latency of a latency class under the options. */
unsigned wa_sched_class_latency(const wa_schedule *s, unsigned cls);

#endif
