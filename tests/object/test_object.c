/* tests/object/test_object.c — the code object writer's pieces without LLVM:
   MessagePack encodings (from the MessagePack specification), the metadata
   document's shape (sorted keys, the emitter's values), the descriptor bytes
   (the AMDHSA kernel descriptor layout), the ELF header and sections, and bad
   input (a located error, nothing written). */
#include "../unit/check.h"
#include "../../lib/object/msgpack.h"
#include "../../lib/object/object.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two arguments, one label: what the metadata and symbols depend on. */
static const char copy_text[] =
    ".kernel copy_kernel\n"
    "  .target gfx942\n"
    "  .workgroup_size 128, 1, 1\n"
    "  .abi kernarg_ptr, workitem_id_x\n"
    "  .arg src, global_buffer, offset:0, size:8, align:8, const\n"
    "  .arg dst, global_buffer, offset:8, size:8, align:8\n"
    "  s_load_dwordx2 s[4:5], s[0:1], 0\n"
    "  v_lshlrev_b32 v1, 3, v0\n"
    "loop:\n"
    "  s_cbranch_scc1 loop\n"
    "  s_endpgm\n"
    ".end_kernel\n";

/* Four instructions of 4 bytes but s_load (8): 20 bytes; any content will do
   for the writer, which copies it. */
static const unsigned char code20[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                          11, 12, 13, 14, 15, 16, 0, 0, 0x81, 0xbf };

static wa_program *parse(wa_context *ctx, const char *text)
{
    wa_program *p = NULL;
    if (wa_program_parse(&p, ctx, text, strlen(text), "k.wa") != WA_OK) {
        fprintf(stderr, "%s\n", wa_context_last_error(ctx));
        return NULL;
    }
    return p;
}

static wa_program *parse_renamed(wa_context *ctx, const char *name, const char *target)
{
    char buf[2048];
    const char *rest = strchr(copy_text, '\n') + 1;
    rest = strchr(rest, '\n') + 1;
    snprintf(buf, sizeof(buf), ".kernel %s\n  .target %s\n%s", name, target, rest);
    return parse(ctx, buf);
}

static uint64_t rd(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ---- MessagePack -------------------------------------------------------------------- */

typedef void (*mp_fn)(wa_sb *sb, wa_context *ctx);

static int encodes(wa_context *ctx, mp_fn fn, const unsigned char *want, size_t n)
{
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    fn(&sb, ctx);
    int ok = !sb.failed && sb.len == n && memcmp(sb.data, want, n) == 0;
    if (!ok) {
        fprintf(stderr, "  got %zu bytes:", sb.len);
        for (size_t i = 0; i < sb.len && i < 16; i++)
            fprintf(stderr, " %02x", (unsigned char)sb.data[i]);
        fprintf(stderr, "\n");
    }
    wa_sb_free(&sb);
    return ok;
}

#define ENC(name, body, ...)                                                            \
    static void name(wa_sb *sb, wa_context *ctx)                                        \
    {                                                                                   \
        (void)ctx;                                                                      \
        body;                                                                           \
    }                                                                                   \
    static const unsigned char name##_want[] = { __VA_ARGS__ };
#define CHECK_ENC(ctx, name) CHECK_MSG(encodes(ctx, name, name##_want, sizeof(name##_want)), \
                                       "encoding of " #name)

ENC(u0, wa_mp_uint(sb, 0), 0x00)
ENC(u127, wa_mp_uint(sb, 127), 0x7f)
ENC(u128, wa_mp_uint(sb, 128), 0xcc, 0x80)
ENC(u255, wa_mp_uint(sb, 255), 0xcc, 0xff)
ENC(u256, wa_mp_uint(sb, 256), 0xcd, 0x01, 0x00)
ENC(u65535, wa_mp_uint(sb, 65535), 0xcd, 0xff, 0xff)
ENC(u65536, wa_mp_uint(sb, 65536), 0xce, 0x00, 0x01, 0x00, 0x00)
ENC(u32max, wa_mp_uint(sb, 0xFFFFFFFFu), 0xce, 0xff, 0xff, 0xff, 0xff)
ENC(u2p32, wa_mp_uint(sb, 0x100000000ull), 0xcf, 0, 0, 0, 1, 0, 0, 0, 0)
ENC(i5, wa_mp_int(sb, 5), 0x05)
ENC(im1, wa_mp_int(sb, -1), 0xff)
ENC(im32, wa_mp_int(sb, -32), 0xe0)
ENC(im33, wa_mp_int(sb, -33), 0xd0, 0xdf)
ENC(im128, wa_mp_int(sb, -128), 0xd0, 0x80)
ENC(im129, wa_mp_int(sb, -129), 0xd1, 0xff, 0x7f)
ENC(im32769, wa_mp_int(sb, -32769), 0xd2, 0xff, 0xff, 0x7f, 0xff)
ENC(imin, wa_mp_int(sb, INT64_MIN), 0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0)
ENC(btrue, wa_mp_bool(sb, 1), 0xc3)
ENC(bfalse, wa_mp_bool(sb, 0), 0xc2)
ENC(nil, wa_mp_nil(sb), 0xc0)
ENC(sempty, wa_mp_str(sb, ""), 0xa0)
ENC(sabc, wa_mp_str(sb, "abc"), 0xa3, 'a', 'b', 'c')
ENC(m0, wa_mp_map(sb, 0), 0x80)
ENC(m15, wa_mp_map(sb, 15), 0x8f)
ENC(m16, wa_mp_map(sb, 16), 0xde, 0x00, 0x10)
ENC(m65536, wa_mp_map(sb, 65536), 0xdf, 0x00, 0x01, 0x00, 0x00)
ENC(a15, wa_mp_array(sb, 15), 0x9f)
ENC(a16, wa_mp_array(sb, 16), 0xdc, 0x00, 0x10)
ENC(a65536, wa_mp_array(sb, 65536), 0xdd, 0x00, 0x01, 0x00, 0x00)

/* Strings by length: fixstr up to 31, str8 up to 255, str16 beyond. */
static void check_str_len(wa_context *ctx, size_t n, const unsigned char *head, size_t hn)
{
    char *s = malloc(n + 1);
    memset(s, 'x', n);
    s[n] = 0;
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    wa_mp_str(&sb, s);
    CHECK_EQ_UINT(sb.len, hn + n);
    CHECK_MSG(sb.len >= hn && memcmp(sb.data, head, hn) == 0, "string header for length %zu", n);
    CHECK_MSG(sb.len == hn + n && memcmp(sb.data + hn, s, n) == 0, "string bytes, length %zu", n);
    wa_sb_free(&sb);
    free(s);
}

static void test_msgpack(void)
{
    wa_context *ctx = NULL;
    REQUIRE_OK(wa_context_create(&ctx, NULL));
    CHECK_ENC(ctx, u0);
    CHECK_ENC(ctx, u127);
    CHECK_ENC(ctx, u128);
    CHECK_ENC(ctx, u255);
    CHECK_ENC(ctx, u256);
    CHECK_ENC(ctx, u65535);
    CHECK_ENC(ctx, u65536);
    CHECK_ENC(ctx, u32max);
    CHECK_ENC(ctx, u2p32);
    CHECK_ENC(ctx, i5);
    CHECK_ENC(ctx, im1);
    CHECK_ENC(ctx, im32);
    CHECK_ENC(ctx, im33);
    CHECK_ENC(ctx, im128);
    CHECK_ENC(ctx, im129);
    CHECK_ENC(ctx, im32769);
    CHECK_ENC(ctx, imin);
    CHECK_ENC(ctx, btrue);
    CHECK_ENC(ctx, bfalse);
    CHECK_ENC(ctx, nil);
    CHECK_ENC(ctx, sempty);
    CHECK_ENC(ctx, sabc);
    CHECK_ENC(ctx, m0);
    CHECK_ENC(ctx, m15);
    CHECK_ENC(ctx, m16);
    CHECK_ENC(ctx, m65536);
    CHECK_ENC(ctx, a15);
    CHECK_ENC(ctx, a16);
    CHECK_ENC(ctx, a65536);
    static const unsigned char h31[] = { 0xbf }, h32[] = { 0xd9, 32 }, h255[] = { 0xd9, 0xff },
                               h256[] = { 0xda, 0x01, 0x00 };
    check_str_len(ctx, 31, h31, 1);
    check_str_len(ctx, 32, h32, 2);
    check_str_len(ctx, 255, h255, 2);
    check_str_len(ctx, 256, h256, 3);
    wa_context_destroy(ctx);
}

/* ---- metadata ------------------------------------------------------------------------ */

/* A small MessagePack reader for what the metadata uses: checks every map's keys
   are strings in strictly increasing order and records the value of `find`
   (an unsigned integer or a string) at the first place it occurs. */
typedef struct mp_reader {
    const unsigned char *p, *end;
    int ok, sorted;
    const char *find;
    uint64_t found_uint;
    char found_str[128];
    int found;
} mp_reader;

static uint64_t be(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static void mp_skip(mp_reader *r, const char *key);

static int mp_str(mp_reader *r, const unsigned char **s, size_t *n)
{
    if (r->p >= r->end)
        return 0;
    unsigned c = *r->p;
    if ((c & 0xe0) == 0xa0) {
        *n = c & 0x1f;
        r->p += 1;
    } else if (c == 0xd9) {
        *n = r->p[1];
        r->p += 2;
    } else if (c == 0xda) {
        *n = (size_t)be(r->p + 1, 2);
        r->p += 3;
    } else {
        return 0;
    }
    *s = r->p;
    r->p += *n;
    return r->p <= r->end;
}

static void mp_skip(mp_reader *r, const char *key)
{
    if (!r->ok || r->p >= r->end) {
        r->ok = 0;
        return;
    }
    int want = key && r->find && !r->found && strcmp(key, r->find) == 0;
    unsigned c = *r->p;
    if (c < 0x80 || c == 0xcc || c == 0xcd || c == 0xce) {
        unsigned len = c < 0x80 ? 0 : c == 0xcc ? 1 : c == 0xcd ? 2 : 4;
        uint64_t v = c < 0x80 ? c : be(r->p + 1, len);
        r->p += 1 + len;
        if (want) {
            r->found = 1;
            r->found_uint = v;
        }
    } else if (c == 0xc2 || c == 0xc3) {
        if (want) {
            r->found = 1;
            r->found_uint = c == 0xc3;
        }
        r->p++;
    } else if ((c & 0xe0) == 0xa0 || c == 0xd9 || c == 0xda) {
        const unsigned char *s;
        size_t n;
        r->ok = mp_str(r, &s, &n);
        if (want && r->ok && n < sizeof(r->found_str)) {
            r->found = 1;
            memcpy(r->found_str, s, n);
            r->found_str[n] = 0;
        }
    } else if ((c & 0xf0) == 0x90 || c == 0xdc) {
        unsigned n = (c & 0xf0) == 0x90 ? (c & 0xf) : (unsigned)be(r->p + 1, 2);
        r->p += (c & 0xf0) == 0x90 ? 1 : 3;
        if (want) {
            r->found = 1;
            r->found_uint = n;
        }
        for (unsigned i = 0; i < n && r->ok; i++)
            mp_skip(r, NULL);
    } else if ((c & 0xf0) == 0x80 || c == 0xde) {
        unsigned n = (c & 0xf0) == 0x80 ? (c & 0xf) : (unsigned)be(r->p + 1, 2);
        r->p += (c & 0xf0) == 0x80 ? 1 : 3;
        const unsigned char *prev = NULL;
        size_t prevn = 0;
        for (unsigned i = 0; i < n && r->ok; i++) {
            const unsigned char *s;
            size_t kn;
            if (!mp_str(r, &s, &kn)) {
                r->ok = 0;
                return;
            }
            if (prev) {
                size_t m = kn < prevn ? kn : prevn;
                int cmp = memcmp(prev, s, m);
                if (cmp > 0 || (cmp == 0 && prevn >= kn))
                    r->sorted = 0;
            }
            prev = s;
            prevn = kn;
            char kbuf[64];
            size_t cn = kn < sizeof(kbuf) - 1 ? kn : sizeof(kbuf) - 1;
            memcpy(kbuf, s, cn);
            kbuf[cn] = 0;
            mp_skip(r, kbuf);
        }
    } else {
        r->ok = 0;
    }
}

static int md_lookup(const wa_sb *sb, const char *key, uint64_t *uval, char *sval, size_t slen,
                     int *sorted)
{
    mp_reader r = { (const unsigned char *)sb->data, (const unsigned char *)sb->data + sb->len,
                    1, 1, key, 0, { 0 }, 0 };
    mp_skip(&r, NULL);
    if (sorted)
        *sorted = r.sorted;
    if (!r.ok || r.p != r.end || !r.found)
        return 0;
    if (uval)
        *uval = r.found_uint;
    if (sval)
        snprintf(sval, slen, "%s", r.found_str);
    return 1;
}

static void test_metadata(void)
{
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.xnack = WA_FEATURE_OFF;
    o.sramecc = WA_FEATURE_ON;
    wa_context *ctx = NULL;
    REQUIRE_OK(wa_context_create(&ctx, &o));
    wa_program *p = parse(ctx, copy_text);
    REQUIRE(p);
    wa_kernel_resources r;
    REQUIRE_OK(wa_kernel_resources_compute(&r, p));
    wa_object_kernel k = { p, code20, sizeof(code20), NULL, 0 };
    wa_sb sb;
    wa_sb_init(&sb, ctx);
    wa_metadata_msgpack(&sb, &k, 1);
    REQUIRE(!sb.failed);
    uint64_t v = 0;
    char s[128];
    int sorted = 0;
    CHECK(md_lookup(&sb, "amdhsa.target", NULL, s, sizeof(s), &sorted));
    CHECK(sorted);
    CHECK_STR_EQ(s, "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
    CHECK(md_lookup(&sb, "amdhsa.kernels", &v, NULL, 0, NULL));
    CHECK_EQ_UINT(v, 1);
    CHECK(md_lookup(&sb, ".symbol", NULL, s, sizeof(s), NULL));
    CHECK_STR_EQ(s, "copy_kernel.kd");
    CHECK(md_lookup(&sb, ".sgpr_count", &v, NULL, 0, NULL));
    CHECK_EQ_UINT(v, r.sgpr_count);
    CHECK(md_lookup(&sb, ".vgpr_count", &v, NULL, 0, NULL));
    CHECK_EQ_UINT(v, r.total_vgprs);
    CHECK(md_lookup(&sb, ".kernarg_segment_size", &v, NULL, 0, NULL));
    CHECK_EQ_UINT(v, 16);
    CHECK(md_lookup(&sb, ".is_const", &v, NULL, 0, NULL));
    CHECK_EQ_UINT(v, 1);
    CHECK(md_lookup(&sb, ".args", &v, NULL, 0, NULL));
    CHECK_EQ_UINT(v, 2);
    CHECK(md_lookup(&sb, ".max_flat_workgroup_size", &v, NULL, 0, NULL));
    CHECK_EQ_UINT(v, 128);
    /* the YAML the emitter writes states the same values */
    char *asm_text = NULL;
    size_t len = 0;
    REQUIRE_OK(wa_emit_asm(&asm_text, &len, p, NULL));
    char line[64];
    snprintf(line, sizeof(line), "    .sgpr_count: %u\n", r.sgpr_count);
    CHECK_STR_CONTAINS(asm_text, line);
    CHECK_STR_CONTAINS(asm_text, "amdhsa.target: amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-\n");
    wa_free(asm_text);
    wa_sb_free(&sb);
    wa_program_destroy(p);
    wa_context_destroy(ctx);
}

/* ---- descriptor ---------------------------------------------------------------------- */

static void test_descriptor(void)
{
    wa_context *ctx = NULL;
    REQUIRE_OK(wa_context_create(&ctx, NULL));
    wa_program *p = parse(ctx,
                          ".kernel d\n  .target gfx942\n  .workgroup_size 64, 1, 1\n"
                          "  .lds_bytes 2048\n"
                          "  .abi dispatch_ptr, kernarg_ptr, workgroup_id_x, workgroup_id_z, "
                          "workitem_id_x, workitem_id_y\n"
                          "  .arg x, by_value, offset:0, size:4, align:4\n"
                          "  v_accvgpr_write_b32 a3, v9\n  s_mov_b32 s30, 0\n  s_endpgm\n"
                          ".end_kernel\n");
    REQUIRE(p);
    wa_kernel_resources r;
    REQUIRE_OK(wa_kernel_resources_compute(&r, p));
    wa_kd_fields kd;
    wa_kd_fields_compute(&kd, p, &r);
    unsigned char b[WA_KD_SIZE];
    memset(b, 0xAA, sizeof(b));
    wa_kd_bytes(b, &kd, -0x1234);
    CHECK_EQ_UINT(rd(b + 0, 4), 2048);
    CHECK_EQ_UINT(rd(b + 4, 4), 0);
    CHECK_EQ_UINT(rd(b + 8, 4), 8);
    CHECK_EQ_HEX(rd(b + 16, 8), (uint64_t)-0x1234);
    CHECK_EQ_HEX(rd(b + 44, 4), r.rsrc3);
    CHECK_EQ_HEX(rd(b + 48, 4), r.rsrc1);
    CHECK_EQ_HEX(rd(b + 52, 4), r.rsrc2);
    CHECK_EQ_HEX(rd(b + 56, 2), r.kernel_code_properties);
    /* dispatch_ptr (bit 1) and kernarg_segment_ptr (bit 3) */
    CHECK_EQ_HEX(rd(b + 56, 2), 0xA);
    /* rsrc2: 4 user SGPRs, workgroup ids x and z, work-item ids up to y */
    CHECK_EQ_HEX(r.rsrc2, (4u << 1) | (1u << 7) | (1u << 9) | (1u << 11));
    /* accum_offset align4(10) = 12: rsrc3 = 12/4 - 1 */
    CHECK_EQ_HEX(r.rsrc3 & 0x3F, 2);
    int reserved_zero = 1;
    for (unsigned i = 12; i < 16; i++)
        reserved_zero &= b[i] == 0;
    for (unsigned i = 24; i < 44; i++)
        reserved_zero &= b[i] == 0;
    for (unsigned i = 58; i < 64; i++)
        reserved_zero &= b[i] == 0;
    CHECK_MSG(reserved_zero, "reserved descriptor bytes are zero");
    /* the directives say the same */
    char *asm_text = NULL;
    size_t len = 0;
    REQUIRE_OK(wa_emit_asm(&asm_text, &len, p, NULL));
    CHECK_STR_CONTAINS(asm_text, "\t\t.amdhsa_group_segment_fixed_size 2048\n");
    CHECK_STR_CONTAINS(asm_text, "\t\t.amdhsa_user_sgpr_dispatch_ptr 1\n");
    CHECK_STR_CONTAINS(asm_text, "\t\t.amdhsa_system_vgpr_workitem_id 1\n");
    CHECK_STR_CONTAINS(asm_text, "\t\t.amdhsa_accum_offset 12\n");
    wa_free(asm_text);
    wa_program_destroy(p);
    wa_context_destroy(ctx);
}

/* ---- the ELF file -------------------------------------------------------------------- */

typedef struct shdr {
    uint32_t type;
    uint64_t addr, off, size;
} shdr;

static int find_section(const unsigned char *f, size_t n, const char *name, shdr *out)
{
    uint64_t shoff = rd(f + 40, 8);
    unsigned shnum = (unsigned)rd(f + 60, 2), shstr = (unsigned)rd(f + 62, 2);
    if (shoff + 64ull * shnum > n)
        return 0;
    const unsigned char *strs = f + rd(f + shoff + 64 * shstr + 24, 8);
    for (unsigned i = 1; i < shnum; i++) {
        const unsigned char *h = f + shoff + 64 * i;
        if (strcmp((const char *)strs + rd(h, 4), name) == 0) {
            out->type = (uint32_t)rd(h + 4, 4);
            out->addr = rd(h + 16, 8);
            out->off = rd(h + 24, 8);
            out->size = rd(h + 32, 8);
            return 1;
        }
    }
    return 0;
}

static void test_elf(void)
{
    static const struct {
        const char *target;
        unsigned mach;
    } targets[] = { { "gfx90a", 0x3f }, { "gfx942", 0x4c }, { "gfx950", 0x4f } };
    static const unsigned xbits[3] = { 0x100, 0x200, 0x300 }, sbits[3] = { 0x400, 0x800, 0xc00 };
    for (unsigned t = 0; t < 3; t++)
        for (unsigned x = 0; x < 3; x++)
            for (unsigned s = 0; s < 3; s++) {
                ut_context("%s xnack %u sramecc %u", targets[t].target, x, s);
                wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
                o.xnack = (wa_feature)x;
                o.sramecc = (wa_feature)s;
                wa_context *ctx = NULL;
                REQUIRE_OK(wa_context_create(&ctx, &o));
                wa_program *a = parse_renamed(ctx, "first", targets[t].target);
                wa_program *b = parse_renamed(ctx, "second", targets[t].target);
                REQUIRE(a && b);
                uint32_t labels[1] = { 12 };
                wa_object_kernel k[2] = { { a, code20, sizeof(code20), labels, 0 },
                                          { b, code20, 16, NULL, 0 } };
                unsigned char *f = NULL;
                size_t n = 0;
                REQUIRE_OK(wa_object_write(ctx, k, 2, &f, &n));
                CHECK(n > 64 && memcmp(f, "\177ELF\2\1\1\100\3", 9) == 0);
                CHECK_EQ_UINT(rd(f + 16, 2), 3);      /* ET_DYN */
                CHECK_EQ_UINT(rd(f + 18, 2), 224);    /* EM_AMDGPU */
                CHECK_EQ_HEX(rd(f + 48, 4), targets[t].mach | xbits[x] | sbits[s]);
                shdr text, ro, note, comment;
                REQUIRE(find_section(f, n, ".text", &text) && find_section(f, n, ".rodata", &ro) &&
                        find_section(f, n, ".note", &note) &&
                        find_section(f, n, ".comment", &comment));
                /* kernels at 256-byte boundaries, each followed by the s_nop tail */
                CHECK_EQ_UINT(text.addr % 256, 0);
                uint64_t second = (sizeof(code20) + 1024 + 255) / 256 * 256;
                CHECK_EQ_UINT(text.size, second + 16 + 1024);
                CHECK(memcmp(f + text.off, code20, sizeof(code20)) == 0);
                CHECK(memcmp(f + text.off + second, code20, 16) == 0);
                CHECK_EQ_HEX(rd(f + text.off + sizeof(code20), 4), 0xbf800000u);
                CHECK_EQ_HEX(rd(f + text.off + second - 4, 4), 0xbf800000u);
                /* descriptors: entry offset is the kernel's address minus the descriptor's */
                CHECK_EQ_UINT(ro.size, 128);
                CHECK_EQ_HEX(rd(f + ro.off + 16, 8), text.addr - ro.addr);
                CHECK_EQ_HEX(rd(f + ro.off + 64 + 16, 8), text.addr + second - ro.addr - 64);
                /* the note: "AMDGPU", NT_AMDGPU_METADATA */
                CHECK_EQ_UINT(rd(f + note.off, 4), 7);
                CHECK_EQ_UINT(rd(f + note.off + 8, 4), 32);
                CHECK(memcmp(f + note.off + 12, "AMDGPU", 7) == 0);
                CHECK_STR_EQ((const char *)f + comment.off, "libwaveasm " WA_VERSION_STRING);
                wa_free(f);
                wa_program_destroy(a);
                wa_program_destroy(b);
                wa_context_destroy(ctx);
            }
    ut_context("%s", "");
}

/* ---- bad input ----------------------------------------------------------------------- */

static void expect_error(wa_context *ctx, const wa_object_kernel *k, unsigned n, wa_status st,
                         const char *words, unsigned line)
{
    unsigned char *f = (unsigned char *)1;
    size_t len = 99;
    CHECK_STATUS(wa_object_write(ctx, k, n, &f, &len), st);
    CHECK(f == NULL && len == 0);
    CHECK_DIAG(ctx, st, words, line, UT_ANY, UT_ANY);
}

static void test_bad_input(void)
{
    wa_context *ctx = NULL;
    REQUIRE_OK(wa_context_create(&ctx, NULL));
    wa_program *a = parse_renamed(ctx, "same", "gfx942");
    wa_program *b = parse_renamed(ctx, "same", "gfx942");
    wa_program *c = parse_renamed(ctx, "other", "gfx950");
    wa_program *v = parse(ctx, ".kernel virt\n  .target gfx942\n  v_mov_b32 %v0, 0\n"
                               "  s_endpgm\n.end_kernel\n");
    REQUIRE(a && b && c && v);

    expect_error(ctx, NULL, 0, WA_E_INVALID, "at least one kernel", UT_ANY);

    wa_object_kernel k[2] = { { a, code20, sizeof(code20), NULL, 0 }, { b, code20, 16, NULL, 0 } };
    expect_error(ctx, k, 2, WA_E_INVALID, "two kernels|same", 7);

    k[1].prog = c;
    expect_error(ctx, k, 2, WA_E_INVALID, "other|gfx950|same|gfx942", 7);

    k[1].prog = v;
    expect_error(ctx, k, 2, WA_E_VALIDATE, "virt|cannot", 3);

    wa_object_kernel one = { a, code20, 0, NULL, 0 };
    expect_error(ctx, &one, 1, WA_E_INVALID, "same|0 bytes", 7);
    one.code_len = 6;
    expect_error(ctx, &one, 1, WA_E_INVALID, "same|multiple of 4", 7);
    uint32_t far[1] = { 24 };
    one.code_len = 20;
    one.label_offsets = far;
    expect_error(ctx, &one, 1, WA_E_RANGE, "loop|beyond", 7);

    /* other XNACK setting: a program of another context */
    wa_context_options o = WA_CONTEXT_OPTIONS_INIT;
    o.xnack = WA_FEATURE_ON;
    wa_context *ctx2 = NULL;
    REQUIRE_OK(wa_context_create(&ctx2, &o));
    wa_program *d = parse_renamed(ctx2, "xnack_on", "gfx942");
    REQUIRE(d);
    k[0].prog = a;
    k[1].prog = d;
    expect_error(ctx, k, 2, WA_E_INVALID, "xnack_on|XNACK", 7);

    /* and the good case still works after all that */
    wa_program *e = parse_renamed(ctx, "fine", "gfx942");
    k[1].prog = e;
    unsigned char *f = NULL;
    size_t len = 0;
    CHECK_OK(wa_object_write(ctx, k, 2, &f, &len));
    CHECK(f != NULL && len > 0);
    wa_free(f);

    wa_program_destroy(a);
    wa_program_destroy(b);
    wa_program_destroy(c);
    wa_program_destroy(e);
    wa_program_destroy(v);
    wa_program_destroy(d);
    wa_context_destroy(ctx2);
    wa_context_destroy(ctx);
}

UT_SUITE(UT_CASE(test_msgpack) UT_CASE(test_metadata) UT_CASE(test_descriptor)
             UT_CASE(test_elf) UT_CASE(test_bad_input));
