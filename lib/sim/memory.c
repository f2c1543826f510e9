/* lib/sim/memory.c — simulated memory and the operations in flight.

   Global memory is the kernarg segment, the bound buffers and (permissive mode) a
   sparse scratch space whose untouched bytes read a fixed pattern. Memory effects
   happen when an operation completes: loads read memory then and land in their
   registers, stores write then. Vector memory and LDS operations of a wave
   complete in issue order, scalar memory in any order, so a wave always sees its
   own earlier stores; another wave sees them only once they have completed,
   which is what makes a missing wait before a barrier visible. */
#include "sim_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- operations in flight ------------------------------------------------------------------ */

sim_op *sim_op_new(sim_ctx *c, unsigned queue)
{
    wa_sim *sim = c->sim;
    sim_op *op;
    if (sim->nfree) {
        op = sim->free_ops[--sim->nfree];
    } else {
        op = wa_mem_calloc(sim->ctx, 1, sizeof(*op));
        if (!op) {
            sim_fail(c, WA_E_NOMEM, "out of memory");
            return NULL;
        }
    }
    op->n = 0;
    op->id = ++sim->next_op_id;
    if (op->id == 0)
        op->id = ++sim->next_op_id;
    op->wave = c->w->id;
    op->item = c->item;
    op->queue = queue;
    op->file = -1;
    op->reg = op->nregs = 0;
    op->writes_lds = 0;
    op->issue = c->w->t;
    op->done = c->w->t;
    return op;
}

static void op_release(wa_sim *sim, sim_op *op)
{
    if (sim->nfree == sim->capfree) {
        void *p = sim->free_ops;
        if (wa_grow(sim->ctx, &p, &sim->capfree, sim->nfree + 1, sizeof(sim_op *))) {
            wa_mem_free(sim->ctx, op->e);
            wa_mem_free(sim->ctx, op);
            return;
        }
        sim->free_ops = p;
    }
    sim->free_ops[sim->nfree++] = op;
}

int sim_op_add(sim_ctx *c, sim_op *op, const sim_elem *e)
{
    if (op->n == op->cap) {
        void *p = op->e;
        if (wa_grow(c->sim->ctx, &p, &op->cap, op->n + 1, sizeof(sim_elem))) {
            sim_fail(c, WA_E_NOMEM, "out of memory");
            return -1;
        }
        op->e = p;
    }
    op->e[op->n++] = *e;
    if (e->space == SIM_SP_LDS && (e->op == SIM_E_STORE || e->op == SIM_E_DMA))
        op->writes_lds = 1;
    if (e->op == SIM_E_DMA)
        op->writes_lds = 1;
    return 0;
}

static void heap_swap(wa_sim *sim, unsigned a, unsigned b)
{
    sim_op *t = sim->heap[a];
    sim->heap[a] = sim->heap[b];
    sim->heap[b] = t;
}

/* Order: completion time, then issue order (id). */
static int earlier(const sim_op *a, const sim_op *b)
{
    return a->done < b->done || (a->done == b->done && a->id < b->id);
}

static sim_op *find_op(const wa_sim *sim, uint32_t id)
{
    for (unsigned h = 0; h < sim->nheap; h++)
        if (sim->heap[h]->id == id)
            return sim->heap[h];
    return NULL;
}

/* Latency in model time units, per queue: wide and sometimes very long, so that a
   missing wait shows. */
static uint64_t draw_latency(wa_sim *sim, unsigned queue)
{
    uint64_t r = sim_rand(sim);
    uint64_t slow = (r >> 40) % 16 == 0;
    switch (queue) {
    case SIM_Q_VM: return 40 + r % 400 + slow * 2000;
    case SIM_Q_DS: return 8 + r % 64 + slow * 300;
    default: return 10 + r % 240 + slow * 1000;
    }
}

static int lds_sync_op(sim_ctx *c, const sim_op *op);

void sim_op_issue(sim_ctx *c, sim_op *op, int file, unsigned reg, unsigned nregs)
{
    wa_sim *sim = c->sim;
    sim_wave *w = c->w;
    if (sim_failed(c)) {
        op_release(sim, op);
        return;
    }
    op->file = file;
    op->reg = reg;
    op->nregs = nregs;
    if (lds_sync_op(c, op)) {
        op_release(sim, op);
        return;
    }
    unsigned q = op->queue;
    if (sim->opts.flags & WA_SIM_TIMING) {
        op->done = op->issue + draw_latency(sim, q);
        if (q != SIM_Q_SM) { /* in order */
            if (op->done <= w->last_done[q])
                op->done = w->last_done[q] + 1;
            w->last_done[q] = op->done;
        }
    } else {
        op->done = op->issue; /* lands before the next instruction */
    }
    /* destination registers are pending until the operation lands; a load into a
       register another load still writes is fine only behind it in one ordered queue */
    if (file >= 0) {
        for (unsigned r = reg; r < reg + nregs; r++) {
            uint32_t p = w->pend[file][r];
            if (p) {
                const sim_op *old = find_op(sim, p);
                if (!old || old->queue != q || q == SIM_Q_SM) {
                    sim_fail(c, WA_E_SIM_WAIT,
                             "loads into %c%u while an earlier load into it (@I%u) may still land "
                             "later: missing s_waitcnt",
                             file == SIM_FILE_S ? 's' : file == SIM_FILE_V ? 'v' : 'a', r,
                             old ? (unsigned)sim->prog->instrs[old->item].tag : 0u);
                    op_release(sim, op);
                    return;
                }
            }
        }
        for (unsigned r = reg; r < reg + nregs; r++)
            w->pend[file][r] = op->id;
    }
    if (sim->nheap == sim->capheap) {
        void *p = sim->heap;
        if (wa_grow(sim->ctx, &p, &sim->capheap, sim->nheap + 1, sizeof(sim_op *))) {
            sim_fail(c, WA_E_NOMEM, "out of memory");
            op_release(sim, op);
            return;
        }
        sim->heap = p;
    }
    unsigned i = sim->nheap++;
    sim->heap[i] = op;
    while (i && earlier(sim->heap[i], sim->heap[(i - 1) / 2])) {
        heap_swap(sim, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    w->inflight[q]++;
    sim->stats.memory_ops++;
}

static sim_op *heap_pop(wa_sim *sim)
{
    sim_op *top = sim->heap[0];
    sim->heap[0] = sim->heap[--sim->nheap];
    unsigned i = 0;
    for (;;) {
        unsigned l = 2 * i + 1, r = l + 1, m = i;
        if (l < sim->nheap && earlier(sim->heap[l], sim->heap[m]))
            m = l;
        if (r < sim->nheap && earlier(sim->heap[r], sim->heap[m]))
            m = r;
        if (m == i)
            break;
        heap_swap(sim, i, m);
        i = m;
    }
    return top;
}

/* ---- global memory ------------------------------------------------------------------------ */

/* [addr, addr+bytes) inside `r` (without overflowing near the top of the space) */
static int inside(const sim_region *r, uint64_t addr, unsigned bytes)
{
    return addr >= r->base && addr - r->base < r->size && bytes <= r->size - (addr - r->base);
}

static const sim_region *region_of(const wa_sim *sim, uint64_t addr, unsigned bytes)
{
    if (inside(&sim->kernarg, addr, bytes))
        return &sim->kernarg;
    uint64_t a = SIM_BUFFER_ARG(addr);
    if (addr >= SIM_BUFFER_BASE(0) && a < sim->nargs && inside(&sim->bufs[a], addr, bytes))
        return &sim->bufs[a];
    return NULL;
}

static uint8_t pattern(uint64_t addr)
{
    uint64_t z = addr * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 29)) * 0xBF58476D1CE4E5B9ull;
    return (uint8_t)(z >> 56);
}

static sim_page *page_find(const wa_sim *sim, uint64_t base)
{
    if (!sim->npage_slots)
        return NULL;
    unsigned h = (unsigned)((base >> 12) * 0x9E3779B1u) & (sim->npage_slots - 1);
    for (sim_page *p = sim->pages[h]; p; p = p->next)
        if (p->base == base)
            return p;
    return NULL;
}

static sim_page *page_get(wa_sim *sim, uint64_t base)
{
    sim_page *p = page_find(sim, base);
    if (p)
        return p;
    if (sim->npages + 1 > (uint64_t)sim->npage_slots) {
        unsigned nslots = sim->npage_slots ? sim->npage_slots * 2 : 64;
        sim_page **t = wa_mem_calloc(sim->ctx, nslots, sizeof(sim_page *));
        if (!t)
            return NULL;
        for (unsigned s = 0; s < sim->npage_slots; s++)
            for (sim_page *q = sim->pages[s], *next; q; q = next) {
                next = q->next;
                unsigned h = (unsigned)((q->base >> 12) * 0x9E3779B1u) & (nslots - 1);
                q->next = t[h];
                t[h] = q;
            }
        wa_mem_free(sim->ctx, sim->pages);
        sim->pages = t;
        sim->npage_slots = nslots;
    }
    p = wa_mem_alloc(sim->ctx, sizeof(*p));
    if (!p)
        return NULL;
    p->base = base;
    for (unsigned i = 0; i < 4096; i++)
        p->data[i] = pattern(base + i);
    memset(p->def, 1, sizeof(p->def));
    memset(p->written, 0, sizeof(p->written));
    unsigned h = (unsigned)((base >> 12) * 0x9E3779B1u) & (sim->npage_slots - 1);
    p->next = sim->pages[h];
    sim->pages[h] = p;
    sim->npages++;
    return p;
}

void sim_scratch_free(wa_sim *sim)
{
    for (unsigned s = 0; s < sim->npage_slots; s++)
        for (sim_page *p = sim->pages[s], *next; p; p = next) {
            next = p->next;
            wa_mem_free(sim->ctx, p);
        }
    wa_mem_free(sim->ctx, sim->pages);
    sim->pages = NULL;
    sim->npage_slots = 0;
    sim->npages = 0;
}

int sim_global_check(sim_ctx *c, uint64_t addr, unsigned bytes, int write)
{
    wa_sim *sim = c->sim;
    const sim_region *r = region_of(sim, addr, bytes);
    if (r && !(write && r == &sim->kernarg))
        return 1;
    if (sim->opts.flags & WA_SIM_PERMISSIVE)
        return 1;
    if (r)
        sim_fail(c, WA_E_SIM_FAULT, "%s writes the kernarg segment (address 0x%llx)",
                 c->info->mnemonic, (unsigned long long)addr);
    else
        sim_fail(c, WA_E_SIM_FAULT,
                 "%s %s %u bytes at address 0x%llx, outside the kernarg segment and every bound "
                 "buffer",
                 c->info->mnemonic, write ? "writes" : "reads", bytes, (unsigned long long)addr);
    return 0;
}

void sim_global_read(wa_sim *sim, uint64_t addr, uint8_t *val, uint8_t *def, unsigned bytes)
{
    const sim_region *r = region_of(sim, addr, bytes);
    if (r) {
        memcpy(val, r->data + (addr - r->base), bytes);
        for (unsigned i = 0; i < bytes; i++)
            def[i] = r->def[addr - r->base + i];
        return;
    }
    for (unsigned i = 0; i < bytes; i++) {
        uint64_t a = addr + i;
        const sim_region *r1 = region_of(sim, a, 1);
        if (r1) {
            val[i] = r1->data[a - r1->base];
            def[i] = r1->def[a - r1->base];
            continue;
        }
        const sim_page *p = page_find(sim, a & ~4095ull);
        val[i] = p ? p->data[a & 4095] : pattern(a);
        def[i] = p ? p->def[a & 4095] : 1;
        if (!(sim->opts.flags & WA_SIM_PERMISSIVE)) {
            val[i] = 0;
            def[i] = 0;
        }
    }
}

void sim_global_write(wa_sim *sim, uint64_t addr, const uint8_t *val, int def, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        uint64_t a = addr + i;
        const sim_region *r = region_of(sim, a, 1);
        if (r) {
            if (r == &sim->kernarg)
                continue;
            r->data[a - r->base] = val[i];
            r->def[a - r->base] = (uint8_t)(def != 0);
            continue;
        }
        if (!(sim->opts.flags & WA_SIM_PERMISSIVE))
            continue;
        sim_page *p = page_get(sim, a & ~4095ull);
        if (!p) {
            sim->status = WA_E_NOMEM;
            return;
        }
        unsigned o = (unsigned)(a & 4095);
        p->data[o] = val[i];
        p->def[o] = (uint8_t)(def != 0);
        p->written[o >> 3] |= (uint8_t)(1u << (o & 7));
    }
    if (!def)
        sim->stats.undefined_bytes += bytes;
}

/* ---- LDS accesses no barrier orders --------------------------------------------------------------- */

/* Per LDS byte. A wave's phase counts the barriers it has passed; an access by
   wave X in phase p is ordered after an access by wave Y != X in phase q only if
   p > q (X passed a barrier Y reached after its access). Reads are kept for
   the newest phase seen and the one before, as a bit per wave (waves of one
   phase differ by at most one from any other live wave's). */
struct sim_lds_sync {
    uint32_t wr_phase, rd_phase;
    uint32_t rd_mask, rd_mask_prev; /* readers in rd_phase, in rd_phase - 1 */
    uint32_t wr_wave;               /* last writer + 1, 0: none */
};

static int lds_sync_on(const wa_sim *sim)
{
    return sim->lds_sync && sim->nwaves > 1 && sim->nwaves <= 32;
}

/* Checks and records one access of `bytes` LDS bytes at `addr`; 1 if it races. */
static int lds_sync_access(sim_ctx *c, uint32_t addr, unsigned bytes, int write)
{
    wa_sim *sim = c->sim;
    unsigned x = c->w->id;
    uint32_t p = c->w->phase;
    for (unsigned i = 0; i < bytes; i++) {
        if (addr + i >= sim->lds_bytes)
            break;
        struct sim_lds_sync *b = &sim->lds_sync[addr + i];
        int other = -1;
        const char *what = NULL;
        if (b->wr_wave && b->wr_wave - 1u != x && b->wr_phase >= p) {
            other = b->wr_wave - 1;
            what = "wrote";
        } else if (write) {
            uint32_t readers = (b->rd_phase >= p ? b->rd_mask : 0) |
                               (b->rd_phase >= p + 1u ? b->rd_mask_prev : 0);
            readers &= ~(1u << x);
            if (readers) {
                for (other = 0; !(readers >> other & 1u); other++)
                    ;
                what = "read";
            }
        }
        if (what) {
            sim_fail(c, WA_E_SIM_WAIT,
                     "%s LDS byte %u that wave %u %s in the same barrier phase: the accesses "
                     "race (missing s_barrier between them)",
                     write ? "writes" : "reads", addr + i, (unsigned)other, what);
            return 1;
        }
        if (write) {
            b->wr_wave = x + 1u;
            b->wr_phase = p;
        } else if (p > b->rd_phase || !b->rd_mask) {
            b->rd_mask_prev = p == b->rd_phase + 1u ? b->rd_mask : 0;
            b->rd_phase = p;
            b->rd_mask = 1u << x;
        } else if (p == b->rd_phase) {
            b->rd_mask |= 1u << x;
        } else if (p + 1u == b->rd_phase) {
            b->rd_mask_prev |= 1u << x;
        }
    }
    return 0;
}

/* The LDS accesses of an operation at its issue (atomics are not races). */
static int lds_sync_op(sim_ctx *c, const sim_op *op)
{
    if (!lds_sync_on(c->sim))
        return 0;
    for (unsigned i = 0; i < op->n; i++) {
        const sim_elem *e = &op->e[i];
        if (e->op == SIM_E_DMA) {
            if (lds_sync_access(c, e->val, e->bytes, 1))
                return 1;
        } else if (e->space == SIM_SP_LDS && (e->op == SIM_E_LOAD || e->op == SIM_E_STORE)) {
            if (lds_sync_access(c, (uint32_t)e->addr, e->bytes, e->op == SIM_E_STORE))
                return 1;
        }
    }
    return 0;
}

int sim_lds_sync_alloc(wa_sim *sim)
{
    if (!sim->lds_bytes || sim->nwaves < 2)
        return 0;
    if (!sim->lds_sync) {
        sim->lds_sync = wa_mem_calloc(sim->ctx, sim->lds_bytes, sizeof(struct sim_lds_sync));
        if (!sim->lds_sync)
            return -1;
    } else {
        memset(sim->lds_sync, 0, (size_t)sim->lds_bytes * sizeof(struct sim_lds_sync));
    }
    return 0;
}

/* ---- completion -------------------------------------------------------------------------------- */

/* An LDS read of [addr, addr+bytes) by `op` races with a write to those bytes
   that was issued earlier (by another wave, or an LDS-DMA) and has not landed. */
static int lds_race(wa_sim *sim, const sim_op *op, uint32_t addr, unsigned bytes, const sim_op **with)
{
    for (unsigned h = 0; h < sim->nheap; h++) {
        const sim_op *o = sim->heap[h];
        if (!o->writes_lds || o->issue > op->issue || o == op)
            continue;
        if (o->wave == op->wave && o->queue == op->queue)
            continue; /* same ordered queue: it lands first */
        for (unsigned i = 0; i < o->n; i++) {
            const sim_elem *e = &o->e[i];
            uint32_t w0;
            if (e->op == SIM_E_DMA)
                w0 = e->val;
            else if (e->op == SIM_E_STORE && e->space == SIM_SP_LDS)
                w0 = (uint32_t)e->addr;
            else
                continue;
            if (w0 < addr + bytes && addr < w0 + e->bytes) {
                *with = o;
                return 1;
            }
        }
    }
    return 0;
}

static void report_race(sim_ctx *c, const sim_op *op, const sim_elem *e, const sim_op *with)
{
    const wa_program *prog = c->sim->prog;
    sim_fail(c, WA_E_SIM_WAIT,
             "reads LDS bytes %u..%u that %s @I%u (wave %u) has not finished writing: missing "
             "s_waitcnt%s",
             (unsigned)e->addr, (unsigned)e->addr + e->bytes - 1,
             wa_isa(prog->instrs[with->item].op)->mnemonic, (unsigned)prog->instrs[with->item].tag,
             with->wave, with->wave != op->wave ? " before s_barrier" : " vmcnt");
}

int sim_lds_race_at_issue(sim_ctx *c, const sim_op *op)
{
    wa_sim *sim = c->sim;
    for (unsigned i = 0; i < op->n; i++) {
        const sim_elem *e = &op->e[i];
        const sim_op *with;
        if (e->op != SIM_E_LOAD || e->space != SIM_SP_LDS ||
            !lds_race(sim, op, (uint32_t)e->addr, e->bytes, &with))
            continue;
        report_race(c, op, e, with);
        return 1;
    }
    return 0;
}

static void lds_read(wa_sim *sim, uint32_t addr, uint8_t *val, uint8_t *def, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        if (addr + i < sim->lds_bytes) {
            val[i] = sim->lds[addr + i];
            def[i] = sim->lds_def[addr + i];
        } else {
            val[i] = 0;
            def[i] = 1;
        }
    }
}

static void lds_write(wa_sim *sim, uint32_t addr, const uint8_t *val, int def, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        if (addr + i < sim->lds_bytes) {
            sim->lds[addr + i] = val[i];
            sim->lds_def[addr + i] = (uint8_t)(def != 0);
        }
}

static uint32_t bf16_add(uint32_t a, uint32_t b)
{
    float x = sim_bf16_to_f32((uint16_t)a), y = sim_bf16_to_f32((uint16_t)b);
    return sim_f32_to_bf16(x + y);
}

uint64_t sim_atomic_apply(unsigned aop, unsigned bytes, uint64_t m, uint64_t d, uint64_t cmp)
{
    uint64_t mask = bytes == 8 ? ~0ull : 0xFFFFFFFFull;
    unsigned top = 8u * bytes - 1u;
    /* signed views: the sign bit flipped orders them as unsigned values */
    uint64_t ms = (m ^ (1ull << top)) & mask, ds = (d ^ (1ull << top)) & mask;
    m &= mask;
    d &= mask;
    uint64_t r;
    switch (aop) {
    case SIM_A_SWAP: r = d; break;
    case SIM_A_CMPSWAP: r = m == (cmp & mask) ? d : m; break;
    case SIM_A_ADD: r = m + d; break;
    case SIM_A_SUB: r = m - d; break;
    case SIM_A_SMIN: r = ms < ds ? m : d; break;
    case SIM_A_UMIN: r = m < d ? m : d; break;
    case SIM_A_SMAX: r = ms > ds ? m : d; break;
    case SIM_A_UMAX: r = m > d ? m : d; break;
    case SIM_A_AND: r = m & d; break;
    case SIM_A_OR: r = m | d; break;
    case SIM_A_XOR: r = m ^ d; break;
    case SIM_A_INC: r = m >= d ? 0 : m + 1; break;
    case SIM_A_DEC: r = (m == 0 || m > d) ? d : m - 1; break;
    default: r = m; break;
    }
    return r & mask;
}

/* Writes a landed 32-bit value to register `r` of the operation's file (lane
   `lane` for vector files). */
static void land_reg(sim_wave *w, const sim_op *op, unsigned r, unsigned lane, uint32_t v, int def)
{
    if (op->file == SIM_FILE_S) {
        w->s[r] = v;
        w->s_def[r] = (uint8_t)def;
    } else {
        sim_vec *reg = op->file == SIM_FILE_V ? &w->v[r] : &w->a[r];
        reg->v[lane] = v;
        uint64_t bit = 1ull << lane;
        reg->def = def ? reg->def | bit : reg->def & ~bit;
    }
}

/* An integer atomic element: read, apply, write back; the old value (4 or 8
   bytes) to the registers when the operation returns it. */
static void land_atomic(wa_sim *sim, sim_wave *w, const sim_op *op, const sim_elem *e)
{
    unsigned n = e->bytes == 8 ? 8u : 4u;
    uint8_t b[8] = { 0 }, d[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    int known = e->space == SIM_SP_GLOBAL;
    if (known)
        sim_global_read(sim, e->addr, b, d, n);
    else if (e->space != SIM_SP_ZERO)
        memset(d, 0, sizeof(d));
    uint64_t old = 0;
    int def = 1;
    for (unsigned k = 0; k < n; k++) {
        old |= (uint64_t)b[k] << (8 * k);
        def &= d[k];
    }
    if (known) {
        uint64_t nv = sim_atomic_apply(e->aop, n, old, (uint64_t)e->val | (uint64_t)e->val_hi << 32,
                                       (uint64_t)e->cmp | (uint64_t)e->cmp_hi << 32);
        uint8_t out[8];
        for (unsigned k = 0; k < n; k++)
            out[k] = (uint8_t)(nv >> (8 * k));
        sim_global_write(sim, e->addr, out, def && e->def, n);
    }
    if (op->file < 0)
        return;
    land_reg(w, op, op->reg + e->reg, e->lane, (uint32_t)old, def);
    if (n == 8)
        land_reg(w, op, op->reg + e->reg + 1u, e->lane, (uint32_t)(old >> 32), def);
}

static void land(wa_sim *sim, sim_op *op)
{
    sim_wave *w = &sim->waves[op->wave];
    sim_ctx c;
    memset(&c, 0, sizeof(c));
    c.sim = sim;
    c.w = w;
    c.item = op->item;
    c.in = &sim->prog->instrs[op->item];
    c.info = wa_isa(c.in->op);
    for (unsigned i = 0; i < op->n && sim->status == WA_OK; i++) {
        const sim_elem *e = &op->e[i];
        uint8_t b[4] = { 0, 0, 0, 0 }, d[4] = { 1, 1, 1, 1 };
        int has_result = 0;
        switch (e->op) {
        case SIM_E_LOAD:
            if (e->space == SIM_SP_GLOBAL) {
                sim_global_read(sim, e->addr, b, d, e->bytes);
            } else if (e->space == SIM_SP_LDS) {
                const sim_op *with;
                if (lds_race(sim, op, (uint32_t)e->addr, e->bytes, &with)) {
                    report_race(&c, op, e, with);
                    break;
                }
                lds_read(sim, (uint32_t)e->addr, b, d, e->bytes);
            } else if (e->space == SIM_SP_ZERO) {
                memset(b, 0, sizeof(b));
            } else {
                memset(d, 0, sizeof(d)); /* undefined address lane */
            }
            has_result = 1;
            break;
        case SIM_E_STORE: {
            uint8_t v[4];
            for (unsigned k = 0; k < 4; k++)
                v[k] = (uint8_t)(e->val >> (8 * k));
            if (e->space == SIM_SP_GLOBAL)
                sim_global_write(sim, e->addr, v, e->def, e->bytes);
            else if (e->space == SIM_SP_LDS)
                lds_write(sim, (uint32_t)e->addr, v, e->def, e->bytes);
            break;
        }
        case SIM_E_DMA: {
            if (e->space == SIM_SP_GLOBAL)
                sim_global_read(sim, e->addr, b, d, e->bytes);
            else if (e->space == SIM_SP_ZERO)
                memset(b, 0, sizeof(b));
            uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            int def = d[0] && d[1] && d[2] && d[3];
            if (e->bytes < 4) { /* smaller elements are extended to 32 bits in LDS */
                unsigned bits = 8u * e->bytes;
                v &= (1u << bits) - 1u;
                if (e->sext && (v >> (bits - 1)) & 1u)
                    v |= ~((1u << bits) - 1u);
                def = e->bytes == 1 ? d[0] : d[0] && d[1];
            }
            uint8_t out[4];
            for (unsigned k = 0; k < 4; k++)
                out[k] = (uint8_t)(v >> (8 * k));
            lds_write(sim, e->val, out, def, 4);
            break;
        }
        case SIM_E_ADD_F32:
        case SIM_E_PK_ADD_BF16: {
            if (e->space != SIM_SP_GLOBAL) {
                has_result = op->file >= 0;
                if (e->space == SIM_SP_ZERO)
                    memset(b, 0, sizeof(b));
                break;
            }
            sim_global_read(sim, e->addr, b, d, 4);
            uint32_t old = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            uint32_t nv;
            if (e->op == SIM_E_ADD_F32) {
                nv = sim_f32_bits(sim_f32(old) + sim_f32(e->val));
            } else {
                nv = bf16_add(old & 0xFFFFu, e->val & 0xFFFFu) |
                     bf16_add(old >> 16, e->val >> 16) << 16;
            }
            uint8_t out[4];
            for (unsigned k = 0; k < 4; k++)
                out[k] = (uint8_t)(nv >> (8 * k));
            sim_global_write(sim, e->addr, out, e->def && d[0] && d[1] && d[2] && d[3], 4);
            has_result = op->file >= 0;
            break;
        }
        case SIM_E_ATOMIC:
            land_atomic(sim, w, op, e);
            break;
        case SIM_E_DS:
            sim_ds_land(sim, w, op, e);
            break;
        case SIM_E_CONST:
            for (unsigned k = 0; k < 4; k++) {
                b[k] = (uint8_t)(e->val >> (8 * k));
                d[k] = e->def;
            }
            has_result = 1;
            break;
        default:
            break;
        }
        if (!has_result || op->file < 0 || sim->status != WA_OK)
            continue;
        uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        int def = 1;
        for (unsigned k = 0; k < e->bytes; k++)
            def &= d[k];
        if (e->bytes < 4) {
            unsigned bits = 8u * e->bytes;
            v &= (1u << bits) - 1u;
            if (e->sext && (v >> (bits - 1)) & 1u)
                v |= ~((1u << bits) - 1u);
        }
        land_reg(w, op, op->reg + e->reg, e->lane, v, def);
    }
    if (op->file >= 0)
        for (unsigned r = op->reg; r < op->reg + op->nregs; r++)
            if (w->pend[op->file][r] == op->id)
                w->pend[op->file][r] = 0;
    if (w->inflight[op->queue])
        w->inflight[op->queue]--;
}

void sim_complete_until(wa_sim *sim, uint64_t t)
{
    while (sim->nheap && sim->heap[0]->done <= t) {
        sim_op *op = sim->heap[0];
        /* land it while it is still in the heap (race checks see the others), then
           remove it */
        land(sim, op);
        sim_op *top = heap_pop(sim);
        op_release(sim, top);
    }
}

void sim_complete_all(wa_sim *sim)
{
    wa_status keep = sim->status;
    while (sim->nheap) {
        sim_op *op = sim->heap[0];
        if (keep == WA_OK)
            land(sim, op);
        op_release(sim, heap_pop(sim));
    }
    if (keep != WA_OK)
        sim->status = keep;
}

void sim_ops_free(wa_sim *sim)
{
    for (unsigned h = 0; h < sim->nheap; h++) {
        wa_mem_free(sim->ctx, sim->heap[h]->e);
        wa_mem_free(sim->ctx, sim->heap[h]);
    }
    for (unsigned f = 0; f < sim->nfree; f++) {
        wa_mem_free(sim->ctx, sim->free_ops[f]->e);
        wa_mem_free(sim->ctx, sim->free_ops[f]);
    }
    wa_mem_free(sim->ctx, sim->heap);
    wa_mem_free(sim->ctx, sim->free_ops);
    sim->heap = NULL;
    sim->free_ops = NULL;
    sim->nheap = sim->capheap = sim->nfree = sim->capfree = 0;
}

/* ---- comparing two runs ------------------------------------------------------------------------ */

static void scratch_byte(const wa_sim *sim, uint64_t a, uint8_t *v, uint8_t *d)
{
    const sim_page *p = page_find(sim, a & ~4095ull);
    *v = p ? p->data[a & 4095] : pattern(a);
    *d = p ? p->def[a & 4095] : 1;
}

/* Counts a differing byte (defined in `ref`, not the same defined value in
   `other`); with `notes`, describes the first few. */
static void cmp_byte(const wa_sim *ref, uint8_t rv, uint8_t rd, uint8_t ov, uint8_t od,
                     const char *what, uint64_t where, unsigned *diffs, int notes)
{
    if (!rd || (od && ov == rv))
        return;
    if (++*diffs > 8 || !notes)
        return;
    if (od)
        wa_note(ref->ctx, WA_LOC_NONE, "%s 0x%llx: 0x%02x, the other run 0x%02x", what,
                (unsigned long long)where, rv, ov);
    else
        wa_note(ref->ctx, WA_LOC_NONE, "%s 0x%llx: 0x%02x, undefined in the other run", what,
                (unsigned long long)where, rv);
}

static unsigned compare_pass(const wa_sim *ref, const wa_sim *other, int notes)
{
    unsigned diffs = 0;
    for (unsigned a = 0; a < ref->nargs; a++) {
        const sim_region *r = &ref->bufs[a], *o = &other->bufs[a];
        char what[48];
        snprintf(what, sizeof(what), "argument %u, byte", a);
        for (uint64_t i = 0; i < r->size; i++)
            cmp_byte(ref, r->data[i], r->def[i], o->data[i], o->def[i], what, i, &diffs, notes);
    }
    /* scratch bytes either run wrote */
    for (int pass = 0; pass < 2; pass++) {
        const wa_sim *s = pass ? other : ref;
        for (unsigned slot = 0; slot < s->npage_slots; slot++)
            for (const sim_page *p = s->pages[slot]; p; p = p->next)
                for (unsigned i = 0; i < 4096; i++) {
                    if (!(p->written[i >> 3] >> (i & 7) & 1u))
                        continue;
                    uint64_t a = p->base + i;
                    if (pass) { /* counted in the first pass if ref wrote it too */
                        const sim_page *rp = page_find(ref, p->base);
                        if (rp && (rp->written[i >> 3] >> (i & 7) & 1u))
                            continue;
                    }
                    uint8_t rv, rd, ov, od;
                    scratch_byte(ref, a, &rv, &rd);
                    scratch_byte(other, a, &ov, &od);
                    cmp_byte(ref, rv, rd, ov, od, "scratch address", a, &diffs, notes);
                }
    }
    return diffs;
}

wa_status wa_sim_compare(unsigned *out_diffs, const wa_sim *ref, const wa_sim *other)
{
    if (!ref || !other)
        return WA_E_INVALID;
    wa_diag_reset(ref->ctx);
    if (out_diffs)
        *out_diffs = 0;
    if (ref->nargs != other->nargs)
        return wa_error(ref->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "wa_sim_compare: the kernels have %u and %u arguments", ref->nargs,
                        other->nargs);
    for (unsigned a = 0; a < ref->nargs; a++)
        if (ref->bufs[a].size != other->bufs[a].size)
            return wa_error(ref->ctx, WA_E_INVALID, WA_LOC_NONE,
                            "wa_sim_compare: argument %u is bound to %llu and %llu bytes", a,
                            (unsigned long long)ref->bufs[a].size,
                            (unsigned long long)other->bufs[a].size);
    unsigned diffs = compare_pass(ref, other, 0);
    if (out_diffs)
        *out_diffs = diffs;
    if (!diffs)
        return WA_OK;
    wa_error(ref->ctx, WA_E_VALIDATE, WA_LOC_NONE, "the runs differ in %u byte%s of memory", diffs,
             diffs == 1 ? "" : "s");
    compare_pass(ref, other, 1);
    if (diffs > 8)
        wa_note(ref->ctx, WA_LOC_NONE, "%u more differing bytes", diffs - 8);
    return WA_E_VALIDATE;
}
