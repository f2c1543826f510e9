/* tests/unit/test_hazards.c — the hazard pass (wa_pass_hazards) and its
   independent checker (wa_check_hazards).

   Expectations come from outside the library's rule table: the boundary cases
   carry the wait states of the hardware documentation (docs/hazards.md) written
   out per target, and the pass's output is judged by the checker and by the
   simulator's hazard mode (its own dynamic algorithm over the executed path).

     api_bad_input          NULL program, option versions and flags
     stats                  the counters of a known program
     boundaries             every rule on every target: a producer, g independent
                            instructions or an s_nop of g wait states, a consumer;
                            the pass inserts exactly max(0, need - g), the checker
                            reports iff g < need
     checker_reports        messages, locations, counts, paths and loops
     idempotent             a second run inserts nothing
     acyclic_minimal        without loops, every inserted wait state is necessary:
                            one less and the checker objects
     examples               every example without its s_nop, on every target:
                            pass, checker, simulator in hazard mode; the pass's
                            wait states against the hand-written ones
     random_programs        random allocated programs with MFMAs and bounded loops:
                            pass, checker, differential run in hazard mode
     gemm_kernels           generated GEMM kernels after allocation
     checker_vs_simulator   random programs without the pass: whenever the
                            simulator sees a hazard on its path, the checker
                            reports one at the same consumer */
#include "check.h"
#include "randprog.h"
#include "simdiff.h"
#include "util.h"

#ifdef WAVEASM_HAVE_GEMM_GEN
#include "gemm_gen.h"
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wa_target targets[3] = { WA_TARGET_GFX90A, WA_TARGET_GFX942, WA_TARGET_GFX950 };

/* ---- helpers ------------------------------------------------------------------------------ */

typedef struct tbuf {
    char s[16384];
    size_t n;
} tbuf;

static void tb_add(tbuf *b, const char *fmt, ...) UT_PRINTF(2, 3);
static void tb_add(tbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
    va_end(ap);
    if (k > 0 && (size_t)k < sizeof(b->s) - b->n)
        b->n += (size_t)k;
    else
        CHECK_MSG(0, "kernel text too long");
}

/* Wait states of an s_nop view (its count + 1), 0 for anything else. */
static unsigned nop_states(const wa_instr_view *v)
{
    if (v->opcode != WA_OP_S_NOP)
        return 0;
    return (unsigned)v->operands[0].imm.i + 1u;
}

/* Wait states provided by all s_nop of a program. */
static unsigned total_nop_states(const wa_program *p)
{
    unsigned sum = 0;
    for (unsigned i = 0; i < wa_program_size(p); i++) {
        wa_instr_view v;
        if (wa_program_get(&v, p, i) == WA_OK)
            sum += nop_states(&v);
    }
    return sum;
}

/* Removes the s_nop instructions only (waits stay). Returns the wait states removed. */
static unsigned strip_nops(wa_program *p)
{
    unsigned removed = 0;
    for (unsigned i = wa_program_size(p); i-- > 0;) {
        wa_instr_view v;
        if (wa_program_get(&v, p, i) != WA_OK)
            continue;
        if (v.opcode == WA_OP_S_NOP) {
            removed += nop_states(&v);
            CHECK_OK(wa_program_erase(p, i));
        }
    }
    return removed;
}

static unsigned max_tag(const wa_program *p)
{
    unsigned m = 0;
    for (unsigned i = 0; i < wa_program_size(p); i++) {
        wa_instr_view v;
        if (wa_program_get(&v, p, i) == WA_OK && v.tag != WA_NO_TAG && v.tag > m)
            m = v.tag;
    }
    return m;
}

static unsigned check_errors(const wa_program *p, wa_status *st_out)
{
    unsigned errors = 12345;
    wa_status st = wa_check_hazards(&errors, p, NULL);
    if (st_out)
        *st_out = st;
    CHECK_MSG(st == WA_OK || st == WA_E_VALIDATE, "wa_check_hazards: status %d", (int)st);
    CHECK_MSG((st == WA_OK) == (errors == 0), "status %d with %u errors", (int)st, errors);
    return errors;
}

static wa_status parse_body(wa_program **out, wa_context *ctx, wa_target t, const char *body)
{
    wa_status st = ut_parse_body(out, ctx, wa_target_name(t), body);
    CHECK_MSG(st == WA_OK, "parse failed (%d):%s\n%s", (int)st, ut_diags_text(ctx), body);
    return st;
}

/* ---- API ------------------------------------------------------------------------------------ */

static void api_bad_input(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *p = NULL;
    REQUIRE_OK(parse_body(&p, ctx, WA_TARGET_GFX942,
                          "  v_mov_b32 v1, 0\n"
                          "  v_mfma_f32_4x4x4_16b_f16 a[0:3], v[0:1], v[2:3], 0\n"
                          "  s_endpgm\n"));
    wa_pass_stats s;
    unsigned errors = 7;
    CHECK_STATUS(wa_pass_hazards(NULL, NULL, &s), WA_E_INVALID);
    CHECK_STATUS(wa_check_hazards(&errors, NULL, NULL), WA_E_INVALID);
    CHECK_EQ_UINT(errors, 0);
    wa_hazard_options o = WA_HAZARD_OPTIONS_INIT;
    o.version = 0;
    CHECK_STATUS(wa_pass_hazards(p, &o, &s), WA_E_INVALID);
    CHECK_DIAG(ctx, WA_E_INVALID, "wa_hazard_options|version 0", UT_ANY, UT_ANY, UT_ANY);
    o.version = WA_HAZARD_OPTIONS_VERSION + 1;
    CHECK_STATUS(wa_check_hazards(&errors, p, &o), WA_E_INVALID);
    o.version = WA_HAZARD_OPTIONS_VERSION;
    o.flags = 0x10;
    CHECK_STATUS(wa_pass_hazards(p, &o, &s), WA_E_INVALID);
    CHECK_DIAG(ctx, WA_E_INVALID, "unknown flags 0x10", UT_ANY, UT_ANY, UT_ANY);
    CHECK_STATUS(wa_check_hazards(&errors, p, &o), WA_E_INVALID);
    /* nothing changed by the refused calls */
    CHECK_EQ_UINT(wa_program_size(p), 3);
    /* defaults: explicit options, NULL options, NULL stats, NULL error count */
    o.flags = 0;
    CHECK_STATUS(wa_check_hazards(NULL, p, &o), WA_E_VALIDATE);
    CHECK_OK(wa_pass_hazards(p, &o, NULL));
    CHECK_OK(wa_check_hazards(NULL, p, NULL));
    /* an empty program */
    wa_program *e = NULL;
    REQUIRE_OK(parse_body(&e, ctx, WA_TARGET_GFX942, ""));
    CHECK_OK(wa_pass_hazards(e, NULL, &s));
    CHECK_EQ_UINT(s.nops_inserted, 0);
    CHECK_OK(wa_check_hazards(&errors, e, NULL));
    wa_program_destroy(e);
    wa_program_destroy(p);
    wa_context_destroy(ctx);
}

static void stats(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *p = NULL;
    /* gfx90a: the v_mov right before the MFMA needs 2 (s_nop 1); the 32x32x8
       result read 1 wait state later needs 19 (P = 16): 18 more, s_nop 15 +
       s_nop 1. */
    REQUIRE_OK(parse_body(&p, ctx, WA_TARGET_GFX90A,
                          "  v_mov_b32 v4, 0\n"
                          "  v_mfma_f32_32x32x8f16 a[0:15], v[4:5], v[6:7], 0\n"
                          "  s_mov_b32 s4, 0\n"
                          "  v_accvgpr_read_b32 v8, a15\n"
                          "  s_endpgm\n"));
    wa_pass_stats s;
    memset(&s, 0xAB, sizeof(s));
    REQUIRE_OK(wa_pass_hazards(p, NULL, &s));
    CHECK_EQ_UINT(s.version, WA_PASS_STATS_VERSION);
    CHECK_EQ_UINT(s.instrs_before, 5);
    CHECK_EQ_UINT(s.instrs_after, 8);
    CHECK_EQ_UINT(s.inserted, 3);
    CHECK_EQ_UINT(s.nops_inserted, 3);
    CHECK_EQ_UINT(s.nop_wait_states, 20);
    CHECK_EQ_UINT(s.iterations, 1);
    CHECK_EQ_UINT(s.removed, 0);
    CHECK_EQ_UINT(s.waitcnts_inserted, 0);
    /* the chunks sit right before their consumers, in order */
    static const struct {
        wa_opcode op;
        int nop;
    } want[8] = { { WA_OP_V_MOV_B32, -1 }, { WA_OP_S_NOP, 1 }, { WA_OP_V_MFMA_F32_32X32X8_F16, -1 },
                  { WA_OP_S_MOV_B32, -1 }, { WA_OP_S_NOP, 15 }, { WA_OP_S_NOP, 1 },
                  { WA_OP_V_ACCVGPR_READ_B32, -1 }, { WA_OP_S_ENDPGM, -1 } };
    REQUIRE(wa_program_size(p) == 8);
    for (unsigned i = 0; i < 8; i++) {
        wa_instr_view v;
        CHECK_OK(wa_program_get(&v, p, i));
        CHECK_EQ_UINT(v.opcode, want[i].op);
        if (want[i].nop >= 0 && v.opcode == WA_OP_S_NOP) {
            CHECK_EQ_INT(v.operands[0].imm.i, want[i].nop);
            CHECK_MSG(v.tag >= 5, "inserted s_nop with old tag %u", v.tag);
        }
    }
    CHECK_EQ_UINT(check_errors(p, NULL), 0);
    /* the inserted instructions have new tags, the others keep theirs */
    unsigned idx;
    for (unsigned t = 0; t < 5; t++)
        CHECK_OK(wa_program_find_tag(&idx, p, t));
    wa_program_destroy(p);
    wa_context_destroy(ctx);
}

/* ---- boundaries ----------------------------------------------------------------------------- */

/* A producer, a consumer and the wait states the documentation asks between
   them on gfx90a, gfx942, gfx950 (0: no rule; -1: an opcode is missing there).
   MFMA spellings are the gfx942 ones (gfx90a's are looked up). */
typedef struct bcase {
    const char *rule;
    const char *producer;
    const char *consumer;
    int need[3];
} bcase;

static const bcase bcases[] = {
    /* H1: VALU writes an SGPR, VMEM reads it: 5 */
    { "H1", "v_readfirstlane_b32 s8, v1",
      "buffer_load_dword v2, v1, s[4:7], s8 offen", { 5, 5, 5 } },
    { "H1", "v_cmp_eq_u32 vcc, v0, v1",
      "buffer_load_dword v2, v1, s[4:7], vcc_lo offen", { 5, 5, 5 } },
    { "H1", "v_readlane_b32 s11, v1, 0", "global_load_dword v2, v20, s[10:11]", { 5, 5, 5 } },
    { "H1", "v_readfirstlane_b32 s6, v1",
      "buffer_load_dword v1, s[4:7], 0 offen lds", { 5, 5, 5 } },
    /* H2: lane select: 4 */
    { "H2", "v_readfirstlane_b32 s8, v1", "v_readlane_b32 s9, v2, s8", { 4, 4, 4 } },
    { "H2", "v_cmp_eq_u32 s[8:9], v0, v0", "v_writelane_b32 v2, 5, s9", { 4, 4, 4 } },
    /* H3: SALU writes M0, LDS-DMA: 1 */
    { "H3", "s_mov_b32 m0, 0", "buffer_load_dword v1, s[4:7], 0 offen lds", { 1, 1, 1 } },
    /* ... and s_sendmsg / s_sendmsghalt / s_ttracedata, which read M0: 1 */
    { "H3", "s_mov_b32 m0, 0", "s_sendmsg 3", { 1, 1, 1 } },
    { "H3", "s_add_u32 m0, s1, 4", "s_sendmsghalt 1", { 1, 1, 1 } },
    { "H3", "s_mov_b32 m0, s2", "s_ttracedata", { 1, 1, 1 } },
    /* ... and the DS addtid forms (M0 is their LDS address); not append/consume */
    { "H3", "s_mov_b32 m0, s2", "ds_read_addtid_b32 v1 offset:8", { 1, 1, 1 } },
    { "H3", "s_add_u32 m0, s2, 4", "ds_write_addtid_b32 v1", { 1, 1, 1 } },
    { "H3", "s_mov_b32 m0, s2", "ds_append v1", { 0, 0, 0 } },
    { "H3", "s_mov_b32 m0, s2", "ds_consume v1 offset:4", { 0, 0, 0 } },
    /* H4: wide store data overwritten: 1 / 2 / 2; not for 64 bits or an SGPR soffset */
    { "H4", "buffer_store_dwordx4 v[4:7], v1, s[4:7], 0 offen", "v_mov_b32 v6, 1", { 1, 2, 2 } },
    { "H4", "global_store_dwordx3 v20, v[4:6], s[10:11]", "v_add_u32 v4, 1, v4", { 1, 2, 2 } },
    { "H4", "buffer_store_dwordx4 v[4:7], v1, s[4:7], s12 offen", "v_mov_b32 v6, 1", { 0, 0, 0 } },
    { "H4", "global_store_dwordx2 v20, v[4:5], s[10:11]", "v_mov_b32 v4, 0", { 0, 0, 0 } },
    /* H5, H6: VALU writes an SGPR / VCC, VALU reads it: 0 / 2 / 2 */
    { "H5", "v_cmp_eq_u32 s[8:9], v0, v0", "v_cndmask_b32 v2, 0, 1, s[8:9]", { 0, 2, 2 } },
    { "H5", "v_readfirstlane_b32 s8, v1", "v_add_u32 v2, s8, v1", { 0, 2, 2 } },
    { "H6", "v_cmp_eq_u32 vcc, v0, v0", "v_cndmask_b32 v2, 0, 1, vcc", { 0, 2, 2 } },
    /* H7: VALU writes a VGPR, readlane reads it: 0 / 1 / 1 */
    { "H7", "v_mov_b32 v2, 7", "v_readfirstlane_b32 s8, v2", { 0, 1, 1 } },
    /* H8: VALU writes EXEC, lane instructions: 0 / 4 / 4 */
    { "H8", "v_cmp_eq_u32 exec, v0, v0", "v_readlane_b32 s8, v1, 2", { 0, 4, 4 } },
    /* H9: TRANS result to a non-TRANS VALU: 0 / 1 / 1; TRANS -> TRANS: 0 */
    { "H9", "v_exp_f32 v2, v3", "v_add_f32 v8, v2, v3", { 0, 1, 1 } },
    { "H9", "v_exp_f32 v2, v3", "v_rcp_f32 v8, v2", { 0, 0, 0 } },
    /* H10, H11: VALU writes an MFMA source: 2; writes EXEC: 4 */
    { "H10", "v_mov_b32 v5, 0", "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0", { 2, 2, 2 } },
    { "H10", "v_accvgpr_write_b32 a2, 0",
      "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], a[0:3]", { 2, 2, 2 } },
    { "H11", "v_cmp_eq_u32 exec, v0, v0",
      "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[4:5], v[6:7], 0", { 4, 4, 4 } },
    /* H12: MFMA result read: gfx90a P+3 (P 8/16/2), gfx942 XDL P+3 / SMFMA P+2,
       gfx950 XDL P+3 (+1 if P != 2) */
    { "H12", "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0",
      "v_accvgpr_read_b32 v8, a1", { 11, 7, 8 } },
    { "H12", "v_mfma_f32_32x32x8_f16 a[0:15], v[4:5], v[6:7], 0",
      "v_accvgpr_read_b32 v8, a15", { 19, 11, 12 } },
    { "H12", "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[4:5], v[6:7], 0",
      "v_accvgpr_read_b32 v8, a0", { 5, 5, 5 } },
    { "H12", "v_mfma_f32_16x16x4_f32 v[8:11], v4, v6, 0", "ds_write_b32 v1, v11", { 11, 10, 10 } },
    { "H12", "v_mfma_f32_16x16x32_fp8_fp8 a[0:3], v[4:5], v[6:7], 0",
      "v_accvgpr_read_b32 v8, a3", { -1, 7, 8 } },
    /* H13: overwritten: same numbers */
    { "H13", "v_mfma_f32_16x16x16_f16 v[8:11], v[4:5], v[6:7], 0",
      "v_mov_b32 v9, 0", { 11, 7, 8 } },
    { "H13", "v_mfma_f32_16x16x16_f16 v[8:11], v[4:5], v[6:7], 0",
      "global_load_dword v10, v20, s[10:11]", { 11, 7, 8 } },
    /* H14: srcA/srcB */
    { "H14", "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0",
      "v_mfma_f32_16x16x16_f16 a[8:11], a[0:1], v[6:7], 0", { 11, 7, 8 } },
    { "H14", "v_mfma_f32_16x16x4_f32 a[0:3], v4, v6, 0",
      "v_mfma_f32_4x4x4_16b_f16 a[8:11], v[4:5], a[2:3], 0", { 11, 10, 10 } },
    /* H15: the same registers as srcC: 0, 2 after a 2-pass MFMA on gfx942/gfx950 */
    { "H15", "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[4:5], v[6:7], 0",
      "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[4:5], v[6:7], a[0:3]", { 0, 2, 2 } },
    { "H15", "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0",
      "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], a[0:3]", { 0, 0, 0 } },
    /* H16: overlapping srcC: gfx90a P; gfx942 XDL->XDL P+1, SMFMA->XDL 0, SMFMA->SMFMA P;
       gfx950 XDL->XDL P+2, XDL->SMFMA P+1 (+1 if P != 2) */
    { "H16", "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0",
      "v_mfma_f32_16x16x16_f16 a[8:11], v[4:5], v[6:7], a[2:5]", { 8, 5, 6 } },
    { "H16", "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[4:5], v[6:7], 0",
      "v_mfma_f32_16x16x4_f32 a[8:11], v4, v6, a[2:5]", { 2, 3, 3 } },
    { "H16", "v_mfma_f32_16x16x4_f32 a[0:3], v4, v6, 0",
      "v_mfma_f32_16x16x16_f16 a[8:11], v[4:5], v[6:7], a[2:5]", { 8, 0, 0 } },
    { "H16", "v_mfma_f32_16x16x4_f32 a[0:3], v4, v6, 0",
      "v_mfma_f32_16x16x4_f32 a[8:11], v4, v6, a[2:5]", { 8, 8, 8 } },
    { "H16", "v_mfma_f32_32x32x8_f16 a[0:15], v[4:5], v[6:7], 0",
      "v_mfma_f32_16x16x16_f16 a[16:19], v[4:5], v[6:7], a[0:3]", { 16, 9, 10 } },
    /* H17: srcC read, then overwritten: P-1 (gfx942/gfx950: XDL only) */
    { "H17", "v_mfma_f32_16x16x16_f16 a[4:7], v[4:5], v[6:7], a[0:3]",
      "v_accvgpr_write_b32 a1, 0", { 7, 3, 3 } },
    { "H17", "v_mfma_f32_32x32x8_f16 a[16:31], v[4:5], v[6:7], a[0:15]",
      "ds_read_b32 a9, v1", { 15, 7, 7 } },
    { "H17", "v_mfma_f32_16x16x4_f32 a[4:7], v4, v6, a[0:3]",
      "v_accvgpr_write_b32 a1, 0", { 7, 0, 0 } },
    /* H36: a partial VGPR write (op_sel's destination half), then a VALU reading or
       writing the register: 1 on gfx942/gfx950 (llc-22 post-RA-hazard-rec) */
    { "H36", "v_mad_u16 v8, v2, v4, v6 op_sel:[0,0,0,1]", "v_add_u32 v10, v8, v4", { 0, 1, 1 } },
    { "H36", "v_mad_u16 v8, v2, v4, v6 op_sel:[0,0,0,1]", "v_add_u32 v8, v2, v4", { 0, 1, 1 } },
    { "-", "v_mad_u16 v8, v2, v4, v6", "v_add_u32 v10, v8, v4", { 0, 0, 0 } },
    /* H35: an SMEM instruction right after an SMEM clause it conflicts with
       (writes a register the clause reads or writes; a store after loads): 1 */
    { "H35", "s_load_dwordx2 s[4:5], s[0:1], 0", "s_load_dword s0, s[0:1], 8", { 1, 1, 1 } },
    { "H35", "s_load_dword s4, s[0:1], 0", "s_load_dword s5, s[4:5], 8", { 1, 1, 1 } },
    { "H35", "s_load_dword s4, s[0:1], 0", "s_store_dword s6, s[0:1], 8", { 1, 1, 1 } },
    { "-", "s_load_dword s4, s[0:1], 0", "s_load_dword s5, s[0:1], 8", { 0, 0, 0 } },
    /* H35 for vector memory: the same for vector memory (MUBUF, FLAT, GLOBAL, SCRATCH: one kind) */
    { "H35", "global_load_dwordx2 v[2:3], v[0:1], off", "global_load_dword v4, v[2:3], off",
      { 1, 1, 1 } },
    { "H35", "global_load_dword v2, v[0:1], off", "global_store_dword v[0:1], v5, off",
      { 1, 1, 1 } },
    { "H35", "buffer_load_dword v2, v1, s[8:11], 0 offen", "global_load_dword v3, v2, s[0:1]",
      { 1, 1, 1 } },
    { "H35", "global_load_dword v2, v1, s[0:1]", "global_load_dword v1, v3, s[0:1]", { 1, 1, 1 } },
    { "-", "global_load_dword v2, v[0:1], off", "global_load_dword v3, v[0:1], off offset:4",
      { 0, 0, 0 } },
    { "-", "global_store_dword v[0:1], v5, off", "global_store_dword v[0:1], v6, off offset:4",
      { 0, 0, 0 } },
    { "-", "ds_read_b32 v2, v1", "global_load_dword v3, v2, s[0:1]", { 0, 0, 0 } },
    { "-", "s_load_dword s4, s[0:1], 0", "global_load_dword v3, v2, s[4:5]", { 0, 0, 0 } },
    /* no rule: interlocked pairs and registers that do not overlap */
    { "-", "s_mov_b32 s8, 3", "v_add_u32 v2, s8, v1", { 0, 0, 0 } },
    { "-", "v_mov_b32 v2, 5", "ds_write_b32 v1, v2", { 0, 0, 0 } },
    { "-", "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0",
      "v_accvgpr_read_b32 v8, a4", { 0, 0, 0 } },
    { "-", "v_readfirstlane_b32 s8, v1",
      "buffer_load_dword v2, v1, s[4:7], s9 offen", { 0, 0, 0 } },
};

/* `g` wait states as independent instructions (kind 0) or one s_nop chain (kind 1). */
static void gap(tbuf *b, unsigned g, int kind)
{
    if (kind) {
        for (; g; g -= g > 16 ? 16 : g)
            tb_add(b, "  s_nop %u\n", (g > 16 ? 16 : g) - 1);
        return;
    }
    for (unsigned i = 0; i < g; i++)
        tb_add(b, i % 2 ? "  v_mov_b32 v40, 0\n" : "  s_mov_b32 s40, 0\n");
}

static const char *spelled(const char *text, wa_target t, char *buf, size_t n)
{
    char mn[64];
    size_t k = 0;
    while (text[k] && text[k] != ' ' && k + 1 < sizeof(mn)) {
        mn[k] = text[k];
        k++;
    }
    mn[k] = '\0';
    wa_opcode op;
    if (wa_isa_lookup(&op, mn) != WA_OK)
        return text;
    snprintf(buf, n, "%s%s", wa_isa_mnemonic(op, t), text + k);
    return buf;
}

static void boundaries(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    unsigned programs = 0;
    for (size_t c = 0; c < sizeof(bcases) / sizeof(bcases[0]); c++) {
        const bcase *bc = &bcases[c];
        for (unsigned t = 0; t < 3; t++) {
            int need = bc->need[t];
            if (need < 0)
                continue;
            char pbuf[160], cbuf[160];
            const char *prod = spelled(bc->producer, targets[t], pbuf, sizeof(pbuf));
            const char *cons = spelled(bc->consumer, targets[t], cbuf, sizeof(cbuf));
            for (int kind = 0; kind <= 1; kind++)
                for (unsigned g = 0; g <= (unsigned)need + 1; g++) {
                    ut_context("%s: %s -> %s on %s, gap %u (%s)", bc->rule, prod, cons,
                               wa_target_name(targets[t]), g, kind ? "s_nop" : "plain");
                    tbuf b = { "", 0 };
                    tb_add(&b, "  %s\n", prod);
                    gap(&b, g, kind);
                    tb_add(&b, "  %s\n  s_endpgm\n", cons);
                    wa_program *p = NULL;
                    if (parse_body(&p, ctx, targets[t], b.s) != WA_OK)
                        continue;
                    programs++;
                    unsigned errors = check_errors(p, NULL);
                    CHECK_MSG((errors > 0) == ((int)g < need), "checker: %u errors, need %d",
                              errors, need);
                    unsigned gap_lines = kind ? (g + 15) / 16 : g, ctag = 1 + gap_lines;
                    if ((int)g < need && errors) {
                        char words[96];
                        snprintf(words, sizeof(words), "hazard:|%u wait state|needs %d (rule %s",
                                 g, need, bc->rule);
                        CHECK_DIAG(ctx, WA_E_VALIDATE, words, UT_BODY_LINE + 1 + gap_lines, 3,
                                   ctag);
                    }
                    wa_pass_stats s;
                    if (CHECK_OK(wa_pass_hazards(p, NULL, &s))) {
                        unsigned want = (int)g < need ? (unsigned)need - g : 0;
                        CHECK_EQ_UINT(s.nop_wait_states, want);
                        CHECK_EQ_UINT(s.nops_inserted, (want + 15) / 16);
                        CHECK_EQ_UINT(check_errors(p, NULL), 0);
                        /* the nops sit right before the consumer (tag 1) */
                        unsigned ci;
                        if (want && CHECK_OK(wa_program_find_tag(&ci, p, ctag)) && ci > 0) {
                            wa_instr_view v;
                            CHECK_OK(wa_program_get(&v, p, ci - 1));
                            CHECK_EQ_UINT(v.opcode, WA_OP_S_NOP);
                            CHECK_MSG(v.tag > ctag + 1, "s_nop before the consumer has tag %u",
                                      v.tag);
                        }
                    }
                    wa_program_destroy(p);
                }
        }
    }
    ut_context("%s", "");
    printf("     boundaries: %u programs (%zu pairs x targets x gaps x 2 gap forms)\n", programs,
           sizeof(bcases) / sizeof(bcases[0]));
    wa_context_destroy(ctx);
}

/* ---- checker messages, paths and loops ---------------------------------------------------- */

static void checker_reports(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *p = NULL;
    wa_status st;
    /* three violations, one clean pair */
    REQUIRE_OK(parse_body(&p, ctx, WA_TARGET_GFX942,
                          "  v_mov_b32 v6, 0\n"                                        /* I0 */
                          "  v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0\n"      /* I1 */
                          "  v_accvgpr_read_b32 v8, a1\n"                              /* I2 */
                          "  v_cmp_eq_u32 s[8:9], v0, v0\n"                            /* I3 */
                          "  s_nop 0\n"                                                /* I4 */
                          "  v_add_u32 v2, s8, v1\n"                                   /* I5 */
                          "  v_add_u32 v3, s9, v1\n"                                   /* I6 */
                          "  s_endpgm\n"));
    CHECK_EQ_UINT(check_errors(p, &st), 3);
    CHECK_STATUS(st, WA_E_VALIDATE);
    CHECK_DIAG(ctx, WA_E_VALIDATE,
               "hazard: v6 (srcB) is read 0 wait states after v_mov_b32 @I0 wrote it; gfx942 "
               "needs 2 (rule H10: VALU writes a VGPR/AGPR, MFMA reads it)",
               UT_BODY_LINE + 1, 3, 1);
    CHECK_DIAG(ctx, WA_E_VALIDATE,
               "hazard: a1 (src0) is read 0 wait states after v_mfma_f32_16x16x16_f16 @I1 wrote "
               "it; gfx942 needs 7 (rule H12|4-pass XDL MFMA: P+3",
               UT_BODY_LINE + 2, 3, 2);
    CHECK_DIAG(ctx, WA_E_VALIDATE,
               "s8 (src0) is read 1 wait state after v_cmp_eq_u32 @I3|needs 2 (rule H5",
               UT_BODY_LINE + 5, 3, 5);
    CHECK(ut_find_diag(ctx, "s9") == NULL);
    wa_program_destroy(p);

    /* the minimum over paths: the taken branch skips the s_nop */
    wa_context_clear_diags(ctx);
    REQUIRE_OK(parse_body(&p, ctx, WA_TARGET_GFX942,
                          "  v_readfirstlane_b32 s8, v1\n"
                          "  s_cbranch_scc1 skip\n"
                          "  s_nop 4\n"
                          "skip:\n"
                          "  buffer_load_dword v2, v1, s[4:7], s8 offen\n"
                          "  s_endpgm\n"));
    CHECK_EQ_UINT(check_errors(p, NULL), 1);
    CHECK_DIAG(ctx, WA_E_VALIDATE,
               "s8 (soffset) is read 1 wait state after v_readfirstlane_b32 @I0|needs 5 (rule H1",
               UT_ANY, UT_ANY, 3);
    wa_pass_stats s;
    CHECK_OK(wa_pass_hazards(p, NULL, &s));
    CHECK_EQ_UINT(s.nop_wait_states, 4);
    CHECK_EQ_UINT(check_errors(p, NULL), 0);
    wa_program_destroy(p);

    /* around a loop's back edge: the producer at the bottom, the consumer at the
       top, 3 wait states apart (s_add, s_cmp, s_cbranch); also the last
       iteration's MFMA read after the loop */
    wa_context_clear_diags(ctx);
    REQUIRE_OK(parse_body(&p, ctx, WA_TARGET_GFX942,
                          "  s_mov_b32 s20, 0\n"
                          "  s_nop 15\n"
                          "loop:\n"
                          "  v_mfma_f32_16x16x16_f16 a[8:11], v[4:5], v[6:7], a[2:5]\n"
                          "  s_nop 7\n"
                          "  v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0\n"
                          "  s_add_u32 s20, s20, 1\n"
                          "  s_cmp_lt_u32 s20, 3\n"
                          "  s_cbranch_scc1 loop\n"
                          "  v_accvgpr_read_b32 v0, a0\n"
                          "  s_endpgm\n"));
    CHECK_EQ_UINT(check_errors(p, NULL), 2);
    CHECK_DIAG(ctx, WA_E_VALIDATE,
               "a2 (srcC) is read 3 wait states after v_mfma_f32_16x16x16_f16 @I4|needs 5|overlapping",
               UT_ANY, UT_ANY, 2);
    CHECK_DIAG(ctx, WA_E_VALIDATE,
               "a0 (src0) is read 3 wait states after v_mfma_f32_16x16x16_f16 @I4|needs 7", UT_ANY,
               UT_ANY, 8);
    CHECK_OK(wa_pass_hazards(p, NULL, &s));
    CHECK_EQ_UINT(s.nop_wait_states, 2 + 4);
    CHECK_EQ_UINT(check_errors(p, NULL), 0);
    wa_program_destroy(p);

    /* unreachable code is checked too (the pass covers it) */
    wa_context_clear_diags(ctx);
    REQUIRE_OK(parse_body(&p, ctx, WA_TARGET_GFX942,
                          "  s_endpgm\n"
                          "  v_cmp_eq_u32 vcc, v0, v0\n"
                          "  v_cndmask_b32 v2, 0, 1, vcc\n"
                          "  s_endpgm\n"));
    CHECK_EQ_UINT(check_errors(p, NULL), 1);
    CHECK_OK(wa_pass_hazards(p, NULL, &s));
    CHECK_EQ_UINT(s.nop_wait_states, 2);
    wa_program_destroy(p);

    /* more violations than messages: a count and a note */
    wa_context_clear_diags(ctx);
    tbuf b = { "", 0 };
    for (unsigned i = 0; i < 150; i++)
        tb_add(&b, "  v_cmp_eq_u32 vcc, v0, v0\n  v_cndmask_b32 v2, 0, 1, vcc\n");
    tb_add(&b, "  s_endpgm\n");
    REQUIRE_OK(parse_body(&p, ctx, WA_TARGET_GFX942, b.s));
    CHECK_EQ_UINT(check_errors(p, NULL), 150);
    CHECK(ut_find_diag(ctx, "H6") != NULL);
    CHECK_EQ_UINT(wa_context_diag_count(ctx) <= 110, 1);
    CHECK_OK(wa_pass_hazards(p, NULL, &s));
    CHECK_EQ_UINT(s.nop_wait_states, 300);
    CHECK_EQ_UINT(check_errors(p, NULL), 0);
    wa_program_destroy(p);
    wa_context_destroy(ctx);
}

/* ---- random programs ----------------------------------------------------------------------- */

static void report_res(const char *what, const sd_result *r, unsigned programs)
{
    printf("     %s: %u programs, %u runs compared, %u inconclusive, %u skipped, %u failures\n",
           what, programs, r->runs, r->inconclusive, r->skipped, r->failures);
    if (r->skipped)
        printf("       first skip: %s\n", r->first_skip);
}

/* A random program for `target`, allocated (NULL if generation or allocation fails). */
static wa_program *random_allocated(wa_context *ctx, wa_target target, uint64_t seed,
                                    const rp_config *cfg)
{
    wa_program *prog = rp_generate(ctx, target, seed, cfg);
    if (!prog)
        return NULL;
    wa_program *alloc = NULL;
    wa_status st = sd_pass_regalloc(&alloc, prog);
    wa_program_destroy(prog);
    return st == WA_OK ? alloc : NULL;
}

static void idempotent(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    unsigned tried = 0, with_nops = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        cfg.items = 60 + (unsigned)(seed % 80);
        wa_program *p = random_allocated(ctx, targets[seed % 3], seed, &cfg);
        if (!p)
            continue;
        tried++;
        wa_pass_stats s1, s2;
        ut_context("seed %llu", (unsigned long long)seed);
        unsigned before = total_nop_states(p);
        if (CHECK_OK(wa_pass_hazards(p, NULL, &s1)) && CHECK_OK(wa_pass_hazards(p, NULL, &s2))) {
            with_nops += s1.nops_inserted > 0;
            CHECK_EQ_UINT(s2.nops_inserted, 0);
            CHECK_EQ_UINT(s1.nop_wait_states, total_nop_states(p) - before);
        }
        wa_program_destroy(p);
    }
    ut_context("%s", "");
    printf("     idempotent: %u programs (%u needed nops)\n", tried, with_nops);
    CHECK(tried >= 50 && with_nops >= 20);
    wa_context_destroy(ctx);
}

/* Without loops every nop run the pass inserts is necessary: one wait state
   less and the checker objects. */
static void acyclic_minimal(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.loops = 0;
    unsigned tried = 0, runs = 0, necessary = 0;
    for (uint64_t seed = 100; seed < 160; seed++) {
        cfg.items = 50 + (unsigned)(seed % 70);
        wa_program *p = random_allocated(ctx, targets[seed % 3], seed, &cfg);
        if (!p)
            continue;
        ut_context("seed %llu on %s", (unsigned long long)seed,
                   wa_target_name(wa_program_target(p)));
        unsigned old = max_tag(p);
        tried++;
        if (!CHECK_OK(wa_pass_hazards(p, NULL, NULL))) {
            wa_program_destroy(p);
            continue;
        }
        /* the last inserted s_nop of every run of them */
        for (unsigned i = 0; i < wa_program_size(p); i++) {
            wa_instr_view v, next;
            if (wa_program_get(&v, p, i) != WA_OK || v.opcode != WA_OP_S_NOP || v.tag <= old)
                continue;
            if (wa_program_get(&next, p, i + 1) == WA_OK && next.opcode == WA_OP_S_NOP &&
                next.tag > old)
                continue;
            wa_program *q = NULL;
            if (!CHECK_OK(wa_program_clone(&q, p)))
                continue;
            unsigned n = nop_states(&v);
            if (n > 1)
                CHECK_OK(wa_program_set_operand(q, i, 0, wa_opnd_imm((int64_t)n - 2)));
            else
                CHECK_OK(wa_program_erase(q, i));
            runs++;
            unsigned errors = check_errors(q, NULL);
            necessary += errors > 0;
            CHECK_MSG(errors > 0, "the s_nop @I%u (%u wait states) is not necessary", v.tag, n);
            wa_program_destroy(q);
        }
        wa_program_destroy(p);
    }
    ut_context("%s", "");
    printf("     acyclic minimal: %u programs, %u inserted nop runs each one wait state "
           "shorter, %u rejected by the checker\n", tried, runs, necessary);
    CHECK(tried >= 50 && runs >= 50);
    wa_context_destroy(ctx);
}

static void random_programs(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1;
    cfg.mfma = 1;
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 2;
    sc.after_hazards = 1;
    sc.checks = SD_CHECK_HAZARDS;
    sd_result res;
    memset(&res, 0, sizeof(res));
    unsigned programs = 0, nops = 0, states = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        cfg.items = 40 + (unsigned)(seed % 90);
        wa_program *p = random_allocated(ctx, targets[seed % 3], 7000 + seed, &cfg);
        if (!CHECK_MSG(p != NULL, "seed %llu: generation or allocation failed: %s",
                       (unsigned long long)seed, wa_context_last_error(ctx)))
            continue;
        programs++;
        unsigned f = sd_check_pass(p, sd_pass_hazards, "hazards", &sc, &res);
        CHECK_MSG(f == 0, "seed %llu (%s): %s", (unsigned long long)seed,
                  wa_target_name(wa_program_target(p)), res.first_failure);
        wa_pass_stats s;
        if (CHECK_OK(wa_pass_hazards(p, NULL, &s))) {
            nops += s.nops_inserted;
            states += s.nop_wait_states;
        }
        wa_program_destroy(p);
    }
    report_res("random allocated programs, hazards (x 2 seeds, hazard mode)", &res, programs);
    printf("       %u s_nop, %u wait states inserted\n", nops, states);
    CHECK_EQ_UINT(res.failures, 0);
    /* stores through undefined addresses make a run inconclusive, nothing else may */
    CHECK_EQ_UINT(res.runs + res.inconclusive, programs * sc.seeds);
    CHECK_MSG(res.runs >= programs * sc.seeds / 2, "only %u runs compared", res.runs);
    CHECK(nops > programs / 2);
    wa_context_destroy(ctx);
}

/* ---- the checker against the simulator ----------------------------------------------------- */

#define SIM_BUF (64u * 1024u)

/* Runs `prog` in hazard mode (no timing: loads land at once). Returns the status
   and, for a hazard, the consumer's tag. */
static wa_status sim_hazards(const wa_program *prog, unsigned *tag)
{
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.flags = WA_SIM_HAZARDS | WA_SIM_PERMISSIVE;
    wa_context *ctx = wa_program_context(prog);
    wa_sim *sim = NULL;
    wa_status st = wa_sim_create(&sim, prog, &o);
    if (st)
        return st;
    uint8_t *bufs[8] = { 0 };
    for (unsigned a = 0; a < wa_program_arg_count(prog) && a < 8; a++) {
        wa_kernel_arg arg;
        if (wa_program_arg(&arg, prog, a) != WA_OK)
            continue;
        if (arg.kind == WA_ARG_GLOBAL_BUFFER) {
            bufs[a] = calloc(1, SIM_BUF);
            if (bufs[a])
                wa_sim_bind_buffer(sim, a, bufs[a], SIM_BUF);
        } else if (arg.kind == WA_ARG_BY_VALUE && arg.size <= 8) {
            uint64_t v = 64;
            wa_sim_set_arg(sim, a, &v, arg.size);
        }
    }
    st = wa_sim_run(sim);
    if (st == WA_E_SIM_HAZARD) {
        const wa_diag *d = wa_context_last_diag(ctx);
        *tag = d ? d->tag : WA_NO_TAG;
    }
    wa_sim_destroy(sim);
    for (unsigned a = 0; a < 8; a++)
        free(bufs[a]);
    return st;
}

static int has_diag_at(const wa_context *ctx, unsigned tag)
{
    for (unsigned i = 0; i < wa_context_diag_count(ctx); i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        if (d->status == WA_E_VALIDATE && d->tag == tag && strstr(d->message, "hazard:"))
            return 1;
    }
    return 0;
}

static void checker_vs_simulator(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    rp_config cfg;
    rp_config_default(&cfg);
    cfg.bounded_loops = 1;
    unsigned programs = 0, sim_hz = 0, sim_ok = 0, sim_other = 0, ck_hz = 0, agree = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        cfg.items = 40 + (unsigned)(seed % 90);
        wa_program *p = random_allocated(ctx, targets[seed % 3], 9000 + seed, &cfg);
        if (!p)
            continue;
        programs++;
        ut_context("seed %llu on %s", (unsigned long long)seed,
                   wa_target_name(wa_program_target(p)));
        wa_context_clear_diags(ctx);
        unsigned tag = WA_NO_TAG;
        wa_status st = sim_hazards(p, &tag);
        wa_context_clear_diags(ctx);
        unsigned errors = check_errors(p, NULL);
        ck_hz += errors > 0;
        if (st == WA_E_SIM_HAZARD) {
            sim_hz++;
            /* the first violation the run meets is among the checker's */
            CHECK_MSG(errors > 0 && wa_context_diag_count(ctx) > 0,
                      "the simulator sees a hazard at I%u, the checker none", tag);
            if (errors <= 100 && has_diag_at(ctx, tag))
                agree++;
            else
                CHECK_MSG(errors > 100, "no checker diagnostic at the simulator's consumer I%u:%s",
                          tag, ut_diags_text(ctx));
        } else if (st == WA_OK) {
            sim_ok++;
        } else {
            sim_other++;
        }
        wa_program_destroy(p);
    }
    ut_context("%s", "");
    printf("     checker vs simulator: %u programs x 1 run; simulator: %u hazards, %u clean, %u "
           "other; checker: %u with hazards; same consumer %u of %u\n",
           programs, sim_hz, sim_ok, sim_other, ck_hz, agree, sim_hz);
    CHECK(programs >= 350 && sim_hz >= 80 && sim_ok + sim_hz >= programs * 3 / 4);
    wa_context_destroy(ctx);
}

/* ---- examples and generated kernels -------------------------------------------------------- */

static void examples(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 2;
    sc.timing = 1; /* the examples keep their waits */
    sc.after_hazards = 1;
    sc.checks = SD_CHECK_HAZARDS;
    sd_result res;
    memset(&res, 0, sizeof(res));
    unsigned runs = 0, hand_total = 0, pass_total = 0;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned t = 0; t < 3; t++) {
            wa_program *p = NULL;
            if (!CHECK_OK(wa_program_parse_file(&p, ctx, files[i])))
                continue;
            const char *name = strrchr(files[i], '/') ? strrchr(files[i], '/') + 1 : files[i];
            ut_context("%s on %s", name, wa_target_name(targets[t]));
            CHECK_OK(wa_program_set_target(p, targets[t]));
            CHECK_EQ_UINT(check_errors(p, NULL), 0); /* hand-written nops cover every target */
            unsigned hand = strip_nops(p);
            if (hand)
                CHECK(check_errors(p, NULL) > 0);
            wa_pass_stats s;
            wa_program *q = NULL;
            if (CHECK_OK(wa_program_clone(&q, p)) && CHECK_OK(wa_pass_hazards(q, NULL, &s))) {
                printf("       %-24s %-7s hand-written %2u wait states, pass %2u (%u s_nop)\n",
                       name, wa_target_name(targets[t]), hand, s.nop_wait_states, s.nops_inserted);
                hand_total += hand;
                pass_total += s.nop_wait_states;
                CHECK_MSG(s.nop_wait_states <= hand, "pass %u > hand-written %u",
                          s.nop_wait_states, hand);
            }
            wa_program_destroy(q);
            unsigned f = sd_check_pass(p, sd_pass_hazards, "hazards", &sc, &res);
            CHECK_MSG(f == 0, "%s", res.first_failure);
            runs++;
            /* virtual registers: allocated first, as in the pipeline */
            if (wa_program_vreg_count(p)) {
                wa_program *a = NULL;
                if (CHECK_OK(sd_pass_regalloc(&a, p))) {
                    f = sd_check_pass(a, sd_pass_hazards, "hazards after allocation", &sc, &res);
                    CHECK_MSG(f == 0, "%s", res.first_failure);
                    runs++;
                    wa_program_destroy(a);
                }
            }
            wa_program_destroy(p);
        }
    }
    ut_context("%s", "");
    report_res("examples without s_nop x 3 targets (x 2 seeds, hazard mode)", &res, runs);
    printf("       wait states: hand-written %u, pass %u\n", hand_total, pass_total);
    CHECK_EQ_UINT(res.failures, 0);
    CHECK_EQ_UINT(res.skipped, 0);
    CHECK_EQ_UINT(res.runs, runs * sc.seeds);
    ut_free_list(files, n);
    wa_context_destroy(ctx);
}

#ifdef WAVEASM_HAVE_GEMM_GEN
static void gemm_kernels(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    sd_config sc;
    sd_config_default(&sc);
    sc.seeds = 1;
    sc.timing = 1;
    sc.after_hazards = 1;
    sc.checks = SD_CHECK_HAZARDS;
    sd_result res;
    memset(&res, 0, sizeof(res));
    unsigned kernels = 0, simulated = 0;
    for (int shape = 0; shape < GEMM_GEN_SHAPE_COUNT; shape++)
        for (unsigned t = 0; t < 3; t++) {
            wa_context *c = ut_context_new(targets[t]);
            gemm_gen_options g = GEMM_GEN_OPTIONS_INIT;
            g.shape = (gemm_gen_shape)shape;
            g.instructions = 1500;
            g.seed = 3 + t;
            wa_program *prog = NULL, *a = NULL;
            ut_context("%s on %s", gemm_gen_shape_name(g.shape), wa_target_name(targets[t]));
            if (!CHECK_OK(gemm_gen_build(&prog, NULL, c, &g))) {
                wa_context_destroy(c);
                continue;
            }
            unsigned hand = strip_nops(prog);
            if (CHECK_OK(sd_pass_regalloc(&a, prog))) {
                kernels++;
                wa_pass_stats s;
                wa_program *q = NULL;
                if (CHECK_OK(wa_program_clone(&q, a)) && CHECK_OK(wa_pass_hazards(q, NULL, &s))) {
                    printf("       %-10s %-7s %u instructions: generator's nops %u wait states, "
                           "pass %u (%u s_nop)\n",
                           gemm_gen_shape_name(g.shape), wa_target_name(targets[t]),
                           s.instrs_before, hand, s.nop_wait_states, s.nops_inserted);
                    CHECK_EQ_UINT(check_errors(q, NULL), 0);
                }
                wa_program_destroy(q);
                /* simulated on one target per shape (the simulator is the slow part) */
                if (t == (unsigned)shape + 1u) {
                    simulated++;
                    unsigned f = sd_check_pass(a, sd_pass_hazards, "hazards", &sc, &res);
                    CHECK_MSG(f == 0, "%s", res.first_failure);
                }
                wa_program_destroy(a);
            }
            wa_program_destroy(prog);
            wa_context_destroy(c);
        }
    ut_context("%s", "");
    report_res("generated GEMM kernels, allocated (hazard mode)", &res, simulated);
    CHECK_EQ_UINT(kernels, GEMM_GEN_SHAPE_COUNT * 3);
    CHECK_EQ_UINT(res.failures, 0);
    CHECK_EQ_UINT(res.runs + res.inconclusive, simulated * sc.seeds);
    wa_context_destroy(ctx);
}
#define GEMM_CASE UT_CASE(gemm_kernels)
#else
#define GEMM_CASE
#endif

/* Soft clauses (H35, SMEM and VMEM) matter only when XNACK may be on: a context with
   XNACK off neither pads nor reports them; ANY (the default) and ON do. */
static void soft_clauses_follow_xnack(void)
{
    static const char *const body[] = {
        "  global_load_dwordx2 v[2:3], v[0:1], off\n  global_load_dword v4, v[2:3], off\n"
        "  s_endpgm\n",
        "  s_load_dword s4, s[0:1], 0\n  s_load_dword s5, s[4:5], 8\n  s_endpgm\n",
    };
    static const wa_feature settings[] = { WA_FEATURE_ANY, WA_FEATURE_ON, WA_FEATURE_OFF };
    for (unsigned s = 0; s < 3; s++) {
        wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
        o.xnack = settings[s];
        wa_context *ctx = NULL;
        REQUIRE_OK(wa_context_create(&ctx, &o));
        CHECK_EQ_INT(wa_context_xnack(ctx), settings[s]);
        CHECK_EQ_INT(wa_context_sramecc(ctx), WA_FEATURE_ANY);
        unsigned want = settings[s] == WA_FEATURE_OFF ? 0 : 1;
        for (unsigned k = 0; k < 2; k++) {
            ut_context("xnack setting %u, %s", s, k ? "SMEM" : "VMEM");
            wa_program *p = NULL;
            if (parse_body(&p, ctx, WA_TARGET_GFX942, body[k]) != WA_OK)
                continue;
            CHECK_EQ_UINT(check_errors(p, NULL), want);
            if (want)
                CHECK_STR_CONTAINS(wa_context_last_error(ctx), "(rule H35");
            wa_pass_stats st;
            if (CHECK_OK(wa_pass_hazards(p, NULL, &st)))
                CHECK_EQ_UINT(st.nop_wait_states, want);
            wa_program_destroy(p);
        }
        wa_context_destroy(ctx);
    }
    ut_context("%s", "");
    /* version 1 options (no feature fields) still work and mean ANY; a bad
       setting is refused */
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.version = 1;
    o.xnack = (wa_feature)7; /* not read */
    wa_context *ctx = NULL;
    if (CHECK_OK(wa_context_create(&ctx, &o)))
        CHECK_EQ_INT(wa_context_xnack(ctx), WA_FEATURE_ANY);
    wa_context_destroy(ctx);
    o.version = WA_CONTEXT_OPTIONS_VERSION;
    ctx = NULL;
    CHECK_STATUS(wa_context_create(&ctx, &o), WA_E_INVALID);
    CHECK(ctx == NULL);
}

UT_SUITE(UT_CASE(api_bad_input) UT_CASE(stats) UT_CASE(boundaries) UT_CASE(checker_reports)
             UT_CASE(soft_clauses_follow_xnack)
             UT_CASE(idempotent) UT_CASE(acyclic_minimal) UT_CASE(examples)
                 UT_CASE(random_programs) GEMM_CASE UT_CASE(checker_vs_simulator));
