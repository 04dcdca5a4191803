#pragma once
// Point interpretation against the whole: each sampled point's value must be
// the bytes the whole interpretation holds at that point's location.

#include "core/interp/point_interpreter.h"
#include "core/interp/value_io.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace liftcc::test {

/// interpretPoints over `inputs` as the byte buffers a device would hold.
inline std::vector<Value> interpretPointsOfInputs(const Program &typed, const std::map<std::string, int64_t> &sizes,
                                                  const std::vector<Value> &inputs,
                                                  const std::vector<ResultPoint> &points) {
  std::vector<std::vector<std::byte>> bytes;
  for (const Value &v : inputs) bytes.push_back(toBytes(v));
  std::vector<std::span<const std::byte>> views(bytes.begin(), bytes.end());
  return interpretPoints(typed, sizes, views, points);
}

/// The first of `points` whose value in `values` (interpretPoints) differs
/// from the whole result `whole` at its location; nullopt when all agree.
inline std::optional<size_t> firstPointDifferingFromWhole(const Type &type, const std::map<std::string, int64_t> &sizes,
                                                          const std::vector<ResultPoint> &points,
                                                          const std::vector<Value> &values, const Value &whole) {
  std::vector<std::byte> wholeBytes = toBytes(whole);
  for (size_t i = 0; i < points.size(); ++i) {
    PointLocation location = locatePoint(type, sizes, points[i]);
    std::vector<std::byte> expected(wholeBytes.begin() + std::ptrdiff_t(location.byteOffset),
                                    wholeBytes.begin() +
                                        std::ptrdiff_t(location.byteOffset + byteCount(location.type, sizes)));
    if (toBytes(values[i]) != expected) return i;
  }
  return std::nullopt;
}

} // namespace liftcc::test
