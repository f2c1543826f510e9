/* lib/conductor/commands.c — the command language (move/swap/done), one
   round of commands applied all or nothing, and its report. */
#include "conductor_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

enum { CMD_AFTER = 0, CMD_BEFORE, CMD_SWAP };

typedef struct command {
    unsigned kind;
    unsigned x, y;          /* tags */
    unsigned line;
} command;

typedef struct lexer {
    const char *p, *end, *line_start;
    unsigned line;
} lexer;

static void skip_blank(lexer *lx)
{
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\r' || *lx->p == ','))
        lx->p++;
    if (lx->p < lx->end && *lx->p == '#')
        while (lx->p < lx->end && *lx->p != '\n')
            lx->p++;
}

static unsigned col(const lexer *lx)
{
    return (unsigned)(lx->p - lx->line_start) + 1;
}

static wa_status perr(wa_schedule *s, const lexer *lx, const char *what)
{
    wa_loc loc = { "<commands>", lx->line, col(lx), WA_NO_TAG };
    return wa_error(s->ctx, WA_E_PARSE, loc, "%s", what);
}

/* A word: letters, digits, '_' and '@'. */
static size_t word(const lexer *lx)
{
    size_t n = 0;
    while (lx->p + n < lx->end &&
           (isalnum((unsigned char)lx->p[n]) || lx->p[n] == '_' || lx->p[n] == '@'))
        n++;
    return n;
}

static int word_is(const lexer *lx, size_t n, const char *w)
{
    return n == strlen(w) && strncmp(lx->p, w, n) == 0;
}

static wa_status parse_tag(wa_schedule *s, lexer *lx, unsigned *out)
{
    skip_blank(lx);
    size_t n = word(lx);
    const char *q = lx->p;
    size_t k = 0;
    if (k < n && q[k] == '@')
        k++;
    if (k < n && (q[k] == 'I' || q[k] == 'i'))
        k++;
    else
        return perr(s, lx, "expected an instruction tag (I<n>)");
    if (k == n)
        return perr(s, lx, "expected an instruction tag (I<n>)");
    unsigned long v = 0;
    for (; k < n; k++) {
        if (!isdigit((unsigned char)q[k]))
            return perr(s, lx, "expected an instruction tag (I<n>)");
        v = v * 10 + (unsigned long)(q[k] - '0');
        if (v > 0xFFFFFFF0ul)
            return perr(s, lx, "tag number out of range");
    }
    *out = (unsigned)v;
    lx->p += n;
    return WA_OK;
}

/* Parses every command; stops at `done`. */
static wa_status parse_commands(wa_schedule *s, const char *text, size_t len, command **out,
                                unsigned *count, int *done)
{
    lexer lx = { text, text + len, text, 1 };
    command *cmds = NULL;
    unsigned n = 0, cap = 0;
    *done = 0;
    wa_status st = WA_OK;
    while (lx.p < lx.end && !*done && !st) {
        skip_blank(&lx);
        if (lx.p >= lx.end)
            break;
        if (*lx.p == '\n') {
            lx.p++;
            lx.line++;
            lx.line_start = lx.p;
            continue;
        }
        /* markdown fences around the commands */
        if (lx.end - lx.p >= 3 && strncmp(lx.p, "```", 3) == 0) {
            while (lx.p < lx.end && *lx.p != '\n')
                lx.p++;
            continue;
        }
        size_t w = word(&lx);
        command c;
        memset(&c, 0, sizeof(c));
        c.line = lx.line;
        if (word_is(&lx, w, "done")) {
            lx.p += w;
            *done = 1;
        } else if (word_is(&lx, w, "move")) {
            lx.p += w;
            st = parse_tag(s, &lx, &c.x);
            if (st)
                break;
            skip_blank(&lx);
            size_t w2 = word(&lx);
            if (word_is(&lx, w2, "after"))
                c.kind = CMD_AFTER;
            else if (word_is(&lx, w2, "before"))
                c.kind = CMD_BEFORE;
            else {
                st = perr(s, &lx, "expected 'after' or 'before'");
                break;
            }
            lx.p += w2;
            st = parse_tag(s, &lx, &c.y);
        } else if (word_is(&lx, w, "swap")) {
            lx.p += w;
            c.kind = CMD_SWAP;
            st = parse_tag(s, &lx, &c.x);
            if (!st)
                st = parse_tag(s, &lx, &c.y);
        } else {
            st = perr(s, &lx, "expected 'move', 'swap' or 'done'");
            break;
        }
        if (st)
            break;
        skip_blank(&lx);
        if (lx.p < lx.end && *lx.p != '\n') {
            st = perr(s, &lx, "unexpected text after the command");
            break;
        }
        if (!*done) {
            if (wa_grow(s->ctx, (void **)&cmds, &cap, n + 1, sizeof(command))) {
                st = wa_error_nomem(s->ctx);
                break;
            }
            cmds[n++] = c;
        }
    }
    *count = n;
    if (st) {
        wa_mem_free(s->ctx, cmds);
        return st;
    }
    *out = cmds;
    *count = n;
    return WA_OK;
}

static void print_command(wa_sb *sb, const command *c)
{
    if (c->kind == CMD_SWAP)
        wa_sb_printf(sb, "swap I%u I%u", c->x, c->y);
    else
        wa_sb_printf(sb, "move I%u %s I%u", c->x, c->kind == CMD_AFTER ? "after" : "before", c->y);
}

static unsigned node_of(const wa_schedule *s, unsigned tag)
{
    return tag < s->ntags ? s->tag_node[tag] : WA_NONE;
}

/* One command: resolve, check, apply. */
static wa_status apply_one(wa_schedule *s, const command *c, unsigned idx, char *why, size_t len)
{
    unsigned x = node_of(s, c->x), y = node_of(s, c->y);
    if (x == WA_NONE) {
        snprintf(why, len, "no instruction I%u", c->x);
        return WA_E_INVALID;
    }
    if (y == WA_NONE) {
        snprintf(why, len, "no instruction I%u", c->y);
        return WA_E_INVALID;
    }
    if (x == y) {
        snprintf(why, len, "I%u named twice", c->x);
        return WA_E_INVALID;
    }
    if (s->node[x].block != s->node[y].block) {
        snprintf(why, len, "I%u and I%u are in different basic blocks", c->x, c->y);
        return WA_E_INVALID;
    }
    unsigned px = s->pos[x], py = s->pos[y];
    if (c->kind == CMD_AFTER)
        return wa_sched_move(s, x, px < py ? py : py + 1, idx, why, len);
    if (c->kind == CMD_BEFORE)
        return wa_sched_move(s, x, px < py ? py - 1 : py, idx, why, len);
    /* swap: the earlier one goes where the later one is, then the later one
       where the earlier one was */
    unsigned a = px < py ? x : y, b = px < py ? y : x;
    unsigned pa = s->pos[a], pb = s->pos[b];
    if (s->node[b].flags & WA_SN_PINNED) {
        snprintf(why, len, "I%u (%s) is pinned", wa_sched_tag(s, b), wa_sched_mnemonic(s, b));
        return WA_E_INVALID;
    }
    wa_status st = wa_sched_move(s, a, pb, idx, why, len);
    if (!st)
        st = wa_sched_move(s, b, pa, idx, why, len);
    return st;
}

wa_status wa_schedule_apply(wa_sched_round *out, wa_schedule *s, const char *text, size_t len)
{
    if (!s || (!text && len))
        return WA_E_INVALID;
    wa_diag_reset(s->ctx);
    wa_sched_round r;
    memset(&r, 0, sizeof(r));
    r.version = WA_SCHED_ROUND_VERSION;
    r.failed = -1;
    s->nwarns = 0;
    s->warn_text.len = 0;
    s->report.len = 0;
    if (s->report.data)
        s->report.data[0] = '\0';
    s->have_report = 1;
    command *cmds = NULL;
    unsigned n = 0;
    int done = 0;
    wa_status st = parse_commands(s, text ? text : "", len, &cmds, &n, &done);
    if (st) {
        const wa_diag *d = wa_context_last_diag(s->ctx);
        wa_sb_printf(&s->report, "error: %s:%u:%u: %s\nnothing applied\n", "<commands>",
                     d ? d->line : 0, d ? d->col : 0, d ? d->message : "bad command text");
        r.failed = (int)n; /* the command whose text is bad */
        if (out)
            *out = r;
        return st;
    }
    r.commands = n;
    r.done = done;
    unsigned *saved = wa_mem_alloc(s->ctx, (s->n ? s->n : 1) * sizeof(unsigned));
    if (!saved) {
        wa_mem_free(s->ctx, cmds);
        return wa_error_nomem(s->ctx);
    }
    memcpy(saved, s->at, s->n * sizeof(unsigned));
    char why[512];
    unsigned k;
    for (k = 0; k < n; k++) {
        why[0] = '\0';
        st = apply_one(s, &cmds[k], k, why, sizeof(why));
        if (st)
            break;
    }
    if (k)
        wa_sb_puts(&s->report, "applied:");
    for (unsigned j = 0; j < k; j++) {
        wa_sb_puts(&s->report, j ? ", " : " ");
        print_command(&s->report, &cmds[j]);
    }
    if (k)
        wa_sb_putc(&s->report, '\n');
    if (st) {
        r.failed = (int)k;
        r.applied = k;
        wa_sched_set_order(s, saved);
        s->nwarns = 0;
        s->warn_text.len = 0;
        wa_sb_puts(&s->report, "failed: ");
        print_command(&s->report, &cmds[k]);
        wa_sb_printf(&s->report, " -- %s\nall commands of the round reverted\n", why);
        wa_loc loc = { "<commands>", cmds[k].line, 1, cmds[k].x };
        st = wa_error(s->ctx, WA_E_INVALID, loc, "%s", why);
    } else {
        r.applied = n;
        s->last_cmds.len = 0;
        if (s->last_cmds.data)
            s->last_cmds.data[0] = '\0';
        for (unsigned j = 0; j < n; j++) {
            print_command(&s->last_cmds, &cmds[j]);
            wa_sb_putc(&s->last_cmds, '\n');
        }
    }
    static const char *const sev[3] = { "info", "warn", "critical" };
    for (unsigned w = 0; w < s->nwarns; w++) {
        wa_sb_printf(&s->report, "%s: ", sev[s->warns[w].severity]);
        print_command(&s->report, &cmds[s->warns[w].command]);
        wa_sb_printf(&s->report, " -- %s\n", s->warn_text.data + s->warns[w].msg);
    }
    r.warnings = s->nwarns;
    wa_mem_free(s->ctx, saved);
    wa_mem_free(s->ctx, cmds);
    if (out)
        *out = r;
    return st;
}
