#pragma once
// Whether a best-kernel directory's kernel file is the kernel its launch.json
// was measured with, and its launch within liftc's limits: the one check that
// every reader of such a directory applies before using the kernel (liftc
// best and bench through findBestKernels, liftc export through
// exporter::planFromBestKernel). A kernel embedded in an application with
// buffer sizes taken from an edited launch.json would write past the buffers
// the application allocates.

#include "core/io/json.h"

#include <string>

namespace liftcc::explore {

/// What an entry must carry to be checked.
enum class EntryHashes {
  /// liftc best and bench: every hash present is checked; entries written
  /// before the hashes existed are used as they are.
  IfPresent,
  /// liftc export: kernelSourceHash, kernelHash and the kernel metadata must
  /// be there, since the exported code trusts them.
  Required,
};

/// Checks the entry of `directory` whose launch.json is `launch` and whose
/// kernel file holds `source`:
///   /kernelSourceHash is the hash of the kernel file;
///   /kernelHash is the one recomputed from the kernel file, the launch
///     metadata (/kernel: arguments and their element counts, NDRange,
///     work-group, iterations, build options) and the launch's work-group
///     (/configuration/local), as explore computed it (record_identity.h);
///   /kernel/args are the parameters of the kernel function in the file
///     (names, order, types, read-only inputs; codegen::kernelSignature);
///   /kernel/iterate/count, /kernel/localSize and /configuration/local are
///     within codegen/launch_limits.h.
/// Throws liftcc::Error "<directory>/launch.json: <JSON pointer>: <what>".
void verifyBestKernel(const nlohmann::json &launch, const std::string &source, const std::string &directory,
                      EntryHashes hashes);

} // namespace liftcc::explore
