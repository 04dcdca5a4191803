#pragma once
// Global loads executed per output: a static check that needs no GPU. A
// kernel generated with codegen::CodegenOptions::countGlobalLoads adds the
// elements of every global-buffer read it executes to a counter; one run on
// any device (PoCL here) divided by the outputs gives the figure GPU stencil
// codes are judged by (2.5D streaming through local memory loads each input
// element about once, a private-window stream about nine times for a 3x3
// plane neighbourhood). Vector loads count their lanes.

#include "codegen/kernel.h"
#include "tuner/device.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace liftcc::tuner {

struct GlobalLoadCount {
  uint64_t loads = 0;   ///< global elements read, over all launches
  uint64_t outputs = 0; ///< output elements written per launch
  int64_t launches = 1; ///< launches (an iterated kernel's steps)
  /// Global elements read per output element and launch.
  double perOutput() const { return outputs && launches ? double(loads) / double(outputs * launches) : 0.0; }
};

/// Runs `kernel` (countsGlobalLoads; `compiled` is it compiled for a device)
/// once at `sizes` on `inputs` (the kernel's inputs, in order) and reads its
/// counter. The counter is 32 bits: keep loads below 2^32 (sizes of a test).
/// Throws std::invalid_argument for a kernel that does not count, or like
/// CompiledKernel::runViews.
GlobalLoadCount countGlobalLoads(CompiledKernel &compiled, const codegen::Kernel &kernel,
                                 const std::map<std::string, int64_t> &sizes, const InputViews &inputs,
                                 const std::optional<std::array<size_t, 3>> &localSize = std::nullopt);

} // namespace liftcc::tuner
