/* lib/emit/emit.h — internal interface between the emitter files. */
#ifndef WAVEASM_EMIT_INTERNAL_H
#define WAVEASM_EMIT_INTERNAL_H

#include <waveasm/emit.h>

#include "../ir/ir.h"

/* Fills `out` without validating; registers must be physical. */
void wa_resources_compute(wa_kernel_resources *out, const wa_program *prog);
/* Extra SGPRs the hardware allocates behind the program's (VCC, FLAT_SCRATCH,
   XNACK_MASK). */
#define WA_EXTRA_SGPRS 6u

#endif
