#pragma once
// Stopping a long interpretation cooperatively. An exploration's budget
// covers the interpreter's references too (a 1000x1000 window sum costs a
// million operations per sampled point): the interpreters read the clock
// every so many steps and give up once the deadline has passed, so the
// caller regains control within milliseconds of it.

#include "core/interp/value.h"
#include "core/ir/expr.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc {

using InterpretDeadline = std::chrono::steady_clock::time_point;

/// Thrown when an interpretation passes its deadline. Deliberately no
/// liftcc::Error: it is no failure of the program nor of liftcc, and the
/// callers that classify failures (a variant's record) must let it through.
struct DeadlineReached : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Counts an interpreter's steps and throws DeadlineReached at the first
/// clock reading past the deadline (none without one).
class DeadlineCheck {
public:
  explicit DeadlineCheck(std::optional<InterpretDeadline> deadline) : deadline_(deadline) {}

  void tick() {
    if (!deadline_ || ++ticks_ % kStepsPerClockReading != 0) return;
    if (std::chrono::steady_clock::now() >= *deadline_) throw DeadlineReached("the interpreter reached its deadline");
  }

private:
  /// A step is a node or a call, well under a microsecond: the clock is read
  /// at least every millisecond or so, at a negligible cost.
  static constexpr uint32_t kStepsPerClockReading = 1024;
  std::optional<InterpretDeadline> deadline_;
  uint32_t ticks_ = 0;
};

/// interpret() (core/interp/interpreter.h) that throws DeadlineReached once
/// past `deadline`. (Declared here rather than as a defaulted parameter there,
/// so that the many users of the interpreter do not depend on deadlines.)
Value interpret(const Program &typedProgram, const std::map<std::string, int64_t> &sizes,
                const std::vector<Value> &inputs, std::optional<InterpretDeadline> deadline);

} // namespace liftcc
