#include "exporter/template_text.h"

#include <sstream>
#include <stdexcept>

namespace liftcc::exporter {

TemplateSections templateSections(std::string_view text) {
  TemplateSections sections;
  std::string *current = nullptr;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    end = end == std::string_view::npos ? text.size() : end + 1;
    std::string_view line = text.substr(at, end - at);
    if (line.substr(0, 3) == "@@ ") {
      std::istringstream words{std::string(line.substr(3))};
      std::string name;
      words >> name;
      if (sections.count(name)) throw std::logic_error("template section '" + name + "' is defined twice");
      current = &sections[name];
    } else if (current) {
      *current += line;
    }
    at = end;
  }
  return sections;
}

TemplateSections templateFile(std::string_view file) {
  for (const auto &[name, text] : embeddedTemplateFiles())
    if (name == file) return templateSections(text);
  throw std::logic_error("no embedded template file " + std::string(file));
}

const std::string &section(const TemplateSections &sections, const std::string &name) {
  auto it = sections.find(name);
  if (it == sections.end()) throw std::logic_error("no template section '" + name + "'");
  return it->second;
}

std::map<std::string, std::string> templateWords(const std::string &section) {
  std::map<std::string, std::string> words;
  std::istringstream lines(section);
  for (std::string line; std::getline(lines, line);) {
    size_t space = line.find(' ');
    if (!line.empty()) words[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  return words;
}

std::string substitute(const std::string &text, const std::map<std::string, std::string> &values) {
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
