/* tests/unit/test_context.c — contexts, status and target names, diagnostics. */
#define _POSIX_C_SOURCE 200809L /* setenv, dup, fileno */
#include "check.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void create_defaults(void)
{
    wa_context *ctx = (wa_context *)&ctx; /* garbage that must be overwritten */
    REQUIRE_OK(wa_context_create(&ctx, NULL));
    REQUIRE(ctx != NULL);
    CHECK_EQ_INT(wa_context_target(ctx), WA_TARGET_GFX942);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 0);
    CHECK(wa_context_last_diag(ctx) == NULL);
    CHECK(wa_context_diag(ctx, 0) == NULL);
    CHECK_STR_EQ(wa_context_last_error(ctx), "");
    wa_context_destroy(ctx);

    /* The INIT macro gives the same defaults. */
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    CHECK_EQ_UINT(o.version, WA_CONTEXT_OPTIONS_VERSION);
    CHECK_EQ_INT(o.target, WA_TARGET_GFX942);
    CHECK_EQ_UINT(o.wave_size, 64);
    CHECK(o.realloc_fn == NULL && o.log_fn == NULL);
    static const wa_target targets[] = { WA_TARGET_GFX90A, WA_TARGET_GFX942, WA_TARGET_GFX950 };
    for (unsigned i = 0; i < 3; i++) {
        o.target = targets[i];
        ctx = NULL;
        CHECK_OK(wa_context_create(&ctx, &o));
        CHECK_EQ_INT(wa_context_target(ctx), targets[i]);
        wa_context_destroy(ctx);
    }
    wa_context_destroy(NULL);
    CHECK_EQ_INT(wa_context_target(NULL), WA_TARGET_UNKNOWN);
}

static void create_invalid(void)
{
    wa_context *ctx;
    wa_context_options o;

    CHECK_STATUS(wa_context_create(NULL, NULL), WA_E_INVALID);

    struct {
        const char *what;
        unsigned version;
        int target;
        unsigned wave;
    } bad[] = {
        { "version 0", 0, WA_TARGET_GFX942, 64 },
        { "future version", WA_CONTEXT_OPTIONS_VERSION + 1, WA_TARGET_GFX942, 64 },
        { "huge version", 0xFFFFFFFFu, WA_TARGET_GFX942, 64 },
        { "unknown target", WA_CONTEXT_OPTIONS_VERSION, WA_TARGET_UNKNOWN, 64 },
        { "target past the end", WA_CONTEXT_OPTIONS_VERSION, WA_TARGET_COUNT, 64 },
        { "negative target", WA_CONTEXT_OPTIONS_VERSION, -1, 64 },
        { "wave size 32", WA_CONTEXT_OPTIONS_VERSION, WA_TARGET_GFX942, 32 },
        { "wave size 0", WA_CONTEXT_OPTIONS_VERSION, WA_TARGET_GFX942, 0 },
        { "wave size 128", WA_CONTEXT_OPTIONS_VERSION, WA_TARGET_GFX950, 128 },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ut_context("%s", bad[i].what);
        wa_context_options init = WA_CONTEXT_OPTIONS_INIT;
        o = init;
        o.version = bad[i].version;
        o.target = (wa_target)bad[i].target;
        o.wave_size = bad[i].wave;
        ctx = (wa_context *)&o;
        CHECK_STATUS(wa_context_create(&ctx, &o), WA_E_INVALID);
        CHECK(ctx == NULL);
    }
    ut_context("%s", "");
}

static void status_strings(void)
{
    static const struct {
        wa_status st;
        const char *text;
    } table[] = {
        { WA_OK, "ok" },
        { WA_E_INVALID, "invalid argument" },
        { WA_E_PARSE, "parse error" },
        { WA_E_VALIDATE, "validation error" },
        { WA_E_UNSUPPORTED, "unsupported" },
        { WA_E_NOMEM, "out of memory" },
        { WA_E_NOT_FOUND, "not found" },
        { WA_E_RANGE, "out of range" },
        { WA_E_IO, "i/o error" },
        { WA_E_ALLOC, "register allocation failed" },
        { WA_E_INTERNAL, "internal error" },
        { WA_E_SIM_FAULT, "simulated memory fault" },
        { WA_E_SIM_WAIT, "missing wait in simulated kernel" },
        { WA_E_SIM_HAZARD, "hazard in simulated kernel" },
        { WA_E_SIM_LIMIT, "simulation limit reached" },
    };
    unsigned n = sizeof(table) / sizeof(table[0]);
    CHECK_EQ_INT(WA_OK, 0);
    for (unsigned i = 0; i < n; i++) {
        CHECK_STR_EQ(wa_status_string(table[i].st), table[i].text);
        if (i)
            CHECK_MSG(table[i].st < 0, "status %d should be negative", (int)table[i].st);
        for (unsigned j = 0; j < i; j++)
            CHECK(strcmp(wa_status_string(table[i].st), wa_status_string(table[j].st)) != 0);
    }
    CHECK_STR_EQ(wa_status_string((wa_status)1), "unknown status");
    CHECK_STR_EQ(wa_status_string((wa_status)-15), "unknown status");
    CHECK_STR_EQ(wa_status_string((wa_status)-1000), "unknown status");
}

static void target_names(void)
{
    CHECK_STR_EQ(wa_target_name(WA_TARGET_GFX90A), "gfx90a");
    CHECK_STR_EQ(wa_target_name(WA_TARGET_GFX942), "gfx942");
    CHECK_STR_EQ(wa_target_name(WA_TARGET_GFX950), "gfx950");
    CHECK(wa_target_name(WA_TARGET_UNKNOWN) == NULL);
    CHECK(wa_target_name((wa_target)WA_TARGET_COUNT) == NULL);
    CHECK(wa_target_name((wa_target)-1) == NULL);

    for (int t = WA_TARGET_GFX90A; t <= WA_TARGET_GFX950; t++) {
        wa_target out = WA_TARGET_UNKNOWN;
        CHECK_OK(wa_target_from_name(&out, wa_target_name((wa_target)t)));
        CHECK_EQ_INT(out, t);
    }
    static const char *const bad[] = { "GFX942", "gfx940", "gfx9420", "gfx94", "", " gfx942",
                                       "gfx942 ", "gfx90a:xnack+", "unknown" };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        wa_target out = WA_TARGET_GFX950;
        ut_context("name '%s'", bad[i]);
        CHECK_STATUS(wa_target_from_name(&out, bad[i]), WA_E_NOT_FOUND);
    }
    ut_context("%s", "");
    wa_target out;
    CHECK_STATUS(wa_target_from_name(&out, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_target_from_name(NULL, "gfx942"), WA_E_INVALID);
}

static void version_info(void)
{
    CHECK_STR_EQ(wa_version_string(), WA_VERSION_STRING);
    CHECK_EQ_UINT(wa_version_number(), WA_VERSION_NUMBER);
    char buf[32];
    snprintf(buf, sizeof(buf), "%d.%d.%d", WA_VERSION_MAJOR, WA_VERSION_MINOR, WA_VERSION_PATCH);
    CHECK_STR_EQ(WA_VERSION_STRING, buf);
    CHECK_EQ_UINT(WA_VERSION_NUMBER,
                  WA_VERSION_MAJOR * 10000 + WA_VERSION_MINOR * 100 + WA_VERSION_PATCH);
}

/* A parse error: one diagnostic with file, line, column and no tag. */
static void diag_parse_error(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char text[] = ".kernel k\n"
                               "  .target gfx942\n"
                               "  v_frobnicate_b32 v0, v1\n"
                               "  s_endpgm\n"
                               ".end_kernel\n";
    wa_program *prog = (wa_program *)&prog;
    CHECK_STATUS(wa_program_parse(&prog, ctx, text, strlen(text), "bad.wa"), WA_E_PARSE);
    CHECK(prog == NULL);
    REQUIRE(wa_context_diag_count(ctx) >= 1);
    const wa_diag *d = wa_context_last_diag(ctx);
    REQUIRE(d != NULL);
    CHECK_EQ_INT(d->severity, WA_SEVERITY_ERROR);
    CHECK_EQ_INT(d->status, WA_E_PARSE);
    CHECK_STR_EQ(d->file, "bad.wa");
    CHECK_EQ_UINT(d->line, 3);
    CHECK_EQ_UINT(d->col, 3);
    CHECK_EQ_UINT(d->tag, WA_NO_TAG);
    CHECK_STR_CONTAINS(d->message, "unknown mnemonic");
    CHECK_STR_CONTAINS(d->message, "v_frobnicate_b32");

    /* The last diagnostic is also reachable by index. */
    unsigned n = wa_context_diag_count(ctx);
    CHECK(wa_context_diag(ctx, n - 1) == d);
    CHECK(wa_context_diag(ctx, n) == NULL);
    CHECK(wa_context_diag(ctx, 0xFFFFFFFFu) == NULL);

    char want[512];
    snprintf(want, sizeof(want), "bad.wa:3:3: error: %s", d->message);
    CHECK_STR_EQ(wa_context_last_error(ctx), want);
    /* Asking twice gives the same text. */
    CHECK_STR_EQ(wa_context_last_error(ctx), want);

    /* Without a file name the location starts at the line. */
    CHECK_STATUS(wa_program_parse(&prog, ctx, text, strlen(text), NULL), WA_E_PARSE);
    d = wa_context_last_diag(ctx);
    REQUIRE(d != NULL);
    CHECK_STR_EQ(d->file, "");
    snprintf(want, sizeof(want), "3:3: error: %s", d->message);
    CHECK_STR_EQ(wa_context_last_error(ctx), want);

    wa_context_clear_diags(ctx);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 0);
    CHECK(wa_context_last_diag(ctx) == NULL);
    CHECK(wa_context_diag(ctx, 0) == NULL);
    CHECK_STR_EQ(wa_context_last_error(ctx), "");
    wa_context_clear_diags(NULL);
    CHECK_EQ_UINT(wa_context_diag_count(NULL), 0);
    CHECK(wa_context_last_diag(NULL) == NULL);
    CHECK(wa_context_diag(NULL, 0) == NULL);
    CHECK_STR_EQ(wa_context_last_error(NULL), "");
    wa_context_destroy(ctx);
}

/* Validation errors: several diagnostics, each with the instruction tag; the
   formatted message ends in "[I<tag>]". */
static void diag_validate_errors(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char text[] = ".kernel k\n"
                               "  .target gfx942\n"
                               "  v_add_u32 v0, a1, v1       ; @I5\n"
                               "  s_nop 99                   ; @I9\n"
                               "  s_endpgm                   ; @I2\n"
                               ".end_kernel\n";
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_parse(&prog, ctx, text, strlen(text), "v.wa"));
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 0);
    unsigned nerr = 0;
    CHECK_STATUS(wa_program_validate(&nerr, prog, NULL), WA_E_VALIDATE);
    CHECK_EQ_UINT(nerr, 2);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 2);
    const wa_diag *d0 = wa_context_diag(ctx, 0), *d1 = wa_context_diag(ctx, 1);
    REQUIRE(d0 && d1);
    CHECK_EQ_UINT(d0->tag, 5);
    CHECK_EQ_UINT(d0->line, 3);
    CHECK_EQ_UINT(d0->col, 3);
    CHECK_STR_EQ(d0->file, "v.wa");
    CHECK_EQ_INT(d0->status, WA_E_VALIDATE);
    CHECK_STR_CONTAINS(d0->message, "AGPR");
    CHECK_EQ_UINT(d1->tag, 9);
    CHECK_EQ_UINT(d1->line, 4);
    CHECK_STR_CONTAINS(d1->message, "99");
    CHECK(wa_context_last_diag(ctx) == d1);
    char want[512];
    snprintf(want, sizeof(want), "v.wa:4:3: error: %s [I9]", d1->message);
    CHECK_STR_EQ(wa_context_last_error(ctx), want);

    /* The next call on the context starts with a clean list. */
    char *text_out = ut_print(prog);
    CHECK_EQ_UINT(wa_context_diag_count(ctx), 0);
    CHECK(wa_context_last_diag(ctx) == NULL);
    wa_free(text_out);
    wa_program_destroy(prog);

    /* A built program has no file and no line: only the tag locates the error. */
    REQUIRE_OK(wa_program_create(&prog, ctx, "built"));
    wa_tag tag;
    REQUIRE_OK(wa_build_sopp(&tag, prog, WA_OP_S_NOP, 77));
    CHECK_EQ_UINT(tag, 0);
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
    const wa_diag *d = wa_context_last_diag(ctx);
    REQUIRE(d != NULL);
    CHECK_EQ_UINT(d->line, 0);
    CHECK_EQ_UINT(d->tag, 0);
    snprintf(want, sizeof(want), "error: %s [I0]", d->message);
    CHECK_STR_EQ(wa_context_last_error(ctx), want);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Every failing call that has a context leaves a diagnostic ("never NULL after
   a call on the context has failed"), even for bad indices and versions. */
static void every_failure_has_diag(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    wa_mods bad_mods = WA_MODS_INIT;
    bad_mods.version = 77;
    wa_instr_view view;
    unsigned idx;
    wa_kernel_arg arg;
    wa_reg_class cls;

#define EXPECT_FAILURE_WITH_DIAG(call, st)                                          \
    do {                                                                            \
        wa_context_clear_diags(ctx);                                                \
        CHECK_STATUS(call, st);                                                     \
        CHECK_MSG(wa_context_last_diag(ctx) != NULL, "%s failed without a diagnostic", #call); \
    } while (0)

    EXPECT_FAILURE_WITH_DIAG(wa_program_set_name(prog, "1bad"), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_set_target(prog, WA_TARGET_UNKNOWN), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_set_abi_inputs(prog, 1u << 20), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_set_comment(prog, 42, "x"), WA_E_NOT_FOUND);
    EXPECT_FAILURE_WITH_DIAG(wa_build_sopp(NULL, prog, WA_OP_V_MOV_B32, 0), WA_E_INVALID);
    /* These return an error status but record nothing. */
    EXPECT_FAILURE_WITH_DIAG(wa_program_erase(prog, 99), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_move(prog, 0, 99), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_set_insert_point(prog, 99), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_set_mods(prog, 0, &bad_mods), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_get(&view, prog, 99), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_find_tag(&idx, prog, 99), WA_E_NOT_FOUND);
    EXPECT_FAILURE_WITH_DIAG(wa_program_arg(&arg, prog, 0), WA_E_INVALID);
    EXPECT_FAILURE_WITH_DIAG(wa_program_vreg_info(&cls, NULL, NULL, prog, 5), WA_E_INVALID);
#undef EXPECT_FAILURE_WITH_DIAG
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void free_null(void)
{
    wa_free(NULL);
    CHECK(1);
}

/* Buffers handed out by one context stay valid after it is destroyed. */
static void buffer_outlives_context(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX90A);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    char *text = ut_print(prog);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    REQUIRE(text != NULL);
    CHECK_STR_CONTAINS(text, ".kernel k\n");
    CHECK_STR_CONTAINS(text, ".target gfx90a\n");
    wa_free(text);
}

/* Debug switches write only to a log hook: without one the library prints
   nothing (stderr is redirected to a file that must stay empty). */
static void logs_without_hook_are_dropped(void)
{
    static const char *const env[] = { "WAVE_DEBUG_LIVENESS", "WAVE_DEBUG_REGALLOC",
                                       "WAVE_KERNEL_ALLOC_DEBUG", NULL };
    static const char *const text = ".kernel k\n"
                                    "  v_mov_b32 %v1, 1\n"
                                    "  v_readfirstlane_b32 %s2, %v1\n"
                                    "  s_endpgm\n"
                                    ".end_kernel\n";
    for (int hook = 0; hook <= 1; hook++) {
        ut_log_lines lines;
        memset(&lines, 0, sizeof(lines));
        wa_context *ctx = NULL;
        if (hook) {
            ctx = ut_context_logging(WA_TARGET_GFX942, &lines, env);
        } else {
            for (unsigned i = 0; env[i]; i++)
                setenv(env[i], "1", 1);
            ctx = ut_context_new(WA_TARGET_GFX942);
            for (unsigned i = 0; env[i]; i++)
                unsetenv(env[i]);
        }
        FILE *tmp = tmpfile();
        REQUIRE(tmp != NULL);
        fflush(stderr);
        int saved = dup(fileno(stderr));
        REQUIRE(saved >= 0);
        REQUIRE(dup2(fileno(tmp), fileno(stderr)) >= 0);
        wa_program *prog = NULL;
        wa_status st = wa_program_parse(&prog, ctx, text, strlen(text), "k.wa");
        if (st == WA_OK)
            st = wa_compile(prog, NULL);
        fflush(stderr);
        dup2(saved, fileno(stderr));
        close(saved);
        CHECK_OK(st);
        fseek(tmp, 0, SEEK_END);
        long written = ftell(tmp);
        fclose(tmp);
        CHECK_EQ_INT(written, 0);
        if (hook) {
            CHECK(lines.n > 0);
            CHECK_STR_CONTAINS(lines.text, "[REGALLOC]");
        }
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
    }
}

UT_SUITE(
    UT_CASE(create_defaults)
    UT_CASE(logs_without_hook_are_dropped)
    UT_CASE(create_invalid)
    UT_CASE(status_strings)
    UT_CASE(target_names)
    UT_CASE(version_info)
    UT_CASE(diag_parse_error)
    UT_CASE(diag_validate_errors)
    UT_CASE(every_failure_has_diag)
    UT_CASE(free_null)
    UT_CASE(buffer_outlives_context)
);
