#pragma once
// CUDA C run on the host, for checking CUDA-only code paths (struct vectors,
// aligned vector loads and stores) against the interpreter on machines
// without a GPU: the kernel's source is compiled as C++ by the host compiler,
// CUDA's built-in index variables are globals, and every thread of the grid
// runs in turn. That is CUDA's meaning only for kernels whose threads never
// wait for one another, so a kernel with shared memory or barriers is
// refused, as are multi-stage and iterated kernels (one launch only) and
// buffers of other kinds than float.

#include "codegen/kernel.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::test {

/// What CUDA's headers give a kernel that the host compiler lacks.
inline const char *cudaOnHostPrelude() {
  return R"(#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
struct liftcc_dim3 { unsigned x = 0, y = 0, z = 0; };
static liftcc_dim3 blockIdx, threadIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
template <class A, class B> std::common_type_t<A, B> min(A a, B b) { return a < b ? a : b; }
template <class A, class B> std::common_type_t<A, B> max(A a, B b) { return a > b ? a : b; }
inline int __float2int_rz(float x) { return (int)x; }
inline int __double2int_rz(double x) { return (int)x; }
)";
}

/// The kernel's output on `inputs` (one per Input argument, in order),
/// launched over its global size in blocks of `block`; nullopt with `why`
/// when the kernel cannot be run this way or does not build or run.
inline std::optional<std::vector<float>> runCudaOnHost(const codegen::Kernel &kernel,
                                                       const std::map<std::string, int64_t> &sizes,
                                                       const std::vector<std::vector<float>> &inputs,
                                                       std::array<unsigned, 3> block, std::string &why) {
  if (kernel.target != codegen::Target::CUDA || !kernel.stages.empty() || kernel.iteration ||
      kernel.localMemoryBytes > 0 || kernel.source.find("__syncthreads") != std::string::npos) {
    why = "not a single barrier-free CUDA kernel";
    return std::nullopt;
  }
  if (kernel.localSize)
    block = {static_cast<unsigned>((*kernel.localSize)[0]), static_cast<unsigned>((*kernel.localSize)[1]),
             static_cast<unsigned>((*kernel.localSize)[2])};
  TempDir dir;
  std::string call, reads;
  size_t input = 0;
  int64_t outputElements = 0;
  for (const codegen::KernelArg &arg : kernel.args) {
    call += call.empty() ? "" : ", ";
    if (arg.role == codegen::KernelArg::Role::Size) {
      call += std::to_string(sizes.at(arg.name));
      continue;
    }
    if (arg.kind != ScalarKind::Float) {
      why = "a buffer of another kind than float";
      return std::nullopt;
    }
    const int64_t count = arith::evaluate(arg.count, sizes);
    if (arg.role == codegen::KernelArg::Role::Output) {
      outputElements = count;
      call += "out";
      continue;
    }
    if (input >= inputs.size() || static_cast<int64_t>(inputs[input].size()) != count) {
      why = "input " + arg.name + ": expected " + std::to_string(count) + " floats";
      return std::nullopt;
    }
    std::ofstream(dir.path() / ("in" + std::to_string(input)), std::ios::binary)
        .write(reinterpret_cast<const char *>(inputs[input].data()),
               static_cast<std::streamsize>(inputs[input].size() * sizeof(float)));
    // 256-byte aligned as cudaMalloc's, so that aligned vector accesses are.
    reads += "  float *in" + std::to_string(input) + " = load(argv[" + std::to_string(input + 1) + "], " +
             std::to_string(count) + ");\n";
    call += "in" + std::to_string(input++);
  }
  std::array<int64_t, 3> global{};
  for (size_t d = 0; d < 3; ++d) global[d] = arith::evaluate(kernel.globalSize[d], sizes);
  std::string main = R"(
static float *load(const char *path, long n) {
  float *p = (float *)std::aligned_alloc(256, ((n * sizeof(float) + 255) / 256) * 256);
  FILE *f = std::fopen(path, "rb");
  if (!f || std::fread(p, sizeof(float), n, f) != (size_t)n) std::exit(3);
  std::fclose(f);
  return p;
}
int main(int, char **argv) {
)" + reads +
                     "  const long outputs = " + std::to_string(outputElements) + ";\n" +
                     R"(  float *out = (float *)std::aligned_alloc(256, ((outputs * sizeof(float) + 255) / 256) * 256);
  for (long i = 0; i < outputs; ++i) out[i] = NAN; // every output must be written
)";
  main += "  blockDim = {" + std::to_string(block[0]) + "u, " + std::to_string(block[1]) + "u, " +
          std::to_string(block[2]) + "u};\n";
  for (size_t d = 0; d < 3; ++d)
    main +=
        "  gridDim." + std::string(1, "xyz"[d]) + " = " + std::to_string((global[d] + block[d] - 1) / block[d]) + ";\n";
  main += R"(  for (blockIdx.z = 0; blockIdx.z < gridDim.z; ++blockIdx.z)
  for (blockIdx.y = 0; blockIdx.y < gridDim.y; ++blockIdx.y)
  for (blockIdx.x = 0; blockIdx.x < gridDim.x; ++blockIdx.x)
  for (threadIdx.z = 0; threadIdx.z < blockDim.z; ++threadIdx.z)
  for (threadIdx.y = 0; threadIdx.y < blockDim.y; ++threadIdx.y)
  for (threadIdx.x = 0; threadIdx.x < blockDim.x; ++threadIdx.x)
    )" + kernel.name +
          "(" + call + R"();
  FILE *f = std::fopen(argv[)" +
          std::to_string(input + 1) + R"(], "wb");
  if (!f || std::fwrite(out, sizeof(float), outputs, f) != (size_t)outputs) return 4;
  std::fclose(f);
  return 0;
}
)";
  const std::filesystem::path source = dir.path() / "kernel.cpp", binary = dir.path() / "kernel";
  std::ofstream(source) << cudaOnHostPrelude() << kernel.source << main;
  ProcessRun build = runShell(shellQuote(LIFTCC_TEST_CXX_COMPILER) + " -std=c++17 -O1 -w -o " +
                              shellQuote(binary.string()) + " " + shellQuote(source.string()));
  if (build.status != 0) {
    why = "the host compiler refused it: " + build.output.substr(0, 2000);
    return std::nullopt;
  }
  std::string command = shellQuote(binary.string());
  for (size_t i = 0; i < input; ++i) command += " " + shellQuote((dir.path() / ("in" + std::to_string(i))).string());
  command += " " + shellQuote((dir.path() / "out").string());
  ProcessRun run = runShell(command);
  if (run.status != 0) {
    why = "it ran with exit status " + std::to_string(run.status) + ": " + run.output.substr(0, 2000);
    return std::nullopt;
  }
  std::vector<float> out(static_cast<size_t>(outputElements));
  std::ifstream(dir.path() / "out", std::ios::binary)
      .read(reinterpret_cast<char *>(out.data()), static_cast<std::streamsize>(out.size() * sizeof(float)));
  return out;
}

} // namespace liftcc::test
