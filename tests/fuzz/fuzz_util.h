/* tests/fuzz/fuzz_util.h — what the fuzz targets share: contexts, the checks that
   end a run with a finding, and the text round trip. Public API only.

   A target is one file with one LLVMFuzzerTestOneInput. The library must never
   crash, leak or trip a sanitizer, whatever the input; a property that fails is
   reported by fz_fail(), which prints what was expected and aborts, so libFuzzer
   saves the input as a crash file. Future front ends (MLIR text, the object
   encoder) get their own fuzz_<name>.c on the same helpers. */
#ifndef WAVEASM_FUZZ_UTIL_H
#define WAVEASM_FUZZ_UTIL_H

#include <waveasm/waveasm.h>

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define FZ_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define FZ_NORETURN __attribute__((noreturn))
#else
#define FZ_PRINTF(fmt, args)
#define FZ_NORETURN
#endif

/* libFuzzer's entry point, declared for -Wmissing-prototypes. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints "fuzz: property failed: <message>" and the context's diagnostics (if
   `ctx` is not NULL), then aborts. */
void fz_fail(wa_context *ctx, const char *fmt, ...) FZ_PRINTF(2, 3) FZ_NORETURN;

#define FZ_REQUIRE(ctx, cond, ...)         \
    do {                                   \
        if (!(cond))                       \
            fz_fail((ctx), __VA_ARGS__);   \
    } while (0)

/* A context with default options for `target`; aborts if that fails. */
wa_context *fz_context(wa_target target);

/* What every failing call must leave behind: a known negative status that is not
   WA_E_INTERNAL (a library bug by definition) nor WA_E_NOMEM (inputs here are
   small), and an error diagnostic with a message for that status on `ctx`.
   `what` names the call in the report. */
void fz_check_failure(wa_context *ctx, wa_status st, const char *what);

/* wa_program_print with `flags` (WA_PRINT_*); any failure is a finding. Free
   with wa_free(). */
char *fz_print(const wa_program *prog, unsigned flags);

/* The text round trip of docs/text-format.md, for any program the library holds:
   with tags and comments, parse(print(p)) succeeds and equals p, and printing it
   again gives the same bytes, and the validator finds as many errors in the copy;
   without them, printing is a fixed point too. Every item also prints alone.
   `what` names the program's origin in the report. */
void fz_round_trip(const wa_program *prog, const char *what);

/* FNV-1a of the input: targets derive options from it, so that a finding
   reproduces from its file alone. */
uint64_t fz_hash(const uint8_t *data, size_t size);

/* Whether the environment variable FUZZ_VERBOSE is set (not "0"): the targets
   then say on stderr why an input stops early. */
int fz_verbose(void);

#endif
