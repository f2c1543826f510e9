/* bench/bench_args.c — see bench_args.h. */
#include "bench_args.h"

#include <errno.h>
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
