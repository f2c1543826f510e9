/* lib/core/strbuf.c — growable text buffer used by printers and emitters. A failed
   allocation sets `failed` and later writes become no-ops, so callers check once. */
#include "core.h"

#include <stdio.h>
#include <string.h>

void wa_sb_init(wa_sb *sb, wa_context *ctx)
{
    sb->ctx = ctx;
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = 0;
    sb->user = 0;
}

void wa_sb_init_user(wa_sb *sb, wa_context *ctx)
{
    wa_sb_init(sb, ctx);
    sb->user = 1;
}

static int sb_reserve(wa_sb *sb, size_t extra)
{
    if (sb->failed)
        return -1;
    if (extra > (size_t)-1 - sb->len - 1) {
        sb->failed = 1;
        return -1;
    }
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return 0;
    size_t ncap = sb->cap ? sb->cap : 256;
    while (ncap < need)
        ncap = ncap > (size_t)-1 / 2 ? need : ncap * 2;
    char *p = sb->user ? wa_user_buffer_resize(sb->ctx, sb->data, ncap)
                       : wa_mem_realloc(sb->ctx, sb->data, ncap);
    if (!p) {
        sb->failed = 1;
        return -1;
    }
    sb->data = p;
    sb->cap = ncap;
    return 0;
}

/* The inline wa_sb_putn's path when the buffer must grow (or has failed). */
void wa_sb_putn_slow(wa_sb *sb, const char *s, size_t n)
{
    if (sb_reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void wa_sb_put_u64(wa_sb *sb, unsigned long long v)
{
    if (v < 10) {
        wa_sb_putc(sb, (char)('0' + v));
        return;
    }
    if (v < 100 && sb->cap - sb->len > 2) {
        sb->data[sb->len] = (char)('0' + v / 10u);
        sb->data[sb->len + 1] = (char)('0' + v % 10u);
        sb->len += 2;
        sb->data[sb->len] = '\0';
        return;
    }
    char buf[24];
    char *p = buf + sizeof(buf);
    do {
        *--p = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    wa_sb_putn(sb, p, (size_t)(buf + sizeof(buf) - p));
}

void wa_sb_put_i64(wa_sb *sb, long long v)
{
    if (v < 0) {
        wa_sb_putc(sb, '-');
        wa_sb_put_u64(sb, 0ull - (unsigned long long)v);
    } else {
        wa_sb_put_u64(sb, (unsigned long long)v);
    }
}

void wa_sb_put_hex(wa_sb *sb, unsigned long long v)
{
    char buf[24];
    char *p = buf + sizeof(buf);
    do {
        *--p = "0123456789abcdef"[v & 15u];
        v >>= 4;
    } while (v);
    wa_sb_putn(sb, p, (size_t)(buf + sizeof(buf) - p));
}

void wa_sb_vprintf(wa_sb *sb, const char *fmt, va_list ap)
{
    if (sb->failed)
        return;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        sb->failed = 1;
        return;
    }
    if (sb_reserve(sb, (size_t)n))
        return;
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void wa_sb_printf(wa_sb *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    wa_sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void wa_sb_pad_to(wa_sb *sb, size_t line_start, size_t column)
{
    size_t cur = sb->len - line_start;
    static const char blanks[] = "                                                                ";
    size_t n = cur >= column ? 1 : column - cur;
    while (n > 0) {
        size_t k = n < sizeof(blanks) - 1 ? n : sizeof(blanks) - 1;
        wa_sb_putn(sb, blanks, k);
        n -= k;
    }
}

void wa_sb_free(wa_sb *sb)
{
    if (sb->user)
        wa_free(sb->data);
    else
        wa_mem_free(sb->ctx, sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

wa_status wa_sb_finish(wa_sb *sb, char **out, size_t *out_len)
{
    if (sb->failed) {
        wa_sb_free(sb);
        return wa_error_nomem(sb->ctx);
    }
    if (!sb->user || !sb->data) {
        char *buf = wa_user_buffer(sb->ctx, sb->len + 1);
        if (!buf) {
            wa_sb_free(sb);
            return wa_error_nomem(sb->ctx);
        }
        if (sb->len)
            memcpy(buf, sb->data, sb->len);
        buf[sb->len] = '\0';
        if (out_len)
            *out_len = sb->len;
        *out = buf;
        wa_sb_free(sb);
        return WA_OK;
    }
    char *buf = sb->data;
    if (sb->cap - sb->len > 4096) {
        /* give back the unused tail (shrinking keeps the contents) */
        char *shrunk = wa_user_buffer_resize(sb->ctx, buf, sb->len + 1);
        if (shrunk)
            buf = shrunk;
    }
    buf[sb->len] = '\0';
    if (out_len)
        *out_len = sb->len;
    *out = buf;
    sb->data = NULL; /* the caller's now */
    sb->len = sb->cap = 0;
    return WA_OK;
}
