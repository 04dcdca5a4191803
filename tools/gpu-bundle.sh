#!/usr/bin/env bash
# Packs the build dependencies that a GPU machine without a package registry
# lacks into one folder (default .gpu-bundle/, ignored by git), for
# tools/gpu-check.sh --bundle. Run it on a Debian/Ubuntu machine that has the
# packages of .ci/run; copy the folder next to the checkout on the GPU machine.
#
#   headers:  nlohmann-json3-dev, doctest-dev (with their CMake package files),
#             opencl-headers (CL/*.h)
#   library:  ocl-icd's libOpenCL.so.1, the OpenCL ICD loader (70 KB, needs only
#             libc). It is the one binary: CUDA toolkits ship no ICD loader, and
#             NVIDIA's OpenCL driver (libnvidia-opencl.so.1) comes with the GPU
#             driver, not with it.
set -euo pipefail
out=${1:-.gpu-bundle}
need() { [[ -e $1 ]] || { echo "gpu-bundle: $1 not found (install $2)" >&2; exit 1; }; }
need /usr/include/nlohmann/json.hpp nlohmann-json3-dev
need /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake nlohmann-json3-dev
need /usr/include/doctest/doctest.h doctest-dev
need /usr/lib/cmake/doctest/doctestConfig.cmake doctest-dev
need /usr/include/CL/cl.h opencl-headers
loader=$(ldconfig -p | awk '/libOpenCL\.so\.1 .*x86-64/ {found = $NF} END {print found}')
[[ -n $loader ]] || { echo "gpu-bundle: libOpenCL.so.1 not found (install ocl-icd-libopencl1)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/include" "$out/share/cmake" "$out/lib/cmake" "$out/lib"
cp -r /usr/include/nlohmann /usr/include/doctest /usr/include/CL "$out/include/"
# The package files locate the headers relative to themselves
# (PACKAGE_PREFIX_DIR = three folders up), so the same layout works anywhere.
cp -r /usr/share/cmake/nlohmann_json "$out/share/cmake/"
cp -r /usr/lib/cmake/doctest "$out/lib/cmake/"
cp -L "$loader" "$out/lib/libOpenCL.so.1"
ln -sf libOpenCL.so.1 "$out/lib/libOpenCL.so"
du -sh "$out" | awk '{print "gpu-bundle: wrote " $2 " (" $1 ")"}'
