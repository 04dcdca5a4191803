#include "bench/reference_kernels.h"

namespace liftcc::bench {

std::optional<ReferenceKernel> findReferenceKernel(const std::string &example, codegen::Target target) {
  const std::string_view extension = target == codegen::Target::CUDA ? ".cu" : ".cl";
  for (const EmbeddedSource &s : embeddedReferenceSources())
    if (s.name == example && s.extension == extension) return ReferenceKernel{example, s.source};
  return std::nullopt;
}

} // namespace liftcc::bench
