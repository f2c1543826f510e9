// Sum of 1024 i32 values per workgroup of 256 work-items (4 waves): each wave
// reduces with down shuffles, lane 0 of each wave puts its sum in LDS, and
// after a barrier work-item 0 adds the four partial sums.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce_multiwave(%in: memref<?xi32>, %out: memref<?xi32>) kernel
        attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
      %partial = memref.alloc() : memref<4xi32, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1024 = arith.constant 1024 : index
      %base = arith.muli %bid, %c1024 : index
      %sum = scf.for %j = %c0 to %c4 step %c1 iter_args(%s = %c0) -> (index) {
        %o = arith.muli %j, %c256 : index
        %i0 = arith.addi %base, %o : index
        %i = arith.addi %i0, %tid : index
        %v = memref.load %in[%i] : memref<?xi32>
        %vi = arith.index_cast %v : i32 to index
        %n = arith.addi %s, %vi : index
        scf.yield %n : index
      }
      %s0 = arith.index_cast %sum : index to i32
      %w = arith.constant 64 : i32
      %o32 = arith.constant 32 : i32
      %o16 = arith.constant 16 : i32
      %o8 = arith.constant 8 : i32
      %o4 = arith.constant 4 : i32
      %o2 = arith.constant 2 : i32
      %o1 = arith.constant 1 : i32
      %x1, %p1 = gpu.shuffle down %s0, %o32, %w : i32
      %s1 = arith.addi %s0, %x1 : i32
      %x2, %p2 = gpu.shuffle down %s1, %o16, %w : i32
      %s2 = arith.addi %s1, %x2 : i32
      %x3, %p3 = gpu.shuffle down %s2, %o8, %w : i32
      %s3 = arith.addi %s2, %x3 : i32
      %x4, %p4 = gpu.shuffle down %s3, %o4, %w : i32
      %s4 = arith.addi %s3, %x4 : i32
      %x5, %p5 = gpu.shuffle down %s4, %o2, %w : i32
      %s5 = arith.addi %s4, %x5 : i32
      %x6, %p6 = gpu.shuffle down %s5, %o1, %w : i32
      %s6 = arith.addi %s5, %x6 : i32
      %lane = gpu.lane_id
      %wave = gpu.subgroup_id : index
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        memref.store %s6, %partial[%wave] : memref<4xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %t0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %t0 {
        %p0v = memref.load %partial[%c0] : memref<4xi32, #gpu.address_space<workgroup>>
        %c2 = arith.constant 2 : index
        %c3 = arith.constant 3 : index
        %p1v = memref.load %partial[%c1] : memref<4xi32, #gpu.address_space<workgroup>>
        %p2v = memref.load %partial[%c2] : memref<4xi32, #gpu.address_space<workgroup>>
        %p3v = memref.load %partial[%c3] : memref<4xi32, #gpu.address_space<workgroup>>
        %a = arith.addi %p0v, %p1v : i32
        %b = arith.addi %p2v, %p3v : i32
        %t = arith.addi %a, %b : i32
        memref.store %t, %out[%bid] : memref<?xi32>
      }
      gpu.return
    }
  }
}
