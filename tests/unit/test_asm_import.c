/* tests/unit/test_asm_import.c — wa_program_parse_asm: AMDGPU assembly as LLVM
   writes it to kernel IR. Every example, compiled and emitted by the library,
   imports back to the same kernel; LLVM-shaped input (llc's layout, YAML
   metadata in block form, hidden arguments, ABI inputs) gives the attributes it
   states; what the IR cannot take is a located error. */
#include "check.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The program as text without tags or comments (tags and comment items differ
   between an emitted and an imported kernel). */
static char *bare(const wa_program *prog)
{
    wa_print_options po = WA_PRINT_OPTIONS_INIT;
    po.flags = 0;
    char *t = NULL;
    size_t n;
    if (wa_program_print(&t, &n, prog, &po) != WA_OK)
        return NULL;
    return t;
}

static void examples_round_trip(void)
{
    char **files;
    unsigned n = ut_list_examples(&files);
    REQUIRE(n >= 3);
    static const wa_target targets[] = { WA_TARGET_GFX90A, WA_TARGET_GFX942, WA_TARGET_GFX950 };
    for (unsigned f = 0; f < n; f++) {
        for (unsigned t = 0; t < 3; t++) {
            ut_context("%s on %s", files[f], wa_target_name(targets[t]));
            wa_context *ctx = ut_context_new(targets[t]);
            wa_program *prog = NULL;
            if (!CHECK_OK(wa_program_parse_file(&prog, ctx, files[f]))) {
                wa_context_destroy(ctx);
                continue;
            }
            if (wa_program_set_target(prog, targets[t]) != WA_OK || wa_compile(prog, NULL) != WA_OK) {
                /* an example for one target only */
                wa_program_destroy(prog);
                wa_context_destroy(ctx);
                continue;
            }
            char *s = NULL;
            size_t len = 0;
            REQUIRE_OK(wa_emit_asm(&s, &len, prog, NULL));
            wa_program *back = NULL;
            if (CHECK_OK(wa_program_parse_asm(&back, ctx, s, len, "emitted.s", 0))) {
                char *a = bare(prog), *b = bare(back);
                CHECK(a && b);
                if (a && b)
                    CHECK_STR_EQ(b, a);
                wa_free(a);
                wa_free(b);
                CHECK_OK(wa_program_validate(NULL, back, NULL));
            }
            /* one kernel only */
            wa_program *none = NULL;
            CHECK_STATUS(wa_program_parse_asm(&none, ctx, s, len, "emitted.s", 1), WA_E_NOT_FOUND);
            CHECK(none == NULL);
            wa_free(s);
            wa_program_destroy(back);
            wa_program_destroy(prog);
            wa_context_destroy(ctx);
        }
    }
    ut_context("%s", "");
    ut_free_list(files, n);
}

/* The layout llc-22 writes: directives around the code, an `.Lfunc_end` label,
   comments, conservative ABI inputs, block-form YAML with hidden arguments. */
static const char llc_like[] =
    "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-\"\n"   /* 1 */
    "\t.amdhsa_code_object_version 6\n"
    "\t.text\n"
    "\t.globl\tscale                          ; -- Begin function scale\n"
    "\t.p2align\t8\n"                                                     /* 5 */
    "\t.type\tscale,@function\n"
    "scale:                                 ; @scale\n"
    "; %bb.0:                                ; %entry\n"
    "\ts_load_dwordx2 s[0:1], s[2:3], 0x0\n"                              /* 9 */
    "\ts_load_dword s4, s[2:3], 0x8\n"
    "\tv_lshlrev_b32_e32 v0, 2, v0\n"
    "\ts_waitcnt lgkmcnt(0)\n"
    "\tglobal_load_dword v1, v0, s[0:1]\n"
    "\ts_waitcnt vmcnt(0)\n"
    "\tv_mul_lo_u32 v1, v1, s4\n"                                          /* 15 */
    "\tglobal_store_dword v0, v1, s[0:1]\n"
    "\ts_endpgm\n"
    "\t.section\t.rodata,\"a\",@progbits\n"
    "\t.p2align\t6, 0x0\n"
    "\t.amdhsa_kernel scale\n"                                            /* 20 */
    "\t\t.amdhsa_group_segment_fixed_size 512\n"
    "\t\t.amdhsa_user_sgpr_count 4\n"
    "\t\t.amdhsa_user_sgpr_dispatch_ptr 1\n"
    "\t\t.amdhsa_user_sgpr_queue_ptr 0\n"
    "\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
    "\t\t.amdhsa_user_sgpr_dispatch_id 0\n"
    "\t\t.amdhsa_user_sgpr_kernarg_preload_length 0\n"
    "\t\t.amdhsa_system_sgpr_workgroup_id_x 1\n"
    "\t\t.amdhsa_system_sgpr_workgroup_id_y 0\n"
    "\t\t.amdhsa_system_vgpr_workitem_id 1\n"                             /* 30 */
    "\t.end_amdhsa_kernel\n"
    "\t.text\n"
    ".Lfunc_end0:\n"
    "\t.size\tscale, .Lfunc_end0-scale\n"
    "\t.amdgpu_metadata\n"                                               /* 35 */
    "---\n"
    "amdhsa.kernels:\n"
    "  - .agpr_count:     0\n"
    "    .args:\n"
    "      - .address_space:  global\n"                                  /* 40 */
    "        .name:           data\n"
    "        .offset:         0\n"
    "        .size:           8\n"
    "        .value_kind:     global_buffer\n"
    "      - .name:           k\n"                                       /* 45 */
    "        .offset:         8\n"
    "        .size:           4\n"
    "        .value_kind:     by_value\n"
    "      - .offset:         16\n"
    "        .size:           8\n"                                       /* 50 */
    "        .value_kind:     hidden_hostcall_buffer\n"
    "    .group_segment_fixed_size: 512\n"
    "    .max_flat_workgroup_size: 128\n"
    "    .name:           scale\n"
    "    .reqd_workgroup_size:\n"                                        /* 55 */
    "      - 32\n"
    "      - 4\n"
    "      - 1\n"
    "    .wavefront_size: 64\n"
    "amdhsa.target:   amdgcn-amd-amdhsa--gfx950\n"                       /* 60 */
    "...\n"
    "\t.end_amdgpu_metadata\n";

static void llc_layout(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_parse_asm(&prog, ctx, llc_like, sizeof(llc_like) - 1, "scale.s", 0));
    CHECK_STR_EQ(wa_program_name(prog), "scale");
    CHECK_EQ_INT(wa_program_target(prog), WA_TARGET_GFX950);
    unsigned wg[3];
    wa_program_workgroup_size(prog, wg);
    CHECK_EQ_UINT(wg[0], 32);
    CHECK_EQ_UINT(wg[1], 4);
    CHECK_EQ_UINT(wg[2], 1);
    CHECK_EQ_UINT(wa_program_lds_bytes(prog), 512);
    CHECK_EQ_HEX(wa_program_abi_inputs(prog),
                 WA_ABI_BIT(WA_ABI_DISPATCH_PTR) | WA_ABI_BIT(WA_ABI_KERNARG_PTR) |
                     WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) |
                     WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y));
    /* the kernarg pointer after the dispatch pointer: s[2:3], as the code reads it */
    wa_operand kp;
    REQUIRE_OK(wa_program_abi_reg(&kp, prog, WA_ABI_KERNARG_PTR));
    CHECK_EQ_UINT(kp.id, 2);
    REQUIRE(wa_program_arg_count(prog) == 3);
    wa_kernel_arg a;
    REQUIRE_OK(wa_program_arg(&a, prog, 1));
    CHECK_STR_EQ(a.name, "k");
    CHECK_EQ_INT(a.kind, WA_ARG_BY_VALUE);
    CHECK_EQ_UINT(a.offset, 8);
    REQUIRE_OK(wa_program_arg(&a, prog, 2));
    CHECK_EQ_INT(a.kind, WA_ARG_HIDDEN_HOSTCALL_BUFFER);
    CHECK_EQ_UINT(a.size, 8);
    /* the code: 9 instructions, positions from the assembly file */
    unsigned instrs = 0;
    for (unsigned i = 0; i < wa_program_size(prog); i++) {
        wa_instr_view v;
        REQUIRE_OK(wa_program_get(&v, prog, i));
        if (v.opcode == WA_OP_COMMENT || v.opcode == WA_OP_LABEL)
            continue;
        if (instrs == 0) {
            CHECK_EQ_INT(v.opcode, WA_OP_S_LOAD_DWORDX2);
            CHECK_EQ_UINT(v.line, 9);
            CHECK_EQ_UINT(v.col, 2);
        }
        instrs++;
    }
    CHECK_EQ_UINT(instrs, 9);
    CHECK_OK(wa_program_validate(NULL, prog, NULL));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Replaces the first occurrence of `from` in the llc-like kernel. */
static char *edited(const char *from, const char *to)
{
    const char *p = strstr(llc_like, from);
    if (!p)
        return NULL;
    size_t a = (size_t)(p - llc_like), lf = strlen(from), lt = strlen(to);
    char *s = malloc(sizeof(llc_like) + lt);
    if (!s)
        return NULL;
    memcpy(s, llc_like, a);
    memcpy(s + a, to, lt);
    strcpy(s + a + lt, p + lf);
    return s;
}

static void errors(void)
{
    static const struct {
        const char *from, *to;
        wa_status st;
        const char *words;
        unsigned line;
    } cases[] = {
        /* an instruction the table does not know: at its line and column */
        { "\tv_mul_lo_u32 v1, v1, s4\n", "\tv_frobnicate v1, v1, s4\n", WA_E_PARSE,
          "unknown mnemonic 'v_frobnicate'", 15 },
        /* scratch, preloaded arguments: not modelled */
        { "\t\t.amdhsa_user_sgpr_kernarg_preload_length 0\n",
          "\t\t.amdhsa_user_sgpr_kernarg_preload_length 2\n", WA_E_UNSUPPORTED,
          "kernel 'scale'|preloaded", 20 },
        { "\t\t.amdhsa_system_sgpr_workgroup_id_y 0\n",
          "\t\t.amdhsa_system_sgpr_workgroup_id_y 0\n\t\t.amdhsa_enable_private_segment 1\n",
          WA_E_UNSUPPORTED, "private (scratch) memory", 20 },
        /* user SGPR count that the inputs do not explain */
        { "\t\t.amdhsa_user_sgpr_count 4\n", "\t\t.amdhsa_user_sgpr_count 8\n", WA_E_UNSUPPORTED,
          "8 user SGPRs|account for 4", 20 },
        /* an argument kind outside code object v5 */
        { "        .value_kind:     hidden_hostcall_buffer\n", "        .value_kind:     image\n",
          WA_E_UNSUPPORTED, "argument kind 'image'", 49 },
        /* a target that is not one of ours */
        { "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-", "amdgcn-amd-amdhsa--gfx1100", WA_E_UNSUPPORTED,
          "gfx1100", 1 },
        /* no code for the kernel */
        { "scale:                                 ; @scale\n", "", WA_E_PARSE, "no code for kernel 'scale'",
          19 },
    };
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        ut_context("case %u", c);
        char *text = edited(cases[c].from, cases[c].to);
        REQUIRE(text != NULL);
        wa_program *prog = NULL;
        CHECK_STATUS(wa_program_parse_asm(&prog, ctx, text, strlen(text), "scale.s", 0), cases[c].st);
        CHECK(prog == NULL);
        CHECK_DIAG(ctx, cases[c].st, cases[c].words, cases[c].line, UT_ANY, UT_ANY);
        free(text);
    }
    ut_context("%s", "");
    wa_program *prog = NULL;
    CHECK_STATUS(wa_program_parse_asm(&prog, ctx, "\t.text\n", 7, "empty.s", 0), WA_E_NOT_FOUND);
    CHECK_DIAG(ctx, WA_E_NOT_FOUND, "no kernel found", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_program_parse_asm(NULL, ctx, "", 0, NULL, 0), WA_E_INVALID);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(examples_round_trip) UT_CASE(llc_layout) UT_CASE(errors));
