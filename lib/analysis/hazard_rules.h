/* lib/analysis/hazard_rules.h — the hazard rules of gfx90a, gfx942 and gfx950 as
   data: which instructions produce what, which consume how, and how many wait
   states each pairing needs. Read by the hazard pass, the hazard checker and the
   simulator's hazard mode, so the three agree on the facts while judging them
   with different algorithms. Not installed.

   A rule pairs a producer kind (recorded per 32-bit register unit) with consumer
   classes and the way the consumer touches the unit; its number of wait states
   depends on the target and, for MFMA producers, on the producer's pass count
   and on XDL vs SMFMA. Sources and cross-checks: hazard_rules.c. */
#ifndef WAVEASM_HAZARD_RULES_H
#define WAVEASM_HAZARD_RULES_H

#include "../ir/ir.h"

/* Unit classes (which registers a rule watches). */
#define WA_HZ_U_SGPR 0x01u
#define WA_HZ_U_VCC 0x02u
#define WA_HZ_U_EXEC 0x04u
#define WA_HZ_U_M0 0x08u
#define WA_HZ_U_VGPR 0x10u
#define WA_HZ_U_AGPR 0x20u
/* Pseudo registers: one per hardware register id (s_setreg/s_getreg) and one
   that every DGEMM writes (v_fma_f64 waits for it whatever its operands). */
#define WA_HZ_U_PSEUDO 0x40u
#define WA_HZ_U_SCALAR (WA_HZ_U_SGPR | WA_HZ_U_VCC | WA_HZ_U_EXEC | WA_HZ_U_M0)
#define WA_HZ_U_VECTOR (WA_HZ_U_VGPR | WA_HZ_U_AGPR)

/* Producer kinds: what an instruction leaves behind on a unit. */
enum {
    WA_HZ_P_VALU = 0, /* a VALU other than an MFMA wrote the unit */
    WA_HZ_P_TRANS,    /* a transcendental VALU wrote it */
    WA_HZ_P_SALU,     /* a SALU wrote it */
    WA_HZ_P_MFMA,     /* an MFMA wrote it (D) */
    WA_HZ_P_SRCC,     /* an MFMA read it as srcC */
    WA_HZ_P_STORE,    /* a VMEM store of more than 64 bits read it as data */
    WA_HZ_P_DOT,      /* a v_dot* wrote it (instead of WA_HZ_P_VALU) */
    WA_HZ_P_DGEMM4,   /* a 4x4 DGEMM wrote it (D, or the DGEMM pseudo register) */
    WA_HZ_P_DGEMM16,  /* a 16x16 DGEMM wrote it */
    WA_HZ_P_LOAD,     /* a VMEM or DS load wrote it */
    WA_HZ_P_PARTIAL,  /* a VALU wrote part of it: op_sel's destination half, an SDWA
                         dst_sel other than DWORD, the byte select of WA_IF_OPSEL4 rows */
    WA_HZ_P_DSTSEL,   /* a VOP3P result with op_sel_hi[0] set wrote it (also P_VALU/P_DOT) */
    WA_HZ_P_COUNT
};

/* Consumer classes (from the ISA table's hazard class). */
#define WA_HZ_C_VALU 0x001u   /* VALU other than an MFMA: v_accvgpr_*, lane ops, TRANS included */
#define WA_HZ_C_TRANS 0x002u
#define WA_HZ_C_RLANE 0x004u  /* v_readlane, v_readfirstlane */
#define WA_HZ_C_WLANE 0x008u  /* v_writelane */
#define WA_HZ_C_XDL 0x010u    /* MFMA, XDL (f16/bf16/i8/fp8 inputs) */
#define WA_HZ_C_SMFMA 0x020u  /* MFMA with f32 inputs */
#define WA_HZ_C_VMEM 0x040u   /* buffer and global instructions, LDS-DMA included */
#define WA_HZ_C_LDSDMA 0x080u
#define WA_HZ_C_DS 0x100u
#define WA_HZ_C_DIVFMAS 0x200u  /* v_div_fmas (reads VCC) */
#define WA_HZ_C_DPP 0x400u      /* an instruction with the DPP modifier */
#define WA_HZ_C_MOVREL 0x800u   /* s_movrels / s_movreld */
#define WA_HZ_C_HWREG 0x1000u   /* s_getreg, s_setreg */
#define WA_HZ_C_PERMLANE 0x2000u /* v_permlane16_swap / v_permlane32_swap */
#define WA_HZ_C_FMA64 0x4000u   /* v_fma_f64 */
#define WA_HZ_C_DGEMM 0x8000u   /* MFMA with f64 inputs */
#define WA_HZ_C_DOT 0x10000u    /* v_dot* */
#define WA_HZ_C_SENDMSG 0x20000u /* s_sendmsg, s_sendmsghalt, s_ttracedata (read M0) */
#define WA_HZ_C_DSM0 0x40000u   /* ds_read_addtid / ds_write_addtid (read M0) */
#define WA_HZ_C_MFMA (WA_HZ_C_XDL | WA_HZ_C_SMFMA | WA_HZ_C_DGEMM)

/* How a consumer touches a unit. */
#define WA_HZ_A_READ 0x01u    /* explicit source operand */
#define WA_HZ_A_IMPL 0x02u    /* implicit use (exec, vcc, m0) */
#define WA_HZ_A_WRITE 0x04u   /* destination, explicit or implicit */
#define WA_HZ_A_LANESEL 0x08u /* lane select (ssrc1) of v_readlane / v_writelane */
#define WA_HZ_A_SRC0 0x10u    /* src0 of v_readlane / v_readfirstlane */
#define WA_HZ_A_SRCAB 0x20u   /* MFMA or v_dot srcA, srcB (and the scale operands) */
#define WA_HZ_A_SRCC 0x40u    /* MFMA srcC, v_dot src2 (the accumulator) */

/* Wait states as a function of the producing MFMA's pass count P:
   p * P + add, plus 1 when `ne2` is set and P != 2; with `only2` set: `add` when
   P == 2, else 0. Fixed numbers have p = 0. */
typedef struct wa_hz_num {
    signed char p, add, ne2, only2;
} wa_hz_num;

/* srcC of an MFMA consumer compared with the producer's D. */
enum { WA_HZ_SRCC_ANY = 0, WA_HZ_SRCC_SAME, WA_HZ_SRCC_PART };
/* The consumer's opcode compared with the producer's. */
enum { WA_HZ_OP_ANY = 0, WA_HZ_OP_SAME, WA_HZ_OP_OTHER };

typedef struct wa_hz_rule {
    const char *ref;          /* rule id (docs/hazards.md) */
    const char *what;         /* producer, consumer */
    unsigned char prod;       /* WA_HZ_P_*: the record the rule looks up */
    unsigned char units;      /* WA_HZ_U_*: the registers it watches */
    unsigned cons;            /* WA_HZ_C_*: the consumers it applies to */
    unsigned not_cons;        /* WA_HZ_C_*: consumers excluded */
    unsigned char how;        /* WA_HZ_A_*: the consumer accesses it looks at */
    unsigned char srcc;       /* WA_HZ_SRCC_* */
    /* [gfx90a, gfx942, gfx950][producer: not an SMFMA, SMFMA] */
    wa_hz_num n[3][2];
    unsigned char same_op;    /* WA_HZ_OP_*: consumer opcode vs producer opcode */
} wa_hz_rule;

extern const wa_hz_rule wa_hz_rules[];
extern const unsigned wa_hz_nrules;

/* The largest number of wait states any rule can require (on any target). */
#define WA_HZ_MAX_WAIT_STATES 20

/* Index of `t` in wa_hz_rule.n. */
int wa_hz_target_index(wa_target t);
/* Whether rule `r` pairs a producer of opcode `prod_op` with a consumer of
   opcode `cons_op` (its same_op condition). */
int wa_hz_op_match(const wa_hz_rule *r, unsigned prod_op, unsigned cons_op);
/* Wait states of rule `r` on `t` after a producer with `passes` (MFMA pass count,
   0 otherwise) that is (`smfma` 1) or is not an SMFMA; <= 0 means none. */
int wa_hz_required(const wa_hz_rule *r, wa_target t, unsigned passes, int smfma);
/* Explanation of a pass-dependent number ("; 4-pass XDL MFMA: P+3"), or "". */
void wa_hz_formula(char *buf, size_t len, const wa_hz_rule *r, wa_target t, unsigned passes,
                   int smfma);

/* Consumer classes of an opcode (0: consumes nothing under these rules). */
unsigned wa_hz_consumer_class(const wa_isa_info *info);
/* MFMA pass count on `t` (0 if not an MFMA) and whether it is an SMFMA. */
unsigned wa_hz_passes(const wa_isa_info *info, wa_target t);
int wa_hz_is_smfma(const wa_isa_info *info);

/* Consumer classes of one instruction: wa_hz_consumer_class of its opcode, plus
   whatever its modifiers add. The hazard pass and checker call this one, so
   classes that depend on the instruction rather than the opcode (a DPP
   modifier, say) are added here and nowhere else. */
unsigned wa_hz_instr_class(const wa_instr *in, const wa_isa_info *info);

/* Wait states an instruction provides to the instructions after it: 0 for
   labels and comments, N+1 for s_nop N (1 to 16), 1 for every other one. */
unsigned wa_hz_wait_states(const wa_instr *in, const wa_isa_info *info);

/* The largest number of wait states rule `r` can require on `t` after a
   producer whose MFMA pass count P (0 for other instructions) has bit P set in
   `passes` (P < 32), in either producer column; 0: the rule never applies.
   WA_HZ_ALL_PASSES covers every pass count. */
#define WA_HZ_ALL_PASSES 0xFFFFFFFFu
int wa_hz_rule_max(const wa_hz_rule *r, wa_target t, uint32_t passes);

/* H35, soft clauses (XNACK): consecutive SMEM instructions, or consecutive
   vector memory instructions (MUBUF, FLAT, GLOBAL and SCRATCH, one kind), may complete out of order and be replayed after a fault. With the
   clause `clause[0..n-1]` issued right before `item` (oldest first, nothing
   else between them, same kind), `item` needs a wait state (any instruction of
   another kind) before it when the clause writes a register and either `item`
   stores (a store or an atomic) or a register written in the clause or by
   `item` is read in the clause or by `item`. Returns 1 then. */
int wa_hz_clause_conflict(const wa_program *prog, const unsigned *clause, unsigned n,
                          unsigned item);
/* The soft-clause kind of an instruction: WA_HZ_CLAUSE_SMEM, WA_HZ_CLAUSE_VMEM
   or 0 (it ends any clause). */
#define WA_HZ_CLAUSE_SMEM 1u
#define WA_HZ_CLAUSE_VMEM 2u
unsigned wa_hz_clause_kind(const wa_isa_info *info);
/* Whether soft clauses matter for `prog`: unless its context says XNACK off. */
int wa_hz_soft_clauses(const wa_program *prog);
/* The clause before `item` in program order (instructions of item's kind back
   to the first other one; labels and comments are skipped); returns its length,
   at most `cap`, oldest first in `out`. */
unsigned wa_hz_clause_before(const wa_program *prog, unsigned item, unsigned *out, unsigned cap);
#define WA_HZ_CLAUSE_MAX 64u
/* The diagnostic of both the checker and the simulator: the instruction's
   mnemonic, the kind's name, the clause's first mnemonic and tag, then the
   rule and its description (wa_hz_clause_rule). */
#define WA_HZ_CLAUSE_FMT                                                                   \
    "hazard: %s (in an %s clause) is issued 0 wait states after %s @I%u, which opens the " \
    "clause it conflicts with; needs 1 (rule %s: %s)"
/* Name ("SMEM", "VMEM"), rule id and description of a clause kind. */
const char *wa_hz_clause_name(unsigned kind);
const char *wa_hz_clause_rule(unsigned kind);
const char *wa_hz_clause_what(unsigned kind);

/* Unit class of the registers of a register operand (0 for SCC, immediates...). */
unsigned wa_hz_operand_unit_class(const wa_operand *o);

/* One register reference of an instruction as the rules see it. */
#define WA_HZ_IMPLICIT 0xFFu
typedef struct wa_hz_ref {
    unsigned char opnd;       /* operand index, or WA_HZ_IMPLICIT */
    unsigned char special;    /* implicit references: WA_SPECIAL_VCC, _EXEC or _M0, or
                                 a pseudo register WA_HZ_X_* */
    unsigned char how;        /* WA_HZ_A_* accesses as a consumer (may be 0) */
    uint16_t produces;        /* bit (1 << WA_HZ_P_*) per kind it records as a producer */
} wa_hz_ref;
/* Pseudo registers in wa_hz_ref.special: the DGEMM marker, and hardware
   register `id` (0..63) as WA_HZ_X_HWREG + id. WA_HZ_X_COUNT of them. */
#define WA_HZ_X_DGEMM 0x40u
#define WA_HZ_X_HWREG 0x80u
#define WA_HZ_X_COUNT 65u
/* Index (0 .. WA_HZ_X_COUNT - 1) of pseudo register `special`, or -1 if it is not one. */
int wa_hz_pseudo_index(unsigned special);
#define WA_HZ_MAX_REFS 16u

/* The register references of `in` (explicit operands, then implicit VCC, EXEC
   and M0), each with its consumer accesses and producer kinds. */
unsigned wa_hz_refs(wa_hz_ref *out, const wa_instr *in, const wa_isa_info *info);

#endif
