/* lib/mlir/internal.h — shared state of the MLIR front end: the translation
   of one kernel (tr), the value layer that maps MLIR values to registers and
   constants (wv, wval, mref), instruction emission with operand legalisation,
   and the per-dialect lowering entry points. Not installed. */
#ifndef WAVEASM_MLIR_INTERNAL_H
#define WAVEASM_MLIR_INTERNAL_H

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <waveasm/mlir.h>
#include <waveasm/waveasm.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define TR_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TR_PRINTF(fmt, args)
#endif

/* ---- element types ------------------------------------------------------------------ */

typedef enum et_kind {
    ET_NONE = 0,
    ET_INT,   /* iN, signless (and index, which is 32-bit here) */
    ET_FLOAT, /* f16, bf16, f32, f64, 8-bit and smaller float formats */
    ET_OTHER  /* a type the front end does not compute with (opaque, tokens) */
} et_kind;

typedef enum et_float {
    EF_NONE = 0,
    EF_F16, EF_BF16, EF_F32, EF_F64,
    EF_F8E4M3FNUZ, EF_F8E5M2FNUZ, EF_F8E4M3FN, EF_F8E5M2, EF_F8E8M0,
    EF_F6E2M3, EF_F6E3M2, EF_F4E2M1
} et_float;

typedef struct ety {
    uint8_t kind;   /* et_kind */
    uint8_t bits;   /* 1, 4, 6, 8, 16, 32, 64 */
    uint8_t fkind;  /* et_float for ET_FLOAT */
    uint8_t index;  /* the MLIR type was `index` */
} ety;

/* i32 (and index, computed in 32 bits) */
#define TR_I32 ((ety){ ET_INT, 32, EF_NONE, 0 })
#define TR_I1 ((ety){ ET_INT, 1, EF_NONE, 0 })
#define TR_F32 ((ety){ ET_FLOAT, 32, EF_F32, 0 })

/* ---- scalar values ------------------------------------------------------------------ */

typedef enum wv_kind {
    WV_NONE = 0,
    WV_CONST, /* bits in `c` (zero-extended to 64) */
    WV_SREG,  /* uniform, in an SGPR (a pair for 64-bit types) */
    WV_VREG,  /* in a VGPR (a pair for 64-bit types); per lane unless `uniform` */
    WV_MASK,  /* i1 per lane: a 64-bit lane mask in an SGPR pair */
    WV_SBOOL  /* uniform i1: 0 or 1 in an SGPR */
} wv_kind;

/* One scalar element. Integers in registers may carry a pending constant
   (`add`): the value is (register >> shift) + add in the element's width, so
   that address arithmetic folds constants into instruction offsets. Sub-dword
   elements sit at bit `shift` of their register; the bits above their width
   are unspecified. */
typedef struct wv {
    uint8_t kind;     /* wv_kind */
    uint8_t shift;    /* bit offset of a sub-dword element in its register */
    uint8_t uniform;  /* same value in every lane (WV_VREG, WV_MASK) */
    uint8_t has_range;
    uint8_t align_log2; /* integers: the value is a multiple of 2^align_log2 */
    wa_operand r;     /* register (WV_SREG, WV_VREG, WV_MASK, WV_SBOOL) */
    int64_t add;      /* pending addend of an integer register value */
    uint64_t c;       /* WV_CONST bits */
    int64_t lo, hi;   /* signed range of an integer when has_range */
} wv;

/* ---- memrefs ---------------------------------------------------------------------------- */

typedef enum mspace {
    MS_GLOBAL = 0, /* a kernel argument's global buffer, addressed with its descriptor */
    MS_LDS,        /* workgroup memory */
    MS_BUFFER      /* an amdgpu fat raw buffer: a descriptor built by fat_raw_buffer_cast */
} mspace;

#define TR_MAX_RANK 8

typedef struct mref {
    uint8_t space;     /* mspace */
    uint8_t rank;
    uint8_t bounds;    /* MS_BUFFER: accesses rely on the descriptor's range check */
    unsigned arg;      /* MS_GLOBAL: the kernel argument of the buffer */
    wa_operand srd;    /* MS_BUFFER: the descriptor (4 SGPRs) */
    wv base;           /* MS_LDS: byte address of the allocation's start */
    wv off;            /* byte offset of element [0, ..., 0] from the base */
    wv size[TR_MAX_RANK];
    wv stride[TR_MAX_RANK]; /* in elements */
    ety et;
    unsigned esize;    /* bytes per element (1 for sub-byte types, see esize_bits) */
    unsigned ebits;
} mref;

/* ---- MLIR values -------------------------------------------------------------------- */

typedef enum vk {
    VK_SCALAR = 1,
    VK_VECTOR,
    VK_MEMREF,
    VK_TOKEN /* no data (async tokens, stream bindings before a subspan) */
} vk;

typedef struct wval {
    uint8_t kind;     /* vk */
    ety et;
    unsigned n;       /* elements (1 for a scalar) */
    unsigned rank;    /* vector rank (0 for a scalar) */
    int64_t shape[TR_MAX_RANK];
    wv *e;            /* n elements */
    mref *m;          /* VK_MEMREF */
    unsigned binding; /* VK_TOKEN of a !stream.binding argument: its kernel argument */
    int is_binding;
    int has_store;    /* elements are views of `store` (phi registers of a vector) */
    wa_operand store;
} wval;

/* ---- kernel arguments ---------------------------------------------------------------- */

typedef struct targ {
    unsigned index;     /* wa_program argument index */
    unsigned size;      /* bytes */
    int buffer;         /* global buffer */
    int loaded;         /* SGPR value loaded in the prologue */
    wa_operand sreg;    /* the value (1 or 2 SGPRs) */
    int srd_built;
    wa_operand srd;     /* buffer descriptor */
    uint64_t extent;    /* bytes the kernel may touch, 0 = unknown (descriptor: maximum) */
} targ;

/* ---- diagnostics collected during a translation ------------------------------------- */

typedef struct tr_diag {
    wa_severity sev;
    wa_status status;
    char *msg, *file;
    unsigned line, col;
} tr_diag;

/* ---- hash map from MLIR pointers --------------------------------------------------- */

typedef struct pmap_ent {
    const void *key;
    void *val;
    unsigned flags;
} pmap_ent;

typedef struct pmap {
    pmap_ent *ents;
    unsigned cap, count;
} pmap;

/* ---- a structured region being lowered (loops, for EXEC bookkeeping) ----------------- */

typedef struct tr_loop {
    struct tr_loop *outer;
    int divergent;
} tr_loop;

/* ---- the translation of one kernel ------------------------------------------------ */

typedef struct tr_call tr_call;

typedef struct tr {
    tr_call *S;
    wa_context *ctx;
    wa_program *prog;
    wa_target target;
    MlirContext mctx;
    MlirOperation func;       /* the kernel function */
    MlirOperation module;     /* nearest symbol table around it (for memref.global) */
    int is_gpu_func;
    unsigned wg[3];
    int failed;

    pmap values;              /* MlirValue.ptr -> wval*; flags: TR_DIVERGENT, TR_UNIFORM_VALUED */
    pmap globals;             /* symbol name (interned ptr) -> LDS offset + 1 */
    struct tr_mem *mem;       /* arena */

    /* what the kernel uses (found before lowering) */
    unsigned uses_wgid;       /* bits 0..2 */
    unsigned uses_tid;        /* bits 0..2 */
    unsigned uses_grid;       /* bits 0..2 */
    unsigned uses_lanes;      /* lane id / shuffle scratch */

    /* ABI registers and prologue */
    wa_operand kernarg;       /* s[0:1] */
    wa_operand wgid_reg[3];
    unsigned prologue_end;    /* index where hoisted code goes */
    int in_prologue;
    targ *args;
    unsigned nargs;
    unsigned hidden_grid_arg[3];
    int have_tid[3];
    wv tid[3];
    int have_lane;
    wv lane;
    int have_wave;
    wv wave;                  /* wave index in the workgroup (SGPR) */
    int have_shuffle_lds;
    unsigned shuffle_lds;     /* LDS offset of the shuffle scratch (64 dwords per wave) */

    unsigned lds_bytes;
    unsigned label_id;
    tr_loop *loop;
    int exec_narrow;          /* inside divergent control flow */
    MlirLocation cur_loc;
    int have_loc;
} tr;

#define TR_DIVERGENT 0x1u
#define TR_UNIFORM_VALUED 0x2u /* divergent operands but a provably wave-uniform value */

/* ---- translate.c ------------------------------------------------------------------- */

/* Records an error at `loc` (resolved to file:line:col) and marks the
   translation failed; returns -1 so that callers can `return tr_error(...)`. */
int tr_error(tr *T, MlirLocation loc, wa_status st, const char *fmt, ...) TR_PRINTF(4, 5);
int tr_error_op(tr *T, MlirOperation op, wa_status st, const char *fmt, ...) TR_PRINTF(4, 5);
/* A note attached to the previous error. */
void tr_note(tr *T, MlirLocation loc, const char *fmt, ...) TR_PRINTF(3, 4);
/* Out of memory: records it once. */
int tr_nomem(tr *T);
/* Lowers every operation of `block` in order. */
int tr_lower_block(tr *T, MlirBlock block);
/* Lowers one operation (dispatch by name). */
int tr_lower_op(tr *T, MlirOperation op);

/* ---- memory ---------------------------------------------------------------------- */
void *tr_alloc(tr *T, size_t size);   /* zeroed, arena; NULL (error recorded) on failure */
char *tr_strndup(tr *T, const char *s, size_t n);

/* ---- values.c: map, types, constants ----------------------------------------------- */

int pmap_put(pmap *m, const void *key, void *val, unsigned flags);
pmap_ent *pmap_get(const pmap *m, const void *key);
void pmap_free(pmap *m);

/* The op's name as "dialect.op" (not NUL-terminated). */
MlirStringRef tr_op_name(MlirOperation op);
int tr_name_is(MlirOperation op, const char *name);
int tr_strref_eq(MlirStringRef s, const char *c);

/* Element type of a scalar, vector or memref type; ET_OTHER if unsupported. */
ety tr_ety(MlirType t);
/* Element type and shape of a type: scalars have rank 0 and n 1. */
int tr_type_shape(tr *T, MlirType t, ety *et, unsigned *rank, int64_t *shape, unsigned *n);
const char *tr_ety_name(ety et, char *buf, size_t len);
unsigned tr_ety_dwords(ety et); /* registers per element in an element register: 1 or 2 */

/* Value lookup / definition. */
wval *tr_val(tr *T, MlirValue v);                    /* NULL with an error if not lowered */
int tr_set_val(tr *T, MlirValue v, wval *w);
int tr_is_divergent(tr *T, MlirValue v);
int tr_is_uniform_valued(tr *T, MlirValue v);         /* not divergent, or provably uniform */
wval *tr_new_val(tr *T, vk kind, ety et, unsigned n);
/* A value shaped like MLIR type `t` with uninitialised elements. */
wval *tr_new_val_type(tr *T, MlirType t);
/* The scalar element of a scalar value (first element). */
wv *tr_scalar(tr *T, MlirValue v);

/* Constants. */
wv wv_const(uint64_t bits);
wv wv_const_int(ety et, int64_t v);          /* truncated to the width */
int wv_is_const(const wv *e);
int64_t wv_sext(const wv *e, ety et);        /* constant as signed */
uint64_t wv_zext(const wv *e, ety et);       /* constant as unsigned */
uint64_t tr_mask_bits(unsigned bits);
/* Float bits of `d` in format `fk` (round to nearest even). */
uint64_t tr_float_bits(double d, et_float fk);
double tr_float_value(uint64_t bits, et_float fk);
/* An integer/float attribute as element bits of `et`; 0 on success. */
int tr_attr_bits(tr *T, MlirAttribute a, ety et, uint64_t *bits);
/* Integer attribute value (i64), or a default when absent. */
int64_t tr_attr_int(MlirOperation op, const char *name, int64_t dflt);
int tr_attr_has(MlirOperation op, const char *name);
/* Dense i64 array attribute: number of elements written (-1 if absent). */
int tr_attr_i64_array(MlirOperation op, const char *name, int64_t *out, int max);
/* Prints an attribute to `buf` (truncated). */
void tr_attr_str(MlirAttribute a, char *buf, size_t len);
/* The static size, or INT64_MIN for a dynamic one. */
#define TR_DYNAMIC INT64_MIN

/* Range and alignment facts. */
void wv_set_range(wv *e, int64_t lo, int64_t hi);
void wv_infer_const_facts(wv *e, ety et);

/* ---- emit.c: registers, instructions, materialisation ------------------------------- */

wa_operand tr_vreg(tr *T, wa_reg_class cls, unsigned size);
wa_label tr_label(tr *T, const char *hint);
void tr_place(tr *T, wa_label l);
void tr_branch(tr *T, wa_opcode op, wa_label l);
void tr_comment(tr *T, const char *text);
/* Generic instruction (operands in table order). */
void tr_emit(tr *T, wa_opcode op, const wa_operand *ops, unsigned n, const wa_mods *mods);
/* VALU with legalised sources: inline constants kept, literals where the
   encoding takes them, else moved to registers; at most one scalar value on the
   constant bus. `commute` lets two-source operations swap their sources. dst
   may be a register or (compares) an SGPR pair or vcc. */
void tr_valu(tr *T, wa_opcode op, wa_operand dst, wa_operand a, wa_operand b, wa_operand c);
void tr_valu_c(tr *T, wa_opcode op, wa_operand dst, wa_operand a, wa_operand b);
/* SALU (at most one literal). */
void tr_salu(tr *T, wa_opcode op, wa_operand dst, wa_operand a, wa_operand b);
/* v_mov_b32 / s_mov_b32 of a 32-bit source into a new register. */
wa_operand tr_to_vgpr(tr *T, wa_operand src);
wa_operand tr_to_sgpr(tr *T, wa_operand src);

/* Operands of a scalar element. */
/* As a 32-bit source (immediate, SGPR or VGPR), the element in bits [0, width). */
wa_operand tr_src(tr *T, const wv *e);
/* As a VGPR / SGPR holding the element in its low bits. */
wa_operand tr_vsrc(tr *T, const wv *e);
wa_operand tr_ssrc(tr *T, const wv *e);
/* 64-bit element as a register pair (VGPR or SGPR) or an immediate. */
wa_operand tr_src64(tr *T, const wv *e);
/* Normalised integer: bits above the width sign- or zero-extended. */
wa_operand tr_src_ext(tr *T, const wv *e, ety et, int is_signed);
/* Lane mask (SGPR pair) of an i1 element. */
wa_operand tr_mask(tr *T, const wv *e);
/* Uniform i1 as 0/1 in an SGPR (error if the value is per lane). */
wa_operand tr_sbool(tr *T, const wv *e);
/* An element with its pending addend folded in (a plain register or constant). */
wv tr_settle(tr *T, const wv *e);
/* Element kinds for results. */
wv wv_sreg(wa_operand r);
wv wv_vreg(wa_operand r, int uniform);
wv wv_maskv(wa_operand r, int uniform);

/* Packs elements [first, first + count) of `w` into a VGPR tuple (count *
   bits / 32 registers, rounded up); reuses the registers when the elements
   already sit there in order. */
wa_operand tr_pack(tr *T, const wval *w, unsigned first, unsigned count);
/* Elements referring to the components of a VGPR tuple holding `count`
   packed elements of `et`. */
void tr_unpack(tr *T, wv *out, wa_operand tuple, ety et, unsigned count, int uniform);
/* Packs into an existing tuple (always copies). */
void tr_pack_to(tr *T, const wval *w, unsigned first, unsigned count, wa_operand dst);

/* ---- kernel.c: ABI, prologue ----------------------------------------------------- */

int tr_kernel_begin(tr *T);     /* arguments, ABI inputs, values of the block arguments */
int tr_kernel_end(tr *T);       /* LDS size, final checks */
/* Emission of hoisted code at the end of the prologue. */
unsigned tr_prologue_enter(tr *T);
void tr_prologue_leave(tr *T, unsigned saved);
wv tr_thread_id(tr *T, unsigned dim);
wv tr_workgroup_id(tr *T, unsigned dim);
wv tr_grid_dim(tr *T, unsigned dim);
wv tr_lane_id(tr *T);
wv tr_wave_id(tr *T);
wa_operand tr_arg_sreg(tr *T, unsigned arg);   /* a kernel argument's value */
wa_operand tr_arg_srd(tr *T, unsigned arg);    /* its buffer descriptor */
uint32_t tr_srd_word3(wa_target target);
/* Places `bytes` of LDS with `align`; returns the offset. */
unsigned tr_lds_alloc(tr *T, unsigned bytes, unsigned align, MlirLocation loc);

/* ---- uniformity.c ---------------------------------------------------------------- */
int tr_uniformity(tr *T);
int tr_gpu_dim(MlirOperation op);                     /* 0 x, 1 y, 2 z; -1 unknown */
int tr_const_int_value(MlirValue v, int64_t *out);    /* defined by arith.constant */

/* ---- intdiv.c: integer division ---------------------------------------------------- */

/* Magic numbers for division by a constant (Granlund-Montgomery / Warren). */
typedef struct tr_udiv_magic {
    uint32_t m;
    unsigned shift;
    int add;        /* the 33-bit multiplier case: q = (((x - t) >> 1) + t) >> (shift - 1) */
    unsigned pre;   /* pre-shift for even divisors (0 when unused) */
} tr_udiv_magic;
typedef struct tr_sdiv_magic {
    int32_t m;
    unsigned shift;
} tr_sdiv_magic;
void tr_udiv_magic_compute(uint32_t d, tr_udiv_magic *out);
void tr_sdiv_magic_compute(int32_t d, tr_sdiv_magic *out);
uint32_t tr_udiv_magic_eval(uint32_t x, uint32_t d, const tr_udiv_magic *mg);
int32_t tr_sdiv_magic_eval(int32_t x, int32_t d, const tr_sdiv_magic *mg);

typedef enum tr_divk {
    TR_DIV_U, TR_REM_U,      /* unsigned */
    TR_DIV_S, TR_REM_S,      /* signed, truncating (C) */
    TR_DIV_FLOOR, TR_MOD_FLOOR, /* signed, rounding toward -inf; remainder has the divisor's sign */
    TR_DIV_CEIL              /* signed, rounding toward +inf */
} tr_divk;
/* a (kind) b for 32-bit integers: constants fold, constant divisors use
   shifts/masks or magic multiplies, others the reciprocal sequence. Result in
   the register class the uniformity of the operands allows. */
wv tr_divrem(tr *T, tr_divk kind, const wv *a, const wv *b, int uniform);

/* ---- integer helpers shared by arith and affine (lower_arith.c) ------------------------ */

wv tr_iadd(tr *T, const wv *a, const wv *b, int uniform);
wv tr_isub(tr *T, const wv *a, const wv *b, int uniform);
wv tr_imul(tr *T, const wv *a, const wv *b, int uniform);
wv tr_imin(tr *T, const wv *a, const wv *b, int is_signed, int is_max, int uniform);
wv tr_iand(tr *T, const wv *a, const wv *b, int uniform);
wv tr_ixor(tr *T, const wv *a, const wv *b, int uniform);
wv tr_ishift(tr *T, int kind /* 0 shl, 1 shr.u, 2 shr.s */, const wv *a, const wv *b, int uniform);
/* i1 from a 32-bit integer comparison; pred as arith.cmpi (0 eq .. 9 uge). */
wv tr_icmp(tr *T, int pred, const wv *a, const wv *b, ety et, int uniform);
/* select(c, t, f) of 32-bit elements (or masks when et is i1). */
wv tr_select(tr *T, const wv *c, const wv *t, const wv *f, ety et, int uniform);
wv tr_not_mask(tr *T, const wv *e);
/* cmpi predicate `pred` on constants given signed and unsigned. */
int tr_icmp_fold(int pred, int64_t sa, int64_t sb, uint64_t ua, uint64_t ub);
/* The SCC as a uniform i1 (0 or 1 in an SGPR). */
wv tr_sbool_of_scc(tr *T);

/* ---- 64-bit integers and f64 (arith64.c) ------------------------------------------------ */

typedef enum tr_i64op {
    I64_ADD, I64_SUB, I64_MUL, I64_AND, I64_OR, I64_XOR, I64_SHL, I64_SHRU, I64_SHRS
} tr_i64op;
/* a (op) b of i64 elements, wrapping; shifts by the low 6 bits of b. SALU when
   both are uniform, VALU otherwise. */
wv tr_i64_bin(tr *T, tr_i64op op, const wv *a, const wv *b, int uniform);
/* i1 of an i64 comparison; pred as arith.cmpi (0 eq .. 9 uge). */
wv tr_i64_cmp(tr *T, int pred, const wv *a, const wv *b, int uniform);
wv tr_i64_minmax(tr *T, const wv *a, const wv *b, int is_signed, int is_max, int uniform);
/* f64 a + b (which 0), a - b (1), a * b (2); fma; min/max kinds as the f32
   path (0 minimumf, 1 maximumf, 2 minnumf, 3 maxnumf); cmpf predicates 0..15. */
wv tr_f64_bin(tr *T, int which, const wv *a, const wv *b, int uniform);
wv tr_f64_fma(tr *T, const wv *a, const wv *b, const wv *c, int uniform);
wv tr_f64_minmax(tr *T, int kind, const wv *a, const wv *b, int uniform);
wv tr_f64_cmp(tr *T, int pred, const wv *a, const wv *b, int uniform);
/* Conversions (round to nearest even; to integers toward zero). */
wv tr_f64_from_f32(tr *T, wa_operand f32, int uniform);
wa_operand tr_f32_of_f64(tr *T, const wv *e);
wv tr_f64_from_int(tr *T, wa_operand i32, int is_signed, int uniform);
wv tr_f64_to_int(tr *T, const wv *e, int is_signed, int uniform);

/* ---- memory access (lower_memref.c) ------------------------------------------------- */

/* Reads/writes `count` consecutive elements of `m` at indices `idx` (rank
   values) into / from `vals` (element refs). Where `mask` is given (count lane
   masks or constants), only the lanes and elements it selects are accessed and
   masked-off elements of a read take `pass` (may be NULL: undefined). */
int tr_mem_read(tr *T, MlirOperation op, const mref *m, const wv *idx, unsigned count, wv *vals,
                const wv *mask, const wv *pass);
int tr_mem_write(tr *T, MlirOperation op, const mref *m, const wv *idx, unsigned count,
                 const wv *vals, const wv *mask);
/* Byte offset of element `idx` from the base, as an element (constant or register). */
wv tr_mem_offset(tr *T, const mref *m, const wv *idx);
/* The memref value of an MLIR value (error if it is not one). */
mref *tr_memref(tr *T, MlirValue v);
/* A memref of MLIR type `t` (shape, strides from its layout) at `base`+`off`. */
int tr_memref_from_type(tr *T, MlirOperation op, MlirType t, mref *m);
/* The resource descriptor and constant-bus details of a global memref. */
wa_operand tr_memref_srd(tr *T, const mref *m);

/* Atomic read-modify-write kinds, numbered as MLIR's arith::AtomicRMWKind (the
   `kind` attribute of memref.atomic_rmw), plus compare-and-swap. */
typedef enum tr_atom {
    TA_ADDF = 0, TA_ADDI, TA_ANDI, TA_ASSIGN, TA_MAXIMUMF, TA_MAXNUMF, TA_MAXS, TA_MAXU,
    TA_MINIMUMF, TA_MINNUMF, TA_MINS, TA_MINU, TA_MULF, TA_MULI, TA_ORI, TA_XORI,
    TA_CMPSWAP, TA_COUNT_
} tr_atom;
/* "addf", ..., "cmpswap". */
const char *tr_atom_name(tr_atom k);
/* The one instruction that does `k` on `et` data in LDS (`lds`) or through a
   buffer descriptor on `target`; `rtn`: it must return the old value (DS
   picks its _rtn form; buffer atomics return it with GLC). 0 when there is
   none. */
wa_opcode tr_atom_opcode(tr_atom k, ety et, int lds, int rtn, wa_target target);

/* ---- lowering entry points (one file per dialect family) ------------------------------ */

typedef int (*tr_op_fn)(tr *T, MlirOperation op);
typedef struct tr_op_entry {
    const char *name;
    tr_op_fn fn;
} tr_op_entry;

extern const tr_op_entry tr_arith_ops[];
extern const tr_op_entry tr_math_ops[];
extern const tr_op_entry tr_affine_ops[];
extern const tr_op_entry tr_vector_ops[];
extern const tr_op_entry tr_memref_ops[];
extern const tr_op_entry tr_gpu_ops[];
extern const tr_op_entry tr_amdgpu_ops[];
extern const tr_op_entry tr_rocdl_ops[];
extern const tr_op_entry tr_scf_ops[];
extern const tr_op_entry tr_cf_ops[];
extern const tr_op_entry tr_misc_ops[];

/* Shared helpers of the lowering files. */
MlirValue tr_operand(MlirOperation op, intptr_t i);
MlirValue tr_result(MlirOperation op, intptr_t i);
intptr_t tr_noperands(MlirOperation op);
intptr_t tr_nresults(MlirOperation op);
/* Elementwise results: applies fn to each element index. */
wval *tr_result_val(tr *T, MlirOperation op, intptr_t i);

/* Float helpers (lower_arith.c): f32 arithmetic on any float element, converting
   narrower formats in and out. */
wa_operand tr_f32_of(tr *T, const wv *e, ety et);            /* VGPR/const operand holding f32 */
wv tr_f32_to(tr *T, wa_operand f32, ety et, int uniform);    /* back to the element type */
wv tr_math_unary(tr *T, const char *name, wa_operand x, int uniform, MlirOperation op);

/* Reads element `lane` of each lane's `v` into `r` (lower_gpu.c). */
int tr_broadcast_lane(tr *T, MlirOperation op, wval *v, const wv *lane, wval *r);

/* Control flow helpers (lower_scf.c). */
/* A register that can hold `w`'s elements across blocks (phi). */
int tr_phi_alloc(tr *T, const wval *like, wval **out, int divergent);
/* Copies `src` into the phi registers of `dst`. */
int tr_phi_copy(tr *T, const wval *dst, const wval *src);
/* Lowers a function body (one block, or several joined by cf branches). */
int tr_lower_region_cf(tr *T, MlirRegion region);
/* Branches to `target` when the uniform condition `c` is false (or true). */
void tr_branch_cond(tr *T, const wv *c, int when_true, wa_label target);

#endif
