/* tests/fuzz/fuzz_text.c — the text form: any bytes either parse or fail with a
   located diagnostic; what parses survives the round trip (print, parse, equal,
   print again: the same bytes), and the analyses and the emitter that apply to
   it either succeed or fail cleanly. */
#include "fuzz_util.h"

#include <string.h>

/* The validator, liveness and, for physical programs, resources and assembly. */
static void analyse(wa_program *prog)
{
    wa_context *ctx = wa_program_context(prog);
    unsigned errors = 0;
    wa_status st = wa_program_validate(&errors, prog, NULL);
    if (st != WA_OK) {
        fz_check_failure(ctx, st, "wa_program_validate");
        FZ_REQUIRE(ctx, st == WA_E_VALIDATE && errors > 0,
                   "wa_program_validate: %s with %u errors", wa_status_string(st), errors);
        return;
    }
    FZ_REQUIRE(ctx, errors == 0, "wa_program_validate: OK with %u errors", errors);

    wa_liveness *live = NULL;
    st = wa_liveness_compute(&live, prog, NULL);
    FZ_REQUIRE(ctx, st == WA_OK, "wa_liveness_compute fails on a valid program: %s",
               wa_context_last_error(ctx));
    char *text = NULL;
    FZ_REQUIRE(ctx, wa_liveness_print(&text, NULL, live) == WA_OK, "wa_liveness_print failed");
    wa_free(text);
    text = NULL;
    FZ_REQUIRE(ctx, wa_pressure_report(&text, NULL, prog, live) == WA_OK,
               "wa_pressure_report failed");
    wa_free(text);
    wa_liveness_destroy(live);

    wa_validate_options vo = WA_VALIDATE_OPTIONS_INIT;
    vo.flags = WA_VALIDATE_PHYSICAL;
    int physical = wa_program_validate(NULL, prog, &vo) == WA_OK;
    wa_kernel_resources kr;
    st = wa_kernel_resources_compute(&kr, prog);
    if (physical)
        FZ_REQUIRE(ctx, st == WA_OK, "wa_kernel_resources_compute fails on a physical program: %s",
                   wa_context_last_error(ctx));
    else if (st != WA_OK)
        fz_check_failure(ctx, st, "wa_kernel_resources_compute");
    char *asm_text = NULL;
    size_t asm_len = 0;
    st = wa_emit_asm(&asm_text, &asm_len, prog, NULL);
    if (physical) {
        FZ_REQUIRE(ctx, st == WA_OK, "wa_emit_asm fails on a valid physical program: %s",
                   wa_context_last_error(ctx));
        FZ_REQUIRE(ctx, asm_text && strlen(asm_text) == asm_len, "wa_emit_asm: bad length");
    } else {
        FZ_REQUIRE(ctx, st != WA_OK, "wa_emit_asm accepts a program with virtual registers");
        fz_check_failure(ctx, st, "wa_emit_asm");
    }
    wa_free(asm_text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wa_context *ctx = fz_context(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    wa_status st = wa_program_parse(&prog, ctx, (const char *)data, size, "fuzz.wa");
    if (st != WA_OK) {
        fz_check_failure(ctx, st, "wa_program_parse");
        FZ_REQUIRE(ctx, prog == NULL, "wa_program_parse failed but returned a program");
        const wa_diag *d = wa_context_last_diag(ctx);
        FZ_REQUIRE(ctx, d->line > 0 && d->col > 0, "parse error without line:col: %s",
                   d->message);
        wa_context_destroy(ctx);
        return 0;
    }
    fz_round_trip(prog, "parsed input");

    wa_program *copy = NULL;
    FZ_REQUIRE(ctx, wa_program_clone(&copy, prog) == WA_OK, "wa_program_clone failed");
    FZ_REQUIRE(ctx, wa_program_equal(prog, copy), "a clone differs from its original");
    wa_program_destroy(copy);

    analyse(prog);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return 0;
}
