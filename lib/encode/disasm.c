/* lib/encode/disasm.c — placeholder */
#include "encode.h"
wa_status wa_disassemble(char **text, size_t *len, wa_context *ctx, const unsigned char *code,
                         size_t n, wa_target target, const wa_disasm_options *opts)
{
    (void)text; (void)len; (void)code; (void)n; (void)target; (void)opts;
    return wa_error(ctx, WA_E_UNSUPPORTED, WA_LOC_NONE, "not yet");
}
