#pragma once
// Reading generated kernel text in tests: counting a pattern, cutting out
// the streaming loop, and sizes for an example's size variables.

#include "examples/example.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace liftcc::test {

/// The interior branch of a boundary-specialised kernel's body (from the
/// kernel's signature to its `} else {`).
inline std::string interiorOf(const std::string &source) {
  const size_t begin = source.find("liftcc_kernel("), end = source.find("} else {", begin);
  REQUIRE(end != std::string::npos);
  return source.substr(begin, end - begin);
}

/// How often `what` occurs in `text` (overlapping occurrences too).
inline size_t occurrences(const std::string &text, const std::string &what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

/// The kernel's streaming loop, from "for (int w_" (or "for (long w_") to its
/// closing brace; "" when there is none.
inline std::string streamingLoop(const std::string &source) {
  size_t start = source.find("for (int w_");
  if (start == std::string::npos) start = source.find("for (long w_");
  if (start == std::string::npos) return "";
  size_t open = source.find('{', start);
  int depth = 0;
  for (size_t i = open; i < source.size(); ++i) {
    if (source[i] == '{') ++depth;
    if (source[i] == '}' && --depth == 0) return source.substr(start, i - start + 1);
  }
  return "";
}

/// The example's size variables bound to `extents`, repeated as needed.
inline std::map<std::string, int64_t> sizesFor(const examples::Example &ex, const std::vector<int64_t> &extents) {
  std::map<std::string, int64_t> sizes;
  for (size_t i = 0; i < ex.sizeNames.size(); ++i) sizes[ex.sizeNames[i]] = extents[i % extents.size()];
  return sizes;
}

} // namespace liftcc::test
