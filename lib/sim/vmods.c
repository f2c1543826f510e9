/* lib/sim/vmods.c — the VALU modifiers, applied where operands are read and written
   (sim_read_vec, sim_write_vec), so that every VALU family's semantics inherit them.

   Sources (VOP1, VOP2, VOPC, VOP3; VOP3P and MAI handle their own lists): the SDWA
   select of src0/src1 (a byte or word moved to the low bits, zero- or, with sext(),
   sign-extended), then abs and neg on a float source (the sign bit of its type:
   bit 31 of f32 and of an f64's high dword, bit 15 of f16/bf16).

   Results (a VGPR destination, operand 0): the output modifier (mul:2, mul:4,
   div:2) and clamp to [0, 1] (NaN gives 0: DX10_CLAMP is on) on an f32 or f16
   result; then the SDWA dst_sel (the low byte or word of the result placed in the
   selected part; the other bits zero, the sign of that part, or vdst's old bits).
   Integer saturation (clamp on an integer result) belongs to the operation: its
   semantics set sim_ctx.int_clamp when they saturate. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

static int valu_format(const wa_isa_info *info)
{
    return info->format == WA_FMT_VOP1 || info->format == WA_FMT_VOP2 ||
           info->format == WA_FMT_VOPC || info->format == WA_FMT_VOP3;
}

/* Sign bit of component `comp` of a value of type t (0: none). */
static uint32_t sign_bit(wa_data_type t, unsigned comp)
{
    switch (t) {
    case WA_TY_F32: return comp == 0 ? 0x80000000u : 0;
    case WA_TY_F64: return comp == 1 ? 0x80000000u : 0;
    case WA_TY_F16:
    case WA_TY_BF16: return comp == 0 ? 0x8000u : 0;
    default: return 0;
    }
}

static int float_result(wa_data_type t)
{
    return t == WA_TY_F32 || t == WA_TY_F16;
}

const char *sim_vmods_unmodelled(const wa_instr *in, const wa_isa_info *info)
{
    const wa_mods *m = &in->mods;
    if (!valu_format(info))
        return NULL;
    wa_data_type dt = info->num_operands ? (wa_data_type)info->operands[0].type : WA_TY_NONE;
    int vdst = info->num_operands && info->operands[0].role == WA_ROLE_DEF &&
               (info->operands[0].classes & WA_OC_VGPR);
    /* a compare's clamp asks it to signal float exceptions: no effect on results */
    if ((m->flags & WA_MOD_CLAMP) && !vdst && !(m->flags & WA_MOD_SDWA) &&
        info->format != WA_FMT_VOPC)
        return "clamp";
    if (m->omod && !(vdst && float_result(dt)))
        return "an output modifier (mul:2, mul:4, div:2) on a result that is not f32 or f16";
    if ((m->flags & WA_MOD_CLAMP) && vdst && !float_result(dt) && dt != WA_TY_B32 &&
        dt != WA_TY_B16)
        return "clamp on a result that is not f32, f16 or an integer";
    if (m->neg || m->abs) {
        for (unsigned k = 0; k < info->num_operands; k++) {
            int slot = wa_source_slot(info, k);
            if (slot < 0 || !((m->neg | m->abs) >> slot & 1u))
                continue;
            wa_data_type t = (wa_data_type)info->operands[k].type;
            if (!sign_bit(t, 0) && !sign_bit(t, 1))
                return "neg/abs on a packed or integer source";
        }
    }
    if ((m->flags & WA_MOD_DPP) && wa_dpp_is_64(info))
        return "DPP on 64-bit operands";
    if ((m->flags & WA_MOD_SDWA) && (m->dst_sel != WA_SDWA_DWORD) && info->num_operands &&
        info->operands[0].size != 1)
        return "an SDWA dst_sel on a 64-bit result";
    return NULL;
}

void sim_vmods_src(const sim_ctx *c, unsigned k, unsigned comp, uint32_t v[SIM_LANES])
{
    const wa_isa_info *info = c->info;
    const wa_mods *m = &c->in->mods;
    if (!valu_format(info))
        return;
    int slot = wa_source_slot(info, k);
    if (slot < 0)
        return;
    if ((m->flags & WA_MOD_SDWA) && slot < 2) {
        unsigned sel = slot == 0 ? m->src0_sel : m->src1_sel;
        int sext = (m->sext >> slot) & 1u;
        if (sel != WA_SDWA_DWORD)
            for (unsigned l = 0; l < SIM_LANES; l++) {
                uint32_t x;
                if (sel <= WA_SDWA_BYTE_3) {
                    x = (v[l] >> (8u * sel)) & 0xFFu;
                    if (sext && (x & 0x80u))
                        x |= 0xFFFFFF00u;
                } else {
                    x = (v[l] >> (16u * (sel - WA_SDWA_WORD_0))) & 0xFFFFu;
                    if (sext && (x & 0x8000u))
                        x |= 0xFFFF0000u;
                }
                v[l] = x;
            }
    }
    if (slot > 2 || !((m->neg | m->abs) >> slot & 1u))
        return;
    uint32_t sb = sign_bit((wa_data_type)info->operands[k].type, comp);
    if (!sb)
        return;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        if (m->abs >> slot & 1u)
            v[l] &= ~sb;
        if (m->neg >> slot & 1u)
            v[l] ^= sb;
    }
}

static uint32_t out_f32(uint32_t x, unsigned omod, int clamp)
{
    float f = sim_f32(x);
    if (omod)
        f *= omod == 1 ? 2.0f : omod == 2 ? 4.0f : 0.5f;
    if (clamp)
        f = isnan(f) || f <= 0.0f ? 0.0f : f >= 1.0f ? 1.0f : f;
    return sim_f32_bits(f);
}

static uint32_t out_f16(uint32_t x, unsigned omod, int clamp)
{
    float f = sim_f16_to_f32((uint16_t)x);
    if (omod)
        f *= omod == 1 ? 2.0f : omod == 2 ? 4.0f : 0.5f;
    if (clamp)
        f = isnan(f) || f <= 0.0f ? 0.0f : f >= 1.0f ? 1.0f : f;
    return (x & 0xFFFF0000u) | sim_f32_to_f16(f);
}

int sim_vmods_dst(sim_ctx *c, unsigned k, unsigned comp, uint32_t v[SIM_LANES],
                  const uint32_t old[SIM_LANES], uint64_t old_def, uint64_t *def)
{
    const wa_isa_info *info = c->info;
    const wa_mods *m = &c->in->mods;
    if (k != 0 || !valu_format(info) || info->operands[0].role != WA_ROLE_DEF)
        return 1;
    wa_data_type dt = (wa_data_type)info->operands[0].type;
    int clamp = (m->flags & WA_MOD_CLAMP) != 0;
    if (clamp && info->format == WA_FMT_VOP3 && (sim_vop3_models(c->in->op) & WA_MODOK_CLAMP))
        clamp = 0; /* vop3.c's operation clamped its own result */
    if (clamp && !float_result(dt) && !c->int_clamp) {
        sim_fail(c, WA_E_UNSUPPORTED, "the simulator does not model clamp (saturation) on %s",
                 info->mnemonic);
        return 0;
    }
    if (float_result(dt) && (clamp || m->omod) && comp == 0)
        for (unsigned l = 0; l < SIM_LANES; l++)
            v[l] = dt == WA_TY_F32 ? out_f32(v[l], m->omod, clamp) : out_f16(v[l], m->omod, clamp);
    if (!(m->flags & WA_MOD_SDWA) || !wa_sdwa_has_dst(info) || m->dst_sel == WA_SDWA_DWORD)
        return 1;
    unsigned sel = m->dst_sel, shift, width;
    if (sel <= WA_SDWA_BYTE_3) {
        shift = 8u * sel;
        width = 8;
    } else {
        shift = 16u * (sel - WA_SDWA_WORD_0);
        width = 16;
    }
    uint32_t field = ((1u << width) - 1u) << shift;
    for (unsigned l = 0; l < SIM_LANES; l++) {
        uint32_t x = (v[l] << shift) & field;
        if (m->dst_unused == WA_SDWA_UNUSED_PRESERVE)
            x |= old[l] & ~field;
        else if (m->dst_unused == WA_SDWA_UNUSED_SEXT && (x >> (shift + width - 1u) & 1u))
            x |= ~((1u << (shift + width - 1u)) | ((1u << (shift + width - 1u)) - 1u));
        v[l] = x;
    }
    if (m->dst_unused == WA_SDWA_UNUSED_PRESERVE)
        *def &= old_def;
    return 1;
}
