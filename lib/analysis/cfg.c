/* lib/analysis/cfg.c — basic blocks from labels and branches, edges, reverse
   post-order, dominators (Cooper-Harvey-Kennedy) and natural loops of back edges. */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

void wa_cfg_free(wa_cfg *cfg, wa_context *ctx)
{
    wa_mem_free(ctx, cfg->first);
    wa_mem_free(ctx, cfg->last);
    wa_mem_free(ctx, cfg->item_block);
    wa_mem_free(ctx, cfg->succ.off);
    wa_mem_free(ctx, cfg->succ.data);
    wa_mem_free(ctx, cfg->pred.off);
    wa_mem_free(ctx, cfg->pred.data);
    wa_mem_free(ctx, cfg->rpo);
    wa_mem_free(ctx, cfg->rpo_index);
    wa_mem_free(ctx, cfg->idom);
    wa_mem_free(ctx, cfg->dom_pre);
    wa_mem_free(ctx, cfg->dom_post);
    wa_mem_free(ctx, cfg->loops);
    wa_mem_free(ctx, cfg->block_loop);
    wa_mem_free(ctx, cfg->block_depth);
    memset(cfg, 0, sizeof(*cfg));
}

#define ALLOC(ptr, n) ((ptr) = wa_mem_calloc(ctx, (n) != 0 ? (size_t)(n) : 1u, sizeof(*(ptr))))

/* ---- blocks and edges ---------------------------------------------------------------- */

static wa_status build_blocks(wa_cfg *cfg, const wa_program *prog)
{
    wa_context *ctx = prog->ctx;
    unsigned n = prog->ninstrs;
    if (!ALLOC(cfg->item_block, n))
        return wa_error_nomem(ctx);
    unsigned nb = 0;
    for (unsigned i = 0; i < n; i++) {
        const wa_isa_info *info = wa_isa(prog->instrs[i].op);
        int leader = i == 0 || prog->instrs[i].op == WA_OP_LABEL;
        if (i > 0) {
            const wa_isa_info *prev = wa_isa(prog->instrs[i - 1].op);
            if (prev->flags & (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM))
                leader = 1;
        }
        (void)info;
        if (leader)
            nb++;
        cfg->item_block[i] = nb - 1;
    }
    cfg->nblocks = nb;
    if (!ALLOC(cfg->first, nb) || !ALLOC(cfg->last, nb))
        return wa_error_nomem(ctx);
    for (unsigned i = 0; i < n; i++) {
        unsigned b = cfg->item_block[i];
        if (i == 0 || cfg->item_block[i - 1] != b)
            cfg->first[b] = i;
        cfg->last[b] = i;
    }
    return WA_OK;
}

/* Where each label is placed (block), WA_NONE if nowhere. */
static wa_status label_blocks(unsigned **out, const wa_cfg *cfg, const wa_program *prog)
{
    wa_context *ctx = prog->ctx;
    unsigned *lb = NULL;
    if (!ALLOC(lb, prog->nlabels))
        return wa_error_nomem(ctx);
    for (unsigned l = 0; l < prog->nlabels; l++)
        lb[l] = WA_NONE;
    for (unsigned i = 0; i < prog->ninstrs; i++)
        if (prog->instrs[i].op == WA_OP_LABEL)
            lb[prog->instrs[i].ops[0].id] = cfg->item_block[i];
    *out = lb;
    return WA_OK;
}

/* Successors of block b: up to two (taken target, fall-through). */
static unsigned block_succs(const wa_cfg *cfg, const wa_program *prog, const unsigned *lb,
                            unsigned b, unsigned s[2])
{
    const wa_instr *t = &prog->instrs[cfg->last[b]];
    const wa_isa_info *info = wa_isa(t->op);
    unsigned n = 0;
    if (info->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)) {
        int k = wa_branch_label_index(t);
        unsigned target = k >= 0 ? lb[t->ops[k].id] : WA_NONE;
        if (target != WA_NONE)
            s[n++] = target;
    }
    int falls = !(info->flags & (WA_IF_BRANCH | WA_IF_ENDPGM));
    if (falls && b + 1 < cfg->nblocks && !(n == 1 && s[0] == b + 1))
        s[n++] = b + 1;
    return n;
}

static wa_status build_edges(wa_cfg *cfg, const wa_program *prog)
{
    wa_context *ctx = prog->ctx;
    unsigned nb = cfg->nblocks;
    unsigned *lb = NULL;
    wa_status st = label_blocks(&lb, cfg, prog);
    if (st)
        return st;
    if (!ALLOC(cfg->succ.off, nb + 1) || !ALLOC(cfg->pred.off, nb + 1) ||
        !ALLOC(cfg->succ.data, 2 * nb) || !ALLOC(cfg->pred.data, 2 * nb)) {
        wa_mem_free(ctx, lb);
        return wa_error_nomem(ctx);
    }
    unsigned ne = 0;
    for (unsigned b = 0; b < nb; b++) {
        unsigned s[2];
        unsigned k = block_succs(cfg, prog, lb, b, s);
        cfg->succ.off[b] = ne;
        for (unsigned j = 0; j < k; j++) {
            cfg->succ.data[ne++] = s[j];
            cfg->pred.off[s[j] + 1]++;
        }
    }
    cfg->succ.off[nb] = ne;
    for (unsigned b = 0; b < nb; b++)
        cfg->pred.off[b + 1] += cfg->pred.off[b];
    unsigned *fill;
    if (!ALLOC(fill, nb)) {
        wa_mem_free(ctx, lb);
        return wa_error_nomem(ctx);
    }
    for (unsigned b = 0; b < nb; b++)
        for (unsigned e = cfg->succ.off[b]; e < cfg->succ.off[b + 1]; e++) {
            unsigned t = cfg->succ.data[e];
            cfg->pred.data[cfg->pred.off[t] + fill[t]++] = b;
        }
    wa_mem_free(ctx, fill);
    wa_mem_free(ctx, lb);
    return WA_OK;
}

/* ---- reverse post-order -------------------------------------------------------------------- */

static wa_status build_rpo(wa_cfg *cfg, wa_context *ctx)
{
    unsigned nb = cfg->nblocks;
    unsigned *stack = NULL, *next = NULL, *post = NULL;
    unsigned char *seen = NULL;
    if (!ALLOC(cfg->rpo, nb) || !ALLOC(cfg->rpo_index, nb) || !ALLOC(stack, nb) ||
        !ALLOC(next, nb) || !ALLOC(post, nb) || !ALLOC(seen, nb)) {
        wa_mem_free(ctx, stack);
        wa_mem_free(ctx, next);
        wa_mem_free(ctx, post);
        wa_mem_free(ctx, seen);
        return wa_error_nomem(ctx);
    }
    unsigned np = 0, sp = 0;
    if (nb) {
        stack[sp++] = 0;
        seen[0] = 1;
        next[0] = cfg->succ.off[0];
    }
    while (sp) {
        unsigned b = stack[sp - 1];
        if (next[b] < cfg->succ.off[b + 1]) {
            unsigned s = cfg->succ.data[next[b]++];
            if (!seen[s]) {
                seen[s] = 1;
                next[s] = cfg->succ.off[s];
                stack[sp++] = s;
            }
        } else {
            post[np++] = b;
            sp--;
        }
    }
    cfg->nrpo = np;
    for (unsigned b = 0; b < nb; b++)
        cfg->rpo_index[b] = WA_NONE;
    for (unsigned i = 0; i < np; i++) {
        cfg->rpo[i] = post[np - 1 - i];
        cfg->rpo_index[cfg->rpo[i]] = i;
    }
    wa_mem_free(ctx, stack);
    wa_mem_free(ctx, next);
    wa_mem_free(ctx, post);
    wa_mem_free(ctx, seen);
    return WA_OK;
}

/* ---- dominators ------------------------------------------------------------------------------

   Lengauer-Tarjan with path compression (O(E log N)): the iterative scheme of
   Cooper, Harvey and Kennedy walks the dominator tree once per predecessor, which
   is quadratic when many deep blocks branch to one label. */

/* Compresses the forest path above v (iteratively: long chains are common). */
static void lt_compress(unsigned v, unsigned *anc, unsigned *label, const unsigned *semi,
                        unsigned *stack)
{
    unsigned sp = 0;
    while (anc[anc[v]] != WA_NONE) {
        stack[sp++] = v;
        v = anc[v];
    }
    while (sp) {
        unsigned x = stack[--sp], a = anc[x];
        if (semi[label[a]] < semi[label[x]])
            label[x] = label[a];
        anc[x] = anc[a];
    }
}

static unsigned lt_eval(unsigned v, unsigned *anc, unsigned *label, const unsigned *semi,
                        unsigned *stack)
{
    if (anc[v] == WA_NONE)
        return v;
    lt_compress(v, anc, label, semi, stack);
    return label[v];
}

/* cfg->idom of every reachable block (the entry its own), WA_NONE elsewhere. */
static wa_status lt_idoms(wa_cfg *cfg, wa_context *ctx)
{
    unsigned nb = cfg->nblocks;
    unsigned *dfn = NULL, *vertex = NULL, *parent = NULL, *semi = NULL, *anc = NULL, *label = NULL,
             *bhead = NULL, *bnext = NULL, *stack = NULL, *next = NULL;
    wa_status st = WA_OK;
    if (!ALLOC(dfn, nb) || !ALLOC(vertex, nb) || !ALLOC(parent, nb) || !ALLOC(semi, nb) ||
        !ALLOC(anc, nb) || !ALLOC(label, nb) || !ALLOC(bhead, nb) || !ALLOC(bnext, nb) ||
        !ALLOC(stack, nb) || !ALLOC(next, nb)) {
        st = wa_error_nomem(ctx);
        goto done;
    }
    /* depth-first preorder from the entry; dfn[b] == WA_NONE: unreachable */
    for (unsigned b = 0; b < nb; b++) {
        dfn[b] = anc[b] = bhead[b] = WA_NONE;
        label[b] = b;
    }
    unsigned n = 0, sp = 0, entry = cfg->rpo[0];
    dfn[entry] = n;
    vertex[n++] = entry;
    parent[entry] = WA_NONE;
    next[entry] = cfg->succ.off[entry];
    stack[sp++] = entry;
    while (sp) {
        unsigned b = stack[sp - 1];
        if (next[b] == cfg->succ.off[b + 1]) {
            sp--;
            continue;
        }
        unsigned s = cfg->succ.data[next[b]++];
        if (dfn[s] != WA_NONE)
            continue;
        dfn[s] = n;
        vertex[n++] = s;
        parent[s] = b;
        next[s] = cfg->succ.off[s];
        stack[sp++] = s;
    }
    for (unsigned i = 0; i < n; i++)
        semi[vertex[i]] = i;
    for (unsigned i = n; i-- > 1;) {
        unsigned w = vertex[i];
        for (unsigned e = cfg->pred.off[w]; e < cfg->pred.off[w + 1]; e++) {
            unsigned v = cfg->pred.data[e];
            if (dfn[v] == WA_NONE)
                continue;
            unsigned u = lt_eval(v, anc, label, semi, stack);
            if (semi[u] < semi[w])
                semi[w] = semi[u];
        }
        unsigned sb = vertex[semi[w]];
        bnext[w] = bhead[sb];
        bhead[sb] = w;
        unsigned p = parent[w];
        anc[w] = p;
        for (unsigned v = bhead[p]; v != WA_NONE; v = bnext[v]) {
            unsigned u = lt_eval(v, anc, label, semi, stack);
            cfg->idom[v] = semi[u] < semi[v] ? u : p;
        }
        bhead[p] = WA_NONE;
    }
    for (unsigned i = 1; i < n; i++) {
        unsigned w = vertex[i];
        if (cfg->idom[w] != vertex[semi[w]])
            cfg->idom[w] = cfg->idom[cfg->idom[w]];
    }
    cfg->idom[entry] = entry;
done:
    wa_mem_free(ctx, dfn);
    wa_mem_free(ctx, vertex);
    wa_mem_free(ctx, parent);
    wa_mem_free(ctx, semi);
    wa_mem_free(ctx, anc);
    wa_mem_free(ctx, label);
    wa_mem_free(ctx, bhead);
    wa_mem_free(ctx, bnext);
    wa_mem_free(ctx, stack);
    wa_mem_free(ctx, next);
    return st;
}

static wa_status build_dominators(wa_cfg *cfg, wa_context *ctx)
{
    unsigned nb = cfg->nblocks;
    if (!ALLOC(cfg->idom, nb) || !ALLOC(cfg->dom_pre, nb) || !ALLOC(cfg->dom_post, nb))
        return wa_error_nomem(ctx);
    for (unsigned b = 0; b < nb; b++)
        cfg->idom[b] = WA_NONE;
    if (!cfg->nrpo)
        return WA_OK;
    unsigned entry = cfg->rpo[0];
    wa_status st = lt_idoms(cfg, ctx);
    if (st)
        return st;
    /* Dominator tree children (CSR), then DFS numbering for O(1) queries. */
    unsigned *coff = NULL, *cdat = NULL, *fill = NULL, *stack = NULL, *it = NULL;
    if (!ALLOC(coff, nb + 1) || !ALLOC(cdat, nb) || !ALLOC(fill, nb) || !ALLOC(stack, nb) ||
        !ALLOC(it, nb)) {
        wa_mem_free(ctx, coff);
        wa_mem_free(ctx, cdat);
        wa_mem_free(ctx, fill);
        wa_mem_free(ctx, stack);
        wa_mem_free(ctx, it);
        return wa_error_nomem(ctx);
    }
    for (unsigned b = 0; b < nb; b++)
        if (cfg->idom[b] != WA_NONE && b != entry)
            coff[cfg->idom[b] + 1]++;
    for (unsigned b = 0; b < nb; b++)
        coff[b + 1] += coff[b];
    for (unsigned b = 0; b < nb; b++)
        if (cfg->idom[b] != WA_NONE && b != entry) {
            unsigned p = cfg->idom[b];
            cdat[coff[p] + fill[p]++] = b;
        }
    unsigned counter = 0, sp = 0;
    stack[sp++] = entry;
    it[entry] = coff[entry];
    cfg->dom_pre[entry] = counter++;
    while (sp) {
        unsigned b = stack[sp - 1];
        if (it[b] < coff[b + 1]) {
            unsigned c = cdat[it[b]++];
            it[c] = coff[c];
            cfg->dom_pre[c] = counter++;
            stack[sp++] = c;
        } else {
            cfg->dom_post[b] = counter++;
            sp--;
        }
    }
    cfg->idom[entry] = WA_NONE;
    wa_mem_free(ctx, coff);
    wa_mem_free(ctx, cdat);
    wa_mem_free(ctx, fill);
    wa_mem_free(ctx, stack);
    wa_mem_free(ctx, it);
    return WA_OK;
}

int wa_cfg_dominates(const wa_cfg *cfg, unsigned a, unsigned b)
{
    if (cfg->rpo_index[a] == WA_NONE || cfg->rpo_index[b] == WA_NONE)
        return 0;
    return cfg->dom_pre[a] <= cfg->dom_pre[b] && cfg->dom_post[b] <= cfg->dom_post[a];
}

/* ---- natural loops ------------------------------------------------------------------------------ */

typedef struct loop_tmp {
    unsigned header;
    unsigned size;
    unsigned body_off; /* into a shared body array */
} loop_tmp;

static int cmp_loop_size_desc(const void *a, const void *b)
{
    const loop_tmp *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return x->header < y->header ? -1 : x->header > y->header;
}

static wa_status build_loops(wa_cfg *cfg, wa_context *ctx)
{
    unsigned nb = cfg->nblocks;
    if (!ALLOC(cfg->block_loop, nb) || !ALLOC(cfg->block_depth, nb))
        return wa_error_nomem(ctx);
    for (unsigned b = 0; b < nb; b++)
        cfg->block_loop[b] = WA_NONE;
    /* Headers: targets of back edges (the target dominates the source). */
    unsigned *is_header = NULL, *stamp = NULL, *work = NULL, *body;
    loop_tmp *tmp;
    unsigned nheaders = 0;
    if (!ALLOC(is_header, nb) || !ALLOC(stamp, nb) || !ALLOC(work, nb)) {
        wa_mem_free(ctx, is_header);
        wa_mem_free(ctx, stamp);
        wa_mem_free(ctx, work);
        return wa_error_nomem(ctx);
    }
    for (unsigned b = 0; b < nb; b++)
        for (unsigned e = cfg->succ.off[b]; e < cfg->succ.off[b + 1]; e++) {
            unsigned h = cfg->succ.data[e];
            if (wa_cfg_dominates(cfg, h, b) && !is_header[h]) {
                is_header[h] = 1;
                nheaders++;
            }
        }
    if (!ALLOC(tmp, nheaders)) {
        wa_mem_free(ctx, is_header);
        wa_mem_free(ctx, stamp);
        wa_mem_free(ctx, work);
        return wa_error_nomem(ctx);
    }
    /* Body of each header's loop: blocks reaching a latch without passing the header. */
    size_t cap = 0, used = 0;
    body = NULL;
    unsigned nl = 0;
    for (unsigned h = 0; h < nb; h++) {
        if (!is_header[h])
            continue;
        unsigned sp = 0, size = 1;
        stamp[h] = nl + 1;
        if (used + 1 > cap) {
            size_t ncap = cap ? cap * 2 : 64;
            unsigned *p = wa_mem_realloc(ctx, body, ncap * sizeof(unsigned));
            if (!p)
                goto nomem;
            body = p;
            cap = ncap;
        }
        size_t start = used;
        body[used++] = h;
        for (unsigned e = cfg->pred.off[h]; e < cfg->pred.off[h + 1]; e++) {
            unsigned l = cfg->pred.data[e];
            if (wa_cfg_dominates(cfg, h, l) && stamp[l] != nl + 1) {
                stamp[l] = nl + 1;
                work[sp++] = l;
            }
        }
        while (sp) {
            unsigned b = work[--sp];
            if (used + 1 > cap) {
                size_t ncap = cap * 2;
                unsigned *p = wa_mem_realloc(ctx, body, ncap * sizeof(unsigned));
                if (!p)
                    goto nomem;
                body = p;
                cap = ncap;
            }
            body[used++] = b;
            size++;
            for (unsigned e = cfg->pred.off[b]; e < cfg->pred.off[b + 1]; e++) {
                unsigned p = cfg->pred.data[e];
                if (stamp[p] != nl + 1 && cfg->rpo_index[p] != WA_NONE) {
                    stamp[p] = nl + 1;
                    work[sp++] = p;
                }
            }
        }
        tmp[nl].header = h;
        tmp[nl].size = size;
        tmp[nl].body_off = (unsigned)start;
        nl++;
    }
    /* Outer loops first, so inner loops overwrite block_loop and find their parent. */
    qsort(tmp, nl, sizeof(loop_tmp), cmp_loop_size_desc);
    if (!ALLOC(cfg->loops, nl))
        goto nomem;
    cfg->nloops = nl;
    memset(stamp, 0, nb * sizeof(unsigned));
    for (unsigned l = 0; l < nl; l++) {
        wa_loop_info *L = &cfg->loops[l];
        L->header = tmp[l].header;
        L->parent = cfg->block_loop[L->header];
        L->depth = L->parent == WA_NONE ? 1 : cfg->loops[L->parent].depth + 1;
        L->num_blocks = tmp[l].size;
        for (unsigned k = 0; k < tmp[l].size; k++) {
            unsigned b = body[tmp[l].body_off + k];
            cfg->block_loop[b] = l;
            cfg->block_depth[b] = L->depth;
            stamp[b] = l + 1;
        }
        unsigned exits = 0;
        for (unsigned k = 0; k < tmp[l].size; k++) {
            unsigned b = body[tmp[l].body_off + k];
            for (unsigned e = cfg->succ.off[b]; e < cfg->succ.off[b + 1]; e++)
                exits += stamp[cfg->succ.data[e]] != l + 1;
        }
        L->num_exits = exits;
    }
    wa_mem_free(ctx, body);
    wa_mem_free(ctx, tmp);
    wa_mem_free(ctx, is_header);
    wa_mem_free(ctx, stamp);
    wa_mem_free(ctx, work);
    return WA_OK;
nomem:
    wa_mem_free(ctx, body);
    wa_mem_free(ctx, tmp);
    wa_mem_free(ctx, is_header);
    wa_mem_free(ctx, stamp);
    wa_mem_free(ctx, work);
    return wa_error_nomem(ctx);
}

wa_status wa_cfg_build(wa_cfg *cfg, const wa_program *prog)
{
    memset(cfg, 0, sizeof(*cfg));
    wa_status st = build_blocks(cfg, prog);
    if (!st)
        st = build_edges(cfg, prog);
    if (!st)
        st = build_rpo(cfg, prog->ctx);
    if (!st)
        st = build_dominators(cfg, prog->ctx);
    if (!st)
        st = build_loops(cfg, prog->ctx);
    if (st)
        wa_cfg_free(cfg, prog->ctx);
    return st;
}
