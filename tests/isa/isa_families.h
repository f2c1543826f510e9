/* tests/isa/isa_families.h — the instruction families whose every instruction is in
   the ISA table (the "done" list), shared by tests/isa/isa_completeness.c and
   tests/toolchain/isa_samples.c. A family is the wa_format name of its rows
   (SOP1, SOP2, SOPK, SOPC, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3, VOP3P, MAI, DS,
   MUBUF, GLOBAL, FLAT, SCRATCH).

   For a done family, isa.completeness requires every instruction LLVM decodes to
   be a row (and the modifier capabilities to agree), and toolchain.isa_llvm_mc
   requires llvm-mc to reject every generated instance the validator rejects.
   A family's work adds one line here when its rows are complete (one line per
   family, so that parallel additions merge cleanly). */
#ifndef WAVEASM_TESTS_ISA_FAMILIES_H
#define WAVEASM_TESTS_ISA_FAMILIES_H

#include <string.h>

static const char *const wa_done_families[] = {
    "SOP1",
    "SOP2",
    "SOPK",
    "SOPC",
    "SOPP",
    "SMEM",
    "MAI",
    "DS",
    "VOPC",
    "VOP3",
    "VOP3P",
};

static inline int wa_family_done(const char *family)
{
    for (unsigned i = 0; i < sizeof(wa_done_families) / sizeof(wa_done_families[0]); i++)
        if (strcmp(wa_done_families[i], family) == 0)
            return 1;
    return 0;
}

#endif
