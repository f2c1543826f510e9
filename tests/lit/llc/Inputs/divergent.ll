declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
define amdgpu_kernel void @divergent(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %wg, 256
  %i = add i32 %base, %tid
  %i64 = sext i32 %i to i64
  %p = getelementptr i32, ptr addrspace(1) %in, i64 %i64
  %v = load i32, ptr addrspace(1) %p
  %c = icmp slt i32 %v, %n
  br i1 %c, label %then, label %else
then:
  %a = mul i32 %v, 3
  br label %join
else:
  %b = sub i32 %v, %n
  %b2 = shl i32 %b, 2
  br label %join
join:
  %r = phi i32 [ %a, %then ], [ %b2, %else ]
  %q = getelementptr i32, ptr addrspace(1) %out, i64 %i64
  store i32 %r, ptr addrspace(1) %q
  ret void
}
