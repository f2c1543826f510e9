; parity: grid=2 bytes=8192 arg2=5
; A divergent if/else on a loaded value, each side computing a different
; expression of several loaded values, merged after the join.
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
define amdgpu_kernel void @if_else(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %wg, 256
  %i = add i32 %base, %tid
  %p = getelementptr <2 x i32>, ptr addrspace(1) %in, i32 %i
  %v2 = load <2 x i32>, ptr addrspace(1) %p, align 8
  %v = extractelement <2 x i32> %v2, i32 0
  %w = extractelement <2 x i32> %v2, i32 1
  %c = icmp slt i32 %v, %n
  br i1 %c, label %then, label %else
then:
  %a = mul i32 %v, 3
  %a2 = add i32 %a, %w
  %a3 = xor i32 %a2, %tid
  br label %join
else:
  %b = sub i32 %v, %n
  %b2 = shl i32 %b, 2
  %b3 = mul i32 %b2, %w
  br label %join
join:
  %r = phi i32 [ %a3, %then ], [ %b3, %else ]
  %s = add i32 %r, %w
  %q = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %s, ptr addrspace(1) %q, align 4
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
