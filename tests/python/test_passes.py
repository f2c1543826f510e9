"""Passes, checkers, single stages, the pipeline with statistics and Python
replacements, and wa_compile."""

import pytest

import waveasm

from conftest import LANE_ADD, assemble, read_example

# No waits, no hazard s_nop: the passes have work to do.
NEEDS_WAITS = """\
.kernel needs_waits
  .target gfx942
  .abi kernarg_ptr, workitem_id_x
  .arg out, global_buffer, offset:0, size:8, align:8
  s_load_dwordx2 s[2:3], s[0:1], 0
  v_lshlrev_b32 v1, 2, v0
  global_store_dword v1, v0, s[2:3]
  s_endpgm
.end_kernel
"""


def strip_waits(text):
    return "\n".join(l for l in text.splitlines() if "s_waitcnt" not in l and "s_nop" not in l)


def test_waitcnt_pass_and_checker(ctx):
    prog = ctx.parse(NEEDS_WAITS)
    with pytest.raises(waveasm.ValidationError) as info:
        prog.check_waitcnt()
    assert info.value.tag == 2      # the store reads s[2:3] in flight
    stats = prog.pass_waitcnt()
    assert isinstance(stats, waveasm.PassStats)
    assert stats.waitcnts_inserted == 1 and stats.instrs_after == stats.instrs_before + 1
    prog.check_waitcnt()
    assert "s_waitcnt lgkmcnt(0)" in prog.text()
    again = prog.pass_waitcnt(barrier_vmem=True)
    assert again.waitcnts_inserted == 0
    with pytest.raises(waveasm.InvalidArgumentError, match="contradict"):
        prog.pass_waitcnt(barrier_vmem=True, barrier=False)


def test_hazard_pass_and_checker(ctx):
    gemm = ctx.parse(strip_waits(read_example("gemm_kloop.wa")))
    gemm.pass_waitcnt()
    with pytest.raises(waveasm.ValidationError):
        gemm.check_hazards()         # MFMA result read too early
    stats = gemm.pass_hazards()
    assert stats.nops_inserted >= 1 and stats.nop_wait_states >= 1
    gemm.check_hazards()
    gemm.check_waitcnt()


def test_peephole_and_cse(ctx):
    prog = ctx.program("k")
    lane = prog.abi_reg("workitem_id_x")
    a, b, c, d = (prog.vgpr() for _ in range(4))
    prog.v_lshlrev_b32(a, 2, lane)
    prog.v_add_u32(b, a, 16)            # shift + add: fused
    prog.v_lshlrev_b32(c, 2, lane)      # same as a: CSE
    prog.v_add_u32(d, b, c)
    kernarg = prog.abi_reg("kernarg_ptr")
    out = prog.sgpr(2)
    prog.s_load_dwordx2(out, kernarg, 0)
    prog.s_waitcnt(lgkmcnt=0)
    prog.global_store_dword(a, d, out)
    prog.s_endpgm()
    cse = prog.clone().pass_cse()
    assert cse.eliminated == 1
    assert prog.clone().pass_cse(hoist=False).eliminated == 1
    kept = prog.clone()
    assert kept.pass_peephole(fuse=False, fold=False, moves=False, acc_init=False).fused == 0
    peep = prog.pass_peephole()
    assert peep.fused >= 1 and "v_lshl_add_u32" in prog.text()
    prog.validate()


def test_run_stage_and_compile(ctx):
    prog = ctx.parse(read_example("gemm_kloop_virtual.wa"))
    stripped = ctx.parse(strip_waits(prog.text()))
    alloc = stripped.run_stage("regalloc", regalloc={"check": True})
    assert alloc.instrs_after <= alloc.instrs_before
    assert "%v" not in stripped.text()
    stripped.run_stage("waitcnt")
    stripped.run_stage("hazards")
    stripped.check_waitcnt()
    stripped.check_hazards()

    compiled = ctx.parse(strip_waits(prog.text())).compile(verify=True)
    assert "%v" not in compiled.text() and compiled.resources().agprs == 4
    compiled.check_waitcnt()
    compiled.check_hazards()


def test_pipeline_statistics(ctx, tmp_path):
    prog = ctx.parse(strip_waits(read_example("gemm_kloop_virtual.wa")))
    with ctx.pipeline(verify=True, regalloc={"max_vgprs": 64}) as pipeline:
        stats = pipeline.run(prog)
        assert set(stats) == set(waveasm.STAGES)
        assert all(s.ran for s in stats.values())
        assert stats["waitcnt"].pass_stats.waitcnts_inserted >= 2
        assert stats["hazards"].pass_stats.nops_inserted >= 1
        assert stats["hazards"].peak_agprs == 4 and stats["hazards"].peak_vgprs > 0
        assert stats["cse"].peak_vgprs == 0          # still virtual then
        assert pipeline.stats("waitcnt") == stats["waitcnt"]
        assert stats["regalloc"].seconds >= 0
    assemble(prog.emit_asm(), "gfx942", tmp_path)


def test_pipeline_enable_and_replace(ctx):
    prog = ctx.parse(strip_waits(read_example("gemm_kloop_virtual.wa")))
    seen = []

    def my_waitcnt(p):
        seen.append(p)
        stats = p.pass_waitcnt()           # the library's pass, from Python
        return {"waitcnts_inserted": stats.waitcnts_inserted, "changed": 7}

    pipeline = ctx.pipeline()
    pipeline.disable("cse")
    pipeline.replace("waitcnt", my_waitcnt)
    stats = pipeline.run(prog)
    assert seen == [prog]
    assert not stats["cse"].ran and stats["peephole"].ran
    assert stats["waitcnt"].pass_stats.changed == 7
    assert stats["waitcnt"].pass_stats.waitcnts_inserted >= 2
    prog.check_waitcnt()

    pipeline.replace("waitcnt", None)      # the library's own pass again
    pipeline.enable("cse")
    other = ctx.parse(strip_waits(read_example("gemm_kloop_virtual.wa")))
    assert pipeline.run(other)["cse"].ran and not seen[1:]
    pipeline.close()


def test_pipeline_replacement_errors(ctx):
    prog = ctx.parse(LANE_ADD)
    pipeline = ctx.pipeline()

    def broken(p):
        raise KeyError("from the host")
    pipeline.replace("peephole", broken)
    with pytest.raises(KeyError, match="from the host") as info:
        pipeline.run(prog)
    assert isinstance(info.value.__cause__, waveasm.WaveasmError)

    def failing(p):
        p.find_tag(12345)                  # a library error inside the stage
    pipeline.replace("peephole", failing)
    with pytest.raises(waveasm.NotFoundError):
        pipeline.run(prog)

    def bad_stats(p):
        return {"no_such_field": 1}
    pipeline.replace("peephole", bad_stats)
    with pytest.raises(TypeError, match="no_such_field"):
        pipeline.run(prog)

    with waveasm.Context() as other:
        with pytest.raises(waveasm.InvalidArgumentError, match="another context"):
            pipeline.run(other.parse(LANE_ADD))
