#include "bench/reference_kernels.h"

namespace liftcc::bench {

std::optional<ReferenceKernel> findReferenceKernel(const std::string &example, codegen::Target target) {
  const std::string_view extension = target == codegen::Target::CUDA ? ".cu" : ".cl";
  for (const EmbeddedSource &s : embeddedReferenceSources())
    if (s.name == example && s.extension == extension) return ReferenceKernel{example, s.source};
  return std::nullopt;
}

std::optional<ReferenceKernel> findExpertKernel(const std::string &example, codegen::Target target) {
  return findReferenceKernel(example + "_expert", target);
}

} // namespace liftcc::bench
