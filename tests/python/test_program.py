"""Programs: attributes, arguments, registers, labels, the builder, inspecting
and editing, the text form, equality and cloning."""

import pytest

import waveasm
from waveasm import Operand, dpp

from conftest import LANE_ADD, read_example


def test_defaults_and_attributes(ctx):
    prog = ctx.program("k")
    assert prog.context is ctx
    assert (prog.name, prog.target, prog.workgroup_size, prog.lds_bytes) == \
        ("k", "gfx942", (64, 1, 1), 0)
    assert prog.abi_inputs == ("kernarg_ptr", "workitem_id_x")
    prog.name = "renamed"
    prog.target = "gfx950"
    prog.workgroup_size = (128, 2)
    prog.lds_bytes = 4096
    prog.abi_inputs = ["kernarg_ptr", "workgroup_id_x", "workitem_id_x"]
    assert (prog.name, prog.target, prog.workgroup_size, prog.lds_bytes) == \
        ("renamed", "gfx950", (128, 2, 1), 4096)
    assert str(prog.abi_reg("kernarg_ptr")) == "s[0:1]"
    assert str(prog.abi_reg("workgroup_id_x")) == "s2"
    assert str(prog.abi_reg("workitem_id_x")) == "v0"
    assert prog.user_sgpr_count == 2 and prog.abi_sgpr_count == 3
    assert len(prog) == 0 and "renamed" in repr(prog)


def test_arguments(ctx):
    prog = ctx.program("k")
    assert prog.add_arg("src", "global_buffer", size=8, const=True) == 0
    assert prog.add_arg("n", size=4) == 1
    assert prog.add_arg(None, "by_value", size=2, offset=16) == 2
    args = prog.args
    assert args[0] == waveasm.KernelArg("src", "global_buffer", 0, 8, 8, const=True)
    assert (args[1].offset, args[1].kind) == (8, "by_value")
    assert args[2].name is None and args[2].offset == 16
    assert prog.kernarg_size == 24


def test_registers_and_labels(ctx):
    prog = ctx.program("k")
    v = prog.vgpr(4)
    s = prog.sgpr(2)
    a = prog.agpr(4, align=4)
    assert (v.kind, v.reg_class, v.count) == ("virt", "vgpr", 4)
    assert prog.vreg_info(a) == ("agpr", 4, 4)
    assert prog.vreg_count == 3
    assert str(v) == f"%v{v.id}" and str(v[1]) == f"%v{v.id}[1]"
    assert str(v[1:3]) == f"%v{v.id}[1:2]" and str(s[-1]) == f"%s{s.id}[1]"
    with pytest.raises(IndexError):
        v.sub(3, 2)
    loop = prog.label("loop")
    anon = prog.label()
    assert prog.label_name(loop) == "loop" and prog.label_name(anon)
    assert prog.label_count == 2


def test_operand_values():
    assert Operand.parse("s[4:7]") == Operand.phys("sgpr", 4, 4)
    assert str(Operand.parse("v5")) == "v5" and str(Operand.parse("a[0:3]")) == "a[0:3]"
    assert Operand.parse("vcc").kind == "special" and Operand.parse("off").kind == "off"
    assert Operand.parse("0x20000").value == 0x20000 and Operand.parse("-1.5").value == -1.5
    assert Operand.parse("s[0:1]")[1] == Operand.phys("s", 1)
    with pytest.raises(ValueError):
        Operand.parse("q7")
    with pytest.raises(TypeError):
        Operand.imm(True)


def test_builder_operands_modifiers_comments(ctx):
    prog = ctx.program("k")
    kernarg, lane = prog.abi_reg("kernarg_ptr"), prog.abi_reg("workitem_id_x")
    srd, off, data = prog.sgpr(4), prog.vgpr(), prog.vgpr(4)
    t0 = prog.s_load_dwordx2(srd[0:2], kernarg, 0, comment="base")
    prog.emit("s_mov_b32", srd[2], 4096)
    prog.s_mov_b32(sdst=srd[3], src0=0x20000)          # operands by table name
    prog.v_lshlrev_b32(off, 4, lane)
    prog.s_waitcnt(lgkmcnt=0)
    t5 = prog.buffer_load_dwordx4(data, off, srd, 0, offen=True, offset=16, glc=True)
    prog.s_waitcnt(vmcnt=0)
    prog.buffer_store_dwordx4(data, off, srd, 0, offen=True)
    prog.buffer_load_dword(off, srd, 0, offen=True, lds=True)  # the lds form
    prog.v_add_f32(data[0], data[1], data[2], dpp=dpp.row_shr(1), bound_ctrl=True)
    prog.s_endpgm()
    prog.validate()
    first = prog[0]
    assert (first.kind, first.mnemonic, first.tag, first.comment) == \
        ("instruction", "s_load_dwordx2", t0, "base")
    assert first.operands[1] == kernarg and first.operands[2] == Operand.imm(0)
    load = prog[prog.find_tag(t5)]
    assert load.mods == {"offen": True, "glc": True, "offset": 16}
    assert prog[4].mods == {"lgkmcnt": 0}
    assert "lds_dma" in prog[8].op.flags and len(prog[8].operands) == 3
    assert prog[9].mods["dpp"] == dpp.row_shr(1) and prog[9].mods["bound_ctrl"]
    text = prog.item_text(5)
    assert text.startswith("buffer_load_dwordx4") and "offset:16" in text
    assert prog[-1].mnemonic == "s_endpgm"


def test_builder_argument_errors(ctx):
    prog = ctx.program("k")
    v = prog.vgpr()
    with pytest.raises(TypeError, match="missing src1"):
        prog.v_add_u32(v, 1)
    with pytest.raises(TypeError, match="takes 3 operands"):
        prog.v_add_u32(v, 1, 2, 3)
    with pytest.raises(TypeError, match="given twice"):
        prog.v_add_u32(v, 1, 2, vdst=v)
    with pytest.raises(TypeError, match="unknown modifier"):
        prog.v_add_u32(v, 1, 2, bogus=1)
    with pytest.raises(waveasm.InvalidArgumentError, match="out of range"):
        prog.s_waitcnt(vmcnt=500)
    with pytest.raises(waveasm.InvalidArgumentError):
        prog.emit("LABEL", v)          # pseudo items have their own methods
    assert len(prog) == 0


def test_labels_comments_and_editing(ctx):
    prog = ctx.program("k")
    loop = prog.label("loop")
    prog.comment("the loop")
    prog.place(loop)
    prog.s_nop(0)
    prog.s_cbranch_scc1(loop)
    prog.s_endpgm()
    kinds = [i.kind for i in prog]
    assert kinds == ["comment", "label", "instruction", "instruction", "instruction"]
    assert prog[0].comment == "the loop" and prog[1].operands[0].name == "loop"
    assert prog[3].operands[0] == loop

    prog.set_insert_point(2)
    tag = prog.s_nop(3)
    prog.set_insert_point()
    assert prog[2].tag == tag and prog[-1].mnemonic == "s_endpgm"
    prog.set_operand(2, 0, 5)
    assert prog[2].operands[0].value == 5
    prog.move(2, 3)
    assert prog[3].tag == tag
    prog.set_comment(tag, "moved")
    assert prog[3].comment == "moved"
    prog.erase(3)
    with pytest.raises(waveasm.NotFoundError):
        prog.find_tag(tag)
    prog.set_mods(len(prog) - 1)          # clears nothing, still valid
    prog.validate()


def test_waitcnt_mods_roundtrip(ctx):
    prog = ctx.program("k")
    prog.s_waitcnt(vmcnt=1, lgkmcnt=0)
    prog.set_mods(0, vmcnt=0)
    assert prog[0].mods == {"vmcnt": 0}
    assert prog.item_text(0, tags=False).strip() == "s_waitcnt vmcnt(0)"


def test_text_roundtrip_equal_clone(ctx, lane_add):
    text = lane_add.text()
    assert text.startswith(".kernel lane_add") and "; @I0" in text
    assert "@I" not in lane_add.text(tags=False)
    again = ctx.parse(text)
    assert again == lane_add and again.text() == text
    copy = lane_add.clone()
    assert copy == lane_add and copy is not lane_add
    copy.s_endpgm()
    assert copy != lane_add
    assert str(lane_add) == text
    assert lane_add[2].line == 7 and lane_add[2].col == 3
    assert (lane_add == 3) is False


@pytest.mark.parametrize("name", ["copy.wa", "vector_add.wa", "mfma_lds.wa",
                                  "gemm_kloop.wa", "gemm_kloop_virtual.wa"])
def test_examples_roundtrip(name, ctx):
    prog = ctx.parse(read_example(name), file_name=name)
    prog.validate()
    assert ctx.parse(prog.text()) == prog


def test_parse_file_and_module_functions(tmp_path):
    path = tmp_path / "k.wa"
    path.write_text(LANE_ADD)
    prog = waveasm.parse_file(path)
    assert prog.name == "lane_add" and prog.context.target == "gfx942"
    assert waveasm.parse(LANE_ADD) == prog
    with waveasm.Context("gfx950") as ctx:
        other = ctx.parse_file(str(path))
        assert other.target == "gfx942"   # .target wins over the context's


def test_parse_asm_imports_what_emit_asm_writes(ctx):
    prog = ctx.parse(read_example("vector_add.wa"))
    prog.compile()
    asm = prog.emit_asm()
    back = ctx.parse_asm(asm, file_name="vector_add.s")
    assert back.name == prog.name and back.workgroup_size == prog.workgroup_size
    assert [i.op.mnemonic for i in back] == [i.op.mnemonic for i in prog]
    with pytest.raises(waveasm.NotFoundError):
        ctx.parse_asm(asm, index=1)
    with pytest.raises(waveasm.WaveasmError) as e:
        ctx.parse_asm(asm.replace("s_endpgm", "s_frob"), file_name="bad.s")
    assert "bad.s:" in str(e.value) and "s_frob" in str(e.value)
