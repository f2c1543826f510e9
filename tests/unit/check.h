/* tests/unit/check.h — a tiny test harness for the C unit tests.

   Each test program defines its cases with UT_SUITE (see the bottom of any
   test_*.c) and links check.c, which provides main():

       test_foo            runs every case
       test_foo NAME...    runs the named cases only
       test_foo --list     prints the case names

   CHECK_* macros record a failure and carry on; REQUIRE_* macros also return
   from the current (void) function, for checks that later code depends on. */
#ifndef WAVEASM_UNIT_CHECK_H
#define WAVEASM_UNIT_CHECK_H

#include <waveasm/waveasm.h>

#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define UT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define UT_PRINTF(fmt, args)
#endif

typedef void (*ut_fn)(void);
typedef struct ut_case {
    const char *name;
    ut_fn fn;
} ut_case;

/* Defined by each test program through UT_SUITE; the list ends with { NULL, NULL }. */
extern const ut_case ut_cases[];

#define UT_CASE(fn) { #fn, fn },
#define UT_SUITE(...) const ut_case ut_cases[] = { __VA_ARGS__ { NULL, NULL } }

/* ---- recording ------------------------------------------------------------------- */

/* Counts one check; returns `ok`. On failure prints "file:line: <message>". */
int ut_check(int ok, const char *file, int line, const char *fmt, ...) UT_PRINTF(4, 5);
/* Adds context to the next failure messages of the current case ("" clears it). */
void ut_context(const char *fmt, ...) UT_PRINTF(1, 2);

int ut_check_int(long long a, long long b, const char *ea, const char *eb, const char *file,
                 int line);
int ut_check_uint(unsigned long long a, unsigned long long b, const char *ea, const char *eb,
                  const char *file, int line);
int ut_check_hex(unsigned long long a, unsigned long long b, const char *ea, const char *eb,
                 const char *file, int line);
int ut_check_str_eq(const char *a, const char *b, const char *ea, const char *eb,
                    const char *file, int line);
int ut_check_contains(const char *hay, const char *needle, const char *ehay, const char *file,
                      int line);
int ut_check_not_contains(const char *hay, const char *needle, const char *ehay,
                          const char *file, int line);
int ut_check_status(wa_status got, wa_status want, const char *expr, const char *file, int line);

#define CHECK(cond) ut_check((cond) != 0, __FILE__, __LINE__, "CHECK(%s) failed", #cond)
#define CHECK_MSG(cond, ...) ut_check((cond) != 0, __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_INT(a, b) \
    ut_check_int((long long)(a), (long long)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_EQ_UINT(a, b) \
    ut_check_uint((unsigned long long)(a), (unsigned long long)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_EQ_HEX(a, b) \
    ut_check_hex((unsigned long long)(a), (unsigned long long)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_STR_EQ(a, b) ut_check_str_eq((a), (b), #a, #b, __FILE__, __LINE__)
#define CHECK_STR_CONTAINS(hay, needle) \
    ut_check_contains((hay), (needle), #hay, __FILE__, __LINE__)
#define CHECK_STR_NOT_CONTAINS(hay, needle) \
    ut_check_not_contains((hay), (needle), #hay, __FILE__, __LINE__)
#define CHECK_STATUS(expr, want) ut_check_status((expr), (want), #expr, __FILE__, __LINE__)
#define CHECK_OK(expr) CHECK_STATUS((expr), WA_OK)

#define REQUIRE(cond) \
    do { if (!CHECK(cond)) return; } while (0)
#define REQUIRE_OK(expr) \
    do { if (!CHECK_OK(expr)) return; } while (0)
#define REQUIRE_STATUS(expr, want) \
    do { if (!CHECK_STATUS((expr), (want))) return; } while (0)

/* ---- diagnostics ------------------------------------------------------------------- */

/* The context's diagnostics, one per line, for failure messages. Static buffer. */
const char *ut_diags_text(const wa_context *ctx);

/* First error diagnostic whose message contains `needle` (NULL if none). */
const wa_diag *ut_find_diag(const wa_context *ctx, const char *needle);

/* Checks that some error diagnostic on `ctx` has status `status`, a message that
   contains every word of `words` ('|'-separated), and the given line, column and
   tag (pass UT_ANY to skip one). Returns 1 if found. */
#define UT_ANY 0xFFFFFFFEu
int ut_check_diag(const wa_context *ctx, wa_status status, const char *words, unsigned line,
                  unsigned col, unsigned tag, const char *file, int fline);
#define CHECK_DIAG(ctx, status, words, line, col, tag) \
    ut_check_diag((ctx), (status), (words), (line), (col), (tag), __FILE__, __LINE__)

/* Checks the context's last diagnostic (wa_context_last_diag) in the same way. */
int ut_check_last_diag(const wa_context *ctx, wa_status status, const char *words,
                       unsigned line, unsigned col, unsigned tag, const char *file, int fline);
#define CHECK_LAST_DIAG(ctx, status, words, line, col, tag) \
    ut_check_last_diag((ctx), (status), (words), (line), (col), (tag), __FILE__, __LINE__)

#endif
