/* tests/unit/test_threads.c — distinct contexts are independent. Eight threads,
   each with its own context:
   - parse, validate, print and emit the same kernel 50 times;
   - compile every bundled example (the .wa files in examples/) through the
     default pipeline, emit its assembly and run it in the simulator with the
     arguments of its "; Simulate" line;
   and must get exactly the single-threaded output every time. Run under
   ThreadSanitizer by scripts/test.sh (stage tsan). */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
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

/* ---- examples through the default pipeline and the simulator ---------------------- */

#define SIM_ROUNDS 4              /* rounds of every example per thread */
#define SIM_BUFFER_BYTES 16384u   /* per global-buffer argument */
#define SIM_MAX_ARGS 16

/* One example with its simulation settings and, once computed, the reference
   output of a single-threaded run. */
typedef struct example {
    char *path, *text;
    size_t len;
    unsigned grid[3];
    unsigned nargs, arg_index[SIM_MAX_ARGS];
    long long arg_value[SIM_MAX_ARGS];
    char *want_asm;
    unsigned char *want_mem;      /* every global buffer after the run, in argument order */
    size_t mem_bytes;
} example;

/* Reads the options of the example's "; Simulate ...: <options>" line (the same
   line scripts/run-example.sh reads): --sim-grid=x[,y[,z]] and
   --sim-arg=<index>=<value>. Returns 0 on success (also when there is no such
   line: one workgroup, arguments 0). */
static int read_sim_line(example *ex)
{
    ex->grid[0] = ex->grid[1] = ex->grid[2] = 1;
    ex->nargs = 0;
    const char *line = ex->text;
    while (line && strncmp(line, "; Simulate", 10) != 0) {
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    if (!line)
        return 0;
    const char *p = strstr(line, "):");
    const char *eol = strchr(line, '\n');
    if (!p || (eol && p > eol))
        return -1;
    p += 2;
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == '\n' || *p == '\0')
            return 0;
        char *end;
        if (strncmp(p, "--sim-grid=", 11) == 0) {
            p += 11;
            for (unsigned d = 0; d < 3; d++) {
                ex->grid[d] = (unsigned)strtoul(p, &end, 10);
                if (end == p || ex->grid[d] == 0)
                    return -1;
                p = end;
                if (*p != ',')
                    break;
                p++;
            }
        } else if (strncmp(p, "--sim-arg=", 10) == 0 && ex->nargs < SIM_MAX_ARGS) {
            p += 10;
            ex->arg_index[ex->nargs] = (unsigned)strtoul(p, &end, 10);
            if (end == p || *end != '=')
                return -1;
            p = end + 1;
            ex->arg_value[ex->nargs] = strtoll(p, &end, 0);
            if (end == p)
                return -1;
            p = end;
            ex->nargs++;
        } else {
            return -1;
        }
        if (*p != ' ' && *p != '\n' && *p != '\0')
            return -1;
    }
}

/* What byte `i` of the concatenated buffers holds before the run: differs from
   one buffer to the next. */
static unsigned char initial_byte(size_t i)
{
    return (unsigned char)(i * 37u + i / SIM_BUFFER_BYTES);
}

/* Parses, compiles (wa_compile: the default pipeline), emits and simulates one
   example on `ctx`. On success *out_asm (wa_free) and *out_mem (free) hold the
   assembly and the global buffers after the run; returns WA_OK. */
static wa_status compile_and_run(wa_context *ctx, const example *ex, char **out_asm,
                                 unsigned char **out_mem, size_t *out_bytes)
{
    *out_asm = NULL;
    *out_mem = NULL;
    *out_bytes = 0;
    wa_program *prog = NULL;
    wa_sim *sim = NULL;
    unsigned char *mem = NULL;
    wa_status st = wa_program_parse(&prog, ctx, ex->text, ex->len, ex->path);
    if (st == WA_OK)
        st = wa_compile(prog, NULL);
    if (st == WA_OK)
        st = wa_emit_asm(out_asm, NULL, prog, NULL);
    wa_sim_options so = WA_SIM_OPTIONS_INIT;
    so.flags |= WA_SIM_HAZARDS;
    memcpy(so.grid, ex->grid, sizeof(so.grid));
    if (st == WA_OK)
        st = wa_sim_create(&sim, prog, &so);
    unsigned na = st == WA_OK ? wa_program_arg_count(prog) : 0;
    if (st == WA_OK && !(mem = malloc((size_t)(na ? na : 1) * SIM_BUFFER_BYTES)))
        st = WA_E_NOMEM;
    size_t used = 0;
    for (unsigned a = 0; a < na && st == WA_OK; a++) {
        wa_kernel_arg arg;
        st = wa_program_arg(&arg, prog, a);
        if (st != WA_OK)
            break;
        if (arg.kind == WA_ARG_GLOBAL_BUFFER) {
            unsigned char *buf = mem + used;
            for (size_t i = 0; i < SIM_BUFFER_BYTES; i++)
                buf[i] = initial_byte(used + i);
            st = wa_sim_bind_buffer(sim, a, buf, SIM_BUFFER_BYTES);
            used += SIM_BUFFER_BYTES;
        } else if (arg.kind == WA_ARG_BY_VALUE && arg.size <= 8) {
            long long v = 0;
            for (unsigned k = 0; k < ex->nargs; k++)
                if (ex->arg_index[k] == a)
                    v = ex->arg_value[k];
            unsigned char bytes[8];
            for (unsigned k = 0; k < 8; k++)
                bytes[k] = (unsigned char)((unsigned long long)v >> (8 * k));
            st = wa_sim_set_arg(sim, a, bytes, arg.size);
        }
    }
    if (st == WA_OK)
        st = wa_sim_run(sim);
    wa_sim_destroy(sim);
    wa_program_destroy(prog);
    if (st != WA_OK) {
        wa_free(*out_asm);
        *out_asm = NULL;
        free(mem);
        return st;
    }
    *out_mem = mem;
    *out_bytes = used;
    return WA_OK;
}

typedef struct sim_job {
    const example *ex;
    unsigned n;
    unsigned failures, mismatches;
} sim_job;

static void *sim_worker(void *arg)
{
    sim_job *j = arg;
    wa_context *ctx = NULL;
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    if (wa_context_create(&ctx, &o) != WA_OK) {
        j->failures++;
        return NULL;
    }
    for (unsigned r = 0; r < SIM_ROUNDS; r++) {
        for (unsigned i = 0; i < j->n; i++) {
            const example *ex = &j->ex[i];
            char *asm_text = NULL;
            unsigned char *mem = NULL;
            size_t bytes = 0;
            if (compile_and_run(ctx, ex, &asm_text, &mem, &bytes) != WA_OK)
                j->failures++;
            else if (strcmp(asm_text, ex->want_asm) != 0 || bytes != ex->mem_bytes ||
                     memcmp(mem, ex->want_mem, bytes) != 0)
                j->mismatches++;
            wa_free(asm_text);
            free(mem);
        }
    }
    wa_context_destroy(ctx);
    return NULL;
}

static void examples_pipeline_and_sim_in_parallel(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    REQUIRE(n > 0);
    example *ex = calloc(n, sizeof(*ex));
    REQUIRE(ex != NULL);
    /* The reference: every example once, on the main thread. */
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    unsigned ready = 0;
    for (unsigned i = 0; i < n; i++) {
        ut_context("%s", files[i]);
        ex[i].path = files[i];
        ex[i].text = ut_read_file(files[i], &ex[i].len, 1);
        if (!CHECK(ex[i].text != NULL) ||
            !CHECK_MSG(read_sim_line(&ex[i]) == 0, "unreadable \"; Simulate\" line"))
            continue;
        wa_status st = compile_and_run(ctx, &ex[i], &ex[i].want_asm, &ex[i].want_mem,
                                       &ex[i].mem_bytes);
        if (!CHECK_MSG(st == WA_OK, "status %d: %s", (int)st, ut_diags_text(ctx)))
            continue;
        CHECK_STR_CONTAINS(ex[i].want_asm, ".amdhsa_kernel");
        /* The run wrote something: some buffer differs from its initial pattern. */
        size_t changed = 0;
        for (size_t b = 0; b < ex[i].mem_bytes; b++)
            changed += ex[i].want_mem[b] != initial_byte(b);
        CHECK_MSG(changed > 0, "the simulated run stored nothing");
        ready++;
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
    if (ready == n) {
        pthread_t tid[THREADS];
        sim_job jobs[THREADS];
        for (unsigned t = 0; t < THREADS; t++) {
            jobs[t] = (sim_job){ ex, n, 0, 0 };
            CHECK_EQ_INT(pthread_create(&tid[t], NULL, sim_worker, &jobs[t]), 0);
        }
        for (unsigned t = 0; t < THREADS; t++) {
            CHECK_EQ_INT(pthread_join(tid[t], NULL), 0);
            ut_context("thread %u", t);
            CHECK_EQ_UINT(jobs[t].failures, 0);
            CHECK_EQ_UINT(jobs[t].mismatches, 0);
        }
        ut_context("%s", "");
    }
    for (unsigned i = 0; i < n; i++) {
        free(ex[i].text);
        wa_free(ex[i].want_asm);
        free(ex[i].want_mem);
    }
    free(ex);
    ut_free_list(files, n);
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
    UT_CASE(examples_pipeline_and_sim_in_parallel)
    UT_CASE(free_on_another_thread)
);
