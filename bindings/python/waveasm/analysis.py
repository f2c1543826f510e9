"""Liveness and register allocation results (liveness.h, regalloc.h)."""

import ctypes
from dataclasses import dataclass

from . import errors
from ._lib import (
    WaBlockInfo, WaLivenessOptions, WaLoopInfo, WaOperand, WaRegallocOptions,
    WaRegallocStats, lib, record_type, uint_array,
)
from .context import Handle, invalid
from .operand import Operand, reg_class_value

NONE = 0xFFFFFFFF
_SSA_CHECK = 0x1
_NO_COALESCE, _NO_HOLES, _CHECK = 0x1, 0x2, 0x4

RegallocStats = record_type(
    "RegallocStats", WaRegallocStats,
    """Allocation statistics: peak_vgprs/peak_sgprs/peak_agprs (highest register
    used + 1), max_pressure_vgpr/_sgpr/_agpr, intervals (virtual registers with a
    register), coalesced (move hints honoured), tied (MFMA vdst given its srcC's
    registers), hole_fits (values placed in another value's lifetime hole).""")


def _opt(value):
    return None if value == NONE else value


@dataclass(frozen=True)
class Block:
    """A basic block: its items [first_item, last_item], edges, immediate
    dominator and innermost loop (None when there is none), loop depth,
    reachability, and the virtual registers live on entry and exit."""

    index: int
    first_item: int
    last_item: int
    preds: tuple
    succs: tuple
    idom: int | None
    loop_depth: int
    loop: int | None
    reachable: bool
    live_in: tuple
    live_out: tuple


@dataclass(frozen=True)
class Loop:
    """A natural loop: header block, enclosing loop (None if outermost), depth
    (1 outermost), number of blocks (nested included) and of exit edges."""

    index: int
    header: int
    parent: int | None
    depth: int
    num_blocks: int
    num_exits: int


def _borrowed(ctx, fn, *args):
    """Calls a function returning a borrowed `const unsigned *` plus count."""
    n = ctypes.c_uint()
    with ctx._guard:
        ptr = fn(*args, ctypes.byref(n))
        return uint_array(ptr, n.value)


class Liveness(Handle):
    """Blocks, loops, live segments and register pressure of a program as it
    was when computed (`stale` tells whether it has been edited since).
    Program points: item i reads at 2*i and writes at 2*i+1."""

    _kind = "Liveness"

    def __init__(self, program, *, ssa_check=False):
        ctx = program.context
        out = ctypes.c_void_p()
        opts = WaLivenessOptions(1, _SSA_CHECK if ssa_check else 0)
        ctx._call(lib.wa_liveness_compute, ctypes.byref(out), program._h, ctypes.byref(opts))
        self.program = program
        self._generation = program._generation
        self._own(out.value, ctx._guard, lib.wa_liveness_destroy, (program,))

    def _q(self, fn, *args):
        return self.program.context._query(fn, self._h, *args)

    @property
    def stale(self):
        """True if the program changed after this was computed."""
        return self.program.closed or self.program._generation != self._generation

    def _require_current(self, program):
        if program is not self.program:
            raise invalid("the liveness was computed from another program")
        if self.stale:
            raise invalid("the liveness is stale: the program changed after it was computed")
        return self._h

    # ---- blocks and loops --------------------------------------------------------------

    @property
    def block_count(self):
        """Number of basic blocks."""
        return self._q(lib.wa_liveness_block_count)

    def block(self, index):
        """The Block `index`."""
        ctx, h = self.program.context, self._h
        b = WaBlockInfo()
        ctx._call(lib.wa_liveness_block, ctypes.byref(b), h, index)
        return Block(index, b.first_item, b.last_item,
                     _borrowed(ctx, lib.wa_liveness_preds, h, index),
                     _borrowed(ctx, lib.wa_liveness_succs, h, index),
                     _opt(b.idom), b.loop_depth, _opt(b.loop), bool(b.reachable),
                     _borrowed(ctx, lib.wa_liveness_live_in, h, index),
                     _borrowed(ctx, lib.wa_liveness_live_out, h, index))

    @property
    def blocks(self):
        """Every Block, in order."""
        return [self.block(i) for i in range(self.block_count)]

    def block_of(self, item):
        """Index of the block holding program item `item`."""
        return self._q(lib.wa_liveness_block_of, item)

    @property
    def loops(self):
        """Every natural Loop."""
        ctx, h = self.program.context, self._h
        out = []
        for i in range(self._q(lib.wa_liveness_loop_count)):
            lp = WaLoopInfo()
            ctx._call(lib.wa_liveness_loop, ctypes.byref(lp), h, i)
            out.append(Loop(i, lp.header, _opt(lp.parent), lp.depth, lp.num_blocks,
                            lp.num_exits))
        return out

    # ---- live ranges -------------------------------------------------------------------

    def segments(self, vreg):
        """Live segments [(start, end), ...] (inclusive program points) of a
        virtual register (an id or its Operand)."""
        n = ctypes.c_uint()
        with self.program.context._guard:
            seg = lib.wa_liveness_segments(self._h, _vreg_id(vreg), ctypes.byref(n))
            return [(seg[i].start, seg[i].end) for i in range(n.value)]

    def is_live(self, vreg, point):
        """True if the virtual register is live at program point `point`."""
        return bool(self._q(lib.wa_liveness_is_live, _vreg_id(vreg), point))

    def live_at(self, point, reg_class="vgpr"):
        """Ids of the virtual registers of a class live at `point`."""
        cls = reg_class_value(reg_class)
        with self.program.context._guard:
            n = lib.wa_liveness_live_at(None, 0, self._h, point, cls)
            out = (ctypes.c_uint * max(n, 1))()
            n = lib.wa_liveness_live_at(out, n, self._h, point, cls)
            return tuple(out[:n])

    @property
    def live_on_entry(self):
        """Virtual registers read before any definition on some path."""
        return _borrowed(self.program.context, lib.wa_liveness_live_on_entry, self._h)

    def exec_partial(self, item):
        """True if EXEC may hold fewer lanes at `item` than at kernel entry."""
        return bool(self._q(lib.wa_liveness_exec_partial, item))

    # ---- pressure ----------------------------------------------------------------------

    def pressure(self, item, reg_class="vgpr"):
        """Registers of a class needed at program item `item`."""
        return self._q(lib.wa_liveness_pressure, item, reg_class_value(reg_class))

    def max_pressure(self, reg_class="vgpr"):
        """(maximum pressure, first item where it occurs or None)."""
        at = ctypes.c_uint()
        v = self._q(lib.wa_liveness_max_pressure, reg_class_value(reg_class), ctypes.byref(at))
        return v, _opt(at.value)

    def text(self):
        """Blocks, edges, loops, live-in/out and segments as text."""
        return self.program.context._text(lib.wa_liveness_print, self._h)

    def report(self):
        """The pressure report: the listing with live register counts per item."""
        h = self._require_current(self.program)
        return self.program.context._text(lib.wa_pressure_report, self.program._h, h)

    def svg(self):
        """A standalone SVG plot of the register pressure."""
        h = self._require_current(self.program)
        return self.program.context._text(lib.wa_pressure_svg, self.program._h, h)


def _vreg_id(vreg):
    if isinstance(vreg, Operand):
        if vreg.kind != "virt":
            raise invalid(f"{vreg} is not a virtual register")
        return vreg.id
    return vreg


def _mask(regs, words, what):
    arr = (ctypes.c_uint32 * words)()
    for r in regs:
        if not 0 <= r < 32 * words:
            raise invalid(f"reserved {what} {r} out of range (0..{32 * words - 1})")
        arr[r // 32] |= 1 << (r % 32)
    return arr


def regalloc_options(max_vgprs=256, max_sgprs=102, max_agprs=256, reserved_vgprs=(),
                     reserved_sgprs=(), reserved_agprs=(), coalesce=True, holes=True,
                     check=False, liveness=None):
    """wa_regalloc_options from keyword arguments (the liveness handle, if any,
    must have been checked by the caller)."""
    flags = ((0 if coalesce else _NO_COALESCE) | (0 if holes else _NO_HOLES)
             | (_CHECK if check else 0))
    return WaRegallocOptions(
        2, max_vgprs, max_sgprs, max_agprs, _mask(reserved_vgprs, 8, "VGPR"),
        _mask(reserved_sgprs, 4, "SGPR"), _mask(reserved_agprs, 8, "AGPR"), flags,
        liveness)


class RegallocResult(Handle):
    """An allocation of a program's virtual registers (by the library, or made
    by the host with `Program.new_allocation` and `assign`). The program is not
    changed until `apply()`."""

    _kind = "RegallocResult"

    def _init(self, program, ptr):
        self.program = program
        self._own(ptr, program.context._guard, lib.wa_regalloc_destroy, (program,))
        return self

    @property
    def stats(self):
        """RegallocStats of this result."""
        s = WaRegallocStats()
        self.program.context._call(lib.wa_regalloc_get_stats, ctypes.byref(s), self._h)
        return RegallocStats.from_c(s)

    def lookup(self, vreg):
        """The physical registers (Operand) of a virtual register (id or
        Operand), or None if it has none."""
        out = WaOperand()
        ctx = self.program.context
        with ctx._guard:
            st = lib.wa_regalloc_lookup(ctypes.byref(out), self._h, _vreg_id(vreg))
            if st == errors.E_NOT_FOUND:
                return None
            if st != errors.OK:
                raise ctx._error(st)
        return Operand._from_c(out)

    @property
    def mapping(self):
        """{virtual register id: physical Operand} for every allocated register."""
        out = {}
        for v in range(self.program.vreg_count):
            phys = self.lookup(v)
            if phys is not None:
                out[v] = phys
        return out

    def assign(self, vreg, reg):
        """Gives a virtual register the registers reg .. reg+size-1 of its class
        (None: none)."""
        self.program.context._call(lib.wa_regalloc_assign, self._h, _vreg_id(vreg),
                                   NONE if reg is None else reg)

    def check(self, **limits):
        """Runs the independent checker (limits as for Program.regalloc);
        ValidationError with one diagnostic per violation."""
        opts = regalloc_options(**limits)
        n = ctypes.c_uint()
        self.program.context._call(lib.wa_regalloc_check, ctypes.byref(n), self.program._h,
                                   self._h, ctypes.byref(opts))

    def apply(self):
        """Rewrites the program to physical registers; returns the number of
        moves that became self-moves and were deleted."""
        n = ctypes.c_uint()
        self.program._edit(lib.wa_regalloc_apply, self._h, ctypes.byref(n))
        return n.value
