/* tests/fuzz/fuzz_corpus_gen.c — writes the fuzzers' dictionary and seed corpus
   at build time, from the ISA table and the library itself (public API only).

       fuzz_corpus_gen DICT SEED_DIR [FILE.wa ...]

   DICT gets every token of the text form (docs/text-format.md): each mnemonic
   in both spellings, register and special register spellings, modifiers,
   directives, ABI inputs, argument kinds, targets and hwreg names. SEED_DIR gets
   the given files (the examples and the lit tests' inputs) and one small kernel
   per opcode: it loads the instruction's inputs from a buffer, runs it and
   stores what it writes, so the seeds validate, compile and simulate. */
#include <waveasm/waveasm.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;

/* ---- dictionary ---------------------------------------------------------------------- */

/* One entry in libFuzzer's dictionary syntax: "text" with \\, \" and \xNN escapes. */
static void dict_entry(FILE *f, const char *text)
{
    if (!text || !text[0])
        return;
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7F)
            fprintf(f, "\\x%02X", *p);
        else
            fputc(*p, f);
    }
    fputs("\"\n", f);
}

/* Tokens of the text form that no table of the library lists. */
static const char *const text_tokens[] = {
    /* structure and header */
    ".kernel ", ".end_kernel", ".target ", ".workgroup_size ", ".lds_bytes ", ".abi ", ".arg ",
    ".vreg ", "none", "offset:", "size:", "align:", "const", "restrict", "volatile", "-,",
    "; @I", ";", "#", ":\n", "\n", ", ",
    /* registers */
    "%v", "%s", "%a", "<2,align=2>", "<4,align=4>", ",align=", "v[", "s[", "a[", "[0:1]", "[2:3]",
    "v0", "s[0:1]", "off",
    /* modifiers */
    "offen", "idxen", "offset0:", "offset1:", "glc", "slc", "scc", "sc0", "sc1", "nt", "lds",
    "cbsz:", "abid:", "blgp:", "op_sel:[", "op_sel_hi:[", "vmcnt(", "expcnt(", "lgkmcnt(", " & ",
    "_dpp", "_e32", "_e64", "quad_perm:[", "row_shl:", "row_shr:", "row_ror:", "wave_shl:1",
    "wave_rol:1", "wave_shr:1", "wave_ror:1", "row_mirror", "row_half_mirror", "row_bcast:15",
    "row_bcast:31", "row_mask:", "bank_mask:", "bound_ctrl:0", "bound_ctrl:1", "dpp_ctrl:",
    "hwreg(",
    /* numbers */
    "0x", "1.0", "-0.5", "0.15915494", "2.5e-3", "4095", "-4096", "65535", "0x7fffffff",
    "-2147483648", "9223372036854775807", "1e400",
};

static void write_dict(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "fuzz_corpus_gen: cannot write %s: %s\n", path, strerror(errno));
        failed = 1;
        return;
    }
    fprintf(f, "# libFuzzer dictionary of the waveasm text form, written by fuzz_corpus_gen\n");
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        dict_entry(f, info->mnemonic);
        if (info->mnemonic_gfx90a && strcmp(info->mnemonic_gfx90a, info->mnemonic) != 0)
            dict_entry(f, info->mnemonic_gfx90a);
    }
    for (unsigned s = 0; wa_special_name((wa_special)s); s++)
        dict_entry(f, wa_special_name((wa_special)s));
    for (unsigned a = 0; wa_abi_input_name((wa_abi_input)a); a++)
        dict_entry(f, wa_abi_input_name((wa_abi_input)a));
    for (unsigned k = 0; wa_arg_kind_name((wa_arg_kind)k); k++)
        dict_entry(f, wa_arg_kind_name((wa_arg_kind)k));
    for (unsigned t = 1; t < WA_TARGET_COUNT; t++)
        dict_entry(f, wa_target_name((wa_target)t));
    /* hwreg names: each once, whichever target names it */
    for (unsigned id = 0; id < 64; id++) {
        const char *seen = NULL;
        for (unsigned t = 1; t < WA_TARGET_COUNT; t++) {
            const char *n = wa_hwreg_name(id, (wa_target)t);
            if (n && (!seen || strcmp(n, seen) != 0))
                dict_entry(f, n);
            if (n)
                seen = n;
        }
    }
    for (unsigned s = 0; s < WA_STAGE_COUNT_; s++)
        dict_entry(f, wa_stage_name((wa_stage)s));
    for (size_t i = 0; i < sizeof(text_tokens) / sizeof(text_tokens[0]); i++)
        dict_entry(f, text_tokens[i]);
    if (fclose(f) != 0)
        failed = 1;
}

/* ---- files ------------------------------------------------------------------------------ */

static int write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "fuzz_corpus_gen: cannot write %s\n", path);
        failed = 1;
        return -1;
    }
    return 0;
}

/* Copies `src` to SEED_DIR as "<parent>-<name>" (lit tests reuse file names). */
static void copy_seed(const char *dir, const char *src)
{
    FILE *f = fopen(src, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_corpus_gen: cannot read %s\n", src);
        failed = 1;
        return;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 8192;
            char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        if (!got)
            break;
        len += got;
    }
    fclose(f);
    const char *base = strrchr(src, '/');
    base = base ? base + 1 : src;
    const char *parent = src;
    for (const char *p = src; p < base - 1; p++)
        if (*p == '/')
            parent = p + 1;
    char name[512];
    snprintf(name, sizeof(name), "%s/%.*s-%s", dir, (int)(base > parent ? base - 1 - parent : 0),
             parent, base);
    write_file(name, buf ? buf : "", len);
    free(buf);
}

/* ---- one kernel per opcode -------------------------------------------------------------- */

typedef struct gen {
    wa_program *p;
    wa_operand in_ptr, out_ptr; /* s[..] pairs holding the two buffer addresses */
    wa_operand voff;            /* lane * 4 */
    wa_operand rsrc;            /* buffer resource over the input buffer */
    unsigned store_slot;        /* next output offset (x 128 bytes) */
    int ok;
} gen;

static void step(gen *g, wa_status st)
{
    if (st != WA_OK)
        g->ok = 0;
}

static wa_operand vreg(gen *g, wa_reg_class cls, unsigned size)
{
    wa_operand o = wa_opnd_none();
    step(g, wa_program_vreg(&o, g->p, cls, size, 0));
    return o;
}

static wa_operand comp(wa_operand r, unsigned k)
{
    return wa_opnd_sub(r, k, 1);
}

/* Fills register `r` (any class) with values from the input buffer. */
static void load_reg(gen *g, wa_operand r, unsigned slot)
{
    wa_mods m = WA_MODS_INIT;
    for (unsigned k = 0; k < r.count; k++) {
        wa_operand c = comp(r, k);
        if (r.kind == WA_OPND_PHYS && r.reg_class == WA_REG_SGPR) {
            step(g, wa_build_salu(NULL, g->p, WA_OP_S_MOV_B32, c, wa_opnd_imm(slot + k + 1),
                                  wa_opnd_none()));
        } else if (r.reg_class == WA_REG_SGPR) {
            step(g, wa_build_smem(NULL, g->p, WA_OP_S_LOAD_DWORD, c, g->in_ptr,
                                  wa_opnd_imm(4 * (slot + k)), NULL));
        } else if (r.reg_class == WA_REG_VGPR) {
            m.offset = (int32_t)(128 * ((slot + k) % 32));
            step(g, wa_build_global(NULL, g->p, WA_OP_GLOBAL_LOAD_DWORD, c, g->voff, g->in_ptr, &m));
        } else {
            wa_operand t = vreg(g, WA_REG_VGPR, 1);
            m.offset = (int32_t)(128 * ((slot + k) % 32));
            step(g, wa_build_global(NULL, g->p, WA_OP_GLOBAL_LOAD_DWORD, t, g->voff, g->in_ptr, &m));
            step(g, wa_build_waitcnt(NULL, g->p, 0, -1, -1));
            step(g, wa_build_valu(NULL, g->p, WA_OP_V_ACCVGPR_WRITE_B32, c, t, wa_opnd_none(),
                                  wa_opnd_none()));
        }
    }
}

/* Stores register `r` (any class) to the output buffer. */
static void store_reg(gen *g, wa_operand r)
{
    wa_mods m = WA_MODS_INIT;
    for (unsigned k = 0; k < r.count; k++) {
        wa_operand c = comp(r, k), v = c;
        if (r.reg_class != WA_REG_VGPR) {
            v = vreg(g, WA_REG_VGPR, 1);
            wa_opcode op = r.reg_class == WA_REG_AGPR ? WA_OP_V_ACCVGPR_READ_B32 : WA_OP_V_MOV_B32;
            step(g, wa_build_valu(NULL, g->p, op, v, c, wa_opnd_none(), wa_opnd_none()));
        }
        m.offset = (int32_t)(128 * (g->store_slot++ % 32));
        step(g, wa_build_global(NULL, g->p, WA_OP_GLOBAL_STORE_DWORD, v, g->voff, g->out_ptr, &m));
    }
}

/* Class preference orders, one per attempt. */
static const unsigned prefs[4][8] = {
    { WA_OC_VGPR, WA_OC_SGPR, WA_OC_AGPR, WA_OC_INLINE, WA_OC_LITERAL, WA_OC_IMM, WA_OC_OFF, WA_OC_SPECIAL },
    { WA_OC_SGPR, WA_OC_VGPR, WA_OC_AGPR, WA_OC_INLINE, WA_OC_LITERAL, WA_OC_IMM, WA_OC_OFF, WA_OC_SPECIAL },
    { WA_OC_INLINE, WA_OC_VGPR, WA_OC_SGPR, WA_OC_AGPR, WA_OC_LITERAL, WA_OC_IMM, WA_OC_OFF, WA_OC_SPECIAL },
    { WA_OC_AGPR, WA_OC_VGPR, WA_OC_SGPR, WA_OC_INLINE, WA_OC_LITERAL, WA_OC_IMM, WA_OC_OFF, WA_OC_SPECIAL },
};
static const unsigned zero_sizes[] = { 1, 2, 8, 4, 6 };

static wa_program *kernel_for(wa_context *ctx, unsigned op, wa_target target, unsigned attempt,
                              const wa_mods *mods)
{
    const wa_isa_info *info = wa_isa_get(op);
    const unsigned *pref = prefs[attempt % 4];
    unsigned zsize = zero_sizes[attempt / 4];
    char name[96];
    snprintf(name, sizeof(name), "k_%s", info->mnemonic);
    gen g;
    memset(&g, 0, sizeof(g));
    g.ok = 1;
    if (wa_program_create(&g.p, ctx, name) != WA_OK)
        return NULL;
    wa_program *p = g.p;
    step(&g, wa_program_set_target(p, target));
    step(&g, wa_program_set_lds_bytes(p, 4096));
    step(&g, wa_program_set_abi_inputs(p, WA_ABI_BIT(WA_ABI_KERNARG_PTR) |
                                              WA_ABI_BIT(WA_ABI_WORKGROUP_ID_X) |
                                              WA_ABI_BIT(WA_ABI_WORKITEM_ID_X)));
    wa_kernel_arg a = WA_KERNEL_ARG_INIT;
    a.kind = WA_ARG_GLOBAL_BUFFER;
    a.size = 8;
    a.name = "in";
    step(&g, wa_program_add_arg(NULL, p, &a));
    a.name = "out";
    step(&g, wa_program_add_arg(NULL, p, &a));

    wa_operand kernarg, wgid, tid;
    step(&g, wa_program_abi_reg(&kernarg, p, WA_ABI_KERNARG_PTR));
    step(&g, wa_program_abi_reg(&wgid, p, WA_ABI_WORKGROUP_ID_X));
    step(&g, wa_program_abi_reg(&tid, p, WA_ABI_WORKITEM_ID_X));
    if (!g.ok) {
        wa_program_destroy(p);
        return NULL;
    }
    wa_operand ptrs = vreg(&g, WA_REG_SGPR, 4);
    step(&g, wa_build_smem(NULL, p, WA_OP_S_LOAD_DWORDX4, ptrs, kernarg, wa_opnd_imm(0), NULL));
    g.in_ptr = wa_opnd_sub(ptrs, 0, 2);
    g.out_ptr = wa_opnd_sub(ptrs, 2, 2);
    g.voff = vreg(&g, WA_REG_VGPR, 1);
    step(&g, wa_build_valu(NULL, p, WA_OP_V_LSHLREV_B32, g.voff, wa_opnd_imm(2), tid,
                           wa_opnd_none()));
    step(&g, wa_build_salu(NULL, p, WA_OP_S_MOV_B32, wa_opnd_special(WA_SPECIAL_M0),
                           wa_opnd_imm(0), wa_opnd_none()));
    step(&g, wa_build_waitcnt(NULL, p, -1, 0, -1));
    g.rsrc = vreg(&g, WA_REG_SGPR, 4);
    step(&g, wa_build_salu(NULL, p, WA_OP_S_MOV_B64, wa_opnd_sub(g.rsrc, 0, 2), g.in_ptr,
                           wa_opnd_none()));
    step(&g, wa_build_salu(NULL, p, WA_OP_S_MOV_B32, wa_opnd_sub(g.rsrc, 2, 1),
                           wa_opnd_imm(4096), wa_opnd_none()));
    step(&g, wa_build_salu(NULL, p, WA_OP_S_MOV_B32, wa_opnd_sub(g.rsrc, 3, 1),
                           wa_opnd_imm(0x27000), wa_opnd_none()));

    /* operands */
    wa_operand ops[WA_ISA_MAX_OPERANDS];
    wa_label skip = 0;
    int has_label = 0;
    int is_store = (info->flags & (WA_IF_STORE | WA_IF_ATOMIC)) != 0;
    for (unsigned k = 0; k < info->num_operands && g.ok; k++) {
        const wa_isa_operand *pos = &info->operands[k];
        unsigned size = pos->size ? pos->size : zsize;
        const char *n = pos->name;
        if (pos->classes & WA_OC_LABEL) {
            step(&g, wa_program_label_create(&skip, p, "skip"));
            ops[k] = wa_opnd_label(skip);
            has_label = 1;
            continue;
        }
        if (pos->classes & WA_OC_HWREG) {
            ops[k] = wa_opnd_imm(WA_HWREG(WA_HWREG_MODE, 0, 4));
            continue;
        }
        if (info->format == WA_FMT_GLOBAL && strcmp(n, "vaddr") == 0) {
            ops[k] = g.voff;
            continue;
        }
        if (info->format == WA_FMT_GLOBAL && strcmp(n, "saddr") == 0) {
            ops[k] = is_store ? g.out_ptr : g.in_ptr;
            continue;
        }
        if (info->format == WA_FMT_DS && strcmp(n, "addr") == 0) {
            ops[k] = g.voff;
            continue;
        }
        if (info->format == WA_FMT_MUBUF && strcmp(n, "vaddr") == 0) {
            ops[k] = wa_opnd_off();
            continue;
        }
        if (strcmp(n, "srsrc") == 0 || (strcmp(n, "sbase") == 0 && size == 4)) {
            ops[k] = g.rsrc;
            continue;
        }
        if (strcmp(n, "sbase") == 0) {
            ops[k] = g.in_ptr;
            continue;
        }
        unsigned c = 0;
        for (unsigned i = 0; i < 8 && !c; i++)
            if (pos->classes & pref[i])
                c = pref[i];
        switch (c) {
        case WA_OC_VGPR:
        case WA_OC_SGPR:
        case WA_OC_AGPR: {
            wa_reg_class cls = c == WA_OC_VGPR ? WA_REG_VGPR
                             : c == WA_OC_SGPR ? WA_REG_SGPR
                                               : WA_REG_AGPR;
            if ((info->flags & WA_IF_REL_M0) && pos->classes == WA_OC_SGPR)
                ops[k] = wa_opnd_phys(WA_REG_SGPR, 40, size);
            else
                ops[k] = vreg(&g, cls, size);
            if (pos->role & WA_ROLE_USE)
                load_reg(&g, ops[k], 4 * k);
            break;
        }
        case WA_OC_INLINE:
            ops[k] = pos->type == WA_TY_F32 || pos->type == WA_TY_F64 || pos->type == WA_TY_F16
                         ? wa_opnd_fimm(0.5)
                         : wa_opnd_imm(3);
            break;
        case WA_OC_LITERAL: ops[k] = wa_opnd_imm(0x12345); break;
        case WA_OC_IMM: ops[k] = wa_opnd_imm(pos->imm_min <= 0 && pos->imm_max >= 0 ? 0 : pos->imm_min); break;
        case WA_OC_OFF: ops[k] = wa_opnd_off(); break;
        case WA_OC_SPECIAL: ops[k] = wa_opnd_special(size == 2 ? WA_SPECIAL_VCC : WA_SPECIAL_M0); break;
        default: g.ok = 0; break;
        }
    }
    /* implicit inputs: a lane mask in vcc, scc from the workgroup id */
    if (info->implicit_uses & WA_IMPL_VCC)
        step(&g, wa_build_valu(NULL, p, WA_OP_V_CMP_GT_U32, wa_opnd_special(WA_SPECIAL_VCC),
                               wa_opnd_imm(32), tid, wa_opnd_none()));
    step(&g, wa_build_waitcnt(NULL, p, 0, 0, -1));
    if (info->implicit_uses & WA_IMPL_SCC)
        step(&g, wa_build_salu(NULL, p, WA_OP_S_CMP_EQ_U32, wa_opnd_none(), wgid, wa_opnd_imm(0)));
    if (!g.ok) {
        wa_program_destroy(p);
        return NULL;
    }
    step(&g, wa_build(NULL, p, (wa_opcode)op, ops, info->num_operands, mods));
    if (!(info->flags & WA_IF_ENDPGM)) {
        step(&g, wa_build_waitcnt(NULL, p, 0, 0, -1));
        for (unsigned k = 0; k < info->num_operands; k++) {
            const wa_operand *o = &ops[k];
            if ((info->operands[k].role & WA_ROLE_DEF) &&
                (o->kind == WA_OPND_VIRT || o->kind == WA_OPND_PHYS))
                store_reg(&g, *o);
        }
        if (has_label)
            step(&g, wa_build_label(p, skip));
        step(&g, wa_build_sopp(NULL, p, WA_OP_S_ENDPGM, 0));
    }
    if (!g.ok || wa_program_validate(NULL, p, NULL) != WA_OK) {
        wa_program_destroy(p);
        return NULL;
    }
    return p;
}

/* Writes SEED_DIR/gen-<opcode id in lower case><suffix>.wa (ids are unique,
   mnemonics are not: the lds forms of buffer loads share theirs). */
static int write_program(const char *dir, const wa_program *p, unsigned op, const char *suffix)
{
    char *text = NULL;
    size_t len = 0;
    if (wa_program_print(&text, &len, p, NULL) != WA_OK)
        return -1;
    char id[64];
    snprintf(id, sizeof(id), "%s", wa_isa_get(op)->id);
    for (char *c = id; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    char path[512];
    snprintf(path, sizeof(path), "%s/gen-%s%s.wa", dir, id, suffix);
    int r = write_file(path, text, len);
    wa_free(text);
    return r;
}

static void write_generated(const char *dir)
{
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK) {
        failed = 1;
        return;
    }
    unsigned written = 0, missing = 0;
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        wa_target target = WA_TARGET_GFX942;
        if (!wa_isa_available(op, target))
            target = wa_isa_available(op, WA_TARGET_GFX950) ? WA_TARGET_GFX950 : WA_TARGET_GFX90A;
        wa_program *p = NULL;
        unsigned attempts = 4 * (unsigned)(sizeof(zero_sizes) / sizeof(zero_sizes[0]));
        for (unsigned a = 0; a < attempts && !p; a++)
            p = kernel_for(ctx, op, target, a, NULL);
        if (!p) {
            missing++;
            continue;
        }
        if (write_program(dir, p, op, "") == 0)
            written++;
        wa_program_destroy(p);
        /* the DPP form of the 32-bit VALU instructions */
        if (info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2) {
            wa_mods m = WA_MODS_INIT;
            m.flags = WA_MOD_DPP | WA_MOD_BOUND_CTRL;
            m.dpp_ctrl = WA_DPP_ROW_SHL(1);
            p = kernel_for(ctx, op, target, 0, &m);
            if (p && write_program(dir, p, op, "-dpp") == 0)
                written++;
            wa_program_destroy(p);
        }
    }
    printf("fuzz_corpus_gen: %u generated kernels, %u opcodes without one\n", written, missing);
    wa_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fuzz_corpus_gen DICT SEED_DIR [FILE.wa ...]\n");
        return 2;
    }
    write_dict(argv[1]);
    for (int i = 3; i < argc; i++)
        copy_seed(argv[2], argv[i]);
    write_generated(argv[2]);
    return failed;
}
