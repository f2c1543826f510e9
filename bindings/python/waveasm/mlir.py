"""The MLIR front end (libwaveasm_mlir): upstream MLIR kernels to Programs.

The front end is a separate library, built when LLVM 22's MLIR is available;
it is loaded on first use, so `import waveasm` works without it. It is looked
for as $WAVEASM_MLIR_LIBRARY, next to the libwaveasm that was loaded, then by
the system loader. Errors raise the usual WaveasmError subclasses with the MLIR
locations (file:line:col) in their diagnostics.
"""

import ctypes
import os
import threading
from ctypes import POINTER, Structure, c_char_p, c_size_t, c_uint, c_void_p

from ._lib import ABI_SOVERSION, cstr, library_path
from .context import Context, target_value
from .passes import Pipeline
from .program import Program

FORCE_WORKGROUP_SIZE = 0x1


class WaMlirOptions(Structure):
    """wa_mlir_options (include/waveasm/mlir.h), version 1."""
    _fields_ = [("version", c_uint), ("target", ctypes.c_int), ("kernel_name", c_char_p),
                ("workgroup_size", c_uint * 3), ("flags", c_uint), ("wave_size", c_uint)]


_lock = threading.Lock()
_mlir = None


def _load():
    global _mlir
    with _lock:
        if _mlir is not None:
            return _mlir
        names = []
        env = os.environ.get("WAVEASM_MLIR_LIBRARY")
        if env:
            names.append(env)
        if library_path and os.sep in library_path:
            # next to the core library (in a build tree: its mlir/ folder)
            d = os.path.dirname(os.path.abspath(library_path))
            names += [os.path.join(d, "mlir", f"libwaveasm_mlir.so.{ABI_SOVERSION}"),
                      os.path.join(d, f"libwaveasm_mlir.so.{ABI_SOVERSION}"),
                      os.path.join(d, "libwaveasm_mlir.so")]
        names.append(f"libwaveasm_mlir.so.{ABI_SOVERSION}")
        tried = []
        for n in names:
            if os.path.isabs(n) and not os.path.exists(n):
                continue
            try:
                m = ctypes.CDLL(n)
                break
            except OSError as e:
                tried.append(f"{n}: {e}")
        else:
            raise ImportError("libwaveasm_mlir (the MLIR front end) not found: set "
                              "WAVEASM_MLIR_LIBRARY or build libwaveasm with MLIR ("
                              + "; ".join(tried) + ")")
        m.wa_mlir_translate.argtypes = [POINTER(c_void_p), c_void_p, c_char_p, c_size_t,
                                        c_char_p, POINTER(WaMlirOptions)]
        m.wa_mlir_translate.restype = ctypes.c_int
        m.wa_mlir_result_count.argtypes = [c_void_p]
        m.wa_mlir_result_count.restype = c_uint
        m.wa_mlir_result_take.argtypes = [c_void_p, c_uint]
        m.wa_mlir_result_take.restype = c_void_p
        m.wa_mlir_result_destroy.argtypes = [c_void_p]
        m.wa_mlir_result_destroy.restype = None
        m.wa_mlir_version_string.argtypes = []
        m.wa_mlir_version_string.restype = c_char_p
        _mlir = m
        return m


def available():
    """True when libwaveasm_mlir can be loaded."""
    try:
        _load()
        return True
    except ImportError:
        return False


def version():
    """The front end's version string, e.g. "0.2.0 (MLIR 22)"."""
    return _load().wa_mlir_version_string().decode()


def translate_mlir(text, *, target=None, kernel=None, workgroup_size=None,
                   force_workgroup_size=False, file_name=None, context=None):
    """Translates every kernel of `text` (MLIR, generic or custom form) into a
    Program with virtual registers, in the order of the input. `kernel` keeps
    only the kernel of that name; `workgroup_size` (x[, y[, z]]) applies where
    the MLIR gives none, or always with `force_workgroup_size`."""
    m = _load()
    ctx = context if context is not None else Context(target or "gfx942")
    o = WaMlirOptions(1, target_value(target) if target else 0, cstr(kernel), (c_uint * 3)(),
                      FORCE_WORKGROUP_SIZE if force_workgroup_size else 0, 64)
    if workgroup_size:
        wg = list(workgroup_size) + [1] * (3 - len(workgroup_size))
        o.workgroup_size = (c_uint * 3)(*wg[:3])
    data = text.encode() if isinstance(text, str) else bytes(text)
    res = c_void_p()
    ctx._call(m.wa_mlir_translate, ctypes.byref(res), ctx._h, data, len(data),
              cstr(file_name or "<mlir>"), ctypes.byref(o))
    try:
        progs = []
        for i in range(m.wa_mlir_result_count(res)):
            p = m.wa_mlir_result_take(res, i)
            progs.append(Program.__new__(Program)._adopt(ctx, p))
        return progs
    finally:
        m.wa_mlir_result_destroy(res)


def compile_mlir(text, *, target="gfx942", kernel=None, workgroup_size=None,
                 force_workgroup_size=False, file_name=None, context=None, **pipeline_options):
    """Translates `text` and runs the default pipeline on every kernel: a list
    of allocated, ready-to-emit Programs (`emit_asm()`, `Simulator`). With
    `kernel`, the one Program of that name. Options of the Pipeline (waitcnt,
    cse, peephole settings) pass through."""
    ctx = context if context is not None else Context(target)
    progs = translate_mlir(text, target=target, kernel=kernel, workgroup_size=workgroup_size,
                           force_workgroup_size=force_workgroup_size, file_name=file_name,
                           context=ctx)
    pl = Pipeline(ctx, **pipeline_options)
    try:
        for p in progs:
            pl.run(p)
    finally:
        pl.close()
    return progs[0] if kernel is not None else progs
