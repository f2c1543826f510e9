/* bench/parity_bench.c — register allocation, waits and nops against LLVM's on the
   same instruction stream.

   For each LLVM IR kernel (the .ll files of bench/parity, or files on the command line) and
   target: `llc-22 -O3` compiles it; the assembly is imported
   (wa_program_parse_asm); a copy is turned back into virtual registers with the
   waits and nops removed (wa_pass_virtualize) and compiled by the default
   pipeline with every checker on. Both programs are measured the same way
   (wa_kernel_resources_compute for registers; s_waitcnt instructions; wait
   states of s_nop), both are assembled with llvm-mc, and both run in the
   simulator (waits and wait states checked) on the same random buffers: the
   memory they leave must be equal.

     parity_bench [--llc=llc-22] [--llvm-mc=llvm-mc-22] [--quick] [FILE.ll ...]

   A kernel's first lines may say how to run it:
     ; parity: targets=gfx942,gfx950 grid=4 bytes=16384 arg2=64
   (grid: workgroups in x; bytes: size of each global buffer, filled at random;
   argN=V: the by-value argument N). Prints one row per kernel and target and
   the totals; exit status 1 if a kernel failed to compile, assemble or
   simulate to the same memory (the figures themselves never fail it). */
#define _POSIX_C_SOURCE 200809L
#include <waveasm/waveasm.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef WAVEASM_PARITY_DIR
#define WAVEASM_PARITY_DIR "bench/parity"
#endif

#define MAX_FILES 64
#define MAX_ARGS 16

typedef struct kspec {
    char targets[64];
    unsigned grid;
    size_t bytes;
    int have_arg[MAX_ARGS];
    uint64_t arg[MAX_ARGS];
} kspec;

typedef struct figures {
    unsigned vgprs, agprs, sgprs, instrs, waits, nop_states;
} figures;

static const char *llc = "llc-22", *llvm_mc = "llvm-mc-22";
static char tmpdir[256];

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int rc = fwrite(text, 1, len, f) == len ? 0 : -1;
    return fclose(f) == 0 ? rc : -1;
}

static void parse_spec(const char *text, kspec *k)
{
    memset(k, 0, sizeof(*k));
    snprintf(k->targets, sizeof(k->targets), "gfx942,gfx950");
    k->grid = 1;
    k->bytes = 16384;
    const char *p = strstr(text, "; parity:");
    if (!p)
        return;
    p += 9;
    const char *end = strchr(p, '\n');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    char line[256];
    snprintf(line, sizeof(line), "%.*s", (int)(n < 255 ? n : 255), p);
    for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
        unsigned a;
        unsigned long long v;
        if (strncmp(tok, "targets=", 8) == 0)
            snprintf(k->targets, sizeof(k->targets), "%s", tok + 8);
        else if (sscanf(tok, "grid=%u", &k->grid) == 1)
            continue;
        else if (sscanf(tok, "bytes=%llu", &v) == 1)
            k->bytes = (size_t)v;
        else if (sscanf(tok, "arg%u=%llu", &a, &v) == 2 && a < MAX_ARGS) {
            k->have_arg[a] = 1;
            k->arg[a] = v;
        }
    }
}

static void measure(figures *f, const wa_program *p)
{
    memset(f, 0, sizeof(*f));
    wa_kernel_resources r;
    if (wa_kernel_resources_compute(&r, p) == WA_OK) {
        f->vgprs = r.arch_vgprs;
        f->agprs = r.agprs;
        f->sgprs = r.next_free_sgpr;
    }
    for (unsigned i = 0; i < wa_program_size(p); i++) {
        wa_instr_view v;
        if (wa_program_get(&v, p, i) != WA_OK || v.opcode == WA_OP_LABEL ||
            v.opcode == WA_OP_COMMENT)
            continue;
        f->instrs++;
        if (v.opcode == WA_OP_S_WAITCNT)
            f->waits++;
        if (v.opcode == WA_OP_S_NOP && v.num_operands && v.operands[0].kind == WA_OPND_IMM)
            f->nop_states += (unsigned)v.operands[0].imm.i + 1;
    }
}

static void print_diags(const wa_context *ctx)
{
    const char *e = wa_context_last_error(ctx);
    if (e && *e)
        fprintf(stderr, "    %s\n", e);
}

/* Assembles `p`'s emitted text with llvm-mc; 0 when it is accepted. */
static int assembles(const wa_program *p, const char *target, const char *tag)
{
    char *text = NULL;
    size_t len = 0;
    if (wa_emit_asm(&text, &len, p, NULL) != WA_OK)
        return -1;
    char path[1024], cmd[2600];
    if (snprintf(path, sizeof(path), "%s/%s.s", tmpdir, tag) >= (int)sizeof(path))
        return -1;
    int rc = write_file(path, text, len);
    wa_free(text);
    if (rc)
        return -1;
    snprintf(cmd, sizeof(cmd), "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj %s -o %s.o",
             llvm_mc, target, path, path);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs `p` on fresh copies of `init` (one buffer per global-buffer argument). */
static wa_sim *simulate(const wa_program *p, const kspec *k, uint8_t *const *init, uint8_t **mem,
                        uint64_t seed)
{
    wa_sim_options so = WA_SIM_OPTIONS_INIT;
    so.flags = WA_SIM_TIMING | WA_SIM_HAZARDS | WA_SIM_CLOCK_UNDEFINED;
    so.seed = seed;
    so.grid[0] = k->grid;
    wa_sim *sim = NULL;
    if (wa_sim_create(&sim, p, &so) != WA_OK)
        return NULL;
    for (unsigned a = 0; a < wa_program_arg_count(p) && a < MAX_ARGS; a++) {
        wa_kernel_arg arg;
        if (wa_program_arg(&arg, p, a) != WA_OK)
            continue;
        wa_status st = WA_OK;
        if (arg.kind == WA_ARG_GLOBAL_BUFFER) {
            memcpy(mem[a], init[a], k->bytes);
            st = wa_sim_bind_buffer(sim, a, mem[a], k->bytes);
        } else if (arg.kind == WA_ARG_BY_VALUE && k->have_arg[a]) {
            uint8_t b[8];
            for (unsigned i = 0; i < 8; i++)
                b[i] = (uint8_t)(k->arg[a] >> (8 * i));
            st = wa_sim_set_arg(sim, a, b, arg.size <= 8 ? arg.size : 8);
        }
        if (st != WA_OK) {
            wa_sim_destroy(sim);
            return NULL;
        }
    }
    if (wa_sim_run(sim) != WA_OK) {
        wa_sim_destroy(sim);
        return NULL;
    }
    return sim;
}

typedef struct totals {
    unsigned rows, vgpr_le, sgpr_le, wait_le, nop_le, same_mem, failed;
    long dv, ds, dw, dn, di;
} totals;

static int run_one(const char *file, const char *target_name, const kspec *k, totals *t, int quick)
{
    char base[128];
    const char *slash = strrchr(file, '/');
    snprintf(base, sizeof(base), "%s", slash ? slash + 1 : file);
    char *dot = strrchr(base, '.');
    if (dot)
        *dot = 0;
    char asm_path[512], cmd[1400];
    snprintf(asm_path, sizeof(asm_path), "%s/%s.%s.llc.s", tmpdir, base, target_name);
    snprintf(cmd, sizeof(cmd), "%s -O3 -mtriple=amdgcn-amd-amdhsa -mcpu=%s %s -o %s", llc,
             target_name, file, asm_path);
    if (system(cmd) != 0) {
        printf("%-14s %-7s llc failed\n", base, target_name);
        return -1;
    }
    size_t len = 0;
    char *text = read_file(asm_path, &len);
    wa_context_options co = WA_CONTEXT_OPTIONS_INIT;
    wa_target_from_name(&co.target, target_name);
    wa_context *ctx = NULL;
    wa_program *ref = NULL, *ours = NULL;
    int rc = -1;
    const char *why = NULL;
    if (!text || wa_context_create(&ctx, &co) != WA_OK) {
        why = "set-up";
        goto out;
    }
    if (wa_program_parse_asm(&ref, ctx, text, len, asm_path, 0) != WA_OK) {
        why = "import of LLVM's assembly";
        goto out;
    }
    wa_pass_stats vs;
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.flags |= WA_PIPELINE_VERIFY;
    if (wa_program_clone(&ours, ref) != WA_OK || wa_pass_virtualize(ours, NULL, &vs) != WA_OK) {
        why = "virtualize";
        goto out;
    }
    if (wa_compile(ours, &po) != WA_OK) {
        why = "default pipeline";
        goto out;
    }
    figures L, W;
    measure(&L, ref);
    measure(&W, ours);
    char tag[256];
    snprintf(tag, sizeof(tag), "%s.%s.ours", base, target_name);
    int asm_ok = assembles(ours, target_name, tag) == 0;
    /* the same random buffers for both; several timing seeds */
    unsigned nargs = wa_program_arg_count(ref);
    uint8_t *init[MAX_ARGS] = { 0 }, *m1[MAX_ARGS] = { 0 }, *m2[MAX_ARGS] = { 0 };
    uint32_t x = 0x9e3779b9u;
    for (unsigned a = 0; a < nargs && a < MAX_ARGS; a++) {
        init[a] = malloc(k->bytes);
        m1[a] = malloc(k->bytes);
        m2[a] = malloc(k->bytes);
        for (size_t i = 0; init[a] && i < k->bytes; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            /* small values: floats stay finite, integers small */
            init[a][i] = (uint8_t)(i % 4 == 3 ? 0x3f - (x & 1) : x);
        }
    }
    int same = 1;
    for (uint64_t seed = 1; seed <= (quick ? 1u : 3u) && same; seed++) {
        wa_sim *s1 = simulate(ref, k, init, m1, seed), *s2 = simulate(ours, k, init, m2, seed);
        unsigned diffs = 1;
        if (!s1 || !s2 || wa_sim_compare(&diffs, s1, s2) != WA_OK || diffs) {
            if (!s1)
                fprintf(stderr, "    %s %s: LLVM's code failed in the simulator\n", base, target_name);
            if (!s2)
                fprintf(stderr, "    %s %s: our code failed in the simulator\n", base, target_name);
            print_diags(ctx);
            same = 0;
        }
        wa_sim_destroy(s1);
        wa_sim_destroy(s2);
    }
    for (unsigned a = 0; a < MAX_ARGS; a++) {
        free(init[a]);
        free(m1[a]);
        free(m2[a]);
    }
    printf("%-14s %-7s %4u %4u  %4u %4u  %4u %4u  %5u %5u  %4u %4u  %-4s %s\n", base,
           target_name, L.vgprs + L.agprs, W.vgprs + W.agprs, L.sgprs, W.sgprs, L.instrs,
           W.instrs, L.waits, W.waits, L.nop_states, W.nop_states, asm_ok ? "ok" : "FAIL",
           same ? "same" : "DIFF");
    t->rows++;
    t->vgpr_le += W.vgprs + W.agprs <= L.vgprs + L.agprs;
    t->sgpr_le += W.sgprs <= L.sgprs;
    t->wait_le += W.waits <= L.waits;
    t->nop_le += W.nop_states <= L.nop_states;
    t->same_mem += same;
    t->dv += (long)(W.vgprs + W.agprs) - (long)(L.vgprs + L.agprs);
    t->ds += (long)W.sgprs - (long)L.sgprs;
    t->dw += (long)W.waits - (long)L.waits;
    t->dn += (long)W.nop_states - (long)L.nop_states;
    t->di += (long)W.instrs - (long)L.instrs;
    rc = asm_ok && same ? 0 : -1;
out:
    if (why) {
        printf("%-14s %-7s FAILED: %s\n", base, target_name, why);
        if (ctx)
            print_diags(ctx);
    }
    wa_program_destroy(ref);
    wa_program_destroy(ours);
    wa_context_destroy(ctx);
    free(text);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    char *files[MAX_FILES];
    unsigned nfiles = 0;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--llc=", 6) == 0)
            llc = argv[i] + 6;
        else if (strncmp(argv[i], "--llvm-mc=", 10) == 0)
            llvm_mc = argv[i] + 10;
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: parity_bench [--llc=P] [--llvm-mc=P] [--quick] [FILE.ll ...]\n");
            return 2;
        } else if (nfiles < MAX_FILES)
            files[nfiles++] = strdup(argv[i]);
    }
    if (!nfiles) {
        DIR *d = opendir(WAVEASM_PARITY_DIR);
        struct dirent *e;
        while (d && (e = readdir(d)) && nfiles < MAX_FILES) {
            size_t n = strlen(e->d_name);
            if (n > 3 && strcmp(e->d_name + n - 3, ".ll") == 0) {
                char path[1024];
                snprintf(path, sizeof(path), "%s/%s", WAVEASM_PARITY_DIR, e->d_name);
                files[nfiles++] = strdup(path);
            }
        }
        if (d)
            closedir(d);
        qsort(files, nfiles, sizeof(files[0]), cmp_str);
    }
    char probe[600];
    snprintf(probe, sizeof(probe), "%s --version >/dev/null 2>&1", llc);
    if (system(probe) != 0) {
        printf("parity_bench: %s not found: nothing to compare\n", llc);
        return 0;
    }
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/waveasm-parity-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("parity_bench: mkdtemp");
        return 1;
    }
    printf("LLVM: %s -O3; ours: its output, registers renamed per definition web, waits and\n"
           "nops removed, default pipeline. Columns: LLVM then ours.\n\n", llc);
    printf("%-14s %-7s %9s  %9s  %9s  %11s  %9s  %-4s %s\n", "kernel", "target", "VGPR+AGPR",
           "SGPR", "instrs", "s_waitcnt", "nop WS", "asm", "memory");
    totals t;
    memset(&t, 0, sizeof(t));
    int failed = 0;
    for (unsigned f = 0; f < nfiles; f++) {
        size_t len = 0;
        char *text = read_file(files[f], &len);
        if (!text) {
            printf("%s: cannot read\n", files[f]);
            failed = 1;
            continue;
        }
        kspec k;
        parse_spec(text, &k);
        free(text);
        char targets[64];
        snprintf(targets, sizeof(targets), "%s", k.targets);
        for (char *tg = strtok(targets, ","); tg; tg = strtok(NULL, ","))
            if (run_one(files[f], tg, &k, &t, quick) != 0)
                failed = 1;
        free(files[f]);
    }
    if (t.rows)
        printf("\n%u kernels x targets: ours <= LLVM in VGPR+AGPR %u, SGPR %u, s_waitcnt %u, "
               "nop wait states %u; same memory %u.\n"
               "Sum of (ours - LLVM): VGPR+AGPR %+ld, SGPR %+ld, instructions %+ld, s_waitcnt "
               "%+ld, nop wait states %+ld.\n",
               t.rows, t.vgpr_le, t.sgpr_le, t.wait_le, t.nop_le, t.same_mem, t.dv, t.ds, t.di,
               t.dw, t.dn);
    char rm[300];
    snprintf(rm, sizeof(rm), "rm -rf %s", tmpdir);
    if (system(rm) != 0)
        fprintf(stderr, "parity_bench: could not remove %s\n", tmpdir);
    return failed;
}
