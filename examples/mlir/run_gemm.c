/* examples/mlir/run_gemm.c — what a kernel DSL does with libwaveasm, end to end:
   translate an MLIR GEMM (C = A * B^T, f16 in, f32 out), compile it through the
   default pipeline with every checker on, run it in the wave64 simulator on
   random inputs over several memory-timing seeds, compare C with a reference
   computed here on the CPU, and write the assembly.

     waveasm-run-gemm GEMM.mlir [--target=gfx942] [--m=128 --n=128 --k=256]
                      [--grid=X,Y] [--seeds=4] [-o OUT.s]

   The kernel takes three buffers (A: m x k, B: n x k, C: m x n, row-major) and
   the shapes are the MLIR's own: the options only tell this program what to
   allocate and check. Exit status 0 when every run matches the reference. */
#include <waveasm/mlir.h>
#include <waveasm/waveasm.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run_opts {
    const char *input, *output, *target;
    unsigned m, n, k, grid[2], seeds;
} run_opts;

static int print_diags(const wa_context *ctx)
{
    for (unsigned i = 0; i < wa_context_diag_count(ctx); i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        const char *sev = d->severity == WA_SEVERITY_ERROR     ? "error"
                          : d->severity == WA_SEVERITY_WARNING ? "warning"
                                                               : "note";
        if (d->line)
            fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col, sev, d->message);
        else
            fprintf(stderr, "%s: %s\n", sev, d->message);
    }
    return 1;
}

/* xorshift32: the same inputs on every machine */
static uint32_t rng = 0x2545f491u;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* f32 -> f16, round to nearest even (inputs here are small normal numbers) */
static uint16_t f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
    int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    if (exp <= 0)
        return (uint16_t)sign; /* flush: never produced by the generator below */
    uint32_t half = (uint32_t)exp << 10 | mant >> 13, rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
        half++;
    return (uint16_t)(sign | half);
}

static float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    uint32_t x = exp ? sign | (exp - 15 + 127) << 23 | mant << 13 : sign; /* no subnormals here */
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* Random f16 values in [-1, 1) with at most 8 significant bits, kept as f16
   bits and as floats for the reference. */
static void fill(uint16_t *h, float *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int v = (int)(next_rand() % 512u) - 256;
        f[i] = v == 0 ? 0.0f : (float)v / 256.0f;
        h[i] = f32_to_f16(f[i]);
        f[i] = f16_to_f32(h[i]);
    }
}

static int parse_opts(run_opts *o, int argc, char **argv)
{
    *o = (run_opts){ NULL, NULL, "gfx942", 128, 128, 256, { 2, 2 }, 4 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--target=", 9) == 0)
            o->target = a + 9;
        else if (sscanf(a, "--m=%u", &o->m) == 1 || sscanf(a, "--n=%u", &o->n) == 1 ||
                 sscanf(a, "--k=%u", &o->k) == 1 || sscanf(a, "--seeds=%u", &o->seeds) == 1)
            continue;
        else if (sscanf(a, "--grid=%u,%u", &o->grid[0], &o->grid[1]) == 2)
            continue;
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            o->output = argv[++i];
        else if (a[0] != '-' && !o->input)
            o->input = a;
        else {
            fprintf(stderr, "waveasm-run-gemm: unknown option '%s'\n", a);
            return -1;
        }
    }
    if (!o->input || !o->m || !o->n || !o->k || !o->seeds) {
        fprintf(stderr, "usage: waveasm-run-gemm GEMM.mlir [--target=T] [--m=M --n=N --k=K] "
                        "[--grid=X,Y] [--seeds=S] [-o OUT.s]\n");
        return -1;
    }
    return 0;
}

/* Translates and compiles; prints what each stage did. */
static wa_program *compile(wa_context *ctx, const run_opts *o)
{
    wa_mlir_result *res = NULL;
    if (wa_mlir_translate_file(&res, ctx, o->input, NULL) != WA_OK) {
        print_diags(ctx);
        return NULL;
    }
    wa_program *prog = wa_mlir_result_take(res, 0);
    wa_mlir_result_destroy(res);
    printf("translated %s: kernel %s, %u IR entries\n", o->input, wa_program_name(prog),
           wa_program_size(prog));

    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.flags |= WA_PIPELINE_VERIFY;
    wa_pipeline *pl = NULL;
    wa_status st = wa_pipeline_create(&pl, ctx, &po);
    if (st == WA_OK)
        st = wa_pipeline_run(pl, prog);
    for (unsigned s = 0; st == WA_OK && s < WA_STAGE_COUNT_; s++) {
        wa_stage_stats ss;
        if (wa_pipeline_stats(&ss, pl, (wa_stage)s) == WA_OK && ss.ran)
            printf("  %-9s %5u instructions  %7.1f us  (v%u s%u a%u)\n",
                   wa_stage_name((wa_stage)s), ss.instrs, ss.seconds * 1e6, ss.peak_vgprs,
                   ss.peak_sgprs, ss.peak_agprs);
    }
    wa_pipeline_destroy(pl);
    if (st != WA_OK) {
        print_diags(ctx);
        wa_program_destroy(prog);
        return NULL;
    }
    return prog;
}

/* One simulated launch with timing seed `seed`; the number of elements of C
   that differ from `want`, or -1 when the run failed. */
static long simulate(wa_context *ctx, const wa_program *prog, const run_opts *o, uint64_t seed,
                     uint16_t *a, uint16_t *b, const float *want)
{
    size_t nc = (size_t)o->m * o->n;
    float *c = calloc(nc, sizeof(float));
    wa_sim_options so = WA_SIM_OPTIONS_INIT;
    so.flags = WA_SIM_TIMING | WA_SIM_HAZARDS;
    so.seed = seed;
    so.grid[0] = o->grid[0];
    so.grid[1] = o->grid[1];
    wa_sim *sim = NULL;
    wa_status st = c ? wa_sim_create(&sim, prog, &so) : WA_E_NOMEM;
    if (st == WA_OK)
        st = wa_sim_bind_buffer(sim, 0, a, (size_t)o->m * o->k * 2);
    if (st == WA_OK)
        st = wa_sim_bind_buffer(sim, 1, b, (size_t)o->n * o->k * 2);
    if (st == WA_OK)
        st = wa_sim_bind_buffer(sim, 2, c, nc * sizeof(float));
    if (st == WA_OK)
        st = wa_sim_run(sim);
    wa_sim_destroy(sim);
    long bad = 0;
    if (st != WA_OK) {
        print_diags(ctx);
        bad = -1;
    }
    for (size_t i = 0; bad >= 0 && i < nc; i++) {
        /* exact products, sums of at most k terms: the order of the MFMA's
           additions is the only difference */
        if (fabsf(c[i] - want[i]) > 1e-4f * (1.0f + fabsf(want[i]))) {
            if (bad < 4)
                fprintf(stderr, "  C[%zu][%zu] = %g, want %g\n", i / o->n, i % o->n,
                        (double)c[i], (double)want[i]);
            bad++;
        }
    }
    free(c);
    return bad;
}

static int write_asm(wa_context *ctx, const wa_program *prog, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (wa_emit_asm(&text, &len, prog, NULL) != WA_OK)
        return print_diags(ctx);
    FILE *f = fopen(path, "wb");
    int rc = !f || fwrite(text, 1, len, f) != len;
    if (f && fclose(f) != 0)
        rc = 1;
    wa_free(text);
    if (rc)
        fprintf(stderr, "waveasm-run-gemm: cannot write %s\n", path);
    else
        printf("wrote %s (%zu bytes)\n", path, len);
    return rc;
}

int main(int argc, char **argv)
{
    run_opts o;
    if (parse_opts(&o, argc, argv) != 0)
        return 2;
    wa_context_options co = WA_CONTEXT_OPTIONS_INIT;
    wa_context *ctx = NULL;
    if (wa_target_from_name(&co.target, o.target) != WA_OK ||
        wa_context_create(&ctx, &co) != WA_OK) {
        fprintf(stderr, "waveasm-run-gemm: unknown target '%s'\n", o.target);
        return 2;
    }
    wa_program *prog = compile(ctx, &o);
    int rc = prog ? 0 : 1;

    size_t na = (size_t)o.m * o.k, nb = (size_t)o.n * o.k, nc = (size_t)o.m * o.n;
    uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
    float *af = malloc(na * 4), *bf = malloc(nb * 4), *want = malloc(nc * 4);
    if (!rc && (!a || !b || !af || !bf || !want)) {
        fprintf(stderr, "waveasm-run-gemm: out of memory\n");
        rc = 1;
    }
    if (!rc) {
        fill(a, af, na);
        fill(b, bf, nb);
        for (unsigned i = 0; i < o.m; i++)
            for (unsigned j = 0; j < o.n; j++) {
                double s = 0;
                for (unsigned kk = 0; kk < o.k; kk++)
                    s += (double)af[(size_t)i * o.k + kk] * bf[(size_t)j * o.k + kk];
                want[(size_t)i * o.n + j] = (float)s;
            }
        for (unsigned seed = 1; !rc && seed <= o.seeds; seed++) {
            long bad = simulate(ctx, prog, &o, seed, a, b, want);
            printf("simulated %ux%u workgroups, timing seed %u: %s", o.grid[0], o.grid[1], seed,
                   bad == 0 ? "C matches the CPU reference" : "FAILED");
            if (bad > 0)
                printf(" (%ld of %zu elements differ)", bad, nc);
            printf("\n");
            rc = bad != 0;
        }
    }
    if (!rc && o.output)
        rc = write_asm(ctx, prog, o.output);
    free(a);
    free(b);
    free(af);
    free(bf);
    free(want);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return rc;
}
