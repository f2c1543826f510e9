/* tests/toolchain/tc_common.c — see tc_common.h. */
#include "tc_common.h"

#include <stdlib.h>
#include <string.h>

const wa_target tc_targets[TC_NUM_TARGETS] = { WA_TARGET_GFX90A, WA_TARGET_GFX942,
                                               WA_TARGET_GFX950 };

wa_program *tc_single_program(wa_context *ctx, wa_target target, wa_opcode op,
                              const wa_operand *ops, unsigned nops, const wa_mods *mods,
                              wa_status *status)
{
    wa_program *prog = NULL;
    wa_label label;
    wa_status st = wa_program_create(&prog, ctx, "wa_sample");
    if (st == WA_OK)
        st = wa_program_set_target(prog, target);
    if (st == WA_OK)
        st = wa_program_label_create(&label, prog, TC_LABEL_NAME);
    if (st == WA_OK)
        st = wa_build_label(prog, label);
    if (st == WA_OK)
        st = wa_build(NULL, prog, op, ops, nops, mods);
    if (st == WA_OK && op != WA_OP_S_ENDPGM)
        st = wa_build_sopp(NULL, prog, WA_OP_S_ENDPGM, 0);
    if (status)
        *status = st;
    if (st != WA_OK) {
        wa_program_destroy(prog);
        return NULL;
    }
    return prog;
}

const char *tc_diags(const wa_context *ctx)
{
    static char buf[2048];
    size_t len = 0;
    buf[0] = '\0';
    unsigned n = wa_context_diag_count(ctx);
    for (unsigned i = 0; i < n && len + 1 < sizeof(buf); i++) {
        const wa_diag *d = wa_context_diag(ctx, i);
        int w = snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " | " : "", d->message);
        if (w < 0)
            break;
        len += (size_t)w;
        if (len >= sizeof(buf))
            len = sizeof(buf) - 1;
    }
    return buf;
}

static char *dup_range(const char *s, size_t n)
{
    char *r = malloc(n + 1);
    if (!r)
        return NULL;
    memcpy(r, s, n);
    r[n] = '\0';
    return r;
}

char *tc_emit_first_instr(const wa_program *prog, char *err, size_t errlen)
{
    wa_emit_options eo = WA_EMIT_OPTIONS_INIT;
    eo.flags = 0;
    char *text = NULL;
    size_t len = 0;
    if (wa_emit_asm(&text, &len, prog, &eo) != WA_OK) {
        snprintf(err, errlen, "wa_emit_asm failed: %s", tc_diags(wa_program_context(prog)));
        return NULL;
    }
    /* The body starts after "<name>:" and ends at ".Lwa_end_<name>:". */
    char head[300];
    snprintf(head, sizeof(head), "\n%s:\n", wa_program_name(prog));
    const char *p = strstr(text, head);
    char *result = NULL;
    if (p) {
        p += strlen(head);
        while (*p && !result) {
            const char *eol = strchr(p, '\n');
            size_t n = eol ? (size_t)(eol - p) : strlen(p);
            if (n > 1 && p[0] == '\t')
                result = dup_range(p + 1, n - 1);
            else if (n > 0 && p[0] == '.')
                break; /* end of the body */
            p = eol ? eol + 1 : p + n;
        }
    }
    if (!result)
        snprintf(err, errlen, "no instruction found in the emitted assembly");
    wa_free(text);
    return result;
}

char *tc_print_item(const wa_program *prog, unsigned index)
{
    wa_print_options po = WA_PRINT_OPTIONS_INIT;
    po.flags = 0;
    char *text = NULL;
    if (wa_program_print_item(&text, prog, index, &po) != WA_OK)
        return NULL;
    char *r = dup_range(text, strlen(text));
    wa_free(text);
    return r;
}

int tc_roundtrip(const wa_program *prog, char *err, size_t errlen)
{
    wa_context *ctx = wa_program_context(prog);
    char *t1 = NULL, *t2 = NULL;
    size_t n1 = 0, n2 = 0;
    wa_program *back = NULL;
    int ok = 0;
    if (wa_program_print(&t1, &n1, prog, NULL) != WA_OK) {
        snprintf(err, errlen, "print failed: %s", tc_diags(ctx));
        goto done;
    }
    if (wa_program_parse(&back, ctx, t1, n1, "roundtrip.wa") != WA_OK) {
        snprintf(err, errlen, "parse of printed text failed: %s\n%s", tc_diags(ctx), t1);
        goto done;
    }
    if (!wa_program_equal(prog, back)) {
        snprintf(err, errlen, "parse(print(p)) differs from p:\n%s", t1);
        goto done;
    }
    if (wa_program_print(&t2, &n2, back, NULL) != WA_OK) {
        snprintf(err, errlen, "second print failed: %s", tc_diags(ctx));
        goto done;
    }
    if (n1 != n2 || memcmp(t1, t2, n1) != 0) {
        snprintf(err, errlen, "print(parse(print(p))) differs:\n%s---\n%s", t1, t2);
        goto done;
    }
    ok = 1;
done:
    wa_free(t1);
    wa_free(t2);
    wa_program_destroy(back);
    return ok;
}

void tc_rng_seed(tc_rng *r, uint64_t seed)
{
    r->s = seed ? seed : 0x9E3779B97F4A7C15ull;
}

uint32_t tc_rng_u32(tc_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

unsigned tc_rng_below(tc_rng *r, unsigned n)
{
    return n ? tc_rng_u32(r) % n : 0;
}

int tc_rng_chance(tc_rng *r, unsigned num, unsigned den)
{
    return tc_rng_below(r, den) < num;
}

void tc_put_field(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

FILE *tc_open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "error: cannot write %s\n", path);
    return f;
}

int tc_encode_roundtrip(const wa_program *prog, const unsigned char *code, size_t len, char *err,
                        size_t errlen)
{
    wa_context *ctx = wa_program_context(prog);
    char *text = NULL;
    size_t tlen = 0;
    if (wa_disassemble(&text, &tlen, ctx, code, len, wa_program_target(prog), NULL) != WA_OK) {
        snprintf(err, errlen, "wa_disassemble failed: %s", tc_diags(ctx));
        return 0;
    }
    const char *tn = wa_target_name(wa_program_target(prog));
    size_t cap = tlen + strlen(tn) + 64;
    char *src = malloc(cap);
    int ok = 0;
    wa_program *back = NULL;
    unsigned char *again = NULL;
    size_t alen = 0;
    if (!src) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    snprintf(src, cap, ".kernel rt\n  .target %s\n%s.end_kernel\n", tn, text);
    if (wa_program_parse(&back, ctx, src, strlen(src), "disassembly") != WA_OK) {
        snprintf(err, errlen, "the disassembly does not parse: %s | text: %s", tc_diags(ctx),
                 text);
        goto out;
    }
    if (wa_encode_program(&again, &alen, back, NULL) != WA_OK) {
        snprintf(err, errlen, "the parsed disassembly does not encode: %s | text: %s",
                 tc_diags(ctx), text);
        goto out;
    }
    if (alen != len || memcmp(again, code, len) != 0) {
        snprintf(err, errlen, "different bytes after the round trip | text: %s", text);
        goto out;
    }
    ok = 1;
out:
    wa_free(again);
    wa_program_destroy(back);
    free(src);
    wa_free(text);
    return ok;
}
