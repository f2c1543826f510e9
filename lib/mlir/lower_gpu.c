/* lib/mlir/lower_gpu.c — gpu: ids and sizes, barriers, shuffles, subgroup
   broadcast, return.

   Shuffles: constant xor offsets below 16 use DPP lane permutations (one or
   two v_mov_b32 with a quad_perm, row_mirror, row_half_mirror or row_ror
   control); other shuffles exchange values through a per-wave slice of LDS
   (each lane writes its value at lane * 4 and reads it back from the source
   lane; the wave's own accesses are in order, so no barrier is needed). A
   shuffle follows the gpu dialect's segments of `width` lanes: the source lane
   is computed within the segment and is valid when it stays inside it (down:
   below width, up: not below 0, xor/idx: below width); an invalid lane gets its
   own value and `valid` false. */
#include "internal.h"

#include <string.h>

static int set_scalar(tr *T, MlirOperation op, intptr_t i, wv e)
{
    wval *r = tr_result_val(T, op, i);
    if (!r)
        return -1;
    r->e[0] = e;
    return tr_set_val(T, tr_result(op, i), r);
}

static int dim_of(tr *T, MlirOperation op)
{
    int d = tr_gpu_dim(op);
    if (d < 0)
        tr_error_op(T, op, WA_E_INVALID, "unknown dimension");
    return d;
}

static int lower_thread_id(tr *T, MlirOperation op)
{
    int d = dim_of(T, op);
    return d < 0 ? -1 : set_scalar(T, op, 0, tr_thread_id(T, (unsigned)d));
}

static int lower_block_id(tr *T, MlirOperation op)
{
    int d = dim_of(T, op);
    return d < 0 ? -1 : set_scalar(T, op, 0, tr_workgroup_id(T, (unsigned)d));
}

static int lower_block_dim(tr *T, MlirOperation op)
{
    int d = dim_of(T, op);
    return d < 0 ? -1 : set_scalar(T, op, 0, wv_const_int(TR_I32, T->wg[d]));
}

static int lower_grid_dim(tr *T, MlirOperation op)
{
    int d = dim_of(T, op);
    return d < 0 ? -1 : set_scalar(T, op, 0, tr_grid_dim(T, (unsigned)d));
}

static int lower_global_id(tr *T, MlirOperation op)
{
    int d = dim_of(T, op);
    if (d < 0)
        return -1;
    wv b = tr_workgroup_id(T, (unsigned)d), t = tr_thread_id(T, (unsigned)d);
    wv s = wv_const_int(TR_I32, T->wg[d]);
    wv bs = tr_imul(T, &b, &s, 1);
    return set_scalar(T, op, 0, tr_iadd(T, &bs, &t, 0));
}

static int lower_lane_id(tr *T, MlirOperation op)
{
    return set_scalar(T, op, 0, tr_lane_id(T));
}

static int lower_subgroup_id(tr *T, MlirOperation op)
{
    return set_scalar(T, op, 0, tr_wave_id(T));
}

static int lower_num_subgroups(tr *T, MlirOperation op)
{
    unsigned items = T->wg[0] * T->wg[1] * T->wg[2];
    return set_scalar(T, op, 0, wv_const_int(TR_I32, (items + 63) / 64));
}

static int lower_subgroup_size(tr *T, MlirOperation op)
{
    return set_scalar(T, op, 0, wv_const_int(TR_I32, 64));
}

static int lower_barrier(tr *T, MlirOperation op)
{
    (void)op;
    wa_build_sopp(NULL, T->prog, WA_OP_S_BARRIER, 0);
    return 0;
}

static int lower_return(tr *T, MlirOperation op)
{
    if (tr_noperands(op) != 0)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "a kernel cannot return values");
    wa_build_sopp(NULL, T->prog, WA_OP_S_ENDPGM, 0);
    return 0;
}

/* ---- lane exchange --------------------------------------------------------------------- */

/* out[l] = x[src[l]] for one dword per lane, through the wave's LDS slice. */
static wa_operand lds_permute(tr *T, wa_operand x, wa_operand src_lane)
{
    if (!T->have_shuffle_lds) {
        unsigned waves = (T->wg[0] * T->wg[1] * T->wg[2] + 63) / 64;
        T->shuffle_lds = tr_lds_alloc(T, waves * 256, 16, T->cur_loc);
        T->have_shuffle_lds = 1;
    }
    wv wave = tr_wave_id(T), lane = tr_lane_id(T);
    wv k256 = wv_const_int(TR_I32, 256), k4 = wv_const_int(TR_I32, 4),
       base = wv_const_int(TR_I32, T->shuffle_lds);
    wv wb = tr_imul(T, &wave, &k256, 1);
    wb = tr_iadd(T, &wb, &base, 1);
    wv lb = tr_imul(T, &lane, &k4, 0);
    wv waddr = tr_iadd(T, &lb, &wb, 0);
    wv sl = wv_vreg(src_lane, 0);
    wv sb = tr_imul(T, &sl, &k4, 0);
    wv raddr = tr_iadd(T, &sb, &wb, 0);
    wa_mods m = WA_MODS_INIT;
    m.offset = (int32_t)waddr.add;
    wv wa0 = waddr;
    wa0.add = 0;
    wa_operand wreg = tr_vsrc(T, &wa0);
    wa_operand xv = (x.kind == WA_OPND_VIRT || x.kind == WA_OPND_PHYS) && x.reg_class == WA_REG_VGPR
                        ? x
                        : tr_to_vgpr(T, x);
    wa_operand wops[2] = { wreg, xv };
    tr_emit(T, WA_OP_DS_WRITE_B32, wops, 2, &m);
    wa_mods r = WA_MODS_INIT;
    r.offset = (int32_t)raddr.add;
    wv ra0 = raddr;
    ra0.add = 0;
    wa_operand rreg = tr_vsrc(T, &ra0);
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    wa_operand rops[2] = { d, rreg };
    tr_emit(T, WA_OP_DS_READ_B32, rops, 2, &r);
    return d;
}

/* DPP control words whose lane map is l ^ x (within rows of 16) */
static int dpp_xor_ctrl(unsigned x, uint16_t *ctrl)
{
    switch (x) {
    case 1: *ctrl = WA_DPP_QUAD_PERM(1, 0, 3, 2); return 1;
    case 2: *ctrl = WA_DPP_QUAD_PERM(2, 3, 0, 1); return 1;
    case 3: *ctrl = WA_DPP_QUAD_PERM(3, 2, 1, 0); return 1;
    case 7: *ctrl = WA_DPP_ROW_HALF_MIRROR; return 1;
    case 8: *ctrl = WA_DPP_ROW_ROR(8); return 1;
    case 15: *ctrl = WA_DPP_ROW_MIRROR; return 1;
    default: return 0;
    }
}

static wa_operand dpp_mov(tr *T, wa_operand x, uint16_t ctrl)
{
    wa_operand xv = (x.kind == WA_OPND_VIRT || x.kind == WA_OPND_PHYS) && x.reg_class == WA_REG_VGPR
                        ? x
                        : tr_to_vgpr(T, x);
    wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
    wa_mods m = WA_MODS_INIT;
    m.flags = WA_MOD_DPP | WA_MOD_BOUND_CTRL;
    m.dpp_ctrl = ctrl;
    m.row_mask = 0xF;
    m.bank_mask = 0xF;
    if (wa_build_valu_mods(NULL, T->prog, WA_OP_V_MOV_B32, d, xv, wa_opnd_none(), wa_opnd_none(),
                           &m) != WA_OK)
        tr_error(T, T->cur_loc, WA_E_INTERNAL, "internal error: DPP move");
    return d;
}

/* xor by a constant below 16 with at most two DPP moves; 0 if not possible */
static int dpp_xor(tr *T, wa_operand x, unsigned k, wa_operand *out)
{
    uint16_t c1, c2;
    if (dpp_xor_ctrl(k, &c1)) {
        *out = dpp_mov(T, x, c1);
        return 1;
    }
    static const unsigned parts[] = { 1, 2, 3, 7, 8, 15 };
    for (unsigned i = 0; i < 6; i++)
        for (unsigned j = 0; j < 6; j++)
            if ((parts[i] ^ parts[j]) == k && dpp_xor_ctrl(parts[i], &c1) &&
                dpp_xor_ctrl(parts[j], &c2)) {
                wa_operand t = dpp_mov(T, x, c1);
                *out = dpp_mov(T, t, c2);
                return 1;
            }
    return 0;
}

static int lower_shuffle(tr *T, MlirOperation op)
{
    MlirAttribute ma = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("mode"));
    char mode[64];
    tr_attr_str(ma, mode, sizeof(mode));
    int kind = strstr(mode, "xor") ? 0 : strstr(mode, "down") ? 1 : strstr(mode, "up") ? 2
               : strstr(mode, "idx") ? 3 : -1;
    if (kind < 0)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "gpu.shuffle mode %s", mode);
    wval *v = tr_val(T, tr_operand(op, 0));
    wv *off = tr_scalar(T, tr_operand(op, 1)), *width = tr_scalar(T, tr_operand(op, 2));
    if (!v || !off || !width)
        return -1;
    if (v->et.bits > 32 && v->et.bits != 64)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "gpu.shuffle of this type");
    wval *r = tr_result_val(T, op, 0), *valid = tr_result_val(T, op, 1);
    if (!r || !valid)
        return -1;
    unsigned dwords = v->et.bits == 64 ? 2 : 1;
    wa_operand src[2];
    for (unsigned h = 0; h < dwords; h++) {
        if (v->e[0].kind == WV_CONST)
            src[h] = wa_opnd_imm((int64_t)(int32_t)(uint32_t)(v->e[0].c >> (32 * h)));
        else if (dwords == 2)
            src[h] = wa_opnd_sub(v->e[0].r, h, 1);
        else
            src[h] = tr_src(T, &v->e[0]);
    }
    /* constant offset and width: the whole lane map is known */
    int w64 = width->kind == WV_CONST && width->c >= 64;
    if (kind == 0 && off->kind == WV_CONST && width->kind == WV_CONST && off->c < 16 &&
        width->c >= 16 && (width->c & (width->c - 1)) == 0) {
        wa_operand outs[2];
        int ok = 1;
        for (unsigned h = 0; h < dwords && ok; h++)
            ok = off->c == 0 ? (outs[h] = src[h], 1) : dpp_xor(T, src[h], (unsigned)off->c, &outs[h]);
        if (ok) {
            if (dwords == 2) {
                wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
                for (unsigned h = 0; h < 2; h++) {
                    wa_operand mv[2] = { wa_opnd_sub(d, h, 1), outs[h] };
                    tr_emit(T, WA_OP_V_MOV_B32, mv, 2, NULL);
                }
                r->e[0] = wv_vreg(d, 0);
            } else {
                r->e[0] = wv_vreg(outs[0], 0);
            }
            valid->e[0] = wv_const(1);
            if (tr_set_val(T, tr_result(op, 0), r))
                return -1;
            return tr_set_val(T, tr_result(op, 1), valid);
        }
    }
    /* the source lane within the lane's segment */
    wv lane = tr_lane_id(T);
    wv base, in;
    if (w64) {
        base = wv_const_int(TR_I32, 0);
        in = lane;
    } else {
        wv wm1 = tr_isub(T, width, &(wv){ .kind = WV_CONST, .c = 1, .uniform = 1 }, 1);
        wv nm = tr_ixor(T, &wm1, &(wv){ .kind = WV_CONST, .c = 0xFFFFFFFFu, .uniform = 1 }, 1);
        base = tr_iand(T, &lane, &nm, 0);
        in = tr_isub(T, &lane, &base, 0);
    }
    wv sin, ok;
    switch (kind) {
    case 0: sin = tr_ixor(T, &in, off, 0); ok = tr_icmp(T, 6, &sin, width, TR_I32, 0); break;
    case 1: sin = tr_iadd(T, &in, off, 0); ok = tr_icmp(T, 6, &sin, width, TR_I32, 0); break;
    case 2: {
        sin = tr_isub(T, &in, off, 0);
        wv z = wv_const_int(TR_I32, 0);
        ok = tr_icmp(T, 5, &sin, &z, TR_I32, 0);
        break;
    }
    default: sin = *off; ok = tr_icmp(T, 6, off, width, TR_I32, 0); break;
    }
    wv abs_src = tr_iadd(T, &base, &sin, 0);
    wv chosen = tr_select(T, &ok, &abs_src, &lane, TR_I32, 0);
    wa_operand sl = tr_vsrc(T, &chosen);
    wa_operand outs[2];
    for (unsigned h = 0; h < dwords; h++)
        outs[h] = lds_permute(T, src[h], sl);
    if (dwords == 2) {
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 2);
        for (unsigned h = 0; h < 2; h++) {
            wa_operand mv[2] = { wa_opnd_sub(d, h, 1), outs[h] };
            tr_emit(T, WA_OP_V_MOV_B32, mv, 2, NULL);
        }
        r->e[0] = wv_vreg(d, 0);
    } else {
        r->e[0] = wv_vreg(outs[0], 0);
    }
    valid->e[0] = ok;
    if (tr_set_val(T, tr_result(op, 0), r))
        return -1;
    return tr_set_val(T, tr_result(op, 1), valid);
}

/* A value from one lane to all: the first active lane, or a given lane. */
int tr_broadcast_lane(tr *T, MlirOperation op, wval *v, const wv *lane, wval *r)
{
    unsigned dwords = v->et.bits == 64 ? 2 : 1;
    for (unsigned i = 0; i < v->n; i++) {
        const wv *e = &v->e[i];
        if (e->kind == WV_CONST || e->kind == WV_SREG || e->kind == WV_SBOOL ||
            (e->kind == WV_VREG && e->uniform)) {
            r->e[i] = *e;
            continue;
        }
        if (e->kind == WV_MASK) {
            /* the lane's bit, as a uniform boolean */
            wa_operand bit = tr_src(T, e);
            wa_operand s = tr_vreg(T, WA_REG_SGPR, 1);
            if (lane) {
                wa_operand ops[3] = { s, bit, tr_src(T, lane) };
                tr_emit(T, WA_OP_V_READLANE_B32, ops, 3, NULL);
            } else {
                wa_operand ops[2] = { s, bit };
                tr_emit(T, WA_OP_V_READFIRSTLANE_B32, ops, 2, NULL);
            }
            wv b = wv_sreg(s);
            b.kind = WV_SBOOL;
            r->e[i] = b;
            continue;
        }
        wa_operand d = tr_vreg(T, WA_REG_SGPR, dwords);
        for (unsigned h = 0; h < dwords; h++) {
            wa_operand x = dwords == 2 ? wa_opnd_sub(e->r, h, 1) : tr_src(T, e);
            wa_operand dd = dwords == 2 ? wa_opnd_sub(d, h, 1) : d;
            if (lane) {
                wa_operand l = tr_src(T, lane);
                if (l.kind == WA_OPND_VIRT && l.reg_class == WA_REG_VGPR)
                    l = tr_ssrc(T, lane);
                wa_operand ops[3] = { dd, x, l };
                tr_emit(T, WA_OP_V_READLANE_B32, ops, 3, NULL);
            } else {
                wa_operand ops[2] = { dd, x };
                tr_emit(T, WA_OP_V_READFIRSTLANE_B32, ops, 2, NULL);
            }
        }
        r->e[i] = wv_sreg(d);
    }
    (void)op;
    return 0;
}

static int lower_subgroup_broadcast(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    if (!v)
        return -1;
    wval *r = tr_result_val(T, op, 0);
    if (!r)
        return -1;
    MlirAttribute k = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("broadcast_type"));
    char kind[96];
    tr_attr_str(k, kind, sizeof(kind));
    const wv *lane = NULL;
    if (strstr(kind, "specific_lane")) {
        if (tr_noperands(op) < 2)
            return tr_error_op(T, op, WA_E_INVALID, "specific_lane without a lane");
        lane = tr_scalar(T, tr_operand(op, 1));
        if (!lane)
            return -1;
    }
    if (tr_broadcast_lane(T, op, v, lane, r))
        return -1;
    return tr_set_val(T, tr_result(op, 0), r);
}

const tr_op_entry tr_gpu_ops[] = {
    { "gpu.thread_id", lower_thread_id },
    { "gpu.block_id", lower_block_id },
    { "gpu.block_dim", lower_block_dim },
    { "gpu.grid_dim", lower_grid_dim },
    { "gpu.global_id", lower_global_id },
    { "gpu.lane_id", lower_lane_id },
    { "gpu.subgroup_id", lower_subgroup_id },
    { "gpu.num_subgroups", lower_num_subgroups },
    { "gpu.subgroup_size", lower_subgroup_size },
    { "gpu.barrier", lower_barrier },
    { "gpu.shuffle", lower_shuffle },
    { "gpu.subgroup_broadcast", lower_subgroup_broadcast },
    { "gpu.return", lower_return },
    { NULL, NULL },
};

/* ---- func, stream, builtin ---------------------------------------------------------------- */

static int lower_subspan(tr *T, MlirOperation op)
{
    wval *b = tr_val(T, tr_operand(op, 0));
    if (!b)
        return -1;
    if (!b->is_binding)
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "stream.binding.subspan of a value that is not a kernel binding");
    MlirType t = mlirValueGetType(tr_result(op, 0));
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m || tr_memref_from_type(T, op, t, m))
        return -1;
    if (m->space != MS_GLOBAL)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "a binding subspan must be global memory");
    m->space = MS_GLOBAL;
    m->arg = b->binding;
    /* byte offset, then the dynamic sizes */
    intptr_t next = 1;
    wv off = wv_const_int(TR_I32, 0);
    if (tr_noperands(op) >= 2) {
        wv *o = tr_scalar(T, tr_operand(op, 1));
        if (!o)
            return -1;
        off = *o;
        next = 2;
    }
    for (unsigned d = 0; d < m->rank; d++) {
        if (m->size[d].kind != WV_NONE)
            continue;
        if (next >= tr_noperands(op))
            return tr_error_op(T, op, WA_E_INVALID, "missing dynamic size");
        wv *s = tr_scalar(T, tr_operand(op, next++));
        if (!s)
            return -1;
        m->size[d] = *s;
    }
    /* the type's offset (elements) plus the subspan's byte offset */
    wv toff = m->off.kind == WV_NONE ? wv_const_int(TR_I32, 0) : m->off;
    m->off = tr_iadd(T, &toff, &off, 1);
    for (int d = (int)m->rank - 1; d >= 0; d--) {
        if (m->stride[d].kind != WV_NONE)
            continue;
        if (d == (int)m->rank - 1)
            m->stride[d] = wv_const_int(TR_I32, 1);
        else
            m->stride[d] = tr_imul(T, &m->stride[d + 1], &m->size[d + 1], 1);
    }
    wval *w = tr_new_val(T, VK_MEMREF, m->et, 0);
    if (!w)
        return -1;
    w->m = m;
    return tr_set_val(T, tr_result(op, 0), w);
}

static int lower_cast_noop(tr *T, MlirOperation op)
{
    /* builtin.unrealized_conversion_cast between identical representations */
    if (tr_noperands(op) != 1 || tr_nresults(op) != 1)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "unrealized_conversion_cast of several values");
    wval *v = tr_val(T, tr_operand(op, 0));
    if (!v)
        return -1;
    MlirType a = mlirValueGetType(tr_operand(op, 0)), b = mlirValueGetType(tr_result(op, 0));
    ety ea = tr_ety(a), eb = tr_ety(b);
    if (v->kind == VK_MEMREF || ea.bits != eb.bits)
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "unrealized_conversion_cast between different representations");
    return tr_set_val(T, tr_result(op, 0), v);
}

const tr_op_entry tr_misc_ops[] = {
    { "func.return", lower_return },
    { "stream.binding.subspan", lower_subspan },
    { "builtin.unrealized_conversion_cast", lower_cast_noop },
    { NULL, NULL },
};
