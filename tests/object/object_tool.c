/* tests/object/object_tool.c — writes a code object with the library's writer
   for kernels in the text form, taking each kernel's machine code (and its
   labels' offsets) from a reference code object that llvm-mc and ld.lld made
   from the emitted assembly. The comparison itself is object_check.py's.

     wa_object_tool --ref=REF.hsaco [--ref-comment] [--xnack=any|on|off]
                    [--sramecc=any|on|off] -o OUT.hsaco KERNEL.wa...

   --ref-comment  writes the reference's .comment text instead of the library's
                  (then the whole files can be compared byte for byte). */
#include "../../lib/object/object.h"

#include <waveasm/waveasm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct elf_view {
    unsigned char *data;
    size_t size;
    uint64_t text_addr, text_off, text_size;
    const unsigned char *symtab;
    size_t nsyms;
    const char *strtab;
    size_t strtab_size;
    const char *comment;
} elf_view;

static uint64_t rd(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *size = (size_t)n;
    }
    return buf;
}

/* Section headers of an ELF64 little-endian file: .text, .symtab (+ strtab), .comment. */
static int elf_open(elf_view *v, const char *path)
{
    memset(v, 0, sizeof(*v));
    v->data = read_file(path, &v->size);
    if (!v->data || v->size < 64 || memcmp(v->data, "\177ELF\2\1", 6) != 0)
        return 0;
    uint64_t shoff = rd(v->data + 40, 8);
    unsigned shnum = (unsigned)rd(v->data + 60, 2), shstrndx = (unsigned)rd(v->data + 62, 2);
    if (shoff + 64ull * shnum > v->size || shstrndx >= shnum)
        return 0;
    const unsigned char *sh = v->data + shoff;
    const char *names = (const char *)v->data + rd(sh + 64 * shstrndx + 24, 8);
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *h = sh + 64 * i;
        const char *name = names + rd(h, 4);
        uint64_t off = rd(h + 24, 8), size = rd(h + 32, 8);
        if (off + size > v->size && rd(h + 4, 4) != 8)
            return 0;
        if (strcmp(name, ".text") == 0) {
            v->text_addr = rd(h + 16, 8);
            v->text_off = off;
            v->text_size = size;
        } else if (strcmp(name, ".symtab") == 0) {
            v->symtab = v->data + off;
            v->nsyms = (size_t)(size / 24);
            const unsigned char *l = sh + 64 * rd(h + 40, 4);
            v->strtab = (const char *)v->data + rd(l + 24, 8);
            v->strtab_size = (size_t)rd(l + 32, 8);
        } else if (strcmp(name, ".comment") == 0) {
            v->comment = (const char *)v->data + off;
        }
    }
    return v->text_size && v->symtab;
}

/* Value and size of the symbol `name` (STT_FUNC when `func`, else a local
   NOTYPE symbol with its value in [lo, hi]). */
static int elf_symbol(const elf_view *v, const char *name, int func, uint64_t lo, uint64_t hi,
                      uint64_t *value, uint64_t *size)
{
    for (size_t i = 1; i < v->nsyms; i++) {
        const unsigned char *s = v->symtab + 24 * i;
        uint64_t n = rd(s, 4);
        if (n >= v->strtab_size || strcmp(v->strtab + n, name) != 0)
            continue;
        unsigned type = s[4] & 0xf, bind = s[4] >> 4;
        uint64_t val = rd(s + 8, 8);
        if (func ? type != 2 : (type != 0 || bind != 0 || val < lo || val > hi))
            continue;
        *value = val;
        *size = rd(s + 16, 8);
        return 1;
    }
    return 0;
}

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
