#include "core/interp/value_compare.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace liftcc {

std::optional<std::string> compareValues(const Value &expected, const Value &actual, Tolerance tolerance) {
  std::vector<Scalar> e = expected.flatten(), a = actual.flatten();
  if (e.size() != a.size())
    return "expected " + std::to_string(e.size()) + " values, found " + std::to_string(a.size());
  double largest = 0;
  if (tolerance.magnitude > 0)
    for (const Scalar &x : e)
      if ((x.kind() == ScalarKind::Float || x.kind() == ScalarKind::Double) && std::isfinite(x.toDouble()))
        largest = std::max(largest, std::fabs(x.toDouble()));
  const double absolute = tolerance.absolute + tolerance.magnitude * largest;
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    bool same;
    if (e[i].kind() == ScalarKind::Float || e[i].kind() == ScalarKind::Double) {
      double x = e[i].toDouble(), y = a[i].toDouble();
      if (std::isnan(x) || std::isnan(y))
        same = std::isnan(x) && std::isnan(y);
      else
        same = std::fabs(x - y) <= absolute + tolerance.relative * std::fabs(x);
    } else {
      same = e[i].toDouble() == a[i].toDouble();
    }
    if (!same && mismatches++ == 0) first = i;
  }
  if (mismatches == 0) return std::nullopt;
  std::ostringstream out;
  out.precision(9);
  out << mismatches << " of " << e.size() << " values differ; first at element " << first << ": expected "
      << e[first].toDouble() << ", found " << a[first].toDouble();
  return out.str();
}

} // namespace liftcc
