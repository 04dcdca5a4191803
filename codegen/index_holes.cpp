#include "codegen/index_holes.h"

#include "core/error.h"

#include <vector>

namespace liftcc::codegen::kir {

namespace {

constexpr char kOpen = '\x01';
constexpr char kField = '\x1f';
constexpr char kClose = '\x02';

IndexHole parseHole(const std::string &body) {
  std::vector<std::string> fields{""};
  for (char c : body) {
    if (c == kField)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  if (fields.size() != 5) throw InternalError("/kernel", "a malformed index hole in the kernel text");
  return IndexHole{fields[0], fields[1], fields[2], std::stoll(fields[3]), fields[4]};
}

} // namespace

std::string holeText(const IndexHole &hole) {
  return std::string(1, kOpen) + hole.name + kField + hole.type + kField + hole.base + kField +
         std::to_string(hole.offset) + kField + hole.full + kClose;
}

std::string replaceHoles(const std::string &text, const std::function<std::string(const IndexHole &)> &spell) {
  if (text.find(kOpen) == std::string::npos) return text;
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t open = text.find(kOpen, at);
    if (open == std::string::npos) break;
    size_t close = text.find(kClose, open);
    if (close == std::string::npos) throw InternalError("/kernel", "an unterminated index hole in the kernel text");
    out.append(text, at, open - at);
    out += spell(parseHole(text.substr(open + 1, close - open - 1)));
    at = close + 1;
  }
  out.append(text, at, std::string::npos);
  return out;
}

void forEachHole(const std::string &text, const std::function<void(const IndexHole &)> &visit) {
  replaceHoles(text, [&](const IndexHole &hole) {
    visit(hole);
    return std::string();
  });
}

std::string namedIndex(const IndexHole &hole) {
  // (The Generator makes holes of offsets within int range only.)
  if (hole.offset == 0) return hole.name;
  if (hole.offset < 0) return hole.name + " - " + std::to_string(-hole.offset);
  return hole.name + " + " + std::to_string(hole.offset);
}

std::string spellHoles(const std::string &text) {
  return replaceHoles(text, [](const IndexHole &hole) { return hole.full; });
}

} // namespace liftcc::codegen::kir
