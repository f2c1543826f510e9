/* bench/gemm_gen.c — GEMM-like kernel generator (see gemm_gen.h).

   Layout of the generated kernel (all registers virtual except the ABI inputs):

     prologue   s_load of the arguments, lane id (v_mbcnt) and work-item id (v0),
                SRDs of A, B, C in SGPR quads, lane addresses, zeroing of 8 of
                the 16 accumulator quads, the first loads of the pipeline and one
                peeled K step (whose MFMAs initialise the other 8 accumulators
                with C = 0)
     loop(s)    K steps, each: wait for the quads loaded one step earlier,
                ds_write_b128 them to LDS, barrier, ds_read_b64 the A and B
                fragments, issue the loads of the next step (prefetch), wait for
                the fragments and barrier again (the LDS tiles are free), a chain
                of v_mfma_f32_16x16x16_f16 on the accumulators of the step's
                rows x columns of the 4 x 4 accumulator grid, address increments
     drain      a last K step without prefetch (consumes the final loads)
     epilogue   buffer_store_dwordx4 of the 16 accumulators, s_endpgm */
#include "gemm_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRID 4                  /* accumulators: a 4 x 4 grid of 16x16 tiles */
#define NACC (GRID * GRID)
#define MAX_DEPTH 2             /* K slices per step: MFMA chain length per tile */
#define MAX_PENDING 64
#define MAX_DISTANCE 8          /* long-lived values are used 1..8 loops (steps) later */
#define LDS_B_BASE 8192         /* LDS: A tile at 0, B tile at 8192 */
#define LDS_BYTES 16384
#define WORKGROUP 256

typedef struct pending {
    wa_operand value;
    unsigned due;               /* loop (or step) index of its use */
} pending;

typedef struct step_shape {
    unsigned rows[GRID], nrows;
    unsigned cols[GRID], ncols;
    unsigned depth;
} step_shape;

typedef struct gen {
    wa_program *p;
    wa_status st;               /* first failure; building stops there */
    uint64_t rng;
    int comments;
    gemm_gen_info info;
    /* ABI inputs (physical) */
    wa_operand kernarg, wgid, tid;
    /* SGPRs */
    wa_operand srd_a, srd_b, srd_c, kargs, trips, soff, prev_cnt;
    /* VGPRs */
    wa_operand lane, row, quad, wave, g_a, g_b, lds_w, lds_r, c_addr;
    wa_operand acc[NACC];
    int acc_ready[NACC];        /* 0 until the accumulator holds a value */
    wa_operand la, lb;          /* quads holding the tiles of the next step */
    pending pv[MAX_PENDING];    /* long-lived VGPR values waiting for their use */
    unsigned npv;
    pending ps[MAX_PENDING];    /* long-lived SGPR values */
    unsigned nps;
} gen;

/* ---- deterministic random numbers (splitmix64) ------------------------------------------ */

static uint64_t rnd(gen *g)
{
    uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned rnd_below(gen *g, unsigned n)
{
    return (unsigned)(rnd(g) % n);
}

/* ---- building with a sticky status ------------------------------------------------------ */

static void note(gen *g, wa_status st)
{
    if (g->st == WA_OK && st != WA_OK)
        g->st = st;
}

static void counted(gen *g, wa_status st)
{
    note(g, st);
    if (st == WA_OK)
        g->info.instructions++;
}

static wa_operand vreg(gen *g, wa_reg_class cls, unsigned size, unsigned align)
{
    wa_operand o = wa_opnd_none();
    if (g->st != WA_OK)
        return o;
    note(g, wa_program_vreg(&o, g->p, cls, size, align));
    if (g->st == WA_OK)
        g->info.vregs++;
    return o;
}

static wa_operand v1(gen *g) { return vreg(g, WA_REG_VGPR, 1, 1); }
static wa_operand s1(gen *g) { return vreg(g, WA_REG_SGPR, 1, 1); }
static wa_operand comp(wa_operand r, unsigned c) { return wa_opnd_sub(r, c, 1); }
static wa_operand imm(int64_t v) { return wa_opnd_imm(v); }
static wa_operand none(void) { return wa_opnd_none(); }

static void valu(gen *g, wa_opcode op, wa_operand d, wa_operand a, wa_operand b, wa_operand c)
{
    if (g->st == WA_OK)
        counted(g, wa_build_valu(NULL, g->p, op, d, a, b, c));
}

static void salu(gen *g, wa_opcode op, wa_operand d, wa_operand a, wa_operand b)
{
    if (g->st == WA_OK)
        counted(g, wa_build_salu(NULL, g->p, op, d, a, b));
}

static void sload(gen *g, wa_opcode op, wa_operand d, int offset)
{
    if (g->st == WA_OK)
        counted(g, wa_build_smem(NULL, g->p, op, d, g->kernarg, imm(offset), NULL));
}

static void buffer(gen *g, wa_opcode op, wa_operand data, wa_operand vaddr, wa_operand srd,
                   wa_operand soffset, int offset)
{
    wa_mods m = WA_MODS_INIT;
    m.flags = WA_MOD_OFFEN;
    m.offset = offset;
    if (g->st == WA_OK)
        counted(g, wa_build_mubuf(NULL, g->p, op, data, vaddr, srd, soffset, &m));
}

static void ds_write(gen *g, wa_operand data, int offset)
{
    wa_mods m = WA_MODS_INIT;
    m.offset = offset;
    if (g->st == WA_OK)
        counted(g, wa_build_ds(NULL, g->p, WA_OP_DS_WRITE_B128, none(), g->lds_w, data, none(), &m));
}

static void ds_read(gen *g, wa_operand dst, int offset)
{
    wa_mods m = WA_MODS_INIT;
    m.offset = offset;
    if (g->st == WA_OK)
        counted(g, wa_build_ds(NULL, g->p, WA_OP_DS_READ_B64, dst, g->lds_r, none(), none(), &m));
}

static void mfma(gen *g, wa_operand d, wa_operand a, wa_operand b, wa_operand c)
{
    if (g->st == WA_OK)
        counted(g, wa_build_mfma(NULL, g->p, WA_OP_V_MFMA_F32_16X16X16_F16, d, a, b, c, none(),
                                 none(), NULL));
}

static void waitcnt(gen *g, int vm, int lgkm)
{
    if (g->st == WA_OK)
        counted(g, wa_build_waitcnt(NULL, g->p, vm, lgkm, -1));
}

static void sopp(gen *g, wa_opcode op, int value)
{
    if (g->st == WA_OK)
        counted(g, wa_build_sopp(NULL, g->p, op, value));
}

static void comment(gen *g, const char *text)
{
    if (g->comments && g->st == WA_OK)
        note(g, wa_build_comment(g->p, text));
}

/* ---- long-lived values ------------------------------------------------------------------ */

static void push_pending(gen *g, pending *list, unsigned *n, wa_operand value, unsigned due)
{
    if (*n < MAX_PENDING) {
        list[*n].value = value;
        list[*n].due = due;
        (*n)++;
        g->info.long_lived++;
    }
}

/* Removes and returns the first value due at or before `now` (kind NONE if none). */
static wa_operand pop_due(pending *list, unsigned *n, unsigned now)
{
    for (unsigned i = 0; i < *n; i++) {
        if (list[i].due <= now) {
            wa_operand v = list[i].value;
            memmove(&list[i], &list[i + 1], (*n - i - 1) * sizeof *list);
            (*n)--;
            return v;
        }
    }
    return none();
}

/* A VGPR value derived from the lane coordinates, to be used `distance` loops later. */
static void define_vgpr_value(gen *g, unsigned due)
{
    wa_operand x = v1(g);
    switch (rnd_below(g, 4)) {
    case 0: valu(g, WA_OP_V_LSHL_ADD_U32, x, g->row, imm(1 + rnd_below(g, 4)), g->lane); break;
    case 1: valu(g, WA_OP_V_MUL_LO_U32, x, g->quad, comp(g->kargs, 1), none()); break;
    case 2: valu(g, WA_OP_V_LSHL_OR_B32, x, g->wave, imm(8), g->row); break;
    default: valu(g, WA_OP_V_ADD_U32, x, imm(rnd_below(g, 64)), g->g_b, none()); break;
    }
    push_pending(g, g->pv, &g->npv, x, due);
}

/* An SGPR value (a K offset), to be used some loops later. */
static void define_sgpr_value(gen *g, unsigned due)
{
    wa_operand y = s1(g);
    switch (rnd_below(g, 3)) {
    case 0:
        salu(g, WA_OP_S_MUL_I32, y, g->prev_cnt.kind != WA_OPND_NONE ? g->prev_cnt : g->trips,
             imm(64));
        break;
    case 1: salu(g, WA_OP_S_LSHL_B32, y, comp(g->kargs, 1), imm(2)); break;
    default: salu(g, WA_OP_S_ADD_U32, y, g->soff, imm(256)); break;
    }
    push_pending(g, g->ps, &g->nps, y, due);
}

/* ---- K steps ------------------------------------------------------------------------------ */

static unsigned step_size(const step_shape *s, int prefetch)
{
    unsigned n = 5;                                   /* waits, 2 ds_write, barrier */
    n += s->depth * (s->nrows + s->ncols);            /* ds_read_b64 */
    n += 2;                                           /* lgkmcnt wait, barrier */
    n += s->depth * s->nrows * s->ncols;              /* MFMAs */
    if (prefetch)
        n += 4;                                       /* 2 loads, 2 increments */
    return n;
}

static void full_shape(step_shape *s, unsigned depth)
{
    s->nrows = s->ncols = GRID;
    for (unsigned i = 0; i < GRID; i++)
        s->rows[i] = s->cols[i] = i;
    s->depth = depth;
}

/* `n` distinct indices out of 0..GRID-1, ascending. */
static void pick_subset(gen *g, unsigned *out, unsigned n)
{
    unsigned all[GRID];
    for (unsigned i = 0; i < GRID; i++)
        all[i] = i;
    for (unsigned i = 0; i < n; i++) {   /* partial Fisher-Yates */
        unsigned j = i + rnd_below(g, GRID - i);
        unsigned t = all[i];
        all[i] = all[j];
        all[j] = t;
    }
    for (unsigned i = 0; i < n; i++) {   /* insertion sort: MFMA order follows the grid */
        unsigned v = all[i], k = i;
        while (k > 0 && out[k - 1] > v) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = v;
    }
}

/* A random shape whose step (with `extra` more instructions) is near `target`. */
static void choose_shape(gen *g, step_shape *s, unsigned target, unsigned extra)
{
    unsigned cand[GRID * GRID * MAX_DEPTH][3], ncand = 0, best = 0, best_diff = ~0u;
    for (unsigned d = 1; d <= MAX_DEPTH; d++)
        for (unsigned r = 1; r <= GRID; r++)
            for (unsigned c = 1; c <= GRID; c++) {
                step_shape t;
                t.nrows = r;
                t.ncols = c;
                t.depth = d;
                unsigned size = step_size(&t, 1) + extra;
                unsigned diff = size > target ? size - target : target - size;
                if (4 * diff <= target) {
                    cand[ncand][0] = d;
                    cand[ncand][1] = r;
                    cand[ncand][2] = c;
                    ncand++;
                }
                if (diff < best_diff) {
                    best_diff = diff;
                    best = d * 100 + r * 10 + c;
                }
            }
    if (ncand) {
        unsigned k = rnd_below(g, ncand);
        s->depth = cand[k][0];
        s->nrows = cand[k][1];
        s->ncols = cand[k][2];
    } else {
        s->depth = best / 100;
        s->nrows = best / 10 % 10;
        s->ncols = best % 10;
    }
    pick_subset(g, s->rows, s->nrows);
    pick_subset(g, s->cols, s->ncols);
}

/* One K step on the tiles in (g->la, g->lb). With `prefetch`, the next step's
   tiles are loaded into (next_a, next_b) before the MFMAs and become g->la/lb. */
static void step(gen *g, const step_shape *s, int prefetch, wa_operand next_a, wa_operand next_b)
{
    wa_operand a[MAX_DEPTH][GRID], b[MAX_DEPTH][GRID];

    waitcnt(g, 0, -1);                               /* the tiles have arrived */
    ds_write(g, g->la, 0);
    ds_write(g, g->lb, LDS_B_BASE);
    waitcnt(g, -1, 0);
    sopp(g, WA_OP_S_BARRIER, 0);
    for (unsigned t = 0; t < s->depth; t++) {
        for (unsigned i = 0; i < s->nrows; i++) {
            a[t][i] = vreg(g, WA_REG_VGPR, 2, 0);
            ds_read(g, a[t][i], (int)(s->rows[i] * 512 + t * 64));
        }
        for (unsigned j = 0; j < s->ncols; j++) {
            b[t][j] = vreg(g, WA_REG_VGPR, 2, 0);
            ds_read(g, b[t][j], (int)(LDS_B_BASE + s->cols[j] * 512 + t * 64));
        }
    }
    if (prefetch) {
        buffer(g, WA_OP_BUFFER_LOAD_DWORDX4, next_a, g->g_a, g->srd_a, g->soff, 0);
        buffer(g, WA_OP_BUFFER_LOAD_DWORDX4, next_b, g->g_b, g->srd_b, imm(0), 0);
    }
    waitcnt(g, -1, 0);
    /* every wave holds its fragments: the next step may overwrite the tiles
       (without this barrier a fast wave's ds_write races a slow wave's ds_read) */
    sopp(g, WA_OP_S_BARRIER, 0);
    for (unsigned t = 0; t < s->depth; t++)
        for (unsigned i = 0; i < s->nrows; i++)
            for (unsigned j = 0; j < s->ncols; j++) {
                unsigned k = s->rows[i] * GRID + s->cols[j];
                mfma(g, g->acc[k], a[t][i], b[t][j], g->acc_ready[k] ? g->acc[k] : imm(0));
                g->acc_ready[k] = 1;
                g->info.mfmas++;
            }
    if (prefetch) {
        salu(g, WA_OP_S_ADD_U32, g->soff, g->soff, imm(64));
        valu(g, WA_OP_V_ADD_U32, g->g_b, imm(64), g->g_b, none());
        g->la = next_a;
        g->lb = next_b;
    }
    g->info.steps++;
}

static wa_operand quad(gen *g)
{
    return vreg(g, WA_REG_VGPR, 4, 0);
}

/* ---- kernel sections ------------------------------------------------------------------------ */

static void setup_kernel(gen *g)
{
    static const struct { const char *name; wa_arg_kind kind; unsigned size, flags; } args[] = {
        { "a", WA_ARG_GLOBAL_BUFFER, 8, WA_ARG_CONST },
        { "b", WA_ARG_GLOBAL_BUFFER, 8, WA_ARG_CONST },
        { "c", WA_ARG_GLOBAL_BUFFER, 8, 0 },
        { "k", WA_ARG_BY_VALUE, 4, 0 },
        { "ldk", WA_ARG_BY_VALUE, 4, 0 },
    };
    note(g, wa_program_set_workgroup_size(g->p, WORKGROUP, 1, 1));
    note(g, wa_program_set_lds_bytes(g->p, LDS_BYTES));
    note(g, wa_program_set_abi_inputs(g->p, WA_ABI_BIT(WA_ABI_KERNARG_PTR) |
                                                WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X) |
                                                WA_ABI_BIT(WA_ABI_WORKITEM_ID_X)));
    for (unsigned i = 0; i < sizeof args / sizeof args[0]; i++) {
        wa_kernel_arg a = WA_KERNEL_ARG_INIT;
        a.name = args[i].name;
        a.kind = args[i].kind;
        a.size = args[i].size;
        a.flags = args[i].flags;
        if (g->st == WA_OK)
            note(g, wa_program_add_arg(NULL, g->p, &a));
    }
    if (g->st == WA_OK)
        note(g, wa_program_abi_reg(&g->kernarg, g->p, WA_ABI_KERNARG_PTR));
    if (g->st == WA_OK)
        note(g, wa_program_abi_reg(&g->wgid, g->p, WA_ABI_WORKGROUP_ID_X));
    if (g->st == WA_OK)
        note(g, wa_program_abi_reg(&g->tid, g->p, WA_ABI_WORKITEM_ID_X));
}

/* SRD word 0-1: base (+ workgroup tile), word 2: num_records, word 3: 0x20000. */
static void make_srd(gen *g, wa_operand srd, wa_operand base_lo, wa_operand base_hi,
                     wa_operand tile, wa_operand records)
{
    salu(g, WA_OP_S_ADD_U32, comp(srd, 0), base_lo, tile);
    salu(g, WA_OP_S_ADDC_U32, comp(srd, 1), base_hi, imm(0));
    if (records.kind == WA_OPND_IMM)
        salu(g, WA_OP_S_MOV_B32, comp(srd, 2), records, none());
    else
        salu(g, WA_OP_S_LSHL_B32, comp(srd, 2), records, imm(6));
    salu(g, WA_OP_S_MOV_B32, comp(srd, 3), imm(0x20000), none());
}

static void prologue(gen *g)
{
    comment(g, "prologue: arguments, lane coordinates, buffer descriptors, addresses");
    wa_operand ab = vreg(g, WA_REG_SGPR, 4, 4);
    g->srd_a = vreg(g, WA_REG_SGPR, 4, 4);
    g->srd_b = vreg(g, WA_REG_SGPR, 4, 4);
    g->srd_c = vreg(g, WA_REG_SGPR, 4, 4);
    g->kargs = vreg(g, WA_REG_SGPR, 2, 2);
    sload(g, WA_OP_S_LOAD_DWORDX4, ab, 0);                       /* a, b */
    sload(g, WA_OP_S_LOAD_DWORDX2, wa_opnd_sub(g->srd_c, 0, 2), 16); /* c, straight into its SRD */
    sload(g, WA_OP_S_LOAD_DWORDX2, g->kargs, 24);               /* k, ldk */

    /* Lane within the wave, work-item within the workgroup, 16 x 4 lane grid. */
    wa_operand lo = v1(g), tidx = v1(g);
    g->lane = v1(g);
    g->wave = v1(g);
    g->row = v1(g);
    g->quad = v1(g);
    valu(g, WA_OP_V_MBCNT_LO_U32_B32, lo, imm(-1), imm(0), none());
    valu(g, WA_OP_V_MBCNT_HI_U32_B32, g->lane, imm(-1), lo, none());
    valu(g, WA_OP_V_AND_B32, tidx, imm(0x3ff), g->tid, none());
    valu(g, WA_OP_V_LSHRREV_B32, g->wave, imm(6), tidx, none());
    valu(g, WA_OP_V_AND_B32, g->row, imm(15), g->lane, none());
    valu(g, WA_OP_V_LSHRREV_B32, g->quad, imm(4), g->lane, none());
    wa_operand tile = s1(g);
    salu(g, WA_OP_S_LSHL_B32, tile, g->wgid, imm(12));

    /* Half of the accumulators start at zero here; the peeled step's MFMAs
       initialise the others (C = 0). */
    for (unsigned k = 0; k < NACC; k++) {
        g->acc[k] = quad(g);
        g->acc_ready[k] = 0;
    }
    for (unsigned k = 0; k < NACC / 2; k++) {
        for (unsigned c = 0; c < 4; c++)
            valu(g, WA_OP_V_MOV_B32, comp(g->acc[k], c), imm(0), none(), none());
        g->acc_ready[k] = 1;
    }

    waitcnt(g, -1, 0);
    make_srd(g, g->srd_a, comp(ab, 0), comp(ab, 1), tile, comp(g->kargs, 0));
    make_srd(g, g->srd_b, comp(ab, 2), comp(ab, 3), tile, comp(g->kargs, 0));
    make_srd(g, g->srd_c, comp(g->srd_c, 0), comp(g->srd_c, 1), tile, imm(0x10000));
    g->trips = s1(g);
    salu(g, WA_OP_S_LSHR_B32, g->trips, comp(g->kargs, 0), imm(5));
    g->soff = s1(g);
    salu(g, WA_OP_S_MOV_B32, g->soff, imm(0), none());

    /* Global offsets of the lane's A and B tiles, LDS addresses, C offset. */
    wa_operand t0 = v1(g), t1 = v1(g), t2 = v1(g), t3 = v1(g);
    g->g_a = v1(g);
    g->g_b = v1(g);
    g->lds_w = v1(g);
    g->lds_r = v1(g);
    g->c_addr = v1(g);
    valu(g, WA_OP_V_MUL_LO_U32, t0, g->row, comp(g->kargs, 1), none());
    valu(g, WA_OP_V_LSHL_ADD_U32, g->g_a, g->quad, imm(4), t0);
    valu(g, WA_OP_V_LSHL_OR_B32, g->g_b, g->wave, imm(10), g->g_a);
    valu(g, WA_OP_V_LSHLREV_B32, g->lds_w, imm(4), tidx, none());
    valu(g, WA_OP_V_LSHLREV_B32, t1, imm(3), g->quad, none());
    valu(g, WA_OP_V_LSHL_ADD_U32, g->lds_r, g->row, imm(5), t1);
    valu(g, WA_OP_V_LSHLREV_B32, t2, imm(2), g->row, none());
    valu(g, WA_OP_V_LSHL_ADD_U32, t3, g->quad, imm(8), t2);
    valu(g, WA_OP_V_LSHL_OR_B32, g->c_addr, g->wave, imm(12), t3);

    /* Start the pipeline: the first tiles, then one peeled step that prefetches. */
    g->la = quad(g);
    g->lb = quad(g);
    buffer(g, WA_OP_BUFFER_LOAD_DWORDX4, g->la, g->g_a, g->srd_a, g->soff, 0);
    buffer(g, WA_OP_BUFFER_LOAD_DWORDX4, g->lb, g->g_b, g->srd_b, imm(0), 0);
    salu(g, WA_OP_S_ADD_U32, g->soff, g->soff, imm(64));
    valu(g, WA_OP_V_ADD_U32, g->g_b, imm(64), g->g_b, none());
    step_shape full;
    full_shape(&full, 1);
    comment(g, "peeled first K step");
    wa_operand next_a = quad(g);
    wa_operand next_b = quad(g);
    step(g, &full, 1, next_a, next_b);
}

/* Instructions of the drain step and the epilogue, for sizing. */
static unsigned tail_size(const gen *g)
{
    step_shape full;
    full_shape(&full, 1);
    return step_size(&full, 0) + 2 + NACC + g->npv + 2 * g->nps + 2;
}

static void epilogue(gen *g)
{
    step_shape full;
    full_shape(&full, 1);
    comment(g, "drain: the last K step, nothing left to prefetch");
    step(g, &full, 0, none(), none());

    comment(g, "epilogue: store the accumulators");
    wa_operand v;
    while ((v = pop_due(g->pv, &g->npv, ~0u)).kind != WA_OPND_NONE)
        valu(g, WA_OP_V_ADD_U32, g->c_addr, v, g->c_addr, none());
    while ((v = pop_due(g->ps, &g->nps, ~0u)).kind != WA_OPND_NONE) {
        salu(g, WA_OP_S_ADD_U32, comp(g->srd_c, 0), comp(g->srd_c, 0), v);
        salu(g, WA_OP_S_ADDC_U32, comp(g->srd_c, 1), comp(g->srd_c, 1), imm(0));
    }
    sopp(g, WA_OP_S_NOP, 7);                          /* MFMA results -> VMEM reads */
    for (unsigned k = 0; k < NACC; k++)
        buffer(g, WA_OP_BUFFER_STORE_DWORDX4, g->acc[k], g->c_addr, g->srd_c, imm(0),
               (int)(k * 256));
    sopp(g, WA_OP_S_ENDPGM, 0);
}

static void loop_begin(gen *g, wa_label *label, wa_operand *cnt)
{
    *cnt = s1(g);
    salu(g, WA_OP_S_MOV_B32, *cnt, imm(0), none());
    if (g->st == WA_OK)
        note(g, wa_program_label_create(label, g->p, NULL));
    if (g->st == WA_OK)
        note(g, wa_build_label(g->p, *label));
    g->info.loops++;
}

static void loop_end(gen *g, wa_label label, wa_operand cnt)
{
    salu(g, WA_OP_S_ADD_U32, cnt, cnt, imm(1));
    salu(g, WA_OP_S_CMP_LT_U32, none(), cnt, g->trips);
    if (g->st == WA_OK)
        counted(g, wa_build_branch(NULL, g->p, WA_OP_S_CBRANCH_SCC1, label));
    g->prev_cnt = cnt;
}

/* One loop whose body is unrolled K steps. Each step prefetches into fresh
   quads, except the last, which loads the loop-carried quads the first reads. */
static void one_loop(gen *g, unsigned target)
{
    wa_operand carry_a = g->la, carry_b = g->lb;
    wa_label label = 0;
    wa_operand cnt;
    comment(g, "K loop, unrolled");
    loop_begin(g, &label, &cnt);
    for (unsigned s = 0; g->st == WA_OK; s++) {
        step_shape shape;
        full_shape(&shape, 1 + rnd_below(g, MAX_DEPTH));
        unsigned size = step_size(&shape, 1) + 2;
        step_shape small;
        full_shape(&small, 1);
        int last = g->info.instructions + size + 3 + tail_size(g) + step_size(&small, 1) > target;
        /* Long-lived values inside the body: defined now, used a few steps later
           (always within the iteration). */
        wa_operand v;
        while ((v = pop_due(g->pv, &g->npv, last ? ~0u : s)).kind != WA_OPND_NONE)
            valu(g, WA_OP_V_ADD_U32, g->g_b, v, g->g_b, none());
        if (!last && rnd_below(g, 2))
            define_vgpr_value(g, s + 1 + rnd_below(g, MAX_DISTANCE));
        if (last) {
            step(g, &shape, 1, carry_a, carry_b);
            break;
        }
        wa_operand next_a = quad(g);
        wa_operand next_b = quad(g);
        step(g, &shape, 1, next_a, next_b);
    }
    loop_end(g, label, cnt);
}

/* A sequence of short loops, one K step per body, sized so that a loop body and
   the block before it hold about 2 * block_size instructions. */
static void many_loops(gen *g, unsigned target, unsigned block_size)
{
    char text[64];
    for (unsigned k = 0; g->st == WA_OK; k++) {
        if (g->info.instructions + 2 * block_size + tail_size(g) > target && k > 0)
            break;
        unsigned start = g->info.instructions;
        if (g->comments) {
            snprintf(text, sizeof text, "loop %u", k);
            comment(g, text);
        }
        /* Between loops: the next loop's addresses from the previous ones (plus
           any long-lived values due now), sometimes the SRD moves on, new
           long-lived values for later loops. */
        wa_operand v, gb = v1(g), so = s1(g);
        v = pop_due(g->pv, &g->npv, k);
        valu(g, WA_OP_V_ADD_U32, gb, v.kind != WA_OPND_NONE ? v : imm(32), g->g_b, none());
        while ((v = pop_due(g->pv, &g->npv, k)).kind != WA_OPND_NONE)
            valu(g, WA_OP_V_ADD_U32, gb, v, gb, none());
        g->g_b = gb;
        v = pop_due(g->ps, &g->nps, k);
        salu(g, WA_OP_S_ADD_U32, so, g->soff, v.kind != WA_OPND_NONE ? v : imm(128));
        while ((v = pop_due(g->ps, &g->nps, k)).kind != WA_OPND_NONE)
            salu(g, WA_OP_S_ADD_U32, so, so, v);
        g->soff = so;
        if (rnd_below(g, 4) == 0) {
            wa_operand srd = rnd_below(g, 2) ? g->srd_a : g->srd_b;
            salu(g, WA_OP_S_ADD_U32, comp(srd, 0), comp(srd, 0), imm(0x1000));
            salu(g, WA_OP_S_ADDC_U32, comp(srd, 1), comp(srd, 1), imm(0));
        }
        if (rnd_below(g, 4) != 0)
            define_vgpr_value(g, k + 1 + rnd_below(g, MAX_DISTANCE));
        if (rnd_below(g, 2) != 0)
            define_sgpr_value(g, k + 1 + rnd_below(g, MAX_DISTANCE));

        wa_label label = 0;
        wa_operand cnt;
        loop_begin(g, &label, &cnt);
        unsigned before = g->info.instructions - start;
        unsigned body = 2 * block_size > before + 8 ? 2 * block_size - before : 8;
        step_shape shape;
        choose_shape(g, &shape, body, 3);
        /* The prefetched quads are the same registers in every loop: they carry
           the next tiles from one loop to the next. */
        step(g, &shape, 1, g->la, g->lb);
        loop_end(g, label, cnt);
    }
}

static void count_blocks(gen *g)
{
    unsigned n = wa_program_size(g->p), blocks = 0;
    int open = 0;
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view v;
        if (wa_program_get(&v, g->p, i) != WA_OK)
            break;
        if (v.opcode == WA_OP_LABEL)
            open = 0;
        if (!open) {
            blocks++;
            open = 1;
        }
        const wa_isa_info *info = wa_isa_get(v.opcode);
        if (info && (info->flags & (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM)))
            open = 0;
    }
    g->info.items = n;
    g->info.blocks = blocks;
}

wa_status gemm_gen_build(wa_program **out, gemm_gen_info *info, wa_context *ctx,
                         const gemm_gen_options *opts)
{
    static gen zero;
    if (!out)
        return WA_E_INVALID;
    *out = NULL;
    if (!ctx || !opts || opts->version != GEMM_GEN_OPTIONS_VERSION ||
        (unsigned)opts->shape >= GEMM_GEN_SHAPE_COUNT)
        return WA_E_INVALID;

    gen *g = malloc(sizeof *g);
    if (!g)
        return WA_E_NOMEM;
    *g = zero;
    g->rng = opts->seed;
    g->comments = (opts->flags & GEMM_GEN_COMMENTS) != 0;
    g->prev_cnt = none();
    g->st = wa_program_create(&g->p, ctx, opts->shape == GEMM_GEN_ONE_LOOP ? "gemm_one_loop"
                                                                          : "gemm_many_loops");
    if (g->st == WA_OK) {
        setup_kernel(g);
        prologue(g);
        if (opts->shape == GEMM_GEN_ONE_LOOP)
            one_loop(g, opts->instructions);
        else
            many_loops(g, opts->instructions, opts->block_size ? opts->block_size : 30);
        epilogue(g);
        count_blocks(g);
    }
    wa_status st = g->st;
    if (st == WA_OK) {
        *out = g->p;
        if (info)
            *info = g->info;
    } else {
        wa_program_destroy(g->p);
    }
    free(g);
    return st;
}

const char *gemm_gen_shape_name(gemm_gen_shape shape)
{
    switch (shape) {
    case GEMM_GEN_ONE_LOOP: return "one_loop";
    case GEMM_GEN_MANY_LOOPS: return "many_loops";
    }
    return NULL;
}

int gemm_gen_shape_from_name(gemm_gen_shape *out, const char *name)
{
    for (unsigned s = 0; s < GEMM_GEN_SHAPE_COUNT; s++) {
        if (strcmp(name, gemm_gen_shape_name((gemm_gen_shape)s)) == 0) {
            *out = (gemm_gen_shape)s;
            return 0;
        }
    }
    return -1;
}
