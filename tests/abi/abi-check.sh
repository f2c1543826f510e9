#!/usr/bin/env bash
# The ABI of libwaveasm.so against the committed baseline (abi/libwaveasm.abi),
# with abidw and abidiff from libabigail (Debian package abigail-tools).
#
#   abi-check.sh dump    --library=LIB --out=FILE [options]
#       writes LIB's ABI (the exported wa_* functions and the public types they
#       use, as declared in include/waveasm) to FILE
#   abi-check.sh compare --library=LIB --baseline=FILE [options]
#       compares LIB's ABI with FILE and prints abidiff's report. Exit status 0
#       when nothing changed or the changes are compatible (functions added,
#       members appended where abi/libwaveasm.abignore allows it), 1 when a
#       change is incompatible, 77 (skip) without abidw/abidiff, 2 on other
#       errors
#
# Options:
#   --source-dir=DIR   the source tree (default: this script's ../..)
#   --work-dir=DIR     scratch files (default: a temporary directory)
#   --abidw=PATH --abidiff=PATH --readelf=PATH   the tools (default: from PATH)
#   --cmake=PATH --cc=PATH   when LIB has no debug info, build a RelWithDebInfo
#                      copy of the library with these in the work directory and
#                      read that one instead (default: cmake, cc)
#
# abidiff's exit status has bit 3 set for incompatible changes (removed
# functions) and bit 2 for any change. A change that is not an addition also
# shows up when added functions are left out (--no-added-syms): that is how
# changed functions and types are told from additions.
set -euo pipefail

usage() {
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
}

mode=${1:-}
case "$mode" in
    dump|compare) shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
esac

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
library="" baseline="" out="" work_dir=""
abidw=abidw abidiff=abidiff readelf=readelf cmake=cmake cc=cc
for arg in "$@"; do
    case "$arg" in
        --library=*) library=${arg#*=} ;;
        --baseline=*) baseline=${arg#*=} ;;
        --out=*) out=${arg#*=} ;;
        --source-dir=*) source_dir=${arg#*=} ;;
        --work-dir=*) work_dir=${arg#*=} ;;
        --abidw=*) abidw=${arg#*=} ;;
        --abidiff=*) abidiff=${arg#*=} ;;
        --readelf=*) readelf=${arg#*=} ;;
        --cmake=*) cmake=${arg#*=} ;;
        --cc=*) cc=${arg#*=} ;;
        *) echo "abi-check: unknown argument '$arg'" >&2; exit 2 ;;
    esac
done

for tool in "$abidw" "$abidiff"; do
    if [[ -z "$tool" ]] || ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: ${tool:-abidw/abidiff} not found (Debian package abigail-tools)"
        exit 77
    fi
done
[[ -n "$readelf" ]] || readelf=readelf
if [[ -z "$library" || ! -f "$library" ]]; then
    echo "abi-check: no library: '${library}'" >&2
    exit 2
fi
if [[ "$mode" == dump && -z "$out" ]] || [[ "$mode" == compare && ! -f "$baseline" ]]; then
    echo "abi-check: $mode needs --out=FILE / an existing --baseline=FILE" >&2
    exit 2
fi

if [[ -z "$work_dir" ]]; then
    work_dir=$(mktemp -d)
    trap 'rm -rf "$work_dir"' EXIT
fi
mkdir -p "$work_dir"

# abidw reads the types from DWARF. A library built without -g (Release,
# MinSizeRel) is rebuilt here with debug info, from the same sources and with
# the same compiler.
has_debug_info() {
    "$readelf" -S --wide "$1" 2>/dev/null | grep -q '\.debug_info'
}
if ! has_debug_info "$library"; then
    echo "abi-check: $library has no debug info; building a RelWithDebInfo copy"
    lib_build="$work_dir/lib-build"
    "$cmake" -S "$source_dir" -B "$lib_build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER="$cc" -DWAVEASM_BUILD_TESTS=OFF -DWAVEASM_BUILD_BENCH=OFF \
        >"$work_dir/lib-build.log" 2>&1 &&
    "$cmake" --build "$lib_build" --target waveasm -j 2 >>"$work_dir/lib-build.log" 2>&1 || {
        cat "$work_dir/lib-build.log"
        echo "abi-check: building the library with debug info failed" >&2
        exit 2
    }
    # The development link names the current version (older ones may remain).
    library=$(readlink -f "$lib_build/lib/libwaveasm.so" || true)
    if [[ -z "$library" || ! -f "$library" ]] || ! has_debug_info "$library"; then
        echo "abi-check: no library with debug info in $lib_build" >&2
        exit 2
    fi
fi

# Only the types of the public headers count; the library's own structs stay
# opaque. No source locations and no paths: the file depends on the API alone,
# not on line numbers, the compiler or where the tree was built.
dump() {
    "$abidw" --headers-dir "$source_dir/include/waveasm" --drop-private-types \
        --no-show-locs --short-locs --no-corpus-path --no-comp-dir-path \
        --type-id-style hash --out-file "$2" "$1"
}

if [[ "$mode" == dump ]]; then
    dump "$library" "$out"
    exit 0
fi

current="$work_dir/current.abi"
dump "$library" "$current"
suppr=(--suppressions "$source_dir/abi/libwaveasm.abignore")

rc=0
"$abidiff" "${suppr[@]}" "$baseline" "$current" >"$work_dir/abidiff.txt" 2>&1 || rc=$?
if ((rc & 3)); then
    cat "$work_dir/abidiff.txt"
    echo "abi-check: abidiff failed (exit status $rc)" >&2
    exit 2
fi
if ((rc == 0)); then
    echo "ABI unchanged: $(basename "$library") matches $(basename "$baseline")"
    exit 0
fi
cat "$work_dir/abidiff.txt"
incompatible=0
if ((rc & 8)); then
    incompatible=1
else
    rc2=0
    "$abidiff" "${suppr[@]}" --no-added-syms "$baseline" "$current" >/dev/null 2>&1 || rc2=$?
    if ((rc2 & 3)); then
        echo "abi-check: abidiff failed (exit status $rc2)" >&2
        exit 2
    fi
    ((rc2 & 4)) && incompatible=1
fi
echo
if ((incompatible)); then
    echo "ABI: INCOMPATIBLE change against $(basename "$baseline") (see above)."
    echo "Keep the existing interfaces as they are (add, do not change), or, for an"
    echo "intended break, raise the version that names the SONAME in CMakeLists.txt"
    echo "(the major version; before 1.0 the minor version) and run"
    echo "scripts/update-abi-baseline.sh (--allow-incompatible records a break"
    echo "without a new SONAME)."
    exit 1
fi
echo "ABI: compatible additions only (see above); scripts/update-abi-baseline.sh"
echo "records them in the baseline."
exit 0
