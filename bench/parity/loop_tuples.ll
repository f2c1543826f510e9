; parity: grid=1 bytes=65536 arg2=24
; Two loop-carried float vectors and an integer pair updated from loads every
; iteration (n iterations, an argument).
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @loop_tuples(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inext, %loop ]
  %x = phi <4 x float> [ zeroinitializer, %entry ], [ %x2, %loop ]
  %y = phi <4 x float> [ <float 1.0, float 1.0, float 1.0, float 1.0>, %entry ], [ %y2, %loop ]
  %z = phi <2 x i32> [ zeroinitializer, %entry ], [ %z2, %loop ]
  %row = mul i32 %i, 64
  %idx = add i32 %row, %tid
  %p = getelementptr <4 x float>, ptr addrspace(1) %in, i32 %idx
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %x2 = fadd <4 x float> %x, %v
  %y1 = fmul <4 x float> %y, %v
  %y2 = fadd <4 x float> %y1, %x
  %vi = bitcast <4 x float> %v to <4 x i32>
  %lo = shufflevector <4 x i32> %vi, <4 x i32> undef, <2 x i32> <i32 0, i32 2>
  %z2 = xor <2 x i32> %z, %lo
  %inext = add i32 %i, 1
  %more = icmp ult i32 %inext, %n
  br i1 %more, label %loop, label %done
done:
  %zf = bitcast <2 x i32> %z2 to <2 x float>
  %zw = shufflevector <2 x float> %zf, <2 x float> undef, <4 x i32> <i32 0, i32 1, i32 0, i32 1>
  %s = fadd <4 x float> %x2, %y2
  %t = fadd <4 x float> %s, %zw
  %q = getelementptr <4 x float>, ptr addrspace(1) %out, i32 %tid
  store <4 x float> %t, ptr addrspace(1) %q, align 16
  ret void
}
attributes #0 = { "amdgpu-flat-work-group-size"="64,64" }
