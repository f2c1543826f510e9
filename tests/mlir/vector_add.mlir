// c = a + b over n elements (n given at run time): each work-item handles 4
// consecutive elements with vector loads; the tail is masked.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vector_add(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %n: index) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c256 = arith.constant 256 : index
      %c4 = arith.constant 4 : index
      %base = arith.muli %bid, %c256 : index
      %t4 = arith.muli %tid, %c4 : index
      %i = arith.addi %base, %t4 : index
      %left = arith.subi %n, %i : index
      %mask = vector.create_mask %left : vector<4xi1>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %va = vector.maskedload %a[%i], %mask, %zero : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      %vb = vector.maskedload %b[%i], %mask, %zero : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      %vc = arith.addf %va, %vb : vector<4xf32>
      vector.maskedstore %c[%i], %mask, %vc : memref<?xf32>, vector<4xi1>, vector<4xf32>
      gpu.return
    }
  }
}
