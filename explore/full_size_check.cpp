#include "explore/full_size_check.h"

#include "core/interp/value_io.h"

#include <sstream>

namespace liftcc::explore {

namespace {

bool containsIterate(const Expr &e) {
  if (e.is(ExprKind::Prim) && e.op() == Op::Iterate) return true;
  for (const auto &child : e.children())
    if (containsIterate(*child.expr)) return true;
  return e.is(ExprKind::Lambda) && containsIterate(e.body());
}

/// An iterated program's elements depend on whole intermediate grids, which
/// the point interpreter evaluates in full: beyond this many result values it
/// would cost what interpreting everything costs.
constexpr int64_t kMaxIteratedReferenceValues = int64_t(1) << 18;

} // namespace

FullSizeReference fullSizeReference(const Program &typed, const std::map<std::string, int64_t> &sizes,
                                    const tuner::InputBytes &inputs) {
  FullSizeReference reference;
  const Type &resultType = typed.body().typeOrThrow();
  if (containsIterate(typed.body()) && scalarCount(resultType, sizes) > kMaxIteratedReferenceValues) {
    reference.unavailable = "an iterated program of more than 2^18 values is not interpreted at full size";
    return reference;
  }
  reference.points = samplePoints(resultType, sizes, kRandomCheckPoints, 0x5eed);
  std::vector<std::span<const std::byte>> views(inputs.begin(), inputs.end());
  try {
    reference.expected = interpretPoints(typed, sizes, views, reference.points);
    if (std::optional<Program> twin = magnitudeProgram(typed, sizes)) {
      std::vector<std::vector<std::byte>> absolute;
      for (size_t i = 0; i < inputs.size(); ++i)
        absolute.push_back(absoluteBytes(inputs[i], typed.inputs()[i].typeOrThrow(), sizes));
      std::vector<std::span<const std::byte>> absoluteViews(absolute.begin(), absolute.end());
      reference.magnitudes = interpretPoints(*twin, sizes, absoluteViews, reference.points);
    }
  } catch (const InternalError &e) {
    reference.bug = std::string("full-size reference: ") + e.what();
  } catch (const Error &e) {
    // The program's own failure on these inputs (a user function's error).
    reference.points.clear();
    reference.unavailable = std::string("the interpreter failed at full size: ") + e.what();
  } catch (const std::exception &e) {
    reference.bug = std::string("full-size reference: unexpected exception: ") + e.what();
  }
  return reference;
}

std::optional<std::string> checkFullSizeOutput(const FullSizeReference &reference, const Type &resultType,
                                               const std::map<std::string, int64_t> &sizes,
                                               std::span<const std::byte> output, const Tolerance &tolerance) {
  std::vector<Value> found;
  for (const ResultPoint &point : reference.points) {
    PointLocation location = locatePoint(resultType, sizes, point);
    size_t bytes = byteCount(location.type, sizes);
    if (location.byteOffset + bytes > output.size())
      return "the output holds " + std::to_string(output.size()) + " bytes, too few for the result";
    found.push_back(fromBytes(output.subspan(location.byteOffset, bytes), location.type, sizes));
  }
  // One comparison over all points, so that a magnitude-relative tolerance
  // sees them all; the mismatch names the point, not its rank among the samples.
  std::optional<Value> magnitudes;
  if (reference.magnitudes) magnitudes = Value::array(*reference.magnitudes);
  auto mismatch = compareWithMagnitudes(Value::array(reference.expected), Value::array(found),
                                        magnitudes ? &*magnitudes : nullptr, tolerance);
  if (!mismatch) return std::nullopt;
  for (size_t i = 0; i < found.size(); ++i) {
    const Value *magnitude = reference.magnitudes ? &(*reference.magnitudes)[i] : nullptr;
    if (auto here = compareWithMagnitudes(reference.expected[i], found[i], magnitude, tolerance)) {
      std::ostringstream where;
      where << "at full size, element [";
      for (size_t d = 0; d < reference.points[i].size(); ++d) where << (d ? "," : "") << reference.points[i][d];
      where << "]: " << *here << " (" << *mismatch << " among the " << found.size() << " points checked)";
      return where.str();
    }
  }
  return "at full size: " + *mismatch;
}

} // namespace liftcc::explore
