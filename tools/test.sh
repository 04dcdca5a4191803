#!/usr/bin/env bash
# The README's test command and what CI runs.
#
#   tools/test.sh           the full tier: builds liftcc with -Werror under
#                           AddressSanitizer + UndefinedBehaviorSanitizer in
#                           build-test/ and runs every suite (PoCL executes the
#                           OpenCL tests on the CPU)
#   tools/test.sh --quick   the edit-build-test loop: a Release build (-Werror,
#                           no sanitizers) in build-quick/ and the suites
#                           labelled "quick" (the unit suites and one kernel of
#                           every family on the device; tests/CMakeLists.txt)
#
# One area of either build: ctest --test-dir build-test -L explore (labels are
# the first word of a suite's file name).
set -euo pipefail
cd "$(dirname "$0")/.."
tier=full
case "${1:-}" in
  "") ;;
  --quick) tier=quick ;;
  *) echo "tools/test.sh: unknown option '$1' (expected --quick or nothing)" >&2; exit 2 ;;
esac
# Installs missing Debian packages as root, else names them and exits 2.
tools/install-deps.sh test
# PoCL keeps an LLVM context alive until exit when it compiles an uncached
# kernel; those leaks (and only those) are suppressed, for liftc too.
# intercept_tls_get_addr=0: with Debian 12's glibc, ASan's tracking of dynamic
# TLS (of the libraries PoCL dlopens) can record a bogus block, and LeakSanitizer's
# exit-time scan then crashes ("Tracer caught signal 11" after "DTLS ... at
# 0x...-0x8000...") depending on heap layout alone.
# malloc_context_size=5: ASan records the stack of every allocation and
# free; PoCL's LLVM and liftcc's symbolic arithmetic allocate so much that
# recording 30 frames (the default) cost 15-30% of the suite's CPU time.
# Reports still show the faulting access's full stack; to see deeper
# allocation stacks, rerun the failing suite with malloc_context_size=30.
# quarantine_size_mb=16: freed blocks wait in a quarantine before reuse so
# that a later access through a dangling pointer is caught; the default 256 MB
# made the symbolic arithmetic's millions of small short-lived nodes miss the
# caches (Heat's 3D space test: 74 s of CPU and 850 MB at 256 MB, 50 s and
# 380 MB at 16 MB). A use after free is still caught while the block is among
# the last 16 MB freed, which covers the dangling references of one call.
export ASAN_OPTIONS=abort_on_error=1:intercept_tls_get_addr=0:malloc_context_size=5:quarantine_size_mb=16
# print_suppressions=0: a liftc child that compiled an uncached kernel would
# otherwise add "Suppressions used:" lines to the stderr the tests check.
export LSAN_OPTIONS=suppressions=$PWD/tools/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if [[ $tier == quick ]]; then
  cmake -S . -B build-quick -DCMAKE_BUILD_TYPE=Release -DLIFTCC_WERROR=ON >/dev/null
  cmake --build build-quick -j "$(nproc)" --target liftc liftcc_tests
  ctest --test-dir build-quick --output-on-failure -j "$(nproc)" -L quick
  exit
fi
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIFTCC_WERROR=ON -DLIFTCC_SANITIZE=ON >/dev/null
cmake --build build-test -j "$(nproc)"
# One ctest entry per test file (tests/CMakeLists.txt), as many at once as
# cores, the longest first (ctest orders by the times of earlier runs).
ctest --test-dir build-test --output-on-failure -j "$(nproc)"
