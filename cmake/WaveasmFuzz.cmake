# WAVEASM_FUZZ: coverage-guided fuzz targets (tests/fuzz, docs/fuzzing.md).
#
# The targets link libFuzzer (-fsanitize=fuzzer), which clang provides when its
# compiler-rt fuzzer runtime is installed. Everything they exercise, the library
# first, is compiled with AddressSanitizer, UndefinedBehaviorSanitizer and the
# fuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link), so the option
# turns WAVEASM_SANITIZE on. Without the runtime WAVEASM_HAVE_LIBFUZZER is false
# and the fuzz tests report themselves as skipped.
include(CheckCSourceCompiles)

set(WAVEASM_HAVE_LIBFUZZER OFF)
if(WAVEASM_FUZZ)
  set(CMAKE_REQUIRED_FLAGS -fsanitize=fuzzer,address,undefined)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer,address,undefined)
  check_c_source_compiles([=[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return size > 0 && data[0] == 'x';
}
]=] WAVEASM_LIBFUZZER_LINKS)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(WAVEASM_LIBFUZZER_LINKS)
    set(WAVEASM_HAVE_LIBFUZZER ON)
    if(NOT WAVEASM_SANITIZE)
      message(STATUS "WAVEASM_FUZZ: building with sanitizers (WAVEASM_SANITIZE)")
      set(WAVEASM_SANITIZE ON)
    endif()
    # asserts stay on whatever the build type: an internal invariant that input
    # can break is a finding too
    add_compile_options(-fsanitize=fuzzer-no-link -UNDEBUG)
  else()
    message(STATUS "WAVEASM_FUZZ: ${CMAKE_C_COMPILER_ID} cannot link -fsanitize=fuzzer "
                   "(clang with its fuzzer runtime, e.g. libclang-rt-22-dev, is needed); "
                   "the fuzz tests will be skipped")
  endif()
endif()
