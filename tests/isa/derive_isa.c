/* tests/isa/derive_isa.c — derives the compute instruction set of gfx90a, gfx942
   and gfx950 from LLVM's AMDGPU disassembler (LLVM-C: llvm-c/Disassembler.h).

   For every compute encoding it walks every value of the opcode field, builds a
   few instruction words with different values in the other fields (unused
   fields zero or set, even-aligned register tuples, sources of each kind) and
   asks the disassembler to decode them. The first variant that decodes without
   a warning gives the sample; further variants probe capabilities (a VOP3
   form, DPP, SDWA, glc, lds, ...). The output is a TSV, sorted, one line per
   (target, encoding, opcode[, lds]):

     target  encoding  opcode  mnemonic  sample  flags

   encoding  SOP1 SOP2 SOPK SOPC SOPP SMEM VOP1 VOP2 VOPC VOP3 VOP3P MAI DS
             MUBUF FLAT GLOBAL SCRATCH (MAI: the VOP3P-encoded v_mfma_* and v_smfmac_*)
   opcode    the opcode field (hex); VOP3 lines are VOP3-only instructions, the
             VOP3 forms of VOP1/VOP2/VOPC instructions are the `e64=` flag of
             their 32-bit line
   mnemonic  as the disassembler prints it without an _e32/_e64/_dpp/_sdwa suffix
   sample    the instruction as printed (assembles with llvm-mc)
   flags     comma-separated: bytes=N, e64=0xNNN (VOP3 opcode of the promoted
             form), dpp, sdwa, glc (the cache bit decodes), lds (MUBUF/FLAT lds
             bit: a separate line with the flag), sve (scratch vaddr enable),
             saddr / saddr-off (FLAT address forms that decode), imm / soffset
             (SMEM offset forms), gds (decodes only with the DS gds bit), acc
             (the DS/MUBUF/FLAT acc bit decodes), warn (every variant printed
             a warning)

   Encodings that are not walked (graphics only): EXP, MIMG, MTBUF, VINTRP. See
   tests/isa/exclusions.tsv and docs/isa-table.md.

   usage: wa_derive_isa [-o FILE | --check FILE] [TARGET...]
          (targets default to gfx90a gfx942 gfx950; --check compares with FILE and
          exits 1 when they differ) */
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static LLVMDisasmContextRef dc;

/* Decodes up to 4 dwords; returns the byte length (0: invalid) and the text
   without leading blanks. */
static unsigned decode(const uint32_t w[4], char *out, size_t n)
{
    uint8_t b[16];
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < 4; k++)
            b[4 * i + k] = (uint8_t)(w[i] >> (8 * k));
    char buf[256];
    size_t len = LLVMDisasmInstruction(dc, b, sizeof(b), 0, buf, sizeof(buf));
    const char *p = buf;
    while (*p == ' ' || *p == '\t')
        p++;
    snprintf(out, n, "%s", len ? p : "");
    /* tabs inside the text would break the TSV */
    for (char *q = out; *q; q++)
        if (*q == '\t')
            *q = ' ';
    return (unsigned)len;
}

/* The text up to a "; Warning" or other trailing comment; 1 if there was one. */
static int strip_comment(char *text)
{
    char *c = strchr(text, ';');
    if (!c)
        return 0;
    while (c > text && c[-1] == ' ')
        c--;
    *c = '\0';
    return 1;
}

static void first_word(const char *text, char *mn, size_t n)
{
    size_t i = 0;
    while (text[i] && text[i] != ' ' && i + 1 < n) {
        mn[i] = text[i];
        i++;
    }
    mn[i] = '\0';
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Mnemonic without the encoding suffix. */
static void base_mnemonic(const char *printed, char *out, size_t n)
{
    snprintf(out, n, "%s", printed);
    static const char *const sufs[] = { "_e32", "_e64", "_dpp", "_sdwa" };
    for (unsigned i = 0; i < 4; i++)
        if (ends_with(out, sufs[i])) {
            out[strlen(out) - strlen(sufs[i])] = '\0';
            break;
        }
}

/* ---- output records --------------------------------------------------------------- */

typedef struct rec {
    const char *target;
    char enc[12];
    unsigned op;
    int lds;        /* second line for the lds bit */
    char mn[96];
    char sample[256];
    char flags[256];
} rec;

static rec *recs;
static size_t nrecs, caprecs;

static rec *new_rec(void)
{
    if (nrecs == caprecs) {
        caprecs = caprecs ? 2 * caprecs : 1024;
        recs = realloc(recs, caprecs * sizeof(rec));
        if (!recs) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    rec *r = &recs[nrecs++];
    memset(r, 0, sizeof(*r));
    return r;
}

static void add_flag(rec *r, const char *flag)
{
    size_t len = strlen(r->flags);
    snprintf(r->flags + len, sizeof(r->flags) - len, "%s%s", len ? "," : "", flag);
}

/* name=0xNNN */
static void add_flag_hex(rec *r, const char *name, unsigned v)
{
    char f[64];
    snprintf(f, sizeof(f), "%s=0x%03x", name, v);
    add_flag(r, f);
}

/* ---- walking one encoding ---------------------------------------------------------- */

/* Builds variant `v` of opcode `op` into w; returns 0 when there are no more. */
typedef int (*build_fn)(unsigned op, unsigned v, uint32_t w[4]);

typedef struct probe {
    unsigned len;
    char text[256];
    char mn[96];
    int warned;
} probe;

/* First variant that decodes, preferring one without a warning. */
static int find(build_fn b, unsigned op, probe *out)
{
    int found = 0;
    for (unsigned v = 0;; v++) {
        uint32_t w[4] = { 0, 0, 0, 0 };
        if (!b(op, v, w))
            break;
        char text[256];
        unsigned len = decode(w, text, sizeof(text));
        if (!len)
            continue;
        int warned = strip_comment(text);
        if (!found || (out->warned && !warned)) {
            out->len = len;
            snprintf(out->text, sizeof(out->text), "%s", text);
            char printed[96];
            first_word(text, printed, sizeof(printed));
            base_mnemonic(printed, out->mn, sizeof(out->mn));
            out->warned = warned;
            found = 1;
            if (!warned)
                break;
        }
    }
    return found;
}

static int decodes_as(build_fn b, unsigned op, const char *mn, const char *suffix, int *warned)
{
    probe p;
    if (!find(b, op, &p) || strcmp(p.mn, mn) != 0)
        return 0;
    if (suffix) {
        char printed[96];
        first_word(p.text, printed, sizeof(printed));
        if (!ends_with(printed, suffix))
            return 0;
    }
    if (warned)
        *warned = p.warned;
    return 1;
}

static int contains_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        if ((p == text || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
    return 0;
}

static rec *emit(const char *target, const char *enc, unsigned op, const probe *p)
{
    rec *r = new_rec();
    r->target = target;
    snprintf(r->enc, sizeof(r->enc), "%s", enc);
    r->op = op;
    snprintf(r->mn, sizeof(r->mn), "%s", p->mn);
    snprintf(r->sample, sizeof(r->sample), "%s", p->text);
    char bytes[32];
    snprintf(bytes, sizeof(bytes), "bytes=%u", p->len);
    add_flag(r, bytes);
    return r;
}

/* ---- scalar encodings (ISA reference §6.1) ------------------------------------------ */

#define LIT 0x12345678u

static int b_sop2(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned char f[][3] = { { 4, 2, 0 }, { 4, 0x80, 0x80 }, { 0, 0, 0 }, { 4, 2, 6 } };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 2u << 30 | op << 23 | (unsigned)f[v][0] << 16 | (unsigned)f[v][1] << 8 | f[v][2];
    w[1] = LIT;
    return 1;
}

static int b_sopk(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][2] = { { 4, 0x10 }, { 0, 0 }, { 4, 0 }, { 4, 0x801 } };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0xBu << 28 | op << 23 | f[v][0] << 16 | f[v][1];
    w[1] = LIT;
    return 1;
}

static int b_sop1(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned char f[][2] = { { 4, 2 }, { 4, 0x80 }, { 0, 0 }, { 0, 2 }, { 4, 0 } };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x17Du << 23 | (unsigned)f[v][0] << 16 | op << 8 | f[v][1];
    w[1] = LIT;
    return 1;
}

static int b_sopc(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned char f[][2] = { { 2, 0 }, { 0x80, 0 }, { 0, 0 }, { 2, 4 } };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x17Eu << 23 | op << 16 | (unsigned)f[v][0] << 8 | f[v][1];
    w[1] = LIT;
    return 1;
}

static int b_sopp(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[] = { 0, 1, 3, 0x7F };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x17Fu << 23 | op << 16 | f[v];
    w[1] = 0;
    return 1;
}

/* SMEM: op[25:18] imm[17] glc[16] soe[14] sdata[12:6] sbase[5:0] (pair number);
   dword 1: offset[20:0], soffset[31:25]. */
static unsigned smem_glc; /* capability probe: set the glc bit */
static int b_smem(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][4] = {
        /* imm, sdata, sbase, offset */
        { 1, 4, 2, 0x10 }, { 1, 4, 4, 0x10 }, { 1, 0, 0, 0 }, { 0, 0, 0, 0 }, { 1, 4, 0, 0 },
        { 0, 4, 2, 6 }, { 1, 8, 2, 0x10 },
    };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x30u << 26 | op << 18 | f[v][0] << 17 | smem_glc << 16 | f[v][1] << 6 | f[v][2];
    w[1] = f[v][3];
    return 1;
}
static int b_smem_imm(unsigned op, unsigned v, uint32_t w[4])
{
    if (v > 0)
        return 0;
    w[0] = 0x30u << 26 | op << 18 | 1u << 17 | 4u << 6 | 2u;
    w[1] = 0x10;
    return 1;
}
static int b_smem_sgpr(unsigned op, unsigned v, uint32_t w[4])
{
    if (v > 0)
        return 0;
    w[0] = 0x30u << 26 | op << 18 | 4u << 6 | 2u;
    w[1] = 6;
    return 1;
}

/* ---- vector ALU ------------------------------------------------------------------------- */

/* src0 codes: v2 (0x102), s2, inline 1; vsrc1 v4; vdst v8. */
static int b_vop2(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][3] = { { 0x102, 4, 8 }, { 0x02, 4, 8 }, { 0x81, 4, 8 }, { 0x102, 4, 0x6A } };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = op << 25 | f[v][2] << 17 | f[v][1] << 9 | f[v][0];
    w[1] = LIT;
    return 1;
}
static int b_vop1(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][2] = { { 0x102, 8 }, { 0x02, 8 }, { 0x81, 8 }, { 0x102, 0 }, { 0, 0 } };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x3Fu << 25 | f[v][1] << 17 | op << 9 | f[v][0];
    w[1] = LIT;
    return 1;
}
static int b_vopc(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][2] = { { 0x102, 4 }, { 0x02, 4 }, { 0x81, 4 } };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x3Eu << 25 | op << 17 | f[v][1] << 9 | f[v][0];
    w[1] = LIT;
    return 1;
}

/* DPP (src0 = 0xFA) and SDWA (src0 = 0xF9) variants of the 32-bit forms. */
#define DPP_WORD (0xFu << 28 | 0xFu << 24 | 0xE4u << 8 | 2u)
static int b_vop2_dpp(unsigned op, unsigned v, uint32_t w[4])
{
    if (v > 0)
        return 0;
    w[0] = op << 25 | 8u << 17 | 4u << 9 | 0xFAu;
    w[1] = DPP_WORD;
    return 1;
}
/* SDWA words: fields a form does not have must be zero (VOP1: no src1_sel). */
static int sdwa_word(unsigned v, uint32_t *word)
{
    static const uint32_t f[] = {
        6u << 24 | 6u << 16 | 2u << 11 | 6u << 8 | 2u, /* all selects DWORD, UNUSED_PRESERVE */
        6u << 16 | 2u << 11 | 6u << 8 | 2u,            /* no src1 */
        6u << 24 | 6u << 16 | 6u << 8 | 2u,            /* UNUSED_PAD */
        6u << 16 | 6u << 8 | 2u,
    };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    *word = f[v];
    return 1;
}
static int b_vop2_sdwa(unsigned op, unsigned v, uint32_t w[4])
{
    w[0] = op << 25 | 8u << 17 | 4u << 9 | 0xF9u;
    return sdwa_word(v, &w[1]);
}
static int b_vop1_dpp(unsigned op, unsigned v, uint32_t w[4])
{
    if (v > 0)
        return 0;
    w[0] = 0x3Fu << 25 | 8u << 17 | op << 9 | 0xFAu;
    w[1] = DPP_WORD;
    return 1;
}
static int b_vop1_sdwa(unsigned op, unsigned v, uint32_t w[4])
{
    w[0] = 0x3Fu << 25 | 8u << 17 | op << 9 | 0xF9u;
    return sdwa_word(v, &w[1]);
}
static int b_vopc_dpp(unsigned op, unsigned v, uint32_t w[4])
{
    if (v > 0)
        return 0;
    w[0] = 0x3Eu << 25 | op << 17 | 4u << 9 | 0xFAu;
    w[1] = DPP_WORD;
    return 1;
}
static int b_vopc_sdwa(unsigned op, unsigned v, uint32_t w[4])
{
    if (v > 1)
        return 0;
    w[0] = 0x3Eu << 25 | op << 17 | 4u << 9 | 0xF9u;
    /* VOPC SDWA: sdst in place of dst_sel (bit 15 set: an explicit SGPR pair) */
    w[1] = v ? (6u << 24 | 6u << 16 | 2u) : (6u << 24 | 6u << 16 | 0x80u << 8 | 4u << 8 | 2u);
    return 1;
}

/* VOP3: op[25:16] clamp[15] (abs/op_sel or sdst)[14:8] vdst[7:0]; dword 1:
   neg[31:29] omod[28:27] src2[26:18] src1[17:9] src0[8:0]. */
static int b_vop3(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][4] = {
        /* vdst, src0, src1, src2 */
        { 8, 0x102, 0x104, 0x106 }, { 8, 0x02, 0x104, 0x106 }, { 8, 0x102, 0x02, 0x106 },
        { 8, 0x02, 0x04, 0x106 },   { 8, 0x102, 0x104, 0x04 }, { 8, 0x102, 0x104, 0x80 },
        { 8, 0x81, 0x81, 0x81 },    { 0, 0, 0, 0 },            { 8, 0x102, 0x80, 0x80 },
        { 4, 0x102, 0x104, 0x106 }, { 8, 0x102, 0x81, 0x106 },
    };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x34u << 26 | op << 16 | f[v][0];
    w[1] = f[v][3] << 18 | f[v][2] << 9 | f[v][1];
    return 1;
}

/* VOP3P: op[22:16] clamp[15] op_sel_hi[2]@14 op_sel[13:11] neg_hi[10:8] vdst[7:0];
   dword 1: neg[31:29] op_sel_hi[1:0]@[28:27] src2 src1 src0. MAI: acc_cd[15],
   abid[14:11], cbsz[10:8]; blgp[31:29], acc[28:27]. */
static int b_vop3p(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][6] = {
        /* vdst, src0, src1, src2, op_sel_hi bits (w0 bit 14, w1 bits 28:27), acc_cd */
        { 8, 0x102, 0x104, 0x106, 1, 0 },    { 8, 0x102, 0x104, 0x106, 0, 0 },
        { 0, 0x120, 0x130, 0x100, 0, 0 },    { 0, 0x120, 0x130, 0x100, 0, 1 },
        { 8, 0x02, 0x104, 0x106, 1, 0 },     { 8, 0x102, 0x104, 0x80, 1, 0 },
        { 0, 0x120, 0x130, 0x140, 0, 0 },    { 0, 0x120, 0x130, 0x80, 0, 0 },
        { 8, 0x102, 0x104, 0x106, 2, 0 },    { 8, 0x81, 0x81, 0x81, 1, 0 },
        { 0, 0, 0, 0, 0, 0 },                { 0, 0x120, 0x128, 0x100, 0, 0 },
    };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    unsigned hi = f[v][4] == 1 ? 1u : 0u;
    w[0] = 0x1A7u << 23 | op << 16 | f[v][5] << 15 | hi << 14 | f[v][0];
    w[1] = (f[v][4] == 1 ? 3u << 27 : 0) | f[v][3] << 18 | f[v][2] << 9 | f[v][1];
    /* a scaled MFMA (gfx950) is two VOP3P words: the scale prefix first */
    w[2] = 0x1A7u << 23 | op << 16 | 8u;
    w[3] = 0x104u << 9 | 0x102u;
    return 1;
}

/* MAI: no modifier bits; A/B up to 8 registers, C/D up to 16 (and the scale
   prefix's second word for the gfx950 scaled MFMAs). */
static int b_mai(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][4] = {
        /* vdst, src0, src1, src2 */
        { 0, 0x120, 0x130, 0x100 }, { 0, 0x120, 0x130, 0x140 }, { 0, 0x120, 0x130, 0x80 },
        { 0, 0x120, 0x128, 0x100 }, { 8, 0x102, 0x104, 0x106 },
    };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x1A7u << 23 | op << 16 | f[v][0];
    w[1] = f[v][3] << 18 | f[v][2] << 9 | f[v][1];
    w[2] = 0x1A7u << 23 | op << 16 | 8u;
    w[3] = 0x104u << 9 | 0x102u;
    return 1;
}

/* A two-instruction MFMA: the v_mfma_ld_scale_b32 prefix (VOP3P opcode `pre`,
   scale VGPRs v20/v21) followed by the MFMA word of opcode `op` (gfx950's
   v_mfma_scale_*: one instruction of 16 bytes). */
static unsigned scale_prefix;
static int b_mai_scaled(unsigned op, unsigned v, uint32_t w[4])
{
    /* llvm-mc sets bit 11 of the MFMA word in this form (an unused abid bit) */
    if (v > 1)
        return 0;
    w[0] = 0x1A7u << 23 | scale_prefix << 16;
    w[1] = 0x115u << 9 | 0x114u;
    w[2] = 0x1A7u << 23 | op << 16 | (v ? 0u : 0x800u);
    w[3] = 0x100u << 18 | 0x10Cu << 9 | 0x104u;
    return 1;
}

/* ---- memory ------------------------------------------------------------------------------- */

/* DS: acc[25] op[24:17] gds[16] offset1[15:8] offset0[7:0]; dword 1: vdst[31:24]
   data1[23:16] data0[15:8] addr[7:0]. */
static unsigned ds_gds, ds_acc;
static int b_ds(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][4] = {
        /* vdst, data1, data0, addr */
        { 0, 0, 4, 2 }, { 0, 6, 4, 2 }, { 8, 0, 4, 2 },   { 8, 6, 4, 2 },   { 8, 0, 0, 2 },
        { 0, 0, 0, 2 }, { 8, 12, 4, 2 }, { 16, 12, 4, 2 }, { 8, 0, 0, 0 }, { 0, 0, 4, 0 },
        { 0, 0, 0, 0 },
    };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x36u << 26 | ds_acc << 25 | op << 17 | ds_gds << 16;
    w[1] = f[v][0] << 24 | f[v][1] << 16 | f[v][2] << 8 | f[v][3];
    return 1;
}

/* MUBUF: op[24:18] nt[17] lds[16] sc1[15] sc0[14] idxen[13] offen[12] offset[11:0];
   dword 1: soffset[31:24] acc[23] srsrc[20:16] vdata[15:8] vaddr[7:0]. */
static unsigned mubuf_lds, mubuf_glc, mubuf_acc;
static int b_mubuf(unsigned op, unsigned v, uint32_t w[4])
{
    static const unsigned f[][4] = {
        /* offen, vdata, vaddr, soffset */
        { 1, 4, 2, 0x80 }, { 0, 4, 0, 0x80 }, { 1, 0, 2, 0x80 }, { 0, 0, 0, 0x80 }, { 1, 8, 2, 0x80 },
    };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    w[0] = 0x38u << 26 | op << 18 | mubuf_lds << 16 | mubuf_glc << 14 | f[v][0] << 12;
    w[1] = f[v][3] << 24 | mubuf_acc << 23 | 2u << 16 | f[v][1] << 8 | f[v][2];
    return 1;
}

/* FLAT/GLOBAL/SCRATCH: op[24:18] nt[17] sc0[16] seg[15:14] lds/sve[13] offset[12:0];
   dword 1: vdst[31:24] acc[23] saddr[22:16] (0x7F off) data[15:8] addr[7:0]. */
static unsigned flat_seg, flat_bit13, flat_glc, flat_acc;
static int b_flat_with(unsigned op, unsigned v, uint32_t w[4], int which)
{
    static const unsigned f[][4] = {
        /* vdst, saddr, data, addr */
        { 8, 0x7F, 4, 2 }, { 8, 4, 4, 2 }, { 8, 0x7F, 0, 2 }, { 0, 0x7F, 4, 2 }, { 0, 4, 4, 2 },
        { 0, 0x7F, 0, 2 }, { 8, 0x7F, 0, 0 }, { 8, 4, 0, 0 }, { 8, 0, 4, 2 }, { 0, 0, 0, 2 },
        { 8, 0x7F, 12, 2 }, { 16, 0x7F, 12, 2 }, { 0, 0x7F, 0, 0 }, { 0, 4, 0, 2 }, { 8, 2, 4, 2 },
    };
    if (v >= sizeof(f) / sizeof(f[0]))
        return 0;
    if (which == 1 && f[v][1] == 0x7F)
        return 2; /* skip: wants an SGPR address */
    if (which == 2 && f[v][1] != 0x7F)
        return 2;
    w[0] = 0x37u << 26 | op << 18 | flat_glc << 16 | flat_seg << 14 | flat_bit13 << 13;
    w[1] = f[v][0] << 24 | flat_acc << 23 | f[v][1] << 16 | f[v][2] << 8 | f[v][3];
    return 1;
}
static int b_flat(unsigned op, unsigned v, uint32_t w[4]) { return b_flat_with(op, v, w, 0) != 0; }
/* Variant filters: 0 = decoding as an invalid "skip" word (all zero) is harmless,
   since word 0 then has no FLAT prefix and fails to decode as this opcode. */
static int b_flat_saddr(unsigned op, unsigned v, uint32_t w[4])
{
    int r = b_flat_with(op, v, w, 1);
    if (r == 2)
        w[0] = w[1] = 0xFFFFFFFFu;
    return r != 0;
}
static int b_flat_off(unsigned op, unsigned v, uint32_t w[4])
{
    int r = b_flat_with(op, v, w, 2);
    if (r == 2)
        w[0] = w[1] = 0xFFFFFFFFu;
    return r != 0;
}

/* ---- per target --------------------------------------------------------------------------- */

static void walk_scalar(const char *t, const char *enc, build_fn b, unsigned nops,
                        unsigned skip_from)
{
    for (unsigned op = 0; op < nops; op++) {
        if (op >= skip_from)
            break;
        probe p;
        if (!find(b, op, &p))
            continue;
        rec *r = emit(t, enc, op, &p);
        if (p.warned)
            add_flag(r, "warn");
    }
}

static void walk_smem(const char *t)
{
    for (unsigned op = 0; op < 256; op++) {
        probe p;
        smem_glc = 0;
        if (!find(b_smem, op, &p))
            continue;
        rec *r = emit(t, "SMEM", op, &p);
        if (decodes_as(b_smem_imm, op, p.mn, NULL, NULL))
            add_flag(r, "imm");
        if (decodes_as(b_smem_sgpr, op, p.mn, NULL, NULL))
            add_flag(r, "soffset");
        smem_glc = 1;
        probe g;
        if (find(b_smem, op, &g) && strcmp(g.mn, p.mn) == 0 && contains_word(g.text, "glc"))
            add_flag(r, "glc");
        smem_glc = 0;
        if (p.warned)
            add_flag(r, "warn");
    }
}

/* The scaled MFMAs: an MFMA word behind the scale prefix that decodes as one
   instruction (the line's opcode is the MFMA word's). */
static void walk_scaled_mfma(const char *t)
{
    for (unsigned op = 0; op < 128; op++) {
        probe p;
        if (!find(b_mai_scaled, op, &p) || p.len != 16 || strncmp(p.mn, "v_mfma_scale", 12) != 0)
            continue;
        rec *r = emit(t, "MAI", op, &p);
        add_flag_hex(r, "prefix", scale_prefix);
        if (p.warned)
            add_flag(r, "warn");
    }
}

typedef struct vop32 {
    const char *enc;
    unsigned nops;
    unsigned vop3_base;
    build_fn plain, dpp, sdwa;
} vop32;

static void walk_valu(const char *t)
{
    static const vop32 fams[] = {
        { "VOPC", 256, 0x000, b_vopc, b_vopc_dpp, b_vopc_sdwa },
        { "VOP2", 62, 0x100, b_vop2, b_vop2_dpp, b_vop2_sdwa },
        { "VOP1", 256, 0x140, b_vop1, b_vop1_dpp, b_vop1_sdwa },
    };
    /* VOP3 opcodes that are the promoted form of a 32-bit line */
    static unsigned char promoted[1024];
    memset(promoted, 0, sizeof(promoted));
    for (unsigned fi = 0; fi < 3; fi++) {
        const vop32 *F = &fams[fi];
        for (unsigned op = 0; op < F->nops; op++) {
            /* VOP2 opcodes 0x3E/0x3F are the VOPC/VOP1 prefixes */
            probe p;
            if (!find(F->plain, op, &p))
                continue;
            rec *r = emit(t, F->enc, op, &p);
            unsigned op3 = F->vop3_base + op;
            if (op3 < 0x1C0 && decodes_as(b_vop3, op3, p.mn, "_e64", NULL)) {
                add_flag_hex(r, "e64", op3);
                promoted[op3] = 1;
            }
            if (decodes_as(F->dpp, op, p.mn, "_dpp", NULL))
                add_flag(r, "dpp");
            if (decodes_as(F->sdwa, op, p.mn, "_sdwa", NULL))
                add_flag(r, "sdwa");
            if (p.warned)
                add_flag(r, "warn");
        }
    }
    /* VOP3 opcodes from 0x380 are VOP3P words (prefix 0x1A7) */
    for (unsigned op = 0; op < 0x380; op++) {
        probe p;
        if (promoted[op] || !find(b_vop3, op, &p))
            continue;
        rec *r = emit(t, "VOP3", op, &p);
        if (p.warned)
            add_flag(r, "warn");
    }
    int have_prefix = 0;
    for (unsigned op = 0; op < 128; op++) {
        probe p;
        if (!find(b_vop3p, op, &p))
            continue;
        if (strcmp(p.mn, "v_mfma_ld_scale_b32") == 0) {
            scale_prefix = op;
            have_prefix = 1;
        }
        int mai = strncmp(p.mn, "v_mfma", 6) == 0 || strncmp(p.mn, "v_smfmac", 8) == 0;
        probe q;
        if (mai && find(b_mai, op, &q) && strcmp(q.mn, p.mn) == 0)
            p = q;
        rec *r = emit(t, mai ? "MAI" : "VOP3P", op, &p);
        if (p.warned)
            add_flag(r, "warn");
    }
    if (have_prefix)
        walk_scaled_mfma(t);
}

static void walk_ds(const char *t)
{
    for (unsigned op = 0; op < 256; op++) {
        probe p;
        ds_gds = 0;
        ds_acc = 0;
        int gds_only = 0;
        if (!find(b_ds, op, &p)) {
            ds_gds = 1;
            if (!find(b_ds, op, &p)) {
                ds_gds = 0;
                continue;
            }
            gds_only = 1;
        }
        rec *r = emit(t, "DS", op, &p);
        if (gds_only)
            add_flag(r, "gds");
        ds_acc = 1;
        probe a;
        if (find(b_ds, op, &a) && strcmp(a.mn, p.mn) == 0 && strstr(a.text, " a"))
            add_flag(r, "acc");
        ds_acc = 0;
        ds_gds = 0;
        if (p.warned)
            add_flag(r, "warn");
    }
}

static void walk_mubuf(const char *t)
{
    for (unsigned op = 0; op < 128; op++) {
        for (unsigned lds = 0; lds < 2; lds++) {
            probe p;
            mubuf_lds = lds;
            mubuf_glc = mubuf_acc = 0;
            if (!find(b_mubuf, op, &p))
                continue;
            if (lds && !contains_word(p.text, "lds"))
                continue;
            rec *r = emit(t, "MUBUF", op, &p);
            r->lds = (int)lds;
            if (lds)
                add_flag(r, "lds");
            mubuf_glc = 1;
            probe g;
            if (find(b_mubuf, op, &g) && strcmp(g.mn, p.mn) == 0 &&
                (contains_word(g.text, "glc") || contains_word(g.text, "sc0")))
                add_flag(r, "glc");
            mubuf_glc = 0;
            mubuf_acc = 1;
            if (!lds && find(b_mubuf, op, &g) && strcmp(g.mn, p.mn) == 0 && strstr(g.text, " a"))
                add_flag(r, "acc");
            mubuf_acc = 0;
            if (p.warned)
                add_flag(r, "warn");
        }
    }
    mubuf_lds = 0;
}

static void walk_flat(const char *t)
{
    static const char *const segs[3] = { "FLAT", "SCRATCH", "GLOBAL" };
    for (unsigned seg = 0; seg < 3; seg++) {
        for (unsigned op = 0; op < 128; op++) {
            for (unsigned bit = 0; bit < 2; bit++) {
                probe p;
                flat_seg = seg;
                flat_bit13 = bit;
                flat_glc = flat_acc = 0;
                if (!find(b_flat, op, &p))
                    continue;
                /* bit 13 is `lds` (flat, global) or `sve` (scratch on gfx940+);
                   a second line only where the bit changes the instruction */
                int lds = bit && contains_word(p.text, "lds");
                if (bit && !lds && seg != 1)
                    continue;
                if (bit && seg == 1) {
                    probe q;
                    flat_bit13 = 0;
                    int plain = find(b_flat, op, &q);
                    flat_bit13 = 1;
                    if (plain && !lds)
                        continue; /* same instruction; recorded as the sve flag below */
                }
                rec *r = emit(t, segs[seg], op, &p);
                r->lds = lds;
                if (lds)
                    add_flag(r, "lds");
                if (decodes_as(b_flat_saddr, op, p.mn, NULL, NULL))
                    add_flag(r, "saddr");
                if (decodes_as(b_flat_off, op, p.mn, NULL, NULL))
                    add_flag(r, "saddr-off");
                if (seg == 1 && !bit) {
                    flat_bit13 = 1;
                    if (decodes_as(b_flat, op, p.mn, NULL, NULL))
                        add_flag(r, "sve");
                    flat_bit13 = bit;
                }
                flat_glc = 1;
                probe g;
                if (find(b_flat, op, &g) && strcmp(g.mn, p.mn) == 0 &&
                    (contains_word(g.text, "glc") || contains_word(g.text, "sc0")))
                    add_flag(r, "glc");
                flat_glc = 0;
                flat_acc = 1;
                if (find(b_flat, op, &g) && strcmp(g.mn, p.mn) == 0 && strstr(g.text, " a"))
                    add_flag(r, "acc");
                flat_acc = 0;
                if (p.warned)
                    add_flag(r, "warn");
            }
        }
    }
    flat_seg = flat_bit13 = 0;
}

static void walk_target(const char *t)
{
    dc = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", t, NULL, 0, NULL, NULL);
    if (!dc) {
        fprintf(stderr, "wa_derive_isa: LLVM has no disassembler for %s\n", t);
        exit(1);
    }
    /* Opcode values whose prefix is another format are skipped: SOP2 ops from 0x60
       are SOPK/SOP1/SOPC/SOPP words, SOPK ops from 0x1C are SOP1/SOPC/SOPP. */
    walk_scalar(t, "SOP2", b_sop2, 128, 0x60);
    walk_scalar(t, "SOPK", b_sopk, 32, 0x1C);
    walk_scalar(t, "SOP1", b_sop1, 256, 256);
    walk_scalar(t, "SOPC", b_sopc, 128, 128);
    walk_scalar(t, "SOPP", b_sopp, 128, 128);
    walk_smem(t);
    walk_valu(t);
    walk_ds(t);
    walk_mubuf(t);
    walk_flat(t);
    LLVMDisasmDispose(dc);
}

static int cmp_rec(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    int c = strcmp(x->target, y->target);
    if (c)
        return c;
    if ((c = strcmp(x->enc, y->enc)))
        return c;
    if (x->op != y->op)
        return x->op < y->op ? -1 : 1;
    return x->lds - y->lds;
}

static void write_all(FILE *f)
{
    fprintf(f, "# Compute instruction set derived from LLVM's AMDGPU disassembler by\n"
               "# tests/isa/derive_isa.c (regenerate: cmake --build <dir> --target isa-derive).\n"
               "# target\tencoding\topcode\tmnemonic\tsample\tflags\n");
    for (size_t i = 0; i < nrecs; i++) {
        const rec *r = &recs[i];
        fprintf(f, "%s\t%s\t0x%03x\t%s\t%s\t%s\n", r->target, r->enc, r->op, r->mn, r->sample,
                r->flags);
    }
}

/* 1 if the file holds exactly what write_all would write. */
static int same_as_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 0;
    }
    FILE *t = tmpfile();
    if (!t) {
        fclose(f);
        return 0;
    }
    write_all(t);
    rewind(t);
    int same = 1, a, b;
    do {
        a = fgetc(f);
        b = fgetc(t);
        if (a != b)
            same = 0;
    } while (same && a != EOF);
    fclose(f);
    fclose(t);
    return same;
}

int main(int argc, char **argv)
{
    const char *out_path = NULL, *check_path = NULL;
    const char *targets[8];
    unsigned nt = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out_path = argv[++i];
        else if (strcmp(argv[i], "--check") == 0 && i + 1 < argc)
            check_path = argv[++i];
        else if (argv[i][0] != '-' && nt < 8)
            targets[nt++] = argv[i];
        else {
            fprintf(stderr, "usage: wa_derive_isa [-o FILE | --check FILE] [TARGET...]\n");
            return 2;
        }
    }
    if (!nt) {
        targets[nt++] = "gfx90a";
        targets[nt++] = "gfx942";
        targets[nt++] = "gfx950";
    }
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
    for (unsigned i = 0; i < nt; i++)
        walk_target(targets[i]);
    qsort(recs, nrecs, sizeof(rec), cmp_rec);
    int status = 0;
    if (check_path) {
        if (same_as_file(check_path)) {
            printf("%s matches what LLVM's disassembler gives (%zu lines)\n", check_path, nrecs);
        } else {
            printf("%s differs from what LLVM's disassembler gives: regenerate it with "
                   "`cmake --build <dir> --target isa-derive` and review the difference\n",
                   check_path);
            status = 1;
        }
    } else {
        FILE *f = out_path ? fopen(out_path, "w") : stdout;
        if (!f) {
            perror(out_path);
            return 1;
        }
        write_all(f);
        if (out_path && fclose(f) != 0) {
            perror(out_path);
            status = 1;
        }
    }
    free(recs);
    return status;
}
