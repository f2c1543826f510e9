/* lib/encode/encode.h — the encoder and disassembler inside the library (shared
   by lib/encode/ and the code object writer). Not installed.

   wa_encode_internal() is what wa_encode_program() runs after its option checks
   and validation: it encodes `prog` (physical registers, every opcode available on
   the program's target) and returns the code in `*code`, allocated with
   wa_mem_alloc(ctx, ...) and released with wa_mem_free(ctx, ...); `*len` is its size
   in bytes. `item_offsets` (may be NULL) receives wa_program_size() byte offsets as
   in wa_encode_options. Errors go to `ctx` with the instruction's location. */
#ifndef WAVEASM_LIB_ENCODE_H
#define WAVEASM_LIB_ENCODE_H

#include <waveasm/encode.h>

#include "../ir/ir.h"

wa_status wa_encode_internal(wa_context *ctx, const wa_program *prog, unsigned char **code,
                             size_t *len, uint32_t *item_offsets);

/* Encodes one instruction of `prog` (its target) into w[] (*nw words, the literal
   included); a label operand's field is left 0 and its index returned in
   *label_operand (-1 if none). The disassembler checks its guesses with it. */
wa_status wa_encode_instr(wa_context *ctx, const wa_program *prog, const wa_instr *in,
                          uint32_t w[6], unsigned *nw, int *label_operand);

/* Index of the row's operand named `name` (the table's operand names are the
   formats' field names), or -1. */
int wa_enc_operand(const wa_isa_info *info, const char *name);
/* The VOP3/VOP3P/MAI source field (0, 1, 2) an operand name stands for, or -1. */
int wa_enc_src_field(const char *name);

/* Field layouts both directions share (bit positions of the GFX9 encodings). */
#define WA_ENC_SOP1 0xBE800000u
#define WA_ENC_SOP2 0x80000000u
#define WA_ENC_SOPK 0xB0000000u
#define WA_ENC_SOPC 0xBF000000u
#define WA_ENC_SOPP 0xBF800000u
#define WA_ENC_SMEM 0xC0000000u
#define WA_ENC_VOP1 0x7E000000u
#define WA_ENC_VOPC 0x7C000000u
#define WA_ENC_VOP3 0xD0000000u
#define WA_ENC_VOP3P 0xD3800000u
#define WA_ENC_DS 0xD8000000u
#define WA_ENC_MUBUF 0xE0000000u
#define WA_ENC_FLAT 0xDC000000u

/* VOP3 opcode of a VOP1/VOP2/VOPC row's 32-bit opcode. */
#define WA_ENC_VOP3_OF_VOPC(op) (op)
#define WA_ENC_VOP3_OF_VOP2(op) (0x100u + (op))
#define WA_ENC_VOP3_OF_VOP1(op) (0x140u + (op))

/* Source operand codes. */
#define WA_SRC_VCC_LO 106u
#define WA_SRC_M0 124u
#define WA_SRC_EXEC_LO 126u
#define WA_SRC_SDWA 249u
#define WA_SRC_DPP 250u
#define WA_SRC_SCC 253u
#define WA_SRC_LITERAL 255u
#define WA_SRC_VGPR0 256u
/* FLAT-encoding saddr "off". */
#define WA_FLAT_SADDR_OFF 0x7Fu
/* The block-scaled MFMAs travel behind a VOP3P v_mfma_ld_scale_b32 word (gfx950)
   holding the scale registers and their byte selects. */
#define WA_ENC_LD_SCALE_OP 0x2Cu

/* Operand code of special register `s` (wa_special). */
unsigned wa_enc_special_code(unsigned s);

#endif
