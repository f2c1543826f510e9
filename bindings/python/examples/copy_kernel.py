#!/usr/bin/env python3
"""The copy kernel of the Wave documentation, built from Python.

out[i] = in[i] over 2048 bytes (1024 f16 values): one workgroup of one wave;
lane l moves the 32 bytes at byte offset l * 32 with two 16-byte buffer loads
and two buffer stores. The kernel is written with virtual registers, as a
kernel generator produces it; the default pipeline allocates registers and
inserts the s_waitcnt and s_nop instructions. The simulator then checks that
the compiled kernel copies the data, and the assembly is printed (or written
with -o) for llvm-mc:

    python3 copy_kernel.py -o copy_kernel.s
    llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj copy_kernel.s -o copy_kernel.o
"""

import argparse
import sys

import waveasm

BYTES_PER_LANE = 32
BUFFER_BYTES = 64 * BYTES_PER_LANE
SRD_WORD3 = 0x20000  # raw buffer, 32-bit data format (gfx9)


def build(ctx):
    """The copy kernel as a Program with virtual registers."""
    prog = ctx.program("copy_kernel")
    prog.add_arg("in", "global_buffer", size=8, const=True)
    prog.add_arg("out", "global_buffer", size=8)
    kernarg = prog.abi_reg("kernarg_ptr")   # s[0:1]
    lane = prog.abi_reg("workitem_id_x")    # v0

    # Buffer resource descriptors (SRDs): the base address from the kernel
    # arguments, the size in bytes, and the format word.
    srd_in, srd_out = prog.sgpr(4), prog.sgpr(4)
    prog.s_load_dwordx2(srd_in[0:2], kernarg, 0, comment="in")
    prog.s_load_dwordx2(srd_out[0:2], kernarg, 8, comment="out")
    for srd in (srd_in, srd_out):
        prog.s_mov_b32(srd[2], BUFFER_BYTES, comment="num_records")
        prog.s_mov_b32(srd[3], SRD_WORD3)

    # Byte offset of this lane: lane * 32.
    offset = prog.vgpr()
    prog.v_lshlrev_b32(offset, BYTES_PER_LANE.bit_length() - 1, lane)

    lo, hi = prog.vgpr(4), prog.vgpr(4)
    prog.buffer_load_dwordx4(lo, offset, srd_in, 0, offen=True)
    prog.buffer_load_dwordx4(hi, offset, srd_in, 0, offen=True, offset=16)
    prog.buffer_store_dwordx4(lo, offset, srd_out, 0, offen=True)
    prog.buffer_store_dwordx4(hi, offset, srd_out, 0, offen=True, offset=16)
    prog.s_endpgm()
    return prog


def simulate(prog):
    """Runs the kernel on host memory with the hostile timing model and
    hazard checks; returns True if out == in."""
    src = bytearray((i * 7 + 3) % 251 for i in range(BUFFER_BYTES))
    dst = bytearray(BUFFER_BYTES)
    with prog.simulator(hazards=True, seed=42) as sim:
        sim.bind_buffer("in", src)
        sim.bind_buffer("out", dst)
        sim.run()
    return dst == src


def main(argv=None):
    """Builds, compiles, simulates and prints the copy kernel."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="gfx942", choices=waveasm.TARGETS)
    ap.add_argument("-o", "--output", help="write the assembly here (default: stdout)")
    args = ap.parse_args(argv)

    with waveasm.Context(args.target) as ctx:
        prog = build(ctx)
        prog.validate()
        with ctx.pipeline(verify=True) as pipeline:
            stats = pipeline.run(prog)
        for stage, s in stats.items():
            print(f"{stage:9} instrs={s.instrs:3} inserted={s.pass_stats.inserted} "
                  f"removed={s.pass_stats.removed} waits={s.pass_stats.waitcnts_inserted} "
                  f"nops={s.pass_stats.nops_inserted}", file=sys.stderr)
        if not simulate(prog):
            print("copy_kernel: the simulated kernel did not copy its input", file=sys.stderr)
            return 1
        print("copy_kernel: simulated copy ok", file=sys.stderr)
        asm = prog.emit_asm()
    if args.output:
        with open(args.output, "w") as f:
            f.write(asm)
    else:
        sys.stdout.write(asm)
    return 0


if __name__ == "__main__":
    sys.exit(main())
