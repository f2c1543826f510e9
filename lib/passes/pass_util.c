/* lib/passes/pass_util.c — register units, batched edits and statistics shared by
   the passes and the checkers. */
#include "pass_util.h"

#include "../analysis/hazard_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- register units ------------------------------------------------------------------ */

wa_status wa_unit_map_init(wa_unit_map *m, const wa_program *prog)
{
    memset(m, 0, sizeof(*m));
    wa_context *ctx = prog->ctx;
    m->vbase = wa_mem_calloc(ctx, prog->nvregs + 1u, sizeof(unsigned));
    if (!m->vbase)
        return wa_error_nomem(ctx);
    unsigned u = WA_UNIT_VIRT_BASE;
    for (unsigned v = 0; v < prog->nvregs; v++) {
        m->vbase[v] = u;
        if (prog->vregs[v].cls != WA_REG_NONE) {
            if (prog->vregs[v].size > 0x7FFFFFFFu - u)
                return wa_error(ctx, WA_E_RANGE, WA_LOC_NONE, "too many virtual registers");
            u += prog->vregs[v].size;
        }
    }
    m->vbase[prog->nvregs] = u;
    m->count = u;
    return WA_OK;
}

void wa_unit_map_free(wa_unit_map *m, wa_context *ctx)
{
    wa_mem_free(ctx, m->vbase);
    memset(m, 0, sizeof(*m));
}

unsigned wa_unit_map_operand(const wa_unit_map *m, const wa_operand *o, unsigned *out,
                             unsigned max)
{
    unsigned n = 0;
    switch (o->kind) {
    case WA_OPND_VIRT:
        for (unsigned k = 0; k < o->count && n < max; k++)
            out[n++] = m->vbase[o->id] + o->first + k;
        return n;
    case WA_OPND_PHYS:
        for (unsigned k = 0; k < o->count && n < max; k++)
            out[n++] = wa_phys_unit((wa_reg_class)o->reg_class, o->id + k);
        return n;
    case WA_OPND_SPECIAL:
        switch (o->id) {
        case WA_SPECIAL_VCC:
            if (max >= 2) {
                out[n++] = WA_UNIT_VCC_LO;
                out[n++] = WA_UNIT_VCC_HI;
            }
            return n;
        case WA_SPECIAL_EXEC:
            if (max >= 2) {
                out[n++] = WA_UNIT_EXEC_LO;
                out[n++] = WA_UNIT_EXEC_HI;
            }
            return n;
        case WA_SPECIAL_VCC_LO: out[n++] = WA_UNIT_VCC_LO; return n;
        case WA_SPECIAL_VCC_HI: out[n++] = WA_UNIT_VCC_HI; return n;
        case WA_SPECIAL_EXEC_LO: out[n++] = WA_UNIT_EXEC_LO; return n;
        case WA_SPECIAL_EXEC_HI: out[n++] = WA_UNIT_EXEC_HI; return n;
        case WA_SPECIAL_M0: out[n++] = WA_UNIT_M0; return n;
        case WA_SPECIAL_SCC: out[n++] = WA_UNIT_SCC; return n;
        default: return 0;
        }
    default:
        return 0;
    }
}

unsigned wa_unit_map_implicit(unsigned impl_flag, unsigned *out)
{
    switch (impl_flag) {
    case WA_IMPL_VCC: out[0] = WA_UNIT_VCC_LO; out[1] = WA_UNIT_VCC_HI; return 2;
    case WA_IMPL_EXEC: out[0] = WA_UNIT_EXEC_LO; out[1] = WA_UNIT_EXEC_HI; return 2;
    case WA_IMPL_M0: out[0] = WA_UNIT_M0; return 1;
    case WA_IMPL_SCC: out[0] = WA_UNIT_SCC; return 1;
    default: return 0;
    }
}

/* The virtual register holding unit `u` (u >= WA_UNIT_VIRT_BASE): binary search. */
static unsigned vreg_of_unit(const wa_unit_map *m, const wa_program *prog, unsigned u)
{
    unsigned lo = 0, hi = prog->nvregs;
    while (hi - lo > 1) {
        unsigned mid = lo + (hi - lo) / 2;
        if (m->vbase[mid] <= u)
            lo = mid;
        else
            hi = mid;
    }
    /* skip unused ids, which take no units */
    while (lo + 1 < prog->nvregs && m->vbase[lo + 1] <= u)
        lo++;
    return lo;
}

typedef char wa_pseudo_units_fit[WA_UNIT_VIRT_BASE - WA_UNIT_PSEUDO == WA_HZ_X_COUNT ? 1 : -1];

unsigned wa_unit_pseudo(unsigned special)
{
    int k = wa_hz_pseudo_index(special);
    return k < 0 ? 0 : WA_UNIT_PSEUDO + (unsigned)k;
}

unsigned wa_unit_hz_class(const wa_unit_map *m, const wa_program *prog, unsigned unit)
{
    if (unit < WA_UNITS) {
        switch (wa_unit_class(unit)) {
        case WA_REG_VGPR: return WA_HZ_U_VGPR;
        case WA_REG_AGPR: return WA_HZ_U_AGPR;
        default: return WA_HZ_U_SGPR;
        }
    }
    switch (unit) {
    case WA_UNIT_VCC_LO:
    case WA_UNIT_VCC_HI: return WA_HZ_U_VCC;
    case WA_UNIT_EXEC_LO:
    case WA_UNIT_EXEC_HI: return WA_HZ_U_EXEC;
    case WA_UNIT_M0: return WA_HZ_U_M0;
    case WA_UNIT_SCC: return 0;
    default: break;
    }
    if (unit < WA_UNIT_VIRT_BASE)
        return WA_HZ_U_PSEUDO;
    if (unit >= m->count || prog->nvregs == 0)
        return 0;
    switch (prog->vregs[vreg_of_unit(m, prog, unit)].cls) {
    case WA_REG_VGPR: return WA_HZ_U_VGPR;
    case WA_REG_AGPR: return WA_HZ_U_AGPR;
    case WA_REG_SGPR: return WA_HZ_U_SGPR;
    default: return 0;
    }
}

void wa_unit_name(char *buf, size_t len, const wa_unit_map *m, const wa_program *prog,
                  unsigned unit)
{
    static const char *const specials[] = { "vcc_lo", "vcc_hi", "exec_lo", "exec_hi", "m0", "scc" };
    if (unit < WA_UNITS) {
        wa_reg_class c = wa_unit_class(unit);
        snprintf(buf, len, "%c%u", c == WA_REG_VGPR ? 'v' : c == WA_REG_AGPR ? 'a' : 's',
                 wa_unit_reg(unit));
    } else if (unit < WA_UNIT_PSEUDO) {
        snprintf(buf, len, "%s", specials[unit - WA_UNITS]);
    } else if (unit == WA_UNIT_PSEUDO) {
        snprintf(buf, len, "the DGEMM pipeline");
    } else if (unit < WA_UNIT_VIRT_BASE) {
        snprintf(buf, len, "hwreg %u", unit - WA_UNIT_PSEUDO - 1u);
    } else if (unit < m->count && prog->nvregs) {
        unsigned v = vreg_of_unit(m, prog, unit);
        wa_reg_class c = (wa_reg_class)prog->vregs[v].cls;
        char l = c == WA_REG_VGPR ? 'v' : c == WA_REG_AGPR ? 'a' : 's';
        if (prog->vregs[v].size == 1)
            snprintf(buf, len, "%%%c%u", l, v);
        else
            snprintf(buf, len, "%%%c%u[%u]", l, v, unit - m->vbase[v]);
    } else {
        snprintf(buf, len, "unit %u", unit);
    }
}

/* ---- batched edits -------------------------------------------------------------------- */

void wa_edit_init(wa_edit *e, wa_program *prog)
{
    memset(e, 0, sizeof(*e));
    e->prog = prog;
}

wa_status wa_edit_insert(wa_edit *e, unsigned at, wa_opcode op, const wa_operand *ops,
                         unsigned nops, const wa_mods *mods)
{
    wa_program *prog = e->prog;
    wa_context *ctx = prog->ctx;
    if (WA_GROW(ctx, e->ins, e->capins, e->nins + 1))
        return wa_error_nomem(ctx);
    wa_edit_ins *x = &e->ins[e->nins];
    memset(x, 0, sizeof(*x));
    x->at = at;
    x->seq = e->nins;
    x->in.op = (uint16_t)op;
    x->in.nops = (uint16_t)nops;
    x->in.tag = WA_NO_TAG;
    if (nops) {
        x->in.ops = wa_arena_alloc(&prog->arena, nops * sizeof(wa_operand));
        if (!x->in.ops)
            return wa_error_nomem(ctx);
        memcpy(x->in.ops, ops, nops * sizeof(wa_operand));
    }
    wa_mods defaults = WA_MODS_INIT;
    x->in.mods = mods ? *mods : defaults;
    x->in.mods.version = WA_MODS_VERSION;
    e->nins++;
    return WA_OK;
}

wa_status wa_edit_erase(wa_edit *e, unsigned item)
{
    wa_program *prog = e->prog;
    if (!e->erased) {
        e->erased = wa_mem_calloc(prog->ctx, prog->ninstrs + 1u, 1);
        if (!e->erased)
            return wa_error_nomem(prog->ctx);
    }
    if (item < prog->ninstrs && !e->erased[item]) {
        e->erased[item] = 1;
        e->nerased++;
    }
    return WA_OK;
}

static int cmp_ins(const void *pa, const void *pb)
{
    const wa_edit_ins *a = pa, *b = pb;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

wa_status wa_edit_apply(wa_edit *e)
{
    wa_program *prog = e->prog;
    wa_context *ctx = prog->ctx;
    if (!e->nins && !e->nerased)
        return WA_OK;
    if ((uint64_t)prog->next_tag + e->nins >= WA_NO_TAG)
        return wa_error(ctx, WA_E_RANGE, WA_LOC_NONE, "no tags left for inserted instructions");
    if (e->nins > 1)
        qsort(e->ins, e->nins, sizeof(*e->ins), cmp_ins);
    unsigned n = prog->ninstrs - e->nerased + e->nins;
    wa_instr *items = wa_mem_calloc(ctx, n ? n : 1u, sizeof(wa_instr));
    if (!items)
        return wa_error_nomem(ctx);
    unsigned out = 0, k = 0;
    for (unsigned i = 0; i <= prog->ninstrs; i++) {
        for (; k < e->nins && e->ins[k].at == i; k++) {
            items[out] = e->ins[k].in;
            items[out].tag = prog->next_tag++;
            out++;
        }
        if (i == prog->ninstrs)
            break;
        if (e->erased && e->erased[i]) {
            if (prog->instrs[i].op == WA_OP_LABEL)
                prog->labels[prog->instrs[i].ops[0].id].placed--;
            continue;
        }
        items[out++] = prog->instrs[i];
    }
    wa_mem_free(ctx, prog->instrs);
    prog->instrs = items;
    prog->ninstrs = out;
    prog->capinstrs = n ? n : 1u;
    prog->insert_at = WA_END;
    e->nins = 0;
    wa_mem_free(ctx, e->erased);
    e->erased = NULL;
    e->nerased = 0;
    return WA_OK;
}

void wa_edit_free(wa_edit *e)
{
    if (!e->prog)
        return;
    wa_mem_free(e->prog->ctx, e->ins);
    wa_mem_free(e->prog->ctx, e->erased);
    memset(e, 0, sizeof(*e));
}

wa_status wa_instr_replace(wa_program *prog, unsigned item, wa_opcode op, const wa_operand *ops,
                           unsigned nops, const wa_mods *mods)
{
    wa_instr *in = &prog->instrs[item];
    wa_operand *copy = NULL;
    if (nops) {
        copy = wa_arena_alloc(&prog->arena, nops * sizeof(wa_operand));
        if (!copy)
            return wa_error_nomem(prog->ctx);
        memcpy(copy, ops, nops * sizeof(wa_operand));
    }
    in->op = (uint16_t)op;
    in->nops = (uint16_t)nops;
    in->ops = copy;
    if (mods) {
        in->mods = *mods;
        in->mods.version = WA_MODS_VERSION;
    }
    return WA_OK;
}

/* ---- options and statistics ------------------------------------------------------------ */

unsigned wa_count_instrs(const wa_program *prog)
{
    unsigned n = 0;
    for (unsigned i = 0; i < prog->ninstrs; i++)
        n += !(wa_isa(prog->instrs[i].op)->flags & WA_IF_PSEUDO);
    return n;
}

wa_pass_stats *wa_stats_begin(wa_pass_stats *stats, wa_pass_stats *local, const wa_program *prog)
{
    wa_pass_stats *s = stats ? stats : local;
    memset(s, 0, sizeof(*s));
    s->version = WA_PASS_STATS_VERSION;
    s->instrs_before = wa_count_instrs(prog);
    return s;
}

void wa_stats_end(wa_pass_stats *stats, const wa_program *prog)
{
    stats->instrs_after = wa_count_instrs(prog);
}

wa_status wa_check_options_version(wa_context *ctx, unsigned version, unsigned expected,
                                   const char *what)
{
    if (version == 0 || version > expected)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "%s: version %u is not supported (this library knows 1..%u)", what,
                        version, expected);
    return WA_OK;
}
