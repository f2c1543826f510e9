/* tests/fuzz/fuzz_pipeline.c — the default pipeline on every valid parsed
   program, one stage at a time, with the independent checkers after each stage:

     stage      after it
     cse        validator
     peephole   validator
     regalloc   allocation checker on the allocation, validator (physical)
     waitcnt    validator (physical), wa_check_waitcnt
     hazards    validator (physical), wa_check_waitcnt, wa_check_hazards

   A stage may fail cleanly (registers that do not fit: WA_E_ALLOC; a register
   read before it is defined on some path: WA_E_VALIDATE); the run then stops.
   A checker that rejects a stage's successful output is a finding. The whole
   pipeline with WA_PIPELINE_VERIFY on a copy must end the same way: the same
   program (equal, same text) or the same failure. The result also prints and
   parses back and emits assembly.

   Each input runs twice: with the default options, and with options picked from
   a hash of the input (pass flags, register limits and reserved registers,
   waitcnt barrier flags), so that allocation under pressure and the passes'
   switches are covered too. The peephole, waitcnt and hazard passes must also
   leave their own output unchanged when run again. */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options of every stage: the defaults, or (variant) flags, register limits
   and reserved registers picked from `h`, so that allocation under pressure
   and the passes' switches are exercised too. */
typedef struct options {
    wa_pipeline_options po;
    wa_cse_options cse;
    wa_peephole_options peephole;
    wa_regalloc_options regalloc;
    wa_waitcnt_options waitcnt;
    wa_hazard_options hazards;
} options;

static void options_init(options *o, uint64_t h, int variant)
{
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    wa_cse_options cse = WA_CSE_OPTIONS_INIT;
    wa_peephole_options ph = WA_PEEPHOLE_OPTIONS_INIT;
    wa_regalloc_options ra = WA_REGALLOC_OPTIONS_INIT;
    wa_waitcnt_options wc = WA_WAITCNT_OPTIONS_INIT;
    wa_hazard_options hz = WA_HAZARD_OPTIONS_INIT;
    if (variant) {
        static const unsigned vgprs[] = { 8, 16, 32, 64, 128, 256 };
        static const unsigned sgprs[] = { 8, 16, 24, 48, 102, 102 };
        static const unsigned agprs[] = { 0, 4, 16, 64, 256, 256 };
        cse.flags = h & WA_CSE_NO_HOIST;
        ph.flags = (unsigned)(h >> 1) & 0xFu;
        ra.max_vgprs = vgprs[(h >> 5) % 6];
        ra.max_sgprs = sgprs[(h >> 8) % 6];
        ra.max_agprs = agprs[(h >> 11) % 6];
        ra.flags = (unsigned)(h >> 14) & (WA_REGALLOC_NO_COALESCE | WA_REGALLOC_NO_HOLES);
        if ((h >> 16) & 1) {
            ra.reserved_vgprs[0] = (uint32_t)(h >> 17) & 0x0F0Fu;
            ra.reserved_sgprs[0] = (uint32_t)(h >> 29) & 0xF000u;
            ra.reserved_agprs[0] = (uint32_t)(h >> 33) & 0x3u;
        }
        wc.flags = (unsigned)(h >> 40) % 3; /* none, BARRIER_VMEM, NO_BARRIER */
    }
    o->po = po;
    o->cse = cse;
    o->peephole = ph;
    o->regalloc = ra;
    o->waitcnt = wc;
    o->hazards = hz;
    o->po.cse = &o->cse;
    o->po.peephole = &o->peephole;
    o->po.regalloc = &o->regalloc;
    o->po.waitcnt = &o->waitcnt;
    o->po.hazards = &o->hazards;
}

static void checks_after(wa_program *prog, wa_stage stage, const options *o)
{
    wa_context *ctx = wa_program_context(prog);
    const char *name = wa_stage_name(stage);
    wa_validate_options vo = WA_VALIDATE_OPTIONS_INIT;
    if (stage >= WA_STAGE_REGALLOC)
        vo.flags = WA_VALIDATE_PHYSICAL;
    unsigned errors = 0;
    if (wa_program_validate(&errors, prog, &vo) != WA_OK)
        fz_fail(ctx, "the output of '%s' does not validate (%u errors)", name, errors);
    if (stage >= WA_STAGE_WAITCNT && wa_check_waitcnt(&errors, prog, &o->waitcnt) != WA_OK)
        fz_fail(ctx, "wa_check_waitcnt rejects the output of '%s' (%u errors)", name, errors);
    if (stage >= WA_STAGE_HAZARDS && wa_check_hazards(&errors, prog, &o->hazards) != WA_OK)
        fz_fail(ctx, "wa_check_hazards rejects the output of '%s' (%u errors)", name, errors);
}

/* The peephole, waitcnt and hazard passes leave their own output alone: what
   they would rewrite or insert is already there. */
static void again_unchanged(const wa_program *prog, wa_stage stage, const options *o)
{
    wa_context *ctx = wa_program_context(prog);
    wa_program *again = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&again, prog) == WA_OK, "wa_program_clone failed");
    wa_status st = wa_run_stage(again, stage, &o->po, NULL);
    FZ_REQUIRE(ctx, st == WA_OK, "'%s' fails on its own output: %s", wa_stage_name(stage),
               wa_context_last_error(ctx));
    if (!wa_program_equal(prog, again)) {
        char *a = fz_print(prog, WA_PRINT_TAGS);
        char *b = fz_print(again, WA_PRINT_TAGS);
        fprintf(stderr, "---- after '%s' ----\n%s---- after it again ----\n%s---- end ----\n",
                wa_stage_name(stage), a, b);
        fz_fail(ctx, "'%s' changes its own output", wa_stage_name(stage));
    }
    wa_program_destroy(again);
}

/* Allocation as the pipeline does it, with the allocation checker in between;
   the result must equal wa_run_stage's. */
static wa_status regalloc_checked(wa_program *prog, const options *o)
{
    wa_context *ctx = wa_program_context(prog);
    wa_program *by_stage = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&by_stage, prog) == WA_OK, "wa_program_clone failed");
    wa_status st_stage = wa_run_stage(by_stage, WA_STAGE_REGALLOC, &o->po, NULL);

    wa_regalloc_result *ra = NULL;
    wa_status st = wa_regalloc_run(&ra, prog, &o->regalloc);
    if (st == WA_OK) {
        unsigned errors = 0;
        if (wa_regalloc_check(&errors, prog, ra, &o->regalloc) != WA_OK)
            fz_fail(ctx, "wa_regalloc_check rejects the allocation (%u errors)", errors);
        st = wa_regalloc_apply(prog, ra, NULL);
        FZ_REQUIRE(ctx, st == WA_OK, "wa_regalloc_apply fails on a checked allocation: %s",
                   wa_context_last_error(ctx));
    } else {
        FZ_REQUIRE(ctx, ra == NULL, "wa_regalloc_run failed but returned a result");
    }
    wa_regalloc_destroy(ra);
    FZ_REQUIRE(ctx, st == st_stage, "wa_regalloc_run+apply: %s, wa_run_stage: %s",
               wa_status_string(st), wa_status_string(st_stage));
    FZ_REQUIRE(ctx, st != WA_OK || wa_program_equal(prog, by_stage),
               "wa_run_stage(regalloc) allocates differently");
    wa_program_destroy(by_stage);
    return st;
}

/* The stages one by one on a copy of `prog`, then the verified pipeline on
   another copy; both must end the same way. */
static void run_both_ways(const wa_program *prog, const options *o, const char *what)
{
    wa_context *ctx = wa_program_context(prog);
    wa_program *work = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&work, prog) == WA_OK, "wa_program_clone failed");
    wa_status failed = WA_OK;
    unsigned failed_stage = WA_STAGE_COUNT_;
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++) {
        wa_status st;
        if (s == WA_STAGE_REGALLOC) {
            st = regalloc_checked(work, o);
        } else {
            wa_pass_stats stats;
            st = wa_run_stage(work, (wa_stage)s, &o->po, &stats);
        }
        if (st != WA_OK) {
            fz_check_failure(ctx, st, wa_stage_name((wa_stage)s));
            if (fz_verbose())
                fprintf(stderr, "fuzz_pipeline (%s): stage '%s' fails: %s\n", what,
                        wa_stage_name((wa_stage)s), wa_context_last_error(ctx));
            failed = st;
            failed_stage = s;
            break;
        }
        checks_after(work, (wa_stage)s, o);
        if (s == WA_STAGE_PEEPHOLE || s >= WA_STAGE_WAITCNT)
            again_unchanged(work, (wa_stage)s, o);
    }

    wa_program *whole = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&whole, prog) == WA_OK, "wa_program_clone failed");
    options v = *o;
    v.po.cse = &v.cse;
    v.po.peephole = &v.peephole;
    v.po.regalloc = &v.regalloc;
    v.po.waitcnt = &v.waitcnt;
    v.po.hazards = &v.hazards;
    v.po.flags = WA_PIPELINE_VERIFY;
    wa_status st = wa_compile(whole, &v.po);
    if (failed != WA_OK) {
        FZ_REQUIRE(ctx, st == failed,
                   "%s: stage '%s' fails with %s alone, the verified pipeline ends with %s", what,
                   wa_stage_name((wa_stage)failed_stage), wa_status_string(failed),
                   wa_status_string(st));
    } else {
        FZ_REQUIRE(ctx, st == WA_OK,
                   "%s: the verified pipeline fails where every stage passes: %s", what,
                   wa_context_last_error(ctx));
        char *a = fz_print(work, WA_PRINT_TAGS | WA_PRINT_COMMENTS);
        char *b = fz_print(whole, WA_PRINT_TAGS | WA_PRINT_COMMENTS);
        if (!wa_program_equal(work, whole) || strcmp(a, b) != 0) {
            fprintf(stderr, "---- stage by stage ----\n%s---- pipeline ----\n%s---- end ----\n", a,
                    b);
            fz_fail(ctx, "%s: the pipeline's output differs from the stages run one by one", what);
        }
        wa_free(a);
        wa_free(b);
        fz_round_trip(work, "pipeline output");
        char *asm_text = NULL;
        st = wa_emit_asm(&asm_text, NULL, work, NULL);
        FZ_REQUIRE(ctx, st == WA_OK, "%s: wa_emit_asm fails on the pipeline's output: %s", what,
                   wa_context_last_error(ctx));
        wa_free(asm_text);
    }
    wa_program_destroy(whole);
    wa_program_destroy(work);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wa_context *ctx = fz_context(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    if (wa_program_parse(&prog, ctx, (const char *)data, size, "fuzz.wa") != WA_OK ||
        wa_program_validate(NULL, prog, NULL) != WA_OK) {
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
        return 0;
    }
    options o;
    options_init(&o, 0, 0);
    run_both_ways(prog, &o, "default options");
    options_init(&o, fz_hash(data, size), 1);
    run_both_ways(prog, &o, "options from the input's hash");
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return 0;
}
