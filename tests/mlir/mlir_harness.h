/* tests/mlir/mlir_harness.h — runs MLIR kernels end to end for the tests:
   translate with the MLIR front end, compile with the default pipeline,
   assemble the emitted file with llvm-mc (when the build found it), and run
   the result in the simulator on host buffers. */
#ifndef WAVEASM_TESTS_MLIR_HARNESS_H
#define WAVEASM_TESTS_MLIR_HARNESS_H

#include <waveasm/mlir.h>
#include <waveasm/waveasm.h>

#include <stddef.h>
#include <stdint.h>

#define MK_MAX_ARGS 16

typedef struct mk {
    wa_context *ctx;
    wa_program *prog;
    unsigned nargs;
    void *data[MK_MAX_ARGS];
    size_t bytes[MK_MAX_ARGS];
    uint64_t value[MK_MAX_ARGS];
    int bound[MK_MAX_ARGS];
    unsigned sim_flags;     /* added to WA_SIM_TIMING | WA_SIM_HAZARDS */
    unsigned seed;
    int no_assemble;        /* skip llvm-mc (many similar kernels) */
} mk;

/* Prints the context's diagnostics to stderr (for failing checks). */
void mk_print_diags(const wa_context *ctx);

/* Translates `text` (named `name` in locations) and keeps kernel `index`;
   the status of the translation (diagnostics stay on k->ctx). */
/* Starts `k` with a gfx942 context (mk_translate does it for a zeroed `k`). */
void mk_init(mk *k);

wa_status mk_translate(mk *k, const char *text, const char *name, const wa_mlir_options *mo,
                       unsigned index);
/* Reads tests/mlir/<file> and translates it. */
wa_status mk_translate_file(mk *k, const char *file, const wa_mlir_options *mo, unsigned index);
/* Default pipeline, then the emitted assembly through llvm-mc. 0 on success
   (a failed check is recorded otherwise). */
int mk_compile(mk *k);
/* mk_translate_file + mk_compile; 0 on success. */
int mk_load(mk *k, const char *file, const wa_mlir_options *mo);
int mk_load_text(mk *k, const char *text, const char *name, const wa_mlir_options *mo);

/* Arguments, by name ("arg0", "arg0_size0", ...: docs/mlir.md, kernel ABI):
   a buffer bound in place, or a by-value integer. A missing name fails a check. */
void mk_buffer(mk *k, const char *arg, void *data, size_t bytes);
void mk_value(mk *k, const char *arg, uint64_t value);
/* Runs the grid; 0 on success (failed check with the diagnostics otherwise). */
int mk_run(mk *k, unsigned gx, unsigned gy, unsigned gz);
void mk_free(mk *k);

/* Deterministic random numbers (xorshift). */
uint32_t mk_rand(void);
void mk_srand(uint32_t seed);
float mk_randf(void); /* uniform in [-1, 1) */
void *mk_alloc_f32(size_t n, int random);
void *mk_alloc_u32(size_t n, int random);

/* Checks that two float arrays agree within `tol` (relative to max(1, |ref|));
   returns the number of mismatches, reporting the first few. */
unsigned mk_check_f32(const float *got, const float *want, size_t n, double tol,
                      const char *what);
unsigned mk_check_u32(const uint32_t *got, const uint32_t *want, size_t n, const char *what);

/* f16 <-> f32 (round to nearest even). */
uint16_t mk_f32_to_f16(float f);
float mk_f16_to_f32(uint16_t h);

#endif
