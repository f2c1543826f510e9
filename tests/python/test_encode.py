"""Program.encode and Context.disassemble: machine code in process and back."""

import pytest

import waveasm

from conftest import read_example

BODY = """.kernel k
  .target gfx942
top:
  s_mov_b32 s4, 0x12345
  v_add_f32 v1, -v2, |v3|
  s_cbranch_scc1 top
  s_endpgm
.end_kernel
"""


def test_encode_and_offsets(ctx):
    prog = ctx.parse(BODY)
    code = prog.encode()
    # s_mov_b32 + literal, the VOP3 pair, the branch 5 dwords back, s_endpgm
    assert code.hex() == "ff0084be45230100010201d102070220fbff85bf000081bf"
    same, offsets = prog.encode(offsets=True)
    assert same == code
    assert offsets == (0, 0, 8, 16, 20)


def test_disassemble_round_trip(ctx):
    code = ctx.parse(BODY).encode()
    text = ctx.disassemble(code, "gfx942")
    assert text.splitlines()[0] == "wa_0:"
    assert "v_add_f32_e64 v1, -v2, |v3|" in text
    again = ctx.parse(".kernel k\n  .target gfx942\n" + text + ".end_kernel\n").encode()
    assert again == code
    assert "; 0x0014" in ctx.disassemble(code, offsets=True)


def test_examples_encode(ctx):
    prog = ctx.parse(read_example("copy.wa"))
    code = prog.encode()
    assert len(code) % 4 == 0 and code[-4:] == bytes.fromhex("000081bf")


def test_refusals(ctx):
    prog = ctx.parse(".kernel k\n  .target gfx942\n  v_mov_b32 %v0, v1\n  s_endpgm\n.end_kernel\n")
    with pytest.raises(waveasm.ValidationError):
        prog.encode(validate=False)
    with pytest.raises(waveasm.ParseError):
        ctx.disassemble(b"\xff\xff\xff\xff", "gfx942")


def test_emit_object(ctx):
    """Program.emit_object: an ELF shared object for AMDGPU with the kernel's code
    in it; two programs make one object with both descriptors."""
    prog = ctx.parse(read_example("copy.wa"))
    obj = prog.emit_object()
    assert obj[:4] == b"\x7fELF" and obj[4] == 2  # ELF64
    assert int.from_bytes(obj[18:20], "little") == 224  # EM_AMDGPU
    assert prog.encode() in obj
    other = ctx.parse(read_example("copy.wa").replace(".kernel copy_kernel", ".kernel second"))
    both = prog.emit_object(other)
    assert b"copy_kernel.kd" in both and b"second.kd" in both
    with pytest.raises(waveasm.WaveasmError):
        prog.emit_object(prog)  # the same name twice


def test_virtualize_round_trip(ctx):
    """Program.pass_virtualize: an allocated example back to virtual registers
    (no waits left), allocated again by the pipeline, encodes."""
    prog = ctx.parse(read_example("gemm_kloop.wa"))
    stats = prog.pass_virtualize()
    assert stats.changed > 0 and stats.removed > 0
    text = prog.text()
    assert "s_waitcnt" not in text and "%v" in text
    prog.compile()
    assert prog.encode()
