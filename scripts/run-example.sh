#!/usr/bin/env bash
# Builds libwaveasm and its tools, then compiles an example kernel the way a
# kernel DSL uses the library:
#
#  - an MLIR kernel (the default: a Wave-style K-loop GEMM with MFMAs and
#    double-buffered LDS, examples/mlir/gemm_kloop.mlir) is translated by the
#    MLIR front end, compiled through the default pipeline (CSE, peephole,
#    register allocation, waitcnt, hazards, each output checked) and run in the
#    wave64 simulator on random inputs over several memory-timing seeds against
#    a CPU reference (the program named on the kernel's "// Run:" line);
#  - a kernel in the text form (.wa) is compiled the same way and simulated with
#    the arguments of its "; Simulate ...:" line;
#
# then the assembly is assembled with llvm-mc, linked with ld.lld into a code
# object (.hsaco) and the code object's notes (the kernel's metadata) printed;
# finally the code object is written in process (waveasm-opt --emit=obj) and
# checked against that one.
#
#   scripts/run-example.sh [EXAMPLE] [TARGET]
#
#   EXAMPLE  .mlir or .wa kernel   (default: examples/mlir/gemm_kloop.mlir,
#                                   or $WAVEASM_EXAMPLE)
#   TARGET   gfx942, gfx950 or gfx90a (default: gfx942, or $WAVEASM_TARGET)
#
# Environment: BUILD_DIR (default build/default), OUT_DIR (default build/example),
# LLVM_MC, LD_LLD, LLVM_READELF (default llvm-mc-22, ld.lld-22, llvm-readelf-22).
# Outputs: <OUT_DIR>/<name>.opt.wa (IR after the pipeline), <name>.s, <name>.o,
# <name>.hsaco, <name>.inproc.hsaco.
set -euo pipefail

case "${1:-}" in
    -h|--help)
        sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
esac
if [[ $# -gt 2 ]]; then
    echo "usage: scripts/run-example.sh [EXAMPLE.mlir|EXAMPLE.wa] [TARGET]" >&2
    exit 2
fi

# Paths given on the command line are relative to where the script was called
# from; everything else is relative to the repository root.
caller_dir=$PWD
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

example=${1:-${WAVEASM_EXAMPLE:-examples/mlir/gemm_kloop.mlir}}
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

case "$example" in
    *.mlir) kind=mlir ;;
    *.wa) kind=wa ;;
    *)
        echo "run-example: $example: expected a .mlir or .wa kernel" >&2
        exit 2 ;;
esac

tools=(waveasm-opt)
mlir_flag=()
if [[ $kind == mlir ]]; then
    tools+=(waveasm-translate waveasm-run-gemm)
    mlir_flag=(-DWAVEASM_ENABLE_MLIR=ON)
fi
echo "== building libwaveasm and ${tools[*]} in $build_dir"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAVEASM_BUILD_TESTS=OFF \
    "${mlir_flag[@]}" >/dev/null
for t in "${tools[@]}"; do
    cmake --build "$build_dir" --target "$t" -j "$jobs" >/dev/null
done

name=$(basename "$example")
name=${name%.*}
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
if [[ $kind == mlir ]]; then
    # MLIR in, kernel IR out; then the default pipeline (CSE, peephole, register
    # allocation, waitcnt, hazards) with the checkers after every stage and the
    # statistics of each.
    run "$build_dir/tools/waveasm-translate" --target="$target" --pipeline=default \
        --verify-each --pass-stats "$example" -o "$ir"
    run "$opt" --target="$target" --emit=asm "$ir" -o "$asm"
    # The kernel names the host program that runs it against a CPU reference.
    run_line=$(sed -n 's|^// Run: *||p' "$example" | head -n 1)
    if [[ -n "$run_line" ]]; then
        read -r -a run_args <<<"$run_line"
        runner="$build_dir/examples/${run_args[0]}"
        run "$runner" "$example" --target="$target" "${run_args[@]:1}"
    else
        run "$build_dir/tools/waveasm-translate" --target="$target" --simulate --sim-hazards \
            "$example" -o /dev/null
    fi
else
    # The default pipeline with the checkers after every stage and the
    # statistics of each.
    run "$opt" --target="$target" --pipeline=default --verify-each --pass-stats "$example" -o "$ir"
    run "$opt" --target="$target" --emit=asm "$ir" -o "$asm"
    # The example says which by-value arguments and grid make a meaningful run.
    sim_args=$(sed -n 's/^; Simulate ([^)]*): *//p' "$example" | head -n 1)
    # shellcheck disable=SC2086  # the line holds several options
    run "$opt" --target="$target" --simulate --sim-hazards $sim_args "$ir" -o /dev/null
fi
run "$llvm_mc" -triple=amdgcn-amd-amdhsa -mcpu="$target" -filetype=obj "$asm" -o "$obj"
run "$ld_lld" -shared "$obj" -o "$hsaco"
run "$llvm_readelf" --notes "$hsaco"
# The same code object written in process (encoder and ELF writer, no tools),
# checked against the one llvm-mc and ld.lld made: code, descriptors, symbols,
# metadata (only the .comment text, the producer's name, differs).
inproc="$out_dir/$name.inproc.hsaco"
run "$opt" --emit=obj "$ir" -o "$inproc"
view=(-h -l -s --dyn-syms --notes -x .text -x .rodata -x .dynsym -x .dynstr -x .dynamic)
if diff <("$llvm_readelf" "${view[@]}" "$inproc" | sed -e "s|$inproc||" -e '/Start of section headers/d') \
        <("$llvm_readelf" "${view[@]}" "$hsaco" | sed -e "s|$hsaco||" -e '/Start of section headers/d') >/dev/null; then
    echo "in-process code object: same code, descriptors, symbols and metadata as llvm-mc + ld.lld"
else
    echo "run-example: the in-process code object differs from llvm-mc + ld.lld's" >&2
    exit 1
fi

echo
echo "outputs:"
echo "  pipeline IR  $ir"
echo "  assembly     $asm"
echo "  object       $obj"
echo "  code object  $hsaco"
echo "  in process   $inproc"
