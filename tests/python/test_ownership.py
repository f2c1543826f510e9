"""Ownership: every library object is released exactly once (close, `with`,
garbage collection, interpreter exit), children keep their parents alive, and
nothing leaks over many create/destroy cycles."""

import gc
import os
import subprocess
import sys

import pytest

import waveasm
from waveasm.context import live_handles

from conftest import LANE_ADD, read_example

UNDER_ASAN = "asan" in os.environ.get("LD_PRELOAD", "")


def exercise(ctx):
    """Creates one object of every kind from `ctx` and uses it."""
    prog = ctx.parse(read_example("gemm_kloop_virtual.wa"))
    live = prog.liveness()
    live.max_pressure("vgpr")
    result = prog.regalloc(liveness=live)
    result.stats
    copy = prog.clone()
    with ctx.pipeline() as pipeline:
        pipeline.run(copy)
    copy.emit_asm()
    small = ctx.parse(LANE_ADD)
    sim = small.simulator()
    sim.bind_buffer("out", bytearray(256))
    sim.run()
    return [prog, live, result, copy, small, sim]


def test_close_and_with():
    before = live_handles()
    with waveasm.Context() as ctx:
        with ctx.parse(LANE_ADD) as prog:
            assert live_handles().get("Program", 0) == before.get("Program", 0) + 1
        assert prog.closed and not ctx.closed
        objs = exercise(ctx)
        assert all(not o.closed for o in objs)
    # Closing the context closed everything made from it, children first.
    assert ctx.closed and all(o.closed for o in objs)
    assert live_handles() == before
    del objs, prog, ctx                    # collected after close: no second release
    gc.collect()
    assert live_handles() == before


def test_garbage_collection_releases(ctx):
    before = live_handles()
    objs = exercise(ctx)
    assert live_handles() != before
    del objs
    gc.collect()
    assert live_handles() == before


def test_children_keep_parents_alive():
    before = live_handles()
    prog = waveasm.Context("gfx950").parse(LANE_ADD)   # only the program holds it
    gc.collect()
    assert prog.context.target == "gfx950" and not prog.context.closed
    live = waveasm.parse(LANE_ADD).liveness()           # only the liveness holds it
    gc.collect()
    assert live.max_pressure("vgpr")[0] >= 1 and live.program.name == "lane_add"
    del prog, live
    gc.collect()
    assert live_handles() == before


def test_reference_cycles_are_collected():
    before = live_handles()
    box = {}
    box["ctx"] = waveasm.Context()
    box["prog"] = box["ctx"].parse(LANE_ADD)
    box["live"] = box["prog"].liveness()
    box["self"] = box
    del box
    gc.collect()
    assert live_handles() == before


def test_library_memory_returns_to_baseline():
    with waveasm.Context(track_memory=True) as ctx:
        ctx.trim()
        baseline = ctx.live_allocations
        for _ in range(3):
            for obj in reversed(exercise(ctx)):
                obj.close()
            ctx.trim()
            assert ctx.live_allocations == baseline
        objs = exercise(ctx)
        assert ctx.live_allocations > baseline and ctx.live_bytes > 0
        del objs                           # the garbage collector's way
        gc.collect()
        ctx.trim()
        assert ctx.live_allocations == baseline


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_stress_create_destroy():
    before = live_handles()
    for i in range(60):
        ctx = waveasm.Context()
        objs = exercise(ctx)
        if i % 2:
            ctx.close()                    # closes the children too
        del ctx, objs
    gc.collect()
    assert live_handles() == before
    if UNDER_ASAN or not os.path.exists("/proc/self/statm"):
        return                             # ASan's quarantine holds freed memory
    start = rss_kib()
    for _ in range(100):
        with waveasm.Context() as ctx:
            exercise(ctx)
    gc.collect()
    assert rss_kib() - start < 16 * 1024, "resident memory keeps growing"


def test_finalizer_during_a_call_is_deferred(ctx):
    """A program dropped while a call on its context runs (here: inside a
    pipeline stage written in Python) is destroyed when that call ends."""
    victim = [ctx.parse(LANE_ADD)]
    closed = ctx.parse(LANE_ADD)
    counts = []

    def stage(prog):
        victim.clear()                     # last reference: the finalizer runs now
        closed.close()                     # closed at once, released after the run
        counts.append(live_handles()["Program"])
        with pytest.raises(RuntimeError, match="during a call"):
            ctx.close()
    pipeline = ctx.pipeline()
    pipeline.replace("cse", stage)
    target = ctx.parse(LANE_ADD)
    n = live_handles()["Program"]
    pipeline.run(target)
    assert counts == [n] and closed.closed  # both still there during the run
    assert live_handles()["Program"] == n - 2


def test_objects_left_at_exit_are_released_cleanly(tmp_path):
    script = tmp_path / "leave.py"
    script.write_text(
        "import waveasm\n"
        f"ctx = waveasm.Context()\nprog = ctx.parse({LANE_ADD!r})\n"
        "live = prog.liveness()\nres = prog.regalloc()\nsim = prog.simulator()\n"
        "orphan = waveasm.parse(prog.text())\nprint('ok')\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == "ok\n", r.stderr
    assert "ERROR" not in r.stderr


def test_shared_context_across_threads_is_serialised():
    import threading
    with waveasm.Context() as ctx:
        errors = []

        def work():
            try:
                for _ in range(20):
                    p = ctx.parse(LANE_ADD)
                    p.compile()
                    p.emit_asm()
            except Exception as e:      # noqa: BLE001 -- reported below
                errors.append(e)
        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
