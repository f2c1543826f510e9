/* lib/object/elf_writer.c — the ELF64 shared object around the kernels: the
   sections, symbols, hash tables and program headers in the order and layout
   ld.lld -shared gives llvm-mc's object of the emitted assembly, so that a
   loader (and a byte comparison) sees the same file. */
#include "object.h"

#include <waveasm/validate.h>
#include <waveasm/version.h>

#include <string.h>

/* ---- ELF constants (System V ABI, AMDGPU ELF) -------------------------------- */
enum {
    ELFOSABI_AMDGPU_HSA = 64,
    ELFABIVERSION_AMDGPU_HSA_V5 = 3,
    ET_DYN = 3,
    EM_AMDGPU = 224,
    SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_HASH = 5, SHT_DYNAMIC = 6,
    SHT_NOTE = 7, SHT_NOBITS = 8, SHT_DYNSYM = 11,
    SHF_WRITE = 1, SHF_ALLOC = 2, SHF_EXECINSTR = 4, SHF_MERGE = 0x10, SHF_STRINGS = 0x20,
    PT_LOAD = 1, PT_DYNAMIC = 2, PT_NOTE = 4, PT_PHDR = 6,
    PF_X = 1, PF_W = 2, PF_R = 4,
    STB_LOCAL = 0, STB_GLOBAL = 1, STT_NOTYPE = 0, STT_OBJECT = 1, STT_FUNC = 2,
    STV_DEFAULT = 0, STV_HIDDEN = 2, STV_PROTECTED = 3,
    DT_NULL = 0, DT_HASH = 4, DT_STRTAB = 5, DT_SYMTAB = 6, DT_STRSZ = 10, DT_SYMENT = 11,
    NT_AMDGPU_METADATA = 32,
    EF_AMDGPU_FEATURE_XNACK_ANY = 0x100, EF_AMDGPU_FEATURE_XNACK_OFF = 0x200,
    EF_AMDGPU_FEATURE_XNACK_ON = 0x300,
    EF_AMDGPU_FEATURE_SRAMECC_ANY = 0x400, EF_AMDGPU_FEATURE_SRAMECC_OFF = 0x800,
    EF_AMDGPU_FEATURE_SRAMECC_ON = 0xc00
};
#define PT_GNU_STACK 0x6474e551u
#define PT_GNU_RELRO 0x6474e552u
#define SHT_GNU_HASH 0x6ffffff6u
#define DT_GNU_HASH 0x6ffffef5u

#define EHDR_SIZE 64u
#define PHDR_SIZE 56u
#define SHDR_SIZE 64u
#define SYM_SIZE 24u
#define DYN_SIZE 16u
#define NPHDRS 8u
/* ld.lld's page sizes for AMDGPU (max and common). */
#define PAGE 0x1000u
#define TEXT_ALIGN 256u
#define GNU_HASH_SHIFT2 26u

/* Output sections in ld.lld's order. */
enum {
    S_NULL, S_NOTE, S_DYNSYM, S_GNU_HASH, S_HASH, S_DYNSTR, S_RODATA, S_TEXT, S_DYNAMIC,
    S_RELRO_PAD, S_COMMENT, S_SYMTAB, S_SHSTRTAB, S_STRTAB, S_COUNT
};
static const char *const sec_names[S_COUNT] = {
    "", ".note", ".dynsym", ".gnu.hash", ".hash", ".dynstr", ".rodata", ".text", ".dynamic",
    ".relro_padding", ".comment", ".symtab", ".shstrtab", ".strtab"
};

typedef struct section {
    uint32_t name, type;
    uint64_t flags, addr, off, size, align, entsize;
    uint32_t link, info;
} section;

/* A symbol of .dynsym/.symtab. */
typedef struct symbol {
    const char *name;
    size_t name_len;
    uint32_t dynstr, strtab;   /* name offsets */
    uint32_t gnu_hash;
    unsigned bucket;
    unsigned char info, other;
    uint16_t shndx;
    uint64_t value, size;
    unsigned kernel;           /* label symbols: the kernel they belong to */
} symbol;

static uint64_t align_to(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* Smallest x >= v with x % align == skew % align (align a power of two). */
static uint64_t align_skew(uint64_t v, uint64_t align, uint64_t skew)
{
    skew &= align - 1;
    return v + ((skew - v) & (align - 1));
}

/* Smallest power of two greater than v. */
static uint64_t next_pow2(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v)
        p <<= 1;
    return p;
}

static uint32_t hash_gnu(const char *s, size_t n)
{
    uint32_t h = 5381;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)s[i];
    return h;
}

static uint32_t hash_sysv(const char *s, size_t n)
{
    uint32_t h = 0;
    for (size_t i = 0; i < n; i++) {
        h = (h << 4) + (unsigned char)s[i];
        uint32_t g = h & 0xf0000000u;
        if (g)
            h ^= g >> 24;
        h &= ~g;
    }
    return h;
}

static void put32(unsigned char *p, uint64_t v)
{
    for (unsigned i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void put64(unsigned char *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Little-endian fields one after the other: `sizes` holds each field's bytes
   ("4488" is two 4-byte then two 8-byte fields), `v` their values. */
static void put_record(unsigned char *p, const char *sizes, const uint64_t *v)
{
    for (; *sizes; sizes++, v++) {
        unsigned n = (unsigned)(*sizes - '0');
        for (unsigned i = 0; i < n; i++)
            p[i] = (unsigned char)(*v >> (8 * i));
        p += n;
    }
}

static uint32_t e_flags(const wa_program *prog)
{
    static const uint32_t mach[WA_TARGET_COUNT] = { 0, 0x3f, 0x4c, 0x4f };
    static const uint32_t xnack[3] = { EF_AMDGPU_FEATURE_XNACK_ANY, EF_AMDGPU_FEATURE_XNACK_OFF,
                                       EF_AMDGPU_FEATURE_XNACK_ON };
    static const uint32_t sram[3] = { EF_AMDGPU_FEATURE_SRAMECC_ANY,
                                      EF_AMDGPU_FEATURE_SRAMECC_OFF,
                                      EF_AMDGPU_FEATURE_SRAMECC_ON };
    return mach[prog->target] | xnack[wa_context_xnack(prog->ctx)] |
           sram[wa_context_sramecc(prog->ctx)];
}

static int is_temp_label(const char *name)
{
    return name[0] == '.' && name[1] == 'L';
}

/* ---- input checks ------------------------------------------------------------ */

static wa_loc kernel_loc(const wa_program *prog)
{
    return prog->ninstrs ? wa_instr_loc(prog, &prog->instrs[0]) : WA_LOC_NONE;
}

/* Copies the errors a program's own context holds to `ctx`. */
static void forward_diags(wa_context *ctx, const wa_program *prog)
{
    if (prog->ctx == ctx)
        return;
    for (unsigned i = 0; i < wa_context_diag_count(prog->ctx); i++)
        wa_context_add_diag(ctx, wa_context_diag(prog->ctx, i));
}

wa_status wa_object_validate(wa_context *ctx, const wa_program *p)
{
    wa_validate_options vopts = WA_VALIDATE_OPTIONS_INIT;
    vopts.flags = WA_VALIDATE_PHYSICAL;
    wa_status st = wa_program_validate(NULL, p, &vopts);
    if (st) {
        forward_diags(ctx, p);
        return wa_error(ctx, st, kernel_loc(p), "kernel '%s' cannot go into a code object",
                        p->name);
    }
    return WA_OK;
}

static wa_status check_input(wa_context *ctx, const wa_object_kernel *kernels, unsigned n)
{
    if (n == 0)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "a code object needs at least one kernel");
    for (unsigned k = 0; k < n; k++)
        if (!kernels[k].prog || (!kernels[k].code && kernels[k].code_len))
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "kernel %u: no program or no code", k);
    for (unsigned k = 0; k < n; k++) {
        wa_status st = kernels[k].validated ? WA_OK : wa_object_validate(ctx, kernels[k].prog);
        if (st)
            return st;
    }
    wa_diag_reset(ctx);
    const wa_program *first = kernels[0].prog;
    for (unsigned k = 0; k < n; k++) {
        const wa_object_kernel *ki = &kernels[k];
        const wa_program *p = ki->prog;
        if (p->target != first->target)
            return wa_error(ctx, WA_E_INVALID, kernel_loc(p),
                            "kernel '%s' is for %s but kernel '%s' is for %s: one code object "
                            "holds one target",
                            p->name, wa_target_name(p->target), first->name,
                            wa_target_name(first->target));
        if (wa_context_xnack(p->ctx) != wa_context_xnack(first->ctx) ||
            wa_context_sramecc(p->ctx) != wa_context_sramecc(first->ctx))
            return wa_error(ctx, WA_E_INVALID, kernel_loc(p),
                            "kernel '%s' has other XNACK/SRAMECC settings than kernel '%s'",
                            p->name, first->name);
        for (unsigned j = 0; j < k; j++)
            if (strcmp(kernels[j].prog->name, p->name) == 0)
                return wa_error(ctx, WA_E_INVALID, kernel_loc(p),
                                "two kernels are named '%s' (kernels %u and %u)", p->name, j, k);
        if (ki->code_len == 0 || ki->code_len % 4)
            return wa_error(ctx, WA_E_INVALID, kernel_loc(p),
                            "kernel '%s': code of %zu bytes (need a non-zero multiple of 4)",
                            p->name, ki->code_len);
        if (ki->code_len > 0x40000000u)
            return wa_error(ctx, WA_E_RANGE, kernel_loc(p), "kernel '%s': code too large",
                            p->name);
        if (ki->label_offsets)
            for (unsigned l = 0; l < p->nlabels; l++)
                if (ki->label_offsets[l] > ki->code_len)
                    return wa_error(ctx, WA_E_RANGE, kernel_loc(p),
                                    "kernel '%s': label '%s' at byte %u is beyond the code (%zu bytes)",
                                    p->name, p->labels[l].name, ki->label_offsets[l],
                                    ki->code_len);
    }
    return WA_OK;
}

/* ---- the writer ---------------------------------------------------------------- */

typedef struct writer {
    wa_context *ctx;
    const wa_object_kernel *kernels;
    unsigned n;
    section sec[S_COUNT];
    symbol *globals;          /* kernel, kernel.kd, ... (symbol table order) */
    unsigned nglobals;
    unsigned *dynorder;       /* .dynsym order: indices into globals (GNU hash order) */
    unsigned nbuckets, maskwords;
    symbol *locals;           /* label symbols, then _DYNAMIC */
    unsigned nlocals;
    uint64_t *kernel_off;     /* kernel's offset in .text */
    wa_sb note, dynstr, strtab, shstrtab;
    const char *comment;
} writer;

static int cmp_dyn(const writer *w, unsigned a, unsigned b)
{
    if (w->globals[a].bucket != w->globals[b].bucket)
        return w->globals[a].bucket < w->globals[b].bucket ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* Symbols and string tables (their sizes are known before the layout). */
static wa_status build_symbols(writer *w)
{
    w->nglobals = 2 * w->n;
    w->globals = wa_tmp_calloc(w->ctx, w->nglobals, sizeof(symbol));
    w->dynorder = wa_tmp_calloc(w->ctx, w->nglobals, sizeof(unsigned));
    unsigned nlabels = 0;
    for (unsigned k = 0; k < w->n; k++)
        if (w->kernels[k].label_offsets)
            nlabels += w->kernels[k].prog->nlabels;
    w->locals = wa_tmp_calloc(w->ctx, nlabels + 1, sizeof(symbol));
    w->kernel_off = wa_tmp_calloc(w->ctx, w->n, sizeof(uint64_t));
    if (!w->globals || !w->dynorder || !w->locals || !w->kernel_off)
        return wa_error_nomem(w->ctx);

    /* Global names: "<kernel>" then "<kernel>.kd", one string buffer. */
    wa_sb_putc(&w->dynstr, '\0');
    for (unsigned k = 0; k < w->n; k++) {
        const char *name = w->kernels[k].prog->name;
        size_t len = strlen(name);
        for (unsigned j = 0; j < 2; j++) {
            symbol *s = &w->globals[2 * k + j];
            s->dynstr = (uint32_t)w->dynstr.len;
            s->name_len = len + (j ? 3 : 0);
            wa_sb_putn(&w->dynstr, name, len);
            if (j)
                wa_sb_puts(&w->dynstr, ".kd");
            wa_sb_putc(&w->dynstr, '\0');
            s->info = (unsigned char)(STB_GLOBAL << 4 | (j ? STT_OBJECT : STT_FUNC));
            s->other = j ? STV_DEFAULT : STV_PROTECTED;
            s->shndx = j ? S_RODATA : S_TEXT;
        }
    }
    if (w->dynstr.failed)
        return wa_error_nomem(w->ctx);
    for (unsigned g = 0; g < w->nglobals; g++)
        w->globals[g].name = w->dynstr.data + w->globals[g].dynstr;

    /* GNU hash: load factor 4, symbols grouped by bucket, then by name offset;
       12 bloom filter bits per symbol, rounded up to a power-of-two word count. */
    w->nbuckets = w->nglobals / 4 ? w->nglobals / 4 : 1;
    w->maskwords = (unsigned)next_pow2((uint64_t)w->nglobals * 12 / 64);
    for (unsigned g = 0; g < w->nglobals; g++) {
        symbol *s = &w->globals[g];
        s->gnu_hash = hash_gnu(s->name, s->name_len);
        s->bucket = s->gnu_hash % w->nbuckets;
        unsigned i = g;
        while (i > 0 && cmp_dyn(w, w->dynorder[i - 1], g) > 0) {
            w->dynorder[i] = w->dynorder[i - 1];
            i--;
        }
        w->dynorder[i] = g;
    }

    /* .strtab: labels (per kernel, in the order the assembler first meets them:
       a branch to a label comes before the label), globals, then _DYNAMIC. */
    wa_sb_putc(&w->strtab, '\0');
    for (unsigned k = 0; k < w->n; k++) {
        const wa_object_kernel *ki = &w->kernels[k];
        if (!ki->label_offsets)
            continue;
        const wa_program *p = ki->prog;
        unsigned char *seen = wa_tmp_calloc(w->ctx, p->nlabels + 1, 1);
        if (!seen)
            return wa_error_nomem(w->ctx);
        for (unsigned i = 0; i < p->ninstrs; i++) {
            for (unsigned o = 0; o < p->instrs[i].nops; o++) {
                if (p->instrs[i].ops[o].kind != WA_OPND_LABEL)
                    continue;
                unsigned id = p->instrs[i].ops[o].id;
                const char *name = p->labels[id].name;
                if (seen[id] || !p->labels[id].placed || is_temp_label(name))
                    continue;
                seen[id] = 1;
                symbol *s = &w->locals[w->nlocals++];
                s->name = name;
                s->strtab = (uint32_t)w->strtab.len;
                wa_sb_puts(&w->strtab, name);
                wa_sb_putc(&w->strtab, '\0');
                s->info = STB_LOCAL << 4 | STT_NOTYPE;
                s->shndx = S_TEXT;
                s->value = ki->label_offsets[id];   /* relocated to the kernel later */
                s->kernel = k;
            }
        }
        wa_tmp_free(w->ctx, seen);
    }
    for (unsigned g = 0; g < w->nglobals; g++) {
        w->globals[g].strtab = (uint32_t)w->strtab.len;
        wa_sb_putn(&w->strtab, w->globals[g].name, w->globals[g].name_len);
        wa_sb_putc(&w->strtab, '\0');
    }
    symbol *dyn = &w->locals[w->nlocals];
    dyn->strtab = (uint32_t)w->strtab.len;
    wa_sb_puts(&w->strtab, "_DYNAMIC");
    wa_sb_putc(&w->strtab, '\0');
    dyn->info = STB_LOCAL << 4 | STT_NOTYPE;
    dyn->other = STV_HIDDEN;
    dyn->shndx = S_DYNAMIC;

    for (unsigned s = 0; s < S_COUNT; s++) {
        w->sec[s].name = (uint32_t)w->shstrtab.len;
        wa_sb_puts(&w->shstrtab, sec_names[s]);
        wa_sb_putc(&w->shstrtab, '\0');
    }
    w->sec[S_NULL].name = 0;
    return w->strtab.failed || w->shstrtab.failed ? wa_error_nomem(w->ctx) : WA_OK;
}

static void set_sec(section *s, uint32_t type, uint64_t flags, uint64_t size, uint64_t align,
                    uint64_t entsize)
{
    s->type = type;
    s->flags = flags;
    s->size = size;
    s->align = align;
    s->entsize = entsize;
}

/* Addresses and offsets as ld.lld assigns them: the first read-only segment
   from the headers up, each later segment starting on a new page at the same
   offset within the page as its file offset. Returns the file size. */
static uint64_t layout(writer *w)
{
    section *s = w->sec;
    uint64_t text_size = 0;
    for (unsigned k = 0; k < w->n; k++) {
        text_size = align_to(text_size, TEXT_ALIGN);
        w->kernel_off[k] = text_size;
        text_size += align_to(w->kernels[k].code_len, 4) + 4u * WA_CODE_TAIL_NOPS;
    }
    set_sec(&s[S_NOTE], SHT_NOTE, SHF_ALLOC, 12 + 8 + align_to(w->note.len, 4), 4, 0);
    set_sec(&s[S_DYNSYM], SHT_DYNSYM, SHF_ALLOC, SYM_SIZE * (1 + (uint64_t)w->nglobals), 8,
            SYM_SIZE);
    set_sec(&s[S_GNU_HASH], SHT_GNU_HASH, SHF_ALLOC,
            16 + 8 * (uint64_t)w->maskwords + 4 * (uint64_t)w->nbuckets + 4 * (uint64_t)w->nglobals,
            8, 0);
    set_sec(&s[S_HASH], SHT_HASH, SHF_ALLOC, 4 * (2 + 2 * (1 + (uint64_t)w->nglobals)), 4, 4);
    set_sec(&s[S_DYNSTR], SHT_STRTAB, SHF_ALLOC, w->dynstr.len, 1, 0);
    set_sec(&s[S_RODATA], SHT_PROGBITS, SHF_ALLOC, (uint64_t)WA_KD_SIZE * w->n, 64, 0);
    set_sec(&s[S_TEXT], SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_size, TEXT_ALIGN, 0);
    set_sec(&s[S_DYNAMIC], SHT_DYNAMIC, SHF_ALLOC | SHF_WRITE, 7 * DYN_SIZE, 8, DYN_SIZE);
    set_sec(&s[S_RELRO_PAD], SHT_NOBITS, SHF_ALLOC | SHF_WRITE, 0, 1, 0);
    set_sec(&s[S_COMMENT], SHT_PROGBITS, SHF_MERGE | SHF_STRINGS, strlen(w->comment) + 1, 1, 1);
    set_sec(&s[S_SYMTAB], SHT_SYMTAB, 0, SYM_SIZE * (2 + (uint64_t)w->nlocals + w->nglobals), 8,
            SYM_SIZE);
    set_sec(&s[S_SHSTRTAB], SHT_STRTAB, 0, w->shstrtab.len, 1, 0);
    set_sec(&s[S_STRTAB], SHT_STRTAB, 0, w->strtab.len, 1, 0);
    s[S_DYNSYM].link = S_DYNSTR;
    s[S_DYNSYM].info = 1;
    s[S_GNU_HASH].link = S_DYNSYM;
    s[S_HASH].link = S_DYNSYM;
    s[S_DYNAMIC].link = S_DYNSTR;
    s[S_SYMTAB].link = S_STRTAB;
    s[S_SYMTAB].info = 2 + w->nlocals;

    /* Segment 1 (R): headers, then .note .. .rodata with address = offset. */
    uint64_t off = EHDR_SIZE + NPHDRS * PHDR_SIZE;
    for (unsigned i = S_NOTE; i <= S_RODATA; i++) {
        off = align_to(off, s[i].align);
        s[i].off = s[i].addr = off;
        off += s[i].size;
    }
    uint64_t dot = off;
    /* Segment 2 (R E): .text; segment 3 (RW): .dynamic and the RELRO padding
       up to the page end. */
    for (unsigned i = S_TEXT; i <= S_DYNAMIC; i++) {
        uint64_t addr = align_to(align_to(dot, PAGE) + dot % PAGE, s[i].align);
        s[i].addr = addr;
        s[i].off = align_skew(off, PAGE, addr);
        off = s[i].off + s[i].size;
        dot = addr + s[i].size;
    }
    s[S_RELRO_PAD].addr = dot;
    s[S_RELRO_PAD].off = off;
    s[S_RELRO_PAD].size = align_to(dot, PAGE) - dot;
    for (unsigned i = S_COMMENT; i < S_COUNT; i++) {
        off = align_to(off, s[i].align);
        s[i].off = off;
        off += s[i].size;
    }
    return align_to(off, 8) + SHDR_SIZE * S_COUNT;
}

static void put_sym(unsigned char *p, uint32_t name, const symbol *s)
{
    put_record(p, "411288",
               (const uint64_t[]){ name, s->info, s->other, s->shndx, s->value, s->size });
}

static void put_phdr(unsigned char *p, uint32_t type, uint32_t flags, uint64_t off,
                     uint64_t addr, uint64_t filesz, uint64_t memsz, uint64_t align)
{
    put_record(p, "44888888",
               (const uint64_t[]){ type, flags, off, addr, addr, filesz, memsz, align });
}

static void write_file(writer *w, unsigned char *buf, uint64_t size)
{
    section *s = w->sec;
    const wa_program *first = w->kernels[0].prog;
    memset(buf, 0, size);
    uint64_t shoff = size - SHDR_SIZE * S_COUNT;

    /* ELF header */
    static const unsigned char ident[8] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, ELFOSABI_AMDGPU_HSA };
    memcpy(buf, ident, sizeof(ident));
    buf[8] = ELFABIVERSION_AMDGPU_HSA_V5;
    /* type, machine, version, entry, phoff, shoff, flags, sizes and counts */
    put_record(buf + 16, "2248884222222",
               (const uint64_t[]){ ET_DYN, EM_AMDGPU, 1, 0, EHDR_SIZE, shoff, e_flags(first),
                                   EHDR_SIZE, PHDR_SIZE, NPHDRS, SHDR_SIZE, S_COUNT,
                                   S_SHSTRTAB });

    /* Program headers */
    unsigned char *ph = buf + EHDR_SIZE;
    uint64_t ro_end = s[S_RODATA].off + s[S_RODATA].size;
    uint64_t rw_mem = s[S_DYNAMIC].size + s[S_RELRO_PAD].size;
    put_phdr(ph, PT_PHDR, PF_R, EHDR_SIZE, EHDR_SIZE, NPHDRS * PHDR_SIZE, NPHDRS * PHDR_SIZE, 8);
    put_phdr(ph += PHDR_SIZE, PT_LOAD, PF_R, 0, 0, ro_end, ro_end, PAGE);
    put_phdr(ph += PHDR_SIZE, PT_LOAD, PF_R | PF_X, s[S_TEXT].off, s[S_TEXT].addr,
             s[S_TEXT].size, s[S_TEXT].size, PAGE);
    put_phdr(ph += PHDR_SIZE, PT_LOAD, PF_R | PF_W, s[S_DYNAMIC].off, s[S_DYNAMIC].addr,
             s[S_DYNAMIC].size, rw_mem, PAGE);
    put_phdr(ph += PHDR_SIZE, PT_DYNAMIC, PF_R | PF_W, s[S_DYNAMIC].off, s[S_DYNAMIC].addr,
             s[S_DYNAMIC].size, s[S_DYNAMIC].size, 8);
    put_phdr(ph += PHDR_SIZE, PT_GNU_RELRO, PF_R, s[S_DYNAMIC].off, s[S_DYNAMIC].addr,
             s[S_DYNAMIC].size, rw_mem, 1);
    put_phdr(ph += PHDR_SIZE, PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0);
    put_phdr(ph += PHDR_SIZE, PT_NOTE, PF_R, s[S_NOTE].off, s[S_NOTE].addr, s[S_NOTE].size,
             s[S_NOTE].size, 4);

    /* .note: one NT_AMDGPU_METADATA note named "AMDGPU" */
    unsigned char *p = buf + s[S_NOTE].off;
    put32(p, 7);
    put32(p + 4, w->note.len);
    put32(p + 8, NT_AMDGPU_METADATA);
    memcpy(p + 12, "AMDGPU", 7);
    memcpy(p + 20, w->note.data, w->note.len);

    /* Symbol values */
    for (unsigned k = 0; k < w->n; k++) {
        symbol *fn = &w->globals[2 * k], *kd = &w->globals[2 * k + 1];
        fn->value = s[S_TEXT].addr + w->kernel_off[k];
        fn->size = w->kernels[k].code_len;
        kd->value = s[S_RODATA].addr + (uint64_t)WA_KD_SIZE * k;
        kd->size = WA_KD_SIZE;
    }
    for (unsigned l = 0; l < w->nlocals; l++) {
        symbol *lab = &w->locals[l];
        lab->value += s[S_TEXT].addr + w->kernel_off[lab->kernel];
    }
    w->locals[w->nlocals].value = s[S_DYNAMIC].addr;

    /* .dynsym in GNU hash order */
    p = buf + s[S_DYNSYM].off + SYM_SIZE;
    for (unsigned i = 0; i < w->nglobals; i++, p += SYM_SIZE) {
        const symbol *g = &w->globals[w->dynorder[i]];
        put_sym(p, g->dynstr, g);
    }

    /* .gnu.hash */
    p = buf + s[S_GNU_HASH].off;
    put_record(p, "4444", (const uint64_t[]){ w->nbuckets, 1, w->maskwords, GNU_HASH_SHIFT2 });
    unsigned char *bloom = p + 16;
    unsigned char *buckets = bloom + 8 * (size_t)w->maskwords;
    unsigned char *values = buckets + 4 * (size_t)w->nbuckets;
    for (unsigned i = 0; i < w->nglobals; i++) {
        const symbol *g = &w->globals[w->dynorder[i]];
        unsigned char *word = bloom + 8 * ((g->gnu_hash / 64) & (w->maskwords - 1));
        uint64_t v = 0;
        for (unsigned b = 0; b < 8; b++)
            v |= (uint64_t)word[b] << (8 * b);
        v |= (uint64_t)1 << (g->gnu_hash % 64);
        v |= (uint64_t)1 << ((g->gnu_hash >> GNU_HASH_SHIFT2) % 64);
        put64(word, v);
        int last = i + 1 == w->nglobals || w->globals[w->dynorder[i + 1]].bucket != g->bucket;
        put32(values + 4 * (size_t)i, last ? g->gnu_hash | 1u : g->gnu_hash & ~1u);
        if (i == 0 || w->globals[w->dynorder[i - 1]].bucket != g->bucket)
            put32(buckets + 4 * (size_t)g->bucket, i + 1);
    }

    /* .hash (System V): one bucket per dynamic symbol */
    p = buf + s[S_HASH].off;
    uint32_t nsyms = w->nglobals + 1;
    put32(p, nsyms);
    put32(p + 4, nsyms);
    unsigned char *hb = p + 8, *hc = hb + 4 * (size_t)nsyms;
    for (unsigned i = 0; i < w->nglobals; i++) {
        const symbol *g = &w->globals[w->dynorder[i]];
        uint32_t b = hash_sysv(g->name, g->name_len) % nsyms;
        memcpy(hc + 4 * (size_t)(i + 1), hb + 4 * (size_t)b, 4);
        put32(hb + 4 * (size_t)b, i + 1);
    }

    memcpy(buf + s[S_DYNSTR].off, w->dynstr.data, w->dynstr.len);

    /* .rodata: the kernel descriptors */
    for (unsigned k = 0; k < w->n; k++) {
        const wa_program *prog = w->kernels[k].prog;
        wa_kernel_resources r;
        wa_kd_fields kd;
        wa_resources_compute(&r, prog);
        wa_kd_fields_compute(&kd, prog, &r);
        uint64_t kd_addr = s[S_RODATA].addr + (uint64_t)WA_KD_SIZE * k;
        wa_kd_bytes(buf + s[S_RODATA].off + (size_t)WA_KD_SIZE * k, &kd,
                    (int64_t)(s[S_TEXT].addr + w->kernel_off[k]) - (int64_t)kd_addr);
    }

    /* .text: each kernel 256-byte aligned, its code, the s_nop tail; s_nop
       between kernels as the assembler pads code. */
    p = buf + s[S_TEXT].off;
    for (uint64_t i = 0; i + 4 <= s[S_TEXT].size; i += 4)
        put32(p + i, WA_S_NOP_0);
    for (unsigned k = 0; k < w->n; k++)
        memcpy(p + w->kernel_off[k], w->kernels[k].code, w->kernels[k].code_len);

    /* .dynamic */
    static const uint32_t tags[6] = { DT_SYMTAB, DT_SYMENT, DT_STRTAB, DT_STRSZ, DT_GNU_HASH,
                                      DT_HASH };
    uint64_t vals[6] = { s[S_DYNSYM].addr, SYM_SIZE, s[S_DYNSTR].addr, s[S_DYNSTR].size,
                         s[S_GNU_HASH].addr, s[S_HASH].addr };
    p = buf + s[S_DYNAMIC].off;
    for (unsigned i = 0; i < 6; i++) {
        put64(p + 16 * i, tags[i]);
        put64(p + 16 * i + 8, vals[i]);
    }
    put64(p + 16 * 6, DT_NULL);

    memcpy(buf + s[S_COMMENT].off, w->comment, s[S_COMMENT].size);

    /* .symtab: null, labels, _DYNAMIC, then the globals in definition order */
    p = buf + s[S_SYMTAB].off + SYM_SIZE;
    for (unsigned l = 0; l <= w->nlocals; l++, p += SYM_SIZE)
        put_sym(p, w->locals[l].strtab, &w->locals[l]);
    for (unsigned g = 0; g < w->nglobals; g++, p += SYM_SIZE)
        put_sym(p, w->globals[g].strtab, &w->globals[g]);

    memcpy(buf + s[S_SHSTRTAB].off, w->shstrtab.data, w->shstrtab.len);
    memcpy(buf + s[S_STRTAB].off, w->strtab.data, w->strtab.len);

    /* Section headers */
    for (unsigned i = 1; i < S_COUNT; i++)
        put_record(buf + shoff + SHDR_SIZE * i, "4488884488",
                   (const uint64_t[]){ s[i].name, s[i].type, s[i].flags, s[i].addr, s[i].off,
                                       s[i].size, s[i].link, s[i].info, s[i].align,
                                       s[i].entsize });
}

wa_status wa_object_write_comment(wa_context *ctx, const wa_object_kernel *kernels,
                                  unsigned n, const char *comment, unsigned char **out,
                                  size_t *out_len)
{
    if (!ctx || !out || !out_len || (n && !kernels))
        return WA_E_INVALID;
    *out = NULL;
    *out_len = 0;
    wa_diag_reset(ctx);
    wa_status st = check_input(ctx, kernels, n);
    if (st)
        return st;

    writer w;
    memset(&w, 0, sizeof(w));
    w.ctx = ctx;
    w.kernels = kernels;
    w.n = n;
    w.comment = comment ? comment : "libwaveasm " WA_VERSION_STRING;
    wa_sb_init(&w.note, ctx);
    wa_sb_init(&w.dynstr, ctx);
    wa_sb_init(&w.strtab, ctx);
    wa_sb_init(&w.shstrtab, ctx);
    wa_metadata_msgpack(&w.note, kernels, n);
    st = w.note.failed ? wa_error_nomem(ctx) : build_symbols(&w);
    if (!st) {
        uint64_t size = layout(&w);
        unsigned char *buf = size <= (uint64_t)(size_t)-1 ? wa_user_buffer(ctx, (size_t)size) : NULL;
        if (!buf) {
            st = wa_error_nomem(ctx);
        } else {
            write_file(&w, buf, size);
            *out = buf;
            *out_len = (size_t)size;
        }
    }
    wa_sb_free(&w.note);
    wa_sb_free(&w.dynstr);
    wa_sb_free(&w.strtab);
    wa_sb_free(&w.shstrtab);
    wa_tmp_free(ctx, w.globals);
    wa_tmp_free(ctx, w.dynorder);
    wa_tmp_free(ctx, w.locals);
    wa_tmp_free(ctx, w.kernel_off);
    return st;
}

wa_status wa_object_write(wa_context *ctx, const wa_object_kernel *kernels, unsigned n,
                          unsigned char **out, size_t *out_len)
{
    return wa_object_write_comment(ctx, kernels, n, NULL, out, out_len);
}
