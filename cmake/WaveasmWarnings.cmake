# Warnings are errors on every compiler we support (gcc, clang).
set(WAVEASM_WARNINGS -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes
    -Wmissing-prototypes -Wno-unused-parameter -Wformat=2 -Wvla)
function(waveasm_warnings target)
  target_compile_options(${target} PRIVATE ${WAVEASM_WARNINGS})
endfunction()
