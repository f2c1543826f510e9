#!/usr/bin/env python3
"""Toolchain checks for libwaveasm against LLVM's AMDGPU assembler and linker.

Subcommands (each prints a summary and exits 0 on success, 1 on failure,
77 when the LLVM tools are unavailable so ctest reports the test as skipped):

  isa       every opcode x target from wa_isa_samples: accepted lines assemble,
            rejected lines fail, opcode fields match the ISA table
  examples  examples/*.wa through waveasm-opt (register allocation, then
            assembly), llvm-mc, ld.lld; notes, ELF header
            and kernel descriptor bytes against wa_kernel_resources_compute
  encode    wa_encode_program's bytes for every accepted isa sample line (and random
            operand sets) against llvm-mc's, plus the disassembly round trip
  kernels   every .wa kernel of the given directories through waveasm-opt: --emit=bin
            against llvm-mc's .text of --emit=asm
  sweep     descriptor sweep from wa_kd_sweep: every descriptor field vs the library
  fuzz      validator differential fuzz from wa_validator_fuzz

Only the Python standard library is used. Tool paths come from the command line.
"""

import argparse
import os
import re
import struct
import subprocess
import sys
from collections import Counter

SKIP = 77
TARGETS = ("gfx90a", "gfx942", "gfx950")
LABEL = "wa_tgt"  # branch target used by the generated samples (tc_common.h)


def skip(reason):
    print("skipped: %s" % reason)
    sys.exit(SKIP)


def need_tools(args, names):
    if getattr(args, "skip_reason", None):
        skip(args.skip_reason)
    for name in names:
        path = getattr(args, name, None)
        if not path or path.endswith("NOTFOUND") or not os.path.exists(path):
            skip("%s not found" % name.replace("_", "-"))


def run(cmd, stdin_text=None):
    return subprocess.run(cmd, input=stdin_text, capture_output=True, text=True)


# ---- llvm-mc ---------------------------------------------------------------------------

def mc_encode(llvm_mc, target, lines):
    """Assembles `lines` (one instruction each) with -show-encoding.

    Returns (encodings, errors): encodings[i] lists the encodings llvm-mc printed for
    line i (normally one), each a list of bytes with None for fixup bytes; errors
    maps line index -> first error message (-1: an error on no sample line)."""
    text = [LABEL + ":"]
    for i, line in enumerate(lines):
        text.append(".Lwa_m%d:" % i)
        text.append("\t" + line)
    p = run([llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-show-encoding"],
            "\n".join(text) + "\n")
    encodings = [[] for _ in lines]
    current = None
    marker = re.compile(r"^\.Lwa_m(\d+):")
    for out in p.stdout.splitlines():
        m = marker.match(out)
        if m:
            current = int(m.group(1))
            continue
        if "; encoding: [" in out and current is not None:
            raw = out.split("; encoding: [", 1)[1].split("]", 1)[0]
            bs = []
            for tok in raw.split(","):
                tok = tok.strip()
                bs.append(int(tok, 16) if tok.startswith("0x") else None)
            encodings[current].append(bs)
    errors = {}
    # Input line numbers: 1 is the label, then marker/instruction pairs.
    for m in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", p.stderr, re.M):
        ln = int(m.group(1))
        idx = (ln - 3) // 2 if ln >= 3 and ln % 2 == 1 else None
        if idx is not None and 0 <= idx < len(lines):
            errors.setdefault(idx, m.group(2))
        else:
            errors.setdefault(-1, "line %d: %s" % (ln, m.group(2)))
    return encodings, errors


def mc_errors(llvm_mc, target, lines):
    """Line index -> first error for lines assembled without markers."""
    text = [LABEL + ":"] + ["\t" + l for l in lines]
    p = run([llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-filetype=null"],
            "\n".join(text) + "\n")
    errors = {}
    for m in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", p.stderr, re.M):
        idx = int(m.group(1)) - 2
        errors.setdefault(idx, m.group(2))
    return errors


# ---- opcode fields ---------------------------------------------------------------------

def dword(bs, i):
    v = 0
    for k in range(4):
        b = bs[4 * i + k] if 4 * i + k < len(bs) else None
        v |= (b if isinstance(b, int) else 0) << (8 * k)
    return v


def family(dw0):
    """Encoding family of an instruction from its first dword (ISA reference §6.1)."""
    top9 = dw0 >> 23
    if top9 == 0x17D:
        return "SOP1"
    if top9 == 0x17E:
        return "SOPC"
    if top9 == 0x17F:
        return "SOPP"
    if top9 == 0x1A7:
        return "VOP3P"
    if dw0 >> 28 == 0xB:
        return "SOPK"
    if dw0 >> 30 == 0x2:
        return "SOP2"
    top6 = dw0 >> 26
    fam6 = {0x30: "SMEM", 0x34: "VOP3", 0x36: "DS", 0x37: "FLAT", 0x38: "MUBUF"}
    if top6 in fam6:
        return fam6[top6]
    if dw0 >> 25 == 0x3F:
        return "VOP1"
    if dw0 >> 25 == 0x3E:
        return "VOPC"
    if dw0 >> 31 == 0:
        return "VOP2"
    return "?"


OP_FIELD = {
    "SOP1": (8, 0xFF), "SOP2": (23, 0x7F), "SOPK": (23, 0x1F), "SOPC": (16, 0x7F),
    "SOPP": (16, 0x7F), "SMEM": (18, 0xFF), "VOP1": (9, 0xFF), "VOP2": (25, 0x3F),
    "VOPC": (17, 0xFF), "VOP3": (16, 0x3FF), "VOP3P": (16, 0x7F), "DS": (17, 0xFF),
    "MUBUF": (18, 0x7F), "FLAT": (18, 0x7F),
}

# VOP3 opcode of an instruction whose row holds the 32-bit opcode.
VOP3_BASE = {"VOPC": 0x000, "VOP2": 0x100, "VOP1": 0x140}


def check_opcode(fmt, expected, encodings):
    """Returns None if the opcode field of the line's single encoding matches the
    table, else a message."""
    if not encodings:
        return "no encoding"
    if len(encodings) > 1:
        return "one line produced %d instructions" % len(encodings)
    bs = encodings[0]
    nbytes = len(bs)
    first = 0
    if fmt == "MAI" and nbytes == 16:
        # Scaled MFMA: v_mfma_ld_scale_b32 prefix, then the MFMA.
        if family(dword(bs, 0)) != "VOP3P":
            return "scaled MFMA prefix is not VOP3P"
        first = 2
    dw0 = dword(bs, first)
    fam = family(dw0)
    want = {"GLOBAL": "FLAT", "SCRATCH": "FLAT", "MAI": "VOP3P"}.get(fmt, fmt)
    exp = expected
    if fam != want:
        if fmt in VOP3_BASE and fam == "VOP3":
            exp = VOP3_BASE[fmt] + expected
        else:
            return "encoded as %s, table format %s" % (fam, fmt)
    segment = {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}
    if fam == "FLAT" and fmt in segment and (dw0 >> 14) & 3 != segment[fmt]:
        return "FLAT segment %d, expected %d (%s)" % ((dw0 >> 14) & 3, segment[fmt],
                                                      fmt.lower())
    shift, mask = OP_FIELD[fam]
    got = (dw0 >> shift) & mask
    if got != exp:
        return "opcode field 0x%x (%s), table says 0x%x" % (got, fam, exp)
    return None


def check_dpp(expected, encodings):
    """A DPP line: src0 of the first dword is the DPP marker 0xFA and the second
    dword is the DPP word the table and modifiers give, byte for byte."""
    bs = encodings[0]
    if len(bs) != 8:
        return "DPP line encoded in %d bytes, expected 8" % len(bs)
    if bs[0] != 0xFA or (dword(bs, 0) & 0x1FF) != 0xFA:
        return "src0 field 0x%x, expected the DPP marker 0xfa" % (dword(bs, 0) & 0x1FF)
    got = dword(bs, 1)
    if got != expected:
        return "DPP dword 0x%08x, expected 0x%08x" % (got, expected)
    return None


# ---- ELF (64-bit little-endian, as AMDGPU code objects are) -----------------------------

EM_AMDGPU = 224
ELFOSABI_AMDGPU_HSA = 64
ABI_VERSION_V5 = 3
MACH = {"gfx90a": 0x3F, "gfx942": 0x4C, "gfx950": 0x4F}


class Elf:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if d[:4] != b"\x7fELF" or d[4] != 2 or d[5] != 1:
            raise ValueError("%s: not a 64-bit little-endian ELF file" % path)
        self.osabi = d[7]
        self.abiversion = d[8]
        (self.e_type, self.e_machine, _, _, _, shoff, self.e_flags, _, _, _, shentsize, shnum,
         shstrndx) = struct.unpack_from("<HHIQQQIHHHHHH", d, 16)
        self.sections = []
        for i in range(shnum):
            (name, stype, flags, addr, off, size, link, info, align,
             entsize) = struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize)
            self.sections.append(dict(name_off=name, type=stype, addr=addr, offset=off,
                                      size=size, link=link, entsize=entsize))
        strtab = self.sections[shstrndx]
        for sec in self.sections:
            sec["name"] = self._cstr(strtab["offset"] + sec["name_off"])
        self.symbols = {}
        for sec in self.sections:
            if sec["type"] != 2:  # SHT_SYMTAB
                continue
            names = self.sections[sec["link"]]
            for k in range(sec["size"] // 24):
                name, info, other, shndx, value, size = struct.unpack_from(
                    "<IBBHQQ", d, sec["offset"] + 24 * k)
                nm = self._cstr(names["offset"] + name)
                if nm:
                    self.symbols[nm] = dict(shndx=shndx, value=value, size=size)

    def _cstr(self, off):
        end = self.data.index(b"\0", off)
        return self.data[off:end].decode("utf-8", "replace")

    def section(self, name):
        for sec in self.sections:
            if sec["name"] == name:
                return sec
        return None

    def symbol_offset(self, name):
        """File offset of a symbol's bytes (relocatable object or linked image)."""
        sym = self.symbols.get(name)
        if sym is None:
            return None
        if self.e_type == 1:  # ET_REL: value is an offset in its section
            return self.sections[sym["shndx"]]["offset"] + sym["value"]
        for sec in self.sections:
            if sec["type"] != 8 and sec["addr"] <= sym["value"] < sec["addr"] + sec["size"]:
                return sec["offset"] + sym["value"] - sec["addr"]
        return None

    def symbol_section(self, name):
        sym = self.symbols.get(name)
        if sym is None or not (0 < sym["shndx"] < len(self.sections)):
            return None
        return self.sections[sym["shndx"]]["name"]


KD_FIELDS = (
    # name, byte offset, size
    ("group_segment_size", 0, 4),
    ("private_segment_size", 4, 4),
    ("kernarg_size", 8, 4),
    ("rsrc3", 44, 4),
    ("rsrc1", 48, 4),
    ("rsrc2", 52, 4),
    ("kernel_code_properties", 56, 2),
    ("kernarg_preload", 58, 2),
)


def read_kd(elf, kernel):
    off = elf.symbol_offset(kernel + ".kd")
    if off is None:
        return None
    raw = elf.data[off:off + 64]
    kd = {}
    for name, pos, size in KD_FIELDS:
        kd[name] = int.from_bytes(raw[pos:pos + size], "little")
    kd["entry_offset"] = int.from_bytes(raw[16:24], "little", signed=True)
    return kd


def check_elf_header(elf, target, what):
    errs = []
    if elf.e_machine != EM_AMDGPU:
        errs.append("%s: e_machine %d, expected EM_AMDGPU (%d)" % (what, elf.e_machine, EM_AMDGPU))
    if elf.osabi != ELFOSABI_AMDGPU_HSA:
        errs.append("%s: OS/ABI %d, expected AMDGPU_HSA (%d)" % (what, elf.osabi,
                                                                ELFOSABI_AMDGPU_HSA))
    if elf.abiversion != ABI_VERSION_V5:
        errs.append("%s: ABI version %d, expected %d (code object v5)" % (
            what, elf.abiversion, ABI_VERSION_V5))
    if elf.e_flags & 0xFF != MACH[target]:
        errs.append("%s: e_flags mach 0x%02x, expected 0x%02x for %s" % (
            what, elf.e_flags & 0xFF, MACH[target], target))
    return errs


# ---- known issues ----------------------------------------------------------------------

def load_known(path):
    """Known disagreements: `target-regex <TAB> line-regex <TAB> explanation`."""
    known = []
    if not path or not os.path.exists(path):
        return known
    with open(path) as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) < 3:
                continue
            known.append((re.compile(parts[0] + r"\Z"), re.compile(parts[1]), parts[2]))
    return known


def match_known(known, target, line):
    for tre, lre, why in known:
        if tre.match(target) and lre.search(line):
            return why
    return None


# ---- isa ---------------------------------------------------------------------------------

def read_samples(path):
    recs = []
    with open(path) as f:
        for raw in f:
            parts = raw.rstrip("\n").split("\t")
            if len(parts) not in (7, 8):
                continue
            kind, opnum, ident, fmt, enc, variant, asm = parts[:7]
            dpp = int(parts[7], 16) if len(parts) == 8 else None
            recs.append(dict(kind=kind, op=int(opnum), id=ident, fmt=fmt, enc=int(enc, 16),
                             variant=variant, asm=asm, dpp=dpp))
    return recs


def run_samples(args, extra):
    """Runs wa_isa_samples into the work directory; False (reported) on failure."""
    need_tools(args, ["llvm_mc", "samples_tool"])
    os.makedirs(args.work_dir, exist_ok=True)
    cmd = [args.samples_tool, "--out-dir", args.work_dir] + extra
    if args.count is not None:
        cmd += ["--random", str(args.count)]
    if args.seed is not None:
        cmd += ["--seed", str(args.seed)]
    p = run(cmd)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        print("FAIL: wa_isa_samples reported failures")
        return False
    return True


def cmd_isa(args):
    if not run_samples(args, []):
        return 1
    known = load_known(args.known_issues)
    failures = 0
    xfail, xfail_examples = Counter(), {}
    total = Counter()
    opcodes = set()
    stricter = []
    for target in TARGETS:
        recs = read_samples(os.path.join(args.work_dir, "isa-%s.tsv" % target))
        acc = [r for r in recs if r["kind"] == "A"]
        rej = [r for r in recs if r["kind"] == "R"]
        strict = [r for r in recs if r["kind"] == "S"]
        must = [r for r in recs if r["kind"] == "V"]
        for r in recs:
            opcodes.add(r["op"])
        encs, errs = mc_encode(args.llvm_mc, target, [r["asm"] for r in acc])
        if -1 in errs:
            print("FAIL: %s: unexpected assembler error: %s" % (target, errs[-1]))
            failures += 1
        acc_ops, enc_checked = set(), 0
        for i, r in enumerate(acc):
            if i in errs:
                why = match_known(known, target, r["asm"])
                if why:
                    xfail[why] += 1
                    xfail_examples.setdefault(why, "%s: %s" % (target, r["asm"]))
                else:
                    failures += 1
                    print("FAIL %s: llvm-mc rejects %s [%s %s]: %s" % (
                        target, r["asm"], r["id"], r["variant"], errs[i]))
                continue
            msg = check_opcode(r["fmt"], r["enc"], encs[i])
            if not msg and r["dpp"] is not None:
                msg = check_dpp(r["dpp"], encs[i])
                if not msg:
                    total["dpp"] += 1
            if msg:
                failures += 1
                print("FAIL %s: %s [%s]: %s" % (target, r["asm"], r["id"], msg))
                continue
            enc_checked += 1
            if r["variant"] == "base":
                acc_ops.add(r["op"])
        rerrs = mc_errors(args.llvm_mc, target, [r["asm"] for r in rej])
        rej_ok = Counter()
        for i, r in enumerate(rej):
            if i not in rerrs:
                failures += 1
                print("FAIL %s: llvm-mc accepts %s [%s, %s], which must be rejected" % (
                    target, r["asm"], r["id"], r["variant"]))
            else:
                rej_ok["renamed" if r["variant"] == "gfx942-spelling" else "unavailable"] += 1
        aliases = sum(1 for i, r in enumerate(acc)
                      if r["variant"] == "gfx90a-spelling" and i not in errs)
        serrs = mc_errors(args.llvm_mc, target, [r["asm"] for r in strict])
        for i, r in enumerate(strict):
            if i not in serrs:
                stricter.append((target, r))
        # completed families: what the validator rejects, llvm-mc rejects too
        verrs = mc_errors(args.llvm_mc, target, [r["asm"] for r in must])
        for i, r in enumerate(must):
            if i not in verrs:
                why = match_known(known, target, r["asm"])
                if why:
                    xfail[why] += 1
                    xfail_examples.setdefault(why, "%s: %s" % (target, r["asm"]))
                    continue
                failures += 1
                print("FAIL %s: the validator rejects %s [%s, %s], llvm-mc accepts it" % (
                    target, r["asm"], r["id"], r["variant"]))
        total["must_reject"] += len(must)
        total["accepted"] += len(acc)
        total["rejected"] += len(rej)
        total["encodings"] += enc_checked
        total["pairs"] += len(acc_ops)
        total["unavailable"] += rej_ok["unavailable"]
        print("%-6s  %3d opcodes assemble with the table's opcode (%4d lines, %4d opcode fields "
              "checked); %2d unavailable opcodes rejected; renamed MFMAs: %d gfx942 spellings "
              "rejected, %d gfx90a spellings accepted" % (
                  target, len(acc_ops), len(acc), enc_checked, rej_ok["unavailable"],
                  rej_ok["renamed"], aliases))
    for why, n in sorted(xfail.items()):
        print("XFAIL (%d lines, e.g. %s): %s" % (n, xfail_examples[why], why))
    # the families not completed yet: counted per family, a few examples each
    by_fam = Counter(r["fmt"] for _, r in stricter)
    shown = Counter()
    for target, r in stricter:
        if args.verbose or shown[r["fmt"]] < 3:
            shown[r["fmt"]] += 1
            print("note: validator rejects %s on %s, llvm-mc accepts it (%s)" % (
                r["asm"], target, r["variant"]))
    if by_fam:
        print("validator-stricter instances of families not completed yet: " +
              ", ".join("%s %d" % kv for kv in sorted(by_fam.items())))
    print("isa: %d opcodes x %d targets: %d (opcode, target) pairs assemble, %d unavailable "
          "pairs rejected; %d lines accepted, %d rejected, %d encodings checked (%d DPP words "
          "byte for byte), %d rejected instances of completed families also rejected by "
          "llvm-mc, %d known-issue lines, %d validator-stricter variants, %d failures" % (
              len(opcodes), len(TARGETS), total["pairs"], total["unavailable"],
              total["accepted"], total["rejected"], total["encodings"], total["dpp"],
              total["must_reject"], sum(xfail.values()), len(stricter), failures))
    return 1 if failures else 0


# ---- in-process encoder ----------------------------------------------------------------------

def cmd_encode(args):
    """wa_encode_program's bytes against llvm-mc's for every accepted sample line
    (the table's base instances, variants and random operand sets) on every target."""
    if not run_samples(args, ["--encode"]):
        return 1
    known = load_known(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "encode_known.tsv"))
    failures = 0
    grand = 0
    xfail = Counter()
    for target in TARGETS:
        recs = []
        with open(os.path.join(args.work_dir, "enc-%s.tsv" % target)) as f:
            for raw in f:
                parts = raw.rstrip("\n").split("\t")
                if len(parts) == 3:
                    recs.append(parts)
        encs, errs = mc_encode(args.llvm_mc, target, [r[0] for r in recs])
        compared = refused = skipped = 0
        by_fmt = Counter()
        for i, (asm, got, ident) in enumerate(recs):
            if i in errs:
                skipped += 1  # llvm-mc rejects it: toolchain.isa_llvm_mc reports those
                continue
            if got.startswith("ERROR"):
                refused += 1
                failures += 1
                if args.verbose or refused <= 20:
                    print("FAIL %s: the encoder refuses %s [%s]: %s" % (target, asm, ident, got))
                continue
            want = [b for e in encs[i] for b in e]
            have = bytes.fromhex(got)
            same = len(want) == len(have) and all(w is None or w == h for w, h in zip(want, have))
            if not same and match_known(known, target, asm):
                xfail[match_known(known, target, asm)] += 1
                continue
            if not same:
                failures += 1
                if args.verbose or failures <= 60:
                    print("FAIL %s: %s [%s]: llvm-mc %s, encoder %s" % (
                        target, asm, ident,
                        " ".join("??" if b is None else "%02x" % b for b in want), have.hex(" ")))
                continue
            compared += 1
            by_fmt[ident] += 1
        grand += compared
        print("%-6s  %5d instructions byte-identical with llvm-mc (%d opcodes), %d refused, "
              "%d lines llvm-mc rejects (not compared)" % (target, compared, len(by_fmt), refused,
                                                          skipped))
    for why, n in sorted(xfail.items()):
        print("XFAIL (%d lines): %s" % (n, why))
    print("encode: %d instructions compared byte for byte, %d known differences, %d failures" % (
        grand, sum(xfail.values()), failures))
    return 1 if failures else 0


def cmd_kernels(args):
    """Every kernel of the given directories (examples, lit inputs, ...) through
    waveasm-opt on every target -- the default pipeline where it applies, else
    register allocation alone, else as written -- then --emit=bin against the .text
    llvm-mc -filetype=obj assembles from --emit=asm, byte for byte."""
    need_tools(args, ["llvm_mc", "waveasm_opt"])
    os.makedirs(args.work_dir, exist_ok=True)
    files = []
    for d in args.kernel_dirs:
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".wa")]
    failures = compared = words = skipped = 0
    per_target = Counter()
    for i, path in enumerate(sorted(files)):
        for target in TARGETS:
            tag = "%s on %s" % (os.path.relpath(path), target)
            base = os.path.join(args.work_dir, "k%d-%s" % (i, target))
            done = False
            for stage in (["--pipeline=default"], ["--regalloc"], []):
                cmd = [args.waveasm_opt, "--target=" + target] + stage + [path]
                a = run(cmd + ["--emit=asm", "-o", base + ".s"])
                if a.returncode != 0:
                    continue
                b = run(cmd + ["--emit=bin", "-o", base + ".bin"])
                if b.returncode != 0:
                    failures += 1
                    print("FAIL %s: --emit=asm works, --emit=bin fails: %s" % (tag, b.stderr.strip()))
                    done = True
                    break
                mc = run([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target,
                          "-filetype=obj", base + ".s", "-o", base + ".o"])
                if mc.returncode != 0:
                    skipped += 1  # what llvm-mc rejects is toolchain.examples' business
                    done = True
                    break
                text = Elf(base + ".o").section(".text")
                data = Elf(base + ".o").data[text["offset"]:text["offset"] + text["size"]]
                with open(base + ".bin", "rb") as f:
                    mine = f.read()
                pad = data[len(mine):]
                if data[:len(mine)] != mine or pad != b"\x00\x00\x80\xbf" * (len(pad) // 4):
                    failures += 1
                    at = next((k for k in range(0, min(len(mine), len(data)), 4)
                               if mine[k:k + 4] != data[k:k + 4]), len(mine))
                    print("FAIL %s (%s): the encoder's %d bytes differ from llvm-mc's .text at "
                          "byte 0x%x: %s vs %s" % (tag, " ".join(stage) or "as written", len(mine),
                                                   at, mine[at:at + 8].hex(" "),
                                                   data[at:at + 8].hex(" ")))
                else:
                    compared += 1
                    words += len(mine) // 4
                    per_target[target] += len(mine) // 4
                done = True
                break
            if not done:
                skipped += 1
    for t in TARGETS:
        print("%-6s  %6d instruction words identical" % (t, per_target[t]))
    print("kernels: %d files, %d (kernel, target) pairs byte-identical with llvm-mc (%d words), "
          "%d pairs not compiled or not assembled, %d failures" % (
              len(files), compared, words, skipped, failures))
    return 1 if failures or not compared else 0


# ---- descriptor sweep ------------------------------------------------------------------------

def cmd_sweep(args):
    need_tools(args, ["llvm_mc", "sweep_tool"])
    os.makedirs(args.work_dir, exist_ok=True)
    p = run([args.sweep_tool, "--out-dir", args.work_dir])
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        print("FAIL: wa_kd_sweep reported failures")
        return 1
    failures = 0
    kernels = fields = 0
    for target in TARGETS:
        src = os.path.join(args.work_dir, "sweep-%s.s" % target)
        obj = os.path.join(args.work_dir, "sweep-%s.o" % target)
        mc = run([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target,
                  "-filetype=obj", src, "-o", obj])
        if mc.returncode != 0:
            print("FAIL %s: llvm-mc rejects the sweep file:\n%s" % (target, mc.stderr[:4000]))
            failures += 1
            continue
        elf = Elf(obj)
        for e in check_elf_header(elf, target, os.path.basename(obj)):
            print("FAIL " + e)
            failures += 1
        with open(os.path.join(args.work_dir, "sweep-%s.tsv" % target)) as f:
            rows = [l.rstrip("\n").split("\t") for l in f if l.strip()]
        bad = 0
        for row in rows:
            name, group, kernarg, rsrc3, rsrc1, rsrc2, props, desc = row
            want = dict(group_segment_size=int(group), private_segment_size=0,
                        kernarg_size=int(kernarg), rsrc3=int(rsrc3, 16), rsrc1=int(rsrc1, 16),
                        rsrc2=int(rsrc2, 16), kernel_code_properties=int(props, 16),
                        kernarg_preload=0)
            kd = read_kd(elf, name)
            kernels += 1
            if kd is None:
                print("FAIL %s: no descriptor symbol %s.kd (%s)" % (target, name, desc))
                failures += 1
                continue
            if elf.symbol_section(name + ".kd") != ".rodata":
                print("FAIL %s: %s.kd is not in .rodata" % (target, name))
                failures += 1
            for field, value in want.items():
                fields += 1
                if kd[field] != value:
                    bad += 1
                    if bad <= 40:
                        print("FAIL %s %s (%s): %s is 0x%x in the object, the library says 0x%x"
                              % (target, name, desc, field, kd[field], value))
        failures += bad
        print("%-6s  %4d kernels assembled, descriptors compared" % (target, len(rows)))
    print("sweep: %d kernels, %d descriptor fields compared, %d failures" % (
        kernels, fields, failures))
    return 1 if failures else 0


# ---- examples ---------------------------------------------------------------------------------

def parse_kd_info(text):
    info = {}
    for line in text.splitlines():
        if " " in line:
            k, v = line.split(" ", 1)
            info[k] = v.strip()
    return info


def note_kernels(notes):
    """Kernel-level keys of each amdhsa.kernels entry in `llvm-readelf --notes` output
    (the YAML form of the metadata; kernel keys sit at indentation 4)."""
    kernels = []
    for line in notes.splitlines():
        m = re.match(r"^(\s*(?:- )?)(\.[\w.]+):\s*(.*)$", line)
        if not m or len(m.group(1)) != 4:
            continue
        if m.group(1).endswith("- "):
            kernels.append({})
        if kernels:
            kernels[-1][m.group(2)] = m.group(3).strip().strip("'")
    return kernels


def asm_mnemonics(asm_text, kernel):
    """Mnemonics of the kernel body in the emitted assembly, in order."""
    out, inside = [], False
    for line in asm_text.splitlines():
        if line == kernel + ":":
            inside = True
            continue
        if not inside:
            continue
        if line.startswith(".Lwa_end_"):
            break
        body = line.split(";", 1)[0].strip()
        if line.startswith("\t") and body and not body.startswith("."):
            out.append(body.split()[0])
    return out


def disasm_mnemonics(objdump_text, kernel, count):
    """First `count` mnemonics from <kernel>: on in llvm-objdump -d output (labels in
    the body are skipped), and the rest of the section (the s_nop padding)."""
    out, inside = [], False
    for line in objdump_text.splitlines():
        if line.endswith("<%s>:" % kernel):
            inside = True
            continue
        if inside and line.startswith("\t"):
            out.append(line.split()[0])
        elif inside and line.startswith("Disassembly of section"):
            break
    return out[:count], out[count:]


def strip_suffix(m):
    return m[:-4] if m.endswith(("_e32", "_e64")) else m


def cmd_examples(args):
    need_tools(args, ["llvm_mc", "ld_lld", "llvm_readelf", "llvm_objdump", "waveasm_opt",
                      "kd_info"])
    os.makedirs(args.work_dir, exist_ok=True)
    files = sorted(f for f in os.listdir(args.examples_dir) if f.endswith(".wa"))
    if not files:
        print("FAIL: no examples in %s" % args.examples_dir)
        return 1
    required = ("gfx942", "gfx950")
    failures = 0
    checked = 0
    for fname in files:
        path = os.path.join(args.examples_dir, fname)
        stem = fname[:-3]
        for target in TARGETS:
            tag = "%s on %s" % (fname, target)
            base = os.path.join(args.work_dir, "%s-%s" % (stem, target))
            # allocated first (a no-op for kernels in physical registers), so
            # that the descriptor numbers are those of the allocated kernel
            alloc = base + ".alloc.wa"
            opt = run([args.waveasm_opt, "--target=" + target, "--regalloc-check", path,
                       "-o", alloc])
            if opt.returncode == 0:
                opt = run([args.waveasm_opt, "--emit=asm", alloc, "-o", base + ".s"])
            if opt.returncode != 0:
                if target in required:
                    print("FAIL %s: waveasm-opt failed:\n%s" % (tag, opt.stderr.strip()))
                    failures += 1
                else:
                    first = (opt.stderr.strip().splitlines() or ["?"])[0]
                    print("skip %s: does not validate (%s)" % (tag, first))
                continue
            info_p = run([args.kd_info, alloc, "--target", target])
            if info_p.returncode != 0:
                print("FAIL %s: wa_kd_info failed:\n%s" % (tag, info_p.stderr))
                failures += 1
                continue
            info = parse_kd_info(info_p.stdout)
            kernel = info["name"]
            errs = []
            mc = run([args.llvm_mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target,
                      "-filetype=obj", base + ".s", "-o", base + ".o"])
            if mc.returncode != 0:
                print("FAIL %s: llvm-mc rejects the emitted assembly:\n%s" % (tag, mc.stderr))
                failures += 1
                continue
            if "warning" in mc.stderr:
                print("note %s: llvm-mc warnings:\n%s" % (tag, mc.stderr.strip()))
            ld = run([args.ld_lld, "-shared", base + ".o", "-o", base + ".so"])
            if ld.returncode != 0:
                print("FAIL %s: ld.lld -shared failed:\n%s" % (tag, ld.stderr))
                failures += 1
                continue
            with open(base + ".s") as f:
                body = asm_mnemonics(f.read(), kernel)
            dis = run([args.llvm_objdump, "-d", "--mcpu=" + target, base + ".so"]).stdout
            got, rest = disasm_mnemonics(dis, kernel, len(body))
            if [strip_suffix(m) for m in got] != [strip_suffix(m) for m in body]:
                errs.append("llvm-objdump disassembles %s, the emitted body is %s" % (got, body))
            elif any(m != "s_nop" for m in rest):
                errs.append("unexpected code after the kernel body: %s" % sorted(set(rest)))
            notes = run([args.llvm_readelf, "--notes", base + ".so"]).stdout
            syms = run([args.llvm_readelf, "--symbols", base + ".so"]).stdout
            entries = [k for k in note_kernels(notes) if k.get(".name") == kernel]
            if len(entries) != 1:
                errs.append("llvm-readelf --notes lists kernel %s %d times" % (kernel, len(entries)))
            md = entries[0] if entries else {}
            if md.get(".symbol") != kernel + ".kd":
                errs.append("metadata .symbol is %s, expected %s.kd" % (md.get(".symbol"), kernel))
            for sym in (kernel, kernel + ".kd"):
                if not re.search(r"\s%s$" % re.escape(sym), syms, re.M):
                    errs.append("llvm-readelf --symbols does not list %s" % sym)
            meta = {".vgpr_count": info["total_vgprs"], ".sgpr_count": info["sgpr_count"],
                    ".agpr_count": info["agprs"], ".kernarg_segment_size": info["kernarg_size"],
                    ".group_segment_fixed_size": info["group_segment_size"]}
            for key, value in meta.items():
                got = md.get(key)
                if got != value:
                    errs.append("metadata %s is %s, the library says %s" % (key, got, value))
            for what in (".o", ".so"):
                elf = Elf(base + what)
                errs += check_elf_header(elf, target, os.path.basename(base + what))
                kd = read_kd(elf, kernel)
                if kd is None:
                    errs.append("%s: no %s.kd symbol" % (what, kernel))
                    continue
                for field, _, _ in KD_FIELDS:
                    want = int(info.get(field, "0"), 0)
                    if kd[field] != want:
                        errs.append("%s: descriptor %s is 0x%x, the library says 0x%x" % (
                            what, field, kd[field], want))
                if what == ".so":
                    entry = elf.symbols.get(kernel)
                    kdsym = elf.symbols.get(kernel + ".kd")
                    if entry is None or kdsym["value"] + kd["entry_offset"] != entry["value"]:
                        errs.append("descriptor entry offset does not point at %s" % kernel)
                    elif entry["value"] % 256:
                        errs.append("kernel entry 0x%x is not 256-byte aligned" % entry["value"])
            if errs:
                failures += len(errs)
                for e in errs:
                    print("FAIL %s: %s" % (tag, e))
            else:
                checked += 1
                print("ok   %s: kernel %s, %d instructions, rsrc1 %s rsrc2 %s rsrc3 %s" % (
                    tag, kernel, len(body), info["rsrc1"], info["rsrc2"], info["rsrc3"]))
    print("examples: %d files, %d (file, target) pairs assembled, linked and checked, "
          "%d failures" % (len(files), checked, failures))
    return 1 if failures else 0


# ---- validator fuzz -----------------------------------------------------------------------------

def category(message):
    """Groups validator messages: registers, numbers and mnemonics become placeholders."""
    c = re.sub(r"\b[vsa]\[\d+:\d+\]|\b[vsa]\d+\b", "<reg>", message)
    c = re.sub(r"-?\b(0x[0-9a-fA-F]+|\d+(\.\d+)?(e[-+]?\d+)?)\b", "<n>", c)
    c = re.sub(r"^[a-z_0-9]+ ", "<op> ", c)
    c = re.sub(r"\bgfx9\w+\b", "<target>", c)
    return c


def cmd_fuzz(args):
    need_tools(args, ["llvm_mc", "fuzz_tool"])
    os.makedirs(args.work_dir, exist_ok=True)
    cmd = [args.fuzz_tool, "--out-dir", args.work_dir]
    if args.count:
        cmd += ["--count", str(args.count)]
    if args.seed:
        cmd += ["--seed", args.seed]
    p = run(cmd)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    failures = 1 if p.returncode != 0 else 0
    if failures:
        print("FAIL: wa_validator_fuzz reported failures")
    known = load_known(args.known_issues)
    xfail = Counter()
    n_acc = n_rej = n_enc = n_norep = symbolic = 0
    lenient = Counter()
    lenient_examples = {}
    for target in TARGETS:
        recs = read_samples(os.path.join(args.work_dir, "fuzz-%s.tsv" % target))
        acc = [r for r in recs if r["kind"] == "A"]
        rej = [r for r in recs if r["kind"] == "R"]
        n_acc += len(acc)
        n_rej += len(rej) + sum(1 for r in recs if r["kind"] == "N")
        n_norep += sum(1 for r in recs if r["kind"] == "N")
        encs, errs = mc_encode(args.llvm_mc, target, [r["asm"] for r in acc])
        if -1 in errs:
            print("FAIL %s: unexpected assembler error: %s" % (target, errs[-1]))
            failures += 1
        for i, r in enumerate(acc):
            if i in errs:
                why = match_known(known, target, r["asm"])
                if why:
                    xfail[why] += 1
                else:
                    failures += 1
                    print("FAIL %s: validator accepts, llvm-mc rejects: %s  [%s]: %s" % (
                        target, r["asm"], r["id"], errs[i]))
                continue
            msg = check_opcode(r["fmt"], r["enc"], encs[i])
            if msg:
                failures += 1
                print("FAIL %s: %s [%s]: %s" % (target, r["asm"], r["id"], msg))
            else:
                n_enc += 1
        rerrs = mc_errors(args.llvm_mc, target, [r["asm"] for r in rej])
        for i, r in enumerate(rej):
            if i not in rerrs:
                if re.search(r"got ('off'|a label)", r["variant"]):
                    symbolic += 1  # llvm-mc reads the word as a symbol (relocated literal)
                    continue
                cat = category(r["variant"])
                lenient[cat] += 1
                lenient_examples.setdefault(cat, "%s: %s" % (target, r["asm"]))
    for why, n in sorted(xfail.items()):
        print("XFAIL (%d instances): %s" % (n, why))
    print("validator rejects, llvm-mc accepts (validator stricter than needed; "
          "informational): %d instances" % sum(lenient.values()))
    print("  (not counted: %d rejected instances whose text form drops a modifier the format "
          "does not print; %d where llvm-mc read 'off' or a label as a symbol)" % (
              n_norep, symbolic))
    for cat, n in lenient.most_common(args.top):
        print("  %5d  %s\n         e.g. %s" % (n, cat, lenient_examples[cat]))
    print("fuzz: %d instances validated: %d accepted (%d opcode fields checked), %d rejected; "
          "%d accepted by the validator but rejected by llvm-mc (%d known); "
          "%d rejected by the validator but accepted by llvm-mc; %d failures" % (
              n_acc + n_rej, n_acc, n_enc, n_rej, failures + sum(xfail.values()),
              sum(xfail.values()), sum(lenient.values()), failures))
    return 1 if failures else 0

# ---- main ------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["isa", "encode", "kernels", "examples", "sweep", "fuzz"])
    ap.add_argument("--llvm-mc", dest="llvm_mc")
    ap.add_argument("--ld-lld", dest="ld_lld")
    ap.add_argument("--llvm-readelf", dest="llvm_readelf")
    ap.add_argument("--llvm-objdump", dest="llvm_objdump")
    ap.add_argument("--samples-tool", dest="samples_tool")
    ap.add_argument("--kd-info", dest="kd_info")
    ap.add_argument("--sweep-tool", dest="sweep_tool")
    ap.add_argument("--fuzz-tool", dest="fuzz_tool")
    ap.add_argument("--waveasm-opt", dest="waveasm_opt")
    ap.add_argument("--examples-dir", dest="examples_dir")
    ap.add_argument("--kernel-dir", dest="kernel_dirs", action="append", default=[],
                    help="directory searched for .wa kernels (kernels; repeatable)")
    ap.add_argument("--known-issues", dest="known_issues")
    ap.add_argument("--work-dir", dest="work_dir", required=True)
    ap.add_argument("--skip-reason", dest="skip_reason")
    ap.add_argument("--top", type=int, default=12, help="categories to list (fuzz)")
    ap.add_argument("--count", type=int, help="instances to generate (fuzz); random sets per row and target (isa)")
    ap.add_argument("--seed", help="random seed (fuzz, isa)")
    ap.add_argument("--verbose", action="store_true", help="list every validator-stricter line (isa)")
    args = ap.parse_args()
    handler = {"isa": cmd_isa, "sweep": cmd_sweep, "examples": cmd_examples,
               "fuzz": cmd_fuzz, "encode": cmd_encode,
               "kernels": cmd_kernels}.get(args.command)
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
