/* lib/core/context.c — contexts, status and target names, diagnostics. */
#include "core.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *wa_status_string(wa_status status)
{
    switch (status) {
    case WA_OK: return "ok";
    case WA_E_INVALID: return "invalid argument";
    case WA_E_PARSE: return "parse error";
    case WA_E_VALIDATE: return "validation error";
    case WA_E_UNSUPPORTED: return "unsupported";
    case WA_E_NOMEM: return "out of memory";
    case WA_E_NOT_FOUND: return "not found";
    case WA_E_RANGE: return "out of range";
    case WA_E_IO: return "i/o error";
    case WA_E_ALLOC: return "register allocation failed";
    case WA_E_INTERNAL: return "internal error";
    case WA_E_SIM_FAULT: return "simulated memory fault";
    case WA_E_SIM_WAIT: return "missing wait in simulated kernel";
    case WA_E_SIM_HAZARD: return "hazard in simulated kernel";
    case WA_E_SIM_LIMIT: return "simulation limit reached";
    }
    return "unknown status";
}

static const char *const target_names[WA_TARGET_COUNT] = { NULL, "gfx90a", "gfx942", "gfx950" };

const char *wa_target_name(wa_target target)
{
    if ((unsigned)target >= WA_TARGET_COUNT)
        return NULL;
    return target_names[target];
}

wa_status wa_target_from_name(wa_target *out, const char *name)
{
    if (!out || !name)
        return WA_E_INVALID;
    for (unsigned t = 1; t < WA_TARGET_COUNT; t++) {
        if (strcmp(name, target_names[t]) == 0) {
            *out = (wa_target)t;
            return WA_OK;
        }
    }
    return WA_E_NOT_FOUND;
}

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] && strcmp(v, "0") != 0;
}

wa_status wa_context_create(wa_context **out, const wa_context_options *opts)
{
    wa_context_options defaults = WA_CONTEXT_OPTIONS_INIT;
    if (!out)
        return WA_E_INVALID;
    *out = NULL;
    if (!opts)
        opts = &defaults;
    if (opts->version < 1 || opts->version > WA_CONTEXT_OPTIONS_VERSION)
        return WA_E_INVALID;
    if (opts->target <= WA_TARGET_UNKNOWN || (unsigned)opts->target >= WA_TARGET_COUNT)
        return WA_E_INVALID;
    if (opts->wave_size != 64)
        return WA_E_INVALID;
    wa_context_options o = defaults;
    memcpy(&o, opts, opts->version >= 2 ? sizeof(o) : offsetof(wa_context_options, xnack));
    o.version = WA_CONTEXT_OPTIONS_VERSION;
    if ((unsigned)o.xnack > WA_FEATURE_ON || (unsigned)o.sramecc > WA_FEATURE_ON)
        return WA_E_INVALID;

    wa_realloc_fn fn = opts->realloc_fn;
    wa_context *ctx = fn ? fn(NULL, sizeof(*ctx), opts->alloc_user) : malloc(sizeof(*ctx));
    if (!ctx)
        return WA_E_NOMEM;
    memset(ctx, 0, sizeof(*ctx));
    ctx->opts = o;
    if (env_flag("WAVE_DEBUG_LIVENESS"))
        ctx->debug |= WA_DEBUG_LIVENESS;
    if (env_flag("WAVE_DEBUG_REGALLOC"))
        ctx->debug |= WA_DEBUG_REGALLOC;
    if (env_flag("WAVE_KERNEL_ALLOC_DEBUG"))
        ctx->debug |= WA_DEBUG_ALLOC;
    ctx->oom_diag.severity = WA_SEVERITY_ERROR;
    ctx->oom_diag.status = WA_E_NOMEM;
    ctx->oom_diag.message = "out of memory";
    ctx->oom_diag.file = "";
    ctx->oom_diag.tag = WA_NO_TAG;
    *out = ctx;
    return WA_OK;
}

void wa_context_destroy(wa_context *ctx)
{
    if (!ctx)
        return;
    wa_diag_reset(ctx);
    wa_scratch_release(ctx);
    wa_mem_free(ctx, ctx->diags);
    wa_mem_free(ctx, ctx->diag_strings);
    wa_mem_free(ctx, ctx->mnemonic_index);
    wa_mem_free(ctx, ctx);
}

void wa_context_trim(wa_context *ctx)
{
    if (!ctx)
        return;
    wa_scratch_release(ctx);
    wa_mem_free(ctx, ctx->mnemonic_index); /* rebuilt by the next parse */
    ctx->mnemonic_index = NULL;
}

wa_target wa_context_target(const wa_context *ctx)
{
    return ctx ? ctx->opts.target : WA_TARGET_UNKNOWN;
}

wa_feature wa_context_xnack(const wa_context *ctx)
{
    return ctx ? ctx->opts.xnack : WA_FEATURE_ANY;
}

wa_feature wa_context_sramecc(const wa_context *ctx)
{
    return ctx ? ctx->opts.sramecc : WA_FEATURE_ANY;
}

/* ---- diagnostics ----------------------------------------------------------------- */

void wa_diag_reset(wa_context *ctx)
{
    for (unsigned i = 0; i < ctx->nstrings; i++)
        wa_mem_free(ctx, ctx->diag_strings[i]);
    ctx->nstrings = 0;
    ctx->ndiags = 0;
    ctx->oom_pending = 0;
    wa_mem_free(ctx, ctx->last_error);
    ctx->last_error = NULL;
}

void wa_context_clear_diags(wa_context *ctx)
{
    if (ctx)
        wa_diag_reset(ctx);
}

static char *keep_string(wa_context *ctx, char *s)
{
    if (!s)
        return NULL;
    if (WA_GROW(ctx, ctx->diag_strings, ctx->capstrings, ctx->nstrings + 1)) {
        wa_mem_free(ctx, s);
        return NULL;
    }
    ctx->diag_strings[ctx->nstrings++] = s;
    return s;
}

static void record(wa_context *ctx, wa_severity sev, wa_status status, wa_loc loc,
                   const char *fmt, va_list ap) WA_PRINTF(5, 0);
static void record(wa_context *ctx, wa_severity sev, wa_status status, wa_loc loc,
                   const char *fmt, va_list ap)
{
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    wa_sb_vprintf(&sb, fmt, ap);
    char *msg = sb.failed ? NULL : sb.data;
    if (!msg && !sb.failed)
        msg = wa_mem_strdup(ctx, "");
    if (sb.failed)
        wa_sb_free(&sb);
    msg = keep_string(ctx, msg);
    char *file = keep_string(ctx, wa_mem_strdup(ctx, loc.file ? loc.file : ""));
    if (!msg || !file || WA_GROW(ctx, ctx->diags, ctx->capdiags, ctx->ndiags + 1)) {
        if (sev == WA_SEVERITY_ERROR)
            ctx->oom_pending = 1;
        return;
    }
    wa_diag *d = &ctx->diags[ctx->ndiags++];
    d->severity = sev;
    d->status = sev == WA_SEVERITY_ERROR ? status : WA_OK;
    d->message = msg;
    d->file = file;
    d->line = loc.line;
    d->col = loc.col;
    d->tag = loc.tag;
}

wa_status wa_verror(wa_context *ctx, wa_status status, wa_loc loc, const char *fmt, va_list ap)
{
    record(ctx, WA_SEVERITY_ERROR, status, loc, fmt, ap);
    return status;
}

wa_status wa_error(wa_context *ctx, wa_status status, wa_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(ctx, WA_SEVERITY_ERROR, status, loc, fmt, ap);
    va_end(ap);
    return status;
}

wa_status wa_error_nomem(wa_context *ctx)
{
    ctx->oom_pending = 1;
    return WA_E_NOMEM;
}

void wa_warning(wa_context *ctx, wa_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(ctx, WA_SEVERITY_WARNING, WA_OK, loc, fmt, ap);
    va_end(ap);
}

void wa_note(wa_context *ctx, wa_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(ctx, WA_SEVERITY_NOTE, WA_OK, loc, fmt, ap);
    va_end(ap);
}

wa_status wa_context_add_diag(wa_context *ctx, const wa_diag *diag)
{
    if (!ctx || !diag)
        return WA_E_INVALID;
    wa_severity sev = diag->severity;
    if (sev != WA_SEVERITY_ERROR && sev != WA_SEVERITY_WARNING && sev != WA_SEVERITY_NOTE)
        sev = WA_SEVERITY_ERROR;
    wa_status st = diag->status < 0 ? diag->status : WA_E_INVALID;
    unsigned before = ctx->ndiags;
    wa_loc loc = { diag->file, diag->line, diag->col, diag->tag };
    switch (sev) {
    case WA_SEVERITY_ERROR: wa_error(ctx, st, loc, "%s", diag->message ? diag->message : ""); break;
    case WA_SEVERITY_WARNING: wa_warning(ctx, loc, "%s", diag->message ? diag->message : ""); break;
    default: wa_note(ctx, loc, "%s", diag->message ? diag->message : ""); break;
    }
    return ctx->ndiags > before ? WA_OK : WA_E_NOMEM;
}

void wa_diag_relocate_last(wa_context *ctx, wa_loc loc)
{
    for (unsigned i = ctx->ndiags; i-- > 0;) {
        wa_diag *d = &ctx->diags[i];
        if (d->severity != WA_SEVERITY_ERROR)
            continue;
        char *file = wa_mem_strdup(ctx, loc.file ? loc.file : "");
        if (file && keep_string(ctx, file))
            d->file = file;
        d->line = loc.line;
        d->col = loc.col;
        return;
    }
}

unsigned wa_diag_error_count(const wa_context *ctx)
{
    unsigned n = ctx->oom_pending ? 1 : 0;
    for (unsigned i = 0; i < ctx->ndiags; i++)
        n += ctx->diags[i].severity == WA_SEVERITY_ERROR;
    return n;
}

unsigned wa_context_diag_count(const wa_context *ctx)
{
    if (!ctx)
        return 0;
    return ctx->ndiags + (ctx->oom_pending ? 1u : 0u);
}

const wa_diag *wa_context_diag(const wa_context *ctx, unsigned index)
{
    if (!ctx)
        return NULL;
    if (index < ctx->ndiags)
        return &ctx->diags[index];
    if (ctx->oom_pending && index == ctx->ndiags)
        return &ctx->oom_diag;
    return NULL;
}

const wa_diag *wa_context_last_diag(const wa_context *ctx)
{
    if (!ctx)
        return NULL;
    if (ctx->oom_pending)
        return &ctx->oom_diag;
    for (unsigned i = ctx->ndiags; i-- > 0;)
        if (ctx->diags[i].severity == WA_SEVERITY_ERROR)
            return &ctx->diags[i];
    return ctx->ndiags ? &ctx->diags[ctx->ndiags - 1] : NULL;
}

static const char *severity_word(wa_severity s)
{
    return s == WA_SEVERITY_ERROR ? "error" : s == WA_SEVERITY_WARNING ? "warning" : "note";
}

const char *wa_context_last_error(const wa_context *cctx)
{
    wa_context *ctx = (wa_context *)cctx; /* caches the formatted text */
    if (!ctx)
        return "";
    const wa_diag *d = wa_context_last_diag(ctx);
    if (!d)
        return "";
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    if (d->file && d->file[0])
        wa_sb_printf(&sb, "%s:", d->file);
    if (d->line)
        wa_sb_printf(&sb, "%u:%u:", d->line, d->col);
    if (sb.len)
        wa_sb_putc(&sb, ' ');
    wa_sb_printf(&sb, "%s: %s", severity_word(d->severity), d->message);
    if (d->tag != WA_NO_TAG)
        wa_sb_printf(&sb, " [I%u]", d->tag);
    if (sb.failed) {
        wa_sb_free(&sb);
        return d->message;
    }
    wa_mem_free(ctx, ctx->last_error);
    ctx->last_error = sb.data;
    return ctx->last_error;
}

void wa_log(wa_context *ctx, const char *fmt, ...)
{
    /* The library never prints: without a log hook the line is dropped (the
       command-line tools install a hook that writes to stderr). */
    if (!ctx->opts.log_fn)
        return;
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    va_list ap;
    va_start(ap, fmt);
    wa_sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    if (!sb.failed && sb.data)
        ctx->opts.log_fn(sb.data, ctx->opts.log_user);
    wa_sb_free(&sb);
}
