"""Compares waveasm-opt --emit=obj (the code object made in process) with what
llvm-mc + ld.lld -shared make from the emitted assembly, for every kernel given
and every target: headers, program headers, symbols, dynamic symbols, notes
(metadata), and the bytes of .text, .rodata (kernel descriptors), .dynsym,
.dynstr, .hash/.gnu.hash and .dynamic must be equal; `llvm-readelf -a` must
print no warning for ours. Only .comment (the producer's name) may differ.

  compare-object.py OPT MC LLD READELF OUTDIR KERNEL.wa... [--targets=a,b]
Exit status 1 with the differences on the first mismatch."""
import os
import subprocess
import sys

SECTIONS = [".text", ".rodata", ".dynsym", ".dynstr", ".gnu.hash", ".hash", ".dynamic", ".note"]


def run(args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("command failed: %s\n%s%s" % (" ".join(args), p.stdout, p.stderr))
    return p.stdout + p.stderr


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--targets=")]
    targets = ["gfx90a", "gfx942", "gfx950"]
    for a in sys.argv[1:]:
        if a.startswith("--targets="):
            targets = a[len("--targets="):].split(",")
    opt, mc, lld, readelf, outdir = args[:5]
    kernels = args[5:]
    os.makedirs(outdir, exist_ok=True)
    compared = 0
    for k in kernels:
        name = os.path.splitext(os.path.basename(k))[0]
        for t in targets:
            base = os.path.join(outdir, "%s.%s" % (name, t))
            run([opt, "--target=" + t, "--pipeline=default", k, "-o", base + ".wa"])
            run([opt, "--emit=obj", base + ".wa", "-o", base + ".ours.hsaco"])
            run([opt, "--emit=asm", base + ".wa", "-o", base + ".s"])
            run([mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + t, "-filetype=obj", base + ".s",
                 "-o", base + ".o"])
            run([lld, "-shared", base + ".o", "-o", base + ".ref.hsaco"])
            views = [["-h", "-l", "-s", "--dyn-syms", "--notes"]] + [["-x", s] for s in SECTIONS]
            for v in views:
                ours = run([readelf] + v + [base + ".ours.hsaco"]).replace(".ours.hsaco", "")
                ref = run([readelf] + v + [base + ".ref.hsaco"]).replace(".ref.hsaco", "")
                # the section header table follows .comment, whose text differs
                ours = "\n".join(l for l in ours.splitlines() if "Start of section headers" not in l)
                ref = "\n".join(l for l in ref.splitlines() if "Start of section headers" not in l)
                if ours != ref:
                    sys.exit("%s %s: llvm-readelf %s differs:\n--- ours\n%s\n--- llvm-mc + ld.lld\n%s"
                             % (name, t, " ".join(v), ours, ref))
            full = run([readelf, "-a", base + ".ours.hsaco"])
            if "warning" in full.lower():
                sys.exit("%s %s: llvm-readelf -a warns:\n%s" % (name, t, full))
            compared += 1
    print("compare-object: %d code objects equal to llvm-mc + ld.lld's" % compared)


main()
