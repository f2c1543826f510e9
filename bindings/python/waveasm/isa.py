"""The ISA table, read from the loaded library (wa_isa_count / wa_isa_get).

There is no opcode list in this package: `OPCODES` holds one `OpInfo` per row
of the library's table, in opcode order, and the builder methods of `Program`
are generated from it. Only the meaning of the bit masks (isa.h) is spelled out
here.
"""

import ctypes
from dataclasses import dataclass

from . import errors
from ._lib import lib, names, pystr
from .context import TARGET_VALUES, invalid, target_value

# Bit names of the masks in isa.h, in bit order.
OPERAND_CLASS_BITS = ("vgpr", "sgpr", "agpr", "special", "inline", "literal", "imm",
                      "label", "off", "hwreg", "vcc32", "klit")
FLAG_BITS = ("pseudo", "branch", "cbranch", "endpgm", "barrier", "waitcnt", "nop", "load",
             "store", "atomic", "lds_dma", "mfma", "trans", "rtn_glc", "ds_2addr",
             "smem_buffer", "f8f6f4", "side_effects", "no_special_dst", "move", "rel_m0",
             "early_clobber", "indirect", "commutative", "opsel4")
MODOK_BITS = ("clamp", "omod", "neg", "abs", "op_sel", "op_sel_hi", "neg_hi", "dpp", "sdwa",
              "glc", "slc", "sc1", "offset", "offset01", "offen", "idxen", "lds", "cbsz",
              "abid", "blgp", "waitcnt")
IMPLICIT_BITS = ("scc", "vcc", "exec", "m0")
COUNTER_BITS = ("vm", "lgkm", "exp")
ROLES = {1: "def", 2: "use", 3: "defuse"}
DATA_TYPES = ("none", "b32", "f32", "f16", "b64", "f64", "b16", "bf16", "pk_b16", "pk_f16",
              "pk_bf16", "pk_f32")
MFMA_INPUTS = {1: "f16", 2: "bf16", 3: "fp8", 4: "i8", 5: "f32", 6: "f8f6f4", 7: "f64",
               8: "bf8", 9: "xf32"}

FORMATS = names(lib.wa_format_name)
LATENCY_CLASSES = names(lib.wa_latency_class_name)
HAZARD_CLASSES = names(lib.wa_hazard_class_name)


def bit_names(mask, bits):
    """The names of the bits set in `mask` (bits beyond the known names as
    "bit<n>", so a newer library's flags are not lost)."""
    out = [name for i, name in enumerate(bits) if mask & (1 << i)]
    out += [f"bit{i}" for i in range(len(bits), 32) if mask & (1 << i)]
    return frozenset(out)


def target_set(mask):
    """A WA_TARGET_BIT mask -> frozenset of target names."""
    return frozenset(n for n, v in TARGET_VALUES.items() if mask & (1 << v))


@dataclass(frozen=True)
class OperandInfo:
    """One operand position of an opcode: name ("vdst", "src0", ...), role
    ("def", "use", "defuse"), data type of immediates, size in 32-bit registers
    (0: decided by modifiers), accepted classes ("vgpr", "sgpr", "inline", ...)
    and the range of a raw immediate field."""

    name: str
    role: str
    type: str
    size: int
    classes: frozenset
    imm_min: int
    imm_max: int

    def __str__(self):
        size = f"{self.size} reg{'s' if self.size != 1 else ''}" if self.size else "sized by mods"
        return f"{self.name} ({self.role}: {'|'.join(sorted(self.classes))}; {size}; {self.type})"


@dataclass(frozen=True)
class MfmaShape:
    """Shape of an MFMA: `blocks` independent m x n x k products, the input
    format of A and B, the targets honouring a non-zero BLGP."""

    m: int
    n: int
    k: int
    blocks: int
    input: str
    blgp_targets: frozenset


@dataclass(frozen=True, repr=False)
class OpInfo:
    """Facts about one opcode, as the library's table has them. `mods_ok` names
    the modifiers the instruction takes (MODOK_BITS); `logic` is wa_isa_logic()
    (0 unless the result is a bitwise function of the sources); `source_mods` is
    wa_isa_source_mods() (bits 0..2: the sources that take neg, 4..6: abs)."""

    opcode: int
    id: str
    mnemonic: str
    mnemonic_gfx90a: str
    format: str
    targets: frozenset
    flags: frozenset
    implicit_defs: frozenset
    implicit_uses: frozenset
    counters: frozenset
    latency: str
    hazard: str
    encoding: int
    encoding_gfx90a: int
    operands: tuple
    mfma_shape: MfmaShape | None
    mods_ok: frozenset
    logic: int
    source_mods: int

    def __repr__(self):
        return f"<OpInfo {self.mnemonic} ({self.id}, opcode {self.opcode})>"

    def available(self, target):
        """True if the opcode exists on `target` ("gfx942", ...)."""
        return bool(lib.wa_isa_available(self.opcode, target_value(target)))

    def mnemonic_for(self, target):
        """Assembly spelling on `target`."""
        return pystr(lib.wa_isa_mnemonic(self.opcode, target_value(target)))

    def mfma_passes(self, target):
        """MFMA issue passes on `target` (0 if not an MFMA or not available there)."""
        return lib.wa_isa_mfma_passes(self.opcode, target_value(target))

    @property
    def sim_unsupported(self):
        """None if the simulator executes this opcode, else the reason it does not."""
        return pystr(lib.wa_sim_unsupported(self.opcode))

    @property
    def operand_names(self):
        """Operand names in table order."""
        return tuple(o.name for o in self.operands)

    def describe(self):
        """A few lines for documentation: the call shape, format, targets, operands."""
        lines = [f"{self.mnemonic}({', '.join(self.operand_names)}) -- {self.format} on "
                 f"{', '.join(sorted(self.targets))}"]
        if self.mnemonic_gfx90a != self.mnemonic:
            lines.append(f"spelled {self.mnemonic_gfx90a} on gfx90a")
        lines += [f"  {o}" for o in self.operands]
        return "\n".join(lines)


def _read(op):
    e = lib.wa_isa_get(op).contents
    operands = tuple(
        OperandInfo(pystr(o.name), ROLES.get(o.role, str(o.role)),
                    DATA_TYPES[o.type] if o.type < len(DATA_TYPES) else str(o.type),
                    o.size, bit_names(o.classes, OPERAND_CLASS_BITS), o.imm_min, o.imm_max)
        for o in e.operands[:e.num_operands])
    shape = lib.wa_isa_mfma_shape(op)
    if shape:
        s = shape.contents
        shape = MfmaShape(s.m, s.n, s.k, s.blocks, MFMA_INPUTS.get(s.input, str(s.input)),
                          target_set(s.blgp_targets))
    else:
        shape = None
    mnemonic = pystr(e.mnemonic)
    return OpInfo(
        op, pystr(e.id), mnemonic, pystr(e.mnemonic_gfx90a) or mnemonic, FORMATS[e.format],
        target_set(e.targets), bit_names(e.flags, FLAG_BITS),
        bit_names(e.implicit_defs, IMPLICIT_BITS), bit_names(e.implicit_uses, IMPLICIT_BITS),
        bit_names(e.counters, COUNTER_BITS), LATENCY_CLASSES[e.latency],
        HAZARD_CLASSES[e.hazard], e.encoding, e.encoding_gfx90a, operands, shape,
        bit_names(e.mods_ok, MODOK_BITS), lib.wa_isa_logic(op), lib.wa_isa_source_mods(op))


OPCODES = tuple(_read(op) for op in range(lib.wa_isa_count()))
BY_ID = {info.id: info for info in OPCODES}


def lookup(mnemonic):
    """The OpInfo spelled `mnemonic` (either target's spelling, with or without
    _e32/_e64; the plain form where the lds forms share it). NotFoundError
    otherwise."""
    out = ctypes.c_int()
    if lib.wa_isa_lookup(ctypes.byref(out), mnemonic.encode()) != errors.OK:
        raise errors.NotFoundError(errors.E_NOT_FOUND, [errors.Diagnostic(
            "error", errors.E_NOT_FOUND, f"unknown mnemonic {mnemonic!r}")])
    return OPCODES[out.value]


def opinfo(op):
    """OpInfo for an OpInfo, an opcode number, an upper-case table id
    ("V_ADD_U32") or a mnemonic ("v_add_u32")."""
    if isinstance(op, OpInfo):
        return op
    if isinstance(op, int) and not isinstance(op, bool):
        if 0 <= op < len(OPCODES):
            return OPCODES[op]
        raise invalid(f"opcode {op} out of range (0..{len(OPCODES) - 1})")
    if isinstance(op, str):
        return BY_ID.get(op) or lookup(op)
    raise TypeError(f"expected an opcode, mnemonic or OpInfo, got {type(op).__name__}")


def lds_form(info):
    """The `lds` form (buffer load into LDS) of a MUBUF load, or None."""
    for other in OPCODES:
        if ("lds_dma" in other.flags and other.format == info.format
                and other.mnemonic == info.mnemonic):
            return other
    return None


def hwreg_name(hwreg_id, target="gfx942"):
    """"HW_REG_MODE" for id 1 on `target`; None where the target has no name."""
    return pystr(lib.wa_hwreg_name(hwreg_id, target_value(target)))
