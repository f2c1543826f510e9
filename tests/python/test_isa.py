"""The ISA table as the package reads it from the library, and the builder
methods generated from it."""

import pytest

import waveasm
from waveasm import Operand, isa
from waveasm._lib import lib
from waveasm.program import BUILDERS


def test_table_is_the_librarys():
    assert len(isa.OPCODES) == lib.wa_isa_count()
    for info in isa.OPCODES:
        entry = lib.wa_isa_get(info.opcode).contents
        assert entry.mnemonic.decode() == info.mnemonic
        assert entry.num_operands == len(info.operands)
    assert not lib.wa_isa_get(len(isa.OPCODES))  # NULL past the end


def test_builders_cover_every_spelling():
    spellings = {n for info in isa.OPCODES if "pseudo" not in info.flags
                 for n in (info.mnemonic, info.mnemonic_gfx90a)}
    assert set(BUILDERS) == spellings
    for name in spellings:
        method = getattr(waveasm.Program, name)
        assert method.__doc__.startswith(isa.lookup(name).mnemonic)


def test_lookup_and_opinfo():
    add = isa.lookup("v_add_u32")
    assert add.id == "V_ADD_U32" and add.format == "VOP2"
    assert isa.lookup("v_add_u32_e64") is add
    assert isa.opinfo("V_ADD_U32") is add and isa.opinfo(add.opcode) is add
    assert add.operand_names == ("vdst", "src0", "src1")
    assert add.operands[0].role == "def" and "vgpr" in add.operands[0].classes
    assert "literal" in add.operands[1].classes
    assert add.targets == frozenset(waveasm.TARGETS)
    assert "exec" in add.implicit_uses
    with pytest.raises(waveasm.NotFoundError):
        isa.lookup("v_no_such_op")
    with pytest.raises(waveasm.InvalidArgumentError):
        isa.opinfo(10 ** 6)


def test_mfma_facts():
    mfma = isa.lookup("v_mfma_f32_16x16x16_f16")
    assert "mfma" in mfma.flags and mfma.format == "MAI"
    assert (mfma.mfma_shape.m, mfma.mfma_shape.n, mfma.mfma_shape.k) == (16, 16, 16)
    assert mfma.mfma_shape.input == "f16"
    assert mfma.mfma_passes("gfx942") > 0
    assert mfma.mnemonic_for("gfx90a") == mfma.mnemonic_gfx90a == "v_mfma_f32_16x16x16f16"
    assert isa.lookup("v_mfma_f32_16x16x16f16") is mfma  # the gfx90a spelling
    assert isa.lookup("v_add_u32").mfma_shape is None


def test_availability_and_simulator_support():
    only950 = [i for i in isa.OPCODES if i.targets == {"gfx950"}]
    assert only950, "the table has gfx950-only opcodes"
    assert only950[0].available("gfx950") and not only950[0].available("gfx942")
    assert isa.lookup("v_add_u32").sim_unsupported is None
    for info in isa.OPCODES:
        reason = info.sim_unsupported
        assert reason is None or isinstance(reason, str)


def test_enum_names_come_from_the_library():
    assert "VOP2" in isa.FORMATS and "MUBUF" in isa.FORMATS
    assert "valu" in isa.LATENCY_CLASSES and "mfma_xdl" in isa.HAZARD_CLASSES
    assert waveasm.STAGES == ("cse", "peephole", "regalloc", "waitcnt", "hazards")
    assert "gfx942" in waveasm.TARGETS and "global_buffer" in waveasm.ARG_KINDS
    assert isa.hwreg_name(1) == "HW_REG_MODE"
    assert waveasm.hwreg(1, 0, 4) == 1 | (3 << 11)
    assert waveasm.tuple_align("gfx942", "vgpr", 4) >= 2


def _sample(o, label, f8f6f4, k):
    """An operand the position accepts, sized as the table says; operand k gets
    vector registers of its own (an early-clobber MFMA result must not overlap
    its sources)."""
    cls = o.classes
    size = o.size or (8 if f8f6f4 else 1)
    if "label" in cls:
        return label
    if o.size == 0 and "off" in cls:
        return "off"
    for rc in ("vgpr", "agpr", "sgpr"):
        if rc in cls:
            if size > 1:
                return Operand.phys(rc, 8 + (24 if rc == "sgpr" else 40) * k, size)
            # single SGPRs share s1: reading one SGPR twice counts once on the
            # constant bus
            return Operand.phys(rc, 1 if rc == "sgpr" else 1 + k, size)
    if "special" in cls:
        return "vcc"
    if "imm" in cls:
        return max(o.imm_min, 0)
    return 1


@pytest.mark.parametrize("info", [i for i in isa.OPCODES if "pseudo" not in i.flags],
                         ids=lambda i: i.id)
def test_every_opcode_builds_prints_parses_and_validates(info):
    target = "gfx942" if info.available("gfx942") else sorted(info.targets)[-1]
    with waveasm.Context(target) as ctx:
        prog = ctx.program("k")
        label = prog.label("L")
        ops = [_sample(o, label, "f8f6f4" in info.flags, k) for k, o in enumerate(info.operands)]
        if "lds_dma" in info.flags:
            tag = getattr(prog, info.mnemonic)(*ops, lds=True)  # the plain name + lds
        else:
            tag = getattr(prog, info.mnemonic)(*ops)
        prog.place(label)
        prog.s_endpgm()
        item = prog[0]
        assert item.op is info and item.tag == tag
        again = ctx.parse(prog.text())
        assert again == prog
        prog.validate()
