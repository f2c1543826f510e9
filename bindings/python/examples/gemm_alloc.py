#!/usr/bin/env python3
"""Register allocation of a small GEMM kernel built with virtual registers.

C = A * B for one (16*TM) x (16*TN) f32 tile over a loop on K: each iteration
loads TM fragments of A and TN of B and issues TM*TN v_mfma_f32_16x16x16_f16
into AGPR accumulators. The example prints the register pressure, allocates
(and checks the allocation), shows the diagnostic of an allocation that cannot
fit, inserts waits and wait states, and runs the kernel in the simulator
against a matrix product computed on the CPU.

    A   (16*TM) x K f16, row-major
    Bt  (16*TN) x K f16, row-major (B transposed)
    C   (16*TM) x (16*TN) f32, row-major
"""

import argparse
import struct
import sys

import waveasm

SRD_WORD3 = 0x20000  # raw buffer, 32-bit data format (gfx9)


def _log2(n):
    return n.bit_length() - 1


def build(ctx, tm, tn):
    """The kernel; lane l works on row/column l % 16 and K quarter l / 16 of
    every 16x16 block (the layout of v_mfma_f32_16x16x16_f16)."""
    prog = ctx.program("gemm_alloc")
    for name in ("a", "bt"):
        prog.add_arg(name, "global_buffer", size=8, const=True)
    prog.add_arg("c", "global_buffer", size=8)
    prog.add_arg("k", "by_value", size=4)
    kernarg, lane = prog.abi_reg("kernarg_ptr"), prog.abi_reg("workitem_id_x")

    srd_a, srd_b, srd_c = prog.sgpr(4), prog.sgpr(4), prog.sgpr(4)
    k = prog.sgpr()
    for i, srd in enumerate((srd_a, srd_b, srd_c)):
        prog.s_load_dwordx2(srd[0:2], kernarg, 8 * i)
        prog.s_mov_b32(srd[3], SRD_WORD3)
    prog.s_load_dword(k, kernarg, 24)
    prog.s_mov_b32(srd_c[2], 16 * tm * 16 * tn * 4)

    # i = lane % 16, q = lane / 16; C offset (4q * 16TN + i) * 4.
    i, q, c_off = prog.vgpr(), prog.vgpr(), prog.vgpr()
    prog.v_and_b32(i, 15, lane)
    prog.v_lshrrev_b32(q, 4, lane)
    prog.v_lshlrev_b32(c_off, _log2(4 * 16 * tn * 4), q)
    prog.v_lshl_add_u32(c_off, i, 2, c_off)

    accs = [[prog.agpr(4) for _ in range(tn)] for _ in range(tm)]
    for row in accs:
        for acc in row:
            for r in range(4):
                prog.v_accvgpr_write_b32(acc[r], 0)

    pitch, trip, t, soff = prog.sgpr(), prog.sgpr(), prog.sgpr(), prog.sgpr()
    prog.s_mov_b32(t, 0)
    prog.s_mov_b32(soff, 0)
    prog.s_lshl_b32(srd_a[2], k, _log2(32 * tm))  # 16 * TM rows * 2K bytes
    prog.s_lshl_b32(srd_b[2], k, _log2(32 * tn))
    prog.s_lshl_b32(pitch, k, 1)                            # row pitch 2K
    prog.s_lshr_b32(trip, k, 4)                             # K / 16 iterations

    # Per block of 16 rows: VGPR offset (16 * blk + i) * 2K + q * 8.
    def row_offsets(count):
        base = prog.vgpr()
        prog.v_mul_lo_u32(base, i, pitch)
        prog.v_lshl_add_u32(base, q, 3, base)
        offs = [base]
        for blk in range(1, count):
            step, off = prog.sgpr(), prog.vgpr()
            prog.s_mul_i32(step, k, 32 * blk)
            prog.v_add_u32(off, step, base)
            offs.append(off)
        return offs

    a_offs, b_offs = row_offsets(tm), row_offsets(tn)
    loop, done = prog.label("k_loop"), prog.label("k_done")
    prog.s_cmp_eq_u32(trip, 0)
    prog.s_cbranch_scc1(done)
    prog.place(loop)
    a_frags = [prog.vgpr(2) for _ in range(tm)]
    b_frags = [prog.vgpr(2) for _ in range(tn)]
    for frag, off in zip(a_frags, a_offs):
        prog.buffer_load_dwordx2(frag, off, srd_a, soff, offen=True)
    for frag, off in zip(b_frags, b_offs):
        prog.buffer_load_dwordx2(frag, off, srd_b, soff, offen=True)
    prog.s_add_u32(soff, soff, 32)   # next 16 columns of K
    prog.s_add_u32(t, t, 1)
    for bi, row in enumerate(accs):
        for bj, acc in enumerate(row):
            prog.v_mfma_f32_16x16x16_f16(acc, a_frags[bi], b_frags[bj], acc)
    prog.s_cmp_lt_u32(t, trip)
    prog.s_cbranch_scc1(loop)
    prog.place(done)

    # Element r of block (bi, bj): C[16bi + 4q + r][16bj + i]; the block row
    # goes into the VGPR offset (the immediate offset has 12 bits).
    for bi, row in enumerate(accs):
        row_off = c_off
        if bi:
            row_off = prog.vgpr()
            prog.v_add_u32(row_off, 16 * bi * 16 * tn * 4, c_off)
        for bj, acc in enumerate(row):
            out = prog.vgpr(4)
            for r in range(4):
                prog.v_accvgpr_read_b32(out[r], acc[r])
            for r in range(4):
                offset = (r * 16 * tn + 16 * bj) * 4
                prog.buffer_store_dword(out[r], row_off, srd_c, 0, offen=True, offset=offset)
    prog.s_endpgm()
    return prog


def reference(a, bt, rows, cols, k):
    """C = A * B on the CPU."""
    return [sum(a[r * k + x] * bt[c * k + x] for x in range(k))
            for r in range(rows) for c in range(cols)]


def simulate(prog, tm, tn, k):
    """Runs the kernel; returns the largest difference from the CPU product."""
    rows, cols = 16 * tm, 16 * tn
    # Small integers: every product and sum is exact in f16 inputs / f32 sums.
    a = [float((r + 2 * x) % 5 - 2) for r in range(rows) for x in range(k)]
    bt = [float((3 * c + x) % 7 - 3) for c in range(cols) for x in range(k)]
    c = bytearray(rows * cols * 4)
    with prog.simulator(hazards=True, seed=7) as sim:
        sim.bind_buffer("a", bytearray(struct.pack(f"<{len(a)}e", *a)))
        sim.bind_buffer("bt", bytearray(struct.pack(f"<{len(bt)}e", *bt)))
        sim.bind_buffer("c", c)
        sim.set_arg("k", k)
        stats = sim.run()
    got = struct.unpack(f"<{rows * cols}f", c)
    want = reference(a, bt, rows, cols, k)
    return max(abs(x - y) for x, y in zip(got, want)), stats


def main(argv=None):
    """Builds the kernel, prints pressure and allocation statistics, simulates."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="gfx942", choices=waveasm.TARGETS)
    ap.add_argument("--tile", type=int, nargs=2, default=(2, 2), metavar=("TM", "TN"),
                    help="MFMA blocks per tile (1, 2 or 4 each)")
    ap.add_argument("-k", type=int, default=64, help="K, a multiple of 16")
    args = ap.parse_args(argv)
    tm, tn = args.tile
    if tm not in (1, 2, 4) or tn not in (1, 2, 4) or args.k % 16:
        ap.error("TM and TN must be 1, 2 or 4, and K a multiple of 16")

    with waveasm.Context(args.target) as ctx:
        prog = build(ctx, tm, tn)
        prog.validate()
        print(f"kernel:     {prog.name}, {16 * tm}x{16 * tn} tile, {tm * tn} MFMAs per "
              f"iteration, {len(prog)} items, {prog.vreg_count} virtual registers")

        live = prog.liveness()
        peaks = {cls: live.max_pressure(cls) for cls in ("vgpr", "sgpr", "agpr")}
        print("pressure:   " + ", ".join(f"{cls.upper()} {v} (item {at})"
                                         for cls, (v, at) in peaks.items()))
        print(f"loops:      {len(live.loops)}, blocks {live.block_count}")

        # A limit below the accumulators' needs: the diagnostic names the value.
        try:
            prog.regalloc(max_agprs=4 * tm * tn - 4, liveness=live)
        except waveasm.AllocationError as e:
            print(f"too tight:  max_agprs={4 * tm * tn - 4}: {e.diagnostic.message}")

        result = prog.regalloc(liveness=live, check=True)
        s = result.stats
        print(f"allocation: peak VGPRs {s.peak_vgprs}, SGPRs {s.peak_sgprs}, "
              f"AGPRs {s.peak_agprs}; intervals {s.intervals}, coalesced {s.coalesced}, "
              f"tied {s.tied}, hole fits {s.hole_fits}")
        mapping = result.mapping
        print(f"mapping:    {len(mapping)} virtual registers, e.g. "
              + ", ".join(f"vreg {v} -> {reg}" for v, reg in list(mapping.items())[:3]))
        result.apply()
        waits, nops = prog.pass_waitcnt(), prog.pass_hazards()
        prog.check_waitcnt()
        prog.check_hazards()
        print(f"passes:     {waits.waitcnts_inserted} s_waitcnt, {nops.nops_inserted} s_nop "
              f"({nops.nop_wait_states} wait states)")
        r = prog.resources()
        print(f"resources:  arch VGPRs {r.arch_vgprs}, AGPRs {r.agprs}, accum_offset "
              f"{r.accum_offset}, SGPRs {r.sgpr_count}, {r.waves_per_simd} waves/SIMD")

        err, stats = simulate(prog, tm, tn, args.k)
        print(f"simulation: K={args.k}, {stats.instructions} instructions, "
              f"max |C - A*B| = {err}")
        return 0 if err == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
