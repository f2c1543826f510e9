// Global to LDS without registers: each lane of each wave gathers one float
// (in[64 w + 63 - lane], reversed) into a 256-float LDS tile with
// amdgpu.gather_to_lds (buffer_load_dword ... lds), waits for it with
// amdgpu.memory_counter_wait, meets the other waves at rocdl.s.barrier and
// copies the tile out rotated by one wave.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather_to_lds(%in: memref<256xf32>, %out: memref<256xf32>) kernel
        attributes {gpu.known_block_size = array<i32: 256, 1, 1>} {
      %tile = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %c63 = arith.constant 63 : index
      %c256 = arith.constant 256 : index
      %wave = arith.divui %tid, %c64 : index
      %lane = arith.remui %tid, %c64 : index
      %wbase = arith.muli %wave, %c64 : index
      %r = arith.subi %c63, %lane : index
      %src = arith.addi %wbase, %r : index
      amdgpu.gather_to_lds %in[%src], %tile[%wbase] : f32, memref<256xf32>, memref<256xf32, #gpu.address_space<workgroup>>
      amdgpu.memory_counter_wait load(0)
      rocdl.s.waitcnt 0
      rocdl.s.barrier
      %t1 = arith.addi %tid, %c64 : index
      %t2 = arith.remui %t1, %c256 : index
      %v = memref.load %tile[%t2] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tid] : memref<256xf32>
      gpu.return
    }
  }
}
