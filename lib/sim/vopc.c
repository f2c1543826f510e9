/* lib/sim/vopc.c — vector compare semantics (VOPC: v_cmp_*, v_cmpx_*, v_cmp_class_*).

   What a row compares comes from the table (WA_VCMP in <waveasm/isa/vopc.def>): the
   type, and either the outcome mask of the condition (bit 0 less, 1 equal, 2 greater,
   3 unordered) or the class test. A lane's result bit is 1 when the outcome of its
   compare is in the mask:

     floats    unordered when either source is a NaN; -0 equals +0; denormals are
               compared as they are (the default MODE keeps them)
     integers  signed or unsigned by the type; never unordered
     class     src0 is classified (bit 0 signaling NaN, 1 quiet NaN, 2 -inf, 3 -normal,
               4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf) and the
               result is that bit of src1

   16-bit compares read the low half of each source. The mask goes to sdst (vcc, an
   SGPR pair or exec) with 0 in the lanes EXEC disables; v_cmpx writes it to EXEC as
   well (its implicit definition). The mask is defined when every active lane's
   sources are.

   Sources are read through the operand helpers of machine.c, so source modifiers and
   SDWA selects apply where the simulator models them. A 64-bit source that is a
   32-bit literal (src0 of the 32-bit form) is the high half of an f64, or the low half
   of a 64-bit integer; with bit 31 set whether the hardware sign- or zero-extends is
   not documented, and the run stops with WA_E_UNSUPPORTED. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

/* Compared kinds (WA_VCMP's KIND). */
enum { K_F16 = 1, K_F32, K_F64, K_I16, K_U16, K_I32, K_U32, K_I64, K_U64 };
#define VCMP_CLASS 0x10u

typedef struct vcmp_fact {
    unsigned char kind;     /* K_*, 0 if the opcode is no compare */
    unsigned char outcomes; /* outcome mask, or VCMP_CLASS */
} vcmp_fact;

static const vcmp_fact facts[WA_OP_COUNT_] = {
#define WA_INSN(...)
#define CLASS VCMP_CLASS
#define WA_VCMP(id, kind, outcomes) [WA_OP_##id] = { K_##kind, (unsigned char)(outcomes) },
#include <waveasm/isa.def>
#undef WA_VCMP
#undef CLASS
#undef WA_INSN
};

static unsigned kind_bits(unsigned kind)
{
    switch (kind) {
    case K_F16: case K_I16: case K_U16: return 16;
    case K_F64: case K_I64: case K_U64: return 64;
    default: return 32;
    }
}

static int kind_is_float(unsigned kind) { return kind == K_F16 || kind == K_F32 || kind == K_F64; }

/* Source k (1 or 2) of `bits` bits per lane: VGPRs, SGPRs and immediates through the
   operand helpers; a 64-bit literal as described above. */
static void read_src(sim_ctx *c, unsigned k, unsigned bits, int is_float, uint64_t out[SIM_LANES],
                     uint64_t *def)
{
    uint32_t lo[SIM_LANES], hi[SIM_LANES];
    uint64_t dl, dh = SIM_ALL_LANES;
    const wa_operand *o = &c->in->ops[k];
    wa_data_type ty = (wa_data_type)c->info->operands[k].type;
    if (bits == 64 && (o->kind == WA_OPND_IMM || o->kind == WA_OPND_FIMM) && !wa_imm_is_inline(o, ty)) {
        uint32_t lit = 0;
        uint64_t v = 0;
        if (!sim_imm_bits(c, k, &lit)) {
            sim_fail(c, WA_E_INTERNAL, "%s: immediate operand %u cannot be encoded",
                     c->info->mnemonic, k);
        } else if (is_float) {
            v = (uint64_t)lit << 32;
        } else if (lit & 0x80000000u) {
            sim_fail(c, WA_E_UNSUPPORTED,
                     "%s: the 32-bit literal 0x%08x in a 64-bit position has bit 31 set; whether "
                     "the hardware sign- or zero-extends it is not documented",
                     c->info->mnemonic, (unsigned)lit);
        } else {
            v = lit;
        }
        for (unsigned l = 0; l < SIM_LANES; l++)
            out[l] = v;
        *def = SIM_ALL_LANES;
        return;
    }
    if (bits == 16 && o->kind == WA_OPND_FIMM) {
        /* an inline float on a 16-bit source is the f16 value (0.5: 0x3800) */
        uint32_t h = 0;
        if (!wa_imm_bits32(o, WA_TY_F16, &h))
            sim_fail(c, WA_E_INTERNAL, "%s: immediate operand %u cannot be encoded",
                     c->info->mnemonic, k);
        for (unsigned l = 0; l < SIM_LANES; l++)
            out[l] = h;
        *def = SIM_ALL_LANES;
        return;
    }
    sim_read_vec(c, k, 0, lo, &dl);
    if (bits == 64)
        sim_read_vec(c, k, 1, hi, &dh);
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint64_t v = lo[l];
        if (bits == 16)
            v &= 0xFFFFu;
        else if (bits == 64)
            v |= (uint64_t)hi[l] << 32;
        out[l] = v;
    }
    *def = dl & dh;
}

static double as_double(unsigned kind, uint64_t v)
{
    if (kind == K_F16)
        return (double)sim_f16_to_f32((uint16_t)v);
    if (kind == K_F32)
        return (double)sim_f32((uint32_t)v);
    double d;
    memcpy(&d, &v, sizeof(d));
    return d;
}

/* Outcome of comparing a with b: 1 less, 2 equal, 4 greater, 8 unordered. */
static unsigned outcome(unsigned kind, uint64_t a, uint64_t b)
{
    if (kind_is_float(kind)) {
        double x = as_double(kind, a), y = as_double(kind, b);
        if (isnan(x) || isnan(y))
            return 8;
        return x < y ? 1 : x == y ? 2 : 4;
    }
    if (kind == K_I16 || kind == K_I32 || kind == K_I64) {
        unsigned bits = kind_bits(kind);
        int64_t x = (int64_t)(a << (64 - bits)) >> (64 - bits);
        int64_t y = (int64_t)(b << (64 - bits)) >> (64 - bits);
        return x < y ? 1 : x == y ? 2 : 4;
    }
    return a < b ? 1 : a == b ? 2 : 4;
}

/* The class bit of float `v` of `kind` (see the top of the file). */
static unsigned class_bit(unsigned kind, uint64_t v)
{
    unsigned ebits = kind == K_F16 ? 5 : kind == K_F32 ? 8 : 11;
    unsigned mbits = kind == K_F16 ? 10 : kind == K_F32 ? 23 : 52;
    uint64_t mant = v & ((1ull << mbits) - 1u);
    uint64_t exp = (v >> mbits) & ((1ull << ebits) - 1u);
    int neg = (int)(v >> (mbits + ebits) & 1u);
    if (exp == (1ull << ebits) - 1u) {
        if (mant)
            return (mant >> (mbits - 1)) & 1u ? 1 : 0; /* quiet : signaling */
        return neg ? 2 : 9;
    }
    if (exp == 0)
        return mant ? (neg ? 4 : 7) : (neg ? 5 : 6);
    return neg ? 3 : 8;
}

static void op_vcmp(sim_ctx *c)
{
    const vcmp_fact *f = &facts[c->in->op];
    unsigned bits = kind_bits(f->kind);
    int fl = kind_is_float(f->kind);
    uint64_t a[SIM_LANES], b[SIM_LANES], da, db, ex = sim_exec(c), r = 0;
    read_src(c, 1, bits, fl, a, &da);
    if (f->outcomes == VCMP_CLASS) {
        uint32_t m[SIM_LANES];
        sim_read_vec(c, 2, 0, m, &db);
        for (unsigned l = 0; l < SIM_LANES; l++)
            if (ex >> l & 1u && (m[l] >> class_bit(f->kind, a[l]) & 1u))
                r |= 1ull << l;
    } else {
        read_src(c, 2, bits, fl, b, &db);
        for (unsigned l = 0; l < SIM_LANES; l++)
            if (ex >> l & 1u && (outcome(f->kind, a[l], b[l]) & f->outcomes))
                r |= 1ull << l;
    }
    if (sim_failed(c))
        return;
    int def = ((da & db) & ex) == ex;
    sim_write_s64(c, 0, r, def);
    if (c->info->implicit_defs & WA_IMPL_EXEC) { /* v_cmpx */
        c->w->exec = r;
        c->w->exec_def = (uint8_t)def;
    }
}

sim_fn sim_vopc_fn(unsigned op)
{
    return op < WA_OP_COUNT_ && facts[op].kind ? op_vcmp : NULL;
}

const char *sim_vopc_why_not(unsigned op)
{
    (void)op;
    return NULL; /* every compare is executed */
}
