/* lib/sim/ds.c — DS (local data share) semantics: reads and writes of every width,
   the two-address and st64 forms, the d16 halves, atomics with and without a
   returned value, the lane exchanges (ds_swizzle, ds_permute, ds_bpermute),
   ds_append/ds_consume and the M0-addressed addtid forms.

   Addresses: lane address + offset:N (or offset0/offset1 times the element size,
   times 64 for st64), 32-bit arithmetic. Reads and writes access the bytes at
   that address whatever its alignment (the unaligned LDS mode the driver sets on
   these targets); atomics ignore the low address bits below their size, as the
   ISA's address description has it. An access beyond the kernel's LDS size is an
   error, or (WA_SIM_PERMISSIVE) reads 0 and drops the write, as the hardware
   does.

   Every instruction issues one operation on the in-order DS queue (lgkmcnt).
   Plain reads and writes use the shared load/store elements (memory.c, with its
   race checks); atomics, d16 reads and append/consume use SIM_E_DS elements that
   sim_ds_land() below applies when the operation lands; the lane exchanges
   compute their result at issue and deliver it when the operation lands. */
#include "sim_internal.h"

#include <string.h>

/* SIM_E_DS element kinds (sim_elem.aop). */
enum {
    K_ADD, K_SUB, K_RSUB, K_INC, K_DEC, K_SMIN, K_UMIN, K_SMAX, K_UMAX, K_AND, K_OR, K_XOR,
    K_MSKOR, K_SWAP, K_CMPST, K_CMPST_F, K_WRAP, K_CONDXCHG, K_FMIN, K_FMAX, K_FADD,
    K_PK_ADD_F16, K_PK_ADD_BF16,
    K_D16,        /* d16 read: `bytes` bytes into one half of the old register value (val) */
    K_APPEND,     /* M0 dword += val (-= for consume: cmp = 1), the old value returned */
    K_APPEND_OLD  /* another lane of the same append/consume: the old value again */
};

static int permissive(const sim_ctx *c) { return (c->sim->opts.flags & WA_SIM_PERMISSIVE) != 0; }

/* The operand of the row named `name`, -1 if the row has none. */
static int opnd(const sim_ctx *c, const char *name)
{
    for (unsigned k = 0; k < c->info->num_operands; k++)
        if (c->info->operands[k].name && strcmp(c->info->operands[k].name, name) == 0)
            return (int)k;
    return -1;
}

static uint64_t lane_bit(unsigned l) { return 1ull << l; }

/* Per-lane LDS addresses from `addr` (+ byte offset `off`), or from M0 for the
   rows without one (addtid: M0 + off + 4 * lane). `def` gets the lanes whose
   address is known. */
static void lane_addrs(sim_ctx *c, uint32_t off, uint32_t a[SIM_LANES], uint64_t *def)
{
    int k = opnd(c, "addr");
    if (k >= 0) {
        sim_read_vec(c, (unsigned)k, 0, a, def);
        for (unsigned l = 0; l < SIM_LANES; l++)
            a[l] += off;
        return;
    }
    for (unsigned l = 0; l < SIM_LANES; l++)
        a[l] = c->w->m0 + off + 4u * l;
    *def = c->w->m0_def ? SIM_ALL_LANES : 0;
}

/* An address computed from undefined values: an error, or (permissive) an
   access that does not happen. */
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

/* LDS range: in range, or (permissive) out of range reads 0 / drops writes. */
static int lds_space(sim_ctx *c, uint32_t addr, unsigned bytes, int write, uint8_t *space)
{
    if ((uint64_t)addr + bytes <= c->sim->lds_bytes) {
        *space = SIM_SP_LDS;
        return 1;
    }
    if (!permissive(c)) {
        sim_fail(c, WA_E_SIM_FAULT, "%s %s LDS bytes %u..%u, beyond the kernel's %u (.lds_bytes)",
                 c->info->mnemonic, write ? "writes" : "reads", addr,
                 (unsigned)((uint64_t)addr + bytes - 1), c->sim->lds_bytes);
        return 0;
    }
    *space = write ? SIM_SP_DROP : SIM_SP_ZERO;
    return 1;
}

static int add_elem(sim_ctx *c, sim_op *op, uint8_t eop, uint8_t space, uint32_t addr,
                    unsigned bytes, unsigned lane, unsigned reg, uint32_t val, int def, int sext)
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

/* Issues `op`, its results landing in operand `k` (none if k < 0). */
static void issue(sim_ctx *c, sim_op *op, int k, unsigned nregs)
{
    unsigned file = 0, base = 0;
    if (k < 0 || sim_failed(c)) {
        sim_op_issue(c, op, -1, 0, 0);
        return;
    }
    if (!sim_reg_of(c->sim, &c->in->ops[k], 0, &file, &base)) {
        sim_fail(c, WA_E_INTERNAL, "operand %d is not a register", k);
        sim_op_issue(c, op, -1, 0, 0);
        return;
    }
    sim_op_issue(c, op, (int)file, base, nregs);
}

/* The byte distance of offset0/offset1 steps: the element size, times 64 for st64. */
static uint32_t step_bytes(unsigned elem_bytes, int st64) { return elem_bytes * (st64 ? 64u : 1u); }

/* ---- reads and writes ------------------------------------------------------------------- */

/* Reads `dwords` registers of `bytes`-byte pieces per lane (bytes < 4: one
   extended piece). two: two groups of dwords/2 at offset0 and offset1. */
static void ds_read(sim_ctx *c, unsigned bytes, unsigned dwords, int sext, int two, int st64)
{
    const wa_mods *m = &c->in->mods;
    unsigned half = two ? dwords / 2 : dwords;
    uint32_t a[SIM_LANES];
    uint64_t da;
    lane_addrs(c, two ? 0 : (uint32_t)m->offset, a, &da);
    if (sim_failed(c))
        return;
    uint64_t ex = sim_exec(c);
    sim_op *op = sim_op_new(c, SIM_Q_DS);
    if (!op)
        return;
    uint32_t step = step_bytes(4u * half, st64);
    for (unsigned l = 0; l < SIM_LANES && !sim_failed(c); l++) {
        if (!(ex & lane_bit(l)))
            continue;
        int known = (da & lane_bit(l)) != 0;
        if (!known && !undefined_address(c, 0))
            break;
        for (unsigned g = 0; g < (two ? 2u : 1u) && !sim_failed(c); g++) {
            uint32_t base = a[l] + (two ? (uint32_t)(g ? m->offset1 : m->offset) * step : 0u);
            for (unsigned k = 0; k < half; k++) {
                uint8_t space = SIM_SP_DROP;
                if (known && !lds_space(c, base + 4 * k, bytes, 0, &space))
                    break;
                if (add_elem(c, op, SIM_E_LOAD, space, base + 4 * k, bytes, l, g * half + k, 0, 1, sext))
                    break;
            }
        }
    }
    if (sim_failed(c) || sim_lds_race_at_issue(c, op)) {
        sim_op_issue(c, op, -1, 0, 0);
        return;
    }
    issue(c, op, opnd(c, "vdst"), dwords);
}

/* Writes `dwords` registers of data0 (and data1 for `two`) per lane; `bytes` < 4
   writes the low bytes of the dword shifted right by `shift` bits (the d16_hi
   forms take the high half). */
static void ds_write(sim_ctx *c, unsigned bytes, unsigned dwords, int two, int st64, unsigned shift)
{
    const wa_mods *m = &c->in->mods;
    uint32_t a[SIM_LANES];
    uint64_t da;
    lane_addrs(c, two ? 0 : (uint32_t)m->offset, a, &da);
    uint32_t data[2][4][SIM_LANES];
    uint64_t ddef[2][4];
    for (unsigned g = 0; g < (two ? 2u : 1u); g++)
        for (unsigned k = 0; k < dwords; k++)
            sim_read_vec(c, (unsigned)opnd(c, g ? "data1" : "data0"), k, data[g][k], &ddef[g][k]);
    if (sim_failed(c))
        return;
    uint64_t ex = sim_exec(c);
    sim_op *op = sim_op_new(c, SIM_Q_DS);
    if (!op)
        return;
    uint32_t step = step_bytes(4u * dwords, st64);
    for (unsigned l = 0; l < SIM_LANES && !sim_failed(c); l++) {
        if (!(ex & lane_bit(l)))
            continue;
        int known = (da & lane_bit(l)) != 0;
        if (!known && !undefined_address(c, 1))
            break;
        if (!known)
            continue;
        for (unsigned g = 0; g < (two ? 2u : 1u) && !sim_failed(c); g++) {
            uint32_t base = a[l] + (two ? (uint32_t)(g ? m->offset1 : m->offset) * step : 0u);
            for (unsigned k = 0; k < dwords; k++) {
                uint8_t space;
                if (!lds_space(c, base + 4 * k, bytes, 1, &space))
                    break;
                if (add_elem(c, op, SIM_E_STORE, space, base + 4 * k, bytes, l, 0,
                             data[g][k][l] >> shift, (ddef[g][k] & lane_bit(l)) != 0, 0))
                    break;
            }
        }
    }
    sim_op_issue(c, op, -1, 0, 0);
}

/* d16 reads: `bytes` (1 or 2) into the low or high half of vdst, the other half
   kept (the register's value at issue). */
static void ds_read_d16(sim_ctx *c, unsigned bytes, int sext, int hi)
{
    uint32_t a[SIM_LANES], old[SIM_LANES];
    uint64_t da, dold;
    lane_addrs(c, (uint32_t)c->in->mods.offset, a, &da);
    int kd = opnd(c, "vdst");
    sim_read_vec(c, (unsigned)kd, 0, old, &dold);
    if (sim_failed(c))
        return;
    uint64_t ex = sim_exec(c);
    sim_op *op = sim_op_new(c, SIM_Q_DS);
    if (!op)
        return;
    for (unsigned l = 0; l < SIM_LANES && !sim_failed(c); l++) {
        if (!(ex & lane_bit(l)))
            continue;
        int known = (da & lane_bit(l)) != 0;
        if (!known && !undefined_address(c, 0))
            break;
        uint8_t space = SIM_SP_DROP;
        if (known && !lds_space(c, a[l], bytes, 0, &space))
            break;
        sim_elem e;
        memset(&e, 0, sizeof(e));
        e.op = SIM_E_DS;
        e.aop = K_D16;
        e.space = space;
        e.addr = a[l];
        e.bytes = (uint8_t)bytes;
        e.lane = (uint8_t)l;
        e.val = old[l];
        e.def = (dold & lane_bit(l)) != 0;
        e.sext = (uint8_t)sext;
        e.cmp = (uint32_t)hi;
        if (sim_op_add(c, op, &e))
            break;
    }
    issue(c, op, kd, 1);
}

static void op_read_b32(sim_ctx *c) { ds_read(c, 4, 1, 0, 0, 0); }
static void op_read_b64(sim_ctx *c) { ds_read(c, 4, 2, 0, 0, 0); }
static void op_read_b96(sim_ctx *c) { ds_read(c, 4, 3, 0, 0, 0); }
static void op_read_b128(sim_ctx *c) { ds_read(c, 4, 4, 0, 0, 0); }
static void op_read_u8(sim_ctx *c) { ds_read(c, 1, 1, 0, 0, 0); }
static void op_read_i8(sim_ctx *c) { ds_read(c, 1, 1, 1, 0, 0); }
static void op_read_u16(sim_ctx *c) { ds_read(c, 2, 1, 0, 0, 0); }
static void op_read_i16(sim_ctx *c) { ds_read(c, 2, 1, 1, 0, 0); }
static void op_read2_b32(sim_ctx *c) { ds_read(c, 4, 2, 0, 1, 0); }
static void op_read2st64_b32(sim_ctx *c) { ds_read(c, 4, 2, 0, 1, 1); }
static void op_read2_b64(sim_ctx *c) { ds_read(c, 4, 4, 0, 1, 0); }
static void op_read2st64_b64(sim_ctx *c) { ds_read(c, 4, 4, 0, 1, 1); }
static void op_read_addtid(sim_ctx *c) { ds_read(c, 4, 1, 0, 0, 0); }
static void op_read_u8_d16(sim_ctx *c) { ds_read_d16(c, 1, 0, 0); }
static void op_read_u8_d16_hi(sim_ctx *c) { ds_read_d16(c, 1, 0, 1); }
static void op_read_i8_d16(sim_ctx *c) { ds_read_d16(c, 1, 1, 0); }
static void op_read_i8_d16_hi(sim_ctx *c) { ds_read_d16(c, 1, 1, 1); }
static void op_read_u16_d16(sim_ctx *c) { ds_read_d16(c, 2, 0, 0); }
static void op_read_u16_d16_hi(sim_ctx *c) { ds_read_d16(c, 2, 0, 1); }
static void op_write_b8(sim_ctx *c) { ds_write(c, 1, 1, 0, 0, 0); }
static void op_write_b16(sim_ctx *c) { ds_write(c, 2, 1, 0, 0, 0); }
static void op_write_b32(sim_ctx *c) { ds_write(c, 4, 1, 0, 0, 0); }
static void op_write_b64(sim_ctx *c) { ds_write(c, 4, 2, 0, 0, 0); }
static void op_write_b96(sim_ctx *c) { ds_write(c, 4, 3, 0, 0, 0); }
static void op_write_b128(sim_ctx *c) { ds_write(c, 4, 4, 0, 0, 0); }
static void op_write_b8_d16_hi(sim_ctx *c) { ds_write(c, 1, 1, 0, 0, 16); }
static void op_write_b16_d16_hi(sim_ctx *c) { ds_write(c, 2, 1, 0, 0, 16); }
static void op_write2_b32(sim_ctx *c) { ds_write(c, 4, 1, 1, 0, 0); }
static void op_write2st64_b32(sim_ctx *c) { ds_write(c, 4, 1, 1, 1, 0); }
static void op_write2_b64(sim_ctx *c) { ds_write(c, 4, 2, 1, 0, 0); }
static void op_write2st64_b64(sim_ctx *c) { ds_write(c, 4, 2, 1, 1, 0); }
static void op_write_addtid(sim_ctx *c) { ds_write(c, 4, 1, 0, 0, 0); }

/* ---- atomics ------------------------------------------------------------------------------ */

/* An atomic of kind `kind` on `bytes` (4 or 8) bytes per lane: data0 (and data1)
   read at issue; with vdst the old value returns. two: the two-address exchange
   (offset0/offset1, old values to consecutive register groups). */
static void ds_atomic(sim_ctx *c, unsigned kind, unsigned bytes, int two, int st64)
{
    const wa_mods *m = &c->in->mods;
    unsigned w = bytes / 4; /* registers per value */
    int k0 = opnd(c, "data0"), k1 = opnd(c, "data1"), kd = opnd(c, "vdst");
    uint32_t a[SIM_LANES];
    uint64_t da;
    lane_addrs(c, two ? 0 : (uint32_t)m->offset, a, &da);
    uint32_t d[2][2][SIM_LANES];
    uint64_t dd[2][2];
    memset(d, 0, sizeof(d));
    for (unsigned g = 0; g < 2; g++)
        for (unsigned r = 0; r < 2; r++)
            dd[g][r] = SIM_ALL_LANES;
    for (unsigned r = 0; r < w; r++) {
        sim_read_vec(c, (unsigned)k0, r, d[0][r], &dd[0][r]);
        if (k1 >= 0)
            sim_read_vec(c, (unsigned)k1, r, d[1][r], &dd[1][r]);
    }
    if (sim_failed(c))
        return;
    uint64_t ex = sim_exec(c);
    sim_op *op = sim_op_new(c, SIM_Q_DS);
    if (!op)
        return;
    for (unsigned l = 0; l < SIM_LANES && !sim_failed(c); l++) {
        if (!(ex & lane_bit(l)))
            continue;
        int known = (da & lane_bit(l)) != 0;
        if (!known && !undefined_address(c, 1))
            break;
        for (unsigned g = 0; g < (two ? 2u : 1u); g++) {
            uint32_t addr = a[l] + (two ? (uint32_t)(g ? m->offset1 : m->offset) * step_bytes(bytes, st64) : 0u);
            addr &= ~(bytes - 1u); /* atomics ignore the low address bits */
            uint8_t space = SIM_SP_DROP; /* unknown address: old value unknown */
            if (known && !lds_space(c, addr, bytes, 1, &space))
                break;
            if (known && space == SIM_SP_DROP)
                space = SIM_SP_ZERO; /* out of range: no effect, 0 returned */
            sim_elem e;
            memset(&e, 0, sizeof(e));
            e.op = SIM_E_DS;
            e.aop = (uint8_t)kind;
            e.space = space;
            e.addr = addr;
            e.bytes = (uint8_t)bytes;
            e.lane = (uint8_t)l;
            e.reg = (uint16_t)(g * w);
            /* the two-address form takes data0 for the first, data1 for the second */
            unsigned s = two ? g : 0;
            e.val = d[s][0][l];
            e.val_hi = w > 1 ? d[s][1][l] : 0;
            e.cmp = two ? 0 : d[1][0][l];
            e.cmp_hi = two ? 0 : d[1][1][l];
            int def = (dd[s][0] & lane_bit(l)) && (w < 2 || (dd[s][1] & lane_bit(l)));
            if (!two && k1 >= 0)
                def = def && (dd[1][0] & lane_bit(l)) && (w < 2 || (dd[1][1] & lane_bit(l)));
            e.def = (uint8_t)(def != 0);
            if (sim_op_add(c, op, &e))
                break;
        }
    }
    issue(c, op, kd, kd >= 0 ? c->in->ops[kd].count : 0);
}

#define ATOM(name, kind, bytes) \
    static void op_##name(sim_ctx *c) { ds_atomic(c, kind, bytes, 0, 0); }
ATOM(add32, K_ADD, 4)
ATOM(add64, K_ADD, 8)
ATOM(sub32, K_SUB, 4)
ATOM(sub64, K_SUB, 8)
ATOM(rsub32, K_RSUB, 4)
ATOM(rsub64, K_RSUB, 8)
ATOM(inc32, K_INC, 4)
ATOM(inc64, K_INC, 8)
ATOM(dec32, K_DEC, 4)
ATOM(dec64, K_DEC, 8)
ATOM(smin32, K_SMIN, 4)
ATOM(smin64, K_SMIN, 8)
ATOM(smax32, K_SMAX, 4)
ATOM(smax64, K_SMAX, 8)
ATOM(umin32, K_UMIN, 4)
ATOM(umin64, K_UMIN, 8)
ATOM(umax32, K_UMAX, 4)
ATOM(umax64, K_UMAX, 8)
ATOM(and32, K_AND, 4)
ATOM(and64, K_AND, 8)
ATOM(or32, K_OR, 4)
ATOM(or64, K_OR, 8)
ATOM(xor32, K_XOR, 4)
ATOM(xor64, K_XOR, 8)
ATOM(mskor32, K_MSKOR, 4)
ATOM(mskor64, K_MSKOR, 8)
ATOM(cmpst32, K_CMPST, 4)
ATOM(cmpst64, K_CMPST, 8)
ATOM(cmpstf32, K_CMPST_F, 4)
ATOM(cmpstf64, K_CMPST_F, 8)
ATOM(swap32, K_SWAP, 4)
ATOM(swap64, K_SWAP, 8)
ATOM(wrap32, K_WRAP, 4)
ATOM(condxchg, K_CONDXCHG, 8)
ATOM(fmin32, K_FMIN, 4)
ATOM(fmin64, K_FMIN, 8)
ATOM(fmax32, K_FMAX, 4)
ATOM(fmax64, K_FMAX, 8)
ATOM(fadd32, K_FADD, 4)
ATOM(fadd64, K_FADD, 8)
ATOM(pkaddf16, K_PK_ADD_F16, 4)
ATOM(pkaddbf16, K_PK_ADD_BF16, 4)
#undef ATOM
static void op_wrxchg2_32(sim_ctx *c) { ds_atomic(c, K_SWAP, 4, 1, 0); }
static void op_wrxchg2st64_32(sim_ctx *c) { ds_atomic(c, K_SWAP, 4, 1, 1); }
static void op_wrxchg2_64(sim_ctx *c) { ds_atomic(c, K_SWAP, 8, 1, 0); }
static void op_wrxchg2st64_64(sim_ctx *c) { ds_atomic(c, K_SWAP, 8, 1, 1); }

/* ds_append / ds_consume: the dword at M0 + offset grows (shrinks) by the number
   of active lanes; every active lane receives the value it had before. */
static void ds_append(sim_ctx *c, int consume)
{
    uint64_t ex = sim_exec(c);
    if (!ex) {
        sim_op *op = sim_op_new(c, SIM_Q_DS);
        if (op)
            sim_op_issue(c, op, -1, 0, 0);
        return;
    }
    if (!c->w->m0_def && !undefined_address(c, 1))
        return;
    uint32_t addr = (c->w->m0 + (uint32_t)c->in->mods.offset) & ~3u;
    uint8_t space = SIM_SP_DROP;
    if (c->w->m0_def && !lds_space(c, addr, 4, 1, &space))
        return;
    if (c->w->m0_def && space == SIM_SP_DROP)
        space = SIM_SP_ZERO;
    sim_op *op = sim_op_new(c, SIM_Q_DS);
    if (!op)
        return;
    uint32_t n = 0;
    for (unsigned l = 0; l < SIM_LANES; l++)
        n += (ex & lane_bit(l)) != 0;
    int first = 1;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        if (!(ex & lane_bit(l)))
            continue;
        sim_elem e;
        memset(&e, 0, sizeof(e));
        e.op = SIM_E_DS;
        e.aop = (uint8_t)(first ? K_APPEND : K_APPEND_OLD);
        e.space = space;
        e.addr = addr;
        e.bytes = 4;
        e.lane = (uint8_t)l;
        e.val = n;
        e.cmp = (uint32_t)consume;
        e.def = 1;
        first = 0;
        if (sim_op_add(c, op, &e))
            break;
    }
    issue(c, op, opnd(c, "vdst"), 1);
}

static void op_append(sim_ctx *c) { ds_append(c, 0); }
static void op_consume(sim_ctx *c) { ds_append(c, 1); }

/* ---- lane exchanges (no LDS memory) ------------------------------------------------------- */

/* Delivers val[l] (defined in `def`) to vdst in the active lanes when the
   operation lands. */
static void deliver(sim_ctx *c, const uint32_t val[SIM_LANES], uint64_t def)
{
    uint64_t ex = sim_exec(c);
    sim_op *op = sim_op_new(c, SIM_Q_DS);
    if (!op)
        return;
    for (unsigned l = 0; l < SIM_LANES; l++)
        if ((ex & lane_bit(l)) &&
            add_elem(c, op, SIM_E_CONST, SIM_SP_ZERO, 0, 4, l, 0, val[l], (def & lane_bit(l)) != 0, 0))
            break;
    issue(c, op, opnd(c, "vdst"), 1);
}

/* ds_swizzle_b32: offset[15] set: within groups of 4 lanes, lane i takes lane
   offset[2i+1:2i] of its group; else within groups of 32 lanes, lane i takes
   ((i & and) | or) ^ xor with and = offset[4:0], or = offset[9:5], xor =
   offset[14:10]. A source lane outside EXEC gives 0. */
static void op_swizzle(sim_ctx *c)
{
    uint32_t src[SIM_LANES], out[SIM_LANES];
    uint64_t dsrc, def = 0;
    sim_read_vec(c, (unsigned)opnd(c, "addr"), 0, src, &dsrc);
    if (sim_failed(c))
        return;
    uint32_t off = (uint32_t)c->in->mods.offset;
    uint64_t ex = sim_exec(c);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        unsigned from;
        if (off & 0x8000u)
            from = (l & ~3u) | ((off >> (2 * (l & 3u))) & 3u);
        else
            from = (l & 32u) | ((((l & 31u) & (off & 31u)) | ((off >> 5) & 31u)) ^ ((off >> 10) & 31u));
        if (ex & lane_bit(from)) {
            out[l] = src[from];
            def |= dsrc & lane_bit(from) ? lane_bit(l) : 0;
        } else {
            out[l] = 0;
            def |= lane_bit(l);
        }
    }
    deliver(c, out, def);
}

/* ds_permute_b32 (forward: active lane i sends data0 to lane ((addr+offset)/4)
   mod 64; the highest sender wins; lanes nobody sends to get 0) and
   ds_bpermute_b32 (backward: lane i takes data0 of lane ((addr+offset)/4) mod 64,
   0 if that lane is outside EXEC). */
static void permute(sim_ctx *c, int backward)
{
    uint32_t a[SIM_LANES], src[SIM_LANES], out[SIM_LANES];
    uint64_t da, dsrc, def = SIM_ALL_LANES;
    sim_read_vec(c, (unsigned)opnd(c, "addr"), 0, a, &da);
    sim_read_vec(c, (unsigned)opnd(c, "data0"), 0, src, &dsrc);
    if (sim_failed(c))
        return;
    uint32_t off = (uint32_t)c->in->mods.offset;
    uint64_t ex = sim_exec(c);
    memset(out, 0, sizeof(out));
    for (unsigned l = 0; l < SIM_LANES; l++) {
        unsigned other = ((a[l] + off) >> 2) & 63u;
        if (backward) {
            if (!(ex & lane_bit(l)))
                continue;
            if (!(da & lane_bit(l))) {
                def &= ~lane_bit(l);
                continue;
            }
            if (ex & lane_bit(other)) {
                out[l] = src[other];
                if (!(dsrc & lane_bit(other)))
                    def &= ~lane_bit(l);
            }
        } else {
            if (!(ex & lane_bit(l)))
                continue;
            if (!(da & lane_bit(l))) { /* an unknown destination: every result unknown */
                def = 0;
                continue;
            }
            out[other] = src[l];
            def = (dsrc & lane_bit(l)) ? def | lane_bit(other) : def & ~lane_bit(other);
        }
    }
    deliver(c, out, def);
}

static void op_permute(sim_ctx *c) { permute(c, 0); }
static void op_bpermute(sim_ctx *c) { permute(c, 1); }

/* ds_nop: counts on lgkmcnt, does nothing. */
static void op_nop(sim_ctx *c)
{
    sim_op *op = sim_op_new(c, SIM_Q_DS);
    if (op)
        sim_op_issue(c, op, -1, 0, 0);
}

/* ---- landing -------------------------------------------------------------------------------- */

static double f64_of(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof(d));
    return d;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof(b));
    return b;
}

/* The float view of a 4- or 8-byte value. */
static double fval(uint64_t v, unsigned bytes) { return bytes == 8 ? f64_of(v) : (double)sim_f32((uint32_t)v); }

/* The new memory value of an atomic of kind `kind` on old value m with data d
   (data0) and s (data1). */
static uint64_t apply(unsigned kind, unsigned bytes, uint64_t m, uint64_t d, uint64_t s)
{
    uint64_t mask = bytes == 8 ? ~0ull : 0xFFFFFFFFull;
    uint64_t sign = 1ull << (8 * bytes - 1);
    m &= mask;
    d &= mask;
    s &= mask;
    uint64_t r = m;
    switch (kind) {
    case K_ADD: r = m + d; break;
    case K_SUB: r = m - d; break;
    case K_RSUB: r = d - m; break;
    case K_INC: r = m >= d ? 0 : m + 1; break;
    case K_DEC: r = (m == 0 || m > d) ? d : m - 1; break;
    case K_SMIN: r = (m ^ sign) < (d ^ sign) ? m : d; break;
    case K_SMAX: r = (m ^ sign) > (d ^ sign) ? m : d; break;
    case K_UMIN: r = m < d ? m : d; break;
    case K_UMAX: r = m > d ? m : d; break;
    case K_AND: r = m & d; break;
    case K_OR: r = m | d; break;
    case K_XOR: r = m ^ d; break;
    case K_MSKOR: r = (m & ~d) | s; break;
    case K_SWAP: r = d; break;
    case K_CMPST: r = m == d ? s : m; break;
    case K_CMPST_F: r = fval(m, bytes) == fval(d, bytes) ? s : m; break;
    case K_WRAP: r = m >= d ? m - d : m + s; break;
    case K_CONDXCHG: {
        /* each half: written (bit 31 cleared) when its bit 31 is set */
        uint64_t lo = (d & 0x80000000ull) ? (d & 0x7FFFFFFFull) : (m & 0xFFFFFFFFull);
        uint64_t hi = (d & 0x8000000000000000ull) ? ((d >> 32) & 0x7FFFFFFFull) : (m >> 32);
        r = lo | hi << 32;
        break;
    }
    case K_FMIN: r = fval(d, bytes) < fval(m, bytes) ? d : m; break;
    case K_FMAX: r = fval(d, bytes) > fval(m, bytes) ? d : m; break;
    case K_FADD:
        r = bytes == 8 ? f64_bits(f64_of(m) + f64_of(d))
                       : (uint64_t)sim_f32_bits(sim_f32((uint32_t)m) + sim_f32((uint32_t)d));
        break;
    case K_PK_ADD_F16:
        r = (uint64_t)sim_f32_to_f16(sim_f16_to_f32((uint16_t)m) + sim_f16_to_f32((uint16_t)d)) |
            (uint64_t)sim_f32_to_f16(sim_f16_to_f32((uint16_t)(m >> 16)) + sim_f16_to_f32((uint16_t)(d >> 16))) << 16;
        break;
    case K_PK_ADD_BF16:
        r = (uint64_t)sim_f32_to_bf16(sim_bf16_to_f32((uint16_t)m) + sim_bf16_to_f32((uint16_t)d)) |
            (uint64_t)sim_f32_to_bf16(sim_bf16_to_f32((uint16_t)(m >> 16)) + sim_bf16_to_f32((uint16_t)(d >> 16))) << 16;
        break;
    default: break;
    }
    return r & mask;
}

static void land_reg(sim_wave *w, const sim_op *op, unsigned r, unsigned lane, uint32_t v, int def)
{
    sim_vec *reg = op->file == SIM_FILE_V ? &w->v[r] : &w->a[r];
    reg->v[lane] = v;
    reg->def = def ? reg->def | lane_bit(lane) : reg->def & ~lane_bit(lane);
}

void sim_ds_land(wa_sim *sim, sim_wave *w, const sim_op *op, const sim_elem *e)
{
    unsigned n = e->bytes;
    uint64_t m = 0;
    int mdef = 1;
    if (e->space == SIM_SP_LDS) {
        for (unsigned k = 0; k < n; k++) {
            m |= (uint64_t)sim->lds[e->addr + k] << (8 * k);
            mdef &= sim->lds_def[e->addr + k];
        }
    } else if (e->space != SIM_SP_ZERO) {
        mdef = 0; /* an unknown address */
    }
    uint64_t ret = m, nv = m;
    int write = 1, rdef = mdef;
    switch (e->aop) {
    case K_D16: {
        uint32_t v = (uint32_t)m;
        if (n == 1)
            v = e->sext ? (uint32_t)(uint16_t)(int16_t)(int8_t)(uint8_t)v : (v & 0xFFu);
        v &= 0xFFFFu;
        ret = e->cmp ? ((e->val & 0xFFFFu) | v << 16) : ((e->val & 0xFFFF0000u) | v);
        rdef = mdef && e->def;
        write = 0;
        break;
    }
    case K_APPEND:
        nv = e->cmp ? (uint32_t)(m - e->val) : (uint32_t)(m + e->val);
        break;
    case K_APPEND_OLD: /* the first lane already applied the count */
        ret = e->cmp ? (uint32_t)(m + e->val) : (uint32_t)(m - e->val);
        write = 0;
        break;
    default:
        nv = apply(e->aop, n, m, (uint64_t)e->val | (uint64_t)e->val_hi << 32,
                   (uint64_t)e->cmp | (uint64_t)e->cmp_hi << 32);
        break;
    }
    if (write && e->space == SIM_SP_LDS)
        for (unsigned k = 0; k < n; k++) {
            sim->lds[e->addr + k] = (uint8_t)(nv >> (8 * k));
            sim->lds_def[e->addr + k] = (uint8_t)(mdef && e->def);
        }
    if (op->file < 0)
        return;
    land_reg(w, op, op->reg + e->reg, e->lane, (uint32_t)ret, rdef);
    if (n == 8)
        land_reg(w, op, op->reg + e->reg + 1u, e->lane, (uint32_t)(ret >> 32), rdef);
}

/* ---- tables ---------------------------------------------------------------------------------- */

static const sim_fn ds_fns[WA_OP_COUNT_] = {
    [WA_OP_DS_READ_B32] = op_read_b32,
    [WA_OP_DS_READ_B64] = op_read_b64,
    [WA_OP_DS_READ_B96] = op_read_b96,
    [WA_OP_DS_READ_B128] = op_read_b128,
    [WA_OP_DS_READ_U8] = op_read_u8,
    [WA_OP_DS_READ_I8] = op_read_i8,
    [WA_OP_DS_READ_U16] = op_read_u16,
    [WA_OP_DS_READ_I16] = op_read_i16,
    [WA_OP_DS_READ2_B32] = op_read2_b32,
    [WA_OP_DS_READ2ST64_B32] = op_read2st64_b32,
    [WA_OP_DS_READ2_B64] = op_read2_b64,
    [WA_OP_DS_READ2ST64_B64] = op_read2st64_b64,
    [WA_OP_DS_READ_U8_D16] = op_read_u8_d16,
    [WA_OP_DS_READ_U8_D16_HI] = op_read_u8_d16_hi,
    [WA_OP_DS_READ_I8_D16] = op_read_i8_d16,
    [WA_OP_DS_READ_I8_D16_HI] = op_read_i8_d16_hi,
    [WA_OP_DS_READ_U16_D16] = op_read_u16_d16,
    [WA_OP_DS_READ_U16_D16_HI] = op_read_u16_d16_hi,
    [WA_OP_DS_READ_ADDTID_B32] = op_read_addtid,
    [WA_OP_DS_WRITE_B8] = op_write_b8,
    [WA_OP_DS_WRITE_B16] = op_write_b16,
    [WA_OP_DS_WRITE_B32] = op_write_b32,
    [WA_OP_DS_WRITE_B64] = op_write_b64,
    [WA_OP_DS_WRITE_B96] = op_write_b96,
    [WA_OP_DS_WRITE_B128] = op_write_b128,
    [WA_OP_DS_WRITE_B8_D16_HI] = op_write_b8_d16_hi,
    [WA_OP_DS_WRITE_B16_D16_HI] = op_write_b16_d16_hi,
    [WA_OP_DS_WRITE2_B32] = op_write2_b32,
    [WA_OP_DS_WRITE2ST64_B32] = op_write2st64_b32,
    [WA_OP_DS_WRITE2_B64] = op_write2_b64,
    [WA_OP_DS_WRITE2ST64_B64] = op_write2st64_b64,
    [WA_OP_DS_WRITE_ADDTID_B32] = op_write_addtid,
    [WA_OP_DS_ADD_U32] = op_add32,
    [WA_OP_DS_ADD_RTN_U32] = op_add32,
    [WA_OP_DS_ADD_U64] = op_add64,
    [WA_OP_DS_ADD_RTN_U64] = op_add64,
    [WA_OP_DS_SUB_U32] = op_sub32,
    [WA_OP_DS_SUB_RTN_U32] = op_sub32,
    [WA_OP_DS_SUB_U64] = op_sub64,
    [WA_OP_DS_SUB_RTN_U64] = op_sub64,
    [WA_OP_DS_RSUB_U32] = op_rsub32,
    [WA_OP_DS_RSUB_RTN_U32] = op_rsub32,
    [WA_OP_DS_RSUB_U64] = op_rsub64,
    [WA_OP_DS_RSUB_RTN_U64] = op_rsub64,
    [WA_OP_DS_INC_U32] = op_inc32,
    [WA_OP_DS_INC_RTN_U32] = op_inc32,
    [WA_OP_DS_INC_U64] = op_inc64,
    [WA_OP_DS_INC_RTN_U64] = op_inc64,
    [WA_OP_DS_DEC_U32] = op_dec32,
    [WA_OP_DS_DEC_RTN_U32] = op_dec32,
    [WA_OP_DS_DEC_U64] = op_dec64,
    [WA_OP_DS_DEC_RTN_U64] = op_dec64,
    [WA_OP_DS_MIN_I32] = op_smin32,
    [WA_OP_DS_MIN_RTN_I32] = op_smin32,
    [WA_OP_DS_MIN_I64] = op_smin64,
    [WA_OP_DS_MIN_RTN_I64] = op_smin64,
    [WA_OP_DS_MAX_I32] = op_smax32,
    [WA_OP_DS_MAX_RTN_I32] = op_smax32,
    [WA_OP_DS_MAX_I64] = op_smax64,
    [WA_OP_DS_MAX_RTN_I64] = op_smax64,
    [WA_OP_DS_MIN_U32] = op_umin32,
    [WA_OP_DS_MIN_RTN_U32] = op_umin32,
    [WA_OP_DS_MIN_U64] = op_umin64,
    [WA_OP_DS_MIN_RTN_U64] = op_umin64,
    [WA_OP_DS_MAX_U32] = op_umax32,
    [WA_OP_DS_MAX_RTN_U32] = op_umax32,
    [WA_OP_DS_MAX_U64] = op_umax64,
    [WA_OP_DS_MAX_RTN_U64] = op_umax64,
    [WA_OP_DS_AND_B32] = op_and32,
    [WA_OP_DS_AND_RTN_B32] = op_and32,
    [WA_OP_DS_AND_B64] = op_and64,
    [WA_OP_DS_AND_RTN_B64] = op_and64,
    [WA_OP_DS_OR_B32] = op_or32,
    [WA_OP_DS_OR_RTN_B32] = op_or32,
    [WA_OP_DS_OR_B64] = op_or64,
    [WA_OP_DS_OR_RTN_B64] = op_or64,
    [WA_OP_DS_XOR_B32] = op_xor32,
    [WA_OP_DS_XOR_RTN_B32] = op_xor32,
    [WA_OP_DS_XOR_B64] = op_xor64,
    [WA_OP_DS_XOR_RTN_B64] = op_xor64,
    [WA_OP_DS_MSKOR_B32] = op_mskor32,
    [WA_OP_DS_MSKOR_RTN_B32] = op_mskor32,
    [WA_OP_DS_MSKOR_B64] = op_mskor64,
    [WA_OP_DS_MSKOR_RTN_B64] = op_mskor64,
    [WA_OP_DS_CMPST_B32] = op_cmpst32,
    [WA_OP_DS_CMPST_RTN_B32] = op_cmpst32,
    [WA_OP_DS_CMPST_B64] = op_cmpst64,
    [WA_OP_DS_CMPST_RTN_B64] = op_cmpst64,
    [WA_OP_DS_CMPST_F32] = op_cmpstf32,
    [WA_OP_DS_CMPST_RTN_F32] = op_cmpstf32,
    [WA_OP_DS_CMPST_F64] = op_cmpstf64,
    [WA_OP_DS_CMPST_RTN_F64] = op_cmpstf64,
    [WA_OP_DS_WRXCHG_RTN_B32] = op_swap32,
    [WA_OP_DS_WRXCHG_RTN_B64] = op_swap64,
    [WA_OP_DS_WRXCHG2_RTN_B32] = op_wrxchg2_32,
    [WA_OP_DS_WRXCHG2ST64_RTN_B32] = op_wrxchg2st64_32,
    [WA_OP_DS_WRXCHG2_RTN_B64] = op_wrxchg2_64,
    [WA_OP_DS_WRXCHG2ST64_RTN_B64] = op_wrxchg2st64_64,
    [WA_OP_DS_WRAP_RTN_B32] = op_wrap32,
    [WA_OP_DS_CONDXCHG32_RTN_B64] = op_condxchg,
    [WA_OP_DS_MIN_F32] = op_fmin32,
    [WA_OP_DS_MIN_RTN_F32] = op_fmin32,
    [WA_OP_DS_MIN_F64] = op_fmin64,
    [WA_OP_DS_MIN_RTN_F64] = op_fmin64,
    [WA_OP_DS_MAX_F32] = op_fmax32,
    [WA_OP_DS_MAX_RTN_F32] = op_fmax32,
    [WA_OP_DS_MAX_F64] = op_fmax64,
    [WA_OP_DS_MAX_RTN_F64] = op_fmax64,
    [WA_OP_DS_ADD_F32] = op_fadd32,
    [WA_OP_DS_ADD_RTN_F32] = op_fadd32,
    [WA_OP_DS_ADD_F64] = op_fadd64,
    [WA_OP_DS_ADD_RTN_F64] = op_fadd64,
    [WA_OP_DS_PK_ADD_F16] = op_pkaddf16,
    [WA_OP_DS_PK_ADD_RTN_F16] = op_pkaddf16,
    [WA_OP_DS_PK_ADD_BF16] = op_pkaddbf16,
    [WA_OP_DS_PK_ADD_RTN_BF16] = op_pkaddbf16,
    [WA_OP_DS_APPEND] = op_append,
    [WA_OP_DS_CONSUME] = op_consume,
    [WA_OP_DS_SWIZZLE_B32] = op_swizzle,
    [WA_OP_DS_PERMUTE_B32] = op_permute,
    [WA_OP_DS_BPERMUTE_B32] = op_bpermute,
    [WA_OP_DS_NOP] = op_nop,
};

static const char *const ds_why[WA_OP_COUNT_] = {
    [WA_OP_DS_READ_B64_TR_B4] = "the lane transposition of the gfx950 transposing LDS reads is not modelled",
    [WA_OP_DS_READ_B96_TR_B6] = "the lane transposition of the gfx950 transposing LDS reads is not modelled",
    [WA_OP_DS_READ_B64_TR_B8] = "the lane transposition of the gfx950 transposing LDS reads is not modelled",
    [WA_OP_DS_READ_B64_TR_B16] = "the lane transposition of the gfx950 transposing LDS reads is not modelled",
};

sim_fn sim_ds_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? ds_fns[op] : NULL;
}

const char *sim_ds_why_not(unsigned op)
{
    return op < WA_OP_COUNT_ ? ds_why[op] : NULL;
}
