/* include/waveasm/text.h — the textual form of the kernel IR: parse and print.

   The format is specified in docs/text-format.md. In short:

       .kernel copy
         .target gfx942
         .workgroup_size 64, 1, 1
         .abi kernarg_ptr, workgroup_id_x, workitem_id_x
         .arg src, global_buffer, offset:0, size:8, align:8
         s_load_dwordx2 %s0<2,align=2>, s[0:1], 0        ; @I0
       loop:
         ...
         s_endpgm                                          ; @I9
       .end_kernel

   print(parse(text)) is a fixed point and parse(print(p)) equals p. */
#ifndef WAVEASM_TEXT_H
#define WAVEASM_TEXT_H

#include <waveasm/program.h>

WA_BEGIN_DECLS

/* Parses one kernel. `file_name` (may be NULL) appears in diagnostics, which
   carry line:col. Syntax is checked here (mnemonics, operand syntax and count,
   numbers, header directives, structure); target rules are checked by
   wa_program_validate(). The program's target comes from `.target`, else the
   context's. `text` need not be NUL-terminated. */
WA_API wa_status wa_program_parse(wa_program **out, wa_context *ctx, const char *text,
                                  size_t len, const char *file_name);
/* Reads `path` ("-" for standard input) and parses it. WA_E_IO if unreadable. */
WA_API wa_status wa_program_parse_file(wa_program **out, wa_context *ctx, const char *path);

/* Imports kernel number `index` (0-based, in the order of the file's
   `.amdhsa_kernel` blocks) from AMDGPU assembly as LLVM writes it (llc output,
   llvm-mc input) for gfx90a, gfx942 or gfx950: the code from the kernel's label
   to the end of its function (directives dropped, labels, comments and every
   instruction kept, s_waitcnt and s_nop included), the ABI inputs and LDS size
   of its `.amdhsa_kernel` block, its arguments and workgroup size from the code
   object metadata (`.reqd_workgroup_size`, else `.max_flat_workgroup_size` as
   x), the target from `.amdgcn_target` (else the context's). Diagnostics point
   at the assembly file's lines. A kernel that needs what the IR does not model
   (scratch, a dynamic stack, preloaded arguments) is WA_E_UNSUPPORTED;
   WA_E_NOT_FOUND when the file has no kernel `index`. */
WA_API wa_status wa_program_parse_asm(wa_program **out, wa_context *ctx, const char *text,
                                      size_t len, const char *file_name, unsigned index);

#define WA_PRINT_TAGS 0x1u      /* "; @I<n>" after each instruction */
#define WA_PRINT_COMMENTS 0x2u  /* comment lines and trailing comments */

typedef struct wa_print_options {
    unsigned version;   /* WA_PRINT_OPTIONS_VERSION */
    unsigned flags;     /* WA_PRINT_* */
    /* new fields only ever appended */
} wa_print_options;
#define WA_PRINT_OPTIONS_VERSION 1
#define WA_PRINT_OPTIONS_INIT { WA_PRINT_OPTIONS_VERSION, WA_PRINT_TAGS | WA_PRINT_COMMENTS }

/* Prints the program. `*out` is NUL-terminated and released with wa_free();
   `out_len` (may be NULL) receives its length. `opts` may be NULL. */
WA_API wa_status wa_program_print(char **out, size_t *out_len, const wa_program *prog,
                                  const wa_print_options *opts);

/* Prints one item as it appears in the text form, without indentation, newline
   or register shape annotations: "v_add_u32 %v3, %v1, %v2 ; @I5 comment", "loop:",
   "; text". */
WA_API wa_status wa_program_print_item(char **out, const wa_program *prog, unsigned index,
                                       const wa_print_options *opts);

WA_END_DECLS
#endif
