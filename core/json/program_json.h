#pragma once
// The JSON program format (see docs/program-format.md and
// docs/program.schema.json). Reading reports the JSON pointer of the bad node;
// writing is deterministic, so API -> JSON -> IR -> JSON is the identity on
// the JSON text.

#include "core/ir/expr.h"

#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>

namespace liftcc {

inline constexpr int kProgramFormatVersion = 1;

class JsonError : public std::runtime_error {
public:
  JsonError(std::string pointer, std::string message)
      : std::runtime_error((pointer.empty() ? std::string("(document)") : pointer) + ": " + message),
        pointer_(std::move(pointer)) {}
  const std::string &pointer() const { return pointer_; }

private:
  std::string pointer_;
};

/// Parses program text; throws JsonError (malformed JSON, unknown primitive,
/// missing field, wrong arity, bad size expression, bad user function, ...).
Program readProgram(const std::string &text);
Program programFromJson(const nlohmann::json &document);

nlohmann::json programToJson(const Program &program);
/// Pretty-printed JSON text (two-space indentation, trailing newline).
std::string writeProgram(const Program &program);

/// Lift type notation: float, (float, int), [[float]M]N, [float](N + 2).
Type parseType(const std::string &text, const std::map<std::string, arith::Range> &sizeRanges);

} // namespace liftcc
