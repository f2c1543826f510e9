/* lib/ir/program.c — program lifetime, attributes, registers, labels, the item
   list and its structural checks. */
#include "ir.h"

#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

static wa_loc prog_loc(const wa_program *prog)
{
    wa_loc loc = { prog->file, prog->header_line, prog->header_line ? 1u : 0u, WA_NO_TAG };
    return loc;
}

wa_loc wa_instr_loc(const wa_program *prog, const wa_instr *in)
{
    wa_loc loc = { prog->file, in->line, in->col, in->tag };
    return loc;
}

int wa_symbol_valid(const char *name)
{
    if (!name || !name[0])
        return 0;
    const unsigned char *p = (const unsigned char *)name;
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == '.'))
        return 0;
    for (p++; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '.' || *p == '$'))
            return 0;
    return (size_t)(p - (const unsigned char *)name) <= 255;
}

int wa_kernel_name_valid(const char *name)
{
    return wa_symbol_valid(name) && strncmp(name, ".L", 2) != 0;
}

/* 1 if `name` is `prefix` followed by decimal digits only (v7, ttmp12, acc0). */
static int prefix_digits(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0 || !name[n])
        return 0;
    for (const char *p = name + n; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

/* The names the AMDGPU assembler reads as registers or special operands where a
   branch target goes (it then refuses the instruction), on gfx90a, gfx942 and
   gfx950; tests/toolchain checks each one against llvm-mc. Register names are
   a prefix followed by digits only: v1_loop and s0done are ordinary symbols. */
static const char *const asm_register_prefixes[] = { "v", "s", "a", "acc", "ttmp" };
static const char *const asm_special_names[] = {
    "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "scc", "vccz", "execz",
    "flat_scratch", "flat_scratch_lo", "flat_scratch_hi", "xnack_mask", "xnack_mask_lo",
    "xnack_mask_hi", "tba", "tba_lo", "tba_hi", "tma", "tma_lo", "tma_hi", "pc", "null",
    "shared_base", "shared_limit", "private_base", "private_limit", "pops_exiting_wave_id",
    "lds_direct", "src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit",
    "src_pops_exiting_wave_id", "src_lds_direct", "src_vccz", "src_execz", "src_scc",
    "src_flat_scratch_base_lo", "src_flat_scratch_base_hi",
};
/* Words of the text form itself: the address keyword and the kernel delimiters. */
static const char *const text_form_words[] = { "off", ".kernel", ".end_kernel" };

int wa_label_name_valid(const char *name)
{
    if (!wa_symbol_valid(name))
        return 0;
    for (unsigned i = 0; i < sizeof(asm_register_prefixes) / sizeof(asm_register_prefixes[0]); i++)
        if (prefix_digits(name, asm_register_prefixes[i]))
            return 0;
    for (unsigned i = 0; i < sizeof(asm_special_names) / sizeof(asm_special_names[0]); i++)
        if (strcmp(name, asm_special_names[i]) == 0)
            return 0;
    for (unsigned i = 0; i < sizeof(text_form_words) / sizeof(text_form_words[0]); i++)
        if (strcmp(name, text_form_words[i]) == 0)
            return 0;
    return 1;
}

int wa_comment_copy(wa_program *prog, const char *text, int empty_is_null, const char **out)
{
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\t') || c == 0x7F)
            return -1;
    }
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    if (n == 0 && empty_is_null) {
        *out = NULL;
        return 0;
    }
    *out = wa_arena_strndup(&prog->arena, text, n);
    return *out ? 0 : -2;
}

static int label_hash_add(wa_program *prog, unsigned id);

/* ---- lifetime ------------------------------------------------------------------------ */

static wa_status program_alloc(wa_program **out, wa_context *ctx)
{
    wa_program *p = wa_mem_calloc(ctx, 1, sizeof(*p));
    if (!p)
        return wa_error_nomem(ctx);
    p->ctx = ctx;
    wa_arena_init(&p->arena, ctx);
    p->file = "";
    p->target = wa_context_target(ctx);
    p->wg[0] = 64;
    p->wg[1] = p->wg[2] = 1;
    p->abi_mask = WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_X);
    p->insert_at = WA_END;
    *out = p;
    return WA_OK;
}

wa_status wa_program_create(wa_program **out, wa_context *ctx, const char *name)
{
    if (!out || !ctx)
        return WA_E_INVALID;
    *out = NULL;
    wa_diag_reset(ctx);
    if (!wa_kernel_name_valid(name))
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "kernel name '%s' is not a valid global symbol", name ? name : "(null)");
    wa_program *p = NULL;
    wa_status st = program_alloc(&p, ctx);
    if (st)
        return st;
    p->name = wa_arena_strdup(&p->arena, name);
    if (!p->name) {
        wa_program_destroy(p);
        return wa_error_nomem(ctx);
    }
    *out = p;
    return WA_OK;
}

void wa_program_destroy(wa_program *prog)
{
    if (!prog)
        return;
    wa_context *ctx = prog->ctx;
    wa_arena_release(&prog->arena);
    wa_mem_free(ctx, prog->args);
    wa_mem_free(ctx, prog->instrs);
    wa_mem_free(ctx, prog->vregs);
    wa_mem_free(ctx, prog->labels);
    wa_mem_free(ctx, prog->label_hash);
    wa_mem_free(ctx, prog);
}

wa_context *wa_program_context(const wa_program *prog)
{
    return prog ? prog->ctx : NULL;
}

static const char *arena_dup_or_null(wa_arena *a, const char *s, int *failed)
{
    if (!s)
        return NULL;
    const char *d = wa_arena_strdup(a, s);
    if (!d)
        *failed = 1;
    return d;
}

void wa_program_swap_contents(wa_program *a, wa_program *b)
{
    wa_program t = *a;
    *a = *b;
    *b = t;
}

wa_status wa_program_clone(wa_program **out, const wa_program *src)
{
    if (!out || !src)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = src->ctx;
    wa_diag_reset(ctx);
    wa_program *p = NULL;
    wa_status st = program_alloc(&p, ctx);
    if (st)
        return st;
    int failed = 0;
    p->name = arena_dup_or_null(&p->arena, src->name, &failed);
    p->file = arena_dup_or_null(&p->arena, src->file, &failed);
    p->target = src->target;
    memcpy(p->wg, src->wg, sizeof(p->wg));
    p->lds_bytes = src->lds_bytes;
    p->abi_mask = src->abi_mask;
    p->header_line = src->header_line;
    p->next_tag = src->next_tag;
    p->insert_at = WA_END;
    if (WA_GROW(ctx, p->args, p->capargs, src->nargs) ||
        WA_GROW(ctx, p->instrs, p->capinstrs, src->ninstrs) ||
        WA_GROW(ctx, p->vregs, p->capvregs, src->nvregs) ||
        WA_GROW(ctx, p->labels, p->caplabels, src->nlabels))
        failed = 1;
    if (!failed) {
        for (unsigned i = 0; i < src->nargs; i++) {
            p->args[i] = src->args[i];
            p->args[i].arg.name = arena_dup_or_null(&p->arena, src->args[i].arg.name, &failed);
        }
        p->nargs = src->nargs;
        p->args_end = src->args_end;
        if (src->nvregs)
            memcpy(p->vregs, src->vregs, src->nvregs * sizeof(wa_vreg));
        p->nvregs = src->nvregs;
        for (unsigned i = 0; i < src->nlabels && !failed; i++) {
            p->labels[i].name = arena_dup_or_null(&p->arena, src->labels[i].name, &failed);
            p->labels[i].placed = src->labels[i].placed;
            p->nlabels = i;
            if (!failed && label_hash_add(p, i))
                failed = 1;
        }
        p->nlabels = src->nlabels;
        for (unsigned i = 0; i < src->ninstrs && !failed; i++) {
            wa_instr in = src->instrs[i];
            if (in.nops) {
                in.ops = wa_arena_alloc(&p->arena, in.nops * sizeof(wa_operand));
                if (!in.ops) {
                    failed = 1;
                    break;
                }
                memcpy(in.ops, src->instrs[i].ops, in.nops * sizeof(wa_operand));
            }
            in.comment = arena_dup_or_null(&p->arena, in.comment, &failed);
            p->instrs[i] = in;
            p->ninstrs = i + 1;
        }
    }
    if (failed) {
        wa_program_destroy(p);
        return wa_error_nomem(ctx);
    }
    *out = p;
    return WA_OK;
}

static int str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

/* Labels compare by name: ids are an artefact of creation order. */
static int operand_eq(const wa_program *pa, const wa_operand *a, const wa_program *pb,
                      const wa_operand *b)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case WA_OPND_VIRT:
        return a->id == b->id && a->first == b->first && a->count == b->count &&
               a->reg_class == b->reg_class;
    case WA_OPND_PHYS:
        return a->id == b->id && a->count == b->count && a->reg_class == b->reg_class;
    case WA_OPND_SPECIAL:
        return a->id == b->id;
    case WA_OPND_LABEL:
        return str_eq(pa->labels[a->id].name, pb->labels[b->id].name);
    case WA_OPND_IMM:
        return a->imm.i == b->imm.i;
    case WA_OPND_FIMM:
        return memcmp(&a->imm.f, &b->imm.f, sizeof(double)) == 0;
    default:
        return 1;
    }
}

static int mods_eq(const wa_mods *a, const wa_mods *b)
{
    return a->flags == b->flags && a->offset == b->offset && a->offset1 == b->offset1 &&
           a->cbsz == b->cbsz && a->abid == b->abid && a->blgp == b->blgp &&
           a->op_sel == b->op_sel && a->op_sel_hi == b->op_sel_hi && a->vmcnt == b->vmcnt &&
           a->lgkmcnt == b->lgkmcnt && a->expcnt == b->expcnt && a->dpp_ctrl == b->dpp_ctrl &&
           a->row_mask == b->row_mask && a->bank_mask == b->bank_mask && a->neg == b->neg &&
           a->abs == b->abs && a->neg_hi == b->neg_hi && a->omod == b->omod &&
           a->dst_sel == b->dst_sel && a->dst_unused == b->dst_unused &&
           a->src0_sel == b->src0_sel && a->src1_sel == b->src1_sel && a->sext == b->sext;
}

/* A host's wa_mods as the current version: an older struct is read only up to
   its end (the host's struct has no later fields); the rest takes the defaults. */
static wa_mods mods_import(const wa_mods *m)
{
    wa_mods out = WA_MODS_INIT;
    size_t n = m->version >= 3 ? sizeof(wa_mods)
             : m->version == 2 ? offsetof(wa_mods, neg)
                               : offsetof(wa_mods, dpp_ctrl);
    memcpy(&out, m, n);
    out.version = WA_MODS_VERSION;
    memset(out.reserved, 0, sizeof(out.reserved));
    if (!(out.flags & WA_MOD_DPP)) { /* DPP fields mean nothing without DPP */
        out.dpp_ctrl = 0;
        out.row_mask = out.bank_mask = 0xF;
    }
    if (!(out.flags & WA_MOD_SDWA)) { /* nor SDWA fields without SDWA */
        out.dst_sel = out.src0_sel = out.src1_sel = WA_SDWA_DWORD;
        out.dst_unused = WA_SDWA_UNUSED_PRESERVE;
        out.sext = 0;
    }
    return out;
}

int wa_program_equal(const wa_program *a, const wa_program *b)
{
    if (!a || !b)
        return a == b;
    if (!str_eq(a->name, b->name) || a->target != b->target ||
        memcmp(a->wg, b->wg, sizeof(a->wg)) != 0 || a->lds_bytes != b->lds_bytes ||
        a->abi_mask != b->abi_mask || a->nargs != b->nargs || a->ninstrs != b->ninstrs)
        return 0;
    for (unsigned i = 0; i < a->nargs; i++) {
        const wa_kernel_arg *x = &a->args[i].arg, *y = &b->args[i].arg;
        if (!str_eq(x->name, y->name) || x->kind != y->kind || x->offset != y->offset ||
            x->size != y->size || x->align != y->align || x->flags != y->flags)
            return 0;
    }
    /* Register ids must agree where either program uses them. */
    unsigned nv = a->nvregs > b->nvregs ? a->nvregs : b->nvregs;
    for (unsigned i = 0; i < nv; i++) {
        wa_vreg x = i < a->nvregs ? a->vregs[i] : (wa_vreg){ 0, 0, 0 };
        wa_vreg y = i < b->nvregs ? b->vregs[i] : (wa_vreg){ 0, 0, 0 };
        if (x.cls != y.cls || (x.cls && (x.size != y.size || x.align != y.align)))
            return 0;
    }
    for (unsigned i = 0; i < a->ninstrs; i++) {
        const wa_instr *x = &a->instrs[i], *y = &b->instrs[i];
        if (x->op != y->op || x->nops != y->nops || x->tag != y->tag ||
            !str_eq(x->comment, y->comment) || !mods_eq(&x->mods, &y->mods))
            return 0;
        for (unsigned k = 0; k < x->nops; k++)
            if (!operand_eq(a, &x->ops[k], b, &y->ops[k]))
                return 0;
    }
    return 1;
}

/* ---- attributes --------------------------------------------------------------------------- */

const char *wa_program_name(const wa_program *prog)
{
    return prog ? prog->name : NULL;
}

wa_status wa_program_set_name(wa_program *prog, const char *name)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!wa_kernel_name_valid(name))
        return wa_error(prog->ctx, WA_E_INVALID, prog_loc(prog),
                        "kernel name '%s' is not a valid global symbol", name ? name : "(null)");
    const char *n = wa_arena_strdup(&prog->arena, name);
    if (!n)
        return wa_error_nomem(prog->ctx);
    prog->name = n;
    return WA_OK;
}

wa_target wa_program_target(const wa_program *prog)
{
    return prog ? prog->target : WA_TARGET_UNKNOWN;
}

wa_status wa_program_set_target(wa_program *prog, wa_target target)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!wa_target_name(target))
        return wa_error(prog->ctx, WA_E_INVALID, prog_loc(prog), "unknown target %d", (int)target);
    prog->target = target;
    return WA_OK;
}

wa_status wa_program_set_workgroup_size(wa_program *prog, unsigned x, unsigned y, unsigned z)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    prog->wg[0] = x;
    prog->wg[1] = y;
    prog->wg[2] = z;
    return WA_OK;
}

void wa_program_workgroup_size(const wa_program *prog, unsigned out[3])
{
    if (prog && out)
        memcpy(out, prog->wg, sizeof(prog->wg));
}

wa_status wa_program_set_lds_bytes(wa_program *prog, unsigned bytes)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    prog->lds_bytes = bytes;
    return WA_OK;
}

unsigned wa_program_lds_bytes(const wa_program *prog)
{
    return prog ? prog->lds_bytes : 0;
}

unsigned wa_target_max_lds(wa_target t)
{
    return t == WA_TARGET_GFX950 ? 163840u : 65536u;
}

/* ---- ABI ---------------------------------------------------------------------------------- */

wa_status wa_program_set_abi_inputs(wa_program *prog, unsigned mask)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (mask & ~((1u << WA_ABI_COUNT_) - 1u))
        return wa_error(prog->ctx, WA_E_INVALID, prog_loc(prog), "unknown ABI input bits 0x%x",
                        mask & ~((1u << WA_ABI_COUNT_) - 1u));
    prog->abi_mask = mask;
    return WA_OK;
}

unsigned wa_program_abi_inputs(const wa_program *prog)
{
    return prog ? prog->abi_mask : 0;
}

/* Dense packing from s0 in hardware order (user SGPRs, then system SGPRs). */
static const unsigned char abi_sgpr_order[] = {
    WA_ABI_DISPATCH_PTR, WA_ABI_QUEUE_PTR, WA_ABI_KERNARG_PTR, WA_ABI_DISPATCH_ID,
    WA_ABI_WORKGROUP_ID_X, WA_ABI_WORKGROUP_ID_Y, WA_ABI_WORKGROUP_ID_Z, WA_ABI_WORKGROUP_INFO,
};

static unsigned abi_sgpr_size(unsigned input)
{
    return input <= WA_ABI_DISPATCH_ID ? 2u : 1u;
}

int wa_abi_sgpr(unsigned abi_mask, wa_abi_input input)
{
    unsigned next = 0;
    for (unsigned i = 0; i < sizeof(abi_sgpr_order); i++) {
        unsigned in = abi_sgpr_order[i];
        if (!(abi_mask & WA_ABI_BIT(in)))
            continue;
        if (in == (unsigned)input)
            return (int)next;
        next += abi_sgpr_size(in);
    }
    return -1;
}

unsigned wa_abi_user_sgprs(unsigned abi_mask)
{
    unsigned n = 0;
    for (unsigned in = WA_ABI_DISPATCH_PTR; in <= WA_ABI_DISPATCH_ID; in++)
        if (abi_mask & WA_ABI_BIT(in))
            n += 2;
    return n;
}

unsigned wa_abi_total_sgprs(unsigned abi_mask)
{
    unsigned n = wa_abi_user_sgprs(abi_mask);
    for (unsigned in = WA_ABI_WORKGROUP_ID_X; in <= WA_ABI_WORKGROUP_INFO; in++)
        if (abi_mask & WA_ABI_BIT(in))
            n += 1;
    return n;
}

unsigned wa_program_user_sgpr_count(const wa_program *prog)
{
    return prog ? wa_abi_user_sgprs(prog->abi_mask) : 0;
}

unsigned wa_program_abi_sgpr_count(const wa_program *prog)
{
    return prog ? wa_abi_total_sgprs(prog->abi_mask) : 0;
}

wa_status wa_program_abi_reg(wa_operand *out, const wa_program *prog, wa_abi_input input)
{
    if (!out || !prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if ((unsigned)input >= WA_ABI_COUNT_ || !(prog->abi_mask & WA_ABI_BIT(input)))
        return wa_error(prog->ctx, WA_E_INVALID, prog_loc(prog), "ABI input %d is not enabled",
                        (int)input);
    if (input >= WA_ABI_WORKITEM_ID_X) {
        *out = wa_opnd_phys(WA_REG_VGPR, 0, 1);
        return WA_OK;
    }
    int r = wa_abi_sgpr(prog->abi_mask, input);
    *out = wa_opnd_phys(WA_REG_SGPR, (unsigned)r, abi_sgpr_size(input));
    return WA_OK;
}

/* ---- kernel arguments --------------------------------------------------------------------- */

const char *wa_arg_kind_name(wa_arg_kind kind)
{
    static const char *const names[WA_ARG_KIND_COUNT_] = {
        "by_value", "global_buffer", "dynamic_shared_pointer",
        "hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z",
        "hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z",
        "hidden_remainder_x", "hidden_remainder_y", "hidden_remainder_z",
        "hidden_global_offset_x", "hidden_global_offset_y", "hidden_global_offset_z",
        "hidden_grid_dims", "hidden_dynamic_lds_size", "hidden_none",
        "hidden_printf_buffer", "hidden_hostcall_buffer", "hidden_default_queue",
        "hidden_completion_action", "hidden_multigrid_sync_arg", "hidden_heap_v1",
        "hidden_private_base", "hidden_shared_base", "hidden_queue_ptr",
    };
    return (unsigned)kind < WA_ARG_KIND_COUNT_ ? names[kind] : NULL;
}

static unsigned natural_align(unsigned size)
{
    unsigned a = 1;
    while (a < size && a < 8)
        a *= 2;
    return a;
}

wa_status wa_program_add_arg(unsigned *out_index, wa_program *prog, const wa_kernel_arg *arg)
{
    if (!prog || !arg)
        return WA_E_INVALID;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    if (arg->version < 1 || arg->version > WA_KERNEL_ARG_VERSION)
        return wa_error(ctx, WA_E_INVALID, prog_loc(prog), "unknown wa_kernel_arg version %u",
                        arg->version);
    if ((unsigned)arg->kind >= WA_ARG_KIND_COUNT_)
        return wa_error(ctx, WA_E_INVALID, prog_loc(prog), "unknown argument kind %d",
                        (int)arg->kind);
    if (arg->size == 0 || arg->size > 4096)
        return wa_error(ctx, WA_E_RANGE, prog_loc(prog),
                        "argument size %u out of range (1..4096 bytes)", arg->size);
    unsigned align = arg->align ? arg->align : natural_align(arg->size);
    if (align & (align - 1) || align > 4096)
        return wa_error(ctx, WA_E_INVALID, prog_loc(prog),
                        "argument alignment %u is not a power of two up to 4096", align);
    unsigned offset = arg->offset;
    if (offset == WA_ARG_OFFSET_AUTO) {
        /* after the end of the furthest argument, kept as they are added */
        unsigned end = prog->args_end;
        if (end > WA_ARG_OFFSET_AUTO - (align - 1) ||
            ((end + align - 1) & ~(align - 1)) == WA_ARG_OFFSET_AUTO)
            return wa_error(ctx, WA_E_RANGE, prog_loc(prog),
                            "argument placed after byte %u: offset out of range", end);
        offset = (end + align - 1) & ~(align - 1);
    }
    if (WA_GROW(ctx, prog->args, prog->capargs, prog->nargs + 1))
        return wa_error_nomem(ctx);
    wa_kernel_arg a = *arg;
    a.version = WA_KERNEL_ARG_VERSION;
    a.offset = offset;
    a.align = align;
    a.name = NULL;
    if (arg->name && arg->name[0] && !wa_symbol_valid(arg->name))
        return wa_error(ctx, WA_E_INVALID, prog_loc(prog),
                        "argument name '%s' is not a valid identifier", arg->name);
    if (arg->name && arg->name[0]) {
        a.name = wa_arena_strdup(&prog->arena, arg->name);
        if (!a.name)
            return wa_error_nomem(ctx);
    }
    prog->args[prog->nargs].arg = a;
    prog->args[prog->nargs].line = prog->args[prog->nargs].col = 0;
    if (out_index)
        *out_index = prog->nargs;
    prog->nargs++;
    if (offset + a.size > prog->args_end)
        prog->args_end = offset + a.size;
    return WA_OK;
}

unsigned wa_program_arg_count(const wa_program *prog)
{
    return prog ? prog->nargs : 0;
}

wa_status wa_program_arg(wa_kernel_arg *out, const wa_program *prog, unsigned index)
{
    if (!out || !prog)
        return WA_E_INVALID;
    if (index >= prog->nargs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "argument index %u out of range (%u arguments)", index, prog->nargs);
    *out = prog->args[index].arg;
    return WA_OK;
}

unsigned wa_program_kernarg_size(const wa_program *prog)
{
    if (!prog)
        return 0;
    unsigned long long end = 0;
    for (unsigned i = 0; i < prog->nargs; i++) {
        unsigned long long e = (unsigned long long)prog->args[i].arg.offset + prog->args[i].arg.size;
        if (e > end)
            end = e;
    }
    end = (end + 7) & ~7ull;
    return end > 0xFFFFFFFFull ? 0xFFFFFFFFu : (unsigned)end;
}

/* ---- virtual registers -------------------------------------------------------------------- */

unsigned wa_target_tuple_align(wa_target target, wa_reg_class cls, unsigned size)
{
    (void)target; /* gfx90a, gfx942 and gfx950 share the rules */
    if (size <= 1)
        return 1;
    if (cls == WA_REG_SGPR)
        return size == 2 ? 2 : 4;
    return 2; /* VGPR/AGPR tuples of 64 bits or more start even */
}

static wa_status check_vreg_shape(wa_program *prog, wa_reg_class cls, unsigned size, unsigned align)
{
    if (cls != WA_REG_VGPR && cls != WA_REG_SGPR && cls != WA_REG_AGPR)
        return wa_error(prog->ctx, WA_E_INVALID, prog_loc(prog), "unknown register class %d",
                        (int)cls);
    unsigned max = cls == WA_REG_SGPR ? 32u : 32u;
    if (size == 0 || size > max)
        return wa_error(prog->ctx, WA_E_RANGE, prog_loc(prog),
                        "register size %u out of range (1..%u)", size, max);
    if (align == 0 || (align & (align - 1)) || align > 32)
        return wa_error(prog->ctx, WA_E_RANGE, prog_loc(prog),
                        "register alignment %u is not a power of two up to 32", align);
    return WA_OK;
}

wa_status wa_program_vreg(wa_operand *out, wa_program *prog, wa_reg_class cls, unsigned size,
                          unsigned align)
{
    if (!out || !prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (align == 0)
        align = wa_target_tuple_align(prog->target, cls, size);
    wa_status st = check_vreg_shape(prog, cls, size, align);
    if (st)
        return st;
    if (prog->nvregs >= (1u << 24))
        return wa_error(prog->ctx, WA_E_RANGE, prog_loc(prog), "too many virtual registers");
    if (WA_GROW(prog->ctx, prog->vregs, prog->capvregs, prog->nvregs + 1))
        return wa_error_nomem(prog->ctx);
    unsigned id = prog->nvregs++;
    prog->vregs[id].cls = (uint8_t)cls;
    prog->vregs[id].size = size;
    prog->vregs[id].align = (uint16_t)align;
    memset(out, 0, sizeof(*out));
    out->kind = WA_OPND_VIRT;
    out->reg_class = (uint8_t)cls;
    out->id = id;
    out->first = 0;
    out->count = (uint16_t)size;
    return WA_OK;
}

wa_status wa_program_define_vreg(wa_program *prog, unsigned id, wa_reg_class cls, unsigned size,
                                 unsigned align)
{
    wa_status st = check_vreg_shape(prog, cls, size, align);
    if (st)
        return st;
    if (id >= (1u << 20))
        return wa_error(prog->ctx, WA_E_RANGE, prog_loc(prog),
                        "virtual register number %u too large (limit %u)", id, (1u << 20) - 1);
    if (id >= prog->nvregs) {
        if (WA_GROW(prog->ctx, prog->vregs, prog->capvregs, id + 1))
            return wa_error_nomem(prog->ctx);
        memset(&prog->vregs[prog->nvregs], 0, (id + 1 - prog->nvregs) * sizeof(wa_vreg));
        prog->nvregs = id + 1;
    }
    prog->vregs[id].cls = (uint8_t)cls;
    prog->vregs[id].size = size;
    prog->vregs[id].align = (uint16_t)align;
    return WA_OK;
}

unsigned wa_program_vreg_count(const wa_program *prog)
{
    return prog ? prog->nvregs : 0;
}

wa_status wa_program_vreg_info(wa_reg_class *out_class, unsigned *out_size, unsigned *out_align,
                               const wa_program *prog, unsigned id)
{
    if (!prog)
        return WA_E_INVALID;
    if (id >= prog->nvregs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "virtual register id %u out of range (%u ids)", id, prog->nvregs);
    if (out_class)
        *out_class = (wa_reg_class)prog->vregs[id].cls;
    if (out_size)
        *out_size = prog->vregs[id].size;
    if (out_align)
        *out_align = prog->vregs[id].align;
    return WA_OK;
}

/* ---- labels -------------------------------------------------------------------------------- */

static unsigned name_hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

unsigned wa_label_find(const wa_program *prog, const char *name, size_t len)
{
    if (!prog->label_hash_cap)
        return WA_NO_TAG;
    unsigned mask = prog->label_hash_cap - 1, h = name_hash(name, len) & mask;
    for (unsigned e; (e = prog->label_hash[h]) != 0; h = (h + 1) & mask) {
        const char *l = prog->labels[e - 1].name;
        if (strlen(l) == len && memcmp(l, name, len) == 0)
            return e - 1;
    }
    return WA_NO_TAG;
}

/* Keeps the hash at most half full. */
static int label_hash_add(wa_program *prog, unsigned id)
{
    if (2 * (prog->nlabels + 1) > prog->label_hash_cap) {
        unsigned cap = prog->label_hash_cap ? prog->label_hash_cap * 2 : 64;
        unsigned *t = wa_mem_calloc(prog->ctx, cap, sizeof(unsigned));
        if (!t)
            return -1;
        for (unsigned l = 0; l < prog->nlabels; l++) {
            const char *n = prog->labels[l].name;
            unsigned h = name_hash(n, strlen(n)) & (cap - 1);
            while (t[h])
                h = (h + 1) & (cap - 1);
            t[h] = l + 1;
        }
        wa_mem_free(prog->ctx, prog->label_hash);
        prog->label_hash = t;
        prog->label_hash_cap = cap;
    }
    const char *n = prog->labels[id].name;
    unsigned h = name_hash(n, strlen(n)) & (prog->label_hash_cap - 1);
    while (prog->label_hash[h])
        h = (h + 1) & (prog->label_hash_cap - 1);
    prog->label_hash[h] = id + 1;
    return 0;
}

wa_status wa_program_label_create(wa_label *out, wa_program *prog, const char *name)
{
    if (!out || !prog)
        return WA_E_INVALID;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    char buf[32];
    if (!name) {
        /* Pick the first free L<n>. */
        for (unsigned n = prog->nlabels;; n++) {
            snprintf(buf, sizeof(buf), "L%u", n);
            if (wa_label_find(prog, buf, strlen(buf)) == WA_NO_TAG)
                break;
        }
        name = buf;
    }
    if (!wa_label_name_valid(name))
        return wa_error(ctx, WA_E_INVALID, prog_loc(prog),
                        "label name '%s' is not a valid label (a symbol the assembler does not "
                        "read as a register or special operand, other than 'off')",
                        name);
    if (wa_label_find(prog, name, strlen(name)) != WA_NO_TAG)
        return wa_error(ctx, WA_E_INVALID, prog_loc(prog), "label '%s' already exists", name);
    if (WA_GROW(ctx, prog->labels, prog->caplabels, prog->nlabels + 1))
        return wa_error_nomem(ctx);
    const char *n = wa_arena_strdup(&prog->arena, name);
    if (!n)
        return wa_error_nomem(ctx);
    prog->labels[prog->nlabels].name = n;
    prog->labels[prog->nlabels].placed = 0;
    if (label_hash_add(prog, prog->nlabels))
        return wa_error_nomem(ctx);
    *out = prog->nlabels++;
    return WA_OK;
}

const char *wa_program_label_name(const wa_program *prog, wa_label label)
{
    if (!prog || label >= prog->nlabels)
        return NULL;
    return prog->labels[label].name;
}

unsigned wa_program_label_count(const wa_program *prog)
{
    return prog ? prog->nlabels : 0;
}

/* ---- items ----------------------------------------------------------------------------------- */

static wa_status check_operand(wa_program *prog, const wa_operand *o, unsigned idx, wa_loc loc)
{
    wa_context *ctx = prog->ctx;
    switch (o->kind) {
    case WA_OPND_VIRT: {
        if (o->id >= prog->nvregs || prog->vregs[o->id].cls == WA_REG_NONE)
            return wa_error(ctx, WA_E_INVALID, loc, "operand %u: unknown virtual register %u", idx,
                            o->id);
        const wa_vreg *v = &prog->vregs[o->id];
        if (o->reg_class != v->cls)
            return wa_error(ctx, WA_E_INVALID, loc,
                            "operand %u: class does not match virtual register %u", idx, o->id);
        if (o->first >= v->size || o->count > v->size - o->first)
            return wa_error(ctx, WA_E_INVALID, loc,
                            "operand %u: components [%u:%u] outside virtual register %u of size %u",
                            idx, o->first, o->first + (o->count ? o->count : 1) - 1, o->id, v->size);
        return WA_OK;
    }
    case WA_OPND_PHYS:
        if (o->reg_class != WA_REG_VGPR && o->reg_class != WA_REG_SGPR &&
            o->reg_class != WA_REG_AGPR)
            return wa_error(ctx, WA_E_INVALID, loc, "operand %u: unknown register class", idx);
        if (o->count == 0 || o->count > 32 || o->id >= WA_PHYS_LIMIT(o->reg_class) ||
            o->count > WA_PHYS_LIMIT(o->reg_class) - o->id)
            return wa_error(ctx, WA_E_INVALID, loc,
                            "operand %u: bad physical register range (%u registers from %u; "
                            "1..32 registers below %u)",
                            idx, (unsigned)o->count, (unsigned)o->id, WA_PHYS_LIMIT(o->reg_class));
        return WA_OK;
    case WA_OPND_SPECIAL:
        if (o->id >= WA_SPECIAL_COUNT_)
            return wa_error(ctx, WA_E_INVALID, loc, "operand %u: unknown special register", idx);
        return WA_OK;
    case WA_OPND_LABEL:
        if (o->id >= prog->nlabels)
            return wa_error(ctx, WA_E_INVALID, loc, "operand %u: unknown label %u", idx, o->id);
        return WA_OK;
    case WA_OPND_FIMM:
        if (!isfinite(o->imm.f))
            return wa_error(ctx, WA_E_INVALID, loc, "operand %u: float immediate is not finite", idx);
        return WA_OK;
    case WA_OPND_IMM:
    case WA_OPND_OFF:
        return WA_OK;
    default:
        return wa_error(ctx, WA_E_INVALID, loc, "operand %u: missing or unknown operand kind %u",
                        idx, (unsigned)o->kind);
    }
}

/* What the text form can write back in operand position `idx` of `info`: a
   branch target is a label and a label is only ever a branch target (the
   printer writes a label's name, which the parser reads nowhere else). */
static wa_status check_operand_position(wa_program *prog, const wa_isa_info *info, unsigned idx,
                                        const wa_operand *o, wa_loc loc)
{
    int want_label = idx < info->num_operands && (info->operands[idx].classes & WA_OC_LABEL);
    if (want_label && o->kind != WA_OPND_LABEL)
        return wa_error(prog->ctx, WA_E_INVALID, loc, "%s operand %u (%s) must be a label",
                        info->mnemonic, idx, info->operands[idx].name);
    if (!want_label && o->kind == WA_OPND_LABEL)
        return wa_error(prog->ctx, WA_E_INVALID, loc,
                        "%s operand %u (%s): a label can only be a branch target", info->mnemonic,
                        idx, idx < info->num_operands ? info->operands[idx].name : "?");
    return WA_OK;
}

/* 1 if `m` (already imported) holds only the defaults. */
static int mods_default(const wa_mods *m)
{
    wa_mods d = WA_MODS_INIT;
    return m->flags == d.flags && m->offset == d.offset && m->offset1 == d.offset1 &&
           m->cbsz == d.cbsz && m->abid == d.abid && m->blgp == d.blgp && m->op_sel == d.op_sel &&
           m->op_sel_hi == d.op_sel_hi && m->vmcnt == d.vmcnt && m->lgkmcnt == d.lgkmcnt &&
           m->expcnt == d.expcnt && m->dpp_ctrl == d.dpp_ctrl && m->row_mask == d.row_mask &&
           m->bank_mask == d.bank_mask && m->neg == d.neg && m->abs == d.abs &&
           m->neg_hi == d.neg_hi && m->omod == d.omod && m->dst_sel == d.dst_sel &&
           m->dst_unused == d.dst_unused && m->src0_sel == d.src0_sel &&
           m->src1_sel == d.src1_sel && m->sext == d.sext;
}

/* Labels and comments are printed without modifiers: they take none. */
static wa_status check_pseudo_mods(wa_program *prog, const wa_isa_info *info, const wa_mods *m,
                                   wa_loc loc)
{
    if (!(info->flags & WA_IF_PSEUDO))
        return WA_OK;
    wa_mods im = mods_import(m);
    if (!mods_default(&im))
        return wa_error(prog->ctx, WA_E_INVALID, loc, "a %s takes no modifiers", info->mnemonic);
    return WA_OK;
}

/* Field widths of wa_mods that the IR can represent. */
static wa_status check_mods_fields(wa_program *prog, const wa_mods *m, wa_loc loc)
{
    unsigned known = WA_MOD_OFFEN | WA_MOD_IDXEN | WA_MOD_GLC | WA_MOD_SLC | WA_MOD_SCC |
                     WA_MOD_LDS;
    if (m->version < 1 || m->version > WA_MODS_VERSION)
        return wa_error(prog->ctx, WA_E_INVALID, loc, "unknown wa_mods version %u", m->version);
    if (m->version >= 2) {
        known |= WA_MOD_DPP | WA_MOD_BOUND_CTRL;
        if ((m->flags & WA_MOD_DPP) && (m->dpp_ctrl > 0x1FF || m->row_mask > 15 || m->bank_mask > 15))
            return wa_error(prog->ctx, WA_E_INVALID, loc,
                            "DPP fields: dpp_ctrl has 9 bits, row_mask and bank_mask 4");
        if ((m->flags & WA_MOD_BOUND_CTRL) && !(m->flags & WA_MOD_DPP))
            return wa_error(prog->ctx, WA_E_INVALID, loc, "WA_MOD_BOUND_CTRL without WA_MOD_DPP");
    }
    if (m->version >= 3) {
        known |= WA_MOD_CLAMP | WA_MOD_SDWA;
        if (m->neg > 7 || m->abs > 7 || m->neg_hi > 7 || m->omod > 3 || m->sext > 3)
            return wa_error(prog->ctx, WA_E_INVALID, loc,
                            "source modifiers: neg, abs, neg_hi have 3 bits, sext 2, omod 0..3");
        if ((m->flags & WA_MOD_SDWA) &&
            (m->dst_sel > 6 || m->src0_sel > 6 || m->src1_sel > 6 || m->dst_unused > 2))
            return wa_error(prog->ctx, WA_E_INVALID, loc,
                            "SDWA fields: selects are 0..6 (WA_SDWA_BYTE_0..WA_SDWA_DWORD), "
                            "dst_unused 0..2");
        if ((m->flags & WA_MOD_SDWA) && (m->flags & WA_MOD_DPP))
            return wa_error(prog->ctx, WA_E_INVALID, loc, "an instruction is DPP or SDWA, not both");
    }
    if (m->flags & ~known)
        return wa_error(prog->ctx, WA_E_INVALID, loc, "unknown modifier flags 0x%x",
                        m->flags & ~known);
    if (m->op_sel > 15 || m->op_sel_hi > 7)
        return wa_error(prog->ctx, WA_E_INVALID, loc, "op_sel has 4 bits, op_sel_hi 3");
    if (m->vmcnt < -1 || m->lgkmcnt < -1 || m->expcnt < -1)
        return wa_error(prog->ctx, WA_E_INVALID, loc,
                        "waitcnt fields are -1 (no wait) or a non-negative count");
    return WA_OK;
}

wa_status wa_program_insert(wa_program *prog, wa_opcode op, const wa_operand *ops, unsigned nops,
                            const wa_mods *mods, wa_tag tag, unsigned line, unsigned col,
                            unsigned *out_index)
{
    wa_context *ctx = prog->ctx;
    wa_loc loc = { prog->file, line, col, WA_NO_TAG };
    const wa_isa_info *info = wa_isa_get(op);
    if (!info)
        return wa_error(ctx, WA_E_INVALID, loc, "unknown opcode %d", (int)op);
    if (nops != info->num_operands)
        return wa_error(ctx, WA_E_INVALID, loc, "%s takes %u operand%s, got %u", info->mnemonic,
                        info->num_operands, info->num_operands == 1 ? "" : "s", nops);
    if (nops && !ops)
        return wa_error(ctx, WA_E_INVALID, loc, "operands missing");
    if (mods) {
        wa_status mst = check_mods_fields(prog, mods, loc);
        if (!mst)
            mst = check_pseudo_mods(prog, info, mods, loc);
        if (mst)
            return mst;
    }
    for (unsigned i = 0; i < nops; i++) {
        wa_status st = check_operand(prog, &ops[i], i, loc);
        if (!st)
            st = check_operand_position(prog, info, i, &ops[i], loc);
        if (st)
            return st;
    }
    if (op == WA_OP_LABEL) {
        if (ops[0].kind != WA_OPND_LABEL)
            return wa_error(ctx, WA_E_INVALID, loc, "label item needs a label operand");
        if (prog->labels[ops[0].id].placed)
            return wa_error(ctx, WA_E_INVALID, loc, "label '%s' is placed twice",
                            prog->labels[ops[0].id].name);
    }
    if (prog->ninstrs >= 0x7FFFFFFFu)
        return wa_error(ctx, WA_E_RANGE, loc, "program too large");
    if (WA_GROW(ctx, prog->instrs, prog->capinstrs, prog->ninstrs + 1))
        return wa_error_nomem(ctx);
    wa_instr in;
    memset(&in, 0, sizeof(in));
    in.op = (uint16_t)op;
    in.nops = (uint16_t)nops;
    in.line = line;
    in.col = col;
    if (nops) {
        in.ops = wa_arena_alloc(&prog->arena, nops * sizeof(wa_operand));
        if (!in.ops)
            return wa_error_nomem(ctx);
        memcpy(in.ops, ops, nops * sizeof(wa_operand));
        for (unsigned i = 0; i < nops; i++) {
            wa_operand *o = &in.ops[i];
            o->reserved = 0;
            if (o->kind == WA_OPND_VIRT && o->count == 0)
                o->count = (uint16_t)(prog->vregs[o->id].size - o->first);
        }
    }
    if (mods && (mods->flags & WA_MOD_LDS) && !(info->flags & WA_IF_LDS_DMA))
        return wa_error(ctx, WA_E_INVALID, loc,
                        "%s with WA_MOD_LDS: use the lds form of the opcode (wa_build_mubuf picks it)",
                        info->mnemonic);
    wa_mods defaults = WA_MODS_INIT;
    in.mods = mods ? mods_import(mods) : defaults;
    if (info->flags & WA_IF_LDS_DMA)
        in.mods.flags |= WA_MOD_LDS;
    if (info->flags & WA_IF_PSEUDO) {
        in.tag = WA_NO_TAG;
    } else if (tag == WA_NO_TAG) {
        if (prog->next_tag == WA_NO_TAG)
            return wa_error(ctx, WA_E_RANGE, loc, "no tag left for a new instruction (tags end at I%u)",
                            WA_NO_TAG - 1);
        in.tag = prog->next_tag++;
    } else {
        in.tag = tag;
        if (tag >= prog->next_tag)
            prog->next_tag = tag + 1;
    }
    unsigned at = prog->insert_at == WA_END || prog->insert_at > prog->ninstrs ? prog->ninstrs
                                                                               : prog->insert_at;
    memmove(&prog->instrs[at + 1], &prog->instrs[at], (prog->ninstrs - at) * sizeof(wa_instr));
    prog->instrs[at] = in;
    prog->ninstrs++;
    if (op == WA_OP_LABEL)
        prog->labels[ops[0].id].placed++;
    if (prog->insert_at != WA_END)
        prog->insert_at = at + 1;
    if (out_index)
        *out_index = at;
    return WA_OK;
}

unsigned wa_program_size(const wa_program *prog)
{
    return prog ? prog->ninstrs : 0;
}

wa_status wa_program_get(wa_instr_view *out, const wa_program *prog, unsigned index)
{
    if (!out || !prog)
        return WA_E_INVALID;
    if (index >= prog->ninstrs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE, "item %u out of range (%u items)",
                        index, prog->ninstrs);
    const wa_instr *in = &prog->instrs[index];
    out->opcode = (wa_opcode)in->op;
    out->tag = in->tag;
    out->num_operands = in->nops;
    out->operands = in->ops;
    out->mods = &in->mods;
    out->comment = in->comment;
    out->line = in->line;
    out->col = in->col;
    return WA_OK;
}

wa_status wa_program_find_tag(unsigned *out_index, const wa_program *prog, wa_tag tag)
{
    if (!out_index || !prog)
        return WA_E_INVALID;
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        if (prog->instrs[i].tag == tag && tag != WA_NO_TAG) {
            *out_index = i;
            return WA_OK;
        }
    }
    return wa_error(prog->ctx, WA_E_NOT_FOUND, WA_LOC_NONE, "no instruction with tag I%u", tag);
}

wa_status wa_program_set_insert_point(wa_program *prog, unsigned index)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (index != WA_END && index > prog->ninstrs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "insert point %u out of range (%u items)", index, prog->ninstrs);
    prog->insert_at = index;
    return WA_OK;
}

wa_status wa_program_erase(wa_program *prog, unsigned index)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (index >= prog->ninstrs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE, "item %u out of range (%u items)",
                        index, prog->ninstrs);
    if (prog->instrs[index].op == WA_OP_LABEL)
        prog->labels[prog->instrs[index].ops[0].id].placed--;
    memmove(&prog->instrs[index], &prog->instrs[index + 1],
            (prog->ninstrs - index - 1) * sizeof(wa_instr));
    prog->ninstrs--;
    if (prog->insert_at != WA_END && prog->insert_at > index)
        prog->insert_at--;
    return WA_OK;
}

wa_status wa_program_move(wa_program *prog, unsigned from, unsigned to)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (from >= prog->ninstrs || to >= prog->ninstrs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "move %u -> %u out of range (%u items)", from, to, prog->ninstrs);
    wa_instr in = prog->instrs[from];
    /* The insert point stays in front of the same item. */
    unsigned ip = prog->insert_at;
    if (ip != WA_END && ip < prog->ninstrs) {
        if (ip == from)
            prog->insert_at = to;
        else if (from < ip && ip <= to)
            prog->insert_at = ip - 1;
        else if (to <= ip && ip < from)
            prog->insert_at = ip + 1;
    }
    if (from < to)
        memmove(&prog->instrs[from], &prog->instrs[from + 1], (to - from) * sizeof(wa_instr));
    else if (from > to)
        memmove(&prog->instrs[to + 1], &prog->instrs[to], (from - to) * sizeof(wa_instr));
    prog->instrs[to] = in;
    return WA_OK;
}

wa_status wa_program_set_operand(wa_program *prog, unsigned index, unsigned operand,
                                 wa_operand value)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (index >= prog->ninstrs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE, "item %u out of range (%u items)",
                        index, prog->ninstrs);
    wa_instr *in = &prog->instrs[index];
    if (operand >= in->nops)
        return wa_error(prog->ctx, WA_E_INVALID, wa_instr_loc(prog, in),
                        "operand index %u out of range", operand);
    if (in->op == WA_OP_LABEL)
        return wa_error(prog->ctx, WA_E_INVALID, wa_instr_loc(prog, in),
                        "a label item's operand cannot be replaced");
    wa_status st = check_operand(prog, &value, operand, wa_instr_loc(prog, in));
    if (!st)
        st = check_operand_position(prog, wa_isa(in->op), operand, &value, wa_instr_loc(prog, in));
    if (st)
        return st;
    value.reserved = 0;
    if (value.kind == WA_OPND_VIRT && value.count == 0)
        value.count = (uint16_t)(prog->vregs[value.id].size - value.first);
    in->ops[operand] = value;
    return WA_OK;
}

wa_status wa_program_set_mods(wa_program *prog, unsigned index, const wa_mods *mods)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!mods || index >= prog->ninstrs)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE,
                        mods ? "item %u out of range" : "mods missing (item %u)", index);
    wa_instr *in = &prog->instrs[index];
    wa_status mst = check_mods_fields(prog, mods, wa_instr_loc(prog, in));
    if (!mst)
        mst = check_pseudo_mods(prog, wa_isa(in->op), mods, wa_instr_loc(prog, in));
    if (mst)
        return mst;
    if ((mods->flags & WA_MOD_LDS) && !(wa_isa_get(in->op)->flags & WA_IF_LDS_DMA))
        return wa_error(prog->ctx, WA_E_INVALID, wa_instr_loc(prog, in),
                        "WA_MOD_LDS on an instruction that is not an lds form");
    unsigned keep_lds = in->mods.flags & WA_MOD_LDS &&
                        (wa_isa_get(in->op)->flags & WA_IF_LDS_DMA);
    in->mods = mods_import(mods);
    if (keep_lds)
        in->mods.flags |= WA_MOD_LDS;
    return WA_OK;
}

wa_status wa_program_set_comment(wa_program *prog, wa_tag tag, const char *text)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    unsigned idx = 0;
    if (wa_program_find_tag(&idx, prog, tag) != WA_OK)
        return wa_error(prog->ctx, WA_E_NOT_FOUND, prog_loc(prog), "no instruction with tag I%u",
                        tag);
    if (!text) {
        prog->instrs[idx].comment = NULL;
        return WA_OK;
    }
    const char *c;
    int r = wa_comment_copy(prog, text, 1, &c);
    if (r == -1)
        return wa_error(prog->ctx, WA_E_INVALID, prog_loc(prog),
                        "comments are single lines of text (found a control character)");
    if (r)
        return wa_error_nomem(prog->ctx);
    prog->instrs[idx].comment = c;
    return WA_OK;
}
