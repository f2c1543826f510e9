"""Loading libwaveasm and declaring its C ABI for ctypes.

Everything here mirrors the public headers (include/waveasm/*.h): the structs
with their exact field order and the prototypes of the exported functions. The
rest of the package only talks to the library through `lib` and these types.
"""

import ctypes
import ctypes.util
import dataclasses
import os
from ctypes import (
    CFUNCTYPE, POINTER, Structure, Union, c_char, c_char_p, c_double, c_int, c_int8,
    c_int32, c_int64, c_size_t, c_uint, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p,
)

# The binding speaks the ABI of this SONAME version: the major version, and
# before 1.0 the minor version too (a 0.x release may renumber opcodes).
ABI_VERSION = (0, 2)
ABI_SOVERSION = ".".join(str(v) for v in ABI_VERSION) if ABI_VERSION[0] == 0 else str(ABI_VERSION[0])


# ---- finding the library ---------------------------------------------------------

def _package_candidates(directory):
    """libwaveasm shared objects inside `directory`, preferred names first."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    exact = [f"libwaveasm.so.{ABI_SOVERSION}", "libwaveasm.so"]
    found = [n for n in exact if n in names]
    # Fully versioned files (libwaveasm.so.0.2.0) count when no link was copied.
    found += sorted(n for n in names if n.startswith(f"libwaveasm.so.{ABI_SOVERSION}.")
                    and n not in found)
    return [os.path.join(directory, n) for n in found]


def _load():
    """Returns (CDLL, how it was found). Order: $WAVEASM_LIBRARY, a copy inside
    the package directory, then the system loader."""
    env = os.environ.get("WAVEASM_LIBRARY")
    if env:
        try:
            return ctypes.CDLL(env), env
        except OSError as e:
            raise ImportError(f"WAVEASM_LIBRARY={env!r} cannot be loaded: {e}") from e
    tried = []
    for path in _package_candidates(os.path.dirname(os.path.abspath(__file__))):
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append(f"{path}: {e}")
    # The loader's own search (LD_LIBRARY_PATH, ld.so.cache, default dirs) first;
    # find_library also consults the compiler's and ldconfig's view.
    names = [f"libwaveasm.so.{ABI_SOVERSION}"]
    found = ctypes.util.find_library("waveasm")
    if found and found not in names:
        names.append(found)
    for name in names:
        try:
            return ctypes.CDLL(name), name
        except OSError as e:
            tried.append(f"{name}: {e}")
    raise ImportError(
        "libwaveasm not found: set WAVEASM_LIBRARY to the path of libwaveasm.so, put "
        "the library next to the waveasm package, or install it where the dynamic "
        "loader finds it (" + "; ".join(tried) + ")")


lib, library_path = _load()


# ---- structs (field order and types exactly as in the headers) -------------------------

class WaOperandImm(Union):
    """The immediate of a wa_operand (imm.i, imm.f)."""
    _fields_ = [("i", c_int64), ("f", c_double)]


class WaOperand(Structure):
    """wa_operand (program.h)."""
    _fields_ = [("kind", c_uint8), ("reg_class", c_uint8), ("count", c_uint16),
                ("id", c_uint32), ("first", c_uint32), ("reserved", c_uint32),
                ("imm", WaOperandImm)]


class WaMods(Structure):
    """wa_mods (program.h), version 3."""
    _fields_ = [("version", c_uint), ("flags", c_uint), ("offset", c_int32),
                ("offset1", c_int32), ("cbsz", c_uint8), ("abid", c_uint8),
                ("blgp", c_uint8), ("op_sel", c_uint8), ("op_sel_hi", c_uint8),
                ("vmcnt", c_int8), ("lgkmcnt", c_int8), ("expcnt", c_int8),
                ("dpp_ctrl", c_uint16), ("row_mask", c_uint8), ("bank_mask", c_uint8),
                ("neg", c_uint8), ("abs", c_uint8), ("neg_hi", c_uint8), ("omod", c_uint8),
                ("dst_sel", c_uint8), ("dst_unused", c_uint8), ("src0_sel", c_uint8),
                ("src1_sel", c_uint8), ("sext", c_uint8), ("reserved", c_uint8 * 3)]


MODS_VERSION = 3
SDWA_DWORD = 6
SDWA_UNUSED_PRESERVE = 2


def mods_init():
    """WA_MODS_INIT."""
    return WaMods(MODS_VERSION, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, 0, 0xF, 0xF, 0, 0, 0, 0,
                  SDWA_DWORD, SDWA_UNUSED_PRESERVE, SDWA_DWORD, SDWA_DWORD, 0)


REALLOC_FN = CFUNCTYPE(c_void_p, c_void_p, c_size_t, c_void_p)
LOG_FN = CFUNCTYPE(None, c_char_p, c_void_p)


class WaContextOptions(Structure):
    """wa_context_options (context.h)."""
    _fields_ = [("version", c_uint), ("target", c_int), ("wave_size", c_uint),
                ("realloc_fn", REALLOC_FN), ("alloc_user", c_void_p),
                ("log_fn", LOG_FN), ("log_user", c_void_p),
                ("xnack", c_int), ("sramecc", c_int)]


class WaDiag(Structure):
    """wa_diag (context.h)."""
    _fields_ = [("severity", c_int), ("status", c_int), ("message", c_char_p),
                ("file", c_char_p), ("line", c_uint), ("col", c_uint), ("tag", c_uint)]


class WaKernelArg(Structure):
    """wa_kernel_arg (program.h)."""
    _fields_ = [("version", c_uint), ("name", c_char_p), ("kind", c_int),
                ("offset", c_uint), ("size", c_uint), ("align", c_uint), ("flags", c_uint)]


class WaInstrView(Structure):
    """wa_instr_view (program.h)."""
    _fields_ = [("opcode", c_int), ("tag", c_uint32), ("num_operands", c_uint),
                ("operands", POINTER(WaOperand)), ("mods", POINTER(WaMods)),
                ("comment", c_char_p), ("line", c_uint), ("col", c_uint)]


ISA_MAX_OPERANDS = 6


class WaIsaOperand(Structure):
    """wa_isa_operand (isa.h)."""
    _fields_ = [("name", c_char_p), ("role", ctypes.c_ubyte), ("type", ctypes.c_ubyte),
                ("size", ctypes.c_ushort), ("classes", c_uint), ("imm_min", c_int),
                ("imm_max", c_int)]


class WaIsaInfo(Structure):
    """wa_isa_info (isa.h)."""
    _fields_ = [("id", c_char_p), ("mnemonic", c_char_p), ("mnemonic_gfx90a", c_char_p),
                ("format", c_int), ("targets", c_uint), ("flags", c_uint),
                ("implicit_defs", c_uint), ("implicit_uses", c_uint), ("counters", c_uint),
                ("latency", c_int), ("hazard", c_int), ("encoding", c_uint),
                ("encoding_gfx90a", c_uint), ("mfma_passes_gfx90a", c_uint),
                ("mfma_passes_gfx94x", c_uint), ("num_operands", c_uint),
                ("operands", WaIsaOperand * ISA_MAX_OPERANDS),
                ("mfma_passes_gfx950", c_uint), ("mods_ok", c_uint)]


class WaMfmaShape(Structure):
    """wa_mfma_shape (isa.h)."""
    _fields_ = [("m", c_uint), ("n", c_uint), ("k", c_uint), ("blocks", c_uint),
                ("input", c_int), ("blgp_targets", c_uint), ("input_b", c_int),
                ("sparse", c_uint)]


class WaPrintOptions(Structure):
    """wa_print_options (text.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint)]


class WaValidateOptions(Structure):
    """wa_validate_options (validate.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint), ("max_errors", c_uint)]


class WaLivenessOptions(Structure):
    """wa_liveness_options (liveness.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint)]


class WaBlockInfo(Structure):
    """wa_block_info (liveness.h)."""
    _fields_ = [("first_item", c_uint), ("last_item", c_uint), ("num_preds", c_uint),
                ("num_succs", c_uint), ("idom", c_uint), ("loop_depth", c_uint),
                ("loop", c_uint), ("reachable", c_int)]


class WaLoopInfo(Structure):
    """wa_loop_info (liveness.h)."""
    _fields_ = [("header", c_uint), ("parent", c_uint), ("depth", c_uint),
                ("num_blocks", c_uint), ("num_exits", c_uint)]


class WaLiveSegment(Structure):
    """wa_live_segment (liveness.h)."""
    _fields_ = [("start", c_uint), ("end", c_uint)]


class WaRegallocOptions(Structure):
    """wa_regalloc_options (regalloc.h), version 2."""
    _fields_ = [("version", c_uint), ("max_vgprs", c_uint), ("max_sgprs", c_uint),
                ("max_agprs", c_uint), ("reserved_vgprs", c_uint32 * 8),
                ("reserved_sgprs", c_uint32 * 4), ("reserved_agprs", c_uint32 * 8),
                ("flags", c_uint), ("liveness", c_void_p)]


class WaRegallocStats(Structure):
    """wa_regalloc_stats (regalloc.h)."""
    _fields_ = [("version", c_uint), ("peak_vgprs", c_uint), ("peak_sgprs", c_uint),
                ("peak_agprs", c_uint), ("max_pressure_vgpr", c_uint),
                ("max_pressure_sgpr", c_uint), ("max_pressure_agpr", c_uint),
                ("intervals", c_uint), ("coalesced", c_uint), ("tied", c_uint),
                ("hole_fits", c_uint)]


class WaPassStats(Structure):
    """wa_pass_stats (passes.h)."""
    _fields_ = [(name, c_uint) for name in (
        "version", "instrs_before", "instrs_after", "inserted", "removed", "changed",
        "waitcnts_inserted", "waitcnts_merged", "nops_inserted", "nop_wait_states",
        "fused", "folded", "moves_removed", "acc_inits_removed", "eliminated", "hoisted",
        "iterations")]


class WaFlagsOptions(Structure):
    """The {version, flags} option structs of passes.h: wa_waitcnt_options,
    wa_hazard_options, wa_peephole_options (all version 1)."""
    _fields_ = [("version", c_uint), ("flags", c_uint)]


class WaCseOptions(Structure):
    """wa_cse_options (passes.h, version 2)."""
    _fields_ = [("version", c_uint), ("flags", c_uint), ("max_vgprs", c_uint),
                ("max_sgprs", c_uint), ("max_agprs", c_uint)]


class WaPipelineOptions(Structure):
    """wa_pipeline_options (passes.h, version 2)."""
    _fields_ = [("version", c_uint), ("flags", c_uint),
                ("cse", POINTER(WaCseOptions)), ("peephole", POINTER(WaFlagsOptions)),
                ("regalloc", POINTER(WaRegallocOptions)),
                ("waitcnt", POINTER(WaFlagsOptions)), ("hazards", POINTER(WaFlagsOptions)),
                ("schedule", c_void_p), ("schedule_rounds", c_uint)]


class WaScheduleOptions(Structure):
    """wa_schedule_options (conductor.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint), ("latency", c_uint * 9),
                ("address_distance", c_uint), ("min_waves", c_uint), ("order", c_uint * 8),
                ("pipeline", POINTER(WaPipelineOptions))]


class WaSchedRegion(Structure):
    """wa_sched_region (conductor.h)."""
    _fields_ = [(name, c_uint) for name in (
        "version", "first", "last", "instrs", "movable", "loop_depth")]


class WaSchedMetrics(Structure):
    """wa_sched_metrics (conductor.h)."""
    _fields_ = [(name, c_uint) for name in (
        "version", "peak_vgprs", "peak_sgprs", "peak_agprs", "waves_per_simd",
        "nops_inserted", "waits_inserted", "instrs")] + [
        ("cycles", c_uint64), ("critical_path", c_uint64)]


class WaSchedWarning(Structure):
    """wa_sched_warning (conductor.h)."""
    _fields_ = [("severity", c_int), ("command", c_uint), ("message", c_char_p)]


class WaSchedRound(Structure):
    """wa_sched_round (conductor.h)."""
    _fields_ = [("version", c_uint), ("commands", c_uint), ("applied", c_uint),
                ("failed", c_int), ("done", c_int), ("warnings", c_uint)]


SCHED_ORACLE = CFUNCTYPE(c_void_p, c_char_p, c_void_p)
SCHED_PROGRESS = CFUNCTYPE(None, c_uint, POINTER(WaSchedRound), POINTER(WaSchedMetrics), c_int,
                           c_void_p)


class WaSchedRunOptions(Structure):
    """wa_sched_run_options (conductor.h)."""
    _fields_ = [("version", c_uint), ("rounds", c_uint), ("progress", SCHED_PROGRESS),
                ("progress_payload", c_void_p), ("flags", c_uint), ("cache_dir", c_char_p)]


SCHED_AGENT_ORACLE = CFUNCTYPE(c_void_p, c_char_p, c_uint, c_uint64, c_void_p)


class WaSchedBeamOptions(Structure):
    """wa_sched_beam_options (conductor.h)."""
    _fields_ = [("version", c_uint), ("agents", c_uint), ("interval", c_uint), ("keep", c_uint),
                ("checkpoints", c_uint), ("seed", c_uint64)]


class WaSchedResult(Structure):
    """wa_sched_result (conductor.h)."""
    _fields_ = [("version", c_uint), ("rounds", c_uint), ("kept", c_uint), ("failed", c_uint),
                ("regressed", c_uint), ("baseline", WaSchedMetrics), ("best", WaSchedMetrics),
                ("cache_hit", c_int)]


class WaStageStats(Structure):
    """wa_stage_stats (passes.h)."""
    _fields_ = [("version", c_uint), ("ran", c_int), ("seconds", c_double),
                ("instrs", c_uint), ("peak_vgprs", c_uint), ("peak_sgprs", c_uint),
                ("peak_agprs", c_uint), ("pass_", WaPassStats)]


STAGE_FN = CFUNCTYPE(c_int, c_void_p, POINTER(WaPassStats), c_void_p)


class WaKernelResources(Structure):
    """wa_kernel_resources (emit.h)."""
    _fields_ = [(name, c_uint) for name in (
        "version", "arch_vgprs", "agprs", "accum_offset", "total_vgprs", "next_free_sgpr",
        "sgpr_count", "vgpr_granules", "sgpr_granules", "user_sgprs", "uses_vcc",
        "waves_per_simd", "kernarg_size", "group_segment_size")] + [
        ("rsrc1", c_uint32), ("rsrc2", c_uint32), ("rsrc3", c_uint32),
        ("kernel_code_properties", c_uint16)]


class WaEmitOptions(Structure):
    """wa_emit_options (emit.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint), ("code_object_version", c_uint)]


class WaEncodeOptions(Structure):
    """wa_encode_options (encode.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint), ("item_offsets", POINTER(c_uint32))]


class WaDisasmOptions(Structure):
    """wa_disasm_options (encode.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint)]


class WaObjectOptions(Structure):
    """wa_object_options (object.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint)]


class WaSimOptions(Structure):
    """wa_sim_options (sim.h)."""
    _fields_ = [("version", c_uint), ("flags", c_uint), ("seed", c_uint64),
                ("grid", c_uint * 3), ("workgroup_size", c_uint * 3),
                ("max_instructions", c_uint64)]


class WaSimStats(Structure):
    """wa_sim_stats (sim.h)."""
    _fields_ = [("version", c_uint), ("workgroups", c_uint), ("waves", c_uint)] + [
        (name, c_uint64) for name in (
            "instructions", "memory_ops", "waits", "barriers", "cycles", "undefined_bytes",
            "undefined_addresses")]


# C spellings of fields that Python spells differently (`pass` is a keyword).
C_FIELD_NAMES = {("WaStageStats", "pass_"): "pass"}


# ---- prototypes ----------------------------------------------------------------------------

_p = c_void_p           # every opaque handle (wa_context *, wa_program *, ...)
_pp = POINTER(c_void_p)  # an out-parameter for a handle
_u = c_uint
_pu = POINTER(c_uint)
_op = WaOperand
_pop = POINTER(WaOperand)
_buf = POINTER(POINTER(c_char))  # char ** out-parameter of a buffer freed with wa_free
_st = c_int              # wa_status

PROTOTYPES = {
    # common.h, waveasm.h
    "wa_status_string": (c_char_p, [c_int]),
    "wa_target_name": (c_char_p, [c_int]),
    "wa_target_from_name": (_st, [POINTER(c_int), c_char_p]),
    "wa_free": (None, [c_void_p]),
    "wa_version_string": (c_char_p, []),
    "wa_version_number": (_u, []),
    # context.h
    "wa_context_create": (_st, [_pp, POINTER(WaContextOptions)]),
    "wa_context_destroy": (None, [_p]),
    "wa_context_target": (c_int, [_p]),
    "wa_context_xnack": (c_int, [_p]),
    "wa_context_sramecc": (c_int, [_p]),
    "wa_context_trim": (None, [_p]),
    "wa_context_diag_count": (_u, [_p]),
    "wa_context_diag": (POINTER(WaDiag), [_p, _u]),
    "wa_context_last_diag": (POINTER(WaDiag), [_p]),
    "wa_context_last_error": (c_char_p, [_p]),
    "wa_context_clear_diags": (None, [_p]),
    "wa_context_add_diag": (_st, [_p, POINTER(WaDiag)]),
    # isa.h
    "wa_isa_count": (_u, []),
    "wa_isa_get": (POINTER(WaIsaInfo), [_u]),
    "wa_isa_available": (c_int, [_u, c_int]),
    "wa_isa_mfma_shape": (POINTER(WaMfmaShape), [_u]),
    "wa_isa_logic": (_u, [_u]),
    "wa_isa_source_mods": (_u, [_u]),
    "wa_isa_mfma_passes": (_u, [_u, c_int]),
    "wa_isa_mnemonic": (c_char_p, [_u, c_int]),
    "wa_isa_lookup": (_st, [POINTER(c_int), c_char_p]),
    "wa_hwreg_name": (c_char_p, [_u, c_int]),
    "wa_format_name": (c_char_p, [c_int]),
    "wa_latency_class_name": (c_char_p, [c_int]),
    "wa_hazard_class_name": (c_char_p, [c_int]),
    # program.h: operands
    "wa_opnd_none": (_op, []),
    "wa_opnd_imm": (_op, [c_int64]),
    "wa_opnd_fimm": (_op, [c_double]),
    "wa_opnd_phys": (_op, [c_int, _u, _u]),
    "wa_opnd_special": (_op, [c_int]),
    "wa_opnd_label": (_op, [c_uint32]),
    "wa_opnd_off": (_op, []),
    "wa_opnd_sub": (_op, [_op, _u, _u]),
    # program.h: lifetime and attributes
    "wa_arg_kind_name": (c_char_p, [c_int]),
    "wa_special_name": (c_char_p, [c_int]),
    "wa_abi_input_name": (c_char_p, [c_int]),
    "wa_program_create": (_st, [_pp, _p, c_char_p]),
    "wa_program_destroy": (None, [_p]),
    "wa_program_clone": (_st, [_pp, _p]),
    "wa_program_equal": (c_int, [_p, _p]),
    "wa_program_context": (_p, [_p]),
    "wa_program_name": (c_char_p, [_p]),
    "wa_program_set_name": (_st, [_p, c_char_p]),
    "wa_program_target": (c_int, [_p]),
    "wa_program_set_target": (_st, [_p, c_int]),
    "wa_program_set_workgroup_size": (_st, [_p, _u, _u, _u]),
    "wa_program_workgroup_size": (None, [_p, c_uint * 3]),
    "wa_program_set_lds_bytes": (_st, [_p, _u]),
    "wa_program_lds_bytes": (_u, [_p]),
    "wa_program_set_abi_inputs": (_st, [_p, _u]),
    "wa_program_abi_inputs": (_u, [_p]),
    "wa_program_abi_reg": (_st, [_pop, _p, c_int]),
    "wa_program_user_sgpr_count": (_u, [_p]),
    "wa_program_abi_sgpr_count": (_u, [_p]),
    "wa_program_add_arg": (_st, [_pu, _p, POINTER(WaKernelArg)]),
    "wa_program_arg_count": (_u, [_p]),
    "wa_program_arg": (_st, [POINTER(WaKernelArg), _p, _u]),
    "wa_program_kernarg_size": (_u, [_p]),
    # program.h: registers, labels
    "wa_program_vreg": (_st, [_pop, _p, c_int, _u, _u]),
    "wa_program_vreg_count": (_u, [_p]),
    "wa_program_vreg_info": (_st, [POINTER(c_int), _pu, _pu, _p, _u]),
    "wa_target_tuple_align": (_u, [c_int, c_int, _u]),
    "wa_program_label_create": (_st, [POINTER(c_uint32), _p, c_char_p]),
    "wa_program_label_name": (c_char_p, [_p, c_uint32]),
    "wa_program_label_count": (_u, [_p]),
    # program.h: building
    "wa_build": (_st, [POINTER(c_uint32), _p, c_int, _pop, _u, POINTER(WaMods)]),
    "wa_build_valu": (_st, [POINTER(c_uint32), _p, c_int, _op, _op, _op, _op]),
    "wa_build_valu_mods": (_st, [POINTER(c_uint32), _p, c_int, _op, _op, _op, _op,
                                 POINTER(WaMods)]),
    "wa_build_salu": (_st, [POINTER(c_uint32), _p, c_int, _op, _op, _op]),
    "wa_build_smem": (_st, [POINTER(c_uint32), _p, c_int, _op, _op, _op, POINTER(WaMods)]),
    "wa_build_mubuf": (_st, [POINTER(c_uint32), _p, c_int, _op, _op, _op, _op,
                             POINTER(WaMods)]),
    "wa_build_global": (_st, [POINTER(c_uint32), _p, c_int, _op, _op, _op, POINTER(WaMods)]),
    "wa_build_ds": (_st, [POINTER(c_uint32), _p, c_int, _op, _op, _op, _op, POINTER(WaMods)]),
    "wa_build_mfma": (_st, [POINTER(c_uint32), _p, c_int, _op, _op, _op, _op, _op, _op,
                            POINTER(WaMods)]),
    "wa_build_waitcnt": (_st, [POINTER(c_uint32), _p, c_int, c_int, c_int]),
    "wa_build_sopp": (_st, [POINTER(c_uint32), _p, c_int, c_int]),
    "wa_build_hwreg": (_st, [POINTER(c_uint32), _p, c_int, _u, _op]),
    "wa_build_branch": (_st, [POINTER(c_uint32), _p, c_int, c_uint32]),
    "wa_build_label": (_st, [_p, c_uint32]),
    "wa_build_comment": (_st, [_p, c_char_p]),
    "wa_program_set_comment": (_st, [_p, c_uint32, c_char_p]),
    # program.h: inspecting and editing
    "wa_program_size": (_u, [_p]),
    "wa_program_get": (_st, [POINTER(WaInstrView), _p, _u]),
    "wa_program_find_tag": (_st, [_pu, _p, c_uint32]),
    "wa_program_set_insert_point": (_st, [_p, _u]),
    "wa_program_erase": (_st, [_p, _u]),
    "wa_program_move": (_st, [_p, _u, _u]),
    "wa_program_set_operand": (_st, [_p, _u, _u, _op]),
    "wa_program_set_mods": (_st, [_p, _u, POINTER(WaMods)]),
    # text.h
    "wa_program_parse": (_st, [_pp, _p, c_char_p, c_size_t, c_char_p]),
    "wa_program_parse_file": (_st, [_pp, _p, c_char_p]),
    "wa_program_parse_asm": (_st, [_pp, _p, c_char_p, c_size_t, c_char_p, _u]),
    "wa_program_print": (_st, [_buf, POINTER(c_size_t), _p, POINTER(WaPrintOptions)]),
    "wa_program_print_item": (_st, [_buf, _p, _u, POINTER(WaPrintOptions)]),
    # validate.h
    "wa_program_validate": (_st, [_pu, _p, POINTER(WaValidateOptions)]),
    # emit.h
    "wa_kernel_resources_compute": (_st, [POINTER(WaKernelResources), _p]),
    "wa_emit_asm": (_st, [_buf, POINTER(c_size_t), _p, POINTER(WaEmitOptions)]),
    # encode.h
    "wa_encode_program": (_st, [_buf, POINTER(c_size_t), _p, POINTER(WaEncodeOptions)]),
    "wa_disassemble": (_st, [_buf, POINTER(c_size_t), _p, c_char_p, c_size_t, c_int,
                             POINTER(WaDisasmOptions)]),
    # object.h
    "wa_emit_object": (_st, [_buf, POINTER(c_size_t), POINTER(_p), _u, POINTER(WaObjectOptions)]),
    # liveness.h
    "wa_liveness_compute": (_st, [_pp, _p, POINTER(WaLivenessOptions)]),
    "wa_liveness_destroy": (None, [_p]),
    "wa_liveness_block_count": (_u, [_p]),
    "wa_liveness_block": (_st, [POINTER(WaBlockInfo), _p, _u]),
    "wa_liveness_block_of": (_u, [_p, _u]),
    "wa_liveness_preds": (_pu, [_p, _u, _pu]),
    "wa_liveness_succs": (_pu, [_p, _u, _pu]),
    "wa_liveness_live_in": (_pu, [_p, _u, _pu]),
    "wa_liveness_live_out": (_pu, [_p, _u, _pu]),
    "wa_liveness_loop_count": (_u, [_p]),
    "wa_liveness_loop": (_st, [POINTER(WaLoopInfo), _p, _u]),
    "wa_liveness_segments": (POINTER(WaLiveSegment), [_p, _u, _pu]),
    "wa_liveness_is_live": (c_int, [_p, _u, _u]),
    "wa_liveness_live_at": (_u, [_pu, _u, _p, _u, c_int]),
    "wa_liveness_live_on_entry": (_pu, [_p, _pu]),
    "wa_liveness_exec_partial": (c_int, [_p, _u]),
    "wa_liveness_pressure": (_u, [_p, _u, c_int]),
    "wa_liveness_max_pressure": (_u, [_p, c_int, _pu]),
    "wa_liveness_print": (_st, [_buf, POINTER(c_size_t), _p]),
    "wa_pressure_report": (_st, [_buf, POINTER(c_size_t), _p, _p]),
    "wa_pressure_svg": (_st, [_buf, POINTER(c_size_t), _p, _p]),
    # regalloc.h
    "wa_regalloc_run": (_st, [_pp, _p, POINTER(WaRegallocOptions)]),
    "wa_regalloc_destroy": (None, [_p]),
    "wa_regalloc_lookup": (_st, [_pop, _p, _u]),
    "wa_regalloc_result_create": (_st, [_pp, _p]),
    "wa_regalloc_assign": (_st, [_p, _u, _u]),
    "wa_regalloc_get_stats": (_st, [POINTER(WaRegallocStats), _p]),
    "wa_regalloc_apply": (_st, [_p, _p, _pu]),
    "wa_regalloc_check": (_st, [_pu, _p, _p, POINTER(WaRegallocOptions)]),
    # passes.h
    "wa_pass_waitcnt": (_st, [_p, POINTER(WaFlagsOptions), POINTER(WaPassStats)]),
    "wa_check_waitcnt": (_st, [_pu, _p, POINTER(WaFlagsOptions)]),
    "wa_pass_hazards": (_st, [_p, POINTER(WaFlagsOptions), POINTER(WaPassStats)]),
    "wa_check_hazards": (_st, [_pu, _p, POINTER(WaFlagsOptions)]),
    "wa_pass_peephole": (_st, [_p, POINTER(WaFlagsOptions), POINTER(WaPassStats)]),
    "wa_pass_cse": (_st, [_p, POINTER(WaCseOptions), POINTER(WaPassStats)]),
    "wa_pass_virtualize": (_st, [_p, POINTER(WaFlagsOptions), POINTER(WaPassStats)]),
    "wa_stage_name": (c_char_p, [c_int]),
    "wa_stage_from_name": (_st, [POINTER(c_int), c_char_p]),
    "wa_run_stage": (_st, [_p, c_int, POINTER(WaPipelineOptions), POINTER(WaPassStats)]),
    "wa_pipeline_create": (_st, [_pp, _p, POINTER(WaPipelineOptions)]),
    "wa_pipeline_destroy": (None, [_p]),
    "wa_pipeline_enable": (_st, [_p, c_int, c_int]),
    "wa_pipeline_replace": (_st, [_p, c_int, STAGE_FN, c_void_p]),
    "wa_pipeline_run": (_st, [_p, _p]),
    "wa_pipeline_stats": (_st, [POINTER(WaStageStats), _p, c_int]),
    "wa_compile": (_st, [_p, POINTER(WaPipelineOptions)]),
    "wa_pipeline_insert": (_st, [_p, c_int, c_int, c_char_p, STAGE_FN, c_void_p]),
    "wa_pipeline_inserted_count": (_u, [_p]),
    "wa_pipeline_inserted_stats": (_st, [POINTER(WaStageStats), POINTER(c_char_p), _p, _u]),
    # conductor.h
    "wa_schedule_create": (_st, [_pp, _p, POINTER(WaScheduleOptions)]),
    "wa_schedule_destroy": (None, [_p]),
    "wa_schedule_program": (_p, [_p]),
    "wa_schedule_region_count": (_u, [_p]),
    "wa_schedule_region": (_st, [POINTER(WaSchedRegion), _p, _u]),
    "wa_schedule_measure": (_st, [POINTER(WaSchedMetrics), _p]),
    "wa_schedule_region_cycles": (c_uint64, [_p, _u]),
    "wa_sched_metrics_better": (c_int, [_p, POINTER(WaSchedMetrics), POINTER(WaSchedMetrics)]),
    "wa_schedule_print": (_st, [_buf, POINTER(c_size_t), _p, POINTER(WaSchedMetrics)]),
    "wa_schedule_apply": (_st, [POINTER(WaSchedRound), _p, c_char_p, c_size_t]),
    "wa_schedule_warning": (_st, [POINTER(WaSchedWarning), _p, _u]),
    "wa_schedule_report": (c_char_p, [_p]),
    "wa_schedule_run": (_st, [POINTER(WaSchedResult), _p, SCHED_ORACLE, c_void_p,
                              POINTER(WaSchedRunOptions)]),
    "wa_schedule_run_heuristic": (_st, [POINTER(WaSchedResult), _p, _u]),
    "wa_schedule_beam": (_st, [POINTER(WaSchedResult), _p, SCHED_AGENT_ORACLE, c_void_p,
                               POINTER(WaSchedBeamOptions)]),
    "wa_stage_schedule": (_st, [_p, POINTER(WaPassStats), c_void_p]),
    "wa_schedule_heuristic": (_st, [_buf, POINTER(c_size_t), _p]),
    "wa_schedule_set_profile": (_st, [_p, c_char_p, c_size_t]),
    "wa_sha256": (None, [POINTER(c_uint8), c_void_p, c_size_t]),
    "wa_sha256_hex": (None, [POINTER(c_char), c_void_p, c_size_t]),
    # sim.h
    "wa_sim_create": (_st, [_pp, _p, POINTER(WaSimOptions)]),
    "wa_sim_destroy": (None, [_p]),
    "wa_sim_bind_buffer": (_st, [_p, _u, c_void_p, c_size_t]),
    "wa_sim_set_arg": (_st, [_p, _u, c_void_p, c_size_t]),
    "wa_sim_buffer_address": (c_uint64, [_p, _u]),
    "wa_sim_run": (_st, [_p]),
    "wa_sim_get_stats": (_st, [POINTER(WaSimStats), _p]),
    "wa_sim_compare": (_st, [_pu, _p, _p]),
    "wa_sim_unsupported": (c_char_p, [_u]),
}

for _name, (_res, _args) in PROTOTYPES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args

_loaded = (lib.wa_version_number() // 10000, lib.wa_version_number() // 100 % 100)
if _loaded[0] != ABI_VERSION[0] or (ABI_VERSION[0] == 0 and _loaded[1] != ABI_VERSION[1]):
    raise ImportError(f"{library_path} is libwaveasm {lib.wa_version_string().decode()}; "
                      f"this package needs the ABI of libwaveasm.so.{ABI_SOVERSION}")


# ---- small helpers shared by the modules ------------------------------------------------

def cstr(value):
    """Python str (or None) -> bytes for a const char * parameter."""
    return None if value is None else value.encode()


def pystr(value):
    """bytes (or None) from a char * result -> str."""
    return None if value is None else value.decode("utf-8", "replace")


def names(fn):
    """The names a library name function returns for 0, 1, ... until NULL: the
    library's own list of an enum's values."""
    out = []
    while True:
        n = fn(len(out))
        if n is None:
            return tuple(out)
        out.append(n.decode())


def take_buffer(ptr, length=None):
    """Copies a buffer the library handed over into a str and releases it."""
    try:
        if length is None:
            return pystr(ctypes.string_at(ptr))
        return ctypes.string_at(ptr, length).decode("utf-8", "replace")
    finally:
        lib.wa_free(ptr)


def take_bytes(ptr, length):
    """Copies a binary buffer the library handed over and releases it."""
    try:
        return ctypes.string_at(ptr, length)
    finally:
        lib.wa_free(ptr)


def uint_array(ptr, count):
    """A borrowed `const unsigned *` of `count` elements as a tuple."""
    return tuple(ptr[i] for i in range(count)) if count else ()


def record_type(name, struct, doc, rename=None, nested=None):
    """A frozen dataclass with the fields of a statistics struct (all but
    `version`), and `from_c(struct)` to fill it: the struct is the only list of
    the fields. `rename` maps C names to Python ones, `nested` gives the record
    type of struct-valued fields."""
    rename = rename or {}
    nested = nested or {}
    pairs = [(c, rename.get(c, c)) for c, _ in struct._fields_ if c != "version"]
    cls = dataclasses.make_dataclass(name, [p for _, p in pairs], frozen=True,
                                     namespace={"__doc__": doc, "__module__": "waveasm"})

    def from_c(s):
        values = {}
        for c, p in pairs:
            v = getattr(s, c)
            if c in nested:
                v = nested[c].from_c(v)
            elif isinstance(v, ctypes.Array):
                v = tuple(v)
            values[p] = v
        return cls(**values)

    cls.from_c = staticmethod(from_c)
    cls.as_dict = dataclasses.asdict
    return cls
