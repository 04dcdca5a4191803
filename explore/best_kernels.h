#pragma once
// The per-device best-kernels directory:
//   <results>/best/<device>/<program>/<sizes>/kernel.cl     the kernel source (kernel.cu for CUDA)
//   <results>/best/<device>/<program>/<sizes>/launch.json   configuration, arguments, NDRange, figures
// A later exploration replaces an entry only with a faster kernel.

#include "explore/space.h"
#include "explore/win_explanation.h"
#include "tuner/result_store.h"

#include <cstdint>
#include <optional>
#include <string>

namespace liftcc::explore {

/// "kernel.cl" or "kernel.cu": the file name of a best kernel's source.
std::string kernelFileName(codegen::Target target);

/// The kernel file named by a launch.json ("kernel.cl" when absent, as in
/// entries written before CUDA support). Throws std::runtime_error for any
/// other name than kernelFileName gives, so a doctored entry cannot point
/// outside its directory.
std::string kernelFileOf(const nlohmann::json &launch);

/// Writes the entry unless an existing one is faster; returns its directory.
/// `why`, when given, goes to launch.json as "why".
std::string writeBestKernel(const std::string &resultsDir, const std::string &deviceName,
                            const std::string &programName, const std::string &sizesKey, const Variant &variant,
                            const tuner::Record &record, int64_t outputElements, const WinExplanation *why = nullptr);

struct BestKernel {
  std::string directory;
  std::string source;
  std::string kernelFile; ///< file name of the source in `directory`
  nlohmann::json launch;
};

/// Every best kernel recorded for a device (matched like device selection: a
/// case-insensitive substring of the device directory name).
std::vector<BestKernel> findBestKernels(const std::string &resultsDir, const std::string &device);

} // namespace liftcc::explore
