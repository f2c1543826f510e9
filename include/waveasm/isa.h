/* include/waveasm/isa.h — the instruction table: opcodes and their facts.

   Everything in the library (builder, printer, parser, validator, emitter, passes)
   reads one declarative table, <waveasm/isa.def>. This header exposes it so that
   bindings and tools never keep a second list: iterate 0 .. wa_isa_count()-1 and
   call wa_isa_get(). */
#ifndef WAVEASM_ISA_H
#define WAVEASM_ISA_H

#include <waveasm/common.h>

WA_BEGIN_DECLS

/* Opcode numbers follow the table order. Until 1.0 the order may change between
   minor versions; hosts that persist opcodes should persist mnemonics. */
typedef enum wa_opcode {
#define WA_INSN(id, ...) WA_OP_##id,
#include <waveasm/isa.def>
#undef WA_INSN
    WA_OP_COUNT_
} wa_opcode;

/* Encoding formats (AMDGCN GFX9 family). Values are stable; new ones are appended. */
typedef enum wa_format {
    WA_FMT_PSEUDO = 0, /* label, comment: no machine code */
    WA_FMT_SOP1, WA_FMT_SOP2, WA_FMT_SOPK, WA_FMT_SOPC, WA_FMT_SOPP,
    WA_FMT_SMEM,
    WA_FMT_VOP1, WA_FMT_VOP2, WA_FMT_VOPC, /* have a 32-bit form, promotable to VOP3 */
    WA_FMT_VOP3, WA_FMT_VOP3P,
    WA_FMT_MAI,  /* MFMA and SMFMAC (VOP3P-MAI) */
    WA_FMT_DS, WA_FMT_MUBUF,
    WA_FMT_GLOBAL,  /* FLAT encoding, global segment (global_*) */
    WA_FMT_FLAT,    /* FLAT encoding, flat segment (flat_*: global or LDS by address) */
    WA_FMT_SCRATCH, /* FLAT encoding, scratch segment (scratch_*: private memory) */
    WA_FMT_COUNT_
} wa_format;

/* Target availability bits: WA_TARGET_BIT(WA_TARGET_GFX942) etc. */
#define WA_TARGET_BIT(t) (1u << (unsigned)(t))

/* Operand roles. DEFUSE: the instruction reads and writes the register
   (v_writelane_b32's vdst keeps the other lanes). */
typedef enum wa_operand_role {
    WA_ROLE_DEF = 1,
    WA_ROLE_USE = 2,
    WA_ROLE_DEFUSE = 3
} wa_operand_role;

/* What an operand position accepts (bit mask). */
#define WA_OC_VGPR 0x001u    /* v0..v255 or a virtual VGPR */
#define WA_OC_SGPR 0x002u    /* s0..s101 or a virtual SGPR */
#define WA_OC_AGPR 0x004u    /* a0..a255 or a virtual AGPR */
#define WA_OC_SPECIAL 0x008u /* vcc, exec (and halves), m0 where the size fits */
#define WA_OC_INLINE 0x010u  /* inline constant: -16..64, float 0.5/1/2/4 (+-), 1/(2pi) */
#define WA_OC_LITERAL 0x020u /* any 32-bit constant (one per instruction, 32-bit forms only) */
#define WA_OC_IMM 0x040u     /* raw immediate field in [imm_min, imm_max] */
#define WA_OC_LABEL 0x080u   /* branch target */
#define WA_OC_OFF 0x100u     /* the `off` keyword (no address register) */
#define WA_OC_HWREG 0x200u   /* with WA_OC_IMM: a 16-bit hwreg(id, offset, size) field, written
                                and printed in that form (see WA_HWREG below) */
#define WA_OC_VCC32 0x400u   /* with WA_OC_SGPR/SPECIAL on a 2-register VALU operand: the 32-bit
                                (e32) encoding has no field for it and needs vcc there (VOPC
                                sdst, v_cndmask's mask, VOP2 carry-out and carry-in); any other
                                register asks for the VOP3 (e64) form */
#define WA_OC_KLIT 0x800u    /* literal-K: a 32-bit constant that always travels in the
                                literal dword (v_fmamk/v_fmaak, v_madmk/v_madak), even when
                                its value is an inline constant */

/* How an immediate in the position is interpreted (decides inline constants and
   the bits of a literal). Values are stable; new ones are appended.
   B16/F16/BF16: a 16-bit value in the low half; PK_*: two 16-bit values (VOP3P:
   an inline constant goes to the low half and, by op_sel_hi, the high half);
   PK_F32: two f32 in a register pair (v_pk_fma_f32, ...). */
typedef enum wa_data_type {
    WA_TY_NONE = 0,
    WA_TY_B32, WA_TY_F32, WA_TY_F16, WA_TY_B64, WA_TY_F64,
    WA_TY_B16, WA_TY_BF16, WA_TY_PK_B16, WA_TY_PK_F16, WA_TY_PK_BF16, WA_TY_PK_F32,
    WA_TY_COUNT_
} wa_data_type;

/* Instruction flags. */
#define WA_IF_PSEUDO 0x00000001u     /* label or comment */
#define WA_IF_BRANCH 0x00000002u     /* unconditional branch */
#define WA_IF_CBRANCH 0x00000004u    /* conditional branch (falls through) */
#define WA_IF_ENDPGM 0x00000008u     /* ends the wave */
#define WA_IF_BARRIER 0x00000010u    /* workgroup barrier */
#define WA_IF_WAITCNT 0x00000020u    /* s_waitcnt: fields in wa_mods */
#define WA_IF_NOP 0x00000040u
#define WA_IF_LOAD 0x00000080u
#define WA_IF_STORE 0x00000100u
#define WA_IF_ATOMIC 0x00000200u
#define WA_IF_LDS_DMA 0x00000400u    /* buffer_load ... lds: memory to LDS at M0 */
#define WA_IF_MFMA 0x00000800u
#define WA_IF_TRANS 0x00001000u      /* transcendental VALU */
#define WA_IF_RTN_GLC 0x00002000u    /* atomic: returns the old value in vdata when glc/sc0 */
#define WA_IF_DS_2ADDR 0x00004000u   /* ds_read2/ds_write2: offset0/offset1 */
#define WA_IF_SMEM_BUFFER 0x00008000u /* s_buffer_load: 20-bit unsigned offset */
#define WA_IF_F8F6F4 0x00010000u     /* A/B sizes follow cbsz/blgp formats */
#define WA_IF_SIDE_EFFECTS 0x00020000u /* must not be removed or reordered freely */
#define WA_IF_NO_SPECIAL_DST 0x00040000u /* destination must be a numbered register */
#define WA_IF_MOVE 0x00080000u       /* copies src0 to vdst unchanged (coalescing candidate);
                                        not with modifiers: a DPP v_mov_b32 moves lanes */
#define WA_IF_REL_M0 0x00100000u     /* s_movrels/s_movreld: the operand whose classes are
                                        exactly WA_OC_SGPR is the base of an SGPR index
                                        relative to M0 (the register accessed is base + M0,
                                        which no analysis sees); it must be physical */
#define WA_IF_EARLY_CLOBBER 0x00200000u /* MFMA whose result (wider than 128 bits) is written
                                        while its sources are still read: vdst must not
                                        overlap srcA, srcB or the scale operands, and srcC
                                        is identical to vdst or disjoint from it. Without
                                        the flag vdst may share registers with any source.
                                        The validator, the allocator, the allocation
                                        checker and the peephole pass all read this. */
#define WA_IF_INDIRECT 0x00400000u   /* control flow the CFG cannot follow: a code address in
                                        SGPRs (s_setpc/s_swappc/s_getpc, s_call, fork/join).
                                        With WA_IF_BRANCH: no successor; with WA_IF_CBRANCH:
                                        the label operand (if any) and the next instruction.
                                        The simulator does not execute them. */
#define WA_IF_COMMUTATIVE 0x00800000u /* src0 and src1 may be swapped (same result and
                                        implicit results): CSE and peephole read it */
#define WA_IF_OPSEL4 0x01000000u     /* op_sel has four entries whatever the number of
                                        sources: bits 2 and 3 choose the byte of vdst
                                        written (v_cvt_sr_fp8_f32, ...) */

/* Implicit registers. */
#define WA_IMPL_SCC 0x1u
#define WA_IMPL_VCC 0x2u
#define WA_IMPL_EXEC 0x4u
#define WA_IMPL_M0 0x8u

/* Counters an instruction increments (s_waitcnt). */
#define WA_CNT_VM 0x1u
#define WA_CNT_LGKM 0x2u
#define WA_CNT_EXP 0x4u

typedef enum wa_latency_class {
    WA_LAT_NONE = 0, WA_LAT_SALU, WA_LAT_VALU, WA_LAT_TRANS, WA_LAT_SMEM,
    WA_LAT_VMEM, WA_LAT_DS, WA_LAT_MFMA, WA_LAT_BRANCH
} wa_latency_class;

typedef enum wa_hazard_class {
    WA_HZ_NONE = 0,
    WA_HZ_SALU,
    WA_HZ_VALU,
    WA_HZ_TRANS,       /* VALU, TRANS forwarding rules */
    WA_HZ_READLANE,    /* v_readlane / v_readfirstlane */
    WA_HZ_WRITELANE,   /* v_writelane */
    WA_HZ_SMEM,
    WA_HZ_VMEM,
    WA_HZ_LDS_DMA,     /* VMEM that reads M0 */
    WA_HZ_DS,
    WA_HZ_MFMA_XDL,    /* F16/BF16/I8/FP8/F8F6F4 MFMA */
    WA_HZ_MFMA_SMFMA,  /* F32-input MFMA on gfx940+ */
    WA_HZ_MFMA_DGEMM,  /* F64 MFMA */
    WA_HZ_BRANCH,
    /* Appended (values above are stable). Each names a consumer or producer that
       a hazard rule of gfx90a/gfx942/gfx950 singles out: DIV_FMAS .. PERMLANE_SWAP
       are VALU instructions, GETREG .. SENDMSG SALU ones. */
    WA_HZ_DIV_FMAS,      /* v_div_fmas: VALU that reads VCC implicitly */
    WA_HZ_DOT,           /* v_dot*: dot-product VALU (its own write/read distances) */
    WA_HZ_FMA64,         /* v_fma_f64: FP64 FMA, waits after a DGEMM MFMA */
    WA_HZ_PERMLANE_SWAP, /* v_permlane16_swap / v_permlane32_swap (gfx950) */
    WA_HZ_GETREG,        /* s_getreg_b32 */
    WA_HZ_SETREG,        /* s_setreg_b32, s_setreg_imm32_b32 */
    WA_HZ_MOVREL,        /* s_movrels / s_movreld: SALU reading M0 as an index */
    WA_HZ_SENDMSG,       /* s_sendmsg / s_sendmsghalt / s_ttracedata: read M0 as the
                            message payload */
    WA_HZ_DS_M0          /* ds_read_addtid / ds_write_addtid: DS taking its LDS address
                            from M0 */
} wa_hazard_class;
#define WA_HZ_LAST_ WA_HZ_DS_M0

#define WA_ISA_MAX_OPERANDS 6

typedef struct wa_isa_operand {
    const char *name;         /* "vdst", "src0", "vaddr", ...; NULL past the last */
    unsigned char role;       /* wa_operand_role */
    unsigned char type;       /* wa_data_type */
    unsigned short size;      /* registers (32-bit); 0 = decided by modifiers */
    unsigned classes;         /* WA_OC_* */
    int imm_min, imm_max;     /* range for WA_OC_IMM */
} wa_isa_operand;

typedef struct wa_isa_info {
    const char *id;              /* unique upper-case name, "BUFFER_LOAD_DWORD_LDS" */
    const char *mnemonic;        /* assembly spelling on gfx942/gfx950 */
    const char *mnemonic_gfx90a; /* spelling on gfx90a (same unless renamed) */
    wa_format format;
    unsigned targets;            /* WA_TARGET_BIT mask */
    unsigned flags;              /* WA_IF_* */
    unsigned implicit_defs;      /* WA_IMPL_* */
    unsigned implicit_uses;      /* WA_IMPL_* */
    unsigned counters;           /* WA_CNT_* */
    wa_latency_class latency;
    wa_hazard_class hazard;
    unsigned encoding;           /* opcode field of the format (32-bit form if any) */
    unsigned encoding_gfx90a;    /* differs only for a few MFMAs */
    unsigned mfma_passes_gfx90a; /* MFMA issue passes (cycles/4), 0 if not an MFMA */
    unsigned mfma_passes_gfx94x; /* gfx942 (and gfx950 unless the next field differs) */
    unsigned num_operands;
    wa_isa_operand operands[WA_ISA_MAX_OPERANDS];
    unsigned mfma_passes_gfx950; /* gfx950 (appended; wa_isa_mfma_passes reads all three) */
    /* appended in 0.2 */
    unsigned mods_ok;            /* WA_MODOK_*: the modifiers the instruction takes */
} wa_isa_info;

/* Modifiers a row allows (wa_isa_info.mods_ok). The validator accepts a modifier
   only where its bit is set (and then checks the per-format ranges). */
#define WA_MODOK_CLAMP 0x00000001u    /* clamp */
#define WA_MODOK_OMOD 0x00000002u     /* mul:2, mul:4, div:2 (output modifier) */
#define WA_MODOK_NEG 0x00000004u      /* -src (VOP3, DPP, SDWA); neg_lo:[..] (VOP3P);
                                         neg:[..] (f64 MFMA on gfx942/gfx950) */
#define WA_MODOK_ABS 0x00000008u      /* |src| */
#define WA_MODOK_OPSEL 0x00000010u    /* op_sel:[..] */
#define WA_MODOK_OPSEL_HI 0x00000020u /* op_sel_hi:[..] */
#define WA_MODOK_NEG_HI 0x00000040u   /* neg_hi:[..] (VOP3P) */
#define WA_MODOK_DPP 0x00000080u      /* DPP form (VOP1/VOP2 32-bit) */
#define WA_MODOK_SDWA 0x00000100u     /* SDWA form (VOP1/VOP2/VOPC 32-bit) and sext() */
#define WA_MODOK_GLC 0x00000200u      /* glc (sc0 on gfx942/gfx950) */
#define WA_MODOK_SLC 0x00000400u      /* slc (nt on gfx942/gfx950) */
#define WA_MODOK_SC1 0x00000800u      /* scc on gfx90a, sc1 on gfx942/gfx950 */
#define WA_MODOK_OFFSET 0x00001000u   /* offset:N (range by format) */
#define WA_MODOK_OFFSET01 0x00002000u /* offset0:N offset1:N (ds_*2*) */
#define WA_MODOK_OFFEN 0x00004000u    /* MUBUF offen */
#define WA_MODOK_IDXEN 0x00008000u    /* MUBUF idxen */
#define WA_MODOK_LDS 0x00010000u      /* MUBUF lds (the WA_IF_LDS_DMA rows) */
#define WA_MODOK_CBSZ 0x00020000u     /* MFMA cbsz:N */
#define WA_MODOK_ABID 0x00040000u     /* MFMA abid:N */
#define WA_MODOK_BLGP 0x00080000u     /* MFMA blgp:N */
#define WA_MODOK_WAITCNT 0x00100000u  /* vmcnt(N) expcnt(N) lgkmcnt(N) */

/* A row whose result is a bitwise function of two sources (wa_isa_logic()):
   bit (2a + b) of the truth table is the result bit for source bits a and b.
   For SOP2 rows a is src0 and b src1; for SOP1 rows b is unused (s_not: 0x3,
   s_mov: 0xC) unless WA_LOGIC_EXEC says b is EXEC. Analyses (the EXEC mask) and
   the simulator read it. */
#define WA_LOGIC_VALID 0x10u
#define WA_LOGIC_TRUTH(l) ((unsigned)(l) & 0xFu)
#define WA_LOGIC_EXEC 0x20u    /* EXEC = f(src0, EXEC) and sdst = the old EXEC (saveexec) */
#define WA_LOGIC_WREXEC 0x40u  /* with WA_LOGIC_EXEC: sdst = the new EXEC (wrexec) */
/* The result bit of logic `l` for source bits a and b. */
#define WA_LOGIC_BIT(l, a, b) (((unsigned)(l) >> (2u * ((a) != 0) + ((b) != 0))) & 1u)

/* Element format of an MFMA's A and B operands. */
typedef enum wa_mfma_input {
    WA_MFMA_IN_F16 = 1, WA_MFMA_IN_BF16, WA_MFMA_IN_FP8, WA_MFMA_IN_I8, WA_MFMA_IN_F32,
    WA_MFMA_IN_F8F6F4, /* block-scaled: fp8/fp6/fp4 chosen by cbsz (A) and blgp (B) */
    WA_MFMA_IN_F64,    /* DGEMM: f64 A, B, C and D (register pairs) */
    WA_MFMA_IN_BF8,    /* E5M2 8-bit floats */
    WA_MFMA_IN_XF32    /* f32 registers, products at reduced (xf32) precision */
} wa_mfma_input;

/* Shape of an MFMA opcode: `blocks` independent M x N x K products (the
   4x4x4_16b opcodes have 16; cbsz/abid broadcast A between blocks), the input
   format, and the targets (WA_TARGET_BIT mask) whose hardware honours a
   non-zero BLGP lane broadcast. `input` is A's format and `input_b` B's (they
   differ for the mixed fp8/bf8 opcodes); `sparse` marks SMFMAC (A 2:4 sparse,
   k the dense K). */
typedef struct wa_mfma_shape {
    unsigned m, n, k;
    unsigned blocks;
    wa_mfma_input input;
    unsigned blgp_targets;
    wa_mfma_input input_b; /* appended */
    unsigned sparse;       /* appended */
} wa_mfma_shape;

/* WA_LOGIC_* facts of `op`: 0 unless its result is a bitwise function of its
   sources (s_and/s_or/..., s_not, the saveexec and wrexec forms). */
WA_API unsigned wa_isa_logic(unsigned op);
/* Sources of `op` that take neg (bits 0..2: source i) and abs (bits 4..6), for
   rows that allow them (wa_isa_info.mods_ok); 0x77 unless a WA_SRCMODS fact of
   the row restricts them (VOP3 conversions: only their float sources). */
WA_API unsigned wa_isa_source_mods(unsigned op);
/* Number of opcodes in the table (== WA_OP_COUNT_). */
WA_API unsigned wa_isa_count(void);
/* Static entry for `op`; NULL when out of range. */
WA_API const wa_isa_info *wa_isa_get(unsigned op);
/* Non-zero if `op` exists on `target`. */
WA_API int wa_isa_available(unsigned op, wa_target target);
/* Shape of MFMA `op`; NULL when `op` is not an MFMA. */
WA_API const wa_mfma_shape *wa_isa_mfma_shape(unsigned op);
/* MFMA issue passes of `op` on `target` (0 if `op` is not an MFMA or not available
   there). The DGEMM 16x16x4 takes 8 passes on gfx90a/gfx942 and 16 on gfx950. */
WA_API unsigned wa_isa_mfma_passes(unsigned op, wa_target target);
/* Assembly spelling of `op` on `target` (gfx90a names differ for some MFMAs). */
WA_API const char *wa_isa_mnemonic(unsigned op, wa_target target);
/* Finds the opcode spelled `mnemonic` (either spelling, with or without an
   _e32/_e64 suffix). Where one mnemonic has several entries (the `lds` forms of
   buffer loads) the plain form is returned. WA_E_NOT_FOUND otherwise. */
WA_API wa_status wa_isa_lookup(wa_opcode *out, const char *mnemonic);
/* The hwreg(id, offset, size) operand of s_getreg_b32 / s_setreg_b32 /
   s_setreg_imm32_b32 is one 16-bit field: id in bits 5:0, the bit offset in
   10:6, size - 1 in 15:11 (size 1..32). The text form spells it
   hwreg(HW_REG_MODE) (offset 0, size 32) or hwreg(HW_REG_MODE, 0, 4), with a
   number where a target has no name for the id. */
#define WA_HWREG(id, offset, size) \
    ((unsigned)(((id) & 0x3Fu) | ((offset) & 0x1Fu) << 6 | (((size) - 1u) & 0x1Fu) << 11))
#define WA_HWREG_ID(field) ((unsigned)(field) & 0x3Fu)
#define WA_HWREG_OFFSET(field) (((unsigned)(field) >> 6) & 0x1Fu)
#define WA_HWREG_SIZE(field) ((((unsigned)(field) >> 11) & 0x1Fu) + 1u)
/* Hardware register ids with a name on gfx90a, gfx942 and gfx950 (gfx942 and
   gfx950 also name 20..24: XCC_ID and the SQ_PERF_SNAPSHOT registers). */
#define WA_HWREG_MODE 1u
#define WA_HWREG_STATUS 2u
#define WA_HWREG_TRAPSTS 3u
#define WA_HWREG_HW_ID 4u
#define WA_HWREG_GPR_ALLOC 5u
#define WA_HWREG_LDS_ALLOC 6u
#define WA_HWREG_IB_STS 7u
/* "HW_REG_MODE" for id 1 on `target`; NULL where the target has no name for it. */
WA_API const char *wa_hwreg_name(unsigned id, wa_target target);

/* Names for the enums above, for printing and bindings ("VOP2", "valu", ...). */
WA_API const char *wa_format_name(wa_format format);
WA_API const char *wa_latency_class_name(wa_latency_class lat);
WA_API const char *wa_hazard_class_name(wa_hazard_class haz);

WA_END_DECLS
#endif
