/* tests/unit/test_badinput.c — bad text input: every case returns an error
   status with a line:col diagnostic, never crashes and never leaks. Truncated
   examples, random bytes and mutated kernels are parsed too (fixed seeds). */
#include "check.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- an allocator that counts, so leaks on error paths show up ------------------ */

typedef struct counter {
    long live;
    unsigned long allocs;
} counter;

static void *count_realloc(void *ptr, size_t size, void *user)
{
    counter *c = user;
    if (size == 0) {
        if (ptr)
            c->live--;
        free(ptr);
        return NULL;
    }
    void *p = realloc(ptr, size);
    if (p && !ptr) {
        c->live++;
        c->allocs++;
    }
    return p;
}

static wa_context *counting_context(counter *c)
{
    memset(c, 0, sizeof(*c));
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.realloc_fn = count_realloc;
    o.alloc_user = c;
    wa_context *ctx = NULL;
    if (wa_context_create(&ctx, &o) != WA_OK) {
        fprintf(stderr, "cannot create a context\n");
        exit(1);
    }
    return ctx;
}

/* Parses `len` bytes copied into an exact-size heap buffer (so reads past the end
   are caught by the sanitizers). If it parses, the program is also validated,
   printed and emitted. Returns the parse status. */
static wa_status parse_exact(wa_context *ctx, const char *text, size_t len, const char *name)
{
    char *buf = malloc(len ? len : 1);
    if (!buf) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    if (len)
        memcpy(buf, text, len);
    wa_program *prog = (wa_program *)&prog;
    wa_status st = wa_program_parse(&prog, ctx, buf, len, name);
    if (st == WA_OK) {
        if (CHECK(prog != NULL)) {
            wa_program_validate(NULL, prog, NULL);
            char *out = NULL;
            if (wa_program_print(&out, NULL, prog, NULL) == WA_OK) {
                /* whatever parsed prints into something that parses again */
                wa_program *again = NULL;
                wa_status st2 = wa_program_parse(&again, ctx, out, strlen(out), "again");
                CHECK_MSG(st2 == WA_OK, "printed text does not parse:%s\n%s", ut_diags_text(ctx), out);
                wa_program_destroy(again);
            }
            wa_free(out);
            out = NULL;
            if (wa_emit_asm(&out, NULL, prog, NULL) == WA_OK)
                CHECK(out != NULL && strstr(out, ".amdhsa_kernel") != NULL);
            wa_free(out);
        }
        wa_program_destroy(prog);
    } else {
        CHECK(prog == NULL);
        CHECK_MSG(st < 0, "status %d", (int)st);
        const wa_diag *d = wa_context_last_diag(ctx);
        if (CHECK_MSG(d != NULL, "failed parse without a diagnostic")) {
            CHECK_EQ_INT(d->status, st);
            CHECK_MSG(d->line >= 1 && d->col >= 1, "no location: %u:%u %s", d->line, d->col,
                      d->message);
            CHECK(d->message != NULL && d->message[0] != '\0');
        }
    }
    free(buf);
    return st;
}

/* ---- located errors ------------------------------------------------------------- */

typedef struct bad_case {
    const char *text;   /* whole file */
    wa_status status;
    unsigned line, col;
    const char *words;  /* '|'-separated words the message contains */
} bad_case;

static void run_bad_cases(const bad_case *cases, unsigned n)
{
    counter c;
    wa_context *ctx = counting_context(&c);
    for (unsigned i = 0; i < n; i++) {
        ut_context("case %u: %s", i, cases[i].text);
        wa_program *prog = (wa_program *)&prog;
        wa_status st = wa_program_parse(&prog, ctx, cases[i].text, strlen(cases[i].text), "bad.wa");
        CHECK_STATUS(st, cases[i].status);
        CHECK(prog == NULL);
        if (st == WA_OK)
            wa_program_destroy(prog);
        CHECK_LAST_DIAG(ctx, cases[i].status, cases[i].words, cases[i].line, cases[i].col, WA_NO_TAG);
        const wa_diag *d = wa_context_last_diag(ctx);
        if (d)
            CHECK_STR_EQ(d->file, "bad.wa");
        /* the formatted message starts with the location */
        char want[64];
        snprintf(want, sizeof(want), "bad.wa:%u:%u: error: ", cases[i].line, cases[i].col);
        const char *msg = wa_context_last_error(ctx);
        CHECK_MSG(strncmp(msg, want, strlen(want)) == 0, "last error '%s' does not start with '%s'",
                  msg, want);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
    CHECK_EQ_INT(c.live, 0);
}

#define K(body) ".kernel k\n" body ".end_kernel\n"

static void syntax_errors(void)
{
    static const bad_case cases[] = {
        { K("  v_frob_b32 v0, v1\n"), WA_E_PARSE, 2, 3, "unknown mnemonic 'v_frob_b32'" },
        { K("  s_nop 0\n  v_mov_b32_e16 v0, v1\n"), WA_E_PARSE, 3, 3, "unknown mnemonic" },
        { K("  v_mov_b32 v0, v1, v2\n"), WA_E_PARSE, 2, 21, "v_mov_b32|expects 2 operands, found 3" },
        { K("  v_add_u32 v0, v1\n"), WA_E_PARSE, 2, 3, "v_add_u32|expects 3 operands, found 2" },
        { K("  s_endpgm 0\n"), WA_E_PARSE, 2, 12, "'s_endpgm' takes no operands" },
        { K("  v_mov_b32\n"), WA_E_PARSE, 2, 3, "expects 2 operands, found 0" },
        { K("  v_mov_b32 v0 v1\n"), WA_E_PARSE, 2, 16, "expected ','" },
        { K("  v_mov_b32 v0,\n"), WA_E_PARSE, 2, 16, "expected an operand" },
        { K("  v_mov_b32 v0, , v1\n"), WA_E_PARSE, 2, 17, "expected an operand" },
        { K("  v_mov_b32 v0, foo\n"), WA_E_PARSE, 2, 17, "unknown operand 'foo'" },
        { K("  s_branch 5\n"), WA_E_PARSE, 2, 12, "expected a label" },
        { K("  s_branch v0\n"), WA_E_PARSE, 2, 12, "expected a label" },
        { K("  s_load_dword s0, s[0:1], 0 bogus\n"), WA_E_PARSE, 2, 30, "unknown modifier 'bogus'" },
        { K("  s_load_dword s0, s[0:1], 0 glc,\n"), WA_E_PARSE, 2, 33, "unexpected ','" },
        { K("  s_waitcnt vmcnt 0\n"), WA_E_PARSE, 2, 19, "expected '('" },
        { K("  s_waitcnt vmcnt(0\n"), WA_E_PARSE, 2, 20, "expected ')'" },
        { K("  buffer_load_dword v0, v1, s[4:7], 0 offen offset\n"), WA_E_PARSE, 2, 51, "expected ':'" },
        { K("  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] op_sel:[1,0 0]\n"), WA_E_PARSE, 2, 70,
          "expected ']'" },
        { K("  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] op_sel:[1,0,0,0]\n"), WA_E_PARSE, 2, 65,
          "at most 3 entries" },
        { K("  v_add_f32 v0, -|v1, v2\n"), WA_E_PARSE, 2, 21, "'|' to close" },
        { K("  v_add_f32 v0, v1, v2 mul:3\n"), WA_E_PARSE, 2, 28, "mul:2, mul:4 and div:2" },
        { K("  v_add_f32_sdwa v0, v1, v2 dst_sel:WORD_2\n"), WA_E_PARSE, 2, 37, "dst_sel takes" },
        { K("  v_add_f32 v0, v1, -v2 quad_perm:[0,1,2,3] dst_sel:WORD_1\n"), WA_E_PARSE, 2, 3,
          "DPP or SDWA" },
        { K("  v_add_f32 -v0, v1, v2\n"), WA_E_PARSE, 2, 13, "not a source" },
        { K("  v_dot2_f32_f16 v0, -v1, v2, v3\n"), WA_E_PARSE, 2, 22, "neg_lo:[..]" },
        { K("  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] op_sel:[2,0,0]\n"), WA_E_RANGE, 2, 66,
          "selector bit" },
        { K("  v_mov_b32 v[0:1\n"), WA_E_PARSE, 2, 18, "expected ']'" },
        { K("  v_mov_b32 v[3:1], 0\n"), WA_E_PARSE, 2, 13, "ends before it starts" },
        { K("  v_mov_b32 v[0:32], 0\n"), WA_E_RANGE, 2, 13, "longer than 32" },
        { K("  v_mov_b32 v0, 1.2.3\n"), WA_E_PARSE, 2, 17, "malformed number" },
        { K("  v_mov_b32 v0, 12abc\n"), WA_E_PARSE, 2, 19, "unexpected 'a' in number" },
        { K("  v_mov_b32 v0, 0x\n"), WA_E_PARSE, 2, 17, "hex digits" },
        { K("  .frobnicate 3\n"), WA_E_PARSE, 2, 3, "unknown directive '.frobnicate'" },
        { K("  s_nop 0\n  .target gfx942\n"), WA_E_PARSE, 3, 3, "directive '.target' after the first instruction" },
        { K("  .target gfx1100\n"), WA_E_PARSE, 2, 11, "unknown target 'gfx1100'" },
        { K("  .target\n"), WA_E_PARSE, 2, 10, "expected a target name" },
        { K("  .abi kernarg_ptr, bogus_input\n"), WA_E_PARSE, 2, 21, "unknown ABI input 'bogus_input'" },
        { K("  .arg x, weird, size:4\n"), WA_E_PARSE, 2, 11, "unknown argument kind 'weird'" },
        { K("  .arg x, by_value\n"), WA_E_PARSE, 2, 19, "needs 'size:'" },
        { K("  .arg x, by_value, size:4, shiny\n"), WA_E_PARSE, 2, 29, "unknown argument property 'shiny'" },
        { K("  .arg x, by_value, size:0\n"), WA_E_RANGE, 2, 21, "size 0" },
        { K("  .arg x, by_value, size:4, align:3\n"), WA_E_INVALID, 2, 29, "power of two" },
        { K("  .workgroup_size 64, 1\n"), WA_E_PARSE, 2, 24, "expected ','" },
        { K("  .lds_bytes -1\n"), WA_E_PARSE, 2, 14, "expected a number" },
        { K("  .vreg v1\n"), WA_E_PARSE, 2, 9, "expected a virtual register" },
        { K("top:\ntop:\n  s_endpgm\n"), WA_E_INVALID, 3, 1, "'top' is placed twice" },
        { K("  s_nop 0 junk\n"), WA_E_PARSE, 2, 11, "unknown modifier 'junk'" },
        { K("  s_nop 0 # hash\n"), WA_E_PARSE, 2, 11, "unexpected '#'" },
        { K("  !nop\n"), WA_E_PARSE, 2, 3, "expected an instruction, label or directive" },
        { K("lbl: s_nop 0\n"), WA_E_PARSE, 2, 6, "after label" },
        /* kernels */
        { "", WA_E_PARSE, 1, 1, "no kernel found" },
        { "; only a comment\n\n", WA_E_PARSE, 2, 1, "no kernel found" },
        { "  s_endpgm\n", WA_E_PARSE, 1, 3, "expected '.kernel <name>'" },
        { ".kernel\n.end_kernel\n", WA_E_PARSE, 1, 8, "expected a kernel name" },
        { ".kernel 9k\n.end_kernel\n", WA_E_PARSE, 1, 9, "expected a kernel name" },
        { ".kernel k extra\n.end_kernel\n", WA_E_PARSE, 1, 11, "after the kernel name" },
        { ".kernel k\n  s_endpgm\n", WA_E_PARSE, 2, 11, "unterminated kernel 'k'|missing '.end_kernel'" },
        { ".kernel k\n  s_endpgm", WA_E_PARSE, 2, 11, "unterminated kernel" },
        { ".kernel k\n  s_endpgm\n.kernel j\n", WA_E_PARSE, 3, 1, "'.kernel' inside a kernel" },
        { K("  s_endpgm\n") ".kernel j\n  s_endpgm\n.end_kernel\n", WA_E_PARSE, 4, 1, "only one kernel per file" },
        { K("  s_endpgm\n") "  s_nop 0\n", WA_E_PARSE, 4, 3, "unexpected text after '.end_kernel'" },
        { ".kernel k\n  s_endpgm\n.end_kernel junk\n", WA_E_PARSE, 3, 13, "after '.end_kernel'" },
        { ".end_kernel\n", WA_E_PARSE, 1, 1, "expected '.kernel <name>'" },
    };
    run_bad_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static void bad_bytes(void)
{
    static const bad_case cases[] = {
        { K("  s_nop 0\0\n"), WA_E_PARSE, 2, 10, "invalid character|0x00" },
        { K("  s_nop 0 \xff\n"), WA_E_PARSE, 2, 11, "invalid character|0xff" },
        { K("  v_mov_b32 v0, \xc3\xa9\n"), WA_E_PARSE, 2, 17, "invalid character|0xc3" },
        { K("  s_nop\x01 0\n"), WA_E_PARSE, 2, 8, "invalid character|0x01" },
        { K("  s_nop 0\x7f\n"), WA_E_PARSE, 2, 10, "invalid character|0x7f" },
        { "\xef\xbb\xbf.kernel k\n.end_kernel\n", WA_E_PARSE, 1, 1, "invalid character|0xef" },
    };
    /* strlen would stop at the NUL: give the exact lengths. */
    counter c;
    wa_context *ctx = counting_context(&c);
    static const size_t lens[] = { sizeof(K("  s_nop 0\0\n")) - 1 };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ut_context("case %u", i);
        size_t len = i == 0 ? lens[0] : strlen(cases[i].text);
        wa_program *prog = NULL;
        CHECK_STATUS(wa_program_parse(&prog, ctx, cases[i].text, len, "bin.wa"), cases[i].status);
        CHECK_LAST_DIAG(ctx, cases[i].status, cases[i].words, cases[i].line, cases[i].col, WA_NO_TAG);
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    /* bytes that are not UTF-8 are fine inside comments */
    static const char ok[] = "; \xff\xfe comment\n.kernel k\n  s_endpgm ; caf\xc3 \x80\x80\n  ; \xc3\x28\n.end_kernel\n";
    wa_program *prog = NULL;
    CHECK_OK(wa_program_parse(&prog, ctx, ok, strlen(ok), "bin.wa"));
    wa_program_destroy(prog);
    /* CRLF line ends are accepted */
    static const char crlf[] = ".kernel k\r\n  s_nop 0 ; @I4\r\n  s_endpgm\r\n.end_kernel\r\n";
    if (CHECK_OK(wa_program_parse(&prog, ctx, crlf, strlen(crlf), "crlf.wa"))) {
        wa_instr_view v;
        CHECK_OK(wa_program_get(&v, prog, 0));
        CHECK_EQ_UINT(v.tag, 4);
        CHECK(v.comment == NULL);
        wa_program_destroy(prog);
    }
    /* text that is not NUL-terminated: only `len` bytes are read */
    static const char longer[] = ".kernel k\n  s_endpgm\n.end_kernel\nGARBAGE";
    CHECK_OK(wa_program_parse(&prog, ctx, longer, strlen(longer) - 7, "cut.wa"));
    wa_program_destroy(prog);
    /* NULL text with length 0 is an empty file; with a length it is misuse */
    CHECK_STATUS(wa_program_parse(&prog, ctx, NULL, 0, NULL), WA_E_PARSE);
    CHECK_STATUS(wa_program_parse(&prog, ctx, NULL, 5, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_program_parse(NULL, ctx, "x", 1, NULL), WA_E_INVALID);
    CHECK_STATUS(wa_program_parse(&prog, NULL, "x", 1, NULL), WA_E_INVALID);
    wa_context_destroy(ctx);
    CHECK_EQ_INT(c.live, 0);
}

static void numbers_out_of_range(void)
{
    static const bad_case cases[] = {
        { K("  v_mov_b32 v256, 0\n"), WA_E_RANGE, 2, 13, "v256 out of range|v0..v255" },
        { K("  v_mov_b32 v[254:257], 0\n"), WA_E_RANGE, 2, 13, "out of range" },
        { K("  s_mov_b32 s128, 0\n"), WA_E_RANGE, 2, 13, "s128 out of range|s0..s127" },
        { K("  v_accvgpr_write_b32 a256, 0\n"), WA_E_RANGE, 2, 23, "a256 out of range" },
        { K("  v_mov_b32 v99999999999, 0\n"), WA_E_RANGE, 2, 14, "out of range" },
        { K("  s_mov_b32 s0, 18446744073709551616\n"), WA_E_RANGE, 2, 17, "number out of range" },
        { K("  s_mov_b32 s0, 0x10000000000000000\n"), WA_E_RANGE, 2, 17, "number out of range" },
        { K("  s_mov_b32 s0, 9223372036854775808\n"), WA_E_RANGE, 2, 17, "number out of range" },
        { K("  s_mov_b32 s0, -9223372036854775809\n"), WA_E_RANGE, 2, 17, "number out of range" },
        { K("  v_mov_b32 v0, 1e999\n"), WA_E_RANGE, 2, 17, "out of range" },
        { K("  v_mov_b32 v0, -1e999\n"), WA_E_RANGE, 2, 17, "out of range" },
        { K("  global_load_dword v0, v[2:3], off offset:2147483648\n"), WA_E_RANGE, 2, 44, "offset out of range" },
        { K("  global_load_dword v0, v[2:3], off offset:-2147483649\n"), WA_E_RANGE, 2, 44, "offset out of range" },
        { K("  global_load_dword v0, v[2:3], off offset:-18446744073709551615\n"), WA_E_RANGE, 2, 44,
          "offset out of range" },
        { K("  global_load_dword v0, v[2:3], off offset:-18446744073709551000\n"), WA_E_RANGE, 2, 44,
          "offset out of range" },
        { K("  s_waitcnt vmcnt(128)\n"), WA_E_RANGE, 2, 19, "vmcnt" },
        { K("  s_waitcnt vmcnt(-1)\n"), WA_E_RANGE, 2, 19, "vmcnt" },
        { K("  s_waitcnt vmcnt(-18446744073709551615)\n"), WA_E_RANGE, 2, 19, "vmcnt" },
        { K("  s_waitcnt 65536\n"), WA_E_RANGE, 2, 13, "s_waitcnt value" },
        { K("  v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3] cbsz:256\n"), WA_E_RANGE, 2, 63,
          "modifier value" },
        { K("  .workgroup_size 4294967296, 1, 1\n"), WA_E_RANGE, 2, 19, "workgroup size" },
        { K("  .workgroup_size 64, 1, 99999999999999999999\n"), WA_E_RANGE, 2, 26, "out of range" },
        { K("  .lds_bytes 4294967296\n"), WA_E_RANGE, 2, 14, "LDS size" },
        { K("  .arg x, by_value, offset:4294967295, size:4\n"), WA_E_RANGE, 2, 21, "offset out of range" },
        { K("  .arg x, by_value, size:4294967296\n"), WA_E_RANGE, 2, 26, "out of range" },
        { K("  v_mov_b32 %v1048576, 0\n"), WA_E_RANGE, 2, 13, "too large" },
    };
    run_bad_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

static void register_shapes(void)
{
    static const bad_case cases[] = {
        { K("  v_mov_b32 %v1<0>, 0\n"), WA_E_RANGE, 2, 16, "register size 0" },
        { K("  v_mov_b32 %v1<33>, 0\n"), WA_E_RANGE, 2, 16, "register size 33" },
        { K("  v_mov_b32 %v1<4,align=3>, 0\n"), WA_E_RANGE, 2, 16, "alignment 3|power of two" },
        { K("  v_mov_b32 %v1<4,align=0>, 0\n"), WA_E_RANGE, 2, 16, "alignment 0" },
        { K("  v_mov_b32 %v1<4,align=64>, 0\n"), WA_E_RANGE, 2, 16, "alignment 64" },
        { K("  v_mov_b32 %v1<4>[4], 0\n"), WA_E_RANGE, 2, 19, "components [4:4] outside|size 4" },
        { K("  v_mov_b32 %v1<4>[2:1], 0\n"), WA_E_RANGE, 2, 19, "outside" },
        { K("  v_mov_b32 %v1<4>[1:4], 0\n"), WA_E_RANGE, 2, 19, "[1:4]" },
        { K("  v_mov_b32 %v1<4,alignment=2>, 0\n"), WA_E_PARSE, 2, 19, "align=" },
        { K("  v_mov_b32 %v1<4, 0\n"), WA_E_PARSE, 2, 20, "expected 'align='" },
        { K("  v_mov_b32 %v1<4 0\n"), WA_E_PARSE, 2, 19, "expected '>'" },
        { K("  v_mov_b32 %v1[0, 0\n"), WA_E_PARSE, 2, 18, "expected ']'" },
        { K("  v_mov_b32 %q1, 0\n"), WA_E_PARSE, 2, 13, "expected a virtual register" },
        { K("  v_mov_b32 %v, 0\n"), WA_E_PARSE, 2, 13, "expected a virtual register" },
        { K("  v_mov_b32 %, 0\n"), WA_E_PARSE, 2, 13, "expected a virtual register" },
        /* one id, one class */
        { K("  v_mov_b32 %v1, 0\n  s_mov_b32 %s1, 0\n"), WA_E_PARSE, 3, 13, "%s1|declared as a VGPR" },
        { K("  v_accvgpr_write_b32 %a2, 0\n  v_mov_b32 %v2, 0\n"), WA_E_PARSE, 3, 13, "declared as an AGPR" },
        { K("  .vreg %s3<4,align=4>\n  v_mov_b32 %v3, 0\n"), WA_E_PARSE, 3, 13, "declared as a|SGPR" },
        /* one id, one shape */
        { K("  s_mov_b64 %s1<2,align=2>, 0\n  s_mov_b64 %s1<4,align=4>, 0\n"), WA_E_PARSE, 3, 16,
          "%s1|redeclared|<4,align=4>|<2,align=2>" },
        { K("  v_mov_b32 %v1, 0\n  v_mov_b32 %v1<2,align=2>[0], 0\n"), WA_E_PARSE, 3, 16, "redeclared" },
    };
    run_bad_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Target rules are not the parser's job: these parse and then fail validation at
   the right place. */
static void errors_left_to_the_validator(void)
{
    static const struct {
        const char *body;
        const char *words;
        unsigned line, col;
    } cases[] = {
        { "  v_add_u32 v0, a1, v1\n  s_endpgm\n", "AGPR", 2, 3 },
        { "  s_nop 0\n  global_load_dwordx2 v[1:2], v[4:5], off\n  s_endpgm\n", "misaligned", 3, 3 },
        { "  s_cbranch_scc0 missing\n  s_endpgm\n", "undefined label 'missing'", 2, 3 },
        { "  v_mfma_f32_16x16x32_f16 v[0:3], v[4:7], v[8:11], v[0:3]\n  s_endpgm\n", "not available", 2, 3 },
    };
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ut_context("case %u", i);
        char text[512];
        snprintf(text, sizeof(text), ".kernel k\n%s.end_kernel\n", cases[i].body);
        wa_program *prog = NULL;
        REQUIRE_OK(wa_program_parse(&prog, ctx, text, strlen(text), "v.wa"));
        CHECK_STATUS(wa_program_validate(NULL, prog, NULL), WA_E_VALIDATE);
        CHECK_DIAG(ctx, WA_E_VALIDATE, cases[i].words, cases[i].line, cases[i].col, UT_ANY);
        const wa_diag *d = ut_find_diag(ctx, cases[i].words);
        if (d) {
            CHECK(d->tag != WA_NO_TAG);
            CHECK_STR_EQ(d->file, "v.wa");
        }
        wa_program_destroy(prog);
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
}

/* ---- truncation, random bytes, mutations ------------------------------------------ */

static uint64_t rng_state;
static uint64_t rng(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static void truncated_examples(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    CHECK(n >= 1);
    counter c;
    wa_context *ctx = counting_context(&c);
    for (unsigned i = 0; i < n; i++) {
        size_t len = 0;
        char *text = ut_read_file(files[i], &len, 0);
        if (!CHECK(text != NULL))
            continue;
        /* Every prefix; long files are sampled so the test stays fast. */
        size_t step = len > 6000 ? len / 3000 : 1;
        unsigned failed = 0;
        for (size_t cut = 0; cut <= len; cut += step) {
            ut_context("%s cut at %zu", files[i], cut);
            if (parse_exact(ctx, text, cut, files[i]) != WA_OK)
                failed++;
        }
        ut_context("%s", files[i]);
        /* the whole file parses; most prefixes lack .end_kernel */
        CHECK(parse_exact(ctx, text, len, files[i]) == WA_OK);
        CHECK(failed > 0);
        free(text);
    }
    ut_context("%s", "");
    ut_free_list(files, n);
    wa_context_destroy(ctx);
    CHECK_EQ_INT(c.live, 0);
}

static void random_bytes(void)
{
    counter c;
    wa_context *ctx = counting_context(&c);
    rng_state = 0x9E3779B97F4A7C15ull;
    char buf[600];
    for (unsigned round = 0; round < 400; round++) {
        size_t len = (size_t)(rng() % sizeof(buf));
        for (size_t k = 0; k < len; k++)
            buf[k] = (char)(rng() & 0xFF);
        /* half of the time, start like a kernel so the parser gets further */
        if (round & 1 && len > 10)
            memcpy(buf, ".kernel k\n", 10);
        ut_context("random round %u", round);
        parse_exact(ctx, buf, len, "random.wa");
    }
    ut_context("%s", "");
    wa_context_destroy(ctx);
    CHECK_EQ_INT(c.live, 0);
}

/* Random sequences of tokens of the text form: reaches deep parser states. */
static void token_soup(void)
{
    static const char *const tokens[] = {
        ".kernel", " k", "\n", ".end_kernel", "  ", ".target", " gfx942", " gfx90a", ".abi",
        " kernarg_ptr", ",", ".arg", " a", " by_value", " size:", "4", "8", " offset:", ".vreg",
        " %v1", " %s2", " %a3", "<", ">", "2", "align=", "[", "]", ":", "0", "-", "0x", "ff",
        "1.5", "e", "v_mov_b32", "s_mov_b32", "global_load_dwordx2", "buffer_load_dword",
        "v_mfma_f32_16x16x16_f16", "s_waitcnt", " vmcnt(", ")", "s_branch", " L1", "L1:",
        " v[0:1]", " s[0:3]", " a[0:3]", " v0", " s5", " off", " vcc", " exec", " m0", " scc",
        " offen", " lds", " glc", " sc0", " cbsz:", " op_sel:[", ";", " @I", "3", "s_endpgm",
        "\t", "\r", "$", "%", ".", "#", "\"", "18446744073709551615", "-9223372036854775808",
        ".workgroup_size", " 1024", ".lds_bytes",
    };
    const unsigned nt = sizeof(tokens) / sizeof(tokens[0]);
    counter c;
    wa_context *ctx = counting_context(&c);
    rng_state = 0xD1B54A32D192ED03ull;
    char buf[1024];
    unsigned parsed = 0;
    for (unsigned round = 0; round < 1500; round++) {
        size_t len = 0;
        if (round % 3 == 0) {
            memcpy(buf, ".kernel k\n", 10);
            len = 10;
        }
        unsigned count = (unsigned)(rng() % 40);
        for (unsigned k = 0; k < count; k++) {
            const char *t = tokens[rng() % nt];
            size_t tl = strlen(t);
            if (len + tl + 20 >= sizeof(buf))
                break;
            memcpy(buf + len, t, tl);
            len += tl;
        }
        if (round % 2 == 0) {
            memcpy(buf + len, "\n.end_kernel\n", 13);
            len += 13;
        }
        ut_context("token round %u", round);
        if (parse_exact(ctx, buf, len, "soup.wa") == WA_OK)
            parsed++;
    }
    ut_context("%s", "");
    CHECK(parsed > 0); /* some soups are kernels: the success paths run too */
    wa_context_destroy(ctx);
    CHECK_EQ_INT(c.live, 0);
}

static void mutated_examples(void)
{
    char **files = NULL;
    unsigned n = ut_list_examples(&files);
    counter c;
    wa_context *ctx = counting_context(&c);
    rng_state = 0x2545F4914F6CDD1Dull;
    static const char interesting[] = "\0\n\r\t ;,:[]<>%@.-0x9vsa\xff";
    for (unsigned i = 0; i < n; i++) {
        size_t len = 0;
        char *text = ut_read_file(files[i], &len, 0);
        if (!CHECK(text != NULL) || len == 0) {
            free(text);
            continue;
        }
        char *buf = malloc(len + 64);
        REQUIRE(buf != NULL);
        for (unsigned round = 0; round < 300; round++) {
            memcpy(buf, text, len);
            size_t blen = len;
            unsigned edits = 1 + (unsigned)(rng() % 4);
            for (unsigned e = 0; e < edits && blen > 0; e++) {
                size_t at = (size_t)(rng() % blen);
                switch (rng() % 3) {
                case 0: /* replace */
                    buf[at] = interesting[rng() % (sizeof(interesting) - 1)];
                    break;
                case 1: /* delete */
                    memmove(buf + at, buf + at + 1, blen - at - 1);
                    blen--;
                    break;
                default: /* insert */
                    if (blen + 1 < len + 64) {
                        memmove(buf + at + 1, buf + at, blen - at);
                        buf[at] = interesting[rng() % (sizeof(interesting) - 1)];
                        blen++;
                    }
                    break;
                }
            }
            ut_context("%s mutation %u", files[i], round);
            parse_exact(ctx, buf, blen, files[i]);
        }
        free(buf);
        free(text);
    }
    ut_context("%s", "");
    ut_free_list(files, n);
    wa_context_destroy(ctx);
    CHECK_EQ_INT(c.live, 0);
}

/* Huge lines and numbers do not overflow anything. */
static void long_inputs(void)
{
    counter c;
    wa_context *ctx = counting_context(&c);
    size_t n = 200000;
    char *buf = malloc(n + 64);
    REQUIRE(buf != NULL);
    /* a very long comment line inside a kernel */
    size_t len = 0;
    memcpy(buf, ".kernel k\n  ;", 13);
    len = 13;
    memset(buf + len, 'x', n - len);
    len = n;
    memcpy(buf + len, "\n  s_endpgm\n.end_kernel\n", 24);
    len += 24;
    CHECK_OK(parse_exact(ctx, buf, len, "long.wa"));
    /* a number with 100000 digits */
    memcpy(buf, ".kernel k\n  s_nop ", 18);
    memset(buf + 18, '7', 100000);
    memcpy(buf + 18 + 100000, "\n.end_kernel\n", 13);
    CHECK_STATUS(parse_exact(ctx, buf, 18 + 100000 + 13, "digits.wa"), WA_E_RANGE);
    CHECK_LAST_DIAG(ctx, WA_E_RANGE, "out of range", 2, 9, WA_NO_TAG);
    /* a float with many digits */
    memcpy(buf, ".kernel k\n  v_mov_b32 v0, 1.", 29);
    memset(buf + 29, '5', 5000);
    memcpy(buf + 29 + 5000, "\n.end_kernel\n", 13);
    wa_status st = parse_exact(ctx, buf, 29 + 5000 + 13, "float.wa");
    CHECK(st == WA_OK || st == WA_E_PARSE || st == WA_E_RANGE);
    /* a long identifier */
    memcpy(buf, ".kernel k\n  ", 12);
    memset(buf + 12, 'q', 100000);
    memcpy(buf + 12 + 100000, ":\n  s_endpgm\n.end_kernel\n", 25);
    st = parse_exact(ctx, buf, 12 + 100000 + 25, "ident.wa");
    CHECK_STATUS(st, WA_E_PARSE);
    /* many instructions */
    const char line[] = "  v_add_u32 %v1, %v1, %v1\n";
    size_t ll = sizeof(line) - 1, count = 5000;
    char *big = malloc(10 + ll * count + 40);
    REQUIRE(big != NULL);
    memcpy(big, ".kernel k\n", 10);
    len = 10;
    for (size_t i = 0; i < count; i++) {
        memcpy(big + len, line, ll);
        len += ll;
    }
    memcpy(big + len, "  s_endpgm\n.end_kernel\n", 23);
    len += 23;
    wa_program *prog = NULL;
    if (CHECK_OK(wa_program_parse(&prog, ctx, big, len, "big.wa"))) {
        CHECK_EQ_UINT(wa_program_size(prog), count + 1);
        wa_program_destroy(prog);
    }
    free(big);
    free(buf);
    wa_context_destroy(ctx);
    CHECK_EQ_INT(c.live, 0);
}

/* The file entry point: a missing file is an I/O error. */
static void parse_file_errors(void)
{
    wa_context *ctx = ut_context_new(WA_TARGET_GFX942);
    wa_program *prog = (wa_program *)&prog;
    CHECK_STATUS(wa_program_parse_file(&prog, ctx, "/nonexistent-dir/none.wa"), WA_E_IO);
    CHECK(prog == NULL);
    CHECK_LAST_DIAG(ctx, WA_E_IO, "none.wa", UT_ANY, UT_ANY, WA_NO_TAG);
    CHECK_STATUS(wa_program_parse_file(&prog, ctx, ut_examples_dir()), WA_E_IO);
    CHECK(wa_context_last_diag(ctx) != NULL);
    CHECK_STATUS(wa_program_parse_file(&prog, ctx, NULL), WA_E_INVALID);
    wa_context_destroy(ctx);
}

UT_SUITE(
    UT_CASE(syntax_errors)
    UT_CASE(bad_bytes)
    UT_CASE(numbers_out_of_range)
    UT_CASE(register_shapes)
    UT_CASE(errors_left_to_the_validator)
    UT_CASE(truncated_examples)
    UT_CASE(random_bytes)
    UT_CASE(token_soup)
    UT_CASE(mutated_examples)
    UT_CASE(long_inputs)
    UT_CASE(parse_file_errors)
);
