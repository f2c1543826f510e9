/* lib/object/emit_object.c — wa_emit_object: the encoder's code for each
   program, its label offsets for the symbol table, then the object writer. */
#include <waveasm/object.h>

#include "../encode/encode.h"
#include "object.h"

#include <string.h>

wa_status wa_emit_object(unsigned char **out, size_t *out_len, const wa_program *const *progs,
                         unsigned n, const wa_object_options *opts)
{
    if (out)
        *out = NULL;
    if (out_len)
        *out_len = 0;
    if (!out || !out_len || !progs || !n || !progs[0])
        return WA_E_INVALID;
    wa_context *ctx = progs[0]->ctx;
    wa_diag_reset(ctx);
    if (opts && (opts->version == 0 || opts->version > WA_OBJECT_OPTIONS_VERSION))
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "wa_object_options: version %u is not supported (this library knows "
                        "1..%u)",
                        opts->version, WA_OBJECT_OPTIONS_VERSION);
    for (unsigned k = 0; k < n; k++)
        if (!progs[k] || progs[k]->ctx != ctx)
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                            "wa_emit_object: program %u is %s", k,
                            progs[k] ? "from another context" : "NULL");
    wa_object_kernel *kernels = wa_mem_calloc(ctx, n, sizeof(*kernels));
    if (!kernels)
        return wa_error_nomem(ctx);
    wa_status st = WA_OK;
    for (unsigned k = 0; k < n && st == WA_OK; k++) {
        const wa_program *p = progs[k];
        /* once, here: the encoder needs a valid program, the writer is told */
        st = wa_object_validate(ctx, p);
        uint32_t *items = NULL, *labels = NULL;
        if (st == WA_OK) {
            items = wa_mem_alloc(ctx, ((size_t)p->ninstrs + 1) * sizeof(uint32_t));
            labels = wa_mem_calloc(ctx, (size_t)p->nlabels + 1, sizeof(uint32_t));
            st = items && labels ? WA_OK : wa_error_nomem(ctx);
        }
        unsigned char *code = NULL;
        size_t len = 0;
        if (st == WA_OK)
            st = wa_encode_internal(ctx, p, &code, &len, items);
        /* labels at the byte offset of the item that places them */
        for (unsigned i = 0; st == WA_OK && i < p->ninstrs; i++)
            if (p->instrs[i].op == WA_OP_LABEL && p->instrs[i].nops &&
                p->instrs[i].ops[0].id < p->nlabels)
                labels[p->instrs[i].ops[0].id] = items[i];
        wa_mem_free(ctx, items);
        kernels[k] = (wa_object_kernel){ p, code, len, labels, 1 };
    }
    if (st == WA_OK)
        st = wa_object_write(ctx, kernels, n, out, out_len);
    for (unsigned k = 0; k < n; k++) {
        wa_mem_free(ctx, (void *)kernels[k].code);
        wa_mem_free(ctx, (void *)kernels[k].label_offsets);
    }
    wa_mem_free(ctx, kernels);
    return st;
}
