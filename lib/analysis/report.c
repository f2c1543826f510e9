/* lib/analysis/report.c — register pressure for kernel authors: an annotated
   listing (wa_pressure_report) and a standalone SVG plot (wa_pressure_svg).

   Both read the program and the liveness result through the public API only
   (wa_program_get / wa_program_print_item, wa_liveness_*), so they show exactly
   what a host could compute itself. The layout is documented in
   docs/pressure-report.md; tests compare it, so keep it stable. */
#include "../core/core.h"

#include <waveasm/isa.h>
#include <waveasm/liveness.h>
#include <waveasm/program.h>
#include <waveasm/text.h>

#include <stdio.h>
#include <string.h>

#define NCLASSES 3

static const wa_reg_class class_of[NCLASSES] = { WA_REG_VGPR, WA_REG_SGPR, WA_REG_AGPR };
static const char *const class_name[NCLASSES] = { "VGPR", "SGPR", "AGPR" };
static const char class_prefix[NCLASSES] = { 'v', 's', 'a' };
/* Registers a kernel can address per class (v0-v255, s0-s101, a0-a255). */
static const unsigned class_limit[NCLASSES] = { 256, 102, 256 };

/* ---- shared: argument checks, program/liveness agreement ------------------------------ */

/* Per-block facts both outputs need. */
typedef struct blocks {
    unsigned n;
    wa_block_info *info;
} blocks;

static void blocks_free(wa_context *ctx, blocks *b)
{
    wa_mem_free(ctx, b->info);
    b->info = NULL;
}

static wa_status mismatch(wa_context *ctx, const char *what, unsigned item)
{
    if (item == WA_NONE)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "liveness does not match the program: %s (recompute it after "
                        "editing the program)",
                        what);
    return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                    "liveness does not match the program: %s at item %u (recompute it after "
                    "editing the program)",
                    what, item);
}

/* Checks that `live` describes `prog` as it is now: the same number of items,
   and blocks where the program's labels and branches put them (a block starts
   at the first item, at each label and after each branch or s_endpgm, and
   nowhere else). Fills `out` with the blocks. */
static wa_status check_match(blocks *out, const wa_program *prog, const wa_liveness *live)
{
    wa_context *ctx = wa_program_context(prog);
    unsigned n = wa_program_size(prog), nb = wa_liveness_block_count(live);
    out->n = nb;
    out->info = NULL;
    if (n == 0 || nb == 0) {
        if (n == 0 && nb == 0)
            return WA_OK;
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "liveness does not match the program: computed for %s program, the "
                        "program has %u items (recompute it after editing the program)",
                        nb ? "a non-empty" : "an empty", n);
    }
    out->info = wa_mem_calloc(ctx, nb, sizeof(wa_block_info));
    if (!out->info)
        return wa_error_nomem(ctx);
    unsigned next = 0;
    for (unsigned b = 0; b < nb; b++) {
        wa_block_info *bi = &out->info[b];
        if (wa_liveness_block(bi, live, b) != WA_OK || bi->first_item != next ||
            bi->last_item < bi->first_item) {
            blocks_free(ctx, out);
            return mismatch(ctx, "inconsistent blocks", WA_NONE);
        }
        next = bi->last_item + 1;
    }
    if (next != n) {
        blocks_free(ctx, out);
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE,
                        "liveness does not match the program: computed for %u items, the "
                        "program has %u (recompute it after editing the program)",
                        next, n);
    }
    int after_branch = 1; /* the first item leads a block */
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view v;
        unsigned b = wa_liveness_block_of(live, i);
        if (wa_program_get(&v, prog, i) != WA_OK || b >= nb) {
            blocks_free(ctx, out);
            return mismatch(ctx, "item without a block", i);
        }
        const wa_isa_info *info = wa_isa_get(v.opcode);
        int leader = after_branch || v.opcode == WA_OP_LABEL;
        if (leader != (out->info[b].first_item == i)) {
            blocks_free(ctx, out);
            return mismatch(ctx, leader ? "a block should start" : "a block should not start", i);
        }
        after_branch = info && (info->flags & (WA_IF_BRANCH | WA_IF_CBRANCH | WA_IF_ENDPGM));
    }
    return WA_OK;
}

/* Common entry checks. Returns WA_OK with the blocks, or an error status. */
static wa_status begin(blocks *bl, char **out, const wa_program *prog, const wa_liveness *live)
{
    if (out)
        *out = NULL;
    if (!prog)
        return WA_E_INVALID;
    wa_context *ctx = wa_program_context(prog);
    wa_diag_reset(ctx);
    if (!out || !live)
        return wa_error(ctx, WA_E_INVALID, WA_LOC_NONE, "%s is NULL",
                        !out ? "the output pointer" : "the liveness result");
    return check_match(bl, prog, live);
}

static unsigned digits(unsigned long long v)
{
    unsigned d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

static unsigned umax(unsigned a, unsigned b)
{
    return a > b ? a : b;
}

/* "@I7, line 12:3" / "@I7" / "label" — where an item is, for headers and titles. */
static void put_where(wa_sb *sb, const wa_program *prog, unsigned item)
{
    wa_instr_view v;
    if (wa_program_get(&v, prog, item) != WA_OK)
        return;
    int sep = 0;
    if (v.tag != WA_NO_TAG) {
        wa_sb_printf(sb, "@I%u", (unsigned)v.tag);
        sep = 1;
    } else if (v.opcode == WA_OP_LABEL) {
        wa_sb_puts(sb, "label");
        sep = 1;
    } else if (v.opcode == WA_OP_COMMENT) {
        wa_sb_puts(sb, "comment");
        sep = 1;
    }
    if (v.line)
        wa_sb_printf(sb, "%sline %u:%u", sep ? ", " : "", v.line, v.col);
}

/* Best-case waves per SIMD given register needs (docs/pressure-report.md):
   VGPRs and AGPRs share a 512-entry file allocated in granules of 8, AGPRs
   starting at a multiple of 4; at most 8 waves; SGPRs (+6 the hardware adds)
   limit to 7 waves above 100. 0 when the registers cannot fit at all. */
static unsigned occupancy(unsigned v, unsigned s, unsigned a)
{
    if (v > class_limit[0] || s > class_limit[1] || a > class_limit[2])
        return 0;
    unsigned total = a ? ((umax(v, 1) + 3) / 4) * 4 + a : v;
    unsigned gran = ((umax(total, 1) + 7) / 8) * 8;
    unsigned waves = 512 / gran;
    if (waves > 8)
        waves = 8;
    if (s + 6 > 100 && waves > 7)
        waves = 7;
    return waves;
}

/* ---- the annotated listing ------------------------------------------------------------ */

/* Column where the "; @I<n>" part starts, relative to the instruction text. */
#define TAG_COLUMN 44u
/* Column where "<- max ..." markers start, relative to the instruction text. */
#define MARK_COLUMN 60u
/* Virtual registers listed per maximum before "... and N more". */
#define LIVE_LIST_CAP 24u

typedef struct live_entry {
    unsigned id, size;
} live_entry;

/* Lists the virtual registers of class c live at the maximum of that class. */
static wa_status put_live_at_max(wa_sb *sb, const wa_program *prog, const wa_liveness *live,
                                 unsigned c, unsigned item)
{
    wa_context *ctx = wa_program_context(prog);
    wa_reg_class cls = class_of[c];
    /* The pressure of an item is the larger of its use and def points: list the
       values live at whichever point holds more virtual registers. */
    unsigned best_point = 2 * item, best_sum = 0, best_n = 0;
    unsigned *ids = NULL;
    for (unsigned k = 0; k < 2; k++) {
        unsigned point = 2 * item + k;
        unsigned n = wa_liveness_live_at(NULL, 0, live, point, cls);
        unsigned *p = wa_mem_calloc(ctx, n ? n : 1, sizeof(unsigned));
        if (!p) {
            wa_mem_free(ctx, ids);
            return wa_error_nomem(ctx);
        }
        n = wa_liveness_live_at(p, n, live, point, cls);
        unsigned sum = 0;
        for (unsigned j = 0; j < n; j++) {
            wa_reg_class vc;
            unsigned size = 1, align;
            if (wa_program_vreg_info(&vc, &size, &align, prog, p[j]) != WA_OK)
                size = 1;
            sum += size;
        }
        if (k == 0 || sum > best_sum) {
            wa_mem_free(ctx, ids);
            ids = p;
            best_point = point;
            best_sum = sum;
            best_n = n;
        } else {
            wa_mem_free(ctx, p);
        }
    }
    live_entry *e = wa_mem_calloc(ctx, best_n ? best_n : 1, sizeof(live_entry));
    if (!e) {
        wa_mem_free(ctx, ids);
        return wa_error_nomem(ctx);
    }
    for (unsigned j = 0; j < best_n; j++) {
        wa_reg_class vc;
        unsigned size = 1, align;
        if (wa_program_vreg_info(&vc, &size, &align, prog, ids[j]) != WA_OK)
            size = 1;
        e[j].id = ids[j];
        e[j].size = size;
    }
    wa_mem_free(ctx, ids);
    wa_sb_printf(sb, "  at max %s (item %u, ", class_name[c], item);
    put_where(sb, prog, item);
    wa_sb_printf(sb, ", %s point): ", best_point & 1 ? "def" : "use");
    if (best_n)
        wa_sb_printf(sb, "%u virtual register%s in %u %s%s:", best_n, best_n == 1 ? "" : "s",
                     best_sum, class_name[c], best_sum == 1 ? "" : "s");
    else
        wa_sb_puts(sb, "no virtual registers (physical registers only)");
    /* widest first, equal sizes by id (the order live_at gives): one pass per
       distinct size until the list is full, so thousands of live values cost
       no sort */
    unsigned listed = 0, size = 0;
    for (unsigned j = 0; j < best_n; j++)
        size = umax(size, e[j].size);
    while (size && listed < best_n && listed < LIVE_LIST_CAP) {
        unsigned next = 0;
        for (unsigned j = 0; j < best_n; j++) {
            if (e[j].size == size && listed < LIVE_LIST_CAP) {
                wa_sb_printf(sb, " %%%c%u", class_prefix[c], e[j].id);
                if (size > 1)
                    wa_sb_printf(sb, "<%u>", size);
                listed++;
            } else if (e[j].size < size && e[j].size > next) {
                next = e[j].size;
            }
        }
        size = next;
    }
    if (best_n > LIVE_LIST_CAP)
        wa_sb_printf(sb, " ... and %u more", best_n - LIVE_LIST_CAP);
    wa_sb_putc(sb, '\n');
    wa_mem_free(ctx, e);
    return WA_OK;
}

/* Loop table: per loop its depth, header, blocks, item span and maximum pressure. */
static wa_status put_loops(wa_sb *sb, const wa_program *prog, const wa_liveness *live,
                           const blocks *bl, unsigned wp)
{
    wa_context *ctx = wa_program_context(prog);
    unsigned nl = wa_liveness_loop_count(live);
    if (nl == 0)
        return WA_OK;
    wa_loop_info *li = wa_mem_calloc(ctx, nl, sizeof(wa_loop_info));
    unsigned *lo = wa_mem_calloc(ctx, nl, sizeof(unsigned));
    unsigned *hi = wa_mem_calloc(ctx, nl, sizeof(unsigned));
    unsigned *mx = wa_mem_calloc(ctx, (size_t)nl * NCLASSES, sizeof(unsigned));
    /* per block: its maximum per class, then credited to every enclosing loop */
    if (!li || !lo || !hi || !mx) {
        wa_mem_free(ctx, li);
        wa_mem_free(ctx, lo);
        wa_mem_free(ctx, hi);
        wa_mem_free(ctx, mx);
        return wa_error_nomem(ctx);
    }
    for (unsigned l = 0; l < nl; l++) {
        if (wa_liveness_loop(&li[l], live, l) != WA_OK)
            memset(&li[l], 0, sizeof(li[l]));
        lo[l] = WA_NONE;
        hi[l] = 0;
    }
    for (unsigned b = 0; b < bl->n; b++) {
        const wa_block_info *bi = &bl->info[b];
        if (bi->loop == WA_NONE)
            continue;
        unsigned bm[NCLASSES] = { 0, 0, 0 };
        for (unsigned i = bi->first_item; i <= bi->last_item; i++)
            for (unsigned c = 0; c < NCLASSES; c++)
                bm[c] = umax(bm[c], wa_liveness_pressure(live, i, class_of[c]));
        /* walk out through the enclosing loops (bounded by the loop count) */
        unsigned l = bi->loop;
        for (unsigned guard = 0; l < nl && guard < nl; guard++, l = li[l].parent) {
            if (bi->first_item < lo[l])
                lo[l] = bi->first_item;
            hi[l] = umax(hi[l], bi->last_item);
            for (unsigned c = 0; c < NCLASSES; c++)
                mx[(size_t)l * NCLASSES + c] = umax(mx[(size_t)l * NCLASSES + c], bm[c]);
        }
    }
    unsigned wl = umax(4, digits(nl - 1)), wh = umax(6, digits(bl->n - 1));
    unsigned wspan = 5;
    for (unsigned l = 0; l < nl; l++)
        if (lo[l] != WA_NONE)
            wspan = umax(wspan, digits(lo[l]) + 2 + digits(hi[l]));
    wa_sb_printf(sb, "\nloops:\n  %*s  depth  %*s  blocks  %-*s  %*s  %*s  %*s  parent\n",
                 (int)wl, "loop", (int)wh, "header", (int)wspan, "items", (int)wp, "VGPR", (int)wp,
                 "SGPR", (int)wp, "AGPR");
    for (unsigned l = 0; l < nl; l++) {
        char span[32] = "-";
        if (lo[l] != WA_NONE)
            snprintf(span, sizeof(span), "%u..%u", lo[l], hi[l]);
        wa_sb_printf(sb, "  %*u  %5u  %*u  %6u  %-*s  %*u  %*u  %*u  ", (int)wl, l, li[l].depth,
                     (int)wh, li[l].header, li[l].num_blocks, (int)wspan, span, (int)wp,
                     mx[(size_t)l * NCLASSES + 0], (int)wp, mx[(size_t)l * NCLASSES + 1], (int)wp,
                     mx[(size_t)l * NCLASSES + 2]);
        if (li[l].parent == WA_NONE)
            wa_sb_puts(sb, "-\n");
        else
            wa_sb_printf(sb, "%u\n", li[l].parent);
    }
    wa_mem_free(ctx, li);
    wa_mem_free(ctx, lo);
    wa_mem_free(ctx, hi);
    wa_mem_free(ctx, mx);
    return WA_OK;
}

wa_status wa_pressure_report(char **out, size_t *out_len, const wa_program *prog,
                             const wa_liveness *live)
{
    blocks bl;
    wa_status st = begin(&bl, out, prog, live);
    if (st != WA_OK)
        return st;
    wa_context *ctx = wa_program_context(prog);
    unsigned n = wa_program_size(prog);
    unsigned maxp[NCLASSES], maxi[NCLASSES], nmax[NCLASSES] = { 0, 0, 0 };
    for (unsigned c = 0; c < NCLASSES; c++)
        maxp[c] = wa_liveness_max_pressure(live, class_of[c], &maxi[c]);
    unsigned ninstr = 0, nlabels = 0, ncomments = 0, unreachable = 0, maxdepth = 0;
    for (unsigned i = 0; i < n; i++) {
        wa_instr_view v;
        if (wa_program_get(&v, prog, i) != WA_OK)
            continue;
        if (v.opcode == WA_OP_LABEL)
            nlabels++;
        else if (v.opcode == WA_OP_COMMENT)
            ncomments++;
        else
            ninstr++;
        for (unsigned c = 0; c < NCLASSES; c++)
            if (maxp[c] && wa_liveness_pressure(live, i, class_of[c]) == maxp[c])
                nmax[c]++;
    }
    for (unsigned b = 0; b < bl.n; b++) {
        unreachable += !bl.info[b].reachable;
        maxdepth = umax(maxdepth, bl.info[b].loop_depth);
    }
    unsigned nl = wa_liveness_loop_count(live);

    wa_sb sb;
    wa_sb_init(&sb, ctx);
    /* header */
    const char *tname = wa_target_name(wa_program_target(prog));
    const char *kname = wa_program_name(prog);
    wa_sb_printf(&sb, "register pressure of kernel %s (%s)\n", kname ? kname : "",
                 tname ? tname : "unknown target");
    wa_sb_printf(&sb, "  %u item%s (%u instruction%s, %u label%s, %u comment%s), %u block%s", n,
                 n == 1 ? "" : "s", ninstr, ninstr == 1 ? "" : "s", nlabels,
                 nlabels == 1 ? "" : "s", ncomments, ncomments == 1 ? "" : "s", bl.n,
                 bl.n == 1 ? "" : "s");
    if (unreachable)
        wa_sb_printf(&sb, " (%u unreachable)", unreachable);
    wa_sb_printf(&sb, ", %u loop%s", nl, nl == 1 ? "" : "s");
    if (nl)
        wa_sb_printf(&sb, " (max depth %u)", maxdepth);
    wa_sb_putc(&sb, '\n');
    unsigned wmax = 1;
    for (unsigned c = 0; c < NCLASSES; c++)
        wmax = umax(wmax, digits(maxp[c]));
    for (unsigned c = 0; c < NCLASSES; c++) {
        wa_sb_printf(&sb, "  max %s %*u", class_name[c], (int)wmax, maxp[c]);
        if (maxp[c] && maxi[c] != WA_NONE) {
            wa_sb_printf(&sb, " at item %u (", maxi[c]);
            put_where(&sb, prog, maxi[c]);
            wa_sb_putc(&sb, ')');
            if (nmax[c] > 1)
                wa_sb_printf(&sb, ", reached at %u items", nmax[c]);
        }
        wa_sb_putc(&sb, '\n');
    }
    {
        unsigned cnt = 0;
        const unsigned *entry = wa_liveness_live_on_entry(live, &cnt);
        if (cnt) {
            wa_sb_printf(&sb, "  warning: %u virtual register%s may be read before %s defined:", cnt,
                         cnt == 1 ? "" : "s", cnt == 1 ? "it is" : "they are");
            for (unsigned j = 0; j < cnt && j < LIVE_LIST_CAP; j++) {
                wa_reg_class vc = WA_REG_NONE;
                unsigned size, align;
                wa_program_vreg_info(&vc, &size, &align, prog, entry[j]);
                char p = vc == WA_REG_SGPR ? 's' : vc == WA_REG_AGPR ? 'a' : 'v';
                wa_sb_printf(&sb, " %%%c%u", p, entry[j]);
            }
            if (cnt > LIVE_LIST_CAP)
                wa_sb_printf(&sb, " ... and %u more", cnt - LIVE_LIST_CAP);
            wa_sb_putc(&sb, '\n');
        }
    }
    {
        unsigned cnt = 0, first = WA_NONE;
        for (unsigned i = 0; i < n; i++)
            if (wa_liveness_exec_partial(live, i)) {
                cnt++;
                if (first == WA_NONE)
                    first = i;
            }
        if (cnt) {
            wa_sb_printf(&sb, "  EXEC may be narrower than at entry at %u item%s, from item %u (", cnt,
                         cnt == 1 ? "" : "s", first);
            put_where(&sb, prog, first);
            wa_sb_puts(&sb, "): vector writes there keep the other lanes\n");
        }
    }
    wa_sb_putc(&sb, '\n');

    /* listing */
    unsigned wi = umax(4, digits(n ? n - 1 : 0)), wb = umax(5, digits(bl.n ? bl.n - 1 : 0));
    unsigned wp = umax(4, wmax);
    wa_sb_printf(&sb, "%*s  %*s  depth  %*s  %*s  %*s  instruction\n", (int)wi, "item", (int)wb,
                 "block", (int)wp, "VGPR", (int)wp, "SGPR", (int)wp, "AGPR");
    wa_print_options po = WA_PRINT_OPTIONS_INIT;
    po.flags = 0;
    for (unsigned i = 0; i < n && !sb.failed; i++) {
        wa_instr_view v;
        char *text = NULL;
        unsigned b = wa_liveness_block_of(live, i);
        unsigned depth = b < bl.n ? bl.info[b].loop_depth : 0;
        unsigned p[NCLASSES];
        for (unsigned c = 0; c < NCLASSES; c++)
            p[c] = wa_liveness_pressure(live, i, class_of[c]);
        st = wa_program_get(&v, prog, i);
        if (st == WA_OK)
            st = wa_program_print_item(&text, prog, i, &po);
        if (st != WA_OK) {
            wa_sb_free(&sb);
            blocks_free(ctx, &bl);
            return st;
        }
        size_t line = sb.len;
        wa_sb_printf(&sb, "%*u  %*u  %5u  %*u  %*u  %*u  ", (int)wi, i, (int)wb, b, depth, (int)wp,
                     p[0], (int)wp, p[1], (int)wp, p[2]);
        size_t text_start = sb.len - line;
        for (unsigned d = 0; d < depth; d++)
            wa_sb_puts(&sb, "  ");
        if (v.opcode != WA_OP_LABEL)
            wa_sb_puts(&sb, "  ");
        wa_sb_puts(&sb, text);
        wa_free(text);
        if (v.tag != WA_NO_TAG) {
            wa_sb_pad_to(&sb, line, text_start + TAG_COLUMN);
            wa_sb_printf(&sb, "; @I%u", (unsigned)v.tag);
            if (v.comment && v.comment[0])
                wa_sb_printf(&sb, " %s", v.comment);
        } else if (v.opcode == WA_OP_LABEL && v.comment && v.comment[0]) {
            wa_sb_printf(&sb, " ; %s", v.comment);
        }
        int marked = 0;
        for (unsigned c = 0; c < NCLASSES; c++) {
            if (!maxp[c] || p[c] != maxp[c])
                continue;
            if (!marked) {
                wa_sb_pad_to(&sb, line, text_start + MARK_COLUMN);
                wa_sb_puts(&sb, " <- ");
            } else {
                wa_sb_puts(&sb, ", ");
            }
            wa_sb_printf(&sb, "max %s %u", class_name[c], maxp[c]);
            marked = 1;
        }
        wa_sb_putc(&sb, '\n');
    }

    /* footer */
    st = put_loops(&sb, prog, live, &bl, wp);
    for (unsigned c = 0, header = 0; c < NCLASSES && st == WA_OK; c++) {
        if (!maxp[c] || maxi[c] == WA_NONE)
            continue;
        if (!header++)
            wa_sb_puts(&sb, "\nlive at the maxima:\n");
        st = put_live_at_max(&sb, prog, live, c, maxi[c]);
    }
    if (st != WA_OK) {
        wa_sb_free(&sb);
        blocks_free(ctx, &bl);
        return st;
    }
    unsigned waves = occupancy(maxp[0], maxp[1], maxp[2]);
    wa_sb_printf(&sb, "\nsummary: max VGPR %u, SGPR %u, AGPR %u; ", maxp[0], maxp[1], maxp[2]);
    if (waves) {
        wa_sb_printf(&sb, "at best %u wave%s per SIMD\n", waves, waves == 1 ? "" : "s");
    } else {
        wa_sb_puts(&sb, "more than the register file holds:");
        for (unsigned c = 0, sep = 0; c < NCLASSES; c++)
            if (maxp[c] > class_limit[c])
                wa_sb_printf(&sb, "%s %s %u > %u", sep++ ? "," : "", class_name[c], maxp[c],
                             class_limit[c]);
        wa_sb_putc(&sb, '\n');
    }
    blocks_free(ctx, &bl);
    return wa_sb_finish(&sb, out, out_len);
}

/* ---- the SVG plot --------------------------------------------------------------------- */

/* Geometry in pixels. The plot area is PLOT_W columns wide: a program with more
   items than columns is downsampled to the maximum per column, so each series
   has at most 2 * PLOT_W + 2 points whatever the program size. */
#define SVG_W 1000
#define SVG_H 460
#define PLOT_X 70
#define PLOT_Y 50
#define PLOT_W 880
#define PLOT_H 320

static const char *const class_color[NCLASSES] = { "#1f77b4", "#2ca02c", "#d62728" };

/* Writes a coordinate given in tenths of a pixel, without locale-dependent
   floating-point formatting. */
static void put_fixed(wa_sb *sb, long long tenths)
{
    if (tenths < 0) {
        wa_sb_putc(sb, '-');
        tenths = -tenths;
    }
    if (tenths % 10)
        wa_sb_printf(sb, "%lld.%lld", tenths / 10, tenths % 10);
    else
        wa_sb_printf(sb, "%lld", tenths / 10);
}

static void put_xml_text(wa_sb *sb, const char *s)
{
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '<': wa_sb_puts(sb, "&lt;"); break;
        case '>': wa_sb_puts(sb, "&gt;"); break;
        case '&': wa_sb_puts(sb, "&amp;"); break;
        case '"': wa_sb_puts(sb, "&quot;"); break;
        case '\'': wa_sb_puts(sb, "&apos;"); break;
        default:
            /* XML 1.0 forbids most control characters; non-ASCII bytes may not
               be UTF-8, so they are written as '?' to keep the file valid. */
            wa_sb_putc(sb, ch < 0x20 || ch >= 0x7f ? '?' : (char)ch);
        }
    }
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) giving at most `max_ticks`
   intervals over [0, range]. */
static unsigned long long nice_step(unsigned long long range, unsigned max_ticks)
{
    unsigned long long step = 1;
    for (;;) {
        static const unsigned mult[3] = { 1, 2, 5 };
        for (unsigned k = 0; k < 3; k++) {
            unsigned long long s = step * mult[k];
            if ((range + s - 1) / s <= max_ticks)
                return s;
        }
        step *= 10;
    }
}

typedef struct plot {
    unsigned n;             /* items */
    unsigned cols;          /* columns actually used: min(n, PLOT_W), at least 1 */
    unsigned long long ymax; /* top of the y axis (registers) */
} plot;

/* Tenths of a pixel. */
static long long col_x(const plot *P, unsigned col)
{
    return (long long)PLOT_X * 10 + (long long)col * PLOT_W * 10 / P->cols;
}

static long long item_x(const plot *P, unsigned long long item)
{
    unsigned long long n = P->n ? P->n : 1;
    return (long long)PLOT_X * 10 + (long long)(item * PLOT_W * 10 / n);
}

static long long val_y(const plot *P, unsigned long long v)
{
    return (long long)(PLOT_Y + PLOT_H) * 10 - (long long)(v * PLOT_H * 10 / P->ymax);
}

/* First item of column `col`. */
static unsigned col_first(const plot *P, unsigned col)
{
    return (unsigned)((unsigned long long)col * P->n / P->cols);
}

typedef struct label_box {
    long long x0, y0, x1, y1;
} label_box;

wa_status wa_pressure_svg(char **out, size_t *out_len, const wa_program *prog,
                          const wa_liveness *live)
{
    blocks bl;
    wa_status st = begin(&bl, out, prog, live);
    if (st != WA_OK)
        return st;
    wa_context *ctx = wa_program_context(prog);
    plot P;
    P.n = wa_program_size(prog);
    P.cols = P.n < PLOT_W ? P.n : PLOT_W;
    if (P.cols == 0)
        P.cols = 1;
    unsigned maxp[NCLASSES], maxi[NCLASSES], top = 0;
    for (unsigned c = 0; c < NCLASSES; c++) {
        maxp[c] = wa_liveness_max_pressure(live, class_of[c], &maxi[c]);
        top = umax(top, maxp[c]);
    }
    /* A class close to (or over) what the kernel can address gets its limit
       drawn as a dashed line, so the axis must reach it. */
    int show_limit[NCLASSES];
    for (unsigned c = 0; c < NCLASSES; c++) {
        show_limit[c] = maxp[c] && 4 * maxp[c] >= 3 * class_limit[c];
        if (show_limit[c])
            top = umax(top, class_limit[c]);
    }
    unsigned long long ystep = nice_step(top ? top : 1, 8);
    P.ymax = ((top ? top : 1) + ystep - 1) / ystep * ystep;
    if (P.ymax == top && top)
        P.ymax += ystep; /* leave room above the highest maximum for its label */

    /* per column: maximum pressure per class and deepest loop */
    unsigned *colv = wa_mem_calloc(ctx, (size_t)P.cols * (NCLASSES + 1), sizeof(unsigned));
    if (!colv) {
        blocks_free(ctx, &bl);
        return wa_error_nomem(ctx);
    }
    for (unsigned b = 0; b < bl.n; b++) {
        const wa_block_info *bi = &bl.info[b];
        for (unsigned i = bi->first_item; i <= bi->last_item; i++) {
            unsigned col = (unsigned)((unsigned long long)i * P.cols / P.n);
            unsigned *cv = colv + (size_t)col * (NCLASSES + 1);
            for (unsigned c = 0; c < NCLASSES; c++)
                cv[c] = umax(cv[c], wa_liveness_pressure(live, i, class_of[c]));
            cv[NCLASSES] = umax(cv[NCLASSES], bi->loop_depth);
        }
    }

    wa_sb sb;
    wa_sb_init(&sb, ctx);
    const char *tname = wa_target_name(wa_program_target(prog));
    wa_sb_printf(&sb,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                 "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
                 SVG_W, SVG_H, SVG_W, SVG_H);
    wa_sb_puts(&sb, "<title>register pressure of ");
    put_xml_text(&sb, wa_program_name(prog));
    wa_sb_puts(&sb, "</title>\n");
    wa_sb_printf(&sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", SVG_W,
                 SVG_H);
    wa_sb_printf(&sb, "<text x=\"%d\" y=\"24\" font-size=\"16\">register pressure of ", PLOT_X);
    put_xml_text(&sb, wa_program_name(prog));
    wa_sb_printf(&sb, " (%s), %u item%s", tname ? tname : "unknown target", P.n,
                 P.n == 1 ? "" : "s");
    if (P.n > P.cols)
        wa_sb_printf(&sb, ", maximum over each of %u columns", P.cols);
    wa_sb_puts(&sb, "</text>\n");

    /* loop bodies: runs of columns with the same loop depth > 0 */
    wa_sb_puts(&sb, "<g id=\"loops\" fill=\"#7f7f7f\">\n");
    for (unsigned col = 0; col < P.cols && P.n;) {
        unsigned d = colv[(size_t)col * (NCLASSES + 1) + NCLASSES], end = col + 1;
        while (end < P.cols && colv[(size_t)end * (NCLASSES + 1) + NCLASSES] == d)
            end++;
        if (d) {
            unsigned opacity = d * 12 > 48 ? 48 : d * 12; /* percent */
            unsigned last = end < P.cols ? col_first(&P, end) - 1 : P.n - 1;
            wa_sb_puts(&sb, "<rect x=\"");
            put_fixed(&sb, col_x(&P, col));
            wa_sb_printf(&sb, "\" y=\"%d\" width=\"", PLOT_Y);
            put_fixed(&sb, col_x(&P, end) - col_x(&P, col));
            wa_sb_printf(&sb, "\" height=\"%d\" fill-opacity=\"0.%02u\"><title>loop depth %u, items %u..%u</title></rect>\n",
                         PLOT_H, opacity, d, col_first(&P, col), last);
        }
        col = end;
    }
    wa_sb_puts(&sb, "</g>\n");

    /* grid, axes, ticks */
    wa_sb_puts(&sb, "<g id=\"axes\" stroke=\"#000000\" stroke-width=\"1\">\n");
    for (unsigned long long v = 0; v <= P.ymax; v += ystep) {
        long long y = val_y(&P, v);
        wa_sb_printf(&sb, "<line x1=\"%d\" x2=\"%d\" y1=\"", PLOT_X, PLOT_X + PLOT_W);
        put_fixed(&sb, y);
        wa_sb_puts(&sb, "\" y2=\"");
        put_fixed(&sb, y);
        wa_sb_printf(&sb, "\" stroke=\"%s\"/>\n", v ? "#dddddd" : "#000000");
        wa_sb_printf(&sb, "<line x1=\"%d\" x2=\"%d\" y1=\"", PLOT_X - 5, PLOT_X);
        put_fixed(&sb, y);
        wa_sb_puts(&sb, "\" y2=\"");
        put_fixed(&sb, y);
        wa_sb_puts(&sb, "\"/>\n");
    }
    unsigned long long xrange = P.n ? P.n : 1;
    unsigned long long xstep = nice_step(xrange, 10);
    for (unsigned long long v = 0; v <= xrange; v += xstep) {
        long long x = item_x(&P, v);
        wa_sb_puts(&sb, "<line x1=\"");
        put_fixed(&sb, x);
        wa_sb_puts(&sb, "\" x2=\"");
        put_fixed(&sb, x);
        wa_sb_printf(&sb, "\" y1=\"%d\" y2=\"%d\"/>\n", PLOT_Y + PLOT_H, PLOT_Y + PLOT_H + 5);
    }
    wa_sb_printf(&sb, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", PLOT_X, PLOT_X, PLOT_Y,
                 PLOT_Y + PLOT_H);
    wa_sb_puts(&sb, "</g>\n<g id=\"tick-labels\" fill=\"#000000\">\n");
    for (unsigned long long v = 0; v <= P.ymax; v += ystep) {
        wa_sb_printf(&sb, "<text x=\"%d\" y=\"", PLOT_X - 8);
        put_fixed(&sb, val_y(&P, v) + 40);
        wa_sb_printf(&sb, "\" text-anchor=\"end\">%llu</text>\n", v);
    }
    for (unsigned long long v = 0; v <= xrange; v += xstep) {
        wa_sb_puts(&sb, "<text x=\"");
        put_fixed(&sb, item_x(&P, v));
        wa_sb_printf(&sb, "\" y=\"%d\" text-anchor=\"middle\">%llu</text>\n", PLOT_Y + PLOT_H + 18,
                     v);
    }
    wa_sb_printf(&sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">item (program order)</text>\n",
                 PLOT_X + PLOT_W / 2, PLOT_Y + PLOT_H + 38);
    wa_sb_printf(&sb,
                 "<text x=\"18\" y=\"%d\" text-anchor=\"middle\" "
                 "transform=\"rotate(-90 18 %d)\">live registers</text>\n",
                 PLOT_Y + PLOT_H / 2, PLOT_Y + PLOT_H / 2);
    wa_sb_puts(&sb, "</g>\n");
    for (unsigned c = 0; c < NCLASSES; c++) {
        if (!show_limit[c] || (c == 2 && show_limit[0]))
            continue; /* VGPRs and AGPRs share the limit: one line */
        long long y = val_y(&P, class_limit[c]);
        wa_sb_printf(&sb, "<line class=\"limit\" x1=\"%d\" x2=\"%d\" y1=\"", PLOT_X, PLOT_X + PLOT_W);
        put_fixed(&sb, y);
        wa_sb_puts(&sb, "\" y2=\"");
        put_fixed(&sb, y);
        wa_sb_printf(&sb, "\" stroke=\"#555555\" stroke-dasharray=\"6 4\"/>\n<text x=\"%d\" y=\"",
                     PLOT_X + PLOT_W - 4);
        put_fixed(&sb, y + 140);
        wa_sb_printf(&sb, "\" text-anchor=\"end\" fill=\"#555555\">%u %ss%s addressable</text>\n",
                     class_limit[c], class_name[c], c == 0 && show_limit[2] ? " / AGPRs" : "");
    }
    if (P.n == 0)
        wa_sb_printf(&sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">empty program</text>\n",
                     PLOT_X + PLOT_W / 2, PLOT_Y + PLOT_H / 2);

    /* one step line per class: corners only, so flat stretches cost nothing;
       drawn AGPR, SGPR, VGPR so that VGPRs stay on top where lines coincide */
    for (unsigned c = NCLASSES; c-- > 0 && P.n;) {
        if (!maxp[c])
            continue;
        wa_sb_printf(&sb,
                     "<polyline id=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                     "stroke-linejoin=\"round\" points=\"",
                     class_name[c], class_color[c]);
        long long prev = 0;
        for (unsigned col = 0; col < P.cols; col++) {
            long long y = val_y(&P, colv[(size_t)col * (NCLASSES + 1) + c]);
            if (col == 0 || y != prev) {
                if (col) {
                    put_fixed(&sb, col_x(&P, col));
                    wa_sb_putc(&sb, ',');
                    put_fixed(&sb, prev);
                    wa_sb_putc(&sb, ' ');
                }
                put_fixed(&sb, col_x(&P, col));
                wa_sb_putc(&sb, ',');
                put_fixed(&sb, y);
                wa_sb_putc(&sb, ' ');
            }
            prev = y;
        }
        put_fixed(&sb, col_x(&P, P.cols));
        wa_sb_putc(&sb, ',');
        put_fixed(&sb, prev);
        wa_sb_puts(&sb, "\"/>\n");
    }

    /* maxima: a dot on the curve and a label that avoids the other labels */
    label_box placed[NCLASSES];
    unsigned nplaced = 0;
    wa_sb_puts(&sb, "<g id=\"maxima\">\n");
    for (unsigned c = 0; c < NCLASSES && P.n; c++) {
        if (!maxp[c] || maxi[c] == WA_NONE)
            continue;
        unsigned col = (unsigned)((unsigned long long)maxi[c] * P.cols / P.n);
        long long x = (col_x(&P, col) + col_x(&P, col + 1)) / 2, y = val_y(&P, maxp[c]);
        wa_sb_puts(&sb, "<circle cx=\"");
        put_fixed(&sb, x);
        wa_sb_puts(&sb, "\" cy=\"");
        put_fixed(&sb, y);
        wa_sb_printf(&sb, "\" r=\"4\" fill=\"%s\"><title>max %s %u at item %u (", class_color[c],
                     class_name[c], maxp[c], maxi[c]);
        {
            wa_sb tmp;
            char *where = NULL;
            wa_sb_init(&tmp, ctx);
            put_where(&tmp, prog, maxi[c]);
            if (wa_sb_finish(&tmp, &where, NULL) == WA_OK) {
                put_xml_text(&sb, where);
                wa_free(where);
            }
        }
        wa_sb_puts(&sb, ")</title></circle>\n");
        /* label text and its box (about 7 px per character at 12 px) */
        char label[64];
        wa_instr_view v;
        int len;
        if (wa_program_get(&v, prog, maxi[c]) == WA_OK && v.tag != WA_NO_TAG)
            len = snprintf(label, sizeof(label), "max %s %u @I%u", class_name[c], maxp[c],
                           (unsigned)v.tag);
        else
            len = snprintf(label, sizeof(label), "max %s %u (item %u)", class_name[c], maxp[c],
                           maxi[c]);
        if (len < 0)
            len = 0;
        long long w = (long long)len * 70;
        int right = x + 80 + w <= (long long)(PLOT_X + PLOT_W) * 10;
        label_box bx;
        bx.x0 = right ? x + 80 : x - 80 - w;
        bx.x1 = bx.x0 + w;
        bx.y1 = y - 40;
        bx.y0 = bx.y1 - 120;
        if (bx.y0 < (long long)PLOT_Y * 10 - 200) {
            bx.y0 = (long long)PLOT_Y * 10 - 200;
            bx.y1 = bx.y0 + 120;
        }
        for (int moved = 1; moved;) {
            moved = 0;
            for (unsigned k = 0; k < nplaced; k++) {
                if (bx.x0 < placed[k].x1 && placed[k].x0 < bx.x1 && bx.y0 < placed[k].y1 &&
                    placed[k].y0 < bx.y1) {
                    bx.y0 = placed[k].y1 + 20;
                    bx.y1 = bx.y0 + 120;
                    moved = 1;
                }
            }
        }
        placed[nplaced++] = bx;
        wa_sb_puts(&sb, "<text x=\"");
        put_fixed(&sb, bx.x0);
        wa_sb_puts(&sb, "\" y=\"");
        put_fixed(&sb, bx.y1 - 20);
        wa_sb_printf(&sb, "\" fill=\"%s\">", class_color[c]);
        put_xml_text(&sb, label);
        wa_sb_puts(&sb, "</text>\n");
    }
    wa_sb_puts(&sb, "</g>\n");

    /* legend, below the x axis label */
    wa_sb_puts(&sb, "<g id=\"legend\">\n");
    int lx = PLOT_X, ly = SVG_H - 22;
    for (unsigned c = 0; c < NCLASSES; c++) {
        wa_sb_printf(&sb,
                     "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" "
                     "stroke-width=\"3\"/>\n",
                     lx, lx + 24, ly - 4, ly - 4, class_color[c]);
        wa_sb_printf(&sb, "<text x=\"%d\" y=\"%d\">%s (max %u)</text>\n", lx + 30, ly,
                     class_name[c], maxp[c]);
        lx += 170;
    }
    wa_sb_printf(&sb,
                 "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"12\" fill=\"#7f7f7f\" "
                 "fill-opacity=\"0.24\"/>\n",
                 lx, ly - 10);
    wa_sb_printf(&sb, "<text x=\"%d\" y=\"%d\">loop body (darker: deeper)</text>\n", lx + 30, ly);
    wa_sb_puts(&sb, "</g>\n</svg>\n");

    wa_mem_free(ctx, colv);
    blocks_free(ctx, &bl);
    return wa_sb_finish(&sb, out, out_len);
}
