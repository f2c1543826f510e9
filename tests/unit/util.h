/* tests/unit/util.h — support code shared by the unit tests: contexts, kernels from
   text, files and the examples directory. Public API only. */
#ifndef WAVEASM_UNIT_UTIL_H
#define WAVEASM_UNIT_UTIL_H

#include <waveasm/waveasm.h>

#include <stddef.h>

#include "check.h"

/* A context for `target` (default options otherwise); aborts the test program if
   creation fails, since nothing else can run. */
wa_context *ut_context_new(wa_target target);

/* Parses `text` (NUL-terminated) as "file.wa"; records a check failure with the
   diagnostics if it does not parse. NULL on failure. */
wa_program *ut_parse(wa_context *ctx, const char *text);

/* Wraps `body` (instruction lines, each ending in '\n') into a kernel:
       line 1  .kernel t
       line 2    .target <target>
       line 3+   body
   then ".end_kernel". The first body line is line 3. Caller frees with free(). */
char *ut_kernel_text(const char *target, const char *body);
#define UT_BODY_LINE 3u

/* Parses ut_kernel_text(target, body) into *out (NULL on failure) and returns the
   parser's status; the diagnostics stay on `ctx`. */
wa_status ut_parse_body(wa_program **out, wa_context *ctx, const char *target, const char *body);

/* Parses the wrapped body (which must parse; a check fails otherwise) and
   validates it. Returns the validator's status (WA_E_PARSE if parsing failed);
   the program is destroyed, the diagnostics stay on `ctx`. */
wa_status ut_validate_body(wa_context *ctx, const char *target, const char *body,
                           unsigned *out_errors);

/* Prints with default options; NULL (and a failed check) on error. wa_free() it. */
char *ut_print(const wa_program *prog);
/* Prints with the given WA_PRINT_* flags. */
char *ut_print_flags(const wa_program *prog, unsigned flags);

/* Reads a whole file into a malloc'd buffer of exactly *len bytes (not
   NUL-terminated beyond that unless `nul` is set). NULL if unreadable. */
char *ut_read_file(const char *path, size_t *len, int nul);

/* The examples directory (set by CMake) and the sorted list of its *.wa files as
   full paths. Free the list with ut_free_list(). Returns the count. */
const char *ut_examples_dir(void);
unsigned ut_list_examples(char ***out);
void ut_free_list(char **list, unsigned n);

/* Heap copy of a string. */
char *ut_strdup(const char *s);

/* A growing text buffer for kernels written by the tests: ut_tb_printf appends
   (aborting the test program when memory runs out), ut_tb_free releases and
   empties it. Start from `ut_tb t = { 0 };`. */
typedef struct ut_tb {
    char *s;
    size_t n, cap;
} ut_tb;
void ut_tb_printf(ut_tb *b, const char *fmt, ...) UT_PRINTF(2, 3);
void ut_tb_free(ut_tb *b);

/* Log lines collected from a context's log hook (wa_context_options.log_fn =
   ut_log_collect, log_user = a ut_log_lines). Lines beyond the buffer are
   counted but not kept. */
typedef struct ut_log_lines {
    unsigned n;
    char text[8192];
} ut_log_lines;
void ut_log_collect(const char *line, void *user);
/* A context whose log hook collects into `lines`, with the debug switches in
   `env` (NULL-terminated names such as "WAVE_DEBUG_REGALLOC") set while it is
   made. Aborts the test program if creation fails. */
wa_context *ut_context_logging(wa_target target, ut_log_lines *lines, const char *const *env);

#endif
