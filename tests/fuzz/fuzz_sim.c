/* tests/fuzz/fuzz_sim.c — the simulator against the compiler: a valid parsed
   program runs in the simulator, a copy goes through the default pipeline, the
   result runs too, and both must leave the same memory wherever the original's
   is defined. A hash of the input picks the pipeline: the default one, or it
   without cse, without peephole or without both.

   The comparison is the unit tests' differential harness (tests/unit/simdiff.c):
   global buffers get fixed contents, memory outside them is the permissive
   scratch space, an original that needs waits it lacks runs with memory landing
   at once, and an original that stores or branches on an undefined value is
   inconclusive. The compiled program runs with random memory timing and in
   hazard mode: the pipeline put in every wait and nop it needs, and
   wa_check_waitcnt / wa_check_hazards must agree.

   One wave (the program's workgroup size is set to 64x1x1, the grid to 1): waves
   that race on memory would make the original's own result depend on
   interleaving, which compilation legitimately changes. */
#include "fuzz_util.h"

#include "simdiff.h"

#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wa_context *ctx = fz_context(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    if (wa_program_parse(&prog, ctx, (const char *)data, size, "fuzz.wa") != WA_OK ||
        wa_program_set_workgroup_size(prog, 64, 1, 1) != WA_OK ||
        wa_program_validate(NULL, prog, NULL) != WA_OK)
        goto done;
    for (unsigned i = 0; i < wa_program_size(prog); i++) {
        wa_instr_view v;
        FZ_REQUIRE(ctx, wa_program_get(&v, prog, i) == WA_OK, "wa_program_get failed");
        if (wa_sim_unsupported(v.opcode)) {
            if (fz_verbose())
                fprintf(stderr, "fuzz_sim: not simulated: %s\n", wa_sim_unsupported(v.opcode));
            goto done;
        }
    }

    /* the default pipeline, or it without cse and/or peephole, as a hash of the
       input says (allocation, waits and nops are always needed) */
    uint64_t h = fz_hash(data, size);
    wa_program *compiled = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&compiled, prog) == WA_OK, "wa_program_clone failed");
    wa_pipeline *pl = NULL;
    FZ_REQUIRE(ctx, wa_pipeline_create(&pl, ctx, NULL) == WA_OK, "wa_pipeline_create failed");
    FZ_REQUIRE(ctx, wa_pipeline_enable(pl, WA_STAGE_CSE, (h & 1) == 0) == WA_OK &&
                        wa_pipeline_enable(pl, WA_STAGE_PEEPHOLE, (h & 2) == 0) == WA_OK,
               "wa_pipeline_enable failed");
    wa_status st = wa_pipeline_run(pl, compiled);
    wa_pipeline_destroy(pl);
    if (st != WA_OK) {
        /* legitimate (registers do not fit, ...); fuzz_pipeline checks these */
        fz_check_failure(ctx, st, "wa_pipeline_run");
        wa_program_destroy(compiled);
        goto done;
    }

    sd_config cfg;
    sd_config_default(&cfg);
    cfg.seeds = 2;
    cfg.buffer_bytes = 4096;
    cfg.max_instructions = 10000;
    /* every original instruction may gain a wait and a few nops */
    cfg.after_max_instructions = 8 * cfg.max_instructions + 1000;
    cfg.after_timing = 1;
    cfg.after_hazards = 1;
    sd_result res;
    memset(&res, 0, sizeof(res));
    sd_compare(prog, compiled, &cfg, &res);
    if (fz_verbose())
        fprintf(stderr, "fuzz_sim: %u runs compared, %u inconclusive, %u skipped%s%s\n", res.runs,
                res.inconclusive, res.skipped, res.skipped ? ": " : "",
                res.skipped ? res.first_skip : "");
    if (res.failures) {
        char *text = fz_print(compiled, WA_PRINT_TAGS);
        fprintf(stderr, "---- compiled ----\n%s---- end ----\n", text);
        wa_free(text);
        fz_fail(ctx, "the compiled program behaves differently: %s", res.first_failure);
    }
    wa_program_destroy(compiled);
done:
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return 0;
}
