/* tests/toolchain/kd_info.c — prints what wa_kernel_resources_compute says about a
   kernel in text form, one "key value" pair per line, for comparison with the
   kernel descriptor llvm-mc assembles from the emitted file.

   usage: wa_kd_info FILE.wa [--target gfx90a|gfx942|gfx950]
   Exit status: 0, or 1 when the file does not parse/validate on the target. */
#include <waveasm/waveasm.h>

#include <stdio.h>
#include <string.h>

static void report(wa_context *ctx)
{
    unsigned n = wa_context_diag_count(ctx);
    for (unsigned i = 0; i < n; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        fprintf(stderr, "%s:%u:%u: %s\n", d->file ? d->file : "", d->line, d->col, d->message);
    }
}

int main(int argc, char **argv)
{
    const char *path = NULL, *target_name = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--target") == 0 && i + 1 < argc)
            target_name = argv[++i];
        else if (strncmp(argv[i], "--target=", 9) == 0)
            target_name = argv[i] + 9;
        else if (!path && argv[i][0] != '-')
            path = argv[i];
        else {
            fprintf(stderr, "usage: wa_kd_info FILE.wa [--target gfx90a|gfx942|gfx950]\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: wa_kd_info FILE.wa [--target gfx90a|gfx942|gfx950]\n");
        return 2;
    }
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK)
        return 1;
    int rc = 1;
    wa_program *prog = NULL;
    wa_kernel_resources r;
    if (wa_program_parse_file(&prog, ctx, path) != WA_OK) {
        report(ctx);
        goto done;
    }
    if (target_name) {
        wa_target t;
        if (wa_target_from_name(&t, target_name) != WA_OK ||
            wa_program_set_target(prog, t) != WA_OK) {
            fprintf(stderr, "unknown target %s\n", target_name);
            goto done;
        }
    }
    if (wa_program_validate(NULL, prog, NULL) != WA_OK) {
        report(ctx);
        goto done;
    }
    if (wa_kernel_resources_compute(&r, prog) != WA_OK) {
        report(ctx);
        goto done;
    }
    printf("name %s\n", wa_program_name(prog));
    printf("target %s\n", wa_target_name(wa_program_target(prog)));
    printf("group_segment_size %u\n", r.group_segment_size);
    printf("private_segment_size 0\n");
    printf("kernarg_size %u\n", r.kernarg_size);
    printf("rsrc3 0x%08x\n", (unsigned)r.rsrc3);
    printf("rsrc1 0x%08x\n", (unsigned)r.rsrc1);
    printf("rsrc2 0x%08x\n", (unsigned)r.rsrc2);
    printf("kernel_code_properties 0x%04x\n", (unsigned)r.kernel_code_properties);
    printf("arch_vgprs %u\n", r.arch_vgprs);
    printf("agprs %u\n", r.agprs);
    printf("accum_offset %u\n", r.accum_offset);
    printf("total_vgprs %u\n", r.total_vgprs);
    printf("next_free_sgpr %u\n", r.next_free_sgpr);
    printf("sgpr_count %u\n", r.sgpr_count);
    printf("user_sgprs %u\n", r.user_sgprs);
    rc = 0;
done:
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return rc;
}
