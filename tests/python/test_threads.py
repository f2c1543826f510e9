"""Separate contexts in separate threads compile concurrently (ctypes releases
the GIL in library calls) and give exactly the single-threaded results."""

import importlib.util
import os
import threading

import waveasm

from conftest import PY_EXAMPLES_DIR, read_example


def load_example(name):
    """Imports bindings/python/examples/<name>.py as a module."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(PY_EXAMPLES_DIR,
                                                                     f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEMM = load_example("gemm_alloc")

KERNELS = ["gemm_kloop_virtual.wa", "vector_add.wa", "mfma_lds.wa", "copy.wa"]
TARGETS = ["gfx942", "gfx950", "gfx90a"]


def strip_waits(text):
    return "\n".join(l for l in text.splitlines() if "s_waitcnt" not in l and "s_nop" not in l)


def compile_all(target, texts):
    """Every kernel, and a GEMM made with the builder, through the pipeline and
    emitted, on a context of its own."""
    out = []
    with waveasm.Context(target) as ctx:
        for name, text in texts + [("gemm", None)]:
            if text is None:
                prog = GEMM.build(ctx, 4, 4)
            else:
                prog = ctx.parse(text, file_name=name)
            prog.target = target
            with ctx.pipeline(verify=True) as pipeline:
                stats = pipeline.run(prog)
            out.append((prog.emit_asm(), stats["hazards"].peak_vgprs,
                        stats["waitcnt"].pass_stats.waitcnts_inserted))
    return out


def test_threads_match_single_threaded():
    texts = [(n, strip_waits(read_example(n))) for n in KERNELS]
    expected = {t: compile_all(t, texts) for t in TARGETS}
    results, errors = {}, []

    def worker(i):
        try:
            target = TARGETS[i % len(TARGETS)]
            for _ in range(3):
                results.setdefault(i, []).append((target, compile_all(target, texts)))
        except Exception as e:   # noqa: BLE001 -- reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(results) == 6
    for runs in results.values():
        for target, got in runs:
            assert got == expected[target]
