/* tests/fuzz/fuzz_builder.c — the builder API driven by the input bytes.

   The bytes are read as a little program of builder calls: virtual registers of
   any shape, instructions of any opcode of the table (and a few past its end)
   with operands of every kind (registers, components, specials, integer and
   float immediates, labels, `off`, and malformed ones), modifiers of every
   version, labels, branches, comments, edits (erase, move, set_operand,
   set_mods, insert points), kernel arguments and attributes. Operands are
   usually shaped after the table's operand position, so that valid programs
   come up; now and then they are anything at all.

   Every call either succeeds or fails with a diagnostic. At the end, whatever
   the builders accepted, valid or not, must print as text that parses back to
   an equal program (docs/text-format.md, "Round trip"); valid programs are
   also cloned and, once physical, emitted. */
#include "fuzz_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_CALLS 256
#define MAX_VREGS 64

/* ---- reading the input ---------------------------------------------------------- */

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static unsigned u8(reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static unsigned u16(reader *r)
{
    unsigned lo = u8(r);
    return lo | u8(r) << 8;
}

static uint32_t u32(reader *r)
{
    uint32_t lo = u16(r);
    return lo | (uint32_t)u16(r) << 16;
}

static uint64_t u64(reader *r)
{
    uint64_t lo = u32(r);
    return lo | (uint64_t)u32(r) << 32;
}

/* Uniform enough in [0, n); n > 0. */
static unsigned below(reader *r, unsigned n)
{
    return n <= 256 ? u8(r) % n : u16(r) % n;
}

static int64_t some_int(reader *r)
{
    static const int64_t table[] = {
        0, 1, -1, 2, 7, -16, -17, 63, 64, 65, 255, 256, 4095, 4096, -4096, -4097, 65535, 65536,
        0x7FFFFFFF, 0x80000000LL, -0x80000000LL, 0xFFFFFFFFLL, 0x100000000LL, INT64_MAX,
        INT64_MIN, 0x3F800000, 0xF801, 1 << 20,
    };
    unsigned k = u8(r);
    if (k < 200)
        return table[k % (sizeof(table) / sizeof(table[0]))];
    return (int64_t)u64(r);
}

static double some_float(reader *r)
{
    static const double table[] = {
        0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 0.15915494309189532, 1.5, 3.0,
        1e300, -1e-300, 5e-324, 3.4028234663852886e38, 65504.0, 1e-8, 123456789.125,
    };
    unsigned k = u8(r);
    if (k < 200)
        return table[k % (sizeof(table) / sizeof(table[0]))];
    if (k < 210)
        return k & 1 ? NAN : INFINITY;
    uint64_t bits = u64(r);
    double d;
    memcpy(&d, &bits, sizeof(d));
    return d;
}

/* A NUL-terminated string of up to 40 bytes: mostly symbol characters, now and
   then anything (including bytes the text form does not allow). */
static const char *some_name(reader *r, char *buf, size_t cap)
{
    static const char *const table[] = {
        "loop", "L0", "L1", "exit", "v1", "s2", "a3", "vcc", "exec_lo", "m0", "scc", "off",
        ".kernel", ".end_kernel", ".L5", "_x", "x$y", "a.b", "9lives", "", "k", "hwreg",
    };
    unsigned k = u8(r);
    if (k < 120)
        return table[k % (sizeof(table) / sizeof(table[0]))];
    static const char symbol[] = "abcxyzLvsa_.$0159";
    unsigned len = u8(r) % 41, raw = k >= 240;
    if (len + 1 > cap)
        len = (unsigned)cap - 1;
    for (unsigned i = 0; i < len; i++) {
        unsigned c = u8(r);
        buf[i] = raw ? (char)(c ? c : 'z') : symbol[c % (sizeof(symbol) - 1)];
    }
    buf[len] = 0;
    return buf;
}

/* ---- builder state ----------------------------------------------------------------- */

typedef struct state {
    wa_context *ctx;
    wa_program *prog;
    reader r;
    wa_operand vregs[MAX_VREGS];
    unsigned nvregs;
    wa_tag tags[64];
    unsigned ntags;
} state;

static void note_tag(state *s, wa_tag t)
{
    s->tags[s->ntags++ % 64] = t;
}

/* A failing call must say why; returns st. */
static wa_status checked(state *s, wa_status st, const char *what)
{
    if (st != WA_OK)
        fz_check_failure(s->ctx, st, what);
    return st;
}

static wa_label some_label(state *s)
{
    unsigned n = wa_program_label_count(s->prog);
    unsigned k = u8(&s->r);
    if (n && k < 230)
        return k % n;
    if (k < 245) {
        wa_label l = 0;
        if (wa_program_label_create(&l, s->prog, NULL) == WA_OK)
            return l;
    }
    return n + (k & 3); /* unknown */
}

static wa_operand new_vreg(state *s, wa_reg_class cls, unsigned size)
{
    wa_operand o = wa_opnd_none();
    wa_status st = wa_program_vreg(&o, s->prog, cls, size, 0);
    if (checked(s, st, "wa_program_vreg") == WA_OK && s->nvregs < MAX_VREGS)
        s->vregs[s->nvregs++] = o;
    return o;
}

/* A register of class `cls` and `size` registers: an existing virtual one (or
   components of a larger one), a new one, or a physical range. */
static wa_operand some_reg(state *s, wa_reg_class cls, unsigned size)
{
    reader *r = &s->r;
    unsigned k = u8(r) % 8;
    if (k < 4) {
        for (unsigned tries = 0; tries < 4 && s->nvregs; tries++) {
            wa_operand v = s->vregs[below(r, s->nvregs)];
            if (v.reg_class != cls || v.count < size)
                continue;
            if (v.count == size)
                return v;
            return wa_opnd_sub(v, below(r, v.count - size + 1), size);
        }
        return new_vreg(s, cls, size);
    }
    if (k < 6)
        return new_vreg(s, cls, size);
    unsigned first = k == 6 ? u8(r) % 16 : u16(r) % 520;
    return wa_opnd_phys(cls, first, size);
}

/* Something malformed or unlikely: any kind, any fields. */
static wa_operand wild_operand(state *s)
{
    reader *r = &s->r;
    wa_operand o = wa_opnd_none();
    o.kind = (uint8_t)(u8(r) % 10);
    o.reg_class = (uint8_t)(u8(r) % 5);
    o.count = (uint16_t)(u8(r) < 200 ? u8(r) % 34 : u16(r));
    o.id = u8(r) < 200 ? u8(r) % 40 : u32(r);
    o.first = u8(r) < 200 ? u8(r) % 8 : u32(r);
    o.reserved = u8(r) < 250 ? 0 : u32(r);
    if (o.kind == WA_OPND_FIMM)
        o.imm.f = some_float(r);
    else
        o.imm.i = some_int(r);
    return o;
}

/* An operand for position `pos` of an instruction (NULL: none known). */
static wa_operand some_operand(state *s, const wa_isa_operand *pos)
{
    reader *r = &s->r;
    unsigned mode = u8(r) % 16;
    if (!pos || mode >= 13)
        return wild_operand(s);
    unsigned classes = pos->classes, bits[12], nbits = 0;
    for (unsigned b = 0; b < 12; b++)
        if (classes & (1u << b))
            bits[nbits++] = 1u << b;
    if (!nbits)
        return wild_operand(s);
    unsigned c = bits[below(r, nbits)];
    unsigned size = pos->size ? pos->size : 1u + u8(r) % 8;
    switch (c) {
    case WA_OC_VGPR: return some_reg(s, WA_REG_VGPR, size);
    case WA_OC_SGPR: return some_reg(s, WA_REG_SGPR, size);
    case WA_OC_AGPR: return some_reg(s, WA_REG_AGPR, size);
    case WA_OC_SPECIAL: return wa_opnd_special((wa_special)(u8(r) % (WA_SPECIAL_COUNT_ + 1)));
    case WA_OC_INLINE:
        if (u8(r) & 1)
            return wa_opnd_imm((int64_t)(u8(r) % 81) - 16);
        return wa_opnd_fimm(some_float(r));
    case WA_OC_LITERAL:
        return u8(r) & 1 ? wa_opnd_imm(some_int(r)) : wa_opnd_fimm(some_float(r));
    case WA_OC_IMM: {
        int64_t lo = pos->imm_min, hi = pos->imm_max;
        if (u8(r) < 230 && hi >= lo)
            return wa_opnd_imm(lo + (int64_t)(u32(r) % (uint64_t)(hi - lo + 1)));
        return wa_opnd_imm(some_int(r));
    }
    case WA_OC_LABEL: return wa_opnd_label(some_label(s));
    case WA_OC_OFF: return wa_opnd_off();
    case WA_OC_HWREG: {
        unsigned id = u8(r) % 64, off = u8(r) % 32, sz = 1 + u8(r) % 32;
        return wa_opnd_imm(WA_HWREG(id, off, sz));
    }
    default: return wild_operand(s);
    }
}

static void some_mods(state *s, wa_mods *m)
{
    reader *r = &s->r;
    static const unsigned versions[] = { 2, 2, 2, 1, 1, 0, 3 };
    static const uint16_t dpp[] = { 0x1B, 0xE4, 0x101, 0x10F, 0x111, 0x121, 0x130, 0x134,
                                    0x138, 0x13C, 0x140, 0x141, 0x142, 0x143, 0x150, 0x1FF };
    wa_mods d = WA_MODS_INIT;
    *m = d;
    m->version = versions[u8(r) % (sizeof(versions) / sizeof(versions[0]))];
    unsigned f = u8(r);
    m->flags = f < 200 ? f & 0x3F : f < 250 ? (f & 0xFF) | WA_MOD_DPP : u32(r);
    static const int32_t offs[] = { 0, 4, 8, 255, 256, 4095, 4096, -4096, -4097, 65535, 65536, -1 };
    m->offset = u8(r) < 220 ? offs[u8(r) % (sizeof(offs) / sizeof(offs[0]))] : (int32_t)u32(r);
    m->offset1 = u8(r) < 220 ? (int32_t)(u8(r) % 300) : (int32_t)u32(r);
    m->cbsz = (uint8_t)(u8(r) < 220 ? u8(r) % 8 : u8(r));
    m->abid = (uint8_t)(u8(r) < 220 ? u8(r) % 16 : u8(r));
    m->blgp = (uint8_t)(u8(r) < 220 ? u8(r) % 8 : u8(r));
    m->op_sel = (uint8_t)(u8(r) % 9);
    m->op_sel_hi = (uint8_t)(u8(r) % 9);
    static const int8_t counts[] = { -1, -1, 0, 1, 15, 63, 127, -2 };
    m->vmcnt = counts[u8(r) % 8];
    m->lgkmcnt = counts[u8(r) % 8];
    m->expcnt = counts[u8(r) % 8];
    m->dpp_ctrl = u8(r) < 230 ? dpp[u8(r) % 16] : (uint16_t)u16(r);
    m->row_mask = (uint8_t)(u8(r) % 17);
    m->bank_mask = (uint8_t)(u8(r) % 17);
}

/* An opcode: mostly from the table, now and then past its end. */
static wa_opcode some_opcode(state *s)
{
    unsigned n = wa_isa_count();
    return (wa_opcode)below(&s->r, n + 3);
}

/* Operands for `op` shaped after its table row (count may be off now and then). */
static unsigned some_operands(state *s, wa_opcode op, wa_operand *ops)
{
    const wa_isa_info *info = wa_isa_get(op);
    unsigned n = info ? info->num_operands : u8(&s->r) % 7;
    if (u8(&s->r) >= 245)
        n = u8(&s->r) % (WA_ISA_MAX_OPERANDS + 1);
    for (unsigned i = 0; i < n; i++)
        ops[i] = some_operand(s, info && i < info->num_operands ? &info->operands[i] : NULL);
    return n;
}

/* An operand for the family helpers: the table position `k` of `op` if it has one. */
static wa_operand pos_operand(state *s, wa_opcode op, unsigned k)
{
    const wa_isa_info *info = wa_isa_get(op);
    if (u8(&s->r) < 20)
        return wa_opnd_none();
    return some_operand(s, info && k < info->num_operands ? &info->operands[k] : NULL);
}

static unsigned some_index(state *s)
{
    unsigned n = wa_program_size(s->prog);
    unsigned k = u8(&s->r);
    if (n && k < 240)
        return k % n;
    return k < 250 ? n : WA_END;
}

/* The family helpers, with operands in the helper's order (the table order
   except where the helper says otherwise). Operands are drawn before the call:
   argument evaluation order is unspecified in C, and the bytes must mean the
   same whatever the compiler. */
static void call_family(state *s)
{
    reader *r = &s->r;
    wa_program *p = s->prog;
    wa_opcode op = some_opcode(s);
    const wa_isa_info *info = wa_isa_get(op);
    wa_mods m, *mp = NULL;
    if (u8(r) & 1) {
        some_mods(s, &m);
        mp = &m;
    }
    unsigned which = u8(r) % 13;
    if (which == 12) {
        /* a branch opcode for wa_build_branch */
        unsigned n = wa_isa_count();
        for (unsigned tries = 0; tries < n; tries++) {
            const wa_isa_info *bi = wa_isa_get(op);
            if (bi && (bi->flags & (WA_IF_BRANCH | WA_IF_CBRANCH)))
                break;
            op = (wa_opcode)((op + 1) % n);
        }
        info = wa_isa_get(op);
        which = 11;
    }
    wa_operand a[WA_ISA_MAX_OPERANDS];
    for (unsigned k = 0; k < WA_ISA_MAX_OPERANDS; k++)
        a[k] = pos_operand(s, op, k);
    wa_operand none = wa_opnd_none();
    int store = info && (info->flags & WA_IF_STORE);
    int def_first = info && info->num_operands && info->operands[0].role == WA_ROLE_DEF;
    int lds = info && (info->flags & WA_IF_LDS_DMA);
    wa_tag tag = WA_NO_TAG;
    wa_status st;
    const char *what;
    switch (which) {
    case 0:
        st = wa_build_valu(&tag, p, op, a[0], a[1], a[2], a[3]);
        what = "wa_build_valu";
        break;
    case 1:
        st = wa_build_valu_mods(&tag, p, op, a[0], a[1], a[2], a[3], mp);
        what = "wa_build_valu_mods";
        break;
    case 2:
        if (info && info->format == WA_FMT_SOPC)
            st = wa_build_salu(&tag, p, op, none, a[0], a[1]);
        else
            st = wa_build_salu(&tag, p, op, a[0], a[1], a[2]);
        what = "wa_build_salu";
        break;
    case 3:
        st = wa_build_smem(&tag, p, op, a[0], a[1], a[2], mp);
        what = "wa_build_smem";
        break;
    case 4:
        if (lds)
            st = wa_build_mubuf(&tag, p, op, none, a[0], a[1], a[2], mp);
        else
            st = wa_build_mubuf(&tag, p, op, a[0], a[1], a[2], a[3], mp);
        what = "wa_build_mubuf";
        break;
    case 5:
        if (store)
            st = wa_build_global(&tag, p, op, a[1], a[0], a[2], mp);
        else
            st = wa_build_global(&tag, p, op, a[0], a[1], a[2], mp);
        what = "wa_build_global";
        break;
    case 6:
        if (def_first)
            st = wa_build_ds(&tag, p, op, a[0], a[1], a[2], a[3], mp);
        else
            st = wa_build_ds(&tag, p, op, none, a[0], a[1], a[2], mp);
        what = "wa_build_ds";
        break;
    case 7:
        st = wa_build_mfma(&tag, p, op, a[0], a[1], a[2], a[3], a[4], a[5], mp);
        what = "wa_build_mfma";
        break;
    case 8: {
        static const int counts[] = { -1, 0, 1, 15, 63, 127, 128, -2 };
        int vm = counts[u8(r) % 8], lgkm = counts[u8(r) % 8], exp = counts[u8(r) % 8];
        st = wa_build_waitcnt(&tag, p, vm, lgkm, exp);
        what = "wa_build_waitcnt";
        break;
    }
    case 9:
        st = wa_build_sopp(&tag, p, op, (int)some_int(r));
        what = "wa_build_sopp";
        break;
    case 10: {
        unsigned field;
        if (u8(r) < 230) {
            unsigned id = u8(r) % 64, off = u8(r) % 32, sz = 1 + u8(r) % 32;
            field = WA_HWREG(id, off, sz);
        } else {
            field = u32(r);
        }
        /* the value is the operand that is not the hwreg field */
        unsigned vpos = info && info->num_operands == 2 && (info->operands[0].classes & WA_OC_HWREG);
        st = wa_build_hwreg(&tag, p, op, field, a[vpos]);
        what = "wa_build_hwreg";
        break;
    }
    default:
        st = wa_build_branch(&tag, p, op, some_label(s));
        what = "wa_build_branch";
        break;
    }
    if (checked(s, st, what) == WA_OK)
        note_tag(s, tag);
}

static void call_once(state *s)
{
    reader *r = &s->r;
    wa_program *p = s->prog;
    char name[48];
    wa_operand ops[WA_ISA_MAX_OPERANDS + 1];
    wa_mods m;
    switch (u8(r) % 18) {
    case 0: {
        static const unsigned sizes[] = { 1, 1, 2, 2, 3, 4, 4, 8, 16, 32, 0, 33, 5 };
        static const unsigned aligns[] = { 0, 0, 0, 1, 2, 4, 8, 16, 32, 3, 64 };
        wa_reg_class cls = (wa_reg_class)(u8(r) % 5);
        unsigned size = sizes[u8(r) % (sizeof(sizes) / sizeof(sizes[0]))];
        unsigned align = aligns[u8(r) % (sizeof(aligns) / sizeof(aligns[0]))];
        wa_operand o;
        if (checked(s, wa_program_vreg(&o, p, cls, size, align), "wa_program_vreg") == WA_OK &&
            s->nvregs < MAX_VREGS)
            s->vregs[s->nvregs++] = o;
        break;
    }
    case 1:
    case 2:
    case 3: {
        wa_opcode op = some_opcode(s);
        unsigned n = some_operands(s, op, ops);
        wa_mods *mp = NULL;
        if (u8(r) & 1) {
            some_mods(s, &m);
            mp = &m;
        }
        wa_tag tag = WA_NO_TAG;
        if (checked(s, wa_build(&tag, p, op, n ? ops : NULL, n, mp), "wa_build") == WA_OK)
            note_tag(s, tag);
        break;
    }
    case 4:
        call_family(s);
        break;
    case 5: {
        wa_label l = 0;
        const char *nm = u8(r) < 64 ? NULL : some_name(r, name, sizeof(name));
        checked(s, wa_program_label_create(&l, p, nm), "wa_program_label_create");
        break;
    }
    case 6:
        checked(s, wa_build_label(p, some_label(s)), "wa_build_label");
        break;
    case 7:
        checked(s, wa_build_comment(p, some_name(r, name, sizeof(name))), "wa_build_comment");
        break;
    case 8: {
        wa_tag t = s->ntags && u8(r) < 240 ? s->tags[u8(r) % (s->ntags < 64 ? s->ntags : 64)]
                                          : u32(r);
        const char *text = u8(r) < 30 ? NULL : some_name(r, name, sizeof(name));
        checked(s, wa_program_set_comment(p, t, text), "wa_program_set_comment");
        break;
    }
    case 9:
        checked(s, wa_program_erase(p, some_index(s)), "wa_program_erase");
        break;
    case 10: {
        unsigned from = some_index(s);
        checked(s, wa_program_move(p, from, some_index(s)), "wa_program_move");
        break;
    }
    case 11: {
        unsigned idx = some_index(s);
        unsigned k = u8(r) % (WA_ISA_MAX_OPERANDS + 1);
        wa_instr_view v;
        const wa_isa_operand *pos = NULL;
        if (idx < wa_program_size(p) && wa_program_get(&v, p, idx) == WA_OK) {
            const wa_isa_info *info = wa_isa_get(v.opcode);
            if (info && k < info->num_operands)
                pos = &info->operands[k];
        }
        checked(s, wa_program_set_operand(p, idx, k, some_operand(s, pos)),
                "wa_program_set_operand");
        break;
    }
    case 12:
        some_mods(s, &m);
        checked(s, wa_program_set_mods(p, some_index(s), u8(r) < 250 ? &m : NULL),
                "wa_program_set_mods");
        break;
    case 13:
        checked(s, wa_program_set_insert_point(p, some_index(s)), "wa_program_set_insert_point");
        break;
    case 14: {
        wa_kernel_arg a = WA_KERNEL_ARG_INIT;
        static const unsigned versions[] = { 1, 1, 1, 0, 2 };
        static const unsigned sizes[] = { 4, 8, 8, 2, 16, 1, 0, 4096, 4097, 12 };
        static const unsigned aligns[] = { 0, 0, 4, 8, 16, 3, 4096, 8192 };
        a.version = versions[u8(r) % 5];
        a.name = u8(r) < 60 ? NULL : some_name(r, name, sizeof(name));
        a.kind = (wa_arg_kind)(u8(r) % (WA_ARG_KIND_COUNT_ + 2));
        a.offset = u8(r) < 180 ? WA_ARG_OFFSET_AUTO : u8(r) < 200 ? u16(r) % 512 : u32(r);
        a.size = sizes[u8(r) % 10];
        a.align = aligns[u8(r) % 8];
        a.flags = u8(r) % 8;
        unsigned idx = 0;
        checked(s, wa_program_add_arg(&idx, p, &a), "wa_program_add_arg");
        break;
    }
    case 15:
        switch (u8(r) % 5) {
        case 0:
            checked(s, wa_program_set_name(p, some_name(r, name, sizeof(name))),
                    "wa_program_set_name");
            break;
        case 1:
            checked(s, wa_program_set_target(p, (wa_target)(u8(r) % 5)), "wa_program_set_target");
            break;
        case 2: {
            static const unsigned dims[] = { 1, 64, 256, 1024, 2, 0, 1025, 100000 };
            unsigned x = dims[u8(r) % 8], y = dims[u8(r) % 8], z = dims[u8(r) % 8];
            checked(s, wa_program_set_workgroup_size(p, x, y, z), "wa_program_set_workgroup_size");
            break;
        }
        case 3: {
            static const unsigned lds[] = { 0, 4, 4096, 65536, 65537, 163840, 163841, 0xFFFFFFFFu };
            checked(s, wa_program_set_lds_bytes(p, lds[u8(r) % 8]), "wa_program_set_lds_bytes");
            break;
        }
        default:
            checked(s, wa_program_set_abi_inputs(p, u8(r) < 230 ? u16(r) & 0x7FF : u32(r)),
                    "wa_program_set_abi_inputs");
            break;
        }
        break;
    case 16: {
        /* the ABI registers as operands */
        wa_operand o;
        wa_abi_input in = (wa_abi_input)(u8(r) % (WA_ABI_COUNT_ + 1));
        if (checked(s, wa_program_abi_reg(&o, p, in), "wa_program_abi_reg") == WA_OK) {
            wa_operand d = new_vreg(s, (wa_reg_class)o.reg_class, o.count);
            if (d.kind == WA_OPND_VIRT && o.count == 1) {
                wa_opcode op = o.reg_class == WA_REG_VGPR ? WA_OP_V_MOV_B32 : WA_OP_S_MOV_B32;
                wa_tag tag;
                if (checked(s, wa_build_valu(&tag, p, op, d, o, wa_opnd_none(), wa_opnd_none()),
                            "wa_build_valu") == WA_OK)
                    note_tag(s, tag);
            }
        }
        break;
    }
    default: {
        /* queries with any index */
        wa_instr_view v;
        unsigned idx = some_index(s);
        if (wa_program_get(&v, p, idx) == WA_OK) {
            FZ_REQUIRE(s->ctx, v.num_operands == 0 || v.operands, "a view without operands");
            unsigned found = 0;
            if (v.tag != WA_NO_TAG)
                FZ_REQUIRE(s->ctx, wa_program_find_tag(&found, p, v.tag) == WA_OK,
                           "wa_program_find_tag misses I%u", v.tag);
        }
        wa_reg_class cls;
        unsigned size, align;
        (void)wa_program_vreg_info(&cls, &size, &align, p, u8(r) % 70);
        (void)wa_program_label_name(p, u8(r) % 20);
        wa_kernel_arg a;
        (void)wa_program_arg(&a, p, u8(r) % 8);
        (void)wa_program_kernarg_size(p);
        (void)wa_program_user_sgpr_count(p);
        (void)wa_program_abi_sgpr_count(p);
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    state s;
    memset(&s, 0, sizeof(s));
    s.r.p = data;
    s.r.n = size;
    static const wa_target targets[] = { WA_TARGET_GFX942, WA_TARGET_GFX90A, WA_TARGET_GFX950 };
    s.ctx = fz_context(targets[u8(&s.r) % 3]);
    if (checked(&s, wa_program_create(&s.prog, s.ctx, "fuzz"), "wa_program_create") != WA_OK)
        fz_fail(s.ctx, "wa_program_create fails for a valid name");
    for (unsigned calls = 0; calls < MAX_CALLS && s.r.n; calls++)
        call_once(&s);

    fz_round_trip(s.prog, "built program");

    wa_status st = wa_program_validate(NULL, s.prog, NULL);
    if (fz_verbose())
        fprintf(stderr, "fuzz_builder: %u items, %s\n", wa_program_size(s.prog),
                st == WA_OK ? "valid" : "invalid");
    if (st != WA_OK) {
        fz_check_failure(s.ctx, st, "wa_program_validate");
    } else {
        wa_program *copy = NULL;
        FZ_REQUIRE(s.ctx, wa_program_clone(&copy, s.prog) == WA_OK, "wa_program_clone failed");
        FZ_REQUIRE(s.ctx, wa_program_equal(copy, s.prog), "a clone differs from its original");
        wa_program_destroy(copy);
        wa_validate_options vo = WA_VALIDATE_OPTIONS_INIT;
        vo.flags = WA_VALIDATE_PHYSICAL;
        if (wa_program_validate(NULL, s.prog, &vo) == WA_OK) {
            char *text = NULL;
            st = wa_emit_asm(&text, NULL, s.prog, NULL);
            FZ_REQUIRE(s.ctx, st == WA_OK, "wa_emit_asm fails on a valid physical program: %s",
                       wa_context_last_error(s.ctx));
            wa_free(text);
        }
    }
    wa_program_destroy(s.prog);
    wa_context_destroy(s.ctx);
    return 0;
}
