; parity: targets=gfx950 grid=1 bytes=65536 arg2=64
; v_mfma_f32_32x32x16_f16 (16 passes on gfx950) in a K loop: a 32x32 f32
; tile, 8 halves of A and B per lane per step, a 16-register accumulator.
declare i32 @llvm.amdgcn.workitem.id.x()
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.f16(<8 x half>, <8 x half>, <16 x float>, i32, i32, i32)
define amdgpu_kernel void @mfma32(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %k, ptr addrspace(1) %c) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %row = and i32 %tid, 31
  %grp = lshr i32 %tid, 5
  %kofs = shl i32 %grp, 3
  %arow = mul i32 %row, %k
  br label %loop
loop:
  %kk = phi i32 [ 0, %entry ], [ %kn, %loop ]
  %acc = phi <16 x float> [ zeroinitializer, %entry ], [ %d, %loop ]
  %ka = add i32 %kk, %kofs
  %ai = add i32 %arow, %ka
  %ap = getelementptr half, ptr addrspace(1) %a, i32 %ai
  %av = load <8 x half>, ptr addrspace(1) %ap, align 16
  %bi = add i32 %arow, %ka
  %bp = getelementptr half, ptr addrspace(1) %b, i32 %bi
  %bv = load <8 x half>, ptr addrspace(1) %bp, align 16
  %d = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.f16(<8 x half> %av, <8 x half> %bv, <16 x float> %acc, i32 0, i32 0, i32 0)
  %kn = add i32 %kk, 16
  %more = icmp ult i32 %kn, %k
  br i1 %more, label %loop, label %done
done:
  %ci = mul i32 %tid, 16
  %cp = getelementptr float, ptr addrspace(1) %c, i32 %ci
  store <16 x float> %d, ptr addrspace(1) %cp, align 64
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
