/* bench/gemm_gen.h — generator of GEMM-like kernels for the allocation benchmark.

   Builds, with the public builder API only, a kernel that looks like the GEMM
   kernels a tile-based code generator emits for gfx942: kernel arguments loaded
   from the kernarg pointer, buffer resource descriptors (SRDs) in SGPR quads,
   lane-id address math, a software-pipelined K loop (buffer_load_dwordx4 into
   VGPR quads, prefetched one step ahead, ds_write_b128 to LDS, s_barrier,
   ds_read_b64 of the MFMA operands, chains of v_mfma_f32_16x16x16_f16 on 16
   accumulator quads) and an epilogue that stores the accumulators.

   Every register except the ABI inputs (s[0:1], the workgroup id SGPR, v0) is
   virtual: the kernel exists to be analysed and allocated. The result passes
   wa_program_validate(); waits and barriers are plausible, hazards are not
   mitigated.

   Two shapes:
     one_loop    one loop whose body is unrolled until the kernel reaches the
                 requested size (three blocks in all);
     many_loops  a sequence of short loops (one loop body block and one block
                 between loops, about `block_size` instructions per block on
                 average), with accumulators, addresses and the prefetched
                 quads flowing from loop to loop and values defined before
                 loop k that are used only after loop k+n.

   The output depends only on the options (same seed, same kernel). Sizes are
   approximate; the generator reports what it built. */
#ifndef WAVEASM_BENCH_GEMM_GEN_H
#define WAVEASM_BENCH_GEMM_GEN_H

#include <stdint.h>

#include <waveasm/waveasm.h>

typedef enum gemm_gen_shape {
    GEMM_GEN_ONE_LOOP = 0,
    GEMM_GEN_MANY_LOOPS = 1
} gemm_gen_shape;
#define GEMM_GEN_SHAPE_COUNT 2

#define GEMM_GEN_COMMENTS 0x1u /* a comment line before each section and each loop */

typedef struct gemm_gen_options {
    unsigned version;        /* GEMM_GEN_OPTIONS_VERSION */
    gemm_gen_shape shape;
    unsigned instructions;   /* target number of instructions (at least ~300) */
    uint64_t seed;
    unsigned block_size;     /* many_loops: average instructions per block; 0 = 30 */
    unsigned flags;          /* GEMM_GEN_* */
} gemm_gen_options;
#define GEMM_GEN_OPTIONS_VERSION 1
#define GEMM_GEN_OPTIONS_INIT { GEMM_GEN_OPTIONS_VERSION, GEMM_GEN_ONE_LOOP, 10000, 1, 0, 0 }

/* What was built. */
typedef struct gemm_gen_info {
    unsigned instructions;   /* machine instructions (labels and comments excluded) */
    unsigned items;          /* program items (wa_program_size) */
    unsigned blocks;         /* basic blocks: leaders are item 0, labels and items
                                after a branch */
    unsigned loops;
    unsigned steps;          /* K steps: LDS round trip and one MFMA chain each */
    unsigned mfmas;
    unsigned vregs;          /* virtual registers created */
    unsigned long_lived;     /* values used several loops (or steps) after their def */
} gemm_gen_info;

/* Builds a kernel named "gemm_<shape>" for the context's target into `*out`.
   `info` may be NULL. On failure returns the status of the first failing
   library call (its message is on `ctx`), or WA_E_INVALID for bad options,
   and `*out` is NULL. */
wa_status gemm_gen_build(wa_program **out, gemm_gen_info *info, wa_context *ctx,
                         const gemm_gen_options *opts);

/* "one_loop", "many_loops"; NULL for anything else. */
const char *gemm_gen_shape_name(gemm_gen_shape shape);
/* Returns 0 and sets `*out` for a known name, -1 otherwise. */
int gemm_gen_shape_from_name(gemm_gen_shape *out, const char *name);

#endif
