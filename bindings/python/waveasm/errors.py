"""Exceptions and diagnostics.

Every library call that fails raises a `WaveasmError` subclass chosen by its
status. The exception carries the status, the message of the most important
diagnostic, its location (file, line, column, instruction tag) and every
diagnostic the call recorded.
"""

from dataclasses import dataclass

from ._lib import lib, pystr

NO_TAG = 0xFFFFFFFF
SEVERITIES = ("error", "warning", "note")

# wa_status values (common.h).
OK = 0
E_INVALID = -1
E_PARSE = -2
E_VALIDATE = -3
E_UNSUPPORTED = -4
E_NOMEM = -5
E_NOT_FOUND = -6
E_RANGE = -7
E_IO = -8
E_ALLOC = -9
E_INTERNAL = -10
E_SIM_FAULT = -11
E_SIM_WAIT = -12
E_SIM_HAZARD = -13
E_SIM_LIMIT = -14


def status_string(status):
    """The library's description of a status ("invalid argument", ...)."""
    return pystr(lib.wa_status_string(status))


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic: severity ("error", "warning", "note"), status (0 for
    warnings and notes), message, and where known the source file, 1-based line
    and column, and the instruction tag."""

    severity: str
    status: int
    message: str
    file: str = ""
    line: int = 0
    col: int = 0
    tag: int | None = None

    @classmethod
    def _from_c(cls, d):
        return cls(SEVERITIES[d.severity] if 0 <= d.severity < 3 else str(d.severity),
                   d.status, pystr(d.message) or "", pystr(d.file) or "", d.line, d.col,
                   None if d.tag == NO_TAG else d.tag)

    @property
    def location(self):
        """"file:line:col" (the parts that are known), or ""."""
        parts = [self.file] if self.file else []
        if self.line:
            parts += [str(self.line), str(self.col)]
        return ":".join(parts)

    def __str__(self):
        # Same layout as wa_context_last_error: "k.wa:12:3: error: message [I7]".
        loc = self.location
        text = f"{loc}: " if loc else ""
        text += f"{self.severity}: {self.message}"
        if self.tag is not None:
            text += f" [I{self.tag}]"
        return text


class WaveasmError(Exception):
    """A library call failed.

    Attributes: `status` (the wa_status number), `status_name`, `message`,
    `diagnostics` (every diagnostic of the call), and the location of the main
    diagnostic: `file`, `line`, `col`, `tag` (None when unknown)."""

    def __init__(self, status, diagnostics=(), primary=None):
        self.status = status
        self.status_name = status_string(status)
        self.diagnostics = tuple(diagnostics)
        if primary is None and self.diagnostics:
            errors = [d for d in self.diagnostics if d.severity == "error"]
            primary = (errors or self.diagnostics)[-1]
        self.diagnostic = primary
        self.message = primary.message if primary else self.status_name
        self.file = primary.file if primary else ""
        self.line = primary.line if primary else 0
        self.col = primary.col if primary else 0
        self.tag = primary.tag if primary else None
        text = str(primary) if primary else f"error: {self.status_name}"
        others = len(self.diagnostics) - 1
        if others > 0:
            text += f" (and {others} more diagnostic{'s' if others > 1 else ''})"
        super().__init__(text)

    @property
    def location(self):
        """"file:line:col" of the main diagnostic, or ""."""
        return self.diagnostic.location if self.diagnostic else ""


class InvalidArgumentError(WaveasmError, ValueError):
    """WA_E_INVALID: bad argument or option."""


class ParseError(WaveasmError):
    """WA_E_PARSE: malformed text input."""


class ValidationError(WaveasmError):
    """WA_E_VALIDATE: the program violates an IR or target rule (also raised
    by the checkers)."""


class UnsupportedError(WaveasmError):
    """WA_E_UNSUPPORTED: a valid request the target or build cannot honour."""


class OutOfMemoryError(WaveasmError, MemoryError):
    """WA_E_NOMEM."""


class NotFoundError(WaveasmError, LookupError):
    """WA_E_NOT_FOUND: unknown name, tag or index."""


class RangeError(WaveasmError, ValueError):
    """WA_E_RANGE: a number outside the allowed range."""


class FileError(WaveasmError, OSError):
    """WA_E_IO: a file could not be read or written."""


class AllocationError(WaveasmError):
    """WA_E_ALLOC: register allocation impossible within the limits; the
    diagnostics name the value, what overlaps it and the pool."""


class InternalError(WaveasmError):
    """WA_E_INTERNAL: a library bug."""


class SimulationError(WaveasmError):
    """A simulated kernel went wrong (the subclasses say how)."""


class SimFaultError(SimulationError):
    """WA_E_SIM_FAULT: a memory access outside what the kernel may touch."""


class SimWaitError(SimulationError):
    """WA_E_SIM_WAIT: a missing s_waitcnt (data used while in flight)."""


class SimHazardError(SimulationError):
    """WA_E_SIM_HAZARD: too few wait states between two instructions."""


class SimLimitError(SimulationError):
    """WA_E_SIM_LIMIT: the instruction limit was reached (endless loop?)."""


ERROR_CLASSES = {
    E_INVALID: InvalidArgumentError, E_PARSE: ParseError, E_VALIDATE: ValidationError,
    E_UNSUPPORTED: UnsupportedError, E_NOMEM: OutOfMemoryError, E_NOT_FOUND: NotFoundError,
    E_RANGE: RangeError, E_IO: FileError, E_ALLOC: AllocationError, E_INTERNAL: InternalError,
    E_SIM_FAULT: SimFaultError, E_SIM_WAIT: SimWaitError, E_SIM_HAZARD: SimHazardError,
    E_SIM_LIMIT: SimLimitError,
}


def error_for(status, diagnostics=(), primary=None):
    """The exception for a failed call's status."""
    return ERROR_CLASSES.get(status, WaveasmError)(status, diagnostics, primary)
