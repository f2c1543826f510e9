#!/bin/sh
# tests/hip/make_objects.sh — the code objects hip_object_test loads: the copy
# and vector-add examples for every target, written by the library's writer
# (wa_object_tool) with the machine code of llvm-mc + ld.lld's object.
#
#   make_objects.sh OUT_DIR EXAMPLES_DIR WAVEASM_OPT OBJECT_TOOL LLVM_MC LD_LLD
set -eu
out=$1 examples=$2 opt=$3 tool=$4 mc=$5 lld=$6
mkdir -p "$out"
for target in gfx90a gfx942 gfx950; do
    for name in copy vector_add; do
        base=$out/$target-$name
        "$opt" --target="$target" "$examples/$name.wa" -o "$base.wa"
        "$opt" --emit=asm "$base.wa" -o "$base.s"
        "$mc" -triple=amdgcn-amd-amdhsa -mcpu="$target" -filetype=obj "$base.s" -o "$base.o"
        "$lld" -shared "$base.o" -o "$base.ref.hsaco"
        "$tool" --ref="$base.ref.hsaco" -o "$base.hsaco" "$base.wa"
    done
done
