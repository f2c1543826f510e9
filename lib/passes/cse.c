/* lib/passes/cse.c — scoped CSE and loop-invariant hoisting (in progress). */
#include "pass_util.h"

wa_status wa_pass_cse(wa_program *prog, const wa_cse_options *opts, wa_pass_stats *stats)
{
    (void)opts;
    (void)stats;
    if (!prog)
        return WA_E_INVALID;
    return wa_error(prog->ctx, WA_E_UNSUPPORTED, WA_LOC_NONE, "wa_pass_cse: not implemented yet");
}
