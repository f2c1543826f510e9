/* tests/unit/test_random_alloc.c — liveness and register allocation on random
   kernels from a seeded generator (randprog.c): straight-line code, if/else
   diamonds and triangles, nested do-while loops with several exits and
   loop-carried redefinitions, unreachable blocks, VGPR/SGPR/AGPR singles, pairs,
   quads and octs (and 16-register MFMA results) with their alignments, component
   and sub-range uses, partial definitions, tied and untied MFMA accumulators,
   copies, v_writelane, regions under a narrowed EXEC (where vector writes keep
   the other lanes), and the ABI inputs v0, s[0:1] and s2 read at the start and
   later. Every virtual register component is defined before it is read on every
   path, so allocation must succeed under generous limits.

   For every program: liveness agrees with a brute-force reference; allocation
   succeeds, passes the library's checker and an independent verifier; the
   rewritten program validates with WA_VALIDATE_PHYSICAL and emits assembly; the
   peak stays within the pressure plus a small slack. Under tight limits every
   failure is WA_E_ALLOC with the structured diagnostic and no result, and a
   pressure above a limit always fails. Corrupted allocations are judged alike by
   the checker and the verifier. Failures name their seed, and the first
   failing programs are printed in the text form so that they can be replayed
   with waveasm-opt. */
#include "check.h"
#include "randprog.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wa_target targets[3] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };

/* Prints the program once per failing seed. */
static void dump_program(const wa_program *prog, uint64_t seed, const char *why)
{
    char *text = NULL;
    if (wa_program_print(&text, NULL, prog, NULL) == WA_OK) {
        fprintf(stderr, "---- seed %llu (%s) ----\n%s\n", (unsigned long long)seed, why, text);
        wa_free(text);
    }
}

static wa_program *generate(wa_context *ctx, uint64_t seed, const rp_config *cfg)
{
    wa_program *prog = rp_generate(ctx, targets[seed % 3], seed, cfg);
    if (!prog)
        return NULL;
    unsigned errors = 0;
    wa_status vst = wa_program_validate(&errors, prog, NULL);
    if (!CHECK_MSG(vst == WA_OK,
                   "seed %llu: the generated program does not validate (%u errors):%s",
                   (unsigned long long)seed, errors, ut_diags_text(wa_program_context(prog)))) {
        dump_program(prog, seed, "invalid");
        wa_program_destroy(prog);
        return NULL;
    }
    return prog;
}

/* ---- liveness against the reference --------------------------------------------- */

typedef struct coverage {
    unsigned programs, items, blocks, unreachable_blocks, loops, nested_loops, multi_exit_loops;
    unsigned vregs, tuples, mfma, mfma_tied_candidates, partial_defs, writelanes, moves;
    unsigned live_on_entry_phys_reads;
    unsigned exec_partial_items, kept_lanes; /* writes that keep an old value's lanes */
} coverage;

static void count_coverage(coverage *cv, const wa_program *prog, const wa_liveness *live)
{
    cv->programs++;
    unsigned n = wa_program_size(prog);
    cv->items += n;
    unsigned nb = wa_liveness_block_count(live);
    cv->blocks += nb;
    for (unsigned b = 0; b < nb; b++) {
        wa_block_info bi;
        if (wa_liveness_block(&bi, live, b) == WA_OK && !bi.reachable)
            cv->unreachable_blocks++;
    }
    unsigned nl = wa_liveness_loop_count(live);
    cv->loops += nl;
    for (unsigned l = 0; l < nl; l++) {
        wa_loop_info li;
        if (wa_liveness_loop(&li, live, l) != WA_OK)
            continue;
        cv->nested_loops += li.depth > 1;
        cv->multi_exit_loops += li.num_exits > 1;
    }
    unsigned nv = wa_program_vreg_count(prog);
    cv->vregs += nv;
    for (unsigned v = 0; v < nv; v++) {
        wa_reg_class c;
        unsigned size, align;
        if (wa_program_vreg_info(&c, &size, &align, prog, v) == WA_OK && size > 1)
            cv->tuples++;
    }
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view iv;
        wa_program_get(&iv, prog, i);
        const wa_isa_info *info = wa_isa_get(iv.opcode);
        if (info->flags & WA_IF_MFMA) {
            cv->mfma++;
            if (iv.operands[3].kind == WA_OPND_VIRT && iv.operands[3].id != iv.operands[0].id)
                cv->mfma_tied_candidates++;
        }
        if (iv.opcode == WA_OP_V_WRITELANE_B32)
            cv->writelanes++;
        if (wa_liveness_exec_partial(live, i)) {
            cv->exec_partial_items++;
            /* a VGPR/AGPR write whose old value is live into it (before the MFMA's
               early write, or at the use point otherwise) */
            unsigned pt = (info->flags & WA_IF_MFMA) ? 2 * i - 1 : 2 * i;
            for (unsigned k = 0; k < iv.num_operands && k < info->num_operands && i > 0; k++) {
                const wa_operand *o = &iv.operands[k];
                unsigned role = info->operands[k].role;
                if (o->kind == WA_OPND_VIRT && (role & WA_ROLE_DEF) && !(role & WA_ROLE_USE) &&
                    o->reg_class != WA_REG_SGPR && wa_liveness_is_live(live, o->id, pt))
                    cv->kept_lanes++;
            }
        }
        if (info->flags & WA_IF_MOVE)
            cv->moves++;
        for (unsigned k = 0; k < iv.num_operands && k < info->num_operands; k++) {
            const wa_operand *o = &iv.operands[k];
            if (o->kind != WA_OPND_VIRT || !(info->operands[k].role & WA_ROLE_DEF))
                continue;
            wa_reg_class c;
            unsigned size, align;
            if (wa_program_vreg_info(&c, &size, &align, prog, o->id) == WA_OK && o->count < size)
                cv->partial_defs++;
        }
    }
}

#define SEEDS 260u

static void random_liveness_matches_reference(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    coverage cv;
    memset(&cv, 0, sizeof(cv));
    unsigned bad_seeds = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        ut_context("liveness of random program, seed %llu", (unsigned long long)seed);
        cfg.items = 40 + (unsigned)(seed % 90);
        wa_program *prog = generate(ctx, seed, &cfg);
        if (!prog)
            continue;
        wa_liveness *live = NULL;
        wa_liveness_options lo = WA_LIVENESS_OPTIONS_INIT;
        if (!CHECK_OK(wa_liveness_compute(&live, prog, &lo))) {
            wa_program_destroy(prog);
            continue;
        }
        rp_ref *ref = rp_ref_compute(prog);
        unsigned diffs = rp_compare_liveness(ref, prog, live, bad_seeds < 3 ? 8 : 0);
        if (diffs && bad_seeds++ < 2)
            dump_program(prog, seed, "liveness differs");
        CHECK_MSG(diffs == 0, "seed %llu: %u differences from the reference",
                  (unsigned long long)seed, diffs);
        count_coverage(&cv, prog, live);
        rp_ref_free(ref);
        wa_liveness_destroy(live);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    printf("     %u programs, %u items, %u blocks (%u unreachable), %u loops (%u nested, %u with"
           " several exits), %u vregs (%u tuples), %u MFMAs (%u with a separate srcC), %u partial"
           " definitions, %u v_writelane, %u moves; %u items under a narrowed EXEC, %u writes"
           " there keeping an old value's lanes\n",
           cv.programs, cv.items, cv.blocks, cv.unreachable_blocks, cv.loops, cv.nested_loops,
           cv.multi_exit_loops, cv.vregs, cv.tuples, cv.mfma, cv.mfma_tied_candidates,
           cv.partial_defs, cv.writelanes, cv.moves, cv.exec_partial_items, cv.kept_lanes);
    /* The generator really produces what it claims to. */
    CHECK(cv.unreachable_blocks > 0);
    CHECK(cv.nested_loops > 0);
    CHECK(cv.multi_exit_loops > 0);
    CHECK(cv.mfma_tied_candidates > 0);
    CHECK(cv.partial_defs > 0);
    CHECK(cv.writelanes > 0);
    CHECK(cv.exec_partial_items > 0);
    CHECK(cv.kept_lanes > 0);
    wa_context_destroy(ctx);
}

/* ---- allocation -------------------------------------------------------------------- */

/* Allocates, checks with the library's checker and the independent verifier,
   applies to a copy, validates it as physical and emits it. Returns the result
   (caller destroys) or NULL after recording failures. */
static wa_regalloc_result *allocate_and_verify(wa_program *prog, const rp_ref *ref,
                                               const wa_regalloc_options *o, uint64_t seed,
                                               wa_status *out_status)
{
    wa_context *ctx = wa_program_context(prog);
    wa_regalloc_result *res = (wa_regalloc_result *)(uintptr_t)1; /* must be overwritten */
    wa_status st = wa_regalloc_run(&res, prog, o);
    *out_status = st;
    if (st != WA_OK) {
        CHECK_MSG(res == NULL, "seed %llu: failed allocation left a result", (unsigned long long)seed);
        return NULL;
    }
    if (!CHECK(res != NULL))
        return NULL;
    unsigned errors = 99;
    wa_status cst = wa_regalloc_check(&errors, prog, res, o);
    CHECK_MSG(cst == WA_OK && errors == 0,
              "seed %llu: wa_regalloc_check found %u errors:%s", (unsigned long long)seed, errors,
              ut_diags_text(ctx));
    unsigned bad = rp_verify_allocation(ref, prog, res, o, 1, 5);
    CHECK_MSG(bad == 0, "seed %llu: the independent verifier found %u problems",
              (unsigned long long)seed, bad);
    wa_program *copy = NULL;
    if (CHECK_OK(wa_program_clone(&copy, prog))) {
        unsigned removed = 0, moves_before = 0, moves_after = 0;
        for (unsigned i = 0; i < wa_program_size(copy); i++) {
            wa_instr_view iv;
            wa_program_get(&iv, copy, i);
            moves_before += (wa_isa_get(iv.opcode)->flags & WA_IF_MOVE) != 0;
        }
        if (CHECK_OK(wa_regalloc_apply(copy, res, &removed))) {
            for (unsigned i = 0; i < wa_program_size(copy); i++) {
                wa_instr_view iv;
                wa_program_get(&iv, copy, i);
                moves_after += (wa_isa_get(iv.opcode)->flags & WA_IF_MOVE) != 0;
                for (unsigned k = 0; k < iv.num_operands; k++)
                    CHECK(iv.operands[k].kind != WA_OPND_VIRT);
            }
            CHECK_EQ_UINT(moves_before - moves_after, removed);
            CHECK_EQ_UINT(wa_program_size(copy) + removed, wa_program_size(prog));
            CHECK_EQ_UINT(wa_program_vreg_count(copy), 0);
            wa_validate_options vo = WA_VALIDATE_OPTIONS_INIT;
            vo.flags = WA_VALIDATE_PHYSICAL;
            unsigned verr = 0;
            wa_status vst = wa_program_validate(&verr, copy, &vo);
            if (!CHECK_MSG(vst == WA_OK,
                           "seed %llu: allocated program does not validate (%u errors):%s",
                           (unsigned long long)seed, verr, ut_diags_text(ctx)))
                dump_program(copy, seed, "allocated program invalid");
            char *text = NULL;
            size_t len = 0;
            if (CHECK_OK(wa_emit_asm(&text, &len, copy, NULL)))
                CHECK(len > 0);
            wa_free(text);
        }
        wa_program_destroy(copy);
    }
    return res;
}

typedef struct ratio {
    double worst;
    unsigned peak, pressure;
    uint64_t seed;
    char cls;
} ratio;

static void note_ratio(ratio *r, unsigned peak, unsigned pressure, uint64_t seed, char cls)
{
    if (!pressure)
        return;
    double q = (double)peak / (double)pressure;
    if (q > r->worst) {
        r->worst = q;
        r->peak = peak;
        r->pressure = pressure;
        r->seed = seed;
        r->cls = cls;
    }
}

/* 1 if some register of `cls` declares a larger alignment than its tuple rule. */
static int over_aligned(const wa_program *prog, wa_reg_class cls)
{
    for (unsigned v = 0; v < wa_program_vreg_count(prog); v++) {
        wa_reg_class c;
        unsigned size, align;
        if (wa_program_vreg_info(&c, &size, &align, prog, v) == WA_OK && c == cls &&
            align > wa_target_tuple_align(wa_program_target(prog), c, size))
            return 1;
    }
    return 0;
}

static void random_allocation_generous_limits(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    ratio worst = { 1.0, 0, 0, 0, '-' }, worst_plain = { 1.0, 0, 0, 0, '-' };
    unsigned ok = 0, tied = 0, coalesced = 0, holes = 0, equal = 0, total = 0, above_bound = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        ut_context("allocation of random program, seed %llu", (unsigned long long)seed);
        cfg.items = 40 + (unsigned)(seed % 90);
        wa_program *prog = generate(ctx, seed, &cfg);
        if (!prog)
            continue;
        rp_ref *ref = rp_ref_compute(prog);
        wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
        if (seed % 2)
            o.flags |= WA_REGALLOC_CHECK;
        if (seed % 5 == 0)
            o.flags |= WA_REGALLOC_NO_COALESCE;
        if (seed % 7 == 0)
            o.flags |= WA_REGALLOC_NO_HOLES;
        wa_status st;
        wa_regalloc_result *res = allocate_and_verify(prog, ref, &o, seed, &st);
        if (!CHECK_MSG(st == WA_OK, "seed %llu: allocation failed (%d):%s", (unsigned long long)seed,
                       (int)st, ut_diags_text(ctx)))
            dump_program(prog, seed, "allocation failed");
        if (res) {
            ok++;
            wa_regalloc_stats s;
            CHECK_OK(wa_regalloc_get_stats(&s, res));
            CHECK_EQ_UINT(s.version, WA_REGALLOC_STATS_VERSION);
            unsigned mp[4];
            for (unsigned c = 1; c <= 3; c++)
                mp[c] = rp_ref_max_pressure(ref, (wa_reg_class)c, NULL);
            CHECK_EQ_UINT(s.max_pressure_vgpr, mp[WA_REG_VGPR]);
            CHECK_EQ_UINT(s.max_pressure_sgpr, mp[WA_REG_SGPR]);
            CHECK_EQ_UINT(s.max_pressure_agpr, mp[WA_REG_AGPR]);
            /* The peak is never below what any allocation needs (the registers live
               at once before or after an instruction, and the physical registers the
               program names), and above it only by what alignment and the hull of
               each interval (lifetime holes across branches) cost. The liveness
               pressure (MaxLive, with MFMA vdst live from the use point, tied to a
               srcC that ends there) is a lower bound too. */
            unsigned lb[4], pk[4] = { 0, s.peak_vgprs, s.peak_sgprs, s.peak_agprs };
            static const char cl[4] = { '?', 'v', 's', 'a' };
            for (unsigned c = 1; c <= 3; c++) {
                lb[c] = rp_ref_alloc_lower_bound(ref, (wa_reg_class)c);
                CHECK_MSG(pk[c] >= lb[c], "seed %llu: %c peak %u below the lower bound %u",
                          (unsigned long long)seed, cl[c], pk[c], lb[c]);
                CHECK_MSG(pk[c] >= mp[c], "seed %llu: %c peak %u below the max pressure %u",
                          (unsigned long long)seed, cl[c], pk[c], mp[c]);
                unsigned bound = lb[c] > mp[c] ? lb[c] : mp[c];
                CHECK_MSG(pk[c] <= bound + bound / 2 + 8, "seed %llu: %c peak %u for a bound of %u",
                          (unsigned long long)seed, cl[c], pk[c], bound);
                note_ratio(&worst, pk[c], bound, seed, cl[c]);
                if (!over_aligned(prog, (wa_reg_class)c))
                    note_ratio(&worst_plain, pk[c], bound, seed, cl[c]);
                total++;
                equal += pk[c] == bound;
                above_bound += mp[c] > lb[c];
            }
            if (o.flags & WA_REGALLOC_NO_COALESCE)
                CHECK_EQ_UINT(s.coalesced, 0);
            if (o.flags & WA_REGALLOC_NO_HOLES) {
                CHECK_EQ_UINT(s.hole_fits, 0);
                unsigned shared = rp_hole_sharing(ref, prog, res);
                CHECK_MSG(shared == 0,
                          "seed %llu: with WA_REGALLOC_NO_HOLES, %u pairs of values share a"
                          " register inside each other's lifetime hull",
                          (unsigned long long)seed, shared);
            }
            tied += s.tied;
            coalesced += s.coalesced;
            holes += s.hole_fits;
            wa_regalloc_destroy(res);
        }
        rp_ref_free(ref);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    printf("     %u/%u allocated; peak == lower bound for %u of %u classes; worst peak/bound %.3f"
           " (%c: %u for %u, seed %llu), %.3f without declared over-alignment (%c: %u for %u,"
           " seed %llu); %u MFMA ties, %u moves coalesced, %u hole fits;"
           " max pressure above the before/after bound in %u classes\n",
           ok, SEEDS, equal, total, worst.worst, worst.cls, worst.peak, worst.pressure,
           (unsigned long long)worst.seed, worst_plain.worst, worst_plain.cls, worst_plain.peak,
           worst_plain.pressure, (unsigned long long)worst_plain.seed, tied, coalesced, holes,
           above_bound);
    CHECK(tied > 0);
    CHECK(coalesced > 0);
    wa_context_destroy(ctx);
}

/* Straight-line code with single VGPRs/AGPRs, no redefinitions: an interval graph,
   where linear scan is optimal. The VGPR and AGPR peaks must equal the pressure. */
static void random_straight_line_peak_equals_pressure(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.loops = cfg.ifs = cfg.unreachable = cfg.masked = 0;
    cfg.tuples = cfg.holes = cfg.phys_temps = 0;
    unsigned checked = 0;
    for (uint64_t seed = 1000; seed < 1000 + SEEDS / 2; seed++) {
        ut_context("straight-line program, seed %llu", (unsigned long long)seed);
        cfg.items = 30 + (unsigned)(seed % 80);
        wa_program *prog = generate(ctx, seed, &cfg);
        if (!prog)
            continue;
        rp_ref *ref = rp_ref_compute(prog);
        wa_liveness *live = NULL;
        if (CHECK_OK(wa_liveness_compute(&live, prog, NULL)))
            CHECK_EQ_UINT(rp_compare_liveness(ref, prog, live, 4), 0);
        wa_liveness_destroy(live);
        wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
        wa_status st;
        wa_regalloc_result *res = allocate_and_verify(prog, ref, &o, seed, &st);
        CHECK_MSG(st == WA_OK, "seed %llu: %s", (unsigned long long)seed, ut_diags_text(ctx));
        if (res) {
            wa_regalloc_stats s;
            CHECK_OK(wa_regalloc_get_stats(&s, res));
            if (!CHECK_EQ_UINT(s.peak_vgprs, s.max_pressure_vgpr) ||
                !CHECK_EQ_UINT(s.peak_agprs, s.max_pressure_agpr))
                dump_program(prog, seed, "peak above pressure");
            CHECK_EQ_UINT(s.hole_fits, 0);
            checked++;
            /* and with exactly that many registers it still fits */
            o.max_vgprs = s.max_pressure_vgpr > 4 ? s.max_pressure_vgpr : 4;
            o.max_agprs = s.max_pressure_agpr > 4 ? s.max_pressure_agpr : 4;
            wa_regalloc_result *tight = allocate_and_verify(prog, ref, &o, seed, &st);
            CHECK_MSG(st == WA_OK, "seed %llu: allocation in %u VGPRs / %u AGPRs failed:%s",
                      (unsigned long long)seed, o.max_vgprs, o.max_agprs, ut_diags_text(ctx));
            wa_regalloc_destroy(tight);
            wa_regalloc_destroy(res);
        }
        rp_ref_free(ref);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    CHECK(checked > SEEDS / 4);
    wa_context_destroy(ctx);
}

/* The failure diagnostic: an error naming the value, then notes for the values it
   overlaps (longest first), the precolored registers it overlaps, the pool, and
   whether the class's pressure (the reference's) exceeds the registers the limit
   leaves. */
static int check_failure_shape(wa_context *ctx, uint64_t seed, const rp_ref *ref,
                               const wa_regalloc_options *o)
{
    unsigned n = wa_context_diag_count(ctx);
    if (!CHECK_MSG(n >= 3, "seed %llu: %u diagnostics", (unsigned long long)seed, n))
        return 0;
    const wa_diag *e = wa_context_diag(ctx, 0);
    int ok = CHECK(e->severity == WA_SEVERITY_ERROR) && CHECK_EQ_INT(e->status, WA_E_ALLOC);
    ok &= CHECK_MSG(strncmp(e->message, "cannot allocate %", 17) == 0, "error: %s", e->message);
    wa_reg_class cls = strstr(e->message, "(VGPR x") ? WA_REG_VGPR
                     : strstr(e->message, "(SGPR x") ? WA_REG_SGPR
                     : strstr(e->message, "(AGPR x") ? WA_REG_AGPR : WA_REG_NONE;
    ok &= CHECK_MSG(strstr(e->message, "align ") && strstr(e->message, "live from I") &&
                        cls != WA_REG_NONE,
                    "error: %s", e->message);
    CHECK(wa_context_last_diag(ctx) && wa_context_last_diag(ctx)->severity == WA_SEVERITY_ERROR);
    unsigned prev = 0xFFFFFFFFu, stage = 0;
    for (unsigned i = 1; i < n; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        ok &= CHECK_MSG(d->severity == WA_SEVERITY_NOTE, "diagnostic %u is not a note: %s", i,
                        d->message);
        if (strncmp(d->message, "overlaps %", 10) == 0) {
            ok &= CHECK_MSG(stage == 0, "value notes after the precolored/pool notes: %s", d->message);
            const char *p = strrchr(d->message, '(');
            unsigned pts = 0;
            ok &= CHECK_MSG(p && sscanf(p, "(%u points)", &pts) == 1, "note: %s", d->message);
            ok &= CHECK_MSG(pts <= prev, "notes not longest first: %u after %u", pts, prev);
            ok &= CHECK_MSG(i <= 16, "more than 16 value notes: %s", d->message);
            prev = pts;
        } else if (strncmp(d->message, "... and ", 8) == 0) {
            /* the values beyond the 16 longest, counted */
            ok &= CHECK_MSG(stage == 0 && i == 17 && strstr(d->message, "more overlapping values"),
                            "note %u: %s", i, d->message);
        } else if (strncmp(d->message, "overlaps precolored ", 20) == 0) {
            ok &= CHECK_MSG(stage <= 1, "precolored note after the pool: %s", d->message);
            stage = 1;
        } else if (stage < 2) {
            ok &= CHECK_MSG(i == n - 2 && strstr(d->message, " pool at I") &&
                                strstr(d->message, "(limit "),
                            "unexpected note %u: %s", i, d->message);
            stage = 2;
        } else if (cls != WA_REG_NONE) {
            /* the last note: pressure against the limit */
            static const char *const name[4] = { "", "VGPR", "SGPR", "AGPR" };
            unsigned limit = cls == WA_REG_VGPR ? o->max_vgprs
                           : cls == WA_REG_SGPR ? o->max_sgprs : o->max_agprs;
            unsigned p = rp_ref_max_pressure(ref, cls, NULL);
            char want[96];
            if (p > limit)
                snprintf(want, sizeof(want), "%u %ss are live at once at I", p, name[cls]);
            else
                snprintf(want, sizeof(want), "at most %u %ss are live at once (I", p, name[cls]);
            ok &= CHECK_MSG(strncmp(d->message, want, strlen(want)) == 0,
                            "pressure note: \"%s\", want it to start \"%s\"", d->message, want);
            snprintf(want, sizeof(want), " the %u ", limit);
            ok &= CHECK_MSG(strstr(d->message, want) != NULL, "pressure note: \"%s\", limit %u",
                            d->message, limit);
            ok &= CHECK_MSG(i == n - 1, "note after the pressure note");
            stage = 3;
        }
    }
    ok &= CHECK_MSG(stage == 3, "no pool state or pressure note:%s", ut_diags_text(ctx));
    return ok;
}

static void random_allocation_tight_limits(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    rp_rng rng;
    rp_seed(&rng, 77);
    unsigned runs = 0, failures = 0, forced = 0, fit_at_pressure = 0, at_pressure = 0;
    unsigned fragmentation = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        ut_context("tight limits, seed %llu", (unsigned long long)seed);
        cfg.items = 40 + (unsigned)(seed % 90);
        wa_program *prog = generate(ctx, seed, &cfg);
        if (!prog)
            continue;
        rp_ref *ref = rp_ref_compute(prog);
        /* What any allocation needs: the registers live at once before/after each
           instruction, and the pressure (MFMA vdst from the use point). */
        unsigned mp[4];
        for (unsigned c = 1; c <= 3; c++) {
            unsigned lb = rp_ref_alloc_lower_bound(ref, (wa_reg_class)c);
            unsigned p = rp_ref_max_pressure(ref, (wa_reg_class)c, NULL);
            mp[c] = lb > p ? lb : p;
        }
        for (unsigned variant = 0; variant < 3; variant++) {
            wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
            unsigned lim[4];
            for (unsigned c = 1; c <= 3; c++) {
                /* variant 0: exactly the lower bound; 1: one below in one class;
                   2: a random limit around it. Never below 4 (the generator's
                   physical registers are v0, v1, s0-s3, a1). */
                unsigned want = mp[c];
                if (variant == 1 && c == 1 + seed % 3)
                    want = mp[c] ? mp[c] - 1 : 0;
                if (variant == 2)
                    want = mp[c] / 2 + rp_below(&rng, mp[c] + 2);
                lim[c] = want < 4 ? 4 : want;
            }
            o.max_vgprs = lim[1] > 256 ? 256 : lim[1];
            o.max_sgprs = lim[2] > 102 ? 102 : lim[2];
            o.max_agprs = lim[3] > 256 ? 256 : lim[3];
            if (variant == 2 && rp_chance(&rng, 30))
                o.flags |= WA_REGALLOC_NO_HOLES;
            if (variant == 2 && rp_chance(&rng, 30))
                o.flags |= WA_REGALLOC_NO_COALESCE;
            int must_fail = mp[1] > o.max_vgprs || mp[2] > o.max_sgprs || mp[3] > o.max_agprs;
            wa_status st;
            wa_regalloc_result *res = allocate_and_verify(prog, ref, &o, seed, &st);
            runs++;
            if (st == WA_OK && (o.flags & WA_REGALLOC_NO_HOLES))
                CHECK_MSG(rp_hole_sharing(ref, prog, res) == 0,
                          "seed %llu: values share a register inside each other's lifetime hull"
                          " under WA_REGALLOC_NO_HOLES", (unsigned long long)seed);
            if (st == WA_OK) {
                CHECK_MSG(!must_fail, "seed %llu: allocated although the registers live at once"
                          " (%u, %u, %u) exceed the limits (%u, %u, %u)",
                          (unsigned long long)seed, mp[1], mp[2], mp[3], o.max_vgprs, o.max_sgprs,
                          o.max_agprs);
                if (variant == 0) {
                    at_pressure++;
                    fit_at_pressure++;
                }
            } else {
                failures++;
                forced += must_fail;
                if (variant == 0)
                    at_pressure++;
                if (!must_fail)
                    fragmentation++;
                if (CHECK_MSG(st == WA_E_ALLOC, "seed %llu: status %d, not WA_E_ALLOC:%s",
                              (unsigned long long)seed, (int)st, ut_diags_text(ctx)))
                    check_failure_shape(ctx, seed, ref, &o);
            }
            wa_regalloc_destroy(res);
        }
        rp_ref_free(ref);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    printf("     %u runs: %u failed with WA_E_ALLOC (%u forced: more registers live at once than a limit allows; %u by"
           " alignment or interval hulls); %u of %u fit in exactly their lower bound\n",
           runs, failures, forced, fragmentation, fit_at_pressure, at_pressure);
    CHECK(forced > 0);
    CHECK(failures < runs);
    wa_context_destroy(ctx);
}

/* Reserved registers at random: never handed out, and the result still checks. */
static void random_allocation_reserved_registers(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    rp_rng rng;
    rp_seed(&rng, 4242);
    unsigned ok = 0;
    for (uint64_t seed = 500; seed < 500 + SEEDS / 2; seed++) {
        ut_context("reserved registers, seed %llu", (unsigned long long)seed);
        cfg.items = 40 + (unsigned)(seed % 60);
        wa_program *prog = generate(ctx, seed, &cfg);
        if (!prog)
            continue;
        rp_ref *ref = rp_ref_compute(prog);
        wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
        for (unsigned k = 0; k < 12; k++) {
            o.reserved_vgprs[0] |= 1u << rp_below(&rng, 32);
            o.reserved_sgprs[0] |= 1u << rp_below(&rng, 32);
            o.reserved_agprs[0] |= 1u << rp_below(&rng, 32);
        }
        wa_status st;
        wa_regalloc_result *res = allocate_and_verify(prog, ref, &o, seed, &st);
        CHECK_MSG(st == WA_OK, "seed %llu:%s", (unsigned long long)seed, ut_diags_text(ctx));
        if (res) {
            ok++;
            for (unsigned v = 0; v < wa_program_vreg_count(prog); v++) {
                wa_operand ph;
                if (wa_regalloc_lookup(&ph, res, v) != WA_OK)
                    continue;
                const uint32_t *mask = ph.reg_class == WA_REG_VGPR   ? o.reserved_vgprs
                                       : ph.reg_class == WA_REG_SGPR ? o.reserved_sgprs
                                                                     : o.reserved_agprs;
                for (unsigned r = ph.id; r < ph.id + ph.count && r < 32; r++)
                    CHECK_MSG(!((mask[0] >> r) & 1u), "seed %llu: %%%u got reserved register %u",
                              (unsigned long long)seed, v, r);
            }
            /* The checker sees the reserved set: with no reservations the same
               result is fine, and it is fine for the verifier too. */
            unsigned errors = 99;
            CHECK_OK(wa_regalloc_check(&errors, prog, res, NULL));
            CHECK_EQ_UINT(errors, 0);
            wa_regalloc_destroy(res);
        }
        rp_ref_free(ref);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    CHECK(ok > SEEDS / 4);
    wa_context_destroy(ctx);
}

/* Unstructured control flow: random conditional branches added to structured
   programs make irreducible cycles, jumps into loops and out of nested loops,
   and paths that skip definitions. Liveness must still agree with the
   reference; a program with a value read before it is defined on some path is
   refused with WA_E_VALIDATE naming it, any other is allocated and verified. */
static void random_unstructured_control_flow(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    rp_rng rng;
    rp_seed(&rng, 99);
    unsigned refused = 0, allocated = 0, irreducible = 0;
    for (uint64_t seed = 3000; seed < 3000 + SEEDS / 2; seed++) {
        ut_context("unstructured program, seed %llu", (unsigned long long)seed);
        cfg.items = 30 + (unsigned)(seed % 60);
        wa_program *prog = generate(ctx, seed, &cfg);
        if (!prog)
            continue;
        unsigned labels[64], nl = 0, n = wa_program_size(prog);
        for (unsigned i = 0; i < n && nl < 64; i++) {
            wa_instr_view iv;
            wa_program_get(&iv, prog, i);
            if (iv.opcode == WA_OP_LABEL)
                labels[nl++] = iv.operands[0].id;
        }
        for (unsigned k = nl ? 1 + rp_below(&rng, 4) : 0; k > 0; k--) {
            unsigned at = rp_below(&rng, wa_program_size(prog));
            CHECK_OK(wa_program_set_insert_point(prog, at));
            CHECK_OK(wa_build_branch(NULL, prog,
                                     rp_chance(&rng, 50) ? WA_OP_S_CBRANCH_SCC0 : WA_OP_S_CBRANCH_SCC1,
                                     labels[rp_below(&rng, nl)]));
        }
        wa_liveness *live = NULL;
        if (CHECK_OK(wa_liveness_compute(&live, prog, NULL))) {
            rp_ref *ref = rp_ref_compute(prog);
            if (!CHECK_EQ_UINT(rp_compare_liveness(ref, prog, live, 6), 0))
                dump_program(prog, seed, "liveness differs");
            unsigned entry_n = 0;
            const unsigned *entry = wa_liveness_live_on_entry(live, &entry_n);
            wa_regalloc_result *res = (wa_regalloc_result *)(uintptr_t)1;
            wa_status st = wa_regalloc_run(&res, prog, NULL);
            if (entry_n) {
                refused++;
                CHECK_EQ_INT(st, WA_E_VALIDATE);
                CHECK(res == NULL);
                char want[64];
                wa_reg_class c;
                unsigned size, align;
                wa_program_vreg_info(&c, &size, &align, prog, entry[0]);
                snprintf(want, sizeof(want), "%%%c%u may be read before it is defined",
                         c == WA_REG_VGPR ? 'v' : c == WA_REG_SGPR ? 's' : 'a', entry[0]);
                CHECK_MSG(ut_find_diag(ctx, want) != NULL, "no \"%s\":%s", want, ut_diags_text(ctx));
            } else if (CHECK_MSG(st == WA_OK, "seed %llu: %d:%s", (unsigned long long)seed, (int)st,
                                 ut_diags_text(ctx))) {
                allocated++;
                unsigned errors = 99;
                wa_status cst = wa_regalloc_check(&errors, prog, res, NULL);
                CHECK_MSG(cst == WA_OK && errors == 0, "seed %llu: checker: %u errors:%s",
                          (unsigned long long)seed, errors, ut_diags_text(ctx));
                CHECK_EQ_UINT(rp_verify_allocation(ref, prog, res, NULL, 1, 5), 0);
                wa_regalloc_destroy(res);
            }
            for (unsigned b = 0; b < wa_liveness_block_count(live); b++) {
                wa_block_info bi;
                unsigned np;
                const unsigned *p = wa_liveness_preds(live, b, &np);
                if (wa_liveness_block(&bi, live, b) != WA_OK || !bi.reachable)
                    continue;
                for (unsigned e = 0; e < np; e++) {
                    wa_block_info pb;
                    /* an edge from a later block into a block outside every
                       natural loop: a retreating edge that is no back edge
                       (coverage of irreducible flow, counted for the summary) */
                    if (p[e] >= b && wa_liveness_block(&pb, live, p[e]) == WA_OK && pb.reachable &&
                        bi.loop == WA_NONE)
                        irreducible++;
                }
            }
            rp_ref_free(ref);
        }
        wa_liveness_destroy(live);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    printf("     %u allocated, %u refused (read before definition); %u retreating edges outside"
           " natural loops\n",
           allocated, refused, irreducible);
    CHECK(allocated > 0);
    CHECK(refused > 0);
    wa_context_destroy(ctx);
}

/* ---- the checker against corrupted allocations ------------------------------------ */

/* Each correct allocation is corrupted one register at a time: a virtual register
   is moved onto the registers of another of its class. The library's checker and
   the brute-force verifier (the reference's own liveness, point by point) must
   agree on every corrupted mapping, conflict or not, across loops and branches. */
static void random_corruptions_checker_agrees(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    rp_rng rng;
    rp_seed(&rng, 7);
    unsigned tried = 0, caught = 0, clean = 0;
    for (uint64_t seed = 4000; seed < 4000 + SEEDS / 4; seed++) {
        ut_context("corruptions, seed %llu", (unsigned long long)seed);
        wa_program *prog = generate(ctx, seed, &cfg);
        if (!prog)
            continue;
        wa_regalloc_result *res = NULL;
        if (!CHECK_OK(wa_regalloc_run(&res, prog, NULL))) {
            wa_program_destroy(prog);
            continue;
        }
        rp_ref *ref = rp_ref_compute(prog);
        unsigned nv = wa_program_vreg_count(prog);
        for (unsigned k = 0; k < 12 && nv > 1; k++) {
            unsigned v = rp_below(&rng, nv), w = rp_below(&rng, nv);
            wa_operand pv, pw;
            if (v == w || wa_regalloc_lookup(&pv, res, v) != WA_OK ||
                wa_regalloc_lookup(&pw, res, w) != WA_OK || pv.reg_class != pw.reg_class ||
                pv.id == pw.id)
                continue;
            unsigned file = pv.reg_class == WA_REG_SGPR ? 128u : 256u;
            if (pw.id + pv.count > file)
                continue;
            CHECK_OK(wa_regalloc_assign(res, v, pw.id));
            unsigned errors = 0;
            wa_status cst = wa_regalloc_check(&errors, prog, res, NULL);
            unsigned bad = rp_verify_allocation(ref, prog, res, NULL, 0, 0);
            tried++;
            if (!CHECK_MSG((cst == WA_E_VALIDATE) == (bad > 0) && (errors > 0) == (bad > 0),
                           "seed %llu: %%%u moved from %u to %u: checker %d with %u errors, "
                           "verifier %u violations:%s",
                           (unsigned long long)seed, v, pv.id, pw.id, (int)cst, errors, bad,
                           ut_diags_text(ctx)))
                dump_program(prog, seed, "checker and verifier disagree");
            if (bad)
                caught++;
            else
                clean++;
            CHECK_OK(wa_regalloc_assign(res, v, pv.id));
        }
        /* restored: clean again */
        unsigned errors = 0;
        CHECK_OK(wa_regalloc_check(&errors, prog, res, NULL));
        rp_ref_free(ref);
        wa_regalloc_destroy(res);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    printf("     %u corrupted allocations: %u with a conflict or misalignment, %u still valid;"
           " checker and verifier agree on all\n",
           tried, caught, clean);
    CHECK(caught > tried / 4);
    CHECK(clean > 0);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(random_liveness_matches_reference) UT_CASE(random_allocation_generous_limits)
             UT_CASE(random_straight_line_peak_equals_pressure)
                 UT_CASE(random_allocation_tight_limits)
                     UT_CASE(random_allocation_reserved_registers)
                         UT_CASE(random_unstructured_control_flow)
                             UT_CASE(random_corruptions_checker_agrees));
