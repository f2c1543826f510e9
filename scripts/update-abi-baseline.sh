#!/usr/bin/env bash
# Regenerates the ABI baseline abi/libwaveasm.abi (checked by the ctest test
# abi.check, label abi) from the current sources: builds libwaveasm with debug
# info (RelWithDebInfo) in build/abi, writes its ABI with abidw and shows what
# changed against the old baseline with abidiff.
#
# An incompatible change (docs/api.md, "ABI stability") is written only when the
# SONAME changed too (the major version in CMakeLists.txt's project(VERSION), and
# before 1.0 the minor version), or with --allow-incompatible.
#
#   scripts/update-abi-baseline.sh [--allow-incompatible] [--library=LIB]
#
#   --allow-incompatible  write the baseline even though the change breaks
#                         existing hosts and the major version stays
#   --library=LIB         take the ABI of LIB (built with -g) instead of building
#
# Environment: BUILD_DIR (default build/abi), CC (compiler, default cc).
set -euo pipefail

allow=0 library=""
for arg in "$@"; do
    case "$arg" in
        --allow-incompatible) allow=1 ;;
        --library=*) library=${arg#*=} ;;
        -h|--help)
            sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
            exit 0 ;;
        *)
            echo "update-abi-baseline: unknown argument '$arg' (try --help)" >&2
            exit 2 ;;
    esac
done

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
check=tests/abi/abi-check.sh
baseline=abi/libwaveasm.abi

for tool in abidw abidiff; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "update-abi-baseline: $tool not found (scripts/install-deps.sh installs abigail-tools)" >&2
        exit 1
    fi
done

if [[ -z "$library" ]]; then
    build_dir=${BUILD_DIR:-build/abi}
    echo "== building libwaveasm (RelWithDebInfo) in $build_dir"
    cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="${CC:-cc}" \
        -DWAVEASM_BUILD_TESTS=OFF -DWAVEASM_BUILD_BENCH=OFF >/dev/null
    cmake --build "$build_dir" --target waveasm -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
    # The development link names the current version (older ones may remain).
    library=$(readlink -f "$build_dir/lib/libwaveasm.so")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$check" dump --library="$library" --out="$work/new.abi" --work-dir="$work"

if [[ ! -f "$baseline" ]]; then
    mkdir -p "$(dirname "$baseline")"
    cp "$work/new.abi" "$baseline"
    echo "wrote $baseline (first baseline)"
    exit 0
fi

rc=0
bash "$check" compare --library="$library" --baseline="$baseline" --work-dir="$work" \
    | tee "$work/report.txt" || rc=${PIPESTATUS[0]}
soname() { sed -n "s/^<abi-corpus [^>]*soname='\([^']*\)'.*/\1/p" "$1" | head -n 1; }
old_soname=$(soname "$baseline") new_soname=$(soname "$work/new.abi")
case $rc in
    0)
        # Unchanged: keep the file as it is (another compiler writes the same
        # ABI with different type ids).
        if grep -q '^ABI unchanged' "$work/report.txt"; then
            echo "$baseline is up to date"
            exit 0
        fi ;;
    1)
        if [[ "$old_soname" != "$new_soname" ]]; then
            echo "incompatible, but the SONAME changed ($old_soname -> $new_soname): writing"
        elif [[ $allow -eq 1 ]]; then
            echo "incompatible and the SONAME stays $new_soname: writing (--allow-incompatible)"
        else
            echo >&2
            echo "update-abi-baseline: refusing to record an incompatible ABI while the SONAME" >&2
            echo "stays $new_soname. Raise the version that names it (project(VERSION) in CMakeLists.txt)" >&2
            echo "or pass --allow-incompatible." >&2
            exit 1
        fi ;;
    *)
        exit "$rc" ;;
esac
cp "$work/new.abi" "$baseline"
echo "wrote $baseline"
