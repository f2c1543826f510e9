/* include/waveasm/object.h — code objects in process: a kernel (or several)
   compiled to the shared object (HSACO, code object v5) that a runtime loads with
   hipModuleLoadData, with no assembler or linker run. The bytes are what
   llvm-mc + ld.lld -shared make from the emitted assembly (docs/code-object.md). */
#ifndef WAVEASM_OBJECT_H
#define WAVEASM_OBJECT_H

#include <waveasm/program.h>

WA_BEGIN_DECLS

typedef struct wa_object_options {
    unsigned version;   /* WA_OBJECT_OPTIONS_VERSION */
    unsigned flags;     /* none yet: 0 */
    /* new fields only ever appended */
} wa_object_options;
#define WA_OBJECT_OPTIONS_VERSION 1
#define WA_OBJECT_OPTIONS_INIT { WA_OBJECT_OPTIONS_VERSION, 0 }

/* Encodes every program of `progs` (physical registers, after the pipeline;
   each is validated) and writes one code object holding all of them, in order:
   the code in .text, each kernel descriptor in .rodata with its `<name>.kd`
   symbol, the NT_AMDGPU_METADATA note, the dynamic symbol table, and the ELF
   flags of the target id (with the XNACK and SRAMECC settings of the programs'
   context). The programs must share a target and those settings and have
   distinct names. `*out` is released with wa_free(). Errors are recorded on the
   programs' context with the instruction's location: WA_E_VALIDATE (a virtual
   register, an opcode the target lacks, mismatched kernels), WA_E_RANGE (an
   offset or a branch beyond its field), WA_E_INVALID (no programs, options).
   `opts` may be NULL. */
WA_API wa_status wa_emit_object(unsigned char **out, size_t *out_len,
                                const wa_program *const *progs, unsigned n,
                                const wa_object_options *opts);

WA_END_DECLS

#endif
