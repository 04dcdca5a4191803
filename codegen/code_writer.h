#pragma once
// Accumulates emitted C source with block indentation.

#include <string>
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

  std::string text() const {
    std::string out;
    for (const std::string &l : lines_) out += l + "\n";
    return out;
  }

private:
  std::vector<std::string> lines_;
  int depth_ = 0;
};

} // namespace liftcc::codegen
