/* tests/unit/test_sim_hazards.c — the simulator's hazard mode (WA_SIM_HAZARDS):
   every rule of docs/hazards.md that the ISA table's opcodes can trigger, on
   each of gfx90a, gfx942 and gfx950, at its exact boundary.

   A boundary case is a producer (tagged @I50) and a consumer (tagged @I51)
   with a gap of wait states between them. For every target where the rule
   needs N > 0 wait states, the kernel runs four times: with N-1 wait states as
   one s_nop and as plain independent instructions (both must fail with
   WA_E_SIM_HAZARD, the message naming the consumer's register, the producer's
   mnemonic and tag, N-1 present, N needed and the rule), and with N wait states
   in both forms (both must pass). Where the rule does not apply on a target
   (N = 0) the pair with no gap at all must pass. A common prologue builds a
   buffer descriptor with no records (every access out of range: loads give 0,
   stores are dropped), binds one global buffer and defines the registers the
   cases read, then 24 wait states separate it from the producer so that only
   the pair under test can be near enough to matter.

   Then: dependencies through a loop back edge and along a branch (the count
   follows the executed path), pairs that must never fire, waves and
   workgroups that must not see each other's producers, every example kernel
   on every target (they carry hand-written s_nop and must pass), and
   examples/gemm_kloop.wa without its `s_nop 10`, which must be caught. */
#include "check.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const wa_target targets[3] = { WA_TARGET_GFX90A, WA_TARGET_GFX942, WA_TARGET_GFX950 };

/* ---- running kernels --------------------------------------------------------------------- */

#define BUF_BYTES (64u * 1024u)

typedef struct run_cfg {
    unsigned grid;          /* workgroups along x (0: 1) */
    unsigned wg;            /* work-items per workgroup (0: the program's) */
    uint64_t seed;
} run_cfg;

/* Creates a simulator for `prog` with WA_SIM_HAZARDS (and timing), binds a
   buffer to every global-buffer argument and gives by-value arguments `n` and
   `k` the values the examples expect. Returns the run's status (the
   diagnostics stay on the program's context); creation must succeed. */
static wa_status run_prog(const wa_program *prog, const run_cfg *cfg)
{
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    o.flags = WA_SIM_TIMING | WA_SIM_HAZARDS;
    o.seed = cfg && cfg->seed ? cfg->seed : 1;
    if (cfg && cfg->grid)
        o.grid[0] = cfg->grid;
    if (cfg && cfg->wg)
        o.workgroup_size[0] = cfg->wg;
    wa_context *ctx = wa_program_context(prog);
    wa_sim *sim = NULL;
    wa_status st = wa_sim_create(&sim, prog, &o);
    if (!CHECK_MSG(st == WA_OK, "wa_sim_create: %d:%s", (int)st, ut_diags_text(ctx)))
        return st;
    unsigned nargs = wa_program_arg_count(prog);
    uint8_t *bufs[8] = { 0 };
    for (unsigned a = 0; a < nargs; a++) {
        wa_kernel_arg arg;
        if (!CHECK_OK(wa_program_arg(&arg, prog, a)))
            continue;
        if (arg.kind == WA_ARG_GLOBAL_BUFFER && a < 8) {
            bufs[a] = malloc(BUF_BYTES);
            if (!CHECK(bufs[a] != NULL))
                continue;
            for (unsigned i = 0; i < BUF_BYTES / 4; i++) /* f16 pairs 1.0, 0.5; f32 ~0.0078 */
                memcpy(bufs[a] + 4 * i, &(uint32_t){ i % 2 ? 0x38003C00u : 0x3C003800u }, 4);
            CHECK_OK(wa_sim_bind_buffer(sim, a, bufs[a], BUF_BYTES));
        } else if (arg.kind == WA_ARG_BY_VALUE) {
            uint32_t v = 0;
            if (arg.name && strcmp(arg.name, "n") == 0)
                v = 1000; /* vector_add: 1000 elements, 4 workgroups of 256 */
            else if (arg.name && strcmp(arg.name, "k") == 0)
                v = 48;   /* the GEMM K loop: 3 iterations */
            else
                CHECK_MSG(0, "by-value argument %s: no value known", arg.name ? arg.name : "-");
            CHECK_EQ_UINT(arg.size, 4);
            CHECK_OK(wa_sim_set_arg(sim, a, &v, 4));
        }
    }
    st = wa_sim_run(sim);
    wa_sim_destroy(sim);
    for (unsigned a = 0; a < 8; a++)
        free(bufs[a]);
    return st;
}

/* Parses `body` for `target` (it must parse) and runs it. */
static wa_status run_body(wa_context *ctx, wa_target target, const char *body, const run_cfg *cfg)
{
    wa_program *prog = NULL;
    wa_status st = ut_parse_body(&prog, ctx, wa_target_name(target), body);
    if (!CHECK_MSG(st == WA_OK && prog, "parse failed (%d):%s\n%s", (int)st, ut_diags_text(ctx),
                   body))
        return WA_E_PARSE;
    st = run_prog(prog, cfg);
    wa_program_destroy(prog);
    return st;
}

/* The assembler's spelling of `mnemonic` on `target` (gfx90a's MFMA names). */
static const char *spelled(const char *mnemonic, wa_target target)
{
    wa_opcode op;
    if (!CHECK_OK(wa_isa_lookup(&op, mnemonic)))
        return mnemonic;
    return wa_isa_mnemonic(op, target);
}

/* ---- text building ----------------------------------------------------------------------- */

typedef struct tbuf {
    char s[8192];
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

/* `ws` wait states: s_nop instructions, or plain independent instructions (an
   SALU and a VALU that touch nothing the cases use). */
enum { GAP_NOP = 0, GAP_PLAIN = 1 };
static void tb_gap(tbuf *b, unsigned ws, int kind)
{
    if (kind == GAP_NOP) {
        while (ws) {
            unsigned k = ws > 16 ? 16 : ws;
            tb_add(b, "  s_nop %u\n", k - 1);
            ws -= k;
        }
        return;
    }
    for (unsigned i = 0; i < ws; i++)
        tb_add(b, i % 2 ? "  v_mov_b32 v40, 0\n" : "  s_mov_b32 s40, 0\n");
}

/* The prologue of the boundary cases:
     s[4:7]    buffer descriptor with no records (accesses out of range)
     s[10:11]  the global buffer's address, v21 its high word, v20 lane * 16
     v1 = 0 (buffer offset, LDS address), v2, v3, v[4:7] data, s8 = s12 = m0 = 0
   and 24 wait states before the producer. */
static const char prologue[] =
    "  .lds_bytes 1024\n"
    "  .arg out, global_buffer, offset:0, size:8, align:8\n"
    "  s_load_dwordx2 s[10:11], s[0:1], 0\n"
    "  s_mov_b32 s4, 0\n"
    "  s_mov_b32 s5, 0\n"
    "  s_mov_b32 s6, 0\n"
    "  s_mov_b32 s7, 0x20000\n"
    "  s_mov_b32 s8, 0\n"
    "  s_mov_b32 s12, 0\n"
    "  s_mov_b32 m0, 0\n"
    "  v_mov_b32 v1, 0\n"
    "  v_mov_b32 v2, 1\n"
    "  v_mov_b32 v3, 2.0\n"
    "  v_mov_b32 v4, 0x3c003c00\n"
    "  v_mov_b32 v5, 0x3c003c00\n"
    "  v_mov_b32 v6, 0x3c003c00\n"
    "  v_mov_b32 v7, 0x3c003c00\n"
    "  v_lshlrev_b32 v20, 4, v0\n"
    "  s_waitcnt lgkmcnt(0)\n"
    "  v_mov_b32 v21, s11\n";

/* ---- boundary cases ---------------------------------------------------------------------- */

typedef struct hz_case {
    const char *name;
    const char *pre;       /* more prologue lines, or NULL */
    const char *producer;  /* one instruction, tagged @I50 */
    const char *consumer;  /* one instruction, tagged @I51 */
    const char *reg;       /* the consumer's register the message names */
    const char *rule;      /* words of the rule the message names */
    int need[3];           /* gfx90a, gfx942, gfx950: wait states (0: must not fire,
                              -1: an opcode does not exist there) */
} hz_case;

static void case_text(tbuf *b, const hz_case *hc, unsigned ws, int kind)
{
    b->n = 0;
    tb_add(b, "%s", prologue);
    if (hc->pre)
        tb_add(b, "%s", hc->pre);
    tb_add(b, "  s_nop 15\n  s_nop 7\n");
    tb_add(b, "  %s ; @I50\n", hc->producer);
    tb_gap(b, ws, kind);
    tb_add(b, "  %s ; @I51\n", hc->consumer);
    tb_add(b, "  s_waitcnt vmcnt(0) lgkmcnt(0)\n  s_endpgm\n");
}

/* The first word (the mnemonic) of an instruction line. */
static void first_word(const char *line, char *out, size_t n)
{
    size_t k = 0;
    while (line[k] && line[k] != ' ' && k + 1 < n) {
        out[k] = line[k];
        k++;
    }
    out[k] = '\0';
}

static unsigned g_runs, g_flagged;

static void check_case(const hz_case *hc)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    tbuf b;
    char pmn[64];
    first_word(hc->producer, pmn, sizeof(pmn));
    for (unsigned t = 0; t < 3; t++) {
        int need = hc->need[t];
        if (need < 0)
            continue;
        wa_target tgt = targets[t];
        ut_context("%s on %s", hc->name, wa_target_name(tgt));
        if (need == 0) {
            case_text(&b, hc, 0, GAP_NOP);
            wa_status st = run_body(ctx, tgt, b.s, NULL);
            g_runs++;
            CHECK_MSG(st == WA_OK, "no gap: %d, expected no hazard:%s", (int)st,
                      ut_diags_text(ctx));
            continue;
        }
        for (int kind = GAP_NOP; kind <= GAP_PLAIN; kind++) {
            /* one wait state too few */
            case_text(&b, hc, (unsigned)need - 1, kind);
            wa_status st = run_body(ctx, tgt, b.s, NULL);
            g_runs++;
            if (CHECK_MSG(st == WA_E_SIM_HAZARD,
                          "%d wait states (%s): status %d, expected a hazard:%s", need - 1,
                          kind ? "plain" : "s_nop", (int)st, ut_diags_text(ctx))) {
                g_flagged++;
                char words[512];
                snprintf(words, sizeof(words),
                         "hazard: %s (| %d wait state|after %s @I50|needs %d (|%s", hc->reg,
                         need - 1, spelled(pmn, tgt), need, hc->rule);
                CHECK_DIAG(ctx, WA_E_SIM_HAZARD, words, UT_ANY, UT_ANY, 51);
            }
            /* exactly enough */
            case_text(&b, hc, (unsigned)need, kind);
            st = run_body(ctx, tgt, b.s, NULL);
            g_runs++;
            CHECK_MSG(st == WA_OK, "%d wait states (%s): status %d, expected no hazard:%s", need,
                      kind ? "plain" : "s_nop", (int)st, ut_diags_text(ctx));
        }
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

static void check_cases(const hz_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        check_case(&cases[i]);
}

/* ---- H1-H9 ------------------------------------------------------------------------------ */

#define ROW1 "H1: VALU writes an SGPR, VMEM reads it"
#define ROW3 "H2"
#define ROW9 "H4"

/* Row 1: VALU writes an SGPR (or VCC), a VMEM instruction reads it: 5 everywhere. */
static void row1_valu_sgpr_vmem(void)
{
    static const hz_case cases[] = {
        { "soffset", NULL, "v_cmp_eq_u32 s[8:9], v0, v0",
          "buffer_load_dword v2, v1, s[4:7], s8 offen", "s8", ROW1, { 5, 5, 5 } },
        { "soffset vcc_lo", NULL, "v_cmp_eq_u32 vcc, v0, v0",
          "buffer_load_dword v2, v1, s[4:7], vcc_lo offen", "vcc_lo", ROW1, { 5, 5, 5 } },
        { "srsrc", NULL, "v_readfirstlane_b32 s6, v1",
          "buffer_store_dword v2, v1, s[4:7], 0 offen", "s6", ROW1, { 5, 5, 5 } },
        { "lds-dma srsrc", NULL, "v_readfirstlane_b32 s5, v1",
          "buffer_load_dword v1, s[4:7], 0 offen lds", "s5", ROW1, { 5, 5, 5 } },
        { "global saddr", NULL, "v_readfirstlane_b32 s11, v21",
          "global_load_dword v2, v20, s[10:11]", "s11", ROW1, { 5, 5, 5 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Row 3: VALU writes an SGPR, v_readlane / v_writelane use it as lane select: 4. */
static void row3_lane_select(void)
{
    static const hz_case cases[] = {
        { "readlane", NULL, "v_readfirstlane_b32 s8, v1", "v_readlane_b32 s9, v2, s8", "s8",
          ROW3, { 4, 4, 4 } },
        { "writelane", NULL, "v_readfirstlane_b32 s8, v1", "v_writelane_b32 v2, 5, s8", "s8",
          ROW3, { 4, 4, 4 } },
        { "readlane after v_cmp", NULL, "v_cmp_eq_u32 s[8:9], v0, v0",
          "v_readlane_b32 s12, v2, s9", "s9", ROW3, { 4, 4, 4 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Row 8: SALU writes M0, LDS-DMA reads it: 1. */
static void row8_m0_lds_dma(void)
{
    static const hz_case cases[] = {
        { "s_mov m0", NULL, "s_mov_b32 m0, 0", "buffer_load_dword v1, s[4:7], 0 offen lds",
          "m0", "H3", { 1, 1, 1 } },
        { "s_movk m0", NULL, "s_movk_i32 m0, 0x100", "buffer_load_ubyte v1, s[4:7], 0 offen lds",
          "m0", "H3", { 1, 1, 1 } },
        { "s_ttracedata", NULL, "s_mov_b32 m0, 0", "s_ttracedata", "m0", "H3", { 1, 1, 1 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* H36: a VALU writing part of a VGPR (op_sel's destination half) before a VALU
   that reads or overwrites it: 1 on gfx942/gfx950 (verified with llc-22). */
static void partial_vgpr_write(void)
{
    static const hz_case cases[] = {
        { "op_sel dst half -> read", NULL, "v_mad_u16 v8, v2, v4, v1 op_sel:[0,0,0,1]",
          "v_add_u32 v9, v8, v2", "v8", "part of a VGPR", { 0, 1, 1 } },
        { "op_sel dst half -> overwrite", NULL, "v_mad_u16 v8, v2, v4, v1 op_sel:[0,0,0,1]",
          "v_add_u32 v8, v2, v2", "v8", "part of a VGPR", { 0, 1, 1 } },
        { "whole write", NULL, "v_mad_u16 v8, v2, v4, v1", "v_add_u32 v9, v8, v2", "v8",
          "part of a VGPR", { 0, 0, 0 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* H35: an SMEM instruction right after SMEM instructions (a soft clause) it
   conflicts with: 1 (any other instruction between breaks the clause; a load
   of a register loaded in the clause needs an s_waitcnt, which breaks it too). */
static void smem_soft_clause(void)
{
    static const hz_case cases[] = {
        { "load -> load over its address", NULL, "s_load_dwordx2 s[14:15], s[0:1], 0",
          "s_load_dword s0, s[0:1], 8", "s_load_dword", "H35", { 1, 1, 1 } },
        { "load -> store", NULL, "s_load_dword s14, s[0:1], 0",
          "s_store_dword s6, s[10:11], 0", "s_store_dword", "H35", { 1, 1, 1 } },
        { "load -> returning atomic", NULL, "s_load_dword s14, s[0:1], 0",
          "s_atomic_add s6, s[10:11], 0 glc", "s_atomic_add", "H35", { 1, 1, 1 } },
        { "independent loads", NULL, "s_load_dword s14, s[0:1], 0",
          "s_load_dword s15, s[0:1], 8", "s_load_dword", "H35", { 0, 0, 0 } },
        { "stores only", NULL, "s_store_dword s6, s[10:11], 0",
          "s_store_dword s7, s[10:11], 4", "s_store_dword", "H35", { 0, 0, 0 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* H35 for vector memory: the same for vector memory (MUBUF, FLAT, GLOBAL and SCRATCH form one
   kind): a clause whose instruction writes what it reads itself conflicts with
   whatever follows, as LLVM counts it. */
static void vmem_soft_clause(void)
{
    static const hz_case cases[] = {
        { "load over its own address", NULL, "global_load_dword v20, v20, s[10:11]",
          "global_load_dword v3, v21, s[10:11]", "global_load_dword", "H35", { 1, 1, 1 } },
        { "load -> store", NULL, "global_load_dword v2, v20, s[10:11]",
          "global_store_dword v20, v5, s[10:11]", "global_store_dword", "H35", { 1, 1, 1 } },
        { "buffer then global over its offset", NULL, "buffer_load_dword v2, v1, s[4:7], 0 offen",
          "global_load_dword v1, v20, s[10:11]", "global_load_dword", "H35", { 1, 1, 1 } },
        { "independent loads", NULL, "global_load_dword v2, v20, s[10:11]",
          "global_load_dword v3, v20, s[10:11] offset:4", "global_load_dword", "H35",
          { 0, 0, 0 } },
        { "DS is no clause", NULL, "ds_read_b32 v2, v1", "global_load_dword v1, v20, s[10:11]",
          "global_load_dword", "H35", { 0, 0, 0 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Row 9: a store of more than 64 bits of data (buffer: soffset not an SGPR),
   then a VALU overwrites a data register: 1 on gfx90a, 2 on gfx942/gfx950. */
static void row9_wide_store_data(void)
{
    static const hz_case cases[] = {
        { "buffer x4", NULL, "buffer_store_dwordx4 v[4:7], v1, s[4:7], 0 offen",
          "v_mov_b32 v5, 1", "v5", ROW9, { 1, 2, 2 } },
        { "buffer x3", NULL, "buffer_store_dwordx3 v[4:6], v1, s[4:7], 0 offen",
          "v_add_u32 v6, 1, v6", "v6", ROW9, { 1, 2, 2 } },
        { "global x4", NULL, "global_store_dwordx4 v20, v[4:7], s[10:11]", "v_mov_b32 v4, 0",
          "v4", ROW9, { 1, 2, 2 } },
        { "global x3", NULL, "global_store_dwordx3 v20, v[4:6], s[10:11]",
          "v_accvgpr_read_b32 v6, a0", "v6", ROW9, { 1, 2, 2 } },
        { "agpr data", NULL, "buffer_store_dwordx4 a[0:3], v1, s[4:7], 0 offen",
          "v_accvgpr_write_b32 a3, 0", "a3", ROW9, { 1, 2, 2 } },
        { "mfma overwrites", NULL, "buffer_store_dwordx4 v[8:11], v1, s[4:7], 0 offen",
          "v_mfma_f32_4x4x4_16b_f16 v[8:11], v[4:5], v[6:7], 0", "v8", ROW9, { 1, 2, 2 } },
        /* never: soffset is an SGPR, or the data is 64 bits, or a DS store */
        { "buffer soffset sgpr", NULL, "buffer_store_dwordx4 v[4:7], v1, s[4:7], s12 offen",
          "v_mov_b32 v5, 1", "v5", ROW9, { 0, 0, 0 } },
        { "buffer x2", NULL, "buffer_store_dwordx2 v[4:5], v1, s[4:7], 0 offen",
          "v_mov_b32 v5, 1", "v5", ROW9, { 0, 0, 0 } },
        { "global x2", NULL, "global_store_dwordx2 v20, v[4:5], s[10:11]", "v_mov_b32 v4, 0",
          "v4", ROW9, { 0, 0, 0 } },
        { "ds b128", NULL, "ds_write_b128 v1, v[4:7]", "v_mov_b32 v5, 1", "v5", ROW9,
          { 0, 0, 0 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Rows 10 and 11: VALU writes an SGPR / VCC, a VALU reads it: 2 on gfx942/gfx950. */
static void row10_11_valu_sgpr_valu(void)
{
    static const hz_case cases[] = {
        { "sgpr", NULL, "v_cmp_eq_u32 s[8:9], v0, v0", "v_add_u32 v2, s8, v1", "s8",
          "H5", { 0, 2, 2 } },
        { "sgpr mask", NULL, "v_cmp_eq_u32 s[8:9], v0, v0", "v_cndmask_b32 v2, 0, 1, s[8:9]",
          "s8", "H5", { 0, 2, 2 } },
        { "readfirstlane result", NULL, "v_readfirstlane_b32 s8, v1", "v_writelane_b32 v2, s8, 0",
          "s8", "H5", { 0, 2, 2 } },
        { "exec operand", NULL, "v_cmp_eq_u32 exec, v0, v0", "v_cndmask_b32 v2, 0, 1, exec",
          "exec", "H5", { 0, 2, 2 } },
        { "exec_lo source", NULL, "v_cmp_eq_u32 exec, v0, v0", "v_add_u32 v2, exec_lo, v1",
          "exec_lo", "H5", { 0, 2, 2 } },
        { "vcc mask", NULL, "v_cmp_eq_u32 vcc, v0, v0", "v_cndmask_b32 v2, 0, 1, vcc", "vcc",
          "H6", { 0, 2, 2 } },
        { "vcc_hi source", NULL, "v_cmp_gt_u32 vcc, v0, v1", "v_add_u32 v2, vcc_hi, v1",
          "vcc_hi", "H6", { 0, 2, 2 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Row 12: VALU writes a VGPR, v_readlane / v_readfirstlane reads it: 1 on gfx942/gfx950. */
static void row12_valu_vgpr_readlane(void)
{
    static const hz_case cases[] = {
        { "readfirstlane", NULL, "v_mov_b32 v2, 7", "v_readfirstlane_b32 s8, v2", "v2",
          "H7", { 0, 1, 1 } },
        { "readlane", NULL, "v_add_u32 v2, v1, v1", "v_readlane_b32 s8, v2, 3", "v2",
          "H7", { 0, 1, 1 } },
        { "accvgpr_read", NULL, "v_accvgpr_read_b32 v2, a0", "v_readfirstlane_b32 s8, v2", "v2",
          "H7", { 0, 1, 1 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Row 13: VALU writes EXEC, v_readlane / v_readfirstlane / v_writelane: 4 on gfx942/gfx950. */
static void row13_valu_exec_lanes(void)
{
    static const hz_case cases[] = {
        { "readfirstlane", NULL, "v_cmp_eq_u32 exec, v0, v0", "v_readfirstlane_b32 s8, v1",
          "exec", "H8", { 0, 4, 4 } },
        { "readlane", NULL, "v_cmp_eq_u32 exec, v0, v0", "v_readlane_b32 s8, v1, 2", "exec",
          "H8", { 0, 4, 4 } },
        { "writelane", NULL, "v_cmp_eq_u32 exec, v0, v0", "v_writelane_b32 v2, 5, 0", "exec",
          "H8", { 0, 4, 4 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Row 14: a TRANS VALU writes a VGPR, a non-TRANS VALU reads it: 1 on
   gfx942/gfx950; TRANS -> TRANS needs nothing. */
static void row14_trans_forwarding(void)
{
    static const hz_case cases[] = {
        { "exp -> add", NULL, "v_exp_f32 v2, v3", "v_add_f32 v8, v2, v3", "v2", "H9",
          { 0, 1, 1 } },
        { "rcp -> mov", NULL, "v_rcp_f32 v2, v3", "v_mov_b32 v8, v2", "v2", "H9",
          { 0, 1, 1 } },
        { "sqrt -> cvt", NULL, "v_sqrt_f32 v2, v3", "v_cvt_u32_f32 v8, v2", "v2", "H9",
          { 0, 1, 1 } },
        { "log -> accvgpr_write", NULL, "v_log_f32 v2, v3", "v_accvgpr_write_b32 a0, v2", "v2",
          "H9", { 0, 1, 1 } },
        { "exp -> rcp", NULL, "v_exp_f32 v2, v3", "v_rcp_f32 v8, v2", "v2", "H9",
          { 0, 0, 0 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Pairs that need no wait states on any target (docs/hazards.md: pairs without a rule):
   the hardware interlocks them. The gap is 0. */
static void interlocked_pairs(void)
{
    static const hz_case cases[] = {
        { "salu sgpr -> valu", NULL, "s_mov_b32 s8, 3", "v_add_u32 v2, s8, v1", "s8", "-",
          { 0, 0, 0 } },
        { "salu sgpr -> vmem", NULL, "s_mov_b32 s8, 0",
          "buffer_load_dword v2, v1, s[4:7], s8 offen", "s8", "-", { 0, 0, 0 } },
        { "valu sgpr -> salu", NULL, "v_cmp_eq_u32 s[8:9], v0, v0", "s_add_u32 s12, s8, 1", "s8",
          "-", { 0, 0, 0 } },
        { "valu vgpr -> vmem address", NULL, "v_mov_b32 v1, 0",
          "buffer_load_dword v2, v1, s[4:7], 0 offen", "v1", "-", { 0, 0, 0 } },
        { "valu vgpr -> vmem data", NULL, "v_mov_b32 v2, 5",
          "buffer_store_dword v2, v1, s[4:7], 0 offen", "v2", "-", { 0, 0, 0 } },
        { "valu vgpr -> global address", NULL, "v_add_u32 v20, 0, v20",
          "global_load_dword v2, v20, s[10:11]", "v20", "-", { 0, 0, 0 } },
        { "valu vgpr -> ds", NULL, "v_mov_b32 v2, 5", "ds_write_b32 v1, v2", "v2", "-",
          { 0, 0, 0 } },
        { "valu vgpr -> valu", NULL, "v_mov_b32 v2, 5", "v_add_u32 v8, v2, v2", "v2", "-",
          { 0, 0, 0 } },
        { "salu exec -> valu", NULL, "s_mov_b64 exec, -1", "v_readfirstlane_b32 s8, v1", "exec",
          "-", { 0, 0, 0 } },
        { "salu exec -> mfma", NULL, "s_mov_b64 exec, -1",
          "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0", "exec", "-", { 0, 0, 0 } },
        /* The hardware documentation of H1 names the explicit SGPR operands; LLVM also counts the
           implicit EXEC of a VMEM instruction (see hazards.c). */
        { "valu exec -> vmem", NULL, "v_cmp_eq_u32 exec, v0, v0",
          "buffer_load_dword v2, v1, s[4:7], 0 offen", "exec", "-", { 0, 0, 0 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* ---- H10-H17 ---------------------------------------------------------------------------- */

#define MFMA16 "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0"

/* 4.2(a): a VALU (not an MFMA) writes an MFMA source: 2; writes EXEC: 4. */
static void mfma_a_valu_to_mfma(void)
{
    static const hz_case cases[] = {
        { "srcA", NULL, "v_mov_b32 v4, 0x3c00", MFMA16, "v4", "H10", { 2, 2, 2 } },
        { "srcB", NULL, "v_lshl_or_b32 v7, v2, 16, v2", MFMA16, "v7", "H10", { 2, 2, 2 } },
        { "srcC agpr", NULL, "v_accvgpr_write_b32 a2, 0",
          "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], a[0:3]", "a2", "H10",
          { 2, 2, 2 } },
        { "srcC vgpr", NULL, "v_mov_b32 v9, 0",
          "v_mfma_f32_4x4x4_16b_f16 v[8:11], v[4:5], v[6:7], v[8:11]", "v9", "H10",
          { 2, 2, 2 } },
        { "srcA agpr (smfma)", NULL, "v_accvgpr_write_b32 a8, 1.0",
          "v_mfma_f32_16x16x4_f32 a[0:3], a8, v6, 0", "a8", "H10", { 2, 2, 2 } },
        { "trans -> srcA", NULL, "v_exp_f32 v5, v3", MFMA16, "v5", "H10", { 2, 2, 2 } },
        { "exec", NULL, "v_cmp_eq_u32 exec, v0, v0", MFMA16, "exec", "H11: VALU writes EXEC",
          { 4, 4, 4 } },
        { "exec (gfx950 mfma)", NULL, "v_cmp_eq_u32 exec, v0, v0",
          "v_mfma_f32_16x16x32_bf16 a[0:3], v[4:7], v[4:7], 0", "exec", "H11", { -1, -1, 4 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* 4.2(b): an MFMA writes D, then a VALU, VMEM or DS instruction reads or
   writes it, or an MFMA reads it as srcA/srcB. Every producer below meets
   every consumer. Numbers: gfx90a P+3 (5/11/19), gfx942 XDL P+3 and SMFMA
   P+2, gfx950 XDL P+3 (+1 if P != 2) and SMFMA P+2. */
typedef struct mfma_prod {
    const char *text;   /* writes a[0:3] at least */
    int need[3];
} mfma_prod;

typedef struct mfma_cons {
    const char *text;   /* touches a1 */
    const char *rule;
} mfma_cons;

static void mfma_b_result(void)
{
    static const mfma_prod prods[] = {
        { "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0", { 11, 7, 8 } },   /* P 8/4/4 */
        { "v_mfma_f32_16x16x16_bf16 a[0:3], v[4:5], v[6:7], 0", { 11, 7, 8 } },
        { "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[4:5], v[6:7], 0", { 5, 5, 5 } },   /* P 2 */
        { "v_mfma_f32_4x4x4_16b_bf16 a[0:3], v[4:5], v[6:7], 0", { 5, 5, 5 } },
        { "v_mfma_f32_32x32x8_f16 a[0:15], v[4:5], v[6:7], 0", { 19, 11, 12 } }, /* P 16/8/8 */
        { "v_mfma_f32_32x32x8_bf16 a[0:15], v[4:5], v[6:7], 0", { 19, 11, 12 } },
        { "v_mfma_f32_16x16x4_f32 a[0:3], v4, v6, 0", { 11, 10, 10 } },          /* SMFMA, P 8 */
        { "v_mfma_f32_16x16x32_fp8_fp8 a[0:3], v[4:5], v[6:7], 0", { -1, 7, 8 } },
        { "v_mfma_f32_32x32x16_fp8_fp8 a[0:15], v[4:5], v[6:7], 0", { -1, 11, 12 } },
        { "v_mfma_i32_16x16x32_i8 a[0:3], v[4:5], v[6:7], 0", { -1, 7, 8 } },
        { "v_mfma_f32_16x16x32_f16 a[0:3], v[4:7], v[4:7], 0", { -1, -1, 8 } },
        { "v_mfma_f32_16x16x32_bf16 a[0:3], v[4:7], v[4:7], 0", { -1, -1, 8 } },
    };
    static const mfma_cons conss[] = {
        { "v_accvgpr_read_b32 v8, a1", "MFMA writes D, VALU/VMEM/DS reads it" },
        { "v_accvgpr_mov_b32 a8, a1", "MFMA writes D, VALU/VMEM/DS reads it" },
        { "buffer_store_dword a1, v1, s[4:7], 0 offen", "VALU/VMEM/DS reads it" },
        { "global_store_dword v20, a1, s[10:11]", "VALU/VMEM/DS reads it" },
        { "ds_write_b32 v1, a1", "VALU/VMEM/DS reads it" },
        { "v_accvgpr_write_b32 a1, 0",
          "MFMA writes D, VALU or VMEM/DS load overwrites it" },
        { "buffer_load_dword a1, v1, s[4:7], 0 offen", "VALU or VMEM/DS load overwrites it" },
        { "global_load_dword a1, v20, s[10:11]", "VALU or VMEM/DS load overwrites it" },
        { "ds_read_b32 a1, v1", "VALU or VMEM/DS load overwrites it" },
        { "v_mfma_f32_16x16x16_f16 a[8:11], a[0:1], v[6:7], 0",
          "MFMA writes D, MFMA reads it as srcA/srcB" },
        { "v_mfma_f32_4x4x4_16b_f16 a[8:11], v[4:5], a[0:1], 0", "reads it as srcA/srcB" },
        { "v_mfma_f32_16x16x4_f32 a[8:11], a1, v6, 0", "reads it as srcA/srcB" },
    };
    for (size_t p = 0; p < sizeof(prods) / sizeof(prods[0]); p++)
        for (size_t k = 0; k < sizeof(conss) / sizeof(conss[0]); k++) {
            const char *cons = conss[k].text;
            const char *reg = strstr(cons, "a[0:1]") ? "a0" : "a1";
            hz_case hc = { "mfma result", NULL, prods[p].text, cons, reg, conss[k].rule,
                           { prods[p].need[0], prods[p].need[1], prods[p].need[2] } };
            check_case(&hc);
        }
}

/* 4.2(b) with VGPR results and the other VALU readers. */
static void mfma_b_result_vgpr(void)
{
#define V16 "v_mfma_f32_16x16x16_f16 v[8:11], v[4:5], v[6:7], 0"
    static const hz_case cases[] = {
        { "valu read", NULL, V16, "v_add_f32 v2, v9, v3", "v9", "MFMA writes D", { 11, 7, 8 } },
        { "readfirstlane", NULL, V16, "v_readfirstlane_b32 s8, v10", "v10", "MFMA writes D",
          { 11, 7, 8 } },
        { "writelane (read and write)", NULL, V16, "v_writelane_b32 v11, 5, 0", "v11", "MFMA writes D",
          { 11, 7, 8 } },
        { "valu write", NULL, V16, "v_mov_b32 v8, 0", "v8", "MFMA writes D, VALU or",
          { 11, 7, 8 } },
        { "vmem address", NULL, V16, "buffer_load_dword v2, v8, s[4:7], 0 offen", "v8",
          "VALU/VMEM/DS reads it", { 11, 7, 8 } },
        { "ds data", NULL, V16, "ds_write_b32 v1, v11", "v11", "VALU/VMEM/DS reads it",
          { 11, 7, 8 } },
        { "smfma -> valu", NULL, "v_mfma_f32_16x16x4_f32 v[8:11], v4, v6, 0",
          "v_accvgpr_write_b32 a0, v8", "v8", "VALU/VMEM/DS reads it", { 11, 10, 10 } },
    };
#undef V16
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* 4.2(b): an MFMA reads the previous MFMA's D as srcC. Same registers: 0,
   except 2 after a 2-pass MFMA on gfx942/gfx950. Overlapping: gfx90a P; gfx942
   XDL -> XDL and XDL -> SMFMA P+1, SMFMA -> SMFMA P, SMFMA -> XDL 0; gfx950 XDL
   -> XDL P+2, XDL -> SMFMA P+1 (+1 if P != 2), SMFMA as on gfx942. */
static void mfma_b_srcc(void)
{
#define X16(d, c) "v_mfma_f32_16x16x16_f16 " d ", v[4:5], v[6:7], " c
#define X4(d, c) "v_mfma_f32_4x4x4_16b_f16 " d ", v[4:5], v[6:7], " c
#define X32(d, c) "v_mfma_f32_32x32x8_f16 " d ", v[4:5], v[6:7], " c
#define S16(d, c) "v_mfma_f32_16x16x4_f32 " d ", v4, v6, " c
#define SAME "MFMA reads the same registers as srcC"
#define PXDL "XDL MFMA reads overlapping"
#define PSM "SMFMA reads overlapping"
    static const hz_case cases[] = {
        { "same, 4-pass", NULL, X16("a[0:3]", "0"), X16("a[0:3]", "a[0:3]"), "a0", SAME,
          { 0, 0, 0 } },
        { "same, 2-pass", NULL, X4("a[0:3]", "0"), X4("a[0:3]", "a[0:3]"), "a0", SAME,
          { 0, 2, 2 } },
        { "same, 2-pass -> other opcode", NULL, X4("a[0:3]", "0"), X16("a[4:7]", "a[0:3]"), "a0",
          SAME, { 0, 2, 2 } },
        { "same, smfma", NULL, S16("a[0:3]", "0"), S16("a[0:3]", "a[0:3]"), "a0", SAME,
          { 0, 0, 0 } },
        { "same, 32x32", NULL, X32("a[0:15]", "0"), X32("a[0:15]", "a[0:15]"), "a0", SAME,
          { 0, 0, 0 } },
        { "overlap xdl -> xdl", NULL, X16("a[0:3]", "0"), X16("a[8:11]", "a[2:5]"), "a2", PXDL,
          { 8, 5, 6 } },
        { "overlap xdl 2-pass -> xdl", NULL, X4("a[0:3]", "0"), X16("a[8:11]", "a[2:5]"), "a2",
          PXDL, { 2, 3, 4 } },
        { "overlap xdl 32x32 -> xdl", NULL, X32("a[0:15]", "0"), X16("a[16:19]", "a[12:15]"),
          "a12", PXDL, { 16, 9, 10 } },
        { "overlap xdl -> smfma", NULL, X16("a[0:3]", "0"), S16("a[8:11]", "a[2:5]"), "a2", PSM,
          { 8, 5, 6 } },
        { "overlap xdl 2-pass -> smfma", NULL, X4("a[0:3]", "0"), S16("a[8:11]", "a[2:5]"), "a2",
          PSM, { 2, 3, 3 } },
        { "overlap smfma -> smfma", NULL, S16("a[0:3]", "0"), S16("a[8:11]", "a[2:5]"), "a2", PSM,
          { 8, 8, 8 } },
        { "overlap smfma -> xdl", NULL, S16("a[0:3]", "0"), X16("a[8:11]", "a[2:5]"), "a2", PXDL,
          { 8, 0, 0 } },
        { "contained srcC", NULL, X32("a[0:15]", "0"), X16("a[16:19]", "a[4:7]"), "a4", PXDL,
          { 16, 9, 10 } },
        /* the same first register is not the same range */
        { "head of D", NULL, X32("a[0:15]", "0"), X16("a[16:19]", "a[0:3]"), "a0", PXDL,
          { 16, 9, 10 } },
        { "D inside srcC", NULL, X16("a[0:3]", "0"), X32("a[16:31]", "a[0:15]"), "a0", PXDL,
          { 8, 5, 6 } },
        { "vgpr overlap", NULL, X16("v[8:11]", "0"), X4("v[16:19]", "v[10:13]"), "v10", PXDL,
          { 8, 5, 6 } },
    };
#undef X16
#undef X4
#undef X32
#undef S16
#undef SAME
#undef PXDL
#undef PSM
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* 4.2(c): an MFMA reads srcC, a later VALU or VMEM/DS load overwrites it
   (WAR): P-1 on gfx90a; gfx942/gfx950 XDL P-1, SMFMA 0. */
static void mfma_c_srcc_war(void)
{
#define WAR "MFMA reads srcC, VALU or VMEM/DS load overwrites it"
    static const hz_case cases[] = {
        { "16x16 -> accvgpr_write", NULL, "v_mfma_f32_16x16x16_f16 a[4:7], v[4:5], v[6:7], a[0:3]",
          "v_accvgpr_write_b32 a1, 0", "a1", WAR, { 7, 3, 3 } },
        { "4x4 -> accvgpr_write", NULL, "v_mfma_f32_4x4x4_16b_f16 a[4:7], v[4:5], v[6:7], a[0:3]",
          "v_accvgpr_write_b32 a3, 0", "a3", WAR, { 1, 1, 1 } },
        { "32x32 -> accvgpr_mov", NULL,
          "v_mfma_f32_32x32x8_f16 a[16:31], v[4:5], v[6:7], a[0:15]", "v_accvgpr_mov_b32 a9, a0",
          "a9", WAR, { 15, 7, 7 } },
        { "16x16 -> buffer load", NULL, "v_mfma_f32_16x16x16_f16 a[4:7], v[4:5], v[6:7], a[0:3]",
          "buffer_load_dword a2, v1, s[4:7], 0 offen", "a2", WAR, { 7, 3, 3 } },
        { "16x16 -> ds load", NULL, "v_mfma_f32_16x16x16_f16 v[12:15], v[4:5], v[6:7], v[8:11]",
          "ds_read_b64 v[10:11], v1", "v10", WAR, { 7, 3, 3 } },
        { "smfma -> valu", NULL, "v_mfma_f32_16x16x4_f32 a[4:7], v4, v6, a[0:3]",
          "v_accvgpr_write_b32 a1, 0", "a1", WAR, { 7, 0, 0 } },
        /* the MFMA's own srcC register, rewritten by the next MFMA: no rule */
        { "mfma -> mfma", NULL, "v_mfma_f32_16x16x16_f16 a[4:7], v[4:5], v[6:7], a[0:3]",
          "v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0", "a0", WAR, { 0, 0, 0 } },
    };
#undef WAR
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* ---- H18-H34: special VALU/SALU instructions, dot products, DGEMM ------------------------- */

/* The numbers are those LLVM 22's recognizer inserts for the same pairs. */
static void special_rules(void)
{
    static const hz_case cases[] = {
        { "vcc -> v_div_fmas", NULL, "v_cmp_eq_u32 vcc, v1, v2", "v_div_fmas_f32 v8, v3, v3, v3",
          "vcc", "H18", { 4, 4, 4 } },
        { "vgpr -> dpp", NULL, "v_mov_b32 v9, 1", "v_mov_b32_dpp v8, v9 quad_perm:[1,0,3,2]",
          "v9", "H19", { 2, 2, 2 } },
        { "exec -> dpp", NULL, "v_cmp_eq_u32 exec, v1, v1", "v_add_u32_dpp v8, v2, v2 row_shl:1",
          "exec", "H20", { 5, 5, 5 } },
        { "m0 -> s_movrels", NULL, "s_mov_b32 m0, 1", "s_movrels_b32 s9, s8", "m0", "H3",
          { 1, 1, 1 } },
        { "m0 -> s_movreld", NULL, "s_mov_b32 m0, 0", "s_movreld_b32 s9, 7", "m0", "H3",
          { 1, 1, 1 } },
        { "setreg -> getreg", NULL, "s_setreg_b32 hwreg(HW_REG_MODE, 8, 2), s8",
          "s_getreg_b32 s9, hwreg(HW_REG_MODE)", "hwreg 1", "H21", { 2, 2, 2 } },
        { "setreg -> setreg", NULL, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 2), 0",
          "s_setreg_b32 hwreg(HW_REG_MODE, 8, 2), s8", "hwreg 1", "H21", { 2, 2, 2 } },
        { "setreg -> other getreg", NULL, "s_setreg_b32 hwreg(HW_REG_MODE, 8, 2), s8",
          "s_getreg_b32 s9, hwreg(HW_REG_STATUS, 0, 1)", "hwreg 1", "H21", { 0, 0, 0 } },
        { "vgpr -> permlane swap", NULL, "v_mov_b32 v9, 1", "v_permlane16_swap_b32 v8, v9",
          "v9", "H22", { -1, -1, 2 } },
        { "exec -> permlane swap", NULL, "v_cmpx_eq_u32 vcc, v1, v1",
          "v_permlane32_swap_b32 v8, v9", "exec", "H23", { -1, -1, 4 } },
        { "dot -> dot srcA", NULL, "v_dot2_f32_f16 v8, v4, v5, v3",
          "v_dot2_f32_f16 v9, v8, v5, v3", "v8", "H24", { 3, 3, 3 } },
        { "dot -> dot srcC", NULL, "v_dot2_f32_f16 v8, v4, v5, v3",
          "v_dot2_f32_f16 v8, v4, v5, v8", "v8", "H25", { 0, 1, 1 } },
        { "dot -> valu", NULL, "v_dot4_i32_i8 v8, v4, v5, v1", "v_add_u32 v9, v8, v1", "v8",
          "H26", { 3, 3, 3 } },
        { "dot -> other dot", NULL, "v_dot4_i32_i8 v8, v4, v5, v1",
          "v_dot2_f32_f16 v9, v8, v5, v3", "v8", "H26", { 3, 3, 3 } },
        /* H36: the VOP3P results LLVM forwards as partial destinations */
        { "pk -> valu", NULL, "v_pk_add_f16 v8, v4, v5", "v_add_u32 v9, v8, v1", "v8", "H36",
          { 0, 1, 1 } },
        { "pk -> pk", NULL, "v_pk_mul_lo_u16 v8, v4, v5", "v_pk_add_u16 v9, v1, v8", "v8", "H36",
          { 0, 1, 1 } },
        { "pk -> overwrite", NULL, "v_pk_mul_f16 v8, v4, v5", "v_mov_b32 v8, 0", "v8", "H36",
          { 0, 1, 1 } },
        { "pk op_sel_hi[0] = 0 -> valu", NULL, "v_pk_add_f16 v8, v4, v5 op_sel_hi:[0,1]",
          "v_add_u32 v9, v8, v1", "v8", "H36", { 0, 0, 0 } },
        { "pk f32 -> valu", NULL, "v_pk_fma_f32 v[8:9], v[4:5], v[6:7], v[2:3]",
          "v_add_u32 v10, v9, v1", "v9", "H36", { 0, 1, 1 } },
        { "mix -> valu", NULL, "v_fma_mix_f32 v8, v4, v5, v3", "v_add_u32 v9, v8, v1", "v8",
          "H36", { 0, 0, 0 } },
        { "mix op_sel_hi[0] -> valu", NULL, "v_fma_mix_f32 v8, v4, v5, v3 op_sel_hi:[1,0,0]",
          "v_add_u32 v9, v8, v1", "v8", "H36", { 0, 1, 1 } },
        { "mixlo op_sel_hi[0] -> mixhi", NULL, "v_fma_mixlo_f16 v8, v4, v5, v3 op_sel_hi:[1,1,1]",
          "v_fma_mixhi_f16 v8, v4, v5, v3", "v8", "H36", { 0, 1, 1 } },
        { "accvgpr_read -> valu", NULL, "v_accvgpr_read_b32 v8, a1", "v_add_u32 v9, v8, v1", "v8",
          "H36", { 0, 0, 0 } },
        { "dot -> mfma", NULL, "v_dot2_f32_f16 v8, v4, v5, v3",
          "v_mfma_f32_16x16x16_f16 v[12:15], v[8:9], v[6:7], 0", "v8", "H27", { 0, 1, 1 } },
        { "dgemm16 -> valu", NULL, "v_mfma_f64_16x16x4_f64 v[8:15], v[4:5], v[6:7], 0",
          "v_add_u32 v16, v8, v1", "v8", "H28", { 11, 11, 19 } },
        { "dgemm4 -> valu", NULL, "v_mfma_f64_4x4x4_4b_f64 v[8:9], v[4:5], v[6:7], 0",
          "v_add_u32 v16, v9, v1", "v9", "H28", { 6, 6, 6 } },
        { "dgemm16 -> store", NULL, "v_mfma_f64_16x16x4_f64 v[8:15], v[4:5], v[6:7], 0",
          "global_store_dword v20, v8, s[10:11]", "v8", "H29", { 18, 18, 18 } },
        { "dgemm4 -> ds", NULL, "v_mfma_f64_4x4x4_4b_f64 v[8:9], v[4:5], v[6:7], 0",
          "ds_write_b32 v1, v8", "v8", "H29", { 9, 9, 9 } },
        { "dgemm16 -> valu write", NULL, "v_mfma_f64_16x16x4_f64 v[8:15], v[4:5], v[6:7], 0",
          "v_mov_b32 v15, 0", "v15", "H30", { 11, 11, 11 } },
        { "dgemm16 -> srcA", NULL, "v_mfma_f64_16x16x4_f64 v[8:15], v[4:5], v[6:7], 0",
          "v_mfma_f64_16x16x4_f64 v[16:23], v[8:9], v[6:7], 0", "v8", "H31", { 11, 11, 19 } },
        { "dgemm16 -> srcC part", NULL, "v_mfma_f64_16x16x4_f64 v[8:15], v[4:5], v[6:7], 0",
          "v_mfma_f64_16x16x4_f64 v[24:31], v[4:5], v[6:7], v[10:17]", "v10", "H32",
          { 9, 9, 17 } },
        { "dgemm4 -> same srcC", NULL, "v_mfma_f64_4x4x4_4b_f64 v[8:9], v[4:5], v[6:7], 0",
          "v_mfma_f64_4x4x4_4b_f64 v[8:9], v[4:5], v[6:7], v[8:9]", "v8", "H33", { 4, 4, 4 } },
        { "dgemm16 -> same srcC", NULL, "v_mfma_f64_16x16x4_f64 v[8:15], v[4:5], v[6:7], 0",
          "v_mfma_f64_16x16x4_f64 v[8:15], v[4:5], v[6:7], v[8:15]", "v8", "H32", { 0, 0, 0 } },
        { "dgemm -> v_fma_f64", NULL, "v_mfma_f64_4x4x4_4b_f64 v[8:9], v[4:5], v[6:7], 0",
          "v_fma_f64 v[16:17], v[4:5], v[6:7], v[4:5]", "the DGEMM pipeline", "H34",
          { 2, 2, 2 } },
        { "xdl -> dgemm srcC part", NULL, "v_mfma_f32_16x16x16_f16 v[8:11], v[4:5], v[6:7], 0",
          "v_mfma_f64_16x16x4_f64 v[16:23], v[4:5], v[6:7], v[8:15]", "v8", "H16",
          { 9, 5, 6 } },
    };
    check_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* ---- the executed path ------------------------------------------------------------------- */

/* A producer at the end of a loop body and its consumer at the top: the
   first iteration has no producer, the second sees it across the back edge
   (gap + s_add + s_cmp + s_cbranch). Row 1 needs 5. */
static void loop_back_edge(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    tbuf b;
    for (unsigned t = 0; t < 3; t++)
        for (unsigned gap = 0; gap <= 3; gap++) {
            ut_context("%s, gap %u", wa_target_name(targets[t]), gap);
            b.n = 0;
            tb_add(&b, "%s", prologue);
            tb_add(&b, "  s_mov_b32 s20, 0\n  s_nop 15\n  s_nop 7\n"
                       "loop:\n"
                       "  buffer_load_dword v2, v1, s[4:7], s8 offen ; @I51\n"
                       "  s_waitcnt vmcnt(0)\n"
                       "  v_readfirstlane_b32 s8, v1 ; @I50\n");
            tb_gap(&b, gap, GAP_NOP);
            tb_add(&b, "  s_add_u32 s20, s20, 1\n"
                       "  s_cmp_lt_u32 s20, 3\n"
                       "  s_cbranch_scc1 loop\n"
                       "  s_endpgm\n");
            wa_status st = run_body(ctx, targets[t], b.s, NULL);
            g_runs++;
            if (gap + 3 < 5) {
                char words[160];
                snprintf(words, sizeof(words), "hazard: s8 (soffset)|%u wait states after "
                         "v_readfirstlane_b32 @I50|needs 5|H1", gap + 3);
                CHECK_STATUS(st, WA_E_SIM_HAZARD);
                CHECK_DIAG(ctx, WA_E_SIM_HAZARD, words, UT_ANY, UT_ANY, 51);
            } else {
                CHECK_MSG(st == WA_OK, "status %d:%s", (int)st, ut_diags_text(ctx));
            }
        }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* MFMAs across a loop's back edge: the one at the bottom writes a[0:3], the
   one at the top reads a[2:5] as srcC (overlapping, not identical: a 4-pass
   XDL producer on gfx942 needs P+1 = 5). The first iteration's top MFMA has no
   producer; the second sees the first iteration's bottom one. */
static void loop_back_edge_mfma(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    tbuf b;
    for (unsigned gap = 0; gap <= 3; gap++) {
        ut_context("gap %u", gap);
        b.n = 0;
        tb_add(&b, "%s", prologue);
        tb_add(&b, "  s_mov_b32 s20, 0\n  s_nop 15\n  s_nop 7\n"
                   "loop:\n"
                   "  v_mfma_f32_16x16x16_f16 a[8:11], v[4:5], v[6:7], a[2:5] ; @I51\n"
                   "  s_nop 7\n"
                   "  v_mfma_f32_16x16x16_f16 a[0:3], v[4:5], v[6:7], 0 ; @I50\n");
        tb_gap(&b, gap, GAP_PLAIN);
        tb_add(&b, "  s_add_u32 s20, s20, 1\n"
                   "  s_cmp_lt_u32 s20, 3\n"
                   "  s_cbranch_scc1 loop\n"
                   "  s_nop 15\n"
                   "  s_endpgm\n");
        wa_status st = run_body(ctx, WA_TARGET_GFX942, b.s, NULL);
        g_runs++;
        if (gap + 3 < 5) {
            char words[160];
            snprintf(words, sizeof(words), "hazard: a2 (srcC)| %u wait states after "
                     "v_mfma_f32_16x16x16_f16 @I50|needs 5 (|overlapping", gap + 3);
            CHECK_STATUS(st, WA_E_SIM_HAZARD);
            CHECK_DIAG(ctx, WA_E_SIM_HAZARD, words, UT_ANY, UT_ANY, 51);
        } else {
            CHECK_MSG(st == WA_OK, "status %d:%s", (int)st, ut_diags_text(ctx));
        }
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* A branch between producer and consumer: taken, it skips the s_nop and the
   consumer follows after 1 wait state (the branch); not taken, after 6. */
static void branch_paths(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    tbuf b;
    for (unsigned t = 0; t < 3; t++)
        for (int taken = 0; taken <= 1; taken++) {
            ut_context("%s, %s", wa_target_name(targets[t]), taken ? "taken" : "not taken");
            b.n = 0;
            tb_add(&b, "%s", prologue);
            tb_add(&b, "  s_nop 15\n  s_nop 7\n"
                       "  s_cmp_eq_u32 s12, %d\n"
                       "  v_readfirstlane_b32 s8, v1 ; @I50\n"
                       "  s_cbranch_scc1 skip\n"
                       "  s_nop 4\n"
                       "skip:\n"
                       "  buffer_load_dword v2, v1, s[4:7], s8 offen ; @I51\n"
                       "  s_waitcnt vmcnt(0)\n"
                       "  s_endpgm\n",
                   taken ? 0 : 1);
            wa_status st = run_body(ctx, targets[t], b.s, NULL);
            g_runs++;
            if (taken) {
                CHECK_STATUS(st, WA_E_SIM_HAZARD);
                CHECK_DIAG(ctx, WA_E_SIM_HAZARD, "s8 (soffset)| 1 wait state after|@I50|needs 5 (",
                           UT_ANY, UT_ANY, 51);
            } else {
                CHECK_MSG(st == WA_OK, "status %d:%s", (int)st, ut_diags_text(ctx));
            }
        }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* Two waves of one workgroup, interleaved in time. Wave 0 runs only the
   producer, wave 1 only the consumer, one step later: neither may see the
   other's instructions (neither as a producer nor as wait states). */
static void waves_independent(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char *const variants[] = {
        /* wave 1's consumer runs just after wave 0's producer: no hazard */
        "  s_nop 0\n"
        "  buffer_load_dword v2, v1, s[4:7], s8 offen ; @I51\n",
        /* wave 1 has its own producer: a hazard, counted on wave 1 alone */
        "  v_readfirstlane_b32 s8, v1 ; @I52\n"
        "  buffer_load_dword v2, v1, s[4:7], s8 offen ; @I51\n",
    };
    tbuf b;
    for (unsigned t = 0; t < 3; t++)
        for (unsigned v = 0; v < 2; v++)
            for (uint64_t seed = 1; seed <= 4; seed++) {
                ut_context("%s, variant %u, seed %llu", wa_target_name(targets[t]), v,
                           (unsigned long long)seed);
                b.n = 0;
                tb_add(&b, "%s", prologue);
                tb_add(&b, "  s_barrier\n  s_nop 15\n  s_nop 7\n"
                           "  v_readfirstlane_b32 s13, v0\n" /* 0 in wave 0, 64 in wave 1 */
                           "  s_nop 4\n"
                           "  s_cmp_eq_u32 s13, 0\n"
                           "  s_cbranch_scc0 second\n"
                           "  v_readfirstlane_b32 s8, v1 ; @I50\n"
                           "  s_nop 0\n"
                           "  s_endpgm\n"
                           "second:\n"
                           "%s"
                           "  s_waitcnt vmcnt(0)\n"
                           "  s_endpgm\n",
                       variants[v]);
                run_cfg cfg = { 1, 128, seed };
                wa_status st = run_body(ctx, targets[t], b.s, &cfg);
                g_runs++;
                if (v == 0) {
                    CHECK_MSG(st == WA_OK, "status %d:%s", (int)st, ut_diags_text(ctx));
                } else {
                    CHECK_STATUS(st, WA_E_SIM_HAZARD);
                    CHECK_DIAG(ctx, WA_E_SIM_HAZARD, " 0 wait states after v_readfirstlane_b32 "
                               "@I52|needs 5 (|wave 1 of", UT_ANY, UT_ANY, 51);
                }
            }
    /* wave 0 has a short gap while wave 1 runs alongside: wave 1's
       instructions must not count as wave 0's wait states */
    for (uint64_t seed = 1; seed <= 4; seed++) {
        ut_context("busy neighbour, seed %llu", (unsigned long long)seed);
        b.n = 0;
        tb_add(&b, "%s", prologue);
        tb_add(&b, "  s_barrier\n  s_nop 15\n  s_nop 7\n"
                   "  v_readfirstlane_b32 s13, v0\n"
                   "  s_nop 4\n"
                   "  s_cmp_eq_u32 s13, 0\n"
                   "  s_cbranch_scc0 second\n"
                   "  v_readfirstlane_b32 s8, v1 ; @I50\n"
                   "  s_mov_b32 s14, 0\n"
                   "  s_mov_b32 s14, 0\n"
                   "  s_mov_b32 s14, 0\n"
                   "  buffer_load_dword v2, v1, s[4:7], s8 offen ; @I51\n"
                   "  s_waitcnt vmcnt(0)\n"
                   "  s_endpgm\n"
                   "second:\n"
                   "  s_mov_b32 s14, 0\n  s_mov_b32 s14, 0\n  s_mov_b32 s14, 0\n"
                   "  s_mov_b32 s14, 0\n  s_mov_b32 s14, 0\n  s_mov_b32 s14, 0\n"
                   "  s_endpgm\n");
        run_cfg cfg = { 1, 128, seed };
        wa_status st = run_body(ctx, WA_TARGET_GFX942, b.s, &cfg);
        g_runs++;
        CHECK_STATUS(st, WA_E_SIM_HAZARD);
        CHECK_DIAG(ctx, WA_E_SIM_HAZARD, " 3 wait states after|@I50|needs 5 (|wave 0 of", UT_ANY,
                   UT_ANY, 51);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* Workgroups run one after another on the same waves: the next workgroup's
   first instruction must not see the previous one's last producer. */
static void workgroups_independent(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    static const char body[] =
        "  v_add_u32 v2, s8, v0 ; @I51\n"      /* gfx942: 2 after a VALU write of s8 */
        "  s_nop 3\n"
        "  v_cmp_eq_u32 s[8:9], v0, v0 ; @I50\n"
        "  s_endpgm\n";
    for (unsigned grid = 1; grid <= 3; grid++) {
        ut_context("grid %u", grid);
        run_cfg cfg = { grid, 0, 1 };
        wa_status st = run_body(ctx, WA_TARGET_GFX942, body, &cfg);
        g_runs++;
        CHECK_MSG(st == WA_OK, "status %d:%s", (int)st, ut_diags_text(ctx));
    }
    /* control: the same pair inside one workgroup (a loop) is a hazard */
    static const char looped[] =
        "  s_mov_b32 s20, 0\n"
        "loop:\n"
        "  v_add_u32 v2, s8, v0 ; @I51\n"
        "  s_add_u32 s20, s20, 1\n"
        "  s_cmp_lt_u32 s20, 2\n"
        "  v_cmp_eq_u32 s[8:9], v0, v0 ; @I50\n"
        "  s_cbranch_scc1 loop\n"
        "  s_endpgm\n";
    ut_context("loop control");
    wa_status st = run_body(ctx, WA_TARGET_GFX942, looped, NULL);
    g_runs++;
    CHECK_STATUS(st, WA_E_SIM_HAZARD);
    CHECK_DIAG(ctx, WA_E_SIM_HAZARD, "s8 (src0)| 1 wait state |@I50|needs 2 (|H5", UT_ANY,
               UT_ANY, 51);
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* Hazards are only checked with WA_SIM_HAZARDS. */
static void off_without_flag(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = NULL;
    REQUIRE_OK(ut_parse_body(&prog, ctx, "gfx942",
                             "  v_cmp_eq_u32 s[8:9], v0, v0\n"
                             "  v_add_u32 v2, s8, v0\n"
                             "  s_endpgm\n"));
    wa_sim_options o = WA_SIM_OPTIONS_INIT;
    for (int on = 0; on <= 1; on++) {
        o.flags = WA_SIM_TIMING | (on ? WA_SIM_HAZARDS : 0u);
        wa_sim *sim = NULL;
        REQUIRE_OK(wa_sim_create(&sim, prog, &o));
        CHECK_STATUS(wa_sim_run(sim), on ? WA_E_SIM_HAZARD : WA_OK);
        if (on) /* the location is the consumer's: body line 2 */
            CHECK_DIAG(ctx, WA_E_SIM_HAZARD, "s8| 0 wait states|needs 2 (", UT_BODY_LINE + 1,
                       UT_ANY, UT_ANY);
        /* a second run of the same simulator starts afresh */
        CHECK_STATUS(wa_sim_run(sim), on ? WA_E_SIM_HAZARD : WA_OK);
        wa_sim_destroy(sim);
    }
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
}

/* ---- the examples ------------------------------------------------------------------------ */

static wa_program *parse_file_text(wa_context *ctx, const char *text, const char *name)
{
    wa_program *prog = NULL;
    wa_status st = wa_program_parse(&prog, ctx, text, strlen(text), name);
    CHECK_MSG(st == WA_OK && prog, "%s: parse failed (%d):%s", name, (int)st, ut_diags_text(ctx));
    return st == WA_OK ? prog : NULL;
}

/* Launch shapes from the examples' header comments: vector_add runs
   ceil(n / 256) workgroups (n = 1000); the others one workgroup. */
static run_cfg example_cfg(const char *path)
{
    run_cfg cfg = { 1, 0, 1 };
    if (strstr(path, "vector_add"))
        cfg.grid = 4;
    return cfg;
}

/* Every example runs without a hazard on every target (they carry their own
   s_nop), over a few seeds. */
static void examples_clean(void)
{
    char **list = NULL;
    unsigned n = ut_list_examples(&list);
    CHECK(n >= 5);
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned i = 0; i < n; i++) {
        size_t len = 0;
        char *text = ut_read_file(list[i], &len, 1);
        if (!CHECK_MSG(text != NULL, "cannot read %s", list[i]))
            continue;
        wa_program *prog = parse_file_text(ctx, text, list[i]);
        for (unsigned t = 0; prog && t < 3; t++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                ut_context("%s on %s, seed %llu", list[i], wa_target_name(targets[t]),
                           (unsigned long long)seed);
                REQUIRE_OK(wa_program_set_target(prog, targets[t]));
                run_cfg cfg = example_cfg(list[i]);
                cfg.seed = seed;
                wa_status st = run_prog(prog, &cfg);
                g_runs++;
                CHECK_MSG(st == WA_OK, "status %d:%s", (int)st, ut_diags_text(ctx));
            }
        wa_program_destroy(prog);
        free(text);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
    ut_free_list(list, n);
}

/* examples/gemm_kloop.wa without its `s_nop 10`: the first v_accvgpr_read of
   the accumulators follows the last MFMA after 2 wait states (s_cmp,
   s_cbranch), where 11 (gfx90a, 8 passes), 7 (gfx942) or 8 (gfx950) are needed. */
static void example_missing_nop(void)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/gemm_kloop.wa", ut_examples_dir());
    size_t len = 0;
    char *text = ut_read_file(path, &len, 1);
    REQUIRE(text != NULL);
    /* drop the line that holds "s_nop 10" */
    char *nop = strstr(text, "  s_nop 10");
    REQUIRE(nop != NULL);
    char *eol = strchr(nop, '\n');
    REQUIRE(eol != NULL);
    memmove(nop, eol + 1, strlen(eol + 1) + 1);
    CHECK(strstr(text, "\n  s_nop") == NULL);
    /* the line of the first read of the result, now right after k_done: */
    unsigned line = 1;
    const char *read = strstr(text, "v_accvgpr_read_b32 v8, a0");
    REQUIRE(read != NULL);
    for (const char *p = text; p < read; p++)
        line += *p == '\n';
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = parse_file_text(ctx, text, "gemm_kloop_missing_nop.wa");
    static const int need[3] = { 11, 7, 8 };
    for (unsigned t = 0; prog && t < 3; t++) {
        ut_context("%s", wa_target_name(targets[t]));
        REQUIRE_OK(wa_program_set_target(prog, targets[t]));
        run_cfg cfg = { 1, 0, 1 };
        wa_status st = run_prog(prog, &cfg);
        g_runs++;
        CHECK_STATUS(st, WA_E_SIM_HAZARD);
        char words[256];
        snprintf(words, sizeof(words), "hazard: a0 (src0) is read 2 wait states after %s @I|"
                 "wrote it|%s needs %d (|MFMA writes D", spelled("v_mfma_f32_16x16x16_f16", targets[t]),
                 wa_target_name(targets[t]), need[t]);
        CHECK_DIAG(ctx, WA_E_SIM_HAZARD, words, line, UT_ANY, UT_ANY);
    }
    ut_context("%s", "");
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    free(text);
}

/* Prints how many runs the suite made (and how many were flagged), so a
   shrinking suite is visible in the log. */
static void summary(void)
{
    printf("     %u kernel runs, %u expected hazards flagged\n", g_runs, g_flagged);
    CHECK(g_runs > 0);
}

UT_SUITE(UT_CASE(row1_valu_sgpr_vmem)
         UT_CASE(row3_lane_select)
         UT_CASE(row8_m0_lds_dma)
         UT_CASE(smem_soft_clause) UT_CASE(vmem_soft_clause)
         UT_CASE(partial_vgpr_write)
         UT_CASE(row9_wide_store_data)
         UT_CASE(row10_11_valu_sgpr_valu)
         UT_CASE(row12_valu_vgpr_readlane)
         UT_CASE(row13_valu_exec_lanes)
         UT_CASE(row14_trans_forwarding)
         UT_CASE(interlocked_pairs)
         UT_CASE(mfma_a_valu_to_mfma)
         UT_CASE(mfma_b_result)
         UT_CASE(mfma_b_result_vgpr)
         UT_CASE(mfma_b_srcc)
         UT_CASE(mfma_c_srcc_war)
         UT_CASE(special_rules)
         UT_CASE(loop_back_edge)
         UT_CASE(loop_back_edge_mfma)
         UT_CASE(branch_paths)
         UT_CASE(waves_independent)
         UT_CASE(workgroups_independent)
         UT_CASE(off_without_flag)
         UT_CASE(examples_clean)
         UT_CASE(example_missing_nop)
         UT_CASE(summary));
