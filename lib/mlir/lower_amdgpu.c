/* lib/mlir/lower_amdgpu.c — amdgpu and rocdl: matrix instructions (MFMA and
   block-scaled MFMA, chosen from the ISA table by shape and input format),
   buffer descriptors (fat_raw_buffer_cast), raw buffer loads, stores and
   atomics with the hardware's range check, gather_to_lds (LDS DMA through
   M0), waits and barriers, and the rocdl lane and scheduling intrinsics. */
#include "internal.h"

#include <stdio.h>
#include <string.h>


/* ---- MFMA ------------------------------------------------------------------------------ */

static int mfma_input(tr *T, MlirOperation op, ety et, wa_mfma_input *in)
{
    char b[32];
    switch (et.kind == ET_FLOAT ? et.fkind : et.kind == ET_INT ? 100 + et.bits : 0) {
    case EF_F16: *in = WA_MFMA_IN_F16; return 0;
    case EF_BF16: *in = WA_MFMA_IN_BF16; return 0;
    case EF_F32: *in = WA_MFMA_IN_F32; return 0;
    case EF_F64: *in = WA_MFMA_IN_F64; return 0;
    case 108: *in = WA_MFMA_IN_I8; return 0;
    case EF_F8E4M3FNUZ:
        if (T->target != WA_TARGET_GFX942)
            return tr_error_op(T, op, WA_E_UNSUPPORTED,
                               "f8E4M3FNUZ MFMA inputs are gfx942's fp8; %s uses f8E4M3FN",
                               wa_target_name(T->target));
        *in = WA_MFMA_IN_FP8;
        return 0;
    case EF_F8E4M3FN:
        if (T->target != WA_TARGET_GFX950)
            return tr_error_op(T, op, WA_E_UNSUPPORTED,
                               "f8E4M3FN MFMA inputs are gfx950's fp8; %s uses %s",
                               wa_target_name(T->target),
                               T->target == WA_TARGET_GFX942 ? "f8E4M3FNUZ" : "no fp8 MFMA");
        *in = WA_MFMA_IN_FP8;
        return 0;
    default:
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "amdgpu.mfma with %s inputs: no MFMA of the ISA table takes them",
                           tr_ety_name(et, b, sizeof(b)));
    }
}

static int find_mfma(tr *T, MlirOperation op, unsigned m, unsigned n, unsigned k, unsigned blocks,
                     wa_mfma_input in, wa_opcode *out)
{
    for (unsigned o = 0; o < wa_isa_count(); o++) {
        const wa_isa_info *info = wa_isa_get(o);
        if (!(info->flags & WA_IF_MFMA) || !wa_isa_available(o, T->target))
            continue;
        const wa_mfma_shape *s = wa_isa_mfma_shape(o);
        if (s && s->m == m && s->n == n && s->k == k && s->blocks == blocks && s->input == in) {
            *out = (wa_opcode)o;
            return 0;
        }
    }
    static const char *const names[] = { "?", "f16", "bf16", "fp8", "i8", "f32", "f8f6f4", "f64" };
    return tr_error_op(T, op, WA_E_UNSUPPORTED,
                       "no %ux%ux%u MFMA with %u block%s of %s inputs on %s", m, n, k, blocks,
                       blocks == 1 ? "" : "s", names[in <= 7 ? in : 0], wa_target_name(T->target));
}

static unsigned blgp_of(MlirOperation op)
{
    MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("blgp"));
    char s[96];
    tr_attr_str(a, s, sizeof(s));
    static const char *const names[] = { "none", "bcast_first_32", "bcast_second_32",
                                         "rotate_16_right", "bcast_first_16", "bcast_second_16",
                                         "bcast_third_16", "bcast_fourth_16" };
    for (unsigned i = 1; i < 8; i++)
        if (strstr(s, names[i]))
            return i;
    return 0;
}

static int all_zero(const wval *w)
{
    for (unsigned i = 0; i < w->n; i++)
        if (w->e[i].kind != WV_CONST || w->e[i].c != 0)
            return 0;
    return 1;
}

static int lower_mfma(tr *T, MlirOperation op)
{
    wval *a = tr_val(T, tr_operand(op, 0)), *b = tr_val(T, tr_operand(op, 1)),
         *c = tr_val(T, tr_operand(op, 2));
    wval *r = tr_result_val(T, op, 0);
    if (!a || !b || !c || !r)
        return -1;
    unsigned m = (unsigned)tr_attr_int(op, "m", 0), n = (unsigned)tr_attr_int(op, "n", 0),
             k = (unsigned)tr_attr_int(op, "k", 0), blocks = (unsigned)tr_attr_int(op, "blocks", 1);
    if (tr_attr_int(op, "negateA", 0) || tr_attr_int(op, "negateB", 0) ||
        tr_attr_int(op, "negateC", 0))
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "MFMA operand negation is not supported");
    if (tr_attr_has(op, "reducePrecision") && tr_attr_int(op, "reducePrecision", 0))
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "xf32 (reducePrecision) MFMAs are not supported");
    wa_mfma_input in = 0;
    if (mfma_input(T, op, a->et, &in))
        return -1;
    wa_opcode opc;
    if (find_mfma(T, op, m, n, k, blocks, in, &opc))
        return -1;
    const wa_isa_info *info = wa_isa_get(opc);
    unsigned ab = info->operands[1].size, acc = info->operands[0].size;
    wa_operand A = tr_pack(T, a, 0, a->n), B = tr_pack(T, b, 0, b->n);
    if (T->failed)
        return -1;
    if (A.count != ab || B.count != ab)
        return tr_error_op(T, op, WA_E_INVALID,
                           "MFMA operands of %u and %u registers where %s takes %u", A.count,
                           B.count, info->mnemonic, ab);
    wa_operand C = all_zero(c) ? wa_opnd_imm(0) : tr_pack(T, c, 0, c->n);
    if (C.kind != WA_OPND_IMM && C.count != acc)
        return tr_error_op(T, op, WA_E_INVALID, "MFMA accumulator of %u registers where %s takes %u",
                           C.count, info->mnemonic, acc);
    unsigned acc_bits = in == WA_MFMA_IN_F64 ? 64 : 32;
    if (r->et.bits != acc_bits || (r->n * r->et.bits + 31) / 32 != acc)
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "MFMA result of %u %u-bit elements where %s writes %u %u-bit registers",
                           r->n, r->et.bits, info->mnemonic, acc * 32 / acc_bits, acc_bits);
    wa_operand D = tr_vreg(T, WA_REG_VGPR, acc);
    wa_mods mods = WA_MODS_INIT;
    mods.cbsz = (uint8_t)tr_attr_int(op, "cbsz", 0);
    mods.abid = (uint8_t)tr_attr_int(op, "abid", 0);
    mods.blgp = (uint8_t)blgp_of(op);
    if (wa_build_mfma(NULL, T->prog, opc, D, A, B, C, wa_opnd_none(), wa_opnd_none(), &mods) != WA_OK)
        return tr_error_op(T, op, WA_E_INTERNAL, "internal error: building %s: %s", info->mnemonic,
                           wa_context_last_error(T->ctx));
    tr_unpack(T, r->e, D, r->et, r->n, 0);
    return tr_set_val(T, tr_result(op, 0), r);
}

/* block-scaled MFMA (gfx950): A/B formats in cbsz/blgp, scale bytes chosen by
   op_sel (bit 0 A, bit 1 B) and op_sel_hi (the byte index's high bit) */
static int f8f6f4_code(ety et, unsigned *code, unsigned *dwords)
{
    switch (et.fkind) {
    case EF_F8E4M3FN: *code = 0; *dwords = 8; return 0;
    case EF_F8E5M2: *code = 1; *dwords = 8; return 0;
    case EF_F6E2M3: *code = 2; *dwords = 6; return 0;
    case EF_F6E3M2: *code = 3; *dwords = 6; return 0;
    case EF_F4E2M1: *code = 4; *dwords = 4; return 0;
    default: return -1;
    }
}

/* Packs a vector of sub-byte elements (f6, f4) or bytes into `dwords` VGPRs. */
static wa_operand pack_bits(tr *T, wval *v, unsigned dwords)
{
    if (v->et.bits >= 8)
        return tr_pack(T, v, 0, v->n);
    /* sub-byte elements: only constants or elements already packed in place */
    const wv *e0 = &v->e[0];
    int ok = e0->kind == WV_VREG && e0->r.kind == WA_OPND_VIRT;
    for (unsigned i = 0; ok && i < v->n; i++) {
        unsigned pos = i * v->et.bits;
        ok = v->e[i].kind == WV_VREG && v->e[i].r.id == e0->r.id &&
             v->e[i].r.first == e0->r.first + pos / 32 && v->e[i].shift == pos % 32;
    }
    if (ok) {
        wa_operand o = e0->r;
        o.count = (uint16_t)dwords;
        return o;
    }
    tr_error(T, T->cur_loc, WA_E_UNSUPPORTED,
             "vectors of %u-bit elements must come packed from memory (vector.bitcast of i32 "
             "registers) to feed a scaled MFMA",
             v->et.bits);
    return wa_opnd_none();
}

static int lower_scaled_mfma(tr *T, MlirOperation op)
{
    wval *a = tr_val(T, tr_operand(op, 0)), *b = tr_val(T, tr_operand(op, 1)),
         *c = tr_val(T, tr_operand(op, 2)), *sa = tr_val(T, tr_operand(op, 3)),
         *sb = tr_val(T, tr_operand(op, 4));
    wval *r = tr_result_val(T, op, 0);
    if (!a || !b || !c || !sa || !sb || !r)
        return -1;
    unsigned m = (unsigned)tr_attr_int(op, "m", 0), n = (unsigned)tr_attr_int(op, "n", 0),
             k = (unsigned)tr_attr_int(op, "k", 0);
    unsigned ca, cb, da, db;
    if (f8f6f4_code(a->et, &ca, &da) || f8f6f4_code(b->et, &cb, &db))
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "scaled MFMA inputs must be f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN or "
                           "f4E2M1FN");
    wa_opcode opc;
    if (find_mfma(T, op, m, n, k, 1, WA_MFMA_IN_F8F6F4, &opc))
        return -1;
    wa_operand A = pack_bits(T, a, da), B = pack_bits(T, b, db);
    if (T->failed)
        return -1;
    wa_operand C = all_zero(c) ? wa_opnd_imm(0) : tr_pack(T, c, 0, c->n);
    wa_operand SA = tr_pack(T, sa, 0, sa->n), SB = tr_pack(T, sb, 0, sb->n);
    unsigned acc = wa_isa_get(opc)->operands[0].size;
    wa_operand D = tr_vreg(T, WA_REG_VGPR, acc);
    unsigned ia = (unsigned)tr_attr_int(op, "scalesIdxA", 0), ib = (unsigned)tr_attr_int(op, "scalesIdxB", 0);
    wa_mods mods = WA_MODS_INIT;
    mods.cbsz = (uint8_t)ca;
    mods.blgp = (uint8_t)cb;
    mods.op_sel = (uint8_t)((ia & 1) | (ib & 1) << 1);
    mods.op_sel_hi = (uint8_t)((ia >> 1 & 1) | (ib >> 1 & 1) << 1);
    if (wa_build_mfma(NULL, T->prog, opc, D, A, B, C, SA, SB, &mods) != WA_OK)
        return tr_error_op(T, op, WA_E_INTERNAL, "internal error: scaled MFMA: %s",
                           wa_context_last_error(T->ctx));
    tr_unpack(T, r->e, D, r->et, r->n, 0);
    return tr_set_val(T, tr_result(op, 0), r);
}

/* ---- buffer descriptors ------------------------------------------------------------------ */

/* A descriptor for memref `m` (global): base = the argument's pointer plus the
   memref's byte offset when `reset`, num_records = `bytes`. */
static wa_operand build_srd(tr *T, MlirOperation op, const mref *m, const wv *bytes, int reset)
{
    if (m->space == MS_LDS) {
        tr_error_op(T, op, WA_E_INVALID, "a buffer descriptor of workgroup memory");
        return wa_opnd_none();
    }
    wa_operand srd = tr_vreg(T, WA_REG_SGPR, 4);
    wa_operand lo, hi;
    if (m->space == MS_BUFFER) {
        lo = wa_opnd_sub(m->srd, 0, 1);
        hi = wa_opnd_sub(m->srd, 1, 1);
    } else {
        wa_operand p = tr_arg_sreg(T, m->arg);
        lo = wa_opnd_sub(p, 0, 1);
        hi = wa_opnd_sub(p, 1, 1);
    }
    wv off = m->off;
    if (reset && !(off.kind == WV_CONST && off.c == 0)) {
        if (off.kind == WV_VREG && !off.uniform) {
            tr_error_op(T, op, WA_E_UNSUPPORTED, "a buffer descriptor of a per-lane offset");
            return wa_opnd_none();
        }
        wa_operand o = tr_ssrc(T, &off);
        tr_salu(T, WA_OP_S_ADD_U32, wa_opnd_sub(srd, 0, 1), lo, o);
        tr_salu(T, WA_OP_S_ADDC_U32, wa_opnd_sub(srd, 1, 1), hi, wa_opnd_imm(0));
        tr_salu(T, WA_OP_S_AND_B32, wa_opnd_sub(srd, 1, 1), wa_opnd_sub(srd, 1, 1),
                wa_opnd_imm(0xFFFF));
    } else {
        wa_operand mv[2] = { wa_opnd_sub(srd, 0, 1), lo };
        tr_emit(T, WA_OP_S_MOV_B32, mv, 2, NULL);
        tr_salu(T, WA_OP_S_AND_B32, wa_opnd_sub(srd, 1, 1), hi, wa_opnd_imm(0xFFFF));
    }
    wa_operand nr = bytes->kind == WV_CONST ? wa_opnd_imm((int64_t)(int32_t)(uint32_t)bytes->c)
                                            : tr_ssrc(T, bytes);
    wa_operand w2[2] = { wa_opnd_sub(srd, 2, 1), nr };
    tr_emit(T, WA_OP_S_MOV_B32, w2, 2, NULL);
    wa_operand w3[2] = { wa_opnd_sub(srd, 3, 1), wa_opnd_imm(tr_srd_word3(T->target)) };
    tr_emit(T, WA_OP_S_MOV_B32, w3, 2, NULL);
    return srd;
}

/* Bytes a memref spans from element 0: (sum (size - 1) * stride + 1) * esize. */
static wv extent_bytes(tr *T, const mref *m)
{
    wv last = wv_const_int(TR_I32, 0), one = wv_const_int(TR_I32, 1);
    for (unsigned d = 0; d < m->rank; d++) {
        if (m->size[d].kind == WV_CONST && m->size[d].c == 0)
            return wv_const_int(TR_I32, 0);
        wv sm1 = tr_isub(T, &m->size[d], &one, 1);
        wv t = tr_imul(T, &sm1, &m->stride[d], 1);
        last = tr_iadd(T, &last, &t, 1);
    }
    wv e = tr_iadd(T, &last, &one, 1);
    wv es = wv_const_int(TR_I32, m->esize);
    return tr_imul(T, &e, &es, 1);
}

static int lower_fat_raw_buffer_cast(tr *T, MlirOperation op)
{
    mref *src = tr_memref(T, tr_operand(op, 0));
    if (!src)
        return -1;
    int64_t seg[3] = { 1, 0, 0 };
    tr_attr_i64_array(op, "operandSegmentSizes", seg, 3);
    if (seg[2])
        return tr_error_op(T, op, WA_E_UNSUPPORTED,
                           "fat_raw_buffer_cast with a cache swizzle stride is not supported");
    int reset = tr_attr_has(op, "resetOffset");
    int bounds = tr_attr_int(op, "boundsCheck", 1) != 0;
    wv bytes;
    if (seg[1]) {
        wv *vb = tr_scalar(T, tr_operand(op, 1));
        if (!vb)
            return -1;
        bytes = *vb;
    } else if (!bounds) {
        bytes = wv_const_int(TR_I32, (int64_t)0xFFFFFFFFu);
    } else {
        bytes = extent_bytes(T, src);
        if (!reset) {
            wv o = src->off;
            bytes = tr_iadd(T, &bytes, &o, 1);
        }
    }
    mref *m = tr_alloc(T, sizeof(*m));
    if (!m)
        return -1;
    *m = *src;
    m->srd = build_srd(T, op, src, &bytes, reset);
    if (T->failed)
        return -1;
    m->space = MS_BUFFER;
    m->bounds = (uint8_t)bounds;
    if (reset)
        m->off = wv_const_int(TR_I32, 0);
    wval *w = tr_new_val(T, VK_MEMREF, m->et, 0);
    if (!w)
        return -1;
    w->m = m;
    return tr_set_val(T, tr_result(op, 0), w);
}

/* raw_buffer_load/store/atomic: operands (value, cmp?), memref, indices, sgprOffset? */
static int raw_buffer(tr *T, MlirOperation op, int kind /* 0 load, 1 store, 2 atomic */,
                      tr_atom atom)
{
    intptr_t first = kind == 0 ? 0 : atom == TA_CMPSWAP ? 2 : 1;
    int64_t seg[5];
    int ns = tr_attr_i64_array(op, "operandSegmentSizes", seg, 5);
    if (ns != first + 3)
        return tr_error_op(T, op, WA_E_INVALID, "malformed raw buffer operation");
    intptr_t nidx = seg[first + 1], has_soff = seg[first + 2];
    mref *m = tr_memref(T, tr_operand(op, first));
    if (!m)
        return -1;
    if (m->space == MS_LDS)
        return tr_error_op(T, op, WA_E_INVALID, "raw buffer access to workgroup memory");
    wv *idx = tr_alloc(T, (m->rank + 1) * sizeof(wv));
    if (!idx)
        return -1;
    for (unsigned d = 0; d < m->rank && (intptr_t)d < nidx; d++) {
        wv *e = tr_scalar(T, tr_operand(op, first + 1 + d));
        if (!e)
            return -1;
        idx[d] = *e;
    }
    int64_t io = tr_attr_int(op, "indexOffset", 0);
    if (io && m->rank) {
        wv k = wv_const_int(TR_I32, io);
        idx[m->rank - 1] = tr_iadd(T, &idx[m->rank - 1], &k, 0);
    }
    int bounds = tr_attr_int(op, "boundsCheck", 1) != 0;
    /* a descriptor of this memref: its range is the memref's */
    wv bytes = bounds ? extent_bytes(T, m) : wv_const_int(TR_I32, (int64_t)0xFFFFFFFFu);
    wa_operand srd = build_srd(T, op, m, &bytes, 1);
    if (T->failed)
        return -1;
    /* byte offset from the memref's element 0, all of it range-checked */
    mref local = *m;
    local.off = wv_const_int(TR_I32, 0);
    local.space = MS_BUFFER;
    local.srd = srd;
    wv off = tr_mem_offset(T, &local, idx);
    wa_operand soff = wa_opnd_imm(0);
    if (has_soff) {
        wv *s = tr_scalar(T, tr_operand(op, first + 1 + nidx));
        if (!s)
            return -1;
        soff = tr_ssrc(T, s);
    }
    int64_t c = off.kind == WV_CONST ? (int64_t)(int32_t)off.c : off.add;
    wv base = off;
    wa_operand vaddr = wa_opnd_off();
    if (off.kind != WV_CONST) {
        if (c < 0 || c > 4000) {
            c = 0;
        } else {
            base.add = 0;
        }
        vaddr = tr_vsrc(T, &base);
    } else if (c < 0 || c > 4000) {
        vaddr = tr_to_vgpr(T, wa_opnd_imm((int64_t)(int32_t)(uint32_t)c));
        c = 0;
    }
    wa_mods mods = WA_MODS_INIT;
    mods.offset = (int32_t)c;
    if (vaddr.kind != WA_OPND_OFF)
        mods.flags |= WA_MOD_OFFEN;
    if (kind == 2) {
        /* the old value comes back (GLC) in the data registers: value, then
           for compare-and-swap the value compared with */
        ety et = m->et;
        wa_opcode opc = tr_atom_opcode(atom, et, 0, 1, T->target);
        wval *v = tr_val(T, tr_operand(op, 0));
        wval *cmp = atom == TA_CMPSWAP ? tr_val(T, tr_operand(op, 1)) : NULL;
        if (!v || (atom == TA_CMPSWAP && !cmp))
            return -1;
        MlirStringRef name = tr_op_name(op);
        if (!opc || v->n != 1) {
            char b[32];
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "%.*s on %s%s has no instruction on %s",
                               (int)name.length, name.data, v->n != 1 ? "vectors of " : "",
                               tr_ety_name(et, b, sizeof(b)), wa_target_name(T->target));
        }
        unsigned dw = et.bits / 32;
        wa_operand data = tr_vreg(T, WA_REG_VGPR, cmp ? 2 * dw : dw);
        tr_pack_to(T, v, 0, 1, cmp ? wa_opnd_sub(data, 0, dw) : data);
        if (cmp)
            tr_pack_to(T, cmp, 0, 1, wa_opnd_sub(data, dw, dw));
        int want = tr_nresults(op) > 0 && !mlirOpOperandIsNull(mlirValueGetFirstUse(tr_result(op, 0)));
        if (want)
            mods.flags |= WA_MOD_GLC;
        wa_operand ops[4] = { data, vaddr, srd, soff };
        tr_emit(T, opc, ops, 4, &mods);
        if (tr_nresults(op) == 0)
            return 0;
        wval *res = tr_result_val(T, op, 0);
        if (!res)
            return -1;
        tr_unpack(T, res->e, cmp ? wa_opnd_sub(data, 0, dw) : data, et, 1, 0);
        return tr_set_val(T, tr_result(op, 0), res);
    }
    if (kind == 1) {
        wval *v = tr_val(T, tr_operand(op, 0));
        if (!v)
            return -1;
        unsigned bytes_n = v->n * (v->et.bits / 8);
        wa_opcode opc = bytes_n == 16 ? WA_OP_BUFFER_STORE_DWORDX4 : bytes_n == 12 ? WA_OP_BUFFER_STORE_DWORDX3
                        : bytes_n == 8 ? WA_OP_BUFFER_STORE_DWORDX2 : bytes_n == 4 ? WA_OP_BUFFER_STORE_DWORD
                        : bytes_n == 2 ? WA_OP_BUFFER_STORE_SHORT : bytes_n == 1 ? WA_OP_BUFFER_STORE_BYTE
                                       : (wa_opcode)0;
        if (!opc)
            return tr_error_op(T, op, WA_E_UNSUPPORTED, "raw buffer store of %u bytes", bytes_n);
        wa_operand data = bytes_n <= 2 ? tr_vsrc(T, &v->e[0]) : tr_pack(T, v, 0, v->n);
        wa_operand ops[4] = { data, vaddr, srd, soff };
        tr_emit(T, opc, ops, 4, &mods);
        return 0;
    }
    wval *r = tr_result_val(T, op, 0);
    if (!r)
        return -1;
    unsigned bytes_n = r->n * (r->et.bits / 8);
    wa_opcode opc = bytes_n == 16 ? WA_OP_BUFFER_LOAD_DWORDX4 : bytes_n == 12 ? WA_OP_BUFFER_LOAD_DWORDX3
                    : bytes_n == 8 ? WA_OP_BUFFER_LOAD_DWORDX2 : bytes_n == 4 ? WA_OP_BUFFER_LOAD_DWORD
                    : bytes_n == 2 ? WA_OP_BUFFER_LOAD_USHORT : bytes_n == 1 ? WA_OP_BUFFER_LOAD_UBYTE
                                   : (wa_opcode)0;
    if (!opc)
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "raw buffer load of %u bytes", bytes_n);
    wa_operand d = tr_vreg(T, WA_REG_VGPR, (bytes_n + 3) / 4);
    wa_operand ops[4] = { d, vaddr, srd, soff };
    tr_emit(T, opc, ops, 4, &mods);
    tr_unpack(T, r->e, d, r->et, r->n, 0);
    return tr_set_val(T, tr_result(op, 0), r);
}

static int lower_raw_load(tr *T, MlirOperation op)
{
    return raw_buffer(T, op, 0, TA_COUNT_);
}
static int lower_raw_store(tr *T, MlirOperation op)
{
    return raw_buffer(T, op, 1, TA_COUNT_);
}
/* raw_buffer_atomic_<suffix>: the kind from the name (fmax is the hardware's
   maximum, maxnum for ordinary values) */
static int lower_raw_atomic(tr *T, MlirOperation op)
{
    static const struct {
        const char *suffix;
        tr_atom kind;
    } atoms[] = { { "fadd", TA_ADDF }, { "fmax", TA_MAXNUMF }, { "smax", TA_MAXS },
                  { "umin", TA_MINU }, { "cmpswap", TA_CMPSWAP } };
    MlirStringRef n = tr_op_name(op);
    size_t pre = strlen("amdgpu.raw_buffer_atomic_");
    for (size_t i = 0; i < sizeof(atoms) / sizeof(atoms[0]); i++)
        if (n.length > pre && strlen(atoms[i].suffix) == n.length - pre &&
            !memcmp(n.data + pre, atoms[i].suffix, n.length - pre))
            return raw_buffer(T, op, 2, atoms[i].kind);
    return tr_error_op(T, op, WA_E_UNSUPPORTED, "%.*s is not supported", (int)n.length, n.data);
}

/* ---- gather_to_lds ---------------------------------------------------------------------- */

static int lower_gather_to_lds(tr *T, MlirOperation op)
{
    int64_t seg[4];
    if (tr_attr_i64_array(op, "operandSegmentSizes", seg, 4) != 4)
        return tr_error_op(T, op, WA_E_INVALID, "malformed gather_to_lds");
    mref *src = tr_memref(T, tr_operand(op, 0));
    mref *dst = tr_memref(T, tr_operand(op, 1 + seg[1]));
    if (!src || !dst)
        return -1;
    if (dst->space != MS_LDS || src->space == MS_LDS)
        return tr_error_op(T, op, WA_E_INVALID, "gather_to_lds goes from global to workgroup memory");
    MlirAttribute tt = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("transferType"));
    MlirType ty = mlirTypeAttrGetValue(tt);
    ety et;
    unsigned rank, n;
    int64_t shape[TR_MAX_RANK];
    if (tr_type_shape(T, ty, &et, &rank, shape, &n))
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "gather_to_lds transfer type");
    unsigned bytes = n * et.bits / 8;
    wa_opcode opc = bytes == 4 ? WA_OP_BUFFER_LOAD_DWORD_LDS : bytes == 2 ? WA_OP_BUFFER_LOAD_USHORT_LDS
                    : bytes == 1 ? WA_OP_BUFFER_LOAD_UBYTE_LDS
                    : bytes == 16 ? WA_OP_BUFFER_LOAD_DWORDX4_LDS
                                  : (wa_opcode)0;
    if (!opc || !wa_isa_available(opc, T->target))
        return tr_error_op(T, op, WA_E_UNSUPPORTED, "gather_to_lds of %u bytes per lane on %s",
                           bytes, wa_target_name(T->target));
    wv *si = tr_alloc(T, (src->rank + 1) * sizeof(wv)), *di = tr_alloc(T, (dst->rank + 1) * sizeof(wv));
    if (!si || !di)
        return -1;
    for (unsigned d = 0; d < src->rank; d++) {
        wv *e = tr_scalar(T, tr_operand(op, 1 + d));
        if (!e)
            return -1;
        si[d] = *e;
    }
    for (unsigned d = 0; d < dst->rank; d++) {
        wv *e = tr_scalar(T, tr_operand(op, 2 + seg[1] + d));
        if (!e)
            return -1;
        di[d] = *e;
    }
    /* LDS destination of the wave: M0 (the per-lane slots follow it) */
    wv lds = tr_mem_offset(T, dst, di);
    if (lds.kind == WV_VREG && !lds.uniform)
        return tr_error_op(T, op, WA_E_INVALID, "gather_to_lds destination indices must be uniform");
    wa_operand m0v = lds.kind == WV_CONST ? wa_opnd_imm((int64_t)(int32_t)(uint32_t)lds.c)
                                          : tr_ssrc(T, &lds);
    /* source: everything in the VGPR offset (the instruction offset would move
       the LDS address too) */
    wv so = tr_mem_offset(T, src, si);
    wa_operand srd = tr_memref_srd(T, src);
    wa_operand vaddr = so.kind == WV_CONST ? tr_to_vgpr(T, wa_opnd_imm((int64_t)(int32_t)(uint32_t)so.c))
                                           : tr_vsrc(T, &so);
    wa_operand mv[2] = { wa_opnd_special(WA_SPECIAL_M0), m0v };
    tr_emit(T, WA_OP_S_MOV_B32, mv, 2, NULL);
    wa_mods mods = WA_MODS_INIT;
    mods.flags = WA_MOD_OFFEN | WA_MOD_LDS;
    wa_operand ops[3] = { vaddr, srd, wa_opnd_imm(0) };
    tr_emit(T, opc, ops, 3, &mods);
    return 0;
}

/* ---- waits, barriers, scheduling --------------------------------------------------------- */

static int lower_lds_barrier(tr *T, MlirOperation op)
{
    (void)op;
    wa_build_sopp(NULL, T->prog, WA_OP_S_BARRIER, 0);
    return 0;
}

static int lower_memory_counter_wait(tr *T, MlirOperation op)
{
    int vm = -1, lgkm = -1, ex = -1;
    if (tr_attr_has(op, "load"))
        vm = (int)tr_attr_int(op, "load", 63);
    if (tr_attr_has(op, "store")) {
        int s = (int)tr_attr_int(op, "store", 63);
        vm = vm < 0 || s < vm ? s : vm;
    }
    if (tr_attr_has(op, "ds"))
        lgkm = (int)tr_attr_int(op, "ds", 15);
    if (tr_attr_has(op, "exp"))
        ex = (int)tr_attr_int(op, "exp", 7);
    if (vm > 63)
        vm = 63;
    if (lgkm > 15)
        lgkm = 15;
    if (ex > 7)
        ex = 7;
    wa_build_waitcnt(NULL, T->prog, vm, lgkm, ex);
    return 0;
}

static int lower_sched_barrier(tr *T, MlirOperation op)
{
    (void)op;
    /* a hint for an instruction scheduler; the pipeline keeps program order */
    tr_comment(T, "sched_barrier");
    return 0;
}

const tr_op_entry tr_amdgpu_ops[] = {
    { "amdgpu.mfma", lower_mfma },
    { "amdgpu.scaled_mfma", lower_scaled_mfma },
    { "amdgpu.lds_barrier", lower_lds_barrier },
    { "amdgpu.fat_raw_buffer_cast", lower_fat_raw_buffer_cast },
    { "amdgpu.raw_buffer_load", lower_raw_load },
    { "amdgpu.raw_buffer_store", lower_raw_store },
    { "amdgpu.raw_buffer_atomic_fadd", lower_raw_atomic },
    { "amdgpu.raw_buffer_atomic_fmax", lower_raw_atomic },
    { "amdgpu.raw_buffer_atomic_smax", lower_raw_atomic },
    { "amdgpu.raw_buffer_atomic_umin", lower_raw_atomic },
    { "amdgpu.raw_buffer_atomic_cmpswap", lower_raw_atomic },
    { "amdgpu.gather_to_lds", lower_gather_to_lds },
    { "amdgpu.memory_counter_wait", lower_memory_counter_wait },
    { "amdgpu.sched_barrier", lower_sched_barrier },
    { NULL, NULL },
};

/* ---- rocdl ---------------------------------------------------------------------------------- */

static int lower_readfirstlane(tr *T, MlirOperation op)
{
    wval *v = tr_val(T, tr_operand(op, 0));
    wval *r = tr_result_val(T, op, 0);
    if (!v || !r)
        return -1;
    const wv *lane = NULL;
    if (tr_name_is(op, "rocdl.readlane")) {
        lane = tr_scalar(T, tr_operand(op, 1));
        if (!lane)
            return -1;
    }
    if (tr_broadcast_lane(T, op, v, lane, r))
        return -1;
    return tr_set_val(T, tr_result(op, 0), r);
}

static int lower_s_barrier(tr *T, MlirOperation op)
{
    (void)op;
    wa_build_sopp(NULL, T->prog, WA_OP_S_BARRIER, 0);
    return 0;
}

static int lower_s_setprio(tr *T, MlirOperation op)
{
    int64_t p = tr_attr_int(op, "priority", 0);
    if (p < 0 || p > 3)
        return tr_error_op(T, op, WA_E_RANGE, "s_setprio %ld is outside 0..3", (long)p);
    wa_build_sopp(NULL, T->prog, WA_OP_S_SETPRIO, (int)p);
    return 0;
}

static int lower_s_waitcnt(tr *T, MlirOperation op)
{
    int64_t b = tr_attr_int(op, "bitfield", 0);
    unsigned u = (unsigned)b & 0xFFFFu;
    int vm = (int)((u & 0xF) | (u >> 14 & 3) << 4), ex = (int)(u >> 4 & 7), lgkm = (int)(u >> 8 & 0xF);
    wa_build_waitcnt(NULL, T->prog, vm == 63 ? -1 : vm, lgkm == 15 ? -1 : lgkm, ex == 7 ? -1 : ex);
    return 0;
}

static int lower_rocdl_sched_barrier(tr *T, MlirOperation op)
{
    return lower_sched_barrier(T, op);
}

const tr_op_entry tr_rocdl_ops[] = {
    { "rocdl.readfirstlane", lower_readfirstlane },
    { "rocdl.readlane", lower_readfirstlane },
    { "rocdl.s.barrier", lower_s_barrier },
    { "rocdl.s.setprio", lower_s_setprio },
    { "rocdl.s.waitcnt", lower_s_waitcnt },
    { "rocdl.sched.barrier", lower_rocdl_sched_barrier },
    { NULL, NULL },
};
