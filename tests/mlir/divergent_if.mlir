// Per-lane control flow: an scf.if with results whose condition depends on
// the data, a nested if without else, and a select.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @divergent_if(%in: memref<256xi32>, %out: memref<256xi32>, %flags: memref<256xi32>) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c64 = arith.constant 64 : index
      %b = arith.muli %bid, %c64 : index
      %i = arith.addi %b, %tid : index
      %x = memref.load %in[%i] : memref<256xi32>
      %c0 = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %c7 = arith.constant 7 : i32
      %c100 = arith.constant 100 : i32
      %neg = arith.cmpi slt, %x, %c0 : i32
      %r, %f = scf.if %neg -> (i32, i32) {
        %y = arith.subi %c0, %x : i32
        %m = arith.remui %y, %c7 : i32
        %big = arith.cmpi ugt, %m, %c3 : i32
        scf.if %big {
          memref.store %m, %flags[%i] : memref<256xi32>
        }
        scf.yield %y, %m : i32, i32
      } else {
        %y = arith.muli %x, %c3 : i32
        %s = arith.select %neg, %c7, %c100 : i32
        scf.yield %y, %s : i32, i32
      }
      %sum = arith.addi %r, %f : i32
      memref.store %sum, %out[%i] : memref<256xi32>
      gpu.return
    }
  }
}
