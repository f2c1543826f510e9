/* tests/unit/test_regalloc.c — register allocation (regalloc.h): separate pools
   per class, tuple alignment (VGPR/AGPR tuples even, SGPR pairs at 2, quads and
   wider at 4, a register's own larger alignment), precolored ABI registers,
   reserved registers, limits, tied MFMA accumulators, read-modify-write
   operands, move coalescing, lifetime holes, the peak against the pressure,
   lookup, apply, the independent checker (and hand-made bad allocations it must
   reject), the failure diagnostic, and bad input.

   Every successful allocation is verified twice: by wa_regalloc_check with the
   options it was made with, and by the verifier of randprog.c, which shares no
   code with the library. Where a test expects particular registers, the limits
   leave no other choice (the placement policy is the allocator's business);
   elsewhere it asserts the rules: alignment, disjointness, ties, reuse. */
#define _POSIX_C_SOURCE 200112L /* setenv */

#include "check.h"
#include "randprog.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE WA_NONE

static wa_program *parse_t(wa_context *ctx, const char *target, const char *body)
{
    wa_program *prog = NULL;
    wa_status st = ut_parse_body(&prog, ctx, target, body);
    CHECK_MSG(st == WA_OK && prog, "parse failed (%d):%s\n%s", (int)st, ut_diags_text(ctx), body);
    return st == WA_OK ? prog : NULL;
}

static wa_program *parse(wa_context *ctx, const char *body)
{
    return parse_t(ctx, "gfx942", body);
}

/* Both checkers on an allocation; returns 1 if both accept it. */
static int verified(const wa_program *prog, const wa_regalloc_result *res,
                    const wa_regalloc_options *o)
{
    unsigned errors = 99;
    wa_status st = wa_regalloc_check(&errors, prog, res, o);
    int ok = CHECK_MSG(st == WA_OK && errors == 0, "wa_regalloc_check: %d, %u errors:%s", (int)st,
                       errors, ut_diags_text(wa_program_context(prog)));
    rp_ref *ref = rp_ref_compute(prog);
    unsigned bad = rp_verify_allocation(ref, prog, res, o, 1, 5);
    rp_ref_free(ref);
    ok &= CHECK_MSG(bad == 0, "independent verifier: %u problems", bad);
    return ok;
}

/* Allocates (which must succeed) and verifies. NULL after a failed check. */
static wa_regalloc_result *alloc(const wa_program *prog, const wa_regalloc_options *o)
{
    wa_regalloc_result *res = NULL;
    wa_status st = wa_regalloc_run(&res, prog, o);
    if (!CHECK_MSG(st == WA_OK && res, "wa_regalloc_run: %d:%s", (int)st,
                   ut_diags_text(wa_program_context(prog))))
        return NULL;
    verified(prog, res, o);
    return res;
}

/* First physical register of `vreg` (NONE if it has none). */
static unsigned reg_of(const wa_regalloc_result *res, unsigned vreg)
{
    wa_operand o;
    if (wa_regalloc_lookup(&o, res, vreg) != WA_OK)
        return NONE;
    return o.id;
}

static void check_reg(const wa_regalloc_result *res, unsigned vreg, wa_reg_class cls, unsigned first,
                      unsigned count, int line)
{
    wa_operand o;
    ut_context("register of %%%u (line %d)", vreg, line);
    if (CHECK_OK(wa_regalloc_lookup(&o, res, vreg))) {
        CHECK_EQ_UINT(o.kind, WA_OPND_PHYS);
        CHECK_EQ_UINT(o.reg_class, cls);
        CHECK_EQ_UINT(o.id, first);
        CHECK_EQ_UINT(o.count, count);
    }
    ut_context("%s", "");
}
#define CHECK_REG(res, vreg, cls, first, count) \
    check_reg((res), (vreg), (cls), (first), (count), __LINE__)

static wa_regalloc_stats stats_of(const wa_regalloc_result *res)
{
    wa_regalloc_stats s;
    memset(&s, 0xFF, sizeof(s));
    CHECK_OK(wa_regalloc_get_stats(&s, res));
    CHECK_EQ_UINT(s.version, WA_REGALLOC_STATS_VERSION);
    return s;
}

static unsigned count_ops(const wa_program *prog, wa_opcode op)
{
    unsigned n = 0;
    for (unsigned i = 0; i < wa_program_size(prog); i++) {
        wa_instr_view v;
        wa_program_get(&v, prog, i);
        n += v.opcode == op;
    }
    return n;
}

/* Applies the allocation to a copy, which must validate as physical and emit;
   returns the printed copy without tags (free with free()). */
static char *applied(const wa_program *prog, const wa_regalloc_result *res, unsigned *out_removed)
{
    wa_program *copy = NULL;
    if (!CHECK_OK(wa_program_clone(&copy, prog)))
        return NULL;
    unsigned removed = 12345;
    char *text = NULL;
    if (CHECK_OK(wa_regalloc_apply(copy, res, &removed))) {
        CHECK_EQ_UINT(wa_program_size(copy) + removed, wa_program_size(prog));
        CHECK_EQ_UINT(wa_program_vreg_count(copy), 0);
        wa_validate_options vo = WA_VALIDATE_OPTIONS_INIT;
        vo.flags = WA_VALIDATE_PHYSICAL;
        unsigned errors = 0;
        wa_status st = wa_program_validate(&errors, copy, &vo);
        CHECK_MSG(st == WA_OK, "the allocated program does not validate (%u errors):%s", errors,
                  ut_diags_text(wa_program_context(copy)));
        char *s = NULL;
        size_t len = 0;
        st = wa_emit_asm(&s, &len, copy, NULL);
        CHECK_MSG(st == WA_OK, "emit failed:%s", ut_diags_text(wa_program_context(copy)));
        wa_free(s);
        char *p = ut_print_flags(copy, WA_PRINT_COMMENTS);
        if (p) {
            text = ut_strdup(p);
            wa_free(p);
        }
    }
    if (out_removed)
        *out_removed = removed;
    wa_program_destroy(copy);
    return text;
}

/* Runs an allocation that must fail with `want`: no result may come back (one
   that does anyway is released so that the failure is reported only once). */
static int run_fails(const wa_program *prog, const wa_regalloc_options *o, wa_status want,
                     const char *file, int line)
{
    wa_regalloc_result *res = (wa_regalloc_result *)(uintptr_t)1;
    wa_status st = wa_regalloc_run(&res, prog, o);
    int ok = ut_check_status(st, want, "wa_regalloc_run", file, line);
    ok &= ut_check(res == NULL, file, line, "a failed allocation returned a result");
    if (res && res != (wa_regalloc_result *)(uintptr_t)1)
        wa_regalloc_destroy(res);
    return ok;
}
#define CHECK_RUN_FAILS(prog, o, want) run_fails((prog), (o), (want), __FILE__, __LINE__)

/* ---- pools and alignment ---------------------------------------------------------------- */

static void class_pools_are_separate(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  .abi none\n"
                                  "  v_mov_b32 %v1, 1\n"
                                  "  s_mov_b32 %s2, 2\n"
                                  "  v_accvgpr_write_b32 %a3, 3\n"
                                  "  v_add_u32 %v4, %s2, %v1\n"
                                  "  v_accvgpr_write_b32 %a5, %v4\n"
                                  "  v_accvgpr_read_b32 %v6, %a3\n"
                                  "  v_accvgpr_read_b32 %v7, %a5\n"
                                  "  v_add_u32 %v8, %v6, %v7\n"
                                  "  v_readfirstlane_b32 %s9, %v8\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    /* Each class has its own pool numbered from 0: with 2 VGPRs, 1 SGPR and 2
       AGPRs everything fits, so s0 and a0 serve although v0 is taken. */
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 2;
    o.max_sgprs = 1;
    o.max_agprs = 2;
    wa_regalloc_result *res = alloc(prog, &o);
    REQUIRE(res);
    CHECK_REG(res, 2, WA_REG_SGPR, 0, 1);
    CHECK_REG(res, 9, WA_REG_SGPR, 0, 1);
    CHECK(reg_of(res, 3) + reg_of(res, 5) == 1); /* a0 and a1, both live at once */
    for (unsigned v = 1; v <= 8; v++) {
        wa_operand ph;
        if (wa_regalloc_lookup(&ph, res, v) == WA_OK && ph.reg_class == WA_REG_VGPR)
            CHECK(ph.id < 2);
    }
    wa_regalloc_destroy(res);
    res = alloc(prog, NULL);
    REQUIRE(res);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.intervals, 9);
    CHECK_EQ_UINT(s.peak_agprs, 2);
    CHECK_EQ_UINT(s.max_pressure_agpr, 2);
    CHECK_EQ_UINT(s.peak_vgprs, s.max_pressure_vgpr);
    CHECK_EQ_UINT(s.peak_sgprs, s.max_pressure_sgpr);
    free(applied(prog, res, NULL));
    wa_regalloc_destroy(res);
    /* a class limited to no registers at all: said so, not a wrapped range */
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.max_agprs = 0;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    CHECK_LAST_DIAG(ctx, WA_E_ALLOC, "no AGPR may be used (the limit is 0)", UT_ANY, UT_ANY,
                    UT_ANY);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* VGPR tuples start even on every target (gfx90a, gfx942 and gfx950 all
   require aligned VGPR tuples); 4-register tuples need no more than that. */
static void vgpr_tuple_alignment(void)
{
    static const char *const targets[3] = { "gfx90a", "gfx942", "gfx950" };
    for (unsigned t = 0; t < 3; t++) {
        wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
        ut_context("target %s", targets[t]);
        /* v0 (ABI) stays live; %v1-%v3 take v1-v3; %v1 and %v2 die, leaving the
           free run v1..v2, which starts odd: the pair must go to v[4:5]. */
        wa_program *prog = parse_t(ctx, targets[t],
                                   "  v_mov_b32 %v1, 1\n"
                                   "  v_mov_b32 %v2, 2\n"
                                   "  v_mov_b32 %v3, 3\n"
                                   "  global_store_dword v0, %v1, s[0:1]\n"
                                   "  global_store_dword v0, %v2, s[0:1]\n"
                                   "  global_load_dwordx2 %v5<2,align=2>, v0, s[0:1]\n"
                                   "  global_store_dwordx2 v0, %v5, s[0:1]\n"
                                   "  global_store_dword v0, %v3, s[0:1]\n"
                                   "  s_endpgm\n");
        if (prog) {
            wa_regalloc_result *res = alloc(prog, NULL);
            if (res) {
                unsigned r = reg_of(res, 5);
                CHECK_MSG(r != NONE && r % 2 == 0, "pair at v%u", r);
                wa_regalloc_stats s = stats_of(res);
                CHECK_EQ_UINT(s.max_pressure_vgpr, 4);
                CHECK(s.peak_vgprs >= 4 && s.peak_vgprs <= 6);
                free(applied(prog, res, NULL));
                wa_regalloc_destroy(res);
            }
            wa_program_destroy(prog);
        }
        /* v0 and %v1 live with 6 VGPRs: the quad can only start at v2, which is
           even but not a multiple of 4 (enough on these targets) */
        prog = parse_t(ctx, targets[t],
                       "  v_mov_b32 %v1, 1\n"
                       "  global_load_dwordx4 %v2<4,align=2>, v0, s[0:1]\n"
                       "  global_store_dwordx4 v0, %v2, s[0:1]\n"
                       "  global_store_dword v0, %v1, s[0:1]\n"
                       "  s_endpgm\n");
        if (prog) {
            wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
            o.max_vgprs = 6;
            wa_regalloc_result *res = alloc(prog, &o);
            if (res) {
                CHECK_REG(res, 1, WA_REG_VGPR, 1, 1);
                CHECK_REG(res, 2, WA_REG_VGPR, 2, 4);
                free(applied(prog, res, NULL));
                wa_regalloc_destroy(res);
            }
            wa_program_destroy(prog);
        }
        ut_context("%s", "");
        wa_context_destroy(ctx);
    }
}

/* AGPR tuples are even too; a register's own larger alignment is honoured. */
static void agpr_and_declared_alignment(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_accvgpr_write_b32 %a1, 0\n"
                                  "  global_load_dwordx2 %a2<2,align=2>, v0, s[0:1]\n"
                                  "  global_load_dwordx2 %v3<2,align=8>, v0, s[0:1]\n"
                                  "  global_load_dwordx4 %a4<4,align=4>, v0, s[0:1]\n"
                                  "  global_store_dwordx2 v0, %a2, s[0:1]\n"
                                  "  global_store_dwordx2 v0, %v3, s[0:1]\n"
                                  "  global_store_dwordx4 v0, %a4, s[0:1]\n"
                                  "  v_accvgpr_read_b32 %v5, %a1\n"
                                  "  global_store_dword v0, %v5, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    unsigned a2 = reg_of(res, 2), v3 = reg_of(res, 3), a4 = reg_of(res, 4);
    CHECK_MSG(a2 != NONE && a2 % 2 == 0, "AGPR pair at a%u", a2);
    CHECK_MSG(v3 != NONE && v3 % 8 == 0 && v3 >= 8, "declared alignment 8: v%u", v3); /* v0 live */
    CHECK_MSG(a4 != NONE && a4 % 4 == 0, "declared alignment 4: a%u", a4);
    /* alone in a pool of 10 registers next to the live v0, the 8-aligned pair
       can only be v[8:9] */
    wa_regalloc_destroy(res);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 10;
    res = alloc(prog, &o);
    REQUIRE(res);
    CHECK_REG(res, 3, WA_REG_VGPR, 8, 2);
    free(applied(prog, res, NULL));
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* SGPR pairs start at a multiple of 2, quads and octs at a multiple of 4. */
static void sgpr_tuple_alignment(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* s[0:1] (kernarg pointer, read until item 3) and s2 (workgroup id, read at
       item 2) are live at the start, s3 is free but odd. */
    wa_program *prog = parse(ctx, "  .abi kernarg_ptr, workgroup_id_x\n"
                                  "  s_load_dwordx2 %s1<2,align=2>, s[0:1], 0\n"  /* s[4:5] */
                                  "  s_load_dwordx4 %s2<4,align=4>, s[0:1], 8\n"  /* s[8:11] */
                                  "  s_mov_b32 %s3, s2\n"                         /* s3: best fit */
                                  "  s_load_dwordx8 %s4<8,align=4>, s[0:1], 16\n" /* s[12:19] */
                                  "  s_add_u32 %s5, %s1[1], %s2[3]\n"
                                  "  s_add_u32 %s6, %s4[7], %s3\n"
                                  "  s_add_u32 %s7, %s5, %s6\n"
                                  "  s_add_u32 %s8, %s1[0], %s2[0]\n"
                                  "  s_add_u32 %s9, %s4[0], %s7\n"
                                  "  s_add_u32 %s10, %s8, %s9\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    unsigned r1 = reg_of(res, 1), r2 = reg_of(res, 2), r3 = reg_of(res, 3), r4 = reg_of(res, 4);
    (void)r3;
    CHECK_MSG(r1 != NONE && r1 % 2 == 0 && r1 >= 4, "pair at s%u", r1);
    CHECK_MSG(r2 != NONE && r2 % 4 == 0 && r2 >= 4, "quad at s%u", r2);
    CHECK_MSG(r4 != NONE && r4 % 4 == 0 && r4 >= 4, "oct at s%u", r4);
    CHECK_MSG(r3 != NONE && r3 > 1, "single at s%u while s[0:1] is live", r3);
    /* with exactly 20 SGPRs the only layout is s[4:5], s[8:11], s[12:19], and %s3
       in s2 or s3 (s2 is read for the last time where %s3 is written) */
    wa_regalloc_destroy(res);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_sgprs = 20;
    res = alloc(prog, &o);
    REQUIRE(res);
    CHECK_REG(res, 1, WA_REG_SGPR, 4, 2);
    CHECK_REG(res, 2, WA_REG_SGPR, 8, 4);
    CHECK_REG(res, 4, WA_REG_SGPR, 12, 8);
    r3 = reg_of(res, 3);
    CHECK(r3 == 2 || r3 == 3);
    free(applied(prog, res, NULL));
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- precolored, reserved, limits ---------------------------------------------------------- */

static void precolored_abi_registers(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* v0, s[0:1] and s2 are read late: nothing may take them before. */
    wa_program *prog = parse(ctx, "  .abi kernarg_ptr, workgroup_id_x, workitem_id_x\n"
                                  "  v_mov_b32 %v1, 1\n"                         /* 0 */
                                  "  s_mov_b32 %s2, 2\n"                         /* 1 */
                                  "  v_add_u32 %v3, %s2, %v1\n"                  /* 2 */
                                  "  s_add_u32 %s4, %s2, 5\n"                    /* 3 */
                                  "  v_add_u32 %v5, %s4, %v3\n"                  /* 4 */
                                  "  s_load_dword %s6, s[0:1], 0\n"              /* 5: last read of s[0:1] */
                                  "  v_add_u32 %v7, s2, v0\n"                    /* 6: last reads of s2, v0 */
                                  "  v_lshlrev_b32 %v8, 2, %v7\n"                /* 7 */
                                  "  v_add_u32 %v9, %s6, %v8\n"                  /* 8 */
                                  "  v_add_u32 %v10, %v9, %v5\n"                 /* 9 */
                                  "  v_readfirstlane_b32 %s11, %v10\n"           /* 10 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    for (unsigned v = 1; v <= 6; v++) {
        unsigned r = reg_of(res, v);
        wa_reg_class c;
        unsigned size, align;
        REQUIRE(CHECK_OK(wa_program_vreg_info(&c, &size, &align, prog, v)));
        if (c == WA_REG_VGPR)
            CHECK_MSG(r != 0, "%%v%u in v0 while v0 is live", v);
        else if (v == 6) /* written after the last read of s[0:1]: only s2 is live */
            CHECK_MSG(r != 2, "%%s6 in s2 while s2 is live");
        else
            CHECK_MSG(r > 2, "%%s%u in s%u while s[0:2] are live", v, r);
    }
    free(applied(prog, res, NULL));
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* After their last reads the ABI registers are ordinary free registers: with
       as many registers as values live after them, they must be reused. */
    prog = parse(ctx, "  .abi kernarg_ptr, workgroup_id_x, workitem_id_x\n"
                      "  s_load_dword %s1, s[0:1], 0\n"          /* last read of s[0:1] */
                      "  s_add_u32 %s2, s2, 1\n"                 /* last read of s2 */
                      "  s_add_u32 %s3, %s1, 2\n"
                      "  v_add_u32 %v4, %s2, v0\n"               /* last read of v0 */
                      "  v_add_u32 %v5, %s3, %v4\n"
                      "  v_add_u32 %v6, 1, %v4\n"
                      "  v_add_u32 %v7, %v5, %v6\n"
                      "  v_readfirstlane_b32 %s8, %v7\n"
                      "  s_add_u32 %s9, %s8, %s3\n"
                      "  s_add_u32 %s10, %s9, %s2\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 2; /* %v5 and %v6 live together: one of them in v0 */
    o.max_sgprs = 3; /* s[0:2] live at the start; later three values need s0-s2 */
    res = alloc(prog, &o);
    REQUIRE(res);
    CHECK(reg_of(res, 5) == 0 || reg_of(res, 6) == 0 || reg_of(res, 4) == 0);
    CHECK_EQ_UINT(stats_of(res).peak_sgprs, 3);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* A physical register the program writes itself (v3 here) is avoided while
       it is live and free before and after. */
    prog = parse(ctx, "  .abi none\n"
                      "  v_mov_b32 %v1, 1\n"               /* 0: v0 */
                      "  v_mov_b32 %v2, 2\n"               /* 1: v1 */
                      "  v_mov_b32 %v3, 3\n"               /* 2: v2 */
                      "  v_mov_b32 v3, %v1\n"              /* 3: v3 live from here */
                      "  v_mov_b32 %v4, %v2\n"             /* 4 */
                      "  v_add_u32 %v5, %v3, %v4\n"        /* 5 */
                      "  v_add_u32 %v6, v3, %v5\n"         /* 6: v3's last read */
                      "  v_mov_b32 %v7, 7\n"               /* 7 */
                      "  v_mov_b32 %v8, 8\n"
                      "  v_mov_b32 %v9, 9\n"
                      "  v_mov_b32 %v10, 10\n"
                      "  v_add_u32 %v11, %v7, %v8\n"
                      "  v_add_u32 %v12, %v9, %v10\n"
                      "  v_add_u32 %v13, %v11, %v12\n"
                      "  v_add_u32 %v14, %v13, %v6\n"
                      "  v_readfirstlane_b32 s0, %v14\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    res = alloc(prog, NULL);
    REQUIRE(res);
    for (unsigned v = 4; v <= 5; v++)
        CHECK_MSG(reg_of(res, v) != 3, "%%v%u in v3 while v3 is live", v);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.peak_vgprs, s.max_pressure_vgpr);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void reserved_registers(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  .abi none\n"
                                  "  v_mov_b32 %v1, 1\n"
                                  "  v_mov_b32 %v2, 2\n"
                                  "  global_load_dwordx2 %v3<2,align=2>, %v1, s[4:5]\n"
                                  "  s_mov_b32 %s4, 0\n"
                                  "  s_mov_b64 %s5<2,align=2>, 0\n"
                                  "  v_accvgpr_write_b32 %a6, %v2\n"
                                  "  v_accvgpr_read_b32 %v7, %a6\n"
                                  "  v_add_u32 %v8, %s4, %v7\n"
                                  "  global_store_dwordx2 %v8, %v3, %s5\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.reserved_vgprs[0] = 0x0000000Bu; /* v0, v1, v3 */
    o.reserved_sgprs[0] = 0x00000001u; /* s0 */
    o.reserved_agprs[0] = 0x00000003u; /* a0, a1 */
    o.reserved_vgprs[7] = 0x80000000u; /* v255 */
    wa_regalloc_result *res = alloc(prog, &o);
    REQUIRE(res);
    unsigned r3 = reg_of(res, 3), r5 = reg_of(res, 5);
    CHECK_MSG(r3 != NONE && r3 % 2 == 0 && r3 >= 4, "pair at v%u", r3); /* not v[2:3]: v3 reserved */
    CHECK_MSG(r5 != NONE && r5 % 2 == 0 && r5 >= 2, "pair at s%u", r5);
    CHECK(reg_of(res, 4) != 0);
    for (unsigned v = 1; v <= 8; v++) {
        wa_operand ph;
        if (wa_regalloc_lookup(&ph, res, v) != WA_OK)
            continue;
        for (unsigned r = ph.id; r < ph.id + ph.count; r++) {
            const uint32_t *m = ph.reg_class == WA_REG_VGPR   ? o.reserved_vgprs
                                : ph.reg_class == WA_REG_SGPR ? o.reserved_sgprs
                                                              : o.reserved_agprs;
            CHECK_MSG(!((m[r / 32] >> (r % 32)) & 1u), "%%%u got reserved register %u", v, r);
        }
    }
    /* the checker knows the reservations: checked against a wider reserved set
       that covers what was used, the same result is rejected */
    wa_regalloc_options wider = o;
    wider.reserved_vgprs[0] |= 1u << reg_of(res, 1);
    unsigned errors = 0;
    CHECK_STATUS(wa_regalloc_check(&errors, prog, res, &wider), WA_E_VALIDATE);
    CHECK(errors >= 1);
    char want[64];
    snprintf(want, sizeof(want), "%%v1 uses reserved register v%u", reg_of(res, 1));
    CHECK_DIAG(ctx, WA_E_VALIDATE, want, UT_ANY, UT_ANY, UT_ANY);
    rp_ref *ref = rp_ref_compute(prog);
    CHECK_EQ_UINT(rp_verify_allocation(ref, prog, res, &wider, 0, 0), errors);
    rp_ref_free(ref);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void limits(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* four VGPRs live at once (items 3-4) */
    wa_program *prog = parse(ctx, "  .abi none\n"
                                  "  v_mov_b32 %v1, 1\n"
                                  "  v_mov_b32 %v2, 2\n"
                                  "  v_mov_b32 %v3, 3\n"
                                  "  v_mov_b32 %v4, 4\n"
                                  "  v_add_u32 %v5, %v1, %v2\n"
                                  "  v_add_u32 %v6, %v3, %v4\n"
                                  "  v_add_u32 %v7, %v5, %v6\n"
                                  "  v_readfirstlane_b32 %s8, %v7\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 4;
    wa_regalloc_result *res = alloc(prog, &o);
    REQUIRE(res);
    for (unsigned v = 1; v <= 7; v++)
        CHECK(reg_of(res, v) < 4);
    CHECK_EQ_UINT(stats_of(res).peak_vgprs, 4);
    wa_regalloc_destroy(res);
    /* one fewer: impossible */
    o.max_vgprs = 3;
    res = (wa_regalloc_result *)(uintptr_t)1;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    CHECK_LAST_DIAG(ctx, WA_E_ALLOC, "cannot allocate %v4", UT_BODY_LINE + 4, 3, 3);
    /* no VGPRs at all */
    o.max_vgprs = 0;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    CHECK_LAST_DIAG(ctx, WA_E_ALLOC, "cannot allocate %v1", UT_ANY, UT_ANY, UT_ANY);
    /* the SGPR limit */
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.max_sgprs = 0;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    CHECK_LAST_DIAG(ctx, WA_E_ALLOC, "cannot allocate %s8|SGPR x1", UT_ANY, UT_ANY, UT_ANY);
    /* the checker enforces limits it is given */
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    res = alloc(prog, &o);
    REQUIRE(res);
    wa_regalloc_options small = o;
    small.max_vgprs = 2;
    unsigned errors = 0;
    CHECK_STATUS(wa_regalloc_check(&errors, prog, res, &small), WA_E_VALIDATE);
    CHECK(errors >= 1);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "exceeds the limit of 2 registers", UT_ANY, UT_ANY, UT_ANY);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void bad_options(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 1\n"
                                  "  global_store_dword v0, %v1, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = (wa_regalloc_result *)(uintptr_t)1;
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.version = 0;
    CHECK_RUN_FAILS(prog, &o, WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "wa_regalloc_options version 0", UT_ANY, UT_ANY, UT_ANY);
    o.version = WA_REGALLOC_OPTIONS_VERSION + 1;
    CHECK_RUN_FAILS(prog, &o, WA_E_INVALID);
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 257;
    CHECK_RUN_FAILS(prog, &o, WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "register limits out of range", UT_ANY, UT_ANY, UT_ANY);
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.max_sgprs = 103;
    CHECK_RUN_FAILS(prog, &o, WA_E_INVALID);
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.max_agprs = 300;
    CHECK_RUN_FAILS(prog, &o, WA_E_INVALID);
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.flags = 0x100;
    CHECK_RUN_FAILS(prog, &o, WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "unknown wa_regalloc_options flags 0x100", UT_ANY, UT_ANY,
                    UT_ANY);
    CHECK_STATUS(wa_regalloc_run(NULL, prog, NULL), WA_E_INVALID);
    wa_regalloc_result *none = NULL;
    CHECK_STATUS(wa_regalloc_run(&none, NULL, NULL), WA_E_INVALID);
    CHECK(none == NULL);
    /* the same checks in the checker */
    res = alloc(prog, NULL);
    REQUIRE(res);
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.version = 7;
    CHECK_STATUS(wa_regalloc_check(NULL, prog, res, &o), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_check(NULL, NULL, res, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_check(NULL, prog, NULL, NULL), WA_E_INVALID);
    CHECK_OK(wa_regalloc_check(NULL, prog, res, NULL));
    /* NULL-safe and misuse of the other entry points */
    wa_regalloc_destroy(NULL);
    wa_operand op;
    wa_regalloc_stats s;
    CHECK_STATUS(wa_regalloc_lookup(NULL, res, 1), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_lookup(&op, NULL, 1), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_get_stats(NULL, res), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_get_stats(&s, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_apply(NULL, res, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_apply(prog, NULL, NULL), WA_E_INVALID);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- tied operands, read-modify-write, moves, holes -------------------------------------------- */

static void tied_mfma_accumulator(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* Early-clobber MFMA (8-register f64 result): srcC (%v2) ends at the MFMA, and
       vdst (%v3) takes exactly its registers, never srcA's. */
    wa_program *prog = parse(ctx, "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                                  "  global_load_dwordx4 %v2<8,align=2>[0:3], v0, s[0:1]\n"
                                  "  global_load_dwordx4 %v2[4:7], v0, s[0:1]\n"
                                  "  v_mfma_f64_16x16x4_f64 %v3<8,align=2>, %v1, %v1, %v2\n"
                                  "  global_store_dwordx4 v0, %v3[0:3], s[0:1]\n"
                                  "  global_store_dwordx4 v0, %v3[4:7], s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    unsigned a = reg_of(res, 1), c = reg_of(res, 2), d = reg_of(res, 3);
    CHECK_EQ_UINT(d, c);
    CHECK_MSG(a + 2 <= d || d + 8 <= a, "vdst v[%u:%u] overlaps srcA v[%u:%u]", d, d + 7, a, a + 1);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.tied, 1);
    CHECK(s.peak_vgprs <= 12); /* v0, the pair, 8, what alignment costs */
    CHECK(s.peak_vgprs >= s.max_pressure_vgpr);
    char *text = applied(prog, res, NULL);
    if (text) {
        char want[96];
        snprintf(want, sizeof(want), "v_mfma_f64_16x16x4_f64 v[%u:%u], v[%u:%u], v[%u:%u], v[%u:%u]",
                 d, d + 7, a, a + 1, a, a + 1, c, c + 7);
        CHECK_STR_CONTAINS(text, want);
    }
    free(text);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* A 128-bit result is no early clobber: vdst takes srcC's registers through
       an ordinary hint (it starts after srcC's last read anyway). */
    prog = parse(ctx, "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                      "  global_load_dwordx4 %v2<4,align=2>, v0, s[0:1]\n"
                      "  v_mfma_f32_16x16x16_f16 %v3<4,align=2>, %v1, %v1, %v2\n"
                      "  global_store_dwordx4 v0, %v3, s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    res = alloc(prog, NULL);
    REQUIRE(res);
    CHECK_EQ_UINT(reg_of(res, 3), reg_of(res, 2));
    CHECK_EQ_UINT(stats_of(res).tied, 1);
    free(applied(prog, res, NULL));
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* srcC read again later: no tie, and vdst does not overlap it at all */
    prog = parse(ctx, "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                      "  global_load_dwordx4 %v2<8,align=2>[0:3], v0, s[0:1]\n"
                      "  global_load_dwordx4 %v2[4:7], v0, s[0:1]\n"
                      "  v_mfma_f64_16x16x4_f64 %v3<8,align=2>, %v1, %v1, %v2\n"
                      "  global_store_dwordx4 v0, %v3[0:3], s[0:1]\n"
                      "  global_store_dwordx4 v0, %v2[0:3], s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    res = alloc(prog, NULL);
    REQUIRE(res);
    a = reg_of(res, 1);
    c = reg_of(res, 2);
    d = reg_of(res, 3);
    CHECK_MSG(c + 8 <= d || d + 8 <= c, "vdst v[%u:%u] overlaps srcC v[%u:%u]", d, d + 7, c, c + 7);
    CHECK_MSG(a + 2 <= d || d + 8 <= a, "vdst overlaps srcA");
    CHECK_EQ_UINT(stats_of(res).tied, 0);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* vdst with a larger declared alignment than srcC's place: the tie is not
       possible, and vdst must not overlap srcC partially either (v0 live, so
       srcC lands at v2 and vdst needs a multiple of 8) */
    prog = parse(ctx, "  global_load_dwordx4 %v2<4,align=2>, v0, s[0:1]\n"
                      "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                      "  v_mfma_f32_16x16x16_f16 %v3<4,align=8>, %v1, %v1, %v2\n"
                      "  global_store_dwordx4 v0, %v3, s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    res = alloc(prog, NULL);
    REQUIRE(res);
    c = reg_of(res, 2);
    d = reg_of(res, 3);
    CHECK_EQ_UINT(d % 8, 0);
    CHECK_MSG(c + 4 <= d || d + 4 <= c, "vdst v[%u:%u] partially overlaps srcC v[%u:%u]", d, d + 3, c,
              c + 3);
    CHECK_EQ_UINT(stats_of(res).tied, 0);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* AGPR accumulators, and srcC as a sub-range of a wider register: vdst takes
       that sub-range's registers */
    prog = parse(ctx, "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                      "  global_load_dwordx4 %a2<16,align=2>[0:3], v0, s[0:1]\n"
                      "  global_load_dwordx4 %a2[4:7], v0, s[0:1]\n"
                      "  global_load_dwordx4 %a2[8:11], v0, s[0:1]\n"
                      "  global_load_dwordx4 %a2[12:15], v0, s[0:1]\n"
                      "  global_store_dwordx4 v0, %a2[0:3], s[0:1]\n"
                      "  global_store_dwordx4 v0, %a2[4:7], s[0:1]\n"
                      "  v_mfma_f64_16x16x4_f64 %a3<8,align=2>, %v1, %v1, %a2[8:15]\n"
                      "  global_store_dwordx4 v0, %a3[0:3], s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    res = alloc(prog, NULL);
    REQUIRE(res);
    CHECK_EQ_UINT(reg_of(res, 3), reg_of(res, 2) + 8);
    CHECK_EQ_UINT(stats_of(res).tied, 1);
    free(applied(prog, res, NULL));
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* srcB reads srcC's registers: an early-clobber vdst must not take them */
    prog = parse(ctx, "  global_load_dwordx4 %a2<8,align=2>[0:3], v0, s[0:1]\n"
                      "  global_load_dwordx4 %a2[4:7], v0, s[0:1]\n"
                      "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                      "  v_mfma_f64_16x16x4_f64 %a3<8,align=2>, %v1, %a2[2:3], %a2\n"
                      "  global_store_dwordx4 v0, %a3[0:3], s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    res = alloc(prog, NULL);
    REQUIRE(res);
    c = reg_of(res, 2);
    d = reg_of(res, 3);
    CHECK_MSG(c + 8 <= d || d + 8 <= c, "vdst a[%u:%u] overlaps srcB/srcC a[%u:%u]", d, d + 7, c, c + 7);
    CHECK_EQ_UINT(stats_of(res).tied, 0);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* accumulating in place (vdst and srcC the same register) through a loop */
    prog = parse(ctx, "  v_accvgpr_write_b32 %a1<4,align=2>[0], 0\n"
                      "  v_accvgpr_write_b32 %a1[1], 0\n"
                      "  v_accvgpr_write_b32 %a1[2], 0\n"
                      "  v_accvgpr_write_b32 %a1[3], 0\n"
                      "  s_mov_b32 %s2, 0\n"
                      "loop:\n"
                      "  global_load_dwordx2 %v3<2,align=2>, v0, s[0:1]\n"
                      "  global_load_dwordx2 %v4<2,align=2>, v0, s[0:1]\n"
                      "  v_mfma_f32_16x16x16_f16 %a1, %v3, %v4, %a1\n"
                      "  s_add_u32 %s2, %s2, 1\n"
                      "  s_cmp_lt_u32 %s2, 8\n"
                      "  s_cbranch_scc1 loop\n"
                      "  global_store_dwordx4 v0, %a1, s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    res = alloc(prog, NULL);
    REQUIRE(res);
    CHECK_EQ_UINT(reg_of(res, 1) % 2, 0);
    CHECK_EQ_UINT(stats_of(res).peak_agprs, 4);
    free(applied(prog, res, NULL));
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* v_writelane_b32 reads vdst: its value is live from its definition through the
   write lane, so nothing may take its register in between, and the instruction
   keeps one register for both roles. */
static void read_modify_write_keeps_register(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  .abi none\n"
                                  "  v_mov_b32 %v1, 0\n"                 /* 0 */
                                  "  v_mov_b32 %v2, 5\n"                 /* 1 */
                                  "  v_add_u32 %v3, 1, %v2\n"            /* 2: %v2 dies */
                                  "  v_readfirstlane_b32 %s4, %v3\n"     /* 3: %v3 dies */
                                  "  v_writelane_b32 %v1, %s4, 3\n"      /* 4: reads and writes %v1 */
                                  "  v_mov_b32 %v5<2,align=2>[1], 0\n"   /* 5 */
                                  "  v_mov_b32 %v5[0], 0\n"              /* 6 */
                                  "  v_writelane_b32 %v5[1], %s4, 1\n"   /* 7: a component in place */
                                  "  v_readfirstlane_b32 %s6, %v5[0]\n"
                                  "  v_readfirstlane_b32 %s7, %v5[1]\n"
                                  "  v_readfirstlane_b32 %s8, %v1\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    unsigned r1 = reg_of(res, 1);
    CHECK(r1 != reg_of(res, 2));
    CHECK(r1 != reg_of(res, 3));
    unsigned r5 = reg_of(res, 5);
    CHECK(r1 < r5 || r1 >= r5 + 2);
    char *text = applied(prog, res, NULL);
    if (text) {
        char want[64];
        snprintf(want, sizeof(want), "v_writelane_b32 v%u, s%u, 3", r1, reg_of(res, 4));
        CHECK_STR_CONTAINS(text, want);
        snprintf(want, sizeof(want), "v_writelane_b32 v%u, s%u, 1", r5 + 1, reg_of(res, 4));
        CHECK_STR_CONTAINS(text, want);
    }
    free(text);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A copy whose source ends at the copy gets the source's register, and the copy
   disappears when the allocation is applied. Without the hint (NO_COALESCE) the
   best-fit placement would choose another register here: v0 is a free run of
   length 1 while the source's v2 is part of the open run at the top. */
static void move_coalescing(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    const char *body = "  .abi none\n"
                       "  v_mov_b32 %v1, 1\n"               /* v0 */
                       "  v_mov_b32 %v2, 2\n"               /* v1 */
                       "  v_mov_b32 %v3, 3\n"               /* v2 */
                       "  v_readfirstlane_b32 %s9, %v1\n"   /* v0 free */
                       "  v_mov_b32 %v4, %v3\n"             /* the copy: %v3 ends here */
                       "  v_add_u32 %v5, %v4, %v2\n"
                       "  s_mov_b64 %s6<2,align=2>, 0\n"
                       "  s_mov_b64 %s7<2,align=2>, %s6\n"  /* an SGPR pair copy */
                       "  v_accvgpr_write_b32 %a10, 1\n"
                       "  v_accvgpr_mov_b32 %a11, %a10\n"   /* an AGPR copy */
                       "  v_accvgpr_read_b32 %v12, %a11\n"
                       "  global_load_dwordx2 %v13<2,align=2>, %v5, %s7\n"
                       "  v_mov_b32 %v14, %v13[1]\n"        /* a copy of a component */
                       "  v_add_u32 %v15, %v14, %v12\n"
                       "  v_readfirstlane_b32 %s8, %v15\n"
                       "  s_add_u32 %s16, %s8, %s9\n"
                       "  s_endpgm\n";
    wa_program *prog = parse(ctx, body);
    REQUIRE(prog);
    unsigned moves = count_ops(prog, WA_OP_V_MOV_B32) + count_ops(prog, WA_OP_S_MOV_B64) +
                     count_ops(prog, WA_OP_V_ACCVGPR_MOV_B32);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    CHECK_EQ_UINT(reg_of(res, 4), reg_of(res, 3));
    CHECK_EQ_UINT(reg_of(res, 7), reg_of(res, 6));
    CHECK_EQ_UINT(reg_of(res, 11), reg_of(res, 10));
    CHECK_EQ_UINT(reg_of(res, 14), reg_of(res, 13) + 1);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.coalesced, 4);
    unsigned removed = 0;
    char *text = applied(prog, res, &removed);
    CHECK_EQ_UINT(removed, 4);
    if (text) {
        /* the constant moves stay, the four copies are gone */
        CHECK_STR_NOT_CONTAINS(text, "v_accvgpr_mov_b32");
        char want[48];
        snprintf(want, sizeof(want), "s_mov_b64 s[%u:%u], 0", reg_of(res, 6), reg_of(res, 6) + 1);
        CHECK_STR_CONTAINS(text, want);
        CHECK_STR_NOT_CONTAINS(text, "s_mov_b64 s[0:1], s[0:1]");
    }
    free(text);
    CHECK_EQ_UINT(moves, 8);
    wa_regalloc_destroy(res);

    /* The program itself is not changed by wa_regalloc_run. */
    char *before = ut_print(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.flags = WA_REGALLOC_NO_COALESCE;
    res = alloc(prog, &o);
    REQUIRE(res);
    char *after = ut_print(prog);
    if (before && after)
        CHECK_STR_EQ(after, before);
    wa_free(before);
    wa_free(after);
    CHECK_EQ_UINT(stats_of(res).coalesced, 0);
    CHECK_EQ_UINT(reg_of(res, 4), 0); /* the smallest free run */
    CHECK(reg_of(res, 4) != reg_of(res, 3));
    text = applied(prog, res, &removed);
    CHECK(removed < 4);
    free(text);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A value live in two disjoint regions leaves its register free in between. */
static void lifetime_holes(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  .abi none\n"
                                  "  v_mov_b32 %v1, 1\n"               /* 0 */
                                  "  v_readfirstlane_b32 %s5, %v1\n"   /* 1: %v1 dies */
                                  "  v_mov_b32 %v2, 2\n"               /* 2: in the hole */
                                  "  v_readfirstlane_b32 %s6, %v2\n"   /* 3 */
                                  "  v_mov_b32 %v1, 3\n"               /* 4: %v1 again */
                                  "  v_readfirstlane_b32 %s7, %v1\n"   /* 5 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = NULL;
    REQUIRE(CHECK_OK(wa_liveness_compute(&live, prog, NULL)));
    unsigned n = 0;
    const wa_live_segment *sg = wa_liveness_segments(live, 1, &n);
    CHECK(n == 2 && sg[0].start == 1 && sg[0].end == 2 && sg[1].start == 9 && sg[1].end == 10);
    wa_liveness_destroy(live);
    /* one VGPR is enough: %v2 goes into %v1's hole */
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 1;
    wa_regalloc_result *res = alloc(prog, &o);
    REQUIRE(res);
    CHECK_REG(res, 1, WA_REG_VGPR, 0, 1);
    CHECK_REG(res, 2, WA_REG_VGPR, 0, 1);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.peak_vgprs, 1);
    CHECK_EQ_UINT(s.hole_fits, 1);
    free(applied(prog, res, NULL));
    wa_regalloc_destroy(res);
    /* ... and with unlimited registers too: the peak stays at the pressure */
    res = alloc(prog, NULL);
    REQUIRE(res);
    CHECK_EQ_UINT(stats_of(res).peak_vgprs, 1);
    wa_regalloc_destroy(res);
    /* never into holes: needs two registers */
    o.flags = WA_REGALLOC_NO_HOLES;
    res = (wa_regalloc_result *)(uintptr_t)1;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    o.max_vgprs = 2;
    res = alloc(prog, &o);
    REQUIRE(res);
    CHECK(reg_of(res, 1) != reg_of(res, 2));
    CHECK_EQ_UINT(stats_of(res).hole_fits, 0);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* A hole across a branch: a value read in the then-arm and after the join
       is dead in the else-arm, where another value can use its register. */
    prog = parse(ctx, "  .abi none\n"
                      "  v_mov_b32 %v1, 1\n"
                      "  s_cmp_lt_u32 s0, 1\n"
                      "  s_cbranch_scc1 other\n"
                      "  v_readfirstlane_b32 %s2, %v1\n"
                      "  v_mov_b32 %v1, 2\n"
                      "  s_branch join\n"
                      "other:\n"
                      "  v_mov_b32 %v3, 3\n"
                      "  v_readfirstlane_b32 %s4, %v3\n"
                      "  v_mov_b32 %v1, 4\n"
                      "join:\n"
                      "  v_readfirstlane_b32 %s5, %v1\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 1;
    res = alloc(prog, &o);
    REQUIRE(res);
    CHECK_EQ_UINT(reg_of(res, 3), reg_of(res, 1));
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* stats.hole_fits counts values placed in another value's lifetime hole. In a
   program where no value has a hole, it must stay 0, and WA_REGALLOC_NO_HOLES
   must not make the allocation worse. (The failure this guards against: when
   the buddy placement proposes a register above the peak, the fallback that
   looks below the peak for a range whose owners are in a hole also accepts
   registers that have no owner at all, and counts that as a hole fit; with
   NO_HOLES the fallback is off and the peak grows.) */
static void hole_fits_count_only_holes(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  .abi kernarg_ptr, workgroup_id_x, workitem_id_x\n"
                                  "  s_load_dwordx2 %s0<2,align=2>, s[0:1], 0\n"
                                  "  v_lshlrev_b32 %v1, 2, v0\n"
                                  "  s_add_u32 %s2, s2, 0\n"
                                  "  v_add_u32 %v3, %s2, %v1\n"
                                  "  v_add_u32 %v4, v0, %v1\n"
                                  "  global_store_dword %v3, %v4, %s0\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = NULL;
    REQUIRE(CHECK_OK(wa_liveness_compute(&live, prog, NULL)));
    for (unsigned v = 0; v < wa_program_vreg_count(prog); v++) {
        unsigned n = 0;
        wa_liveness_segments(live, v, &n);
        CHECK(n <= 1); /* no value has a hole */
    }
    unsigned mp = wa_liveness_max_pressure(live, WA_REG_VGPR, NULL);
    wa_liveness_destroy(live);
    CHECK_EQ_UINT(mp, 3);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.hole_fits, 0);
    CHECK_EQ_UINT(s.peak_vgprs, 3);
    wa_regalloc_destroy(res);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.flags = WA_REGALLOC_NO_HOLES;
    res = alloc(prog, &o);
    REQUIRE(res);
    s = stats_of(res);
    CHECK_EQ_UINT(s.peak_vgprs, 3);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Without alignment or holes in the way the peak is the pressure. */
static void peak_equals_pressure(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 1\n"
                                  "  v_mov_b32 %v2, 2\n"
                                  "  v_add_u32 %v3, %v1, v0\n"
                                  "  v_mov_b32 %v4, 4\n"
                                  "  v_add_u32 %v5, %v2, %v4\n"
                                  "  v_add_u32 %v6, %v3, %v5\n"
                                  "  v_mov_b32 %v7, 7\n"
                                  "  v_mov_b32 %v8, 8\n"
                                  "  v_add_u32 %v9, %v7, %v8\n"
                                  "  v_add_u32 %v10, %v9, %v6\n"
                                  "  global_store_dword v0, %v10, s[0:1]\n"
                                  "  s_load_dword %s11, s[0:1], 0\n"
                                  "  s_load_dword %s12, s[0:1], 4\n"
                                  "  s_add_u32 %s13, %s11, %s12\n"
                                  "  s_add_u32 %s14, %s13, %s11\n"
                                  "  s_add_u32 %s15, %s14, %s12\n"
                                  "  v_mov_b32 %v16, %s15\n"
                                  "  global_store_dword v0, %v16, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_liveness *live = NULL;
    REQUIRE(CHECK_OK(wa_liveness_compute(&live, prog, NULL)));
    unsigned mv = wa_liveness_max_pressure(live, WA_REG_VGPR, NULL);
    unsigned ms = wa_liveness_max_pressure(live, WA_REG_SGPR, NULL);
    wa_liveness_destroy(live);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.max_pressure_vgpr, mv);
    CHECK_EQ_UINT(s.max_pressure_sgpr, ms);
    CHECK_EQ_UINT(mv, 4); /* v0, %v3, %v2, %v4 at item 3 */
    CHECK_EQ_UINT(s.peak_vgprs, mv);
    CHECK_EQ_UINT(s.peak_sgprs, ms);
    CHECK_EQ_UINT(s.peak_agprs, 0);
    CHECK_EQ_UINT(s.intervals, 16);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void lookup_and_apply(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  .vreg %v9<4,align=2>\n"
                                  "  global_load_dwordx2 %v1<2,align=2>, v0, s[0:1]\n"
                                  "  global_store_dwordx2 v0, %v1, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    wa_operand o;
    CHECK_OK(wa_regalloc_lookup(&o, res, 1));
    CHECK_EQ_UINT(o.kind, WA_OPND_PHYS);
    CHECK_EQ_UINT(o.count, 2);
    CHECK_STATUS(wa_regalloc_lookup(&o, res, 9), WA_E_NOT_FOUND); /* declared, never used */
    CHECK_LAST_DIAG(ctx, WA_E_NOT_FOUND, "virtual register 9 has no allocation", UT_ANY, UT_ANY,
                    UT_ANY);
    CHECK_STATUS(wa_regalloc_lookup(&o, res, 0), WA_E_NOT_FOUND);
    CHECK_STATUS(wa_regalloc_lookup(&o, res, 1000), WA_E_NOT_FOUND);
    /* apply to the program it was made for */
    char *text = applied(prog, res, NULL);
    if (text) {
        CHECK_STR_NOT_CONTAINS(text, "%v");
        char want[64];
        snprintf(want, sizeof(want), "global_load_dwordx2 v[%u:%u], v0, s[0:1]", reg_of(res, 1),
                 reg_of(res, 1) + 1);
        CHECK_STR_CONTAINS(text, want);
    }
    free(text);
    /* apply to another program: refused, and that program is unchanged */
    wa_program *other = parse(ctx, "  v_mov_b32 %v1, 1\n"
                                   "  v_mov_b32 %v2, 1\n"
                                   "  v_add_u32 %v3, %v1, %v2\n"
                                   "  global_store_dword v0, %v3, s[0:1]\n"
                                   "  s_endpgm\n");
    REQUIRE(other);
    char *before = ut_print(other);
    CHECK_STATUS(wa_regalloc_apply(other, res, NULL), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "the allocation does not match this program", UT_ANY, UT_ANY,
                    UT_ANY);
    char *after = ut_print(other);
    if (before && after)
        CHECK_STR_EQ(after, before);
    wa_free(before);
    wa_free(after);
    wa_program_destroy(other);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* a program without virtual registers allocates to nothing */
    prog = parse(ctx, "  v_mov_b32 v1, v0\n"
                      "  global_store_dword v0, v1, s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    res = alloc(prog, NULL);
    REQUIRE(res);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.intervals, 0);
    CHECK_EQ_UINT(s.peak_vgprs, 2); /* the program's own v0 and v1 */
    CHECK_EQ_UINT(s.peak_sgprs, 2);
    unsigned removed = 9;
    text = applied(prog, res, &removed);
    CHECK_EQ_UINT(removed, 0);
    free(text);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* Ids the text form skips (here 0 and 2-4: the program names %v1 and %v5 only)
   have no register class and no live range: lookup says so. */
static void lookup_of_unused_ids(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned round = 0; round < 3; round++) {
        wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 1\n"
                                      "  v_add_u32 %v5, %v1, v0\n"
                                      "  global_store_dword v0, %v5, s[0:1]\n"
                                      "  s_endpgm\n");
        REQUIRE(prog);
        REQUIRE(wa_program_vreg_count(prog) == 6);
        wa_regalloc_result *res = alloc(prog, NULL);
        REQUIRE(res);
        static const unsigned unused[4] = { 0, 2, 3, 4 };
        for (unsigned k = 0; k < 4; k++) {
            wa_operand o;
            memset(&o, 0, sizeof(o));
            wa_status st = wa_regalloc_lookup(&o, res, unused[k]);
            CHECK_MSG(st == WA_E_NOT_FOUND, "lookup of unused id %u: status %d, register %u x%u",
                      unused[k], (int)st, o.id, o.count);
        }
        CHECK(reg_of(res, 1) != NONE && reg_of(res, 5) != NONE);
        wa_regalloc_destroy(res);
        wa_program_destroy(prog);
    }
    wa_context_destroy(ctx);
}

/* A liveness computed beforehand can be passed in the options. */
static void precomputed_liveness(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 1\n"
                                  "  v_mov_b32 %v2, 2\n"
                                  "  v_add_u32 %v3, %v1, %v2\n"
                                  "  global_store_dword v0, %v3, s[0:1]\n"
                                  "  s_endpgm\n");
    wa_program *other = parse(ctx, "  v_mov_b32 %v1, 1\n"
                                   "  global_store_dword v0, %v1, s[0:1]\n"
                                   "  s_endpgm\n");
    REQUIRE(prog && other);
    wa_liveness *live = NULL, *other_live = NULL;
    REQUIRE(CHECK_OK(wa_liveness_compute(&live, prog, NULL)));
    REQUIRE(CHECK_OK(wa_liveness_compute(&other_live, other, NULL)));
    wa_regalloc_result *plain = alloc(prog, NULL);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.liveness = live;
    wa_regalloc_result *res = alloc(prog, &o);
    if (plain && res)
        for (unsigned v = 1; v <= 3; v++)
            CHECK_EQ_UINT(reg_of(res, v), reg_of(plain, v));
    wa_regalloc_destroy(res);
    wa_regalloc_destroy(plain);
    /* the liveness stays usable after the allocation */
    CHECK_EQ_UINT(wa_liveness_block_count(live), 1);
    o.liveness = other_live;
    res = (wa_regalloc_result *)(uintptr_t)1;
    CHECK_RUN_FAILS(prog, &o, WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "not computed from this program", UT_ANY, UT_ANY, UT_ANY);
    wa_liveness_destroy(live);
    wa_liveness_destroy(other_live);
    wa_program_destroy(prog);
    wa_program_destroy(other);
    wa_context_destroy(ctx);
}

/* WA_REGALLOC_CHECK runs the checker inside wa_regalloc_run. */
static void check_flag(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 1\n"
                                  "  global_store_dword v0, %v1, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.flags = WA_REGALLOC_CHECK | WA_REGALLOC_NO_COALESCE | WA_REGALLOC_NO_HOLES;
    wa_regalloc_result *res = alloc(prog, &o);
    CHECK(res != NULL);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A mapping made by the host (its own allocator) is checked, queried and applied
   like the library's; an allocator result can be edited the same way. */
static void host_made_allocation(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 0\n"
                                  "  s_mov_b32 %s2, 0\n"
                                  "L0:\n"
                                  "  v_add_u32 %v3, %v1, v0\n"
                                  "  v_mov_b32 %v1, %v3\n"
                                  "  s_add_u32 %s2, %s2, 1\n"
                                  "  s_cmp_lt_u32 %s2, 8\n"
                                  "  s_cbranch_scc1 L0\n"
                                  "  global_store_dword v0, %v1, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = NULL;
    CHECK_STATUS(wa_regalloc_result_create(NULL, prog), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_result_create(&res, NULL), WA_E_INVALID);
    REQUIRE(CHECK_OK(wa_regalloc_result_create(&res, prog)) && res);
    unsigned errors = 0;
    /* nothing assigned yet */
    CHECK_STATUS(wa_regalloc_check(&errors, prog, res, NULL), WA_E_VALIDATE);
    CHECK_EQ_UINT(errors, 3);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v1 has no register", UT_ANY, UT_ANY, UT_ANY);
    wa_regalloc_stats s = stats_of(res);
    CHECK_EQ_UINT(s.intervals, 0);
    CHECK_EQ_UINT(s.peak_vgprs, 1); /* the program's v0 */
    CHECK_EQ_UINT(s.peak_sgprs, 2); /* and s[0:1] */

    /* a valid mapping: %v3 may even share %v1's register (%v1 is dead between
       the add and the move) */
    CHECK_OK(wa_regalloc_assign(res, 1, 1));
    CHECK_OK(wa_regalloc_assign(res, 3, 1));
    CHECK_OK(wa_regalloc_assign(res, 2, 2));
    CHECK_OK(wa_regalloc_check(&errors, prog, res, NULL));
    CHECK_EQ_UINT(errors, 0);
    s = stats_of(res);
    CHECK_EQ_UINT(s.intervals, 3);
    CHECK_EQ_UINT(s.peak_vgprs, 2);
    CHECK_EQ_UINT(s.peak_sgprs, 3);
    CHECK_EQ_UINT(s.coalesced + s.tied + s.hole_fits + s.max_pressure_vgpr, 0);
    check_reg(res, 3, WA_REG_VGPR, 1, 1, __LINE__);
    unsigned removed = 0;
    char *text = applied(prog, res, &removed);
    CHECK_EQ_UINT(removed, 1); /* v_mov_b32 v1, v1 */
    if (text) {
        CHECK_STR_CONTAINS(text, "v_add_u32 v1, v1, v0");
        CHECK_STR_CONTAINS(text, "s_add_u32 s2, s2, 1");
    }
    free(text);

    /* %v3 on v0, which the store after the loop still reads */
    CHECK_OK(wa_regalloc_assign(res, 3, 0));
    CHECK_STATUS(wa_regalloc_check(&errors, prog, res, NULL), WA_E_VALIDATE);
    CHECK(errors >= 1);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v3|v0|share v0", UT_BODY_LINE + 4, UT_ANY, UT_ANY);
    /* %s2 on s1 (the kernarg pointer's upper half, read after the loop) */
    CHECK_OK(wa_regalloc_assign(res, 3, 1));
    CHECK_OK(wa_regalloc_assign(res, 2, 1));
    CHECK_STATUS(wa_regalloc_check(&errors, prog, res, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%s2|s1|share s1", UT_ANY, UT_ANY, UT_ANY);
    /* cleared again: no register */
    CHECK_OK(wa_regalloc_assign(res, 2, WA_NONE));
    CHECK_STATUS(wa_regalloc_check(&errors, prog, res, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%s2 has no register", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_regalloc_apply(prog, res, NULL), WA_E_INVALID);

    /* bad calls */
    CHECK_STATUS(wa_regalloc_assign(NULL, 1, 0), WA_E_INVALID);
    CHECK_STATUS(wa_regalloc_assign(res, 99, 0), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "99 is not a virtual register of the program", UT_ANY, UT_ANY,
                    UT_ANY);
    CHECK_STATUS(wa_regalloc_assign(res, 0, 0), WA_E_INVALID); /* id 0 is not used */
    CHECK_OK(wa_regalloc_assign(res, 1, 255));
    CHECK_STATUS(wa_regalloc_assign(res, 1, 256), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "1 registers from 256 do not fit the 256-register file", UT_ANY,
                    UT_ANY, UT_ANY);
    CHECK_STATUS(wa_regalloc_assign(res, 2, 128), WA_E_INVALID);
    CHECK_OK(wa_regalloc_assign(res, 2, 127));
    CHECK_STATUS(wa_regalloc_assign(res, 2, WA_NONE - 1), WA_E_INVALID);
    wa_regalloc_destroy(res);

    /* editing the allocator's result: the statistics follow the mapping */
    res = alloc(prog, NULL);
    REQUIRE(res);
    s = stats_of(res);
    unsigned peak = s.peak_vgprs, pressure = s.max_pressure_vgpr;
    CHECK(peak <= 3);
    CHECK_OK(wa_regalloc_assign(res, 3, 200));
    s = stats_of(res);
    CHECK_EQ_UINT(s.peak_vgprs, 201);
    CHECK_EQ_UINT(s.max_pressure_vgpr, pressure);
    CHECK_OK(wa_regalloc_check(&errors, prog, res, NULL)); /* v200 is free throughout */
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 128;
    CHECK_STATUS(wa_regalloc_check(&errors, prog, res, &o), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v3 in v[200:200] exceeds the limit of 128 registers", UT_ANY,
               UT_ANY, UT_ANY);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A load under a narrowed EXEC keeps the other lanes of its destination: the
   default written before it must keep its register until then, so a value that
   lives in between cannot borrow it. */
static void partial_write_keeps_register(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1, 0\n"                          /* 0 */
                                  "  v_mov_b32 %v4, 9\n"                          /* 1 */
                                  "  global_store_dword v0, %v4, s[0:1]\n"        /* 2 */
                                  "  v_cmp_gt_u32 vcc, 16, v0\n"                  /* 3 */
                                  "  s_and_saveexec_b64 %s2<2,align=2>, vcc\n"    /* 4 */
                                  "  global_load_dword %v1, v0, s[0:1]\n"         /* 5 */
                                  "  s_or_b64 exec, exec, %s2\n"                  /* 6 */
                                  "  global_store_dword v0, %v1, s[0:1]\n"        /* 7 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_result *res = alloc(prog, NULL);
    REQUIRE(res);
    CHECK(reg_of(res, 1) != reg_of(res, 4));
    CHECK_EQ_UINT(stats_of(res).peak_vgprs, 3);
    wa_regalloc_destroy(res);
    /* v0, the default and %v4 are live at once: two VGPRs are not enough */
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 2;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    int noted = 0;
    for (unsigned i = 0; i < wa_context_diag_count(ctx); i++)
        noted |= strstr(wa_context_diag(ctx, i)->message, "3 VGPRs are live at once at I1") != NULL;
    CHECK_MSG(noted, "no pressure note:%s", ut_diags_text(ctx));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- the checker against bad allocations ------------------------------------------------------ */

/* The checker only sees a program and an allocation, so a bad allocation is made
   by checking a correct allocation of program A against a program B that has
   the same registers but different lifetimes, shapes or operands. */
static void checker_rejects_collisions(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* A: %v1 dies before %v2 is written, so %v2 reuses %v1's register */
    wa_program *a = parse(ctx, "  .abi none\n"
                               "  v_mov_b32 %v1, 1\n"
                               "  v_readfirstlane_b32 %s3, %v1\n"
                               "  v_mov_b32 %v2, 2\n"
                               "  v_readfirstlane_b32 %s4, %v2\n"
                               "  v_readfirstlane_b32 %s4, %v2\n"
                               "  s_endpgm\n");
    /* B: the same, but %v1 is read once more at the end: now both are live */
    wa_program *b = parse(ctx, "  .abi none\n"
                               "  v_mov_b32 %v1, 1\n"
                               "  v_readfirstlane_b32 %s3, %v1\n"
                               "  v_mov_b32 %v2, 2\n"
                               "  v_readfirstlane_b32 %s4, %v2\n"
                               "  v_readfirstlane_b32 %s4, %v1\n"
                               "  s_endpgm\n");
    REQUIRE(a && b);
    wa_regalloc_options one = WA_REGALLOC_OPTIONS_INIT;
    one.max_vgprs = 1;
    wa_regalloc_result *res = alloc(a, &one);
    REQUIRE(res);
    REQUIRE(reg_of(res, 1) == reg_of(res, 2));
    unsigned errors = 0;
    CHECK_STATUS(wa_regalloc_check(&errors, b, res, NULL), WA_E_VALIDATE);
    CHECK(errors >= 1);
    /* the write of %v2 lands on the live %v1 */
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v1 and %v2 are both live|share v0", UT_ANY, UT_ANY, UT_ANY);
    const wa_diag *d = ut_find_diag(ctx, "share v0");
    CHECK(d && d->line >= UT_BODY_LINE + 3 && d->line <= UT_BODY_LINE + 5 && d->tag != WA_NO_TAG);
    /* and the independent verifier agrees */
    rp_ref *ref = rp_ref_compute(b);
    CHECK(rp_verify_allocation(ref, b, res, NULL, 0, 0) >= 1);
    rp_ref_free(ref);
    wa_regalloc_destroy(res);
    wa_program_destroy(a);
    wa_program_destroy(b);

    /* A physical register the allocation collides with: in A, %v1 gets v1 while
       the program's v1 is dead; B writes v1 while %v1 is live. */
    a = parse(ctx, "  .abi none\n"
                   "  v_mov_b32 v0, 0\n"
                   "  v_mov_b32 %v1, 1\n"
                   "  v_readfirstlane_b32 s0, v0\n"
                   "  v_readfirstlane_b32 s1, %v1\n"
                   "  s_endpgm\n");
    b = parse(ctx, "  .abi none\n"
                   "  v_mov_b32 v0, 0\n"
                   "  v_mov_b32 %v1, 1\n"
                   "  v_mov_b32 v1, 5\n"
                   "  v_readfirstlane_b32 s1, %v1\n"
                   "  s_endpgm\n");
    REQUIRE(a && b);
    wa_regalloc_options two = WA_REGALLOC_OPTIONS_INIT;
    two.max_vgprs = 2;
    res = alloc(a, &two);
    REQUIRE(res);
    REQUIRE(reg_of(res, 1) == 1);
    CHECK_STATUS(wa_regalloc_check(&errors, b, res, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v1|v1|both live|share v1", UT_BODY_LINE + 3, 3, 2);
    wa_regalloc_destroy(res);
    wa_program_destroy(a);
    wa_program_destroy(b);
    wa_context_destroy(ctx);
}

static void checker_rejects_shapes(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* A: with 2 VGPRs next to the live v0, %v2 can only be v1 */
    wa_program *a = parse(ctx, "  v_mov_b32 %v1, 1\n"
                               "  v_add_u32 %v2, %v1, v0\n"
                               "  v_add_u32 %v3, %v2, v0\n"
                               "  v_readfirstlane_b32 %s4, %v3\n"
                               "  s_endpgm\n");
    /* B: %v2 declared with alignment 2 (same size, same ids) */
    wa_program *b = parse(ctx, "  v_mov_b32 %v1, 1\n"
                               "  v_add_u32 %v2<1,align=2>, %v1, v0\n"
                               "  v_add_u32 %v3, %v2, v0\n"
                               "  v_readfirstlane_b32 %s4, %v3\n"
                               "  s_endpgm\n");
    /* C: %v2 is an AGPR there */
    wa_program *c = parse(ctx, "  v_mov_b32 %v1, 1\n"
                               "  v_accvgpr_write_b32 %a2, %v1\n"
                               "  v_accvgpr_read_b32 %v3, %a2\n"
                               "  v_readfirstlane_b32 %s4, %v3\n"
                               "  s_endpgm\n");
    /* D: more virtual registers than the allocation knows */
    wa_program *dd = parse(ctx, "  .abi none\n"
                                "  v_mov_b32 %v1, 1\n"
                                "  v_mov_b32 %v5, 1\n"
                                "  s_endpgm\n");
    REQUIRE(a && b && c && dd);
    wa_regalloc_options two = WA_REGALLOC_OPTIONS_INIT;
    two.max_vgprs = 2;
    wa_regalloc_result *res = alloc(a, &two);
    REQUIRE(res);
    REQUIRE(reg_of(res, 2) == 1);
    unsigned errors = 0;
    CHECK_STATUS(wa_regalloc_check(&errors, b, res, NULL), WA_E_VALIDATE);
    CHECK_EQ_UINT(errors, 1);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%v2 in v1 is not aligned to 2", UT_ANY, UT_ANY, UT_ANY);
    rp_ref *ref = rp_ref_compute(b);
    CHECK_EQ_UINT(rp_verify_allocation(ref, b, res, NULL, 0, 0), 1);
    rp_ref_free(ref);
    CHECK_STATUS(wa_regalloc_check(&errors, c, res, NULL), WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE, "%a2: class or size differs from the program", UT_ANY, UT_ANY,
               UT_ANY);
    CHECK_STATUS(wa_regalloc_check(&errors, dd, res, NULL), WA_E_INVALID);
    CHECK_LAST_DIAG(ctx, WA_E_INVALID, "allocation is for a program with 5 virtual registers, not 6",
                    UT_ANY, UT_ANY, UT_ANY);
    wa_regalloc_destroy(res);
    wa_program_destroy(a);
    wa_program_destroy(b);
    wa_program_destroy(c);
    wa_program_destroy(dd);
    wa_context_destroy(ctx);
}

/* MFMA operand rules: A's vdst takes the registers of a value that is dead at
   the MFMA; B reads that value as srcB, which vdst must not overlap. */
static void checker_rejects_mfma_overlap(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
#define MFMA_OVERLAP_FMT                                                 \
    "  .abi none\n"                                                       \
    "  v_mov_b32 %%v1<2,align=2>[0], 0\n"                                 \
    "  v_mov_b32 %%v1[1], 0\n"                                            \
    "  v_accvgpr_write_b32 %%a2<2,align=2>[0], 1\n"                       \
    "  v_accvgpr_write_b32 %%a2[1], 2\n"                                  \
    "  %s %%a3<%u,align=2>, %%v1, %s, 0\n"                                \
    "  v_accvgpr_read_b32 %%v4, %%a3[3]\n"                                \
    "  v_readfirstlane_b32 %%s5, %%v4\n"                                  \
    "  s_endpgm\n"
    /* An early-clobber MFMA (8-register result) and a 128-bit one; with as many
       AGPRs as the result has, vdst takes all of them, the dead %a2's included.
       Reading %a2 as srcB with that allocation is an overlap only for the first. */
    static const struct {
        const char *mnemonic;
        unsigned size, errors;
    } cases[] = { { "v_mfma_f64_16x16x4_f64", 8, 1 }, { "v_mfma_f32_16x16x16_f16", 4, 0 } };
    for (unsigned t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
        char ta[512], tb[512];
        snprintf(ta, sizeof(ta), MFMA_OVERLAP_FMT, cases[t].mnemonic, cases[t].size, "%v1");
        snprintf(tb, sizeof(tb), MFMA_OVERLAP_FMT, cases[t].mnemonic, cases[t].size, "%a2");
        wa_program *a = parse(ctx, ta);
        wa_program *b = parse(ctx, tb);
        REQUIRE(a && b);
        wa_regalloc_options opts = WA_REGALLOC_OPTIONS_INIT;
        opts.max_agprs = cases[t].size;
        wa_regalloc_result *res = alloc(a, &opts);
        REQUIRE(res);
        unsigned r2 = reg_of(res, 2), r3 = reg_of(res, 3);
        REQUIRE(r3 == 0 && r2 < cases[t].size);
        unsigned errors = 0;
        CHECK_STATUS(wa_regalloc_check(&errors, b, res, &opts),
                     cases[t].errors ? WA_E_VALIDATE : WA_OK);
        CHECK_EQ_UINT(errors, cases[t].errors);
        if (cases[t].errors) {
            char want[64];
            snprintf(want, sizeof(want), "MFMA vdst a[0:%u] overlaps srcB a[%u:%u]",
                     cases[t].size - 1, r2, r2 + 1);
            CHECK_DIAG(ctx, WA_E_VALIDATE, want, UT_BODY_LINE + 5, 3, 4);
        }
        rp_ref *ref = rp_ref_compute(b);
        CHECK_EQ_UINT(rp_verify_allocation(ref, b, res, &opts, 0, 0), cases[t].errors);
        rp_ref_free(ref);
        wa_regalloc_destroy(res);
        wa_program_destroy(a);
        wa_program_destroy(b);
    }
#undef MFMA_OVERLAP_FMT
    wa_context_destroy(ctx);
}

/* ---- the failure diagnostic ------------------------------------------------------------------- */

static void failure_diagnostic(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* %v1..%v4 nest: [1,14], [3,12], [5,10], [7,8]; with 3 VGPRs %v4 fails. */
    wa_program *prog = parse(ctx, "  .abi none\n"
                                  "  v_mov_b32 %v1, 1\n"                /* line 4, I0 */
                                  "  v_mov_b32 %v2, 2\n"                /* I1 */
                                  "  v_mov_b32 %v3, 3\n"                /* I2 */
                                  "  v_mov_b32 %v4, 4\n"                /* line 7, I3 */
                                  "  v_readfirstlane_b32 %s5, %v4\n"    /* I4 */
                                  "  v_readfirstlane_b32 %s6, %v3\n"    /* I5 */
                                  "  v_readfirstlane_b32 %s7, %v2\n"    /* I6 */
                                  "  v_readfirstlane_b32 %s8, %v1\n"    /* I7 */
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 3;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC); /* no partial output */
    unsigned n = wa_context_diag_count(ctx);
    REQUIRE(CHECK_EQ_UINT(n, 6));
    const wa_diag *d = wa_context_diag(ctx, 0);
    CHECK_EQ_INT(d->severity, WA_SEVERITY_ERROR);
    CHECK_EQ_INT(d->status, WA_E_ALLOC);
    CHECK_STR_EQ(d->message, "cannot allocate %v4 (VGPR x1, align 1, live from I3 to I4): no free"
                             " aligned range in v0..v2");
    CHECK_EQ_UINT(d->line, UT_BODY_LINE + 4);
    CHECK_EQ_UINT(d->col, 3);
    CHECK_EQ_UINT(d->tag, 3);
    CHECK_STR_EQ(d->file, "file.wa");
    /* every overlapping value, longest first, with its registers */
    static const char *const want[3][3] = {
        { "overlaps %v1 (x1) in v", "live from I0 to I7", "(14 points)" },
        { "overlaps %v2 (x1) in v", "live from I1 to I6", "(10 points)" },
        { "overlaps %v3 (x1) in v", "live from I2 to I5", "(6 points)" },
    };
    unsigned regs_seen = 0;
    for (unsigned k = 0; k < 3; k++) {
        d = wa_context_diag(ctx, 1 + k);
        CHECK_EQ_INT(d->severity, WA_SEVERITY_NOTE);
        for (unsigned w = 0; w < 3; w++)
            CHECK_STR_CONTAINS(d->message, want[k][w]);
        CHECK_EQ_UINT(d->line, UT_BODY_LINE + 1 + k); /* where the value starts */
        for (unsigned r = 0; r < 3; r++) {
            char a[16], b[16];
            snprintf(a, sizeof(a), " in v%u,", r);
            snprintf(b, sizeof(b), " in v[%u:%u]", r, r);
            if (strstr(d->message, a) || strstr(d->message, b))
                regs_seen |= 1u << r;
        }
    }
    CHECK_EQ_UINT(regs_seen, 7); /* the three values hold v0, v1 and v2 */
    d = wa_context_diag(ctx, 4);
    CHECK_EQ_INT(d->severity, WA_SEVERITY_NOTE);
    CHECK_STR_CONTAINS(d->message, "VGPR pool at I3 (limit 3): v0-v2 busy");
    /* four values live at once, three registers: no allocation could fit */
    d = wa_context_diag(ctx, 5);
    CHECK_EQ_INT(d->severity, WA_SEVERITY_NOTE);
    CHECK_STR_EQ(d->message, "4 VGPRs are live at once at I3, more than the 3 the limit leaves (no"
                             " spilling: the kernel must keep fewer values live)");
    CHECK_EQ_UINT(d->line, UT_BODY_LINE + 4);
    /* the context's last error is the error, not a note */
    CHECK_LAST_DIAG(ctx, WA_E_ALLOC, "cannot allocate %v4", UT_BODY_LINE + 4, 3, 3);
    wa_program_destroy(prog);

    /* precolored registers in the way show up as such, and in the pool state */
    prog = parse(ctx, "  v_mov_b32 v1, 5\n"                       /* I0 */
                      "  v_mov_b32 %v2, 1\n"                      /* I1 */
                      "  v_add_u32 %v3, %v2, v1\n"                /* I2 */
                      "  global_store_dword v0, %v3, s[0:1]\n"    /* I3 */
                      "  s_endpgm\n");
    REQUIRE(prog);
    o.max_vgprs = 2;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    CHECK_DIAG(ctx, WA_E_ALLOC, "cannot allocate %v2 (VGPR x1, align 1, live from I1 to I2)",
               UT_BODY_LINE + 1, 3, 1);
    int saw0 = 0, saw1 = 0, pool = 0;
    for (unsigned i = 0; i < wa_context_diag_count(ctx); i++) {
        d = wa_context_diag(ctx, i);
        saw0 |= strcmp(d->message, "overlaps precolored v0 (used by the program)") == 0;
        saw1 |= strcmp(d->message, "overlaps precolored v1 (used by the program)") == 0;
        pool |= strstr(d->message, "VGPR pool at I1 (limit 2): v0-v1 precolored") != NULL;
    }
    CHECK_MSG(saw0 && saw1 && pool, "notes:%s", ut_diags_text(ctx));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- bad input ---------------------------------------------------------------------------------- */

static void read_before_definition(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_add_u32 %v1, %v2, v0\n"
                                  "  v_mov_b32 %v2, 1\n"
                                  "  global_store_dword v0, %v1, s[0:1]\n"
                                  "  global_store_dword v0, %v2, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    CHECK_RUN_FAILS(prog, NULL, WA_E_VALIDATE);
    CHECK_LAST_DIAG(ctx, WA_E_VALIDATE,
                    "%v2 may be read before it is defined (it is live on entry to the kernel)",
                    UT_BODY_LINE, 3, 0);
    wa_program_destroy(prog);

    /* only on some paths: the loop reads it before the write further down */
    prog = parse(ctx, "  s_mov_b32 %s1, 0\n"
                      "loop:\n"
                      "  s_add_u32 %s2, %s3, 1\n"
                      "  s_mov_b32 %s3, %s2\n"
                      "  s_add_u32 %s1, %s1, 1\n"
                      "  s_cmp_lt_u32 %s1, 4\n"
                      "  s_cbranch_scc1 loop\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    CHECK_RUN_FAILS(prog, NULL, WA_E_VALIDATE);
    CHECK_LAST_DIAG(ctx, WA_E_VALIDATE, "%s3 may be read before it is defined", UT_BODY_LINE + 2, 3,
                    1);
    wa_program_destroy(prog);

    /* a component never written */
    prog = parse(ctx, "  v_mov_b32 %v1<2,align=2>[1], 1\n"
                      "  global_store_dwordx2 v0, %v1, s[0:1]\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    CHECK_RUN_FAILS(prog, NULL, WA_E_VALIDATE);
    CHECK_LAST_DIAG(ctx, WA_E_VALIDATE, "%v1 may be read before it is defined", UT_BODY_LINE + 1, 3,
                    1);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void impossible_alignment(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* 16 registers at a multiple of 32 with 40 VGPRs: v0 (live) rules out v0,
       and v32 + 16 passes the limit; the pressure (17) fits. */
    wa_program *prog = parse(ctx, "  v_mov_b32 %v1<16,align=32>[0], v0\n"
                                  "  global_store_dword v0, %v1[0], s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 40;
    wa_regalloc_result *res = (wa_regalloc_result *)(uintptr_t)1;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    CHECK_DIAG(ctx, WA_E_ALLOC, "cannot allocate %v1 (VGPR x16, align 32,|no free aligned range in v0..v39",
               UT_BODY_LINE, 3, 0);
    CHECK_DIAG(ctx, WA_E_ALLOC, "", UT_ANY, UT_ANY, UT_ANY);
    /* with 48 it fits at v32 */
    o.max_vgprs = 48;
    res = alloc(prog, &o);
    if (res)
        CHECK_REG(res, 1, WA_REG_VGPR, 32, 16);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);

    /* an SGPR oct (alignment 4) next to the live kernarg pointer in 10 SGPRs:
       s[4:11] passes the limit although 2 + 8 registers would fit */
    prog = parse(ctx, "  s_load_dwordx8 %s1<8,align=4>, s[0:1], 0\n"
                      "  s_load_dword %s2, s[0:1], 32\n"
                      "  s_add_u32 %s3, %s1[7], %s2\n"
                      "  s_endpgm\n");
    REQUIRE(prog);
    o = (wa_regalloc_options)WA_REGALLOC_OPTIONS_INIT;
    o.max_sgprs = 10;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    CHECK_DIAG(ctx, WA_E_ALLOC, "cannot allocate %s1 (SGPR x8, align 4,", UT_BODY_LINE, 3, 0);
    o.max_sgprs = 12;
    res = alloc(prog, &o);
    if (res)
        CHECK_REG(res, 1, WA_REG_SGPR, 4, 8);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

static void pressure_above_limit(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    /* 5 AGPRs live at once with a limit of 4 */
    wa_program *prog = parse(ctx, "  v_accvgpr_write_b32 %a1, 1\n"
                                  "  global_load_dwordx4 %a2<4,align=2>, v0, s[0:1]\n"
                                  "  global_store_dwordx4 v0, %a2, s[0:1]\n"
                                  "  v_accvgpr_read_b32 %v3, %a1\n"
                                  "  global_store_dword v0, %v3, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_agprs = 4;
    wa_regalloc_result *res = (wa_regalloc_result *)(uintptr_t)1;
    CHECK_RUN_FAILS(prog, &o, WA_E_ALLOC);
    /* The error names one of the two values and the notes the other; the
       program uses no physical AGPR, so no note may call one precolored. */
    const wa_diag *e = wa_context_diag(ctx, 0);
    REQUIRE(e);
    CHECK_EQ_INT(e->status, WA_E_ALLOC);
    int names_a1 = strstr(e->message, "cannot allocate %a1 (AGPR x1, align 1,") != NULL;
    int names_a2 = strstr(e->message, "cannot allocate %a2 (AGPR x4, align 2,") != NULL;
    CHECK_MSG(names_a1 || names_a2, "error: %s", e->message);
    CHECK_STR_CONTAINS(e->message, "no free aligned range in a0..a3");
    int other = 0, precolored = 0;
    for (unsigned i = 1; i < wa_context_diag_count(ctx); i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        other |= strstr(d->message, names_a1 ? "overlaps %a2 (x4) in a" : "overlaps %a1 (x1) in a") != NULL;
        precolored |= strstr(d->message, "precolored") != NULL;
    }
    CHECK_MSG(other, "the other value is not among the notes:%s", ut_diags_text(ctx));
    CHECK_MSG(!precolored, "notes call registers precolored the program does not use:%s",
              ut_diags_text(ctx));
    o.max_agprs = 6;
    res = alloc(prog, &o);
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* A physical register the program uses beyond the limit it is allocated under:
   the kernel would use more registers than allowed. */
static void precolored_beyond_limit(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse(ctx, "  v_mov_b32 v20, 1\n"
                                  "  v_mov_b32 %v1, v20\n"
                                  "  global_store_dword v0, %v1, s[0:1]\n"
                                  "  s_endpgm\n");
    REQUIRE(prog);
    wa_regalloc_options o = WA_REGALLOC_OPTIONS_INIT;
    o.max_vgprs = 16;
    wa_regalloc_result *res = NULL;
    wa_status st = wa_regalloc_run(&res, prog, &o);
    if (st == WA_OK) {
        wa_regalloc_stats s = stats_of(res);
        CHECK_MSG(s.peak_vgprs <= o.max_vgprs,
                  "allocation under max_vgprs=16 succeeded with a peak of %u (the program's v20)",
                  s.peak_vgprs);
        unsigned errors = 0;
        CHECK_MSG(wa_regalloc_check(&errors, prog, res, &o) != WA_OK,
                  "the checker accepts v20 under a limit of 16");
    } else {
        CHECK_EQ_INT(st, WA_E_ALLOC);
        CHECK(res == NULL);
        CHECK(ut_find_diag(ctx, "v20") != NULL);
    }
    wa_regalloc_destroy(res);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- debug switches ---------------------------------------------------------------------- */

/* WAVE_DEBUG_REGALLOC logs decisions, WAVE_KERNEL_ALLOC_DEBUG every allocation
   and release, through the context's log hook (read when the context is made). */
static void debug_switches_log(void)
{
    ut_log_lines lines;
    static const char *const env[] = { "WAVE_DEBUG_REGALLOC", "WAVE_KERNEL_ALLOC_DEBUG", NULL };
    wa_context *ctx = ut_context_logging(WA_TARGET_GFX942, &lines, env);
    wa_program *prog = parse(ctx, "  .abi none\n"
                                  "  v_mov_b32 %v1, 1\n"
                                  "  global_load_dwordx4 %v2<4,align=2>, v[8:9], off\n"
                                  "  v_readfirstlane_b32 %s3, %v1\n"
                                  "  v_readfirstlane_b32 %s4, %v2[3]\n"
                                  "  s_endpgm\n");
    if (prog) {
        wa_regalloc_result *res = alloc(prog, NULL);
        /* the events name the register the allocation actually chose */
        wa_operand r1;
        char want_alloc[64], want_free[64];
        REQUIRE(CHECK_OK(wa_regalloc_lookup(&r1, res, 1)));
        snprintf(want_alloc, sizeof(want_alloc), "[ALLOC] v%u %%v1 (single, align=1)", r1.id);
        snprintf(want_free, sizeof(want_free), "[FREE] v%u %%v1", r1.id);
        CHECK_STR_CONTAINS(lines.text, "[REGALLOC] %v1 x1 align 1");
        CHECK_STR_CONTAINS(lines.text, want_alloc);
        CHECK_STR_CONTAINS(lines.text, "(range, align=2)");
        CHECK_STR_CONTAINS(lines.text, want_free);
        CHECK_STR_CONTAINS(lines.text, "[REGALLOC] 4 intervals");
        wa_regalloc_destroy(res);
        wa_program_destroy(prog);
    }
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(class_pools_are_separate) UT_CASE(vgpr_tuple_alignment)
             UT_CASE(agpr_and_declared_alignment) UT_CASE(sgpr_tuple_alignment)
                 UT_CASE(precolored_abi_registers) UT_CASE(reserved_registers) UT_CASE(limits)
                     UT_CASE(bad_options) UT_CASE(tied_mfma_accumulator)
                         UT_CASE(read_modify_write_keeps_register) UT_CASE(partial_write_keeps_register) UT_CASE(move_coalescing)
                             UT_CASE(lifetime_holes) UT_CASE(hole_fits_count_only_holes)
                                 UT_CASE(peak_equals_pressure)
                                 UT_CASE(lookup_and_apply) UT_CASE(lookup_of_unused_ids)
                                     UT_CASE(precomputed_liveness) UT_CASE(check_flag)
                                     UT_CASE(checker_rejects_collisions)
                                         UT_CASE(checker_rejects_shapes)
                                             UT_CASE(checker_rejects_mfma_overlap) UT_CASE(host_made_allocation)
                                                 UT_CASE(failure_diagnostic)
                                                     UT_CASE(read_before_definition)
                                                         UT_CASE(impossible_alignment)
                                                             UT_CASE(pressure_above_limit)
                                                                 UT_CASE(precolored_beyond_limit)
                                                                     UT_CASE(debug_switches_log));
