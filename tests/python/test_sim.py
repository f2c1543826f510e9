"""The simulator: buffers, arguments, statistics, comparison, and its errors."""

import array
import struct

import pytest

import waveasm

from conftest import LANE_ADD, read_example


def run_lane_add(prog, **options):
    out = bytearray(256)
    with prog.simulator(**options) as sim:
        sim.bind_buffer("out", out)
        stats = sim.run()
    return out, stats


def test_run_and_stats(lane_add):
    out, stats = run_lane_add(lane_add)
    assert struct.unpack("<64I", out) == tuple(range(1, 65))
    assert isinstance(stats, waveasm.SimStats)
    assert (stats.workgroups, stats.waves) == (1, 1)
    assert stats.instructions == 6 and stats.memory_ops == 2


def test_virtual_and_compiled_agree(lane_add):
    before, _ = run_lane_add(lane_add)
    lane_add.compile()
    after, _ = run_lane_add(lane_add, hazards=True, seed=99)
    assert before == after


def test_arguments_buffers_and_grid(ctx):
    prog = ctx.parse(read_example("vector_add.wa"))
    n = 300
    a = array.array("f", (float(i) for i in range(512)))
    b = array.array("f", (0.5 * i for i in range(512)))
    c = array.array("f", [0.0]) * 512
    sim = prog.simulator(grid=(2, 1, 1))
    sim.bind_buffer(0, a)
    sim.bind_buffer("b", b)
    sim.bind_buffer("c", c)
    sim.set_arg("n", n)
    assert sim.buffer_address("a") != 0 and sim.buffer_address("n") == 0
    stats = sim.run()
    assert stats.workgroups == 2 and stats.waves == 8
    assert list(c[:n]) == [1.5 * i for i in range(n)] and c[n] == 0.0
    with pytest.raises(TypeError, match="writable"):
        sim.bind_buffer("a", bytes(2048))
    with pytest.raises(waveasm.InvalidArgumentError, match="no kernel argument"):
        sim.set_arg("m", 1)
    sim.close()


def test_compare(lane_add):
    def sim_of(prog):
        s = prog.simulator()
        s.bind_buffer("out", bytearray(256))
        s.run()
        return s
    ref = sim_of(lane_add)
    same = sim_of(lane_add.clone())
    assert ref.compare(same) == 0
    changed = lane_add.clone()
    changed.set_operand(2, 1, 2)                 # v_add_u32 %v2, 2, v0
    assert ref.compare(sim_of(changed)) == 64    # the low byte of every value
    assert any(d.severity == "note" for d in ref.context.diagnostics)


def test_missing_wait_is_reported(ctx):
    prog = ctx.parse(LANE_ADD.replace("  s_waitcnt lgkmcnt(0)\n", ""))
    with pytest.raises(waveasm.SimWaitError) as info:
        run_lane_add(prog)
    assert info.value.tag == 3 and info.value.line == 8


def test_hazard_and_limit_errors(ctx):
    gemm = ctx.parse(read_example("gemm_kloop.wa").replace("s_nop 10", "s_nop 0"))
    sim = gemm.simulator(hazards=True)
    for i in range(3):
        sim.bind_buffer(i, bytearray(4096))
    sim.set_arg(3, 16)
    with pytest.raises(waveasm.SimHazardError) as info:
        sim.run()
    assert isinstance(info.value, waveasm.SimulationError) and info.value.tag is not None

    spin = ctx.program("spin")
    loop = spin.label("loop")
    spin.place(loop)
    spin.s_branch(loop)
    spin.s_endpgm()
    with pytest.raises(waveasm.SimLimitError):
        spin.simulator(max_instructions=1000).run()


def test_fault(ctx):
    prog = ctx.parse(LANE_ADD)
    with pytest.raises(waveasm.SimFaultError):
        prog.simulator().run()                   # "out" is not bound
