"""Liveness and register allocation: results, statistics, mappings, the
host's own allocation, and the checker."""

import pytest

import waveasm

from conftest import read_example


@pytest.fixture
def gemm(ctx):
    """The virtual-register GEMM example (a loop, MFMA accumulators in AGPRs)."""
    return ctx.parse(read_example("gemm_kloop_virtual.wa"), file_name="gemm.wa")


def test_blocks_loops_and_edges(gemm):
    live = gemm.liveness()
    assert live.program is gemm and not live.stale
    blocks = live.blocks
    assert len(blocks) == live.block_count >= 3
    assert blocks[0].idom is None and blocks[0].reachable
    (loop,) = live.loops
    assert loop.depth == 1 and loop.parent is None and loop.num_blocks >= 1
    body = blocks[loop.header]
    assert body.loop == 0 and body.loop_depth == 1
    assert loop.header in body.succs and loop.header in body.preds  # the back edge
    assert live.block_of(body.first_item) == loop.header
    assert body.live_in and set(body.live_in) <= set(range(gemm.vreg_count))
    assert live.live_on_entry == ()
    assert "block" in live.text().lower()


def test_segments_pressure_reports(gemm):
    live = gemm.liveness()
    acc = next(i for i in range(gemm.vreg_count) if gemm.vreg_info(i)[0] == "agpr")
    segs = live.segments(acc)
    assert segs and all(s <= e for s, e in segs)
    start, end = segs[0]
    assert live.is_live(acc, start) and not live.is_live(acc, 0)
    assert acc in live.live_at(start, "agpr")
    agprs, at = live.max_pressure("agpr")
    assert agprs == 4 and at is not None and live.pressure(at, "agpr") == 4
    vgprs, _ = live.max_pressure("vgpr")
    assert vgprs >= 5
    assert not live.exec_partial(0)
    report = gemm.pressure_report(live)
    assert "v_mfma_f32_16x16x16_f16" in report
    assert gemm.pressure_svg().lstrip().startswith("<")


def test_stale_liveness_is_refused(gemm):
    live = gemm.liveness()
    gemm.set_comment(gemm[0].tag, "edited")
    assert live.stale
    with pytest.raises(waveasm.InvalidArgumentError, match="stale"):
        gemm.regalloc(liveness=live)
    with pytest.raises(waveasm.InvalidArgumentError, match="stale"):
        live.report()
    other = gemm.clone()
    with pytest.raises(waveasm.InvalidArgumentError, match="another program"):
        other.regalloc(liveness=live)


def test_ssa_check(ctx, gemm):
    with pytest.raises(waveasm.ValidationError, match="SSA"):
        gemm.liveness(ssa_check=True)      # the loop redefines its counters


def test_regalloc_result(gemm):
    live = gemm.liveness()
    result = gemm.regalloc(liveness=live, check=True)
    s = result.stats
    assert isinstance(s, waveasm.RegallocStats)
    assert s.peak_agprs == 4 and s.max_pressure_agpr == 4
    assert s.peak_vgprs == s.max_pressure_vgpr   # the README's claim for GEMM kernels
    mapping = result.mapping
    assert len(mapping) == s.intervals
    for vreg, phys in mapping.items():
        cls, size, _ = gemm.vreg_info(vreg)
        assert phys.kind == "phys" and phys.reg_class == cls and phys.count == size
    assert result.lookup(10 ** 6) is None
    result.check()
    before = gemm.text()
    assert "%v" in before
    removed = result.apply()
    assert removed >= 0 and "%v" not in gemm.text() and gemm.vreg_count == 0
    gemm.validate(physical=True)


def two_values(ctx):
    """A program where virtual VGPRs a and b are live together; (prog, a, b)."""
    prog = ctx.program("k")
    a, b = prog.vgpr(), prog.vgpr()
    prog.v_mov_b32(a, 1)
    prog.v_mov_b32(b, 2)
    prog.v_add_u32(a, a, b)
    prog.s_endpgm()
    return prog, a, b


def test_regalloc_limits_and_reserved(ctx):
    prog, a, b = two_values(ctx)
    res = prog.regalloc(reserved_vgprs=[0, 1, 2, 3])
    used = {res.lookup(a).id, res.lookup(b).id}
    assert not used & {0, 1, 2, 3}
    assert res.stats.peak_vgprs >= 6
    plain = prog.regalloc(coalesce=False, holes=False)
    assert plain.stats.coalesced == 0 and plain.stats.hole_fits == 0
    with pytest.raises(waveasm.ValidationError):
        res.check(reserved_vgprs=[4, 5, 6, 7, 8, 9])


def test_host_allocation(ctx):
    prog, a, b = two_values(ctx)
    mine = prog.new_allocation()
    mine.assign(a, 1)
    mine.assign(b, 1)                 # both in v1 while both are live: a conflict
    with pytest.raises(waveasm.ValidationError) as info:
        mine.check()
    assert info.value.diagnostics
    mine.assign(b, 2)
    mine.check()
    assert mine.stats.intervals == 2 and mine.mapping == {
        a.id: waveasm.Operand.phys("vgpr", 1), b.id: waveasm.Operand.phys("vgpr", 2)}
    mine.apply()
    assert prog.item_text(2, tags=False).strip() == "v_add_u32 v1, v1, v2"
    with pytest.raises(waveasm.InvalidArgumentError):
        prog.new_allocation().assign(0, 999)


def test_allocate_then_emit(gemm, tmp_path):
    from conftest import assemble
    gemm.allocate()
    asm = gemm.emit_asm()
    assert ".amdhsa_kernel gemm_kloop_virtual" in asm
    res = gemm.resources()
    assert res.agprs == 4 and res.kernarg_size == 32
    assemble(asm, "gfx942", tmp_path)
