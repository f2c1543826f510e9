/* tests/unit/test_sim_salu.c — the simulator's scalar ALU and program-control
   semantics (SOP1, SOP2, SOPK, SOPC, SOPP), every opcode of the families, checked
   against references this file computes itself (bit loops and plain C
   arithmetic, written from the ISA's descriptions, never the simulator's
   helpers):

     SOP2   arithmetic with carry/borrow/overflow in SCC, min/max, selects, every
            bitwise function on 32 and 64 bits, shifts, bfm, bfe (signed and
            unsigned, 32 and 64 bits), multiplies, absdiff, shift-and-add, packs
     SOP1   moves and conditional moves, not, wqm, brev, bit counts, find-first
            and find-last bits (signed too), sign extension, bitset, quadmask, abs,
            bitreplicate, every saveexec and wrexec form (EXEC, sdst, SCC), the
            VGPR-index M0 write
     SOPC   every compare (32 and 64 bits) and bitcmp
     SOPK   movk, cmovk, every cmpk (signed and unsigned immediates), addk, mulk
     SOPP   the no-effect hints, debugger branches (not taken), s_set_gpr_idx_mode
     and the opcodes the simulator leaves out, which stop the run with
     WA_E_UNSUPPORTED and the reason wa_sim_unsupported gives.

   Each opcode runs as one kernel over many cases: edge values and random ones,
   SCC both ways, EXEC partial. */
#include "check.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------ */

static uint64_t g_rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}
static uint64_t rnd64(void) { return (uint64_t)rnd() << 32 | rnd(); }

/* Runs `text` with buffers in (argument 0) and out (argument 1); the status. */
static wa_status run_text(const char *text, void *in, size_t in_bytes, void *out, size_t out_bytes,
                          uint64_t seed, char *diag, size_t ndiag)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = ut_parse(ctx, text);
    wa_status st = WA_E_PARSE;
    if (prog) {
        wa_sim_options o = WA_SIM_OPTIONS_INIT;
        o.seed = seed;
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

static void head(ut_tb *t)
{
    ut_tb_printf(t, ".kernel t\n"
                 "  .target gfx942\n"
                 "  .abi kernarg_ptr, workitem_id_x\n"
                 "  .arg in, global_buffer, offset:0, size:8, align:8\n"
                 "  .arg out, global_buffer, offset:8, size:8, align:8\n"
                 "  s_load_dwordx4 s[4:7], s[0:1], 0\n"
                 "  s_waitcnt lgkmcnt(0)\n");
}

/* ---- the case harness ------------------------------------------------------------------

   Case i reads 12 dwords at in + 48 i: a (s[8:9]), b (s[10:11]), the SCC to set
   (s12), M0 (s13), the old destination (s[14:15], copied to s[16:17] before the
   instruction) and EXEC (s[18:19]). The instruction runs with those; then sdst
   s[16:17], SCC, EXEC and M0 are stored at out + 32 i. */
typedef struct cin {
    uint64_t a, b;
    uint32_t scc, m0;
    uint64_t old, exec;
} cin;

typedef struct cout {
    uint64_t d;
    uint32_t scc, m0;
    uint64_t exec;
} cout;

typedef void (*ref_fn)(const cin *in, cout *out);

/* Immediate kinds of SOPK rows: the case's b is the 16-bit field. */
enum { IMM_NONE = 0, IMM_S16, IMM_U16 };

typedef struct sop {
    const char *line;  /* the instruction (SOPK: without its immediate) */
    ref_fn ref;
    int imm;
    unsigned a_bits, b_bits; /* input widths for the random cases (32 or 64) */
} sop;

#define NCASES 96u

static void make_cases(cin *cs, const sop *op)
{
    static const uint64_t edge[] = {
        0, 1, 2, 3, 31, 32, 33, 63, 64, 0x7F, 0x80, 0xFF, 0xFFFF, 0x8000, 0x7FFF,
        0x7FFFFFFFull, 0x80000000ull, 0xFFFFFFFFull, 0xFFFFFFFEull, 0x80000001ull,
        0x100000000ull, 0xFFFFFFFF00000000ull, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull,
        ~0ull, 0xF0F0F0F00F0F0F0Full, 0x0123456789ABCDEFull, 0x0000000100000001ull,
        0x00000000FFFF0000ull, 0x1111111111111111ull, 0x00100000003F0005ull, 0x0000007000000000ull,
    };
    const unsigned ne = sizeof(edge) / sizeof(edge[0]);
    for (unsigned i = 0; i < NCASES; i++) {
        cin *c = &cs[i];
        if (i < 64) {
            c->a = edge[i % ne];
            c->b = edge[(i * 7 + 3) % ne];
        } else {
            c->a = rnd64();
            c->b = i % 3 ? rnd64() : rnd() % 70;
        }
        if (op->a_bits == 32)
            c->a &= 0xFFFFFFFFull;
        if (op->b_bits == 32)
            c->b &= 0xFFFFFFFFull;
        if (op->imm)
            c->b = i < 16 ? edge[i] & 0xFFFF : rnd() & 0xFFFF;
        c->scc = (i * 5 + 1) % 3 == 0;
        c->m0 = rnd();
        c->old = rnd64();
        c->exec = i % 4 == 0 ? ~0ull : i % 4 == 1 ? 0 : rnd64();
    }
}

/* Runs `op` over the cases; 1 if the kernel ran. */
static int run_cases(const sop *op, const cin *cs, cout *out)
{
    uint32_t *in = calloc(NCASES, 48), *res = calloc(NCASES, 32);
    if (!in || !res)
        abort();
    ut_tb t = { 0 };
    head(&t);
    for (unsigned i = 0; i < NCASES; i++) {
        const cin *c = &cs[i];
        uint32_t *p = in + 12 * i;
        p[0] = (uint32_t)c->a;
        p[1] = (uint32_t)(c->a >> 32);
        p[2] = (uint32_t)c->b;
        p[3] = (uint32_t)(c->b >> 32);
        p[4] = c->scc;
        p[5] = c->m0;
        p[6] = (uint32_t)c->old;
        p[7] = (uint32_t)(c->old >> 32);
        p[8] = (uint32_t)c->exec;
        p[9] = (uint32_t)(c->exec >> 32);
        ut_tb_printf(&t,
                  "  s_load_dwordx8 s[8:15], s[4:5], %u\n"
                  "  s_load_dwordx2 s[18:19], s[4:5], %u\n"
                  "  s_waitcnt lgkmcnt(0)\n"
                  "  s_mov_b64 s[16:17], s[14:15]\n"
                  "  s_mov_b32 m0, s13\n"
                  "  s_cmp_eq_u32 s12, 1\n"
                  "  s_mov_b64 exec, s[18:19]\n  ",
                  48 * i, 48 * i + 32);
        if (op->imm == IMM_S16)
            ut_tb_printf(&t, "%s, %d", op->line, (int)(int16_t)(uint16_t)c->b);
        else if (op->imm == IMM_U16)
            ut_tb_printf(&t, "%s, %d", op->line, (int)(uint16_t)c->b);
        else
            ut_tb_printf(&t, "%s", op->line);
        ut_tb_printf(&t,
                  "\n  s_cselect_b32 s20, 1, 0\n"
                  "  s_mov_b64 s[22:23], exec\n"
                  "  s_mov_b32 s24, m0\n"
                  "  s_mov_b64 exec, -1\n"
                  "  v_mov_b32 v1, %u\n"
                  "  v_mov_b32 v2, s16\n"
                  "  v_mov_b32 v3, s17\n"
                  "  v_mov_b32 v4, s20\n"
                  "  v_mov_b32 v5, s24\n"
                  "  v_mov_b32 v6, s22\n"
                  "  v_mov_b32 v7, s23\n"
                  "  global_store_dwordx4 v1, v[2:5], s[6:7]\n"
                  "  global_store_dwordx2 v1, v[6:7], s[6:7] offset:16\n",
                  32 * i);
    }
    ut_tb_printf(&t, "  s_endpgm\n.end_kernel\n");
    char diag[512];
    wa_status st = run_text(t.s, in, (size_t)NCASES * 48, res, (size_t)NCASES * 32, 7, diag,
                            sizeof(diag));
    int ok = CHECK_MSG(st == WA_OK, "%s: %s", op->line, diag);
    for (unsigned i = 0; ok && i < NCASES; i++) {
        const uint32_t *p = res + 8 * i;
        out[i].d = p[0] | (uint64_t)p[1] << 32;
        out[i].scc = p[2];
        out[i].m0 = p[3];
        out[i].exec = p[4] | (uint64_t)p[5] << 32;
    }
    ut_tb_free(&t);
    free(in);
    free(res);
    return ok;
}

static void check_op(const sop *op)
{
    cin cs[NCASES];
    cout got[NCASES];
    make_cases(cs, op);
    ut_context("%s", op->line);
    if (!run_cases(op, cs, got))
        return;
    unsigned bad = 0;
    for (unsigned i = 0; i < NCASES; i++) {
        cout want = { cs[i].old, cs[i].scc, cs[i].m0, cs[i].exec };
        op->ref(&cs[i], &want);
        if ((got[i].d != want.d || got[i].scc != want.scc || got[i].exec != want.exec ||
             got[i].m0 != want.m0) &&
            ++bad <= 3)
            CHECK_MSG(0, "%s a=0x%llx b=0x%llx scc=%u old=0x%llx exec=0x%llx m0=0x%x: got d=0x%llx "
                         "scc=%u exec=0x%llx m0=0x%x, want d=0x%llx scc=%u exec=0x%llx m0=0x%x",
                      op->line, (unsigned long long)cs[i].a, (unsigned long long)cs[i].b, cs[i].scc,
                      (unsigned long long)cs[i].old, (unsigned long long)cs[i].exec, cs[i].m0,
                      (unsigned long long)got[i].d, got[i].scc, (unsigned long long)got[i].exec,
                      got[i].m0, (unsigned long long)want.d, want.scc,
                      (unsigned long long)want.exec, want.m0);
    }
    CHECK_EQ_UINT(bad, 0);
}

/* ---- references ----------------------------------------------------------------------------- */

#define LO(x) ((uint32_t)(x))
#define S32(x) ((int32_t)(uint32_t)(x))
/* a 32-bit result in sdst: the high half of s[16:17] keeps the old value */
static void put32(cout *o, uint32_t r) { o->d = (o->d & 0xFFFFFFFF00000000ull) | r; }

#define REF(name, body)                                   \
    static void name(const cin *in, cout *o)              \
    {                                                     \
        uint64_t a = in->a, b = in->b;                    \
        uint32_t si = in->scc;                            \
        (void)a, (void)b, (void)si;                       \
        body;                                             \
    }

/* SOP2, 32 bits */
REF(r_add_u32, { uint64_t s = (uint64_t)LO(a) + LO(b); put32(o, (uint32_t)s); o->scc = s >> 32 != 0; })
REF(r_sub_u32, { put32(o, LO(a) - LO(b)); o->scc = LO(b) > LO(a); })
REF(r_add_i32, { int64_t s = (int64_t)S32(a) + S32(b); put32(o, (uint32_t)s);
                 o->scc = s > 2147483647ll || s < -2147483648ll; })
REF(r_sub_i32, { int64_t s = (int64_t)S32(a) - S32(b); put32(o, (uint32_t)s);
                 o->scc = s > 2147483647ll || s < -2147483648ll; })
REF(r_addc_u32, { uint64_t s = (uint64_t)LO(a) + LO(b) + si; put32(o, (uint32_t)s); o->scc = s >> 32 != 0; })
REF(r_subb_u32, { put32(o, LO(a) - LO(b) - si); o->scc = (uint64_t)LO(b) + si > LO(a); })
REF(r_min_i32, { put32(o, S32(a) < S32(b) ? LO(a) : LO(b)); o->scc = S32(a) < S32(b); })
REF(r_min_u32, { put32(o, LO(a) < LO(b) ? LO(a) : LO(b)); o->scc = LO(a) < LO(b); })
REF(r_max_i32, { put32(o, S32(a) > S32(b) ? LO(a) : LO(b)); o->scc = S32(a) > S32(b); })
REF(r_max_u32, { put32(o, LO(a) > LO(b) ? LO(a) : LO(b)); o->scc = LO(a) > LO(b); })
REF(r_cselect_b32, { put32(o, si ? LO(a) : LO(b)); })
REF(r_cselect_b64, { o->d = si ? a : b; })

/* bitwise functions by bit loops: f(x, y) per bit */
static uint64_t bitwise(uint64_t a, uint64_t b, int (*f)(int, int), unsigned n)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < n; i++)
        if (f((int)(a >> i & 1u), (int)(b >> i & 1u)))
            r |= 1ull << i;
    return r;
}
static int f_and(int x, int y) { return x && y; }
static int f_or(int x, int y) { return x || y; }
static int f_xor(int x, int y) { return x != y; }
static int f_andn2(int x, int y) { return x && !y; }
static int f_orn2(int x, int y) { return x || !y; }
static int f_nand(int x, int y) { return !(x && y); }
static int f_nor(int x, int y) { return !(x || y); }
static int f_xnor(int x, int y) { return x == y; }
static int f_not(int x, int y) { (void)y; return !x; }
#define BITREF(name, f)                                                                        \
    REF(r_##name##_b32, { uint32_t r = (uint32_t)bitwise(a, b, f, 32); put32(o, r); o->scc = r != 0; }) \
    REF(r_##name##_b64, { o->d = bitwise(a, b, f, 64); o->scc = o->d != 0; })
BITREF(and, f_and)
BITREF(or, f_or)
BITREF(xor, f_xor)
BITREF(andn2, f_andn2)
BITREF(orn2, f_orn2)
BITREF(nand, f_nand)
BITREF(nor, f_nor)
BITREF(xnor, f_xnor)
BITREF(not, f_not)

REF(r_lshl_b32, { uint32_t r = (uint32_t)((uint64_t)LO(a) << (LO(b) % 32)); put32(o, r); o->scc = r != 0; })
REF(r_lshr_b32, { uint32_t r = LO(a) >> (LO(b) % 32); put32(o, r); o->scc = r != 0; })
REF(r_ashr_i32, { unsigned n = LO(b) % 32; uint32_t r = LO(a) >> n;
                  if (n && (LO(a) >> 31)) r |= ~0u << (32 - n);
                  put32(o, r); o->scc = r != 0; })
REF(r_lshl_b64, { o->d = a << (LO(b) % 64); o->scc = o->d != 0; })
REF(r_lshr_b64, { o->d = a >> (LO(b) % 64); o->scc = o->d != 0; })
REF(r_ashr_i64, { unsigned n = LO(b) % 64; uint64_t r = a >> n;
                  if (n && (a >> 63)) r |= ~0ull << (64 - n);
                  o->d = r; o->scc = r != 0; })
/* bfm: a mask of src0[4:0] ones shifted left by src1[4:0] */
REF(r_bfm_b32, { uint32_t m = 0; for (unsigned i = 0; i < (LO(a) & 31u); i++) m |= 1u << i;
                 put32(o, (uint32_t)((uint64_t)m << (LO(b) & 31u))); })
REF(r_bfm_b64, { uint64_t m = 0; for (unsigned i = 0; i < (LO(a) & 63u); i++) m |= 1ull << i;
                 o->d = m << (LO(b) & 63u); })
REF(r_mul_i32, { put32(o, (uint32_t)((uint64_t)LO(a) * LO(b))); })
REF(r_mul_hi_u32, { put32(o, (uint32_t)(((uint64_t)LO(a) * LO(b)) >> 32)); })
REF(r_mul_hi_i32, { int64_t p = (int64_t)S32(a) * S32(b); put32(o, (uint32_t)((uint64_t)p >> 32)); })
REF(r_absdiff_i32, { uint32_t d = LO(a) - LO(b); uint32_t r = S32(d) < 0 ? 0u - d : d; put32(o, r); o->scc = r != 0; })
#define LSHLADD(n)                                                                        \
    REF(r_lshl##n##_add_u32, { uint64_t s = ((uint64_t)LO(a) << n) + LO(b);               \
                               put32(o, (uint32_t)s); o->scc = (s >> 32) != 0; })
LSHLADD(1)
LSHLADD(2)
LSHLADD(3)
LSHLADD(4)
REF(r_pack_ll, { put32(o, (LO(b) & 0xFFFFu) << 16 | (LO(a) & 0xFFFFu)); })
REF(r_pack_lh, { put32(o, (LO(b) >> 16) << 16 | (LO(a) & 0xFFFFu)); })
REF(r_pack_hh, { put32(o, (LO(b) >> 16) << 16 | (LO(a) >> 16)); })

/* bfe: the field of `width` bits at `off`, bit by bit; bits above the value are 0
   (unsigned) or copies of its sign (signed); signed results extend the field's top
   bit. The cases keep signed fields inside the value (off + width <= bits). */
static uint64_t ref_bfe(uint64_t v, unsigned off, unsigned width, unsigned bits, int sign)
{
    uint64_t r = 0;
    int top = 0;
    for (unsigned i = 0; i < width && i < bits; i++) {
        unsigned src = off + i;
        int bit = src < bits ? (int)(v >> src & 1u) : (sign ? (int)(v >> (bits - 1) & 1u) : 0);
        if (bit)
            r |= 1ull << i;
        top = bit;
    }
    if (sign && width && width < bits && top)
        for (unsigned i = width; i < bits; i++)
            r |= 1ull << i;
    return r;
}
REF(r_bfe_u32, { uint32_t r = (uint32_t)ref_bfe(LO(a), LO(b) & 31u, (LO(b) >> 16) & 0x7Fu, 32, 0); put32(o, r); o->scc = r != 0; })
REF(r_bfe_i32, { uint32_t r = (uint32_t)ref_bfe(LO(a), LO(b) & 31u, (LO(b) >> 16) & 0x7Fu, 32, 1); put32(o, r); o->scc = r != 0; })
REF(r_bfe_u64, { o->d = ref_bfe(a, LO(b) & 63u, (LO(b) >> 16) & 0x7Fu, 64, 0); o->scc = o->d != 0; })
REF(r_bfe_i64, { o->d = ref_bfe(a, LO(b) & 63u, (LO(b) >> 16) & 0x7Fu, 64, 1); o->scc = o->d != 0; })

/* SOP1 */
REF(r_mov_b32, { put32(o, LO(a)); })
REF(r_mov_b64, { o->d = a; })
REF(r_cmov_b32, { if (si) put32(o, LO(a)); })
REF(r_cmov_b64, { if (si) o->d = a; })
static uint64_t ref_wqm(uint64_t a, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned q = 0; q < bits / 4; q++) {
        int any = 0;
        for (unsigned i = 0; i < 4; i++)
            any |= (int)(a >> (4 * q + i) & 1u);
        if (any)
            for (unsigned i = 0; i < 4; i++)
                r |= 1ull << (4 * q + i);
    }
    return r;
}
REF(r_wqm_b32, { uint32_t r = (uint32_t)ref_wqm(LO(a), 32); put32(o, r); o->scc = r != 0; })
REF(r_wqm_b64, { o->d = ref_wqm(a, 64); o->scc = o->d != 0; })
static uint64_t ref_brev(uint64_t a, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r = r << 1 | (a >> i & 1u);
    return r;
}
REF(r_brev_b32, { put32(o, (uint32_t)ref_brev(LO(a), 32)); })
REF(r_brev_b64, { o->d = ref_brev(a, 64); })
static unsigned ref_count(uint64_t a, unsigned bits, int one)
{
    unsigned n = 0;
    for (unsigned i = 0; i < bits; i++)
        n += (int)(a >> i & 1u) == one;
    return n;
}
REF(r_bcnt0_b32, { uint32_t r = ref_count(LO(a), 32, 0); put32(o, r); o->scc = r != 0; })
REF(r_bcnt0_b64, { uint32_t r = ref_count(a, 64, 0); put32(o, r); o->scc = r != 0; })
REF(r_bcnt1_b32, { uint32_t r = ref_count(LO(a), 32, 1); put32(o, r); o->scc = r != 0; })
REF(r_bcnt1_b64, { uint32_t r = ref_count(a, 64, 1); put32(o, r); o->scc = r != 0; })
/* the lowest bit equal to `one`, or -1 */
static uint32_t ref_ff(uint64_t a, unsigned bits, int one)
{
    for (unsigned i = 0; i < bits; i++)
        if ((int)(a >> i & 1u) == one)
            return i;
    return 0xFFFFFFFFu;
}
REF(r_ff0_b32, { put32(o, ref_ff(LO(a), 32, 0)); })
REF(r_ff0_b64, { put32(o, ref_ff(a, 64, 0)); })
REF(r_ff1_b32, { put32(o, ref_ff(LO(a), 32, 1)); })
REF(r_ff1_b64, { put32(o, ref_ff(a, 64, 1)); })
/* counting from the top: the first bit that is 1 (unsigned) or differs from the
   sign bit (signed); -1 if none */
static uint32_t ref_flbit(uint64_t a, unsigned bits, int sign)
{
    int want = sign ? !(int)(a >> (bits - 1) & 1u) : 1;
    for (unsigned n = sign ? 1u : 0u; n < bits; n++)
        if ((int)(a >> (bits - 1 - n) & 1u) == want)
            return n;
    return 0xFFFFFFFFu;
}
REF(r_flbit_b32, { put32(o, ref_flbit(LO(a), 32, 0)); })
REF(r_flbit_b64, { put32(o, ref_flbit(a, 64, 0)); })
REF(r_flbit_i32, { put32(o, ref_flbit(LO(a), 32, 1)); })
REF(r_flbit_i64, { put32(o, ref_flbit(a, 64, 1)); })
REF(r_sext8, { uint32_t v = LO(a) & 0xFFu; put32(o, v & 0x80u ? v | 0xFFFFFF00u : v); })
REF(r_sext16, { uint32_t v = LO(a) & 0xFFFFu; put32(o, v & 0x8000u ? v | 0xFFFF0000u : v); })
REF(r_bitset0_b32, { put32(o, LO(o->d) & ~(1u << (LO(a) % 32))); })
REF(r_bitset1_b32, { put32(o, LO(o->d) | (1u << (LO(a) % 32))); })
REF(r_bitset0_b64, { o->d &= ~(1ull << (LO(a) % 64)); })
REF(r_bitset1_b64, { o->d |= 1ull << (LO(a) % 64); })
static uint64_t ref_quadmask(uint64_t a, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned q = 0; q < bits / 4; q++)
        if ((a >> (4 * q)) & 0xFu)
            r |= 1ull << q;
    return r;
}
REF(r_quadmask_b32, { uint32_t r = (uint32_t)ref_quadmask(LO(a), 32); put32(o, r); o->scc = r != 0; })
REF(r_quadmask_b64, { o->d = ref_quadmask(a, 64); o->scc = o->d != 0; })
REF(r_abs_i32, { uint32_t r = S32(a) < 0 ? 0u - LO(a) : LO(a); put32(o, r); o->scc = r != 0; })
REF(r_bitreplicate, { uint64_t r = 0; for (unsigned i = 0; i < 32; i++) if (a >> i & 1u) r |= 3ull << (2 * i); o->d = r; })
REF(r_set_gpr_idx_idx, { o->m0 = (in->m0 & 0xFFFFFF00u) | (LO(a) & 0xFFu); })

/* saveexec: EXEC = f(src0, EXEC), sdst = old EXEC (wrexec: the new), SCC = EXEC != 0 */
#define SAVEEXEC(name, f, wr)                                               \
    REF(r_##name, { uint64_t nv = bitwise(a, in->exec, f, 64);              \
                    o->d = wr ? nv : in->exec; o->exec = nv; o->scc = nv != 0; })
static int f_andn1(int x, int y) { return !x && y; }
static int f_orn1(int x, int y) { return !x || y; }
SAVEEXEC(and_saveexec, f_and, 0)
SAVEEXEC(or_saveexec, f_or, 0)
SAVEEXEC(xor_saveexec, f_xor, 0)
SAVEEXEC(andn2_saveexec, f_andn2, 0)
SAVEEXEC(orn2_saveexec, f_orn2, 0)
SAVEEXEC(nand_saveexec, f_nand, 0)
SAVEEXEC(nor_saveexec, f_nor, 0)
SAVEEXEC(xnor_saveexec, f_xnor, 0)
SAVEEXEC(andn1_saveexec, f_andn1, 0)
SAVEEXEC(orn1_saveexec, f_orn1, 0)
SAVEEXEC(andn1_wrexec, f_andn1, 1)
SAVEEXEC(andn2_wrexec, f_andn2, 1)

/* SOPC: SCC only */
REF(c_eq_u32, { o->scc = LO(a) == LO(b); })
REF(c_lg_u32, { o->scc = LO(a) != LO(b); })
REF(c_gt_i32, { o->scc = S32(a) > S32(b); })
REF(c_ge_i32, { o->scc = S32(a) >= S32(b); })
REF(c_lt_i32, { o->scc = S32(a) < S32(b); })
REF(c_le_i32, { o->scc = S32(a) <= S32(b); })
REF(c_gt_u32, { o->scc = LO(a) > LO(b); })
REF(c_ge_u32, { o->scc = LO(a) >= LO(b); })
REF(c_lt_u32, { o->scc = LO(a) < LO(b); })
REF(c_le_u32, { o->scc = LO(a) <= LO(b); })
REF(c_eq_u64, { o->scc = a == b; })
REF(c_lg_u64, { o->scc = a != b; })
REF(c_bitcmp0_b32, { o->scc = !(LO(a) >> (LO(b) % 32) & 1u); })
REF(c_bitcmp1_b32, { o->scc = LO(a) >> (LO(b) % 32) & 1u; })
REF(c_bitcmp0_b64, { o->scc = !(a >> (LO(b) % 64) & 1u); })
REF(c_bitcmp1_b64, { o->scc = a >> (LO(b) % 64) & 1u; })

/* SOPK: b is the 16-bit field; k sign-extends it, u zero-extends it */
#define K16S(b) ((uint32_t)(int32_t)(int16_t)(uint16_t)(b))
#define K16U(b) ((uint32_t)(uint16_t)(b))
REF(k_movk, { put32(o, K16S(b)); })
REF(k_cmovk, { if (si) put32(o, K16S(b)); })
REF(k_addk, { int64_t s = (int64_t)S32(in->old) + (int32_t)K16S(b); put32(o, (uint32_t)s);
              o->scc = s > 2147483647ll || s < -2147483648ll; })
REF(k_mulk, { put32(o, (uint32_t)((uint64_t)LO(in->old) * K16S(b))); })
REF(k_eq_i32, { o->scc = LO(a) == K16S(b); })
REF(k_lg_i32, { o->scc = LO(a) != K16S(b); })
REF(k_gt_i32, { o->scc = S32(a) > (int32_t)K16S(b); })
REF(k_ge_i32, { o->scc = S32(a) >= (int32_t)K16S(b); })
REF(k_lt_i32, { o->scc = S32(a) < (int32_t)K16S(b); })
REF(k_le_i32, { o->scc = S32(a) <= (int32_t)K16S(b); })
REF(k_eq_u32, { o->scc = LO(a) == K16U(b); })
REF(k_lg_u32, { o->scc = LO(a) != K16U(b); })
REF(k_gt_u32, { o->scc = LO(a) > K16U(b); })
REF(k_ge_u32, { o->scc = LO(a) >= K16U(b); })
REF(k_lt_u32, { o->scc = LO(a) < K16U(b); })
REF(k_le_u32, { o->scc = LO(a) <= K16U(b); })

/* SOPP: s_set_gpr_idx_mode writes M0[15:12] */
REF(p_gpr_idx_mode, { o->m0 = (in->m0 & ~0xF000u) | 0xA000u; })
REF(p_none, { (void)o; })

/* ---- the opcodes ------------------------------------------------------------------------------ */

#define D32 "s16"
#define D64 "s[16:17]"
#define A32 "s8"
#define A64 "s[8:9]"
#define B32 "s10"
#define B64 "s[10:11]"

static const sop sop2_ops[] = {
    { "s_add_u32 " D32 ", " A32 ", " B32, r_add_u32, 0, 32, 32 },
    { "s_sub_u32 " D32 ", " A32 ", " B32, r_sub_u32, 0, 32, 32 },
    { "s_add_i32 " D32 ", " A32 ", " B32, r_add_i32, 0, 32, 32 },
    { "s_sub_i32 " D32 ", " A32 ", " B32, r_sub_i32, 0, 32, 32 },
    { "s_addc_u32 " D32 ", " A32 ", " B32, r_addc_u32, 0, 32, 32 },
    { "s_subb_u32 " D32 ", " A32 ", " B32, r_subb_u32, 0, 32, 32 },
    { "s_min_i32 " D32 ", " A32 ", " B32, r_min_i32, 0, 32, 32 },
    { "s_min_u32 " D32 ", " A32 ", " B32, r_min_u32, 0, 32, 32 },
    { "s_max_i32 " D32 ", " A32 ", " B32, r_max_i32, 0, 32, 32 },
    { "s_max_u32 " D32 ", " A32 ", " B32, r_max_u32, 0, 32, 32 },
    { "s_cselect_b32 " D32 ", " A32 ", " B32, r_cselect_b32, 0, 32, 32 },
    { "s_cselect_b64 " D64 ", " A64 ", " B64, r_cselect_b64, 0, 64, 64 },
    { "s_and_b32 " D32 ", " A32 ", " B32, r_and_b32, 0, 32, 32 },
    { "s_and_b64 " D64 ", " A64 ", " B64, r_and_b64, 0, 64, 64 },
    { "s_or_b32 " D32 ", " A32 ", " B32, r_or_b32, 0, 32, 32 },
    { "s_or_b64 " D64 ", " A64 ", " B64, r_or_b64, 0, 64, 64 },
    { "s_xor_b32 " D32 ", " A32 ", " B32, r_xor_b32, 0, 32, 32 },
    { "s_xor_b64 " D64 ", " A64 ", " B64, r_xor_b64, 0, 64, 64 },
    { "s_andn2_b32 " D32 ", " A32 ", " B32, r_andn2_b32, 0, 32, 32 },
    { "s_andn2_b64 " D64 ", " A64 ", " B64, r_andn2_b64, 0, 64, 64 },
    { "s_orn2_b32 " D32 ", " A32 ", " B32, r_orn2_b32, 0, 32, 32 },
    { "s_orn2_b64 " D64 ", " A64 ", " B64, r_orn2_b64, 0, 64, 64 },
    { "s_nand_b32 " D32 ", " A32 ", " B32, r_nand_b32, 0, 32, 32 },
    { "s_nand_b64 " D64 ", " A64 ", " B64, r_nand_b64, 0, 64, 64 },
    { "s_nor_b32 " D32 ", " A32 ", " B32, r_nor_b32, 0, 32, 32 },
    { "s_nor_b64 " D64 ", " A64 ", " B64, r_nor_b64, 0, 64, 64 },
    { "s_xnor_b32 " D32 ", " A32 ", " B32, r_xnor_b32, 0, 32, 32 },
    { "s_xnor_b64 " D64 ", " A64 ", " B64, r_xnor_b64, 0, 64, 64 },
    { "s_lshl_b32 " D32 ", " A32 ", " B32, r_lshl_b32, 0, 32, 32 },
    { "s_lshl_b64 " D64 ", " A64 ", " B32, r_lshl_b64, 0, 64, 32 },
    { "s_lshr_b32 " D32 ", " A32 ", " B32, r_lshr_b32, 0, 32, 32 },
    { "s_lshr_b64 " D64 ", " A64 ", " B32, r_lshr_b64, 0, 64, 32 },
    { "s_ashr_i32 " D32 ", " A32 ", " B32, r_ashr_i32, 0, 32, 32 },
    { "s_ashr_i64 " D64 ", " A64 ", " B32, r_ashr_i64, 0, 64, 32 },
    { "s_bfm_b32 " D32 ", " A32 ", " B32, r_bfm_b32, 0, 32, 32 },
    { "s_bfm_b64 " D64 ", " A32 ", " B32, r_bfm_b64, 0, 32, 32 },
    { "s_mul_i32 " D32 ", " A32 ", " B32, r_mul_i32, 0, 32, 32 },
    { "s_bfe_u32 " D32 ", " A32 ", " B32, r_bfe_u32, 0, 32, 32 },
    { "s_bfe_i32 " D32 ", " A32 ", " B32, r_bfe_i32, 0, 32, 32 },
    { "s_bfe_u64 " D64 ", " A64 ", " B32, r_bfe_u64, 0, 64, 32 },
    { "s_bfe_i64 " D64 ", " A64 ", " B32, r_bfe_i64, 0, 64, 32 },
    { "s_absdiff_i32 " D32 ", " A32 ", " B32, r_absdiff_i32, 0, 32, 32 },
    { "s_mul_hi_u32 " D32 ", " A32 ", " B32, r_mul_hi_u32, 0, 32, 32 },
    { "s_mul_hi_i32 " D32 ", " A32 ", " B32, r_mul_hi_i32, 0, 32, 32 },
    { "s_lshl1_add_u32 " D32 ", " A32 ", " B32, r_lshl1_add_u32, 0, 32, 32 },
    { "s_lshl2_add_u32 " D32 ", " A32 ", " B32, r_lshl2_add_u32, 0, 32, 32 },
    { "s_lshl3_add_u32 " D32 ", " A32 ", " B32, r_lshl3_add_u32, 0, 32, 32 },
    { "s_lshl4_add_u32 " D32 ", " A32 ", " B32, r_lshl4_add_u32, 0, 32, 32 },
    { "s_pack_ll_b32_b16 " D32 ", " A32 ", " B32, r_pack_ll, 0, 32, 32 },
    { "s_pack_lh_b32_b16 " D32 ", " A32 ", " B32, r_pack_lh, 0, 32, 32 },
    { "s_pack_hh_b32_b16 " D32 ", " A32 ", " B32, r_pack_hh, 0, 32, 32 },
};

static const sop sop1_ops[] = {
    { "s_mov_b32 " D32 ", " A32, r_mov_b32, 0, 32, 32 },
    { "s_mov_b64 " D64 ", " A64, r_mov_b64, 0, 64, 32 },
    { "s_cmov_b32 " D32 ", " A32, r_cmov_b32, 0, 32, 32 },
    { "s_cmov_b64 " D64 ", " A64, r_cmov_b64, 0, 64, 32 },
    { "s_not_b32 " D32 ", " A32, r_not_b32, 0, 32, 32 },
    { "s_not_b64 " D64 ", " A64, r_not_b64, 0, 64, 32 },
    { "s_wqm_b32 " D32 ", " A32, r_wqm_b32, 0, 32, 32 },
    { "s_wqm_b64 " D64 ", " A64, r_wqm_b64, 0, 64, 32 },
    { "s_brev_b32 " D32 ", " A32, r_brev_b32, 0, 32, 32 },
    { "s_brev_b64 " D64 ", " A64, r_brev_b64, 0, 64, 32 },
    { "s_bcnt0_i32_b32 " D32 ", " A32, r_bcnt0_b32, 0, 32, 32 },
    { "s_bcnt0_i32_b64 " D32 ", " A64, r_bcnt0_b64, 0, 64, 32 },
    { "s_bcnt1_i32_b32 " D32 ", " A32, r_bcnt1_b32, 0, 32, 32 },
    { "s_bcnt1_i32_b64 " D32 ", " A64, r_bcnt1_b64, 0, 64, 32 },
    { "s_ff0_i32_b32 " D32 ", " A32, r_ff0_b32, 0, 32, 32 },
    { "s_ff0_i32_b64 " D32 ", " A64, r_ff0_b64, 0, 64, 32 },
    { "s_ff1_i32_b32 " D32 ", " A32, r_ff1_b32, 0, 32, 32 },
    { "s_ff1_i32_b64 " D32 ", " A64, r_ff1_b64, 0, 64, 32 },
    { "s_flbit_i32_b32 " D32 ", " A32, r_flbit_b32, 0, 32, 32 },
    { "s_flbit_i32_b64 " D32 ", " A64, r_flbit_b64, 0, 64, 32 },
    { "s_flbit_i32 " D32 ", " A32, r_flbit_i32, 0, 32, 32 },
    { "s_flbit_i32_i64 " D32 ", " A64, r_flbit_i64, 0, 64, 32 },
    { "s_sext_i32_i8 " D32 ", " A32, r_sext8, 0, 32, 32 },
    { "s_sext_i32_i16 " D32 ", " A32, r_sext16, 0, 32, 32 },
    { "s_bitset0_b32 " D32 ", " A32, r_bitset0_b32, 0, 32, 32 },
    { "s_bitset0_b64 " D64 ", " A32, r_bitset0_b64, 0, 32, 32 },
    { "s_bitset1_b32 " D32 ", " A32, r_bitset1_b32, 0, 32, 32 },
    { "s_bitset1_b64 " D64 ", " A32, r_bitset1_b64, 0, 32, 32 },
    { "s_and_saveexec_b64 " D64 ", " A64, r_and_saveexec, 0, 64, 32 },
    { "s_or_saveexec_b64 " D64 ", " A64, r_or_saveexec, 0, 64, 32 },
    { "s_xor_saveexec_b64 " D64 ", " A64, r_xor_saveexec, 0, 64, 32 },
    { "s_andn2_saveexec_b64 " D64 ", " A64, r_andn2_saveexec, 0, 64, 32 },
    { "s_orn2_saveexec_b64 " D64 ", " A64, r_orn2_saveexec, 0, 64, 32 },
    { "s_nand_saveexec_b64 " D64 ", " A64, r_nand_saveexec, 0, 64, 32 },
    { "s_nor_saveexec_b64 " D64 ", " A64, r_nor_saveexec, 0, 64, 32 },
    { "s_xnor_saveexec_b64 " D64 ", " A64, r_xnor_saveexec, 0, 64, 32 },
    { "s_andn1_saveexec_b64 " D64 ", " A64, r_andn1_saveexec, 0, 64, 32 },
    { "s_orn1_saveexec_b64 " D64 ", " A64, r_orn1_saveexec, 0, 64, 32 },
    { "s_andn1_wrexec_b64 " D64 ", " A64, r_andn1_wrexec, 0, 64, 32 },
    { "s_andn2_wrexec_b64 " D64 ", " A64, r_andn2_wrexec, 0, 64, 32 },
    { "s_quadmask_b32 " D32 ", " A32, r_quadmask_b32, 0, 32, 32 },
    { "s_quadmask_b64 " D64 ", " A64, r_quadmask_b64, 0, 64, 32 },
    { "s_abs_i32 " D32 ", " A32, r_abs_i32, 0, 32, 32 },
    { "s_set_gpr_idx_idx " A32, r_set_gpr_idx_idx, 0, 32, 32 },
    { "s_bitreplicate_b64_b32 " D64 ", " A32, r_bitreplicate, 0, 32, 32 },
};

static const sop sopc_ops[] = {
    { "s_cmp_eq_i32 " A32 ", " B32, c_eq_u32, 0, 32, 32 },
    { "s_cmp_lg_i32 " A32 ", " B32, c_lg_u32, 0, 32, 32 },
    { "s_cmp_gt_i32 " A32 ", " B32, c_gt_i32, 0, 32, 32 },
    { "s_cmp_ge_i32 " A32 ", " B32, c_ge_i32, 0, 32, 32 },
    { "s_cmp_lt_i32 " A32 ", " B32, c_lt_i32, 0, 32, 32 },
    { "s_cmp_le_i32 " A32 ", " B32, c_le_i32, 0, 32, 32 },
    { "s_cmp_eq_u32 " A32 ", " B32, c_eq_u32, 0, 32, 32 },
    { "s_cmp_lg_u32 " A32 ", " B32, c_lg_u32, 0, 32, 32 },
    { "s_cmp_gt_u32 " A32 ", " B32, c_gt_u32, 0, 32, 32 },
    { "s_cmp_ge_u32 " A32 ", " B32, c_ge_u32, 0, 32, 32 },
    { "s_cmp_lt_u32 " A32 ", " B32, c_lt_u32, 0, 32, 32 },
    { "s_cmp_le_u32 " A32 ", " B32, c_le_u32, 0, 32, 32 },
    { "s_cmp_eq_u64 " A64 ", " B64, c_eq_u64, 0, 64, 64 },
    { "s_cmp_lg_u64 " A64 ", " B64, c_lg_u64, 0, 64, 64 },
    { "s_bitcmp0_b32 " A32 ", " B32, c_bitcmp0_b32, 0, 32, 32 },
    { "s_bitcmp1_b32 " A32 ", " B32, c_bitcmp1_b32, 0, 32, 32 },
    { "s_bitcmp0_b64 " A64 ", " B32, c_bitcmp0_b64, 0, 64, 32 },
    { "s_bitcmp1_b64 " A64 ", " B32, c_bitcmp1_b64, 0, 64, 32 },
};

static const sop sopk_ops[] = {
    { "s_movk_i32 " D32, k_movk, IMM_S16, 32, 32 },
    { "s_cmovk_i32 " D32, k_cmovk, IMM_S16, 32, 32 },
    { "s_addk_i32 " D32, k_addk, IMM_S16, 32, 32 },
    { "s_mulk_i32 " D32, k_mulk, IMM_S16, 32, 32 },
    { "s_cmpk_eq_i32 " A32, k_eq_i32, IMM_S16, 32, 32 },
    { "s_cmpk_lg_i32 " A32, k_lg_i32, IMM_S16, 32, 32 },
    { "s_cmpk_gt_i32 " A32, k_gt_i32, IMM_S16, 32, 32 },
    { "s_cmpk_ge_i32 " A32, k_ge_i32, IMM_S16, 32, 32 },
    { "s_cmpk_lt_i32 " A32, k_lt_i32, IMM_S16, 32, 32 },
    { "s_cmpk_le_i32 " A32, k_le_i32, IMM_S16, 32, 32 },
    { "s_cmpk_eq_u32 " A32, k_eq_u32, IMM_U16, 32, 32 },
    { "s_cmpk_lg_u32 " A32, k_lg_u32, IMM_U16, 32, 32 },
    { "s_cmpk_gt_u32 " A32, k_gt_u32, IMM_U16, 32, 32 },
    { "s_cmpk_ge_u32 " A32, k_ge_u32, IMM_U16, 32, 32 },
    { "s_cmpk_lt_u32 " A32, k_lt_u32, IMM_U16, 32, 32 },
    { "s_cmpk_le_u32 " A32, k_le_u32, IMM_U16, 32, 32 },
};

static const sop sopp_ops[] = {
    { "s_set_gpr_idx_mode 10", p_gpr_idx_mode, 0, 32, 32 },
    { "s_wakeup", p_none, 0, 32, 32 },
    { "s_icache_inv", p_none, 0, 32, 32 },
    { "s_incperflevel 3", p_none, 0, 32, 32 },
    { "s_decperflevel 3", p_none, 0, 32, 32 },
    { "s_ttracedata", p_none, 0, 32, 32 },
    { "s_set_gpr_idx_off", p_none, 0, 32, 32 },
};

static void run_table(const sop *ops, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        check_op(&ops[i]);
    ut_context("%s", "");
}

static void sop2_all(void) { run_table(sop2_ops, sizeof(sop2_ops) / sizeof(sop2_ops[0])); }
static void sop1_all(void) { run_table(sop1_ops, sizeof(sop1_ops) / sizeof(sop1_ops[0])); }
static void sopc_all(void) { run_table(sopc_ops, sizeof(sopc_ops) / sizeof(sopc_ops[0])); }
static void sopk_all(void) { run_table(sopk_ops, sizeof(sopk_ops) / sizeof(sopk_ops[0])); }
static void sopp_hints(void) { run_table(sopp_ops, sizeof(sopp_ops) / sizeof(sopp_ops[0])); }

/* Signed bit-field extracts with wide fields: bits above the value are copies of
   its sign (the ISA's arithmetic shift); every offset and width on a few values. */
static void bfe_signed_fields(void)
{
    static const uint64_t vals[] = { 0x80000000ull, 0x7FFFFFFFull, 0xF00000F0ull, 0x8000000000000000ull,
                                     0x00000000FFFFFFFFull, 0xA5A5A5A55A5A5A5Aull };
    for (unsigned bits = 32; bits <= 64; bits += 32) {
        sop op = { bits == 32 ? "s_bfe_i32 " D32 ", " A32 ", " B32 : "s_bfe_i64 " D64 ", " A64 ", " B32,
                   bits == 32 ? r_bfe_i32 : r_bfe_i64, 0, bits, 32 };
        cin cs[NCASES];
        cout got[NCASES];
        make_cases(cs, &op);
        for (unsigned i = 0; i < NCASES; i++) {
            cs[i].a = vals[i % 6] & (bits == 32 ? 0xFFFFFFFFull : ~0ull);
            cs[i].b = (i * 7) % bits | ((i * 13) % (bits + 8)) << 16;
        }
        ut_context("%s", op.line);
        if (!run_cases(&op, cs, got))
            continue;
        for (unsigned i = 0; i < NCASES; i++) {
            cout want = { cs[i].old, cs[i].scc, cs[i].m0, cs[i].exec };
            op.ref(&cs[i], &want);
            CHECK_MSG(got[i].d == want.d && got[i].scc == want.scc,
                      "%s 0x%llx ctl 0x%llx: 0x%llx, want 0x%llx", op.line,
                      (unsigned long long)cs[i].a, (unsigned long long)cs[i].b,
                      (unsigned long long)got[i].d, (unsigned long long)want.d);
        }
    }
    ut_context("%s", "");
}

/* Immediate sources of 64-bit operations: an inline integer is the 64-bit value,
   an inline float the double (also written as its bit pattern), a 32-bit literal
   below 2^31 the value; a literal with bit 31 set (0x87654321, or -100000 whose
   low half it is) is refused: the hardware's extension is not documented. */
static void immediates_64bit(void)
{
    static const struct {
        const char *src;
        uint64_t want;
    } cs[] = {
        { "-1", ~0ull }, { "64", 64 }, { "-16", (uint64_t)-16ll }, { "1.0", 0x3FF0000000000000ull },
        { "-0.5", 0xBFE0000000000000ull }, { "0x12345678", 0x12345678ull },
        { "0x3ff0000000000000", 0x3FF0000000000000ull }, { "0x7fffffff", 0x7FFFFFFFull },
    };
    for (unsigned i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
        char line[96];
        snprintf(line, sizeof(line), "s_mov_b64 " D64 ", %s", cs[i].src);
        sop op = { line, r_mov_b64, 0, 64, 64 };
        cin c[NCASES];
        cout got[NCASES];
        make_cases(c, &op);
        ut_context("%s", line);
        if (run_cases(&op, c, got))
            CHECK_EQ_HEX(got[0].d, cs[i].want);
    }
    ut_context("%s", "");
    static const char *const refused[] = { "0x87654321", "-100000", "0xffffffff" };
    for (unsigned i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        ut_tb t = { 0 };
        head(&t);
        ut_tb_printf(&t, "  s_mov_b64 s[8:9], %s\n  s_endpgm\n.end_kernel\n", refused[i]);
        uint32_t in[4] = { 0 }, out[4] = { 0 };
        char diag[512];
        ut_context("%s", refused[i]);
        CHECK_STATUS(run_text(t.s, in, sizeof(in), out, sizeof(out), 1, diag, sizeof(diag)),
                     WA_E_UNSUPPORTED);
        CHECK_STR_CONTAINS(diag, "bit 31");
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* SCC reads of the conditional moves and selects with SCC undefined produce an
   undefined result (seen as an error when the result feeds an address). */
static void scc_undefined_reads(void)
{
    ut_tb t = { 0 };
    head(&t);
    ut_tb_printf(&t, "  s_mov_b32 s8, 0\n  s_cselect_b32 s9, s8, 4\n"
                  "  s_load_dword s10, s[4:5], s9\n  s_endpgm\n.end_kernel\n");
    uint32_t in[4] = { 0 }, out[4] = { 0 };
    char diag[512];
    wa_status st = run_text(t.s, in, sizeof(in), out, sizeof(out), 1, diag, sizeof(diag));
    CHECK_STATUS(st, WA_E_SIM_FAULT);
    CHECK_STR_CONTAINS(diag, "undefined");
    ut_tb_free(&t);
}

/* The debugger's branches are not taken; the sleep hint and priorities run. */
static void sopp_debug_branches(void)
{
    static const char *const br[] = { "s_cbranch_cdbgsys", "s_cbranch_cdbguser",
                                      "s_cbranch_cdbgsys_or_user", "s_cbranch_cdbgsys_and_user" };
    for (unsigned i = 0; i < 4; i++) {
        ut_tb t = { 0 };
        head(&t);
        ut_tb_printf(&t, "  v_mov_b32 v1, 0\n  v_mov_b32 v2, 1\n  %s skip\n  v_mov_b32 v2, 2\n"
                      "skip:\n  global_store_dword v1, v2, s[6:7]\n  s_endpgm\n.end_kernel\n",
                  br[i]);
        uint32_t in[1] = { 0 }, out[1] = { 0 };
        ut_context("%s", br[i]);
        CHECK_OK(run_text(t.s, in, sizeof(in), out, sizeof(out), 1, NULL, 0));
        CHECK_EQ_HEX(out[0], 2); /* fell through */
        ut_tb_free(&t);
    }
    ut_context("%s", "");
}

/* The opcodes the simulator leaves out stop the run with WA_E_UNSUPPORTED and the
   reason wa_sim_unsupported gives; every other SALU/SOPP opcode has semantics. */
static void unsupported_ops(void)
{
    static const struct {
        const char *line;
        wa_opcode op;
        const char *word;
    } cs[] = {
        { "s_getpc_b64 s[8:9]", WA_OP_S_GETPC_B64, "code addresses" },
        { "s_setpc_b64 s[8:9]", WA_OP_S_SETPC_B64, "code addresses" },
        { "s_swappc_b64 s[8:9], s[10:11]", WA_OP_S_SWAPPC_B64, "code addresses" },
        { "s_call_b64 s[8:9], done", WA_OP_S_CALL_B64, "code addresses" },
        { "s_cbranch_join s8", WA_OP_S_CBRANCH_JOIN, "fork/join" },
        { "s_cbranch_g_fork s[8:9], s[10:11]", WA_OP_S_CBRANCH_G_FORK, "fork/join" },
        { "s_cbranch_i_fork s[8:9], done", WA_OP_S_CBRANCH_I_FORK, "fork/join" },
        { "s_setvskip s8, s9", WA_OP_S_SETVSKIP, "VSKIP" },
        { "s_set_gpr_idx_on s8, 1", WA_OP_S_SET_GPR_IDX_ON, "index mode" },
        { "s_sethalt 1", WA_OP_S_SETHALT, "halting" },
        { "s_trap 2", WA_OP_S_TRAP, "trap handler" },
        { "s_sendmsg 1", WA_OP_S_SENDMSG, "messages" },
        { "s_sendmsghalt 1", WA_OP_S_SENDMSGHALT, "messages" },
    };
    for (unsigned i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
        const char *why = wa_sim_unsupported(cs[i].op);
        ut_context("%s", cs[i].line);
        if (!CHECK(why != NULL))
            continue;
        CHECK_STR_CONTAINS(why, cs[i].word);
        ut_tb t = { 0 };
        head(&t);
        ut_tb_printf(&t, "  s_mov_b64 s[8:9], 0\n  s_mov_b64 s[10:11], 0\n  %s\ndone:\n  s_endpgm\n"
                      ".end_kernel\n", cs[i].line);
        uint32_t in[1] = { 0 }, out[1] = { 0 };
        char diag[512];
        CHECK_STATUS(run_text(t.s, in, sizeof(in), out, sizeof(out), 1, diag, sizeof(diag)),
                     WA_E_UNSUPPORTED);
        CHECK_STR_CONTAINS(diag, why);
        ut_tb_free(&t);
    }
    /* everything else of these formats is executed */
    unsigned left_out = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if (info->format != WA_FMT_SOP1 && info->format != WA_FMT_SOP2 &&
            info->format != WA_FMT_SOPK && info->format != WA_FMT_SOPC && info->format != WA_FMT_SOPP)
            continue;
        if (wa_sim_unsupported(op))
            left_out++;
    }
    CHECK_EQ_UINT(left_out, sizeof(cs) / sizeof(cs[0]));
    ut_context("%s", "");
}

UT_SUITE(UT_CASE(sop2_all) UT_CASE(sop1_all) UT_CASE(sopc_all) UT_CASE(sopk_all)
         UT_CASE(sopp_hints) UT_CASE(bfe_signed_fields) UT_CASE(immediates_64bit)
         UT_CASE(scc_undefined_reads) UT_CASE(sopp_debug_branches) UT_CASE(unsupported_ops));
