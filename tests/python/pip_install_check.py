#!/usr/bin/env python3
"""Installs the Python package with pip, offline, into a temporary directory
and imports it from there:

  1. `pip install --no-build-isolation --no-index --target DIR` of a copy of the
     package source; the import finds the library through $WAVEASM_LIBRARY;
  2. the same with the library copied into the package: the import finds it
     there, with $WAVEASM_LIBRARY unset.

Exit code 77 (skip) only when pip itself is unavailable.
"""

import argparse
import os
import shutil
import subprocess
import sys

# Runs in the installed package, away from the source tree.
IMPORT_CHECK = """
import os, sys, waveasm
site = os.path.realpath(sys.argv[1])
assert os.path.realpath(waveasm.__file__).startswith(site), waveasm.__file__
if sys.argv[2] == "bundled":
    assert os.path.realpath(waveasm.library_path).startswith(site), waveasm.library_path
prog = waveasm.parse(".kernel k\\n  s_endpgm\\n.end_kernel\\n")
prog.validate()
print("imported", waveasm.__version__, "from", os.path.dirname(waveasm.__file__),
      "library", waveasm.library_path, "items", len(prog))
"""


def run(cmd, **kwargs):
    """Runs a command, echoing it; raises on failure."""
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


def install(source, work, name, library=None):
    """Copies the package source, optionally with the library inside it, and
    pip-installs the copy into work/<name>-site. Returns that directory."""
    src = os.path.join(work, f"{name}-src")
    site = os.path.join(work, f"{name}-site")
    # pip builds in place: a copy keeps build/ and *.egg-info out of the source.
    shutil.copytree(source, src, ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "__pycache__", "*.pyc", "libwaveasm.so*"))
    if library:
        shutil.copy2(library, os.path.join(src, "waveasm", os.path.basename(library)))
    run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index",
         "--no-cache-dir", "--disable-pip-version-check", "--quiet", "--target", site, src],
        cwd=work, env=dict(os.environ, PIP_ROOT_USER_ACTION="ignore"))
    return site


def check_import(site, work, mode, env):
    """Imports the package installed in `site` in a fresh interpreter."""
    env = dict(env, PYTHONPATH=site)
    run([sys.executable, "-c", IMPORT_CHECK, site, mode], cwd=work, env=env)


def main():
    """Installs twice and imports each installation."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True, help="the package directory (pyproject.toml)")
    ap.add_argument("--work-dir", required=True, help="emptied and used for the installs")
    ap.add_argument("--library", required=True, help="the built libwaveasm.so")
    ap.add_argument("--skip", help="report this reason and skip")
    args = ap.parse_args()
    if args.skip:
        print(f"SKIP: {args.skip}")
        return 77
    if subprocess.run([sys.executable, "-m", "pip", "--version"],
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        print(f"SKIP: pip is not available to {sys.executable} (Debian: python3-pip)")
        return 77

    work = os.path.abspath(args.work_dir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "WAVEASM_LIBRARY")}

    site = install(args.source, work, "plain")
    check_import(site, work, "env", dict(env, WAVEASM_LIBRARY=os.path.abspath(args.library)))
    site = install(args.source, work, "bundled", library=args.library)
    check_import(site, work, "bundled", env)
    print("pip install: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
