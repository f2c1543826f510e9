/* bench/vs_llvm.c — libwaveasm against upstream LLVM on the same MLIR kernels.

   For every kernel file (tests/mlir/ and examples/mlir/ of the source tree, and
   the files named on the command line) both compilers build the kernels for
   one target, and the program prints, side by side:

     compile time  libwaveasm in process (read the text, wa_mlir_translate,
                   wa_compile with the default pipeline, wa_emit_asm), libwaveasm
                   as a process (waveasm-translate --pipeline=default
                   --emit=asm), LLVM as processes (mlir-opt, mlir-translate
                   --mlir-to-llvmir, llc -O3: the sum of the three wall times);
     code          instruction counts by class, s_waitcnt count, s_nop wait
                   states, registers, LDS, occupancy and code bytes of each
                   side's assembly, read the same way for both.

   Instructions are classified through the library's ISA table (wa_isa_lookup,
   wa_isa_get: format and flags), for both sides alike. Registers, LDS and the
   workgroup size come from each file's code object metadata; occupancy is one
   formula applied to both. Code bytes are the size of the kernel's symbol in
   the object llvm-mc makes from each assembly file.

   The LLVM side needs the kernels in the shape upstream MLIR lowers; the text
   rewrites that get them there (untimed, semantics kept) are done by
   vs_llvm_prep.py next to this file, which says what it changed. A file it
   cannot rewrite is skipped with the reason printed. Timings are printed, never
   judged. See bench/README.md. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <waveasm/waveasm.h>
#include <waveasm/mlir.h>

#include "bench_args.h"

extern char **environ;

#ifndef WAVEASM_BENCH_SOURCE_DIR
#define WAVEASM_BENCH_SOURCE_DIR "."
#endif
#ifndef WAVEASM_BENCH_TRANSLATE
#define WAVEASM_BENCH_TRANSLATE "waveasm-translate"
#endif

#define MAX_FILES 128
#define MAX_KERNELS 16
#define MAX_REPS 10001

/* ---- options ---------------------------------------------------------------------------- */

typedef struct options {
    const char *target;
    unsigned reps;            /* process measurements */
    unsigned inproc_reps;     /* in-process measurements (cheap: many) */
    int quick;
    int defaults;             /* also the kernels of the source tree */
    const char *keep;         /* keep the work files in this directory */
    const char *mlir_opt, *mlir_translate, *llc, *llvm_mc, *llvm_readelf;
    const char *python, *prep, *translate;
} options;

/* ---- small utilities -------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* User + system time of the children waited for so far. */
static double children_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs argv with stdout to `out` and stderr to `err` (either may be NULL:
   /dev/null). Returns the exit status (-1 if it could not run), the wall time
   of spawn to exit in *secs and the child's CPU time (user + system) in *cpu
   (either may be NULL). */
static int run_cpu(const char *const *argv, const char *out, const char *err, double *secs,
                   double *cpu)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err ? err : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    double c0 = children_cpu_s();
    double t0 = now_s();
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (secs)
        *secs = now_s() - t0;
    if (cpu)
        *cpu = children_cpu_s() - c0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run(const char *const *argv, const char *out, const char *err, double *secs)
{
    return run_cpu(argv, out, err, secs, NULL);
}

/* Whether `prog` runs at all (`prog --version`). */
static int have_tool(const char *prog)
{
    const char *argv[] = { prog, "--version", NULL };
    return run(argv, NULL, NULL, NULL) == 0;
}

/* The first line of a file, for error messages. */
static void first_line(char *dst, size_t cap, const char *path)
{
    char *t = bench_read_file(path, NULL);
    dst[0] = '\0';
    if (!t)
        return;
    size_t n = strcspn(t, "\n");
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, t, n);
    dst[n] = '\0';
    free(t);
}

/* ---- reading an assembly file ----------------------------------------------------------- */

enum {
    C_INSTRS, C_VALU, C_SALU, C_VMEM, C_SMEM, C_DS, C_MFMA, C_WAITCNT, C_NOPWS, C_OTHER,
    C_VGPR, C_AGPR, C_SGPR, C_LDS, C_OCC, C_BYTES, C_COUNT_
};
static const char *const col_name[C_COUNT_] = {
    "instrs", "VALU", "SALU", "VMEM", "SMEM", "DS", "MFMA", "waitcnt", "nop-ws", "unknown",
    "VGPR", "AGPR", "SGPR", "LDS", "occ", "bytes"
};
/* Direction of "better": -1 fewer is better, +1 more is better, 0 neither. */
static const int col_better[C_COUNT_] = { -1, -1, -1, -1, -1, -1, 0, -1, -1, 0,
                                          -1, -1, -1, -1, +1, -1 };

typedef struct kcode {
    char name[128];
    long v[C_COUNT_];
    long wg_size;
    int have_meta;
} kcode;

static char unknown_mnemonics[1024];

static void note_unknown(const char *m)
{
    char key[72];
    snprintf(key, sizeof key, " %s", m);
    if (strstr(unknown_mnemonics, key))
        return;
    size_t n = strlen(unknown_mnemonics);
    if (n + strlen(key) + 1 < sizeof unknown_mnemonics)
        memcpy(unknown_mnemonics + n, key, strlen(key) + 1);
}

/* Counts one instruction line (comment stripped) into `k`. */
static void classify(kcode *k, const char *line)
{
    char mn[64];
    size_t n = strcspn(line, " \t");
    if (n == 0 || n >= sizeof mn)
        return;
    memcpy(mn, line, n);
    mn[n] = '\0';
    k->v[C_INSTRS]++;
    wa_opcode op;
    if (wa_isa_lookup(&op, mn) != WA_OK) {
        /* the encoding suffixes the table does not spell */
        static const char *const sfx[] = { "_sdwa", "_dpp", "_e64_dpp", NULL };
        int found = 0;
        for (unsigned i = 0; sfx[i] && !found; i++) {
            size_t sl = strlen(sfx[i]);
            if (n > sl && strcmp(mn + n - sl, sfx[i]) == 0) {
                mn[n - sl] = '\0';
                found = wa_isa_lookup(&op, mn) == WA_OK;
                mn[n - sl] = sfx[i][0];
            }
        }
        if (!found) {
            k->v[C_OTHER]++;
            note_unknown(mn);
            return;
        }
    }
    const wa_isa_info *info = wa_isa_get(op);
    if (info->flags & WA_IF_WAITCNT) {
        k->v[C_WAITCNT]++;
        return;
    }
    if (info->flags & WA_IF_NOP) {
        const char *a = line + n;
        k->v[C_NOPWS] += strtol(a, NULL, 0) + 1;
        return;
    }
    if (info->flags & WA_IF_MFMA) {
        k->v[C_MFMA]++;
        return;
    }
    switch (info->format) {
    case WA_FMT_SOP1: case WA_FMT_SOP2: case WA_FMT_SOPK: case WA_FMT_SOPC: case WA_FMT_SOPP:
        k->v[C_SALU]++;
        break;
    case WA_FMT_SMEM:
        k->v[C_SMEM]++;
        break;
    case WA_FMT_VOP1: case WA_FMT_VOP2: case WA_FMT_VOPC: case WA_FMT_VOP3:
    case WA_FMT_VOP3P: case WA_FMT_MAI:
        k->v[C_VALU]++;
        break;
    case WA_FMT_DS:
        k->v[C_DS]++;
        break;
    case WA_FMT_MUBUF: case WA_FMT_GLOBAL: case WA_FMT_FLAT: case WA_FMT_SCRATCH:
        k->v[C_VMEM]++;
        break;
    default:
        k->v[C_OTHER]++;
        break;
    }
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static kcode *find_kernel(kcode *ks, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(ks[i].name, name) == 0)
            return &ks[i];
    return NULL;
}

/* Occupancy in waves per SIMD, the same formula for both sides (gfx90a, gfx942,
   gfx950: 512 unified VGPRs per lane in granules of 8, at most 8 waves, the
   GFX9 SGPR table; LDS: the workgroups that fit in a CU's LDS, their waves
   spread over its 4 SIMDs). */
static long occupancy(const kcode *k, const char *target)
{
    long vg = k->v[C_VGPR] < 8 ? 8 : (k->v[C_VGPR] + 7) / 8 * 8;
    long waves = 512 / vg;
    long sg = k->v[C_SGPR];
    long sw = sg <= 80 ? 10 : sg <= 88 ? 9 : sg <= 100 ? 8 : 7;
    if (sw < waves)
        waves = sw;
    if (waves > 8)
        waves = 8;
    if (k->v[C_LDS] > 0) {
        long lds_cu = strcmp(target, "gfx950") == 0 ? 163840 : 65536;
        long groups = lds_cu / k->v[C_LDS];
        long wg_waves = k->wg_size > 0 ? (k->wg_size + 63) / 64 : 1;
        if (wg_waves > 1 && groups > 16)
            groups = 16;
        long lw = groups * wg_waves / 4;
        if (groups > 0 && lw == 0)
            lw = 1;
        if (lw < waves)
            waves = lw;
    }
    return waves;
}

/* Reads the kernels of an assembly file: instruction counts from each kernel's
   body (from `name:` to its end label or .size), registers, LDS and workgroup
   size from the metadata. Returns the number of kernels. */
static unsigned read_asm(kcode *ks, unsigned max, const char *text)
{
    unsigned n = 0;
    kcode *cur = NULL;
    int in_meta = 0;
    kcode *meta = NULL;
    char *copy = strdup(text);
    if (!copy)
        return 0;
    for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *raw = line;
        if (in_meta) {
            if (strstr(raw, ".end_amdgpu_metadata")) {
                in_meta = 0;
                continue;
            }
            /* a kernel entry: "  - .key: v" starts one, "    .key: v" continues */
            char key[64];
            char val[160];
            int entry = strncmp(raw, "  - .", 5) == 0;
            if (!entry && strncmp(raw, "    .", 5) != 0)
                continue;
            static kcode pending;
            if (entry) {
                memset(&pending, 0, sizeof pending);
                meta = &pending;
            }
            if (sscanf(raw + 4, ".%63[^:]: %159s", key, val) != 2)
                continue;
            if (!meta)
                continue;
            long v = strtol(val, NULL, 0);
            if (strcmp(key, "vgpr_count") == 0)
                meta->v[C_VGPR] = v;
            else if (strcmp(key, "agpr_count") == 0)
                meta->v[C_AGPR] = v;
            else if (strcmp(key, "sgpr_count") == 0)
                meta->v[C_SGPR] = v;
            else if (strcmp(key, "group_segment_fixed_size") == 0)
                meta->v[C_LDS] = v;
            else if (strcmp(key, "max_flat_workgroup_size") == 0)
                meta->wg_size = v;
            else if (strcmp(key, "name") == 0) {
                char *q = val;
                if (*q == '\'' || *q == '"')
                    q++;
                q[strcspn(q, "'\"")] = '\0';
                kcode *k = find_kernel(ks, n, q);
                if (k) {
                    /* the keys after .name land in the kernel directly */
                    for (unsigned c = C_VGPR; c <= C_LDS; c++)
                        if (meta->v[c])
                            k->v[c] = meta->v[c];
                    if (meta->wg_size)
                        k->wg_size = meta->wg_size;
                    k->have_meta = 1;
                    meta = k;
                }
            }
            continue;
        }
        char *hash = strchr(raw, ';');
        if (hash)
            *hash = '\0';
        char *s = trim(raw);
        if (!*s)
            continue;
        if (strcmp(s, ".amdgpu_metadata") == 0) {
            in_meta = 1;
            cur = NULL;
            continue;
        }
        size_t len = strlen(s);
        if (s[len - 1] == ':') {
            s[len - 1] = '\0';
            if (cur && strncmp(s, ".L", 2) == 0 && strstr(s, "end")) {
                cur = NULL;
            } else if (s[0] != '.' && !cur) {
                if (n < max) {
                    cur = &ks[n++];
                    memset(cur, 0, sizeof *cur);
                    snprintf(cur->name, sizeof cur->name, "%s", s);
                }
            }
            continue;
        }
        if (s[0] == '.') {
            if (cur && strncmp(s, ".size", 5) == 0)
                cur = NULL;
            continue;
        }
        if (cur)
            classify(cur, s);
    }
    free(copy);
    return n;
}

/* Fills C_BYTES of each kernel from the FUNC symbols of `readelf -s --wide`. */
static void read_symbol_sizes(kcode *ks, unsigned n, const char *syms)
{
    char *copy = strdup(syms);
    if (!copy)
        return;
    for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char num[32], value[32], type[32], bind[32], vis[32], ndx[32], name[160];
        long size;
        if (sscanf(line, "%31s %31s %ld %31s %31s %31s %31s %159s", num, value, &size, type,
                   bind, vis, ndx, name) != 8 ||
            strcmp(type, "FUNC") != 0)
            continue;
        kcode *k = find_kernel(ks, n, name);
        if (k)
            k->v[C_BYTES] = size;
    }
    free(copy);
}

/* ---- one kernel file -------------------------------------------------------------------- */

typedef struct row {
    char label[96];
    const char *path;
    char skip_ours[512], skip_llvm[512];
    char notes[512];
    char unlinked[256];       /* device-library functions LLVM's code calls */
    unsigned nkernels;
    double ours_cpu, ours_proc_cpu, llvm_proc_cpu; /* best CPU times */
    double ours_best, ours_median, ours_front, ours_proc, llvm_proc, llvm_stage[3];
    unsigned nours, nllvm;
    kcode ours[MAX_KERNELS], llvm[MAX_KERNELS];
} row;

static void work_path(char *dst, size_t cap, const char *dir, const char *name)
{
    snprintf(dst, cap, "%s/%s", dir, name);
}

/* Assembles `asm_path` and reads its kernels; message in `err` on failure. */
static int analyse(kcode *ks, unsigned *n, const char *asm_path, const char *dir,
                   const char *side, const options *o, char *err, size_t errcap)
{
    char obj[1024], syms[1024], log[1024], mcpu[64];
    snprintf(obj, sizeof obj, "%s/%s.o", dir, side);
    snprintf(syms, sizeof syms, "%s/%s.syms", dir, side);
    snprintf(log, sizeof log, "%s/%s.mc.err", dir, side);
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", o->target);
    char *text = bench_read_file(asm_path, NULL);
    if (!text) {
        snprintf(err, errcap, "cannot read %s", asm_path);
        return -1;
    }
    *n = read_asm(ks, MAX_KERNELS, text);
    free(text);
    const char *mc[] = { o->llvm_mc, "-triple=amdgcn-amd-amdhsa", mcpu, "-filetype=obj",
                         asm_path, "-o", obj, NULL };
    if (run(mc, NULL, log, NULL) != 0) {
        char l[300];
        first_line(l, sizeof l, log);
        snprintf(err, errcap, "llvm-mc rejects the %s assembly: %s", side, l);
        return -1;
    }
    const char *re[] = { o->llvm_readelf, "-s", "--wide", obj, NULL };
    if (run(re, syms, NULL, NULL) == 0) {
        char *s = bench_read_file(syms, NULL);
        if (s) {
            read_symbol_sizes(ks, *n, s);
            free(s);
        }
    }
    for (unsigned i = 0; i < *n; i++)
        ks[i].v[C_OCC] = occupancy(&ks[i], o->target);
    return 0;
}

/* libwaveasm in process: read, translate, compile, emit; `reps` times. The
   assembly of the last repetition goes to `asm_path` (kernels concatenated). */
static int ours_in_process(row *r, wa_context *ctx, const options *o, const char *asm_path)
{
    /* whole repetition, its reading and translating part, its CPU time */
    double t[MAX_REPS] = { 0 }, tf[MAX_REPS] = { 0 }, c[MAX_REPS] = { 0 };
    unsigned reps = o->inproc_reps + 1; /* the first is a warm-up, not counted */
    for (unsigned rep = 0; rep < reps; rep++) {
        FILE *out = rep + 1 == reps ? fopen(asm_path, "wb") : NULL;
        double c0 = cpu_s();
        double t0 = now_s();
        size_t len = 0;
        char *text = bench_read_file(r->path, &len);
        if (!text) {
            snprintf(r->skip_ours, sizeof r->skip_ours, "cannot read the file");
            if (out)
                fclose(out);
            return -1;
        }
        wa_mlir_options mo = WA_MLIR_OPTIONS_INIT;
        wa_mlir_result *res = NULL;
        wa_status st = wa_mlir_translate(&res, ctx, text, len, r->path, &mo);
        tf[rep] = now_s() - t0;
        unsigned nk = st == WA_OK ? wa_mlir_result_count(res) : 0;
        for (unsigned i = 0; st == WA_OK && i < nk; i++) {
            wa_program *p = wa_mlir_result_take(res, i);
            char *asm_text = NULL;
            size_t asm_len = 0;
            st = wa_compile(p, NULL);
            if (st == WA_OK)
                st = wa_emit_asm(&asm_text, &asm_len, p, NULL);
            if (st == WA_OK && out)
                fwrite(asm_text, 1, asm_len, out);
            wa_free(asm_text);
            wa_program_destroy(p);
        }
        wa_mlir_result_destroy(res);
        free(text);
        t[rep] = now_s() - t0;
        c[rep] = cpu_s() - c0;
        if (out)
            fclose(out);
        if (st != WA_OK) {
            const wa_diag *d = wa_context_last_diag(ctx);
            snprintf(r->skip_ours, sizeof r->skip_ours, "%s", d ? d->message : "failed");
            wa_context_clear_diags(ctx);
            return -1;
        }
        r->nkernels = nk;
        wa_context_clear_diags(ctx);
    }
    r->ours_best = t[1];
    r->ours_front = tf[1];
    r->ours_cpu = c[1];
    for (unsigned i = 2; i < reps; i++) {
        if (c[i] < r->ours_cpu)
            r->ours_cpu = c[i];
        if (t[i] < r->ours_best) {
            r->ours_best = t[i];
            r->ours_front = tf[i];
        }
    }
    r->ours_median = median(t + 1, reps - 1);
    return 0;
}

/* libwaveasm as a process: waveasm-translate per kernel; best of `reps`. */
static void ours_process(row *r, const options *o, const char *dir)
{
    char tgt[64], out[1024];
    snprintf(tgt, sizeof tgt, "--target=%s", o->target);
    work_path(out, sizeof out, dir, "ours-process.s");
    r->ours_proc = -1;
    r->ours_proc_cpu = -1;
    for (unsigned rep = 0; rep < o->reps; rep++) {
        double sum = 0, csum = 0;
        for (unsigned k = 0; k < r->nkernels; k++) {
            char idx[32];
            double s = 0, c = 0;
            snprintf(idx, sizeof idx, "--kernel-index=%u", k);
            const char *argv[] = { o->translate, r->path, tgt, idx, "--pipeline=default",
                                   "--emit=asm", "-o", out, NULL };
            if (run_cpu(argv, NULL, NULL, &s, &c) != 0)
                return;
            sum += s;
            csum += c;
        }
        if (r->ours_proc < 0 || sum < r->ours_proc)
            r->ours_proc = sum;
        if (r->ours_proc_cpu < 0 || csum < r->ours_proc_cpu)
            r->ours_proc_cpu = csum;
    }
}

/* The pass pipeline of mlir-opt for `target`. */
static void llvm_pipeline(char *dst, size_t cap, const char *target)
{
    snprintf(dst, cap,
             "--pass-pipeline=builtin.module(test-gpu-rewrite,gpu.module(int-range-optimizations,"
             "lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,"
             "convert-vector-to-llvm,"
             "convert-amdgpu-to-rocdl{chipset=%s},convert-gpu-to-rocdl{chipset=%s},"
             "canonicalize),reconcile-unrealized-casts)",
             target, target);
}

/* LLVM: prepare (untimed), then mlir-opt, mlir-translate and llc, best of
   `reps` of their summed wall times. The assembly goes to `asm_path`. */
static int llvm_side(row *r, const options *o, const char *dir, const char *asm_path)
{
    char prep[1024], prep_out[1024], low[1024], mod[1024], ll[1024], err[1024];
    char pipeline[1024], mcpu[64], line[300];
    work_path(prep, sizeof prep, dir, "llvm-prep.mlir");
    work_path(prep_out, sizeof prep_out, dir, "llvm-prep.txt");
    work_path(low, sizeof low, dir, "llvm-lowered.mlir");
    work_path(mod, sizeof mod, dir, "llvm-module.mlir");
    work_path(ll, sizeof ll, dir, "llvm.ll");
    work_path(err, sizeof err, dir, "llvm.err");
    llvm_pipeline(pipeline, sizeof pipeline, o->target);
    snprintf(mcpu, sizeof mcpu, "-mcpu=%s", o->target);

    const char *pa[] = { o->python, o->prep, "prepare", r->path, prep, o->mlir_opt, NULL };
    if (run(pa, prep_out, err, NULL) != 0) {
        first_line(line, sizeof line, err);
        snprintf(r->skip_llvm, sizeof r->skip_llvm, "rewrite script failed: %s", line);
        return -1;
    }
    char *said = bench_read_file(prep_out, NULL);
    if (!said) {
        snprintf(r->skip_llvm, sizeof r->skip_llvm, "rewrite script said nothing");
        return -1;
    }
    for (char *save = NULL, *l = strtok_r(said, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (strncmp(l, "skip ", 5) == 0) {
            snprintf(r->skip_llvm, sizeof r->skip_llvm, "%s", l + 5);
        } else if (strncmp(l, "note ", 5) == 0) {
            size_t n = strlen(r->notes);
            snprintf(r->notes + n, sizeof r->notes - n, "%s%s", n ? "; " : "", l + 5);
        }
    }
    free(said);
    if (r->skip_llvm[0])
        return -1;

    const char *opt[] = { o->mlir_opt, pipeline, prep, "-o", low, NULL };
    const char *ex[] = { o->python, o->prep, "extract", low, mod, NULL };
    const char *tr[] = { o->mlir_translate, "--mlir-to-llvmir", mod, "-o", ll, NULL };
    const char *lc[] = { o->llc, "-O3", "-mtriple=amdgcn-amd-amdhsa", mcpu, ll, "-o",
                         asm_path, NULL };
    const char *const *stage[3] = { opt, tr, lc };
    static const char *const stage_name[3] = { "mlir-opt", "mlir-translate", "llc" };
    r->llvm_proc = -1;
    r->llvm_proc_cpu = -1;
    for (unsigned rep = 0; rep < o->reps; rep++) {
        double s[3], c[3];
        for (unsigned i = 0; i < 3; i++) {
            if (run_cpu(stage[i], NULL, err, &s[i], &c[i]) != 0) {
                first_line(line, sizeof line, err);
                snprintf(r->skip_llvm, sizeof r->skip_llvm, "%s fails: %s", stage_name[i], line);
                return -1;
            }
            /* the gpu.module becomes a module for mlir-translate (text, untimed) */
            if (i == 0 && rep == 0 && run(ex, NULL, err, NULL) != 0) {
                first_line(line, sizeof line, err);
                snprintf(r->skip_llvm, sizeof r->skip_llvm, "extract failed: %s", line);
                return -1;
            }
        }
        double sum = s[0] + s[1] + s[2], csum = c[0] + c[1] + c[2];
        if (r->llvm_proc_cpu < 0 || csum < r->llvm_proc_cpu)
            r->llvm_proc_cpu = csum;
        if (r->llvm_proc < 0 || sum < r->llvm_proc) {
            r->llvm_proc = sum;
            memcpy(r->llvm_stage, s, sizeof s);
        }
    }
    return 0;
}

/* The ROCm device-library functions (__ockl_*, __ocml_*) an assembly file
   refers to: upstream lowers some operations to calls of them, and without the
   library (not installed here) the code is incomplete. */
static void unlinked_calls(char *dst, size_t cap, const char *path)
{
    char *text = bench_read_file(path, NULL);
    dst[0] = '\0';
    if (!text)
        return;
    for (const char *p = text; (p = strstr(p, "__oc")) != NULL; p++) {
        if (strncmp(p, "__ockl_", 7) != 0 && strncmp(p, "__ocml_", 7) != 0)
            continue;
        size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        char name[96];
        snprintf(name, sizeof name, "%.*s", (int)(n < 90 ? n : 90), p);
        if (strstr(dst, name))
            continue;
        size_t l = strlen(dst);
        snprintf(dst + l, cap - l, "%s%s", l ? " " : "", name);
    }
    free(text);
}

static void do_file(row *r, wa_context *ctx, const options *o, const char *root, unsigned idx)
{
    char dir[600], ours_s[1024], llvm_s[1024], msg[512];
    snprintf(dir, sizeof dir, "%s/%02u", root, idx);
    mkdir(dir, 0755);
    work_path(ours_s, sizeof ours_s, dir, "ours.s");
    work_path(llvm_s, sizeof llvm_s, dir, "llvm.s");
    if (ours_in_process(r, ctx, o, ours_s) == 0) {
        ours_process(r, o, dir);
        if (analyse(r->ours, &r->nours, ours_s, dir, "ours", o, msg, sizeof msg) != 0)
            snprintf(r->skip_ours, sizeof r->skip_ours, "%s", msg);
    }
    if (llvm_side(r, o, dir, llvm_s) == 0) {
        if (analyse(r->llvm, &r->nllvm, llvm_s, dir, "llvm", o, msg, sizeof msg) != 0)
            snprintf(r->skip_llvm, sizeof r->skip_llvm, "%s", msg);
        unlinked_calls(r->unlinked, sizeof r->unlinked, llvm_s);
    }
}

/* ---- the kernel files ------------------------------------------------------------------- */

static unsigned list_dir(char **out, unsigned max, const char *dir)
{
    DIR *d = opendir(dir);
    unsigned n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".mlir") != 0 || n == max)
            continue;
        size_t cap = strlen(dir) + l + 2;
        out[n] = malloc(cap);
        if (out[n])
            snprintf(out[n++], cap, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(out, n, sizeof *out, cmp_str);
    return n;
}

static void make_label(char *dst, size_t cap, const char *path, const char *prefix)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".mlir") == 0)
        n -= 5;
    snprintf(dst, cap, "%s%.*s", prefix, (int)n, base);
}

/* ---- printing --------------------------------------------------------------------------- */

static void print_times(const row *rows, unsigned n)
{
    printf("\nCompile time. ours-us: libwaveasm in process, best repetition (mlir-us: its\n"
           "reading and wa_mlir_translate part; ours-med: median); ours-ms: waveasm-translate\n"
           "process; llvm-ms: mlir-opt + mlir-translate + llc processes (best sum, and its\n"
           "parts). x = LLVM time / libwaveasm time; cpu-x: the same ratios of CPU times\n"
           "(user + system; best repetition), less disturbed by other work on the machine.\n\n");
    printf("%-22s %9s %9s %9s %9s %9s %8s %8s %8s %8s %7s %8s %7s\n", "kernel", "ours-us",
           "mlir-us", "ours-med", "ours-ms", "llvm-ms", "opt-ms", "trans-ms", "llc-ms",
           "x-inproc", "x-proc", "cpu-x-in", "cpu-x-p");
    double lg_in = 0, lg_pr = 0, lg_cin = 0, lg_cpr = 0;
    unsigned cnt = 0;
    for (unsigned i = 0; i < n; i++) {
        const row *r = &rows[i];
        if (r->skip_ours[0] || r->skip_llvm[0]) {
            printf("%-22s %s\n", r->label,
                   r->skip_ours[0] ? "(libwaveasm failed, see below)" : "(LLVM skipped, see below)");
            continue;
        }
        double xin = r->llvm_proc / r->ours_best;
        double xpr = r->ours_proc > 0 ? r->llvm_proc / r->ours_proc : 0;
        double cin = r->ours_cpu > 0 ? r->llvm_proc_cpu / r->ours_cpu : 0;
        double cpr = r->ours_proc_cpu > 0 ? r->llvm_proc_cpu / r->ours_proc_cpu : 0;
        printf("%-22s %9.0f %9.0f %9.0f %9.1f %9.1f %8.1f %8.1f %8.1f %8.0f %7.1f %8.0f %7.1f\n",
               r->label, r->ours_best * 1e6, r->ours_front * 1e6, r->ours_median * 1e6,
               r->ours_proc * 1e3, r->llvm_proc * 1e3, r->llvm_stage[0] * 1e3,
               r->llvm_stage[1] * 1e3, r->llvm_stage[2] * 1e3, xin, xpr, cin, cpr);
        if (xpr > 0 && cin > 0 && cpr > 0) {
            lg_in += log(xin);
            lg_pr += log(xpr);
            lg_cin += log(cin);
            lg_cpr += log(cpr);
            cnt++;
        }
    }
    if (cnt)
        printf("%-22s %9s %9s %9s %9s %9s %8s %8s %8s %8.0f %7.1f %8.0f %7.1f  (%u files)\n",
               "geomean", "", "", "", "", "", "", "", "", exp(lg_in / cnt), exp(lg_pr / cnt),
               exp(lg_cin / cnt), exp(lg_cpr / cnt), cnt);
}

/* A kernel whose code both sides produced (LLVM's `b` may be NULL in
   print_code's table when the names differ). */
typedef struct pair {
    const row *r;
    const kcode *a, *b;
} pair;

/* The kernels to compare, in file order: not failed, not skipped, LLVM's code
   complete. Returns how many (at most `max`). */
static unsigned compared(pair *out, unsigned max, const row *rows, unsigned n)
{
    unsigned np = 0;
    for (unsigned i = 0; i < n; i++) {
        const row *r = &rows[i];
        if (r->skip_ours[0] || r->skip_llvm[0] || r->unlinked[0])
            continue;
        for (unsigned k = 0; k < r->nours && np < max; k++) {
            out[np].r = r;
            out[np].a = &r->ours[k];
            out[np++].b = find_kernel((kcode *)r->llvm, r->nllvm, r->ours[k].name);
        }
    }
    return np;
}

static void print_code(const row *rows, unsigned n)
{
    printf("\nCode, per kernel: ours / LLVM (counts from the assembly, the same ISA-table\n"
           "classification on both sides; VGPR = .vgpr_count (arch + AGPR), SGPR =\n"
           ".sgpr_count (with VCC/FLAT_SCRATCH/XNACK), LDS bytes, occ = waves per SIMD,\n"
           "bytes = the kernel symbol's size in the llvm-mc object).\n\n");
    printf("%-22s %-4s", "kernel", "side");
    for (unsigned c = 0; c < C_COUNT_; c++)
        printf(" %7s", col_name[c]);
    printf("\n");
    static pair ps[MAX_FILES * MAX_KERNELS];
    unsigned np = compared(ps, MAX_FILES * MAX_KERNELS, rows, n);
    for (unsigned i = 0; i < np; i++) {
        const kcode *a = ps[i].a, *b = ps[i].b;
        char label[240];
        if (ps[i].r->nours > 1)
            snprintf(label, sizeof label, "%s:%s", ps[i].r->label, a->name);
        else
            snprintf(label, sizeof label, "%s", ps[i].r->label);
        printf("%-22s %-4s", label, "ours");
        for (unsigned c = 0; c < C_COUNT_; c++)
            printf(" %7ld", a->v[c]);
        printf("\n%-22s %-4s", "", "llvm");
        for (unsigned c = 0; c < C_COUNT_; c++) {
            if (b)
                printf(" %7ld", b->v[c]);
            else
                printf(" %7s", "-");
        }
        printf("\n");
    }
}

static void print_ratios(const row *rows, unsigned n)
{
    printf("\nRatios ours/LLVM: geometric mean over the kernels where both counts are\n"
           "non-zero (n), and the kernels where LLVM's figure is better.\n\n");
    static pair ps[MAX_FILES * MAX_KERNELS];
    unsigned np = compared(ps, MAX_FILES * MAX_KERNELS, rows, n);
    for (unsigned c = 0; c < C_COUNT_; c++) {
        double lg = 0;
        unsigned cnt = 0;
        char wins[2048] = "";
        for (unsigned i = 0; i < np; i++) {
            if (!ps[i].b)
                continue;
            long x = ps[i].a->v[c], y = ps[i].b->v[c];
            if (x > 0 && y > 0) {
                lg += log((double)x / (double)y);
                cnt++;
            }
            int llvm_better = col_better[c] < 0 ? y < x : col_better[c] > 0 ? y > x : 0;
            if (llvm_better) {
                size_t l = strlen(wins);
                snprintf(wins + l, sizeof wins - l, "%s%s(%ld%c%ld)", l ? " " : "",
                         ps[i].r->label, y, col_better[c] > 0 ? '>' : '<', x);
            }
        }
        if (cnt)
            printf("%-8s %6.2f (n=%u)", col_name[c], exp(lg / cnt), cnt);
        else
            printf("%-8s %6s (n=0)", col_name[c], "-");
        if (col_better[c])
            printf("  LLVM better: %s", wins[0] ? wins : "none");
        printf("\n");
    }
}

/* ---- main ------------------------------------------------------------------------------- */

/* --name=path options that name the programs used; 1 if `arg` is one. */
static int program_option(options *o, const char *arg)
{
    const struct {
        const char *name;
        const char **field;
    } progs[] = {
        { "--mlir-opt", &o->mlir_opt }, { "--mlir-translate", &o->mlir_translate },
        { "--llc", &o->llc },           { "--llvm-mc", &o->llvm_mc },
        { "--llvm-readelf", &o->llvm_readelf }, { "--python", &o->python },
        { "--prep", &o->prep },         { "--translate", &o->translate },
    };
    for (unsigned i = 0; i < sizeof progs / sizeof *progs; i++) {
        const char *v = bench_arg_value(arg, progs[i].name);
        if (v) {
            *progs[i].field = v;
            return 1;
        }
    }
    return 0;
}

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [options] [file.mlir ...]\n"
            "  --target=gfx942|gfx950|gfx90a   target (default gfx942)\n"
            "  --reps=N                        repetitions of the processes (default 5)\n"
            "  --inproc-reps=N                 repetitions in process (default 100)\n"
            "  --quick                         one repetition (3 in process), a few kernels\n"
            "  --only                          only the files on the command line\n"
            "  --keep=DIR                      keep the work files (assembly of both sides) in DIR\n"
            "  --mlir-opt=P --mlir-translate=P --llc=P --llvm-mc=P --llvm-readelf=P\n"
            "  --python=P --prep=P --translate=P   the programs used\n",
            argv0);
    return 2;
}

int main(int argc, char **argv)
{
    options o = { "gfx942", 5, 100, 0, 1, NULL, "mlir-opt-22", "mlir-translate-22", "llc-22",
                  "llvm-mc-22", "llvm-readelf-22", "python3",
                  WAVEASM_BENCH_SOURCE_DIR "/bench/vs_llvm_prep.py", WAVEASM_BENCH_TRANSLATE };
    char *files[MAX_FILES];
    const char *prefix[MAX_FILES];
    unsigned nfiles = 0, nextra = 0;
    char *extra[MAX_FILES];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if ((v = bench_arg_value(a, "--target")))
            o.target = v;
        else if ((v = bench_arg_value(a, "--reps"))) {
            o.reps = (unsigned)strtoul(v, NULL, 10);
            if (o.reps < 1 || o.reps >= MAX_REPS)
                return usage(argv[0]);
        } else if ((v = bench_arg_value(a, "--inproc-reps"))) {
            o.inproc_reps = (unsigned)strtoul(v, NULL, 10);
            if (o.inproc_reps < 1 || o.inproc_reps >= MAX_REPS)
                return usage(argv[0]);
        } else if (strcmp(a, "--quick") == 0)
            o.quick = 1;
        else if (strcmp(a, "--only") == 0)
            o.defaults = 0;
        else if ((v = bench_arg_value(a, "--keep")))
            o.keep = v;
        else if (program_option(&o, a))
            continue;
        else if (a[0] == '-')
            return usage(argv[0]);
        else if (nextra < MAX_FILES)
            extra[nextra++] = (char *)a;
    }
    if (o.quick) {
        o.reps = 1;
        o.inproc_reps = 3;
    }
    wa_target target;
    if (wa_target_from_name(&target, o.target) != WA_OK) {
        fprintf(stderr, "unknown target %s\n", o.target);
        return 2;
    }
    const char *tools[] = { o.mlir_opt, o.mlir_translate, o.llc, o.llvm_mc, o.llvm_readelf,
                            o.python };
    for (unsigned i = 0; i < sizeof tools / sizeof *tools; i++) {
        if (!have_tool(tools[i])) {
            printf("vs_llvm: skipped: %s is not available\n", tools[i]);
            return 77;
        }
    }

    /* the kernel files */
    if (o.defaults) {
        static const char *const dirs[2][2] = { { "/tests/mlir", "" }, { "/examples/mlir", "ex/" } };
        for (unsigned d = 0; d < 2; d++) {
            char path[1024];
            snprintf(path, sizeof path, "%s%s", WAVEASM_BENCH_SOURCE_DIR, dirs[d][0]);
            unsigned got = list_dir(files + nfiles, MAX_FILES - nfiles, path);
            for (unsigned i = 0; i < got; i++)
                prefix[nfiles + i] = dirs[d][1];
            nfiles += got;
        }
        if (o.quick) {
            /* a few small kernels of different kinds */
            static const char *const pick[] = { "/copy_1d.mlir", "/mfma_16x16x16.mlir",
                                                "/lds_transpose.mlir", "/stream_binding.mlir" };
            unsigned kept = 0;
            for (unsigned i = 0; i < nfiles; i++) {
                int want = 0;
                for (unsigned p = 0; p < sizeof pick / sizeof *pick; p++) {
                    size_t fl = strlen(files[i]), pl = strlen(pick[p]);
                    want |= fl > pl && strcmp(files[i] + fl - pl, pick[p]) == 0 &&
                            prefix[i][0] == '\0';
                }
                if (want) {
                    files[kept] = files[i];
                    prefix[kept++] = prefix[i];
                } else {
                    free(files[i]);
                }
            }
            nfiles = kept;
        }
    }
    for (unsigned i = 0; i < nextra && nfiles < MAX_FILES; i++) {
        files[nfiles] = strdup(extra[i]);
        prefix[nfiles++] = "";
    }
    if (nfiles == 0) {
        fprintf(stderr, "no kernel files\n");
        return 2;
    }

    char root[512];
    if (o.keep) {
        snprintf(root, sizeof root, "%s", o.keep);
        mkdir(root, 0755);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(root, sizeof root, "%s/vs_llvm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(root)) {
            perror("mkdtemp");
            return 1;
        }
    }

    wa_context_options co = WA_CONTEXT_OPTIONS_INIT;
    co.target = target;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &co) != WA_OK) {
        fprintf(stderr, "cannot create a context\n");
        return 1;
    }
    row *rows = calloc(nfiles, sizeof *rows);
    if (!rows)
        return 1;
    char pipeline[1024];
    llvm_pipeline(pipeline, sizeof pipeline, o.target);
    printf("vs_llvm: target %s, %u repetitions in process, %u of the processes, %u files\n",
           o.target, o.inproc_reps, o.reps, nfiles);
    printf("libwaveasm: %s; MLIR front end %s\n", wa_version_string(), wa_mlir_version_string());
    printf("LLVM: %s %s | %s --mlir-to-llvmir | %s -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=%s\n",
           o.mlir_opt, pipeline, o.mlir_translate, o.llc, o.target);
    for (unsigned i = 0; i < nfiles; i++) {
        rows[i].path = files[i];
        make_label(rows[i].label, sizeof rows[i].label, files[i], prefix[i]);
        do_file(&rows[i], ctx, &o, root, i);
        fflush(stdout);
    }
    unsigned compared = 0;
    for (unsigned i = 0; i < nfiles; i++)
        compared += !rows[i].skip_ours[0] && !rows[i].skip_llvm[0];
    print_times(rows, nfiles);
    print_code(rows, nfiles);
    print_ratios(rows, nfiles);

    printf("\nSkipped or failed:\n");
    unsigned bad = 0;
    for (unsigned i = 0; i < nfiles; i++) {
        if (rows[i].skip_ours[0])
            printf("  %-20s libwaveasm: %s\n", rows[i].label, rows[i].skip_ours), bad++;
        if (rows[i].skip_llvm[0])
            printf("  %-20s LLVM: %s\n", rows[i].label, rows[i].skip_llvm), bad++;
        else if (rows[i].unlinked[0])
            printf("  %-20s code not compared: LLVM's code calls %s of the ROCm device "
                   "library, which is not linked\n",
                   rows[i].label, rows[i].unlinked),
                bad++;
    }
    if (!bad)
        printf("  none\n");
    printf("\nRewrites for the LLVM side (vs_llvm_prep.py):\n");
    for (unsigned i = 0; i < nfiles; i++)
        if (rows[i].notes[0])
            printf("  %-20s %s\n", rows[i].label, rows[i].notes);
    if (unknown_mnemonics[0])
        printf("\nMnemonics not in the ISA table (counted as unknown):%s\n", unknown_mnemonics);
    if (!o.keep)
        nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);

    for (unsigned i = 0; i < nfiles; i++)
        free(files[i]);
    free(rows);
    wa_context_destroy(ctx);
    return compared ? 0 : 1;
}
