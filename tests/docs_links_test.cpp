// The documentation's links: README.md, docs/*.md and bench/results/*.md.
// Every relative link names a file that exists, every `#anchor` (alone or
// after a markdown file) names a heading of that file by its GitHub slug, and
// the README stays a front page (at most 300 lines).

#include "tests/test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace liftcc {
namespace {

namespace fs = std::filesystem;

/// The lines of a markdown text with fenced code blocks emptied and, when
/// `withoutCode`, inline code spans removed (their brackets are code, not
/// links; a heading's code is part of its anchor).
std::vector<std::string> textLines(const std::string &text, bool withoutCode) {
  std::vector<std::string> lines;
  bool fenced = false;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, 3, "```") == 0) {
      fenced = !fenced;
      lines.emplace_back();
      continue;
    }
    if (fenced || !withoutCode) {
      lines.push_back(fenced ? std::string() : line);
      continue;
    }
    std::string prose;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] != '`') {
        prose += line[i];
        continue;
      }
      size_t after = line.find_first_not_of('`', i);
      size_t ticks = (after == std::string::npos ? line.size() : after) - i;
      size_t close = line.find(std::string(ticks, '`'), i + ticks);
      if (close == std::string::npos) {
        prose += line.substr(i);
        break;
      }
      i = close + ticks - 1;
    }
    lines.push_back(prose);
  }
  return lines;
}

/// GitHub's anchor of a heading: lower case, spaces to '-', punctuation other
/// than '-' and '_' dropped (bytes of non-ASCII characters are kept).
std::string slug(const std::string &heading) {
  std::string out;
  for (char c : heading) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80 || std::isalnum(u) || c == '-' || c == '_')
      out += static_cast<char>(std::tolower(u));
    else if (c == ' ')
      out += '-';
  }
  return out;
}

/// The anchors of a markdown file's headings (outside code blocks), with
/// GitHub's -1, -2, ... suffixes for repeated headings.
std::set<std::string> anchors(const fs::path &file) {
  std::set<std::string> result;
  std::map<std::string, int> seen;
  for (const std::string &line : textLines(test::readFile(file), false)) {
    size_t level = line.find_first_not_of('#');
    if (level == 0 || level == std::string::npos || level > 6 || line[level] != ' ') continue;
    std::string text = line.substr(level + 1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '#')) text.pop_back();
    std::string anchor = slug(text);
    int count = seen[anchor]++;
    result.insert(count == 0 ? anchor : anchor + "-" + std::to_string(count));
  }
  return result;
}

struct Link {
  size_t line;
  std::string target;
};

/// Every `[text](target)` and `![alt](target)` of a markdown file's prose.
std::vector<Link> links(const fs::path &file) {
  std::vector<Link> result;
  std::vector<std::string> lines = textLines(test::readFile(file), true);
  for (size_t n = 0; n < lines.size(); ++n) {
    const std::string &line = lines[n];
    for (size_t at = line.find("]("); at != std::string::npos; at = line.find("](", at + 2)) {
      size_t end = line.find(')', at + 2);
      if (end == std::string::npos) break;
      std::string target = line.substr(at + 2, end - at - 2);
      if (target.empty() || target.find(' ') != std::string::npos) continue;
      result.push_back({n + 1, target});
    }
  }
  return result;
}

bool startsWith(const std::string &text, const std::string &prefix) { return text.rfind(prefix, 0) == 0; }

std::vector<fs::path> documentationFiles() {
  std::vector<fs::path> files{test::sourceDir() / "README.md"};
  for (const char *dir : {"docs", "bench/results"}) {
    std::vector<fs::path> found;
    for (const auto &entry : fs::directory_iterator(test::sourceDir() / dir))
      if (entry.path().extension() == ".md") found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

TEST_CASE("docs links: the slug of a heading is GitHub's") {
  CHECK(slug("Limits and guarantees") == "limits-and-guarantees");
  CHECK(slug("The GPU check (`tools/gpu-check.sh`)") == "the-gpu-check-toolsgpu-checksh");
  CHECK(slug("Thread coarsening (register blocking)") == "thread-coarsening-register-blocking");
  CHECK(slug("On a cluster (Slurm)") == "on-a-cluster-slurm");
  CHECK(slug("Versions_and-formats") == "versions_and-formats");
  CHECK(slug("Why those two lost, and `--noinline-border`") == "why-those-two-lost-and---noinline-border");
}

TEST_CASE("docs links: every relative link of README.md, docs/ and bench/results/ names a file and heading") {
  std::vector<fs::path> files = documentationFiles();
  REQUIRE(files.size() > 2);
  size_t checked = 0;
  for (const fs::path &file : files) {
    for (const Link &link : links(file)) {
      if (startsWith(link.target, "http://") || startsWith(link.target, "https://") ||
          startsWith(link.target, "mailto:"))
        continue;
      ++checked;
      std::string where =
          fs::relative(file, test::sourceDir()).string() + ":" + std::to_string(link.line) + ": " + link.target;
      INFO(where);
      size_t hash = link.target.find('#');
      std::string path = link.target.substr(0, hash);
      fs::path target = path.empty() ? file : file.parent_path() / path;
      CHECK(fs::exists(target));
      if (hash == std::string::npos || !fs::exists(target) || target.extension() != ".md") continue;
      std::string anchor = link.target.substr(hash + 1);
      CHECK(anchors(target).count(anchor) == 1);
    }
  }
  CHECK(checked > 20);
}

TEST_CASE("docs links: README.md is a front page of at most 300 lines") {
  std::string readme = test::readFile(test::sourceDir() / "README.md");
  size_t lines = static_cast<size_t>(std::count(readme.begin(), readme.end(), '\n'));
  CHECK(lines <= 300);
  CHECK(lines > 50);
}

} // namespace
} // namespace liftcc
