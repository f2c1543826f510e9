/* tests/unit/randprog.c — random kernels, a brute-force liveness reference and an
   allocation verifier (see randprog.h). Public API only; nothing here shares code
   with lib/analysis or lib/regalloc. */
#include "randprog.h"

#include "check.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE 0xFFFFFFFFu

/* ---- random numbers ------------------------------------------------------------ */

void rp_seed(rp_rng *r, uint64_t seed)
{
    r->state = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
}

uint64_t rp_next(rp_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

unsigned rp_below(rp_rng *r, unsigned n)
{
    return n ? (unsigned)(rp_next(r) % n) : 0;
}

int rp_chance(rp_rng *r, unsigned percent)
{
    return rp_below(r, 100) < percent;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

/* ---- generator ------------------------------------------------------------------ */

void rp_config_default(rp_config *c)
{
    c->items = 90;
    c->max_vregs = 90;
    c->max_depth = 3;
    c->loops = c->ifs = c->unreachable = c->mfma = c->agprs = c->wide = 1;
    c->phys_temps = c->holes = c->tuples = c->masked = 1;
    c->bounded_loops = 0;
}

#define G_MAXV 160u
#define G_PHYS G_MAXV /* slot of the physical temporaries' defined bits */
#define G_SLOTS (G_MAXV + 1u)
#define G_MAXLOOPS 8u

/* Physical temporaries the generator writes and reads (besides the ABI inputs). */
enum { PT_V1 = 0, PT_S3, PT_A1, PT_COUNT };

typedef struct gloop {
    wa_label exit;
    uint32_t emask[G_SLOTS]; /* defined at every exit seen so far */
} gloop;

typedef struct gen {
    wa_program *prog;
    rp_rng rng;
    const rp_config *cfg;
    int failed;
    long left;                   /* items still to emit */
    unsigned nv;
    wa_operand v[G_MAXV];        /* whole-register operands */
    uint32_t d[G_SLOTS];         /* defined components on every path to here */
    gloop loops[G_MAXLOOPS];
    unsigned nloops;
    unsigned loop_floor;         /* loops below this index are not exits of dead code */
    unsigned depth;
    wa_operand ptr;              /* SGPR pair loaded from the kernarg segment */
    uint8_t fixed[G_MAXV];       /* loop counters of bounded loops: never redefined */
    wa_operand kernarg, wgid, lane;
} gen;

static void gcheck(gen *g, wa_status st, const char *what)
{
    if (st != WA_OK && !g->failed) {
        g->failed = 1;
        CHECK_MSG(0, "generator: %s failed (%d): %s", what, (int)st,
                  wa_context_last_error(wa_program_context(g->prog)));
    }
}

static uint32_t mask_of(unsigned first, unsigned count)
{
    uint32_t m = count >= 32 ? 0xFFFFFFFFu : ((1u << count) - 1u);
    return m << first;
}

/* Slot of a virtual register operand in g->v (ids are dense from 0 here). */
static unsigned slot_of(const wa_operand *o)
{
    return o->id;
}

static void mark_def(gen *g, const wa_operand *o)
{
    if (o->kind == WA_OPND_VIRT)
        g->d[slot_of(o)] |= mask_of(o->first, o->count);
    else if (o->kind == WA_OPND_PHYS) {
        if (o->reg_class == WA_REG_VGPR && o->id == 1)
            g->d[G_PHYS] |= 1u << PT_V1;
        if (o->reg_class == WA_REG_SGPR && o->id == 3)
            g->d[G_PHYS] |= 1u << PT_S3;
        if (o->reg_class == WA_REG_AGPR && o->id == 1)
            g->d[G_PHYS] |= 1u << PT_A1;
    }
}

/* Alignment the target needs for an n-register tuple of `cls`. */
static unsigned need_align(wa_reg_class cls, unsigned n)
{
    return wa_target_tuple_align(WA_TARGET_GFX942, cls, n);
}

static unsigned vcls(const gen *g, unsigned s)
{
    return g->v[s].reg_class;
}

static unsigned vsize(const gen *g, unsigned s)
{
    return g->v[s].count;
}

static unsigned valign(const gen *g, unsigned s)
{
    wa_reg_class c;
    unsigned size, align;
    if (wa_program_vreg_info(&c, &size, &align, g->prog, g->v[s].id) != WA_OK)
        return 1;
    return align;
}

/* A defined n-register operand of `cls`: a whole register or an aligned sub-range
   of a larger one. Returns 0 if there is none. `avoid` (slot or NONE) is skipped. */
static int pick_use(gen *g, wa_reg_class cls, unsigned n, unsigned avoid, wa_operand *out)
{
    unsigned need = need_align(cls, n);
    unsigned nc = 0, pick_s = 0, pick_f = 0;
    for (unsigned s = 0; s < g->nv; s++) {
        if (s == avoid || vcls(g, s) != cls || vsize(g, s) < n)
            continue;
        if (vsize(g, s) > n && valign(g, s) < need)
            continue;
        for (unsigned f = 0; f + n <= vsize(g, s); f += need) {
            uint32_t m = mask_of(f, n);
            if ((g->d[s] & m) != m)
                continue;
            /* reservoir sampling; whole registers count three times */
            unsigned w = vsize(g, s) == n ? 3 : 1;
            for (unsigned k = 0; k < w; k++)
                if (rp_below(&g->rng, ++nc) == 0) {
                    pick_s = s;
                    pick_f = f;
                }
        }
    }
    if (!nc)
        return 0;
    *out = vsize(g, pick_s) == n ? g->v[pick_s] : wa_opnd_sub(g->v[pick_s], pick_f, n);
    return 1;
}

static int new_vreg(gen *g, wa_reg_class cls, unsigned n, wa_operand *out)
{
    if (g->nv >= g->cfg->max_vregs || g->nv >= G_MAXV)
        return 0;
    unsigned align = 0;
    if (n > 1 && rp_chance(&g->rng, 12))
        align = rp_chance(&g->rng, 50) ? 4 : 8; /* a larger declared alignment */
    wa_operand o;
    wa_status st = wa_program_vreg(&o, g->prog, cls, n, align);
    gcheck(g, st, "wa_program_vreg");
    if (st != WA_OK)
        return 0;
    if (o.id != g->nv) {
        gcheck(g, WA_E_INTERNAL, "dense vreg ids");
        return 0;
    }
    g->v[g->nv++] = o;
    *out = o;
    return 1;
}

/* A destination: a new register, a redefinition of an existing one (not SSA: the
   loop-carried and hole-making cases) or, for partial definitions, an aligned
   sub-range of a larger register. `avoid` is a slot that must not be chosen. */
static int pick_def(gen *g, wa_reg_class cls, unsigned n, unsigned avoid, wa_operand *out)
{
    unsigned r = rp_below(&g->rng, 100);
    if (!g->cfg->holes) /* no redefinitions: no holes, no partial definitions */
        return new_vreg(g, cls, n, out);
    if (r < 18 || g->nv >= g->cfg->max_vregs) { /* redefine a whole register */
        unsigned nc = 0, pick = NONE;
        for (unsigned s = 0; s < g->nv; s++)
            if (s != avoid && vcls(g, s) == cls && vsize(g, s) == n &&
                g->v[s].id != g->ptr.id && !g->fixed[s] && rp_below(&g->rng, ++nc) == 0)
                pick = s;
        if (pick != NONE) {
            *out = g->v[pick];
            return 1;
        }
    } else if (r < 28) { /* partial definition of a larger register */
        unsigned need = need_align(cls, n), nc = 0, ps = NONE, pf = 0;
        for (unsigned s = 0; s < g->nv; s++) {
            if (s == avoid || vcls(g, s) != cls || vsize(g, s) <= n || valign(g, s) < need ||
                g->v[s].id == g->ptr.id)
                continue;
            for (unsigned f = 0; f + n <= vsize(g, s); f += need)
                if (rp_below(&g->rng, ++nc) == 0) {
                    ps = s;
                    pf = f;
                }
        }
        if (ps != NONE) {
            *out = wa_opnd_sub(g->v[ps], pf, n);
            return 1;
        }
    }
    return new_vreg(g, cls, n, out);
}

static void emit_valu(gen *g, wa_opcode op, wa_operand d, wa_operand a, wa_operand b)
{
    gcheck(g, wa_build_valu(NULL, g->prog, op, d, a, b, wa_opnd_none()), "wa_build_valu");
    mark_def(g, &d);
    g->left--;
}

static void emit_salu(gen *g, wa_opcode op, wa_operand d, wa_operand a, wa_operand b)
{
    gcheck(g, wa_build_salu(NULL, g->prog, op, d, a, b), "wa_build_salu");
    if (d.kind != WA_OPND_NONE)
        mark_def(g, &d);
    g->left--;
}

static wa_reg_class vec_class(gen *g)
{
    return g->cfg->agprs && rp_chance(&g->rng, 25) ? WA_REG_AGPR : WA_REG_VGPR;
}

static int phys_defined(const gen *g, unsigned which)
{
    return (g->d[G_PHYS] >> which) & 1u;
}

/* A VGPR single to read: a virtual one, v0 (the ABI input, kept live by reading
   it), or the physical temporary v1. */
static int use_v1(gen *g, wa_operand *o)
{
    unsigned r = rp_below(&g->rng, 100);
    if (r < 6) {
        *o = g->lane;
        return 1;
    }
    if (r < 10 && g->cfg->phys_temps && phys_defined(g, PT_V1)) {
        *o = wa_opnd_phys(WA_REG_VGPR, 1, 1);
        return 1;
    }
    return pick_use(g, WA_REG_VGPR, 1, NONE, o);
}

static int use_s1(gen *g, wa_operand *o)
{
    unsigned r = rp_below(&g->rng, 100);
    if (r < 6) {
        *o = g->wgid;
        return 1;
    }
    if (r < 10 && g->cfg->phys_temps && phys_defined(g, PT_S3)) {
        *o = wa_opnd_phys(WA_REG_SGPR, 3, 1);
        return 1;
    }
    return pick_use(g, WA_REG_SGPR, 1, NONE, o);
}

static wa_operand small_imm(gen *g)
{
    return wa_opnd_imm((int64_t)rp_below(&g->rng, 60));
}

static void gen_mfma(gen *g)
{
    int wide = g->cfg->wide && rp_chance(&g->rng, 15);
    wa_opcode op = wide ? WA_OP_V_MFMA_F32_32X32X8_F16 : WA_OP_V_MFMA_F32_16X16X16_F16;
    unsigned n = wide ? 16 : 4;
    wa_reg_class dc = vec_class(g);
    wa_operand a, b, c, d;
    if (!pick_use(g, WA_REG_VGPR, 2, NONE, &a) || !pick_use(g, rp_chance(&g->rng, 20) ? dc : WA_REG_VGPR, 2, NONE, &b))
        return;
    unsigned r = rp_below(&g->rng, 100);
    if (r < 40 && pick_use(g, dc, n, NONE, &c) && c.count == n && c.first == 0) {
        /* D = A * B + C into a new register: tied when C dies here */
        if (!new_vreg(g, dc, n, &d))
            return;
    } else if (r < 70 && pick_use(g, dc, n, NONE, &c) && c.first == 0 &&
               c.count == g->v[slot_of(&c)].count) {
        d = c; /* accumulate in place (a loop-carried accumulator inside loops) */
    } else {
        c = wa_opnd_imm(0);
        if (!pick_def(g, dc, n, NONE, &d) || d.first != 0 || d.count != n)
            return;
    }
    if ((a.kind == WA_OPND_VIRT && a.id == d.id) || (b.kind == WA_OPND_VIRT && b.id == d.id))
        return;
    gcheck(g, wa_build_mfma(NULL, g->prog, op, d, a, b, c, wa_opnd_none(), wa_opnd_none(), NULL),
           "wa_build_mfma");
    mark_def(g, &d);
    g->left--;
}

/* Indexed by the number of registers. */
static const wa_opcode gload_ops[5] = { WA_OP_COUNT_, WA_OP_GLOBAL_LOAD_DWORD,
                                        WA_OP_GLOBAL_LOAD_DWORDX2, WA_OP_COUNT_,
                                        WA_OP_GLOBAL_LOAD_DWORDX4 };
static const wa_opcode gstore_ops[5] = { WA_OP_COUNT_, WA_OP_GLOBAL_STORE_DWORD,
                                         WA_OP_GLOBAL_STORE_DWORDX2, WA_OP_COUNT_,
                                         WA_OP_GLOBAL_STORE_DWORDX4 };

static void gen_op(gen *g)
{
    wa_operand d, a, b;
    unsigned k = rp_below(&g->rng, 20);
    switch (k) {
    case 0:
    case 1: /* v_add_u32 */
        if (!use_v1(g, &b))
            return;
        if (rp_chance(&g->rng, 30)) {
            if (!use_s1(g, &a))
                return;
        } else if (!use_v1(g, &a)) {
            return;
        }
        if (!pick_def(g, WA_REG_VGPR, 1, NONE, &d))
            return;
        emit_valu(g, WA_OP_V_ADD_U32, d, a, b);
        return;
    case 2: /* v_mov_b32 copy: a coalescing candidate */
        if (!pick_use(g, WA_REG_VGPR, 1, NONE, &a) || !pick_def(g, WA_REG_VGPR, 1, NONE, &d))
            return;
        emit_valu(g, WA_OP_V_MOV_B32, d, a, wa_opnd_none());
        return;
    case 3: /* v_mov_b32 of a constant */
        if (!pick_def(g, WA_REG_VGPR, 1, NONE, &d))
            return;
        emit_valu(g, WA_OP_V_MOV_B32, d, small_imm(g), wa_opnd_none());
        return;
    case 4: /* v_writelane_b32: reads and writes vdst */
        if (!pick_use(g, WA_REG_VGPR, 1, NONE, &d))
            return;
        if (rp_chance(&g->rng, 50)) {
            if (!use_s1(g, &a))
                return;
        } else {
            a = small_imm(g);
        }
        emit_valu(g, WA_OP_V_WRITELANE_B32, d, a, wa_opnd_imm((int64_t)rp_below(&g->rng, 64)));
        return;
    case 5: /* v_readfirstlane_b32 */
        if (!use_v1(g, &a) || !pick_def(g, WA_REG_SGPR, 1, NONE, &d))
            return;
        emit_valu(g, WA_OP_V_READFIRSTLANE_B32, d, a, wa_opnd_none());
        return;
    case 6:
    case 7: { /* global loads, VGPR or AGPR, 1/2/4 registers */
        static const unsigned sizes[3] = { 1, 2, 4 };
        unsigned n = sizes[g->cfg->tuples ? rp_below(&g->rng, 3) : 0];
        wa_operand addr, sb;
        if (!use_v1(g, &addr) || !pick_use(g, WA_REG_SGPR, 2, NONE, &sb) ||
            !pick_def(g, vec_class(g), n, NONE, &d))
            return;
        gcheck(g, wa_build_global(NULL, g->prog, gload_ops[n], d, addr, sb, NULL), "global load");
        mark_def(g, &d);
        g->left--;
        return;
    }
    case 8: { /* global stores */
        static const unsigned sizes[3] = { 1, 2, 4 };
        unsigned n = sizes[g->cfg->tuples ? rp_below(&g->rng, 3) : 0];
        wa_operand addr, sb, data;
        if (!use_v1(g, &addr) || !pick_use(g, WA_REG_SGPR, 2, NONE, &sb) ||
            !pick_use(g, vec_class(g), n, NONE, &data))
            return;
        gcheck(g, wa_build_global(NULL, g->prog, gstore_ops[n], data, addr, sb, NULL),
               "global store");
        g->left--;
        return;
    }
    case 9: { /* ds_read_b64 / ds_read_b128 */
        unsigned n = rp_chance(&g->rng, 50) ? 2 : 4;
        wa_operand addr;
        if (!g->cfg->tuples)
            return;
        if (!use_v1(g, &addr) || !pick_def(g, vec_class(g), n, NONE, &d))
            return;
        gcheck(g, wa_build_ds(NULL, g->prog, n == 2 ? WA_OP_DS_READ_B64 : WA_OP_DS_READ_B128, d,
                              addr, wa_opnd_none(), wa_opnd_none(), NULL),
               "ds read");
        mark_def(g, &d);
        g->left--;
        return;
    }
    case 10: { /* scalar loads: 1, 2, 4 or 8 SGPRs */
        static const unsigned sizes[4] = { 1, 2, 4, 8 };
        static const wa_opcode ops[4] = { WA_OP_S_LOAD_DWORD, WA_OP_S_LOAD_DWORDX2,
                                          WA_OP_S_LOAD_DWORDX4, WA_OP_S_LOAD_DWORDX8 };
        unsigned w = rp_below(&g->rng, g->cfg->wide ? 4 : 3);
        wa_operand sb;
        if (rp_chance(&g->rng, 15))
            sb = g->kernarg; /* keeps s[0:1] live */
        else if (!pick_use(g, WA_REG_SGPR, 2, NONE, &sb))
            return;
        if (!pick_def(g, WA_REG_SGPR, sizes[w], NONE, &d))
            return;
        gcheck(g, wa_build_smem(NULL, g->prog, ops[w], d, sb,
                                wa_opnd_imm(4 * (int64_t)rp_below(&g->rng, 16)), NULL),
               "s_load");
        mark_def(g, &d);
        g->left--;
        return;
    }
    case 11: /* s_add_u32 */
        if (!use_s1(g, &a) || !pick_def(g, WA_REG_SGPR, 1, NONE, &d))
            return;
        emit_salu(g, WA_OP_S_ADD_U32, d, a, small_imm(g));
        return;
    case 12: /* s_mov_b32 / s_mov_b64 copies */
        if (rp_chance(&g->rng, 50)) {
            if (!pick_use(g, WA_REG_SGPR, 1, NONE, &a) || !pick_def(g, WA_REG_SGPR, 1, NONE, &d))
                return;
            emit_salu(g, WA_OP_S_MOV_B32, d, a, wa_opnd_none());
        } else {
            if (!pick_use(g, WA_REG_SGPR, 2, NONE, &a) || !pick_def(g, WA_REG_SGPR, 2, NONE, &d))
                return;
            if (d.id == a.id)
                return;
            emit_salu(g, WA_OP_S_MOV_B64, d, a, wa_opnd_none());
        }
        return;
    case 13: /* AGPR traffic */
        if (!g->cfg->agprs)
            return;
        switch (rp_below(&g->rng, 3)) {
        case 0:
            if (!pick_def(g, WA_REG_AGPR, 1, NONE, &d))
                return;
            if (rp_chance(&g->rng, 50)) {
                if (!use_v1(g, &a))
                    return;
            } else {
                a = small_imm(g);
            }
            emit_valu(g, WA_OP_V_ACCVGPR_WRITE_B32, d, a, wa_opnd_none());
            return;
        case 1:
            if (!pick_use(g, WA_REG_AGPR, 1, NONE, &a) || !pick_def(g, WA_REG_VGPR, 1, NONE, &d))
                return;
            emit_valu(g, WA_OP_V_ACCVGPR_READ_B32, d, a, wa_opnd_none());
            return;
        default:
            if (!pick_use(g, WA_REG_AGPR, 1, NONE, &a) || !pick_def(g, WA_REG_AGPR, 1, NONE, &d))
                return;
            emit_valu(g, WA_OP_V_ACCVGPR_MOV_B32, d, a, wa_opnd_none());
            return;
        }
    case 14:
    case 15:
        if (g->cfg->mfma && g->cfg->tuples)
            gen_mfma(g);
        return;
    case 16: { /* component-wise initialisation of a new tuple (partial definitions) */
        static const unsigned sizes[3] = { 2, 4, 8 };
        unsigned n = sizes[rp_below(&g->rng, g->cfg->wide ? 3 : 2)];
        wa_reg_class c = vec_class(g);
        if (!g->cfg->tuples)
            return;
        if (!new_vreg(g, c, n, &d))
            return;
        if (n == 8 && c == WA_REG_VGPR && rp_chance(&g->rng, 50)) {
            wa_operand addr, sb;
            if (!use_v1(g, &addr) || !pick_use(g, WA_REG_SGPR, 2, NONE, &sb))
                return;
            for (unsigned h = 0; h < 2; h++) {
                wa_operand part = wa_opnd_sub(d, 4 * h, 4);
                gcheck(g, wa_build_global(NULL, g->prog, WA_OP_GLOBAL_LOAD_DWORDX4, part, addr, sb,
                                          NULL),
                       "global load half");
                mark_def(g, &part);
                g->left--;
            }
            return;
        }
        for (unsigned i = 0; i < n; i++) {
            wa_operand part = wa_opnd_sub(d, i, 1);
            emit_valu(g, c == WA_REG_AGPR ? WA_OP_V_ACCVGPR_WRITE_B32 : WA_OP_V_MOV_B32, part,
                      small_imm(g), wa_opnd_none());
        }
        return;
    }
    case 17: /* physical temporaries: write v1 / s3 / a1, or read them */
        if (!g->cfg->phys_temps)
            return;
        switch (rp_below(&g->rng, 3)) {
        case 0:
            if (!pick_use(g, WA_REG_VGPR, 1, NONE, &a))
                return;
            emit_valu(g, WA_OP_V_MOV_B32, wa_opnd_phys(WA_REG_VGPR, 1, 1), a, wa_opnd_none());
            return;
        case 1:
            if (!use_s1(g, &a))
                return;
            emit_salu(g, WA_OP_S_ADD_U32, wa_opnd_phys(WA_REG_SGPR, 3, 1), a, small_imm(g));
            return;
        default:
            if (!g->cfg->agprs)
                return;
            if (phys_defined(g, PT_A1) && rp_chance(&g->rng, 50)) {
                if (!pick_def(g, WA_REG_VGPR, 1, NONE, &d))
                    return;
                emit_valu(g, WA_OP_V_ACCVGPR_READ_B32, d, wa_opnd_phys(WA_REG_AGPR, 1, 1),
                          wa_opnd_none());
            } else {
                emit_valu(g, WA_OP_V_ACCVGPR_WRITE_B32, wa_opnd_phys(WA_REG_AGPR, 1, 1),
                          small_imm(g), wa_opnd_none());
            }
            return;
        }
    default: /* in-place update of a defined value: loop-carried inside loops, and a
                lifetime hole between its uses elsewhere */
        if (!g->cfg->holes)
            return;
        if (rp_chance(&g->rng, 50)) {
            if (!pick_use(g, WA_REG_VGPR, 1, NONE, &d) || d.first != 0 || d.count != g->v[slot_of(&d)].count)
                return;
            emit_valu(g, WA_OP_V_ADD_U32, d, wa_opnd_imm(1), d);
        } else {
            if (!pick_use(g, WA_REG_SGPR, 1, NONE, &d) || d.first != 0 || d.count != g->v[slot_of(&d)].count)
                return;
            emit_salu(g, WA_OP_S_ADD_U32, d, d, wa_opnd_imm(1));
        }
        return;
    }
}

static wa_label new_label(gen *g)
{
    wa_label l = 0;
    gcheck(g, wa_program_label_create(&l, g->prog, NULL), "label");
    return l;
}

static void place(gen *g, wa_label l)
{
    gcheck(g, wa_build_label(g->prog, l), "wa_build_label");
    g->left--;
}

static void branch(gen *g, wa_opcode op, wa_label l)
{
    gcheck(g, wa_build_branch(NULL, g->prog, op, l), "wa_build_branch");
    g->left--;
}

/* s_cmp_lt_u32 on a defined SGPR, then a conditional branch. */
static void cond_branch(gen *g, wa_label l)
{
    wa_operand s;
    if (!use_s1(g, &s))
        s = g->wgid;
    emit_salu(g, WA_OP_S_CMP_LT_U32, wa_opnd_none(), s, small_imm(g));
    branch(g, rp_chance(&g->rng, 50) ? WA_OP_S_CBRANCH_SCC1 : WA_OP_S_CBRANCH_SCC0, l);
}

static void meet(uint32_t *dst, const uint32_t *src)
{
    for (unsigned i = 0; i < G_SLOTS; i++)
        dst[i] &= src[i];
}

static void gen_seq(gen *g, long steps);

static void gen_loop(gen *g, long steps)
{
    if (g->nloops >= G_MAXLOOPS)
        return;
    wa_operand cnt;
    int bounded = g->cfg->bounded_loops;
    int own_counter = (bounded || rp_chance(&g->rng, 70)) && new_vreg(g, WA_REG_SGPR, 1, &cnt);
    if (bounded && !own_counter)
        return;
    if (own_counter)
        emit_salu(g, WA_OP_S_MOV_B32, cnt, wa_opnd_imm(0), wa_opnd_none());
    if (bounded)
        g->fixed[slot_of(&cnt)] = 1;
    wa_label head = new_label(g);
    gloop *L = &g->loops[g->nloops++];
    L->exit = new_label(g);
    for (unsigned i = 0; i < G_SLOTS; i++)
        L->emask[i] = 0xFFFFFFFFu;
    place(g, head);
    g->depth++;
    gen_seq(g, steps);
    g->depth--;
    if (own_counter)
        emit_salu(g, WA_OP_S_ADD_U32, cnt, cnt, wa_opnd_imm(1)); /* loop-carried */
    if (bounded) { /* 1 to 4 iterations */
        emit_salu(g, WA_OP_S_CMP_LT_U32, wa_opnd_none(), cnt,
                  wa_opnd_imm((int64_t)(1 + rp_below(&g->rng, 4))));
        branch(g, WA_OP_S_CBRANCH_SCC1, head);
    } else {
        cond_branch(g, head);
    }
    meet(L->emask, g->d); /* the fall-through exit */
    place(g, L->exit);
    memcpy(g->d, L->emask, sizeof(g->d));
    g->nloops--;
}

static void gen_if(gen *g, long steps, int with_else)
{
    uint32_t pre[G_SLOTS], then_d[G_SLOTS];
    memcpy(pre, g->d, sizeof(pre));
    wa_label join = new_label(g), other = with_else ? new_label(g) : join;
    cond_branch(g, other);
    gen_seq(g, steps / 2 + 1);
    if (!with_else) {
        place(g, join);
        meet(g->d, pre);
        return;
    }
    memcpy(then_d, g->d, sizeof(then_d));
    branch(g, WA_OP_S_BRANCH, join);
    if (g->cfg->unreachable && rp_chance(&g->rng, 25)) {
        /* code after s_branch that nothing jumps to */
        for (unsigned i = rp_below(&g->rng, 3) + 1; i > 0; i--)
            gen_op(g);
    }
    memcpy(g->d, pre, sizeof(pre));
    place(g, other);
    gen_seq(g, steps / 2 + 1);
    place(g, join);
    meet(g->d, then_d);
}

/* A region under a narrowed EXEC: lanes compared against a constant are kept
   (v_cmp + s_and_saveexec_b64 into an SGPR pair), optionally skipped when none
   is (s_cbranch_execz), then EXEC restored (s_or_b64 or s_mov_b64 from the saved
   pair), or left narrowed, or restored from a pair the region overwrote (which
   the analysis must not trust). Vector writes inside keep the other lanes. */
static void gen_masked(gen *g, long steps)
{
    wa_operand saved, vcc = wa_opnd_special(WA_SPECIAL_VCC), exec = wa_opnd_special(WA_SPECIAL_EXEC);
    if (!new_vreg(g, WA_REG_SGPR, 2, &saved))
        return;
    gcheck(g, wa_build_valu(NULL, g->prog, WA_OP_V_CMP_GT_U32, vcc,
                            wa_opnd_imm((int64_t)rp_below(&g->rng, 64)), g->lane, wa_opnd_none()),
           "v_cmp");
    gcheck(g, wa_build_salu(NULL, g->prog, WA_OP_S_AND_SAVEEXEC_B64, saved, vcc, wa_opnd_none()),
           "s_and_saveexec_b64");
    mark_def(g, &saved);
    g->left -= 2;
    uint32_t pre[G_SLOTS];
    memcpy(pre, g->d, sizeof(pre));
    int skip = rp_chance(&g->rng, 50);
    wa_label after = skip ? new_label(g) : 0;
    if (skip)
        branch(g, WA_OP_S_CBRANCH_EXECZ, after);
    gen_seq(g, steps);
    unsigned how = rp_below(&g->rng, 10);
    if (how == 0 && g->cfg->holes) /* overwrite the saved pair: the restore is not one */
        emit_salu(g, WA_OP_S_MOV_B64, saved, wa_opnd_imm(-1), wa_opnd_none());
    if (skip) {
        place(g, after);
        meet(g->d, pre);
    }
    if (how <= 5)
        emit_salu(g, WA_OP_S_OR_B64, exec, exec, saved);
    else if (how <= 7)
        emit_salu(g, WA_OP_S_MOV_B64, exec, saved, wa_opnd_none());
    /* else: EXEC stays narrowed */
}

static void gen_unreachable(gen *g, long steps)
{
    uint32_t pre[G_SLOTS];
    memcpy(pre, g->d, sizeof(pre));
    wa_label skip = new_label(g);
    branch(g, WA_OP_S_BRANCH, skip);
    if (rp_chance(&g->rng, 50))
        place(g, new_label(g)); /* a label no branch names */
    unsigned saved = g->loop_floor;
    g->loop_floor = g->nloops; /* no exits from dead code into live loops */
    gen_seq(g, steps);
    g->loop_floor = saved;
    place(g, skip);
    memcpy(g->d, pre, sizeof(pre));
}

static void gen_seq(gen *g, long steps)
{
    while (steps-- > 0 && g->left > 0 && !g->failed) {
        unsigned r = rp_below(&g->rng, 100);
        long sub = 2 + (long)rp_below(&g->rng, 8);
        if (r < 8 && g->cfg->loops && g->depth < g->cfg->max_depth) {
            gen_loop(g, sub);
        } else if (r < 16 && g->cfg->ifs && g->depth < g->cfg->max_depth + 1) {
            g->depth++;
            gen_if(g, sub, rp_chance(&g->rng, 70));
            g->depth--;
        } else if (r < 19 && g->cfg->masked && g->depth < g->cfg->max_depth) {
            g->depth++;
            gen_masked(g, sub);
            g->depth--;
        } else if (r < 22 && g->cfg->unreachable && g->depth < g->cfg->max_depth) {
            g->depth++;
            gen_unreachable(g, 1 + (long)rp_below(&g->rng, 3));
            g->depth--;
        } else if (r < 27 && g->nloops > g->loop_floor) {
            /* an early exit from this loop or an enclosing one */
            gloop *L = &g->loops[g->nloops - 1 - rp_below(&g->rng, g->nloops - g->loop_floor)];
            cond_branch(g, L->exit);
            meet(L->emask, g->d);
        } else if (r < 29) {
            gcheck(g, wa_build_comment(g->prog, "random comment"), "comment");
            g->left--;
        } else {
            gen_op(g);
        }
    }
}

wa_program *rp_generate(wa_context *ctx, wa_target target, uint64_t seed, const rp_config *c)
{
    gen *g = xcalloc(1, sizeof(*g));
    rp_seed(&g->rng, seed);
    g->cfg = c;
    g->left = (long)c->items;
    wa_status st = wa_program_create(&g->prog, ctx, "rand");
    if (!CHECK_OK(st)) {
        free(g);
        return NULL;
    }
    wa_program *p = g->prog;
    gcheck(g, wa_program_set_target(p, target), "target");
    gcheck(g, wa_program_set_lds_bytes(p, 4096), "lds");
    gcheck(g, wa_program_set_abi_inputs(p, WA_ABI_BIT(WA_ABI_KERNARG_PTR) |
                                               WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X) |
                                               WA_ABI_BIT(WA_ABI_WORKITEM_ID_X)),
           "abi");
    gcheck(g, wa_program_abi_reg(&g->kernarg, p, WA_ABI_KERNARG_PTR), "abi reg");
    gcheck(g, wa_program_abi_reg(&g->wgid, p, WA_ABI_WORKGROUP_ID_X), "abi reg");
    gcheck(g, wa_program_abi_reg(&g->lane, p, WA_ABI_WORKITEM_ID_X), "abi reg");
    /* The ABI reads at the start. */
    wa_operand voff, wg;
    if (!new_vreg(g, WA_REG_SGPR, 2, &g->ptr) || !new_vreg(g, WA_REG_VGPR, 1, &voff) ||
        !new_vreg(g, WA_REG_SGPR, 1, &wg)) {
        gcheck(g, WA_E_INTERNAL, "initial registers");
    } else {
        gcheck(g, wa_build_smem(NULL, p, WA_OP_S_LOAD_DWORDX2, g->ptr, g->kernarg, wa_opnd_imm(0),
                                NULL),
               "s_load");
        mark_def(g, &g->ptr);
        emit_valu(g, WA_OP_V_LSHLREV_B32, voff, wa_opnd_imm(2), g->lane);
        emit_salu(g, WA_OP_S_ADD_U32, wg, g->wgid, wa_opnd_imm(0));
        gcheck(g, wa_build_waitcnt(NULL, p, -1, 0, -1), "waitcnt");
        gen_seq(g, 1000000);
        /* Read a few values at the end so that they stay live. */
        for (unsigned i = 0; i < 3; i++) {
            wa_operand data, sb, addr;
            if (pick_use(g, WA_REG_VGPR, 1, NONE, &data) && pick_use(g, WA_REG_SGPR, 2, NONE, &sb) &&
                use_v1(g, &addr))
                gcheck(g, wa_build_global(NULL, p, WA_OP_GLOBAL_STORE_DWORD, data, addr, sb, NULL),
                       "final store");
        }
        gcheck(g, wa_build_sopp(NULL, p, WA_OP_S_ENDPGM, 0), "s_endpgm");
        if (c->unreachable && rp_chance(&g->rng, 30)) {
            /* dead code after the end */
            wa_operand t;
            if (new_vreg(g, WA_REG_VGPR, 1, &t)) {
                gcheck(g, wa_build_valu(NULL, p, WA_OP_V_MOV_B32, t, wa_opnd_imm(1), wa_opnd_none(),
                                        wa_opnd_none()),
                       "dead code");
                gcheck(g, wa_build_sopp(NULL, p, WA_OP_S_ENDPGM, 0), "s_endpgm");
            }
        }
    }
    int failed = g->failed;
    free(g);
    if (failed) {
        wa_program_destroy(p);
        return NULL;
    }
    return p;
}

/* ---- brute-force reference ----------------------------------------------------------- */

typedef struct rp_loop {
    unsigned header, parent_header, depth, num_blocks, num_exits;
    unsigned char *body; /* per block */
} rp_loop;

struct rp_ref {
    unsigned n, nv, nbits, phys0, W;
    unsigned *base, *vsize, *valign;
    unsigned char *vcls;
    uint64_t *use, *def, *lin, *lout; /* n * W each */
    unsigned char *mfma, *pseudo;
    unsigned char *eclob; /* early-clobber MFMA: vdst is live at its use point */
    unsigned char *narrow; /* EXEC may be narrower than at entry, per item */
    /* blocks */
    unsigned nb;
    unsigned *first, *last, *item_block;
    unsigned *succ, *nsucc; /* two per block */
    unsigned char *reach;
    unsigned *idom;
    unsigned nloops;
    rp_loop *loops;
    unsigned *block_loop_header, *block_depth;
    /* pressure per item and class */
    unsigned *pressure[4];
    unsigned lower_bound[4];
};

static int bit_get(const uint64_t *s, unsigned b)
{
    return (int)((s[b >> 6] >> (b & 63)) & 1u);
}

static void bit_set(uint64_t *s, unsigned b)
{
    s[b >> 6] |= 1ull << (b & 63);
}

static unsigned unit_of(unsigned cls, unsigned reg)
{
    return cls == WA_REG_VGPR ? reg : cls == WA_REG_AGPR ? 256u + reg : 512u + reg;
}

static unsigned unit_class(unsigned u)
{
    return u < 256 ? WA_REG_VGPR : u < 512 ? WA_REG_AGPR : WA_REG_SGPR;
}

/* Component bits an operand names. */
static unsigned operand_bits(const rp_ref *r, const wa_operand *o, unsigned *bits, unsigned cap)
{
    unsigned n = 0;
    if (o->kind == WA_OPND_VIRT) {
        if (o->id >= r->nv || r->base[o->id] == NONE)
            return 0;
        for (unsigned c = o->first; c < (unsigned)o->first + o->count && n < cap; c++)
            bits[n++] = r->base[o->id] + c;
    } else if (o->kind == WA_OPND_PHYS) {
        unsigned lim = o->reg_class == WA_REG_SGPR ? 128u : 256u;
        for (unsigned g = o->id; g < o->id + o->count && g < lim && n < cap; g++)
            bits[n++] = r->phys0 + unit_of(o->reg_class, g);
    }
    return n;
}

static unsigned role_of(const wa_instr_view *v, const wa_isa_info *info, unsigned k)
{
    unsigned role = info->operands[k].role;
    if ((info->flags & WA_IF_RTN_GLC) && v->mods && (v->mods->flags & WA_MOD_GLC))
        role |= WA_ROLE_DEF;
    /* writes of part of the destination keep the rest: they read it too (DPP
       unless bound_ctrl and full masks; SDWA with dst_unused:UNUSED_PRESERVE and a
       part selected; the op_sel bit of the result in a VOP1/VOP2/VOP3 row) */
    const wa_mods *m = v->mods;
    if (k == 0 && m && (role & WA_ROLE_DEF)) {
        if ((m->flags & WA_MOD_DPP) &&
            !((m->flags & WA_MOD_BOUND_CTRL) && m->row_mask == 0xF && m->bank_mask == 0xF))
            role |= WA_ROLE_USE;
        if ((m->flags & WA_MOD_SDWA) && m->dst_sel != WA_SDWA_DWORD &&
            m->dst_unused == WA_SDWA_UNUSED_PRESERVE)
            role |= WA_ROLE_USE;
        if ((m->op_sel & 8u) && (info->operands[0].classes & WA_OC_VGPR) &&
            (info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2 ||
             info->format == WA_FMT_VOP3))
            role |= WA_ROLE_USE;
    }
    return role;
}

static int is_branch(const wa_isa_info *info)
{
    return (info->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)) != 0;
}

static unsigned branch_target_item(const wa_program *prog, const wa_instr_view *v,
                                   const unsigned *label_item, unsigned nlabels)
{
    (void)prog;
    /* the label operand wherever it is (s_call_b64 and s_cbranch_i_fork have
       an SGPR operand first) */
    for (unsigned k = 0; k < v->num_operands; k++)
        if (v->operands[k].kind == WA_OPND_LABEL && v->operands[k].id < nlabels)
            return label_item[v->operands[k].id];
    return NONE;
}

static void build_blocks(rp_ref *r, const wa_program *prog, const unsigned *label_item,
                         unsigned nlabels)
{
    unsigned n = r->n;
    r->item_block = xcalloc(n + 1, sizeof(unsigned));
    unsigned nb = 0;
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view v, pv;
        wa_program_get(&v, prog, i);
        int lead = i == 0 || v.opcode == WA_OP_LABEL;
        if (i > 0) {
            wa_program_get(&pv, prog, i - 1);
            if (wa_isa_get(pv.opcode)->flags & (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM))
                lead = 1;
        }
        nb += lead;
        r->item_block[i] = nb - 1;
    }
    r->nb = nb;
    r->first = xcalloc(nb + 1, sizeof(unsigned));
    r->last = xcalloc(nb + 1, sizeof(unsigned));
    for (unsigned i = 0; i < n; i++) {
        unsigned b = r->item_block[i];
        if (i == 0 || r->item_block[i - 1] != b)
            r->first[b] = i;
        r->last[b] = i;
    }
    r->succ = xcalloc(2 * nb + 1, sizeof(unsigned));
    r->nsucc = xcalloc(nb + 1, sizeof(unsigned));
    for (unsigned b = 0; b < nb; b++) {
        wa_instr_view v;
        wa_program_get(&v, prog, r->last[b]);
        const wa_isa_info *info = wa_isa_get(v.opcode);
        unsigned k = 0;
        if (is_branch(info)) {
            unsigned t = branch_target_item(prog, &v, label_item, nlabels);
            if (t != NONE)
                r->succ[2 * b + k++] = r->item_block[t];
        }
        if (!(info->flags & (WA_IF_BRANCH | WA_IF_ENDPGM)) && b + 1 < nb &&
            !(k == 1 && r->succ[2 * b] == b + 1))
            r->succ[2 * b + k++] = b + 1;
        r->nsucc[b] = k;
    }
    /* reachability */
    r->reach = xcalloc(nb + 1, 1);
    unsigned *stack = xcalloc(nb + 1, sizeof(unsigned)), sp = 0;
    if (nb) {
        r->reach[0] = 1;
        stack[sp++] = 0;
    }
    while (sp) {
        unsigned b = stack[--sp];
        for (unsigned k = 0; k < r->nsucc[b]; k++) {
            unsigned s = r->succ[2 * b + k];
            if (!r->reach[s]) {
                r->reach[s] = 1;
                stack[sp++] = s;
            }
        }
    }
    free(stack);
}

/* Dominator sets by the textbook iteration over bit sets (dom(b) = {b} U the
   intersection of dom(p) over reachable predecessors p); idom = the strict
   dominator whose own set is one smaller. Returns the sets (nb rows of `*words`). */
static uint64_t *build_dominators(rp_ref *r, unsigned *words)
{
    unsigned nb = r->nb, nw = (nb + 63) / 64 + 1;
    *words = nw;
    uint64_t *dom = xcalloc((size_t)nb * nw + 1, sizeof(uint64_t));
    uint64_t *tmp = xcalloc(nw, sizeof(uint64_t));
    for (unsigned b = 0; b < nb; b++) {
        if (!r->reach[b])
            continue;
        if (b == 0)
            bit_set(dom, 0);
        else
            for (unsigned d = 0; d < nb; d++)
                if (r->reach[d])
                    bit_set(dom + (size_t)b * nw, d);
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned b = 1; b < nb; b++) {
            if (!r->reach[b])
                continue;
            for (unsigned w = 0; w < nw; w++)
                tmp[w] = ~0ull;
            for (unsigned p = 0; p < nb; p++) {
                if (!r->reach[p])
                    continue;
                for (unsigned k = 0; k < r->nsucc[p]; k++)
                    if (r->succ[2 * p + k] == b)
                        for (unsigned w = 0; w < nw; w++)
                            tmp[w] &= dom[(size_t)p * nw + w];
            }
            bit_set(tmp, b);
            for (unsigned w = 0; w < nw; w++)
                if (tmp[w] != dom[(size_t)b * nw + w]) {
                    dom[(size_t)b * nw + w] = tmp[w];
                    changed = 1;
                }
        }
    }
    unsigned *size = xcalloc(nb + 1, sizeof(unsigned));
    for (unsigned b = 0; b < nb; b++)
        for (unsigned d = 0; d < nb; d++)
            size[b] += bit_get(dom + (size_t)b * nw, d);
    r->idom = xcalloc(nb + 1, sizeof(unsigned));
    for (unsigned b = 0; b < nb; b++) {
        r->idom[b] = NONE;
        if (!r->reach[b] || b == 0)
            continue;
        for (unsigned d = 0; d < nb; d++)
            if (d != b && bit_get(dom + (size_t)b * nw, d) && size[d] + 1 == size[b])
                r->idom[b] = d;
    }
    free(size);
    free(tmp);
    return dom;
}

static void build_loops(rp_ref *r, const uint64_t *dom, unsigned nw)
{
    unsigned nb = r->nb;
    r->loops = xcalloc(nb + 1, sizeof(rp_loop));
    unsigned *work = xcalloc(nb + 1, sizeof(unsigned));
    for (unsigned h = 0; h < nb; h++) {
        if (!r->reach[h])
            continue;
        unsigned char *body = NULL;
        unsigned sp = 0;
        for (unsigned b = 0; b < nb; b++) {
            if (!r->reach[b] || !bit_get(dom + (size_t)b * nw, h))
                continue;
            for (unsigned k = 0; k < r->nsucc[b]; k++)
                if (r->succ[2 * b + k] == h) { /* back edge b -> h */
                    if (!body) {
                        body = xcalloc(nb + 1, 1);
                        body[h] = 1;
                    }
                    if (!body[b]) {
                        body[b] = 1;
                        work[sp++] = b;
                    }
                }
        }
        if (!body)
            continue;
        while (sp) {
            unsigned b = work[--sp];
            for (unsigned p = 0; p < nb; p++) {
                if (!r->reach[p] || body[p])
                    continue;
                for (unsigned k = 0; k < r->nsucc[p]; k++)
                    if (r->succ[2 * p + k] == b) {
                        body[p] = 1;
                        work[sp++] = p;
                        break;
                    }
            }
        }
        rp_loop *L = &r->loops[r->nloops++];
        L->header = h;
        L->body = body;
        for (unsigned b = 0; b < nb; b++) {
            L->num_blocks += body[b];
            if (body[b])
                for (unsigned k = 0; k < r->nsucc[b]; k++)
                    L->num_exits += !body[r->succ[2 * b + k]];
        }
    }
    free(work);
    /* parents: the smallest other loop whose body holds the header */
    for (unsigned l = 0; l < r->nloops; l++) {
        rp_loop *L = &r->loops[l];
        unsigned best = NONE;
        for (unsigned m = 0; m < r->nloops; m++)
            if (m != l && r->loops[m].body[L->header] &&
                (best == NONE || r->loops[m].num_blocks < r->loops[best].num_blocks))
                best = m;
        L->parent_header = best == NONE ? NONE : r->loops[best].header;
        unsigned depth = 1;
        for (unsigned m = 0; m < r->nloops; m++)
            depth += m != l && r->loops[m].body[L->header];
        L->depth = depth;
    }
    r->block_loop_header = xcalloc(nb + 1, sizeof(unsigned));
    r->block_depth = xcalloc(nb + 1, sizeof(unsigned));
    for (unsigned b = 0; b < nb; b++) {
        unsigned best = NONE;
        for (unsigned l = 0; l < r->nloops; l++)
            if (r->loops[l].body[b]) {
                r->block_depth[b]++;
                if (best == NONE || r->loops[l].num_blocks < r->loops[best].num_blocks)
                    best = l;
            }
        r->block_loop_header[b] = best == NONE ? NONE : r->loops[best].header;
    }
}

/* The set of bits live at point p (use point 2i / def point 2i+1) into `out`. */
static void point_set(const rp_ref *r, unsigned p, uint64_t *out)
{
    unsigned i = p / 2, W = r->W;
    const uint64_t *lin = r->lin + (size_t)i * W, *lout = r->lout + (size_t)i * W,
                   *def = r->def + (size_t)i * W;
    for (unsigned w = 0; w < W; w++) {
        if (p & 1)
            out[w] = lout[w] | def[w];
        else
            out[w] = lin[w] | (r->eclob[i] ? def[w] : 0);
    }
}

static int vreg_in(const rp_ref *r, const uint64_t *set, unsigned v)
{
    if (r->base[v] == NONE)
        return 0;
    for (unsigned c = 0; c < r->vsize[v]; c++)
        if (bit_get(set, r->base[v] + c))
            return 1;
    return 0;
}

/* ---- EXEC: where it may differ from the entry mask (item by item) ----------------

   An independent restatement of the rule liveness.h documents for
   wa_liveness_exec_partial. A 64-bit mask is described by what its lanes may
   hold: `in` for the lanes on at entry, `out` for the others, each a set of
   values (bit 0: may be 0, bit 1: may be 1). The state before an item describes
   EXEC (the entry mask: in {1}, out {0}) and SGPR pairs holding a described
   subset of the entry mask (out {0}). A 64-bit bitwise row (the table's WA_LOGIC
   facts) is evaluated set-wise over its sources (EXEC, a described pair, the
   constants 0 and -1, anything else: {0,1} everywhere): a saveexec writes the old
   EXEC (wrexec the new) to its destination and sets EXEC to the function of src0
   and EXEC; a plain row writing EXEC sets it to its result; one writing a pair
   describes the pair. A compare writing EXEC keeps a subset a subset; any other
   write of EXEC makes it {0,1} everywhere; any other SGPR write forgets the pairs
   it overlaps. EXEC differs from the entry mask wherever it is not exactly it.
   Joins take the union over reachable predecessors; unreachable items never run. */

#define X_MAXS 16u

typedef struct xv {
    unsigned in, out;
} xv;

/* Saved pairs are pairs of SGPR component bits (the reference's own numbering,
   operand_bits), named by the first bit. */
typedef struct xs {
    int known;
    xv exec;
    unsigned n;
    unsigned bit[X_MAXS];
    xv val[X_MAXS];
} xs;

static int x_is_exec(const wa_operand *o, int only64)
{
    return o->kind == WA_OPND_SPECIAL &&
           (o->id == WA_SPECIAL_EXEC ||
            (!only64 && (o->id == WA_SPECIAL_EXEC_LO || o->id == WA_SPECIAL_EXEC_HI)));
}

/* First bit of a 2-register SGPR operand, NONE otherwise. */
static unsigned x_pair_bit(const rp_ref *r, const wa_operand *o)
{
    unsigned bits[2];
    if (o->reg_class != WA_REG_SGPR || o->count != 2 || operand_bits(r, o, bits, 2) != 2)
        return NONE;
    return bits[0];
}

static void x_forget(const rp_ref *r, xs *x, const wa_operand *o)
{
    unsigned bits[64];
    unsigned m = operand_bits(r, o, bits, 64), w = 0;
    for (unsigned k = 0; k < x->n; k++) {
        int hit = 0;
        for (unsigned j = 0; j < m; j++)
            hit |= bits[j] == x->bit[k] || bits[j] == x->bit[k] + 1;
        if (!hit) {
            x->bit[w] = x->bit[k];
            x->val[w++] = x->val[k];
        }
    }
    x->n = w;
}

static xv x_value(const rp_ref *r, const xs *x, const wa_operand *o)
{
    if (x_is_exec(o, 1))
        return x->exec;
    unsigned b = x_pair_bit(r, o);
    for (unsigned k = 0; k < x->n && b != NONE; k++)
        if (x->bit[k] == b)
            return x->val[k];
    if (o->kind == WA_OPND_IMM && o->imm.i == 0)
        return (xv){ 1, 1 };
    if (o->kind == WA_OPND_IMM && o->imm.i == -1)
        return (xv){ 2, 2 };
    return (xv){ 3, 3 };
}

static void x_save(const rp_ref *r, xs *x, const wa_operand *o, xv v)
{
    unsigned b = x_pair_bit(r, o);
    if (b == NONE || x->n >= X_MAXS || v.out != 1)
        return;
    for (unsigned k = 0; k < x->n; k++)
        if (x->bit[k] == b)
            return;
    x->bit[x->n] = b;
    x->val[x->n++] = v;
}

/* The values truth table `t` (bit 2a+b) gives for sources that may be `a`, `b`. */
static unsigned x_eval(unsigned t, unsigned a, unsigned b)
{
    unsigned out = 0;
    for (unsigned va = 0; va <= 1; va++)
        for (unsigned vb = 0; vb <= 1; vb++)
            if ((a & (1u << va)) && (b & (1u << vb)))
                out |= 1u << ((t >> (2 * va + vb)) & 1u);
    return out;
}

static xv x_eval2(unsigned t, xv a, xv b)
{
    return (xv){ x_eval(t, a.in, b.in), x_eval(t, a.out, b.out) };
}

static void x_step(const rp_ref *r, xs *x, const wa_instr_view *v)
{
    const wa_isa_info *info = wa_isa_get(v->opcode);
    if (info->flags & WA_IF_PSEUDO)
        return;
    unsigned nops = v->num_operands < info->num_operands ? v->num_operands : info->num_operands;
    int writes = (info->implicit_defs & WA_IMPL_EXEC) != 0;
    for (unsigned k = 0; k < nops; k++)
        if ((role_of(v, info, k) & WA_ROLE_DEF) && x_is_exec(&v->operands[k], 0))
            writes = 1;
    const wa_operand *o = v->operands;
    unsigned logic = wa_isa_logic(v->opcode), t = logic & 0xFu;
    int bitwise64 = (logic & WA_LOGIC_VALID) && nops >= 2 && info->operands[0].size == 2;
    const xv any = { 3, 3 };
    if ((logic & WA_LOGIC_EXEC) && nops == 2) {
        xv old = x->exec, nv = x_eval2(t, x_value(r, x, &o[1]), old);
        x_forget(r, x, &o[0]);
        if (!x_is_exec(&o[0], 0))
            x_save(r, x, &o[0], (logic & WA_LOGIC_WREXEC) ? nv : old);
        x->exec = x_is_exec(&o[0], 1) ? old : nv;
        return;
    }
    xv val = any;
    if (bitwise64)
        val = x_eval2(t, x_value(r, x, &o[1]), nops >= 3 ? x_value(r, x, &o[2]) : any);
    if (!writes) {
        for (unsigned k = 0; k < nops; k++)
            if (role_of(v, info, k) & WA_ROLE_DEF)
                x_forget(r, x, &o[k]);
        if (bitwise64)
            x_save(r, x, &o[0], val);
        return;
    }
    xv e = any;
    if (bitwise64 && x_is_exec(&o[0], 1))
        e = val;
    else if (info->format == WA_FMT_VOPC && x->exec.out == 1)
        e = (xv){ 3, 1 };
    for (unsigned k = 0; k < nops; k++)
        if ((role_of(v, info, k) & WA_ROLE_DEF) && !x_is_exec(&o[k], 0))
            x_forget(r, x, &o[k]);
    x->exec = e;
}

/* dst = dst meet src; 1 if dst changed */
static int x_meet(xs *dst, const xs *src)
{
    if (!src->known)
        return 0;
    if (!dst->known) {
        *dst = *src;
        return 1;
    }
    xv e = { dst->exec.in | src->exec.in, dst->exec.out | src->exec.out };
    int changed = e.in != dst->exec.in || e.out != dst->exec.out;
    dst->exec = e;
    unsigned w = 0;
    for (unsigned k = 0; k < dst->n; k++) {
        int found = -1;
        for (unsigned j = 0; j < src->n; j++)
            if (src->bit[j] == dst->bit[k])
                found = (int)j;
        if (found < 0) {
            changed = 1;
            continue;
        }
        xv u = { dst->val[k].in | src->val[found].in, dst->val[k].out | src->val[found].out };
        changed |= u.in != dst->val[k].in || u.out != dst->val[k].out;
        if (u.out != 1) {
            changed = 1;
            continue;
        }
        dst->bit[w] = dst->bit[k];
        dst->val[w++] = u;
    }
    dst->n = w;
    return changed;
}

/* narrow[i]: EXEC may be narrower than at entry before item i. */
static unsigned char *ref_exec_narrow(const rp_ref *r, const wa_program *prog, unsigned n,
                                      const unsigned *isucc, const unsigned char *nis)
{
    unsigned char *narrow = xcalloc(n + 1, 1);
    xs *in = xcalloc(n + 1, sizeof(xs));
    if (n) {
        in[0].known = 1;
        in[0].exec = (xv){ 2, 1 };
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned i = 0; i < n; i++) {
            if (!in[i].known)
                continue;
            xs x = in[i];
            wa_instr_view v;
            wa_program_get(&v, prog, i);
            x_step(r, &x, &v);
            for (unsigned k = 0; k < nis[i]; k++)
                changed |= x_meet(&in[isucc[2 * i + k]], &x);
        }
    }
    for (unsigned i = 0; i < n; i++)
        narrow[i] = in[i].known && !(in[i].exec.in == 2 && in[i].exec.out == 1); /* unreachable items never run */
    free(in);
    return narrow;
}

/* Backward liveness to the fixed point over items: lin = use | (lout & ~def). */
static void ref_backward(unsigned n, unsigned W, const uint64_t *use, const uint64_t *def,
                         const unsigned *isucc, const unsigned char *nis, uint64_t *lin,
                         uint64_t *lout)
{
    uint64_t *tmp = xcalloc(W + 1, sizeof(uint64_t));
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned i = n; i-- > 0;) {
            memset(tmp, 0, W * sizeof(uint64_t));
            for (unsigned k = 0; k < nis[i]; k++) {
                const uint64_t *s = lin + (size_t)isucc[2 * i + k] * W;
                for (unsigned w = 0; w < W; w++)
                    tmp[w] |= s[w];
            }
            uint64_t *lo = lout + (size_t)i * W, *li = lin + (size_t)i * W;
            const uint64_t *u = use + (size_t)i * W, *d = def + (size_t)i * W;
            for (unsigned w = 0; w < W; w++) {
                uint64_t x = u[w] | (tmp[w] & ~d[w]);
                if (lo[w] != tmp[w] || li[w] != x)
                    changed = 1;
                lo[w] = tmp[w];
                li[w] = x;
            }
        }
    }
    free(tmp);
}

/* Registers tuple v holds at point p with sub-register liveness: the whole
   tuple from its first live point, each component until its own last one
   (lastp, firstp: 1 + the point, 0 for never). */
static unsigned held_components(const rp_ref *r, unsigned v, unsigned p, const unsigned *lastp,
                                const unsigned *firstp)
{
    unsigned held = 0;
    for (unsigned c = 0; c < r->vsize[v]; c++) {
        unsigned e = lastp[r->base[v] + c];
        held += p < (e > firstp[v] ? e : firstp[v]);
    }
    return held;
}

rp_ref *rp_ref_compute(const wa_program *prog)
{
    rp_ref *r = xcalloc(1, sizeof(*r));
    unsigned n = wa_program_size(prog), nv = wa_program_vreg_count(prog);
    r->n = n;
    r->nv = nv;
    r->base = xcalloc(nv + 1, sizeof(unsigned));
    r->vsize = xcalloc(nv + 1, sizeof(unsigned));
    r->valign = xcalloc(nv + 1, sizeof(unsigned));
    r->vcls = xcalloc(nv + 1, 1);
    for (unsigned v = 0; v < nv; v++) {
        wa_reg_class c = WA_REG_NONE;
        unsigned size = 0, align = 0;
        r->base[v] = NONE;
        if (wa_program_vreg_info(&c, &size, &align, prog, v) != WA_OK || c == WA_REG_NONE)
            continue;
        r->vcls[v] = (unsigned char)c;
        r->vsize[v] = size;
        r->valign[v] = align;
        r->base[v] = r->nbits;
        r->nbits += size;
    }
    r->phys0 = r->nbits;
    r->nbits += 640;
    r->W = (r->nbits + 63) / 64;
    unsigned W = r->W;
    r->use = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    r->def = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    r->lin = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    r->lout = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    r->mfma = xcalloc(n + 1, 1);
    r->eclob = xcalloc(n + 1, 1);
    r->pseudo = xcalloc(n + 1, 1);
    unsigned nlabels = wa_program_label_count(prog);
    unsigned *label_item = xcalloc(nlabels + 1, sizeof(unsigned));
    for (unsigned l = 0; l < nlabels; l++)
        label_item[l] = NONE;
    unsigned bits[64];
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view v;
        wa_program_get(&v, prog, i);
        const wa_isa_info *info = wa_isa_get(v.opcode);
        if (v.opcode == WA_OP_LABEL && v.num_operands && v.operands[0].id < nlabels)
            label_item[v.operands[0].id] = i;
        r->pseudo[i] = (info->flags & WA_IF_PSEUDO) != 0;
        r->mfma[i] = (info->flags & WA_IF_MFMA) != 0;
        r->eclob[i] = (info->flags & WA_IF_EARLY_CLOBBER) != 0;
        if (r->pseudo[i])
            continue;
        for (unsigned k = 0; k < v.num_operands && k < info->num_operands; k++) {
            unsigned role = role_of(&v, info, k);
            unsigned m = operand_bits(r, &v.operands[k], bits, 64);
            for (unsigned j = 0; j < m; j++) {
                if (role & WA_ROLE_USE)
                    bit_set(r->use + (size_t)i * W, bits[j]);
                if (role & WA_ROLE_DEF)
                    bit_set(r->def + (size_t)i * W, bits[j]);
            }
        }
    }
    /* successors per item */
    unsigned *isucc = xcalloc(2 * (size_t)n + 1, sizeof(unsigned));
    unsigned char *nis = xcalloc(n + 1, 1);
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view v;
        wa_program_get(&v, prog, i);
        const wa_isa_info *info = wa_isa_get(v.opcode);
        if (is_branch(info)) {
            unsigned t = branch_target_item(prog, &v, label_item, nlabels);
            if (t != NONE)
                isucc[2 * i + nis[i]++] = t;
        }
        if (!(info->flags & (WA_IF_BRANCH | WA_IF_ENDPGM)) && i + 1 < n)
            isucc[2 * i + nis[i]++] = i + 1;
    }
    /* Writes under a narrowed EXEC: a VGPR/AGPR destination written (not read)
       keeps its other lanes, a weak read of the old value (for a physical
       register an ordinary read: it always holds something). */
    unsigned char *narrow = ref_exec_narrow(r, prog, n, isucc, nis);
    uint64_t *wuse = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    for (unsigned i = 0; i < n; i++) {
        if (!narrow[i] || r->pseudo[i])
            continue;
        wa_instr_view v;
        wa_program_get(&v, prog, i);
        const wa_isa_info *info = wa_isa_get(v.opcode);
        for (unsigned k = 0; k < v.num_operands && k < info->num_operands; k++) {
            const wa_operand *o = &v.operands[k];
            unsigned role = role_of(&v, info, k);
            if (!(role & WA_ROLE_DEF) || (role & WA_ROLE_USE) ||
                (o->reg_class != WA_REG_VGPR && o->reg_class != WA_REG_AGPR))
                continue;
            unsigned m = operand_bits(r, o, bits, 64);
            for (unsigned j = 0; j < m; j++)
                bit_set((bits[j] >= r->phys0 ? r->use : wuse) + (size_t)i * W, bits[j]);
        }
    }
    /* live = S | (A & MD): S from the ordinary reads, A from all reads, MD where a
       definition may have reached (forwards; everything in unreachable code;
       physical registers always) */
    uint64_t *all_use = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    for (size_t w = 0; w < (size_t)n * W; w++)
        all_use[w] = r->use[w] | wuse[w];
    uint64_t *ain = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    uint64_t *aout = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    ref_backward(n, W, r->use, r->def, isucc, nis, r->lin, r->lout);
    ref_backward(n, W, all_use, r->def, isucc, nis, ain, aout);
    unsigned char *ireach = xcalloc(n + 1, 1);
    {
        unsigned *stack = xcalloc(n + 1, sizeof(unsigned)), sp = 0;
        if (n) {
            ireach[0] = 1;
            stack[sp++] = 0;
        }
        while (sp) {
            unsigned i = stack[--sp];
            for (unsigned k = 0; k < nis[i]; k++)
                if (!ireach[isucc[2 * i + k]]) {
                    ireach[isucc[2 * i + k]] = 1;
                    stack[sp++] = isucc[2 * i + k];
                }
        }
        free(stack);
    }
    uint64_t *mdin = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    uint64_t *mdout = xcalloc((size_t)n * W + 1, sizeof(uint64_t));
    for (int changed = 1; changed;) {
        changed = 0;
        for (unsigned i = 0; i < n; i++) {
            uint64_t *mi = mdin + (size_t)i * W, *mo = mdout + (size_t)i * W;
            for (unsigned w = 0; w < W; w++) {
                uint64_t in = ireach[i] ? 0 : ~0ull;
                if (ireach[i])
                    for (unsigned p = 0; p < n; p++)
                        for (unsigned k = 0; k < nis[p]; k++)
                            if (isucc[2 * p + k] == i && ireach[p])
                                in |= mdout[(size_t)p * W + w];
                for (unsigned b = 0; b < 64; b++)
                    if (64 * w + b >= r->phys0)
                        in |= 1ull << b; /* physical registers */
                uint64_t out = in | r->def[(size_t)i * W + w];
                if (mi[w] != in || mo[w] != out)
                    changed = 1;
                mi[w] = in;
                mo[w] = out;
            }
        }
    }
    for (size_t w = 0; w < (size_t)n * W; w++) {
        r->lin[w] |= ain[w] & mdin[w];
        r->lout[w] |= aout[w] & mdout[w];
    }
    r->narrow = narrow;
    free(wuse);
    free(all_use);
    free(ain);
    free(aout);
    free(mdin);
    free(mdout);
    free(ireach);
    uint64_t *tmp = xcalloc(W + 1, sizeof(uint64_t));
    free(isucc);
    free(nis);
    build_blocks(r, prog, label_item, nlabels);
    free(label_item);
    unsigned nw;
    uint64_t *dom = build_dominators(r, &nw);
    build_loops(r, dom, nw);
    free(dom);
    /* pressure */
    unsigned *bit_vreg = xcalloc(r->nbits + 1, sizeof(unsigned));
    unsigned *seen = xcalloc(nv + 1, sizeof(unsigned));
    unsigned stampv = 0;
    for (unsigned v = 0; v < nv; v++)
        if (r->base[v] != NONE)
            for (unsigned c = 0; c < r->vsize[v]; c++)
                bit_vreg[r->base[v] + c] = v;
    for (unsigned c = 1; c <= 3; c++)
        r->pressure[c] = xcalloc(n + 1, sizeof(unsigned));
    /* Sub-register liveness: a component of a tuple that is dead for the rest of
       the program stops counting after its last live point (but not before the
       tuple's first one, where the whole tuple is placed). */
    unsigned *lastp = xcalloc(r->nbits + 1, sizeof(unsigned)); /* 1 + last point, 0: never */
    unsigned *firstp = xcalloc(nv + 1, sizeof(unsigned));      /* 1 + first point, 0: never */
    for (unsigned p = 0; p < 2 * n; p++) {
        point_set(r, p, tmp);
        for (unsigned b = 0; b < r->phys0 && b < r->nbits; b++)
            if (tmp[b / 64] >> (b % 64) & 1u) {
                lastp[b] = p + 1;
                if (!firstp[bit_vreg[b]])
                    firstp[bit_vreg[b]] = p + 1;
            }
    }
    for (unsigned i = 0; i < n; i++) {
        /* An MFMA whose srcC (another register of vdst's class and width, not also
           read as srcA/srcB) ends at the MFMA while vdst starts there: the two may
           share their registers (the allocator ties them), so at the use point they
           count once. */
        unsigned tie = 0, tie_cls = 0;
        if (r->eclob[i]) {
            wa_instr_view v;
            wa_program_get(&v, prog, i);
            const wa_operand *d = &v.operands[0], *c = &v.operands[3];
            if (v.num_operands >= 4 && d->kind == WA_OPND_VIRT && c->kind == WA_OPND_VIRT &&
                d->id != c->id && d->reg_class == c->reg_class && d->count == c->count &&
                !(v.operands[1].kind == WA_OPND_VIRT && v.operands[1].id == c->id) &&
                !(v.operands[2].kind == WA_OPND_VIRT && v.operands[2].id == c->id) &&
                rp_ref_is_live(r, c->id, 2 * i) && !rp_ref_is_live(r, c->id, 2 * i + 1) &&
                rp_ref_is_live(r, d->id, 2 * i) && (i == 0 || !rp_ref_is_live(r, d->id, 2 * i - 1))) {
                tie = r->vsize[d->id] < r->vsize[c->id] ? r->vsize[d->id] : r->vsize[c->id];
                tie_cls = d->reg_class;
            }
        }
        for (unsigned p = 2 * i; p <= 2 * i + 1; p++) {
            point_set(r, p, tmp);
            unsigned sum[4] = { 0, 0, 0, 0 };
            if (p == 2 * i)
                sum[tie_cls] -= tie; /* wraps, and comes back with vdst's registers */
            stampv++;
            for (unsigned w = 0; w < W; w++)
                for (uint64_t m = tmp[w]; m; m &= m - 1) {
                    unsigned b = 64 * w;
                    for (uint64_t x = m & (~m + 1); !(x & 1u); x >>= 1)
                        b++;
                    if (b >= r->nbits)
                        break;
                    if (b >= r->phys0) {
                        sum[unit_class(b - r->phys0)]++;
                    } else {
                        unsigned v = bit_vreg[b];
                        if (seen[v] != stampv) {
                            seen[v] = stampv;
                            sum[r->vcls[v]] += held_components(r, v, p, lastp, firstp);
                        }
                    }
                }
            for (unsigned c = 1; c <= 3; c++)
                if (sum[c] > r->pressure[c][i])
                    r->pressure[c][i] = sum[c];
        }
    }
    /* the allocation lower bound: before/after sets, and the physical registers */
    for (unsigned i = 0; i < n; i++) {
        if (r->pseudo[i])
            continue;
        for (int phase = 0; phase < 2; phase++) {
            const uint64_t *lo = r->lout + (size_t)i * W, *de = r->def + (size_t)i * W,
                           *li = r->lin + (size_t)i * W;
            for (unsigned w = 0; w < W; w++)
                tmp[w] = phase ? li[w] : (lo[w] | de[w]);
            unsigned sum[4] = { 0, 0, 0, 0 };
            stampv++;
            for (unsigned b = 0; b < r->nbits; b++) {
                if (!bit_get(tmp, b))
                    continue;
                if (b >= r->phys0) {
                    sum[unit_class(b - r->phys0)]++;
                } else if (seen[bit_vreg[b]] != stampv) {
                    seen[bit_vreg[b]] = stampv;
                    sum[r->vcls[bit_vreg[b]]] +=
                        held_components(r, bit_vreg[b], phase ? 2 * i : 2 * i + 1, lastp, firstp);
                }
            }
            for (unsigned c = 1; c <= 3; c++)
                if (sum[c] > r->lower_bound[c])
                    r->lower_bound[c] = sum[c];
        }
        for (unsigned u = 0; u < 640; u++) {
            unsigned b = r->phys0 + u;
            if ((bit_get(r->use + (size_t)i * W, b) || bit_get(r->def + (size_t)i * W, b)) &&
                u % 256 + 1 > r->lower_bound[unit_class(u)])
                r->lower_bound[unit_class(u)] = u % 256 + 1;
        }
    }
    free(lastp);
    free(firstp);
    free(bit_vreg);
    free(seen);
    free(tmp);
    return r;
}

void rp_ref_free(rp_ref *r)
{
    if (!r)
        return;
    free(r->base);
    free(r->vsize);
    free(r->valign);
    free(r->vcls);
    free(r->use);
    free(r->def);
    free(r->lin);
    free(r->lout);
    free(r->mfma);
    free(r->eclob);
    free(r->pseudo);
    free(r->narrow);
    free(r->first);
    free(r->last);
    free(r->item_block);
    free(r->succ);
    free(r->nsucc);
    free(r->reach);
    free(r->idom);
    for (unsigned l = 0; l < r->nloops; l++)
        free(r->loops[l].body);
    free(r->loops);
    free(r->block_loop_header);
    free(r->block_depth);
    for (unsigned c = 1; c <= 3; c++)
        free(r->pressure[c]);
    free(r);
}

unsigned rp_ref_items(const rp_ref *r)
{
    return r->n;
}

unsigned rp_ref_block_count(const rp_ref *r)
{
    return r->nb;
}

int rp_ref_is_live(const rp_ref *r, unsigned vreg, unsigned point)
{
    if (vreg >= r->nv || point >= 2 * r->n || r->base[vreg] == NONE)
        return 0;
    unsigned i = point / 2, W = r->W;
    for (unsigned c = 0; c < r->vsize[vreg]; c++) {
        unsigned b = r->base[vreg] + c;
        int live = (point & 1) ? bit_get(r->lout + (size_t)i * W, b) || bit_get(r->def + (size_t)i * W, b)
                               : bit_get(r->lin + (size_t)i * W, b) ||
                                     (r->eclob[i] && bit_get(r->def + (size_t)i * W, b));
        if (live)
            return 1;
    }
    return 0;
}

unsigned rp_ref_alloc_lower_bound(const rp_ref *r, wa_reg_class cls)
{
    return cls >= WA_REG_VGPR && cls <= WA_REG_AGPR ? r->lower_bound[cls] : 0;
}

unsigned rp_ref_pressure(const rp_ref *r, unsigned item, wa_reg_class cls)
{
    if (item >= r->n || cls < WA_REG_VGPR || cls > WA_REG_AGPR)
        return 0;
    return r->pressure[cls][item];
}

unsigned rp_ref_max_pressure(const rp_ref *r, wa_reg_class cls, unsigned *out_item)
{
    unsigned best = 0, at = NONE;
    for (unsigned i = 0; i < r->n; i++)
        if (at == NONE || r->pressure[cls][i] > best) {
            best = r->pressure[cls][i];
            at = i;
        }
    if (out_item)
        *out_item = at;
    return best;
}

/* ---- comparison ------------------------------------------------------------------------ */

typedef struct cmp_state {
    unsigned diffs, max_reports;
} cmp_state;

static void differ(cmp_state *S, const char *fmt, ...) UT_PRINTF(2, 3);
static void differ(cmp_state *S, const char *fmt, ...)
{
    S->diffs++;
    if (S->diffs > S->max_reports)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    CHECK_MSG(0, "liveness differs from the reference: %s", buf);
}

static int cmp_uns(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Sorted copy of a list into a buffer (returns its size). */
static unsigned sorted(unsigned *dst, const unsigned *src, unsigned n)
{
    if (n)
        memcpy(dst, src, n * sizeof(unsigned));
    qsort(dst, n, sizeof(unsigned), cmp_uns);
    return n;
}

static void compare_list(cmp_state *S, const char *what, unsigned b, const unsigned *got,
                         unsigned ngot, const unsigned *want, unsigned nwant)
{
    int same = ngot == nwant;
    for (unsigned i = 0; same && i < ngot; i++)
        same = got[i] == want[i];
    if (!same) {
        char g[256], w[256];
        size_t lg = 0, lw = 0;
        g[0] = w[0] = '\0';
        for (unsigned i = 0; i < ngot && lg + 12 < sizeof(g); i++)
            lg += (size_t)snprintf(g + lg, sizeof(g) - lg, " %u", got[i]);
        for (unsigned i = 0; i < nwant && lw + 12 < sizeof(w); i++)
            lw += (size_t)snprintf(w + lw, sizeof(w) - lw, " %u", want[i]);
        differ(S, "%s of block %u: library {%s } reference {%s }", what, b, g, w);
    }
}

unsigned rp_compare_liveness(const rp_ref *r, const wa_program *prog, const wa_liveness *live,
                             unsigned max_reports)
{
    cmp_state S = { 0, max_reports };
    unsigned nb = wa_liveness_block_count(live);
    if (nb != r->nb) {
        differ(&S, "%u blocks, reference %u", nb, r->nb);
        return S.diffs;
    }
    unsigned *a = xcalloc(r->nv + 2 * nb + 8, sizeof(unsigned));
    unsigned *want = xcalloc(r->nv + 2 * nb + 8, sizeof(unsigned));
    /* where EXEC may be narrower than at entry */
    for (unsigned i = 0; i < r->n; i++)
        if (!wa_liveness_exec_partial(live, i) != !r->narrow[i])
            differ(&S, "item %u: exec partial %d, reference %d", i, wa_liveness_exec_partial(live, i),
                   r->narrow[i]);
    /* blocks */
    for (unsigned b = 0; b < nb; b++) {
        wa_block_info bi;
        if (wa_liveness_block(&bi, live, b) != WA_OK) {
            differ(&S, "wa_liveness_block(%u) failed", b);
            continue;
        }
        if (bi.first_item != r->first[b] || bi.last_item != r->last[b])
            differ(&S, "block %u: items %u..%u, reference %u..%u", b, bi.first_item, bi.last_item,
                   r->first[b], r->last[b]);
        if (!bi.reachable != !r->reach[b])
            differ(&S, "block %u: reachable %d, reference %d", b, bi.reachable, r->reach[b]);
        if (bi.idom != r->idom[b])
            differ(&S, "block %u: idom %u, reference %u", b, bi.idom, r->idom[b]);
        unsigned lh = NONE;
        if (bi.loop != WA_NONE) {
            wa_loop_info li;
            if (wa_liveness_loop(&li, live, bi.loop) == WA_OK)
                lh = li.header;
        }
        if (lh != r->block_loop_header[b] || bi.loop_depth != r->block_depth[b])
            differ(&S, "block %u: loop header %u depth %u, reference %u depth %u", b, lh,
                   bi.loop_depth, r->block_loop_header[b], r->block_depth[b]);
        unsigned cnt;
        const unsigned *s = wa_liveness_succs(live, b, &cnt);
        unsigned ns = sorted(a, s, cnt);
        unsigned nw = sorted(want, r->succ + 2 * b, r->nsucc[b]);
        compare_list(&S, "successors", b, a, ns, want, nw);
        if (cnt != bi.num_succs)
            differ(&S, "block %u: num_succs %u but %u successors", b, bi.num_succs, cnt);
        s = wa_liveness_preds(live, b, &cnt);
        ns = sorted(a, s, cnt);
        nw = 0;
        for (unsigned p = 0; p < nb; p++)
            for (unsigned k = 0; k < r->nsucc[p]; k++)
                if (r->succ[2 * p + k] == b)
                    want[nw++] = p;
        compare_list(&S, "predecessors", b, a, ns, want, nw);
        if (cnt != bi.num_preds)
            differ(&S, "block %u: num_preds %u but %u predecessors", b, bi.num_preds, cnt);
        /* live sets */
        s = wa_liveness_live_in(live, b, &cnt);
        nw = 0;
        for (unsigned v = 0; v < r->nv; v++)
            if (vreg_in(r, r->lin + (size_t)r->first[b] * r->W, v))
                want[nw++] = v;
        compare_list(&S, "live-in", b, s, cnt, want, nw);
        s = wa_liveness_live_out(live, b, &cnt);
        nw = 0;
        for (unsigned v = 0; v < r->nv; v++)
            if (vreg_in(r, r->lout + (size_t)r->last[b] * r->W, v))
                want[nw++] = v;
        compare_list(&S, "live-out", b, s, cnt, want, nw);
    }
    /* loops */
    unsigned nl = wa_liveness_loop_count(live);
    if (nl != r->nloops)
        differ(&S, "%u loops, reference %u", nl, r->nloops);
    for (unsigned l = 0; l < nl; l++) {
        wa_loop_info li;
        if (wa_liveness_loop(&li, live, l) != WA_OK) {
            differ(&S, "wa_liveness_loop(%u) failed", l);
            continue;
        }
        const rp_loop *R = NULL;
        for (unsigned m = 0; m < r->nloops; m++)
            if (r->loops[m].header == li.header)
                R = &r->loops[m];
        if (!R) {
            differ(&S, "loop %u: header block %u is no loop header in the reference", l, li.header);
            continue;
        }
        unsigned ph = NONE;
        if (li.parent != WA_NONE) {
            wa_loop_info pi;
            if (wa_liveness_loop(&pi, live, li.parent) == WA_OK)
                ph = pi.header;
        }
        if (li.num_blocks != R->num_blocks || li.num_exits != R->num_exits || li.depth != R->depth ||
            ph != R->parent_header)
            differ(&S,
                   "loop at block %u: %u blocks, %u exits, depth %u, parent header %u; reference %u, %u, %u, %u",
                   li.header, li.num_blocks, li.num_exits, li.depth, ph, R->num_blocks, R->num_exits,
                   R->depth, R->parent_header);
    }
    /* live on entry */
    {
        unsigned cnt, nw = 0;
        const unsigned *s = wa_liveness_live_on_entry(live, &cnt);
        if (r->n)
            for (unsigned v = 0; v < r->nv; v++)
                if (vreg_in(r, r->lin, v))
                    want[nw++] = v;
        compare_list(&S, "live on entry", 0, s, cnt, want, nw);
    }
    /* segments of every virtual register = maximal runs of live points */
    unsigned npts = 2 * r->n;
    for (unsigned v = 0; v < r->nv; v++) {
        unsigned cnt;
        const wa_live_segment *sg = wa_liveness_segments(live, v, &cnt);
        unsigned k = 0, ok = 1;
        for (unsigned p = 0; p < npts && ok;) {
            if (!rp_ref_is_live(r, v, p)) {
                p++;
                continue;
            }
            unsigned e = p;
            while (e + 1 < npts && rp_ref_is_live(r, v, e + 1))
                e++;
            if (k >= cnt || sg[k].start != p || sg[k].end != e) {
                differ(&S, "%%%u: segment %u is [%u,%u], reference [%u,%u] (%u segments)", v, k,
                       k < cnt ? sg[k].start : NONE, k < cnt ? sg[k].end : NONE, p, e, cnt);
                ok = 0;
            }
            k++;
            p = e + 1;
        }
        if (ok && k != cnt)
            differ(&S, "%%%u: %u segments, reference %u", v, cnt, k);
        for (unsigned p = 0; p < npts && ok; p++)
            if (!wa_liveness_is_live(live, v, p) != !rp_ref_is_live(r, v, p)) {
                differ(&S, "%%%u: wa_liveness_is_live at %u disagrees", v, p);
                ok = 0;
            }
    }
    /* live_at, pressure */
    for (unsigned c = 1; c <= 3; c++) {
        for (unsigned p = 0; p < npts; p++) {
            unsigned got = wa_liveness_live_at(a, r->nv + 1, live, p, (wa_reg_class)c), nw = 0;
            for (unsigned v = 0; v < r->nv; v++)
                if (r->vcls[v] == c && rp_ref_is_live(r, v, p))
                    want[nw++] = v;
            if (got > r->nv + 1)
                got = r->nv + 1;
            if (got != nw || (nw && memcmp(a, want, nw * sizeof(unsigned)) != 0)) {
                differ(&S, "live_at(%u, class %u): %u registers, reference %u", p, c, got, nw);
                break;
            }
        }
        for (unsigned i = 0; i < r->n; i++)
            if (wa_liveness_pressure(live, i, (wa_reg_class)c) != r->pressure[c][i]) {
                differ(&S, "pressure of class %u at item %u: %u, reference %u", c, i,
                       wa_liveness_pressure(live, i, (wa_reg_class)c), r->pressure[c][i]);
                break;
            }
        unsigned at, rat;
        unsigned mp = wa_liveness_max_pressure(live, (wa_reg_class)c, &at);
        unsigned rmp = rp_ref_max_pressure(r, (wa_reg_class)c, &rat);
        if (mp != rmp || at != rat)
            differ(&S, "max pressure of class %u: %u at %u, reference %u at %u", c, mp, at, rmp, rat);
    }
    (void)prog;
    free(a);
    free(want);
    return S.diffs;
}

/* ---- allocation verifier -------------------------------------------------------------------- */

typedef struct vstate {
    unsigned errors, max_reports;
    int report;
} vstate;

static void violation(vstate *V, const char *fmt, ...) UT_PRINTF(2, 3);
static void violation(vstate *V, const char *fmt, ...)
{
    V->errors++;
    if (!V->report || V->errors > V->max_reports)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    CHECK_MSG(0, "allocation: %s", buf);
}

static void bit_name(const rp_ref *r, unsigned b, char *buf, size_t n)
{
    if (b >= r->phys0) {
        unsigned u = b - r->phys0;
        snprintf(buf, n, "%c%u", "?vsa"[unit_class(u)], u % 256);
        return;
    }
    for (unsigned v = 0; v < r->nv; v++)
        if (r->base[v] != NONE && b >= r->base[v] && b < r->base[v] + r->vsize[v]) {
            snprintf(buf, n, "%%%u[%u]", v, b - r->base[v]);
            return;
        }
    snprintf(buf, n, "bit %u", b);
}

static int reserved(const uint32_t *mask, unsigned r)
{
    return (mask[r >> 5] >> (r & 31)) & 1u;
}

unsigned rp_verify_allocation(const rp_ref *r, const wa_program *prog,
                              const wa_regalloc_result *res, const wa_regalloc_options *opts,
                              int report, unsigned max_reports)
{
    vstate V = { 0, max_reports, report };
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    if (opts)
        o = *opts;
    unsigned nv = r->nv, n = r->n, W = r->W;
    unsigned *first = xcalloc(nv + 1, sizeof(unsigned));
    unsigned char *used = xcalloc(nv + 1, 1);
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view v;
        wa_program_get(&v, prog, i);
        for (unsigned k = 0; k < v.num_operands; k++)
            if (v.operands[k].kind == WA_OPND_VIRT && v.operands[k].id < nv)
                used[v.operands[k].id] = 1;
    }
    for (unsigned v = 0; v < nv; v++) {
        first[v] = NONE;
        wa_operand ph;
        wa_status st = wa_regalloc_lookup(&ph, res, v);
        if (!used[v])
            continue; /* whether unused ids have a register is not the verifier's business */
        if (st != WA_OK) {
            violation(&V, "%%%u has no register (%d)", v, (int)st);
            continue;
        }
        if (ph.kind != WA_OPND_PHYS || ph.reg_class != r->vcls[v] || ph.count != r->vsize[v]) {
            violation(&V, "%%%u: lookup gives kind %u class %u count %u", v, ph.kind, ph.reg_class,
                      ph.count);
            continue;
        }
        first[v] = ph.id;
        unsigned need = wa_target_tuple_align(wa_program_target(prog), (wa_reg_class)r->vcls[v],
                                              r->vsize[v]);
        if (r->valign[v] > need)
            need = r->valign[v];
        if (ph.id % need)
            violation(&V, "%%%u at %u is not aligned to %u", v, ph.id, need);
        unsigned limit = r->vcls[v] == WA_REG_VGPR ? o.max_vgprs
                       : r->vcls[v] == WA_REG_SGPR ? o.max_sgprs : o.max_agprs;
        const uint32_t *rsv = r->vcls[v] == WA_REG_VGPR ? o.reserved_vgprs
                            : r->vcls[v] == WA_REG_SGPR ? o.reserved_sgprs : o.reserved_agprs;
        if (ph.id + r->vsize[v] > limit)
            violation(&V, "%%%u at %u+%u exceeds the limit %u", v, ph.id, r->vsize[v], limit);
        for (unsigned g = ph.id; g < ph.id + r->vsize[v] && g < 256; g++)
            if ((r->vcls[v] != WA_REG_SGPR || g < 128) && reserved(rsv, g))
                violation(&V, "%%%u uses reserved register %u", v, g);
    }
    /* bit -> physical unit */
    unsigned *unit = xcalloc(r->nbits + 1, sizeof(unsigned));
    for (unsigned b = 0; b < r->nbits; b++)
        unit[b] = NONE;
    for (unsigned v = 0; v < nv; v++)
        if (first[v] != NONE && r->base[v] != NONE)
            for (unsigned c = 0; c < r->vsize[v]; c++) {
                unsigned u = unit_of(r->vcls[v], first[v] + c);
                unit[r->base[v] + c] = u < 640 ? u : NONE;
            }
    for (unsigned u = 0; u < 640; u++)
        unit[r->phys0 + u] = u;
    unsigned *owner = xcalloc(640, sizeof(unsigned)), *stamp = xcalloc(640, sizeof(unsigned));
    unsigned sv = 0;
    uint64_t *set = xcalloc(W + 1, sizeof(uint64_t));
    for (unsigned i = 0; i < n; i++) {
        if (r->pseudo[i])
            continue;
        for (int phase = 0; phase < 2; phase++) {
            const uint64_t *lo = r->lout + (size_t)i * W, *de = r->def + (size_t)i * W,
                           *li = r->lin + (size_t)i * W;
            for (unsigned w = 0; w < W; w++)
                set[w] = phase ? li[w] : (lo[w] | de[w]);
            sv++;
            for (unsigned b = 0; b < r->nbits; b++) {
                if (!bit_get(set, b) || unit[b] == NONE)
                    continue;
                unsigned u = unit[b];
                if (stamp[u] == sv && owner[u] != b) {
                    char n1[32], n2[32];
                    bit_name(r, owner[u], n1, sizeof(n1));
                    bit_name(r, b, n2, sizeof(n2));
                    violation(&V, "item %u: %s and %s both live %s it in %c%u", i, n1, n2,
                              phase ? "before" : "after", "?vsa"[unit_class(u)], u % 256);
                }
                stamp[u] = sv;
                owner[u] = b;
            }
        }
        /* MFMA operand rules on physical ranges */
        if (r->mfma[i]) {
            wa_instr_view v;
            wa_program_get(&v, prog, i);
            unsigned rs[4] = { 0 }, rc[4] = { 0 }, rn[4] = { 0 }, ok[4] = { 0 };
            for (unsigned k = 0; k < 4 && k < v.num_operands; k++) {
                const wa_operand *op = &v.operands[k];
                if (op->kind == WA_OPND_VIRT && op->id < nv && first[op->id] != NONE) {
                    rs[k] = first[op->id] + op->first;
                    rc[k] = op->reg_class;
                    rn[k] = op->count;
                    ok[k] = 1;
                } else if (op->kind == WA_OPND_PHYS) {
                    rs[k] = op->id;
                    rc[k] = op->reg_class;
                    rn[k] = op->count;
                    ok[k] = 1;
                }
            }
            for (unsigned k = 1; k < 4 && k < v.num_operands && ok[0]; k++) {
                if (!ok[k] || rc[k] != rc[0] || rs[k] >= rs[0] + rn[0] || rs[0] >= rs[k] + rn[k])
                    continue;
                if (k == 3 && rs[k] == rs[0] && rn[k] == rn[0])
                    continue;
                if (!r->eclob[i])
                    continue; /* a narrow result may take its sources' registers */
                violation(&V, "item %u: MFMA vdst [%u,+%u) overlaps operand %u [%u,+%u)", i, rs[0],
                          rn[0], k, rs[k], rn[k]);
            }
        }
    }
    free(first);
    free(used);
    free(unit);
    free(owner);
    free(stamp);
    free(set);
    return V.errors;
}

unsigned rp_hole_sharing(const rp_ref *r, const wa_program *prog, const wa_regalloc_result *res)
{
    (void)prog;
    unsigned nv = r->nv, count = 0;
    unsigned *lo = xcalloc(nv + 1, sizeof(unsigned)), *hi = xcalloc(nv + 1, sizeof(unsigned));
    unsigned *first = xcalloc(nv + 1, sizeof(unsigned));
    for (unsigned v = 0; v < nv; v++) {
        wa_operand ph;
        lo[v] = NONE;
        first[v] = NONE;
        if (wa_regalloc_lookup(&ph, res, v) != WA_OK)
            continue;
        for (unsigned p = 0; p < 2 * r->n; p++)
            if (rp_ref_is_live(r, v, p)) {
                if (lo[v] == NONE)
                    lo[v] = p;
                hi[v] = p;
            }
        if (lo[v] != NONE)
            first[v] = ph.id;
    }
    for (unsigned a = 0; a < nv; a++)
        for (unsigned b = a + 1; b < nv; b++) {
            if (first[a] == NONE || first[b] == NONE || r->vcls[a] != r->vcls[b])
                continue;
            if (first[a] >= first[b] + r->vsize[b] || first[b] >= first[a] + r->vsize[a])
                continue;
            /* Hulls that meet in exactly one point are an MFMA tie: srcC ends at the
               use point where the early-clobber vdst begins. Not a lifetime hole. */
            int tie = lo[a] == hi[b] || lo[b] == hi[a];
            if (lo[a] <= hi[b] && lo[b] <= hi[a] && !tie)
                count++;
        }
    free(lo);
    free(hi);
    free(first);
    return count;
}
