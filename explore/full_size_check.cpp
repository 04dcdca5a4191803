#include "explore/full_size_check.h"

#include "core/interp/components.h"
#include "core/interp/value_io.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "rewrite/iterate_chain.h"

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

/// Component `c` of an expression of type `type` (core/interp/components.h):
/// every tuple replaced by its element holding scalar position c, through
/// maps and gets, which the point interpreter indexes through without
/// evaluating the other components.
Expr projectComponent(const Expr &e, const Type &type, size_t c) {
  switch (type.kind()) {
  case TypeKind::Array: {
    Type element = type.arrayElement();
    return api::map(api::fn([element, c](Expr x) { return projectComponent(x, element, c); }), e);
  }
  case TypeKind::Tuple: {
    const std::vector<Type> &elements = type.tupleElements();
    for (size_t j = 0; j < elements.size(); ++j) {
      size_t count = componentCount(elements[j]);
      if (c < count) return projectComponent(api::get(static_cast<int>(j), e), elements[j], c);
      c -= count;
    }
    throw InternalError("projectComponent: no component " + std::to_string(c) + " in " + type.str());
  }
  case TypeKind::Scalar:
  case TypeKind::Vector: return e;
  }
  throw InternalError("projectComponent: unknown type kind");
}

/// Samples `points` of the typed program's result and interprets them (and
/// their magnitudes) into `reference`.
void samplePointsOf(const Program &typed, const std::map<std::string, int64_t> &sizes, const tuner::InputBytes &inputs,
                    uint64_t seed, std::optional<InterpretDeadline> deadline, FullSizeReference &reference) {
  std::vector<ResultPoint> points = samplePoints(typed.body().typeOrThrow(), sizes, kRandomCheckPoints, seed);
  std::vector<std::span<const std::byte>> views(inputs.begin(), inputs.end());
  std::vector<Value> expected = interpretPoints(typed, sizes, views, points, deadline);
  if (std::optional<Program> twin = magnitudeProgram(typed, sizes)) {
    std::vector<std::vector<std::byte>> absolute;
    for (size_t i = 0; i < inputs.size(); ++i)
      absolute.push_back(absoluteBytes(inputs[i], typed.inputs()[i].typeOrThrow(), sizes));
    std::vector<std::span<const std::byte>> absoluteViews(absolute.begin(), absolute.end());
    std::vector<Value> magnitudes = interpretPoints(*twin, sizes, absoluteViews, points, deadline);
    if (!reference.magnitudes) reference.magnitudes.emplace();
    reference.magnitudes->insert(reference.magnitudes->end(), magnitudes.begin(), magnitudes.end());
  }
  reference.points.insert(reference.points.end(), points.begin(), points.end());
  reference.expected.insert(reference.expected.end(), expected.begin(), expected.end());
}

} // namespace

FullSizeReference fullSizeReference(const Program &program, const std::map<std::string, int64_t> &sizes,
                                    const tuner::InputBytes &inputs, std::optional<InterpretDeadline> deadline) {
  // Stages around an iterate read it through nested bindings, whose loop
  // the point interpreter would run again for every element they ask for
  // (40 s instead of 0.4 s for a 203x157 grid); the chain of iterates they
  // make (rewrite/iterate_chain.h) means the same and runs each level once.
  const Program typed = rewrite::asChain(program);
  FullSizeReference reference;
  const Type &resultType = typed.body().typeOrThrow();
  if (containsIterate(typed.body()) && scalarCount(resultType, sizes) > kMaxIteratedReferenceValues) {
    reference.unavailable = "an iterated program of more than 2^18 values is not interpreted at full size";
    return reference;
  }
  try {
    if (!hasTuple(resultType)) {
      samplePointsOf(typed, sizes, inputs, 0x5eed, deadline, reference);
    } else {
      // Each component on its own: the program projected onto it.
      size_t offset = 0;
      for (size_t c = 0; c < componentCount(resultType); ++c) {
        Program component = typeCheck(
            Program{typed.sizes, Expr::lambda(typed.inputs(), projectComponent(typed.body(), resultType, c))}, sizes);
        samplePointsOf(component, sizes, inputs, 0x5eed + c, deadline, reference);
        reference.pointComponent.resize(reference.points.size(), c);
        reference.componentTypes.push_back(component.body().typeOrThrow());
        reference.componentOffsets.push_back(offset);
        offset += byteCount(reference.componentTypes.back(), sizes);
      }
    }
    // Magnitudes exist for every point or for none.
    if (reference.magnitudes && reference.magnitudes->size() != reference.points.size()) reference.magnitudes.reset();
  } catch (const DeadlineReached &) {
    throw; // no property of the program: the caller's budget ended
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
  for (size_t i = 0; i < reference.points.size(); ++i) {
    const ResultPoint &point = reference.points[i];
    const bool byComponent = !reference.pointComponent.empty();
    const size_t component = byComponent ? reference.pointComponent[i] : 0;
    PointLocation location = locatePoint(byComponent ? reference.componentTypes[component] : resultType, sizes, point);
    if (byComponent) location.byteOffset += reference.componentOffsets[component];
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
      where << "at full size, ";
      if (!reference.pointComponent.empty()) where << "component " << reference.pointComponent[i] << " ";
      where << "element [";
      for (size_t d = 0; d < reference.points[i].size(); ++d) where << (d ? "," : "") << reference.points[i][d];
      where << "]: " << *here << " (" << *mismatch << " among the " << found.size() << " points checked)";
      return where.str();
    }
  }
  return "at full size: " + *mismatch;
}

} // namespace liftcc::explore
