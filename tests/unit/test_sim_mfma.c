/* tests/unit/test_sim_mfma.c — MFMA semantics of the simulator.

   Every case runs a real kernel (text form) that loads A, B and C register images
   from bound buffers, runs one MFMA or a chain of them, and stores D. The test
   builds the images and checks D with its own model: the lane/register layouts
   written out per shape from the CDNA3 layouts (docs/simulator.md), the CBSZ/ABID rule applied to whole
   matrices, the BLGP rule applied to the B register image, and its own float
   decoders. Nothing here calls the simulator's internals. Exact cases use inputs
   whose sums are exact in f32 (so any summation order gives the same bits);
   random cases compare against a double-precision product with a tolerance.
   The generated kernels carry the waits and wait states real hardware needs and
   run with timing and the hazard checks on; defined bits are observed through
   wa_sim_compare and the run statistics. The DGEMMs (f64) have their own cases
   at the end, with the documented f64 layouts written out in the test. */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------------------------- */

static uint64_t rng = 1;

static void rng_seed(uint64_t s) { rng = s * 0x9E3779B97F4A7C15ull + 1; }

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static int rnd_int(int lo, int hi) { return lo + (int)(rnd() % (unsigned)(hi - lo + 1)); }

static float f32_of(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) UT_PRINTF(2, 3);
static void sb_add(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int need = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (need < 0)
            abort();
        if (b->p && b->n + (size_t)need < b->cap) {
            b->n += (size_t)need;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + (size_t)need + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            abort();
        b->p = p;
        b->cap = cap;
    }
}

/* ---- number formats (the test's own decoders) ----------------------------------------------- */

enum fmt { F_F16, F_BF16, F_FP8, F_I8, F_F32, F_BF8 };

static unsigned fmt_bits(enum fmt f)
{
    return f == F_F32 ? 32 : f == F_FP8 || f == F_BF8 || f == F_I8 ? 8 : 16;
}

typedef struct minifloat {
    unsigned exp_bits, man_bits;
    int bias;
} minifloat;

static minifloat minifloat_of(enum fmt f, wa_target t)
{
    minifloat m = { 5, 10, 15 };
    if (f == F_BF16) {
        m.exp_bits = 8;
        m.man_bits = 7;
        m.bias = 127;
    } else if (f == F_FP8) {
        /* E4M3: gfx942 uses the FNUZ variant (bias 8), gfx950 the OCP one (bias 7) */
        m.exp_bits = 4;
        m.man_bits = 3;
        m.bias = t == WA_TARGET_GFX950 ? 7 : 8;
    } else if (f == F_BF8) {
        /* E5M2: gfx942 FNUZ (bias 16), gfx950 OCP (bias 15, IEEE-style inf/NaN) */
        m.exp_bits = 5;
        m.man_bits = 2;
        m.bias = t == WA_TARGET_GFX950 ? 15 : 16;
    }
    return m;
}

/* The value of one input element (NaN codes give NaN). */
static double value_of(enum fmt f, uint32_t bits, wa_target t)
{
    if (f == F_F32)
        return f32_of(bits);
    if (f == F_I8)
        return (int8_t)(uint8_t)bits;
    minifloat m = minifloat_of(f, t);
    unsigned man = bits & ((1u << m.man_bits) - 1);
    unsigned exp = (bits >> m.man_bits) & ((1u << m.exp_bits) - 1);
    unsigned sign = (bits >> (m.man_bits + m.exp_bits)) & 1u;
    if ((f == F_FP8 || f == F_BF8) && t != WA_TARGET_GFX950 && bits == 0x80)
        return NAN;
    if (f == F_FP8 && t == WA_TARGET_GFX950 && exp == 15 && man == 7)
        return NAN;
    if (f != F_FP8 && !(f == F_BF8 && t != WA_TARGET_GFX950) && exp == (1u << m.exp_bits) - 1)
        return man ? NAN : sign ? -INFINITY : INFINITY;
    double v = exp ? ldexp(1.0 + man / (double)(1u << m.man_bits), (int)exp - m.bias)
                   : ldexp(man / (double)(1u << m.man_bits), 1 - m.bias);
    return sign ? -v : v;
}

/* Bits of `v`, which must be exactly representable (and normal or zero). */
static uint32_t encode_exact(enum fmt f, double v, wa_target t)
{
    if (f == F_F32)
        return bits_of((float)v);
    if (f == F_I8)
        return (uint8_t)(int8_t)v;
    if (v == 0)
        return 0;
    minifloat m = minifloat_of(f, t);
    unsigned sign = v < 0;
    int e;
    double frac = frexp(fabs(v), &e); /* |v| = frac * 2^e, frac in [0.5, 1) */
    unsigned exp = (unsigned)(e - 1 + m.bias);
    unsigned man = (unsigned)((2 * frac - 1) * (1u << m.man_bits));
    uint32_t bits = sign << (m.exp_bits + m.man_bits) | exp << m.man_bits | man;
    if (!CHECK_MSG(value_of(f, bits, t) == v, "test bug: %g is not exact in format %d", v, (int)f))
        return 0;
    return bits;
}

/* ---- the shapes, as the test sees them (docs/simulator.md) ------------------------------------- */

enum layout { L16x16x16, L32x32x8, L4x4x4, L16x16x32_16b, L16x16x32_8b, L32x32x16_8b, L16x16x4_f32,
              LKC /* the rule the others follow: KL = K*M*blocks/64 consecutive k per lane */ };

#define BIT90A WA_TARGET_BIT(WA_TARGET_GFX90A)
#define BITALL (WA_TARGET_BIT(WA_TARGET_GFX90A) | WA_TARGET_BIT(WA_TARGET_GFX942) | \
                WA_TARGET_BIT(WA_TARGET_GFX950))

typedef struct tshape {
    wa_opcode op;
    enum fmt fmt;
    enum layout lay;
    unsigned m, n, k, blocks, ab_regs, cd_regs;
    unsigned blgp_targets; /* where BLGP is defined for the opcode */
    enum fmt fmt_b;        /* B's format (differs from A's for the mixed fp8/bf8 opcodes) */
} tshape;

static const tshape tshapes[] = {
    { WA_OP_V_MFMA_F32_16X16X16_F16, F_F16, L16x16x16, 16, 16, 16, 1, 2, 4, BIT90A, F_F16 },
    { WA_OP_V_MFMA_F32_32X32X8_F16, F_F16, L32x32x8, 32, 32, 8, 1, 2, 16, BIT90A, F_F16 },
    { WA_OP_V_MFMA_F32_4X4X4_16B_F16, F_F16, L4x4x4, 4, 4, 4, 16, 2, 4, BITALL, F_F16 },
    { WA_OP_V_MFMA_F32_16X16X16_BF16, F_BF16, L16x16x16, 16, 16, 16, 1, 2, 4, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_32X32X8_BF16, F_BF16, L32x32x8, 32, 32, 8, 1, 2, 16, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_4X4X4_16B_BF16, F_BF16, L4x4x4, 4, 4, 4, 16, 2, 4, BITALL, F_BF16 },
    { WA_OP_V_MFMA_F32_16X16X32_F16, F_F16, L16x16x32_16b, 16, 16, 32, 1, 4, 4, 0, F_F16 },
    { WA_OP_V_MFMA_F32_16X16X32_BF16, F_BF16, L16x16x32_16b, 16, 16, 32, 1, 4, 4, 0, F_BF16 },
    { WA_OP_V_MFMA_F32_16X16X32_FP8_FP8, F_FP8, L16x16x32_8b, 16, 16, 32, 1, 2, 4, 0, F_FP8 },
    { WA_OP_V_MFMA_F32_32X32X16_FP8_FP8, F_FP8, L32x32x16_8b, 32, 32, 16, 1, 2, 16, 0, F_FP8 },
    { WA_OP_V_MFMA_I32_16X16X32_I8, F_I8, L16x16x32_8b, 16, 16, 32, 1, 2, 4, 0, F_I8 },
    { WA_OP_V_MFMA_F32_16X16X4_F32, F_F32, L16x16x4_f32, 16, 16, 4, 1, 1, 4, BIT90A, F_F32 },
    /* the other shapes, by the general rule (docs/simulator.md) */
    { WA_OP_V_MFMA_F32_32X32X1_2B_F32, F_F32, LKC, 32, 32, 1, 2, 1, 32, BIT90A, F_F32 },
    { WA_OP_V_MFMA_F32_16X16X1_4B_F32, F_F32, LKC, 16, 16, 1, 4, 1, 16, BIT90A, F_F32 },
    { WA_OP_V_MFMA_F32_4X4X1_16B_F32, F_F32, LKC, 4, 4, 1, 16, 1, 4, BITALL, F_F32 },
    { WA_OP_V_MFMA_F32_32X32X2_F32, F_F32, LKC, 32, 32, 2, 1, 1, 16, BIT90A, F_F32 },
    { WA_OP_V_MFMA_F32_32X32X4_2B_F16, F_F16, LKC, 32, 32, 4, 2, 2, 32, BIT90A, F_F16 },
    { WA_OP_V_MFMA_F32_16X16X4_4B_F16, F_F16, LKC, 16, 16, 4, 4, 2, 16, BIT90A, F_F16 },
    { WA_OP_V_MFMA_F32_32X32X16_F16, F_F16, LKC, 32, 32, 16, 1, 4, 16, 0, F_F16 },
    { WA_OP_V_MFMA_F32_32X32X4_2B_BF16, F_BF16, LKC, 32, 32, 4, 2, 2, 32, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_16X16X4_4B_BF16, F_BF16, LKC, 16, 16, 4, 4, 2, 16, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_32X32X2BF16, F_BF16, LKC, 32, 32, 2, 2, 1, 32, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_16X16X2BF16, F_BF16, LKC, 16, 16, 2, 4, 1, 16, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_4X4X2BF16, F_BF16, LKC, 4, 4, 2, 16, 1, 4, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_32X32X4BF16, F_BF16, LKC, 32, 32, 4, 1, 1, 16, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_16X16X8BF16, F_BF16, LKC, 16, 16, 8, 1, 1, 4, BIT90A, F_BF16 },
    { WA_OP_V_MFMA_F32_32X32X16_BF16, F_BF16, LKC, 32, 32, 16, 1, 4, 16, 0, F_BF16 },
    { WA_OP_V_MFMA_I32_32X32X4_2B_I8, F_I8, LKC, 32, 32, 4, 2, 1, 32, BIT90A, F_I8 },
    { WA_OP_V_MFMA_I32_16X16X4_4B_I8, F_I8, LKC, 16, 16, 4, 4, 1, 16, BIT90A, F_I8 },
    { WA_OP_V_MFMA_I32_4X4X4_16B_I8, F_I8, LKC, 4, 4, 4, 16, 1, 4, BITALL, F_I8 },
    { WA_OP_V_MFMA_I32_32X32X8I8, F_I8, LKC, 32, 32, 8, 1, 1, 16, BIT90A, F_I8 },
    { WA_OP_V_MFMA_I32_16X16X16I8, F_I8, LKC, 16, 16, 16, 1, 1, 4, BIT90A, F_I8 },
    { WA_OP_V_MFMA_I32_32X32X16_I8, F_I8, LKC, 32, 32, 16, 1, 2, 16, 0, F_I8 },
    { WA_OP_V_MFMA_I32_16X16X64_I8, F_I8, LKC, 16, 16, 64, 1, 4, 4, 0, F_I8 },
    { WA_OP_V_MFMA_I32_32X32X32_I8, F_I8, LKC, 32, 32, 32, 1, 4, 16, 0, F_I8 },
    { WA_OP_V_MFMA_F32_16X16X32_BF8_BF8, F_BF8, LKC, 16, 16, 32, 1, 2, 4, 0, F_BF8 },
    { WA_OP_V_MFMA_F32_16X16X32_BF8_FP8, F_BF8, LKC, 16, 16, 32, 1, 2, 4, 0, F_FP8 },
    { WA_OP_V_MFMA_F32_16X16X32_FP8_BF8, F_FP8, LKC, 16, 16, 32, 1, 2, 4, 0, F_BF8 },
    { WA_OP_V_MFMA_F32_32X32X16_BF8_BF8, F_BF8, LKC, 32, 32, 16, 1, 2, 16, 0, F_BF8 },
    { WA_OP_V_MFMA_F32_32X32X16_BF8_FP8, F_BF8, LKC, 32, 32, 16, 1, 2, 16, 0, F_FP8 },
    { WA_OP_V_MFMA_F32_32X32X16_FP8_BF8, F_FP8, LKC, 32, 32, 16, 1, 2, 16, 0, F_BF8 },
};
#define NSHAPES (sizeof(tshapes) / sizeof(tshapes[0]))

static enum fmt fmt_of_b(const tshape *s)
{
    return s->fmt_b;
}

static const tshape *tshape_of(wa_opcode op)
{
    for (unsigned s = 0; s < NSHAPES; s++)
        if (tshapes[s].op == op)
            return &tshapes[s];
    return NULL;
}

typedef struct place {
    unsigned lane, reg, sub;
} place;

/* A[x][k] (x = row) or B[k][x] (x = column) of block `blk`. */
static place ab_place(const tshape *s, unsigned x, unsigned k, unsigned blk)
{
    place p = { 0, 0, 0 };
    switch (s->lay) {
    case L16x16x16: p.lane = 16 * (k / 4) + x; p.reg = (k / 2) % 2; p.sub = k % 2; break;
    case L32x32x8: p.lane = 32 * (k / 4) + x; p.reg = (k / 2) % 2; p.sub = k % 2; break;
    case L4x4x4: p.lane = 4 * blk + x; p.reg = k / 2; p.sub = k % 2; break;
    case L16x16x32_16b: p.lane = 16 * (k / 8) + x; p.reg = (k % 8) / 2; p.sub = k % 2; break;
    case L16x16x32_8b: p.lane = 16 * (k / 8) + x; p.reg = (k % 8) / 4; p.sub = k % 4; break;
    case L32x32x16_8b: p.lane = 32 * (k / 8) + x; p.reg = (k % 8) / 4; p.sub = k % 4; break;
    case L16x16x4_f32: p.lane = 16 * k + x; break;
    case LKC: {
        unsigned kl = s->k * s->m * s->blocks / 64, bits = s->ab_regs * 32 / kl;
        unsigned e = k % kl;
        p.lane = (k / kl) * (s->m * s->blocks) + blk * s->m + x;
        p.reg = e / (32 / bits);
        p.sub = e % (32 / bits);
        break;
    }
    }
    return p;
}

/* C[i][j] / D[i][j] of block `blk`. */
static place cd_place(const tshape *s, unsigned i, unsigned j, unsigned blk)
{
    place p = { 0, 0, 0 };
    if (s->lay == LKC) {
        /* G = 64 / (N * blocks) lane groups of N * blocks lanes: rows step through
           the groups in fours, then through registers */
        unsigned g = 64 / (s->n * s->blocks);
        p.reg = 4 * (i / (4 * g)) + i % 4;
        p.lane = ((i / 4) % g) * (s->n * s->blocks) + blk * s->n + j;
    } else if (s->m == 32) {
        p.reg = 4 * (i / 8) + i % 4;
        p.lane = 32 * ((i / 4) % 2) + j;
    } else if (s->blocks == 16) {
        p.reg = i;
        p.lane = 4 * blk + j;
    } else {
        p.reg = i % 4;
        p.lane = 16 * (i / 4) + j;
    }
    return p;
}

/* BLGP, from AMD's matrix instruction calculator: which lane's B data lane `lane` uses. */
static unsigned blgp_lane(unsigned blgp, unsigned lane)
{
    unsigned half = lane & 31u, quarter = lane & 15u;
    switch (blgp) {
    case 1: return half;               /* lanes 0-31 broadcast to both halves */
    case 2: return 32 + half;          /* lanes 32-63 broadcast */
    case 3: return (lane + 16) & 63u;  /* rotated down by 16 */
    case 4: return quarter;            /* lanes 0-15 to every group of 16 */
    case 5: return 16 + quarter;
    case 6: return 32 + quarter;
    case 7: return 48 + quarter;
    default: return lane;
    }
}

/* CBSZ/ABID on whole matrices: block b computes with the A matrix of this block. */
static unsigned cbsz_block(unsigned b, unsigned cbsz, unsigned abid)
{
    unsigned group = 1u << cbsz;
    return b / group * group + abid;
}

static uint32_t elem_get(uint32_t word, unsigned bits, unsigned sub)
{
    return bits == 32 ? word : (word >> (bits * sub)) & ((1u << bits) - 1u);
}

static void elem_put(uint32_t *word, unsigned bits, unsigned sub, uint32_t v)
{
    if (bits == 32) {
        *word = v;
        return;
    }
    uint32_t mask = ((1u << bits) - 1u) << (bits * sub);
    *word = (*word & ~mask) | (v << (bits * sub) & mask);
}

/* ---- one MFMA kernel and its check ------------------------------------------------------------ */

#define MAX_CHAIN 4u
#define MAX_AB (MAX_CHAIN * 64u * 4u) /* dwords of the A (or B) buffer */
#define MAX_CD (64u * 32u)
#define ALL_LANES 0xFFFFFFFFFFFFFFFFull

typedef struct mcase {
    wa_target target;
    const tshape *s;
    unsigned chain;        /* MFMAs accumulating into D (a K loop); 1 = one */
    int cd_agpr, ab_agpr;  /* C/D, A/B in AGPRs */
    const char *c_imm;     /* srcC of the first MFMA as an inline constant (NULL: registers) */
    uint32_t c_imm_bits;   /* its bits as the hardware reads them */
    int d_is_c;            /* vdst is the srcC registers */
    unsigned cbsz, abid, blgp;
    uint64_t exec;         /* EXEC during the MFMAs */
    uint64_t load_lanes[3]; /* lanes whose A, B, C loads run (the others stay undefined) */
    int random;            /* full-precision random inputs, tolerance check */
    int probe;             /* check the defined bit of every stored dword */
    unsigned sim_flags;    /* WA_SIM_* */
    uint64_t seed;
    int nan_at_a00;        /* fp8: A[0][0] of block 0 is a NaN code */
    wa_target written_for; /* if set: the text is written for this target (spelling and
                              .target), then the program is retargeted to `target` */
    const char *diag_words; /* a failing run must report these ('|'-separated) */
    int cancel;            /* 16x16x4_f32: rows 2^24, 1, 1, -2^24 times ones (1), or
                              +-2^127, 2^127, 0, 0 (2: the sum overflows f32) */
} mcase;

static mcase mcase_init(wa_target target, const tshape *s)
{
    mcase mc;
    memset(&mc, 0, sizeof(mc));
    mc.target = target;
    mc.s = s;
    mc.chain = 1;
    mc.exec = ALL_LANES;
    mc.load_lanes[0] = mc.load_lanes[1] = mc.load_lanes[2] = ALL_LANES;
    mc.sim_flags = WA_SIM_TIMING | WA_SIM_HAZARDS;
    mc.seed = 7;
    return mc;
}

static void reg_text(char *buf, size_t n, char file, unsigned first, unsigned count)
{
    if (count == 1)
        snprintf(buf, n, "%c%u", file, first);
    else
        snprintf(buf, n, "%c[%u:%u]", file, first, first + count - 1);
}

static void set_exec(sbuf *t, uint64_t lanes)
{
    if (lanes == ALL_LANES) {
        sb_add(t, "  s_mov_b64 exec, -1\n");
        return;
    }
    sb_add(t, "  s_mov_b32 exec_lo, 0x%08x\n", (unsigned)(uint32_t)lanes);
    sb_add(t, "  s_mov_b32 exec_hi, 0x%08x\n", (unsigned)(uint32_t)(lanes >> 32));
}

static unsigned log2u(unsigned v)
{
    unsigned l = 0;
    while ((1u << l) < v)
        l++;
    return l;
}

/* Register plan: A_t at 100 + 4t, B_t at 120 + 4t (VGPRs, copied to AGPRs of the
   same numbers if ab_agpr), C at 32, D at 64 (or D = C at 64); images are stored
   from v64. */
static char *mfma_kernel_text(const mcase *mc)
{
    const tshape *s = mc->s;
    sbuf t = { NULL, 0, 0 };
    char ra[32], rb[32], rc[32], rd[32];
    const char *loads[5] = { NULL, "global_load_dword", "global_load_dwordx2", NULL,
                             "global_load_dwordx4" };
    unsigned creg = mc->d_is_c ? 64 : 32;
    wa_target spelled = mc->written_for ? mc->written_for : mc->target;
    sb_add(&t, ".kernel mfma_case\n  .target %s\n  .workgroup_size 64, 1, 1\n  .lds_bytes 0\n",
           wa_target_name(spelled));
    sb_add(&t, "  .abi kernarg_ptr, workitem_id_x\n"
               "  .arg a, global_buffer, offset:0, size:8, align:8, const\n"
               "  .arg b, global_buffer, offset:8, size:8, align:8, const\n"
               "  .arg c, global_buffer, offset:16, size:8, align:8, const\n"
               "  .arg d, global_buffer, offset:24, size:8, align:8\n");
    sb_add(&t, "  s_load_dwordx8 s[4:11], s[0:1], 0\n");
    sb_add(&t, "  v_lshlrev_b32 v1, %u, v0\n", log2u(4 * s->ab_regs));
    sb_add(&t, "  v_lshlrev_b32 v2, %u, v0\n", log2u(4 * s->cd_regs));
    sb_add(&t, "  s_waitcnt lgkmcnt(0)\n");
    /* A and B of every step, C, and D's previous contents */
    for (unsigned which = 0; which < 2; which++) {
        set_exec(&t, mc->load_lanes[which]);
        for (unsigned k = 0; k < mc->chain; k++) {
            reg_text(ra, sizeof(ra), 'v', (which ? 120 : 100) + 4 * k, s->ab_regs);
            sb_add(&t, "  %s %s, v1, s[%u:%u] offset:%u\n", loads[s->ab_regs], ra, which ? 6 : 4,
                   which ? 7 : 5, k * 256 * s->ab_regs);
        }
    }
    if (!mc->c_imm) {
        set_exec(&t, mc->load_lanes[2]);
        for (unsigned q = 0; q < s->cd_regs / 4; q++)
            sb_add(&t, "  global_load_dwordx4 v[%u:%u], v2, s[8:9] offset:%u\n", creg + 4 * q,
                   creg + 4 * q + 3, 16 * q);
    }
    set_exec(&t, ALL_LANES);
    if (!mc->d_is_c)
        for (unsigned q = 0; q < s->cd_regs / 4; q++)
            sb_add(&t, "  global_load_dwordx4 v[%u:%u], v2, s[10:11] offset:%u\n", 64 + 4 * q,
                   67 + 4 * q, 16 * q);
    sb_add(&t, "  s_waitcnt vmcnt(0)\n");
    if (mc->ab_agpr)
        for (unsigned k = 0; k < mc->chain; k++)
            for (unsigned r = 0; r < s->ab_regs; r++) {
                sb_add(&t, "  v_accvgpr_write_b32 a%u, v%u\n", 100 + 4 * k + r, 100 + 4 * k + r);
                sb_add(&t, "  v_accvgpr_write_b32 a%u, v%u\n", 120 + 4 * k + r, 120 + 4 * k + r);
            }
    if (mc->cd_agpr)
        for (unsigned r = 0; r < s->cd_regs; r++) {
            if (!mc->c_imm && !mc->d_is_c)
                sb_add(&t, "  v_accvgpr_write_b32 a%u, v%u\n", 32 + r, 32 + r);
            sb_add(&t, "  v_accvgpr_write_b32 a%u, v%u\n", 64 + r, 64 + r);
        }
    sb_add(&t, "  s_nop 2                     ; VALU write -> MFMA read: 2 wait states\n");
    if (mc->exec != ALL_LANES)
        set_exec(&t, mc->exec);
    char mods[64] = "";
    if (mc->cbsz || mc->abid || mc->blgp) {
        size_t n = 0;
        if (mc->cbsz)
            n += (size_t)snprintf(mods + n, sizeof(mods) - n, " cbsz:%u", mc->cbsz);
        if (mc->abid)
            n += (size_t)snprintf(mods + n, sizeof(mods) - n, " abid:%u", mc->abid);
        if (mc->blgp)
            snprintf(mods + n, sizeof(mods) - n, " blgp:%u", mc->blgp);
    }
    char cdf = mc->cd_agpr ? 'a' : 'v', abf = mc->ab_agpr ? 'a' : 'v';
    reg_text(rd, sizeof(rd), cdf, 64, s->cd_regs);
    for (unsigned k = 0; k < mc->chain; k++) {
        reg_text(ra, sizeof(ra), abf, 100 + 4 * k, s->ab_regs);
        reg_text(rb, sizeof(rb), abf, 120 + 4 * k, s->ab_regs);
        if (k > 0)
            snprintf(rc, sizeof(rc), "%s", rd);
        else if (mc->c_imm)
            snprintf(rc, sizeof(rc), "%s", mc->c_imm);
        else
            reg_text(rc, sizeof(rc), cdf, creg, s->cd_regs);
        sb_add(&t, "  %s %s, %s, %s, %s%s\n", wa_isa_mnemonic(s->op, spelled), rd, ra, rb, rc, mods);
        if (k + 1 < mc->chain)
            sb_add(&t, "  s_nop 2                     ; SrcC = previous D of a 2-pass MFMA\n");
    }
    if (mc->exec != ALL_LANES)
        set_exec(&t, ALL_LANES);
    sb_add(&t, "  s_nop 15                    ; MFMA result -> read: up to 19 wait states\n"
               "  s_nop 4\n");
    if (mc->cd_agpr)
        for (unsigned r = 0; r < s->cd_regs; r++)
            sb_add(&t, "  v_accvgpr_read_b32 v%u, a%u\n", 64 + r, 64 + r);
    for (unsigned q = 0; q < s->cd_regs / 4; q++)
        sb_add(&t, "  global_store_dwordx4 v2, v[%u:%u], s[10:11] offset:%u\n", 64 + 4 * q,
               67 + 4 * q, 16 * q);
    sb_add(&t, "  s_endpgm\n.end_kernel\n");
    return t.p;
}

typedef struct mdata {
    uint32_t a[MAX_AB], b[MAX_AB], c[MAX_CD], d[MAX_CD], d_init[MAX_CD];
    /* the model's expectation per stored dword */
    double want[MAX_CD];
    double tol[MAX_CD];
    uint32_t want_bits[MAX_CD]; /* i32 results; the old bits where D is kept */
    uint8_t want_def[MAX_CD];
    uint8_t kept[MAX_CD];       /* lanes EXEC left alone */
} mdata;

/* An input element: exact small values, or random full-precision ones. */
static uint32_t input_bits(const mcase *mc, enum fmt f)
{
    if (f == F_I8)
        return (uint32_t)rnd_int(-128, 127) & 0xFFu;
    if (mc->random) {
        switch (f) {
        case F_F32: return bits_of((float)((rnd() / 4294967296.0 - 0.5) * 8.0));
        case F_FP8:
        case F_BF8: {
            uint32_t v;
            do
                v = rnd() & 0xFFu;
            while (!isfinite(value_of(f, v, mc->target)));
            return v;
        }
        default: {
            /* random sign and mantissa, exponent within [2^-4, 2^4) */
            minifloat m = minifloat_of(f, mc->target);
            uint32_t sign = rnd() & 1u, man = rnd() & ((1u << m.man_bits) - 1u);
            uint32_t exp = (uint32_t)(m.bias + rnd_int(-4, 3));
            return sign << (m.exp_bits + m.man_bits) | exp << m.man_bits | man;
        }
        }
    }
    static const double exact[] = { 0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2, -2, 3, -3, 4, -4 };
    return encode_exact(f, exact[rnd() % (sizeof(exact) / sizeof(exact[0]))], mc->target);
}

/* Fills the A/B images of every step and C (or D's previous contents). */
static void fill_inputs(const mcase *mc, mdata *md)
{
    const tshape *s = mc->s;
    unsigned bits = fmt_bits(s->fmt), per_reg = 32 / bits;
    rng_seed(mc->seed);
    for (unsigned k = 0; k < mc->chain; k++)
        for (unsigned which = 0; which < 2; which++) {
            uint32_t *img = (which ? md->b : md->a) + k * 64 * s->ab_regs;
            unsigned placed = 0;
            for (unsigned blk = 0; blk < s->blocks; blk++)
                for (unsigned x = 0; x < (which ? s->n : s->m); x++)
                    for (unsigned kk = 0; kk < s->k; kk++) {
                        place p = ab_place(s, x, kk, blk);
                        elem_put(&img[p.lane * s->ab_regs + p.reg], bits, p.sub,
                                 input_bits(mc, which ? fmt_of_b(s) : s->fmt));
                        placed++;
                    }
            CHECK_EQ_UINT(placed, 64 * s->ab_regs * per_reg); /* the layout covers every slot */
        }
    if (mc->cancel && s->lay == L16x16x4_f32) {
        static const float rows[2][4] = { { 16777216.0f, 1.0f, 1.0f, -16777216.0f },
                                          { 0x1p127f, 0x1p127f, 0.0f, 0.0f } };
        const float *row = rows[mc->cancel - 1];
        for (unsigned x = 0; x < 16; x++)
            for (unsigned kk = 0; kk < 4; kk++) {
                float sign = mc->cancel == 2 && x % 2 ? -1.0f : 1.0f; /* odd rows: -inf */
                md->a[ab_place(s, x, kk, 0).lane] = bits_of(sign * row[kk]);
                md->b[ab_place(s, x, kk, 0).lane] = bits_of(1.0f);
            }
    }
    if (mc->nan_at_a00) {
        place p = ab_place(s, 0, 0, 0);
        elem_put(&md->a[p.lane * s->ab_regs + p.reg], bits, p.sub,
                 mc->target == WA_TARGET_GFX950 ? 0x7Fu : 0x80u);
    }
    for (unsigned w = 0; w < 64 * s->cd_regs; w++) {
        if (s->fmt == F_I8)
            md->c[w] = rnd() % 3 == 0 ? 0x7FFFFF00u + (rnd() & 0xFFu) : (uint32_t)rnd_int(-5000, 5000);
        else if (mc->random)
            md->c[w] = bits_of((float)((rnd() / 4294967296.0 - 0.5) * 64.0));
        else
            md->c[w] = bits_of((float)rnd_int(-64, 64) * 0.25f);
        md->d_init[w] = 0xD0000000u | w;
    }
    memcpy(md->d, md->d_init, sizeof(md->d));
}

/* i32 results the model saw wrap around (exact sum outside the int32 range). */
static unsigned model_wraps;

/* The test's model of the whole kernel: expected value and defined bit of every
   stored dword. */
static void model(const mcase *mc, mdata *md)
{
    const tshape *s = mc->s;
    unsigned bits = fmt_bits(s->fmt);
    wa_target t = mc->target;
    for (unsigned blk = 0; blk < s->blocks; blk++)
        for (unsigned i = 0; i < s->m; i++)
            for (unsigned j = 0; j < s->n; j++) {
                place pd = cd_place(s, i, j, blk);
                unsigned w = pd.lane * s->cd_regs + pd.reg;
                int active = (int)(mc->exec >> pd.lane & 1u);
                uint32_t c_bits = mc->c_imm ? mc->c_imm_bits : md->c[w];
                int def = mc->c_imm ? 1 : (int)(mc->load_lanes[2] >> pd.lane & 1u);
                double c_val = s->fmt == F_I8 ? (double)(int32_t)c_bits : (double)f32_of(c_bits);
                double acc = 0, mag = fabs(c_val);
                uint32_t iacc = c_bits;
                for (unsigned step = 0; step < mc->chain; step++) {
                    const uint32_t *aimg = md->a + step * 64 * s->ab_regs;
                    const uint32_t *bimg = md->b + step * 64 * s->ab_regs;
                    unsigned ablk = cbsz_block(blk, mc->cbsz, mc->abid);
                    for (unsigned kk = 0; kk < s->k; kk++) {
                        place pa = ab_place(s, i, kk, ablk);
                        place pb = ab_place(s, j, kk, blk);
                        unsigned blane = blgp_lane(mc->blgp, pb.lane);
                        uint32_t ab = elem_get(aimg[pa.lane * s->ab_regs + pa.reg], bits, pa.sub);
                        uint32_t bb = elem_get(bimg[blane * s->ab_regs + pb.reg], bits, pb.sub);
                        double av = value_of(s->fmt, ab, t), bv = value_of(fmt_of_b(s), bb, t);
                        acc += av * bv;
                        mag += fabs(av * bv);
                        iacc += (uint32_t)((int32_t)(int8_t)ab * (int32_t)(int8_t)bb);
                        def &= (int)(mc->load_lanes[0] >> pa.lane & 1u) &
                               (int)(mc->load_lanes[1] >> blane & 1u);
                    }
                }
                if (!active) {
                    uint32_t old = mc->d_is_c ? md->c[w] : md->d_init[w];
                    md->want[w] = f32_of(old);
                    md->want_bits[w] = old;
                    md->kept[w] = 1;
                    md->want_def[w] = (uint8_t)(mc->d_is_c ? (mc->load_lanes[2] >> pd.lane & 1u) : 1);
                    continue;
                }
                /* the products are exact and so is their sum; C last, so that a tiny C
                   (an integer inline constant read as f32 bits) is not lost */
                acc += c_val;
                md->want[w] = acc;
                md->want_bits[w] = iacc;
                if (s->fmt == F_I8 && (acc > 2147483647.0 || acc < -2147483648.0))
                    model_wraps++;
                /* any summation order in f32 stays within this */
                md->tol[w] = mc->random ? (s->k * mc->chain + 2) * ldexp(mag, -23) + 1e-30 : 0;
                md->want_def[w] = (uint8_t)def;
            }
}

/* Flipping dwords of an otherwise identical copy of the D buffer counts, through
   wa_sim_compare, the flipped bytes the reference run holds defined values in (a
   byte counts only where the reference is defined). */
static unsigned defined_bytes_among(wa_sim *ref, wa_sim *other, uint32_t *copy, unsigned ndwords,
                                    const uint8_t *flip, uint8_t flip_value)
{
    for (unsigned w = 0; w < ndwords; w++)
        if (flip[w] == flip_value)
            copy[w] ^= 0xFFFFFFFFu;
    unsigned diffs = 99;
    wa_status st = wa_sim_compare(&diffs, ref, other);
    CHECK((st == WA_OK) == (diffs == 0));
    for (unsigned w = 0; w < ndwords; w++)
        if (flip[w] == flip_value)
            copy[w] ^= 0xFFFFFFFFu;
    return diffs;
}

/* Checks the defined bit of every dword of the D buffer against `want_def`: the
   dwords expected undefined hold no defined byte, those expected defined all
   do. On a mismatch, dword by dword to name the first one. */
static void check_defined(wa_sim *ref, const wa_program *prog, mdata *md, size_t ab_bytes,
                          unsigned ndwords)
{
    wa_sim *other = NULL;
    REQUIRE_OK(wa_sim_create(&other, prog, NULL));
    static uint32_t copy[MAX_CD];
    memcpy(copy, md->d, ndwords * 4);
    CHECK_OK(wa_sim_bind_buffer(other, 0, md->a, ab_bytes));
    CHECK_OK(wa_sim_bind_buffer(other, 1, md->b, ab_bytes));
    CHECK_OK(wa_sim_bind_buffer(other, 2, md->c, ndwords * 4));
    CHECK_OK(wa_sim_bind_buffer(other, 3, copy, ndwords * 4));
    unsigned ndef = 0;
    for (unsigned w = 0; w < ndwords; w++)
        ndef += md->want_def[w];
    CHECK_EQ_UINT(defined_bytes_among(ref, other, copy, ndwords, md->want_def, 2), 0);
    unsigned in_undef = defined_bytes_among(ref, other, copy, ndwords, md->want_def, 0);
    unsigned in_def = defined_bytes_among(ref, other, copy, ndwords, md->want_def, 1);
    int undef_ok = CHECK_EQ_UINT(in_undef, 0);
    int def_ok = CHECK_EQ_UINT(in_def, 4 * ndef);
    if (!undef_ok || !def_ok) {
        static uint8_t one[MAX_CD];
        for (unsigned w = 0; w < ndwords; w++) {
            memset(one, 0, ndwords);
            one[w] = 1;
            unsigned got = defined_bytes_among(ref, other, copy, ndwords, one, 1);
            if (!CHECK_MSG(got == 4u * md->want_def[w], "D dword %u: %u defined bytes, want %u", w,
                           got, 4u * md->want_def[w]))
                break;
        }
    }
    wa_sim_destroy(other);
}

static const char *mc_describe(const mcase *mc)
{
    static char buf[256];
    snprintf(buf, sizeof(buf),
             "%s %s chain %u%s%s c=%s%s cbsz %u abid %u blgp %u exec %016llx "
             "loaded A %016llx B %016llx C %016llx%s",
             wa_target_name(mc->target), wa_isa_mnemonic(mc->s->op, mc->target), mc->chain,
             mc->cd_agpr ? " C/D agpr" : "", mc->ab_agpr ? " A/B agpr" : "",
             mc->c_imm ? mc->c_imm : "regs", mc->d_is_c ? " (D = C)" : "", mc->cbsz, mc->abid,
             mc->blgp, (unsigned long long)mc->exec, (unsigned long long)mc->load_lanes[0],
             (unsigned long long)mc->load_lanes[1], (unsigned long long)mc->load_lanes[2],
             mc->random ? " random" : "");
    return buf;
}

/* Runs one case; checks D against the model when the run succeeds. Returns the
   run's status (creation and binding must succeed). */
static wa_status run_mfma_case(const mcase *mc)
{
    const tshape *s = mc->s;
    ut_context("%s", mc_describe(mc));
    wa_context *ctx = ut_context_new(mc->target);
    char *text = mfma_kernel_text(mc);
    wa_program *prog = ut_parse(ctx, text);
    wa_status result = WA_E_INTERNAL;
    mdata *md = calloc(1, sizeof(*md));
    if (!prog || !md)
        goto done;
    if (mc->written_for && !CHECK_OK(wa_program_set_target(prog, mc->target)))
        goto done;
    fill_inputs(mc, md);
    model(mc, md);
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.flags = mc->sim_flags;
    o.seed = mc->seed;
    wa_sim *sim = NULL;
    if (!CHECK_MSG(wa_sim_create(&sim, prog, &o) == WA_OK, "%s\n%s", ut_diags_text(ctx), text))
        goto done;
    unsigned nd = 64 * s->cd_regs;
    size_t ab_bytes = (size_t)mc->chain * 64 * s->ab_regs * 4;
    CHECK_OK(wa_sim_bind_buffer(sim, 0, md->a, ab_bytes));
    CHECK_OK(wa_sim_bind_buffer(sim, 1, md->b, ab_bytes));
    CHECK_OK(wa_sim_bind_buffer(sim, 2, md->c, nd * 4));
    CHECK_OK(wa_sim_bind_buffer(sim, 3, md->d, nd * 4));
    result = wa_sim_run(sim);
    if (result != WA_OK && mc->diag_words)
        CHECK_DIAG(ctx, result, mc->diag_words, UT_ANY, UT_ANY, UT_ANY);
    if (result == WA_OK) {
        unsigned undefined = 0, bad = 0;
        for (unsigned w = 0; w < nd; w++) {
            undefined += !md->want_def[w];
            if (!md->want_def[w])
                continue;
            int ok;
            if (s->fmt == F_I8 || md->kept[w])
                ok = md->d[w] == md->want_bits[w];
            else if (isnan(md->want[w]))
                ok = isnan(f32_of(md->d[w]));
            else if (mc->random)
                ok = fabs((double)f32_of(md->d[w]) - md->want[w]) <= md->tol[w];
            else if (fabs(md->want[w]) >= 0x1p128) /* f32 overflow: infinity */
                ok = isinf(f32_of(md->d[w])) && (f32_of(md->d[w]) < 0) == (md->want[w] < 0);
            else
                ok = f32_of(md->d[w]) == (float)md->want[w];
            if (!ok && bad++ < 4)
                CHECK_MSG(0, "D dword %u (lane %u, register %u): got 0x%08x (%g), want %.9g / 0x%08x",
                          w, w / s->cd_regs, w % s->cd_regs, (unsigned)md->d[w],
                          (double)f32_of(md->d[w]), md->want[w], (unsigned)md->want_bits[w]);
            else
                CHECK(ok);
        }
        wa_sim_stats st;
        CHECK_OK(wa_sim_get_stats(&st, sim));
        CHECK_EQ_UINT(st.undefined_bytes, 4ull * undefined);
        if (mc->probe)
            check_defined(sim, prog, md, ab_bytes, nd);
    }
    wa_sim_destroy(sim);
done:
    free(md);
    free(text);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    ut_context("%s", "");
    return result;
}

static void expect_ok(const mcase *mc)
{
    wa_status st = run_mfma_case(mc);
    CHECK_MSG(st == WA_OK, "%s: run failed with %d (%s)", mc_describe(mc), (int)st,
              wa_status_string(st));
}

static const wa_target all_targets[] = { WA_TARGET_GFX90A, WA_TARGET_GFX942, WA_TARGET_GFX950 };

/* ---- cases: every opcode on every target -------------------------------------------------------- */

/* Every MFMA of the ISA table is covered here, and executed, except the
   block-scaled ones, which are not (with a reason). */
static void every_mfma_in_the_table(void)
{
    unsigned mfmas = 0, other = 0, refused = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if (!(info->flags & WA_IF_MFMA))
            continue;
        mfmas++;
        const wa_mfma_shape *sh = wa_isa_mfma_shape(op);
        if (sh->input == WA_MFMA_IN_XF32) {
            const char *why = wa_sim_unsupported(op);
            if (CHECK_MSG(why != NULL, "%s should not be executed", info->mnemonic))
                CHECK_STR_CONTAINS(why, "xf32");
            refused++;
            continue;
        }
        if (sh->input == WA_MFMA_IN_F8F6F4 || sh->sparse) { /* f8f6f4_cases, smfmac_cases */
            CHECK_MSG(wa_sim_unsupported(op) == NULL, "%s is not executed", info->mnemonic);
            other++;
            continue;
        }
        if (sh->input == WA_MFMA_IN_F64) { /* DGEMM: dgemm_layouts */
            other++;
            CHECK_MSG(wa_sim_unsupported(op) == NULL, "%s is not executed", info->mnemonic);
            continue;
        }
        CHECK_MSG(tshape_of((wa_opcode)op) != NULL, "%s has no test shape", info->mnemonic);
        CHECK_MSG(wa_sim_unsupported(op) == NULL, "%s is not executed: %s", info->mnemonic,
                  wa_sim_unsupported(op));
    }
    CHECK_EQ_UINT(mfmas, NSHAPES + other + refused);
    CHECK_EQ_UINT(refused, 2); /* the two xf32 MFMAs */
}

/* One MFMA with C from VGPRs, D in VGPRs. */
static void every_opcode_vgpr(void)
{
    unsigned runs = 0;
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]))
                continue;
            mcase mc = mcase_init(all_targets[t], &tshapes[s]);
            mc.seed = 100 + s;
            expect_ok(&mc);
            runs++;
        }
    unsigned want = 0; /* (shape, target) pairs the table makes available */
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++)
            want += wa_isa_available(tshapes[s].op, all_targets[t]) != 0;
    CHECK_EQ_UINT(runs, want);
    CHECK(runs >= 3 * 12); /* every target runs a dozen shapes at least */
}

/* C/D in AGPRs, srcC the inline constant 0; then A/B in AGPRs as well. */
static void every_opcode_agpr(void)
{
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]))
                continue;
            mcase mc = mcase_init(all_targets[t], &tshapes[s]);
            mc.seed = 200 + s;
            mc.cd_agpr = 1;
            mc.c_imm = "0";
            mc.c_imm_bits = 0;
            expect_ok(&mc);
            mc.ab_agpr = 1;
            mc.c_imm = NULL;
            mc.seed++;
            expect_ok(&mc);
        }
}

/* vdst = srcC (the accumulate-in-place form), in VGPRs and in AGPRs. */
static void every_opcode_d_is_c(void)
{
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]))
                continue;
            for (int agpr = 0; agpr < 2; agpr++) {
                mcase mc = mcase_init(all_targets[t], &tshapes[s]);
                mc.seed = 300 + 2 * s + (unsigned)agpr;
                mc.d_is_c = 1;
                mc.cd_agpr = agpr;
                expect_ok(&mc);
            }
        }
}

/* Other inline constants as srcC: float ones, and integers (raw bits for the f32
   MFMAs, as the hardware reads an integer inline constant). */
static void srcc_inline_constants(void)
{
    static const struct {
        const char *text;
        uint32_t f32_bits, i32_bits;
    } consts[] = {
        { "1.0", 0x3F800000u, 0x3F800000u },
        { "-4.0", 0xC0800000u, 0xC0800000u },
        { "0.5", 0x3F000000u, 0x3F000000u },
        { "7", 7u, 7u },
        { "-16", 0xFFFFFFF0u, 0xFFFFFFF0u },
    };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]))
                continue;
            for (unsigned q = 0; q < sizeof(consts) / sizeof(consts[0]); q++) {
                if (tshapes[s].fmt == F_I8 && strchr(consts[q].text, '.'))
                    continue; /* an i32 accumulator takes integer constants */
                mcase mc = mcase_init(all_targets[t], &tshapes[s]);
                mc.seed = 400 + 7 * s + q;
                mc.c_imm = consts[q].text;
                mc.c_imm_bits = tshapes[s].fmt == F_I8 ? consts[q].i32_bits : consts[q].f32_bits;
                mc.cd_agpr = (int)(q & 1u);
                expect_ok(&mc);
            }
        }
}

/* ---- chains, random data, special values -------------------------------------------------------- */

/* K loops: each MFMA accumulates into the previous D. */
static void chains_accumulate(void)
{
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]))
                continue;
            mcase mc = mcase_init(all_targets[t], &tshapes[s]);
            mc.seed = 500 + s;
            mc.chain = 3;
            expect_ok(&mc);
            mc.chain = 4;
            mc.cd_agpr = 1;
            mc.c_imm = "0";
            mc.c_imm_bits = 0;
            mc.seed += 50;
            expect_ok(&mc);
        }
}

/* Full-precision random inputs against a double-precision product: the bound
   holds for any f32 summation order, and a wrong lane or element would be far
   outside it. */
static void random_data_tolerance(void)
{
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]))
                continue;
            for (unsigned seed = 0; seed < 3; seed++) {
                mcase mc = mcase_init(all_targets[t], &tshapes[s]);
                mc.seed = 600 + 10 * s + seed;
                mc.random = 1;
                mc.chain = seed == 2 ? 2 : 1;
                expect_ok(&mc);
            }
        }
}

/* i32 accumulation wraps around; the model counts the elements whose exact sum
   left the int32 range, so the case shows it really happened. */
static void i8_wraps_around(void)
{
    model_wraps = 0;
    for (unsigned t = 1; t < 3; t++) {
        mcase mc = mcase_init(all_targets[t], tshape_of(WA_OP_V_MFMA_I32_16X16X32_I8));
        for (unsigned seed = 0; seed < 4; seed++) {
            mc.seed = 700 + seed;
            mc.chain = 1 + seed % 2;
            expect_ok(&mc);
        }
    }
    CHECK(model_wraps > 0);
}

/* An fp8 NaN code (FNUZ 0x80 on gfx942, OCP 0x7f on gfx950) makes its D row NaN;
   the other code is a plain number on the other target. */
static void fp8_nan_codes(void)
{
    const wa_opcode ops[] = { WA_OP_V_MFMA_F32_16X16X32_FP8_FP8, WA_OP_V_MFMA_F32_32X32X16_FP8_FP8 };
    for (unsigned t = 1; t < 3; t++)
        for (unsigned o = 0; o < 2; o++) {
            mcase mc = mcase_init(all_targets[t], tshape_of(ops[o]));
            mc.seed = 800 + o;
            mc.nan_at_a00 = 1;
            expect_ok(&mc);
        }
    /* the model itself: 0x80 is NaN only in FNUZ, 0x7f only in OCP */
    CHECK(isnan(value_of(F_FP8, 0x80, WA_TARGET_GFX942)));
    CHECK(value_of(F_FP8, 0x80, WA_TARGET_GFX950) == 0.0);
    CHECK(value_of(F_FP8, 0x7F, WA_TARGET_GFX942) == 240.0);
    CHECK(isnan(value_of(F_FP8, 0x7F, WA_TARGET_GFX950)));
    CHECK(value_of(F_FP8, 0x7E, WA_TARGET_GFX950) == 448.0);
    CHECK(value_of(F_FP8, 0x01, WA_TARGET_GFX942) == ldexp(1.0, -10));
    CHECK(value_of(F_FP8, 0x01, WA_TARGET_GFX950) == ldexp(1.0, -9));
}

/* The documented accumulation: the exact sum, rounded once. 2^24 + 1 + 1 - 2^24
   gives 2 (an f32 running sum would lose both ones and give 0). */
static void f32_sum_rounded_once(void)
{
    for (unsigned t = 0; t < 3; t++) {
        mcase mc = mcase_init(all_targets[t], tshape_of(WA_OP_V_MFMA_F32_16X16X4_F32));
        mc.cancel = 1;
        mc.c_imm = "0";
        expect_ok(&mc);
    }
}

/* A sum beyond the f32 range rounds to infinity of its sign. */
static void f32_overflow_to_infinity(void)
{
    for (unsigned t = 0; t < 3; t++) {
        mcase mc = mcase_init(all_targets[t], tshape_of(WA_OP_V_MFMA_F32_16X16X4_F32));
        mc.cancel = 2;
        mc.c_imm = "1.0";
        mc.c_imm_bits = 0x3F800000u;
        expect_ok(&mc);
    }
}

/* The gfx942 spelling parsed, then the program retargeted to gfx90a. */
static void gfx942_names_retargeted_to_gfx90a(void)
{
    for (unsigned s = 0; s < NSHAPES; s++) {
        if (!wa_isa_available(tshapes[s].op, WA_TARGET_GFX90A))
            continue;
        mcase mc = mcase_init(WA_TARGET_GFX90A, &tshapes[s]);
        mc.written_for = WA_TARGET_GFX942;
        mc.seed = 900 + s;
        expect_ok(&mc);
    }
}

/* ---- CBSZ / ABID / BLGP ------------------------------------------------------------------------- */

static void cbsz_abid_4x4x4(void)
{
    const wa_opcode ops[] = { WA_OP_V_MFMA_F32_4X4X4_16B_F16, WA_OP_V_MFMA_F32_4X4X4_16B_BF16 };
    unsigned runs = 0;
    for (unsigned t = 0; t < 3; t++)
        for (unsigned o = 0; o < 2; o++)
            for (unsigned cbsz = 0; cbsz <= 7; cbsz++) {
                unsigned limit = cbsz >= 4 ? 16 : 1u << cbsz;
                unsigned abids[3] = { 0, limit - 1, (cbsz * 5 + o) % limit };
                for (unsigned q = 0; q < 3; q++) {
                    if (q && abids[q] == abids[q - 1])
                        continue;
                    if (cbsz >= 5 && abids[q] >= limit)
                        continue;
                    mcase mc = mcase_init(all_targets[t], tshape_of(ops[o]));
                    mc.cbsz = cbsz;
                    mc.abid = abids[q];
                    mc.seed = 1000 + 16 * cbsz + q;
                    mc.chain = q == 2 ? 2 : 1;
                    expect_ok(&mc);
                    runs++;
                }
            }
    CHECK(runs > 60);
}

static void blgp_patterns(void)
{
    /* 4x4x4: every target; the single-block f16/bf16/f32 opcodes: gfx90a */
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]) ||
                !(tshapes[s].blgp_targets & WA_TARGET_BIT(all_targets[t])))
                continue;
            for (unsigned blgp = 1; blgp <= 7; blgp++) {
                mcase mc = mcase_init(all_targets[t], &tshapes[s]);
                mc.blgp = blgp;
                mc.seed = 1200 + 8 * s + blgp;
                mc.cd_agpr = (int)(blgp & 1u);
                expect_ok(&mc);
            }
        }
    /* all three fields together */
    for (unsigned t = 0; t < 3; t++) {
        mcase mc = mcase_init(all_targets[t], tshape_of(WA_OP_V_MFMA_F32_4X4X4_16B_BF16));
        mc.cbsz = 2;
        mc.abid = 1;
        mc.blgp = 3;
        mc.chain = 2;
        mc.seed = 1300 + t;
        expect_ok(&mc);
        mc.cbsz = 4;
        mc.abid = 9;
        mc.blgp = 6;
        mc.random = 1;
        expect_ok(&mc);
    }
}

/* A field the target does not define for the opcode is reported, not guessed. */
static int case_validates(const mcase *mc)
{
    wa_context *ctx = ut_context_new(mc->target);
    char *text = mfma_kernel_text(mc);
    wa_program *prog = ut_parse(ctx, text);
    unsigned errors = 0;
    int ok = prog && wa_program_validate(&errors, prog, NULL) == WA_OK;
    wa_program_destroy(prog);
    free(text);
    wa_context_destroy(ctx);
    return ok;
}

static void unsupported_fields_reported(void)
{
    unsigned blgp_reported = 0;
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            const tshape *sh = &tshapes[s];
            if (!wa_isa_available(sh->op, all_targets[t]))
                continue;
            if (!(sh->blgp_targets & WA_TARGET_BIT(all_targets[t]))) {
                mcase mc = mcase_init(all_targets[t], sh);
                mc.blgp = 1 + s % 7;
                mc.diag_words = "blgp";
                CHECK_STATUS(run_mfma_case(&mc), WA_E_UNSUPPORTED);
                blgp_reported++;
            }
            if (sh->blocks == 1) {
                mcase mc = mcase_init(all_targets[t], sh);
                mc.cbsz = 1;
                mc.abid = 1;
                mc.diag_words = "cbsz/abid|multi-block";
                /* the validator may reject it first; if it does not, the simulator must */
                if (case_validates(&mc))
                    CHECK_STATUS(run_mfma_case(&mc), WA_E_UNSUPPORTED);
            }
        }
    unsigned want = 0; /* (shape, target) pairs whose BLGP the table leaves undefined */
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++)
            want += wa_isa_available(tshapes[s].op, all_targets[t]) &&
                    !(tshapes[s].blgp_targets & WA_TARGET_BIT(all_targets[t]));
    CHECK_EQ_UINT(blgp_reported, want);
    CHECK(blgp_reported >= 2 * 8); /* most gfx942/gfx950 MFMAs */
}

/* The diagnostic names the field and the target. */
static void unsupported_blgp_message(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942",
                             "  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 0 blgp:2\n"
                             "  s_endpgm\n"));
    wa_sim *sim = NULL;
    REQUIRE_OK(wa_sim_create(&sim, prog, NULL));
    CHECK_STATUS(wa_sim_run(sim), WA_E_UNSUPPORTED);
    CHECK_DIAG(ctx, WA_E_UNSUPPORTED, "blgp|gfx942", UT_BODY_LINE, UT_ANY, UT_ANY);
    wa_sim_destroy(sim);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- EXEC and defined bits ------------------------------------------------------------------------ */

/* A partial EXEC: every lane's inputs count, only active lanes of D change. */
static void exec_partial_keeps_inactive_lanes(void)
{
    const uint64_t masks[] = { 0x00FF00FF0F0F0F0Full, 0x8000000000000001ull, 0xFFFFFFFF00000000ull };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]))
                continue;
            for (unsigned q = 0; q < 3; q++) {
                mcase mc = mcase_init(all_targets[t], &tshapes[s]);
                mc.exec = masks[q];
                mc.seed = 1400 + 3 * s + q;
                mc.d_is_c = q == 1;
                mc.cd_agpr = q == 2;
                mc.chain = q == 2 ? 2 : 1;
                expect_ok(&mc);
            }
        }
}

/* Undefined input lanes make exactly the D elements undefined that read them:
   an A lane spoils rows, a B lane columns, a C lane its own elements. */
static void undefined_inputs_flow(void)
{
    for (unsigned t = 0; t < 3; t++)
        for (unsigned s = 0; s < NSHAPES; s++) {
            if (!wa_isa_available(tshapes[s].op, all_targets[t]))
                continue;
            for (unsigned which = 0; which < 6; which++) {
                mcase mc = mcase_init(all_targets[t], &tshapes[s]);
                mc.seed = 1500 + 8 * s + which;
                mc.probe = 1;
                if (which < 3) {
                    mc.load_lanes[which] = ~(1ull << (5 + 17 * which));
                } else if (which == 3) { /* several at once, D = C */
                    mc.load_lanes[0] = ~0x0000100000000100ull;
                    mc.load_lanes[2] = ~0x4ull;
                    mc.d_is_c = 1;
                } else if (which == 4) { /* inactive lanes keep their defined values */
                    mc.load_lanes[0] = ~0x0000000100000020ull;
                    mc.exec = 0x00FF00FF0F0F0F0Full;
                } else { /* ... and their undefined ones (D = C) */
                    mc.load_lanes[2] = ~0x8000000000F000F0ull;
                    mc.exec = 0x00FF00FF0F0F0F0Full;
                    mc.d_is_c = 1;
                    mc.cd_agpr = 1;
                }
                expect_ok(&mc);
            }
        }
}

/* Undefined data that the modifiers (or EXEC) keep out of D leaves D defined. */
static void undefined_inputs_not_read(void)
{
    const tshape *s4 = tshape_of(WA_OP_V_MFMA_F32_4X4X4_16B_F16);
    for (unsigned t = 0; t < 3; t++) {
        /* CBSZ 4, ABID 2: only block 2 (lanes 8-11) of A is read */
        mcase mc = mcase_init(all_targets[t], s4);
        mc.cbsz = 4;
        mc.abid = 2;
        mc.load_lanes[0] = ~0x0000F00000000000ull;
        mc.probe = 1;
        mc.seed = 1600 + t;
        expect_ok(&mc);
        /* ... and block 2 undefined: everything undefined */
        mc.load_lanes[0] = ~0x0000000000000400ull;
        expect_ok(&mc);
        /* BLGP 1: lanes 32-63 of B are never read */
        mc = mcase_init(all_targets[t], s4);
        mc.blgp = 1;
        mc.load_lanes[1] = ~0xFFFF000000000000ull;
        mc.probe = 1;
        mc.seed = 1610 + t;
        expect_ok(&mc);
        /* BLGP 2: they are the only ones read */
        mc.blgp = 2;
        expect_ok(&mc);
    }
}

/* With WA_SIM_UNDEF_ERRORS an undefined element written in an active lane is an
   error; undefined data that reaches no active lane is not. */
static void undef_errors_mode(void)
{
    const tshape *s16 = tshape_of(WA_OP_V_MFMA_F32_16X16X16_F16);
    const tshape *s4 = tshape_of(WA_OP_V_MFMA_F32_4X4X4_16B_F16);
    for (unsigned t = 0; t < 3; t++) {
        mcase mc = mcase_init(all_targets[t], s16);
        mc.sim_flags |= WA_SIM_UNDEF_ERRORS;
        mc.diag_words = "v_mfma|vdst|no defined value"; /* the MFMA, not a later reader */
        mc.load_lanes[1] = ~(1ull << 3); /* B column 3, k = 0..3 */
        CHECK_STATUS(run_mfma_case(&mc), WA_E_SIM_FAULT);
        /* EXEC off in the lanes holding column 3 of D */
        mc.exec = ~(0x0001000100010001ull << 3);
        CHECK_STATUS(run_mfma_case(&mc), WA_OK);
        /* CBSZ keeps the undefined A block out */
        mc = mcase_init(all_targets[t], s4);
        mc.sim_flags |= WA_SIM_UNDEF_ERRORS;
        mc.cbsz = 1;
        mc.abid = 0;
        mc.diag_words = "v_mfma|vdst|no defined value";
        mc.load_lanes[0] = ~0x00000000000000F0ull; /* block 1: read by nobody */
        CHECK_STATUS(run_mfma_case(&mc), WA_OK);
        mc.abid = 1; /* now blocks 0 and 1 read it */
        CHECK_STATUS(run_mfma_case(&mc), WA_E_SIM_FAULT);
    }
}

/* ---- waits and unsupported opcodes -------------------------------------------------------------- */

static wa_status run_text(wa_target target, const char *body, const char *diag_words)
{
    static uint32_t buffer[1024];
    wa_context *ctx = ut_context_new(target);
    wa_program *prog = NULL;
    wa_status st = ut_parse_body(&prog, ctx, wa_target_name(target), body);
    if (!CHECK_MSG(st == WA_OK, "%s\n%s", ut_diags_text(ctx), body)) {
        wa_context_destroy(ctx);
        return st;
    }
    wa_sim *sim = NULL;
    st = wa_sim_create(&sim, prog, NULL);
    if (CHECK_MSG(st == WA_OK, "%s", ut_diags_text(ctx))) {
        if (wa_program_arg_count(prog) > 0)
            CHECK_OK(wa_sim_bind_buffer(sim, 0, buffer, sizeof(buffer)));
        st = wa_sim_run(sim);
        if (st != WA_OK && diag_words)
            CHECK_DIAG(ctx, st, diag_words, UT_ANY, UT_ANY, UT_ANY);
    }
    wa_sim_destroy(sim);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return st;
}

/* A kernel that loads v[2:3] (A), v[4:5] (B) and v[8:9] (a part of C/D) from
   buffer `a`, then runs one MFMA D = v[8:11]. `wait` goes between the loads and
   the MFMA; `c` is srcC. */
static char *wait_kernel(const char *wait, const char *c)
{
    sbuf t = { NULL, 0, 0 };
    sb_add(&t, "  .abi kernarg_ptr, workitem_id_x\n"
               "  .arg a, global_buffer, offset:0, size:8, align:8\n"
               "  s_load_dwordx2 s[4:5], s[0:1], 0\n"
               "  v_lshlrev_b32 v1, 3, v0\n"
               "  v_mov_b32 v10, 0\n"
               "  v_mov_b32 v11, 0\n"
               "  s_waitcnt lgkmcnt(0)\n"
               "  global_load_dwordx2 v[2:3], v1, s[4:5]\n"
               "  global_load_dwordx2 v[4:5], v1, s[4:5] offset:512\n"
               "  global_load_dwordx2 v[8:9], v1, s[4:5] offset:1024\n"
               "%s"
               "  s_nop 1\n"
               "  v_mfma_f32_16x16x16_f16 v[8:11], v[2:3], v[4:5], %s\n"
               "  s_nop 7\n"
               "  s_endpgm\n",
           wait, c);
    return t.p;
}

/* The MFMA reads an operand, or overwrites a register, while a load into it is
   still in flight: the missing s_waitcnt is reported. The same kernels with the
   wait run. */
static void missing_waits_reported(void)
{
    static const struct {
        const char *wait, *c, *words;
        wa_status want;
    } cases[] = {
        { "", "0", "reads v2|missing s_waitcnt", WA_E_SIM_WAIT },             /* A */
        { "  s_waitcnt vmcnt(1)\n", "0", "overwrites v8|in flight", WA_E_SIM_WAIT }, /* vdst */
        { "  s_waitcnt vmcnt(1)\n", "v[8:11]", "reads v8|missing s_waitcnt", WA_E_SIM_WAIT }, /* srcC */
        { "  s_waitcnt vmcnt(0)\n", "0", NULL, WA_OK },
        { "  s_waitcnt vmcnt(0)\n", "v[8:11]", NULL, WA_OK },
    };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned q = 0; q < sizeof(cases) / sizeof(cases[0]); q++) {
            char *body = wait_kernel(cases[q].wait, cases[q].c);
            ut_context("%s case %u", wa_target_name(all_targets[t]), q);
            CHECK_STATUS(run_text(all_targets[t], body, cases[q].words), cases[q].want);
            free(body);
        }
    ut_context("%s", "");
}

/* The block-scaled MFMAs are not executed: the run says why. */
static void f8f6f4_reserved_format_unsupported(void)
{
    CHECK_STATUS(run_text(WA_TARGET_GFX950,
                          "  v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], 0, v20, v21 cbsz:5\n"
                          "  s_endpgm\n",
                          "reserved format"),
                 WA_E_UNSUPPORTED);
    CHECK_STATUS(run_text(WA_TARGET_GFX942,
                          "  v_mfma_f32_16x16x8_xf32 v[0:3], v[4:5], v[6:7], 0\n"
                          "  s_endpgm\n",
                          "xf32"),
                 WA_E_UNSUPPORTED);
}

/* ---- the examples ---------------------------------------------------------------------------------- */

static wa_program *parse_example(wa_context *ctx, const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", ut_examples_dir(), name);
    wa_program *prog = NULL;
    if (!CHECK_MSG(wa_program_parse_file(&prog, ctx, path) == WA_OK, "%s: %s", path,
                   ut_diags_text(ctx)))
        return NULL;
    return prog;
}

static uint16_t f16_exact(double v) { return (uint16_t)encode_exact(F_F16, v, WA_TARGET_GFX942); }

/* Random f16 values from a small exact set (products and sums stay exact in f32). */
static void fill_f16(uint16_t *p, double *v, unsigned n)
{
    for (unsigned e = 0; e < n; e++) {
        v[e] = rnd_int(-8, 8) * 0.25;
        p[e] = f16_exact(v[e]);
    }
}

/* mfma_lds.wa: D = A x B, 16x16x16, A and B row-major f16, D row-major f32. */
static void example_mfma_lds(void)
{
    for (unsigned t = 0; t < 3; t++) {
        wa_context *ctx = ut_context_new(all_targets[t]);
        wa_program *prog = parse_example(ctx, "mfma_lds.wa");
        if (!prog) {
            wa_context_destroy(ctx);
            return;
        }
        CHECK_OK(wa_program_set_target(prog, all_targets[t]));
        for (uint64_t seed = 1; seed <= 3; seed++) {
            static uint16_t a[256], b[256];
            static double av[256], bv[256];
            static float d[256];
            rng_seed(seed * 31 + t);
            fill_f16(a, av, 256);
            fill_f16(b, bv, 256);
            for (unsigned e = 0; e < 256; e++)
                d[e] = -1234.5f;
            wa_sim_options o = WA_SIM_OPTIONS_INIT;
            o.seed = seed;
            if (seed == 3) /* the example's s_nop and s_waitcnt are meant to suffice */
                o.flags |= WA_SIM_HAZARDS;
            wa_sim *sim = NULL;
            if (!CHECK_OK(wa_sim_create(&sim, prog, &o)))
                break;
            CHECK_OK(wa_sim_bind_buffer(sim, 0, a, sizeof(a)));
            CHECK_OK(wa_sim_bind_buffer(sim, 1, b, sizeof(b)));
            CHECK_OK(wa_sim_bind_buffer(sim, 2, d, sizeof(d)));
            if (CHECK_MSG(wa_sim_run(sim) == WA_OK, "%s: %s", wa_target_name(all_targets[t]),
                          ut_diags_text(ctx)))
                for (unsigned i = 0; i < 16; i++)
                    for (unsigned j = 0; j < 16; j++) {
                        double want = 0;
                        for (unsigned k = 0; k < 16; k++)
                            want += av[i * 16 + k] * bv[k * 16 + j];
                        CHECK_MSG(d[i * 16 + j] == (float)want, "%s D[%u][%u] = %g, want %g",
                                  wa_target_name(all_targets[t]), i, j, (double)d[i * 16 + j],
                                  want);
                    }
            wa_sim_destroy(sim);
        }
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
    }
}

/* The GEMM examples: C = A x B with A 16 x K and Bt (B transposed) 16 x K, f16;
   C is 16 x 16 f32. Fills the buffers, runs, checks C. Returns the simulator
   (kept for comparisons) or NULL. */
typedef struct gemm_io {
    uint16_t a[16 * 128], bt[16 * 128];
    double av[16 * 128], btv[16 * 128];
    float c[256];
} gemm_io;

static wa_sim *run_gemm(wa_context *ctx, const wa_program *prog, gemm_io *io, uint32_t k,
                        uint64_t seed)
{
    rng_seed(seed);
    fill_f16(io->a, io->av, 16 * k);
    fill_f16(io->bt, io->btv, 16 * k);
    for (unsigned e = 0; e < 256; e++)
        io->c[e] = 99.0f; /* K = 0 must store zeros over this */
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.seed = seed;
    if (seed % 2) /* the example's s_nop and s_waitcnt are meant to suffice */
        o.flags |= WA_SIM_HAZARDS;
    wa_sim *sim = NULL;
    if (!CHECK_OK(wa_sim_create(&sim, prog, &o)))
        return NULL;
    /* K = 0 still binds a few bytes: the kernel reads nothing from them */
    CHECK_OK(wa_sim_bind_buffer(sim, 0, io->a, k ? 32u * k : 32u));
    CHECK_OK(wa_sim_bind_buffer(sim, 1, io->bt, k ? 32u * k : 32u));
    CHECK_OK(wa_sim_bind_buffer(sim, 2, io->c, sizeof(io->c)));
    CHECK_OK(wa_sim_set_arg(sim, 3, &k, sizeof(k)));
    if (!CHECK_MSG(wa_sim_run(sim) == WA_OK, "K = %u: %s", (unsigned)k, ut_diags_text(ctx))) {
        wa_sim_destroy(sim);
        return NULL;
    }
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < 16; j++) {
            double want = 0;
            for (unsigned kk = 0; kk < k; kk++)
                want += io->av[i * k + kk] * io->btv[j * k + kk];
            CHECK_MSG(io->c[i * 16 + j] == (float)want, "K = %u: C[%u][%u] = %g, want %g",
                      (unsigned)k, i, j, (double)io->c[i * 16 + j], want);
        }
    wa_sim_stats st;
    CHECK_OK(wa_sim_get_stats(&st, sim));
    CHECK_EQ_UINT(st.undefined_bytes, 0);
    return sim;
}

static const uint32_t gemm_ks[] = { 0, 16, 48, 128 };

static void example_gemm_kloop(void)
{
    static gemm_io io;
    for (unsigned t = 0; t < 3; t++) {
        wa_context *ctx = ut_context_new(all_targets[t]);
        wa_program *prog = parse_example(ctx, "gemm_kloop.wa");
        if (prog && CHECK_OK(wa_program_set_target(prog, all_targets[t])))
            for (unsigned q = 0; q < sizeof(gemm_ks) / sizeof(gemm_ks[0]); q++) {
                ut_context("%s K = %u", wa_target_name(all_targets[t]), (unsigned)gemm_ks[q]);
                wa_sim_destroy(run_gemm(ctx, prog, &io, gemm_ks[q], 40 + q + 4 * t));
            }
        ut_context("%s", "");
        wa_program_destroy(prog);
        wa_context_destroy(ctx);
    }
}

/* gemm_kloop_virtual.wa as written (virtual registers) and after allocation: both
   right, and the two runs store the same bytes. */
static void example_gemm_kloop_virtual(void)
{
    static gemm_io io_virt, io_phys;
    for (unsigned t = 0; t < 3; t++) {
        wa_context *ctx = ut_context_new(all_targets[t]);
        wa_program *virt = parse_example(ctx, "gemm_kloop_virtual.wa");
        wa_program *phys = NULL;
        wa_regalloc_result *res = NULL;
        if (!virt || !CHECK_OK(wa_program_set_target(virt, all_targets[t])))
            goto next;
        CHECK(wa_program_vreg_count(virt) > 0);
        /* the allocation may put a scalar load's result on its own base (s0 from
           s[0:1]): an SMEM soft-clause hazard (H35) the hazard pass resolves */
        if (!CHECK_OK(wa_regalloc_run(&res, virt, NULL)) || !CHECK_OK(wa_program_clone(&phys, virt)) ||
            !CHECK_OK(wa_regalloc_apply(phys, res, NULL)) || !CHECK_OK(wa_pass_hazards(phys, NULL, NULL)))
            goto next;
        CHECK_EQ_UINT(wa_program_vreg_count(phys), 0);
        for (unsigned q = 0; q < sizeof(gemm_ks) / sizeof(gemm_ks[0]); q++) {
            ut_context("%s K = %u", wa_target_name(all_targets[t]), (unsigned)gemm_ks[q]);
            uint64_t seed = 60 + q + 4 * t;
            wa_sim *sv = run_gemm(ctx, virt, &io_virt, gemm_ks[q], seed);
            wa_sim *sp = run_gemm(ctx, phys, &io_phys, gemm_ks[q], seed);
            if (sv && sp) {
                unsigned diffs = 99;
                CHECK_OK(wa_sim_compare(&diffs, sv, sp));
                CHECK_EQ_UINT(diffs, 0);
            }
            wa_sim_destroy(sv);
            wa_sim_destroy(sp);
        }
        ut_context("%s", "");
    next:
        wa_regalloc_destroy(res);
        wa_program_destroy(phys);
        wa_program_destroy(virt);
        wa_context_destroy(ctx);
    }
}

/* ---- the model's own sanity ------------------------------------------------------------------------ */

/* The test layouts put every element of A, B and C/D in a distinct slot, and
   agree with worked examples of AMD's matrix instruction calculator. */
static void model_layouts_are_bijections(void)
{
    for (unsigned s = 0; s < NSHAPES; s++) {
        const tshape *sh = &tshapes[s];
        static uint8_t seen[64 * 16 * 4];
        unsigned per_reg = 32 / fmt_bits(sh->fmt);
        memset(seen, 0, sizeof(seen));
        for (unsigned blk = 0; blk < sh->blocks; blk++)
            for (unsigned x = 0; x < sh->m; x++)
                for (unsigned k = 0; k < sh->k; k++) {
                    place p = ab_place(sh, x, k, blk);
                    CHECK(p.lane < 64 && p.reg < sh->ab_regs && p.sub < per_reg);
                    CHECK(!seen[(p.lane * sh->ab_regs + p.reg) * per_reg + p.sub]++);
                }
        memset(seen, 0, sizeof(seen));
        for (unsigned blk = 0; blk < sh->blocks; blk++)
            for (unsigned i = 0; i < sh->m; i++)
                for (unsigned j = 0; j < sh->n; j++) {
                    place p = cd_place(sh, i, j, blk);
                    CHECK(p.lane < 64 && p.reg < sh->cd_regs);
                    CHECK(!seen[p.lane * sh->cd_regs + p.reg]++);
                }
    }
    /* calculator example: 4x4x4_16b, CBSZ 4, ABID 3: A[2][3] of block 5 comes from lane 14 */
    const tshape *s4 = tshape_of(WA_OP_V_MFMA_F32_4X4X4_16B_F16);
    CHECK_EQ_UINT(ab_place(s4, 2, 3, cbsz_block(5, 4, 3)).lane, 14);
    CHECK_EQ_UINT(ab_place(s4, 2, 3, 5).lane, 22);
}

/* ---- DGEMM ---------------------------------------------------------------------------------------

   v_mfma_f64_16x16x4_f64 and v_mfma_f64_4x4x4_4b_f64 with the layouts the
   simulator documents (composable_kernel's f64 attributes): A[i][k] (block b) in
   lane 16k + b*M + i, B[k][j] in lane 16k + b*N + j, one double per lane; D[i][j]
   in register pair i / G, lane (i % G) * N * blocks + b * N + j, G = 64 / (N *
   blocks). Inputs are small integers, so every sum is exact in f64. */
typedef struct dgemm_case {
    wa_target target;
    int small;            /* 4x4x4_4b (else 16x16x4) */
    unsigned cbsz, abid;
    uint64_t exec;
    const char *c_imm;    /* srcC constant, or NULL for registers */
    int agpr;             /* C/D in AGPRs */
    unsigned neg;         /* neg:[a,b,c] bits (gfx942/gfx950) */
} dgemm_case;

static double dg_val(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static uint64_t dg_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* Runs one DGEMM; in[] holds A (64 doubles), B (64), C (pairs * 64); out[] gets D. */
static int dgemm_run(const dgemm_case *dc, const uint64_t *in, uint64_t *out)
{
    unsigned pairs = dc->small ? 1 : 4;
    const char *mn = dc->small ? (dc->target == WA_TARGET_GFX90A ? "v_mfma_f64_4x4x4f64"
                                                                 : "v_mfma_f64_4x4x4_4b_f64")
                               : (dc->target == WA_TARGET_GFX90A ? "v_mfma_f64_16x16x4f64"
                                                                 : "v_mfma_f64_16x16x4_f64");
    sbuf t = { NULL, 0, 0 };
    sb_add(&t, ".kernel t\n  .target %s\n  .abi kernarg_ptr, workitem_id_x\n"
               "  .arg in, global_buffer, offset:0, size:8, align:8\n"
               "  .arg out, global_buffer, offset:8, size:8, align:8\n"
               "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
               "  v_lshlrev_b32 v1, 3, v0\n"
               "  s_waitcnt lgkmcnt(0)\n"
               "  global_load_dwordx2 v[2:3], v1, s[4:5]\n"
               "  global_load_dwordx2 v[4:5], v1, s[4:5] offset:512\n",
           wa_target_name(dc->target));
    for (unsigned p = 0; p < pairs; p++)
        sb_add(&t, "  global_load_dwordx2 v[%u:%u], v1, s[4:5] offset:%u\n", 8 + 2 * p, 9 + 2 * p,
               1024 + 512 * p);
    sb_add(&t, "  s_waitcnt vmcnt(0)\n");
    char cd = dc->agpr ? 'a' : 'v';
    if (dc->agpr)
        for (unsigned r = 0; r < 2 * pairs; r++)
            sb_add(&t, "  v_accvgpr_write_b32 a%u, v%u\n", 8 + r, 8 + r);
    sb_add(&t, "  s_mov_b32 exec_lo, 0x%x\n  s_mov_b32 exec_hi, 0x%x\n", (unsigned)dc->exec,
           (unsigned)(dc->exec >> 32));
    sb_add(&t, "  %s %c[8:%u], v[2:3], v[4:5], ", mn, cd, 7 + 2 * pairs);
    if (dc->c_imm)
        sb_add(&t, "%s", dc->c_imm);
    else
        sb_add(&t, "%c[8:%u]", cd, 7 + 2 * pairs);
    if (dc->cbsz)
        sb_add(&t, " cbsz:%u abid:%u", dc->cbsz, dc->abid);
    if (dc->neg)
        sb_add(&t, " neg:[%u,%u,%u]", dc->neg & 1u, dc->neg >> 1 & 1u, dc->neg >> 2 & 1u);
    sb_add(&t, "\n  s_mov_b64 exec, -1\n  s_nop 15\n  s_nop 15\n");
    if (dc->agpr)
        for (unsigned r = 0; r < 2 * pairs; r++)
            sb_add(&t, "  v_accvgpr_read_b32 v%u, a%u\n", 8 + r, 8 + r);
    for (unsigned p = 0; p < pairs; p++)
        sb_add(&t, "  global_store_dwordx2 v1, v[%u:%u], s[6:7] offset:%u\n", 8 + 2 * p, 9 + 2 * p,
               512 * p);
    sb_add(&t, "  s_endpgm\n.end_kernel\n");
    wa_context *ctx = ut_context_new(dc->target);
    wa_program *prog = ut_parse(ctx, t.p);
    wa_sim *sim = NULL;
    int ok = prog && CHECK_OK(wa_sim_create(&sim, prog, NULL)) &&
             CHECK_OK(wa_sim_bind_buffer(sim, 0, (void *)(uintptr_t)in, 8 * (128 + 64 * 4))) &&
             CHECK_OK(wa_sim_bind_buffer(sim, 1, out, 8 * 64 * 4));
    if (ok)
        ok = CHECK_MSG(wa_sim_run(sim) == WA_OK, "%s\n%s", ut_diags_text(ctx), t.p);
    wa_sim_destroy(sim);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    free(t.p);
    return ok;
}

static void dgemm_check(const dgemm_case *dc, unsigned seed)
{
    uint64_t in[128 + 64 * 4], out[64 * 4], keep[64 * 4], want[64 * 4];
    rng_seed(seed);
    for (unsigned l = 0; l < 128; l++)
        in[l] = dg_bits((double)rnd_int(-8, 8) * (rnd() % 4 == 0 ? 0.25 : 1.0));
    for (unsigned l = 128; l < 128 + 256; l++)
        in[l] = dg_bits((double)rnd_int(-100, 100));
    for (unsigned l = 0; l < 256; l++)
        out[l] = keep[l] = 0x1111111100000000ull | l;
    unsigned m = dc->small ? 4 : 16, n = m, k = 4, blocks = dc->small ? 4 : 1;
    unsigned groups = 64 / (n * blocks), pairs = dc->small ? 1 : 4;
    for (unsigned p = 0; p < pairs; p++)
        for (unsigned l = 0; l < 64; l++)
            want[64 * p + l] = dc->exec >> l & 1u ? 0 : in[128 + 64 * p + l];
    for (unsigned b = 0; b < blocks; b++) {
        unsigned ab = (b >> dc->cbsz << dc->cbsz) + dc->abid;
        for (unsigned i = 0; i < m; i++)
            for (unsigned j = 0; j < n; j++) {
                unsigned p = i / groups, lane = (i % groups) * n * blocks + b * n + j;
                double c = dc->c_imm ? (dc->c_imm[0] == '1' ? 1.0 : dg_val(2)) : dg_val(in[128 + 64 * p + lane]);
                /* neg:[a,b,c] negates A, B and C as they are read */
                double na = dc->neg & 1u ? -1.0 : 1.0, nb = dc->neg & 2u ? -1.0 : 1.0;
                double s = dc->neg & 4u ? -c : c;
                for (unsigned kk = 0; kk < k; kk++)
                    s += na * dg_val(in[16 * kk + ab * m + i]) * nb * dg_val(in[64 + 16 * kk + b * n + j]);
                if (dc->exec >> lane & 1u)
                    want[64 * p + lane] = dg_bits(s);
            }
    }
    if (!dgemm_run(dc, in, out))
        return;
    unsigned bad = 0;
    for (unsigned p = 0; p < pairs; p++)
        for (unsigned l = 0; l < 64; l++) {
            /* the kernel stores every lane: inactive lanes keep C's value */
            uint64_t w = want[64 * p + l];
            if (out[64 * p + l] != w && ++bad <= 4)
                CHECK_MSG(0, "%s pair %u lane %u: 0x%016llx (%g), want 0x%016llx (%g)",
                          wa_target_name(dc->target), p, l, (unsigned long long)out[64 * p + l],
                          dg_val(out[64 * p + l]), (unsigned long long)w, dg_val(w));
        }
    CHECK_EQ_UINT(bad, 0);
    (void)keep;
}

static void dgemm_layouts(void)
{
    for (unsigned t = 0; t < 3; t++)
        for (int small = 0; small < 2; small++) {
            dgemm_case dc = { all_targets[t], small, 0, 0, ~0ull, NULL, 0, 0 };
            ut_context("%s %s", wa_target_name(dc.target), small ? "4x4x4_4b" : "16x16x4");
            dgemm_check(&dc, 10 + t * 2 + (unsigned)small);
            dc.agpr = 1;
            dgemm_check(&dc, 20 + t * 2 + (unsigned)small);
            dc.agpr = 0;
            dc.exec = 0xF0F0F0F00F0F0F0Full;
            dgemm_check(&dc, 30 + t);
            dc.exec = ~0ull;
            dc.c_imm = "1.0";
            dgemm_check(&dc, 40 + t);
        }
    /* neg:[a,b,c] on gfx942/gfx950: every combination */
    for (unsigned t = 1; t < 3; t++)
        for (unsigned neg = 1; neg < 8; neg++) {
            dgemm_case dc = { all_targets[t], (int)(neg & 1u), 0, 0, ~0ull, NULL, 0, neg };
            ut_context("%s neg %u", wa_target_name(dc.target), neg);
            dgemm_check(&dc, 70 + 8 * t + neg);
        }
    /* cbsz/abid broadcast A between the 4x4x4_4b blocks */
    for (unsigned cbsz = 1; cbsz <= 2; cbsz++)
        for (unsigned abid = 0; abid < (1u << cbsz); abid++) {
            dgemm_case dc = { WA_TARGET_GFX942, 1, cbsz, abid, ~0ull, NULL, 0, 0 };
            ut_context("cbsz %u abid %u", cbsz, abid);
            dgemm_check(&dc, 50 + cbsz * 4 + abid);
        }
    ut_context("%s", "");
}

/* Accumulation is in f64: 1 + 2^-40 survives (it would not in f32), and an
   integer srcC constant is the 64-bit integer (2: the denormal 2 * 2^-1074). */
static void dgemm_f64_precision(void)
{
    uint64_t in[128 + 256], out[256];
    memset(in, 0, sizeof(in));
    for (unsigned l = 0; l < 256; l++)
        out[l] = 0;
    in[0] = dg_bits(1.0 + 0x1p-40);  /* A[0][0] */
    in[64] = dg_bits(3.0);           /* B[0][0] */
    in[128] = dg_bits(-3.0);         /* C[0][0]: pair 0, lane 0 */
    dgemm_case dc = { WA_TARGET_GFX942, 0, 0, 0, ~0ull, NULL, 0, 0 };
    if (dgemm_run(&dc, in, out)) {
        CHECK_EQ_HEX(out[0], dg_bits(3.0 * 0x1p-40));
        CHECK_EQ_HEX(out[1], 0ull);
    }
    dc.c_imm = "2";
    if (dgemm_run(&dc, in, out)) {
        CHECK_EQ_HEX(out[0], dg_bits(3.0 + 3.0 * 0x1p-40));
        CHECK_EQ_HEX(out[1], 2ull); /* A row 0 times B column 1 is 0: D is C */
    }
}

/* BLGP is the neg modifier on gfx942/gfx950: the validator rejects it and the
   simulator does not guess. */
static void dgemm_blgp_rejected(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    CHECK_OK(ut_parse_body(&prog, ctx, "gfx942",
                           "  v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], v[0:7] blgp:1\n"
                           "  s_endpgm\n"));
    if (prog) {
        CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
        CHECK_DIAG(ctx, WA_E_VALIDATE, "takes no blgp", UT_ANY, UT_ANY, UT_ANY);
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_MFMA_F64_16X16X4_F64, WA_TARGET_GFX90A), 8);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_MFMA_F64_16X16X4_F64, WA_TARGET_GFX942), 8);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_MFMA_F64_16X16X4_F64, WA_TARGET_GFX950), 16);
    CHECK_EQ_UINT(wa_isa_mfma_passes(WA_OP_V_MFMA_F64_4X4X4_4B_F64, WA_TARGET_GFX950), 4);
    CHECK_EQ_INT(wa_isa_get(WA_OP_V_MFMA_F64_4X4X4_4B_F64)->hazard, WA_HZ_MFMA_DGEMM);
}

/* ---- SMFMAC and the f8f6f4 MFMAs ------------------------------------------------------------------

   A kernel of its own: every operand register r is loaded from dword r * 64 + lane
   of its buffer (a: A, b: B then the extra registers, c: C), the instruction runs
   once, and D is stored the same way. The reference below rebuilds dense matrices
   from the register images with the test's own decoders:
     A (and B) of an M x N x K MFMA: lane (k / KL) * M + i holds KL = K * M / 64
       consecutive k; element e of a lane is bits [b*e, b*e + b) of the lane's
       registers taken as one bit string (b = 4, 6, 8 or 16 bits).
     SMFMAC: A's lane holds KL/2 values; value c lies in group c / 2 of four
       positions of the lane's KL, at the position given by bits [2c+1:2c] of the
       lane's index set; the index VGPR holds 32 / KL sets, cbsz 0 lets abid pick
       one, any other cbsz takes set 0.
     f8f6f4: cbsz (A) and blgp (B) give the formats (0 fp8 E4M3, 1 bf8 E5M2, 2 fp6
       E2M3, 3 bf6 E3M2, 4 fp4 E2M1, all OCP); the scaled form multiplies a lane's
       32 elements by 2^(s - 127), s the E8M0 byte op_sel[i] + 2 * op_sel_hi[i] of
       the lane's scale VGPR.
     C/D: G = 64 / N lane groups; row i in register 4 * (i / (4G)) + i % 4, lane
       ((i / 4) % G) * N + j. */

typedef struct xcase {
    wa_opcode op;
    wa_target target;
    unsigned cbsz, abid, blgp, op_sel, op_sel_hi;
    int agpr;           /* vdst and C in AGPRs */
    uint64_t exec;
    uint64_t seed;
} xcase;

#define X_MAX_REGS 16u

typedef struct xdata {
    uint32_t a[X_MAX_REGS * 64], b[X_MAX_REGS * 64], c[X_MAX_REGS * 64], d[X_MAX_REGS * 64];
    double want[X_MAX_REGS * 64], tol[X_MAX_REGS * 64];
} xdata;

/* OCP small floats (no infinity or NaN in the 6- and 4-bit ones). */
static double ocp_value(unsigned format, uint32_t v)
{
    static const struct { unsigned e, m; int bias; } f[5] = {
        { 4, 3, 7 }, { 5, 2, 15 }, { 2, 3, 1 }, { 3, 2, 3 }, { 2, 1, 1 } };
    unsigned eb = f[format].e, mb = f[format].m;
    unsigned man = v & ((1u << mb) - 1u), exp = (v >> mb) & ((1u << eb) - 1u);
    unsigned sign = (v >> (eb + mb)) & 1u;
    if (format == 0 && exp == 15 && man == 7)
        return NAN;
    if (format == 1 && exp == 31)
        return man ? NAN : sign ? -INFINITY : INFINITY;
    double mag = exp ? ldexp(1.0 + man / (double)(1u << mb), (int)exp - f[format].bias)
                     : ldexp(man / (double)(1u << mb), 1 - f[format].bias);
    return sign ? -mag : mag;
}

static unsigned ocp_bits(unsigned format) { return format < 2 ? 8 : format < 4 ? 6 : 4; }

/* Bits [b*e, b*e + b) of `nregs` registers of lane `lane` (register-major image). */
static uint32_t lane_field(const uint32_t *img, unsigned lane, unsigned b, unsigned e)
{
    unsigned off = b * e, r = off / 32, sh = off % 32;
    uint64_t w = img[r * 64 + lane];
    if (sh + b > 32)
        w |= (uint64_t)img[(r + 1) * 64 + lane] << 32;
    return (uint32_t)(w >> sh) & (b == 32 ? 0xFFFFFFFFu : (1u << b) - 1u);
}

static void lane_field_put(uint32_t *img, unsigned lane, unsigned b, unsigned e, uint32_t v)
{
    unsigned off = b * e;
    for (unsigned q = 0; q < b; q++) {
        unsigned bit = off + q, r = bit / 32;
        uint32_t m = 1u << (bit % 32);
        img[r * 64 + lane] = (v >> q & 1u) ? img[r * 64 + lane] | m : img[r * 64 + lane] & ~m;
    }
}

/* The test's input formats for the dense operands of an SMFMAC (names give them). */
static enum fmt smfmac_fmt(const char *mn, int b)
{
    if (strstr(mn, "_f16"))
        return F_F16;
    if (strstr(mn, "_bf16"))
        return F_BF16;
    if (strstr(mn, "_i8"))
        return F_I8;
    /* ..._<A>_<B>: the last two words, fp8 or bf8 */
    const char *p = strrchr(mn, '_');
    return strncmp(b ? p + 1 : p - 3, "bf8", 3) == 0 ? F_BF8 : F_FP8;
}

static char *xcase_text(const xcase *xc, unsigned na, unsigned nb, unsigned ncd, unsigned extra,
                        int sparse)
{
    sbuf t = { NULL, 0, 0 };
    const wa_isa_info *info = wa_isa_get(xc->op);
    sb_add(&t, ".kernel xcase\n  .target %s\n  .workgroup_size 64, 1, 1\n  .lds_bytes 0\n",
           wa_target_name(xc->target));
    sb_add(&t, "  .abi kernarg_ptr, workitem_id_x\n"
               "  .arg a, global_buffer, offset:0, size:8, align:8, const\n"
               "  .arg b, global_buffer, offset:8, size:8, align:8, const\n"
               "  .arg c, global_buffer, offset:16, size:8, align:8, const\n"
               "  .arg d, global_buffer, offset:24, size:8, align:8\n");
    sb_add(&t, "  s_load_dwordx8 s[4:11], s[0:1], 0\n  v_lshlrev_b32 v1, 2, v0\n"
               "  s_waitcnt lgkmcnt(0)\n");
    for (unsigned r = 0; r < na; r++)
        sb_add(&t, "  global_load_dword v%u, v1, s[4:5] offset:%u\n", 100 + r, 256 * r);
    for (unsigned r = 0; r < nb + extra; r++)
        sb_add(&t, "  global_load_dword v%u, v1, s[6:7] offset:%u\n", 110 + r, 256 * r);
    for (unsigned r = 0; r < ncd; r++)
        sb_add(&t, "  global_load_dword v%u, v1, s[8:9] offset:%u\n", 32 + r, 256 * r);
    sb_add(&t, "  s_waitcnt vmcnt(0)\n");
    char cd = xc->agpr ? 'a' : 'v';
    if (xc->agpr)
        for (unsigned r = 0; r < ncd; r++)
            sb_add(&t, "  v_accvgpr_write_b32 a%u, v%u\n", 32 + r, 32 + r);
    sb_add(&t, "  s_nop 4\n");
    if (xc->exec != ALL_LANES) {
        sb_add(&t, "  s_mov_b32 exec_lo, 0x%08x\n", (unsigned)(uint32_t)xc->exec);
        sb_add(&t, "  s_mov_b32 exec_hi, 0x%08x\n", (unsigned)(uint32_t)(xc->exec >> 32));
    }
    char rd[32], ra[32], rb[32];
    reg_text(rd, sizeof(rd), cd, 32, ncd);
    reg_text(ra, sizeof(ra), 'v', 100, na);
    reg_text(rb, sizeof(rb), 'v', 110, nb);
    sb_add(&t, "  %s %s, %s, %s, ", info->mnemonic, rd, ra, rb);
    if (sparse)
        sb_add(&t, "v%u", 110 + nb);
    else
        sb_add(&t, "%s", rd);
    if (info->num_operands == 6)
        sb_add(&t, ", v%u, v%u", 110 + nb, 111 + nb);
    if (xc->op_sel)
        sb_add(&t, " op_sel:[%u,%u,0]", xc->op_sel & 1u, xc->op_sel >> 1 & 1u);
    if (xc->op_sel_hi)
        sb_add(&t, " op_sel_hi:[%u,%u,0]", xc->op_sel_hi & 1u, xc->op_sel_hi >> 1 & 1u);
    if (xc->cbsz)
        sb_add(&t, " cbsz:%u", xc->cbsz);
    if (xc->abid)
        sb_add(&t, " abid:%u", xc->abid);
    if (xc->blgp)
        sb_add(&t, " blgp:%u", xc->blgp);
    sb_add(&t, "\n");
    if (xc->exec != ALL_LANES)
        sb_add(&t, "  s_mov_b64 exec, -1\n");
    sb_add(&t, "  s_nop 15\n  s_nop 4\n");
    if (xc->agpr)
        for (unsigned r = 0; r < ncd; r++)
            sb_add(&t, "  v_accvgpr_read_b32 v%u, a%u\n", 32 + r, 32 + r);
    for (unsigned r = 0; r < ncd; r++)
        sb_add(&t, "  global_store_dword v1, v%u, s[10:11] offset:%u\n", 32 + r, 256 * r);
    sb_add(&t, "  s_endpgm\n.end_kernel\n");
    return t.p;
}

/* A random element of `format` (test formats) or OCP format code `ocp` (when
   `ocp` >= 0), never NaN or infinite. */
static uint32_t x_random_bits(enum fmt f, int ocp, wa_target t)
{
    for (;;) {
        if (ocp >= 0) {
            uint32_t v = rnd() & ((1u << ocp_bits((unsigned)ocp)) - 1u);
            if (isfinite(ocp_value((unsigned)ocp, v)))
                return v;
            continue;
        }
        if (f == F_I8)
            return rnd() & 0xFFu;
        if (f == F_F16 || f == F_BF16) {
            minifloat m = minifloat_of(f, t);
            uint32_t sign = rnd() & 1u, man = rnd() & ((1u << m.man_bits) - 1u);
            uint32_t exp = (uint32_t)(m.bias + rnd_int(-4, 3));
            return sign << (m.exp_bits + m.man_bits) | exp << m.man_bits | man;
        }
        uint32_t v = rnd() & 0xFFu;
        if (isfinite(value_of(f, v, t)))
            return v;
    }
}

/* Runs one SMFMAC or f8f6f4 case and checks D (and the lanes EXEC leaves alone). */
static void run_xcase(const xcase *xc)
{
    const wa_isa_info *info = wa_isa_get(xc->op);
    const wa_mfma_shape *sh = wa_isa_mfma_shape(xc->op);
    REQUIRE(sh != NULL);
    int sparse = sh->sparse != 0, scaled = info->num_operands == 6;
    unsigned M = sh->m, N = sh->n, K = sh->k;
    unsigned kl = K * M / 64;              /* dense k per lane */
    int ocp_a = -1, ocp_b = -1;
    enum fmt fa = F_F32, fb = F_F32;
    unsigned ba, bb;
    if (sh->input == WA_MFMA_IN_F8F6F4) {
        ocp_a = (int)xc->cbsz;
        ocp_b = (int)xc->blgp;
        ba = ocp_bits(xc->cbsz);
        bb = ocp_bits(xc->blgp);
    } else {
        fa = smfmac_fmt(info->mnemonic, 0);
        fb = smfmac_fmt(info->mnemonic, 1);
        ba = fmt_bits(fa);
        bb = fmt_bits(fb);
    }
    unsigned na = (sparse ? kl / 2 : kl) * ba / 32, nb = kl * bb / 32, ncd = M * N / 64;
    ut_context("%s on %s cbsz %u abid %u blgp %u op_sel %u op_sel_hi %u%s exec %016llx",
               info->mnemonic, wa_target_name(xc->target), xc->cbsz, xc->abid, xc->blgp,
               xc->op_sel, xc->op_sel_hi, xc->agpr ? " agpr" : "", (unsigned long long)xc->exec);
    CHECK_EQ_UINT(na, info->operands[1].size ? info->operands[1].size : na);
    xdata *x = calloc(1, sizeof(*x));
    REQUIRE(x != NULL);
    rng_seed(xc->seed);
    for (unsigned l = 0; l < 64; l++) {
        for (unsigned e = 0; e < (sparse ? kl / 2 : kl); e++)
            lane_field_put(x->a, l, ba, e, x_random_bits(fa, ocp_a, xc->target));
        for (unsigned e = 0; e < kl; e++)
            lane_field_put(x->b, l, bb, e, x_random_bits(fb, ocp_b, xc->target));
    }
    /* extra registers after B: the index VGPR (valid 2:4 pairs) or the scales */
    static const unsigned char pairs[6] = { 0x4, 0x8, 0xC, 0x9, 0xD, 0xE }; /* idx1:idx0 */
    for (unsigned l = 0; l < 64; l++) {
        if (sparse) {
            uint32_t v = 0;
            for (unsigned g = 0; g < 16; g++)
                v |= (uint32_t)pairs[rnd() % 6] << (4 * g);
            x->b[nb * 64 + l] = v;
        } else if (scaled) {
            x->b[nb * 64 + l] = rnd();
            x->b[(nb + 1) * 64 + l] = rnd();
            /* scale bytes within 2^-8 .. 2^8 keep the sums far from overflow */
            for (unsigned q = 0; q < 2; q++) {
                uint32_t w = 0;
                for (unsigned by = 0; by < 4; by++)
                    w |= (uint32_t)rnd_int(119, 135) << (8 * by);
                x->b[(nb + q) * 64 + l] = w;
            }
        }
    }
    int integer = sh->input == WA_MFMA_IN_I8;
    for (unsigned w = 0; w < ncd * 64; w++)
        x->c[w] = integer ? (uint32_t)rnd_int(-5000, 5000) : bits_of((float)rnd_int(-64, 64) * 0.25f);

    /* the reference */
    static double A[32][128], B[128][32];
    unsigned set = xc->cbsz == 0 ? xc->abid : 0;
    for (unsigned i = 0; i < M; i++)
        for (unsigned k = 0; k < K; k++)
            A[i][k] = 0;
    for (unsigned i = 0; i < M; i++)
        for (unsigned q = 0; q < K / kl; q++) {
            unsigned lane = q * M + i;
            double sa = 1.0;
            if (scaled)
                sa = ldexp(1.0, (int)(x->b[nb * 64 + lane] >> (8 * ((xc->op_sel & 1u) | (xc->op_sel_hi & 1u) << 1)) & 0xFFu) - 127);
            if (sparse) {
                uint32_t ix = x->b[nb * 64 + lane] >> (kl * set);
                for (unsigned cc = 0; cc < kl / 2; cc++) {
                    unsigned k = q * kl + 4 * (cc / 2) + (ix >> (2 * cc) & 3u);
                    A[i][k] += value_of(fa, lane_field(x->a, lane, ba, cc), xc->target);
                }
            } else {
                for (unsigned e = 0; e < kl; e++)
                    A[i][q * kl + e] = sa * ocp_value((unsigned)ocp_a, lane_field(x->a, lane, ba, e));
            }
        }
    for (unsigned j = 0; j < N; j++)
        for (unsigned q = 0; q < K / kl; q++) {
            unsigned lane = q * N + j;
            double sb = 1.0;
            if (scaled)
                sb = ldexp(1.0, (int)(x->b[(nb + 1) * 64 + lane] >> (8 * ((xc->op_sel >> 1 & 1u) | (xc->op_sel_hi >> 1 & 1u) << 1)) & 0xFFu) - 127);
            for (unsigned e = 0; e < kl; e++) {
                uint32_t v = lane_field(x->b, lane, bb, e);
                B[q * kl + e][j] = ocp_b >= 0 ? sb * ocp_value((unsigned)ocp_b, v) : value_of(fb, v, xc->target);
            }
        }
    unsigned groups = 64 / N;
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            unsigned reg = 4 * (i / (4 * groups)) + i % 4, lane = ((i / 4) % groups) * N + j;
            unsigned w = reg * 64 + lane;
            double acc = integer ? (double)(int32_t)x->c[w] : (double)f32_of(x->c[w]), mag = fabs(acc);
            for (unsigned k = 0; k < K; k++) {
                acc += A[i][k] * B[k][j];
                mag += fabs(A[i][k] * B[k][j]);
            }
            if (!(xc->exec >> lane & 1u)) {
                x->want[w] = integer ? (double)(int32_t)x->c[w] : (double)f32_of(x->c[w]);
                x->tol[w] = 0;
            } else {
                x->want[w] = acc;
                x->tol[w] = integer ? 0 : ldexp(mag, -22) + 1e-30;
            }
        }

    wa_context *ctx = ut_context_new(xc->target);
    char *text = xcase_text(xc, na, nb, ncd, sparse ? 1 : scaled ? 2 : 0, sparse);
    wa_program *prog = ut_parse(ctx, text);
    wa_sim *sim = NULL;
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.flags = WA_SIM_TIMING | WA_SIM_HAZARDS;
    o.seed = xc->seed;
    if (prog && CHECK_MSG(wa_sim_create(&sim, prog, &o) == WA_OK, "%s", ut_diags_text(ctx))) {
        CHECK_OK(wa_sim_bind_buffer(sim, 0, x->a, sizeof(x->a)));
        CHECK_OK(wa_sim_bind_buffer(sim, 1, x->b, sizeof(x->b)));
        CHECK_OK(wa_sim_bind_buffer(sim, 2, x->c, sizeof(x->c)));
        CHECK_OK(wa_sim_bind_buffer(sim, 3, x->d, sizeof(x->d)));
        if (CHECK_MSG(wa_sim_run(sim) == WA_OK, "%s\n%s", ut_diags_text(ctx), text)) {
            unsigned bad = 0;
            for (unsigned w = 0; w < ncd * 64; w++) {
                double got = integer ? (double)(int32_t)x->d[w] : (double)f32_of(x->d[w]);
                int ok = integer ? x->d[w] == (uint32_t)(int64_t)x->want[w]
                                 : fabs(got - x->want[w]) <= x->tol[w];
                if (!ok && bad++ < 4)
                    CHECK_MSG(0, "D register %u lane %u: got %.9g, want %.9g", w / 64, w % 64, got,
                              x->want[w]);
            }
            CHECK_EQ_UINT(bad, 0);
        }
    }
    wa_sim_destroy(sim);
    wa_program_destroy(prog);
    free(text);
    wa_context_destroy(ctx);
    free(x);
    ut_context("%s", "");
}

/* Every SMFMAC on gfx942/gfx950, each index set, cbsz != 0 (set 0), AGPR
   destinations and a partial EXEC. */
static void smfmac_cases(void)
{
    unsigned runs = 0;
    for (unsigned t = 1; t < 3; t++)
        for (unsigned op = 0; op < wa_isa_count(); op++) {
            const wa_mfma_shape *sh = wa_isa_mfma_shape(op);
            if (!sh || !sh->sparse || !wa_isa_available(op, all_targets[t]))
                continue;
            unsigned kl = sh->k * sh->m / 64, nsets = 32 / kl;
            for (unsigned set = 0; set < nsets; set++) {
                xcase xc = { (wa_opcode)op, all_targets[t], 0, set, 0, 0, 0, (int)(set & 1u),
                             ALL_LANES, 300 + op + set };
                run_xcase(&xc);
                runs++;
            }
            xcase xc = { (wa_opcode)op, all_targets[t], 3, nsets > 1 ? 1 : 0, 0, 0, 0, 0,
                         0x00FF00FF0F0F0F0Full, 900 + op };
            run_xcase(&xc);
            runs++;
        }
    CHECK(runs >= 14 * 2 + 14);
    /* an abid naming no index set is refused (i8 on gfx950: one set of 32 bits) */
    CHECK_STATUS(run_text(WA_TARGET_GFX950,
                          "  v_smfmac_i32_16x16x128_i8 v[0:3], v[4:7], v[8:15], v16 abid:1\n"
                          "  s_endpgm\n",
                          "abid:1|index set"),
                 WA_E_UNSUPPORTED);
}

/* The f8f6f4 MFMAs: every pair of A/B formats, unscaled and scaled with each
   scale byte. */
static void f8f6f4_cases(void)
{
    static const wa_opcode ops[4] = { WA_OP_V_MFMA_F32_16X16X128_F8F6F4, WA_OP_V_MFMA_F32_32X32X64_F8F6F4,
                                      WA_OP_V_MFMA_SCALE_F32_16X16X128_F8F6F4,
                                      WA_OP_V_MFMA_SCALE_F32_32X32X64_F8F6F4 };
    unsigned runs = 0;
    for (unsigned o = 0; o < 4; o++)
        for (unsigned fa = 0; fa < 5; fa++)
            for (unsigned fb = 0; fb < 5; fb++) {
                if (o % 2 == 1 && (fa + fb) % 2) /* the 32x32 forms: half the pairs */
                    continue;
                unsigned sel = (fa * 5 + fb) % 16;
                xcase xc = { ops[o], WA_TARGET_GFX950, fa, 0, fb, o >= 2 ? sel & 3u : 0,
                             o >= 2 ? sel >> 2 : 0, (int)((fa + fb) % 3 == 0),
                             fa == 2 ? 0xF0F0F0F0FFFF0000ull : ALL_LANES, 500 + 25 * o + 5 * fa + fb };
                run_xcase(&xc);
                runs++;
            }
    CHECK_EQ_UINT(runs, 25 + 13 + 25 + 13);
}

UT_SUITE(UT_CASE(model_layouts_are_bijections)
         UT_CASE(every_mfma_in_the_table)
         UT_CASE(every_opcode_vgpr)
         UT_CASE(every_opcode_agpr)
         UT_CASE(every_opcode_d_is_c)
         UT_CASE(srcc_inline_constants)
         UT_CASE(chains_accumulate)
         UT_CASE(random_data_tolerance)
         UT_CASE(i8_wraps_around)
         UT_CASE(fp8_nan_codes)
         UT_CASE(f32_sum_rounded_once)
         UT_CASE(f32_overflow_to_infinity)
         UT_CASE(gfx942_names_retargeted_to_gfx90a)
         UT_CASE(cbsz_abid_4x4x4)
         UT_CASE(blgp_patterns)
         UT_CASE(unsupported_fields_reported)
         UT_CASE(unsupported_blgp_message)
         UT_CASE(exec_partial_keeps_inactive_lanes)
         UT_CASE(undefined_inputs_flow)
         UT_CASE(undefined_inputs_not_read)
         UT_CASE(undef_errors_mode)
         UT_CASE(missing_waits_reported)
         UT_CASE(f8f6f4_reserved_format_unsupported)
         UT_CASE(smfmac_cases)
         UT_CASE(f8f6f4_cases)
         UT_CASE(example_mfma_lds)
         UT_CASE(example_gemm_kloop)
         UT_CASE(example_gemm_kloop_virtual)
         UT_CASE(dgemm_layouts)
         UT_CASE(dgemm_f64_precision)
         UT_CASE(dgemm_blgp_rejected));
