/* lib/passes/hazards.c — hazard mitigation with s_nop (in progress). */
#include "pass_util.h"

wa_status wa_pass_hazards(wa_program *prog, const wa_hazard_options *opts, wa_pass_stats *stats)
{
    (void)opts;
    (void)stats;
    if (!prog)
        return WA_E_INVALID;
    return wa_error(prog->ctx, WA_E_UNSUPPORTED, WA_LOC_NONE, "wa_pass_hazards: not implemented yet");
}
