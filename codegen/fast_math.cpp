#include "codegen/fast_math.h"

#include <iterator>

namespace liftcc::codegen {

std::string fastMathName(FastMath level) {
  switch (level) {
  case FastMath::None: return "none";
  case FastMath::Mad: return "mad";
  case FastMath::Reassociate: return "reassociate";
  case FastMath::Relaxed: return "relaxed";
  }
  return "?";
}

namespace {
constexpr FastMath kLevels[] = {FastMath::None, FastMath::Mad, FastMath::Reassociate, FastMath::Relaxed};
}

std::string fastMathNames(const std::string &conjunction) {
  std::string names;
  const size_t count = std::size(kLevels);
  for (size_t i = 0; i < count; ++i)
    names += (i == 0 ? "" : i + 1 == count ? " " + conjunction + " " : ", ") + fastMathName(kLevels[i]);
  return names;
}

std::optional<FastMath> parseFastMath(std::string_view text) {
  for (FastMath level : kLevels)
    if (text == fastMathName(level)) return level;
  return std::nullopt;
}

std::string buildOptionsFor(FastMath level, Target target) {
  switch (level) {
  case FastMath::None:
  case FastMath::Reassociate: return "";
  case FastMath::Mad: return target == Target::OpenCL ? "-cl-mad-enable" : "--fmad=true";
  case FastMath::Relaxed: return target == Target::OpenCL ? "-cl-fast-relaxed-math" : "--use_fast_math";
  }
  return "";
}

Tolerance fastMathTolerance(FastMath level, bool divToMul) {
  Tolerance tolerance{1e-4, 1e-5};
  if (level == FastMath::Relaxed)
    tolerance.magnitude = 1.0 / (1 << 11);
  else if (level == FastMath::Mad || level == FastMath::Reassociate || divToMul)
    tolerance.magnitude = 1.0 / (1 << 13);
  return tolerance;
}

} // namespace liftcc::codegen
