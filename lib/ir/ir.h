/* lib/ir/ir.h — internal layout of programs, shared by the IR stage files and the
   later stages (analysis, regalloc, passes, emit). Not installed. */
#ifndef WAVEASM_IR_H
#define WAVEASM_IR_H

#include <waveasm/program.h>

#include "../core/core.h"

typedef struct wa_instr {
    uint16_t op;              /* wa_opcode */
    uint16_t nops;
    wa_tag tag;               /* WA_NO_TAG for labels and comments */
    uint32_t line, col;       /* source position (0 if built) */
    wa_operand *ops;          /* program arena */
    const char *comment;      /* program arena, may be NULL */
    wa_mods mods;
} wa_instr;

typedef struct wa_vreg {
    uint8_t cls;              /* wa_reg_class; WA_REG_NONE for an unused id */
    uint16_t align;
    uint32_t size;
} wa_vreg;

typedef struct wa_label_info {
    const char *name;         /* program arena */
    unsigned placed;          /* LABEL items placing it (0 or 1 in a valid program) */
} wa_label_info;

typedef struct wa_arg {
    wa_kernel_arg arg;        /* name points into the program arena */
    uint32_t line, col;       /* source position of its `.arg` line (0 if built) */
} wa_arg;

struct wa_program {
    wa_context *ctx;
    wa_arena arena;
    const char *name;         /* arena */
    const char *file;         /* source file name for diagnostics (arena), or "" */
    wa_target target;
    unsigned wg[3];
    unsigned lds_bytes;
    unsigned abi_mask;
    uint32_t header_line;     /* line of `.kernel` when parsed */
    wa_arg *args;
    unsigned nargs, capargs;
    unsigned args_end;        /* largest offset + size of an argument (32-bit, as added) */
    wa_instr *instrs;
    unsigned ninstrs, capinstrs;
    wa_vreg *vregs;
    unsigned nvregs, capvregs;
    wa_label_info *labels;
    unsigned nlabels, caplabels;
    unsigned *label_hash;     /* open addressing: label id + 1, 0 = empty */
    unsigned label_hash_cap;  /* power of two, or 0 */
    wa_tag next_tag;
    unsigned insert_at;       /* WA_END = append */
};

/* The ISA table (lib/ir/isa.c); internal code indexes it directly. */
extern const wa_isa_info wa_isa_table_[];
static inline const wa_isa_info *wa_isa(unsigned op)
{
    return &wa_isa_table_[op];
}

/* Does op_sel of this row have a destination entry (bit 3 of wa_mods.op_sel, the
   last list entry)? VOP1/VOP2/VOP3 rows writing a VGPR: their VOP3 form selects
   the half of a 16-bit result. */
static inline int wa_opsel_has_dst(const wa_isa_info *info)
{
    return (info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2 ||
            info->format == WA_FMT_VOP3) &&
           info->num_operands && (info->operands[0].role & WA_ROLE_DEF) &&
           (info->operands[0].classes & WA_OC_VGPR);
}

/* An lds form spelled with the `lds` modifier (buffer_load_dword ... lds, gfx90a's
   global/scratch loads ... lds, buffer_store_lds_dword): the row shares its mnemonic
   with the VGPR form, the modifier selects it. gfx942/gfx950's global_load_lds_* and
   scratch_load_lds_* are lds forms by name (no modifier). */
static inline int wa_lds_by_modifier(const wa_isa_info *info)
{
    return (info->flags & WA_IF_LDS_DMA) && (info->mods_ok & WA_MODOK_LDS);
}

/* Role of operand k of `in` as executed: atomics with glc/sc0 also write vdata
   (operand 0 of every WA_IF_RTN_GLC row; their address and descriptor operands
   stay uses); a DPP instruction also reads its destination (operand 0) unless
   bound_ctrl and full row/bank masks make it write every active lane; so do the
   partial writes of operand 0: SDWA with dst_sel other than DWORD and
   dst_unused:UNUSED_PRESERVE, and op_sel's destination bit (the high half of a
   16-bit result, the low half kept). */
static inline unsigned wa_instr_role(const wa_instr *in, const wa_isa_info *info, unsigned k)
{
    unsigned r = info->operands[k].role;
    if (k == 0 && (info->flags & WA_IF_RTN_GLC) && (in->mods.flags & WA_MOD_GLC))
        r |= WA_ROLE_DEF;
    if (k == 0 && (r & WA_ROLE_DEF) && (in->mods.flags & WA_MOD_SDWA) &&
        in->mods.dst_sel != WA_SDWA_DWORD && in->mods.dst_unused == WA_SDWA_UNUSED_PRESERVE)
        r |= WA_ROLE_USE;
    if (k == 0 && (r & WA_ROLE_DEF) && (in->mods.op_sel & 8u) && wa_opsel_has_dst(info))
        r |= WA_ROLE_USE;
    /* DPP: masked lanes and (without bound_ctrl) lanes without a source keep
       vdst's value; with bound_ctrl and full masks every active lane is written. */
    if (k == 0 && (in->mods.flags & WA_MOD_DPP) && (r & WA_ROLE_DEF) &&
        !((in->mods.flags & WA_MOD_BOUND_CTRL) && in->mods.row_mask == 0xF &&
          in->mods.bank_mask == 0xF))
        r |= WA_ROLE_USE;
    return r;
}

/* The MFMA operand rule (WA_IF_EARLY_CLOBBER): may source operand `k` of MFMA
   `info` share registers with vdst? `identical` says whether it names exactly
   vdst's registers. An early-clobber result must be disjoint from every source
   except a srcC (operand 3) identical to it; a narrower result may overlap any
   source (the assembler and LLVM's allocator agree). */
static inline int wa_mfma_overlap_allowed(const wa_isa_info *info, unsigned k, int identical)
{
    if (!(info->flags & WA_IF_EARLY_CLOBBER))
        return 1;
    return k == 3 && identical;
}

/* Source slot of operand k: its index among the row's pure-use operands (the
   order of neg/abs/op_sel bits), or -1 for a definition or read-modify-write
   operand. */
static inline int wa_source_slot(const wa_isa_info *info, unsigned k)
{
    if (k >= info->num_operands || info->operands[k].role != WA_ROLE_USE)
        return -1;
    int slot = 0;
    for (unsigned j = 0; j < k; j++)
        slot += info->operands[j].role == WA_ROLE_USE;
    return slot;
}

/* The label a branch names: the index of the instruction's label operand (the
   first; s_branch and s_cbranch_* have it at 0, s_call_b64 and
   s_cbranch_i_fork after their SGPR operand), or -1 when the instruction is
   not a branch or names no label (s_setpc_b64, fork/join). */
static inline int wa_branch_label_index(const wa_instr *in)
{
    if (!(wa_isa(in->op)->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)))
        return -1;
    for (unsigned k = 0; k < in->nops; k++)
        if (in->ops[k].kind == WA_OPND_LABEL)
            return (int)k;
    return -1;
}

/* Modifiers only the VOP3 encoding has (for a VOP1/VOP2/VOPC row outside DPP/SDWA). */
static inline int wa_mods_need_vop3(const wa_mods *m)
{
    return (m->flags & WA_MOD_CLAMP) || m->omod || m->neg || m->abs || m->op_sel;
}

/* Does the instruction need the VOP3 (64-bit) encoding, which takes no literal
   on these targets? VOP1/VOP2/VOPC rows have a 32-bit form when src1 and the
   other sources are VGPRs, the VCC32 positions name vcc and no VOP3 modifier is
   set (their VOP3 form is printed with the _e64 suffix, as llvm-mc prints it);
   VOP3 and VOP3P rows always need it. */
static inline int wa_instr_needs_vop3(const wa_instr *in, const wa_isa_info *info)
{
    if (info->format != WA_FMT_VOP1 && info->format != WA_FMT_VOP2 && info->format != WA_FMT_VOPC)
        return info->format == WA_FMT_VOP3 || info->format == WA_FMT_VOP3P;
    if (in->mods.flags & (WA_MOD_DPP | WA_MOD_SDWA))
        return 0;
    if (wa_mods_need_vop3(&in->mods))
        return 1;
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        const wa_isa_operand *spec = &info->operands[k];
        const wa_operand *o = &in->ops[k];
        if (spec->classes & WA_OC_VCC32) {
            if (!(o->kind == WA_OPND_SPECIAL && o->id == WA_SPECIAL_VCC))
                return 1;
            continue;
        }
        if (spec->role == WA_ROLE_DEF || wa_source_slot(info, k) == 0 ||
            (spec->classes & WA_OC_KLIT))
            continue;
        if (!((o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS) &&
              o->reg_class == WA_REG_VGPR))
            return 1;
    }
    return 0;
}

/* Does the row's SDWA form have dst_sel/dst_unused? Not for compares (their
   result is a lane mask) nor for the WA_IF_SDWA_NO_DST rows. */
static inline int wa_sdwa_has_dst(const wa_isa_info *info)
{
    return info->format != WA_FMT_VOPC && !(info->flags & WA_IF_SDWA_NO_DST);
}

/* Source modifiers follow the source's type, as in LLVM: float types take neg/abs,
   integer types sext() (SDWA); the packed 16-bit float type takes both. */
static inline int wa_type_takes_neg_abs(wa_data_type t)
{
    return t == WA_TY_F32 || t == WA_TY_F16 || t == WA_TY_F64 || t == WA_TY_BF16 ||
           t == WA_TY_PK_F16 || t == WA_TY_PK_BF16 || t == WA_TY_PK_F32;
}
static inline int wa_type_takes_sext(wa_data_type t)
{
    return t == WA_TY_B32 || t == WA_TY_B16 || t == WA_TY_B64 || t == WA_TY_PK_B16 ||
           t == WA_TY_PK_F16;
}

/* DPP of a row with a 64-bit VGPR operand (other than a VCC32 mask): gfx90a and
   later take only row_newbcast:0..15 there. */
static inline int wa_dpp_is_64(const wa_isa_info *info)
{
    for (unsigned k = 0; k < info->num_operands; k++)
        if (info->operands[k].size == 2 && (info->operands[k].classes & WA_OC_VGPR))
            return 1;
    return 0;
}

/* Number of pure-use operands of a row (sources). */
static inline unsigned wa_source_count(const wa_isa_info *info)
{
    unsigned n = 0;
    for (unsigned j = 0; j < info->num_operands; j++)
        n += info->operands[j].role == WA_ROLE_USE;
    return n;
}

/* Does source operand k take the float source modifiers (neg/abs) of a row that
   allows them? Every source, except an integer operand of a row that also has float
   sources (v_cmp_class's class mask): neg/abs belong to float sources, and rows without
   any float source (v_cndmask_b32) give them to all. In the SDWA form a source that
   takes no neg/abs takes sext() instead. */
static inline int wa_source_takes_fmods(const wa_isa_info *info, unsigned k)
{
#define WA_TY_IS_FLOAT_(t) ((t) == WA_TY_F16 || (t) == WA_TY_F32 || (t) == WA_TY_F64 || \
                            (t) == WA_TY_BF16 || (t) == WA_TY_PK_F16 || (t) == WA_TY_PK_BF16 || \
                            (t) == WA_TY_PK_F32)
    if (!(info->mods_ok & (WA_MODOK_NEG | WA_MODOK_ABS)) || k >= info->num_operands)
        return 0;
    if (WA_TY_IS_FLOAT_(info->operands[k].type))
        return 1;
    for (unsigned j = 0; j < info->num_operands; j++)
        if (info->operands[j].role == WA_ROLE_USE && WA_TY_IS_FLOAT_(info->operands[j].type))
            return 0;
    return 1;
#undef WA_TY_IS_FLOAT_
}

/* A packed VOP3P row: its sources hold two elements each, op_sel_hi defaults to
   [1,1,1] (stored inverted) and neg_lo/neg_hi are lists. The VOP3P rows that take
   abs (the v_fma_mix rows) are not packed: their sources are single f32 or f16
   values with -/|..| on the operands and op_sel_hi stored as written. */
static inline int wa_vop3p_packed(const wa_isa_info *info)
{
    return info->format == WA_FMT_VOP3P && !(info->mods_ok & WA_MODOK_ABS);
}

/* 1 for the rows whose source modifiers are written as lists (neg_lo:[..],
   neg_hi:[..], neg:[..]) rather than on the operands: packed VOP3P and MAI. */
static inline int wa_mods_as_lists(const wa_isa_info *info)
{
    return wa_vop3p_packed(info) || info->format == WA_FMT_MAI;
}

/* Location of item `index` for diagnostics. */
wa_loc wa_instr_loc(const wa_program *prog, const wa_instr *in);

/* Inserts an item at the insert point; copies `ops` into the arena. Performs the
   structural checks described in program.h. `tag` WA_NO_TAG assigns the next
   one (for real instructions). On success *out_index is the item's index. */
wa_status wa_program_insert(wa_program *prog, wa_opcode op, const wa_operand *ops,
                            unsigned nops, const wa_mods *mods, wa_tag tag,
                            unsigned line, unsigned col, unsigned *out_index);

/* The parser behind wa_program_parse, for text made from another file: line i+1 of
   `text` is reported as line line_map[i] of `file_name` (line_map NULL: as is). */
wa_status wa_parse_mapped(wa_program **out, wa_context *ctx, const char *text, size_t len,
                          const char *file_name, const unsigned *line_map, unsigned nlines);

/* Ensures vreg id `id` exists with the given properties (parser). */
wa_status wa_program_define_vreg(wa_program *prog, unsigned id, wa_reg_class cls,
                                 unsigned size, unsigned align);

int wa_symbol_valid(const char *name);
/* Label id with this name, or WA_NO_TAG if none. */
unsigned wa_label_find(const wa_program *prog, const char *name, size_t len);
/* Kernel names: symbols that are not assembler-local (no ".L" prefix). */
int wa_kernel_name_valid(const char *name);
/* Label names: symbols the text form can read back in a branch operand (not a
   register like v1/s0/a2..., a special register, `off`, `.kernel`, `.end_kernel`). */
int wa_label_name_valid(const char *name);
/* Copies a comment into the arena: rejects control characters (tab allowed) and
   strips trailing blanks. *out is NULL for an empty trailing comment when
   `empty_is_null`. Returns 0, or -1 (bad character) or -2 (no memory). */
int wa_comment_copy(wa_program *prog, const char *text, int empty_is_null, const char **out);
/* Effective size in registers of a register operand (handles VIRT whole-range). */
unsigned wa_operand_regs(const wa_program *prog, const wa_operand *o);
/* Size in registers of a special register (vcc/exec: 2, others 1). */
unsigned wa_special_size(wa_special s);
/* Register class of an operand: VIRT/PHYS class; SPECIAL counts as SGPR. */
wa_reg_class wa_operand_class(const wa_operand *o);

/* SGPR layout of the ABI inputs: first register of `input` (or -1). */
int wa_abi_sgpr(unsigned abi_mask, wa_abi_input input);
unsigned wa_abi_user_sgprs(unsigned abi_mask);
unsigned wa_abi_total_sgprs(unsigned abi_mask);

/* Hardware limits per target. */
unsigned wa_target_max_lds(wa_target t);
#define WA_MAX_VGPR 256u
#define WA_MAX_AGPR 256u
#define WA_MAX_SGPR 102u
/* Physical register numbers a program can hold, whatever the target: those the
   text form spells (v0..v255, a0..a255, s0..s127). The validator applies the
   hardware limits above. */
#define WA_PHYS_LIMIT(cls) ((cls) == WA_REG_SGPR ? 128u : 256u)

/* Inline constants (operand codes 128..208 and 240..248) for an immediate read as
   `type`. */
int wa_imm_is_inline(const wa_operand *o, wa_data_type type);
/* Value of an immediate as a 32-bit pattern for `type` (floats rounded to the
   type); returns 0 if it cannot be represented. */
int wa_imm_bits32(const wa_operand *o, wa_data_type type, uint32_t *bits);
/* Operand code of an inline constant (128..208, 240..248), or -1 when the
   immediate is not one for `type` (the encoder and the disassembler). */
int wa_imm_inline_code(const wa_operand *o, wa_data_type type);

/* ---- formatting shared by the printer and the emitter (lib/ir/format.c) ---- */
#define WA_FMT_ASM 0x1u        /* assembler output: explicit s_waitcnt, no annotations */
#define WA_FMT_NO_DECL 0x2u    /* never print <size,align=N> annotations */
void wa_format_int(wa_sb *sb, int64_t v);
void wa_format_float(wa_sb *sb, double d);
/* `declared` (nvregs bytes, may be NULL) marks registers whose shape was printed. */
void wa_format_operand(wa_sb *sb, const wa_program *prog, const wa_operand *o,
                       unsigned char *declared, unsigned flags);
void wa_format_instr(wa_sb *sb, const wa_program *prog, const wa_instr *in,
                     unsigned char *declared, unsigned flags);
/* "; @I<tag> comment" from `column` of the line that starts at `line_start`;
   nothing when the tag is WA_NO_TAG and the comment NULL. */
void wa_format_trailer(wa_sb *sb, size_t line_start, unsigned column, wa_tag tag,
                       const char *comment);
/* SDWA select / dst_unused value of a name ("WORD_1", "UNUSED_PAD"), -1 if none. */
int wa_sdwa_sel_value(const char *s, size_t n);
int wa_sdwa_unused_value(const char *s, size_t n);

/* Exchanges everything two programs of one context hold (the handles stay). */
void wa_program_swap_contents(wa_program *a, wa_program *b);

#endif
