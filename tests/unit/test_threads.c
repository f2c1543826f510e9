/* tests/unit/test_threads.c — distinct contexts are independent: four threads,
   each with its own context, parse, validate, print and emit the same kernels
   50 times and must get exactly the single-threaded output every time. */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 50

typedef struct job {
    const char *text;
    size_t len;
    const char *want_print, *want_emit;
    const char *bad_text;     /* parses with an error */
    const char *want_error;   /* wa_context_last_error() for it */
    wa_target target;
    unsigned mismatches, failures;
} job;

/* One round: returns 0 on success. Uses only its own context. */
static int one_round(wa_context *ctx, const job *j)
{
    int bad = 0;
    wa_program *prog = NULL;
    if (wa_program_parse(&prog, ctx, j->text, j->len, "shared.wa") != WA_OK)
        return 1;
    if (wa_program_validate(NULL, prog, NULL) != WA_OK)
        bad = 1;
    char *p = NULL, *e = NULL;
    if (!bad && wa_program_print(&p, NULL, prog, NULL) != WA_OK)
        bad = 1;
    if (!bad && wa_emit_asm(&e, NULL, prog, NULL) != WA_OK)
        bad = 1;
    if (!bad && (strcmp(p, j->want_print) != 0 || strcmp(e, j->want_emit) != 0))
        bad = 2;
    wa_free(p);
    wa_free(e);
    wa_program_destroy(prog);
    /* errors land on this thread's context only */
    wa_program *none = NULL;
    if (wa_program_parse(&none, ctx, j->bad_text, strlen(j->bad_text), "bad.wa") != WA_E_PARSE)
        bad = 1;
    else if (strcmp(wa_context_last_error(ctx), j->want_error) != 0)
        bad = 2;
    return bad;
}

static void *worker(void *arg)
{
    job *j = arg;
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.target = j->target;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &o) != WA_OK) {
        j->failures++;
        return NULL;
    }
    for (unsigned r = 0; r < ROUNDS; r++) {
        int res = one_round(ctx, j);
        if (res == 1)
            j->failures++;
        else if (res == 2)
            j->mismatches++;
    }
    wa_context_destroy(ctx);
    return NULL;
}

static void same_output_in_parallel(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    /* the first example without virtual registers (so that it can be emitted) */
    char *text = NULL;
    size_t len = 0;
    char *want_print = NULL, *want_emit = NULL;
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned i = 0; i < n && !want_emit; i++) {
        text = ut_read_file(files[i], &len, 0);
        if (!text)
            continue;
        wa_program *prog = NULL;
        if (wa_program_parse(&prog, ctx, text, len, "shared.wa") == WA_OK &&
            wa_program_validate(NULL, prog, NULL) == WA_OK) {
            char *p = NULL, *e = NULL;
            if (wa_program_print(&p, NULL, prog, NULL) == WA_OK &&
                wa_emit_asm(&e, NULL, prog, NULL) == WA_OK) {
                want_print = ut_strdup(p);
                want_emit = ut_strdup(e);
            }
            wa_free(p);
            wa_free(e);
        }
        wa_program_destroy(prog);
        if (!want_emit) {
            free(text);
            text = NULL;
        }
    }
    ut_free_list(files, n);
    REQUIRE(want_emit != NULL);
    static const char bad_text[] = ".kernel k\n  s_nop 0\n  v_bogus v0\n.end_kernel\n";
    wa_program *none = NULL;
    CHECK_STATUS(wa_program_parse(&none, ctx, bad_text, strlen(bad_text), "bad.wa"), WA_E_PARSE);
    char *want_error = ut_strdup(wa_context_last_error(ctx));
    CHECK_STR_CONTAINS(want_error, "bad.wa:3:3: error: ");
    wa_context_destroy(ctx);

    pthread_t tid[THREADS];
    job jobs[THREADS];
    for (unsigned t = 0; t < THREADS; t++) {
        jobs[t] = (job){ text, len, want_print, want_emit, bad_text, want_error,
                         t % 2 ? WA_TARGET_GFX90A : WA_TARGET_GFX942, 0, 0 };
        CHECK_EQ_INT(pthread_create(&tid[t], NULL, worker, &jobs[t]), 0);
    }
    for (unsigned t = 0; t < THREADS; t++) {
        CHECK_EQ_INT(pthread_join(tid[t], NULL), 0);
        ut_context("thread %u", t);
        CHECK_EQ_UINT(jobs[t].failures, 0);
        CHECK_EQ_UINT(jobs[t].mismatches, 0);
    }
    ut_context("%s", "");
    free(want_error);
    free(want_print);
    free(want_emit);
    free(text);
}

/* Buffers from one thread's context can be freed on another thread. */
static void *free_elsewhere(void *arg)
{
    wa_free(arg);
    return NULL;
}

static void free_on_another_thread(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX950);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    char *text = NULL;
    REQUIRE_OK(wa_program_print(&text, NULL, prog, NULL));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    pthread_t t;
    CHECK_EQ_INT(pthread_create(&t, NULL, free_elsewhere, text), 0);
    CHECK_EQ_INT(pthread_join(t, NULL), 0);
}

UT_SUITE(
    UT_CASE(same_output_in_parallel)
    UT_CASE(free_on_another_thread)
);
