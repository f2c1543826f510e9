/* include/waveasm/context.h — the context: default target, allocator, log sink and
   diagnostics. Everything else hangs off a context. */
#ifndef WAVEASM_CONTEXT_H
#define WAVEASM_CONTEXT_H

#include <waveasm/common.h>

WA_BEGIN_DECLS

/* Owns options and diagnostics. One thread at a time per context; distinct
   contexts are fully independent and may be used concurrently. */
typedef struct wa_context wa_context;

/* Allocator hook: behaves like realloc(ptr, size), and like free(ptr) when size is
   0 (then its return value is ignored). `user` is alloc_user from the options. */
typedef void *(*wa_realloc_fn)(void *ptr, size_t size, void *user);

/* Log hook: receives one complete line without the trailing newline. The library
   never prints on its own; debug switches (WAVE_DEBUG_*) write here. */
typedef void (*wa_log_fn)(const char *line, void *user);

/* A target feature's setting, as in the target id ("gfx942:sramecc+:xnack-"):
   ANY (not named: the code must run either way), OFF ("-") or ON ("+"). */
typedef enum wa_feature {
    WA_FEATURE_ANY = 0,
    WA_FEATURE_OFF = 1,
    WA_FEATURE_ON = 2
} wa_feature;

typedef struct wa_context_options {
    unsigned version;          /* WA_CONTEXT_OPTIONS_VERSION */
    wa_target target;          /* default target of new programs */
    unsigned wave_size;        /* 64; other values are rejected */
    wa_realloc_fn realloc_fn;  /* NULL: libc realloc/free */
    void *alloc_user;
    wa_log_fn log_fn;          /* NULL: logs are dropped */
    void *log_user;
    /* version 2: target features of every program of the context. With XNACK
       ANY or ON a faulting memory access may be replayed with the soft clause it
       was issued in, so the hazard pass keeps clauses replayable (rule H35);
       OFF promises the kernel never runs with XNACK on. The emitter names both
       in the target id. */
    wa_feature xnack;
    wa_feature sramecc;
    /* new fields only ever appended */
} wa_context_options;
#define WA_CONTEXT_OPTIONS_VERSION 2
#define WA_CONTEXT_OPTIONS_INIT                                                         \
    { WA_CONTEXT_OPTIONS_VERSION, WA_TARGET_GFX942, 64, NULL, NULL, NULL, NULL,         \
      WA_FEATURE_ANY, WA_FEATURE_ANY }

/* Creates a context. `opts` may be NULL for the defaults. Fails with WA_E_INVALID
   for an unknown options version, target or wave size; there is no context yet
   to hold a message, so only the status tells. */
WA_API wa_status wa_context_create(wa_context **out, const wa_context_options *opts);

/* NULL-safe. Every program and result created from the context must have been
   destroyed first. */
WA_API void wa_context_destroy(wa_context *ctx);

WA_API wa_target wa_context_target(const wa_context *ctx);
/* The context's XNACK and SRAMECC settings (WA_FEATURE_ANY for NULL). */
WA_API wa_feature wa_context_xnack(const wa_context *ctx);
WA_API wa_feature wa_context_sramecc(const wa_context *ctx);

/* The context keeps large temporary blocks between operations so that compiling
   kernel after kernel reuses memory that is already mapped (at most 1 GiB, freed
   with the context), and the parser's mnemonic table (16 KiB, built by the first
   parse). Releases them now. */
WA_API void wa_context_trim(wa_context *ctx);

/* ---- Diagnostics ------------------------------------------------------------

   Each public operation that takes a context (or an object made from one) starts
   by clearing the context's diagnostics and then records what it finds. A failing
   call leaves at least one error; a successful call may leave warnings. */

typedef enum wa_severity {
    WA_SEVERITY_ERROR = 0,
    WA_SEVERITY_WARNING = 1,
    WA_SEVERITY_NOTE = 2
} wa_severity;

#define WA_NO_TAG 0xFFFFFFFFu

typedef struct wa_diag {
    wa_severity severity;
    wa_status status;    /* status of the error; WA_OK for warnings and notes */
    const char *message; /* never NULL */
    const char *file;    /* source name given to the parser, or "" */
    unsigned line, col;  /* 1-based; 0 when unknown */
    unsigned tag;        /* instruction tag, or WA_NO_TAG */
} wa_diag;

WA_API unsigned wa_context_diag_count(const wa_context *ctx);
/* Borrowed; valid until the next library call on the context. NULL if out of range. */
WA_API const wa_diag *wa_context_diag(const wa_context *ctx, unsigned index);
/* The most recent error (or, without errors, the most recent diagnostic); NULL
   when there is none. Never NULL after a call on the context has failed. */
WA_API const wa_diag *wa_context_last_diag(const wa_context *ctx);
/* "file:line:col: error: message [I5]" for the last diagnostic, or "". Borrowed
   like wa_context_diag(). */
WA_API const char *wa_context_last_error(const wa_context *ctx);
WA_API void wa_context_clear_diags(wa_context *ctx);
/* Appends a copy of `diag` (message and file name copied; status forced to
   WA_OK for warnings and notes) without clearing the others: for code built on
   the library that reports its own findings on the context, such as the MLIR
   front end. WA_E_INVALID for a NULL argument, WA_E_NOMEM if it cannot be kept. */
WA_API wa_status wa_context_add_diag(wa_context *ctx, const wa_diag *diag);

WA_END_DECLS
#endif
