/* tests/unit/test_emit.c — register counts, occupancy and descriptor words
   (wa_kernel_resources_compute) and the assembly file (wa_emit_asm).

   The expected numbers follow the AMDGPU code object rules as LLVM implements
   them: accum_offset = align4(max(1, arch VGPRs)), total = arch or
   accum_offset + AGPRs, granules ceil(n/8)-1, 6 extra SGPRs, waves per SIMD
   min(8, 512 / align8(total)) and the SGPR table 80/88/100. */
#include "check.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* examples/copy.wa as of writing: the code part is what the numbers depend on. */
static const char copy_text[] =
    ".kernel copy_kernel\n"
    "  .target gfx942\n"
    "  .workgroup_size 64, 1, 1\n"
    "  .abi kernarg_ptr, workgroup_id_x, workitem_id_x\n"
    "  .arg in, global_buffer, offset:0, size:8, align:8, const\n"
    "  .arg out, global_buffer, offset:8, size:8, align:8\n"
    "  s_load_dwordx2 s[4:5], s[0:1], 0\n"
    "  s_load_dwordx2 s[6:7], s[0:1], 8\n"
    "  ; buffer descriptors\n"
    "  s_mov_b32 s10, 512\n"
    "  s_mov_b32 s11, 0x20000\n"
    "  s_mov_b32 s14, 512\n"
    "  s_mov_b32 s15, 0x20000\n"
    "  v_lshlrev_b32 v1, 3, v0                    ; byte offset = lane * 8\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  s_mov_b32 s8, s4\n"
    "  s_mov_b32 s9, s5\n"
    "  s_mov_b32 s12, s6\n"
    "  s_mov_b32 s13, s7\n"
    "  buffer_load_dwordx2 v[2:3], v1, s[8:11], 0 offen\n"
    "  s_waitcnt vmcnt(0)\n"
    "  buffer_store_dwordx2 v[2:3], v1, s[12:15], 0 offen\n"
    "  s_endpgm\n"
    ".end_kernel\n";

static int resources(wa_kernel_resources *r, const wa_program *prog)
{
    memset(r, 0xEE, sizeof(*r));
    wa_status st = wa_kernel_resources_compute(r, prog);
    return CHECK_MSG(st == WA_OK, "resources failed (%d):%s", (int)st,
                     ut_diags_text(wa_program_context(prog)));
}

static char *emit(const wa_program *prog, unsigned flags)
{
    wa_emit_options o = WA_EMIT_OPTIONS_INIT;
    o.flags = flags;
    char *out = NULL;
    size_t len = 0;
    wa_status st = wa_emit_asm(&out, &len, prog, &o);
    if (!CHECK_MSG(st == WA_OK && out, "emit failed (%d):%s", (int)st,
                   ut_diags_text(wa_program_context(prog))))
        return NULL;
    CHECK_EQ_UINT(len, strlen(out));
    return out;
}

static void copy_kernel(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, copy_text);
    REQUIRE(prog);
    wa_kernel_resources r;
    REQUIRE(resources(&r, prog));
    CHECK_EQ_UINT(r.version, WA_KERNEL_RESOURCES_VERSION);
    CHECK_EQ_UINT(r.arch_vgprs, 4);
    CHECK_EQ_UINT(r.agprs, 0);
    CHECK_EQ_UINT(r.accum_offset, 4);
    CHECK_EQ_UINT(r.total_vgprs, 4);
    CHECK_EQ_UINT(r.next_free_sgpr, 16);
    CHECK_EQ_UINT(r.sgpr_count, 22);
    CHECK_EQ_UINT(r.vgpr_granules, 0);
    CHECK_EQ_UINT(r.sgpr_granules, 2);
    CHECK_EQ_UINT(r.user_sgprs, 2);
    CHECK_EQ_UINT(r.uses_vcc, 0);
    CHECK_EQ_UINT(r.waves_per_simd, 8);
    CHECK_EQ_UINT(r.kernarg_size, 16);
    CHECK_EQ_UINT(r.group_segment_size, 0);
    /* denormals kept (3, 3), DX10 clamp and IEEE mode on, SGPR granule 2 */
    CHECK_EQ_HEX(r.rsrc1, 0x00AF0080);
    CHECK_EQ_HEX(r.rsrc2, 0x00000084); /* 2 user SGPRs, workgroup id x */
    CHECK_EQ_HEX(r.rsrc3, 0);
    CHECK_EQ_HEX(r.kernel_code_properties, 0x0008);

    char *s = emit(prog, WA_EMIT_COMMENTS);
    REQUIRE(s);
    static const char *const want[] = {
        "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n",
        "\t.amdhsa_code_object_version 5\n",
        "\t.globl\tcopy_kernel\n",
        "\t.p2align\t8\n",
        "\ncopy_kernel:\n",
        "\ts_load_dwordx2 s[4:5], s[0:1], 0\n",
        "\tv_lshlrev_b32 v1, 3, v0                        ; byte offset = lane * 8\n",
        "\t; buffer descriptors\n",
        "\tbuffer_load_dwordx2 v[2:3], v1, s[8:11], 0 offen\n",
        "\ts_waitcnt vmcnt(0)\n",
        "\ts_endpgm\n",
        ".amdhsa_kernel copy_kernel\n",
        ".amdhsa_group_segment_fixed_size 0\n",
        ".amdhsa_kernarg_size 16\n",
        ".amdhsa_user_sgpr_count 2\n",
        ".amdhsa_user_sgpr_kernarg_segment_ptr 1\n",
        ".amdhsa_user_sgpr_dispatch_ptr 0\n",
        ".amdhsa_system_sgpr_workgroup_id_x 1\n",
        ".amdhsa_system_sgpr_workgroup_id_y 0\n",
        ".amdhsa_system_vgpr_workitem_id 0\n",
        ".amdhsa_next_free_vgpr 4\n",
        ".amdhsa_next_free_sgpr 16\n",
        ".amdhsa_accum_offset 4\n",
        ".end_amdhsa_kernel\n",
        ".amdgpu_metadata\n",
        "amdhsa.kernels:\n",
        ".name: 'in'\n",
        ".is_const: true\n",
        ".value_kind: global_buffer\n",
        ".address_space: global\n",
        ".name: 'out'\n",
        ".offset: 8\n",
        ".agpr_count: 0\n",
        ".group_segment_fixed_size: 0\n",
        ".kernarg_segment_align: 8\n",
        ".kernarg_segment_size: 16\n",
        ".max_flat_workgroup_size: 64\n",
        ".name: 'copy_kernel'\n",
        ".sgpr_count: 22\n",
        ".symbol: 'copy_kernel.kd'\n",
        ".vgpr_count: 4\n",
        ".wavefront_size: 64\n",
        "amdhsa.target: amdgcn-amd-amdhsa--gfx942\n",
        "amdhsa.version:\n",
        ".end_amdgpu_metadata\n",
    };
    for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        CHECK_STR_CONTAINS(s, want[i]);
    /* no tags unless asked, and no text-form syntax */
    CHECK_STR_NOT_CONTAINS(s, "@I");
    CHECK_STR_NOT_CONTAINS(s, ".kernel copy_kernel");
    CHECK_STR_NOT_CONTAINS(s, "%");
    wa_free(s);

    s = emit(prog, WA_EMIT_TAGS);
    REQUIRE(s);
    CHECK_STR_CONTAINS(s, "\ts_load_dwordx2 s[4:5], s[0:1], 0               ; @I0\n");
    CHECK_STR_CONTAINS(s, "; @I6\n"); /* tag without the comment */
    CHECK_STR_NOT_CONTAINS(s, "buffer descriptors");
    CHECK_STR_NOT_CONTAINS(s, "lane * 8");
    wa_free(s);
    s = emit(prog, WA_EMIT_TAGS | WA_EMIT_COMMENTS);
    REQUIRE(s);
    CHECK_STR_CONTAINS(s, "; @I6 byte offset = lane * 8\n");
    wa_free(s);
    /* NULL options are the defaults (comments, no tags) */
    char *d = NULL;
    REQUIRE_OK(wa_emit_asm(&d, NULL, prog, NULL));
    s = emit(prog, WA_EMIT_COMMENTS);
    CHECK_STR_EQ(d, s);
    wa_free(d);
    wa_free(s);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Builds "v_mov_b32 v<nv-1>, 0" and "v_accvgpr_write_b32 a<na-1>, 0" (when > 0)
   and "s_mov_b32 s<ns-1>, 0" on a program with the given ABI inputs. */
static wa_program *usage_program(wa_context *ctx, wa_target target, unsigned abi, unsigned nv,
                                 unsigned na, unsigned ns)
{
    wa_program *prog = NULL;
    if (!CHECK_OK(wa_program_create(&prog, ctx, "use")))
        return NULL;
    CHECK_OK(wa_program_set_target(prog, target));
    CHECK_OK(wa_program_set_abi_inputs(prog, abi));
    wa_operand none = wa_opnd_none();
    if (nv)
        CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, wa_opnd_phys(WA_REG_VGPR, nv - 1, 1),
                               wa_opnd_imm(0), none, none));
    if (na)
        CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_WRITE_B32,
                               wa_opnd_phys(WA_REG_AGPR, na - 1, 1), wa_opnd_imm(0), none, none));
    if (ns)
        CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, wa_opnd_phys(WA_REG_SGPR, ns - 1, 1),
                               wa_opnd_imm(0), none));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
    return prog;
}

static void agprs_and_accum_offset(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* unified register file: 6 arch VGPRs + 10 AGPRs */
    wa_program *prog = usage_program(ctx, WA_TARGET_GFX942, 0, 6, 10, 0);
    REQUIRE(prog);
    wa_kernel_resources r;
    REQUIRE(resources(&r, prog));
    CHECK_EQ_UINT(r.arch_vgprs, 6);
    CHECK_EQ_UINT(r.agprs, 10);
    CHECK_EQ_UINT(r.accum_offset, 8);
    CHECK_EQ_UINT(r.total_vgprs, 18);
    CHECK_EQ_UINT(r.vgpr_granules, 2);
    CHECK_EQ_HEX(r.rsrc1 & 0x3F, 2);
    CHECK_EQ_HEX(r.rsrc3 & 0x3F, 1);
    char *s = emit(prog, 0);
    if (s) {
        CHECK_STR_CONTAINS(s, ".amdhsa_next_free_vgpr 18\n");
        CHECK_STR_CONTAINS(s, ".amdhsa_accum_offset 8\n");
        CHECK_STR_CONTAINS(s, ".vgpr_count: 18\n");
        CHECK_STR_CONTAINS(s, ".agpr_count: 10\n");
        CHECK_STR_CONTAINS(s, "v_accvgpr_write_b32 a9, 0\n");
        wa_free(s);
    }
    wa_program_destroy(prog);

    static const struct {
        unsigned arch, agprs, accum, total, granules;
    } table[] = {
        { 0, 0, 4, 0, 0 },     { 1, 0, 4, 1, 0 },    { 4, 0, 4, 4, 0 },       { 8, 0, 8, 8, 0 },
        { 9, 0, 12, 9, 1 },    { 17, 0, 20, 17, 2 }, { 0, 1, 4, 5, 0 },       { 4, 4, 4, 8, 0 },
        { 5, 4, 8, 12, 1 },    { 1, 256, 4, 260, 32 }, { 256, 256, 256, 512, 63 },
        { 253, 1, 256, 257, 32 },
    };
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        ut_context("arch %u agprs %u", table[i].arch, table[i].agprs);
        prog = usage_program(ctx, WA_TARGET_GFX90A, 0, table[i].arch, table[i].agprs, 0);
        REQUIRE(prog);
        if (resources(&r, prog)) {
            CHECK_EQ_UINT(r.arch_vgprs, table[i].arch);
            CHECK_EQ_UINT(r.agprs, table[i].agprs);
            CHECK_EQ_UINT(r.accum_offset, table[i].accum);
            CHECK_EQ_UINT(r.total_vgprs, table[i].total);
            CHECK_EQ_UINT(r.vgpr_granules, table[i].granules);
            CHECK_EQ_HEX(r.rsrc1 & 0x3F, table[i].granules);
            CHECK_EQ_HEX(r.rsrc3, table[i].accum / 4 - 1);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

static void occupancy(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* occupancy: waves per SIMD against the total (arch + acc) VGPRs */
    static const struct {
        unsigned arch, agprs, waves;
    } vg[] = {
        { 1, 0, 8 },   { 64, 0, 8 },  { 65, 0, 7 },  { 72, 0, 7 },   { 73, 0, 6 },  { 80, 0, 6 },
        { 81, 0, 5 },  { 96, 0, 5 },  { 97, 0, 4 },  { 128, 0, 4 },  { 129, 0, 3 }, { 168, 0, 3 },
        { 169, 0, 2 }, { 256, 0, 2 }, { 256, 1, 1 }, { 256, 256, 1 }, { 60, 4, 8 }, { 60, 5, 7 },
        { 100, 100, 2 }, { 4, 124, 4 },
    };
    for (unsigned i = 0; i < sizeof(vg) / sizeof(vg[0]); i++) {
        ut_context("arch %u agprs %u", vg[i].arch, vg[i].agprs);
        wa_program *prog = usage_program(ctx, WA_TARGET_GFX942, 0, vg[i].arch, vg[i].agprs, 0);
        REQUIRE(prog);
        wa_kernel_resources r;
        if (resources(&r, prog))
            CHECK_EQ_UINT(r.waves_per_simd, vg[i].waves);
        wa_program_destroy(prog);
    }
    /* SGPRs: numbered + 6 extra; <=80 -> 10, <=88 -> 9, <=100 -> 8, else 7, capped at 8 */
    static const struct {
        unsigned sgprs, count, granules, waves;
    } sg[] = {
        { 2, 8, 0, 8 },     { 10, 16, 1, 8 },   { 11, 17, 2, 8 },   { 18, 24, 2, 8 },
        { 19, 25, 3, 8 },   { 26, 32, 3, 8 },   { 94, 100, 12, 8 }, { 95, 101, 12, 7 },
        { 96, 102, 12, 7 }, { 102, 108, 13, 7 },
    };
    for (unsigned i = 0; i < sizeof(sg) / sizeof(sg[0]); i++) {
        ut_context("%u SGPRs", sg[i].sgprs);
        wa_program *prog = usage_program(ctx, WA_TARGET_GFX942, 0, 1, 0, sg[i].sgprs);
        REQUIRE(prog);
        wa_kernel_resources r;
        if (resources(&r, prog)) {
            CHECK_EQ_UINT(r.next_free_sgpr, sg[i].sgprs);
            CHECK_EQ_UINT(r.sgpr_count, sg[i].count);
            CHECK_EQ_UINT(r.sgpr_granules, sg[i].granules);
            CHECK_EQ_HEX((r.rsrc1 >> 6) & 0xF, sg[i].granules);
            CHECK_EQ_UINT(r.waves_per_simd, sg[i].waves);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    /* VGPR and SGPR limits combine */
    wa_program *prog = usage_program(ctx, WA_TARGET_GFX942, 0, 100, 0, 96);
    REQUIRE(prog);
    wa_kernel_resources r;
    if (resources(&r, prog))
        CHECK_EQ_UINT(r.waves_per_simd, 4);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void abi_inputs_and_descriptor_bits(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const struct {
        unsigned abi;
        unsigned sgprs_used; /* highest numbered SGPR used + 1 */
        unsigned next_free, user;
        uint32_t rsrc2;
        uint16_t props;
        unsigned arch_vgprs;
    } table[] = {
        /* nothing preloaded, nothing used */
        { 0, 0, 0, 0, 0x000, 0x00, 0 },
        /* kernarg only: s[0:1], v0 */
        { WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_X), 0, 2, 2, 0x004, 0x08, 1 },
        /* preloaded SGPRs count even when the code never reads them */
        { (1u << WA_ABI_COUNT_) - 1u, 0, 12, 8, 0x1790, 0x1E, 1 },
        { (1u << WA_ABI_COUNT_) - 1u, 20, 20, 8, 0x1790, 0x1E, 1 },
        { WA_ABI_BIT(WA_ABI_DISPATCH_PTR) | WA_ABI_BIT(WA_ABI_QUEUE_PTR), 0, 4, 4, 0x008, 0x06, 0 },
        { WA_ABI_BIT(WA_ABI_WORKGROUP_ID_Y) | WA_ABI_BIT(WA_ABI_WORKGROUP_ID_Z), 0, 2, 0, 0x300, 0x00, 0 },
        { WA_ABI_BIT(WA_ABI_WORKGROUP_INFO) | WA_ABI_BIT(WA_ABI_DISPATCH_ID), 0, 3, 2, 0x404, 0x10, 0 },
        /* work-item ids: y sets 1, z sets 2 in ENABLE_VGPR_WORKITEM_ID */
        { WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y), 0, 0, 0, 0x800, 0x00, 1 },
        { WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y) |
              WA_ABI_BIT(WA_ABI_WORKITEM_ID_Z), 0, 0, 0, 0x1000, 0x00, 1 },
    };
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        ut_context("row %u", i);
        wa_program *prog = usage_program(ctx, WA_TARGET_GFX942, table[i].abi, 0, 0, table[i].sgprs_used);
        REQUIRE(prog);
        wa_kernel_resources r;
        if (resources(&r, prog)) {
            CHECK_EQ_UINT(r.next_free_sgpr, table[i].next_free);
            CHECK_EQ_UINT(r.sgpr_count, table[i].next_free + 6);
            CHECK_EQ_UINT(r.user_sgprs, table[i].user);
            CHECK_EQ_HEX(r.rsrc2, table[i].rsrc2);
            CHECK_EQ_HEX(r.kernel_code_properties, table[i].props);
            CHECK_EQ_UINT(r.arch_vgprs, table[i].arch_vgprs);
            CHECK_EQ_UINT(r.user_sgprs, wa_program_user_sgpr_count(prog));
            CHECK(r.next_free_sgpr >= wa_program_abi_sgpr_count(prog));
            /* fixed RSRC1 bits: denorm modes 3/3, DX10 clamp, IEEE; nothing else set */
            CHECK_EQ_HEX(r.rsrc1 & ~0x3FFu, 0x00AF0000);
        }
        char *s = emit(prog, 0);
        if (s) {
            char want[96];
            snprintf(want, sizeof(want), ".amdhsa_next_free_sgpr %u\n", table[i].next_free);
            CHECK_STR_CONTAINS(s, want);
            snprintf(want, sizeof(want), ".amdhsa_user_sgpr_count %u\n", table[i].user);
            CHECK_STR_CONTAINS(s, want);
            snprintf(want, sizeof(want), ".amdhsa_system_vgpr_workitem_id %u\n",
                     (unsigned)(table[i].rsrc2 >> 11) & 3u);
            CHECK_STR_CONTAINS(s, want);
            snprintf(want, sizeof(want), ".amdhsa_user_sgpr_dispatch_ptr %d\n",
                     (table[i].abi & WA_ABI_BIT(WA_ABI_DISPATCH_PTR)) ? 1 : 0);
            CHECK_STR_CONTAINS(s, want);
            snprintf(want, sizeof(want), ".amdhsa_system_sgpr_workgroup_id_z %d\n",
                     (table[i].abi & WA_ABI_BIT(WA_ABI_WORKGROUP_ID_Z)) ? 1 : 0);
            CHECK_STR_CONTAINS(s, want);
            wa_free(s);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

static void vcc_lds_and_args(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, ".kernel k\n"
                                     "  .lds_bytes 1000\n"
                                     "  .arg a, global_buffer, size:8\n"
                                     "  .arg n, by_value, size:4\n"
                                     "  .arg -, by_value, size:2, align:2\n"
                                     "  v_cmp_eq_u32 vcc, 0, v0\n"
                                     "  s_endpgm\n"
                                     ".end_kernel\n");
    REQUIRE(prog);
    wa_kernel_resources r;
    if (resources(&r, prog)) {
        CHECK_EQ_UINT(r.uses_vcc, 1);
        CHECK_EQ_UINT(r.group_segment_size, 1000);
        CHECK_EQ_UINT(r.kernarg_size, 16);
    }
    char *s = emit(prog, 0);
    if (s) {
        CHECK_STR_CONTAINS(s, ".amdhsa_group_segment_fixed_size 1000\n");
        CHECK_STR_CONTAINS(s, ".group_segment_fixed_size: 1000\n");
        CHECK_STR_CONTAINS(s, ".amdhsa_kernarg_size 16\n");
        CHECK_STR_CONTAINS(s, ".kernarg_segment_size: 16\n");
        CHECK_STR_CONTAINS(s, ".offset: 12\n        .size: 2\n        .value_kind: by_value\n");
        CHECK_STR_CONTAINS(s, ".name: 'n'\n        .offset: 8\n        .size: 4\n");
        CHECK_STR_CONTAINS(s, "v_cmp_eq_u32 vcc, 0, v0\n");
        wa_free(s);
    }
    wa_program_destroy(prog);
    /* a branch on vcc uses vcc */
    prog = ut_parse(ctx, ".kernel k\nl:\n  s_cbranch_vccz l\n  s_endpgm\n.end_kernel\n");
    REQUIRE(prog);
    if (resources(&r, prog))
        CHECK_EQ_UINT(r.uses_vcc, 1);
    wa_program_destroy(prog);
    prog = ut_parse(ctx, ".kernel k\n  s_endpgm\n.end_kernel\n");
    REQUIRE(prog);
    if (resources(&r, prog)) {
        CHECK_EQ_UINT(r.uses_vcc, 0);
        CHECK_EQ_UINT(r.kernarg_size, 0);
    }
    char *e = emit(prog, 0);
    if (e) {
        CHECK_STR_CONTAINS(e, ".args: []\n");
        wa_free(e);
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void targets_and_spellings(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char body[] = "  v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]\n"
                               "  buffer_load_dword v4, v0, s[4:7], 0 offen sc0 nt\n"
                               "  s_waitcnt\n"
                               "  s_endpgm\n";
    static const struct {
        const char *target, *mfma, *cache;
    } table[] = {
        { "gfx90a", "v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3]\n", "offen glc slc\n" },
        { "gfx942", "v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]\n", "offen sc0 nt\n" },
        { "gfx950", "v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[2:3], a[0:3]\n", "offen sc0 nt\n" },
    };
    for (unsigned i = 0; i < 3; i++) {
        ut_context("%s", table[i].target);
        wa_program *prog = NULL;
        REQUIRE_OK(ut_parse_body(&prog, ctx, table[i].target, body));
        char *s = emit(prog, 0);
        if (s) {
            char want[96];
            snprintf(want, sizeof(want), ".amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n", table[i].target);
            CHECK_STR_CONTAINS(s, want);
            snprintf(want, sizeof(want), "amdhsa.target: amdgcn-amd-amdhsa--%s\n", table[i].target);
            CHECK_STR_CONTAINS(s, want);
            CHECK_STR_CONTAINS(s, table[i].mfma);
            CHECK_STR_CONTAINS(s, table[i].cache);
            /* the assembler needs at least one counter: "wait for nothing" is explicit */
            CHECK_STR_CONTAINS(s, "\ts_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)\n");
            wa_free(s);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

static void refusals(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* virtual registers */
    wa_program *prog = ut_parse(ctx, ".kernel k\n  v_mov_b32 %v0, 0\n  s_endpgm\n.end_kernel\n");
    REQUIRE(prog);
    wa_kernel_resources r;
    CHECK_STATUS(wa_kernel_resources_compute(&r, prog), WA_E_VALIDATE);
    CHECK_LAST_DIAG(ctx, WA_E_VALIDATE, "physical registers", 2, 3, 0);
    char *out = (char *)&r;
    size_t len = 77;
    CHECK_STATUS(wa_emit_asm(&out, &len, prog, NULL), WA_E_VALIDATE);
    CHECK(out == NULL);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "virtual register %v0", 2, 3, 0);
    wa_program_destroy(prog);
    /* invalid programs */
    prog = ut_parse(ctx, ".kernel k\n  s_nop 16\n  s_endpgm\n.end_kernel\n");
    REQUIRE(prog);
    CHECK_OK(wa_kernel_resources_compute(&r, prog));
    out = (char *)&r;
    CHECK_STATUS(wa_emit_asm(&out, NULL, prog, NULL), WA_E_VALIDATE);
    CHECK(out == NULL);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "s_nop", 2, 3, 0);
    wa_program_destroy(prog);
    prog = ut_parse(ctx, ".kernel k\n  .target gfx90a\n  v_cvt_pk_bf16_f32 v0, v1, v2\n  s_endpgm\n.end_kernel\n");
    REQUIRE(prog);
    CHECK_STATUS(wa_emit_asm(&out, NULL, prog, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "not available", 3, 3, 0);
    wa_program_destroy(prog);
    /* options */
    prog = ut_parse(ctx, ".kernel k\n  s_endpgm\n.end_kernel\n");
    REQUIRE(prog);
    wa_emit_options o = WA_EMIT_OPTIONS_INIT;
    CHECK_EQ_UINT(o.code_object_version, 5);
    o.code_object_version = 4;
    out = (char *)&o;
    CHECK_STATUS(wa_emit_asm(&out, NULL, prog, &o), WA_E_UNSUPPORTED);
    CHECK(out == NULL);
    CHECK_LAST_DIAG(ctx, WA_E_UNSUPPORTED, "code object version 4", UT_ANY, UT_ANY, WA_NO_TAG);
    o.code_object_version = 6;
    CHECK_STATUS(wa_emit_asm(&out, NULL, prog, &o), WA_E_UNSUPPORTED);
    o.code_object_version = 0;
    CHECK_STATUS(wa_emit_asm(&out, NULL, prog, &o), WA_E_UNSUPPORTED);
    o.code_object_version = 5;
    o.version = 0;
    CHECK_STATUS(wa_emit_asm(&out, NULL, prog, &o), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "version", UT_ANY, UT_ANY, WA_NO_TAG);
    o.version = WA_EMIT_OPTIONS_VERSION + 1;
    CHECK_STATUS(wa_emit_asm(&out, NULL, prog, &o), WA_E_INVALID);
    CHECK_STATUS(wa_emit_asm(NULL, NULL, prog, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_emit_asm(&out, NULL, NULL, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_kernel_resources_compute(NULL, prog), WA_E_INVALID);
    CHECK_STATUS(wa_kernel_resources_compute(&r, NULL), WA_E_INVALID);
    /* a successful emit leaves no errors behind */
    o = (wa_emit_options)WA_EMIT_OPTIONS_INIT;
    REQUIRE_OK(wa_emit_asm(&out, NULL, prog, &o));
    CHECK(wa_context_last_diag(ctx) == NULL || wa_context_last_diag(ctx)->severity != WA_SEVERITY_ERROR);
    wa_free(out);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Lines "name:" in the emitted text. */
static unsigned symbol_definitions(const char *s, const char *name)
{
    unsigned n = 0;
    size_t len = strlen(name);
    for (const char *p = s; (p = strstr(p, name)) != NULL; p += len)
        if ((p == s || p[-1] == '\n') && p[len] == ':' && p[len + 1] == '\n')
            n++;
    return n;
}

/* A program the validator accepts must give assembly that defines each symbol
   once: labels may not reuse the kernel's symbols, and the kernel symbol must be
   global. (Refusing such names up front is fine too.) */
static void symbol_clashes(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const struct {
        const char *kernel, *label, *symbol;
    } table[] = {
        { "k", "k", "k" },                   /* the kernel's entry label */
        { "k", ".Lwa_end_k", ".Lwa_end_k" }, /* the end-of-code label */
        { "k", "k.kd", "k.kd" },             /* the descriptor (defined by .amdhsa_kernel) */
    };
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        ut_context("kernel %s, label %s", table[i].kernel, table[i].label);
        wa_program *prog = NULL;
        REQUIRE_OK(wa_program_create(&prog, ctx, table[i].kernel));
        wa_label l;
        if (wa_program_label_create(&l, prog, table[i].label) == WA_OK) {
            CHECK_OK(wa_build_label(prog, l));
            CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
            char *s = NULL;
            if (wa_emit_asm(&s, NULL, prog, NULL) == WA_OK) {
                unsigned defs = symbol_definitions(s, table[i].symbol);
                if (strcmp(table[i].symbol, "k.kd") == 0 && strstr(s, ".amdhsa_kernel k\n"))
                    defs++;
                CHECK_MSG(defs <= 1, "symbol %s is defined %u times", table[i].symbol, defs);
            }
            wa_free(s);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    /* a kernel symbol must not be assembler-local */
    wa_program *prog = NULL;
    if (wa_program_create(&prog, ctx, ".Lk") == WA_OK) {
        CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
        char *s = NULL;
        if (wa_emit_asm(&s, NULL, prog, NULL) == WA_OK)
            CHECK_MSG(strstr(s, ".globl\t.L") == NULL,
                      "kernel '.Lk' is emitted as an assembler-local symbol (.globl .Lk)");
        wa_free(s);
        wa_program_destroy(prog);
    }
    wa_context_destroy(ctx);
}

/* Argument names go into YAML single-quoted scalars: quotes must be escaped. */
static void metadata_quoting(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.name = "it's";
    if (wa_program_add_arg(NULL, prog, &a) == WA_OK) {
        REQUIRE_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
        char *s = NULL;
        if (wa_emit_asm(&s, NULL, prog, NULL) == WA_OK) {
            CHECK_MSG(strstr(s, ".name: 'it''s'\n") || strstr(s, ".name: \"it's\"\n"),
                      "argument name not quoted for YAML:\n%s", strstr(s, ".args:"));
        }
        wa_free(s);
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Every example: its resources agree with the descriptor directives it emits. */
static void examples_consistent(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned i = 0; i < n; i++) {
        ut_context("%s", files[i]);
        wa_program *prog = NULL;
        if (!CHECK_OK(wa_program_parse_file(&prog, ctx, files[i])))
            continue;
        wa_kernel_resources r;
        wa_status st = wa_kernel_resources_compute(&r, prog);
        if (st == WA_OK) {
            CHECK(r.accum_offset >= 4 && r.accum_offset <= 256 && r.accum_offset % 4 == 0);
            CHECK(r.total_vgprs == (r.agprs ? r.accum_offset + r.agprs : r.arch_vgprs));
            CHECK_EQ_UINT(r.vgpr_granules, ((r.total_vgprs ? r.total_vgprs : 1) + 7) / 8 - 1);
            CHECK_EQ_UINT(r.sgpr_count, r.next_free_sgpr + 6);
            CHECK_EQ_UINT(r.sgpr_granules, (r.sgpr_count + 7) / 8 - 1);
            CHECK(r.next_free_sgpr >= wa_program_abi_sgpr_count(prog));
            CHECK_EQ_UINT(r.kernarg_size, wa_program_kernarg_size(prog));
            CHECK_EQ_UINT(r.group_segment_size, wa_program_lds_bytes(prog));
            CHECK(r.waves_per_simd >= 1 && r.waves_per_simd <= 8);
            char *s = emit(prog, WA_EMIT_TAGS | WA_EMIT_COMMENTS);
            if (s) {
                char want[96];
                snprintf(want, sizeof(want), ".amdhsa_next_free_vgpr %u\n", r.total_vgprs);
                CHECK_STR_CONTAINS(s, want);
                snprintf(want, sizeof(want), ".amdhsa_next_free_sgpr %u\n", r.next_free_sgpr);
                CHECK_STR_CONTAINS(s, want);
                snprintf(want, sizeof(want), ".amdhsa_accum_offset %u\n", r.accum_offset);
                CHECK_STR_CONTAINS(s, want);
                snprintf(want, sizeof(want), ".sgpr_count: %u\n", r.sgpr_count);
                CHECK_STR_CONTAINS(s, want);
                snprintf(want, sizeof(want), ".amdhsa_kernel %s\n", wa_program_name(prog));
                CHECK_STR_CONTAINS(s, want);
                wa_free(s);
            }
        } else {
            /* examples with virtual registers cannot be emitted yet */
            CHECK_STATUS(st, WA_E_VALIDATE);
            char *s = (char *)&r;
            CHECK_STATUS(wa_emit_asm(&s, NULL, prog, NULL), WA_E_VALIDATE);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

UT_SUITE(
    UT_CASE(copy_kernel)
    UT_CASE(agprs_and_accum_offset)
    UT_CASE(occupancy)
    UT_CASE(abi_inputs_and_descriptor_bits)
    UT_CASE(vcc_lds_and_args)
    UT_CASE(targets_and_spellings)
    UT_CASE(refusals)
    UT_CASE(examples_consistent)
    UT_CASE(symbol_clashes)
    UT_CASE(metadata_quoting)
);
