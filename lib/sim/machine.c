/* lib/sim/machine.c — the simulator's machine: creation, kernel arguments, the run
   loop (workgroups one after another, their waves interleaved by time), barriers,
   s_waitcnt, branches, operand access and errors. */
#include "sim_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define KERNARG_BASE 0x10000ull          /* device address of the kernarg segment */
#define DEFAULT_MAX_INSTRUCTIONS 100000000ull

uint64_t sim_rand(wa_sim *sim)
{
    uint64_t z = (sim->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- errors ------------------------------------------------------------------------------ */

void sim_fail(sim_ctx *c, wa_status st, const char *fmt, ...)
{
    wa_sim *sim = c->sim;
    if (sim->status != WA_OK)
        return;
    sim->status = st;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    wa_loc loc = c->in ? wa_instr_loc(sim->prog, c->in) : WA_LOC_NONE;
    wa_error(sim->ctx, st, loc, "%s (wave %u of workgroup %u,%u,%u)", msg, c->w ? c->w->id : 0,
             sim->wgid[0], sim->wgid[1], sim->wgid[2]);
}

/* ---- creation ---------------------------------------------------------------------------- */

static unsigned file_of_class(unsigned cls)
{
    return cls == WA_REG_SGPR ? SIM_FILE_S : cls == WA_REG_AGPR ? SIM_FILE_A : SIM_FILE_V;
}

wa_status wa_sim_create(wa_sim **out, const wa_program *prog, const wa_sim_options *opts)
{
    if (!out || !prog)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    if (opts) {
        if (opts->version < 1 || opts->version > WA_SIM_OPTIONS_VERSION)
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_sim_options version %u",
                            opts->version);
        o = *opts;
    }
    const unsigned known = WA_SIM_TIMING | WA_SIM_HAZARDS | WA_SIM_PERMISSIVE |
                           WA_SIM_UNDEF_ERRORS | WA_SIM_CLOCK_UNDEFINED;
    if (o.flags & ~known)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "unknown wa_sim_options flags 0x%x",
                        o.flags & ~known);
    unsigned wg[3];
    wa_program_workgroup_size(prog, wg);
    for (unsigned d = 0; d < 3; d++) {
        if (o.grid[d] == 0)
            o.grid[d] = 1;
        if (o.workgroup_size[d])
            wg[d] = o.workgroup_size[d];
        if (wg[d] == 0)
            wg[d] = 1;
    }
    uint64_t items = (uint64_t)wg[0] * wg[1] * wg[2];
    if (items > 1024 || wg[0] > 1024 || wg[1] > 1024 || wg[2] > 1024)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "workgroup of %u x %u x %u work-items: at most 1024 in all", wg[0], wg[1],
                        wg[2]);
    if ((uint64_t)o.grid[0] * o.grid[1] * o.grid[2] > 0xFFFFFFFFull)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "grid too large");
    unsigned errors = 0;
    wa_status st = wa_program_validate(&errors, prog, NULL);
    if (st)
        return st;

    wa_sim *sim = wa_mem_calloc(ctx, 1, sizeof(*sim));
    if (!sim)
        return wa_error_nomem(ctx);
    sim->ctx = ctx;
    sim->opts = o;
    sim->target = prog->target;
    memcpy(sim->wg, wg, sizeof(wg));
    memcpy(sim->grid, o.grid, sizeof(sim->grid));
    sim->nwaves = (unsigned)((items + SIM_LANES - 1) / SIM_LANES);
    sim->rng = o.seed * 0x2545F4914F6CDD1Dull + 0x9E37u;
    if ((st = wa_program_clone(&sim->prog, prog)) != WA_OK)
        goto fail;
    /* branch targets, found once */
    const wa_program *cp = sim->prog;
    sim->label_at = wa_mem_alloc(ctx, ((size_t)cp->nlabels + 1u) * sizeof(unsigned));
    if (!sim->label_at)
        goto nomem;
    for (unsigned l = 0; l < cp->nlabels; l++)
        sim->label_at[l] = WA_NONE;
    for (unsigned i = cp->ninstrs; i-- > 0;)
        if (cp->instrs[i].op == WA_OP_LABEL && cp->instrs[i].ops[0].id < cp->nlabels)
            sim->label_at[cp->instrs[i].ops[0].id] = i;
    /* virtual registers after the physical ones of their file */
    unsigned nv = prog->nvregs;
    sim->vfile = wa_mem_calloc(ctx, nv + 1, 1);
    sim->vbase = wa_mem_calloc(ctx, nv + 1, sizeof(unsigned));
    if (!sim->vfile || !sim->vbase)
        goto nomem;
    sim->nregs[SIM_FILE_S] = SIM_PHYS_S;
    sim->nregs[SIM_FILE_V] = SIM_PHYS_V;
    sim->nregs[SIM_FILE_A] = SIM_PHYS_A;
    for (unsigned v = 0; v < nv; v++) {
        const wa_vreg *vr = &prog->vregs[v];
        if (vr->cls == WA_REG_NONE)
            continue;
        unsigned f = file_of_class(vr->cls);
        sim->vfile[v] = (uint8_t)f;
        sim->vbase[v] = sim->nregs[f];
        sim->nregs[f] += vr->size;
    }
    /* arguments and the kernarg segment */
    sim->nargs = prog->nargs;
    sim->args = wa_mem_calloc(ctx, sim->nargs + 1, sizeof(wa_kernel_arg));
    sim->bufs = wa_mem_calloc(ctx, sim->nargs + 1, sizeof(sim_region));
    sim->arg_set = wa_mem_calloc(ctx, sim->nargs + 1, 1);
    if (!sim->args || !sim->bufs || !sim->arg_set)
        goto nomem;
    unsigned end = 0;
    for (unsigned a = 0; a < sim->nargs; a++) {
        sim->args[a] = prog->args[a].arg;
        sim->args[a].name = NULL; /* names stay in the program copy */
        if (sim->args[a].offset + sim->args[a].size > end)
            end = sim->args[a].offset + sim->args[a].size;
    }
    sim->kernarg_size = (end + 7u) & ~7u;
    /* 256 bytes of slack: loads just past the arguments stay inside the segment */
    sim->kernarg.base = KERNARG_BASE;
    sim->kernarg.size = sim->kernarg_size + 256;
    sim->kernarg.data = wa_mem_calloc(ctx, sim->kernarg.size, 1);
    sim->kernarg.def = wa_mem_calloc(ctx, sim->kernarg.size, 1);
    sim->arg_value = wa_mem_calloc(ctx, sim->kernarg_size + 8, 1);
    if (!sim->kernarg.data || !sim->kernarg.def || !sim->arg_value)
        goto nomem;
    sim->lds_bytes = prog->lds_bytes;
    sim->stats.version = WA_SIM_STATS_VERSION;
    *out = sim;
    return WA_OK;
nomem:
    st = wa_error_nomem(ctx);
fail:
    wa_sim_destroy(sim);
    return st;
}

static void free_waves(wa_sim *sim)
{
    if (!sim->waves)
        return;
    wa_context *ctx = sim->ctx;
    for (unsigned w = 0; w < sim->nwaves; w++) {
        sim_wave *wv = &sim->waves[w];
        wa_mem_free(ctx, wv->s);
        wa_mem_free(ctx, wv->s_def);
        wa_mem_free(ctx, wv->v);
        wa_mem_free(ctx, wv->a);
        for (unsigned f = 0; f < SIM_FILES; f++)
            wa_mem_free(ctx, wv->pend[f]);
        sim_hz_free(ctx, wv->hz);
    }
    wa_mem_free(ctx, sim->waves);
    sim->waves = NULL;
}

void wa_sim_destroy(wa_sim *sim)
{
    if (!sim)
        return;
    wa_context *ctx = sim->ctx;
    free_waves(sim);
    sim_ops_free(sim);
    sim_scratch_free(sim);
    for (unsigned a = 0; a < sim->nargs; a++)
        wa_mem_free(ctx, sim->bufs ? sim->bufs[a].def : NULL);
    wa_mem_free(ctx, sim->bufs);
    wa_mem_free(ctx, sim->args);
    wa_mem_free(ctx, sim->arg_set);
    wa_mem_free(ctx, sim->arg_value);
    wa_mem_free(ctx, sim->kernarg.data);
    wa_mem_free(ctx, sim->kernarg.def);
    wa_mem_free(ctx, sim->lds);
    wa_mem_free(ctx, sim->lds_def);
    wa_mem_free(ctx, sim->lds_sync);
    wa_mem_free(ctx, sim->vfile);
    wa_mem_free(ctx, sim->vbase);
    wa_program_destroy(sim->prog);
    wa_mem_free(ctx, sim->label_at);
    wa_mem_free(ctx, sim);
}

/* ---- arguments ----------------------------------------------------------------------------- */

static wa_status arg_check(wa_sim *sim, unsigned arg, const char *fn)
{
    if (arg >= sim->nargs)
        return wa_error(sim->ctx, WA_E_NOT_FOUND, WA_LOC_NONE,
                        "%s: the kernel has %u argument%s, no argument %u", fn, sim->nargs,
                        sim->nargs == 1 ? "" : "s", arg);
    return WA_OK;
}

wa_status wa_sim_bind_buffer(wa_sim *sim, unsigned arg, void *data, size_t bytes)
{
    if (!sim || (!data && bytes))
        return WA_E_INVALID;
    wa_diag_reset(sim->ctx);
    wa_status st = arg_check(sim, arg, "wa_sim_bind_buffer");
    if (st)
        return st;
    if (sim->args[arg].kind != WA_ARG_GLOBAL_BUFFER)
        return wa_error(sim->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "wa_sim_bind_buffer: argument %u is not a global buffer", arg);
    if (bytes > (1ull << 36))
        return wa_error(sim->ctx, WA_E_RANGE, WA_LOC_NONE,
                        "wa_sim_bind_buffer: %zu bytes: at most 64 GiB per buffer", bytes);
    sim_region *r = &sim->bufs[arg];
    wa_mem_free(sim->ctx, r->def);
    r->def = NULL;
    if (bytes) {
        r->def = wa_mem_alloc(sim->ctx, bytes);
        if (!r->def)
            return wa_error_nomem(sim->ctx);
        memset(r->def, 1, bytes); /* host data is defined */
    }
    r->base = SIM_BUFFER_BASE(arg);
    r->size = bytes;
    r->data = data;
    sim->arg_set[arg] = 1;
    return WA_OK;
}

wa_status wa_sim_set_arg(wa_sim *sim, unsigned arg, const void *value, size_t bytes)
{
    if (!sim || !value)
        return WA_E_INVALID;
    wa_diag_reset(sim->ctx);
    wa_status st = arg_check(sim, arg, "wa_sim_set_arg");
    if (st)
        return st;
    const wa_kernel_arg *a = &sim->args[arg];
    if (a->kind != WA_ARG_BY_VALUE)
        return wa_error(sim->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "wa_sim_set_arg: argument %u is not passed by value", arg);
    if (bytes != a->size)
        return wa_error(sim->ctx, WA_E_INVALID, WA_LOC_NONE,
                        "wa_sim_set_arg: argument %u has %u bytes, not %zu", arg, a->size, bytes);
    memcpy(sim->arg_value + a->offset, value, bytes);
    sim->arg_set[arg] = 1;
    return WA_OK;
}

uint64_t wa_sim_buffer_address(const wa_sim *sim, unsigned arg)
{
    if (!sim || arg >= sim->nargs || sim->args[arg].kind != WA_ARG_GLOBAL_BUFFER ||
        !sim->arg_set[arg])
        return 0;
    return sim->bufs[arg].base;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The kernarg segment for this grid: buffer addresses, by-value bytes and the
   hidden arguments. */
static wa_status fill_kernarg(wa_sim *sim)
{
    uint8_t *k = sim->kernarg.data;
    memset(k, 0, sim->kernarg.size);
    memset(sim->kernarg.def, 1, sim->kernarg.size);
    for (unsigned a = 0; a < sim->nargs; a++) {
        const wa_kernel_arg *ar = &sim->args[a];
        uint8_t *p = k + ar->offset;
        uint64_t v = 0;
        switch (ar->kind) {
        case WA_ARG_BY_VALUE:
            if (!sim->arg_set[a])
                return wa_error(sim->ctx, WA_E_INVALID, WA_LOC_NONE,
                                "argument %u (by value) has no value: wa_sim_set_arg", a);
            memcpy(p, sim->arg_value + ar->offset, ar->size);
            continue;
        case WA_ARG_GLOBAL_BUFFER:
            v = sim->arg_set[a] ? sim->bufs[a].base : 0;
            break;
        case WA_ARG_HIDDEN_BLOCK_COUNT_X: v = sim->grid[0]; break;
        case WA_ARG_HIDDEN_BLOCK_COUNT_Y: v = sim->grid[1]; break;
        case WA_ARG_HIDDEN_BLOCK_COUNT_Z: v = sim->grid[2]; break;
        case WA_ARG_HIDDEN_GROUP_SIZE_X: v = sim->wg[0]; break;
        case WA_ARG_HIDDEN_GROUP_SIZE_Y: v = sim->wg[1]; break;
        case WA_ARG_HIDDEN_GROUP_SIZE_Z: v = sim->wg[2]; break;
        case WA_ARG_HIDDEN_GRID_DIMS:
            v = sim->grid[2] > 1 ? 3 : sim->grid[1] > 1 ? 2 : 1;
            break;
        default: v = 0; break; /* remainders, offsets, dynamic LDS: 0 */
        }
        put_le(p, v, ar->size < 8 ? ar->size : 8);
    }
    return WA_OK;
}

/* ---- operand access ---------------------------------------------------------------------- */

int sim_reg_of(const wa_sim *sim, const wa_operand *o, unsigned comp, unsigned *file,
               unsigned *index)
{
    if (o->kind == WA_OPND_VIRT) {
        if (o->id >= sim->prog->nvregs)
            return 0;
        *file = sim->vfile[o->id];
        *index = sim->vbase[o->id] + o->first + comp;
        return 1;
    }
    if (o->kind == WA_OPND_PHYS) {
        *file = file_of_class(o->reg_class);
        *index = o->id + comp;
        unsigned lim = *file == SIM_FILE_S ? SIM_PHYS_S : 256u;
        return *index < lim;
    }
    return 0;
}

static char file_letter(unsigned f)
{
    return f == SIM_FILE_S ? 's' : f == SIM_FILE_V ? 'v' : 'a';
}

/* "v5" or "%v12[1]" for messages */
static void reg_name(const wa_sim *sim, const wa_operand *o, unsigned comp, char *buf, size_t n)
{
    if (o->kind == WA_OPND_VIRT)
        snprintf(buf, n, "%%%c%u[%u]", file_letter(sim->vfile[o->id]), o->id, o->first + comp);
    else
        snprintf(buf, n, "%c%u", file_letter(file_of_class(o->reg_class)), o->id + comp);
}

static int check_pending_read(sim_ctx *c, const wa_operand *o, unsigned comp, unsigned file,
                              unsigned idx)
{
    uint32_t p = c->w->pend[file][idx];
    if (!p)
        return 1;
    char name[48];
    reg_name(c->sim, o, comp, name, sizeof(name));
    /* find the operation for its instruction */
    unsigned item = WA_NONE;
    for (unsigned h = 0; h < c->sim->nheap; h++)
        if (c->sim->heap[h]->id == p)
            item = c->sim->heap[h]->item;
    sim_fail(c, WA_E_SIM_WAIT, "reads %s before the load into it (@I%u) has completed: missing s_waitcnt",
             name, item != WA_NONE ? (unsigned)c->sim->prog->instrs[item].tag : 0u);
    return 0;
}

static int check_pending_write(sim_ctx *c, const wa_operand *o, unsigned comp, unsigned file,
                               unsigned idx)
{
    uint32_t p = c->w->pend[file][idx];
    if (!p)
        return 1;
    char name[48];
    reg_name(c->sim, o, comp, name, sizeof(name));
    unsigned item = WA_NONE;
    for (unsigned h = 0; h < c->sim->nheap; h++)
        if (c->sim->heap[h]->id == p)
            item = c->sim->heap[h]->item;
    sim_fail(c, WA_E_SIM_WAIT,
             "overwrites %s while the load into it (@I%u) is still in flight: missing s_waitcnt",
             name, item != WA_NONE ? (unsigned)c->sim->prog->instrs[item].tag : 0u);
    return 0;
}

int sim_imm_bits(const sim_ctx *c, unsigned k, uint32_t *bits)
{
    const wa_operand *o = &c->in->ops[k];
    wa_data_type ty = k < c->info->num_operands ? (wa_data_type)c->info->operands[k].type : WA_TY_B32;
    if (ty == WA_TY_NONE)
        ty = WA_TY_B32;
    if (o->kind == WA_OPND_IMM && (ty == WA_TY_B64 || ty == WA_TY_F64)) {
        *bits = (uint32_t)o->imm.i;
        return 1;
    }
    return wa_imm_bits32(o, ty, bits);
}

static uint32_t special_read(sim_ctx *c, unsigned id, unsigned comp, int *def)
{
    sim_wave *w = c->w;
    switch (id) {
    case WA_SPECIAL_VCC:
        *def = w->vcc_def;
        return (uint32_t)(w->vcc >> (32 * (comp & 1)));
    case WA_SPECIAL_VCC_LO: *def = w->vcc_def; return (uint32_t)w->vcc;
    case WA_SPECIAL_VCC_HI: *def = w->vcc_def; return (uint32_t)(w->vcc >> 32);
    case WA_SPECIAL_EXEC:
        *def = w->exec_def;
        return (uint32_t)(w->exec >> (32 * (comp & 1)));
    case WA_SPECIAL_EXEC_LO: *def = w->exec_def; return (uint32_t)w->exec;
    case WA_SPECIAL_EXEC_HI: *def = w->exec_def; return (uint32_t)(w->exec >> 32);
    case WA_SPECIAL_M0: *def = w->m0_def; return w->m0;
    case WA_SPECIAL_SCC: *def = w->scc_def; return (uint32_t)w->scc;
    default: *def = 0; return 0;
    }
}

uint32_t sim_read_s(sim_ctx *c, unsigned k, unsigned comp, int *def)
{
    const wa_operand *o = &c->in->ops[k];
    *def = 1;
    if (sim_failed(c))
        return 0;
    switch (o->kind) {
    case WA_OPND_IMM:
    case WA_OPND_FIMM: {
        uint32_t bits = 0;
        wa_data_type ty = k < c->info->num_operands ? (wa_data_type)c->info->operands[k].type
                                                    : WA_TY_B32;
        if (ty == WA_TY_F64 || ty == WA_TY_B64) {
            /* 64-bit operands: an integer constant is the 64-bit integer, a float
               constant the double (inline constants are exact doubles). */
            uint64_t v = (uint64_t)o->imm.i;
            if (o->kind == WA_OPND_FIMM)
                memcpy(&v, &o->imm.f, sizeof(v));
            return (uint32_t)(comp ? v >> 32 : v);
        }
        if (!sim_imm_bits(c, k, &bits))
            sim_fail(c, WA_E_INTERNAL, "immediate operand %u cannot be encoded", k);
        if (comp && o->kind == WA_OPND_IMM)
            return (uint32_t)((uint64_t)o->imm.i >> 32);
        return comp ? 0 : bits;
    }
    case WA_OPND_SPECIAL:
        return special_read(c, o->id, comp, def);
    case WA_OPND_VIRT:
    case WA_OPND_PHYS: {
        unsigned f, idx;
        if (!sim_reg_of(c->sim, o, comp, &f, &idx) || f != SIM_FILE_S) {
            sim_fail(c, WA_E_INTERNAL, "operand %u is not a scalar register", k);
            return 0;
        }
        if (!check_pending_read(c, o, comp, f, idx))
            return 0;
        *def = c->w->s_def[idx];
        if (!*def && (c->sim->opts.flags & WA_SIM_UNDEF_ERRORS)) {
            char name[48];
            reg_name(c->sim, o, comp, name, sizeof(name));
            sim_fail(c, WA_E_SIM_FAULT, "reads %s, which holds no defined value", name);
        }
        return c->w->s[idx];
    }
    default:
        sim_fail(c, WA_E_INTERNAL, "operand %u has no value", k);
        return 0;
    }
}

uint64_t sim_read_s64(sim_ctx *c, unsigned k, int *def)
{
    const wa_operand *o = &c->in->ops[k];
    if (o->kind == WA_OPND_IMM) {
        *def = 1;
        return (uint64_t)o->imm.i;
    }
    int d0, d1;
    uint64_t lo = sim_read_s(c, k, 0, &d0);
    uint64_t hi = sim_read_s(c, k, 1, &d1);
    *def = d0 && d1;
    return lo | hi << 32;
}

void sim_read_vec(sim_ctx *c, unsigned k, unsigned comp, uint32_t out[SIM_LANES], uint64_t *def)
{
    const wa_operand *o = &c->in->ops[k];
    unsigned f, idx;
    *def = 0;
    if (c->dpp && k == 1 && comp == 0) {
        memcpy(out, c->dpp_src0, sizeof(c->dpp_src0));
        *def = c->dpp_src0_def;
        return;
    }
    if (sim_failed(c)) {
        memset(out, 0, SIM_LANES * sizeof(uint32_t));
        return;
    }
    if ((o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS) && sim_reg_of(c->sim, o, comp, &f, &idx) &&
        f != SIM_FILE_S) {
        if (!check_pending_read(c, o, comp, f, idx))
            return;
        const sim_vec *r = f == SIM_FILE_V ? &c->w->v[idx] : &c->w->a[idx];
        memcpy(out, r->v, sizeof(r->v));
        *def = r->def;
        if ((c->sim->opts.flags & WA_SIM_UNDEF_ERRORS) && (~r->def & c->w->exec)) {
            char name[48];
            reg_name(c->sim, o, comp, name, sizeof(name));
            sim_fail(c, WA_E_SIM_FAULT, "reads %s in lanes where it holds no defined value", name);
        }
        return;
    }
    int d = 1;
    uint32_t v = sim_read_s(c, k, comp, &d);
    for (unsigned l = 0; l < SIM_LANES; l++)
        out[l] = v;
    *def = d ? SIM_ALL_LANES : 0;
}

sim_vec *sim_vec_reg(sim_ctx *c, unsigned k, unsigned comp, int for_write)
{
    const wa_operand *o = &c->in->ops[k];
    unsigned f, idx;
    if (sim_failed(c))
        return NULL;
    if (!sim_reg_of(c->sim, o, comp, &f, &idx) || f == SIM_FILE_S) {
        sim_fail(c, WA_E_INTERNAL, "operand %u is not a vector register", k);
        return NULL;
    }
    if (for_write ? !check_pending_write(c, o, comp, f, idx) : !check_pending_read(c, o, comp, f, idx))
        return NULL;
    return f == SIM_FILE_V ? &c->w->v[idx] : &c->w->a[idx];
}

void sim_write_vec(sim_ctx *c, unsigned k, unsigned comp, const uint32_t val[SIM_LANES],
                   uint64_t lanes, uint64_t def)
{
    sim_vec *r = sim_vec_reg(c, k, comp, 1);
    if (!r)
        return;
    for (unsigned l = 0; l < SIM_LANES; l++)
        if (lanes >> l & 1u)
            r->v[l] = val[l];
    r->def = (r->def & ~lanes) | (def & lanes);
}

static void special_write(sim_ctx *c, unsigned id, unsigned comp, uint32_t val, int def)
{
    sim_wave *w = c->w;
    uint64_t *t = NULL;
    uint8_t *d = NULL;
    unsigned half = 0;
    switch (id) {
    case WA_SPECIAL_VCC: t = &w->vcc; d = &w->vcc_def; half = comp & 1; break;
    case WA_SPECIAL_VCC_LO: t = &w->vcc; d = &w->vcc_def; break;
    case WA_SPECIAL_VCC_HI: t = &w->vcc; d = &w->vcc_def; half = 1; break;
    case WA_SPECIAL_EXEC: t = &w->exec; d = &w->exec_def; half = comp & 1; break;
    case WA_SPECIAL_EXEC_LO: t = &w->exec; d = &w->exec_def; break;
    case WA_SPECIAL_EXEC_HI: t = &w->exec; d = &w->exec_def; half = 1; break;
    case WA_SPECIAL_M0: w->m0 = val; w->m0_def = (uint8_t)def; return;
    case WA_SPECIAL_SCC: w->scc = val != 0; w->scc_def = (uint8_t)def; return;
    default: sim_fail(c, WA_E_INTERNAL, "write to an unknown special register"); return;
    }
    uint64_t mask = 0xFFFFFFFFull << (32 * half);
    *t = (*t & ~mask) | ((uint64_t)val << (32 * half));
    /* one defined bit for the whole register: a half write keeps it only if both are */
    *d = (uint8_t)(def && (*d || (id == WA_SPECIAL_VCC || id == WA_SPECIAL_EXEC)));
}

void sim_write_s(sim_ctx *c, unsigned k, unsigned comp, uint32_t val, int def)
{
    const wa_operand *o = &c->in->ops[k];
    if (sim_failed(c))
        return;
    if (o->kind == WA_OPND_SPECIAL) {
        special_write(c, o->id, comp, val, def);
        return;
    }
    unsigned f, idx;
    if (!sim_reg_of(c->sim, o, comp, &f, &idx) || f != SIM_FILE_S) {
        sim_fail(c, WA_E_INTERNAL, "operand %u is not a scalar destination", k);
        return;
    }
    if (!check_pending_write(c, o, comp, f, idx))
        return;
    c->w->s[idx] = val;
    c->w->s_def[idx] = (uint8_t)(def != 0);
}

void sim_write_s64(sim_ctx *c, unsigned k, uint64_t val, int def)
{
    const wa_operand *o = &c->in->ops[k];
    if (o->kind == WA_OPND_SPECIAL && (o->id == WA_SPECIAL_VCC || o->id == WA_SPECIAL_EXEC)) {
        if (sim_failed(c))
            return;
        if (o->id == WA_SPECIAL_VCC) {
            c->w->vcc = val;
            c->w->vcc_def = (uint8_t)(def != 0);
        } else {
            c->w->exec = val;
            c->w->exec_def = (uint8_t)(def != 0);
        }
        return;
    }
    sim_write_s(c, k, 0, (uint32_t)val, def);
    sim_write_s(c, k, 1, (uint32_t)(val >> 32), def);
}

/* The semantics files: each executes its family's opcodes (sim_fn tables) and
   says why it leaves others out. A new family adds a line here. */
static const struct {
    sim_fn (*fn)(unsigned op);
    const char *(*why_not)(unsigned op);
} families[] = {
    { sim_sopp_fn, sim_sopp_why_not },
    { sim_salu_fn, sim_salu_why_not },
    { sim_smem_fn, sim_smem_why_not },
    { sim_alu_fn, NULL },
    { sim_vopc_fn, sim_vopc_why_not },
    { sim_memop_fn, NULL },
    { sim_mfma_fn, sim_mfma_why_not },
    { sim_ds_fn, sim_ds_why_not },
    { sim_vop3_fn, sim_vop3_why_not },
    { sim_vop3p_fn, sim_vop3p_why_not },
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

sim_fn sim_handler(unsigned op)
{
    if (op >= WA_OP_COUNT_)
        return NULL;
    for (unsigned i = 0; i < NFAMILIES; i++) {
        sim_fn f = families[i].fn(op);
        if (f)
            return f;
    }
    return NULL;
}

const char *sim_unsupported_reason(unsigned op)
{
    if (op >= WA_OP_COUNT_)
        return "unknown opcode";
    if (wa_isa_get(op)->flags & WA_IF_PSEUDO)
        return NULL;
    if (sim_handler(op))
        return NULL;
    for (unsigned i = 0; i < NFAMILIES; i++) {
        const char *why = families[i].why_not ? families[i].why_not(op) : NULL;
        if (why)
            return why;
    }
    return "no semantics";
}

const char *wa_sim_unsupported(unsigned op)
{
    return sim_unsupported_reason(op);
}

/* ---- waves and workgroups ----------------------------------------------------------------- */

static wa_status setup_waves(wa_sim *sim)
{
    wa_context *ctx = sim->ctx;
    if (!sim->waves) {
        sim->waves = wa_mem_calloc(ctx, sim->nwaves, sizeof(sim_wave));
        if (!sim->waves)
            return wa_error_nomem(ctx);
        for (unsigned w = 0; w < sim->nwaves; w++) {
            sim_wave *wv = &sim->waves[w];
            wv->s = wa_mem_calloc(ctx, sim->nregs[SIM_FILE_S], sizeof(uint32_t));
            wv->s_def = wa_mem_calloc(ctx, sim->nregs[SIM_FILE_S], 1);
            wv->v = wa_mem_calloc(ctx, sim->nregs[SIM_FILE_V], sizeof(sim_vec));
            wv->a = wa_mem_calloc(ctx, sim->nregs[SIM_FILE_A], sizeof(sim_vec));
            for (unsigned f = 0; f < SIM_FILES; f++)
                wv->pend[f] = wa_mem_calloc(ctx, sim->nregs[f], sizeof(uint32_t));
            if ((sim->opts.flags & WA_SIM_HAZARDS) && !(wv->hz = sim_hz_new(ctx)))
                return wa_error_nomem(ctx);
            if (!wv->s || !wv->s_def || !wv->v || !wv->a || !wv->pend[0] || !wv->pend[1] ||
                !wv->pend[2])
                return wa_error_nomem(ctx);
        }
    }
    if (sim->lds_bytes && !sim->lds) {
        sim->lds = wa_mem_calloc(ctx, sim->lds_bytes, 1);
        sim->lds_def = wa_mem_calloc(ctx, sim->lds_bytes, 1);
        if (!sim->lds || !sim->lds_def)
            return wa_error_nomem(ctx);
    }
    if (sim->lds_bytes) {
        memset(sim->lds, 0, sim->lds_bytes);
        memset(sim->lds_def, 0, sim->lds_bytes); /* LDS starts undefined */
    }
    if (sim_lds_sync_alloc(sim))
        return wa_error_nomem(ctx);
    unsigned items = sim->wg[0] * sim->wg[1] * sim->wg[2];
    unsigned abi = sim->prog->abi_mask;
    for (unsigned w = 0; w < sim->nwaves; w++) {
        sim_wave *wv = &sim->waves[w];
        uint32_t *pend[SIM_FILES];
        memcpy(pend, wv->pend, sizeof(pend));
        uint32_t *s = wv->s;
        uint8_t *s_def = wv->s_def;
        sim_vec *v = wv->v, *a = wv->a;
        sim_hz *hz = wv->hz;
        memset(wv, 0, sizeof(*wv));
        wv->s = s;
        wv->s_def = s_def;
        wv->v = v;
        wv->a = a;
        wv->hz = hz;
        memcpy(wv->pend, pend, sizeof(pend));
        memset(wv->s, 0, sim->nregs[SIM_FILE_S] * sizeof(uint32_t));
        memset(wv->s_def, 0, sim->nregs[SIM_FILE_S]);
        memset(wv->v, 0, sim->nregs[SIM_FILE_V] * sizeof(sim_vec));
        memset(wv->a, 0, sim->nregs[SIM_FILE_A] * sizeof(sim_vec));
        for (unsigned f = 0; f < SIM_FILES; f++)
            memset(wv->pend[f], 0, sim->nregs[f] * sizeof(uint32_t));
        if (wv->hz)
            sim_hz_reset(wv->hz);
        wv->id = w;
        /* the lanes holding work-items, and their packed ids in v0 */
        for (unsigned l = 0; l < SIM_LANES; l++) {
            unsigned flat = w * SIM_LANES + l;
            if (flat >= items)
                continue;
            wv->exec |= 1ull << l;
            unsigned x = flat % sim->wg[0], y = (flat / sim->wg[0]) % sim->wg[1],
                     z = flat / (sim->wg[0] * sim->wg[1]);
            if (abi & (WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y) |
                       WA_ABI_BIT(WA_ABI_WORKITEM_ID_Z))) {
                wv->v[0].v[l] = x | y << 10 | z << 20;
                wv->v[0].def |= 1ull << l;
            }
        }
        wv->exec_def = 1;
        wv->vcc_def = 0;
        wv->mode = SIM_MODE_DEFAULT;
        /* SGPR inputs where the ABI puts them */
        for (unsigned in = 0; in < WA_ABI_COUNT_; in++) {
            if (!(abi & WA_ABI_BIT(in)) || in >= WA_ABI_WORKITEM_ID_X)
                continue;
            wa_operand r;
            if (wa_program_abi_reg(&r, sim->prog, (wa_abi_input)in) != WA_OK || r.kind != WA_OPND_PHYS)
                continue;
            uint64_t val = 0;
            switch (in) {
            case WA_ABI_KERNARG_PTR: val = sim->kernarg.base; break;
            case WA_ABI_WORKGROUP_ID_X: val = sim->wgid[0]; break;
            case WA_ABI_WORKGROUP_ID_Y: val = sim->wgid[1]; break;
            case WA_ABI_WORKGROUP_ID_Z: val = sim->wgid[2]; break;
            case WA_ABI_WORKGROUP_INFO: val = sim->nwaves & 0x3Fu; break;
            default: val = 0; break; /* dispatch/queue pointers, dispatch id */
            }
            for (unsigned k = 0; k < r.count && r.id + k < SIM_PHYS_S; k++) {
                wv->s[r.id + k] = (uint32_t)(val >> (32 * k));
                wv->s_def[r.id + k] = 1;
            }
        }
    }
    return WA_OK;
}

/* The ready wave with the smallest time (ties: random). */
static sim_wave *pick(wa_sim *sim)
{
    sim_wave *best = NULL;
    unsigned ties = 0;
    for (unsigned w = 0; w < sim->nwaves; w++) {
        sim_wave *wv = &sim->waves[w];
        if (wv->state != SIM_WAVE_READY)
            continue;
        if (!best || wv->t < best->t) {
            best = wv;
            ties = 1;
        } else if (wv->t == best->t && sim_rand(sim) % ++ties == 0) {
            best = wv;
        }
    }
    return best;
}

/* Releases a barrier that every live wave has reached. */
static int release_barrier(wa_sim *sim)
{
    uint64_t t = 0;
    unsigned n = 0;
    for (unsigned w = 0; w < sim->nwaves; w++) {
        sim_wave *wv = &sim->waves[w];
        if (wv->state == SIM_WAVE_READY)
            return 0;
        if (wv->state == SIM_WAVE_BARRIER) {
            n++;
            if (wv->t > t)
                t = wv->t;
        }
    }
    if (!n)
        return 0;
    for (unsigned w = 0; w < sim->nwaves; w++)
        if (sim->waves[w].state == SIM_WAVE_BARRIER) {
            sim->waves[w].state = SIM_WAVE_READY;
            sim->waves[w].t = t + 1;
            sim->waves[w].phase++;
        }
    sim->stats.barriers++;
    return 1;
}

/* A vector instruction with a float operand: its result depends on MODE. */
static int uses_float_mode(const wa_isa_info *info)
{
    if (info->format != WA_FMT_VOP1 && info->format != WA_FMT_VOP2 && info->format != WA_FMT_VOPC &&
        info->format != WA_FMT_VOP3 && info->format != WA_FMT_VOP3P && info->format != WA_FMT_MAI)
        return 0;
    if (info->flags & WA_IF_MFMA)
        return 1;
    for (unsigned k = 0; k < info->num_operands; k++)
        if (info->operands[k].type == WA_TY_F32 || info->operands[k].type == WA_TY_F16 ||
            info->operands[k].type == WA_TY_F64 || info->operands[k].type == WA_TY_BF16 ||
            info->operands[k].type == WA_TY_PK_F16 || info->operands[k].type == WA_TY_PK_BF16 ||
            info->operands[k].type == WA_TY_PK_F32)
            return 1;
    return 0;
}

/* The first modifier of `in` the semantics do not model, or NULL: clamp, output
   modifiers, source negation and absolute value, SDWA, and op_sel/op_sel_hi
   outside MAI (the MFMA semantics check their own op_sel, cbsz, abid, blgp) and
   VOP3P (vop3p.c). */
static const char *unmodelled_modifier(const wa_instr *in, const wa_isa_info *info)
{
    const wa_mods *m = &in->mods;
    if (info->format == WA_FMT_VOP3P)
        return NULL; /* vop3p.c models its modifiers (and refuses the rest itself) */
    unsigned own = sim_vop3_models(in->op); /* modelled by the operation itself */
    /* a compare's clamp asks it to signal float exceptions: no effect on results */
    if ((m->flags & WA_MOD_CLAMP) && info->format != WA_FMT_VOPC && !(own & WA_MODOK_CLAMP))
        return "clamp";
    if (m->omod)
        return "an output modifier (mul:2, mul:4, div:2)";
    if ((m->neg || m->neg_hi) && info->format != WA_FMT_MAI) /* MAI: f64 neg, in mfma.c */
        return "source negation (neg, neg_lo, neg_hi)";
    if (m->abs)
        return "the absolute-value source modifier";
    if (m->flags & WA_MOD_SDWA)
        return "SDWA";
    if (((m->op_sel && !(own & WA_MODOK_OPSEL)) || m->op_sel_hi) && info->format != WA_FMT_MAI)
        return "op_sel/op_sel_hi";
    return NULL;
}

static void step(wa_sim *sim, sim_wave *w)
{
    const wa_program *prog = sim->prog;
    sim_ctx c;
    memset(&c, 0, sizeof(c));
    c.sim = sim;
    c.w = w;
    if (w->pc >= prog->ninstrs) {
        sim_fail(&c, WA_E_SIM_FAULT, "ran past the end of the program (no s_endpgm)");
        return;
    }
    c.item = w->pc;
    c.in = &prog->instrs[c.item];
    c.info = wa_isa(c.in->op);
    if (c.info->flags & WA_IF_PSEUDO) {
        w->pc++;
        return;
    }
    uint64_t limit = sim->opts.max_instructions ? sim->opts.max_instructions : DEFAULT_MAX_INSTRUCTIONS;
    if (w->executed >= limit) {
        sim_fail(&c, WA_E_SIM_LIMIT, "executed %llu instructions without ending",
                 (unsigned long long)w->executed);
        return;
    }
    sim_complete_until(sim, w->t);
    sim_fn fn = sim_handler(c.in->op);
    if (!fn) {
        sim_fail(&c, WA_E_UNSUPPORTED, "the simulator does not execute %s: %s", c.info->mnemonic,
                 sim_unsupported_reason(c.in->op));
        return;
    }
    const char *mod = unmodelled_modifier(c.in, c.info);
    if (mod) {
        sim_fail(&c, WA_E_UNSUPPORTED, "the simulator does not model %s (on %s)", mod,
                 c.info->mnemonic);
        return;
    }
    if (w->mode != SIM_MODE_DEFAULT && uses_float_mode(c.info)) {
        sim_fail(&c, WA_E_UNSUPPORTED,
                 "%s runs with MODE 0x%08x (s_setreg changed the rounding, denormal or IEEE "
                 "bits); the simulator models only the default float mode 0x%08x",
                 c.info->mnemonic, (unsigned)w->mode, SIM_MODE_DEFAULT);
        return;
    }
    if (w->hz)
        sim_hz_check(&c);
    if (sim_failed(&c))
        return;
    c.next_pc = c.item + 1;
    c.wait_states = 1;
    if (c.in->mods.flags & WA_MOD_DPP)
        sim_dpp_prepare(&c);
    if (sim_failed(&c))
        return;
    fn(&c);
    if (sim_failed(&c))
        return;
    if (w->hz)
        sim_hz_record(&c);
    w->pc = c.next_pc;
    w->t += c.cycles ? c.cycles : c.wait_states;
    w->executed++;
    sim->stats.instructions++;
    if (c.stop)
        w->state = SIM_WAVE_DONE;
    else if (c.barrier)
        w->state = SIM_WAVE_BARRIER;
}

static void run_workgroup(wa_sim *sim)
{
    if (setup_waves(sim) != WA_OK) {
        sim->status = WA_E_NOMEM;
        return;
    }
    sim->stats.workgroups++;
    sim->stats.waves += sim->nwaves;
    for (;;) {
        sim_wave *w = pick(sim);
        if (!w) {
            if (release_barrier(sim))
                continue;
            break; /* all done */
        }
        step(sim, w);
        if (sim->status != WA_OK)
            return;
    }
    uint64_t tmax = 0;
    for (unsigned w = 0; w < sim->nwaves; w++)
        if (sim->waves[w].t > tmax)
            tmax = sim->waves[w].t;
    sim_complete_all(sim);
    if (tmax > sim->stats.cycles)
        sim->stats.cycles = tmax;
}

wa_status wa_sim_run(wa_sim *sim)
{
    if (!sim)
        return WA_E_INVALID;
    wa_diag_reset(sim->ctx);
    sim->status = WA_OK;
    memset(&sim->stats, 0, sizeof(sim->stats));
    sim->stats.version = WA_SIM_STATS_VERSION;
    wa_status st = fill_kernarg(sim);
    if (st)
        return st;
    for (unsigned z = 0; z < sim->grid[2] && sim->status == WA_OK; z++)
        for (unsigned y = 0; y < sim->grid[1] && sim->status == WA_OK; y++)
            for (unsigned x = 0; x < sim->grid[0] && sim->status == WA_OK; x++) {
                sim->wgid[0] = x;
                sim->wgid[1] = y;
                sim->wgid[2] = z;
                run_workgroup(sim);
            }
    if (sim->status != WA_OK) {
        sim_complete_all(sim);
        if (sim->status == WA_E_NOMEM)
            return wa_error_nomem(sim->ctx);
    }
    return sim->status;
}

wa_status wa_sim_get_stats(wa_sim_stats *out, const wa_sim *sim)
{
    if (!out || !sim)
        return WA_E_INVALID;
    *out = sim->stats;
    return WA_OK;
}
