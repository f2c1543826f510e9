#!/usr/bin/env bash
# Long fuzzing runs of one target of tests/fuzz (docs/fuzzing.md).
#
#   scripts/fuzz.sh TARGET [SECONDS] [JOBS]
#
#   TARGET   text, pipeline, sim or builder (tests/fuzz/fuzz_TARGET.c)
#   SECONDS  run time (default 600)
#   JOBS     parallel fuzzing processes (default 1; more uses libFuzzer's -fork)
#
# Builds build/fuzz with clang (clang-22 if present, else clang) and
# -DWAVEASM_FUZZ=ON (AddressSanitizer, UndefinedBehaviorSanitizer, coverage),
# then runs the target on its persistent corpus build/fuzz-corpus/TARGET, which
# grows from run to run, with the generated seeds and dictionary. Stops at the
# first finding and saves the input as build/fuzz-artifacts/TARGET/crash-<sha1>
# (or leak-, timeout-, oom-).
#
# A finding:
#   build/fuzz/tests/fuzz/fuzz_TARGET build/fuzz-artifacts/TARGET/crash-<sha1>
#       runs that one input again and prints the report
#   build/fuzz/tests/fuzz/fuzz_TARGET -minimize_crash=1 -runs=20000 \
#       -exact_artifact_path=small.wa build/fuzz-artifacts/TARGET/crash-<sha1>
#       shrinks it to a smaller input that fails the same way
# Text targets read the input as a kernel (a .wa file; `waveasm-opt` takes it
# too); FUZZ_VERBOSE=1 makes the targets say why an input stops early.
#
# Environment: CC (compiler), NICE (niceness, default 10), FUZZ_ARGS (more
# libFuzzer flags, e.g. "-seed=7 -max_len=4096").
set -euo pipefail

case "${1:-}" in
    ""|-h|--help)
        sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'
        [[ -n "${1:-}" ]] && exit 0
        exit 2 ;;
esac
target=$1
seconds=${2:-600}
jobs=${3:-1}
case "$target" in
    text|pipeline|sim|builder) ;;
    *)
        echo "fuzz.sh: unknown target '$target' (text, pipeline, sim, builder)" >&2
        exit 2 ;;
esac

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"

cc=${CC:-$(command -v clang-22 || command -v clang || echo clang)}
build=build/fuzz
cmake -S . -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DWAVEASM_FUZZ=ON -DWAVEASM_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target fuzz_all >/dev/null
fuzzer=$build/tests/fuzz/fuzz_$target
if [[ ! -x "$fuzzer" ]]; then
    echo "fuzz.sh: $cc cannot build libFuzzer targets (install clang's fuzzer runtime," \
         "e.g. libclang-rt-22-dev)" >&2
    exit 1
fi

corpus=build/fuzz-corpus/$target
artifacts=build/fuzz-artifacts/$target
mkdir -p "$corpus" "$artifacts"
args=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=16384
      -print_final_stats=1 -artifact_prefix="$artifacts/")
inputs=("$corpus")
if [[ "$target" != builder ]]; then
    # the builder target reads calls, not text: no dictionary or text seeds
    args+=(-dict="$build/tests/fuzz/waveasm.dict")
    inputs+=("$build/tests/fuzz/seeds")
fi
if [[ "$jobs" -gt 1 ]]; then
    args+=(-fork="$jobs")
fi
read -r -a extra <<<"${FUZZ_ARGS:-}"
echo "fuzz.sh: $fuzzer for ${seconds}s, $jobs job(s); corpus $corpus, findings in $artifacts"
exec nice -n "${NICE:-10}" "$fuzzer" "${args[@]}" "${extra[@]}" "${inputs[@]}"
