#!/usr/bin/env bash
# Formats the C++ sources with the repository's .clang-format (clang-format 14),
# or with --check lists the files that are not formatted and fails.
# Excluded: bench/reference (hand-written peer kernels in their authors' style),
# examples/app and tests/consumer (stand-alone user code built against the
# installed package, kept as a user would write it).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.h' '*.cpp' | grep -v -e '^bench/reference/' -e '^examples/app/' -e '^tests/consumer/')
if [[ "${1:-}" == "--check" ]]; then
  status=0
  for f in "${files[@]}"; do
    if ! clang-format "$f" | cmp -s - "$f"; then echo "not formatted: $f"; status=1; fi
  done
  exit $status
fi
clang-format -i "${files[@]}"
