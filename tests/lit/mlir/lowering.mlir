// How the front end lowers: only the ABI inputs used (workgroup id y, no x),
// LDS allocations at 16-byte alignment (3 x i16 at 0, then 64 x f32 at 16),
// the buffer descriptor and arguments loaded once at the start, thread_id y
// read into an SGPR (a wave never spans two rows of 64), a uniform loop on an
// SGPR counter branching on SCC, a divergent if under EXEC.
// RUN: waveasm-translate --no-tags %s | FileCheck %s
// CHECK:      .kernel lowering
// CHECK:      .lds_bytes 272
// CHECK-NEXT: .abi kernarg_ptr, workgroup_id_y, workitem_id_x, workitem_id_y
// CHECK-NEXT: .arg arg0, global_buffer, offset:0, size:8, align:8
// CHECK-NEXT: .arg arg0_size0, by_value, offset:8, size:4, align:4
// CHECK-NEXT: .arg arg1, by_value, offset:12, size:4, align:4
// CHECK:      s_load_dword [[N:%s[0-9]+]], s[0:1], 12
// CHECK:      v_bfe_u32 [[TY:%v[0-9]+]], v0, 10, 10
// CHECK-NEXT: v_readfirstlane_b32 [[STY:%s[0-9]+]], [[TY]]
// CHECK:      s_load_dwordx2 [[SRD:%s[0-9]+]]<4,align=4>[0:1], s[0:1], 0
// CHECK:      s_cbranch_scc0 for_exit
// CHECK:      for_body_0:
// CHECK:      buffer_load_dword {{%v[0-9]+}}, off, [[SRD]], {{%s[0-9]+}}
// CHECK:      s_cmp_lt_i32 [[I:%s[0-9]+]], [[N]]
// CHECK-NEXT: s_cselect_b32
// CHECK-NEXT: s_cbranch_scc1 for_body_0
// CHECK:      v_cmp_eq_u32_e64 [[C:%s[0-9]+]]<2,align=2>, {{.*}}
// CHECK:      s_and_saveexec_b64 [[SAVED:%s[0-9]+]]<2,align=2>, [[C]]
// CHECK-NEXT: s_cbranch_execz if_else
// CHECK:      ds_write_b32 {{%v[0-9]+}}, {{%v[0-9]+}} offset:16
// CHECK:      s_mov_b64 exec, [[SAVED]]
// CHECK-NEXT: s_endpgm
gpu.module @m {
  gpu.func @lowering(%a: memref<?xf32>, %n: index) kernel
      attributes {gpu.known_block_size = array<i32: 64, 2, 1>} {
    %small = memref.alloc() : memref<3xi16, #gpu.address_space<workgroup>>
    %big = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %by = gpu.block_id y
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %f0 = arith.constant 0.0 : f32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %f0) -> (f32) {
      %j = arith.addi %i, %by : index
      %v = memref.load %a[%j] : memref<?xf32>
      %s2 = arith.addf %s, %v : f32
      scf.yield %s2 : f32
    }
    %r = arith.remui %tx, %c3 : index
    %c = arith.cmpi eq, %r, %ty : index
    scf.if %c {
      memref.store %sum, %big[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}
