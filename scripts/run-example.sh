#!/usr/bin/env bash
# Builds libwaveasm and waveasm-opt, compiles an example kernel through the
# default pipeline (CSE, peephole, register allocation, waitcnt, hazards, each
# output checked) to assembly, runs the result in the wave64 simulator over several timing seeds with the hazard check on (arguments
# from the example's "; Simulate ...:" line), assembles it with llvm-mc, links
# it with ld.lld into a code object (.hsaco) and prints the code object's notes
# (the kernel's metadata).
#
#   scripts/run-example.sh [EXAMPLE.wa] [TARGET]
#
#   EXAMPLE.wa  kernel in the text form     (default: examples/gemm_kloop_virtual.wa,
#                                             or $WAVEASM_EXAMPLE)
#   TARGET      gfx942, gfx950 or gfx90a    (default: gfx942, or $WAVEASM_TARGET)
#
# Environment: BUILD_DIR (default build/default), OUT_DIR (default build/example),
# LLVM_MC, LD_LLD, LLVM_READELF (default llvm-mc-22, ld.lld-22, llvm-readelf-22).
# Outputs: <OUT_DIR>/<name>.opt.wa (IR after the pipeline), <name>.s, <name>.o,
# <name>.hsaco.
set -euo pipefail

case "${1:-}" in
    -h|--help)
        sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
esac
if [[ $# -gt 2 ]]; then
    echo "usage: scripts/run-example.sh [EXAMPLE.wa] [TARGET]" >&2
    exit 2
fi

# Paths given on the command line are relative to where the script was called
# from; everything else is relative to the repository root.
caller_dir=$PWD
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

example=${1:-${WAVEASM_EXAMPLE:-examples/gemm_kloop_virtual.wa}}
target=${2:-${WAVEASM_TARGET:-gfx942}}
if [[ "$example" != /* ]]; then
    if [[ -f "$caller_dir/$example" ]]; then
        example="$caller_dir/$example"
    elif [[ -f "$repo_root/$example" ]]; then
        example="$repo_root/$example"
    fi
fi
if [[ ! -f "$example" ]]; then
    echo "run-example: no such example: $example" >&2
    exit 1
fi
example=$(cd "$(dirname "$example")" && pwd)/$(basename "$example")
case "$target" in
    gfx90a|gfx942|gfx950) ;;
    *)
        echo "run-example: unknown target '$target' (gfx90a, gfx942, gfx950)" >&2
        exit 2 ;;
esac

cd "$repo_root"
bash scripts/install-deps.sh

build_dir=${BUILD_DIR:-build/default}
out_dir=${OUT_DIR:-build/example}
llvm_mc=${LLVM_MC:-llvm-mc-22}
ld_lld=${LD_LLD:-ld.lld-22}
llvm_readelf=${LLVM_READELF:-llvm-readelf-22}
jobs=$(nproc 2>/dev/null || echo 2)

echo "== building libwaveasm and waveasm-opt in $build_dir"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAVEASM_BUILD_TESTS=OFF >/dev/null
cmake --build "$build_dir" --target waveasm-opt -j "$jobs" >/dev/null

name=$(basename "$example" .wa)
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
ir="$out_dir/$name.opt.wa"
asm="$out_dir/$name.s"
obj="$out_dir/$name.o"
hsaco="$out_dir/$name.hsaco"
opt="$build_dir/tools/waveasm-opt"

# Shows each command before running it.
run() {
    echo "\$ $*"
    "$@"
}

echo "== $example for $target"
# The default pipeline (CSE, peephole, register allocation, waitcnt, hazards),
# with the checkers after every stage and the statistics of each.
run "$opt" --target="$target" --pipeline=default --verify-each --pass-stats "$example" -o "$ir"
run "$opt" --target="$target" --emit=asm "$ir" -o "$asm"
# The example says which by-value arguments and grid make a meaningful run.
sim_args=$(sed -n 's/^; Simulate ([^)]*): *//p' "$example" | head -n 1)
# shellcheck disable=SC2086  # the line holds several options
run "$opt" --target="$target" --simulate --sim-hazards $sim_args "$ir" -o /dev/null
run "$llvm_mc" -triple=amdgcn-amd-amdhsa -mcpu="$target" -filetype=obj "$asm" -o "$obj"
run "$ld_lld" -shared "$obj" -o "$hsaco"
run "$llvm_readelf" --notes "$hsaco"

echo
echo "outputs:"
echo "  pipeline IR  $ir"
echo "  assembly     $asm"
echo "  object       $obj"
echo "  code object  $hsaco"
