/* lib/passes/pipeline.c — the stages in their default order, with per-stage
   statistics, host replacements and optional verification after each stage. */
#include "pass_util.h"
#include "../conductor/conductor_internal.h"

#include <waveasm/emit.h>
#include <waveasm/validate.h>

#include <stddef.h>
#include <string.h>
#include <time.h>

static const char *const stage_names[WA_STAGE_COUNT_] = { "cse", "peephole", "regalloc",
                                                          "waitcnt", "hazards" };

const char *wa_stage_name(wa_stage stage)
{
    return (unsigned)stage < WA_STAGE_COUNT_ ? stage_names[stage] : NULL;
}

wa_status wa_stage_from_name(wa_stage *out, const char *name)
{
    if (!out || !name)
        return WA_E_INVALID;
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++) {
        if (strcmp(name, stage_names[s]) == 0) {
            *out = (wa_stage)s;
            return WA_OK;
        }
    }
    return WA_E_NOT_FOUND;
}

/* Checks the option struct and the per-stage structs it points to. */
static wa_status check_pipeline_options(wa_context *ctx, const wa_pipeline_options *o)
{
    if (!o)
        return WA_OK;
    wa_status st = wa_check_options_version(ctx, o->version, WA_PIPELINE_OPTIONS_VERSION,
                                            "wa_pipeline_options");
    if (!st && o->cse)
        st = wa_check_options_version(ctx, o->cse->version, WA_CSE_OPTIONS_VERSION,
                                      "wa_cse_options");
    if (!st && o->peephole)
        st = wa_check_options_version(ctx, o->peephole->version, WA_PEEPHOLE_OPTIONS_VERSION,
                                      "wa_peephole_options");
    if (!st && o->regalloc)
        st = wa_check_options_version(ctx, o->regalloc->version, WA_REGALLOC_OPTIONS_VERSION,
                                      "wa_regalloc_options");
    if (!st && o->waitcnt)
        st = wa_check_options_version(ctx, o->waitcnt->version, WA_WAITCNT_OPTIONS_VERSION,
                                      "wa_waitcnt_options");
    if (!st && o->hazards)
        st = wa_check_options_version(ctx, o->hazards->version, WA_HAZARD_OPTIONS_VERSION,
                                      "wa_hazard_options");
    unsigned known = WA_PIPELINE_VERIFY | WA_PIPELINE_NO_VALIDATE | WA_PIPELINE_SCHEDULE;
    if (!st && (o->flags & ~known))
        st = wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "wa_pipeline_options: unknown flags 0x%x",
                      o->flags & ~known);
    return st;
}

/* Allocates and rewrites. `check` runs the independent allocation checker on the
   result before it is applied (WA_PIPELINE_VERIFY). */
static wa_status run_regalloc(wa_program *prog, const wa_regalloc_options *ro,
                              wa_pass_stats *stats, int check)
{
    wa_pass_stats local;
    wa_pass_stats *s = wa_stats_begin(stats, &local, prog);
    wa_regalloc_result *ra = NULL;
    wa_regalloc_options checked = WA_REGALLOC_OPTIONS_INIT;
    if (check) {
        if (ro)
            memcpy(&checked, ro, ro->version >= 2 ? sizeof(*ro) : offsetof(wa_regalloc_options, liveness));
        checked.version = WA_REGALLOC_OPTIONS_VERSION;
        checked.flags |= WA_REGALLOC_CHECK;
        ro = &checked;
    }
    wa_status st = wa_regalloc_run(&ra, prog, ro);
    unsigned removed = 0;
    if (st == WA_OK)
        st = wa_regalloc_apply(prog, ra, &removed);
    wa_regalloc_destroy(ra);
    s->removed = s->moves_removed = removed;
    wa_stats_end(s, prog);
    return st;
}

/* One library stage; `verify` adds the allocation checker to regalloc. */
static wa_status run_stage(wa_program *prog, wa_stage stage, const wa_pipeline_options *opts,
                           wa_pass_stats *stats, int verify)
{
    switch (stage) {
    case WA_STAGE_CSE: return wa_pass_cse(prog, opts ? opts->cse : NULL, stats);
    case WA_STAGE_PEEPHOLE: return wa_pass_peephole(prog, opts ? opts->peephole : NULL, stats);
    case WA_STAGE_REGALLOC: return run_regalloc(prog, opts ? opts->regalloc : NULL, stats, verify);
    case WA_STAGE_WAITCNT: return wa_pass_waitcnt(prog, opts ? opts->waitcnt : NULL, stats);
    case WA_STAGE_HAZARDS: return wa_pass_hazards(prog, opts ? opts->hazards : NULL, stats);
    default:
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE, "unknown stage %d", (int)stage);
    }
}

wa_status wa_run_stage(wa_program *prog, wa_stage stage, const wa_pipeline_options *opts,
                       wa_pass_stats *stats)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    wa_status st = check_pipeline_options(prog->ctx, opts);
    if (st)
        return st;
    return run_stage(prog, stage, opts, stats, opts && (opts->flags & WA_PIPELINE_VERIFY));
}

/* ---- the pipeline object ----------------------------------------------------------------- */

/* A stage inserted next to a library stage. */
typedef struct inserted_stage {
    wa_stage where;
    int after;
    char name[32];
    wa_stage_fn fn;
    void *payload;
    wa_stage_stats stats;
} inserted_stage;

/* The built-in schedule stage's settings (WA_PIPELINE_SCHEDULE). */
typedef struct schedule_payload {
    const wa_schedule_options *opts;
    unsigned rounds;
} schedule_payload;

struct wa_pipeline {
    wa_context *ctx;
    wa_pipeline_options opts;
    /* copies of the per-stage options the host gave */
    wa_cse_options cse;
    wa_peephole_options peephole;
    wa_regalloc_options regalloc;
    wa_waitcnt_options waitcnt;
    wa_hazard_options hazards;
    int enabled[WA_STAGE_COUNT_];
    wa_stage_fn fn[WA_STAGE_COUNT_];
    void *payload[WA_STAGE_COUNT_];
    wa_stage_stats stats[WA_STAGE_COUNT_];
    inserted_stage *ins;
    unsigned nins, capins;
    schedule_payload sched;
};

static wa_status schedule_stage(wa_program *prog, wa_pass_stats *stats, void *payload)
{
    const schedule_payload *sp = payload;
    return wa_sched_stage_run(prog, stats, sp->opts, sp->rounds);
}

wa_status wa_pipeline_create(wa_pipeline **out, wa_context *ctx, const wa_pipeline_options *opts)
{
    if (!out || !ctx)
        return WA_E_INVALID;
    *out = NULL;
    wa_diag_reset(ctx);
    wa_status st = check_pipeline_options(ctx, opts);
    if (st)
        return st;
    wa_pipeline *pl = wa_mem_calloc(ctx, 1, sizeof(*pl));
    if (!pl)
        return wa_error_nomem(ctx);
    pl->ctx = ctx;
    wa_pipeline_options defaults = WA_PIPELINE_OPTIONS_INIT;
    pl->opts = defaults;
    if (opts) /* a version-1 struct ends before the schedule fields */
        memcpy(&pl->opts, opts, opts->version >= 2 ? sizeof(*opts)
                                                    : offsetof(wa_pipeline_options, schedule));
    pl->opts.version = WA_PIPELINE_OPTIONS_VERSION;
    /* Copy what the host pointed to, field by field up to its version: later
       fields keep their defaults. */
    {
        wa_cse_options d = WA_CSE_OPTIONS_INIT;
        const wa_cse_options *h = pl->opts.cse;
        pl->cse = d;
        if (h) {
            pl->cse.flags = h->flags;
            if (h->version >= 2) {
                pl->cse.max_vgprs = h->max_vgprs;
                pl->cse.max_sgprs = h->max_sgprs;
                pl->cse.max_agprs = h->max_agprs;
            }
        }
        /* hoisting budgets for the limits the allocation will have */
        if (pl->opts.regalloc) {
            const wa_regalloc_options *ro = pl->opts.regalloc;
            if (!pl->cse.max_vgprs)
                pl->cse.max_vgprs = ro->max_vgprs;
            if (!pl->cse.max_sgprs)
                pl->cse.max_sgprs = ro->max_sgprs;
            if (!pl->cse.max_agprs)
                pl->cse.max_agprs = ro->max_agprs;
        }
        pl->opts.cse = &pl->cse;
    }
    if (pl->opts.peephole) {
        wa_peephole_options d = WA_PEEPHOLE_OPTIONS_INIT;
        pl->peephole = d;
        pl->peephole.flags = pl->opts.peephole->flags;
        pl->opts.peephole = &pl->peephole;
    }
    if (pl->opts.regalloc) {
        wa_regalloc_options d = WA_REGALLOC_OPTIONS_INIT;
        const wa_regalloc_options *h = pl->opts.regalloc;
        pl->regalloc = d;
        memcpy(&pl->regalloc, h, h->version >= 2 ? sizeof(*h) : offsetof(wa_regalloc_options, liveness));
        pl->regalloc.version = WA_REGALLOC_OPTIONS_VERSION;
        pl->regalloc.liveness = NULL; /* computed from the program at that stage */
        pl->opts.regalloc = &pl->regalloc;
    }
    if (pl->opts.waitcnt) {
        wa_waitcnt_options d = WA_WAITCNT_OPTIONS_INIT;
        pl->waitcnt = d;
        pl->waitcnt.flags = pl->opts.waitcnt->flags;
        pl->opts.waitcnt = &pl->waitcnt;
    }
    if (pl->opts.hazards) {
        wa_hazard_options d = WA_HAZARD_OPTIONS_INIT;
        pl->hazards = d;
        pl->hazards.flags = pl->opts.hazards->flags;
        pl->opts.hazards = &pl->hazards;
    }
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++)
        pl->enabled[s] = 1;
    if (pl->opts.flags & WA_PIPELINE_SCHEDULE) {
        pl->sched.opts = pl->opts.schedule;
        pl->sched.rounds = pl->opts.schedule_rounds;
        st = wa_pipeline_insert(pl, WA_STAGE_PEEPHOLE, 1, "schedule", schedule_stage, &pl->sched);
        if (st) {
            wa_pipeline_destroy(pl);
            return st;
        }
    }
    *out = pl;
    return WA_OK;
}

void wa_pipeline_destroy(wa_pipeline *pl)
{
    if (pl) {
        wa_mem_free(pl->ctx, pl->ins);
        wa_mem_free(pl->ctx, pl);
    }
}

static wa_status check_stage(wa_pipeline *pl, wa_stage stage)
{
    if ((unsigned)stage >= WA_STAGE_COUNT_)
        return wa_error(pl->ctx, WA_E_INVALID, WA_LOC_NONE, "unknown stage %d", (int)stage);
    return WA_OK;
}

wa_status wa_pipeline_enable(wa_pipeline *pl, wa_stage stage, int enabled)
{
    if (!pl)
        return WA_E_INVALID;
    wa_diag_reset(pl->ctx);
    wa_status st = check_stage(pl, stage);
    if (!st)
        pl->enabled[stage] = enabled != 0;
    return st;
}

wa_status wa_pipeline_replace(wa_pipeline *pl, wa_stage stage, wa_stage_fn fn, void *payload)
{
    if (!pl)
        return WA_E_INVALID;
    wa_diag_reset(pl->ctx);
    wa_status st = check_stage(pl, stage);
    if (!st) {
        pl->fn[stage] = fn;
        pl->payload[stage] = fn ? payload : NULL;
    }
    return st;
}

wa_status wa_pipeline_insert(wa_pipeline *pl, wa_stage where, int after, const char *name,
                             wa_stage_fn fn, void *payload)
{
    if (!pl)
        return WA_E_INVALID;
    wa_diag_reset(pl->ctx);
    wa_status st = check_stage(pl, where);
    if (st)
        return st;
    if (!fn || !name || !name[0] || strlen(name) > 31)
        return wa_error(pl->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "wa_pipeline_insert: a stage needs a function and a name of 1 to 31 "
                        "characters");
    if (wa_grow(pl->ctx, (void **)&pl->ins, &pl->capins, pl->nins + 1, sizeof(inserted_stage)))
        return wa_error_nomem(pl->ctx);
    inserted_stage *is = &pl->ins[pl->nins++];
    memset(is, 0, sizeof(*is));
    is->where = where;
    is->after = after != 0;
    strcpy(is->name, name);
    is->fn = fn;
    is->payload = payload;
    is->stats.version = WA_STAGE_STATS_VERSION;
    return WA_OK;
}

unsigned wa_pipeline_inserted_count(const wa_pipeline *pl)
{
    return pl ? pl->nins : 0;
}

wa_status wa_pipeline_inserted_stats(wa_stage_stats *out, const char **out_name,
                                     const wa_pipeline *pl, unsigned index)
{
    if (!out || !pl || index >= pl->nins)
        return WA_E_INVALID;
    *out = pl->ins[index].stats;
    out->version = WA_STAGE_STATS_VERSION;
    if (out_name)
        *out_name = pl->ins[index].name;
    return WA_OK;
}

/* After a stage with WA_PIPELINE_VERIFY: the program validates, and the checkers
   of the stages that ran so far hold. */
static wa_status verify_after(wa_pipeline *pl, wa_program *prog, wa_stage stage, int waits_done,
                              int hazards_done)
{
    unsigned errors = 0;
    wa_status st = wa_program_validate(&errors, prog, NULL);
    if (!st && stage == WA_STAGE_REGALLOC && prog->nvregs != 0)
        st = wa_error(pl->ctx, WA_E_INTERNAL, WA_LOC_NONE,
                      "virtual registers remain after register allocation");
    if (!st && waits_done)
        st = wa_check_waitcnt(&errors, prog, pl->opts.waitcnt);
    if (!st && hazards_done)
        st = wa_check_hazards(&errors, prog, pl->opts.hazards);
    if (st)
        wa_error(pl->ctx, st, WA_LOC_NONE, "verification after stage '%s' failed",
                 stage_names[stage]);
    return st;
}

static int has_virtual(const wa_program *prog)
{
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        for (unsigned k = 0; k < in->nops; k++)
            if (in->ops[k].kind == WA_OPND_VIRT)
                return 1;
    }
    return 0;
}

/* Register counts after a stage (physical programs only). */
static void stage_resources(wa_pipeline *pl, wa_program *prog, wa_stage_stats *ss)
{
    if (has_virtual(prog))
        return;
    wa_kernel_resources kr;
    if (wa_kernel_resources_compute(&kr, prog) == WA_OK) {
        ss->peak_vgprs = kr.arch_vgprs;
        ss->peak_sgprs = kr.next_free_sgpr;
        ss->peak_agprs = kr.agprs;
    } else {
        wa_diag_reset(pl->ctx); /* statistics only: not the host's error */
    }
}

/* A host's function in place of a stage, or an inserted stage. */
static wa_status run_host_stage(wa_program *prog, wa_stage_fn fn, void *payload,
                                wa_pass_stats *ps)
{
    memset(ps, 0, sizeof(*ps));
    ps->version = WA_PASS_STATS_VERSION;
    ps->instrs_before = wa_count_instrs(prog);
    wa_status st = fn(prog, ps, payload);
    ps->version = WA_PASS_STATS_VERSION;
    if (ps->instrs_after == 0)
        ps->instrs_after = wa_count_instrs(prog);
    return st;
}

/* The stages inserted before (after = 0) or after library stage `s`. */
static wa_status run_inserted(wa_pipeline *pl, wa_program *prog, unsigned s, int after,
                              int waits_done, int hazards_done)
{
    for (unsigned k = 0; k < pl->nins; k++) {
        inserted_stage *is = &pl->ins[k];
        if ((unsigned)is->where != s || is->after != after)
            continue;
        wa_stage_stats *ss = &is->stats;
        clock_t t0 = clock();
        wa_status st = run_host_stage(prog, is->fn, is->payload, &ss->pass);
        ss->seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
        ss->ran = 1;
        ss->instrs = wa_count_instrs(prog);
        if (st != WA_OK) {
            if (wa_context_diag_count(pl->ctx) == 0)
                wa_error(pl->ctx, st, WA_LOC_NONE, "stage '%s' failed", is->name);
            return st;
        }
        stage_resources(pl, prog, ss);
        if (pl->opts.flags & WA_PIPELINE_VERIFY) {
            unsigned errors = 0;
            st = wa_program_validate(&errors, prog, NULL);
            if (!st && waits_done)
                st = wa_check_waitcnt(&errors, prog, pl->opts.waitcnt);
            if (!st && hazards_done)
                st = wa_check_hazards(&errors, prog, pl->opts.hazards);
            if (st) {
                wa_error(pl->ctx, st, WA_LOC_NONE, "verification after stage '%s' failed",
                         is->name);
                return st;
            }
        }
    }
    return WA_OK;
}

static wa_status run_stages(wa_pipeline *pl, wa_program *prog)
{
    memset(pl->stats, 0, sizeof(pl->stats));
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++)
        pl->stats[s].version = WA_STAGE_STATS_VERSION;
    for (unsigned k = 0; k < pl->nins; k++) {
        memset(&pl->ins[k].stats, 0, sizeof(pl->ins[k].stats));
        pl->ins[k].stats.version = WA_STAGE_STATS_VERSION;
    }
    int waits_done = 0, hazards_done = 0;
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++) {
        wa_stage_stats *ss = &pl->stats[s];
        ss->version = WA_STAGE_STATS_VERSION;
        wa_status st = run_inserted(pl, prog, s, 0, waits_done, hazards_done);
        if (st)
            return st;
        if (pl->enabled[s]) {
            clock_t t0 = clock();
            wa_pass_stats *ps = &ss->pass;
            if (pl->fn[s])
                st = run_host_stage(prog, pl->fn[s], pl->payload[s], ps);
            else
                st = run_stage(prog, (wa_stage)s, &pl->opts, ps,
                               (pl->opts.flags & WA_PIPELINE_VERIFY) != 0);
            ss->seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
            ss->ran = 1;
            ss->instrs = wa_count_instrs(prog);
            if (st != WA_OK) {
                if (wa_context_diag_count(pl->ctx) == 0)
                    wa_error(pl->ctx, st, WA_LOC_NONE, "stage '%s' failed", stage_names[s]);
                return st;
            }
            stage_resources(pl, prog, ss);
            waits_done |= s == WA_STAGE_WAITCNT;
            hazards_done |= s == WA_STAGE_HAZARDS;
            if (pl->opts.flags & WA_PIPELINE_VERIFY) {
                st = verify_after(pl, prog, (wa_stage)s, waits_done, hazards_done);
                if (st)
                    return st;
            }
        }
        st = run_inserted(pl, prog, s, 1, waits_done, hazards_done);
        if (st)
            return st;
    }
    return WA_OK;
}

wa_status wa_pipeline_run(wa_pipeline *pl, wa_program *prog)
{
    if (!pl || !prog)
        return WA_E_INVALID;
    wa_context *ctx = pl->ctx;
    wa_diag_reset(ctx);
    memset(pl->stats, 0, sizeof(pl->stats));
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++)
        pl->stats[s].version = WA_STAGE_STATS_VERSION;
    /* A program the validator rejects is never compiled: the stages assume a
       valid program and would fail later, elsewhere, or emit a broken kernel. */
    if (!(pl->opts.flags & WA_PIPELINE_NO_VALIDATE)) {
        wa_status vst = wa_program_validate(NULL, prog, NULL);
        if (vst)
            return vst;
    }
    /* Hoisting stays within a pressure budget, but the budget is an estimate:
       when the allocation fails after CSE hoisted values, the program as it was
       compiles again without hoisting, so the pipeline never makes a kernel that
       allocates as written fail. */
    wa_program *before = NULL;
    if (pl->enabled[WA_STAGE_CSE] && !pl->fn[WA_STAGE_CSE] &&
        !(pl->cse.flags & WA_CSE_NO_HOIST) && pl->enabled[WA_STAGE_REGALLOC]) {
        wa_status cst = wa_program_clone(&before, prog);
        if (cst)
            return cst;
    }
    wa_status st = run_stages(pl, prog);
    unsigned hoisted = pl->stats[WA_STAGE_CSE].pass.hoisted;
    if (st == WA_E_ALLOC && before && hoisted) {
        wa_program_swap_contents(prog, before);
        unsigned flags = pl->cse.flags;
        pl->cse.flags |= WA_CSE_NO_HOIST;
        wa_diag_reset(ctx);
        wa_log(ctx, "pipeline: allocation failed after cse hoisted %u loop invariants; "
                    "compiling again without hoisting", hoisted);
        st = run_stages(pl, prog);
        pl->cse.flags = flags;
    }
    wa_program_destroy(before);
    return st;
}

wa_status wa_pipeline_stats(wa_stage_stats *out, const wa_pipeline *pl, wa_stage stage)
{
    if (!out || !pl || (unsigned)stage >= WA_STAGE_COUNT_)
        return WA_E_INVALID;
    *out = pl->stats[stage];
    out->version = WA_STAGE_STATS_VERSION;
    return WA_OK;
}

wa_status wa_compile(wa_program *prog, const wa_pipeline_options *opts)
{
    if (!prog)
        return WA_E_INVALID;
    wa_pipeline *pl = NULL;
    wa_status st = wa_pipeline_create(&pl, prog->ctx, opts);
    if (st == WA_OK)
        st = wa_pipeline_run(pl, prog);
    wa_pipeline_destroy(pl);
    return st;
}
