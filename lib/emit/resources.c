/* lib/emit/resources.c — register counts, occupancy and the kernel descriptor
   words (COMPUTE_PGM_RSRC1/2/3, kernel code properties), from the program alone.
   The rules follow the AMDGPU code object documentation as LLVM implements them. */
#include "emit.h"

#include <string.h>

static unsigned align_up(unsigned v, unsigned a)
{
    return (v + a - 1) / a * a;
}

void wa_resources_compute(wa_kernel_resources *r, const wa_program *prog)
{
    memset(r, 0, sizeof(*r));
    r->version = WA_KERNEL_RESOURCES_VERSION;
    unsigned vmax = 0, amax = 0, smax = 0;
    for (unsigned i = 0; i < prog->ninstrs; i++) {
        const wa_instr *in = &prog->instrs[i];
        const wa_isa_info *info = wa_isa(in->op);
        if ((info->implicit_uses | info->implicit_defs) & WA_IMPL_VCC)
            r->uses_vcc = 1;
        for (unsigned k = 0; k < in->nops; k++) {
            const wa_operand *o = &in->ops[k];
            if (o->kind == WA_OPND_SPECIAL &&
                (o->id == WA_SPECIAL_VCC || o->id == WA_SPECIAL_VCC_LO || o->id == WA_SPECIAL_VCC_HI))
                r->uses_vcc = 1;
            if (o->kind != WA_OPND_PHYS)
                continue;
            unsigned end = o->id + o->count;
            if (o->reg_class == WA_REG_VGPR && end > vmax)
                vmax = end;
            else if (o->reg_class == WA_REG_AGPR && end > amax)
                amax = end;
            else if (o->reg_class == WA_REG_SGPR && end > smax)
                smax = end;
        }
    }
    unsigned abi = prog->abi_mask;
    if ((abi & (WA_ABI_BIT(WA_ABI_WORKITEM_ID_X) | WA_ABI_BIT(WA_ABI_WORKITEM_ID_Y) |
                WA_ABI_BIT(WA_ABI_WORKITEM_ID_Z))) && vmax < 1)
        vmax = 1;
    unsigned abi_sgprs = wa_abi_total_sgprs(abi);
    if (smax < abi_sgprs)
        smax = abi_sgprs;

    r->arch_vgprs = vmax;
    r->agprs = amax;
    r->accum_offset = align_up(vmax ? vmax : 1, 4);
    r->total_vgprs = amax ? r->accum_offset + amax : vmax;
    r->next_free_sgpr = smax;
    r->sgpr_count = smax + WA_EXTRA_SGPRS;
    unsigned vtot = r->total_vgprs ? r->total_vgprs : 1;
    r->vgpr_granules = align_up(vtot, 8) / 8 - 1;
    r->sgpr_granules = align_up(r->sgpr_count, 8) / 8 - 1;
    r->user_sgprs = wa_abi_user_sgprs(abi);

    unsigned waves = 512 / align_up(vtot < 8 ? 8 : vtot, 8);
    unsigned swaves = r->sgpr_count <= 80 ? 10 : r->sgpr_count <= 88 ? 9 : r->sgpr_count <= 100 ? 8 : 7;
    if (swaves < waves)
        waves = swaves;
    r->waves_per_simd = waves > 8 ? 8 : waves;

    r->kernarg_size = wa_program_kernarg_size(prog);
    r->group_segment_size = prog->lds_bytes;

    wa_kd_fields kd;
    wa_kd_fields_compute(&kd, prog, r);
    r->rsrc1 = kd.rsrc1;
    r->rsrc2 = kd.rsrc2;
    r->rsrc3 = kd.rsrc3;
    r->kernel_code_properties = kd.kernel_code_properties;
}

void wa_kd_fields_compute(wa_kd_fields *kd, const wa_program *prog, const wa_kernel_resources *r)
{
    unsigned abi = prog->abi_mask;
#define BIT(in) ((abi & WA_ABI_BIT(in)) ? 1u : 0u)
    memset(kd, 0, sizeof(*kd));
    kd->group_segment_fixed_size = r->group_segment_size;
    kd->kernarg_size = r->kernarg_size;
    kd->user_sgpr_count = r->user_sgprs;
    kd->user_sgpr_dispatch_ptr = BIT(WA_ABI_DISPATCH_PTR);
    kd->user_sgpr_queue_ptr = BIT(WA_ABI_QUEUE_PTR);
    kd->user_sgpr_kernarg_segment_ptr = BIT(WA_ABI_KERNARG_PTR);
    kd->user_sgpr_dispatch_id = BIT(WA_ABI_DISPATCH_ID);
    kd->workgroup_id_x = BIT(WA_ABI_WORKGROUP_ID_X);
    kd->workgroup_id_y = BIT(WA_ABI_WORKGROUP_ID_Y);
    kd->workgroup_id_z = BIT(WA_ABI_WORKGROUP_ID_Z);
    kd->workgroup_info = BIT(WA_ABI_WORKGROUP_INFO);
    kd->workitem_id = BIT(WA_ABI_WORKITEM_ID_Z) ? 2u : BIT(WA_ABI_WORKITEM_ID_Y) ? 1u : 0u;
#undef BIT
    kd->next_free_vgpr = r->total_vgprs;
    kd->next_free_sgpr = r->next_free_sgpr;
    kd->accum_offset = r->accum_offset;
    kd->reserve_vcc = 1;
    /* The float modes LLVM uses for compute: denormals kept, DX10 clamp and IEEE
       mode on. */
    kd->float_denorm_mode_32 = 3;
    kd->float_denorm_mode_16_64 = 3;
    kd->dx10_clamp = 1;
    kd->ieee_mode = 1;
    kd->vgpr_granules = r->vgpr_granules;
    kd->sgpr_granules = r->sgpr_granules;

    /* Packed as the assembler packs the directives above. */
    kd->rsrc1 = (kd->vgpr_granules & 0x3Fu) | ((kd->sgpr_granules & 0xFu) << 6) |
                (kd->float_round_mode_32 << 12) | (kd->float_round_mode_16_64 << 14) |
                (kd->float_denorm_mode_32 << 16) | (kd->float_denorm_mode_16_64 << 18) |
                (kd->dx10_clamp << 21) | (kd->ieee_mode << 23) | (kd->fp16_overflow << 26);
    kd->rsrc2 = (kd->user_sgpr_count << 1) | (kd->workgroup_id_x << 7) |
                (kd->workgroup_id_y << 8) | (kd->workgroup_id_z << 9) |
                (kd->workgroup_info << 10) | (kd->workitem_id << 11);
    kd->rsrc3 = ((kd->accum_offset / 4 - 1) & 0x3Fu) | (kd->tg_split << 16);
    kd->kernel_code_properties =
        (uint16_t)((kd->user_sgpr_dispatch_ptr << 1) | (kd->user_sgpr_queue_ptr << 2) |
                   (kd->user_sgpr_kernarg_segment_ptr << 3) | (kd->user_sgpr_dispatch_id << 4));
}

wa_status wa_kernel_resources_compute(wa_kernel_resources *out, const wa_program *prog)
{
    if (!out || !prog)
        return WA_E_INVALID;
    wa_diag_reset(prog->ctx);
    for (unsigned i = 0; i < prog->ninstrs; i++)
        for (unsigned k = 0; k < prog->instrs[i].nops; k++)
            if (prog->instrs[i].ops[k].kind == WA_OPND_VIRT)
                return wa_error(prog->ctx, WA_E_VALIDATE, wa_instr_loc(prog, &prog->instrs[i]),
                                "register counts need physical registers; run register allocation first");
    wa_resources_compute(out, prog);
    return WA_OK;
}
