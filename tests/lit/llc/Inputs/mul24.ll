declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @mul24(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %tid
  %v = load i32, ptr addrspace(1) %p
  %a = and i32 %v, 16777215
  %b = and i32 %tid, 65535
  %m = mul i32 %a, %b
  %c = lshr i32 %v, 8
  %m2 = mul i32 %c, 12345
  %s = add i32 %m, %m2
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s, ptr addrspace(1) %q
  ret void
}
