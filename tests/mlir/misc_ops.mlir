// Memory and synchronisation operations: amdgpu fat raw buffers, raw buffer
// loads, stores and float atomics, LDS through memref.global and a view,
// subview and cast, extract_strided_metadata, assume_alignment, memref
// atomic_rmw, gpu shuffles (idx, up) and subgroup_broadcast, rocdl
// readfirstlane, barriers, priorities, scheduling hints, affine maps and cf
// branches.
#map = affine_map<(d0)[s0] -> (d0 * 2 + s0)>
#min = affine_map<(d0) -> (d0 + 3, 63)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @lds_tile : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.func @misc_ops(%in: memref<128xf32>, %out: memref<512xf32>, %acc: memref<4xf32>) kernel
        attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %in_al = memref.assume_alignment %in, 16 : memref<128xf32>
      // a fat raw buffer over the input: loads by raw_buffer_load
      %fat = amdgpu.fat_raw_buffer_cast %in_al : memref<128xf32> to memref<128xf32, #amdgpu.address_space<fat_raw_buffer>>
      %x = memref.load %fat[%tid] : memref<128xf32, #amdgpu.address_space<fat_raw_buffer>>
      %tid32 = arith.index_cast %tid : index to i32
      %c64i = arith.constant 64 : i32
      %hi32 = arith.addi %tid32, %c64i : i32
      %y = amdgpu.raw_buffer_load %in[%hi32] : memref<128xf32>, i32 -> f32
      // LDS: a global tile, written by lane, read back reversed after a barrier
      %tile = memref.get_global @lds_tile : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %tile[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %c63 = arith.constant 63 : index
      %rev = arith.subi %c63, %tid : index
      %xr = memref.load %tile[%rev] : memref<64xf32, #gpu.address_space<workgroup>>
      // a byte buffer in LDS viewed as floats, then a subview and a cast
      %bytes = memref.alloc() : memref<512xi8, #gpu.address_space<workgroup>>
      %view = memref.view %bytes[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<2x64xf32, #gpu.address_space<workgroup>>
      %row1 = memref.subview %view[1, 0] [1, 64] [1, 1] : memref<2x64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
      %dyn = memref.cast %row1 : memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>> to memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      memref.store %y, %dyn[%tid] : memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      gpu.barrier
      %rev1 = arith.subi %c63, %tid : index
      %yr = memref.load %row1[%rev1] : memref<64xf32, strided<[1], offset: 64>, #gpu.address_space<workgroup>>
      %base, %offset, %size, %stride = memref.extract_strided_metadata %dyn : memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>> -> memref<f32, #gpu.address_space<workgroup>>, index, index, index
      // shuffles
      %w = arith.constant 64 : i32
      %c5 = arith.constant 5 : i32
      %sidx, %p0 = gpu.shuffle idx %x, %c5, %w : f32
      %c3 = arith.constant 3 : i32
      %sup, %p1 = gpu.shuffle up %x, %c3, %w : f32
      %bc = gpu.subgroup_broadcast %x, first_active_lane : f32
      %rf = rocdl.readfirstlane %y : f32
      // affine
      %a1 = affine.apply #map(%tid)[%c1]
      %a2 = affine.min #min(%tid)
      %a3 = affine.max #min(%tid)
      // scheduling and synchronisation hints
      rocdl.s.setprio 2
      rocdl.sched.barrier 0
      amdgpu.sched_barrier allow = <none>
      rocdl.s.setprio 0
      // unstructured control flow: lanes with odd tid add 100
      %o = arith.muli %tid, %c1 : index
      %two = arith.constant 2 : index
      %odd = arith.remui %tid, %two : index
      %isodd = arith.cmpi ne, %odd, %c0 : index
      %f0 = arith.constant 0.0 : f32
      %f100 = arith.constant 100.0 : f32
      %sel = arith.select %isodd, %f100, %f0 : f32
      // atomics: every lane adds x into acc[0] (float), raw buffer fadd into acc[1]
      %added = memref.atomic_rmw addf %x, %acc[%c0] : (f32, memref<4xf32>) -> f32
      %i1 = arith.constant 1 : i32
      amdgpu.raw_buffer_atomic_fadd %y -> %acc[%i1] : f32 -> memref<4xf32>, i32
      // results: 8 per lane
      %r0 = arith.addf %xr, %sel : f32
      %k8 = arith.constant 8 : index
      %ob = arith.muli %tid, %k8 : index
      %ob1 = arith.addi %ob, %c1 : index
      %ob2 = arith.addi %ob1, %c1 : index
      %ob3 = arith.addi %ob2, %c1 : index
      %ob4 = arith.addi %ob3, %c1 : index
      %ob5 = arith.addi %ob4, %c1 : index
      %ob6 = arith.addi %ob5, %c1 : index
      %ob7 = arith.addi %ob6, %c1 : index
      memref.store %r0, %out[%ob] : memref<512xf32>
      memref.store %yr, %out[%ob1] : memref<512xf32>
      memref.store %sidx, %out[%ob2] : memref<512xf32>
      memref.store %sup, %out[%ob3] : memref<512xf32>
      memref.store %bc, %out[%ob4] : memref<512xf32>
      memref.store %rf, %out[%ob5] : memref<512xf32>
      %a12 = arith.addi %a1, %a2 : index
      %a123 = arith.addi %a12, %a3 : index
      %ameta = arith.addi %a123, %offset : index
      %ameta2 = arith.addi %ameta, %size : index
      %ai = arith.index_cast %ameta2 : index to i32
      %af = arith.sitofp %ai : i32 to f32
      memref.store %af, %out[%ob6] : memref<512xf32>
      cf.br ^bb1(%ob7 : index)
    ^bb1(%slot: index):
      %x0 = rocdl.readfirstlane %x : f32
      %neg = arith.cmpf olt, %x0, %f0 : f32
      cf.cond_br %neg, ^bb2, ^bb3
    ^bb2:
      %m1 = arith.constant -1.0 : f32
      memref.store %m1, %out[%slot] : memref<512xf32>
      cf.br ^bb4
    ^bb3:
      %p1f = arith.constant 1.0 : f32
      memref.store %p1f, %out[%slot] : memref<512xf32>
      cf.br ^bb4
    ^bb4:
      gpu.return
    }
  }
}
