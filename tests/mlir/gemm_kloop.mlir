// C = A * B for f16 A (64xK), B (Kx64) and f32 C, K a multiple of 16. A
// workgroup of 4 waves computes a 32x32 tile of C, each wave a 16x16 quarter
// with v_mfma_f32_16x16x16_f16. Every K step stages a 32x16 slice of A and a
// 16x32 slice of B in LDS between barriers; the accumulator is an iter_arg.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm_kloop(%A: memref<64x?xf16>, %B: memref<?x64xf16>, %C: memref<64x64xf32>) kernel
        attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
      %sa = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %K = memref.dim %A, %c1 : memref<64x?xf16>
      %row0 = arith.muli %by, %c32 : index
      %col0 = arith.muli %bx, %c32 : index
      // the wave's quarter of the tile
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wr = arith.divui %wave, %c2 : index
      %wc = arith.remui %wave, %c2 : index
      %qr = arith.muli %wr, %c16 : index
      %qc = arith.muli %wc, %c16 : index
      %li = arith.remui %lane, %c16 : index
      %lg = arith.divui %lane, %c16 : index
      %lk = arith.muli %lg, %c4 : index
      // staging: thread t moves A[t / 8][2 (t % 8) + {0, 1}] and B[t / 16][2 (t % 16) + {0, 1}]
      %c8 = arith.constant 8 : index
      %ar = arith.divui %tid, %c8 : index
      %ac0 = arith.remui %tid, %c8 : index
      %ac = arith.muli %ac0, %c2 : index
      %br = arith.divui %tid, %c16 : index
      %bc0 = arith.remui %tid, %c16 : index
      %bc = arith.muli %bc0, %c2 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %acc = scf.for %k = %c0 to %K step %c16 iter_args(%acc_in = %zero) -> (vector<4xf32>) {
        %gar = arith.addi %row0, %ar : index
        %gac = arith.addi %k, %ac : index
        %va = vector.load %A[%gar, %gac] : memref<64x?xf16>, vector<2xf16>
        vector.store %va, %sa[%ar, %ac] : memref<32x16xf16, #gpu.address_space<workgroup>>, vector<2xf16>
        %gbr = arith.addi %k, %br : index
        %gbc = arith.addi %col0, %bc : index
        %vb = vector.load %B[%gbr, %gbc] : memref<?x64xf16>, vector<2xf16>
        vector.store %vb, %sb[%br, %bc] : memref<16x32xf16, #gpu.address_space<workgroup>>, vector<2xf16>
        gpu.barrier
        %arow = arith.addi %qr, %li : index
        %a = vector.load %sa[%arow, %lk] : memref<32x16xf16, #gpu.address_space<workgroup>>, vector<4xf16>
        %bcol = arith.addi %qc, %li : index
        %lk1 = arith.addi %lk, %c1 : index
        %lk2 = arith.addi %lk, %c2 : index
        %lk3 = arith.addi %lk, %c3 : index
        %b0 = memref.load %sb[%lk, %bcol] : memref<16x32xf16, #gpu.address_space<workgroup>>
        %b1 = memref.load %sb[%lk1, %bcol] : memref<16x32xf16, #gpu.address_space<workgroup>>
        %b2 = memref.load %sb[%lk2, %bcol] : memref<16x32xf16, #gpu.address_space<workgroup>>
        %b3 = memref.load %sb[%lk3, %bcol] : memref<16x32xf16, #gpu.address_space<workgroup>>
        %b = vector.from_elements %b0, %b1, %b2, %b3 : vector<4xf16>
        %d = amdgpu.mfma 16x16x16 %a * %b + %acc_in blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      %crow0 = arith.addi %row0, %qr : index
      %crow = arith.addi %crow0, %lk : index
      %ccol0 = arith.addi %col0, %qc : index
      %ccol = arith.addi %ccol0, %li : index
      scf.for %i = %c0 to %c4 step %c1 {
        %r = arith.addi %crow, %i : index
        %v = vector.extract %acc[%i] : f32 from vector<4xf32>
        memref.store %v, %C[%r, %ccol] : memref<64x64xf32>
      }
      gpu.return
    }
  }
}
