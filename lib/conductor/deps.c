/* lib/conductor/deps.c — node facts and the register dependence graph of a
   schedule. The graph is built once from the order the schedule found: a
   schedule is register-valid exactly when it keeps every edge's order (edges
   to the nearest writer and readers of each register unit, so that the
   transitive closure orders every conflicting pair). Memory order and
   barriers are checked against the instructions a move crosses (move.c). */
#include "conductor_internal.h"

#include <string.h>

static int is_vector_format(wa_format f)
{
    return f == WA_FMT_VOP1 || f == WA_FMT_VOP2 || f == WA_FMT_VOPC || f == WA_FMT_VOP3 ||
           f == WA_FMT_VOP3P || f == WA_FMT_MAI || f == WA_FMT_DS || f == WA_FMT_MUBUF ||
           f == WA_FMT_GLOBAL || f == WA_FMT_FLAT || f == WA_FMT_SCRATCH;
}

static int push_unit(wa_sunits *u, wa_context *ctx, int def, unsigned unit)
{
    unsigned *arr = def ? u->def : u->use;
    unsigned n = def ? u->ndef : u->nuse;
    for (unsigned i = 0; i < n; i++)
        if (arr[i] == unit)
            return 0;
    if (u->nuse + 1 > u->cap || u->ndef + 1 > u->cap) {
        unsigned cap = u->cap ? u->cap * 2 : 32;
        unsigned *nu = wa_mem_realloc(ctx, u->use, cap * sizeof(unsigned));
        if (!nu)
            return -1;
        u->use = nu;
        unsigned *nd = wa_mem_realloc(ctx, u->def, cap * sizeof(unsigned));
        if (!nd)
            return -1;
        u->def = nd;
        u->cap = cap;
    }
    if (def)
        u->def[u->ndef++] = unit;
    else
        u->use[u->nuse++] = unit;
    return 0;
}

void wa_sunits_free(wa_sunits *u, wa_context *ctx)
{
    wa_mem_free(ctx, u->use);
    wa_mem_free(ctx, u->def);
    memset(u, 0, sizeof(*u));
}

wa_status wa_sched_units(wa_sunits *u, const wa_schedule *s, const wa_instr *in)
{
    u->nuse = u->ndef = 0;
    const wa_isa_info *info = wa_isa(in->op);
    if (info->flags & WA_IF_PSEUDO)
        return WA_OK;
    unsigned tmp[64];
    for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
        unsigned role = wa_instr_role(in, info, k);
        unsigned n = wa_unit_map_operand(&s->units, &in->ops[k], tmp, 64);
        for (unsigned j = 0; j < n; j++) {
            if ((role & WA_ROLE_USE) && push_unit(u, s->ctx, 0, tmp[j]))
                return wa_error_nomem(s->ctx);
            if ((role & WA_ROLE_DEF) && push_unit(u, s->ctx, 1, tmp[j]))
                return wa_error_nomem(s->ctx);
        }
    }
    static const unsigned impl[4] = { WA_IMPL_SCC, WA_IMPL_VCC, WA_IMPL_EXEC, WA_IMPL_M0 };
    for (unsigned f = 0; f < 4; f++) {
        unsigned n;
        if (info->implicit_uses & impl[f]) {
            n = wa_unit_map_implicit(impl[f], tmp);
            for (unsigned j = 0; j < n; j++)
                if (push_unit(u, s->ctx, 0, tmp[j]))
                    return wa_error_nomem(s->ctx);
        }
        if (info->implicit_defs & impl[f]) {
            n = wa_unit_map_implicit(impl[f], tmp);
            for (unsigned j = 0; j < n; j++)
                if (push_unit(u, s->ctx, 1, tmp[j]))
                    return wa_error_nomem(s->ctx);
        }
    }
    /* Every lane-wise instruction depends on EXEC, whether or not its row says so. */
    if (is_vector_format(info->format)) {
        unsigned n = wa_unit_map_implicit(WA_IMPL_EXEC, tmp);
        for (unsigned j = 0; j < n; j++)
            if (push_unit(u, s->ctx, 0, tmp[j]))
                return wa_error_nomem(s->ctx);
    }
    return WA_OK;
}

unsigned wa_sched_class_latency(const wa_schedule *s, unsigned cls)
{
    return cls < WA_SCHED_LAT_COUNT ? s->lat[cls] : 4;
}

/* Facts of one item, from the ISA table only. */
static void node_facts(wa_schedule *s, unsigned i)
{
    const wa_instr *in = &s->orig[i];
    const wa_isa_info *info = wa_isa(in->op);
    wa_snode *nd = &s->node[i];
    nd->flags = 0;
    nd->rd = nd->wr = 0;
    if (info->flags & WA_IF_PSEUDO)
        return;
    nd->flags |= WA_SN_REAL;
    unsigned f = info->flags;
    if (f & (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM))
        nd->flags |= WA_SN_PINNED | WA_SN_TERM;
    if (f & WA_IF_BARRIER)
        nd->flags |= WA_SN_PINNED | WA_SN_BARRIER;
    if (f & (WA_IF_WAITCNT | WA_IF_NOP))
        nd->flags |= WA_SN_PINNED;
    if (in->op == WA_OP_S_SETPRIO)
        nd->flags |= WA_SN_PINNED;
    else if ((f & WA_IF_SIDE_EFFECTS) && !(f & (WA_IF_WAITCNT | WA_IF_BARRIER)))
        nd->flags |= WA_SN_PINNED | WA_SN_FENCE;
    if (f & WA_IF_ATOMIC)
        nd->flags |= WA_SN_ATOMIC;
    if (is_vector_format(info->format))
        nd->flags |= WA_SN_VECTOR;
    unsigned space = 0;
    switch (info->format) {
    case WA_FMT_DS: space = WA_SPACE_LDS; break;
    case WA_FMT_MUBUF: case WA_FMT_GLOBAL: case WA_FMT_SMEM: space = WA_SPACE_GLOBAL; break;
    case WA_FMT_SCRATCH: space = WA_SPACE_SCRATCH; break;
    case WA_FMT_FLAT: space = WA_SPACE_GLOBAL | WA_SPACE_LDS | WA_SPACE_SCRATCH; break;
    default: break;
    }
    if (f & WA_IF_LDS_DMA) {
        nd->rd = space & ~WA_SPACE_LDS;
        nd->wr = WA_SPACE_LDS;
    } else {
        if (f & (WA_IF_LOAD | WA_IF_ATOMIC))
            nd->rd = space;
        if (f & (WA_IF_STORE | WA_IF_ATOMIC))
            nd->wr = space;
    }
    unsigned lat = wa_sched_class_latency(s, info->latency);
    if (f & WA_IF_MFMA) {
        unsigned passes = wa_isa_mfma_passes(in->op, s->prog->target);
        lat = passes ? passes * 4 : lat;
    }
    nd->latency = lat;
}

typedef struct edge_rec {
    unsigned from, to, unit, kind;
} edge_rec;

typedef struct dep_builder {
    wa_context *ctx;
    edge_rec *e;
    unsigned ne, cap;
} dep_builder;

static int add_edge(dep_builder *b, unsigned from, unsigned to, unsigned unit, unsigned kind)
{
    if (from == to)
        return 0;
    if (b->ne && b->e[b->ne - 1].from == from && b->e[b->ne - 1].to == to)
        return 0; /* one edge per pair is enough to keep the order */
    if (wa_grow(b->ctx, (void **)&b->e, &b->cap, b->ne + 1, sizeof(edge_rec)))
        return -1;
    edge_rec r = { from, to, unit, kind };
    b->e[b->ne++] = r;
    return 0;
}

wa_status wa_sched_build_deps(wa_schedule *s)
{
    wa_context *ctx = s->ctx;
    for (unsigned i = 0; i < s->n; i++)
        node_facts(s, i);
    unsigned nunits = s->units.count;
    unsigned *last_def = wa_mem_alloc(ctx, (size_t)nunits * sizeof(unsigned));
    unsigned *rhead = wa_mem_alloc(ctx, (size_t)nunits * sizeof(unsigned));
    unsigned *touched = wa_mem_alloc(ctx, (size_t)nunits * sizeof(unsigned));
    unsigned *rnode = NULL, *rnext = NULL, nr = 0, capr = 0, capx = 0, ntouched = 0;
    uint8_t *is_touched = wa_mem_calloc(ctx, nunits ? nunits : 1, 1);
    dep_builder b = { ctx, NULL, 0, 0 };
    wa_sunits su;
    memset(&su, 0, sizeof(su));
    wa_status st = WA_OK;
    if (!last_def || !rhead || !touched || !is_touched) {
        st = wa_error_nomem(ctx);
        goto out;
    }
    for (unsigned u = 0; u < nunits; u++)
        last_def[u] = rhead[u] = WA_NONE;
    for (unsigned blk = 0; blk < s->nblocks && !st; blk++) {
        /* reset what the previous block touched */
        for (unsigned t = 0; t < ntouched; t++) {
            last_def[touched[t]] = rhead[touched[t]] = WA_NONE;
            is_touched[touched[t]] = 0;
        }
        ntouched = 0;
        nr = 0;
        for (unsigned i = s->bfirst[blk]; i <= s->blast[blk] && !st; i++) {
            if (!(s->node[i].flags & WA_SN_REAL))
                continue;
            st = wa_sched_units(&su, s, &s->orig[i]);
            if (st)
                break;
            for (unsigned k = 0; k < su.nuse; k++) {
                unsigned u = su.use[k];
                if (!is_touched[u]) {
                    is_touched[u] = 1;
                    touched[ntouched++] = u;
                }
                if (last_def[u] != WA_NONE && add_edge(&b, last_def[u], i, u, WA_DEP_RAW))
                    st = wa_error_nomem(ctx);
                if (wa_grow(ctx, (void **)&rnode, &capr, nr + 1, sizeof(unsigned)) ||
                    wa_grow(ctx, (void **)&rnext, &capx, nr + 1, sizeof(unsigned))) {
                    st = wa_error_nomem(ctx);
                    break;
                }
                rnode[nr] = i;
                rnext[nr] = rhead[u];
                rhead[u] = nr++;
            }
            for (unsigned k = 0; k < su.ndef && !st; k++) {
                unsigned u = su.def[k];
                if (!is_touched[u]) {
                    is_touched[u] = 1;
                    touched[ntouched++] = u;
                }
                for (unsigned r = rhead[u]; r != WA_NONE; r = rnext[r])
                    if (add_edge(&b, rnode[r], i, u, WA_DEP_WAR))
                        st = wa_error_nomem(ctx);
                if (last_def[u] != WA_NONE && add_edge(&b, last_def[u], i, u, WA_DEP_WAW))
                    st = wa_error_nomem(ctx);
                last_def[u] = i;
                rhead[u] = WA_NONE;
            }
        }
    }
    if (st)
        goto out;
    /* compressed rows, both directions */
    s->pred_off = wa_mem_calloc(ctx, s->n + 1, sizeof(unsigned));
    s->succ_off = wa_mem_calloc(ctx, s->n + 1, sizeof(unsigned));
    s->pred = wa_mem_alloc(ctx, (b.ne ? b.ne : 1) * sizeof(wa_sedge));
    s->succ = wa_mem_alloc(ctx, (b.ne ? b.ne : 1) * sizeof(wa_sedge));
    if (!s->pred_off || !s->succ_off || !s->pred || !s->succ) {
        st = wa_error_nomem(ctx);
        goto out;
    }
    for (unsigned k = 0; k < b.ne; k++) {
        s->pred_off[b.e[k].to + 1]++;
        s->succ_off[b.e[k].from + 1]++;
    }
    for (unsigned i = 0; i < s->n; i++) {
        s->pred_off[i + 1] += s->pred_off[i];
        s->succ_off[i + 1] += s->succ_off[i];
    }
    {
        unsigned *pf = wa_mem_alloc(ctx, (size_t)s->n * sizeof(unsigned));
        unsigned *sf = wa_mem_alloc(ctx, (size_t)s->n * sizeof(unsigned));
        if (!pf || !sf) {
            wa_mem_free(ctx, pf);
            wa_mem_free(ctx, sf);
            st = wa_error_nomem(ctx);
            goto out;
        }
        for (unsigned i = 0; i < s->n; i++) {
            pf[i] = s->pred_off[i];
            sf[i] = s->succ_off[i];
        }
        for (unsigned k = 0; k < b.ne; k++) {
            wa_sedge pe = { b.e[k].from, b.e[k].unit, b.e[k].kind };
            wa_sedge se = { b.e[k].to, b.e[k].unit, b.e[k].kind };
            s->pred[pf[b.e[k].to]++] = pe;
            s->succ[sf[b.e[k].from]++] = se;
        }
        wa_mem_free(ctx, pf);
        wa_mem_free(ctx, sf);
    }
out:
    wa_sunits_free(&su, ctx);
    wa_mem_free(ctx, last_def);
    wa_mem_free(ctx, rhead);
    wa_mem_free(ctx, touched);
    wa_mem_free(ctx, is_touched);
    wa_mem_free(ctx, rnode);
    wa_mem_free(ctx, rnext);
    wa_mem_free(ctx, b.e);
    return st;
}
