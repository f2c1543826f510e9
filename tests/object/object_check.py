#!/usr/bin/env python3
"""The library's code object writer against llvm-mc + ld.lld.

For every kernel (examples/*.wa and tests/object/kernels/*.wa) on gfx90a,
gfx942 and gfx950, with the XNACK/SRAMECC settings, and for objects holding
several kernels: waveasm-opt allocates and emits the assembly, llvm-mc and
ld.lld -shared make the reference code object, wa_object_tool writes ours with
the reference's machine code (.text bytes and label offsets) and we compare:

  * whole file, byte for byte, when ours carries the reference's .comment text;
  * with the library's own .comment: every other section's bytes, the program
    headers, `llvm-readelf --notes`, `llvm-objdump -d`, and `llvm-readelf -a`
    reporting no warning (its output equal to the reference's apart from the
    .comment size and the offsets after it).

Exit 0 on success, 1 on a difference, 77 (skip) without the LLVM tools.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

TARGETS = ("gfx90a", "gfx942", "gfx950")
FEATURES = ("any", "off", "on")


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def sections(path):
    """{name: (type, flags, addr, offset, size, bytes)} and the program headers' bytes."""
    data = open(path, "rb").read()
    phoff, shoff = struct.unpack_from("<QQ", data, 32)
    phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", data, 54)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = {}
    for h in hdrs[1:]:
        end = data.index(b"\0", stroff + h[0])
        name = data[stroff + h[0]:end].decode()
        body = b"" if h[1] == 8 else data[h[4]:h[4] + h[5]]
        out[name] = (h[1], h[2], h[3], h[4], h[5], body)
    return out, data[phoff:phoff + phentsize * phnum]


class Checker:
    def __init__(self, args):
        self.a = args
        self.failures = []
        self.compared = 0
        self.identical = 0

    def fail(self, tag, msg):
        self.failures.append("%s: %s" % (tag, msg))
        print("FAIL %s: %s" % (tag, msg))

    def tool(self, cmd, tag):
        p = run(cmd)
        if p.returncode != 0:
            self.fail(tag, "%s failed:\n%s%s" % (os.path.basename(cmd[0]), p.stdout, p.stderr))
            return None
        return p

    def prepare(self, src, target, xnack, sramecc, base):
        """Allocated IR and its assembly for one kernel; None if it does not
        validate for the target."""
        feats = ["--xnack=" + xnack, "--sramecc=" + sramecc]
        alloc = base + ".alloc.wa"
        p = run([self.a.waveasm_opt, "--target=" + target, "--regalloc-check"] + feats +
                [src, "-o", alloc])
        if p.returncode != 0:
            return None
        p = run([self.a.waveasm_opt, "--emit=asm"] + feats + [alloc, "-o", base + ".s"])
        if p.returncode != 0:
            return None
        return alloc, open(base + ".s").read()

    def check(self, tag, target, xnack, sramecc, allocs, asm, base):
        with open(base + ".s", "w") as f:
            f.write(asm)
        a = self.a
        mattr = ",".join("%s%s" % ("+" if v == "on" else "-", f)
                         for f, v in (("xnack", xnack), ("sramecc", sramecc)) if v != "any")
        if not self.tool([a.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target] +
                         (["-mattr=" + mattr] if mattr else []) +
                         ["-filetype=obj", base + ".s", "-o", base + ".o"], tag):
            return
        ref = base + ".ref.hsaco"
        if not self.tool([a.ld_lld, "-shared", base + ".o", "-o", ref], tag):
            return
        feats = ["--xnack=" + xnack, "--sramecc=" + sramecc]
        same = base + ".same.hsaco"
        ours = base + ".ours.hsaco"
        if not self.tool([a.object_tool, "--ref=" + ref, "--ref-comment"] + feats +
                         ["-o", same] + allocs, tag):
            return
        if not self.tool([a.object_tool, "--ref=" + ref] + feats + ["-o", ours] + allocs, tag):
            return
        self.compared += 1
        rb, sb = open(ref, "rb").read(), open(same, "rb").read()
        if rb == sb:
            self.identical += 1
        else:
            diff = [i for i in range(min(len(rb), len(sb))) if rb[i] != sb[i]]
            self.fail(tag, "whole file differs (sizes %d/%d, %d bytes differ, first at 0x%x)" %
                      (len(rb), len(sb), len(diff), diff[0] if diff else min(len(rb), len(sb))))
        # our own .comment: everything else equal
        rs, rph = sections(ref)
        os_, oph = sections(ours)
        if sorted(rs) != sorted(os_):
            self.fail(tag, "sections %s vs %s" % (sorted(rs), sorted(os_)))
            return
        if rph != oph:
            self.fail(tag, "program headers differ")
        for name in rs:
            if name == ".comment":
                continue
            r, o = rs[name], os_[name]
            if r[:3] != o[:3] or r[4] != o[4] or r[5] != o[5]:
                self.fail(tag, "section %s differs" % name)
        # the tools' views
        ra = run([a.llvm_readelf, "-a", ref])
        oa = run([a.llvm_readelf, "-a", ours])
        if oa.returncode != 0 or "warning" in (oa.stdout + oa.stderr).lower():
            self.fail(tag, "llvm-readelf -a warns on our object:\n%s" % oa.stderr)
        if normalise_readelf(ra.stdout, ref) != normalise_readelf(oa.stdout, ours):
            self.fail(tag, "llvm-readelf -a differs beyond .comment")
        rn = run([a.llvm_readelf, "--notes", ref]).stdout
        on = run([a.llvm_readelf, "--notes", ours]).stdout
        if rn != on or "NT_AMDGPU_METADATA" not in on:
            self.fail(tag, "llvm-readelf --notes differs")
        rd = run([a.llvm_objdump, "-d", ref]).stdout.replace(ref, "X")
        od = run([a.llvm_objdump, "-d", ours]).stdout.replace(ours, "X")
        if rd != od or "s_endpgm" not in od:
            self.fail(tag, "llvm-objdump -d differs")


def normalise_readelf(text, path):
    """llvm-readelf -a output with what the .comment text moves blanked out: the
    section header offset, the offsets of the sections from .comment on, and
    .comment's size."""
    text = text.replace(path, "X")
    text = re.sub(r"(Start of section headers:\s+)\d+", r"\1N", text)
    text = re.sub(r"(starting at offset )0x[0-9a-f]+", r"\1N", text)
    out = []
    for line in text.splitlines():
        m = re.match(r"(\s*\[\s*\d+\] )(\.comment|\.symtab|\.shstrtab|\.strtab)(\s+\S+\s+\S+) "
                     r"(\S+) (\S+)(.*)$", line)
        if m:
            size = "S" if m.group(2) == ".comment" else m.group(5)
            line = "%s%s%s N %s%s" % (m.group(1), m.group(2), m.group(3), size, m.group(6))
        out.append(line)
    return "\n".join(out)


def combine(asms):
    """One assembly file for several kernels: the first file's target lines, each
    file's code and descriptor, one metadata block listing every kernel."""
    head, bodies, kernels, tail = None, [], [], None
    for text in asms:
        i = text.index("\t.text\n")
        j = text.index("\t.amdgpu_metadata\n")
        if head is None:
            head = text[:i]
        bodies.append(text[i:j])
        md = text[j:]
        k0 = md.index("amdhsa.kernels:\n") + len("amdhsa.kernels:\n")
        k1 = md.index("amdhsa.target:")
        kernels.append(md[k0:k1])
        if tail is None:
            tail = md[k1:]
    return (head + "".join(bodies) + "\t.amdgpu_metadata\n---\namdhsa.kernels:\n" +
            "".join(kernels) + tail)


def renamed(src, dst, name):
    text = open(src).read()
    text = re.sub(r"^\.kernel \S+", ".kernel " + name, text, count=1, flags=re.M)
    with open(dst, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("work-dir", "waveasm-opt", "object-tool", "examples-dir", "kernels-dir",
                "llvm-mc", "ld-lld", "llvm-readelf", "llvm-objdump", "skip-reason"):
        ap.add_argument("--" + opt, dest=opt.replace("-", "_"), default="")
    a = ap.parse_args()
    if a.skip_reason:
        print("SKIP: " + a.skip_reason)
        return 77
    for t in ("llvm_mc", "ld_lld", "llvm_readelf", "llvm_objdump"):
        if not getattr(a, t) or not shutil.which(getattr(a, t)):
            print("SKIP: %s not found" % t.replace("_", "-"))
            return 77
    os.makedirs(a.work_dir, exist_ok=True)
    c = Checker(a)
    srcs = [os.path.join(a.examples_dir, f) for f in sorted(os.listdir(a.examples_dir))
            if f.endswith(".wa")]
    srcs += [os.path.join(a.kernels_dir, f) for f in sorted(os.listdir(a.kernels_dir))
             if f.endswith(".wa")]
    required = ("gfx942", "gfx950")

    # every kernel alone on every target (features any), every feature pair for two
    settings = [(t, "any", "any") for t in TARGETS]
    full = [(t, x, s) for t in TARGETS for x in FEATURES for s in FEATURES]
    prepared = {}
    for src in srcs:
        stem = os.path.basename(src)[:-3]
        for target, xnack, sramecc in (full if stem in ("copy", "abi_inputs") else settings):
            tag = "%s %s xnack=%s sramecc=%s" % (stem, target, xnack, sramecc)
            base = os.path.join(a.work_dir, "%s-%s-%s-%s" % (stem, target, xnack, sramecc))
            got = c.prepare(src, target, xnack, sramecc, base)
            if got is None:
                if target in required:
                    c.fail(tag, "waveasm-opt failed")
                else:
                    print("skip %s: does not validate" % tag)
                continue
            prepared[(stem, target, xnack, sramecc)] = got
            c.check(tag, target, xnack, sramecc, [got[0]], got[1], base)

    # several kernels in one object: all kernels of the corpus, then a set
    # large enough for several GNU hash buckets (the copy kernel renamed)
    for target in TARGETS:
        # kernels whose labels do not clash (llvm-mc would refuse a second definition)
        group, labels = [], set()
        for k in sorted(prepared):
            if k[1:] != (target, "any", "any"):
                continue
            mine = set(re.findall(r"^(\w+):", prepared[k][1], re.M))
            if not mine & labels:
                group.append(prepared[k])
                labels |= mine
        if len(group) >= 2:
            base = os.path.join(a.work_dir, "all-%s" % target)
            c.check("all kernels %s" % target, target, "any", "any", [g[0] for g in group],
                    combine([g[1] for g in group]), base)
    many = []
    for i in range(13):
        name = "k%02d_%s" % (i, "x" * (i * 3))
        src = os.path.join(a.work_dir, "%s.wa" % name)
        renamed(os.path.join(a.examples_dir, "copy.wa"), src, name)
        got = c.prepare(src, "gfx950", "on", "off", os.path.join(a.work_dir, name))
        if got is None:
            c.fail(name, "waveasm-opt failed")
            continue
        many.append(got)
    c.check("13 kernels gfx950", "gfx950", "on", "off", [g[0] for g in many],
            combine([g[1] for g in many]), os.path.join(a.work_dir, "many"))

    print("objects compared: %d, whole-file identical (with the linker's .comment): %d"
          % (c.compared, c.identical))
    if c.failures:
        print("%d failures" % len(c.failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
