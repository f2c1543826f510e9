/* lib/mlir/lower_affine.c — affine.apply, affine.min, affine.max: the map's
   expressions evaluated over the operands (dimensions first, then symbols),
   with floordiv/ceildiv rounding toward -inf/+inf and mod giving a result in
   [0, divisor) for a positive divisor, as affine maps define them. */
#include "internal.h"

#include <string.h>

static int eval(tr *T, MlirOperation op, MlirAffineExpr e, const wv *dims, intptr_t nd,
                const wv *syms, intptr_t ns, int uniform, wv *out)
{
    if (mlirAffineExprIsAConstant(e)) {
        *out = wv_const_int(TR_I32, mlirAffineConstantExprGetValue(e));
        return 0;
    }
    if (mlirAffineExprIsADim(e)) {
        intptr_t p = mlirAffineDimExprGetPosition(e);
        if (p >= nd)
            return tr_error_op(T, op, WA_E_INVALID, "affine dimension out of range");
        *out = dims[p];
        return 0;
    }
    if (mlirAffineExprIsASymbol(e)) {
        intptr_t p = mlirAffineSymbolExprGetPosition(e);
        if (p >= ns)
            return tr_error_op(T, op, WA_E_INVALID, "affine symbol out of range");
        *out = syms[p];
        return 0;
    }
    if (!mlirAffineExprIsABinary(e))
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "affine expression of this kind");
    wv a, b;
    if (eval(T, op, mlirAffineBinaryOpExprGetLHS(e), dims, nd, syms, ns, uniform, &a) ||
        eval(T, op, mlirAffineBinaryOpExprGetRHS(e), dims, nd, syms, ns, uniform, &b))
        return -1;
    int u = uniform;
    if (mlirAffineExprIsAAdd(e))
        *out = tr_iadd(T, &a, &b, u);
    else if (mlirAffineExprIsAMul(e))
        *out = tr_imul(T, &a, &b, u);
    else if (mlirAffineExprIsAFloorDiv(e))
        *out = tr_divrem(T, TR_DIV_FLOOR, &a, &b, u);
    else if (mlirAffineExprIsACeilDiv(e))
        *out = tr_divrem(T, TR_DIV_CEIL, &a, &b, u);
    else if (mlirAffineExprIsAMod(e))
        *out = tr_divrem(T, TR_MOD_FLOOR, &a, &b, u);
    else
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "affine expression of this kind");
    return T->failed ? -1 : 0;
}

static int lower_map(tr *T, MlirOperation op, int kind /* 0 apply, 1 min, 2 max */)
{
    MlirAttribute ma = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("map"));
    if (mlirAttributeIsNull(ma) || !mlirAttributeIsAAffineMap(ma))
        return tr_error_op(T, op, WA_E_INVALID, "missing affine map");
    MlirAffineMap map = mlirAffineMapAttrGetValue(ma);
    intptr_t nd = mlirAffineMapGetNumDims(map), ns = mlirAffineMapGetNumSymbols(map);
    if (tr_noperands(op) != nd + ns)
        return tr_error_op(T, op, WA_E_INVALID, "operand count does not match the map");
    wv *args = tr_alloc(T, (size_t)(nd + ns + 1) * sizeof(wv));
    if (!args)
        return -1;
    for (intptr_t i = 0; i < nd + ns; i++) {
        wv *e = tr_scalar(T, tr_operand(op, i));
        if (!e)
            return -1;
        args[i] = *e;
    }
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    intptr_t nr = mlirAffineMapGetNumResults(map);
    if (nr < 1 || (kind == 0 && nr != 1))
        return tr_error_op(T, op, WA_E_INVALID, "affine map with %ld results", (long)nr);
    wv acc;
    for (intptr_t r = 0; r < nr; r++) {
        wv v;
        if (eval(T, op, mlirAffineMapGetResult(map, r), args, nd, args + nd, ns, uniform, &v))
            return -1;
        if (r == 0)
            acc = v;
        else
            acc = tr_imin(T, &acc, &v, 1, kind == 2, uniform);
    }
    wval *res = tr_result_val(T, op, 0);
    if (!res)
        return -1;
    res->e[0] = acc;
    return tr_set_val(T, tr_result(op, 0), res);
}

static int lower_apply(tr *T, MlirOperation op)
{
    return lower_map(T, op, 0);
}
static int lower_min(tr *T, MlirOperation op)
{
    return lower_map(T, op, 1);
}
static int lower_max(tr *T, MlirOperation op)
{
    return lower_map(T, op, 2);
}

const tr_op_entry tr_affine_ops[] = {
    { "affine.apply", lower_apply },
    { "affine.min", lower_min },
    { "affine.max", lower_max },
    { NULL, NULL },
};
