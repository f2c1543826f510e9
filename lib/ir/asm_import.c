/* lib/ir/asm_import.c — AMDGPU assembly as LLVM writes it (llc output, llvm-mc
   input) to kernel IR: the kernel's code between its label and the end of the
   function, its ABI inputs and LDS size from the `.amdhsa_kernel` block, its
   arguments and workgroup size from the code object metadata. The result is
   the text form of the kernel, read by the ordinary parser with every line
   mapped back to the line of the assembly file it came from. */
#include <waveasm/text.h>

#include "ir.h"

#include <stdlib.h>
#include <string.h>

typedef struct line {
    const char *s; /* without leading blanks */
    size_t n;      /* without trailing blanks, comments kept */
    unsigned indent; /* columns of leading blanks (a tab counts 8) */
    unsigned lead;   /* bytes of leading blanks */
    unsigned no;     /* 1-based line number */
} line;

#define MAX_IMPORT_ARGS 4096u

typedef struct arg_info {
    char name[128];
    char kind[48];
    unsigned offset, size;
    unsigned flags;   /* const, restrict, volatile */
    unsigned line;
} arg_info;

/* What one kernel needs, gathered from the three places LLVM puts it. */
typedef struct kernel_info {
    char name[256];
    unsigned kd_line;                /* `.amdhsa_kernel NAME` */
    /* .amdhsa_* fields: -1 when absent */
    long f_dispatch_ptr, f_queue_ptr, f_kernarg_ptr, f_dispatch_id, f_private_buffer,
        f_flat_scratch_init, f_private_size_sgpr, f_preload_length, f_user_sgpr_count,
        f_wg_id[3], f_wg_info, f_workitem_id, f_lds, f_private_segment, f_dynamic_stack;
    /* the code */
    unsigned body_first, body_last;  /* line indices, body_first > body_last: none */
    /* metadata */
    int have_meta;
    unsigned meta_line;
    unsigned reqd[3];
    int have_reqd;
    unsigned max_flat;
    arg_info *args;
    unsigned nargs;
} kernel_info;

typedef struct importer {
    wa_context *ctx;
    const char *file;
    line *lines;
    unsigned nlines;
    wa_target target;
    unsigned target_line;
} importer;

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static int word_eq(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    return n >= k && memcmp(s, w, k) == 0 && (n == k || is_blank(s[k]) || s[k] == ':' || s[k] == ',');
}

/* The line without a trailing `;` comment (outside quotes). */
static size_t code_len(const line *l)
{
    int quoted = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (l->s[i] == '"')
            quoted = !quoted;
        else if (!quoted && l->s[i] == ';')
            return i;
    }
    return l->n;
}

static wa_status split_lines(importer *I, const char *text, size_t len)
{
    size_t cap = 64;
    I->lines = wa_mem_alloc(I->ctx, cap * sizeof(line));
    if (!I->lines)
        return wa_error_nomem(I->ctx);
    size_t i = 0;
    unsigned no = 0;
    while (i <= len) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        no++;
        if (I->nlines == cap) {
            if (cap > (size_t)0x7FFFFFFF / sizeof(line))
                return wa_error(I->ctx, WA_E_RANGE, WA_LOC_NONE, "input too large");
            line *p = wa_mem_realloc(I->ctx, I->lines, 2 * cap * sizeof(line));
            if (!p)
                return wa_error_nomem(I->ctx);
            I->lines = p;
            cap *= 2;
        }
        line *l = &I->lines[I->nlines++];
        size_t b = i;
        unsigned indent = 0;
        while (b < e && is_blank(text[b])) {
            indent += text[b] == '\t' ? 8 : 1;
            b++;
        }
        size_t t = e;
        while (t > b && is_blank(text[t - 1]))
            t--;
        l->s = text + b;
        l->n = t - b;
        l->indent = indent;
        l->lead = (unsigned)(b - i);
        l->no = no;
        if (e >= len)
            break;
        i = e + 1;
    }
    return WA_OK;
}

static wa_status error_at(importer *I, unsigned no, wa_status st, const char *fmt, ...) WA_PRINTF(4, 5);
static wa_status error_at(importer *I, unsigned no, wa_status st, const char *fmt, ...)
{
    wa_loc loc = { I->file, no, no ? 1u : 0u, WA_NO_TAG };
    va_list ap;
    va_start(ap, fmt);
    wa_verror(I->ctx, st, loc, fmt, ap);
    va_end(ap);
    return st;
}

/* Reads an unsigned number (decimal or 0x hex) at s[0..n); -1 if none. */
static long read_number(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && is_blank(s[i]))
        i++;
    if (i == n)
        return -1;
    int hex = n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
    if (hex)
        i += 2;
    long v = 0;
    size_t start = i;
    for (; i < n; i++) {
        int d;
        char c = s[i];
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (hex && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            break;
        if (v > 0x7FFFFFFFL / (hex ? 16 : 10))
            return -1;
        v = v * (hex ? 16 : 10) + d;
    }
    return i == start ? -1 : v;
}

/* `.amdgcn_target "amdgcn-amd-amdhsa--gfx942[:feature...]"` */
static wa_status read_target(importer *I, const line *l, size_t n)
{
    const char *q = memchr(l->s, '"', n);
    const char *g = q ? strstr(q, "--gfx") : NULL;
    if (!g || g >= l->s + n)
        return error_at(I, l->no, WA_E_PARSE, "target '%.*s' is not an amdgcn-amd-amdhsa target",
                        (int)n, l->s);
    g += 2;
    size_t k = 0;
    while (g + k < l->s + n && g[k] != '"' && g[k] != ':')
        k++;
    char name[16];
    if (k >= sizeof(name))
        k = sizeof(name) - 1;
    memcpy(name, g, k);
    name[k] = '\0';
    if (wa_target_from_name(&I->target, name) != WA_OK)
        return error_at(I, l->no, WA_E_UNSUPPORTED, "target %s is not supported (gfx90a, gfx942, gfx950)",
                        name);
    I->target_line = l->no;
    return WA_OK;
}

static void kernel_defaults(kernel_info *K)
{
    memset(K, 0, sizeof(*K));
    long *f[] = { &K->f_dispatch_ptr, &K->f_queue_ptr, &K->f_kernarg_ptr, &K->f_dispatch_id,
                  &K->f_private_buffer, &K->f_flat_scratch_init, &K->f_private_size_sgpr,
                  &K->f_preload_length, &K->f_user_sgpr_count, &K->f_wg_id[0], &K->f_wg_id[1],
                  &K->f_wg_id[2], &K->f_wg_info, &K->f_workitem_id, &K->f_lds,
                  &K->f_private_segment, &K->f_dynamic_stack };
    for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
        *f[i] = -1;
    K->body_first = 1;
    K->body_last = 0;
}

/* The `.amdhsa_kernel` block starting at line index `i`; returns the index of
   its `.end_amdhsa_kernel`. */
static unsigned read_kd(importer *I, unsigned i, kernel_info *K)
{
    static const struct {
        const char *name;
        size_t off;
    } fields[] = {
        { ".amdhsa_user_sgpr_dispatch_ptr", offsetof(kernel_info, f_dispatch_ptr) },
        { ".amdhsa_user_sgpr_queue_ptr", offsetof(kernel_info, f_queue_ptr) },
        { ".amdhsa_user_sgpr_kernarg_segment_ptr", offsetof(kernel_info, f_kernarg_ptr) },
        { ".amdhsa_user_sgpr_dispatch_id", offsetof(kernel_info, f_dispatch_id) },
        { ".amdhsa_user_sgpr_private_segment_buffer", offsetof(kernel_info, f_private_buffer) },
        { ".amdhsa_user_sgpr_flat_scratch_init", offsetof(kernel_info, f_flat_scratch_init) },
        { ".amdhsa_user_sgpr_private_segment_size", offsetof(kernel_info, f_private_size_sgpr) },
        { ".amdhsa_user_sgpr_kernarg_preload_length", offsetof(kernel_info, f_preload_length) },
        { ".amdhsa_user_sgpr_count", offsetof(kernel_info, f_user_sgpr_count) },
        { ".amdhsa_system_sgpr_workgroup_id_x", offsetof(kernel_info, f_wg_id) },
        { ".amdhsa_system_sgpr_workgroup_id_y", offsetof(kernel_info, f_wg_id) + sizeof(long) },
        { ".amdhsa_system_sgpr_workgroup_id_z", offsetof(kernel_info, f_wg_id) + 2 * sizeof(long) },
        { ".amdhsa_system_sgpr_workgroup_info", offsetof(kernel_info, f_wg_info) },
        { ".amdhsa_system_vgpr_workitem_id", offsetof(kernel_info, f_workitem_id) },
        { ".amdhsa_group_segment_fixed_size", offsetof(kernel_info, f_lds) },
        { ".amdhsa_enable_private_segment", offsetof(kernel_info, f_private_segment) },
        { ".amdhsa_uses_dynamic_stack", offsetof(kernel_info, f_dynamic_stack) },
    };
    for (i++; i < I->nlines; i++) {
        const line *l = &I->lines[i];
        size_t n = code_len(l);
        if (word_eq(l->s, n, ".end_amdhsa_kernel"))
            return i;
        for (unsigned f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
            size_t k = strlen(fields[f].name);
            if (word_eq(l->s, n, fields[f].name)) {
                long *dst = (long *)((char *)K + fields[f].off);
                *dst = read_number(l->s + k, n - k);
            }
        }
    }
    return i;
}

/* ---- code object metadata (YAML as LLVM prints it) --------------------------------------- */

/* Key and value of a metadata line "[- ].key: value". */
static int meta_kv(const line *l, const char **key, size_t *klen, const char **val, size_t *vlen,
                   int *dash)
{
    const char *s = l->s;
    size_t n = l->n;
    *dash = n >= 2 && s[0] == '-' && s[1] == ' ';
    if (*dash) {
        s += 2;
        n -= 2;
        while (n && is_blank(*s)) {
            s++;
            n--;
        }
    }
    const char *c = memchr(s, ':', n);
    if (!c)
        return 0;
    *key = s;
    *klen = (size_t)(c - s);
    *val = c + 1;
    *vlen = n - (size_t)(c + 1 - s);
    while (*vlen && is_blank(**val)) {
        (*val)++;
        (*vlen)--;
    }
    /* a quoted scalar: 'name' or "name" */
    if (*vlen >= 2 && (**val == '\'' || **val == '"') && (*val)[*vlen - 1] == **val) {
        (*val)++;
        *vlen -= 2;
    }
    return 1;
}

static void copy_word(char *dst, size_t cap, const char *s, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* Keeps the kernel item just read when it is the one asked for. */
static void take_kernel(kernel_info *K, const kernel_info *cur, arg_info **args, unsigned nargs)
{
    K->have_meta = 1;
    K->meta_line = cur->meta_line;
    K->have_reqd = cur->have_reqd;
    memcpy(K->reqd, cur->reqd, sizeof(K->reqd));
    K->max_flat = cur->max_flat;
    K->args = *args;
    K->nargs = nargs;
    *args = NULL;
}

/* The metadata block from line index `i` (`.amdgpu_metadata`): the item of
   `amdhsa.kernels` whose `.name` is `K->name` gives its arguments and workgroup
   size. Returns the index of `.end_amdgpu_metadata`. */
static unsigned read_metadata(importer *I, unsigned i, kernel_info *K, wa_status *st)
{
    arg_info *args = wa_mem_alloc(I->ctx, MAX_IMPORT_ARGS * sizeof(arg_info));
    if (!args) {
        *st = wa_error_nomem(I->ctx);
        return I->nlines;
    }
    kernel_info cur;
    kernel_defaults(&cur);
    unsigned nargs = 0, item_indent = 0, args_indent = 0, arg_indent = 0, reqd_n = 0;
    int in_list = 0, in_item = 0, in_args = 0, in_reqd = 0, mine = 0;
    for (i++; i < I->nlines && *st == WA_OK; i++) {
        const line *l = &I->lines[i];
        if (word_eq(l->s, l->n, ".end_amdgpu_metadata"))
            break;
        if (!l->n || l->s[0] == '#' || word_eq(l->s, l->n, "---") || word_eq(l->s, l->n, "..."))
            continue;
        const char *key = NULL, *val = NULL;
        size_t klen = 0, vlen = 0;
        int dash = 0;
        int kv = meta_kv(l, &key, &klen, &val, &vlen, &dash);
        if (l->indent == 0 && !dash) {
            /* a top-level key: the kernel list starts or ends */
            if (in_item && mine)
                take_kernel(K, &cur, &args, nargs);
            in_item = in_args = in_reqd = mine = 0;
            in_list = kv && klen == 14 && memcmp(key, "amdhsa.kernels", 14) == 0;
            continue;
        }
        if (!in_list)
            continue;
        if (dash && (!in_item || l->indent == item_indent)) {
            if (in_item && mine)
                take_kernel(K, &cur, &args, nargs);
            in_item = 1;
            item_indent = l->indent;
            in_args = in_reqd = mine = 0;
            nargs = 0;
            kernel_defaults(&cur);
            cur.meta_line = l->no;
        }
        if (!kv) {
            if (in_reqd && dash && reqd_n < 3) {
                long v = read_number(l->s + 2, l->n - 2);
                cur.reqd[reqd_n++] = v > 0 ? (unsigned)v : 0;
                cur.have_reqd = reqd_n == 3;
            }
            continue;
        }
        unsigned key_indent = l->indent + (dash ? 2u : 0u);
        if (in_args && key_indent > args_indent) {
            if (dash && (!arg_indent || l->indent == arg_indent)) {
                arg_indent = l->indent;
                if (nargs == MAX_IMPORT_ARGS) {
                    *st = error_at(I, l->no, WA_E_RANGE, "more than %u kernel arguments",
                                   MAX_IMPORT_ARGS);
                    break;
                }
                memset(&args[nargs], 0, sizeof(arg_info));
                args[nargs++].line = l->no;
            }
            if (nargs) {
                arg_info *a = &args[nargs - 1];
                if (klen == 5 && memcmp(key, ".name", 5) == 0)
                    copy_word(a->name, sizeof(a->name), val, vlen);
                else if (klen == 11 && memcmp(key, ".value_kind", 11) == 0)
                    copy_word(a->kind, sizeof(a->kind), val, vlen);
                else if (klen == 7 && memcmp(key, ".offset", 7) == 0)
                    a->offset = (unsigned)read_number(val, vlen);
                else if (klen == 5 && memcmp(key, ".size", 5) == 0)
                    a->size = (unsigned)read_number(val, vlen);
                else if (vlen == 4 && memcmp(val, "true", 4) == 0)
                    a->flags |= klen == 9 && memcmp(key, ".is_const", 9) == 0        ? 1u
                              : klen == 12 && memcmp(key, ".is_restrict", 12) == 0  ? 2u
                              : klen == 12 && memcmp(key, ".is_volatile", 12) == 0  ? 4u
                                                                                    : 0u;
            }
            continue;
        }
        in_args = in_reqd = 0;
        if (klen == 5 && memcmp(key, ".args", 5) == 0) {
            in_args = 1;
            args_indent = key_indent;
            arg_indent = 0;
        } else if (klen == 20 && memcmp(key, ".reqd_workgroup_size", 20) == 0) {
            reqd_n = 0;
            const char *b = memchr(val, '[', vlen); /* flow form: [ 256, 1, 1 ] */
            if (b) {
                const char *p = b + 1, *end = val + vlen;
                while (p < end && reqd_n < 3) {
                    long v = read_number(p, (size_t)(end - p));
                    cur.reqd[reqd_n++] = v > 0 ? (unsigned)v : 0;
                    const char *c = memchr(p, ',', (size_t)(end - p));
                    if (!c)
                        break;
                    p = c + 1;
                }
                cur.have_reqd = reqd_n == 3;
            } else {
                in_reqd = 1;
            }
        } else if (klen == 24 && memcmp(key, ".max_flat_workgroup_size", 24) == 0) {
            long v = read_number(val, vlen);
            cur.max_flat = v > 0 ? (unsigned)v : 0;
        } else if (klen == 5 && memcmp(key, ".name", 5) == 0) {
            mine = vlen == strlen(K->name) && memcmp(val, K->name, vlen) == 0;
        }
    }
    if (*st == WA_OK && in_item && mine)
        take_kernel(K, &cur, &args, nargs);
    wa_mem_free(I->ctx, args);
    while (i < I->nlines && !word_eq(I->lines[i].s, I->lines[i].n, ".end_amdgpu_metadata"))
        i++;
    return i;
}

/* ---- the code ------------------------------------------------------------------------------ */

/* A line `NAME:` (possibly followed by a comment). */
static int is_label_of(const line *l, const char *name)
{
    size_t n = strlen(name), c = code_len(l);
    while (c && is_blank(l->s[c - 1]))
        c--;
    return c == n + 1 && memcmp(l->s, name, n) == 0 && l->s[n] == ':';
}

/* The end label of the kernel's function: X in `.size NAME, X-NAME`. */
static size_t end_label(const importer *I, const char *name, const char **out)
{
    size_t nl = strlen(name);
    for (unsigned i = 0; i < I->nlines; i++) {
        const line *l = &I->lines[i];
        size_t n = code_len(l);
        if (!word_eq(l->s, n, ".size"))
            continue;
        const char *p = l->s + 5, *end = l->s + n;
        while (p < end && is_blank(*p))
            p++;
        if ((size_t)(end - p) <= nl || memcmp(p, name, nl) != 0 || (p[nl] != ',' && !is_blank(p[nl])))
            continue;
        p += nl;
        while (p < end && (is_blank(*p) || *p == ','))
            p++;
        const char *q = p;
        while (q < end && *q != '-' && !is_blank(*q))
            q++;
        *out = p;
        return (size_t)(q - p);
    }
    return 0;
}

/* Body lines: from the kernel's label to the end of its function (its end label,
   or the first line that starts another section, symbol or kernel). */
static void find_body(importer *I, kernel_info *K)
{
    const char *endl = NULL;
    size_t endn = end_label(I, K->name, &endl);
    for (unsigned i = 0; i < I->nlines; i++) {
        if (!is_label_of(&I->lines[i], K->name))
            continue;
        unsigned j = i + 1;
        for (; j < I->nlines; j++) {
            const line *l = &I->lines[j];
            size_t n = code_len(l);
            if ((endn && n > endn && memcmp(l->s, endl, endn) == 0 && l->s[endn] == ':') ||
                (n > 10 && memcmp(l->s, ".Lfunc_end", 10) == 0) || word_eq(l->s, n, ".section") ||
                word_eq(l->s, n, ".amdhsa_kernel") || word_eq(l->s, n, ".globl") ||
                word_eq(l->s, n, ".type") || word_eq(l->s, n, ".size") ||
                word_eq(l->s, n, ".amdgpu_metadata"))
                break;
        }
        K->body_first = i + 1;
        K->body_last = j - 1;
        return;
    }
}

/* A directive line of the body (dropped): `.p2align 8`, `.loc ...`, but not a
   label such as `.LBB0_2:`. */
static int is_directive(const line *l)
{
    size_t n = code_len(l);
    if (!n || l->s[0] != '.')
        return 0;
    size_t k = 0;
    while (k < n && !is_blank(l->s[k]) && l->s[k] != ':')
        k++;
    return !(k < n && l->s[k] == ':');
}

typedef struct out_text {
    wa_sb sb;
    unsigned *map;
    unsigned nmap, cap;
    int failed;
} out_text;

static void out_line(importer *I, out_text *o, unsigned src, const char *fmt, ...) WA_PRINTF(4, 5);
static void out_line(importer *I, out_text *o, unsigned src, const char *fmt, ...)
{
    if (o->nmap == o->cap) {
        unsigned cap = o->cap ? 2 * o->cap : 64;
        unsigned *p = wa_mem_realloc(I->ctx, o->map, cap * sizeof(unsigned));
        if (!p) {
            o->failed = 1;
            return;
        }
        o->map = p;
        o->cap = cap;
    }
    o->map[o->nmap++] = src;
    va_list ap;
    va_start(ap, fmt);
    wa_sb_vprintf(&o->sb, fmt, ap);
    va_end(ap);
    wa_sb_putc(&o->sb, '\n');
}

/* Alignment for an argument at `offset` of `size` bytes: its natural alignment
   (at most 8) as far as the offset allows. */
static unsigned arg_align(unsigned offset, unsigned size)
{
    unsigned a = 1;
    while (a < 8 && a * 2 <= size)
        a *= 2;
    while (a > 1 && offset % a)
        a /= 2;
    return a;
}

static int arg_kind_known(const char *kind)
{
    for (unsigned k = 0; k < WA_ARG_KIND_COUNT_; k++)
        if (strcmp(wa_arg_kind_name((wa_arg_kind)k), kind) == 0)
            return 1;
    return 0;
}

static wa_status build_text(importer *I, kernel_info *K, out_text *o)
{
    unsigned kd = K->kd_line;
    /* what the kernel needs that the IR does not model */
    struct {
        long v;
        const char *what;
    } unsupported[] = {
        { K->f_private_buffer, "a private segment buffer (scratch)" },
        { K->f_flat_scratch_init, "flat scratch initialisation" },
        { K->f_private_size_sgpr, "the private segment size SGPR" },
        { K->f_private_segment, "private (scratch) memory" },
        { K->f_dynamic_stack, "a dynamic stack" },
        { K->f_preload_length, "kernel arguments preloaded into SGPRs" },
        { K->f_wg_info, "the workgroup info SGPR" },
    };
    for (unsigned u = 0; u < sizeof(unsupported) / sizeof(unsupported[0]); u++)
        if (unsupported[u].v > 0)
            return error_at(I, kd, WA_E_UNSUPPORTED, "kernel '%s' uses %s, which the kernel IR does not model",
                            K->name, unsupported[u].what);
    out_line(I, o, kd, ".kernel %s", K->name);
    if (I->target_line)
        out_line(I, o, I->target_line, "  .target %s", wa_target_name(I->target));
    unsigned wg[3] = { 256, 1, 1 };
    if (K->have_reqd) {
        memcpy(wg, K->reqd, sizeof(wg));
    } else if (K->max_flat) {
        wg[0] = K->max_flat;
    }
    out_line(I, o, K->have_meta ? K->meta_line : kd, "  .workgroup_size %u, %u, %u", wg[0], wg[1], wg[2]);
    out_line(I, o, kd, "  .lds_bytes %ld", K->f_lds > 0 ? K->f_lds : 0);
    static const char *const abi_words[] = { "dispatch_ptr", "queue_ptr", "kernarg_ptr",
                                             "dispatch_id", "workgroup_id_x", "workgroup_id_y",
                                             "workgroup_id_z" };
    long on[] = { K->f_dispatch_ptr, K->f_queue_ptr, K->f_kernarg_ptr, K->f_dispatch_id,
                  K->f_wg_id[0], K->f_wg_id[1], K->f_wg_id[2] };
    char abi[256] = "";
    unsigned user = 0;
    for (unsigned a = 0; a < 7; a++) {
        if (on[a] <= 0)
            continue;
        if (a < 4)
            user += 2;
        strcat(abi, abi[0] ? ", " : "");
        strcat(abi, abi_words[a]);
    }
    long wi = K->f_workitem_id < 0 ? 0 : K->f_workitem_id;
    strcat(abi, abi[0] ? ", " : "");
    strcat(abi, wi >= 2 ? "workitem_id_x, workitem_id_y, workitem_id_z"
               : wi == 1 ? "workitem_id_x, workitem_id_y" : "workitem_id_x");
    if (K->f_user_sgpr_count >= 0 && (unsigned long)K->f_user_sgpr_count != user)
        return error_at(I, kd, WA_E_UNSUPPORTED,
                        "kernel '%s' has %ld user SGPRs; the inputs it enables account for %u",
                        K->name, K->f_user_sgpr_count, user);
    out_line(I, o, kd, "  .abi %s", abi);
    for (unsigned a = 0; a < K->nargs; a++) {
        const arg_info *g = &K->args[a];
        if (!arg_kind_known(g->kind))
            return error_at(I, g->line, WA_E_UNSUPPORTED, "argument kind '%s' is not supported",
                            g->kind);
        const char *name = g->name[0] && wa_symbol_valid(g->name) ? g->name : "-";
        out_line(I, o, g->line, "  .arg %s, %s, offset:%u, size:%u, align:%u%s%s%s", name,
                 g->kind, g->offset, g->size, arg_align(g->offset, g->size),
                 g->flags & 1u ? ", const" : "", g->flags & 2u ? ", restrict" : "",
                 g->flags & 4u ? ", volatile" : "");
    }
    for (unsigned i = K->body_first; i <= K->body_last && i < I->nlines; i++) {
        const line *l = &I->lines[i];
        if (is_directive(l))
            continue;
        /* the line as written, so that columns stay the file's */
        out_line(I, o, l->no, "%.*s", (int)(l->lead + l->n), l->s - l->lead);
    }
    unsigned end = K->body_last < I->nlines ? I->lines[K->body_last].no : kd;
    out_line(I, o, end, ".end_kernel");
    return o->failed || o->sb.failed ? wa_error_nomem(I->ctx) : WA_OK;
}

wa_status wa_program_parse_asm(wa_program **out, wa_context *ctx, const char *text, size_t len,
                               const char *file_name, unsigned index)
{
    if (!out || !ctx || (!text && len))
        return WA_E_INVALID;
    *out = NULL;
    wa_diag_reset(ctx);
    importer I;
    memset(&I, 0, sizeof(I));
    I.ctx = ctx;
    I.file = file_name ? file_name : "";
    I.target = wa_context_target(ctx);
    wa_status st = split_lines(&I, text ? text : "", len);
    kernel_info K;
    kernel_defaults(&K);
    unsigned found = 0;
    for (unsigned i = 0; st == WA_OK && i < I.nlines; i++) {
        const line *l = &I.lines[i];
        size_t n = code_len(l);
        if (word_eq(l->s, n, ".amdgcn_target")) {
            st = read_target(&I, l, n);
        } else if (word_eq(l->s, n, ".amdhsa_kernel")) {
            if (found++ == index) {
                const char *nm = l->s + 14;
                size_t k = n - 14;
                while (k && is_blank(*nm)) {
                    nm++;
                    k--;
                }
                if (!k || k >= sizeof(K.name)) {
                    st = error_at(&I, l->no, WA_E_PARSE, "expected a kernel name after .amdhsa_kernel");
                    break;
                }
                copy_word(K.name, sizeof(K.name), nm, k);
                K.kd_line = l->no;
                i = read_kd(&I, i, &K);
            }
        }
    }
    if (st == WA_OK && found <= index)
        st = found ? wa_error(ctx, WA_E_NOT_FOUND, WA_LOC_NONE, "%s has %u kernel%s, not %u",
                              I.file[0] ? I.file : "the input", found, found == 1 ? "" : "s",
                              index + 1)
                   : wa_error(ctx, WA_E_NOT_FOUND, WA_LOC_NONE,
                              "no kernel found (no .amdhsa_kernel block)");
    for (unsigned i = 0; st == WA_OK && i < I.nlines; i++) {
        const line *l = &I.lines[i];
        if (word_eq(l->s, code_len(l), ".amdgpu_metadata"))
            i = read_metadata(&I, i, &K, &st);
    }
    if (st == WA_OK) {
        find_body(&I, &K);
        if (K.body_first > K.body_last)
            st = error_at(&I, K.kd_line, WA_E_PARSE, "no code for kernel '%s' (no line '%s:')", K.name,
                          K.name);
    }
    out_text o;
    memset(&o, 0, sizeof(o));
    wa_sb_init(&o.sb, ctx);
    if (st == WA_OK)
        st = build_text(&I, &K, &o);
    if (st == WA_OK)
        st = wa_parse_mapped(out, ctx, o.sb.data ? o.sb.data : "", o.sb.len, I.file, o.map, o.nmap);
    wa_sb_free(&o.sb);
    wa_mem_free(ctx, o.map);
    wa_mem_free(ctx, K.args);
    wa_mem_free(ctx, I.lines);
    return st;
}
