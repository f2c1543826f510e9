/* tests/unit/test_sim_ops.c — placeholder, replaced by the real cases. */
#include "check.h"
#include "util.h"

static void placeholder(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    CHECK_OK(ut_parse_body(&prog, ctx, "gfx942", "  s_endpgm\n"));
    wa_sim *sim = NULL;
    CHECK_OK(wa_sim_create(&sim, prog, NULL));
    CHECK_OK(wa_sim_run(sim));
    wa_sim_destroy(sim);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(placeholder));
