/* include/waveasm/mlir.h — the MLIR front end: upstream MLIR (gpu, arith, math,
   affine, vector, memref, scf, cf, amdgpu, rocdl; IREE stream bindings in
   generic form) to kernel IR, one wa_program per kernel.

   It lives in its own shared library, libwaveasm_mlir.so (CMake target
   waveasm::waveasm_mlir, pkg-config waveasm-mlir), built when LLVM 22's MLIR
   is available. The core libwaveasm.so never loads LLVM. This header does not
   need the MLIR headers; a host that holds MLIR objects of its own includes
   <mlir-c/IR.h> first and gets typed wrappers (wa_mlir_translate_op,
   wa_mlir_translate_module) at the end of this file.

   The programs use virtual registers and are ready for the default pipeline
   (wa_compile) and the emitter. docs/mlir.md lists the operations, the kernel
   ABI (arguments, buffer descriptors, LDS layout) and what is not supported.
   Errors are diagnostics on the wa_context with the MLIR location
   (file:line:col); MLIR's own diagnostics (parse and verifier errors) are
   captured the same way and never printed. */
#ifndef WAVEASM_MLIR_H
#define WAVEASM_MLIR_H

#include <waveasm/program.h>

#if defined(WAVEASM_MLIR_BUILDING) && (defined(__GNUC__) || defined(__clang__))
#define WA_MLIR_API __attribute__((visibility("default")))
#else
#define WA_MLIR_API
#endif

WA_BEGIN_DECLS

/* The workgroup size given in the options replaces the one the MLIR gives
   (translation_info, gpu.known_block_size), instead of being a fallback. */
#define WA_MLIR_FORCE_WORKGROUP_SIZE 0x1u

typedef struct wa_mlir_options {
    unsigned version;           /* WA_MLIR_OPTIONS_VERSION */
    wa_target target;           /* WA_TARGET_UNKNOWN: the context's target */
    const char *kernel_name;    /* NULL: every kernel; else only the kernel of this name
                                   (WA_E_NOT_FOUND when there is none) */
    unsigned workgroup_size[3]; /* used when the MLIR gives none (or always, with
                                   WA_MLIR_FORCE_WORKGROUP_SIZE); {0, 0, 0}: 64, 1, 1 */
    unsigned flags;             /* WA_MLIR_* */
    unsigned wave_size;         /* 64, the only wave size of the targets; 0 counts as 64 */
    /* new fields only ever appended */
} wa_mlir_options;
#define WA_MLIR_OPTIONS_VERSION 1
#define WA_MLIR_OPTIONS_INIT \
    { WA_MLIR_OPTIONS_VERSION, WA_TARGET_UNKNOWN, NULL, { 0, 0, 0 }, 0, 64 }

/* The kernels of one translation, in the order they appear in the input. */
typedef struct wa_mlir_result wa_mlir_result;

/* Parses `text` (`len` bytes, need not be NUL-terminated; MLIR's generic and
   custom forms, unregistered dialects allowed) and translates every kernel:
   each gpu.func marked `kernel`, and each func.func that carries a
   `translation_info` attribute or takes !stream.binding arguments; other
   functions are skipped. `buffer_name` names the text in locations ("-" when
   NULL). WA_E_PARSE for malformed MLIR, WA_E_UNSUPPORTED for an operation or
   form the front end does not lower, WA_E_NOT_FOUND when there is no kernel
   (or none of the requested name); the diagnostics say where. On failure *out
   is NULL. `opts` may be NULL. */
WA_MLIR_API wa_status wa_mlir_translate(wa_mlir_result **out, wa_context *ctx, const char *text,
                                        size_t len, const char *buffer_name,
                                        const wa_mlir_options *opts);

/* Reads `path` ("-" for standard input) and translates it; locations name the
   path. WA_E_IO if unreadable. */
WA_MLIR_API wa_status wa_mlir_translate_file(wa_mlir_result **out, wa_context *ctx,
                                             const char *path, const wa_mlir_options *opts);

/* Translates the kernels in an operation a host already holds (an MlirOperation's
   `ptr`: a builtin.module, gpu.module, gpu.func, func.func or any operation
   containing them), in the host's own MLIR context, which must come from the
   same libMLIR the front end is linked with. The operation is only read. While
   the call runs, diagnostics MLIR emits in that context are captured onto `ctx`. */
WA_MLIR_API wa_status wa_mlir_translate_operation(wa_mlir_result **out, wa_context *ctx,
                                                  void *mlir_operation,
                                                  const wa_mlir_options *opts);

/* Number of kernels. */
WA_MLIR_API unsigned wa_mlir_result_count(const wa_mlir_result *result);
/* Borrowed: kernel `index`, owned by the result (NULL if out of range or taken). */
WA_MLIR_API wa_program *wa_mlir_result_program(const wa_mlir_result *result, unsigned index);
/* Transfers kernel `index` to the caller, who destroys it with
   wa_program_destroy(); the result then holds NULL there. */
WA_MLIR_API wa_program *wa_mlir_result_take(wa_mlir_result *result, unsigned index);
/* NULL-safe. Destroys the kernels that were not taken. */
WA_MLIR_API void wa_mlir_result_destroy(wa_mlir_result *result);

/* "0.1.0 (MLIR 22)": the front end's version and the MLIR it was built with. */
WA_MLIR_API const char *wa_mlir_version_string(void);

WA_END_DECLS

#ifdef MLIR_C_IR_H
/* Typed wrappers for hosts that include <mlir-c/IR.h> before this header. */
static inline wa_status wa_mlir_translate_op(wa_mlir_result **out, wa_context *ctx,
                                             MlirOperation op, const wa_mlir_options *opts)
{
    return wa_mlir_translate_operation(out, ctx, (void *)op.ptr, opts);
}
static inline wa_status wa_mlir_translate_module(wa_mlir_result **out, wa_context *ctx,
                                                 MlirModule module, const wa_mlir_options *opts)
{
    return wa_mlir_translate_operation(out, ctx, (void *)mlirModuleGetOperation(module).ptr,
                                       opts);
}
#endif

#endif
