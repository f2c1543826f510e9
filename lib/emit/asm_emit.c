/* lib/emit/asm_emit.c — a complete assembly file for one kernel: code, the
   `.amdhsa_kernel` descriptor and code-object-v5 metadata. The output is meant for
   llvm-mc (-triple=amdgcn-amd-amdhsa) followed by ld.lld -shared. */
#include "emit.h"

#include <waveasm/validate.h>

#include <stdio.h>
#include <string.h>

/* YAML single-quoted scalar: a quote is written twice. */
static void yaml_quoted(wa_sb *sb, const char *s)
{
    wa_sb_putc(sb, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            wa_sb_putc(sb, '\'');
        wa_sb_putc(sb, *s);
    }
    wa_sb_putc(sb, '\'');
}

static void emit_body(wa_sb *sb, const wa_program *prog, unsigned flags)
{
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        if (in->op == WA_OP_LABEL) {
            wa_sb_puts(sb, prog->labels[in->ops[0].id].name);
            wa_sb_putn(sb, ":\n", 2);
            continue;
        }
        if (in->op == WA_OP_COMMENT) {
            if (flags & WA_EMIT_COMMENTS)
                wa_sb_printf(sb, "\t; %s\n", in->comment ? in->comment : "");
            continue;
        }
        size_t start = sb->len;
        wa_sb_putc(sb, '\t');
        wa_format_instr(sb, prog, in, NULL, WA_FMT_ASM | WA_FMT_NO_DECL);
        wa_format_trailer(sb, start, 48, (flags & WA_EMIT_TAGS) ? in->tag : WA_NO_TAG,
                          (flags & WA_EMIT_COMMENTS) ? in->comment : NULL);
        wa_sb_putc(sb, '\n');
    }
}

static void emit_descriptor(wa_sb *sb, const wa_program *prog, const wa_kernel_resources *r)
{
    wa_kd_fields kd;
    wa_kd_fields_compute(&kd, prog, r);
    wa_sb_puts(sb, "\t.rodata\n\t.p2align\t6\n");
    wa_sb_printf(sb, "\t.amdhsa_kernel %s\n", prog->name);
    wa_sb_printf(sb, "\t\t.amdhsa_group_segment_fixed_size %u\n", kd.group_segment_fixed_size);
    wa_sb_printf(sb, "\t\t.amdhsa_private_segment_fixed_size %u\n", kd.private_segment_fixed_size);
    wa_sb_printf(sb, "\t\t.amdhsa_kernarg_size %u\n", kd.kernarg_size);
    wa_sb_printf(sb, "\t\t.amdhsa_user_sgpr_count %u\n", kd.user_sgpr_count);
    wa_sb_printf(sb, "\t\t.amdhsa_user_sgpr_dispatch_ptr %u\n", kd.user_sgpr_dispatch_ptr);
    wa_sb_printf(sb, "\t\t.amdhsa_user_sgpr_queue_ptr %u\n", kd.user_sgpr_queue_ptr);
    wa_sb_printf(sb, "\t\t.amdhsa_user_sgpr_kernarg_segment_ptr %u\n",
                 kd.user_sgpr_kernarg_segment_ptr);
    wa_sb_printf(sb, "\t\t.amdhsa_user_sgpr_dispatch_id %u\n", kd.user_sgpr_dispatch_id);
    wa_sb_printf(sb, "\t\t.amdhsa_user_sgpr_private_segment_size %u\n",
                 kd.user_sgpr_private_segment_size);
    wa_sb_printf(sb, "\t\t.amdhsa_system_sgpr_workgroup_id_x %u\n", kd.workgroup_id_x);
    wa_sb_printf(sb, "\t\t.amdhsa_system_sgpr_workgroup_id_y %u\n", kd.workgroup_id_y);
    wa_sb_printf(sb, "\t\t.amdhsa_system_sgpr_workgroup_id_z %u\n", kd.workgroup_id_z);
    wa_sb_printf(sb, "\t\t.amdhsa_system_sgpr_workgroup_info %u\n", kd.workgroup_info);
    wa_sb_printf(sb, "\t\t.amdhsa_system_vgpr_workitem_id %u\n", kd.workitem_id);
    wa_sb_printf(sb, "\t\t.amdhsa_next_free_vgpr %u\n", kd.next_free_vgpr);
    wa_sb_printf(sb, "\t\t.amdhsa_next_free_sgpr %u\n", kd.next_free_sgpr);
    wa_sb_printf(sb, "\t\t.amdhsa_accum_offset %u\n", kd.accum_offset);
    wa_sb_printf(sb, "\t\t.amdhsa_reserve_vcc %u\n", kd.reserve_vcc);
    wa_sb_printf(sb, "\t\t.amdhsa_float_round_mode_32 %u\n", kd.float_round_mode_32);
    wa_sb_printf(sb, "\t\t.amdhsa_float_round_mode_16_64 %u\n", kd.float_round_mode_16_64);
    wa_sb_printf(sb, "\t\t.amdhsa_float_denorm_mode_32 %u\n", kd.float_denorm_mode_32);
    wa_sb_printf(sb, "\t\t.amdhsa_float_denorm_mode_16_64 %u\n", kd.float_denorm_mode_16_64);
    wa_sb_printf(sb, "\t\t.amdhsa_dx10_clamp %u\n", kd.dx10_clamp);
    wa_sb_printf(sb, "\t\t.amdhsa_ieee_mode %u\n", kd.ieee_mode);
    wa_sb_printf(sb, "\t\t.amdhsa_fp16_overflow %u\n", kd.fp16_overflow);
    wa_sb_printf(sb, "\t\t.amdhsa_tg_split %u\n", kd.tg_split);
    wa_sb_puts(sb, "\t.end_amdhsa_kernel\n");
    /* Granules the assembler must derive from the counts above (for readers). */
    wa_sb_printf(sb, "\t; vgpr granules %u, sgpr granules %u, rsrc1 0x%08x, rsrc2 0x%08x, rsrc3 0x%08x, occupancy %u waves/SIMD\n",
                 kd.vgpr_granules, kd.sgpr_granules, kd.rsrc1, kd.rsrc2, kd.rsrc3,
                 r->waves_per_simd);
}

unsigned wa_kernarg_align(const wa_program *prog)
{
    unsigned a = 4;
    for (unsigned i = 0; i < prog->nargs; i++)
        if (prog->args[i].arg.align > a)
            a = prog->args[i].arg.align;
    return a;
}

void wa_target_id(char *out, size_t n, const wa_program *prog)
{
    static const char *const sign[] = { "", "-", "+" };
    wa_feature sram = wa_context_sramecc(prog->ctx), xnack = wa_context_xnack(prog->ctx);
    snprintf(out, n, "%s%s%s%s%s", wa_target_name(prog->target),
             sram != WA_FEATURE_ANY ? ":sramecc" : "", sign[sram],
             xnack != WA_FEATURE_ANY ? ":xnack" : "", sign[xnack]);
}

static void emit_metadata(wa_sb *sb, const wa_program *prog, const wa_kernel_resources *r)
{
    char target[64];
    wa_target_id(target, sizeof(target), prog);
    wa_sb_puts(sb, "\t.amdgpu_metadata\n---\namdhsa.kernels:\n");
    wa_sb_puts(sb, "  - .args:");
    if (prog->nargs == 0)
        wa_sb_puts(sb, " []");
    wa_sb_putc(sb, '\n');
    for (unsigned i = 0; i < prog->nargs; i++) {
        const wa_kernel_arg *a = &prog->args[i].arg;
        wa_sb_puts(sb, "      - ");
        const char *lead = "";
        if (a->kind == WA_ARG_GLOBAL_BUFFER) {
            wa_sb_puts(sb, ".address_space: global\n");
            lead = "        ";
        } else if (a->kind == WA_ARG_DYNAMIC_SHARED_POINTER) {
            wa_sb_puts(sb, ".address_space: local\n");
            lead = "        ";
        }
        if (a->kind == WA_ARG_GLOBAL_BUFFER && (a->flags & WA_ARG_CONST)) {
            wa_sb_printf(sb, "%s.is_const: true\n", lead);
            lead = "        ";
        }
        if (a->flags & WA_ARG_RESTRICT) {
            wa_sb_printf(sb, "%s.is_restrict: true\n", lead);
            lead = "        ";
        }
        if (a->flags & WA_ARG_VOLATILE) {
            wa_sb_printf(sb, "%s.is_volatile: true\n", lead);
            lead = "        ";
        }
        if (a->name) {
            wa_sb_printf(sb, "%s.name: ", lead);
            yaml_quoted(sb, a->name);
            wa_sb_putc(sb, '\n');
            lead = "        ";
        }
        wa_sb_printf(sb, "%s.offset: %u\n", lead, a->offset);
        wa_sb_printf(sb, "        .size: %u\n", a->size);
        wa_sb_printf(sb, "        .value_kind: %s\n", wa_arg_kind_name(a->kind));
    }
    wa_sb_printf(sb, "    .agpr_count: %u\n", r->agprs);
    wa_sb_printf(sb, "    .group_segment_fixed_size: %u\n", r->group_segment_size);
    wa_sb_printf(sb, "    .kernarg_segment_align: %u\n", wa_kernarg_align(prog));
    wa_sb_printf(sb, "    .kernarg_segment_size: %u\n", r->kernarg_size);
    wa_sb_printf(sb, "    .max_flat_workgroup_size: %u\n", prog->wg[0] * prog->wg[1] * prog->wg[2]);
    wa_sb_printf(sb, "    .name: '%s'\n", prog->name);
    wa_sb_puts(sb, "    .private_segment_fixed_size: 0\n");
    wa_sb_printf(sb, "    .reqd_workgroup_size: [ %u, %u, %u ]\n", prog->wg[0], prog->wg[1],
                 prog->wg[2]);
    wa_sb_printf(sb, "    .sgpr_count: %u\n", r->sgpr_count);
    wa_sb_puts(sb, "    .sgpr_spill_count: 0\n");
    wa_sb_printf(sb, "    .symbol: '%s.kd'\n", prog->name);
    wa_sb_printf(sb, "    .vgpr_count: %u\n", r->total_vgprs);
    wa_sb_puts(sb, "    .vgpr_spill_count: 0\n");
    wa_sb_puts(sb, "    .wavefront_size: 64\n");
    wa_sb_printf(sb, "amdhsa.target: amdgcn-amd-amdhsa--%s\n", target);
    wa_sb_puts(sb, "amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n");
}

wa_status wa_emit_asm(char **out, size_t *out_len, const wa_program *prog,
                      const wa_emit_options *opts)
{
    if (!out || !prog)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = prog->ctx;
    wa_emit_options defaults = WA_EMIT_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    wa_diag_reset(ctx);
    if (opts->version < 1 || opts->version > WA_EMIT_OPTIONS_VERSION)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_emit_options version %u",
                        opts->version);
    if (opts->code_object_version != 5)
        return wa_error(ctx, WA_E_UNSUPPORTED, WA_LOC_NONE,
                        "code object version %u is not supported (only 5)",
                        opts->code_object_version);
    wa_validate_options vopts = WA_VALIDATE_OPTIONS_INIT;
    vopts.flags = WA_VALIDATE_PHYSICAL;
    wa_status st = wa_program_validate(NULL, prog, &vopts);
    if (st)
        return st;

    wa_kernel_resources r;
    wa_resources_compute(&r, prog);
    char target[64];
    wa_target_id(target, sizeof(target), prog);
    wa_sb sb;
    wa_sb_init_user(&sb, ctx);
    wa_sb_printf(&sb, "\t.amdgcn_target \"amdgcn-amd-amdhsa--%s\"\n", target);
    wa_sb_puts(&sb, "\t.amdhsa_code_object_version 5\n");
    wa_sb_puts(&sb, "\t.text\n");
    wa_sb_printf(&sb, "\t.globl\t%s\n", prog->name);
    wa_sb_puts(&sb, "\t.p2align\t8\n");
    wa_sb_printf(&sb, "\t.type\t%s,@function\n", prog->name);
    wa_sb_printf(&sb, "%s:\n", prog->name);
    emit_body(&sb, prog, opts->flags);
    wa_sb_printf(&sb, ".Lwa_end_%s:\n", prog->name);
    wa_sb_printf(&sb, "\t.size\t%s, .Lwa_end_%s-%s\n", prog->name, prog->name, prog->name);
    /* Instruction prefetch may read past the end: pad with s_nop like LLVM does. */
    wa_sb_printf(&sb, "\t.p2align\t2\n\t.fill %u, 4, 0x%08x\n\n", WA_CODE_TAIL_NOPS, WA_S_NOP_0);
    emit_descriptor(&sb, prog, &r);
    wa_sb_puts(&sb, "\t.text\n\n");
    emit_metadata(&sb, prog, &r);
    return wa_sb_finish(&sb, out, out_len);
}
