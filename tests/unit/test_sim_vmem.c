/* tests/unit/test_sim_vmem.c — the simulator's vector memory semantics (MUBUF, FLAT,
   GLOBAL), checked against expectations this file computes itself from the ISA's
   description:

     loads      every width on buffer, global (saddr and off) and flat addresses:
                bytes and shorts zero- or sign-extended, per-lane addresses,
                inactive lanes keep their registers
     d16        the _d16 loads write the low half, the _d16_hi loads the high half,
                the other half kept; the d16_hi stores store the high half
     stores     every width on the three address kinds
     bounds     raw buffers (num_records in bytes, per dword, soffset not counted),
                strided buffers (index against num_records, offset against the
                stride), idxen/offen/idxen+offen, ADD_TID, data format 0: reads
                give 0, stores and atomics do nothing
     atomics    every integer operation, 32 and 64 bits, returning the old value
                (MUBUF glc, the FLAT/GLOBAL forms with vdst) and not; cmpswap
                matching and not; the float adds (f32, packed f16, packed bf16, f64)
                and f64 min/max with NaN and signed zeros
     LDS DMA    buffer_load_* lds and global_load_lds_* to M0 + offset + lane * 4,
                the gfx950 12/16-byte forms at lane * 16, gfx90a's global ... lds
                and buffer_store_lds_dword
     left out   scratch_* and the format forms (WA_E_UNSUPPORTED with the reason). */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}

static wa_status run_text(wa_target target, const char *text, void *in, size_t in_bytes, void *out,
                          size_t out_bytes, char *diag, size_t ndiag)
{
    wa_context *ctx = ut_context_new(target);
    wa_program *prog = ut_parse(ctx, text);
    wa_status st = WA_E_PARSE;
    if (prog) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        o.seed = 5;
        wa_sim *sim = NULL;
        st = wa_sim_create(&sim, prog, &o);
        if (st == WA_OK) {
            wa_sim_bind_buffer(sim, 0, in, in_bytes);
            wa_sim_bind_buffer(sim, 1, out, out_bytes);
            st = wa_sim_run(sim);
        }
        wa_sim_destroy(sim);
    }
    if (diag)
        snprintf(diag, ndiag, "%s", wa_context_last_error(ctx));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return st;
}

static int run_ok_on(wa_target target, const char *text, void *in, size_t ni, void *out, size_t no)
{
    char diag[512];
    wa_status st = run_text(target, text, in, ni, out, no, diag, sizeof(diag));
    return CHECK_MSG(st == WA_OK, "status %d: %s\n%s", (int)st, diag, text);
}

static int run_ok(const char *text, void *in, size_t ni, void *out, size_t no)
{
    return run_ok_on(WA_TARGET_GFX942, text, in, ni, out, no);
}

static const char *tname(wa_target t)
{
    return t == WA_TARGET_GFX90A ? "gfx90a" : t == WA_TARGET_GFX950 ? "gfx950" : "gfx942";
}

/* One wave of 64 lanes; v0 = lane id. s[4:5] = in, s[6:7] = out; s[12:15] a raw
   buffer resource over `in` with num_records `nrec`; s[16:19] the same over `out`;
   v10 = lane * 4; v[20:21] = in + lane * 16, v[22:23] = out + lane * 16 (flat and
   global addresses: the simulator's buffers start at multiples of 64 GiB, so the
   low halves do not carry). */
static void head_on(ut_tb *t, wa_target target, unsigned nrec, unsigned lds)
{
    ut_tb_printf(t, ".kernel t\n"
                 "  .target %s\n"
                 "  .abi kernarg_ptr, workitem_id_x\n"
                 "  .lds_bytes %u\n"
                 "  .arg in, global_buffer, offset:0, size:8, align:8\n"
                 "  .arg out, global_buffer, offset:8, size:8, align:8\n"
                 "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                 "  s_waitcnt lgkmcnt(0)\n"
                 "  s_mov_b32 s12, s4\n"
                 "  s_and_b32 s13, s5, 0xffff\n"
                 "  s_mov_b32 s14, %u\n"
                 "  s_mov_b32 s15, 0x27000\n"
                 "  s_mov_b32 s16, s6\n"
                 "  s_and_b32 s17, s7, 0xffff\n"
                 "  s_mov_b32 s18, 0x100000\n"
                 "  s_mov_b32 s19, 0x27000\n"
                 "  v_lshlrev_b32 v10, 2, v0\n"
                 "  v_lshlrev_b32 v11, 4, v0\n"
                 "  v_add_u32 v20, s4, v11\n"
                 "  v_mov_b32 v21, s5\n"
                 "  v_add_u32 v22, s6, v11\n"
                 "  v_mov_b32 v23, s7\n",
              tname(target), lds, nrec);
}

static void head(ut_tb *t, unsigned nrec) { head_on(t, WA_TARGET_GFX942, nrec, 0); }

static void tail(ut_tb *t)
{
    ut_tb_printf(t, "  s_waitcnt vmcnt(0) lgkmcnt(0)\n  s_endpgm\n.end_kernel\n");
}

/* Stores n dwords from v[first..] of every lane to out + lane * 16 + 4 * k. */
static void dump(ut_tb *t, unsigned first, unsigned n)
{
    ut_tb_printf(t, "  s_waitcnt vmcnt(0)\n");
    for (unsigned k = 0; k < n; k++)
        ut_tb_printf(t, "  global_store_dword v[22:23], v%u, off offset:%u\n", first + k, 4 * k);
}

static uint32_t sext(uint32_t v, unsigned bits)
{
    v &= (1u << bits) - 1u;
    return (v >> (bits - 1)) & 1u ? v | ~((1u << bits) - 1u) : v;
}

static uint32_t in_word(const uint8_t *in, size_t at)
{
    return (uint32_t)in[at] | (uint32_t)in[at + 1] << 8 | (uint32_t)in[at + 2] << 16 |
           (uint32_t)in[at + 3] << 24;
}

/* ---- loads ----------------------------------------------------------------------------------- */

typedef struct lwidth {
    const char *name; /* suffix after <seg>_load_ */
    unsigned bytes, dwords;
    int sext;
} lwidth;

static const lwidth lwidths[] = {
    { "ubyte", 1, 1, 0 }, { "sbyte", 1, 1, 1 }, { "ushort", 2, 1, 0 }, { "sshort", 2, 1, 1 },
    { "dword", 4, 1, 0 }, { "dwordx2", 4, 2, 0 }, { "dwordx3", 4, 3, 0 }, { "dwordx4", 4, 4, 0 },
};

static const char *vreg(char *buf, unsigned first, unsigned n)
{
    if (n == 1)
        snprintf(buf, 24, "v%u", first);
    else
        snprintf(buf, 24, "v[%u:%u]", first, first + n - 1);
    return buf;
}

/* Lane l reads at byte 16 * l + 3 * (l % 4) (unaligned bytes and shorts for the
   small widths; dword-aligned otherwise) + offset:8. Odd lanes are inactive for
   half the forms: their registers keep 0x5A5A5A5A. */
static void loads_all(void)
{
    static const char *const forms[] = { "buffer", "global_saddr", "global_off", "flat" };
    uint8_t in[2048];
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)rnd();
    for (unsigned f = 0; f < 4; f++)
        for (unsigned w = 0; w < sizeof(lwidths) / sizeof(lwidths[0]); w++) {
            const lwidth *L = &lwidths[w];
            int small = L->bytes < 4;
            int masked = (f + w) % 2;
            ut_tb t = { 0 };
            head(&t, 4096);
            char r[24];
            /* v30 = byte offset of the lane's access (before offset:8) */
            ut_tb_printf(&t, "  v_and_b32 v31, 3, v0\n  v_mul_lo_u32 v31, 3, v31\n"
                          "  v_add_u32 v30, %s, v11\n",
                      small ? "v31" : "0");
            for (unsigned k = 0; k < 4; k++)
                ut_tb_printf(&t, "  v_mov_b32 v%u, 0x5a5a5a5a\n", 40 + k);
            if (masked)
                ut_tb_printf(&t, "  s_mov_b32 exec_lo, 0x55555555\n  s_mov_b32 exec_hi, 0x55555555\n");
            vreg(r, 40, L->dwords);
            if (f == 0)
                ut_tb_printf(&t, "  buffer_load_%s %s, v30, s[12:15], 0 offen offset:8\n", L->name, r);
            else if (f == 1)
                ut_tb_printf(&t, "  global_load_%s %s, v30, s[4:5] offset:8\n", L->name, r);
            else {
                ut_tb_printf(&t, "  v_add_u32 v24, s4, v30\n  v_mov_b32 v25, s5\n");
                ut_tb_printf(&t, "  %s_load_%s %s, v[24:25]%s offset:8\n", f == 2 ? "global" : "flat",
                          L->name, r, f == 2 ? ", off" : "");
            }
            ut_tb_printf(&t, "  s_mov_b64 exec, -1\n");
            dump(&t, 40, 4);
            tail(&t);
            uint32_t out[64 * 4];
            memset(out, 0, sizeof(out));
            ut_context("%s %s", forms[f], L->name);
            if (run_ok(t.s, in, sizeof(in), out, sizeof(out)))
                for (unsigned l = 0; l < 64; l++) {
                    size_t at = 16u * l + (small ? 3u * (l % 4) : 0) + 8;
                    for (unsigned k = 0; k < 4; k++) {
                        uint32_t want = 0x5A5A5A5Au;
                        if (k < L->dwords && !(masked && l % 2)) {
                            uint32_t v = in_word(in, at + 4 * k);
                            if (small)
                                v = L->sext ? sext(v, 8 * L->bytes) : v & ((1u << (8 * L->bytes)) - 1u);
                            want = v;
                        }
                        if (!CHECK_MSG(out[4 * l + k] == want, "lane %u dword %u: 0x%08x, want 0x%08x", l,
                                       k, out[4 * l + k], want))
                            goto next;
                    }
                }
        next:
            ut_tb_free(&t);
        }
    ut_context("%s", "");
}

/* d16 loads: bytes and shorts into one half; the other half keeps 0x9876 / 0x5432. */
static void d16_loads(void)
{
    static const struct {
        const char *name;
        unsigned bytes;
        int sext, hi;
    } d[] = { { "ubyte_d16", 1, 0, 0 }, { "ubyte_d16_hi", 1, 0, 1 }, { "sbyte_d16", 1, 1, 0 },
              { "sbyte_d16_hi", 1, 1, 1 }, { "short_d16", 2, 0, 0 }, { "short_d16_hi", 2, 0, 1 } };
    static const char *const segs[] = { "buffer", "global", "flat" };
    uint8_t in[2048];
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(rnd() | (i % 3 == 0 ? 0x80 : 0)); /* many negative bytes */
    for (unsigned s = 0; s < 3; s++)
        for (unsigned i = 0; i < 6; i++) {
            ut_tb t = { 0 };
            head(&t, 4096);
            ut_tb_printf(&t, "  v_mov_b32 v40, 0x98765432\n  v_add_u32 v30, 2, v11\n");
            if (s == 0)
                ut_tb_printf(&t, "  buffer_load_%s v40, v30, s[12:15], 0 offen\n", d[i].name);
            else if (s == 1)
                ut_tb_printf(&t, "  global_load_%s v40, v30, s[4:5]\n", d[i].name);
            else
                ut_tb_printf(&t, "  flat_load_%s v40, v[20:21] offset:2\n", d[i].name);
            dump(&t, 40, 1);
            tail(&t);
            uint32_t out[64 * 4];
            ut_context("%s_load_%s", segs[s], d[i].name);
            if (run_ok(t.s, in, sizeof(in), out, sizeof(out)))
                for (unsigned l = 0; l < 64; l++) {
                    uint32_t v = in_word(in, 16u * l + 2);
                    uint32_t h = d[i].bytes == 1 ? (d[i].sext ? sext(v, 8) : v & 0xFFu) : v & 0xFFFFu;
                    h &= 0xFFFFu;
                    uint32_t want = d[i].hi ? (h << 16) | 0x5432u : 0x98760000u | h;
                    if (!CHECK_MSG(out[4 * l] == want, "lane %u: 0x%08x, want 0x%08x", l, out[4 * l], want))
                        break;
                }
            ut_tb_free(&t);
        }
    ut_context("%s", "");
}

/* ---- stores ---------------------------------------------------------------------------------- */

static void stores_all(void)
{
    static const struct {
        const char *name;
        unsigned bytes, dwords;
        int hi;
    } w[] = { { "byte", 1, 1, 0 }, { "byte_d16_hi", 1, 1, 1 }, { "short", 2, 1, 0 },
              { "short_d16_hi", 2, 1, 1 }, { "dword", 4, 1, 0 }, { "dwordx2", 4, 2, 0 },
              { "dwordx3", 4, 3, 0 }, { "dwordx4", 4, 4, 0 } };
    static const char *const forms[] = { "buffer", "global_saddr", "global_off", "flat" };
    for (unsigned f = 0; f < 4; f++)
        for (unsigned i = 0; i < 8; i++) {
            ut_tb t = { 0 };
            head(&t, 4096);
            char r[24];
            for (unsigned k = 0; k < 4; k++)
                ut_tb_printf(&t, "  v_mov_b32 v%u, 0x%x\n  v_add_u32 v%u, v%u, v0\n", 40 + k,
                          0x81726354u + 0x01010101u * k, 40 + k, 40 + k);
            ut_tb_printf(&t, "  s_mov_b32 exec_lo, 0x00ff00ff\n  s_mov_b32 exec_hi, 0x00ff00ff\n");
            vreg(r, 40, w[i].dwords);
            if (f == 0)
                ut_tb_printf(&t, "  v_add_u32 v30, 4, v11\n  buffer_store_%s %s, v30, s[16:19], 0 offen\n",
                          w[i].name, r);
            else if (f == 1)
                ut_tb_printf(&t, "  global_store_%s v11, %s, s[6:7] offset:4\n", w[i].name, r);
            else
                ut_tb_printf(&t, "  %s_store_%s v[22:23], %s%s offset:4\n", f == 2 ? "global" : "flat",
                          w[i].name, r, f == 2 ? ", off" : "");
            /* the data is read at issue */
            ut_tb_printf(&t, "  s_mov_b64 exec, -1\n  v_mov_b32 v40, 0\n");
            tail(&t);
            uint8_t out[64 * 16 + 16];
            memset(out, 0xCC, sizeof(out));
            uint32_t in[4] = { 0 };
            ut_context("%s_store_%s", forms[f], w[i].name);
            /* the expected bytes: every active lane writes its data at 16 l + 4 */
            uint8_t want[sizeof(out)];
            memset(want, 0xCC, sizeof(want));
            for (unsigned l = 0; l < 64; l++) {
                if ((l / 8) % 2)
                    continue;
                for (unsigned rel = 0; rel < w[i].bytes * w[i].dwords; rel++) {
                    uint32_t v = 0x81726354u + 0x01010101u * (rel / 4) + l;
                    if (w[i].hi)
                        v >>= 16;
                    want[16 * l + 4 + rel] = (uint8_t)(v >> (8 * (rel % 4)));
                }
            }
            if (run_ok(t.s, in, sizeof(in), out, sizeof(out)))
                for (unsigned b = 0; b < sizeof(out); b++)
                    if (!CHECK_MSG(out[b] == want[b], "byte %u (lane %u): 0x%02x, want 0x%02x", b, b / 16,
                                   out[b], want[b]))
                        break;
            ut_tb_free(&t);
        }
    ut_context("%s", "");
}

/* ---- buffer bounds --------------------------------------------------------------------------- */

/* Raw buffers: lane l loads dwordx2 at offset 4 * l + soffset 8 (not range-checked);
   dword k is in range when 4 * l + 4 * k + 4 <= num_records. Stores through a
   resource with num_records 100 drop the dwords past it. */
static void buffer_raw_bounds(void)
{
    uint32_t in[512];
    for (unsigned i = 0; i < 512; i++)
        in[i] = 0x10000000u + i * 7;
    const unsigned nrec = 150; /* not a multiple of 4: dword 37 (148..151) is out */
    ut_tb t = { 0 };
    head(&t, nrec);
    ut_tb_printf(&t, "  s_mov_b32 s20, 8\n  v_mov_b32 v40, 0x5a\n  v_mov_b32 v41, 0x5a\n"
                  "  buffer_load_dwordx2 v[40:41], v10, s[12:15], s20 offen\n");
    /* stores: num_records 100 over out */
    ut_tb_printf(&t, "  s_mov_b32 s18, 100\n  v_or_b32 v42, 0xab000000, v0\n"
                  "  buffer_store_dword v42, v10, s[16:19], 0 offen offset:64\n");
    /* atomics out of range do nothing and return 0 */
    ut_tb_printf(&t, "  v_mov_b32 v43, 1\n  buffer_atomic_add v43, v10, s[16:19], 0 offen offset:512 glc\n");
    dump(&t, 40, 2);
    ut_tb_printf(&t, "  global_store_dword v[22:23], v43, off offset:8\n");
    tail(&t);
    uint32_t out[64 * 4 + 256];
    memset(out, 0xEE, sizeof(out));
    if (run_ok(t.s, in, sizeof(in), out, sizeof(out))) {
        for (unsigned l = 0; l < 64; l++) {
            for (unsigned k = 0; k < 2; k++) {
                uint32_t want = 4 * l + 4 * k + 4 <= nrec ? in[(8 + 4 * l) / 4 + k] : 0u;
                CHECK_MSG(out[4 * l + k] == want, "load lane %u dword %u: 0x%08x, want 0x%08x", l, k,
                          out[4 * l + k], want);
            }
            CHECK_MSG(out[4 * l + 2] == 0u, "atomic out of range returned 0x%08x", out[4 * l + 2]);
        }
    }
    ut_tb_free(&t);
    /* the store: lanes whose 64 + 4 l + 4 <= 100 wrote, the others did not; the
       dumps above overwrite out[0..255] (dwords 0..2 of each lane), so check a
       second run without them */
    ut_tb t2 = { 0 };
    head(&t2, nrec);
    ut_tb_printf(&t2, "  s_mov_b32 s18, 100\n  v_or_b32 v42, 0xab000000, v0\n"
                   "  buffer_store_dword v42, v10, s[16:19], 0 offen offset:64\n");
    tail(&t2);
    memset(out, 0xEE, sizeof(out));
    if (run_ok(t2.s, in, sizeof(in), out, sizeof(out)))
        for (unsigned l = 0; l < 64; l++) {
            uint32_t want = 64 + 4 * l + 4 <= 100 ? 0xAB000000u | l : 0xEEEEEEEEu;
            CHECK_MSG(out[16 + l] == want, "store lane %u: 0x%08x, want 0x%08x", l, out[16 + l], want);
        }
    ut_tb_free(&t2);
}

/* Strided buffers: stride 24, num_records 40 records; idxen (index = v0 + ADD_TID off),
   idxen offen (offset = 4 * (l % 8)), index >= num_records or offset >= stride read 0;
   ADD_TID_ENABLE adds the lane id to the index; data format 0 makes every access out
   of range. */
static void buffer_strided_bounds(void)
{
    uint32_t in[2048];
    for (unsigned i = 0; i < 2048; i++)
        in[i] = 0x20000000u + i * 13;
    static const struct {
        const char *name;
        const char *setup;  /* v30/v31 and the resource's word 3 in s15 */
        const char *modifiers;
        int pair;
        int add_tid, invalid;
    } c[] = {
        { "idxen", "  v_mov_b32 v30, v0\n", "idxen", 0, 0, 0 },
        { "idxen offen", "  v_mov_b32 v30, v0\n  v_and_b32 v31, 7, v0\n  v_lshlrev_b32 v31, 2, v31\n",
          "idxen offen", 1, 0, 0 },
        { "add_tid", "  v_mov_b32 v30, 3\n  s_or_b32 s15, s15, 0x800000\n", "idxen", 0, 1, 0 },
        { "invalid format", "  v_mov_b32 v30, v0\n  s_and_b32 s15, s15, 0xfff87fff\n", "idxen", 0, 0, 1 },
    };
    for (unsigned i = 0; i < 4; i++) {
        ut_tb t = { 0 };
        head(&t, 40);
        ut_tb_printf(&t, "  s_or_b32 s13, s13, 0x180000\n%s  v_mov_b32 v40, 0x5a\n", c[i].setup); /* stride 24 */
        ut_tb_printf(&t, "  buffer_load_dword v40, %s, s[12:15], 0 %s offset:4\n",
                  c[i].pair ? "v[30:31]" : "v30", c[i].modifiers);
        dump(&t, 40, 1);
        tail(&t);
        uint32_t out[64 * 4];
        ut_context("%s", c[i].name);
        if (run_ok(t.s, in, sizeof(in), out, sizeof(out)))
            for (unsigned l = 0; l < 64; l++) {
                uint32_t index = c[i].add_tid ? 3 + l : l;
                uint32_t offset = 4 + (c[i].pair ? 4 * (l % 8) : 0);
                int in_range = !c[i].invalid && index < 40 && offset < 24;
                uint32_t want = in_range ? in[(index * 24 + offset) / 4] : 0u;
                if (!CHECK_MSG(out[4 * l] == want, "lane %u: 0x%08x, want 0x%08x", l, out[4 * l], want))
                    break;
            }
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* ---- atomics --------------------------------------------------------------------------------- */

static uint64_t ref_int(const char *op, uint64_t m, uint64_t d, uint64_t cmp, unsigned bytes)
{
    uint64_t mask = bytes == 8 ? ~0ull : 0xFFFFFFFFull;
    int64_t ms = bytes == 8 ? (int64_t)m : (int64_t)(int32_t)(uint32_t)m;
    int64_t ds = bytes == 8 ? (int64_t)d : (int64_t)(int32_t)(uint32_t)d;
    uint64_t r;
    if (!strcmp(op, "swap")) r = d;
    else if (!strcmp(op, "cmpswap")) r = m == cmp ? d : m;
    else if (!strcmp(op, "add")) r = m + d;
    else if (!strcmp(op, "sub")) r = m - d;
    else if (!strcmp(op, "smin")) r = ms < ds ? m : d;
    else if (!strcmp(op, "umin")) r = m < d ? m : d;
    else if (!strcmp(op, "smax")) r = ms > ds ? m : d;
    else if (!strcmp(op, "umax")) r = m > d ? m : d;
    else if (!strcmp(op, "and")) r = m & d;
    else if (!strcmp(op, "or")) r = m | d;
    else if (!strcmp(op, "xor")) r = m ^ d;
    else if (!strcmp(op, "inc")) r = m >= d ? 0 : m + 1;
    else r = (m == 0 || m > d) ? d : m - 1; /* dec */
    return r & mask;
}

/* Every lane works on its own 16 bytes of `out` (pre-filled), data from `in`
   (lane l: dwords 4l..4l+3 = value, value_hi, compare, compare_hi). The old values
   are stored to out + 1024 + 16 l. */
static void atomics_int(void)
{
    static const char *const ops[] = { "swap", "cmpswap", "add", "sub", "smin", "umin", "smax",
                                       "umax", "and", "or", "xor", "inc", "dec" };
    static const char *const forms[] = { "buffer", "global", "flat" };
    for (unsigned x2 = 0; x2 < 2; x2++)
        for (unsigned f = 0; f < 3; f++)
            for (unsigned i = 0; i < 13; i++)
                for (unsigned ret = 0; ret < 2; ret++) {
                    unsigned bytes = x2 ? 8 : 4, w = bytes / 4;
                    int cmp = !strcmp(ops[i], "cmpswap");
                    uint32_t in[256], mem[64 * 4 + 256 * 4];
                    for (unsigned k = 0; k < 256; k++)
                        in[k] = rnd() >> (rnd() % 32);
                    for (unsigned k = 0; k < sizeof(mem) / 4; k++)
                        mem[k] = rnd() >> (rnd() % 32);
                    for (unsigned l = 0; l < 64; l += 3) { /* cmpswap hits for some lanes */
                        in[4 * l + 2] = mem[4 * l];
                        in[4 * l + 3] = mem[4 * l + 1];
                    }
                    for (unsigned l = 0; l < 64; l += 5) { /* small counters and equal values */
                        mem[4 * l] = l % 3;
                        mem[4 * l + 1] = x2 ? 0 : mem[4 * l + 1];
                        in[4 * l] = l % 4;
                        in[4 * l + 1] = x2 ? 0 : in[4 * l + 1];
                    }
                    uint32_t orig[sizeof(mem) / 4];
                    memcpy(orig, mem, sizeof(mem));
                    ut_tb t = { 0 };
                    head(&t, 4096);
                    unsigned nd = (cmp ? 2 : 1) * w;
                    char dv[24], rv[24];
                    vreg(dv, 40, nd);
                    vreg(rv, 50, w);
                    for (unsigned k = 0; k < nd; k++) {
                        unsigned src = cmp ? (k < w ? k : 2 + (k - w)) : k;
                        ut_tb_printf(&t, "  global_load_dword v%u, v[20:21], off offset:%u\n", 40 + k, 4 * src);
                    }
                    ut_tb_printf(&t, "  s_waitcnt vmcnt(0)\n");
                    char mn[48];
                    snprintf(mn, sizeof(mn), "%s_atomic_%s%s", forms[f], ops[i], x2 ? "_x2" : "");
                    if (f == 0)
                        ut_tb_printf(&t, "  buffer_atomic_%s%s %s, v11, s[16:19], 0 offen%s\n", ops[i],
                                  x2 ? "_x2" : "", dv, ret ? " sc0" : "");
                    else if (f == 1 && ret)
                        ut_tb_printf(&t, "  %s %s, v11, %s, s[6:7] sc0\n", mn, rv, dv);
                    else if (f == 1)
                        ut_tb_printf(&t, "  %s v11, %s, s[6:7]\n", mn, dv);
                    else if (ret)
                        ut_tb_printf(&t, "  %s %s, v[22:23], %s sc0\n", mn, rv, dv);
                    else
                        ut_tb_printf(&t, "  %s v[22:23], %s\n", mn, dv);
                    ut_tb_printf(&t, "  s_waitcnt vmcnt(0)\n");
                    if (ret) {
                        unsigned first = f == 0 ? 40 : 50;
                        for (unsigned k = 0; k < w; k++)
                            ut_tb_printf(&t, "  global_store_dword v[22:23], v%u, off offset:%u\n", first + k,
                                      1024 + 4 * k);
                    }
                    tail(&t);
                    ut_context("%s%s", mn, ret ? " (returning)" : "");
                    if (run_ok(t.s, in, sizeof(in), mem, sizeof(mem)))
                        for (unsigned l = 0; l < 64; l++) {
                            uint64_t m = orig[4 * l] | (x2 ? (uint64_t)orig[4 * l + 1] << 32 : 0);
                            uint64_t d = in[4 * l] | (x2 ? (uint64_t)in[4 * l + 1] << 32 : 0);
                            uint64_t c = in[4 * l + 2] | (x2 ? (uint64_t)in[4 * l + 3] << 32 : 0);
                            uint64_t nv = ref_int(ops[i], m, d, c, bytes);
                            uint64_t got = mem[4 * l] | (x2 ? (uint64_t)mem[4 * l + 1] << 32 : 0);
                            if (!CHECK_MSG(got == nv, "lane %u: memory 0x%llx, want 0x%llx", l,
                                           (unsigned long long)got, (unsigned long long)nv))
                                break;
                            if (!x2 && !CHECK_EQ_HEX(mem[4 * l + 1], orig[4 * l + 1]))
                                break;
                            if (ret) {
                                uint64_t old = mem[256 + 4 * l] |
                                               (x2 ? (uint64_t)mem[256 + 4 * l + 1] << 32 : 0);
                                if (!CHECK_MSG(old == m, "lane %u: returned 0x%llx, want 0x%llx", l,
                                               (unsigned long long)old, (unsigned long long)m))
                                    break;
                            }
                        }
                    ut_tb_free(&t);
                }
    ut_context("%s", "");
}

/* f16 / bf16 from the formats' definitions (normal values, round to nearest even). */
static float f16_val(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m | 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}
static uint16_t f16_bits(float f)
{
    /* scale to 10 fraction bits at the value's exponent (at least -14: subnormals),
       round to nearest even, carry into the exponent */
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    float a = fabsf(f);
    if (a == 0.0f)
        return sign;
    int e;
    frexpf(a, &e);
    int x = e - 1 < -14 ? -14 : e - 1;
    uint32_t m = (uint32_t)nearbyintf(ldexpf(a, 10 - x));
    if (m >= 2048) {
        m >>= 1;
        x++;
    }
    if (x > 15)
        return (uint16_t)(sign | 0x7C00);
    if (m < 1024)
        return (uint16_t)(sign | m);
    return (uint16_t)(sign | (unsigned)(x + 15) << 10 | (m & 1023));
}
static float bf16_val(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint16_t bf16_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t lsb = (u >> 16) & 1u;
    return (uint16_t)((u + 0x7FFFu + lsb) >> 16);
}

static double dbl(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* The float atomics, returning, on global addresses (and the MUBUF and flat forms of
   add_f64 and pk_add_f16). */
static void atomics_float(void)
{
    static const struct {
        const char *mn;
        unsigned bytes;
        int kind; /* 0 f32 add, 1 pk f16 add, 2 pk bf16 add, 3 f64 add, 4 f64 min, 5 f64 max */
    } a[] = { { "global_atomic_add_f32", 4, 0 },    { "global_atomic_pk_add_f16", 4, 1 },
              { "global_atomic_pk_add_bf16", 4, 2 }, { "global_atomic_add_f64", 8, 3 },
              { "global_atomic_min_f64", 8, 4 },    { "global_atomic_max_f64", 8, 5 },
              { "flat_atomic_add_f64", 8, 3 },      { "flat_atomic_pk_add_f16", 4, 1 },
              { "buffer_atomic_add_f64", 8, 3 },    { "buffer_atomic_pk_add_f16", 4, 1 },
              { "buffer_atomic_max_f64", 8, 5 },    { "buffer_atomic_add_f32", 4, 0 } };
    static const double specials[] = { 0.0, -0.0, 1.5, -2.25, 1e300, -1e300, 3.0e-310, NAN };
    for (unsigned i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
        uint32_t in[256], mem[64 * 4 + 256 * 4];
        memset(mem, 0, sizeof(mem));
        for (unsigned l = 0; l < 64; l++) {
            if (a[i].bytes == 8) {
                double x = l < 8 ? specials[l] : ((int)(rnd() % 2001) - 1000) / 8.0;
                double y = l < 8 ? specials[(l * 3 + 1) % 8] : ((int)(rnd() % 2001) - 1000) / 16.0;
                if (l >= 8 && l < 12)
                    y = l % 2 ? -0.0 : NAN, x = l < 10 ? 0.0 : -0.0;
                uint64_t xb = dbits(x), yb = dbits(y);
                mem[4 * l] = (uint32_t)xb;
                mem[4 * l + 1] = (uint32_t)(xb >> 32);
                in[4 * l] = (uint32_t)yb;
                in[4 * l + 1] = (uint32_t)(yb >> 32);
            } else if (a[i].kind == 0) {
                float x = ((int)(rnd() % 20001) - 10000) / 64.0f, y = ((int)(rnd() % 20001) - 10000) / 32.0f;
                memcpy(&mem[4 * l], &x, 4);
                memcpy(&in[4 * l], &y, 4);
            } else if (a[i].kind == 1) {
                mem[4 * l] = (uint32_t)f16_bits(((int)(rnd() % 2001) - 1000) / 8.0f) |
                             (uint32_t)f16_bits(((int)(rnd() % 2001) - 1000) / 4.0f) << 16;
                in[4 * l] = (uint32_t)f16_bits(((int)(rnd() % 2001) - 1000) / 16.0f) |
                            (uint32_t)f16_bits(((int)(rnd() % 2001) - 1000) / 2.0f) << 16;
            } else {
                mem[4 * l] = (uint32_t)bf16_bits(((int)(rnd() % 2001) - 1000) / 8.0f) |
                             (uint32_t)bf16_bits(((int)(rnd() % 2001) - 1000) / 4.0f) << 16;
                in[4 * l] = (uint32_t)bf16_bits(((int)(rnd() % 2001) - 1000) / 16.0f) |
                            (uint32_t)bf16_bits(((int)(rnd() % 2001) - 1000) / 2.0f) << 16;
            }
        }
        uint32_t orig[sizeof(mem) / 4];
        memcpy(orig, mem, sizeof(mem));
        unsigned w = a[i].bytes / 4;
        char dv[24], rv[24];
        vreg(dv, 40, w);
        vreg(rv, 50, w);
        ut_tb t = { 0 };
        head(&t, 4096);
        for (unsigned k = 0; k < w; k++)
            ut_tb_printf(&t, "  global_load_dword v%u, v[20:21], off offset:%u\n", 40 + k, 4 * k);
        ut_tb_printf(&t, "  s_waitcnt vmcnt(0)\n");
        int buffer = !strncmp(a[i].mn, "buffer", 6), flat = !strncmp(a[i].mn, "flat", 4);
        if (buffer)
            ut_tb_printf(&t, "  %s %s, v11, s[16:19], 0 offen sc0\n", a[i].mn, dv);
        else if (flat)
            ut_tb_printf(&t, "  %s %s, v[22:23], %s sc0\n", a[i].mn, rv, dv);
        else
            ut_tb_printf(&t, "  %s %s, v11, %s, s[6:7] sc0\n", a[i].mn, rv, dv);
        ut_tb_printf(&t, "  s_waitcnt vmcnt(0)\n");
        for (unsigned k = 0; k < w; k++)
            ut_tb_printf(&t, "  global_store_dword v[22:23], v%u, off offset:%u\n", (buffer ? 40 : 50) + k,
                      1024 + 4 * k);
        tail(&t);
        ut_context("%s", a[i].mn);
        if (run_ok(t.s, in, sizeof(in), mem, sizeof(mem)))
            for (unsigned l = 0; l < 64; l++) {
                uint64_t m = orig[4 * l] | (w > 1 ? (uint64_t)orig[4 * l + 1] << 32 : 0);
                uint64_t d = in[4 * l] | (w > 1 ? (uint64_t)in[4 * l + 1] << 32 : 0);
                uint64_t want;
                switch (a[i].kind) {
                case 0: {
                    float x, y;
                    uint32_t mm = (uint32_t)m, dd = (uint32_t)d;
                    memcpy(&x, &mm, 4);
                    memcpy(&y, &dd, 4);
                    float s = x + y;
                    uint32_t sb;
                    memcpy(&sb, &s, 4);
                    want = sb;
                    break;
                }
                case 1:
                    want = f16_bits(f16_val((uint16_t)m) + f16_val((uint16_t)d)) |
                           (uint64_t)f16_bits(f16_val((uint16_t)(m >> 16)) + f16_val((uint16_t)(d >> 16))) << 16;
                    break;
                case 2:
                    want = bf16_bits(bf16_val((uint16_t)m) + bf16_val((uint16_t)d)) |
                           (uint64_t)bf16_bits(bf16_val((uint16_t)(m >> 16)) + bf16_val((uint16_t)(d >> 16))) << 16;
                    break;
                case 3: want = dbits(dbl(m) + dbl(d)); break;
                default: {
                    double x = dbl(m), y = dbl(d);
                    int max = a[i].kind == 5;
                    /* minNum/maxNum: a NaN gives the other operand; -0 is below +0 */
                    if (isnan(x) && isnan(y)) want = m;
                    else if (isnan(x)) want = d;
                    else if (isnan(y)) want = m;
                    else if (x == y && signbit(x) != signbit(y))
                        want = (signbit(x) ? !max : max) ? m : d;
                    else want = (max ? x > y : x < y) ? m : (x == y ? m : d);
                    break;
                }
                }
                uint64_t got = mem[4 * l] | (w > 1 ? (uint64_t)mem[4 * l + 1] << 32 : 0);
                int nan_ok = w > 1 && isnan(dbl(got)) && isnan(dbl(want));
                if (!CHECK_MSG(got == want || nan_ok, "lane %u: 0x%llx, want 0x%llx", l,
                               (unsigned long long)got, (unsigned long long)want))
                    break;
                uint64_t old = mem[256 + 4 * l] | (w > 1 ? (uint64_t)mem[256 + 4 * l + 1] << 32 : 0);
                if (!CHECK_MSG(old == m, "lane %u: returned 0x%llx, want 0x%llx", l,
                               (unsigned long long)old, (unsigned long long)m))
                    break;
            }
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* ---- LDS DMA --------------------------------------------------------------------------------- */

/* The DMA puts lane l's element at M0 + offset + l * size_slot; ds_read_b32 reads it
   back after vmcnt(0). */
static void lds_dma(void)
{
    static const struct {
        wa_target target;
        const char *insn, *post; /* then offset:N, then post (` lds`) */
        unsigned bytes, dwords;
        int sext;
    } c[] = {
        { WA_TARGET_GFX942, "buffer_load_dword v10, s[12:15], 0 offen", " lds", 4, 1, 0 },
        { WA_TARGET_GFX942, "buffer_load_ubyte v10, s[12:15], 0 offen", " lds", 1, 1, 0 },
        { WA_TARGET_GFX942, "buffer_load_sbyte v10, s[12:15], 0 offen", " lds", 1, 1, 1 },
        { WA_TARGET_GFX942, "buffer_load_ushort v10, s[12:15], 0 offen", " lds", 2, 1, 0 },
        { WA_TARGET_GFX942, "buffer_load_sshort v10, s[12:15], 0 offen", " lds", 2, 1, 1 },
        { WA_TARGET_GFX942, "global_load_lds_dword v10, s[4:5]", "", 4, 1, 0 },
        { WA_TARGET_GFX942, "global_load_lds_sbyte v10, s[4:5]", "", 1, 1, 1 },
        { WA_TARGET_GFX942, "global_load_lds_ushort v10, s[4:5]", "", 2, 1, 0 },
        { WA_TARGET_GFX90A, "global_load_dword v10, s[4:5]", " lds", 4, 1, 0 },
        { WA_TARGET_GFX90A, "global_load_sshort v10, s[4:5]", " lds", 2, 1, 1 },
        { WA_TARGET_GFX950, "global_load_lds_dwordx4 v11, s[4:5]", "", 4, 4, 0 },
        { WA_TARGET_GFX950, "global_load_lds_dwordx3 v11, s[4:5]", "", 4, 3, 0 },
        { WA_TARGET_GFX950, "buffer_load_dwordx4 v11, s[12:15], 0 offen", " lds", 4, 4, 0 },
    };
    uint8_t in[4096];
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(rnd() | (i % 2 ? 0x80 : 0));
    for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        const unsigned off = 16, m0 = 256;
        unsigned slot = c[i].dwords > 1 ? 16 : 4;
        ut_tb t = { 0 };
        head_on(&t, c[i].target, 4096, 2048);
        ut_tb_printf(&t, "  v_mov_b32 v40, 0\n");
        for (unsigned a = 0; a < 2048; a += 4)
            ut_tb_printf(&t, "  v_mov_b32 v41, %u\n  ds_write_b32 v41, v40\n", a);
        ut_tb_printf(&t, "  s_waitcnt lgkmcnt(0)\n  s_mov_b32 m0, %u\n  s_nop 0\n  ", m0);
        ut_tb_printf(&t, "%s offset:%u%s", c[i].insn, off, c[i].post);
        ut_tb_printf(&t, "\n  s_waitcnt vmcnt(0)\n");
        /* lane l reads back dword k of its slot */
        for (unsigned k = 0; k < 4; k++)
            ut_tb_printf(&t, "  v_mul_lo_u32 v45, %u, v0\n  ds_read_b32 v%u, v45 offset:%u\n", slot, 40 + k,
                      m0 + off + 4 * k);
        ut_tb_printf(&t, "  s_waitcnt lgkmcnt(0)\n");
        dump(&t, 40, 4);
        tail(&t);
        uint32_t out[64 * 4];
        ut_context("%s on %s", c[i].insn, tname(c[i].target));
        if (run_ok_on(c[i].target, t.s, in, sizeof(in), out, sizeof(out)))
            for (unsigned l = 0; l < 64; l++) {
                /* memory address: 4 l (v10) or 16 l (v11), plus the offset */
                size_t at = (c[i].dwords > 1 ? 16u : 4u) * l + off;
                for (unsigned k = 0; k < 4; k++) {
                    /* slots of 4 bytes overlap the next lanes' slots past dword 0 */
                    if (slot == 4 && k > 0)
                        continue;
                    uint32_t want = 0;
                    if (k < c[i].dwords) {
                        uint32_t v = in_word(in, at + 4 * k);
                        if (c[i].bytes < 4)
                            v = c[i].sext ? sext(v, 8 * c[i].bytes) : v & ((1u << (8 * c[i].bytes)) - 1u);
                        want = v;
                    }
                    if (!CHECK_MSG(out[4 * l + k] == want, "lane %u dword %u: 0x%08x, want 0x%08x", l, k,
                                   out[4 * l + k], want))
                        goto next;
                }
            }
    next:
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* gfx90a buffer_store_lds_dword: the dword at LDS M0 + offset + 4 l goes to the
   buffer address of lane l, which without a VGPR is base + soffset + offset + index
   * stride, the index being the lane id with ADD_TID_ENABLE (stride 4 here). */
static void lds_store(void)
{
    ut_tb t = { 0 };
    head_on(&t, WA_TARGET_GFX90A, 4096, 1024);
    ut_tb_printf(&t, "  v_lshlrev_b32 v41, 2, v0\n  v_or_b32 v40, 0x7000, v0\n  ds_write_b32 v41, v40 offset:32\n"
                  "  s_or_b32 s17, s17, 0x40000\n  s_or_b32 s19, s19, 0x800000\n  s_mov_b32 s20, 8\n"
                  "  s_waitcnt lgkmcnt(0)\n  s_mov_b32 m0, 32\n  s_nop 0\n"
                  "  buffer_store_lds_dword s[16:19], s20 lds\n");
    tail(&t);
    uint32_t out[128], in[4] = { 0 };
    memset(out, 0xEE, sizeof(out));
    if (run_ok_on(WA_TARGET_GFX90A, t.s, in, sizeof(in), out, sizeof(out)))
        for (unsigned l = 0; l < 64; l++) {
            uint32_t want = 0x7000u | l;
            if (!CHECK_MSG(out[2 + l] == want, "lane %u: 0x%08x, want 0x%08x", l, out[2 + l], want))
                break;
        }
    ut_tb_free(&t);
}

/* ---- what is left out ------------------------------------------------------------------------ */

static void left_out(void)
{
    unsigned scratch = 0, format = 0, other = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if (info->format != WA_FMT_MUBUF && info->format != WA_FMT_GLOBAL &&
            info->format != WA_FMT_FLAT && info->format != WA_FMT_SCRATCH)
            continue;
        const char *why = wa_sim_unsupported(op);
        if (!why)
            continue;
        if (info->format == WA_FMT_SCRATCH && strstr(why, "scratch"))
            scratch++;
        else if (strstr(info->mnemonic, "format") && strstr(why, "format"))
            format++;
        else
            CHECK_MSG(0, "%s: unexpected reason '%s'", info->mnemonic, why), other++;
    }
    CHECK_EQ_UINT(scratch, 32u); /* 22 loads and stores, 5 gfx90a lds forms, 5 scratch_load_lds_* */
    CHECK_EQ_UINT(format, 19u);
    CHECK_EQ_UINT(other, 0u);
    ut_tb t = { 0 };
    head(&t, 64);
    ut_tb_printf(&t, "  scratch_load_dword v40, v10, off\n");
    tail(&t);
    uint32_t in[4] = { 0 }, out[4] = { 0 };
    char diag[512];
    CHECK_STATUS(run_text(WA_TARGET_GFX942, t.s, in, sizeof(in), out, sizeof(out), diag, sizeof(diag)),
                 WA_E_UNSUPPORTED);
    CHECK_STR_CONTAINS(diag, "scratch");
    ut_tb_free(&t);
}

UT_SUITE(UT_CASE(loads_all) UT_CASE(d16_loads) UT_CASE(stores_all) UT_CASE(buffer_raw_bounds)
         UT_CASE(buffer_strided_bounds) UT_CASE(atomics_int) UT_CASE(atomics_float) UT_CASE(lds_dma)
         UT_CASE(lds_store) UT_CASE(left_out));
