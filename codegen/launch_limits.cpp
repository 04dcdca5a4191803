#include "codegen/launch_limits.h"

namespace liftcc::codegen {

void checkIterations(int64_t count) {
  if (count < 0 || count > kMaxIterations)
    throw LimitError("iterate repeats more than " + std::to_string(kMaxIterations) +
                     " times, liftc's limit on iterations (each is a kernel launch or an interpreter pass)");
}

void checkWorkGroup(const std::array<int64_t, 3> &local) {
  int64_t items = 1;
  for (int d = 0; d < 3; ++d) {
    if (local[d] < 1)
      throw LimitError("a work-group extent must be at least 1, found " + std::to_string(local[d]) + " in dimension " +
                       std::to_string(d));
    // items <= kMaxWorkGroupItems here, so the test cannot overflow.
    if (local[d] > kMaxWorkGroupItems / items)
      throw LimitError("the work-group " + std::to_string(local[0]) + "x" + std::to_string(local[1]) + "x" +
                       std::to_string(local[2]) + " has more than " + std::to_string(kMaxWorkGroupItems) +
                       " work-items, liftc's limit");
    items *= local[d];
  }
}

} // namespace liftcc::codegen
