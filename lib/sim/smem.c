/* lib/sim/smem.c — scalar memory semantics (SMEM).

   Addresses: sbase (an SGPR pair) plus soffset (an SGPR, or the immediate operand)
   plus, with an SGPR soffset, the instruction's offset:N; s_buffer_* add the
   offset to the base of the buffer resource in sbase (an SGPR quad) and check
   each dword against its num_records (out of range: loads give 0, stores and
   atomics do nothing). The low two address bits are ignored. Every instruction is
   one operation on the scalar queue (lgkmcnt), completing at a random time in any
   order with the other scalar operations: loads and atomics write their
   registers then, stores and atomics change memory then; a store's data and an
   atomic's operands are read at issue. An atomic with glc returns the old value
   in the first register(s) of sdata (for cmpswap: the value, then the compare
   value). s_dcache_* and s_atc_probe* queue an operation without effects (the
   simulator has no caches); s_memtime and s_memrealtime return the wave's model
   time, a 64-bit clock that only moves forward.

   Not executed: s_scratch_* (the wave's private memory is not modelled). */
#include "sim_internal.h"

#include <string.h>

static int permissive(const sim_ctx *c) { return (c->sim->opts.flags & WA_SIM_PERMISSIVE) != 0; }

/* An address computed from undefined values: an error, or (permissive) an access
   that does not happen (counted when it is a write). */
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

/* What one SMEM instruction accesses. */
typedef struct saddr {
    uint64_t base;        /* byte address of dword 0 */
    uint32_t limit;       /* s_buffer_*: bytes in range from `base` on; else unused */
    int buffer;           /* range-checked against limit */
    int known;            /* the address is defined */
} saddr;

/* sbase + soffset (+ offset:N): operands 1 and 2 of loads, stores, atomics. */
static saddr smem_address(sim_ctx *c)
{
    saddr a;
    memset(&a, 0, sizeof(a));
    const wa_operand *so = &c->in->ops[2];
    int doff = 1;
    uint64_t off;
    if (so->kind == WA_OPND_IMM)
        off = (uint64_t)(int64_t)so->imm.i;
    else
        off = (uint64_t)sim_read_s(c, 2, 0, &doff) + (uint64_t)(int64_t)c->in->mods.offset;
    a.buffer = (c->info->flags & WA_IF_SMEM_BUFFER) != 0;
    if (a.buffer) {
        int d[3];
        uint32_t w0 = sim_read_s(c, 1, 0, &d[0]), w1 = sim_read_s(c, 1, 1, &d[1]);
        uint32_t nrec = sim_read_s(c, 1, 2, &d[2]), o = (uint32_t)off & ~3u;
        a.base = ((uint64_t)w0 | (uint64_t)(w1 & 0xFFFFu) << 32) + o;
        a.limit = nrec > o ? nrec - o : 0; /* bytes of the buffer from the offset on */
        a.known = d[0] && d[1] && d[2] && doff;
    } else {
        int db;
        uint64_t base = sim_read_s64(c, 1, &db);
        a.base = (base + off) & ~3ull;
        a.known = db && doff;
    }
    return a;
}

/* Dword k of the access is in range (s_buffer_*: against num_records). */
static int in_range(const saddr *a, unsigned k)
{
    return !a->buffer || 4ull * k + 4 <= a->limit;
}

static int add(sim_ctx *c, sim_op *op, const sim_elem *tmpl, uint64_t addr, unsigned space,
               unsigned reg)
{
    sim_elem e = *tmpl;
    e.addr = addr;
    e.space = (uint8_t)space;
    e.reg = (uint16_t)reg;
    return sim_op_add(c, op, &e);
}

/* Loads: n dwords to sdst. */
static void op_load(sim_ctx *c)
{
    unsigned n = sim_opnd_count(c, 0), file, base;
    saddr a = smem_address(c);
    if (sim_failed(c))
        return;
    if (!sim_reg_of(c->sim, &c->in->ops[0], 0, &file, &base)) {
        sim_fail(c, WA_E_INTERNAL, "s_load destination is not a register");
        return;
    }
    if (!a.known && !undefined_address(c, 0))
        return;
    for (unsigned k = 0; k < n && a.known; k++)
        if (in_range(&a, k) && !sim_global_check(c, a.base + 4 * k, 4, 0))
            return;
    sim_op *op = sim_op_new(c, SIM_Q_SM);
    if (!op)
        return;
    sim_elem e;
    memset(&e, 0, sizeof(e));
    e.op = SIM_E_LOAD;
    e.bytes = 4;
    for (unsigned k = 0; k < n; k++) {
        unsigned sp = !a.known ? SIM_SP_DROP : in_range(&a, k) ? SIM_SP_GLOBAL : SIM_SP_ZERO;
        if (add(c, op, &e, a.base + 4 * k, sp, k))
            return;
    }
    sim_op_issue(c, op, (int)file, base, n);
}

/* Stores: n dwords of sdata, read now, written when the operation completes. */
static void op_store(sim_ctx *c)
{
    unsigned n = sim_opnd_count(c, 0);
    saddr a = smem_address(c);
    uint32_t v[4];
    int d[4];
    for (unsigned k = 0; k < n && k < 4; k++)
        v[k] = sim_read_s(c, 0, k, &d[k]);
    if (sim_failed(c))
        return;
    if (!a.known && !undefined_address(c, 1))
        return;
    for (unsigned k = 0; k < n && a.known; k++)
        if (in_range(&a, k) && !sim_global_check(c, a.base + 4 * k, 4, 1))
            return;
    sim_op *op = sim_op_new(c, SIM_Q_SM);
    if (!op)
        return;
    sim_elem e;
    memset(&e, 0, sizeof(e));
    e.op = SIM_E_STORE;
    e.bytes = 4;
    for (unsigned k = 0; k < n && k < 4; k++) {
        e.val = v[k];
        e.def = (uint8_t)(d[k] != 0);
        unsigned sp = a.known && in_range(&a, k) ? SIM_SP_GLOBAL : SIM_SP_DROP;
        if (add(c, op, &e, a.base + 4 * k, sp, k))
            return;
    }
    sim_op_issue(c, op, -1, 0, 0);
}

/* The SIM_A_* operation of an atomic row: its opcode field's low bits, in the
   same order for the 32-bit, 64-bit, buffer and address forms (0x40 + op, 0x60 +
   op, 0x80 + op, 0xa0 + op). */
static unsigned atomic_op(const wa_isa_info *info)
{
    return info->encoding & 0x1Fu;
}

/* Atomics: one 4- or 8-byte element; sdata holds the value (and for cmpswap the
   compare value after it). With glc the old value lands in sdata's first half. */
static void op_atomic(sim_ctx *c)
{
    unsigned n = sim_opnd_count(c, 0), aop = atomic_op(c->info);
    unsigned width = aop == SIM_A_CMPSWAP ? n / 2 : n; /* registers per value: 1 or 2 */
    saddr a = smem_address(c);
    uint32_t v[4] = { 0, 0, 0, 0 };
    int d[4] = { 1, 1, 1, 1 }, def = 1;
    for (unsigned k = 0; k < n && k < 4; k++) {
        v[k] = sim_read_s(c, 0, k, &d[k]);
        def &= d[k];
    }
    if (sim_failed(c))
        return;
    int rtn = (c->in->mods.flags & WA_MOD_GLC) != 0;
    unsigned file = 0, base = 0;
    if (rtn && !sim_reg_of(c->sim, &c->in->ops[0], 0, &file, &base)) {
        sim_fail(c, WA_E_INTERNAL, "atomic data is not a register");
        return;
    }
    if (!a.known && !undefined_address(c, 1))
        return;
    int ok = a.known && in_range(&a, width - 1);
    if (ok && !sim_global_check(c, a.base, 4 * width, 1))
        return;
    sim_op *op = sim_op_new(c, SIM_Q_SM);
    if (!op)
        return;
    sim_elem e;
    memset(&e, 0, sizeof(e));
    e.op = SIM_E_ATOMIC;
    e.aop = (uint8_t)aop;
    e.bytes = (uint8_t)(4 * width);
    e.val = v[0];
    e.val_hi = width == 2 ? v[1] : 0;
    e.cmp = v[width];
    e.cmp_hi = width == 2 ? v[width + 1] : 0;
    e.def = (uint8_t)def;
    if (add(c, op, &e, a.base, ok ? SIM_SP_GLOBAL : a.known ? SIM_SP_ZERO : SIM_SP_DROP, 0))
        return;
    if (rtn)
        sim_op_issue(c, op, (int)file, base, width);
    else
        sim_op_issue(c, op, -1, 0, 0);
}

/* Cache control and address-translation probes: an operation with no effect. */
static void op_nothing(sim_ctx *c)
{
    sim_op *op = sim_op_new(c, SIM_Q_SM);
    if (op)
        sim_op_issue(c, op, -1, 0, 0);
}

/* s_memtime / s_memrealtime: the wave's model time when it issues (undefined under
   WA_SIM_CLOCK_UNDEFINED). */
static void op_time(sim_ctx *c)
{
    unsigned file, base;
    uint8_t def = (c->sim->opts.flags & WA_SIM_CLOCK_UNDEFINED) == 0;
    if (!sim_reg_of(c->sim, &c->in->ops[0], 0, &file, &base) || file != SIM_FILE_S) {
        if (c->in->ops[0].kind == WA_OPND_SPECIAL) { /* vcc: no queue entry can land there */
            sim_write_s64(c, 0, c->w->t, def);
            return;
        }
        sim_fail(c, WA_E_INTERNAL, "s_memtime destination is not a register");
        return;
    }
    sim_op *op = sim_op_new(c, SIM_Q_SM);
    if (!op)
        return;
    sim_elem e;
    memset(&e, 0, sizeof(e));
    e.op = SIM_E_CONST;
    e.bytes = 4;
    e.def = def;
    uint64_t t = c->w->t;
    for (unsigned k = 0; k < 2; k++) {
        e.val = (uint32_t)(t >> (32 * k));
        if (add(c, op, &e, 0, SIM_SP_GLOBAL, k))
            return;
    }
    sim_op_issue(c, op, (int)file, base, 2);
}

#define ATOMICS(UP)                                                                 \
    [WA_OP_S_BUFFER_ATOMIC_##UP] = op_atomic, [WA_OP_S_BUFFER_ATOMIC_##UP##_X2] = op_atomic, \
    [WA_OP_S_ATOMIC_##UP] = op_atomic, [WA_OP_S_ATOMIC_##UP##_X2] = op_atomic
static const sim_fn smem_fns[WA_OP_COUNT_] = {
    [WA_OP_S_LOAD_DWORD] = op_load,
    [WA_OP_S_LOAD_DWORDX2] = op_load,
    [WA_OP_S_LOAD_DWORDX4] = op_load,
    [WA_OP_S_LOAD_DWORDX8] = op_load,
    [WA_OP_S_LOAD_DWORDX16] = op_load,
    [WA_OP_S_BUFFER_LOAD_DWORD] = op_load,
    [WA_OP_S_BUFFER_LOAD_DWORDX2] = op_load,
    [WA_OP_S_BUFFER_LOAD_DWORDX4] = op_load,
    [WA_OP_S_BUFFER_LOAD_DWORDX8] = op_load,
    [WA_OP_S_BUFFER_LOAD_DWORDX16] = op_load,
    [WA_OP_S_STORE_DWORD] = op_store,
    [WA_OP_S_STORE_DWORDX2] = op_store,
    [WA_OP_S_STORE_DWORDX4] = op_store,
    [WA_OP_S_BUFFER_STORE_DWORD] = op_store,
    [WA_OP_S_BUFFER_STORE_DWORDX2] = op_store,
    [WA_OP_S_BUFFER_STORE_DWORDX4] = op_store,
    [WA_OP_S_DCACHE_INV] = op_nothing,
    [WA_OP_S_DCACHE_WB] = op_nothing,
    [WA_OP_S_DCACHE_INV_VOL] = op_nothing,
    [WA_OP_S_DCACHE_WB_VOL] = op_nothing,
    [WA_OP_S_DCACHE_DISCARD] = op_nothing,
    [WA_OP_S_DCACHE_DISCARD_X2] = op_nothing,
    [WA_OP_S_ATC_PROBE] = op_nothing,
    [WA_OP_S_ATC_PROBE_BUFFER] = op_nothing,
    [WA_OP_S_MEMTIME] = op_time,
    [WA_OP_S_MEMREALTIME] = op_time,
    ATOMICS(SWAP), ATOMICS(CMPSWAP), ATOMICS(ADD), ATOMICS(SUB), ATOMICS(SMIN),
    ATOMICS(UMIN), ATOMICS(SMAX), ATOMICS(UMAX), ATOMICS(AND), ATOMICS(OR),
    ATOMICS(XOR), ATOMICS(INC), ATOMICS(DEC),
};
#undef ATOMICS

sim_fn sim_smem_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? smem_fns[op] : NULL;
}

#define NO_SCRATCH "the wave's private (scratch) memory is not modelled"
static const char *const smem_why[WA_OP_COUNT_] = {
    [WA_OP_S_SCRATCH_LOAD_DWORD] = NO_SCRATCH,
    [WA_OP_S_SCRATCH_LOAD_DWORDX2] = NO_SCRATCH,
    [WA_OP_S_SCRATCH_LOAD_DWORDX4] = NO_SCRATCH,
    [WA_OP_S_SCRATCH_STORE_DWORD] = NO_SCRATCH,
    [WA_OP_S_SCRATCH_STORE_DWORDX2] = NO_SCRATCH,
    [WA_OP_S_SCRATCH_STORE_DWORDX4] = NO_SCRATCH,
};

const char *sim_smem_why_not(unsigned op)
{
    return op < WA_OP_COUNT_ ? smem_why[op] : NULL;
}
