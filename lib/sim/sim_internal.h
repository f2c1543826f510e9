/* lib/sim/sim_internal.h — the simulator's state, shared by its files. Not installed.

   machine.c   creation, arguments, the run loop (workgroups, waves, scheduling,
               barriers), operand access, errors, the list of semantics files
   memory.c    global memory (bound buffers, kernarg segment, scratch space), LDS,
               the in-flight operation queue and its completion effects
   sopp.c      program control (branches, s_waitcnt, s_barrier, s_nop, ...)
   salu.c      scalar ALU semantics (SOP1, SOP2, SOPK, SOPC)
   smem.c      scalar memory (loads, stores, atomics, cache control, timers)
   alu.c       VALU semantics (conversions, lanes, ...)
   vopc.c      vector compares (VOPC)
   vmem.c      MUBUF, FLAT, GLOBAL instructions, LDS-DMA, float atomics
   memops.c    what vmem.c does not take over (LDS-DMA helpers)
   ds.c        DS (LDS) instructions
   mfma.c      MFMA semantics with the hardware lane layouts
   vop3.c      VOP3-only VALU semantics (three-source, 16-bit, 64-bit, packing)
   vop3p.c     VOP3P: packed math, dot products, v_fma_mix, accvgpr moves
   fpconv.c    f16 / bf16 / fp8 conversions
   vop1.c      VOP1 semantics; vop2.c VOP2 semantics
   vmods.c     VALU source and output modifiers (abs, neg, clamp, omod, SDWA)
   hazards.c   the hazard mode: wait states between producer and consumer

   Every opcode's semantics is found through sim_handler(): each semantics file
   has one table for the opcodes it executes. */
#ifndef WAVEASM_SIM_INTERNAL_H
#define WAVEASM_SIM_INTERNAL_H

#include <waveasm/sim.h>

#include <waveasm/liveness.h>
#include <waveasm/validate.h>

#include "../ir/ir.h"

#define SIM_LANES 64u
#define SIM_ALL_LANES 0xFFFFFFFFFFFFFFFFull
/* Device address of the buffer bound to argument `arg`: 64 GiB apart (a buffer's
   limit), so an address names its argument. */
#define SIM_BUFFER_BASE(arg) ((uint64_t)((arg) + 1u) << 36)
#define SIM_BUFFER_ARG(addr) (((addr) >> 36) - 1u)

/* One 32-bit vector register: a value and a defined bit per lane. */
typedef struct sim_vec {
    uint32_t v[SIM_LANES];
    uint64_t def;
} sim_vec;

/* Register files: physical registers first (s0..s127, v0..v255, a0..a255), then
   the components of the program's virtual registers of that class. */
enum { SIM_FILE_S = 0, SIM_FILE_V = 1, SIM_FILE_A = 2, SIM_FILES = 3 };
#define SIM_PHYS_S 128u
#define SIM_PHYS_V 256u
#define SIM_PHYS_A 256u

/* Kinds of in-flight memory operation (which counter, which order). */
enum { SIM_Q_VM = 0, SIM_Q_DS = 1, SIM_Q_SM = 2, SIM_QUEUES = 3 };

/* Memory spaces of one transfer element. */
enum {
    SIM_SP_GLOBAL = 0, /* device address */
    SIM_SP_LDS,        /* byte offset in the workgroup's LDS */
    SIM_SP_ZERO,       /* out of range: reads 0 */
    SIM_SP_DROP        /* out of range: the write is dropped */
};

/* Element operations. */
enum {
    SIM_E_LOAD = 0,    /* memory -> register lane (zero/sign extended) */
    SIM_E_STORE,       /* register lane (read at issue) -> memory */
    SIM_E_DMA,         /* global memory -> LDS (LDS-DMA) */
    SIM_E_ADD_F32,     /* atomic add (returns the old value if `file` is set) */
    SIM_E_PK_ADD_BF16, /* atomic packed bf16 add */
    SIM_E_ATOMIC,      /* integer atomic `aop` on 4 or 8 bytes: val (val_hi) is the data,
                          cmp (cmp_hi) the compare value of cmpswap; the old value goes
                          to registers reg (and reg + 1) if `file` is set */
    SIM_E_CONST,       /* no memory: `val` lands in register reg (s_memtime) */
    SIM_E_DS           /* an LDS atomic, d16 read or append (ds.c: sim_ds_land) */
};

/* Integer atomic operations (SIM_E_ATOMIC): new memory value from old m and data d
   (unsigned unless s-prefixed). inc: m >= d ? 0 : m + 1; dec: m == 0 || m > d ? d : m - 1. */
enum {
    SIM_A_SWAP = 0, SIM_A_CMPSWAP, SIM_A_ADD, SIM_A_SUB, SIM_A_SMIN, SIM_A_UMIN, SIM_A_SMAX,
    SIM_A_UMAX, SIM_A_AND, SIM_A_OR, SIM_A_XOR, SIM_A_INC, SIM_A_DEC
};
/* Float atomics (vmem.c sim_atomic_float): f32 add, packed f16/bf16 adds, f64 add,
   min, max. */
enum {
    SIM_A_ADD_F32 = 32, SIM_A_PK_ADD_F16, SIM_A_PK_ADD_BF16, SIM_A_ADD_F64, SIM_A_MIN_F64,
    SIM_A_MAX_F64
};
uint64_t sim_atomic_float(unsigned aop, uint64_t m, uint64_t d);
/* The new value of an integer atomic on `bytes` (4 or 8) bytes. */
uint64_t sim_atomic_apply(unsigned aop, unsigned bytes, uint64_t m, uint64_t d, uint64_t cmp);

/* One element of a memory operation: up to 4 bytes for one lane. */
typedef struct sim_elem {
    uint64_t addr;       /* in `space` */
    uint32_t val;        /* store data, or the LDS address of a DMA */
    uint8_t bytes;       /* 1, 2 or 4 */
    uint8_t space;       /* SIM_SP_* (of `addr`) */
    uint8_t op;          /* SIM_E_* */
    uint8_t sext;        /* loads: sign-extend */
    uint8_t def;         /* store data defined */
    uint8_t lane;        /* destination lane */
    uint16_t reg;        /* destination: register offset from the operation's base */
    uint8_t aop;         /* SIM_E_ATOMIC: SIM_A_* */
    uint32_t val_hi, cmp, cmp_hi; /* SIM_E_ATOMIC on 8 bytes, cmpswap */
    uint8_t half;        /* d16 loads: 1 the low, 2 the high 16 bits of the register
                            (the other half kept); 0 the whole register */
} sim_elem;

typedef struct sim_op {
    uint64_t issue, done;   /* times */
    uint32_t id;            /* unique, > 0 */
    unsigned wave;          /* index in the workgroup */
    unsigned item;          /* the instruction */
    unsigned queue;         /* SIM_Q_* */
    int file;               /* destination register file, -1 if none */
    unsigned reg, nregs;    /* destination registers: file index reg .. reg+nregs-1 */
    int writes_lds;         /* has LDS writes (race checks) */
    unsigned n, cap;
    sim_elem *e;
} sim_op;

typedef struct sim_hz sim_hz; /* hazards.c */

enum { SIM_WAVE_READY = 0, SIM_WAVE_BARRIER, SIM_WAVE_DONE };

typedef struct sim_wave {
    unsigned id;             /* index in the workgroup */
    unsigned pc;             /* next item */
    int state;
    uint64_t t;              /* time */
    uint64_t executed;       /* instructions */
    uint32_t *s;             /* SGPRs */
    uint8_t *s_def;
    sim_vec *v, *a;          /* VGPRs, AGPRs */
    uint32_t *pend[SIM_FILES]; /* per register: in-flight operation writing it, 0 if none */
    uint64_t exec, vcc;
    uint32_t m0;
    int scc;
    uint8_t exec_def, vcc_def, m0_def, scc_def;
    uint32_t mode;           /* the MODE hardware register (s_getreg/s_setreg) */
    uint32_t phase;          /* barriers the wave has passed (LDS race checks) */
    unsigned inflight[SIM_QUEUES];  /* operations of the wave not yet complete */
    uint64_t last_done[SIM_QUEUES]; /* in-order queues: completion of the newest */
    sim_hz *hz;
} sim_wave;

/* Pages of the scratch space (WA_SIM_PERMISSIVE), 4 KiB each. */
typedef struct sim_page {
    uint64_t base;
    struct sim_page *next;
    uint8_t data[4096];
    uint8_t def[4096];
    uint8_t written[512];   /* bit per byte */
} sim_page;

typedef struct sim_region {
    uint64_t base, size;
    uint8_t *data;          /* host memory (bound buffers) or owned (kernarg) */
    uint8_t *def;           /* defined bit per byte (owned) */
} sim_region;

struct wa_sim {
    wa_context *ctx;
    wa_program *prog;       /* private copy */
    unsigned *label_at;     /* per label: the item placing it, WA_NONE if none */
    wa_sim_options opts;
    wa_target target;
    unsigned wg[3], grid[3];
    unsigned nwaves;        /* per workgroup */
    /* virtual registers: file and first register index of each */
    uint8_t *vfile;
    unsigned *vbase;
    unsigned nregs[SIM_FILES];
    /* arguments */
    unsigned nargs;
    wa_kernel_arg *args;
    sim_region *bufs;       /* per argument: bound buffer at SIM_BUFFER_BASE (size 0 if none) */
    uint8_t *arg_value;     /* by-value bytes per argument (kernarg layout) */
    uint8_t *arg_set;
    sim_region kernarg;
    unsigned kernarg_size;
    /* scratch space (permissive) */
    sim_page **pages;
    unsigned npage_slots;
    uint64_t npages;
    /* the running workgroup */
    unsigned wgid[3];
    sim_wave *waves;
    uint8_t *lds, *lds_def;
    unsigned lds_bytes;
    /* per LDS byte: the last access of each kind and the barrier phase it came
       in (multi-wave workgroups only), to find accesses of different waves that
       no s_barrier orders */
    struct sim_lds_sync *lds_sync;
    /* in-flight operations: a min-heap on `done` */
    sim_op **heap;
    unsigned nheap, capheap;
    sim_op **free_ops;
    unsigned nfree, capfree;
    uint32_t next_op_id;
    uint64_t rng;
    /* flow and results */
    wa_status status;       /* first error */
    wa_sim_stats stats;
};

/* MODE as the kernel descriptor sets it: round to nearest (FP_ROUND 3:0 = 0), f32
   and f16/f64 denormals kept (FP_DENORM 7:4 = 0xF), DX10_CLAMP (bit 8) and IEEE
   (bit 9) on. The float semantics assume the bits in SIM_MODE_FLOAT at these
   values; s_setreg may change only them (other MODE bits are not modelled). */
#define SIM_MODE_DEFAULT 0x000003F0u
#define SIM_MODE_FLOAT 0x008003FFu /* round, denorm, dx10_clamp, ieee (9:0), fp16_ovfl (23) */

/* What a semantics function sees. */
typedef struct sim_ctx {
    wa_sim *sim;
    sim_wave *w;
    unsigned item;
    const wa_instr *in;
    const wa_isa_info *info;
    unsigned next_pc;       /* set by branches; default item + 1 */
    unsigned wait_states;   /* issue slots this instruction takes (s_nop: N + 1) */
    unsigned cycles;        /* model time it takes, if not wait_states (s_sleep) */
    int stop;               /* s_endpgm */
    int barrier;            /* s_barrier */
    /* DPP (alu.c sim_dpp_prepare): src0 (operand 1) as read across lanes, and the
       lanes the instruction writes; sim_read_vec and sim_exec answer from them. */
    int dpp;
    uint32_t dpp_src0[SIM_LANES];
    uint64_t dpp_src0_def, dpp_lanes;
    int int_clamp;          /* the semantics saturate an integer result (clamp) */
} sim_ctx;

typedef void (*sim_fn)(sim_ctx *c);

/* Semantics tables, one per family file: each returns NULL for opcodes it does
   not execute; the *_why_not functions name the reason for the opcodes of their
   family they leave out (NULL otherwise). machine.c lists the files. */
sim_fn sim_sopp_fn(unsigned op);        /* sopp.c: program control */
const char *sim_sopp_why_not(unsigned op);
sim_fn sim_salu_fn(unsigned op);        /* salu.c: SOP1, SOP2, SOPK, SOPC */
const char *sim_salu_why_not(unsigned op);
sim_fn sim_smem_fn(unsigned op);        /* smem.c: scalar memory */
const char *sim_smem_why_not(unsigned op);
sim_fn sim_alu_fn(unsigned op);         /* alu.c: VALU */
sim_fn sim_vopc_fn(unsigned op);        /* vopc.c: vector compares */
const char *sim_vopc_why_not(unsigned op);
sim_fn sim_vmem_fn(unsigned op);        /* vmem.c: MUBUF, FLAT, GLOBAL, SCRATCH */
const char *sim_vmem_why_not(unsigned op);
sim_fn sim_memop_fn(unsigned op);       /* memops.c: MUBUF, global (vmem.c comes first) */
sim_fn sim_mfma_fn(unsigned op);        /* mfma.c: MFMA */
sim_fn sim_ds_fn(unsigned op);          /* ds.c: DS (LDS) */
const char *sim_ds_why_not(unsigned op);
const char *sim_mfma_why_not(unsigned op);
sim_fn sim_vop3_fn(unsigned op);        /* vop3.c: VOP3-only VALU */
const char *sim_vop3_why_not(unsigned op);
/* WA_MODOK_CLAMP / WA_MODOK_OPSEL where vop3.c's semantics model them (integer
   saturation, half and byte selects) for `op`; 0 otherwise. */
unsigned sim_vop3_models(unsigned op);
sim_fn sim_vop3p_fn(unsigned op);       /* vop3p.c: packed math, dot, mix, accvgpr */
const char *sim_vop3p_why_not(unsigned op);
sim_fn sim_vop1_fn(unsigned op);        /* vop1.c: VOP1 */
const char *sim_vop1_why_not(unsigned op);
sim_fn sim_vop2_fn(unsigned op);        /* vop2.c: VOP2 */
const char *sim_vop2_why_not(unsigned op);

/* ---- VALU modifiers (vmods.c) ------------------------------------------------------------ */

/* A modifier of `in` the VALU modifier code does not model, or NULL. */
const char *sim_vmods_unmodelled(const wa_instr *in, const wa_isa_info *info);
/* SDWA select, abs and neg of source operand k (component comp), just read. */
void sim_vmods_src(const sim_ctx *c, unsigned k, unsigned comp, uint32_t v[SIM_LANES]);
/* Output modifier, clamp and SDWA dst_sel of a result for operand k (old: the
   register's values, old_def its defined lanes; *def narrowed where old bits are
   kept). 0 after an error. */
int sim_vmods_dst(sim_ctx *c, unsigned k, unsigned comp, uint32_t v[SIM_LANES],
                  const uint32_t old[SIM_LANES], uint64_t old_def, uint64_t *def);
/* The semantics of `op` (NULL: not executable, see sim_unsupported_reason). */
sim_fn sim_handler(unsigned op);
/* Why the simulator does not execute `op` (NULL if it does). */
const char *sim_unsupported_reason(unsigned op);

/* ---- errors (machine.c) -------------------------------------------------------------- */

/* Records an error at the current instruction (first one wins); later access
   functions become no-ops. */
void sim_fail(sim_ctx *c, wa_status st, const char *fmt, ...) WA_PRINTF(3, 4);
static inline int sim_failed(const sim_ctx *c) { return c->sim->status != WA_OK; }

/* ---- operands (machine.c) ---------------------------------------------------------------- */

/* The register file and index of component `comp` of register operand `o`
   (virtual or physical). Returns 0 if `o` is no register. */
int sim_reg_of(const wa_sim *sim, const wa_operand *o, unsigned comp, unsigned *file,
               unsigned *index);

/* Reads component `comp` of source operand k as a 32-bit value per lane (SGPRs,
   specials and immediates are broadcast). `def` gets the lanes that are defined. */
void sim_read_vec(sim_ctx *c, unsigned k, unsigned comp, uint32_t out[SIM_LANES], uint64_t *def);
/* Reads component `comp` of operand k as a scalar (SGPR, special, immediate;
   a VGPR is an error). */
uint32_t sim_read_s(sim_ctx *c, unsigned k, unsigned comp, int *def);
/* Reads a 64-bit scalar operand (an SGPR pair, vcc, exec, or an immediate). */
uint64_t sim_read_s64(sim_ctx *c, unsigned k, int *def);
/* Writes component `comp` of destination operand k in the lanes of `lanes`. */
void sim_write_vec(sim_ctx *c, unsigned k, unsigned comp, const uint32_t val[SIM_LANES],
                   uint64_t lanes, uint64_t def);
void sim_write_s(sim_ctx *c, unsigned k, unsigned comp, uint32_t val, int def);
void sim_write_s64(sim_ctx *c, unsigned k, uint64_t val, int def);
/* The register `comp` of operand k for direct access (MFMA), with the checks of a
   read (pending loads) or a write. NULL on error. */
sim_vec *sim_vec_reg(sim_ctx *c, unsigned k, unsigned comp, int for_write);
/* An operand that is an immediate: its 32-bit pattern for the operand's type. */
int sim_imm_bits(const sim_ctx *c, unsigned k, uint32_t *bits);

/* Number of registers operand k spans (component count). */
static inline unsigned sim_opnd_count(const sim_ctx *c, unsigned k)
{
    return k < c->in->nops ? c->in->ops[k].count : 0;
}

/* The lanes the instruction writes: EXEC, narrowed by DPP's masks and sources. */
static inline uint64_t sim_exec(const sim_ctx *c) { return c->dpp ? c->dpp_lanes : c->w->exec; }

/* DPP: reads src0 from the lanes dpp_ctrl names and works out the lanes written
   (before the instruction's semantics run). */
void sim_dpp_prepare(sim_ctx *c);

/* ---- memory (memory.c) ------------------------------------------------------------------ */

/* A new operation for the current instruction on `queue`; its elements are added
   with sim_op_add, then sim_op_issue schedules it. */
sim_op *sim_op_new(sim_ctx *c, unsigned queue);
int sim_op_add(sim_ctx *c, sim_op *op, const sim_elem *e);
/* Marks the destination registers pending and queues the operation with a
   completion time drawn for its queue. */
void sim_op_issue(sim_ctx *c, sim_op *op, int file, unsigned reg, unsigned nregs);
/* An LDS read (not yet issued) overlapping a write issued before it that has not
   landed (another wave's, or an LDS-DMA): reports it and returns 1. Checked at
   issue and again when the read lands. */
int sim_lds_race_at_issue(sim_ctx *c, const sim_op *op);
/* Sizes (or clears, for the next workgroup) the per-byte LDS access record;
   -1 when out of memory. */
int sim_lds_sync_alloc(wa_sim *sim);
/* Applies a SIM_E_DS element when its operation lands (ds.c). */
void sim_ds_land(wa_sim *sim, sim_wave *w, const sim_op *op, const sim_elem *e);
/* Completes every operation due by time `t` (applies their effects). */
void sim_complete_until(wa_sim *sim, uint64_t t);
/* Completes everything (end of a workgroup). */
void sim_complete_all(wa_sim *sim);
/* Frees operation buffers. */
void sim_ops_free(wa_sim *sim);

/* Global memory: classify `bytes` bytes at `addr` (SIM_SP_GLOBAL if they lie in
   a bound buffer, the kernarg segment or, permissively, the scratch space);
   errors are reported on `c`. */
int sim_global_check(sim_ctx *c, uint64_t addr, unsigned bytes, int write);
/* Raw accesses (no checks; out-of-range reads give 0 and undefined). */
void sim_global_read(wa_sim *sim, uint64_t addr, uint8_t *val, uint8_t *def, unsigned bytes);
void sim_global_write(wa_sim *sim, uint64_t addr, const uint8_t *val, int def, unsigned bytes);
void sim_scratch_free(wa_sim *sim);

/* Deterministic random numbers (splitmix64). */
uint64_t sim_rand(wa_sim *sim);

/* ---- floating point (fpconv.c) ------------------------------------------------------------ */

float sim_f32(uint32_t bits);
uint32_t sim_f32_bits(float f);
/* f16/bf16 <-> f32, round to nearest even (sim_f32_to_f16_rtz: toward zero). */
float sim_f16_to_f32(uint16_t h);
uint16_t sim_f32_to_f16(float f);
uint16_t sim_f32_to_f16_rtz(float f);
float sim_bf16_to_f32(uint16_t h);
uint16_t sim_f32_to_bf16(float f);
/* 8-bit floats: E4M3 (`fp8`) as the target defines it (gfx942: FNUZ, bias 8;
   gfx950: OCP E4M3FN, bias 7). */
float sim_fp8_to_f32(uint8_t v, wa_target target);
/* f32 to fp8 (bf8: E5M2) of the target's flavour, round to nearest even; out of
   range: NaN (E5M2 on gfx950: infinity). */
uint8_t sim_f32_to_f8(float f, int bf8, wa_target target);

/* ---- hazards (hazards.c) ------------------------------------------------------------------ */

sim_hz *sim_hz_new(wa_context *ctx);
void sim_hz_free(wa_context *ctx, sim_hz *hz);
void sim_hz_reset(sim_hz *hz);
/* Checks the instruction about to execute against what earlier instructions of
   the wave wrote and read; reports through sim_fail. sim_hz_record then notes
   what it wrote and read, once it has executed. */
void sim_hz_check(sim_ctx *c);
void sim_hz_record(sim_ctx *c);

#endif
