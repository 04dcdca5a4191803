// Names the code generator puts into kernels as identifiers: the kernel's
// own name, inputs, sizes and user functions must be ordinary identifiers in
// OpenCL C and CUDA C++ alike, and must not clash with each other.

#include "codegen/generate.h"

#include "core/cfun/reserved.h"

namespace liftcc::codegen {

std::optional<std::string> invalidKernelName(const std::string &name) {
  if (!cfun::isIdentifier(name)) return std::string("is not a valid C identifier");
  // The kernel is a function: the same names are reserved as for user functions.
  if (auto why = cfun::reservedFunctionName(name)) return "is not allowed: " + *why;
  return std::nullopt;
}

} // namespace liftcc::codegen
