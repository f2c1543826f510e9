#!/usr/bin/env bash
# ABI surface of libwaveasm.so:
#   - every dynamic symbol the library defines starts with `wa_`;
#   - the exported functions are exactly those declared with WA_API in the public
#     headers (nothing declared is missing, nothing undeclared leaks out);
#   - the SONAME is libwaveasm.so.<soversion> (the major version; 0.<minor> before 1.0).
# Called by ctest with the tools and paths as options.
set -euo pipefail

usage() {
    echo "usage: check-exports.sh --nm=NM --readelf=READELF --library=LIB" \
         "--include-dir=DIR --soversion=V" >&2
    exit 2
}

nm_bin="" readelf_bin="" library="" include_dir="" soversion=""
for arg in "$@"; do
    case "$arg" in
        --nm=*) nm_bin=${arg#*=} ;;
        --readelf=*) readelf_bin=${arg#*=} ;;
        --library=*) library=${arg#*=} ;;
        --include-dir=*) include_dir=${arg#*=} ;;
        --soversion=*) soversion=${arg#*=} ;;
        *) usage ;;
    esac
done
for v in nm_bin readelf_bin library include_dir soversion; do
    [[ -n "${!v}" ]] || usage
done

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# Linker-defined symbols. Some GNU ld versions and configurations export these
# section-boundary and init/fini symbols from every shared library they link;
# they are defined by the linker, not by our code, so they are not part of the
# library's API and are ignored here.
linker_symbols=" _init _fini _edata _end __bss_start "

# "ADDRESS TYPE NAME" per line; strip symbol versions (name@@VER).
defined=$("$nm_bin" -D --defined-only "$library" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' |
          sort -u)
if [[ -z "$defined" ]]; then
    fail "$library defines no dynamic symbols"
fi

exported=""
while IFS= read -r sym; do
    [[ -n "$sym" ]] || continue
    if [[ "$linker_symbols" == *" $sym "* ]]; then
        continue
    fi
    if [[ "$sym" != wa_* ]]; then
        fail "exported symbol without the wa_ prefix: $sym"
        continue
    fi
    exported+="$sym"$'\n'
done <<<"$defined"
exported=$(printf '%s' "$exported" | sort -u)

# Names declared with WA_API in the public headers. A declaration starts on a
# line beginning with WA_API and ends at the first ';'; the name is the last
# identifier before its first '('.
declared=$(awk '
    /^[[:space:]]*WA_API[[:space:]]/ { decl = ""; collecting = 1 }
    collecting {
        decl = decl " " $0
        if (index(decl, ";") > 0) {
            collecting = 0
            head = substr(decl, 1, index(decl, "(") - 1)
            n = split(head, words, /[^A-Za-z0-9_]+/)
            for (i = n; i > 0; i--) if (words[i] != "") { print words[i]; break }
        }
    }' "$include_dir"/waveasm/*.h | sort -u)
if [[ -z "$declared" ]]; then
    fail "no WA_API declarations found under $include_dir/waveasm"
fi

missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
if [[ -n "$missing" ]]; then
    fail "declared with WA_API but not exported by the library:"
    echo "$missing" | sed 's/^/    /' >&2
fi
if [[ -n "$extra" ]]; then
    fail "exported but not declared in the public headers (make them static or hidden):"
    echo "$extra" | sed 's/^/    /' >&2
fi

soname=$("$readelf_bin" -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [[ "$soname" != "libwaveasm.so.$soversion" ]]; then
    fail "SONAME is '${soname}', expected 'libwaveasm.so.$soversion'"
fi

count=$(printf '%s\n' "$exported" | grep -c . || true)
if [[ $failures -ne 0 ]]; then
    echo "export check: $failures problem(s)" >&2
    exit 1
fi
echo "export check: ok ($count wa_* symbols, SONAME $soname)"
