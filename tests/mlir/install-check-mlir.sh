#!/usr/bin/env bash
# Installs the build into a fresh prefix and builds a consumer of the MLIR front
# end twice: with pkg-config (waveasm-mlir) and with find_package(waveasm
# COMPONENTS waveasm_mlir); both programs translate and compile a kernel.
set -euo pipefail
cmake_bin="" build_dir="" work_dir="" src="" cc="" pkg_config="" libdir="lib"
for arg in "$@"; do
    case "$arg" in
        --cmake=*) cmake_bin=${arg#*=} ;;
        --build-dir=*) build_dir=${arg#*=} ;;
        --work-dir=*) work_dir=${arg#*=} ;;
        --consumer-dir=*) src=${arg#*=} ;;
        --cc=*) cc=${arg#*=} ;;
        --pkg-config=*) pkg_config=${arg#*=} ;;
        --libdir=*) libdir=${arg#*=} ;;
        *) echo "install-check-mlir.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done
prefix="$work_dir/prefix"
rm -rf "$work_dir"
mkdir -p "$work_dir"
"$cmake_bin" --install "$build_dir" --prefix "$prefix" >/dev/null

if [[ -n "$pkg_config" ]]; then
    export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
    read -r -a flags <<<"$("$pkg_config" --cflags --libs waveasm-mlir)"
    "$cc" -std=c99 -Wall -Werror "$src/main.c" "${flags[@]}" -Wl,-rpath,"$prefix/$libdir" \
        -o "$work_dir/consumer-pc"
    "$work_dir/consumer-pc"
fi

"$cmake_bin" -S "$src" -B "$work_dir/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" >/dev/null
"$cmake_bin" --build "$work_dir/cmake-build" >/dev/null
"$work_dir/cmake-build/consumer"
echo "install check (MLIR front end): ok"
