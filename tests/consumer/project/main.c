/* A program that uses libwaveasm only through its installed public headers:
   builds a tiny kernel with the builder API, validates it, emits assembly and
   prints it. Exits non-zero if any step fails or the output lacks a kernel
   descriptor. Built both with pkg-config and with find_package(waveasm). */
#include <waveasm/waveasm.h>

#include <stdio.h>
#include <string.h>

/* The installed table: <waveasm/isa.def> and the per-family row files it
   includes (the row files under <waveasm/isa/>) expand to one entry per opcode. */
static const char *const table_ids[] = {
#define WA_INSN(ID, ...) #ID,
#include <waveasm/isa.def>
#undef WA_INSN
};

static int fail(wa_context *ctx, const char *what, wa_status st)
{
    fprintf(stderr, "consumer: %s failed: %s (%s)\n", what, wa_status_string(st),
            ctx ? wa_context_last_error(ctx) : "");
    return 1;
}

int main(void)
{
    if (wa_version_number() != WA_VERSION_NUMBER) {
        fprintf(stderr, "consumer: header version %s, library version %s\n",
                WA_VERSION_STRING, wa_version_string());
        return 1;
    }

    if (sizeof(table_ids) / sizeof(table_ids[0]) != wa_isa_count() ||
        strcmp(table_ids[WA_OP_S_ENDPGM], "S_ENDPGM") != 0) {
        fprintf(stderr, "consumer: <waveasm/isa.def> has %u rows, the library %u\n",
                (unsigned)(sizeof(table_ids) / sizeof(table_ids[0])), wa_isa_count());
        return 1;
    }

    wa_context *ctx = NULL;
    wa_context_options copts = WA_CONTEXT_OPTIONS_INIT;
    wa_status st = wa_context_create(&ctx, &copts);
    if (st != WA_OK)
        return fail(NULL, "wa_context_create", st);

    int rc = 1;
    wa_program *prog = NULL;
    char *text = NULL;
    size_t len = 0;

    st = wa_program_create(&prog, ctx, "consumer_kernel");
    if (st != WA_OK) {
        rc = fail(ctx, "wa_program_create", st);
        goto done;
    }
    /* v_mov_b32 v1, 0 ; s_endpgm */
    st = wa_build_valu(NULL, prog, WA_OP_V_MOV_B32, wa_opnd_phys(WA_REG_VGPR, 1, 1),
                       wa_opnd_imm(0), wa_opnd_none(), wa_opnd_none());
    if (st != WA_OK) {
        rc = fail(ctx, "wa_build_valu", st);
        goto done;
    }
    st = wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0);
    if (st != WA_OK) {
        rc = fail(ctx, "wa_build_sopp", st);
        goto done;
    }
    st = wa_program_validate(NULL, prog, NULL);
    if (st != WA_OK) {
        rc = fail(ctx, "wa_program_validate", st);
        goto done;
    }
    st = wa_emit_asm(&text, &len, prog, NULL);
    if (st != WA_OK) {
        rc = fail(ctx, "wa_emit_asm", st);
        goto done;
    }
    fwrite(text, 1, len, stdout);
    if (strstr(text, ".amdhsa_kernel consumer_kernel") == NULL ||
        strstr(text, "v_mov_b32") == NULL) {
        fprintf(stderr, "consumer: emitted assembly lacks the kernel or its code\n");
        goto done;
    }
    printf("consumer: ok (libwaveasm %s)\n", wa_version_string());
    rc = 0;

done:
    wa_free(text);
    wa_program_destroy(prog);
    wa_context_destroy(ctx);
    return rc;
}
