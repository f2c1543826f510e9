/* tests/unit/test_builder.c — programs, attributes, registers, labels, the ABI
   layout, kernel arguments and the instruction builders. */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static wa_program *new_program(wa_context *ctx)
{
    wa_program *prog = NULL;
    if (!CHECK_OK(wa_program_create(&prog, ctx, "k")))
        return NULL;
    return prog;
}

static wa_operand vreg(wa_program *prog, wa_reg_class cls, unsigned size, unsigned align)
{
    wa_operand o = wa_opnd_none();
    CHECK_OK(wa_program_vreg(&o, prog, cls, size, align));
    return o;
}

/* The view of the last item. */
static wa_instr_view last_item(const wa_program *prog)
{
    wa_instr_view v;
    memset(&v, 0, sizeof(v));
    unsigned n = wa_program_size(prog);
    if (CHECK(n > 0))
        CHECK_OK(wa_program_get(&v, prog, n - 1));
    return v;
}

static void program_defaults(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX950);
    wa_program *prog = (wa_program *)&prog;
    REQUIRE_OK(wa_program_create(&prog, ctx, "my_kernel"));
    CHECK_STR_EQ(wa_program_name(prog), "my_kernel");
    CHECK_EQ_INT(wa_program_target(prog), WA_TARGET_GFX950);
    CHECK(wa_program_context(prog) == ctx);
    unsigned wg[3] = { 0, 0, 0 };
    wa_program_workgroup_size(prog, wg);
    CHECK_EQ_UINT(wg[0], 64);
    CHECK_EQ_UINT(wg[1], 1);
    CHECK_EQ_UINT(wg[2], 1);
    CHECK_EQ_UINT(wa_program_lds_bytes(prog), 0);
    CHECK_EQ_HEX(wa_program_abi_inputs(prog),
                 WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_X));
    CHECK_EQ_UINT(wa_program_arg_count(prog), 0);
    CHECK_EQ_UINT(wa_program_kernarg_size(prog), 0);
    CHECK_EQ_UINT(wa_program_size(prog), 0);
    CHECK_EQ_UINT(wa_program_vreg_count(prog), 0);
    CHECK_EQ_UINT(wa_program_label_count(prog), 0);
    CHECK_EQ_UINT(wa_program_user_sgpr_count(prog), 2);
    CHECK_EQ_UINT(wa_program_abi_sgpr_count(prog), 2);
    wa_program_destroy(prog);
    wa_program_destroy(NULL);

    /* Names must be symbols. */
    /* ".L" names are assembler-local: the kernel symbol must be global. */
    static const char *const bad[] = { "", "1abc", "a b", "a-b", "k\n", "\xc3\xa9t\xc3\xa9", ".Lk" };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ut_context("name '%s'", bad[i]);
        prog = (wa_program *)&prog;
        CHECK_STATUS(wa_program_create(&prog, ctx, bad[i]), WA_E_INVALID);
        CHECK(prog == NULL);
        CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not a valid global symbol", UT_ANY, UT_ANY, WA_NO_TAG);
    }
    ut_context("%s", "");
    CHECK_STATUS(wa_program_create(&prog, ctx, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_program_create(&prog, NULL, "k"), WA_E_INVALID);
    CHECK_STATUS(wa_program_create(NULL, ctx, "k"), WA_E_INVALID);
    /* Accepted spellings. */
    static const char *const good[] = { "_k", ".k", "k$1", "K_2.x" };
    for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        prog = NULL;
        CHECK_OK(wa_program_create(&prog, ctx, good[i]));
        CHECK_STR_EQ(wa_program_name(prog), good[i]);
        wa_program_destroy(prog);
    }
    CHECK(wa_program_name(NULL) == NULL);
    CHECK_EQ_INT(wa_program_target(NULL), WA_TARGET_UNKNOWN);
    wa_context_destroy(ctx);
}

static void attribute_setters(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    CHECK_OK(wa_program_set_name(prog, "renamed"));
    CHECK_STR_EQ(wa_program_name(prog), "renamed");
    CHECK_STATUS(wa_program_set_name(prog, "no good"), WA_E_INVALID);
    CHECK_STATUS(wa_program_set_name(prog, NULL), WA_E_INVALID);
    CHECK_STR_EQ(wa_program_name(prog), "renamed");

    CHECK_OK(wa_program_set_target(prog, WA_TARGET_GFX90A));
    CHECK_EQ_INT(wa_program_target(prog), WA_TARGET_GFX90A);
    CHECK_STATUS(wa_program_set_target(prog, WA_TARGET_UNKNOWN), WA_E_INVALID);
    CHECK_STATUS(wa_program_set_target(prog, (wa_target)7), WA_E_INVALID);
    CHECK_EQ_INT(wa_program_target(prog), WA_TARGET_GFX90A);
    /* The context's default target is unchanged. */
    CHECK_EQ_INT(wa_context_target(ctx), WA_TARGET_GFX942);

    /* Sizes are stored as given; the validator judges them. */
    CHECK_OK(wa_program_set_workgroup_size(prog, 256, 2, 1));
    unsigned wg[3];
    wa_program_workgroup_size(prog, wg);
    CHECK_EQ_UINT(wg[0], 256);
    CHECK_EQ_UINT(wg[1], 2);
    CHECK_EQ_UINT(wg[2], 1);
    CHECK_OK(wa_program_set_workgroup_size(prog, 2048, 1, 1));
    wa_program_workgroup_size(prog, wg);
    CHECK_EQ_UINT(wg[0], 2048);

    CHECK_OK(wa_program_set_lds_bytes(prog, 65536));
    CHECK_EQ_UINT(wa_program_lds_bytes(prog), 65536);
    CHECK_OK(wa_program_set_lds_bytes(prog, 0));
    CHECK_EQ_UINT(wa_program_lds_bytes(prog), 0);

    CHECK_OK(wa_program_set_abi_inputs(prog, 0));
    CHECK_EQ_HEX(wa_program_abi_inputs(prog), 0);
    CHECK_STATUS(wa_program_set_abi_inputs(prog, WA_ABI_BIT(WA_ABI_COUNT_)), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "ABI", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_EQ_HEX(wa_program_abi_inputs(prog), 0);
    CHECK_STATUS(wa_program_set_workgroup_size(NULL, 1, 1, 1), WA_E_INVALID);
    CHECK_STATUS(wa_program_set_lds_bytes(NULL, 1), WA_E_INVALID);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void abi_layout(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    static const struct {
        unsigned mask;
        wa_abi_input input;
        int cls; /* expected register */
        unsigned first, count;
        unsigned user, total;
    } table[] = {
        { WA_ABI_BIT(WA_ABI_KERNARG_PTR), WA_ABI_KERNARG_PTR, WA_REG_SGPR, 0, 2, 2, 2 },
        { WA_ABI_BIT(WA_ABI_DISPATCH_PTR) | WA_ABI_BIT(WA_ABI_KERNARG_PTR), WA_ABI_KERNARG_PTR,
          WA_REG_SGPR, 2, 2, 4, 4 },
        { WA_ABI_BIT(WA_ABI_DISPATCH_PTR) | WA_ABI_BIT(WA_ABI_KERNARG_PTR), WA_ABI_DISPATCH_PTR,
          WA_REG_SGPR, 0, 2, 4, 4 },
        { WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X) |
              WA_ABI_BIT(WA_ABI_WORKGROUP_ID_Y),
          WA_ABI_WORKGROUP_ID_Y, WA_REG_SGPR, 3, 1, 2, 4 },
        { WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X) |
              WA_ABI_BIT(WA_ABI_WORKGROUP_ID_Y),
          WA_ABI_WORKGROUP_ID_X, WA_REG_SGPR, 2, 1, 2, 4 },
        /* y without x packs right after the user SGPRs */
        { WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKGROUP_ID_Y), WA_ABI_WORKGROUP_ID_Y,
          WA_REG_SGPR, 2, 1, 2, 3 },
        /* everything: 4 pairs of user SGPRs, then x, y, z, info */
        { (1u << WA_ABI_COUNT_) - 1u, WA_ABI_DISPATCH_ID, WA_REG_SGPR, 6, 2, 8, 12 },
        { (1u << WA_ABI_COUNT_) - 1u, WA_ABI_QUEUE_PTR, WA_REG_SGPR, 2, 2, 8, 12 },
        { (1u << WA_ABI_COUNT_) - 1u, WA_ABI_WORKGROUP_ID_Z, WA_REG_SGPR, 10, 1, 8, 12 },
        { (1u << WA_ABI_COUNT_) - 1u, WA_ABI_WORKGROUP_INFO, WA_REG_SGPR, 11, 1, 8, 12 },
        { WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X), WA_ABI_WORKGROUP_ID_X, WA_REG_SGPR, 0, 1, 0, 1 },
        { WA_ABI_BIT(WA_ABI_WORKITEM_ID_X), WA_ABI_WORKITEM_ID_X, WA_REG_VGPR, 0, 1, 0, 0 },
        { WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) |
              WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y),
          WA_ABI_WORKITEM_ID_Y, WA_REG_VGPR, 0, 1, 2, 2 },
    };
    for (unsigned i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        ut_context("row %u", i);
        REQUIRE_OK(wa_program_set_abi_inputs(prog, table[i].mask));
        wa_operand o = wa_opnd_none();
        CHECK_OK(wa_program_abi_reg(&o, prog, table[i].input));
        CHECK_EQ_INT(o.kind, WA_OPND_PHYS);
        CHECK_EQ_INT(o.reg_class, table[i].cls);
        CHECK_EQ_UINT(o.id, table[i].first);
        CHECK_EQ_UINT(o.count, table[i].count);
        CHECK_EQ_UINT(wa_program_user_sgpr_count(prog), table[i].user);
        CHECK_EQ_UINT(wa_program_abi_sgpr_count(prog), table[i].total);
    }
    ut_context("%s", "");
    /* Not enabled. */
    REQUIRE_OK(wa_program_set_abi_inputs(prog, WA_ABI_BIT(WA_ABI_KERNARG_PTR)));
    wa_operand o;
    CHECK_STATUS(wa_program_abi_reg(&o, prog, WA_ABI_WORKGROUP_ID_X), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not enabled", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_program_abi_reg(&o, prog, WA_ABI_WORKITEM_ID_X), WA_E_INVALID);
    CHECK_STATUS(wa_program_abi_reg(&o, prog, WA_ABI_COUNT_), WA_E_INVALID);
    CHECK_STATUS(wa_program_abi_reg(NULL, prog, WA_ABI_KERNARG_PTR), WA_E_INVALID);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void kernel_args(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    static const struct {
        const char *name;
        wa_arg_kind kind;
        unsigned size, align, flags;
        unsigned want_offset, want_align;
    } table[] = {
        { "n", WA_ARG_BY_VALUE, 4, 0, 0, 0, 4 },
        { "src", WA_ARG_GLOBAL_BUFFER, 8, 0, WA_ARG_CONST | WA_ARG_RESTRICT, 8, 8 },
        { "h", WA_ARG_BY_VALUE, 2, 0, 0, 16, 2 },
        { "c", WA_ARG_BY_VALUE, 1, 0, 0, 18, 1 },
        { "v3", WA_ARG_BY_VALUE, 12, 0, 0, 24, 8 }, /* natural alignment caps at 8 */
        { NULL, WA_ARG_BY_VALUE, 4, 16, WA_ARG_VOLATILE, 48, 16 },
        { "", WA_ARG_BY_VALUE, 3, 0, 0, 52, 4 },
    };
    unsigned n = sizeof(table) / sizeof(table[0]);
    for (unsigned i = 0; i < n; i++) {
        ut_context("arg %u", i);
        wa_kernel_arg a = WA_KERNEL_ARG_INIT;
        a.name = table[i].name;
        a.kind = table[i].kind;
        a.size = table[i].size;
        a.align = table[i].align;
        a.flags = table[i].flags;
        unsigned idx = 99;
        CHECK_OK(wa_program_add_arg(&idx, prog, &a));
        CHECK_EQ_UINT(idx, i);
    }
    CHECK_EQ_UINT(wa_program_arg_count(prog), n);
    for (unsigned i = 0; i < n; i++) {
        ut_context("arg %u", i);
        wa_kernel_arg a;
        memset(&a, 0xAB, sizeof(a));
        REQUIRE_OK(wa_program_arg(&a, prog, i));
        CHECK_EQ_UINT(a.version, WA_KERNEL_ARG_VERSION);
        CHECK_EQ_UINT(a.offset, table[i].want_offset);
        CHECK_EQ_UINT(a.align, table[i].want_align);
        CHECK_EQ_UINT(a.size, table[i].size);
        CHECK_EQ_INT(a.kind, table[i].kind);
        CHECK_EQ_HEX(a.flags, table[i].flags);
        if (table[i].name && table[i].name[0])
            CHECK_STR_EQ(a.name, table[i].name);
        else
            CHECK(a.name == NULL);
    }
    ut_context("%s", "");
    /* Last argument ends at 55: the segment is 56 bytes. */
    CHECK_EQ_UINT(wa_program_kernarg_size(prog), 56);

    /* An explicit offset is kept as given, and the segment grows to cover it. */
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.offset = 100;
    a.size = 1;
    CHECK_OK(wa_program_add_arg(NULL, prog, &a));
    CHECK_EQ_UINT(wa_program_kernarg_size(prog), 104);
    /* and later auto arguments come after the highest end */
    a.offset = WA_ARG_OFFSET_AUTO;
    a.size = 4;
    unsigned idx;
    CHECK_OK(wa_program_add_arg(&idx, prog, &a));
    wa_kernel_arg got;
    CHECK_OK(wa_program_arg(&got, prog, idx));
    CHECK_EQ_UINT(got.offset, 104);
    CHECK_EQ_UINT(wa_program_kernarg_size(prog), 112);

    /* The caller's name buffer may go away. */
    char name[8] = "tmp";
    a.name = name;
    CHECK_OK(wa_program_add_arg(&idx, prog, &a));
    name[0] = 'X';
    CHECK_OK(wa_program_arg(&got, prog, idx));
    CHECK_STR_EQ(got.name, "tmp");

    /* Errors. */
    unsigned before = wa_program_arg_count(prog);
    wa_kernel_arg bad = WA_KERNEL_ARG_INIT;
    bad.size = 0;
    CHECK_STATUS(wa_program_add_arg(NULL, prog, &bad), WA_E_RANGE);
    CHECK_LAST_DIAG(ctx, WA_E_RANGE, "size", UT_ANY, UT_ANY, WA_NO_TAG);
    bad.size = 4097;
    CHECK_STATUS(wa_program_add_arg(NULL, prog, &bad), WA_E_RANGE);
    bad.size = 4;
    bad.align = 3;
    CHECK_STATUS(wa_program_add_arg(NULL, prog, &bad), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "power of two", UT_ANY, UT_ANY, WA_NO_TAG);
    bad.align = 0;
    bad.version = 0;
    CHECK_STATUS(wa_program_add_arg(NULL, prog, &bad), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "version", UT_ANY, UT_ANY, WA_NO_TAG);
    bad.version = WA_KERNEL_ARG_VERSION;
    bad.kind = WA_ARG_KIND_COUNT_;
    CHECK_STATUS(wa_program_add_arg(NULL, prog, &bad), WA_E_INVALID);
    CHECK_STATUS(wa_program_add_arg(NULL, prog, NULL), WA_E_INVALID);
    CHECK_EQ_UINT(wa_program_arg_count(prog), before);
    CHECK_STATUS(wa_program_arg(&got, prog, before), WA_E_INVALID);

    /* Kind names are the metadata spellings. */
    CHECK_STR_EQ(wa_arg_kind_name(WA_ARG_BY_VALUE), "by_value");
    CHECK_STR_EQ(wa_arg_kind_name(WA_ARG_GLOBAL_BUFFER), "global_buffer");
    CHECK_STR_EQ(wa_arg_kind_name(WA_ARG_DYNAMIC_SHARED_POINTER), "dynamic_shared_pointer");
    CHECK_STR_EQ(wa_arg_kind_name(WA_ARG_HIDDEN_BLOCK_COUNT_X), "hidden_block_count_x");
    CHECK_STR_EQ(wa_arg_kind_name(WA_ARG_HIDDEN_GROUP_SIZE_Z), "hidden_group_size_z");
    CHECK_STR_EQ(wa_arg_kind_name(WA_ARG_HIDDEN_GLOBAL_OFFSET_Y), "hidden_global_offset_y");
    CHECK_STR_EQ(wa_arg_kind_name(WA_ARG_HIDDEN_DYNAMIC_LDS_SIZE), "hidden_dynamic_lds_size");
    CHECK_STR_EQ(wa_arg_kind_name(WA_ARG_HIDDEN_NONE), "hidden_none");
    CHECK(wa_arg_kind_name(WA_ARG_KIND_COUNT_) == NULL);
    for (unsigned k = 0; k < WA_ARG_KIND_COUNT_; k++)
        CHECK(wa_arg_kind_name((wa_arg_kind)k) != NULL);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void virtual_registers(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    static const struct {
        wa_reg_class cls;
        unsigned size, align, want_align;
    } table[] = {
        { WA_REG_VGPR, 1, 0, 1 },  { WA_REG_VGPR, 2, 0, 2 },  { WA_REG_VGPR, 3, 0, 2 },
        { WA_REG_VGPR, 4, 0, 2 },  { WA_REG_VGPR, 16, 0, 2 }, { WA_REG_AGPR, 1, 0, 1 },
        { WA_REG_AGPR, 4, 0, 2 },  { WA_REG_AGPR, 16, 0, 2 }, { WA_REG_SGPR, 1, 0, 1 },
        { WA_REG_SGPR, 2, 0, 2 },  { WA_REG_SGPR, 4, 0, 4 },  { WA_REG_SGPR, 8, 0, 4 },
        { WA_REG_SGPR, 16, 0, 4 }, { WA_REG_VGPR, 4, 4, 4 },  { WA_REG_VGPR, 2, 1, 1 },
        { WA_REG_SGPR, 1, 8, 8 },  { WA_REG_AGPR, 32, 32, 32 },
    };
    unsigned n = sizeof(table) / sizeof(table[0]);
    for (unsigned i = 0; i < n; i++) {
        ut_context("row %u", i);
        wa_operand o = wa_opnd_none();
        REQUIRE_OK(wa_program_vreg(&o, prog, table[i].cls, table[i].size, table[i].align));
        CHECK_EQ_INT(o.kind, WA_OPND_VIRT);
        CHECK_EQ_INT(o.reg_class, table[i].cls);
        CHECK_EQ_UINT(o.id, i);
        CHECK_EQ_UINT(o.first, 0);
        CHECK_EQ_UINT(o.count, table[i].size);
        wa_reg_class cls = WA_REG_NONE;
        unsigned size = 0, align = 0;
        CHECK_OK(wa_program_vreg_info(&cls, &size, &align, prog, i));
        CHECK_EQ_INT(cls, table[i].cls);
        CHECK_EQ_UINT(size, table[i].size);
        CHECK_EQ_UINT(align, table[i].want_align);
        if (table[i].align == 0)
            CHECK_EQ_UINT(wa_target_tuple_align(WA_TARGET_GFX942, table[i].cls, table[i].size),
                          table[i].want_align);
    }
    ut_context("%s", "");
    CHECK_EQ_UINT(wa_program_vreg_count(prog), n);
    CHECK_OK(wa_program_vreg_info(NULL, NULL, NULL, prog, 0));
    CHECK_STATUS(wa_program_vreg_info(NULL, NULL, NULL, prog, n), WA_E_INVALID);
    /* The tuple rule is the same on every target. */
    for (int t = WA_TARGET_GFX90A; t <= WA_TARGET_GFX950; t++) {
        CHECK_EQ_UINT(wa_target_tuple_align((wa_target)t, WA_REG_VGPR, 2), 2);
        CHECK_EQ_UINT(wa_target_tuple_align((wa_target)t, WA_REG_VGPR, 8), 2);
        CHECK_EQ_UINT(wa_target_tuple_align((wa_target)t, WA_REG_SGPR, 4), 4);
        CHECK_EQ_UINT(wa_target_tuple_align((wa_target)t, WA_REG_SGPR, 1), 1);
    }

    /* Bad shapes. */
    wa_operand o;
    CHECK_STATUS(wa_program_vreg(&o, prog, WA_REG_VGPR, 0, 0), WA_E_RANGE);
    CHECK_LAST_DIAG(ctx, WA_E_RANGE, "size 0", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_program_vreg(&o, prog, WA_REG_VGPR, 33, 0), WA_E_RANGE);
    CHECK_STATUS(wa_program_vreg(&o, prog, WA_REG_VGPR, 4, 3), WA_E_RANGE);
    CHECK_LAST_DIAG(ctx, WA_E_RANGE, "alignment 3", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_program_vreg(&o, prog, WA_REG_VGPR, 4, 64), WA_E_RANGE);
    CHECK_STATUS(wa_program_vreg(&o, prog, WA_REG_NONE, 1, 0), WA_E_INVALID);
    CHECK_STATUS(wa_program_vreg(&o, prog, (wa_reg_class)9, 1, 0), WA_E_INVALID);
    CHECK_STATUS(wa_program_vreg(NULL, prog, WA_REG_VGPR, 1, 0), WA_E_INVALID);
    CHECK_EQ_UINT(wa_program_vreg_count(prog), n);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void operand_constructors(void)
{
    wa_operand o = wa_opnd_none();
    CHECK_EQ_INT(o.kind, WA_OPND_NONE);
    o = wa_opnd_imm(-17);
    CHECK_EQ_INT(o.kind, WA_OPND_IMM);
    CHECK_EQ_INT(o.imm.i, -17);
    o = wa_opnd_imm(INT64_MIN);
    CHECK(o.imm.i == INT64_MIN);
    o = wa_opnd_fimm(0.5);
    CHECK_EQ_INT(o.kind, WA_OPND_FIMM);
    CHECK(o.imm.f == 0.5);
    o = wa_opnd_phys(WA_REG_SGPR, 0, 2);
    CHECK_EQ_INT(o.kind, WA_OPND_PHYS);
    CHECK_EQ_INT(o.reg_class, WA_REG_SGPR);
    CHECK_EQ_UINT(o.id, 0);
    CHECK_EQ_UINT(o.count, 2);
    CHECK_EQ_UINT(o.reserved, 0);
    o = wa_opnd_special(WA_SPECIAL_M0);
    CHECK_EQ_INT(o.kind, WA_OPND_SPECIAL);
    CHECK_EQ_UINT(o.id, WA_SPECIAL_M0);
    o = wa_opnd_label(3);
    CHECK_EQ_INT(o.kind, WA_OPND_LABEL);
    CHECK_EQ_UINT(o.id, 3);
    o = wa_opnd_off();
    CHECK_EQ_INT(o.kind, WA_OPND_OFF);

    /* Sub-ranges of physical registers. */
    wa_operand q = wa_opnd_phys(WA_REG_SGPR, 8, 4);
    o = wa_opnd_sub(q, 2, 2);
    CHECK_EQ_INT(o.kind, WA_OPND_PHYS);
    CHECK_EQ_UINT(o.id, 10);
    CHECK_EQ_UINT(o.count, 2);
    o = wa_opnd_sub(q, 3, 1);
    CHECK_EQ_UINT(o.id, 11);
    CHECK_EQ_UINT(o.count, 1);
    CHECK_EQ_INT(wa_opnd_sub(q, 3, 2).kind, WA_OPND_NONE);
    CHECK_EQ_INT(wa_opnd_sub(q, 4, 1).kind, WA_OPND_NONE);
    CHECK_EQ_INT(wa_opnd_sub(q, 0, 0).kind, WA_OPND_NONE);
    CHECK_EQ_INT(wa_opnd_sub(q, 0xFFFFFFFFu, 2).kind, WA_OPND_NONE);
    CHECK_EQ_INT(wa_opnd_sub(wa_opnd_imm(1), 0, 1).kind, WA_OPND_NONE);
    CHECK_EQ_INT(wa_opnd_sub(wa_opnd_special(WA_SPECIAL_VCC), 0, 1).kind, WA_OPND_NONE);

    /* Sub-ranges of virtual registers: relative to the operand's own first component. */
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    wa_operand v = vreg(prog, WA_REG_VGPR, 8, 0);
    o = wa_opnd_sub(v, 4, 4);
    CHECK_EQ_INT(o.kind, WA_OPND_VIRT);
    CHECK_EQ_UINT(o.id, v.id);
    CHECK_EQ_UINT(o.first, 4);
    CHECK_EQ_UINT(o.count, 4);
    wa_operand o2 = wa_opnd_sub(o, 1, 2);
    CHECK_EQ_UINT(o2.first, 5);
    CHECK_EQ_UINT(o2.count, 2);
    CHECK_EQ_INT(wa_opnd_sub(o, 2, 3).kind, WA_OPND_NONE);
    CHECK_EQ_INT(wa_opnd_sub(v, 8, 1).kind, WA_OPND_NONE);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void labels(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    wa_label a = 99, b = 99, c = 99;
    CHECK_OK(wa_program_label_create(&a, prog, NULL));
    CHECK_OK(wa_program_label_create(&b, prog, "loop"));
    CHECK_OK(wa_program_label_create(&c, prog, NULL));
    CHECK_EQ_UINT(a, 0);
    CHECK_EQ_UINT(b, 1);
    CHECK_EQ_UINT(c, 2);
    CHECK_STR_EQ(wa_program_label_name(prog, a), "L0");
    CHECK_STR_EQ(wa_program_label_name(prog, b), "loop");
    CHECK_STR_EQ(wa_program_label_name(prog, c), "L2");
    CHECK(wa_program_label_name(prog, 3) == NULL);
    CHECK_EQ_UINT(wa_program_label_count(prog), 3);
    /* An automatic name never collides with a user one. */
    wa_label d;
    CHECK_OK(wa_program_label_create(&d, prog, "L4"));
    wa_label e;
    CHECK_OK(wa_program_label_create(&e, prog, NULL));
    CHECK_STR_EQ(wa_program_label_name(prog, e), "L5");
    CHECK_STATUS(wa_program_label_create(&d, prog, "loop"), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "loop|already exists", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_program_label_create(&d, prog, "9lives"), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "9lives|not a valid label", UT_ANY, UT_ANY, WA_NO_TAG);
    /* Names the assembler reads as registers or special operands, and the text
       form's own keywords. */
    static const char *const unreadable[] = { "v1", "s0", "a2", "v07", "acc0", "ttmp3",
                                              "exec", "vcc", "m0", "scc", "tba", "tma_hi",
                                              "vccz", "execz", "flat_scratch", "xnack_mask",
                                              "src_scc", "shared_base", "private_base",
                                              "lds_direct", "null", "pc", "off", ".kernel",
                                              ".end_kernel" };
    for (unsigned i = 0; i < sizeof(unreadable) / sizeof(unreadable[0]); i++) {
        ut_context("label '%s'", unreadable[i]);
        CHECK_STATUS(wa_program_label_create(&d, prog, unreadable[i]), WA_E_INVALID);
        CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not a valid label", UT_ANY, UT_ANY, WA_NO_TAG);
    }
    ut_context("%s", "");
    /* Names that only start like a register are ordinary symbols to the assembler. */
    CHECK_OK(wa_program_label_create(&d, prog, "vx1"));
    CHECK_OK(wa_program_label_create(&d, prog, "v1x"));
    CHECK_OK(wa_program_label_create(&d, prog, "v1_loop"));
    CHECK_OK(wa_program_label_create(&d, prog, "s0done"));
    CHECK_OK(wa_program_label_create(&d, prog, "ttmp"));
    CHECK_STATUS(wa_program_label_create(&d, prog, "a:b"), WA_E_INVALID);
    CHECK_STATUS(wa_program_label_create(NULL, prog, "x"), WA_E_INVALID);
    CHECK_EQ_UINT(wa_program_label_count(prog), 10);

    /* Placement: once. */
    CHECK_OK(wa_build_label(prog, b));
    CHECK_STATUS(wa_build_label(prog, b), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "loop|placed twice", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_build_label(prog, 77), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "unknown label", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_EQ_UINT(wa_program_size(prog), 1);
    wa_instr_view v = last_item(prog);
    CHECK_EQ_INT(v.opcode, WA_OP_LABEL);
    CHECK_EQ_UINT(v.tag, WA_NO_TAG);
    CHECK_EQ_UINT(v.num_operands, 1);
    CHECK_EQ_INT(v.operands[0].kind, WA_OPND_LABEL);
    CHECK_EQ_UINT(v.operands[0].id, b);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Every family builder: operands land in table order. */
static void family_builders(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX950);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    wa_operand v1 = vreg(prog, WA_REG_VGPR, 1, 0);
    wa_operand v2 = vreg(prog, WA_REG_VGPR, 2, 0);
    wa_operand v4 = vreg(prog, WA_REG_VGPR, 4, 0);
    wa_operand s1 = vreg(prog, WA_REG_SGPR, 1, 0);
    wa_operand s2 = vreg(prog, WA_REG_SGPR, 2, 0);
    wa_operand s4 = vreg(prog, WA_REG_SGPR, 4, 0);
    wa_operand a4 = vreg(prog, WA_REG_AGPR, 4, 0);
    wa_operand none = wa_opnd_none();
    wa_tag tag = 1234;
    wa_instr_view v;

    /* VALU */
    CHECK_OK(wa_build_valu(&tag, prog, WA_OP_V_ADD_U32, v1, wa_opnd_imm(3), v1, none));
    CHECK_EQ_UINT(tag, 0);
    v = last_item(prog);
    CHECK_EQ_INT(v.opcode, WA_OP_V_ADD_U32);
    CHECK_EQ_UINT(v.tag, 0);
    CHECK_EQ_UINT(v.num_operands, 3);
    CHECK_EQ_INT(v.operands[1].kind, WA_OPND_IMM);
    CHECK_EQ_INT(v.operands[1].imm.i, 3);
    CHECK_EQ_UINT(v.line, 0);
    CHECK(v.comment == NULL);
    CHECK_OK(wa_build_valu(&tag, prog, WA_OP_V_CNDMASK_B32, v1, v1, v1, wa_opnd_special(WA_SPECIAL_VCC)));
    CHECK_EQ_UINT(tag, 1);
    CHECK_EQ_UINT(last_item(prog).num_operands, 4);
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_fimm(0.5), none, none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_CMP_EQ_U32, s2, v1, v1, none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_FMA_F32, v1, v1, v1, v1));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_WRITE_B32, wa_opnd_sub(a4, 0, 1), v1, none, none));
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_S_MOV_B32, s1, s1, none, none), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "s_mov_b32|not a VALU", UT_ANY, UT_ANY, WA_NO_TAG);
    /* wrong operand counts */
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_ADD_U32, v1, v1, none, none), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "v_add_u32|3 operands", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, v1, v1, none), WA_E_INVALID);
    /* a gap in the middle is an absent operand, not a shorter list */
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_FMA_F32, v1, none, v1, v1), WA_E_INVALID);

    /* SALU */
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_ADD_U32, s1, s1, wa_opnd_imm(0x12345)));
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOVK_I32, s1, wa_opnd_imm(-5), none));
    v = last_item(prog);
    CHECK_EQ_UINT(v.num_operands, 2);
    CHECK_EQ_INT(v.operands[1].imm.i, -5);
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_CMP_EQ_U32, none, s1, wa_opnd_imm(1)));
    v = last_item(prog);
    CHECK_EQ_UINT(v.num_operands, 2);
    CHECK_EQ_INT(v.operands[0].kind, WA_OPND_VIRT);
    CHECK_STATUS(wa_build_salu(NULL, prog, WA_OP_S_CMP_EQ_U32, s1, s1, s1), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "no destination", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_build_salu(NULL, prog, WA_OP_V_ADD_U32, v1, v1, v1), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not a SALU", UT_ANY, UT_ANY, WA_NO_TAG);

    /* SMEM */
    CHECK_OK(wa_build_smem(NULL, prog, WA_OP_S_LOAD_DWORDX4, s4, wa_opnd_phys(WA_REG_SGPR, 0, 2),
                           wa_opnd_imm(16), NULL));
    v = last_item(prog);
    CHECK_EQ_UINT(v.num_operands, 3);
    CHECK_EQ_INT(v.operands[1].kind, WA_OPND_PHYS);
    CHECK_EQ_UINT(v.mods->version, WA_MODS_VERSION);
    CHECK_EQ_INT(v.mods->vmcnt, -1);
    CHECK_STATUS(wa_build_smem(NULL, prog, WA_OP_GLOBAL_LOAD_DWORD, s1, s2, none, NULL), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not a SMEM", UT_ANY, UT_ANY, WA_NO_TAG);

    /* MUBUF, including the lds forms */
    wa_mods m = WA_MODS_INIT;
    m.flags = WA_MOD_OFFEN | WA_MOD_GLC;
    m.offset = 16;
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORDX2, v2, v1, s4, wa_opnd_imm(0), &m));
    v = last_item(prog);
    CHECK_EQ_INT(v.opcode, WA_OP_BUFFER_LOAD_DWORDX2);
    CHECK_EQ_UINT(v.num_operands, 4);
    CHECK_EQ_HEX(v.mods->flags, WA_MOD_OFFEN | WA_MOD_GLC);
    CHECK_EQ_INT(v.mods->offset, 16);
    m.flags = WA_MOD_OFFEN | WA_MOD_LDS;
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORD, none, v1, s4, wa_opnd_imm(0), &m));
    v = last_item(prog);
    CHECK_EQ_INT(v.opcode, WA_OP_BUFFER_LOAD_DWORD_LDS);
    CHECK_EQ_UINT(v.num_operands, 3);
    CHECK(v.mods->flags & WA_MOD_LDS);
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORDX4, none, v1, s4, wa_opnd_imm(0), &m));
    CHECK_EQ_INT(last_item(prog).opcode, WA_OP_BUFFER_LOAD_DWORDX4_LDS);
    /* the lds opcode itself gets the modifier without being asked */
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_UBYTE_LDS, none, wa_opnd_off(), s4,
                            wa_opnd_imm(0), NULL));
    CHECK(last_item(prog).mods->flags & WA_MOD_LDS);
    CHECK_STATUS(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORDX2, v2, v1, s4, wa_opnd_imm(0), &m),
                 WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "buffer_load_dwordx2|no lds form", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_OK(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_STORE_DWORD, v1, wa_opnd_off(), s4, s1, NULL));
    v = last_item(prog);
    CHECK_EQ_INT(v.operands[0].kind, WA_OPND_VIRT);
    CHECK_EQ_INT(v.operands[1].kind, WA_OPND_OFF);
    CHECK_STATUS(wa_build_mubuf(NULL, prog, WA_OP_DS_READ_B32, v1, v1, s4, s1, NULL), WA_E_INVALID);

    /* global: data is the destination of loads and the source of stores */
    CHECK_OK(wa_build_global(NULL, prog, WA_OP_GLOBAL_LOAD_DWORD, v1, v2, wa_opnd_off(), NULL));
    v = last_item(prog);
    CHECK_EQ_UINT(v.operands[0].id, v1.id);
    CHECK_EQ_UINT(v.operands[1].id, v2.id);
    CHECK_OK(wa_build_global(NULL, prog, WA_OP_GLOBAL_STORE_DWORD, v1, v2, wa_opnd_off(), NULL));
    v = last_item(prog);
    CHECK_EQ_UINT(v.operands[0].id, v2.id); /* vaddr */
    CHECK_EQ_UINT(v.operands[1].id, v1.id); /* vdata */
    CHECK_EQ_INT(v.operands[2].kind, WA_OPND_OFF);
    CHECK_STATUS(wa_build_global(NULL, prog, WA_OP_BUFFER_LOAD_DWORD, v1, v2, none, NULL), WA_E_INVALID);

    /* DS: reads have vdst, writes do not */
    m = (wa_mods)WA_MODS_INIT;
    m.offset = 8;
    m.offset1 = 9;
    CHECK_OK(wa_build_ds(NULL, prog, WA_OP_DS_READ2_B32, v2, v1, none, none, &m));
    v = last_item(prog);
    CHECK_EQ_UINT(v.num_operands, 2);
    CHECK_EQ_INT(v.mods->offset1, 9);
    CHECK_OK(wa_build_ds(NULL, prog, WA_OP_DS_WRITE_B32, none, v1, v1, none, NULL));
    v = last_item(prog);
    CHECK_EQ_UINT(v.num_operands, 2);
    CHECK_OK(wa_build_ds(NULL, prog, WA_OP_DS_WRITE2_B64, none, v1, v2, v2, NULL));
    CHECK_EQ_UINT(last_item(prog).num_operands, 3);
    CHECK_STATUS(wa_build_ds(NULL, prog, WA_OP_DS_WRITE_B32, none, v1, none, none, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_build_ds(NULL, prog, WA_OP_V_MOV_B32, v1, v1, none, none, NULL), WA_E_INVALID);

    /* MFMA, plain and scaled */
    m = (wa_mods)WA_MODS_INIT;
    m.cbsz = 1;
    m.abid = 1;
    m.blgp = 2;
    CHECK_OK(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_F32_16X16X16_F16, a4, v2, v2, a4, none, none, &m));
    v = last_item(prog);
    CHECK_EQ_UINT(v.num_operands, 4);
    CHECK_EQ_UINT(v.mods->blgp, 2);
    wa_operand v8 = vreg(prog, WA_REG_VGPR, 8, 0);
    CHECK_OK(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4, v4, v8, v8,
                           wa_opnd_imm(0), v1, v1, NULL));
    CHECK_EQ_UINT(last_item(prog).num_operands, 6);
    CHECK_STATUS(wa_build_mfma(NULL, prog, WA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4, v4, v8, v8,
                               v4, none, none, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_build_mfma(NULL, prog, WA_OP_V_FMA_F32, v1, v1, v1, v1, none, none, NULL),
                 WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not a MFMA", UT_ANY, UT_ANY, WA_NO_TAG);

    /* s_waitcnt */
    CHECK_OK(wa_build_waitcnt(NULL, prog, 3, -1, 0));
    v = last_item(prog);
    CHECK_EQ_INT(v.opcode, WA_OP_S_WAITCNT);
    CHECK_EQ_UINT(v.num_operands, 0);
    CHECK_EQ_INT(v.mods->vmcnt, 3);
    CHECK_EQ_INT(v.mods->lgkmcnt, -1);
    CHECK_EQ_INT(v.mods->expcnt, 0);
    CHECK_STATUS(wa_build_waitcnt(NULL, prog, 200, 0, 0), WA_E_RANGE);
    CHECK_STATUS(wa_build_waitcnt(NULL, prog, 0, -2, 0), WA_E_RANGE);

    /* SOPP */
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 3));
    v = last_item(prog);
    CHECK_EQ_UINT(v.num_operands, 1);
    CHECK_EQ_INT(v.operands[0].kind, WA_OPND_IMM);
    CHECK_EQ_INT(v.operands[0].imm.i, 3);
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_BARRIER, 99));
    CHECK_EQ_UINT(last_item(prog).num_operands, 0);
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_SETPRIO, 2));
    CHECK_STATUS(wa_build_sopp(NULL, prog, WA_OP_S_WAITCNT, 0), WA_E_INVALID);
    CHECK_STATUS(wa_build_sopp(NULL, prog, WA_OP_S_BRANCH, 0), WA_E_INVALID);
    CHECK_STATUS(wa_build_sopp(NULL, prog, WA_OP_S_MOV_B32, 0), WA_E_INVALID);

    /* branches */
    wa_label l;
    REQUIRE_OK(wa_program_label_create(&l, prog, "out"));
    CHECK_OK(wa_build_branch(&tag, prog, WA_OP_S_CBRANCH_SCC1, l));
    v = last_item(prog);
    CHECK_EQ_INT(v.operands[0].kind, WA_OPND_LABEL);
    CHECK_EQ_UINT(v.operands[0].id, l);
    CHECK_STATUS(wa_build_branch(NULL, prog, WA_OP_S_ENDPGM, l), WA_E_INVALID);
    CHECK_STATUS(wa_build_branch(NULL, prog, WA_OP_S_BRANCH, l + 5), WA_E_INVALID);
    CHECK_OK(wa_build_label(prog, l));

    /* comments */
    CHECK_OK(wa_build_comment(prog, "hello world"));
    v = last_item(prog);
    CHECK_EQ_INT(v.opcode, WA_OP_COMMENT);
    CHECK_EQ_UINT(v.tag, WA_NO_TAG);
    CHECK_STR_EQ(v.comment, "hello world");
    CHECK_STATUS(wa_build_comment(prog, "two\nlines"), WA_E_INVALID);
    CHECK_STATUS(wa_build_comment(prog, NULL), WA_E_INVALID);

    /* generic builder */
    wa_operand ops[2] = { v1, wa_opnd_imm(7) };
    CHECK_OK(wa_build(&tag, prog, WA_OP_V_MOV_B32, ops, 2, NULL));
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_V_MOV_B32, ops, 1, NULL), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "v_mov_b32|2 operands", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_V_MOV_B32, NULL, 2, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_LABEL, ops, 1, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_COMMENT, NULL, 0, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_COUNT_, NULL, 0, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_build(NULL, prog, (wa_opcode)100000, NULL, 0, NULL), WA_E_INVALID);
    CHECK_OK(wa_build(NULL, prog, WA_OP_S_ENDPGM, NULL, 0, NULL));

    /* Tags count up in build order and failures consume none. */
    unsigned n = wa_program_size(prog), expect = 0;
    for (unsigned i = 0; i < n; i++) {
        REQUIRE_OK(wa_program_get(&v, prog, i));
        if (v.opcode == WA_OP_LABEL || v.opcode == WA_OP_COMMENT)
            continue;
        CHECK_EQ_UINT(v.tag, expect);
        expect++;
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Structural checks shared by all builders. */
static void structural_errors(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    wa_operand v1 = vreg(prog, WA_REG_VGPR, 1, 0);
    wa_operand v4 = vreg(prog, WA_REG_VGPR, 4, 0);
    wa_operand none = wa_opnd_none();

    /* unknown virtual register id */
    wa_operand ghost = v1;
    ghost.id = 42;
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, ghost, none, none), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "unknown virtual register 42", UT_ANY, UT_ANY, WA_NO_TAG);
    /* class of the operand does not match the register */
    wa_operand wrong = v1;
    wrong.reg_class = WA_REG_SGPR;
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wrong, none, none), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "class does not match", UT_ANY, UT_ANY, WA_NO_TAG);
    /* components outside the register */
    wa_operand outside = v4;
    outside.first = 3;
    outside.count = 2;
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, outside, none, none), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "components [3:4] outside", UT_ANY, UT_ANY, WA_NO_TAG);
    outside.first = 4;
    outside.count = 1;
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, outside, none, none), WA_E_INVALID);
    outside.first = 0xFFFFFFFFu;
    outside.count = 2;
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, outside, none, none), WA_E_INVALID);
    /* count 0 means "the rest of the register"; programs store the explicit count */
    wa_operand rest = v4;
    rest.first = 1;
    rest.count = 0;
    wa_tag t;
    CHECK_OK(wa_build_valu(&t, prog, WA_OP_V_MOV_B32, v1, rest, none, none));
    wa_instr_view view = last_item(prog);
    CHECK_EQ_UINT(view.operands[1].first, 1);
    CHECK_EQ_UINT(view.operands[1].count, 3);
    /* physical registers */
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_phys(WA_REG_NONE, 0, 1),
                               none, none), WA_E_INVALID);
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_phys(WA_REG_VGPR, 0, 0),
                               none, none), WA_E_INVALID);
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_phys(WA_REG_VGPR, 0, 33),
                               none, none), WA_E_INVALID);
    /* beyond what the text form spells (v255, a255, s127), in full or in part */
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_phys(WA_REG_VGPR, 256, 1),
                               none, none), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "bad physical register range", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_phys(WA_REG_VGPR, 367, 1),
                               none, none), WA_E_INVALID);
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_ACCVGPR_MOV_B32, wa_opnd_phys(WA_REG_AGPR, 254, 4),
                               wa_opnd_phys(WA_REG_AGPR, 0, 1), none, none), WA_E_INVALID);
    CHECK_STATUS(wa_build_salu(NULL, prog, WA_OP_S_MOV_B32, wa_opnd_phys(WA_REG_SGPR, 128, 1),
                               wa_opnd_imm(0), none), WA_E_INVALID);
    CHECK_STATUS(wa_build_salu(NULL, prog, WA_OP_S_MOV_B64, wa_opnd_phys(WA_REG_SGPR, 127, 2),
                               wa_opnd_imm(0), none), WA_E_INVALID);
    /* special registers */
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_special(WA_SPECIAL_COUNT_),
                               none, none), WA_E_INVALID);
    /* non-finite float immediates */
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_fimm(HUGE_VAL), none, none),
                 WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not finite", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_fimm(-HUGE_VAL), none, none),
                 WA_E_INVALID);
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, wa_opnd_fimm(nan("")), none, none),
                 WA_E_INVALID);
    /* unknown operand kinds */
    wa_operand odd = wa_opnd_none();
    odd.kind = 99;
    CHECK_STATUS(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v1, odd, none, none), WA_E_INVALID);
    /* bad modifier versions */
    wa_mods m = WA_MODS_INIT;
    m.version = 0;
    CHECK_STATUS(wa_build_global(NULL, prog, WA_OP_GLOBAL_LOAD_DWORD, v1, wa_opnd_sub(v4, 0, 2),
                                 wa_opnd_off(), &m), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "wa_mods version 0", UT_ANY, UT_ANY, WA_NO_TAG);
    m.version = WA_MODS_VERSION + 1;
    CHECK_STATUS(wa_build_mubuf(NULL, prog, WA_OP_BUFFER_LOAD_DWORD, v1, v1, wa_opnd_phys(WA_REG_SGPR, 0, 4),
                                wa_opnd_imm(0), &m), WA_E_INVALID);
    CHECK_STATUS(wa_build_ds(NULL, prog, WA_OP_DS_READ_B32, v1, v1, none, none, &m), WA_E_INVALID);
    /* a label operand must name a label */
    CHECK_STATUS(wa_build_branch(NULL, prog, WA_OP_S_BRANCH, 0), WA_E_INVALID);
    /* failures added nothing */
    CHECK_EQ_UINT(wa_program_size(prog), 1);
    /* NULL program */
    CHECK_STATUS(wa_build_valu(NULL, NULL, WA_OP_V_MOV_B32, v1, v1, none, none), WA_E_INVALID);
    CHECK_STATUS(wa_build_sopp(NULL, NULL, WA_OP_S_ENDPGM, 0), WA_E_INVALID);
    CHECK_STATUS(wa_build_label(NULL, 0), WA_E_INVALID);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Builders check structure only; target rules wait for the validator. */
static void builder_defers_target_rules(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX90A);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    wa_operand v1 = vreg(prog, WA_REG_VGPR, 1, 0);
    wa_operand a1 = vreg(prog, WA_REG_AGPR, 1, 0);
    wa_operand v4 = vreg(prog, WA_REG_VGPR, 4, 0);
    wa_operand none = wa_opnd_none();
    /* gfx950-only opcode on gfx90a, AGPR in a VALU source, s_nop out of range */
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_CVT_PK_BF16_F32, v1, v1, v1, none));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_ADD_U32, v1, a1, v1, none));
    CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_NOP, 1000));
    CHECK_OK(wa_build_waitcnt(NULL, prog, 100, 100, 100));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, v4, v1, none, none));
    CHECK_EQ_UINT(wa_program_size(prog), 5);
    unsigned nerr = 0;
    CHECK_STATUS(wa_program_validate(&nerr, prog, NULL), WA_E_VALIDATE);
    CHECK(nerr >= 5);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Random but structurally valid instructions: validate, print and emit must not
   crash and must answer with the documented statuses. */
static uint64_t rng_state = 0x853C49E6748FEA9Bull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ull) >> 33) % n;
}

static wa_operand random_operand(wa_program *prog, const wa_operand *vregs, unsigned nv, wa_label l)
{
    static const int64_t imms[] = { 0, 1, -1, 64, 65, -16, -17, 0x3f800000, 0xffffffffll,
                                    0x100000000ll, INT64_MIN, INT64_MAX, 4095, 4096, 1048576 };
    static const double fimms[] = { 0.5, -4.0, 1.5, -0.0, 1e30, 1e-30, 0.15915494309189532 };
    (void)prog;
    switch (rnd(9)) {
    case 0: {
        static const wa_reg_class cls[] = { WA_REG_VGPR, WA_REG_SGPR, WA_REG_AGPR };
        return wa_opnd_phys(cls[rnd(3)], rnd(300), 1 + rnd(8));
    }
    case 1:
    case 2: {
        wa_operand v = vregs[rnd(nv)];
        if (rnd(3) == 0) {
            unsigned first = rnd(v.count), count = 1 + rnd(v.count - first);
            v = wa_opnd_sub(v, first, count);
        }
        return v;
    }
    case 3: return wa_opnd_special((wa_special)rnd(WA_SPECIAL_COUNT_));
    case 4: return wa_opnd_imm(imms[rnd(sizeof(imms) / sizeof(imms[0]))]);
    case 5: return wa_opnd_fimm(fimms[rnd(sizeof(fimms) / sizeof(fimms[0]))]);
    case 6: return wa_opnd_label(l);
    case 7: return wa_opnd_off();
    default: return wa_opnd_phys(WA_REG_VGPR, 2 * rnd(8), 2);
    }
}

static void random_programs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const wa_target targets[] = { WA_TARGET_GFX90A, WA_TARGET_GFX942, WA_TARGET_GFX950 };
    unsigned invalid = 0;
    for (unsigned round = 0; round < 300; round++) {
        ut_context("round %u", round);
        wa_program *prog = NULL;
        REQUIRE_OK(wa_program_create(&prog, ctx, "r"));
        REQUIRE_OK(wa_program_set_target(prog, targets[rnd(3)]));
        wa_operand vregs[6];
        static const unsigned sizes[] = { 1, 2, 4, 8, 16, 3 };
        for (unsigned i = 0; i < 6; i++)
            REQUIRE_OK(wa_program_vreg(&vregs[i], prog, (wa_reg_class)(1 + rnd(3)), sizes[i], rnd(2) ? 0 : 1u << rnd(4)));
        wa_label l;
        REQUIRE_OK(wa_program_label_create(&l, prog, NULL));
        for (unsigned k = 0; k < 12; k++) {
            unsigned op;
            do
                op = rnd(wa_isa_count());
            while (wa_isa_get(op)->flags & WA_IF_PSEUDO);
            const wa_isa_info *info = wa_isa_get(op);
            wa_operand ops[WA_ISA_MAX_OPERANDS];
            for (unsigned i = 0; i < info->num_operands; i++)
                ops[i] = random_operand(prog, vregs, 6, l);
            wa_mods m = WA_MODS_INIT;
            if (rnd(2)) {
                m.flags = rnd(64);
                m.offset = (int32_t)rnd(10000) - 5000;
                m.offset1 = (int32_t)rnd(300);
                m.cbsz = (uint8_t)rnd(10);
                m.abid = (uint8_t)rnd(20);
                m.blgp = (uint8_t)rnd(10);
                m.op_sel = (uint8_t)rnd(8);
                m.vmcnt = (int8_t)((int)rnd(130) - 1);
            }
            wa_status st = wa_build(NULL, prog, (wa_opcode)op, ops, info->num_operands, &m);
            CHECK_MSG(st == WA_OK || st == WA_E_INVALID, "build %s: %d", info->mnemonic, (int)st);
            if (k == 6)
                CHECK_OK(wa_build_label(prog, l));
        }
        CHECK_OK(wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0));
        unsigned nerr = 0;
        wa_status st = wa_program_validate(&nerr, prog, NULL);
        CHECK(st == WA_OK || st == WA_E_VALIDATE);
        if (st != WA_OK)
            invalid++;
        for (unsigned i = 0; i < wa_context_diag_count(ctx); i++) {
            const wa_diag *d = wa_context_diag(ctx, i);
            CHECK(d && d->message && d->message[0]);
        }
        char *text = NULL;
        CHECK_OK(wa_program_print(&text, NULL, prog, NULL));
        if (st == WA_OK && text) {
            /* a valid program reads back as itself */
            wa_program *back = NULL;
            wa_status pst = wa_program_parse(&back, ctx, text, strlen(text), "r.wa");
            CHECK_MSG(pst == WA_OK, "valid program does not read back:%s\n%s", ut_diags_text(ctx), text);
            if (back)
                CHECK_MSG(wa_program_equal(prog, back), "valid program reads back differently:\n%s", text);
            wa_program_destroy(back);
        }
        wa_free(text);
        char *asm_text = NULL;
        st = wa_emit_asm(&asm_text, NULL, prog, NULL);
        CHECK(st == WA_OK || st == WA_E_VALIDATE);
        wa_free(asm_text);
        wa_kernel_resources r;
        st = wa_kernel_resources_compute(&r, prog);
        CHECK(st == WA_OK || st == WA_E_VALIDATE);
        for (unsigned i = 0; i < wa_program_size(prog); i++) {
            char *item = NULL;
            CHECK_OK(wa_program_print_item(&item, prog, i, NULL));
            wa_free(item);
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    CHECK(invalid > 0);
    wa_context_destroy(ctx);
}

/* wa_build_hwreg puts the field where the row has it (s_getreg: second; s_setreg:
   first); wa_build_valu builds the dot products and compares with EXEC; 5-operand
   v_div_scale_f32 goes through wa_build. */
static void hwreg_and_new_rows(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = new_program(ctx);
    REQUIRE(prog);
    wa_operand s1 = vreg(prog, WA_REG_SGPR, 1, 0);
    wa_operand v1 = vreg(prog, WA_REG_VGPR, 1, 0);
    wa_operand none = wa_opnd_none();
    wa_instr_view v;
    CHECK_OK(wa_build_hwreg(NULL, prog, WA_OP_S_GETREG_B32, WA_HWREG(WA_HWREG_MODE, 4, 4), s1));
    v = last_item(prog);
    CHECK_EQ_UINT(v.num_operands, 2);
    CHECK_EQ_INT(v.operands[0].kind, WA_OPND_VIRT);
    CHECK_EQ_INT(v.operands[1].imm.i, 0x1901);
    CHECK_OK(wa_build_hwreg(NULL, prog, WA_OP_S_SETREG_B32, WA_HWREG(WA_HWREG_MODE, 0, 4), s1));
    v = last_item(prog);
    CHECK_EQ_INT(v.operands[0].imm.i, 0x1801);
    CHECK_EQ_INT(v.operands[1].kind, WA_OPND_VIRT);
    CHECK_OK(wa_build_hwreg(NULL, prog, WA_OP_S_SETREG_IMM32_B32, WA_HWREG(2, 1, 1), wa_opnd_imm(5)));
    CHECK_EQ_INT(last_item(prog).operands[1].imm.i, 5);
    CHECK_STATUS(wa_build_hwreg(NULL, prog, WA_OP_S_MOV_B32, 1, s1), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "s_mov_b32 is not a hwreg", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_build_hwreg(NULL, prog, WA_OP_S_GETREG_B32, 0x10000, s1), WA_E_RANGE);
    CHECK_STATUS(wa_build_hwreg(NULL, NULL, WA_OP_S_GETREG_B32, 1, s1), WA_E_INVALID);

    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_DOT2_F32_F16, v1, v1, v1, v1));
    CHECK_OK(wa_build_valu(NULL, prog, WA_OP_V_CMPX_EQ_U32, wa_opnd_special(WA_SPECIAL_VCC), v1,
                           v1, none));
    wa_operand ops[5] = { v1, wa_opnd_special(WA_SPECIAL_VCC), v1, v1, v1 };
    CHECK_OK(wa_build(NULL, prog, WA_OP_V_DIV_SCALE_F32, ops, 5, NULL));
    CHECK_STATUS(wa_build(NULL, prog, WA_OP_V_DIV_SCALE_F32, ops, 4, NULL), WA_E_INVALID);
    CHECK_OK(wa_build_salu(NULL, prog, WA_OP_S_MOVRELS_B32, s1, wa_opnd_phys(WA_REG_SGPR, 8, 1),
                           none));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Automatic offsets stay right with many arguments of mixed sizes and
   alignments, explicit offsets in between (also below the end), and in clones
   and parsed programs. */
static void kernel_args_at_scale(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(wa_program_create(&prog, ctx, "k"));
    static const unsigned sizes[] = { 1, 8, 2, 4, 3, 16, 1, 12 };
    static const unsigned aligns[] = { 1, 8, 2, 4, 1, 16, 0, 4 };
    unsigned long long end = 0; /* the furthest end so far, computed here */
    int bad = 0;
    for (unsigned i = 0; i < 20000 && !bad; i++) {
        wa_kernel_arg a = WA_KERNEL_ARG_INIT;
        a.size = sizes[i % 8];
        a.align = aligns[i % 8];
        unsigned align = a.align ? a.align : 1; /* natural alignment of a 1-byte argument */
        unsigned long long want = (end + align - 1) / align * align;
        if (i % 997 == 500) { /* explicit, past the end */
            a.offset = (unsigned)end + 40u;
            want = a.offset;
        } else if (i % 997 == 800) { /* explicit, inside the segment: the end stays */
            a.offset = 0;
            want = 0;
        }
        unsigned idx = 0;
        wa_kernel_arg got;
        if (!CHECK_OK(wa_program_add_arg(&idx, prog, &a)) || !CHECK_OK(wa_program_arg(&got, prog, idx)))
            break;
        if (!CHECK_EQ_UINT(got.offset, want))
            bad = 1;
        if (want + a.size > end)
            end = want + a.size;
    }
    CHECK_EQ_UINT(wa_program_arg_count(prog), 20000);
    CHECK_EQ_UINT(wa_program_kernarg_size(prog), (end + 7) / 8 * 8);

    /* a clone continues after the same end */
    wa_program *copy = NULL;
    REQUIRE_OK(wa_program_clone(&copy, prog));
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.size = 4;
    unsigned idx = 0;
    wa_kernel_arg got;
    CHECK_OK(wa_program_add_arg(&idx, copy, &a));
    CHECK_OK(wa_program_arg(&got, copy, idx));
    CHECK_EQ_UINT(got.offset, (end + 3) / 4 * 4);
    wa_program_destroy(copy);

    /* so does a parsed program, whose arguments have explicit offsets */
    static const char text[] = ".kernel p\n  .arg x, by_value, offset:64, size:4\n"
                               "  .arg y, by_value, offset:0, size:8\n  s_endpgm\n.end_kernel\n";
    REQUIRE_OK(wa_program_parse(&copy, ctx, text, strlen(text), "p.wa"));
    a.size = 8;
    CHECK_OK(wa_program_add_arg(&idx, copy, &a));
    CHECK_OK(wa_program_arg(&got, copy, idx));
    CHECK_EQ_UINT(got.offset, 72);
    wa_program_destroy(copy);

    /* an automatic offset that would pass 4 GiB is an error, not a wrapped offset */
    REQUIRE_OK(wa_program_create(&copy, ctx, "far"));
    a.offset = 0xFFFFFFF0u;
    a.size = 15;
    a.align = 1;
    CHECK_OK(wa_program_add_arg(NULL, copy, &a));
    a.offset = WA_ARG_OFFSET_AUTO;
    a.size = 1;
    CHECK_STATUS(wa_program_add_arg(NULL, copy, &a), WA_E_RANGE);
    CHECK_LAST_DIAG(ctx, WA_E_RANGE, "offset out of range", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_EQ_UINT(wa_program_arg_count(copy), 1);
    wa_program_destroy(copy);

    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

UT_SUITE(
    UT_CASE(program_defaults)
    UT_CASE(attribute_setters)
    UT_CASE(abi_layout)
    UT_CASE(kernel_args)
    UT_CASE(kernel_args_at_scale)
    UT_CASE(virtual_registers)
    UT_CASE(operand_constructors)
    UT_CASE(labels)
    UT_CASE(family_builders)
    UT_CASE(structural_errors)
    UT_CASE(builder_defers_target_rules)
    UT_CASE(random_programs)
    UT_CASE(hwreg_and_new_rows)
);
