/* bench/bench_args.h — command-line helpers shared by the benchmarks. */
#ifndef WAVEASM_BENCH_ARGS_H
#define WAVEASM_BENCH_ARGS_H

#include <stddef.h>

/* Parses a comma-separated list of sizes with optional k/M suffixes
   ("1k,100k,1M") into out[0..max-1]; each must lie in [lo, hi]. Returns the
   number of sizes, or -1 on a malformed, out-of-range or too long list. */
int bench_parse_sizes(unsigned *out, unsigned max, const char *s, unsigned lo, unsigned hi);

/* The value of `arg` if it is "name=value", else NULL. */
const char *bench_arg_value(const char *arg, const char *name);

/* The whole file at `path` in a malloc'ed buffer (its length in *len), or NULL. */
char *bench_read_file(const char *path, size_t *len);

#endif
