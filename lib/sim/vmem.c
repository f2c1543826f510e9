/* lib/sim/vmem.c — vector memory semantics: MUBUF (buffer resources), FLAT and GLOBAL
   (addresses), their LDS-DMA forms and the cache controls.

   Each instruction computes its lanes' addresses and checks them at issue, reads the
   data it stores (and an atomic's operands) at issue, and queues one operation on
   the vector memory queue (vmcnt, in order) whose effects happen when it completes
   (memory.c).

   Buffers (GFX9 rules): the address is base + soffset + index * stride + offset,
   where index is the idxen VGPR (plus the lane id with ADD_TID_ENABLE) and offset the
   offen VGPR plus offset:N. A raw buffer (stride 0) checks offset (per dword, without
   soffset) against num_records in bytes; a strided one checks the index against
   num_records and the offset against the stride. Out-of-range loads give 0, stores
   and atomics do nothing (an atomic returns 0). A resource with data format 0 is
   invalid: every access is out of range. Swizzled resources (SWIZZLE_ENABLE) are
   refused.

   flat_* and global_* take a 64-bit address (global_* with saddr: the SGPR pair plus
   the zero-extended VGPR offset) plus offset:N. flat_* addresses are global memory:
   the simulator gives no address of the LDS or private apertures to a kernel.

   Data: byte and short loads zero- or sign-extend; the d16 loads write the low
   (_d16) or high (_d16_hi) half and keep the other; the d16_hi stores store the high
   half. Atomics apply their operation to 4 or 8 bytes; the old value comes back in
   vdata (MUBUF with glc/sc0) or vdst (the FLAT/GLOBAL forms with a result).
   cmpswap's data is the new value then the compare value.

   LDS DMA: element i of lane l goes to LDS at M0[15:0] + offset:N + l * 4 (16 for
   the gfx950 12- and 16-byte forms) + 4 * i; bytes and shorts are extended to 32
   bits there. buffer_store_lds_dword (gfx90a) stores the dword at that LDS address
   (read at issue).

   Not executed (reasons in why_not): the format forms (conversions through the
   resource's data and number formats) and scratch_* (the wave's private memory). */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

static int permissive(const sim_ctx *c) { return (c->sim->opts.flags & WA_SIM_PERMISSIVE) != 0; }

/* An address computed from undefined values: an error, or (permissive) an access
   that does not happen (counted when it writes). */
static int undefined_address(sim_ctx *c, int write)
{
    if (!permissive(c)) {
        sim_fail(c, WA_E_SIM_FAULT, "%s uses an address computed from undefined values",
                 c->info->mnemonic);
        return 0;
    }
    if (write)
        c->sim->stats.undefined_addresses++;
    return 1;
}

/* What one instruction does, from its row (the kinds below). */
enum { K_LOAD, K_STORE, K_ATOMIC, K_DMA, K_LDS_STORE, K_CACHE };

typedef struct vop {
    unsigned kind;
    unsigned bytes;   /* element size: 1, 2, 4 (8: 64-bit atomics) */
    unsigned dwords;  /* elements per lane (loads, stores, DMA) */
    int sext;
    unsigned half;    /* d16 loads: 1 low half, 2 high half; d16_hi stores: 2 */
    unsigned aop;     /* atomics: SIM_A_* */
    int cmpswap;
} vop;

/* ---- addresses ------------------------------------------------------------------------- */

typedef struct lanes {
    uint64_t addr[SIM_LANES];
    uint64_t known;                    /* address defined */
    uint64_t in;                       /* in range (buffers); all for FLAT/GLOBAL */
    uint32_t offset[SIM_LANES], index[SIM_LANES]; /* buffers */
} lanes;

typedef struct vsharp {
    uint64_t base;
    uint32_t stride, num_records;
    int add_tid, swizzle, valid, def;
} vsharp;

static vsharp read_vsharp(sim_ctx *c, unsigned k)
{
    vsharp v;
    uint32_t w[4];
    int d[4];
    for (unsigned i = 0; i < 4; i++)
        w[i] = sim_read_s(c, k, i, &d[i]);
    v.base = (uint64_t)w[0] | (uint64_t)(w[1] & 0xFFFFu) << 32;
    v.stride = (w[1] >> 16) & 0x3FFFu;
    v.swizzle = (w[1] >> 31) & 1u;
    v.num_records = w[2];
    v.add_tid = (w[3] >> 23) & 1u;
    v.valid = ((w[3] >> 15) & 0xFu) != 0; /* data format 0: invalid */
    v.def = d[0] && d[1] && d[2] && d[3];
    return v;
}

/* Byte `off` (size `bytes`) of lane l's access is inside the buffer. */
static int buffer_in_range(const vsharp *v, const lanes *b, unsigned l, unsigned off, unsigned bytes)
{
    if (!v->valid)
        return 0;
    if (v->stride == 0)
        return (uint64_t)b->offset[l] + off + bytes <= v->num_records;
    return b->index[l] < v->num_records && (uint64_t)b->offset[l] + off < v->stride;
}

/* MUBUF: vaddr (kaddr, or none for buffer_store_lds_dword), srsrc, soffset. */
static int buffer_lanes(sim_ctx *c, int kaddr, unsigned krsrc, vsharp *v, lanes *b)
{
    const wa_mods *m = &c->in->mods;
    int offen = (m->flags & WA_MOD_OFFEN) != 0, idxen = (m->flags & WA_MOD_IDXEN) != 0;
    uint32_t a0[SIM_LANES], a1[SIM_LANES];
    uint64_t d0 = SIM_ALL_LANES, d1 = SIM_ALL_LANES;
    memset(a0, 0, sizeof(a0));
    memset(a1, 0, sizeof(a1));
    *v = read_vsharp(c, krsrc);
    int dsoff;
    uint32_t soff = sim_read_s(c, krsrc + 1, 0, &dsoff);
    if (kaddr >= 0 && (offen || idxen))
        sim_read_vec(c, (unsigned)kaddr, 0, a0, &d0);
    if (kaddr >= 0 && offen && idxen)
        sim_read_vec(c, (unsigned)kaddr, 1, a1, &d1);
    if (sim_failed(c))
        return 0;
    if (v->swizzle && v->def) {
        sim_fail(c, WA_E_UNSUPPORTED,
                 "%s: the buffer resource enables swizzling (SWIZZLE_ENABLE), which the "
                 "simulator does not model", c->info->mnemonic);
        return 0;
    }
    b->known = (v->def && dsoff) ? d0 & d1 : 0;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint32_t index = (idxen ? a0[l] : 0) + (v->add_tid ? l : 0);
        uint32_t voff = offen ? (idxen ? a1[l] : a0[l]) : 0;
        b->index[l] = index;
        b->offset[l] = (uint32_t)m->offset + voff;
        b->addr[l] = v->base + soff + (uint64_t)index * v->stride + b->offset[l];
    }
    return 1;
}

/* FLAT: vaddr (a pair); GLOBAL: vaddr (a pair, saddr off) or the SGPR pair saddr plus
   the 32-bit vaddr. */
static int flat_lanes(sim_ctx *c, unsigned kaddr, int ksaddr, lanes *b)
{
    const wa_operand *so = ksaddr >= 0 ? &c->in->ops[ksaddr] : NULL;
    int saddr = so && so->kind != WA_OPND_OFF && so->kind != WA_OPND_NONE;
    uint32_t lo[SIM_LANES], hi[SIM_LANES];
    uint64_t dlo, dhi = SIM_ALL_LANES;
    memset(hi, 0, sizeof(hi));
    sim_read_vec(c, kaddr, 0, lo, &dlo);
    if (!saddr)
        sim_read_vec(c, kaddr, 1, hi, &dhi);
    int dsb = 1;
    uint64_t sbase = saddr ? sim_read_s64(c, (unsigned)ksaddr, &dsb) : 0;
    if (sim_failed(c))
        return 0;
    int64_t ioff = c->in->mods.offset;
    b->known = dsb ? dlo & dhi : 0;
    b->in = SIM_ALL_LANES;
    for (unsigned l = 0; l < SIM_LANES; l++)
        b->addr[l] = (saddr ? sbase + lo[l] : ((uint64_t)hi[l] << 32 | lo[l])) + (uint64_t)ioff;
    return 1;
}

/* ---- the operation ------------------------------------------------------------------------ */

static int add(sim_ctx *c, sim_op *op, const sim_elem *tmpl, uint8_t space, uint64_t addr,
               unsigned lane, unsigned reg)
{
    sim_elem e = *tmpl;
    e.space = space;
    e.addr = addr;
    e.lane = (uint8_t)lane;
    e.reg = (uint16_t)reg;
    return sim_op_add(c, op, &e);
}

/* Operand indices of a row: data (-1 none), result (-1 none), address, saddr/srsrc. */
typedef struct opnds {
    int kdata, kdst, kaddr, kbase;
} opnds;

static int is_named(const wa_isa_info *info, unsigned k, const char *name)
{
    return k < info->num_operands && info->operands[k].name &&
           strcmp(info->operands[k].name, name) == 0;
}

static int find(const wa_isa_info *info, const char *name)
{
    for (unsigned k = 0; k < info->num_operands; k++)
        if (is_named(info, k, name))
            return (int)k;
    return -1;
}

static opnds operands_of(const wa_isa_info *info)
{
    opnds o;
    o.kdata = find(info, "vdata");
    o.kdst = find(info, "vdst");
    o.kaddr = find(info, "vaddr");
    o.kbase = info->format == WA_FMT_MUBUF ? find(info, "srsrc") : find(info, "saddr");
    if (o.kdata >= 0 && (info->operands[o.kdata].role & WA_ROLE_DEF))
        o.kdst = o.kdata, o.kdata = -1; /* MUBUF loads: vdata is the result */
    return o;
}

/* The LDS address of element `k` of lane `l` (LDS DMA). */
static uint32_t lds_addr(const sim_ctx *c, const vop *v, unsigned l, unsigned k)
{
    unsigned stride = v->dwords > 1 ? 16u : 4u;
    return (c->w->m0 & 0xFFFFu) + (uint32_t)c->in->mods.offset + l * stride + 4u * k;
}

static int lds_in_range(sim_ctx *c, uint32_t la, unsigned bytes)
{
    if ((uint64_t)la + bytes <= c->sim->lds_bytes)
        return 1;
    if (!permissive(c))
        sim_fail(c, WA_E_SIM_FAULT, "%s ... lds accesses LDS bytes %u..%u, beyond the kernel's %u",
                 c->info->mnemonic, la, la + bytes - 1, c->sim->lds_bytes);
    return 0;
}

static void run(sim_ctx *c, const vop *v)
{
    const wa_isa_info *info = c->info;
    opnds o = operands_of(info);
    lanes b;
    vsharp vs;
    memset(&b, 0, sizeof(b));
    memset(&vs, 0, sizeof(vs));
    int buffer = info->format == WA_FMT_MUBUF;
    if (buffer ? !buffer_lanes(c, o.kaddr, (unsigned)o.kbase, &vs, &b)
               : !flat_lanes(c, (unsigned)o.kaddr, o.kbase, &b))
        return;
    int lds = v->kind == K_DMA || v->kind == K_LDS_STORE;
    int writes = v->kind != K_LOAD && v->kind != K_DMA;
    uint64_t ex = sim_exec(c);
    if (lds && ex && !c->w->m0_def && !permissive(c)) {
        sim_fail(c, WA_E_SIM_FAULT, "%s ... lds: M0 (the LDS address) is undefined",
                 info->mnemonic);
        return;
    }
    /* data read at issue: stores and atomic operands */
    uint32_t data[4][SIM_LANES];
    uint64_t ddef[4] = { 0, 0, 0, 0 };
    unsigned ndata = o.kdata >= 0 ? sim_opnd_count(c, (unsigned)o.kdata) : 0;
    for (unsigned k = 0; k < ndata && k < 4; k++)
        sim_read_vec(c, (unsigned)o.kdata, k, data[k], &ddef[k]);
    if (sim_failed(c))
        return;
    sim_op *op = sim_op_new(c, SIM_Q_VM);
    if (!op)
        return;
    sim_elem t;
    memset(&t, 0, sizeof(t));
    t.sext = (uint8_t)v->sext;
    t.half = (uint8_t)(v->kind == K_LOAD ? v->half : 0);
    unsigned bytes = v->kind == K_ATOMIC ? (v->bytes == 8 ? 8u : 4u) : v->bytes;
    unsigned elems = v->kind == K_ATOMIC ? 1u : v->dwords;
    for (unsigned l = 0; l < SIM_LANES && !sim_failed(c); l++) {
        if (!(ex >> l & 1u))
            continue;
        int known = (int)(b.known >> l & 1u) && (!lds || c->w->m0_def);
        if (!known && !undefined_address(c, writes || lds))
            break;
        for (unsigned k = 0; k < elems && !sim_failed(c); k++) {
            unsigned off = 4 * k;
            int in = known && (buffer ? buffer_in_range(&vs, &b, l, off, bytes) : 1);
            uint64_t addr = b.addr[l] + off;
            if (in && v->kind != K_CACHE && !sim_global_check(c, addr, bytes, writes))
                break;
            uint8_t space = !known ? SIM_SP_DROP : in ? SIM_SP_GLOBAL
                          : writes ? SIM_SP_DROP : SIM_SP_ZERO;
            int r = 0;
            switch (v->kind) {
            case K_LOAD:
                t.op = SIM_E_LOAD;
                t.bytes = (uint8_t)bytes;
                r = add(c, op, &t, space, addr, l, k);
                break;
            case K_STORE:
                t.op = SIM_E_STORE;
                t.bytes = (uint8_t)bytes;
                t.val = v->half == 2 ? data[k][l] >> 16 : data[k][l];
                t.def = (uint8_t)(ddef[k] >> l & 1u);
                r = add(c, op, &t, space, addr, l, 0);
                break;
            case K_ATOMIC: {
                unsigned w = bytes / 4; /* registers per value */
                t.op = SIM_E_ATOMIC;
                t.aop = (uint8_t)v->aop;
                t.bytes = (uint8_t)bytes;
                t.val = data[0][l];
                t.val_hi = w > 1 ? data[1][l] : 0;
                t.cmp = v->cmpswap ? data[w][l] : 0;
                t.cmp_hi = v->cmpswap && w > 1 ? data[w + 1][l] : 0;
                uint64_t dd = ddef[0];
                if (w > 1)
                    dd &= ddef[1];
                if (v->cmpswap)
                    dd &= w > 1 ? ddef[2] & ddef[3] : ddef[1];
                t.def = (uint8_t)(dd >> l & 1u);
                r = add(c, op, &t, space, addr, l, 0);
                break;
            }
            case K_DMA: {
                uint32_t la = lds_addr(c, v, l, k);
                if (!lds_in_range(c, la, 4))
                    break;
                if (!known)
                    continue;
                t.op = SIM_E_DMA;
                t.bytes = (uint8_t)bytes;
                t.val = la;
                r = add(c, op, &t, space == SIM_SP_GLOBAL ? SIM_SP_GLOBAL : SIM_SP_ZERO, addr, l, 0);
                break;
            }
            case K_LDS_STORE: {
                uint32_t la = lds_addr(c, v, l, k);
                if (!lds_in_range(c, la, 4))
                    break;
                uint32_t val = 0;
                int def = 1;
                for (unsigned i = 0; i < 4; i++) {
                    val |= (uint32_t)c->sim->lds[la + i] << (8 * i);
                    def &= c->sim->lds_def[la + i] != 0;
                }
                t.op = SIM_E_STORE;
                t.bytes = 4;
                t.val = val;
                t.def = (uint8_t)def;
                r = add(c, op, &t, space, addr, l, 0);
                break;
            }
            default:
                break;
            }
            if (r)
                break;
        }
    }
    if (sim_failed(c)) {
        sim_op_issue(c, op, -1, 0, 0); /* releases it */
        return;
    }
    /* the result registers: loads; atomics that return (MUBUF: vdata with glc) */
    int kres = -1;
    if (v->kind == K_LOAD)
        kres = o.kdst;
    else if (v->kind == K_ATOMIC)
        kres = o.kdst >= 0 ? o.kdst : (c->in->mods.flags & WA_MOD_GLC) ? o.kdata : -1;
    if (kres < 0) {
        sim_op_issue(c, op, -1, 0, 0);
        return;
    }
    unsigned file, base;
    if (!sim_reg_of(c->sim, &c->in->ops[kres], 0, &file, &base)) {
        sim_fail(c, WA_E_INTERNAL, "operand %d is not a register", kres);
        sim_op_issue(c, op, -1, 0, 0);
        return;
    }
    unsigned n = v->kind == K_ATOMIC ? bytes / 4 : v->dwords;
    sim_op_issue(c, op, (int)file, base, n);
}

/* ---- the instructions ------------------------------------------------------------------- */

#define VOP(name, kind, bytes, dwords, sext, half, aop, cmp)                       \
    static void op_##name(sim_ctx *c)                                               \
    {                                                                               \
        static const vop v = { kind, bytes, dwords, sext, half, aop, cmp };         \
        run(c, &v);                                                                 \
    }
#define LOADOP(name, bytes, dw, sext) VOP(name, K_LOAD, bytes, dw, sext, 0, 0, 0)
#define LOAD16(name, bytes, sext, half) VOP(name, K_LOAD, bytes, 1, sext, half, 0, 0)
#define STOREOP(name, bytes, dw, half) VOP(name, K_STORE, bytes, dw, 0, half, 0, 0)
#define DMAOP(name, bytes, dw, sext) VOP(name, K_DMA, bytes, dw, sext, 0, 0, 0)
#define ATOM(name, aop, bytes) VOP(name, K_ATOMIC, bytes, 1, 0, 0, aop, (unsigned)(aop) == (unsigned)SIM_A_CMPSWAP)

LOADOP(ld_ubyte, 1, 1, 0)
LOADOP(ld_sbyte, 1, 1, 1)
LOADOP(ld_ushort, 2, 1, 0)
LOADOP(ld_sshort, 2, 1, 1)
LOADOP(ld_dword, 4, 1, 0)
LOADOP(ld_dwordx2, 4, 2, 0)
LOADOP(ld_dwordx3, 4, 3, 0)
LOADOP(ld_dwordx4, 4, 4, 0)
LOAD16(ld_ubyte_d16, 1, 0, 1)
LOAD16(ld_ubyte_d16_hi, 1, 0, 2)
LOAD16(ld_sbyte_d16, 1, 1, 1)
LOAD16(ld_sbyte_d16_hi, 1, 1, 2)
LOAD16(ld_short_d16, 2, 0, 1)
LOAD16(ld_short_d16_hi, 2, 0, 2)
STOREOP(st_byte, 1, 1, 0)
STOREOP(st_byte_d16_hi, 1, 1, 2)
STOREOP(st_short, 2, 1, 0)
STOREOP(st_short_d16_hi, 2, 1, 2)
STOREOP(st_dword, 4, 1, 0)
STOREOP(st_dwordx2, 4, 2, 0)
STOREOP(st_dwordx3, 4, 3, 0)
STOREOP(st_dwordx4, 4, 4, 0)
DMAOP(dma_ubyte, 1, 1, 0)
DMAOP(dma_sbyte, 1, 1, 1)
DMAOP(dma_ushort, 2, 1, 0)
DMAOP(dma_sshort, 2, 1, 1)
DMAOP(dma_dword, 4, 1, 0)
DMAOP(dma_dwordx3, 4, 3, 0)
DMAOP(dma_dwordx4, 4, 4, 0)
VOP(lds_store_dword, K_LDS_STORE, 4, 1, 0, 0, 0, 0)
ATOM(at_swap, SIM_A_SWAP, 4)
ATOM(at_cmpswap, SIM_A_CMPSWAP, 4)
ATOM(at_add, SIM_A_ADD, 4)
ATOM(at_sub, SIM_A_SUB, 4)
ATOM(at_smin, SIM_A_SMIN, 4)
ATOM(at_umin, SIM_A_UMIN, 4)
ATOM(at_smax, SIM_A_SMAX, 4)
ATOM(at_umax, SIM_A_UMAX, 4)
ATOM(at_and, SIM_A_AND, 4)
ATOM(at_or, SIM_A_OR, 4)
ATOM(at_xor, SIM_A_XOR, 4)
ATOM(at_inc, SIM_A_INC, 4)
ATOM(at_dec, SIM_A_DEC, 4)
ATOM(at_add_f32, SIM_A_ADD_F32, 4)
ATOM(at_pk_add_f16, SIM_A_PK_ADD_F16, 4)
ATOM(at_pk_add_bf16, SIM_A_PK_ADD_BF16, 4)
ATOM(at_add_f64, SIM_A_ADD_F64, 8)
ATOM(at_min_f64, SIM_A_MIN_F64, 8)
ATOM(at_max_f64, SIM_A_MAX_F64, 8)
ATOM(at_swap_x2, SIM_A_SWAP, 8)
ATOM(at_cmpswap_x2, SIM_A_CMPSWAP, 8)
ATOM(at_add_x2, SIM_A_ADD, 8)
ATOM(at_sub_x2, SIM_A_SUB, 8)
ATOM(at_smin_x2, SIM_A_SMIN, 8)
ATOM(at_umin_x2, SIM_A_UMIN, 8)
ATOM(at_smax_x2, SIM_A_SMAX, 8)
ATOM(at_umax_x2, SIM_A_UMAX, 8)
ATOM(at_and_x2, SIM_A_AND, 8)
ATOM(at_or_x2, SIM_A_OR, 8)
ATOM(at_xor_x2, SIM_A_XOR, 8)
ATOM(at_inc_x2, SIM_A_INC, 8)
ATOM(at_dec_x2, SIM_A_DEC, 8)

/* Cache controls: the simulator has no caches. buffer_wbl2 is an operation on the
   vector memory queue (vmcnt) without effects; the invalidations do nothing. */
static void op_wbl2(sim_ctx *c)
{
    sim_op *op = sim_op_new(c, SIM_Q_VM);
    if (op)
        sim_op_issue(c, op, -1, 0, 0);
}
static void op_nothing(sim_ctx *c) { (void)c; }

/* The float atomics (SIM_A_ADD_F32 ..): memory value m, data d. min/max follow
   IEEE-754 minNum/maxNum (a NaN operand gives the other one; -0 < +0). */
static uint64_t f64_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return u;
}
static double f64_of(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof(x));
    return x;
}
static uint32_t f16_add(uint32_t a, uint32_t b)
{
    return sim_f32_to_f16(sim_f16_to_f32((uint16_t)a) + sim_f16_to_f32((uint16_t)b));
}
static uint32_t bf16_add(uint32_t a, uint32_t b)
{
    return sim_f32_to_bf16(sim_bf16_to_f32((uint16_t)a) + sim_bf16_to_f32((uint16_t)b));
}
static double f64_minmax(double a, double b, int max)
{
    if (isnan(a))
        return isnan(b) ? a : b;
    if (isnan(b))
        return a;
    if (a == b) /* equal, perhaps zeros of both signs */
        return (signbit(a) != 0) == !max ? a : b;
    return (a < b) != max ? a : b;
}

uint64_t sim_atomic_float(unsigned aop, uint64_t m, uint64_t d)
{
    switch (aop) {
    case SIM_A_ADD_F32:
        return sim_f32_bits(sim_f32((uint32_t)m) + sim_f32((uint32_t)d));
    case SIM_A_PK_ADD_F16:
        return f16_add((uint32_t)m & 0xFFFFu, (uint32_t)d & 0xFFFFu) |
               (uint64_t)f16_add((uint32_t)m >> 16 & 0xFFFFu, (uint32_t)d >> 16 & 0xFFFFu) << 16;
    case SIM_A_PK_ADD_BF16:
        return bf16_add((uint32_t)m & 0xFFFFu, (uint32_t)d & 0xFFFFu) |
               (uint64_t)bf16_add((uint32_t)m >> 16 & 0xFFFFu, (uint32_t)d >> 16 & 0xFFFFu) << 16;
    case SIM_A_ADD_F64: return f64_bits(f64_of(m) + f64_of(d));
    case SIM_A_MIN_F64: return f64_bits(f64_minmax(f64_of(m), f64_of(d), 0));
    case SIM_A_MAX_F64: return f64_bits(f64_minmax(f64_of(m), f64_of(d), 1));
    default: return m;
    }
}

/* ---- tables ------------------------------------------------------------------------------ */

#define ATOMICS(P, S)                                                                  \
    [WA_OP_##P##_ATOMIC_SWAP##S] = op_at_swap, [WA_OP_##P##_ATOMIC_CMPSWAP##S] = op_at_cmpswap, \
    [WA_OP_##P##_ATOMIC_ADD##S] = op_at_add, [WA_OP_##P##_ATOMIC_SUB##S] = op_at_sub,          \
    [WA_OP_##P##_ATOMIC_SMIN##S] = op_at_smin, [WA_OP_##P##_ATOMIC_UMIN##S] = op_at_umin,      \
    [WA_OP_##P##_ATOMIC_SMAX##S] = op_at_smax, [WA_OP_##P##_ATOMIC_UMAX##S] = op_at_umax,      \
    [WA_OP_##P##_ATOMIC_AND##S] = op_at_and, [WA_OP_##P##_ATOMIC_OR##S] = op_at_or,            \
    [WA_OP_##P##_ATOMIC_XOR##S] = op_at_xor, [WA_OP_##P##_ATOMIC_INC##S] = op_at_inc,          \
    [WA_OP_##P##_ATOMIC_DEC##S] = op_at_dec,                                                   \
    [WA_OP_##P##_ATOMIC_ADD_F32##S] = op_at_add_f32,                                           \
    [WA_OP_##P##_ATOMIC_PK_ADD_F16##S] = op_at_pk_add_f16,                                     \
    [WA_OP_##P##_ATOMIC_PK_ADD_BF16##S] = op_at_pk_add_bf16,                                   \
    [WA_OP_##P##_ATOMIC_ADD_F64##S] = op_at_add_f64,                                           \
    [WA_OP_##P##_ATOMIC_MIN_F64##S] = op_at_min_f64,                                           \
    [WA_OP_##P##_ATOMIC_MAX_F64##S] = op_at_max_f64,                                           \
    [WA_OP_##P##_ATOMIC_SWAP_X2##S] = op_at_swap_x2,                                           \
    [WA_OP_##P##_ATOMIC_CMPSWAP_X2##S] = op_at_cmpswap_x2,                                     \
    [WA_OP_##P##_ATOMIC_ADD_X2##S] = op_at_add_x2, [WA_OP_##P##_ATOMIC_SUB_X2##S] = op_at_sub_x2, \
    [WA_OP_##P##_ATOMIC_SMIN_X2##S] = op_at_smin_x2,                                           \
    [WA_OP_##P##_ATOMIC_UMIN_X2##S] = op_at_umin_x2,                                           \
    [WA_OP_##P##_ATOMIC_SMAX_X2##S] = op_at_smax_x2,                                           \
    [WA_OP_##P##_ATOMIC_UMAX_X2##S] = op_at_umax_x2,                                           \
    [WA_OP_##P##_ATOMIC_AND_X2##S] = op_at_and_x2, [WA_OP_##P##_ATOMIC_OR_X2##S] = op_at_or_x2, \
    [WA_OP_##P##_ATOMIC_XOR_X2##S] = op_at_xor_x2,                                             \
    [WA_OP_##P##_ATOMIC_INC_X2##S] = op_at_inc_x2,                                             \
    [WA_OP_##P##_ATOMIC_DEC_X2##S] = op_at_dec_x2

#define LOADS(P)                                                                        \
    [WA_OP_##P##_LOAD_UBYTE] = op_ld_ubyte, [WA_OP_##P##_LOAD_SBYTE] = op_ld_sbyte,     \
    [WA_OP_##P##_LOAD_USHORT] = op_ld_ushort, [WA_OP_##P##_LOAD_SSHORT] = op_ld_sshort, \
    [WA_OP_##P##_LOAD_DWORD] = op_ld_dword, [WA_OP_##P##_LOAD_DWORDX2] = op_ld_dwordx2, \
    [WA_OP_##P##_LOAD_DWORDX3] = op_ld_dwordx3, [WA_OP_##P##_LOAD_DWORDX4] = op_ld_dwordx4, \
    [WA_OP_##P##_LOAD_UBYTE_D16] = op_ld_ubyte_d16,                                     \
    [WA_OP_##P##_LOAD_UBYTE_D16_HI] = op_ld_ubyte_d16_hi,                               \
    [WA_OP_##P##_LOAD_SBYTE_D16] = op_ld_sbyte_d16,                                     \
    [WA_OP_##P##_LOAD_SBYTE_D16_HI] = op_ld_sbyte_d16_hi,                               \
    [WA_OP_##P##_LOAD_SHORT_D16] = op_ld_short_d16,                                     \
    [WA_OP_##P##_LOAD_SHORT_D16_HI] = op_ld_short_d16_hi,                               \
    [WA_OP_##P##_STORE_BYTE] = op_st_byte, [WA_OP_##P##_STORE_BYTE_D16_HI] = op_st_byte_d16_hi, \
    [WA_OP_##P##_STORE_SHORT] = op_st_short,                                            \
    [WA_OP_##P##_STORE_SHORT_D16_HI] = op_st_short_d16_hi,                              \
    [WA_OP_##P##_STORE_DWORD] = op_st_dword, [WA_OP_##P##_STORE_DWORDX2] = op_st_dwordx2, \
    [WA_OP_##P##_STORE_DWORDX3] = op_st_dwordx3, [WA_OP_##P##_STORE_DWORDX4] = op_st_dwordx4

static const sim_fn vmem_fns[WA_OP_COUNT_] = {
    LOADS(BUFFER),
    LOADS(GLOBAL),
    LOADS(FLAT),
    ATOMICS(BUFFER, ),
    ATOMICS(GLOBAL, ),
    ATOMICS(GLOBAL, _RTN),
    ATOMICS(FLAT, ),
    ATOMICS(FLAT, _RTN),
    [WA_OP_BUFFER_LOAD_UBYTE_LDS] = op_dma_ubyte,
    [WA_OP_BUFFER_LOAD_SBYTE_LDS] = op_dma_sbyte,
    [WA_OP_BUFFER_LOAD_USHORT_LDS] = op_dma_ushort,
    [WA_OP_BUFFER_LOAD_SSHORT_LDS] = op_dma_sshort,
    [WA_OP_BUFFER_LOAD_DWORD_LDS] = op_dma_dword,
    [WA_OP_BUFFER_LOAD_DWORDX3_LDS] = op_dma_dwordx3,
    [WA_OP_BUFFER_LOAD_DWORDX4_LDS] = op_dma_dwordx4,
    [WA_OP_GLOBAL_LOAD_UBYTE_LDS] = op_dma_ubyte,
    [WA_OP_GLOBAL_LOAD_SBYTE_LDS] = op_dma_sbyte,
    [WA_OP_GLOBAL_LOAD_USHORT_LDS] = op_dma_ushort,
    [WA_OP_GLOBAL_LOAD_SSHORT_LDS] = op_dma_sshort,
    [WA_OP_GLOBAL_LOAD_DWORD_LDS] = op_dma_dword,
    [WA_OP_GLOBAL_LOAD_LDS_UBYTE] = op_dma_ubyte,
    [WA_OP_GLOBAL_LOAD_LDS_SBYTE] = op_dma_sbyte,
    [WA_OP_GLOBAL_LOAD_LDS_USHORT] = op_dma_ushort,
    [WA_OP_GLOBAL_LOAD_LDS_SSHORT] = op_dma_sshort,
    [WA_OP_GLOBAL_LOAD_LDS_DWORD] = op_dma_dword,
    [WA_OP_GLOBAL_LOAD_LDS_DWORDX3] = op_dma_dwordx3,
    [WA_OP_GLOBAL_LOAD_LDS_DWORDX4] = op_dma_dwordx4,
    [WA_OP_BUFFER_STORE_LDS_DWORD] = op_lds_store_dword,
    [WA_OP_BUFFER_WBL2] = op_wbl2,
    [WA_OP_BUFFER_INV] = op_nothing,
    [WA_OP_BUFFER_INVL2] = op_nothing,
    [WA_OP_BUFFER_WBINVL1] = op_nothing,
    [WA_OP_BUFFER_WBINVL1_VOL] = op_nothing,
};

sim_fn sim_vmem_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? vmem_fns[op] : NULL;
}

const char *sim_vmem_why_not(unsigned op)
{
    if (op >= WA_OP_COUNT_ || vmem_fns[op])
        return NULL;
    const wa_isa_info *info = wa_isa_get(op);
    if (info->format == WA_FMT_SCRATCH)
        return "the wave's private memory (scratch) is not modelled: kernels the library "
               "builds have no private segment";
    if (info->format == WA_FMT_MUBUF && strstr(info->mnemonic, "_format_"))
        return "the format conversions through the buffer resource's data and number "
               "formats are not modelled";
    return NULL;
}
