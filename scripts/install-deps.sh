#!/usr/bin/env bash
# Installs the build and test dependencies of libwaveasm on Debian 12 (bookworm)
# with apt. Idempotent: prints nothing and touches nothing when everything is
# already present; runs `apt-get update` once, only when something is missing.
#
#   scripts/install-deps.sh            install what is missing
#   scripts/install-deps.sh --check    only report what is missing (exit 1 if any)
#
# The LLVM 22 packages (llvm-22, lld-22, llvm-22-tools, llvm-22-dev,
# libmlir-22-dev, mlir-22-tools, clang-22, libclang-rt-22-dev) must be reachable
# from the machine's configured apt sources.
set -euo pipefail

check_only=0
case "${1:-}" in
    "") ;;
    --check) check_only=1 ;;
    -h|--help)
        sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
        exit 0 ;;
    *)
        echo "install-deps: unknown argument '$1' (try --help)" >&2
        exit 2 ;;
esac

# Debian package, then a command it provides ("-" when only dpkg can tell).
# A package counts as present if dpkg knows it as installed, or if its command
# is on PATH (e.g. installed some other way).
deps=(
    "cmake          cmake"
    "make           make"
    "gcc            gcc"
    "libc6-dev      -"
    "clang          clang"
    "pkg-config     pkg-config"
    "binutils       readelf"
    "llvm-22        llvm-mc-22"
    "lld-22         ld.lld-22"
    "llvm-22-tools  FileCheck-22"
    "llvm-22-dev    -"
    "libmlir-22-dev -"
    "mlir-22-tools  mlir-opt-22"
    "clang-22       clang-22"
    "libclang-rt-22-dev -"
    "valgrind       valgrind"
    "abigail-tools  abidw"
    "python3        -"
    "python3-pytest -"
    "python3-pip    -"
    "python3-setuptools -"
    "python3-wheel  -"
)

dpkg_installed() {
    command -v dpkg-query >/dev/null 2>&1 || return 1
    local status
    status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
    [[ "$status" == "install ok installed" ]]
}

missing=()
for entry in "${deps[@]}"; do
    read -r pkg cmd <<<"$entry"
    if dpkg_installed "$pkg"; then
        continue
    fi
    if [[ "$cmd" != "-" ]] && command -v "$cmd" >/dev/null 2>&1; then
        continue
    fi
    missing+=("$pkg")
done

# llvm-22-tools also provides lit-22; check it separately so that a machine with
# FileCheck-22 from elsewhere but no lit still gets the package.
if ! dpkg_installed llvm-22-tools && ! command -v lit-22 >/dev/null 2>&1; then
    [[ " ${missing[*]-} " == *" llvm-22-tools "* ]] || missing+=(llvm-22-tools)
fi

# clang's sanitizer runtime (libclang-rt-<major>-dev) is only a recommendation
# of clang, so an install without recommends lacks it. Checked when clang is
# already there; otherwise after clang has been installed below.
clang_rt_package() {
    command -v clang >/dev/null 2>&1 || return 0
    local rt major
    rt=$(clang -print-file-name=libclang_rt.asan-x86_64.a 2>/dev/null || true)
    [[ "$rt" == /* && -e "$rt" ]] && return 0
    # Non-x86_64 hosts name the runtime differently; ask the driver for its dir.
    rt=$(clang -print-runtime-dir 2>/dev/null || true)
    if [[ -n "$rt" ]] && compgen -G "$rt/libclang_rt.asan*" >/dev/null; then
        return 0
    fi
    major=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
    if [[ -n "$major" ]]; then
        echo "libclang-rt-${major}-dev"
    fi
    return 0
}

as_root() {
    if [[ "$(id -u)" -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "install-deps: need root (or sudo) to run: $*" >&2
        exit 1
    fi
}

updated=0
apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-deps: apt-get not found; install these yourself: $*" >&2
        exit 1
    fi
    echo "install-deps: installing: $*"
    export DEBIAN_FRONTEND=noninteractive
    if [[ $updated -eq 0 ]]; then
        as_root apt-get update -qq
        updated=1
    fi
    as_root apt-get install -y -qq "$@" >/dev/null
}

if [[ ${#missing[@]} -gt 0 ]]; then
    if [[ $check_only -eq 1 ]]; then
        echo "install-deps: missing: ${missing[*]}"
        exit 1
    fi
    apt_install "${missing[@]}"
fi

rt_pkg=$(clang_rt_package)
if [[ -n "$rt_pkg" ]] && ! dpkg_installed "$rt_pkg"; then
    if [[ $check_only -eq 1 ]]; then
        echo "install-deps: missing: $rt_pkg"
        exit 1
    fi
    apt_install "$rt_pkg"
fi
