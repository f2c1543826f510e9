// C = A * B^T in the form Wave hands its backend: an IREE dispatch function
// (!stream.binding arguments, workgroup size from translation_info), f16 A
// (128x256, row-major) and B (128x256: row n holds column n of the product's
// right operand), f32 C (128x128). A workgroup of 4 waves computes a 64x64 tile
// of C, each wave a 32x32 quarter as 2x2 v_mfma_f32_16x16x16_f16 tiles. The K
// loop steps by 32 and double-buffers LDS: while the waves multiply the slice in
// one buffer, the next slice is already loaded from global memory and goes into
// the other buffer, so one barrier per step is enough.
// Launch: 2x2 workgroups of 256.
// Run: waveasm-run-gemm --m=128 --n=128 --k=256 --grid=2,2
!A = memref<128x256xf16>
!B = memref<128x256xf16>
!C = memref<128x128xf32>
!L = memref<2x64x32xf16, #gpu.address_space<workgroup>>
module {
  func.func @gemm_kloop(%a_b: !stream.binding, %b_b: !stream.binding, %c_b: !stream.binding)
      attributes {translation_info = #iree_codegen.translation_info<pipeline = None workgroup_size = [256, 1, 1] subgroup_size = 64>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c224 = arith.constant 224 : index
    %A = "stream.binding.subspan"(%a_b, %c0) : (!stream.binding, index) -> !A
    %B = "stream.binding.subspan"(%b_b, %c0) : (!stream.binding, index) -> !B
    %C = "stream.binding.subspan"(%c_b, %c0) : (!stream.binding, index) -> !C
    %sa = memref.alloc() : !L
    %sb = memref.alloc() : !L
    %tid = gpu.thread_id x
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %row0 = arith.muli %by, %c64 : index
    %col0 = arith.muli %bx, %c64 : index
    // staging: thread t moves 8 halves of row t / 4, from column 8 (t % 4)
    %tr = arith.divui %tid, %c4 : index
    %tc0 = arith.remui %tid, %c4 : index
    %tc = arith.muli %tc0, %c8 : index
    %ga = arith.addi %row0, %tr : index
    %gb = arith.addi %col0, %tr : index
    // the wave's 32x32 quarter, and the lane's place in a 16x16x16 MFMA
    %wave = arith.divui %tid, %c64 : index
    %lane = arith.remui %tid, %c64 : index
    %wr0 = arith.divui %wave, %c4 : index
    %wr1 = affine.apply affine_map<(w) -> ((w floordiv 2) * 32)>(%wave)
    %wc1 = affine.apply affine_map<(w) -> ((w mod 2) * 32)>(%wave)
    %li = arith.remui %lane, %c16 : index
    %lg = arith.divui %lane, %c16 : index
    %lk = arith.muli %lg, %c4 : index
    %ar0 = arith.addi %wr1, %li : index
    %ar1 = arith.addi %ar0, %c16 : index
    %bc0 = arith.addi %wc1, %li : index
    %bc1 = arith.addi %bc0, %c16 : index
    %zero = arith.constant dense<0.0> : vector<4xf32>
    // prologue: the first slice into buffer 0
    %pa = vector.load %A[%ga, %tc] : !A, vector<8xf16>
    %pb = vector.load %B[%gb, %tc] : !B, vector<8xf16>
    vector.store %pa, %sa[%c0, %tr, %tc] : !L, vector<8xf16>
    vector.store %pb, %sb[%c0, %tr, %tc] : !L, vector<8xf16>
    amdgpu.lds_barrier
    %r:5 = scf.for %k = %c0 to %c224 step %c32
        iter_args(%a00 = %zero, %a01 = %zero, %a10 = %zero, %a11 = %zero, %buf = %c0)
        -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, index) {
      // the next slice, in flight while this one is multiplied
      %kn0 = arith.addi %k, %c32 : index
      %kn = arith.addi %kn0, %tc : index
      %na = vector.load %A[%ga, %kn] : !A, vector<8xf16>
      %nb = vector.load %B[%gb, %kn] : !B, vector<8xf16>
      %m:4 = scf.for %kk = %c0 to %c32 step %c16
          iter_args(%m00 = %a00, %m01 = %a01, %m10 = %a10, %m11 = %a11)
          -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
        %kc = arith.addi %kk, %lk : index
        %x0 = vector.load %sa[%buf, %ar0, %kc] : !L, vector<4xf16>
        %x1 = vector.load %sa[%buf, %ar1, %kc] : !L, vector<4xf16>
        %y0 = vector.load %sb[%buf, %bc0, %kc] : !L, vector<4xf16>
        %y1 = vector.load %sb[%buf, %bc1, %kc] : !L, vector<4xf16>
        %d00 = amdgpu.mfma 16x16x16 %x0 * %y0 + %m00 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
        %d01 = amdgpu.mfma 16x16x16 %x0 * %y1 + %m01 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
        %d10 = amdgpu.mfma 16x16x16 %x1 * %y0 + %m10 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
        %d11 = amdgpu.mfma 16x16x16 %x1 * %y1 + %m11 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
        scf.yield %d00, %d01, %d10, %d11 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
      }
      %nbuf = arith.subi %c1, %buf : index
      vector.store %na, %sa[%nbuf, %tr, %tc] : !L, vector<8xf16>
      vector.store %nb, %sb[%nbuf, %tr, %tc] : !L, vector<8xf16>
      amdgpu.lds_barrier
      scf.yield %m#0, %m#1, %m#2, %m#3, %nbuf : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, index
    }
    // epilogue: the last slice
    %e:4 = scf.for %kk = %c0 to %c32 step %c16
        iter_args(%m00 = %r#0, %m01 = %r#1, %m10 = %r#2, %m11 = %r#3)
        -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
      %kc = arith.addi %kk, %lk : index
      %x0 = vector.load %sa[%r#4, %ar0, %kc] : !L, vector<4xf16>
      %x1 = vector.load %sa[%r#4, %ar1, %kc] : !L, vector<4xf16>
      %y0 = vector.load %sb[%r#4, %bc0, %kc] : !L, vector<4xf16>
      %y1 = vector.load %sb[%r#4, %bc1, %kc] : !L, vector<4xf16>
      %d00 = amdgpu.mfma 16x16x16 %x0 * %y0 + %m00 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %d01 = amdgpu.mfma 16x16x16 %x0 * %y1 + %m01 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %d10 = amdgpu.mfma 16x16x16 %x1 * %y0 + %m10 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %d11 = amdgpu.mfma 16x16x16 %x1 * %y1 + %m11 blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      scf.yield %d00, %d01, %d10, %d11 : vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
    }
    // C: lane l of a 16x16 tile holds rows 4 (l / 16) + i, column l % 16
    %cr0 = arith.addi %row0, %ar0 : index
    %cr = arith.subi %cr0, %li : index
    %crl = arith.addi %cr, %lk : index
    %cc = arith.addi %col0, %bc0 : index
    %cr16 = arith.addi %crl, %c16 : index
    %cc16 = arith.addi %cc, %c16 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %v00 = vector.extract %e#0[%i] : f32 from vector<4xf32>
      %v01 = vector.extract %e#1[%i] : f32 from vector<4xf32>
      %v10 = vector.extract %e#2[%i] : f32 from vector<4xf32>
      %v11 = vector.extract %e#3[%i] : f32 from vector<4xf32>
      %r0 = arith.addi %crl, %i : index
      %r1 = arith.addi %cr16, %i : index
      memref.store %v00, %C[%r0, %cc] : !C
      memref.store %v01, %C[%r0, %cc16] : !C
      memref.store %v10, %C[%r1, %cc] : !C
      memref.store %v11, %C[%r1, %cc16] : !C
    }
    return
  }
}
