/* lib/mlir/uniformity.c — which values are the same in every lane of a wave.

   Sources of divergence: work-item and lane ids, shuffles, atomics' returned
   values and matrix results; everything else is divergent when one of its
   operands is, loop-carried values and structured results also when their
   control (loop bounds, if/while conditions) is. The analysis runs to a fixed
   point (a loop's yielded values feed its arguments). Uniform values live in
   SGPRs; divergent ones in VGPRs (or lane masks for i1).

   A few divergent-looking values are known uniform: gpu.thread_id y (z) when a
   wave never spans two rows (planes) of the workgroup, and thread_id x divided
   by a multiple of 64 when the workgroup's rows are whole waves (the wave's
   index). The kernel also records here which ids and hidden sizes it uses. */
#include "internal.h"

#include <string.h>

typedef struct ua {
    tr *T;
    int changed;
} ua;

static int vdiv(ua *U, MlirValue v)
{
    pmap_ent *e = pmap_get(&U->T->values, v.ptr);
    return e && (e->flags & TR_DIVERGENT);
}

static void mark(ua *U, MlirValue v, int divergent)
{
    if (!divergent)
        return;
    pmap_ent *e = pmap_get(&U->T->values, v.ptr);
    if (e && (e->flags & TR_DIVERGENT))
        return;
    if (pmap_put(&U->T->values, v.ptr, NULL, TR_DIVERGENT)) {
        tr_nomem(U->T);
        return;
    }
    U->changed = 1;
}

/* The op's "divergent control" flag (scf.while's condition), kept on the op. */
static int opdiv(ua *U, MlirOperation op)
{
    pmap_ent *e = pmap_get(&U->T->values, op.ptr);
    return e && (e->flags & TR_DIVERGENT);
}

static void mark_op(ua *U, MlirOperation op)
{
    pmap_ent *e = pmap_get(&U->T->values, op.ptr);
    if (e && (e->flags & TR_DIVERGENT))
        return;
    if (pmap_put(&U->T->values, op.ptr, NULL, TR_DIVERGENT)) {
        tr_nomem(U->T);
        return;
    }
    U->changed = 1;
}

int tr_gpu_dim(MlirOperation op)
{
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("dimension"));
    char buf[64];
    tr_attr_str(a, buf, sizeof(buf));
    size_t n = strlen(buf);
    /* "#gpu<dim x>" */
    for (size_t i = n; i-- > 0;) {
        if (buf[i] == 'x')
            return 0;
        if (buf[i] == 'y')
            return 1;
        if (buf[i] == 'z')
            return 2;
        if (buf[i] != '>' && buf[i] != ' ')
            break;
    }
    return -1;
}

int tr_const_int_value(MlirValue v, int64_t *out)
{
    if (!mlirValueIsAOpResult(v))
        return 0;
    MlirOperation d = mlirOpResultGetOwner(v);
    if (!tr_name_is(d, "arith.constant"))
        return 0;
    MlirAttribute a = mlirOperationGetAttributeByName(d, mlirStringRefCreateFromCString("value"));
    if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
        return 0;
    *out = mlirIntegerAttrGetValueInt(a);
    return 1;
}

static int is_tid_x(MlirValue v)
{
    if (!mlirValueIsAOpResult(v))
        return 0;
    MlirOperation d = mlirOpResultGetOwner(v);
    return tr_name_is(d, "gpu.thread_id") && tr_gpu_dim(d) == 0;
}

/* thread_id x / c (c a multiple of 64) is the wave's index (times 64/c) when
   the workgroup's rows are whole waves. */
static int wave_uniform(ua *U, MlirOperation op, const char *name)
{
    tr *T = U->T;
    if (T->wg[0] % 64 != 0)
        return 0;
    if (!strcmp(name, "arith.divui") || !strcmp(name, "arith.divsi") ||
        !strcmp(name, "arith.floordivsi") || !strcmp(name, "arith.shrui") ||
        !strcmp(name, "arith.shrsi")) {
        int64_t c;
        if (!is_tid_x(tr_operand(op, 0)) || !tr_const_int_value(tr_operand(op, 1), &c))
            return 0;
        if (name[6] == 's' && name[7] == 'h')
            return c >= 6 && c < 32;
        return c > 0 && c % 64 == 0;
    }
    if (!strcmp(name, "affine.apply") && tr_noperands(op) == 1 && is_tid_x(tr_operand(op, 0))) {
        MlirAttribute ma = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("map"));
        if (mlirAttributeIsNull(ma) || !mlirAttributeIsAAffineMap(ma))
            return 0;
        MlirAffineMap m = mlirAffineMapAttrGetValue(ma);
        if (mlirAffineMapGetNumResults(m) != 1)
            return 0;
        MlirAffineExpr e = mlirAffineMapGetResult(m, 0);
        if (!mlirAffineExprIsAFloorDiv(e))
            return 0;
        MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e), r = mlirAffineBinaryOpExprGetRHS(e);
        if (!(mlirAffineExprIsADim(l) || mlirAffineExprIsASymbol(l)) || !mlirAffineExprIsAConstant(r))
            return 0;
        int64_t c = mlirAffineConstantExprGetValue(r);
        return c > 0 && c % 64 == 0;
    }
    return 0;
}

static void analyze_region(ua *U, MlirRegion r);

static MlirOperation terminator(MlirRegion r)
{
    MlirBlock b = mlirRegionGetFirstBlock(r);
    if (mlirBlockIsNull(b))
        return (MlirOperation){ NULL };
    return mlirBlockGetTerminator(b);
}

static void branch_args(ua *U, MlirOperation op, MlirBlock succ, intptr_t first, intptr_t count,
                        int divergent)
{
    for (intptr_t i = 0; i < count && i < mlirBlockGetNumArguments(succ); i++)
        mark(U, mlirBlockGetArgument(succ, i), divergent || vdiv(U, tr_operand(op, first + i)));
}

static void analyze_op(ua *U, MlirOperation op)
{
    tr *T = U->T;
    MlirStringRef nm = tr_op_name(op);
    char name[64];
    size_t n = nm.length < sizeof(name) - 1 ? nm.length : sizeof(name) - 1;
    memcpy(name, nm.data, n);
    name[n] = '\0';
    intptr_t nops = tr_noperands(op), nres = tr_nresults(op);
    int any = 0;
    for (intptr_t i = 0; i < nops; i++)
        any |= vdiv(U, tr_operand(op, i));

    if (!strcmp(name, "gpu.thread_id") || !strcmp(name, "gpu.global_id")) {
        int d = tr_gpu_dim(op);
        if (d >= 0) {
            T->uses_tid |= 1u << d;
            if (name[4] == 'g')
                T->uses_wgid |= 1u << d;
            int uniform = T->wg[d] == 1 && name[4] == 't';
            if (d == 1 && name[4] == 't' && T->wg[0] % 64 == 0)
                uniform = 1;
            if (d == 2 && name[4] == 't' && (T->wg[0] * T->wg[1]) % 64 == 0)
                uniform = 1;
            mark(U, tr_result(op, 0), !uniform);
        }
        return;
    }
    if (!strcmp(name, "gpu.block_id")) {
        int d = tr_gpu_dim(op);
        if (d >= 0)
            T->uses_wgid |= 1u << d;
        return;
    }
    if (!strcmp(name, "gpu.grid_dim")) {
        int d = tr_gpu_dim(op);
        if (d >= 0)
            T->uses_grid |= 1u << d;
        return;
    }
    if (!strcmp(name, "gpu.lane_id") || !strcmp(name, "gpu.shuffle") ||
        !strcmp(name, "amdgpu.mfma") || !strcmp(name, "amdgpu.scaled_mfma") ||
        !strcmp(name, "memref.atomic_rmw") || !strncmp(name, "amdgpu.raw_buffer_atomic", 24) ||
        !strcmp(name, "rocdl.mbcnt.lo") || !strcmp(name, "rocdl.mbcnt.hi") ||
        !strcmp(name, "rocdl.workitem.id.x") || !strcmp(name, "rocdl.ds_bpermute")) {
        if (!strcmp(name, "gpu.lane_id") || !strcmp(name, "gpu.shuffle"))
            T->uses_lanes = 1;
        for (intptr_t i = 0; i < nres; i++)
            mark(U, tr_result(op, i), 1);
        return;
    }
    if (!strcmp(name, "gpu.subgroup_broadcast") || !strcmp(name, "rocdl.readfirstlane") ||
        !strcmp(name, "rocdl.readlane") || !strcmp(name, "gpu.subgroup_id") ||
        !strcmp(name, "gpu.num_subgroups") || !strcmp(name, "gpu.subgroup_size") ||
        !strcmp(name, "gpu.block_dim"))
        return;
    if (!strcmp(name, "scf.for")) {
        int loop_div = vdiv(U, tr_operand(op, 0)) || vdiv(U, tr_operand(op, 1)) ||
                       vdiv(U, tr_operand(op, 2));
        MlirRegion body = mlirOperationGetRegion(op, 0);
        MlirBlock b = mlirRegionGetFirstBlock(body);
        MlirOperation y = terminator(body);
        mark(U, mlirBlockGetArgument(b, 0), loop_div);
        for (intptr_t i = 0; i < nres; i++) {
            int d = loop_div || vdiv(U, tr_operand(op, 3 + i)) ||
                    (!mlirOperationIsNull(y) && i < tr_noperands(y) && vdiv(U, tr_operand(y, i)));
            mark(U, mlirBlockGetArgument(b, i + 1), d);
            mark(U, tr_result(op, i), d);
        }
        analyze_region(U, body);
        return;
    }
    if (!strcmp(name, "scf.if")) {
        int cd = vdiv(U, tr_operand(op, 0));
        MlirRegion rt = mlirOperationGetRegion(op, 0), re = mlirOperationGetRegion(op, 1);
        analyze_region(U, rt);
        analyze_region(U, re);
        MlirOperation yt = terminator(rt), ye = terminator(re);
        for (intptr_t i = 0; i < nres; i++) {
            int d = cd;
            if (!mlirOperationIsNull(yt) && i < tr_noperands(yt))
                d |= vdiv(U, tr_operand(yt, i));
            if (!mlirOperationIsNull(ye) && i < tr_noperands(ye))
                d |= vdiv(U, tr_operand(ye, i));
            mark(U, tr_result(op, i), d);
        }
        return;
    }
    if (!strcmp(name, "scf.while")) {
        MlirRegion rb = mlirOperationGetRegion(op, 0), ra = mlirOperationGetRegion(op, 1);
        MlirBlock bb = mlirRegionGetFirstBlock(rb), ba = mlirRegionGetFirstBlock(ra);
        MlirOperation cond = terminator(rb), ay = terminator(ra);
        int loop_div = opdiv(U, op);
        for (intptr_t i = 0; i < mlirBlockGetNumArguments(bb); i++) {
            int d = loop_div || (i < nops && vdiv(U, tr_operand(op, i))) ||
                    (!mlirOperationIsNull(ay) && i < tr_noperands(ay) && vdiv(U, tr_operand(ay, i)));
            mark(U, mlirBlockGetArgument(bb, i), d);
        }
        analyze_region(U, rb);
        if (!mlirOperationIsNull(cond) && tr_noperands(cond) >= 1 && vdiv(U, tr_operand(cond, 0)))
            mark_op(U, op);
        loop_div = opdiv(U, op);
        for (intptr_t i = 0; i < mlirBlockGetNumArguments(ba); i++) {
            int d = loop_div ||
                    (!mlirOperationIsNull(cond) && i + 1 < tr_noperands(cond) &&
                     vdiv(U, tr_operand(cond, i + 1)));
            mark(U, mlirBlockGetArgument(ba, i), d);
            if (i < nres)
                mark(U, tr_result(op, i), d);
        }
        analyze_region(U, ra);
        return;
    }
    if (!strcmp(name, "cf.br")) {
        MlirBlock s = mlirOperationGetSuccessor(op, 0);
        branch_args(U, op, s, 0, nops, 0);
        return;
    }
    if (!strcmp(name, "cf.cond_br")) {
        int64_t seg[3] = { 1, 0, 0 };
        if (tr_attr_i64_array(op, "operandSegmentSizes", seg, 3) != 3) {
            seg[0] = 1;
            seg[1] = mlirBlockGetNumArguments(mlirOperationGetSuccessor(op, 0));
            seg[2] = nops - 1 - seg[1];
        }
        int cd = vdiv(U, tr_operand(op, 0));
        branch_args(U, op, mlirOperationGetSuccessor(op, 0), 1, seg[1], cd);
        branch_args(U, op, mlirOperationGetSuccessor(op, 1), 1 + seg[1], seg[2], cd);
        return;
    }
    if (wave_uniform(U, op, name))
        return;
    /* structured ops not listed above: their regions still count */
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
        analyze_region(U, mlirOperationGetRegion(op, r));
    for (intptr_t i = 0; i < nres; i++)
        mark(U, tr_result(op, i), any);
}

static void analyze_region(ua *U, MlirRegion r)
{
    for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
        for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
             op = mlirOperationGetNextInBlock(op))
            analyze_op(U, op);
}

int tr_uniformity(tr *T)
{
    ua U = { T, 1 };
    MlirRegion body = mlirOperationGetRegion(T->func, 0);
    for (unsigned iter = 0; U.changed && iter < 1000; iter++) {
        U.changed = 0;
        analyze_region(&U, body);
        if (T->failed)
            return -1;
    }
    return 0;
}
