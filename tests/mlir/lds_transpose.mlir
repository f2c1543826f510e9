// Transposes a 64x64 f32 matrix through a padded 32x33 LDS tile: 32x8
// work-items (4 waves) per 32x32 tile, each moving 4 elements.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @lds_transpose(%in: memref<64x64xf32>, %out: memref<64x64xf32>) kernel
        attributes {gpu.known_block_size = array<i32: 32, 8, 1>} {
      %tile = memref.alloc() : memref<32x33xf32, #gpu.address_space<workgroup>>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %row0 = arith.muli %by, %c32 : index
      %col0 = arith.muli %bx, %c32 : index
      scf.for %j = %c0 to %c4 step %c1 {
        %r8 = arith.muli %j, %c8 : index
        %r = arith.addi %ty, %r8 : index
        %gr = arith.addi %row0, %r : index
        %gc = arith.addi %col0, %tx : index
        %v = memref.load %in[%gr, %gc] : memref<64x64xf32>
        memref.store %v, %tile[%r, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      scf.for %j = %c0 to %c4 step %c1 {
        %r8 = arith.muli %j, %c8 : index
        %r = arith.addi %ty, %r8 : index
        %v = memref.load %tile[%tx, %r] : memref<32x33xf32, #gpu.address_space<workgroup>>
        %gr = arith.addi %col0, %r : index
        %gc = arith.addi %row0, %tx : index
        memref.store %v, %out[%gr, %gc] : memref<64x64xf32>
      }
      gpu.return
    }
  }
}
