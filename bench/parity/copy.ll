; parity: grid=4 bytes=16384
; out[i] = in[i] * 2 for 4 floats per work-item, 256 work-items per workgroup
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
define amdgpu_kernel void @copy(ptr addrspace(1) %in, ptr addrspace(1) %out) #0 {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %wg, 256
  %i = add i32 %base, %tid
  %p = getelementptr <4 x float>, ptr addrspace(1) %in, i32 %i
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %w = fmul <4 x float> %v, <float 2.0, float 2.0, float 2.0, float 2.0>
  %q = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %i
  store <4 x float> %w, ptr addrspace(1) %q, align 16
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="256,256" }
