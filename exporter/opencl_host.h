#pragma once
// The OpenCL host code of an exported kernel: a C header and source that
// embed the kernel, build it for one device of a context and launch the whole
// schedule on the caller's buffers and command queue.

#include "exporter/host_common.h"

namespace liftcc::exporter {

/// `<prefix>_opencl.h` and `<prefix>_opencl.c`. Precondition: an OpenCL plan.
ExportedPair exportOpenCL(const ExportPlan &plan, const std::string &prefix);

} // namespace liftcc::exporter
