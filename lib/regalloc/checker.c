/* lib/regalloc/checker.c — an independent check of an allocation.

   It shares nothing with the allocator's liveness but the classification of
   where EXEC may be partial (exec_mask.c): its own block splitting, and a plain
   iterative dataflow over register components (every component of every
   virtual register, and every physical register, is one element) with sorted
   sets per block, repeated over the blocks in reverse order until nothing
   changes. Where a VGPR/AGPR write under a partial EXEC keeps the other lanes,
   the old value stays live up to the write wherever a definition may have
   reached it (live = S | (A & MD), computed here as three dataflows). At each
   instruction it maps the values live after it (plus those it
   writes) and the values live before it to physical registers, and reports any
   register that two values hold at once. It also checks alignment, limits,
   reserved registers and the MFMA operand rules. Memory is linear in the size of
   the live sets, not in blocks x registers. */
#include "regalloc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chk {
    const wa_program *prog;
    wa_context *ctx;
    const wa_regalloc_result *res;
    wa_regalloc_options opts;
    unsigned *base;        /* vreg -> first component bit, WA_NONE if unused */
    unsigned *bit_vreg;    /* component bit -> vreg */
    unsigned nbits, phys0;
    unsigned errors;
} chk;

#define MAX_REPORTS 50u

typedef struct vecu {
    unsigned *v;
    unsigned n, cap;
} vecu;

static int vecu_push(wa_context *ctx, vecu *a, unsigned x)
{
    if (a->n == a->cap) {
        void *p = a->v;
        if (wa_grow(ctx, &p, &a->cap, a->n + 1, sizeof(unsigned)))
            return -1;
        a->v = p;
    }
    a->v[a->n++] = x;
    return 0;
}

static void cerr(chk *C, const wa_instr *in, const char *fmt, ...) WA_PRINTF(3, 4);
static void cerr(chk *C, const wa_instr *in, const char *fmt, ...)
{
    C->errors++;
    if (C->errors > MAX_REPORTS)
        return;
    va_list ap;
    va_start(ap, fmt);
    wa_verror(C->ctx, WA_E_VALIDATE, in ? wa_instr_loc(C->prog, in) : WA_LOC_NONE, fmt, ap);
    va_end(ap);
}

static char letter(unsigned cls)
{
    return cls == WA_REG_VGPR ? 'v' : cls == WA_REG_SGPR ? 's' : cls == WA_REG_AGPR ? 'a' : '?';
}

/* Component bits an operand touches: calls f for each bit. */
static unsigned op_bits(const chk *C, const wa_operand *o, unsigned *bits)
{
    unsigned n = 0;
    if (o->kind == WA_OPND_VIRT && C->base[o->id] != WA_NONE) {
        for (unsigned c = o->first; c < o->first + o->count && n < 32; c++)
            bits[n++] = C->base[o->id] + c;
    } else if (o->kind == WA_OPND_PHYS) {
        unsigned lim = o->reg_class == WA_REG_SGPR ? 128u : 256u;
        for (unsigned r = o->id; r < o->id + o->count && r < lim && n < 32; r++)
            bits[n++] = C->phys0 + wa_phys_unit((wa_reg_class)o->reg_class, r);
    }
    return n;
}

/* Physical unit a component bit lives in (after allocation). */
static unsigned bit_unit(const chk *C, unsigned bit, unsigned *vreg, unsigned *comp)
{
    if (bit >= C->phys0) {
        *vreg = WA_NONE;
        *comp = bit - C->phys0;
        return bit - C->phys0;
    }
    unsigned v = C->bit_vreg[bit];
    *vreg = v;
    *comp = bit - C->base[v];
    return wa_phys_unit((wa_reg_class)C->res->cls[v], C->res->reg[v] + *comp);
}

static void name_bit(const chk *C, unsigned bit, char *buf, size_t n)
{
    unsigned v, c;
    unsigned u = bit_unit(C, bit, &v, &c);
    if (v == WA_NONE)
        snprintf(buf, n, "%c%u", letter(wa_unit_class(u)), wa_unit_reg(u));
    else if (C->prog->vregs[v].size == 1)
        snprintf(buf, n, "%%%c%u", letter(C->prog->vregs[v].cls), v);
    else
        snprintf(buf, n, "%%%c%u[%u]", letter(C->prog->vregs[v].cls), v, c);
}

/* The walk keeps, for every physical unit, the live value holding it
   (WA_NONE if none): a value becoming live checks its unit, so every moment is
   checked without rescanning the whole live set. */
static void conflict(chk *C, const wa_instr *in, unsigned a, unsigned b, unsigned u,
                     const char *where)
{
    char n1[48], n2[48];
    name_bit(C, a, n1, sizeof(n1));
    name_bit(C, b, n2, sizeof(n2));
    cerr(C, in, "%s and %s are both live %s this instruction but share %c%u", n1, n2, where,
         letter(wa_unit_class(u)), wa_unit_reg(u));
}

/* Makes `bit` live; reports a unit another live value holds. */
static void hold(chk *C, unsigned *owner, unsigned bit, const wa_instr *in, const char *where)
{
    unsigned v, c;
    unsigned u = bit_unit(C, bit, &v, &c);
    if (u >= WA_UNITS)
        return;
    if (owner[u] != WA_NONE && owner[u] != bit)
        conflict(C, in, owner[u], bit, u, where);
    owner[u] = bit;
}

static void release(chk *C, unsigned *owner, unsigned bit)
{
    unsigned v, c;
    unsigned u = bit_unit(C, bit, &v, &c);
    if (u < WA_UNITS && owner[u] == bit)
        owner[u] = WA_NONE;
}

static void phys_range(const chk *C, const wa_operand *o, unsigned *cls, unsigned *first,
                       unsigned *count)
{
    *cls = o->reg_class;
    *count = o->count;
    *first = o->kind == WA_OPND_VIRT ? C->res->reg[o->id] + o->first : o->id;
}

static void check_mfma(chk *C, const wa_instr *in)
{
    const wa_operand *d = &in->ops[0];
    if (d->kind != WA_OPND_VIRT && d->kind != WA_OPND_PHYS)
        return;
    unsigned dc, df, dn;
    phys_range(C, d, &dc, &df, &dn);
    const wa_isa_info *info = wa_isa(in->op);
    for (unsigned k = 1; k < in->nops && k < info->num_operands; k++) {
        const wa_operand *s = &in->ops[k];
        if (s->kind != WA_OPND_VIRT && s->kind != WA_OPND_PHYS)
            continue;
        unsigned sc, sf, sn;
        phys_range(C, s, &sc, &sf, &sn);
        if (sc != dc || sf >= df + dn || df >= sf + sn)
            continue;
        if (wa_mfma_overlap_allowed(info, k, sf == df && sn == dn))
            continue;
        cerr(C, in, "MFMA vdst %c[%u:%u] overlaps %s%s %c[%u:%u] (a %u-register result is early-clobber)",
             letter(dc), df, df + dn - 1, info->operands[k].name, k == 3 ? " (partially)" : "",
             letter(sc), sf, sf + sn - 1, dn);
    }
}

/* ---- sorted sets of component bits -------------------------------------------------- */

typedef struct bset {
    unsigned *v;
    unsigned n, cap;
} bset;

static int cmp_bit(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* out = a U b (out may not alias a or b) */
static unsigned set_union(unsigned *out, const unsigned *a, unsigned na, const unsigned *b,
                          unsigned nb)
{
    unsigned i = 0, j = 0, n = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j])
            out[n++] = a[i++];
        else if (b[j] < a[i])
            out[n++] = b[j++];
        else {
            out[n++] = a[i++];
            j++;
        }
    }
    while (i < na)
        out[n++] = a[i++];
    while (j < nb)
        out[n++] = b[j++];
    return n;
}

/* out = a - b */
static unsigned set_minus(unsigned *out, const unsigned *a, unsigned na, const unsigned *b,
                          unsigned nb)
{
    unsigned i = 0, j = 0, n = 0;
    while (i < na) {
        while (j < nb && b[j] < a[i])
            j++;
        if (j >= nb || b[j] != a[i])
            out[n++] = a[i];
        i++;
    }
    return n;
}

static int bit_in(const uint64_t *m, unsigned b) { return (int)((m[b >> 6] >> (b & 63)) & 1u); }

/* A row per block of sorted bits (CSR). */
typedef struct rows {
    unsigned *off;
    vecu v;
} rows;

typedef struct cfgc {
    unsigned n, nb;
    unsigned *blk, *lbl, *bfirst;
    const uint8_t *partial;       /* per item: EXEC may be partial (NULL: never) */
    rows use, wuse, def;          /* per block: read before written (ordinary / weak), written */
    unsigned *pred_off, *preds;   /* predecessors (CSR) */
    uint8_t *reach;
    bset *s_in, *a_in, *md_in;    /* live-in (ordinary reads), live-in (all reads), may-defined */
    uint8_t *md_all;              /* unreachable: everything may be defined */
    unsigned *t1, *t2, *t3;       /* scratch sets (nbits each) */
} cfgc;

/* A write that keeps the other lanes of a VGPR/AGPR (EXEC may be partial): also
   a weak read of the old value, which counts only where one may be defined. For
   a physical register an ordinary read (it always holds something). */
static int weak_read(const cfgc *G, unsigned i, const wa_instr *in, const wa_isa_info *info,
                     unsigned k)
{
    return G->partial && G->partial[i] && wa_lane_masked_write(in, info, k);
}

/* Successors of block b: taken target, fall-through. */
static unsigned succs_of(const chk *C, const cfgc *G, unsigned b, unsigned s[2])
{
    const wa_program *prog = C->prog;
    unsigned last = (b + 1 < G->nb ? G->bfirst[b + 1] : G->n) - 1;
    const wa_instr *t = &prog->instrs[last];
    const wa_isa_info *ti = wa_isa(t->op);
    unsigned ns = 0;
    int lk = wa_branch_label_index(t);
    if (lk >= 0 && G->lbl[t->ops[lk].id] != WA_NONE)
        s[ns++] = G->lbl[t->ops[lk].id];
    if (!(ti->flags & (WA_IF_BRANCH | WA_IF_ENDPGM)) && b + 1 < G->nb && !(ns == 1 && s[0] == b + 1))
        s[ns++] = b + 1;
    return ns;
}

/* Union of `sets` over the successors of b into out. */
static unsigned union_succ(const chk *C, const cfgc *G, const bset *sets, unsigned b, unsigned *out)
{
    unsigned s[2], ns = succs_of(C, G, b, s);
    if (ns == 0)
        return 0;
    const bset *a = &sets[s[0]];
    if (ns == 1) {
        if (a->n)
            memcpy(out, a->v, a->n * sizeof(unsigned));
        return a->n;
    }
    const bset *c = &sets[s[1]];
    return set_union(out, a->v, a->n, c->v, c->n);
}

static unsigned set_inter(unsigned *out, const unsigned *a, unsigned na, const unsigned *b,
                          unsigned nb)
{
    unsigned i = 0, j = 0, n = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j])
            i++;
        else if (b[j] < a[i])
            j++;
        else {
            out[n++] = a[i++];
            j++;
        }
    }
    return n;
}

static int set_has(const bset *s, unsigned x)
{
    unsigned lo = 0, hi = s->n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (s->v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && s->v[lo] == x;
}

/* Stores `n` sorted bits from src into set; 1 if it changed. -1: no memory. */
static int set_store(wa_context *ctx, bset *set, const unsigned *src, unsigned n)
{
    if (n == set->n && (n == 0 || memcmp(set->v, src, n * sizeof(unsigned)) == 0))
        return 0;
    void *p = set->v;
    if (wa_grow(ctx, &p, &set->cap, n, sizeof(unsigned)))
        return -1;
    set->v = p;
    if (n)
        memcpy(set->v, src, n * sizeof(unsigned));
    set->n = n;
    return 1;
}

static const unsigned *row(const rows *r, unsigned b, unsigned *n)
{
    *n = r->off[b + 1] - r->off[b];
    return r->v.v + r->off[b];
}

/* Backward liveness with the reads of `r1` (and `r2`, may be NULL) into `in`. */
static wa_status backward(const chk *C, cfgc *G, const rows *r1, const rows *r2, bset *in)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned b = G->nb; b-- > 0;) {
            unsigned nu, nw = 0, nd;
            const unsigned *u = row(r1, b, &nu), *w = r2 ? row(r2, b, &nw) : NULL;
            const unsigned *d = row(&G->def, b, &nd);
            unsigned no = union_succ(C, G, in, b, G->t1);
            unsigned nm = set_minus(G->t2, G->t1, no, d, nd);
            unsigned n1 = set_union(G->t1, u, nu, G->t2, nm);
            unsigned n2 = n1;
            const unsigned *res = G->t1;
            if (nw) {
                n2 = set_union(G->t3, G->t1, n1, w, nw);
                res = G->t3;
            }
            int c = set_store(C->ctx, &in[b], res, n2);
            if (c < 0)
                return WA_E_NOMEM;
            changed |= c;
        }
    }
    return WA_OK;
}

/* live_out(b) = S_out | (A_out & MD_out) into G->t1 */
static unsigned live_out_of(const chk *C, cfgc *G, unsigned b)
{
    unsigned ns = union_succ(C, G, G->s_in, b, G->t1);
    if (!G->partial)
        return ns;
    unsigned na = union_succ(C, G, G->a_in, b, G->t2);
    if (!G->md_all[b]) {
        unsigned nd;
        const unsigned *d = row(&G->def, b, &nd);
        unsigned nm = set_union(G->t3, G->md_in[b].v, G->md_in[b].n, d, nd);
        na = set_inter(G->t2, G->t2, na, G->t3, nm); /* in place: it only shrinks */
    }
    unsigned n = set_union(G->t3, G->t1, ns, G->t2, na);
    if (n)
        memcpy(G->t1, G->t3, n * sizeof(unsigned));
    return n;
}

static wa_status dataflow(chk *C, cfgc *G)
{
    const wa_program *prog = C->prog;
    wa_context *ctx = C->ctx;
    unsigned n = G->n, nb = 0, bits[32];
    for (unsigned i = 0; i < n; i++) {
        int lead = i == 0 || prog->instrs[i].op == WA_OP_LABEL ||
                   (wa_isa(prog->instrs[i - 1].op)->flags &
                    (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM));
        nb += lead;
        G->blk[i] = nb - 1;
        if (prog->instrs[i].op == WA_OP_LABEL)
            G->lbl[prog->instrs[i].ops[0].id] = nb - 1;
    }
    G->nb = nb;
    G->bfirst = wa_mem_calloc(ctx, nb + 1, sizeof(unsigned));
    G->use.off = wa_mem_calloc(ctx, nb + 1, sizeof(unsigned));
    G->wuse.off = wa_mem_calloc(ctx, nb + 1, sizeof(unsigned));
    G->def.off = wa_mem_calloc(ctx, nb + 1, sizeof(unsigned));
    G->s_in = wa_mem_calloc(ctx, nb + 1, sizeof(bset));
    G->a_in = wa_mem_calloc(ctx, nb + 1, sizeof(bset));
    G->md_in = wa_mem_calloc(ctx, nb + 1, sizeof(bset));
    G->md_all = wa_mem_calloc(ctx, nb + 1, 1);
    G->reach = wa_mem_calloc(ctx, nb + 1, 1);
    G->pred_off = wa_mem_calloc(ctx, nb + 2, sizeof(unsigned));
    G->preds = wa_mem_calloc(ctx, 2 * (size_t)nb + 1, sizeof(unsigned));
    G->t1 = wa_mem_alloc(ctx, ((size_t)C->nbits + 1) * sizeof(unsigned));
    G->t2 = wa_mem_alloc(ctx, ((size_t)C->nbits + 1) * sizeof(unsigned));
    G->t3 = wa_mem_alloc(ctx, ((size_t)C->nbits + 1) * sizeof(unsigned));
    unsigned *defd = wa_mem_calloc(ctx, C->nbits + 1, sizeof(unsigned)); /* block + 1 */
    unsigned *used = wa_mem_calloc(ctx, C->nbits + 1, sizeof(unsigned));
    unsigned *wused = wa_mem_calloc(ctx, C->nbits + 1, sizeof(unsigned));
    unsigned *stack = wa_mem_calloc(ctx, nb + 1, sizeof(unsigned));
    wa_status st = WA_E_NOMEM;
    if (!G->bfirst || !G->use.off || !G->wuse.off || !G->def.off || !G->s_in || !G->a_in ||
        !G->md_in || !G->md_all || !G->reach || !G->pred_off || !G->preds || !G->t1 || !G->t2 ||
        !G->t3 || !defd || !used || !wused || !stack)
        goto out;
    for (unsigned i = n; i-- > 0;)
        G->bfirst[G->blk[i]] = i;
    /* never NULL, so that the row pointers below are always valid */
    if (vecu_push(ctx, &G->use.v, 0) || vecu_push(ctx, &G->wuse.v, 0) ||
        vecu_push(ctx, &G->def.v, 0))
        goto out;
    G->use.v.n = G->wuse.v.n = G->def.v.n = 0;

    /* reads before any write in the block (ordinary, weak) and writes, per block */
    for (unsigned b = 0; b < nb; b++) {
        unsigned end = b + 1 < nb ? G->bfirst[b + 1] : n;
        G->use.off[b] = G->use.v.n;
        G->wuse.off[b] = G->wuse.v.n;
        G->def.off[b] = G->def.v.n;
        for (unsigned i = G->bfirst[b]; i < end; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            for (int pass = 0; pass < 2; pass++)
                for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
                    unsigned role = wa_instr_role(in, info, k);
                    int weak = !pass && weak_read(G, i, in, info, k);
                    if (!(role & (pass ? WA_ROLE_DEF : WA_ROLE_USE)) && !weak)
                        continue;
                    unsigned m = op_bits(C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++) {
                        unsigned x = bits[j];
                        if (pass) {
                            if (defd[x] != b + 1) {
                                defd[x] = b + 1;
                                if (vecu_push(ctx, &G->def.v, x))
                                    goto out;
                            }
                        } else if (defd[x] == b + 1) {
                            /* written earlier in the block */
                        } else if (weak && x < C->phys0) {
                            if (wused[x] != b + 1) {
                                wused[x] = b + 1;
                                if (vecu_push(ctx, &G->wuse.v, x))
                                    goto out;
                            }
                        } else if (used[x] != b + 1) {
                            used[x] = b + 1;
                            if (vecu_push(ctx, &G->use.v, x))
                                goto out;
                        }
                    }
                }
        }
        rows *all[3] = { &G->use, &G->wuse, &G->def };
        for (unsigned r = 0; r < 3; r++) {
            unsigned from = all[r]->off[b], cnt = all[r]->v.n - from;
            if (cnt > 1)
                qsort(all[r]->v.v + from, cnt, sizeof(unsigned), cmp_bit);
        }
    }
    G->use.off[nb] = G->use.v.n;
    G->wuse.off[nb] = G->wuse.v.n;
    G->def.off[nb] = G->def.v.n;

    /* live_in = use | (live_out - def), live_out = U live_in(succ), repeated over
       the blocks in reverse order until no set changes: once with the ordinary
       reads (S), once with all reads (A) */
    if ((st = backward(C, G, &G->use, NULL, G->s_in)) != WA_OK)
        goto out;
    st = WA_E_NOMEM;
    if (G->partial) {
        if ((st = backward(C, G, &G->use, &G->wuse, G->a_in)) != WA_OK)
            goto out;
        st = WA_E_NOMEM;
        /* reachability and predecessors */
        unsigned sp = 0;
        if (nb) {
            G->reach[0] = 1;
            stack[sp++] = 0;
        }
        while (sp) {
            unsigned b = stack[--sp], s[2], ns = succs_of(C, G, b, s);
            for (unsigned k = 0; k < ns; k++)
                if (!G->reach[s[k]]) {
                    G->reach[s[k]] = 1;
                    stack[sp++] = s[k];
                }
        }
        for (unsigned b = 0; b < nb; b++) {
            unsigned s[2], ns = succs_of(C, G, b, s);
            for (unsigned k = 0; k < ns; k++)
                G->pred_off[s[k] + 2]++;
        }
        for (unsigned b = 0; b <= nb; b++)
            G->pred_off[b + 1] += G->pred_off[b];
        for (unsigned b = 0; b < nb; b++) {
            unsigned s[2], ns = succs_of(C, G, b, s);
            for (unsigned k = 0; k < ns; k++)
                G->preds[G->pred_off[s[k] + 1]++] = b;
        }
        /* may be defined, forwards: MD_in(b) = U MD_out(p) over reachable
           predecessors, MD_out = MD_in | def; everything in unreachable code */
        for (unsigned b = 0; b < nb; b++)
            G->md_all[b] = !G->reach[b];
        for (int changed = 1; changed;) {
            changed = 0;
            for (unsigned b = 0; b < nb; b++) {
                if (G->md_all[b])
                    continue;
                unsigned cur = 0;
                for (unsigned e = G->pred_off[b]; e < G->pred_off[b + 1]; e++) {
                    unsigned p = G->preds[e], nd;
                    if (!G->reach[p])
                        continue;
                    const unsigned *d = row(&G->def, p, &nd);
                    unsigned n1 = set_union(G->t2, G->md_in[p].v, G->md_in[p].n, d, nd);
                    unsigned n2 = set_union(G->t3, G->t1, cur, G->t2, n1);
                    memcpy(G->t1, G->t3, n2 * sizeof(unsigned));
                    cur = n2;
                }
                int c = set_store(ctx, &G->md_in[b], G->t1, cur);
                if (c < 0)
                    goto out;
                changed |= c;
            }
        }
    }
    st = WA_OK;
out:
    wa_mem_free(ctx, defd);
    wa_mem_free(ctx, used);
    wa_mem_free(ctx, wused);
    wa_mem_free(ctx, stack);
    return st;
}

/* Walks each block backwards from its live-out set, keeping the unit owners of
   the live values. */
static wa_status walk(chk *C, cfgc *G)
{
    const wa_program *prog = C->prog;
    wa_context *ctx = C->ctx;
    unsigned bits[32];
    size_t W = (C->nbits + 63) / 64;
    uint64_t *cur = wa_mem_calloc(ctx, W + 1, sizeof(uint64_t));
    unsigned *owner = wa_mem_alloc(ctx, WA_UNITS * sizeof(unsigned));
    unsigned *defd = G->partial ? wa_mem_calloc(ctx, C->nbits + 1, sizeof(unsigned)) : NULL;
    vecu set = { 0 };   /* bits set in cur */
    vecu wmd = { 0 };   /* per weak read of the block, in order: may be defined there */
    wa_status st = WA_E_NOMEM;
    if (!cur || !owner || (G->partial && !defd))
        goto out;
    for (unsigned u = 0; u < WA_UNITS; u++)
        owner[u] = WA_NONE;
    for (unsigned b = 0; b < G->nb; b++) {
        unsigned first = G->bfirst[b], end = b + 1 < G->nb ? G->bfirst[b + 1] : G->n;
        const wa_instr *last = &prog->instrs[end - 1];
        /* forwards: whether each weak read's old value may be defined */
        wmd.n = 0;
        for (unsigned i = first; G->partial && i < end; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
                if (!weak_read(G, i, in, info, k))
                    continue;
                unsigned m = op_bits(C, &in->ops[k], bits);
                for (unsigned j = 0; j < m; j++) {
                    unsigned x = bits[j];
                    int md = x >= C->phys0 || G->md_all[b] || defd[x] == b + 1 ||
                             set_has(&G->md_in[b], x);
                    if (vecu_push(ctx, &wmd, (unsigned)md))
                        goto out;
                }
            }
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (wa_instr_role(in, info, k) & WA_ROLE_DEF) {
                    unsigned m = op_bits(C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++)
                        defd[bits[j]] = b + 1;
                }
        }
        unsigned no = live_out_of(C, G, b);
        set.n = 0;
        for (unsigned k = 0; k < no; k++) {
            unsigned x = G->t1[k];
            cur[x >> 6] |= 1ull << (x & 63);
            if (vecu_push(ctx, &set, x))
                goto out;
            hold(C, owner, x, last, "after");
        }
        unsigned wp = wmd.n;
        for (unsigned i = end; i-- > first;) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            if (info->flags & WA_IF_PSEUDO)
                continue;
            if (info->flags & WA_IF_MFMA)
                check_mfma(C, in);
            /* what it writes must not land on a value live after it */
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (wa_instr_role(in, info, k) & WA_ROLE_DEF) {
                    unsigned m = op_bits(C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++) {
                        unsigned d = bits[j], v, c;
                        unsigned u = bit_unit(C, d, &v, &c);
                        if (u < WA_UNITS && owner[u] != WA_NONE && owner[u] != d)
                            conflict(C, in, owner[u], d, u, "after");
                    }
                }
            /* before it: the written values die, the read ones are live */
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (wa_instr_role(in, info, k) & WA_ROLE_DEF) {
                    unsigned m = op_bits(C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++)
                        if (bit_in(cur, bits[j])) {
                            cur[bits[j] >> 6] &= ~(1ull << (bits[j] & 63));
                            release(C, owner, bits[j]);
                        }
                }
            /* this item's weak reads are the last entries of wmd not yet taken */
            unsigned nweak = 0;
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (weak_read(G, i, in, info, k))
                    nweak += op_bits(C, &in->ops[k], bits);
            unsigned wi = wp - nweak;
            wp = wi;
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++) {
                int weak = weak_read(G, i, in, info, k);
                if (!(wa_instr_role(in, info, k) & WA_ROLE_USE) && !weak)
                    continue;
                unsigned m = op_bits(C, &in->ops[k], bits);
                for (unsigned j = 0; j < m; j++) {
                    if (weak && !wmd.v[wi++])
                        continue; /* nothing defined to keep */
                    if (!bit_in(cur, bits[j])) {
                        cur[bits[j] >> 6] |= 1ull << (bits[j] & 63);
                        if (vecu_push(ctx, &set, bits[j]))
                            goto out;
                        hold(C, owner, bits[j], in, "before");
                    }
                }
            }
        }
        /* forget the block's owners: they are all live at its start */
        for (unsigned k = 0; k < set.n; k++) {
            unsigned x = set.v[k];
            if (bit_in(cur, x)) {
                cur[x >> 6] &= ~(1ull << (x & 63));
                release(C, owner, x);
            }
        }
    }
    st = WA_OK;
out:
    wa_mem_free(ctx, cur);
    wa_mem_free(ctx, owner);
    wa_mem_free(ctx, defd);
    wa_mem_free(ctx, set.v);
    wa_mem_free(ctx, wmd.v);
    return st;
}

static wa_status check_blocks(chk *C)
{
    wa_context *ctx = C->ctx;
    cfgc G;
    memset(&G, 0, sizeof(G));
    G.n = C->prog->ninstrs;
    G.blk = wa_mem_calloc(ctx, G.n + 1, sizeof(unsigned));
    G.lbl = wa_mem_alloc(ctx, ((size_t)C->prog->nlabels + 1) * sizeof(unsigned));
    uint8_t *partial = NULL;
    wa_status st = WA_E_NOMEM;
    if (G.blk && G.lbl) {
        for (unsigned l = 0; l <= C->prog->nlabels; l++)
            G.lbl[l] = WA_NONE;
        /* where EXEC may be partial: the one analysis shared with liveness */
        int writes = 0, any = 0;
        for (unsigned i = 0; i < G.n && !writes; i++)
            writes = wa_instr_writes_exec(&C->prog->instrs[i], wa_isa(C->prog->instrs[i].op));
        st = WA_OK;
        if (writes) {
            wa_cfg cfg;
            memset(&cfg, 0, sizeof(cfg));
            st = wa_cfg_build(&cfg, C->prog);
            if (!st)
                st = wa_exec_partial(&partial, &any, C->prog, &cfg);
            wa_cfg_free(&cfg, ctx);
        }
        G.partial = any ? partial : NULL;
        if (!st)
            st = dataflow(C, &G);
        if (!st)
            st = walk(C, &G);
    }
    for (unsigned b = 0; b < G.nb; b++) {
        if (G.s_in)
            wa_mem_free(ctx, G.s_in[b].v);
        if (G.a_in)
            wa_mem_free(ctx, G.a_in[b].v);
        if (G.md_in)
            wa_mem_free(ctx, G.md_in[b].v);
    }
    wa_mem_free(ctx, partial);
    wa_mem_free(ctx, G.s_in);
    wa_mem_free(ctx, G.a_in);
    wa_mem_free(ctx, G.md_in);
    wa_mem_free(ctx, G.md_all);
    wa_mem_free(ctx, G.reach);
    wa_mem_free(ctx, G.pred_off);
    wa_mem_free(ctx, G.preds);
    wa_mem_free(ctx, G.blk);
    wa_mem_free(ctx, G.lbl);
    wa_mem_free(ctx, G.bfirst);
    wa_mem_free(ctx, G.use.off);
    wa_mem_free(ctx, G.wuse.off);
    wa_mem_free(ctx, G.def.off);
    wa_mem_free(ctx, G.use.v.v);
    wa_mem_free(ctx, G.wuse.v.v);
    wa_mem_free(ctx, G.def.v.v);
    wa_mem_free(ctx, G.t1);
    wa_mem_free(ctx, G.t2);
    wa_mem_free(ctx, G.t3);
    return st;
}

wa_status wa_regalloc_check(unsigned *out_errors, const wa_program *prog,
                            const wa_regalloc_result *res, const wa_regalloc_options *opts)
{
    if (!prog || !res)
        return WA_E_INVALID;
    if (out_errors)
        *out_errors = 0;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    chk C;
    memset(&C, 0, sizeof(C));
    C.prog = prog;
    C.ctx = ctx;
    C.res = res;
    wa_status st = wa_regalloc_options_check(&C.opts, ctx, opts);
    if (st)
        return st;
    if (res->nvregs != prog->nvregs)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "the allocation is for a program with %u virtual registers, not %u",
                        res->nvregs, prog->nvregs);

    unsigned n = prog->ninstrs, nv = prog->nvregs;
    C.base = wa_mem_calloc(ctx, nv + 1, sizeof(unsigned));
    if (!C.base)
        return wa_error_nomem(ctx);
    unsigned char *used = wa_mem_calloc(ctx, nv + 1, 1);
    if (!used) {
        wa_mem_free(ctx, C.base);
        return wa_error_nomem(ctx);
    }
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < prog->instrs[i].nops; k++)
            if (prog->instrs[i].ops[k].kind == WA_OPND_VIRT)
                used[prog->instrs[i].ops[k].id] = 1;

    /* 1. every used register allocated, in its class, aligned, inside the limits */
    for (unsigned v = 0; v < nv; v++) {
        C.base[v] = WA_NONE;
        if (!used[v])
            continue;
        const wa_vreg *vr = &prog->vregs[v];
        unsigned reg = res->reg[v];
        char l = letter(vr->cls);
        if (reg == WA_NONE) {
            cerr(&C, NULL, "%%%c%u has no register", l, v);
            continue;
        }
        C.base[v] = C.nbits;
        C.nbits += vr->size;
        if (res->cls[v] != vr->cls || res->size[v] != vr->size) {
            cerr(&C, NULL, "%%%c%u: class or size differs from the program", l, v);
            continue;
        }
        unsigned align = wa_regalloc_align(prog->target, (wa_reg_class)vr->cls, vr->size, vr->align);
        if (reg % align)
            cerr(&C, NULL, "%%%c%u in %c%u is not aligned to %u", l, v, l, reg, align);
        unsigned limit = vr->cls == WA_REG_VGPR ? C.opts.max_vgprs
                       : vr->cls == WA_REG_SGPR ? C.opts.max_sgprs : C.opts.max_agprs;
        const uint32_t *rsv = vr->cls == WA_REG_VGPR ? C.opts.reserved_vgprs
                            : vr->cls == WA_REG_SGPR ? C.opts.reserved_sgprs : C.opts.reserved_agprs;
        if (reg + vr->size > limit)
            cerr(&C, NULL, "%%%c%u in %c[%u:%u] exceeds the limit of %u registers", l, v, l, reg,
                 reg + vr->size - 1, limit);
        for (unsigned r = reg; r < reg + vr->size && r < 256; r++)
            if ((vr->cls != WA_REG_SGPR || r < 128) && wa_reserved_bit(rsv, r))
                cerr(&C, NULL, "%%%c%u uses reserved register %c%u", l, v, l, r);
    }
    wa_mem_free(ctx, used);
    /* the program's own physical registers within the limits */
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < prog->instrs[i].nops; k++) {
            const wa_operand *o = &prog->instrs[i].ops[k];
            if (o->kind != WA_OPND_PHYS)
                continue;
            unsigned limit = o->reg_class == WA_REG_VGPR ? C.opts.max_vgprs
                           : o->reg_class == WA_REG_SGPR ? C.opts.max_sgprs : C.opts.max_agprs;
            if (o->id + o->count > limit)
                cerr(&C, &prog->instrs[i], "the program uses %c%u, beyond the limit of %u registers",
                     letter(o->reg_class), o->id + o->count - 1, limit);
        }
    C.bit_vreg = wa_mem_calloc(ctx, C.nbits + 1, sizeof(unsigned));
    if (!C.bit_vreg) {
        wa_mem_free(ctx, C.base);
        return wa_error_nomem(ctx);
    }
    for (unsigned v = 0; v < nv; v++)
        if (C.base[v] != WA_NONE)
            for (unsigned c = 0; c < prog->vregs[v].size; c++)
                C.bit_vreg[C.base[v] + c] = v;
    C.phys0 = C.nbits;
    C.nbits += WA_UNITS;

    /* 2. blocks and liveness (own splitting and dataflow), 3. the walk */
    st = check_blocks(&C);
    wa_mem_free(ctx, C.base);
    wa_mem_free(ctx, C.bit_vreg);
    if (st)
        return wa_error_nomem(ctx);
    if (C.errors > MAX_REPORTS)
        wa_note(ctx, WA_LOC_NONE, "%u more problems not shown", C.errors - MAX_REPORTS);
    if (ctx->debug & WA_DEBUG_REGALLOC)
        wa_log(ctx, "[REGALLOC] checker: %u instructions, %u values, %u problems", n, nv, C.errors);
    if (out_errors)
        *out_errors = C.errors;
    return C.errors ? WA_E_VALIDATE : WA_OK;
}
