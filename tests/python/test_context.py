"""Contexts: options, diagnostics, the log hook, memory accounting, versions."""

import waveasm

from conftest import LANE_ADD


def test_targets_and_repr():
    for target in waveasm.TARGETS:
        with waveasm.Context(target) as ctx:
            assert ctx.target == target and target in repr(ctx)
            assert ctx.program("k").target == target
    ctx = waveasm.Context()
    ctx.close()
    assert "closed" in repr(ctx) and ctx.closed


def test_diagnostics_follow_the_last_call(ctx):
    assert ctx.diagnostics == ()
    try:
        ctx.parse(".kernel k\n  bogus\n.end_kernel\n", file_name="x.wa")
    except waveasm.ParseError as e:
        assert ctx.diagnostics == e.diagnostics
        assert all(isinstance(d, waveasm.Diagnostic) for d in e.diagnostics)
    ctx.clear_diagnostics()
    assert ctx.diagnostics == ()
    ctx.parse(LANE_ADD)
    assert not [d for d in ctx.diagnostics if d.severity == "error"]


def test_log_hook(monkeypatch):
    monkeypatch.setenv("WAVE_DEBUG_LIVENESS", "1")
    lines = []
    with waveasm.Context(log=lines.append) as ctx:
        ctx.parse(LANE_ADD).liveness()
    assert lines and all(isinstance(line, str) for line in lines)


def test_memory_accounting_and_trim():
    with waveasm.Context(track_memory=True) as ctx:
        start = ctx.live_allocations
        prog = ctx.parse(LANE_ADD)
        assert ctx.live_allocations > start and ctx.live_bytes > 0
        prog.close()
        ctx.trim()
        assert ctx.live_allocations == start
    with waveasm.Context() as plain:
        assert plain.live_allocations is None and plain.live_bytes is None


def test_versions_and_status_strings():
    assert waveasm.library_version().count(".") == 2
    assert waveasm.status_string(0) == "ok"
    assert waveasm.status_string(-2) and waveasm.status_string(-99)
