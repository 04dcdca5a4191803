#pragma once
// CUDA C run on the host, for checking CUDA-only code paths (struct vectors,
// aligned vector loads and stores, shared memory and barriers) against the
// interpreter on machines without a GPU: the kernel's source is compiled as
// C++ by the host compiler, CUDA's built-in index variables are globals (the
// thread's own index thread-local), the blocks run one after the other and
// the threads of a block as host threads that meet at each __syncthreads
// (std::barrier; a thread that returns leaves it, as an exited CUDA thread
// does). __shared__ arrays are static: shared by the block's threads, and
// blocks never overlap. An iteration of one state array runs its launches
// with the buffers exchanged as the host does; multi-stage kernels, time
// tiles of several phases, tuple states and results, and buffers of other
// kinds than float are refused.

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
  return R"(#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>
struct liftcc_dim3 { unsigned x = 0, y = 0, z = 0; };
static liftcc_dim3 blockIdx, blockDim, gridDim;
static thread_local liftcc_dim3 threadIdx;
static std::barrier<> *liftcc_block_barrier = nullptr;
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __shared__ static
#define __syncthreads() liftcc_block_barrier->arrive_and_wait()
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
  if (kernel.target != codegen::Target::CUDA || !kernel.stages.empty() ||
      kernel.source.find("extern __shared__") != std::string::npos) {
    why = "not a single CUDA kernel with static shared memory";
    return std::nullopt;
  }
  // An iteration: the kernel launched `count` times over one state array,
  // its input and output buffers exchanged after each launch.
  const codegen::Kernel::Iteration *iteration = kernel.iteration ? &*kernel.iteration : nullptr;
  if (iteration && (!iteration->phases.empty() || iteration->inputArgs.size() != 1 || iteration->carries())) {
    why = "an iteration of phases, tuples or carried components";
    return std::nullopt;
  }
  if (kernel.localSize)
    block = {static_cast<unsigned>((*kernel.localSize)[0]), static_cast<unsigned>((*kernel.localSize)[1]),
             static_cast<unsigned>((*kernel.localSize)[2])};
  TempDir dir;
  std::string call, reads;
  size_t input = 0;
  int64_t outputElements = 0;
  for (size_t a = 0; a < kernel.args.size(); ++a) {
    const codegen::KernelArg &arg = kernel.args[a];
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
      if (outputElements > 0) {
        why = "several output buffers (a tuple result)";
        return std::nullopt;
      }
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
    const bool state = iteration && iteration->inputArgs[0] == a; // the iterated array: exchanged with `out`
    call += state ? "state" : "in" + std::to_string(input);
    if (state) reads += "  float *state = in" + std::to_string(input) + ";\n";
    ++input;
  }
  const int64_t launches = iteration ? arith::evaluate(iteration->count, sizes) : 1;
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
  main += "  const long launches = " + std::to_string(launches) + ";\n";
  main += R"(  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  for (long launch = 0; launch < launches; ++launch) {
  for (blockIdx.z = 0; blockIdx.z < gridDim.z; ++blockIdx.z)
  for (blockIdx.y = 0; blockIdx.y < gridDim.y; ++blockIdx.y)
  for (blockIdx.x = 0; blockIdx.x < gridDim.x; ++blockIdx.x) {
    std::barrier<> barrier(threads);
    liftcc_block_barrier = &barrier;
    std::vector<std::thread> block;
    for (unsigned t = 0; t < threads; ++t)
      block.emplace_back([&, t] {
        threadIdx = {t % blockDim.x, t / blockDim.x % blockDim.y, t / (blockDim.x * blockDim.y)};
        )" +
          kernel.name + "(" + call + R"();
        barrier.arrive_and_drop();
      });
    for (std::thread &thread : block) thread.join();
  }
)" + (iteration ? "  std::swap(state, out);\n" : "") +
          R"(  }
)" + (iteration ? "  out = state;\n" : "") +
          R"(  FILE *f = std::fopen(argv[)" + std::to_string(input + 1) + R"(], "wb");
  if (!f || std::fwrite(out, sizeof(float), outputs, f) != (size_t)outputs) return 4;
  std::fclose(f);
  return 0;
}
)";
  const std::filesystem::path source = dir.path() / "kernel.cpp", binary = dir.path() / "kernel";
  std::ofstream(source) << cudaOnHostPrelude() << kernel.source << main;
  ProcessRun build = runShell(shellQuote(LIFTCC_TEST_CXX_COMPILER) + " -std=c++20 -O1 -w -pthread -o " +
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
