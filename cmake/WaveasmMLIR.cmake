# Finds what the MLIR front end needs from LLVM 22: the MLIR C API headers,
# the C API archives (libMLIRCAPI*.a) and libMLIR.so / libLLVM.so. Sets
# WAVEASM_MLIR_FOUND and, when found, WAVEASM_MLIR_INCLUDE_DIR,
# WAVEASM_MLIR_LIBDIR and WAVEASM_MLIR_LINK (archives then shared libraries).
set(WAVEASM_MLIR_ROOT "/usr/lib/llvm-22" CACHE PATH
    "LLVM 22 installation that holds MLIR (Debian: libmlir-22-dev)")

set(WAVEASM_MLIR_FOUND FALSE)
set(_wa_mlir_missing "")
find_path(WAVEASM_MLIR_INCLUDE_DIR mlir-c/IR.h PATHS ${WAVEASM_MLIR_ROOT}/include NO_DEFAULT_PATH)
if(NOT WAVEASM_MLIR_INCLUDE_DIR)
  list(APPEND _wa_mlir_missing "mlir-c/IR.h")
endif()
find_library(WAVEASM_MLIR_SO NAMES MLIR PATHS ${WAVEASM_MLIR_ROOT}/lib NO_DEFAULT_PATH)
find_library(WAVEASM_LLVM_SO NAMES LLVM PATHS ${WAVEASM_MLIR_ROOT}/lib NO_DEFAULT_PATH)
if(NOT WAVEASM_MLIR_SO)
  list(APPEND _wa_mlir_missing "libMLIR.so")
endif()
if(NOT WAVEASM_LLVM_SO)
  list(APPEND _wa_mlir_missing "libLLVM.so")
endif()
# The C API of the dialects the front end loads.
set(_wa_capi IR AMDGPU Affine Arith ControlFlow Func GPU LLVM Math MemRef ROCDL SCF Vector)
set(_wa_archives "")
foreach(_c ${_wa_capi})
  find_library(WAVEASM_MLIR_CAPI_${_c} NAMES libMLIRCAPI${_c}.a PATHS ${WAVEASM_MLIR_ROOT}/lib
               NO_DEFAULT_PATH)
  if(WAVEASM_MLIR_CAPI_${_c})
    list(APPEND _wa_archives ${WAVEASM_MLIR_CAPI_${_c}})
  else()
    list(APPEND _wa_mlir_missing "libMLIRCAPI${_c}.a")
  endif()
endforeach()
if(NOT _wa_mlir_missing)
  set(WAVEASM_MLIR_FOUND TRUE)
  get_filename_component(WAVEASM_MLIR_LIBDIR ${WAVEASM_MLIR_SO} DIRECTORY)
  set(WAVEASM_MLIR_LINK ${_wa_archives} ${WAVEASM_MLIR_SO} ${WAVEASM_LLVM_SO} stdc++)
else()
  string(REPLACE ";" ", " _wa_mlir_missing "${_wa_mlir_missing}")
  set(WAVEASM_MLIR_MISSING "${_wa_mlir_missing}")
endif()
