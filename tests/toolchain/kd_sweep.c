/* tests/toolchain/kd_sweep.c — kernel descriptor sweep.

   Builds many small kernels through the API, varying the highest VGPR (1..256),
   the AGPR count, the highest SGPR (0..101), the ABI inputs, the LDS size and
   the kernel arguments, plus seeded random combinations. For each kernel it
   checks wa_kernel_resources_compute against what the sweep itself knows
   (registers used, ABI SGPRs, LDS bytes, kernarg size), then writes the emitted
   assembly of all kernels of a target into one file together with the
   descriptor fields the library computed, for the driver to compare with the
   bytes llvm-mc assembles.

   usage: wa_kd_sweep --out-dir DIR
   Writes DIR/sweep-<target>.s and DIR/sweep-<target>.tsv with the columns
     name  group_segment_size  kernarg_size  rsrc3  rsrc1  rsrc2  kernel_code_properties  case
   Exit status: 0, or 1 when a check failed or a file could not be written. */
#include "tc_common.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 12

typedef struct karg {
    wa_arg_kind kind;
    unsigned size, align;
} karg;

typedef struct kcase {
    char desc[128];
    int vgpr_hi, agpr_hi, sgpr_hi; /* highest register written, -1 for none */
    unsigned abi;
    unsigned lds;
    unsigned nargs;
    karg args[MAX_ARGS];
    int use_vcc;
    int expect_invalid; /* the validator must reject the kernel */
} kcase;

static unsigned failures;

static void fail(const char *fmt, ...) TC_PRINTF(1, 2);
static void fail(const char *fmt, ...)
{
    va_list ap;
    failures++;
    fprintf(stderr, "FAIL: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static unsigned align_up(unsigned v, unsigned a)
{
    return (v + a - 1) / a * a;
}

#define WORKITEM_BITS \
    (WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y) | \
     WA_ABI_BIT(WA_ABI_WORKITEM_ID_Z))
#define DEFAULT_ABI (WA_ABI_BIT(WA_ABI_KERNARG_PTR) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_X))

/* SGPRs the ABI preloads, counted from the hardware's initial state table. */
static unsigned abi_user_sgprs(unsigned abi)
{
    unsigned n = 0;
    static const wa_abi_input pairs[] = { WA_ABI_DISPATCH_PTR, WA_ABI_QUEUE_PTR,
                                          WA_ABI_KERNARG_PTR, WA_ABI_DISPATCH_ID };
    for (unsigned i = 0; i < 4; i++)
        if (abi & WA_ABI_BIT(pairs[i]))
            n += 2;
    return n;
}

static unsigned abi_all_sgprs(unsigned abi)
{
    unsigned n = abi_user_sgprs(abi);
    static const wa_abi_input singles[] = { WA_ABI_WORKGROUP_ID_X, WA_ABI_WORKGROUP_ID_Y,
                                            WA_ABI_WORKGROUP_ID_Z, WA_ABI_WORKGROUP_INFO };
    for (unsigned i = 0; i < 4; i++)
        if (abi & WA_ABI_BIT(singles[i]))
            n += 1;
    return n;
}

static wa_program *build_case(wa_context *ctx, wa_target t, const char *name, const kcase *c)
{
    wa_program *p = NULL;
    wa_status st = wa_program_create(&p, ctx, name);
    if (st == WA_OK)
        st = wa_program_set_target(p, t);
    if (st == WA_OK)
        st = wa_program_set_abi_inputs(p, c->abi);
    if (st == WA_OK)
        st = wa_program_set_lds_bytes(p, c->lds);
    for (unsigned i = 0; st == WA_OK && i < c->nargs; i++) {
        wa_kernel_arg a = WA_KERNEL_ARG_INIT;
        char an[16];
        snprintf(an, sizeof(an), "a%u", i);
        a.name = an;
        a.kind = c->args[i].kind;
        a.size = c->args[i].size;
        a.align = c->args[i].align;
        st = wa_program_add_arg(NULL, p, &a);
    }
    if (st == WA_OK && c->vgpr_hi >= 0)
        st = wa_build_valu(NULL, p, WA_OP_V_MOV_B32, wa_opnd_phys(WA_REG_VGPR, (unsigned)c->vgpr_hi, 1),
                           wa_opnd_imm(0), wa_opnd_none(), wa_opnd_none());
    if (st == WA_OK && c->agpr_hi >= 0)
        st = wa_build_valu(NULL, p, WA_OP_V_ACCVGPR_WRITE_B32,
                           wa_opnd_phys(WA_REG_AGPR, (unsigned)c->agpr_hi, 1), wa_opnd_imm(0),
                           wa_opnd_none(), wa_opnd_none());
    if (st == WA_OK && c->sgpr_hi >= 0)
        st = wa_build_salu(NULL, p, WA_OP_S_MOV_B32, wa_opnd_phys(WA_REG_SGPR, (unsigned)c->sgpr_hi, 1),
                           wa_opnd_imm(0), wa_opnd_none());
    if (st == WA_OK && c->use_vcc)
        st = wa_build_salu(NULL, p, WA_OP_S_MOV_B32, wa_opnd_special(WA_SPECIAL_VCC_LO),
                           wa_opnd_imm(1), wa_opnd_none());
    if (st == WA_OK)
        st = wa_build_sopp(NULL, p, WA_OP_S_ENDPGM, 0);
    if (st != WA_OK) {
        fail("%s on %s (%s): building failed: %s", name, wa_target_name(t), c->desc,
             tc_diags(ctx));
        wa_program_destroy(p);
        return NULL;
    }
    return p;
}

/* Checks the library's numbers against the sweep's own knowledge. */
static void check_expectations(const wa_kernel_resources *r, const kcase *c, const char *name,
                               wa_target t)
{
    unsigned arch = c->vgpr_hi >= 0 ? (unsigned)c->vgpr_hi + 1 : 0;
    if ((c->abi & WORKITEM_BITS) && arch < 1)
        arch = 1;
    unsigned agprs = c->agpr_hi >= 0 ? (unsigned)c->agpr_hi + 1 : 0;
    unsigned sgprs = c->sgpr_hi >= 0 ? (unsigned)c->sgpr_hi + 1 : 0;
    if (sgprs < abi_all_sgprs(c->abi))
        sgprs = abi_all_sgprs(c->abi);
    unsigned end = 0, off = 0;
    for (unsigned i = 0; i < c->nargs; i++) {
        off = align_up(off, c->args[i].align);
        off += c->args[i].size;
        end = off;
    }
    unsigned kernarg = align_up(end, 8);
    const char *tn = wa_target_name(t);
    if (r->arch_vgprs != arch)
        fail("%s on %s (%s): arch_vgprs %u, expected %u", name, tn, c->desc, r->arch_vgprs, arch);
    if (r->agprs != agprs)
        fail("%s on %s (%s): agprs %u, expected %u", name, tn, c->desc, r->agprs, agprs);
    if (r->next_free_sgpr != sgprs)
        fail("%s on %s (%s): next_free_sgpr %u, expected %u", name, tn, c->desc,
             r->next_free_sgpr, sgprs);
    if (r->user_sgprs != abi_user_sgprs(c->abi))
        fail("%s on %s (%s): user_sgprs %u, expected %u", name, tn, c->desc, r->user_sgprs,
             abi_user_sgprs(c->abi));
    if (r->group_segment_size != c->lds)
        fail("%s on %s (%s): group_segment_size %u, expected %u", name, tn, c->desc,
             r->group_segment_size, c->lds);
    if (r->kernarg_size != kernarg)
        fail("%s on %s (%s): kernarg_size %u, expected %u", name, tn, c->desc, r->kernarg_size,
             kernarg);
    unsigned accum = align_up(arch ? arch : 1, 4);
    unsigned total = agprs ? accum + agprs : arch;
    if (r->accum_offset != accum || r->total_vgprs != total)
        fail("%s on %s (%s): accum_offset %u / total %u, expected %u / %u", name, tn, c->desc,
             r->accum_offset, r->total_vgprs, accum, total);
}

/* ---- the cases ---------------------------------------------------------------------------- */

typedef struct case_list {
    kcase *v;
    unsigned n, cap;
} case_list;

static kcase *new_case(case_list *l)
{
    if (l->n == l->cap) {
        unsigned cap = l->cap ? l->cap * 2 : 256;
        kcase *v = realloc(l->v, cap * sizeof(kcase));
        if (!v) {
            fprintf(stderr, "error: out of memory\n");
            exit(1);
        }
        l->v = v;
        l->cap = cap;
    }
    kcase *c = &l->v[l->n++];
    memset(c, 0, sizeof(*c));
    c->vgpr_hi = c->agpr_hi = c->sgpr_hi = -1;
    c->abi = DEFAULT_ABI;
    return c;
}

static void add_arg(kcase *c, wa_arg_kind kind, unsigned size, unsigned align)
{
    if (c->nargs < MAX_ARGS) {
        c->args[c->nargs].kind = kind;
        c->args[c->nargs].size = size;
        c->args[c->nargs].align = align;
        c->nargs++;
    }
}

static void make_cases(case_list *l, wa_target t)
{
    kcase *c;
    /* Highest VGPR v0..v255 (arch VGPRs 1..256). */
    for (int h = 0; h < 256; h++) {
        c = new_case(l);
        c->vgpr_hi = h;
        snprintf(c->desc, sizeof(c->desc), "vgpr v%d", h);
    }
    /* No VGPR at all: no work-item id input, no VGPR written. */
    c = new_case(l);
    c->abi = WA_ABI_BIT(WA_ABI_KERNARG_PTR);
    snprintf(c->desc, sizeof(c->desc), "no vgprs");
    /* AGPRs behind arch VGPRs of various counts. */
    static const int arch[] = { 0, 1, 2, 3, 4, 5, 7, 8, 12, 13, 63, 64, 100, 127, 128, 200, 254, 255 };
    static const int acc[] = { 0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 31, 64, 100, 127, 128, 200, 254, 255 };
    for (unsigned i = 0; i < sizeof(arch) / sizeof(arch[0]); i++)
        for (unsigned j = 0; j < sizeof(acc) / sizeof(acc[0]); j++) {
            if ((i + j) % 2 && i != 0 && j != 0)
                continue; /* a checkerboard keeps the count down */
            c = new_case(l);
            c->vgpr_hi = arch[i];
            c->agpr_hi = acc[j];
            snprintf(c->desc, sizeof(c->desc), "v%d a%d", arch[i], acc[j]);
        }
    /* AGPRs only (v0 from the work-item id). */
    for (int a = 0; a < 256; a += 17) {
        c = new_case(l);
        c->agpr_hi = a;
        snprintf(c->desc, sizeof(c->desc), "agpr a%d only", a);
    }
    /* Highest SGPR s0..s101. */
    for (int s = 0; s <= 101; s++) {
        c = new_case(l);
        c->sgpr_hi = s;
        snprintf(c->desc, sizeof(c->desc), "sgpr s%d", s);
    }
    /* Every subset of the SGPR inputs, with each work-item id setting in turn. */
    static const unsigned wi[] = { 0, WA_ABI_BIT(WA_ABI_WORKITEM_ID_X),
                                   WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y),
                                   WORKITEM_BITS, WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y),
                                   WA_ABI_BIT(WA_ABI_WORKITEM_ID_Z) };
    for (unsigned m = 0; m < 256; m++) {
        c = new_case(l);
        c->abi = m | wi[m % (sizeof(wi) / sizeof(wi[0]))];
        c->vgpr_hi = (int)(m % 7) - 1;
        snprintf(c->desc, sizeof(c->desc), "abi 0x%03x", c->abi);
    }
    /* ABI inputs together with a high SGPR and vcc. */
    for (unsigned m = 0; m < 256; m += 37) {
        c = new_case(l);
        c->abi = m | WORKITEM_BITS;
        c->sgpr_hi = 20 + (int)(m % 80);
        c->use_vcc = 1;
        snprintf(c->desc, sizeof(c->desc), "abi 0x%03x s%d vcc", c->abi, c->sgpr_hi);
    }
    /* LDS sizes up to the target's limit. */
    static const unsigned lds[] = { 0, 1, 3, 4, 128, 512, 4096, 32768, 65535, 65536 };
    for (unsigned i = 0; i < sizeof(lds) / sizeof(lds[0]); i++) {
        c = new_case(l);
        c->lds = lds[i];
        snprintf(c->desc, sizeof(c->desc), "lds %u", lds[i]);
    }
    if (t == WA_TARGET_GFX950) {
        static const unsigned big[] = { 65537, 98304, 131072, 163839, 163840 };
        for (unsigned i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
            c = new_case(l);
            c->lds = big[i];
            snprintf(c->desc, sizeof(c->desc), "lds %u", big[i]);
        }
    }
    c = new_case(l);
    c->lds = t == WA_TARGET_GFX950 ? 163841 : 65537;
    c->expect_invalid = 1;
    snprintf(c->desc, sizeof(c->desc), "lds %u over the limit", c->lds);
    /* Kernel arguments. */
    c = new_case(l);
    add_arg(c, WA_ARG_BY_VALUE, 4, 4);
    snprintf(c->desc, sizeof(c->desc), "args i32");
    c = new_case(l);
    add_arg(c, WA_ARG_BY_VALUE, 1, 1);
    snprintf(c->desc, sizeof(c->desc), "args i8");
    c = new_case(l);
    add_arg(c, WA_ARG_BY_VALUE, 2, 2);
    add_arg(c, WA_ARG_BY_VALUE, 2, 2);
    add_arg(c, WA_ARG_BY_VALUE, 4, 4);
    snprintf(c->desc, sizeof(c->desc), "args i16 i16 i32");
    c = new_case(l);
    add_arg(c, WA_ARG_BY_VALUE, 4, 4);
    add_arg(c, WA_ARG_GLOBAL_BUFFER, 8, 8);
    snprintf(c->desc, sizeof(c->desc), "args i32 ptr (padding)");
    c = new_case(l);
    add_arg(c, WA_ARG_GLOBAL_BUFFER, 8, 8);
    add_arg(c, WA_ARG_GLOBAL_BUFFER, 8, 8);
    add_arg(c, WA_ARG_BY_VALUE, 4, 4);
    snprintf(c->desc, sizeof(c->desc), "args ptr ptr i32");
    c = new_case(l);
    add_arg(c, WA_ARG_BY_VALUE, 12, 4);
    add_arg(c, WA_ARG_BY_VALUE, 16, 16);
    snprintf(c->desc, sizeof(c->desc), "args 12-byte, 16-aligned 16-byte");
    c = new_case(l);
    add_arg(c, WA_ARG_DYNAMIC_SHARED_POINTER, 8, 8);
    add_arg(c, WA_ARG_BY_VALUE, 4, 4);
    snprintf(c->desc, sizeof(c->desc), "args dynamic lds ptr, i32");
    c = new_case(l);
    add_arg(c, WA_ARG_GLOBAL_BUFFER, 8, 8);
    add_arg(c, WA_ARG_BY_VALUE, 4, 4);
    add_arg(c, WA_ARG_HIDDEN_BLOCK_COUNT_X, 4, 4);
    add_arg(c, WA_ARG_HIDDEN_BLOCK_COUNT_Y, 4, 4);
    add_arg(c, WA_ARG_HIDDEN_BLOCK_COUNT_Z, 4, 4);
    add_arg(c, WA_ARG_HIDDEN_GROUP_SIZE_X, 2, 2);
    add_arg(c, WA_ARG_HIDDEN_GROUP_SIZE_Y, 2, 2);
    add_arg(c, WA_ARG_HIDDEN_GROUP_SIZE_Z, 2, 2);
    add_arg(c, WA_ARG_HIDDEN_REMAINDER_X, 2, 2);
    add_arg(c, WA_ARG_HIDDEN_GLOBAL_OFFSET_X, 8, 8);
    add_arg(c, WA_ARG_HIDDEN_GRID_DIMS, 2, 2);
    snprintf(c->desc, sizeof(c->desc), "args with hidden arguments");
    for (unsigned n = 1; n <= MAX_ARGS; n++) {
        c = new_case(l);
        for (unsigned i = 0; i < n; i++)
            add_arg(c, i % 3 == 0 ? WA_ARG_GLOBAL_BUFFER : WA_ARG_BY_VALUE,
                    i % 3 == 0 ? 8 : 4 * (1 + i % 2), i % 3 == 0 ? 8 : 4);
        snprintf(c->desc, sizeof(c->desc), "%u args", n);
    }
    /* Seeded random combinations of everything above. */
    tc_rng rng;
    tc_rng_seed(&rng, 0x5eed0000u + (unsigned)t);
    unsigned max_lds = t == WA_TARGET_GFX950 ? 163840u : 65536u;
    for (unsigned i = 0; i < 120; i++) {
        c = new_case(l);
        c->vgpr_hi = (int)tc_rng_below(&rng, 257) - 1;
        c->agpr_hi = tc_rng_chance(&rng, 1, 2) ? (int)tc_rng_below(&rng, 256) : -1;
        c->sgpr_hi = (int)tc_rng_below(&rng, 103) - 1;
        c->abi = tc_rng_below(&rng, 1u << WA_ABI_COUNT_);
        c->lds = tc_rng_chance(&rng, 1, 3) ? 0 : tc_rng_below(&rng, max_lds + 1);
        c->use_vcc = tc_rng_chance(&rng, 1, 2);
        unsigned na = tc_rng_below(&rng, 6);
        for (unsigned a = 0; a < na; a++) {
            unsigned sz = 1u << tc_rng_below(&rng, 4);
            add_arg(c, sz == 8 && tc_rng_chance(&rng, 1, 2) ? WA_ARG_GLOBAL_BUFFER : WA_ARG_BY_VALUE,
                    sz, sz);
        }
        snprintf(c->desc, sizeof(c->desc), "random #%u", i);
    }
}

int main(int argc, char **argv)
{
    const char *out_dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out-dir") == 0 && i + 1 < argc)
            out_dir = argv[++i];
        else {
            fprintf(stderr, "usage: wa_kd_sweep --out-dir DIR\n");
            return 2;
        }
    }
    if (!out_dir) {
        fprintf(stderr, "usage: wa_kd_sweep --out-dir DIR\n");
        return 2;
    }
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK)
        return 1;
    unsigned total = 0, io_error = 0;
    for (unsigned ti = 0; ti < TC_NUM_TARGETS && !io_error; ti++) {
        wa_target t = tc_targets[ti];
        case_list cases = { NULL, 0, 0 };
        make_cases(&cases, t);
        char fname[64];
        snprintf(fname, sizeof(fname), "sweep-%s.s", wa_target_name(t));
        FILE *fs = tc_open_out(out_dir, fname);
        snprintf(fname, sizeof(fname), "sweep-%s.tsv", wa_target_name(t));
        FILE *ft = tc_open_out(out_dir, fname);
        if (!fs || !ft) {
            io_error = 1;
            if (fs)
                fclose(fs);
            if (ft)
                fclose(ft);
            free(cases.v);
            break;
        }
        unsigned written = 0;
        for (unsigned i = 0; i < cases.n; i++) {
            const kcase *c = &cases.v[i];
            char name[32];
            snprintf(name, sizeof(name), "kd_%s_%u", wa_target_name(t), i);
            wa_program *p = build_case(ctx, t, name, c);
            if (!p)
                continue;
            wa_status vst = wa_program_validate(NULL, p, NULL);
            if (c->expect_invalid) {
                if (vst == WA_OK)
                    fail("%s on %s (%s): the validator accepts it", name, wa_target_name(t), c->desc);
                wa_program_destroy(p);
                continue;
            }
            if (vst != WA_OK) {
                fail("%s on %s (%s): the validator rejects it: %s", name, wa_target_name(t),
                     c->desc, tc_diags(ctx));
                wa_program_destroy(p);
                continue;
            }
            wa_kernel_resources r;
            char *text = NULL;
            size_t len = 0;
            wa_emit_options eo = WA_EMIT_OPTIONS_INIT;
            eo.flags = 0;
            if (wa_kernel_resources_compute(&r, p) != WA_OK ||
                wa_emit_asm(&text, &len, p, &eo) != WA_OK) {
                fail("%s on %s (%s): resources/emission failed: %s", name, wa_target_name(t),
                     c->desc, tc_diags(ctx));
                wa_program_destroy(p);
                continue;
            }
            check_expectations(&r, c, name, t);
            fwrite(text, 1, len, fs);
            fputc('\n', fs);
            fprintf(ft, "%s\t%u\t%u\t0x%08x\t0x%08x\t0x%08x\t0x%04x\t", name, r.group_segment_size,
                    r.kernarg_size, (unsigned)r.rsrc3, (unsigned)r.rsrc1, (unsigned)r.rsrc2,
                    (unsigned)r.kernel_code_properties);
            tc_put_field(ft, c->desc);
            fputc('\n', ft);
            wa_free(text);
            wa_program_destroy(p);
            written++;
        }
        if (fclose(fs) != 0 || fclose(ft) != 0)
            io_error = 1;
        printf("descriptor sweep: %s: %u kernels\n", wa_target_name(t), written);
        total += written;
        free(cases.v);
    }
    wa_context_destroy(ctx);
    if (io_error) {
        fprintf(stderr, "error: could not write the sweep files\n");
        return 1;
    }
    printf("descriptor sweep: %u kernels, %u failures\n", total, failures);
    return failures ? 1 : 0;
}
