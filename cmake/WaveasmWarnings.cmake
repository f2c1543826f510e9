# Warnings of every target, on every compiler we support (gcc, clang). They are
# errors only with -DWAVEASM_WERROR=ON (development and CI: scripts/test.sh);
# a user's or packager's build with another compiler version must not fail on a
# new warning.
set(WAVEASM_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
    -Wmissing-prototypes -Wno-unused-parameter -Wformat=2 -Wvla)
if(WAVEASM_WERROR)
  list(APPEND WAVEASM_WARNINGS -Werror)
endif()
function(waveasm_warnings target)
  target_compile_options(${target} PRIVATE ${WAVEASM_WARNINGS})
endfunction()
