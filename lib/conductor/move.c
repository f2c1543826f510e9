/* lib/conductor/move.c — checking and performing one move: the dependence
   graph decides register order; the instructions crossed decide memory order,
   barriers and side effects; what is valid but risky becomes a warning. */
#include "conductor_internal.h"

#include <stdio.h>
#include <string.h>

static const char *space_name(unsigned space)
{
    if (space & WA_SPACE_LDS)
        return "LDS";
    if (space & WA_SPACE_SCRATCH)
        return "scratch";
    return "global memory";
}

/* "%v12[1]", "s3", "vcc_lo" for messages. */
static void unit_name(char *buf, size_t len, const wa_schedule *s, unsigned unit)
{
    wa_unit_name(buf, len, &s->units, s->prog, unit);
}

static unsigned tagn(const wa_schedule *s, unsigned node)
{
    return wa_sched_tag(s, node);
}

/* Register order: a predecessor crossed upwards or a successor crossed
   downwards breaks a dependence. */
static int check_registers(const wa_schedule *s, unsigned x, unsigned from, unsigned to,
                           char *why, size_t len)
{
    char u[64];
    if (to < from) {
        for (unsigned e = s->pred_off[x]; e < s->pred_off[x + 1]; e++) {
            const wa_sedge *pe = &s->pred[e];
            unsigned p = s->pos[pe->node];
            if (p < to || p >= from)
                continue;
            unit_name(u, sizeof(u), s, pe->unit);
            if (pe->kind == WA_DEP_RAW)
                snprintf(why, len, "I%u reads %s defined by I%u: it cannot move before it",
                         tagn(s, x), u, tagn(s, pe->node));
            else if (pe->kind == WA_DEP_WAR)
                snprintf(why, len, "I%u writes %s that I%u reads: it cannot move before it",
                         tagn(s, x), u, tagn(s, pe->node));
            else
                snprintf(why, len, "I%u writes %s after I%u does: it cannot move before it",
                         tagn(s, x), u, tagn(s, pe->node));
            return 0;
        }
    } else {
        for (unsigned e = s->succ_off[x]; e < s->succ_off[x + 1]; e++) {
            const wa_sedge *se = &s->succ[e];
            unsigned p = s->pos[se->node];
            if (p <= from || p > to)
                continue;
            unit_name(u, sizeof(u), s, se->unit);
            if (se->kind == WA_DEP_RAW)
                snprintf(why, len, "I%u reads %s that I%u defines: I%u cannot move after it",
                         tagn(s, se->node), u, tagn(s, x), tagn(s, x));
            else if (se->kind == WA_DEP_WAR)
                snprintf(why, len, "I%u writes %s that I%u reads: I%u cannot move after it",
                         tagn(s, se->node), u, tagn(s, x), tagn(s, x));
            else
                snprintf(why, len, "I%u writes %s after I%u does: I%u cannot move after it",
                         tagn(s, se->node), u, tagn(s, x), tagn(s, x));
            return 0;
        }
    }
    return 1;
}

/* Pending warnings of one move, emitted only once the move is known valid. */
typedef struct pending {
    unsigned sev;
    unsigned other;
    unsigned kind; /* 0 barrier, 1 read past write, 2 write past read, 3 write past write */
    unsigned space;
} pending;
#define MAX_PENDING 8

static int is_memory(const wa_snode *n)
{
    return (n->rd | n->wr) != 0;
}

/* The instructions crossed: side effects, barriers, memory order. */
static int check_crossed(wa_schedule *s, unsigned x, unsigned from, unsigned to, char *why,
                         size_t len, pending *pend, unsigned *npend)
{
    unsigned lo = to < from ? to : from + 1;
    unsigned hi = to < from ? from - 1 : to;
    const wa_snode *nx = &s->node[x];
    /* nearest first: the first obstacle is the one reported */
    for (unsigned step = 0; step <= hi - lo; step++) {
        unsigned i = to < from ? hi - step : lo + step;
        unsigned y = s->at[i];
        const wa_snode *ny = &s->node[y];
        if (!(ny->flags & WA_SN_REAL))
            continue;
        if (ny->flags & WA_SN_FENCE) {
            snprintf(why, len, "I%u cannot cross I%u (%s has side effects)", tagn(s, x),
                     tagn(s, y), wa_sched_mnemonic(s, y));
            return 0;
        }
        if (ny->flags & WA_SN_BARRIER) {
            if (is_memory(nx)) {
                snprintf(why, len, "memory operation I%u (%s) cannot cross the barrier I%u",
                         tagn(s, x), wa_sched_mnemonic(s, x), tagn(s, y));
                return 0;
            }
            if (*npend < MAX_PENDING) {
                pending p = { WA_SCHED_WARN, y, 0, 0 };
                pend[(*npend)++] = p;
            }
            continue;
        }
        if (!is_memory(nx) || !is_memory(ny))
            continue;
        unsigned space = 0;
        int alias = wa_sched_memory_conflict(s, x, y, &space);
        if (alias < 0 || alias == WA_ALIAS_DISJOINT)
            continue;
        int atomic = ((nx->flags | ny->flags) & WA_SN_ATOMIC) != 0;
        if (alias == WA_ALIAS_MUST || atomic || !(s->opts.flags & WA_SCHED_MEMORY_WARN)) {
            snprintf(why, len, "I%u (%s) and I%u (%s) %s %s: their order is kept", tagn(s, x),
                     wa_sched_mnemonic(s, x), tagn(s, y), wa_sched_mnemonic(s, y),
                     alias == WA_ALIAS_MUST ? "access the same" : "may access the same",
                     space_name(space));
            return 0;
        }
        if (*npend < MAX_PENDING) {
            unsigned xw = (nx->wr & space) != 0, yw = (ny->wr & space) != 0;
            pending p = { xw && yw ? WA_SCHED_CRITICAL : WA_SCHED_WARN, y,
                          xw && yw ? 3u : xw ? 2u : 1u, space };
            pend[(*npend)++] = p;
        }
    }
    return 1;
}

/* Address computations farther from their memory consumer than the option says. */
static void address_warnings(wa_schedule *s, unsigned x, unsigned from, unsigned cmd)
{
    unsigned lim = s->opts.address_distance;
    unsigned to = s->pos[x];
    /* x computes an address a memory operation reads */
    if (!is_memory(&s->node[x])) {
        for (unsigned e = s->succ_off[x]; e < s->succ_off[x + 1]; e++) {
            const wa_sedge *se = &s->succ[e];
            if (se->kind != WA_DEP_RAW || !is_memory(&s->node[se->node]))
                continue;
            unsigned c = s->pos[se->node];
            unsigned now = c > to ? c - to : 0;
            unsigned before = c > from ? c - from : 0;
            if (now > lim && before <= lim) {
                wa_sched_add_warning(s, WA_SCHED_INFO, cmd,
                                     "address computation I%u moved %u instructions away from "
                                     "its consumer I%u",
                                     tagn(s, x), now, tagn(s, se->node));
                return;
            }
        }
        return;
    }
    /* x is a memory operation moved away from its address computation */
    for (unsigned e = s->pred_off[x]; e < s->pred_off[x + 1]; e++) {
        const wa_sedge *pe = &s->pred[e];
        if (pe->kind != WA_DEP_RAW || is_memory(&s->node[pe->node]))
            continue;
        unsigned p = s->pos[pe->node];
        unsigned now = to > p ? to - p : 0, before = from > p ? from - p : 0;
        if (now > lim && before <= lim) {
            wa_sched_add_warning(s, WA_SCHED_INFO, cmd,
                                 "I%u moved %u instructions away from its address computation "
                                 "I%u",
                                 tagn(s, x), now, tagn(s, pe->node));
            return;
        }
    }
}

static void do_move(wa_schedule *s, unsigned x, unsigned from, unsigned to)
{
    wa_program_move(s->prog, from, to);
    if (from < to) {
        memmove(&s->at[from], &s->at[from + 1], (to - from) * sizeof(unsigned));
        for (unsigned i = from; i < to; i++)
            s->pos[s->at[i]] = i;
    } else if (to < from) {
        memmove(&s->at[to + 1], &s->at[to], (from - to) * sizeof(unsigned));
        for (unsigned i = to + 1; i <= from; i++)
            s->pos[s->at[i]] = i;
    }
    s->at[to] = x;
    s->pos[x] = to;
}

wa_status wa_sched_move(wa_schedule *s, unsigned x, unsigned to, unsigned cmd, char *why,
                        size_t why_len)
{
    const wa_snode *nx = &s->node[x];
    unsigned from = s->pos[x];
    if (!(nx->flags & WA_SN_REAL)) {
        snprintf(why, why_len, "item %u is not an instruction", from);
        return WA_E_INVALID;
    }
    if (nx->flags & WA_SN_PINNED) {
        snprintf(why, why_len, "I%u (%s) is pinned", tagn(s, x), wa_sched_mnemonic(s, x));
        return WA_E_INVALID;
    }
    unsigned b = nx->block;
    if (to < s->bfirst[b] || to > s->blast[b]) {
        snprintf(why, why_len, "I%u would leave its basic block", tagn(s, x));
        return WA_E_INVALID;
    }
    /* the block's terminator stays last; its labels stay first */
    unsigned last = s->at[s->blast[b]];
    if ((s->node[last].flags & WA_SN_TERM) && to >= s->blast[b]) {
        snprintf(why, why_len, "I%u cannot move past the block's terminator I%u (%s)",
                 tagn(s, x), tagn(s, last), wa_sched_mnemonic(s, last));
        return WA_E_INVALID;
    }
    for (unsigned i = to; i < from; i++) {
        if (s->orig[s->at[i]].op == WA_OP_LABEL) {
            snprintf(why, why_len, "I%u cannot move before the block's label", tagn(s, x));
            return WA_E_INVALID;
        }
    }
    if (to == from)
        return WA_OK;
    if (!check_registers(s, x, from, to, why, why_len))
        return WA_E_INVALID;
    pending pend[MAX_PENDING];
    unsigned npend = 0;
    if (!check_crossed(s, x, from, to, why, why_len, pend, &npend))
        return WA_E_INVALID;
    do_move(s, x, from, to);
    for (unsigned k = 0; k < npend; k++) {
        const pending *p = &pend[k];
        if (p->kind == 0)
            wa_sched_add_warning(s, p->sev, cmd, "I%u (%s) moved past the barrier I%u",
                                 tagn(s, x), wa_sched_mnemonic(s, x), tagn(s, p->other));
        else
            wa_sched_add_warning(s, p->sev, cmd,
                                 "%s I%u moved past %s I%u that may access the same %s",
                                 p->kind == 1 ? "read" : "write", tagn(s, x),
                                 p->kind == 2 ? "read" : "write", tagn(s, p->other),
                                 space_name(p->space));
    }
    address_warnings(s, x, from, cmd);
    return WA_OK;
}
