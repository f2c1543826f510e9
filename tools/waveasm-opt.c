/* tools/waveasm-opt.c — command-line driver: parse text IR, validate, run
   passes (or the default pipeline), allocate registers, check, simulate, print
   IR, emit assembly, or report register pressure. Thin by design: everything is
   a library call.

   Order of work: parse, retarget, validate, liveness (--print-liveness,
   --pressure-svg: always of the program as given, before allocation), register
   allocation (--regalloc), passes (--passes, in the order given) or the default
   pipeline (--pipeline=default), checkers (--check-waitcnt, --check-hazards),
   simulation (--simulate), output. With --print-liveness the output is the pressure report
   instead of IR or assembly, followed by the allocation summary when --regalloc
   is given; the report is written even when allocation then fails, because it
   shows where the pressure is.

   Exit status: 0 success, 1 bad input (parse, validation, allocation, I/O), 2 bad
   usage (unknown option, missing or bad option value, conflicting options). */
#define _POSIX_C_SOURCE 200809L
#include <waveasm/waveasm.h>
#ifdef WAVEASM_TRANSLATE
#include <waveasm/mlir.h>
#endif

#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2

#ifdef WAVEASM_TRANSLATE
/* waveasm-translate is this driver with MLIR input (tools/CMakeLists.txt
   builds it from this file): the input is translated by the MLIR front end,
   one kernel is selected, and the rest of the work is the same. */
static const char *const prog_name = "waveasm-translate";
#else
static const char *const prog_name = "waveasm-opt";
#endif

static void usage(FILE *f)
{
    fprintf(f,
#ifdef WAVEASM_TRANSLATE
            "usage: %s [options] [input.mlir | -]\n"
            "Translates one kernel of an MLIR module (standard input if no file or '-')\n"
            "to kernel IR and prints it as text IR, as an assembly file for llvm-mc, or\n"
            "as a register pressure report.\n"
            "  --target=<gfx90a|gfx942|gfx950>  the target (default gfx942)\n"
            "  --kernel=<name>                  the kernel of this name (default: the first)\n"
            "  --kernel-index=<n>               the n-th kernel of the module (default 0)\n"
            "  --workgroup-size=<x>[,<y>[,<z>]] when the MLIR gives none (translation_info,\n"
            "                                   gpu.known_block_size; default 64)\n"
            "  --force-workgroup-size           --workgroup-size even when the MLIR gives one\n"
#else
            "usage: %s [options] [input.wa | input.s | -]\n"
            "Reads one kernel in the text form (standard input if no file or '-'),\n"
            "or imports one from AMDGPU assembly as LLVM writes it (llc output),\n"
            "and prints it as text IR, as an assembly file for llvm-mc, or as a\n"
            "register pressure report.\n"
            "  --target=<gfx90a|gfx942|gfx950>  retarget the kernel (default: its .target)\n"
            "  --xnack=<any|on|off>, --sramecc=<any|on|off>\n"
            "                                   target features (default any): named in\n"
            "                                   the target id; with XNACK any or on the\n"
            "                                   hazard stage keeps soft clauses replayable\n"
            "  --input=wa|asm                   the input's form (default: asm for *.s files\n"
            "                                   and input with .amdhsa_kernel blocks, else wa)\n"
            "  --kernel-index=<n>               with asm input, the n-th kernel (default 0)\n"
#endif
            "  --emit=ir|asm|obj|bin|disasm     IR (default), assembly, code object (.hsaco,\n"
            "                                   in process), code bytes, their disassembly\n"
            "  --validate                       validate the IR (always done for --emit=asm)\n"
            "  --regalloc                       allocate registers (virtual -> physical)\n"
            "  --regalloc-stats                 --regalloc, and print its statistics to stderr\n"
            "  --regalloc-check                 --regalloc, and verify the allocation with the\n"
            "                                   independent checker before rewriting\n"
            "  --passes=<p1,p2,...>             run these stages in this order: cse, peephole,\n"
            "                                   regalloc, waitcnt, hazards\n"
            "  --pipeline=default               run every stage in the default order\n"
            "                                   (cse, peephole, regalloc, waitcnt, hazards)\n"
            "  --pass-stats                     print each stage's statistics to stderr\n"
            "  --verify-each                    validate and run the checkers after every stage\n"
            "  --waitcnt-barrier=lds|vmem|none  what s_barrier waits for (default lds: the\n"
            "                                   workgroup's LDS traffic; vmem: also vector\n"
            "                                   memory; none: nothing)\n"
            "  --cse-no-hoist                   cse: leave loop-invariant values in their loops\n"
            "  --peephole-disable=<g1,g2,...>   peephole: leave these groups alone: fuse, fold,\n"
            "                                   moves, acc-init, dead\n"
            , prog_name);
    /* in two strings: C99 promises literals of 4095 characters only */
    fputs(
            "  --virtualize                     first turn physical registers into virtual\n"
            "                                   ones per definition web and drop s_waitcnt\n"
            "                                   and s_nop (re-allocate imported assembly)\n"
            "  --check-waitcnt                  verify the result's s_waitcnt coverage\n"
            "  --check-hazards                  verify the result's wait states (s_nop)\n"
            "  --print-liveness                 output the register pressure report of the\n"
            "                                   program as given (before --regalloc) instead\n"
            "                                   of IR/assembly; with --regalloc, followed by\n"
            "                                   the allocation summary\n"
            "  --pressure-svg=<file>            also write an SVG plot of the register\n"
            "                                   pressure of the program as given\n"
            "  --simulate                       run the kernel (after --regalloc) in the wave64\n"
            "                                   simulator over several seeds; report missing\n"
            "                                   waits, faults (and hazards) as errors\n"
            "  --sim-seeds=<n>                  runs (timing seeds 1..n; default 4)\n"
            "  --sim-grid=<x>[,<y>[,<z>]]       workgroups (default 1)\n"
            "  --sim-arg=<index>=<value>        an integer by-value argument (default 0)\n"
            "  --sim-buffer-bytes=<n>           bytes per global buffer, filled with a\n"
            "                                   pattern (default 1048576)\n"
            "  --sim-hazards                    also check wait states (s_nop)\n"
            "  --sim-max-instructions=<n>       stop a wave that executes more than n\n"
            "                                   instructions, as an error (default 1000000;\n"
            "                                   the library's own default is 100 million)\n"
            "  --no-tags                        omit @I<n> instruction tags\n",
            f);
    fputs(
            "  --schedule=heuristic|moves:FILE|cmd:COMMAND\n"
            "                                   schedule the program (virtual registers) before\n"
            "                                   anything else: the built-in list scheduler, the\n"
            "                                   move commands of FILE, or COMMAND as the oracle\n"
            "                                   (prompt on its stdin, commands on its stdout)\n"
            "  --schedule-rounds=<n>            rounds of the oracle (default 8)\n"
            "  --schedule-cache[=DIR]           replay the moves of an earlier run of the same\n"
            "                                   input, keep this run's (default DIR:\n"
            "                                   $XDG_CACHE_HOME/waveasm/conductor)\n"
            "  --schedule-profile=FILE          per-instruction figures (CSV: tag, hits, lat_min,\n"
            "                                   lat_mean, lat_max) shown to the oracle\n"
            "  --print-schedule                 output the tagged regions with their metrics\n"
            "                                   instead of IR\n"
            "  -o <file>                        write output to <file> ('-' or default: stdout)\n"
            "  --version, --help\n"
            "Options taking a value accept both '--opt=value' and '--opt value'.\n"
            "Exit status: 0 success, 1 invalid input (including allocation failure and\n"
            "simulation errors), 2 usage error.\n",
        f);
}

/* Prints "waveasm-opt: error: <before>'<arg>'<after>" and returns EXIT_USAGE. */
#ifndef WAVEASM_TRANSLATE
/* Reads `path` ("-": standard input) as the text form or, with `form` 2 (or 0
   and a *.s file or .amdhsa_kernel blocks in the text), as AMDGPU assembly. */
static wa_status read_program(wa_program **out, wa_context *ctx, const char *path, int form,
                              unsigned kernel_index)
{
    if (form == 1)
        return wa_program_parse_file(out, ctx, path);
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return wa_program_parse_file(out, ctx, path); /* reports the I/O error */
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            char *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = p;
            cap *= 2;
        }
    }
    if (!is_stdin)
        fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: error: out of memory reading '%s'\n", prog_name, path);
        return WA_E_NOMEM;
    }
    const char *name = is_stdin ? "<stdin>" : path;
    size_t pl = strlen(path);
    int asm_input = form == 2 || (form == 0 && pl > 2 && strcmp(path + pl - 2, ".s") == 0);
    if (form == 0 && !asm_input) {
        /* The first line that starts with `.kernel` (the text form) or with
           `.amdhsa_kernel` (LLVM's assembly) decides. */
        for (size_t i = 0; i < len;) {
            size_t b = i;
            while (b < len && (buf[b] == ' ' || buf[b] == '\t'))
                b++;
            size_t e = b;
            while (e < len && buf[e] != ' ' && buf[e] != '\t' && buf[e] != '\n' && buf[e] != '\r')
                e++;
            if (e - b == 7 && memcmp(buf + b, ".kernel", 7) == 0)
                break;
            if (e - b == 14 && memcmp(buf + b, ".amdhsa_kernel", 14) == 0) {
                asm_input = 1;
                break;
            }
            while (e < len && buf[e] != '\n')
                e++;
            i = e + 1;
        }
    }
    wa_status st = asm_input ? wa_program_parse_asm(out, ctx, buf, len, name, kernel_index)
                             : wa_program_parse(out, ctx, buf, len, name);
    free(buf);
    return st;
}

#else
/* Translates `path` and keeps kernel `kernel_index` (or the one named in the
   options). */
static wa_status read_mlir(wa_program **out, wa_context *ctx, const char *path,
                           const wa_mlir_options *mo, unsigned kernel_index)
{
    wa_mlir_result *res = NULL;
    wa_status st = wa_mlir_translate_file(&res, ctx, path, mo);
    if (st != WA_OK)
        return st;
    unsigned n = wa_mlir_result_count(res);
    if (kernel_index >= n) {
        fprintf(stderr, "%s: error: --kernel-index=%u but the input has %u kernel%s\n",
                prog_name, kernel_index, n, n == 1 ? "" : "s");
        wa_mlir_result_destroy(res);
        return WA_E_NOT_FOUND;
    }
    *out = wa_mlir_result_take(res, kernel_index);
    wa_mlir_result_destroy(res);
    return WA_OK;
}

#endif
/* The library's log hook: one line per call. */
static void log_to_stderr(const char *line, void *user)
{
    (void)user;
    fprintf(stderr, "%s\n", line);
}

static int usage_error(const char *before, const char *arg, const char *after)
{
    fprintf(stderr, "%s: error: %s'%s'%s\n(see '%s --help')\n", prog_name, before, arg, after,
            prog_name);
    return EXIT_USAGE;
}

/* Prints the context's diagnostics as "file:line:col: severity: message [In]".
   Diagnostics without a location get the tool's name instead. `st` is the
   failing status (WA_OK when reporting warnings after a success). */
static void report(const wa_context *ctx, wa_status st)
{
    unsigned n = wa_context_diag_count(ctx);
    if (n == 0) {
        if (st != WA_OK)
            fprintf(stderr, "%s: error: %s\n", prog_name, wa_status_string(st));
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        const char *sev = d->severity == WA_SEVERITY_ERROR     ? "error"
                          : d->severity == WA_SEVERITY_WARNING ? "warning"
                                                               : "note";
        int has_file = d->file && d->file[0];
        if (has_file)
            fprintf(stderr, "%s:", d->file);
        if (d->line)
            fprintf(stderr, "%u:%u:", d->line, d->col);
        if (!has_file && !d->line)
            fprintf(stderr, "%s:", prog_name);
        fprintf(stderr, " %s: %s", sev, d->message);
        if (d->tag != WA_NO_TAG)
            fprintf(stderr, " [I%u]", d->tag);
        fputc('\n', stderr);
    }
}

/* "--name=value" or "--name value": returns the value, advances *i for the
   second form, NULL if `a` is not this option. Sets *missing when the value is
   absent. */
static const char *option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    *missing = 0;
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

/* Writes `a` then `b` (may be NULL) to `path` (NULL: standard output). Returns
   0, or 1 after printing an error. */
static int write_output(const char *path, const char *a, size_t alen, const char *b, size_t blen)
{
    FILE *f = path ? fopen(path, "wb") : stdout;
    if (!f) {
        fprintf(stderr, "%s: error: cannot open '%s' for writing\n", prog_name, path);
        return 1;
    }
    int werr = fwrite(a, 1, alen, f) != alen;
    if (b && blen)
        werr |= fwrite(b, 1, blen, f) != blen;
    if (path)
        werr |= fclose(f) != 0;
    else
        werr |= fflush(f) != 0;
    if (werr) {
        fprintf(stderr, "%s: error: cannot write '%s'\n", prog_name, path ? path : "<stdout>");
        return 1;
    }
    return 0;
}

/* The allocation summary that follows the pressure report: per class the
   maximum pressure, the registers allocated (highest used + 1) and their ratio.
   Returns the length written to `buf`. */
static size_t alloc_summary(char *buf, size_t size, const wa_regalloc_stats *rs, unsigned removed)
{
    static const char *const names[3] = { "VGPR", "SGPR", "AGPR" };
    unsigned pressure[3] = { rs->max_pressure_vgpr, rs->max_pressure_sgpr, rs->max_pressure_agpr };
    unsigned peak[3] = { rs->peak_vgprs, rs->peak_sgprs, rs->peak_agprs };
    size_t n = 0;
    int k = snprintf(buf, size, "\nregister allocation:\n  class  max pressure  allocated  ratio\n");
    for (unsigned c = 0; c < 3 && k > 0 && (n += (size_t)k) < size; c++) {
        char ratio[32] = "-";
        if (pressure[c])
            snprintf(ratio, sizeof(ratio), "%.2f", (double)peak[c] / pressure[c]);
        k = snprintf(buf + n, size - n, "  %-5s  %12u  %9u  %5s\n", names[c], pressure[c], peak[c],
                     ratio);
    }
    if (k > 0 && (n += (size_t)k) < size) {
        k = snprintf(buf + n, size - n,
                     "  %u values; %u moves coalesced (%u removed), %u MFMA ties, %u hole fits\n",
                     rs->intervals, rs->coalesced, removed, rs->tied, rs->hole_fits);
        if (k > 0)
            n += (size_t)k;
    }
    return n < size ? n : size - 1;
}

/* --simulate settings */
#define SIM_MAX_ARGS 32
/* The CLI's instruction limit per wave: an endless loop stops within seconds
   even with 16 waves, far above what a test kernel executes. */
#define SIM_CLI_MAX_INSTRUCTIONS 1000000ull

typedef struct sim_cli {
    int on, hazards;
    unsigned seeds, grid[3];
    unsigned long long max_instructions;
    unsigned long long buffer_bytes;
    unsigned nargs, arg_index[SIM_MAX_ARGS];
    long long arg_value[SIM_MAX_ARGS];
} sim_cli;

/* Parses "x[,y[,z]]" into grid; 0 on success. */
static int parse_grid(const char *v, unsigned grid[3])
{
    grid[0] = grid[1] = grid[2] = 1;
    for (unsigned d = 0; d < 3; d++) {
        char *end;
        unsigned long x = strtoul(v, &end, 10);
        if (end == v || x == 0 || x > 65535)
            return -1;
        grid[d] = (unsigned)x;
        if (*end == '\0')
            return 0;
        if (*end != ',')
            return -1;
        v = end + 1;
    }
    return -1;
}

/* Runs the kernel over the seeds; returns 0 when every run is clean. Buffers hold
   a byte pattern, by-value arguments the given values (0 otherwise). */
static int simulate(wa_context *ctx, const wa_program *prog, const sim_cli *cli)
{
    unsigned na = wa_program_arg_count(prog);
    unsigned char **bufs = calloc(na + 1, sizeof(unsigned char *));
    if (!bufs)
        return 1;
    int rc = 0;
    for (unsigned seed = 1; seed <= cli->seeds && rc == 0; seed++) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        o.seed = seed;
        o.max_instructions = cli->max_instructions;
        memcpy(o.grid, cli->grid, sizeof(o.grid));
        if (cli->hazards)
            o.flags |= WA_SIM_HAZARDS;
        wa_sim *sim = NULL;
        wa_status st = wa_sim_create(&sim, prog, &o);
        for (unsigned a = 0; a < na && st == WA_OK; a++) {
            wa_kernel_arg arg;
            if (wa_program_arg(&arg, prog, a) != WA_OK)
                continue;
            if (arg.kind == WA_ARG_GLOBAL_BUFFER) {
                if (!bufs[a] && !(bufs[a] = malloc(cli->buffer_bytes ? cli->buffer_bytes : 1))) {
                    st = WA_E_NOMEM;
                    break;
                }
                for (unsigned long long i = 0; i < cli->buffer_bytes; i++)
                    bufs[a][i] = (unsigned char)(i * 37u + a);
                st = wa_sim_bind_buffer(sim, a, bufs[a], (size_t)cli->buffer_bytes);
            } else if (arg.kind == WA_ARG_BY_VALUE && arg.size <= 8) {
                long long v = 0;
                for (unsigned k = 0; k < cli->nargs; k++)
                    if (cli->arg_index[k] == a)
                        v = cli->arg_value[k];
                unsigned char bytes[8];
                for (unsigned k = 0; k < 8; k++)
                    bytes[k] = (unsigned char)((unsigned long long)v >> (8 * k));
                st = wa_sim_set_arg(sim, a, bytes, arg.size);
            }
        }
        if (st == WA_OK)
            st = wa_sim_run(sim);
        if (st != WA_OK) {
            report(ctx, st);
            if (st == WA_E_SIM_LIMIT)
                fprintf(stderr, "%s: note: at most %llu instructions per wave "
                        "(--sim-max-instructions)\n", prog_name, cli->max_instructions);
            fprintf(stderr, "%s: simulation with seed %u failed\n", prog_name, seed);
            rc = 1;
        } else if (seed == 1) {
            wa_sim_stats ss;
            wa_sim_get_stats(&ss, sim);
            fprintf(stderr,
                    "%s: simulated: %u workgroup%s, %u wave%s, %llu instructions, %llu memory "
                    "operations, %llu blocking waits, %llu cycles (seed 1)\n",
                    prog_name, ss.workgroups, ss.workgroups == 1 ? "" : "s", ss.waves,
                    ss.waves == 1 ? "" : "s", (unsigned long long)ss.instructions,
                    (unsigned long long)ss.memory_ops, (unsigned long long)ss.waits,
                    (unsigned long long)ss.cycles);
        }
        wa_sim_destroy(sim);
    }
    if (rc == 0)
        fprintf(stderr, "%s: simulated with %u seed%s: no missing wait%s, no fault\n", prog_name,
                cli->seeds, cli->seeds == 1 ? "" : "s", cli->hazards ? ", no hazard" : "");
    for (unsigned a = 0; a < na; a++)
        free(bufs[a]);
    free(bufs);
    return rc;
}

/* --passes / --pipeline settings */
typedef struct pass_cli {
    unsigned n;
    wa_stage stages[16];
    int pipeline, stats, verify, check_waitcnt, check_hazards;
    wa_waitcnt_options waitcnt;
    wa_cse_options cse;
    wa_peephole_options peephole;
} pass_cli;

/* Parses "fuse,fold,moves,acc-init" (any subset) into WA_PEEPHOLE_NO_* flags;
   0 on success. */
static int parse_peephole_groups(const char *v, unsigned *flags)
{
    static const struct {
        const char *name;
        unsigned flag;
    } groups[] = { { "fuse", WA_PEEPHOLE_NO_FUSE }, { "fold", WA_PEEPHOLE_NO_FOLD },
                   { "moves", WA_PEEPHOLE_NO_MOVES }, { "acc-init", WA_PEEPHOLE_NO_ACC_INIT },
                   { "dead", WA_PEEPHOLE_NO_DEAD } };
    if (!*v)
        return -1;
    while (*v) {
        size_t n = strcspn(v, ",");
        unsigned k = 0;
        while (k < sizeof(groups) / sizeof(groups[0]) &&
               !(strlen(groups[k].name) == n && strncmp(groups[k].name, v, n) == 0))
            k++;
        if (k == sizeof(groups) / sizeof(groups[0]))
            return -1;
        *flags |= groups[k].flag;
        v += n;
        if (*v == ',' && *++v == '\0')
            return -1;
    }
    return 0;
}

/* Parses "a,b,c" into stage names; 0 on success, else prints a usage error. */
static int parse_passes(const char *v, pass_cli *pc)
{
    char name[32];
    while (*v) {
        size_t n = strcspn(v, ",");
        if (n == 0 || n >= sizeof(name) || pc->n >= sizeof(pc->stages) / sizeof(pc->stages[0])) {
            usage_error("bad --passes list ", v, "");
            return -1;
        }
        memcpy(name, v, n);
        name[n] = '\0';
        if (wa_stage_from_name(&pc->stages[pc->n], name) != WA_OK) {
            usage_error("unknown pass ", name, " (cse, peephole, regalloc, waitcnt, hazards)");
            return -1;
        }
        pc->n++;
        v += n;
        if (*v == ',')
            v++;
    }
    return pc->n ? 0 : (usage_error("option ", "--passes", " needs a list of passes"), -1);
}

static void print_stage_stats(wa_stage stage, const wa_pass_stats *p, double seconds)
{
    fprintf(stderr, "%s: %s: %u -> %u instructions", prog_name, wa_stage_name(stage),
            p->instrs_before, p->instrs_after);
    const struct { const char *name; unsigned v; } f[] = {
        { "inserted", p->inserted }, { "removed", p->removed }, { "changed", p->changed },
        { "waitcnts inserted", p->waitcnts_inserted }, { "waitcnts merged", p->waitcnts_merged },
        { "nops inserted", p->nops_inserted }, { "nop wait states", p->nop_wait_states },
        { "fused", p->fused }, { "folded", p->folded }, { "moves removed", p->moves_removed },
        { "accumulator inits removed", p->acc_inits_removed }, { "eliminated", p->eliminated },
        { "hoisted", p->hoisted }, { "iterations", p->iterations },
    };
    for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
        if (f[i].v)
            fprintf(stderr, ", %s %u", f[i].name, f[i].v);
    if (seconds >= 0) /* microseconds: a small kernel's stages take a few */
        fprintf(stderr, " (%.1f us)", seconds * 1e6);
    fputc('\n', stderr);
}

/* Runs --passes or --pipeline=default; 0 on success. */
static int run_passes(wa_context *ctx, wa_program *prog, const pass_cli *pc)
{
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.waitcnt = &pc->waitcnt;
    po.cse = &pc->cse;
    po.peephole = &pc->peephole;
    if (pc->verify)
        po.flags |= WA_PIPELINE_VERIFY;
    wa_status st;
    if (pc->pipeline) {
        wa_pipeline *pl = NULL;
        st = wa_pipeline_create(&pl, ctx, &po);
        if (st == WA_OK)
            st = wa_pipeline_run(pl, prog);
        for (unsigned s = 0; pl && s < WA_STAGE_COUNT_ && pc->stats; s++) {
            wa_stage_stats ss;
            if (wa_pipeline_stats(&ss, pl, (wa_stage)s) == WA_OK && ss.ran)
                print_stage_stats((wa_stage)s, &ss.pass, ss.seconds);
        }
        wa_pipeline_destroy(pl);
        report(ctx, st);
        return st != WA_OK;
    }
    int waits_done = 0, hazards_done = 0;
    for (unsigned i = 0; i < pc->n; i++) {
        wa_pass_stats ps;
        st = wa_run_stage(prog, pc->stages[i], &po, &ps);
        report(ctx, st);
        if (st != WA_OK)
            return 1;
        if (pc->stats)
            print_stage_stats(pc->stages[i], &ps, -1.0);
        waits_done |= pc->stages[i] == WA_STAGE_WAITCNT;
        hazards_done |= pc->stages[i] == WA_STAGE_HAZARDS;
        if (pc->verify) {
            st = wa_program_validate(NULL, prog, NULL);
            if (st == WA_OK && waits_done)
                st = wa_check_waitcnt(NULL, prog, &pc->waitcnt);
            if (st == WA_OK && hazards_done)
                st = wa_check_hazards(NULL, prog, NULL);
            report(ctx, st);
            if (st != WA_OK) {
                fprintf(stderr, "%s: verification after '%s' failed\n", prog_name,
                        wa_stage_name(pc->stages[i]));
                return 1;
            }
        }
    }
    return 0;
}

/* --schedule: the oracles the driver offers. */
typedef struct sched_cli {
    const char *spec;       /* heuristic, moves:FILE, cmd:COMMAND */
    unsigned rounds;
    int cache;              /* --schedule-cache */
    const char *profile;    /* --schedule-profile */
    const char *cache_dir;
    int print;
    wa_schedule *s;
    char *answer;
    unsigned asked;
} sched_cli;

static char *read_all(FILE *f)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    buf[n] = '\0';
    return buf;
}

static const char *sched_oracle(const char *prompt, void *payload)
{
    sched_cli *sc = payload;
    free(sc->answer);
    sc->answer = NULL;
    sc->asked++;
    if (strcmp(sc->spec, "heuristic") == 0) {
        char *cmds = NULL;
        if (wa_schedule_heuristic(&cmds, NULL, sc->s) != WA_OK)
            return NULL;
        sc->answer = malloc(strlen(cmds) + 1);
        if (sc->answer)
            strcpy(sc->answer, cmds);
        wa_free(cmds);
        return sc->answer;
    }
    if (strncmp(sc->spec, "moves:", 6) == 0) {
        if (sc->asked > 1)
            return NULL; /* the file is one round */
        FILE *f = fopen(sc->spec + 6, "rb");
        if (!f) {
            fprintf(stderr, "%s: error: cannot read %s\n", prog_name, sc->spec + 6);
            return NULL;
        }
        sc->answer = read_all(f);
        fclose(f);
        return sc->answer;
    }
    /* cmd:COMMAND: the prompt goes through a temporary file to its stdin */
    char path[] = "/tmp/waveasm-prompt-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    FILE *pf = fdopen(fd, "w");
    if (!pf) {
        close(fd);
        unlink(path);
        return NULL;
    }
    fputs(prompt, pf);
    fclose(pf);
    size_t clen = strlen(sc->spec + 4) + strlen(path) + 8;
    char *cmdline = malloc(clen);
    if (cmdline) {
        snprintf(cmdline, clen, "%s < %s", sc->spec + 4, path);
        FILE *p = popen(cmdline, "r");
        if (p) {
            sc->answer = read_all(p);
            if (pclose(p) != 0) {
                free(sc->answer);
                sc->answer = NULL;
            }
        }
        free(cmdline);
    }
    unlink(path);
    return sc->answer;
}

static void sched_progress(unsigned round, const wa_sched_round *r, const wa_sched_metrics *m,
                           int kept, void *payload)
{
    (void)payload;
    fprintf(stderr, "%s: schedule round %u: %u commands, %s%s; est. cycles %llu\n", prog_name,
            round, r->commands, r->failed >= 0 ? "failed" : "applied",
            r->failed >= 0 ? "" : kept ? ", kept" : ", not better", (unsigned long long)m->cycles);
}

/* Runs --schedule / --print-schedule; 0 on success. `*text` receives the
   printed schedule with --print-schedule. */
static int run_schedule(wa_context *ctx, wa_program *prog, sched_cli *sc, char **text,
                        size_t *len)
{
    wa_status st = wa_schedule_create(&sc->s, prog, NULL);
    report(ctx, st);
    if (st != WA_OK)
        return 1;
    wa_sched_metrics m;
    int rc = 1;
    if (sc->profile) {
        FILE *pf = fopen(sc->profile, "rb");
        char *csv = pf ? read_all(pf) : NULL;
        if (pf)
            fclose(pf);
        if (!csv) {
            fprintf(stderr, "%s: error: cannot read %s\n", prog_name, sc->profile);
            goto out;
        }
        st = wa_schedule_set_profile(sc->s, csv, strlen(csv));
        free(csv);
        report(ctx, st);
        if (st != WA_OK)
            goto out;
    }
    if (sc->spec) {
        wa_sched_run_options ro = WA_SCHED_RUN_OPTIONS_INIT;
        ro.rounds = sc->rounds;
        ro.progress = sched_progress;
        if (sc->cache) {
            ro.flags |= WA_SCHED_RUN_CACHE;
            ro.cache_dir = sc->cache_dir;
        }
        wa_sched_result res;
        st = wa_schedule_run(&res, sc->s, sched_oracle, sc, &ro);
        report(ctx, st);
        if (st != WA_OK)
            goto out;
        if (res.cache_hit)
            fprintf(stderr, "%s: schedule: moves replayed from the cache\n", prog_name);
        fprintf(stderr,
                "%s: schedule: %u rounds (%u kept, %u failed, %u not better); est. cycles "
                "%llu -> %llu\n",
                prog_name, res.rounds, res.kept, res.failed, res.regressed,
                (unsigned long long)res.baseline.cycles, (unsigned long long)res.best.cycles);
        const char *rep = wa_schedule_report(sc->s);
        if ((res.failed || res.regressed) && rep[0])
            fprintf(stderr, "%s", rep);
        /* a moves file is the user's schedule: one that does not apply is an error */
        if (strncmp(sc->spec, "moves:", 6) == 0 && res.failed) {
            fprintf(stderr, "%s: error: the moves of %s do not apply\n", prog_name, sc->spec + 6);
            goto out;
        }
    }
    if (sc->print) {
        st = wa_schedule_measure(&m, sc->s);
        if (st == WA_OK)
            st = wa_schedule_print(text, len, sc->s, &m);
        report(ctx, st);
        if (st != WA_OK)
            goto out;
    }
    rc = 0;
out:
    wa_schedule_destroy(sc->s);
    sc->s = NULL;
    free(sc->answer);
    sc->answer = NULL;
    return rc;
}

int main(int argc, char **argv)
{
    const char *input = "-", *output = NULL, *svg_path = NULL;
    int input_form = 0; /* 0 auto, 1 text form, 2 assembly */
    sched_cli sched;
    memset(&sched, 0, sizeof(sched));
    unsigned kernel_index = 0;
#ifdef WAVEASM_TRANSLATE
    wa_mlir_options mlir_opts = WA_MLIR_OPTIONS_INIT;
#endif
    int emit_asm = 0, validate = 0, tags = 1, have_input = 0, retarget = 0;
    wa_feature xnack = WA_FEATURE_ANY, sramecc = WA_FEATURE_ANY;
    int regalloc = 0, regalloc_stats = 0, regalloc_check = 0, print_liveness = 0;
    int virtualize = 0;
    wa_target target = WA_TARGET_UNKNOWN;
    sim_cli sim;
    memset(&sim, 0, sizeof(sim));
    sim.seeds = 4;
    sim.grid[0] = sim.grid[1] = sim.grid[2] = 1;
    sim.buffer_bytes = 1u << 20;
    sim.max_instructions = SIM_CLI_MAX_INSTRUCTIONS;
    pass_cli pc;
    memset(&pc, 0, sizeof(pc));
    {
        wa_waitcnt_options wo = WA_WAITCNT_OPTIONS_INIT;
        pc.waitcnt = wo;
        wa_cse_options co = WA_CSE_OPTIONS_INIT;
        pc.cse = co;
        wa_peephole_options ppo = WA_PEEPHOLE_OPTIONS_INIT;
        pc.peephole = ppo;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int missing;
        char *end;
#ifdef WAVEASM_TRANSLATE
        if ((v = option_value(argc, argv, &i, "--kernel", &missing)) || missing) {
            if (missing || !v[0])
                return usage_error("option ", a, " needs a kernel name");
            mlir_opts.kernel_name = v;
        } else if ((v = option_value(argc, argv, &i, "--workgroup-size", &missing)) || missing) {
            if (missing || parse_grid(v, mlir_opts.workgroup_size) ||
                mlir_opts.workgroup_size[0] * mlir_opts.workgroup_size[1] *
                        mlir_opts.workgroup_size[2] > 1024)
                return usage_error("option ", a, " needs x[,y[,z]] work-items (at most 1024)");
        } else if (strcmp(a, "--force-workgroup-size") == 0) {
            mlir_opts.flags |= WA_MLIR_FORCE_WORKGROUP_SIZE;
        } else
#else
        if ((v = option_value(argc, argv, &i, "--input", &missing)) || missing) {
            if (missing || (strcmp(v, "wa") != 0 && strcmp(v, "asm") != 0))
                return usage_error("option ", a, " takes wa or asm");
            input_form = strcmp(v, "wa") == 0 ? 1 : 2;
        } else
#endif
        if ((v = option_value(argc, argv, &i, "--kernel-index", &missing)) || missing) {
            unsigned long n = missing ? 0 : strtoul(v, &end, 10);
            if (missing || !*v || *end || n > 65535)
                return usage_error("option ", a, " takes a number");
            kernel_index = (unsigned)n;
        } else if ((v = option_value(argc, argv, &i, "--xnack", &missing)) || missing ||
                   (v = option_value(argc, argv, &i, "--sramecc", &missing)) || missing) {
            wa_feature f = WA_FEATURE_ANY;
            if (missing || (strcmp(v, "any") && strcmp(v, "on") && strcmp(v, "off")))
                return usage_error("option ", a, " takes any, on or off");
            f = strcmp(v, "on") == 0 ? WA_FEATURE_ON : strcmp(v, "off") == 0 ? WA_FEATURE_OFF
                                                                              : WA_FEATURE_ANY;
            if (strncmp(a, "--xnack", 7) == 0)
                xnack = f;
            else
                sramecc = f;
        } else if ((v = option_value(argc, argv, &i, "--target", &missing)) || missing) {
            if (missing)
                return usage_error("option ", a, " needs a target name");
            if (wa_target_from_name(&target, v) != WA_OK)
                return usage_error("unknown target ", v, " (gfx90a, gfx942, gfx950)");
            retarget = 1;
        } else if ((v = option_value(argc, argv, &i, "--emit", &missing)) || missing) {
            if (missing)
                return usage_error("option ", a, " needs a kind (ir, asm, obj, bin, disasm)");
            if (strcmp(v, "ir") == 0)
                emit_asm = 0;
            else if (strcmp(v, "asm") == 0)
                emit_asm = 1;
            else if (strcmp(v, "bin") == 0)
                emit_asm = 2;
            else if (strcmp(v, "disasm") == 0)
                emit_asm = 3;
            else if (strcmp(v, "obj") == 0)
                emit_asm = 4;
            else
                return usage_error("unknown --emit kind ", v, " (ir, asm, obj, bin, disasm)");
        } else if ((v = option_value(argc, argv, &i, "--pressure-svg", &missing)) || missing) {
            if (missing || !v[0])
                return usage_error("option ", a, " needs a file name");
            svg_path = v;
        } else if ((v = option_value(argc, argv, &i, "--sim-seeds", &missing)) || missing) {
            unsigned long n = missing ? 0 : strtoul(v, &end, 10);
            if (missing || end == v || *end || n == 0 || n > 1000)
                return usage_error("option ", a, " needs a number of runs (1 .. 1000)");
            sim.seeds = (unsigned)n;
            sim.on = 1;
        } else if ((v = option_value(argc, argv, &i, "--sim-grid", &missing)) || missing) {
            if (missing || parse_grid(v, sim.grid))
                return usage_error("option ", a, " needs x[,y[,z]] workgroups (1 .. 65535)");
            sim.on = 1;
        } else if ((v = option_value(argc, argv, &i, "--sim-buffer-bytes", &missing)) || missing) {
            unsigned long long n = missing ? 0 : strtoull(v, &end, 10);
            if (missing || end == v || *end || n > (1ull << 32))
                return usage_error("option ", a, " needs a byte count (at most 4 GiB)");
            sim.buffer_bytes = n;
            sim.on = 1;
        } else if ((v = option_value(argc, argv, &i, "--sim-max-instructions", &missing)) ||
                   missing) {
            errno = 0;
            unsigned long long n = missing ? 0 : strtoull(v, &end, 10);
            if (missing || end == v || *end || *v == '-' || errno || n == 0)
                return usage_error("option ", a, " needs an instruction count (at least 1)");
            sim.max_instructions = n;
            sim.on = 1;
        } else if ((v = option_value(argc, argv, &i, "--sim-arg", &missing)) || missing) {
            unsigned long idx = missing ? 0 : strtoul(v, &end, 10);
            if (missing || end == v || *end != '=' || sim.nargs >= SIM_MAX_ARGS)
                return usage_error("option ", a, " needs <index>=<integer>");
            const char *val = end + 1;
            long long x = strtoll(val, &end, 0);
            if (end == val || *end)
                return usage_error("option ", a, " needs <index>=<integer>");
            sim.arg_index[sim.nargs] = (unsigned)idx;
            sim.arg_value[sim.nargs++] = x;
            sim.on = 1;
        } else if ((v = option_value(argc, argv, &i, "--passes", &missing)) || missing) {
            if (missing)
                return usage_error("option ", a, " needs a list of passes");
            if (parse_passes(v, &pc))
                return EXIT_USAGE;
        } else if ((v = option_value(argc, argv, &i, "--pipeline", &missing)) || missing) {
            if (missing || strcmp(v, "default") != 0)
                return usage_error("option ", a, " takes 'default'");
            pc.pipeline = 1;
        } else if ((v = option_value(argc, argv, &i, "--waitcnt-barrier", &missing)) || missing) {
            if (missing)
                return usage_error("option ", a, " needs lds, vmem or none");
            if (strcmp(v, "lds") == 0)
                pc.waitcnt.flags = 0;
            else if (strcmp(v, "vmem") == 0)
                pc.waitcnt.flags = WA_WAITCNT_BARRIER_VMEM;
            else if (strcmp(v, "none") == 0)
                pc.waitcnt.flags = WA_WAITCNT_NO_BARRIER;
            else
                return usage_error("unknown --waitcnt-barrier value ", v, " (lds, vmem, none)");
        } else if (strcmp(a, "--cse-no-hoist") == 0) {
            pc.cse.flags |= WA_CSE_NO_HOIST;
        } else if ((v = option_value(argc, argv, &i, "--peephole-disable", &missing)) || missing) {
            if (missing || parse_peephole_groups(v, &pc.peephole.flags))
                return usage_error("option ", a, " needs a list of fuse, fold, moves, acc-init, dead");
        } else if ((v = option_value(argc, argv, &i, "--schedule", &missing)) || missing) {
            if (missing || !(strcmp(v, "heuristic") == 0 || (strncmp(v, "moves:", 6) == 0 && v[6]) ||
                             (strncmp(v, "cmd:", 4) == 0 && v[4])))
                return usage_error("option ", a, " needs heuristic, moves:FILE or cmd:COMMAND");
            sched.spec = v;
        } else if ((v = option_value(argc, argv, &i, "--schedule-rounds", &missing)) || missing) {
            char *rest = NULL;
            unsigned long n = missing ? 0 : strtoul(v, &rest, 10);
            if (missing || !rest || *rest || n == 0 || n > 100000)
                return usage_error("option ", a, " needs a number of rounds (1..100000)");
            sched.rounds = (unsigned)n;
        } else if ((v = option_value(argc, argv, &i, "--schedule-profile", &missing)) || missing) {
            if (missing)
                return usage_error("option ", a, " needs a CSV file");
            sched.profile = v;
        } else if (strcmp(a, "--schedule-cache") == 0) {
            sched.cache = 1;
        } else if (strncmp(a, "--schedule-cache=", 17) == 0) {
            if (!a[17])
                return usage_error("option ", "--schedule-cache", " needs a directory");
            sched.cache = 1;
            sched.cache_dir = a + 17;
        } else if (strcmp(a, "--print-schedule") == 0) {
            sched.print = 1;
        } else if (strcmp(a, "--pass-stats") == 0) {
            pc.stats = 1;
        } else if (strcmp(a, "--verify-each") == 0) {
            pc.verify = 1;
        } else if (strcmp(a, "--check-waitcnt") == 0) {
            pc.check_waitcnt = 1;
        } else if (strcmp(a, "--check-hazards") == 0) {
            pc.check_hazards = 1;
        } else if (strcmp(a, "--simulate") == 0) {
            sim.on = 1;
        } else if (strcmp(a, "--sim-hazards") == 0) {
            sim.on = sim.hazards = 1;
        } else if (strcmp(a, "-o") == 0) {
            if (i + 1 >= argc)
                return usage_error("option ", a, " needs a file name");
            output = argv[++i];
        } else if (strcmp(a, "--validate") == 0) {
            validate = 1;
        } else if (strcmp(a, "--virtualize") == 0) {
            virtualize = 1;
        } else if (strcmp(a, "--regalloc") == 0) {
            regalloc = 1;
        } else if (strcmp(a, "--regalloc-stats") == 0) {
            regalloc = regalloc_stats = 1;
        } else if (strcmp(a, "--regalloc-check") == 0) {
            regalloc = regalloc_check = 1;
        } else if (strcmp(a, "--print-liveness") == 0) {
            print_liveness = 1;
        } else if (strcmp(a, "--no-tags") == 0) {
            tags = 0;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
#ifdef WAVEASM_TRANSLATE
            printf("%s %s, MLIR front end %s\n", prog_name, wa_version_string(),
                   wa_mlir_version_string());
#else
            printf("%s %s\n", prog_name, wa_version_string());
#endif
            return 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option ", a, "");
        } else {
            if (have_input)
                return usage_error("more than one input file: ", a, "");
            input = a;
            have_input = 1;
        }
    }
    if (print_liveness && emit_asm)
        return usage_error("option ", "--print-liveness",
                           " replaces the output and cannot be combined with --emit=asm");
    if (output && strcmp(output, "-") == 0)
        output = NULL;
    if (pc.pipeline && (pc.n || regalloc))
        return usage_error("option ", "--pipeline=default",
                           " runs every stage and cannot be combined with --passes or --regalloc");

    wa_context *ctx;
    wa_context_options copts = WA_CONTEXT_OPTIONS_INIT;
    copts.log_fn = log_to_stderr; /* debug switches (WAVE_DEBUG_*) print here */
    copts.xnack = xnack;
    copts.sramecc = sramecc;
    if (wa_context_create(&ctx, &copts) != WA_OK) {
        fprintf(stderr, "%s: error: cannot create a context\n", prog_name);
        return 1;
    }
    int rc = 1;
    wa_program *prog = NULL;
    wa_liveness *live = NULL;
    char *text = NULL, *svg = NULL;
    size_t len = 0, svg_len = 0;
    char summary[1024];
    size_t summary_len = 0;
    wa_status st;
    /* Each call starts by clearing the context's diagnostics: report what it
       left (warnings on success, errors on failure) before the next call. */
#ifdef WAVEASM_TRANSLATE
    (void)input_form;
    mlir_opts.target = target;
    retarget = 0;
    st = read_mlir(&prog, ctx, input, &mlir_opts, kernel_index);
#else
    st = read_program(&prog, ctx, input, input_form, kernel_index);
#endif
    report(ctx, st);
    if (st != WA_OK)
        goto done;
    if (retarget) {
        st = wa_program_set_target(prog, target);
        report(ctx, st);
        if (st != WA_OK)
            goto done;
    }
    if (virtualize) {
        st = wa_pass_virtualize(prog, NULL, NULL);
        report(ctx, st);
        if (st != WA_OK)
            goto done;
    }
    if (validate) {
        st = wa_program_validate(NULL, prog, NULL);
        report(ctx, st);
        if (st != WA_OK)
            goto done;
    }
    if ((sched.spec || sched.print) && run_schedule(ctx, prog, &sched, &text, &len))
        goto done;
    if (print_liveness || svg_path) {
        st = wa_liveness_compute(&live, prog, NULL);
        report(ctx, st);
        if (st != WA_OK)
            goto done;
        if (svg_path) {
            st = wa_pressure_svg(&svg, &svg_len, prog, live);
            report(ctx, st);
            if (st != WA_OK || write_output(svg_path, svg, svg_len, NULL, 0))
                goto done;
        }
        if (print_liveness) {
            st = wa_pressure_report(&text, &len, prog, live);
            report(ctx, st);
            if (st != WA_OK)
                goto done;
        }
    }
    if (regalloc) {
        wa_regalloc_result *ra = NULL;
        wa_regalloc_options ro = WA_REGALLOC_OPTIONS_INIT;
        ro.liveness = live; /* the report's liveness, if any: not computed twice */
        if (regalloc_check)
            ro.flags |= WA_REGALLOC_CHECK;
        st = wa_regalloc_run(&ra, prog, &ro);
        if (st != WA_OK) {
            /* The report shows where the pressure is: write it before the
               allocator's diagnostics. */
            if (print_liveness)
                write_output(output, text, len, NULL, 0);
            report(ctx, st);
            goto done;
        }
        unsigned removed = 0;
        wa_regalloc_stats rs;
        wa_regalloc_get_stats(&rs, ra);
        wa_liveness_destroy(live); /* describes the program before the rewrite */
        live = NULL;
        st = wa_regalloc_apply(prog, ra, &removed);
        wa_regalloc_destroy(ra);
        report(ctx, st);
        if (st != WA_OK)
            goto done;
        if (regalloc_stats)
            fprintf(stderr,
                    "%s: regalloc: %u values; VGPR peak %u (max pressure %u), SGPR peak %u (%u), "
                    "AGPR peak %u (%u); %u moves coalesced (%u removed), %u MFMA ties, %u hole fits\n",
                    prog_name, rs.intervals, rs.peak_vgprs, rs.max_pressure_vgpr, rs.peak_sgprs,
                    rs.max_pressure_sgpr, rs.peak_agprs, rs.max_pressure_agpr, rs.coalesced,
                    removed, rs.tied, rs.hole_fits);
        if (print_liveness)
            summary_len = alloc_summary(summary, sizeof(summary), &rs, removed);
    }
    if ((pc.pipeline || pc.n) && run_passes(ctx, prog, &pc))
        goto done;
    if (pc.check_waitcnt) {
        unsigned errors = 0;
        st = wa_check_waitcnt(&errors, prog, &pc.waitcnt);
        report(ctx, st);
        if (st != WA_OK)
            goto done;
    }
    if (pc.check_hazards) {
        unsigned errors = 0;
        st = wa_check_hazards(&errors, prog, NULL);
        report(ctx, st);
        if (st != WA_OK)
            goto done;
    }
    if (sim.on && simulate(ctx, prog, &sim))
        goto done;
    if (!print_liveness && !sched.print) {
        if (emit_asm == 4) {
            unsigned char *obj = NULL;
            const wa_program *one = prog;
            st = wa_emit_object(&obj, &len, &one, 1, NULL);
            text = (char *)obj;
        } else if (emit_asm >= 2) {
            unsigned char *code = NULL;
            size_t n = 0;
            st = wa_encode_program(&code, &n, prog, NULL);
            if (st == WA_OK && emit_asm == 3) {
                wa_disasm_options dopts = WA_DISASM_OPTIONS_INIT;
                dopts.flags = WA_DISASM_OFFSETS;
                st = wa_disassemble(&text, &len, ctx, code, n, wa_program_target(prog), &dopts);
                wa_free(code);
            } else {
                text = (char *)code;
                len = n;
            }
        } else if (emit_asm) {
            wa_emit_options eo = WA_EMIT_OPTIONS_INIT;
            if (tags)
                eo.flags |= WA_EMIT_TAGS;
            st = wa_emit_asm(&text, &len, prog, &eo);
        } else {
            wa_print_options po = WA_PRINT_OPTIONS_INIT;
            if (!tags)
                po.flags &= ~WA_PRINT_TAGS;
            st = wa_program_print(&text, &len, prog, &po);
        }
        report(ctx, st);
        if (st != WA_OK)
            goto done;
    }
    if (write_output(output, text, len, summary, summary_len))
        goto done;
    rc = 0;
done:
    wa_free(text);
    wa_free(svg);
    wa_liveness_destroy(live);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return rc;
}
