#include "codegen/index_holes.h"

#include "core/error.h"

#include <string_view>
#include <vector>

namespace liftcc::codegen::kir {

namespace {

constexpr char kOpen = '\x01';
constexpr char kField = '\x1f';
constexpr char kClose = '\x02';
constexpr char kIndexKind = 'I';
constexpr char kChoiceKind = 'W';

/// A hole's kind and its fields (split at the hole's own separators, not at
/// those of the holes nested in it).
struct ParsedHole {
  char kind = 0;
  std::vector<std::string> fields;
};

ParsedHole parseHole(std::string_view body) {
  if (body.empty() || (body[0] != kIndexKind && body[0] != kChoiceKind))
    throw InternalError("/kernel", "a malformed hole in the kernel text");
  ParsedHole hole{body[0], {}};
  int depth = 0;
  size_t start = 1;
  for (size_t k = 1; k < body.size(); ++k) {
    char c = body[k];
    if (c == kOpen) ++depth;
    if (c == kClose) --depth;
    if (c == kField && depth == 0) {
      hole.fields.emplace_back(body.substr(start, k - start));
      start = k + 1;
    }
  }
  hole.fields.emplace_back(body.substr(start));
  size_t expected = hole.kind == kIndexKind ? 6 : 3;
  if (hole.fields.size() != expected) throw InternalError("/kernel", "a malformed hole in the kernel text");
  return hole;
}

/// The hole whose body is `body`, as text again.
std::string delimited(std::string_view body) { return std::string(1, kOpen) + std::string(body) + kClose; }

/// Whether a hole's body holds no hole of its own.
bool flat(std::string_view body) { return body.find(kOpen) == std::string_view::npos; }

IndexHole indexHole(const ParsedHole &h) {
  return IndexHole{h.fields[0], h.fields[1], h.fields[2], std::stoll(h.fields[3]), h.fields[4], h.fields[5] == "1"};
}

WidthChoice widthChoice(const ParsedHole &h) { return WidthChoice{h.fields[0], h.fields[1], h.fields[2] == "1"}; }

/// `text` with each outermost hole replaced by `spell(body)`, the text
/// between the hole's delimiters (parseHole reads it).
std::string replaceAny(const std::string &text, const std::function<std::string(std::string_view)> &spell) {
  if (text.find(kOpen) == std::string::npos) return text;
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t open = text.find(kOpen, at);
    if (open == std::string::npos) break;
    size_t close = open + 1;
    for (int depth = 1; close < text.size(); ++close) {
      if (text[close] == kOpen) ++depth;
      if (text[close] == kClose && --depth == 0) break;
    }
    if (close >= text.size()) throw InternalError("/kernel", "an unterminated hole in the kernel text");
    out.append(text, at, open - at);
    out += spell(std::string_view(text).substr(open + 1, close - open - 1));
    at = close + 1;
  }
  out.append(text, at, std::string::npos);
  return out;
}

std::string wrap(char kind, const std::vector<std::string> &fields) {
  std::string text(1, kOpen);
  text += kind;
  for (size_t k = 0; k < fields.size(); ++k) text += (k ? std::string(1, kField) : "") + fields[k];
  return text + kClose;
}

} // namespace

std::string holeText(const IndexHole &hole) {
  return wrap(kIndexKind, {hole.name, hole.type, hole.base, std::to_string(hole.offset), hole.full,
                           hole.baseFitsNarrow ? "1" : "0"});
}

std::string choiceText(const WidthChoice &choice) {
  return wrap(kChoiceKind, {choice.narrow, choice.wide, choice.fitsNarrow ? "1" : "0"});
}

std::string replaceHoles(const std::string &text, const std::function<std::string(const IndexHole &)> &spell) {
  return replaceAny(text, [&](std::string_view body) {
    return body[0] == kIndexKind ? spell(indexHole(parseHole(body))) : delimited(body);
  });
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

bool fitsNarrow(const std::string &text) {
  bool fits = true;
  replaceAny(text, [&](std::string_view body) {
    if (!fits || (body[0] == kIndexKind && flat(body))) return std::string(); // only choices carry findings
    ParsedHole h = parseHole(body);
    if (h.kind == kChoiceKind) {
      WidthChoice choice = widthChoice(h);
      fits = choice.fitsNarrow && fitsNarrow(choice.narrow);
    } else {
      for (const std::string &field : h.fields) fits = fits && fitsNarrow(field);
    }
    return std::string();
  });
  return fits;
}

std::string spellWidth(const std::string &text, bool wide) {
  return replaceAny(text, [&](std::string_view body) {
    // An index hole without choices whose base may be named stays as it is.
    if (body[0] == kIndexKind && flat(body) && (wide || body.back() == '1')) return delimited(body);
    ParsedHole h = parseHole(body);
    if (h.kind == kChoiceKind) {
      WidthChoice choice = widthChoice(h);
      return spellWidth(wide ? choice.wide : choice.narrow, wide);
    }
    IndexHole hole = indexHole(h);
    if (!wide && !hole.baseFitsNarrow) return spellWidth(hole.full, wide);
    hole.type = spellWidth(hole.type, wide);
    hole.base = spellWidth(hole.base, wide);
    hole.full = spellWidth(hole.full, wide);
    hole.baseFitsNarrow = true;
    return holeText(hole);
  });
}

bool hasWidthChoice(const std::string &text) {
  bool found = false;
  replaceAny(text, [&](std::string_view body) {
    if (found || body[0] == kChoiceKind || flat(body)) {
      found = found || body[0] == kChoiceKind;
      return std::string();
    }
    for (const std::string &field : parseHole(body).fields) found = found || hasWidthChoice(field);
    return std::string();
  });
  return found;
}

} // namespace liftcc::codegen::kir
