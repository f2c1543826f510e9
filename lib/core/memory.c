/* lib/core/memory.c — every allocation goes through the context's hook, so hosts
   can account for memory and tests can inject failures. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

static void *default_realloc(void *ptr, size_t size, void *user)
{
    (void)user;
    if (size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, size);
}

static wa_realloc_fn ctx_fn(const wa_context *ctx)
{
    return ctx->opts.realloc_fn ? ctx->opts.realloc_fn : default_realloc;
}

void *wa_mem_alloc(wa_context *ctx, size_t size)
{
    if (size == 0)
        size = 1;
    return ctx_fn(ctx)(NULL, size, ctx->opts.alloc_user);
}

void *wa_mem_calloc(wa_context *ctx, size_t n, size_t size)
{
    if (size != 0 && n > (size_t)-1 / size)
        return NULL;
    void *p = wa_mem_alloc(ctx, n * size);
    if (p)
        memset(p, 0, (n * size) != 0 ? n * size : 1);
    return p;
}

void *wa_mem_realloc(wa_context *ctx, void *ptr, size_t size)
{
    if (size == 0)
        size = 1;
    return ctx_fn(ctx)(ptr, size, ctx->opts.alloc_user);
}

void wa_mem_free(wa_context *ctx, void *ptr)
{
    if (ptr)
        ctx_fn(ctx)(ptr, 0, ctx->opts.alloc_user);
}

char *wa_mem_strdup(wa_context *ctx, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = wa_mem_alloc(ctx, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

int wa_grow(wa_context *ctx, void **array, unsigned *cap, unsigned need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? (size_t)*cap : 8;
    while (ncap < need)
        ncap *= 2;
    if (ncap > 0xFFFFFFFFu || ncap > (size_t)-1 / elem)
        return -1;
    void *p = wa_mem_realloc(ctx, *array, ncap * elem);
    if (!p)
        return -1;
    *array = p;
    *cap = (unsigned)ncap;
    return 0;
}

/* ---- scratch blocks ------------------------------------------------------------ */

typedef union tmp_header {
    size_t cap;       /* usable bytes after the header; 0: a small (uncached) block */
    long double align_ld;
    void *align_p;
    long long align_ll;
} tmp_header;

#define SCRATCH_MAX_BYTES ((size_t)1 << 30)

void *wa_tmp_alloc(wa_context *ctx, size_t size)
{
    if (size > (size_t)-1 / 2)
        return NULL;
    if (size < WA_SCRATCH_MIN) {
        tmp_header *h = wa_mem_alloc(ctx, sizeof(tmp_header) + size);
        if (!h)
            return NULL;
        h->cap = 0;
        return h + 1;
    }
    /* the smallest cached block that fits */
    int best = -1;
    for (int i = 0; i < WA_SCRATCH_SLOTS; i++) {
        tmp_header *h = ctx->scratch[i];
        if (h && h->cap >= size && (best < 0 || h->cap < ((tmp_header *)ctx->scratch[best])->cap))
            best = i;
    }
    if (best >= 0) {
        tmp_header *h = ctx->scratch[best];
        ctx->scratch[best] = NULL;
        ctx->scratch_bytes -= h->cap;
        return h + 1;
    }
    size_t cap = size + size / 8; /* a little room so slightly larger requests reuse it */
    tmp_header *h = wa_mem_alloc(ctx, sizeof(tmp_header) + cap);
    if (!h)
        return NULL;
    h->cap = cap;
    return h + 1;
}

void *wa_tmp_calloc(wa_context *ctx, size_t n, size_t size)
{
    if (size != 0 && n > (size_t)-1 / size)
        return NULL;
    void *p = wa_tmp_alloc(ctx, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void wa_tmp_free(wa_context *ctx, void *ptr)
{
    if (!ptr)
        return;
    tmp_header *h = (tmp_header *)ptr - 1;
    if (h->cap == 0) {
        wa_mem_free(ctx, h);
        return;
    }
    if (ctx->scratch_bytes + h->cap <= SCRATCH_MAX_BYTES) {
        for (int i = 0; i < WA_SCRATCH_SLOTS; i++)
            if (!ctx->scratch[i]) {
                ctx->scratch[i] = h;
                ctx->scratch_bytes += h->cap;
                return;
            }
        /* full: replace the smallest cached block if this one is bigger */
        int small = 0;
        for (int i = 1; i < WA_SCRATCH_SLOTS; i++)
            if (((tmp_header *)ctx->scratch[i])->cap < ((tmp_header *)ctx->scratch[small])->cap)
                small = i;
        tmp_header *s = ctx->scratch[small];
        if (s->cap < h->cap) {
            ctx->scratch_bytes -= s->cap;
            wa_mem_free(ctx, s);
            ctx->scratch[small] = h;
            ctx->scratch_bytes += h->cap;
            return;
        }
    }
    wa_mem_free(ctx, h);
}

void wa_scratch_release(wa_context *ctx)
{
    for (int i = 0; i < WA_SCRATCH_SLOTS; i++) {
        wa_mem_free(ctx, ctx->scratch[i]);
        ctx->scratch[i] = NULL;
    }
    ctx->scratch_bytes = 0;
}

/* ---- caller-owned buffers ------------------------------------------------------ */

/* The header remembers the allocator; the union keeps the payload aligned. */
typedef union user_header {
    struct {
        wa_realloc_fn fn;
        void *user;
    } a;
    long double align_ld;
    void *align_p;
    long long align_ll;
} user_header;

void *wa_user_buffer(wa_context *ctx, size_t size)
{
    if (size > (size_t)-1 - sizeof(user_header))
        return NULL;
    user_header *h = wa_mem_alloc(ctx, sizeof(user_header) + size);
    if (!h)
        return NULL;
    h->a.fn = ctx_fn(ctx);
    h->a.user = ctx->opts.alloc_user;
    return h + 1;
}

void *wa_user_buffer_resize(wa_context *ctx, void *buffer, size_t size)
{
    if (!buffer)
        return wa_user_buffer(ctx, size);
    if (size > (size_t)-1 - sizeof(user_header))
        return NULL;
    user_header *h = wa_mem_realloc(ctx, (user_header *)buffer - 1, sizeof(user_header) + size);
    return h ? h + 1 : NULL;
}

void wa_free(void *buffer)
{
    if (!buffer)
        return;
    user_header *h = (user_header *)buffer - 1;
    h->a.fn(h, 0, h->a.user);
}

/* ---- arena ------------------------------------------------------------------------ */

struct wa_arena_chunk {
    wa_arena_chunk *next;
    size_t used, size;
    union {
        long double ld;
        void *p;
        long long ll;
    } data[1];
};

#define ARENA_CHUNK 16384u

void wa_arena_init(wa_arena *arena, wa_context *ctx)
{
    arena->ctx = ctx;
    arena->head = NULL;
}

void *wa_arena_alloc(wa_arena *arena, size_t size)
{
    size = (size + 15u) & ~(size_t)15u;
    if (size == 0)
        size = 16;
    wa_arena_chunk *c = arena->head;
    if (!c || c->size - c->used < size) {
        size_t want = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        if (want > (size_t)-1 - sizeof(wa_arena_chunk))
            return NULL;
        c = wa_mem_alloc(arena->ctx, sizeof(wa_arena_chunk) + want);
        if (!c)
            return NULL;
        c->size = want;
        c->used = 0;
        /* A big one-off chunk goes behind the head so the head keeps its space. */
        if (arena->head && size > ARENA_CHUNK) {
            c->next = arena->head->next;
            arena->head->next = c;
        } else {
            c->next = arena->head;
            arena->head = c;
        }
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    return p;
}

char *wa_arena_strndup(wa_arena *arena, const char *s, size_t n)
{
    char *p = wa_arena_alloc(arena, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *wa_arena_strdup(wa_arena *arena, const char *s)
{
    return wa_arena_strndup(arena, s, strlen(s));
}

void wa_arena_release(wa_arena *arena)
{
    wa_arena_chunk *c = arena->head;
    while (c) {
        wa_arena_chunk *next = c->next;
        wa_mem_free(arena->ctx, c);
        c = next;
    }
    arena->head = NULL;
}
