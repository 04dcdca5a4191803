#pragma once
// The CUDA host code of an exported kernel: a C header and source over the
// CUDA driver API that embed the kernel, load it into the current context
// (compiled at run time with NVRTC for the current device, or from PTX /
// cubin the caller gives) and launch the whole schedule on the caller's
// device pointers and stream.

#include "exporter/host_common.h"

namespace liftcc::exporter {

/// `<prefix>_cuda.h` and `<prefix>_cuda.c`. Precondition: a CUDA plan.
ExportedPair exportCuda(const ExportPlan &plan, const std::string &prefix);

} // namespace liftcc::exporter
