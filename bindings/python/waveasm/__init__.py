"""waveasm: Python bindings of libwaveasm, a library that compiles AMDGCN GPU
kernels (gfx90a, gfx942, gfx950) at run time.

    import waveasm
    with waveasm.Context("gfx942") as ctx:
        prog = ctx.parse(open("kernel.wa").read(), file_name="kernel.wa")
        prog.compile()                      # cse, peephole, regalloc, waitcnt, hazards
        print(prog.emit_asm())

The library is loaded with ctypes from $WAVEASM_LIBRARY, from a libwaveasm.so
inside this package, or through the system's dynamic loader.
"""

from . import isa
from ._lib import library_path, lib as _clib
from .analysis import Block, Liveness, Loop, RegallocResult, RegallocStats
from .conductor import Conductor, OpenAIOracle
from .context import TARGETS, Context
from .errors import (
    AllocationError, Diagnostic, FileError, InternalError, InvalidArgumentError, NotFoundError,
    OutOfMemoryError, ParseError, RangeError, SimFaultError, SimHazardError, SimLimitError,
    SimulationError, SimWaitError, UnsupportedError, ValidationError, WaveasmError,
    status_string,
)
from .isa import OpInfo, OperandInfo, hwreg_name
from .operand import Operand, dpp, hwreg
from .passes import STAGES, PassStats, Pipeline, StageStats
from .program import (
    ABI_INPUTS, ARG_KINDS, MODIFIERS, Item, KernelArg, KernelResources, Program,
)
from .sim import SimStats, Simulator

__version__ = "0.2.0"


def library_version():
    """Version string of the loaded library ("0.2.0")."""
    return _clib.wa_version_string().decode()


def parse(text, file_name=None, context=None):
    """Parses one kernel (a new Context unless `context` is given)."""
    return Program.parse(text, file_name=file_name, context=context)


def parse_file(path, context=None):
    """Reads and parses a kernel file (a new Context unless `context` is given)."""
    return Program.parse_file(path, context=context)


def compile_mlir(text, **options):
    """Translates MLIR kernels with the MLIR front end (libwaveasm_mlir) and
    compiles them with the default pipeline; see waveasm.mlir.compile_mlir."""
    from .mlir import compile_mlir as _compile
    return _compile(text, **options)


def translate_mlir(text, **options):
    """MLIR kernels to Programs (virtual registers); see waveasm.mlir."""
    from .mlir import translate_mlir as _translate
    return _translate(text, **options)


def tuple_align(target, reg_class, size):
    """Alignment the target requires for a tuple of `size` registers."""
    from .context import target_value
    from .operand import reg_class_value
    return _clib.wa_target_tuple_align(target_value(target), reg_class_value(reg_class), size)


__all__ = [
    "compile_mlir", "translate_mlir",
    "ABI_INPUTS", "ARG_KINDS", "AllocationError", "Block", "Context", "Diagnostic",
    "FileError", "InternalError", "InvalidArgumentError", "Item", "KernelArg",
    "KernelResources", "Liveness", "Loop", "MODIFIERS", "NotFoundError", "OpInfo", "Operand",
    "OperandInfo", "OutOfMemoryError", "ParseError", "PassStats", "Pipeline", "Program",
    "RangeError", "RegallocResult", "RegallocStats", "STAGES", "SimFaultError",
    "SimHazardError", "SimLimitError", "SimStats", "SimWaitError", "SimulationError",
    "Simulator",
    "StageStats", "TARGETS", "UnsupportedError", "ValidationError", "WaveasmError", "dpp",
    "hwreg", "hwreg_name", "isa", "library_path", "library_version", "parse", "parse_file",
    "status_string", "tuple_align",
]
