#!/usr/bin/env bash
# Builds liftcc with -Werror under AddressSanitizer + UndefinedBehaviorSanitizer
# in build-test/ and runs the whole test suite (PoCL executes the OpenCL tests
# on the CPU). This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
# Installs missing Debian packages as root, else names them and exits 2.
tools/install-deps.sh test
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIFTCC_WERROR=ON -DLIFTCC_SANITIZE=ON >/dev/null
cmake --build build-test -j "$(nproc)"
# PoCL keeps an LLVM context alive until exit when it compiles an uncached
# kernel; those leaks (and only those) are suppressed, for liftc too.
# intercept_tls_get_addr=0: with Debian 12's glibc, ASan's tracking of dynamic
# TLS (of the libraries PoCL dlopens) can record a bogus block, and LeakSanitizer's
# exit-time scan then crashes ("Tracer caught signal 11" after "DTLS ... at
# 0x...-0x8000...") depending on heap layout alone.
export ASAN_OPTIONS=abort_on_error=1:intercept_tls_get_addr=0
export LSAN_OPTIONS=suppressions=$PWD/tools/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# One ctest entry per test file (tests/CMakeLists.txt), as many at once as cores.
ctest --test-dir build-test --output-on-failure -j "$(nproc)"
