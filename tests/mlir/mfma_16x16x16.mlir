// One wave computes C = A * B for 16x16 f16 matrices with a single
// v_mfma_f32_16x16x16_f16: lane l holds A[l % 16][4 (l / 16) + i] and
// B[4 (l / 16) + i][l % 16], and receives C[4 (l / 16) + i][l % 16].
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mfma_16x16x16(%A: memref<16x16xf16>, %B: memref<16x16xf16>, %C: memref<16x16xf32>) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %lane = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %i = arith.remui %lane, %c16 : index
      %g = arith.divui %lane, %c16 : index
      %k0 = arith.muli %g, %c4 : index
      %k1 = arith.addi %k0, %c1 : index
      %k2 = arith.addi %k0, %c2 : index
      %k3 = arith.addi %k0, %c3 : index
      %a = vector.load %A[%i, %k0] : memref<16x16xf16>, vector<4xf16>
      %b0 = memref.load %B[%k0, %i] : memref<16x16xf16>
      %b1 = memref.load %B[%k1, %i] : memref<16x16xf16>
      %b2 = memref.load %B[%k2, %i] : memref<16x16xf16>
      %b3 = memref.load %B[%k3, %i] : memref<16x16xf16>
      %b = vector.from_elements %b0, %b1, %b2, %b3 : vector<4xf16>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %d = amdgpu.mfma 16x16x16 %a * %b + %zero blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %d0 = vector.extract %d[0] : f32 from vector<4xf32>
      %d1 = vector.extract %d[1] : f32 from vector<4xf32>
      %d2 = vector.extract %d[2] : f32 from vector<4xf32>
      %d3 = vector.extract %d[3] : f32 from vector<4xf32>
      memref.store %d0, %C[%k0, %i] : memref<16x16xf32>
      memref.store %d1, %C[%k1, %i] : memref<16x16xf32>
      memref.store %d2, %C[%k2, %i] : memref<16x16xf32>
      memref.store %d3, %C[%k3, %i] : memref<16x16xf32>
      gpu.return
    }
  }
}
