#!/usr/bin/env bash
# The MLIR front end's ABI surface and the core's independence from LLVM:
#   - libwaveasm_mlir.so defines (dynamically) only wa_mlir_* symbols, exactly
#     those declared with WA_MLIR_API in include/waveasm/mlir.h: none of the
#     MLIR C API it links in leaks out;
#   - its SONAME carries the library's soversion;
#   - libwaveasm.so needs no LLVM, MLIR or C++ runtime library.
set -euo pipefail

nm_bin="" readelf_bin="" library="" core="" header="" soversion=""
for arg in "$@"; do
    case "$arg" in
        --nm=*) nm_bin=${arg#*=} ;;
        --readelf=*) readelf_bin=${arg#*=} ;;
        --library=*) library=${arg#*=} ;;
        --core=*) core=${arg#*=} ;;
        --header=*) header=${arg#*=} ;;
        --soversion=*) soversion=${arg#*=} ;;
        *) echo "usage: check-mlir-exports.sh --nm= --readelf= --library= --core= --header= --soversion=" >&2
           exit 2 ;;
    esac
done

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

linker_symbols=" _init _fini _edata _end __bss_start "
exported=""
while IFS= read -r sym; do
    [[ -n "$sym" ]] || continue
    [[ "$linker_symbols" == *" $sym "* ]] && continue
    if [[ "$sym" != wa_mlir_* ]]; then
        fail "exported symbol without the wa_mlir_ prefix: $sym"
        continue
    fi
    exported+="$sym"$'\n'
done < <("$nm_bin" -D --defined-only "$library" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u)
exported=$(printf '%s' "$exported" | sort -u)

declared=$(awk '
    /^[[:space:]]*WA_MLIR_API[[:space:]]/ { decl = ""; collecting = 1 }
    collecting {
        decl = decl " " $0
        if (index(decl, ";") > 0) {
            collecting = 0
            head = substr(decl, 1, index(decl, "(") - 1)
            n = split(head, words, /[^A-Za-z0-9_]+/)
            for (i = n; i > 0; i--) if (words[i] != "") { print words[i]; break }
        }
    }' "$header" | sort -u)
[[ -n "$declared" ]] || fail "no WA_MLIR_API declarations in $header"
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
[[ -z "$missing" ]] || fail "declared but not exported: $(echo $missing)"
[[ -z "$extra" ]] || fail "exported but not declared: $(echo $extra)"

soname=$("$readelf_bin" -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[[ "$soname" == "libwaveasm_mlir.so.$soversion" ]] ||
    fail "SONAME is '$soname', expected 'libwaveasm_mlir.so.$soversion'"

needed=$("$readelf_bin" -d "$core" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p')
for lib in $needed; do
    case "$lib" in
        libc.so.*|libm.so.*|ld-linux*|libasan.so.*|libubsan.so.*|libtsan.so.*) ;;
        *) fail "libwaveasm.so needs $lib (the core depends on libc and libm only)" ;;
    esac
done

if [[ $failures -ne 0 ]]; then
    echo "export check: $failures problem(s)" >&2
    exit 1
fi
echo "export check: ok ($(printf '%s\n' "$exported" | grep -c .) wa_mlir_* symbols, SONAME $soname; core needs: $(echo $needed))"
