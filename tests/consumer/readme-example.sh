#!/usr/bin/env bash
# Extracts the first ```c fenced block of README.md, compiles it against the
# build tree's headers and library (C99, warnings as errors) and runs it, so
# the example in the README keeps compiling and working. The fenced block that
# follows it (the output shown in the README) must be the start of what the
# program prints.
set -euo pipefail

usage() {
    echo "usage: readme-example.sh --readme=FILE --cc=CC --include-dir=DIR" \
         "--library-dir=DIR --work-dir=DIR [--cflags=FLAGS] [--ldflags=FLAGS]" >&2
    exit 2
}

readme="" cc="" include_dir="" library_dir="" work_dir="" extra_cflags="" extra_ldflags=""
for arg in "$@"; do
    case "$arg" in
        --readme=*) readme=${arg#*=} ;;
        --cc=*) cc=${arg#*=} ;;
        --include-dir=*) include_dir=${arg#*=} ;;
        --library-dir=*) library_dir=${arg#*=} ;;
        --work-dir=*) work_dir=${arg#*=} ;;
        --cflags=*) extra_cflags=${arg#*=} ;;
        --ldflags=*) extra_ldflags=${arg#*=} ;;
        *) usage ;;
    esac
done
for v in readme cc include_dir library_dir work_dir; do
    [[ -n "${!v}" ]] || usage
done
read -r -a cflags_extra <<<"$extra_cflags"
read -r -a ldflags_extra <<<"$extra_ldflags"

rm -rf "$work_dir"
mkdir -p "$work_dir"
src="$work_dir/readme_example.c"

# extract_block N: the N-th fenced block from the first ```c block on (1 = the C code).
extract_block() {
    awk -v want="$1" '
        !started && /^```c[[:space:]]*$/ { started = 1; n = 1; inside = 1; next }
        started && !inside && /^```/ { n++; inside = 1; next }
        inside && /^```[[:space:]]*$/ { inside = 0; if (n == want) exit; next }
        inside && n == want { print }
    ' "$readme"
}
extract_block 1 >"$src"
extract_block 2 >"$work_dir/expected.txt"
if [[ ! -s "$src" ]]; then
    echo "FAIL: no \`\`\`c block in $readme" >&2
    exit 1
fi
echo "extracted $(wc -l <"$src") lines from $readme"

"$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror "${cflags_extra[@]}" -I"$include_dir" \
    "$src" -o "$work_dir/readme_example" "${ldflags_extra[@]}" \
    -L"$library_dir" -lwaveasm
LD_LIBRARY_PATH="$library_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$work_dir/readme_example" >"$work_dir/output.txt"

if [[ -s "$work_dir/expected.txt" ]]; then
    lines=$(wc -l <"$work_dir/expected.txt")
    if ! head -n "$lines" "$work_dir/output.txt" | diff -u "$work_dir/expected.txt" - ; then
        echo "FAIL: the output shown in $readme differs from what the example prints" >&2
        exit 1
    fi
    echo "output matches the README ($lines lines)"
fi
echo "README example: ok"
