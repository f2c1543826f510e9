"""Errors: every failure is a WaveasmError subclass with status, message,
location and diagnostics."""

import pytest

import waveasm
from waveasm import errors
from waveasm._lib import lib

from conftest import LANE_ADD

BAD_OPERAND = LANE_ADD.replace("v_add_u32 %v2, 1, v0", "v_add_u32 %v2, 1, q0")


def test_parse_error_has_file_line_col(ctx):
    with pytest.raises(waveasm.ParseError) as info:
        ctx.parse(BAD_OPERAND, file_name="bad.wa")
    e = info.value
    assert e.status == errors.E_PARSE and e.status_name == errors.status_string(-2)
    assert (e.file, e.line) == ("bad.wa", 7) and e.col > 0
    assert e.location == f"bad.wa:7:{e.col}"
    assert str(e).startswith(f"bad.wa:7:{e.col}: error: ")
    assert e.diagnostics and e.diagnostics[-1].severity == "error"
    # The same text as the library's own formatting of its last diagnostic.
    assert str(e.diagnostic) == lib.wa_context_last_error(ctx._h).decode()
    assert ctx.diagnostics == e.diagnostics


def test_parse_error_unknown_mnemonic_and_structure(ctx):
    with pytest.raises(waveasm.ParseError) as info:
        ctx.parse(".kernel k\n  v_frobnicate v0\n.end_kernel\n")
    assert info.value.line == 2
    with pytest.raises(waveasm.ParseError):
        ctx.parse(".kernel k\n  s_endpgm\n")          # no .end_kernel
    with pytest.raises(waveasm.ParseError):
        ctx.parse(b"\x00\x01 garbage")


def test_validation_errors_carry_tags(ctx):
    prog = ctx.program("k")
    v = prog.vgpr()
    tag = prog.v_add_u32(v, 100000, prog.abi_reg("workitem_id_x"))  # literal in src0: ok
    bad = prog.v_add_u32(v, v, 100000)            # literal in src1: not encodable
    prog.s_endpgm()
    with pytest.raises(waveasm.ValidationError) as info:
        prog.validate()
    e = info.value
    assert e.tag == bad and tag != bad
    assert "src1" in e.message
    assert isinstance(e, waveasm.WaveasmError) and not isinstance(e, ValueError)


def test_validation_of_parsed_program_has_location(ctx):
    text = LANE_ADD.replace("v_add_u32 %v2, 1, v0", "v_add_u32 %v2, %v1, 100000")
    prog = ctx.parse(text, file_name="k.wa")
    with pytest.raises(waveasm.ValidationError) as info:
        prog.validate()
    assert (info.value.file, info.value.line, info.value.tag) == ("k.wa", 7, 2)


def test_several_diagnostics(ctx):
    text = LANE_ADD.replace("v_add_u32 %v2, 1, v0", "v_add_u32 %v2, %v1, 100000\n"
                            "  v_add_u32 %v2, %v1, 200000")
    prog = ctx.parse(text)
    with pytest.raises(waveasm.ValidationError) as info:
        prog.validate()
    assert len([d for d in info.value.diagnostics if d.severity == "error"]) == 2
    assert "more diagnostic" in str(info.value)
    with pytest.raises(waveasm.ValidationError) as info:
        prog.validate(max_errors=1)
    assert len([d for d in info.value.diagnostics if d.severity == "error"]) == 1


def test_invalid_options():
    with pytest.raises(waveasm.InvalidArgumentError, match="gfx1100"):
        waveasm.Context("gfx1100")
    with pytest.raises(waveasm.InvalidArgumentError, match="wave size 32"):
        waveasm.Context(wave_size=32)
    with waveasm.Context() as ctx:
        prog = ctx.program("k")
        with pytest.raises(waveasm.InvalidArgumentError):
            ctx.program("not a symbol")
        with pytest.raises(waveasm.InvalidArgumentError):
            prog.target = "gfx900"
        with pytest.raises(waveasm.InvalidArgumentError):
            prog.abi_inputs = ["kernarg_ptr", "thread_id"]
        with pytest.raises(waveasm.InvalidArgumentError):
            prog.add_arg("x", "pointer")
        with pytest.raises(waveasm.InvalidArgumentError):
            prog.abi_reg("workgroup_id_x")     # not enabled
        with pytest.raises(waveasm.InvalidArgumentError):
            prog.run_stage("scheduling")
        with pytest.raises(waveasm.InvalidArgumentError):
            prog.regalloc(reserved_vgprs=[300])
        with pytest.raises(TypeError):
            prog.compile(unroll={})
        with pytest.raises(ValueError):
            prog.vreg("xgpr")
        with pytest.raises(waveasm.InvalidArgumentError):
            ctx.pipeline(regalloc={"liveness": None})
        # Errors the library itself reports: the option value is out of range.
        prog.s_endpgm()
        with pytest.raises(waveasm.InvalidArgumentError):
            prog.simulator(grid=(0, 0, 0), workgroup_size=(2048, 1, 1)).run()


def test_impossible_allocation_names_the_value(ctx):
    prog = ctx.program("k")
    regs = [prog.vgpr(4) for _ in range(3)]
    for r in regs:
        for c in range(4):
            prog.v_mov_b32(r[c], c)
    acc = prog.vgpr()
    prog.v_add3_u32(acc, regs[0][0], regs[1][0], regs[2][0])
    prog.v_add3_u32(acc, regs[0][3], regs[1][3], regs[2][3])
    prog.s_endpgm()
    prog.regalloc()                          # fits in 256
    with pytest.raises(waveasm.AllocationError) as info:
        prog.regalloc(max_vgprs=8)
    e = info.value
    assert e.status == errors.E_ALLOC
    assert "%v" in e.message and "v0..v7" in e.message
    assert e.tag is not None


def test_not_found_and_file_errors(ctx, tmp_path):
    prog = ctx.program("k")
    with pytest.raises(waveasm.NotFoundError) as info:
        prog.find_tag(42)
    assert isinstance(info.value, LookupError)
    with pytest.raises(waveasm.FileError) as info:
        ctx.parse_file(tmp_path / "missing.wa")
    assert isinstance(info.value, OSError) and "missing.wa" in str(info.value)


def test_emit_needs_physical_registers(lane_add):
    with pytest.raises(waveasm.ValidationError):
        lane_add.emit_asm()
    with pytest.raises(waveasm.ValidationError):
        lane_add.resources()


def test_error_classes_cover_every_status():
    for status in range(-1, -15, -1):
        cls = errors.ERROR_CLASSES[status]
        e = errors.error_for(status)
        assert type(e) is cls and e.status == status and e.diagnostics == ()
        assert str(e) == f"error: {errors.status_string(status)}"
    assert issubclass(waveasm.SimWaitError, waveasm.SimulationError)
    unknown = errors.error_for(-99)
    assert type(unknown) is waveasm.WaveasmError


def test_closed_objects_refuse_calls(ctx):
    prog = ctx.program("k")
    prog.close()
    assert prog.closed and "closed" in repr(prog)
    with pytest.raises(ValueError, match="closed"):
        len(prog)
    prog.close()                                  # again: nothing happens
    ctx.close()
    with pytest.raises(ValueError, match="closed"):
        ctx.program("k")
