#!/usr/bin/env bash
# The README's main job. Builds liftc (Release, in build/) and runs the
# pipeline that exists today on the 2D Jacobi 5-point stencil: type-check the
# JSON program and evaluate it with the reference interpreter.
# (Exploration and tuning on the default OpenCL device arrive with
# `liftc explore`; this script will call it then.)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLIFTCC_BUILD_TESTS=OFF >/dev/null
cmake --build build -j "$(nproc)" --target liftc
program=examples/json/jacobi2d_5pt.json
./build/tools/liftc/liftc check "$program"
./build/tools/liftc/liftc eval "$program" --size N=512,M=512
