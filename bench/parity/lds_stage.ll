; parity: grid=2 bytes=32768
; A 64x64 f32 tile transposed through LDS: every work-item writes 16 values,
; a barrier, then reads 16 values of the transposed tile.
@tile = internal addrspace(3) global [4096 x float] undef, align 16
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
define amdgpu_kernel void @lds_stage(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %gbase = mul i32 %wg, 4096
  %col = and i32 %tid, 63
  %r0 = lshr i32 %tid, 6
  br label %store
store:
  %i = phi i32 [ 0, %entry ], [ %in1, %store ]
  %rr = mul i32 %i, 4
  %row = add i32 %r0, %rr
  %li = mul i32 %row, 64
  %lc = add i32 %li, %col
  %gi = add i32 %gbase, %lc
  %gp = getelementptr float, ptr addrspace(1) %in, i32 %gi
  %v = load float, ptr addrspace(1) %gp, align 4
  %lp = getelementptr float, ptr addrspace(3) @tile, i32 %lc
  store float %v, ptr addrspace(3) %lp, align 4
  %in1 = add i32 %i, 1
  %more = icmp ult i32 %in1, 16
  br i1 %more, label %store, label %sync
sync:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br label %load
load:
  %j = phi i32 [ 0, %sync ], [ %jn, %load ]
  %jj = mul i32 %j, 4
  %trow = add i32 %r0, %jj
  %ti = mul i32 %col, 64
  %tl = add i32 %ti, %trow
  %tp = getelementptr float, ptr addrspace(3) @tile, i32 %tl
  %t = load float, ptr addrspace(3) %tp, align 4
  %oi0 = mul i32 %trow, 64
  %oi1 = add i32 %oi0, %col
  %oi = add i32 %gbase, %oi1
  %op = getelementptr float, ptr addrspace(1) %out, i32 %oi
  store float %t, ptr addrspace(1) %op, align 4
  %jn = add i32 %j, 1
  %jmore = icmp ult i32 %jn, 16
  br i1 %jmore, label %load, label %exit
exit:
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
