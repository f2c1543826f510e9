/* tests/object/ref_elf.c — see ref_elf.h. */
#include "ref_elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rd(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

unsigned char *ref_read_file(const char *path, size_t *size)
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

int elf_open(elf_view *v, const char *path)
{
    memset(v, 0, sizeof(*v));
    v->data = ref_read_file(path, &v->size);
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

int elf_symbol(const elf_view *v, const char *name, int func, uint64_t lo, uint64_t hi,
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

