// Copies n floats: one work-item per element, 64-wide workgroups.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy_1d(%src: memref<1024xf32>, %dst: memref<1024xf32>) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %src[%i] : memref<1024xf32>
      memref.store %v, %dst[%i] : memref<1024xf32>
      gpu.return
    }
  }
}
