"""The ctypes declarations against the C headers: every exported function has
a prototype, the package uses it (or says why not), and every struct has the
C layout (checked by compiling offsetof/sizeof with the C compiler)."""

import ctypes
import glob
import os
import re
import subprocess

import pytest

import waveasm
from waveasm import _lib

from conftest import SOURCE_DIR

HEADERS = sorted(glob.glob(os.path.join(SOURCE_DIR, "include", "waveasm", "*.h")))
PACKAGE_DIR = os.path.dirname(waveasm.__file__)

# Declared but not called by the package, and why.
NOT_WRAPPED = {
    # Operands are plain values: Operand builds the struct itself.
    "wa_opnd_none", "wa_opnd_imm", "wa_opnd_fimm", "wa_opnd_phys", "wa_opnd_special",
    "wa_opnd_label", "wa_opnd_off",
    # Family helpers only reorder operands: the generated builders pass table
    # order to wa_build (the lds forms are chosen from the table).
    "wa_build_valu", "wa_build_valu_mods", "wa_build_salu", "wa_build_smem",
    "wa_build_mubuf", "wa_build_global", "wa_build_ds", "wa_build_mfma",
    "wa_build_waitcnt", "wa_build_sopp", "wa_build_hwreg", "wa_build_branch",
    # The Python object keeps its Context; names come from the *_name functions.
    "wa_program_context", "wa_target_from_name", "wa_stage_from_name",
    # Messages are formatted from the diagnostics (test_errors compares them).
    "wa_context_last_error",
    # For C code built on the library that reports on the context (the MLIR
    # front end); Python raises its own exceptions.
    "wa_context_add_diag",
}


def header_functions():
    text = "".join(open(h).read() for h in HEADERS)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return set(re.findall(r"\bWA_API\b[^;{]*?\b(wa_\w+)\s*\(", text))


def test_every_header_function_is_declared():
    assert header_functions() == set(_lib.PROTOTYPES)


def test_every_declared_function_is_used():
    source = "".join(open(p).read() for p in glob.glob(os.path.join(PACKAGE_DIR, "*.py")))
    used = set(re.findall(r"\b(?:_c)?lib\.(wa_\w+)", source))
    assert used | NOT_WRAPPED == set(_lib.PROTOTYPES)
    assert not used & NOT_WRAPPED


def structs():
    """(ctypes struct, C type names from its docstring) for every declared struct."""
    out = []
    for value in vars(_lib).values():
        if isinstance(value, type) and issubclass(value, ctypes.Structure) \
                and value is not ctypes.Structure:
            c_names = re.findall(r"\b(wa_\w+)\b", value.__doc__ or "")
            out.append((value, c_names))
    return out


def test_layouts_match_the_headers(tmp_path):
    cc = os.environ.get("WAVEASM_TEST_CC")
    if not cc:
        pytest.skip("WAVEASM_TEST_CC (the C compiler) not set")
    lines, expected = [], []
    for struct, c_names in structs():
        assert c_names, f"{struct.__name__} names no C type in its docstring"
        for c in c_names:
            lines.append(f'    printf("{c} %zu\\n", sizeof({c}));')
            expected.append(f"{c} {ctypes.sizeof(struct)}")
            for field, _ in struct._fields_:
                cf = _lib.C_FIELD_NAMES.get((struct.__name__, field), field)
                lines.append(f'    printf("{c}.{cf} %zu\\n", offsetof({c}, {cf}));')
                expected.append(f"{c}.{cf} {getattr(struct, field).offset}")
    src = tmp_path / "layout.c"
    src.write_text("#include <stddef.h>\n#include <stdio.h>\n#include <waveasm/waveasm.h>\n"
                   "int main(void)\n{\n" + "\n".join(lines) + "\n    return 0;\n}\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c99", "-I", os.path.join(SOURCE_DIR, "include"), str(src),
                    "-o", str(exe)], check=True)
    got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    assert got.split("\n")[:-1] == expected


def test_library_version_matches_package():
    assert waveasm.library_version() == waveasm.__version__
    assert waveasm.library_path
