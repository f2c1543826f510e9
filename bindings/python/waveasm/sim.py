"""The wave64 simulator (sim.h): run a kernel on host memory."""

import ctypes
import struct

from . import errors
from ._lib import WaSimOptions, WaSimStats, lib, record_type
from .context import Handle, invalid, locked

_TIMING, _HAZARDS, _PERMISSIVE, _UNDEF_ERRORS = 0x1, 0x2, 0x4, 0x8

SimStats = record_type(
    "SimStats", WaSimStats,
    """Statistics of a run: workgroups, waves, instructions (over all waves),
    memory_ops, waits (s_waitcnt that blocked), barriers, cycles (model units),
    undefined_bytes (stored from undefined lanes), undefined_addresses
    (permissive mode: skipped stores or branches on undefined values).""")


def _dims(value, default):
    if value is None:
        return default
    value = tuple(value)
    return value + (1,) * (3 - len(value))


class Simulator(Handle):
    """Runs a copy of `program` (which must validate; virtual or physical
    registers) over a grid of workgroups.

    `timing` (random completion times, missing-wait errors), `hazards`
    (wait-state errors), `permissive` (memory outside bound buffers is a
    scratch space), `undef_errors` (reading undefined registers is an error),
    `seed`, `grid` and `workgroup_size` (x, y, z; default: the program's), and
    `max_instructions` per wave (0: the library's limit)."""

    _kind = "Simulator"

    def __init__(self, program, *, timing=True, hazards=False, permissive=False,
                 undef_errors=False, seed=1, grid=(1, 1, 1), workgroup_size=None,
                 max_instructions=0):
        ctx = program.context
        flags = ((_TIMING if timing else 0) | (_HAZARDS if hazards else 0)
                 | (_PERMISSIVE if permissive else 0) | (_UNDEF_ERRORS if undef_errors else 0))
        opts = WaSimOptions(1, flags, seed, (ctypes.c_uint * 3)(*_dims(grid, (1, 1, 1))),
                            (ctypes.c_uint * 3)(*_dims(workgroup_size, (0, 0, 0))),
                            max_instructions)
        out = ctypes.c_void_p()
        ctx._call(lib.wa_sim_create, ctypes.byref(out), program._h, ctypes.byref(opts))
        self.context = ctx
        self.args = program.args   # the simulator runs a copy: its arguments now
        self._buffers = {}         # bound host memory, kept alive while bound
        # The simulator copied the program: only the context must outlive it.
        self._own(out.value, ctx._guard, lib.wa_sim_destroy, (ctx,))

    def _arg_index(self, arg):
        if isinstance(arg, str):
            for i, a in enumerate(self.args):
                if a.name == arg:
                    return i
            raise invalid(f"no kernel argument named {arg!r}")
        return arg

    def bind_buffer(self, arg, buffer):
        """Binds writable host memory (bytearray, array.array, memoryview, a
        NumPy array, ...) to a global-buffer argument (index or name). The
        kernel reads and writes it in place."""
        view = memoryview(buffer)
        if view.readonly:
            raise TypeError("bind_buffer needs writable memory (bytes are read-only: "
                            "use a bytearray)")
        if not view.contiguous:
            raise TypeError("bind_buffer needs contiguous memory")
        # from_buffer exports the buffer, so it cannot be resized while bound.
        mem = (ctypes.c_char * view.nbytes).from_buffer(view.cast("B"))
        index = self._arg_index(arg)
        self.context._call(lib.wa_sim_bind_buffer, self._h, index, mem, view.nbytes)
        self._buffers[index] = mem

    def set_arg(self, arg, value):
        """Sets a by-value argument (index or name) from bytes, an int (little
        endian, the argument's size) or a float (f32 for 4 bytes, f64 for 8)."""
        index = self._arg_index(arg)
        if not 0 <= index < len(self.args):
            raise invalid(f"argument index {index} out of range")
        size = self.args[index].size
        if isinstance(value, float):
            data = struct.pack("<f" if size == 4 else "<d", value)
        elif isinstance(value, int):
            data = value.to_bytes(size, "little", signed=value < 0)
        else:
            data = bytes(value)
        self.context._call(lib.wa_sim_set_arg, self._h, index, data, len(data))

    def buffer_address(self, arg):
        """Device address of a bound buffer argument (0 if unbound)."""
        return self.context._query(lib.wa_sim_buffer_address, self._h, self._arg_index(arg))

    def run(self):
        """Runs the grid; returns SimStats. SimulationError subclasses name the
        instruction, wave and workgroup on failure."""
        self.context._call(lib.wa_sim_run, self._h)
        return self.stats

    @property
    def stats(self):
        """SimStats of the last run."""
        s = WaSimStats()
        self.context._call(lib.wa_sim_get_stats, ctypes.byref(s), self._h)
        return SimStats.from_c(s)

    def compare(self, other):
        """Bytes of memory in which `other` differs from this (reference) run
        where this one is defined; 0 when equal. The differences are described
        as notes in `context.diagnostics`."""
        n = ctypes.c_uint()
        with locked(self.context, other.context):
            st = lib.wa_sim_compare(ctypes.byref(n), self._h, other._h)
            if st not in (errors.OK, errors.E_VALIDATE):  # E_VALIDATE: "different"
                raise self.context._error(st)
        return n.value
