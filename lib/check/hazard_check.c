/* lib/check/hazard_check.c — independent hazard checker (in progress). */
#include "../passes/pass_util.h"

wa_status wa_check_hazards(unsigned *out_errors, const wa_program *prog,
                           const wa_hazard_options *opts)
{
    (void)opts;
    if (out_errors)
        *out_errors = 0;
    if (!prog)
        return WA_E_INVALID;
    return wa_error(prog->ctx, WA_E_UNSUPPORTED, WA_LOC_NONE, "wa_check_hazards: not implemented yet");
}
