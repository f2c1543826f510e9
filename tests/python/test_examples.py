"""The examples in bindings/python/examples run and say what they should; the
copy kernel's assembly goes through llvm-mc."""

import os
import re
import subprocess
import sys

import pytest

from conftest import PY_EXAMPLES_DIR, assemble


def run_example(name, *args):
    r = subprocess.run([sys.executable, os.path.join(PY_EXAMPLES_DIR, name), *args],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("target", ["gfx942", "gfx950", "gfx90a"])
def test_copy_kernel(target, tmp_path):
    r = run_example("copy_kernel.py", "--target", target)
    asm = r.stdout
    assert "simulated copy ok" in r.stderr
    assert f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"' in asm
    assert asm.count("buffer_load_dwordx4") == 2 and asm.count("buffer_store_dwordx4") == 2
    assert "s_waitcnt lgkmcnt(0)" in asm and "vmcnt(" in asm
    assert re.search(r"s_mov_b32 s\d+, 0x20000", asm)       # the SRD format word
    assert ".amdhsa_kernel copy_kernel" in asm
    assemble(asm, target, tmp_path, "copy_kernel")


def test_copy_kernel_output_file(tmp_path):
    out = tmp_path / "copy.s"
    r = run_example("copy_kernel.py", "-o", str(out))
    assert r.stdout == "" and ".end_amdhsa_kernel" in out.read_text()


def stats_of(output):
    """The "name: text" lines of gemm_alloc's output."""
    return dict(line.split(":", 1) for line in output.splitlines())


def test_gemm_alloc():
    r = run_example("gemm_alloc.py")
    s = stats_of(r.stdout)
    assert set(s) >= {"kernel", "pressure", "too tight", "allocation", "mapping", "passes",
                      "resources", "simulation"}
    assert "AGPR 16" in s["pressure"] and "AGPRs 16" in s["allocation"]
    peak_vgprs = int(re.search(r"peak VGPRs (\d+)", s["allocation"]).group(1))
    pressure_vgprs = int(re.search(r"VGPR (\d+)", s["pressure"]).group(1))
    assert peak_vgprs == pressure_vgprs
    assert "cannot allocate %a" in s["too tight"]
    assert s["simulation"].endswith("max |C - A*B| = 0.0")


def test_gemm_alloc_other_shapes():
    r = run_example("gemm_alloc.py", "--tile", "1", "4", "-k", "32", "--target", "gfx950")
    assert "16x64 tile" in r.stdout and "max |C - A*B| = 0.0" in r.stdout


def test_readme_example(capsys):
    """The first Python block of bindings/python/README.md runs as shown."""
    readme = os.path.join(PY_EXAMPLES_DIR, os.pardir, "README.md")
    with open(readme) as f:
        code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
    exec(compile(code, readme, "exec"), {})
    out = capsys.readouterr().out
    assert "waits inserted" in out and ".amdhsa_kernel lane_ids" in out
