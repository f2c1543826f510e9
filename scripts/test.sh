#!/usr/bin/env bash
# Runs the test suite in five stages (every build with -DWAVEASM_WERROR=ON):
#   gcc       gcc build (RelWithDebInfo) in build/test-gcc, the whole ctest suite
#   sanitize  clang build with -DWAVEASM_SANITIZE=ON (AddressSanitizer with leak
#             checks, UndefinedBehaviorSanitizer; Debug, so asserts are on) in
#             build/test-clang-sanitize, the whole ctest suite
#   tsan      clang build with -DWAVEASM_TSAN=ON (ThreadSanitizer) in
#             build/test-clang-tsan, the thread tests only (ctest -L threads)
#   valgrind  waveasm-opt of the gcc build under valgrind over every example
#             (scripts/valgrind-examples.sh)
#   fuzz      clang build with -DWAVEASM_FUZZ=ON in build/test-fuzz, each fuzz
#             target for a few seconds (ctest -L fuzz; skipped without clang's
#             libFuzzer runtime; docs/fuzzing.md)
# Exits non-zero if any build or test fails.
#
#   scripts/test.sh [gcc] [sanitize] [tsan] [valgrind] [fuzz]   (default: all, in that order)
#
# Environment: JOBS (build jobs, default: number of CPUs), CTEST_JOBS (default 2),
# CTEST_ARGS (extra ctest arguments of the gcc and sanitize stages, e.g. "-R consumer"),
# GCC and CLANG (compilers), FUZZ_CC (fuzz stage compiler; default clang-22 if
# present, else CLANG).
set -euo pipefail

case "${1:-}" in
    -h|--help)
        sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
esac

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"

stages=("$@")
[[ ${#stages[@]} -gt 0 ]] || stages=(gcc sanitize tsan valgrind fuzz)
for s in "${stages[@]}"; do
    case "$s" in
        gcc|sanitize|tsan|valgrind|fuzz) ;;
        *)
            echo "test.sh: unknown stage '$s' (gcc, sanitize, tsan, valgrind, fuzz)" >&2
            exit 2 ;;
    esac
done

bash scripts/install-deps.sh

jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
ctest_jobs=${CTEST_JOBS:-2}
read -r -a ctest_extra <<<"${CTEST_ARGS:-}"
log_dir=build/test-logs
mkdir -p "$log_dir"

total_passed=0 total_failed=0 total_skipped=0
results=()

# Adds the counts from a ctest log to the totals. ctest counts skipped tests as
# passed in its summary line; they are listed as "(Skipped)" below it.
count_results() {
    local log=$1 summary total failed skipped
    summary=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1 || true)
    if [[ -z "$summary" ]]; then
        return 1
    fi
    total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$summary")
    failed=$(sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/' <<<"$summary")
    skipped=$(grep -c -E '\(Skipped\)$' "$log" || true)
    total_failed=$((total_failed + failed))
    total_skipped=$((total_skipped + skipped))
    total_passed=$((total_passed + total - failed - skipped))
}

# Per-stage settings for build_stage and run_stage: the targets to build
# (default: all) and the stage's own test selection (replaces CTEST_ARGS).
stage_targets=()
stage_ctest=()

# build_stage NAME BUILD_DIR [cmake args...]: configure and build. A failed
# configure or build counts as one failed test in the totals.
build_stage() {
    local name=$1 dir=$2
    shift 2
    echo
    echo "==== $name: configure ($dir)"
    cmake -S . -B "$dir" "$@" >"$log_dir/$name-configure.log" 2>&1 || {
        cat "$log_dir/$name-configure.log"
        echo "==== $name: configure FAILED"
        total_failed=$((total_failed + 1))
        return 1
    }
    echo "==== $name: build"
    local targets=()
    [[ ${#stage_targets[@]} -eq 0 ]] || targets=(--target "${stage_targets[@]}")
    cmake --build "$dir" -j "$jobs" "${targets[@]}" >"$log_dir/$name-build.log" 2>&1 || {
        # The first errors, then the end of the log.
        grep -E -A3 'error:' "$log_dir/$name-build.log" | head -n 40 || true
        grep -E 'undefined reference' "$log_dir/$name-build.log" | head -n 5 || true
        echo "..."
        tail -n 10 "$log_dir/$name-build.log"
        echo "==== $name: build FAILED (full log: $log_dir/$name-build.log)"
        total_failed=$((total_failed + 1))
        return 1
    }
}

# run_stage NAME BUILD_DIR [cmake args...]: configure, build, run ctest.
# Returns non-zero on the first failing step.
run_stage() {
    local name=$1 dir=$2
    build_stage "$@" || return 1
    echo "==== $name: ctest"
    local rc=0 select=("${ctest_extra[@]}")
    [[ ${#stage_ctest[@]} -eq 0 ]] || select=("${stage_ctest[@]}")
    ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$ctest_jobs" \
        "${select[@]}" 2>&1 | tee "$log_dir/$name-ctest.log" || rc=$?
    if ! count_results "$log_dir/$name-ctest.log"; then
        echo "==== $name: ctest printed no summary"
        total_failed=$((total_failed + 1))
        return 1
    fi
    if [[ $rc -ne 0 ]]; then
        echo "==== $name: tests FAILED"
        return 1
    fi
    echo "==== $name: ok"
}

# The gcc build, shared by the gcc and valgrind stages.
gcc_args=(-DCMAKE_C_COMPILER="${GCC:-gcc}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
          -DWAVEASM_SANITIZE=OFF -DWAVEASM_TSAN=OFF -DWAVEASM_WERROR=ON)

# run_valgrind: builds waveasm-opt in build/test-gcc and runs every example
# through it under valgrind. Each example counts as one test in the totals.
run_valgrind() {
    stage_targets=(waveasm-opt)
    build_stage valgrind build/test-gcc "${gcc_args[@]}" || return 1
    echo "==== valgrind: examples"
    local rc=0 summary
    bash scripts/valgrind-examples.sh build/test-gcc/tools/waveasm-opt 2>&1 \
        | tee "$log_dir/valgrind.log" || rc=$?
    if [[ $rc -eq 77 ]]; then
        total_skipped=$((total_skipped + 1))
        echo "==== valgrind: skipped"
        return 0
    fi
    summary=$(grep -E '^[0-9]+ examples, [0-9]+ failed' "$log_dir/valgrind.log" | tail -n 1 || true)
    if [[ -z "$summary" ]]; then
        total_failed=$((total_failed + 1))
        echo "==== valgrind: FAILED"
        return 1
    fi
    local count failed
    read -r count _ failed _ <<<"$summary"
    total_passed=$((total_passed + count - failed))
    total_failed=$((total_failed + failed))
    [[ $rc -eq 0 ]] || { echo "==== valgrind: FAILED"; return 1; }
    echo "==== valgrind: ok"
}

for s in "${stages[@]}"; do
    stage_targets=()
    stage_ctest=()
    started=$SECONDS
    rc=0
    case "$s" in
        gcc)
            label="gcc"
            run_stage gcc build/test-gcc "${gcc_args[@]}" || rc=$? ;;
        sanitize)
            label="clang + ASan/UBSan"
            # Sanitizer reports abort the test that triggers them.
            ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
            UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
            run_stage sanitize build/test-clang-sanitize \
                -DCMAKE_C_COMPILER="${CLANG:-clang}" \
                -DCMAKE_BUILD_TYPE=Debug \
                -DWAVEASM_SANITIZE=ON -DWAVEASM_WERROR=ON || rc=$? ;;
        tsan)
            label="clang + TSan (thread tests)"
            # Only what the thread tests need is built.
            stage_targets=(test_threads)
            stage_ctest=(-L threads)
            TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
            run_stage tsan build/test-clang-tsan \
                -DCMAKE_C_COMPILER="${CLANG:-clang}" \
                -DCMAKE_BUILD_TYPE=RelWithDebInfo \
                -DWAVEASM_TSAN=ON -DWAVEASM_WERROR=ON || rc=$? ;;
        valgrind)
            label="valgrind (examples)"
            run_valgrind || rc=$? ;;
        fuzz)
            fuzz_cc=${FUZZ_CC:-$(command -v clang-22 || echo "${CLANG:-clang}")}
            label="fuzz targets ($(basename "$fuzz_cc"))"
            stage_targets=(fuzz_all)
            stage_ctest=(-L fuzz)
            run_stage fuzz build/test-fuzz \
                -DCMAKE_C_COMPILER="$fuzz_cc" \
                -DCMAKE_BUILD_TYPE=RelWithDebInfo \
                -DWAVEASM_FUZZ=ON -DWAVEASM_BUILD_BENCH=OFF -DWAVEASM_WERROR=ON || rc=$? ;;
    esac
    if [[ $rc -eq 0 ]]; then
        results+=("$label: ok ($((SECONDS - started)) s)")
    else
        results+=("$label: FAILED ($((SECONDS - started)) s)")
    fi
done

echo
echo "==== summary"
status=0
for r in "${results[@]}"; do
    echo "  $r"
    [[ "$r" != *FAILED* ]] || status=1
done
echo "total: $total_passed passed, $total_failed failed, $total_skipped skipped"
exit $status
