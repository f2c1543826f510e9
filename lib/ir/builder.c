/* lib/ir/builder.c — operand constructors and the instruction builders. The family
   helpers only arrange operands in table order; wa_program_insert checks them. */
#include "ir.h"

#include <string.h>

wa_operand wa_opnd_none(void)
{
    wa_operand o;
    memset(&o, 0, sizeof(o));
    return o;
}

wa_operand wa_opnd_imm(int64_t value)
{
    wa_operand o = wa_opnd_none();
    o.kind = WA_OPND_IMM;
    o.imm.i = value;
    return o;
}

wa_operand wa_opnd_fimm(double value)
{
    wa_operand o = wa_opnd_none();
    o.kind = WA_OPND_FIMM;
    o.imm.f = value;
    return o;
}

wa_operand wa_opnd_phys(wa_reg_class cls, unsigned first, unsigned count)
{
    wa_operand o = wa_opnd_none();
    o.kind = WA_OPND_PHYS;
    o.reg_class = (uint8_t)cls;
    o.id = first;
    o.count = (uint16_t)(count > 0xFFFF ? 0 : count);
    return o;
}

wa_operand wa_opnd_special(wa_special reg)
{
    wa_operand o = wa_opnd_none();
    o.kind = WA_OPND_SPECIAL;
    o.id = (uint32_t)reg;
    return o;
}

wa_operand wa_opnd_label(wa_label label)
{
    wa_operand o = wa_opnd_none();
    o.kind = WA_OPND_LABEL;
    o.id = label;
    return o;
}

wa_operand wa_opnd_off(void)
{
    wa_operand o = wa_opnd_none();
    o.kind = WA_OPND_OFF;
    return o;
}

wa_operand wa_opnd_sub(wa_operand reg, unsigned first, unsigned count)
{
    if (count == 0 || (reg.kind != WA_OPND_VIRT && reg.kind != WA_OPND_PHYS))
        return wa_opnd_none();
    /* A VIRT operand with count 0 means the whole register: its size is unknown
       here, so only the start is checked; the builder checks the end. */
    if (reg.count != 0 && (first >= reg.count || count > reg.count - first))
        return wa_opnd_none();
    if (reg.kind == WA_OPND_VIRT)
        reg.first += first;
    else
        reg.id += first;
    reg.count = (uint16_t)count;
    return reg;
}

unsigned wa_special_size(wa_special s)
{
    return s == WA_SPECIAL_VCC || s == WA_SPECIAL_EXEC ? 2u : 1u;
}

const char *wa_special_name(wa_special s)
{
    static const char *const names[WA_SPECIAL_COUNT_] = {
        "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "scc",
    };
    return (unsigned)s < WA_SPECIAL_COUNT_ ? names[s] : NULL;
}

wa_reg_class wa_operand_class(const wa_operand *o)
{
    if (o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS)
        return (wa_reg_class)o->reg_class;
    if (o->kind == WA_OPND_SPECIAL)
        return WA_REG_SGPR;
    return WA_REG_NONE;
}

unsigned wa_operand_regs(const wa_program *prog, const wa_operand *o)
{
    switch (o->kind) {
    case WA_OPND_VIRT:
        if (o->count)
            return o->count;
        return o->id < prog->nvregs ? prog->vregs[o->id].size - o->first : 0;
    case WA_OPND_PHYS:
        return o->count;
    case WA_OPND_SPECIAL:
        return wa_special_size((wa_special)o->id);
    default:
        return 0;
    }
}

/* ---- builders --------------------------------------------------------------------------- */

wa_status wa_build(wa_tag *out, wa_program *prog, wa_opcode op, const wa_operand *ops,
                   unsigned num_ops, const wa_mods *mods)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    const wa_isa_info *info = wa_isa_get(op);
    if (info && (info->flags & WA_IF_PSEUDO))
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "use wa_build_label/wa_build_comment for %s items", info->mnemonic);
    unsigned idx;
    wa_status st = wa_program_insert(prog, op, ops, num_ops, mods, WA_NO_TAG, 0, 0, &idx);
    if (st == WA_OK && out)
        *out = prog->instrs[idx].tag;
    return st;
}

static wa_status family_error(wa_program *prog, wa_opcode op, const char *family)
{
    const wa_isa_info *info = wa_isa_get(op);
    return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE, "%s is not a %s instruction",
                    info ? info->mnemonic : "(unknown opcode)", family);
}

/* Collects the present operands (dropping trailing absent ones). */
static unsigned pack(wa_operand *dst, const wa_operand *src, unsigned n)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (src[i].kind != WA_OPND_NONE)
            k = i + 1;
    memcpy(dst, src, k * sizeof(wa_operand));
    return k;
}

static int format_in(wa_opcode op, unsigned mask)
{
    const wa_isa_info *info = wa_isa_get(op);
    return info && (mask & (1u << info->format));
}
#define FMT(f) (1u << (f))

wa_status wa_build_valu(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand dst,
                        wa_operand src0, wa_operand src1, wa_operand src2)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!format_in(op, FMT(WA_FMT_VOP1) | FMT(WA_FMT_VOP2) | FMT(WA_FMT_VOPC) |
                           FMT(WA_FMT_VOP3) | FMT(WA_FMT_VOP3P)))
        return family_error(prog, op, "VALU");
    wa_operand in[4] = { dst, src0, src1, src2 }, ops[4];
    return wa_build(out, prog, op, ops, pack(ops, in, 4), NULL);
}

wa_status wa_build_valu_mods(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand dst,
                             wa_operand src0, wa_operand src1, wa_operand src2,
                             const wa_mods *mods)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!format_in(op, FMT(WA_FMT_VOP1) | FMT(WA_FMT_VOP2) | FMT(WA_FMT_VOPC) |
                           FMT(WA_FMT_VOP3) | FMT(WA_FMT_VOP3P)))
        return family_error(prog, op, "VALU");
    wa_operand in[4] = { dst, src0, src1, src2 }, ops[4];
    return wa_build(out, prog, op, ops, pack(ops, in, 4), mods);
}

wa_status wa_build_salu(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand dst,
                        wa_operand src0, wa_operand src1)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!format_in(op, FMT(WA_FMT_SOP1) | FMT(WA_FMT_SOP2) | FMT(WA_FMT_SOPC) | FMT(WA_FMT_SOPK)))
        return family_error(prog, op, "SALU");
    wa_operand ops[3];
    unsigned n = 0;
    if (wa_isa_get(op)->format != WA_FMT_SOPC)
        ops[n++] = dst;
    else if (dst.kind != WA_OPND_NONE)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE, "%s has no destination",
                        wa_isa_get(op)->mnemonic);
    wa_operand srcs[2] = { src0, src1 };
    n += pack(ops + n, srcs, 2);
    return wa_build(out, prog, op, ops, n, NULL);
}

wa_status wa_build_smem(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand sdst,
                        wa_operand sbase, wa_operand offset, const wa_mods *mods)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!format_in(op, FMT(WA_FMT_SMEM)))
        return family_error(prog, op, "SMEM");
    /* Rows without data (s_dcache_discard: sbase, offset), with only a result
       (s_memtime: sdst) or with nothing (s_dcache_inv) take what they name. */
    unsigned n = wa_isa_get(op)->num_operands;
    wa_operand all[3] = { sdst, sbase, offset };
    const wa_operand *ops = n == 2 ? all + 1 : all;
    return wa_build(out, prog, op, n ? ops : NULL, n, mods);
}

static wa_opcode lds_form(wa_opcode op)
{
    const wa_isa_info *info = wa_isa_get(op);
    for (unsigned k = 0; k < wa_isa_count(); k++) {
        const wa_isa_info *o = wa_isa_get(k);
        if ((o->flags & WA_IF_LDS_DMA) && o->format == info->format &&
            strcmp(o->mnemonic, info->mnemonic) == 0)
            return (wa_opcode)k;
    }
    return WA_OP_COUNT_;
}

wa_status wa_build_mubuf(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand vdata,
                         wa_operand vaddr, wa_operand srsrc, wa_operand soffset,
                         const wa_mods *mods)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!format_in(op, FMT(WA_FMT_MUBUF)))
        return family_error(prog, op, "MUBUF");
    if (mods && mods->version >= 1 && (mods->flags & WA_MOD_LDS) &&
        !(wa_isa_get(op)->flags & WA_IF_LDS_DMA)) {
        wa_opcode l = lds_form(op);
        if (l == WA_OP_COUNT_)
            return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE, "%s has no lds form",
                            wa_isa_get(op)->mnemonic);
        op = l;
    }
    if (wa_isa_get(op)->flags & WA_IF_LDS_DMA) {
        wa_operand ops[3] = { vaddr, srsrc, soffset };
        return wa_build(out, prog, op, ops, 3, mods);
    }
    wa_operand ops[4] = { vdata, vaddr, srsrc, soffset };
    return wa_build(out, prog, op, ops, 4, mods);
}

wa_status wa_build_global(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand data,
                          wa_operand vaddr, wa_operand saddr, const wa_mods *mods)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!format_in(op, FMT(WA_FMT_GLOBAL)))
        return family_error(prog, op, "global memory");
    if (wa_isa_get(op)->flags & WA_IF_STORE) {
        wa_operand ops[3] = { vaddr, data, saddr };
        return wa_build(out, prog, op, ops, 3, mods);
    }
    wa_operand ops[3] = { data, vaddr, saddr };
    return wa_build(out, prog, op, ops, 3, mods);
}

wa_status wa_build_ds(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand vdst,
                      wa_operand addr, wa_operand data0, wa_operand data1, const wa_mods *mods)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!format_in(op, FMT(WA_FMT_DS)))
        return family_error(prog, op, "DS");
    wa_operand in[4], ops[4];
    unsigned n = 0;
    if (wa_isa_get(op)->operands[0].role != WA_ROLE_USE) /* vdst (read and written by the d16 reads) */
        in[n++] = vdst;
    in[n++] = addr;
    in[n++] = data0;
    in[n++] = data1;
    return wa_build(out, prog, op, ops, pack(ops, in, n), mods);
}

wa_status wa_build_mfma(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand d, wa_operand a,
                        wa_operand b, wa_operand c, wa_operand scale_a, wa_operand scale_b,
                        const wa_mods *mods)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (!format_in(op, FMT(WA_FMT_MAI)))
        return family_error(prog, op, "MFMA");
    wa_operand in[6] = { d, a, b, c, scale_a, scale_b }, ops[6];
    return wa_build(out, prog, op, ops, pack(ops, in, 6), mods);
}

wa_status wa_build_waitcnt(wa_tag *out, wa_program *prog, int vmcnt, int lgkmcnt, int expcnt)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    if (vmcnt < -1 || vmcnt > 127 || lgkmcnt < -1 || lgkmcnt > 127 || expcnt < -1 || expcnt > 127)
        return wa_error(prog->ctx, WA_E_RANGE, WA_LOC_NONE,
                        "s_waitcnt counts must be -1 (no wait) or 0..127 here");
    wa_mods m = WA_MODS_INIT;
    m.vmcnt = (int8_t)vmcnt;
    m.lgkmcnt = (int8_t)lgkmcnt;
    m.expcnt = (int8_t)expcnt;
    return wa_build(out, prog, WA_OP_S_WAITCNT, NULL, 0, &m);
}

wa_status wa_build_sopp(wa_tag *out, wa_program *prog, wa_opcode op, int imm)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    const wa_isa_info *info = wa_isa_get(op);
    if (!info || info->format != WA_FMT_SOPP || (info->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)) ||
        op == WA_OP_S_WAITCNT)
        return family_error(prog, op, "SOPP (non-branch, non-waitcnt)");
    wa_operand o = wa_opnd_imm(imm);
    return wa_build(out, prog, op, &o, info->num_operands, NULL);
}

wa_status wa_build_hwreg(wa_tag *out, wa_program *prog, wa_opcode op, unsigned hwreg,
                         wa_operand value)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    const wa_isa_info *info = wa_isa_get(op);
    unsigned field = WA_ISA_MAX_OPERANDS;
    for (unsigned k = 0; info && k < info->num_operands; k++)
        if (info->operands[k].classes & WA_OC_HWREG)
            field = k;
    if (!info || info->num_operands != 2 || field >= 2)
        return family_error(prog, op, "hwreg (s_getreg/s_setreg)");
    if (hwreg > 0xFFFFu)
        return wa_error(prog->ctx, WA_E_RANGE, WA_LOC_NONE,
                        "hwreg field 0x%x does not fit 16 bits (use WA_HWREG)", hwreg);
    wa_operand ops[2];
    ops[field] = wa_opnd_imm((int64_t)hwreg);
    ops[1 - field] = value;
    return wa_build(out, prog, op, ops, 2, NULL);
}

wa_status wa_build_branch(wa_tag *out, wa_program *prog, wa_opcode op, wa_label target)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    const wa_isa_info *info = wa_isa_get(op);
    if (!info || !(info->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)))
        return family_error(prog, op, "branch");
    wa_operand o = wa_opnd_label(target);
    return wa_build(out, prog, op, &o, 1, NULL);
}

wa_status wa_build_label(wa_program *prog, wa_label label)
{
    if (!prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    wa_operand o = wa_opnd_label(label);
    return wa_program_insert(prog, WA_OP_LABEL, &o, 1, NULL, WA_NO_TAG, 0, 0, NULL);
}

wa_status wa_build_comment(wa_program *prog, const char *text)
{
    if (!prog || !text)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    const char *c;
    int r = wa_comment_copy(prog, text, 0, &c);
    if (r == -1)
        return wa_error(prog->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "comments are single lines of text (found a control character)");
    if (r)
        return wa_error_nomem(prog->ctx);
    unsigned idx;
    wa_status st = wa_program_insert(prog, WA_OP_COMMENT, NULL, 0, NULL, WA_NO_TAG, 0, 0, &idx);
    if (st == WA_OK)
        prog->instrs[idx].comment = c;
    return st;
}
