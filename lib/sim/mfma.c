/* lib/sim/mfma.c — MFMA semantics: D = A x B + C per block, with the hardware's
   lane/register layouts.

   The ISA table gives every MFMA's block shape (M x N x K), its number of
   blocks, its input format and the targets that honour BLGP (wa_isa_mfma_shape);
   one generic routine does the rest. The block-scaled f8f6f4 MFMAs are not
   executed (their scale and format encodings are not modelled).

   Layouts (wave64; "register r" is the r-th register of the operand; an input
   register holds 32/bits elements, element e in bits [bits*e+bits-1 : bits*e]):
     A[i][k] of block b: lane = (k / KL) * (M * blocks) + b * M + i, element
       e = k % KL, register e / per_reg, sub-element e % per_reg, where KL is the
       number of elements a lane holds (K * M * blocks / 64). B[k][j] is the same
       with j and N. This covers:
       16x16x16, 32x32x8, 4x4x4_16b (f16, bf16) and 16x16x4_f32: confirmed by
         AMD's amd_matrix_instruction_calculator (CDNA2/CDNA3 data; the layouts
         are the documented CDNA3 ones), and by composable_kernel's warp GEMM
         attributes (ABKLane / ABKPerLane).
       16x16x32_f16/_bf16 (gfx950): composable_kernel ck_tile attributes only
         (AMLane 16, ABKLane 4, ABKPerLane 8); this derivation is
         unconfirmed, and no AMD layout table covers CDNA4.
       16x16x32_fp8_fp8, 32x32x16_fp8_fp8, 16x16x32_i8 (gfx942/gfx950): the same
         derivation from composable_kernel (ck_tile f8 attributes: ABKLane 4 resp.
         2, ABKPerLane 8; ck xdlops_gemm i8: k_per_blk 8, 4 input blocks, K
         reduction): 8 consecutive k per lane, bytes k % 8 of the 64-bit pair.
         Not checked against an AMD layout table either.
     C/D[i][j] of block b: with G = 64 / (N * blocks) lane groups, register
       4 * (i / (4G)) + i % 4, lane ((i / 4) % G) * (N * blocks) + b * N + j
       (16x16: register i % 4, lane 16 * (i / 4) + j; 32x32: register
       4 * (i / 8) + i % 4, lane 32 * ((i / 4) % 2) + j; 4x4x4_16b: register i,
       lane 4b + j), as the calculator and composable_kernel give.

   Modifiers (calculator semantics): CBSZ/ABID (multi-block opcodes
   only) make block b read the A data of block (b / 2^CBSZ) * 2^CBSZ + ABID;
   BLGP makes the B element normally in lane L come from another lane (1: L % 32,
   2: 32 + L % 32, 3: (L + 16) % 64, 4..7: 16 * (BLGP - 4) + L % 16). BLGP is
   honoured by 4x4x4_16b on every target and by the single-block f16/bf16/f32
   opcodes on gfx90a only (the calculator's CDNA2 and CDNA3 data); elsewhere a
   non-zero field is reported as unsupported rather than guessed.

   Arithmetic: every product is exact in double precision (f16, bf16, fp8, i8
   and f32 inputs alike); the K products of an element are summed in double in k
   order, then C is added and the sum is rounded once to f32 (round to nearest
   even, denormals kept, overflow to infinity; NaN and infinite inputs follow
   IEEE arithmetic, so inf x 0 gives NaN). The hardware's internal order and
   rounding may differ by an ulp on inputs whose sum is not exact. The i32 MFMA
   sums exactly and wraps to 32 bits. fp8 is E4M3 as sim_fp8_to_f32 decodes it for the target.

   DGEMM (v_mfma_f64_16x16x4_f64, v_mfma_f64_4x4x4_4b_f64; f64 A, B, C, D, one
   double per register pair): A[i][k] of block b in lane (k / KL) * (M * blocks)
   + b * M + i (KL = 1: one double per lane), B the same with j; C/D[i][j] of
   block b in register pair i / G, lane (i % G) * (N * blocks) + b * N + j with
   G = 64 / (N * blocks) (16x16x4: pair i / 4, lane 16 * (i % 4) + j; 4x4x4_4b:
   one pair, lane 16 * i + 4 * b + j). Source: composable_kernel's xdlops_gemm
   attributes for mfma_f64_16x16x4f64 (group_size 1, 4 groups per block, 16
   threads per block, 4 input blocks, k_per_blk 1), which place row i of the
   output in lane group i % 4 and register pair i / 4 (unlike the f32 16x16
   layout). How sure: 16x16x4 medium (composable_kernel is AMD's production DGEMM
   code, but this was not checked against AMD's layout calculator); 4x4x4_4b
   low (derived by the same rule, no table for it was found). Arithmetic: C plus
   the K products in k order, each by a fused multiply-add in f64 (one rounding
   per step); the hardware's internal order is not documented, so sums that are
   not exact may differ by an ulp. CBSZ/ABID apply to the 4-block opcode; BLGP
   (the neg modifier on gfx942/gfx950) is not supported.

   EXEC: the matrix data is cross-lane, so A, B and C are read in all 64 lanes
   whatever EXEC holds; D is written only in the lanes EXEC enables (the library's
   liveness model for a write under a partial EXEC keeps the other lanes).

   Defined bits: an element of D is defined when the A row, the B column (after
   CBSZ/ABID/BLGP) and the C element it is computed from are all defined. With
   WA_SIM_UNDEF_ERRORS, an undefined element written in an active lane is an
   error. Every input is read before any output is written, so D may be C. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

#define MAX_AB_REGS 4u
#define MAX_CD_REGS 16u
#define MAX_ELEMS 512u /* elements of A (or B) over all blocks: 64 lanes x 8 */

/* The shapes of the executed MFMAs come from the ISA table; the block-scaled
   f8f6f4 opcodes are left to the "not executed" path. */
static const wa_mfma_shape *shape_of(unsigned op)
{
    const wa_mfma_shape *s = wa_isa_mfma_shape(op);
    return s && s->input != WA_MFMA_IN_F8F6F4 ? s : NULL;
}

static unsigned format_bits(unsigned format)
{
    if (format == WA_MFMA_IN_F32)
        return 32u;
    return format == WA_MFMA_IN_FP8 || format == WA_MFMA_IN_I8 ? 8u : 16u;
}

/* Element `sub` of a 32-bit input register, as a double (exact for every format). */
static double element(unsigned format, uint32_t word, unsigned sub, wa_target target)
{
    switch (format) {
    case WA_MFMA_IN_F16: return sim_f16_to_f32((uint16_t)(word >> (16 * sub)));
    case WA_MFMA_IN_BF16: return sim_bf16_to_f32((uint16_t)(word >> (16 * sub)));
    case WA_MFMA_IN_FP8: return sim_fp8_to_f32((uint8_t)(word >> (8 * sub)), target);
    case WA_MFMA_IN_I8: return (int8_t)(uint8_t)(word >> (8 * sub));
    default: return sim_f32(word);
    }
}

/* Round to nearest even; beyond the f32 range the C conversion is undefined, so
   overflow to infinity is spelled out (from FLT_MAX + half an ulp up). */
static float to_f32(double v)
{
    if (fabs(v) >= 0x1.ffffffp+127)
        return v < 0 ? -INFINITY : INFINITY;
    return (float)v;
}

/* The lane whose B data replaces lane `lane`'s under BLGP. */
static unsigned blgp_source(unsigned lane, unsigned blgp)
{
    switch (blgp) {
    case 0: return lane;
    case 1: return lane % 32;
    case 2: return 32 + lane % 32;
    case 3: return (lane + 16) % 64;
    default: return 16 * (blgp - 4) + lane % 16;
    }
}

/* One operand's registers, copied so that D may overwrite C afterwards. */
typedef struct reg_image {
    uint32_t v[MAX_CD_REGS][SIM_LANES];
    uint64_t def[MAX_CD_REGS];
} reg_image;

static int read_regs(sim_ctx *c, unsigned k, unsigned nregs, reg_image *img)
{
    for (unsigned r = 0; r < nregs; r++) {
        const sim_vec *p = sim_vec_reg(c, k, r, 0);
        if (!p)
            return 0;
        memcpy(img->v[r], p->v, sizeof(p->v));
        img->def[r] = p->def;
    }
    return 1;
}

/* A or B of every block as a dense [block][row or column][k] array of values and
   defined flags, read from the lanes the layout (and CBSZ/ABID or BLGP) names. */
static void gather(const wa_mfma_shape *s, const reg_image *img, unsigned rows, unsigned cbsz,
                   unsigned abid, unsigned blgp, wa_target target, double *val, uint8_t *def)
{
    unsigned bits = format_bits(s->input), per_reg = 32u / bits;
    unsigned per_lane = (unsigned)s->k * rows * s->blocks / SIM_LANES;
    for (unsigned b = 0; b < s->blocks; b++) {
        unsigned src_block = (b >> cbsz << cbsz) + abid;
        for (unsigned x = 0; x < rows; x++)
            for (unsigned kk = 0; kk < s->k; kk++) {
                unsigned lane = (kk / per_lane) * (rows * s->blocks) + src_block * rows + x;
                unsigned e = kk % per_lane, reg = e / per_reg;
                lane = blgp_source(lane, blgp);
                size_t at = ((size_t)b * rows + x) * s->k + kk;
                val[at] = element(s->input, img->v[reg][lane], e % per_reg, target);
                def[at] = (uint8_t)(img->def[reg] >> lane & 1u);
            }
    }
}

static void op_mfma(sim_ctx *c)
{
    const wa_mfma_shape *s = shape_of(c->in->op);
    const wa_mods *mods = &c->in->mods;
    wa_target target = c->sim->target;
    const char *mn = c->info->mnemonic;
    if (!s) {
        sim_fail(c, WA_E_INTERNAL, "%s has no MFMA shape", mn);
        return;
    }
    if ((mods->cbsz || mods->abid) && s->blocks == 1) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: cbsz/abid apply to multi-block MFMAs only", mn);
        return;
    }
    if (mods->blgp && !(s->blgp_targets & WA_TARGET_BIT(target))) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: blgp:%u is not supported on %s", mn, mods->blgp,
                 wa_target_name(target));
        return;
    }
    if (mods->op_sel || mods->op_sel_hi) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s takes no op_sel/op_sel_hi", mn);
        return;
    }
    /* the validator keeps these in range; checked again because they index lanes */
    if (mods->cbsz > 7 || mods->blgp > 7 || mods->abid >= 1u << mods->cbsz ||
        mods->abid >= s->blocks) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: cbsz:%u abid:%u blgp:%u out of range", mn, mods->cbsz,
                 mods->abid, mods->blgp);
        return;
    }
    unsigned per_reg = 32u / format_bits(s->input);
    unsigned n_ab = (unsigned)s->k * s->m * s->blocks / SIM_LANES / per_reg;
    unsigned n_cd = (unsigned)s->m * s->n * s->blocks / SIM_LANES;
    if (sim_opnd_count(c, 1) != n_ab || sim_opnd_count(c, 2) != n_ab ||
        sim_opnd_count(c, 0) != n_cd || n_ab > MAX_AB_REGS || n_cd > MAX_CD_REGS) {
        sim_fail(c, WA_E_INTERNAL, "%s: operand sizes do not match its shape", mn);
        return;
    }

    /* read every input first (all lanes: the data is cross-lane) */
    reg_image a, b, cimg;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    memset(&cimg, 0, sizeof(cimg));
    if (!read_regs(c, 1, n_ab, &a) || !read_regs(c, 2, n_ab, &b))
        return;
    const wa_operand *src_c = &c->in->ops[3];
    if (src_c->kind == WA_OPND_IMM || src_c->kind == WA_OPND_FIMM) {
        uint32_t bits;
        if (!sim_imm_bits(c, 3, &bits)) {
            sim_fail(c, WA_E_INTERNAL, "%s: srcC immediate cannot be encoded", mn);
            return;
        }
        for (unsigned r = 0; r < n_cd; r++) {
            for (unsigned l = 0; l < SIM_LANES; l++)
                cimg.v[r][l] = bits;
            cimg.def[r] = SIM_ALL_LANES;
        }
    } else if (!read_regs(c, 3, n_cd, &cimg)) {
        return;
    }

    double a_val[MAX_ELEMS], b_val[MAX_ELEMS];
    uint8_t a_def[MAX_ELEMS], b_def[MAX_ELEMS];
    gather(s, &a, s->m, mods->cbsz, mods->abid, 0, target, a_val, a_def);
    gather(s, &b, s->n, 0, 0, mods->blgp, target, b_val, b_def);

    /* D in register image form */
    uint32_t out[MAX_CD_REGS][SIM_LANES];
    uint64_t out_def[MAX_CD_REGS];
    memset(out, 0, sizeof(out));
    memset(out_def, 0, sizeof(out_def));
    unsigned groups = SIM_LANES / ((unsigned)s->n * s->blocks);
    for (unsigned blk = 0; blk < s->blocks; blk++)
        for (unsigned i = 0; i < s->m; i++)
            for (unsigned j = 0; j < s->n; j++) {
                unsigned reg = 4 * (i / (4 * groups)) + i % 4;
                unsigned lane = ((i / 4) % groups) * (s->n * s->blocks) + blk * s->n + j;
                const double *ar = &a_val[((size_t)blk * s->m + i) * s->k];
                const double *bc = &b_val[((size_t)blk * s->n + j) * s->k];
                const uint8_t *ad = &a_def[((size_t)blk * s->m + i) * s->k];
                const uint8_t *bd = &b_def[((size_t)blk * s->n + j) * s->k];
                double acc = 0.0;
                int defined = (int)(cimg.def[reg] >> lane & 1u);
                for (unsigned kk = 0; kk < s->k; kk++) {
                    acc += ar[kk] * bc[kk];
                    defined &= ad[kk] & bd[kk];
                }
                uint32_t cw = cimg.v[reg][lane];
                if (s->input == WA_MFMA_IN_I8) {
                    acc += (double)(int32_t)cw;
                    out[reg][lane] = (uint32_t)(int64_t)acc; /* exact, then wraps */
                } else {
                    acc += (double)sim_f32(cw);
                    out[reg][lane] = sim_f32_bits(to_f32(acc));
                }
                if (defined)
                    out_def[reg] |= 1ull << lane;
            }

    uint64_t exec = sim_exec(c);
    if (c->sim->opts.flags & WA_SIM_UNDEF_ERRORS)
        for (unsigned r = 0; r < n_cd; r++)
            if (exec & ~out_def[r]) {
                unsigned lane = 0;
                while (!((exec & ~out_def[r]) >> lane & 1u))
                    lane++;
                sim_fail(c, WA_E_SIM_FAULT,
                         "%s computes register %u of vdst in lane %u from matrix elements that "
                         "hold no defined value", mn, r, lane);
                return;
            }
    /* check every destination register before writing any */
    sim_vec *d[MAX_CD_REGS];
    for (unsigned r = 0; r < n_cd; r++)
        if (!(d[r] = sim_vec_reg(c, 0, r, 1)))
            return;
    for (unsigned r = 0; r < n_cd; r++) {
        for (unsigned l = 0; l < SIM_LANES; l++)
            if (exec >> l & 1u)
                d[r]->v[l] = out[r][l];
        d[r]->def = (d[r]->def & ~exec) | (out_def[r] & exec);
    }
}

/* One operand of doubles: register pairs 2p, 2p + 1 of `img` in lane l. */
static double pair_value(const reg_image *img, unsigned p, unsigned l)
{
    uint64_t b = (uint64_t)img->v[2 * p + 1][l] << 32 | img->v[2 * p][l];
    double d;
    memcpy(&d, &b, sizeof(d));
    return d;
}

static void op_dgemm(sim_ctx *c)
{
    const wa_mfma_shape *s = shape_of(c->in->op);
    const wa_mods *mods = &c->in->mods;
    const char *mn = c->info->mnemonic;
    if ((mods->cbsz || mods->abid) && s->blocks == 1) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: cbsz/abid apply to multi-block MFMAs only", mn);
        return;
    }
    if (mods->blgp || mods->op_sel || mods->op_sel_hi) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: blgp (neg) and op_sel are not supported", mn);
        return;
    }
    if (mods->cbsz > 7 || mods->abid >= 1u << mods->cbsz || mods->abid >= s->blocks) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: cbsz:%u abid:%u out of range", mn, mods->cbsz, mods->abid);
        return;
    }
    unsigned per_lane_a = (unsigned)s->k * s->m * s->blocks / SIM_LANES;
    unsigned per_lane_b = (unsigned)s->k * s->n * s->blocks / SIM_LANES;
    unsigned n_cd = 2u * s->m * s->n * s->blocks / SIM_LANES;
    if (sim_opnd_count(c, 1) != 2 * per_lane_a || sim_opnd_count(c, 2) != 2 * per_lane_b ||
        sim_opnd_count(c, 0) != n_cd || 2 * per_lane_a > MAX_CD_REGS || n_cd > MAX_CD_REGS) {
        sim_fail(c, WA_E_INTERNAL, "%s: operand sizes do not match its shape", mn);
        return;
    }
    reg_image a, b, cimg;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    memset(&cimg, 0, sizeof(cimg));
    if (!read_regs(c, 1, 2 * per_lane_a, &a) || !read_regs(c, 2, 2 * per_lane_b, &b))
        return;
    const wa_operand *src_c = &c->in->ops[3];
    if (src_c->kind == WA_OPND_IMM || src_c->kind == WA_OPND_FIMM) {
        /* an integer constant is the 64-bit integer, a float one the double */
        int d0, d1;
        uint32_t lo = sim_read_s(c, 3, 0, &d0), hi = sim_read_s(c, 3, 1, &d1);
        for (unsigned r = 0; r < n_cd; r++) {
            for (unsigned l = 0; l < SIM_LANES; l++)
                cimg.v[r][l] = r % 2 ? hi : lo;
            cimg.def[r] = SIM_ALL_LANES;
        }
    } else if (!read_regs(c, 3, n_cd, &cimg)) {
        return;
    }
    uint32_t out[MAX_CD_REGS][SIM_LANES];
    uint64_t out_def[MAX_CD_REGS];
    memset(out, 0, sizeof(out));
    memset(out_def, 0, sizeof(out_def));
    unsigned groups = SIM_LANES / ((unsigned)s->n * s->blocks);
    for (unsigned blk = 0; blk < s->blocks; blk++) {
        unsigned a_blk = (blk >> mods->cbsz << mods->cbsz) + mods->abid;
        for (unsigned i = 0; i < s->m; i++)
            for (unsigned j = 0; j < s->n; j++) {
                unsigned pair = i / groups;
                unsigned lane = (i % groups) * (s->n * s->blocks) + blk * s->n + j;
                double acc = pair_value(&cimg, pair, lane);
                int defined = (int)((cimg.def[2 * pair] & cimg.def[2 * pair + 1]) >> lane & 1u);
                for (unsigned kk = 0; kk < s->k; kk++) {
                    unsigned la = (kk / per_lane_a) * (s->m * s->blocks) + a_blk * s->m + i;
                    unsigned lb = (kk / per_lane_b) * (s->n * s->blocks) + blk * s->n + j;
                    unsigned pa = kk % per_lane_a, pb = kk % per_lane_b;
                    acc = fma(pair_value(&a, pa, la), pair_value(&b, pb, lb), acc);
                    defined &= (int)((a.def[2 * pa] & a.def[2 * pa + 1]) >> la & 1u);
                    defined &= (int)((b.def[2 * pb] & b.def[2 * pb + 1]) >> lb & 1u);
                }
                uint64_t bits;
                memcpy(&bits, &acc, sizeof(bits));
                out[2 * pair][lane] = (uint32_t)bits;
                out[2 * pair + 1][lane] = (uint32_t)(bits >> 32);
                if (defined) {
                    out_def[2 * pair] |= 1ull << lane;
                    out_def[2 * pair + 1] |= 1ull << lane;
                }
            }
    }
    uint64_t exec = sim_exec(c);
    if (c->sim->opts.flags & WA_SIM_UNDEF_ERRORS)
        for (unsigned r = 0; r < n_cd; r++)
            if (exec & ~out_def[r]) {
                sim_fail(c, WA_E_SIM_FAULT,
                         "%s computes register %u of vdst from matrix elements that hold no "
                         "defined value", mn, r);
                return;
            }
    sim_vec *d[MAX_CD_REGS];
    for (unsigned r = 0; r < n_cd; r++)
        if (!(d[r] = sim_vec_reg(c, 0, r, 1)))
            return;
    for (unsigned r = 0; r < n_cd; r++) {
        for (unsigned l = 0; l < SIM_LANES; l++)
            if (exec >> l & 1u)
                d[r]->v[l] = out[r][l];
        d[r]->def = (d[r]->def & ~exec) | (out_def[r] & exec);
    }
}

sim_fn sim_mfma_fn(unsigned op)
{
    const wa_mfma_shape *s = shape_of(op);
    if (!s)
        return NULL;
    return s->input == WA_MFMA_IN_F64 ? op_dgemm : op_mfma;
}

const char *sim_mfma_why_not(unsigned op)
{
    if (op < WA_OP_COUNT_ && (wa_isa_get(op)->flags & WA_IF_F8F6F4))
        return "block-scaled f8/f6/f4 MFMA: the scale and format encodings are not modelled";
    return NULL;
}
