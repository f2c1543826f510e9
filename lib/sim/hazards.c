/* lib/sim/hazards.c — the hazard mode: too few wait states between a producer and
   a consumer, judged on the path the wave actually executes.

   Model. Every wave keeps a counter of the wait states it has issued: each
   executed instruction adds c->wait_states (1, or N+1 for s_nop N, the count the
   rules use: ISA.md section 0). After an instruction runs, sim_hz_record() notes
   it, per 32-bit register unit it touches, as the latest producer of its kind
   (P_*: VALU write, TRANS write, SALU write, MFMA write of D, MFMA read of srcC,
   wide VMEM store data) together with the counter after it. Before an
   instruction runs, sim_hz_check() looks up, for every unit it reads or writes,
   the latest producer that a rule pairs with this consumer; the wait states in
   between are the counter now minus the counter after the producer. Because the
   counter follows the executed trace, loops, branches and back edges need no
   CFG walk: the distance is the one of the path taken. (LLVM takes the
   minimum over all paths statically; here a short path that no run takes is
   not judged.) Every instruction counts c->wait_states, s_waitcnt and
   s_barrier included, however long they stall. Each wave has its own counter
   and tables, so waves never see each other's producers; a new workgroup
   starts far from the previous one's producers. Like LLVM, only the nearest
   producer of the kind a rule names matters, and a later write of another
   kind (say a SALU write after a VALU write of the same SGPR) does not cancel
   it.

   Register units: SGPRs, VGPRs and AGPRs (physical first, then the components
   of virtual registers, as sim_reg_of() numbers them) and vcc_lo, vcc_hi,
   exec_lo, exec_hi, m0. A 64-bit or tuple operand touches each of its units, so
   overlap is per 32-bit register.

   The rules are the table `rules` below: one row per rule of ISA.md section 4
   (../shared/reference/ISA.md) that the opcodes of isa.def can trigger on
   gfx90a, gfx942 and gfx950, with the per-target numbers. Where a number
   depends on the producing MFMA it is a formula of its pass count P (the ISA
   table's mfma_passes_gfx90a / mfma_passes_gfx94x) and of XDL vs SMFMA (the
   hazard class); on gfx90a both columns are the same (every non-DGEMM MFMA
   follows the gfx90a numbers).

   Cross-check against LLVM, twice: by reading GCNHazardRecognizer.cpp and
   GCNSubtarget.h (ROCm/llvm-project, the gfx950-aware version), and by running
   LLVM 22.1.8's recognizer (llc-22 -run-pass=post-RA-hazard-rec on MIR) for
   every producer/consumer pair the unit tests use on all three targets: every
   number below came out the same, except where noted. Confirmed, with the
   same values as ISA.md:
     4.1 row 1   checkVMEMHazards: VmemSgprWaitStates = 5 (VI and later).
     4.1 row 3   checkRWLaneHazards: RWLaneWaitStates = 4, lane select = src1.
     4.1 row 8   checkReadM0Hazards: 1 after a SALU write of M0; LDS-DMA gated by
                 hasReadM0LdsDmaHazard (GFX9 generation).
     4.1 row 9   checkVALUHazardsHelper: 1, or 2 with gfx940 instructions;
                 createsVALUHazard: data wider than 64 bits, MUBUF only when
                 soffset is not a register, FLAT/global always.
     4.1 rows 10-13  checkVALUHazards under hasVDecCoExecHazard (gfx940+):
                 VALUWriteSGPRVALUReadWaitstates = 2 (explicit SGPR reads and any
                 read of VCC), VALUWriteVGPRReadlaneRead = 1,
                 VALUWriteEXECRWLane = 4.
     4.1 row 14  hasTransForwardingHazard (gfx940+): TransDefWaitstates = 1,
                 consumer any non-TRANS VALU.
     4.2 (a)     checkMAIHazards90A: VALU (not MFMA) writes EXEC -> MFMA 4;
                 VALU (not MFMA, not dot) writes a source -> MFMA 2.
     4.2 (b)     gfx90a: 5 / 11 / 19 for 2 / 8 / 16 passes (VALU, VMEM, DS read;
                 WAW; srcA/B), srcC overlapped 2 / 8 / 16, identical srcC 0.
                 gfx940+: XDL P+3 (+1 on gfx950 when P != 2), SMFMA P+2; srcC
                 identical 2 when P = 2 (GFX940_SMFMA4x4WritesVGPRFullSrcC);
                 srcC overlapped: XDL -> XDL P+1 (+1 on gfx950), XDL -> SMFMA
                 P+1 (+1 on gfx950 when P != 2), SMFMA -> SMFMA P, SMFMA -> XDL
                 0 (checkMAIHazards90A, checkMAIVALUHazards and the
                 GFX940_*_N_Pass* helpers).
     4.2 (c)     checkMAIVALUHazards: srcC read -> write 1 / 3 / 7 / 15 for
                 2 / 4 / 8 / 16 passes (P - 1); on gfx940+ XDL producers only.
   Differences between ISA.md and LLVM, and what this file does:
     * LLVM looks back at most 19 wait states for MFMA results (MaxWaitStates),
       so a gfx950 16-pass XDL producer (formula 20) is under-covered there;
       this file uses the formula. (No opcode of isa.def has 16 passes on
       gfx950, so the case cannot arise today.)
     * LLVM's row 1 scans all uses of a VMEM instruction, implicit ones
       included, so a VALU write of EXEC (v_cmp to exec) needs 5 wait states
       before any VMEM there (llc-22 inserts them). ISA.md row 1 lists the
       explicit SGPR operands (saddr, soffset, srsrc); this file follows
       ISA.md and does not flag that pair.
     * LLVM's row 12 and row 9 treat an MFMA as a VALU producer/consumer. An
       MFMA writing a readlane source is covered here by 4.2(b) with larger
       numbers; an MFMA overwriting wide store data is checked (row 9 consumer).
   Rules of section 4 that no opcode of isa.def can trigger, hence absent:
   row 2 (v_div_fmas), 4/5 (DPP), 6/7 (s_setreg/s_getreg/s_rfe), 15 (SDWA,
   op_sel destination, gfx950 scaled conversions), 16/17 (v_permlane*_swap),
   20-22 (v_dot), 23/24 and 4.2(d) (DGEMM: no F64 MFMA in the table), 18/19 (XNACK
   soft clauses: the simulator models no XNACK replay). */
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

/* Gap added to the counter at every reset (a new workgroup): larger than any
   rule's number, so the previous workgroup's producers are out of reach. */
#define HZ_GAP 1024u

/* ---- register units and classes ---------------------------------------------------------- */

/* Special registers after the three files (SCC takes part in no rule). */
enum { X_VCC_LO = 0, X_VCC_HI, X_EXEC_LO, X_EXEC_HI, X_M0, X_COUNT };

/* Unit classes (which registers a rule watches). */
#define U_SGPR 0x01u
#define U_VCC 0x02u
#define U_EXEC 0x04u
#define U_M0 0x08u
#define U_VGPR 0x10u
#define U_AGPR 0x20u
#define U_SCALAR (U_SGPR | U_VCC | U_EXEC | U_M0)
#define U_VECTOR (U_VGPR | U_AGPR)

/* Producer kinds: one record per unit and kind. */
enum {
    P_VALU = 0, /* a VALU other than an MFMA wrote the unit */
    P_TRANS,    /* a transcendental VALU wrote it */
    P_SALU,     /* a SALU wrote it */
    P_MFMA,     /* an MFMA wrote it (D) */
    P_SRCC,     /* an MFMA read it as srcC */
    P_STORE,    /* a VMEM store of more than 64 bits read it as data */
    P_COUNT
};

/* Consumer classes (from the ISA table's hazard class). */
#define C_VALU 0x001u   /* VALU other than an MFMA: v_accvgpr_*, lane ops, TRANS included */
#define C_TRANS 0x002u
#define C_RLANE 0x004u  /* v_readlane, v_readfirstlane */
#define C_WLANE 0x008u  /* v_writelane */
#define C_XDL 0x010u    /* MFMA, XDL (f16/bf16/i8/fp8 inputs) */
#define C_SMFMA 0x020u  /* MFMA with f32 inputs */
#define C_VMEM 0x040u   /* buffer and global instructions, LDS-DMA included */
#define C_LDSDMA 0x080u
#define C_DS 0x100u
#define C_MFMA (C_XDL | C_SMFMA)

/* How the consumer touches a unit. */
#define A_READ 0x01u    /* explicit source operand */
#define A_IMPL 0x02u    /* implicit use (exec, vcc, m0) */
#define A_WRITE 0x04u   /* destination, explicit or implicit */
#define A_LANESEL 0x08u /* lane select (ssrc1) of v_readlane / v_writelane */
#define A_SRC0 0x10u    /* src0 of v_readlane / v_readfirstlane */
#define A_SRCAB 0x20u   /* MFMA srcA, srcB (and the scale operands) */
#define A_SRCC 0x40u    /* MFMA srcC */

/* ---- the rules --------------------------------------------------------------------------- */

/* Wait states as a function of the producing MFMA's pass count P:
   p * P + add, plus 1 when `ne2` is set and P != 2; with `only2` set: `add` when
   P == 2, else 0. Fixed numbers have p = 0. */
typedef struct hz_num {
    signed char p, add, ne2, only2;
} hz_num;
#define N(k) { 0, (k), 0, 0 }     /* k */
#define NP(a) { 1, (a), 0, 0 }    /* P + a */
#define NPX(a) { 1, (a), 1, 0 }   /* P + a, + 1 if P != 2 */
#define NIF2(k) { 0, (k), 0, 1 }  /* k if P == 2, else 0 */
/* The same number for both producer columns, per target. */
#define T3(a, b, c) { { a, a }, { b, b }, { c, c } }

/* srcC of an MFMA consumer compared with the producer's D. */
enum { SRCC_ANY = 0, SRCC_SAME, SRCC_PART };

typedef struct hz_rule {
    const char *ref;          /* ISA.md section and row */
    const char *what;         /* producer, consumer */
    unsigned char prod;       /* P_*: the record the rule looks up */
    unsigned char units;      /* U_*: the registers it watches */
    unsigned short cons;      /* C_*: the consumers it applies to */
    unsigned short not_cons;  /* C_*: consumers excluded */
    unsigned char how;        /* A_*: the consumer accesses it looks at */
    unsigned char srcc;       /* SRCC_* */
    /* [gfx90a, gfx942, gfx950][producer: not an SMFMA, SMFMA] */
    hz_num n[3][2];
} hz_rule;

/* The MFMA-result numbers shared by reads, WAW and srcA/B (ISA.md 4.2(b)):
   gfx90a P+3 (5/11/19); gfx942 XDL P+3, SMFMA P+2; gfx950 XDL P+3 (+1 if P != 2),
   SMFMA P+2. */
#define MFMA_RESULT { { NP(3), NP(3) }, { NP(3), NP(2) }, { NPX(3), NP(2) } }

static const hz_rule rules[] = {
    /* The VMEM unit reads its SGPR operands before a VALU's SGPR write lands. */
    { "4.1 row 1", "VALU writes an SGPR, VMEM reads it", P_VALU, U_SCALAR, C_VMEM, 0, A_READ,
      SRCC_ANY, T3(N(5), N(5), N(5)) },
    /* The lane select is read early, ahead of the VALU write-back. */
    { "4.1 row 3", "VALU writes an SGPR, v_readlane/v_writelane use it as lane select", P_VALU,
      U_SCALAR, C_RLANE | C_WLANE, 0, A_LANESEL, SRCC_ANY, T3(N(4), N(4), N(4)) },
    /* LDS-DMA takes its LDS address from M0 without an interlock on SALU writes. */
    { "4.1 row 8", "SALU writes M0, LDS-DMA reads it", P_SALU, U_M0, C_LDSDMA, 0, A_READ | A_IMPL,
      SRCC_ANY, T3(N(1), N(1), N(1)) },
    /* Store data wider than 64 bits is read over more than one cycle: a VALU
       must not overwrite it meanwhile. */
    { "4.1 row 9", "VMEM store of more than 64 bits of data, VALU overwrites a data register",
      P_STORE, U_VECTOR, C_VALU | C_MFMA, 0, A_WRITE, SRCC_ANY, T3(N(1), N(2), N(2)) },
    /* gfx940+: no interlock for a VALU reading an SGPR that a VALU wrote. */
    { "4.1 row 10", "VALU writes an SGPR, VALU reads it", P_VALU, U_SGPR | U_EXEC | U_M0,
      C_VALU | C_MFMA, 0, A_READ, SRCC_ANY, T3(N(0), N(2), N(2)) },
    { "4.1 row 11", "VALU writes VCC, VALU reads it", P_VALU, U_VCC, C_VALU | C_MFMA, 0,
      A_READ | A_IMPL, SRCC_ANY, T3(N(0), N(2), N(2)) },
    /* gfx940+: the lane-reading VALUs take src0 before VGPR forwarding. */
    { "4.1 row 12", "VALU writes a VGPR, v_readlane/v_readfirstlane reads it", P_VALU, U_VGPR,
      C_RLANE, 0, A_SRC0, SRCC_ANY, T3(N(0), N(1), N(1)) },
    { "4.1 row 13", "VALU writes EXEC, v_readlane/v_readfirstlane/v_writelane", P_VALU, U_EXEC,
      C_RLANE | C_WLANE, 0, A_READ | A_IMPL, SRCC_ANY, T3(N(0), N(4), N(4)) },
    /* gfx940+: TRANS results reach non-TRANS VALUs one cycle late. */
    { "4.1 row 14", "TRANS writes a VGPR, a non-TRANS VALU reads it", P_TRANS, U_VECTOR,
      C_VALU | C_MFMA, C_TRANS, A_READ, SRCC_ANY, T3(N(0), N(1), N(1)) },
    /* MFMA reads its sources from the register file, without VALU forwarding. */
    { "4.2(a)", "VALU writes a VGPR/AGPR, MFMA reads it", P_VALU, U_VECTOR, C_MFMA, 0, A_READ,
      SRCC_ANY, T3(N(2), N(2), N(2)) },
    { "4.2(a)", "VALU writes EXEC, MFMA", P_VALU, U_EXEC, C_MFMA, 0, A_READ | A_IMPL, SRCC_ANY,
      T3(N(4), N(4), N(4)) },
    /* An MFMA writes D over its passes, with no interlock for later readers or
       writers. */
    { "4.2(b)", "MFMA writes D, VALU/VMEM/DS reads it", P_MFMA, U_VECTOR, C_VALU | C_VMEM | C_DS,
      0, A_READ, SRCC_ANY, MFMA_RESULT },
    { "4.2(b)", "MFMA writes D, VALU or VMEM/DS load overwrites it", P_MFMA, U_VECTOR,
      C_VALU | C_VMEM | C_DS, 0, A_WRITE, SRCC_ANY, MFMA_RESULT },
    { "4.2(b)", "MFMA writes D, MFMA reads it as srcA/srcB", P_MFMA, U_VECTOR, C_MFMA, 0,
      A_SRCAB, SRCC_ANY, MFMA_RESULT },
    /* Back-to-back accumulation into the same registers is forwarded, except
       after a 2-pass MFMA on gfx940+. */
    { "4.2(b)", "MFMA writes D, MFMA reads the same registers as srcC", P_MFMA, U_VECTOR, C_MFMA,
      0, A_SRCC, SRCC_SAME, { { N(0), N(0) }, { NIF2(2), NIF2(2) }, { NIF2(2), NIF2(2) } } },
    { "4.2(b)", "MFMA writes D, XDL MFMA reads overlapping (not identical) srcC", P_MFMA,
      U_VECTOR, C_XDL, 0, A_SRCC, SRCC_PART,
      { { NP(0), NP(0) }, { NP(1), N(0) }, { NP(2), N(0) } } },
    { "4.2(b)", "MFMA writes D, SMFMA reads overlapping (not identical) srcC", P_MFMA, U_VECTOR,
      C_SMFMA, 0, A_SRCC, SRCC_PART, { { NP(0), NP(0) }, { NP(1), NP(0) }, { NPX(1), NP(0) } } },
    /* An MFMA reads srcC late, over its passes (gfx940+: XDL only). */
    { "4.2(c)", "MFMA reads srcC, VALU or VMEM/DS load overwrites it", P_SRCC, U_VECTOR,
      C_VALU | C_VMEM | C_DS, 0, A_WRITE, SRCC_ANY,
      { { NP(-1), NP(-1) }, { NP(-1), N(0) }, { NP(-1), N(0) } } },
};
#define NRULES (sizeof(rules) / sizeof(rules[0]))

static int hz_eval(hz_num n, unsigned passes)
{
    if (n.only2)
        return passes == 2 ? n.add : 0;
    return n.p * (int)passes + n.add + (n.ne2 && passes != 2 ? 1 : 0);
}

/* ---- state ------------------------------------------------------------------------------- */

typedef struct hz_rec {
    uint64_t end;      /* the wave's counter after the producer; 0: none yet */
    unsigned item;     /* the producer */
    unsigned first;    /* MFMA: first unit and size of its D (srcC identity) */
    uint16_t count;
    uint8_t passes;    /* MFMA pass count on the target */
    uint8_t smfma;     /* MFMA with f32 inputs (second column of a rule) */
} hz_rec;

struct sim_hz {
    wa_context *ctx;
    uint64_t t;        /* wait states issued by the wave (plus HZ_GAP per reset) */
    unsigned base[SIM_FILES]; /* first unit of each register file */
    unsigned xbase;    /* first special unit */
    unsigned nunits;   /* 0 until the first instruction sizes the tables */
    hz_rec *rec;       /* nunits * P_COUNT */
};

sim_hz *sim_hz_new(wa_context *ctx)
{
    sim_hz *hz = wa_mem_calloc(ctx, 1, sizeof(*hz));
    if (hz) {
        hz->ctx = ctx;
        hz->t = HZ_GAP;
    }
    return hz;
}

void sim_hz_free(wa_context *ctx, sim_hz *hz)
{
    if (!hz)
        return;
    wa_mem_free(ctx, hz->rec);
    wa_mem_free(ctx, hz);
}

void sim_hz_reset(sim_hz *hz)
{
    if (hz)
        hz->t += HZ_GAP;
}

static int hz_alloc(sim_hz *hz, const wa_sim *sim)
{
    unsigned u = 0;
    for (unsigned f = 0; f < SIM_FILES; f++) {
        hz->base[f] = u;
        u += sim->nregs[f];
    }
    hz->xbase = u;
    hz->rec = wa_mem_calloc(hz->ctx, (size_t)(u + X_COUNT) * P_COUNT, sizeof(hz_rec));
    if (!hz->rec)
        return 0;
    hz->nunits = u + X_COUNT;
    return 1;
}

static unsigned unit_class(const sim_hz *hz, unsigned u)
{
    if (u >= hz->xbase) {
        switch (u - hz->xbase) {
        case X_VCC_LO:
        case X_VCC_HI: return U_VCC;
        case X_EXEC_LO:
        case X_EXEC_HI: return U_EXEC;
        default: return U_M0;
        }
    }
    return u >= hz->base[SIM_FILE_A] ? U_AGPR : u >= hz->base[SIM_FILE_V] ? U_VGPR : U_SGPR;
}

static hz_rec *rec_of(const sim_hz *hz, unsigned unit, unsigned kind)
{
    return &hz->rec[(size_t)unit * P_COUNT + kind];
}

/* The units of a register operand, in component order (out[k] is component k). */
static unsigned opnd_units(const sim_hz *hz, const wa_sim *sim, const wa_operand *o,
                           unsigned *out, unsigned max)
{
    unsigned x = hz->xbase, n = 0;
    if (o->kind == WA_OPND_SPECIAL) {
        switch (o->id) {
        case WA_SPECIAL_VCC: out[n++] = x + X_VCC_LO; out[n++] = x + X_VCC_HI; break;
        case WA_SPECIAL_VCC_LO: out[n++] = x + X_VCC_LO; break;
        case WA_SPECIAL_VCC_HI: out[n++] = x + X_VCC_HI; break;
        case WA_SPECIAL_EXEC: out[n++] = x + X_EXEC_LO; out[n++] = x + X_EXEC_HI; break;
        case WA_SPECIAL_EXEC_LO: out[n++] = x + X_EXEC_LO; break;
        case WA_SPECIAL_EXEC_HI: out[n++] = x + X_EXEC_HI; break;
        case WA_SPECIAL_M0: out[n++] = x + X_M0; break;
        default: break; /* scc */
        }
        return n;
    }
    if (o->kind != WA_OPND_VIRT && o->kind != WA_OPND_PHYS)
        return 0;
    for (unsigned k = 0; k < o->count && n < max; k++) {
        unsigned f, idx;
        if (!sim_reg_of(sim, o, k, &f, &idx) || f >= SIM_FILES || idx >= sim->nregs[f])
            break;
        out[n++] = hz->base[f] + idx;
    }
    return n;
}

/* The units of implicit registers (WA_IMPL_* mask). */
static unsigned impl_units(const sim_hz *hz, unsigned mask, unsigned *out)
{
    unsigned n = 0;
    if (mask & WA_IMPL_VCC) {
        out[n++] = hz->xbase + X_VCC_LO;
        out[n++] = hz->xbase + X_VCC_HI;
    }
    if (mask & WA_IMPL_EXEC) {
        out[n++] = hz->xbase + X_EXEC_LO;
        out[n++] = hz->xbase + X_EXEC_HI;
    }
    if (mask & WA_IMPL_M0)
        out[n++] = hz->xbase + X_M0;
    return n;
}

static int target_index(wa_target t)
{
    return t == WA_TARGET_GFX90A ? 0 : t == WA_TARGET_GFX950 ? 2 : 1;
}

static unsigned consumer_class(const wa_isa_info *info)
{
    switch (info->hazard) {
    case WA_HZ_VALU: return C_VALU;
    case WA_HZ_TRANS: return C_VALU | C_TRANS;
    case WA_HZ_READLANE: return C_VALU | C_RLANE;
    case WA_HZ_WRITELANE: return C_VALU | C_WLANE;
    case WA_HZ_VMEM: return C_VMEM;
    case WA_HZ_LDS_DMA: return C_VMEM | C_LDSDMA;
    case WA_HZ_DS: return C_DS;
    case WA_HZ_MFMA_XDL: return C_XDL;
    case WA_HZ_MFMA_SMFMA: return C_SMFMA;
    /* SALU, SMEM and control instructions consume nothing under these rules
       (SALU/SMEM reads of VALU-written SGPRs are interlocked on GFX9). DGEMM:
       the table has no F64 MFMA, so its rules (4.2(d)) are not modelled. */
    default: return 0;
    }
}

static int is_named(const wa_isa_info *info, unsigned k, const char *name)
{
    return k < info->num_operands && info->operands[k].name &&
           strcmp(info->operands[k].name, name) == 0;
}

/* ---- the consumer's accesses ------------------------------------------------------------- */

#define HZ_IMPLICIT 0xFFu
#define HZ_MAX_ACC 128u
#define HZ_MAX_UNITS 32u

typedef struct hz_acc {
    unsigned unit;
    unsigned first, count; /* the operand's units (srcC identity) */
    unsigned char how;     /* A_* */
    unsigned char opnd;    /* operand index, HZ_IMPLICIT */
    unsigned char comp;    /* component within the operand */
} hz_acc;

static unsigned gather(const sim_ctx *c, const sim_hz *hz, unsigned cls, hz_acc *acc)
{
    const wa_isa_info *info = c->info;
    const wa_instr *in = c->in;
    unsigned n = 0, units[HZ_MAX_UNITS];
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        unsigned role = wa_instr_role(in, info, k);
        unsigned how = 0;
        if (role & WA_ROLE_USE) {
            how |= A_READ;
            if (cls & C_MFMA)
                how |= is_named(info, k, "srcC") ? A_SRCC : A_SRCAB;
            if ((cls & (C_RLANE | C_WLANE)) && is_named(info, k, "ssrc1"))
                how |= A_LANESEL;
            if ((cls & C_RLANE) && is_named(info, k, "src0"))
                how |= A_SRC0;
        }
        if (role & WA_ROLE_DEF)
            how |= A_WRITE;
        if (!how)
            continue;
        unsigned nu = opnd_units(hz, c->sim, &in->ops[k], units, HZ_MAX_UNITS);
        for (unsigned j = 0; j < nu && n < HZ_MAX_ACC; j++) {
            hz_acc *a = &acc[n++];
            a->unit = units[j];
            a->first = units[0];
            a->count = nu;
            a->how = (unsigned char)how;
            a->opnd = (unsigned char)k;
            a->comp = (unsigned char)j;
        }
    }
    for (unsigned pass = 0; pass < 2; pass++) {
        unsigned nu = impl_units(hz, pass ? info->implicit_defs : info->implicit_uses, units);
        for (unsigned j = 0; j < nu && n < HZ_MAX_ACC; j++) {
            hz_acc *a = &acc[n++];
            a->unit = units[j];
            a->first = units[0];
            a->count = nu;
            a->how = (unsigned char)(pass ? A_WRITE : A_IMPL);
            a->opnd = HZ_IMPLICIT;
            a->comp = (unsigned char)j;
        }
    }
    return n;
}

/* ---- messages ---------------------------------------------------------------------------- */

static char file_letter(unsigned f)
{
    return f == SIM_FILE_S ? 's' : f == SIM_FILE_V ? 'v' : 'a';
}

static void acc_name(const sim_ctx *c, const sim_hz *hz, const hz_acc *a, char *buf, size_t len)
{
    if (a->opnd == HZ_IMPLICIT) {
        unsigned x = a->unit - hz->xbase;
        snprintf(buf, len, "%s", x <= X_VCC_HI ? "vcc" : x <= X_EXEC_HI ? "exec" : "m0");
        return;
    }
    const wa_operand *o = &c->in->ops[a->opnd];
    const wa_program *prog = c->sim->prog;
    if (o->kind == WA_OPND_SPECIAL) {
        snprintf(buf, len, "%s", wa_special_name((wa_special)o->id));
    } else if (o->kind == WA_OPND_VIRT) {
        char l = file_letter(c->sim->vfile[o->id]);
        if (o->id < prog->nvregs && prog->vregs[o->id].size == 1)
            snprintf(buf, len, "%%%c%u", l, (unsigned)o->id);
        else
            snprintf(buf, len, "%%%c%u[%u]", l, (unsigned)o->id, (unsigned)(o->first + a->comp));
    } else {
        char l = o->reg_class == WA_REG_SGPR ? 's' : o->reg_class == WA_REG_AGPR ? 'a' : 'v';
        snprintf(buf, len, "%c%u", l, (unsigned)(o->id + a->comp));
    }
}

/* "; 4-pass XDL MFMA: P+3 +1" and the like, for pass-dependent numbers. */
static void formula_text(const hz_num *n, const hz_rec *p, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!n->p && !n->only2)
        return;
    const char *kind = p->smfma ? "SMFMA" : "XDL";
    if (n->only2)
        snprintf(buf, len, "; %u-pass %s MFMA: %d if P = 2, else 0", (unsigned)p->passes, kind,
                 n->add);
    else
        snprintf(buf, len, "; %u-pass %s MFMA: P%+d%s", (unsigned)p->passes, kind, n->add,
                 n->ne2 && p->passes != 2 ? " +1 (P != 2)" : "");
}

static void report(sim_ctx *c, const sim_hz *hz, const hz_rule *r, const hz_acc *a,
                   const hz_rec *p, int need, uint64_t have)
{
    char reg[48], formula[96];
    acc_name(c, hz, a, reg, sizeof(reg));
    const hz_num *n = &r->n[target_index(c->sim->target)][p->smfma];
    formula_text(n, p, formula, sizeof(formula));
    const wa_instr *pin = &c->sim->prog->instrs[p->item];
    const char *role = a->opnd == HZ_IMPLICIT ? "implicit" : c->info->operands[a->opnd].name;
    const char *verb = (r->how & A_WRITE) ? "written" : "read";
    const char *pverb = r->prod == P_SRCC ? "read it as srcC"
                        : r->prod == P_STORE ? "stored it" : "wrote it";
    const char *tname = wa_target_name(c->sim->target);
    sim_fail(c, WA_E_SIM_HAZARD,
             "hazard: %s (%s) is %s %llu wait state%s after %s @I%u %s; %s needs %d "
             "(ISA.md %s: %s%s)",
             reg, role ? role : "operand", verb, (unsigned long long)have, have == 1 ? "" : "s",
             wa_isa_mnemonic(pin->op, c->sim->target), (unsigned)pin->tag, pverb,
             tname ? tname : "the target", need, r->ref, r->what, formula);
}

/* ---- check and record -------------------------------------------------------------------- */

void sim_hz_check(sim_ctx *c)
{
    sim_hz *hz = c->w->hz;
    if (!hz)
        return;
    if (!hz->rec && !hz_alloc(hz, c->sim)) {
        sim_fail(c, WA_E_NOMEM, "out of memory for the hazard tables");
        return;
    }
    unsigned cls = consumer_class(c->info);
    if (!cls)
        return;
    hz_acc acc[HZ_MAX_ACC];
    unsigned nacc = gather(c, hz, cls, acc);
    int ti = target_index(c->sim->target);
    /* the worst violation (largest shortfall; the first rule on ties) */
    const hz_rule *best = NULL;
    const hz_acc *best_acc = NULL;
    const hz_rec *best_rec = NULL;
    int best_need = 0;
    uint64_t best_have = 0, best_short = 0;
    for (unsigned i = 0; i < NRULES; i++) {
        const hz_rule *r = &rules[i];
        if (!(r->cons & cls) || (r->not_cons & cls))
            continue;
        for (unsigned j = 0; j < nacc; j++) {
            const hz_acc *a = &acc[j];
            if (!(a->how & r->how) || !(unit_class(hz, a->unit) & r->units))
                continue;
            const hz_rec *p = rec_of(hz, a->unit, r->prod);
            if (!p->end)
                continue;
            if (r->srcc != SRCC_ANY) {
                int same = p->first == a->first && p->count == a->count;
                if (same != (r->srcc == SRCC_SAME))
                    continue;
            }
            int need = hz_eval(r->n[ti][p->smfma], p->passes);
            uint64_t have = hz->t - p->end;
            if (need <= 0 || have >= (uint64_t)need)
                continue;
            if ((uint64_t)need - have > best_short) {
                best_short = (uint64_t)need - have;
                best = r;
                best_acc = a;
                best_rec = p;
                best_need = need;
                best_have = have;
            }
        }
    }
    if (best)
        report(c, hz, best, best_acc, best_rec, best_need, best_have);
}

static void put(sim_hz *hz, unsigned unit, unsigned kind, unsigned item)
{
    hz_rec *r = rec_of(hz, unit, kind);
    memset(r, 0, sizeof(*r));
    r->end = hz->t;
    r->item = item;
}

/* Records the instruction that just executed as a producer. */
void sim_hz_record(sim_ctx *c)
{
    sim_hz *hz = c->w->hz;
    if (!hz)
        return;
    hz->t += c->wait_states;
    if (!hz->rec)
        return;
    const wa_isa_info *info = c->info;
    const wa_instr *in = c->in;
    unsigned hc = info->hazard;
    int mfma = (info->flags & WA_IF_MFMA) != 0;
    int valu = !mfma && (hc == WA_HZ_VALU || hc == WA_HZ_TRANS || hc == WA_HZ_READLANE ||
                         hc == WA_HZ_WRITELANE);
    int trans = valu && (info->flags & WA_IF_TRANS);
    int salu = hc == WA_HZ_SALU;
    unsigned passes = c->sim->target == WA_TARGET_GFX90A ? info->mfma_passes_gfx90a
                                                         : info->mfma_passes_gfx94x;
    /* row 9: a buffer or global store of more than 64 bits of data (buffer
       stores only when soffset is not a register) */
    int wide_store = 0;
    if ((info->flags & WA_IF_STORE) && (hc == WA_HZ_VMEM)) {
        wide_store = 1;
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
            if (info->format == WA_FMT_MUBUF && is_named(info, k, "soffset") &&
                in->ops[k].kind != WA_OPND_IMM && in->ops[k].kind != WA_OPND_FIMM)
                wide_store = 0;
    }
    unsigned units[HZ_MAX_UNITS];
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        unsigned role = wa_instr_role(in, info, k);
        unsigned nu = opnd_units(hz, c->sim, &in->ops[k], units, HZ_MAX_UNITS);
        if (!nu)
            continue;
        if (role & WA_ROLE_DEF) {
            for (unsigned j = 0; j < nu; j++) {
                if (valu)
                    put(hz, units[j], P_VALU, c->item);
                if (trans)
                    put(hz, units[j], P_TRANS, c->item);
                if (salu)
                    put(hz, units[j], P_SALU, c->item);
                if (mfma) {
                    put(hz, units[j], P_MFMA, c->item);
                    hz_rec *r = rec_of(hz, units[j], P_MFMA);
                    r->first = units[0];
                    r->count = (uint16_t)nu;
                    r->passes = (uint8_t)passes;
                    r->smfma = hc == WA_HZ_MFMA_SMFMA;
                }
            }
        }
        if ((role & WA_ROLE_USE) && mfma && is_named(info, k, "srcC")) {
            for (unsigned j = 0; j < nu; j++) {
                put(hz, units[j], P_SRCC, c->item);
                hz_rec *r = rec_of(hz, units[j], P_SRCC);
                r->passes = (uint8_t)passes;
                r->smfma = hc == WA_HZ_MFMA_SMFMA;
            }
        }
        if (wide_store && (role & WA_ROLE_USE) && is_named(info, k, "vdata") && nu > 2)
            for (unsigned j = 0; j < nu; j++)
                put(hz, units[j], P_STORE, c->item);
    }
    if (valu || salu) {
        unsigned nu = impl_units(hz, info->implicit_defs, units);
        for (unsigned j = 0; j < nu; j++)
            put(hz, units[j], valu ? P_VALU : P_SALU, c->item);
    }
}
