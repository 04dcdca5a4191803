#include "codegen/kernel_signature.h"

#include "codegen/global_load_counter.h"
#include "core/cfun/reserved.h"

namespace liftcc::codegen {

// The liftcc_ prefix is reserved for generated names (as liftcc_min/liftcc_max).
std::string wideSizeParameter(const std::string &size) { return std::string(cfun::kGeneratedPrefix) + "size_" + size; }

std::string kernelSignature(const Kernel &kernel) {
  Dialect dialect(kernel.target);
  std::string signature = kernel.name + "(";
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    const KernelArg &arg = kernel.args[i];
    signature += i ? ", " : "";
    switch (arg.role) {
    case KernelArg::Role::Input: signature += dialect.globalPointer(arg.kind, true) + " " + arg.name; break;
    case KernelArg::Role::Output: signature += dialect.globalPointer(arg.kind, false) + " " + arg.name; break;
    case KernelArg::Role::Size:
      signature += "int " + (kernel.indexBits == 64 ? wideSizeParameter(arg.name) : arg.name);
      break;
    }
  }
  if (kernel.countsGlobalLoads) signature += ", " + globalLoadCounterParameter(kernel.target);
  return signature + ")";
}

} // namespace liftcc::codegen
