/* tests/toolchain/tc_common.h — code shared by the toolchain test tools:
   single-instruction programs, the assembly spelling of one instruction,
   print/parse round trips, diagnostics as text, a deterministic RNG and
   tab-separated output. Public API only. */
#ifndef WAVEASM_TC_COMMON_H
#define WAVEASM_TC_COMMON_H

#include <waveasm/waveasm.h>

#include <stdio.h>

#if defined(__GNUC__) || defined(__clang__)
#define TC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TC_PRINTF(fmt, args)
#endif

/* Label every branch sample targets; the driver defines it at the top of each
   assembly file it feeds to llvm-mc. */
#define TC_LABEL_NAME "wa_tgt"

/* Targets in a fixed order for loops. */
#define TC_NUM_TARGETS 3
extern const wa_target tc_targets[TC_NUM_TARGETS];

/* Program `name` for `target` holding `label:` (placed first), the instruction
   and s_endpgm. Returns NULL when the builder rejects the instruction; then
   `status` (may be NULL) receives the builder's status. */
wa_program *tc_single_program(wa_context *ctx, wa_target target, wa_opcode op,
                              const wa_operand *ops, unsigned nops, const wa_mods *mods,
                              wa_status *status);
/* Label id TC_LABEL_NAME of programs made by tc_single_program (always 0). */
#define TC_LABEL_ID 0u

/* All diagnostics of the context, joined with " | " (static buffer). */
const char *tc_diags(const wa_context *ctx);

/* Assembly line of the first instruction of a valid program (wa_emit_asm
   output, no tags or comments, leading tab removed). malloc'd, or NULL with a
   reason in `err` when emission fails. */
char *tc_emit_first_instr(const wa_program *prog, char *err, size_t errlen);

/* Text-form spelling of item `index` (no tags/comments). malloc'd or NULL. */
char *tc_print_item(const wa_program *prog, unsigned index);

/* print -> parse -> wa_program_equal -> print again -> identical text.
   Returns 1 on success, else 0 with a reason in `err`. */
int tc_roundtrip(const wa_program *prog, char *err, size_t errlen);

/* wa_disassemble -> wa_program_parse (wrapped in a .kernel) -> wa_encode_program must
   give `code` again. Returns 1 on success, else 0 with a reason in `err`. */
int tc_encode_roundtrip(const wa_program *prog, const unsigned char *code, size_t len, char *err,
                        size_t errlen);

/* xorshift64* with a fixed seed: the same sequence on every machine. */
typedef struct tc_rng {
    uint64_t s;
} tc_rng;
void tc_rng_seed(tc_rng *r, uint64_t seed);
uint32_t tc_rng_u32(tc_rng *r);
/* Uniform in [0, n) (n > 0). */
unsigned tc_rng_below(tc_rng *r, unsigned n);
/* 1 with probability num/den. */
int tc_rng_chance(tc_rng *r, unsigned num, unsigned den);

/* Writes `s` with tabs and newlines replaced by spaces (TSV field). */
void tc_put_field(FILE *f, const char *s);

/* Opens `dir`/`name` for writing; prints a message and returns NULL on error. */
FILE *tc_open_out(const char *dir, const char *name);

#endif
