/* tests/object/ref_elf.h — reads what the code object tests need from an ELF64
   little-endian file made by ld.lld: the .text section, the symbol table and
   the .comment text. */
#ifndef WAVEASM_TESTS_REF_ELF_H
#define WAVEASM_TESTS_REF_ELF_H

#include <stddef.h>
#include <stdint.h>

typedef struct elf_view {
    unsigned char *data; /* the whole file (malloc'd; free it) */
    size_t size;
    uint64_t text_addr, text_off, text_size;
    const unsigned char *symtab;
    size_t nsyms;
    const char *strtab;
    size_t strtab_size;
    const char *comment;
} elf_view;

/* The whole file, malloc'd with a NUL after the end; NULL if it cannot be read. */
unsigned char *ref_read_file(const char *path, size_t *size);

/* Reads `path`; 0 if it is not such a file or has no .text or .symtab. */
int elf_open(elf_view *v, const char *path);

/* Value and size of the symbol `name` (STT_FUNC when `func`, else a local
   NOTYPE symbol with its value in [lo, hi]). 0 if there is none. */
int elf_symbol(const elf_view *v, const char *name, int func, uint64_t lo, uint64_t hi,
               uint64_t *value, uint64_t *size);

#endif
