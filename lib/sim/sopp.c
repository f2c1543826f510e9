/* lib/sim/sopp.c — program control semantics (SOPP): branches, s_endpgm,
   s_barrier, s_waitcnt, s_nop, s_sleep, priorities, index-mode and no-op hints.

   s_waitcnt blocks the wave until its in-flight operations drop to the counts
   (lgkmcnt counts LDS and scalar memory together). Branches on an undefined SCC,
   VCC or EXEC are errors (in the permissive mode: not taken). Not executed:
   s_sethalt, s_trap, s_sendmsg, s_sendmsghalt (sim_sopp_why_not). */
#include "sim_internal.h"

static unsigned label_item(const wa_sim *sim, wa_label l)
{
    return l < sim->prog->nlabels ? sim->label_at[l] : WA_NONE;
}

static void do_branch(sim_ctx *c, int taken)
{
    if (!taken)
        return;
    unsigned t = label_item(c->sim, (wa_label)c->in->ops[0].id);
    if (t == WA_NONE) {
        sim_fail(c, WA_E_INTERNAL, "branch to a label that is not placed");
        return;
    }
    c->next_pc = t;
}

/* A branch on an undefined condition: an error, or in the permissive mode a
   fixed choice (not taken). */
static int condition(sim_ctx *c, int value, int def, const char *what)
{
    if (def)
        return value;
    if (!(c->sim->opts.flags & WA_SIM_PERMISSIVE))
        sim_fail(c, WA_E_SIM_FAULT, "branches on %s, which holds no defined value", what);
    else
        c->sim->stats.undefined_addresses++; /* the path taken is arbitrary */
    return 0;
}

static void op_branch(sim_ctx *c) { do_branch(c, 1); }
static void op_scc0(sim_ctx *c) { do_branch(c, condition(c, !c->w->scc, c->w->scc_def, "SCC")); }
static void op_scc1(sim_ctx *c) { do_branch(c, condition(c, c->w->scc, c->w->scc_def, "SCC")); }
static void op_vccz(sim_ctx *c) { do_branch(c, condition(c, c->w->vcc == 0, c->w->vcc_def, "VCC")); }
static void op_vccnz(sim_ctx *c) { do_branch(c, condition(c, c->w->vcc != 0, c->w->vcc_def, "VCC")); }
static void op_execz(sim_ctx *c) { do_branch(c, condition(c, c->w->exec == 0, c->w->exec_def, "EXEC")); }
static void op_execnz(sim_ctx *c) { do_branch(c, condition(c, c->w->exec != 0, c->w->exec_def, "EXEC")); }
static void op_endpgm(sim_ctx *c) { c->stop = 1; }
static void op_barrier(sim_ctx *c) { c->barrier = 1; }
static void op_nop(sim_ctx *c) { c->wait_states = (unsigned)c->in->ops[0].imm.i + 1; }
/* s_sleep is one wait state (hazards) but takes time (about 64 clocks per unit) */
static void op_sleep(sim_ctx *c) { c->cycles = 64u * (unsigned)c->in->ops[0].imm.i + 1; }
static void op_setprio(sim_ctx *c) { (void)c; }

/* Time at which the wave's in-flight operations on `queues` drop to `count`. */
static uint64_t time_for_count(const wa_sim *sim, const sim_wave *w, unsigned queues, unsigned count)
{
    uint64_t times[256];
    unsigned n = 0, over = 0;
    for (unsigned h = 0; h < sim->nheap; h++) {
        const sim_op *op = sim->heap[h];
        if (op->wave != w->id || !(queues >> op->queue & 1u))
            continue;
        if (n < 256)
            times[n++] = op->done;
        else
            over++;
    }
    if (n + over <= count)
        return w->t;
    /* the (n - count)-th smallest completion time */
    unsigned want = n + over - count; /* how many must complete */
    if (want > n)
        want = n;
    for (unsigned i = 1; i < n; i++) { /* insertion sort: small lists */
        uint64_t t = times[i];
        unsigned j = i;
        while (j > 0 && times[j - 1] > t) {
            times[j] = times[j - 1];
            j--;
        }
        times[j] = t;
    }
    uint64_t t = times[want - 1];
    return t > w->t ? t : w->t;
}

static void op_waitcnt(sim_ctx *c)
{
    const wa_mods *m = &c->in->mods;
    uint64_t t = c->w->t;
    if (m->vmcnt >= 0) {
        uint64_t u = time_for_count(c->sim, c->w, 1u << SIM_Q_VM, (unsigned)m->vmcnt);
        if (u > t)
            t = u;
    }
    if (m->lgkmcnt >= 0) {
        uint64_t u = time_for_count(c->sim, c->w, 1u << SIM_Q_DS | 1u << SIM_Q_SM,
                                    (unsigned)m->lgkmcnt);
        if (u > t)
            t = u;
    }
    if (t > c->w->t) {
        c->sim->stats.waits++;
        c->w->t = t;
    }
}

/* s_set_gpr_idx_mode: M0[15:12] = the mode mask (VGPR index mode itself is only
   turned on by s_set_gpr_idx_on, which the simulator does not execute). */
static void op_set_gpr_idx_mode(sim_ctx *c)
{
    sim_wave *w = c->w;
    w->m0 = (w->m0 & ~0xF000u) | ((uint32_t)c->in->ops[0].imm.i & 0xFu) << 12;
}

/* Instructions with no effect on the kernel's state here: s_wakeup (a hint to
   sleeping waves), s_icache_inv (no instruction cache), the performance levels
   and trace data (observability only), s_set_gpr_idx_off (index mode is never on
   in the simulator). */
static void op_none(sim_ctx *c) { (void)c; }

/* The debugger's status bits are 0: no debugger is attached. */
static void op_cdbg(sim_ctx *c) { do_branch(c, 0); }

static const sim_fn sopp_fns[WA_OP_COUNT_] = {
    [WA_OP_S_BRANCH] = op_branch,
    [WA_OP_S_CBRANCH_SCC0] = op_scc0,
    [WA_OP_S_CBRANCH_SCC1] = op_scc1,
    [WA_OP_S_CBRANCH_VCCZ] = op_vccz,
    [WA_OP_S_CBRANCH_VCCNZ] = op_vccnz,
    [WA_OP_S_CBRANCH_EXECZ] = op_execz,
    [WA_OP_S_CBRANCH_EXECNZ] = op_execnz,
    [WA_OP_S_ENDPGM] = op_endpgm,
    [WA_OP_S_BARRIER] = op_barrier,
    [WA_OP_S_NOP] = op_nop,
    [WA_OP_S_SLEEP] = op_sleep,
    [WA_OP_S_SETPRIO] = op_setprio,
    [WA_OP_S_WAITCNT] = op_waitcnt,
    [WA_OP_S_WAKEUP] = op_none,
    [WA_OP_S_ICACHE_INV] = op_none,
    [WA_OP_S_INCPERFLEVEL] = op_none,
    [WA_OP_S_DECPERFLEVEL] = op_none,
    [WA_OP_S_TTRACEDATA] = op_none,
    [WA_OP_S_SET_GPR_IDX_OFF] = op_none,
    [WA_OP_S_SET_GPR_IDX_MODE] = op_set_gpr_idx_mode,
    [WA_OP_S_CBRANCH_CDBGSYS] = op_cdbg,
    [WA_OP_S_CBRANCH_CDBGUSER] = op_cdbg,
    [WA_OP_S_CBRANCH_CDBGSYS_OR_USER] = op_cdbg,
    [WA_OP_S_CBRANCH_CDBGSYS_AND_USER] = op_cdbg,
};

sim_fn sim_sopp_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? sopp_fns[op] : NULL;
}

static const char *const sopp_why[WA_OP_COUNT_] = {
    [WA_OP_S_SETHALT] = "halting the wave (for a debugger) is not modelled",
    [WA_OP_S_TRAP] = "the trap handler is not modelled",
    [WA_OP_S_SENDMSG] = "messages to the host or the SPI are not modelled",
    [WA_OP_S_SENDMSGHALT] = "messages to the host or the SPI are not modelled",
};

const char *sim_sopp_why_not(unsigned op)
{
    return op < WA_OP_COUNT_ ? sopp_why[op] : NULL;
}

