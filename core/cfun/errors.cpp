#include "core/cfun/errors.h"

namespace liftcc::cfun {
namespace {

std::string located(SourcePos pos, const std::string &reason) {
  if (pos.line <= 0) return reason;
  return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column) + ": " + reason;
}

} // namespace

CFunError::CFunError(SourcePos pos, const std::string &reason)
    : Error(located(pos, reason)), line(pos.line), column(pos.column), reason(reason) {}

CFunEvalError::CFunEvalError(const std::string &function, SourcePos pos, const std::string &reason)
    : Error("user function '" + function + "', " + located(pos, reason)), line(pos.line), column(pos.column) {}

} // namespace liftcc::cfun
