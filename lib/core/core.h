/* lib/core/core.h — internal support shared by every stage: the context, memory
   (allocator hooks, arenas, growable arrays, caller-owned buffers), a string
   builder and diagnostic recording. Not installed. */
#ifndef WAVEASM_CORE_H
#define WAVEASM_CORE_H

#include <stdarg.h>
#include <string.h>
#include <waveasm/context.h>

#if defined(__GNUC__) || defined(__clang__)
#define WA_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define WA_PRINTF(fmt, args)
#endif

/* Index of the lowest set bit of x (x != 0). */
static inline unsigned wa_ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    static const unsigned char debruijn[64] = {
        0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,  62, 55, 59, 36, 53, 51,
        43, 22, 45, 39, 33, 30, 24, 18, 12, 5,  63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21,
        44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6,
    };
    return debruijn[((x & (~x + 1)) * 0x03f79d71b4cb0a89ull) >> 58];
#endif
}

/* Debug switches read once when the context is created (environment). */
#define WA_DEBUG_LIVENESS 0x1u
#define WA_DEBUG_REGALLOC 0x2u
#define WA_DEBUG_ALLOC 0x4u

/* Large temporary blocks kept by the context for the next operation: the pages
   are already mapped, so a JIT host compiling kernel after kernel does not pay
   the kernel's page zeroing every time. */
#define WA_SCRATCH_SLOTS 16
#define WA_SCRATCH_MIN (256u * 1024u)

struct wa_context {
    wa_context_options opts;
    void *scratch[WA_SCRATCH_SLOTS]; /* cached blocks (header first), NULL if empty */
    size_t scratch_bytes;
    unsigned debug;            /* WA_DEBUG_* */
    wa_diag *diags;
    unsigned ndiags, capdiags;
    char **diag_strings;       /* owned copies of messages and file names */
    unsigned nstrings, capstrings;
    wa_diag oom_diag;          /* reported when recording a diagnostic itself fails */
    int oom_pending;
    char *last_error;          /* formatted text of the last diagnostic */
    uint32_t *mnemonic_index;  /* the parser's mnemonic hash, built on first use */
};

/* ---- memory through the context's allocator --------------------------------- */
void *wa_mem_alloc(wa_context *ctx, size_t size);              /* NULL on failure */
void *wa_mem_calloc(wa_context *ctx, size_t n, size_t size);   /* zeroed, overflow-checked */
void *wa_mem_realloc(wa_context *ctx, void *ptr, size_t size);
void wa_mem_free(wa_context *ctx, void *ptr);
char *wa_mem_strdup(wa_context *ctx, const char *s);

/* Makes sure *array has room for `need` elements of `elem` bytes, growing
   geometrically. Returns 0 on success, -1 on allocation failure or overflow
   (the array is then unchanged). */
int wa_grow(wa_context *ctx, void **array, unsigned *cap, unsigned need, size_t elem);
#define WA_GROW(ctx, arr, cap, need) \
    wa_grow((ctx), (void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* Temporary arrays for the duration of one operation. Big blocks come from and
   return to the context's scratch cache; wa_tmp_calloc zeroes. */
void *wa_tmp_alloc(wa_context *ctx, size_t size);
void *wa_tmp_calloc(wa_context *ctx, size_t n, size_t size);
void wa_tmp_free(wa_context *ctx, void *ptr);
void wa_scratch_release(wa_context *ctx);

/* A buffer handed to the caller and released with wa_free(). */
void *wa_user_buffer(wa_context *ctx, size_t size);
/* Resizes such a buffer (NULL: a new one); NULL on failure, the old one intact. */
void *wa_user_buffer_resize(wa_context *ctx, void *buffer, size_t size);

/* Bump allocator: many small objects freed together. */
typedef struct wa_arena_chunk wa_arena_chunk;
typedef struct wa_arena {
    wa_context *ctx;
    wa_arena_chunk *head;
} wa_arena;
void wa_arena_init(wa_arena *arena, wa_context *ctx);
void *wa_arena_alloc(wa_arena *arena, size_t size);   /* 8-byte aligned, NULL on failure */
char *wa_arena_strdup(wa_arena *arena, const char *s);
char *wa_arena_strndup(wa_arena *arena, const char *s, size_t n);
void wa_arena_release(wa_arena *arena);

/* ---- string builder ----------------------------------------------------------- */
typedef struct wa_sb {
    wa_context *ctx;
    char *data;
    size_t len, cap;
    int failed;                /* an allocation failed; contents are truncated */
    int user;                  /* data is a wa_user_buffer (wa_sb_init_user) */
} wa_sb;
void wa_sb_init(wa_sb *sb, wa_context *ctx);
/* For text that goes to the caller: the buffer is one wa_free() takes from the
   start, so wa_sb_finish hands it over without copying it. */
void wa_sb_init_user(wa_sb *sb, wa_context *ctx);
void wa_sb_putn_slow(wa_sb *sb, const char *s, size_t n);
/* Appends n bytes; the contents stay NUL-terminated. Inline: printers call it
   several times per operand. */
static inline void wa_sb_putn(wa_sb *sb, const char *s, size_t n)
{
    if (sb->cap - sb->len > n) {
        memcpy(sb->data + sb->len, s, n);
        sb->len += n;
        sb->data[sb->len] = '\0';
    } else {
        wa_sb_putn_slow(sb, s, n);
    }
}
static inline void wa_sb_putc(wa_sb *sb, char c)
{
    if (sb->cap - sb->len > 1) {
        sb->data[sb->len++] = c;
        sb->data[sb->len] = '\0';
    } else {
        wa_sb_putn_slow(sb, &c, 1);
    }
}
static inline void wa_sb_puts(wa_sb *sb, const char *s) { wa_sb_putn(sb, s, strlen(s)); }
/* Integers without printf: decimal ("%llu", "%lld") and lower-case hex without
   a prefix ("%llx"). */
void wa_sb_put_u64(wa_sb *sb, unsigned long long v);
void wa_sb_put_i64(wa_sb *sb, long long v);
void wa_sb_put_hex(wa_sb *sb, unsigned long long v);
void wa_sb_printf(wa_sb *sb, const char *fmt, ...) WA_PRINTF(2, 3);
void wa_sb_vprintf(wa_sb *sb, const char *fmt, va_list ap) WA_PRINTF(2, 0);
void wa_sb_pad_to(wa_sb *sb, size_t line_start, size_t column);
void wa_sb_free(wa_sb *sb);
/* Moves the contents into a wa_free()-able buffer. WA_E_NOMEM if building failed. */
wa_status wa_sb_finish(wa_sb *sb, char **out, size_t *out_len);

/* ---- diagnostics ---------------------------------------------------------------- */
/* Location of a diagnostic: source file/line/col and instruction tag. */
typedef struct wa_loc {
    const char *file;
    unsigned line, col;
    unsigned tag;
} wa_loc;
#define WA_LOC_NONE ((wa_loc){ NULL, 0, 0, WA_NO_TAG })

void wa_diag_reset(wa_context *ctx);
/* Records an error and returns `status` so callers can `return wa_error(...)`. */
wa_status wa_error(wa_context *ctx, wa_status status, wa_loc loc, const char *fmt, ...)
    WA_PRINTF(4, 5);
wa_status wa_verror(wa_context *ctx, wa_status status, wa_loc loc, const char *fmt, va_list ap)
    WA_PRINTF(4, 0);
void wa_warning(wa_context *ctx, wa_loc loc, const char *fmt, ...) WA_PRINTF(3, 4);
void wa_note(wa_context *ctx, wa_loc loc, const char *fmt, ...) WA_PRINTF(3, 4);
unsigned wa_diag_error_count(const wa_context *ctx);
/* Gives the most recent error a location (file/line/col) it was recorded without.
   Used by the parser when a library call it made fails. */
void wa_diag_relocate_last(wa_context *ctx, wa_loc loc);
/* Convenience for allocation failures. */
wa_status wa_error_nomem(wa_context *ctx);

/* Sends one line to the host's log hook (if any). */
void wa_log(wa_context *ctx, const char *fmt, ...) WA_PRINTF(2, 3);

#endif
