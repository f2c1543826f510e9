/* tests/mlir/test_mlir_atomics.c — memref.atomic_rmw and amdgpu's raw buffer
   atomics: every kind the hardware does in one instruction, on i32, i64, f32
   and f64, in global memory and in LDS, generated here, run in the simulator
   and compared with C. 256 lanes update 8 shared slots (the final value; the
   inputs keep float sums exact, so the order does not matter) and each lane its
   own slot (the returned old value). Kinds without an instruction are errors. */
#include "check.h"
#include "mlir_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256
#define SLOTS 8

typedef enum aty { AI32, AI64, AF32, AF64 } aty;
static const char *const aty_name[] = { "i32", "i64", "f32", "f64" };
static const unsigned aty_bytes[] = { 4, 8, 4, 8 };

typedef struct akind {
    const char *name;
    unsigned types;  /* bit per aty */
    int commutative; /* the shared slots end the same in any order */
} akind;

static const akind kinds[] = {
    { "addi", 1u << AI32 | 1u << AI64, 1 },  { "andi", 1u << AI32 | 1u << AI64, 1 },
    { "ori", 1u << AI32 | 1u << AI64, 1 },   { "xori", 1u << AI32 | 1u << AI64, 1 },
    { "maxs", 1u << AI32 | 1u << AI64, 1 },  { "maxu", 1u << AI32 | 1u << AI64, 1 },
    { "mins", 1u << AI32 | 1u << AI64, 1 },  { "minu", 1u << AI32 | 1u << AI64, 1 },
    { "assign", 0xfu, 0 },                   { "addf", 1u << AF32 | 1u << AF64, 1 },
    { "maxnumf", 1u << AF32 | 1u << AF64, 1 }, { "minnumf", 1u << AF32 | 1u << AF64, 1 },
};

static double as_f(aty t, uint64_t b)
{
    if (t == AF32) {
        uint32_t u = (uint32_t)b;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static uint64_t of_f(aty t, double d)
{
    if (t == AF32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static uint64_t apply(const char *k, aty t, uint64_t m, uint64_t v)
{
    uint64_t mask = aty_bytes[t] == 4 ? 0xffffffffull : ~0ull;
    int64_t sm = t == AI32 ? (int32_t)(uint32_t)m : (int64_t)m;
    int64_t sv = t == AI32 ? (int32_t)(uint32_t)v : (int64_t)v;
    if (!strcmp(k, "addi")) return (m + v) & mask;
    if (!strcmp(k, "andi")) return m & v;
    if (!strcmp(k, "ori")) return m | v;
    if (!strcmp(k, "xori")) return m ^ v;
    if (!strcmp(k, "maxs")) return sm > sv ? m : v;
    if (!strcmp(k, "mins")) return sm < sv ? m : v;
    if (!strcmp(k, "maxu")) return m > v ? m : v;
    if (!strcmp(k, "minu")) return m < v ? m : v;
    if (!strcmp(k, "assign")) return v;
    if (!strcmp(k, "addf")) return of_f(t, as_f(t, m) + as_f(t, v));
    if (!strcmp(k, "maxnumf")) return as_f(t, m) >= as_f(t, v) ? m : v;
    return as_f(t, m) <= as_f(t, v) ? m : v; /* minnumf */
}

/* Random data: integers over the whole range (both signs), floats small
   integers (every sum exact). */
static uint64_t rand_val(aty t)
{
    uint64_t r = (uint64_t)mk_rand() << 32 | mk_rand();
    switch (t) {
    case AI32: return r & 0xffffffffull;
    case AI64: return r;
    default: return of_f(t, (double)((int)(r % 201) - 100));
    }
}

static void put(uint8_t *p, aty t, uint64_t v)
{
    memcpy(p, &v, aty_bytes[t]); /* little-endian host */
}
static uint64_t get(const uint8_t *p, aty t)
{
    uint64_t v = 0;
    memcpy(&v, p, aty_bytes[t]);
    return v;
}

/* The kernel: args acc (SLOTS), own (N), vals (N), old (N). In LDS the two
   arrays are copied in, updated, and copied back. */
static char *kernel_text(const char *kind, aty t, int lds)
{
    const char *T = aty_name[t];
    char *buf = malloc(8192);
    int n = snprintf(buf, 8192,
        "module attributes {gpu.container_module} {\n"
        "  gpu.module @k {\n"
        "    gpu.func @atom(%%acc: memref<8x%s>, %%own: memref<256x%s>, %%vals: memref<256x%s>,\n"
        "                   %%old: memref<256x%s>) kernel\n"
        "        attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {\n"
        "      %%tid = gpu.thread_id x\n"
        "      %%c8 = arith.constant 8 : index\n"
        "      %%slot = arith.remui %%tid, %%c8 : index\n"
        "      %%v = memref.load %%vals[%%tid] : memref<256x%s>\n",
        T, T, T, T, T);
    const char *sacc = "%acc", *sown = "%own";
    char accty[96], ownty[96];
    snprintf(accty, sizeof(accty), "memref<8x%s%s>", T, lds ? ", #gpu.address_space<workgroup>" : "");
    snprintf(ownty, sizeof(ownty), "memref<256x%s%s>", T, lds ? ", #gpu.address_space<workgroup>" : "");
    if (lds) {
        n += snprintf(buf + n, 8192 - n,
            "      %%lacc = memref.alloc() : %s\n"
            "      %%lown = memref.alloc() : %s\n"
            "      %%o0 = memref.load %%own[%%tid] : memref<256x%s>\n"
            "      memref.store %%o0, %%lown[%%tid] : %s\n"
            "      %%first = arith.cmpi ult, %%tid, %%c8 : index\n"
            "      scf.if %%first {\n"
            "        %%a0 = memref.load %%acc[%%tid] : memref<8x%s>\n"
            "        memref.store %%a0, %%lacc[%%tid] : %s\n"
            "      }\n"
            "      gpu.barrier\n",
            accty, ownty, T, ownty, T, accty);
        sacc = "%lacc";
        sown = "%lown";
    }
    if (strcmp(kind, "assign") != 0)
        n += snprintf(buf + n, 8192 - n,
            "      %%r0 = memref.atomic_rmw %s %%v, %s[%%slot] : (%s, %s) -> %s\n",
            kind, sacc, T, accty, T);
    n += snprintf(buf + n, 8192 - n,
        "      %%r1 = memref.atomic_rmw %s %%v, %s[%%tid] : (%s, %s) -> %s\n"
        "      memref.store %%r1, %%old[%%tid] : memref<256x%s>\n",
        kind, sown, T, ownty, T, T);
    if (lds)
        n += snprintf(buf + n, 8192 - n,
            "      gpu.barrier\n"
            "      %%o1 = memref.load %%lown[%%tid] : %s\n"
            "      memref.store %%o1, %%own[%%tid] : memref<256x%s>\n"
            "      scf.if %%first {\n"
            "        %%a1 = memref.load %%lacc[%%tid] : %s\n"
            "        memref.store %%a1, %%acc[%%tid] : memref<8x%s>\n"
            "      }\n",
            ownty, T, accty, T);
    snprintf(buf + n, 8192 - n, "      gpu.return\n    }\n  }\n}\n");
    return buf;
}

static void run_case(const akind *k, aty t, int lds)
{
    unsigned b = aty_bytes[t];
    char name[64];
    snprintf(name, sizeof(name), "%s_%s_%s.mlir", k->name, aty_name[t], lds ? "lds" : "global");
    ut_context("%s", name);
    char *text = kernel_text(k->name, t, lds);
    uint8_t *acc = calloc(SLOTS, b), *own = calloc(N, b), *vals = calloc(N, b), *old = calloc(N, b);
    uint8_t *want_acc = calloc(SLOTS, b), *want_own = calloc(N, b);
    mk_srand(0x1234u + (unsigned)t * 77u + (unsigned)lds);
    for (unsigned i = 0; i < SLOTS; i++)
        put(acc + i * b, t, rand_val(t));
    for (unsigned i = 0; i < N; i++) {
        put(own + i * b, t, rand_val(t));
        put(vals + i * b, t, rand_val(t));
    }
    memcpy(want_acc, acc, SLOTS * b);
    for (unsigned i = 0; i < N; i++) {
        uint64_t v = get(vals + i * b, t);
        put(want_own + i * b, t, apply(k->name, t, get(own + i * b, t), v));
        if (k->commutative) {
            uint8_t *s = want_acc + (i % SLOTS) * b;
            put(s, t, apply(k->name, t, get(s, t), v));
        }
    }
    uint8_t *want_old = malloc(N * b);
    memcpy(want_old, own, N * b);
    mk k0 = { 0 };
    mk_init(&k0);
    if (mk_load_text(&k0, text, name, NULL) == 0) {
        mk_buffer(&k0, "arg0", acc, SLOTS * b);
        mk_buffer(&k0, "arg1", own, N * b);
        mk_buffer(&k0, "arg2", vals, N * b);
        mk_buffer(&k0, "arg3", old, N * b);
        if (mk_run(&k0, 1, 1, 1) == 0) {
            for (unsigned i = 0; i < N; i++) {
                CHECK_MSG(get(own + i * b, t) == get(want_own + i * b, t),
                          "own[%u] = 0x%llx, want 0x%llx", i,
                          (unsigned long long)get(own + i * b, t),
                          (unsigned long long)get(want_own + i * b, t));
                CHECK_MSG(get(old + i * b, t) == get(want_old + i * b, t),
                          "old[%u] = 0x%llx, want 0x%llx", i,
                          (unsigned long long)get(old + i * b, t),
                          (unsigned long long)get(want_old + i * b, t));
            }
            for (unsigned i = 0; i < SLOTS; i++)
                CHECK_MSG(get(acc + i * b, t) == get(want_acc + i * b, t),
                          "acc[%u] = 0x%llx, want 0x%llx", i,
                          (unsigned long long)get(acc + i * b, t),
                          (unsigned long long)get(want_acc + i * b, t));
        }
    }
    mk_free(&k0);
    free(text);
    free(acc);
    free(own);
    free(vals);
    free(old);
    free(want_acc);
    free(want_own);
    free(want_old);
    ut_context("%s", "");
}

static void rmw_global(void)
{
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        for (unsigned t = 0; t < 4; t++)
            if (kinds[i].types & (1u << t)) {
                /* f32 max/min has no buffer instruction on these targets */
                if (t == AF32 && strstr(kinds[i].name, "numf"))
                    continue;
                run_case(&kinds[i], (aty)t, 0);
            }
}

static void rmw_lds(void)
{
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        for (unsigned t = 0; t < 4; t++)
            if (kinds[i].types & (1u << t))
                run_case(&kinds[i], (aty)t, 1);
}

/* The raw buffer atomics: fadd and smax/umin into shared slots, cmpswap on
   each lane's own slot (even lanes compare equal and swap, odd lanes do not),
   the old values returned. */
static void raw_buffer_atomics(void)
{
    static const char text[] =
        "module attributes {gpu.container_module} {\n"
        "  gpu.module @k {\n"
        "    gpu.func @raw(%f: memref<8xf32>, %s: memref<8xi32>, %u: memref<8xi32>,\n"
        "                  %own: memref<256xi32>, %vals: memref<256xi32>, %old: memref<256xi32>) kernel\n"
        "        attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {\n"
        "      %tid = gpu.thread_id x\n"
        "      %c1 = arith.constant 1 : i32\n"
        "      %c8 = arith.constant 8 : index\n"
        "      %slot = arith.remui %tid, %c8 : index\n"
        "      %slot32 = arith.index_cast %slot : index to i32\n"
        "      %tid32 = arith.index_cast %tid : index to i32\n"
        "      %v = memref.load %vals[%tid] : memref<256xi32>\n"
        "      %vf = arith.sitofp %v : i32 to f32\n"
        "      amdgpu.raw_buffer_atomic_fadd %vf -> %f[%slot32] : f32 -> memref<8xf32>, i32\n"
        "      amdgpu.raw_buffer_atomic_smax %v -> %s[%slot32] : i32 -> memref<8xi32>, i32\n"
        "      amdgpu.raw_buffer_atomic_umin %v -> %u[%slot32] : i32 -> memref<8xi32>, i32\n"
        "      %cur = memref.load %own[%tid] : memref<256xi32>\n"
        "      %odd = arith.andi %tid32, %c1 : i32\n"
        "      %cmp = arith.addi %cur, %odd : i32\n"
        "      %r = amdgpu.raw_buffer_atomic_cmpswap %v, %cmp -> %own[%tid32] : i32 -> memref<256xi32>, i32\n"
        "      memref.store %r, %old[%tid] : memref<256xi32>\n"
        "      gpu.return\n"
        "    }\n"
        "  }\n"
        "}\n";
    float f[SLOTS], want_f[SLOTS];
    uint32_t s[SLOTS], u[SLOTS], want_s[SLOTS], want_u[SLOTS];
    uint32_t own[N], vals[N], old[N], want_own[N];
    mk_srand(99);
    for (unsigned i = 0; i < SLOTS; i++) {
        want_f[i] = f[i] = (float)((int)(mk_rand() % 100) - 50);
        want_s[i] = s[i] = mk_rand();
        want_u[i] = u[i] = mk_rand();
    }
    for (unsigned i = 0; i < N; i++) {
        own[i] = mk_rand();
        vals[i] = (mk_rand() % 2001u) - 1000u;
        if (i % 3 == 0)
            vals[i] = mk_rand();
        want_own[i] = i % 2 == 0 ? vals[i] : own[i];
    }
    for (unsigned i = 0; i < N; i++) {
        unsigned j = i % SLOTS;
        want_f[j] += (float)(int32_t)vals[i];
        if ((int32_t)vals[i] > (int32_t)want_s[j])
            want_s[j] = vals[i];
        if (vals[i] < want_u[j])
            want_u[j] = vals[i];
    }
    uint32_t want_old[N];
    memcpy(want_old, own, sizeof(own));
    mk k = { 0 };
    if (mk_load_text(&k, text, "raw_atomics.mlir", NULL) == 0) {
        mk_buffer(&k, "arg0", f, sizeof(f));
        mk_buffer(&k, "arg1", s, sizeof(s));
        mk_buffer(&k, "arg2", u, sizeof(u));
        mk_buffer(&k, "arg3", own, sizeof(own));
        mk_buffer(&k, "arg4", vals, sizeof(vals));
        mk_buffer(&k, "arg5", old, sizeof(old));
        if (mk_run(&k, 1, 1, 1) == 0) {
            mk_check_f32(f, want_f, SLOTS, 1e-6, "fadd"); /* sums of large values: order */
            mk_check_u32(s, want_s, SLOTS, "smax");
            mk_check_u32(u, want_u, SLOTS, "umin");
            mk_check_u32(own, want_own, N, "cmpswap memory");
            mk_check_u32(old, want_old, N, "cmpswap old values");
        }
    }
    mk_free(&k);
}

/* Kinds without one instruction are located errors. */
static void no_instruction(void)
{
    static const struct {
        const char *kind, *type, *space, *want;
    } bad[] = {
        { "maximumf", "f32", "", "memref.atomic_rmw maximumf on f32 in global memory has no instruction" },
        { "mulf", "f32", ", #gpu.address_space<workgroup>", "mulf on f32 in workgroup memory" },
        { "muli", "i32", "", "muli on i32" },
        { "maxnumf", "f32", "", "maxnumf on f32 in global memory" },
        { "addf", "f16", "", "addf on f16" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char text[1024];
        snprintf(text, sizeof(text),
                 "module attributes {gpu.container_module} {\n"
                 "  gpu.module @k {\n"
                 "    gpu.func @bad(%%m: memref<4x%s>, %%v: %s) kernel {\n"
                 "      %%c0 = arith.constant 0 : index\n"
                 "      %%l = memref.alloc() : memref<4x%s, #gpu.address_space<workgroup>>\n"
                 "      %%r = memref.atomic_rmw %s %%v, %%%s[%%c0] : (%s, memref<4x%s%s>) -> %s\n"
                 "      gpu.return\n"
                 "    }\n"
                 "  }\n"
                 "}\n",
                 bad[i].type, bad[i].type, bad[i].type, bad[i].kind,
                 bad[i].space[0] ? "l" : "m", bad[i].type, bad[i].type, bad[i].space, bad[i].type);
        mk k = { 0 };
        mk_init(&k);
        wa_status st = mk_translate(&k, text, "bad.mlir", NULL, 0);
        CHECK_STATUS(st, WA_E_UNSUPPORTED);
        const char *msg = wa_context_last_error(k.ctx);
        CHECK_STR_CONTAINS(msg, bad[i].want);
        CHECK_STR_CONTAINS(msg, "bad.mlir:6:");
        mk_free(&k);
    }
}

UT_SUITE(UT_CASE(rmw_global) UT_CASE(rmw_lds) UT_CASE(raw_buffer_atomics) UT_CASE(no_instruction));
