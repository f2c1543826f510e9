// The IREE dispatch form in generic syntax (the stream dialect is not
// registered): !stream.binding arguments, stream.binding.subspan with a byte
// offset, and the workgroup size from translation_info. out = a * s + b.
"builtin.module"() ({
  "func.func"() <{function_type = (!stream.binding, !stream.binding, !stream.binding, f32) -> (), sym_name = "saxpy_dispatch"}> ({
  ^bb0(%a_b: !stream.binding, %b_b: !stream.binding, %o_b: !stream.binding, %s: f32):
    %c0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %c64 = "arith.constant"() <{value = 64 : index}> : () -> index
    %c128 = "arith.constant"() <{value = 128 : index}> : () -> index
    %a = "stream.binding.subspan"(%a_b, %c0) : (!stream.binding, index) -> memref<512xf32>
    %b = "stream.binding.subspan"(%b_b, %c64) : (!stream.binding, index) -> memref<512xf32>
    %o = "stream.binding.subspan"(%o_b, %c0) : (!stream.binding, index) -> memref<512xf32>
    %tid = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
    %bid = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
    %base = "arith.muli"(%bid, %c128) : (index, index) -> index
    %i = "arith.addi"(%base, %tid) : (index, index) -> index
    %x = "memref.load"(%a, %i) : (memref<512xf32>, index) -> f32
    %y = "memref.load"(%b, %i) : (memref<512xf32>, index) -> f32
    %p = "arith.mulf"(%x, %s) : (f32, f32) -> f32
    %r = "arith.addf"(%p, %y) : (f32, f32) -> f32
    "memref.store"(%r, %o, %i) : (f32, memref<512xf32>, index) -> ()
    "func.return"() : () -> ()
  }) {translation_info = #iree_codegen.translation_info<pipeline = LLVMGPUDefault workgroup_size = [128, 1, 1] subgroup_size = 64>} : () -> ()
}) : () -> ()
