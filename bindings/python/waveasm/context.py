"""The context, and the ownership rules every library object follows.

A library object (context, program, liveness, allocation result, pipeline,
simulator) is released exactly once: by `close()`, at the end of a `with`
block, or when Python collects it. An object keeps what it was made from alive
(a program its context, a liveness result its program), so the library never
sees a child outlive its parent; closing a parent closes its children first.

Calls on one context are serialised by a lock, so a context may be shared
between threads (one runs at a time); separate contexts run in parallel, since
ctypes releases the GIL during library calls.
"""

import collections
import contextlib
import ctypes
import itertools
import threading
import weakref

from . import errors
from ._lib import (
    LOG_FN, REALLOC_FN, WaContextOptions, WaDisasmOptions, lib, pystr, take_buffer,
)

# Live handles per type name: what tests use to prove that nothing leaks.
_live = collections.Counter()
_live_lock = threading.Lock()


def live_handles():
    """{type name: number of library objects not yet released}."""
    with _live_lock:
        return {k: v for k, v in _live.items() if v}


class _Guard:
    """The lock of one context, and the destroys that had to wait for it.

    A finalizer can run at any point of any thread (garbage collection); it
    must not destroy an object while a call on the same context is under way,
    nor wait for the lock (which could deadlock), so it leaves the destroy to
    whoever holds the lock."""

    def __init__(self):
        self._lock = threading.RLock()
        self._depth = 0
        self._pending = collections.deque()

    def __enter__(self):
        self._lock.acquire()
        self._depth += 1
        return self

    def __exit__(self, *exc):
        self._depth -= 1
        try:
            if self._depth == 0:
                self._drain()
        finally:
            self._lock.release()

    def _drain(self):
        while self._pending:
            fn, ptr, kind = self._pending.popleft()
            _destroy(fn, ptr, kind)

    def release(self, fn, ptr, kind):
        """Destroys `ptr` with `fn` now if no call is under way, else when the
        running call ends (at the latest with the next call on the context, or
        its release)."""
        self._pending.append((fn, ptr, kind))
        self._drain_if_idle()

    def _drain_if_idle(self):
        if self._lock.acquire(blocking=False):
            try:
                if self._depth == 0:
                    self._drain()
            finally:
                self._lock.release()


def _destroy(fn, ptr, kind):
    fn(ptr)
    with _live_lock:
        _live[kind] -= 1


def _release(guard, fn, ptr, kind, _parents):
    # `_parents` is only held: the finalizer keeps the parent objects alive
    # until this object has been destroyed.
    guard.release(fn, ptr, kind)


def _release_context(guard, ptr, _callbacks):
    with guard:
        guard._drain()
        _destroy(lib.wa_context_destroy, ptr, "Context")


class Handle:
    """Base of every object that owns a library handle."""

    _kind = "Handle"

    def _own(self, ptr, guard, destroy, parents):
        """Takes ownership of `ptr` (destroyed with `destroy`); `parents` are
        kept alive until then. `guard` is the lock of the object's context."""
        self._ptr = ptr
        self._guard = guard
        self._children = weakref.WeakValueDictionary()
        self._child_keys = itertools.count()
        with _live_lock:
            _live[self._kind] += 1
        self._finalizer = weakref.finalize(self, _release, guard, destroy, ptr, self._kind,
                                           parents)
        with guard:
            for p in parents:
                p._children[next(p._child_keys)] = self

    @property
    def _h(self):
        """The handle; ValueError once closed."""
        if not self._finalizer.alive:
            raise ValueError(f"{type(self).__name__} is closed")
        return self._ptr

    @property
    def closed(self):
        """True once the object has been released."""
        return not self._finalizer.alive

    def close(self):
        """Releases the library object (and first every object made from it).
        Further calls do nothing. Inside a library call on the same context
        (a Python pipeline stage) the release waits for the end of that call."""
        with self._guard:
            for child in reversed(list(self._children.values())):
                child.close()
            self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@contextlib.contextmanager
def locked(*contexts):
    """Holds the locks of several contexts (each once, in a fixed order)."""
    with contextlib.ExitStack() as stack:
        for guard in sorted({id(c._guard): c._guard for c in contexts}.items()):
            stack.enter_context(guard[1])
        yield


class Context(Handle):
    """A library context: default target, diagnostics, optional log and memory
    accounting. Every program belongs to one.

    `target`: "gfx942" (default), "gfx950" or "gfx90a". `xnack`, `sramecc`: the
    target features, "any" (default), "on" or "off" (as in "gfx942:xnack-").
    `log`: a callable that receives each log line (WAVE_DEBUG_* switches write
    there). `track_memory`: count the library's allocations (`live_allocations`,
    `live_bytes`), slower."""

    _kind = "Context"

    def __init__(self, target="gfx942", *, wave_size=64, log=None, track_memory=False,
                 xnack="any", sramecc="any"):
        features = {"any": 0, "off": 1, "on": 2}
        for name, value in (("xnack", xnack), ("sramecc", sramecc)):
            if value not in features:
                raise invalid(f"{name} must be 'any', 'on' or 'off', not {value!r}")
        opts = WaContextOptions(2, target_value(target), wave_size)
        opts.xnack = features[xnack]
        opts.sramecc = features[sramecc]
        callbacks = []
        if log is not None:
            def log_line(line, _user):
                log(pystr(line))
            opts.log_fn = LOG_FN(log_line)
            callbacks.append(opts.log_fn)
        self._blocks = None
        if track_memory:
            self._blocks = {}
            opts.realloc_fn = REALLOC_FN(self._make_realloc())
            callbacks.append(opts.realloc_fn)
        out = ctypes.c_void_p()
        st = lib.wa_context_create(ctypes.byref(out), ctypes.byref(opts))
        if st != errors.OK:
            # No context exists to hold a message: say what was asked for.
            raise errors.error_for(st, [errors.Diagnostic(
                "error", st, f"cannot create a context for target {target!r}, "
                f"wave size {wave_size}")])
        self._guard = _Guard()
        self._callbacks = callbacks
        self._ptr = out.value
        self._children = weakref.WeakValueDictionary()
        self._child_keys = itertools.count()
        with _live_lock:
            _live["Context"] += 1
        # The callbacks must outlive the context: it frees memory through them.
        self._finalizer = weakref.finalize(self, _release_context, self._guard, out.value,
                                           callbacks)

    def close(self):
        """Releases the context and first every object made from it."""
        with self._guard:
            if self._guard._depth > 1:
                raise RuntimeError("a context cannot be closed during a call on it")
            super().close()

    def _make_realloc(self):
        libc = ctypes.CDLL(None)
        libc.realloc.restype = ctypes.c_void_p
        libc.realloc.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]
        blocks = self._blocks

        def realloc(ptr, size, _user):
            if size == 0:
                blocks.pop(ptr, None)
                libc.free(ptr)
                return None
            new = libc.realloc(ptr, size)
            if new:
                blocks.pop(ptr, None)
                blocks[new] = size
            return new
        return realloc

    # ---- calls -------------------------------------------------------------------------

    def _call(self, fn, *args):
        """Calls a wa_status function under the lock; raises on failure."""
        with self._guard:
            st = fn(*args)
            if st != errors.OK:
                raise self._error(st)
            return st

    def _query(self, fn, *args):
        """Calls a function that returns a value (no status) under the lock."""
        with self._guard:
            return fn(*args)

    def _text(self, fn, *args):
        """Calls fn(char **out, size_t *len, *args) and returns the text it
        handed over (released with wa_free)."""
        buf, n = ctypes.POINTER(ctypes.c_char)(), ctypes.c_size_t()
        with self._guard:
            self._call(fn, ctypes.byref(buf), ctypes.byref(n), *args)
            return take_buffer(buf, n.value)

    def _error(self, status):
        """The exception for `status`, with the diagnostics the call left."""
        last = lib.wa_context_last_diag(self._h)
        primary = errors.Diagnostic._from_c(last.contents) if last else None
        return errors.error_for(status, self._diagnostics(), primary)

    def _diagnostics(self):
        h = self._h
        out = []
        for i in range(lib.wa_context_diag_count(h)):
            d = lib.wa_context_diag(h, i)
            if d:
                out.append(errors.Diagnostic._from_c(d.contents))
        return tuple(out)

    # ---- public ------------------------------------------------------------------------

    def disassemble(self, code, target=None, *, offsets=False):
        """Text of machine code made by Program.encode (the IR's syntax, wa_<offset>
        labels at branch targets; offsets=True adds each instruction's byte offset)."""
        code = bytes(code)
        opts = WaDisasmOptions(1, 0x1 if offsets else 0)
        t = target_value(target or self.target)
        return self._text(lib.wa_disassemble, self._h, code, len(code), t, ctypes.byref(opts))

    @property
    def target(self):
        """The default target of new programs ("gfx942", ...)."""
        return target_name(self._query(lib.wa_context_target, self._h))

    @property
    def xnack(self):
        """The XNACK setting: "any", "off" or "on"."""
        return ("any", "off", "on")[self._query(lib.wa_context_xnack, self._h)]

    @property
    def sramecc(self):
        """The SRAMECC setting: "any", "off" or "on"."""
        return ("any", "off", "on")[self._query(lib.wa_context_sramecc, self._h)]

    @property
    def diagnostics(self):
        """Diagnostics of the last library call on this context (warnings of a
        call that succeeded, or what a failed call reported)."""
        with self._guard:
            return self._diagnostics()

    def clear_diagnostics(self):
        """Forgets the diagnostics of the last call."""
        self._query(lib.wa_context_clear_diags, self._h)

    def trim(self):
        """Releases the temporary blocks the context keeps between operations."""
        self._query(lib.wa_context_trim, self._h)

    @property
    def live_allocations(self):
        """Library allocations not yet freed (track_memory=True), else None."""
        return None if self._blocks is None else len(self._blocks)

    @property
    def live_bytes(self):
        """Bytes of the library allocations not yet freed (track_memory=True), else None."""
        return None if self._blocks is None else sum(self._blocks.values())

    def program(self, name):
        """A new empty kernel named `name` (see Program)."""
        from .program import Program
        return Program(name, context=self)

    def parse(self, text, file_name=None):
        """Parses one kernel in the text form; ParseError with file:line:col."""
        from .program import Program
        return Program.parse(text, file_name=file_name, context=self)

    def parse_asm(self, text, index=0, file_name=None):
        """Imports kernel `index` of AMDGPU assembly as LLVM writes it (see
        Program.parse_asm)."""
        from .program import Program
        return Program.parse_asm(text, index=index, file_name=file_name, context=self)

    def parse_file(self, path):
        """Reads and parses a .wa file; FileError if it cannot be read."""
        from .program import Program
        return Program.parse_file(path, context=self)

    def pipeline(self, **options):
        """A pipeline with every stage enabled (see Pipeline)."""
        from .passes import Pipeline
        return Pipeline(self, **options)

    def __repr__(self):
        state = "closed" if self.closed else self.target
        return f"<waveasm.Context {state}>"


# ---- targets -------------------------------------------------------------------------------

def _target_names():
    out = {}
    t = 1  # 0 is WA_TARGET_UNKNOWN
    while (n := lib.wa_target_name(t)) is not None:
        out[n.decode()] = t
        t += 1
    return out


TARGET_VALUES = _target_names()
TARGETS = tuple(TARGET_VALUES)


def invalid(message):
    """An InvalidArgumentError for an argument the binding itself rejects."""
    return errors.InvalidArgumentError(
        errors.E_INVALID, [errors.Diagnostic("error", errors.E_INVALID, message)])


def target_value(target):
    """"gfx942" -> the wa_target number."""
    if isinstance(target, str) and target in TARGET_VALUES:
        return TARGET_VALUES[target]
    raise invalid(f"unknown target {target!r} (known: {', '.join(TARGETS)})")


def target_name(value):
    """The wa_target number -> "gfx942"."""
    return pystr(lib.wa_target_name(value))
