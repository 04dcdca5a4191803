#pragma once
// liftc export: a kernel and the C host code that builds and launches it, as
// header + source pairs the user compiles into an application that does not
// depend on liftcc.

#include "exporter/export_plan.h"
#include "exporter/host_common.h"

#include <string>
#include <vector>

namespace liftcc::exporter {

/// The pair for the plan's target: `<prefix>_opencl.{h,c}` or `<prefix>_cuda.{h,c}`.
/// Throws std::invalid_argument when `prefix` is not a C identifier.
ExportedPair exportPair(const ExportPlan &plan, const std::string &prefix);

/// Writes the pairs into `directory` (created if missing) and returns the
/// paths written. The file names come from C identifiers, so nothing is
/// written outside `directory`.
std::vector<std::string> writePairs(const std::vector<ExportedPair> &pairs, const std::string &directory);

} // namespace liftcc::exporter
