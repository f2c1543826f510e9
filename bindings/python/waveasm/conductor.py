"""The Conductor: scheduling by move commands on tagged IR (conductor.h,
docs/conductor.md).

    conductor = Conductor(program)            # a program with virtual registers
    print(conductor.prompt())                 # what an oracle reads
    rnd = conductor.apply("move I8 after I2") # checked, all or nothing
    result = conductor.run(oracle, rounds=4)  # oracle(prompt) -> commands or None

`OpenAIOracle` asks an OpenAI-compatible chat completions endpoint (urllib
only); `heuristic()` gives the built-in list scheduler's commands.
"""

import ctypes
import dataclasses
import json
import urllib.request

from . import errors
from ._lib import (
    SCHED_AGENT_ORACLE, SCHED_ORACLE, WaSchedBeamOptions, SCHED_PROGRESS, WaSchedMetrics, WaSchedRegion, WaSchedResult, WaSchedRound,
    WaSchedRunOptions, WaScheduleOptions, WaSchedWarning, cstr, lib, pystr, record_type,
)
from .context import Handle, invalid

SEVERITIES = ("info", "warn", "critical")
CRITERIA = ("none", "cycles", "waits", "nops", "vgprs", "sgprs", "agprs", "instrs", "critical")
LATENCY_CLASSES = ("other", "salu", "valu", "trans", "smem", "vmem", "ds", "mfma", "branch")

Metrics = record_type(
    "Metrics", WaSchedMetrics,
    """What compiling a clone of the schedule gives: peak_vgprs, peak_sgprs,
    peak_agprs, waves_per_simd, nops_inserted, waits_inserted, instrs, cycles
    (estimated; loop bodies weighted 10 per level) and critical_path.""")

Region = record_type(
    "Region", WaSchedRegion,
    """A schedulable region (basic block): first/last item, instrs, movable,
    loop_depth.""")

Result = record_type(
    "Result", WaSchedResult,
    """The round loop: rounds, kept, failed, regressed, baseline and best
    Metrics, cache_hit.""", nested={"baseline": Metrics, "best": Metrics})


@dataclasses.dataclass(frozen=True)
class Warning_:
    """A valid but risky move: severity ("info", "warn", "critical"), the index
    of its command in the round, and the message."""
    severity: str
    command: int
    message: str


@dataclasses.dataclass(frozen=True)
class Round:
    """One round of commands: how many were parsed and applied, the index of the
    failing one (None if none), whether `done` was given, the warnings, the
    report text and, when the round failed, the error."""
    commands: int
    applied: int
    failed: object
    done: bool
    warnings: tuple
    report: str
    error: object = None


def sha256_hex(data):
    """SHA-256 of bytes (or str, as UTF-8) with the library's implementation."""
    raw = data.encode() if isinstance(data, str) else bytes(data)
    out = ctypes.create_string_buffer(65)
    lib.wa_sha256_hex(out, raw, len(raw))
    return out.value.decode()


def sha256(data):
    """The 32 bytes of SHA-256 of bytes (or str)."""
    raw = data.encode() if isinstance(data, str) else bytes(data)
    out = (ctypes.c_uint8 * 32)()
    lib.wa_sha256(out, raw, len(raw))
    return bytes(out)


def schedule_options(memory_warn=False, verify=False, latency=None, address_distance=0,
                     min_waves=0, order=None):
    """wa_schedule_options: `memory_warn` makes may-alias memory reorders
    warnings; `verify` runs the checkers when measuring; `latency` maps latency
    classes ("vmem", "ds", ...) to cycles; `order` lists criteria ("cycles",
    "waits", ...)."""
    opts = WaScheduleOptions()
    opts.version = 1
    opts.flags = (0x1 if memory_warn else 0) | (0x2 if verify else 0)
    for name, cycles in (latency or {}).items():
        if name not in LATENCY_CLASSES:
            raise invalid(f"unknown latency class {name!r} ({', '.join(LATENCY_CLASSES)})")
        opts.latency[LATENCY_CLASSES.index(name)] = cycles
    opts.address_distance = address_distance
    opts.min_waves = min_waves
    for k, name in enumerate(order or ()):
        if name not in CRITERIA[1:]:
            raise invalid(f"unknown criterion {name!r} ({', '.join(CRITERIA[1:])})")
        opts.order[k] = CRITERIA.index(name)
    return opts


class Conductor(Handle):
    """A schedule over `program` (edited in place while the Conductor lives)."""

    _kind = "Conductor"

    def __init__(self, program, **options):
        self._opts = schedule_options(**options)
        self.program = program
        self.context = program.context
        out = ctypes.c_void_p()
        program._edit_with(lib.wa_schedule_create, ctypes.byref(out), program._h,
                           ctypes.byref(self._opts))
        self._own(out.value, self.context._guard, lib.wa_schedule_destroy, (program,))
        if lib.wa_schedule_program(self._h) != program._ptr:
            raise errors.InternalError("the schedule names another program")

    def regions(self):
        """The schedulable regions (basic blocks with two or more movable
        instructions), as Region records."""
        out = []
        for i in range(lib.wa_schedule_region_count(self._h)):
            r = WaSchedRegion()
            self.context._call(lib.wa_schedule_region, ctypes.byref(r), self._h, i)
            out.append(Region.from_c(r))
        return out

    def measure(self):
        """Compiles a clone of the current state; returns Metrics."""
        m = WaSchedMetrics()
        self.context._call(lib.wa_schedule_measure, ctypes.byref(m), self._h)
        return Metrics.from_c(m)

    def region_cycles(self, index):
        """Estimated cycles of a region in the last measurement."""
        return lib.wa_schedule_region_cycles(self._h, index)

    def better(self, a, b):
        """True if Metrics `a` are strictly better than `b` under the options."""
        ca, cb = WaSchedMetrics(), WaSchedMetrics()
        for c, m in ((ca, a), (cb, b)):
            c.version = 1
            for f in dataclasses.fields(m):
                setattr(c, f.name, getattr(m, f.name))
        return bool(lib.wa_sched_metrics_better(self._h, ctypes.byref(ca), ctypes.byref(cb)))

    def prompt(self, metrics=None):
        """The tagged regions with the header (and Metrics, if given) and the
        report of the last round."""
        m = None
        if metrics is not None:
            m = WaSchedMetrics(1, *(getattr(metrics, f.name) for f in dataclasses.fields(metrics)))
        return self.context._text(lib.wa_schedule_print, self._h,
                                  ctypes.byref(m) if m is not None else None)

    def set_profile(self, csv):
        """Per-instruction figures for the prompt (CSV with a `tag` column and
        any of hits, lat_min, lat_mean, lat_max); "" removes them."""
        data = csv.encode()
        self.context._call(lib.wa_schedule_set_profile, self._h, data, len(data))

    def report(self):
        """The report of the last round."""
        return pystr(lib.wa_schedule_report(self._h)) or ""

    def _warnings(self, count):
        out = []
        for i in range(count):
            w = WaSchedWarning()
            if lib.wa_schedule_warning(ctypes.byref(w), self._h, i) == errors.OK:
                out.append(Warning_(SEVERITIES[w.severity], w.command, pystr(w.message)))
        return tuple(out)

    def apply(self, commands):
        """Applies one round of commands. An invalid command reverts the round:
        the Round says which failed and why (`error`); bad text raises
        ParseError (line:col)."""
        data = commands.encode()
        r = WaSchedRound()
        err = None
        try:
            self.program._edit_with(lib.wa_schedule_apply, ctypes.byref(r), self._h, data,
                                    len(data))
        except errors.ParseError:
            raise
        except errors.InvalidArgumentError as e:
            err = e
        return Round(r.commands, r.applied, r.failed if r.failed >= 0 else None, bool(r.done),
                     self._warnings(r.warnings), self.report(), err)

    def heuristic(self):
        """The built-in list scheduler's move commands for the current state."""
        return self.context._text(lib.wa_schedule_heuristic, self._h)

    def run_heuristic(self, rounds=2):
        """The round loop with the list scheduler; returns Result."""
        res = WaSchedResult()
        self.program._edit_with(lib.wa_schedule_run_heuristic, ctypes.byref(res), self._h, rounds)
        return Result.from_c(res)

    def run(self, oracle, rounds=8, progress=None, cache=False, cache_dir=None):
        """The round loop: `oracle(prompt)` returns command text or None (stop);
        `progress(round, commands, metrics, kept)` sees every round. With
        `cache`, final moves are kept and replayed (docs/conductor.md).
        Returns Result; the program is left in the best state."""
        keep = []  # the answers must outlive the call that returns them
        failure = []

        def call_oracle(prompt, _payload):
            try:
                text = oracle(pystr(prompt))
            except BaseException as e:  # noqa: B036 -- re-raised after the loop
                failure.append(e)
                return None
            if text is None:
                return None
            buf = ctypes.create_string_buffer(str(text).encode())
            keep[:] = [buf]
            return ctypes.addressof(buf)

        def call_progress(number, rnd, metrics, kept, _payload):
            try:
                progress(number, rnd.contents.commands, Metrics.from_c(metrics.contents),
                         bool(kept))
            except BaseException as e:  # noqa: B036
                failure.append(e)

        oracle_fn = SCHED_ORACLE(call_oracle)
        progress_fn = SCHED_PROGRESS(call_progress) if progress else SCHED_PROGRESS()
        ro = WaSchedRunOptions(1, rounds, progress_fn, None, 0x1 if cache else 0,
                               cstr(cache_dir))
        res = WaSchedResult()
        self.program._edit_with(lib.wa_schedule_run, ctypes.byref(res), self._h, oracle_fn, None,
                                ctypes.byref(ro))
        if failure:
            raise failure[0]
        return Result.from_c(res)


def _beam(conductor, oracle, agents, interval, keep, checkpoints, seed):
    keep_alive = {}
    failure = []

    def call(prompt, agent, agent_seed, _payload):
        try:
            text = oracle(pystr(prompt), agent, agent_seed)
        except BaseException as e:  # noqa: B036 -- re-raised after the search
            failure.append(e)
            return None
        if text is None:
            return None
        buf = ctypes.create_string_buffer(str(text).encode())
        keep_alive[agent] = buf
        return ctypes.addressof(buf)

    fn = SCHED_AGENT_ORACLE(call)
    bo = WaSchedBeamOptions(1, agents, interval, keep, checkpoints, seed)
    res = WaSchedResult()
    conductor.program._edit_with(lib.wa_schedule_beam, ctypes.byref(res), conductor._h, fn,
                                 None, ctypes.byref(bo))
    if failure:
        raise failure[0]
    return Result.from_c(res)


Conductor.beam = lambda self, oracle, agents=4, interval=2, keep=2, checkpoints=3, seed=0: \
    _beam(self, oracle, agents, interval, keep, checkpoints, seed)
Conductor.beam.__doc__ = """Beam search: `oracle(prompt, agent, seed)` for `agents` agents,
`interval` rounds between checkpoints, the best `keep` surviving each of the
`checkpoints`; deterministic for a seed. Returns Result."""


class OpenAIOracle:
    """An oracle that asks an OpenAI-compatible chat completions endpoint
    (`base_url` + "/chat/completions") with urllib: the prompt is the user
    message, the answer's text the commands. `done` stops after `max_calls`."""

    SYSTEM = ("You schedule AMDGCN instructions. Answer only with commands, one per line: "
              "move Ix after Iy, move Ix before Iy, swap Ix Iy, done.")

    def __init__(self, base_url, model, api_key=None, system=None, timeout=60.0,
                 temperature=0.0, max_calls=None):
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key = api_key
        self.system = system or self.SYSTEM
        self.timeout = timeout
        self.temperature = temperature
        self.max_calls = max_calls
        self.calls = 0

    def __call__(self, prompt):
        if self.max_calls is not None and self.calls >= self.max_calls:
            return None
        self.calls += 1
        body = json.dumps({
            "model": self.model,
            "temperature": self.temperature,
            "messages": [{"role": "system", "content": self.system},
                         {"role": "user", "content": prompt}],
        }).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        req = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:
            answer = json.loads(resp.read().decode())
        return answer["choices"][0]["message"]["content"]
