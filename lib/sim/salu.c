/* lib/sim/salu.c — scalar ALU semantics (SOP1, SOP2, SOPK, SOPC).

   Every opcode follows the pseudo-code of AMD's Vega/CDNA ISA descriptions: the
   result, and SCC where the instruction writes it (carry or borrow for unsigned
   arithmetic, signed overflow for the signed add/sub, the comparison for min/max,
   "result != 0" for logic, shifts, bit-field extracts, counts, quad masks and the
   saveexec forms). Bitwise functions are not written out per opcode: the ISA
   table's truth table (WA_LOGIC, wa_isa_logic) drives one routine. A result is
   defined when every value it reads is.

   Not executed (sim_salu_why_not): code addresses and fork/join (s_getpc/setpc/
   swappc, s_call, s_cbranch_g_fork/i_fork/join: the simulator has no code
   addresses), VSKIP and VGPR index mode (s_setvskip, s_set_gpr_idx_on change how
   later vector instructions execute). */
#include "sim_internal.h"

#include <string.h>

/* ---- access helpers -------------------------------------------------------------------- */

static void set_scc(sim_ctx *c, int v, int def)
{
    c->w->scc = v != 0;
    c->w->scc_def = (uint8_t)(def != 0);
}

/* A 64-bit scalar source: registers, or an immediate (inline constants are
   64-bit values, f64 for a float). A 32-bit literal is the low half of the
   value; whether the hardware sign- or zero-extends it is not documented (LLVM
   22 encodes 0x87654321 and 0xffffffff87654321 alike), so a literal with bit 31
   set stops the run with WA_E_UNSUPPORTED instead of guessing. */
static uint64_t read64(sim_ctx *c, unsigned k, int *def)
{
    const wa_operand *o = &c->in->ops[k];
    if (o->kind == WA_OPND_FIMM) {
        double d = o->imm.f;
        uint64_t u;
        memcpy(&u, &d, sizeof(u));
        *def = wa_imm_is_inline(o, WA_TY_F64);
        return u;
    }
    if (o->kind == WA_OPND_IMM) {
        *def = 1;
        if (wa_imm_is_inline(o, WA_TY_B64))
            return (uint64_t)o->imm.i;
        uint32_t lo = (uint32_t)o->imm.i;
        if (lo & 0x80000000u) {
            sim_fail(c, WA_E_UNSUPPORTED,
                     "%s: the 32-bit literal 0x%08x in a 64-bit position has bit 31 set; whether "
                     "the hardware sign- or zero-extends it is not documented",
                     c->info->mnemonic, (unsigned)lo);
            *def = 0;
            return 0;
        }
        return lo;
    }
    return sim_read_s64(c, k, def);
}

static uint32_t read32(sim_ctx *c, unsigned k, int *def)
{
    return sim_read_s(c, k, 0, def);
}

/* The 16-bit immediate of SOPK rows. */
static uint32_t simm16(const sim_ctx *c, unsigned k, int sign)
{
    uint16_t v = (uint16_t)c->in->ops[k].imm.i;
    return sign ? (uint32_t)(int32_t)(int16_t)v : v;
}

static int is64(const sim_ctx *c, unsigned k)
{
    return c->info->operands[k].size == 2;
}

/* ---- bitwise functions from the table --------------------------------------------------------- */

static uint64_t apply_logic(unsigned logic, uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    if (WA_LOGIC_BIT(logic, 0, 0))
        r |= ~a & ~b;
    if (WA_LOGIC_BIT(logic, 0, 1))
        r |= ~a & b;
    if (WA_LOGIC_BIT(logic, 1, 0))
        r |= a & ~b;
    if (WA_LOGIC_BIT(logic, 1, 1))
        r |= a & b;
    return r;
}

/* s_and/or/xor/andn2/orn2/nand/nor/xnor (SOP2), s_not (SOP1): D = f(src0, src1),
   SCC = D != 0. s_mov is a copy and leaves SCC alone. */
static void op_logic(sim_ctx *c)
{
    unsigned logic = wa_isa_logic(c->in->op);
    int w64 = is64(c, 0), binary = c->info->num_operands == 3, da, db = 1;
    uint64_t a = w64 ? read64(c, 1, &da) : read32(c, 1, &da), b = 0;
    if (binary)
        b = w64 ? read64(c, 2, &db) : read32(c, 2, &db);
    uint64_t r = apply_logic(logic, a, b);
    if (!w64)
        r &= 0xFFFFFFFFu;
    int def = da && db;
    if (w64)
        sim_write_s64(c, 0, r, def);
    else
        sim_write_s(c, 0, 0, (uint32_t)r, def);
    if (c->info->implicit_defs & WA_IMPL_SCC)
        set_scc(c, r != 0, def);
}

/* saveexec / wrexec: EXEC = f(src0, EXEC); sdst = the old EXEC (saveexec) or the
   new one (wrexec); SCC = EXEC != 0. */
static void op_saveexec(sim_ctx *c)
{
    unsigned logic = wa_isa_logic(c->in->op);
    int ds;
    uint64_t s = read64(c, 1, &ds);
    if (sim_failed(c))
        return;
    sim_wave *w = c->w;
    uint64_t old = w->exec;
    int old_def = w->exec_def;
    uint64_t nv = apply_logic(logic, s, old);
    int def = ds && old_def;
    if (logic & WA_LOGIC_WREXEC)
        sim_write_s64(c, 0, nv, def);
    else
        sim_write_s64(c, 0, old, old_def);
    w->exec = nv;
    w->exec_def = (uint8_t)def;
    set_scc(c, nv != 0, def);
}

/* ---- SOP1 ------------------------------------------------------------------------------------ */

static void op_mov(sim_ctx *c)
{
    int d;
    if (is64(c, 0)) {
        uint64_t v = read64(c, 1, &d);
        sim_write_s64(c, 0, v, d);
    } else {
        uint32_t v = read32(c, 1, &d);
        sim_write_s(c, 0, 0, v, d);
    }
}

/* s_cmov: sdst = src0 if SCC, else unchanged. */
static void op_cmov(sim_ctx *c)
{
    int d, dold;
    sim_wave *w = c->w;
    if (is64(c, 0)) {
        uint64_t v = read64(c, 1, &d), old = read64(c, 0, &dold);
        sim_write_s64(c, 0, w->scc ? v : old, w->scc_def && (w->scc ? d : dold));
    } else {
        uint32_t v = read32(c, 1, &d), old = read32(c, 0, &dold);
        sim_write_s(c, 0, 0, w->scc ? v : old, w->scc_def && (w->scc ? d : dold));
    }
}

static unsigned popcount64(uint64_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* Index of the highest set bit counted from the top (bits-1 - position), or -1. */
static uint32_t leading_zeros(uint64_t v, unsigned bits)
{
    if (!v)
        return 0xFFFFFFFFu;
    unsigned n = 0;
    for (uint64_t top = 1ull << (bits - 1); !(v & top); top >>= 1)
        n++;
    return n;
}

/* One-source operations on 32 or 64 bits (src0 width from the table): the result
   (the destination's width) and whether SCC = result != 0 is written. */
typedef uint64_t (*un_fn)(uint64_t a, unsigned bits);

static void s_unary(sim_ctx *c, un_fn f)
{
    int d;
    int s64 = is64(c, 1), d64 = is64(c, 0);
    uint64_t a = s64 ? read64(c, 1, &d) : read32(c, 1, &d);
    uint64_t r = f(a, s64 ? 64u : 32u);
    if (!d64)
        r &= 0xFFFFFFFFu;
    if (d64)
        sim_write_s64(c, 0, r, d);
    else
        sim_write_s(c, 0, 0, (uint32_t)r, d);
    if (c->info->implicit_defs & WA_IMPL_SCC)
        set_scc(c, r != 0, d);
}

static uint64_t f_wqm(uint64_t a, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned q = 0; q < bits; q += 4)
        if ((a >> q) & 0xFu)
            r |= 0xFull << q;
    return r;
}
static uint64_t f_brev(uint64_t a, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        if (a >> i & 1u)
            r |= 1ull << (bits - 1 - i);
    return r;
}
static uint64_t mask_bits(unsigned bits) { return bits == 64 ? ~0ull : (1ull << bits) - 1u; }
static uint64_t f_bcnt0(uint64_t a, unsigned bits) { return popcount64(~a & mask_bits(bits)); }
static uint64_t f_bcnt1(uint64_t a, unsigned bits) { return popcount64(a & mask_bits(bits)); }
static uint64_t first_set(uint64_t v)
{
    if (!v)
        return 0xFFFFFFFFu;
    unsigned i = 0;
    while (!(v >> i & 1u))
        i++;
    return i;
}
static uint64_t f_ff0(uint64_t a, unsigned bits) { return first_set(~a & mask_bits(bits)); }
static uint64_t f_ff1(uint64_t a, unsigned bits) { return first_set(a & mask_bits(bits)); }
static uint64_t f_flbit(uint64_t a, unsigned bits) { return leading_zeros(a, bits); }
/* signed: the first bit from the top that differs from the sign bit; -1 for 0 and -1 */
static uint64_t f_flbit_signed(uint64_t a, unsigned bits)
{
    uint64_t x = (a >> (bits - 1) & 1u) ? ~a & mask_bits(bits) : a;
    return leading_zeros(x, bits);
}
static uint64_t f_sext8(uint64_t a, unsigned bits) { (void)bits; return (uint32_t)(int32_t)(int8_t)(uint8_t)a; }
static uint64_t f_sext16(uint64_t a, unsigned bits) { (void)bits; return (uint32_t)(int32_t)(int16_t)(uint16_t)a; }
static uint64_t f_quadmask(uint64_t a, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned q = 0; q < bits / 4; q++)
        if ((a >> (4 * q)) & 0xFu)
            r |= 1ull << q;
    return r;
}
static uint64_t f_abs(uint64_t a, unsigned bits)
{
    (void)bits;
    int32_t v = (int32_t)(uint32_t)a;
    return v < 0 ? (uint32_t)0 - (uint32_t)v : (uint32_t)v;
}
static uint64_t f_bitreplicate(uint64_t a, unsigned bits)
{
    (void)bits;
    uint64_t r = 0;
    for (unsigned i = 0; i < 32; i++)
        if (a >> i & 1u)
            r |= 3ull << (2 * i);
    return r;
}

#define SUN(name, f) \
    static void op_##name(sim_ctx *c) { s_unary(c, f); }
SUN(wqm, f_wqm)
SUN(brev, f_brev)
SUN(bcnt0, f_bcnt0)
SUN(bcnt1, f_bcnt1)
SUN(ff0, f_ff0)
SUN(ff1, f_ff1)
SUN(flbit, f_flbit)
SUN(flbit_signed, f_flbit_signed)
SUN(sext8, f_sext8)
SUN(sext16, f_sext16)
SUN(quadmask, f_quadmask)
SUN(abs, f_abs)
SUN(bitreplicate, f_bitreplicate)

/* s_bitset0/1: sdst[src0] = 0/1 (bit index src0[4:0], [5:0] for 64-bit sdst). */
static void bitset(sim_ctx *c, int one)
{
    int di, dold;
    uint32_t idx = read32(c, 1, &di);
    if (is64(c, 0)) {
        uint64_t old = read64(c, 0, &dold), bit = 1ull << (idx & 63u);
        sim_write_s64(c, 0, one ? old | bit : old & ~bit, di && dold);
    } else {
        uint32_t old = read32(c, 0, &dold), bit = 1u << (idx & 31u);
        sim_write_s(c, 0, 0, one ? old | bit : old & ~bit, di && dold);
    }
}
static void op_bitset0(sim_ctx *c) { bitset(c, 0); }
static void op_bitset1(sim_ctx *c) { bitset(c, 1); }

/* s_set_gpr_idx_idx: M0[7:0] = src0[7:0] (the VGPR index); the other M0 bits stay. */
static void op_set_gpr_idx_idx(sim_ctx *c)
{
    int d;
    uint32_t v = read32(c, 0, &d);
    sim_wave *w = c->w;
    w->m0 = (w->m0 & ~0xFFu) | (v & 0xFFu);
    w->m0_def = (uint8_t)(w->m0_def && d);
}

/* ---- SOP2 ------------------------------------------------------------------------------------ */

/* 32-bit two-source operations: result and SCC (when the row writes it). */
typedef uint32_t (*bin_fn)(uint32_t a, uint32_t b, int scc_in, int *scc_out);

static void s_bin(sim_ctx *c, bin_fn f)
{
    int da, db;
    uint32_t a = read32(c, 1, &da);
    uint32_t b = read32(c, 2, &db);
    int reads_scc = (c->info->implicit_uses & WA_IMPL_SCC) != 0;
    int def = da && db && (!reads_scc || c->w->scc_def);
    int scc = c->w->scc;
    uint32_t r = f(a, b, c->w->scc, &scc);
    sim_write_s(c, 0, 0, r, def);
    if (c->info->implicit_defs & WA_IMPL_SCC)
        set_scc(c, scc, def);
}

#define I32(x) ((int32_t)(x))
#define SBIN(name, expr, sccexpr)                                                  \
    static uint32_t fn_##name(uint32_t a, uint32_t b, int si, int *so)             \
    {                                                                              \
        uint32_t r = (expr);                                                       \
        (void)si;                                                                  \
        *so = (sccexpr);                                                           \
        return r;                                                                  \
    }                                                                              \
    static void op_##name(sim_ctx *c) { s_bin(c, fn_##name); }
SBIN(add_u32, a + b, r < a)
SBIN(sub_u32, a - b, a < b)
SBIN(add_i32, a + b, ((~(a ^ b) & (a ^ r)) >> 31) != 0)
SBIN(sub_i32, a - b, (((a ^ b) & (a ^ r)) >> 31) != 0)
SBIN(addc_u32, a + b + (uint32_t)si, ((uint64_t)a + b + (uint64_t)si) >> 32 != 0)
SBIN(subb_u32, a - b - (uint32_t)si, (uint64_t)a < (uint64_t)b + (uint64_t)si)
SBIN(min_i32, I32(a) < I32(b) ? a : b, I32(a) < I32(b))
SBIN(min_u32, a < b ? a : b, a < b)
SBIN(max_i32, I32(a) > I32(b) ? a : b, I32(a) > I32(b))
SBIN(max_u32, a > b ? a : b, a > b)
SBIN(cselect_b32, si ? a : b, si)
SBIN(lshl_b32, a << (b & 31), r != 0)
SBIN(lshr_b32, a >> (b & 31), r != 0)
SBIN(ashr_i32, (uint32_t)(I32(a) >> (b & 31)), r != 0)
SBIN(bfm_b32, ((1u << (a & 31)) - 1u) << (b & 31), si)
SBIN(mul_i32, a * b, si)
SBIN(absdiff_i32, I32(a - b) < 0 ? (uint32_t)0 - (a - b) : a - b, r != 0)
SBIN(mul_hi_u32, (uint32_t)(((uint64_t)a * b) >> 32), si)
SBIN(mul_hi_i32, (uint32_t)((uint64_t)((int64_t)I32(a) * (int64_t)I32(b)) >> 32), si)
SBIN(lshl1_add_u32, (a << 1) + b, (((uint64_t)a << 1) + b) >> 32 != 0)
SBIN(lshl2_add_u32, (a << 2) + b, (((uint64_t)a << 2) + b) >> 32 != 0)
SBIN(lshl3_add_u32, (a << 3) + b, (((uint64_t)a << 3) + b) >> 32 != 0)
SBIN(lshl4_add_u32, (a << 4) + b, (((uint64_t)a << 4) + b) >> 32 != 0)
SBIN(pack_ll, (b & 0xFFFFu) << 16 | (a & 0xFFFFu), si)
SBIN(pack_lh, (b & 0xFFFF0000u) | (a & 0xFFFFu), si)
SBIN(pack_hh, (b & 0xFFFF0000u) | (a >> 16), si)

/* Bit-field extract: offset src1[4:0] ([5:0] for 64 bits), width src1[22:16]. The
   unsigned forms shift in zeros; the signed ones shift arithmetically and
   sign-extend the field from its top bit. Width 0 gives 0. */
static uint64_t bfe64(uint64_t v, uint32_t ctl, unsigned bits, int sign)
{
    unsigned off = ctl & (bits - 1u), width = (ctl >> 16) & 0x7Fu;
    if (!width)
        return 0;
    uint64_t r;
    if (sign) {
        int64_t x = bits == 32 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
        r = (uint64_t)(x >> off);
    } else {
        r = v >> off;
    }
    if (width < bits) {
        r &= (1ull << width) - 1u;
        if (sign && (r >> (width - 1) & 1u))
            r |= ~((1ull << width) - 1u);
    }
    return bits == 32 ? r & 0xFFFFFFFFu : r;
}
SBIN(bfe_u32, (uint32_t)bfe64(a, b, 32, 0), r != 0)
SBIN(bfe_i32, (uint32_t)bfe64(a, b, 32, 1), r != 0)

/* 64-bit sources in src0 (and src1 when it is 64-bit too), a 64-bit result. */
typedef uint64_t (*bin64_fn)(uint64_t a, uint64_t b, int scc_in);

static void s_bin64(sim_ctx *c, bin64_fn f)
{
    int da, db;
    uint64_t a = is64(c, 1) ? read64(c, 1, &da) : read32(c, 1, &da);
    uint64_t b = is64(c, 2) ? read64(c, 2, &db) : read32(c, 2, &db);
    int reads_scc = (c->info->implicit_uses & WA_IMPL_SCC) != 0;
    int def = da && db && (!reads_scc || c->w->scc_def);
    uint64_t r = f(a, b, c->w->scc);
    sim_write_s64(c, 0, r, def);
    if (c->info->implicit_defs & WA_IMPL_SCC)
        set_scc(c, r != 0, def);
}

#define SBIN64(name, expr)                                                     \
    static uint64_t fn_##name(uint64_t a, uint64_t b, int si)                  \
    {                                                                          \
        (void)si;                                                              \
        return (expr);                                                         \
    }                                                                          \
    static void op_##name(sim_ctx *c) { s_bin64(c, fn_##name); }
SBIN64(cselect_b64, si ? a : b)
SBIN64(lshl_b64, a << (b & 63))
SBIN64(lshr_b64, a >> (b & 63))
SBIN64(ashr_i64, (uint64_t)((int64_t)a >> (b & 63)))
SBIN64(bfm_b64, ((1ull << (a & 63)) - 1u) << (b & 63))
SBIN64(bfe_u64, bfe64(a, (uint32_t)b, 64, 0))
SBIN64(bfe_i64, bfe64(a, (uint32_t)b, 64, 1))

/* ---- SOPK ------------------------------------------------------------------------------------ */

static void op_movk(sim_ctx *c) { sim_write_s(c, 0, 0, simm16(c, 1, 1), 1); }

static void op_cmovk(sim_ctx *c)
{
    int dold;
    sim_wave *w = c->w;
    uint32_t old = read32(c, 0, &dold);
    sim_write_s(c, 0, 0, w->scc ? simm16(c, 1, 1) : old, w->scc_def && (w->scc || dold));
}

static void op_addk(sim_ctx *c)
{
    int d;
    uint32_t a = read32(c, 0, &d), b = simm16(c, 1, 1), r = a + b;
    sim_write_s(c, 0, 0, r, d);
    set_scc(c, ((~(a ^ b) & (a ^ r)) >> 31) != 0, d);
}

static void op_mulk(sim_ctx *c)
{
    int d;
    uint32_t a = read32(c, 0, &d);
    sim_write_s(c, 0, 0, a * simm16(c, 1, 1), d);
}

/* ---- compares (SOPC, SOPK) -------------------------------------------------------------------- */

typedef int (*cmp_fn)(uint64_t a, uint64_t b);

/* SCC = f(src0, src1); SOPK compares take the immediate (sign- or zero-extended). */
static void s_cmp(sim_ctx *c, cmp_fn f, int sopk_sign)
{
    int da, db = 1;
    uint64_t a = is64(c, 0) ? read64(c, 0, &da) : read32(c, 0, &da), b;
    if (c->info->format == WA_FMT_SOPK)
        b = simm16(c, 1, sopk_sign);
    else
        b = is64(c, 1) ? read64(c, 1, &db) : read32(c, 1, &db);
    set_scc(c, f(a, b), da && db);
}

#define SI(x) ((int32_t)(uint32_t)(x))
#define SCMP(name, sign, expr)                                               \
    static int fn_c_##name(uint64_t a, uint64_t b) { return (expr); }       \
    static void op_c_##name(sim_ctx *c) { s_cmp(c, fn_c_##name, sign); }
SCMP(eq_i32, 1, (uint32_t)a == (uint32_t)b)
SCMP(lg_i32, 1, (uint32_t)a != (uint32_t)b)
SCMP(gt_i32, 1, SI(a) > SI(b))
SCMP(ge_i32, 1, SI(a) >= SI(b))
SCMP(lt_i32, 1, SI(a) < SI(b))
SCMP(le_i32, 1, SI(a) <= SI(b))
SCMP(eq_u32, 0, (uint32_t)a == (uint32_t)b)
SCMP(lg_u32, 0, (uint32_t)a != (uint32_t)b)
SCMP(gt_u32, 0, (uint32_t)a > (uint32_t)b)
SCMP(ge_u32, 0, (uint32_t)a >= (uint32_t)b)
SCMP(lt_u32, 0, (uint32_t)a < (uint32_t)b)
SCMP(le_u32, 0, (uint32_t)a <= (uint32_t)b)
SCMP(eq_u64, 0, a == b)
SCMP(lg_u64, 0, a != b)
SCMP(bitcmp0_b32, 0, !((a >> (b & 31)) & 1u))
SCMP(bitcmp1_b32, 0, (a >> (b & 31)) & 1u)
SCMP(bitcmp0_b64, 0, !((a >> (b & 63)) & 1u))
SCMP(bitcmp1_b64, 0, (a >> (b & 63)) & 1u)
#undef SI

/* ---- hardware registers ------------------------------------------------------------------------

   MODE is kept per wave (SIM_MODE_DEFAULT at the start); s_setreg may change its
   float bits, after which float instructions stop with WA_E_UNSUPPORTED until
   the default is restored (machine.c). STATUS is read-only here and modelled in
   the bits the wave's state defines: SCC (0), EXECZ (9), VCCZ (10) and VALID
   (16); a read of any other STATUS bit, of another register, or a write to
   anything but MODE is reported as unsupported rather than invented. */
#define STATUS_MODELLED 0x00010601u

static void op_getreg(sim_ctx *c)
{
    unsigned field = (unsigned)c->in->ops[1].imm.i;
    unsigned id = WA_HWREG_ID(field), off = WA_HWREG_OFFSET(field), size = WA_HWREG_SIZE(field);
    uint64_t mask = ((1ull << size) - 1u) << off;
    sim_wave *w = c->w;
    uint32_t v;
    int def = 1;
    if (id == WA_HWREG_MODE) {
        v = w->mode;
    } else if (id == WA_HWREG_STATUS && !(mask & ~(uint64_t)STATUS_MODELLED)) {
        v = (uint32_t)(w->scc != 0) | (uint32_t)(w->exec == 0) << 9 | (uint32_t)(w->vcc == 0) << 10 |
            1u << 16;
        def = (!(mask & 1u) || w->scc_def) && (!(mask & 0x200u) || w->exec_def) &&
              (!(mask & 0x400u) || w->vcc_def);
    } else {
        sim_fail(c, WA_E_UNSUPPORTED, "s_getreg_b32: hwreg id %u bits %u..%u are not modelled", id,
                 off, off + size - 1 > 31 ? 31 : off + size - 1);
        return;
    }
    sim_write_s(c, 0, 0, (uint32_t)(((uint64_t)v & mask) >> off), def);
}

static void op_setreg(sim_ctx *c)
{
    unsigned field = (unsigned)c->in->ops[0].imm.i;
    unsigned id = WA_HWREG_ID(field), off = WA_HWREG_OFFSET(field), size = WA_HWREG_SIZE(field);
    uint32_t mask = (uint32_t)(((1ull << size) - 1u) << off);
    int def = 1;
    uint32_t v = c->in->ops[1].kind == WA_OPND_IMM ? (uint32_t)c->in->ops[1].imm.i
                                                   : sim_read_s(c, 1, 0, &def);
    if (sim_failed(c))
        return;
    if (id != WA_HWREG_MODE) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: writing hwreg id %u is not modelled", c->info->mnemonic, id);
        return;
    }
    if (!def) {
        sim_fail(c, WA_E_SIM_FAULT, "%s writes MODE from a register with no defined value",
                 c->info->mnemonic);
        return;
    }
    uint32_t mode = (c->w->mode & ~mask) | ((v << off) & mask);
    if ((mode ^ SIM_MODE_DEFAULT) & ~SIM_MODE_FLOAT) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: MODE bits 0x%08x (traps, vskip, VGPR indexing...) are not "
                 "modelled", c->info->mnemonic, (unsigned)((mode ^ SIM_MODE_DEFAULT) & ~SIM_MODE_FLOAT));
        return;
    }
    c->w->mode = mode;
}

/* ---- M0-relative moves -------------------------------------------------------------------------

   s_movrels: sdst = s[srel + M0]; s_movreld: s[drel + M0] = src0 (the validator
   keeps the base physical). An index past s101 is a fault. */
static void op_movrel(sim_ctx *c)
{
    int rel_src = c->info->operands[1].classes == WA_OC_SGPR; /* s_movrels */
    unsigned nregs = c->info->operands[0].size, rk = rel_src ? 1u : 0u;
    const wa_operand *base = &c->in->ops[rk];
    sim_wave *w = c->w;
    if (!w->m0_def) {
        sim_fail(c, WA_E_SIM_FAULT, "%s indexes with M0, which holds no defined value",
                 c->info->mnemonic);
        return;
    }
    if (base->kind != WA_OPND_PHYS || base->reg_class != WA_REG_SGPR) {
        sim_fail(c, WA_E_UNSUPPORTED, "%s: the M0-relative base must be a physical SGPR",
                 c->info->mnemonic);
        return;
    }
    uint64_t first = (uint64_t)base->id + w->m0;
    if (first + nregs > WA_MAX_SGPR) {
        sim_fail(c, WA_E_SIM_FAULT, "%s: s%u + M0 (%u) is past s%u", c->info->mnemonic,
                 (unsigned)base->id, (unsigned)w->m0, WA_MAX_SGPR - 1);
        return;
    }
    wa_operand rel = wa_opnd_phys(WA_REG_SGPR, (unsigned)first, nregs);
    wa_instr copy = *c->in;
    wa_operand ops[2] = { c->in->ops[0], c->in->ops[1] };
    ops[rk] = rel;
    copy.ops = ops;
    const wa_instr *orig = c->in;
    c->in = &copy; /* the same access paths (pending loads, defined bits) on the indexed register */
    for (unsigned k = 0; k < nregs && !sim_failed(c); k++) {
        int d;
        uint32_t v = sim_read_s(c, 1, k, &d);
        sim_write_s(c, 0, k, v, d);
    }
    c->in = orig;
}

/* ---- the table ---------------------------------------------------------------------------------- */

static const sim_fn salu_fns[WA_OP_COUNT_] = {
    /* SOP1 */
    [WA_OP_S_MOV_B32] = op_mov,
    [WA_OP_S_MOV_B64] = op_mov,
    [WA_OP_S_CMOV_B32] = op_cmov,
    [WA_OP_S_CMOV_B64] = op_cmov,
    [WA_OP_S_NOT_B32] = op_logic,
    [WA_OP_S_NOT_B64] = op_logic,
    [WA_OP_S_WQM_B32] = op_wqm,
    [WA_OP_S_WQM_B64] = op_wqm,
    [WA_OP_S_BREV_B32] = op_brev,
    [WA_OP_S_BREV_B64] = op_brev,
    [WA_OP_S_BCNT0_I32_B32] = op_bcnt0,
    [WA_OP_S_BCNT0_I32_B64] = op_bcnt0,
    [WA_OP_S_BCNT1_I32_B32] = op_bcnt1,
    [WA_OP_S_BCNT1_I32_B64] = op_bcnt1,
    [WA_OP_S_FF0_I32_B32] = op_ff0,
    [WA_OP_S_FF0_I32_B64] = op_ff0,
    [WA_OP_S_FF1_I32_B32] = op_ff1,
    [WA_OP_S_FF1_I32_B64] = op_ff1,
    [WA_OP_S_FLBIT_I32_B32] = op_flbit,
    [WA_OP_S_FLBIT_I32_B64] = op_flbit,
    [WA_OP_S_FLBIT_I32] = op_flbit_signed,
    [WA_OP_S_FLBIT_I32_I64] = op_flbit_signed,
    [WA_OP_S_SEXT_I32_I8] = op_sext8,
    [WA_OP_S_SEXT_I32_I16] = op_sext16,
    [WA_OP_S_BITSET0_B32] = op_bitset0,
    [WA_OP_S_BITSET0_B64] = op_bitset0,
    [WA_OP_S_BITSET1_B32] = op_bitset1,
    [WA_OP_S_BITSET1_B64] = op_bitset1,
    [WA_OP_S_AND_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_OR_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_XOR_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_ANDN2_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_ORN2_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_NAND_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_NOR_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_XNOR_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_ANDN1_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_ORN1_SAVEEXEC_B64] = op_saveexec,
    [WA_OP_S_ANDN1_WREXEC_B64] = op_saveexec,
    [WA_OP_S_ANDN2_WREXEC_B64] = op_saveexec,
    [WA_OP_S_QUADMASK_B32] = op_quadmask,
    [WA_OP_S_QUADMASK_B64] = op_quadmask,
    [WA_OP_S_MOVRELS_B32] = op_movrel,
    [WA_OP_S_MOVRELS_B64] = op_movrel,
    [WA_OP_S_MOVRELD_B32] = op_movrel,
    [WA_OP_S_MOVRELD_B64] = op_movrel,
    [WA_OP_S_ABS_I32] = op_abs,
    [WA_OP_S_SET_GPR_IDX_IDX] = op_set_gpr_idx_idx,
    [WA_OP_S_BITREPLICATE_B64_B32] = op_bitreplicate,
    /* SOP2 */
    [WA_OP_S_ADD_U32] = op_add_u32,
    [WA_OP_S_SUB_U32] = op_sub_u32,
    [WA_OP_S_ADD_I32] = op_add_i32,
    [WA_OP_S_SUB_I32] = op_sub_i32,
    [WA_OP_S_ADDC_U32] = op_addc_u32,
    [WA_OP_S_SUBB_U32] = op_subb_u32,
    [WA_OP_S_MIN_I32] = op_min_i32,
    [WA_OP_S_MIN_U32] = op_min_u32,
    [WA_OP_S_MAX_I32] = op_max_i32,
    [WA_OP_S_MAX_U32] = op_max_u32,
    [WA_OP_S_CSELECT_B32] = op_cselect_b32,
    [WA_OP_S_CSELECT_B64] = op_cselect_b64,
    [WA_OP_S_AND_B32] = op_logic,
    [WA_OP_S_AND_B64] = op_logic,
    [WA_OP_S_OR_B32] = op_logic,
    [WA_OP_S_OR_B64] = op_logic,
    [WA_OP_S_XOR_B32] = op_logic,
    [WA_OP_S_XOR_B64] = op_logic,
    [WA_OP_S_ANDN2_B32] = op_logic,
    [WA_OP_S_ANDN2_B64] = op_logic,
    [WA_OP_S_ORN2_B32] = op_logic,
    [WA_OP_S_ORN2_B64] = op_logic,
    [WA_OP_S_NAND_B32] = op_logic,
    [WA_OP_S_NAND_B64] = op_logic,
    [WA_OP_S_NOR_B32] = op_logic,
    [WA_OP_S_NOR_B64] = op_logic,
    [WA_OP_S_XNOR_B32] = op_logic,
    [WA_OP_S_XNOR_B64] = op_logic,
    [WA_OP_S_LSHL_B32] = op_lshl_b32,
    [WA_OP_S_LSHL_B64] = op_lshl_b64,
    [WA_OP_S_LSHR_B32] = op_lshr_b32,
    [WA_OP_S_LSHR_B64] = op_lshr_b64,
    [WA_OP_S_ASHR_I32] = op_ashr_i32,
    [WA_OP_S_ASHR_I64] = op_ashr_i64,
    [WA_OP_S_BFM_B32] = op_bfm_b32,
    [WA_OP_S_BFM_B64] = op_bfm_b64,
    [WA_OP_S_MUL_I32] = op_mul_i32,
    [WA_OP_S_BFE_U32] = op_bfe_u32,
    [WA_OP_S_BFE_I32] = op_bfe_i32,
    [WA_OP_S_BFE_U64] = op_bfe_u64,
    [WA_OP_S_BFE_I64] = op_bfe_i64,
    [WA_OP_S_ABSDIFF_I32] = op_absdiff_i32,
    [WA_OP_S_MUL_HI_U32] = op_mul_hi_u32,
    [WA_OP_S_MUL_HI_I32] = op_mul_hi_i32,
    [WA_OP_S_LSHL1_ADD_U32] = op_lshl1_add_u32,
    [WA_OP_S_LSHL2_ADD_U32] = op_lshl2_add_u32,
    [WA_OP_S_LSHL3_ADD_U32] = op_lshl3_add_u32,
    [WA_OP_S_LSHL4_ADD_U32] = op_lshl4_add_u32,
    [WA_OP_S_PACK_LL_B32_B16] = op_pack_ll,
    [WA_OP_S_PACK_LH_B32_B16] = op_pack_lh,
    [WA_OP_S_PACK_HH_B32_B16] = op_pack_hh,
    /* SOPK */
    [WA_OP_S_MOVK_I32] = op_movk,
    [WA_OP_S_CMOVK_I32] = op_cmovk,
    [WA_OP_S_CMPK_EQ_I32] = op_c_eq_i32,
    [WA_OP_S_CMPK_LG_I32] = op_c_lg_i32,
    [WA_OP_S_CMPK_GT_I32] = op_c_gt_i32,
    [WA_OP_S_CMPK_GE_I32] = op_c_ge_i32,
    [WA_OP_S_CMPK_LT_I32] = op_c_lt_i32,
    [WA_OP_S_CMPK_LE_I32] = op_c_le_i32,
    [WA_OP_S_CMPK_EQ_U32] = op_c_eq_u32,
    [WA_OP_S_CMPK_LG_U32] = op_c_lg_u32,
    [WA_OP_S_CMPK_GT_U32] = op_c_gt_u32,
    [WA_OP_S_CMPK_GE_U32] = op_c_ge_u32,
    [WA_OP_S_CMPK_LT_U32] = op_c_lt_u32,
    [WA_OP_S_CMPK_LE_U32] = op_c_le_u32,
    [WA_OP_S_ADDK_I32] = op_addk,
    [WA_OP_S_MULK_I32] = op_mulk,
    [WA_OP_S_GETREG_B32] = op_getreg,
    [WA_OP_S_SETREG_B32] = op_setreg,
    [WA_OP_S_SETREG_IMM32_B32] = op_setreg,
    /* SOPC */
    [WA_OP_S_CMP_EQ_I32] = op_c_eq_i32,
    [WA_OP_S_CMP_LG_I32] = op_c_lg_i32,
    [WA_OP_S_CMP_GT_I32] = op_c_gt_i32,
    [WA_OP_S_CMP_GE_I32] = op_c_ge_i32,
    [WA_OP_S_CMP_LT_I32] = op_c_lt_i32,
    [WA_OP_S_CMP_LE_I32] = op_c_le_i32,
    [WA_OP_S_CMP_EQ_U32] = op_c_eq_u32,
    [WA_OP_S_CMP_LG_U32] = op_c_lg_u32,
    [WA_OP_S_CMP_GT_U32] = op_c_gt_u32,
    [WA_OP_S_CMP_GE_U32] = op_c_ge_u32,
    [WA_OP_S_CMP_LT_U32] = op_c_lt_u32,
    [WA_OP_S_CMP_LE_U32] = op_c_le_u32,
    [WA_OP_S_BITCMP0_B32] = op_c_bitcmp0_b32,
    [WA_OP_S_BITCMP1_B32] = op_c_bitcmp1_b32,
    [WA_OP_S_BITCMP0_B64] = op_c_bitcmp0_b64,
    [WA_OP_S_BITCMP1_B64] = op_c_bitcmp1_b64,
    [WA_OP_S_CMP_EQ_U64] = op_c_eq_u64,
    [WA_OP_S_CMP_LG_U64] = op_c_lg_u64,
};

sim_fn sim_salu_fn(unsigned op)
{
    return op < WA_OP_COUNT_ ? salu_fns[op] : NULL;
}

#define NO_PC "the simulator has no code addresses (program counter, calls, fork/join)"
#define NO_MODE "VSKIP and VGPR index mode change how later vector instructions execute; not modelled"
static const char *const salu_why[WA_OP_COUNT_] = {
    [WA_OP_S_GETPC_B64] = NO_PC,
    [WA_OP_S_SETPC_B64] = NO_PC,
    [WA_OP_S_SWAPPC_B64] = NO_PC,
    [WA_OP_S_CALL_B64] = NO_PC,
    [WA_OP_S_CBRANCH_G_FORK] = NO_PC,
    [WA_OP_S_CBRANCH_I_FORK] = NO_PC,
    [WA_OP_S_CBRANCH_JOIN] = NO_PC,
    [WA_OP_S_SETVSKIP] = NO_MODE,
    [WA_OP_S_SET_GPR_IDX_ON] = NO_MODE,
};

const char *sim_salu_why_not(unsigned op)
{
    return op < WA_OP_COUNT_ ? salu_why[op] : NULL;
}
