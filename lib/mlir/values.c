/* lib/mlir/values.c — the value layer: the map from MLIR values to what holds
   them (constants, registers, memref descriptions), element types, constants
   and attributes. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pointer map (open addressing) ------------------------------------------------- */

static unsigned phash(const void *p, unsigned cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (unsigned)x & (cap - 1);
}

static int pmap_grow(pmap *m)
{
    unsigned cap = m->cap ? m->cap * 2 : 256;
    pmap_ent *e = calloc(cap, sizeof(*e));
    if (!e)
        return -1;
    for (unsigned i = 0; i < m->cap; i++) {
        if (!m->ents[i].key)
            continue;
        unsigned h = phash(m->ents[i].key, cap);
        while (e[h].key)
            h = (h + 1) & (cap - 1);
        e[h] = m->ents[i];
    }
    free(m->ents);
    m->ents = e;
    m->cap = cap;
    return 0;
}

pmap_ent *pmap_get(const pmap *m, const void *key)
{
    if (!m->cap || !key)
        return NULL;
    unsigned h = phash(key, m->cap);
    while (m->ents[h].key) {
        if (m->ents[h].key == key)
            return &m->ents[h];
        h = (h + 1) & (m->cap - 1);
    }
    return NULL;
}

int pmap_put(pmap *m, const void *key, void *val, unsigned flags)
{
    pmap_ent *e = pmap_get(m, key);
    if (e) {
        if (val)
            e->val = val;
        e->flags |= flags;
        return 0;
    }
    if ((m->count + 1) * 2 > m->cap && pmap_grow(m))
        return -1;
    unsigned h = phash(key, m->cap);
    while (m->ents[h].key)
        h = (h + 1) & (m->cap - 1);
    m->ents[h].key = key;
    m->ents[h].val = val;
    m->ents[h].flags = flags;
    m->count++;
    return 0;
}

void pmap_free(pmap *m)
{
    free(m->ents);
    m->ents = NULL;
    m->cap = m->count = 0;
}

/* ---- names --------------------------------------------------------------------------- */

MlirStringRef tr_op_name(MlirOperation op)
{
    return mlirIdentifierStr(mlirOperationGetName(op));
}

int tr_strref_eq(MlirStringRef s, const char *c)
{
    size_t n = strlen(c);
    return s.length == n && memcmp(s.data, c, n) == 0;
}

int tr_name_is(MlirOperation op, const char *name)
{
    return tr_strref_eq(tr_op_name(op), name);
}

MlirValue tr_operand(MlirOperation op, intptr_t i)
{
    return mlirOperationGetOperand(op, i);
}

MlirValue tr_result(MlirOperation op, intptr_t i)
{
    return mlirOperationGetResult(op, i);
}

intptr_t tr_noperands(MlirOperation op)
{
    return mlirOperationGetNumOperands(op);
}

intptr_t tr_nresults(MlirOperation op)
{
    return mlirOperationGetNumResults(op);
}

/* ---- types ------------------------------------------------------------------------- */

ety tr_ety(MlirType t)
{
    ety e = { ET_OTHER, 0, EF_NONE, 0 };
    if (mlirTypeIsAVector(t) || mlirTypeIsAMemRef(t))
        t = mlirShapedTypeGetElementType(t);
    if (mlirTypeIsAIndex(t)) {
        e.kind = ET_INT;
        e.bits = 32;
        e.index = 1;
    } else if (mlirTypeIsAInteger(t)) {
        unsigned w = mlirIntegerTypeGetWidth(t);
        if (w == 1 || w == 8 || w == 16 || w == 32 || w == 64) {
            e.kind = ET_INT;
            e.bits = (uint8_t)w;
        }
    } else if (mlirTypeIsAF16(t)) {
        e.kind = ET_FLOAT, e.bits = 16, e.fkind = EF_F16;
    } else if (mlirTypeIsABF16(t)) {
        e.kind = ET_FLOAT, e.bits = 16, e.fkind = EF_BF16;
    } else if (mlirTypeIsAF32(t)) {
        e.kind = ET_FLOAT, e.bits = 32, e.fkind = EF_F32;
    } else if (mlirTypeIsAF64(t)) {
        e.kind = ET_FLOAT, e.bits = 64, e.fkind = EF_F64;
    } else if (mlirTypeIsAFloat8E4M3FNUZ(t)) {
        e.kind = ET_FLOAT, e.bits = 8, e.fkind = EF_F8E4M3FNUZ;
    } else if (mlirTypeIsAFloat8E5M2FNUZ(t)) {
        e.kind = ET_FLOAT, e.bits = 8, e.fkind = EF_F8E5M2FNUZ;
    } else if (mlirTypeIsAFloat8E4M3FN(t)) {
        e.kind = ET_FLOAT, e.bits = 8, e.fkind = EF_F8E4M3FN;
    } else if (mlirTypeIsAFloat8E5M2(t)) {
        e.kind = ET_FLOAT, e.bits = 8, e.fkind = EF_F8E5M2;
    } else if (mlirTypeIsAFloat8E8M0FNU(t)) {
        e.kind = ET_FLOAT, e.bits = 8, e.fkind = EF_F8E8M0;
    } else if (mlirTypeIsAFloat6E2M3FN(t)) {
        e.kind = ET_FLOAT, e.bits = 6, e.fkind = EF_F6E2M3;
    } else if (mlirTypeIsAFloat6E3M2FN(t)) {
        e.kind = ET_FLOAT, e.bits = 6, e.fkind = EF_F6E3M2;
    } else if (mlirTypeIsAFloat4E2M1FN(t)) {
        e.kind = ET_FLOAT, e.bits = 4, e.fkind = EF_F4E2M1;
    }
    return e;
}

const char *tr_ety_name(ety et, char *buf, size_t len)
{
    static const char *const fnames[] = { "?", "f16", "bf16", "f32", "f64", "f8E4M3FNUZ",
                                          "f8E5M2FNUZ", "f8E4M3FN", "f8E5M2", "f8E8M0FNU",
                                          "f6E2M3FN", "f6E3M2FN", "f4E2M1FN" };
    if (et.kind == ET_INT)
        snprintf(buf, len, et.index ? "index" : "i%u", et.bits);
    else if (et.kind == ET_FLOAT && et.fkind < sizeof(fnames) / sizeof(fnames[0]))
        snprintf(buf, len, "%s", fnames[et.fkind]);
    else
        snprintf(buf, len, "an unsupported type");
    return buf;
}

unsigned tr_ety_dwords(ety et)
{
    return et.bits == 64 ? 2 : 1;
}

int tr_type_shape(tr *T, MlirType t, ety *et, unsigned *rank, int64_t *shape, unsigned *n)
{
    (void)T;
    *et = tr_ety(t);
    *rank = 0;
    *n = 1;
    if (mlirTypeIsAVector(t)) {
        int64_t r = mlirShapedTypeGetRank(t);
        if (r < 0 || r > TR_MAX_RANK)
            return -1;
        *rank = (unsigned)r;
        uint64_t total = 1;
        for (int64_t d = 0; d < r; d++) {
            int64_t s = mlirShapedTypeGetDimSize(t, d);
            if (s <= 0 || s > 65536)
                return -1;
            shape[d] = s;
            total *= (uint64_t)s;
            if (total > 65536)
                return -1;
        }
        *n = (unsigned)total;
    }
    return et->kind == ET_OTHER ? -1 : 0;
}

/* ---- values ------------------------------------------------------------------------ */

wval *tr_new_val(tr *T, vk kind, ety et, unsigned n)
{
    wval *w = tr_alloc(T, sizeof(*w));
    if (!w)
        return NULL;
    w->kind = (uint8_t)kind;
    w->et = et;
    w->n = n;
    if (n) {
        w->e = tr_alloc(T, n * sizeof(wv));
        if (!w->e)
            return NULL;
    }
    return w;
}

wval *tr_new_val_type(tr *T, MlirType t)
{
    ety et;
    unsigned rank, n;
    int64_t shape[TR_MAX_RANK];
    if (tr_type_shape(T, t, &et, &rank, shape, &n)) {
        tr_error(T, T->cur_loc, WA_E_UNSUPPORTED, "values of this type are not supported");
        return NULL;
    }
    wval *w = tr_new_val(T, mlirTypeIsAVector(t) ? VK_VECTOR : VK_SCALAR, et, n);
    if (!w)
        return NULL;
    w->rank = rank;
    memcpy(w->shape, shape, rank * sizeof(int64_t));
    return w;
}

wval *tr_result_val(tr *T, MlirOperation op, intptr_t i)
{
    return tr_new_val_type(T, mlirValueGetType(tr_result(op, i)));
}

wval *tr_val(tr *T, MlirValue v)
{
    pmap_ent *e = pmap_get(&T->values, v.ptr);
    if (!e || !e->val) {
        tr_error(T, T->cur_loc, WA_E_INTERNAL,
                 "internal error: an operand has no value (defined by an operation that was "
                 "not lowered)");
        return NULL;
    }
    return e->val;
}

int tr_set_val(tr *T, MlirValue v, wval *w)
{
    if (!w)
        return -1;
    if (pmap_put(&T->values, v.ptr, w, 0))
        return tr_nomem(T);
    return 0;
}

int tr_is_divergent(tr *T, MlirValue v)
{
    pmap_ent *e = pmap_get(&T->values, v.ptr);
    return e && (e->flags & TR_DIVERGENT) && !(e->flags & TR_UNIFORM_VALUED);
}

int tr_is_uniform_valued(tr *T, MlirValue v)
{
    return !tr_is_divergent(T, v);
}

wv *tr_scalar(tr *T, MlirValue v)
{
    wval *w = tr_val(T, v);
    if (!w)
        return NULL;
    if (w->kind != VK_SCALAR && !(w->kind == VK_VECTOR && w->n == 1)) {
        tr_error(T, T->cur_loc, WA_E_INTERNAL, "internal error: scalar operand expected");
        return NULL;
    }
    return &w->e[0];
}

/* ---- constants ---------------------------------------------------------------------- */

uint64_t tr_mask_bits(unsigned bits)
{
    return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
}

wv wv_const(uint64_t bits)
{
    wv e;
    memset(&e, 0, sizeof(e));
    e.kind = WV_CONST;
    e.c = bits;
    e.uniform = 1;
    return e;
}

void wv_infer_const_facts(wv *e, ety et)
{
    if (e->kind != WV_CONST || et.kind != ET_INT)
        return;
    int64_t v = wv_sext(e, et);
    e->has_range = 1;
    e->lo = e->hi = v;
    uint64_t u = wv_zext(e, et);
    unsigned tz = 0;
    if (u == 0)
        tz = 31;
    else
        while (!(u >> tz & 1) && tz < 31)
            tz++;
    e->align_log2 = (uint8_t)tz;
}

wv wv_const_int(ety et, int64_t v)
{
    wv e = wv_const((uint64_t)v & tr_mask_bits(et.bits ? et.bits : 32));
    wv_infer_const_facts(&e, et);
    return e;
}

int wv_is_const(const wv *e)
{
    return e->kind == WV_CONST;
}

int64_t wv_sext(const wv *e, ety et)
{
    unsigned b = et.bits ? et.bits : 32;
    uint64_t v = e->c & tr_mask_bits(b);
    if (b < 64 && (v >> (b - 1) & 1))
        v |= ~tr_mask_bits(b);
    return (int64_t)v;
}

uint64_t wv_zext(const wv *e, ety et)
{
    return e->c & tr_mask_bits(et.bits ? et.bits : 32);
}

void wv_set_range(wv *e, int64_t lo, int64_t hi)
{
    e->has_range = 1;
    e->lo = lo;
    e->hi = hi;
}

/* Float encodings. Round to nearest even; overflow gives the format's
   infinity, or its largest finite value (or NaN) when it has none. */
static uint64_t enc_small_float(double d, unsigned ebits, unsigned mbits, int bias, int has_inf,
                                int nan_kind /* 0 none, 1 all-ones exp, 2 neg zero (fnuz), 3 S.1111.111 */)
{
    uint64_t sign = signbit(d) ? 1 : 0;
    unsigned total = 1 + ebits + mbits;
    if (isnan(d)) {
        if (nan_kind == 2)
            return 1ull << (total - 1);
        if (nan_kind == 3)
            return tr_mask_bits(total - 1) | sign << (total - 1);
        if (nan_kind == 1)
            return (tr_mask_bits(ebits) << mbits) | (1ull << (mbits ? mbits - 1 : 0));
        return 0;
    }
    double a = fabs(d);
    /* largest finite */
    int emax_field = (int)tr_mask_bits(ebits) - (has_inf || nan_kind == 1 ? 1 : 0);
    uint64_t max_mant = tr_mask_bits(mbits);
    if (nan_kind == 3 && emax_field == (int)tr_mask_bits(ebits))
        max_mant -= 1; /* S.1111.111 is NaN */
    double maxv = ldexp(1.0 + (double)max_mant / (double)(1ull << mbits), emax_field - bias);
    if (a == 0.0)
        return nan_kind == 2 ? 0 : sign << (total - 1);
    int e;
    frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int exp = e - 1;  /* a in [2^exp, 2^(exp+1)) */
    int min_exp = 1 - bias;
    int qexp = exp < min_exp ? min_exp : exp;
    double scaled = ldexp(a, (int)mbits - qexp); /* mantissa units */
    double fl = floor(scaled);
    double rem = scaled - fl;
    uint64_t q = (uint64_t)fl;
    if (rem > 0.5 || (rem == 0.5 && (q & 1)))
        q++;
    /* q counts units of 2^(qexp - mbits) */
    double rounded = ldexp((double)q, qexp - (int)mbits);
    if (rounded > maxv) {
        if (has_inf)
            return sign << (total - 1) | tr_mask_bits(ebits) << mbits;
        if (nan_kind == 2)
            return 1ull << (total - 1); /* fnuz: NaN */
        return sign << (total - 1) | ((uint64_t)emax_field << mbits) | max_mant;
    }
    uint64_t field;
    if (q >= (1ull << mbits) * 2) { /* carried into the next binade */
        q >>= 1;
        qexp++;
    }
    if (q >= (1ull << mbits)) {
        field = ((uint64_t)(qexp + bias) << mbits) | (q - (1ull << mbits));
    } else {
        field = q; /* subnormal */
    }
    if (field == 0 && nan_kind == 2)
        return 0; /* fnuz has no negative zero */
    return sign << (total - 1) | field;
}

uint64_t tr_float_bits(double d, et_float fk)
{
    switch (fk) {
    case EF_F64: {
        uint64_t u;
        memcpy(&u, &d, 8);
        return u;
    }
    case EF_F32: {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    case EF_F16: return enc_small_float(d, 5, 10, 15, 1, 1);
    case EF_BF16: {
        /* from f32 bits with round to nearest even */
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        if (isnan(f))
            return (u >> 16) | 0x40;
        u += 0x7FFFu + ((u >> 16) & 1u);
        return u >> 16;
    }
    case EF_F8E4M3FNUZ: return enc_small_float(d, 4, 3, 8, 0, 2);
    case EF_F8E5M2FNUZ: return enc_small_float(d, 5, 2, 16, 0, 2);
    case EF_F8E4M3FN: return enc_small_float(d, 4, 3, 7, 0, 3);
    case EF_F8E5M2: return enc_small_float(d, 5, 2, 15, 1, 1);
    case EF_F8E8M0: {
        if (isnan(d) || d <= 0)
            return 0xFF;
        int e;
        frexp(d, &e);
        int x = e - 1 + 127;
        return x < 0 ? 0 : x > 254 ? 254 : (uint64_t)x;
    }
    case EF_F6E2M3: return enc_small_float(d, 2, 3, 1, 0, 0);
    case EF_F6E3M2: return enc_small_float(d, 3, 2, 3, 0, 0);
    case EF_F4E2M1: return enc_small_float(d, 2, 1, 1, 0, 0);
    default: return 0;
    }
}

static double dec_small_float(uint64_t b, unsigned ebits, unsigned mbits, int bias, int has_inf,
                              int nan_kind)
{
    unsigned total = 1 + ebits + mbits;
    int sign = (int)(b >> (total - 1) & 1);
    uint64_t ex = b >> mbits & tr_mask_bits(ebits);
    uint64_t m = b & tr_mask_bits(mbits);
    if (nan_kind == 2 && b == 1ull << (total - 1))
        return NAN;
    if (nan_kind == 3 && ex == tr_mask_bits(ebits) && m == tr_mask_bits(mbits))
        return NAN;
    if ((has_inf || nan_kind == 1) && ex == tr_mask_bits(ebits))
        return m ? NAN : (sign ? -INFINITY : INFINITY);
    double v = ex ? ldexp(1.0 + (double)m / (double)(1ull << mbits), (int)ex - bias)
                  : ldexp((double)m / (double)(1ull << mbits), 1 - bias);
    return sign ? -v : v;
}

double tr_float_value(uint64_t bits, et_float fk)
{
    switch (fk) {
    case EF_F64: {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    case EF_F32: {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case EF_F16: return dec_small_float(bits, 5, 10, 15, 1, 1);
    case EF_BF16: {
        uint32_t u = (uint32_t)(bits & 0xFFFF) << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case EF_F8E4M3FNUZ: return dec_small_float(bits, 4, 3, 8, 0, 2);
    case EF_F8E5M2FNUZ: return dec_small_float(bits, 5, 2, 16, 0, 2);
    case EF_F8E4M3FN: return dec_small_float(bits, 4, 3, 7, 0, 3);
    case EF_F8E5M2: return dec_small_float(bits, 5, 2, 15, 1, 1);
    case EF_F8E8M0: return (bits & 0xFF) == 0xFF ? NAN : ldexp(1.0, (int)(bits & 0xFF) - 127);
    case EF_F6E2M3: return dec_small_float(bits, 2, 3, 1, 0, 0);
    case EF_F6E3M2: return dec_small_float(bits, 3, 2, 3, 0, 0);
    case EF_F4E2M1: return dec_small_float(bits, 2, 1, 1, 0, 0);
    default: return 0.0;
    }
}

int tr_attr_bits(tr *T, MlirAttribute a, ety et, uint64_t *bits)
{
    (void)T;
    if (mlirAttributeIsAInteger(a)) {
        int64_t v = mlirIntegerAttrGetValueInt(a);
        *bits = (uint64_t)v & tr_mask_bits(et.bits);
        return 0;
    }
    if (mlirAttributeIsABool(a)) {
        *bits = mlirBoolAttrGetValue(a) ? 1 : 0;
        return 0;
    }
    if (mlirAttributeIsAFloat(a)) {
        double d = mlirFloatAttrGetValueDouble(a);
        if (et.kind != ET_FLOAT)
            return -1;
        *bits = tr_float_bits(d, (et_float)et.fkind);
        return 0;
    }
    return -1;
}

int tr_attr_has(MlirOperation op, const char *name)
{
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
    return !mlirAttributeIsNull(a);
}

int64_t tr_attr_int(MlirOperation op, const char *name, int64_t dflt)
{
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
    if (mlirAttributeIsNull(a))
        return dflt;
    if (mlirAttributeIsAInteger(a))
        return mlirIntegerAttrGetValueInt(a);
    if (mlirAttributeIsABool(a))
        return mlirBoolAttrGetValue(a);
    return dflt;
}

int tr_attr_i64_array(MlirOperation op, const char *name, int64_t *out, int max)
{
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
    if (mlirAttributeIsNull(a))
        return -1;
    int n = 0;
    if (mlirAttributeIsADenseI64Array(a) || mlirAttributeIsADenseI32Array(a) ||
        mlirAttributeIsADenseBoolArray(a)) {
        intptr_t k = mlirDenseArrayGetNumElements(a);
        for (intptr_t i = 0; i < k && n < max; i++)
            out[n++] = mlirAttributeIsADenseI64Array(a)   ? mlirDenseI64ArrayGetElement(a, i)
                       : mlirAttributeIsADenseI32Array(a) ? mlirDenseI32ArrayGetElement(a, i)
                                                          : mlirDenseBoolArrayGetElement(a, i);
        return n;
    }
    if (mlirAttributeIsAArray(a)) {
        intptr_t k = mlirArrayAttrGetNumElements(a);
        for (intptr_t i = 0; i < k && n < max; i++) {
            MlirAttribute e = mlirArrayAttrGetElement(a, i);
            if (mlirAttributeIsAInteger(e))
                out[n++] = mlirIntegerAttrGetValueInt(e);
            else if (mlirAttributeIsABool(e))
                out[n++] = mlirBoolAttrGetValue(e);
            else
                return -1;
        }
        return n;
    }
    return -1;
}

typedef struct fixbuf {
    char *buf;
    size_t len, used;
} fixbuf;

static void fix_append(MlirStringRef s, void *user)
{
    fixbuf *b = user;
    if (b->used + 1 >= b->len)
        return;
    size_t k = s.length;
    if (k > b->len - 1 - b->used)
        k = b->len - 1 - b->used;
    memcpy(b->buf + b->used, s.data, k);
    b->used += k;
    b->buf[b->used] = '\0';
}

void tr_attr_str(MlirAttribute a, char *buf, size_t len)
{
    fixbuf b = { buf, len, 0 };
    if (len)
        buf[0] = '\0';
    if (!mlirAttributeIsNull(a))
        mlirAttributePrint(a, fix_append, &b);
}
