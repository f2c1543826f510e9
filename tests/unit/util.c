/* tests/unit/util.c — support code shared by the unit tests (see util.h). */
#define _POSIX_C_SOURCE 200809L

#include "util.h"

#include "check.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WAVEASM_EXAMPLES_DIR
#error "WAVEASM_EXAMPLES_DIR must be defined by the build"
#endif

wa_context *ut_context_new(wa_target target)
{
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.target = target;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &o) != WA_OK || !ctx) {
        fprintf(stderr, "cannot create a context for target %d\n", (int)target);
        exit(1);
    }
    return ctx;
}

wa_program *ut_parse(wa_context *ctx, const char *text)
{
    wa_program *prog = NULL;
    wa_status st = wa_program_parse(&prog, ctx, text, strlen(text), "file.wa");
    if (!CHECK_MSG(st == WA_OK && prog, "parse failed with %d: %s\n--- text ---\n%s", (int)st,
                   ut_diags_text(ctx), text))
        return NULL;
    return prog;
}

char *ut_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memcpy(p, s, n);
    return p;
}

void ut_log_collect(const char *line, void *user)
{
    ut_log_lines *l = user;
    size_t len = strlen(l->text), add = strlen(line);
    if (len + add + 2 < sizeof(l->text)) {
        memcpy(l->text + len, line, add);
        l->text[len + add] = '\n';
        l->text[len + add + 1] = '\0';
    }
    l->n++;
}

wa_context *ut_context_logging(wa_target target, ut_log_lines *lines, const char *const *env)
{
    memset(lines, 0, sizeof(*lines));
    for (unsigned i = 0; env && env[i]; i++)
        setenv(env[i], "1", 1);
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.target = target;
    o.log_fn = ut_log_collect;
    o.log_user = lines;
    wa_context *ctx = NULL;
    wa_status st = wa_context_create(&ctx, &o);
    for (unsigned i = 0; env && env[i]; i++)
        unsetenv(env[i]);
    if (st != WA_OK || !ctx) {
        fprintf(stderr, "cannot create a context for target %d\n", (int)target);
        exit(1);
    }
    return ctx;
}

char *ut_kernel_text(const char *target, const char *body)
{
    static const char head[] = ".kernel t\n  .target ";
    static const char tail[] = ".end_kernel\n";
    size_t n = sizeof(head) + strlen(target) + 1 + strlen(body) + sizeof(tail) + 1;
    char *t = malloc(n);
    if (!t) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    snprintf(t, n, "%s%s\n%s%s", head, target, body, tail);
    return t;
}

wa_status ut_parse_body(wa_program **out, wa_context *ctx, const char *target, const char *body)
{
    char *text = ut_kernel_text(target, body);
    wa_status st = wa_program_parse(out, ctx, text, strlen(text), "file.wa");
    free(text);
    return st;
}

wa_status ut_validate_body(wa_context *ctx, const char *target, const char *body,
                           unsigned *out_errors)
{
    wa_program *prog = NULL;
    wa_status st = ut_parse_body(&prog, ctx, target, body);
    if (!CHECK_MSG(st == WA_OK && prog, "body does not parse (%d):%s\n%s", (int)st,
                   ut_diags_text(ctx), body)) {
        if (out_errors)
            *out_errors = 0;
        return WA_E_PARSE;
    }
    st = wa_program_validate(out_errors, prog, NULL);
    wa_program_destroy(prog);
    return st;
}

char *ut_print_flags(const wa_program *prog, unsigned flags)
{
    wa_print_options o = WA_PRINT_OPTIONS_INIT;
    o.flags = flags;
    char *out = NULL;
    size_t len = 0;
    wa_status st = wa_program_print(&out, &len, prog, &o);
    if (!CHECK_MSG(st == WA_OK && out, "print failed with %d", (int)st))
        return NULL;
    CHECK_EQ_UINT(len, strlen(out));
    return out;
}

char *ut_print(const wa_program *prog)
{
    return ut_print_flags(prog, WA_PRINT_TAGS | WA_PRINT_COMMENTS);
}

char *ut_read_file(const char *path, size_t *len, int nul)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            return NULL;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap);
        if (!nb)
            free(buf);
        buf = nb;
    }
    fclose(f);
    /* Exact-size copy so that reads past the end are caught by sanitizers. */
    char *exact = malloc(n + (nul ? 1 : 0) + (n == 0 && !nul ? 1 : 0));
    if (!exact) {
        free(buf);
        return NULL;
    }
    memcpy(exact, buf, n);
    if (nul)
        exact[n] = '\0';
    free(buf);
    *len = n;
    return exact;
}

const char *ut_examples_dir(void)
{
    return WAVEASM_EXAMPLES_DIR;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

unsigned ut_list_examples(char ***out)
{
    *out = NULL;
    DIR *d = opendir(WAVEASM_EXAMPLES_DIR);
    if (!d)
        return 0;
    unsigned n = 0, cap = 0;
    char **list = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".wa") != 0 || e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nl = realloc(list, cap * sizeof(*nl));
            if (!nl)
                break;
            list = nl;
        }
        size_t plen = strlen(WAVEASM_EXAMPLES_DIR) + 1 + len + 1;
        list[n] = malloc(plen);
        if (!list[n])
            break;
        snprintf(list[n], plen, "%s/%s", WAVEASM_EXAMPLES_DIR, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(list, n, sizeof(*list), cmp_str);
    *out = list;
    return n;
}

void ut_free_list(char **list, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void ut_tb_printf(ut_tb *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->n;
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            abort();
        if (b->s && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = (b->cap ? b->cap * 2 : 8192) + (size_t)k;
        char *p = realloc(b->s, cap);
        if (!p)
            abort();
        b->s = p;
        b->cap = cap;
    }
}

void ut_tb_free(ut_tb *b)
{
    free(b->s);
    memset(b, 0, sizeof(*b));
}
