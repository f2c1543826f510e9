/* lib/object/metadata.c — the code object v5 metadata as MessagePack: the same
   facts the assembly emitter writes as YAML, in the form the assembler stores
   them in the NT_AMDGPU_METADATA note (map keys in sorted order). */
#include "object.h"
#include "msgpack.h"

#include <stdio.h>

static void key_uint(wa_sb *sb, const char *key, uint64_t v)
{
    wa_mp_str(sb, key);
    wa_mp_uint(sb, v);
}

static void write_arg(wa_sb *sb, const wa_kernel_arg *a)
{
    int global = a->kind == WA_ARG_GLOBAL_BUFFER;
    int space = global || a->kind == WA_ARG_DYNAMIC_SHARED_POINTER;
    int is_const = global && (a->flags & WA_ARG_CONST);
    int restr = (a->flags & WA_ARG_RESTRICT) != 0, vol = (a->flags & WA_ARG_VOLATILE) != 0;
    wa_mp_map(sb, (uint32_t)(3 + space + is_const + restr + vol + (a->name != NULL)));
    if (space) {
        wa_mp_str(sb, ".address_space");
        wa_mp_str(sb, global ? "global" : "local");
    }
    if (is_const) {
        wa_mp_str(sb, ".is_const");
        wa_mp_bool(sb, 1);
    }
    if (restr) {
        wa_mp_str(sb, ".is_restrict");
        wa_mp_bool(sb, 1);
    }
    if (vol) {
        wa_mp_str(sb, ".is_volatile");
        wa_mp_bool(sb, 1);
    }
    if (a->name) {
        wa_mp_str(sb, ".name");
        wa_mp_str(sb, a->name);
    }
    key_uint(sb, ".offset", a->offset);
    key_uint(sb, ".size", a->size);
    wa_mp_str(sb, ".value_kind");
    wa_mp_str(sb, wa_arg_kind_name(a->kind));
}

static void write_kernel(wa_sb *sb, const wa_program *prog)
{
    wa_kernel_resources r;
    wa_resources_compute(&r, prog);
    wa_mp_map(sb, 15);
    key_uint(sb, ".agpr_count", r.agprs);
    wa_mp_str(sb, ".args");
    wa_mp_array(sb, prog->nargs);
    for (unsigned i = 0; i < prog->nargs; i++)
        write_arg(sb, &prog->args[i].arg);
    key_uint(sb, ".group_segment_fixed_size", r.group_segment_size);
    key_uint(sb, ".kernarg_segment_align", wa_kernarg_align(prog));
    key_uint(sb, ".kernarg_segment_size", r.kernarg_size);
    key_uint(sb, ".max_flat_workgroup_size",
             (uint64_t)prog->wg[0] * prog->wg[1] * prog->wg[2]);
    wa_mp_str(sb, ".name");
    wa_mp_str(sb, prog->name);
    key_uint(sb, ".private_segment_fixed_size", 0);
    wa_mp_str(sb, ".reqd_workgroup_size");
    wa_mp_array(sb, 3);
    for (unsigned d = 0; d < 3; d++)
        wa_mp_uint(sb, prog->wg[d]);
    key_uint(sb, ".sgpr_count", r.sgpr_count);
    key_uint(sb, ".sgpr_spill_count", 0);
    wa_sb sym;
    wa_sb_init(&sym, prog->ctx);
    wa_sb_printf(&sym, "%s.kd", prog->name);
    wa_mp_str(sb, ".symbol");
    if (sym.failed)
        sb->failed = 1;
    else
        wa_mp_strn(sb, sym.data, sym.len);
    wa_sb_free(&sym);
    key_uint(sb, ".vgpr_count", r.total_vgprs);
    key_uint(sb, ".vgpr_spill_count", 0);
    key_uint(sb, ".wavefront_size", 64);
}

void wa_metadata_msgpack(wa_sb *sb, const wa_object_kernel *kernels, unsigned n)
{
    char target[64], triple[96];
    wa_target_id(target, sizeof(target), kernels[0].prog);
    snprintf(triple, sizeof(triple), "amdgcn-amd-amdhsa--%s", target);
    wa_mp_map(sb, 3);
    wa_mp_str(sb, "amdhsa.kernels");
    wa_mp_array(sb, n);
    for (unsigned k = 0; k < n; k++)
        write_kernel(sb, kernels[k].prog);
    wa_mp_str(sb, "amdhsa.target");
    wa_mp_str(sb, triple);
    wa_mp_str(sb, "amdhsa.version");
    wa_mp_array(sb, 2);
    wa_mp_uint(sb, 1);
    wa_mp_uint(sb, 2);
}
