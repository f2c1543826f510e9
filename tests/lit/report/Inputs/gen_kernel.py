"""gen_kernel.py KIND N > kernel.wa

Writes a kernel in the text form for the pressure report tests:
  quads N   N VGPR quads loaded one after the other and all stored at the end,
            so 4 * N VGPRs (plus v0) are live at once.
  long N    about N items: loops of 1000 items whose VGPR pressure rises and
            falls in a saw-tooth, for downsampling tests on large programs.
"""

import sys


def quads(n):
    out = [".kernel quads", "  .target gfx942"]
    for i in range(n):
        out.append("  global_load_dwordx4 %%v%d<4,align=4>, v0, s[0:1]" % i)
    out.append("  s_waitcnt vmcnt(0)")
    for i in range(n):
        out.append("  global_store_dwordx4 v0, %%v%d, s[0:1]" % i)
    out.append("  s_endpgm")
    return out


def long_kernel(n):
    out = [".kernel long", "  .target gfx942", "  s_mov_b32 %s0, 0"]
    items, vid, loop = 1, 1, 0
    while items < n:
        out.append("L%d:" % loop)
        # depth of the saw-tooth grows with the loop number, up to 60 values
        width = 5 + (loop * 7) % 56
        body = []
        live = []
        for k in range(width):
            body.append("  v_mov_b32 %%v%d, %d" % (vid, k))
            live.append(vid)
            vid += 1
        for v in live:
            body.append("  global_store_dword v0, %%v%d, s[0:1]" % v)
        reps = max(1, (1000 - 4) // len(body))
        for _ in range(reps):
            out.extend(body)
            items += len(body)
        out.append("  s_add_u32 %s0, %s0, 1")
        out.append("  s_cmp_lt_u32 %s0, 100")
        out.append("  s_cbranch_scc1 L%d" % loop)
        items += 4
        loop += 1
    out.append("  s_endpgm")
    return out


def main(argv):
    if len(argv) != 3 or argv[1] not in ("quads", "long"):
        sys.stderr.write(__doc__)
        return 2
    n = int(argv[2])
    lines = quads(n) if argv[1] == "quads" else long_kernel(n)
    sys.stdout.write("\n".join(lines + [".end_kernel"]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
