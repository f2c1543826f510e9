/* lib/object/object.h — the in-process code object (HSACO, code object v5)
   writer: from each kernel's program and machine code to the shared object
   ld.lld -shared makes from the emitted assembly after llvm-mc. Internal. */
#ifndef WAVEASM_OBJECT_INTERNAL_H
#define WAVEASM_OBJECT_INTERNAL_H

#include "../core/core.h"
#include "../emit/emit.h"

#include <stddef.h>
#include <stdint.h>

typedef struct wa_object_kernel {
    const wa_program *prog;     /* physical registers only */
    const unsigned char *code;  /* the kernel's instructions (its symbol's size); the
                                   writer adds the s_nop tail the emitter writes */
    size_t code_len;            /* bytes, a multiple of 4 */
    /* Optional: byte offset in `code` of every label of `prog`, indexed by label
       id; the assembler names them as local symbols. NULL: no label symbols. */
    const uint32_t *label_offsets;
    /* 1: `prog` already passed wa_object_validate (the writer skips it) */
    int validated;
} wa_object_kernel;

/* Validates `prog` for a code object (physical registers only); on failure the
   validator's diagnostics are copied to `ctx`, followed by an error located at
   the kernel. */
wa_status wa_object_validate(wa_context *ctx, const wa_program *prog);

/* Writes a code object holding every kernel (in order). The target and its
   XNACK/SRAMECC settings come from the programs and their contexts and must
   agree. `*out` is released with wa_free(). Errors (no kernels, virtual
   registers, mismatched targets, duplicate names, bad code sizes) are recorded
   on `ctx`; nothing is written then. */
wa_status wa_object_write(wa_context *ctx, const wa_object_kernel *kernels, unsigned n,
                          unsigned char **out, size_t *out_len);

/* As wa_object_write, with the `.comment` section's text (NULL: the library's
   name and version). Tests pass the linker's text to compare whole files. */
wa_status wa_object_write_comment(wa_context *ctx, const wa_object_kernel *kernels,
                                  unsigned n, const char *comment, unsigned char **out,
                                  size_t *out_len);

/* ---- parts (one file each) ------------------------------------------------------ */

#define WA_KD_SIZE 64u
/* The 64 descriptor bytes; `entry_offset` is the kernel's address minus the
   descriptor's (kernel_code_entry_byte_offset). */
void wa_kd_bytes(unsigned char out[WA_KD_SIZE], const wa_kd_fields *kd, int64_t entry_offset);

/* The NT_AMDGPU_METADATA payload (MessagePack) for the kernels, as LLVM writes
   the assembly's `.amdgpu_metadata` block: keys sorted, integers in their
   smallest encoding. */
void wa_metadata_msgpack(wa_sb *sb, const wa_object_kernel *kernels, unsigned n);

#endif
