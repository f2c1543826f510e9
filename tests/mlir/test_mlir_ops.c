/* tests/mlir/test_mlir_ops.c — one elementwise kernel per operation (arith,
   math, casts, comparisons), generated here, run in the simulator on random
   inputs and compared with C. Each operation runs with its operands per lane,
   with one and with both uniform (SALU lowering), and as constants (folding in
   the front end). */
#include "check.h"
#include "mlir_harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256

typedef enum ty { I32, F32, I16, F16, I8, I64, F64 } ty;
static const char *const ty_name[] = { "i32", "f32", "i16", "f16", "i8", "i64", "f64" };
static const unsigned ty_bytes[] = { 4, 4, 2, 2, 1, 8, 8 };

typedef uint64_t (*ref_fn)(uint64_t a, uint64_t b);

typedef struct opcase {
    const char *name;
    ty in, out;
    const char *body; /* defines %r from $x and $y */
    ref_fn ref;
    double tol;       /* float results: relative tolerance (0: exact bits) */
    unsigned inputs;  /* IN_* */
} opcase;

#define IN_ANY 0u
#define IN_NONZERO_B 1u   /* b != 0 (integer division by a variable) */
#define IN_POSITIVE 2u    /* floats > 0 */
#define IN_NAN 4u         /* some NaNs, infinities and equal pairs */
#define IN_SMALL 8u       /* floats in [-4, 4] scaled for exp/tanh */
#define IN_INT_RANGE 16u  /* floats that convert to the integer type exactly */
#define IN_NO_MIN_DIV 32u /* no INT_MIN / -1 */

static float f32_of(uint64_t b)
{
    uint32_t u = (uint32_t)b;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint64_t bits_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static int32_t s32(uint64_t a)
{
    return (int32_t)(uint32_t)a;
}
static double f64_of(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}
static uint64_t bits_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static int64_t s64(uint64_t a)
{
    return (int64_t)a;
}

/* ---- reference semantics ------------------------------------------------------------ */

#define RI(nm, expr) static uint64_t nm(uint64_t a, uint64_t b) { (void)a; (void)b; return (uint32_t)(expr); }
RI(r_addi, a + b)
RI(r_subi, a - b)
RI(r_muli, (uint32_t)a * (uint32_t)b)
RI(r_andi, a & b)
RI(r_ori, a | b)
RI(r_xori, a ^ b)
RI(r_shli, (uint32_t)a << (b & 31))
RI(r_shrui, (uint32_t)a >> (b & 31))
RI(r_shrsi, s32(a) >> (b & 31))
RI(r_minsi, s32(a) < s32(b) ? a : b)
RI(r_maxsi, s32(a) > s32(b) ? a : b)
RI(r_minui, (uint32_t)a < (uint32_t)b ? a : b)
RI(r_maxui, (uint32_t)a > (uint32_t)b ? a : b)
RI(r_divui, (uint32_t)a / (uint32_t)b)
RI(r_remui, (uint32_t)a % (uint32_t)b)
RI(r_divsi, s32(a) / s32(b))
RI(r_remsi, s32(a) % s32(b))
static uint64_t r_floordivsi(uint64_t a, uint64_t b)
{
    int32_t x = s32(a), y = s32(b), q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0)))
        q--;
    return (uint32_t)q;
}
static uint64_t r_ceildivsi(uint64_t a, uint64_t b)
{
    int32_t x = s32(a), y = s32(b), q = x / y;
    if ((x % y != 0) && ((x < 0) == (y < 0)))
        q++;
    return (uint32_t)q;
}
RI(r_ceildivui, (uint32_t)a / (uint32_t)b + ((uint32_t)a % (uint32_t)b != 0))
RI(r_eq, a == b)
RI(r_ne, a != b)
RI(r_slt, s32(a) < s32(b))
RI(r_sle, s32(a) <= s32(b))
RI(r_sgt, s32(a) > s32(b))
RI(r_sge, s32(a) >= s32(b))
RI(r_ult, (uint32_t)a < (uint32_t)b)
RI(r_ule, (uint32_t)a <= (uint32_t)b)
RI(r_ugt, (uint32_t)a > (uint32_t)b)
RI(r_uge, (uint32_t)a >= (uint32_t)b)
RI(r_select, (a & 1) ? a : b)

/* float results and float comparisons of type T (bits read with `of`, written with `to`) */
#define RFT(nm, T, of, to, expr) \
    static uint64_t nm(uint64_t ab, uint64_t bb) \
    { \
        T a = of(ab), b = of(bb); \
        (void)a; \
        (void)b; \
        return to((T)(expr)); \
    }
#define RCT(nm, T, of, expr) \
    static uint64_t nm(uint64_t ab, uint64_t bb) \
    { \
        T a = of(ab), b = of(bb); \
        int un = isnan(a) || isnan(b); \
        (void)un; \
        return (expr) ? 1u : 0u; \
    }
#define RF(nm, expr) RFT(nm, float, f32_of, bits_f32, expr)
RF(r_addf, a + b)
RF(r_subf, a - b)
RF(r_mulf, a * b)
RF(r_divf, (double)a / (double)b)
RF(r_negf, -a)
RF(r_minnumf, fminf(a, b))
RF(r_maxnumf, fmaxf(a, b))
RF(r_minimumf, isnan(a) || isnan(b) ? NAN : (a == b ? (signbit(a) ? a : b) : (a < b ? a : b)))
RF(r_maximumf, isnan(a) || isnan(b) ? NAN : (a == b ? (signbit(a) ? b : a) : (a > b ? a : b)))
RF(r_exp, exp((double)a))
RF(r_exp2, exp2((double)a))
RF(r_log, log((double)a))
RF(r_log2, log2((double)a))
RF(r_sqrt, sqrt((double)a))
RF(r_rsqrt, 1.0 / sqrt((double)a))
RF(r_tanh, tanh((double)a))
RF(r_absf, fabsf(a))
RF(r_fma, (double)a * (double)b + (double)a)
RF(r_powf, pow((double)a, (double)b))
RF(r_sitofp, (float)s32(ab))
RF(r_uitofp, (float)(uint32_t)ab)
RF(r_sitofp_i1, s32(ab) < s32(bb) ? -1.0f : 0.0f)
RF(r_uitofp_i1, s32(ab) < s32(bb) ? 1.0f : 0.0f)

#define RC(nm, expr) RCT(nm, float, f32_of, expr)
RC(r_ffalse, 0)
RC(r_foeq, !un && a == b)
RC(r_fogt, !un && a > b)
RC(r_foge, !un && a >= b)
RC(r_folt, !un && a < b)
RC(r_fole, !un && a <= b)
RC(r_fone, !un && a != b)
RC(r_ford, !un)
RC(r_fueq, un || a == b)
RC(r_fugt, un || a > b)
RC(r_fuge, un || a >= b)
RC(r_fult, un || a < b)
RC(r_fule, un || a <= b)
RC(r_fune, un || a != b)
RC(r_funo, un)
RC(r_ftrue, 1)

static uint64_t r_fptosi(uint64_t a, uint64_t b)
{
    (void)b;
    return (uint32_t)(int32_t)f32_of(a);
}
static uint64_t r_fptoui(uint64_t a, uint64_t b)
{
    (void)b;
    return (uint32_t)f32_of(a);
}
static uint64_t r_f16_add(uint64_t a, uint64_t b)
{
    return mk_f32_to_f16(mk_f16_to_f32((uint16_t)a) + mk_f16_to_f32((uint16_t)b));
}
static uint64_t r_f16_mul(uint64_t a, uint64_t b)
{
    return mk_f32_to_f16(mk_f16_to_f32((uint16_t)a) * mk_f16_to_f32((uint16_t)b));
}
static uint64_t r_extf(uint64_t a, uint64_t b)
{
    (void)b;
    return bits_f32(mk_f16_to_f32((uint16_t)a));
}
static uint64_t r_truncf(uint64_t a, uint64_t b)
{
    (void)b;
    return mk_f32_to_f16(f32_of(a));
}
static uint64_t r_extsi16(uint64_t a, uint64_t b)
{
    (void)b;
    return (uint32_t)(int32_t)(int16_t)(uint16_t)a;
}
static uint64_t r_extui16(uint64_t a, uint64_t b)
{
    (void)b;
    return (uint16_t)a;
}
static uint64_t r_trunci16(uint64_t a, uint64_t b)
{
    (void)b;
    return (uint16_t)a;
}
static uint64_t r_add16(uint64_t a, uint64_t b)
{
    return (uint16_t)(a + b);
}
static uint64_t r_mul16(uint64_t a, uint64_t b)
{
    return (uint16_t)(a * b);
}
static uint64_t r_shrsi16(uint64_t a, uint64_t b)
{
    return (uint16_t)((int16_t)(uint16_t)a >> (b & 15));
}
static uint64_t r_divsi16(uint64_t a, uint64_t b)
{
    return (uint16_t)(int16_t)((int16_t)(uint16_t)a / (int16_t)(uint16_t)b);
}
static uint64_t r_divui16(uint64_t a, uint64_t b)
{
    return (uint16_t)((uint16_t)a / (uint16_t)b);
}
static uint64_t r_slt16(uint64_t a, uint64_t b)
{
    return (int16_t)(uint16_t)a < (int16_t)(uint16_t)b;
}
static uint64_t r_add8(uint64_t a, uint64_t b)
{
    return (uint8_t)(a + b);
}

/* 64-bit integers (wrapping; shifts by b & 63, what the kernels pass) */
#define RL(nm, expr) static uint64_t nm(uint64_t a, uint64_t b) { (void)a; (void)b; return (uint64_t)(expr); }
RL(r_addi64, a + b)
RL(r_subi64, a - b)
RL(r_muli64, a * b)
RL(r_andi64, a & b)
RL(r_ori64, a | b)
RL(r_xori64, a ^ b)
RL(r_shli64, a << (b & 63))
RL(r_shrui64, a >> (b & 63))
RL(r_shrsi64, (b & 63) ? (a >> (b & 63)) | ((a >> 63) ? ~(~0ull >> (b & 63)) : 0) : a)
RL(r_minsi64, s64(a) < s64(b) ? a : b)
RL(r_maxsi64, s64(a) > s64(b) ? a : b)
RL(r_minui64, a < b ? a : b)
RL(r_maxui64, a > b ? a : b)
RL(r_eq64, a == b)
RL(r_ne64, a != b)
RL(r_slt64, s64(a) < s64(b))
RL(r_sle64, s64(a) <= s64(b))
RL(r_sgt64, s64(a) > s64(b))
RL(r_sge64, s64(a) >= s64(b))
RL(r_ult64, a < b)
RL(r_ule64, a <= b)
RL(r_ugt64, a > b)
RL(r_uge64, a >= b)
RL(r_select64, (a & 1) ? a : b)
RL(r_extsi64, (uint64_t)(int64_t)s32(a))
RL(r_extui64, (uint32_t)a)
RL(r_trunci64, (uint32_t)a)

/* f64: add, sub, mul and fma correctly rounded (exact bits) */
#define RD(nm, expr) RFT(nm, double, f64_of, bits_f64, expr)
RD(r_addf64, a + b)
RD(r_subf64, a - b)
RD(r_mulf64, a * b)
RD(r_negf64, -a)
RD(r_absf64, fabs(a))
RD(r_fma64, fma(a, b, a))
RD(r_minnumf64, fmin(a, b))
RD(r_maxnumf64, fmax(a, b))
RD(r_minimumf64, isnan(a) || isnan(b) ? NAN : (a == b ? (signbit(a) ? a : b) : (a < b ? a : b)))
RD(r_maximumf64, isnan(a) || isnan(b) ? NAN : (a == b ? (signbit(a) ? b : a) : (a > b ? a : b)))
RD(r_sitofp64, (double)s32(ab))
RD(r_uitofp64, (double)(uint32_t)ab)
RD(r_sitofp64_i1, s32(ab) < s32(bb) ? -1.0 : 0.0)
RD(r_extf64, (double)f32_of(ab))
static uint64_t r_truncf64(uint64_t a, uint64_t b)
{
    (void)b;
    return bits_f32((float)f64_of(a));
}
static uint64_t r_fptosi64(uint64_t a, uint64_t b)
{
    (void)b;
    return (uint32_t)(int32_t)f64_of(a);
}
static uint64_t r_fptoui64(uint64_t a, uint64_t b)
{
    (void)b;
    return (uint32_t)f64_of(a);
}
#define RC64(nm, expr) RCT(nm, double, f64_of, expr)
RC64(r_doeq, !un && a == b)
RC64(r_dogt, !un && a > b)
RC64(r_doge, !un && a >= b)
RC64(r_dolt, !un && a < b)
RC64(r_dole, !un && a <= b)
RC64(r_done, !un && a != b)
RC64(r_dord, !un)
RC64(r_dueq, un || a == b)
RC64(r_dugt, un || a > b)
RC64(r_duge, un || a >= b)
RC64(r_dult, un || a < b)
RC64(r_dule, un || a <= b)
RC64(r_dune, un || a != b)
RC64(r_duno, un)

#define BIN(op, t) "%r = arith." op " $x, $y : " t
#define CMPI(p) "%c = arith.cmpi " p ", $x, $y : i32\n    %r = arith.extui %c : i1 to i32"
#define CMPF(p) "%c = arith.cmpf " p ", $x, $y : f32\n    %r = arith.extui %c : i1 to i32"
#define UN(op, t) "%r = " op " $x : " t
#define CMPI64(p) "%c = arith.cmpi " p ", $x, $y : i64\n    %r = arith.extui %c : i1 to i32"
#define CMPF64(p) "%c = arith.cmpf " p ", $x, $y : f64\n    %r = arith.extui %c : i1 to i32"
#define SHIFT64(op) "%m = arith.constant 63 : i64\n    %s = arith.andi $y, %m : i64\n    %r = arith." op " $x, %s : i64"

static const opcase cases[] = {
    { "addi", I32, I32, BIN("addi", "i32"), r_addi, 0, 0 },
    { "subi", I32, I32, BIN("subi", "i32"), r_subi, 0, 0 },
    { "muli", I32, I32, BIN("muli", "i32"), r_muli, 0, 0 },
    { "andi", I32, I32, BIN("andi", "i32"), r_andi, 0, 0 },
    { "ori", I32, I32, BIN("ori", "i32"), r_ori, 0, 0 },
    { "xori", I32, I32, BIN("xori", "i32"), r_xori, 0, 0 },
    { "shli", I32, I32, "%m = arith.constant 31 : i32\n    %s = arith.andi $y, %m : i32\n    %r = arith.shli $x, %s : i32", r_shli, 0, 0 },
    { "shrui", I32, I32, "%m = arith.constant 31 : i32\n    %s = arith.andi $y, %m : i32\n    %r = arith.shrui $x, %s : i32", r_shrui, 0, 0 },
    { "shrsi", I32, I32, "%m = arith.constant 31 : i32\n    %s = arith.andi $y, %m : i32\n    %r = arith.shrsi $x, %s : i32", r_shrsi, 0, 0 },
    { "minsi", I32, I32, BIN("minsi", "i32"), r_minsi, 0, 0 },
    { "maxsi", I32, I32, BIN("maxsi", "i32"), r_maxsi, 0, 0 },
    { "minui", I32, I32, BIN("minui", "i32"), r_minui, 0, 0 },
    { "maxui", I32, I32, BIN("maxui", "i32"), r_maxui, 0, 0 },
    { "divui", I32, I32, BIN("divui", "i32"), r_divui, 0, IN_NONZERO_B },
    { "remui", I32, I32, BIN("remui", "i32"), r_remui, 0, IN_NONZERO_B },
    { "divsi", I32, I32, BIN("divsi", "i32"), r_divsi, 0, IN_NONZERO_B | IN_NO_MIN_DIV },
    { "remsi", I32, I32, BIN("remsi", "i32"), r_remsi, 0, IN_NONZERO_B | IN_NO_MIN_DIV },
    { "floordivsi", I32, I32, BIN("floordivsi", "i32"), r_floordivsi, 0, IN_NONZERO_B | IN_NO_MIN_DIV },
    { "ceildivsi", I32, I32, BIN("ceildivsi", "i32"), r_ceildivsi, 0, IN_NONZERO_B | IN_NO_MIN_DIV },
    { "ceildivui", I32, I32, BIN("ceildivui", "i32"), r_ceildivui, 0, IN_NONZERO_B },
    { "cmpi_eq", I32, I32, CMPI("eq"), r_eq, 0, 0 },
    { "cmpi_ne", I32, I32, CMPI("ne"), r_ne, 0, 0 },
    { "cmpi_slt", I32, I32, CMPI("slt"), r_slt, 0, 0 },
    { "cmpi_sle", I32, I32, CMPI("sle"), r_sle, 0, 0 },
    { "cmpi_sgt", I32, I32, CMPI("sgt"), r_sgt, 0, 0 },
    { "cmpi_sge", I32, I32, CMPI("sge"), r_sge, 0, 0 },
    { "cmpi_ult", I32, I32, CMPI("ult"), r_ult, 0, 0 },
    { "cmpi_ule", I32, I32, CMPI("ule"), r_ule, 0, 0 },
    { "cmpi_ugt", I32, I32, CMPI("ugt"), r_ugt, 0, 0 },
    { "cmpi_uge", I32, I32, CMPI("uge"), r_uge, 0, 0 },
    { "select", I32, I32, "%o = arith.constant 1 : i32\n    %l = arith.andi $x, %o : i32\n    %c = arith.cmpi ne, %l, %o : i32\n    %r = arith.select %c, $y, $x : i32", r_select, 0, 0 },
    { "addf", F32, F32, BIN("addf", "f32"), r_addf, 0, IN_NAN },
    { "subf", F32, F32, BIN("subf", "f32"), r_subf, 0, 0 },
    { "mulf", F32, F32, BIN("mulf", "f32"), r_mulf, 0, 0 },
    { "divf", F32, F32, BIN("divf", "f32"), r_divf, 2e-7, 0 },
    { "negf", F32, F32, UN("arith.negf", "f32"), r_negf, 0, 0 },
    { "minnumf", F32, F32, BIN("minnumf", "f32"), r_minnumf, 0, 0 },
    { "maxnumf", F32, F32, BIN("maxnumf", "f32"), r_maxnumf, 0, 0 },
    { "minimumf", F32, F32, BIN("minimumf", "f32"), r_minimumf, 0, IN_NAN },
    { "maximumf", F32, F32, BIN("maximumf", "f32"), r_maximumf, 0, IN_NAN },
    { "cmpf_false", F32, I32, CMPF("false"), r_ffalse, 0, IN_NAN },
    { "cmpf_oeq", F32, I32, CMPF("oeq"), r_foeq, 0, IN_NAN },
    { "cmpf_ogt", F32, I32, CMPF("ogt"), r_fogt, 0, IN_NAN },
    { "cmpf_oge", F32, I32, CMPF("oge"), r_foge, 0, IN_NAN },
    { "cmpf_olt", F32, I32, CMPF("olt"), r_folt, 0, IN_NAN },
    { "cmpf_ole", F32, I32, CMPF("ole"), r_fole, 0, IN_NAN },
    { "cmpf_one", F32, I32, CMPF("one"), r_fone, 0, IN_NAN },
    { "cmpf_ord", F32, I32, CMPF("ord"), r_ford, 0, IN_NAN },
    { "cmpf_ueq", F32, I32, CMPF("ueq"), r_fueq, 0, IN_NAN },
    { "cmpf_ugt", F32, I32, CMPF("ugt"), r_fugt, 0, IN_NAN },
    { "cmpf_uge", F32, I32, CMPF("uge"), r_fuge, 0, IN_NAN },
    { "cmpf_ult", F32, I32, CMPF("ult"), r_fult, 0, IN_NAN },
    { "cmpf_ule", F32, I32, CMPF("ule"), r_fule, 0, IN_NAN },
    { "cmpf_une", F32, I32, CMPF("une"), r_fune, 0, IN_NAN },
    { "cmpf_uno", F32, I32, CMPF("uno"), r_funo, 0, IN_NAN },
    { "cmpf_true", F32, I32, CMPF("true"), r_ftrue, 0, IN_NAN },
    { "exp", F32, F32, UN("math.exp", "f32"), r_exp, 2e-6, IN_SMALL },
    { "exp2", F32, F32, UN("math.exp2", "f32"), r_exp2, 2e-6, IN_SMALL },
    { "log", F32, F32, UN("math.log", "f32"), r_log, 2e-6, IN_POSITIVE },
    { "log2", F32, F32, UN("math.log2", "f32"), r_log2, 2e-6, IN_POSITIVE },
    { "sqrt", F32, F32, UN("math.sqrt", "f32"), r_sqrt, 2e-7, IN_POSITIVE },
    { "rsqrt", F32, F32, UN("math.rsqrt", "f32"), r_rsqrt, 2e-6, IN_POSITIVE },
    { "tanh", F32, F32, UN("math.tanh", "f32"), r_tanh, 5e-6, IN_SMALL },
    { "absf", F32, F32, UN("math.absf", "f32"), r_absf, 0, 0 },
    { "fma", F32, F32, "%r = math.fma $x, $y, $x : f32", r_fma, 0, 0 },
    { "powf", F32, F32, BIN("dummy", "f32"), r_powf, 1e-5, IN_POSITIVE | IN_SMALL },
    { "sitofp", I32, F32, "%r = arith.sitofp $x : i32 to f32", r_sitofp, 0, 0 },
    { "uitofp", I32, F32, "%r = arith.uitofp $x : i32 to f32", r_uitofp, 0, 0 },
    { "sitofp_i1", I32, F32, "%c = arith.cmpi slt, $x, $y : i32\n    %r = arith.sitofp %c : i1 to f32", r_sitofp_i1, 0, 0 },
    { "uitofp_i1", I32, F32, "%c = arith.cmpi slt, $x, $y : i32\n    %r = arith.uitofp %c : i1 to f32", r_uitofp_i1, 0, 0 },
    { "fptosi", F32, I32, "%r = arith.fptosi $x : f32 to i32", r_fptosi, 0, IN_INT_RANGE },
    { "fptoui", F32, I32, "%r = arith.fptoui $x : f32 to i32", r_fptoui, 0, IN_INT_RANGE | IN_POSITIVE },
    { "extf", F16, F32, "%r = arith.extf $x : f16 to f32", r_extf, 0, 0 },
    { "truncf", F32, F16, "%r = arith.truncf $x : f32 to f16", r_truncf, 0, 0 },
    { "addf_f16", F16, F16, BIN("addf", "f16"), r_f16_add, 0, 0 },
    { "mulf_f16", F16, F16, BIN("mulf", "f16"), r_f16_mul, 0, 0 },
    { "extsi_i16", I16, I32, "%r = arith.extsi $x : i16 to i32", r_extsi16, 0, 0 },
    { "extui_i16", I16, I32, "%r = arith.extui $x : i16 to i32", r_extui16, 0, 0 },
    { "trunci_i16", I32, I16, "%r = arith.trunci $x : i32 to i16", r_trunci16, 0, 0 },
    { "addi_i16", I16, I16, BIN("addi", "i16"), r_add16, 0, 0 },
    { "muli_i16", I16, I16, BIN("muli", "i16"), r_mul16, 0, 0 },
    { "shrsi_i16", I16, I16, "%m = arith.constant 15 : i16\n    %s = arith.andi $y, %m : i16\n    %r = arith.shrsi $x, %s : i16", r_shrsi16, 0, 0 },
    { "divsi_i16", I16, I16, BIN("divsi", "i16"), r_divsi16, 0, IN_NONZERO_B | IN_NO_MIN_DIV },
    { "divui_i16", I16, I16, BIN("divui", "i16"), r_divui16, 0, IN_NONZERO_B },
    { "cmpi_slt_i16", I16, I32, "%c = arith.cmpi slt, $x, $y : i16\n    %r = arith.extui %c : i1 to i32", r_slt16, 0, 0 },
    { "addi_i8", I8, I8, BIN("addi", "i8"), r_add8, 0, 0 },
    { "i64_addi", I64, I64, BIN("addi", "i64"), r_addi64, 0, 0 },
    { "i64_subi", I64, I64, BIN("subi", "i64"), r_subi64, 0, 0 },
    { "i64_muli", I64, I64, BIN("muli", "i64"), r_muli64, 0, 0 },
    { "i64_andi", I64, I64, BIN("andi", "i64"), r_andi64, 0, 0 },
    { "i64_ori", I64, I64, BIN("ori", "i64"), r_ori64, 0, 0 },
    { "i64_xori", I64, I64, BIN("xori", "i64"), r_xori64, 0, 0 },
    { "i64_shli", I64, I64, SHIFT64("shli"), r_shli64, 0, 0 },
    { "i64_shrui", I64, I64, SHIFT64("shrui"), r_shrui64, 0, 0 },
    { "i64_shrsi", I64, I64, SHIFT64("shrsi"), r_shrsi64, 0, 0 },
    { "i64_minsi", I64, I64, BIN("minsi", "i64"), r_minsi64, 0, 0 },
    { "i64_maxsi", I64, I64, BIN("maxsi", "i64"), r_maxsi64, 0, 0 },
    { "i64_minui", I64, I64, BIN("minui", "i64"), r_minui64, 0, 0 },
    { "i64_maxui", I64, I64, BIN("maxui", "i64"), r_maxui64, 0, 0 },
    { "i64_select", I64, I64, "%o = arith.constant 1 : i64\n    %l = arith.andi $x, %o : i64\n    %c = arith.cmpi ne, %l, %o : i64\n    %r = arith.select %c, $y, $x : i64", r_select64, 0, 0 },
    { "i64_cmpi_eq", I64, I32, CMPI64("eq"), r_eq64, 0, 0 },
    { "i64_cmpi_ne", I64, I32, CMPI64("ne"), r_ne64, 0, 0 },
    { "i64_cmpi_slt", I64, I32, CMPI64("slt"), r_slt64, 0, 0 },
    { "i64_cmpi_sle", I64, I32, CMPI64("sle"), r_sle64, 0, 0 },
    { "i64_cmpi_sgt", I64, I32, CMPI64("sgt"), r_sgt64, 0, 0 },
    { "i64_cmpi_sge", I64, I32, CMPI64("sge"), r_sge64, 0, 0 },
    { "i64_cmpi_ult", I64, I32, CMPI64("ult"), r_ult64, 0, 0 },
    { "i64_cmpi_ule", I64, I32, CMPI64("ule"), r_ule64, 0, 0 },
    { "i64_cmpi_ugt", I64, I32, CMPI64("ugt"), r_ugt64, 0, 0 },
    { "i64_cmpi_uge", I64, I32, CMPI64("uge"), r_uge64, 0, 0 },
    { "i64_extsi", I32, I64, "%r = arith.extsi $x : i32 to i64", r_extsi64, 0, 0 },
    { "i64_extui", I32, I64, "%r = arith.extui $x : i32 to i64", r_extui64, 0, 0 },
    { "i64_trunci", I64, I32, "%r = arith.trunci $x : i64 to i32", r_trunci64, 0, 0 },
    { "i64_index_cast", I64, I32, "%n = arith.index_cast $x : i64 to index\n    %r = arith.index_cast %n : index to i32", r_trunci64, 0, 0 },
    { "i64_index_cast_s", I32, I64, "%n = arith.index_cast $x : i32 to index\n    %r = arith.index_cast %n : index to i64", r_extsi64, 0, 0 },
    { "i64_index_castui", I32, I64, "%n = arith.index_castui $x : i32 to index\n    %r = arith.index_castui %n : index to i64", r_extui64, 0, 0 },
    { "f64_addf", F64, F64, BIN("addf", "f64"), r_addf64, 0, IN_NAN },
    { "f64_subf", F64, F64, BIN("subf", "f64"), r_subf64, 0, 0 },
    { "f64_mulf", F64, F64, BIN("mulf", "f64"), r_mulf64, 0, 0 },
    { "f64_negf", F64, F64, UN("arith.negf", "f64"), r_negf64, 0, 0 },
    { "f64_absf", F64, F64, UN("math.absf", "f64"), r_absf64, 0, 0 },
    { "f64_fma", F64, F64, "%r = math.fma $x, $y, $x : f64", r_fma64, 0, 0 },
    { "f64_minnumf", F64, F64, BIN("minnumf", "f64"), r_minnumf64, 0, 0 },
    { "f64_maxnumf", F64, F64, BIN("maxnumf", "f64"), r_maxnumf64, 0, 0 },
    { "f64_minimumf", F64, F64, BIN("minimumf", "f64"), r_minimumf64, 0, IN_NAN },
    { "f64_maximumf", F64, F64, BIN("maximumf", "f64"), r_maximumf64, 0, IN_NAN },
    { "f64_select", F64, F64, "%c = arith.cmpf olt, $x, $y : f64\n    %r = arith.select %c, $y, $x : f64", r_maxnumf64, 0, 0 },
    { "f64_cmpf_false", F64, I32, CMPF64("false"), r_ffalse, 0, IN_NAN },
    { "f64_cmpf_oeq", F64, I32, CMPF64("oeq"), r_doeq, 0, IN_NAN },
    { "f64_cmpf_ogt", F64, I32, CMPF64("ogt"), r_dogt, 0, IN_NAN },
    { "f64_cmpf_oge", F64, I32, CMPF64("oge"), r_doge, 0, IN_NAN },
    { "f64_cmpf_olt", F64, I32, CMPF64("olt"), r_dolt, 0, IN_NAN },
    { "f64_cmpf_ole", F64, I32, CMPF64("ole"), r_dole, 0, IN_NAN },
    { "f64_cmpf_one", F64, I32, CMPF64("one"), r_done, 0, IN_NAN },
    { "f64_cmpf_ord", F64, I32, CMPF64("ord"), r_dord, 0, IN_NAN },
    { "f64_cmpf_ueq", F64, I32, CMPF64("ueq"), r_dueq, 0, IN_NAN },
    { "f64_cmpf_ugt", F64, I32, CMPF64("ugt"), r_dugt, 0, IN_NAN },
    { "f64_cmpf_uge", F64, I32, CMPF64("uge"), r_duge, 0, IN_NAN },
    { "f64_cmpf_ult", F64, I32, CMPF64("ult"), r_dult, 0, IN_NAN },
    { "f64_cmpf_ule", F64, I32, CMPF64("ule"), r_dule, 0, IN_NAN },
    { "f64_cmpf_une", F64, I32, CMPF64("une"), r_dune, 0, IN_NAN },
    { "f64_cmpf_uno", F64, I32, CMPF64("uno"), r_duno, 0, IN_NAN },
    { "f64_cmpf_true", F64, I32, CMPF64("true"), r_ftrue, 0, IN_NAN },
    { "f64_extf", F32, F64, "%r = arith.extf $x : f32 to f64", r_extf64, 0, IN_NAN },
    { "f64_truncf", F64, F32, "%r = arith.truncf $x : f64 to f32", r_truncf64, 0, IN_NAN },
    { "f64_sitofp", I32, F64, "%r = arith.sitofp $x : i32 to f64", r_sitofp64, 0, 0 },
    { "f64_uitofp", I32, F64, "%r = arith.uitofp $x : i32 to f64", r_uitofp64, 0, 0 },
    { "f64_sitofp_i1", I32, F64, "%c = arith.cmpi slt, $x, $y : i32\n    %r = arith.sitofp %c : i1 to f64", r_sitofp64_i1, 0, 0 },
    { "f64_fptosi", F64, I32, "%r = arith.fptosi $x : f64 to i32", r_fptosi64, 0, IN_INT_RANGE },
    { "f64_fptoui", F64, I32, "%r = arith.fptoui $x : f64 to i32", r_fptoui64, 0, IN_INT_RANGE | IN_POSITIVE },
};

/* ---- kernels -------------------------------------------------------------------------- */

/* Appends `s` with $x and $y replaced. */
static void put_body(char *out, size_t cap, const char *s, const char *x, const char *y)
{
    size_t n = strlen(out);
    while (*s && n + 32 < cap) {
        if (s[0] == '$' && (s[1] == 'x' || s[1] == 'y')) {
            n += (size_t)snprintf(out + n, cap - n, "%s", s[1] == 'x' ? x : y);
            s += 2;
        } else {
            out[n++] = *s++;
        }
    }
    out[n] = '\0';
}

static uint64_t get(const void *buf, ty t, unsigned i)
{
    const uint8_t *p = (const uint8_t *)buf + (size_t)i * ty_bytes[t];
    uint64_t v = 0;
    for (unsigned k = 0; k < ty_bytes[t]; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}

static void put(void *buf, ty t, unsigned i, uint64_t v)
{
    uint8_t *p = (uint8_t *)buf + (size_t)i * ty_bytes[t];
    for (unsigned k = 0; k < ty_bytes[t]; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static uint64_t mask_of(ty t)
{
    return ty_bytes[t] == 8 ? ~0ull : (1ull << (8 * ty_bytes[t])) - 1;
}

/* A random input of the case's domain. */
static uint64_t rand_input(const opcase *c, int is_b, unsigned i)
{
    ty t = c->in;
    if (t == F32) {
        float f = mk_randf() * 8.0f;
        if (c->inputs & IN_SMALL)
            f = mk_randf() * 4.0f;
        if (c->inputs & IN_INT_RANGE)
            f = (float)((int32_t)(mk_rand() >> 4) - (1 << 27)) / 16.0f;
        if (c->inputs & IN_POSITIVE)
            f = fabsf(f) + 0.001f;
        if ((c->inputs & IN_NAN) && i % 16 == 3)
            return is_b ? 0x7fc00000u : bits_f32(f);
        if ((c->inputs & IN_NAN) && i % 16 == 5)
            return 0xff800000u;
        if ((c->inputs & IN_NAN) && i % 16 == 7)
            return is_b ? 0x80000000u : 0;
        return bits_f32(f);
    }
    if (t == F64) {
        /* 53 random significand bits, so that rounding shows */
        double d = ((double)(((uint64_t)mk_rand() << 32 | mk_rand()) >> 11) / 9007199254740992.0 -
                    0.5) * 16.0;
        if (c->inputs & IN_INT_RANGE)
            d = (double)(int32_t)mk_rand() + (double)(mk_rand() % 1000) / 1000.0;
        if (c->inputs & IN_POSITIVE)
            d = fabs(d) + 0.001;
        if ((c->inputs & IN_NAN) && i % 16 == 3)
            return is_b ? 0x7ff8000000000000ull : bits_f64(d);
        if ((c->inputs & IN_NAN) && i % 16 == 5)
            return 0xfff0000000000000ull;
        if ((c->inputs & IN_NAN) && i % 16 == 7)
            return is_b ? 0x8000000000000000ull : 0;
        if ((c->inputs & IN_NAN) && i % 16 == 9)
            return bits_f64(1.5); /* equal operands */
        return bits_f64(d);
    }
    if (t == F16)
        return mk_f32_to_f16(mk_randf() * 8.0f);
    uint64_t v = ((uint64_t)mk_rand() << 32 | mk_rand());
    if (i % 8 == 1)
        v = (uint64_t)(int64_t)(int32_t)(mk_rand() % 64 - 32); /* small values, signs */
    if (t == I64 && i % 8 == 3) /* carries across the words, equal high words */
        v = (uint64_t)(mk_rand() % 3 == 0 ? 0xFFFFFFFFu : mk_rand() % 2) << 32 |
            (mk_rand() % 2 ? 0xFFFFFFFFu - mk_rand() % 4 : mk_rand() % 4);
    if (t == I64 && i % 8 == 5) /* the sign bit */
        v = (uint64_t)1 << 63 | (mk_rand() % 2 ? mk_rand() : 0);
    v &= mask_of(t);
    if ((c->inputs & IN_NONZERO_B) && is_b) {
        if (i % 4 == 2)
            v = (uint64_t)(int64_t)(int32_t)(mk_rand() % 33 - 16) & mask_of(t);
        if (v == 0)
            v = 3;
        if ((c->inputs & IN_NO_MIN_DIV) && v == mask_of(t))
            v = 7;
    }
    return v;
}

/* Modes: operands loaded per lane; b from a by-value argument (an SGPR); both
   from arguments; both constants. The arguments and constants are elements
   ua and ub of the inputs. */
static const char *const mode_name[] = { "per lane", "uniform b", "uniform a, b", "constants" };

/* Translates, compiles and runs case `c` in `mode`. */
static void run_case(const opcase *c, unsigned mode)
{
    ut_context("%s, %s", c->name, mode_name[mode]);
    const char *tin = ty_name[c->in], *tout = ty_name[c->out];
    uint8_t *a = calloc(N, 8), *b = calloc(N, 8), *o = calloc(N, 8), *want = calloc(N, 8);
    for (unsigned i = 0; i < N; i++) {
        put(a, c->in, i, rand_input(c, 0, i));
        put(b, c->in, i, rand_input(c, 1, i));
    }
    const unsigned ua = 7, ub = 13; /* the uniform operands' elements */
    char konst[2][160] = { "", "" };
    for (unsigned k = 0; k < 2 && mode == 3; k++) {
        uint64_t v = get(k ? b : a, c->in, k ? ub : ua);
        if (c->in == F32 || c->in == F16 || c->in == F64)
            snprintf(konst[k], sizeof(konst[k]), "%%k%c = arith.constant 0x%llX : %s\n    ",
                     k ? 'b' : 'a', (unsigned long long)v, tin);
        else
            snprintf(konst[k], sizeof(konst[k]), "%%k%c = arith.constant %lld : %s\n    ",
                     k ? 'b' : 'a',
                     (long long)(ty_bytes[c->in] == 8 ? (int64_t)v
                                                      : (int64_t)(v << (64 - 8 * ty_bytes[c->in])) >>
                                                            (64 - 8 * ty_bytes[c->in])),
                     tin);
    }
    const char *x = mode == 2 ? "%sa" : mode == 3 ? "%ka" : "%va";
    const char *y = mode >= 1 ? (mode == 3 ? "%kb" : "%sb") : "%vb";
    char text[4096];
    snprintf(text, sizeof(text),
             "gpu.module @m {\n"
             "  gpu.func @%s(%%pa: memref<%ux%s>, %%pb: memref<%ux%s>, %%po: memref<%ux%s>,\n"
             "              %%sa: %s, %%sb: %s) kernel\n"
             "      attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {\n"
             "    %%tid = gpu.thread_id x\n"
             "    %%bid = gpu.block_id x\n"
             "    %%c64 = arith.constant 64 : index\n"
             "    %%ia = arith.constant %u : index\n"
             "    %%ib = arith.constant %u : index\n"
             "    %%b0 = arith.muli %%bid, %%c64 : index\n"
             "    %%i = arith.addi %%b0, %%tid : index\n"
             "    %%va = memref.load %%pa[%%i] : memref<%ux%s>\n"
             "    %%vb = memref.load %%pb[%%i] : memref<%ux%s>\n"
             "    %s%s",
             c->name, N, tin, N, tin, N, tout, tin, tin, ua, ub, N, tin, N, tin, konst[0],
             konst[1]);
    if (strcmp(c->name, "powf") == 0)
        put_body(text, sizeof(text), "%r = math.powf $x, $y : f32", x, y);
    else
        put_body(text, sizeof(text), c->body, x, y);
    size_t len = strlen(text);
    snprintf(text + len, sizeof(text) - len,
             "\n    memref.store %%r, %%po[%%i] : memref<%ux%s>\n    gpu.return\n  }\n}\n", N,
             tout);
    for (unsigned i = 0; i < N; i++) {
        uint64_t va = get(a, c->in, mode >= 2 ? ua : i), vb = get(b, c->in, mode >= 1 ? ub : i);
        put(want, c->out, i, c->ref(va, vb) & mask_of(c->out));
    }
    mk k;
    mk_init(&k);
    k.no_assemble = mode != 0; /* llvm-mc once per operation */
    if (mk_load_text(&k, text, c->name, NULL) == 0) {
        mk_buffer(&k, "arg0", a, N * 8);
        mk_buffer(&k, "arg1", b, N * 8);
        mk_buffer(&k, "arg2", o, N * 8);
        mk_value(&k, "arg3", get(a, c->in, ua));
        mk_value(&k, "arg4", get(b, c->in, ub));
        if (mk_run(&k, N / 64, 1, 1) == 0) {
            unsigned bad = 0;
            for (unsigned i = 0; i < N; i++) {
                uint64_t g = get(o, c->out, i), w = get(want, c->out, i);
                int ok = g == w;
                if (!ok && c->tol > 0 && c->out == F32) {
                    double gf = f32_of(g), wf = f32_of(w);
                    ok = fabs(gf - wf) <= c->tol * (fabs(wf) > 1e-30 ? fabs(wf) : 1.0) ||
                         (isnan(gf) && isnan(wf));
                }
                if (!ok && c->out == F32 && isnan(f32_of(g)) && isnan(f32_of(w)))
                    ok = 1;
                if (!ok && c->out == F64 && isnan(f64_of(g)) && isnan(f64_of(w)))
                    ok = 1;
                if (!ok && bad++ < 3)
                    CHECK_MSG(0, "element %u: a=0x%llx b=0x%llx: got 0x%llx, want 0x%llx", i,
                              (unsigned long long)get(a, c->in, mode >= 2 ? ua : i),
                              (unsigned long long)get(b, c->in, mode >= 1 ? ub : i),
                              (unsigned long long)g, (unsigned long long)w);
            }
            if (bad > 3)
                CHECK_MSG(0, "%u mismatches in all", bad);
        }
    }
    if (getenv("WAVEASM_TEST_DUMP_MLIR"))
        fputs(text, stderr);
    mk_free(&k);
    free(a);
    free(b);
    free(o);
    free(want);
    ut_context("%s", "");
}

static void run_matching(const char *prefix)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (strncmp(cases[i].name, prefix, strlen(prefix)) == 0)
            for (unsigned mode = 0; mode < 4; mode++)
                if (ty_bytes[cases[i].in] >= 4 || mode == 0 || mode == 3)
                    run_case(&cases[i], mode);
}

static void int_ops(void)
{
    mk_srand(1);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (cases[i].in == I32 && cases[i].out == I32 && strncmp(cases[i].name, "cmpi", 4) != 0)
            for (unsigned mode = 0; mode < 4; mode++)
                run_case(&cases[i], mode);
}

static void int_compares(void)
{
    mk_srand(2);
    run_matching("cmpi_");
}

static void float_ops(void)
{
    mk_srand(3);
    static const char *const names[] = { "addf", "subf", "mulf", "divf", "negf", "minnumf",
                                         "maxnumf", "minimumf", "maximumf" };
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        run_matching(names[i]);
}

static void float_compares(void)
{
    mk_srand(4);
    run_matching("cmpf_");
}

static void math_ops(void)
{
    mk_srand(5);
    static const char *const names[] = { "exp", "log", "sqrt", "rsqrt", "tanh", "absf", "fma",
                                         "powf" };
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        run_matching(names[i]);
}

static void casts(void)
{
    mk_srand(6);
    static const char *const names[] = { "sitofp", "uitofp", "fptosi", "fptoui", "extf",
                                         "truncf", "extsi", "extui", "trunci" };
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        run_matching(names[i]);
}

static void narrow_types(void)
{
    mk_srand(7);
    static const char *const names[] = { "addf_f16", "mulf_f16", "addi_i16", "muli_i16",
                                         "shrsi_i16", "divsi_i16", "divui_i16", "cmpi_slt_i16",
                                         "addi_i8" };
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        run_matching(names[i]);
}

static void i64_ops(void)
{
    mk_srand(8);
    run_matching("i64_");
}

static void f64_ops(void)
{
    mk_srand(9);
    run_matching("f64_");
}

UT_SUITE(UT_CASE(int_ops) UT_CASE(int_compares) UT_CASE(float_ops) UT_CASE(float_compares)
             UT_CASE(math_ops) UT_CASE(casts) UT_CASE(narrow_types) UT_CASE(i64_ops)
             UT_CASE(f64_ops));
