declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @addr64(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %stride) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t64 = zext i32 %tid to i64
  %off = mul i64 %t64, %stride
  %p = getelementptr i64, ptr addrspace(1) %in, i64 %off
  %v = load i64, ptr addrspace(1) %p
  %w = add i64 %v, %off
  %q = getelementptr i64, ptr addrspace(1) %out, i64 %t64
  store i64 %w, ptr addrspace(1) %q
  ret void
}
