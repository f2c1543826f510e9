/* lib/passes/hazards.c — hazard mitigation: the fewest s_nop wait states that
   satisfy every rule of lib/analysis/hazard_rules.c (docs/hazards.md).

   Model. Every real instruction provides wait states to the ones after it (1,
   or N+1 for s_nop N). A rule pairs a producer kind recorded on a 32-bit
   register unit with a consumer access of the same unit and needs a number of
   wait states between them. Every producer within reach counts, not only the
   nearest one of its kind, and the distance is the minimum over all paths
   (branches, loop back edges), so the result is at least as conservative as
   the simulator's hazard mode, which judges the nearest producer on the path
   it executes.

   Algorithm. Blocks are visited once, in reverse post-order (unreachable ones
   first, in program order). A block's scan keeps a clock of the wait states
   issued and, per register unit, a chain of the producer events within reach
   (a ring buffer of events, newest first), so a consumer finds its producers by
   walking the chains of the units it touches. Before the scan, if a consumer sits within
   reach of the block start, a bounded backward search over the predecessors
   (around back edges too, revisiting a block only at a strictly smaller
   distance) finds every producer instruction within reach on some path with
   its minimum distance, and those are put on the chains as events before the
   block start. A consumer short of wait states gets exactly the shortfall,
   inserted right before it as s_nop chunks of at most 16.

   Nops decided earlier in the run are part of every later distance (a per-item
   record of the wait states to insert before it). Inserted nops only lengthen
   distances and are neither producers nor consumers, so a requirement met when
   its consumer is visited stays met: one sweep is enough (nops placed later in
   a loop body than the consumer at its top merely make the top's nops more
   than strictly needed). In straight-line code each shortfall goes right
   before its consumer, which is also the position that helps every later pair
   most, so the total is minimal there. */
#include "pass_util.h"

#include "../analysis/hazard_rules.h"

#include <string.h>

/* No distance recorded (distances stay below the reach, at most 250). */
#define NO_DIST 0xFFu
/* Distinct consumer classes whose rule lists are kept. */
#define MAX_CLASSES 32u

typedef struct hz_ev {
    uint64_t end;      /* clock after the producer */
    uint32_t id;       /* event number (identifies the ring slot's occupant) */
    uint32_t prev;     /* previous event on the same unit, + 1 (0: none) */
    uint32_t first;    /* units of the producing operand (srcC identity) */
    uint16_t count;
    uint16_t kinds;    /* bit per WA_HZ_P_* */
    uint8_t passes;    /* producing MFMA's pass count on the target */
    uint8_t smfma;
    uint16_t op;       /* producer's opcode (rules that compare opcodes) */
} hz_ev;

/* A register reference of the instruction under the scan. */
typedef struct hz_acc {
    uint32_t first;
    uint16_t count;
    uint8_t how;       /* WA_HZ_A_* */
    uint8_t ucls;      /* WA_HZ_U_* */
    uint16_t produces; /* WA_HZ_P_* bits worth recording */
} hz_acc;

typedef struct hz_pass {
    wa_program *prog;
    wa_context *ctx;
    wa_target target;
    int soft_clauses;        /* H35 applies (XNACK not off) */
    wa_unit_map map;
    wa_cfg cfg;
    unsigned reach;          /* largest requirement of any rule on the target */
    const wa_hz_rule **rules;/* the rules that can require anything on the target */
    unsigned nrules;
    unsigned cons_any;       /* consumer classes of those rules */
    unsigned watch[WA_HZ_P_COUNT]; /* unit classes each producer kind is recorded for */
    unsigned watched;        /* kinds recorded at all */
    uint16_t kinds_of[256];  /* per unit class: the kinds recorded on it */
    /* the rules of each consumer class met so far: class seen_cls[k] has its
       list at cand_store + seen_at[k], ending with NULL */
    unsigned seen_cls[MAX_CLASSES], seen_at[MAX_CLASSES], nseen;
    const wa_hz_rule **cand_store;
    unsigned ncand_store, capcand_store;
    uint8_t *ws;             /* per item: wait states it provides */
    uint8_t *pad;            /* per item: wait states to insert before it */
    uint32_t *head;          /* per unit: newest event + 1 */
    hz_ev *ring;
    uint32_t mask;           /* ring size - 1 */
    uint32_t next_id;
    uint64_t t;              /* the clock */
    /* backward search */
    uint8_t *best_end;       /* per block: distance from its end to the block searched for */
    uint8_t *best_item;      /* per item: distance from its end */
    unsigned *touched_blocks, ntb, captb;
    unsigned *touched_items, nti, capti;
    unsigned *stack, nstack, capstack;
    unsigned *sorted, capsorted;
} hz_pass;

/* ---- events ---------------------------------------------------------------------------- */

static wa_status ring_grow(hz_pass *P)
{
    uint32_t size = (P->mask + 1u) * 2u;
    if (size == 0 || size > (1u << 30))
        return wa_error(P->ctx, WA_E_RANGE, WA_LOC_NONE, "hazards: too many producers in reach");
    hz_ev *ring = wa_mem_calloc(P->ctx, size, sizeof(hz_ev));
    if (!ring)
        return wa_error_nomem(P->ctx);
    /* the ring holds ids next_id - old size .. next_id - 1: distinct slots in the new ring */
    for (uint32_t s = 0; s <= P->mask; s++)
        if (P->ring[s].end) /* used */
            ring[P->ring[s].id & (size - 1u)] = P->ring[s];
    wa_mem_free(P->ctx, P->ring);
    P->ring = ring;
    P->mask = size - 1u;
    return WA_OK;
}

/* Records a producer event on `unit`; events within reach are never overwritten. */
static wa_status push_event(hz_pass *P, unsigned unit, uint64_t end, const hz_acc *a,
                            unsigned kinds, unsigned passes, int smfma, unsigned op)
{
    if (P->next_id >= 0xFFFFFFF0u)
        return wa_error(P->ctx, WA_E_RANGE, WA_LOC_NONE, "hazards: program too large");
    hz_ev *e = &P->ring[P->next_id & P->mask];
    if (e->end && P->t - e->end < P->reach) {
        wa_status st = ring_grow(P);
        if (st)
            return st;
        e = &P->ring[P->next_id & P->mask];
    }
    e->end = end;
    e->id = P->next_id;
    e->prev = P->head[unit];
    e->first = a->first;
    e->count = a->count;
    e->kinds = (uint16_t)kinds;
    e->passes = (uint8_t)passes;
    e->smfma = (uint8_t)smfma;
    e->op = (uint16_t)op;
    P->head[unit] = ++P->next_id;
    return WA_OK;
}

/* ---- an instruction's references ------------------------------------------------------ */

/* The units of a register reference: first and count (an operand's units are
   consecutive); its unit class in *ucls. */
static unsigned ref_range(const hz_pass *P, const wa_instr *in, const wa_hz_ref *r,
                          uint32_t *first, unsigned *ucls)
{
    if (r->opnd == WA_HZ_IMPLICIT) {
        switch (r->special) {
        case WA_SPECIAL_VCC: *first = WA_UNIT_VCC_LO; *ucls = WA_HZ_U_VCC; return 2;
        case WA_SPECIAL_EXEC: *first = WA_UNIT_EXEC_LO; *ucls = WA_HZ_U_EXEC; return 2;
        case WA_SPECIAL_M0: *first = WA_UNIT_M0; *ucls = WA_HZ_U_M0; return 1;
        default:
            *first = wa_unit_pseudo(r->special);
            *ucls = WA_HZ_U_PSEUDO;
            return *first ? 1 : 0;
        }
    }
    const wa_operand *o = &in->ops[r->opnd];
    *ucls = wa_hz_operand_unit_class(o);
    if (o->kind == WA_OPND_VIRT) {
        *first = P->map.vbase[o->id] + o->first;
        return o->count;
    }
    if (o->kind == WA_OPND_PHYS) {
        *first = wa_phys_unit((wa_reg_class)o->reg_class, o->id);
        return o->count;
    }
    unsigned units[2];
    unsigned n = wa_unit_map_operand(&P->map, o, units, 2);
    *first = units[0];
    return n;
}

/* The references of `in` that matter on the target: consumer accesses and the
   producer kinds worth recording. */
static unsigned gather(const hz_pass *P, const wa_instr *in, const wa_isa_info *info,
                       hz_acc *acc)
{
    wa_hz_ref refs[WA_HZ_MAX_REFS];
    unsigned nrefs = wa_hz_refs(refs, in, info), n = 0;
    for (unsigned k = 0; k < nrefs; k++) {
        if (!refs[k].how && !(refs[k].produces & P->watched))
            continue;
        hz_acc *a = &acc[n];
        unsigned ucls = 0;
        a->count = (uint16_t)ref_range(P, in, &refs[k], &a->first, &ucls);
        if (!a->count || !ucls || ucls > 255)
            continue;
        unsigned produces = refs[k].produces & P->kinds_of[ucls];
        a->how = refs[k].how;
        a->ucls = (uint8_t)ucls;
        a->produces = (uint16_t)produces;
        n++;
    }
    return n;
}

/* Records the producer events of an instruction that ends at clock `end`. */
static wa_status record(hz_pass *P, const wa_instr *in, const wa_isa_info *info,
                        const hz_acc *acc, unsigned nacc, uint64_t end)
{
    unsigned passes = wa_hz_passes(info, P->target);
    int smfma = wa_hz_is_smfma(info);
    for (unsigned k = 0; k < nacc; k++) {
        if (!acc[k].produces)
            continue;
        for (unsigned u = 0; u < acc[k].count; u++) {
            wa_status st = push_event(P, acc[k].first + u, end, &acc[k], acc[k].produces,
                                      passes, smfma, in->op);
            if (st)
                return st;
        }
    }
    return WA_OK;
}

/* The rules that apply to consumer class `cls` (a NULL-terminated list), made
   once per class. NULL when out of memory. */
static const wa_hz_rule **rules_for(hz_pass *P, unsigned cls)
{
    unsigned k = 0;
    for (; k < P->nseen; k++)
        if (P->seen_cls[k] == cls)
            return P->cand_store + P->seen_at[k];
    unsigned at = P->ncand_store;
    if (k == MAX_CLASSES)
        at = P->ncand_store = P->seen_at[k - 1]; /* table full: reuse the last slot */
    if (WA_GROW(P->ctx, P->cand_store, P->capcand_store, P->ncand_store + P->nrules + 1))
        return NULL;
    for (unsigned i = 0; i < P->nrules; i++) {
        const wa_hz_rule *r = P->rules[i];
        if ((r->cons & cls) && !(r->not_cons & cls))
            P->cand_store[P->ncand_store++] = r;
    }
    P->cand_store[P->ncand_store++] = NULL;
    if (k == MAX_CLASSES)
        k--;
    else
        P->nseen++;
    P->seen_cls[k] = cls;
    P->seen_at[k] = at;
    return P->cand_store + at;
}

/* Wait states the consumer still needs at clock P->t (0 if none). */
static int shortfall(const hz_pass *P, const wa_hz_rule *const *cand, unsigned op,
                     const hz_acc *acc, unsigned nacc)
{
    unsigned ncand = 0, kinds = 0;
    for (; cand[ncand]; ncand++)
        kinds |= 1u << cand[ncand]->prod;
    if (!ncand)
        return 0;
    int worst = 0;
    for (unsigned k = 0; k < nacc; k++) {
        const hz_acc *a = &acc[k];
        if (!a->how)
            continue;
        for (unsigned u = 0; u < a->count; u++) {
            uint32_t id = P->head[a->first + u];
            while (id) {
                const hz_ev *e = &P->ring[(id - 1u) & P->mask];
                if (e->id != id - 1u || P->t - e->end >= P->reach)
                    break;
                if (e->kinds & kinds) {
                    int have = (int)(P->t - e->end);
                    for (unsigned j = 0; j < ncand; j++) {
                        const wa_hz_rule *r = cand[j];
                        if (!(e->kinds & (1u << r->prod)) || !(a->how & r->how) ||
                            !(a->ucls & r->units) || !wa_hz_op_match(r, e->op, op))
                            continue;
                        if (r->srcc != WA_HZ_SRCC_ANY) {
                            int same = e->first == a->first && e->count == a->count;
                            if (same != (r->srcc == WA_HZ_SRCC_SAME))
                                continue;
                        }
                        int need = wa_hz_required(r, P->target, e->passes, e->smfma);
                        if (need - have > worst)
                            worst = need - have;
                    }
                }
                id = e->prev;
            }
        }
    }
    return worst;
}

/* ---- producers in the predecessors ------------------------------------------------------ */

static int push_u(wa_context *ctx, unsigned **arr, unsigned *n, unsigned *cap, unsigned v)
{
    if (WA_GROW(ctx, *arr, *cap, *n + 1))
        return -1;
    (*arr)[(*n)++] = v;
    return 0;
}

/* Some consumer of the block sits within reach of its start. */
static int head_consumes(const hz_pass *P, unsigned b)
{
    unsigned d = 0;
    for (unsigned i = P->cfg.first[b]; i <= P->cfg.last[b] && d < P->reach; i++) {
        const wa_instr *in = &P->prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        if (wa_hz_instr_class(in, info) & P->cons_any)
            return 1;
        d += P->ws[i];
    }
    return 0;
}

/* Puts every producer within reach of block b's start, on any path into it, on
   the chains as an event ending at its minimum distance before the start. */
static wa_status seed_entry(hz_pass *P, unsigned b)
{
    const wa_cfg *cfg = &P->cfg;
    wa_context *ctx = P->ctx;
    P->nstack = P->ntb = P->nti = 0;
    for (unsigned k = cfg->pred.off[b]; k < cfg->pred.off[b + 1]; k++) {
        unsigned q = cfg->pred.data[k];
        if (P->best_end[q] == NO_DIST &&
            (push_u(ctx, &P->touched_blocks, &P->ntb, &P->captb, q) ||
             push_u(ctx, &P->stack, &P->nstack, &P->capstack, q)))
            return wa_error_nomem(ctx);
        P->best_end[q] = 0;
    }
    while (P->nstack) {
        unsigned q = P->stack[--P->nstack];
        unsigned d = P->best_end[q];
        int whole = 1;
        for (unsigned i = cfg->last[q] + 1; i-- > cfg->first[q];) {
            if (!P->ws[i])
                continue; /* label or comment */
            if (d < P->best_item[i]) {
                if (P->best_item[i] == NO_DIST &&
                    push_u(ctx, &P->touched_items, &P->nti, &P->capti, i))
                    return wa_error_nomem(ctx);
                P->best_item[i] = (uint8_t)d;
            }
            d += P->ws[i] + P->pad[i];
            if (d >= P->reach) {
                whole = 0;
                break;
            }
        }
        if (!whole)
            continue;
        for (unsigned k = cfg->pred.off[q]; k < cfg->pred.off[q + 1]; k++) {
            unsigned r = cfg->pred.data[k];
            if (d >= P->best_end[r])
                continue;
            if (P->best_end[r] == NO_DIST &&
                push_u(ctx, &P->touched_blocks, &P->ntb, &P->captb, r))
                return wa_error_nomem(ctx);
            P->best_end[r] = (uint8_t)d;
            if (push_u(ctx, &P->stack, &P->nstack, &P->capstack, r))
                return wa_error_nomem(ctx);
        }
    }
    for (unsigned k = 0; k < P->ntb; k++)
        P->best_end[P->touched_blocks[k]] = NO_DIST;
    /* oldest first, so that every chain stays ordered newest first */
    unsigned cnt[256];
    memset(cnt, 0, P->reach * sizeof(cnt[0]));
    for (unsigned k = 0; k < P->nti; k++)
        cnt[P->reach - 1u - P->best_item[P->touched_items[k]]]++;
    for (unsigned d = 0, sum = 0; d < P->reach; d++) {
        unsigned c = cnt[d];
        cnt[d] = sum;
        sum += c;
    }
    if (WA_GROW(ctx, P->sorted, P->capsorted, P->nti + 1))
        return wa_error_nomem(ctx);
    unsigned *ti = P->sorted;
    for (unsigned k = 0; k < P->nti; k++)
        ti[cnt[P->reach - 1u - P->best_item[P->touched_items[k]]]++] = P->touched_items[k];
    wa_status st = WA_OK;
    hz_acc acc[WA_HZ_MAX_REFS];
    for (unsigned k = 0; k < P->nti && st == WA_OK; k++) {
        unsigned i = ti[k];
        const wa_instr *in = &P->prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        unsigned nacc = gather(P, in, info, acc);
        st = record(P, in, info, acc, nacc, P->t - P->best_item[i]);
    }
    for (unsigned k = 0; k < P->nti; k++)
        P->best_item[P->touched_items[k]] = NO_DIST;
    return st;
}

/* ---- the scan --------------------------------------------------------------------------- */

/* H35: the soft clause before item i in program order, cut where a wait
   state is already decided (it breaks the clause), conflicts with i. */
static int clause_needs_break(const hz_pass *P, unsigned i)
{
    unsigned clause[WA_HZ_CLAUSE_MAX];
    unsigned n = wa_hz_clause_before(P->prog, i, clause, WA_HZ_CLAUSE_MAX);
    unsigned from = 0;
    for (unsigned k = 0; k < n; k++)
        if (P->pad[clause[k]])
            from = k;
    return n > from && wa_hz_clause_conflict(P->prog, clause + from, n - from, i);
}

static wa_status scan_block(hz_pass *P, unsigned b)
{
    /* the previous block's events are out of reach */
    P->t += 2u * P->reach + 1u;
    wa_status st = WA_OK;
    if (P->cfg.pred.off[b] < P->cfg.pred.off[b + 1] && head_consumes(P, b))
        st = seed_entry(P, b);
    hz_acc acc[WA_HZ_MAX_REFS];
    for (unsigned i = P->cfg.first[b]; i <= P->cfg.last[b] && st == WA_OK; i++) {
        if (!P->ws[i])
            continue;
        const wa_instr *in = &P->prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        unsigned nacc = gather(P, in, info, acc);
        unsigned cls = wa_hz_instr_class(in, info);
        if (cls & P->cons_any) {
            const wa_hz_rule **cand = rules_for(P, cls);
            if (!cand)
                return wa_error_nomem(P->ctx);
            int need = shortfall(P, cand, in->op, acc, nacc);
            if (need > 0) {
                P->pad[i] = (uint8_t)need;
                P->t += (unsigned)need;
            }
        }
        if (P->soft_clauses && wa_hz_clause_kind(info) && !P->pad[i] && clause_needs_break(P, i)) {
            P->pad[i] = 1;
            P->t += 1;
        }
        P->t += P->ws[i];
        st = record(P, in, info, acc, nacc, P->t);
    }
    return st;
}

/* ---- entry point ------------------------------------------------------------------------ */

static wa_status setup(hz_pass *P)
{
    wa_context *ctx = P->ctx;
    const wa_program *prog = P->prog;
    unsigned n = prog->ninstrs;
    P->ws = wa_mem_calloc(ctx, n + 1u, 1);
    P->rules = wa_mem_calloc(ctx, wa_hz_nrules + 1u, sizeof(*P->rules));
    if (!P->ws || !P->rules)
        return wa_error_nomem(ctx);
    /* the pass counts of the program's instructions bound what the rules require */
    uint32_t passes = 0;
    for (unsigned i = 0; i < n; i++) {
        const wa_isa_info *info = wa_isa(prog->instrs[i].op);
        unsigned p = wa_hz_passes(info, P->target);
        P->ws[i] = (uint8_t)wa_hz_wait_states(&prog->instrs[i], info);
        passes |= 1u << (p < 31 ? p : 31);
    }
    for (unsigned i = 0; i < wa_hz_nrules; i++) {
        const wa_hz_rule *r = &wa_hz_rules[i];
        int most = wa_hz_rule_max(r, P->target, passes);
        if (most <= 0)
            continue;
        if (most > 250)
            return wa_error(ctx, WA_E_INTERNAL, WA_LOC_NONE,
                            "hazards: rule %s requires %d wait states", r->ref, most);
        P->rules[P->nrules++] = r;
        P->cons_any |= r->cons;
        P->watch[r->prod] |= r->units;
        P->watched |= 1u << r->prod;
        for (unsigned u = 0; u < 256; u++)
            if (u & r->units)
                P->kinds_of[u] |= (uint16_t)(1u << r->prod);
        if ((unsigned)most > P->reach)
            P->reach = (unsigned)most;
    }
    if (!P->nrules)
        return WA_OK;
    wa_status st = wa_unit_map_init(&P->map, prog);
    if (st)
        return st;
    st = wa_cfg_build(&P->cfg, prog);
    if (st)
        return st;
    P->pad = wa_mem_calloc(ctx, n + 1u, 1);
    P->best_item = wa_mem_alloc(ctx, n + 1u);
    P->best_end = wa_mem_alloc(ctx, P->cfg.nblocks + 1u);
    P->head = wa_mem_calloc(ctx, P->map.count + 1u, sizeof(uint32_t));
    P->ring = wa_mem_calloc(ctx, 1024, sizeof(hz_ev));
    if (!P->pad || !P->best_item || !P->best_end || !P->head || !P->ring)
        return wa_error_nomem(ctx);
    P->mask = 1023;
    memset(P->best_item, NO_DIST, n + 1u);
    memset(P->best_end, NO_DIST, P->cfg.nblocks + 1u);
    P->t = 4u * P->reach + 4u;
    return WA_OK;
}

static void teardown(hz_pass *P)
{
    wa_context *ctx = P->ctx;
    wa_unit_map_free(&P->map, ctx);
    wa_cfg_free(&P->cfg, ctx);
    wa_mem_free(ctx, P->rules);
    wa_mem_free(ctx, P->cand_store);
    wa_mem_free(ctx, P->ws);
    wa_mem_free(ctx, P->pad);
    wa_mem_free(ctx, P->best_item);
    wa_mem_free(ctx, P->best_end);
    wa_mem_free(ctx, P->head);
    wa_mem_free(ctx, P->ring);
    wa_mem_free(ctx, P->touched_blocks);
    wa_mem_free(ctx, P->touched_items);
    wa_mem_free(ctx, P->stack);
    wa_mem_free(ctx, P->sorted);
}

/* Inserts the decided wait states as s_nop chunks of at most 16. */
static wa_status insert_nops(hz_pass *P, wa_pass_stats *s)
{
    wa_edit e;
    wa_edit_init(&e, P->prog);
    wa_status st = WA_OK;
    for (unsigned i = 0; P->pad && i < P->prog->ninstrs && st == WA_OK; i++) {
        unsigned left = P->pad[i];
        s->nop_wait_states += left;
        while (left && st == WA_OK) {
            unsigned k = left > 16 ? 16 : left;
            wa_operand count = wa_opnd_imm((int64_t)k - 1);
            st = wa_edit_insert(&e, i, WA_OP_S_NOP, &count, 1, NULL);
            s->nops_inserted++;
            left -= k;
        }
    }
    if (st == WA_OK)
        st = wa_edit_apply(&e);
    wa_edit_free(&e);
    s->inserted = s->nops_inserted;
    return st;
}

wa_status wa_pass_hazards(wa_program *prog, const wa_hazard_options *opts, wa_pass_stats *stats)
{
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
    wa_pass_stats local;
    wa_pass_stats *s = wa_stats_begin(stats, &local, prog);
    hz_pass P;
    memset(&P, 0, sizeof(P));
    P.prog = prog;
    P.soft_clauses = wa_hz_soft_clauses(prog);
    P.ctx = ctx;
    P.target = prog->target;
    wa_status st = setup(&P);
    if (st == WA_OK && P.nrules) {
        /* unreachable blocks first (they may fall into reachable ones), then
           reverse post-order: every block after its forward predecessors */
        for (unsigned b = 0; b < P.cfg.nblocks && st == WA_OK; b++)
            if (P.cfg.rpo_index[b] == WA_NONE)
                st = scan_block(&P, b);
        for (unsigned k = 0; k < P.cfg.nrpo && st == WA_OK; k++)
            st = scan_block(&P, P.cfg.rpo[k]);
        s->iterations = 1;
    }
    if (st == WA_OK)
        st = insert_nops(&P, s);
    teardown(&P);
    wa_stats_end(s, prog);
    return st;
}
