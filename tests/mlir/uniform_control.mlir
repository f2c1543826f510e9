// Uniform control flow with results: an scf.if on a kernel argument, an
// scf.while computing gcd(p, q) in SGPRs, and nesting: a uniform loop around a
// divergent loop around a divergent if.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @uniform_control(%out: memref<256xi32>, %p: i32, %q: i32, %mode: i32) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      // if on an argument: results in SGPRs
      %is0 = arith.cmpi eq, %mode, %z : i32
      %a, %b = scf.if %is0 -> (i32, i32) {
        %s = arith.addi %p, %q : i32
        scf.yield %s, %p : i32, i32
      } else {
        %d = arith.subi %p, %q : i32
        %m = arith.muli %d, %q : i32
        scf.yield %d, %m : i32, i32
      }
      // gcd(p, q) by remainders, uniform while
      %g:2 = scf.while (%x = %p, %y = %q) : (i32, i32) -> (i32, i32) {
        %nz = arith.cmpi ne, %y, %z : i32
        scf.condition(%nz) %x, %y : i32, i32
      } do {
      ^bb0(%x: i32, %y: i32):
        %r = arith.remui %x, %y : i32
        scf.yield %y, %r : i32, i32
      }
      // nesting: for i < mode + 2 (uniform), for j < tid % 4 (per lane), if (i + j) odd
      %t32 = arith.index_cast %tid : index to i32
      %lim = arith.addi %mode, %one : i32
      %lim1 = arith.addi %lim, %one : i32
      %limi = arith.index_cast %lim1 : i32 to index
      %tm = arith.remui %tid, %c4 : index
      %acc = scf.for %i = %c0 to %limi step %c1 iter_args(%s0 = %z) -> (i32) {
        %inner = scf.for %j = %c0 to %tm step %c1 iter_args(%s1 = %s0) -> (i32) {
          %ij = arith.addi %i, %j : index
          %par = arith.remui %ij, %c3 : index
          %odd = arith.cmpi eq, %par, %c1 : index
          %n = scf.if %odd -> (i32) {
            %ij32 = arith.index_cast %ij : index to i32
            %w = arith.addi %s1, %ij32 : i32
            scf.yield %w : i32
          } else {
            %w = arith.addi %s1, %one : i32
            scf.yield %w : i32
          }
          scf.yield %n : i32
        }
        scf.yield %inner : i32
      }
      %o = arith.muli %tid, %c4 : index
      %o1 = arith.addi %o, %c1 : index
      %o2 = arith.addi %o1, %c1 : index
      %o3 = arith.addi %o2, %c1 : index
      memref.store %a, %out[%o] : memref<256xi32>
      memref.store %b, %out[%o1] : memref<256xi32>
      memref.store %g#0, %out[%o2] : memref<256xi32>
      memref.store %acc, %out[%o3] : memref<256xi32>
      gpu.return
    }
  }
}
