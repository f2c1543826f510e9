/* include/waveasm/validate.h — the IR validator.

   Checks a program against the ISA table and its target: opcode availability,
   operand counts, register classes, sizes and tuple alignment, immediates
   (inline constants, literals, ranges), the constant bus, MFMA operand rules,
   modifiers, labels, uses of never-defined virtual registers, duplicate tags
   and kernel attributes. Every finding is a diagnostic on the context with the
   instruction tag and, for parsed programs, file:line:col. */
#ifndef WAVEASM_VALIDATE_H
#define WAVEASM_VALIDATE_H

#include <waveasm/program.h>

WA_BEGIN_DECLS

#define WA_VALIDATE_PHYSICAL 0x1u  /* additionally require every register to be physical */

typedef struct wa_validate_options {
    unsigned version;      /* WA_VALIDATE_OPTIONS_VERSION */
    unsigned flags;        /* WA_VALIDATE_* */
    unsigned max_errors;   /* stop after this many (0 = no limit) */
    /* new fields only ever appended */
} wa_validate_options;
#define WA_VALIDATE_OPTIONS_VERSION 1
#define WA_VALIDATE_OPTIONS_INIT { WA_VALIDATE_OPTIONS_VERSION, 0, 0 }

/* WA_OK if the program is valid, WA_E_VALIDATE otherwise (with one diagnostic per
   problem). `out_errors` (may be NULL) receives the number of errors; `opts` may
   be NULL. */
WA_API wa_status wa_program_validate(unsigned *out_errors, const wa_program *prog,
                                     const wa_validate_options *opts);

WA_END_DECLS
#endif
