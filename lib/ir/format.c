/* lib/ir/format.c — spelling of operands, modifiers and instructions, shared by
   the text printer and the assembly emitter so both say the same thing. */
#include "ir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *wa_abi_input_name(wa_abi_input in)
{
    static const char *const names[WA_ABI_COUNT_] = {
        "dispatch_ptr", "queue_ptr", "kernarg_ptr", "dispatch_id", "workgroup_id_x",
        "workgroup_id_y", "workgroup_id_z", "workgroup_info", "workitem_id_x",
        "workitem_id_y", "workitem_id_z",
    };
    return (unsigned)in < WA_ABI_COUNT_ ? names[in] : NULL;
}

void wa_format_int(wa_sb *sb, int64_t v)
{
    if (v > 65536) {
        wa_sb_putn(sb, "0x", 2);
        wa_sb_put_hex(sb, (unsigned long long)v);
    } else {
        wa_sb_put_i64(sb, (long long)v);
    }
}

/* Shortest text that reads back as the same double, always with a '.' or an
   exponent so the parser sees a float. */
void wa_format_float(wa_sb *sb, double d)
{
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof(buf), "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    wa_sb_puts(sb, buf);
}

static char class_letter(unsigned cls)
{
    return cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : cls == WA_REG_AGPR ? 'a' : '?';
}

/* "[first]" or "[first:last]" */
static void put_range(wa_sb *sb, unsigned first, unsigned count)
{
    wa_sb_putc(sb, '[');
    wa_sb_put_u64(sb, first);
    if (count != 1) {
        wa_sb_putc(sb, ':');
        wa_sb_put_u64(sb, first + count - 1);
    }
    wa_sb_putc(sb, ']');
}

void wa_format_operand(wa_sb *sb, const wa_program *prog, const wa_operand *o,
                       unsigned char *declared, unsigned flags)
{
    switch (o->kind) {
    case WA_OPND_VIRT: {
        const wa_vreg *v = &prog->vregs[o->id];
        wa_sb_putc(sb, '%');
        wa_sb_putc(sb, class_letter(v->cls));
        wa_sb_put_u64(sb, o->id);
        if (!(flags & WA_FMT_NO_DECL) && declared && !declared[o->id]) {
            declared[o->id] = 1;
            if (v->size > 1 || v->align > 1) {
                wa_sb_putc(sb, '<');
                wa_sb_put_u64(sb, v->size);
                wa_sb_putn(sb, ",align=", 7);
                wa_sb_put_u64(sb, v->align);
                wa_sb_putc(sb, '>');
            }
        }
        if (o->first != 0 || o->count != v->size)
            put_range(sb, o->first, o->count);
        break;
    }
    case WA_OPND_PHYS:
        wa_sb_putc(sb, class_letter(o->reg_class));
        if (o->count == 1)
            wa_sb_put_u64(sb, o->id);
        else
            put_range(sb, o->id, o->count);
        break;
    case WA_OPND_SPECIAL:
        wa_sb_puts(sb, wa_special_name((wa_special)o->id));
        break;
    case WA_OPND_IMM:
        wa_format_int(sb, o->imm.i);
        break;
    case WA_OPND_FIMM:
        wa_format_float(sb, o->imm.f);
        break;
    case WA_OPND_LABEL:
        wa_sb_puts(sb, prog->labels[o->id].name);
        break;
    case WA_OPND_OFF:
        wa_sb_puts(sb, "off");
        break;
    default:
        wa_sb_puts(sb, "<none>");
        break;
    }
}

static void cache_bits(wa_sb *sb, unsigned flags, wa_target t, wa_format fmt)
{
    int new_names = t != WA_TARGET_GFX90A && fmt != WA_FMT_SMEM;
    if (flags & WA_MOD_GLC)
        wa_sb_puts(sb, new_names ? " sc0" : " glc");
    if (flags & WA_MOD_SCC)
        wa_sb_puts(sb, new_names ? " sc1" : " scc");
    if (flags & WA_MOD_SLC)
        wa_sb_puts(sb, new_names ? " nt" : " slc");
}

/* name:[b0,b1,...] with n entries. */
static void sel_list(wa_sb *sb, const char *name, unsigned bits, unsigned n)
{
    wa_sb_putc(sb, ' ');
    wa_sb_puts(sb, name);
    wa_sb_putn(sb, ":[", 2);
    for (unsigned i = 0; i < n; i++) {
        if (i)
            wa_sb_putc(sb, ',');
        wa_sb_putc(sb, (char)('0' + ((bits >> i) & 1u)));
    }
    wa_sb_putc(sb, ']');
}

/* Entries of the op_sel-like lists of a row: one per source (at least the highest
   bit set, so that invalid programs print too); op_sel of a row with a VGPR result
   (wa_opsel_has_dst) adds the destination (bit 3) as the last entry; MAI lists
   always have three. */
static unsigned list_len(const wa_isa_info *info, unsigned bits)
{
    if (info->format == WA_FMT_MAI || (info->flags & WA_IF_OPSEL4))
        return 3; /* OPSEL4: [s0, s1, byte bit 0, byte bit 1] with the destination entry */
    unsigned n = wa_source_count(info);
    if (n > 3)
        n = 3;
    while (n < 3 && (bits >> n))
        n++;
    return n ? n : 1;
}

static void op_sel_list(wa_sb *sb, const wa_isa_info *info, unsigned bits)
{
    if (wa_opsel_has_dst(info) || (bits & 8u)) {
        /* [src0, .., srcN-1, dst]: the destination bit is bit 3 */
        unsigned n = list_len(info, bits & 7u);
        sel_list(sb, "op_sel", (bits & 7u) | ((bits >> 3) & 1u) << n, n + 1);
    } else {
        sel_list(sb, "op_sel", bits, list_len(info, bits));
    }
}

static const char *const sdwa_sel_names[7] = { "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3",
                                               "WORD_0", "WORD_1", "DWORD" };
static const char *const sdwa_unused_names[3] = { "UNUSED_PAD", "UNUSED_SEXT",
                                                  "UNUSED_PRESERVE" };

static void sdwa_sel(wa_sb *sb, const char *name, unsigned v)
{
    if (v < 7)
        wa_sb_printf(sb, " %s:%s", name, sdwa_sel_names[v]);
    else
        wa_sb_printf(sb, " %s:%u", name, v);
}

/* SDWA as llvm-mc prints it: dst_sel and dst_unused (not for compares and the
   WA_IF_SDWA_NO_DST rows), src0_sel, and src1_sel where there is a second source. */
static void format_sdwa(wa_sb *sb, const wa_mods *m, const wa_isa_info *info)
{
    if (wa_sdwa_has_dst(info) || m->dst_sel != WA_SDWA_DWORD ||
        m->dst_unused != WA_SDWA_UNUSED_PRESERVE) {
        sdwa_sel(sb, "dst_sel", m->dst_sel);
        if (m->dst_unused < 3)
            wa_sb_printf(sb, " dst_unused:%s", sdwa_unused_names[m->dst_unused]);
        else
            wa_sb_printf(sb, " dst_unused:%u", m->dst_unused);
    }
    sdwa_sel(sb, "src0_sel", m->src0_sel);
    if (wa_source_count(info) >= 2 || m->src1_sel != WA_SDWA_DWORD)
        sdwa_sel(sb, "src1_sel", m->src1_sel);
}

void wa_format_trailer(wa_sb *sb, size_t line_start, unsigned column, wa_tag tag,
                       const char *comment)
{
    if (tag == WA_NO_TAG && !comment)
        return;
    wa_sb_pad_to(sb, line_start, column);
    wa_sb_putc(sb, ';');
    if (tag != WA_NO_TAG) {
        wa_sb_putn(sb, " @I", 3);
        wa_sb_put_u64(sb, tag);
    }
    if (comment) {
        wa_sb_putc(sb, ' ');
        wa_sb_puts(sb, comment);
    }
}

/* Names used by the parser too. */
int wa_sdwa_sel_value(const char *s, size_t n)
{
    for (unsigned i = 0; i < 7; i++)
        if (strlen(sdwa_sel_names[i]) == n && memcmp(sdwa_sel_names[i], s, n) == 0)
            return (int)i;
    return -1;
}

int wa_sdwa_unused_value(const char *s, size_t n)
{
    for (unsigned i = 0; i < 3; i++)
        if (strlen(sdwa_unused_names[i]) == n && memcmp(sdwa_unused_names[i], s, n) == 0)
            return (int)i;
    return -1;
}

/* DPP as llvm-mc prints it: the control, both masks, bound_ctrl:1 when set. A
   control value the hardware does not have is spelled dpp_ctrl:0x.. (text form
   only; the validator rejects it). */
static void format_dpp(wa_sb *sb, const wa_mods *m)
{
    unsigned c = m->dpp_ctrl;
    if (c <= 0xFF)
        wa_sb_printf(sb, " quad_perm:[%u,%u,%u,%u]", c & 3u, (c >> 2) & 3u, (c >> 4) & 3u, c >> 6);
    else if (c >= 0x101 && c <= 0x10F)
        wa_sb_printf(sb, " row_shl:%u", c - 0x100);
    else if (c >= 0x111 && c <= 0x11F)
        wa_sb_printf(sb, " row_shr:%u", c - 0x110);
    else if (c >= 0x121 && c <= 0x12F)
        wa_sb_printf(sb, " row_ror:%u", c - 0x120);
    else if (c == WA_DPP_WAVE_SHL1)
        wa_sb_puts(sb, " wave_shl:1");
    else if (c == WA_DPP_WAVE_ROL1)
        wa_sb_puts(sb, " wave_rol:1");
    else if (c == WA_DPP_WAVE_SHR1)
        wa_sb_puts(sb, " wave_shr:1");
    else if (c == WA_DPP_WAVE_ROR1)
        wa_sb_puts(sb, " wave_ror:1");
    else if (c == WA_DPP_ROW_MIRROR)
        wa_sb_puts(sb, " row_mirror");
    else if (c == WA_DPP_ROW_HALF_MIRROR)
        wa_sb_puts(sb, " row_half_mirror");
    else if (c == WA_DPP_ROW_BCAST15)
        wa_sb_puts(sb, " row_bcast:15");
    else if (c == WA_DPP_ROW_BCAST31)
        wa_sb_puts(sb, " row_bcast:31");
    else if (c >= WA_DPP_ROW_NEWBCAST(0) && c <= WA_DPP_ROW_NEWBCAST(15))
        wa_sb_printf(sb, " row_newbcast:%u", c - WA_DPP_ROW_NEWBCAST(0));
    else
        wa_sb_printf(sb, " dpp_ctrl:0x%x", c);
    wa_sb_printf(sb, " row_mask:0x%x bank_mask:0x%x", m->row_mask, m->bank_mask);
    if (m->flags & WA_MOD_BOUND_CTRL)
        wa_sb_puts(sb, " bound_ctrl:1");
}

/* key, decimal value, then `close` (may be NULL). */
static void put_field(wa_sb *sb, const char *key, long long v, const char *close)
{
    wa_sb_puts(sb, key);
    wa_sb_put_i64(sb, v);
    if (close)
        wa_sb_puts(sb, close);
}

/* Every non-default modifier, in one canonical order (llvm-mc's), whatever the
   format: the text form must carry invalid programs too (the validator judges
   them). */
static void format_mods(wa_sb *sb, const wa_instr *in, const wa_isa_info *info, wa_target t,
                        unsigned flags)
{
    const wa_mods *m = &in->mods;
    if (m->flags & WA_MOD_IDXEN)
        wa_sb_puts(sb, " idxen");
    if (m->flags & WA_MOD_OFFEN)
        wa_sb_puts(sb, " offen");
    if (m->offset)
        put_field(sb, (info->flags & WA_IF_DS_2ADDR) ? " offset0:" : " offset:", m->offset, NULL);
    if (m->offset1)
        put_field(sb, " offset1:", m->offset1, NULL);
    /* llvm-mc's order: `lds` last on the loads to LDS, before the cache bits on
       buffer_store_lds_dword (LDS to memory) */
    int lds_first = (info->flags & WA_IF_STORE) != 0;
    if ((m->flags & WA_MOD_LDS) && lds_first)
        wa_sb_puts(sb, " lds");
    cache_bits(sb, m->flags, t, info->format);
    if ((m->flags & WA_MOD_LDS) && !lds_first)
        wa_sb_puts(sb, " lds");
    if (m->op_sel)
        op_sel_list(sb, info, m->op_sel);
    if (wa_vop3p_packed(info)) {
        /* stored inverted: bit i set means op_sel_hi[i] = 0 */
        if (m->op_sel_hi) {
            unsigned n = list_len(info, m->op_sel_hi);
            sel_list(sb, "op_sel_hi", ~m->op_sel_hi & ((1u << n) - 1u), n);
        }
    } else if (m->op_sel_hi) {
        sel_list(sb, "op_sel_hi", m->op_sel_hi, list_len(info, m->op_sel_hi));
    }
    if (wa_mods_as_lists(info) && m->neg && info->format != WA_FMT_MAI)
        sel_list(sb, "neg_lo", m->neg, list_len(info, m->neg));
    if (m->neg_hi)
        sel_list(sb, "neg_hi", m->neg_hi, list_len(info, m->neg_hi));
    if (m->flags & WA_MOD_CLAMP)
        wa_sb_puts(sb, " clamp");
    if (m->omod)
        wa_sb_puts(sb, m->omod == 1 ? " mul:2" : m->omod == 2 ? " mul:4" : m->omod == 3 ? " div:2"
                                                                                     : " omod:?");
    if (m->flags & WA_MOD_SDWA)
        format_sdwa(sb, m, info);
    if (m->cbsz)
        put_field(sb, " cbsz:", m->cbsz, NULL);
    if (m->abid)
        put_field(sb, " abid:", m->abid, NULL);
    /* MAI: neg:[a,b,c] (f64 on gfx942/gfx950) takes blgp's place, after cbsz/abid */
    if (info->format == WA_FMT_MAI && m->neg)
        sel_list(sb, "neg", m->neg, list_len(info, m->neg));
    if (m->blgp)
        put_field(sb, " blgp:", m->blgp, NULL);
    if (m->flags & WA_MOD_DPP)
        format_dpp(sb, m);
    int vm = m->vmcnt, lgkm = m->lgkmcnt, exp = m->expcnt;
    if ((flags & WA_FMT_ASM) && (info->flags & WA_IF_WAITCNT) && vm == -1 && lgkm == -1 &&
        exp == -1) {
        /* The assembler needs at least one field: spell "wait for nothing". */
        vm = 63;
        exp = 7;
        lgkm = 15;
    }
    if (vm != -1)
        put_field(sb, " vmcnt(", vm, ")");
    if (exp != -1)
        put_field(sb, " expcnt(", exp, ")");
    if (lgkm != -1)
        put_field(sb, " lgkmcnt(", lgkm, ")");
}

/* hwreg(NAME) for a whole register, hwreg(NAME, offset, size) for a bit field,
   with the id as a number where the target has no name for it (as llvm-mc prints). */
static void format_hwreg(wa_sb *sb, unsigned field, wa_target t)
{
    unsigned id = WA_HWREG_ID(field), off = WA_HWREG_OFFSET(field), size = WA_HWREG_SIZE(field);
    const char *name = wa_hwreg_name(id, t);
    if (name)
        wa_sb_printf(sb, "hwreg(%s", name);
    else
        wa_sb_printf(sb, "hwreg(%u", id);
    if (off != 0 || size != 32)
        wa_sb_printf(sb, ", %u, %u", off, size);
    wa_sb_putc(sb, ')');
}

void wa_format_instr(wa_sb *sb, const wa_program *prog, const wa_instr *in,
                     unsigned char *declared, unsigned flags)
{
    const wa_isa_info *info = wa_isa_get(in->op);
    const wa_mods *m = &in->mods;
    wa_sb_puts(sb, wa_isa_mnemonic(in->op, prog->target));
    if (m->flags & WA_MOD_DPP)
        wa_sb_puts(sb, "_dpp");
    else if (m->flags & WA_MOD_SDWA)
        wa_sb_puts(sb, "_sdwa");
    else if ((info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2 ||
              info->format == WA_FMT_VOPC) && wa_instr_needs_vop3(in, info))
        wa_sb_puts(sb, "_e64"); /* the VOP3 form, as llvm-mc prints it */
    for (unsigned i = 0; i < in->nops; i++) {
        const wa_operand *o = &in->ops[i];
        wa_sb_puts(sb, i == 0 ? " " : ", ");
        if (i < info->num_operands && (info->operands[i].classes & WA_OC_HWREG) &&
            o->kind == WA_OPND_IMM && o->imm.i >= 0 && o->imm.i <= 0xFFFF) {
            format_hwreg(sb, (unsigned)o->imm.i, prog->target);
            continue;
        }
        /* Source modifiers on the operand: -v1, |v1|, -|v1|, neg(1.0), sext(v1). */
        int slot = wa_mods_as_lists(info) ? -1 : wa_source_slot(info, i);
        int neg = slot >= 0 && slot < 3 && (m->neg >> slot & 1u);
        int abs = slot >= 0 && slot < 3 && (m->abs >> slot & 1u);
        int sext = slot >= 0 && slot < 2 && (m->sext >> slot & 1u);
        int imm = o->kind == WA_OPND_IMM || o->kind == WA_OPND_FIMM;
        if (sext)
            wa_sb_puts(sb, "sext(");
        if (neg)
            wa_sb_puts(sb, imm && !abs ? "neg(" : "-");
        if (abs)
            wa_sb_putc(sb, '|');
        wa_format_operand(sb, prog, o, declared, flags);
        if (abs)
            wa_sb_putc(sb, '|');
        if (neg && imm && !abs)
            wa_sb_putc(sb, ')');
        if (sext)
            wa_sb_putc(sb, ')');
    }
    format_mods(sb, in, info, prog->target, flags);
}
