/* lib/conductor/cache.c — final moves kept on disk, keyed by the SHA-256 of the
   tagged text an oracle first reads. One small JSON file per key:
     {"format": "waveasm-conductor-cache", "version": 1, "key": "<sha-256>",
      "moves": ["move I5 after I1", ...], "rounds": 3,
      "metrics": {"cycles": 1234, "waits": 8, "nops": 1, "peak_vgprs": 160}}
   Files are written to a temporary name and renamed, so a reader never sees
   half an entry. */
#define _POSIX_C_SOURCE 200809L
#include "conductor_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CACHE_FORMAT "waveasm-conductor-cache"
#define CACHE_VERSION 1

wa_status wa_sched_cache_key(char key[65], const wa_schedule *s)
{
    char *text = NULL;
    size_t len = 0;
    wa_status st = wa_sched_print_impl(&text, &len, s, NULL, 0);
    if (st)
        return st;
    wa_sha256_hex(key, text, len);
    wa_free(text);
    return WA_OK;
}

int wa_sched_cache_dir(char *out, size_t cap, const char *dir)
{
    int n;
    if (dir && dir[0]) {
        n = snprintf(out, cap, "%s", dir);
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME");
        const char *home = getenv("HOME");
        if (xdg && xdg[0] == '/')
            n = snprintf(out, cap, "%s/waveasm/conductor", xdg);
        else if (home && home[0])
            n = snprintf(out, cap, "%s/.cache/waveasm/conductor", home);
        else
            return 0;
    }
    return n > 0 && (size_t)n < cap;
}

static int entry_path(char *out, size_t cap, const char *dir, const char *key, const char *suffix)
{
    int n = snprintf(out, cap, "%s/%s.json%s", dir, key, suffix);
    return n > 0 && (size_t)n < cap;
}

/* ---- a reader for the few JSON shapes of an entry ---------------------------------------- */

typedef struct jreader {
    const char *p, *end;
} jreader;

static void jws(jreader *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
        j->p++;
}

static int jchar(jreader *j, char c)
{
    jws(j);
    if (j->p < j->end && *j->p == c) {
        j->p++;
        return 1;
    }
    return 0;
}

/* A string without escapes other than \" and \\ (entries hold commands only). */
static int jstring(jreader *j, wa_sb *out)
{
    if (!jchar(j, '"'))
        return 0;
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if (c == '\\') {
            if (j->p >= j->end || (*j->p != '"' && *j->p != '\\'))
                return 0;
            c = *j->p++;
        } else if ((unsigned char)c < 0x20) {
            return 0;
        }
        if (out)
            wa_sb_putc(out, c);
    }
    return jchar(j, '"');
}

static int jnumber(jreader *j, unsigned long long *v)
{
    jws(j);
    if (j->p >= j->end || *j->p < '0' || *j->p > '9')
        return 0;
    unsigned long long x = 0;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        x = x * 10 + (unsigned long long)(*j->p++ - '0');
    *v = x;
    return 1;
}

/* Skips a value of the shapes an entry has: number, string, flat object of numbers. */
static int jskip(jreader *j)
{
    unsigned long long v;
    jws(j);
    if (j->p < j->end && *j->p == '"')
        return jstring(j, NULL);
    if (jchar(j, '{')) {
        if (jchar(j, '}'))
            return 1;
        do {
            if (!jstring(j, NULL) || !jchar(j, ':') || !jskip(j))
                return 0;
        } while (jchar(j, ','));
        return jchar(j, '}');
    }
    return jnumber(j, &v);
}

int wa_sched_cache_load(const wa_schedule *s, const char *dir, const char *key, char **moves,
                        char *why, size_t why_len)
{
    char path[4096];
    *moves = NULL;
    if (!entry_path(path, sizeof(path), dir, key, ""))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    wa_sb text;
    wa_sb_init(&text, s->ctx);
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
        wa_sb_putn(&text, buf, got);
    fclose(f);
    jreader j = { text.data ? text.data : "", (text.data ? text.data : "") + text.len };
    wa_sb field, mv, out;
    wa_sb_init(&field, s->ctx);
    wa_sb_init(&mv, s->ctx);
    wa_sb_init(&out, s->ctx);
    int ok = jchar(&j, '{'), have_key = 0, have_moves = 0, have_format = 0;
    unsigned long long version = 0;
    while (ok) {
        field.len = 0;
        if (!jstring(&j, &field) || !jchar(&j, ':')) {
            ok = 0;
            break;
        }
        wa_sb_putc(&field, '\0');
        if (strcmp(field.data, "format") == 0) {
            mv.len = 0;
            ok = jstring(&j, &mv);
            wa_sb_putc(&mv, '\0');
            have_format = ok && strcmp(mv.data, CACHE_FORMAT) == 0;
        } else if (strcmp(field.data, "version") == 0) {
            ok = jnumber(&j, &version);
        } else if (strcmp(field.data, "key") == 0) {
            mv.len = 0;
            ok = jstring(&j, &mv);
            wa_sb_putc(&mv, '\0');
            have_key = ok && strcmp(mv.data, key) == 0;
        } else if (strcmp(field.data, "moves") == 0) {
            ok = jchar(&j, '[');
            if (ok && !jchar(&j, ']')) {
                do {
                    mv.len = 0;
                    if (!jstring(&j, &mv)) {
                        ok = 0;
                        break;
                    }
                    wa_sb_putn(&out, mv.data ? mv.data : "", mv.len);
                    wa_sb_putc(&out, '\n');
                } while (jchar(&j, ','));
                ok = ok && jchar(&j, ']');
            }
            have_moves = ok;
        } else {
            ok = jskip(&j);
        }
        if (!ok || !jchar(&j, ','))
            break;
    }
    ok = ok && jchar(&j, '}');
    jws(&j);
    ok = ok && j.p == j.end && !text.failed;
    int result;
    if (!ok) {
        snprintf(why, why_len, "cache entry %.400s is corrupt: ignored", path);
        result = -1;
    } else if (!have_format || version != CACHE_VERSION || !have_key || !have_moves) {
        snprintf(why, why_len, "cache entry %.400s is stale (format, version or key differ): ignored",
                 path);
        result = -1;
    } else {
        wa_sb_putc(&out, '\0');
        *moves = wa_mem_strdup(s->ctx, out.data ? out.data : "");
        result = *moves ? 1 : 0;
    }
    wa_sb_free(&text);
    wa_sb_free(&field);
    wa_sb_free(&mv);
    wa_sb_free(&out);
    return result;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
    char path[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof(path))
        return -1;
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] == '/' || path[i] == '\0') {
            char c = path[i];
            path[i] = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            path[i] = c;
        }
    }
    return 0;
}

int wa_sched_cache_store(const wa_schedule *s, const char *dir, const char *key,
                         const char *moves, const wa_sched_metrics *m, unsigned rounds)
{
    char path[4096], tmp[4096];
    if (!entry_path(path, sizeof(path), dir, key, "") ||
        !entry_path(tmp, sizeof(tmp), dir, key, ".tmp") || make_dirs(dir))
        return -1;
    wa_sb sb;
    wa_sb_init(&sb, s->ctx);
    wa_sb_printf(&sb, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"key\": \"%s\",\n",
                 CACHE_FORMAT, CACHE_VERSION, key);
    wa_sb_puts(&sb, "  \"moves\": [");
    int first = 1;
    for (const char *p = moves; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len) {
            wa_sb_puts(&sb, first ? "\"" : ", \"");
            wa_sb_putn(&sb, p, len); /* commands hold no quotes or backslashes */
            wa_sb_putc(&sb, '"');
            first = 0;
        }
        p += len + (e != NULL);
    }
    wa_sb_printf(&sb, "],\n  \"rounds\": %u,\n", rounds);
    wa_sb_printf(&sb,
                 "  \"metrics\": {\"cycles\": %llu, \"waits\": %u, \"nops\": %u, "
                 "\"peak_vgprs\": %u, \"peak_agprs\": %u, \"peak_sgprs\": %u}\n}\n",
                 (unsigned long long)m->cycles, m->waits_inserted, m->nops_inserted,
                 m->peak_vgprs, m->peak_agprs, m->peak_sgprs);
    int rc = -1;
    FILE *f = fopen(tmp, "wb");
    if (f && !sb.failed) {
        int w = fwrite(sb.data, 1, sb.len, f) == sb.len;
        if (fclose(f) == 0 && w && rename(tmp, path) == 0)
            rc = 0;
        else
            remove(tmp);
    } else if (f) {
        fclose(f);
        remove(tmp);
    }
    wa_sb_free(&sb);
    return rc;
}
