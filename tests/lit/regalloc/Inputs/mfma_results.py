# Writes a kernel with N 32x32 MFMA results (16 VGPRs each) that all stay live
# until stores at the end: usage `mfma_results.py N`.
import sys

n = int(sys.argv[1])
out = [".kernel mfma_results", "  .target gfx942",
       "  global_load_dwordx2 %v0<2,align=2>, v0, s[0:1]"]
out += ["  v_mfma_f32_32x32x8_f16 %%v%d<16,align=2>, %%v0, %%v0, 0" % (i + 1) for i in range(n)]
out += ["  global_store_dwordx4 v0, %%v%d[12:15], s[0:1]" % (i + 1) for i in range(n)]
out += ["  s_endpgm", ".end_kernel"]
print("\n".join(out))
