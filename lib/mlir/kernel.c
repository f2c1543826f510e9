/* lib/mlir/kernel.c — the kernel ABI: arguments (global buffers, by-value
   scalars, sizes of dynamic shapes, hidden grid sizes), ABI inputs (only the
   workgroup ids used; work-item ids unpacked from v0 when the workgroup has
   several dimensions), the prologue (kernel argument loads and buffer
   descriptors, hoisted out of everything), thread, lane and wave ids, and the
   LDS layout. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* Raw buffer descriptor word 3 on the targets: DATA_FORMAT 32 (4 << 15),
   NUM_FORMAT FLOAT (7 << 12), DST_SEL 0, type buffer; MLIR's AMDGPU lowering
   uses the same word for the gfx9 family. */
uint32_t tr_srd_word3(wa_target target)
{
    switch (target) {
    case WA_TARGET_GFX90A:
    case WA_TARGET_GFX942:
    case WA_TARGET_GFX950:
    default: return 0x00027000u;
    }
}

static unsigned lds_limit(wa_target t)
{
    return t == WA_TARGET_GFX950 ? 163840u : 65536u;
}

/* ---- prologue ---------------------------------------------------------------------------- */

/* Code that must run once, before everything (argument loads, descriptors,
   ids), goes to the end of the prologue. Nested calls keep inserting where
   the outermost one is. */
unsigned tr_prologue_enter(tr *T)
{
    if (T->in_prologue++)
        return 0;
    unsigned before = wa_program_size(T->prog);
    wa_program_set_insert_point(T->prog, T->prologue_end);
    return before;
}

void tr_prologue_leave(tr *T, unsigned before)
{
    if (--T->in_prologue)
        return;
    unsigned after = wa_program_size(T->prog);
    T->prologue_end += after - before;
    wa_program_set_insert_point(T->prog, WA_END);
}

/* s_load of `dwords` (1, 2, 4) at kernarg offset `off` into a new SGPR tuple. */
static wa_operand load_kernarg(tr *T, unsigned off, unsigned dwords)
{
    wa_operand d = tr_vreg(T, WA_REG_SGPR, dwords);
    wa_opcode op = dwords == 1 ? WA_OP_S_LOAD_DWORD
                   : dwords == 2 ? WA_OP_S_LOAD_DWORDX2
                                 : WA_OP_S_LOAD_DWORDX4;
    wa_operand ops[3] = { d, T->kernarg, wa_opnd_imm(off) };
    tr_emit(T, op, ops, 3, NULL);
    return d;
}

static unsigned arg_offset(tr *T, unsigned index)
{
    wa_kernel_arg a;
    if (wa_program_arg(&a, T->prog, index) != WA_OK)
        return 0;
    return a.offset;
}

wa_operand tr_arg_sreg(tr *T, unsigned arg)
{
    targ *a = &T->args[arg];
    if (!a->loaded) {
        unsigned saved = tr_prologue_enter(T);
        unsigned off = arg_offset(T, a->index);
        a->sreg = load_kernarg(T, off & ~3u, a->size > 4 ? 2 : 1);
        tr_prologue_leave(T, saved);
        a->loaded = 1;
    }
    return a->sreg;
}

wa_operand tr_arg_srd(tr *T, unsigned arg)
{
    targ *a = &T->args[arg];
    if (!a->srd_built) {
        unsigned saved = tr_prologue_enter(T);
        wa_operand srd = tr_vreg(T, WA_REG_SGPR, 4);
        unsigned off = arg_offset(T, a->index);
        wa_operand ops[3] = { wa_opnd_sub(srd, 0, 2), T->kernarg, wa_opnd_imm(off) };
        tr_emit(T, WA_OP_S_LOAD_DWORDX2, ops, 3, NULL);
        /* base address bits 47:32 only: no stride, no swizzle */
        tr_salu(T, WA_OP_S_AND_B32, wa_opnd_sub(srd, 1, 1), wa_opnd_sub(srd, 1, 1),
                wa_opnd_imm(0xFFFF));
        uint64_t nr = a->extent && a->extent <= 0xFFFFFFFFull ? a->extent : 0xFFFFFFFFull;
        wa_operand w2[2] = { wa_opnd_sub(srd, 2, 1), wa_opnd_imm((int64_t)(int32_t)(uint32_t)nr) };
        tr_emit(T, WA_OP_S_MOV_B32, w2, 2, NULL);
        wa_operand w3[2] = { wa_opnd_sub(srd, 3, 1), wa_opnd_imm(tr_srd_word3(T->target)) };
        tr_emit(T, WA_OP_S_MOV_B32, w3, 2, NULL);
        tr_prologue_leave(T, saved);
        a->srd = srd;
        a->srd_built = 1;
    }
    return a->srd;
}

/* ---- ids ------------------------------------------------------------------------------------ */

static int multi_dim(const tr *T)
{
    return T->wg[1] > 1 || T->wg[2] > 1;
}

wv tr_thread_id(tr *T, unsigned dim)
{
    if (T->wg[dim] == 1)
        return wv_const_int(TR_I32, 0);
    if (!T->have_tid[dim]) {
        wa_operand v0 = wa_opnd_phys(WA_REG_VGPR, 0, 1);
        wv e;
        unsigned saved = tr_prologue_enter(T);
        if (!multi_dim(T)) {
            e = wv_vreg(v0, 0);
        } else {
            wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
            if (dim == 0)
                tr_valu(T, WA_OP_V_AND_B32, d, wa_opnd_imm(0x3FF), v0, wa_opnd_none());
            else
                tr_valu(T, WA_OP_V_BFE_U32, d, v0, wa_opnd_imm(10 * dim), wa_opnd_imm(10));
            e = wv_vreg(d, 0);
            /* y (z) is the same in a whole wave when a wave never spans two rows
               (planes): read it once into an SGPR */
            unsigned row = dim == 1 ? T->wg[0] : T->wg[0] * T->wg[1];
            if (dim > 0 && row % 64 == 0) {
                wa_operand s = tr_vreg(T, WA_REG_SGPR, 1);
                wa_operand ops[2] = { s, d };
                tr_emit(T, WA_OP_V_READFIRSTLANE_B32, ops, 2, NULL);
                e = wv_sreg(s);
            }
        }
        tr_prologue_leave(T, saved);
        wv_set_range(&e, 0, (int64_t)T->wg[dim] - 1);
        T->tid[dim] = e;
        T->have_tid[dim] = 1;
    }
    return T->tid[dim];
}

wv tr_workgroup_id(tr *T, unsigned dim)
{
    wv e = wv_sreg(T->wgid_reg[dim]);
    wv_set_range(&e, 0, 0x7FFFFFFF);
    return e;
}

wv tr_grid_dim(tr *T, unsigned dim)
{
    wa_operand r = tr_arg_sreg(T, T->hidden_grid_arg[dim]);
    wv e = wv_sreg(r);
    wv_set_range(&e, 1, 0x7FFFFFFF);
    return e;
}

wv tr_lane_id(tr *T)
{
    if (!T->have_lane) {
        unsigned saved = tr_prologue_enter(T);
        wa_operand lo = tr_vreg(T, WA_REG_VGPR, 1), id = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_MBCNT_LO_U32_B32, lo, wa_opnd_imm(-1), wa_opnd_imm(0), wa_opnd_none());
        tr_valu(T, WA_OP_V_MBCNT_HI_U32_B32, id, wa_opnd_imm(-1), lo, wa_opnd_none());
        tr_prologue_leave(T, saved);
        T->lane = wv_vreg(id, 0);
        wv_set_range(&T->lane, 0, 63);
        T->have_lane = 1;
    }
    return T->lane;
}

wv tr_wave_id(tr *T)
{
    if (!T->have_wave) {
        unsigned items = T->wg[0] * T->wg[1] * T->wg[2];
        if (items <= 64) {
            T->wave = wv_const_int(TR_I32, 0);
        } else {
            unsigned saved = tr_prologue_enter(T);
            wa_operand flat;
            if (!multi_dim(T)) {
                flat = wa_opnd_phys(WA_REG_VGPR, 0, 1);
            } else {
                /* x + wg.x * (y + wg.y * z) from the packed ids */
                wv x = tr_thread_id(T, 0), y = tr_thread_id(T, 1), z = tr_thread_id(T, 2);
                wv cy = wv_const_int(TR_I32, T->wg[1]), cx = wv_const_int(TR_I32, T->wg[0]);
                wv t = tr_imul(T, &z, &cy, 0);
                t = tr_iadd(T, &t, &y, 0);
                t = tr_imul(T, &t, &cx, 0);
                t = tr_iadd(T, &t, &x, 0);
                flat = tr_vsrc(T, &t);
            }
            wa_operand w = tr_vreg(T, WA_REG_VGPR, 1), s = tr_vreg(T, WA_REG_SGPR, 1);
            tr_valu(T, WA_OP_V_LSHRREV_B32, w, wa_opnd_imm(6), flat, wa_opnd_none());
            wa_operand ops[2] = { s, w };
            tr_emit(T, WA_OP_V_READFIRSTLANE_B32, ops, 2, NULL);
            tr_prologue_leave(T, saved);
            T->wave = wv_sreg(s);
            wv_set_range(&T->wave, 0, (int64_t)(items + 63) / 64 - 1);
        }
        T->have_wave = 1;
    }
    return T->wave;
}

unsigned tr_lds_alloc(tr *T, unsigned bytes, unsigned align, MlirLocation loc)
{
    if (align < 16)
        align = 16;
    unsigned off = (T->lds_bytes + align - 1) & ~(align - 1);
    unsigned long long end = (unsigned long long)off + bytes;
    if (end > lds_limit(T->target)) {
        tr_error(T, loc, WA_E_RANGE,
                 "workgroup memory of %llu bytes exceeds the %u bytes of %s", end,
                 lds_limit(T->target), wa_target_name(T->target));
        return 0;
    }
    T->lds_bytes = (unsigned)end;
    return off;
}

/* ---- arguments -------------------------------------------------------------------------- */

static int is_binding_type(MlirType t)
{
    if (!mlirTypeIsAOpaque(t))
        return 0;
    MlirStringRef ns = mlirOpaqueTypeGetDialectNamespace(t);
    MlirStringRef d = mlirOpaqueTypeGetData(t);
    return tr_strref_eq(ns, "stream") && tr_strref_eq(d, "binding");
}

static unsigned add_arg(tr *T, const char *name, wa_arg_kind kind, unsigned size, unsigned offset)
{
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.name = name;
    a.kind = kind;
    a.size = size;
    a.offset = offset;
    unsigned idx = 0;
    if (wa_program_add_arg(&idx, T->prog, &a) != WA_OK)
        tr_error(T, T->cur_loc, WA_E_INTERNAL, "internal error: kernel argument %s", name);
    return idx;
}

/* Extent in bytes of a memref type with a static layout (0 when unknown). */
static uint64_t static_extent(MlirType t)
{
    if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t))
        return 0;
    int64_t rank = mlirShapedTypeGetRank(t);
    int64_t strides[TR_MAX_RANK], offset = 0;
    if (rank > TR_MAX_RANK ||
        mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, strides, &offset)))
        return 0;
    if (mlirShapedTypeIsDynamicStrideOrOffset(offset))
        return 0;
    ety et = tr_ety(t);
    if (et.kind == ET_OTHER || et.bits < 8)
        return 0;
    int64_t last = offset;
    for (int64_t d = 0; d < rank; d++) {
        int64_t s = mlirShapedTypeGetDimSize(t, d);
        if (s == 0)
            return 1;
        if (mlirShapedTypeIsDynamicStrideOrOffset(strides[d]) || strides[d] < 0)
            return 0;
        last += (s - 1) * strides[d];
    }
    return (uint64_t)(last + 1) * (et.bits / 8);
}

/* The largest byte range the subspans of each stream binding cover. */
static MlirWalkResult scan_subspans(MlirOperation op, void *user)
{
    tr *T = user;
    if (!tr_name_is(op, "stream.binding.subspan") || tr_noperands(op) < 1)
        return MlirWalkResultAdvance;
    MlirValue b = tr_operand(op, 0);
    if (!mlirValueIsABlockArgument(b) ||
        !mlirBlockEqual(mlirBlockArgumentGetOwner(b),
                        mlirRegionGetFirstBlock(mlirOperationGetRegion(T->func, 0))))
        return MlirWalkResultAdvance;
    intptr_t i = mlirBlockArgumentGetArgNumber(b);
    if (i < 0 || (unsigned)i >= T->nargs)
        return MlirWalkResultAdvance;
    targ *a = &T->args[i];
    if (a->extent == (uint64_t)-1)
        return MlirWalkResultAdvance;
    uint64_t ext = static_extent(mlirValueGetType(tr_result(op, 0)));
    int64_t off = 0;
    int have_off = 1;
    if (tr_noperands(op) >= 2) {
        MlirValue ov = tr_operand(op, 1);
        have_off = 0;
        if (mlirValueIsAOpResult(ov)) {
            MlirOperation d = mlirOpResultGetOwner(ov);
            if (tr_name_is(d, "arith.constant")) {
                MlirAttribute v = mlirOperationGetAttributeByName(d, mlirStringRefCreateFromCString("value"));
                if (mlirAttributeIsAInteger(v)) {
                    off = mlirIntegerAttrGetValueInt(v);
                    have_off = off >= 0;
                }
            }
        }
    }
    if (!ext || !have_off)
        a->extent = (uint64_t)-1;
    else if ((uint64_t)off + ext > a->extent)
        a->extent = (uint64_t)off + ext;
    return MlirWalkResultAdvance;
}

static unsigned space_of(tr *T, MlirType t, MlirLocation loc, int *ok)
{
    (void)T;
    (void)loc;
    *ok = 1;
    MlirAttribute ms = mlirMemRefTypeGetMemorySpace(t);
    if (mlirAttributeIsNull(ms))
        return MS_GLOBAL;
    if (mlirAttributeIsAInteger(ms)) {
        int64_t v = mlirIntegerAttrGetValueInt(ms);
        if (v == 0 || v == 1)
            return MS_GLOBAL;
        if (v == 3)
            return MS_LDS;
        *ok = 0;
        return MS_GLOBAL;
    }
    char buf[128];
    tr_attr_str(ms, buf, sizeof(buf));
    if (strstr(buf, "workgroup"))
        return MS_LDS;
    if (strstr(buf, "fat_raw_buffer"))
        return MS_BUFFER;
    if (strstr(buf, "global"))
        return MS_GLOBAL;
    *ok = 0;
    return MS_GLOBAL;
}

int tr_kernel_begin(tr *T)
{
    MlirRegion body = mlirOperationGetRegion(T->func, 0);
    MlirBlock entry = mlirRegionGetFirstBlock(body);
    intptr_t nblock = mlirBlockGetNumArguments(entry);
    MlirAttribute fta = mlirOperationGetAttributeByName(T->func,
                                                        mlirStringRefCreateFromCString("function_type"));
    intptr_t ninputs = nblock;
    if (!mlirAttributeIsNull(fta) && mlirAttributeIsAType(fta)) {
        MlirType ft = mlirTypeAttrGetValue(fta);
        ninputs = mlirFunctionTypeGetNumInputs(ft);
        MlirType dummy;
        (void)dummy;
        if (mlirFunctionTypeGetNumResults(ft) != 0)
            return tr_error_op(T, T->func, WA_E_UNSUPPORTED, "a kernel cannot return values");
    }
    intptr_t nwg = T->is_gpu_func ? tr_attr_int(T->func, "workgroup_attributions", 0) : 0;
    if (ninputs + nwg > nblock)
        return tr_error_op(T, T->func, WA_E_INVALID, "malformed kernel signature");
    if (ninputs + nwg < nblock)
        return tr_error(T, mlirValueGetLocation(mlirBlockGetArgument(entry, ninputs + nwg)),
                        WA_E_UNSUPPORTED,
                        "private memory attributions are not supported (no scratch memory)");

    /* ABI inputs: the kernarg pointer, the workgroup ids used, the work-item ids
       the workgroup's shape needs. */
    unsigned abi = WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_X);
    for (unsigned d = 0; d < 3; d++)
        if (T->uses_wgid & (1u << d))
            abi |= WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X + d);
    if (multi_dim(T))
        abi |= WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y);
    if (T->wg[2] > 1)
        abi |= WA_ABI_BIT(WA_ABI_WORKITEM_ID_Z);
    if (wa_program_set_abi_inputs(T->prog, abi) != WA_OK)
        return tr_error_op(T, T->func, WA_E_INTERNAL, "internal error: ABI inputs");
    wa_program_abi_reg(&T->kernarg, T->prog, WA_ABI_KERNARG_PTR);
    for (unsigned d = 0; d < 3; d++)
        if (abi & WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X + d))
            wa_program_abi_reg(&T->wgid_reg[d], T->prog, (wa_abi_input)(WA_ABI_WORKGROUP_ID_X + d));

    T->nargs = (unsigned)ninputs;
    T->args = tr_alloc(T, (ninputs + 4) * sizeof(targ));
    if (!T->args)
        return -1;

    /* explicit arguments */
    for (intptr_t i = 0; i < ninputs; i++) {
        MlirValue v = mlirBlockGetArgument(entry, i);
        MlirType t = mlirValueGetType(v);
        MlirLocation loc = mlirValueGetLocation(v);
        char name[48];
        snprintf(name, sizeof(name), "arg%ld", (long)i);
        targ *a = &T->args[i];
        if (mlirTypeIsAMemRef(t)) {
            int ok;
            unsigned sp = space_of(T, t, loc, &ok);
            if (!ok || sp != MS_GLOBAL)
                return tr_error(T, loc, WA_E_UNSUPPORTED,
                                "kernel argument %ld: only global memrefs can be arguments",
                                (long)i);
            a->index = add_arg(T, name, WA_ARG_GLOBAL_BUFFER, 8, WA_ARG_OFFSET_AUTO);
            a->buffer = 1;
            a->size = 8;
            a->extent = static_extent(t);
            mref *m = tr_alloc(T, sizeof(*m));
            if (!m)
                return -1;
            if (tr_memref_from_type(T, T->func, t, m))
                return -1;
            m->space = MS_GLOBAL;
            m->arg = (unsigned)i;
            /* dynamic sizes, strides and offset arrive as by-value arguments */
            int64_t strides[TR_MAX_RANK], offset = 0;
            mlirMemRefTypeGetStridesAndOffset(t, strides, &offset);
            for (unsigned d = 0; d < m->rank; d++) {
                if (!mlirShapedTypeIsDynamicDim(t, d))
                    continue;
                char an[64];
                snprintf(an, sizeof(an), "%s_size%u", name, d);
                unsigned k = add_arg(T, an, WA_ARG_BY_VALUE, 4, WA_ARG_OFFSET_AUTO);
                unsigned saved = tr_prologue_enter(T);
                wa_operand r = load_kernarg(T, arg_offset(T, k), 1);
                tr_prologue_leave(T, saved);
                m->size[d] = wv_sreg(r);
                wv_set_range(&m->size[d], 0, 0x7FFFFFFF);
            }
            int identity = mlirAttributeIsNull(mlirMemRefTypeGetLayout(t)) ||
                           mlirAttributeIsAAffineMap(mlirMemRefTypeGetLayout(t));
            for (int d = (int)m->rank - 1; d >= 0; d--) {
                if (!mlirShapedTypeIsDynamicStrideOrOffset(strides[d]))
                    continue;
                if (identity) {
                    /* row-major strides from the sizes */
                    if (d == (int)m->rank - 1) {
                        m->stride[d] = wv_const_int(TR_I32, 1);
                    } else {
                        m->stride[d] = tr_imul(T, &m->stride[d + 1], &m->size[d + 1], 1);
                    }
                    continue;
                }
                char an[64];
                snprintf(an, sizeof(an), "%s_stride%d", name, d);
                unsigned k = add_arg(T, an, WA_ARG_BY_VALUE, 4, WA_ARG_OFFSET_AUTO);
                unsigned saved = tr_prologue_enter(T);
                wa_operand r = load_kernarg(T, arg_offset(T, k), 1);
                tr_prologue_leave(T, saved);
                m->stride[d] = wv_sreg(r);
            }
            if (mlirShapedTypeIsDynamicStrideOrOffset(offset)) {
                char an[64];
                snprintf(an, sizeof(an), "%s_offset", name);
                unsigned k = add_arg(T, an, WA_ARG_BY_VALUE, 4, WA_ARG_OFFSET_AUTO);
                unsigned saved = tr_prologue_enter(T);
                wa_operand r = load_kernarg(T, arg_offset(T, k), 1);
                tr_prologue_leave(T, saved);
                wv eo = wv_sreg(r);
                wv esz = wv_const_int(TR_I32, m->esize);
                m->off = tr_imul(T, &eo, &esz, 1);
            }
            wval *w = tr_new_val(T, VK_MEMREF, m->et, 0);
            if (!w)
                return -1;
            w->m = m;
            if (tr_set_val(T, v, w))
                return -1;
        } else if (is_binding_type(t)) {
            a->index = add_arg(T, name, WA_ARG_GLOBAL_BUFFER, 8, WA_ARG_OFFSET_AUTO);
            a->buffer = 1;
            a->size = 8;
            wval *w = tr_new_val(T, VK_TOKEN, (ety){ ET_OTHER, 0, 0, 0 }, 0);
            if (!w)
                return -1;
            w->is_binding = 1;
            w->binding = (unsigned)i;
            if (tr_set_val(T, v, w))
                return -1;
        } else {
            ety et = tr_ety(t);
            if (et.kind == ET_OTHER || mlirTypeIsAVector(t) || et.bits < 8)
                return tr_error(T, loc, WA_E_UNSUPPORTED,
                                "kernel argument %ld: only memrefs, stream bindings, integers, "
                                "index and floats can be arguments",
                                (long)i);
            unsigned size = et.bits / 8;
            a->index = add_arg(T, name, WA_ARG_BY_VALUE, size, WA_ARG_OFFSET_AUTO);
            a->size = size;
            wval *w = tr_new_val(T, VK_SCALAR, et, 1);
            if (!w)
                return -1;
            unsigned off = arg_offset(T, a->index);
            wa_operand r = tr_arg_sreg(T, (unsigned)i);
            wv e = wv_sreg(r);
            e.shift = (uint8_t)((off & 3u) * 8);
            if (et.kind == ET_INT && et.bits == 32 && et.index)
                wv_set_range(&e, INT32_MIN, INT32_MAX);
            w->e[0] = e;
            if (tr_set_val(T, v, w))
                return -1;
        }
        if (T->failed)
            return -1;
    }
    /* hidden arguments: the grid size, at the offsets of the code object v5
       implicit block (block_count_x/y/z at 0/4/8 after the explicit arguments) */
    if (T->uses_grid) {
        unsigned base = (wa_program_kernarg_size(T->prog) + 7u) & ~7u;
        for (unsigned d = 0; d < 3; d++) {
            static const char *const names[] = { "hidden_block_count_x", "hidden_block_count_y",
                                                 "hidden_block_count_z" };
            unsigned k = add_arg(T, names[d], (wa_arg_kind)(WA_ARG_HIDDEN_BLOCK_COUNT_X + d), 4,
                                 base + 4 * d);
            targ *a = &T->args[T->nargs];
            a->index = k;
            a->size = 4;
            T->hidden_grid_arg[d] = T->nargs++;
        }
    }
    /* buffer extents of stream bindings */
    mlirOperationWalk(T->func, scan_subspans, T, MlirWalkPreOrder);
    /* workgroup attributions */
    for (intptr_t i = ninputs; i < ninputs + nwg; i++) {
        MlirValue v = mlirBlockGetArgument(entry, i);
        MlirType t = mlirValueGetType(v);
        MlirLocation loc = mlirValueGetLocation(v);
        mref *m = tr_alloc(T, sizeof(*m));
        if (!m)
            return -1;
        if (tr_memref_from_type(T, T->func, t, m))
            return -1;
        uint64_t ext = static_extent(t);
        if (!ext)
            return tr_error(T, loc, WA_E_UNSUPPORTED,
                            "a workgroup attribution needs a static shape");
        unsigned off = tr_lds_alloc(T, (unsigned)ext, 16, loc);
        m->space = MS_LDS;
        m->base = wv_const_int(TR_I32, off);
        wval *w = tr_new_val(T, VK_MEMREF, m->et, 0);
        if (!w)
            return -1;
        w->m = m;
        if (tr_set_val(T, v, w))
            return -1;
    }
    return T->failed ? -1 : 0;
}

int tr_kernel_end(tr *T)
{
    if (wa_program_set_lds_bytes(T->prog, T->lds_bytes) != WA_OK)
        return tr_error_op(T, T->func, WA_E_INTERNAL, "internal error: LDS size");
    /* every path ends the wave; a body that falls off its end gets s_endpgm */
    unsigned n = wa_program_size(T->prog);
    wa_instr_view v;
    if (n == 0 || wa_program_get(&v, T->prog, n - 1) != WA_OK || v.opcode != WA_OP_S_ENDPGM) {
        wa_build_sopp(NULL, T->prog, WA_OP_S_ENDPGM, 0);
    }
    return T->failed ? -1 : 0;
}
