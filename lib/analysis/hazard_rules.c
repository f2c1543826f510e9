/* lib/analysis/hazard_rules.c — the hazard rules as one table (docs/hazards.md
   lists them for users, with the same ids).

   One row per rule that the opcodes of isa.def can trigger on gfx90a, gfx942 and
   gfx950, with the per-target numbers of wait states. Where a number depends on
   the producing MFMA it is a formula of its pass count P (the ISA table's
   mfma_passes_gfx90a / mfma_passes_gfx94x) and of XDL vs SMFMA (the hazard
   class); on gfx90a both columns are the same (every non-DGEMM MFMA follows the
   gfx90a numbers). A wait state is one issued instruction, or N+1 for s_nop N.

   Cross-checked against LLVM twice: by reading GCNHazardRecognizer.cpp and
   GCNSubtarget.h (the gfx950-aware version), and by running LLVM 22's recognizer
   (llc-22 -run-pass=post-RA-hazard-rec on MIR) for every producer/consumer pair
   of the unit tests on all three targets. The LLVM checks behind the rows:
     H1   checkVMEMHazards: VmemSgprWaitStates = 5 (VI and later).
     H2   checkRWLaneHazards: RWLaneWaitStates = 4, lane select = src1.
     H3   checkReadM0Hazards: 1 after a SALU write of M0; LDS-DMA gated by
          hasReadM0LdsDmaHazard, s_sendmsg/s_sendmsghalt/s_ttracedata by
          hasReadM0SendMsgHazard, ds_read/write_addtid by
          hasReadM0MovRelInterpHazard (all the GFX9 generation; ds_append and
          ds_consume without gds need nothing).
     H35  checkSoftClauseHazards (from checkSMRDHazards; XNACK, which the
          targets' default "xnack any" code objects allow): 1 (wa_hz_smem_clause_
          conflict below).
     H4   checkVALUHazardsHelper: 1, or 2 with gfx940 instructions;
          createsVALUHazard: data wider than 64 bits, MUBUF only when soffset is
          not a register, global always.
     H5-H8  checkVALUHazards under hasVDecCoExecHazard (gfx940+):
          VALUWriteSGPRVALUReadWaitstates = 2 (explicit SGPR reads and any read
          of VCC), VALUWriteVGPRReadlaneRead = 1, VALUWriteEXECRWLane = 4.
     H9   hasTransForwardingHazard (gfx940+): TransDefWaitstates = 1, consumer
          any non-TRANS VALU.
     H10, H11  checkMAIHazards90A: VALU (not MFMA) writes EXEC -> MFMA 4; VALU
          (not MFMA, not dot) writes a source -> MFMA 2.
     H12-H16  MFMA results. gfx90a: 5 / 11 / 19 for 2 / 8 / 16 passes (VALU,
          VMEM, DS read; WAW; srcA/B), srcC overlapped 2 / 8 / 16, identical
          srcC 0. gfx940+: XDL P+3 (+1 on gfx950 when P != 2), SMFMA P+2; srcC
          identical 2 when P = 2 (GFX940_SMFMA4x4WritesVGPRFullSrcC); srcC
          overlapped: XDL -> XDL P+1 (+1 on gfx950), XDL -> SMFMA P+1 (+1 on
          gfx950 when P != 2), SMFMA -> SMFMA P, SMFMA -> XDL 0
          (checkMAIHazards90A, checkMAIVALUHazards and the GFX940_*_N_Pass*
          helpers).
     H17  checkMAIVALUHazards: srcC read -> write 1 / 3 / 7 / 15 for 2 / 4 / 8 / 16
          passes (P - 1); on gfx940+ XDL producers only.
   Where this table and LLVM differ:
     * LLVM looks back at most 19 wait states for MFMA results (MaxWaitStates),
       so a gfx950 16-pass XDL producer (formula 20) would be under-covered there;
       the formula is used here. (No opcode of isa.def has 16 passes on gfx950.)
     * LLVM's H1 scans all uses of a VMEM instruction, implicit ones included,
       so a VALU write of EXEC (v_cmp to exec) needs 5 wait states before any
       VMEM there. The hardware documentation names the explicit SGPR operands
       (saddr, soffset, srsrc); this table follows it.
     * LLVM treats an MFMA as a VALU producer for the readlane (H7) and wide
       store (H4) rules. An MFMA writing a readlane source is covered by H12
       with larger numbers; an MFMA overwriting wide store data is an H4
       consumer here.
     H18  checkDivFMasHazards: DivFMasWaitStates = 4.
     H19, H20  checkDPPHazards: DppVgprWaitStates = 2, DppExecWaitStates = 5.
     H21  checkGetRegHazards / checkSetRegHazards: 2 on GFX9, same hwreg id.
     H22, H23  checkPermlaneHazards (gfx950): VALU write 2, v_cmpx 4.
     H24-H27  checkMAIVALUHazards: DotWriteSameDotReadSrcAB = 3,
          DotWriteDifferentVALURead = 3; 1 on gfx940+ for same-opcode srcC and
          MFMA reads (hasDstSelForwardingHazard reading op_sel_hi as dst_sel).
     H28-H34  checkMAIHazards90A / checkMAIVALUHazards, DMFMA* constants and
          the 16-pass gfx950 16x16x4 DGEMM.
     Every number of H18-H34 was reproduced with llc-22 on MIR as well.
     H36  hasDstSelForwardingHazard / hasCvtScaleForwardingHazard (gfx940+): a
          partial VGPR write (SDWA dst_sel, op_sel's destination half, the
          byte select of the fp8/fp4 conversions) before a VALU touching it: 1.
     H36  the same rule read for VOP3P (checkVALUHazards): 1 after a VOP3P
          instruction with an op_sel operand and op_sel_hi[0] set, for any
          VALU (MFMA included) with an operand on the result; reproduced with
          llc-22 on MIR (v_pk_add_f16, v_pk_fma_f32, v_fma_mix_f32 with and
          without op_sel_hi[0]; v_dot4_i32_i8 and the accvgpr moves have no
          op_sel and produce nothing).
   Not modelled: gfx90a's VALU write -> DGEMM -> VMEM read (2 in total, a
   three-instruction pattern). */
#include "hazard_rules.h"

#include <stdio.h>
#include <string.h>

#define N(k) { 0, (k), 0, 0 }     /* k */
#define NP(a) { 1, (a), 0, 0 }    /* P + a */
#define NPX(a) { 1, (a), 1, 0 }   /* P + a, + 1 if P != 2 */
#define NIF2(k) { 0, (k), 0, 1 }  /* k if P == 2, else 0 */
/* The same number for both producer columns, per target. */
#define T3(a, b, c) { { a, a }, { b, b }, { c, c } }

#define P_VALU WA_HZ_P_VALU
#define P_TRANS WA_HZ_P_TRANS
#define P_SALU WA_HZ_P_SALU
#define P_MFMA WA_HZ_P_MFMA
#define P_SRCC WA_HZ_P_SRCC
#define P_STORE WA_HZ_P_STORE
#define P_DOT WA_HZ_P_DOT
#define P_DGEMM4 WA_HZ_P_DGEMM4
#define P_DGEMM16 WA_HZ_P_DGEMM16
#define P_LOAD WA_HZ_P_LOAD
#define P_PARTIAL WA_HZ_P_PARTIAL
#define P_DSTSEL WA_HZ_P_DSTSEL
#define ANY WA_HZ_SRCC_ANY
#define SAME WA_HZ_SRCC_SAME
#define PART WA_HZ_SRCC_PART
#define ANYOP WA_HZ_OP_ANY
#define SAMEOP WA_HZ_OP_SAME
#define OTHEROP WA_HZ_OP_OTHER

/* The MFMA-result numbers shared by reads, WAW and srcA/B: gfx90a P+3
   (5/11/19); gfx942 XDL P+3, SMFMA P+2; gfx950 XDL P+3 (+1 if P != 2), SMFMA P+2. */
#define MFMA_RESULT { { NP(3), NP(3) }, { NP(3), NP(2) }, { NPX(3), NP(2) } }

const wa_hz_rule wa_hz_rules[] = {
    /* The VMEM unit reads its SGPR operands before a VALU's SGPR write lands. */
    { "H1", "VALU writes an SGPR, VMEM reads it", P_VALU, WA_HZ_U_SCALAR, WA_HZ_C_VMEM, 0,
      WA_HZ_A_READ, ANY, T3(N(5), N(5), N(5)), ANYOP },
    /* The lane select is read early, ahead of the VALU write-back. */
    { "H2", "VALU writes an SGPR, v_readlane/v_writelane use it as lane select", P_VALU,
      WA_HZ_U_SCALAR, WA_HZ_C_RLANE | WA_HZ_C_WLANE, 0, WA_HZ_A_LANESEL, ANY,
      T3(N(4), N(4), N(4)), ANYOP },
    /* LDS-DMA takes its LDS address from M0 without an interlock on SALU writes. */
    { "H3", "SALU writes M0, LDS-DMA, s_movrel, s_sendmsg/s_ttracedata or a DS addtid reads it",
      P_SALU, WA_HZ_U_M0, WA_HZ_C_LDSDMA | WA_HZ_C_MOVREL | WA_HZ_C_SENDMSG | WA_HZ_C_DSM0, 0,
      WA_HZ_A_READ | WA_HZ_A_IMPL, ANY, T3(N(1), N(1), N(1)), ANYOP },
    /* Store data wider than 64 bits is read over more than one cycle: a VALU
       must not overwrite it meanwhile. */
    { "H4", "VMEM store of more than 64 bits of data, VALU overwrites a data register",
      P_STORE, WA_HZ_U_VECTOR, WA_HZ_C_VALU | WA_HZ_C_MFMA, 0, WA_HZ_A_WRITE, ANY,
      T3(N(1), N(2), N(2)), ANYOP },
    /* gfx940+: no interlock for a VALU reading an SGPR that a VALU wrote. */
    { "H5", "VALU writes an SGPR, VALU reads it", P_VALU,
      WA_HZ_U_SGPR | WA_HZ_U_EXEC | WA_HZ_U_M0, WA_HZ_C_VALU | WA_HZ_C_MFMA, 0, WA_HZ_A_READ,
      ANY, T3(N(0), N(2), N(2)), ANYOP },
    { "H6", "VALU writes VCC, VALU reads it", P_VALU, WA_HZ_U_VCC,
      WA_HZ_C_VALU | WA_HZ_C_MFMA, 0, WA_HZ_A_READ | WA_HZ_A_IMPL, ANY,
      T3(N(0), N(2), N(2)), ANYOP },
    /* gfx940+: the lane-reading VALUs take src0 before VGPR forwarding. */
    { "H7", "VALU writes a VGPR, v_readlane/v_readfirstlane reads it", P_VALU, WA_HZ_U_VGPR,
      WA_HZ_C_RLANE, 0, WA_HZ_A_SRC0, ANY, T3(N(0), N(1), N(1)), ANYOP },
    { "H8", "VALU writes EXEC, v_readlane/v_readfirstlane/v_writelane", P_VALU, WA_HZ_U_EXEC,
      WA_HZ_C_RLANE | WA_HZ_C_WLANE, 0, WA_HZ_A_READ | WA_HZ_A_IMPL, ANY,
      T3(N(0), N(4), N(4)), ANYOP },
    /* gfx940+: TRANS results reach non-TRANS VALUs one cycle late. */
    { "H9", "TRANS writes a VGPR, a non-TRANS VALU reads it", P_TRANS, WA_HZ_U_VECTOR,
      WA_HZ_C_VALU | WA_HZ_C_MFMA, WA_HZ_C_TRANS, WA_HZ_A_READ, ANY, T3(N(0), N(1), N(1)), ANYOP },
    /* MFMA reads its sources from the register file, without VALU forwarding. */
    { "H10", "VALU writes a VGPR/AGPR, MFMA reads it", P_VALU, WA_HZ_U_VECTOR, WA_HZ_C_MFMA, 0,
      WA_HZ_A_READ, ANY, T3(N(2), N(2), N(2)), ANYOP },
    { "H11", "VALU writes EXEC, MFMA", P_VALU, WA_HZ_U_EXEC, WA_HZ_C_MFMA, 0,
      WA_HZ_A_READ | WA_HZ_A_IMPL, ANY, T3(N(4), N(4), N(4)), ANYOP },
    /* An MFMA writes D over its passes, with no interlock for later readers or
       writers. */
    { "H12", "MFMA writes D, VALU/VMEM/DS reads it", P_MFMA, WA_HZ_U_VECTOR,
      WA_HZ_C_VALU | WA_HZ_C_VMEM | WA_HZ_C_DS, 0, WA_HZ_A_READ, ANY, MFMA_RESULT, ANYOP },
    { "H13", "MFMA writes D, VALU or VMEM/DS load overwrites it", P_MFMA, WA_HZ_U_VECTOR,
      WA_HZ_C_VALU | WA_HZ_C_VMEM | WA_HZ_C_DS, 0, WA_HZ_A_WRITE, ANY, MFMA_RESULT, ANYOP },
    { "H14", "MFMA writes D, MFMA reads it as srcA/srcB", P_MFMA, WA_HZ_U_VECTOR, WA_HZ_C_MFMA,
      0, WA_HZ_A_SRCAB, ANY, MFMA_RESULT, ANYOP },
    /* Back-to-back accumulation into the same registers is forwarded, except
       after a 2-pass MFMA on gfx940+. */
    { "H15", "MFMA writes D, MFMA reads the same registers as srcC", P_MFMA, WA_HZ_U_VECTOR,
      WA_HZ_C_MFMA, 0, WA_HZ_A_SRCC, SAME,
      { { N(0), N(0) }, { NIF2(2), NIF2(2) }, { NIF2(2), NIF2(2) } }, ANYOP },
    { "H16", "MFMA writes D, XDL MFMA reads overlapping (not identical) srcC", P_MFMA,
      WA_HZ_U_VECTOR, WA_HZ_C_XDL, 0, WA_HZ_A_SRCC, PART,
      { { NP(0), NP(0) }, { NP(1), N(0) }, { NP(2), N(0) } }, ANYOP },
    { "H16", "MFMA writes D, SMFMA reads overlapping (not identical) srcC", P_MFMA,
      WA_HZ_U_VECTOR, WA_HZ_C_SMFMA, 0, WA_HZ_A_SRCC, PART,
      { { NP(0), NP(0) }, { NP(1), NP(0) }, { NPX(1), NP(0) } }, ANYOP },
    { "H16", "MFMA writes D, DGEMM reads overlapping (not identical) srcC", P_MFMA,
      WA_HZ_U_VECTOR, WA_HZ_C_DGEMM, 0, WA_HZ_A_SRCC, PART,
      { { NP(1), NP(1) }, { NP(1), NP(0) }, { NPX(1), NP(0) } }, ANYOP },
    /* An MFMA reads srcC late, over its passes (gfx940+: XDL only). */
    { "H17", "MFMA reads srcC, VALU or VMEM/DS load overwrites it", P_SRCC, WA_HZ_U_VECTOR,
      WA_HZ_C_VALU | WA_HZ_C_VMEM | WA_HZ_C_DS, 0, WA_HZ_A_WRITE, ANY,
      { { NP(-1), NP(-1) }, { NP(-1), N(0) }, { NP(-1), N(0) } }, ANYOP },
    /* v_div_fmas takes VCC without the VALU forwarding path. */
    { "H18", "VALU writes VCC, v_div_fmas reads it", P_VALU, WA_HZ_U_VCC, WA_HZ_C_DIVFMAS, 0,
      WA_HZ_A_READ | WA_HZ_A_IMPL, ANY, T3(N(4), N(4), N(4)), ANYOP },
    /* DPP reads its source lanes and EXEC ahead of the forwarding path. */
    { "H19", "VALU writes a VGPR, a DPP instruction reads it", P_VALU, WA_HZ_U_VGPR,
      WA_HZ_C_DPP, 0, WA_HZ_A_READ, ANY, T3(N(2), N(2), N(2)), ANYOP },
    { "H19", "VMEM/DS load writes a VGPR, a DPP instruction reads it", P_LOAD, WA_HZ_U_VGPR,
      WA_HZ_C_DPP, 0, WA_HZ_A_READ, ANY, T3(N(2), N(2), N(2)), ANYOP },
    { "H20", "VALU writes EXEC, a DPP instruction", P_VALU, WA_HZ_U_EXEC, WA_HZ_C_DPP, 0,
      WA_HZ_A_READ | WA_HZ_A_IMPL, ANY, T3(N(5), N(5), N(5)), ANYOP },
    /* Hardware registers: a read or a second write of the same id waits for the write. */
    { "H21", "s_setreg writes a hardware register, s_getreg/s_setreg of the same id", P_SALU,
      WA_HZ_U_PSEUDO, WA_HZ_C_HWREG, 0, WA_HZ_A_IMPL, ANY, T3(N(2), N(2), N(2)), ANYOP },
    /* A partial VGPR write merges with the old value late (hasDstSelForwardingHazard,
       hasCvtScaleForwardingHazard on gfx940+); the byte selects of WA_IF_OPSEL4 rows
       count on gfx942 too, which costs at most one s_nop. */
    { "H36", "VALU writes part of a VGPR (op_sel destination half, SDWA dst_sel, byte select), VALU reads or writes it",
      P_PARTIAL, WA_HZ_U_VGPR, WA_HZ_C_VALU, 0, WA_HZ_A_READ | WA_HZ_A_WRITE, ANY,
      T3(N(0), N(1), N(1)), ANYOP },
    /* gfx950 lane swaps read their operands early. */
    { "H22", "VALU writes a VGPR, v_permlane*_swap reads it", P_VALU, WA_HZ_U_VGPR,
      WA_HZ_C_PERMLANE, 0, WA_HZ_A_READ, ANY, T3(N(0), N(0), N(2)), ANYOP },
    { "H23", "VALU writes EXEC, v_permlane*_swap", P_VALU, WA_HZ_U_EXEC, WA_HZ_C_PERMLANE, 0,
      WA_HZ_A_READ | WA_HZ_A_IMPL, ANY, T3(N(0), N(0), N(4)), ANYOP },
    /* Dot products write late; only the same opcode accumulating into srcC is
       forwarded. The 1 on gfx942/gfx950 follows LLVM, which reads the default
       op_sel_hi of a VOP3P instruction as a high-half destination select. */
    { "H24", "v_dot writes a VGPR, the same v_dot reads it as srcA/srcB", P_DOT, WA_HZ_U_VGPR,
      WA_HZ_C_DOT, 0, WA_HZ_A_SRCAB, ANY, T3(N(3), N(3), N(3)), SAMEOP },
    { "H25", "v_dot writes a VGPR, the same v_dot reads it as srcC", P_DOT, WA_HZ_U_VGPR,
      WA_HZ_C_DOT, 0, WA_HZ_A_SRCC, ANY, T3(N(0), N(1), N(1)), SAMEOP },
    { "H26", "v_dot writes a VGPR, another VALU reads or overwrites it", P_DOT, WA_HZ_U_VGPR,
      WA_HZ_C_VALU, 0, WA_HZ_A_READ | WA_HZ_A_WRITE, ANY, T3(N(3), N(3), N(3)), OTHEROP },
    { "H27", "v_dot writes a VGPR, MFMA reads it", P_DOT, WA_HZ_U_VGPR, WA_HZ_C_MFMA, 0,
      WA_HZ_A_READ, ANY, T3(N(0), N(1), N(1)), ANYOP },
    /* DGEMM results (fixed numbers per shape and target; 16x16 has 16 passes on
       gfx950). A DGEMM reading srcC leaves no write-after-read hazard. */
    { "H28", "16x16 DGEMM writes D, VALU reads it", P_DGEMM16, WA_HZ_U_VECTOR, WA_HZ_C_VALU, 0,
      WA_HZ_A_READ, ANY, T3(N(11), N(11), N(19)), ANYOP },
    { "H28", "4x4 DGEMM writes D, VALU reads it", P_DGEMM4, WA_HZ_U_VECTOR, WA_HZ_C_VALU, 0,
      WA_HZ_A_READ, ANY, T3(N(6), N(6), N(6)), ANYOP },
    { "H29", "16x16 DGEMM writes D, VMEM/DS reads it", P_DGEMM16, WA_HZ_U_VECTOR,
      WA_HZ_C_VMEM | WA_HZ_C_DS, 0, WA_HZ_A_READ, ANY, T3(N(18), N(18), N(18)), ANYOP },
    { "H29", "4x4 DGEMM writes D, VMEM/DS reads it", P_DGEMM4, WA_HZ_U_VECTOR,
      WA_HZ_C_VMEM | WA_HZ_C_DS, 0, WA_HZ_A_READ, ANY, T3(N(9), N(9), N(9)), ANYOP },
    { "H30", "16x16 DGEMM writes D, VALU or VMEM/DS load overwrites it", P_DGEMM16,
      WA_HZ_U_VECTOR, WA_HZ_C_VALU | WA_HZ_C_VMEM | WA_HZ_C_DS, 0, WA_HZ_A_WRITE, ANY,
      T3(N(11), N(11), N(11)), ANYOP },
    { "H30", "4x4 DGEMM writes D, VALU or VMEM/DS load overwrites it", P_DGEMM4,
      WA_HZ_U_VECTOR, WA_HZ_C_VALU | WA_HZ_C_VMEM | WA_HZ_C_DS, 0, WA_HZ_A_WRITE, ANY,
      T3(N(6), N(6), N(6)), ANYOP },
    { "H31", "16x16 DGEMM writes D, MFMA reads it as srcA/srcB", P_DGEMM16, WA_HZ_U_VECTOR,
      WA_HZ_C_MFMA, 0, WA_HZ_A_SRCAB, ANY, T3(N(11), N(11), N(19)), ANYOP },
    { "H31", "4x4 DGEMM writes D, MFMA reads it as srcA/srcB", P_DGEMM4, WA_HZ_U_VECTOR,
      WA_HZ_C_MFMA, 0, WA_HZ_A_SRCAB, ANY, T3(N(6), N(6), N(6)), ANYOP },
    { "H32", "16x16 DGEMM writes D, DGEMM reads overlapping (not identical) srcC", P_DGEMM16,
      WA_HZ_U_VECTOR, WA_HZ_C_DGEMM, 0, WA_HZ_A_SRCC, PART, T3(N(9), N(9), N(17)), ANYOP },
    { "H32", "4x4 DGEMM writes D, DGEMM reads overlapping (not identical) srcC", P_DGEMM4,
      WA_HZ_U_VECTOR, WA_HZ_C_DGEMM, 0, WA_HZ_A_SRCC, PART, T3(N(4), N(4), N(4)), ANYOP },
    { "H32", "16x16 DGEMM writes D, SMFMA reads overlapping srcC", P_DGEMM16, WA_HZ_U_VECTOR,
      WA_HZ_C_SMFMA, 0, WA_HZ_A_SRCC, PART, T3(N(0), N(9), N(17)), ANYOP },
    { "H32", "4x4 DGEMM writes D, SMFMA reads overlapping srcC", P_DGEMM4, WA_HZ_U_VECTOR,
      WA_HZ_C_SMFMA, 0, WA_HZ_A_SRCC, PART, T3(N(0), N(4), N(4)), ANYOP },
    { "H33", "4x4 DGEMM writes D, DGEMM reads the same registers as srcC", P_DGEMM4,
      WA_HZ_U_VECTOR, WA_HZ_C_DGEMM, 0, WA_HZ_A_SRCC, SAME, T3(N(4), N(4), N(4)), ANYOP },
    /* The FP64 FMA shares the DGEMM datapath, whatever the registers. */
    { "H34", "16x16 DGEMM, v_fma_f64", P_DGEMM16, WA_HZ_U_PSEUDO, WA_HZ_C_FMA64, 0,
      WA_HZ_A_IMPL, ANY, T3(N(2), N(2), N(2)), ANYOP },
    { "H34", "4x4 DGEMM, v_fma_f64", P_DGEMM4, WA_HZ_U_PSEUDO, WA_HZ_C_FMA64, 0,
      WA_HZ_A_IMPL, ANY, T3(N(2), N(2), N(2)), ANYOP },
    /* gfx942/gfx950 forward a partial destination late; LLVM takes bit 3 of
       src0_modifiers for the destination select, which on a VOP3P instruction
       with op_sel is op_sel_hi[0] (default 1 on the packed rows, 0 on v_fma_mix). */
    { "H36", "VOP3P with op_sel_hi[0] set writes a VGPR, a VALU reads or overwrites it",
      P_DSTSEL, WA_HZ_U_VGPR, WA_HZ_C_VALU | WA_HZ_C_MFMA, 0, WA_HZ_A_READ | WA_HZ_A_WRITE, ANY,
      T3(N(0), N(1), N(1)), ANYOP },
};
const unsigned wa_hz_nrules = sizeof(wa_hz_rules) / sizeof(wa_hz_rules[0]);

int wa_hz_target_index(wa_target t)
{
    return t == WA_TARGET_GFX90A ? 0 : t == WA_TARGET_GFX950 ? 2 : 1;
}

int wa_hz_required(const wa_hz_rule *r, wa_target t, unsigned passes, int smfma)
{
    wa_hz_num n = r->n[wa_hz_target_index(t)][smfma ? 1 : 0];
    if (n.only2)
        return passes == 2 ? n.add : 0;
    return n.p * (int)passes + n.add + (n.ne2 && passes != 2 ? 1 : 0);
}

void wa_hz_formula(char *buf, size_t len, const wa_hz_rule *r, wa_target t, unsigned passes,
                   int smfma)
{
    wa_hz_num n = r->n[wa_hz_target_index(t)][smfma ? 1 : 0];
    buf[0] = '\0';
    if (!n.p && !n.only2)
        return;
    const char *kind = smfma ? "SMFMA" : "XDL";
    if (n.only2)
        snprintf(buf, len, "; %u-pass %s MFMA: %d if P = 2, else 0", passes, kind, n.add);
    else if (n.add)
        snprintf(buf, len, "; %u-pass %s MFMA: P%+d%s", passes, kind, n.add,
                 n.ne2 && passes != 2 ? " +1 (P != 2)" : "");
    else
        snprintf(buf, len, "; %u-pass %s MFMA: P%s", passes, kind,
                 n.ne2 && passes != 2 ? " +1 (P != 2)" : "");
}

unsigned wa_hz_consumer_class(const wa_isa_info *info)
{
    switch (info->hazard) {
    case WA_HZ_VALU: return WA_HZ_C_VALU;
    case WA_HZ_TRANS: return WA_HZ_C_VALU | WA_HZ_C_TRANS;
    case WA_HZ_READLANE: return WA_HZ_C_VALU | WA_HZ_C_RLANE;
    case WA_HZ_WRITELANE: return WA_HZ_C_VALU | WA_HZ_C_WLANE;
    case WA_HZ_VMEM: return WA_HZ_C_VMEM;
    case WA_HZ_LDS_DMA: return WA_HZ_C_VMEM | WA_HZ_C_LDSDMA;
    case WA_HZ_DS: return WA_HZ_C_DS;
    case WA_HZ_MFMA_XDL: return WA_HZ_C_XDL;
    case WA_HZ_MFMA_SMFMA: return WA_HZ_C_SMFMA;
    case WA_HZ_MFMA_DGEMM: return WA_HZ_C_DGEMM;
    case WA_HZ_DIV_FMAS: return WA_HZ_C_VALU | WA_HZ_C_DIVFMAS;
    case WA_HZ_DOT: return WA_HZ_C_VALU | WA_HZ_C_DOT;
    case WA_HZ_FMA64: return WA_HZ_C_VALU | WA_HZ_C_FMA64;
    case WA_HZ_PERMLANE_SWAP: return WA_HZ_C_VALU | WA_HZ_C_PERMLANE;
    case WA_HZ_GETREG:
    case WA_HZ_SETREG: return WA_HZ_C_HWREG;
    case WA_HZ_MOVREL: return WA_HZ_C_MOVREL;
    case WA_HZ_SENDMSG: return WA_HZ_C_SENDMSG;
    case WA_HZ_DS_M0: return WA_HZ_C_DS | WA_HZ_C_DSM0;
    /* Other SALU, SMEM and control instructions consume nothing under these
       rules (SALU/SMEM reads of VALU-written SGPRs are interlocked on GFX9). */
    default: return 0;
    }
}

/* ---- H35: SMEM soft clauses ------------------------------------------------------------ */

/* Whether two register or special operands share a 32-bit register. Virtual and
   physical registers never do (the program has one or the other where it
   matters); specials by their halves. */
static int special_half_mask(unsigned id)
{
    switch (id) {
    case WA_SPECIAL_VCC: return 0x3;
    case WA_SPECIAL_VCC_LO: return 0x1;
    case WA_SPECIAL_VCC_HI: return 0x2;
    case WA_SPECIAL_EXEC: return 0xC;
    case WA_SPECIAL_EXEC_LO: return 0x4;
    case WA_SPECIAL_EXEC_HI: return 0x8;
    case WA_SPECIAL_M0: return 0x10;
    default: return 0;
    }
}

static int opnd_overlap(const wa_operand *a, const wa_operand *b)
{
    if (a->kind == WA_OPND_SPECIAL || b->kind == WA_OPND_SPECIAL)
        return a->kind == b->kind && (special_half_mask(a->id) & special_half_mask(b->id));
    if (a->kind != b->kind || a->reg_class != b->reg_class)
        return 0;
    if (a->kind == WA_OPND_VIRT)
        return a->id == b->id && a->first < b->first + b->count && b->first < a->first + a->count;
    if (a->kind == WA_OPND_PHYS)
        return a->id < b->id + b->count && b->id < a->id + a->count;
    return 0;
}

static int is_regish(const wa_operand *o)
{
    return o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS || o->kind == WA_OPND_SPECIAL;
}

/* Does any register `wa_` writes overlap any register `rb` reads? */
static int writes_read_by(const wa_instr *wa_, const wa_instr *rb)
{
    const wa_isa_info *ia = wa_isa(wa_->op), *ib = wa_isa(rb->op);
    for (unsigned i = 0; i < wa_->nops && i < ia->num_operands; i++) {
        if (!(wa_instr_role(wa_, ia, i) & WA_ROLE_DEF) || !is_regish(&wa_->ops[i]))
            continue;
        for (unsigned j = 0; j < rb->nops && j < ib->num_operands; j++)
            if ((wa_instr_role(rb, ib, j) & WA_ROLE_USE) && opnd_overlap(&wa_->ops[i], &rb->ops[j]))
                return 1;
    }
    return 0;
}

static int writes_any(const wa_instr *in)
{
    const wa_isa_info *info = wa_isa(in->op);
    for (unsigned i = 0; i < in->nops && i < info->num_operands; i++)
        if ((wa_instr_role(in, info, i) & WA_ROLE_DEF) && is_regish(&in->ops[i]))
            return 1;
    return 0;
}

unsigned wa_hz_clause_kind(const wa_isa_info *info)
{
    switch (info->format) {
    case WA_FMT_SMEM: return WA_HZ_CLAUSE_SMEM;
    case WA_FMT_MUBUF:
    case WA_FMT_FLAT:
    case WA_FMT_GLOBAL:
    case WA_FMT_SCRATCH: return WA_HZ_CLAUSE_VMEM;
    default: return 0;
    }
}

int wa_hz_soft_clauses(const wa_program *prog)
{
    return wa_context_xnack(prog->ctx) != WA_FEATURE_OFF;
}

const char *wa_hz_clause_name(unsigned kind)
{
    return kind == WA_HZ_CLAUSE_VMEM ? "VMEM" : "SMEM";
}

const char *wa_hz_clause_rule(unsigned kind)
{
    (void)kind; /* one rule for both kinds, as LLVM's checkSoftClauseHazards */
    return "H35";
}

const char *wa_hz_clause_what(unsigned kind)
{
    return kind == WA_HZ_CLAUSE_VMEM
               ? "VMEM soft clause: a MUBUF/FLAT/GLOBAL/SCRATCH instruction after such "
                 "instructions that write a register the clause reads (or a store after them)"
               : "SMEM soft clause: an SMEM instruction after SMEM instructions that write a "
                 "register the clause reads (or a store after them)";
}

int wa_hz_clause_conflict(const wa_program *prog, const unsigned *clause, unsigned n,
                          unsigned item)
{
    int defs = 0;
    for (unsigned k = 0; k < n; k++)
        defs |= writes_any(&prog->instrs[clause[k]]);
    if (!defs)
        return 0;
    const wa_instr *x = &prog->instrs[item];
    if (wa_isa(x->op)->flags & (WA_IF_STORE | WA_IF_ATOMIC))
        return 1;
    /* every writer of the clause with x against every reader of the clause with x */
    for (unsigned k = 0; k <= n; k++) {
        const wa_instr *w = k < n ? &prog->instrs[clause[k]] : x;
        for (unsigned j = 0; j <= n; j++)
            if (writes_read_by(w, j < n ? &prog->instrs[clause[j]] : x))
                return 1;
    }
    return 0;
}

unsigned wa_hz_clause_before(const wa_program *prog, unsigned item, unsigned *out, unsigned cap)
{
    unsigned n = 0;
    unsigned kind = wa_hz_clause_kind(wa_isa(prog->instrs[item].op));
    if (!kind)
        return 0;
    for (unsigned j = item; j-- > 0 && n < cap;) {
        const wa_isa_info *info = wa_isa(prog->instrs[j].op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        if (wa_hz_clause_kind(info) != kind)
            break;
        out[n++] = j;
    }
    for (unsigned k = 0; k < n / 2; k++) { /* oldest first */
        unsigned t = out[k];
        out[k] = out[n - 1 - k];
        out[n - 1 - k] = t;
    }
    return n;
}

unsigned wa_hz_instr_class(const wa_instr *in, const wa_isa_info *info)
{
    unsigned cls = wa_hz_consumer_class(info);
    if (in->mods.flags & WA_MOD_DPP)
        cls |= WA_HZ_C_DPP;
    return cls;
}

unsigned wa_hz_wait_states(const wa_instr *in, const wa_isa_info *info)
{
    if (info->flags & WA_IF_PSEUDO)
        return 0;
    if ((info->flags & WA_IF_NOP) && in->nops > 0) {
        int64_t n = in->ops[0].imm.i;
        return n < 0 ? 1u : n > 15 ? 16u : (unsigned)n + 1u;
    }
    return 1;
}

int wa_hz_rule_max(const wa_hz_rule *r, wa_target t, uint32_t passes)
{
    int best = 0;
    for (unsigned p = 0; p < 32; p++)
        for (int smfma = 0; smfma <= 1 && (passes >> p & 1u); smfma++) {
            int k = wa_hz_required(r, t, p, smfma);
            if (k > best)
                best = k;
        }
    return best;
}

unsigned wa_hz_passes(const wa_isa_info *info, wa_target t)
{
    switch (t) {
    case WA_TARGET_GFX90A: return info->mfma_passes_gfx90a;
    case WA_TARGET_GFX950: return info->mfma_passes_gfx950;
    default: return info->mfma_passes_gfx94x;
    }
}

int wa_hz_op_match(const wa_hz_rule *r, unsigned prod_op, unsigned cons_op)
{
    switch (r->same_op) {
    case WA_HZ_OP_SAME: return prod_op == cons_op;
    case WA_HZ_OP_OTHER: return prod_op != cons_op;
    default: return 1;
    }
}

int wa_hz_pseudo_index(unsigned special)
{
    if (special == WA_HZ_X_DGEMM)
        return 0;
    if (special >= WA_HZ_X_HWREG && special < WA_HZ_X_HWREG + 64u)
        return 1 + (int)(special - WA_HZ_X_HWREG);
    return -1;
}

int wa_hz_is_smfma(const wa_isa_info *info)
{
    return info->hazard == WA_HZ_MFMA_SMFMA;
}

unsigned wa_hz_operand_unit_class(const wa_operand *o)
{
    if (o->kind == WA_OPND_SPECIAL) {
        switch (o->id) {
        case WA_SPECIAL_VCC:
        case WA_SPECIAL_VCC_LO:
        case WA_SPECIAL_VCC_HI: return WA_HZ_U_VCC;
        case WA_SPECIAL_EXEC:
        case WA_SPECIAL_EXEC_LO:
        case WA_SPECIAL_EXEC_HI: return WA_HZ_U_EXEC;
        case WA_SPECIAL_M0: return WA_HZ_U_M0;
        default: return 0; /* scc takes part in no rule */
        }
    }
    if (o->kind != WA_OPND_VIRT && o->kind != WA_OPND_PHYS)
        return 0;
    switch (o->reg_class) {
    case WA_REG_VGPR: return WA_HZ_U_VGPR;
    case WA_REG_AGPR: return WA_HZ_U_AGPR;
    case WA_REG_SGPR: return WA_HZ_U_SGPR;
    default: return 0;
    }
}

static int is_named(const wa_isa_info *info, unsigned k, const char *name)
{
    return k < info->num_operands && info->operands[k].name &&
           strcmp(info->operands[k].name, name) == 0;
}

/* H36's producer: a VOP3P row with op_sel whose op_sel_hi[0] (the hardware bit) is
   set: stored inverted on the packed rows, as written on v_fma_mix. */
static int dst_sel_forwarding(const wa_instr *in, const wa_isa_info *info)
{
    if (info->format != WA_FMT_VOP3P || !(info->mods_ok & WA_MODOK_OPSEL))
        return 0;
    return wa_vop3p_packed(info) ? !(in->mods.op_sel_hi & 1u) : (in->mods.op_sel_hi & 1u);
}

/* A buffer or global store of more than 64 bits of data (buffer stores only
   when soffset is not a register): its data is read over several cycles. */
static int wide_store(const wa_instr *in, const wa_isa_info *info)
{
    if (!(info->flags & WA_IF_STORE) || info->hazard != WA_HZ_VMEM)
        return 0;
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
        if (info->format == WA_FMT_MUBUF && is_named(info, k, "soffset") &&
            in->ops[k].kind != WA_OPND_IMM && in->ops[k].kind != WA_OPND_FIMM)
            return 0;
    return 1;
}

static void add_implicit(wa_hz_ref *out, unsigned *n, unsigned special, unsigned how,
                         unsigned produces)
{
    if (*n >= WA_HZ_MAX_REFS)
        return;
    wa_hz_ref *r = &out[(*n)++];
    r->opnd = WA_HZ_IMPLICIT;
    r->special = (unsigned char)special;
    r->how = (unsigned char)how;
    r->produces = (uint16_t)produces;
}

/* Does the instruction write only part of vdst (merging with the old value)? */
static int partial_write(const wa_instr *in, const wa_isa_info *info)
{
    const wa_mods *m = &in->mods;
    if ((m->flags & WA_MOD_SDWA) && m->dst_sel != WA_SDWA_DWORD)
        return 1;
    if ((m->op_sel & 8u) && wa_opsel_has_dst(info))
        return 1;
    return (info->flags & WA_IF_OPSEL4) && (m->op_sel & 0xCu);
}

unsigned wa_hz_refs(wa_hz_ref *out, const wa_instr *in, const wa_isa_info *info)
{
    unsigned cls = wa_hz_consumer_class(info);
    unsigned hc = info->hazard;
    int mfma = (info->flags & WA_IF_MFMA) != 0;
    int dgemm = hc == WA_HZ_MFMA_DGEMM;
    int dot = hc == WA_HZ_DOT;
    int valu = !mfma && !dot && (cls & WA_HZ_C_VALU);
    int trans = valu && (info->flags & WA_IF_TRANS);
    int salu = info->latency == WA_LAT_SALU || hc == WA_HZ_SALU;
    int load = (hc == WA_HZ_VMEM || hc == WA_HZ_LDS_DMA || hc == WA_HZ_DS) &&
               !(info->flags & WA_IF_STORE);
    int wide = wide_store(in, info);
    /* the DGEMM shape: 4x4x4 takes 4 passes everywhere, 16x16x4 8 or 16 */
    unsigned dgemm_kind = info->mfma_passes_gfx90a <= 4 ? WA_HZ_P_DGEMM4 : WA_HZ_P_DGEMM16;
    unsigned def_kinds = (valu ? 1u << WA_HZ_P_VALU : 0) | (trans ? 1u << WA_HZ_P_TRANS : 0) |
                         (salu ? 1u << WA_HZ_P_SALU : 0) | (dot ? 1u << WA_HZ_P_DOT : 0) |
                         (load ? 1u << WA_HZ_P_LOAD : 0) |
                         (mfma && !dgemm ? 1u << WA_HZ_P_MFMA : 0) |
                         (dgemm ? 1u << dgemm_kind : 0) |
                         (dst_sel_forwarding(in, info) ? 1u << WA_HZ_P_DSTSEL : 0);
    unsigned n = 0;
    for (unsigned k = 0; k < in->nops && k < info->num_operands && n < WA_HZ_MAX_REFS; k++) {
        const wa_operand *o = &in->ops[k];
        if (!wa_hz_operand_unit_class(o))
            continue;
        unsigned role = wa_instr_role(in, info, k);
        unsigned how = 0, produces = 0;
        /* SMFMAC accumulates into vdst (read and written): it is the srcC read */
        int srcc = is_named(info, k, "srcC") || (mfma && info->operands[k].role == WA_ROLE_DEFUSE);
        if (role & WA_ROLE_USE) {
            how |= WA_HZ_A_READ;
            if (cls & WA_HZ_C_MFMA)
                how |= srcc ? WA_HZ_A_SRCC : WA_HZ_A_SRCAB;
            if (cls & WA_HZ_C_DOT)
                how |= is_named(info, k, "src2") ? WA_HZ_A_SRCC : WA_HZ_A_SRCAB;
            if ((cls & (WA_HZ_C_RLANE | WA_HZ_C_WLANE)) && is_named(info, k, "ssrc1"))
                how |= WA_HZ_A_LANESEL;
            if ((cls & WA_HZ_C_RLANE) && is_named(info, k, "src0"))
                how |= WA_HZ_A_SRC0;
            if (mfma && !dgemm && srcc)
                produces |= 1u << WA_HZ_P_SRCC;
            if (wide && is_named(info, k, "vdata") && o->count > 2)
                produces |= 1u << WA_HZ_P_STORE;
        }
        if (role & WA_ROLE_DEF) {
            how |= WA_HZ_A_WRITE;
            produces |= def_kinds;
            if (valu && k == 0 && partial_write(in, info))
                produces |= 1u << WA_HZ_P_PARTIAL;
        }
        if (!how && !produces)
            continue;
        wa_hz_ref *r = &out[n++];
        r->opnd = (unsigned char)k;
        r->special = 0;
        r->how = (unsigned char)how;
        r->produces = (uint16_t)produces;
    }
    /* implicit registers: uses are consumer reads, defs are writes (VALU and SALU
       producers; SCC takes part in no rule) */
    static const unsigned impl[3][2] = { { WA_IMPL_VCC, WA_SPECIAL_VCC },
                                         { WA_IMPL_EXEC, WA_SPECIAL_EXEC },
                                         { WA_IMPL_M0, WA_SPECIAL_M0 } };
    unsigned impl_def_kinds = (valu ? 1u << WA_HZ_P_VALU : 0) | (salu ? 1u << WA_HZ_P_SALU : 0);
    for (unsigned j = 0; j < 3; j++) {
        if (info->implicit_uses & impl[j][0])
            add_implicit(out, &n, impl[j][1], WA_HZ_A_IMPL, 0);
        if (info->implicit_defs & impl[j][0])
            add_implicit(out, &n, impl[j][1], WA_HZ_A_WRITE, impl_def_kinds);
    }
    /* pseudo registers: the hardware register an s_setreg writes and an
       s_getreg/s_setreg reads; the DGEMM marker */
    if (hc == WA_HZ_SETREG || hc == WA_HZ_GETREG)
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
            if (info->operands[k].classes & WA_OC_HWREG)
                add_implicit(out, &n, WA_HZ_X_HWREG + WA_HWREG_ID(in->ops[k].imm.i), WA_HZ_A_IMPL,
                             hc == WA_HZ_SETREG ? 1u << WA_HZ_P_SALU : 0);
    if (dgemm)
        add_implicit(out, &n, WA_HZ_X_DGEMM, 0, 1u << dgemm_kind);
    if (hc == WA_HZ_FMA64)
        add_implicit(out, &n, WA_HZ_X_DGEMM, WA_HZ_A_IMPL, 0);
    return n;
}
