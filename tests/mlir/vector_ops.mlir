// Vector operations per lane: each work-item reads 8 floats and 8 ints at
// 8 * tid and writes 16 floats and 8 ints of results at 16 * tid and 8 * tid.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vector_ops(%in: memref<512xf32>, %ini: memref<512xi32>, %out: memref<1024xf32>,
                         %outi: memref<512xi32>) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c4 = arith.constant 4 : index
      %i = arith.muli %tid, %c8 : index
      %o = arith.muli %tid, %c16 : index
      %pad = arith.constant 0.0 : f32
      // transfer_read of 8, split with strided slices, recombined
      %v = vector.transfer_read %in[%i], %pad {in_bounds = [true]} : memref<512xf32>, vector<8xf32>
      %lo = vector.extract_strided_slice %v {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
      %hi = vector.extract_strided_slice %v {offsets = [4], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
      // fma(lo, hi, broadcast(v[7]))
      %e7 = vector.extract %v[7] : f32 from vector<8xf32>
      %b7 = vector.broadcast %e7 : f32 to vector<4xf32>
      %f = vector.fma %lo, %hi, %b7 : vector<4xf32>
      // a 2x4 shape: rows lo, f; transposed, then flattened
      %z = arith.constant dense<0.0> : vector<2x4xf32>
      %m0 = vector.insert %lo, %z [0] : vector<4xf32> into vector<2x4xf32>
      %m1 = vector.insert %f, %m0 [1] : vector<4xf32> into vector<2x4xf32>
      %t = vector.transpose %m1, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
      %flat = vector.shape_cast %t : vector<4x2xf32> to vector<8xf32>
      vector.transfer_write %flat, %out[%o] {in_bounds = [true]} : vector<8xf32>, memref<1024xf32>
      // reductions and from_elements
      %radd = vector.reduction <add>, %v : vector<8xf32> into f32
      %rmax = vector.reduction <maximumf>, %v : vector<8xf32> into f32
      %rmul = vector.reduction <mul>, %lo : vector<4xf32> into f32
      %rmin = vector.reduction <minimumf>, %hi : vector<4xf32> into f32
      %fe = vector.from_elements %radd, %rmax, %rmul, %rmin : vector<4xf32>
      // insert_strided_slice of fe into a splat of v[0]
      %e0 = vector.extract %v[0] : f32 from vector<8xf32>
      %s = vector.broadcast %e0 : f32 to vector<8xf32>
      %ins = vector.insert_strided_slice %fe, %s {offsets = [2], strides = [1]} : vector<4xf32> into vector<8xf32>
      %o8 = arith.addi %o, %c8 : index
      vector.store %ins, %out[%o8] : memref<1024xf32>, vector<8xf32>
      // integer vector: bitcast, reductions, step, masks
      %vi = vector.load %ini[%i] : memref<512xi32>, vector<8xi32>
      %bits = vector.bitcast %lo : vector<4xf32> to vector<4xi32>
      %xand = vector.reduction <and>, %vi : vector<8xi32> into i32
      %xor = vector.reduction <or>, %vi : vector<8xi32> into i32
      %xxor = vector.reduction <xor>, %vi : vector<8xi32> into i32
      %xmax = vector.reduction <maxsi>, %vi : vector<8xi32> into i32
      %xminu = vector.reduction <minui>, %vi : vector<8xi32> into i32
      %b0 = vector.extract %bits[1] : i32 from vector<4xi32>
      %st = vector.step : vector<8xindex>
      %sti = arith.index_cast %st : vector<8xindex> to vector<8xi32>
      %s5 = vector.extract %sti[5] : i32 from vector<8xi32>
      %cm = vector.constant_mask [3] : vector<8xi1>
      %zi = arith.constant dense<-1> : vector<8xi32>
      %sel = arith.select %cm, %vi, %zi : vector<8xi1>, vector<8xi32>
      %r0 = vector.extract %sel[2] : i32 from vector<8xi32>
      %r1 = vector.extract %sel[3] : i32 from vector<8xi32>
      %res = vector.from_elements %xand, %xor, %xxor, %xmax, %xminu, %b0, %s5, %r0 : vector<8xi32>
      %res2 = vector.insert %r1, %res [7] : i32 into vector<8xi32>
      %sum = arith.addi %res2, %res : vector<8xi32>
      %fin = vector.insert %r0, %sum [6] : i32 into vector<8xi32>
      vector.store %fin, %outi[%i] : memref<512xi32>, vector<8xi32>
      gpu.return
    }
  }
}
