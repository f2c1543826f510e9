#!/usr/bin/env bash
# Runs the whole test suite twice:
#   gcc       gcc build (RelWithDebInfo) in build/test-gcc, ctest
#   sanitize  clang build with -DWAVEASM_SANITIZE=ON (AddressSanitizer with leak
#             checks, UndefinedBehaviorSanitizer; Debug, so asserts are on) in
#             build/test-clang-sanitize, ctest
# Both builds treat warnings as errors (-DWAVEASM_WERROR=ON). Exits non-zero if
# any build or test fails.
#
#   scripts/test.sh [gcc] [sanitize]     (default: both, in that order)
#
# Environment: JOBS (build jobs, default: number of CPUs), CTEST_JOBS (default 2),
# CTEST_ARGS (extra ctest arguments, e.g. "-R consumer"), GCC and CLANG (compilers).
set -euo pipefail

case "${1:-}" in
    -h|--help)
        sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
esac

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"

stages=("$@")
[[ ${#stages[@]} -gt 0 ]] || stages=(gcc sanitize)
for s in "${stages[@]}"; do
    case "$s" in
        gcc|sanitize) ;;
        *)
            echo "test.sh: unknown stage '$s' (gcc, sanitize)" >&2
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

# run_stage NAME BUILD_DIR [cmake args...]: configure, build, run ctest.
# Returns non-zero on the first failing step; a failed configure or build counts
# as one failed test in the totals.
run_stage() {
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
    cmake --build "$dir" -j "$jobs" >"$log_dir/$name-build.log" 2>&1 || {
        # The first errors, then the end of the log.
        grep -E -A3 'error:' "$log_dir/$name-build.log" | head -n 40 || true
        grep -E 'undefined reference' "$log_dir/$name-build.log" | head -n 5 || true
        echo "..."
        tail -n 10 "$log_dir/$name-build.log"
        echo "==== $name: build FAILED (full log: $log_dir/$name-build.log)"
        total_failed=$((total_failed + 1))
        return 1
    }
    echo "==== $name: ctest"
    local rc=0
    ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "$ctest_jobs" \
        "${ctest_extra[@]}" 2>&1 | tee "$log_dir/$name-ctest.log" || rc=$?
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

for s in "${stages[@]}"; do
    case "$s" in
        gcc)
            if run_stage gcc build/test-gcc \
                    -DCMAKE_C_COMPILER="${GCC:-gcc}" \
                    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
                    -DWAVEASM_SANITIZE=OFF -DWAVEASM_WERROR=ON; then
                results+=("gcc: ok")
            else
                results+=("gcc: FAILED")
            fi ;;
        sanitize)
            # Sanitizer reports abort the test that triggers them.
            if ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
               run_stage sanitize build/test-clang-sanitize \
                    -DCMAKE_C_COMPILER="${CLANG:-clang}" \
                    -DCMAKE_BUILD_TYPE=Debug \
                    -DWAVEASM_SANITIZE=ON -DWAVEASM_WERROR=ON; then
                results+=("clang + ASan/UBSan: ok")
            else
                results+=("clang + ASan/UBSan: FAILED")
            fi ;;
    esac
done

echo
echo "==== summary"
status=0
for r in "${results[@]}"; do
    echo "  $r"
    [[ "$r" != *FAILED ]] || status=1
done
echo "total: $total_passed passed, $total_failed failed, $total_skipped skipped"
exit $status
