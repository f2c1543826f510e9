// Every work-item of a 3-D grid writes a value made of its ids and the grid
// and block dimensions to its own slot: checks workgroup ids, grid_dim (the
// hidden arguments), block_dim, global_id and the packed work-item ids.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @grid_ids(%out: memref<?xi32>) kernel
        attributes {gpu.known_block_size = array<i32: 8, 4, 2>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %gz = gpu.grid_dim z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %dz = gpu.block_dim z
      %ix = gpu.global_id x
      // linear workgroup index and linear work-item index
      %w0 = arith.muli %bz, %gy : index
      %w1 = arith.addi %w0, %by : index
      %w2 = arith.muli %w1, %gx : index
      %wg = arith.addi %w2, %bx : index
      %t0 = arith.muli %tz, %dy : index
      %t1 = arith.addi %t0, %ty : index
      %t2 = arith.muli %t1, %dx : index
      %t = arith.addi %t2, %tx : index
      %n0 = arith.muli %dx, %dy : index
      %n = arith.muli %n0, %dz : index
      %s0 = arith.muli %wg, %n : index
      %slot = arith.addi %s0, %t : index
      // value: ix + 1000 * (gx + 10 * gy + 100 * gz) + 1000000 * t
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %c1000 = arith.constant 1000 : index
      %c1000000 = arith.constant 1000000 : index
      %g1 = arith.muli %gy, %c10 : index
      %g2 = arith.muli %gz, %c100 : index
      %g3 = arith.addi %gx, %g1 : index
      %g4 = arith.addi %g3, %g2 : index
      %g5 = arith.muli %g4, %c1000 : index
      %v0 = arith.addi %ix, %g5 : index
      %tt = arith.muli %t, %c1000000 : index
      %v1 = arith.addi %v0, %tt : index
      %v = arith.index_cast %v1 : index to i32
      memref.store %v, %out[%slot] : memref<?xi32>
      gpu.return
    }
  }
}
