/* tests/object/object_tool.c — writes a code object with the library's writer
   for kernels in the text form, taking each kernel's machine code (and its
   labels' offsets) from a reference code object that llvm-mc and ld.lld made
   from the emitted assembly. The comparison itself is object_check.py's.

     wa_object_tool --ref=REF.hsaco [--ref-comment] [--xnack=any|on|off]
                    [--sramecc=any|on|off] -o OUT.hsaco KERNEL.wa...

   --ref-comment  writes the reference's .comment text instead of the library's
                  (then the whole files can be compared byte for byte). */
#include "../../lib/object/object.h"
#include "ref_elf.h"

#include <waveasm/waveasm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int feature(const char *s, wa_feature *out)
{
    if (strcmp(s, "any") == 0)
        *out = WA_FEATURE_ANY;
    else if (strcmp(s, "on") == 0)
        *out = WA_FEATURE_ON;
    else if (strcmp(s, "off") == 0)
        *out = WA_FEATURE_OFF;
    else
        return 0;
    return 1;
}

int main(int argc, char **argv)
{
    const char *ref = NULL, *out = NULL;
    int ref_comment = 0;
    wa_context_options copts = WA_CONTEXT_OPTIONS_INIT;
    const char *inputs[64];
    unsigned n = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--ref=", 6) == 0)
            ref = a + 6;
        else if (strcmp(a, "--ref-comment") == 0)
            ref_comment = 1;
        else if (strncmp(a, "--xnack=", 8) == 0 && feature(a + 8, &copts.xnack))
            continue;
        else if (strncmp(a, "--sramecc=", 10) == 0 && feature(a + 10, &copts.sramecc))
            continue;
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (a[0] != '-' && n < 64)
            inputs[n++] = a;
        else {
            fprintf(stderr, "wa_object_tool: bad argument '%s'\n", a);
            return 2;
        }
    }
    if (!ref || !out || n == 0) {
        fprintf(stderr, "usage: wa_object_tool --ref=REF [--ref-comment] [--xnack=..] "
                        "[--sramecc=..] -o OUT KERNEL.wa...\n");
        return 2;
    }
    elf_view v;
    if (!elf_open(&v, ref)) {
        fprintf(stderr, "wa_object_tool: cannot read the reference %s\n", ref);
        return 1;
    }
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &copts) != WA_OK)
        return 1;
    wa_program *progs[64] = { 0 };
    wa_object_kernel kernels[64];
    uint32_t *labels[64] = { 0 };
    int rc = 1;
    for (unsigned k = 0; k < n; k++) {
        if (wa_program_parse_file(&progs[k], ctx, inputs[k]) != WA_OK) {
            fprintf(stderr, "%s\n", wa_context_last_error(ctx));
            goto done;
        }
        const wa_program *p = progs[k];
        uint64_t value, size;
        if (!elf_symbol(&v, p->name, 1, 0, 0, &value, &size) || value < v.text_addr ||
            value - v.text_addr + size > v.text_size) {
            fprintf(stderr, "wa_object_tool: no kernel '%s' in %s\n", p->name, ref);
            goto done;
        }
        labels[k] = calloc(p->nlabels + 1, sizeof(uint32_t));
        for (unsigned l = 0; l < p->nlabels; l++) {
            uint64_t lv, ls;
            if (elf_symbol(&v, p->labels[l].name, 0, value, value + size, &lv, &ls))
                labels[k][l] = (uint32_t)(lv - value);
        }
        kernels[k].prog = p;
        kernels[k].code = v.data + v.text_off + (value - v.text_addr);
        kernels[k].code_len = (size_t)size;
        kernels[k].label_offsets = labels[k];
        kernels[k].validated = 0;
    }
    unsigned char *bytes = NULL;
    size_t len = 0;
    if (wa_object_write_comment(ctx, kernels, n, ref_comment ? v.comment : NULL, &bytes,
                                &len) != WA_OK) {
        fprintf(stderr, "%s\n", wa_context_last_error(ctx));
        goto done;
    }
    FILE *f = fopen(out, "wb");
    if (f && fwrite(bytes, 1, len, f) == len && fclose(f) == 0)
        rc = 0;
    else
        fprintf(stderr, "wa_object_tool: cannot write %s\n", out);
    wa_free(bytes);
done:
    for (unsigned k = 0; k < n; k++) {
        wa_program_destroy(progs[k]);
        free(labels[k]);
    }
    wa_context_destroy(ctx);
    free(v.data);
    return rc;
}
