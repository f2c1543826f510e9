/* lib/sim/hazards.c — hazard mode (placeholder until the rules land). */
#include "sim_internal.h"

struct sim_hz {
    int unused;
};

sim_hz *sim_hz_new(wa_context *ctx) { return wa_mem_calloc(ctx, 1, sizeof(sim_hz)); }
void sim_hz_free(wa_context *ctx, sim_hz *hz) { wa_mem_free(ctx, hz); }
void sim_hz_reset(sim_hz *hz) { (void)hz; }
void sim_hz_check(sim_ctx *c) { (void)c; }
void sim_hz_record(sim_ctx *c) { (void)c; }
