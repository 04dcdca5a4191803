#pragma once
// The base of every error liftcc reports about its input (a program, a JSON
// document, a user function, a rewrite, a command line) and of the one kind
// that is never the input's fault: a violated internal invariant.
//
// what() is the one-line message the CLI prints after "liftc: error: "; each
// derived type keeps its own established format (e.g. "<JSON pointer>:
// <message>"). pointer() is the JSON pointer of the offending node where the
// error has one.

#include <optional>
#include <stdexcept>
#include <string>

namespace liftcc {

class Error : public std::runtime_error {
public:
  /// An error without a location.
  explicit Error(const std::string &message) : std::runtime_error(message) {}
  /// `text` is the complete what() (the derived type formats the pointer into it).
  Error(const std::string &text, std::optional<std::string> pointer)
      : std::runtime_error(text), pointer_(std::move(pointer)) {}

  const std::optional<std::string> &pointer() const { return pointer_; }

private:
  std::optional<std::string> pointer_;
};

/// A bug in liftcc: an invariant that its own passes should have established
/// does not hold (an unbound parameter in codegen, an operand accessor used on
/// the wrong primitive, an unknown AST node). Explorations record it as a
/// `bug` outcome instead of blaming the variant, and the test suite fails on it.
class InternalError : public Error {
public:
  explicit InternalError(const std::string &message) : Error("internal error: " + message) {}
  InternalError(const std::string &pointer, const std::string &message)
      : Error(pointer + ": internal error: " + message, pointer) {}
};

} // namespace liftcc
