/* tests/unit/test_errors.c — one case per class of bad input in docs/bad-input.md:
   each must come back as the documented status with a diagnostic that says what
   and where, never as a crash or a silently wrong result. With
   WAVEASM_ERRORS_TABLE=1 in the environment the test also prints the rows of the
   table in that document from what the library says. */
#include "check.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int print_table = -1;

/* The enumerator's name, for the table. */
static const char *status_name(wa_status st)
{
    static const char *const names[] = { "WA_OK", "WA_E_INVALID", "WA_E_PARSE", "WA_E_VALIDATE",
                                         "WA_E_UNSUPPORTED", "WA_E_NOMEM", "WA_E_NOT_FOUND",
                                         "WA_E_RANGE", "WA_E_IO", "WA_E_ALLOC", "WA_E_INTERNAL",
                                         "WA_E_SIM_FAULT", "WA_E_SIM_WAIT", "WA_E_SIM_HAZARD",
                                         "WA_E_SIM_LIMIT" };
    unsigned i = (unsigned)-(int)st;
    return i < sizeof(names) / sizeof(names[0]) ? names[i] : "?";
}

/* Checks the outcome of one class: the status, and that the last error's
   message contains `words` (alternatives separated by '|' are all required, as
   CHECK_DIAG does) with a line when `located` says the class has one. */
static void expect_class(wa_context *ctx, const char *cls, wa_status got, wa_status want,
                         const char *words, int located)
{
    if (print_table < 0)
        print_table = getenv("WAVEASM_ERRORS_TABLE") != NULL;
    ut_context("%s", cls);
    CHECK_STATUS(got, want);
    const wa_diag *d = ctx ? wa_context_last_diag(ctx) : NULL;
    if (ctx) {
        CHECK_DIAG(ctx, want, words, UT_ANY, UT_ANY, UT_ANY);
        if (located && d)
            CHECK_MSG(d->line > 0, "%s: the diagnostic has no line", cls);
    }
    if (print_table)
        printf("| %s | `%s` (%s) | %s |\n", cls, status_name(want), wa_status_string(want),
               d ? wa_context_last_error(ctx) : "(no context: the status only)");
    ut_context("%s", "");
}

static wa_status parse_text(wa_program **out, wa_context *ctx, const char *text)
{
    *out = NULL;
    return wa_program_parse(out, ctx, text, strlen(text), "k.wa");
}

/* Parses (must succeed) and validates. */
static wa_status validate_text(wa_context *ctx, const char *text)
{
    wa_program *prog = NULL;
    wa_status st = parse_text(&prog, ctx, text);
    if (st == WA_OK)
        st = wa_program_validate(NULL, prog, NULL);
    wa_program_destroy(prog);
    return st;
}

static void text_input(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *p = NULL;
    expect_class(ctx, "malformed text", parse_text(&p, ctx, ".kernel k\n  v_add_u32 v0 v1, v2\n.end_kernel\n"),
                 WA_E_PARSE, "expected ','", 1);
    expect_class(ctx, "unknown mnemonic", parse_text(&p, ctx, ".kernel k\n  v_frob v0\n.end_kernel\n"),
                 WA_E_PARSE, "unknown mnemonic 'v_frob'", 1);
    expect_class(ctx, "number out of range",
                 parse_text(&p, ctx, ".kernel k\n  s_nop 99999999999999999999\n.end_kernel\n"),
                 WA_E_RANGE, "number out of range", 1);
    expect_class(ctx, "truncated kernel", parse_text(&p, ctx, ".kernel k\n  s_endpgm\n"), WA_E_PARSE,
                 ".end_kernel", 1);
    static const char nul[] = ".kernel k\n  s_endpgm\0\n.end_kernel\n";
    expect_class(ctx, "binary bytes", wa_program_parse(&p, ctx, nul, sizeof(nul) - 1, "k.wa"),
                 WA_E_PARSE, "", 1);
    expect_class(ctx, "missing file", wa_program_parse_file(&p, ctx, "/nonexistent/k.wa"), WA_E_IO,
                 "nonexistent", 0);
    wa_program_destroy(p);
    wa_context_destroy(ctx);
}

static void program_rules(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    expect_class(ctx, "undefined label",
                 validate_text(ctx, ".kernel k\n  s_branch nowhere\n  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "undefined label 'nowhere'", 1);
    expect_class(ctx, "instruction not on the target",
                 validate_text(ctx, ".kernel k\n  .target gfx90a\n"
                                    "  v_mfma_f32_16x16x32_f16 v[0:3], v[0:3], v[4:7], 0\n"
                                    "  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "not available on gfx90a", 1);
    expect_class(ctx, "operand of the wrong class",
                 validate_text(ctx, ".kernel k\n  v_mov_b32 s0, v1\n  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "vdst|expected VGPR", 1);
    expect_class(ctx, "operand of the wrong size",
                 validate_text(ctx, ".kernel k\n  global_load_dwordx2 v[0:2], v[4:5], off\n"
                                    "  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "vdst|expected 2 registers", 1);
    expect_class(ctx, "misaligned register tuple",
                 validate_text(ctx, ".kernel k\n  s_load_dwordx4 s[2:5], s[0:1], 0\n"
                                    "  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "s[2:5]", 1);
    expect_class(ctx, "modifier the instruction does not take",
                 validate_text(ctx, ".kernel k\n  v_mov_b32 v0, v1 offset:4\n  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "v_mov_b32|offset", 1);
    expect_class(ctx, "literal or constant-bus limit",
                 validate_text(ctx, ".kernel k\n  v_fma_f32 v1, v0, v0, 0x12345\n"
                                    "  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "v_fma_f32|literal", 1);
    expect_class(ctx, "MFMA operand overlap",
                 validate_text(ctx, ".kernel k\n  v_mfma_f32_32x32x8_f16 a[0:15], a[0:1], a[16:17], 0\n"
                                    "  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "vdst must not overlap srcA", 1);
    expect_class(ctx, "register read but never written",
                 validate_text(ctx, ".kernel k\n  v_add_u32 %v1, %v2, v0\n"
                                    "  global_store_dword v0, %v1, s[0:1]\n  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "%v2|never defined", 1);
    expect_class(ctx, "kernel attribute out of range",
                 validate_text(ctx, ".kernel k\n  .workgroup_size 2048, 1, 1\n  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "workgroup size", 1);
    expect_class(ctx, "kernel argument layout",
                 validate_text(ctx, ".kernel k\n  .arg a, by_value, offset:0, size:8\n"
                                    "  .arg b, by_value, offset:4, size:4\n  s_endpgm\n.end_kernel\n"),
                 WA_E_VALIDATE, "overlaps argument 0", 1);
    expect_class(ctx, "label name the assembler reads as a register",
                 validate_text(ctx, ".kernel k\nttmp3:\n  s_endpgm\n.end_kernel\n"), WA_E_INVALID,
                 "ttmp3|not a valid label", 1);
    wa_context_destroy(ctx);
}

static void api_misuse(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.version = 99;
    expect_class(ctx, "option struct of an unknown version", wa_compile(prog, &po), WA_E_INVALID,
                 "wa_pipeline_options|version 99", 0);
    po.version = WA_PIPELINE_OPTIONS_VERSION;
    po.flags = 0x100;
    expect_class(ctx, "unknown option flags", wa_compile(prog, &po), WA_E_INVALID, "unknown flags", 0);
    wa_operand imm = wa_opnd_imm(3);
    expect_class(ctx, "builder: operand count or kind",
                 wa_build(NULL, prog, WA_OP_V_MOV_B32, &imm, 1, NULL), WA_E_INVALID,
                 "v_mov_b32 takes 2 operands", 0);
    expect_class(ctx, "builder: a branch target that is not a label",
                 wa_build(NULL, prog, WA_OP_S_BRANCH, &imm, 1, NULL), WA_E_INVALID,
                 "must be a label", 0);
    wa_operand ghost = wa_opnd_phys(WA_REG_VGPR, 0, 1);
    ghost.kind = WA_OPND_VIRT;
    ghost.id = 42;
    wa_operand two[2] = { ghost, imm };
    expect_class(ctx, "builder: unknown virtual register",
                 wa_build(NULL, prog, WA_OP_V_MOV_B32, two, 2, NULL), WA_E_INVALID,
                 "unknown virtual register 42", 0);
    expect_class(NULL, "a NULL handle", wa_compile(NULL, NULL), WA_E_INVALID, "", 0);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void compile_failures(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    /* five loaded values live at once (and v0) with four VGPRs to put them in */
    REQUIRE_OK(parse_text(&prog, ctx,
                          ".kernel k\n"
                          "  global_load_dword %v1, v0, s[0:1]\n"
                          "  global_load_dword %v2, v0, s[0:1] offset:4\n"
                          "  global_load_dword %v3, v0, s[0:1] offset:8\n"
                          "  global_load_dword %v4, v0, s[0:1] offset:12\n"
                          "  global_load_dword %v5, v0, s[0:1] offset:16\n"
                          "  v_add3_u32 %v6, %v1, %v2, %v3\n  v_add3_u32 %v7, %v6, %v4, %v5\n"
                          "  global_store_dword v0, %v7, s[0:1]\n  s_endpgm\n.end_kernel\n"));
    wa_regalloc_options ro = WA_REGALLOC_OPTIONS_INIT;
    ro.max_vgprs = 4;
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.regalloc = &ro;
    expect_class(ctx, "allocation impossible within the limits", wa_compile(prog, &po), WA_E_ALLOC,
                 "VGPR", 0);
    wa_program_destroy(prog);
    REQUIRE_OK(parse_text(&prog, ctx,
                          ".kernel k\n  v_fma_f32 v1, v0, v0, 0x12345\n  s_endpgm\n.end_kernel\n"));
    expect_class(ctx, "compiling a program the validator rejects", wa_compile(prog, NULL),
                 WA_E_VALIDATE, "v_fma_f32", 1);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Simulates `text` (one global buffer argument of 256 bytes). */
static wa_status simulate(wa_context *ctx, const char *text, unsigned flags, uint64_t limit)
{
    wa_program *prog = NULL;
    wa_status st = parse_text(&prog, ctx, text);
    if (st)
        return st;
    wa_sim_options so = WA_SIM_OPTIONS_INIT;
    so.flags |= flags;
    so.max_instructions = limit;
    wa_sim *sim = NULL;
    st = wa_sim_create(&sim, prog, &so);
    static unsigned char buf[256];
    if (st == WA_OK && wa_program_arg_count(prog) > 0)
        st = wa_sim_bind_buffer(sim, 0, buf, sizeof(buf));
    if (st == WA_OK)
        st = wa_sim_run(sim);
    wa_sim_destroy(sim);
    wa_program_destroy(prog);
    return st;
}

static void simulation(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char head[] = ".kernel k\n  .arg out, global_buffer, offset:0, size:8\n"
                               "  s_load_dwordx2 s[2:3], s[0:1], 0\n  s_waitcnt lgkmcnt(0)\n";
    char text[1024];
    snprintf(text, sizeof(text), "%s  v_mov_b32 v1, 0x1000\n  global_store_dword v1, v0, s[2:3]\n"
                                 "  s_endpgm\n.end_kernel\n", head);
    expect_class(ctx, "simulated access outside its buffer", simulate(ctx, text, 0, 0),
                 WA_E_SIM_FAULT, "global_store_dword", 1);
    snprintf(text, sizeof(text), "%s  v_lshlrev_b32 v1, 2, v0\n  global_load_dword v2, v1, s[2:3]\n"
                                 "  global_store_dword v1, v2, s[2:3]\n  s_endpgm\n.end_kernel\n", head);
    expect_class(ctx, "simulated read of a load in flight (missing s_waitcnt)",
                 simulate(ctx, text, 0, 0), WA_E_SIM_WAIT, "v2", 1);
    expect_class(ctx, "simulated endless loop", simulate(ctx, ".kernel k\nL:\n  s_branch L\n.end_kernel\n", 0, 1000),
                 WA_E_SIM_LIMIT, "1000", 1);
    expect_class(ctx, "simulated hazard (too few wait states)",
                 simulate(ctx, ".kernel k\n  v_mov_b32 v1, 0\n  v_mov_b32 v2, 0\n  v_mov_b32 v3, 0\n"
                               "  v_mfma_f32_32x32x8_f16 v[4:19], v[0:1], v[2:3], 0\n"
                               "  v_add_u32 v20, v4, v4\n  s_endpgm\n.end_kernel\n",
                          WA_SIM_HAZARDS, 0),
                 WA_E_SIM_HAZARD, "hazard|wait states|needs", 1);
    wa_context_destroy(ctx);
}

/* An allocator that fails after a number of allocations. */
typedef struct failing {
    unsigned left;
} failing;

static void *failing_realloc(void *ptr, size_t size, void *user)
{
    failing *f = user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    if (f->left == 0)
        return NULL;
    f->left--;
    return realloc(ptr, size);
}

static void out_of_memory(void)
{
    /* the first failing allocation after the context exists, at every step of a
       parse, until the parse needs no more */
    int seen = 0;
    for (unsigned budget = 1; budget < 400 && !seen; budget++) {
        failing f = { 1000 };
        wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
        o.realloc_fn = failing_realloc;
        o.alloc_user = &f;
        wa_context *ctx = NULL;
        REQUIRE_OK(wa_context_create(&ctx, &o));
        f.left = budget;
        wa_program *prog = NULL;
        static const char text[] = ".kernel k\n  v_mov_b32 v1, v0\n  s_endpgm\n.end_kernel\n";
        wa_status st = wa_program_parse(&prog, ctx, text, strlen(text), "k.wa");
        if (st == WA_E_NOMEM) {
            expect_class(ctx, "the host's allocator fails", st, WA_E_NOMEM, "out of memory", 0);
            seen = 1;
        } else {
            CHECK_OK(st);
        }
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
    }
    CHECK(seen);
}

static void unsupported(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* an opcode the simulator does not execute, if any remains */
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const char *why = wa_sim_unsupported(op);
        const wa_isa_info *info = wa_isa_get(op);
        if (!why || (info->flags & WA_IF_PSEUDO))
            continue;
        printf("     first opcode the simulator does not execute: %s (%s)\n", info->mnemonic, why);
        break;
    }
    wa_sim_options so = WA_SIM_OPTIONS_INIT;
    so.version = 99;
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    wa_sim *sim = NULL;
    expect_class(ctx, "simulator options of an unknown version", wa_sim_create(&sim, prog, &so),
                 WA_E_INVALID, "version", 0);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* The virtualize pass and code objects: bad arguments and options are errors
   with a message, a program the encoder cannot take a located one. */
static void objects_and_virtualize(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(parse_text(&prog, ctx, ".kernel k\n  .target gfx942\n  v_mov_b32 %v1, 0\n"
                                      "  global_store_dword v0, %v1, s[0:1]\n  s_endpgm\n"
                                      ".end_kernel\n"));
    CHECK_STATUS(wa_pass_virtualize(NULL, NULL, NULL), WA_E_INVALID);
    wa_virtualize_options vo = WA_VIRTUALIZE_OPTIONS_INIT;
    vo.version = 99;
    CHECK_STATUS(wa_pass_virtualize(prog, &vo, NULL), WA_E_INVALID);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "wa_virtualize_options");

    unsigned char *obj = NULL;
    size_t len = 0;
    const wa_program *one = prog;
    CHECK_STATUS(wa_emit_object(&obj, &len, NULL, 1, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_emit_object(&obj, &len, &one, 0, NULL), WA_E_INVALID);
    wa_object_options oo = WA_OBJECT_OPTIONS_INIT;
    oo.version = 99;
    CHECK_STATUS(wa_emit_object(&obj, &len, &one, 1, &oo), WA_E_INVALID);
    CHECK_STR_CONTAINS(wa_context_last_error(ctx), "wa_object_options");
    /* virtual registers: a located error, nothing written */
    CHECK_STATUS(wa_emit_object(&obj, &len, &one, 1, NULL), WA_E_VALIDATE);
    CHECK(obj == NULL && len == 0);
    const wa_diag *d = wa_context_last_diag(ctx);
    CHECK(d && d->line > 0);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(text_input) UT_CASE(program_rules) UT_CASE(api_misuse) UT_CASE(compile_failures)
             UT_CASE(simulation) UT_CASE(out_of_memory) UT_CASE(unsupported)
             UT_CASE(objects_and_virtualize));
