/* lib/passes/peephole.c — local rewrites in linear time (docs/peephole.md).

   One forward sweep per round over the items, block by block, rewrites each
   instruction against what the sweep has seen before it in its block:

     operands     a read of a register whose value is a known constant becomes
                  the inline constant, a read of a copy reads the copy's source
                  (copy propagation);
     identities   x+0, x-0, x|0, x^0, x&-1, x<<0, x>>0, x*1 become moves (or
                  vanish when the move is a self-move); multiplications by 2^n
                  become shifts;
     fusion       a VALU pair whose intermediate has no other reader becomes one
                  three-operand VOP3 instruction;
     MFMA         an accumulator zeroed just before the MFMA is read as the
                  inline constant 0 and the zero writes go;
     moves        self-moves go; copies and constant moves whose readers were all
                  rewritten go.

   What is known about registers: for virtual registers, def and use counts over
   the whole program (a constant move that is the register's only definition
   gives its value everywhere); for the fixed register units (physical
   registers, vcc, exec, m0, scc) a backward liveness over blocks, which gives
   per read whether it is the value's last one and whether SCC is live after an
   instruction. Everything else is block-local: per unit the last definition and
   the last read in the current block. Rounds repeat until one changes nothing
   (a rewrite can expose another one earlier in the program), at most
   MAX_ROUNDS. */
#include "pass_util.h"

#include <string.h>

#define MAX_ROUNDS 8u
#define REFS_MAX 128u
#define NFIX ((unsigned)WA_UNIT_VIRT_BASE)  /* fixed units: physical and special */
#define FIXW ((NFIX + 63u) / 64u)           /* 64-bit words of a fixed-unit set */

/* per-item flags */
#define F_ERASED 0x1u
#define F_CHANGED 0x2u
#define F_TOUCHED 0x4u   /* a read of this move's result was rewritten */
#define F_LISTED 0x8u    /* on the list of moves to check for death */
#define F_FIX 0x10u      /* names a fixed unit (other than the implicit EXEC read) */

/* per-item liveness byte: bit k = operand k's value dies here; LV_SCC = SCC live after */
#define LV_SCC 0x80u

/* ---- pattern tables (the opcodes the rewrites are defined for) --------------------------

   Fusion: `first` writes t, `second` reads t and nothing else reads it. The fused
   instruction's sources are first's sources in the order `src[]` (operand indices
   of first), then second's other source. Semantics (AMD ISA, checked against
   llvm-mc-22 encodings and the simulator):
     v_lshlrev_b32 t, S, A  = A << S[4:0]        (shift amount first)
     v_lshl_add_u32 D, A, S, B = (A << S[4:0]) + B
     v_lshl_or_b32  D, A, S, B = (A << S[4:0]) | B
     v_add_lshl_u32 D, A, B, S = (A + B) << S[4:0]
     v_add3_u32 D, A, B, C = A + B + C;  v_or3_b32 D, A, B, C = A | B | C
   Both shifts mask the amount to 5 bits, so the amount moves unchanged. */
typedef struct fuse_pat {
    uint16_t first, second, fused;
    uint8_t src[2];      /* first's operands in the fused order */
    uint8_t t_pos;       /* bit k: t may be second's operand k (add/or commute) */
} fuse_pat;

static const fuse_pat fuse_pats[] = {
    { WA_OP_V_LSHLREV_B32, WA_OP_V_ADD_U32, WA_OP_V_LSHL_ADD_U32, { 2, 1 }, 0x6 },
    { WA_OP_V_LSHLREV_B32, WA_OP_V_OR_B32, WA_OP_V_LSHL_OR_B32, { 2, 1 }, 0x6 },
    { WA_OP_V_OR_B32, WA_OP_V_OR_B32, WA_OP_V_OR3_B32, { 1, 2 }, 0x6 },
    { WA_OP_V_ADD_U32, WA_OP_V_ADD_U32, WA_OP_V_ADD3_U32, { 1, 2 }, 0x6 },
    /* the shifted value is src1 of v_lshlrev_b32; t as the amount does not fuse */
    { WA_OP_V_ADD_U32, WA_OP_V_LSHLREV_B32, WA_OP_V_ADD_LSHL_U32, { 1, 2 }, 0x4 },
};

/* Identities: source `check` holding `value` (compared under `mask`: shift amounts
   count modulo 32) makes the result source `pass`. `comm`: either order. */
typedef struct ident_pat {
    uint16_t op;
    uint8_t check, pass, comm;
    uint32_t value, mask;
} ident_pat;

static const ident_pat ident_pats[] = {
    { WA_OP_V_ADD_U32, 1, 2, 1, 0, ~0u },
    { WA_OP_V_SUB_U32, 2, 1, 0, 0, ~0u },      /* D = S0 - S1 */
    { WA_OP_V_SUBREV_U32, 1, 2, 0, 0, ~0u },   /* D = S1 - S0 */
    { WA_OP_V_OR_B32, 1, 2, 1, 0, ~0u },
    { WA_OP_V_XOR_B32, 1, 2, 1, 0, ~0u },
    { WA_OP_V_AND_B32, 1, 2, 1, ~0u, ~0u },
    { WA_OP_V_LSHLREV_B32, 1, 2, 0, 0, 31u },  /* amount first */
    { WA_OP_V_LSHRREV_B32, 1, 2, 0, 0, 31u },
    { WA_OP_V_ASHRREV_I32, 1, 2, 0, 0, 31u },
    { WA_OP_V_MUL_LO_U32, 1, 2, 1, 1, ~0u },
    { WA_OP_S_ADD_U32, 1, 2, 1, 0, ~0u },
    { WA_OP_S_ADD_I32, 1, 2, 1, 0, ~0u },
    { WA_OP_S_SUB_U32, 2, 1, 0, 0, ~0u },
    { WA_OP_S_OR_B32, 1, 2, 1, 0, ~0u },
    { WA_OP_S_XOR_B32, 1, 2, 1, 0, ~0u },
    { WA_OP_S_AND_B32, 1, 2, 1, ~0u, ~0u },
    { WA_OP_S_LSHL_B32, 2, 1, 0, 0, 31u },     /* amount second */
    { WA_OP_S_LSHR_B32, 2, 1, 0, 0, 31u },
    { WA_OP_S_ASHR_I32, 2, 1, 0, 0, 31u },
    { WA_OP_S_MUL_I32, 1, 2, 1, 1, ~0u },
};

/* Multiplication by 2^n (either source) -> shift: operand `amount` of the shift
   takes n, operand `value` the other factor. */
typedef struct mul_pat {
    uint16_t mul, shift;
    uint8_t amount, value;
} mul_pat;

static const mul_pat mul_pats[] = {
    { WA_OP_V_MUL_LO_U32, WA_OP_V_LSHLREV_B32, 1, 2 },
    { WA_OP_S_MUL_I32, WA_OP_S_LSHL_B32, 2, 1 },
};

/* Writes that copy src0 into vdst like a move without the table's MOVE flag
   (it crosses register classes): a constant written this way is known too. */
static const uint16_t const_writers[] = { WA_OP_V_ACCVGPR_WRITE_B32 };

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- state ------------------------------------------------------------------------ */

/* What the pass knows about one register unit, in one place (one cache line
   for what a read or a write looks up). */
typedef struct unit_info {
    unsigned ldef, lread;   /* item + 1 of the last definition / read in the current
                               block (0: none; below the block's first item + 1:
                               stale) */
    unsigned nuse, ndef;    /* virtual: reads and definitions in the program */
    unsigned defitem;       /* virtual: the first definition's item */
    uint8_t kconst;         /* virtual: a definition is a constant move */
    uint8_t rej;            /* a rewrite was refused because of its reads or writes */
    uint8_t lmove;          /* the definition at ldef is a move (saves fetching it) */
} unit_info;

typedef struct pp {
    wa_program *prog;
    wa_context *ctx;
    unsigned flags;
    wa_pass_stats *st;
    wa_unit_map map;
    wa_cfg cfg;
    int have_cfg;
    uint8_t *partial;       /* per item: EXEC may be partial */
    uint8_t *iflags;        /* per item: F_* */
    uint8_t *lv;            /* per item: kills and SCC liveness */
    unsigned n;             /* items this round */
    /* per virtual unit (index u - NFIX) */
    unit_info *U;           /* per unit (fixed units use ldef, lread, rej) */
    unsigned *ren;          /* per virtual unit, allocated on the first global rename:
                               2 words, register id + 1 (0 = none) and component */
    int any_ren;
    int reducible;
    /* fixed-unit liveness */
    uint64_t *live_out;     /* FIXW words per block */
    /* physical moves whose every read so far was rewritten: per fixed unit the
       move's item + 1 and whether a read was rewritten */
    unsigned pend[NFIX];
    uint8_t ptouched[NFIX];
    unsigned pend_list[NFIX];
    unsigned npend;
    unsigned *touched;      /* moves of virtual registers with rewritten reads */
    unsigned ntouched, captouched;
    unsigned changes;       /* rewrites this round */
    int retry;              /* a change that can enable rewrites the sweep has passed */
    unsigned *fixlist;      /* items flagged F_FIX, in order (the backward liveness visits these) */
    unsigned *fixoff;       /* per block: first index into fixlist */
    uint8_t *exec_read;     /* per block: an unlisted item reads EXEC */
    unsigned ninstrs;       /* real instructions (statistics) */
    int writes_exec;        /* some instruction writes EXEC: EXEC may be partial somewhere */
    int own_partial;        /* `partial` is this pass's scratch block (no EXEC write) */
    unsigned mov_for[4];    /* MOVE opcode per destination class (identities) */
    /* per opcode: pattern index + 1 (0: none), fusion patterns as a bit mask */
    uint8_t ident_of[WA_OP_COUNT_], mul_of[WA_OP_COUNT_], fuse_of[WA_OP_COUNT_];
    uint8_t const_op[WA_OP_COUNT_]; /* writes its source unchanged (MOVE or const_writers) */
    uint8_t scc_op[WA_OP_COUNT_];   /* a rewrite would change whether it writes SCC */
} pp;

/* The registers an item names, as ranges of consecutive units: every register
   operand (virtual, physical or special) is one range, implicit registers one
   each. A write is full unless it keeps part of the old value: read-modify-write
   operands, and lane-masked writes where EXEC may be partial. */
typedef struct urange {
    unsigned base, count;
    uint8_t op;               /* operand index; 0xFF implicit */
    uint8_t use, def, full;
} urange;

typedef struct irefs {
    unsigned n;
    urange r[WA_ISA_MAX_OPERANDS + 4];
} irefs;

static int is_reg(const wa_operand *o)
{
    return o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS;
}

static int is_imm(const wa_operand *o)
{
    return o->kind == WA_OPND_IMM || o->kind == WA_OPND_FIMM;
}

static int is_lane_class(unsigned cls)
{
    return cls == WA_REG_VGPR || cls == WA_REG_AGPR;
}

static unsigned nops_of(const wa_instr *in, const wa_isa_info *info)
{
    return in->nops < info->num_operands ? in->nops : info->num_operands;
}

static int same_reg(const wa_operand *a, const wa_operand *b)
{
    return is_reg(a) && a->kind == b->kind && a->reg_class == b->reg_class && a->id == b->id &&
           a->count == b->count && (a->kind == WA_OPND_PHYS || a->first == b->first);
}

static int overlap(const wa_operand *a, const wa_operand *b)
{
    if (!is_reg(a) || !is_reg(b) || a->kind != b->kind || a->reg_class != b->reg_class)
        return 0;
    if (a->kind == WA_OPND_VIRT)
        return a->id == b->id && a->first < b->first + b->count && b->first < a->first + a->count;
    return a->id < b->id + b->count && b->id < a->id + a->count;
}

/* First unit and count of a register operand (units of one operand are
   consecutive); 0 for operands that are not registers. */
static inline unsigned opnd_units(const pp *P, const wa_operand *o, unsigned *base)
{
    *base = 0; /* defined for operands without units too */
    switch (o->kind) {
    case WA_OPND_VIRT:
        *base = P->map.vbase[o->id] + o->first;
        return o->count;
    case WA_OPND_PHYS:
        *base = wa_phys_unit((wa_reg_class)o->reg_class, o->id);
        return o->count;
    case WA_OPND_SPECIAL:
        switch (o->id) {
        case WA_SPECIAL_VCC: *base = WA_UNIT_VCC_LO; return 2;
        case WA_SPECIAL_VCC_LO: *base = WA_UNIT_VCC_LO; return 1;
        case WA_SPECIAL_VCC_HI: *base = WA_UNIT_VCC_HI; return 1;
        case WA_SPECIAL_EXEC: *base = WA_UNIT_EXEC_LO; return 2;
        case WA_SPECIAL_EXEC_LO: *base = WA_UNIT_EXEC_LO; return 1;
        case WA_SPECIAL_EXEC_HI: *base = WA_UNIT_EXEC_HI; return 1;
        case WA_SPECIAL_M0: *base = WA_UNIT_M0; return 1;
        case WA_SPECIAL_SCC: *base = WA_UNIT_SCC; return 1;
        default: return 0;
        }
    default:
        return 0;
    }
}

/* First unit of a 1-register operand. */
static unsigned unit1(const pp *P, const wa_operand *o)
{
    unsigned u = 0;
    opnd_units(P, o, &u);
    return u;
}

static int is_virt_unit(unsigned u)
{
    return u >= NFIX;
}

static void get_refs(const pp *P, unsigned item, irefs *r)
{
    const wa_instr *in = &P->prog->instrs[item];
    const wa_isa_info *info = wa_isa(in->op);
    unsigned n = nops_of(in, info), m = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned base, c = opnd_units(P, &in->ops[k], &base);
        if (!c)
            continue;
        unsigned role = wa_instr_role(in, info, k);
        /* s_movrels/s_movreld access the SGPR at base + M0: any SGPR from the
           base up, as far as this analysis can tell */
        if ((info->flags & WA_IF_REL_M0) && info->operands[k].classes == WA_OC_SGPR &&
            in->ops[k].kind == WA_OPND_PHYS && in->ops[k].reg_class == WA_REG_SGPR)
            c = WA_UNIT_SGPR + 128u - base;
        urange *x = &r->r[m++];
        x->base = base;
        x->count = c;
        x->op = (uint8_t)k;
        x->use = (role & WA_ROLE_USE) != 0;
        x->def = (role & WA_ROLE_DEF) != 0;
        x->full = x->def && !x->use && !(P->partial[item] && wa_lane_masked_write(in, info, k));
    }
    unsigned iu = info->implicit_uses, id = info->implicit_defs;
    if (iu | id) {
        static const unsigned impl[4] = { WA_IMPL_SCC, WA_IMPL_VCC, WA_IMPL_EXEC, WA_IMPL_M0 };
        static const unsigned ibase[4] = { WA_UNIT_SCC, WA_UNIT_VCC_LO, WA_UNIT_EXEC_LO, WA_UNIT_M0 };
        static const unsigned icount[4] = { 1, 2, 2, 1 };
        for (unsigned f = 0; f < 4; f++) {
            if (!((iu | id) & impl[f]))
                continue;
            urange *x = &r->r[m++];
            x->base = ibase[f];
            x->count = icount[f];
            x->op = 0xFF;
            x->use = (iu & impl[f]) != 0;
            x->def = (id & impl[f]) != 0;
            x->full = x->def && !x->use;
        }
    }
    r->n = m;
}

/* ---- does an instruction fit its encoding? ------------------------------------------

   The validator's operand rules for one instruction (lib/ir/validate.c): operand
   classes, inline constants versus literals (one literal, none in VOP3/VOP3P or
   when the 32-bit form is not usable), the gfx9 constant bus (one scalar value
   per VALU instruction, the same SGPR counting once), tuple alignment, and the
   MFMA rules (C and D of one class, C identical to D or disjoint; A/B apart from
   D, which the allocator relies on). Rewrites build candidates and keep those
   that fit. */

static int needs_vop3(const wa_operand *ops, unsigned nops, const wa_isa_info *info)
{
    if (info->format != WA_FMT_VOP1 && info->format != WA_FMT_VOP2 && info->format != WA_FMT_VOPC)
        return info->format == WA_FMT_VOP3 || info->format == WA_FMT_VOP3P;
    for (unsigned k = 0; k < nops; k++) {
        const wa_isa_operand *spec = &info->operands[k];
        const wa_operand *o = &ops[k];
        if (spec->role == WA_ROLE_DEF) {
            if (info->format == WA_FMT_VOPC && !(o->kind == WA_OPND_SPECIAL && o->id == WA_SPECIAL_VCC))
                return 1;
            continue;
        }
        if (strcmp(spec->name, "src0") == 0)
            continue;
        if (strcmp(spec->name, "mask") == 0) {
            if (!(o->kind == WA_OPND_SPECIAL && o->id == WA_SPECIAL_VCC))
                return 1;
            continue;
        }
        if (!(is_reg(o) && o->reg_class == WA_REG_VGPR))
            return 1;
    }
    return 0;
}

static int same_scalar(const wa_operand *a, const wa_operand *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == WA_OPND_SPECIAL)
        return a->id == b->id;
    if (a->kind == WA_OPND_VIRT)
        return a->id == b->id && a->first == b->first && a->count == b->count;
    return a->id == b->id && a->count == b->count;
}

static int fits(const pp *P, unsigned op, const wa_operand *ops, unsigned nops)
{
    const wa_program *prog = P->prog;
    const wa_isa_info *info = wa_isa(op);
    if (!wa_isa_available(op, prog->target) || nops != info->num_operands)
        return 0;
    int is_valu = info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2 ||
                  info->format == WA_FMT_VOPC || info->format == WA_FMT_VOP3 ||
                  info->format == WA_FMT_VOP3P;
    const wa_operand *scalars[WA_ISA_MAX_OPERANDS];
    unsigned nscalars = 0, literals = 0;
    uint32_t lit_bits = 0;
    for (unsigned k = 0; k < nops; k++) {
        const wa_isa_operand *spec = &info->operands[k];
        const wa_operand *o = &ops[k];
        unsigned cls = spec->classes;
        switch (o->kind) {
        case WA_OPND_VIRT:
        case WA_OPND_PHYS:
            if (!((o->reg_class == WA_REG_VGPR && (cls & WA_OC_VGPR)) ||
                  (o->reg_class == WA_REG_SGPR && (cls & WA_OC_SGPR)) ||
                  (o->reg_class == WA_REG_AGPR && (cls & WA_OC_AGPR))))
                return 0;
            if (spec->size && o->count != spec->size)
                return 0;
            if (o->count > 1) {
                unsigned need = wa_target_tuple_align(prog->target, (wa_reg_class)o->reg_class,
                                                      o->count);
                if (need > 1) {
                    if (o->kind == WA_OPND_PHYS ? o->id % need != 0
                                                : (prog->vregs[o->id].align < need || o->first % need))
                        return 0;
                }
            }
            break;
        case WA_OPND_SPECIAL:
            if (!(cls & WA_OC_SPECIAL) || o->id == WA_SPECIAL_SCC)
                return 0;
            break;
        case WA_OPND_IMM:
        case WA_OPND_FIMM: {
            if ((cls & WA_OC_IMM) && o->kind == WA_OPND_IMM) {
                if (o->imm.i < spec->imm_min || o->imm.i > spec->imm_max)
                    return 0;
                continue;
            }
            if ((cls & WA_OC_INLINE) && wa_imm_is_inline(o, (wa_data_type)spec->type))
                continue;
            uint32_t bits;
            if (!(cls & WA_OC_LITERAL) || !wa_imm_bits32(o, (wa_data_type)spec->type, &bits))
                return 0;
            if (!literals || bits != lit_bits)
                literals++;
            lit_bits = bits;
            continue;
        }
        case WA_OPND_LABEL:
            if (!(cls & WA_OC_LABEL))
                return 0;
            continue;
        case WA_OPND_OFF:
            if (!(cls & WA_OC_OFF))
                return 0;
            continue;
        default:
            return 0;
        }
        if (is_valu && spec->role != WA_ROLE_DEF &&
            (o->kind == WA_OPND_SPECIAL || o->reg_class == WA_REG_SGPR)) {
            int dup = 0;
            for (unsigned s = 0; s < nscalars; s++)
                dup |= same_scalar(scalars[s], o);
            if (!dup)
                scalars[nscalars++] = o;
        }
    }
    if (is_valu && (info->implicit_uses & WA_IMPL_VCC))
        nscalars++; /* v_div_fmas reads VCC through the constant bus */
    if (literals > 1 || (literals && needs_vop3(ops, nops, info)))
        return 0;
    if (is_valu && nscalars + literals > 1)
        return 0;
    if (info->flags & WA_IF_MFMA) {
        const wa_operand *d = &ops[0];
        for (unsigned k = 1; k < nops; k++) {
            if (!is_reg(&ops[k]) || !overlap(d, &ops[k]))
                continue;
            if (!wa_mfma_overlap_allowed(info, k, same_reg(d, &ops[k])))
                return 0;
        }
        for (unsigned k = 1; k < nops; k++)
            if ((info->operands[k].classes & WA_OC_INLINE) && is_reg(&ops[k]) && is_reg(d) &&
                ops[k].reg_class != d->reg_class)
                return 0;
    }
    return 1;
}

/* ---- bookkeeping of rewrites ------------------------------------------------------ */

/* Read (role WA_ROLE_USE) or write counts of an item's registers change by
   `delta`. A read or write that goes away from a unit on which a rewrite the
   sweep has passed was refused (P->rej) may now let it happen: another round.
   So may a write that goes away and leaves a virtual register a single
   definition: reads the sweep has passed may now take its constant or copy. */
static void refs_adjust(pp *P, unsigned item, unsigned role, int delta, int check)
{
    const wa_instr *in = &P->prog->instrs[item];
    const wa_isa_info *info = wa_isa(in->op);
    unsigned n = nops_of(in, info);
    for (unsigned k = 0; k < n; k++) {
        const wa_operand *o = &in->ops[k];
        if (!(wa_instr_role(in, info, k) & role))
            continue;
        unsigned b, c = opnd_units(P, o, &b);
        for (unsigned u = b; u < b + c; u++) {
            if (check && delta < 0 && P->U[u].rej) {
                P->retry = 1;
            }
            if (is_virt_unit(u)) {
                if (role == WA_ROLE_USE)
                    P->U[(u - NFIX) + NFIX].nuse += (unsigned)delta;
                else if ((P->U[(u - NFIX) + NFIX].ndef += (unsigned)delta) == 1 && check &&
                         delta < 0 && P->U[(u - NFIX) + NFIX].nuse)
                    P->retry = 1;
            }
        }
    }
}

static void uses_adjust(pp *P, unsigned item, int delta)
{
    refs_adjust(P, item, WA_ROLE_USE, delta, 0);
}

/* 1 when the item is the only definition of some virtual register unit it
   writes: a self-move or `x = x + 0` that is x's only definition must stay, or
   x would be read with no definition at all. */
static int only_definition(pp *P, unsigned item)
{
    const wa_instr *in = &P->prog->instrs[item];
    const wa_isa_info *info = wa_isa(in->op);
    unsigned n = nops_of(in, info);
    for (unsigned k = 0; k < n; k++) {
        if (!(wa_instr_role(in, info, k) & WA_ROLE_DEF))
            continue;
        unsigned b, c = opnd_units(P, &in->ops[k], &b);
        for (unsigned u = b; u < b + c; u++)
            if (is_virt_unit(u) && P->U[u].ndef <= 1)
                return 1;
    }
    return 0;
}

/* Removes an item (the items are compacted at the end of the round). `gone`:
   its reads disappear (0: they move to the instruction that replaces it). */
static wa_status erase_item_as(pp *P, unsigned item, int gone)
{
    if (P->iflags[item] & F_ERASED)
        return WA_OK;
    refs_adjust(P, item, WA_ROLE_USE, -1, gone);
    refs_adjust(P, item, WA_ROLE_DEF, -1, 1);
    P->iflags[item] |= F_ERASED;
    P->st->removed++;
    P->changes++;
    return WA_OK;
}

static wa_status erase_item(pp *P, unsigned item)
{
    return erase_item_as(P, item, 1);
}

static void mark_changed(pp *P, unsigned item)
{
    P->iflags[item] |= F_CHANGED;
    P->changes++;
}

/* Replaces an item in place. Registers it read and the replacement does not
   count as reads gone (see refs_adjust). */
static wa_status replace_item(pp *P, unsigned item, unsigned op, const wa_operand *ops, unsigned nops)
{
    wa_instr *in = &P->prog->instrs[item];
    const wa_isa_info *info = wa_isa(in->op);
    for (unsigned k = 0; k < nops_of(in, info) && !P->retry; k++) {
        unsigned b = 0, c = (wa_instr_role(in, info, k) & WA_ROLE_USE) ? opnd_units(P, &in->ops[k], &b) : 0;
        for (unsigned u = b; c && u < b + c && !P->retry; u++) {
            if (!P->U[u].rej)
                continue;
            int kept = 0;
            for (unsigned q = 0; q < nops && !kept; q++) {
                unsigned b2, c2 = opnd_units(P, &ops[q], &b2);
                kept = q > 0 && c2 && u >= b2 && u < b2 + c2;
            }
            P->retry |= !kept;
        }
    }
    uses_adjust(P, item, -1);
    wa_status st = wa_instr_replace(P->prog, item, (wa_opcode)op, ops, nops, NULL);
    uses_adjust(P, item, +1);
    mark_changed(P, item);
    return st;
}

static wa_status touch(pp *P, unsigned item)
{
    P->iflags[item] |= F_TOUCHED;
    if (P->iflags[item] & F_LISTED)
        return WA_OK;
    if (WA_GROW(P->ctx, P->touched, P->captouched, P->ntouched + 1))
        return wa_error_nomem(P->ctx);
    P->iflags[item] |= F_LISTED;
    P->touched[P->ntouched++] = item;
    return WA_OK;
}

/* ---- what instructions are ---------------------------------------------------------- */

static int is_const_writer_op(unsigned op)
{
    if (wa_isa(op)->flags & WA_IF_MOVE)
        return 1;
    for (unsigned k = 0; k < N_ELEMS(const_writers); k++)
        if (const_writers[k] == op)
            return 1;
    return 0;
}

/* A move of an immediate into one register: its 32-bit value. */
static int const_write(const wa_instr *in, uint32_t *bits)
{
    const wa_isa_info *info = wa_isa(in->op);
    if (in->nops != 2 || info->num_operands != 2 || !is_const_writer_op(in->op) ||
        (in->mods.flags & WA_MOD_DPP))
        return 0;
    if (!is_reg(&in->ops[0]) || in->ops[0].count != 1 || !is_imm(&in->ops[1]) ||
        (info->operands[1].type != WA_TY_B32 && info->operands[1].type != WA_TY_F32))
        return 0;
    return wa_imm_bits32(&in->ops[1], (wa_data_type)info->operands[1].type, bits);
}

/* A register-to-register move (same size, no overlap). */
static int is_copy(const wa_instr *in)
{
    const wa_isa_info *info = wa_isa(in->op);
    return (info->flags & WA_IF_MOVE) && !(in->mods.flags & WA_MOD_DPP) && in->nops == 2 &&
           info->num_operands == 2 &&
           is_reg(&in->ops[0]) && is_reg(&in->ops[1]) && in->ops[0].count == in->ops[1].count &&
           !overlap(&in->ops[0], &in->ops[1]);
}

static int in_block(unsigned v, unsigned first)
{
    return v > first; /* item + 1 > first  <=>  item >= first */
}

/* The constant a 1-register read of unit `u` at `item` sees, as the move's
   immediate operand (*src) and its 32-bit value. Either the reaching definition
   in the block is a constant move (for VGPRs/AGPRs one made with the entry EXEC,
   which wrote every lane), or `u` is virtual with that move as its only
   definition anywhere (then every read sees the constant or nothing defined). */
static int const_of(const pp *P, unsigned u, unsigned first, const wa_operand **src, uint32_t *bits)
{
    const wa_program *prog = P->prog;
    unsigned d = P->U[u].ldef;
    if (in_block(d, first) && P->U[u].lmove && !(P->iflags[d - 1] & F_ERASED)) {
        const wa_instr *m = &prog->instrs[d - 1];
        if (const_write(m, bits) && unit1(P, &m->ops[0]) == u &&
            !(P->partial[d - 1] && is_lane_class(m->ops[0].reg_class))) {
            *src = &m->ops[1];
            return 1;
        }
    }
    if (is_virt_unit(u) && P->U[(u - NFIX) + NFIX].ndef == 1 && P->U[(u - NFIX) + NFIX].kconst) {
        unsigned di = P->U[(u - NFIX) + NFIX].defitem;
        if (di < P->n && !(P->iflags[di] & F_ERASED)) {
            const wa_instr *m = &prog->instrs[di];
            if (const_write(m, bits) && unit1(P, &m->ops[0]) == u) {
                *src = &m->ops[1];
                return 1;
            }
        }
    }
    return 0;
}

/* The 32-bit value operand k of `in` holds, when known. */
static int known_bits(const pp *P, const wa_instr *in, unsigned k, unsigned first, uint32_t *bits)
{
    const wa_isa_info *info = wa_isa(in->op);
    const wa_operand *o = &in->ops[k];
    wa_data_type ty = (wa_data_type)info->operands[k].type;
    if (ty != WA_TY_B32 && ty != WA_TY_F32)
        return 0;
    if (is_imm(o))
        return wa_imm_bits32(o, ty, bits);
    if (!is_reg(o) || o->count != 1)
        return 0;
    const wa_operand *src;
    return const_of(P, unit1(P, o), first, &src, bits);
}

/* The item that defined the constant `const_of` found (for bookkeeping). */
static unsigned const_item(const pp *P, unsigned u, unsigned first)
{
    unsigned d = P->U[u].ldef;
    uint32_t b;
    if (in_block(d, first) && !(P->iflags[d - 1] & F_ERASED) && const_write(&P->prog->instrs[d - 1], &b) &&
        unit1(P, &P->prog->instrs[d - 1].ops[0]) == u &&
        !(P->partial[d - 1] && is_lane_class(P->prog->instrs[d - 1].ops[0].reg_class)))
        return d - 1;
    return is_virt_unit(u) ? P->U[(u - NFIX) + NFIX].defitem : WA_NONE;
}

/* ---- fixed-unit liveness -------------------------------------------------------------- */

static void set_add(uint64_t *s, unsigned u) { s[u >> 6] |= 1ull << (u & 63); }
static void set_del(uint64_t *s, unsigned u) { s[u >> 6] &= ~(1ull << (u & 63)); }
static int set_has(const uint64_t *s, unsigned u) { return (int)(s[u >> 6] >> (u & 63) & 1u); }

/* One item, backwards: `live` goes from after the item to before it; records
   which operands' values die here (bit k: operand k, fixed units only) and
   whether SCC is live after the item. */
static uint8_t live_step(const irefs *r, uint64_t *live)
{
    uint8_t kill = 0x3F, reads = 0;
    for (unsigned q = 0; q < r->n; q++) {
        const urange *x = &r->r[q];
        if (!x->use || x->op >= 6 || is_virt_unit(x->base))
            continue;
        reads |= (uint8_t)(1u << x->op);
        for (unsigned u = x->base; u < x->base + x->count; u++) {
            if (!set_has(live, u))
                continue;
            int redefined = 0;
            for (unsigned e = 0; e < r->n && !redefined; e++)
                redefined = r->r[e].full && u >= r->r[e].base && u < r->r[e].base + r->r[e].count;
            if (!redefined)
                kill &= (uint8_t)~(1u << x->op);
        }
    }
    uint8_t lv = (uint8_t)((kill & reads) | (set_has(live, WA_UNIT_SCC) ? LV_SCC : 0));
    for (unsigned q = 0; q < r->n; q++) {
        const urange *x = &r->r[q];
        if (x->full && !is_virt_unit(x->base))
            for (unsigned u = x->base; u < x->base + x->count; u++)
                set_del(live, u);
    }
    for (unsigned q = 0; q < r->n; q++) {
        const urange *x = &r->r[q];
        if (x->use && !is_virt_unit(x->base))
            for (unsigned u = x->base; u < x->base + x->count; u++)
                set_add(live, u);
    }
    return lv;
}

/* Pass 1, forward over every item: def and use counts of the virtual units;
   the items that name a fixed unit (other than the implicit EXEC read of vector
   instructions), or that a rewrite may ask about SCC, are flagged F_FIX and
   listed per block for the liveness; whether any item writes EXEC. In the first
   round also the operand checks and the instruction count. */
static wa_status count_refs(pp *P, int first_round)
{
    wa_context *ctx = P->ctx;
    const wa_cfg *cfg = &P->cfg;
    const wa_program *prog = P->prog;
    unsigned nb = cfg->nblocks, nfix = 0;
    P->fixlist = wa_tmp_alloc(ctx, (prog->ninstrs + 1u) * sizeof(unsigned));
    P->fixoff = wa_tmp_calloc(ctx, nb + 1, sizeof(unsigned));
    P->exec_read = wa_tmp_calloc(ctx, nb + 1, 1);
    if (!P->fixlist || !P->fixoff || !P->exec_read)
        return wa_error_nomem(ctx);
    for (unsigned b = 0; b < nb; b++) {
        P->fixoff[b] = nfix;
        for (unsigned i = cfg->first[b]; i <= cfg->last[b]; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            if (info->flags & WA_IF_PSEUDO)
                continue;
            int fix = (info->implicit_uses & ~(unsigned)WA_IMPL_EXEC) || info->implicit_defs ||
                      (info->flags & WA_IF_REL_M0) || P->scc_op[in->op];
            P->writes_exec |= (info->implicit_defs & WA_IMPL_EXEC) != 0;
            unsigned n = nops_of(in, info);
            for (unsigned k = 0; k < n; k++) {
                const wa_operand *o = &in->ops[k];
                if (o->kind == WA_OPND_PHYS || o->kind == WA_OPND_SPECIAL) {
                    fix = 1;
                    if (o->kind == WA_OPND_SPECIAL) {
                        unsigned sb;
                        P->writes_exec |= (wa_instr_role(in, info, k) & WA_ROLE_DEF) &&
                                          opnd_units(P, o, &sb) && sb >= WA_UNIT_EXEC_LO &&
                                          sb <= WA_UNIT_EXEC_HI;
                    } else if (first_round) {
                        unsigned limit = WA_PHYS_LIMIT(o->reg_class);
                        if (o->id >= limit || o->count > limit - o->id)
                            return wa_error(ctx, WA_E_INVALID, wa_instr_loc(prog, in),
                                            "peephole: operand %u names a register outside the register file",
                                            k);
                    }
                    continue;
                }
                if (o->kind != WA_OPND_VIRT)
                    continue;
                /* the builders keep virtual operands inside their registers */
                unsigned role = wa_instr_role(in, info, k);
                unit_info *x = &P->U[P->map.vbase[o->id] + o->first];
                for (unsigned c = 0; c < o->count; c++) {
                    if (role & WA_ROLE_USE)
                        x[c].nuse++;
                    if ((role & WA_ROLE_DEF) && x[c].ndef++ == 0)
                        x[c].defitem = i;
                }
                if (k == 0 && P->const_op[in->op] && n == 2 && is_imm(&in->ops[1]))
                    x[0].kconst = 1;
            }
            if (first_round)
                P->ninstrs++;
            if (fix) {
                P->iflags[i] |= F_FIX;
                P->fixlist[nfix++] = i;
            } else if (info->implicit_uses & WA_IMPL_EXEC) {
                P->exec_read[b] = 1;
            }
        }
    }
    P->fixoff[nb] = nfix;
    return WA_OK;
}

/* Pass 2, the fixed units: per block the units read before being written (use)
   and those written in full (def) from the listed items (and EXEC read where a
   vector instruction is: conservatively at the block's start); live-out sets by
   iterating live_out(b) = U over successors s of use(s) U (live_out(s) - def(s));
   then backwards through each block's listed items for the kills and SCC
   liveness. */
static wa_status analyze(pp *P)
{
    wa_context *ctx = P->ctx;
    const wa_cfg *cfg = &P->cfg;
    unsigned nb = cfg->nblocks;
    irefs r;
    uint64_t *use = wa_tmp_calloc(ctx, (size_t)nb * FIXW + 1, sizeof(uint64_t));
    uint64_t *def = wa_tmp_calloc(ctx, (size_t)nb * FIXW + 1, sizeof(uint64_t));
    uint64_t *out = wa_tmp_calloc(ctx, (size_t)nb * FIXW + 1, sizeof(uint64_t));
    if (!use || !def || !out) {
        wa_tmp_free(ctx, use);
        wa_tmp_free(ctx, def);
        wa_tmp_free(ctx, out);
        return wa_error_nomem(ctx);
    }
    const wa_program *prog = P->prog;
    for (unsigned b = 0; b < nb; b++) {
        uint64_t *ub = use + (size_t)b * FIXW, *db = def + (size_t)b * FIXW;
        if (P->exec_read[b]) {
            set_add(ub, WA_UNIT_EXEC_LO);
            set_add(ub, WA_UNIT_EXEC_HI);
        }
        for (unsigned f = P->fixoff[b]; f < P->fixoff[b + 1]; f++) {
            get_refs(P, P->fixlist[f], &r);
            for (unsigned q = 0; q < r.n; q++) {
                const urange *x = &r.r[q];
                if (x->use && !is_virt_unit(x->base))
                    for (unsigned u = x->base; u < x->base + x->count; u++)
                        if (!set_has(db, u))
                            set_add(ub, u);
            }
            for (unsigned q = 0; q < r.n; q++)
                if (r.r[q].full && !is_virt_unit(r.r[q].base))
                    for (unsigned u = r.r[q].base; u < r.r[q].base + r.r[q].count; u++)
                        set_add(db, u);
        }
    }
    /* blocks in reverse order until nothing changes */
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned b = nb; b-- > 0;) {
            uint64_t *ob = out + (size_t)b * FIXW;
            for (unsigned e = cfg->succ.off[b]; e < cfg->succ.off[b + 1]; e++) {
                unsigned s = cfg->succ.data[e];
                const uint64_t *us = use + (size_t)s * FIXW, *ds = def + (size_t)s * FIXW,
                               *os = out + (size_t)s * FIXW;
                for (unsigned w = 0; w < FIXW; w++) {
                    uint64_t in = us[w] | (os[w] & ~ds[w]);
                    if (in & ~ob[w]) {
                        ob[w] |= in;
                        changed = 1;
                    }
                }
            }
        }
    }
    wa_tmp_free(ctx, use);
    wa_tmp_free(ctx, def);
    /* Backwards through the flagged items only: the others name virtual registers
       and at most the implicit EXEC read, which is live everywhere that matters
       (their liveness byte stays conservative: no kills, SCC live). */
    memset(P->lv, LV_SCC, prog->ninstrs);
    for (unsigned b = 0; b < nb; b++) {
        uint64_t live[FIXW];
        memcpy(live, out + (size_t)b * FIXW, sizeof(live));
        for (unsigned f = P->fixoff[b + 1]; f-- > P->fixoff[b];) {
            get_refs(P, P->fixlist[f], &r);
            P->lv[P->fixlist[f]] = live_step(&r, live);
        }
    }
    P->live_out = out;
    return WA_OK;
}

/* ---- physical moves whose reads were all rewritten ---------------------------------- */

static void pend_clear(pp *P, unsigned u)
{
    P->pend[u] = 0;
    P->ptouched[u] = 0;
}

/* The value of fixed unit `u` written by a pending move is dead: the move goes if a
   read of it was rewritten (and no other read remained). */
static wa_status pend_dead(pp *P, unsigned u)
{
    wa_status st = WA_OK;
    if (P->pend[u] && P->ptouched[u]) {
        st = erase_item(P, P->pend[u] - 1);
        P->st->moves_removed++;
    }
    pend_clear(P, u);
    return st;
}

/* End of block: pending moves whose value does not leave the block go. */
static wa_status pend_block_end(pp *P, unsigned b)
{
    const uint64_t *out = P->live_out + (size_t)b * FIXW;
    wa_status st = WA_OK;
    for (unsigned k = 0; k < P->npend && !st; k++) {
        unsigned u = P->pend_list[k];
        if (!P->pend[u])
            continue;
        if (set_has(out, u))
            pend_clear(P, u);
        else
            st = pend_dead(P, u);
    }
    P->npend = 0;
    return st;
}

/* ---- the rewrites ---------------------------------------------------------------------- */

/* Read operand k of item j: the inline constant it holds, or the source of the
   copy it reads. */
typedef struct subst_note {
    unsigned unit;     /* fixed unit whose pending move lost a read, or 0 */
    int kill;
} subst_note;

static wa_status try_substitute(pp *P, unsigned j, unsigned k, unsigned first, subst_note *note)
{
    wa_instr *in = &P->prog->instrs[j];
    const wa_isa_info *info = wa_isa(in->op);
    const wa_isa_operand *spec = &info->operands[k];
    wa_operand *o = &in->ops[k];
    wa_operand cand[WA_ISA_MAX_OPERANDS];
    note->unit = 0;
    if (!is_reg(o))
        return WA_OK;
    unsigned u0, c = opnd_units(P, o, &u0);
    if (c == 0)
        return WA_OK;
    /* a constant into a position that takes inline constants of a 32-bit type */
    if (!(P->flags & WA_PEEPHOLE_NO_FOLD) && c == 1 && (spec->classes & WA_OC_INLINE) &&
        (spec->type == WA_TY_B32 || spec->type == WA_TY_F32)) {
        const wa_operand *src;
        uint32_t bits, b2;
        if (const_of(P, u0, first, &src, &bits)) {
            wa_operand imm = *src;
            wa_data_type ty = (wa_data_type)spec->type;
            if (!wa_imm_is_inline(&imm, ty) || !wa_imm_bits32(&imm, ty, &b2) || b2 != bits) {
                /* the value as a small integer */
                imm = wa_opnd_imm((int32_t)bits);
                if (!wa_imm_is_inline(&imm, ty) || !wa_imm_bits32(&imm, ty, &b2) || b2 != bits)
                    goto copies;
            }
            memcpy(cand, in->ops, in->nops * sizeof(wa_operand));
            cand[k] = imm;
            if (!fits(P, in->op, cand, in->nops))
                goto copies;
            unsigned src_item = const_item(P, u0, first);
            P->retry |= P->U[u0].rej;
            if (is_virt_unit(u0)) {
                P->U[(u0 - NFIX) + NFIX].nuse--;
                wa_status st = touch(P, src_item);
                if (st)
                    return st;
            } else if (P->pend[u0] == src_item + 1) {
                note->unit = u0;
                note->kill = (P->lv[j] >> k) & 1u;
            }
            *o = imm;
            P->st->folded++;
            mark_changed(P, j);
            return WA_OK;
        }
    }
copies:
    if (P->flags & WA_PEEPHOLE_NO_MOVES)
        return WA_OK;
    {
        unsigned d = P->U[u0].ldef;
        if (!in_block(d, first) || !P->U[u0].lmove || (P->iflags[d - 1] & F_ERASED))
            return WA_OK;
        const wa_instr *m = &P->prog->instrs[d - 1];
        if (!P->const_op[m->op] || !is_copy(m) ||
            (P->partial[d - 1] && is_lane_class(m->ops[0].reg_class)))
            return WA_OK;
        /* the read lies inside the move's destination, every unit written there */
        unsigned db, dc = opnd_units(P, &m->ops[0], &db);
        if (u0 < db || u0 + c > db + dc)
            return WA_OK;
        for (unsigned q = 0; q < c; q++)
            if (P->U[u0 + q].ldef != d)
                return WA_OK;
        wa_operand x = wa_opnd_sub(m->ops[1], u0 - db, c);
        if (x.kind == WA_OPND_NONE)
            return WA_OK;
        /* the source still holds what the move copied */
        unsigned sb, sc = opnd_units(P, &x, &sb);
        for (unsigned q = 0; q < sc; q++)
            if (P->U[sb + q].ldef >= d)
                return WA_OK;
        memcpy(cand, in->ops, in->nops * sizeof(wa_operand));
        cand[k] = x;
        if (!fits(P, in->op, cand, in->nops))
            return WA_OK;
        for (unsigned q = 0; q < c; q++)
            P->retry |= P->U[u0 + q].rej;
        if (is_virt_unit(u0))
            for (unsigned q = 0; q < c; q++)
                P->U[(u0 + q - NFIX) + NFIX].nuse--;
        if (is_virt_unit(sb))
            for (unsigned q = 0; q < sc; q++)
                P->U[(sb + q - NFIX) + NFIX].nuse++;
        if (is_virt_unit(u0)) {
            wa_status st = touch(P, d - 1);
            if (st)
                return st;
        } else if (c == 1 && P->pend[u0] == d) {
            note->unit = u0;
            note->kill = (P->lv[j] >> k) & 1u;
        }
        *o = x;
        mark_changed(P, j);
    }
    return WA_OK;
}

/* Implicit registers a replacement would newly write must be dead after j
   (only SCC is tracked); those it stops writing too. */
static int implicit_ok(const pp *P, unsigned j, unsigned old_op, unsigned new_op)
{
    unsigned diff = wa_isa(old_op)->implicit_defs ^ wa_isa(new_op)->implicit_defs;
    if (diff & ~(unsigned)WA_IMPL_SCC)
        return 0;
    return !(diff & WA_IMPL_SCC) || !(P->lv[j] & LV_SCC);
}

/* Returns 1 when j was erased. */
static wa_status try_identity(pp *P, unsigned j, unsigned first, int *erased)
{
    wa_instr *in = &P->prog->instrs[j];
    *erased = 0;
    if (P->ident_of[in->op]) {
        const ident_pat *ip = &ident_pats[P->ident_of[in->op] - 1];
        for (unsigned alt = 0; alt < (ip->comm ? 2u : 1u); alt++) {
            unsigned chk = alt ? ip->pass : ip->check, pass = alt ? ip->check : ip->pass;
            uint32_t bits;
            if (!known_bits(P, in, chk, first, &bits) || (bits & ip->mask) != (ip->value & ip->mask))
                continue;
            const wa_operand *d = &in->ops[0], *x = &in->ops[pass];
            unsigned mov = P->mov_for[d->reg_class & 3u];
            if (!is_reg(d) || d->count != 1 || !mov || !implicit_ok(P, j, in->op, mov))
                return WA_OK;
            if (same_reg(d, x)) {
                if (only_definition(P, j))
                    return WA_OK;
                P->st->folded++;
                *erased = 1;
                return erase_item(P, j);
            }
            P->st->folded++;
            wa_operand ops[2] = { *d, *x };
            if (!fits(P, mov, ops, 2)) {
                P->st->folded--;
                return WA_OK;
            }
            if (is_reg(&in->ops[chk]) && is_virt_unit(unit1(P, &in->ops[chk]))) {
                wa_status st = touch(P, const_item(P, unit1(P, &in->ops[chk]), first));
                if (st)
                    return st;
            }
            return replace_item(P, j, mov, ops, 2);
        }
    }
    return WA_OK;
}

static wa_status try_mul(pp *P, unsigned j, unsigned first)
{
    wa_instr *in = &P->prog->instrs[j];
    if (P->mul_of[in->op] && in->nops == 3) {
        const mul_pat *mp = &mul_pats[P->mul_of[in->op] - 1];
        for (unsigned c = 1; c <= 2; c++) {
            uint32_t bits;
            if (!known_bits(P, in, c, first, &bits) || bits < 2 || (bits & (bits - 1)))
                continue;
            if (!implicit_ok(P, j, in->op, mp->shift))
                return WA_OK;
            unsigned n = 0;
            while (!(bits >> n & 1u))
                n++;
            wa_operand ops[3];
            ops[0] = in->ops[0];
            ops[mp->amount] = wa_opnd_imm(n);
            ops[mp->value] = in->ops[3 - c];
            if (!fits(P, mp->shift, ops, 3))
                continue;
            if (is_reg(&in->ops[c]) && is_virt_unit(unit1(P, &in->ops[c]))) {
                wa_status st = touch(P, const_item(P, unit1(P, &in->ops[c]), first));
                if (st)
                    return st;
            }
            P->st->folded++;
            return replace_item(P, j, mp->shift, ops, 3);
        }
    }
    return WA_OK;
}

/* The read operands of `in` that name unit u. */
static unsigned reads_of(const pp *P, const wa_instr *in, unsigned u)
{
    const wa_isa_info *info = wa_isa(in->op);
    unsigned n = nops_of(in, info), count = 0;
    for (unsigned k = 0; k < n; k++) {
        if (!(wa_instr_role(in, info, k) & WA_ROLE_USE))
            continue;
        unsigned b, c = opnd_units(P, &in->ops[k], &b);
        count += c && u >= b && u < b + c;
    }
    return count;
}

/* No read operand of item i was redefined after i (except t itself, which i writes
   and the fusion stops writing), and EXEC was not written after i. */
static int sources_intact(pp *P, unsigned i, unsigned t_unit)
{
    const wa_instr *in = &P->prog->instrs[i];
    const wa_isa_info *info = wa_isa(in->op);
    unsigned n = nops_of(in, info);
    for (unsigned k = 1; k < n; k++) {
        unsigned b, c = opnd_units(P, &in->ops[k], &b);
        for (unsigned u = b; u < b + c; u++)
            if (P->U[u].ldef > i + 1 || (P->U[u].ldef == i + 1 && u != t_unit)) {
                P->U[u].rej = 1;
                return 0;
            }
    }
    return P->U[WA_UNIT_EXEC_LO].ldef <= i && P->U[WA_UNIT_EXEC_HI].ldef <= i;
}

static wa_status try_fuse(pp *P, unsigned j, unsigned first)
{
    wa_instr *in = &P->prog->instrs[j];
    unsigned mask = P->fuse_of[in->op];
    for (unsigned t = 0; mask && t < N_ELEMS(fuse_pats); t++) {
        const fuse_pat *fp = &fuse_pats[t];
        if (!(mask >> t & 1u) || in->nops != 3)
            continue;
        for (unsigned tp = 1; tp <= 2; tp++) {
            if (!(fp->t_pos >> tp & 1u))
                continue;
            const wa_operand *to = &in->ops[tp];
            if (!is_reg(to) || to->count != 1)
                continue;
            unsigned u = unit1(P, to), d = P->U[u].ldef;
            if (!in_block(d, first) || (P->iflags[d - 1] & F_ERASED))
                continue;
            unsigned i = d - 1;
            const wa_instr *fi = &P->prog->instrs[i];
            if (fi->op != fp->first || fi->nops != 3 || (fi->mods.flags & WA_MOD_DPP) || !is_reg(&fi->ops[0]) ||
                fi->ops[0].count != 1 || unit1(P, &fi->ops[0]) != u)
                continue;
            /* t has no other reader */
            if (reads_of(P, in, u) != 1)
                continue;
            if (is_virt_unit(u) ? P->U[(u - NFIX) + NFIX].nuse != 1
                                : !(P->lv[j] >> tp & 1u) || P->U[u].lread > i + 1) {
                P->U[u].rej = 1; /* another reader: it may go later */
                continue;
            }
            if (!sources_intact(P, i, u))
                continue;
            wa_operand ops[4];
            ops[0] = in->ops[0];
            ops[1] = fi->ops[fp->src[0]];
            ops[2] = fi->ops[fp->src[1]];
            ops[3] = in->ops[3 - tp];
            if (!fits(P, fp->fused, ops, 4))
                continue;
            wa_status st = erase_item_as(P, i, 0); /* its reads move to j */
            if (!st)
                st = replace_item(P, j, fp->fused, ops, 4);
            /* t's read at j is gone; i's reads moved to j (erase_item dropped them) */
            P->st->fused++;
            return st;
        }
    }
    return WA_OK;
}

/* An MFMA whose accumulator C was zeroed in this block, every component by a
   move of 0 made with the entry EXEC and read by nothing since, reads the
   inline constant 0 instead; the zero writes go. The zeros must have no reader
   after the MFMA: D identical to C overwrites them (the MFMA must not run under
   a partial EXEC, which would keep them in inactive lanes), otherwise nothing
   else may read the registers (virtual: no other read anywhere; physical: the
   values die at the MFMA). */
static wa_status try_acc_init(pp *P, unsigned j, unsigned first)
{
    wa_instr *in = &P->prog->instrs[j];
    const wa_isa_info *info = wa_isa(in->op);
    if (!(info->flags & WA_IF_MFMA) || P->partial[j])
        return WA_OK;
    unsigned c = WA_NONE;
    for (unsigned k = 1; k < nops_of(in, info); k++)
        if ((info->operands[k].role & WA_ROLE_USE) && (info->operands[k].classes & WA_OC_INLINE))
            c = k;
    if (c == WA_NONE || !is_reg(&in->ops[c]))
        return WA_OK;
    const wa_operand *co = &in->ops[c];
    int same = same_reg(&in->ops[0], co);
    if (!same && overlap(&in->ops[0], co))
        return WA_OK;
    unsigned units[32], z[32], cb;
    unsigned n = opnd_units(P, co, &cb);
    if (n > 32)
        return WA_OK;
    for (unsigned q = 0; q < n; q++) {
        unsigned u = units[q] = cb + q, d = P->U[u].ldef;
        uint32_t bits;
        if (!in_block(d, first) || (P->iflags[d - 1] & F_ERASED) || P->partial[d - 1])
            return WA_OK;
        const wa_instr *m = &P->prog->instrs[d - 1];
        if (!const_write(m, &bits) || bits != 0 || unit1(P, &m->ops[0]) != u)
            return WA_OK;
        if (P->U[u].lread >= d || reads_of(P, in, u) != 1 ||
            (!same && (is_virt_unit(u) ? P->U[(u - NFIX) + NFIX].nuse != 1 : !(P->lv[j] >> c & 1u)))) {
            P->U[u].rej = 1; /* other readers of the zeros: they may go later */
            return WA_OK;
        }
        z[q] = d - 1;
    }
    wa_operand ops[WA_ISA_MAX_OPERANDS];
    memcpy(ops, in->ops, in->nops * sizeof(wa_operand));
    ops[c] = wa_opnd_imm(0);
    if (!fits(P, in->op, ops, in->nops))
        return WA_OK;
    wa_status st = replace_item(P, j, in->op, ops, in->nops);
    for (unsigned q = 0; q < n && !st; q++) {
        if (!is_virt_unit(units[q]))
            pend_clear(P, units[q]);
        st = erase_item(P, z[q]);
    }
    P->st->acc_inits_removed++;
    return st;
}

/* A copy of virtual registers that can replace its destination everywhere: the
   copy and its source's definitions are the only definitions of their units,
   each runs at most once (outside every loop of a reducible CFG), the source's
   definitions dominate the copy, and the copy is made with the entry EXEC. Then
   after the copy the two are equal forever, and before it the destination holds
   nothing defined. */
static wa_status try_global_rename(pp *P, unsigned m)
{
    const wa_instr *in = &P->prog->instrs[m];
    const wa_cfg *cfg = &P->cfg;
    if (!P->const_op[in->op] || !P->reducible || !is_copy(in) || in->ops[0].kind != WA_OPND_VIRT ||
        in->ops[1].kind != WA_OPND_VIRT || P->partial[m])
        return WA_OK;
    unsigned bm = cfg->item_block[m];
    if (cfg->rpo_index[bm] == WA_NONE || cfg->block_loop[bm] != WA_NONE)
        return WA_OK;
    unsigned db, sb, n = opnd_units(P, &in->ops[0], &db);
    opnd_units(P, &in->ops[1], &sb);
    for (unsigned q = 0; q < n; q++) {
        unsigned dv = db + q - NFIX, sv = sb + q - NFIX;
        if (P->U[(dv) + NFIX].ndef != 1 || P->U[(dv) + NFIX].defitem != m || P->U[(sv) + NFIX].ndef != 1)
            return WA_OK;
        unsigned p = P->U[(sv) + NFIX].defitem;
        if (p >= P->n || (P->iflags[p] & F_ERASED))
            return WA_OK;
        unsigned bp = cfg->item_block[p];
        if (cfg->rpo_index[bp] == WA_NONE || cfg->block_loop[bp] != WA_NONE)
            return WA_OK;
        if (bp == bm ? p >= m : !wa_cfg_dominates(cfg, bp, bm))
            return WA_OK;
    }
    if (!P->ren) {
        P->ren = wa_tmp_calloc(P->ctx, 2u * (P->map.count - NFIX + 1u), sizeof(unsigned));
        if (!P->ren)
            return wa_error_nomem(P->ctx);
    }
    for (unsigned q = 0; q < n; q++) {
        P->ren[2u * (db + q - NFIX)] = in->ops[1].id + 1;
        P->ren[2u * (db + q - NFIX) + 1] = in->ops[1].first + q;
    }
    P->any_ren = 1;
    return touch(P, m);
}

/* Retreating edges all go to a dominator: every cycle is a natural loop. */
static int cfg_reducible(const wa_cfg *cfg)
{
    for (unsigned b = 0; b < cfg->nblocks; b++) {
        if (cfg->rpo_index[b] == WA_NONE)
            continue;
        for (unsigned e = cfg->succ.off[b]; e < cfg->succ.off[b + 1]; e++) {
            unsigned s = cfg->succ.data[e];
            if (cfg->rpo_index[s] <= cfg->rpo_index[b] && !wa_cfg_dominates(cfg, s, b))
                return 0;
        }
    }
    return 1;
}

/* ---- the sweep ------------------------------------------------------------------------------ */

/* Records what item j reads and writes: last reads and definitions, pending
   physical moves. */
static wa_status record(pp *P, unsigned j, const subst_note *notes, unsigned nnotes)
{
    irefs r;
    wa_status st = WA_OK;
    const wa_instr *in = &P->prog->instrs[j];
    const wa_isa_info *info = wa_isa(in->op);
    if (info->flags & WA_IF_REL_M0) {
        get_refs(P, j, &r);
    } else { /* get_refs, inlined for the common case */
        unsigned n = nops_of(in, info), m = 0;
        for (unsigned k = 0; k < n; k++) {
            unsigned base, c = opnd_units(P, &in->ops[k], &base);
            if (!c)
                continue;
            unsigned role = wa_instr_role(in, info, k);
            urange *x = &r.r[m++];
            x->base = base;
            x->count = c;
            x->op = (uint8_t)k;
            x->use = (role & WA_ROLE_USE) != 0;
            x->def = (role & WA_ROLE_DEF) != 0;
            x->full = x->def && !x->use && !(P->partial[j] && wa_lane_masked_write(in, info, k));
        }
        if (info->implicit_uses == WA_IMPL_EXEC && !info->implicit_defs) {
            urange *x = &r.r[m++];
            x->base = WA_UNIT_EXEC_LO;
            x->count = 2;
            x->op = 0xFF;
            x->use = 1;
            x->def = x->full = 0;
            r.n = m;
        } else if (info->implicit_uses | info->implicit_defs) {
            get_refs(P, j, &r);
        } else {
            r.n = m;
        }
    }
    for (unsigned q = 0; q < r.n; q++) {
        const urange *x = &r.r[q];
        if (!x->use)
            continue;
        for (unsigned u = x->base; u < x->base + x->count; u++) {
            P->U[u].lread = j + 1;
            if (!is_virt_unit(u) && P->pend[u])
                pend_clear(P, u); /* a read that still needs the move */
        }
    }
    for (unsigned k = 0; k < nnotes && !st; k++) {
        unsigned u = notes[k].unit;
        if (!u || !P->pend[u])
            continue;
        P->ptouched[u] = 1;
        if (notes[k].kill)
            st = pend_dead(P, u);
    }
    uint8_t mv = P->const_op[in->op] && in->nops == 2 && !(in->mods.flags & WA_MOD_DPP);
    for (unsigned q = 0; q < r.n && !st; q++) {
        const urange *x = &r.r[q];
        if (!x->def)
            continue;
        for (unsigned u = x->base; u < x->base + x->count && !st; u++) {
            P->U[u].ldef = j + 1;
            P->U[u].lmove = mv;
            if (is_virt_unit(u) || !P->pend[u])
                continue;
            if (x->full)
                st = pend_dead(P, u);
            else
                pend_clear(P, u);
        }
    }
    if (st)
        return st;
    uint32_t bits;
    if (in->nops == 2 && in->ops[0].kind == WA_OPND_VIRT && P->const_op[in->op] &&
        is_imm(&in->ops[1]))
        P->U[unit1(P, &in->ops[0])].kconst = 1;
    /* a physical one-register move becomes pending */
    if (in->nops == 2 && in->ops[0].kind == WA_OPND_PHYS && in->ops[0].count == 1 &&
        P->const_op[in->op] && (const_write(in, &bits) || is_copy(in)) &&
        !(P->partial[j] && is_lane_class(in->ops[0].reg_class))) {
        unsigned u = unit1(P, &in->ops[0]);
        P->pend[u] = j + 1;
        P->ptouched[u] = 0;
        P->pend_list[P->npend++] = u;
    }
    return WA_OK;
}

static wa_status sweep(pp *P)
{
    wa_program *prog = P->prog;
    const wa_cfg *cfg = &P->cfg;
    wa_status st = WA_OK;
    for (unsigned b = 0; b < cfg->nblocks && !st; b++) {
        unsigned first = cfg->first[b];
        P->npend = 0;
        for (unsigned j = first; j <= cfg->last[b] && !st; j++) {
            wa_instr *in = &prog->instrs[j];
            const wa_isa_info *info = wa_isa(in->op);
            if ((info->flags & WA_IF_PSEUDO) || (P->iflags[j] & F_ERASED))
                continue;
            subst_note notes[WA_ISA_MAX_OPERANDS];
            unsigned nnotes = 0, n = nops_of(in, info);
            /* DPP reads src0 from other lanes and keeps vdst in masked lanes;
               M0-relative moves access registers no operand names: neither is
               rewritten (they are only recorded) */
            if ((in->mods.flags & WA_MOD_DPP) || (info->flags & WA_IF_REL_M0)) {
                st = record(P, j, notes, 0);
                continue;
            }
            /* operands */
            for (unsigned k = 0; k < n && !st; k++) {
                if (wa_instr_role(in, info, k) != WA_ROLE_USE || !is_reg(&in->ops[k]))
                    continue;
                st = try_substitute(P, j, k, first, &notes[nnotes]);
                nnotes += notes[nnotes].unit != 0;
            }
            if (st)
                break;
            /* self-moves */
            if (!(P->flags & WA_PEEPHOLE_NO_MOVES) && (info->flags & WA_IF_MOVE) && in->nops == 2 &&
                same_reg(&in->ops[0], &in->ops[1]) && !only_definition(P, j)) {
                st = erase_item(P, j);
                P->st->moves_removed++;
                /* the read of the move's source is gone */
                for (unsigned k = 0; k < nnotes && !st; k++)
                    if (P->pend[notes[k].unit]) {
                        P->ptouched[notes[k].unit] = 1;
                        if (notes[k].kill)
                            st = pend_dead(P, notes[k].unit);
                    }
                continue;
            }
            int gone = 0;
            if (!(P->flags & WA_PEEPHOLE_NO_FOLD)) {
                st = try_identity(P, j, first, &gone);
                if (!st && !gone)
                    st = try_mul(P, j, first);
            }
            if (gone) {
                for (unsigned k = 0; k < nnotes && !st; k++)
                    if (P->pend[notes[k].unit]) {
                        P->ptouched[notes[k].unit] = 1;
                        if (notes[k].kill)
                            st = pend_dead(P, notes[k].unit);
                    }
                continue;
            }
            if (!st && !(P->flags & WA_PEEPHOLE_NO_FUSE))
                st = try_fuse(P, j, first);
            if (!st && !(P->flags & WA_PEEPHOLE_NO_ACC_INIT))
                st = try_acc_init(P, j, first);
            if (!st)
                st = record(P, j, notes, nnotes);
            if (!st && !(P->flags & WA_PEEPHOLE_NO_MOVES))
                st = try_global_rename(P, j);
        }
        if (!st)
            st = pend_block_end(P, b);
    }
    return st;
}

/* Reads of renamed registers read the register they copy (chains followed). */
static wa_status apply_renames(pp *P)
{
    wa_program *prog = P->prog;
    for (unsigned j = 0; j < P->n; j++) {
        wa_instr *in = &prog->instrs[j];
        const wa_isa_info *info = wa_isa(in->op);
        if ((info->flags & WA_IF_PSEUDO) || (P->iflags[j] & F_ERASED))
            continue;
        unsigned n = nops_of(in, info);
        for (unsigned k = 0; k < n; k++) {
            wa_operand *o = &in->ops[k];
            if (o->kind != WA_OPND_VIRT || wa_instr_role(in, info, k) != WA_ROLE_USE)
                continue;
            unsigned id = 0, comp0 = 0, ok = 1;
            for (unsigned q = 0; q < o->count && ok; q++) {
                unsigned u = P->map.vbase[o->id] + o->first + q - NFIX;
                unsigned rid = 0, rc = 0, guard = 0;
                while (P->ren[2u * u] && guard++ < P->map.count) {
                    rid = P->ren[2u * u] - 1;
                    rc = P->ren[2u * u + 1];
                    u = P->map.vbase[rid] + rc - NFIX;
                }
                if (!rid && !guard) {
                    ok = 0;
                } else if (q == 0) {
                    id = rid;
                    comp0 = rc;
                } else if (rid != id || rc != comp0 + q) {
                    ok = 0;
                }
            }
            if (!ok)
                continue;
            wa_operand x = *o;
            x.id = id;
            x.first = comp0;
            x.reg_class = prog->vregs[id].cls;
            wa_operand cand[WA_ISA_MAX_OPERANDS];
            memcpy(cand, in->ops, in->nops * sizeof(wa_operand));
            cand[k] = x;
            if (!fits(P, in->op, cand, in->nops))
                continue;
            unsigned ob = P->map.vbase[o->id] + o->first - NFIX, xb = P->map.vbase[id] + comp0 - NFIX;
            for (unsigned q = 0; q < o->count; q++) {
                P->U[(ob + q) + NFIX].nuse--;
                P->U[(xb + q) + NFIX].nuse++;
            }
            *o = x;
            mark_changed(P, j);
            P->retry = 1; /* readers of the copy's source before it may rewrite now */
        }
    }
    return WA_OK;
}

/* Moves of virtual registers whose reads were rewritten and that no longer have a
   reader go (latest first, so that a chain of copies unwinds). */
static wa_status drop_dead_moves(pp *P)
{
    wa_status st = WA_OK;
    for (unsigned t = P->ntouched; t-- > 0 && !st;) {
        unsigned m = P->touched[t];
        const wa_instr *in = &P->prog->instrs[m];
        if (P->iflags[m] & F_ERASED || in->nops < 1 || in->ops[0].kind != WA_OPND_VIRT)
            continue;
        if (!(wa_isa(in->op)->flags & WA_IF_MOVE) && !is_const_writer_op(in->op))
            continue;
        unsigned base = P->map.vbase[in->ops[0].id] + in->ops[0].first - NFIX, dead = 1;
        for (unsigned q = 0; q < in->ops[0].count && dead; q++)
            dead = P->U[(base + q) + NFIX].nuse == 0;
        if (dead) {
            st = erase_item(P, m);
            P->st->moves_removed++;
        }
    }
    return st;
}

/* Instructions that only compute values nothing reads go: every result a
   virtual register without a reader, no memory access, no implicit write (SCC,
   VCC, EXEC, M0), nothing the table marks as a side effect. An erased reader
   frees its sources for the next round. */
static wa_status drop_dead_values(pp *P)
{
    const unsigned keep = WA_IF_PSEUDO | WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM |
                          WA_IF_BARRIER | WA_IF_WAITCNT | WA_IF_NOP | WA_IF_LOAD | WA_IF_STORE |
                          WA_IF_ATOMIC | WA_IF_LDS_DMA | WA_IF_SIDE_EFFECTS | WA_IF_REL_M0 |
                          WA_IF_INDIRECT;
    wa_status st = WA_OK;
    /* latest first, so a chain goes in one sweep; again while a sweep erased
       something (a reader above its source, around a loop) */
    for (int again = 1; again && !st;) {
        again = 0;
    for (unsigned m = P->n; m-- > 0 && !st;) {
        const wa_instr *in = &P->prog->instrs[m];
        const wa_isa_info *info = wa_isa(in->op);
        if ((P->iflags[m] & F_ERASED) || (info->flags & keep) || info->counters ||
            info->implicit_defs)
            continue;
        int defs = 0, dead = 1;
        for (unsigned k = 0; k < in->nops && k < info->num_operands && dead; k++) {
            if (!(wa_instr_role(in, info, k) & WA_ROLE_DEF))
                continue;
            const wa_operand *o = &in->ops[k];
            defs++;
            if (o->kind != WA_OPND_VIRT) {
                dead = 0;
                break;
            }
            unsigned base = P->map.vbase[o->id] + o->first - NFIX;
            for (unsigned q = 0; q < o->count && dead; q++)
                dead = P->U[(base + q) + NFIX].nuse == 0;
        }
        if (defs && dead) {
            st = erase_item(P, m);
            again = 1;
        }
    }
    }
    return st;
}

static void round_free(pp *P)
{
    wa_context *ctx = P->ctx;
    if (P->have_cfg)
        wa_cfg_free(&P->cfg, ctx);
    P->have_cfg = 0;
    if (P->own_partial)
        wa_tmp_free(ctx, P->partial);
    else
        wa_mem_free(ctx, P->partial);
    wa_tmp_free(ctx, P->iflags);
    wa_tmp_free(ctx, P->lv);
    wa_tmp_free(ctx, P->live_out);
    wa_tmp_free(ctx, P->fixlist);
    wa_tmp_free(ctx, P->fixoff);
    wa_tmp_free(ctx, P->exec_read);
    P->exec_read = NULL;
    P->fixlist = P->fixoff = NULL;
    P->partial = P->iflags = P->lv = NULL;
    P->own_partial = 0;
    P->live_out = NULL;
}

/* Drops the erased items in place (labels are never erased). */
static void compact(pp *P)
{
    wa_program *prog = P->prog;
    unsigned w = 0;
    for (unsigned i = 0; i < prog->ninstrs; i++)
        if (!(P->iflags[i] & F_ERASED))
            prog->instrs[w++] = prog->instrs[i];
    prog->ninstrs = w;
    prog->insert_at = WA_END;
}

/* One round: analyses, the sweep, renames, dead moves, the edits. */
static wa_status run_round(pp *P, int first_round)
{
    wa_program *prog = P->prog;
    wa_context *ctx = P->ctx;
    unsigned n = prog->ninstrs, nv = P->map.count - NFIX;
    P->n = n;
    P->changes = 0;
    P->retry = 0;
    P->ntouched = 0;
    P->npend = 0;
    P->any_ren = 0;
    memset(P->pend, 0, sizeof(P->pend));
    memset(P->ptouched, 0, sizeof(P->ptouched));
    wa_status st = wa_cfg_build(&P->cfg, prog);
    P->have_cfg = 1;
    if (st)
        return st;
    P->iflags = wa_tmp_calloc(ctx, n + 1, 1);
    P->lv = wa_tmp_alloc(ctx, n + 1u); /* set by analyze */
    if (!P->iflags || !P->lv)
        return wa_error_nomem(ctx);
    memset(P->U, 0, (P->map.count + 1u) * sizeof(unit_info));
    if (P->ren)
        memset(P->ren, 0, 2u * (nv + 1) * sizeof(unsigned));
    st = count_refs(P, first_round);
    int any_partial = 0;
    if (!st && P->writes_exec)
        st = wa_exec_partial(&P->partial, &any_partial, prog, &P->cfg);
    else if (!st) {
        P->own_partial = 1; /* no EXEC write: the entry EXEC everywhere */
        if (!(P->partial = wa_tmp_calloc(ctx, n + 1, 1)))
            st = wa_error_nomem(ctx);
    }
    if (st)
        return st;
    P->reducible = cfg_reducible(&P->cfg);
    st = analyze(P);
    if (!st)
        st = sweep(P);
    if (!st && P->any_ren)
        st = apply_renames(P);
    if (!st)
        st = drop_dead_moves(P);
    if (!st && !(P->flags & WA_PEEPHOLE_NO_DEAD))
        st = drop_dead_values(P);
    if (!st) {
        for (unsigned i = 0; i < n; i++)
            P->st->changed += (P->iflags[i] & (F_CHANGED | F_ERASED)) == F_CHANGED;
        compact(P);
    }
    return st;
}

wa_status wa_pass_peephole(wa_program *prog, const wa_peephole_options *opts, wa_pass_stats *stats)
{
    if (!prog)
        return WA_E_INVALID;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    wa_pass_stats local;
    if (opts) {
        wa_status vs = wa_check_options_version(ctx, opts->version, WA_PEEPHOLE_OPTIONS_VERSION,
                                                "wa_peephole_options");
        if (vs)
            return vs;
    }
    pp *P = wa_mem_calloc(ctx, 1, sizeof(pp));
    if (!P)
        return wa_error_nomem(ctx);
    P->prog = prog;
    P->ctx = ctx;
    P->flags = opts ? opts->flags : 0;
    /* wa_stats_begin without a second count of the items */
    P->st = stats ? stats : &local;
    memset(P->st, 0, sizeof(*P->st));
    P->st->version = WA_PASS_STATS_VERSION;
    wa_status st = WA_OK;
    if (!st)
        st = wa_unit_map_init(&P->map, prog);
    for (unsigned t = 0; t < N_ELEMS(ident_pats); t++)
        P->ident_of[ident_pats[t].op] = (uint8_t)(t + 1);
    for (unsigned t = 0; t < N_ELEMS(mul_pats); t++)
        P->mul_of[mul_pats[t].mul] = (uint8_t)(t + 1);
    for (unsigned t = 0; t < N_ELEMS(fuse_pats); t++)
        P->fuse_of[fuse_pats[t].second] |= (uint8_t)(1u << t);
    for (unsigned op = 0; op < WA_OP_COUNT_; op++)
        P->const_op[op] = (uint8_t)is_const_writer_op(op);
    for (unsigned t = 0; t < N_ELEMS(mul_pats); t++)
        P->scc_op[mul_pats[t].mul] =
            ((wa_isa(mul_pats[t].mul)->implicit_defs ^ wa_isa(mul_pats[t].shift)->implicit_defs) &
             WA_IMPL_SCC) != 0;
    for (unsigned t = 0; t < N_ELEMS(ident_pats); t++)
        P->scc_op[ident_pats[t].op] |= (wa_isa(ident_pats[t].op)->implicit_defs & WA_IMPL_SCC) != 0;
    /* the move opcode per destination class for identities: a one-register MOVE
       row whose source takes constants */
    for (unsigned op = 0; op < WA_OP_COUNT_; op++) {
        const wa_isa_info *info = wa_isa(op);
        if (!(info->flags & WA_IF_MOVE) || info->num_operands != 2 || info->operands[0].size != 1 ||
            !(info->operands[1].classes & WA_OC_INLINE))
            continue;
        unsigned c = info->operands[0].classes;
        if ((c & WA_OC_VGPR) && !P->mov_for[WA_REG_VGPR])
            P->mov_for[WA_REG_VGPR] = op;
        if ((c & WA_OC_SGPR) && !P->mov_for[WA_REG_SGPR])
            P->mov_for[WA_REG_SGPR] = op;
    }
    if (!st) {
        P->U = wa_tmp_alloc(ctx, (P->map.count + 1u) * sizeof(unit_info)); /* zeroed per round */
        if (!P->U)
            st = wa_error_nomem(ctx);
    }
    for (unsigned round = 0; !st && prog->ninstrs && round < MAX_ROUNDS; round++) {
        st = run_round(P, round == 0);
        round_free(P);
        /* another round only when a change can enable rewrites the sweep had
           already passed */
        if (!st && (P->changes == 0 || !P->retry))
            break;
    }
    round_free(P);
    wa_tmp_free(ctx, P->U);
    wa_tmp_free(ctx, P->ren);
    wa_mem_free(ctx, P->touched);
    wa_unit_map_free(&P->map, ctx);
    P->st->instrs_before = P->ninstrs;
    P->st->instrs_after = P->ninstrs - P->st->removed; /* nothing inserted */
    wa_mem_free(ctx, P);
    return st;
}
