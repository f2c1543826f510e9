/* tests/fuzz/fuzz_util.c — shared checks of the fuzz targets (fuzz_util.h). */
#include "fuzz_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fz_verbose(void)
{
    static int cached = -1;
    if (cached < 0) {
        const char *v = getenv("FUZZ_VERBOSE");
        cached = v && v[0] && strcmp(v, "0") != 0;
    }
    return cached;
}

uint64_t fz_hash(const uint8_t *data, size_t size)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211ull;
    return h;
}

void fz_fail(wa_context *ctx, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fuzz: property failed: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    if (ctx) {
        for (unsigned i = 0; i < wa_context_diag_count(ctx) && i < 20; i++) {
            const wa_diag *d = wa_context_diag(ctx, i);
            fprintf(stderr, "  diag %u: %s:%u:%u: [%s] %s (tag %u)\n", i, d->file ? d->file : "",
                    d->line, d->col, wa_status_string(d->status), d->message, d->tag);
        }
    }
    fflush(stderr);
    abort();
}

wa_context *fz_context(wa_target target)
{
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.target = target;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &o) != WA_OK)
        fz_fail(NULL, "wa_context_create failed");
    return ctx;
}

void fz_check_failure(wa_context *ctx, wa_status st, const char *what)
{
    FZ_REQUIRE(ctx, st < 0 && st >= WA_E_SIM_LIMIT, "%s: status %d is not a known error", what,
               (int)st);
    FZ_REQUIRE(ctx, st != WA_E_INTERNAL, "%s: internal error", what);
    FZ_REQUIRE(ctx, st != WA_E_NOMEM, "%s: out of memory on a small input", what);
    const wa_diag *last = wa_context_last_diag(ctx);
    FZ_REQUIRE(ctx, last != NULL, "%s failed (%s) without a diagnostic", what,
               wa_status_string(st));
    FZ_REQUIRE(ctx, last->severity == WA_SEVERITY_ERROR && last->message && last->message[0],
               "%s failed (%s) but its last diagnostic is no error with a message", what,
               wa_status_string(st));
    int found = 0;
    for (unsigned i = 0; i < wa_context_diag_count(ctx) && !found; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        found = d->severity == WA_SEVERITY_ERROR && d->status == st;
    }
    FZ_REQUIRE(ctx, found, "%s failed with %s but no error diagnostic has that status", what,
               wa_status_string(st));
}

char *fz_print(const wa_program *prog, unsigned flags)
{
    wa_print_options po = WA_PRINT_OPTIONS_INIT;
    po.flags = flags;
    char *text = NULL;
    size_t len = 0;
    wa_status st = wa_program_print(&text, &len, prog, &po);
    FZ_REQUIRE(wa_program_context(prog), st == WA_OK && text, "wa_program_print failed: %s",
               wa_status_string(st));
    FZ_REQUIRE(wa_program_context(prog), strlen(text) == len,
               "wa_program_print: length %zu, but the text holds %zu bytes", len, strlen(text));
    return text;
}

/* Parses printed text, which must succeed. */
static wa_program *reparse(wa_context *ctx, const char *text, const char *what)
{
    wa_program *p = NULL;
    wa_status st = wa_program_parse(&p, ctx, text, strlen(text), "printed.wa");
    if (st != WA_OK) {
        fprintf(stderr, "---- printed text (%s) ----\n%s---- end ----\n", what, text);
        fz_fail(ctx, "%s: the printed program does not parse: %s", what,
                wa_context_last_error(ctx));
    }
    return p;
}

static void require_same_text(wa_context *ctx, const char *a, const char *b, const char *what)
{
    if (strcmp(a, b) != 0) {
        fprintf(stderr, "---- first print ----\n%s---- second print ----\n%s---- end ----\n", a,
                b);
        fz_fail(ctx, "%s: printing is not a fixed point", what);
    }
}

void fz_round_trip(const wa_program *prog, const char *what)
{
    wa_context *ctx = wa_program_context(prog);
    char *t1 = fz_print(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS);
    wa_program *p2 = reparse(ctx, t1, what);
    if (!wa_program_equal(prog, p2)) {
        fprintf(stderr, "---- printed text (%s) ----\n%s---- end ----\n", what, t1);
        fz_fail(ctx, "%s: parse(print(p)) differs from p", what);
    }
    char *t2 = fz_print(p2, WA_PRINT_TAGS | WA_PRINT_COMMENTS);
    require_same_text(ctx, t1, t2, what);
    wa_free(t2);
    /* an equal program is exactly as valid */
    unsigned e1 = 0, e2 = 0;
    wa_status v1 = wa_program_validate(&e1, prog, NULL);
    wa_status v2 = wa_program_validate(&e2, p2, NULL);
    if (v1 != v2 || e1 != e2) {
        fprintf(stderr, "---- printed text (%s) ----\n%s---- end ----\n", what, t1);
        wa_program_validate(NULL, prog, NULL);
        for (unsigned i = 0; i < wa_context_diag_count(ctx) && i < 20; i++)
            fprintf(stderr, "  program: %s\n", wa_context_diag(ctx, i)->message);
        wa_program_validate(NULL, p2, NULL);
        fz_fail(ctx, "%s: the program validates with %s (%u errors), its reparsed text with %s (%u)",
                what, wa_status_string(v1), e1, wa_status_string(v2), e2);
    }
    wa_program_destroy(p2);
    wa_free(t1);

    /* Without tags and comments the parser numbers the instructions afresh and
       comment lines are gone: only the fixed point is required. */
    char *u1 = fz_print(prog, 0);
    wa_program *p3 = reparse(ctx, u1, what);
    char *u2 = fz_print(p3, 0);
    require_same_text(ctx, u1, u2, what);
    wa_free(u2);
    wa_program_destroy(p3);
    wa_free(u1);

    wa_print_options po = WA_PRINT_OPTIONS_INIT;
    for (unsigned i = 0; i < wa_program_size(prog); i++) {
        char *item = NULL;
        wa_status st = wa_program_print_item(&item, prog, i, &po);
        FZ_REQUIRE(ctx, st == WA_OK && item && !strchr(item, '\n'),
                   "%s: wa_program_print_item(%u) failed or printed several lines", what, i);
        wa_free(item);
    }
}
