/* include/waveasm/encode.h — machine code in process: the encoder turns a
   finished program into the bytes of its `.text` (what llvm-mc would assemble
   from wa_emit_asm's code), and the disassembler turns those bytes back into
   instructions in the IR's syntax.

   A finished program has physical registers only and its waits and nops in place
   (after register allocation and the waitcnt/hazard passes). The bytes are the
   kernel's code from its first instruction: no padding, no descriptor (the code
   object writer adds those). */
#ifndef WAVEASM_ENCODE_H
#define WAVEASM_ENCODE_H

#include <waveasm/program.h>

WA_BEGIN_DECLS

#define WA_ENCODE_NO_VALIDATE 0x1u /* skip wa_program_validate (the host just ran it); the
                                      encoder still refuses what it cannot encode */

typedef struct wa_encode_options {
    unsigned version;   /* WA_ENCODE_OPTIONS_VERSION */
    unsigned flags;     /* WA_ENCODE_* */
    /* Optional: wa_program_size() entries receiving the byte offset of each item
       (a label or comment gets the offset of the instruction that follows it, the
       end of the code at the end). NULL when not wanted. */
    uint32_t *item_offsets;
    /* new fields only ever appended */
} wa_encode_options;
#define WA_ENCODE_OPTIONS_VERSION 1
#define WA_ENCODE_OPTIONS_INIT { WA_ENCODE_OPTIONS_VERSION, 0, NULL }

/* Encodes `prog` for its target. `*code` (released with wa_free()) receives the
   code, `*len` its size in bytes (a multiple of 4). `opts` may be NULL.
   Unless WA_ENCODE_NO_VALIDATE, the program is validated first (physical
   registers required). Errors carry the instruction's tag and source location:
   WA_E_VALIDATE for what the encoding cannot express (a virtual register, an
   opcode the target lacks, a literal in a 64-bit encoding, a branch to a label
   that is not placed), WA_E_RANGE for a value outside its field (an offset, a
   branch farther than 32767 dwords). */
WA_API wa_status wa_encode_program(unsigned char **code, size_t *len, const wa_program *prog,
                                   const wa_encode_options *opts);

#define WA_DISASM_OFFSETS 0x1u /* "; 0x0010" (byte offset) after each instruction */

typedef struct wa_disasm_options {
    unsigned version;   /* WA_DISASM_OPTIONS_VERSION */
    unsigned flags;     /* WA_DISASM_* */
    /* new fields only ever appended */
} wa_disasm_options;
#define WA_DISASM_OPTIONS_VERSION 1
#define WA_DISASM_OPTIONS_INIT { WA_DISASM_OPTIONS_VERSION, 0 }

/* Decodes `n` bytes of code for `target` into text, one instruction per line in
   the IR's syntax (as wa_emit_asm spells it), with `wa_<offset>:` label lines at
   branch targets. Meant for the encoder's own output: every instruction the
   encoder produces decodes to the same instruction, so that parsing the text and
   encoding it again gives the same bytes. `*text` is NUL-terminated and released
   with wa_free(); `len` (may be NULL) receives its length. Diagnostics go to
   `ctx`: WA_E_PARSE with the byte offset for words no table row matches or code
   that ends inside an instruction. `opts` may be NULL. */
WA_API wa_status wa_disassemble(char **text, size_t *len, wa_context *ctx,
                                const unsigned char *code, size_t n, wa_target target,
                                const wa_disasm_options *opts);

WA_END_DECLS
#endif
