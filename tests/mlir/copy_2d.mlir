// 2-D copy of a 64x128 f32 matrix: 16x4 work-items per workgroup, a 8x16 grid.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy_2d(%src: memref<64x128xf32>, %dst: memref<64x128xf32>) kernel
        attributes {gpu.known_block_size = array<i32: 16, 4, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c16 = arith.constant 16 : index
      %c4 = arith.constant 4 : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %row0 = arith.muli %by, %c4 : index
      %row = arith.addi %row0, %ty : index
      %v = memref.load %src[%row, %col] : memref<64x128xf32>
      memref.store %v, %dst[%row, %col] : memref<64x128xf32>
      gpu.return
    }
  }
}
