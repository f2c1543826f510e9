/* lib/passes/peephole.c — local rewrites (in progress). */
#include "pass_util.h"

wa_status wa_pass_peephole(wa_program *prog, const wa_peephole_options *opts, wa_pass_stats *stats)
{
    (void)opts;
    (void)stats;
    if (!prog)
        return WA_E_INVALID;
    return wa_error(prog->ctx, WA_E_UNSUPPORTED, WA_LOC_NONE, "wa_pass_peephole: not implemented yet");
}
