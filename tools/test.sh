#!/usr/bin/env bash
# Builds liftcc with -Werror under AddressSanitizer + UndefinedBehaviorSanitizer
# in build-test/ and runs the whole test suite (PoCL executes the OpenCL tests
# on the CPU). This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIFTCC_WERROR=ON -DLIFTCC_SANITIZE=ON >/dev/null
cmake --build build-test -j "$(nproc)"
# PoCL's runtime keeps allocations alive until process exit by design, which
# LeakSanitizer would report; every other sanitizer check stays on.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-test --output-on-failure
