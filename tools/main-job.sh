#!/usr/bin/env bash
# The README's main job: build liftc (Release, build/), explore and tune the
# 2D Jacobi 5-point stencil on the default OpenCL device, and print the best
# kernel with its speed. Re-running resumes from results/ without measuring
# anything twice.
#
#   LIFTCC_STENCIL=heat LIFTCC_SIZES=N=128,M=128,O=128 ./tools/main-job.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# Installs missing Debian packages as root, else names them and exits 2.
tools/install-deps.sh main
stencil=${LIFTCC_STENCIL:-jacobi2d_5pt}
sizes=${LIFTCC_SIZES:-N=2048,M=2048}
budget=${LIFTCC_BUDGET:-5m}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLIFTCC_BUILD_TESTS=OFF >/dev/null
cmake --build build -j "$(nproc)" --target liftc
./build/tools/liftc/liftc explore "examples/json/$stencil.json" --size "$sizes" --budget "$budget" --out results
./build/tools/liftc/liftc best results --program "$stencil"
