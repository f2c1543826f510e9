/* lib/sim/memops.c — vector memory instructions: MUBUF (with buffer resource
   descriptors and LDS-DMA) and global (scalar memory is smem.c, LDS ds.c).

   Each instruction computes its addresses and checks them at issue, reads the
   data it stores at issue, and queues one operation whose effects happen when it
   completes (memory.c). Buffer range checks follow the GFX9 rules: a raw buffer
   (stride 0) checks the instruction and VGPR offsets against num_records, per
   dword, without soffset; a strided one checks the index against num_records and
   the offset against the stride. Out-of-range loads give 0, stores are dropped. A
   descriptor with data format 0 is invalid: every access is out of range. */
#include "sim_internal.h"

#include <string.h>

static int permissive(const sim_ctx *c) { return (c->sim->opts.flags & WA_SIM_PERMISSIVE) != 0; }

/* An address that depends on an undefined value: an error, or (permissive) an
   access that does not happen (a store's effect is then unknown). */
static int undefined_address(sim_ctx *c, int store)
{
    if (!permissive(c)) {
        sim_fail(c, WA_E_SIM_FAULT, "%s uses an address computed from undefined values",
                 c->info->mnemonic);
        return 0;
    }
    if (store)
        c->sim->stats.undefined_addresses++;
    return 1;
}

static int dst_base(sim_ctx *c, unsigned k, unsigned *file, unsigned *base)
{
    if (!sim_reg_of(c->sim, &c->in->ops[k], 0, file, base)) {
        sim_fail(c, WA_E_INTERNAL, "operand %u is not a register", k);
        return 0;
    }
    return 1;
}

static int add(sim_ctx *c, sim_op *op, uint8_t eop, uint8_t space, uint64_t addr, unsigned bytes,
               unsigned lane, unsigned reg, uint32_t val, int def, int sext)
{
    sim_elem e;
    memset(&e, 0, sizeof(e));
    e.op = eop;
    e.space = space;
    e.addr = addr;
    e.bytes = (uint8_t)bytes;
    e.lane = (uint8_t)lane;
    e.reg = (uint16_t)reg;
    e.val = val;
    e.def = (uint8_t)(def != 0);
    e.sext = (uint8_t)(sext != 0);
    return sim_op_add(c, op, &e);
}

/* ---- MUBUF --------------------------------------------------------------------------------- */

typedef struct vsharp {
    uint64_t base;
    uint32_t stride, num_records;
    int add_tid, valid, def;
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
    v.num_records = w[2];
    v.add_tid = (w[3] >> 23) & 1u;
    v.valid = ((w[3] >> 15) & 0xFu) != 0; /* data format 0: invalid */
    v.def = d[0] && d[1] && d[2] && d[3];
    return v;
}

/* Per-lane buffer addressing: the linear address of element `dw` (bytes
   `bytes` at +4*dw) and whether it is in range. */
typedef struct baddr {
    uint64_t addr[SIM_LANES];
    uint32_t offset[SIM_LANES];
    uint32_t index[SIM_LANES];
    uint64_t def;
} baddr;

static void buffer_lanes(sim_ctx *c, unsigned kaddr, const vsharp *v, uint32_t soff, baddr *b)
{
    const wa_mods *m = &c->in->mods;
    int offen = (m->flags & WA_MOD_OFFEN) != 0, idxen = (m->flags & WA_MOD_IDXEN) != 0;
    uint32_t a0[SIM_LANES], a1[SIM_LANES];
    uint64_t d0 = SIM_ALL_LANES, d1 = SIM_ALL_LANES;
    memset(a0, 0, sizeof(a0));
    memset(a1, 0, sizeof(a1));
    if (offen || idxen)
        sim_read_vec(c, kaddr, 0, a0, &d0);
    if (offen && idxen)
        sim_read_vec(c, kaddr, 1, a1, &d1);
    b->def = d0 & d1;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint32_t index = (idxen ? a0[l] : 0) + (v->add_tid ? l : 0);
        uint32_t voff = offen ? (idxen ? a1[l] : a0[l]) : 0;
        b->index[l] = index;
        b->offset[l] = (uint32_t)m->offset + voff;
        b->addr[l] = v->base + soff + (uint64_t)index * v->stride + b->offset[l];
    }
}

static int buffer_in_range(const vsharp *v, const baddr *b, unsigned l, unsigned byte_off, unsigned bytes)
{
    if (!v->valid)
        return 0;
    if (v->stride == 0)
        return (uint64_t)b->offset[l] + byte_off + bytes <= v->num_records;
    return b->index[l] < v->num_records && (uint64_t)b->offset[l] + byte_off < v->stride;
}

/* Buffer loads, stores and atomics; `kdata` is -1 for the LDS-DMA forms. */
static void buffer_op(sim_ctx *c, int kdata, unsigned kaddr, unsigned bytes, unsigned dwords, int sext,
                      int store, uint8_t atomic)
{
    vsharp v = read_vsharp(c, kaddr + 1);
    int dsoff;
    uint32_t soff = sim_read_s(c, kaddr + 2, 0, &dsoff);
    baddr b;
    buffer_lanes(c, kaddr, &v, soff, &b);
    if (sim_failed(c))
        return;
    uint64_t ex = sim_exec(c);
    int lds = kdata < 0;
    uint32_t m0 = c->w->m0;
    if (lds && !c->w->m0_def && ex) {
        if (!permissive(c)) {
            sim_fail(c, WA_E_SIM_FAULT, "%s ... lds: M0 (the LDS address) is undefined",
                     c->info->mnemonic);
            return;
        }
    }
    /* store data (or atomic operands) are read at issue */
    uint32_t data[4][SIM_LANES];
    uint64_t ddef[4] = { 0, 0, 0, 0 };
    if ((store || atomic) && kdata >= 0)
        for (unsigned k = 0; k < dwords; k++)
            sim_read_vec(c, (unsigned)kdata, k, data[k], &ddef[k]);
    if (sim_failed(c))
        return;
    sim_op *op = sim_op_new(c, SIM_Q_VM);
    if (!op)
        return;
    int returns = atomic && (c->in->mods.flags & WA_MOD_GLC);
    for (unsigned l = 0; l < SIM_LANES && !sim_failed(c); l++) {
        if (!(ex >> l & 1u))
            continue;
        int known = v.def && dsoff && (b.def >> l & 1u) && (!lds || c->w->m0_def);
        if (!known && !undefined_address(c, store || lds || atomic))
            break;
        for (unsigned k = 0; k < dwords; k++) {
            unsigned off = 4 * k;
            int in = known && buffer_in_range(&v, &b, l, off, bytes);
            uint64_t addr = b.addr[l] + off;
            if (in && !sim_global_check(c, addr, bytes, store || atomic))
                break;
            uint8_t space = !known ? SIM_SP_DROP : in ? SIM_SP_GLOBAL : (store || atomic) ? SIM_SP_DROP : SIM_SP_ZERO;
            if (lds) {
                /* LDS address: M0 + instruction offset + lane * element size */
                unsigned stride = dwords > 1 ? 16u : 4u;
                uint32_t la = (m0 & 0xFFFFu) + (uint32_t)c->in->mods.offset + l * stride + off;
                if (la + 4 > c->sim->lds_bytes) {
                    if (!permissive(c)) {
                        sim_fail(c, WA_E_SIM_FAULT,
                                 "%s ... lds writes LDS bytes %u..%u, beyond the kernel's %u",
                                 c->info->mnemonic, la, la + 3, c->sim->lds_bytes);
                        break;
                    }
                    continue;
                }
                if (!known)
                    continue;
                if (add(c, op, SIM_E_DMA, space == SIM_SP_GLOBAL ? SIM_SP_GLOBAL : SIM_SP_ZERO, addr,
                        bytes, l, 0, la, 1, sext))
                    break;
            } else if (atomic) {
                if (add(c, op, atomic, space, addr, 4, l, 0, data[0][l], (int)(ddef[0] >> l & 1u), 0))
                    break;
            } else if (store) {
                if (add(c, op, SIM_E_STORE, space, addr, bytes, l, 0, data[k][l],
                        (int)(ddef[k] >> l & 1u), 0))
                    break;
            } else {
                if (add(c, op, SIM_E_LOAD, space, addr, bytes, l, k, 0, 1, sext))
                    break;
            }
        }
    }
    if (sim_failed(c)) {
        sim_op_issue(c, op, -1, 0, 0); /* releases it */
        return;
    }
    unsigned file = 0, base = 0;
    if ((!store && !lds && !atomic) || returns) {
        if (!dst_base(c, (unsigned)kdata, &file, &base))
            return;
        sim_op_issue(c, op, (int)file, base, dwords);
    } else {
        sim_op_issue(c, op, -1, 0, 0);
    }
}

#define BLOAD(name, bytes, dw, sext) \
    static void op_##name(sim_ctx *c) { buffer_op(c, 0, 1, bytes, dw, sext, 0, 0); }
#define BLDS(name, bytes, dw, sext) \
    static void op_##name(sim_ctx *c) { buffer_op(c, -1, 0, bytes, dw, sext, 0, 0); }
#define BSTORE(name, bytes, dw) \
    static void op_##name(sim_ctx *c) { buffer_op(c, 0, 1, bytes, dw, 0, 1, 0); }
BLOAD(bl_ubyte, 1, 1, 0)
BLOAD(bl_sbyte, 1, 1, 1)
BLOAD(bl_ushort, 2, 1, 0)
BLOAD(bl_sshort, 2, 1, 1)
BLOAD(bl_dword, 4, 1, 0)
BLOAD(bl_dwordx2, 4, 2, 0)
BLOAD(bl_dwordx3, 4, 3, 0)
BLOAD(bl_dwordx4, 4, 4, 0)
BLDS(bd_ubyte, 1, 1, 0)
BLDS(bd_sbyte, 1, 1, 1)
BLDS(bd_ushort, 2, 1, 0)
BLDS(bd_sshort, 2, 1, 1)
BLDS(bd_dword, 4, 1, 0)
BLDS(bd_dwordx3, 4, 3, 0)
BLDS(bd_dwordx4, 4, 4, 0)
BSTORE(bs_byte, 1, 1)
BSTORE(bs_short, 2, 1)
BSTORE(bs_dword, 4, 1)
BSTORE(bs_dwordx2, 4, 2)
BSTORE(bs_dwordx3, 4, 3)
BSTORE(bs_dwordx4, 4, 4)

static void op_atomic_add_f32(sim_ctx *c) { buffer_op(c, 0, 1, 4, 1, 0, 0, SIM_E_ADD_F32); }
static void op_atomic_pk_add_bf16(sim_ctx *c) { buffer_op(c, 0, 1, 4, 1, 0, 0, SIM_E_PK_ADD_BF16); }

/* ---- global ------------------------------------------------------------------------------------- */

static void global_op(sim_ctx *c, unsigned dwords, int store)
{
    unsigned kaddr = store ? 0 : 1, kdata = store ? 1 : 0, ksaddr = 2;
    const wa_operand *so = &c->in->ops[ksaddr];
    int saddr = so->kind != WA_OPND_OFF && so->kind != WA_OPND_NONE;
    uint32_t lo[SIM_LANES], hi[SIM_LANES];
    uint64_t dlo, dhi = SIM_ALL_LANES;
    memset(hi, 0, sizeof(hi));
    sim_read_vec(c, kaddr, 0, lo, &dlo);
    if (!saddr)
        sim_read_vec(c, kaddr, 1, hi, &dhi);
    int dsb = 1;
    uint64_t sbase = saddr ? sim_read_s64(c, ksaddr, &dsb) : 0;
    uint32_t data[4][SIM_LANES];
    uint64_t ddef[4] = { 0, 0, 0, 0 };
    if (store)
        for (unsigned k = 0; k < dwords; k++)
            sim_read_vec(c, kdata, k, data[k], &ddef[k]);
    if (sim_failed(c))
        return;
    uint64_t ex = sim_exec(c);
    int64_t ioff = c->in->mods.offset;
    sim_op *op = sim_op_new(c, SIM_Q_VM);
    if (!op)
        return;
    for (unsigned l = 0; l < SIM_LANES && !sim_failed(c); l++) {
        if (!(ex >> l & 1u))
            continue;
        int known = dsb && (dlo >> l & 1u) && (dhi >> l & 1u);
        if (!known && !undefined_address(c, store))
            break;
        uint64_t addr = saddr ? sbase + lo[l] + (uint64_t)ioff
                              : ((uint64_t)hi[l] << 32 | lo[l]) + (uint64_t)ioff;
        if (known && !sim_global_check(c, addr, 4 * dwords, store))
            break;
        for (unsigned k = 0; k < dwords; k++) {
            uint8_t space = known ? SIM_SP_GLOBAL : SIM_SP_DROP;
            int r = store ? add(c, op, SIM_E_STORE, space, addr + 4 * k, 4, l, 0, data[k][l],
                                (int)(ddef[k] >> l & 1u), 0)
                          : add(c, op, SIM_E_LOAD, space, addr + 4 * k, 4, l, k, 0, 1, 0);
            if (r)
                break;
        }
    }
    if (sim_failed(c)) {
        sim_op_issue(c, op, -1, 0, 0);
        return;
    }
    unsigned file = 0, base = 0;
    if (!store) {
        if (!dst_base(c, kdata, &file, &base))
            return;
        sim_op_issue(c, op, (int)file, base, dwords);
    } else {
        sim_op_issue(c, op, -1, 0, 0);
    }
}

static void op_gl_dword(sim_ctx *c) { global_op(c, 1, 0); }
static void op_gl_dwordx2(sim_ctx *c) { global_op(c, 2, 0); }
static void op_gl_dwordx3(sim_ctx *c) { global_op(c, 3, 0); }
static void op_gl_dwordx4(sim_ctx *c) { global_op(c, 4, 0); }
static void op_gs_dword(sim_ctx *c) { global_op(c, 1, 1); }
static void op_gs_dwordx2(sim_ctx *c) { global_op(c, 2, 1); }
static void op_gs_dwordx3(sim_ctx *c) { global_op(c, 3, 1); }
static void op_gs_dwordx4(sim_ctx *c) { global_op(c, 4, 1); }

static const sim_fn memop_fns[WA_OP_COUNT_] = {
    [WA_OP_BUFFER_LOAD_UBYTE] = op_bl_ubyte,
    [WA_OP_BUFFER_LOAD_SBYTE] = op_bl_sbyte,
    [WA_OP_BUFFER_LOAD_USHORT] = op_bl_ushort,
    [WA_OP_BUFFER_LOAD_SSHORT] = op_bl_sshort,
    [WA_OP_BUFFER_LOAD_DWORD] = op_bl_dword,
    [WA_OP_BUFFER_LOAD_DWORDX2] = op_bl_dwordx2,
    [WA_OP_BUFFER_LOAD_DWORDX3] = op_bl_dwordx3,
    [WA_OP_BUFFER_LOAD_DWORDX4] = op_bl_dwordx4,
    [WA_OP_BUFFER_LOAD_UBYTE_LDS] = op_bd_ubyte,
    [WA_OP_BUFFER_LOAD_SBYTE_LDS] = op_bd_sbyte,
    [WA_OP_BUFFER_LOAD_USHORT_LDS] = op_bd_ushort,
    [WA_OP_BUFFER_LOAD_SSHORT_LDS] = op_bd_sshort,
    [WA_OP_BUFFER_LOAD_DWORD_LDS] = op_bd_dword,
    [WA_OP_BUFFER_LOAD_DWORDX3_LDS] = op_bd_dwordx3,
    [WA_OP_BUFFER_LOAD_DWORDX4_LDS] = op_bd_dwordx4,
    [WA_OP_BUFFER_STORE_BYTE] = op_bs_byte,
    [WA_OP_BUFFER_STORE_SHORT] = op_bs_short,
    [WA_OP_BUFFER_STORE_DWORD] = op_bs_dword,
    [WA_OP_BUFFER_STORE_DWORDX2] = op_bs_dwordx2,
    [WA_OP_BUFFER_STORE_DWORDX3] = op_bs_dwordx3,
    [WA_OP_BUFFER_STORE_DWORDX4] = op_bs_dwordx4,
    [WA_OP_BUFFER_ATOMIC_ADD_F32] = op_atomic_add_f32,
    [WA_OP_BUFFER_ATOMIC_PK_ADD_BF16] = op_atomic_pk_add_bf16,
    [WA_OP_GLOBAL_LOAD_DWORD] = op_gl_dword,
    [WA_OP_GLOBAL_LOAD_DWORDX2] = op_gl_dwordx2,
    [WA_OP_GLOBAL_LOAD_DWORDX3] = op_gl_dwordx3,
    [WA_OP_GLOBAL_LOAD_DWORDX4] = op_gl_dwordx4,
    [WA_OP_GLOBAL_STORE_DWORD] = op_gs_dword,
    [WA_OP_GLOBAL_STORE_DWORDX2] = op_gs_dwordx2,
    [WA_OP_GLOBAL_STORE_DWORDX3] = op_gs_dwordx3,
    [WA_OP_GLOBAL_STORE_DWORDX4] = op_gs_dwordx4,
};

sim_fn sim_memop_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? memop_fns[op] : NULL;
}
