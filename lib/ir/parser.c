/* lib/ir/parser.c — reads the text form (docs/text-format.md) into a program.
   Stops at the first error and reports it with file:line:col. Syntax only:
   target rules are the validator's. */
#include <waveasm/text.h>

#include "ir.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Size of the mnemonic hash (a power of two, more than twice the spellings). */
#define PARSE_HASH 4096u

typedef struct parser {
    wa_context *ctx;
    wa_program *prog;
    const char *file;
    const char *text;
    size_t len;
    /* current line */
    const char *ls;       /* line start */
    size_t ll;            /* line length (without newline) */
    size_t pos;           /* cursor within the line */
    unsigned line;
    const uint32_t *hash; /* the context's mnemonic hash (mnemonic_index) */
    int in_kernel, seen_kernel, seen_item;
    wa_status status;
    /* Instructions written without a tag get theirs after parsing, above every
       explicit tag, so they never collide with a tag that appears later. */
    unsigned *untagged;
    unsigned nuntagged, capuntagged;
    int any_tag;
    wa_tag max_tag;
    int dpp_ctrl_seen;    /* the current instruction has a DPP control */
    /* Text made from another file (wa_program_parse_asm): source line of each
       line of `text`, for diagnostics and positions. NULL: the lines are the source. */
    const unsigned *line_map;
    unsigned nmap;
} parser;

/* The source line of the current line. */
static unsigned src_line(const parser *P)
{
    if (P->line_map && P->line >= 1 && P->line <= P->nmap)
        return P->line_map[P->line - 1];
    return P->line;
}

/* ---- errors ---------------------------------------------------------------------------- */

static wa_status perr_at(parser *P, size_t pos, wa_status st, const char *fmt, ...) WA_PRINTF(4, 5);
/* A library call made by the parser failed and recorded its own error: give that
   error the parser's location rather than reporting it twice. */
static wa_status relocate(parser *P, size_t pos, wa_status st)
{
    wa_loc loc = { P->file, src_line(P), (unsigned)pos + 1, WA_NO_TAG };
    wa_diag_relocate_last(P->ctx, loc);
    P->status = st;
    return st;
}
static wa_status perr_at(parser *P, size_t pos, wa_status st, const char *fmt, ...)
{
    wa_loc loc = { P->file, src_line(P), (unsigned)pos + 1, WA_NO_TAG };
    va_list ap;
    va_start(ap, fmt);
    wa_verror(P->ctx, st, loc, fmt, ap);
    va_end(ap);
    P->status = st;
    return st;
}
#define PERR(P, ...) perr_at((P), (P)->pos, WA_E_PARSE, __VA_ARGS__)

/* ---- mnemonic lookup --------------------------------------------------------------------- */

static unsigned hash_str(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The mnemonic hash: open addressing, each slot the opcode + 1 in the low 16
   bits and the top 16 bits of the spelling's hash above (0 = empty), kept under
   half full. Built once per context, on its first parse: the ISA table is
   constant, and a context is used by one thread at a time. */
static void hash_add(uint32_t *hash, const char *name, unsigned op)
{
    unsigned h = hash_str(name, strlen(name));
    unsigned i = h & (PARSE_HASH - 1u);
    while (hash[i])
        i = (i + 1) & (PARSE_HASH - 1u);
    hash[i] = (h & 0xFFFF0000u) | (op + 1u);
}

static int eq_n(const char *a, const char *s, size_t n)
{
    return a && strlen(a) == n && memcmp(a, s, n) == 0;
}

static int hash_find(const uint32_t *hash, const char *s, size_t n, unsigned *op)
{
    unsigned h = hash_str(s, n);
    unsigned i = h & (PARSE_HASH - 1u);
    while (hash[i]) {
        if ((hash[i] & 0xFFFF0000u) == (h & 0xFFFF0000u)) {
            unsigned k = (hash[i] & 0xFFFFu) - 1u;
            const wa_isa_info *info = wa_isa(k);
            if ((strncmp(info->mnemonic, s, n) == 0 && info->mnemonic[n] == '\0') ||
                (info->mnemonic_gfx90a && strncmp(info->mnemonic_gfx90a, s, n) == 0 &&
                 info->mnemonic_gfx90a[n] == '\0')) {
                *op = k;
                return 1;
            }
        }
        i = (i + 1) & (PARSE_HASH - 1u);
    }
    return 0;
}

/* The first row of a mnemonic is its base form; the lds and returning atomic
   forms sharing it are chosen from the modifiers and operands (alt_form). */
static const uint32_t *mnemonic_hash(wa_context *ctx)
{
    if (ctx->mnemonic_index)
        return ctx->mnemonic_index;
    uint32_t *hash = wa_mem_calloc(ctx, PARSE_HASH, sizeof(uint32_t));
    if (!hash)
        return NULL;
    for (unsigned op = 0; op < WA_OP_COUNT_; op++) {
        const wa_isa_info *info = wa_isa(op);
        unsigned prev;
        if (info->flags & WA_IF_PSEUDO)
            continue;
        if (!hash_find(hash, info->mnemonic, strlen(info->mnemonic), &prev))
            hash_add(hash, info->mnemonic, op);
        if (info->mnemonic_gfx90a &&
            !hash_find(hash, info->mnemonic_gfx90a, strlen(info->mnemonic_gfx90a), &prev))
            hash_add(hash, info->mnemonic_gfx90a, op);
    }
    ctx->mnemonic_index = hash;
    return hash;
}

static int lookup_n(const parser *P, const char *s, size_t n, unsigned *op)
{
    return hash_find(P->hash, s, n, op);
}

/* ---- character level ------------------------------------------------------------------------ */

static int at_end(const parser *P) { return P->pos >= P->ll; }
static char cur(const parser *P) { return P->pos < P->ll ? P->ls[P->pos] : '\0'; }
static char peek(const parser *P, size_t k) { return P->pos + k < P->ll ? P->ls[P->pos + k] : '\0'; }

static void skip_ws(parser *P)
{
    while (!at_end(P) && (cur(P) == ' ' || cur(P) == '\t' || cur(P) == '\r'))
        P->pos++;
}

static int is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.';
}

static int is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '$';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* 1 if a physical register starts here: v/s/a followed by '[' or by digits that
   end the word (v12, s[0:1]); v1_loop and s0done are symbols, as the assembler
   reads them. */
static int at_physical(const parser *P)
{
    char c = cur(P);
    if (c != 'v' && c != 's' && c != 'a')
        return 0;
    if (peek(P, 1) == '[')
        return 1;
    size_t k = 1;
    while (is_digit(peek(P, k)))
        k++;
    return k > 1 && !is_ident_char(peek(P, k));
}

/* Reads an identifier; returns its length (0 if none). */
static size_t read_ident(parser *P, const char **start)
{
    *start = P->ls + P->pos;
    size_t b = P->pos;
    if (!is_ident_start(cur(P)))
        return 0;
    while (!at_end(P) && is_ident_char(cur(P)))
        P->pos++;
    return P->pos - b;
}

static int accept(parser *P, char c)
{
    skip_ws(P);
    if (cur(P) == c) {
        P->pos++;
        return 1;
    }
    return 0;
}

static wa_status expect(parser *P, char c, const char *what)
{
    if (accept(P, c))
        return WA_OK;
    skip_ws(P);
    if (at_end(P) || cur(P) == ';')
        return PERR(P, "expected %s before end of line", what);
    return PERR(P, "expected %s, found '%c'", what, cur(P));
}

static int at_line_end(parser *P)
{
    skip_ws(P);
    return at_end(P) || cur(P) == ';';
}

/* ---- numbers ------------------------------------------------------------------------------------ */

/* Unsigned integer (decimal or 0x hex) into *v; fails on overflow past 2^64-1. */
static wa_status read_uint(parser *P, unsigned long long *v)
{
    skip_ws(P);
    size_t start = P->pos;
    unsigned long long x = 0;
    if (cur(P) == '0' && (peek(P, 1) == 'x' || peek(P, 1) == 'X')) {
        P->pos += 2;
        int any = 0;
        for (;;) {
            char c = cur(P);
            unsigned d;
            if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
            else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
            else break;
            if (x > (~0ull >> 4))
                return perr_at(P, start, WA_E_RANGE, "number out of range");
            x = x * 16 + d;
            P->pos++;
            any = 1;
        }
        if (!any)
            return perr_at(P, start, WA_E_PARSE, "expected hex digits after '0x'");
    } else {
        if (!is_digit(cur(P)))
            return at_end(P) ? PERR(P, "expected a number before end of line")
                             : PERR(P, "expected a number, found '%c'", cur(P));
        while (is_digit(cur(P))) {
            unsigned d = (unsigned)(cur(P) - '0');
            if (x > (~0ull - d) / 10)
                return perr_at(P, start, WA_E_RANGE, "number out of range");
            x = x * 10 + d;
            P->pos++;
        }
    }
    if (is_ident_char(cur(P)))
        return PERR(P, "unexpected '%c' in number", cur(P));
    *v = x;
    return WA_OK;
}

static wa_status read_u32(parser *P, unsigned *v, const char *what)
{
    size_t start = (skip_ws(P), P->pos);
    unsigned long long x;
    wa_status st = read_uint(P, &x);
    if (st)
        return st;
    if (x > 0xFFFFFFFFull)
        return perr_at(P, start, WA_E_RANGE, "%s %llu out of range", what, x);
    *v = (unsigned)x;
    return WA_OK;
}

/* Signed integer with optional '-' into int32 range [lo, hi]. */
static wa_status read_i32(parser *P, int *v, long long lo, long long hi, const char *what)
{
    skip_ws(P);
    size_t start = P->pos;
    int neg = accept(P, '-');
    unsigned long long x;
    wa_status st = read_uint(P, &x);
    if (st)
        return st;
    long long s;
    if (neg ? x > 0x8000000000000000ull : x > 0x7FFFFFFFFFFFFFFFull)
        return perr_at(P, start, WA_E_RANGE, "%s out of range (%lld..%lld)", what, lo, hi);
    s = neg ? (x == 0x8000000000000000ull ? (-0x7FFFFFFFFFFFFFFFll - 1) : -(long long)x)
            : (long long)x;
    if (s < lo || s > hi)
        return perr_at(P, start, WA_E_RANGE, "%s out of range (%lld..%lld)", what, lo, hi);
    *v = (int)s;
    return WA_OK;
}

/* Immediate operand: integer (int64 range) or float (has '.' or exponent). */
static wa_status read_immediate(parser *P, wa_operand *o)
{
    skip_ws(P);
    size_t start = P->pos;
    int neg = 0;
    if (cur(P) == '-') {
        neg = 1;
        P->pos++;
    }
    /* Decide between float and integer by scanning ahead. */
    size_t q = P->pos;
    int is_hex = cur(P) == '0' && (peek(P, 1) == 'x' || peek(P, 1) == 'X');
    int is_float = 0;
    if (!is_hex) {
        while (q < P->ll && is_digit(P->ls[q]))
            q++;
        if (q < P->ll && (P->ls[q] == '.' || P->ls[q] == 'e' || P->ls[q] == 'E'))
            is_float = 1;
    }
    if (is_float) {
        char buf[80];
        size_t e = P->pos;
        while (e < P->ll && (is_digit(P->ls[e]) || P->ls[e] == '.' || P->ls[e] == 'e' ||
                             P->ls[e] == 'E' ||
                             ((P->ls[e] == '-' || P->ls[e] == '+') && e > P->pos &&
                              (P->ls[e - 1] == 'e' || P->ls[e - 1] == 'E'))))
            e++;
        size_t n = e - P->pos;
        if (n == 0 || n >= sizeof(buf) - 2)
            return perr_at(P, start, WA_E_PARSE, "malformed number");
        buf[0] = neg ? '-' : '+';
        memcpy(buf + 1, P->ls + P->pos, n);
        buf[n + 1] = '\0';
        char *endp;
        errno = 0;
        double d = strtod(buf, &endp);
        if (*endp != '\0' || !is_digit(P->ls[P->pos]))
            return perr_at(P, start, WA_E_PARSE, "malformed number '%s'", buf + 1);
        if (!isfinite(d) || (errno == ERANGE && d == 0.0))
            return perr_at(P, start, WA_E_RANGE, "number out of range");
        P->pos = e;
        if (is_ident_char(cur(P)))
            return PERR(P, "unexpected '%c' in number", cur(P));
        *o = wa_opnd_fimm(d);
        return WA_OK;
    }
    unsigned long long x;
    wa_status st = read_uint(P, &x);
    if (st)
        return st;
    if ((!neg && x > 0x7FFFFFFFFFFFFFFFull) || (neg && x > 0x8000000000000000ull))
        return perr_at(P, start, WA_E_RANGE, "number out of range");
    *o = wa_opnd_imm(neg ? (int64_t)(0 - x) : (int64_t)x);
    return WA_OK;
}

/* ---- registers --------------------------------------------------------------------------------------- */

static wa_reg_class class_of_letter(char c)
{
    return c == 'v' ? WA_REG_VGPR : c == 's' ? WA_REG_SGPR : c == 'a' ? WA_REG_AGPR : WA_REG_NONE;
}

static const char *class_word(unsigned cls)
{
    return cls == WA_REG_VGPR ? "VGPR" : cls == WA_REG_SGPR ? "SGPR" : "AGPR";
}

/* %v12, %s3<2,align=2>, %v4[1], %v4[0:1] */
static wa_status read_virtual(parser *P, wa_operand *o)
{
    size_t start = P->pos;
    P->pos++; /* '%' */
    wa_reg_class cls = class_of_letter(cur(P));
    if (cls == WA_REG_NONE || !is_digit(peek(P, 1)))
        return perr_at(P, start, WA_E_PARSE,
                       "expected a virtual register like %%v0, %%s0 or %%a0");
    P->pos++;
    unsigned id;
    wa_status st = read_u32(P, &id, "virtual register number");
    if (st)
        return st;
    wa_program *prog = P->prog;
    int known = id < prog->nvregs && prog->vregs[id].cls != WA_REG_NONE;
    if (known && prog->vregs[id].cls != cls)
        return perr_at(P, start, WA_E_PARSE, "register %%%c%u was declared as a%s %s (%%%c%u)",
                       cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : 'a', id,
                       prog->vregs[id].cls == WA_REG_VGPR ? "" : "n",
                       class_word(prog->vregs[id].cls),
                       prog->vregs[id].cls == WA_REG_VGPR ? 'v'
                       : prog->vregs[id].cls == WA_REG_SGPR ? 's' : 'a', id);
    if (cur(P) == '<') {
        size_t ann = P->pos;
        P->pos++;
        unsigned size, align = 1;
        if ((st = read_u32(P, &size, "register size")))
            return st;
        if (accept(P, ',')) {
            skip_ws(P);
            size_t wat = P->pos;
            const char *w;
            size_t n = read_ident(P, &w);
            if (!eq_n("align", w, n))
                return perr_at(P, wat, WA_E_PARSE, "expected 'align=' in register shape");
            if ((st = expect(P, '=', "'='")) || (st = read_u32(P, &align, "alignment")))
                return st;
        }
        if ((st = expect(P, '>', "'>'")))
            return st;
        if (size == 0 || size > 32)
            return perr_at(P, ann, WA_E_RANGE, "register size %u out of range (1..32)", size);
        if (align == 0 || (align & (align - 1)) || align > 32)
            return perr_at(P, ann, WA_E_RANGE, "alignment %u is not a power of two up to 32",
                           align);
        if (known) {
            if (prog->vregs[id].size != size || prog->vregs[id].align != align)
                return perr_at(P, ann, WA_E_PARSE,
                               "register %%%c%u redeclared as <%u,align=%u>, was <%u,align=%u>",
                               cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : 'a', id, size,
                               align, prog->vregs[id].size, prog->vregs[id].align);
        } else {
            if ((st = wa_program_define_vreg(prog, id, cls, size, align))) {
                P->status = st;
                /* re-report with a location */
                return relocate(P, ann, st);
            }
            known = 1;
        }
    }
    if (!known) {
        if ((st = wa_program_define_vreg(prog, id, cls, 1, 1)))
            return relocate(P, start, st);
    }
    unsigned size = prog->vregs[id].size, first = 0, count = size;
    if (cur(P) == '[') {
        size_t br = P->pos;
        P->pos++;
        unsigned a, b;
        if ((st = read_u32(P, &a, "component")))
            return st;
        b = a;
        if (accept(P, ':') && (st = read_u32(P, &b, "component")))
            return st;
        if ((st = expect(P, ']', "']'")))
            return st;
        if (b < a || b >= size)
            return perr_at(P, br, WA_E_RANGE,
                           "components [%u:%u] outside register %%%c%u of size %u", a, b,
                           cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : 'a', id, size);
        first = a;
        count = b - a + 1;
    }
    memset(o, 0, sizeof(*o));
    o->kind = WA_OPND_VIRT;
    o->reg_class = (uint8_t)cls;
    o->id = id;
    o->first = first;
    o->count = (uint16_t)count;
    return WA_OK;
}

/* v5, v[4:7], s[0:1], a3 */
static wa_status read_physical(parser *P, wa_operand *o)
{
    size_t start = P->pos;
    wa_reg_class cls = class_of_letter(cur(P));
    P->pos++;
    unsigned a, b;
    wa_status st;
    if (cur(P) == '[') {
        P->pos++;
        if ((st = read_u32(P, &a, "register number")))
            return st;
        b = a;
        if (accept(P, ':') && (st = read_u32(P, &b, "register number")))
            return st;
        if ((st = expect(P, ']', "']'")))
            return st;
    } else {
        if ((st = read_u32(P, &a, "register number")))
            return st;
        b = a;
    }
    if (b < a)
        return perr_at(P, start, WA_E_PARSE, "register range ends before it starts");
    unsigned limit = WA_PHYS_LIMIT(cls);
    if (b >= limit)
        return perr_at(P, start, WA_E_RANGE, "register %c%u out of range (%c0..%c%u)",
                       cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : 'a', b,
                       cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : 'a',
                       cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : 'a', limit - 1);
    if (b - a + 1 > 32)
        return perr_at(P, start, WA_E_RANGE, "register range longer than 32");
    *o = wa_opnd_phys(cls, a, b - a + 1);
    return WA_OK;
}

static int special_by_name(const char *s, size_t n, wa_special *out)
{
    for (unsigned i = 0; i < WA_SPECIAL_COUNT_; i++) {
        if (eq_n(wa_special_name((wa_special)i), s, n)) {
            *out = (wa_special)i;
            return 1;
        }
    }
    return 0;
}

static wa_status label_ref(parser *P, const char *name, size_t n, size_t at, wa_label *out)
{
    wa_program *prog = P->prog;
    unsigned found = wa_label_find(prog, name, n);
    if (found != WA_NO_TAG) {
        *out = found;
        return WA_OK;
    }
    char buf[256];
    if (n >= sizeof(buf))
        return perr_at(P, at, WA_E_PARSE, "label name too long");
    memcpy(buf, name, n);
    buf[n] = '\0';
    wa_status st = wa_program_label_create(out, prog, buf);
    if (st)
        return relocate(P, at, st);
    return WA_OK;
}

/* hwreg(NAME) / hwreg(NAME, offset, size) with NAME a HW_REG_* name of the
   program's target or an id 0..63; the cursor is after "hwreg". */
static wa_status read_hwreg(parser *P, wa_operand *o)
{
    wa_status st;
    if ((st = expect(P, '(', "'(' after hwreg")))
        return st;
    skip_ws(P);
    size_t at = P->pos;
    unsigned id = 0;
    if (is_ident_start(cur(P))) {
        const char *w;
        size_t n = read_ident(P, &w);
        int found = 0;
        for (unsigned i = 0; i < 64 && !found; i++)
            if (eq_n(wa_hwreg_name(i, P->prog->target), w, n)) {
                id = i;
                found = 1;
            }
        if (!found) {
            int other = 0;
            for (unsigned t = WA_TARGET_GFX90A; t <= WA_TARGET_GFX950 && !other; t++)
                for (unsigned i = 0; i < 64 && !other; i++)
                    other = eq_n(wa_hwreg_name(i, (wa_target)t), w, n);
            if (other)
                return perr_at(P, at, WA_E_PARSE, "hardware register '%.*s' is not available on %s",
                               (int)n, w, wa_target_name(P->prog->target) ? wa_target_name(P->prog->target) : "this target");
            return perr_at(P, at, WA_E_PARSE, "unknown hardware register '%.*s'", (int)n, w);
        }
    } else {
        int v;
        if ((st = read_i32(P, &v, 0, 63, "hardware register id")))
            return st;
        id = (unsigned)v;
    }
    unsigned off = 0, size = 32;
    if (accept(P, ',')) {
        int v;
        if ((st = read_i32(P, &v, 0, 31, "hwreg bit offset")))
            return st;
        off = (unsigned)v;
        if ((st = expect(P, ',', "',' and the bit-field size (hwreg(id, offset, size))")))
            return st;
        if ((st = read_i32(P, &v, 1, 32, "hwreg bit-field size")))
            return st;
        size = (unsigned)v;
    }
    if ((st = expect(P, ')', "')' to close hwreg")))
        return st;
    *o = wa_opnd_imm((int64_t)WA_HWREG(id, off, size));
    return WA_OK;
}

/* One operand. `spec` (may be NULL past the table's count) tells whether a bare
   identifier may be a label. */
static wa_status read_operand(parser *P, wa_operand *o, const wa_isa_operand *spec)
{
    skip_ws(P);
    char c = cur(P);
    if (c == '%')
        return read_virtual(P, o);
    if (at_physical(P))
        return read_physical(P, o);
    if (c == '-' || is_digit(c))
        return read_immediate(P, o);
    if (is_ident_start(c)) {
        size_t at = P->pos;
        const char *w;
        size_t n = read_ident(P, &w);
        wa_special sp;
        if (special_by_name(w, n, &sp)) {
            *o = wa_opnd_special(sp);
            return WA_OK;
        }
        if (eq_n("off", w, n)) {
            *o = wa_opnd_off();
            return WA_OK;
        }
        if (eq_n("hwreg", w, n) && spec && (spec->classes & WA_OC_HWREG))
            return read_hwreg(P, o);
        if (spec && (spec->classes & WA_OC_LABEL)) {
            wa_label l;
            wa_status st = label_ref(P, w, n, at, &l);
            if (st)
                return st;
            *o = wa_opnd_label(l);
            return WA_OK;
        }
        return perr_at(P, at, WA_E_PARSE, "unknown operand '%.*s'", (int)n, w);
    }
    if (at_end(P) || c == ';')
        return PERR(P, "expected an operand before end of line");
    return PERR(P, "expected an operand, found '%c'", c);
}

/* Source-modifier bits of one operand as written. */
#define SM_NEG 1u
#define SM_ABS 2u
#define SM_SEXT 4u

/* `word(` at the cursor (no blanks before the parenthesis). */
static int at_call(const parser *P, const char *word)
{
    size_t n = strlen(word);
    return P->pos + n < P->ll && memcmp(P->ls + P->pos, word, n) == 0 && P->ls[P->pos + n] == '(';
}

/* An operand with source modifiers: -x, |x|, -|x|, neg(x), abs(x), sext(x) (and
   their combinations). A '-' before a digit is a negative number. */
static wa_status read_operand_mods(parser *P, wa_operand *o, const wa_isa_operand *spec,
                                   unsigned *mods)
{
    char closers[8];
    unsigned nclose = 0;
    wa_status st;
    *mods = 0;
    for (;;) {
        skip_ws(P);
        const char *word = at_call(P, "sext") ? "sext" : at_call(P, "neg") ? "neg"
                         : at_call(P, "abs") ? "abs" : NULL;
        unsigned bit = 0;
        size_t adv = 0;
        char closer = 0;
        if (word) {
            bit = word[0] == 's' ? SM_SEXT : word[0] == 'n' ? SM_NEG : SM_ABS;
            adv = strlen(word) + 1;
            closer = ')';
        } else if (cur(P) == '-' && (peek(P, 1) == '|' || peek(P, 1) == '%' ||
                                     (is_ident_start(peek(P, 1)) && peek(P, 1) != '.'))) {
            bit = SM_NEG;
            adv = 1;
        } else if (cur(P) == '|') {
            bit = SM_ABS;
            adv = 1;
            closer = '|';
        } else {
            break;
        }
        if ((*mods & bit) || nclose >= sizeof(closers))
            return PERR(P, "repeated source modifier");
        *mods |= bit;
        P->pos += adv;
        if (closer)
            closers[nclose++] = closer;
    }
    if ((st = read_operand(P, o, spec)))
        return st;
    while (nclose > 0) {
        char c = closers[--nclose];
        if ((st = expect(P, c, c == '|' ? "'|' to close the absolute value" : "')'")))
            return st;
    }
    return WA_OK;
}

/* ---- modifiers -------------------------------------------------------------------------------------- */

/* [b0,b1,...]: 1 to 4 bits; *count gets the number of entries. */
static wa_status read_list(parser *P, unsigned *bits, unsigned *count)
{
    wa_status st;
    if ((st = expect(P, '[', "'['")))
        return st;
    unsigned v = 0, n = 0;
    do {
        int b;
        if (n == 4)
            return PERR(P, "too many entries (at most 4)");
        if ((st = read_i32(P, &b, 0, 1, "selector bit")))
            return st;
        v |= (unsigned)b << n++;
    } while (accept(P, ','));
    if ((st = expect(P, ']', "']'")))
        return st;
    *bits = v;
    *count = n;
    return WA_OK;
}

/* op_sel/op_sel_hi/neg_lo/neg_hi/neg lists, stored as docs/text-format.md says:
   op_sel's last entry (one more than the sources) of a row with a VGPR result is
   the destination (bit 3);
   packed VOP3P op_sel_hi is kept inverted. */
static wa_status read_sel(parser *P, const wa_isa_info *info, int which, uint8_t *field)
{
    unsigned bits = 0, n = 0;
    size_t at = (skip_ws(P), P->pos);
    wa_status st = read_list(P, &bits, &n);
    if (st)
        return st;
    if (which == 0 && (info->flags & WA_IF_OPSEL4))
        ; /* four entries at their bit positions, like llvm-mc */
    else if (which == 0 && wa_opsel_has_dst(info) && n >= 2 && n == wa_source_count(info) + 1)
        bits = (bits & ((1u << (n - 1)) - 1u)) | ((bits >> (n - 1)) & 1u) << 3;
    else if (which == 0 && n == 4 && !wa_opsel_has_dst(info))
        return perr_at(P, at, WA_E_PARSE, "op_sel has at most 3 entries here");
    else if (which != 0 && n > 3)
        return perr_at(P, at, WA_E_PARSE, "at most 3 entries");
    if (which == 1 && wa_vop3p_packed(info))
        bits = ~bits & ((1u << n) - 1u);
    *field = (uint8_t)bits;
    return WA_OK;
}

static wa_status read_sdwa_name(parser *P, uint8_t *field, int unused, const char *what)
{
    wa_status st;
    if ((st = expect(P, ':', "':'")))
        return st;
    skip_ws(P);
    size_t at = P->pos;
    const char *w;
    size_t n = read_ident(P, &w);
    int v = unused ? wa_sdwa_unused_value(w, n) : wa_sdwa_sel_value(w, n);
    if (v < 0)
        return perr_at(P, at, WA_E_PARSE, "%s takes %s, not '%.*s'", what,
                       unused ? "UNUSED_PAD, UNUSED_SEXT or UNUSED_PRESERVE"
                              : "BYTE_0..BYTE_3, WORD_0, WORD_1 or DWORD",
                       (int)n, w);
    *field = (uint8_t)v;
    return WA_OK;
}

static wa_status read_count(parser *P, int8_t *field, int max, const char *name)
{
    wa_status st;
    int v;
    if ((st = expect(P, '(', "'('")) || (st = read_i32(P, &v, 0, max, name)) ||
        (st = expect(P, ')', "')'")))
        return st;
    *field = (int8_t)v;
    return WA_OK;
}

/* One DPP control per instruction. */
static wa_status set_dpp_ctrl(parser *P, wa_mods *m, size_t at, unsigned ctrl)
{
    if (P->dpp_ctrl_seen)
        return perr_at(P, at, WA_E_PARSE, "a second DPP control (one of quad_perm, row_shl, "
                                          "row_shr, row_ror, wave_*, row_mirror, row_half_mirror, "
                                          "row_bcast per instruction)");
    P->dpp_ctrl_seen = 1;
    m->dpp_ctrl = (uint16_t)ctrl;
    m->flags |= WA_MOD_DPP;
    return WA_OK;
}

static wa_status read_modifier(parser *P, const wa_isa_info *info, wa_mods *m)
{
    skip_ws(P);
    size_t at = P->pos;
    const char *w;
    size_t n = read_ident(P, &w);
    wa_status st;
    int v;
    if (n == 0)
        return PERR(P, "expected a modifier, found '%c'", cur(P));
#define WORD(s) eq_n(s, w, n)
    if (WORD("offen")) m->flags |= WA_MOD_OFFEN;
    else if (WORD("idxen")) m->flags |= WA_MOD_IDXEN;
    else if (WORD("glc") || WORD("sc0")) m->flags |= WA_MOD_GLC;
    else if (WORD("slc") || WORD("nt")) m->flags |= WA_MOD_SLC;
    else if (WORD("scc") || WORD("sc1")) m->flags |= WA_MOD_SCC;
    else if (WORD("lds")) m->flags |= WA_MOD_LDS;
    else if (WORD("offset") || WORD("offset0") || WORD("offset1")) {
        if ((st = expect(P, ':', "':'")) ||
            (st = read_i32(P, &v, -2147483647LL - 1, 2147483647LL, "offset")))
            return st;
        if (WORD("offset1"))
            m->offset1 = v;
        else
            m->offset = v;
    } else if (WORD("cbsz") || WORD("abid") || WORD("blgp")) {
        if ((st = expect(P, ':', "':'")) || (st = read_i32(P, &v, 0, 255, "modifier value")))
            return st;
        if (WORD("cbsz")) m->cbsz = (uint8_t)v;
        else if (WORD("abid")) m->abid = (uint8_t)v;
        else m->blgp = (uint8_t)v;
    } else if (WORD("op_sel") || WORD("op_sel_hi") || WORD("neg_lo") || WORD("neg_hi") ||
               WORD("neg")) {
        int which = WORD("op_sel") ? 0 : WORD("op_sel_hi") ? 1 : 2;
        uint8_t *field = which == 0 ? &m->op_sel : which == 1 ? &m->op_sel_hi
                       : WORD("neg_hi") ? &m->neg_hi : &m->neg;
        if (which == 2 && !wa_mods_as_lists(info))
            return perr_at(P, at, WA_E_PARSE,
                           "'%s' takes its source modifiers on the operands (-v1, |v1|), not as "
                           "neg_lo/neg_hi/neg lists", info->mnemonic);
        if ((st = expect(P, ':', "':'")))
            return st;
        if ((st = read_sel(P, info, which, field)))
            return st;
    } else if (WORD("clamp")) {
        m->flags |= WA_MOD_CLAMP;
    } else if (WORD("mul") || WORD("div")) {
        size_t vat;
        if ((st = expect(P, ':', "':'")))
            return st;
        vat = (skip_ws(P), P->pos);
        if ((st = read_i32(P, &v, 1, 4, "output modifier")))
            return st;
        if (WORD("mul") ? (v == 3) : (v != 1 && v != 2))
            return perr_at(P, vat, WA_E_PARSE, "output modifiers are mul:2, mul:4 and div:2");
        m->omod = (uint8_t)(v == 1 ? 0 : WORD("div") ? 3 : v == 2 ? 1 : 2);
    } else if (WORD("dst_sel") || WORD("src0_sel") || WORD("src1_sel")) {
        uint8_t *field = WORD("dst_sel") ? &m->dst_sel : WORD("src0_sel") ? &m->src0_sel
                                                                        : &m->src1_sel;
        if ((st = read_sdwa_name(P, field, 0, WORD("dst_sel") ? "dst_sel" : WORD("src0_sel") ? "src0_sel" : "src1_sel")))
            return st;
        m->flags |= WA_MOD_SDWA;
    } else if (WORD("dst_unused")) {
        if ((st = read_sdwa_name(P, &m->dst_unused, 1, "dst_unused")))
            return st;
        m->flags |= WA_MOD_SDWA;
    } else if (WORD("quad_perm")) {
        unsigned sels = 0;
        if ((st = expect(P, ':', "':'")) || (st = expect(P, '[', "'['")))
            return st;
        for (unsigned i = 0; i < 4; i++) {
            int sel;
            if (i && (st = expect(P, ',', "','")))
                return st;
            if ((st = read_i32(P, &sel, 0, 3, "quad_perm lane")))
                return st;
            sels |= (unsigned)sel << (2 * i);
        }
        if ((st = expect(P, ']', "']'")))
            return st;
        return set_dpp_ctrl(P, m, at, sels);
    } else if (WORD("row_shl") || WORD("row_shr") || WORD("row_ror")) {
        if ((st = expect(P, ':', "':'")) || (st = read_i32(P, &v, 1, 15, "row shift")))
            return st;
        unsigned base = WORD("row_shl") ? 0x100u : WORD("row_shr") ? 0x110u : 0x120u;
        return set_dpp_ctrl(P, m, at, base + (unsigned)v);
    } else if (WORD("wave_shl") || WORD("wave_rol") || WORD("wave_shr") || WORD("wave_ror")) {
        if ((st = expect(P, ':', "':'")) || (st = read_i32(P, &v, 1, 1, "wave shift")))
            return st;
        unsigned c = WORD("wave_shl") ? WA_DPP_WAVE_SHL1 : WORD("wave_rol") ? WA_DPP_WAVE_ROL1
                   : WORD("wave_shr") ? WA_DPP_WAVE_SHR1 : WA_DPP_WAVE_ROR1;
        return set_dpp_ctrl(P, m, at, c);
    } else if (WORD("row_mirror") || WORD("row_half_mirror")) {
        return set_dpp_ctrl(P, m, at, WORD("row_mirror") ? WA_DPP_ROW_MIRROR : WA_DPP_ROW_HALF_MIRROR);
    } else if (WORD("row_bcast")) {
        size_t vat;
        if ((st = expect(P, ':', "':'")))
            return st;
        vat = (skip_ws(P), P->pos);
        if ((st = read_i32(P, &v, 0, 255, "row_bcast")))
            return st;
        if (v != 15 && v != 31)
            return perr_at(P, vat, WA_E_PARSE, "row_bcast takes 15 or 31, not %d", v);
        return set_dpp_ctrl(P, m, at, v == 15 ? WA_DPP_ROW_BCAST15 : WA_DPP_ROW_BCAST31);
    } else if (WORD("row_newbcast")) {
        if ((st = expect(P, ':', "':'")) || (st = read_i32(P, &v, 0, 15, "row_newbcast")))
            return st;
        return set_dpp_ctrl(P, m, at, WA_DPP_ROW_NEWBCAST(v));
    } else if (WORD("dpp_ctrl")) {
        if ((st = expect(P, ':', "':'")) || (st = read_i32(P, &v, 0, 0x1FF, "dpp_ctrl")))
            return st;
        return set_dpp_ctrl(P, m, at, (unsigned)v);
    } else if (WORD("row_mask") || WORD("bank_mask")) {
        if ((st = expect(P, ':', "':'")) || (st = read_i32(P, &v, 0, 15, WORD("row_mask") ? "row_mask" : "bank_mask")))
            return st;
        if (WORD("row_mask"))
            m->row_mask = (uint8_t)v;
        else
            m->bank_mask = (uint8_t)v;
        m->flags |= WA_MOD_DPP;
    } else if (WORD("bound_ctrl")) {
        /* GFX9 assemblers read bound_ctrl:0 and bound_ctrl:1 as the same bit */
        if ((st = expect(P, ':', "':'")) || (st = read_i32(P, &v, 0, 1, "bound_ctrl")))
            return st;
        m->flags |= WA_MOD_DPP | WA_MOD_BOUND_CTRL;
    } else if (WORD("vmcnt")) {
        return read_count(P, &m->vmcnt, 127, "vmcnt");
    } else if (WORD("lgkmcnt")) {
        return read_count(P, &m->lgkmcnt, 127, "lgkmcnt");
    } else if (WORD("expcnt")) {
        return read_count(P, &m->expcnt, 127, "expcnt");
    } else {
        return perr_at(P, at, WA_E_PARSE, "unknown modifier '%.*s'", (int)n, w);
    }
#undef WORD
    return WA_OK;
}

/* ---- trailing comment: "; @I12 text" ------------------------------------------------------------- */

static wa_status read_trailer(parser *P, wa_tag *tag, const char **comment)
{
    *tag = WA_NO_TAG;
    *comment = NULL;
    skip_ws(P);
    if (at_end(P))
        return WA_OK;
    if (cur(P) != ';')
        return PERR(P, "unexpected '%c' (expected ',' between operands or end of line)", cur(P));
    P->pos++;
    /* Blanks before a tag are free; a plain comment keeps all but the first blank. */
    size_t after = P->pos;
    skip_ws(P);
    if (!(cur(P) == '@' && peek(P, 1) == 'I' && is_digit(peek(P, 2)))) {
        P->pos = after;
        if (cur(P) == ' ')
            P->pos++;
    }
    if (cur(P) == '@' && peek(P, 1) == 'I' && is_digit(peek(P, 2))) {
        size_t at = P->pos;
        P->pos += 2;
        unsigned t;
        wa_status st = read_u32(P, &t, "tag");
        if (st)
            return st;
        if (t == WA_NO_TAG)
            return perr_at(P, at, WA_E_RANGE, "tag out of range");
        *tag = t;
        if (cur(P) == ' ' || cur(P) == '\t')
            P->pos++;
        else if (!at_end(P))
            return PERR(P, "expected a space after the tag");
    }
    size_t e = P->ll;
    while (e > P->pos && (P->ls[e - 1] == ' ' || P->ls[e - 1] == '\t' || P->ls[e - 1] == '\r'))
        e--;
    if (e > P->pos) {
        *comment = wa_arena_strndup(&P->prog->arena, P->ls + P->pos, e - P->pos);
        if (!*comment)
            return P->status = wa_error_nomem(P->ctx);
    }
    P->pos = P->ll;
    return WA_OK;
}

/* ---- instruction ---------------------------------------------------------------------------------- */

/* Another row spelled like `op` (same mnemonic and format): the lds form when `lds`
   is set, else the form with `nops` operands (a returning atomic has vdst first). */
static wa_opcode alt_form(unsigned op, int lds, unsigned nops)
{
    const wa_isa_info *info = wa_isa_get(op);
    for (unsigned k = 0; k < wa_isa_count(); k++) {
        const wa_isa_info *o = wa_isa_get(k);
        if (o->format != info->format || strcmp(o->mnemonic, info->mnemonic) != 0)
            continue;
        if (lds ? wa_lds_by_modifier(o)
                : (!wa_lds_by_modifier(o) && o->num_operands == nops))
            return (wa_opcode)k;
    }
    return WA_OP_COUNT_;
}

/* s_waitcnt 0x0f70: the numeric form, decoded to fields. */
static void decode_waitcnt(unsigned v, wa_mods *m)
{
    m->vmcnt = (int8_t)((v & 0xF) | ((v >> 10) & 0x30));
    m->expcnt = (int8_t)((v >> 4) & 0x7);
    m->lgkmcnt = (int8_t)((v >> 8) & 0xF);
}

static wa_status parse_instruction(parser *P)
{
    size_t mpos = P->pos;
    const char *w;
    size_t n = read_ident(P, &w);
    unsigned op;
    int dpp_suffix = 0, sdwa_suffix = 0;
    if (!lookup_n(P, w, n, &op)) {
        int found = 0;
        if (n > 4 && (memcmp(w + n - 4, "_e32", 4) == 0 || memcmp(w + n - 4, "_e64", 4) == 0))
            found = lookup_n(P, w, n - 4, &op);
        else if (n > 4 && memcmp(w + n - 4, "_dpp", 4) == 0)
            found = dpp_suffix = lookup_n(P, w, n - 4, &op);
        else if (n > 5 && memcmp(w + n - 5, "_sdwa", 5) == 0)
            found = sdwa_suffix = lookup_n(P, w, n - 5, &op);
        if (!found)
            return perr_at(P, mpos, WA_E_PARSE, "unknown mnemonic '%.*s'", (int)n, w);
    }
    const wa_isa_info *info = wa_isa_get(op);
    wa_operand ops[WA_ISA_MAX_OPERANDS + 1];
    size_t opos[WA_ISA_MAX_OPERANDS + 1];
    unsigned opmods[WA_ISA_MAX_OPERANDS + 1];
    unsigned nops = 0;
    wa_mods mods = WA_MODS_INIT;
    wa_status st;
    P->dpp_ctrl_seen = 0;
    if (dpp_suffix)
        mods.flags |= WA_MOD_DPP;
    if (sdwa_suffix)
        mods.flags |= WA_MOD_SDWA;

    skip_ws(P);
    if (op == WA_OP_S_WAITCNT && (is_digit(cur(P)))) {
        unsigned v;
        size_t at = P->pos;
        if ((st = read_u32(P, &v, "s_waitcnt value")))
            return st;
        if (v > 0xFFFF)
            return perr_at(P, at, WA_E_RANGE, "s_waitcnt value out of range (0..0xffff)");
        decode_waitcnt(v, &mods);
    } else if (info->num_operands > 0 && !at_line_end(P)) {
        /* The plain and `lds` forms share a mnemonic; the plain one has the most operands. */
        for (;;) {
            if (nops > WA_ISA_MAX_OPERANDS)
                return PERR(P, "too many operands");
            const wa_isa_operand *spec = nops < info->num_operands ? &info->operands[nops] : NULL;
            skip_ws(P);
            opos[nops] = P->pos;
            if ((st = read_operand_mods(P, &ops[nops], spec, &opmods[nops])))
                return st;
            nops++;
            if (!accept(P, ','))
                break;
        }
    }
    /* Modifiers up to the comment. */
    for (;;) {
        skip_ws(P);
        if (at_end(P) || cur(P) == ';')
            break;
        if (cur(P) == '&') { /* "vmcnt(0) & lgkmcnt(0)" */
            P->pos++;
            continue;
        }
        if (cur(P) == ',')
            return PERR(P, "unexpected ',' after modifiers");
        if (info->num_operands == 0 && nops == 0 &&
            (is_digit(cur(P)) || cur(P) == '%' || cur(P) == '-'))
            return PERR(P, "'%s' takes no operands", wa_isa_mnemonic(op, P->prog->target));
        if (!is_ident_start(cur(P)))
            return PERR(P, "unexpected '%c' (expected ',' between operands or a modifier)",
                        cur(P));
        if (nops > 0 && at_physical(P))
            return PERR(P, "expected ',' before another operand");
        if ((st = read_modifier(P, info, &mods)))
            return st;
    }
    if ((mods.flags & WA_MOD_DPP) && !P->dpp_ctrl_seen)
        return perr_at(P, mpos, WA_E_PARSE,
                       "DPP needs a control: quad_perm:[a,b,c,d], row_shl:N, row_shr:N, row_ror:N, "
                       "wave_shl:1, wave_rol:1, wave_shr:1, wave_ror:1, row_mirror, "
                       "row_half_mirror, row_bcast:15 or row_bcast:31");
    if (mods.flags & WA_MOD_LDS) {
        wa_opcode l = alt_form(op, 1, 0);
        if (l == WA_OP_COUNT_)
            return perr_at(P, mpos, WA_E_PARSE, "'%s' has no lds form",
                           wa_isa_mnemonic(op, P->prog->target));
        op = l;
        info = wa_isa_get(op);
    }
    if (nops != info->num_operands) {
        wa_opcode a = alt_form(op, (mods.flags & WA_MOD_LDS) != 0, nops);
        if (a != WA_OP_COUNT_ && !(mods.flags & WA_MOD_LDS)) {
            op = a;
            info = wa_isa_get(op);
        }
    }
    if (nops != info->num_operands) {
        size_t at = nops > info->num_operands ? opos[info->num_operands] : mpos;
        return perr_at(P, at, WA_E_PARSE, "'%s' expects %u operand%s, found %u",
                       wa_isa_mnemonic(op, P->prog->target), info->num_operands,
                       info->num_operands == 1 ? "" : "s", nops);
    }
    /* Source modifiers written on operands go to the source's bit. */
    for (unsigned i = 0; i < nops; i++) {
        if (!opmods[i])
            continue;
        int slot = wa_source_slot(info, i);
        if (slot < 0 || slot > 2 || ((opmods[i] & SM_SEXT) && slot > 1))
            return perr_at(P, opos[i], WA_E_PARSE, "operand %u of '%s' is not a source that takes modifiers",
                           i, wa_isa_mnemonic(op, P->prog->target));
        if (wa_mods_as_lists(info))
            return perr_at(P, opos[i], WA_E_PARSE, "'%s' takes its source modifiers as neg_lo:[..] / neg_hi:[..]",
                           wa_isa_mnemonic(op, P->prog->target));
        if (opmods[i] & SM_NEG)
            mods.neg |= (uint8_t)(1u << slot);
        if (opmods[i] & SM_ABS)
            mods.abs |= (uint8_t)(1u << slot);
        if ((opmods[i] & SM_SEXT) && !(mods.flags & WA_MOD_SDWA))
            return perr_at(P, opos[i], WA_E_PARSE, "sext() needs the SDWA form ('%s_sdwa')",
                           wa_isa_mnemonic(op, P->prog->target));
        if (opmods[i] & SM_SEXT)
            mods.sext |= (uint8_t)(1u << slot);
    }
    if ((mods.flags & WA_MOD_SDWA) && (mods.flags & WA_MOD_DPP))
        return perr_at(P, mpos, WA_E_PARSE, "an instruction is DPP or SDWA, not both");
    /* Branch targets must be labels; other positions never are. */
    for (unsigned i = 0; i < nops; i++) {
        int wants_label = (info->operands[i].classes & WA_OC_LABEL) != 0;
        if (wants_label != (ops[i].kind == WA_OPND_LABEL))
            return perr_at(P, opos[i], WA_E_PARSE, wants_label ? "expected a label"
                                                               : "a label is not allowed here");
    }
    wa_tag tag;
    const char *comment;
    if ((st = read_trailer(P, &tag, &comment)))
        return st;
    unsigned idx;
    if (tag == WA_NO_TAG && WA_GROW(P->ctx, P->untagged, P->capuntagged, P->nuntagged + 1))
        return P->status = wa_error_nomem(P->ctx);
    st = wa_program_insert(P->prog, (wa_opcode)op, ops, nops, &mods, tag == WA_NO_TAG ? 0 : tag,
                           src_line(P), (unsigned)mpos + 1, &idx);
    if (st)
        return relocate(P, mpos, st);
    if (tag == WA_NO_TAG) {
        P->untagged[P->nuntagged++] = idx;
    } else if (!P->any_tag || tag > P->max_tag) {
        P->any_tag = 1;
        P->max_tag = tag;
    }
    P->prog->instrs[idx].comment = comment;
    return WA_OK;
}

/* ---- header directives -------------------------------------------------------------------------- */

static wa_status parse_abi(parser *P)
{
    unsigned mask = 0;
    skip_ws(P);
    const char *w;
    size_t at = P->pos;
    size_t n = read_ident(P, &w);
    if (eq_n("none", w, n)) {
        P->prog->abi_mask = 0;
        return WA_OK;
    }
    P->pos = at;
    do {
        skip_ws(P);
        at = P->pos;
        n = read_ident(P, &w);
        unsigned in;
        for (in = 0; in < WA_ABI_COUNT_; in++)
            if (eq_n(wa_abi_input_name((wa_abi_input)in), w, n))
                break;
        if (in == WA_ABI_COUNT_)
            return perr_at(P, at, WA_E_PARSE, "unknown ABI input '%.*s'", (int)n, w);
        mask |= WA_ABI_BIT(in);
    } while (accept(P, ','));
    P->prog->abi_mask = mask;
    return WA_OK;
}

/* `.arg` at column `dir_at` of the current line: the argument remembers where it
   was written, for the validator's messages. */
static wa_status parse_arg(parser *P, size_t dir_at)
{
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    char name[256];
    skip_ws(P);
    size_t at = P->pos;
    wa_status st;
    if (cur(P) == '-') {
        P->pos++;
        name[0] = '\0';
    } else {
        const char *w;
        size_t n = read_ident(P, &w);
        if (n == 0)
            return PERR(P, "expected an argument name (or '-')");
        if (n >= sizeof(name))
            return perr_at(P, at, WA_E_PARSE, "argument name too long");
        memcpy(name, w, n);
        name[n] = '\0';
    }
    a.name = name;
    if ((st = expect(P, ',', "','")))
        return st;
    skip_ws(P);
    at = P->pos;
    const char *w;
    size_t n = read_ident(P, &w);
    unsigned k;
    for (k = 0; k < WA_ARG_KIND_COUNT_; k++)
        if (eq_n(wa_arg_kind_name((wa_arg_kind)k), w, n))
            break;
    if (k == WA_ARG_KIND_COUNT_)
        return perr_at(P, at, WA_E_PARSE, "unknown argument kind '%.*s'", (int)n, w);
    a.kind = (wa_arg_kind)k;
    int have_offset = 0, have_size = 0;
    while (accept(P, ',')) {
        skip_ws(P);
        at = P->pos;
        n = read_ident(P, &w);
        if (eq_n("offset", w, n) || eq_n("size", w, n) || eq_n("align", w, n)) {
            unsigned v;
            if ((st = expect(P, ':', "':'")) || (st = read_u32(P, &v, "value")))
                return st;
            if (eq_n("offset", w, n)) {
                if (v == WA_ARG_OFFSET_AUTO)
                    return perr_at(P, at, WA_E_RANGE, "offset out of range");
                a.offset = v;
                have_offset = 1;
            } else if (eq_n("size", w, n)) {
                a.size = v;
                have_size = 1;
            } else {
                a.align = v;
            }
        } else if (eq_n("const", w, n)) {
            a.flags |= WA_ARG_CONST;
        } else if (eq_n("restrict", w, n)) {
            a.flags |= WA_ARG_RESTRICT;
        } else if (eq_n("volatile", w, n)) {
            a.flags |= WA_ARG_VOLATILE;
        } else {
            return perr_at(P, at, WA_E_PARSE, "unknown argument property '%.*s'", (int)n, w);
        }
    }
    (void)have_offset;
    if (!have_size)
        return PERR(P, "argument needs 'size:'");
    unsigned index;
    st = wa_program_add_arg(&index, P->prog, &a);
    if (st)
        return relocate(P, at, st);
    P->prog->args[index].line = src_line(P);
    P->prog->args[index].col = (unsigned)dir_at + 1;
    return WA_OK;
}

static wa_status parse_directive(parser *P)
{
    size_t at = P->pos;
    const char *w;
    size_t n = read_ident(P, &w);
    wa_program *prog = P->prog;
    wa_status st;
    if (P->seen_item)
        return perr_at(P, at, WA_E_PARSE, "directive '%.*s' after the first instruction", (int)n,
                       w);
    if (eq_n(".target", w, n)) {
        skip_ws(P);
        size_t t = P->pos;
        const char *tn;
        size_t tl = read_ident(P, &tn);
        char buf[16];
        wa_target target;
        if (tl == 0 || tl >= sizeof(buf))
            return perr_at(P, t, WA_E_PARSE, "expected a target name");
        memcpy(buf, tn, tl);
        buf[tl] = '\0';
        if (wa_target_from_name(&target, buf) != WA_OK)
            return perr_at(P, t, WA_E_PARSE, "unknown target '%s' (gfx90a, gfx942, gfx950)", buf);
        prog->target = target;
    } else if (eq_n(".workgroup_size", w, n)) {
        unsigned v[3];
        for (unsigned i = 0; i < 3; i++) {
            if (i && (st = expect(P, ',', "','")))
                return st;
            if ((st = read_u32(P, &v[i], "workgroup size")))
                return st;
        }
        memcpy(prog->wg, v, sizeof(v));
    } else if (eq_n(".lds_bytes", w, n)) {
        if ((st = read_u32(P, &prog->lds_bytes, "LDS size")))
            return st;
    } else if (eq_n(".abi", w, n)) {
        if ((st = parse_abi(P)))
            return st;
    } else if (eq_n(".arg", w, n)) {
        if ((st = parse_arg(P, at)))
            return st;
    } else if (eq_n(".vreg", w, n)) {
        do {
            skip_ws(P);
            if (cur(P) != '%')
                return PERR(P, "expected a virtual register");
            wa_operand o;
            if ((st = read_virtual(P, &o)))
                return st;
        } while (accept(P, ','));
    } else {
        return perr_at(P, at, WA_E_PARSE, "unknown directive '%.*s'", (int)n, w);
    }
    if (!at_line_end(P))
        return PERR(P, "unexpected '%c' after directive", cur(P));
    return WA_OK;
}

/* ---- lines ------------------------------------------------------------------------------------------ */

static wa_status parse_comment_item(parser *P)
{
    P->pos++; /* ';' */
    if (cur(P) == ' ')
        P->pos++;
    size_t e = P->ll;
    while (e > P->pos && (P->ls[e - 1] == ' ' || P->ls[e - 1] == '\t' || P->ls[e - 1] == '\r'))
        e--;
    const char *text = wa_arena_strndup(&P->prog->arena, P->ls + P->pos, e - P->pos);
    if (!text)
        return P->status = wa_error_nomem(P->ctx);
    unsigned idx;
    wa_status st = wa_program_insert(P->prog, WA_OP_COMMENT, NULL, 0, NULL, WA_NO_TAG, src_line(P),
                                     (unsigned)P->pos, &idx);
    if (st)
        return P->status = st;
    P->prog->instrs[idx].comment = text;
    return WA_OK;
}

static wa_status parse_kernel_start(parser *P)
{
    size_t at = P->pos;
    P->pos += 7; /* ".kernel" */
    if (P->seen_kernel)
        return perr_at(P, at, WA_E_PARSE, "only one kernel per file");
    skip_ws(P);
    size_t npos = P->pos;
    const char *w;
    size_t n = read_ident(P, &w);
    if (n == 0)
        return PERR(P, "expected a kernel name");
    if (!at_line_end(P))
        return PERR(P, "unexpected '%c' after the kernel name", cur(P));
    const char *name = wa_arena_strndup(&P->prog->arena, w, n);
    if (!name)
        return P->status = wa_error_nomem(P->ctx);
    if (!wa_kernel_name_valid(name))
        return perr_at(P, npos, WA_E_PARSE, "kernel name '%s' is not a valid global symbol", name);
    P->prog->name = name;
    P->prog->header_line = src_line(P);
    P->in_kernel = P->seen_kernel = 1;
    return WA_OK;
}

/* Bytes of a line: ordinary, starting a comment, never allowed (control
   characters but tab and CR, DEL), allowed only in comments (non-ASCII). */
enum { BC_PLAIN, BC_COMMENT, BC_CONTROL, BC_HIGH };
#define BC_R16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const unsigned char byte_class[256] = {
    /* 0x00 */ 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 2, 2, 2, 0, 2, 2,
    /* 0x10 */ BC_R16(2),
    /* 0x20 */ 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 0x30 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
    /* 0x40 */ BC_R16(0), BC_R16(0), BC_R16(0),
    /* 0x70 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
    /* 0x80 */ BC_R16(3), BC_R16(3), BC_R16(3), BC_R16(3),
    BC_R16(3), BC_R16(3), BC_R16(3), BC_R16(3),
};
#undef BC_R16

/* Does any of the 8 bytes at `p` start a comment or fall outside printable
   ASCII (below 0x20, 0x7F, or 0x80 and above)? Exact, no false positives. */
static int word_needs_look(const char *p)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t w, a, b, d;
    memcpy(&w, p, 8);
#define HAS_ZERO_(x) (((x) - ones) & ~(x) & highs)
    a = w ^ (ones * 0x3Bu); /* ';' */
    b = w ^ (ones * 0x23u); /* '#' */
    d = w ^ (ones * 0x7Fu);
    return ((w & highs) | ((w - ones * 0x20u) & ~w & highs) | HAS_ZERO_(a) | HAS_ZERO_(b) |
            HAS_ZERO_(d)) != 0;
#undef HAS_ZERO_
}

static wa_status parse_line(parser *P)
{
    P->pos = 0;
    /* Reject control characters and stray bytes outside comments: one table
       look-up per byte, almost always 0. */
    int in_comment = 0;
    for (size_t i = 0; i < P->ll; i++) {
        /* Eight bytes at a time while none of them needs a look (the usual case). */
        while (i + 8 <= P->ll && !word_needs_look(P->ls + i))
            i += 8;
        if (i >= P->ll)
            break;
        unsigned char c = (unsigned char)P->ls[i];
        unsigned k = byte_class[c];
        if (k) {
            if (k == BC_COMMENT)
                in_comment = 1;
            else if (k == BC_CONTROL || !in_comment)
                return perr_at(P, i, WA_E_PARSE, "invalid character (byte 0x%02x)", c);
        }
    }
    skip_ws(P);
    if (at_end(P) || cur(P) == '#')
        return WA_OK;
    if (!P->in_kernel) {
        if (cur(P) == ';')
            return WA_OK;
        const char *w;
        size_t save = P->pos;
        size_t n = read_ident(P, &w);
        P->pos = save;
        if (eq_n(".kernel", w, n))
            return parse_kernel_start(P);
        if (P->seen_kernel)
            return PERR(P, "unexpected text after '.end_kernel'");
        return PERR(P, "expected '.kernel <name>'");
    }
    if (cur(P) == ';')
        return parse_comment_item(P);
    if (cur(P) == '.') {
        const char *w;
        size_t save = P->pos;
        size_t n = read_ident(P, &w);
        if (eq_n(".end_kernel", w, n)) {
            if (!at_line_end(P))
                return PERR(P, "unexpected '%c' after '.end_kernel'", cur(P));
            P->in_kernel = 0;
            return WA_OK;
        }
        if (eq_n(".kernel", w, n))
            return perr_at(P, save, WA_E_PARSE, "'.kernel' inside a kernel (missing '.end_kernel')");
        /* A label may start with '.', e.g. ".LBB0_1:". */
        skip_ws(P);
        if (cur(P) != ':') {
            P->pos = save;
            return parse_directive(P);
        }
        P->pos = save;
    }
    if (!is_ident_start(cur(P)))
        return PERR(P, "expected an instruction, label or directive, found '%c'", cur(P));
    /* Label? */
    size_t save = P->pos;
    const char *w;
    size_t n = read_ident(P, &w);
    if (cur(P) == ':') {
        P->pos++;
        wa_label l;
        wa_status st = label_ref(P, w, n, save, &l);
        if (st)
            return st;
        if (!at_line_end(P))
            return PERR(P, "unexpected '%c' after label", cur(P));
        wa_operand o = wa_opnd_label(l);
        st = wa_program_insert(P->prog, WA_OP_LABEL, &o, 1, NULL, WA_NO_TAG, src_line(P),
                               (unsigned)save + 1, NULL);
        if (st)
            return relocate(P, save, st);
        P->seen_item = 1;
        return WA_OK;
    }
    P->pos = save;
    P->seen_item = 1;
    return parse_instruction(P);
}

static wa_status parse_all(parser *P)
{
    size_t i = 0;
    P->line = 0;
    while (i < P->len || (i == P->len && P->len == 0)) {
        const char *nl = i < P->len ? memchr(P->text + i, '\n', P->len - i) : NULL;
        size_t e = nl ? (size_t)(nl - P->text) : P->len;
        P->line++;
        P->ls = P->text + i;
        P->ll = e - i;
        if (P->ll && P->ls[P->ll - 1] == '\r')
            P->ll--;
        wa_status st = parse_line(P);
        if (st)
            return st;
        if (e >= P->len)
            break;
        i = e + 1;
    }
    if (P->in_kernel) {
        P->pos = P->ll;
        return PERR(P, "unterminated kernel '%s': missing '.end_kernel' at end of input",
                    P->prog->name);
    }
    if (!P->seen_kernel) {
        P->pos = 0;
        return PERR(P, "no kernel found (expected '.kernel <name>')");
    }
    wa_tag next = P->any_tag ? P->max_tag + 1 : 0;
    for (unsigned u = 0; u < P->nuntagged; u++) {
        if (next == WA_NO_TAG) {
            wa_instr *in = &P->prog->instrs[P->untagged[u]];
            wa_loc loc = { P->file, in->line, in->col, WA_NO_TAG };
            return P->status = wa_error(P->ctx, WA_E_RANGE, loc,
                                        "no tag left for this instruction (tags end at I%u)",
                                        WA_NO_TAG - 1);
        }
        P->prog->instrs[P->untagged[u]].tag = next++;
    }
    P->prog->next_tag = next;
    return WA_OK;
}

wa_status wa_program_parse(wa_program **out, wa_context *ctx, const char *text, size_t len,
                           const char *file_name)
{
    if (!out || !ctx || (!text && len))
        return WA_E_INVALID;
    *out = NULL;
    wa_diag_reset(ctx);
    return wa_parse_mapped(out, ctx, text, len, file_name, NULL, 0);
}

wa_status wa_parse_mapped(wa_program **out, wa_context *ctx, const char *text, size_t len,
                          const char *file_name, const unsigned *line_map, unsigned nlines)
{
    wa_program *prog = NULL;
    wa_status st = wa_program_create(&prog, ctx, "unnamed");
    if (st)
        return st;
    if (file_name) {
        prog->file = wa_arena_strdup(&prog->arena, file_name);
        if (!prog->file) {
            wa_program_destroy(prog);
            return wa_error_nomem(ctx);
        }
    }
    parser *P = wa_mem_calloc(ctx, 1, sizeof(parser));
    if (!P) {
        wa_program_destroy(prog);
        return wa_error_nomem(ctx);
    }
    P->ctx = ctx;
    P->prog = prog;
    P->file = prog->file;
    P->text = text ? text : "";
    P->len = len;
    P->line_map = line_map;
    P->nmap = nlines;
    P->hash = mnemonic_hash(ctx);
    st = P->hash ? parse_all(P) : wa_error_nomem(ctx);
    wa_mem_free(ctx, P->untagged);
    wa_mem_free(ctx, P);
    if (st) {
        wa_program_destroy(prog);
        return st;
    }
    *out = prog;
    return WA_OK;
}

wa_status wa_program_parse_file(wa_program **out, wa_context *ctx, const char *path)
{
    if (!out || !ctx || !path)
        return WA_E_INVALID;
    *out = NULL;
    wa_diag_reset(ctx);
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return wa_error(ctx, WA_E_IO, WA_LOC_NONE, "cannot open '%s': %s", path, strerror(errno));
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        wa_sb_putn(&sb, buf, n);
    int err = ferror(f);
    if (!is_stdin)
        fclose(f);
    if (err) {
        wa_sb_free(&sb);
        return wa_error(ctx, WA_E_IO, WA_LOC_NONE, "cannot read '%s'", path);
    }
    if (sb.failed) {
        wa_sb_free(&sb);
        return wa_error_nomem(ctx);
    }
    wa_status st = wa_program_parse(out, ctx, sb.data ? sb.data : "", sb.len,
                                    is_stdin ? "<stdin>" : path);
    wa_sb_free(&sb);
    return st;
}
