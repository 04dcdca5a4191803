#include "codegen/global_load_counter.h"

namespace liftcc::codegen {

std::string globalLoadCounterParameter(Target target) {
  return std::string(target == Target::CUDA ? "unsigned int *" : "volatile global uint *") + kGlobalLoadCounter;
}

std::string countedGlobalLoad(Target target, const std::string &load, int elements) {
  // One atomic per load: work-items of every work-group add to one counter.
  std::string add = target == Target::CUDA ? "atomicAdd" : "atomic_add";
  return "(" + add + "(" + kGlobalLoadCounter + ", " + std::to_string(elements) + "u), " + load + ")";
}

} // namespace liftcc::codegen
