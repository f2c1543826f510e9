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
   parses back and emits assembly. */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void checks_after(wa_program *prog, wa_stage stage)
{
    wa_context *ctx = wa_program_context(prog);
    const char *name = wa_stage_name(stage);
    wa_validate_options vo = WA_VALIDATE_OPTIONS_INIT;
    if (stage >= WA_STAGE_REGALLOC)
        vo.flags = WA_VALIDATE_PHYSICAL;
    unsigned errors = 0;
    if (wa_program_validate(&errors, prog, &vo) != WA_OK)
        fz_fail(ctx, "the output of '%s' does not validate (%u errors)", name, errors);
    if (stage >= WA_STAGE_WAITCNT && wa_check_waitcnt(&errors, prog, NULL) != WA_OK)
        fz_fail(ctx, "wa_check_waitcnt rejects the output of '%s' (%u errors)", name, errors);
    if (stage >= WA_STAGE_HAZARDS && wa_check_hazards(&errors, prog, NULL) != WA_OK)
        fz_fail(ctx, "wa_check_hazards rejects the output of '%s' (%u errors)", name, errors);
}

/* Allocation as the pipeline does it, with the allocation checker in between;
   the result must equal wa_run_stage's. */
static wa_status regalloc_checked(wa_program *prog)
{
    wa_context *ctx = wa_program_context(prog);
    wa_program *by_stage = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&by_stage, prog) == WA_OK, "wa_program_clone failed");
    wa_status st_stage = wa_run_stage(by_stage, WA_STAGE_REGALLOC, NULL, NULL);

    wa_regalloc_result *ra = NULL;
    wa_status st = wa_regalloc_run(&ra, prog, NULL);
    if (st == WA_OK) {
        unsigned errors = 0;
        if (wa_regalloc_check(&errors, prog, ra, NULL) != WA_OK)
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

    wa_program *work = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&work, prog) == WA_OK, "wa_program_clone failed");
    wa_status failed = WA_OK;
    unsigned failed_stage = WA_STAGE_COUNT_;
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++) {
        wa_status st;
        if (s == WA_STAGE_REGALLOC) {
            st = regalloc_checked(work);
        } else {
            wa_pass_stats stats;
            st = wa_run_stage(work, (wa_stage)s, NULL, &stats);
        }
        if (st != WA_OK) {
            fz_check_failure(ctx, st, wa_stage_name((wa_stage)s));
            if (fz_verbose())
                fprintf(stderr, "fuzz_pipeline: stage '%s' fails: %s\n",
                        wa_stage_name((wa_stage)s), wa_context_last_error(ctx));
            failed = st;
            failed_stage = s;
            break;
        }
        checks_after(work, (wa_stage)s);
    }

    wa_program *whole = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&whole, prog) == WA_OK, "wa_program_clone failed");
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.flags = WA_PIPELINE_VERIFY;
    wa_status st = wa_compile(whole, &po);
    if (failed != WA_OK) {
        FZ_REQUIRE(ctx, st == failed,
                   "stage '%s' fails with %s alone, the verified pipeline ends with %s",
                   wa_stage_name((wa_stage)failed_stage), wa_status_string(failed),
                   wa_status_string(st));
    } else {
        FZ_REQUIRE(ctx, st == WA_OK, "the verified pipeline fails where every stage passes: %s",
                   wa_context_last_error(ctx));
        char *a = fz_print(work, WA_PRINT_TAGS | WA_PRINT_COMMENTS);
        char *b = fz_print(whole, WA_PRINT_TAGS | WA_PRINT_COMMENTS);
        if (!wa_program_equal(work, whole) || strcmp(a, b) != 0) {
            fprintf(stderr, "---- stage by stage ----\n%s---- pipeline ----\n%s---- end ----\n", a,
                    b);
            fz_fail(ctx, "the pipeline's output differs from the stages run one by one");
        }
        wa_free(a);
        wa_free(b);
        fz_round_trip(work, "pipeline output");
        char *asm_text = NULL;
        st = wa_emit_asm(&asm_text, NULL, work, NULL);
        FZ_REQUIRE(ctx, st == WA_OK, "wa_emit_asm fails on the pipeline's output: %s",
                   wa_context_last_error(ctx));
        wa_free(asm_text);
    }
    wa_program_destroy(whole);
    wa_program_destroy(work);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return 0;
}
