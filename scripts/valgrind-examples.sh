#!/usr/bin/env bash
# Runs waveasm-opt under valgrind (memcheck, full leak check) over every example
# in examples/: parse, the default pipeline with the checkers after each stage,
# simulation over the default seeds with the hazard check and the arguments of
# the example's "; Simulate ...:" line (as scripts/run-example.sh uses them), and
# assembly output. Any memory error or leak fails the run.
#
#   scripts/valgrind-examples.sh WAVEASM_OPT [TARGET]
#
#   WAVEASM_OPT  the waveasm-opt binary to check (a build with debug info gives
#                readable reports)
#   TARGET       gfx942 (default), gfx950 or gfx90a
#
# Environment: VALGRIND (default valgrind), OUT_DIR (assembly and logs, default
# build/valgrind). Exits 0 when every run is clean, 1 otherwise, 77 when valgrind
# is missing.
set -euo pipefail

case "${1:-}" in
    ""|-h|--help)
        sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
        [[ -n "${1:-}" ]] && exit 0
        exit 2 ;;
esac

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
opt=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
target=${2:-gfx942}
valgrind=${VALGRIND:-valgrind}
out_dir=${OUT_DIR:-$repo_root/build/valgrind}

if ! command -v "$valgrind" >/dev/null 2>&1; then
    echo "valgrind-examples: $valgrind not found (Debian package valgrind)" >&2
    exit 77
fi
if [[ ! -x "$opt" ]]; then
    echo "valgrind-examples: no such program: $1" >&2
    exit 2
fi
mkdir -p "$out_dir"

failed=0 count=0
for example in "$repo_root"/examples/*.wa; do
    name=$(basename "$example" .wa)
    sim_args=$(sed -n 's/^; Simulate ([^)]*): *//p' "$example" | head -n 1)
    log="$out_dir/$name.valgrind.log"
    count=$((count + 1))
    # shellcheck disable=SC2086  # the Simulate line holds several options
    if "$valgrind" -q --error-exitcode=1 --leak-check=full --log-file="$log" \
            "$opt" --target="$target" --pipeline=default --verify-each \
            --simulate --sim-hazards $sim_args \
            --emit=asm "$example" -o "$out_dir/$name.s" 2>"$out_dir/$name.stderr"; then
        echo "ok   $name"
    else
        echo "FAIL $name (valgrind log: $log)"
        cat "$out_dir/$name.stderr" "$log"
        failed=$((failed + 1))
    fi
done
if [[ $count -eq 0 ]]; then
    echo "valgrind-examples: no examples found" >&2
    exit 1
fi
echo "$count examples, $failed failed under valgrind"
[[ $failed -eq 0 ]]
