"""check-examples.py --waveasm-opt PATH --examples DIR --tmp DIR
                      [--llvm-mc PATH --ld-lld PATH]

Checks every examples/*.wa, so that a new example is covered without a new
test: it validates on gfx942, gfx950 and gfx90a, printing it is a fixed point,
and (with --llvm-mc and --ld-lld) its assembly, after register allocation,
assembles and links for each target. Prints one line per example and check; exits 1 if any check failed.
"""

import argparse
import glob
import os
import subprocess
import sys

TARGETS = ("gfx942", "gfx950", "gfx90a")


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def check(name, ok, detail=b""):
    print("%s: %s" % ("ok" if ok else "FAILED", name))
    if not ok and detail:
        sys.stdout.write(detail.decode("utf-8", "replace"))
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--waveasm-opt", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--llvm-mc")
    ap.add_argument("--ld-lld")
    args = ap.parse_args()
    os.makedirs(args.tmp, exist_ok=True)
    tool = args.waveasm_opt
    files = sorted(glob.glob(os.path.join(args.examples, "*.wa")))
    good = check("examples found in %s" % args.examples, bool(files))
    for path in files:
        base = os.path.splitext(os.path.basename(path))[0]
        for t in TARGETS:
            rc, _, err = run([tool, "--validate", "--target=" + t, path])
            good &= check("%s validates on %s" % (base, t), rc == 0, err)
        rc, once, err = run([tool, path])
        rc2, twice, err2 = run([tool, "-"], stdin=once)
        good &= check("%s prints to a fixed point" % base, rc == 0 and rc2 == 0 and once == twice,
                      err + err2)
        if not (args.llvm_mc and args.ld_lld):
            continue
        for t in TARGETS:
            stem = os.path.join(args.tmp, "%s.%s" % (base, t))
            # --regalloc-check: allocates (and checks) the virtual registers of
            # kernels that have any; a no-op for physical ones
            rc, _, err = run([tool, "--regalloc-check", "--emit=asm", "--target=" + t, path,
                              "-o", stem + ".s"])
            if rc == 0:
                rc, _, err = run([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + t,
                                  "-filetype=obj", stem + ".s", "-o", stem + ".o"])
            if rc == 0:
                rc, _, err = run([args.ld_lld, "-shared", stem + ".o", "-o", stem + ".so"])
            good &= check("%s assembles and links for %s" % (base, t), rc == 0, err)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
