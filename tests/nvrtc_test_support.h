#pragma once
// Shared by the suites that compile CUDA C without a GPU.

#include "tuner/cuda/nvrtc_compiler.h"

#include <doctest/doctest.h>

#include <optional>

namespace liftcc::cuda::test {

/// NVRTC options for compile-only checks (sm_90, warnings are failures), or
/// nullopt with a MESSAGE in a build without NVRTC.
inline std::optional<NvrtcOptions> strictSm90() {
  if (!nvrtcAvailable()) {
    MESSAGE("built without NVRTC: CUDA C generated but not compiled");
    return std::nullopt;
  }
  NvrtcOptions options;
  options.arch = "sm_90";
  options.warningsAsErrors = true;
  return options;
}

} // namespace liftcc::cuda::test
