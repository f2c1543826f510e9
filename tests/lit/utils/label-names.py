#!/usr/bin/env python3
"""Compares the library's label-name rule with the AMDGPU assembler.

For every candidate name: does waveasm-opt accept a kernel that places the
label and branches to it (text in, assembly out), and does llvm-mc assemble the
same two lines? Both must agree, except for the text form's own words, which the
library reserves although the assembler takes them. Prints one line per
disagreement and a summary; exits 1 on any disagreement.

usage: label-names.py WAVEASM_OPT LLVM_MC WORK_DIR
"""
import os
import subprocess
import sys

# Words of the text form (never labels there, whatever the assembler says).
TEXT_FORM_WORDS = {"off"}

SPECIAL = """vcc vcc_lo vcc_hi exec exec_lo exec_hi m0 scc vccz execz flat_scratch
flat_scratch_lo flat_scratch_hi xnack_mask xnack_mask_lo xnack_mask_hi tba tba_lo
tba_hi tma tma_lo tma_hi pc null shared_base shared_limit private_base private_limit
pops_exiting_wave_id lds_direct src_shared_base src_shared_limit src_private_base
src_private_limit src_pops_exiting_wave_id src_lds_direct src_vccz src_execz src_scc
src_flat_scratch_base_lo src_flat_scratch_base_hi""".split()


def candidates():
    names = set(SPECIAL) | TEXT_FORM_WORDS
    for prefix in ("v", "s", "a", "acc", "ttmp"):
        for n in ("0", "1", "07", "15", "101", "255", "999"):
            names.add(prefix + n)
        # only a prefix of a register name: an ordinary symbol
        names.update({prefix, prefix + "1_loop", prefix + "0done", prefix + "1x", prefix + "1.5",
                      prefix.upper() + "1", "x" + prefix + "1"})
    for base in SPECIAL[:12]:
        names.update({base + "_", base + "1", base.upper(), "_" + base})
    names.update({"loop", "L0", ".Ltail", "top$1", "hwreg", "sendmsg", "idxen", "offen",
                  "glc", "lds", "neg", "abs", "row_mask", "src", "src_", "exec_loop"})
    return sorted(names)


def main():
    wopt, mc, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    wa_path = os.path.join(work, "k.wa")
    s_path = os.path.join(work, "k.s")
    bad = 0
    counts = {"both accept": 0, "both refuse": 0, "reserved by the text form": 0}
    for name in candidates():
        with open(wa_path, "w") as f:
            f.write(".kernel k\n  .target gfx942\n%s:\n  s_branch %s\n  s_endpgm\n.end_kernel\n"
                    % (name, name))
        ours = subprocess.run([wopt, "--emit=asm", wa_path, "-o", s_path],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
        with open(s_path, "w") as f:
            f.write("%s:\n  s_branch %s\n" % (name, name))
        theirs = True
        for cpu in ("gfx90a", "gfx942", "gfx950"):
            r = subprocess.run([mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu, "-filetype=obj",
                                s_path, "-o", os.devnull],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            theirs = theirs and r.returncode == 0
        if name in TEXT_FORM_WORDS:
            if ours:
                print("label %r: accepted, but it is a word of the text form" % name)
                bad += 1
            counts["reserved by the text form"] += 1
        elif ours != theirs:
            print("label %r: library %s, llvm-mc %s" % (name, "accepts" if ours else "refuses",
                                                        "accepts" if theirs else "refuses"))
            bad += 1
        else:
            counts["both accept" if ours else "both refuse"] += 1
    print("%d names: %s; %d disagreements" % (len(candidates()), ", ".join(
        "%d %s" % (v, k) for k, v in counts.items()), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
