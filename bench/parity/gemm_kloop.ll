; parity: grid=1 bytes=65536 arg2=64
; A 16x16 f32 tile of C = A (16xK f16) * B (Kx16 f16), one wave, K a multiple
; of 16 given as an argument: per step 4 halves of A and B per lane and one
; v_mfma_f32_16x16x16_f16 into a loop-carried accumulator.
declare i32 @llvm.amdgcn.workitem.id.x()
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half>, <4 x half>, <4 x float>, i32, i32, i32)
define amdgpu_kernel void @gemm_kloop(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %k, ptr addrspace(1) %c) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %row = and i32 %tid, 15
  %grp = lshr i32 %tid, 4
  %kofs = shl i32 %grp, 2
  %arow = mul i32 %row, %k
  br label %loop
loop:
  %kk = phi i32 [ 0, %entry ], [ %kn, %loop ]
  %acc = phi <4 x float> [ zeroinitializer, %entry ], [ %d, %loop ]
  %ka = add i32 %kk, %kofs
  %ai = add i32 %arow, %ka
  %ap = getelementptr half, ptr addrspace(1) %a, i32 %ai
  %av = load <4 x half>, ptr addrspace(1) %ap, align 8
  %bi = mul i32 %ka, 16
  %bi0 = add i32 %bi, %row
  %bp0 = getelementptr half, ptr addrspace(1) %b, i32 %bi0
  %b0 = load half, ptr addrspace(1) %bp0, align 2
  %bp1 = getelementptr half, ptr addrspace(1) %bp0, i32 16
  %b1 = load half, ptr addrspace(1) %bp1, align 2
  %bp2 = getelementptr half, ptr addrspace(1) %bp0, i32 32
  %b2 = load half, ptr addrspace(1) %bp2, align 2
  %bp3 = getelementptr half, ptr addrspace(1) %bp0, i32 48
  %b3 = load half, ptr addrspace(1) %bp3, align 2
  %bv0 = insertelement <4 x half> undef, half %b0, i32 0
  %bv1 = insertelement <4 x half> %bv0, half %b1, i32 1
  %bv2 = insertelement <4 x half> %bv1, half %b2, i32 2
  %bv = insertelement <4 x half> %bv2, half %b3, i32 3
  %d = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %av, <4 x half> %bv, <4 x float> %acc, i32 0, i32 0, i32 0)
  %kn = add i32 %kk, 16
  %more = icmp ult i32 %kn, %k
  br i1 %more, label %loop, label %done
done:
  %crow = mul i32 %kofs, 16
  %ci = add i32 %crow, %row
  %cp = getelementptr float, ptr addrspace(1) %c, i32 %ci
  %d0 = extractelement <4 x float> %d, i32 0
  store float %d0, ptr addrspace(1) %cp, align 4
  %cp1 = getelementptr float, ptr addrspace(1) %cp, i32 16
  %d1 = extractelement <4 x float> %d, i32 1
  store float %d1, ptr addrspace(1) %cp1, align 4
  %cp2 = getelementptr float, ptr addrspace(1) %cp, i32 32
  %d2 = extractelement <4 x float> %d, i32 2
  store float %d2, ptr addrspace(1) %cp2, align 4
  %cp3 = getelementptr float, ptr addrspace(1) %cp, i32 48
  %d3 = extractelement <4 x float> %d, i32 3
  store float %d3, ptr addrspace(1) %cp3, align 4
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
