/* lib/ir/validate.c — checks a program against the ISA table and its target.
   Every rule reads facts from the table (operand classes, sizes, formats, flags);
   the few format-level rules (variable operand sizes, 32-bit encodings needed
   for literals, modifier ranges) are written once per format here. */
#include <waveasm/validate.h>

#include "ir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vstate {
    const wa_program *prog;
    wa_context *ctx;
    wa_target target;
    unsigned flags;
    unsigned max_errors;
    unsigned errors;
    int nomem;
} vstate;

static void verr(vstate *V, wa_loc loc, const char *fmt, ...) WA_PRINTF(3, 4);
static void verr(vstate *V, wa_loc loc, const char *fmt, ...)
{
    if (V->max_errors && V->errors >= V->max_errors)
        return;
    va_list ap;
    va_start(ap, fmt);
    wa_verror(V->ctx, WA_E_VALIDATE, loc, fmt, ap);
    va_end(ap);
    V->errors++;
}

static int limit_reached(const vstate *V)
{
    return V->max_errors && V->errors >= V->max_errors;
}

static wa_loc header_loc(const wa_program *prog)
{
    wa_loc loc = { prog->file, prog->header_line, prog->header_line ? 1u : 0u, WA_NO_TAG };
    return loc;
}

/* Where argument `i` was written (its `.arg` line), else the kernel header. */
static wa_loc arg_loc(const wa_program *prog, unsigned i)
{
    const wa_arg *a = &prog->args[i];
    if (!a->line)
        return header_loc(prog);
    wa_loc loc = { prog->file, a->line, a->col, WA_NO_TAG };
    return loc;
}

/* Operand text for messages ("%v4[1:2]", "s[0:1]", "0x1234"). */
static const char *otext(vstate *V, const wa_operand *o, char *buf, size_t n)
{
    wa_sb sb;
    wa_sb_init(&sb, V->ctx);
    wa_format_operand(&sb, V->prog, o, NULL, WA_FMT_NO_DECL);
    if (sb.failed || !sb.data)
        snprintf(buf, n, "operand");
    else
        snprintf(buf, n, "%s", sb.data);
    wa_sb_free(&sb);
    return buf;
}

static const char *class_list(unsigned classes, char *buf, size_t n)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {
        { WA_OC_VGPR, "VGPR" }, { WA_OC_AGPR, "AGPR" }, { WA_OC_SGPR, "SGPR" },
        { WA_OC_SPECIAL, "vcc/exec/m0" }, { WA_OC_INLINE, "inline constant" },
        { WA_OC_LITERAL, "literal" }, { WA_OC_IMM, "immediate" }, { WA_OC_LABEL, "label" },
        { WA_OC_OFF, "off" },
    };
    buf[0] = '\0';
    size_t len = 0;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!(classes & names[i].bit))
            continue;
        int w = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", names[i].name);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
    return buf;
}

static const char *kind_word(const wa_operand *o)
{
    switch (o->kind) {
    case WA_OPND_VIRT:
    case WA_OPND_PHYS:
        return o->reg_class == WA_REG_VGPR ? "a VGPR" : o->reg_class == WA_REG_SGPR ? "an SGPR"
                                                                                    : "an AGPR";
    case WA_OPND_SPECIAL: return "a special register";
    case WA_OPND_IMM:
    case WA_OPND_FIMM: return "an immediate";
    case WA_OPND_LABEL: return "a label";
    case WA_OPND_OFF: return "'off'";
    default: return "nothing";
    }
}

/* ---- attributes -------------------------------------------------------------------------------- */

/* Two arguments that share bytes: `later` has the higher index. */
typedef struct arg_pair {
    unsigned later, earlier;
} arg_pair;

typedef struct arg_span {
    unsigned long long lo, hi;
    unsigned index;
} arg_span;

static int cmp_span(const void *x, const void *y)
{
    const arg_span *a = x, *b = y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_pair(const void *x, const void *y)
{
    const arg_pair *a = x, *b = y;
    if (a->later != b->later)
        return a->later < b->later ? -1 : 1;
    return a->earlier < b->earlier ? -1 : a->earlier > b->earlier;
}

/* Overlapping arguments, ordered by the later index, then the earlier. Sorted by
   offset, each argument is paired with the furthest-reaching argument before it
   when that one reaches past its start. Of any two overlapping arguments the one
   that starts later (on a tie, the higher index) gets a pair, so every overlap
   is caught in O(n log n), with at most as many pairs as arguments: an argument
   inside several others names one of them. NULL when there is none (or when
   out of memory, noted in V). */
static arg_pair *overlapping_args(vstate *V, unsigned *out_n)
{
    const wa_program *p = V->prog;
    *out_n = 0;
    if (p->nargs < 2)
        return NULL;
    arg_span *span = wa_mem_alloc(V->ctx, (size_t)p->nargs * sizeof(arg_span));
    arg_pair *pairs = wa_mem_alloc(V->ctx, (size_t)p->nargs * sizeof(arg_pair));
    if (!span || !pairs) {
        wa_mem_free(V->ctx, span);
        wa_mem_free(V->ctx, pairs);
        wa_error_nomem(V->ctx);
        V->errors++;
        V->nomem = 1;
        return NULL;
    }
    unsigned ns = 0, np = 0;
    for (unsigned i = 0; i < p->nargs; i++) {
        const wa_kernel_arg *a = &p->args[i].arg;
        if (!a->size)
            continue; /* no bytes (reported as such) */
        span[ns].lo = a->offset;
        span[ns].hi = (unsigned long long)a->offset + a->size;
        span[ns++].index = i;
    }
    qsort(span, ns, sizeof(arg_span), cmp_span);
    unsigned long long reach = 0;
    unsigned holder = 0;
    for (unsigned k = 0; k < ns; k++) {
        if (k && span[k].lo < reach) {
            unsigned a = span[k].index, b = span[holder].index;
            pairs[np].later = a > b ? a : b;
            pairs[np++].earlier = a > b ? b : a;
        }
        if (!k || span[k].hi > reach) {
            reach = span[k].hi;
            holder = k;
        }
    }
    wa_mem_free(V->ctx, span);
    qsort(pairs, np, sizeof(arg_pair), cmp_pair);
    *out_n = np;
    return pairs;
}

static int label_clashes(const wa_program *p, const char *l, size_t nl)
{
    return strcmp(l, p->name) == 0 || (strncmp(l, p->name, nl) == 0 && strcmp(l + nl, ".kd") == 0) ||
           strncmp(l, ".Lwa_", 5) == 0 || !wa_label_name_valid(l);
}

/* Labels share the assembler's symbol table with the kernel's own symbols. Only
   labels in the code count: one neither placed nor named by a branch is not
   printed, emitted or assembled. */
static void check_label_names(vstate *V, wa_loc loc)
{
    const wa_program *p = V->prog;
    size_t nl = strlen(p->name);
    unsigned first = p->nlabels;
    for (unsigned i = 0; i < p->nlabels && first == p->nlabels; i++)
        if (label_clashes(p, p->labels[i].name, nl))
            first = i;
    if (first == p->nlabels)
        return;
    unsigned char *used = wa_mem_calloc(V->ctx, p->nlabels + 1, 1);
    if (!used) {
        wa_error_nomem(V->ctx);
        V->errors++;
        V->nomem = 1;
        return;
    }
    for (unsigned i = 0; i < p->ninstrs; i++)
        for (unsigned k = 0; k < p->instrs[i].nops; k++)
            if (p->instrs[i].ops[k].kind == WA_OPND_LABEL && p->instrs[i].ops[k].id < p->nlabels)
                used[p->instrs[i].ops[k].id] = 1;
    for (unsigned i = first; i < p->nlabels; i++) {
        const char *l = p->labels[i].name;
        if (used[i] && label_clashes(p, l, nl))
            verr(V, loc, "label '%s' clashes with a symbol of kernel '%s' or is reserved", l,
                 p->name);
    }
    wa_mem_free(V->ctx, used);
}

static void check_attributes(vstate *V)
{
    const wa_program *p = V->prog;
    wa_loc loc = header_loc(p);
    if (!wa_target_name(p->target))
        verr(V, loc, "unknown target");
    if (!wa_kernel_name_valid(p->name))
        verr(V, loc, "kernel name is not a valid global symbol");
    check_label_names(V, loc);
    unsigned long long prod = 1;
    for (unsigned i = 0; i < 3; i++) {
        if (p->wg[i] < 1 || p->wg[i] > 1024)
            verr(V, loc, "workgroup size %c = %u out of range (1..1024)", "xyz"[i], p->wg[i]);
        prod *= p->wg[i] ? p->wg[i] : 1;
    }
    if (prod > 1024)
        verr(V, loc, "workgroup size %ux%ux%u has %llu work-items; the maximum is 1024", p->wg[0],
             p->wg[1], p->wg[2], prod);
    if (p->lds_bytes > wa_target_max_lds(p->target))
        verr(V, loc, "LDS size %u bytes exceeds the %u bytes of %s", p->lds_bytes,
             wa_target_max_lds(p->target), wa_target_name(p->target) ? wa_target_name(p->target) : "?");
    unsigned npairs = 0, k = 0;
    arg_pair *pairs = overlapping_args(V, &npairs);
    for (unsigned i = 0; i < p->nargs; i++) {
        const wa_kernel_arg *a = &p->args[i].arg;
        wa_loc aloc = arg_loc(p, i);
        const char *nm = a->name ? a->name : "(unnamed)";
        if (a->size == 0)
            verr(V, aloc, "argument %u '%s' has size 0", i, nm);
        if (a->align == 0 || (a->align & (a->align - 1)))
            verr(V, aloc, "argument %u '%s': alignment %u is not a power of two", i, nm, a->align);
        else if (a->offset % a->align)
            verr(V, aloc, "argument %u '%s': offset %u is not a multiple of its alignment %u", i,
                 nm, a->offset, a->align);
        /* global pointers are 64-bit; an LDS pointer is 32-bit (LLVM writes 4), a
           generic one 64-bit */
        if (a->kind == WA_ARG_GLOBAL_BUFFER && a->size != 8)
            verr(V, aloc, "argument %u '%s': global pointer arguments are 8 bytes, not %u", i, nm,
                 a->size);
        if (a->kind == WA_ARG_DYNAMIC_SHARED_POINTER && a->size != 4 && a->size != 8)
            verr(V, aloc, "argument %u '%s': dynamic shared pointers are 4 bytes (8 as a generic pointer), not %u",
                 i, nm, a->size);
        if ((unsigned long long)a->offset + a->size > 65536ull)
            verr(V, aloc, "argument %u '%s' ends past the 64 KiB kernarg segment limit", i, nm);
        for (; k < npairs && pairs[k].later == i; k++) {
            const wa_kernel_arg *b = &p->args[pairs[k].earlier].arg;
            verr(V, aloc, "argument %u '%s' overlaps argument %u '%s'", i, nm, pairs[k].earlier,
                 b->name ? b->name : "(unnamed)");
        }
    }
    wa_mem_free(V->ctx, pairs);
}

/* ---- operands ----------------------------------------------------------------------------------- */

/* Registers an operand position needs when the table says "decided by modifiers". */
static int variable_size(vstate *V, const wa_instr *in, const wa_isa_info *info, unsigned idx,
                         unsigned *size)
{
    const wa_isa_operand *spec = &info->operands[idx];
    wa_loc loc = wa_instr_loc(V->prog, in);
    if (info->format == WA_FMT_MUBUF && strcmp(spec->name, "vaddr") == 0) {
        unsigned f = in->mods.flags & (WA_MOD_OFFEN | WA_MOD_IDXEN);
        *size = f == (WA_MOD_OFFEN | WA_MOD_IDXEN) ? 2 : f ? 1 : 0;
        return 1;
    }
    if (info->format == WA_FMT_GLOBAL && strcmp(spec->name, "vaddr") == 0) {
        const wa_operand *saddr = NULL;
        for (unsigned k = 0; k < in->nops; k++)
            if (strcmp(info->operands[k].name, "saddr") == 0)
                saddr = &in->ops[k];
        *size = saddr && saddr->kind != WA_OPND_OFF ? 1 : 2;
        return 1;
    }
    if (info->flags & WA_IF_F8F6F4) {
        unsigned fmtcode = strcmp(spec->name, "srcA") == 0 ? in->mods.cbsz : in->mods.blgp;
        /* 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4; the assembler reads the reserved codes
           5..7 with the fp8 size (the simulator refuses them) */
        static const unsigned regs[8] = { 8, 8, 6, 6, 4, 8, 8, 8 };
        if (fmtcode > 7) {
            verr(V, loc, "%s %u is not an F8F6F4 format (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)",
                 strcmp(spec->name, "srcA") == 0 ? "cbsz" : "blgp", fmtcode);
            return 0;
        }
        *size = regs[fmtcode];
        return 1;
    }
    *size = 0;
    return 1;
}

typedef struct scalar_read {
    const wa_operand *o;
} scalar_read;

static int same_scalar(const wa_operand *a, const wa_operand *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == WA_OPND_SPECIAL)
        return a->id == b->id;
    if (a->kind == WA_OPND_VIRT)
        return a->id == b->id && a->first == b->first && a->count == b->count;
    return a->id == b->id && a->count == b->count; /* PHYS */
}

static int is_reg(const wa_operand *o)
{
    return o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS;
}

static void check_alignment(vstate *V, const wa_instr *in, const wa_isa_info *info,
                            const wa_operand *o, unsigned idx, unsigned size)
{
    wa_reg_class cls = (wa_reg_class)o->reg_class;
    unsigned need = wa_target_tuple_align(V->target, cls, size);
    char b1[64];
    if (need <= 1)
        return;
    wa_loc loc = wa_instr_loc(V->prog, in);
    if (o->kind == WA_OPND_PHYS) {
        if (o->id % need)
            verr(V, loc, "misaligned tuple %s for %s operand %s: %u-register %s tuples must start at a multiple of %u on %s",
                 otext(V, o, b1, sizeof(b1)), info->mnemonic, info->operands[idx].name, size,
                 cls == WA_REG_SGPR ? "SGPR" : cls == WA_REG_VGPR ? "VGPR" : "AGPR", need,
                 wa_target_name(V->target));
    } else {
        const wa_vreg *v = &V->prog->vregs[o->id];
        if (v->align < need || o->first % need)
            verr(V, loc, "misaligned tuple %s for %s operand %s: needs alignment %u on %s (register alignment %u, first component %u)",
                 otext(V, o, b1, sizeof(b1)), info->mnemonic, info->operands[idx].name, need,
                 wa_target_name(V->target), v->align, o->first);
    }
}

static int is_vcc(const wa_operand *o)
{
    return o->kind == WA_OPND_SPECIAL && o->id == WA_SPECIAL_VCC;
}

static int needs_vop3(const wa_instr *in, const wa_isa_info *info)
{
    return wa_instr_needs_vop3(in, info);
}

static void check_operands(vstate *V, const wa_instr *in, const wa_isa_info *info)
{
    wa_loc loc = wa_instr_loc(V->prog, in);
    char b1[64], b2[160];
    unsigned literals = 0;
    uint32_t literal_bits = 0;
    int literal_seen = 0;
    const wa_operand *scalars[WA_ISA_MAX_OPERANDS];
    unsigned nscalars = 0;
    int is_valu = info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2 ||
                  info->format == WA_FMT_VOPC || info->format == WA_FMT_VOP3 ||
                  info->format == WA_FMT_VOP3P;

    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        const wa_isa_operand *spec = &info->operands[k];
        const wa_operand *o = &in->ops[k];
        unsigned cls = spec->classes;
        int ok = 1;
        switch (o->kind) {
        case WA_OPND_VIRT:
        case WA_OPND_PHYS:
            ok = (o->reg_class == WA_REG_VGPR && (cls & WA_OC_VGPR)) ||
                 (o->reg_class == WA_REG_SGPR && (cls & WA_OC_SGPR)) ||
                 (o->reg_class == WA_REG_AGPR && (cls & WA_OC_AGPR));
            break;
        case WA_OPND_SPECIAL:
            ok = (cls & WA_OC_SPECIAL) != 0;
            if (ok && o->id == WA_SPECIAL_SCC) {
                verr(V, loc, "%s operand %s: scc is implicit and cannot be an explicit operand",
                     info->mnemonic, spec->name);
                continue;
            }
            if (ok && spec->role != WA_ROLE_USE && (info->flags & WA_IF_NO_SPECIAL_DST)) {
                verr(V, loc, "%s operand %s: the destination must be a numbered SGPR, not %s",
                     info->mnemonic, spec->name, otext(V, o, b1, sizeof(b1)));
                continue;
            }
            break;
        case WA_OPND_IMM:
        case WA_OPND_FIMM:
            ok = (cls & (WA_OC_INLINE | WA_OC_LITERAL | WA_OC_IMM)) != 0;
            break;
        case WA_OPND_LABEL:
            ok = (cls & WA_OC_LABEL) != 0;
            break;
        case WA_OPND_OFF:
            ok = (cls & WA_OC_OFF) != 0;
            break;
        default:
            ok = 0;
        }
        if (!ok) {
            verr(V, loc, "%s operand %u (%s): expected %s, got %s %s", info->mnemonic, k,
                 spec->name, class_list(cls, b2, sizeof(b2)), kind_word(o),
                 o->kind == WA_OPND_NONE ? "" : otext(V, o, b1, sizeof(b1)));
            continue;
        }
        if (V->flags & WA_VALIDATE_PHYSICAL && o->kind == WA_OPND_VIRT) {
            verr(V, loc, "%s operand %s: virtual register %s not allowed (registers must be allocated)",
                 info->mnemonic, spec->name, otext(V, o, b1, sizeof(b1)));
            continue;
        }

        /* Immediates. */
        if (o->kind == WA_OPND_IMM || o->kind == WA_OPND_FIMM) {
            if ((cls & WA_OC_IMM) && o->kind == WA_OPND_IMM) {
                if (o->imm.i < spec->imm_min || o->imm.i > spec->imm_max)
                    verr(V, loc, "%s operand %s: %lld out of range (%d..%d)", info->mnemonic,
                         spec->name, (long long)o->imm.i, spec->imm_min, spec->imm_max);
                continue;
            }
            if ((cls & WA_OC_IMM) && !(cls & (WA_OC_INLINE | WA_OC_LITERAL))) {
                verr(V, loc, "%s operand %s: expected an integer", info->mnemonic, spec->name);
                continue;
            }
            uint32_t bits;
            if (cls & WA_OC_KLIT) { /* literal-K: the literal dword, whatever the value */
                if (!wa_imm_bits32(o, (wa_data_type)spec->type, &bits)) {
                    verr(V, loc, "%s operand %s: %s does not fit a 32-bit literal", info->mnemonic,
                         spec->name, otext(V, o, b1, sizeof(b1)));
                    continue;
                }
                if (!literal_seen || bits != literal_bits)
                    literals++;
                literal_seen = 1;
                literal_bits = bits;
                continue;
            }
            if ((cls & WA_OC_INLINE) && wa_imm_is_inline(o, (wa_data_type)spec->type))
                continue;
            if (!(cls & WA_OC_LITERAL)) {
                verr(V, loc, "%s operand %s: %s is not an inline constant (-16..64, +-0.5, +-1.0, +-2.0, +-4.0, 1/(2*pi)) and this position takes no literal",
                     info->mnemonic, spec->name, otext(V, o, b1, sizeof(b1)));
                continue;
            }
            if (!wa_imm_bits32(o, (wa_data_type)spec->type, &bits)) {
                verr(V, loc, "%s operand %s: %s does not fit a 32-bit literal", info->mnemonic,
                     spec->name, otext(V, o, b1, sizeof(b1)));
                continue;
            }
            if (!literal_seen || bits != literal_bits)
                literals++;
            literal_seen = 1;
            literal_bits = bits;
            continue;
        }
        if (!is_reg(o) && o->kind != WA_OPND_SPECIAL)
            continue;

        /* Size. */
        unsigned want = spec->size;
        if (want == 0 && !variable_size(V, in, info, k, &want))
            continue;
        unsigned have = wa_operand_regs(V->prog, o);
        if (want == 0) {
            if (o->kind != WA_OPND_OFF)
                verr(V, loc, "%s operand %s must be 'off' without offen/idxen", info->mnemonic,
                     spec->name);
            continue;
        }
        if (have != want) {
            verr(V, loc, "%s operand %s: expected %u register%s, got %u (%s)", info->mnemonic,
                 spec->name, want, want == 1 ? "" : "s", have, otext(V, o, b1, sizeof(b1)));
            continue;
        }
        if (o->kind == WA_OPND_PHYS) {
            unsigned limit = o->reg_class == WA_REG_SGPR ? WA_MAX_SGPR : WA_MAX_VGPR;
            if (o->id + o->count > limit) {
                verr(V, loc, "%s operand %s: %s is outside the register file (%s%u at most)",
                     info->mnemonic, spec->name, otext(V, o, b1, sizeof(b1)),
                     o->reg_class == WA_REG_SGPR ? "s" : o->reg_class == WA_REG_VGPR ? "v" : "a",
                     limit - 1);
                continue;
            }
        }
        if (is_reg(o))
            check_alignment(V, in, info, o, k, want);

        /* Scalar reads for the constant bus. */
        if (is_valu && spec->role != WA_ROLE_DEF &&
            (o->kind == WA_OPND_SPECIAL || o->reg_class == WA_REG_SGPR)) {
            int exempt = info->hazard == WA_HZ_WRITELANE && strcmp(spec->name, "ssrc1") == 0 &&
                         o->kind == WA_OPND_SPECIAL && o->id == WA_SPECIAL_M0;
            int dup = 0;
            for (unsigned s = 0; s < nscalars; s++)
                dup |= same_scalar(scalars[s], o);
            if (!exempt && !dup)
                scalars[nscalars++] = o;
        }
    }

    /* Mismatched `off`/offen combinations for MUBUF vaddr. */
    if (info->format == WA_FMT_MUBUF) {
        for (unsigned k = 0; k < in->nops; k++)
            if (strcmp(info->operands[k].name, "vaddr") == 0 && in->ops[k].kind == WA_OPND_OFF &&
                (in->mods.flags & (WA_MOD_OFFEN | WA_MOD_IDXEN)))
                verr(V, loc, "%s: vaddr is 'off' but offen/idxen asks for an address VGPR",
                     info->mnemonic);
    }

    /* Memory instructions have one `acc` bit for all their data registers. */
    if (info->format == WA_FMT_DS || info->format == WA_FMT_MUBUF || info->format == WA_FMT_GLOBAL) {
        int seen = 0;
        unsigned cls = 0;
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
            const wa_isa_operand *spec = &info->operands[k];
            const wa_operand *o = &in->ops[k];
            if (!is_reg(o) || !(spec->classes & WA_OC_AGPR))
                continue;
            if (seen && o->reg_class != cls) {
                verr(V, loc, "%s: data registers must be all VGPRs or all AGPRs (one acc bit)",
                     info->mnemonic);
                break;
            }
            seen = 1;
            cls = o->reg_class;
        }
    }
    /* An implicit VCC read (v_div_fmas) takes the constant bus slot too, unless vcc
       is also an explicit source (v_div_fmas_f64 ..., vcc, ...: one value). */
    if (is_valu && (info->implicit_uses & WA_IMPL_VCC)) {
        int has_vcc = 0;
        for (unsigned s = 0; s < nscalars; s++)
            has_vcc |= scalars[s]->kind == WA_OPND_SPECIAL && scalars[s]->id == WA_SPECIAL_VCC;
        nscalars += !has_vcc;
    }
    /* The base of an M0-relative SGPR index must be a physical register: the
       register accessed is base + M0, which a virtual register cannot express. */
    if ((info->flags & WA_IF_REL_M0) && !(V->flags & WA_VALIDATE_PHYSICAL))
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
            if (info->operands[k].classes == WA_OC_SGPR && in->ops[k].kind == WA_OPND_VIRT)
                verr(V, loc, "%s operand %s: the base of an M0-relative index must be a physical SGPR, not %s",
                     info->mnemonic, info->operands[k].name, otext(V, &in->ops[k], b1, sizeof(b1)));
    if (literals > 1)
        verr(V, loc, "%s: only one distinct 32-bit literal is allowed per instruction",
             info->mnemonic);
    if (literals && needs_vop3(in, info))
        verr(V, loc, "%s: a literal needs the 32-bit encoding (src1 a VGPR, destination vcc for compares and masks); VOP3 takes no literal on %s",
             info->mnemonic, wa_target_name(V->target));
    if (is_valu && nscalars + literals > 1)
        verr(V, loc, "%s reads %u scalar values (SGPRs, vcc, m0, exec or literals); the constant bus allows 1 on %s",
             info->mnemonic, nscalars + literals, wa_target_name(V->target));
}

/* ---- MFMA --------------------------------------------------------------------------------------- */

static int overlap(const wa_operand *a, const wa_operand *b, int *identical)
{
    *identical = 0;
    if (!is_reg(a) || !is_reg(b) || a->kind != b->kind || a->reg_class != b->reg_class)
        return 0;
    if (a->kind == WA_OPND_VIRT) {
        if (a->id != b->id)
            return 0;
        *identical = a->first == b->first && a->count == b->count;
        return a->first < b->first + b->count && b->first < a->first + a->count;
    }
    *identical = a->id == b->id && a->count == b->count;
    return a->id < b->id + b->count && b->id < a->id + a->count;
}

static void check_mfma(vstate *V, const wa_instr *in, const wa_isa_info *info)
{
    wa_loc loc = wa_instr_loc(V->prog, in);
    /* SMFMAC has no srcC operand: vdst is the accumulator, operand 3 the index VGPR */
    const wa_operand *d = &in->ops[0], *c = &in->ops[3];
    if (strcmp(info->operands[3].name, "srcC") == 0 && is_reg(c) && is_reg(d) &&
        c->reg_class != d->reg_class)
        verr(V, loc, "%s: srcC and vdst must both be VGPRs or both AGPRs", info->mnemonic);
    for (unsigned k = 1; k < in->nops; k++) {
        int same;
        if (!overlap(d, &in->ops[k], &same) || wa_mfma_overlap_allowed(info, k, same))
            continue;
        if (k == 3)
            verr(V, loc, "%s: srcC must be identical to vdst or not overlap it", info->mnemonic);
        else
            verr(V, loc, "%s: vdst must not overlap %s: the %u-register result is written while the sources are still read",
                 info->mnemonic, info->operands[k].name, info->operands[0].size);
    }
    const wa_mods *m = &in->mods;
    const wa_mfma_shape *shape = wa_isa_mfma_shape(in->op);
    /* f64: the BLGP field is blgp on gfx90a and neg:[a,b,c] on gfx942/gfx950 */
    if (shape && shape->input == WA_MFMA_IN_F64 && V->target == WA_TARGET_GFX90A && m->neg)
        verr(V, loc, "%s takes no neg on gfx90a (the field is blgp there)", info->mnemonic);
    if (shape && shape->input == WA_MFMA_IN_F64 && V->target != WA_TARGET_GFX90A && m->blgp)
        verr(V, loc, "%s takes no blgp on %s (the field is the neg modifier there)",
             info->mnemonic, wa_target_name(V->target));
    if (!(info->flags & WA_IF_F8F6F4) && (m->cbsz > 7 || m->abid > 15 || m->blgp > 7))
        verr(V, loc, "%s: cbsz must be 0..7, abid 0..15, blgp 0..7", info->mnemonic);
}

/* ---- DPP ------------------------------------------------------------------------------------------ */

static int dpp_ctrl_valid(unsigned c)
{
    return c <= 0xFF || (c >= 0x101 && c <= 0x10F) || (c >= 0x111 && c <= 0x11F) ||
           (c >= 0x121 && c <= 0x12F) || c == WA_DPP_WAVE_SHL1 || c == WA_DPP_WAVE_ROL1 ||
           c == WA_DPP_WAVE_SHR1 || c == WA_DPP_WAVE_ROR1 || c == WA_DPP_ROW_MIRROR ||
           c == WA_DPP_ROW_HALF_MIRROR || c == WA_DPP_ROW_BCAST15 || c == WA_DPP_ROW_BCAST31;
}

/* DPP (WA_MODOK_DPP rows: the 32-bit form of VOP1/VOP2 instructions that write
   a VGPR from a VGPR src0; llvm-mc: not v_readfirstlane, v_accvgpr_mov, the lane
   swaps, no VOPC on GFX9): every source a VGPR (the DPP word replaces src0's
   constant slot, and the 32-bit form takes VGPRs in src1), the VCC32 positions
   vcc. The DPP word has neg/abs for src0 and src1; no clamp, omod or op_sel. */
static void check_dpp(vstate *V, const wa_instr *in, const wa_isa_info *info)
{
    wa_loc loc = wa_instr_loc(V->prog, in);
    const char *mn = info->mnemonic;
    const wa_mods *m = &in->mods;
    if (!dpp_ctrl_valid(m->dpp_ctrl))
        verr(V, loc, "%s: DPP control 0x%x is not one of quad_perm, row_shl/shr/ror:1..15, wave_shl/rol/shr/ror:1, row_mirror, row_half_mirror, row_bcast:15/31",
             mn, m->dpp_ctrl);
    if (m->row_mask > 15 || m->bank_mask > 15)
        verr(V, loc, "%s: row_mask and bank_mask have 4 bits", mn);
    if ((m->flags & WA_MOD_CLAMP) || m->omod || m->op_sel)
        verr(V, loc, "%s with DPP takes no clamp, output modifier or op_sel", mn);
    char b1[64];
    for (unsigned k = 1; k < in->nops && k < info->num_operands; k++) {
        const wa_operand *o = &in->ops[k];
        const wa_isa_operand *spec = &info->operands[k];
        if (spec->classes & WA_OC_VCC32) {
            if (!is_vcc(o))
                verr(V, loc, "%s with DPP: %s must be vcc (32-bit form), not %s", mn, spec->name,
                     otext(V, o, b1, sizeof(b1)));
            continue;
        }
        if (!(is_reg(o) && o->reg_class == WA_REG_VGPR))
            verr(V, loc, "%s with DPP: %s must be a VGPR, not %s (%s)", mn, spec->name,
                 kind_word(o), otext(V, o, b1, sizeof(b1)));
    }
    if (!(is_reg(&in->ops[0]) && in->ops[0].reg_class == WA_REG_VGPR))
        verr(V, loc, "%s with DPP: the destination must be a VGPR", mn);
}

/* SDWA (WA_MODOK_SDWA rows, the 32-bit VOP1/VOP2/VOPC forms): src0 and src1 are
   VGPRs, SGPRs or inline constants (no literal); the destination a VGPR, or for
   compares vcc or an SGPR pair; selects in range. */
static void check_sdwa(vstate *V, const wa_instr *in, const wa_isa_info *info)
{
    wa_loc loc = wa_instr_loc(V->prog, in);
    const char *mn = info->mnemonic;
    const wa_mods *m = &in->mods;
    if (m->dst_sel > WA_SDWA_DWORD || m->src0_sel > WA_SDWA_DWORD ||
        m->src1_sel > WA_SDWA_DWORD || m->dst_unused > WA_SDWA_UNUSED_PRESERVE)
        verr(V, loc, "%s: SDWA selects are BYTE_0..3, WORD_0..1 or DWORD and dst_unused "
                     "UNUSED_PAD, UNUSED_SEXT or UNUSED_PRESERVE", mn);
    if (m->op_sel)
        verr(V, loc, "%s with SDWA takes no op_sel", mn);
    /* the SDWA form has an output modifier for a float result only */
    wa_data_type dt = info->num_operands ? (wa_data_type)info->operands[0].type : WA_TY_NONE;
    if (m->omod && dt != WA_TY_F32 && dt != WA_TY_F16 && dt != WA_TY_F64 && dt != WA_TY_BF16)
        verr(V, loc, "%s with SDWA takes no output modifier (mul:2, mul:4, div:2): its result "
                     "is not a float", mn);
    if (info->format == WA_FMT_VOPC && (m->flags & WA_MOD_CLAMP))
        verr(V, loc, "%s: a compare with SDWA takes no clamp", mn);
    /* sext() is the integer counterpart of neg/abs: a source that takes neg/abs
       (a float source) has no sext */
    int mixed = 0; /* some sources take neg/abs, others sext() (v_cmp_class) */
    for (unsigned k = 0; k < info->num_operands; k++)
        mixed |= wa_source_slot(info, k) >= 0 && !wa_source_takes_fmods(info, k);
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        int slot = wa_source_slot(info, k);
        if (slot >= 0 && slot < 2 && (m->sext >> slot & 1u) && wa_source_takes_fmods(info, k)) {
            if (mixed)
                verr(V, loc, "%s: %s takes no sext() (it takes neg/abs)", mn,
                     info->operands[k].name);
            else
                verr(V, loc, "%s takes no sext() (its sources take neg/abs)", mn);
            break;
        }
    }
    if (info->format == WA_FMT_VOPC && (m->dst_sel != WA_SDWA_DWORD ||
                                        m->dst_unused != WA_SDWA_UNUSED_PRESERVE))
        verr(V, loc, "%s: a compare has no dst_sel/dst_unused", mn);
    if (wa_source_count(info) < 2 && m->src1_sel != WA_SDWA_DWORD)
        verr(V, loc, "%s has no src1 to select from", mn);
    char b1[64];
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        const wa_operand *o = &in->ops[k];
        const wa_isa_operand *spec = &info->operands[k];
        if (spec->classes & WA_OC_VCC32) {
            if (!is_vcc(o) && spec->role != WA_ROLE_DEF)
                verr(V, loc, "%s with SDWA: %s must be vcc, not %s", mn, spec->name,
                     otext(V, o, b1, sizeof(b1)));
            continue;
        }
        if (spec->role != WA_ROLE_USE) {
            if (!(is_reg(o) && o->reg_class == WA_REG_VGPR))
                verr(V, loc, "%s with SDWA: the destination must be a VGPR", mn);
            continue;
        }
        if (o->kind == WA_OPND_IMM || o->kind == WA_OPND_FIMM) {
            double f = o->kind == WA_OPND_FIMM ? fabs(o->imm.f) : 0.0;
            if (!wa_imm_is_inline(o, (wa_data_type)spec->type))
                verr(V, loc, "%s with SDWA: %s takes no literal (%s)", mn, spec->name,
                     otext(V, o, b1, sizeof(b1)));
            else if (spec->type == WA_TY_B16 && f != 0.0 && f != 0.5 && f != 1.0 && f != 2.0 &&
                     f != 4.0) /* as llvm-mc: the one inline float left is 1/(2*pi) */
                verr(V, loc, "%s with SDWA: %s (16-bit integer) takes no 1/(2*pi)", mn,
                     spec->name);
        } else if (!(is_reg(o) || o->kind == WA_OPND_SPECIAL)) {
            verr(V, loc, "%s with SDWA: %s must be a register or an inline constant", mn,
                 spec->name);
        }
    }
}

/* ---- modifiers ---------------------------------------------------------------------------------- */

/* The range of offset:N per format (field widths of the encodings). */
static void offset_range(const wa_isa_info *info, long long *lo, long long *hi)
{
    switch (info->format) {
    case WA_FMT_MUBUF:
    case WA_FMT_FLAT: *lo = 0; *hi = 4095; break;
    case WA_FMT_GLOBAL:
    case WA_FMT_SCRATCH: *lo = -4096; *hi = 4095; break;
    case WA_FMT_DS: *lo = 0; *hi = (info->flags & WA_IF_DS_2ADDR) ? 255 : 65535; break;
    case WA_FMT_SMEM:
        *lo = (info->flags & WA_IF_SMEM_BUFFER) ? 0 : -1048576;
        *hi = 1048575;
        break;
    default: *lo = *hi = 0; break;
    }
}

static const struct {
    unsigned flag, ok;
    const char *name;
} mod_flags[] = {
    { WA_MOD_OFFEN, WA_MODOK_OFFEN, "offen" },
    { WA_MOD_IDXEN, WA_MODOK_IDXEN, "idxen" },
    { WA_MOD_GLC, WA_MODOK_GLC, "glc/sc0" },
    { WA_MOD_SLC, WA_MODOK_SLC, "slc/nt" },
    { WA_MOD_SCC, WA_MODOK_SC1, "scc/sc1" },
    { WA_MOD_LDS, WA_MODOK_LDS, "lds" },
    { WA_MOD_DPP, WA_MODOK_DPP, "DPP" },
    { WA_MOD_BOUND_CTRL, WA_MODOK_DPP, "bound_ctrl" },
    { WA_MOD_CLAMP, WA_MODOK_CLAMP, "clamp" },
    { WA_MOD_SDWA, WA_MODOK_SDWA, "SDWA" },
};

/* Every modifier must be one the row allows (wa_isa_info.mods_ok); fields are
   checked against the format's ranges and the row's sources. */
static void check_mods(vstate *V, const wa_instr *in, const wa_isa_info *info)
{
    wa_loc loc = wa_instr_loc(V->prog, in);
    const wa_mods *m = &in->mods;
    const unsigned ok = info->mods_ok;
    const char *mn = info->mnemonic;
    unsigned known = 0;
    for (unsigned i = 0; i < sizeof(mod_flags) / sizeof(mod_flags[0]); i++) {
        known |= mod_flags[i].flag;
        if ((m->flags & mod_flags[i].flag) && !(ok & mod_flags[i].ok))
            verr(V, loc, "%s takes no %s modifier", mn, mod_flags[i].name);
    }
    if (m->flags & ~known)
        verr(V, loc, "%s: unknown modifier flags 0x%x", mn, m->flags & ~known);
    if ((m->flags & WA_MOD_DPP) && (m->flags & WA_MOD_SDWA))
        verr(V, loc, "%s: DPP and SDWA exclude each other", mn);

    /* Offsets. */
    if (m->offset || m->offset1) {
        long long lo, hi;
        offset_range(info, &lo, &hi);
        if (!(ok & (WA_MODOK_OFFSET | WA_MODOK_OFFSET01)))
            verr(V, loc, "%s takes no offset", mn);
        else if (m->offset < lo || m->offset > hi)
            verr(V, loc, "%s: offset%s %d out of range (%lld..%lld)", mn,
                 (ok & WA_MODOK_OFFSET01) ? "0" : "", m->offset, lo, hi);
        if (m->offset1 && !(ok & WA_MODOK_OFFSET01))
            verr(V, loc, "%s takes no offset1", mn);
        else if (m->offset1 < lo || m->offset1 > hi)
            verr(V, loc, "%s: offset1 %d out of range (%lld..%lld)", mn, m->offset1, lo, hi);
    }
    /* SMEM: offset:N is the immediate added to an SGPR soffset (the soe form);
       with an immediate soffset the operand is the offset. */
    if (info->format == WA_FMT_SMEM && m->offset)
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
            if (info->operands[k].name && strcmp(info->operands[k].name, "soffset") == 0 &&
                (in->ops[k].kind == WA_OPND_IMM || in->ops[k].kind == WA_OPND_FIMM))
                verr(V, loc, "%s: offset:%d needs an SGPR %s (with an immediate %s, the operand is the offset)",
                     mn, m->offset, info->operands[k].name, info->operands[k].name);
    if ((m->flags & WA_MOD_LDS) && !(info->flags & WA_IF_LDS_DMA))
        verr(V, loc, "%s has no lds form", mn);
    if ((info->flags & WA_IF_LDS_DMA) && !(m->flags & WA_MOD_LDS))
        verr(V, loc, "%s (lds form) needs the lds modifier", mn);

    /* MFMA broadcast controls. */
    if ((m->cbsz && !(ok & WA_MODOK_CBSZ)) || (m->abid && !(ok & WA_MODOK_ABID)) ||
        (m->blgp && !(ok & WA_MODOK_BLGP)))
        verr(V, loc, "%s takes no %s", mn,
             m->cbsz && !(ok & WA_MODOK_CBSZ) ? "cbsz" : m->abid && !(ok & WA_MODOK_ABID) ? "abid" : "blgp");

    /* Source modifiers, op_sel, output modifiers. */
    unsigned nsrc = wa_source_count(info);
    unsigned srcmask = (1u << (nsrc < 3 ? nsrc : 3)) - 1u;
    if (info->format == WA_FMT_MAI)
        srcmask = 7u; /* neg:[a,b,c] and the scale selects have three entries */
    if (m->op_sel && !(ok & WA_MODOK_OPSEL))
        verr(V, loc, "%s takes no op_sel", mn);
    else if (m->op_sel & ~(srcmask | (wa_opsel_has_dst(info) ? 8u : 0u) |
                           ((info->flags & WA_IF_OPSEL4) ? 0xCu : 0u)))
        verr(V, loc, "%s: op_sel 0x%x selects a source the instruction does not have", mn,
             m->op_sel);
    if (m->op_sel_hi && !(ok & WA_MODOK_OPSEL_HI))
        verr(V, loc, "%s takes no op_sel_hi", mn);
    else if (m->op_sel_hi & ~srcmask)
        verr(V, loc, "%s: op_sel_hi 0x%x selects a source the instruction does not have", mn,
             m->op_sel_hi);
    /* gfx942/gfx950 dot products read their halves in place: op_sel must be 0 and
       op_sel_hi the default (as llvm-mc 22 decides for the whole dot class). */
    if (info->format == WA_FMT_VOP3P && info->hazard == WA_HZ_DOT && (ok & WA_MODOK_OPSEL) &&
        V->target != WA_TARGET_GFX90A && (m->op_sel || m->op_sel_hi))
        verr(V, loc, "%s takes no op_sel/op_sel_hi on %s (only the default selects)", mn,
             wa_target_name(V->target));
    if ((m->neg && !(ok & WA_MODOK_NEG)) || (m->abs && !(ok & WA_MODOK_ABS)) ||
        (m->neg_hi && !(ok & WA_MODOK_NEG_HI)))
        verr(V, loc, "%s takes no %s source modifier", mn,
             m->neg && !(ok & WA_MODOK_NEG) ? (wa_mods_as_lists(info) ? "neg_lo/neg" : "neg (-)")
             : m->abs && !(ok & WA_MODOK_ABS) ? "abs (|..|)" : "neg_hi");
    else if ((m->neg | m->abs | m->neg_hi) & ~srcmask)
        verr(V, loc, "%s: a source modifier names a source the instruction does not have", mn);
    else if (!wa_mods_as_lists(info))
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
            int slot = wa_source_slot(info, k);
            if (slot < 0 || !((m->neg | m->abs) >> slot & 1u))
                continue;
            unsigned sm = wa_isa_source_mods(in->op);
            if (!(info->operands[k].classes & (WA_OC_VGPR | WA_OC_AGPR)))
                verr(V, loc, "%s: operand %s takes no source modifier", mn,
                     info->operands[k].name);
            else if (sm == 0x77u && !wa_source_takes_fmods(info, k))
                /* no WA_SRCMODS row: the operand types decide */
                verr(V, loc, "%s: operand %s is an integer and takes no neg/abs", mn,
                     info->operands[k].name);
            else if (((m->neg >> slot & 1u) && !(sm >> slot & 1u)) ||
                     ((m->abs >> slot & 1u) && !(sm >> (4 + slot) & 1u)))
                verr(V, loc, "%s: operand %s takes no %s", mn, info->operands[k].name,
                     (m->neg >> slot & 1u) && !(sm >> slot & 1u) ? "neg (-)" : "abs (|..|)");
        }
    if (m->omod && !(ok & WA_MODOK_OMOD))
        verr(V, loc, "%s takes no output modifier (mul:2, mul:4, div:2)", mn);
    else if (m->omod > 3)
        verr(V, loc, "%s: output modifier %u out of range", mn, m->omod);
    if (m->sext && !(m->flags & WA_MOD_SDWA))
        verr(V, loc, "%s: sext() needs the SDWA form", mn);
    else if (m->sext & ~srcmask & 3u)
        verr(V, loc, "%s: sext names a source the instruction does not have", mn);

    if ((m->flags & WA_MOD_DPP) && (ok & WA_MODOK_DPP))
        check_dpp(V, in, info);
    if ((m->flags & WA_MOD_SDWA) && (ok & WA_MODOK_SDWA))
        check_sdwa(V, in, info);

    /* s_waitcnt fields. */
    if (m->vmcnt < -1 || m->lgkmcnt < -1 || m->expcnt < -1)
        verr(V, loc, "%s: waitcnt fields are -1 (no wait) or a count", mn);
    if (ok & WA_MODOK_WAITCNT) {
        if (m->vmcnt > 63 || m->lgkmcnt > 15 || m->expcnt > 7)
            verr(V, loc, "s_waitcnt: vmcnt must be 0..63, lgkmcnt 0..15, expcnt 0..7 on %s",
                 wa_target_name(V->target));
    } else if (m->vmcnt != -1 || m->lgkmcnt != -1 || m->expcnt != -1) {
        /* reported for any value other than "no wait" */
        verr(V, loc, "%s takes no vmcnt/lgkmcnt/expcnt", mn);
    }
}

/* ---- whole program ------------------------------------------------------------------------------ */

typedef struct tag_pos {
    wa_tag tag;
    unsigned index;
} tag_pos;

static int cmp_tag(const void *a, const void *b)
{
    const tag_pos *x = a, *y = b;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void check_tags(vstate *V)
{
    const wa_program *p = V->prog;
    tag_pos *t = wa_mem_calloc(V->ctx, p->ninstrs + 1, sizeof(tag_pos));
    if (!t) {
        wa_error_nomem(V->ctx);
        V->errors++;
        V->nomem = 1;
        return;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < p->ninstrs; i++)
        if (p->instrs[i].tag != WA_NO_TAG)
            t[n++] = (tag_pos){ p->instrs[i].tag, i };
    qsort(t, n, sizeof(tag_pos), cmp_tag);
    for (unsigned i = 1; i < n; i++)
        if (t[i].tag == t[i - 1].tag) {
            const wa_instr *in = &p->instrs[t[i].index];
            const wa_instr *first = &p->instrs[t[i - 1].index];
            if (first->line)
                verr(V, wa_instr_loc(p, in), "duplicate tag I%u (first used on line %u)", in->tag,
                     first->line);
            else
                verr(V, wa_instr_loc(p, in), "duplicate tag I%u (first used by item %u)", in->tag,
                     t[i - 1].index);
        }
    wa_mem_free(V->ctx, t);
}

static void check_flow(vstate *V)
{
    const wa_program *p = V->prog;
    unsigned char *placed = wa_mem_calloc(V->ctx, p->nlabels + 1, 1);
    unsigned char *defined = wa_mem_calloc(V->ctx, p->nvregs + 1, 2);
    if (!placed || !defined) {
        wa_mem_free(V->ctx, placed);
        wa_mem_free(V->ctx, defined);
        wa_error_nomem(V->ctx);
        V->errors++;
        V->nomem = 1;
        return;
    }
    unsigned char *reported = defined + p->nvregs + 1;
    for (unsigned i = 0; i < p->ninstrs; i++) {
        const wa_instr *in = &p->instrs[i];
        const wa_isa_info *info = wa_isa_get(in->op);
        if (in->op == WA_OP_LABEL) {
            placed[in->ops[0].id] = 1;
            continue;
        }
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
            unsigned role = info->operands[k].role;
            if ((info->flags & WA_IF_RTN_GLC) && (in->mods.flags & WA_MOD_GLC))
                role |= WA_ROLE_DEF;
            if ((role & WA_ROLE_DEF) && in->ops[k].kind == WA_OPND_VIRT)
                defined[in->ops[k].id] = 1;
        }
    }
    for (unsigned i = 0; i < p->ninstrs && !limit_reached(V); i++) {
        const wa_instr *in = &p->instrs[i];
        const wa_isa_info *info = wa_isa_get(in->op);
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind == WA_OPND_LABEL && in->op != WA_OP_LABEL && !placed[o->id])
                verr(V, wa_instr_loc(p, in), "undefined label '%s'", p->labels[o->id].name);
            if (o->kind == WA_OPND_VIRT && info->operands[k].role == WA_ROLE_USE &&
                !defined[o->id] && !reported[o->id]) {
                char b[64];
                reported[o->id] = 1;
                verr(V, wa_instr_loc(p, in),
                     "virtual register %s is used but never defined", otext(V, o, b, sizeof(b)));
            }
        }
    }
    /* The wave must not run off the end of the program. */
    const wa_instr *last = NULL;
    for (unsigned i = p->ninstrs; i-- > 0;)
        if (!(wa_isa_get(p->instrs[i].op)->flags & WA_IF_PSEUDO)) {
            last = &p->instrs[i];
            break;
        }
    if (!last)
        verr(V, header_loc(p), "kernel '%s' has no instructions (it must end with s_endpgm)",
             p->name);
    else if (!(wa_isa_get(last->op)->flags & (WA_IF_ENDPGM | WA_IF_BRANCH)))
        verr(V, wa_instr_loc(p, last),
             "the last instruction must be s_endpgm or s_branch (control would run off the end)");
    wa_mem_free(V->ctx, placed);
    wa_mem_free(V->ctx, defined);
}

wa_status wa_program_validate(unsigned *out_errors, const wa_program *prog,
                              const wa_validate_options *opts)
{
    if (!prog)
        return WA_E_INVALID;
    if (out_errors)
        *out_errors = 0;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    wa_validate_options defaults = WA_VALIDATE_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    if (opts->version < 1 || opts->version > WA_VALIDATE_OPTIONS_VERSION)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_validate_options version %u",
                        opts->version);
    vstate V = { prog, ctx, prog->target, opts->flags, opts->max_errors, 0, 0 };
    check_attributes(&V);
    for (unsigned i = 0; i < prog->ninstrs && !limit_reached(&V); i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa_get(in->op);
        wa_loc loc = wa_instr_loc(prog, in);
        if (!info) {
            verr(&V, loc, "unknown opcode %u", in->op);
            continue;
        }
        if (info->flags & WA_IF_PSEUDO)
            continue;
        if (!wa_isa_available(in->op, V.target)) {
            verr(&V, loc, "%s is not available on %s", wa_isa_mnemonic(in->op, V.target),
                 wa_target_name(V.target) ? wa_target_name(V.target) : "this target");
            continue;
        }
        if (in->nops != info->num_operands) {
            verr(&V, loc, "%s expects %u operands, has %u", info->mnemonic, info->num_operands,
                 in->nops);
            continue;
        }
        unsigned before = V.errors;
        check_operands(&V, in, info);
        check_mods(&V, in, info);
        if ((info->flags & WA_IF_MFMA) && V.errors == before)
            check_mfma(&V, in, info);
    }
    if (!limit_reached(&V))
        check_tags(&V);
    if (!limit_reached(&V))
        check_flow(&V);
    if (out_errors)
        *out_errors = V.errors;
    if (V.nomem)
        return WA_E_NOMEM;
    return V.errors ? WA_E_VALIDATE : WA_OK;
}
