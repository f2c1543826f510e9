/* tests/mlir/test_mlir_api.c — the front end's API: translation from text and
   from an operation the host holds, the options (kernel filter, workgroup
   size, target, wave size), results (order, take, destroy), diagnostics on
   the context with their locations, and argument checks. */
#include <mlir-c/Dialect/Arith.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Dialect/Math.h>
#include <mlir-c/Dialect/MemRef.h>
#include <mlir-c/IR.h>

#include "check.h"
#include "mlir_harness.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char two_kernels[] =
    "gpu.module @m {\n"
    "  gpu.func @first(%a: memref<64xf32>) kernel {\n"
    "    %t = gpu.thread_id x\n"
    "    %v = memref.load %a[%t] : memref<64xf32>\n"
    "    %w = arith.addf %v, %v : f32\n"
    "    memref.store %w, %a[%t] : memref<64xf32>\n"
    "    gpu.return\n"
    "  }\n"
    "  gpu.func @helper_not_kernel(%a: memref<64xf32>) {\n"
    "    gpu.return\n"
    "  }\n"
    "  gpu.func @second(%a: memref<64xi32>) kernel\n"
    "      attributes {gpu.known_block_size = array<i32: 128, 2, 1>} {\n"
    "    gpu.return\n"
    "  }\n"
    "}\n";

static void kernels_in_order(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_mlir_result *res = NULL;
    REQUIRE_OK(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), "two.mlir", NULL));
    REQUIRE(wa_mlir_result_count(res) == 2);
    CHECK_STR_EQ(wa_program_name(wa_mlir_result_program(res, 0)), "first");
    CHECK_STR_EQ(wa_program_name(wa_mlir_result_program(res, 1)), "second");
    CHECK(wa_mlir_result_program(res, 2) == NULL);
    unsigned wg[3];
    wa_program_workgroup_size(wa_mlir_result_program(res, 0), wg);
    CHECK_EQ_UINT(wg[0], 64); /* the default */
    wa_program_workgroup_size(wa_mlir_result_program(res, 1), wg);
    CHECK_EQ_UINT(wg[0], 128);
    CHECK_EQ_UINT(wg[1], 2);
    CHECK_EQ_UINT(wa_program_target(wa_mlir_result_program(res, 0)), WA_TARGET_GFX942);
    /* a taken program outlives the result */
    wa_program *p = wa_mlir_result_take(res, 0);
    CHECK(p != NULL);
    CHECK(wa_mlir_result_program(res, 0) == NULL);
    CHECK(wa_mlir_result_take(res, 0) == NULL);
    wa_mlir_result_destroy(res);
    CHECK_OK(wa_program_validate(NULL, p, NULL));
    wa_program_destroy(p);
    wa_mlir_result_destroy(NULL);
    CHECK_EQ_UINT(wa_mlir_result_count(NULL), 0);
    wa_context_destroy(ctx);
}

static void options(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_mlir_result *res = NULL;
    wa_mlir_options o = WA_MLIR_OPTIONS_INIT;
    o.kernel_name = "second";
    o.target = WA_TARGET_GFX950;
    REQUIRE_OK(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), NULL, &o));
    REQUIRE(wa_mlir_result_count(res) == 1);
    wa_program *p = wa_mlir_result_program(res, 0);
    CHECK_STR_EQ(wa_program_name(p), "second");
    CHECK_EQ_UINT(wa_program_target(p), WA_TARGET_GFX950);
    wa_mlir_result_destroy(res);

    /* the workgroup size is a fallback, or replaces the MLIR's when forced */
    wa_mlir_options w = WA_MLIR_OPTIONS_INIT;
    w.workgroup_size[0] = 32;
    w.workgroup_size[1] = 4;
    REQUIRE_OK(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), NULL, &w));
    unsigned wg[3];
    wa_program_workgroup_size(wa_mlir_result_program(res, 0), wg);
    CHECK(wg[0] == 32 && wg[1] == 4 && wg[2] == 1);
    wa_program_workgroup_size(wa_mlir_result_program(res, 1), wg);
    CHECK(wg[0] == 128 && wg[1] == 2 && wg[2] == 1);
    wa_mlir_result_destroy(res);
    w.flags |= WA_MLIR_FORCE_WORKGROUP_SIZE;
    REQUIRE_OK(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), NULL, &w));
    wa_program_workgroup_size(wa_mlir_result_program(res, 1), wg);
    CHECK(wg[0] == 32 && wg[1] == 4 && wg[2] == 1);
    wa_mlir_result_destroy(res);

    /* no such kernel; a wave size the targets lack; a bad version */
    o.kernel_name = "third";
    CHECK_STATUS(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), "two.mlir", &o),
                 WA_E_NOT_FOUND);
    CHECK(res == NULL);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "no kernel named 'third'");
    wa_mlir_options ws = WA_MLIR_OPTIONS_INIT;
    ws.wave_size = 32;
    CHECK_STATUS(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), NULL, &ws),
                 WA_E_UNSUPPORTED);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "wave size");
    wa_mlir_options bv = WA_MLIR_OPTIONS_INIT;
    bv.version = 99;
    CHECK_STATUS(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), NULL, &bv),
                 WA_E_INVALID);
    wa_mlir_options big = WA_MLIR_OPTIONS_INIT;
    big.workgroup_size[0] = 2048;
    big.flags = WA_MLIR_FORCE_WORKGROUP_SIZE;
    CHECK_STATUS(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), NULL, &big),
                 WA_E_RANGE);
    wa_context_destroy(ctx);
}

/* Errors are diagnostics with file:line:col; MLIR's own ones too. */
static void diagnostics(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_mlir_result *res = NULL;
    static const char bad_op[] = "gpu.module @m {\n"
                                 "  gpu.func @k(%a: f32) kernel {\n"
                                 "    %s = math.sin %a : f32\n"
                                 "    gpu.return\n"
                                 "  }\n"
                                 "}\n";
    CHECK_STATUS(wa_mlir_translate(&res, ctx, bad_op, strlen(bad_op), "bad.mlir", NULL),
                 WA_E_UNSUPPORTED);
    const wa_diag *d = wa_context_last_diag(ctx);
    REQUIRE(d != NULL);
    CHECK_STR_EQ(d->file, "bad.mlir");
    CHECK_EQ_UINT(d->line, 3);
    CHECK_EQ_UINT(d->col, 10);
    CHECK_EQ_INT(d->severity, WA_SEVERITY_ERROR);
    CHECK_STR_CONTAINS(d->message, "math.sin");

    static const char parse[] = "gpu.module @m {\n  gpu.func @k() kernel {\n    %x = \n";
    CHECK_STATUS(wa_mlir_translate(&res, ctx, parse, strlen(parse), "p.mlir", NULL), WA_E_PARSE);
    d = wa_context_diag(ctx, 0);
    REQUIRE(d != NULL);
    CHECK_STR_EQ(d->file, "p.mlir");
    CHECK(d->line >= 3);
    CHECK_EQ_INT(d->status, WA_E_PARSE);

    /* not NUL-terminated: only `len` bytes are read */
    char *copy = malloc(sizeof(two_kernels) + 8);
    memcpy(copy, two_kernels, strlen(two_kernels));
    memcpy(copy + strlen(two_kernels), "garbage!", 8);
    CHECK_OK(wa_mlir_translate(&res, ctx, copy, strlen(two_kernels), "x.mlir", NULL));
    wa_mlir_result_destroy(res);
    free(copy);

    /* argument checks */
    CHECK_STATUS(wa_mlir_translate(NULL, ctx, "", 0, NULL, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_mlir_translate(&res, NULL, "", 0, NULL, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_mlir_translate(&res, ctx, NULL, 5, NULL, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_mlir_translate_operation(&res, ctx, NULL, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_mlir_translate_file(&res, ctx, "/nonexistent/k.mlir", NULL), WA_E_IO);
    CHECK_STATUS(wa_mlir_translate_file(&res, ctx, NULL, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_mlir_translate(&res, ctx, "", 0, NULL, NULL), WA_E_NOT_FOUND);
    CHECK(res == NULL);
    CHECK_STR_CONTAINS(wa_mlir_version_string(), "MLIR 22");
    wa_context_destroy(ctx);
}

/* The host parses a module in its own MLIR context and hands it over; the
   result runs like the text translation's. Diagnostics MLIR emits during the
   call land on the wa_context, and the host's handler is not bypassed after. */
static void host_module(void)
{
    MlirContext mc = mlirContextCreate();
    MlirDialectHandle hs[] = { mlirGetDialectHandle__gpu__(), mlirGetDialectHandle__arith__(),
                               mlirGetDialectHandle__memref__(), mlirGetDialectHandle__math__() };
    for (unsigned i = 0; i < sizeof(hs) / sizeof(hs[0]); i++)
        mlirDialectHandleLoadDialect(hs[i], mc);
    static const char text[] =
        "module {\n"
        "gpu.module @m {\n"
        "  gpu.func @scale(%a: memref<64xf32>) kernel {\n"
        "    %t = gpu.thread_id x\n"
        "    %v = memref.load %a[%t] : memref<64xf32>\n"
        "    %w = arith.addf %v, %v : f32\n"
        "    memref.store %w, %a[%t] : memref<64xf32>\n"
        "    gpu.return\n"
        "  }\n"
        "  gpu.func @bad(%a: f32) kernel {\n"
        "    %s = math.sin %a : f32\n"
        "    gpu.return\n"
        "  }\n"
        "}\n"
        "}\n";
    MlirModule mod = mlirModuleCreateParse(mc, mlirStringRefCreateFromCString(text));
    REQUIRE(!mlirModuleIsNull(mod));
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    if (!mlirModuleIsNull(mod)) {
        wa_mlir_result *res = NULL;
        /* the unsupported kernel: an error located in the host's module */
        CHECK_STATUS(wa_mlir_translate_module(&res, ctx, mod, NULL), WA_E_UNSUPPORTED);
        const wa_diag *d = wa_context_last_diag(ctx);
        CHECK(d && d->line == 11 && strstr(d->message, "math.sin"));
        wa_mlir_options o = WA_MLIR_OPTIONS_INIT;
        o.kernel_name = "scale";
        REQUIRE_OK(wa_mlir_translate_module(&res, ctx, mod, &o));
        REQUIRE(wa_mlir_result_count(res) == 1);
        mk k;
        mk_init(&k);
        k.prog = wa_mlir_result_take(res, 0);
        k.nargs = wa_program_arg_count(k.prog);
        if (mk_compile(&k) == 0) {
            float buf[64], want[64];
            for (unsigned i = 0; i < 64; i++) {
                buf[i] = mk_randf();
                want[i] = buf[i] + buf[i];
            }
            mk_buffer(&k, "arg0", buf, sizeof(buf));
            if (mk_run(&k, 1, 1, 1) == 0)
                mk_check_f32(buf, want, 64, 0, "a");
        }
        wa_mlir_result_destroy(res);
        mk_free(&k);
        /* the module is unchanged and still usable by its owner */
        CHECK(mlirOperationVerify(mlirModuleGetOperation(mod)));
        mlirModuleDestroy(mod);
    }
    wa_context_destroy(ctx);
    mlirContextDestroy(mc);
}

/* Distinct contexts translate concurrently, with the same results. */
typedef struct thread_job {
    char *text; /* the printed program */
    int ok;
} thread_job;

static void *translate_job(void *arg)
{
    thread_job *job = arg;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK)
        return NULL;
    for (unsigned r = 0; r < 8; r++) {
        wa_mlir_result *res = NULL;
        if (wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), "t.mlir", NULL) != WA_OK)
            break;
        char *text = NULL;
        size_t len = 0;
        wa_print_options po = WA_PRINT_OPTIONS_INIT;
        if (wa_program_print(&text, &len, wa_mlir_result_program(res, 0), &po) == WA_OK) {
            if (!job->text) {
                job->text = malloc(len + 1);
                memcpy(job->text, text, len);
                job->text[len] = '\0';
                job->ok = 1;
            } else if (strlen(job->text) != len || memcmp(job->text, text, len) != 0) {
                job->ok = 0;
            }
        }
        wa_free(text);
        wa_mlir_result_destroy(res);
    }
    wa_context_destroy(ctx);
    return NULL;
}

static void threads(void)
{
    pthread_t th[4];
    thread_job jobs[4];
    memset(jobs, 0, sizeof(jobs));
    for (unsigned i = 0; i < 4; i++)
        REQUIRE(pthread_create(&th[i], NULL, translate_job, &jobs[i]) == 0);
    for (unsigned i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (unsigned i = 0; i < 4; i++) {
        CHECK(jobs[i].ok);
        if (!CHECK(jobs[i].text && jobs[0].text && strcmp(jobs[i].text, jobs[0].text) == 0) && jobs[i].text)
            fprintf(stderr, "thread 0:\n%s\nthread %u:\n%s\n", jobs[0].text, i, jobs[i].text);
    }
    for (unsigned i = 0; i < 4; i++)
        free(jobs[i].text);
}

/* One thread translating many times reuses its MLIR context (and makes a new
   one now and then): every translation gives the same program, and an error in
   one (a parse error, an unsupported operation) leaves nothing behind for the
   next. */
static void many_translations(void)
{
    static const char bad_parse[] = "gpu.module @m {\n  gpu.func @k( kernel {\n";
    static const char bad_op[] =
        "gpu.module @m {\n  gpu.func @k(%a: memref<4xf32>) kernel {\n"
        "    %t = gpu.thread_id x\n    %v = memref.load %a[%t] : memref<4xf32>\n"
        "    %s = math.sin %v : f32\n    gpu.return\n  }\n}\n";
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    char *first = NULL;
    for (unsigned i = 0; i < 600; i++) {
        wa_mlir_result *res = NULL;
        if (i % 50 == 7) {
            CHECK_STATUS(wa_mlir_translate(&res, ctx, bad_parse, strlen(bad_parse), "bad.mlir", NULL),
                         WA_E_PARSE);
            CHECK(res == NULL);
            continue;
        }
        if (i % 50 == 8) {
            CHECK_STATUS(wa_mlir_translate(&res, ctx, bad_op, strlen(bad_op), "op.mlir", NULL),
                         WA_E_UNSUPPORTED);
            CHECK_STR_CONTAINS(wa_context_last_error(ctx), "op.mlir:5:");
            continue;
        }
        if (!CHECK_OK(wa_mlir_translate(&res, ctx, two_kernels, strlen(two_kernels), "two.mlir",
                                        NULL)))
            break;
        char *text = NULL;
        size_t len = 0;
        CHECK_OK(wa_program_print(&text, &len, wa_mlir_result_program(res, 0), NULL));
        if (!first)
            first = text;
        else {
            CHECK_STR_EQ(text, first);
            wa_free(text);
        }
        wa_mlir_result_destroy(res);
    }
    wa_free(first);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(kernels_in_order) UT_CASE(options) UT_CASE(diagnostics) UT_CASE(host_module)
         UT_CASE(threads) UT_CASE(many_translations));
