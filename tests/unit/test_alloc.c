/* tests/unit/test_alloc.c — allocation failures. A realloc hook fails the Nth
   allocation; for N = 1, 2, ... until nothing fails, a whole pipeline runs
   (parse, validate, print, emit, clone for the examples; build, validate,
   print, reparse for a built program). Every failure must come back as an error
   status with a diagnostic, every success must produce the same output as a run
   without failures, and the hook's books must balance (no leaks). */
#include "check.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct books {
    long live;              /* blocks handed out and not freed */
    unsigned long attempts; /* allocation requests (new blocks and resizes) */
    unsigned long fail_at;  /* 0: never fail; else fail this attempt */
    int failed;             /* the injected failure happened */
} books;

static void *hook(void *ptr, size_t size, void *user)
{
    books *b = user;
    if (size == 0) {
        if (ptr)
            b->live--;
        free(ptr);
        return NULL;
    }
    b->attempts++;
    if (b->fail_at && b->attempts == b->fail_at) {
        b->failed = 1;
        return NULL;
    }
    void *p = realloc(ptr, size);
    if (p && !ptr)
        b->live++;
    return p;
}

static wa_context *hooked_context(books *b)
{
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.realloc_fn = hook;
    o.alloc_user = b;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &o) != WA_OK)
        return NULL;
    return ctx;
}

/* What a successful run produces, to compare runs that survived a failure. */
typedef struct outputs {
    char *printed;
    char *emitted;
} outputs;

static void free_outputs(outputs *o)
{
    free(o->printed);
    free(o->emitted);
    o->printed = o->emitted = NULL;
}

/* Checks a failed call: an error status and a diagnostic that says why. */
static int failed_cleanly(wa_context *ctx, wa_status st, const char *step, const books *b)
{
    CHECK_MSG(st < 0, "%s returned %d", step, (int)st);
    const wa_diag *d = wa_context_last_diag(ctx);
    if (!CHECK_MSG(d != NULL, "%s failed (%d) without a diagnostic", step, (int)st))
        return 0;
    CHECK_MSG(b->failed, "%s failed (%d: %s) without an injected failure", step, (int)st, d->message);
    CHECK_MSG(d->status == WA_E_NOMEM || st == WA_E_NOMEM,
              "%s failed with %d but the diagnostic does not say out of memory: %s", step, (int)st,
              d->message);
    return 1;
}

static char *dup_or_null(const char *s)
{
    return s ? ut_strdup(s) : NULL;
}

/* parse -> validate -> print -> emit -> clone/equal. Returns WA_OK or the first error. */
static wa_status text_pipeline(wa_context *ctx, const books *b, const char *text, size_t len,
                               outputs *out)
{
    wa_program *prog = NULL, *copy = NULL;
    char *printed = NULL, *emitted = NULL;
    wa_status st = wa_program_parse(&prog, ctx, text, len, "input.wa");
    if (st) {
        CHECK(prog == NULL);
        failed_cleanly(ctx, st, "parse", b);
        return st;
    }
    unsigned nerr = 0;
    st = wa_program_validate(&nerr, prog, NULL);
    if (st) {
        failed_cleanly(ctx, st, "validate", b);
        goto done;
    }
    st = wa_program_print(&printed, NULL, prog, NULL);
    if (st) {
        CHECK(printed == NULL);
        failed_cleanly(ctx, st, "print", b);
        goto done;
    }
    st = wa_emit_asm(&emitted, NULL, prog, NULL);
    if (st == WA_E_VALIDATE) {
        /* a program with virtual registers has nothing to emit yet */
        const wa_diag *d = wa_context_last_diag(ctx);
        if (d && d->status == WA_E_VALIDATE && strstr(d->message, "virtual register"))
            st = WA_OK;
    }
    if (st) {
        CHECK(emitted == NULL);
        failed_cleanly(ctx, st, "emit", b);
        goto done;
    }
    st = wa_program_clone(&copy, prog);
    if (st) {
        CHECK(copy == NULL);
        failed_cleanly(ctx, st, "clone", b);
        goto done;
    }
    CHECK(wa_program_equal(prog, copy));
    /* the formatted error text must not crash either */
    (void)wa_context_last_error(ctx);
    out->printed = dup_or_null(printed);
    out->emitted = dup_or_null(emitted);
done:
    wa_free(printed);
    wa_free(emitted);
    wa_program_destroy(copy);
    wa_program_destroy(prog);
    return st;
}

/* Builds a program with every builder family, then validates, prints and parses
   the text back. */
static wa_status builder_pipeline(wa_context *ctx, const books *b, outputs *out)
{
    wa_program *prog = NULL, *back = NULL;
    char *printed = NULL, *emitted = NULL;
    wa_status st = wa_program_create(&prog, ctx, "built");
    if (st) {
        failed_cleanly(ctx, st, "create", b);
        return st;
    }
#define STEP(call)                                   \
    do {                                             \
        st = (call);                                 \
        if (st) {                                    \
            failed_cleanly(ctx, st, #call, b);       \
            goto done;                               \
        }                                            \
    } while (0)
    wa_operand v1, v2, v4, s2, s4, a4, none = wa_opnd_none();
    wa_label loop, out_label;
    wa_tag t;
    wa_kernel_arg arg = WA_KERNEL_ARG_INIT;
    wa_mods m = WA_MODS_INIT;
    STEP(wa_program_set_lds_bytes(prog, 512));
    arg.name = "data";
    arg.kind = WA_ARG_GLOBAL_BUFFER;
    arg.size = 8;
    STEP(wa_program_add_arg(NULL, prog, &arg));
    arg.name = "count";
    arg.kind = WA_ARG_BY_VALUE;
    arg.size = 4;
    STEP(wa_program_add_arg(NULL, prog, &arg));
    STEP(wa_program_vreg(&v1, prog, WA_REG_VGPR, 1, 0));
    STEP(wa_program_vreg(&v2, prog, WA_REG_VGPR, 2, 0));
    STEP(wa_program_vreg(&v4, prog, WA_REG_VGPR, 4, 0));
    STEP(wa_program_vreg(&s2, prog, WA_REG_SGPR, 2, 0));
    STEP(wa_program_vreg(&s4, prog, WA_REG_SGPR, 4, 0));
    STEP(wa_program_vreg(&a4, prog, WA_REG_AGPR, 4, 0));
    STEP(wa_program_label_create(&loop, prog, "loop"));
    STEP(wa_program_label_create(&out_label, prog, NULL));
    STEP(wa_build_comment(prog, "load the pointer"));
    STEP(wa_build_smem(&t, prog, WA_OP_S_LOAD_DWORDX2, s2, wa_opnd_phys(WA_REG_SGPR, 0, 2),
                       wa_opnd_imm(0), NULL));
    STEP(wa_program_set_comment(prog, t, "data"));
    STEP(wa_build_smem(NULL, prog, WA_OP_S_LOAD_DWORDX4, s4, wa_opnd_phys(WA_REG_SGPR, 0, 2),
                       wa_opnd_imm(16), NULL));
    STEP(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_fimm(0.5), none, none));
    STEP(wa_build_waitcnt(NULL, prog, -1, 0, -1));
    STEP(wa_build_label(prog, loop));
    m.offset = 8;
    STEP(wa_build_global(NULL, prog, WA_OP_GLOBAL_LOAD_DWORDX2, v2, wa_opnd_phys(WA_REG_VGPR, 0, 1),
                         s2, &m));
    m = (wa_mods)WA_MODS_INIT;
    m.flags = WA_MOD_OFFEN;
    STEP(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORDX4, v4, v1, s4, wa_opnd_imm(0), &m));
    m = (wa_mods)WA_MODS_INIT;
    STEP(wa_build_ds(NULL, prog, WA_OP_DS_WRITE_B64, none, v1, v2, none, &m));
    STEP(wa_build_waitcnt(NULL, prog, 0, 0, -1));
    STEP(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_WRITE_B32, wa_opnd_sub(a4, 0, 1), v1, none, none));
    STEP(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_WRITE_B32, wa_opnd_sub(a4, 1, 1), v1, none, none));
    STEP(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_WRITE_B32, wa_opnd_sub(a4, 2, 1), v1, none, none));
    STEP(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_WRITE_B32, wa_opnd_sub(a4, 3, 1), v1, none, none));
    STEP(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_F32_16X16X16_F16, a4, v2, wa_opnd_sub(v4, 0, 2), a4,
                       none, none, NULL));
    STEP(wa_build_salu(NULL, prog, WA_OP_S_CMP_LG_U32, none, wa_opnd_sub(s4, 3, 1), wa_opnd_imm(0)));
    STEP(wa_build_branch(NULL, prog, WA_OP_S_CBRANCH_SCC1, loop));
    STEP(wa_build_branch(NULL, prog, WA_OP_S_BRANCH, out_label));
    STEP(wa_build_label(prog, out_label));
    STEP(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 4));
    STEP(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    STEP(wa_program_set_insert_point(prog, 1));
    STEP(wa_build_sopp(NULL, prog, WA_OP_S_SETPRIO, 1));
    STEP(wa_program_validate(NULL, prog, NULL));
    STEP(wa_program_print(&printed, NULL, prog, NULL));
    STEP(wa_program_parse(&back, ctx, printed, strlen(printed), "printed.wa"));
    CHECK(wa_program_equal(prog, back));
    /* resources refuse virtual registers (a diagnostic, not a crash) */
    wa_kernel_resources r;
    st = wa_kernel_resources_compute(&r, prog);
    if (st != WA_E_VALIDATE) {
        CHECK_MSG(st == WA_OK || failed_cleanly(ctx, st, "resources", b), "resources: %d", (int)st);
        if (st)
            goto done;
    }
    st = WA_OK;
    out->printed = dup_or_null(printed);
#undef STEP
done:
    wa_free(printed);
    wa_free(emitted);
    wa_program_destroy(back);
    wa_program_destroy(prog);
    return st;
}

typedef enum { PIPE_TEXT, PIPE_BUILDER } pipe_kind;

/* Runs the pipeline failing allocation 1, 2, ... until a run sees no failure. */
static void fail_each_allocation(pipe_kind kind, const char *name, const char *text, size_t len)
{
    /* Reference outputs with a plain context. */
    outputs ref = { NULL, NULL };
    books b0;
    memset(&b0, 0, sizeof(b0));
    wa_context *ctx = hooked_context(&b0);
    REQUIRE(ctx != NULL);
    wa_status st = kind == PIPE_TEXT ? text_pipeline(ctx, &b0, text, len, &ref)
                                     : builder_pipeline(ctx, &b0, &ref);
    wa_context_destroy(ctx);
    REQUIRE_OK(st);
    CHECK_EQ_INT(b0.live, 0);
    unsigned long total = b0.attempts;
    CHECK(total > 0);

    unsigned long n;
    unsigned nomem = 0;
    for (n = 1; n < total + 10; n++) {
        ut_context("%s: failing allocation %lu of %lu", name, n, total);
        books b;
        memset(&b, 0, sizeof(b));
        ctx = hooked_context(&b);
        REQUIRE(ctx != NULL);
        unsigned long base = b.attempts; /* the context's own block */
        b.fail_at = base + n;
        outputs got = { NULL, NULL };
        st = kind == PIPE_TEXT ? text_pipeline(ctx, &b, text, len, &got)
                               : builder_pipeline(ctx, &b, &got);
        if (st == WA_OK) {
            /* survived (or never reached) the failure: same output as without it */
            CHECK_STR_EQ(got.printed, ref.printed);
            CHECK_STR_EQ(got.emitted, ref.emitted);
        } else {
            nomem++;
        }
        free_outputs(&got);
        wa_context_destroy(ctx);
        CHECK_MSG(b.live == 0, "%ld blocks leaked", b.live);
        if (!b.failed)
            break; /* every allocation has been failed once */
    }
    ut_context("%s", "");
    CHECK_MSG(n >= total, "%s: stopped after %lu of %lu allocations", name, n, total);
    if (getenv("UT_VERBOSE"))
        printf("  %s: %lu allocations, %u failed runs\n", name, total, nomem);
    CHECK(nomem > 0);
    free_outputs(&ref);
}

static void context_creation(void)
{
    books b;
    memset(&b, 0, sizeof(b));
    b.fail_at = 1;
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.realloc_fn = hook;
    o.alloc_user = &b;
    wa_context *ctx = (wa_context *)&b;
    CHECK_STATUS(wa_context_create(&ctx, &o), WA_E_NOMEM);
    CHECK(ctx == NULL);
    CHECK(b.failed);
    CHECK_EQ_INT(b.live, 0);
    /* and with a working allocator every block goes through the hook */
    memset(&b, 0, sizeof(b));
    REQUIRE_OK(wa_context_create(&ctx, &o));
    CHECK_EQ_INT(b.live, 1);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    CHECK(b.live > 1);
    char *text = NULL;
    REQUIRE_OK(wa_program_print(&text, NULL, prog, NULL));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    /* the printed buffer outlives the context and is freed through the same hook */
    CHECK_EQ_INT(b.live, 1);
    wa_free(text);
    CHECK_EQ_INT(b.live, 0);
}

static void examples_under_failures(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    CHECK(n >= 1);
    for (unsigned i = 0; i < n; i++) {
        size_t len = 0;
        char *text = ut_read_file(files[i], &len, 0);
        if (!CHECK(text != NULL))
            continue;
        fail_each_allocation(PIPE_TEXT, files[i], text, len);
        free(text);
    }
    ut_free_list(files, n);
}

static void bad_input_under_failures(void)
{
    /* failures while reporting an error */
    static const char bad[] = ".kernel k\n  v_mov_b32 v0, v1, v2\n.end_kernel\n";
    books b;
    for (unsigned long n = 1; n < 200; n++) {
        memset(&b, 0, sizeof(b));
        wa_context *ctx = hooked_context(&b);
        REQUIRE(ctx != NULL);
        b.fail_at = b.attempts + n;
        wa_program *prog = (wa_program *)&b;
        wa_status st = wa_program_parse(&prog, ctx, bad, strlen(bad), "bad.wa");
        CHECK_MSG(st == WA_E_PARSE || st == WA_E_NOMEM, "status %d at allocation %lu", (int)st, n);
        CHECK(prog == NULL);
        const wa_diag *d = wa_context_last_diag(ctx);
        CHECK(d != NULL);
        CHECK(wa_context_last_error(ctx) != NULL);
        wa_context_destroy(ctx);
        CHECK_EQ_INT(b.live, 0);
        if (!b.failed)
            break;
    }
    CHECK(!b.failed);
    /* and a program that does not validate: many diagnostics to record */
    static const char invalid2[] = ".kernel k\n  s_nop 16\n  s_nop 17\n  v_add_u32 v0, a0, a1\n"
                                   "  s_nop 0 ; @I0\n.end_kernel\n";
    unsigned want_errors = 0;
    {
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        wa_program *prog = ut_parse(ctx, invalid2);
        REQUIRE(prog);
        CHECK_STATUS(wa_program_validate(&want_errors, prog, NULL), WA_E_VALIDATE);
        CHECK(want_errors >= 5);
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
    }
    for (unsigned long n = 1; n < 400; n++) {
        memset(&b, 0, sizeof(b));
        wa_context *ctx = hooked_context(&b);
        REQUIRE(ctx != NULL);
        wa_program *prog = NULL;
        wa_status st = wa_program_parse(&prog, ctx, invalid2, strlen(invalid2), "inv.wa");
        REQUIRE_OK(st);
        b.fail_at = b.attempts + n;
        unsigned nerr = 0;
        st = wa_program_validate(&nerr, prog, NULL);
        CHECK_MSG(st == WA_E_VALIDATE || st == WA_E_NOMEM, "status %d", (int)st);
        CHECK(wa_context_last_diag(ctx) != NULL);
        (void)wa_context_last_error(ctx);
        if (st == WA_E_VALIDATE && !b.failed)
            CHECK_EQ_UINT(nerr, want_errors);
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
        CHECK_EQ_INT(b.live, 0);
        if (!b.failed)
            break;
    }
    CHECK(!b.failed);
}

/* A larger kernel: arrays grow several times, the arena needs several chunks,
   the printer's buffer is reallocated many times. */
static void big_program_under_failures(void)
{
    size_t cap = 64 * 1024, len = 0;
    char *text = malloc(cap);
    REQUIRE(text != NULL);
    len += (size_t)snprintf(text + len, cap - len, ".kernel big\n  .target gfx942\n");
    for (unsigned i = 0; i < 20; i++)
        len += (size_t)snprintf(text + len, cap - len, "  .arg arg%u, by_value, size:4\n", i);
    for (unsigned i = 0; i < 400; i++) {
        if (i % 10 == 0)
            len += (size_t)snprintf(text + len, cap - len, "L%u:\n", i / 10);
        if (i % 10 == 9)
            len += (size_t)snprintf(text + len, cap - len, "  s_cbranch_scc1 L%u\n", i / 20);
        else
            len += (size_t)snprintf(text + len, cap - len,
                                    "  v_add_u32 v%u, v%u, s%u                ; step %u of the loop\n",
                                    i % 200, (i + 1) % 200, i % 100, i);
    }
    len += (size_t)snprintf(text + len, cap - len, "  s_endpgm\n.end_kernel\n");
    REQUIRE(len < cap);
    fail_each_allocation(PIPE_TEXT, "generated program", text, len);
    free(text);
}

static void builder_under_failures(void)
{
    fail_each_allocation(PIPE_BUILDER, "builder program", NULL, 0);
}

UT_SUITE(
    UT_CASE(context_creation)
    UT_CASE(examples_under_failures)
    UT_CASE(builder_under_failures)
    UT_CASE(big_program_under_failures)
    UT_CASE(bad_input_under_failures)
);
