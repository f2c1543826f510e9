/* tests/unit/test_sim_ds.c — the simulator's DS (LDS) semantics, checked against
   expectations this file computes itself from the ISA's descriptions:

     reads/writes  every width (8/16-bit extended, b32..b128), unaligned addresses,
                   offset:N, the two-address forms with offset0/offset1 in element
                   units and the st64 forms (64 elements), the d16 reads into one
                   half (the other kept) and the d16_hi writes
     atomics       every operation, 32 and 64 bits, with and without the returned
                   old value, cmpst (compare data0, new data1), mskor, wrap,
                   condxchg32, the float min/max/add and packed f16/bf16 adds,
                   wrxchg2 at two addresses; the low address bits ignored; EXEC
                   masking; many lanes on one address
     lanes         ds_swizzle (quad-permute and bitmask modes), ds_permute and
                   ds_bpermute with EXEC and offsets
     M0            ds_append/ds_consume (count of active lanes, old value to each),
                   ds_read/write_addtid (M0 + offset + 4 * lane)
     range         beyond the LDS size: an error, or (permissive) 0 / dropped
     waits         a returned value read before s_waitcnt lgkmcnt is an error
     left out      the gfx950 transposing reads (WA_E_UNSUPPORTED with the reason). */
#include "check.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t g_rng = 0x243F6A8885A308D3ull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}

/* ---- the harness -----------------------------------------------------------------------

   One wave of 64 lanes, 1024 bytes of LDS initialised from lds[]. Per lane:
     v10          addr
     v[12:13]     data0 (d0)
     v[14:15]     data1 (d1)
     v[16:19]     results, preloaded with old[] (lanes left alone stay visible)
   M0 = m0, EXEC = exec while `ops` run. Afterwards: LDS and v16..v19. */
#define LDS_DW 256u
#define LANES 64u

typedef struct ds_io {
    const char *target;
    unsigned flags;              /* extra WA_SIM_* */
    uint32_t lds[LDS_DW];
    uint32_t addr[LANES], d0[LANES][2], d1[LANES][2], old[LANES][4];
    uint64_t exec;
    uint32_t m0;
    /* results */
    uint32_t lds_out[LDS_DW];
    uint32_t res[LANES][4];
    char diag[1024];
} ds_io;

static void io_init(ds_io *io)
{
    memset(io, 0, sizeof(*io));
    io->target = "gfx942";
    io->exec = ~0ull;
    for (unsigned i = 0; i < LDS_DW; i++)
        io->lds[i] = rnd();
    for (unsigned l = 0; l < LANES; l++) {
        for (unsigned k = 0; k < 4; k++)
            io->old[l][k] = 0xA5000000u | (l << 8) | k;
        io->d0[l][0] = rnd();
        io->d0[l][1] = rnd();
        io->d1[l][0] = rnd();
        io->d1[l][1] = rnd();
    }
}

/* Runs `ops`; returns the run status (diagnostics in io->diag). */
static wa_status io_run(ds_io *io, const char *ops, uint64_t seed)
{
    ut_tb t = { 0 };
    ut_tb_printf(&t,
              ".kernel t\n"
              "  .target %s\n"
              "  .workgroup_size 64, 1, 1\n"
              "  .lds_bytes %u\n"
              "  .abi kernarg_ptr, workitem_id_x\n"
              "  .arg in, global_buffer, offset:0, size:8, align:8\n"
              "  .arg out, global_buffer, offset:8, size:8, align:8\n"
              "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
              "  s_waitcnt lgkmcnt(0)\n"
              "  v_lshlrev_b32 v1, 2, v0\n"
              "  v_lshlrev_b32 v3, 6, v0\n",
              io->target, LDS_DW * 4);
    for (unsigned k = 0; k < 4; k++)
        ut_tb_printf(&t, "  global_load_dword v2, v1, s[4:5] offset:%u\n  s_waitcnt vmcnt(0)\n"
                      "  ds_write_b32 v1, v2 offset:%u\n", 256 * k, 256 * k);
    static const unsigned regs[] = { 10, 12, 13, 14, 15, 16, 17, 18, 19 };
    for (unsigned k = 0; k < 9; k++)
        ut_tb_printf(&t, "  global_load_dword v%u, v3, s[4:5] offset:%u\n", regs[k], 1024 + 4 * k);
    ut_tb_printf(&t, "  s_waitcnt vmcnt(0) lgkmcnt(0)\n"
                  "  s_mov_b32 m0, 0x%x\n"
                  "  s_mov_b32 exec_lo, 0x%x\n"
                  "  s_mov_b32 exec_hi, 0x%x\n"
                  "%s"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_mov_b64 exec, -1\n"
                  "  v_lshlrev_b32 v4, 4, v0\n",
              io->m0, (unsigned)io->exec, (unsigned)(io->exec >> 32), ops);
    for (unsigned k = 0; k < 4; k++)
        ut_tb_printf(&t, "  global_store_dword v4, v%u, s[6:7] offset:%u\n", 16 + k, 1024 + 4 * k);
    for (unsigned k = 0; k < 4; k++)
        ut_tb_printf(&t, "  ds_read_b32 v2, v1 offset:%u\n  s_waitcnt lgkmcnt(0)\n"
                      "  global_store_dword v1, v2, s[6:7] offset:%u\n", 256 * k, 256 * k);
    ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");

    uint32_t in[LDS_DW + LANES * 16], out[LDS_DW + LANES * 4];
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    memcpy(in, io->lds, sizeof(io->lds));
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t *p = &in[LDS_DW + 16 * l];
        p[0] = io->addr[l];
        p[1] = io->d0[l][0];
        p[2] = io->d0[l][1];
        p[3] = io->d1[l][0];
        p[4] = io->d1[l][1];
        for (unsigned k = 0; k < 4; k++)
            p[5 + k] = io->old[l][k];
    }
    wa_target target = strcmp(io->target, "gfx90a") == 0   ? WA_TARGET_GFX90A
                       : strcmp(io->target, "gfx950") == 0 ? WA_TARGET_GFX950
                                                           : WA_TARGET_GFX942;
    wa_context *ctx = ut_context_new(target);
    wa_program *prog = ut_parse(ctx, t.s);
    wa_status st = WA_E_PARSE;
    if (prog) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        o.flags |= io->flags;
        o.seed = seed;
        wa_sim *sim = NULL;
        st = wa_sim_create(&sim, prog, &o);
        if (st == WA_OK) {
            wa_sim_bind_buffer(sim, 0, in, sizeof(in));
            wa_sim_bind_buffer(sim, 1, out, sizeof(out));
            st = wa_sim_run(sim);
        }
        wa_sim_destroy(sim);
    }
    snprintf(io->diag, sizeof(io->diag), "%s", wa_context_last_error(ctx));
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    ut_tb_free(&t);
    memcpy(io->lds_out, out, sizeof(io->lds_out));
    for (unsigned l = 0; l < LANES; l++)
        for (unsigned k = 0; k < 4; k++)
            io->res[l][k] = out[LDS_DW + 4 * l + k];
    return st;
}

static int io_ok(ds_io *io, const char *ops, uint64_t seed)
{
    wa_status st = io_run(io, ops, seed);
    return CHECK_MSG(st == WA_OK, "run of\n%s: %s (%s)", ops, wa_status_string(st), io->diag);
}

/* Compares LDS and results with the expectations; the first few differences. */
static int io_expect(const ds_io *io, const uint32_t lds[LDS_DW], uint32_t res[LANES][4],
                     const char *what)
{
    unsigned bad = 0;
    for (unsigned i = 0; i < LDS_DW && bad < 4; i++)
        if (io->lds_out[i] != lds[i])
            bad += !CHECK_MSG(0, "%s: LDS dword %u = 0x%08x, expected 0x%08x", what, i,
                              io->lds_out[i], lds[i]);
    for (unsigned l = 0; l < LANES && bad < 4; l++)
        for (unsigned k = 0; k < 4; k++)
            if (io->res[l][k] != res[l][k])
                bad += !CHECK_MSG(0, "%s: lane %u v%u = 0x%08x, expected 0x%08x", what, l, 16 + k,
                                  io->res[l][k], res[l][k]);
    return bad == 0;
}

/* Little-endian LDS byte access of the reference. */
static uint32_t get8(const uint32_t *m, uint32_t a) { return (m[a >> 2] >> (8 * (a & 3))) & 0xFFu; }
static void put8(uint32_t *m, uint32_t a, uint32_t v)
{
    unsigned sh = 8 * (a & 3);
    m[a >> 2] = (m[a >> 2] & ~(0xFFu << sh)) | (v & 0xFFu) << sh;
}
static uint64_t getn(const uint32_t *m, uint32_t a, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++)
        v |= (uint64_t)get8(m, a + k) << (8 * k);
    return v;
}
static void putn(uint32_t *m, uint32_t a, uint64_t v, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        put8(m, a + k, (uint32_t)(v >> (8 * k)));
}

static void ref_start(const ds_io *io, uint32_t lds[LDS_DW], uint32_t res[LANES][4])
{
    memcpy(lds, io->lds, sizeof(io->lds));
    memcpy(res, io->old, sizeof(io->old));
}

/* ---- reads and writes ------------------------------------------------------------------ */

typedef struct rw_case {
    const char *mn;
    unsigned bytes;   /* piece size */
    unsigned dwords;  /* registers */
    int sext, two, st64, d16, hi, write;
} rw_case;

static const rw_case rw_cases[] = {
    { "ds_read_b32", 4, 1, 0, 0, 0, 0, 0, 0 },
    { "ds_read_b64", 4, 2, 0, 0, 0, 0, 0, 0 },
    { "ds_read_b96", 4, 3, 0, 0, 0, 0, 0, 0 },
    { "ds_read_b128", 4, 4, 0, 0, 0, 0, 0, 0 },
    { "ds_read_u8", 1, 1, 0, 0, 0, 0, 0, 0 },
    { "ds_read_i8", 1, 1, 1, 0, 0, 0, 0, 0 },
    { "ds_read_u16", 2, 1, 0, 0, 0, 0, 0, 0 },
    { "ds_read_i16", 2, 1, 1, 0, 0, 0, 0, 0 },
    { "ds_read2_b32", 4, 2, 0, 1, 0, 0, 0, 0 },
    { "ds_read2st64_b32", 4, 2, 0, 1, 1, 0, 0, 0 },
    { "ds_read2_b64", 4, 4, 0, 1, 0, 0, 0, 0 },
    { "ds_read2st64_b64", 4, 4, 0, 1, 1, 0, 0, 0 },
    { "ds_read_u8_d16", 1, 1, 0, 0, 0, 1, 0, 0 },
    { "ds_read_u8_d16_hi", 1, 1, 0, 0, 0, 1, 1, 0 },
    { "ds_read_i8_d16", 1, 1, 1, 0, 0, 1, 0, 0 },
    { "ds_read_i8_d16_hi", 1, 1, 1, 0, 0, 1, 1, 0 },
    { "ds_read_u16_d16", 2, 1, 0, 0, 0, 1, 0, 0 },
    { "ds_read_u16_d16_hi", 2, 1, 0, 0, 0, 1, 1, 0 },
    { "ds_write_b8", 1, 1, 0, 0, 0, 0, 0, 1 },
    { "ds_write_b16", 2, 1, 0, 0, 0, 0, 0, 1 },
    { "ds_write_b32", 4, 1, 0, 0, 0, 0, 0, 1 },
    { "ds_write_b64", 4, 2, 0, 0, 0, 0, 0, 1 },
    { "ds_write_b96", 4, 3, 0, 0, 0, 0, 0, 1 },
    { "ds_write_b128", 4, 4, 0, 0, 0, 0, 0, 1 },
    { "ds_write_b8_d16_hi", 1, 1, 0, 0, 0, 0, 1, 1 },
    { "ds_write_b16_d16_hi", 2, 1, 0, 0, 0, 0, 1, 1 },
    { "ds_write2_b32", 4, 1, 0, 1, 0, 0, 0, 1 },
    { "ds_write2st64_b32", 4, 1, 0, 1, 1, 0, 0, 1 },
    { "ds_write2_b64", 4, 2, 0, 1, 0, 0, 0, 1 },
    { "ds_write2st64_b64", 4, 2, 0, 1, 1, 0, 0, 1 },
};

static const char *vreg(char *buf, unsigned first, unsigned n)
{
    if (n == 1)
        snprintf(buf, 24, "v%u", first);
    else
        snprintf(buf, 24, "v[%u:%u]", first, first + n - 1);
    return buf;
}

static void one_rw(const rw_case *c, unsigned round)
{
    ds_io io;
    io_init(&io);
    io.target = round == 1 ? "gfx90a" : round == 2 ? "gfx950" : "gfx942";
    io.exec = round == 0 ? ~0ull : ((uint64_t)rnd() << 32 | rnd());
    unsigned nd = c->dwords, o0 = 0, o1 = 0, off = 0;
    if (c->two) {
        uint32_t elem = 4u * (c->write ? nd : nd / 2);
        uint32_t step = elem * (c->st64 ? 64u : 1u);
        unsigned lim = (LDS_DW * 4 - 256 - elem) / step;
        if (lim > 255)
            lim = 255;
        o0 = rnd() % (lim + 1);
        o1 = rnd() % (lim + 1);
    } else {
        off = rnd() % 128;
    }
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t a = (uint32_t)(rnd() % 512);
        if (c->two)
            io.addr[l] = (a & ~3u) % 256; /* dword aligned */
        else if (c->write) /* distinct 16-byte slots, some unaligned within them */
            io.addr[l] = 16u * l + (nd < 4 && l % 4 == 0 ? rnd() % 3 : 0);
        else /* anywhere; one lane in four unaligned */
            io.addr[l] = l % 4 == 0 ? a : (a & ~3u);
    }
    if (c->write && !c->two)
        io.exec &= (1ull << 56) - 1; /* slots 0..55 stay inside LDS with any offset */
    if (c->write && c->two && round == 0) {
        /* every lane, the two halves of LDS: no two writes meet */
        for (unsigned l = 0; l < LANES; l++)
            io.addr[l] = 4u * nd * l;
        o0 = 0;
        o1 = c->st64 ? 1 : 64;
    } else if (c->write && c->two) {
        io.exec = 1ull << (rnd() % 64); /* one lane at random offsets */
    }
    char line[160], r0[24], r1[24];
    if (c->write && c->two)
        snprintf(line, sizeof(line), "  %s v10, %s, %s offset0:%u offset1:%u\n", c->mn,
                 vreg(r0, 12, nd), vreg(r1, 14, nd), o0, o1);
    else if (c->write)
        snprintf(line, sizeof(line), "  %s v10, %s offset:%u\n", c->mn, vreg(r0, 12, nd), off);
    else if (c->two)
        snprintf(line, sizeof(line), "  %s %s, v10 offset0:%u offset1:%u\n", c->mn, vreg(r0, 16, nd), o0, o1);
    else
        snprintf(line, sizeof(line), "  %s %s, v10 offset:%u\n", c->mn, vreg(r0, 16, nd), off);
    if (!CHECK(io_ok(&io, line, round + 1)))
        return;
    uint32_t lds[LDS_DW], res[LANES][4];
    ref_start(&io, lds, res);
    for (unsigned l = 0; l < LANES; l++) {
        if (!(io.exec >> l & 1u))
            continue;
        uint32_t data[4] = { io.d0[l][0], io.d0[l][1], io.d1[l][0], io.d1[l][1] };
        if (c->write) {
            if (c->two) {
                uint32_t step = 4u * nd * (c->st64 ? 64u : 1u);
                for (unsigned k = 0; k < nd; k++) {
                    putn(lds, io.addr[l] + o0 * step + 4 * k, io.d0[l][k], 4);
                    putn(lds, io.addr[l] + o1 * step + 4 * k, io.d1[l][k], 4);
                }
            } else if (c->bytes < 4) {
                putn(lds, io.addr[l] + off, c->hi ? data[0] >> 16 : data[0], c->bytes);
            } else {
                for (unsigned k = 0; k < nd; k++)
                    putn(lds, io.addr[l] + off + 4 * k, data[k], 4);
            }
            continue;
        }
        if (c->two) {
            unsigned half = nd / 2;
            uint32_t step = 4u * half * (c->st64 ? 64u : 1u);
            for (unsigned k = 0; k < half; k++) {
                res[l][k] = (uint32_t)getn(io.lds, io.addr[l] + o0 * step + 4 * k, 4);
                res[l][half + k] = (uint32_t)getn(io.lds, io.addr[l] + o1 * step + 4 * k, 4);
            }
        } else if (c->d16) {
            uint32_t v = (uint32_t)getn(io.lds, io.addr[l] + off, c->bytes);
            if (c->sext && c->bytes == 1 && (v & 0x80u))
                v |= 0xFF00u;
            res[l][0] = c->hi ? (io.old[l][0] & 0xFFFFu) | v << 16 : (io.old[l][0] & 0xFFFF0000u) | v;
        } else if (c->bytes < 4) {
            uint32_t v = (uint32_t)getn(io.lds, io.addr[l] + off, c->bytes);
            if (c->sext && (v >> (8 * c->bytes - 1)))
                v |= ~0u << (8 * c->bytes);
            res[l][0] = v;
        } else {
            for (unsigned k = 0; k < nd; k++)
                res[l][k] = (uint32_t)getn(io.lds, io.addr[l] + off + 4 * k, 4);
        }
    }
    io_expect(&io, lds, res, line);
}

static void reads_writes(void)
{
    for (unsigned i = 0; i < sizeof(rw_cases) / sizeof(rw_cases[0]); i++)
        for (unsigned round = 0; round < 3; round++)
            one_rw(&rw_cases[i], round);
}

/* ---- atomics ----------------------------------------------------------------------------- */

enum { A_ADD, A_SUB, A_RSUB, A_INC, A_DEC, A_MINI, A_MAXI, A_MINU, A_MAXU, A_AND, A_OR, A_XOR,
       A_MSKOR, A_CMPST, A_CMPSTF, A_WRXCHG, A_WRAP, A_CONDX, A_MINF, A_MAXF, A_ADDF, A_PKF16,
       A_PKBF16 };

typedef struct atom_case {
    const char *mn;   /* without _rtn; NULL-terminated pairs below */
    const char *rtn;  /* the returning form, NULL if none */
    unsigned kind, bytes, ndata;
    const char *target;
} atom_case;

static const atom_case atom_cases[] = {
    { "ds_add_u32", "ds_add_rtn_u32", A_ADD, 4, 1, 0 },
    { "ds_add_u64", "ds_add_rtn_u64", A_ADD, 8, 1, 0 },
    { "ds_sub_u32", "ds_sub_rtn_u32", A_SUB, 4, 1, 0 },
    { "ds_sub_u64", "ds_sub_rtn_u64", A_SUB, 8, 1, 0 },
    { "ds_rsub_u32", "ds_rsub_rtn_u32", A_RSUB, 4, 1, 0 },
    { "ds_rsub_u64", "ds_rsub_rtn_u64", A_RSUB, 8, 1, 0 },
    { "ds_inc_u32", "ds_inc_rtn_u32", A_INC, 4, 1, 0 },
    { "ds_inc_u64", "ds_inc_rtn_u64", A_INC, 8, 1, 0 },
    { "ds_dec_u32", "ds_dec_rtn_u32", A_DEC, 4, 1, 0 },
    { "ds_dec_u64", "ds_dec_rtn_u64", A_DEC, 8, 1, 0 },
    { "ds_min_i32", "ds_min_rtn_i32", A_MINI, 4, 1, 0 },
    { "ds_min_i64", "ds_min_rtn_i64", A_MINI, 8, 1, 0 },
    { "ds_max_i32", "ds_max_rtn_i32", A_MAXI, 4, 1, 0 },
    { "ds_max_i64", "ds_max_rtn_i64", A_MAXI, 8, 1, 0 },
    { "ds_min_u32", "ds_min_rtn_u32", A_MINU, 4, 1, 0 },
    { "ds_min_u64", "ds_min_rtn_u64", A_MINU, 8, 1, 0 },
    { "ds_max_u32", "ds_max_rtn_u32", A_MAXU, 4, 1, 0 },
    { "ds_max_u64", "ds_max_rtn_u64", A_MAXU, 8, 1, 0 },
    { "ds_and_b32", "ds_and_rtn_b32", A_AND, 4, 1, 0 },
    { "ds_and_b64", "ds_and_rtn_b64", A_AND, 8, 1, 0 },
    { "ds_or_b32", "ds_or_rtn_b32", A_OR, 4, 1, 0 },
    { "ds_or_b64", "ds_or_rtn_b64", A_OR, 8, 1, 0 },
    { "ds_xor_b32", "ds_xor_rtn_b32", A_XOR, 4, 1, 0 },
    { "ds_xor_b64", "ds_xor_rtn_b64", A_XOR, 8, 1, 0 },
    { "ds_mskor_b32", "ds_mskor_rtn_b32", A_MSKOR, 4, 2, 0 },
    { "ds_mskor_b64", "ds_mskor_rtn_b64", A_MSKOR, 8, 2, 0 },
    { "ds_cmpst_b32", "ds_cmpst_rtn_b32", A_CMPST, 4, 2, 0 },
    { "ds_cmpst_b64", "ds_cmpst_rtn_b64", A_CMPST, 8, 2, 0 },
    { "ds_cmpst_f32", "ds_cmpst_rtn_f32", A_CMPSTF, 4, 2, 0 },
    { "ds_cmpst_f64", "ds_cmpst_rtn_f64", A_CMPSTF, 8, 2, 0 },
    { NULL, "ds_wrxchg_rtn_b32", A_WRXCHG, 4, 1, 0 },
    { NULL, "ds_wrxchg_rtn_b64", A_WRXCHG, 8, 1, 0 },
    { NULL, "ds_wrap_rtn_b32", A_WRAP, 4, 2, 0 },
    { NULL, "ds_condxchg32_rtn_b64", A_CONDX, 8, 1, 0 },
    { "ds_min_f32", "ds_min_rtn_f32", A_MINF, 4, 1, 0 },
    { "ds_min_f64", "ds_min_rtn_f64", A_MINF, 8, 1, 0 },
    { "ds_max_f32", "ds_max_rtn_f32", A_MAXF, 4, 1, 0 },
    { "ds_max_f64", "ds_max_rtn_f64", A_MAXF, 8, 1, 0 },
    { "ds_add_f32", "ds_add_rtn_f32", A_ADDF, 4, 1, 0 },
    { "ds_add_f64", "ds_add_rtn_f64", A_ADDF, 8, 1, 0 },
    { "ds_pk_add_f16", "ds_pk_add_rtn_f16", A_PKF16, 4, 1, "gfx942" },
    { "ds_pk_add_bf16", "ds_pk_add_rtn_bf16", A_PKBF16, 4, 1, "gfx950" },
};

static double as_f64(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}
static uint64_t f64_as(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}
static float as_f32(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static uint32_t f32_as(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static double fv(uint64_t v, unsigned bytes) { return bytes == 8 ? as_f64(v) : (double)as_f32((uint32_t)v); }

/* IEEE half / bfloat16 conversions of the reference (round to nearest even). */
static double h2d(uint32_t h)
{
    unsigned e = (h >> 10) & 31u, m = h & 1023u;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024u, (int)e - 25);
    return (h & 0x8000u) ? -v : v;
}
static uint32_t d2h(double d)
{
    /* nearest-even by trying both neighbours of a truncated search */
    if (isnan(d))
        return 0x7E00u;
    uint32_t s = signbit(d) ? 0x8000u : 0;
    double a = fabs(d);
    if (a >= 65520.0)
        return s | 0x7C00u;
    uint32_t best = 0;
    double bd = INFINITY;
    /* binary search over the ordered positive halves */
    uint32_t lo = 0, hi = 0x7BFF;
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (h2d(mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    for (uint32_t c = lo; c <= lo + 1 && c <= 0x7C00u; c++) {
        double e = fabs(h2d(c) - a);
        if (e < bd || (e == bd && (c & 1u) == 0)) {
            bd = e;
            best = c;
        }
    }
    return s | best;
}
static double b2d(uint32_t b) { return (double)as_f32((b & 0xFFFFu) << 16); }
static uint32_t d2b(double d)
{
    float f = (float)d; /* exact for a sum of two bf16 values in the tested range */
    uint32_t x = f32_as(f);
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu))
        return (x >> 16) | 0x40u;
    uint32_t r = x + 0x7FFFu + ((x >> 16) & 1u);
    return r >> 16;
}

static uint64_t ref_atomic(unsigned kind, unsigned bytes, uint64_t m, uint64_t d, uint64_t s)
{
    uint64_t mask = bytes == 8 ? ~0ull : 0xFFFFFFFFull;
    m &= mask;
    d &= mask;
    s &= mask;
    int64_t ms = bytes == 8 ? (int64_t)m : (int64_t)(int32_t)(uint32_t)m;
    int64_t dsg = bytes == 8 ? (int64_t)d : (int64_t)(int32_t)(uint32_t)d;
    uint64_t r = m;
    switch (kind) {
    case A_ADD: r = m + d; break;
    case A_SUB: r = m - d; break;
    case A_RSUB: r = d - m; break;
    case A_INC: r = d > m ? m + 1 : 0; break;                 /* wraps to 0 at the limit */
    case A_DEC: r = (d >= m && m != 0) ? m - 1 : d; break;    /* wraps to the limit at 0 */
    case A_MINI: r = ms < dsg ? m : d; break;
    case A_MAXI: r = ms > dsg ? m : d; break;
    case A_MINU: r = m < d ? m : d; break;
    case A_MAXU: r = m > d ? m : d; break;
    case A_AND: r = m & d; break;
    case A_OR: r = m | d; break;
    case A_XOR: r = m ^ d; break;
    case A_MSKOR: r = (m & ~d) | s; break;
    case A_CMPST: r = m == d ? s : m; break;
    case A_CMPSTF: r = fv(m, bytes) == fv(d, bytes) ? s : m; break;
    case A_WRXCHG: r = d; break;
    case A_WRAP: r = m >= d ? m - d : m + s; break;
    case A_CONDX: {
        uint32_t lo = (uint32_t)m, hi = (uint32_t)(m >> 32);
        if (d & 0x80000000ull)
            lo = (uint32_t)d & 0x7FFFFFFFu;
        if (d >> 63)
            hi = (uint32_t)(d >> 32) & 0x7FFFFFFFu;
        r = (uint64_t)hi << 32 | lo;
        break;
    }
    case A_MINF: r = fv(d, bytes) < fv(m, bytes) ? d : m; break;
    case A_MAXF: r = fv(d, bytes) > fv(m, bytes) ? d : m; break;
    case A_ADDF:
        r = bytes == 8 ? f64_as(as_f64(m) + as_f64(d)) : f32_as(as_f32((uint32_t)m) + as_f32((uint32_t)d));
        break;
    case A_PKF16:
        r = d2h(h2d((uint32_t)m & 0xFFFFu) + h2d((uint32_t)d & 0xFFFFu)) |
            d2h(h2d((uint32_t)(m >> 16) & 0xFFFFu) + h2d((uint32_t)(d >> 16) & 0xFFFFu)) << 16;
        break;
    case A_PKBF16:
        r = d2b(b2d((uint32_t)m) + b2d((uint32_t)d)) | d2b(b2d((uint32_t)(m >> 16)) + b2d((uint32_t)(d >> 16))) << 16;
        break;
    }
    return r & mask;
}

/* Data values: random, edges, and (for compares) the memory value itself. */
static uint64_t pick(unsigned kind, unsigned bytes, uint64_t mem)
{
    static const uint64_t edges[] = { 0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x8000000000000000ull,
                                      0x7FFFFFFFFFFFFFFFull, ~0ull };
    unsigned r = rnd() % 8;
    uint64_t v = (uint64_t)rnd() << 32 | rnd();
    if (r == 0)
        v = edges[rnd() % 9];
    else if (r == 1)
        v = mem;
    else if (r == 2)
        v = mem + (rnd() % 3) - 1;
    if (kind == A_INC || kind == A_DEC)
        v = r < 4 ? mem + (rnd() % 5) - 2 : v;
    if (kind == A_MINF || kind == A_MAXF || kind == A_ADDF || kind == A_CMPSTF) {
        static const float ff[] = { 0.0f, -0.0f, 1.0f, -2.5f, 1e30f, -1e-40f, INFINITY, NAN };
        static const double fd[] = { 0.0, -0.0, 1.0, -2.5, 1e300, -1e-310, INFINITY, NAN };
        if (r < 4)
            v = bytes == 8 ? f64_as(fd[rnd() % 8]) : f32_as(ff[rnd() % 8]);
        else if (r < 6)
            v = bytes == 8 ? f64_as((double)(int32_t)rnd() / 1024.0) : f32_as((float)(int32_t)rnd() / 1024.0f);
        if (r == 1)
            v = mem;
    }
    if (kind == A_PKF16 || kind == A_PKBF16) {
        /* finite halves of moderate size */
        uint32_t a = rnd(), b = rnd();
        if (kind == A_PKF16)
            v = (a & 0x3FFFu) | (b & 0xBFFFu) << 16;
        else
            v = ((a & 0x3FFFu) | 0x3800u) | (((b & 0x3FFFu) | 0x3800u) ^ (b & 0x8000u)) << 16;
    }
    return v;
}

static void one_atomic(const atom_case *c, int rtn, unsigned round)
{
    const char *mn = rtn ? c->rtn : c->mn;
    if (!mn)
        return;
    ds_io io;
    io_init(&io);
    /* the three targets in turn (the packed adds where they exist) */
    io.target = c->target ? c->target : round == 1 ? "gfx90a" : round == 2 ? "gfx950" : "gfx942";
    io.exec = round == 0 ? ~0ull : ((uint64_t)rnd() << 32 | rnd());
    unsigned off = 8u * (rnd() % 32);
    if (c->kind == A_PKF16 || c->kind == A_PKBF16)
        for (unsigned i = 0; i < LDS_DW; i++)
            io.lds[i] = (uint32_t)pick(c->kind, 4, 0);
    for (unsigned l = 0; l < LANES; l++) {
        /* distinct naturally aligned slots; some lanes add low bits the atomic ignores */
        io.addr[l] = 8u * l + (round == 2 && l % 3 == 0 ? 1u + rnd() % (c->bytes - 1) : 0u);
        uint32_t a = (io.addr[l] + off) & ~(c->bytes - 1u);
        uint64_t mem = getn(io.lds, a, c->bytes);
        if (c->kind == A_MINF || c->kind == A_MAXF || c->kind == A_ADDF || c->kind == A_CMPSTF) {
            mem = pick(c->kind, c->bytes, 0);
            putn(io.lds, a, mem, c->bytes);
        }
        uint64_t d = pick(c->kind, c->bytes, mem), s = pick(c->kind, c->bytes, mem);
        if (c->kind == A_CONDX)
            d = (uint64_t)rnd() << 32 | rnd();
        io.d0[l][0] = (uint32_t)d;
        io.d0[l][1] = (uint32_t)(d >> 32);
        io.d1[l][0] = (uint32_t)s;
        io.d1[l][1] = (uint32_t)(s >> 32);
    }
    unsigned w = c->bytes / 4;
    char line[160], a0[24], a1[24], a2[24];
    if (c->ndata == 2)
        snprintf(line, sizeof(line), "  %s %s%sv10, %s, %s offset:%u\n", mn, rtn ? vreg(a2, 16, w) : "",
                 rtn ? ", " : "", vreg(a0, 12, w), vreg(a1, 14, w), off);
    else
        snprintf(line, sizeof(line), "  %s %s%sv10, %s offset:%u\n", mn, rtn ? vreg(a2, 16, w) : "",
                 rtn ? ", " : "", vreg(a0, 12, w), off);
    ut_context("%s round %u", mn, round);
    if (!CHECK(io_ok(&io, line, round + 7)))
        return;
    uint32_t lds[LDS_DW], res[LANES][4];
    ref_start(&io, lds, res);
    for (unsigned l = 0; l < LANES; l++) {
        if (!(io.exec >> l & 1u))
            continue;
        uint32_t a = (io.addr[l] + off) & ~(c->bytes - 1u);
        uint64_t m = getn(lds, a, c->bytes);
        uint64_t d = io.d0[l][0] | (uint64_t)io.d0[l][1] << 32, s = io.d1[l][0] | (uint64_t)io.d1[l][1] << 32;
        putn(lds, a, ref_atomic(c->kind, c->bytes, m, d, s), c->bytes);
        if (rtn) {
            res[l][0] = (uint32_t)m;
            if (w == 2)
                res[l][1] = (uint32_t)(m >> 32);
        }
    }
    io_expect(&io, lds, res, line);
}

static void atomics_all(void)
{
    for (unsigned i = 0; i < sizeof(atom_cases) / sizeof(atom_cases[0]); i++)
        for (int rtn = 0; rtn < 2; rtn++)
            for (unsigned round = 0; round < 3; round++)
                one_atomic(&atom_cases[i], rtn, round);
}

/* Every lane adds to one dword: the sum lands, and the returned old values are
   the running sums in some order (each one distinct). */
static void atomics_one_address(void)
{
    ds_io io;
    io_init(&io);
    io.exec = 0xF0F0FFFF0000FFFFull;
    uint32_t start = io.lds[5], sum = start;
    for (unsigned l = 0; l < LANES; l++) {
        io.addr[l] = 20;
        io.d0[l][0] = rnd() % 1000 + 1;
        if (io.exec >> l & 1u)
            sum += io.d0[l][0];
    }
    if (!CHECK(io_ok(&io, "  ds_add_rtn_u32 v16, v10, v12\n", 3)))
        return;
    CHECK_EQ_HEX(io.lds_out[5], sum);
    /* every returned value is the start plus the data of some set of lanes,
       and they are all distinct and below the final sum */
    for (unsigned l = 0; l < LANES; l++) {
        if (!(io.exec >> l & 1u)) {
            CHECK_EQ_HEX(io.res[l][0], io.old[l][0]);
            continue;
        }
        CHECK(io.res[l][0] - start < sum - start);
        for (unsigned k = 0; k < l; k++)
            if (io.exec >> k & 1u)
                CHECK(io.res[k][0] != io.res[l][0]);
    }
}

/* wrxchg2: two addresses (offset0/offset1 in elements, st64: 64 elements), both
   old values returned. */
static void wrxchg2(void)
{
    static const struct { const char *mn; unsigned bytes; int st64; } cs[] = {
        { "ds_wrxchg2_rtn_b32", 4, 0 },
        { "ds_wrxchg2st64_rtn_b32", 4, 1 },
        { "ds_wrxchg2_rtn_b64", 8, 0 },
        { "ds_wrxchg2st64_rtn_b64", 8, 1 },
    };
    for (unsigned i = 0; i < 4; i++) {
        ds_io io;
        io_init(&io);
        unsigned b = cs[i].bytes, w = b / 4, step = b * (cs[i].st64 ? 64u : 1u);
        /* st64: 256 or 512 bytes per step, LDS is 1024 */
        unsigned o0 = cs[i].st64 ? (b == 8 ? 0 : rnd() % 2) : rnd() % 16;
        unsigned o1 = o0 + 1 + (cs[i].st64 ? 0 : rnd() % 8);
        io.exec = 1ull << (rnd() % 64) | 1ull << 63;
        for (unsigned l = 0; l < LANES; l++)
            io.addr[l] = l == 63 ? 256u + b : b * (rnd() % 8);
        char line[160], r0[24], r1[24], r2[24];
        snprintf(line, sizeof(line), "  %s %s, v10, %s, %s offset0:%u offset1:%u\n", cs[i].mn,
                 vreg(r0, 16, 2 * w), vreg(r1, 12, w), vreg(r2, 14, w), o0, o1);
        ut_context("%s", cs[i].mn);
        if (!CHECK(io_ok(&io, line, 5)))
            continue;
        uint32_t lds[LDS_DW], res[LANES][4];
        ref_start(&io, lds, res);
        for (unsigned l = 0; l < LANES; l++) {
            if (!(io.exec >> l & 1u))
                continue;
            uint32_t a0 = io.addr[l] + o0 * step, a1 = io.addr[l] + o1 * step;
            uint64_t m0 = getn(lds, a0, b), m1 = getn(lds, a1, b);
            putn(lds, a0, io.d0[l][0] | (uint64_t)io.d0[l][1] << 32, b);
            putn(lds, a1, io.d1[l][0] | (uint64_t)io.d1[l][1] << 32, b);
            res[l][0] = (uint32_t)m0;
            if (w == 2) {
                res[l][1] = (uint32_t)(m0 >> 32);
                res[l][2] = (uint32_t)m1;
                res[l][3] = (uint32_t)(m1 >> 32);
            } else {
                res[l][1] = (uint32_t)m1;
            }
        }
        io_expect(&io, lds, res, line);
    }
}

/* ---- lanes ------------------------------------------------------------------------------- */

static void swizzle(void)
{
    for (unsigned round = 0; round < 24; round++) {
        ds_io io;
        io_init(&io);
        io.exec = round < 4 ? ~0ull : ((uint64_t)rnd() << 32 | rnd());
        uint32_t off = round % 2 ? 0x8000u | (rnd() & 0xFFu) : rnd() & 0x7FFFu;
        if (round == 2)
            off = 0x041F; /* xor 1: swap neighbours */
        for (unsigned l = 0; l < LANES; l++)
            io.addr[l] = rnd();
        char line[96];
        snprintf(line, sizeof(line), "  ds_swizzle_b32 v16, v10 offset:%u\n", off);
        if (!CHECK(io_ok(&io, line, round)))
            continue;
        uint32_t lds[LDS_DW], res[LANES][4];
        ref_start(&io, lds, res);
        for (unsigned l = 0; l < LANES; l++) {
            if (!(io.exec >> l & 1u))
                continue;
            unsigned src;
            if (off & 0x8000u) {
                src = (l / 4) * 4 + ((off >> (2 * (l % 4))) & 3u);
            } else {
                unsigned and_m = off & 31u, or_m = (off >> 5) & 31u, xor_m = (off >> 10) & 31u;
                src = (l / 32) * 32 + ((((l % 32) & and_m) | or_m) ^ xor_m);
            }
            res[l][0] = (io.exec >> src & 1u) ? io.addr[src] : 0;
        }
        io_expect(&io, lds, res, line);
    }
}

static void permutes(void)
{
    for (unsigned round = 0; round < 24; round++) {
        int back = round % 2;
        ds_io io;
        io_init(&io);
        io.exec = round < 4 ? ~0ull : ((uint64_t)rnd() << 32 | rnd());
        uint32_t off = round < 6 ? 0 : 4u * (rnd() % 64) + rnd() % 4;
        for (unsigned l = 0; l < LANES; l++)
            io.addr[l] = round == 0 ? (63u - l) * 4u : rnd(); /* high bits ignored */
        char line[96];
        snprintf(line, sizeof(line), "  %s v16, v10, v12 offset:%u\n", back ? "ds_bpermute_b32" : "ds_permute_b32",
                 off);
        if (!CHECK(io_ok(&io, line, round)))
            continue;
        uint32_t lds[LDS_DW], res[LANES][4], tmp[LANES];
        ref_start(&io, lds, res);
        memset(tmp, 0, sizeof(tmp));
        for (unsigned l = 0; l < LANES; l++) {
            unsigned other = ((io.addr[l] + off) / 4) % 64;
            if (back) {
                if (io.exec >> other & 1u)
                    tmp[l] = io.d0[other][0];
            } else if (io.exec >> l & 1u) {
                tmp[other] = io.d0[l][0]; /* later (higher) lanes win */
            }
        }
        for (unsigned l = 0; l < LANES; l++)
            if (io.exec >> l & 1u)
                res[l][0] = tmp[l];
        io_expect(&io, lds, res, line);
    }
}

/* ---- M0-addressed ----------------------------------------------------------------------- */

static void append_consume(void)
{
    for (unsigned round = 0; round < 8; round++) {
        int consume = round % 2;
        ds_io io;
        io_init(&io);
        io.exec = round < 2 ? ~0ull : round == 2 ? 0 : ((uint64_t)rnd() << 32 | rnd());
        io.m0 = 4u * (rnd() % 128);
        unsigned off = 4u * (rnd() % 64);
        char line[96];
        snprintf(line, sizeof(line), "  %s v16 offset:%u\n", consume ? "ds_consume" : "ds_append", off);
        if (!CHECK(io_ok(&io, line, round)))
            continue;
        uint32_t lds[LDS_DW], res[LANES][4];
        ref_start(&io, lds, res);
        uint32_t n = 0;
        for (unsigned l = 0; l < LANES; l++)
            n += (unsigned)(io.exec >> l & 1u);
        uint32_t a = io.m0 + off, old = (uint32_t)getn(lds, a, 4);
        putn(lds, a, consume ? old - n : old + n, 4);
        for (unsigned l = 0; l < LANES; l++)
            if (io.exec >> l & 1u)
                res[l][0] = old;
        io_expect(&io, lds, res, line);
    }
}

static void addtid(void)
{
    for (unsigned round = 0; round < 6; round++) {
        int wr = round % 2;
        ds_io io;
        io_init(&io);
        io.exec = round < 2 ? ~0ull : ((uint64_t)rnd() << 32 | rnd());
        io.m0 = 4u * (rnd() % 64) + (round == 4 ? 2u : 0u);
        unsigned off = 4u * (rnd() % 64);
        char line[96];
        snprintf(line, sizeof(line), wr ? "  ds_write_addtid_b32 v12 offset:%u\n" : "  ds_read_addtid_b32 v16 offset:%u\n",
                 off);
        if (!CHECK(io_ok(&io, line, round)))
            continue;
        uint32_t lds[LDS_DW], res[LANES][4];
        ref_start(&io, lds, res);
        for (unsigned l = 0; l < LANES; l++) {
            if (!(io.exec >> l & 1u))
                continue;
            uint32_t a = io.m0 + off + 4 * l;
            if (wr)
                putn(lds, a, io.d0[l][0], 4);
            else
                res[l][0] = (uint32_t)getn(io.lds, a, 4);
        }
        io_expect(&io, lds, res, line);
    }
}

/* ---- range, waits, left out ------------------------------------------------------------ */

static void out_of_range(void)
{
    ds_io io;
    io_init(&io);
    for (unsigned l = 0; l < LANES; l++)
        io.addr[l] = l == 7 ? 1022u : 4u * l;
    /* the kernel's LDS is 1024 bytes: lane 7 reads bytes 1022..1025 */
    CHECK_STATUS(io_run(&io, "  ds_read_b32 v16, v10\n", 1), WA_E_SIM_FAULT);
    CHECK_STR_CONTAINS(io.diag, "beyond");
    CHECK_STATUS(io_run(&io, "  ds_add_u32 v10, v12 offset:2000\n", 1), WA_E_SIM_FAULT);
    CHECK_STATUS(io_run(&io, "  ds_read2st64_b32 v[16:17], v10 offset1:4\n", 1), WA_E_SIM_FAULT);
    /* permissive: reads 0, the write and the atomic do nothing, the atomic returns 0 */
    io.flags = WA_SIM_PERMISSIVE;
    if (CHECK(io_ok(&io, "  ds_read_b32 v16, v10\n  ds_write_b32 v10, v12 offset:1020\n"
                         "  ds_add_rtn_u32 v17, v10, v12 offset:1024\n", 1))) {
        uint32_t lds[LDS_DW], res[LANES][4];
        ref_start(&io, lds, res);
        for (unsigned l = 0; l < LANES; l++) {
            res[l][0] = l == 7 ? 0 : io.lds[l];
            res[l][1] = l == 7 ? 0 : 0;
            if (l != 7 && 4 * l + 1020 + 4 <= 1024)
                putn(lds, 4 * l + 1020, io.d0[l][0], 4);
        }
        /* lane 0 writes dword 255; every atomic lands beyond LDS and returns 0 */
        io_expect(&io, lds, res, "permissive out of range");
    }
}

static void return_needs_wait(void)
{
    ds_io io;
    io_init(&io);
    for (unsigned l = 0; l < LANES; l++)
        io.addr[l] = 4 * l;
    /* v16 is read before the returned value has surely landed */
    wa_status st = WA_OK;
    for (uint64_t seed = 1; seed < 40 && st == WA_OK; seed++)
        st = io_run(&io, "  ds_add_rtn_u32 v16, v10, v12\n  v_mov_b32 v17, v16\n", seed);
    CHECK_STATUS(st, WA_E_SIM_WAIT);
    CHECK_OK(io_run(&io, "  ds_add_rtn_u32 v16, v10, v12\n  s_waitcnt lgkmcnt(0)\n  v_mov_b32 v17, v16\n", 2));
}

static void transposing_reads_left_out(void)
{
    static const wa_opcode ops[] = { WA_OP_DS_READ_B64_TR_B4, WA_OP_DS_READ_B96_TR_B6,
                                     WA_OP_DS_READ_B64_TR_B8, WA_OP_DS_READ_B64_TR_B16 };
    for (unsigned i = 0; i < 4; i++) {
        const char *why = wa_sim_unsupported(ops[i]);
        if (CHECK(why != NULL))
            CHECK_STR_CONTAINS(why, "transpos");
    }
    ds_io io;
    io_init(&io);
    io.target = "gfx950";
    CHECK_STATUS(io_run(&io, "  ds_read_b64_tr_b16 v[16:17], v10\n", 1), WA_E_UNSUPPORTED);
    unsigned left_out = 0, rows = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++)
        if (wa_isa_get(op)->format == WA_FMT_DS) {
            rows++;
            left_out += wa_sim_unsupported(op) != NULL;
        }
    CHECK_EQ_UINT(left_out, 4);
    CHECK(rows > 120);
    /* ds_nop counts on lgkmcnt and changes nothing */
    io_init(&io);
    if (CHECK(io_ok(&io, "  ds_nop\n", 1))) {
        uint32_t lds[LDS_DW], res[LANES][4];
        ref_start(&io, lds, res);
        io_expect(&io, lds, res, "ds_nop");
    }
}

UT_SUITE(UT_CASE(reads_writes) UT_CASE(atomics_all) UT_CASE(atomics_one_address) UT_CASE(wrxchg2)
         UT_CASE(swizzle) UT_CASE(permutes) UT_CASE(append_consume) UT_CASE(addtid)
         UT_CASE(out_of_range) UT_CASE(return_needs_wait) UT_CASE(transposing_reads_left_out));
