#pragma once
// The per-device best-kernels directory:
//   <results>/best/<device>/<program>/<sizes>/kernel.cl     the kernel source (kernel.cu for CUDA)
//   <results>/best/<device>/<program>/<sizes>/launch.json   configuration, arguments, NDRange, figures
// A later exploration replaces an entry only with a faster kernel.

#include "explore/space.h"
#include "explore/win_explanation.h"
#include "search/result_store.h"

#include <cstdint>
#include <filesystem>
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
/// `why`, when given, goes to launch.json as "why", and the record's SASS
/// figures (CUDA) as "sass". The entry (kernel source
/// and launch.json) is written as a whole (io::writeDirectory): a failure or
/// crash leaves the old entry or the new one, never a kernel without its
/// launch.json. An existing entry that cannot be read (corrupt, a FIFO in
/// place of a file) is replaced.
std::string writeBestKernel(const std::string &resultsDir, const std::string &deviceName,
                            const std::string &programName, const std::string &sizesKey, const Variant &variant,
                            const search::Record &record, int64_t outputElements, const WinExplanation *why = nullptr);

struct BestKernel {
  std::string directory;
  std::string source;
  std::string kernelFile; ///< file name of the source in `directory`
  nlohmann::json launch;
};

/// Reads and checks one best-kernel directory: launch.json (a regular file,
/// capped, valid JSON, every field liftc reads of the type it reads) and the
/// kernel file it names, whose hash must match. Throws liftcc::Error (or
/// io::FileError for a file that cannot be opened) with one line naming the
/// file and, for a bad field, its JSON pointer
/// ("<dir>/launch.json: /medianNs: expected a positive number, found \"x\"").
BestKernel readBestKernel(const std::filesystem::path &directory);

struct BestKernelListing {
  std::vector<BestKernel> kernels;   ///< the entries that read well, by directory
  std::vector<std::string> problems; ///< one line per entry that did not (readBestKernel's message)
};

/// Every best kernel recorded for a device (matched like device selection: a
/// case-insensitive substring of the device directory name). A bad entry is
/// one line in `problems` and hides no other entry; hidden directories
/// (io::writeDirectory's temporaries) are skipped.
BestKernelListing listBestKernels(const std::string &resultsDir, const std::string &device);

/// listBestKernels for callers that need every entry: the first problem is
/// thrown (liftcc::Error).
std::vector<BestKernel> findBestKernels(const std::string &resultsDir, const std::string &device);

} // namespace liftcc::explore
