"""Passes, checkers and the pipeline (passes.h).

Each pass is also a Program method (`pass_waitcnt`, `pass_hazards`,
`pass_peephole`, `pass_cse`, `check_waitcnt`, `check_hazards`, `run_stage`,
`compile`); this module builds their option structs and holds `Pipeline`.
"""

import ctypes
import dataclasses
import weakref

from . import errors
from ._lib import (
    STAGE_FN, WaCseOptions, WaFlagsOptions, WaPassStats, WaPipelineOptions, WaStageStats, lib,
    names,
    record_type,
)
from .analysis import regalloc_options
from .context import Handle, invalid

STAGES = names(lib.wa_stage_name)

PassStats = record_type(
    "PassStats", WaPassStats,
    """What a pass did: instrs_before/instrs_after (real instructions), inserted,
    removed, changed, waitcnts_inserted, waitcnts_merged, nops_inserted,
    nop_wait_states, fused, folded, moves_removed, acc_inits_removed, eliminated,
    hoisted, iterations (fields a pass does not use are 0).""")

_PASS_STAT_FIELDS = frozenset(f.name for f in dataclasses.fields(PassStats))

StageStats = record_type(
    "StageStats", WaStageStats,
    """A pipeline stage in the last run: ran, seconds, instrs (after it),
    peak_vgprs/peak_sgprs/peak_agprs (once physical), and the stage's PassStats
    in `pass_stats`.""",
    rename={"pass_": "pass_stats"}, nested={"pass_": PassStats})


def _flags(version_flags):
    return WaFlagsOptions(1, version_flags)


def waitcnt_options(barrier_vmem=False, barrier=True):
    """Options of the waitcnt pass and checker: `barrier_vmem` also waits for
    vector memory before s_barrier; `barrier=False` adds no waits for barriers."""
    return _flags((0x1 if barrier_vmem else 0) | (0 if barrier else 0x2))


def hazard_options():
    """Options of the hazard pass and checker (none yet)."""
    return _flags(0)


def peephole_options(fuse=True, fold=True, moves=True, acc_init=True, dead=True):
    """Options of the peephole pass: each rewrite family can be turned off."""
    return _flags((0 if fuse else 0x1) | (0 if fold else 0x2) | (0 if moves else 0x4)
                  | (0 if acc_init else 0x8) | (0 if dead else 0x10))


def cse_options(hoist=True, max_vgprs=0, max_sgprs=0, max_agprs=0):
    """Options of CSE: `hoist=False` keeps loop invariants in their loop; the
    limits (0: the allocator's defaults) bound the pressure hoisting may add."""
    return WaCseOptions(2, 0 if hoist else 0x1, max_vgprs, max_sgprs, max_agprs)


def virtualize_options(keep_waits=False, keep_nops=False):
    """Options of the virtualize pass: keep the s_waitcnt or s_nop instructions."""
    return _flags((0x1 if keep_waits else 0) | (0x2 if keep_nops else 0))


_STAGE_OPTIONS = {"cse": cse_options, "peephole": peephole_options,
                  "regalloc": regalloc_options, "waitcnt": waitcnt_options,
                  "hazards": hazard_options}


def pipeline_options(verify=False, schedule=False, schedule_rounds=0, **stages):
    """wa_pipeline_options: `verify` validates and runs the checkers after every
    stage; `schedule` runs the Conductor's list scheduler before regalloc (an
    inserted stage named "schedule"); `cse=`, `peephole=`, `regalloc=`,
    `waitcnt=`, `hazards=` take dicts of that stage's options. Returns the
    struct (it keeps the stage structs alive)."""
    opts = WaPipelineOptions(2, (0x1 if verify else 0) | (0x4 if schedule else 0))
    opts.schedule_rounds = schedule_rounds
    for stage, kwargs in stages.items():
        if stage not in _STAGE_OPTIONS:
            raise TypeError(f"unknown pipeline option {stage!r}")
        if kwargs is None:
            continue
        if "liveness" in kwargs:
            raise invalid("a pipeline computes its own liveness")
        setattr(opts, stage, ctypes.pointer(_STAGE_OPTIONS[stage](**kwargs)))
    return opts


def stage_value(stage):
    """"cse" (or its number) -> wa_stage."""
    if isinstance(stage, str) and stage in STAGES:
        return STAGES.index(stage)
    if isinstance(stage, int) and not isinstance(stage, bool) and 0 <= stage < len(STAGES):
        return stage
    raise invalid(f"unknown stage {stage!r} ({', '.join(STAGES)})")


def run_pass(program, fn, opts):
    """Runs wa_pass_* on `program`; returns PassStats."""
    stats = WaPassStats()
    program._edit(fn, ctypes.byref(opts), ctypes.byref(stats))
    return PassStats.from_c(stats)


def run_check(program, fn, opts):
    """Runs wa_check_*; ValidationError with one diagnostic per violation."""
    n = ctypes.c_uint()
    program.context._call(fn, ctypes.byref(n), program._h, ctypes.byref(opts))


class Pipeline(Handle):
    """The default pipeline (cse, peephole, regalloc, waitcnt, hazards) whose
    stages can be disabled or replaced by Python functions.

    Options as for `pipeline_options`. `run(program)` returns {stage name:
    StageStats}; `stats()` gives them again."""

    _kind = "Pipeline"

    def __init__(self, context, **options):
        opts = pipeline_options(**options)
        out = ctypes.c_void_p()
        context._call(lib.wa_pipeline_create, ctypes.byref(out), context._h,
                      ctypes.byref(opts))
        self.context = context
        self._hooks = {}       # stage -> ctypes callback (must outlive its use)
        self._running = None   # the Program being run, for the callbacks
        self._hook_error = None
        self._own(out.value, context._guard, lib.wa_pipeline_destroy, (context,))

    def enable(self, stage, enabled=True):
        """Turns a stage on or off."""
        self.context._call(lib.wa_pipeline_enable, self._h, stage_value(stage),
                           1 if enabled else 0)

    def disable(self, stage):
        """Turns a stage off."""
        self.enable(stage, False)

    def replace(self, stage, fn):
        """Runs `fn(program)` instead of the library's stage (None restores it).
        `fn` edits the program in place and may return a dict of PassStats
        fields; an exception it raises stops the run and is re-raised by run()."""
        s = stage_value(stage)
        hook = None
        if fn is not None:
            me = weakref.ref(self)  # the pipeline holds the hook: no cycle back
            hook = STAGE_FN(lambda prog, stats, _payload: me()._call_hook(fn, prog, stats))
        self.context._call(lib.wa_pipeline_replace, self._h, s, hook or STAGE_FN(), None)
        self._hooks[s] = hook

    def insert(self, where, fn, *, after=True, name=None):
        """Runs `fn(program)` just after (or before) the library stage `where`,
        enabled or not; `fn` as for replace(). `fn="schedule"` inserts the
        Conductor's list scheduler (wa_stage_schedule)."""
        s = stage_value(where)
        if fn == "schedule":
            hook = ctypes.cast(lib.wa_stage_schedule, STAGE_FN)
            name = name or "schedule"
        else:
            me = weakref.ref(self)
            hook = STAGE_FN(lambda prog, stats, _payload: me()._call_hook(fn, prog, stats))
            name = name or getattr(fn, "__name__", "stage")
        self.context._call(lib.wa_pipeline_insert, self._h, s, 1 if after else 0,
                           name.encode(), hook, None)
        self._hooks[("inserted", lib.wa_pipeline_inserted_count(self._h))] = hook

    def inserted_stats(self):
        """[(name, StageStats)] of the inserted stages in the last run."""
        out = []
        for i in range(lib.wa_pipeline_inserted_count(self._h)):
            s, nm = WaStageStats(), ctypes.c_char_p()
            self.context._call(lib.wa_pipeline_inserted_stats, ctypes.byref(s),
                               ctypes.byref(nm), self._h, i)
            out.append((nm.value.decode(), StageStats.from_c(s)))
        return out

    def _call_hook(self, fn, prog_ptr, stats):
        program = self._running
        try:
            if program is None or program._ptr != prog_ptr:
                raise RuntimeError("pipeline callback for an unknown program")
            result = fn(program)
            for key, value in (result or {}).items():
                if key not in _PASS_STAT_FIELDS:
                    raise TypeError(f"unknown pass statistic {key!r}")
                setattr(stats.contents, key, value)
            return errors.OK
        except BaseException as e:  # noqa: B036 -- reported through run()
            self._hook_error = e
            return e.status if isinstance(e, errors.WaveasmError) else errors.E_INVALID

    def run(self, program):
        """Runs the enabled stages on `program`; returns {stage: StageStats}."""
        if program.context is not self.context:
            raise invalid("the program belongs to another context than the pipeline")
        self._running, self._hook_error = program, None
        try:
            program._edit_with(lib.wa_pipeline_run, self._h, program._h)
        except errors.WaveasmError as e:
            if self._hook_error is not None:
                raise self._hook_error from e
            raise
        finally:
            self._running = None
        return self.stats()

    def stats(self, stage=None):
        """StageStats of one stage of the last run, or {stage: StageStats}."""
        if stage is None:
            return {name: self.stats(name) for name in STAGES}
        s = WaStageStats()
        self.context._call(lib.wa_pipeline_stats, ctypes.byref(s), self._h, stage_value(stage))
        return StageStats.from_c(s)
