"""Shared fixtures of the Python binding tests.

The environment comes from tests/python/CMakeLists.txt: WAVEASM_LIBRARY (the
built library), PYTHONPATH (bindings/python), WAVEASM_TEST_SOURCE_DIR (the
repository), WAVEASM_TEST_CC (the C compiler), WAVEASM_TEST_LLVM_MC (llvm-mc,
when the toolchain tests are on).
"""

import os
import shutil
import subprocess

import pytest

import waveasm

SOURCE_DIR = os.environ.get(
    "WAVEASM_TEST_SOURCE_DIR",
    os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)))
EXAMPLES_DIR = os.path.join(SOURCE_DIR, "examples")
PY_EXAMPLES_DIR = os.path.join(SOURCE_DIR, "bindings", "python", "examples")

# Loads, waits for them, adds, stores: small and valid on every target.
LANE_ADD = """\
.kernel lane_add
  .target gfx942
  .abi kernarg_ptr, workitem_id_x
  .arg out, global_buffer, offset:0, size:8, align:8
  s_load_dwordx2 %s0<2,align=2>, s[0:1], 0
  v_lshlrev_b32 %v1, 2, v0                      ; byte offset
  v_add_u32 %v2, 1, v0
  s_waitcnt lgkmcnt(0)
  global_store_dword %v1, %v2, %s0
  s_endpgm
.end_kernel
"""


def example(name):
    """Path of examples/<name>."""
    return os.path.join(EXAMPLES_DIR, name)


def read_example(name):
    """Text of examples/<name>."""
    with open(example(name)) as f:
        return f.read()


def llvm_mc():
    """Path of llvm-mc-22, or skip the test."""
    mc = os.environ.get("WAVEASM_TEST_LLVM_MC") or shutil.which("llvm-mc-22")
    if not mc:
        pytest.skip("llvm-mc-22 not found (or the LLVM tests are off)")
    return mc


def assemble(asm, target, tmp_path, name="kernel"):
    """Assembles `asm` with llvm-mc for `target`; returns the object path."""
    src, obj = tmp_path / f"{name}.s", tmp_path / f"{name}.o"
    src.write_text(asm)
    r = subprocess.run([llvm_mc(), "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}",
                        "-filetype=obj", str(src), "-o", str(obj)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return obj


@pytest.fixture
def ctx():
    """A fresh gfx942 context, closed after the test."""
    with waveasm.Context("gfx942") as c:
        yield c


@pytest.fixture
def lane_add(ctx):
    """The LANE_ADD kernel parsed in `ctx`."""
    return ctx.parse(LANE_ADD, file_name="lane_add.wa")
