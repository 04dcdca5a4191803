#include "bench/reference_kernels.h"

namespace liftcc::bench {

std::optional<ReferenceKernel> findReferenceKernel(const std::string &example) {
  for (const EmbeddedSource &s : embeddedReferenceSources())
    if (s.name == example) return ReferenceKernel{example, s.source};
  return std::nullopt;
}

} // namespace liftcc::bench
