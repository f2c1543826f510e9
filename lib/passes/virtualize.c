/* lib/passes/virtualize.c — physical registers back into virtual registers.

   Code that another compiler allocated (assembly imported with
   wa_program_parse_asm) names physical registers. To allocate it again, each
   definition web becomes one virtual register: a definition, every read it
   reaches, and every other definition those reads also see. The webs come from
   a forward dataflow over blocks that tracks, per 32-bit register unit, the
   web of the value it holds:

     - a read joins the webs of all units of its operand (a tuple is one value);
     - a write starts a new web, unless it also keeps the old value: a
       read-modify-write operand, or a vector write while EXEC may lack lanes
       (wa_exec_partial: the inactive lanes keep what they held);
     - where paths join, the webs a unit brings from each predecessor merge,
       but only for units live there (a dead register reused on two paths
       stays two values).

   A web that holds an ABI input (the kernarg pointer, the work-item ids, ...)
   keeps its physical registers: the allocator treats them as precoloured. A
   register read before any write holds nothing (LLVM's implicit-def): such a
   read joins no web and keeps its register name. Every other web gets
   a virtual register spanning its units, its start rounded down so that each
   tuple operand in it keeps the target's alignment, and each operand becomes
   the matching component range. Waits and nops go unless the options keep
   them (the pipeline's later stages insert what the new allocation needs). */
#include "pass_util.h"

#include <string.h>

#define NONE 0xFFFFFFFFu
#define UNIT_WORDS (WA_UNITS / 64u)

typedef struct vz {
    wa_program *prog;
    wa_context *ctx;
    wa_cfg cfg;
    uint8_t *partial;      /* per item: EXEC may be partial (NULL: nowhere) */
    unsigned *parent;      /* union-find over nodes: units' entry values, then defs */
    unsigned nnodes;
    unsigned *op_base;     /* per item: first slot of its operands in `node` */
    unsigned *node;        /* per operand slot: its web node (NONE: not a register) */
    uint64_t *live_in;     /* per block: units live on entry */
    unsigned *state;       /* per block: node per unit on entry (NONE: none) */
    int changed;
} vz;

static unsigned find(vz *V, unsigned x)
{
    while (V->parent[x] != x) {
        V->parent[x] = V->parent[V->parent[x]];
        x = V->parent[x];
    }
    return x;
}

static void join(vz *V, unsigned a, unsigned b)
{
    a = find(V, a);
    b = find(V, b);
    if (a == b)
        return;
    /* the smaller id (entry nodes first) represents the web */
    if (a < b)
        V->parent[b] = a;
    else
        V->parent[a] = b;
    V->changed = 1;
}

/* The units of a physical VGPR/AGPR/SGPR operand; 0 for anything else. */
static unsigned phys_units(const wa_operand *o, unsigned *first)
{
    if (o->kind != WA_OPND_PHYS ||
        (o->reg_class != WA_REG_VGPR && o->reg_class != WA_REG_AGPR && o->reg_class != WA_REG_SGPR))
        return 0;
    unsigned u = wa_phys_unit((wa_reg_class)o->reg_class, o->id);
    unsigned n = o->count ? o->count : 1;
    if (u + n > WA_UNITS || wa_unit_class(u + n - 1) != (wa_reg_class)o->reg_class)
        return 0;
    *first = u;
    return n;
}

static int is_drop(const wa_instr *in, unsigned flags)
{
    return (in->op == WA_OP_S_WAITCNT && !(flags & WA_VIRTUALIZE_KEEP_WAITS)) ||
           (in->op == WA_OP_S_NOP && !(flags & WA_VIRTUALIZE_KEEP_NOPS));
}

/* Backward liveness of the units, per block (only to decide which values
   merge at joins). A vector write under a partial EXEC reads the old lanes. */
static void unit_liveness(vz *V)
{
    const wa_program *p = V->prog;
    unsigned nb = V->cfg.nblocks;
    uint64_t *use = wa_tmp_calloc(V->ctx, (size_t)nb * 2 * UNIT_WORDS, sizeof(uint64_t));
    if (!use)
        return;
    uint64_t *def = use + (size_t)nb * UNIT_WORDS;
    for (unsigned b = 0; b < nb; b++) {
        uint64_t *ub = use + (size_t)b * UNIT_WORDS, *db = def + (size_t)b * UNIT_WORDS;
        for (unsigned i = V->cfg.last[b] + 1; i-- > V->cfg.first[b];) {
            const wa_instr *in = &p->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            for (int pass = 0; pass < 2; pass++) /* defs, then uses (backward) */
                for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
                    unsigned u0 = 0, n = phys_units(&in->ops[k], &u0);
                    unsigned role = wa_instr_role(in, info, k);
                    int keeps = V->partial && V->partial[i] && wa_lane_masked_write(in, info, k);
                    for (unsigned u = u0; u < u0 + n; u++) {
                        uint64_t bit = 1ull << (u % 64);
                        if (pass == 0 && (role & WA_ROLE_DEF) && !(role & WA_ROLE_USE) && !keeps) {
                            ub[u / 64] &= ~bit;
                            db[u / 64] |= bit;
                        } else if (pass == 1 && ((role & WA_ROLE_USE) || ((role & WA_ROLE_DEF) && keeps))) {
                            ub[u / 64] |= bit;
                        }
                    }
                }
        }
    }
    for (int again = 1; again;) {
        again = 0;
        for (unsigned r = V->cfg.nrpo; r-- > 0;) {
            unsigned b = V->cfg.rpo[r];
            uint64_t out[UNIT_WORDS] = { 0 };
            for (unsigned e = V->cfg.succ.off[b]; e < V->cfg.succ.off[b + 1]; e++) {
                const uint64_t *li = V->live_in + (size_t)V->cfg.succ.data[e] * UNIT_WORDS;
                for (unsigned w = 0; w < UNIT_WORDS; w++)
                    out[w] |= li[w];
            }
            uint64_t *li = V->live_in + (size_t)b * UNIT_WORDS;
            for (unsigned w = 0; w < UNIT_WORDS; w++) {
                uint64_t v = use[(size_t)b * UNIT_WORDS + w] |
                             (out[w] & ~def[(size_t)b * UNIT_WORDS + w]);
                if (v != li[w]) {
                    li[w] = v;
                    again = 1;
                }
            }
        }
    }
    wa_tmp_free(V->ctx, use);
}

/* One sweep over a block from its entry state; records operand nodes. */
static void transfer(vz *V, unsigned b, unsigned *cur)
{
    const wa_program *p = V->prog;
    for (unsigned i = V->cfg.first[b]; i <= V->cfg.last[b] && i < p->ninstrs; i++) {
        const wa_instr *in = &p->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        unsigned *slot = V->node + V->op_base[i];
        /* reads first: an instruction reads its sources before it writes */
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
            unsigned u0 = 0, n = phys_units(&in->ops[k], &u0);
            unsigned role = wa_instr_role(in, info, k);
            if (!n || !(role & WA_ROLE_USE) || (role & WA_ROLE_DEF))
                continue;
            /* a tuple is one value; an undefined component (NONE) joins nothing */
            unsigned rep = NONE;
            for (unsigned u = u0; u < u0 + n; u++)
                if (cur[u] != NONE) {
                    if (rep == NONE)
                        rep = cur[u];
                    else
                        join(V, rep, cur[u]);
                }
            slot[k] = rep;
        }
        for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
            unsigned u0 = 0, n = phys_units(&in->ops[k], &u0);
            unsigned role = wa_instr_role(in, info, k);
            if (!n || !(role & WA_ROLE_DEF))
                continue;
            unsigned d = slot[k]; /* fixed per operand slot: assigned at set-up */
            int keeps = (role & WA_ROLE_USE) || (V->partial && V->partial[i] &&
                                                 wa_lane_masked_write(in, info, k));
            for (unsigned u = u0; u < u0 + n; u++) {
                if (keeps && cur[u] != NONE)
                    join(V, d, cur[u]);
                cur[u] = d;
            }
        }
    }
}

static wa_status build_webs(vz *V)
{
    wa_program *p = V->prog;
    unsigned nb = V->cfg.nblocks;
    /* operand slots and def nodes */
    unsigned nslots = 0;
    for (unsigned i = 0; i < p->ninstrs; i++)
        nslots += p->instrs[i].nops;
    V->op_base = wa_tmp_alloc(V->ctx, ((size_t)p->ninstrs + 1) * sizeof(unsigned));
    V->node = wa_tmp_alloc(V->ctx, ((size_t)nslots + 1) * sizeof(unsigned));
    if (!V->op_base || !V->node)
        return wa_error_nomem(V->ctx);
    unsigned s = 0, ndefs = 0;
    for (unsigned i = 0; i < p->ninstrs; i++) {
        const wa_instr *in = &p->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        V->op_base[i] = s;
        for (unsigned k = 0; k < in->nops; k++, s++) {
            unsigned u0 = 0;
            V->node[s] = NONE;
            if (k < info->num_operands && phys_units(&in->ops[k], &u0) &&
                (wa_instr_role(in, info, k) & WA_ROLE_DEF))
                V->node[s] = WA_UNITS + ndefs++;
        }
    }
    V->op_base[p->ninstrs] = s;
    V->nnodes = WA_UNITS + ndefs;
    V->parent = wa_tmp_alloc(V->ctx, (size_t)V->nnodes * sizeof(unsigned));
    V->live_in = wa_tmp_calloc(V->ctx, (size_t)nb * UNIT_WORDS + 1, sizeof(uint64_t));
    V->state = wa_tmp_alloc(V->ctx, ((size_t)nb * WA_UNITS + 1) * sizeof(unsigned));
    unsigned *cur = wa_tmp_alloc(V->ctx, WA_UNITS * sizeof(unsigned));
    if (!V->parent || !V->live_in || !V->state || !cur) {
        wa_tmp_free(V->ctx, cur);
        return wa_error_nomem(V->ctx);
    }
    for (unsigned x = 0; x < V->nnodes; x++)
        V->parent[x] = x;
    for (size_t x = 0; x < (size_t)nb * WA_UNITS; x++)
        V->state[x] = NONE;
    unit_liveness(V);
    /* at entry only the ABI inputs hold values; other registers are undefined
       (NONE), and a read of them names no web */
    unsigned mask = wa_program_abi_inputs(p);
    for (unsigned in = 0; V->cfg.nrpo && in < 32; in++) {
        wa_operand r;
        unsigned u0 = 0, cnt;
        if (!(mask >> in & 1u) || wa_program_abi_reg(&r, p, (wa_abi_input)in) != WA_OK ||
            !(cnt = phys_units(&r, &u0)))
            continue;
        for (unsigned u = u0; u < u0 + cnt; u++)
            V->state[(size_t)V->cfg.rpo[0] * WA_UNITS + u] = u;
    }
    /* to a fixed point: each round either merges webs or fills an entry state */
    do {
        V->changed = 0;
        for (unsigned r = 0; r < V->cfg.nrpo; r++) {
            unsigned b = V->cfg.rpo[r];
            memcpy(cur, V->state + (size_t)b * WA_UNITS, WA_UNITS * sizeof(unsigned));
            transfer(V, b, cur);
            for (unsigned e = V->cfg.succ.off[b]; e < V->cfg.succ.off[b + 1]; e++) {
                unsigned sb = V->cfg.succ.data[e];
                unsigned *in = V->state + (size_t)sb * WA_UNITS;
                const uint64_t *li = V->live_in + (size_t)sb * UNIT_WORDS;
                for (unsigned u = 0; u < WA_UNITS; u++) {
                    if (cur[u] == NONE || !(li[u / 64] >> (u % 64) & 1u))
                        continue;
                    if (in[u] == NONE) {
                        in[u] = cur[u];
                        V->changed = 1;
                    } else {
                        join(V, in[u], cur[u]);
                    }
                }
            }
        }
    } while (V->changed);
    wa_tmp_free(V->ctx, cur);
    return WA_OK;
}

/* Gives every web without an entry value its virtual register. */
static wa_status rename_webs(vz *V, wa_pass_stats *st)
{
    wa_program *p = V->prog;
    unsigned n = V->nnodes;
    unsigned *lo = wa_tmp_alloc(V->ctx, (size_t)n * 3 * sizeof(unsigned));
    if (!lo)
        return wa_error_nomem(V->ctx);
    unsigned *hi = lo + n, *al = hi + n;
    for (unsigned x = 0; x < n; x++) {
        lo[x] = NONE;
        hi[x] = 0;
        al[x] = 1;
    }
    /* span and alignment of each web */
    for (unsigned i = 0; i < p->ninstrs; i++) {
        const wa_instr *in = &p->instrs[i];
        for (unsigned k = 0; k < in->nops; k++) {
            unsigned nd = V->node[V->op_base[i] + k], u0 = 0;
            unsigned cnt = phys_units(&in->ops[k], &u0);
            if (nd == NONE || !cnt)
                continue;
            unsigned w = find(V, nd);
            if (u0 < lo[w])
                lo[w] = u0;
            if (u0 + cnt - 1 > hi[w])
                hi[w] = u0 + cnt - 1;
            unsigned a = wa_target_tuple_align(p->target, (wa_reg_class)in->ops[k].reg_class, cnt);
            if (a > al[w])
                al[w] = a;
        }
    }
    /* one virtual register per web (entry webs, whose root is a unit, stay) */
    unsigned *vid = wa_tmp_alloc(V->ctx, (size_t)n * sizeof(unsigned));
    if (!vid) {
        wa_tmp_free(V->ctx, lo);
        return wa_error_nomem(V->ctx);
    }
    wa_status rc = WA_OK;
    for (unsigned x = 0; x < n && !rc; x++) {
        vid[x] = NONE;
        if (find(V, x) != x || x < WA_UNITS || lo[x] == NONE)
            continue;
        unsigned reg = wa_unit_reg(lo[x]), a = al[x];
        lo[x] -= reg % a; /* the register a tuple starts at stays aligned */
        wa_operand o;
        rc = wa_program_vreg(&o, p, wa_unit_class(lo[x]), hi[x] - lo[x] + 1, a);
        vid[x] = o.id;
    }
    for (unsigned i = 0; i < p->ninstrs && !rc; i++) {
        wa_instr *in = &p->instrs[i];
        int touched = 0;
        for (unsigned k = 0; k < in->nops; k++) {
            unsigned nd = V->node[V->op_base[i] + k], u0 = 0;
            unsigned cnt = phys_units(&in->ops[k], &u0);
            if (nd == NONE || !cnt)
                continue;
            unsigned w = find(V, nd);
            if (vid[w] == NONE)
                continue;
            wa_operand *o = &in->ops[k];
            o->kind = WA_OPND_VIRT;
            o->id = vid[w];
            o->first = u0 - lo[w];
            o->count = (uint16_t)cnt;
            touched = 1;
        }
        st->changed += (unsigned)touched;
    }
    wa_tmp_free(V->ctx, vid);
    wa_tmp_free(V->ctx, lo);
    return rc;
}

wa_status wa_pass_virtualize(wa_program *prog, const wa_virtualize_options *opts,
                             wa_pass_stats *stats)
{
    if (!prog)
        return WA_E_INVALID;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    if (opts) {
        wa_status vs = wa_check_options_version(ctx, opts->version, WA_VIRTUALIZE_OPTIONS_VERSION,
                                                "wa_virtualize_options");
        if (vs)
            return vs;
    }
    unsigned flags = opts ? opts->flags : 0;
    wa_pass_stats local;
    wa_pass_stats *st = wa_stats_begin(stats, &local, prog);

    /* waits and nops first: they name no registers */
    wa_edit e;
    wa_edit_init(&e, prog);
    wa_status rc = WA_OK;
    for (unsigned i = 0; i < prog->ninstrs && !rc; i++)
        if (is_drop(&prog->instrs[i], flags)) {
            rc = wa_edit_erase(&e, i);
            st->removed++;
        }
    if (!rc)
        rc = wa_edit_apply(&e);
    wa_edit_free(&e);

    vz V;
    memset(&V, 0, sizeof(V));
    V.prog = prog;
    V.ctx = ctx;
    int any = 0;
    if (!rc)
        rc = wa_cfg_build(&V.cfg, prog);
    if (!rc)
        rc = wa_exec_partial(&V.partial, &any, prog, &V.cfg);
    if (!rc && !any) {
        wa_mem_free(ctx, V.partial);
        V.partial = NULL;
    }
    if (!rc)
        rc = build_webs(&V);
    if (!rc)
        rc = rename_webs(&V, st);
    wa_tmp_free(ctx, V.state);
    wa_tmp_free(ctx, V.live_in);
    wa_tmp_free(ctx, V.parent);
    wa_tmp_free(ctx, V.node);
    wa_tmp_free(ctx, V.op_base);
    wa_mem_free(ctx, V.partial);
    wa_cfg_free(&V.cfg, ctx);
    wa_stats_end(st, prog);
    return rc;
}
