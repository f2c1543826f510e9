/* lib/conductor/profile.c — measured per-instruction figures (a profiler's CSV,
   correlated by tag) shown to the oracle next to the regions. */
#include "conductor_internal.h"

#include <stdio.h>
#include <string.h>

/* Columns the prompt shows, in this order. */
static const char *const columns[WA_SCHED_PROFILE_COLS] = { "hits", "lat_min", "lat_mean",
                                                             "lat_max" };

static wa_status csv_error(wa_schedule *s, unsigned line, unsigned col, const char *what)
{
    wa_loc loc = { "<profile>", line, col, WA_NO_TAG };
    return wa_error(s->ctx, WA_E_PARSE, loc, "%s", what);
}

/* Splits one line at commas into [start, end) fields; returns the count. */
static unsigned split(const char *p, const char *end, const char **fs, const char **fe,
                      unsigned max)
{
    unsigned n = 0;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        const char *q = p;
        while (q < end && *q != ',')
            q++;
        const char *e = q;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (n < max) {
            fs[n] = p;
            fe[n] = e;
        }
        n++;
        if (q >= end)
            break;
        p = q + 1;
    }
    return n;
}

static int field_is(const char *a, const char *e, const char *w)
{
    return (size_t)(e - a) == strlen(w) && strncmp(a, w, (size_t)(e - a)) == 0;
}

wa_status wa_schedule_set_profile(wa_schedule *s, const char *csv, size_t len)
{
    if (!s || (!csv && len))
        return WA_E_INVALID;
    wa_diag_reset(s->ctx);
    wa_mem_free(s->ctx, s->profile);
    s->profile = NULL;
    if (!len)
        return WA_OK;
    uint64_t *prof = wa_mem_calloc(s->ctx, s->n ? s->n : 1, sizeof(uint64_t) * (WA_SCHED_PROFILE_COLS + 1));
    if (!prof)
        return wa_error_nomem(s->ctx);
    int col_of[WA_SCHED_PROFILE_COLS];
    int tag_col = -1;
    const char *p = csv, *end = csv + len;
    unsigned line = 0;
    int have_header = 0;
    wa_status st = WA_OK;
    while (p < end && !st) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        line++;
        const char *fs[64], *fe[64];
        const char *q = p;
        while (q < le && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (q < le && *q != '#') {
            unsigned nf = split(p, le, fs, fe, 64);
            if (nf > 64) {
                st = csv_error(s, line, 1, "more than 64 columns");
                break;
            }
            if (!have_header) {
                for (unsigned c = 0; c < WA_SCHED_PROFILE_COLS; c++)
                    col_of[c] = -1;
                for (unsigned f = 0; f < nf; f++) {
                    if (field_is(fs[f], fe[f], "tag"))
                        tag_col = (int)f;
                    for (unsigned c = 0; c < WA_SCHED_PROFILE_COLS; c++)
                        if (field_is(fs[f], fe[f], columns[c]))
                            col_of[c] = (int)f;
                }
                if (tag_col < 0) {
                    st = csv_error(s, line, 1, "the header names no 'tag' column");
                    break;
                }
                have_header = 1;
            } else {
                if ((int)nf <= tag_col) {
                    st = csv_error(s, line, 1, "missing the 'tag' field");
                    break;
                }
                const char *t = fs[tag_col], *te = fe[tag_col];
                if (t < te && *t == '@')
                    t++;
                if (t < te && (*t == 'I' || *t == 'i'))
                    t++;
                unsigned long tag = 0;
                if (t == te)
                    st = csv_error(s, line, (unsigned)(fs[tag_col] - p) + 1, "bad tag");
                for (; t < te && !st; t++) {
                    if (*t < '0' || *t > '9' || tag > 100000000ul)
                        st = csv_error(s, line, (unsigned)(t - p) + 1, "bad tag");
                    tag = tag * 10 + (unsigned long)(*t - '0');
                }
                if (st)
                    break;
                unsigned nd = tag < s->ntags ? s->tag_node[tag] : WA_NONE;
                uint64_t *row = nd == WA_NONE ? NULL : prof + (size_t)nd * (WA_SCHED_PROFILE_COLS + 1);
                for (unsigned c = 0; c < WA_SCHED_PROFILE_COLS && !st; c++) {
                    if (col_of[c] < 0 || col_of[c] >= (int)nf)
                        continue;
                    const char *v = fs[col_of[c]], *ve = fe[col_of[c]];
                    uint64_t x = 0;
                    int digits = 0;
                    for (; v < ve && *v >= '0' && *v <= '9'; v++, digits++)
                        x = x * 10 + (uint64_t)(*v - '0');
                    if (v < ve && *v == '.') /* a mean may have decimals: cut them */
                        for (v++; v < ve && *v >= '0' && *v <= '9'; v++)
                            ;
                    if (!digits || v != ve) {
                        st = csv_error(s, line, (unsigned)(fs[col_of[c]] - p) + 1,
                                       "expected a number");
                        break;
                    }
                    if (row)
                        row[c + 1] = x;
                }
                if (row)
                    row[0] = 1;
            }
        }
        p = nl ? nl + 1 : end;
    }
    if (!st && !have_header)
        st = csv_error(s, line ? line : 1, 1, "no header line");
    if (st) {
        wa_mem_free(s->ctx, prof);
        return st;
    }
    s->profile = prof;
    return WA_OK;
}

void wa_sched_print_profile(wa_sb *sb, const wa_schedule *s)
{
    if (!s->profile)
        return;
    wa_sb_puts(sb, "; profile (previous run):\n");
    for (unsigned r = 0; r < s->nregions; r++) {
        unsigned b = s->region_block[r];
        for (unsigned i = s->bfirst[b]; i <= s->blast[b]; i++) {
            unsigned nd = s->at[i];
            const uint64_t *row = s->profile + (size_t)nd * (WA_SCHED_PROFILE_COLS + 1);
            if (!row[0])
                continue;
            wa_sb_printf(sb, ";   I%u %s", wa_sched_tag(s, nd), wa_sched_mnemonic(s, nd));
            for (unsigned c = 0; c < WA_SCHED_PROFILE_COLS; c++)
                wa_sb_printf(sb, " %s=%llu", columns[c], (unsigned long long)row[c + 1]);
            wa_sb_putc(sb, '\n');
        }
    }
}
