/* lib/ir/printer.c — the text form (docs/text-format.md). The output parses back
   to an equal program and printing that again gives the same text. */
#include <waveasm/text.h>

#include "ir.h"

#include <string.h>

#define TAG_COLUMN 48

static void print_header(wa_sb *sb, const wa_program *prog, unsigned char *declared,
                         const unsigned char *referenced)
{
    wa_sb_printf(sb, ".kernel %s\n", prog->name);
    wa_sb_printf(sb, "  .target %s\n", wa_target_name(prog->target) ? wa_target_name(prog->target)
                                                                     : "unknown");
    wa_sb_printf(sb, "  .workgroup_size %u, %u, %u\n", prog->wg[0], prog->wg[1], prog->wg[2]);
    wa_sb_printf(sb, "  .lds_bytes %u\n", prog->lds_bytes);
    wa_sb_puts(sb, "  .abi");
    int any = 0;
    for (unsigned in = 0; in < WA_ABI_COUNT_; in++) {
        if (prog->abi_mask & WA_ABI_BIT(in)) {
            wa_sb_printf(sb, "%s %s", any ? "," : "", wa_abi_input_name((wa_abi_input)in));
            any = 1;
        }
    }
    wa_sb_puts(sb, any ? "\n" : " none\n");
    for (unsigned i = 0; i < prog->nargs; i++) {
        const wa_kernel_arg *a = &prog->args[i].arg;
        wa_sb_printf(sb, "  .arg %s, %s, offset:%u, size:%u, align:%u", a->name ? a->name : "-",
                     wa_arg_kind_name(a->kind), a->offset, a->size, a->align);
        if (a->flags & WA_ARG_CONST)
            wa_sb_puts(sb, ", const");
        if (a->flags & WA_ARG_RESTRICT)
            wa_sb_puts(sb, ", restrict");
        if (a->flags & WA_ARG_VOLATILE)
            wa_sb_puts(sb, ", volatile");
        wa_sb_putc(sb, '\n');
    }
    /* Registers no instruction mentions still belong to the program. */
    int first = 1;
    for (unsigned id = 0; id < prog->nvregs; id++) {
        if (prog->vregs[id].cls == WA_REG_NONE || referenced[id])
            continue;
        wa_operand o = wa_opnd_none();
        o.kind = WA_OPND_VIRT;
        o.reg_class = prog->vregs[id].cls;
        o.id = id;
        o.count = (uint16_t)prog->vregs[id].size;
        wa_sb_puts(sb, first ? "  .vreg " : ", ");
        wa_format_operand(sb, prog, &o, declared, 0);
        first = 0;
    }
    if (!first)
        wa_sb_putc(sb, '\n');
}

static void print_item(wa_sb *sb, const wa_program *prog, const wa_instr *in,
                       unsigned char *declared, unsigned flags)
{
    if (in->op == WA_OP_LABEL) {
        wa_sb_puts(sb, prog->labels[in->ops[0].id].name);
        wa_sb_putc(sb, ':');
        return;
    }
    if (in->op == WA_OP_COMMENT) {
        wa_sb_putn(sb, "  ;", 3);
        if (in->comment && in->comment[0]) {
            wa_sb_putc(sb, ' ');
            wa_sb_puts(sb, in->comment);
        }
        return;
    }
    size_t start = sb->len;
    wa_sb_putn(sb, "  ", 2);
    wa_format_instr(sb, prog, in, declared, 0);
    wa_format_trailer(sb, start, TAG_COLUMN, (flags & WA_PRINT_TAGS) ? in->tag : WA_NO_TAG,
                      (flags & WA_PRINT_COMMENTS) ? in->comment : NULL);
}

static wa_status check_print_options(const wa_program *prog, const wa_print_options *opts,
                                     unsigned *flags)
{
    wa_print_options defaults = WA_PRINT_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    if (opts->version < 1 || opts->version > WA_PRINT_OPTIONS_VERSION)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "unknown wa_print_options version %u", opts->version);
    *flags = opts->flags;
    return WA_OK;
}

wa_status wa_program_print(char **out, size_t *out_len, const wa_program *prog,
                           const wa_print_options *opts)
{
    if (!out || !prog)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    unsigned flags = 0;
    wa_status st = check_print_options(prog, opts, &flags);
    if (st)
        return st;
    unsigned char *declared = wa_mem_calloc(ctx, prog->nvregs + 1, 2);
    if (!declared)
        return wa_error_nomem(ctx);
    unsigned char *referenced = declared + prog->nvregs + 1;
    for (unsigned i = 0; i < prog->ninstrs; i++)
        for (unsigned k = 0; k < prog->instrs[i].nops; k++)
            if (prog->instrs[i].ops[k].kind == WA_OPND_VIRT)
                referenced[prog->instrs[i].ops[k].id] = 1;

    wa_sb sb;
    wa_sb_init_user(&sb, ctx);
    print_header(&sb, prog, declared, referenced);
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        if (in->op == WA_OP_COMMENT && !(flags & WA_PRINT_COMMENTS))
            continue;
        print_item(&sb, prog, in, declared, flags);
        wa_sb_putc(&sb, '\n');
    }
    wa_sb_puts(&sb, ".end_kernel\n");
    wa_mem_free(ctx, declared);
    return wa_sb_finish(&sb, out, out_len);
}

wa_status wa_program_print_item(char **out, const wa_program *prog, unsigned index,
                                const wa_print_options *opts)
{
    if (!out || !prog)
        return WA_E_INVALID;
    *out = NULL;
    wa_diag_reset(prog->ctx);
    if (index >= prog->ninstrs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE, "item %u out of range", index);
    unsigned flags = 0;
    wa_status st = check_print_options(prog, opts, &flags);
    if (st)
        return st;
    wa_sb sb;
    wa_sb_init(&sb, prog->ctx);
    const wa_instr *in = &prog->instrs[index];
    if (in->op == WA_OP_LABEL) {
        wa_sb_printf(&sb, "%s:", prog->labels[in->ops[0].id].name);
    } else if (in->op == WA_OP_COMMENT) {
        wa_sb_printf(&sb, "; %s", in->comment ? in->comment : "");
    } else {
        wa_format_instr(&sb, prog, in, NULL, WA_FMT_NO_DECL);
        int tag = (flags & WA_PRINT_TAGS) && in->tag != WA_NO_TAG;
        int comment = (flags & WA_PRINT_COMMENTS) && in->comment;
        if (tag || comment) {
            wa_sb_puts(&sb, " ;");
            if (tag)
                wa_sb_printf(&sb, " @I%u", in->tag);
            if (comment)
                wa_sb_printf(&sb, " %s", in->comment);
        }
    }
    return wa_sb_finish(&sb, out, NULL);
}
