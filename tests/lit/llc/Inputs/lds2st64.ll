@lds = internal addrspace(3) global [4096 x double] undef, align 16
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @lds2st64(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p0 = getelementptr double, ptr addrspace(3) @lds, i32 %tid
  %i1 = add i32 %tid, 1024
  %p1 = getelementptr double, ptr addrspace(3) @lds, i32 %i1
  %f = uitofp i32 %tid to double
  store double %f, ptr addrspace(3) %p0, align 8
  store double %f, ptr addrspace(3) %p1, align 8
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %i2 = add i32 %tid, 512
  %p2 = getelementptr double, ptr addrspace(3) @lds, i32 %i2
  %i3 = add i32 %tid, 2048
  %p3 = getelementptr double, ptr addrspace(3) @lds, i32 %i3
  %a = load double, ptr addrspace(3) %p2, align 8
  %b = load double, ptr addrspace(3) %p3, align 8
  %s = fadd double %a, %b
  %q = getelementptr double, ptr addrspace(1) %out, i32 %tid
  store double %s, ptr addrspace(1) %q
  ret void
}
declare void @llvm.amdgcn.s.barrier()
