/* include/waveasm/program.h — kernel IR: create, build, inspect, edit.

   A program is one kernel: attributes (name, target, workgroup size, LDS bytes,
   kernel arguments, ABI inputs) and an ordered list of items (instructions,
   labels, comments). Registers are virtual (class, size, alignment; allocated
   later) or physical (precolored, e.g. the ABI's s[0:1] and v0). */
#ifndef WAVEASM_PROGRAM_H
#define WAVEASM_PROGRAM_H

#include <waveasm/context.h>
#include <waveasm/isa.h>

WA_BEGIN_DECLS

/* A kernel in IR form. Owned by the caller; destroy with wa_program_destroy(). */
typedef struct wa_program wa_program;

/* Stable instruction tag: follows the instruction through edits and passes.
   Printed as "@I<n>" in the text form. Labels and comments carry WA_NO_TAG. */
typedef uint32_t wa_tag;
/* Label id, from wa_program_label_create(). */
typedef uint32_t wa_label;

/* ---- Operands --------------------------------------------------------------------- */

typedef enum wa_operand_kind {
    WA_OPND_NONE = 0,
    WA_OPND_VIRT = 1,    /* virtual register (or components of one) */
    WA_OPND_PHYS = 2,    /* physical register range v[n..], s[n..], a[n..] */
    WA_OPND_SPECIAL = 3, /* vcc, exec, m0, scc, ... (id is a wa_special) */
    WA_OPND_IMM = 4,     /* integer immediate (imm.i) */
    WA_OPND_FIMM = 5,    /* floating-point immediate (imm.f) */
    WA_OPND_LABEL = 6,   /* branch target (id is a wa_label) */
    WA_OPND_OFF = 7      /* the `off` keyword: no address register */
} wa_operand_kind;

typedef enum wa_special {
    WA_SPECIAL_VCC = 0,   /* 64-bit */
    WA_SPECIAL_VCC_LO,
    WA_SPECIAL_VCC_HI,
    WA_SPECIAL_EXEC,      /* 64-bit */
    WA_SPECIAL_EXEC_LO,
    WA_SPECIAL_EXEC_HI,
    WA_SPECIAL_M0,
    WA_SPECIAL_SCC,
    WA_SPECIAL_COUNT_
} wa_special;
/* Text-form spelling: "vcc", "exec_lo", "m0", ...; NULL when out of range. */
WA_API const char *wa_special_name(wa_special s);

/* Plain value type; build it with the wa_opnd_* functions or fill it directly.
   For WA_OPND_VIRT, `first`/`count` select components of the register (count 0
   means the whole register; programs always store the explicit count). */
typedef struct wa_operand {
    uint8_t kind;       /* wa_operand_kind */
    uint8_t reg_class;  /* wa_reg_class (VIRT, PHYS) */
    uint16_t count;     /* registers referenced */
    uint32_t id;        /* VIRT: register id; PHYS: first register number;
                           SPECIAL: wa_special; LABEL: wa_label */
    uint32_t first;     /* VIRT: first component referenced */
    uint32_t reserved;  /* zero */
    union {
        int64_t i;
        double f;
    } imm;
} wa_operand;

WA_API wa_operand wa_opnd_none(void);
WA_API wa_operand wa_opnd_imm(int64_t value);
WA_API wa_operand wa_opnd_fimm(double value);
/* Physical registers: wa_opnd_phys(WA_REG_SGPR, 0, 2) is s[0:1]. */
WA_API wa_operand wa_opnd_phys(wa_reg_class cls, unsigned first, unsigned count);
WA_API wa_operand wa_opnd_special(wa_special reg);
WA_API wa_operand wa_opnd_label(wa_label label);
WA_API wa_operand wa_opnd_off(void);
/* Components [first, first+count) of a register operand (virtual or physical),
   relative to the operand's own first register. Returns WA_OPND_NONE when the
   request falls outside the operand. */
WA_API wa_operand wa_opnd_sub(wa_operand reg, unsigned first, unsigned count);

/* ---- Modifiers ----------------------------------------------------------------------- */

#define WA_MOD_OFFEN 0x01u  /* MUBUF: vaddr holds a byte offset */
#define WA_MOD_IDXEN 0x02u  /* MUBUF: vaddr holds an index */
#define WA_MOD_GLC 0x04u    /* glc; spelled sc0 on gfx942/gfx950 */
#define WA_MOD_SLC 0x08u    /* slc; spelled nt on gfx942/gfx950 (same bit) */
#define WA_MOD_NT WA_MOD_SLC
#define WA_MOD_SC0 WA_MOD_GLC
#define WA_MOD_SCC 0x10u    /* scc on gfx90a; spelled sc1 on gfx942/gfx950 */
#define WA_MOD_SC1 WA_MOD_SCC
#define WA_MOD_LDS 0x20u    /* MUBUF load into LDS (selects the *_LDS opcode) */
/* Version 2. DPP (data-parallel primitives) on a VOP1/VOP2 instruction in its 32-bit
   form: src0 is read from another lane chosen by dpp_ctrl; row_mask/bank_mask select
   the lanes written. The text form spells it v_add_f32_dpp ... quad_perm:[1,0,3,2]
   row_mask:0xf bank_mask:0xf bound_ctrl:1. */
#define WA_MOD_DPP 0x40u
/* DPP bound_ctrl: a source lane that does not exist (shifted out) or is off in
   EXEC reads 0; without it the destination lane keeps its value. (The assembler
   spells the bit bound_ctrl:1 and also accepts bound_ctrl:0 for it on GFX9.) */
#define WA_MOD_BOUND_CTRL 0x80u
/* Version 3. */
#define WA_MOD_CLAMP 0x100u /* clamp: the result saturates (float: to [0, 1]; integer: to
                               the type's range) */
#define WA_MOD_SDWA 0x200u  /* SDWA form of a VOP1/VOP2/VOPC instruction: the sub-dword
                               selects dst_sel, dst_unused, src0_sel, src1_sel (and sext)
                               apply. The text form spells it v_add_f32_sdwa ... */

typedef struct wa_mods {
    unsigned version;   /* WA_MODS_VERSION */
    unsigned flags;     /* WA_MOD_* */
    int32_t offset;     /* offset:N (MUBUF, global, DS); offset0 of ds_*2* */
    int32_t offset1;    /* offset1 of ds_read2 / ds_write2 */
    uint8_t cbsz, abid, blgp;   /* MFMA broadcast controls (F8F6F4: A/B formats) */
    uint8_t op_sel, op_sel_hi;  /* op_sel: 4 bits (VOP3: bit 3 is the destination), op_sel_hi:
                                   3 bits; meaning by format, see below */
    int8_t vmcnt, lgkmcnt, expcnt; /* s_waitcnt fields; -1 = do not wait */
    /* version 2 (a version-1 struct ends here: the library reads no further) */
    uint16_t dpp_ctrl;          /* with WA_MOD_DPP: the control, WA_DPP_* below */
    uint8_t row_mask, bank_mask; /* with WA_MOD_DPP: 4 bits each, rows of 16 lanes /
                                    banks of 4 lanes in each row that are written */
    /* version 3 (a version-2 struct ends here) */
    uint8_t neg;        /* bit i: negate source i (-v1; VOP3P and MFMA: neg_lo:[..] / neg:[..]) */
    uint8_t abs;        /* bit i: absolute value of source i (|v1|) */
    uint8_t neg_hi;     /* VOP3P: bit i negates the high half of source i (neg_hi:[..]) */
    uint8_t omod;       /* output modifier: 0 none, 1 mul:2, 2 mul:4, 3 div:2 */
    uint8_t dst_sel;    /* SDWA selects (WA_SDWA_*): the part of vdst written, */
    uint8_t dst_unused; /* what happens to the rest (WA_SDWA_UNUSED_*), */
    uint8_t src0_sel, src1_sel; /* and the part of each source read */
    uint8_t sext;       /* SDWA: bit i sign-extends the selected part of source i (sext(v1)) */
    uint8_t reserved[3]; /* zero: the struct has no padding bytes (passes compare it bytewise) */
    /* new fields only ever appended */
} wa_mods;
#define WA_MODS_VERSION 3
#define WA_MODS_INIT                                                                         \
    { WA_MODS_VERSION, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, 0, 0xF, 0xF, 0, 0, 0, 0,          \
      WA_SDWA_DWORD, WA_SDWA_UNUSED_PRESERVE, WA_SDWA_DWORD, WA_SDWA_DWORD, 0, { 0, 0, 0 } }

/* SDWA selects (the hardware's values) and dst_unused. */
#define WA_SDWA_BYTE_0 0u
#define WA_SDWA_BYTE_1 1u
#define WA_SDWA_BYTE_2 2u
#define WA_SDWA_BYTE_3 3u
#define WA_SDWA_WORD_0 4u
#define WA_SDWA_WORD_1 5u
#define WA_SDWA_DWORD 6u
#define WA_SDWA_UNUSED_PAD 0u      /* the bits outside dst_sel become 0 */
#define WA_SDWA_UNUSED_SEXT 1u     /* sign-extended from the selected part */
#define WA_SDWA_UNUSED_PRESERVE 2u /* keep the destination's other bits */

/* Source modifiers and op_sel by format:
   VOP1/VOP2/VOPC/VOP3 (and their DPP/SDWA forms): neg/abs bit i applies to the
   i-th source, i.e. the i-th operand whose role is a pure use (v_cndmask's mask
   is source 2); written -v1, |v1|, -|v1| (neg(1.0) for a constant). VOP3 op_sel
   bits 0..2 pick the high half of sources 0..2 and bit 3 writes the high half of
   vdst (op_sel:[s0,s1,(s2,)dst]).
   VOP3P: neg is neg_lo:[..], neg_hi neg_hi:[..]; op_sel bit i makes the low half
   of the result read the high half of source i; op_sel_hi is stored INVERTED for
   VOP3P rows: bit i set means op_sel_hi[i] = 0, so the zero default is the
   hardware default op_sel_hi:[1,1,1]. The v_fma_mix rows (VOP3P rows that take
   abs) are the exception: neg/abs on the operands like VOP3, op_sel bit i picks
   the f16 half of source i, op_sel_hi bit i (stored as written, default 0) reads
   source i as f16 instead of f32. MAI (scaled MFMA): op_sel/op_sel_hi pick
   the scale bytes, stored as written. */

/* DPP controls of gfx90a/gfx942/gfx950 (the hardware's dpp_ctrl values). "Lane l
   reads lane s": quad_perm: s = 4 * (l / 4) + sel[l % 4]; row_shl:n: s = l + n
   and row_shr:n: s = l - n within the row of 16 (lanes shifted past its edge have
   no source); row_ror:n rotates the row; wave_shl/wave_shr shift the whole wave by
   one, wave_rol/wave_ror rotate it; row_mirror: s = 15 - l in the row;
   row_half_mirror: s = 7 - l in each half row; row_bcast:15: rows 1..3 read lane
   15 of the row before (row 0 has no source); row_bcast:31: rows 2 and 3 read
   lane 31 (rows 0 and 1 have none). */
#define WA_DPP_QUAD_PERM(a, b, c, d) \
    ((uint16_t)(((a) & 3u) | ((b) & 3u) << 2 | ((c) & 3u) << 4 | ((d) & 3u) << 6))
#define WA_DPP_ROW_SHL(n) ((uint16_t)(0x100u + (n))) /* n = 1..15 */
#define WA_DPP_ROW_SHR(n) ((uint16_t)(0x110u + (n))) /* n = 1..15 */
#define WA_DPP_ROW_ROR(n) ((uint16_t)(0x120u + (n))) /* n = 1..15 */
#define WA_DPP_WAVE_SHL1 0x130u
#define WA_DPP_WAVE_ROL1 0x134u
#define WA_DPP_WAVE_SHR1 0x138u
#define WA_DPP_WAVE_ROR1 0x13Cu
#define WA_DPP_ROW_MIRROR 0x140u
#define WA_DPP_ROW_HALF_MIRROR 0x141u
#define WA_DPP_ROW_BCAST15 0x142u
#define WA_DPP_ROW_BCAST31 0x143u

/* ---- Kernel attributes ----------------------------------------------------------------- */

/* ABI inputs the hardware preloads. SGPR inputs are packed from s0 in this
   order; work-item ids are packed into v0 (x bits 0-9, y 10-19, z 20-29). */
typedef enum wa_abi_input {
    WA_ABI_DISPATCH_PTR = 0, /* s[n:n+1] */
    WA_ABI_QUEUE_PTR,        /* s[n:n+1] */
    WA_ABI_KERNARG_PTR,      /* s[n:n+1] */
    WA_ABI_DISPATCH_ID,      /* s[n:n+1] */
    WA_ABI_WORKGROUP_ID_X,   /* s<n> (after the user SGPRs) */
    WA_ABI_WORKGROUP_ID_Y,
    WA_ABI_WORKGROUP_ID_Z,
    WA_ABI_WORKGROUP_INFO,
    WA_ABI_WORKITEM_ID_X,    /* v0 */
    WA_ABI_WORKITEM_ID_Y,    /* v0 (implies x) */
    WA_ABI_WORKITEM_ID_Z,    /* v0 (implies x, y) */
    WA_ABI_COUNT_
} wa_abi_input;
/* Text-form spelling (.abi line): "kernarg_ptr", "workitem_id_x", ...; NULL when
   out of range. */
WA_API const char *wa_abi_input_name(wa_abi_input in);
#define WA_ABI_BIT(i) (1u << (unsigned)(i))

typedef enum wa_arg_kind {
    WA_ARG_BY_VALUE = 0,
    WA_ARG_GLOBAL_BUFFER,
    WA_ARG_DYNAMIC_SHARED_POINTER,
    WA_ARG_HIDDEN_BLOCK_COUNT_X, WA_ARG_HIDDEN_BLOCK_COUNT_Y, WA_ARG_HIDDEN_BLOCK_COUNT_Z,
    WA_ARG_HIDDEN_GROUP_SIZE_X, WA_ARG_HIDDEN_GROUP_SIZE_Y, WA_ARG_HIDDEN_GROUP_SIZE_Z,
    WA_ARG_HIDDEN_REMAINDER_X, WA_ARG_HIDDEN_REMAINDER_Y, WA_ARG_HIDDEN_REMAINDER_Z,
    WA_ARG_HIDDEN_GLOBAL_OFFSET_X, WA_ARG_HIDDEN_GLOBAL_OFFSET_Y, WA_ARG_HIDDEN_GLOBAL_OFFSET_Z,
    WA_ARG_HIDDEN_GRID_DIMS,
    WA_ARG_HIDDEN_DYNAMIC_LDS_SIZE,
    WA_ARG_HIDDEN_NONE,
    /* The other value kinds of code object v5 metadata (appended; LLVM lists
       them for kernels that may use the runtime's services). */
    WA_ARG_HIDDEN_PRINTF_BUFFER, WA_ARG_HIDDEN_HOSTCALL_BUFFER, WA_ARG_HIDDEN_DEFAULT_QUEUE,
    WA_ARG_HIDDEN_COMPLETION_ACTION, WA_ARG_HIDDEN_MULTIGRID_SYNC_ARG, WA_ARG_HIDDEN_HEAP_V1,
    WA_ARG_HIDDEN_PRIVATE_BASE, WA_ARG_HIDDEN_SHARED_BASE, WA_ARG_HIDDEN_QUEUE_PTR,
    WA_ARG_KIND_COUNT_
} wa_arg_kind;
/* Metadata spelling: "by_value", "global_buffer", "hidden_block_count_x", ... */
WA_API const char *wa_arg_kind_name(wa_arg_kind kind);

#define WA_ARG_CONST 0x1u
#define WA_ARG_RESTRICT 0x2u
#define WA_ARG_VOLATILE 0x4u
#define WA_ARG_OFFSET_AUTO 0xFFFFFFFFu

typedef struct wa_kernel_arg {
    unsigned version;   /* WA_KERNEL_ARG_VERSION */
    const char *name;   /* may be NULL */
    wa_arg_kind kind;
    unsigned offset;    /* bytes; WA_ARG_OFFSET_AUTO places it after the last argument */
    unsigned size;      /* bytes */
    unsigned align;     /* bytes, a power of two; 0 = natural (size, at most 8) */
    unsigned flags;     /* WA_ARG_* */
} wa_kernel_arg;
#define WA_KERNEL_ARG_VERSION 1
#define WA_KERNEL_ARG_INIT { WA_KERNEL_ARG_VERSION, NULL, WA_ARG_BY_VALUE, WA_ARG_OFFSET_AUTO, 4, 0, 0 }

/* ---- Lifetime ---------------------------------------------------------------------------- */

/* Creates an empty kernel named `name` for the context's target, workgroup size
   64x1x1, no LDS, no arguments and the kernarg pointer plus work-item id x as ABI
   inputs. WA_E_INVALID if `name` is not a valid symbol. */
WA_API wa_status wa_program_create(wa_program **out, wa_context *ctx, const char *name);
/* NULL-safe. Invalidates every borrowed pointer obtained from `prog`. */
WA_API void wa_program_destroy(wa_program *prog);
/* Deep copy, including tags and source positions. */
WA_API wa_status wa_program_clone(wa_program **out, const wa_program *prog);
/* 1 if the two programs have the same attributes, arguments, virtual registers and
   items (operands, modifiers, tags, comments), else 0. Labels compare by name;
   source positions are ignored. */
WA_API int wa_program_equal(const wa_program *a, const wa_program *b);
WA_API wa_context *wa_program_context(const wa_program *prog);

/* ---- Attributes -------------------------------------------------------------------------- */

WA_API const char *wa_program_name(const wa_program *prog);
WA_API wa_status wa_program_set_name(wa_program *prog, const char *name);
WA_API wa_target wa_program_target(const wa_program *prog);
WA_API wa_status wa_program_set_target(wa_program *prog, wa_target target);
/* Each dimension 1..1024 and the product at most 1024 (checked by the validator). */
WA_API wa_status wa_program_set_workgroup_size(wa_program *prog, unsigned x, unsigned y, unsigned z);
WA_API void wa_program_workgroup_size(const wa_program *prog, unsigned out[3]);
WA_API wa_status wa_program_set_lds_bytes(wa_program *prog, unsigned bytes);
WA_API unsigned wa_program_lds_bytes(const wa_program *prog);

/* ABI inputs as a WA_ABI_BIT mask. */
WA_API wa_status wa_program_set_abi_inputs(wa_program *prog, unsigned mask);
WA_API unsigned wa_program_abi_inputs(const wa_program *prog);
/* The physical register that holds `input` given the enabled inputs: s[0:1] for
   the kernarg pointer with nothing before it, s2 for workgroup id x after it, v0
   for work-item ids. WA_E_INVALID if the input is not enabled. */
WA_API wa_status wa_program_abi_reg(wa_operand *out, const wa_program *prog, wa_abi_input input);
/* Number of user SGPRs (before the system SGPRs) and of all preloaded SGPRs. */
WA_API unsigned wa_program_user_sgpr_count(const wa_program *prog);
WA_API unsigned wa_program_abi_sgpr_count(const wa_program *prog);

/* Appends a kernel argument; `out_index` may be NULL. Names are copied. */
WA_API wa_status wa_program_add_arg(unsigned *out_index, wa_program *prog, const wa_kernel_arg *arg);
WA_API unsigned wa_program_arg_count(const wa_program *prog);
/* Borrowed name; valid until the program is destroyed. */
WA_API wa_status wa_program_arg(wa_kernel_arg *out, const wa_program *prog, unsigned index);
/* End of the last explicit argument, rounded up to 8 (the kernarg segment size). */
WA_API unsigned wa_program_kernarg_size(const wa_program *prog);

/* ---- Registers and labels ------------------------------------------------------------------ */

/* New virtual register of `size` 32-bit registers. `align` 0 picks the target's
   tuple rule (VGPR/AGPR tuples even, SGPR pairs at 2, wider SGPR tuples at 4);
   otherwise a power of two. `out` receives an operand naming the whole register. */
WA_API wa_status wa_program_vreg(wa_operand *out, wa_program *prog, wa_reg_class cls,
                                 unsigned size, unsigned align);
/* Number of virtual register ids in use (ids are 0 .. count-1; a parsed program
   may leave ids unused, reported with class WA_REG_NONE). */
WA_API unsigned wa_program_vreg_count(const wa_program *prog);
WA_API wa_status wa_program_vreg_info(wa_reg_class *out_class, unsigned *out_size,
                                      unsigned *out_align, const wa_program *prog, unsigned id);
/* The alignment the target requires for a tuple of `size` registers of `cls`. */
WA_API unsigned wa_target_tuple_align(wa_target target, wa_reg_class cls, unsigned size);

/* New label; `name` NULL picks "L<n>". Names must be unique symbols. */
WA_API wa_status wa_program_label_create(wa_label *out, wa_program *prog, const char *name);
WA_API const char *wa_program_label_name(const wa_program *prog, wa_label label);
WA_API unsigned wa_program_label_count(const wa_program *prog);

/* ---- Building ---------------------------------------------------------------------------------

   Builders insert at the insert point (the end unless moved) and return the new
   instruction's tag through `out` (which may be NULL). They check structure:
   the opcode exists, the operand count matches the table, register ids, classes
   and component ranges are consistent, modifiers are versioned, a branch target
   is a label and a label is nothing else, labels and comments carry no
   modifiers: whatever a builder or an edit accepts prints as text that parses
   back to an equal program (WA_E_INVALID otherwise). Target rules
   (allowed classes per position, sizes, alignment, literals, constant bus,
   ranges) are the validator's job (validate.h), so programs can be built first
   and checked as a whole. */

WA_API wa_status wa_build(wa_tag *out, wa_program *prog, wa_opcode op,
                          const wa_operand *ops, unsigned num_ops, const wa_mods *mods);

/* Family helpers: same as wa_build with the operands in table order. They fail
   with WA_E_INVALID when `op` is not of the family. Pass wa_opnd_none() for an
   absent operand. */
/* VOP1/VOP2/VOPC/VOP3/VOP3P: dst then sources (v_cndmask's mask is src2).
   v_div_scale_f32 (vdst, sdst, three sources) is built with wa_build. */
WA_API wa_status wa_build_valu(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand dst,
                               wa_operand src0, wa_operand src1, wa_operand src2);
/* The same with modifiers: DPP (WA_MOD_DPP with dpp_ctrl, row_mask, bank_mask and
   optionally WA_MOD_BOUND_CTRL) on a VOP1/VOP2 instruction. The validator allows
   DPP where the hardware has it: the 32-bit form of a VOP1/VOP2 instruction whose
   destination is a VGPR and whose src0 is a VGPR it only reads (not
   v_readfirstlane, v_accvgpr_mov, the lane swaps), every source a VGPR (v_cndmask's
   mask vcc), no constants. A DPP instruction also reads its destination: lanes
   that are masked or have no source keep their value (with WA_MOD_BOUND_CTRL and
   row_mask = bank_mask = 0xF every active lane is written, and it does not). */
WA_API wa_status wa_build_valu_mods(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand dst,
                                    wa_operand src0, wa_operand src1, wa_operand src2,
                                    const wa_mods *mods);
/* SOP1/SOP2/SOPC/SOPK: dst (none for s_cmp_*) then sources. */
WA_API wa_status wa_build_salu(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand dst,
                               wa_operand src0, wa_operand src1);
/* SMEM: `offset` is an SGPR or an immediate (with an SGPR, mods->offset may add an
   immediate). `sdst` is the data of stores and atomics and the probe mode of
   s_atc_probe*. Rows with fewer operands take a prefix: s_dcache_discard* (sbase,
   offset: pass wa_opnd_none() as sdst), s_memtime/s_memrealtime (sdst only),
   s_dcache_inv/wb* (none). */
WA_API wa_status wa_build_smem(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand sdst,
                               wa_operand sbase, wa_operand offset, const wa_mods *mods);
/* buffer_*: vdata is ignored for the `lds` forms (and a plain load with
   WA_MOD_LDS becomes its `lds` form). vaddr is `off` without offen/idxen. */
WA_API wa_status wa_build_mubuf(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand vdata,
                                wa_operand vaddr, wa_operand srsrc, wa_operand soffset,
                                const wa_mods *mods);
/* global_*: `data` is the destination of loads and the source of stores. */
WA_API wa_status wa_build_global(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand data,
                                 wa_operand vaddr, wa_operand saddr, const wa_mods *mods);
/* ds_*: vdst for reads (none for writes), data0/data1 for writes. */
WA_API wa_status wa_build_ds(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand vdst,
                             wa_operand addr, wa_operand data0, wa_operand data1,
                             const wa_mods *mods);
/* v_mfma_*: D = A * B + C. For the scaled forms pass the scale VGPRs in
   scale_a/scale_b (wa_opnd_none() otherwise). */
WA_API wa_status wa_build_mfma(wa_tag *out, wa_program *prog, wa_opcode op, wa_operand d,
                               wa_operand a, wa_operand b, wa_operand c, wa_operand scale_a,
                               wa_operand scale_b, const wa_mods *mods);
/* s_waitcnt with the given counts; -1 leaves a counter alone. */
WA_API wa_status wa_build_waitcnt(wa_tag *out, wa_program *prog, int vmcnt, int lgkmcnt, int expcnt);
/* s_nop/s_sleep/s_setprio take `imm`; s_barrier/s_endpgm ignore it. */
WA_API wa_status wa_build_sopp(wa_tag *out, wa_program *prog, wa_opcode op, int imm);
/* s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32: `hwreg` is the 16-bit field
   (WA_HWREG(id, offset, size) from isa.h); `value` is the destination SGPR of
   s_getreg, the source SGPR of s_setreg_b32, the 32-bit integer of
   s_setreg_imm32_b32 (wa_opnd_imm). */
WA_API wa_status wa_build_hwreg(wa_tag *out, wa_program *prog, wa_opcode op, unsigned hwreg,
                                wa_operand value);
/* s_branch / s_cbranch_*. */
WA_API wa_status wa_build_branch(wa_tag *out, wa_program *prog, wa_opcode op, wa_label target);
/* Places `label` at the insert point. A label is placed at most once. */
WA_API wa_status wa_build_label(wa_program *prog, wa_label label);
/* A comment line in the instruction stream. */
WA_API wa_status wa_build_comment(wa_program *prog, const char *text);
/* Attaches (or with NULL removes) a trailing comment on the instruction `tag`. */
WA_API wa_status wa_program_set_comment(wa_program *prog, wa_tag tag, const char *text);

/* ---- Inspecting -------------------------------------------------------------------------------- */

typedef struct wa_instr_view {
    wa_opcode opcode;         /* WA_OP_LABEL / WA_OP_COMMENT for those items */
    wa_tag tag;               /* WA_NO_TAG for labels and comments */
    unsigned num_operands;
    const wa_operand *operands;
    const wa_mods *mods;
    const char *comment;      /* trailing comment, or the text of WA_OP_COMMENT; may be NULL */
    unsigned line, col;       /* source position when parsed, else 0 */
} wa_instr_view;

/* Items (instructions, labels, comments) in program order. */
WA_API unsigned wa_program_size(const wa_program *prog);
/* Borrowed view; valid until the program is edited or destroyed. */
WA_API wa_status wa_program_get(wa_instr_view *out, const wa_program *prog, unsigned index);
WA_API wa_status wa_program_find_tag(unsigned *out_index, const wa_program *prog, wa_tag tag);

/* ---- Editing ------------------------------------------------------------------------------------- */

#define WA_END 0xFFFFFFFFu
/* Builders insert before item `index` (WA_END: append). The point advances past
   each inserted item. */
WA_API wa_status wa_program_set_insert_point(wa_program *prog, unsigned index);
WA_API wa_status wa_program_erase(wa_program *prog, unsigned index);
/* Moves item `from` so that it ends up at index `to` (indices after removal). */
WA_API wa_status wa_program_move(wa_program *prog, unsigned from, unsigned to);
/* Replaces operand `operand` of item `index` (same structural checks as wa_build). */
WA_API wa_status wa_program_set_operand(wa_program *prog, unsigned index, unsigned operand,
                                        wa_operand value);
WA_API wa_status wa_program_set_mods(wa_program *prog, unsigned index, const wa_mods *mods);

WA_END_DECLS
#endif
