/* A program built against an installed libwaveasm_mlir: translates a kernel,
   compiles it and prints the assembly's first line. */
#include <waveasm/mlir.h>
#include <waveasm/waveasm.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    static const char text[] = "gpu.module @m {\n"
                               "  gpu.func @k(%a: memref<64xf32>) kernel {\n"
                               "    %t = gpu.thread_id x\n"
                               "    %v = memref.load %a[%t] : memref<64xf32>\n"
                               "    memref.store %v, %a[%t] : memref<64xf32>\n"
                               "    gpu.return\n"
                               "  }\n"
                               "}\n";
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, NULL) != WA_OK)
        return 1;
    wa_mlir_result *res = NULL;
    wa_mlir_options o = WA_MLIR_OPTIONS_INIT;
    wa_status st = wa_mlir_translate(&res, ctx, text, strlen(text), "k.mlir", &o);
    if (st != WA_OK) {
        fprintf(stderr, "%s\n", wa_context_last_error(ctx));
        return 1;
    }
    wa_program *p = wa_mlir_result_program(res, 0);
    wa_pipeline *pl = NULL;
    st = wa_pipeline_create(&pl, ctx, NULL);
    if (st == WA_OK)
        st = wa_pipeline_run(pl, p);
    char *s = NULL;
    size_t n = 0;
    if (st == WA_OK)
        st = wa_emit_asm(&s, &n, p, NULL);
    if (st == WA_OK)
        printf("%u kernel: %s (%zu bytes of assembly)\n", wa_mlir_result_count(res),
               wa_program_name(p), n);
    wa_free(s);
    wa_pipeline_destroy(pl);
    wa_mlir_result_destroy(res);
    wa_context_destroy(ctx);
    return st == WA_OK ? 0 : 1;
}
