#pragma once
// The JSON program format (see docs/program-format.md and
// docs/program.schema.json). Reading reports the JSON pointer of the bad node;
// writing is deterministic, so API -> JSON -> IR -> JSON is the identity on
// the JSON text.

#include "core/error.h"
#include "core/ir/expr.h"

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>
#include <string>

namespace liftcc {

inline constexpr int kProgramFormatVersion = 1;

class JsonError : public Error {
public:
  /// Control characters in the message and the pointer (a quoted user
  /// string, a key with a newline) are escaped in what(), so the error always
  /// fits on one line; pointer() stays the exact JSON pointer.
  JsonError(std::string pointer, const std::string &message)
      : Error((pointer.empty() ? std::string("(document)") : oneLine(cutQuoted(pointer, '/'))) + ": " +
                  oneLine(cutQuoted(message, '"')),
              pointer),
        pointer_(std::move(pointer)) {}
  const std::string &pointer() const { return pointer_; }

private:
  static std::string oneLine(const std::string &text) {
    std::string out;
    for (char c : text) {
      if (c == '\n')
        out += "\\n";
      else if (static_cast<unsigned char>(c) < 0x20)
        out += ' ';
      else
        out += c;
    }
    return out;
  }
  /// Cuts every run between two `quote` characters (a quoted name, a pointer
  /// segment) to 60 characters: a 1 MB unknown name is not echoed in full.
  static std::string cutQuoted(const std::string &text, char quote) {
    constexpr size_t kMax = 60;
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
      size_t open = text.find(quote, i);
      if (open == std::string::npos) break;
      size_t close = text.find(quote, open + 1);
      size_t end = close == std::string::npos ? text.size() : close;
      out += text.substr(i, open + 1 - i);
      std::string inner = text.substr(open + 1, end - open - 1);
      out +=
          inner.size() <= kMax ? inner : inner.substr(0, kMax) + "...(" + std::to_string(inner.size()) + " characters)";
      i = end;
      if (quote == '/') continue; // segments share their separators
      if (close != std::string::npos) {
        out += quote;
        i = close + 1;
      }
    }
    return out + text.substr(std::min(i, text.size()));
  }
  std::string pointer_;
};

/// Parses program text; throws JsonError (malformed JSON, unknown primitive,
/// missing field, wrong arity, bad size expression, bad user function, ...).
Program readProgram(const std::string &text);
Program programFromJson(const nlohmann::json &document);

struct JsonWriteOptions {
  /// Write mapN/padN/slideN/zipN as their 1D compositions instead of the
  /// derived forms (the reader accepts both and builds the same IR).
  bool expanded = false;
};

nlohmann::json programToJson(const Program &program, JsonWriteOptions options = {});
/// JSON text with two-space indentation, an object or array on one line when
/// it fits in 100 columns (else short members packed onto shared lines), and
/// a trailing newline.
std::string writeProgram(const Program &program, JsonWriteOptions options = {});

/// Lift type notation: float, (float, int), [[float]M]N, [float](N + 2).
Type parseType(const std::string &text, const std::map<std::string, arith::Range> &sizeRanges);

} // namespace liftcc
