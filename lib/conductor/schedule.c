/* lib/conductor/schedule.c — the schedule object: nodes, blocks, regions,
   the order of items, and the tagged text an oracle reads. */
#include "conductor_internal.h"

#include <waveasm/text.h>

#include <stdarg.h>
#include <string.h>

/* Default latencies (cycles) per wa_latency_class: none, salu, valu, trans,
   smem, vmem, ds, mfma (without passes), branch. */
static const unsigned default_latency[WA_SCHED_LAT_COUNT] = { 4, 4, 8, 16, 64, 300, 64, 16, 4 };

static wa_status check_options(wa_context *ctx, const wa_schedule_options *o)
{
    if (!o)
        return WA_OK;
    wa_status st = wa_check_options_version(ctx, o->version, WA_SCHEDULE_OPTIONS_VERSION,
                                            "wa_schedule_options");
    if (st)
        return st;
    if (o->flags & ~(WA_SCHED_MEMORY_WARN | WA_SCHED_VERIFY))
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "wa_schedule_options: unknown flags 0x%x",
                        o->flags & ~(WA_SCHED_MEMORY_WARN | WA_SCHED_VERIFY));
    for (unsigned k = 0; k < WA_SCHED_MAX_CRITERIA; k++)
        if (o->order[k] >= WA_SCHED_BY_COUNT_)
            return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                            "wa_schedule_options: unknown criterion %u", o->order[k]);
    return WA_OK;
}

/* Critical path of each block (order independent: the graph is fixed),
   weighted by 10^depth. */
static void compute_critical(wa_schedule *s)
{
    uint64_t *start = wa_mem_calloc(s->ctx, s->n ? s->n : 1, sizeof(uint64_t));
    if (!start)
        return;
    s->critical = 0;
    for (unsigned b = 0; b < s->nblocks; b++) {
        uint64_t cp = 0;
        for (unsigned i = s->bfirst[b]; i <= s->blast[b]; i++) {
            if (!(s->node[i].flags & WA_SN_REAL))
                continue;
            uint64_t t = 0;
            for (unsigned e = s->pred_off[i]; e < s->pred_off[i + 1]; e++) {
                const wa_sedge *pe = &s->pred[e];
                uint64_t c = start[pe->node] + (pe->kind == WA_DEP_RAW ? s->node[pe->node].latency : 0);
                if (c > t)
                    t = c;
            }
            start[i] = t;
            if (t + s->node[i].latency > cp)
                cp = t + s->node[i].latency;
        }
        uint64_t w = 1;
        for (unsigned d = 0; d < s->bdepth[b] && d < 6; d++)
            w *= 10;
        s->critical += cp * w;
    }
    wa_mem_free(s->ctx, start);
}

void wa_schedule_destroy(wa_schedule *s)
{
    if (!s)
        return;
    wa_context *ctx = s->ctx;
    wa_mem_free(ctx, s->orig);
    wa_mem_free(ctx, s->node);
    wa_mem_free(ctx, s->pos);
    wa_mem_free(ctx, s->at);
    wa_mem_free(ctx, s->tag_node);
    wa_mem_free(ctx, s->pred_off);
    wa_mem_free(ctx, s->succ_off);
    wa_mem_free(ctx, s->pred);
    wa_mem_free(ctx, s->succ);
    wa_mem_free(ctx, s->bfirst);
    wa_mem_free(ctx, s->blast);
    wa_mem_free(ctx, s->bdepth);
    wa_mem_free(ctx, s->region_block);
    wa_mem_free(ctx, s->region_cycles);
    wa_mem_free(ctx, s->warns);
    wa_sb_free(&s->report);
    wa_sb_free(&s->warn_text);
    wa_sb_free(&s->last_cmds);
    wa_mem_free(ctx, s->profile);
    wa_unit_map_free(&s->units, ctx);
    wa_mem_free(ctx, s);
}

wa_status wa_schedule_create(wa_schedule **out, wa_program *prog, const wa_schedule_options *opts)
{
    if (!out || !prog)
        return WA_E_INVALID;
    *out = NULL;
    wa_context *ctx = prog->ctx;
    wa_diag_reset(ctx);
    wa_status st = check_options(ctx, opts);
    if (st)
        return st;
    wa_schedule *s = wa_mem_calloc(ctx, 1, sizeof(*s));
    if (!s)
        return wa_error_nomem(ctx);
    s->ctx = ctx;
    s->prog = prog;
    wa_schedule_options d = WA_SCHEDULE_OPTIONS_INIT;
    s->opts = opts ? *opts : d;
    for (unsigned c = 0; c < WA_SCHED_LAT_COUNT; c++)
        s->lat[c] = s->opts.latency[c] ? s->opts.latency[c] : default_latency[c];
    if (!s->opts.address_distance)
        s->opts.address_distance = 16;
    if (!s->opts.order[0]) {
        s->opts.order[0] = WA_SCHED_BY_CYCLES;
        s->opts.order[1] = WA_SCHED_BY_WAITS;
        s->opts.order[2] = WA_SCHED_BY_NOPS;
    }
    wa_sb_init(&s->report, ctx);
    wa_sb_init(&s->warn_text, ctx);
    wa_sb_init(&s->last_cmds, ctx);
    /* every instruction needs a tag to be named */
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        wa_instr *in = &prog->instrs[i];
        if (!(wa_isa(in->op)->flags & WA_IF_PSEUDO) && in->tag == WA_NO_TAG)
            in->tag = prog->next_tag++;
    }
    s->n = prog->ninstrs;
    size_t n1 = s->n ? s->n : 1;
    s->orig = wa_mem_alloc(ctx, n1 * sizeof(wa_instr));
    s->node = wa_mem_calloc(ctx, n1, sizeof(wa_snode));
    s->pos = wa_mem_alloc(ctx, n1 * sizeof(unsigned));
    s->at = wa_mem_alloc(ctx, n1 * sizeof(unsigned));
    if (!s->orig || !s->node || !s->pos || !s->at) {
        st = wa_error_nomem(ctx);
        goto fail;
    }
    unsigned maxtag = 0;
    for (unsigned i = 0; i < s->n; i++) {
        s->orig[i] = prog->instrs[i];
        s->pos[i] = s->at[i] = i;
        if (prog->instrs[i].tag != WA_NO_TAG && prog->instrs[i].tag + 1 > maxtag)
            maxtag = prog->instrs[i].tag + 1;
    }
    s->ntags = maxtag;
    s->tag_node = wa_mem_alloc(ctx, (maxtag ? maxtag : 1) * sizeof(unsigned));
    if (!s->tag_node) {
        st = wa_error_nomem(ctx);
        goto fail;
    }
    for (unsigned t = 0; t < maxtag; t++)
        s->tag_node[t] = WA_NONE;
    for (unsigned i = 0; i < s->n; i++)
        if (s->orig[i].tag != WA_NO_TAG)
            s->tag_node[s->orig[i].tag] = i;
    st = wa_unit_map_init(&s->units, prog);
    if (st)
        goto fail;
    {
        wa_cfg cfg;
        st = wa_cfg_build(&cfg, prog);
        if (st)
            goto fail;
        s->nblocks = cfg.nblocks;
        size_t nb = cfg.nblocks ? cfg.nblocks : 1;
        s->bfirst = wa_mem_alloc(ctx, nb * sizeof(unsigned));
        s->blast = wa_mem_alloc(ctx, nb * sizeof(unsigned));
        s->bdepth = wa_mem_alloc(ctx, nb * sizeof(unsigned));
        s->region_block = wa_mem_alloc(ctx, nb * sizeof(unsigned));
        s->region_cycles = wa_mem_calloc(ctx, nb, sizeof(uint64_t));
        if (!s->bfirst || !s->blast || !s->bdepth || !s->region_block || !s->region_cycles) {
            wa_cfg_free(&cfg, ctx);
            st = wa_error_nomem(ctx);
            goto fail;
        }
        for (unsigned b = 0; b < cfg.nblocks; b++) {
            s->bfirst[b] = cfg.first[b];
            s->blast[b] = cfg.last[b];
            s->bdepth[b] = cfg.block_depth ? cfg.block_depth[b] : 0;
        }
        wa_cfg_free(&cfg, ctx);
    }
    for (unsigned b = 0; b < s->nblocks; b++)
        for (unsigned i = s->bfirst[b]; i <= s->blast[b] && i < s->n; i++)
            s->node[i].block = b;
    st = wa_sched_build_deps(s);
    if (st)
        goto fail;
    for (unsigned b = 0; b < s->nblocks; b++) {
        unsigned movable = 0;
        for (unsigned i = s->bfirst[b]; i <= s->blast[b]; i++)
            movable += (s->node[i].flags & (WA_SN_REAL | WA_SN_PINNED)) == WA_SN_REAL;
        if (movable >= 2)
            s->region_block[s->nregions++] = b;
    }
    compute_critical(s);
    *out = s;
    return WA_OK;
fail:
    wa_schedule_destroy(s);
    return st;
}

wa_program *wa_schedule_program(const wa_schedule *s)
{
    return s ? s->prog : NULL;
}

unsigned wa_schedule_region_count(const wa_schedule *s)
{
    return s ? s->nregions : 0;
}

wa_status wa_schedule_region(wa_sched_region *out, const wa_schedule *s, unsigned index)
{
    if (!out || !s || index >= s->nregions)
        return WA_E_INVALID;
    unsigned b = s->region_block[index];
    memset(out, 0, sizeof(*out));
    out->version = WA_SCHED_REGION_VERSION;
    out->first = s->bfirst[b];
    out->last = s->blast[b];
    for (unsigned i = s->bfirst[b]; i <= s->blast[b]; i++) {
        unsigned f = s->node[i].flags;
        out->instrs += (f & WA_SN_REAL) != 0;
        out->movable += (f & (WA_SN_REAL | WA_SN_PINNED)) == WA_SN_REAL;
    }
    out->loop_depth = s->bdepth[b];
    return WA_OK;
}

uint64_t wa_schedule_region_cycles(const wa_schedule *s, unsigned index)
{
    return s && index < s->nregions ? s->region_cycles[index] : 0;
}

void wa_sched_set_order(wa_schedule *s, const unsigned *at)
{
    if (at != s->at)
        memcpy(s->at, at, s->n * sizeof(unsigned));
    for (unsigned i = 0; i < s->n; i++) {
        s->prog->instrs[i] = s->orig[s->at[i]];
        s->pos[s->at[i]] = i;
    }
}

const char *wa_sched_mnemonic(const wa_schedule *s, unsigned node)
{
    return wa_isa_mnemonic(s->orig[node].op, s->prog->target);
}

void wa_sched_add_warning(wa_schedule *s, unsigned severity, unsigned cmd, const char *fmt, ...)
{
    if (wa_grow(s->ctx, (void **)&s->warns, &s->capwarns, s->nwarns + 1, sizeof(wa_swarn)))
        return;
    wa_swarn *w = &s->warns[s->nwarns++];
    w->severity = severity;
    w->command = cmd;
    w->msg = s->warn_text.len;
    va_list ap;
    va_start(ap, fmt);
    wa_sb_vprintf(&s->warn_text, fmt, ap);
    va_end(ap);
    wa_sb_putc(&s->warn_text, '\0');
}

wa_status wa_schedule_warning(wa_sched_warning *out, const wa_schedule *s, unsigned index)
{
    if (!out || !s || index >= s->nwarns)
        return WA_E_INVALID;
    out->severity = (wa_sched_severity)s->warns[index].severity;
    out->command = s->warns[index].command;
    out->message = s->warn_text.data ? s->warn_text.data + s->warns[index].msg : "";
    return WA_OK;
}

const char *wa_schedule_report(const wa_schedule *s)
{
    if (!s || !s->have_report || !s->report.data)
        return "";
    return s->report.data;
}

/* ---- the text an oracle reads ---------------------------------------------------------- */

static const char *const lat_names[WA_SCHED_LAT_COUNT] = { "other", "salu", "valu", "trans",
                                                           "smem", "vmem", "ds", "mfma",
                                                           "branch" };

static void print_metrics(wa_sb *sb, const wa_sched_metrics *m)
{
    wa_sb_printf(sb,
                 "; metrics: est_cycles=%llu critical_path=%llu peak_vgpr=%u peak_sgpr=%u "
                 "peak_agpr=%u waves_per_simd=%u waits_inserted=%u nops_inserted=%u "
                 "instructions=%u\n",
                 (unsigned long long)m->cycles, (unsigned long long)m->critical_path,
                 m->peak_vgprs, m->peak_sgprs, m->peak_agprs, m->waves_per_simd,
                 m->waits_inserted, m->nops_inserted, m->instrs);
}

wa_status wa_schedule_print(char **out, size_t *out_len, const wa_schedule *s,
                            const wa_sched_metrics *metrics)
{
    return wa_sched_print_impl(out, out_len, s, metrics, 1);
}

wa_status wa_sched_print_impl(char **out, size_t *out_len, const wa_schedule *s,
                              const wa_sched_metrics *metrics, int with_report)
{
    if (!out || !s)
        return WA_E_INVALID;
    *out = NULL;
    wa_sb sb;
    wa_sb_init(&sb, s->ctx);
    const wa_program *prog = s->prog;
    unsigned mv = 256, ms = 102, ma = 256;
    if (s->opts.pipeline && s->opts.pipeline->regalloc) {
        mv = s->opts.pipeline->regalloc->max_vgprs;
        ms = s->opts.pipeline->regalloc->max_sgprs;
        ma = s->opts.pipeline->regalloc->max_agprs;
    }
    wa_sb_printf(&sb, "; schedule of kernel %s\n", prog->name ? prog->name : "");
    wa_sb_printf(&sb, "; target: %s (wave64), registers: %u vgpr, %u agpr, %u sgpr\n",
                 wa_target_name(prog->target), mv, ma, ms);
    wa_sb_puts(&sb, "; latency (cycles):");
    for (unsigned c = 1; c < WA_SCHED_LAT_COUNT; c++) {
        if (c == WA_LAT_MFMA)
            wa_sb_puts(&sb, " mfma=4*passes");
        else
            wa_sb_printf(&sb, " %s=%u", lat_names[c], s->lat[c]);
    }
    wa_sb_puts(&sb, "\n; commands: move Ix after Iy | move Ix before Iy | swap Ix Iy | done\n");
    if (metrics)
        print_metrics(&sb, metrics);
    wa_print_options po = WA_PRINT_OPTIONS_INIT;
    for (unsigned r = 0; r < s->nregions; r++) {
        wa_sched_region ri;
        wa_schedule_region(&ri, s, r);
        wa_sb_printf(&sb, "; region %u: loop depth %u, %u instructions (%u movable)", r,
                     ri.loop_depth, ri.instrs, ri.movable);
        if (metrics)
            wa_sb_printf(&sb, ", est. %llu cycles", (unsigned long long)s->region_cycles[r]);
        wa_sb_putc(&sb, '\n');
        for (unsigned i = ri.first; i <= ri.last; i++) {
            char *line = NULL;
            if (wa_program_print_item(&line, prog, i, &po) != WA_OK) {
                wa_sb_free(&sb);
                return wa_error_nomem(s->ctx);
            }
            unsigned f = s->node[s->at[i]].flags;
            int label = prog->instrs[i].op == WA_OP_LABEL;
            wa_sb_printf(&sb, "%s%s%s\n", label ? "" : "  ", line,
                         (f & WA_SN_PINNED) ? " [pinned]" : "");
            wa_free(line);
        }
    }
    wa_sched_print_profile(&sb, s);
    if (with_report && s->have_report && s->report.len) {
        wa_sb_puts(&sb, "; last round:\n");
        const char *p = s->report.data;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            wa_sb_puts(&sb, ";   ");
            wa_sb_putn(&sb, p, len);
            wa_sb_putc(&sb, '\n');
            p += len + (e != NULL);
        }
    }
    return wa_sb_finish(&sb, out, out_len);
}
