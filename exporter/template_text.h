#pragma once
// Fills @NAME@ placeholders in the C templates of the host-code emitters.

#include <map>
#include <stdexcept>
#include <string>

namespace liftcc::exporter {

/// Replaces every @KEY@ of `text` by its value. A placeholder without a
/// value is a bug in the emitter, reported as std::logic_error.
inline std::string substitute(const std::string &text, const std::map<std::string, std::string> &values) {
  std::string out;
  size_t at = 0;
  while (true) {
    size_t open = text.find('@', at);
    if (open == std::string::npos) break;
    size_t close = text.find('@', open + 1);
    if (close == std::string::npos) throw std::logic_error("unterminated placeholder in a host-code template");
    auto it = values.find(text.substr(open + 1, close - open - 1));
    if (it == values.end()) throw std::logic_error("no value for placeholder " + text.substr(open, close - open + 1));
    out += text.substr(at, open - at) + it->second;
    at = close + 1;
  }
  return out + text.substr(at);
}

} // namespace liftcc::exporter
