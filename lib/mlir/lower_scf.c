/* lib/mlir/lower_scf.c — structured and unstructured control flow: scf.for,
   scf.if, scf.while, scf.yield/condition, cf.br, cf.cond_br, and the blocks
   of a function body.

   Values that flow between blocks (loop-carried values, if results, block
   arguments) live in "phi" registers written on every incoming edge. Uniform
   control (conditions and loop bounds the same in every lane) branches on SCC
   with SGPR counters. Divergent control narrows EXEC: an if runs its branches
   under EXEC & cond and EXEC & ~cond (s_and_saveexec / s_andn2) and restores
   EXEC after; a loop drops the lanes that are done until none is left. Phi
   registers written under a narrowed EXEC keep the other lanes' values, which
   is what merges the results (i1 results merge as 0/1 in a VGPR). */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* ---- phis --------------------------------------------------------------------------------- */

typedef enum phik {
    PK_SREG = 1, /* SGPR (pair for 64-bit) */
    PK_VREG,     /* VGPR (pair for 64-bit) */
    PK_SBOOL,    /* uniform i1: 0/1 in an SGPR */
    PK_MASK,     /* i1 lane mask: an SGPR pair (uniform control only) */
    PK_VBOOL,    /* i1 as 0/1 in a VGPR (merged under a narrowed EXEC) */
    PK_TUPLE     /* vector: a packed VGPR tuple */
} phik;

typedef struct phi {
    wval *view;   /* what readers see */
    phik kind;
    wa_operand reg;
    unsigned n;   /* i1 vectors: one register per element */
    wa_operand *regs;
} phi;

static int phi_make(tr *T, const wval *like, int div_value, int div_control, phi *p)
{
    memset(p, 0, sizeof(*p));
    if (like->kind == VK_MEMREF || like->kind == VK_TOKEN)
        return tr_error(T, T->cur_loc, WA_E_UNSUPPORTED,
                        "memrefs cannot be loop-carried or results of control flow");
    wval *w = tr_new_val(T, (vk)like->kind, like->et, like->n);
    if (!w)
        return -1;
    w->rank = like->rank;
    memcpy(w->shape, like->shape, sizeof(w->shape));
    p->view = w;
    int uniform = !div_value && !div_control;
    unsigned dw = like->et.bits == 64 ? 2 : 1;
    if (like->et.bits == 1) {
        p->kind = uniform ? PK_SBOOL : !div_control ? PK_MASK : PK_VBOOL;
        p->n = like->n;
        p->regs = tr_alloc(T, like->n * sizeof(wa_operand));
        if (!p->regs)
            return -1;
        for (unsigned i = 0; i < like->n; i++) {
            if (p->kind == PK_SBOOL) {
                p->regs[i] = tr_vreg(T, WA_REG_SGPR, 1);
                wv e = wv_sreg(p->regs[i]);
                e.kind = WV_SBOOL;
                w->e[i] = e;
            } else if (p->kind == PK_MASK) {
                p->regs[i] = tr_vreg(T, WA_REG_SGPR, 2);
                w->e[i] = wv_maskv(p->regs[i], 0);
            } else {
                p->regs[i] = tr_vreg(T, WA_REG_VGPR, 1);
                w->e[i] = wv_vreg(p->regs[i], 0);
                wv_set_range(&w->e[i], 0, 1);
            }
        }
        return 0;
    }
    if (like->kind == VK_VECTOR) {
        unsigned ndw = (like->n * like->et.bits + 31) / 32;
        p->kind = PK_TUPLE;
        p->reg = tr_vreg(T, WA_REG_VGPR, ndw);
        tr_unpack(T, w->e, p->reg, like->et, like->n, uniform);
        w->has_store = 1;
        w->store = p->reg;
        return 0;
    }
    if (uniform) {
        p->kind = PK_SREG;
        p->reg = tr_vreg(T, WA_REG_SGPR, dw);
        w->e[0] = wv_sreg(p->reg);
    } else {
        p->kind = PK_VREG;
        p->reg = tr_vreg(T, WA_REG_VGPR, dw);
        w->e[0] = wv_vreg(p->reg, 0);
    }
    return 0;
}

/* Copies `src` into the phi. */
static int phi_write(tr *T, const phi *p, const wval *src)
{
    if (src == p->view)
        return 0;
    switch (p->kind) {
    case PK_SBOOL:
    case PK_MASK:
    case PK_VBOOL:
        for (unsigned i = 0; i < p->n; i++) {
            const wv *e = &src->e[src->n == 1 ? 0 : i];
            if (p->kind == PK_SBOOL) {
                wa_operand s = tr_sbool(T, e);
                wa_operand ops[2] = { p->regs[i], s };
                tr_emit(T, WA_OP_S_MOV_B32, ops, 2, NULL);
            } else if (p->kind == PK_MASK) {
                wa_operand m = tr_mask(T, e);
                wa_operand ops[2] = { p->regs[i], m };
                tr_emit(T, WA_OP_S_MOV_B64, ops, 2, NULL);
            } else {
                wa_operand m = tr_mask(T, e);
                tr_valu(T, WA_OP_V_CNDMASK_B32, p->regs[i], wa_opnd_imm(0), wa_opnd_imm(1), m);
            }
        }
        return 0;
    case PK_TUPLE: tr_pack_to(T, src, 0, src->n, p->reg); return 0;
    case PK_SREG:
    case PK_VREG: {
        const wv *e = &src->e[0];
        if (src->et.bits == 64) {
            if (p->kind == PK_SREG) {
                wa_operand s = tr_src64(T, e);
                wa_operand ops[2] = { p->reg, s };
                tr_emit(T, WA_OP_S_MOV_B64, ops, 2, NULL);
            } else {
                for (unsigned h = 0; h < 2; h++) {
                    wa_operand s = e->kind == WV_CONST
                                       ? wa_opnd_imm((int64_t)(int32_t)(uint32_t)(e->c >> (32 * h)))
                                       : wa_opnd_sub(e->r, h, 1);
                    wa_operand ops[2] = { wa_opnd_sub(p->reg, h, 1), s };
                    tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
                }
            }
            return 0;
        }
        if (p->kind == PK_SREG) {
            wa_operand s = tr_ssrc(T, e);
            wa_operand ops[2] = { p->reg, s };
            tr_emit(T, WA_OP_S_MOV_B32, ops, 2, NULL);
        } else {
            wa_operand s = tr_src(T, e);
            wa_operand ops[2] = { p->reg, s };
            tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
        }
        return 0;
    }
    }
    return 0;
}

/* Whether `w` reads a register of one of phis [0, n) (so a parallel copy that
   wrote them already needs a temporary). */
static int reads_phis(const wval *w, const phi *ps, unsigned n)
{
    if (!w || (w->kind != VK_SCALAR && w->kind != VK_VECTOR))
        return 0;
    for (unsigned i = 0; i < w->n; i++) {
        const wv *e = &w->e[i];
        if (e->kind == WV_CONST || e->r.kind != WA_OPND_VIRT)
            continue;
        for (unsigned k = 0; k < n; k++) {
            const phi *p = &ps[k];
            if (p->kind == PK_SBOOL || p->kind == PK_MASK || p->kind == PK_VBOOL) {
                for (unsigned j = 0; j < p->n; j++)
                    if (p->regs[j].id == e->r.id)
                        return 1;
            } else if (p->reg.id == e->r.id) {
                return 1;
            }
        }
    }
    return 0;
}

/* A copy of `w` in fresh registers (for parallel copies). */
static wval *snapshot(tr *T, const wval *w, int divergent)
{
    phi tmp;
    if (phi_make(T, w, divergent, 0, &tmp))
        return NULL;
    if (phi_write(T, &tmp, w))
        return NULL;
    return tmp.view;
}

/* Writes vals[i] into phis[i] as one parallel copy. */
static int phis_write(tr *T, phi *ps, wval **vals, unsigned n, const int *divergent)
{
    wval **src = tr_alloc(T, (n + 1) * sizeof(wval *));
    if (!src)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        src[i] = vals[i];
        /* phis are written in order: a value reading an earlier one (or, for a
           vector, its own) is copied first */
        if (vals[i] != ps[i].view &&
            (reads_phis(vals[i], ps, i) ||
             (vals[i]->kind == VK_VECTOR && reads_phis(vals[i], ps + i, 1)))) {
            src[i] = snapshot(T, vals[i], divergent ? divergent[i] : 1);
            if (!src[i])
                return -1;
        }
    }
    for (unsigned i = 0; i < n; i++)
        if (phi_write(T, &ps[i], src[i]))
            return -1;
    return 0;
}

int tr_phi_alloc(tr *T, const wval *like, wval **out, int divergent)
{
    phi p;
    if (phi_make(T, like, divergent, divergent, &p))
        return -1;
    *out = p.view;
    return 0;
}

int tr_phi_copy(tr *T, const wval *dst, const wval *src)
{
    (void)T;
    (void)dst;
    (void)src;
    return 0;
}

/* ---- conditions ----------------------------------------------------------------------------- */

void tr_branch_cond(tr *T, const wv *c, int when_true, wa_label target)
{
    if (c->kind == WV_CONST) {
        if ((int)(c->c & 1) == when_true)
            tr_branch(T, WA_OP_S_BRANCH, target);
        return;
    }
    if (c->kind == WV_MASK) {
        /* a uniform lane mask: SCC = (mask & exec) != 0 */
        wa_operand t = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand ops[3] = { t, c->r, wa_opnd_special(WA_SPECIAL_EXEC) };
        tr_emit(T, WA_OP_S_AND_B64, ops, 3, NULL);
        tr_branch(T, when_true ? WA_OP_S_CBRANCH_SCC1 : WA_OP_S_CBRANCH_SCC0, target);
        return;
    }
    wa_operand s = tr_sbool(T, c);
    /* The boolean was just made from SCC (s_cselect_b32 s, 1, 0, which leaves
       SCC alone): branch on SCC itself. */
    unsigned n = wa_program_size(T->prog);
    wa_instr_view last;
    if (!T->in_prologue && n && wa_program_get(&last, T->prog, n - 1) == WA_OK &&
        last.opcode == WA_OP_S_CSELECT_B32 && last.num_operands == 3 &&
        last.operands[0].kind == s.kind && last.operands[0].id == s.id &&
        last.operands[0].kind == WA_OPND_VIRT && last.operands[1].kind == WA_OPND_IMM &&
        last.operands[1].imm.i == 1 && last.operands[2].kind == WA_OPND_IMM &&
        last.operands[2].imm.i == 0) {
        tr_branch(T, when_true ? WA_OP_S_CBRANCH_SCC1 : WA_OP_S_CBRANCH_SCC0, target);
        return;
    }
    wa_operand ops[2] = { s, wa_opnd_imm(0) };
    tr_emit(T, WA_OP_S_CMP_LG_U32, ops, 2, NULL);
    tr_branch(T, when_true ? WA_OP_S_CBRANCH_SCC1 : WA_OP_S_CBRANCH_SCC0, target);
}

static MlirOperation terminator_of(MlirRegion r)
{
    MlirBlock b = mlirRegionGetFirstBlock(r);
    return mlirBlockIsNull(b) ? (MlirOperation){ NULL } : mlirBlockGetTerminator(b);
}

/* Lowers the operations of a single-block region, the terminator excepted
   (its parent reads the terminator's operands). */
static int lower_body(tr *T, MlirRegion r)
{
    MlirBlock b = mlirRegionGetFirstBlock(r);
    if (mlirBlockIsNull(b))
        return 0;
    if (!mlirBlockIsNull(mlirBlockGetNextInRegion(b)))
        return tr_error(T, T->cur_loc, WA_E_UNSUPPORTED,
                        "a structured region with several blocks is not supported");
    MlirOperation term = mlirBlockGetTerminator(b);
    for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op)) {
        if (!mlirOperationIsNull(term) && mlirOperationEqual(op, term) &&
            (tr_name_is(op, "scf.yield") || tr_name_is(op, "scf.condition")))
            break;
        if (tr_lower_op(T, op))
            return -1;
    }
    return T->failed ? -1 : 0;
}

static wval **operand_vals(tr *T, MlirOperation op, intptr_t first, intptr_t n)
{
    wval **v = tr_alloc(T, (size_t)(n + 1) * sizeof(wval *));
    if (!v)
        return NULL;
    for (intptr_t i = 0; i < n; i++) {
        v[i] = tr_val(T, tr_operand(op, first + i));
        if (!v[i])
            return NULL;
    }
    return v;
}

/* ---- scf.if ------------------------------------------------------------------------------------- */

static void phis_define(tr *T, const phi *ps, intptr_t n);

static int lower_if(tr *T, MlirOperation op)
{
    wv *c = tr_scalar(T, tr_operand(op, 0));
    if (!c)
        return -1;
    MlirRegion rt = mlirOperationGetRegion(op, 0), re = mlirOperationGetRegion(op, 1);
    int has_else = !mlirBlockIsNull(mlirRegionGetFirstBlock(re));
    intptr_t nres = tr_nresults(op);
    MlirLocation loc = mlirOperationGetLocation(op);
    /* a constant condition: only the branch taken */
    if (c->kind == WV_CONST) {
        MlirRegion r = (c->c & 1) ? rt : re;
        if (mlirBlockIsNull(mlirRegionGetFirstBlock(r)))
            return 0;
        if (lower_body(T, r))
            return -1;
        MlirOperation y = terminator_of(r);
        for (intptr_t i = 0; i < nres; i++) {
            wval *v = tr_val(T, tr_operand(y, i));
            if (!v || tr_set_val(T, tr_result(op, i), v))
                return -1;
        }
        return 0;
    }
    int divergent = tr_is_divergent(T, tr_operand(op, 0));
    phi *ps = tr_alloc(T, (size_t)(nres + 1) * sizeof(phi));
    int *dv = tr_alloc(T, (size_t)(nres + 1) * sizeof(int));
    if (!ps || !dv)
        return -1;
    /* phis take the shape of the then-branch's values, created before the branch */
    MlirOperation yt = terminator_of(rt), ye = has_else ? terminator_of(re) : (MlirOperation){ NULL };
    for (intptr_t i = 0; i < nres; i++) {
        wval *like = tr_new_val_type(T, mlirValueGetType(tr_result(op, i)));
        if (!like)
            return -1;
        dv[i] = tr_is_divergent(T, tr_result(op, i));
        if (phi_make(T, like, dv[i], divergent, &ps[i]))
            return -1;
    }
    wa_label l_else = tr_label(T, "if_else"), l_end = tr_label(T, "if_end");
    if (!divergent) {
        tr_branch_cond(T, c, 0, has_else ? l_else : l_end);
        if (lower_body(T, rt))
            return -1;
        wval **yv = operand_vals(T, yt, 0, nres);
        if (!yv || phis_write(T, ps, yv, (unsigned)nres, dv))
            return -1;
        if (has_else) {
            tr_branch(T, WA_OP_S_BRANCH, l_end);
            tr_place(T, l_else);
            if (lower_body(T, re))
                return -1;
            wval **ev = operand_vals(T, ye, 0, nres);
            if (!ev || phis_write(T, ps, ev, (unsigned)nres, dv))
                return -1;
        }
        tr_place(T, l_end);
    } else {
        wa_operand m = tr_mask(T, c);
        phis_define(T, ps, nres);
        wa_operand saved = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand se[2] = { saved, m };
        tr_emit(T, WA_OP_S_AND_SAVEEXEC_B64, se, 2, NULL);
        tr_branch(T, WA_OP_S_CBRANCH_EXECZ, l_else);
        T->exec_narrow++;
        if (lower_body(T, rt))
            return -1;
        wval **yv = operand_vals(T, yt, 0, nres);
        if (!yv || phis_write(T, ps, yv, (unsigned)nres, dv))
            return -1;
        tr_place(T, l_else);
        if (has_else) {
            wa_operand ex[3] = { wa_opnd_special(WA_SPECIAL_EXEC), saved, m };
            tr_emit(T, WA_OP_S_ANDN2_B64, ex, 3, NULL);
            tr_branch(T, WA_OP_S_CBRANCH_EXECZ, l_end);
            if (lower_body(T, re))
                return -1;
            wval **ev = operand_vals(T, ye, 0, nres);
            if (!ev || phis_write(T, ps, ev, (unsigned)nres, dv))
                return -1;
        }
        T->exec_narrow--;
        tr_place(T, l_end);
        wa_operand rs[2] = { wa_opnd_special(WA_SPECIAL_EXEC), saved };
        tr_emit(T, WA_OP_S_MOV_B64, rs, 2, NULL);
    }
    (void)loc;
    for (intptr_t i = 0; i < nres; i++)
        if (tr_set_val(T, tr_result(op, i), ps[i].view))
            return -1;
    return T->failed ? -1 : 0;
}

/* Gives the VGPRs of divergent-if phis a value before the branch: each side
   writes only its lanes, and a lane that takes neither side (EXEC already
   narrow) keeps what the register held, so the register must hold something
   on every path (the allocator rejects a read that no definition reaches). */
static void phis_define(tr *T, const phi *ps, intptr_t n)
{
    for (intptr_t i = 0; i < n; i++) {
        const phi *p = &ps[i];
        if (p->kind == PK_VBOOL) {
            for (unsigned k = 0; k < p->n; k++) {
                wa_operand ops[2] = { p->regs[k], wa_opnd_imm(0) };
                tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
            }
        } else if (p->kind == PK_VREG || p->kind == PK_TUPLE) {
            unsigned size = 1;
            wa_reg_class cls;
            wa_program_vreg_info(&cls, &size, NULL, T->prog, p->reg.id);
            for (unsigned k = 0; k < size; k++) {
                wa_operand ops[2] = { size == 1 ? p->reg : wa_opnd_sub(p->reg, k, 1),
                                      wa_opnd_imm(0) };
                tr_emit(T, WA_OP_V_MOV_B32, ops, 2, NULL);
            }
        }
    }
}

/* The loop's next values: the iteration arguments, then the induction
   variable (which they may read), as one parallel copy. */
static int write_back(tr *T, const phi *ps, const int *dv, wval **yv, wval *next, intptr_t n)
{
    phi *wp = tr_alloc(T, (size_t)(n + 2) * sizeof(phi));
    int *wd = tr_alloc(T, (size_t)(n + 2) * sizeof(int));
    wval **wv_ = tr_alloc(T, (size_t)(n + 2) * sizeof(wval *));
    if (!wp || !wd || !wv_)
        return -1;
    for (intptr_t i = 0; i < n; i++) {
        wp[i] = ps[i + 1];
        wd[i] = dv[i + 1];
        wv_[i] = yv[i];
    }
    wp[n] = ps[0];
    wd[n] = dv[0];
    wv_[n] = next;
    return phis_write(T, wp, wv_, (unsigned)(n + 1), wd);
}

/* ---- scf.for ------------------------------------------------------------------------------------ */

static int lower_for(tr *T, MlirOperation op)
{
    wv *lb = tr_scalar(T, tr_operand(op, 0)), *ub = tr_scalar(T, tr_operand(op, 1)),
       *st = tr_scalar(T, tr_operand(op, 2));
    if (!lb || !ub || !st)
        return -1;
    MlirType ivt = mlirValueGetType(tr_operand(op, 0));
    ety ivet = tr_ety(ivt);
    if (ivet.kind != ET_INT || ivet.bits == 64 || ivet.bits < 8)
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "scf.for needs an index or 8..32-bit integer induction variable");
    int is_unsigned = tr_attr_has(op, "unsignedCmp");
    int divergent = tr_is_divergent(T, tr_operand(op, 0)) || tr_is_divergent(T, tr_operand(op, 1)) ||
                    tr_is_divergent(T, tr_operand(op, 2));
    MlirRegion body = mlirOperationGetRegion(op, 0);
    MlirBlock b = mlirRegionGetFirstBlock(body);
    MlirOperation y = terminator_of(body);
    intptr_t n = tr_nresults(op);
    /* a loop that never runs */
    if (lb->kind == WV_CONST && ub->kind == WV_CONST) {
        int64_t l = is_unsigned ? (int64_t)wv_zext(lb, ivet) : wv_sext(lb, ivet);
        int64_t u = is_unsigned ? (int64_t)wv_zext(ub, ivet) : wv_sext(ub, ivet);
        if (l >= u) {
            for (intptr_t i = 0; i < n; i++) {
                wval *v = tr_val(T, tr_operand(op, 3 + i));
                if (!v || tr_set_val(T, tr_result(op, i), v))
                    return -1;
            }
            return 0;
        }
    }
    phi *ps = tr_alloc(T, (size_t)(n + 2) * sizeof(phi));
    int *dv = tr_alloc(T, (size_t)(n + 2) * sizeof(int));
    wval **init = operand_vals(T, op, 3, n);
    if (!ps || !dv || !init)
        return -1;
    /* the induction variable and the iteration arguments */
    wval *ivlike = tr_new_val_type(T, ivt);
    if (!ivlike)
        return -1;
    dv[0] = divergent;
    if (phi_make(T, ivlike, divergent, 0, &ps[0]))
        return -1;
    for (intptr_t i = 0; i < n; i++) {
        dv[i + 1] = tr_is_divergent(T, tr_result(op, i));
        if (phi_make(T, init[i], dv[i + 1], divergent, &ps[i + 1]))
            return -1;
    }
    /* induction variable facts: lb <= iv < ub */
    wv *ive = &ps[0].view->e[0];
    if (!is_unsigned && lb->has_range && ub->has_range && !lb->add && !ub->add && lb->lo <= ub->hi)
        wv_set_range(ive, lb->lo, ub->hi - 1);
    else if (lb->has_range && lb->lo >= 0 && ub->has_range && !lb->add && !ub->add)
        wv_set_range(ive, lb->lo, ub->hi > lb->lo ? ub->hi - 1 : lb->lo);
    if (lb->kind == WV_CONST && st->kind == WV_CONST) {
        unsigned a1 = lb->align_log2 < st->align_log2 ? lb->align_log2 : st->align_log2;
        ive->align_log2 = (uint8_t)a1;
    }
    wval lbw;
    memset(&lbw, 0, sizeof(lbw));
    lbw.kind = VK_SCALAR;
    lbw.et = ivet;
    lbw.n = 1;
    lbw.e = lb;
    wval **iv0 = tr_alloc(T, (size_t)(n + 2) * sizeof(wval *));
    if (!iv0)
        return -1;
    iv0[0] = &lbw;
    for (intptr_t i = 0; i < n; i++)
        iv0[i + 1] = init[i];
    if (phis_write(T, ps, iv0, (unsigned)(n + 1), dv))
        return -1;
    if (tr_set_val(T, mlirBlockGetArgument(b, 0), ps[0].view))
        return -1;
    for (intptr_t i = 0; i < n; i++)
        if (tr_set_val(T, mlirBlockGetArgument(b, i + 1), ps[i + 1].view))
            return -1;

    wa_label l_body = tr_label(T, "for_body"), l_exit = tr_label(T, "for_exit");
    int cmp_lt = is_unsigned ? 6 : 2;
    if (!divergent) {
        /* skip the loop when it runs zero times (unless known) */
        int known = lb->kind == WV_CONST && ub->kind == WV_CONST;
        if (!known) {
            wv c = tr_icmp(T, cmp_lt, lb, ub, ivet, 1);
            tr_branch_cond(T, &c, 0, l_exit);
        }
        tr_place(T, l_body);
        if (lower_body(T, body))
            return -1;
        wval **yv = operand_vals(T, y, 0, n);
        if (!yv)
            return -1;
        /* next iteration's values and induction variable, as one parallel copy */
        wv next = tr_iadd(T, ive, st, 1);
        wval nw;
        memset(&nw, 0, sizeof(nw));
        nw.kind = VK_SCALAR;
        nw.et = ivet;
        nw.n = 1;
        nw.e = &next;
        if (write_back(T, ps, dv, yv, &nw, n))
            return -1;
        /* compare the written counter: the range facts of the induction
           variable (lb <= iv < ub) do not hold for it */
        wv cur = *ive;
        cur.has_range = 0;
        wv c = tr_icmp(T, cmp_lt, &cur, ub, ivet, 1);
        tr_branch_cond(T, &c, 1, l_body);
        tr_place(T, l_exit);
    } else {
        wa_operand saved = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand sv[2] = { saved, wa_opnd_special(WA_SPECIAL_EXEC) };
        tr_emit(T, WA_OP_S_MOV_B64, sv, 2, NULL);
        wa_label l_head = tr_label(T, "for_head");
        tr_place(T, l_head);
        wv cur = *ive;
        cur.has_range = 0;
        wv c = tr_icmp(T, cmp_lt, &cur, ub, ivet, 0);
        wa_operand m = tr_mask(T, &c);
        wa_operand dead = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand se[2] = { dead, m };
        tr_emit(T, WA_OP_S_AND_SAVEEXEC_B64, se, 2, NULL);
        tr_branch(T, WA_OP_S_CBRANCH_EXECZ, l_exit);
        tr_place(T, l_body);
        T->exec_narrow++;
        if (lower_body(T, body))
            return -1;
        wval **yv = operand_vals(T, y, 0, n);
        if (!yv)
            return -1;
        wv next = tr_iadd(T, ive, st, 0);
        wval nw;
        memset(&nw, 0, sizeof(nw));
        nw.kind = VK_SCALAR;
        nw.et = ivet;
        nw.n = 1;
        nw.e = &next;
        if (write_back(T, ps, dv, yv, &nw, n))
            return -1;
        T->exec_narrow--;
        tr_branch(T, WA_OP_S_BRANCH, l_head);
        tr_place(T, l_exit);
        wa_operand rs[2] = { wa_opnd_special(WA_SPECIAL_EXEC), saved };
        tr_emit(T, WA_OP_S_MOV_B64, rs, 2, NULL);
    }
    for (intptr_t i = 0; i < n; i++)
        if (tr_set_val(T, tr_result(op, i), ps[i + 1].view))
            return -1;
    return T->failed ? -1 : 0;
}

/* ---- scf.while ---------------------------------------------------------------------------------- */

static int lower_while(tr *T, MlirOperation op)
{
    MlirRegion rb = mlirOperationGetRegion(op, 0), ra = mlirOperationGetRegion(op, 1);
    MlirBlock bb = mlirRegionGetFirstBlock(rb), ba = mlirRegionGetFirstBlock(ra);
    MlirOperation cond = terminator_of(rb), ay = terminator_of(ra);
    intptr_t nb = mlirBlockGetNumArguments(bb), na = mlirBlockGetNumArguments(ba);
    intptr_t nres = tr_nresults(op);
    pmap_ent *pe = pmap_get(&T->values, op.ptr);
    int divergent = pe && (pe->flags & TR_DIVERGENT);
    wval **init = operand_vals(T, op, 0, nb);
    phi *bp = tr_alloc(T, (size_t)(nb + 1) * sizeof(phi));
    phi *rp = tr_alloc(T, (size_t)(na + 1) * sizeof(phi));
    int *bdv = tr_alloc(T, (size_t)(nb + 1) * sizeof(int));
    int *rdv = tr_alloc(T, (size_t)(na + 1) * sizeof(int));
    if (!init || !bp || !rp || !bdv || !rdv)
        return -1;
    for (intptr_t i = 0; i < nb; i++) {
        MlirValue a = mlirBlockGetArgument(bb, i);
        bdv[i] = tr_is_divergent(T, a);
        if (phi_make(T, init[i], bdv[i], divergent, &bp[i]))
            return -1;
        if (tr_set_val(T, a, bp[i].view))
            return -1;
    }
    for (intptr_t i = 0; i < na; i++) {
        MlirValue a = mlirBlockGetArgument(ba, i);
        wval *like = tr_new_val_type(T, mlirValueGetType(a));
        if (!like)
            return -1;
        rdv[i] = tr_is_divergent(T, a);
        if (phi_make(T, like, rdv[i], divergent, &rp[i]))
            return -1;
        if (tr_set_val(T, a, rp[i].view))
            return -1;
    }
    if (phis_write(T, bp, init, (unsigned)nb, bdv))
        return -1;
    wa_label l_head = tr_label(T, "while_head"), l_exit = tr_label(T, "while_exit");
    wa_operand saved = wa_opnd_none();
    if (divergent) {
        saved = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand sv[2] = { saved, wa_opnd_special(WA_SPECIAL_EXEC) };
        tr_emit(T, WA_OP_S_MOV_B64, sv, 2, NULL);
        T->exec_narrow++;
    }
    tr_place(T, l_head);
    if (lower_body(T, rb))
        return -1;
    wv *c = tr_scalar(T, tr_operand(cond, 0));
    wval **cv = operand_vals(T, cond, 1, na);
    if (!c || !cv)
        return -1;
    if (phis_write(T, rp, cv, (unsigned)na, rdv))
        return -1;
    if (!divergent) {
        tr_branch_cond(T, c, 0, l_exit);
    } else {
        wa_operand m = tr_mask(T, c);
        wa_operand dead = tr_vreg(T, WA_REG_SGPR, 2);
        wa_operand se[2] = { dead, m };
        tr_emit(T, WA_OP_S_AND_SAVEEXEC_B64, se, 2, NULL);
        tr_branch(T, WA_OP_S_CBRANCH_EXECZ, l_exit);
    }
    if (lower_body(T, ra))
        return -1;
    wval **yv = operand_vals(T, ay, 0, nb);
    if (!yv || phis_write(T, bp, yv, (unsigned)nb, bdv))
        return -1;
    tr_branch(T, WA_OP_S_BRANCH, l_head);
    tr_place(T, l_exit);
    if (divergent) {
        T->exec_narrow--;
        wa_operand rs[2] = { wa_opnd_special(WA_SPECIAL_EXEC), saved };
        tr_emit(T, WA_OP_S_MOV_B64, rs, 2, NULL);
    }
    for (intptr_t i = 0; i < nres && i < na; i++)
        if (tr_set_val(T, tr_result(op, i), rp[i].view))
            return -1;
    return T->failed ? -1 : 0;
}

static int lower_terminator_noop(tr *T, MlirOperation op)
{
    (void)T;
    (void)op;
    return 0;
}

/* A single-block region runs in place; its results are what it yields. */
static int lower_execute_region(tr *T, MlirOperation op)
{
    MlirRegion r = mlirOperationGetRegion(op, 0);
    MlirBlock b = mlirRegionGetFirstBlock(r);
    if (mlirBlockIsNull(b) || !mlirBlockIsNull(mlirBlockGetNextInRegion(b)))
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "scf.execute_region with several blocks is not supported");
    if (lower_body(T, r))
        return -1;
    MlirOperation y = terminator_of(r);
    intptr_t n = tr_nresults(op);
    if (n && (mlirOperationIsNull(y) || tr_noperands(y) != n))
        return tr_error_op(T, op, WA_E_INVALID, "malformed scf.execute_region");
    for (intptr_t i = 0; i < n; i++) {
        wval *v = tr_val(T, tr_operand(y, i));
        if (!v || tr_set_val(T, tr_result(op, i), v))
            return -1;
    }
    return 0;
}

const tr_op_entry tr_scf_ops[] = {
    { "scf.for", lower_for },
    { "scf.if", lower_if },
    { "scf.while", lower_while },
    { "scf.yield", lower_terminator_noop },
    { "scf.condition", lower_terminator_noop },
    { "scf.execute_region", lower_execute_region },
    { NULL, NULL },
};

/* ---- blocks of a function body and cf branches ------------------------------------------- */

typedef struct cfblock {
    wa_label label;
    phi *args;
    int *dv;
    unsigned nargs;
} cfblock;

static cfblock *block_info(tr *T, MlirBlock b)
{
    pmap_ent *e = pmap_get(&T->values, b.ptr);
    return e ? e->val : NULL;
}

/* Copies a branch's operands into the successor's argument phis. */
static int edge_copies(tr *T, MlirOperation op, MlirBlock succ, intptr_t first, intptr_t n)
{
    cfblock *cb = block_info(T, succ);
    if (!cb)
        return tr_error_op(T, op, WA_E_INTERNAL, "internal error: branch to an unknown block");
    if (n == 0)
        return 0;
    wval **v = operand_vals(T, op, first, n);
    if (!v)
        return -1;
    return phis_write(T, cb->args, v, (unsigned)n, cb->dv);
}

static int lower_br(tr *T, MlirOperation op)
{
    MlirBlock s = mlirOperationGetSuccessor(op, 0);
    if (edge_copies(T, op, s, 0, tr_noperands(op)))
        return -1;
    tr_branch(T, WA_OP_S_BRANCH, block_info(T, s)->label);
    return 0;
}

static int lower_cond_br(tr *T, MlirOperation op)
{
    int64_t seg[3] = { 1, 0, 0 };
    MlirBlock st = mlirOperationGetSuccessor(op, 0), sf = mlirOperationGetSuccessor(op, 1);
    if (tr_attr_i64_array(op, "operandSegmentSizes", seg, 3) != 3) {
        seg[1] = mlirBlockGetNumArguments(st);
        seg[2] = tr_noperands(op) - 1 - seg[1];
    }
    if (tr_is_divergent(T, tr_operand(op, 0)))
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "cf.cond_br on a per-lane condition is not supported (branches must "
                           "be uniform; use scf.if for divergent control flow)");
    wv *c = tr_scalar(T, tr_operand(op, 0));
    if (!c)
        return -1;
    cfblock *bt = block_info(T, st), *bf = block_info(T, sf);
    if (!bt || !bf)
        return tr_error_op(T, op, WA_E_INTERNAL, "internal error: branch to an unknown block");
    if (seg[1] == 0 && seg[2] == 0) {
        tr_branch_cond(T, c, 1, bt->label);
        tr_branch(T, WA_OP_S_BRANCH, bf->label);
        return 0;
    }
    wa_label l_false = tr_label(T, "cond_false");
    tr_branch_cond(T, c, 0, l_false);
    if (edge_copies(T, op, st, 1, seg[1]))
        return -1;
    tr_branch(T, WA_OP_S_BRANCH, bt->label);
    tr_place(T, l_false);
    if (edge_copies(T, op, sf, 1 + seg[1], seg[2]))
        return -1;
    tr_branch(T, WA_OP_S_BRANCH, bf->label);
    return 0;
}

const tr_op_entry tr_cf_ops[] = {
    { "cf.br", lower_br },
    { "cf.cond_br", lower_cond_br },
    { NULL, NULL },
};

int tr_lower_region_cf(tr *T, MlirRegion region)
{
    MlirBlock first = mlirRegionGetFirstBlock(region);
    if (mlirBlockIsNull(first))
        return tr_error_op(T, T->func, WA_E_INVALID, "the kernel has no body");
    if (mlirBlockIsNull(mlirBlockGetNextInRegion(first)))
        return tr_lower_block(T, first);
    /* labels and argument phis of every block first: branches go forward too */
    for (MlirBlock b = first; !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b)) {
        cfblock *cb = tr_alloc(T, sizeof(*cb));
        if (!cb)
            return -1;
        cb->label = tr_label(T, "bb");
        intptr_t na = mlirBlockEqual(b, first) ? 0 : mlirBlockGetNumArguments(b);
        cb->nargs = (unsigned)na;
        cb->args = tr_alloc(T, (size_t)(na + 1) * sizeof(phi));
        cb->dv = tr_alloc(T, (size_t)(na + 1) * sizeof(int));
        if (!cb->args || !cb->dv)
            return -1;
        for (intptr_t i = 0; i < na; i++) {
            MlirValue a = mlirBlockGetArgument(b, i);
            wval *like = tr_new_val_type(T, mlirValueGetType(a));
            if (!like)
                return -1;
            cb->dv[i] = tr_is_divergent(T, a);
            if (phi_make(T, like, cb->dv[i], 0, &cb->args[i]))
                return -1;
            if (tr_set_val(T, a, cb->args[i].view))
                return -1;
        }
        if (pmap_put(&T->values, b.ptr, cb, 0))
            return tr_nomem(T);
    }
    for (MlirBlock b = first; !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b)) {
        if (!mlirBlockEqual(b, first))
            tr_place(T, block_info(T, b)->label);
        if (tr_lower_block(T, b))
            return -1;
    }
    return T->failed ? -1 : 0;
}
