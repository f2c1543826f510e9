/* lib/sim/mfma.c — MFMA semantics: D = A x B + C per block, with the hardware's
   lane/register layouts.

   The ISA table gives every MFMA's block shape (M x N x K), its number of
   blocks, its input format and the targets that honour BLGP (wa_isa_mfma_shape);
   one generic routine does the rest (dense, sparse and f8f6f4 alike). The xf32
   MFMAs (gfx942) are not executed: how the hardware reduces f32 inputs to xf32
   is not documented.

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
       Every other dense shape (the multi-block f32/f16/bf16/i8 opcodes, gfx90a's
         old bf16 ones, the bf8 and mixed fp8/bf8 ones, gfx950's doubled-K ones)
         follows the same rule; for the ones the calculator covers (CDNA2/CDNA3)
         it is the calculator's layout, the gfx950 ones are unconfirmed.
       f8f6f4 (gfx950): KL = 32 consecutive k per lane, element e in bits
         [b*e, b*e + b) of the lane's registers as one bit string (b = 8, 6 or
         4: a 6-bit element may straddle two registers); cbsz gives A's format
         and blgp B's (0 fp8 E4M3, 1 bf8 E5M2, 2 fp6 E2M3, 3 bf6 E3M2, 4 fp4 E2M1,
         the OCP formats; 5..7 are refused). The scaled forms multiply every
         element of a lane by 2^(s - 127), s the E8M0 byte op_sel[i] +
         2 * op_sel_hi[i] of that lane's scale VGPR (0xFF: NaN): a lane's 32
         elements are one scale block. From composable_kernel's gfx950 attributes
         (k_per_blk 32); unconfirmed against an AMD table.
       SMFMAC (A 2:4 sparse): A's lane holds half of the KL dense positions the
         dense rule gives it; value c lies in group c / 2 of four positions, at
         the position in bits [2c+1:2c] of the lane's index set. The index VGPR
         (operand 3) holds 32 / KL sets of KL bits; with cbsz 0, abid picks the
         set (an abid beyond them is refused), any other cbsz takes set 0 (LLVM's
         AMDGPU dialect documentation of the smfmac intrinsics). vdst is C.
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
   sums exactly and wraps to 32 bits. fp8 is E4M3 as sim_fp8_to_f32 decodes it for
   the target; bf8 is E5M2: FNUZ (bias 16, 0x80 NaN, no infinity) on gfx942, OCP
   (bias 15, IEEE-style infinity and NaN) on gfx950.

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
   not exact may differ by an ulp. CBSZ/ABID apply to the 4-block opcode;
   neg:[a,b,c] (gfx942/gfx950) negates A, B and C; gfx90a's BLGP on f64 is not
   supported.

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

#define MAX_AB_REGS 8u
#define MAX_CD_REGS 32u
#define MAX_ELEMS 2048u /* elements of A (or B) over all blocks: 64 lanes x 32 */

/* Element formats the generic routine reads; the table's wa_mfma_input values,
   plus the f8f6f4 formats cbsz/blgp select (gfx950). */
enum { EF_FP6 = 100, EF_BF6, EF_FP4 };

/* The shapes of the executed MFMAs come from the ISA table; xf32 is left to the
   "not executed" path. */
static const wa_mfma_shape *shape_of(unsigned op)
{
    const wa_mfma_shape *s = wa_isa_mfma_shape(op);
    return s && s->input != WA_MFMA_IN_XF32 ? s : NULL;
}

static unsigned format_bits(unsigned format)
{
    switch (format) {
    case WA_MFMA_IN_F32: return 32u;
    case WA_MFMA_IN_FP8: case WA_MFMA_IN_BF8: case WA_MFMA_IN_I8: return 8u;
    case EF_FP6: case EF_BF6: return 6u;
    case EF_FP4: return 4u;
    default: return 16u;
    }
}

/* A small float with `eb` exponent and `mb` mantissa bits and bias `bias`; kind
   0: no NaN or infinity (fp6, bf6, fp4), 1: IEEE-like (all-ones exponent is inf
   or NaN), 2: only S.1111.111 is NaN (E4M3FN), 3: only the negative-zero code is
   NaN (FNUZ). Exact in double. */
static double minifloat(uint32_t v, unsigned eb, unsigned mb, int bias, int kind)
{
    unsigned man = v & ((1u << mb) - 1u), exp = (v >> mb) & ((1u << eb) - 1u);
    unsigned sign = (v >> (eb + mb)) & 1u;
    if (kind == 3 && sign && !exp && !man)
        return NAN;
    if (kind == 2 && exp == (1u << eb) - 1u && man == (1u << mb) - 1u)
        return NAN;
    if (kind == 1 && exp == (1u << eb) - 1u)
        return man ? NAN : sign ? -INFINITY : INFINITY;
    double m = exp ? 1.0 + ldexp((double)man, -(int)mb) : ldexp((double)man, -(int)mb);
    double f = ldexp(m, (exp ? (int)exp : 1) - bias);
    return sign ? -f : f;
}

/* One element's bits as a double (exact for every format). fp8/bf8 are E4M3/E5M2:
   the FNUZ variants (bias 8/16) on gfx942, the OCP ones (bias 7/15) on gfx950. */
static double element(unsigned format, uint32_t v, wa_target target)
{
    int ocp = target == WA_TARGET_GFX950;
    switch (format) {
    case WA_MFMA_IN_F16: return sim_f16_to_f32((uint16_t)v);
    case WA_MFMA_IN_BF16: return sim_bf16_to_f32((uint16_t)v);
    case WA_MFMA_IN_FP8: return sim_fp8_to_f32((uint8_t)v, target);
    case WA_MFMA_IN_BF8: return minifloat(v, 5, 2, ocp ? 15 : 16, ocp ? 1 : 3);
    case WA_MFMA_IN_I8: return (int8_t)(uint8_t)v;
    case EF_FP6: return minifloat(v, 2, 3, 1, 0);
    case EF_BF6: return minifloat(v, 3, 2, 3, 0);
    case EF_FP4: return minifloat(v, 2, 1, 1, 0);
    default: return sim_f32(v);
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

/* Element e of `bits` bits of a lane: bits [bits*e, bits*e + bits) of the lane's
   registers taken as one little-endian bit string (a 6-bit element may straddle
   two registers); *def is whether every register it touches is defined. */
static uint32_t lane_bits(const reg_image *img, unsigned lane, unsigned bits, unsigned e, int *def)
{
    unsigned off = bits * e, r = off / 32, sh = off % 32;
    uint64_t w = img->v[r][lane];
    *def = (int)(img->def[r] >> lane & 1u);
    if (sh + bits > 32) {
        w |= (uint64_t)img->v[r + 1][lane] << 32;
        *def &= (int)(img->def[r + 1] >> lane & 1u);
    }
    return bits == 32 ? (uint32_t)(w >> sh) : (uint32_t)(w >> sh) & ((1u << bits) - 1u);
}

/* A or B of every block as a dense [block][row or column][k] array of values and
   defined flags, read from the lanes the layout (and CBSZ/ABID or BLGP) names.
   `scale` (f8f6f4) multiplies every element of a lane by the E8M0 byte `sel` of
   that lane's scale register. */
static void gather(const wa_mfma_shape *s, unsigned format, const reg_image *img, unsigned rows,
                   unsigned cbsz, unsigned abid, unsigned blgp, wa_target target,
                   const reg_image *scale, unsigned sel, double *val, uint8_t *def)
{
    unsigned bits = format_bits(format);
    unsigned per_lane = (unsigned)s->k * rows * s->blocks / SIM_LANES;
    for (unsigned b = 0; b < s->blocks; b++) {
        unsigned src_block = (b >> cbsz << cbsz) + abid;
        for (unsigned x = 0; x < rows; x++)
            for (unsigned kk = 0; kk < s->k; kk++) {
                unsigned lane = (kk / per_lane) * (rows * s->blocks) + src_block * rows + x;
                lane = blgp_source(lane, blgp);
                size_t at = ((size_t)b * rows + x) * s->k + kk;
                int d;
                val[at] = element(format, lane_bits(img, lane, bits, kk % per_lane, &d), target);
                if (scale) {
                    unsigned e8 = scale->v[0][lane] >> (8 * sel) & 0xFFu;
                    val[at] *= e8 == 0xFF ? NAN : ldexp(1.0, (int)e8 - 127);
                    d &= (int)(scale->def[0] >> lane & 1u);
                }
                def[at] = (uint8_t)d;
            }
    }
}

/* SMFMAC: A is 2:4 sparse. A lane holding row i and the KL dense positions
   [q*KL, q*KL + KL) of A (the dense layout) holds KL/2 values; value c sits in
   group c/2 of four positions, at the position given by bits [2c+1:2c] of the
   lane's index set. The index VGPR holds 32/KL sets of KL bits; with cbsz 0, abid
   selects the set, otherwise set 0 is used. Gathers A densely (zeros elsewhere). */
static int gather_sparse(const wa_mfma_shape *s, const reg_image *img, const reg_image *idx,
                         unsigned set, wa_target target, double *val, uint8_t *def)
{
    unsigned bits = format_bits(s->input);
    unsigned kl = (unsigned)s->k * s->m / SIM_LANES;
    for (size_t at = 0; at < (size_t)s->m * s->k; at++) {
        val[at] = 0.0;
        def[at] = 1;
    }
    for (unsigned x = 0; x < s->m; x++)
        for (unsigned q = 0; q < s->k / kl; q++) {
            unsigned lane = q * s->m + x;
            uint32_t sel = idx->v[0][lane] >> (kl * set);
            int idef = (int)(idx->def[0] >> lane & 1u);
            for (unsigned c = 0; c < kl / 2; c++) {
                unsigned kk = q * kl + 4 * (c / 2) + (sel >> (2 * c) & 3u);
                int d;
                size_t at = (size_t)x * s->k + kk;
                val[at] += element(s->input, lane_bits(img, lane, bits, c, &d), target);
                def[at] &= (uint8_t)(d & idef);
            }
            /* a position no value names is 0, defined as far as the indices are */
            for (unsigned kk = q * kl; kk < q * kl + kl; kk++)
                def[(size_t)x * s->k + kk] &= (uint8_t)idef;
        }
    return 1;
}

/* The f8f6f4 element format of cbsz/blgp code `code`: 0 fp8, 1 bf8, 2 fp6, 3 bf6,
   4 fp4; 0 for the reserved codes. */
static unsigned f8f6f4_format(unsigned code)
{
    static const unsigned f[5] = { WA_MFMA_IN_FP8, WA_MFMA_IN_BF8, EF_FP6, EF_BF6, EF_FP4 };
    return code < 5 ? f[code] : 0u;
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
    unsigned fa = s->input, fb = s->input_b;
    unsigned cbsz = mods->cbsz, abid = mods->abid, blgp = mods->blgp;
    int scaled = s->input == WA_MFMA_IN_F8F6F4 && c->info->num_operands == 6;
    unsigned index_set = 0;
    if (s->input == WA_MFMA_IN_F8F6F4) {
        /* cbsz and blgp are the formats of A and B here, not broadcast controls */
        fa = f8f6f4_format(mods->cbsz);
        fb = f8f6f4_format(mods->blgp);
        if (!fa || !fb) {
            sim_fail(c, WA_E_UNSUPPORTED, "%s: cbsz:%u blgp:%u name a reserved format (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4)",
                     mn, mods->cbsz, mods->blgp);
            return;
        }
        cbsz = abid = blgp = 0;
        if (!scaled && (mods->op_sel || mods->op_sel_hi)) {
            sim_fail(c, WA_E_UNSUPPORTED, "%s takes no op_sel/op_sel_hi", mn);
            return;
        }
    } else if (s->sparse) {
        unsigned kl = (unsigned)s->k * s->m / SIM_LANES, sets = 32u / kl;
        if (mods->cbsz == 0 && mods->abid >= sets) {
            sim_fail(c, WA_E_UNSUPPORTED, "%s: abid:%u names no index set (the index VGPR holds %u)",
                     mn, mods->abid, sets);
            return;
        }
        index_set = mods->cbsz == 0 ? mods->abid : 0;
        cbsz = abid = blgp = 0;
    } else {
        if ((mods->cbsz || mods->abid) && s->blocks == 1) {
            sim_fail(c, WA_E_UNSUPPORTED, "%s: cbsz/abid apply to multi-block MFMAs only", mn);
            return;
        }
        if (mods->blgp && !(s->blgp_targets & WA_TARGET_BIT(target))) {
            sim_fail(c, WA_E_UNSUPPORTED, "%s: blgp:%u is not supported on %s", mn, mods->blgp,
                     wa_target_name(target));
            return;
        }
        /* the validator keeps these in range; checked again because they index lanes */
        if (mods->cbsz > 7 || mods->blgp > 7 || mods->abid >= 1u << mods->cbsz ||
            mods->abid >= s->blocks) {
            sim_fail(c, WA_E_UNSUPPORTED, "%s: cbsz:%u abid:%u blgp:%u out of range", mn,
                     mods->cbsz, mods->abid, mods->blgp);
            return;
        }
    }
    if ((!scaled && (mods->op_sel || mods->op_sel_hi)) || mods->neg) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s takes no op_sel/op_sel_hi/neg", mn);
        return;
    }
    unsigned n_a = (unsigned)s->k * s->m * s->blocks / SIM_LANES * format_bits(fa) / 32u;
    unsigned n_b = (unsigned)s->k * s->n * s->blocks / SIM_LANES * format_bits(fb) / 32u;
    if (s->sparse)
        n_a /= 2;
    unsigned n_cd = (unsigned)s->m * s->n * s->blocks / SIM_LANES;
    if (sim_opnd_count(c, 1) != n_a || sim_opnd_count(c, 2) != n_b ||
        sim_opnd_count(c, 0) != n_cd || n_a > MAX_AB_REGS || n_b > MAX_AB_REGS ||
        n_cd > MAX_CD_REGS) {
        sim_fail(c, WA_E_INTERNAL, "%s: operand sizes do not match its shape", mn);
        return;
    }

    /* read every input first (all lanes: the data is cross-lane); SMFMAC
       accumulates into vdst, and its operand 3 is the index VGPR */
    wa_context *ctx = c->sim->ctx;
    reg_image *a = wa_mem_calloc(ctx, 6, sizeof(*a)), *b, *cimg, *sa, *sb, *ix;
    if (!a) {
        sim_fail(c, WA_E_NOMEM, "%s: out of memory", mn);
        return;
    }
    b = a + 1;
    cimg = a + 2;
    sa = a + 3;
    sb = a + 4;
    ix = a + 5;
    double *a_val = wa_mem_calloc(ctx, 2 * MAX_ELEMS, sizeof(double));
    uint8_t *a_def = wa_mem_calloc(ctx, 2 * MAX_ELEMS, 1);
    if (!a_val || !a_def) {
        sim_fail(c, WA_E_NOMEM, "%s: out of memory", mn);
        goto out;
    }
    double *b_val = a_val + MAX_ELEMS;
    uint8_t *b_def = a_def + MAX_ELEMS;
    if (!read_regs(c, 1, n_a, a) || !read_regs(c, 2, n_b, b))
        goto out;
    unsigned c_opnd = s->sparse ? 0u : 3u;
    const wa_operand *src_c = &c->in->ops[c_opnd];
    if (src_c->kind == WA_OPND_IMM || src_c->kind == WA_OPND_FIMM) {
        uint32_t bits;
        if (!sim_imm_bits(c, c_opnd, &bits)) {
            sim_fail(c, WA_E_INTERNAL, "%s: srcC immediate cannot be encoded", mn);
            goto out;
        }
        for (unsigned r = 0; r < n_cd; r++) {
            for (unsigned l = 0; l < SIM_LANES; l++)
                cimg->v[r][l] = bits;
            cimg->def[r] = SIM_ALL_LANES;
        }
    } else if (!read_regs(c, c_opnd, n_cd, cimg)) {
        goto out;
    }
    if (scaled && (!read_regs(c, 4, 1, sa) || !read_regs(c, 5, 1, sb)))
        goto out;
    if (s->sparse && !read_regs(c, 3, 1, ix))
        goto out;

    unsigned sel_a = (mods->op_sel & 1u) | (mods->op_sel_hi & 1u) << 1;
    unsigned sel_b = (mods->op_sel >> 1 & 1u) | (mods->op_sel_hi >> 1 & 1u) << 1;
    if (s->sparse)
        gather_sparse(s, a, ix, index_set, target, a_val, a_def);
    else
        gather(s, fa, a, s->m, cbsz, abid, 0, target, scaled ? sa : NULL, sel_a, a_val, a_def);
    gather(s, fb, b, s->n, 0, 0, blgp, target, scaled ? sb : NULL, sel_b, b_val, b_def);

    /* D in register image form */
    reg_image *out = sa; /* the scales are applied: reuse the image */
    memset(out, 0, sizeof(*out));
    unsigned groups = SIM_LANES / ((unsigned)s->n * s->blocks);
    int integer = s->input == WA_MFMA_IN_I8;
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
                int defined = (int)(cimg->def[reg] >> lane & 1u);
                for (unsigned kk = 0; kk < s->k; kk++) {
                    acc += ar[kk] * bc[kk];
                    defined &= ad[kk] & bd[kk];
                }
                uint32_t cw = cimg->v[reg][lane];
                if (integer) {
                    acc += (double)(int32_t)cw;
                    out->v[reg][lane] = (uint32_t)(int64_t)acc; /* exact, then wraps */
                } else {
                    acc += (double)sim_f32(cw);
                    out->v[reg][lane] = sim_f32_bits(to_f32(acc));
                }
                if (defined)
                    out->def[reg] |= 1ull << lane;
            }

    uint64_t exec = sim_exec(c);
    if (c->sim->opts.flags & WA_SIM_UNDEF_ERRORS)
        for (unsigned r = 0; r < n_cd; r++)
            if (exec & ~out->def[r]) {
                unsigned lane = 0;
                while (!((exec & ~out->def[r]) >> lane & 1u))
                    lane++;
                sim_fail(c, WA_E_SIM_FAULT,
                         "%s computes register %u of vdst in lane %u from matrix elements that "
                         "hold no defined value", mn, r, lane);
                goto out;
            }
    /* check every destination register before writing any */
    sim_vec *d[MAX_CD_REGS];
    for (unsigned r = 0; r < n_cd; r++)
        if (!(d[r] = sim_vec_reg(c, 0, r, 1)))
            goto out;
    for (unsigned r = 0; r < n_cd; r++) {
        for (unsigned l = 0; l < SIM_LANES; l++)
            if (exec >> l & 1u)
                d[r]->v[l] = out->v[r][l];
        d[r]->def = (d[r]->def & ~exec) | (out->def[r] & exec);
    }
out:
    wa_mem_free(ctx, a_val);
    wa_mem_free(ctx, a_def);
    wa_mem_free(ctx, a);
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
        sim_fail(c, WA_E_UNSUPPORTED, "%s: blgp and op_sel are not supported", mn);
        return;
    }
    /* neg:[a,b,c] (gfx942/gfx950): negate A, B, C */
    double neg_a = mods->neg & 1u ? -1.0 : 1.0, neg_b = mods->neg & 2u ? -1.0 : 1.0;
    double neg_c = mods->neg & 4u ? -1.0 : 1.0;
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
                double acc = neg_c * pair_value(&cimg, pair, lane);
                int defined = (int)((cimg.def[2 * pair] & cimg.def[2 * pair + 1]) >> lane & 1u);
                for (unsigned kk = 0; kk < s->k; kk++) {
                    unsigned la = (kk / per_lane_a) * (s->m * s->blocks) + a_blk * s->m + i;
                    unsigned lb = (kk / per_lane_b) * (s->n * s->blocks) + blk * s->n + j;
                    unsigned pa = kk % per_lane_a, pb = kk % per_lane_b;
                    acc = fma(neg_a * pair_value(&a, pa, la), neg_b * pair_value(&b, pb, lb), acc);
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
    const wa_mfma_shape *s = wa_isa_mfma_shape(op);
    if (s && s->input == WA_MFMA_IN_XF32)
        return "xf32 MFMA: how the hardware reduces the f32 inputs to xf32 (rounding or "
               "truncation, denormals) is not documented";
    return NULL;
}
