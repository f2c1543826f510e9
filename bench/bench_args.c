/* bench/bench_args.c — see bench_args.h. */
#include "bench_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_parse_sizes(unsigned *out, unsigned max, const char *s, unsigned lo, unsigned hi)
{
    unsigned n = 0;
    while (*s) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || end == s || *s == '-')
            return -1;
        if (*end == 'k' || *end == 'K') {
            v *= 1000;
            end++;
        } else if (*end == 'm' || *end == 'M') {
            v *= 1000000;
            end++;
        }
        if (v < lo || v > hi || n == max)
            return -1;
        out[n++] = (unsigned)v;
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        s = end;
    }
    return n ? (int)n : -1;
}

const char *bench_arg_value(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

char *bench_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *len = n;
    return buf;
}
