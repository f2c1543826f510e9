/* lib/sim/hazards.c — the hazard mode: too few wait states between a producer and
   a consumer, judged on the path the wave actually executes.

   Model. Every wave keeps a counter of the wait states it has issued: each
   executed instruction adds c->wait_states (1, or N+1 for s_nop N, the count the
   rules use). After an instruction runs, sim_hz_record() notes
   it, per 32-bit register unit it touches, as the latest producer of its kind
   (P_*: VALU write, TRANS write, SALU write, MFMA write of D, MFMA read of srcC,
   wide VMEM store data) together with the counter after it. Before an
   instruction runs, sim_hz_check() looks up, for every unit it reads or writes,
   the latest producer that a rule pairs with this consumer; the wait states in
   between are the counter now minus the counter after the producer. Because the
   counter follows the executed trace, loops, branches and back edges need no
   CFG walk: the distance is the one of the path taken. (LLVM takes the
   minimum over all paths statically; here a short path that no run takes is
   not judged.) Every instruction counts c->wait_states, s_waitcnt and
   s_barrier included, however long they stall. Each wave has its own counter
   and tables, so waves never see each other's producers; a new workgroup
   starts far from the previous one's producers. Like LLVM, only the nearest
   producer of the kind a rule names matters, and a later write of another
   kind (say a SALU write after a VALU write of the same SGPR) does not cancel
   it.

   Register units: SGPRs, VGPRs and AGPRs (physical first, then the components
   of virtual registers, as sim_reg_of() numbers them) and vcc_lo, vcc_hi,
   exec_lo, exec_hi, m0. A 64-bit or tuple operand touches each of its units, so
   overlap is per 32-bit register.

   The rules and their numbers are the shared table of
   lib/analysis/hazard_rules.c (the hazard pass and checker read it too); this
   file only keeps the per-wave records and judges the executed path. */
#include "sim_internal.h"
#include "../analysis/hazard_rules.h"

#include <stdio.h>
#include <string.h>

/* Gap added to the counter at every reset (a new workgroup): larger than any
   rule's number, so the previous workgroup's producers are out of reach. */
#define HZ_GAP 1024u

/* ---- register units and classes ---------------------------------------------------------- */

/* Special registers after the three files (SCC takes part in no rule). */
enum { X_VCC_LO = 0, X_VCC_HI, X_EXEC_LO, X_EXEC_HI, X_M0, X_PSEUDO,
       X_COUNT = X_PSEUDO + WA_HZ_X_COUNT };

#define P_COUNT WA_HZ_P_COUNT

/* ---- state ------------------------------------------------------------------------------- */

typedef struct hz_rec {
    uint64_t end;      /* the wave's counter after the producer; 0: none yet */
    unsigned item;     /* the producer */
    unsigned first;    /* MFMA: first unit and size of its D (srcC identity) */
    uint16_t count;
    uint8_t passes;    /* MFMA pass count on the target */
    uint8_t smfma;     /* MFMA with f32 inputs (second column of a rule) */
} hz_rec;

struct sim_hz {
    wa_context *ctx;
    uint64_t t;        /* wait states issued by the wave (plus HZ_GAP per reset) */
    unsigned base[SIM_FILES]; /* first unit of each register file */
    unsigned xbase;    /* first special unit */
    unsigned nunits;   /* 0 until the first instruction sizes the tables */
    hz_rec *rec;       /* nunits * P_COUNT */
    /* H35: the instructions of one soft-clause kind executed since the last
       other one (oldest first) */
    unsigned clause[WA_HZ_CLAUSE_MAX];
    unsigned nclause, clause_kind;
};

sim_hz *sim_hz_new(wa_context *ctx)
{
    sim_hz *hz = wa_mem_calloc(ctx, 1, sizeof(*hz));
    if (hz) {
        hz->ctx = ctx;
        hz->t = HZ_GAP;
    }
    return hz;
}

void sim_hz_free(wa_context *ctx, sim_hz *hz)
{
    if (!hz)
        return;
    wa_mem_free(ctx, hz->rec);
    wa_mem_free(ctx, hz);
}

void sim_hz_reset(sim_hz *hz)
{
    if (hz) {
        hz->t += HZ_GAP;
        hz->nclause = 0;
    }
}

static int hz_alloc(sim_hz *hz, const wa_sim *sim)
{
    unsigned u = 0;
    for (unsigned f = 0; f < SIM_FILES; f++) {
        hz->base[f] = u;
        u += sim->nregs[f];
    }
    hz->xbase = u;
    hz->rec = wa_mem_calloc(hz->ctx, (size_t)(u + X_COUNT) * P_COUNT, sizeof(hz_rec));
    if (!hz->rec)
        return 0;
    hz->nunits = u + X_COUNT;
    return 1;
}

static unsigned unit_class(const sim_hz *hz, unsigned u)
{
    if (u >= hz->xbase) {
        switch (u - hz->xbase) {
        case X_VCC_LO:
        case X_VCC_HI: return WA_HZ_U_VCC;
        case X_EXEC_LO:
        case X_EXEC_HI: return WA_HZ_U_EXEC;
        case X_M0: return WA_HZ_U_M0;
        default: return WA_HZ_U_PSEUDO;
        }
    }
    return u >= hz->base[SIM_FILE_A]   ? WA_HZ_U_AGPR
           : u >= hz->base[SIM_FILE_V] ? WA_HZ_U_VGPR
                                       : WA_HZ_U_SGPR;
}

static hz_rec *rec_of(const sim_hz *hz, unsigned unit, unsigned kind)
{
    return &hz->rec[(size_t)unit * P_COUNT + kind];
}

/* The units of a register operand, in component order (out[k] is component k). */
static unsigned opnd_units(const sim_hz *hz, const wa_sim *sim, const wa_operand *o,
                           unsigned *out, unsigned max)
{
    unsigned x = hz->xbase, n = 0;
    if (o->kind == WA_OPND_SPECIAL) {
        switch (o->id) {
        case WA_SPECIAL_VCC: out[n++] = x + X_VCC_LO; out[n++] = x + X_VCC_HI; break;
        case WA_SPECIAL_VCC_LO: out[n++] = x + X_VCC_LO; break;
        case WA_SPECIAL_VCC_HI: out[n++] = x + X_VCC_HI; break;
        case WA_SPECIAL_EXEC: out[n++] = x + X_EXEC_LO; out[n++] = x + X_EXEC_HI; break;
        case WA_SPECIAL_EXEC_LO: out[n++] = x + X_EXEC_LO; break;
        case WA_SPECIAL_EXEC_HI: out[n++] = x + X_EXEC_HI; break;
        case WA_SPECIAL_M0: out[n++] = x + X_M0; break;
        default: break; /* scc */
        }
        return n;
    }
    if (o->kind != WA_OPND_VIRT && o->kind != WA_OPND_PHYS)
        return 0;
    for (unsigned k = 0; k < o->count && n < max; k++) {
        unsigned f, idx;
        if (!sim_reg_of(sim, o, k, &f, &idx) || f >= SIM_FILES || idx >= sim->nregs[f])
            break;
        out[n++] = hz->base[f] + idx;
    }
    return n;
}

/* The units of an implicit special register (WA_SPECIAL_VCC, _EXEC, _M0). */
static unsigned special_units(const sim_hz *hz, unsigned special, unsigned *out)
{
    int k = wa_hz_pseudo_index(special);
    if (k >= 0) {
        out[0] = hz->xbase + X_PSEUDO + (unsigned)k;
        return 1;
    }
    wa_operand o;
    memset(&o, 0, sizeof(o));
    o.kind = WA_OPND_SPECIAL;
    o.id = special;
    return opnd_units(hz, NULL, &o, out, 2);
}

/* ---- the consumer's accesses ------------------------------------------------------------- */

#define HZ_MAX_ACC 128u
#define HZ_MAX_UNITS 32u

typedef struct hz_acc {
    unsigned unit;
    unsigned first, count; /* the operand's units (srcC identity) */
    unsigned char how;     /* WA_HZ_A_* */
    unsigned char opnd;    /* operand index, WA_HZ_IMPLICIT */
    unsigned char comp;    /* component within the operand */
} hz_acc;

static unsigned ref_units(const sim_ctx *c, const sim_hz *hz, const wa_hz_ref *r, unsigned *units)
{
    if (r->opnd == WA_HZ_IMPLICIT)
        return special_units(hz, r->special, units);
    return opnd_units(hz, c->sim, &c->in->ops[r->opnd], units, HZ_MAX_UNITS);
}

static unsigned gather(const sim_ctx *c, const sim_hz *hz, const wa_hz_ref *refs, unsigned nrefs,
                       hz_acc *acc)
{
    unsigned n = 0, units[HZ_MAX_UNITS];
    for (unsigned i = 0; i < nrefs; i++) {
        if (!refs[i].how)
            continue;
        unsigned nu = ref_units(c, hz, &refs[i], units);
        for (unsigned j = 0; j < nu && n < HZ_MAX_ACC; j++) {
            hz_acc *a = &acc[n++];
            a->unit = units[j];
            a->first = units[0];
            a->count = nu;
            a->how = refs[i].how;
            a->opnd = refs[i].opnd;
            a->comp = (unsigned char)j;
        }
    }
    return n;
}

/* ---- messages ---------------------------------------------------------------------------- */

static char file_letter(unsigned f)
{
    return f == SIM_FILE_S ? 's' : f == SIM_FILE_V ? 'v' : 'a';
}

static void acc_name(const sim_ctx *c, const sim_hz *hz, const hz_acc *a, char *buf, size_t len)
{
    if (a->opnd == WA_HZ_IMPLICIT) {
        unsigned x = a->unit - hz->xbase;
        if (x > X_PSEUDO)
            snprintf(buf, len, "hwreg %u", x - X_PSEUDO - 1u);
        else
            snprintf(buf, len, "%s", x <= X_VCC_HI      ? "vcc"
                                     : x <= X_EXEC_HI   ? "exec"
                                     : x == X_M0        ? "m0"
                                                        : "the DGEMM pipeline");
        return;
    }
    const wa_operand *o = &c->in->ops[a->opnd];
    const wa_program *prog = c->sim->prog;
    if (o->kind == WA_OPND_SPECIAL) {
        snprintf(buf, len, "%s", wa_special_name((wa_special)o->id));
    } else if (o->kind == WA_OPND_VIRT) {
        char l = file_letter(c->sim->vfile[o->id]);
        if (o->id < prog->nvregs && prog->vregs[o->id].size == 1)
            snprintf(buf, len, "%%%c%u", l, (unsigned)o->id);
        else
            snprintf(buf, len, "%%%c%u[%u]", l, (unsigned)o->id, (unsigned)(o->first + a->comp));
    } else {
        char l = o->reg_class == WA_REG_SGPR ? 's' : o->reg_class == WA_REG_AGPR ? 'a' : 'v';
        snprintf(buf, len, "%c%u", l, (unsigned)(o->id + a->comp));
    }
}

static void report(sim_ctx *c, const sim_hz *hz, const wa_hz_rule *r, const hz_acc *a,
                   const hz_rec *p, int need, uint64_t have)
{
    char reg[48], formula[96];
    acc_name(c, hz, a, reg, sizeof(reg));
    wa_hz_formula(formula, sizeof(formula), r, c->sim->target, p->passes, p->smfma);
    const wa_instr *pin = &c->sim->prog->instrs[p->item];
    const char *role = a->opnd == WA_HZ_IMPLICIT ? "implicit" : c->info->operands[a->opnd].name;
    const char *verb = (r->how & WA_HZ_A_WRITE) ? "written" : "read";
    const char *pverb = r->prod == WA_HZ_P_SRCC    ? "read it as srcC"
                        : r->prod == WA_HZ_P_STORE ? "stored it"
                                                   : "wrote it";
    const char *tname = wa_target_name(c->sim->target);
    sim_fail(c, WA_E_SIM_HAZARD,
             "hazard: %s (%s) is %s %llu wait state%s after %s @I%u %s; %s needs %d "
             "(rule %s: %s%s)",
             reg, role ? role : "operand", verb, (unsigned long long)have, have == 1 ? "" : "s",
             wa_isa_mnemonic(pin->op, c->sim->target), (unsigned)pin->tag, pverb,
             tname ? tname : "the target", need, r->ref, r->what, formula);
}

/* ---- check and record -------------------------------------------------------------------- */

void sim_hz_check(sim_ctx *c)
{
    sim_hz *hz = c->w->hz;
    if (!hz)
        return;
    if (!hz->rec && !hz_alloc(hz, c->sim)) {
        sim_fail(c, WA_E_NOMEM, "out of memory for the hazard tables");
        return;
    }
    unsigned kind = wa_hz_clause_kind(c->info);
    if (kind && hz->nclause && hz->clause_kind == kind && wa_hz_soft_clauses(c->sim->prog) &&
        wa_hz_clause_conflict(c->sim->prog, hz->clause, hz->nclause, c->item)) {
        const wa_instr *first = &c->sim->prog->instrs[hz->clause[0]];
        sim_fail(c, WA_E_SIM_HAZARD, WA_HZ_CLAUSE_FMT,
                 wa_isa_mnemonic(c->in->op, c->sim->target), wa_hz_clause_name(kind),
                 wa_isa_mnemonic(first->op, c->sim->target), (unsigned)first->tag,
                 wa_hz_clause_rule(kind), wa_hz_clause_what(kind));
        return;
    }
    unsigned cls = wa_hz_instr_class(c->in, c->info);
    if (!cls)
        return;
    wa_hz_ref refs[WA_HZ_MAX_REFS];
    unsigned nrefs = wa_hz_refs(refs, c->in, c->info);
    hz_acc acc[HZ_MAX_ACC];
    unsigned nacc = gather(c, hz, refs, nrefs, acc);
    /* the worst violation (largest shortfall; the first rule on ties) */
    const wa_hz_rule *best = NULL;
    const hz_acc *best_acc = NULL;
    const hz_rec *best_rec = NULL;
    int best_need = 0;
    uint64_t best_have = 0, best_short = 0;
    for (unsigned i = 0; i < wa_hz_nrules; i++) {
        const wa_hz_rule *r = &wa_hz_rules[i];
        if (!(r->cons & cls) || (r->not_cons & cls))
            continue;
        for (unsigned j = 0; j < nacc; j++) {
            const hz_acc *a = &acc[j];
            if (!(a->how & r->how) || !(unit_class(hz, a->unit) & r->units))
                continue;
            const hz_rec *p = rec_of(hz, a->unit, r->prod);
            if (!p->end || !wa_hz_op_match(r, c->sim->prog->instrs[p->item].op, c->in->op))
                continue;
            if (r->srcc != WA_HZ_SRCC_ANY) {
                int same = p->first == a->first && p->count == a->count;
                if (same != (r->srcc == WA_HZ_SRCC_SAME))
                    continue;
            }
            int need = wa_hz_required(r, c->sim->target, p->passes, p->smfma);
            uint64_t have = hz->t - p->end;
            if (need <= 0 || have >= (uint64_t)need)
                continue;
            if ((uint64_t)need - have > best_short) {
                best_short = (uint64_t)need - have;
                best = r;
                best_acc = a;
                best_rec = p;
                best_need = need;
                best_have = have;
            }
        }
    }
    if (best)
        report(c, hz, best, best_acc, best_rec, best_need, best_have);
}

/* Records the instruction that just executed as a producer. */
void sim_hz_record(sim_ctx *c)
{
    sim_hz *hz = c->w->hz;
    if (!hz)
        return;
    hz->t += c->wait_states;
    unsigned ckind = wa_hz_clause_kind(c->info);
    if (ckind != hz->clause_kind)
        hz->nclause = 0;
    hz->clause_kind = ckind;
    if (ckind) {
        if (hz->nclause == WA_HZ_CLAUSE_MAX) { /* keep the newest */
            memmove(hz->clause, hz->clause + 1, (WA_HZ_CLAUSE_MAX - 1) * sizeof(unsigned));
            hz->nclause--;
        }
        hz->clause[hz->nclause++] = c->item;
    }
    if (!hz->rec)
        return;
    unsigned passes = wa_hz_passes(c->info, c->sim->target);
    int smfma = wa_hz_is_smfma(c->info);
    wa_hz_ref refs[WA_HZ_MAX_REFS];
    unsigned nrefs = wa_hz_refs(refs, c->in, c->info);
    unsigned units[HZ_MAX_UNITS];
    for (unsigned i = 0; i < nrefs; i++) {
        if (!refs[i].produces)
            continue;
        unsigned nu = ref_units(c, hz, &refs[i], units);
        for (unsigned kind = 0; kind < WA_HZ_P_COUNT; kind++) {
            if (!(refs[i].produces & (1u << kind)))
                continue;
            for (unsigned j = 0; j < nu; j++) {
                hz_rec *r = rec_of(hz, units[j], kind);
                memset(r, 0, sizeof(*r));
                r->end = hz->t;
                r->item = c->item;
                r->first = units[0];
                r->count = (uint16_t)nu;
                r->passes = (uint8_t)passes;
                r->smfma = (uint8_t)smfma;
            }
        }
    }
}
