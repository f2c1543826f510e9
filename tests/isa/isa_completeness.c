/* tests/isa/isa_completeness.c — the ISA table against the instruction set LLVM 22
   decodes (tests/isa/llvm-isa.tsv, derived by derive_isa.c) and the exclusion list
   (tests/isa/exclusions.tsv). Needs no LLVM at test time.

   Checked for every family:
     - every row of the table, on every target where it is available, is an
       instruction LLVM decodes on that target in the row's encoding (the
       mnemonic of wa_isa_mnemonic, the lds form where the row is one), and its
       opcode field (encoding_gfx90a on gfx90a) is LLVM's;
     - no excluded instruction has a row.
   Checked for the completed families (`done` below) in addition:
     - every instruction LLVM decodes on a target, not excluded, is a row
       available on that target;
     - the modifiers a row allows agree with what LLVM decodes: DPP and SDWA forms
       (VOP1/VOP2/VOPC), the glc bit (memory), SMEM immediate and SGPR offsets.

   It prints, per family and target, how many instructions LLVM has (not
   excluded), how many the table has, how many of those the simulator executes,
   and how many are excluded; --markdown prints the same as the table in
   docs/isa-table.md.

   usage: wa_isa_completeness --tsv FILE --exclusions FILE [--markdown] [--verbose] */
#define _POSIX_C_SOURCE 200809L
#include <waveasm/isa.h>
#include <waveasm/sim.h>

#include "isa_families.h"

#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The families whose every instruction is in the table: isa_families.h. */
#define done wa_done_families

static const char *const families[] = { "SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM",
                                        "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "MAI",
                                        "DS", "MUBUF", "GLOBAL", "FLAT", "SCRATCH" };
#define NFAM (sizeof(families) / sizeof(families[0]))

static const wa_target targets[] = { WA_TARGET_GFX90A, WA_TARGET_GFX942, WA_TARGET_GFX950 };
#define NTGT (sizeof(targets) / sizeof(targets[0]))

typedef struct dline {
    unsigned t;         /* index in targets[] */
    char enc[16];
    unsigned op;
    char mn[96];
    char sample[256];
    char flags[256];
    int lds;
    int excluded;
    int row;            /* matching table row, -1 if none */
} dline;

typedef struct excl {
    regex_t re;
    char pattern[160];
    char reason[400];
    unsigned hits;
} excl;

static unsigned errors;
static int verbose;

#if defined(__GNUC__) || defined(__clang__)
#define ISA_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define ISA_PRINTF(fmt, args)
#endif
static void fail(const char *fmt, ...) ISA_PRINTF(1, 2);
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("error: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    errors++;
}

static int is_done(const char *fam)
{
    return wa_family_done(fam);
}

static int fam_index(const char *fam)
{
    for (unsigned i = 0; i < NFAM; i++)
        if (strcmp(families[i], fam) == 0)
            return (int)i;
    return -1;
}

static int has_flag(const char *flags, const char *f)
{
    size_t n = strlen(f);
    for (const char *p = flags; (p = strstr(p, f)) != NULL; p++)
        if ((p == flags || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

/* ---- reading the files --------------------------------------------------------------- */

static char *next_field(char **p)
{
    char *s = *p, *tab = s ? strchr(s, '\t') : NULL;
    if (tab) {
        *tab = '\0';
        *p = tab + 1;
    } else {
        *p = NULL;
    }
    return s;
}

static dline *read_tsv(const char *path, unsigned *out_n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return NULL;
    }
    dline *d = NULL;
    unsigned n = 0, cap = 0;
    char buf[1024];
    unsigned lineno = 0;
    while (fgets(buf, sizeof(buf), f)) {
        lineno++;
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] == '#' || buf[0] == '\0')
            continue;
        char *p = buf;
        char *tgt = next_field(&p), *enc = next_field(&p), *op = next_field(&p);
        char *mn = next_field(&p), *sample = next_field(&p), *flags = next_field(&p);
        if (!tgt || !enc || !op || !mn || !sample || !flags) {
            fail("%s:%u: expected 6 tab-separated fields", path, lineno);
            continue;
        }
        int t = -1;
        for (unsigned i = 0; i < NTGT; i++)
            if (strcmp(wa_target_name(targets[i]), tgt) == 0)
                t = (int)i;
        if (t < 0 || fam_index(enc) < 0) {
            fail("%s:%u: unknown target '%s' or encoding '%s'", path, lineno, tgt, enc);
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            dline *nd = realloc(d, cap * sizeof(dline));
            if (!nd) {
                free(d);
                fclose(f);
                return NULL;
            }
            d = nd;
        }
        dline *l = &d[n++];
        memset(l, 0, sizeof(*l));
        l->t = (unsigned)t;
        snprintf(l->enc, sizeof(l->enc), "%s", enc);
        l->op = (unsigned)strtoul(op, NULL, 16);
        snprintf(l->mn, sizeof(l->mn), "%s", mn);
        snprintf(l->sample, sizeof(l->sample), "%s", sample);
        snprintf(l->flags, sizeof(l->flags), "%s", flags);
        l->lds = has_flag(flags, "lds");
        l->row = -1;
    }
    fclose(f);
    *out_n = n;
    return d;
}

static excl *read_exclusions(const char *path, unsigned *out_n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return NULL;
    }
    excl *x = calloc(64, sizeof(excl));
    unsigned n = 0;
    char buf[1024];
    while (x && fgets(buf, sizeof(buf), f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] == '#' || buf[0] == '\0')
            continue;
        char *tab = strchr(buf, '\t');
        if (!tab || n == 64) {
            fail("%s: '%s': expected PATTERN<TAB>REASON (at most 64 lines)", path, buf);
            continue;
        }
        *tab = '\0';
        char anchored[200];
        snprintf(anchored, sizeof(anchored), "^(%.150s)$", buf);
        if (regcomp(&x[n].re, anchored, REG_EXTENDED | REG_NOSUB) != 0) {
            fail("%s: bad pattern '%s'", path, buf);
            continue;
        }
        snprintf(x[n].pattern, sizeof(x[n].pattern), "%.150s", buf);
        snprintf(x[n].reason, sizeof(x[n].reason), "%.390s", tab + 1);
        n++;
    }
    fclose(f);
    *out_n = n;
    return x;
}

/* ---- matching ----------------------------------------------------------------------------- */

/* The derived line a row is on target t, or NULL. */
static dline *find_line(dline *d, unsigned n, unsigned op, unsigned t)
{
    const wa_isa_info *info = wa_isa_get(op);
    const char *fam = wa_format_name(info->format);
    const char *mn = wa_isa_mnemonic(op, targets[t]);
    int lds = (info->flags & WA_IF_LDS_DMA) != 0;
    for (unsigned i = 0; i < n; i++)
        if (d[i].t == t && d[i].lds == lds && strcmp(d[i].enc, fam) == 0 &&
            strcmp(d[i].mn, mn) == 0)
            return &d[i];
    return NULL;
}

/* What LLVM decodes and the row allows must agree (completed families only). */
static void check_capabilities(const dline *l, unsigned op)
{
    const wa_isa_info *info = wa_isa_get(op);
    const char *tn = wa_target_name(targets[l->t]);
    static const struct {
        const char *flag;
        unsigned modok;
        unsigned formats; /* bit per wa_format where the flag is derived */
    } caps[] = {
        { "dpp", WA_MODOK_DPP, 1u << WA_FMT_VOP1 | 1u << WA_FMT_VOP2 | 1u << WA_FMT_VOPC },
        { "sdwa", WA_MODOK_SDWA, 1u << WA_FMT_VOP1 | 1u << WA_FMT_VOP2 | 1u << WA_FMT_VOPC },
        { "glc", WA_MODOK_GLC,
          1u << WA_FMT_SMEM | 1u << WA_FMT_MUBUF | 1u << WA_FMT_GLOBAL | 1u << WA_FMT_FLAT |
              1u << WA_FMT_SCRATCH },
    };
    for (unsigned i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
        if (!(caps[i].formats >> info->format & 1u))
            continue;
        int llvm = has_flag(l->flags, caps[i].flag), table = (info->mods_ok & caps[i].modok) != 0;
        if (llvm != table)
            fail("%s on %s: LLVM %s the %s form, the table %s", info->mnemonic, tn,
                 llvm ? "decodes" : "does not decode", caps[i].flag,
                 table ? "allows it" : "does not allow it");
    }
    if (info->format == WA_FMT_SMEM) {
        for (unsigned k = 0; k < info->num_operands; k++) {
            if (!info->operands[k].name || strcmp(info->operands[k].name, "soffset") != 0)
                continue;
            unsigned c = info->operands[k].classes;
            if (has_flag(l->flags, "imm") != ((c & WA_OC_IMM) != 0))
                fail("%s on %s: immediate offsets: LLVM %d, the table %d", info->mnemonic, tn,
                     has_flag(l->flags, "imm"), (c & WA_OC_IMM) != 0);
            if (has_flag(l->flags, "soffset") != ((c & WA_OC_SGPR) != 0))
                fail("%s on %s: SGPR offsets: LLVM %d, the table %d", info->mnemonic, tn,
                     has_flag(l->flags, "soffset"), (c & WA_OC_SGPR) != 0);
        }
    }
}

/* ---- counts -------------------------------------------------------------------------------- */

typedef struct counts {
    unsigned llvm, table, sim, excluded;
} counts;

static void print_counts(counts c[NFAM][NTGT], int markdown)
{
    counts total[NTGT];
    memset(total, 0, sizeof(total));
    if (markdown) {
        printf("| family | done |");
        for (unsigned t = 0; t < NTGT; t++)
            printf(" %s LLVM | table | sim | excl. |", wa_target_name(targets[t]));
        printf("\n|---|---|");
        for (unsigned t = 0; t < NTGT; t++)
            printf("---:|---:|---:|---:|");
        printf("\n");
    } else {
        printf("%-8s %-4s", "family", "done");
        for (unsigned t = 0; t < NTGT; t++)
            printf("  %6s: llvm table  sim excl", wa_target_name(targets[t]));
        printf("\n");
    }
    for (unsigned f = 0; f < NFAM; f++) {
        if (markdown)
            printf("| %s | %s |", families[f], is_done(families[f]) ? "yes" : "");
        else
            printf("%-8s %-4s", families[f], is_done(families[f]) ? "yes" : "");
        for (unsigned t = 0; t < NTGT; t++) {
            const counts *k = &c[f][t];
            total[t].llvm += k->llvm;
            total[t].table += k->table;
            total[t].sim += k->sim;
            total[t].excluded += k->excluded;
            if (markdown)
                printf(" %u | %u | %u | %u |", k->llvm, k->table, k->sim, k->excluded);
            else
                printf("          %4u  %4u %4u %4u", k->llvm, k->table, k->sim, k->excluded);
        }
        printf("\n");
    }
    if (markdown)
        printf("| **all** | |");
    else
        printf("%-8s %-4s", "all", "");
    for (unsigned t = 0; t < NTGT; t++) {
        if (markdown)
            printf(" %u | %u | %u | %u |", total[t].llvm, total[t].table, total[t].sim,
                   total[t].excluded);
        else
            printf("          %4u  %4u %4u %4u", total[t].llvm, total[t].table, total[t].sim,
                   total[t].excluded);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    const char *tsv = NULL, *exc = NULL;
    int markdown = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tsv") == 0 && i + 1 < argc)
            tsv = argv[++i];
        else if (strcmp(argv[i], "--exclusions") == 0 && i + 1 < argc)
            exc = argv[++i];
        else if (strcmp(argv[i], "--markdown") == 0)
            markdown = 1;
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else {
            fprintf(stderr, "usage: wa_isa_completeness --tsv FILE --exclusions FILE [--markdown] [--verbose]\n");
            return 2;
        }
    }
    if (!tsv || !exc) {
        fprintf(stderr, "usage: wa_isa_completeness --tsv FILE --exclusions FILE [--markdown] [--verbose]\n");
        return 2;
    }
    unsigned n = 0, nx = 0;
    dline *d = read_tsv(tsv, &n);
    excl *x = read_exclusions(exc, &nx);
    if (!d || !x)
        return 1;

    for (unsigned i = 0; i < n; i++) {
        char key[128];
        snprintf(key, sizeof(key), "%s %s", d[i].enc, d[i].mn);
        for (unsigned e = 0; e < nx; e++)
            if (regexec(&x[e].re, key, 0, NULL, 0) == 0) {
                d[i].excluded = 1;
                x[e].hits++;
                break;
            }
    }

    /* Rows against LLVM's lines. */
    for (unsigned op = 0; op < wa_isa_count(); op++) {
        const wa_isa_info *info = wa_isa_get(op);
        if (info->flags & WA_IF_PSEUDO)
            continue;
        const char *fam = wa_format_name(info->format);
        for (unsigned t = 0; t < NTGT; t++) {
            if (!wa_isa_available(op, targets[t]))
                continue;
            const char *tn = wa_target_name(targets[t]);
            dline *l = find_line(d, n, op, t);
            if (!l) {
                fail("%s (%s%s) on %s: LLVM decodes no such %s instruction there", info->id,
                     wa_isa_mnemonic(op, targets[t]), (info->flags & WA_IF_LDS_DMA) ? " lds" : "",
                     tn, fam);
                continue;
            }
            if (l->row >= 0 && l->row != (int)op) {
                fail("%s on %s: rows %s and %s are the same instruction", l->mn, tn,
                     wa_isa_get((unsigned)l->row)->id, info->id);
                continue;
            }
            l->row = (int)op;
            unsigned want = targets[t] == WA_TARGET_GFX90A ? info->encoding_gfx90a : info->encoding;
            if (want != l->op)
                fail("%s on %s: opcode 0x%x in the table, 0x%x in LLVM's %s encoding", info->id, tn,
                     want, l->op, fam);
            if (l->excluded)
                fail("%s on %s: excluded (exclusions.tsv) but in the table", info->id, tn);
            if (is_done(fam))
                check_capabilities(l, op);
        }
    }

    /* LLVM's lines against the rows; counts. */
    static counts c[NFAM][NTGT];
    for (unsigned i = 0; i < n; i++) {
        const dline *l = &d[i];
        int f = fam_index(l->enc);
        counts *k = &c[f][l->t];
        if (l->excluded) {
            k->excluded++;
            continue;
        }
        k->llvm++;
        if (l->row >= 0) {
            k->table++;
            if (!wa_sim_unsupported((unsigned)l->row))
                k->sim++;
        } else if (is_done(l->enc)) {
            fail("%s%s (%s, opcode 0x%x) on %s: no row (family %s is complete), e.g. `%s`",
                 l->mn, l->lds ? " lds" : "", l->enc, l->op, wa_target_name(targets[l->t]), l->enc,
                 l->sample);
        } else if (verbose) {
            printf("missing (family not complete): %s %s %s\n", wa_target_name(targets[l->t]),
                   l->enc, l->mn);
        }
    }
    for (unsigned e = 0; e < nx; e++)
        if (verbose)
            printf("exclusion '%s': %u lines\n", x[e].pattern, x[e].hits);

    print_counts(c, markdown);
    if (!markdown) {
        printf("completed families:");
        for (unsigned i = 0; i < sizeof(done) / sizeof(done[0]); i++)
            printf(" %s", done[i]);
        printf("\n");
    }
    for (unsigned e = 0; e < nx; e++)
        regfree(&x[e].re);
    free(x);
    free(d);
    if (errors) {
        printf("isa completeness: %u errors\n", errors);
        return 1;
    }
    if (!markdown)
        printf("isa completeness: the table agrees with LLVM's instruction list\n");
    return 0;
}
