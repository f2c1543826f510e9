/* lib/mlir/translate.c — the front end's entry points: parse (or take) MLIR,
   capture MLIR's diagnostics, find the kernels, lower each one into a
   wa_program and hand back the result. Operations are dispatched by name to
   the per-dialect tables of the lower_*.c files. */
#include "internal.h"

#include <mlir-c/Dialect/AMDGPU.h>
#include <mlir-c/Dialect/Affine.h>
#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/ControlFlow.h>
#include <mlir-c/Dialect/Func.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Dialect/LLVM.h>
#include <mlir-c/Dialect/Math.h>
#include <mlir-c/Dialect/MemRef.h>
#include <mlir-c/Dialect/ROCDL.h>
#include <mlir-c/Dialect/SCF.h>
#include <mlir-c/Dialect/Vector.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ------------------------------------------------------------------------------ */

typedef struct tr_chunk {
    struct tr_chunk *next;
    size_t used, cap;
    /* data follows, 16-byte aligned */
} tr_chunk;

struct tr_mem {
    tr_chunk *head;
};

#define TR_CHUNK 65536u

void *tr_alloc(tr *T, size_t size)
{
    size = (size + 15u) & ~(size_t)15u;
    if (!T->mem) {
        T->mem = calloc(1, sizeof(*T->mem));
        if (!T->mem) {
            tr_nomem(T);
            return NULL;
        }
    }
    tr_chunk *c = T->mem->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > TR_CHUNK ? size : TR_CHUNK;
        c = malloc(sizeof(tr_chunk) + 16 + cap);
        if (!c) {
            tr_nomem(T);
            return NULL;
        }
        c->next = T->mem->head;
        c->used = 0;
        c->cap = cap;
        T->mem->head = c;
    }
    char *base = (char *)c + ((sizeof(tr_chunk) + 15u) & ~(size_t)15u);
    void *p = base + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *tr_strndup(tr *T, const char *s, size_t n)
{
    char *p = tr_alloc(T, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static void tr_mem_free(struct tr_mem *m)
{
    if (!m)
        return;
    for (tr_chunk *c = m->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(m);
}

/* ---- a call of the API: its options, diagnostics and kernels ------------------------------------------------ */

struct tr_call {
    wa_context *ctx;
    wa_mlir_options opts;
    wa_target target;
    MlirContext mctx;
    const char *buffer_name;
    unsigned line_adjust;   /* lines added in front of the text (module wrapper) */
    int parsing;
    tr_diag *diags;
    unsigned ndiags, capdiags;
    int nomem;
    unsigned errors;
    /* kernels found */
    MlirOperation *kernels;
    unsigned nkernels, capkernels;
};

struct wa_mlir_result {
    wa_program **progs;
    unsigned n;
};

static void call_add(tr_call *S, wa_severity sev, wa_status st, const char *file,
                        size_t flen, unsigned line, unsigned col, const char *msg, size_t mlen)
{
    if (S->ndiags == S->capdiags) {
        unsigned cap = S->capdiags ? S->capdiags * 2 : 8;
        tr_diag *d = realloc(S->diags, cap * sizeof(*d));
        if (!d) {
            S->nomem = 1;
            return;
        }
        S->diags = d;
        S->capdiags = cap;
    }
    tr_diag *d = &S->diags[S->ndiags];
    d->msg = malloc(mlen + 1);
    d->file = malloc(flen + 1);
    if (!d->msg || !d->file) {
        free(d->msg);
        free(d->file);
        S->nomem = 1;
        return;
    }
    memcpy(d->msg, msg, mlen);
    d->msg[mlen] = '\0';
    if (flen)
        memcpy(d->file, file, flen);
    d->file[flen] = '\0';
    d->sev = sev;
    d->status = sev == WA_SEVERITY_ERROR ? st : WA_OK;
    d->line = line;
    d->col = col;
    S->ndiags++;
    if (sev == WA_SEVERITY_ERROR)
        S->errors++;
}

/* file:line:col of a location: the first file position found through fused,
   named and call-site locations. */
static void loc_resolve(const tr_call *S, MlirLocation loc, MlirStringRef *file,
                        unsigned *line, unsigned *col)
{
    file->data = "";
    file->length = 0;
    *line = *col = 0;
    for (unsigned depth = 0; depth < 16 && !mlirLocationIsNull(loc); depth++) {
        if (mlirLocationIsAFileLineColRange(loc)) {
            *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
            int l = mlirLocationFileLineColRangeGetStartLine(loc);
            int c = mlirLocationFileLineColRangeGetStartColumn(loc);
            *line = l > 0 ? (unsigned)l : 0;
            *col = c > 0 ? (unsigned)c : 0;
            if (S && S->line_adjust && *line > S->line_adjust && S->buffer_name &&
                tr_strref_eq(*file, S->buffer_name))
                *line -= S->line_adjust;
            return;
        }
        if (mlirLocationIsAName(loc)) {
            loc = mlirLocationNameGetChildLoc(loc);
        } else if (mlirLocationIsACallSite(loc)) {
            loc = mlirLocationCallSiteGetCallee(loc);
        } else if (mlirLocationIsAFused(loc)) {
            unsigned n = mlirLocationFusedGetNumLocations(loc);
            if (n == 0)
                return;
            MlirLocation sub[16];
            if (n > 16) {
                loc = mlirLocationUnknownGet(mlirLocationGetContext(loc));
                return;
            }
            mlirLocationFusedGetLocations(loc, sub);
            for (unsigned i = 0; i < n; i++) {
                loc_resolve(S, sub[i], file, line, col);
                if (*line)
                    return;
            }
            return;
        } else {
            return;
        }
    }
}

typedef struct strbuf {
    char *data;
    size_t len, cap;
    int failed;
} strbuf;

static void sb_append(MlirStringRef s, void *user)
{
    strbuf *b = user;
    if (b->failed || s.length == 0)
        return;
    if (b->len + s.length + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 128;
        while (cap < b->len + s.length + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s.data, s.length);
    b->len += s.length;
    b->data[b->len] = '\0';
}

static void call_add_mlir(tr_call *S, MlirDiagnostic d, int as_note)
{
    MlirDiagnosticSeverity sv = mlirDiagnosticGetSeverity(d);
    wa_severity sev = as_note                              ? WA_SEVERITY_NOTE
                      : sv == MlirDiagnosticError          ? WA_SEVERITY_ERROR
                      : sv == MlirDiagnosticWarning        ? WA_SEVERITY_WARNING
                                                           : WA_SEVERITY_NOTE;
    strbuf b = { 0 };
    mlirDiagnosticPrint(d, sb_append, &b);
    MlirStringRef file;
    unsigned line, col;
    loc_resolve(S, mlirDiagnosticGetLocation(d), &file, &line, &col);
    const char *msg = b.data ? b.data : "";
    size_t mlen = b.data ? b.len : 0;
    call_add(S, sev, S->parsing ? WA_E_PARSE : WA_E_INVALID, file.data, file.length, line,
                col, msg, mlen);
    free(b.data);
    intptr_t nn = mlirDiagnosticGetNumNotes(d);
    for (intptr_t i = 0; i < nn; i++)
        call_add_mlir(S, mlirDiagnosticGetNote(d, i), 1);
}

static MlirLogicalResult diag_handler(MlirDiagnostic d, void *user)
{
    call_add_mlir(user, d, 0);
    return mlirLogicalResultSuccess(); /* handled: MLIR prints nothing */
}

/* ---- errors of the lowering ------------------------------------------------------------- */

static int tr_verror(tr *T, MlirLocation loc, wa_severity sev, wa_status st, const char *fmt,
                     va_list ap) TR_PRINTF(5, 0);
static int tr_verror(tr *T, MlirLocation loc, wa_severity sev, wa_status st, const char *fmt,
                     va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    MlirStringRef file = { "", 0 };
    unsigned line = 0, col = 0;
    if (!mlirLocationIsNull(loc))
        loc_resolve(T->S, loc, &file, &line, &col);
    call_add(T->S, sev, st, file.data, file.length, line, col, msg, strlen(msg));
    if (sev == WA_SEVERITY_ERROR)
        T->failed = 1;
    return -1;
}

int tr_error(tr *T, MlirLocation loc, wa_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tr_verror(T, loc, WA_SEVERITY_ERROR, st, fmt, ap);
    va_end(ap);
    return -1;
}

int tr_error_op(tr *T, MlirOperation op, wa_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tr_verror(T, mlirOperationGetLocation(op), WA_SEVERITY_ERROR, st, fmt, ap);
    va_end(ap);
    return -1;
}

void tr_note(tr *T, MlirLocation loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tr_verror(T, loc, WA_SEVERITY_NOTE, WA_OK, fmt, ap);
    va_end(ap);
}

int tr_nomem(tr *T)
{
    if (!T->S->nomem)
        call_add(T->S, WA_SEVERITY_ERROR, WA_E_NOMEM, "", 0, 0, 0, "out of memory", 13);
    T->S->nomem = 1;
    T->failed = 1;
    return -1;
}

/* ---- dispatch ------------------------------------------------------------------------- */

static const struct {
    const char *dialect;
    const tr_op_entry *ops;
} dialect_tables[] = {
    { "arith", tr_arith_ops }, { "math", tr_math_ops },     { "affine", tr_affine_ops },
    { "vector", tr_vector_ops }, { "memref", tr_memref_ops }, { "gpu", tr_gpu_ops },
    { "amdgpu", tr_amdgpu_ops }, { "rocdl", tr_rocdl_ops },   { "scf", tr_scf_ops },
    { "cf", tr_cf_ops },       { "func", tr_misc_ops },     { "stream", tr_misc_ops },
    { "builtin", tr_misc_ops }, { "llvm", tr_misc_ops },
};

int tr_lower_op(tr *T, MlirOperation op)
{
    MlirStringRef name = tr_op_name(op);
    size_t dot = 0;
    while (dot < name.length && name.data[dot] != '.')
        dot++;
    T->cur_loc = mlirOperationGetLocation(op);
    T->have_loc = 1;
    for (unsigned d = 0; d < sizeof(dialect_tables) / sizeof(dialect_tables[0]); d++) {
        const char *dn = dialect_tables[d].dialect;
        if (strlen(dn) != dot || strncmp(dn, name.data, dot) != 0)
            continue;
        for (const tr_op_entry *e = dialect_tables[d].ops; e->name; e++)
            if (tr_strref_eq(name, e->name))
                return e->fn(T, op);
    }
    return tr_error_op(T, op, WA_E_UNSUPPORTED, "operation '%.*s' is not supported",
                       (int)name.length, name.data);
}

int tr_lower_block(tr *T, MlirBlock block)
{
    for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
        if (tr_lower_op(T, op))
            return -1;
        if (T->failed)
            return -1;
    }
    return 0;
}

/* ---- kernels ------------------------------------------------------------------------- */

static int is_stream_binding(MlirType t)
{
    char buf[64];
    strbuf b = { 0 };
    mlirTypePrint(t, sb_append, &b);
    int r = b.data && strcmp(b.data, "!stream.binding") == 0;
    (void)buf;
    free(b.data);
    return r;
}

/* Whether `op` is a kernel: a gpu.func marked kernel, or a func.func with a
   body and a translation_info attribute or !stream.binding arguments. */
static int is_kernel(MlirOperation op)
{
    if (tr_name_is(op, "gpu.func"))
        return tr_attr_has(op, "gpu.kernel");
    if (!tr_name_is(op, "func.func"))
        return 0;
    MlirRegion body = mlirOperationGetRegion(op, 0);
    MlirBlock entry = mlirRegionGetFirstBlock(body);
    if (mlirBlockIsNull(entry))
        return 0;
    if (tr_attr_has(op, "translation_info"))
        return 1;
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++)
        if (is_stream_binding(mlirValueGetType(mlirBlockGetArgument(entry, i))))
            return 1;
    return 0;
}

static MlirWalkResult find_kernels(MlirOperation op, void *user)
{
    tr_call *S = user;
    if (!is_kernel(op))
        return MlirWalkResultAdvance;
    if (S->nkernels == S->capkernels) {
        unsigned cap = S->capkernels ? S->capkernels * 2 : 4;
        MlirOperation *k = realloc(S->kernels, cap * sizeof(*k));
        if (!k) {
            S->nomem = 1;
            return MlirWalkResultInterrupt;
        }
        S->kernels = k;
        S->capkernels = cap;
    }
    S->kernels[S->nkernels++] = op;
    return MlirWalkResultSkip;
}

static MlirStringRef sym_name(MlirOperation op)
{
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
        return mlirStringRefCreate("", 0);
    return mlirStringAttrGetValue(a);
}

/* "workgroup_size = [a, b, c]" and "subgroup_size = n" in a printed attribute. */
static int parse_sizes(const char *s, unsigned wg[3], int *have_wg, long *subgroup)
{
    const char *p = strstr(s, "workgroup_size");
    if (p) {
        p += strlen("workgroup_size");
        while (*p == ' ' || *p == '=')
            p++;
        if (*p == '[') {
            p++;
            for (unsigned d = 0; d < 3; d++) {
                while (*p == ' ')
                    p++;
                char *end;
                long v = strtol(p, &end, 10);
                if (end == p)
                    break;
                wg[d] = (unsigned)v;
                p = end;
                while (*p == ' ' || *p == ',')
                    p++;
                *have_wg = 1;
            }
        }
    }
    const char *q = strstr(s, "subgroup_size");
    if (q) {
        q += strlen("subgroup_size");
        while (*q == ' ' || *q == '=')
            q++;
        char *end;
        long v = strtol(q, &end, 10);
        if (end != q)
            *subgroup = v;
    }
    return 0;
}

static int kernel_workgroup(tr *T, MlirOperation func)
{
    const wa_mlir_options *o = &T->S->opts;
    unsigned wg[3] = { 1, 1, 1 };
    int have = 0;
    long subgroup = 0;
    if (!(o->flags & WA_MLIR_FORCE_WORKGROUP_SIZE)) {
        MlirAttribute ti = mlirOperationGetAttributeByName(func,
                                                           mlirStringRefCreateFromCString("translation_info"));
        if (!mlirAttributeIsNull(ti)) {
            strbuf b = { 0 };
            mlirAttributePrint(ti, sb_append, &b);
            if (b.data)
                parse_sizes(b.data, wg, &have, &subgroup);
            free(b.data);
        }
        if (!have) {
            static const char *const names[] = { "known_block_size", "gpu.known_block_size" };
            for (unsigned k = 0; k < 2 && !have; k++) {
                int64_t v[3];
                if (tr_attr_i64_array(func, names[k], v, 3) == 3) {
                    for (unsigned d = 0; d < 3; d++)
                        wg[d] = (unsigned)v[d];
                    have = 1;
                }
            }
        }
    }
    if (!have) {
        if (o->workgroup_size[0]) {
            for (unsigned d = 0; d < 3; d++)
                wg[d] = o->workgroup_size[d] ? o->workgroup_size[d] : 1;
        } else {
            wg[0] = 64;
        }
    }
    if (subgroup && subgroup != 64)
        return tr_error_op(T, func, WA_E_UNSUPPORTED,
                           "subgroup size %ld is not supported: the targets run wave64", subgroup);
    unsigned long total = (unsigned long)wg[0] * wg[1] * wg[2];
    if (!wg[0] || !wg[1] || !wg[2] || wg[0] > 1024 || wg[1] > 1024 || wg[2] > 1024 || total > 1024)
        return tr_error_op(T, func, WA_E_RANGE,
                           "workgroup size %u x %u x %u is outside 1..1024 work-items", wg[0],
                           wg[1], wg[2]);
    memcpy(T->wg, wg, sizeof(wg));
    return 0;
}

static MlirOperation symbol_table_of(MlirOperation op)
{
    for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p);
         p = mlirOperationGetParentOperation(p))
        if (tr_name_is(p, "builtin.module") || tr_name_is(p, "gpu.module"))
            return p;
    return (MlirOperation){ NULL };
}

/* Lowers one kernel into a new program (NULL on failure). */
static wa_program *lower_kernel(tr_call *S, MlirOperation func)
{
    tr T;
    memset(&T, 0, sizeof(T));
    T.S = S;
    T.ctx = S->ctx;
    T.target = S->target;
    T.mctx = S->mctx;
    T.func = func;
    T.module = symbol_table_of(func);
    T.is_gpu_func = tr_name_is(func, "gpu.func");
    MlirStringRef nm = sym_name(func);
    char name[256];
    snprintf(name, sizeof(name), "%.*s", (int)nm.length, nm.data);
    wa_program *prog = NULL;
    if (kernel_workgroup(&T, func))
        goto fail;
    if (wa_program_create(&prog, S->ctx, name) != WA_OK) {
        const wa_diag *d = wa_context_last_diag(S->ctx);
        tr_error_op(&T, func, WA_E_INVALID, "kernel name '%s': %s", name,
                    d ? d->message : "invalid");
        goto fail;
    }
    T.prog = prog;
    if (wa_program_set_target(prog, S->target) != WA_OK ||
        wa_program_set_workgroup_size(prog, T.wg[0], T.wg[1], T.wg[2]) != WA_OK) {
        tr_error_op(&T, func, WA_E_INVALID, "cannot set the kernel's target or workgroup size");
        goto fail;
    }
    if (tr_uniformity(&T))
        goto fail;
    if (tr_kernel_begin(&T))
        goto fail;
    MlirRegion body = mlirOperationGetRegion(func, 0);
    if (tr_lower_region_cf(&T, body))
        goto fail;
    if (tr_kernel_end(&T))
        goto fail;
    if (T.failed)
        goto fail;
    unsigned errs = 0;
    wa_status st = wa_program_validate(&errs, prog, NULL);
    if (st != WA_OK) {
        const wa_diag *d = wa_context_last_diag(S->ctx);
        tr_error_op(&T, func, WA_E_INTERNAL,
                    "internal error: the program built for kernel '%s' does not validate (%u "
                    "error%s; first: %s)",
                    name, errs, errs == 1 ? "" : "s", d ? d->message : "?");
        goto fail;
    }
    pmap_free(&T.values);
    pmap_free(&T.globals);
    tr_mem_free(T.mem);
    return prog;
fail:
    if (!T.failed && !S->errors)
        tr_error_op(&T, func, WA_E_INTERNAL, "internal error: kernel '%s' failed to lower", name);
    wa_program_destroy(prog);
    pmap_free(&T.values);
    pmap_free(&T.globals);
    tr_mem_free(T.mem);
    return NULL;
}

/* ---- the MLIR context of a call --------------------------------------------------------- */

static void load_dialects(MlirContext c)
{
    MlirDialectHandle hs[] = {
        mlirGetDialectHandle__func__(),   mlirGetDialectHandle__gpu__(),
        mlirGetDialectHandle__arith__(),  mlirGetDialectHandle__math__(),
        mlirGetDialectHandle__affine__(), mlirGetDialectHandle__vector__(),
        mlirGetDialectHandle__memref__(), mlirGetDialectHandle__scf__(),
        mlirGetDialectHandle__cf__(),     mlirGetDialectHandle__amdgpu__(),
        mlirGetDialectHandle__rocdl__(),  mlirGetDialectHandle__llvm__(),
    };
    for (unsigned i = 0; i < sizeof(hs) / sizeof(hs[0]); i++)
        mlirDialectHandleLoadDialect(hs[i], c);
}

/* Each thread keeps its MLIR context between calls: creating one and loading
   the dialects costs about 2 ms, several times the translation of a small
   kernel. The context keeps the types, attributes and locations it uniqued,
   so it is made anew every CONTEXT_USES translations to bound its memory.
   Threads never share one (a wa_context is used by one thread at a time); the
   key's destructor frees it when its thread ends, and unloading the library
   frees the unloading thread's one and deletes the key (other threads' then
   leak rather than run code that is gone). */
#define CONTEXT_USES 256u

typedef struct kept_context {
    MlirContext c;
    unsigned uses;
} kept_context;

static pthread_key_t kept_key;
static pthread_once_t kept_once = PTHREAD_ONCE_INIT;
static int kept_ok;

static void kept_free(void *p)
{
    kept_context *k = p;
    if (k) {
        mlirContextDestroy(k->c);
        free(k);
    }
}

static void kept_init(void)
{
    kept_ok = pthread_key_create(&kept_key, kept_free) == 0;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((destructor)) static void kept_fini(void)
{
    if (!kept_ok)
        return;
    kept_free(pthread_getspecific(kept_key));
    pthread_setspecific(kept_key, NULL);
    pthread_key_delete(kept_key);
    kept_ok = 0;
}
#endif

static MlirContext new_context(void)
{
    MlirContext c = mlirContextCreateWithThreading(false);
    mlirContextSetAllowUnregisteredDialects(c, true);
    load_dialects(c);
    return c;
}

/* The calling thread's context (*owned 0), or a fresh one the caller destroys
   (*owned 1) when none can be kept. */
static MlirContext thread_context(int *owned)
{
    pthread_once(&kept_once, kept_init);
    kept_context *k = kept_ok ? pthread_getspecific(kept_key) : NULL;
    if (k && k->uses >= CONTEXT_USES) {
        pthread_setspecific(kept_key, NULL);
        kept_free(k);
        k = NULL;
    }
    if (!k && kept_ok && (k = malloc(sizeof(*k))) != NULL) {
        k->c = new_context();
        k->uses = 0;
        if (pthread_setspecific(kept_key, k) != 0) {
            kept_free(k);
            k = NULL;
        }
    }
    if (!k) {
        *owned = 1;
        return new_context();
    }
    k->uses++;
    *owned = 0;
    return k->c;
}

static wa_status call_finish(tr_call *S, wa_status st, wa_mlir_result **out,
                                wa_program **progs, unsigned n)
{
    /* Builders and the validator cleared the context as they ran: put the
       collected diagnostics back in order. */
    wa_context_clear_diags(S->ctx);
    for (unsigned i = 0; i < S->ndiags; i++) {
        tr_diag *d = &S->diags[i];
        wa_diag w;
        memset(&w, 0, sizeof(w));
        w.severity = d->sev;
        w.status = d->status;
        w.message = d->msg;
        w.file = d->file;
        w.line = d->line;
        w.col = d->col;
        w.tag = WA_NO_TAG;
        wa_context_add_diag(S->ctx, &w);
    }
    if (S->nomem && st == WA_OK)
        st = WA_E_NOMEM;
    if (st != WA_OK && wa_context_diag_count(S->ctx) == 0) {
        wa_diag w;
        memset(&w, 0, sizeof(w));
        w.severity = WA_SEVERITY_ERROR;
        w.status = st;
        w.message = st == WA_E_NOMEM ? "out of memory" : wa_status_string(st);
        w.file = "";
        w.tag = WA_NO_TAG;
        wa_context_add_diag(S->ctx, &w);
    }
    if (st == WA_OK) {
        wa_mlir_result *r = calloc(1, sizeof(*r));
        if (!r) {
            st = WA_E_NOMEM;
        } else {
            r->progs = progs;
            r->n = n;
            *out = r;
            progs = NULL;
        }
    }
    if (progs) {
        for (unsigned i = 0; i < n; i++)
            wa_program_destroy(progs[i]);
        free(progs);
    }
    for (unsigned i = 0; i < S->ndiags; i++) {
        free(S->diags[i].msg);
        free(S->diags[i].file);
    }
    free(S->diags);
    free(S->kernels);
    return st;
}

/* Finds and lowers the kernels under `root`. */
static wa_status translate_root(tr_call *S, MlirOperation root, wa_mlir_result **out)
{
    mlirOperationWalk(root, find_kernels, S, MlirWalkPreOrder);
    if (S->nomem)
        return call_finish(S, WA_E_NOMEM, out, NULL, 0);
    unsigned want = 0;
    for (unsigned i = 0; i < S->nkernels; i++) {
        MlirStringRef nm = sym_name(S->kernels[i]);
        if (S->opts.kernel_name && !tr_strref_eq(nm, S->opts.kernel_name))
            continue;
        S->kernels[want++] = S->kernels[i];
    }
    if (want == 0) {
        char msg[300];
        if (S->opts.kernel_name)
            snprintf(msg, sizeof(msg), "no kernel named '%s' in the input", S->opts.kernel_name);
        else
            snprintf(msg, sizeof(msg),
                     "no kernel in the input (a gpu.func marked kernel, or a func.func with "
                     "translation_info or !stream.binding arguments)");
        MlirStringRef file;
        unsigned line, col;
        loc_resolve(S, mlirOperationGetLocation(root), &file, &line, &col);
        call_add(S, WA_SEVERITY_ERROR, WA_E_NOT_FOUND, file.data, file.length, line, col, msg,
                    strlen(msg));
        return call_finish(S, WA_E_NOT_FOUND, out, NULL, 0);
    }
    wa_program **progs = calloc(want, sizeof(*progs));
    if (!progs)
        return call_finish(S, WA_E_NOMEM, out, NULL, 0);
    wa_status st = WA_OK;
    for (unsigned i = 0; i < want; i++) {
        progs[i] = lower_kernel(S, S->kernels[i]);
        if (!progs[i]) {
            st = WA_E_UNSUPPORTED;
            for (unsigned k = 0; k < S->ndiags; k++)
                if (S->diags[k].sev == WA_SEVERITY_ERROR) {
                    st = S->diags[k].status;
                    break;
                }
            if (st == WA_OK)
                st = WA_E_INTERNAL;
            break;
        }
    }
    return call_finish(S, st, out, progs, want);
}

static wa_status call_init(tr_call *S, wa_context *ctx, const wa_mlir_options *opts)
{
    memset(S, 0, sizeof(*S));
    S->ctx = ctx;
    wa_mlir_options dflt = WA_MLIR_OPTIONS_INIT;
    S->opts = dflt;
    if (opts) {
        if (opts->version < 1 || opts->version > WA_MLIR_OPTIONS_VERSION)
            return WA_E_INVALID;
        memcpy(&S->opts, opts, sizeof(S->opts));
    }
    if (S->opts.wave_size != 0 && S->opts.wave_size != 64)
        return WA_E_UNSUPPORTED;
    S->target = S->opts.target != WA_TARGET_UNKNOWN ? S->opts.target : wa_context_target(ctx);
    if (!wa_target_name(S->target))
        return WA_E_INVALID;
    return WA_OK;
}

static wa_status bad_options(tr_call *S, wa_status st, wa_mlir_result **out)
{
    const char *m = st == WA_E_UNSUPPORTED ? "wave size must be 64 (the targets run wave64)"
                                           : "invalid wa_mlir_options (version or target)";
    call_add(S, WA_SEVERITY_ERROR, st, "", 0, 0, 0, m, strlen(m));
    return call_finish(S, st, out, NULL, 0);
}

wa_status wa_mlir_translate(wa_mlir_result **out, wa_context *ctx, const char *text, size_t len,
                            const char *buffer_name, const wa_mlir_options *opts)
{
    if (out)
        *out = NULL;
    if (!ctx)
        return WA_E_INVALID;
    tr_call S;
    wa_status st = call_init(&S, ctx, opts);
    if (st != WA_OK)
        return bad_options(&S, st, out);
    if (!out || (!text && len))
        return bad_options(&S, WA_E_INVALID, out);
    S.buffer_name = buffer_name ? buffer_name : "-";
    int owned = 0;
    MlirContext c = thread_context(&owned);
    S.mctx = c;
    MlirDiagnosticHandlerID hid = mlirContextAttachDiagnosticHandler(c, diag_handler, &S, NULL);
    S.parsing = 1;
    MlirOperation root = mlirOperationCreateParse(c, mlirStringRefCreate(text ? text : "", len),
                                                  mlirStringRefCreateFromCString(S.buffer_name));
    if (mlirOperationIsNull(root) && S.errors == 1 && S.ndiags >= 1 &&
        strstr(S.diags[S.ndiags - 1].msg, "single top-level operation")) {
        /* Several top-level operations: wrap them in a module, one line above. */
        free(S.diags[S.ndiags - 1].msg);
        free(S.diags[S.ndiags - 1].file);
        S.ndiags--;
        S.errors = 0;
        char *w = malloc(len + 16);
        if (!w) {
            S.nomem = 1;
        } else {
            memcpy(w, "module {\n", 9);
            memcpy(w + 9, text, len);
            memcpy(w + 9 + len, "\n}\n", 3);
            S.line_adjust = 1;
            root = mlirOperationCreateParse(c, mlirStringRefCreate(w, len + 12),
                                            mlirStringRefCreateFromCString(S.buffer_name));
            free(w);
        }
    }
    S.parsing = 0;
    if (mlirOperationIsNull(root)) {
        mlirContextDetachDiagnosticHandler(c, hid);
        if (owned)
            mlirContextDestroy(c);
        if (S.errors == 0) {
            const char *m = "the input is not valid MLIR";
            call_add(&S, WA_SEVERITY_ERROR, WA_E_PARSE, S.buffer_name, strlen(S.buffer_name),
                        0, 0, m, strlen(m));
        }
        return call_finish(&S, S.nomem ? WA_E_NOMEM : WA_E_PARSE, out, NULL, 0);
    }
    st = translate_root(&S, root, out);
    mlirOperationDestroy(root);
    mlirContextDetachDiagnosticHandler(c, hid);
    if (owned)
        mlirContextDestroy(c);
    return st;
}

wa_status wa_mlir_translate_file(wa_mlir_result **out, wa_context *ctx, const char *path,
                                 const wa_mlir_options *opts)
{
    if (out)
        *out = NULL;
    if (!ctx)
        return WA_E_INVALID;
    if (!path) {
        tr_call S;
        call_init(&S, ctx, NULL);
        return bad_options(&S, WA_E_INVALID, out);
    }
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int err = !f;
    while (f && !err) {
        if (len + 65536 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *b = realloc(buf, cap);
            if (!b) {
                err = 2;
                break;
            }
            buf = b;
        }
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (k == 0) {
            if (ferror(f))
                err = 1;
            break;
        }
    }
    if (f && !is_stdin)
        fclose(f);
    if (err) {
        free(buf);
        tr_call S;
        call_init(&S, ctx, NULL);
        char msg[512];
        snprintf(msg, sizeof(msg), err == 2 ? "out of memory reading '%s'" : "cannot read '%s': %s",
                 path, strerror(errno));
        wa_status st = err == 2 ? WA_E_NOMEM : WA_E_IO;
        call_add(&S, WA_SEVERITY_ERROR, st, path, strlen(path), 0, 0, msg, strlen(msg));
        return call_finish(&S, st, out, NULL, 0);
    }
    wa_status st = wa_mlir_translate(out, ctx, buf ? buf : "", len, is_stdin ? "<stdin>" : path,
                                     opts);
    free(buf);
    return st;
}

wa_status wa_mlir_translate_operation(wa_mlir_result **out, wa_context *ctx, void *mlir_operation,
                                      const wa_mlir_options *opts)
{
    if (out)
        *out = NULL;
    if (!ctx)
        return WA_E_INVALID;
    tr_call S;
    wa_status st = call_init(&S, ctx, opts);
    if (st != WA_OK)
        return bad_options(&S, st, out);
    if (!out || !mlir_operation)
        return bad_options(&S, WA_E_INVALID, out);
    MlirOperation root = { mlir_operation };
    MlirContext c = mlirOperationGetContext(root);
    S.mctx = c;
    S.buffer_name = NULL;
    MlirDiagnosticHandlerID hid = mlirContextAttachDiagnosticHandler(c, diag_handler, &S, NULL);
    /* The host's operation may come straight from a builder: check it first. */
    if (!mlirOperationVerify(root)) {
        mlirContextDetachDiagnosticHandler(c, hid);
        if (S.errors == 0) {
            const char *m = "the operation does not verify";
            call_add(&S, WA_SEVERITY_ERROR, WA_E_INVALID, "", 0, 0, 0, m, strlen(m));
        }
        return call_finish(&S, WA_E_INVALID, out, NULL, 0);
    }
    st = translate_root(&S, root, out);
    mlirContextDetachDiagnosticHandler(c, hid);
    return st;
}

unsigned wa_mlir_result_count(const wa_mlir_result *r)
{
    return r ? r->n : 0;
}

wa_program *wa_mlir_result_program(const wa_mlir_result *r, unsigned index)
{
    return r && index < r->n ? r->progs[index] : NULL;
}

wa_program *wa_mlir_result_take(wa_mlir_result *r, unsigned index)
{
    if (!r || index >= r->n)
        return NULL;
    wa_program *p = r->progs[index];
    r->progs[index] = NULL;
    return p;
}

void wa_mlir_result_destroy(wa_mlir_result *r)
{
    if (!r)
        return;
    for (unsigned i = 0; i < r->n; i++)
        wa_program_destroy(r->progs[i]);
    free(r->progs);
    free(r);
}

const char *wa_mlir_version_string(void)
{
    return WA_VERSION_STRING " (MLIR 22)";
}
