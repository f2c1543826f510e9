/* tests/toolchain/isa_samples.c — one valid instance (and a few variants) of every
   opcode of the ISA table on every target, synthesised from the table's operand
   specs alone.

   For each (opcode, target) where the opcode exists, the tool builds the
   instance with the builder API, requires wa_program_validate to accept it,
   round-trips it through wa_program_print / wa_program_parse (equal programs,
   identical second print) and writes its assembly spelling (wa_emit_asm) with
   the opcode and the table's encoding. Where the opcode does not exist, it
   requires the validator to reject it and writes the line the assembler must
   reject. MFMAs renamed on gfx90a get extra lines: the gfx942 spelling must be
   rejected on gfx90a, the gfx90a spelling accepted on gfx942/gfx950.

   Then, per (row, target), RANDOM_SETS random operand sets from a fixed seed:
   every operand of a kind its position allows (registers of the right class and
   size at random aligned numbers, vcc/exec/m0, inline integer and float
   constants, literals, immediates anywhere in their field), and modifiers drawn
   from the row's allowed set (wa_isa_info.mods_ok: clamp, omod, neg, abs,
   op_sel, op_sel_hi, neg_hi, DPP, SDWA, cache bits, offsets, ...); one set in
   three also carries one modifier the row does not allow. The validator decides
   each one; accepted ones must assemble with the table's opcode, and for the
   completed families (tests/isa/isa_families.h) the rejected ones must be
   rejected by llvm-mc too.

   usage: wa_isa_samples --out-dir DIR [--random N] [--seed S] [--encode] [--verbose]
          wa_isa_samples --skip REASON      (prints REASON, exits 77)
   --random N: random operand sets per (row, target) (default RANDOM_SETS);
   --seed S: another fixed sequence of them (default 0).
   --encode: also write DIR/enc-<target>.tsv, one line per accepted line:
     assembly  bytes-of-the-instruction (hex, from wa_encode_program)  ID
   or `assembly  ERROR: message  ID` when the encoder refuses it; each encoding
   is also disassembled (wa_disassemble), parsed back and encoded again, which
   must give the same bytes.

   DIR/isa-<target>.tsv has one record per line:
     kind  opcode-number  ID  format  expected-encoding  variant  assembly  [dpp-word]
   dpp-word (DPP variants only): the second dword llvm-mc must produce.
   kind: A = must assemble, R = must be rejected, V = an instance of a completed
   family the validator rejected (llvm-mc must reject it too), S = the same for
   the other families (informational: the driver counts the ones llvm-mc
   accepts per family).
   Exit status: 0 when every check above passed, 1 otherwise. */
#include "isa_families.h"
#include "tc_common.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- operand kinds ------------------------------------------------------------------ */

typedef enum okind {
    K_NONE = 0,
    K_V,      /* VGPR tuple */
    K_A,      /* AGPR tuple */
    K_S,      /* numbered SGPR tuple */
    K_SPEC,   /* vcc/exec/m0 ... */
    K_INL,    /* inline integer constant */
    K_INLF,   /* inline float constant */
    K_LIT,    /* 32-bit integer literal */
    K_LITF,   /* float literal */
    K_IMM,    /* raw immediate field: a typical value */
    K_IMM_LO, /* raw immediate field: minimum */
    K_IMM_HI, /* raw immediate field: maximum */
    K_LABEL,
    K_OFF,
    K_COUNT_
} okind;

static const char *const kind_names[K_COUNT_] = {
    "none", "vgpr", "agpr", "sgpr", "special", "inline", "inline-float", "literal",
    "float-literal", "imm", "imm-min", "imm-max", "label", "off",
};

static int kind_is_scalar(okind k)
{
    return k == K_S || k == K_SPEC || k == K_LIT || k == K_LITF;
}

static int fmt_is_valu(wa_format f)
{
    return f == WA_FMT_VOP1 || f == WA_FMT_VOP2 || f == WA_FMT_VOPC || f == WA_FMT_VOP3 ||
           f == WA_FMT_VOP3P;
}

/* Kinds a position accepts, in the order of preference for the base instance. */
static unsigned allowed_kinds(const wa_isa_operand *spec, okind *out)
{
    unsigned n = 0, c = spec->classes;
    if (c & WA_OC_VGPR)
        out[n++] = K_V;
    if (c & WA_OC_AGPR)
        out[n++] = K_A;
    if (c & WA_OC_SGPR)
        out[n++] = K_S;
    if ((c & WA_OC_SPECIAL) && spec->size >= 1 && spec->size <= 2)
        out[n++] = K_SPEC;
    if (c & WA_OC_IMM) {
        out[n++] = K_IMM;
        out[n++] = K_IMM_LO;
        out[n++] = K_IMM_HI;
    }
    if (c & WA_OC_INLINE) {
        out[n++] = K_INL;
        out[n++] = K_INLF;
    }
    if (c & WA_OC_LABEL)
        out[n++] = K_LABEL;
    if (c & WA_OC_OFF)
        out[n++] = K_OFF;
    if (c & WA_OC_LITERAL) {
        out[n++] = K_LIT;
        out[n++] = K_LITF;
    }
    return n;
}

/* ---- one instance ------------------------------------------------------------------- */

typedef struct inst {
    wa_opcode op;
    const wa_isa_info *info;
    okind kind[WA_ISA_MAX_OPERANDS];
    wa_mods mods;
    int high;     /* allocate registers from the top of each file */
    int untied;   /* MFMA: srcC a separate range instead of vdst */
    unsigned pick; /* rotates constant values */
    unsigned char spec_sel[WA_ISA_MAX_OPERANDS]; /* which special register (K_SPEC) */
    char variant[96];
    int fixed;    /* random sets: the operands are fops, not made from the kinds */
    wa_operand fops[WA_ISA_MAX_OPERANDS];
} inst;

typedef struct alloc {
    int high;
    unsigned next[4]; /* by wa_reg_class, low mode */
    unsigned top[4];  /* high mode */
} alloc;

static void alloc_init(alloc *a, int high)
{
    memset(a, 0, sizeof(*a));
    a->high = high;
    a->next[WA_REG_VGPR] = 2;
    a->next[WA_REG_SGPR] = 4;
    a->next[WA_REG_AGPR] = 0;
    a->top[WA_REG_VGPR] = 256;
    a->top[WA_REG_SGPR] = 102;
    a->top[WA_REG_AGPR] = 256;
}

/* Tuple alignment from the hardware rules (ISA reference §1.6), independent of
   the library's own answer. */
static unsigned hw_align(wa_reg_class cls, unsigned size)
{
    if (size < 2)
        return 1;
    if (cls == WA_REG_SGPR)
        return size == 2 ? 2 : 4;
    return 2;
}

static wa_operand alloc_reg(alloc *a, wa_reg_class cls, unsigned size)
{
    unsigned al = hw_align(cls, size);
    unsigned base;
    if (a->high) {
        unsigned t = a->top[cls] - size;
        base = t / al * al;
        a->top[cls] = base;
    } else {
        base = (a->next[cls] + al - 1) / al * al;
        a->next[cls] = base + size;
    }
    return wa_opnd_phys(cls, base, size);
}

static int is_name(const wa_isa_operand *spec, const char *name)
{
    return spec->name && strcmp(spec->name, name) == 0;
}

static int find_operand(const wa_isa_info *info, const char *name)
{
    for (unsigned k = 0; k < info->num_operands; k++)
        if (is_name(&info->operands[k], name))
            return (int)k;
    return -1;
}

/* Registers an operand position needs (the table says 0 for "decided by the
   modifiers" positions). */
static unsigned position_size(const inst *I, unsigned k)
{
    const wa_isa_operand *spec = &I->info->operands[k];
    if (spec->size)
        return spec->size;
    if (I->info->format == WA_FMT_MUBUF && is_name(spec, "vaddr")) {
        unsigned f = I->mods.flags & (WA_MOD_OFFEN | WA_MOD_IDXEN);
        return f == (WA_MOD_OFFEN | WA_MOD_IDXEN) ? 2 : 1;
    }
    if (I->info->format == WA_FMT_GLOBAL && is_name(spec, "vaddr")) {
        int s = find_operand(I->info, "saddr");
        return s >= 0 && I->kind[s] == K_OFF ? 2 : 1;
    }
    if (I->info->flags & WA_IF_F8F6F4) {
        static const unsigned regs[5] = { 8, 8, 6, 6, 4 };
        unsigned code = is_name(spec, "srcA") ? I->mods.cbsz : I->mods.blgp;
        return code < 5 ? regs[code] : 8;
    }
    return 1;
}

static const int inline_ints[] = { 7, -5, 64, -16, 0, 1, 33 };
static const double inline_floats[] = { 0.5, -1.0, 2.0, -4.0, 1.0, -0.5, 4.0, 0.15915494309189532 };

static wa_operand make_imm(const inst *I, unsigned k, okind kind)
{
    const wa_isa_operand *spec = &I->info->operands[k];
    unsigned sel = I->pick + k + I->op;
    switch (kind) {
    case K_INL:
        return wa_opnd_imm(inline_ints[sel % (sizeof(inline_ints) / sizeof(inline_ints[0]))]);
    case K_INLF:
        return wa_opnd_fimm(
            inline_floats[sel % (sizeof(inline_floats) / sizeof(inline_floats[0]))]);
    case K_LIT:
        return wa_opnd_imm(spec->type == WA_TY_F16 ? 0x1234 : 0x12345 + (int64_t)(sel % 7) * 0x1111);
    case K_LITF:
        return wa_opnd_fimm(spec->type == WA_TY_F16 ? 1.5 : 3.25);
    case K_IMM:
        if (I->info->format == WA_FMT_SMEM && is_name(spec, "soffset"))
            return wa_opnd_imm(16);
        return wa_opnd_imm((int64_t)spec->imm_min + ((int64_t)spec->imm_max - spec->imm_min) / 3);
    case K_IMM_LO:
        return wa_opnd_imm(spec->imm_min);
    case K_IMM_HI:
        return wa_opnd_imm(spec->imm_max);
    default:
        return wa_opnd_none();
    }
}

static const wa_special specials_1[] = { WA_SPECIAL_M0, WA_SPECIAL_VCC_LO, WA_SPECIAL_EXEC_LO,
                                         WA_SPECIAL_VCC_HI, WA_SPECIAL_EXEC_HI };
static const wa_special specials_2[] = { WA_SPECIAL_VCC, WA_SPECIAL_EXEC };

static unsigned num_specials(unsigned size)
{
    return size == 2 ? 2u : size == 1 ? 5u : 0u;
}

static const char *wa_special_name_of(unsigned size, unsigned sel)
{
    static const char *const n1[] = { "m0", "vcc_lo", "exec_lo", "vcc_hi", "exec_hi" };
    static const char *const n2[] = { "vcc", "exec" };
    return size == 2 ? n2[sel % 2] : n1[sel % 5];
}

/* Index 0 is vcc for pairs (the 32-bit forms of compares and v_cndmask name it)
   and m0 for single registers. */
static wa_operand make_special(const inst *I, unsigned k, unsigned size)
{
    unsigned sel = I->spec_sel[k];
    if (size == 2)
        return wa_opnd_special(specials_2[sel % 2]);
    return wa_opnd_special(specials_1[sel % 5]);
}

/* Turns kinds and modifiers into operands. */
static unsigned materialize(const inst *I, wa_operand *ops)
{
    if (I->fixed) {
        memcpy(ops, I->fops, sizeof(I->fops));
        return I->info->num_operands;
    }
    alloc a;
    alloc_init(&a, I->high);
    const wa_isa_info *info = I->info;
    int is_mfma = (info->flags & WA_IF_MFMA) != 0;
    for (unsigned k = 0; k < info->num_operands; k++) {
        unsigned size = position_size(I, k);
        switch (I->kind[k]) {
        case K_V:
        case K_A:
        case K_S: {
            wa_reg_class cls = I->kind[k] == K_V ? WA_REG_VGPR
                             : I->kind[k] == K_A ? WA_REG_AGPR : WA_REG_SGPR;
            if (is_mfma && k == 3 && is_name(&info->operands[3], "srcC") && !I->untied &&
                I->kind[0] == I->kind[3])
                ops[k] = ops[0]; /* srcC tied to vdst */
            else
                ops[k] = alloc_reg(&a, cls, size);
            break;
        }
        case K_SPEC:
            ops[k] = make_special(I, k, size);
            break;
        case K_LABEL:
            ops[k] = wa_opnd_label(TC_LABEL_ID);
            break;
        case K_OFF:
            ops[k] = wa_opnd_off();
            break;
        default:
            ops[k] = make_imm(I, k, I->kind[k]);
            break;
        }
    }
    return info->num_operands;
}

/* Base kinds: the first preference per position, keeping a VALU instruction to
   one scalar value (constant bus) and using vcc where the 32-bit form needs it. */
static void base_kinds(inst *I)
{
    const wa_isa_info *info = I->info;
    int valu = fmt_is_valu(info->format);
    int scalar_used = 0;
    for (unsigned k = 0; k < info->num_operands; k++) {
        const wa_isa_operand *spec = &info->operands[k];
        okind kinds[K_COUNT_];
        unsigned n = allowed_kinds(spec, kinds);
        okind pick = n ? kinds[0] : K_NONE;
        if ((info->format == WA_FMT_VOPC && spec->role == WA_ROLE_DEF) ||
            (info->format == WA_FMT_VOP2 && is_name(spec, "mask")))
            pick = K_SPEC; /* vcc */
        else if (valu && spec->role == WA_ROLE_USE && scalar_used && kind_is_scalar(pick)) {
            for (unsigned i = 0; i < n; i++)
                if (!kind_is_scalar(kinds[i])) {
                    pick = kinds[i];
                    break;
                }
        }
        if (valu && spec->role == WA_ROLE_USE && kind_is_scalar(pick))
            scalar_used = 1;
        I->kind[k] = pick;
    }
    wa_mods m = WA_MODS_INIT;
    I->mods = m;
    if (info->format == WA_FMT_MUBUF) {
        int v = find_operand(info, "vaddr");
        if (v >= 0 && I->kind[v] == K_V)
            I->mods.flags |= WA_MOD_OFFEN;
    }
    /* scratch: a VGPR address and no SGPR (valid on every target) */
    if (info->format == WA_FMT_SCRATCH) {
        int s = find_operand(info, "saddr");
        if (s >= 0)
            I->kind[s] = K_OFF;
    }
    /* a FLAT/GLOBAL atomic with a result needs glc/sc0 */
    if ((info->format == WA_FMT_FLAT || info->format == WA_FMT_GLOBAL) &&
        (info->flags & WA_IF_ATOMIC) && info->num_operands && (info->operands[0].role & WA_ROLE_DEF))
        I->mods.flags |= WA_MOD_GLC;
    if (info->flags & WA_IF_WAITCNT)
        I->mods.vmcnt = 0;
    snprintf(I->variant, sizeof(I->variant), "base");
}

/* ---- output and checks -------------------------------------------------------------- */

typedef struct stats {
    unsigned accepted[WA_TARGET_COUNT], rejected[WA_TARGET_COUNT], strict[WA_TARGET_COUNT];
    unsigned must_reject[WA_TARGET_COUNT];
    unsigned random_accepted[WA_TARGET_COUNT], random_rejected[WA_TARGET_COUNT];
    unsigned unrepresentable;
    unsigned opcodes, failures;
} stats;

static int verbose;
static void fail(stats *st, const char *fmt, ...) TC_PRINTF(2, 3);
static void fail(stats *st, const char *fmt, ...)
{
    va_list ap;
    st->failures++;
    fprintf(stderr, "FAIL: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static FILE *enc_out; /* --encode: enc-<target>.tsv */
static unsigned enc_written, enc_roundtrips;

/* Bytes of the instruction at item 1 of a tc_single_program, and the disassembly
   round trip of the whole program's code. */
static void write_encoding(stats *st, const wa_program *prog, const char *line, const inst *I)
{
    uint32_t offs[8];
    wa_encode_options eo = WA_ENCODE_OPTIONS_INIT;
    unsigned char *code = NULL;
    size_t len = 0;
    if (wa_program_size(prog) > 8) {
        fail(st, "%s: unexpected program size", I->info->id);
        return;
    }
    eo.item_offsets = offs;
    tc_put_field(enc_out, line);
    if (wa_encode_program(&code, &len, prog, &eo) != WA_OK) {
        fprintf(enc_out, "\tERROR: ");
        tc_put_field(enc_out, tc_diags(wa_program_context(prog)));
        fprintf(enc_out, "\t%s\n", I->info->id);
        return;
    }
    fputc('\t', enc_out);
    for (uint32_t b = offs[1]; b < offs[2] && b < len; b++)
        fprintf(enc_out, "%02x", code[b]);
    fprintf(enc_out, "\t%s\n", I->info->id);
    enc_written++;
    char err[512];
    if (!tc_encode_roundtrip(prog, code, len, err, sizeof(err)))
        fail(st, "%s: disassembly round trip of '%s': %s", I->info->id, line, err);
    else
        enc_roundtrips++;
    wa_free(code);
}

static unsigned expected_encoding(const wa_isa_info *info, wa_target t)
{
    return t == WA_TARGET_GFX90A ? info->encoding_gfx90a : info->encoding;
}

/* Index of the first pure-use operand (src0). */
static unsigned first_source(const wa_isa_info *info)
{
    for (unsigned k = 0; k < info->num_operands; k++)
        if (info->operands[k].role == WA_ROLE_USE)
            return k;
    return 0;
}

/* The DPP dword the assembler must produce for `I` (src0 = VGPR `vsrc0`), as the
   ISA lays it out: src0[7:0] dpp_ctrl[16:8] bound_ctrl[19] src0_neg[20]
   src0_abs[21] src1_neg[22] src1_abs[23] bank_mask[27:24] row_mask[31:28]. */
static unsigned long expected_dpp_word(const inst *I, unsigned vsrc0)
{
    const wa_mods *m = &I->mods;
    return (unsigned long)(vsrc0 & 0xFFu) | (unsigned long)m->dpp_ctrl << 8 |
           (unsigned long)((m->flags & WA_MOD_BOUND_CTRL) ? 1u : 0u) << 19 |
           (unsigned long)(m->neg & 1u) << 20 | (unsigned long)(m->abs & 1u) << 21 |
           (unsigned long)(m->neg >> 1 & 1u) << 22 | (unsigned long)(m->abs >> 1 & 1u) << 23 |
           (unsigned long)m->bank_mask << 24 | (unsigned long)m->row_mask << 28;
}

/* kind opcode ID format encoding variant assembly [dpp-dword] */
static void write_record_dpp(FILE *f, char kind, const inst *I, unsigned enc, const char *variant,
                             const char *text, int has_dpp, unsigned long dpp)
{
    fprintf(f, "%c\t%u\t%s\t%s\t0x%x\t", kind, (unsigned)I->op, I->info->id,
            wa_format_name(I->info->format), enc);
    tc_put_field(f, variant);
    fputc('\t', f);
    tc_put_field(f, text);
    if (has_dpp)
        fprintf(f, "\t0x%08lx", dpp);
    fputc('\n', f);
}

static void write_record(FILE *f, char kind, const inst *I, unsigned enc, const char *variant,
                         const char *text)
{
    write_record_dpp(f, kind, I, enc, variant, text, 0, 0);
}

/* Lines already written for the current (opcode, target): variants that spell
   the same are dropped. */
typedef struct seen {
    char *lines[128];
    unsigned n;
} seen;

static int seen_add(seen *s, const char *line)
{
    for (unsigned i = 0; i < s->n; i++)
        if (strcmp(s->lines[i], line) == 0)
            return 0;
    if (s->n < sizeof(s->lines) / sizeof(s->lines[0])) {
        size_t len = strlen(line);
        s->lines[s->n] = malloc(len + 1);
        if (s->lines[s->n]) {
            memcpy(s->lines[s->n], line, len + 1);
            s->n++;
        }
    }
    return 1;
}

static void seen_clear(seen *s)
{
    for (unsigned i = 0; i < s->n; i++)
        free(s->lines[i]);
    s->n = 0;
}

/* Builds, validates, round-trips and writes one instance on an available
   target. Returns 1 if it was written as accepted. */
static int run_available(wa_context *ctx, FILE *f, stats *st, seen *sn, const inst *I,
                         wa_target t, int is_base)
{
    wa_operand ops[WA_ISA_MAX_OPERANDS];
    unsigned nops = materialize(I, ops);
    const char *tn = wa_target_name(t);
    wa_program *prog = tc_single_program(ctx, t, I->op, ops, nops, &I->mods, NULL);
    if (!prog && I->fixed) { /* a random set the builder refuses outright */
        st->unrepresentable++;
        return 0;
    }
    if (!prog) {
        fail(st, "%s on %s (%s): the builder rejected the synthesised instance", I->info->id,
             tn, I->variant);
        fprintf(stderr, "  %s\n", tc_diags(ctx));
        return 0;
    }
    char err[4096];
    wa_status vst = wa_program_validate(NULL, prog, NULL);
    int ok = 0;
    if (vst != WA_OK) {
        char diags[2048];
        snprintf(diags, sizeof(diags), "%s", tc_diags(ctx));
        char *text = tc_print_item(prog, 1);
        if (is_base) {
            fail(st, "%s on %s (%s): the validator rejects the base instance", I->info->id, tn,
                 I->variant);
            fprintf(stderr, "  %s\n  %s\n", text ? text : "?", diags);
        } else if (text && seen_add(sn, text)) {
            /* only what the text form states exactly is worth asking the assembler */
            if (!tc_roundtrip(prog, err, sizeof(err))) {
                st->unrepresentable++;
            } else {
                char why[600];
                snprintf(why, sizeof(why), "%s: %.480s", I->variant, diags);
                int done = wa_family_done(wa_format_name(I->info->format));
                write_record(f, done ? 'V' : 'S', I, expected_encoding(I->info, t), why, text);
                if (done)
                    st->must_reject[t]++;
                else
                    st->strict[t]++;
                if (I->fixed)
                    st->random_rejected[t]++;
                if (verbose)
                    fprintf(stderr, "note: %s on %s: validator rejects variant '%s': %s\n",
                            I->info->id, tn, text, diags);
            }
        }
        free(text);
        goto done;
    }
    if (!tc_roundtrip(prog, err, sizeof(err))) {
        fail(st, "%s on %s (%s): text round trip failed", I->info->id, tn, I->variant);
        fprintf(stderr, "  %s\n", err);
        goto done;
    }
    char *line = tc_emit_first_instr(prog, err, sizeof(err));
    if (!line) {
        fail(st, "%s on %s (%s): emission failed", I->info->id, tn, I->variant);
        fprintf(stderr, "  %s\n", err);
        goto done;
    }
    if (seen_add(sn, line)) {
        int dpp = (I->mods.flags & WA_MOD_DPP) != 0;
        write_record_dpp(f, 'A', I, expected_encoding(I->info, t), I->variant, line, dpp,
                         dpp ? expected_dpp_word(I, ops[first_source(I->info)].id) : 0);
        if (enc_out)
            write_encoding(st, prog, line, I);
        st->accepted[t]++;
        if (I->fixed)
            st->random_accepted[t]++;
    }
    /* gfx942/gfx950 also accept the gfx90a name of a renamed MFMA. */
    const char *old = I->info->mnemonic_gfx90a;
    if (is_base && old && strcmp(old, I->info->mnemonic) != 0 && t != WA_TARGET_GFX90A) {
        wa_opcode back;
        if (wa_isa_lookup(&back, old) != WA_OK || back != I->op)
            fail(st, "%s: wa_isa_lookup(\"%s\") does not find the opcode", I->info->id, old);
        size_t ml = strlen(I->info->mnemonic);
        if (strncmp(line, I->info->mnemonic, ml) == 0) {
            char alias[1024];
            snprintf(alias, sizeof(alias), "%s%s", old, line + ml);
            write_record(f, 'A', I, I->info->encoding, "gfx90a-spelling", alias);
            st->accepted[t]++;
        } else {
            fail(st, "%s on %s: emitted line '%s' does not start with the mnemonic", I->info->id,
                 tn, line);
        }
    }
    free(line);
    ok = 1;
done:
    wa_program_destroy(prog);
    return ok;
}

/* The opcode does not exist on `t`: the validator must reject it there, and the
   line (spelled for a target that has it) must be rejected by the assembler. */
static void run_unavailable(wa_context *ctx, FILE *f, stats *st, const inst *I, wa_target t)
{
    wa_target home = WA_TARGET_UNKNOWN;
    for (unsigned i = 0; i < TC_NUM_TARGETS; i++)
        if (wa_isa_available(I->op, tc_targets[i])) {
            home = tc_targets[i];
            break;
        }
    const char *tn = wa_target_name(t);
    if (home == WA_TARGET_UNKNOWN) {
        fail(st, "%s: available on no target", I->info->id);
        return;
    }
    wa_operand ops[WA_ISA_MAX_OPERANDS];
    unsigned nops = materialize(I, ops);
    wa_program *prog = tc_single_program(ctx, t, I->op, ops, nops, &I->mods, NULL);
    if (!prog) {
        fail(st, "%s on %s: the builder rejected the instance", I->info->id, tn);
        return;
    }
    if (wa_program_validate(NULL, prog, NULL) == WA_OK)
        fail(st, "%s on %s: the validator accepts an opcode the table marks unavailable",
             I->info->id, tn);
    else if (!strstr(tc_diags(ctx), "not available"))
        fail(st, "%s on %s: rejected, but not for availability: %s", I->info->id, tn,
             tc_diags(ctx));
    wa_program_destroy(prog);

    prog = tc_single_program(ctx, home, I->op, ops, nops, &I->mods, NULL);
    char err[2048];
    char *line = prog ? tc_emit_first_instr(prog, err, sizeof(err)) : NULL;
    if (!line) {
        fail(st, "%s: cannot spell the instance on %s", I->info->id, wa_target_name(home));
    } else {
        char variant[64];
        snprintf(variant, sizeof(variant), "unavailable (spelled for %s)", wa_target_name(home));
        write_record(f, 'R', I, expected_encoding(I->info, t), variant, line);
        st->rejected[t]++;
    }
    free(line);
    wa_program_destroy(prog);
}

/* gfx90a knows a renamed MFMA only by its old name. */
static void run_renamed_on_gfx90a(wa_context *ctx, FILE *f, stats *st, const inst *I)
{
    wa_operand ops[WA_ISA_MAX_OPERANDS];
    unsigned nops = materialize(I, ops);
    wa_program *prog = tc_single_program(ctx, WA_TARGET_GFX942, I->op, ops, nops, &I->mods, NULL);
    char err[2048];
    char *line = prog ? tc_emit_first_instr(prog, err, sizeof(err)) : NULL;
    if (!line) {
        fail(st, "%s: cannot spell the instance on gfx942", I->info->id);
    } else {
        write_record(f, 'R', I, I->info->encoding_gfx90a, "gfx942-spelling",
                     line);
        st->rejected[WA_TARGET_GFX90A]++;
    }
    free(line);
    wa_program_destroy(prog);
}

/* ---- variants ------------------------------------------------------------------------ */

typedef struct mods_variant {
    const char *name;
    unsigned flags_set, flags_clear;
    int offset, offset1;
    int set_offset;
} mods_variant;

static void add_variant(inst *out, unsigned *n, unsigned max, const inst *v)
{
    if (*n < max)
        out[(*n)++] = *v;
}

/* Base with operand `k` changed to `alt` (special register `sel`). */
static void position_variant(inst *out, unsigned *n, unsigned max, const inst *base, unsigned k,
                             okind alt, unsigned pick, unsigned sel)
{
    const wa_isa_info *info = base->info;
    const wa_isa_operand *spec = &info->operands[k];
    inst v = *base;
    v.kind[k] = alt;
    v.pick = pick;
    v.spec_sel[k] = (unsigned char)sel;
    if (fmt_is_valu(info->format) && kind_is_scalar(alt)) {
        /* Keep one scalar value: move other scalar sources to a non-scalar
           alternative where the table offers one. */
        for (unsigned j = 0; j < info->num_operands; j++) {
            if (j == k || info->operands[j].role != WA_ROLE_USE || !kind_is_scalar(v.kind[j]))
                continue;
            okind other[K_COUNT_];
            unsigned no = allowed_kinds(&info->operands[j], other);
            for (unsigned q = 0; q < no; q++)
                if (!kind_is_scalar(other[q])) {
                    v.kind[j] = other[q];
                    break;
                }
        }
    }
    if (info->format == WA_FMT_GLOBAL && is_name(spec, "saddr") && alt == K_OFF)
        snprintf(v.variant, sizeof(v.variant), "saddr=off");
    else if (alt == K_SPEC)
        snprintf(v.variant, sizeof(v.variant), "%s=%s", spec->name,
                 wa_special_name_of(spec->size, sel));
    else
        snprintf(v.variant, sizeof(v.variant), "%s=%s", spec->name, kind_names[alt]);
    add_variant(out, n, max, &v);
}

/* Base first, then one change at a time. */
static unsigned make_variants(inst *out, unsigned max, wa_opcode op)
{
    unsigned n = 0;
    inst base;
    memset(&base, 0, sizeof(base));
    base.op = op;
    base.info = wa_isa_get(op);
    base_kinds(&base);
    add_variant(out, &n, max, &base);
    const wa_isa_info *info = base.info;
    int is_mfma = (info->flags & WA_IF_MFMA) != 0;

    /* One operand position at a time. */
    for (unsigned k = 0; k < info->num_operands; k++) {
        const wa_isa_operand *spec = &info->operands[k];
        okind kinds[K_COUNT_];
        unsigned nk = allowed_kinds(spec, kinds);
        for (unsigned i = 0; i < nk; i++) {
            okind alt = kinds[i];
            if (is_mfma && (k == 0 || (k == 3 && is_name(spec, "srcC") && (alt == K_V || alt == K_A))))
                continue; /* vdst/srcC kinds change together below */
            if (alt == K_SPEC && spec->role != WA_ROLE_USE && (info->flags & WA_IF_NO_SPECIAL_DST))
                continue;
            if (alt == K_OFF && info->format == WA_FMT_MUBUF)
                continue; /* a modifier variant */
            unsigned nsel = alt == K_SPEC ? num_specials(spec->size) : 1;
            for (unsigned sel = 0; sel < nsel; sel++)
                if (alt != base.kind[k] || (alt == K_SPEC && sel != base.spec_sel[k]))
                    position_variant(out, &n, max, &base, k, alt, i, sel);
        }
    }

    /* Registers at the top of each file. */
    {
        inst v = base;
        v.high = 1;
        snprintf(v.variant, sizeof(v.variant), "high-registers");
        add_variant(out, &n, max, &v);
    }

    /* Format-specific modifiers. */
    static const mods_variant mubuf[] = {
        { "vaddr=off offset:4095", 0, WA_MOD_OFFEN, 4095, 0, 1 },
        { "idxen", WA_MOD_IDXEN, WA_MOD_OFFEN, 0, 0, 0 },
        { "idxen offen", WA_MOD_IDXEN | WA_MOD_OFFEN, 0, 0, 0, 0 },
        { "offen offset:16 glc", WA_MOD_GLC, 0, 16, 0, 1 },
        { "slc", WA_MOD_SLC, 0, 0, 0, 0 },
        { "scc", WA_MOD_SCC, 0, 0, 0, 0 },
        { "glc slc scc", WA_MOD_GLC | WA_MOD_SLC | WA_MOD_SCC, 0, 0, 0, 0 },
    };
    static const mods_variant global[] = {
        { "offset:-4096", 0, 0, -4096, 0, 1 },
        { "offset:4095 glc", WA_MOD_GLC, 0, 4095, 0, 1 },
        { "slc scc", WA_MOD_SLC | WA_MOD_SCC, 0, 0, 0, 0 },
    };
    static const mods_variant flat[] = {
        { "offset:4095", 0, 0, 4095, 0, 1 },
        { "offset:4096", 0, 0, 4096, 0, 1 },
        { "slc scc", WA_MOD_SLC | WA_MOD_SCC, 0, 0, 0, 0 },
        { "no glc", 0, WA_MOD_GLC, 0, 0, 0 },
    };
    static const mods_variant smem[] = { { "glc", WA_MOD_GLC, 0, 0, 0, 0 } };
    static const mods_variant ds1[] = { { "offset:65535", 0, 0, 65535, 0, 1 },
                                        { "offset:8", 0, 0, 8, 0, 1 } };
    static const mods_variant ds2[] = { { "offset0:255 offset1:1", 0, 0, 255, 1, 1 },
                                        { "offset1:255", 0, 0, 0, 255, 1 } };
    const mods_variant *mv = NULL;
    unsigned nmv = 0;
    switch (info->format) {
    case WA_FMT_MUBUF: mv = mubuf; nmv = sizeof(mubuf) / sizeof(mubuf[0]); break;
    case WA_FMT_GLOBAL:
    case WA_FMT_SCRATCH: mv = global; nmv = sizeof(global) / sizeof(global[0]); break;
    case WA_FMT_FLAT: mv = flat; nmv = sizeof(flat) / sizeof(flat[0]); break;
    case WA_FMT_SMEM: mv = smem; nmv = sizeof(smem) / sizeof(smem[0]); break;
    case WA_FMT_DS:
        if (info->flags & WA_IF_DS_2ADDR) {
            mv = ds2;
            nmv = sizeof(ds2) / sizeof(ds2[0]);
        } else {
            mv = ds1;
            nmv = sizeof(ds1) / sizeof(ds1[0]);
        }
        break;
    default: break;
    }
    for (unsigned i = 0; i < nmv; i++) {
        inst v = base;
        v.mods.flags = (v.mods.flags & ~mv[i].flags_clear) | mv[i].flags_set;
        if (mv[i].set_offset) {
            v.mods.offset = mv[i].offset;
            v.mods.offset1 = mv[i].offset1;
        }
        if (info->format == WA_FMT_MUBUF) {
            int va = find_operand(info, "vaddr");
            if (va >= 0)
                v.kind[va] = (v.mods.flags & (WA_MOD_OFFEN | WA_MOD_IDXEN)) ? K_V : K_OFF;
        }
        snprintf(v.variant, sizeof(v.variant), "%s", mv[i].name);
        add_variant(out, &n, max, &v);
    }

    if (is_mfma) {
        inst v = base;
        v.kind[0] = K_A;
        if (is_name(&info->operands[3], "srcC")) /* SMFMAC: operand 3 is the index VGPR */
            v.kind[3] = K_A;
        snprintf(v.variant, sizeof(v.variant), "acc vdst/srcC");
        add_variant(out, &n, max, &v);
        v.kind[1] = v.kind[2] = K_A;
        v.high = 1;
        snprintf(v.variant, sizeof(v.variant), "all agpr, high");
        add_variant(out, &n, max, &v);
        v = base;
        v.untied = 1;
        snprintf(v.variant, sizeof(v.variant), "srcC untied");
        add_variant(out, &n, max, &v);
        if (info->flags & WA_IF_F8F6F4) {
            static const unsigned char fm[][2] = { { 1, 1 }, { 2, 4 }, { 4, 2 }, { 3, 0 }, { 4, 4 } };
            for (unsigned i = 0; i < sizeof(fm) / sizeof(fm[0]); i++) {
                v = base;
                v.mods.cbsz = fm[i][0];
                v.mods.blgp = fm[i][1];
                snprintf(v.variant, sizeof(v.variant), "cbsz:%u blgp:%u", fm[i][0], fm[i][1]);
                add_variant(out, &n, max, &v);
            }
            v = base;
            v.mods.op_sel = 1;
            v.mods.op_sel_hi = 2;
            snprintf(v.variant, sizeof(v.variant), "op_sel:[1,0,0] op_sel_hi:[0,1,0]");
            add_variant(out, &n, max, &v);
        } else {
            v = base;
            v.mods.cbsz = 2;
            v.mods.abid = 3;
            v.mods.blgp = 5;
            snprintf(v.variant, sizeof(v.variant), "cbsz:2 abid:3 blgp:5");
            add_variant(out, &n, max, &v);
        }
    }

    /* DPP on the rows that have a DPP form (VOP1/VOP2 writing a VGPR from a VGPR
       src0): every source a VGPR, the mask vcc, a few controls and masks. */
    if ((info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2) && info->num_operands >= 2 &&
        info->operands[0].role == WA_ROLE_DEF && (info->operands[0].classes & WA_OC_VGPR) &&
        info->operands[1].role == WA_ROLE_USE && (info->operands[1].classes & WA_OC_VGPR)) {
        static const struct {
            const char *name;
            unsigned ctrl, row, bank, flags;
        } dpp[] = {
            { "quad_perm:[1,0,3,2]", 0xB1, 0xF, 0xF, 0 },
            { "row_shl:1 row_mask:0xa bank_mask:0x5 bound_ctrl", 0x101, 0xA, 0x5, WA_MOD_BOUND_CTRL },
            { "row_shr:15 row_mask:0", 0x11F, 0x0, 0xF, 0 },
            { "row_ror:7", 0x127, 0xF, 0xF, 0 },
            { "wave_shl:1", 0x130, 0xF, 0xF, 0 },
            { "wave_ror:1 bank_mask:0x1", 0x13C, 0xF, 0x1, 0 },
            { "row_mirror", 0x140, 0xF, 0xF, WA_MOD_BOUND_CTRL },
            { "row_half_mirror", 0x141, 0xF, 0xF, 0 },
            { "row_bcast:15 row_mask:0xa", 0x142, 0xA, 0xF, 0 },
            { "row_bcast:31 row_mask:0xc", 0x143, 0xC, 0xF, 0 },
        };
        for (unsigned i = 0; i < sizeof(dpp) / sizeof(dpp[0]); i++) {
            inst v = base;
            for (unsigned k = 1; k < info->num_operands; k++)
                if (info->operands[k].classes & WA_OC_VGPR)
                    v.kind[k] = K_V;
            v.mods.flags |= WA_MOD_DPP | dpp[i].flags;
            v.mods.dpp_ctrl = (uint16_t)dpp[i].ctrl;
            v.mods.row_mask = (uint8_t)dpp[i].row;
            v.mods.bank_mask = (uint8_t)dpp[i].bank;
            v.high = i % 2;
            snprintf(v.variant, sizeof(v.variant), "dpp %s", dpp[i].name);
            add_variant(out, &n, max, &v);
        }
    }

    if (info->flags & WA_IF_WAITCNT) {
        static const signed char w[][3] = {
            { -1, 0, -1 }, { -1, -1, 0 }, { 63, 15, 7 }, { 5, 3, -1 }, { -1, -1, -1 }, { 0, 0, 0 },
        };
        for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
            inst v = base;
            v.mods.vmcnt = w[i][0];
            v.mods.lgkmcnt = w[i][1];
            v.mods.expcnt = w[i][2];
            snprintf(v.variant, sizeof(v.variant), "vmcnt=%d lgkmcnt=%d expcnt=%d", w[i][0],
                     w[i][1], w[i][2]);
            add_variant(out, &n, max, &v);
        }
    }
    return n;
}


/* ---- random operand sets ------------------------------------------------------------- */

#define RANDOM_SETS 6
static unsigned random_sets = RANDOM_SETS; /* --random N */
static unsigned random_seed;              /* --seed S (0: the fixed default) */

/* Literals, and bit patterns that are inline constants for some data types only
   (f16 1.0, bf16 1.0, f16 1/(2*pi), 16-bit -16, f64 1.0, 32-bit -16). */
static const int64_t rnd_literals[] = { 0x12345, -100, 65, -17, 0x7fffffff, 0x87654321ll,
                                        0xffff, 1000, -65536, 0x3e800000, 0x3c00, 0x3f80,
                                        0x3118, 0xfff0, 0x3ff0000000000000ll, 0xfffffff0ll };
static const double rnd_float_literals[] = { 3.25, -7.5, 0.1, 100000.0, 1.5 };
static const double rnd_inline_floats[] = { 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0,
                                            0.15915494309189532 };
static const int32_t rnd_offsets[] = { 0, 4, 8, 64, 255, 256, 4095, 4096, -4, -4096, -4097,
                                       65535, 65536, 1048575, 1048576, -1048576, 0x7ffff };

static wa_operand rnd_reg(tc_rng *r, wa_reg_class cls, unsigned size)
{
    unsigned file = cls == WA_REG_SGPR ? 102u : 256u, al = hw_align(cls, size);
    if (size == 0 || size > file)
        size = 1;
    unsigned slots = (file - size) / al + 1;
    return wa_opnd_phys(cls, tc_rng_below(r, slots) * al, size);
}

/* A value anywhere in an immediate field: its ends, small values, or random. */
static int64_t rnd_field(tc_rng *r, const wa_isa_operand *spec)
{
    int64_t lo = spec->imm_min, hi = spec->imm_max;
    switch (tc_rng_below(r, 5)) {
    case 0: return lo;
    case 1: return hi;
    case 2: return lo <= 0 && hi >= 0 ? 0 : lo;
    default: {
        uint64_t span = (uint64_t)(hi - lo) + 1u;
        uint64_t v = ((uint64_t)tc_rng_u32(r) << 32 | tc_rng_u32(r)) % (span ? span : 1u);
        return lo + (int64_t)v;
    }
    }
}

static unsigned count_sources(const wa_isa_info *info)
{
    unsigned n = 0;
    for (unsigned k = 0; k < info->num_operands; k++)
        n += info->operands[k].role == WA_ROLE_USE;
    return n;
}

/* Modifiers from `allow` (WA_MODOK_* bits), each with some probability. */
static void rnd_mods(tc_rng *r, const wa_isa_info *info, unsigned allow, wa_mods *m)
{
    unsigned nsrc = count_sources(info), srcs = (1u << (nsrc > 3 ? 3 : nsrc)) - 1u;
    if ((allow & WA_MODOK_CLAMP) && tc_rng_chance(r, 1, 3))
        m->flags |= WA_MOD_CLAMP;
    if ((allow & WA_MODOK_OMOD) && tc_rng_chance(r, 1, 4))
        m->omod = (uint8_t)(1 + tc_rng_below(r, 3));
    if ((allow & WA_MODOK_NEG) && tc_rng_chance(r, 1, 3))
        m->neg = (uint8_t)(tc_rng_below(r, srcs + 1) | 1u);
    if ((allow & WA_MODOK_ABS) && tc_rng_chance(r, 1, 3))
        m->abs = (uint8_t)tc_rng_below(r, srcs + 1);
    if ((allow & WA_MODOK_OPSEL) && tc_rng_chance(r, 1, 3))
        m->op_sel = (uint8_t)(tc_rng_below(r, 16) & (srcs | 8u));
    if ((allow & WA_MODOK_OPSEL_HI) && tc_rng_chance(r, 1, 3))
        m->op_sel_hi = (uint8_t)tc_rng_below(r, srcs + 1);
    if ((allow & WA_MODOK_NEG_HI) && tc_rng_chance(r, 1, 3))
        m->neg_hi = (uint8_t)tc_rng_below(r, srcs + 1);
    if ((allow & WA_MODOK_GLC) && tc_rng_chance(r, 1, 2))
        m->flags |= WA_MOD_GLC;
    if ((allow & WA_MODOK_SLC) && tc_rng_chance(r, 1, 2))
        m->flags |= WA_MOD_SLC;
    if ((allow & WA_MODOK_SC1) && tc_rng_chance(r, 1, 3))
        m->flags |= WA_MOD_SCC;
    if ((allow & WA_MODOK_OFFSET) && tc_rng_chance(r, 1, 2))
        m->offset = rnd_offsets[tc_rng_below(r, sizeof(rnd_offsets) / sizeof(rnd_offsets[0]))];
    if ((allow & WA_MODOK_OFFSET01) && tc_rng_chance(r, 1, 2)) {
        m->offset = (int32_t)tc_rng_below(r, 256);
        m->offset1 = (int32_t)tc_rng_below(r, 256);
    }
    if ((allow & WA_MODOK_OFFEN) && tc_rng_chance(r, 1, 2))
        m->flags |= WA_MOD_OFFEN;
    if ((allow & WA_MODOK_IDXEN) && tc_rng_chance(r, 1, 3))
        m->flags |= WA_MOD_IDXEN;
    if ((allow & WA_MODOK_LDS) && tc_rng_chance(r, 1, 4))
        m->flags |= WA_MOD_LDS;
    if ((allow & WA_MODOK_CBSZ) && tc_rng_chance(r, 1, 3))
        m->cbsz = (uint8_t)tc_rng_below(r, 5);
    if ((allow & WA_MODOK_ABID) && tc_rng_chance(r, 1, 3))
        m->abid = (uint8_t)tc_rng_below(r, 16);
    if ((allow & WA_MODOK_BLGP) && tc_rng_chance(r, 1, 3))
        m->blgp = (uint8_t)tc_rng_below(r, 8);
    if (allow & WA_MODOK_WAITCNT) {
        m->vmcnt = (int8_t)((int)tc_rng_below(r, 65) - 1);
        m->lgkmcnt = (int8_t)((int)tc_rng_below(r, 17) - 1);
        m->expcnt = (int8_t)((int)tc_rng_below(r, 9) - 1);
    }
    unsigned form = tc_rng_below(r, 4);
    if ((allow & WA_MODOK_DPP) && form == 0) {
        static const unsigned short ctrls[] = { 0xB1, 0x1B, 0x101, 0x10F, 0x111, 0x11F, 0x121,
                                                0x12F, 0x130, 0x134, 0x138, 0x13C, 0x140,
                                                0x141, 0x142, 0x143 };
        m->flags |= WA_MOD_DPP;
        m->dpp_ctrl = ctrls[tc_rng_below(r, sizeof(ctrls) / sizeof(ctrls[0]))];
        m->row_mask = (uint8_t)(tc_rng_chance(r, 1, 2) ? 0xF : tc_rng_below(r, 16));
        m->bank_mask = (uint8_t)(tc_rng_chance(r, 1, 2) ? 0xF : tc_rng_below(r, 16));
        if (tc_rng_chance(r, 1, 3))
            m->flags |= WA_MOD_BOUND_CTRL;
    } else if ((allow & WA_MODOK_SDWA) && form == 1) {
        m->flags |= WA_MOD_SDWA;
        m->dst_sel = (uint8_t)tc_rng_below(r, 7);
        m->dst_unused = (uint8_t)tc_rng_below(r, 3);
        m->src0_sel = (uint8_t)tc_rng_below(r, 7);
        m->src1_sel = (uint8_t)tc_rng_below(r, 7);
        if (tc_rng_chance(r, 1, 4))
            m->sext = (uint8_t)(1u + tc_rng_below(r, 3));
    }
}

/* Random operand set `n` of a row: kinds per position (a VALU keeps to one
   scalar value most of the time: the constant bus), registers at random aligned
   numbers, constants from the pools, and modifiers. With `illegal`, one
   modifier the row does not allow is added as well. */
static void random_inst(inst *I, tc_rng *r, wa_opcode op, unsigned n, int illegal)
{
    memset(I, 0, sizeof(*I));
    I->op = op;
    I->info = wa_isa_get(op);
    const wa_isa_info *info = I->info;
    wa_mods m = WA_MODS_INIT;
    rnd_mods(r, info, info->mods_ok, &m);
    unsigned extra = 0;
    if (illegal) {
        unsigned missing = ~info->mods_ok & (WA_MODOK_CLAMP | WA_MODOK_OMOD | WA_MODOK_NEG |
                                            WA_MODOK_ABS | WA_MODOK_OPSEL | WA_MODOK_OPSEL_HI |
                                            WA_MODOK_NEG_HI | WA_MODOK_DPP | WA_MODOK_SDWA |
                                            WA_MODOK_GLC | WA_MODOK_SLC | WA_MODOK_SC1 |
                                            WA_MODOK_OFFSET);
        if (count_sources(info) == 0)
            missing &= ~(WA_MODOK_NEG | WA_MODOK_ABS | WA_MODOK_OPSEL | WA_MODOK_OPSEL_HI |
                         WA_MODOK_NEG_HI);
        unsigned cnt = 0;
        for (unsigned b = 0; b < 32; b++)
            cnt += (missing >> b) & 1u;
        if (cnt) {
            unsigned pick = tc_rng_below(r, cnt);
            for (unsigned b = 0; b < 32; b++)
                if (((missing >> b) & 1u) && pick-- == 0) {
                    extra = 1u << b;
                    break;
                }
            wa_mods add = WA_MODS_INIT;
            for (unsigned tries = 0; tries < 64 && add.flags == 0 && add.omod == 0 &&
                                     add.neg == 0 && add.abs == 0 && add.op_sel == 0 &&
                                     add.op_sel_hi == 0 && add.neg_hi == 0 && add.offset == 0;
                 tries++)
                rnd_mods(r, info, extra, &add);
            if ((add.flags & (WA_MOD_DPP | WA_MOD_SDWA)) && (m.flags & (WA_MOD_DPP | WA_MOD_SDWA)))
                add.flags &= ~(WA_MOD_DPP | WA_MOD_SDWA | WA_MOD_BOUND_CTRL);
            m.flags |= add.flags;
            if (add.omod) m.omod = add.omod;
            if (add.neg) m.neg = add.neg;
            if (add.abs) m.abs = add.abs;
            if (add.op_sel) m.op_sel = add.op_sel;
            if (add.op_sel_hi) m.op_sel_hi = add.op_sel_hi;
            if (add.neg_hi) m.neg_hi = add.neg_hi;
            if (add.offset) m.offset = add.offset;
            if (add.flags & WA_MOD_DPP) {
                m.dpp_ctrl = add.dpp_ctrl;
                m.row_mask = add.row_mask;
                m.bank_mask = add.bank_mask;
            }
            if (add.flags & WA_MOD_SDWA) {
                m.dst_sel = add.dst_sel;
                m.dst_unused = add.dst_unused;
                m.src0_sel = add.src0_sel;
                m.src1_sel = add.src1_sel;
                m.sext = add.sext;
            }
        }
    }
    I->mods = m;
    int valu = fmt_is_valu(info->format) || info->format == WA_FMT_MAI;
    int scalar_used = 0;
    for (unsigned k = 0; k < info->num_operands; k++) {
        const wa_isa_operand *spec = &info->operands[k];
        okind kinds[K_COUNT_];
        unsigned nk = allowed_kinds(spec, kinds);
        okind pick = nk ? kinds[tc_rng_below(r, nk)] : K_NONE;
        if (pick == K_SPEC && spec->role != WA_ROLE_USE && (info->flags & WA_IF_NO_SPECIAL_DST))
            pick = K_S; /* the row's own rule: a numbered destination */
        if (valu && spec->role == WA_ROLE_USE && scalar_used && kind_is_scalar(pick) &&
            !tc_rng_chance(r, 1, 8)) {
            for (unsigned i = 0; i < nk; i++)
                if (!kind_is_scalar(kinds[i])) {
                    pick = kinds[i];
                    break;
                }
        }
        if (info->format == WA_FMT_MUBUF && is_name(spec, "vaddr"))
            pick = (m.flags & (WA_MOD_OFFEN | WA_MOD_IDXEN)) ? K_V : K_OFF;
        if (valu && spec->role == WA_ROLE_USE && kind_is_scalar(pick))
            scalar_used = 1;
        I->kind[k] = pick;
        I->spec_sel[k] = (unsigned char)tc_rng_below(r, 5);
    }
    for (unsigned k = 0; k < info->num_operands; k++) {
        const wa_isa_operand *spec = &info->operands[k];
        unsigned size = position_size(I, k);
        wa_operand o;
        switch (I->kind[k]) {
        case K_V: o = rnd_reg(r, WA_REG_VGPR, size); break;
        case K_A: o = rnd_reg(r, WA_REG_AGPR, size); break;
        case K_S: o = rnd_reg(r, WA_REG_SGPR, size); break;
        case K_SPEC: o = make_special(I, k, size); break;
        case K_LABEL: o = wa_opnd_label(TC_LABEL_ID); break;
        case K_OFF: o = wa_opnd_off(); break;
        case K_INL: o = wa_opnd_imm((int64_t)tc_rng_below(r, 81) - 16); break;
        case K_INLF:
            o = wa_opnd_fimm(rnd_inline_floats[tc_rng_below(
                r, sizeof(rnd_inline_floats) / sizeof(rnd_inline_floats[0]))]);
            break;
        case K_LIT:
            o = wa_opnd_imm(rnd_literals[tc_rng_below(r, sizeof(rnd_literals) /
                                                             sizeof(rnd_literals[0]))]);
            break;
        case K_LITF:
            o = wa_opnd_fimm(rnd_float_literals[tc_rng_below(
                r, sizeof(rnd_float_literals) / sizeof(rnd_float_literals[0]))]);
            break;
        case K_IMM:
        case K_IMM_LO:
        case K_IMM_HI: o = wa_opnd_imm(rnd_field(r, spec)); break;
        default: o = wa_opnd_none(); break;
        }
        I->fops[k] = o;
    }
    /* An early-clobber MFMA result disjoint from its sources (srcC identical or
       disjoint) is a register allocation rule the assembler checks only in part
       (not at all for the f8f6f4 forms): keep random sets to it. */
    if (info->flags & WA_IF_EARLY_CLOBBER) {
        const wa_operand *d = &I->fops[0];
        for (unsigned k = 1; k < info->num_operands; k++) {
            wa_operand *o = &I->fops[k];
            int c = is_name(&info->operands[k], "srcC");
            for (unsigned tries = 0; tries < 64 && o->kind == WA_OPND_PHYS && d->kind == WA_OPND_PHYS &&
                                     o->reg_class == d->reg_class && o->id < d->id + d->count &&
                                     d->id < o->id + o->count &&
                                     !(c && o->id == d->id && o->count == d->count);
                 tries++)
                *o = rnd_reg(r, o->reg_class, o->count);
        }
    }
    I->fixed = 1;
    snprintf(I->variant, sizeof(I->variant), "random %u%s", n, extra ? " +not-allowed" : "");
}

/* ---- main ---------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *out_dir = NULL;
    int encode = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out-dir") == 0 && i + 1 < argc)
            out_dir = argv[++i];
        else if (strcmp(argv[i], "--random") == 0 && i + 1 < argc)
            random_sets = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            random_seed = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "--encode") == 0)
            encode = 1;
        else if (strcmp(argv[i], "--skip") == 0 && i + 1 < argc) {
            printf("skipped: %s\n", argv[i + 1]);
            return 77;
        } else {
            fprintf(stderr, "usage: wa_isa_samples --out-dir DIR [--random N] [--seed S] [--verbose] "
                            "| --skip REASON\n");
            return 2;
        }
    }
    if (!out_dir) {
        fprintf(stderr, "usage: wa_isa_samples --out-dir DIR [--verbose] | --skip REASON\n");
        return 2;
    }
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK) {
        fprintf(stderr, "error: cannot create a context\n");
        return 1;
    }
    stats st;
    memset(&st, 0, sizeof(st));
    enum { MAXV = 96 };
    inst *vars = calloc(MAXV, sizeof(inst));
    seen sn;
    sn.n = 0;
    int io_error = !vars;
    for (unsigned ti = 0; ti < TC_NUM_TARGETS && !io_error; ti++) {
        wa_target t = tc_targets[ti];
        char name[64];
        snprintf(name, sizeof(name), "isa-%s.tsv", wa_target_name(t));
        FILE *f = tc_open_out(out_dir, name);
        if (!f) {
            io_error = 1;
            break;
        }
        if (encode) {
            snprintf(name, sizeof(name), "enc-%s.tsv", wa_target_name(t));
            if (!(enc_out = tc_open_out(out_dir, name))) {
                fclose(f);
                io_error = 1;
                break;
            }
        }
        for (unsigned op = 0; op < wa_isa_count(); op++) {
            const wa_isa_info *info = wa_isa_get(op);
            if (info->flags & WA_IF_PSEUDO)
                continue;
            if (ti == 0)
                st.opcodes++;
            unsigned nv = make_variants(vars, MAXV, (wa_opcode)op);
            seen_clear(&sn);
            if (!wa_isa_available(op, t)) {
                run_unavailable(ctx, f, &st, &vars[0], t);
                continue;
            }
            for (unsigned v = 0; v < nv; v++)
                run_available(ctx, f, &st, &sn, &vars[v], t, v == 0);
            tc_rng rng;
            tc_rng_seed(&rng, 0x5EED0000u + op * 7919u + ti * 104729u +
                                  (uint64_t)random_seed * 0x9E3779B9u);
            for (unsigned k = 0; k < random_sets; k++) {
                inst ri;
                random_inst(&ri, &rng, (wa_opcode)op, k, k % 3 == 2);
                run_available(ctx, f, &st, &sn, &ri, t, 0);
            }
            const char *old = info->mnemonic_gfx90a;
            if (t == WA_TARGET_GFX90A && old && strcmp(old, info->mnemonic) != 0)
                run_renamed_on_gfx90a(ctx, f, &st, &vars[0]);
        }
        if (fclose(f) != 0)
            io_error = 1;
        if (enc_out && fclose(enc_out) != 0)
            io_error = 1;
        enc_out = NULL;
    }
    seen_clear(&sn);
    free(vars);
    wa_context_destroy(ctx);
    if (io_error) {
        fprintf(stderr, "error: could not write the sample files\n");
        return 1;
    }
    printf("isa samples: %u opcodes (pseudo excluded)\n", st.opcodes);
    for (unsigned ti = 0; ti < TC_NUM_TARGETS; ti++) {
        wa_target t = tc_targets[ti];
        printf("  %-6s  %4u lines to accept (%4u random), %3u to reject, %4u rejected instances of "
               "completed families (%4u random), %4u of the others\n",
               wa_target_name(t), st.accepted[t], st.random_accepted[t], st.rejected[t],
               st.must_reject[t], st.random_rejected[t], st.strict[t]);
    }
    printf("  %u rejected instances the text form cannot state exactly (not written)\n",
           st.unrepresentable);
    if (encode)
        printf("  %u accepted lines encoded, %u disassembly round trips\n", enc_written,
               enc_roundtrips);
    if (st.failures) {
        printf("isa samples: %u FAILURES (see above)\n", st.failures);
        return 1;
    }
    printf("isa samples: all base instances validate and round-trip\n");
    return 0;
}
