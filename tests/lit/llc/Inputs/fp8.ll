declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.amdgcn.cvt.f32.fp8(i32, i32)
declare i32 @llvm.amdgcn.cvt.pk.fp8.f32(float, float, i32, i1)
define amdgpu_kernel void @fp8(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %v = load i32, ptr addrspace(1) %p
  %f0 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %v, i32 0)
  %f1 = call float @llvm.amdgcn.cvt.f32.fp8(i32 %v, i32 1)
  %s = fmul float %f0, %f1
  %pk = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %s, float %f0, i32 0, i1 false)
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %pk, ptr addrspace(1) %q
  ret void
}
