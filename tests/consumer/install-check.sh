#!/usr/bin/env bash
# Installs a built libwaveasm into a fresh prefix and checks it the way a user
# would consume it:
#   1. the installed layout (headers, versioned library symlinks, pkg-config file,
#      CMake package files, waveasm-opt);
#   2. every installed public header compiles on its own (C99, warnings as errors);
#   3. project/main.c compiled with `cc $(pkg-config --cflags --libs waveasm)`
#      and run against the installed library;
#   4. the CMake project in project/ (find_package(waveasm CONFIG)) configured,
#      built and run.
# Called by ctest (tests/consumer/CMakeLists.txt) with every tool and path given
# as an option. Exits 77 (reported as skipped) when everything else passed but
# pkg-config is missing.
set -euo pipefail

usage() {
    cat >&2 <<'EOF'
usage: install-check.sh --cmake=CMAKE --build-dir=DIR --work-dir=DIR --source-dir=DIR
                        --libdir=LIBDIR --includedir=INCLUDEDIR --bindir=BINDIR
                        --cc=CC
                        --pkg-config=PKG_CONFIG --version=X.Y.Z
                        [--config=CONFIG] [--generator=GEN] [--cflags=FLAGS]
                        [--ldflags=FLAGS]
EOF
    exit 2
}

cmake_bin="" build_dir="" work_dir="" source_dir="" libdir_rel="" includedir_rel="" bindir_rel=""
cc="" pkg_config="" version=""
config="" generator="" extra_cflags="" extra_ldflags=""
for arg in "$@"; do
    case "$arg" in
        --cmake=*) cmake_bin=${arg#*=} ;;
        --build-dir=*) build_dir=${arg#*=} ;;
        --work-dir=*) work_dir=${arg#*=} ;;
        --source-dir=*) source_dir=${arg#*=} ;;
        --libdir=*) libdir_rel=${arg#*=} ;;
        --includedir=*) includedir_rel=${arg#*=} ;;
        --bindir=*) bindir_rel=${arg#*=} ;;
        --cc=*) cc=${arg#*=} ;;
        --pkg-config=*) pkg_config=${arg#*=} ;;
        --version=*) version=${arg#*=} ;;
        --config=*) config=${arg#*=} ;;
        --generator=*) generator=${arg#*=} ;;
        --cflags=*) extra_cflags=${arg#*=} ;;
        --ldflags=*) extra_ldflags=${arg#*=} ;;
        *) usage ;;
    esac
done
for v in cmake_bin build_dir work_dir source_dir libdir_rel includedir_rel bindir_rel cc version; do
    [[ -n "${!v}" ]] || usage
done

major=${version%%.*}
# The SONAME's version: the major version, and before 1.0 the minor version too.
soversion=$major
if [[ "$major" == 0 ]]; then
    rest=${version#*.}
    soversion="0.${rest%%.*}"
fi
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
step() {
    echo "== $*"
}

# Word-split the optional flag strings on purpose (they come from CMake lists).
read -r -a cflags_extra <<<"$extra_cflags"
read -r -a ldflags_extra <<<"$extra_ldflags"

prefix="$work_dir/prefix"
rm -rf "$work_dir"
mkdir -p "$work_dir"

step "cmake --install into $prefix"
install_args=(--install "$build_dir" --prefix "$prefix")
[[ -n "$config" ]] && install_args+=(--config "$config")
"$cmake_bin" "${install_args[@]}" >"$work_dir/install.log"

# ---- 1. layout ----------------------------------------------------------------------
step "installed layout"
libdir="$prefix/$libdir_rel"
incdir="$prefix/$includedir_rel"
bindir="$prefix/$bindir_rel"
if [[ ! -e "$libdir/libwaveasm.so" && ! -L "$libdir/libwaveasm.so" ]]; then
    fail "no libwaveasm.so in $libdir"
    exit 1
fi
echo "library directory: $libdir_rel, include directory: $includedir_rel"

check_link() {  # check_link NAME TARGET
    if [[ ! -L "$libdir/$1" ]]; then
        fail "$1 is not a symlink"
    elif [[ "$(readlink "$libdir/$1")" != "$2" ]]; then
        fail "$1 -> $(readlink "$libdir/$1"), expected -> $2"
    fi
}
check_link libwaveasm.so "libwaveasm.so.$soversion"
check_link "libwaveasm.so.$soversion" "libwaveasm.so.$version"
if [[ ! -f "$libdir/libwaveasm.so.$version" || -L "$libdir/libwaveasm.so.$version" ]]; then
    fail "libwaveasm.so.$version is not a regular file"
fi

for f in "$libdir/pkgconfig/waveasm.pc" \
         "$libdir/cmake/waveasm/waveasmConfig.cmake" \
         "$libdir/cmake/waveasm/waveasmConfigVersion.cmake" \
         "$libdir/cmake/waveasm/waveasmTargets.cmake" \
         "$bindir/waveasm-opt"; do
    [[ -f "$f" ]] || fail "missing ${f#"$prefix"/}"
done

# Every public header (*.h, *.def, the per-family row files under isa/ included)
# of the source tree is installed, and no other.
list_headers() {
    (cd "$1" 2>/dev/null && find . -type f \( -name '*.h' -o -name '*.def' \) | sort)
}
src_headers=$(list_headers "$source_dir/include/waveasm")
inst_headers=$(list_headers "$incdir/waveasm")
if [[ "$src_headers" != "$inst_headers" ]]; then
    fail "installed headers differ from include/waveasm:"
    diff <(echo "$src_headers") <(echo "$inst_headers") >&2 || true
fi

if [[ -x "$bindir/waveasm-opt" ]]; then
    # No LD_LIBRARY_PATH: the installed tool finds the library through its RPATH.
    if ! out=$(env -u LD_LIBRARY_PATH "$bindir/waveasm-opt" --version); then
        fail "installed waveasm-opt --version failed"
    elif [[ "$out" != *"$version"* ]]; then
        fail "installed waveasm-opt reports '$out', expected version $version"
    fi
fi

# ---- 2. headers are self-contained -------------------------------------------------
step "each installed header compiles on its own"
mkdir -p "$work_dir/headers"
for h in "$incdir"/waveasm/*.h; do
    name=$(basename "$h" .h)
    printf '#include <waveasm/%s.h>\nint waveasm_header_check_%s;\n' "$name" "$name" \
        >"$work_dir/headers/$name.c"
    if ! "$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror "${cflags_extra[@]}" \
            -I"$incdir" -c "$work_dir/headers/$name.c" \
            -o "$work_dir/headers/$name.o"; then
        fail "header waveasm/$name.h does not compile on its own"
    fi
done

# ---- 3. pkg-config consumer ----------------------------------------------------------
check_pkg_config() {
    export PKG_CONFIG_PATH="$libdir/pkgconfig"
    unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
    local pc_version pc_cflags pc_libs
    if ! pc_version=$("$pkg_config" --modversion waveasm); then
        fail "pkg-config cannot find waveasm in $PKG_CONFIG_PATH"
        return
    fi
    [[ "$pc_version" == "$version" ]] ||
        fail "pkg-config --modversion: $pc_version, expected $version"
    read -r -a pc_cflags <<<"$("$pkg_config" --cflags waveasm)"
    read -r -a pc_libs <<<"$("$pkg_config" --libs waveasm)"
    echo "cflags: ${pc_cflags[*]-}"
    echo "libs:   ${pc_libs[*]-}"
    if ! "$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror "${cflags_extra[@]}" \
            "${pc_cflags[@]}" "$source_dir/tests/consumer/project/main.c" \
            -o "$work_dir/pc-app" "${ldflags_extra[@]}" "${pc_libs[@]}"; then
        fail "pkg-config consumer does not compile"
        return
    fi
    if ! LD_LIBRARY_PATH="$libdir" "$work_dir/pc-app" >"$work_dir/pc-app.out"; then
        fail "pkg-config consumer exited non-zero"
        cat "$work_dir/pc-app.out"
    fi
    # It must have loaded the installed library, not some other copy.
    if ! LD_LIBRARY_PATH="$libdir" LD_TRACE_LOADED_OBJECTS=1 "$work_dir/pc-app" 2>&1 |
            grep -F "$libdir/libwaveasm.so.$soversion" >/dev/null; then
        fail "pkg-config consumer did not load $libdir/libwaveasm.so.$soversion"
    fi
}

pc_skipped=0
if [[ -n "$pkg_config" ]]; then
    step "pkg-config consumer"
    check_pkg_config
else
    echo "pkg-config not found; the pkg-config consumer is not checked" >&2
    pc_skipped=1
fi

# ---- 4. CMake consumer ---------------------------------------------------------------
step "CMake consumer (find_package(waveasm CONFIG))"
consumer_build="$work_dir/consumer-build"
configure_args=(-S "$source_dir/tests/consumer/project" -B "$consumer_build"
                -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc"
                -DCMAKE_C_FLAGS="$extra_cflags"
                -DCMAKE_EXE_LINKER_FLAGS="$extra_ldflags")
[[ -n "$generator" ]] && configure_args+=(-G "$generator")
[[ -n "$config" ]] && configure_args+=(-DCMAKE_BUILD_TYPE="$config")
if "$cmake_bin" "${configure_args[@]}" >"$work_dir/consumer-configure.log" 2>&1 &&
   "$cmake_bin" --build "$consumer_build" >"$work_dir/consumer-build.log" 2>&1; then
    app="$consumer_build/app"
    [[ -x "$app" ]] || app=$(find "$consumer_build" -type f -name app -perm -u+x | head -n 1)
    if [[ -z "$app" ]]; then
        fail "CMake consumer built no app executable"
    elif ! "$app" >"$work_dir/cmake-app.out"; then
        fail "CMake consumer exited non-zero"
        cat "$work_dir/cmake-app.out"
    fi
else
    fail "CMake consumer does not configure or build"
    cat "$work_dir"/consumer-*.log >&2
fi

if [[ $failures -ne 0 ]]; then
    echo "install check: $failures problem(s)" >&2
    exit 1
fi
if [[ $pc_skipped -ne 0 ]]; then
    exit 77
fi
echo "install check: ok ($prefix)"
