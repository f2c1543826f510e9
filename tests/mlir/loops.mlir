// Loops: a uniform scf.for with iter_args over a run-time trip count, a
// per-lane (divergent) scf.for whose trip count depends on the lane, and an
// scf.while (Collatz steps, per lane); an scf.execute_region.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loops(%in: memref<?xi32>, %out: memref<?xi32>, %n: i32) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c64 = arith.constant 64 : index
      %n_idx = arith.index_cast %n : i32 to index
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      // uniform: sum and xor of in[k * 64 + tid] for k < n
      %s, %x = scf.for %k = %c0 to %n_idx step %c1 iter_args(%a = %z, %b = %z) -> (i32, i32) {
        %o = arith.muli %k, %c64 : index
        %i = arith.addi %o, %tid : index
        %v = memref.load %in[%i] : memref<?xi32>
        %a2 = arith.addi %a, %v : i32
        %b2 = arith.xori %b, %v : i32
        scf.yield %a2, %b2 : i32, i32
      }
      // divergent: sum of j * j for j in [tid % 5, tid % 11) step 2
      %c5 = arith.constant 5 : index
      %c11 = arith.constant 11 : index
      %c2 = arith.constant 2 : index
      %lo = arith.remui %tid, %c5 : index
      %hi = arith.remui %tid, %c11 : index
      %q = scf.for %j = %lo to %hi step %c2 iter_args(%acc = %z) -> (i32) {
        %ji = arith.index_cast %j : index to i32
        %sq = arith.muli %ji, %ji : i32
        %acc2 = arith.addi %acc, %sq : i32
        scf.yield %acc2 : i32
      }
      // while: Collatz steps of tid + 1
      %t1 = arith.index_cast %tid : index to i32
      %start = arith.addi %t1, %one : i32
      %steps:2 = scf.while (%v = %start, %cnt = %z) : (i32, i32) -> (i32, i32) {
        %go = arith.cmpi ne, %v, %one : i32
        scf.condition(%go) %v, %cnt : i32, i32
      } do {
      ^bb0(%v: i32, %cnt: i32):
        %two = arith.constant 2 : i32
        %three = arith.constant 3 : i32
        %odd = arith.remui %v, %two : i32
        %isodd = arith.cmpi ne, %odd, %z : i32
        %h = arith.divui %v, %two : i32
        %t3 = arith.muli %v, %three : i32
        %t3p = arith.addi %t3, %one : i32
        %nv = arith.select %isodd, %t3p, %h : i32
        %nc = arith.addi %cnt, %one : i32
        scf.yield %nv, %nc : i32, i32
      }
      %o0 = arith.muli %tid, %c3 : index
      %o1 = arith.addi %o0, %c1 : index
      %o2 = arith.addi %o0, %c2 : index
      %s2 = scf.execute_region -> i32 {
        %sx = arith.addi %s, %x : i32
        scf.yield %sx : i32
      }
      memref.store %s2, %out[%o0] : memref<?xi32>
      memref.store %q, %out[%o1] : memref<?xi32>
      memref.store %steps#1, %out[%o2] : memref<?xi32>
      gpu.return
    }
  }
}
