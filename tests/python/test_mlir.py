"""The MLIR front end from Python: compile_mlir / translate_mlir, running the
result in the simulator, options and errors. Skipped when libwaveasm_mlir is
not built."""

import array
import gc
import random

import pytest

import waveasm
import waveasm.mlir

pytestmark = pytest.mark.skipif(not waveasm.mlir.available(),
                                reason="libwaveasm_mlir (the MLIR front end) is not built")


@pytest.fixture(autouse=True)
def collect_contexts():
    # Exceptions keep the frames (and Contexts) of a failed compile alive in
    # reference cycles: release them before the next test counts handles.
    yield
    gc.collect()

SAXPY = """
gpu.module @m {
  gpu.func @saxpy(%x: memref<256xf32>, %y: memref<256xf32>, %a: f32) kernel
      attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %c64 = arith.constant 64 : index
    %o = arith.muli %b, %c64 : index
    %i = arith.addi %o, %t : index
    %xv = memref.load %x[%i] : memref<256xf32>
    %yv = memref.load %y[%i] : memref<256xf32>
    %p = arith.mulf %xv, %a : f32
    %r = arith.addf %p, %yv : f32
    memref.store %r, %y[%i] : memref<256xf32>
    gpu.return
  }
  gpu.func @other() kernel {
    gpu.return
  }
}
"""


def test_compile_and_run():
    progs = waveasm.compile_mlir(SAXPY, target="gfx942")
    assert [p.name for p in progs] == ["saxpy", "other"]
    prog = progs[0]
    assert "s_endpgm" in prog.emit_asm()
    rng = random.Random(5)
    x = array.array("f", (rng.uniform(-1, 1) for _ in range(256)))
    y = array.array("f", (rng.uniform(-1, 1) for _ in range(256)))
    want = [xi * 2.5 + yi for xi, yi in zip(x, y)]
    sim = prog.simulator(grid=(4, 1, 1), hazards=True)
    sim.bind_buffer("arg0", x)
    sim.bind_buffer("arg1", y)
    sim.set_arg("arg2", array.array("f", [2.5]).tobytes())
    sim.run()
    sim.close()
    assert all(abs(g - w) <= 1e-6 * max(1.0, abs(w)) for g, w in zip(y, want))


def test_options():
    prog = waveasm.compile_mlir(SAXPY, target="gfx950", kernel="other",
                                workgroup_size=(128, 2))
    assert prog.name == "other" and prog.target == "gfx950"
    assert tuple(prog.workgroup_size) == (128, 2, 1)
    forced = waveasm.translate_mlir(SAXPY, kernel="saxpy", workgroup_size=(32,),
                                    force_workgroup_size=True)
    assert tuple(forced[0].workgroup_size) == (32, 1, 1)
    with pytest.raises(waveasm.NotFoundError, match="no kernel named 'none'"):
        waveasm.compile_mlir(SAXPY, kernel="none")


def test_errors_carry_mlir_locations():
    bad = SAXPY.replace("arith.mulf %xv, %a : f32", "math.sin %xv : f32")
    with pytest.raises(waveasm.UnsupportedError) as e:
        waveasm.compile_mlir(bad, file_name="saxpy.mlir")
    d = e.value.diagnostics[0]
    assert (d.file, d.line, d.column if hasattr(d, "column") else d.col) == ("saxpy.mlir", 12, 10)
    assert "math.sin" in d.message
    with pytest.raises(waveasm.ParseError):
        waveasm.compile_mlir("gpu.module @m { gpu.func", file_name="p.mlir")


def test_version():
    assert "MLIR 22" in waveasm.mlir.version()
