/* tools/waveasm-opt.c — command-line driver: parse text IR, validate, print IR or
   emit assembly. Thin by design: everything is a library call. */
#include <waveasm/waveasm.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: waveasm-opt [options] [input.wa | -]\n"
            "  --target=<gfx90a|gfx942|gfx950>  retarget the kernel (default: its .target)\n"
            "  --emit=ir|asm                    output text IR (default) or assembly\n"
            "  --validate                       validate the IR (always done for --emit=asm)\n"
            "  --no-tags                        omit @I<n> instruction tags\n"
            "  -o <file>                        write output to <file> (default: stdout)\n"
            "  --version, --help\n");
}

static void report(wa_context *ctx)
{
    unsigned n = wa_context_diag_count(ctx);
    if (n == 0) {
        fprintf(stderr, "waveasm-opt: error: %s\n", wa_context_last_error(ctx));
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        const char *sev = d->severity == WA_SEVERITY_ERROR ? "error"
                        : d->severity == WA_SEVERITY_WARNING ? "warning" : "note";
        if (d->file && d->file[0])
            fprintf(stderr, "%s:", d->file);
        if (d->line)
            fprintf(stderr, "%u:%u:", d->line, d->col);
        fprintf(stderr, "%s%s: %s", (d->file && d->file[0]) || d->line ? " " : "", sev,
                d->message);
        if (d->tag != WA_NO_TAG)
            fprintf(stderr, " [I%u]", d->tag);
        fputc('\n', stderr);
    }
}

int main(int argc, char **argv)
{
    const char *input = "-", *output = NULL, *target_name = NULL;
    int emit_asm = 0, validate = 0, tags = 1, have_input = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--target=", 9) == 0) {
            target_name = a + 9;
        } else if (strcmp(a, "--target") == 0 && i + 1 < argc) {
            target_name = argv[++i];
        } else if (strcmp(a, "--emit=ir") == 0) {
            emit_asm = 0;
        } else if (strcmp(a, "--emit=asm") == 0) {
            emit_asm = 1;
        } else if (strncmp(a, "--emit=", 7) == 0) {
            fprintf(stderr, "waveasm-opt: error: unknown --emit kind '%s' (ir, asm)\n", a + 7);
            return 2;
        } else if (strcmp(a, "--validate") == 0) {
            validate = 1;
        } else if (strcmp(a, "--no-tags") == 0) {
            tags = 0;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            output = argv[++i];
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("waveasm-opt %s\n", wa_version_string());
            return 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "waveasm-opt: error: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            if (have_input) {
                fprintf(stderr, "waveasm-opt: error: more than one input file\n");
                return 2;
            }
            input = a;
            have_input = 1;
        }
    }

    wa_context *ctx;
    wa_context_options copts = WA_CONTEXT_OPTIONS_INIT;
    if (wa_context_create(&ctx, &copts) != WA_OK) {
        fprintf(stderr, "waveasm-opt: error: cannot create a context\n");
        return 1;
    }
    int rc = 1;
    wa_program *prog = NULL;
    char *text = NULL;
    size_t len = 0;
    if (wa_program_parse_file(&prog, ctx, input) != WA_OK) {
        report(ctx);
        goto done;
    }
    if (target_name) {
        wa_target t;
        if (wa_target_from_name(&t, target_name) != WA_OK) {
            fprintf(stderr, "waveasm-opt: error: unknown target '%s' (gfx90a, gfx942, gfx950)\n",
                    target_name);
            goto done;
        }
        wa_program_set_target(prog, t);
    }
    if (validate && wa_program_validate(NULL, prog, NULL) != WA_OK) {
        report(ctx);
        goto done;
    }
    if (emit_asm) {
        wa_emit_options eo = WA_EMIT_OPTIONS_INIT;
        if (tags)
            eo.flags |= WA_EMIT_TAGS;
        if (wa_emit_asm(&text, &len, prog, &eo) != WA_OK) {
            report(ctx);
            goto done;
        }
    } else {
        wa_print_options po = WA_PRINT_OPTIONS_INIT;
        if (!tags)
            po.flags &= ~WA_PRINT_TAGS;
        if (wa_program_print(&text, &len, prog, &po) != WA_OK) {
            report(ctx);
            goto done;
        }
    }
    FILE *f = output ? fopen(output, "wb") : stdout;
    if (!f) {
        fprintf(stderr, "waveasm-opt: error: cannot write '%s'\n", output);
        goto done;
    }
    int werr = fwrite(text, 1, len, f) != len;
    if (output)
        werr |= fclose(f) != 0;
    else
        werr |= fflush(f) != 0;
    if (werr) {
        fprintf(stderr, "waveasm-opt: error: write failed\n");
        goto done;
    }
    rc = 0;
done:
    wa_free(text);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return rc;
}
