/* lib/ir/isa.c — builds the static table from <waveasm/isa.def> and answers
   questions about it. Nothing here knows about individual opcodes. */
#include <string.h>

#include <waveasm/isa.h>

/* Short words used inside the table rows. */
#define ALL (WA_TARGET_BIT(WA_TARGET_GFX90A) | WA_TARGET_BIT(WA_TARGET_GFX942) | WA_TARGET_BIT(WA_TARGET_GFX950))
#define G94X (WA_TARGET_BIT(WA_TARGET_GFX942) | WA_TARGET_BIT(WA_TARGET_GFX950))
#define G950 (WA_TARGET_BIT(WA_TARGET_GFX950))
#define G942 (WA_TARGET_BIT(WA_TARGET_GFX942))
#define G90A (WA_TARGET_BIT(WA_TARGET_GFX90A))

#define PSEUDO WA_IF_PSEUDO
#define BRANCH WA_IF_BRANCH
#define CBRANCH WA_IF_CBRANCH
#define ENDPGM WA_IF_ENDPGM
#define BARRIER WA_IF_BARRIER
#define WAITCNT WA_IF_WAITCNT
#define NOP WA_IF_NOP
#define LOAD WA_IF_LOAD
#define STORE WA_IF_STORE
#define ATOMIC WA_IF_ATOMIC
#define LDSDMA WA_IF_LDS_DMA
#define MFMA WA_IF_MFMA
#define TRANS WA_IF_TRANS
#define RTNGLC WA_IF_RTN_GLC
#define DS2 WA_IF_DS_2ADDR
#define SMEMBUF WA_IF_SMEM_BUFFER
#define F8F6F4 WA_IF_F8F6F4
#define SIDEFX WA_IF_SIDE_EFFECTS
#define NOSPD WA_IF_NO_SPECIAL_DST
#define MOVE WA_IF_MOVE
#define RELM0 WA_IF_REL_M0
#define ECLOB WA_IF_EARLY_CLOBBER
#define INDIRECT WA_IF_INDIRECT
#define COMM WA_IF_COMMUTATIVE
#define OPSEL4 WA_IF_OPSEL4
/* MFMA flags: results wider than 128 bits (4 registers) are early-clobber. */
#define MFMA_FLAGS(acc) (MFMA | ((acc) > 4 ? ECLOB : 0))

#define iSCC WA_IMPL_SCC
#define iVCC WA_IMPL_VCC
#define iEXEC WA_IMPL_EXEC
#define iM0 WA_IMPL_M0
#define cVM WA_CNT_VM
#define cLGKM WA_CNT_LGKM

#define V WA_OC_VGPR
#define A WA_OC_AGPR
#define S (WA_OC_SGPR | WA_OC_SPECIAL)
#define SN WA_OC_SGPR
#define I WA_OC_INLINE
#define L WA_OC_LITERAL
#define OFF WA_OC_OFF
#define KL WA_OC_KLIT
#define VCC32 WA_OC_VCC32

/* Modifiers (wa_isa_info.mods_ok). */
#define M_CLAMP WA_MODOK_CLAMP
#define M_OMOD WA_MODOK_OMOD
#define M_NEG WA_MODOK_NEG
#define M_ABS WA_MODOK_ABS
#define M_OPSEL WA_MODOK_OPSEL
#define M_OPSELHI WA_MODOK_OPSEL_HI
#define M_NEGHI WA_MODOK_NEG_HI
#define M_DPP WA_MODOK_DPP
#define M_SDWA WA_MODOK_SDWA
#define M_GLC WA_MODOK_GLC
#define M_SLC WA_MODOK_SLC
#define M_SC1 WA_MODOK_SC1
#define M_OFFSET WA_MODOK_OFFSET
#define M_OFFSET01 WA_MODOK_OFFSET01
#define M_OFFEN WA_MODOK_OFFEN
#define M_IDXEN WA_MODOK_IDXEN
#define M_LDS WA_MODOK_LDS
#define M_CBSZ WA_MODOK_CBSZ
#define M_ABID WA_MODOK_ABID
#define M_BLGP WA_MODOK_BLGP
#define M_WAITCNT WA_MODOK_WAITCNT
/* Common sets: float VALU (VOP3 source and output modifiers), MFMA broadcast
   controls, the cache bits and offset of global/flat/scratch, and MUBUF. */
#define M_VFLT (M_CLAMP | M_OMOD | M_NEG | M_ABS)
#define M_MFMA (M_CBSZ | M_ABID | M_BLGP)
#define M_GLOBAL (M_GLC | M_SLC | M_SC1 | M_OFFSET)
#define M_MUBUF (M_OFFEN | M_IDXEN | M_GLC | M_SLC | M_SC1 | M_OFFSET)

/* WA_LOGIC kinds. */
#define LOGIC_0 0u
#define LOGIC_EXEC WA_LOGIC_EXEC
#define LOGIC_WREXEC (WA_LOGIC_EXEC | WA_LOGIC_WREXEC)

#define SAME 0xFFFFFFFFu
/* MFMA passes that differ between gfx942 (a) and gfx950 (b). */
#define P2(a, b) ((a) | (b) << 8)
#define P942_(p) ((p) & 0xFFu)
#define P950_(p) (((p) >> 8) ? ((p) >> 8) : ((p) & 0xFFu))

/* The type argument is expanded before pasting, so family macros may pass it
   through a macro of their own (salu.def: WA_ST##N). */
#define D(n, c, s, t) D_(n, c, s, t)
#define U(n, c, s, t) U_(n, c, s, t)
#define DU(n, c, s, t) DU_(n, c, s, t)
#define UK(n, c, s, t, lo, hi) UK_(n, c, s, t, lo, hi)
#define D_(n, c, s, t) { #n, WA_ROLE_DEF, WA_TY_##t, s, (c), 0, 0 }
#define U_(n, c, s, t) { #n, WA_ROLE_USE, WA_TY_##t, s, (c), 0, 0 }
#define DU_(n, c, s, t) { #n, WA_ROLE_DEFUSE, WA_TY_##t, s, (c), 0, 0 }
#define UK_(n, c, s, t, lo, hi) { #n, WA_ROLE_USE, WA_TY_##t, s, (c) | WA_OC_IMM, lo, hi }
#define K(n, lo, hi) { #n, WA_ROLE_USE, WA_TY_B32, 0, WA_OC_IMM, lo, hi }
#define HW(n) { #n, WA_ROLE_USE, WA_TY_B32, 0, WA_OC_IMM | WA_OC_HWREG, 0, 65535 }
#define LB(n) { #n, WA_ROLE_USE, WA_TY_NONE, 0, WA_OC_LABEL, 0, 0 }
#define NOOPS { NULL, 0, 0, 0, 0, 0, 0 }

const wa_isa_info wa_isa_table_[] = {
#define WA_INSN(id, mn, mn90a, fmt, tgt, fl, idef, iuse, cnt, lat, haz, enc, enc90a, p90a, p94x, mods, nops, ...) \
    { #id, mn, mn90a, WA_FMT_##fmt, tgt, fl, idef, iuse, cnt, WA_LAT_##lat, WA_HZ_##haz,             \
      enc, (enc90a) == SAME ? (enc) : (enc90a), p90a, P942_(p94x), nops, { __VA_ARGS__ },         \
      P950_(p94x), mods },
#include <waveasm/isa.def>
#undef WA_INSN
};

static const wa_mfma_shape mfma_shapes[WA_OP_COUNT_] = {
#define WA_INSN(...)
#define WA_MFMA_SHAPE(id, m, n, k, blocks, in, in_b, sparse, blgp) \
    [WA_OP_##id] = { m, n, k, blocks, WA_MFMA_IN_##in, blgp, WA_MFMA_IN_##in_b, sparse },
#include <waveasm/isa.def>
#undef WA_MFMA_SHAPE
#undef WA_INSN
};

/* Bitwise functions attached to rows (WA_LOGIC). */
static const unsigned char logic_table[WA_OP_COUNT_] = {
    [WA_OP_LABEL] = 0,
#define WA_INSN(...)
#define WA_LOGIC(id, truth, kind) [WA_OP_##id] = (unsigned char)(WA_LOGIC_VALID | ((truth) & 0xFu) | LOGIC_##kind),
#include <waveasm/isa.def>
#undef WA_LOGIC
#undef WA_INSN
};

/* Sources that take neg/abs (WA_SRCMODS), stored plus one so that 0 means "every
   source". */
static const unsigned char source_mods[WA_OP_COUNT_] = {
    [WA_OP_LABEL] = 0,
#define WA_INSN(...)
#define WA_SRCMODS(id, neg, abs) [WA_OP_##id] = (unsigned char)((((abs) & 7u) << 4 | ((neg) & 7u)) + 1u),
#include <waveasm/isa.def>
#undef WA_SRCMODS
#undef WA_INSN
};

unsigned wa_isa_source_mods(unsigned op)
{
    if (op >= WA_OP_COUNT_)
        return 0;
    return source_mods[op] ? source_mods[op] - 1u : 0x77u;
}

typedef char isa_table_size_check[(sizeof(wa_isa_table_) / sizeof(wa_isa_table_[0]) == WA_OP_COUNT_) ? 1 : -1];

unsigned wa_isa_count(void)
{
    return WA_OP_COUNT_;
}

const wa_mfma_shape *wa_isa_mfma_shape(unsigned op)
{
    return op < WA_OP_COUNT_ && mfma_shapes[op].blocks ? &mfma_shapes[op] : NULL;
}

unsigned wa_isa_logic(unsigned op)
{
    return op < WA_OP_COUNT_ ? logic_table[op] : 0;
}

const wa_isa_info *wa_isa_get(unsigned op)
{
    return op < WA_OP_COUNT_ ? &wa_isa_table_[op] : NULL;
}

int wa_isa_available(unsigned op, wa_target target)
{
    if (op >= WA_OP_COUNT_ || target <= WA_TARGET_UNKNOWN || (unsigned)target >= WA_TARGET_COUNT)
        return 0;
    return (wa_isa_table_[op].targets & WA_TARGET_BIT(target)) != 0;
}

unsigned wa_isa_mfma_passes(unsigned op, wa_target target)
{
    if (!wa_isa_available(op, target))
        return 0;
    const wa_isa_info *info = &wa_isa_table_[op];
    switch (target) {
    case WA_TARGET_GFX90A: return info->mfma_passes_gfx90a;
    case WA_TARGET_GFX950: return info->mfma_passes_gfx950;
    default: return info->mfma_passes_gfx94x;
    }
}

const char *wa_hwreg_name(unsigned id, wa_target target)
{
    /* The names llvm-mc accepts and prints for these targets. */
    static const char *const names[25] = {
        NULL, "HW_REG_MODE", "HW_REG_STATUS", "HW_REG_TRAPSTS", "HW_REG_HW_ID",
        "HW_REG_GPR_ALLOC", "HW_REG_LDS_ALLOC", "HW_REG_IB_STS", NULL, NULL, NULL, NULL, NULL,
        NULL, NULL, "HW_REG_SH_MEM_BASES", "HW_REG_TBA_LO", "HW_REG_TBA_HI", "HW_REG_TMA_LO",
        "HW_REG_TMA_HI", "HW_REG_XCC_ID", "HW_REG_SQ_PERF_SNAPSHOT_DATA",
        "HW_REG_SQ_PERF_SNAPSHOT_DATA1", "HW_REG_SQ_PERF_SNAPSHOT_PC_LO",
        "HW_REG_SQ_PERF_SNAPSHOT_PC_HI",
    };
    if (target != WA_TARGET_GFX90A && target != WA_TARGET_GFX942 && target != WA_TARGET_GFX950)
        return NULL;
    if (id >= sizeof(names) / sizeof(names[0]) || (id >= 20 && target == WA_TARGET_GFX90A))
        return NULL;
    return names[id];
}

const char *wa_isa_mnemonic(unsigned op, wa_target target)
{
    if (op >= WA_OP_COUNT_)
        return NULL;
    const wa_isa_info *info = &wa_isa_table_[op];
    if (target == WA_TARGET_GFX90A && info->mnemonic_gfx90a)
        return info->mnemonic_gfx90a;
    return info->mnemonic;
}

static int name_matches(const char *table_name, const char *text, size_t len)
{
    return table_name && strlen(table_name) == len && memcmp(table_name, text, len) == 0;
}

wa_status wa_isa_lookup(wa_opcode *out, const char *mnemonic)
{
    if (!out || !mnemonic)
        return WA_E_INVALID;
    size_t len = strlen(mnemonic);
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned op = 0; op < WA_OP_COUNT_; op++) {
            const wa_isa_info *info = &wa_isa_table_[op];
            if ((info->flags & (WA_IF_PSEUDO | WA_IF_LDS_DMA)) != 0)
                continue;
            if (name_matches(info->mnemonic, mnemonic, len) ||
                name_matches(info->mnemonic_gfx90a, mnemonic, len)) {
                *out = (wa_opcode)op;
                return WA_OK;
            }
        }
        /* Second pass: drop an explicit encoding suffix. */
        if (len > 4 && (strcmp(mnemonic + len - 4, "_e32") == 0 ||
                        strcmp(mnemonic + len - 4, "_e64") == 0))
            len -= 4;
        else
            break;
    }
    return WA_E_NOT_FOUND;
}

const char *wa_format_name(wa_format format)
{
    static const char *const names[WA_FMT_COUNT_] = {
        "PSEUDO", "SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2",
        "VOPC", "VOP3", "VOP3P", "MAI", "DS", "MUBUF", "GLOBAL", "FLAT", "SCRATCH",
    };
    return (unsigned)format < WA_FMT_COUNT_ ? names[format] : NULL;
}

const char *wa_latency_class_name(wa_latency_class lat)
{
    static const char *const names[] = {
        "none", "salu", "valu", "trans", "smem", "vmem", "ds", "mfma", "branch",
    };
    return (unsigned)lat < sizeof(names) / sizeof(names[0]) ? names[lat] : NULL;
}

const char *wa_hazard_class_name(wa_hazard_class haz)
{
    static const char *const names[] = {
        "none", "salu", "valu", "trans", "readlane", "writelane", "smem", "vmem",
        "lds_dma", "ds", "mfma_xdl", "mfma_smfma", "mfma_dgemm", "branch",
        "div_fmas", "dot", "fma64", "permlane_swap", "getreg", "setreg", "movrel",
        "sendmsg", "ds_m0",
    };
    return (unsigned)haz < sizeof(names) / sizeof(names[0]) ? names[haz] : NULL;
}
