/* lib/check/hazard_check.c — independent hazard checker: every pair of producer
   and consumer that a rule of lib/analysis/hazard_rules.c pairs has enough wait
   states between them on every path (docs/hazards.md).

   Written apart from the pass (lib/passes/hazards.c), with which it shares only
   the rule facts: a forward dataflow over the CFG instead of the pass's
   backward search and per-register chains. The state at a program point is the
   set of producer instructions that some path reaches it from within fewer wait
   states than any rule can require, each with the minimum number of wait states
   since it over those paths. An instruction adds its wait states to every entry
   (dropping those out of reach), then adds itself if it produces anything;
   blocks join their predecessors' states by union with the minimum distance.
   Iterating in reverse post-order (unreachable blocks after) reaches the least
   fixed point, which holds for every point the minimum over all paths into it,
   loops included. A last walk checks every consumer against every entry of its
   state, rule by rule, register unit by register unit. */
#include "../passes/pass_util.h"

#include "../analysis/hazard_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPORTS 100u

/* One register reference of an instruction (a producer's record or a
   consumer's access). */
typedef struct ck_ref {
    uint32_t lo;       /* first unit; the units are lo .. lo + n - 1 */
    uint16_t n;
    uint16_t kinds;    /* producer kinds (WA_HZ_P_* bits) */
    uint8_t how;       /* consumer accesses (WA_HZ_A_*) */
    uint8_t ucls;      /* WA_HZ_U_* */
    uint8_t opnd;      /* operand index or WA_HZ_IMPLICIT */
} ck_ref;

typedef struct ck_ent {
    uint32_t item;     /* producer */
    uint32_t dist;     /* minimum wait states since it */
} ck_ent;

/* A block's state: entries [off, off + len) of the pool, room for cap. */
typedef struct ck_slot {
    unsigned off, len, cap;
} ck_slot;

typedef struct ck {
    int soft_clauses;  /* H35 applies (XNACK not off) */
    const wa_program *prog;
    wa_context *ctx;
    wa_target target;
    wa_unit_map map;
    wa_cfg cfg;
    unsigned reach;          /* the most wait states any rule requires on the target: a
                                producer this far away satisfies every rule */
    uint8_t *ws;             /* per item */
    unsigned *poff;          /* per item: producer references at prods[poff[i] .. poff[i+1]) */
    ck_ref *prods;
    unsigned nprods, capprods;
    ck_ent *pool;            /* block states */
    unsigned npool, cappool;
    ck_slot *in, *out;
    uint8_t *seen;           /* per block: out computed at least once */
    ck_ent *cur;             /* the state being walked */
    unsigned ncur, capcur;
    uint8_t *rule_hit;       /* per rule: already reported for this (consumer, producer) */
    unsigned errors;
} ck;

/* ---- references ------------------------------------------------------------------------ */

static unsigned refs_of(ck *C, const wa_instr *in, ck_ref *out)
{
    wa_hz_ref refs[WA_HZ_MAX_REFS];
    const wa_isa_info *info = wa_isa(in->op);
    unsigned nrefs = wa_hz_refs(refs, in, info), n = 0;
    for (unsigned k = 0; k < nrefs; k++) {
        unsigned units[64], nu, pseudo = 0;
        wa_operand o;
        memset(&o, 0, sizeof(o));
        if (refs[k].opnd != WA_HZ_IMPLICIT)
            o = in->ops[refs[k].opnd];
        else if (!(pseudo = wa_unit_pseudo(refs[k].special)))
            o = wa_opnd_special((wa_special)refs[k].special);
        if (pseudo) {
            units[0] = pseudo;
            nu = 1;
        } else {
            nu = wa_unit_map_operand(&C->map, &o, units, 64);
        }
        if (!nu)
            continue;
        ck_ref *r = &out[n++];
        r->lo = units[0];
        r->n = (uint16_t)nu;
        r->kinds = refs[k].produces;
        r->how = refs[k].how;
        r->ucls = (uint8_t)(pseudo ? WA_HZ_U_PSEUDO : wa_hz_operand_unit_class(&o));
        r->opnd = refs[k].opnd;
    }
    return n;
}

static wa_status build_items(ck *C)
{
    const wa_program *prog = C->prog;
    unsigned n = prog->ninstrs;
    C->ws = wa_mem_calloc(C->ctx, n + 1u, 1);
    C->poff = wa_mem_calloc(C->ctx, n + 1u, sizeof(unsigned));
    if (!C->ws || !C->poff)
        return wa_error_nomem(C->ctx);
    ck_ref refs[WA_HZ_MAX_REFS];
    uint32_t passes = 1; /* pass counts of the program's producers (bit 0: not an MFMA) */
    for (unsigned i = 0; i < n; i++) {
        const wa_instr *in = &prog->instrs[i];
        C->poff[i] = C->nprods;
        C->ws[i] = (uint8_t)wa_hz_wait_states(in, wa_isa(in->op));
        unsigned p = wa_hz_passes(wa_isa(in->op), C->target);
        passes |= 1u << (p < 31 ? p : 31);
        if (!C->ws[i])
            continue;
        unsigned nr = refs_of(C, in, refs);
        for (unsigned k = 0; k < nr; k++) {
            if (!refs[k].kinds)
                continue;
            if (WA_GROW(C->ctx, C->prods, C->capprods, C->nprods + 1))
                return wa_error_nomem(C->ctx);
            C->prods[C->nprods++] = refs[k];
        }
    }
    C->poff[n] = C->nprods;
    /* a producer this far away satisfies every rule */
    for (unsigned k = 0; k < wa_hz_nrules; k++) {
        int most = wa_hz_rule_max(&wa_hz_rules[k], C->target, passes);
        if (most > 0 && (unsigned)most > C->reach)
            C->reach = (unsigned)most;
    }
    return WA_OK;
}

/* ---- states ---------------------------------------------------------------------------- */

static int cmp_ent(const void *a, const void *b)
{
    const ck_ent *x = a, *y = b;
    return x->item < y->item ? -1 : x->item > y->item;
}

static int ensure(ck *C, ck_ent **arr, unsigned *cap, unsigned need)
{
    return WA_GROW(C->ctx, *arr, *cap, need);
}

/* cur = union of the predecessors' out states, minimum distance per item. */
static wa_status join(ck *C, unsigned b)
{
    C->ncur = 0;
    for (unsigned k = C->cfg.pred.off[b]; k < C->cfg.pred.off[b + 1]; k++) {
        unsigned p = C->cfg.pred.data[k];
        if (!C->seen[p])
            continue;
        const ck_slot *s = &C->out[p];
        if (!s->len)
            continue;
        if (ensure(C, &C->cur, &C->capcur, C->ncur + s->len))
            return wa_error_nomem(C->ctx);
        memcpy(C->cur + C->ncur, C->pool + s->off, s->len * sizeof(ck_ent));
        C->ncur += s->len;
    }
    if (C->ncur > 1) {
        qsort(C->cur, C->ncur, sizeof(ck_ent), cmp_ent);
        unsigned w = 0;
        for (unsigned r = 0; r < C->ncur; r++) {
            if (w && C->cur[w - 1].item == C->cur[r].item) {
                if (C->cur[r].dist < C->cur[w - 1].dist)
                    C->cur[w - 1].dist = C->cur[r].dist;
            } else {
                C->cur[w++] = C->cur[r];
            }
        }
        C->ncur = w;
    }
    return WA_OK;
}

static int same_state(const ck *C, const ck_slot *s, const ck_ent *e, unsigned n)
{
    return s->len == n && (!n || memcmp(C->pool + s->off, e, n * sizeof(ck_ent)) == 0);
}

static wa_status store(ck *C, ck_slot *s, const ck_ent *e, unsigned n)
{
    if (n > s->cap) {
        unsigned cap = n < 4 ? 4 : n;
        if (WA_GROW(C->ctx, C->pool, C->cappool, C->npool + cap))
            return wa_error_nomem(C->ctx);
        s->off = C->npool;
        s->cap = cap;
        C->npool += cap;
    }
    if (n)
        memcpy(C->pool + s->off, e, n * sizeof(ck_ent));
    s->len = n;
    return WA_OK;
}

/* ---- checking a consumer --------------------------------------------------------------- */

static const char *opnd_role(const wa_instr *in, unsigned opnd)
{
    const wa_isa_info *info = wa_isa(in->op);
    if (opnd == WA_HZ_IMPLICIT || opnd >= info->num_operands || !info->operands[opnd].name)
        return "implicit";
    return info->operands[opnd].name;
}

static void report(ck *C, const wa_instr *in, const ck_ref *a, unsigned unit,
                   const wa_hz_rule *r, unsigned pitem, unsigned have, int need)
{
    if (++C->errors > MAX_REPORTS)
        return;
    const wa_program *prog = C->prog;
    const wa_instr *pin = &prog->instrs[pitem];
    const wa_isa_info *pinfo = wa_isa(pin->op);
    char reg[48], formula[96];
    wa_unit_name(reg, sizeof(reg), &C->map, prog, unit);
    wa_hz_formula(formula, sizeof(formula), r, C->target, wa_hz_passes(pinfo, C->target),
                  wa_hz_is_smfma(pinfo));
    const char *pverb = r->prod == WA_HZ_P_SRCC    ? "read it as srcC"
                        : r->prod == WA_HZ_P_STORE ? "stored it"
                                                   : "wrote it";
    const char *tname = wa_target_name(C->target);
    wa_error(C->ctx, WA_E_VALIDATE, wa_instr_loc(prog, in),
             "hazard: %s (%s) is %s %u wait state%s after %s @I%u %s; %s needs %d "
             "(rule %s: %s%s)",
             reg, opnd_role(in, a->opnd), (r->how & WA_HZ_A_WRITE) ? "written" : "read", have,
             have == 1 ? "" : "s", wa_isa_mnemonic(pin->op, C->target), (unsigned)pin->tag, pverb,
             tname ? tname : "the target", need, r->ref, r->what, formula);
}

static void check_consumer(ck *C, unsigned item, const ck_ent *state, unsigned n)
{
    const wa_instr *in = &C->prog->instrs[item];
    const wa_isa_info *info = wa_isa(in->op);
    unsigned cls = wa_hz_instr_class(in, info);
    if (!cls)
        return;
    ck_ref acc[WA_HZ_MAX_REFS];
    unsigned nacc = refs_of(C, in, acc);
    for (unsigned e = 0; e < n; e++) {
        unsigned p = state[e].item, have = state[e].dist;
        const wa_isa_info *pinfo = wa_isa(C->prog->instrs[p].op);
        unsigned passes = wa_hz_passes(pinfo, C->target);
        int smfma = wa_hz_is_smfma(pinfo);
        memset(C->rule_hit, 0, wa_hz_nrules);
        for (unsigned q = C->poff[p]; q < C->poff[p + 1]; q++) {
            const ck_ref *pr = &C->prods[q];
            for (unsigned k = 0; k < nacc; k++) {
                const ck_ref *a = &acc[k];
                if (!a->how)
                    continue;
                uint32_t lo = pr->lo > a->lo ? pr->lo : a->lo;
                uint32_t hi1 = pr->lo + pr->n, hi2 = a->lo + a->n;
                uint32_t hi = hi1 < hi2 ? hi1 : hi2;
                if (lo >= hi)
                    continue; /* no common unit */
                for (unsigned ri = 0; ri < wa_hz_nrules; ri++) {
                    const wa_hz_rule *r = &wa_hz_rules[ri];
                    if (C->rule_hit[ri] || !(r->cons & cls) || (r->not_cons & cls) ||
                        !(pr->kinds & (1u << r->prod)) || !(a->how & r->how) ||
                        !(a->ucls & r->units) || !wa_hz_op_match(r, C->prog->instrs[p].op, in->op))
                        continue;
                    if (r->srcc != WA_HZ_SRCC_ANY) {
                        int same = pr->lo == a->lo && pr->n == a->n;
                        if ((r->srcc == WA_HZ_SRCC_SAME) != same)
                            continue;
                    }
                    int need = wa_hz_required(r, C->target, passes, smfma);
                    if (need <= 0 || have >= (unsigned)need)
                        continue;
                    C->rule_hit[ri] = 1;
                    report(C, in, a, lo, r, p, have, need);
                }
            }
        }
    }
}

/* H35: a memory instruction right after a soft clause of its kind it
   conflicts with (the clause in program order: nothing else between the
   instructions). */
static void check_clause(ck *C, unsigned item)
{
    unsigned clause[WA_HZ_CLAUSE_MAX];
    unsigned n = wa_hz_clause_before(C->prog, item, clause, WA_HZ_CLAUSE_MAX);
    if (!n || !wa_hz_clause_conflict(C->prog, clause, n, item))
        return;
    if (++C->errors > MAX_REPORTS)
        return;
    const wa_instr *in = &C->prog->instrs[item];
    const wa_instr *first = &C->prog->instrs[clause[0]];
    unsigned kind = wa_hz_clause_kind(wa_isa(in->op));
    wa_error(C->ctx, WA_E_VALIDATE, wa_instr_loc(C->prog, in), WA_HZ_CLAUSE_FMT,
             wa_isa_mnemonic(in->op, C->target), wa_hz_clause_name(kind),
             wa_isa_mnemonic(first->op, C->target), (unsigned)first->tag,
             wa_hz_clause_rule(kind), wa_hz_clause_what(kind));
}

/* ---- the walk through a block ----------------------------------------------------------- */

/* Runs block b from the state in C->cur (checking consumers when `check`),
   leaving its out state, sorted, in C->cur. */
static wa_status walk(ck *C, unsigned b, int check)
{
    for (unsigned i = C->cfg.first[b]; i <= C->cfg.last[b]; i++) {
        unsigned w = C->ws[i];
        if (!w)
            continue;
        if (check && C->ncur)
            check_consumer(C, i, C->cur, C->ncur);
        if (check && C->soft_clauses && wa_hz_clause_kind(wa_isa(C->prog->instrs[i].op)))
            check_clause(C, i);
        unsigned k = 0;
        for (unsigned r = 0; r < C->ncur; r++) {
            uint32_t d = C->cur[r].dist + w;
            if (d >= C->reach || C->cur[r].item == i)
                continue; /* out of reach, or this instruction's previous instance */
            C->cur[k].item = C->cur[r].item;
            C->cur[k++].dist = d;
        }
        C->ncur = k;
        if (C->poff[i + 1] > C->poff[i]) {
            if (ensure(C, &C->cur, &C->capcur, C->ncur + 1))
                return wa_error_nomem(C->ctx);
            C->cur[C->ncur].item = i;
            C->cur[C->ncur++].dist = 0;
        }
    }
    if (C->ncur > 1)
        qsort(C->cur, C->ncur, sizeof(ck_ent), cmp_ent);
    return WA_OK;
}

static wa_status visit(ck *C, unsigned b, int *changed)
{
    wa_status st = join(C, b);
    if (st)
        return st;
    if (C->seen[b] && same_state(C, &C->in[b], C->cur, C->ncur))
        return WA_OK;
    if ((st = store(C, &C->in[b], C->cur, C->ncur)) != WA_OK || (st = walk(C, b, 0)) != WA_OK)
        return st;
    if (!C->seen[b] || !same_state(C, &C->out[b], C->cur, C->ncur)) {
        *changed = 1;
        C->seen[b] = 1;
        st = store(C, &C->out[b], C->cur, C->ncur);
    }
    return st;
}

static wa_status run(ck *C)
{
    const wa_cfg *cfg = &C->cfg;
    unsigned nb = cfg->nblocks;
    C->in = wa_mem_calloc(C->ctx, nb + 1u, sizeof(ck_slot));
    C->out = wa_mem_calloc(C->ctx, nb + 1u, sizeof(ck_slot));
    C->seen = wa_mem_calloc(C->ctx, nb + 1u, 1);
    C->rule_hit = wa_mem_calloc(C->ctx, wa_hz_nrules + 1u, 1);
    if (!C->in || !C->out || !C->seen || !C->rule_hit)
        return wa_error_nomem(C->ctx);
    /* the order: reverse post-order, then the unreachable blocks */
    unsigned *order = wa_mem_calloc(C->ctx, nb + 1u, sizeof(unsigned));
    if (!order)
        return wa_error_nomem(C->ctx);
    unsigned no = 0;
    for (unsigned k = 0; k < cfg->nrpo; k++)
        order[no++] = cfg->rpo[k];
    for (unsigned b = 0; b < nb; b++)
        if (cfg->rpo_index[b] == WA_NONE)
            order[no++] = b;
    wa_status st = WA_OK;
    int changed = 1;
    while (changed && st == WA_OK) {
        changed = 0;
        for (unsigned k = 0; k < no && st == WA_OK; k++)
            st = visit(C, order[k], &changed);
    }
    /* the states are final: check every consumer */
    for (unsigned k = 0; k < no && st == WA_OK; k++) {
        unsigned b = order[k];
        const ck_slot *s = &C->in[b];
        if (ensure(C, &C->cur, &C->capcur, s->len + 1)) {
            st = wa_error_nomem(C->ctx);
            break;
        }
        if (s->len)
            memcpy(C->cur, C->pool + s->off, s->len * sizeof(ck_ent));
        C->ncur = s->len;
        st = walk(C, b, 1);
    }
    wa_mem_free(C->ctx, order);
    return st;
}

wa_status wa_check_hazards(unsigned *out_errors, const wa_program *prog,
                           const wa_hazard_options *opts)
{
    if (out_errors)
        *out_errors = 0;
    if (!prog)
        return WA_E_INVALID;
    wa_context *ctx = prog->ctx;
    if (opts) {
        wa_status st = wa_check_options_version(ctx, opts->version, WA_HAZARD_OPTIONS_VERSION,
                                                "wa_hazard_options");
        if (st)
            return st;
        if (opts->flags)
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                            "wa_hazard_options: unknown flags 0x%x", opts->flags);
    }
    ck C;
    memset(&C, 0, sizeof(C));
    C.prog = prog;
    C.ctx = ctx;
    C.target = prog->target;
    C.soft_clauses = wa_hz_soft_clauses(prog);
    wa_status st = wa_unit_map_init(&C.map, prog);
    if (st == WA_OK)
        st = wa_cfg_build(&C.cfg, prog);
    if (st == WA_OK)
        st = build_items(&C);
    if (st == WA_OK && C.reach)
        st = run(&C);
    wa_unit_map_free(&C.map, ctx);
    wa_cfg_free(&C.cfg, ctx);
    wa_mem_free(ctx, C.ws);
    wa_mem_free(ctx, C.poff);
    wa_mem_free(ctx, C.prods);
    wa_mem_free(ctx, C.pool);
    wa_mem_free(ctx, C.in);
    wa_mem_free(ctx, C.out);
    wa_mem_free(ctx, C.seen);
    wa_mem_free(ctx, C.cur);
    wa_mem_free(ctx, C.rule_hit);
    if (st)
        return st;
    if (out_errors)
        *out_errors = C.errors;
    if (C.errors > MAX_REPORTS)
        wa_note(ctx, WA_LOC_NONE, "%u more hazards not shown", C.errors - MAX_REPORTS);
    return C.errors ? WA_E_VALIDATE : WA_OK;
}
