/* lib/regalloc/checker.c — an independent check of an allocation.

   It shares nothing with the allocator's liveness: its own block splitting, and
   a plain iterative bitset dataflow over register components (every component of
   every virtual register, and every physical register, is one bit). At each
   instruction it maps the values live after it (plus those it writes) and the
   values live before it to physical registers, and reports any register that two
   values hold at once. It also checks alignment, limits, reserved registers and
   the MFMA operand rules. */
#include "regalloc_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct chk {
    const wa_program *prog;
    wa_context *ctx;
    const wa_regalloc_result *res;
    wa_regalloc_options opts;
    unsigned *base;        /* vreg -> first component bit, WA_NONE if unused */
    unsigned *bit_vreg;    /* component bit -> vreg */
    unsigned nbits, phys0, words;
    unsigned errors;
} chk;

#define MAX_REPORTS 50u

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
    for (unsigned k = 1; k < in->nops && k <= 3; k++) {
        const wa_operand *s = &in->ops[k];
        if (s->kind != WA_OPND_VIRT && s->kind != WA_OPND_PHYS)
            continue;
        unsigned sc, sf, sn;
        phys_range(C, s, &sc, &sf, &sn);
        if (sc != dc || sf >= df + dn || df >= sf + sn)
            continue;
        if (k == 3 && sf == df && sn == dn)
            continue; /* srcC identical to vdst */
        cerr(C, in, "MFMA vdst %c[%u:%u] overlaps %s %c[%u:%u]", letter(dc), df, df + dn - 1,
             k == 1 ? "srcA" : k == 2 ? "srcB" : "srcC (partially)", letter(sc), sf, sf + sn - 1);
    }
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
    C.words = (C.nbits + 63) / 64;

    /* 2. blocks (own splitting) */
    unsigned *blk = wa_mem_calloc(ctx, n + 1, sizeof(unsigned));
    unsigned *lbl = wa_mem_calloc(ctx, prog->nlabels + 1, sizeof(unsigned));
    if (!blk || !lbl) {
        wa_mem_free(ctx, blk);
        wa_mem_free(ctx, lbl);
        wa_mem_free(ctx, C.base);
        wa_mem_free(ctx, C.bit_vreg);
        return wa_error_nomem(ctx);
    }
    unsigned nb = 0;
    for (unsigned i = 0; i < n; i++) {
        int lead = i == 0 || prog->instrs[i].op == WA_OP_LABEL ||
                   (wa_isa(prog->instrs[i - 1].op)->flags &
                    (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM));
        nb += lead;
        blk[i] = nb - 1;
        if (prog->instrs[i].op == WA_OP_LABEL)
            lbl[prog->instrs[i].ops[0].id] = nb - 1;
    }
    size_t W = C.words;
    uint64_t *mem = wa_mem_calloc(ctx, (size_t)nb * 4 * W + 2 * W + 1, sizeof(uint64_t));
    unsigned *bfirst = wa_mem_calloc(ctx, nb + 1, sizeof(unsigned));
    unsigned *owner = wa_mem_calloc(ctx, WA_UNITS, sizeof(unsigned));
    if (!mem || !bfirst || !owner) {
        wa_mem_free(ctx, mem);
        wa_mem_free(ctx, bfirst);
        wa_mem_free(ctx, owner);
        wa_mem_free(ctx, blk);
        wa_mem_free(ctx, lbl);
        wa_mem_free(ctx, C.base);
        wa_mem_free(ctx, C.bit_vreg);
        return wa_error_nomem(ctx);
    }
    uint64_t *use = mem, *def = mem + nb * W, *lin = mem + 2 * nb * W, *lout = mem + 3 * nb * W;
    uint64_t *cur = mem + 4 * nb * W, *tmp = cur + W;
    for (unsigned i = n; i-- > 0;)
        bfirst[blk[i]] = i;
    unsigned bits[32];

    /* 3. use/def per block (component level, in order: reads before writes) */
    for (unsigned b = 0; b < nb; b++) {
        unsigned end = b + 1 < nb ? bfirst[b + 1] : n;
        for (unsigned i = bfirst[b]; i < end; i++) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (wa_instr_role(in, info, k) & WA_ROLE_USE) {
                    unsigned m = op_bits(&C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++)
                        if (!(def[b * W + bits[j] / 64] >> (bits[j] % 64) & 1u))
                            use[b * W + bits[j] / 64] |= 1ull << (bits[j] % 64);
                }
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (wa_instr_role(in, info, k) & WA_ROLE_DEF) {
                    unsigned m = op_bits(&C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++)
                        def[b * W + bits[j] / 64] |= 1ull << (bits[j] % 64);
                }
        }
    }

    /* 4. iterate live_out = U live_in(succ), live_in = use | (live_out & ~def) */
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned b = nb; b-- > 0;) {
            unsigned last = (b + 1 < nb ? bfirst[b + 1] : n) - 1;
            const wa_instr *t = &prog->instrs[last];
            const wa_isa_info *ti = wa_isa(t->op);
            unsigned succ[2], ns = 0;
            if ((ti->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)) && t->nops &&
                t->ops[0].kind == WA_OPND_LABEL && lbl[t->ops[0].id] != WA_NONE)
                succ[ns++] = lbl[t->ops[0].id];
            if (!(ti->flags & (WA_IF_BRANCH | WA_IF_ENDPGM)) && b + 1 < nb)
                succ[ns++] = b + 1;
            memset(tmp, 0, W * sizeof(uint64_t));
            for (unsigned s = 0; s < ns; s++)
                for (size_t w = 0; w < W; w++)
                    tmp[w] |= lin[succ[s] * W + w];
            for (size_t w = 0; w < W; w++) {
                uint64_t in_w = use[b * W + w] | (tmp[w] & ~def[b * W + w]);
                if (tmp[w] != lout[b * W + w] || in_w != lin[b * W + w])
                    changed = 1;
                lout[b * W + w] = tmp[w];
                lin[b * W + w] = in_w;
            }
        }
    }

    /* 5. walk each block backwards, keeping the unit owners of the live set */
    for (unsigned u = 0; u < WA_UNITS; u++)
        owner[u] = WA_NONE;
    for (unsigned b = 0; b < nb; b++) {
        unsigned first = bfirst[b], end = b + 1 < nb ? bfirst[b + 1] : n;
        const wa_instr *last = &prog->instrs[end - 1];
        memcpy(cur, lout + b * W, W * sizeof(uint64_t));
        for (size_t w = 0; w < W; w++)
            for (uint64_t m = cur[w]; m; m &= m - 1)
                hold(&C, owner, (unsigned)(w << 6) + wa_ctz64(m), last, "after");
        for (unsigned i = end; i-- > first;) {
            const wa_instr *in = &prog->instrs[i];
            const wa_isa_info *info = wa_isa(in->op);
            if (info->flags & WA_IF_PSEUDO)
                continue;
            if (info->flags & WA_IF_MFMA)
                check_mfma(&C, in);
            /* what it writes must not land on a value live after it */
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (wa_instr_role(in, info, k) & WA_ROLE_DEF) {
                    unsigned m = op_bits(&C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++) {
                        unsigned d = bits[j], v, c;
                        unsigned u = bit_unit(&C, d, &v, &c);
                        if (u < WA_UNITS && owner[u] != WA_NONE && owner[u] != d)
                            conflict(&C, in, owner[u], d, u, "after");
                    }
                }
            /* before it: the written values die, the read ones are live */
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (wa_instr_role(in, info, k) & WA_ROLE_DEF) {
                    unsigned m = op_bits(&C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++)
                        if (cur[bits[j] / 64] >> (bits[j] % 64) & 1u) {
                            cur[bits[j] / 64] &= ~(1ull << (bits[j] % 64));
                            release(&C, owner, bits[j]);
                        }
                }
            for (unsigned k = 0; k < in->nops && k < info->num_operands; k++)
                if (wa_instr_role(in, info, k) & WA_ROLE_USE) {
                    unsigned m = op_bits(&C, &in->ops[k], bits);
                    for (unsigned j = 0; j < m; j++)
                        if (!(cur[bits[j] / 64] >> (bits[j] % 64) & 1u)) {
                            cur[bits[j] / 64] |= 1ull << (bits[j] % 64);
                            hold(&C, owner, bits[j], in, "before");
                        }
                }
        }
        /* forget the block's owners: they are all live at its start */
        for (size_t w = 0; w < W; w++)
            for (uint64_t m = cur[w]; m; m &= m - 1)
                release(&C, owner, (unsigned)(w << 6) + wa_ctz64(m));
    }
    wa_mem_free(ctx, mem);
    wa_mem_free(ctx, bfirst);
    wa_mem_free(ctx, owner);
    wa_mem_free(ctx, blk);
    wa_mem_free(ctx, lbl);
    wa_mem_free(ctx, C.base);
    wa_mem_free(ctx, C.bit_vreg);
    if (C.errors > MAX_REPORTS)
        wa_note(ctx, WA_LOC_NONE, "%u more problems not shown", C.errors - MAX_REPORTS);
    if (out_errors)
        *out_errors = C.errors;
    return C.errors ? WA_E_VALIDATE : WA_OK;
}
