/* lib/sim/mfma.c — MFMA semantics (placeholder until the layouts land). */
#include "sim_internal.h"

sim_fn sim_mfma_fn(unsigned op)
{
    (void)op;
    return NULL;
}
