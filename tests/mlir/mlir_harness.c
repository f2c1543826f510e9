/* tests/mlir/mlir_harness.c — see mlir_harness.h. */
#include "mlir_harness.h"

#include "check.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mk_print_diags(const wa_context *ctx)
{
    unsigned n = wa_context_diag_count(ctx);
    for (unsigned i = 0; i < n; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        fprintf(stderr, "  %s:%u:%u: %s: %s", d->file, d->line, d->col,
                d->severity == WA_SEVERITY_ERROR ? "error"
                : d->severity == WA_SEVERITY_WARNING ? "warning" : "note",
                d->message);
        if (d->tag != WA_NO_TAG)
            fprintf(stderr, " [I%u]", d->tag);
        fputc('\n', stderr);
    }
}

void mk_init(mk *k)
{
    memset(k, 0, sizeof(*k));
    k->ctx = ut_context_new(WA_TARGET_GFX942);
    k->seed = 1;
}

wa_status mk_translate(mk *k, const char *text, const char *name, const wa_mlir_options *mo,
                       unsigned index)
{
    if (!k->ctx)
        mk_init(k);
    wa_mlir_result *res = NULL;
    wa_status st = wa_mlir_translate(&res, k->ctx, text, strlen(text), name, mo);
    if (st != WA_OK)
        return st;
    if (index >= wa_mlir_result_count(res)) {
        wa_mlir_result_destroy(res);
        return WA_E_NOT_FOUND;
    }
    wa_program_destroy(k->prog);
    k->prog = wa_mlir_result_take(res, index);
    wa_mlir_result_destroy(res);
    k->nargs = wa_program_arg_count(k->prog);
    return WA_OK;
}

wa_status mk_translate_file(mk *k, const char *file, const wa_mlir_options *mo, unsigned index)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", WAVEASM_MLIR_TESTS_DIR, file);
    size_t len;
    char *text = ut_read_file(path, &len, 1);
    if (!CHECK_MSG(text != NULL, "cannot read %s", path))
        return WA_E_IO;
    wa_status st = mk_translate(k, text, file, mo, index);
    free(text);
    return st;
}

/* Writes the assembly and runs llvm-mc on it. */
static int mk_assemble(mk *k, const char *asm_text, size_t len)
{
#ifdef WAVEASM_MLIR_LLVM_MC
    char s_path[1200], o_path[1200], cmd[4096];
    snprintf(s_path, sizeof(s_path), "%s/%s.s", WAVEASM_MLIR_WORK_DIR, wa_program_name(k->prog));
    snprintf(o_path, sizeof(o_path), "%s/%s.o", WAVEASM_MLIR_WORK_DIR, wa_program_name(k->prog));
    FILE *f = fopen(s_path, "wb");
    if (!CHECK_MSG(f != NULL, "cannot write %s", s_path))
        return -1;
    fwrite(asm_text, 1, len, f);
    fclose(f);
    snprintf(cmd, sizeof(cmd), "\"%s\" -triple=amdgcn-amd-amdhsa -mcpu=%s -filetype=obj -o \"%s\" \"%s\"",
             WAVEASM_MLIR_LLVM_MC, wa_target_name(wa_program_target(k->prog)), o_path, s_path);
    int rc = system(cmd);
    if (!CHECK_MSG(rc == 0, "llvm-mc rejected %s (%d)", s_path, rc))
        return -1;
#else
    (void)k;
    (void)asm_text;
    (void)len;
#endif
    return 0;
}

int mk_compile(mk *k)
{
    wa_pipeline *pl = NULL;
    wa_pipeline_options po = WA_PIPELINE_OPTIONS_INIT;
    po.flags |= WA_PIPELINE_VERIFY;
    wa_status st = wa_pipeline_create(&pl, k->ctx, &po);
    if (st == WA_OK)
        st = wa_pipeline_run(pl, k->prog);
    wa_pipeline_destroy(pl);
    if (!CHECK_MSG(st == WA_OK, "pipeline failed: %s", wa_status_string(st))) {
        mk_print_diags(k->ctx);
        return -1;
    }
    char *text = NULL;
    size_t len = 0;
    wa_emit_options eo = WA_EMIT_OPTIONS_INIT;
    st = wa_emit_asm(&text, &len, k->prog, &eo);
    if (!CHECK_MSG(st == WA_OK, "emission failed: %s", wa_status_string(st))) {
        mk_print_diags(k->ctx);
        return -1;
    }
    int rc = k->no_assemble ? 0 : mk_assemble(k, text, len);
    wa_free(text);
    return rc;
}

int mk_load(mk *k, const char *file, const wa_mlir_options *mo)
{
    wa_status st = mk_translate_file(k, file, mo, 0);
    if (!CHECK_MSG(st == WA_OK, "%s: translation failed: %s", file, wa_status_string(st))) {
        mk_print_diags(k->ctx);
        return -1;
    }
    return mk_compile(k);
}

int mk_load_text(mk *k, const char *text, const char *name, const wa_mlir_options *mo)
{
    wa_status st = mk_translate(k, text, name, mo, 0);
    if (!CHECK_MSG(st == WA_OK, "%s: translation failed: %s", name, wa_status_string(st))) {
        mk_print_diags(k->ctx);
        return -1;
    }
    return mk_compile(k);
}

static unsigned mk_arg(mk *k, const char *name)
{
    for (unsigned a = 0; k->prog && a < k->nargs; a++) {
        wa_kernel_arg arg;
        if (wa_program_arg(&arg, k->prog, a) == WA_OK && arg.name && strcmp(arg.name, name) == 0)
            return a;
    }
    CHECK_MSG(0, "the kernel has no argument '%s'", name);
    return MK_MAX_ARGS;
}

void mk_buffer(mk *k, const char *name, void *data, size_t bytes)
{
    unsigned arg = mk_arg(k, name);
    if (arg < MK_MAX_ARGS) {
        k->data[arg] = data;
        k->bytes[arg] = bytes;
        k->bound[arg] = 1;
    }
}

void mk_value(mk *k, const char *name, uint64_t value)
{
    unsigned arg = mk_arg(k, name);
    if (arg < MK_MAX_ARGS) {
        k->value[arg] = value;
        k->bound[arg] = 2;
    }
}

int mk_run(mk *k, unsigned gx, unsigned gy, unsigned gz)
{
    wa_sim_options so = WA_SIM_OPTIONS_INIT;
    so.flags = WA_SIM_TIMING | WA_SIM_HAZARDS | k->sim_flags;
    so.seed = k->seed;
    so.grid[0] = gx;
    so.grid[1] = gy;
    so.grid[2] = gz;
    wa_sim *sim = NULL;
    wa_status st = wa_sim_create(&sim, k->prog, &so);
    for (unsigned a = 0; st == WA_OK && a < k->nargs; a++) {
        wa_kernel_arg arg;
        if (wa_program_arg(&arg, k->prog, a) != WA_OK)
            continue;
        if (arg.kind == WA_ARG_GLOBAL_BUFFER) {
            if (!CHECK_MSG(k->bound[a] == 1, "argument %u (a buffer) is not bound", a)) {
                st = WA_E_INVALID;
                break;
            }
            st = wa_sim_bind_buffer(sim, a, k->data[a], k->bytes[a]);
        } else if (arg.kind == WA_ARG_BY_VALUE) {
            if (!CHECK_MSG(k->bound[a] == 2, "argument %u (a value) is not set", a)) {
                st = WA_E_INVALID;
                break;
            }
            uint8_t bytes[8];
            for (unsigned i = 0; i < 8; i++)
                bytes[i] = (uint8_t)(k->value[a] >> (8 * i));
            st = wa_sim_set_arg(sim, a, bytes, arg.size);
        }
    }
    if (st == WA_OK)
        st = wa_sim_run(sim);
    wa_sim_destroy(sim);
    if (!CHECK_MSG(st == WA_OK, "%s: simulation failed: %s", wa_program_name(k->prog),
                   wa_status_string(st))) {
        mk_print_diags(k->ctx);
        return -1;
    }
    return 0;
}

void mk_free(mk *k)
{
    wa_program_destroy(k->prog);
    wa_context_destroy(k->ctx);
    memset(k, 0, sizeof(*k));
}

static uint32_t mk_state = 0x9e3779b9u;
void mk_srand(uint32_t seed)
{
    mk_state = seed ? seed : 1;
}
uint32_t mk_rand(void)
{
    uint32_t x = mk_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return mk_state = x;
}
float mk_randf(void)
{
    return (float)((double)(mk_rand() >> 8) / 8388608.0 - 1.0);
}

void *mk_alloc_f32(size_t n, int random)
{
    float *p = calloc(n ? n : 1, sizeof(float));
    if (p && random)
        for (size_t i = 0; i < n; i++)
            p[i] = mk_randf();
    return p;
}

void *mk_alloc_u32(size_t n, int random)
{
    uint32_t *p = calloc(n ? n : 1, sizeof(uint32_t));
    if (p && random)
        for (size_t i = 0; i < n; i++)
            p[i] = mk_rand();
    return p;
}

unsigned mk_check_f32(const float *got, const float *want, size_t n, double tol, const char *what)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        double scale = fabs((double)want[i]) > 1.0 ? fabs((double)want[i]) : 1.0;
        int ok = fabs((double)got[i] - (double)want[i]) <= tol * scale ||
                 (isnan(got[i]) && isnan(want[i]));
        if (!ok && bad++ < 5)
            CHECK_MSG(0, "%s[%zu] = %.9g, want %.9g", what, i, (double)got[i], (double)want[i]);
    }
    if (bad > 5)
        CHECK_MSG(0, "%s: %u mismatches in all", what, bad);
    return bad;
}

unsigned mk_check_u32(const uint32_t *got, const uint32_t *want, size_t n, const char *what)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ < 5)
            CHECK_MSG(0, "%s[%zu] = 0x%08x, want 0x%08x", what, i, got[i], want[i]);
    if (bad > 5)
        CHECK_MSG(0, "%s: %u mismatches in all", what, bad);
    return bad;
}

uint16_t mk_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int e = (int)((x >> 23) & 0xff) - 127 + 15;
    uint32_t m = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff)
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        m |= 0x800000u;
        unsigned shift = (unsigned)(14 - e);
        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

float mk_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu, x;
    if (e == 0) {
        if (m == 0) {
            x = sign;
        } else {
            e = 127 - 15 + 1;
            while (!(m & 0x400u)) {
                m <<= 1;
                e--;
            }
            x = sign | (e << 23) | ((m & 0x3ffu) << 13);
        }
    } else if (e == 31) {
        x = sign | 0x7f800000u | (m << 13);
    } else {
        x = sign | ((e - 15 + 127) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}
