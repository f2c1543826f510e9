/* lib/mlir/lower_memref.c — memrefs and the memory access engine.

   A memref is a base (a kernel argument's buffer descriptor, a fat raw buffer
   descriptor, or an LDS offset), a byte offset, sizes and strides (constants
   or registers). Views (subview, view, reinterpret_cast, cast,
   extract_strided_metadata, assume_alignment) only change that description.

   An access splits its byte address into a per-lane part, a uniform part and a
   constant: global memory uses buffer instructions with the per-lane part in
   the VGPR offset (offen), the uniform part in soffset and the constant in the
   instruction offset; LDS uses the DS offset field for the constant. Vectors
   move in the widest instructions the size (and, for LDS, the known alignment)
   allows. Masked elements are accessed under EXEC narrowed to their lanes and
   masked-off lanes of a read take the pass-through value. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* ---- memref descriptions ---------------------------------------------------------------- */

static unsigned mspace_of(tr *T, MlirType t, int *ok)
{
    (void)T;
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
        if (v == 7)
            return MS_BUFFER;
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

int tr_memref_from_type(tr *T, MlirOperation op, MlirType t, mref *m)
{
    memset(m, 0, sizeof(*m));
    if (!mlirTypeIsAMemRef(t))
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "ranked memref type expected");
    int64_t rank = mlirShapedTypeGetRank(t);
    if (rank > TR_MAX_RANK)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "memrefs of rank above %d", TR_MAX_RANK);
    m->rank = (uint8_t)rank;
    m->et = tr_ety(t);
    if (m->et.kind == ET_OTHER)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "memrefs of this element type");
    m->ebits = m->et.bits;
    m->esize = m->et.bits >= 8 ? m->et.bits / 8 : 1;
    if (m->et.bits == 1) {
        m->ebits = 8; /* i1 in memory is a byte */
        m->esize = 1;
    }
    int ok;
    m->space = (uint8_t)mspace_of(T, t, &ok);
    if (!ok) {
        char buf[128];
        tr_attr_str(mlirMemRefTypeGetMemorySpace(t), buf, sizeof(buf));
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "memory space %s is not supported", buf);
    }
    int64_t strides[TR_MAX_RANK], offset = 0;
    int have_layout = !mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, strides, &offset));
    for (int64_t d = 0; d < rank; d++) {
        if (!mlirShapedTypeIsDynamicDim(t, d)) {
            m->size[d] = wv_const_int(TR_I32, mlirShapedTypeGetDimSize(t, d));
        }
        if (have_layout && !mlirShapedTypeIsDynamicStrideOrOffset(strides[d]))
            m->stride[d] = wv_const_int(TR_I32, strides[d]);
    }
    if (have_layout && !mlirShapedTypeIsDynamicStrideOrOffset(offset))
        m->off = wv_const_int(TR_I32, offset * (int64_t)m->esize);
    return 0;
}

mref *tr_memref(tr *T, MlirValue v)
{
    wval *w = tr_val(T, v);
    if (!w)
        return NULL;
    if (w->kind != VK_MEMREF || !w->m) {
        tr_error(T, T->cur_loc, WA_E_UNSUPPORTED, "a memref operand was expected");
        return NULL;
    }
    return w->m;
}

static int set_memref(tr *T, MlirValue v, mref *m)
{
    wval *w = tr_new_val(T, VK_MEMREF, m->et, 0);
    if (!w)
        return -1;
    w->m = m;
    return tr_set_val(T, v, w);
}

wa_operand tr_memref_srd(tr *T, const mref *m)
{
    if (m->space == MS_BUFFER)
        return m->srd;
    return tr_arg_srd(T, m->arg);
}

/* Row-major strides for the dimensions whose stride is unknown, from sizes. */
static void identity_strides(tr *T, mref *m)
{
    for (int d = (int)m->rank - 1; d >= 0; d--) {
        if (m->stride[d].kind != WV_NONE)
            continue;
        if (d == (int)m->rank - 1)
            m->stride[d] = wv_const_int(TR_I32, 1);
        else
            m->stride[d] = tr_imul(T, &m->stride[d + 1], &m->size[d + 1], 1);
    }
}

/* Static-or-dynamic operand lists (subview, reinterpret_cast): entries equal
   to the dynamic marker take the next dynamic operand. */
static int mixed(tr *T, MlirOperation op, const char *attr, intptr_t *next_operand, unsigned n,
                 wv *out)
{
    int64_t vals[TR_MAX_RANK];
    int got = tr_attr_i64_array(op, attr, vals, TR_MAX_RANK);
    if (got != (int)n)
        return tr_error_op(T, op, WA_E_INVALID, "malformed %s", attr);
    for (unsigned i = 0; i < n; i++) {
        if (vals[i] == INT64_MIN) {
            wv *e = tr_scalar(T, tr_operand(op, (*next_operand)++));
            if (!e)
                return -1;
            out[i] = *e;
        } else {
            out[i] = wv_const_int(TR_I32, vals[i]);
        }
    }
    return 0;
}

/* ---- addresses --------------------------------------------------------------------------------- */

typedef struct addr {
    wv uni, div;
    int have_uni, have_div;
    int64_t c;          /* constant bytes */
    unsigned align_log2; /* known alignment of the whole address */
} addr;

static unsigned ctz64(uint64_t v)
{
    if (!v)
        return 31;
    unsigned n = 0;
    while (!(v >> n & 1) && n < 31)
        n++;
    return n;
}

static void addr_init(addr *a)
{
    memset(a, 0, sizeof(*a));
    a->align_log2 = 31;
}

/* Adds a term (an integer element) to the address. */
static void addr_add(tr *T, addr *a, const wv *t)
{
    if (t->kind == WV_CONST) {
        a->c += (int64_t)(int32_t)(uint32_t)t->c;
        unsigned z = ctz64(t->c & 0xFFFFFFFFu);
        if (z < a->align_log2)
            a->align_log2 = z;
        return;
    }
    wv r = *t;
    a->c += r.add;
    if (r.add) {
        unsigned z = ctz64((uint64_t)r.add);
        if (z < a->align_log2)
            a->align_log2 = z;
    }
    r.add = 0;
    if (r.has_range) {
        r.lo -= t->add;
        r.hi -= t->add;
    }
    if (r.shift)
        r = tr_settle(T, &r);
    unsigned al = t->align_log2;
    if (al < a->align_log2)
        a->align_log2 = al;
    if (r.kind == WV_SREG) {
        a->uni = a->have_uni ? tr_iadd(T, &a->uni, &r, 1) : r;
        a->have_uni = 1;
    } else {
        a->div = a->have_div ? tr_iadd(T, &a->div, &r, 0) : r;
        a->have_div = 1;
    }
}

/* Byte address of element `idx` (relative to the memref's base). */
static int mem_addr(tr *T, const mref *m, const wv *idx, addr *a)
{
    addr_init(a);
    if (m->off.kind == WV_NONE)
        return tr_error(T, T->cur_loc, WA_E_INTERNAL, "internal error: memref without an offset");
    addr_add(T, a, &m->off);
    if (m->space == MS_LDS)
        addr_add(T, a, &m->base);
    for (unsigned d = 0; d < m->rank; d++) {
        if (idx[d].kind == WV_CONST && idx[d].c == 0)
            continue;
        if (m->stride[d].kind == WV_NONE)
            return tr_error(T, T->cur_loc, WA_E_INTERNAL, "internal error: unknown stride");
        wv es = wv_const_int(TR_I32, m->esize);
        wv s = tr_imul(T, &m->stride[d], &es, 1);
        wv t = tr_imul(T, &idx[d], &s, 0);
        addr_add(T, a, &t);
    }
    return T->failed ? -1 : 0;
}

wv tr_mem_offset(tr *T, const mref *m, const wv *idx)
{
    addr a;
    if (mem_addr(T, m, idx, &a))
        return wv_const(0);
    wv r = wv_const_int(TR_I32, a.c);
    if (a.have_uni)
        r = tr_iadd(T, &a.uni, &r, 1);
    if (a.have_div)
        r = tr_iadd(T, &a.div, &r, 0);
    return r;
}

/* Operands of one address, ready for `total` bytes of accesses. */
typedef struct ready {
    wa_operand vaddr;   /* VGPR or `off` (global) */
    wa_operand soffset; /* global: SGPR or 0 */
    int64_t c;          /* constant for the instruction offset field */
    unsigned align_log2;
} ready;

static int nonneg(const wv *e)
{
    return e->kind == WV_CONST ? (int32_t)e->c >= 0 : (e->has_range && e->lo >= 0);
}

static void prepare(tr *T, const mref *m, addr *a, unsigned total, ready *r)
{
    r->align_log2 = a->align_log2;
    if (m->space == MS_LDS) {
        wv v;
        int have = 0;
        if (a->have_div) {
            v = a->div;
            have = 1;
        }
        if (a->have_uni) {
            v = have ? tr_iadd(T, &v, &a->uni, 0) : a->uni;
            have = 1;
        }
        if (a->c < 0 || a->c + total > 65535) {
            wv cc = wv_const_int(TR_I32, a->c);
            v = have ? tr_iadd(T, &v, &cc, 0) : cc;
            have = 1;
            a->c = 0;
        }
        r->vaddr = have ? tr_vsrc(T, &v) : tr_to_vgpr(T, wa_opnd_imm(0));
        r->soffset = wa_opnd_none();
        r->c = a->c;
        return;
    }
    /* buffer: per-lane offset in vaddr, uniform part in soffset when both are
       known non-negative (soffset is added outside the 32-bit offset) */
    int split = a->have_uni && a->have_div && nonneg(&a->uni) && nonneg(&a->div) &&
                m->space != MS_BUFFER;
    wv v = a->div, u = a->uni;
    int hv = a->have_div, hu = a->have_uni;
    if ((hu && hv && !split) || (hu && m->space == MS_BUFFER)) {
        v = hv ? tr_iadd(T, &v, &u, 0) : u;
        hv = 1;
        hu = 0;
    }
    if (a->c < 0 || a->c + total > 4096) {
        wv cc = wv_const_int(TR_I32, a->c);
        if (hv) {
            v = tr_iadd(T, &v, &cc, 0);
        } else if (hu) {
            u = tr_iadd(T, &u, &cc, 1);
        } else {
            u = cc;
            hu = 1;
        }
        a->c = 0;
    }
    r->vaddr = hv ? tr_vsrc(T, &v) : wa_opnd_off();
    r->soffset = hu ? tr_ssrc(T, &u) : wa_opnd_imm(0);
    r->c = a->c;
}

/* The instruction for `bytes` at an address of known alignment; 0 if none. */
static wa_opcode pick(const mref *m, unsigned bytes, int store)
{
    if (m->space == MS_LDS) {
        switch (bytes) {
        case 16: return store ? WA_OP_DS_WRITE_B128 : WA_OP_DS_READ_B128;
        case 8: return store ? WA_OP_DS_WRITE_B64 : WA_OP_DS_READ_B64;
        case 4: return store ? WA_OP_DS_WRITE_B32 : WA_OP_DS_READ_B32;
        case 2: return store ? WA_OP_DS_WRITE_B16 : WA_OP_DS_READ_U16;
        case 1: return store ? WA_OP_DS_WRITE_B8 : WA_OP_DS_READ_U8;
        default: return (wa_opcode)0;
        }
    }
    switch (bytes) {
    case 16: return store ? WA_OP_BUFFER_STORE_DWORDX4 : WA_OP_BUFFER_LOAD_DWORDX4;
    case 12: return store ? WA_OP_BUFFER_STORE_DWORDX3 : WA_OP_BUFFER_LOAD_DWORDX3;
    case 8: return store ? WA_OP_BUFFER_STORE_DWORDX2 : WA_OP_BUFFER_LOAD_DWORDX2;
    case 4: return store ? WA_OP_BUFFER_STORE_DWORD : WA_OP_BUFFER_LOAD_DWORD;
    case 2: return store ? WA_OP_BUFFER_STORE_SHORT : WA_OP_BUFFER_LOAD_USHORT;
    case 1: return store ? WA_OP_BUFFER_STORE_BYTE : WA_OP_BUFFER_LOAD_UBYTE;
    default: return (wa_opcode)0;
    }
}

/* Size of the next chunk at byte `at` of `left` bytes (multiples of the element). */
static unsigned chunk_size(const mref *m, const ready *r, int64_t at, unsigned left, unsigned esize)
{
    static const unsigned sizes[] = { 16, 12, 8, 4, 2, 1 };
    unsigned al = r->align_log2;
    unsigned z = ctz64((uint64_t)(r->c + at));
    if (z < al)
        al = z;
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        unsigned s = sizes[i];
        if (s > left || s % esize != 0)
            continue;
        if (esize == 8 && s == 12)
            continue;
        if (m->space == MS_LDS) {
            if (s == 12)
                continue;
            unsigned need = s >= 16 ? 4 : s >= 8 ? 3 : s >= 4 ? 2 : s >= 2 ? 1 : 0;
            if (al < need)
                continue;
        }
        return s;
    }
    return esize <= left ? esize : left;
}

static void emit_access(tr *T, const mref *m, const ready *r, wa_opcode op, int64_t at,
                        wa_operand data, int store)
{
    wa_mods mods = WA_MODS_INIT;
    int64_t off = r->c + at;
    wa_operand vaddr = r->vaddr, soffset = r->soffset;
    int64_t limit = m->space == MS_LDS ? 65535 : 4095;
    if (off < 0 || off > limit) {
        /* beyond the offset field: into the address register */
        wv c = wv_const_int(TR_I32, off);
        if (vaddr.kind == WA_OPND_OFF) {
            wv s = soffset.kind == WA_OPND_IMM ? wv_const_int(TR_I32, soffset.imm.i) : wv_sreg(soffset);
            wv sum = tr_iadd(T, &s, &c, 1);
            soffset = tr_ssrc(T, &sum);
        } else {
            wv v = wv_vreg(vaddr, 0);
            wv sum = tr_iadd(T, &v, &c, 0);
            vaddr = tr_vsrc(T, &sum);
        }
        off = 0;
    }
    mods.offset = (int32_t)off;
    if (m->space == MS_LDS) {
        if (store) {
            wa_operand ops[2] = { vaddr, data };
            tr_emit(T, op, ops, 2, &mods);
        } else {
            wa_operand ops[2] = { data, vaddr };
            tr_emit(T, op, ops, 2, &mods);
        }
        return;
    }
    if (vaddr.kind != WA_OPND_OFF)
        mods.flags |= WA_MOD_OFFEN;
    wa_operand srd = tr_memref_srd(T, m);
    wa_operand ops[4] = { data, vaddr, srd, soffset };
    tr_emit(T, op, ops, 4, &mods);
}

/* Reads `bytes` contiguous bytes at `r` + `at` into element refs of `count`
   elements of `esize` starting at element 0 of vals. */
static void read_run(tr *T, const mref *m, const ready *r, int64_t at, unsigned count, wv *vals,
                     int uniform)
{
    unsigned esize = m->esize, bits = m->ebits;
    unsigned total = count * esize, done = 0;
    while (done < total) {
        unsigned s = chunk_size(m, r, at + done, total - done, esize);
        wa_opcode op = pick(m, s, 0);
        unsigned ndw = (s + 3) / 4;
        wa_operand dst = tr_vreg(T, WA_REG_VGPR, ndw);
        emit_access(T, m, r, op, at + done, dst, 0);
        for (unsigned b = 0; b < s; b += esize) {
            unsigned i = (done + b) / esize;
            unsigned dw = b / 4;
            wv e = wv_vreg(wa_opnd_sub(dst, dw, bits == 64 ? 2 : 1), uniform);
            e.shift = (uint8_t)(bits < 32 ? (b % 4) * 8 : 0);
            vals[i] = e;
        }
        done += s;
    }
}

static void write_run(tr *T, const mref *m, const ready *r, int64_t at, unsigned count,
                      const wv *vals)
{
    unsigned esize = m->esize;
    unsigned total = count * esize, done = 0;
    wval w;
    memset(&w, 0, sizeof(w));
    w.kind = VK_VECTOR;
    w.et = m->et;
    if (m->et.bits == 1)
        w.et.bits = 8;
    w.n = count;
    w.e = (wv *)vals;
    while (done < total) {
        unsigned s = chunk_size(m, r, at + done, total - done, esize);
        wa_opcode op = pick(m, s, 1);
        unsigned first = done / esize, n = s / esize;
        wa_operand data;
        if (esize == 1 && m->et.bits == 1) {
            data = tr_vsrc(T, &vals[first]); /* i1 as a 0/1 byte */
        } else if (s <= 2 && n == 1) {
            data = tr_vsrc(T, &vals[first]);
        } else {
            data = tr_pack(T, &w, first, n);
        }
        emit_access(T, m, r, op, at + done, data, 1);
        done += s;
    }
}

static int mem_check(tr *T, const mref *m)
{
    if (m->et.bits < 8 && m->et.bits != 1)
        return tr_error(T, T->cur_loc, WA_E_UNSUPPORTED,
                        "memory accesses of %u-bit elements are not supported", m->et.bits);
    return 0;
}

/* Runs masked accesses element by element under EXEC narrowed to the mask. */
static wa_operand exec_push(tr *T, const wv *mask)
{
    wa_operand m = tr_mask(T, mask);
    wa_operand saved = tr_vreg(T, WA_REG_SGPR, 2);
    wa_operand ops[2] = { saved, m };
    tr_emit(T, WA_OP_S_AND_SAVEEXEC_B64, ops, 2, NULL);
    return saved;
}

static void exec_pop(tr *T, wa_operand saved)
{
    wa_operand ops[2] = { wa_opnd_special(WA_SPECIAL_EXEC), saved };
    tr_emit(T, WA_OP_S_MOV_B64, ops, 2, NULL);
}

/* The address of element i of a non-contiguous or masked run: a constant step
   goes to `at`, a variable one into a fresh address. */
typedef struct elem_iter {
    const mref *m;
    addr base;
    int contiguous;
    wv stride_b;
    ready r;
    int have;
} elem_iter;

static void iter_init(tr *T, elem_iter *it, const mref *m, const addr *a, int contiguous,
                      unsigned count)
{
    it->m = m;
    it->base = *a;
    it->contiguous = contiguous;
    it->have = 0;
    it->stride_b = wv_const_int(TR_I32, m->esize);
    if (!contiguous) {
        wv es = wv_const_int(TR_I32, m->esize);
        it->stride_b = tr_imul(T, &m->stride[m->rank - 1], &es, 1);
    }
    if (it->stride_b.kind == WV_CONST) {
        addr tmp = it->base;
        int64_t step = (int64_t)(int32_t)it->stride_b.c;
        unsigned span = (unsigned)(step > 0 ? step * (int64_t)(count - 1) : 0) + it->m->esize;
        prepare(T, m, &tmp, span, &it->r);
        if (step % 16 != 0) {
            unsigned z = ctz64((uint64_t)(step < 0 ? -step : step));
            if (z < it->r.align_log2)
                it->r.align_log2 = z;
        }
        it->have = 1;
    }
}

static int64_t iter_at(tr *T, elem_iter *it, unsigned i)
{
    if (it->stride_b.kind == WV_CONST)
        return (int64_t)i * (int64_t)(int32_t)it->stride_b.c;
    addr ai = it->base;
    wv k = wv_const_int(TR_I32, i);
    wv t = tr_imul(T, &it->stride_b, &k, 1);
    addr_add(T, &ai, &t);
    prepare(T, it->m, &ai, it->m->esize, &it->r);
    return 0;
}

int tr_mem_read(tr *T, MlirOperation op, const mref *m, const wv *idx, unsigned count, wv *vals,
                const wv *mask, const wv *pass)
{
    (void)op;
    if (mem_check(T, m))
        return -1;
    int uniform = 1;
    for (unsigned d = 0; d < m->rank; d++)
        uniform &= idx[d].kind == WV_CONST || idx[d].kind == WV_SREG ||
                   (idx[d].kind == WV_VREG && idx[d].uniform);
    uniform &= m->off.kind != WV_VREG;
    int contiguous = m->rank == 0 || (m->stride[m->rank - 1].kind == WV_CONST &&
                                      m->stride[m->rank - 1].c == 1);
    addr a;
    if (mem_addr(T, m, idx, &a))
        return -1;
    if (contiguous && !mask) {
        ready r;
        prepare(T, m, &a, count * m->esize, &r);
        read_run(T, m, &r, 0, count, vals, uniform);
        return T->failed ? -1 : 0;
    }
    elem_iter it;
    iter_init(T, &it, m, &a, contiguous, count);
    for (unsigned i = 0; i < count; i++) {
        const wv *me = mask ? &mask[i] : NULL;
        if (me && me->kind == WV_CONST && !(me->c & 1)) {
            vals[i] = pass ? pass[i] : wv_const(0);
            continue;
        }
        int64_t at = iter_at(T, &it, i);
        int masked = me && me->kind != WV_CONST;
        wa_operand saved = wa_opnd_none();
        if (masked)
            saved = exec_push(T, me);
        wv v;
        read_run(T, m, &it.r, at, 1, &v, uniform);
        if (masked) {
            exec_pop(T, saved);
            if (pass) {
                ety et = m->et.bits == 1 ? TR_I32 : m->et;
                v = tr_select(T, me, &v, &pass[i], et, 0);
            }
        }
        vals[i] = v;
    }
    return T->failed ? -1 : 0;
}

int tr_mem_write(tr *T, MlirOperation op, const mref *m, const wv *idx, unsigned count,
                 const wv *vals, const wv *mask)
{
    (void)op;
    if (mem_check(T, m))
        return -1;
    int contiguous = m->rank == 0 || (m->stride[m->rank - 1].kind == WV_CONST &&
                                      m->stride[m->rank - 1].c == 1);
    addr a;
    if (mem_addr(T, m, idx, &a))
        return -1;
    if (contiguous && !mask) {
        ready r;
        prepare(T, m, &a, count * m->esize, &r);
        write_run(T, m, &r, 0, count, vals);
        return T->failed ? -1 : 0;
    }
    elem_iter it;
    iter_init(T, &it, m, &a, contiguous, count);
    for (unsigned i = 0; i < count; i++) {
        const wv *me = mask ? &mask[i] : NULL;
        if (me && me->kind == WV_CONST && !(me->c & 1))
            continue;
        int64_t at = iter_at(T, &it, i);
        int masked = me && me->kind != WV_CONST;
        wa_operand saved = wa_opnd_none();
        if (masked)
            saved = exec_push(T, me);
        write_run(T, m, &it.r, at, 1, &vals[i]);
        if (masked)
            exec_pop(T, saved);
    }
    return T->failed ? -1 : 0;
}

/* ---- operations --------------------------------------------------------------------------------- */

static wv *indices(tr *T, MlirOperation op, intptr_t first, unsigned rank)
{
    wv *idx = tr_alloc(T, (rank + 1) * sizeof(wv));
    if (!idx)
        return NULL;
    for (unsigned d = 0; d < rank; d++) {
        wv *e = tr_scalar(T, tr_operand(op, first + (intptr_t)d));
        if (!e)
            return NULL;
        idx[d] = *e;
    }
    return idx;
}

static int lower_load(tr *T, MlirOperation op)
{
    mref *m = tr_memref(T, tr_operand(op, 0));
    if (!m)
        return -1;
    wv *idx = indices(T, op, 1, m->rank);
    wval *r = tr_result_val(T, op, 0);
    if (!idx || !r)
        return -1;
    if (tr_mem_read(T, op, m, idx, 1, r->e, NULL, NULL))
        return -1;
    if (m->et.bits == 1) {
        /* a byte holding 0/1 */
        wv z = wv_const_int(TR_I32, 0);
        wv b = r->e[0];
        r->e[0] = tr_icmp(T, 1, &b, &z, (ety){ ET_INT, 8, 0, 0 }, b.uniform);
    }
    return tr_set_val(T, tr_result(op, 0), r);
}

static int lower_store(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    mref *m = tr_memref(T, tr_operand(op, 1));
    if (!v || !m)
        return -1;
    wv *idx = indices(T, op, 2, m->rank);
    if (!idx)
        return -1;
    wv e = v->e[0];
    if (m->et.bits == 1) {
        wv one = wv_const_int(TR_I32, 1), zero = wv_const_int(TR_I32, 0);
        e = tr_select(T, &v->e[0], &one, &zero, TR_I32, v->e[0].uniform);
    }
    return tr_mem_write(T, op, m, idx, 1, &e, NULL);
}

static int lower_alloc(tr *T, MlirOperation op)
{
    MlirType t = mlirValueGetType(tr_result(op, 0));
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m || tr_memref_from_type(T, op, t, m))
        return -1;
    if (m->space != MS_LDS)
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "only workgroup (LDS) allocations are supported (no scratch or "
                           "global allocation)");
    if (!mlirShapedTypeHasStaticShape(t) || tr_noperands(op) > 0)
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "workgroup allocations need a static shape");
    uint64_t elems = 1;
    for (unsigned d = 0; d < m->rank; d++)
        elems *= (uint64_t)mlirShapedTypeGetDimSize(t, d);
    uint64_t bytes = elems * m->esize;
    int64_t align = tr_attr_int(op, "alignment", 16);
    if (bytes > 0xFFFFFFFFull)
        return tr_error_op(T, op, WA_E_RANGE, "allocation too large");
    unsigned off = tr_lds_alloc(T, (unsigned)bytes, align > 0 ? (unsigned)align : 16,
                                mlirOperationGetLocation(op));
    if (T->failed)
        return -1;
    m->base = wv_const_int(TR_I32, off);
    if (m->off.kind == WV_NONE)
        m->off = wv_const_int(TR_I32, 0);
    identity_strides(T, m);
    return set_memref(T, tr_result(op, 0), m);
}

static int lower_get_global(tr *T, MlirOperation op)
{
    MlirAttribute nm = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("name"));
    if (mlirAttributeIsNull(nm) || !mlirAttributeIsAFlatSymbolRef(nm))
        return tr_error_op(T, op, WA_E_INVALID, "memref.get_global without a symbol");
    MlirStringRef sym = mlirFlatSymbolRefAttrGetValue(nm);
    MlirType t = mlirValueGetType(tr_result(op, 0));
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m || tr_memref_from_type(T, op, t, m))
        return -1;
    if (m->space != MS_LDS)
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "memref.get_global of a global outside workgroup memory is not "
                           "supported");
    if (mlirOperationIsNull(T->module))
        return tr_error_op(T, op, WA_E_INVALID, "memref.get_global outside a module");
    MlirSymbolTable st = mlirSymbolTableCreate(T->module);
    MlirOperation g = mlirSymbolTableLookup(st, sym);
    mlirSymbolTableDestroy(st);
    if (mlirOperationIsNull(g))
        return tr_error_op(T, op, WA_E_INVALID, "unknown global '%.*s'", (int)sym.length, sym.data);
    pmap_ent *e = pmap_get(&T->globals, g.ptr);
    unsigned off;
    if (e) {
        off = (unsigned)(uintptr_t)e->val - 1;
    } else {
        if (!mlirShapedTypeHasStaticShape(t))
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "a workgroup global needs a static shape");
        uint64_t elems = 1;
        for (unsigned d = 0; d < m->rank; d++)
            elems *= (uint64_t)mlirShapedTypeGetDimSize(t, d);
        int64_t align = tr_attr_int(g, "alignment", 16);
        off = tr_lds_alloc(T, (unsigned)(elems * m->esize), align > 0 ? (unsigned)align : 16,
                           mlirOperationGetLocation(g));
        if (T->failed)
            return -1;
        if (pmap_put(&T->globals, g.ptr, (void *)(uintptr_t)(off + 1), 0))
            return tr_nomem(T);
    }
    m->base = wv_const_int(TR_I32, off);
    if (m->off.kind == WV_NONE)
        m->off = wv_const_int(TR_I32, 0);
    identity_strides(T, m);
    return set_memref(T, tr_result(op, 0), m);
}

static int lower_view(tr *T, MlirOperation op)
{
    mref *src = tr_memref(T, tr_operand(op, 0));
    wv *shift = tr_scalar(T, tr_operand(op, 1));
    if (!src || !shift)
        return -1;
    MlirType t = mlirValueGetType(tr_result(op, 0));
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m || tr_memref_from_type(T, op, t, m))
        return -1;
    m->space = src->space;
    m->arg = src->arg;
    m->srd = src->srd;
    m->base = src->base;
    m->bounds = src->bounds;
    m->off = tr_iadd(T, &src->off, shift, !tr_is_divergent(T, tr_operand(op, 1)));
    intptr_t next = 2;
    for (unsigned d = 0; d < m->rank; d++) {
        if (m->size[d].kind != WV_NONE)
            continue;
        wv *e = tr_scalar(T, tr_operand(op, next++));
        if (!e)
            return -1;
        m->size[d] = *e;
    }
    for (unsigned d = 0; d < m->rank; d++)
        m->stride[d].kind = WV_NONE;
    identity_strides(T, m);
    return set_memref(T, tr_result(op, 0), m);
}

static int lower_subview(tr *T, MlirOperation op)
{
    mref *src = tr_memref(T, tr_operand(op, 0));
    if (!src)
        return -1;
    unsigned r = src->rank;
    wv off[TR_MAX_RANK], sz[TR_MAX_RANK], st[TR_MAX_RANK];
    intptr_t next = 1;
    if (mixed(T, op, "static_offsets", &next, r, off) || mixed(T, op, "static_sizes", &next, r, sz) ||
        mixed(T, op, "static_strides", &next, r, st))
        return -1;
    MlirType t = mlirValueGetType(tr_result(op, 0));
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m)
        return -1;
    *m = *src;
    wv o = src->off;
    for (unsigned d = 0; d < r; d++) {
        if (off[d].kind == WV_CONST && off[d].c == 0)
            continue;
        wv es = wv_const_int(TR_I32, src->esize);
        wv s = tr_imul(T, &src->stride[d], &es, 1);
        wv term = tr_imul(T, &off[d], &s, 0);
        o = tr_iadd(T, &o, &term, 0);
    }
    m->off = o;
    /* drop the unit dimensions a rank-reducing subview removes */
    int64_t rrank = mlirShapedTypeGetRank(t);
    unsigned k = 0;
    for (unsigned d = 0; d < r; d++) {
        unsigned left_src = r - d, left_res = (unsigned)rrank - k;
        int unit = sz[d].kind == WV_CONST && sz[d].c == 1;
        if (unit && left_src > left_res)
            continue;
        if (k >= (unsigned)rrank)
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "rank-reducing subview of this shape");
        m->size[k] = sz[d];
        m->stride[k] = tr_imul(T, &src->stride[d], &st[d], 1);
        k++;
    }
    m->rank = (uint8_t)k;
    return set_memref(T, tr_result(op, 0), m);
}

static int lower_reinterpret_cast(tr *T, MlirOperation op)
{
    mref *src = tr_memref(T, tr_operand(op, 0));
    if (!src)
        return -1;
    MlirType t = mlirValueGetType(tr_result(op, 0));
    unsigned r = (unsigned)mlirShapedTypeGetRank(t);
    wv off[1], sz[TR_MAX_RANK], st[TR_MAX_RANK];
    intptr_t next = 1;
    if (mixed(T, op, "static_offsets", &next, 1, off) || mixed(T, op, "static_sizes", &next, r, sz) ||
        mixed(T, op, "static_strides", &next, r, st))
        return -1;
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m)
        return -1;
    *m = *src;
    m->rank = (uint8_t)r;
    wv es = wv_const_int(TR_I32, src->esize);
    m->off = tr_imul(T, &off[0], &es, 0);
    for (unsigned d = 0; d < r; d++) {
        m->size[d] = sz[d];
        m->stride[d] = st[d];
    }
    return set_memref(T, tr_result(op, 0), m);
}

static int lower_cast(tr *T, MlirOperation op)
{
    mref *src = tr_memref(T, tr_operand(op, 0));
    if (!src)
        return -1;
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m)
        return -1;
    *m = *src;
    MlirType t = mlirValueGetType(tr_result(op, 0));
    if (mlirTypeIsAMemRef(t) && mlirShapedTypeGetRank(t) == m->rank) {
        for (unsigned d = 0; d < m->rank; d++)
            if (!mlirShapedTypeIsDynamicDim(t, d))
                m->size[d] = wv_const_int(TR_I32, mlirShapedTypeGetDimSize(t, d));
    }
    return set_memref(T, tr_result(op, 0), m);
}

static int lower_assume_alignment(tr *T, MlirOperation op)
{
    mref *src = tr_memref(T, tr_operand(op, 0));
    if (!src)
        return -1;
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m)
        return -1;
    *m = *src;
    int64_t al = tr_attr_int(op, "alignment", 1);
    if (al > 1 && m->off.kind != WV_CONST) {
        unsigned z = ctz64((uint64_t)al);
        if (z > m->off.align_log2)
            m->off.align_log2 = (uint8_t)z;
    }
    if (tr_nresults(op) > 0)
        return set_memref(T, tr_result(op, 0), m);
    return 0;
}

static int lower_dim(tr *T, MlirOperation op)
{
    mref *m = tr_memref(T, tr_operand(op, 0));
    wv *d = tr_scalar(T, tr_operand(op, 1));
    if (!m || !d)
        return -1;
    if (d->kind != WV_CONST || d->c >= m->rank)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "memref.dim needs a constant dimension");
    wval *r = tr_result_val(T, op, 0);
    if (!r)
        return -1;
    r->e[0] = m->size[d->c];
    return tr_set_val(T, tr_result(op, 0), r);
}

static int lower_extract_strided_metadata(tr *T, MlirOperation op)
{
    mref *src = tr_memref(T, tr_operand(op, 0));
    if (!src)
        return -1;
    mref *base = tr_alloc(T, sizeof(*base));
    if (!base)
        return -1;
    *base = *src;
    base->rank = 0;
    base->off = wv_const_int(TR_I32, 0);
    if (set_memref(T, tr_result(op, 0), base))
        return -1;
    /* offset in elements */
    wval *o = tr_result_val(T, op, 1);
    if (!o)
        return -1;
    if (src->off.kind == WV_CONST) {
        o->e[0] = wv_const_int(TR_I32, (int64_t)(int32_t)src->off.c / (int64_t)src->esize);
    } else {
        wv es = wv_const_int(TR_I32, src->esize);
        o->e[0] = tr_divrem(T, TR_DIV_U, &src->off, &es, 0);
    }
    if (tr_set_val(T, tr_result(op, 1), o))
        return -1;
    for (unsigned d = 0; d < src->rank; d++) {
        wval *s = tr_result_val(T, op, 2 + d), *st = tr_result_val(T, op, 2 + src->rank + d);
        if (!s || !st)
            return -1;
        s->e[0] = src->size[d];
        st->e[0] = src->stride[d];
        if (tr_set_val(T, tr_result(op, 2 + d), s) ||
            tr_set_val(T, tr_result(op, 2 + src->rank + d), st))
            return -1;
    }
    return 0;
}

/* ---- atomics ---------------------------------------------------------------------------- */

/* One row per kind and data class: the buffer instruction (it returns the old
   value with GLC), the LDS instruction and its returning form. Float min/max
   in LDS follow the hardware's comparison (as LLVM selects them for maxnum and
   minnum); the NaN-propagating maximumf/minimumf, and the multiplications,
   have no instruction. */
typedef struct atom_row {
    uint8_t kind;   /* tr_atom */
    uint8_t fl;     /* 0 integer, 1 float, 2 either */
    uint8_t bits;
    wa_opcode buf, ds, ds_rtn;
} atom_row;

#define AR(K, F, B, BUF, DS, DSR) { TA_##K, F, B, WA_OP_##BUF, WA_OP_##DS, WA_OP_##DSR }
static const atom_row atom_rows[] = {
    AR(ADDI, 0, 32, BUFFER_ATOMIC_ADD, DS_ADD_U32, DS_ADD_RTN_U32),
    AR(ADDI, 0, 64, BUFFER_ATOMIC_ADD_X2, DS_ADD_U64, DS_ADD_RTN_U64),
    AR(ANDI, 0, 32, BUFFER_ATOMIC_AND, DS_AND_B32, DS_AND_RTN_B32),
    AR(ANDI, 0, 64, BUFFER_ATOMIC_AND_X2, DS_AND_B64, DS_AND_RTN_B64),
    AR(ORI, 0, 32, BUFFER_ATOMIC_OR, DS_OR_B32, DS_OR_RTN_B32),
    AR(ORI, 0, 64, BUFFER_ATOMIC_OR_X2, DS_OR_B64, DS_OR_RTN_B64),
    AR(XORI, 0, 32, BUFFER_ATOMIC_XOR, DS_XOR_B32, DS_XOR_RTN_B32),
    AR(XORI, 0, 64, BUFFER_ATOMIC_XOR_X2, DS_XOR_B64, DS_XOR_RTN_B64),
    AR(MAXS, 0, 32, BUFFER_ATOMIC_SMAX, DS_MAX_I32, DS_MAX_RTN_I32),
    AR(MAXS, 0, 64, BUFFER_ATOMIC_SMAX_X2, DS_MAX_I64, DS_MAX_RTN_I64),
    AR(MAXU, 0, 32, BUFFER_ATOMIC_UMAX, DS_MAX_U32, DS_MAX_RTN_U32),
    AR(MAXU, 0, 64, BUFFER_ATOMIC_UMAX_X2, DS_MAX_U64, DS_MAX_RTN_U64),
    AR(MINS, 0, 32, BUFFER_ATOMIC_SMIN, DS_MIN_I32, DS_MIN_RTN_I32),
    AR(MINS, 0, 64, BUFFER_ATOMIC_SMIN_X2, DS_MIN_I64, DS_MIN_RTN_I64),
    AR(MINU, 0, 32, BUFFER_ATOMIC_UMIN, DS_MIN_U32, DS_MIN_RTN_U32),
    AR(MINU, 0, 64, BUFFER_ATOMIC_UMIN_X2, DS_MIN_U64, DS_MIN_RTN_U64),
    AR(ASSIGN, 2, 32, BUFFER_ATOMIC_SWAP, DS_WRXCHG_RTN_B32, DS_WRXCHG_RTN_B32),
    AR(ASSIGN, 2, 64, BUFFER_ATOMIC_SWAP_X2, DS_WRXCHG_RTN_B64, DS_WRXCHG_RTN_B64),
    AR(CMPSWAP, 2, 32, BUFFER_ATOMIC_CMPSWAP, DS_CMPST_RTN_B32, DS_CMPST_RTN_B32),
    AR(CMPSWAP, 2, 64, BUFFER_ATOMIC_CMPSWAP_X2, DS_CMPST_RTN_B64, DS_CMPST_RTN_B64),
    AR(ADDF, 1, 32, BUFFER_ATOMIC_ADD_F32, DS_ADD_F32, DS_ADD_RTN_F32),
    AR(ADDF, 1, 64, BUFFER_ATOMIC_ADD_F64, DS_ADD_F64, DS_ADD_RTN_F64),
    AR(MAXNUMF, 1, 32, COMMENT, DS_MAX_F32, DS_MAX_RTN_F32),
    AR(MAXNUMF, 1, 64, BUFFER_ATOMIC_MAX_F64, DS_MAX_F64, DS_MAX_RTN_F64),
    AR(MINNUMF, 1, 32, COMMENT, DS_MIN_F32, DS_MIN_RTN_F32),
    AR(MINNUMF, 1, 64, BUFFER_ATOMIC_MIN_F64, DS_MIN_F64, DS_MIN_RTN_F64),
};
#undef AR

const char *tr_atom_name(tr_atom k)
{
    static const char *const names[TA_COUNT_] = {
        "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu", "minimumf",
        "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori", "cmpswap",
    };
    return (unsigned)k < TA_COUNT_ ? names[k] : "?";
}

wa_opcode tr_atom_opcode(tr_atom k, ety et, int lds, int rtn, wa_target target)
{
    int fl = et.kind == ET_FLOAT;
    if (et.kind != ET_INT && et.kind != ET_FLOAT)
        return (wa_opcode)0;
    /* f32 data only as f32 (not f16 or bf16 in a 32-bit container) */
    if (fl && et.fkind != EF_F32 && et.fkind != EF_F64)
        return (wa_opcode)0;
    for (size_t i = 0; i < sizeof(atom_rows) / sizeof(atom_rows[0]); i++) {
        const atom_row *r = &atom_rows[i];
        if (r->kind != (uint8_t)k || r->bits != et.bits || (r->fl != 2 && r->fl != fl))
            continue;
        wa_opcode op = lds ? (rtn ? r->ds_rtn : r->ds) : r->buf;
        if (op == WA_OP_COMMENT || !wa_isa_available(op, target))
            return (wa_opcode)0;
        return op;
    }
    return (wa_opcode)0;
}

static int lower_atomic_rmw(tr *T, MlirOperation op)
{
    MlirAttribute ka = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("kind"));
    int64_t kv = mlirAttributeIsAInteger(ka) ? mlirIntegerAttrGetValueInt(ka) : -1;
    if (kv < 0 || kv >= TA_CMPSWAP)
        return tr_error_op(T, op, WA_E_INVALID, "memref.atomic_rmw with an unknown kind");
    tr_atom kind = (tr_atom)kv;
    wval *v = tr_val(T, tr_operand(op, 0));
    mref *m = tr_memref(T, tr_operand(op, 1));
    if (!v || !m)
        return -1;
    wv *idx = indices(T, op, 2, m->rank);
    if (!idx)
        return -1;
    int want = !mlirOpOperandIsNull(mlirValueGetFirstUse(tr_result(op, 0)));
    int lds = m->space == MS_LDS;
    wa_opcode opc = tr_atom_opcode(kind, m->et, lds, want, T->target);
    if (!opc) {
        char b[32];
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "memref.atomic_rmw %s on %s in %s memory has no instruction on %s "
                           "(docs/mlir.md lists the kinds)",
                           tr_atom_name(kind), tr_ety_name(m->et, b, sizeof(b)),
                           lds ? "workgroup" : "global", wa_target_name(T->target));
    }
    unsigned bytes = m->et.bits / 8, dw = bytes / 4;
    addr a;
    if (mem_addr(T, m, idx, &a))
        return -1;
    ready r;
    prepare(T, m, &a, bytes, &r);
    wa_mods mods = WA_MODS_INIT;
    mods.offset = (int32_t)r.c;
    wa_operand data = tr_vreg(T, WA_REG_VGPR, dw), result = data;
    tr_pack_to(T, v, 0, 1, data);
    if (lds) {
        /* exchange has only the returning form */
        if (want || opc == tr_atom_opcode(kind, m->et, 1, 1, T->target)) {
            result = tr_vreg(T, WA_REG_VGPR, dw);
            wa_operand ops[3] = { result, r.vaddr, data };
            tr_emit(T, opc, ops, 3, &mods);
        } else {
            wa_operand ops[2] = { r.vaddr, data };
            tr_emit(T, opc, ops, 2, &mods);
        }
    } else {
        /* with GLC the old value comes back in the data registers */
        if (want)
            mods.flags |= WA_MOD_GLC;
        if (r.vaddr.kind != WA_OPND_OFF)
            mods.flags |= WA_MOD_OFFEN;
        wa_operand ops[4] = { data, r.vaddr, tr_memref_srd(T, m), r.soffset };
        tr_emit(T, opc, ops, 4, &mods);
    }
    wval *res = tr_result_val(T, op, 0);
    if (!res)
        return -1;
    tr_unpack(T, res->e, result, m->et, 1, 0);
    return tr_set_val(T, tr_result(op, 0), res);
}

static int lower_dealloc(tr *T, MlirOperation op)
{
    (void)T;
    (void)op;
    return 0; /* LDS lives as long as the workgroup */
}

const tr_op_entry tr_memref_ops[] = {
    { "memref.load", lower_load },
    { "memref.store", lower_store },
    { "memref.alloc", lower_alloc },
    { "memref.alloca", lower_alloc },
    { "memref.dealloc", lower_dealloc },
    { "memref.get_global", lower_get_global },
    { "memref.view", lower_view },
    { "memref.subview", lower_subview },
    { "memref.reinterpret_cast", lower_reinterpret_cast },
    { "memref.cast", lower_cast },
    { "memref.assume_alignment", lower_assume_alignment },
    { "memref.dim", lower_dim },
    { "memref.extract_strided_metadata", lower_extract_strided_metadata },
    { "memref.atomic_rmw", lower_atomic_rmw },
    { NULL, NULL },
};
