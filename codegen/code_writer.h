#pragma once
// Accumulates emitted C source with block indentation.

#include <string>
#include <string_view>
#include <vector>

namespace liftcc::codegen {

class CodeWriter {
public:
  void line(const std::string &text) { lines_.push_back(std::string(2 * depth_, ' ') + text); }
  void open(const std::string &header) {
    line(header.empty() ? "{" : header + " {");
    ++depth_;
  }
  void close(const std::string &trailer = "") {
    --depth_;
    line("}" + trailer);
  }
  void blank() { lines_.emplace_back(); }
  int depth() const { return depth_; }

  /// Removes the last statement when it is `statement` and nothing executes
  /// after it: only the ends of enclosing blocks follow, and none of them is a
  /// loop (whose next iteration would). Returns whether it was removed.
  bool removeFinalStatement(std::string_view statement) {
    size_t i = lines_.size();
    size_t closers = 0;
    while (i > 0 && trimmed(lines_[i - 1]) == "}") --i, ++closers;
    if (i == 0 || trimmed(lines_[i - 1]) != statement) return false;
    size_t last = --i;
    // The `closers` innermost blocks around the statement, found by matching
    // braces backwards, must not be loops.
    int depth = 0;
    for (size_t j = last; j-- > 0 && closers > 0;) {
      std::string_view l = trimmed(lines_[j]);
      if (!l.empty() && l.back() == '{') {
        if (depth == 0) {
          if (l.starts_with("for") || l.starts_with("while") || l.starts_with("do")) return false;
          --closers;
        } else {
          --depth;
        }
      }
      if (l.starts_with("}")) ++depth;
    }
    lines_.erase(lines_.begin() + static_cast<std::ptrdiff_t>(last));
    return true;
  }

  std::string text() const {
    std::string out;
    for (const std::string &l : lines_) out += l + "\n";
    return out;
  }

private:
  static std::string_view trimmed(std::string_view line) {
    size_t start = line.find_first_not_of(' ');
    return start == std::string_view::npos ? std::string_view() : line.substr(start);
  }

  std::vector<std::string> lines_;
  int depth_ = 0;
};

} // namespace liftcc::codegen
