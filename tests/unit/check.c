/* tests/unit/check.c — the harness behind check.h, and main(). */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned g_checks, g_failures, g_case_failures;
static const char *g_case = "";
static char g_context[512];

static void vreport(const char *file, int line, const char *fmt, va_list ap) UT_PRINTF(3, 0);
static void vreport(const char *file, int line, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s:%d: [%s] ", file, line, g_case);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    if (g_context[0])
        fprintf(stderr, "    (while %s)\n", g_context);
}

int ut_check(int ok, const char *file, int line, const char *fmt, ...)
{
    g_checks++;
    if (ok)
        return 1;
    g_failures++;
    g_case_failures++;
    va_list ap;
    va_start(ap, fmt);
    vreport(file, line, fmt, ap);
    va_end(ap);
    return 0;
}

void ut_context(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_context, sizeof(g_context), fmt, ap);
    va_end(ap);
}

int ut_check_int(long long a, long long b, const char *ea, const char *eb, const char *file,
                 int line)
{
    return ut_check(a == b, file, line, "%s == %s failed: %lld vs %lld", ea, eb, a, b);
}

int ut_check_uint(unsigned long long a, unsigned long long b, const char *ea, const char *eb,
                  const char *file, int line)
{
    return ut_check(a == b, file, line, "%s == %s failed: %llu vs %llu", ea, eb, a, b);
}

int ut_check_hex(unsigned long long a, unsigned long long b, const char *ea, const char *eb,
                 const char *file, int line)
{
    return ut_check(a == b, file, line, "%s == %s failed: 0x%llx vs 0x%llx", ea, eb, a, b);
}

int ut_check_str_eq(const char *a, const char *b, const char *ea, const char *eb,
                    const char *file, int line)
{
    int ok = (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
    return ut_check(ok, file, line, "%s == %s failed:\n    got:  \"%s\"\n    want: \"%s\"", ea,
                    eb, a ? a : "(null)", b ? b : "(null)");
}

int ut_check_contains(const char *hay, const char *needle, const char *ehay, const char *file,
                      int line)
{
    int ok = hay && needle && strstr(hay, needle) != NULL;
    return ut_check(ok, file, line, "%s does not contain \"%s\":\n    \"%s\"", ehay,
                    needle ? needle : "(null)", hay ? hay : "(null)");
}

int ut_check_not_contains(const char *hay, const char *needle, const char *ehay,
                          const char *file, int line)
{
    int ok = hay && needle && strstr(hay, needle) == NULL;
    return ut_check(ok, file, line, "%s unexpectedly contains \"%s\":\n    \"%s\"", ehay,
                    needle ? needle : "(null)", hay ? hay : "(null)");
}

int ut_check_status(wa_status got, wa_status want, const char *expr, const char *file, int line)
{
    return ut_check(got == want, file, line, "%s returned %d (%s), expected %d (%s)", expr,
                    (int)got, wa_status_string(got), (int)want, wa_status_string(want));
}

/* ---- diagnostics ----------------------------------------------------------------- */

const char *ut_diags_text(const wa_context *ctx)
{
    static char buf[4096];
    size_t len = 0;
    buf[0] = '\0';
    unsigned n = wa_context_diag_count(ctx);
    if (n == 0)
        return "(no diagnostics)";
    for (unsigned i = 0; i < n && len + 1 < sizeof(buf); i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        if (!d)
            break;
        int w = snprintf(buf + len, sizeof(buf) - len, "\n      %u:%u: [%s] %s (status %d, tag %d)",
                         d->line, d->col,
                         d->severity == WA_SEVERITY_ERROR ? "error" : "other", d->message,
                         (int)d->status, d->tag == WA_NO_TAG ? -1 : (int)d->tag);
        if (w < 0)
            break;
        len += (size_t)w;
        if (len >= sizeof(buf))
            len = sizeof(buf) - 1;
    }
    return buf;
}

static int has_words(const char *msg, const char *words)
{
    if (!msg)
        return 0;
    if (!words)
        return 1;
    char w[256];
    const char *p = words;
    while (*p) {
        const char *e = strchr(p, '|');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n >= sizeof(w))
            n = sizeof(w) - 1;
        memcpy(w, p, n);
        w[n] = '\0';
        if (n && !strstr(msg, w))
            return 0;
        p += n;
        if (*p == '|')
            p++;
    }
    return 1;
}

const wa_diag *ut_find_diag(const wa_context *ctx, const char *needle)
{
    unsigned n = wa_context_diag_count(ctx);
    for (unsigned i = 0; i < n; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        if (d && d->severity == WA_SEVERITY_ERROR && has_words(d->message, needle))
            return d;
    }
    return NULL;
}

static int diag_matches(const wa_diag *d, wa_status status, const char *words, unsigned line,
                        unsigned col, unsigned tag)
{
    return d && d->severity == WA_SEVERITY_ERROR && d->status == status &&
           has_words(d->message, words) && (line == UT_ANY || d->line == line) &&
           (col == UT_ANY || d->col == col) && (tag == UT_ANY || d->tag == tag);
}

int ut_check_diag(const wa_context *ctx, wa_status status, const char *words, unsigned line,
                  unsigned col, unsigned tag, const char *file, int fline)
{
    unsigned n = wa_context_diag_count(ctx);
    for (unsigned i = 0; i < n; i++)
        if (diag_matches(wa_context_diag(ctx, i), status, words, line, col, tag))
            return ut_check(1, file, fline, "diagnostic");
    return ut_check(0, file, fline,
                    "no error diagnostic with status %d, words \"%s\", line %d, col %d, tag %d; have:%s",
                    (int)status, words ? words : "", line == UT_ANY ? -1 : (int)line,
                    col == UT_ANY ? -1 : (int)col, tag == UT_ANY ? -2 : (int)tag,
                    ut_diags_text(ctx));
}

int ut_check_last_diag(const wa_context *ctx, wa_status status, const char *words,
                       unsigned line, unsigned col, unsigned tag, const char *file, int fline)
{
    const wa_diag *d = wa_context_last_diag(ctx);
    return ut_check(diag_matches(d, status, words, line, col, tag), file, fline,
                    "last diagnostic is not status %d, words \"%s\", line %d, col %d, tag %d; have:%s",
                    (int)status, words ? words : "", line == UT_ANY ? -1 : (int)line,
                    col == UT_ANY ? -1 : (int)col, tag == UT_ANY ? -2 : (int)tag,
                    ut_diags_text(ctx));
}

/* ---- main ------------------------------------------------------------------------- */

static void run_case(const ut_case *c, unsigned *failed_cases)
{
    g_case = c->name;
    g_context[0] = '\0';
    g_case_failures = 0;
    c->fn();
    if (g_case_failures) {
        (*failed_cases)++;
        fprintf(stderr, "FAIL %s (%u failed checks)\n", c->name, g_case_failures);
    } else {
        printf("ok   %s\n", c->name);
    }
}

int main(int argc, char **argv)
{
    unsigned ran = 0, failed_cases = 0;
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (const ut_case *c = ut_cases; c->name; c++)
            printf("%s\n", c->name);
        return 0;
    }
    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
            const ut_case *c;
            for (c = ut_cases; c->name; c++)
                if (strcmp(c->name, argv[i]) == 0)
                    break;
            if (!c->name) {
                fprintf(stderr, "unknown test case '%s' (try --list)\n", argv[i]);
                return 2;
            }
            run_case(c, &failed_cases);
            ran++;
        }
    } else {
        for (const ut_case *c = ut_cases; c->name; c++) {
            run_case(c, &failed_cases);
            ran++;
        }
    }
    printf("%u cases, %u checks, %u failed checks, %u failed cases\n", ran, g_checks, g_failures,
           failed_cases);
    fflush(stdout);
    return failed_cases ? 1 : 0;
}
