// out[i][j] = in[i][j] * 2 + bias[j] over a dynamic MxN matrix with a
// dynamic row pitch: memref.dim, a subview and a reinterpret_cast, with
// bounds checked per lane (one work-item per element, 16x16 workgroups).
#strided = strided<[?, 1], offset: ?>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dynamic_shapes(%in: memref<?xf32>, %bias: memref<?xf32>, %out: memref<?x?xf32>,
                             %m: index, %n: index, %pitch: index, %off: index) kernel
        attributes {gpu.known_block_size = array<i32: 16, 16, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c16 = arith.constant 16 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %j0 = arith.muli %bx, %c16 : index
      %j = arith.addi %j0, %tx : index
      %i0 = arith.muli %by, %c16 : index
      %i = arith.addi %i0, %ty : index
      %src = memref.reinterpret_cast %in to offset: [%off], sizes: [%m, %n], strides: [%pitch, 1]
          : memref<?xf32> to memref<?x?xf32, #strided>
      %rows = memref.dim %out, %c0 : memref<?x?xf32>
      %cols = memref.dim %out, %c1 : memref<?x?xf32>
      %in_r = arith.cmpi ult, %i, %rows : index
      %in_c = arith.cmpi ult, %j, %cols : index
      %ok = arith.andi %in_r, %in_c : i1
      scf.if %ok {
        %row = memref.subview %src[%i, 0] [1, %n] [1, 1] : memref<?x?xf32, #strided> to memref<?xf32, strided<[1], offset: ?>>
        %x = memref.load %row[%j] : memref<?xf32, strided<[1], offset: ?>>
        %b = memref.load %bias[%j] : memref<?xf32>
        %two = arith.constant 2.0 : f32
        %y = arith.mulf %x, %two : f32
        %z = arith.addf %y, %b : f32
        memref.store %z, %out[%i, %j] : memref<?x?xf32>
      }
      gpu.return
    }
  }
}
