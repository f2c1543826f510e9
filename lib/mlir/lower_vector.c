/* lib/mlir/lower_vector.c — vector: loads and stores (plain, masked,
   transfer_read/transfer_write with permutation maps, padding and masks),
   broadcast, splat, extract/insert (static and dynamic positions), strided
   slices, shape_cast, bitcast, transpose, fma, reduction, from_elements,
   create_mask, constant_mask, step.

   A vector is a list of element values (one per lane per element) in row-major
   order; the elements usually point into packed registers that a load filled
   or that a computation wrote, so extracting, slicing and reshaping cost
   nothing and registers are packed again only where an instruction needs a
   tuple (stores, MFMA operands, loop-carried vectors). */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int set_result(tr *T, MlirOperation op, intptr_t i, wval *w)
{
    return tr_set_val(T, tr_result(op, i), w);
}

/* Row-major linear index of position `pos` in `shape`. */
static unsigned linear(const int64_t *shape, unsigned rank, const int64_t *pos)
{
    unsigned l = 0;
    for (unsigned d = 0; d < rank; d++)
        l = l * (unsigned)shape[d] + (unsigned)pos[d];
    return l;
}

static void delinear(const int64_t *shape, unsigned rank, unsigned l, int64_t *pos)
{
    for (int d = (int)rank - 1; d >= 0; d--) {
        pos[d] = (int64_t)(l % (unsigned)shape[d]);
        l /= (unsigned)shape[d];
    }
}

static wv *index_operands(tr *T, MlirOperation op, intptr_t first, unsigned n)
{
    wv *idx = tr_alloc(T, (n + 1) * sizeof(wv));
    if (!idx)
        return NULL;
    for (unsigned i = 0; i < n; i++) {
        wv *e = tr_scalar(T, tr_operand(op, first + (intptr_t)i));
        if (!e)
            return NULL;
        idx[i] = *e;
    }
    return idx;
}

/* ---- loads and stores ------------------------------------------------------------------- */

/* Reads/writes vector `w` (shape of rank vr) at `idx` of memref `m`: the vector's
   dimensions are the memref's trailing ones; rows of the last dimension are
   contiguous. `mask` and `pass` are per element (may be NULL). */
static int vec_access(tr *T, MlirOperation op, const mref *m, const wv *idx, wval *w, int store,
                      const wv *mask, const wv *pass)
{
    unsigned vr = w->rank ? w->rank : 1;
    int64_t shape[TR_MAX_RANK];
    if (w->rank)
        memcpy(shape, w->shape, sizeof(shape));
    else
        shape[0] = 1;
    if (vr > m->rank && !(m->rank == 0 && w->n == 1))
        return tr_error_op(T, op, WA_E_INVALID, "vector rank exceeds the memref rank");
    unsigned row = (unsigned)shape[vr - 1];
    unsigned rows = w->n / row;
    wv *pos = tr_alloc(T, (m->rank + 1) * sizeof(wv));
    if (!pos)
        return -1;
    for (unsigned r = 0; r < rows; r++) {
        int64_t lead[TR_MAX_RANK];
        delinear(shape, vr - 1, r, lead);
        for (unsigned d = 0; d < m->rank; d++)
            pos[d] = idx[d];
        for (unsigned d = 0; d + 1 < vr; d++) {
            unsigned md = m->rank - vr + d;
            if (lead[d]) {
                wv k = wv_const_int(TR_I32, lead[d]);
                pos[md] = tr_iadd(T, &idx[md], &k, 0);
            }
        }
        const wv *mk = mask ? mask + r * row : NULL;
        int st = store ? tr_mem_write(T, op, m, pos, row, w->e + r * row, mk)
                       : tr_mem_read(T, op, m, pos, row, w->e + r * row, mk, pass ? pass + r * row : NULL);
        if (st)
            return -1;
    }
    return 0;
}

static int lower_load(tr *T, MlirOperation op)
{
    mref *m = tr_memref(T, tr_operand(op, 0));
    if (!m)
        return -1;
    wv *idx = index_operands(T, op, 1, m->rank);
    wval *r = tr_result_val(T, op, 0);
    if (!idx || !r)
        return -1;
    if (vec_access(T, op, m, idx, r, 0, NULL, NULL))
        return -1;
    return set_result(T, op, 0, r);
}

static int lower_store(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    mref *m = tr_memref(T, tr_operand(op, 1));
    if (!v || !m)
        return -1;
    wv *idx = index_operands(T, op, 2, m->rank);
    if (!idx)
        return -1;
    return vec_access(T, op, m, idx, v, 1, NULL, NULL);
}

static int lower_maskedload(tr *T, MlirOperation op)
{
    mref *m = tr_memref(T, tr_operand(op, 0));
    if (!m)
        return -1;
    wv *idx = index_operands(T, op, 1, m->rank);
    wval *mask = tr_val(T, tr_operand(op, 1 + m->rank));
    wval *pass = tr_val(T, tr_operand(op, 2 + m->rank));
    wval *r = tr_result_val(T, op, 0);
    if (!idx || !mask || !pass || !r)
        return -1;
    if (vec_access(T, op, m, idx, r, 0, mask->e, pass->e))
        return -1;
    return set_result(T, op, 0, r);
}

static int lower_maskedstore(tr *T, MlirOperation op)
{
    mref *m = tr_memref(T, tr_operand(op, 0));
    if (!m)
        return -1;
    wv *idx = index_operands(T, op, 1, m->rank);
    wval *mask = tr_val(T, tr_operand(op, 1 + m->rank));
    wval *v = tr_val(T, tr_operand(op, 2 + m->rank));
    if (!idx || !mask || !v)
        return -1;
    return vec_access(T, op, m, idx, v, 1, mask->e, NULL);
}

/* transfer_read / transfer_write: the permutation map says which memref
   dimension each vector dimension walks (or that it is broadcast); dimensions
   not in_bounds are checked against the memref's sizes element by element. */
typedef struct xfer {
    int dim[TR_MAX_RANK];  /* memref dim of each vector dim, -1 broadcast */
    int in_bounds[TR_MAX_RANK];
    unsigned vrank;
} xfer;

static int xfer_info(tr *T, MlirOperation op, const mref *m, const wval *v, xfer *x)
{
    memset(x, 0, sizeof(*x));
    x->vrank = v->rank ? v->rank : 1;
    MlirAttribute pm = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("permutation_map"));
    if (mlirAttributeIsNull(pm) || !mlirAttributeIsAAffineMap(pm)) {
        for (unsigned d = 0; d < x->vrank; d++)
            x->dim[d] = (int)(m->rank - x->vrank + d);
    } else {
        MlirAffineMap map = mlirAffineMapAttrGetValue(pm);
        if ((unsigned)mlirAffineMapGetNumResults(map) != x->vrank)
            return tr_error_op(T, op, WA_E_INVALID, "permutation map does not match the vector");
        for (unsigned d = 0; d < x->vrank; d++) {
            MlirAffineExpr e = mlirAffineMapGetResult(map, d);
            if (mlirAffineExprIsADim(e))
                x->dim[d] = (int)mlirAffineDimExprGetPosition(e);
            else if (mlirAffineExprIsAConstant(e) && mlirAffineConstantExprGetValue(e) == 0)
                x->dim[d] = -1;
            else
                return tr_error_op(T, op, WA_E_UNSUPPORTED, "permutation map of this form");
        }
    }
    int64_t ib[TR_MAX_RANK];
    int n = tr_attr_i64_array(op, "in_bounds", ib, TR_MAX_RANK);
    for (unsigned d = 0; d < x->vrank; d++)
        x->in_bounds[d] = n > (int)d ? (int)ib[d] : 0;
    for (unsigned d = 0; d < x->vrank; d++)
        if (x->dim[d] < 0)
            x->in_bounds[d] = 1;
    return 0;
}

/* Is the transfer a plain vector access (minor identity, nothing to check)? */
static int xfer_plain(const xfer *x, const mref *m)
{
    for (unsigned d = 0; d < x->vrank; d++)
        if (x->dim[d] != (int)(m->rank - x->vrank + d) || !x->in_bounds[d])
            return 0;
    return 1;
}

/* Element masks of a transfer: the op's mask and, for dimensions that may go
   out of bounds, idx + k < size. */
static wv *xfer_masks(tr *T, MlirOperation op, const mref *m, const wv *idx, const xfer *x,
                      const wval *v, const wval *mask)
{
    wv *mk = tr_alloc(T, v->n * sizeof(wv));
    if (!mk)
        return NULL;
    int64_t shape[TR_MAX_RANK];
    if (v->rank)
        memcpy(shape, v->shape, sizeof(shape));
    else
        shape[0] = 1;
    for (unsigned i = 0; i < v->n; i++) {
        int64_t pos[TR_MAX_RANK];
        delinear(shape, x->vrank, i, pos);
        wv c = wv_const(1);
        if (mask)
            c = mask->e[mask->n == 1 ? 0 : i];
        for (unsigned d = 0; d < x->vrank; d++) {
            if (x->in_bounds[d])
                continue;
            int md = x->dim[d];
            wv k = wv_const_int(TR_I32, pos[d]);
            wv at = tr_iadd(T, &idx[md], &k, 0);
            if (m->size[md].kind == WV_NONE)
                return tr_error_op(T, op, WA_E_INTERNAL, "internal error: unknown size"), NULL;
            /* signed compare: a negative index is out of bounds too */
            wv z = wv_const_int(TR_I32, 0);
            wv lt = tr_icmp(T, 6, &at, &m->size[md], TR_I32, 0);
            (void)z;
            if (c.kind == WV_CONST && (c.c & 1)) {
                c = lt;
            } else if (!(c.kind == WV_CONST)) {
                wv f = wv_const(0);
                c = tr_select(T, &c, &lt, &f, TR_I1, 0);
            }
        }
        mk[i] = c;
    }
    return mk;
}

static int lower_transfer_read(tr *T, MlirOperation op)
{
    mref *m = tr_memref(T, tr_operand(op, 0));
    if (!m)
        return -1;
    wv *idx = index_operands(T, op, 1, m->rank);
    wv *pad = tr_scalar(T, tr_operand(op, 1 + m->rank));
    wval *r = tr_result_val(T, op, 0);
    if (!idx || !pad || !r)
        return -1;
    wval *mask = NULL;
    if (tr_noperands(op) > 2 + (intptr_t)m->rank) {
        mask = tr_val(T, tr_operand(op, 2 + m->rank));
        if (!mask)
            return -1;
    }
    xfer x;
    if (xfer_info(T, op, m, r, &x))
        return -1;
    if (xfer_plain(&x, m) && !mask) {
        if (vec_access(T, op, m, idx, r, 0, NULL, NULL))
            return -1;
        return set_result(T, op, 0, r);
    }
    if (mask && mask->n != r->n && mask->n != 1)
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "transfer_read with a mask and a broadcasting permutation map");
    wv *mk = xfer_masks(T, op, m, idx, &x, r, mask);
    if (!mk)
        return -1;
    /* minor identity rows stay contiguous accesses */
    int minor = 1;
    for (unsigned d = 0; d < x.vrank; d++)
        minor &= x.dim[d] == (int)(m->rank - x.vrank + d);
    wv *pass = tr_alloc(T, r->n * sizeof(wv));
    if (!pass)
        return -1;
    for (unsigned i = 0; i < r->n; i++)
        pass[i] = *pad;
    if (minor) {
        if (vec_access(T, op, m, idx, r, 0, mk, pass))
            return -1;
        return set_result(T, op, 0, r);
    }
    /* general: element by element */
    int64_t shape[TR_MAX_RANK];
    if (r->rank)
        memcpy(shape, r->shape, sizeof(shape));
    else
        shape[0] = 1;
    wv *pos = tr_alloc(T, (m->rank + 1) * sizeof(wv));
    if (!pos)
        return -1;
    for (unsigned i = 0; i < r->n; i++) {
        int64_t p[TR_MAX_RANK];
        delinear(shape, x.vrank, i, p);
        /* a broadcast dimension reads the same element again */
        for (unsigned d = 0; d < m->rank; d++)
            pos[d] = idx[d];
        for (unsigned d = 0; d < x.vrank; d++) {
            if (x.dim[d] < 0 || !p[d])
                continue;
            wv k = wv_const_int(TR_I32, p[d]);
            pos[x.dim[d]] = tr_iadd(T, &pos[x.dim[d]], &k, 0);
        }
        const wv *me = (mk[i].kind == WV_CONST && (mk[i].c & 1)) ? NULL : &mk[i];
        if (tr_mem_read(T, op, m, pos, 1, &r->e[i], me, me ? &pass[i] : NULL))
            return -1;
    }
    return set_result(T, op, 0, r);
}

static int lower_transfer_write(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    if (!v)
        return -1;
    if (tr_nresults(op) > 0)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "transfer_write on a tensor");
    mref *m = tr_memref(T, tr_operand(op, 1));
    if (!m)
        return -1;
    wv *idx = index_operands(T, op, 2, m->rank);
    if (!idx)
        return -1;
    wval *mask = NULL;
    if (tr_noperands(op) > 2 + (intptr_t)m->rank) {
        mask = tr_val(T, tr_operand(op, 2 + m->rank));
        if (!mask)
            return -1;
    }
    xfer x;
    if (xfer_info(T, op, m, v, &x))
        return -1;
    for (unsigned d = 0; d < x.vrank; d++)
        if (x.dim[d] < 0)
            return tr_error_op(T, op, WA_E_INVALID, "transfer_write cannot broadcast");
    if (xfer_plain(&x, m) && !mask)
        return vec_access(T, op, m, idx, v, 1, NULL, NULL);
    wv *mk = xfer_masks(T, op, m, idx, &x, v, mask);
    if (!mk)
        return -1;
    int minor = 1;
    for (unsigned d = 0; d < x.vrank; d++)
        minor &= x.dim[d] == (int)(m->rank - x.vrank + d);
    if (minor)
        return vec_access(T, op, m, idx, v, 1, mk, NULL);
    int64_t shape[TR_MAX_RANK];
    if (v->rank)
        memcpy(shape, v->shape, sizeof(shape));
    else
        shape[0] = 1;
    wv *pos = tr_alloc(T, (m->rank + 1) * sizeof(wv));
    if (!pos)
        return -1;
    for (unsigned i = 0; i < v->n; i++) {
        int64_t p[TR_MAX_RANK];
        delinear(shape, x.vrank, i, p);
        for (unsigned d = 0; d < m->rank; d++)
            pos[d] = idx[d];
        for (unsigned d = 0; d < x.vrank; d++) {
            if (!p[d])
                continue;
            wv k = wv_const_int(TR_I32, p[d]);
            pos[x.dim[d]] = tr_iadd(T, &pos[x.dim[d]], &k, 0);
        }
        const wv *me = (mk[i].kind == WV_CONST && (mk[i].c & 1)) ? NULL : &mk[i];
        if (tr_mem_write(T, op, m, pos, 1, &v->e[i], me))
            return -1;
    }
    return 0;
}

/* ---- element shuffling ---------------------------------------------------------------------- */

static int lower_broadcast(tr *T, MlirOperation op)
{
    wval *s = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!s || !r)
        return -1;
    if (s->kind == VK_SCALAR || s->n == 1) {
        for (unsigned i = 0; i < r->n; i++)
            r->e[i] = s->e[0];
        return set_result(T, op, 0, r);
    }
    /* source dims align with the result's trailing dims; size-1 dims repeat */
    unsigned sr = s->rank, rr = r->rank;
    for (unsigned i = 0; i < r->n; i++) {
        int64_t p[TR_MAX_RANK], q[TR_MAX_RANK];
        delinear(r->shape, rr, i, p);
        for (unsigned d = 0; d < sr; d++) {
            int64_t rp = p[rr - sr + d];
            q[d] = s->shape[d] == 1 ? 0 : rp;
        }
        r->e[i] = s->e[linear(s->shape, sr, q)];
    }
    return set_result(T, op, 0, r);
}

/* Static positions of extract/insert; dynamic ones select among candidates. */
static int positions(tr *T, MlirOperation op, intptr_t first_dyn, int64_t *pos, int *npos,
                     wv *dyn, int *is_dyn)
{
    int64_t st[TR_MAX_RANK];
    int n = tr_attr_i64_array(op, "static_position", st, TR_MAX_RANK);
    if (n < 0)
        n = tr_attr_i64_array(op, "position", st, TR_MAX_RANK);
    if (n < 0)
        return tr_error_op(T, op, WA_E_INVALID, "missing position");
    intptr_t k = first_dyn;
    for (int i = 0; i < n; i++) {
        is_dyn[i] = st[i] == INT64_MIN;
        if (is_dyn[i]) {
            wv *e = tr_scalar(T, tr_operand(op, k++));
            if (!e)
                return -1;
            if (e->kind == WV_CONST) {
                is_dyn[i] = 0;
                st[i] = (int64_t)(int32_t)e->c;
            } else {
                dyn[i] = *e;
            }
        }
        pos[i] = st[i];
    }
    *npos = n;
    return 0;
}

static int lower_extract(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    int64_t pos[TR_MAX_RANK];
    wv dyn[TR_MAX_RANK];
    int isd[TR_MAX_RANK], np;
    if (positions(T, op, 1, pos, &np, dyn, isd))
        return -1;
    unsigned inner = 1;
    for (unsigned d = (unsigned)np; d < v->rank; d++)
        inner *= (unsigned)v->shape[d];
    int any_dyn = 0;
    for (int i = 0; i < np; i++)
        any_dyn |= isd[i];
    if (!any_dyn) {
        unsigned base = 0;
        for (int d = 0; d < np; d++)
            base = base * (unsigned)v->shape[d] + (unsigned)pos[d];
        base *= inner;
        for (unsigned i = 0; i < r->n; i++)
            r->e[i] = v->e[base + i];
        return set_result(T, op, 0, r);
    }
    /* dynamic: select over every candidate position */
    unsigned outer = v->n / inner;
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    for (unsigned i = 0; i < r->n; i++)
        r->e[i] = v->e[i];
    for (unsigned o = 1; o < outer; o++) {
        int64_t p[TR_MAX_RANK];
        delinear(v->shape, (unsigned)np, o, p);
        wv cond = wv_const(1);
        int never = 0;
        for (int d = 0; d < np; d++) {
            if (!isd[d]) {
                never |= p[d] != pos[d];
                continue;
            }
            wv k = wv_const_int(TR_I32, p[d]);
            wv eq = tr_icmp(T, 0, &dyn[d], &k, TR_I32, uniform);
            if (cond.kind == WV_CONST)
                cond = eq;
            else {
                wv f = wv_const(0);
                cond = tr_select(T, &cond, &eq, &f, TR_I1, uniform);
            }
        }
        if (never)
            continue;
        for (unsigned i = 0; i < r->n; i++)
            r->e[i] = tr_select(T, &cond, &v->e[o * inner + i], &r->e[i],
                                v->et.bits == 1 ? TR_I1 : (v->et.bits < 32 ? TR_I32 : v->et), uniform);
    }
    /* position 0 was the default: if static parts exclude it, the loop covered all */
    return set_result(T, op, 0, r);
}

static int lower_insert(tr *T, MlirOperation op)
{
    wval *s = tr_val(T, tr_operand(op, 0));
    wval *v = tr_val(T, tr_operand(op, 1));
    wval *r = tr_result_val(T, op, 0);
    if (!s || !v || !r)
        return -1;
    int64_t pos[TR_MAX_RANK];
    wv dyn[TR_MAX_RANK];
    int isd[TR_MAX_RANK], np;
    if (positions(T, op, 2, pos, &np, dyn, isd))
        return -1;
    for (unsigned i = 0; i < r->n; i++)
        r->e[i] = v->e[i];
    unsigned inner = 1;
    for (unsigned d = (unsigned)np; d < v->rank; d++)
        inner *= (unsigned)v->shape[d];
    int any_dyn = 0;
    for (int i = 0; i < np; i++)
        any_dyn |= isd[i];
    if (!any_dyn) {
        unsigned base = 0;
        for (int d = 0; d < np; d++)
            base = base * (unsigned)v->shape[d] + (unsigned)pos[d];
        base *= inner;
        for (unsigned i = 0; i < inner; i++)
            r->e[base + i] = s->e[s->n == 1 ? 0 : i];
        return set_result(T, op, 0, r);
    }
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    unsigned outer = v->n / inner;
    for (unsigned o = 0; o < outer; o++) {
        int64_t p[TR_MAX_RANK];
        delinear(v->shape, (unsigned)np, o, p);
        wv cond = wv_const(1);
        int never = 0;
        for (int d = 0; d < np; d++) {
            if (!isd[d]) {
                never |= p[d] != pos[d];
                continue;
            }
            wv k = wv_const_int(TR_I32, p[d]);
            wv eq = tr_icmp(T, 0, &dyn[d], &k, TR_I32, uniform);
            if (cond.kind == WV_CONST)
                cond = eq;
            else {
                wv f = wv_const(0);
                cond = tr_select(T, &cond, &eq, &f, TR_I1, uniform);
            }
        }
        if (never)
            continue;
        for (unsigned i = 0; i < inner; i++)
            r->e[o * inner + i] =
                tr_select(T, &cond, &s->e[s->n == 1 ? 0 : i], &r->e[o * inner + i],
                          v->et.bits == 1 ? TR_I1 : (v->et.bits < 32 ? TR_I32 : v->et), uniform);
    }
    return set_result(T, op, 0, r);
}

static int lower_extract_strided_slice(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    int64_t off[TR_MAX_RANK] = { 0 }, str[TR_MAX_RANK];
    int no = tr_attr_i64_array(op, "offsets", off, TR_MAX_RANK);
    int ns = tr_attr_i64_array(op, "strides", str, TR_MAX_RANK);
    for (int d = ns < 0 ? 0 : ns; d < TR_MAX_RANK; d++)
        str[d] = 1;
    (void)no;
    for (unsigned i = 0; i < r->n; i++) {
        int64_t p[TR_MAX_RANK];
        delinear(r->shape, r->rank, i, p);
        for (unsigned d = 0; d < v->rank; d++)
            p[d] = (d < r->rank ? p[d] : 0) * (d < (unsigned)TR_MAX_RANK ? str[d] : 1) +
                   (no > (int)d ? off[d] : 0);
        r->e[i] = v->e[linear(v->shape, v->rank, p)];
    }
    return set_result(T, op, 0, r);
}

static int lower_insert_strided_slice(tr *T, MlirOperation op)
{
    wval *s = tr_val(T, tr_operand(op, 0));
    wval *v = tr_val(T, tr_operand(op, 1));
    wval *r = tr_result_val(T, op, 0);
    if (!s || !v || !r)
        return -1;
    int64_t off[TR_MAX_RANK] = { 0 }, str[TR_MAX_RANK];
    int no = tr_attr_i64_array(op, "offsets", off, TR_MAX_RANK);
    int ns = tr_attr_i64_array(op, "strides", str, TR_MAX_RANK);
    for (int d = ns < 0 ? 0 : ns; d < TR_MAX_RANK; d++)
        str[d] = 1;
    for (unsigned i = 0; i < r->n; i++)
        r->e[i] = v->e[i];
    unsigned lead = v->rank - s->rank;
    for (unsigned i = 0; i < s->n; i++) {
        int64_t p[TR_MAX_RANK], q[TR_MAX_RANK];
        delinear(s->shape, s->rank, i, p);
        for (unsigned d = 0; d < v->rank; d++) {
            int64_t o = no > (int)d ? off[d] : 0;
            q[d] = d < lead ? o : o + p[d - lead] * str[d - lead];
        }
        r->e[linear(v->shape, v->rank, q)] = s->e[i];
    }
    return set_result(T, op, 0, r);
}

static int lower_shape_cast(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    if (r->n != v->n)
        return tr_error_op(T, op, WA_E_INVALID, "shape_cast changes the element count");
    memcpy(r->e, v->e, r->n * sizeof(wv));
    return set_result(T, op, 0, r);
}

static int lower_bitcast(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    if (v->et.bits == r->et.bits) {
        for (unsigned i = 0; i < r->n; i++) {
            r->e[i] = v->e[i];
            r->e[i].has_range = 0;
        }
        return set_result(T, op, 0, r);
    }
    /* row by row through packed registers */
    unsigned vrow = v->rank ? (unsigned)v->shape[v->rank - 1] : 1;
    unsigned rrow = r->rank ? (unsigned)r->shape[r->rank - 1] : 1;
    unsigned rows = v->n / vrow;
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    for (unsigned k = 0; k < rows; k++) {
        wa_operand t = tr_pack(T, v, k * vrow, vrow);
        if (T->failed)
            return -1;
        if ((vrow * v->et.bits) % 32 == 0 && r->et.bits >= 8)
            tr_unpack(T, r->e + k * rrow, t, r->et, rrow, uniform);
        else
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "bitcast of rows that are not whole dwords");
    }
    return set_result(T, op, 0, r);
}

static int lower_transpose(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    int64_t perm[TR_MAX_RANK];
    int n = tr_attr_i64_array(op, "permutation", perm, TR_MAX_RANK);
    if (n != (int)v->rank)
        return tr_error_op(T, op, WA_E_INVALID, "bad permutation");
    for (unsigned i = 0; i < r->n; i++) {
        int64_t p[TR_MAX_RANK] = { 0 }, q[TR_MAX_RANK] = { 0 };
        delinear(r->shape, r->rank, i, p);
        for (unsigned d = 0; d < r->rank; d++)
            q[perm[d]] = p[d];
        r->e[i] = v->e[linear(v->shape, v->rank, q)];
    }
    return set_result(T, op, 0, r);
}

static int lower_from_elements(tr *T, MlirOperation op)
{
    wval *r = tr_result_val(T, op, 0);
    if (!r)
        return -1;
    if ((unsigned)tr_noperands(op) != r->n)
        return tr_error_op(T, op, WA_E_INVALID, "from_elements count");
    for (unsigned i = 0; i < r->n; i++) {
        wv *e = tr_scalar(T, tr_operand(op, i));
        if (!e)
            return -1;
        r->e[i] = *e;
    }
    return set_result(T, op, 0, r);
}

static int lower_to_elements(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    if (!v)
        return -1;
    for (intptr_t i = 0; i < tr_nresults(op) && (unsigned)i < v->n; i++) {
        wval *r = tr_result_val(T, op, i);
        if (!r)
            return -1;
        r->e[0] = v->e[i];
        if (set_result(T, op, i, r))
            return -1;
    }
    return 0;
}

static int lower_create_mask(tr *T, MlirOperation op)
{
    wval *r = tr_result_val(T, op, 0);
    if (!r)
        return -1;
    unsigned rank = r->rank ? r->rank : 1;
    wv *b = tr_alloc(T, rank * sizeof(wv));
    if (!b)
        return -1;
    for (unsigned d = 0; d < rank; d++) {
        wv *e = tr_scalar(T, tr_operand(op, d));
        if (!e)
            return -1;
        b[d] = *e;
    }
    int64_t shape[TR_MAX_RANK];
    if (r->rank)
        memcpy(shape, r->shape, sizeof(shape));
    else
        shape[0] = 1;
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    for (unsigned i = 0; i < r->n; i++) {
        int64_t p[TR_MAX_RANK];
        delinear(shape, rank, i, p);
        wv c = wv_const(1);
        for (unsigned d = 0; d < rank; d++) {
            wv k = wv_const_int(TR_I32, p[d]);
            wv lt = tr_icmp(T, 2, &k, &b[d], TR_I32, uniform);
            if (c.kind == WV_CONST && (c.c & 1))
                c = lt;
            else if (c.kind != WV_CONST) {
                wv f = wv_const(0);
                c = tr_select(T, &c, &lt, &f, TR_I1, uniform);
            }
        }
        r->e[i] = c;
    }
    return set_result(T, op, 0, r);
}

static int lower_constant_mask(tr *T, MlirOperation op)
{
    wval *r = tr_result_val(T, op, 0);
    if (!r)
        return -1;
    int64_t sizes[TR_MAX_RANK];
    int n = tr_attr_i64_array(op, "mask_dim_sizes", sizes, TR_MAX_RANK);
    unsigned rank = r->rank ? r->rank : 1;
    int64_t shape[TR_MAX_RANK];
    if (r->rank)
        memcpy(shape, r->shape, sizeof(shape));
    else
        shape[0] = 1;
    for (unsigned i = 0; i < r->n; i++) {
        int64_t p[TR_MAX_RANK];
        delinear(shape, rank, i, p);
        int in = 1;
        for (unsigned d = 0; d < rank; d++)
            in &= n > (int)d && p[d] < sizes[d];
        r->e[i] = wv_const((uint64_t)in);
    }
    return set_result(T, op, 0, r);
}

static int lower_step(tr *T, MlirOperation op)
{
    wval *r = tr_result_val(T, op, 0);
    if (!r)
        return -1;
    for (unsigned i = 0; i < r->n; i++)
        r->e[i] = wv_const_int(r->et, i);
    return set_result(T, op, 0, r);
}

static int lower_fma(tr *T, MlirOperation op)
{
    wval *a = tr_val(T, tr_operand(op, 0)), *b = tr_val(T, tr_operand(op, 1)),
         *c = tr_val(T, tr_operand(op, 2));
    wval *r = tr_result_val(T, op, 0);
    if (!a || !b || !c || !r)
        return -1;
    if (r->et.kind != ET_FLOAT || r->et.fkind == EF_F64)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "fma of this type");
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    for (unsigned i = 0; i < r->n; i++) {
        const wv *x = &a->e[a->n == 1 ? 0 : i], *y = &b->e[b->n == 1 ? 0 : i],
                 *z = &c->e[c->n == 1 ? 0 : i];
        if (x->kind == WV_CONST && y->kind == WV_CONST && z->kind == WV_CONST) {
            float fx = (float)tr_float_value(x->c, (et_float)r->et.fkind),
                  fy = (float)tr_float_value(y->c, (et_float)r->et.fkind),
                  fz = (float)tr_float_value(z->c, (et_float)r->et.fkind);
            r->e[i] = wv_const(tr_float_bits((double)fmaf(fx, fy, fz), (et_float)r->et.fkind));
            continue;
        }
        wa_operand fx = tr_f32_of(T, x, r->et), fy = tr_f32_of(T, y, r->et), fz = tr_f32_of(T, z, r->et);
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
        tr_valu(T, WA_OP_V_FMA_F32, d, fx, fy, fz);
        r->e[i] = tr_f32_to(T, d, r->et, uniform);
    }
    return set_result(T, op, 0, r);
}

/* ---- reduction -------------------------------------------------------------------------------- */

static int combine(tr *T, MlirOperation op, const char *kind, ety et, const wv *a, const wv *b,
                   int uniform, wv *out);

static int lower_reduction(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    MlirAttribute k = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("kind"));
    char printed[64], kind[64];
    tr_attr_str(k, printed, sizeof(printed));
    /* "#vector.kind<maxsi>": the name between the brackets ("vector" holds "or") */
    const char *lt = strchr(printed, '<');
    snprintf(kind, sizeof(kind), "%s", lt ? lt + 1 : printed);
    char *gt = strchr(kind, '>');
    if (gt)
        *gt = '\0';
    int uniform = !tr_is_divergent(T, tr_result(op, 0));
    wv acc = v->e[0];
    unsigned start = 1;
    if (tr_noperands(op) > 1) {
        wv *a0 = tr_scalar(T, tr_operand(op, 1));
        if (!a0)
            return -1;
        acc = *a0;
        start = 0;
    }
    for (unsigned i = start; i < v->n; i++)
        if (combine(T, op, kind, v->et, &acc, &v->e[i], uniform, &acc))
            return -1;
    r->e[0] = acc;
    return set_result(T, op, 0, r);
}

/* The combining operation of a reduction kind, through the arith lowering of
   a two-operand operation built on the fly. */
static int combine(tr *T, MlirOperation op, const char *kind, ety et, const wv *a, const wv *b,
                   int uniform, wv *out)
{
    if (et.kind == ET_FLOAT) {
        if (et.fkind == EF_F64)
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "f64 reductions are not supported");
        wa_operand x = tr_f32_of(T, a, et), y = tr_f32_of(T, b, et);
        wa_operand d = tr_vreg(T, WA_REG_VGPR, 1);
        if (!strcmp(kind, "add")) {
            tr_valu_c(T, WA_OP_V_ADD_F32, d, x, y);
        } else if (!strcmp(kind, "mul")) {
            tr_valu_c(T, WA_OP_V_MUL_F32, d, x, y);
        } else if (strstr(kind, "minnumf") || strstr(kind, "maxnumf") ||
                   strstr(kind, "minimumf") || strstr(kind, "maximumf")) {
            /* min/max of the NaN-free case (the arith ops handle the rest) */
            int is_max = strstr(kind, "max") != NULL;
            tr_valu_c(T, is_max ? WA_OP_V_MAX_F32 : WA_OP_V_MIN_F32, d, x, y);
            if (strstr(kind, "imum")) {
                wa_operand an = tr_vreg(T, WA_REG_SGPR, 2), bn = tr_vreg(T, WA_REG_SGPR, 2),
                           any = tr_vreg(T, WA_REG_SGPR, 2), r2 = tr_vreg(T, WA_REG_VGPR, 1);
                wa_operand xv = tr_to_vgpr(T, x), yv = tr_to_vgpr(T, y);
                tr_valu(T, WA_OP_V_CMP_NEQ_F32, an, xv, xv, wa_opnd_none());
                tr_valu(T, WA_OP_V_CMP_NEQ_F32, bn, yv, yv, wa_opnd_none());
                wa_operand o[3] = { any, an, bn };
                tr_emit(T, WA_OP_S_OR_B64, o, 3, NULL);
                tr_valu(T, WA_OP_V_CNDMASK_B32, r2, d, tr_to_vgpr(T, wa_opnd_imm(0x7FC00000)), any);
                d = r2;
            }
        } else {
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "reduction kind %s on floats", kind);
        }
        *out = tr_f32_to(T, d, et, uniform);
        return 0;
    }
    if (et.kind != ET_INT || et.bits == 64)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "reduction of this type");
    if (!strcmp(kind, "add"))
        *out = tr_iadd(T, a, b, uniform);
    else if (!strcmp(kind, "mul"))
        *out = tr_imul(T, a, b, uniform);
    else if (!strcmp(kind, "and"))
        *out = tr_iand(T, a, b, uniform);
    else if (!strcmp(kind, "xor"))
        *out = tr_ixor(T, a, b, uniform);
    else if (!strcmp(kind, "or")) {
        wv x = tr_settle(T, a), y = tr_settle(T, b);
        wa_operand d;
        if (x.kind != WV_VREG && y.kind != WV_VREG) {
            d = tr_vreg(T, WA_REG_SGPR, 1);
            tr_salu(T, WA_OP_S_OR_B32, d, tr_src(T, &x), tr_src(T, &y));
            *out = wv_sreg(d);
        } else {
            d = tr_vreg(T, WA_REG_VGPR, 1);
            tr_valu_c(T, WA_OP_V_OR_B32, d, tr_src(T, &x), tr_src(T, &y));
            *out = wv_vreg(d, uniform);
        }
    } else if (!strcmp(kind, "minsi") || !strcmp(kind, "maxsi") || !strcmp(kind, "minui") ||
               !strcmp(kind, "maxui")) {
        int sg = strstr(kind, "si") != NULL, mx = strstr(kind, "max") != NULL;
        wv x = *a, y = *b;
        if (et.bits < 32) {
            wa_operand xa = tr_src_ext(T, a, et, sg), ya = tr_src_ext(T, b, et, sg);
            x = xa.reg_class == WA_REG_VGPR ? wv_vreg(xa, a->uniform) : wv_sreg(xa);
            y = ya.reg_class == WA_REG_VGPR ? wv_vreg(ya, b->uniform) : wv_sreg(ya);
            if (xa.kind == WA_OPND_IMM)
                x = wv_const_int(TR_I32, xa.imm.i);
            if (ya.kind == WA_OPND_IMM)
                y = wv_const_int(TR_I32, ya.imm.i);
        }
        *out = tr_imin(T, &x, &y, sg, mx, uniform);
    } else {
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "reduction kind %s", kind);
    }
    return 0;
}

static int lower_splat(tr *T, MlirOperation op)
{
    return lower_broadcast(T, op);
}

const tr_op_entry tr_vector_ops[] = {
    { "vector.load", lower_load },
    { "vector.store", lower_store },
    { "vector.maskedload", lower_maskedload },
    { "vector.maskedstore", lower_maskedstore },
    { "vector.transfer_read", lower_transfer_read },
    { "vector.transfer_write", lower_transfer_write },
    { "vector.broadcast", lower_broadcast },
    { "vector.splat", lower_splat },
    { "vector.extract", lower_extract },
    { "vector.insert", lower_insert },
    { "vector.extract_strided_slice", lower_extract_strided_slice },
    { "vector.insert_strided_slice", lower_insert_strided_slice },
    { "vector.shape_cast", lower_shape_cast },
    { "vector.bitcast", lower_bitcast },
    { "vector.transpose", lower_transpose },
    { "vector.fma", lower_fma },
    { "vector.reduction", lower_reduction },
    { "vector.from_elements", lower_from_elements },
    { "vector.to_elements", lower_to_elements },
    { "vector.create_mask", lower_create_mask },
    { "vector.constant_mask", lower_constant_mask },
    { "vector.step", lower_step },
    { NULL, NULL },
};
