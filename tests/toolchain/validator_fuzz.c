/* tests/toolchain/validator_fuzz.c — differential fuzzing of the validator.

   Generates random single-instruction programs with a fixed seed: random
   opcode and target, operands of random kinds (right and wrong register
   classes, physical numbers including misaligned tuples and numbers past the
   register file, vcc/exec/m0/scc, inline and literal integers and floats,
   `off`, labels) and random modifiers inside and outside their ranges.
   Instances the builder rejects structurally are skipped. The rest are
   validated; every instance the validator accepts must also emit and
   round-trip through the text form. All instances are written out for the
   driver, which assembles them with llvm-mc for the program's target: an
   accepted instance the assembler rejects is a validator bug.

   usage: wa_validator_fuzz --out-dir DIR [--count N] [--seed S]
   Writes DIR/fuzz-<target>.tsv with records
     kind  opcode-number  ID  format  expected-encoding  first-diagnostic  assembly
   kind: A = validator accepts (assembly from wa_emit_asm),
         R = validator rejects (text form of the instruction),
         N = validator rejects, and the text form does not represent the
             instance exactly (not worth asking the assembler).
   Exit status: 0, or 1 when an accepted instance failed to emit or round-trip. */
#include "tc_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const wa_reg_class reg_classes[3] = { WA_REG_VGPR, WA_REG_SGPR, WA_REG_AGPR };

static const int64_t int_pool[] = {
    0, 1, -1, 7, 63, 64, 65, -16, -17, 0x3f800000, 0x3e22f983, 0x3800, 0xffffffff,
    -2147483647 - 1, 4294967296ll, 0x12345, 1ll << 40, 65535, 65536, -32768, -32769,
    1048575, 1048576, -1048576, -1048577, 4095, 4096, 255, 256, 15, 16, 127, 128,
};
static const double float_pool[] = {
    0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 0.15915494309189532, 0.0, -0.0, 3.25,
    -7.5, 1e-8, 65504.0, 1e10, 1e39, 0.1, 1.5, 100000.0, 1e-40, 1e-5, 6.103515625e-05,
};

#define POOL_PICK(r, pool) ((pool)[tc_rng_below((r), sizeof(pool) / sizeof((pool)[0]))])

static int is_name(const wa_isa_operand *spec, const char *name)
{
    return spec->name && strcmp(spec->name, name) == 0;
}

/* Registers a position needs under the modifiers, as far as the fuzzer cares
   (a wrong guess only makes more instances invalid). */
static unsigned guess_size(const wa_isa_info *info, unsigned k, const wa_mods *m,
                           const wa_operand *ops)
{
    const wa_isa_operand *spec = &info->operands[k];
    if (spec->size)
        return spec->size;
    if (info->format == WA_FMT_MUBUF)
        return (m->flags & WA_MOD_OFFEN) && (m->flags & WA_MOD_IDXEN) ? 2 : 1;
    if (info->format == WA_FMT_GLOBAL) {
        for (unsigned j = 0; j < info->num_operands; j++)
            if (is_name(&info->operands[j], "saddr"))
                return ops[j].kind == WA_OPND_OFF ? 2 : 1;
        return 2;
    }
    if (info->flags & WA_IF_F8F6F4) {
        static const unsigned regs[5] = { 8, 8, 6, 6, 4 };
        unsigned code = is_name(spec, "srcA") ? m->cbsz : m->blgp;
        return code < 5 ? regs[code] : 8;
    }
    return 1;
}

static wa_operand random_reg(tc_rng *r, wa_reg_class cls, unsigned size)
{
    unsigned limit = cls == WA_REG_SGPR ? 102 : 256;
    unsigned align = size < 2 ? 1 : cls == WA_REG_SGPR && size > 2 ? 4 : 2;
    unsigned base;
    unsigned mode = tc_rng_below(r, 20);
    if (mode < 14) { /* aligned, inside the file */
        unsigned slots = (limit - size) / align + 1;
        base = tc_rng_below(r, slots) * align;
    } else if (mode < 17) { /* misaligned */
        base = tc_rng_below(r, limit - size + 1) | 1u;
        if (base + size > limit)
            base = 1;
    } else { /* at or past the end of the file */
        base = limit - size + tc_rng_below(r, size + 4);
    }
    return wa_opnd_phys(cls, base, size);
}

static wa_operand random_imm(tc_rng *r)
{
    switch (tc_rng_below(r, 4)) {
    case 0: return wa_opnd_imm((int64_t)tc_rng_below(r, 81) - 16); /* inline integers */
    case 1: return wa_opnd_imm(POOL_PICK(r, int_pool));
    case 2: return wa_opnd_fimm(POOL_PICK(r, float_pool));
    default: return wa_opnd_imm((int64_t)(int32_t)tc_rng_u32(r));
    }
}

static wa_operand random_operand(tc_rng *r, const wa_isa_info *info, unsigned k,
                                 const wa_mods *m, const wa_operand *ops)
{
    const wa_isa_operand *spec = &info->operands[k];
    unsigned size = guess_size(info, k, m, ops);
    if (tc_rng_chance(r, 4, 5)) {
        /* A kind the table allows for the position. */
        unsigned c = spec->classes;
        for (int tries = 0; tries < 16; tries++) {
            switch (tc_rng_below(r, 9)) {
            case 0: if (c & WA_OC_VGPR) return random_reg(r, WA_REG_VGPR, size); break;
            case 1: if (c & WA_OC_SGPR) return random_reg(r, WA_REG_SGPR, size); break;
            case 2: if (c & WA_OC_AGPR) return random_reg(r, WA_REG_AGPR, size); break;
            case 3:
                if (c & WA_OC_SPECIAL) {
                    static const wa_special s1[] = { WA_SPECIAL_M0, WA_SPECIAL_VCC_LO,
                                                     WA_SPECIAL_VCC_HI, WA_SPECIAL_EXEC_LO,
                                                     WA_SPECIAL_EXEC_HI };
                    static const wa_special s2[] = { WA_SPECIAL_VCC, WA_SPECIAL_EXEC };
                    return wa_opnd_special(size == 2 ? POOL_PICK(r, s2) : POOL_PICK(r, s1));
                }
                break;
            case 4:
                if ((c & WA_OC_HWREG) && tc_rng_chance(r, 2, 3)) {
                    /* a structured field: named ids, offsets and sizes at their edges */
                    static const unsigned ids[] = { 1, 2, 3, 4, 5, 6, 7, 15, 16, 19, 20, 24, 0, 8, 63 };
                    unsigned id = POOL_PICK(r, ids), off = tc_rng_below(r, 32), width;
                    width = tc_rng_chance(r, 1, 3) ? 32 : 1 + tc_rng_below(r, 32);
                    return wa_opnd_imm((int64_t)WA_HWREG(id, off, width));
                }
                if (c & WA_OC_IMM) {
                    int64_t lo = spec->imm_min, hi = spec->imm_max;
                    switch (tc_rng_below(r, 5)) {
                    case 0: return wa_opnd_imm(lo);
                    case 1: return wa_opnd_imm(hi);
                    case 2: return wa_opnd_imm(hi + 1);
                    case 3: return wa_opnd_imm(lo - 1);
                    default: return wa_opnd_imm(lo + (int64_t)(tc_rng_u32(r) % (uint64_t)(hi - lo + 1)));
                    }
                }
                break;
            case 5:
                if (c & WA_OC_INLINE)
                    return tc_rng_chance(r, 1, 2) ? wa_opnd_imm((int64_t)tc_rng_below(r, 81) - 16)
                                                  : wa_opnd_fimm(POOL_PICK(r, float_pool));
                break;
            case 6: if (c & WA_OC_LITERAL) return random_imm(r); break;
            case 7: if (c & WA_OC_LABEL) return wa_opnd_label(TC_LABEL_ID); break;
            default: if (c & WA_OC_OFF) return wa_opnd_off(); break;
            }
        }
    }
    /* Anything at all. */
    switch (tc_rng_below(r, 8)) {
    case 0:
    case 1:
    case 2: {
        static const unsigned sizes[] = { 1, 1, 2, 2, 3, 4, 4, 6, 8, 16 };
        unsigned sz = tc_rng_chance(r, 1, 2) ? size : POOL_PICK(r, sizes);
        return random_reg(r, reg_classes[tc_rng_below(r, 3)], sz ? sz : 1);
    }
    case 3: return wa_opnd_special((wa_special)tc_rng_below(r, WA_SPECIAL_COUNT_));
    case 4:
    case 5: return random_imm(r);
    case 6: return wa_opnd_off();
    default: return wa_opnd_label(TC_LABEL_ID);
    }
}

static void random_mods(tc_rng *r, const wa_isa_info *info, wa_mods *m)
{
    wa_mods init = WA_MODS_INIT;
    *m = init;
    static const int offsets[] = { 1, 4, 16, 255, 256, 4095, 4096, -1, -8, -4096, -4097, 65535, 65536 };
    int mem = info->format == WA_FMT_MUBUF || info->format == WA_FMT_GLOBAL ||
              info->format == WA_FMT_DS || info->format == WA_FMT_SMEM;
    if (info->format == WA_FMT_MUBUF) {
        unsigned a = tc_rng_below(r, 4);
        m->flags |= a == 1 ? WA_MOD_OFFEN : a == 2 ? WA_MOD_IDXEN
                  : a == 3 ? WA_MOD_OFFEN | WA_MOD_IDXEN : 0;
    }
    if (mem || tc_rng_chance(r, 1, 20)) {
        static const unsigned bits[] = { WA_MOD_GLC, WA_MOD_SLC, WA_MOD_SCC, WA_MOD_LDS,
                                         WA_MOD_OFFEN, WA_MOD_IDXEN };
        for (unsigned i = 0; i < 6; i++)
            if (tc_rng_chance(r, 1, i < 3 ? 4 : 32))
                m->flags |= bits[i];
    }
    if ((mem && tc_rng_chance(r, 1, 2)) || tc_rng_chance(r, 1, 30))
        m->offset = POOL_PICK(r, offsets);
    if (((info->flags & WA_IF_DS_2ADDR) && tc_rng_chance(r, 1, 2)) || tc_rng_chance(r, 1, 40))
        m->offset1 = POOL_PICK(r, offsets);
    if (info->format == WA_FMT_MAI || tc_rng_chance(r, 1, 40)) {
        if (tc_rng_chance(r, 1, 2)) {
            /* F8F6F4 formats are 0..4; other MFMAs take 3-bit cbsz/blgp. */
            unsigned span = (info->flags & WA_IF_F8F6F4) ? 6 : 9;
            m->cbsz = (uint8_t)tc_rng_below(r, span);
            m->abid = (uint8_t)tc_rng_below(r, 17);
            m->blgp = (uint8_t)tc_rng_below(r, span);
            if (tc_rng_chance(r, 1, 2))
                m->abid = 0;
        }
        if (tc_rng_chance(r, 1, (info->flags & WA_IF_F8F6F4) ? 3 : 8)) {
            m->op_sel = (uint8_t)tc_rng_below(r, 8);
            m->op_sel_hi = (uint8_t)tc_rng_below(r, 8);
        }
    }
    if ((info->flags & WA_IF_WAITCNT) || tc_rng_chance(r, 1, 40)) {
        m->vmcnt = (int8_t)((int)tc_rng_below(r, 70) - 1);
        m->lgkmcnt = (int8_t)((int)tc_rng_below(r, 20) - 1);
        m->expcnt = (int8_t)((int)tc_rng_below(r, 10) - 1);
        if (tc_rng_chance(r, 1, 3))
            m->vmcnt = -1;
        if (tc_rng_chance(r, 1, 3))
            m->expcnt = -1;
    }
    /* DPP: mostly on VOP1/VOP2, now and then anywhere; controls valid and not. */
    if (((info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2) && tc_rng_chance(r, 1, 3)) ||
        tc_rng_chance(r, 1, 60)) {
        static const unsigned short ctrls[] = { 0x00, 0xE4, 0xB1, 0x1B, 0x101, 0x10F, 0x111, 0x11F,
                                                0x121, 0x12F, 0x130, 0x134, 0x138, 0x13C, 0x140,
                                                0x141, 0x142, 0x143, 0x100, 0x110, 0x131, 0x150,
                                                0x151, 0x1FF };
        m->flags |= WA_MOD_DPP;
        m->dpp_ctrl = POOL_PICK(r, ctrls);
        m->row_mask = (uint8_t)tc_rng_below(r, tc_rng_chance(r, 1, 8) ? 17 : 16);
        m->bank_mask = (uint8_t)tc_rng_below(r, 16);
        if (tc_rng_chance(r, 1, 2))
            m->flags |= WA_MOD_BOUND_CTRL;
    }
}

int main(int argc, char **argv)
{
    const char *out_dir = NULL;
    unsigned count = 8000;
    unsigned long long seed = 0x77a5e3d1ull;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out-dir") == 0 && i + 1 < argc)
            out_dir = argv[++i];
        else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc)
            count = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: wa_validator_fuzz --out-dir DIR [--count N] [--seed S]\n");
            return 2;
        }
    }
    if (!out_dir) {
        fprintf(stderr, "usage: wa_validator_fuzz --out-dir DIR [--count N] [--seed S]\n");
        return 2;
    }
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK)
        return 1;
    FILE *files[WA_TARGET_COUNT] = { NULL };
    int io_error = 0;
    for (unsigned ti = 0; ti < TC_NUM_TARGETS; ti++) {
        char name[64];
        snprintf(name, sizeof(name), "fuzz-%s.tsv", wa_target_name(tc_targets[ti]));
        files[tc_targets[ti]] = tc_open_out(out_dir, name);
        if (!files[tc_targets[ti]])
            io_error = 1;
    }
    unsigned built = 0, skipped = 0, accepted = 0, rejected = 0, failures = 0;
    tc_rng rng;
    tc_rng_seed(&rng, seed);
    /* Opcodes without pseudo items, for uniform picks. */
    unsigned ops_list[1024], nops_list = 0;
    for (unsigned op = 0; op < wa_isa_count() && nops_list < 1024; op++)
        if (!(wa_isa_get(op)->flags & WA_IF_PSEUDO))
            ops_list[nops_list++] = op;
    for (unsigned n = 0; n < count && !io_error; n++) {
        wa_target t = tc_targets[tc_rng_below(&rng, TC_NUM_TARGETS)];
        unsigned op = ops_list[tc_rng_below(&rng, nops_list)];
        if (!wa_isa_available(op, t) && tc_rng_chance(&rng, 4, 5))
            op = ops_list[tc_rng_below(&rng, nops_list)]; /* mostly available opcodes */
        const wa_isa_info *info = wa_isa_get(op);
        wa_mods m;
        random_mods(&rng, info, &m);
        wa_operand ops[WA_ISA_MAX_OPERANDS + 1];
        for (unsigned k = 0; k <= WA_ISA_MAX_OPERANDS; k++)
            ops[k] = wa_opnd_none();
        unsigned nops = info->num_operands;
        if (tc_rng_chance(&rng, 1, 50))
            nops = tc_rng_below(&rng, WA_ISA_MAX_OPERANDS + 1);
        for (unsigned k = 0; k < nops; k++)
            ops[k] = k < info->num_operands ? random_operand(&rng, info, k, &m, ops)
                                            : random_imm(&rng);
        /* Operands decided before the address size (global saddr) pass again. */
        for (unsigned k = 0; k < nops && k < info->num_operands; k++)
            if (info->operands[k].size == 0 && (ops[k].kind == WA_OPND_PHYS) &&
                tc_rng_chance(&rng, 3, 4))
                ops[k].count = (uint16_t)guess_size(info, k, &m, ops);
        /* Correlated operands: the same or overlapping registers in two positions
           (constant bus duplicates, MFMA srcC/vdst overlap, aliasing). */
        if (nops >= 2 && tc_rng_chance(&rng, 1, 4)) {
            unsigned i = tc_rng_below(&rng, nops), j = tc_rng_below(&rng, nops);
            if (i != j && ops[i].kind == WA_OPND_PHYS && ops[j].kind == WA_OPND_PHYS) {
                if (tc_rng_chance(&rng, 1, 2))
                    ops[j].reg_class = ops[i].reg_class;
                ops[j].id = ops[i].id + tc_rng_below(&rng, 3);
            } else if (i != j && ops[i].kind == WA_OPND_SPECIAL && tc_rng_chance(&rng, 1, 2)) {
                ops[j] = ops[i];
            }
        }
        wa_program *prog = tc_single_program(ctx, t, (wa_opcode)op, ops, nops, &m, NULL);
        if (!prog) {
            skipped++;
            continue;
        }
        built++;
        FILE *f = files[t];
        char err[4096];
        if (wa_program_validate(NULL, prog, NULL) == WA_OK) {
            char *line = tc_emit_first_instr(prog, err, sizeof(err));
            if (!line) {
                failures++;
                fprintf(stderr, "FAIL: accepted instance does not emit: %s\n", err);
            } else {
                fprintf(f, "A\t%u\t%s\t%s\t0x%x\t-\t", op, info->id, wa_format_name(info->format),
                        t == WA_TARGET_GFX90A ? info->encoding_gfx90a : info->encoding);
                tc_put_field(f, line);
                fputc('\n', f);
                accepted++;
                if (!tc_roundtrip(prog, err, sizeof(err))) {
                    failures++;
                    fprintf(stderr, "FAIL: %s: round trip: %s\n", line, err);
                }
            }
            free(line);
        } else {
            char diag[512];
            const wa_diag *d = wa_context_diag(ctx, 0);
            snprintf(diag, sizeof(diag), "%s", d ? d->message : "?");
            char *text = tc_print_item(prog, 1);
            /* 'N': the text form drops part of the instance (a modifier the
               format does not print), so the assembler would judge another
               instruction. */
            char kind = tc_roundtrip(prog, err, sizeof(err)) ? 'R' : 'N';
            if (text) {
                fprintf(f, "%c\t%u\t%s\t%s\t0x%x\t", kind, op, info->id, wa_format_name(info->format),
                        t == WA_TARGET_GFX90A ? info->encoding_gfx90a : info->encoding);
                tc_put_field(f, diag);
                fputc('\t', f);
                tc_put_field(f, text);
                fputc('\n', f);
                rejected++;
            } else {
                failures++;
                fprintf(stderr, "FAIL: %s: the instance does not print\n", info->id);
            }
            free(text);
        }
        wa_program_destroy(prog);
    }
    for (unsigned ti = 0; ti < TC_NUM_TARGETS; ti++)
        if (files[tc_targets[ti]] && fclose(files[tc_targets[ti]]) != 0)
            io_error = 1;
    wa_context_destroy(ctx);
    if (io_error) {
        fprintf(stderr, "error: could not write the fuzz files\n");
        return 1;
    }
    printf("validator fuzz: seed 0x%llx, %u attempts: %u built (%u rejected by the builder), "
           "validator accepts %u, rejects %u; %u failures\n",
           seed, count, built, skipped, accepted, rejected, failures);
    return failures ? 1 : 0;
}
