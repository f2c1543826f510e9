// Sum of 256 floats per workgroup: each work-item adds 4 values, each wave
// reduces with xor shuffles, the waves' partial sums meet in LDS.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce_sum(%in: memref<?xf32>, %out: memref<?xf32>) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %base = arith.muli %bid, %c256 : index
      %t4 = arith.muli %tid, %c4 : index
      %i = arith.addi %base, %t4 : index
      %v = vector.load %in[%i] : memref<?xf32>, vector<4xf32>
      %zero = arith.constant 0.0 : f32
      %s = vector.reduction <add>, %v, %zero : vector<4xf32> into f32
      %w = arith.constant 64 : i32
      %o1 = arith.constant 1 : i32
      %o2 = arith.constant 2 : i32
      %o4 = arith.constant 4 : i32
      %o8 = arith.constant 8 : i32
      %o16 = arith.constant 16 : i32
      %o32 = arith.constant 32 : i32
      %x1, %p1 = gpu.shuffle xor %s, %o1, %w : f32
      %s1 = arith.addf %s, %x1 : f32
      %x2, %p2 = gpu.shuffle xor %s1, %o2, %w : f32
      %s2 = arith.addf %s1, %x2 : f32
      %x4, %p4 = gpu.shuffle xor %s2, %o4, %w : f32
      %s4 = arith.addf %s2, %x4 : f32
      %x8, %p8 = gpu.shuffle xor %s4, %o8, %w : f32
      %s8 = arith.addf %s4, %x8 : f32
      %x16, %p16 = gpu.shuffle xor %s8, %o16, %w : f32
      %s16 = arith.addf %s8, %x16 : f32
      %x32, %p32 = gpu.shuffle xor %s16, %o32, %w : f32
      %s32 = arith.addf %s16, %x32 : f32
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {
        memref.store %s32, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
