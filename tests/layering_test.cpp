// The libraries' layering, checked on the sources: no file of a library
// includes a header of a library it does not depend on (directly or
// through its dependencies). The libraries, the folders they are built from
// and their dependencies are read from the liftcc_add_library calls of the
// CMakeLists.txt files (cmake/LiftccLibrary.cmake), so this test follows the
// build instead of a second list. Executables (tools/), the benchmark's
// replay tool and the tests may include anything.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kSource = LIFTCC_SOURCE_DIR;

struct Library {
  std::string name;
  std::string directory;                ///< of its CMakeLists.txt, relative to the source root ("" for the root)
  std::vector<std::string> excluded;    ///< subfolders of `directory` built elsewhere
  std::vector<std::string> includeDirs; ///< other folders built into it
  std::vector<std::string> deps;        ///< liftcc_* dependencies only
};

std::string readText(const fs::path &path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool isBuildOutput(const fs::path &relative) {
  std::string first = relative.begin()->string();
  return first.rfind("build", 0) == 0 || first == ".git" || first == "results";
}

/// Every liftcc_add_library(NAME DEPS ... EXCLUDE ... INCLUDE_DIRS ...) call.
std::vector<Library> readLibraries() {
  std::vector<Library> libraries;
  const std::string call = "liftcc_add_library(";
  for (const fs::directory_entry &entry : fs::recursive_directory_iterator(kSource)) {
    fs::path relative = fs::relative(entry.path(), kSource);
    if (isBuildOutput(relative) || entry.path().filename() != "CMakeLists.txt") continue;
    std::string text = readText(entry.path());
    for (size_t at = text.find(call); at != std::string::npos; at = text.find(call, at + 1)) {
      // Calls in comments (the usage line of cmake/LiftccLibrary.cmake) are not in CMakeLists.txt files.
      size_t begin = at + call.size(), end = text.find(')', begin);
      if (end == std::string::npos) break;
      std::istringstream words(text.substr(begin, end - begin));
      Library library;
      library.directory = relative.parent_path().generic_string();
      words >> library.name;
      std::vector<std::string> *list = nullptr;
      for (std::string word; words >> word;) {
        if (word == "DEPS")
          list = &library.deps;
        else if (word == "EXCLUDE")
          list = &library.excluded;
        else if (word == "INCLUDE_DIRS")
          list = &library.includeDirs;
        else if (list && (list != &library.deps || word.rfind("liftcc_", 0) == 0))
          list->push_back(word);
      }
      libraries.push_back(library);
    }
  }
  return libraries;
}

/// "core/ir/expr.h" of `#include "core/ir/expr.h"` (spaces allowed around
/// the '#'), nullopt for any other line.
std::optional<std::string> quotedInclude(const std::string &line) {
  size_t at = line.find_first_not_of(" \t");
  if (at == std::string::npos || line[at] != '#') return std::nullopt;
  at = line.find_first_not_of(" \t", at + 1);
  if (at == std::string::npos || line.compare(at, 7, "include") != 0) return std::nullopt;
  at = line.find_first_not_of(" \t", at + 7);
  if (at == std::string::npos || line[at] != '"') return std::nullopt;
  size_t end = line.find('"', at + 1);
  if (end == std::string::npos) return std::nullopt;
  return line.substr(at + 1, end - at - 1);
}

bool under(const std::string &path, const std::string &folder) {
  return folder.empty() || path.rfind(folder + "/", 0) == 0;
}

/// The library a source path (relative, generic) is built into, or "" for
/// none (tools, tests, the root's liftcc/version.h, ...).
std::string ownerOf(const std::string &path, const std::vector<Library> &libraries) {
  for (const Library &l : libraries)
    for (const std::string &dir : l.includeDirs)
      if (under(path, dir)) return l.name;
  std::string owner;
  size_t depth = 0;
  for (const Library &l : libraries) {
    if (!under(path, l.directory)) continue;
    bool excluded = std::any_of(l.excluded.begin(), l.excluded.end(),
                                [&](const std::string &e) { return under(path, l.directory + "/" + e); });
    if (!excluded && (owner.empty() || l.directory.size() > depth)) {
      owner = l.name;
      depth = l.directory.size();
    }
  }
  return owner;
}

} // namespace

TEST_SUITE("layering") {

TEST_CASE("layering: no library includes a header of a library it does not depend on") {
  std::vector<Library> libraries = readLibraries();
  REQUIRE(libraries.size() >= 8); // core, primitives, rewrite, codegen, tuner, explore, bench, exporter, examples
  std::map<std::string, std::set<std::string>> reachable;
  for (const Library &l : libraries) {
    std::vector<std::string> pending{l.name};
    std::set<std::string> &seen = reachable[l.name];
    while (!pending.empty()) {
      std::string next = pending.back();
      pending.pop_back();
      if (!seen.insert(next).second) continue;
      for (const Library &d : libraries)
        if (d.name == next) pending.insert(pending.end(), d.deps.begin(), d.deps.end());
    }
  }
  std::vector<std::string> violations;
  size_t files = 0, includes = 0;
  for (const fs::directory_entry &entry : fs::recursive_directory_iterator(kSource)) {
    fs::path relative = fs::relative(entry.path(), kSource);
    std::string extension = entry.path().extension().string();
    if (isBuildOutput(relative) || (extension != ".h" && extension != ".cpp")) continue;
    std::string path = relative.generic_string();
    std::string owner = ownerOf(path, libraries);
    if (owner.empty()) continue;
    ++files;
    std::ifstream in(entry.path());
    int lineNumber = 0;
    for (std::string line; std::getline(in, line);) {
      ++lineNumber;
      std::optional<std::string> quoted = quotedInclude(line);
      if (!quoted) continue;
      std::string header = *quoted;
      if (!fs::exists(kSource / header)) continue; // relative or generated
      ++includes;
      std::string headerOwner = ownerOf(header, libraries);
      if (headerOwner.empty() || reachable[owner].count(headerOwner)) continue;
      violations.push_back(path + ":" + std::to_string(lineNumber) + " (" + owner + ") includes " + header + " (" +
                           headerOwner + "), which " + owner + " does not depend on");
    }
  }
  MESSAGE(files, " library files, ", includes, " includes of project headers checked");
  CHECK(files > 100);
  std::string list;
  for (const std::string &v : violations) list += "\n  " + v;
  CHECK_MESSAGE(violations.empty(), violations.size(), " include(s) against the layering:", list);
}

TEST_CASE("layering: the folders show it, core/ includes nothing of the layers above") {
  // core/typecheck and core/interp are built into liftcc_primitives (they
  // dispatch to the primitives' rules) but declare the interfaces the rules
  // implement (type_context.h, eval_context.h) instead of including them, so
  // that the folder core/ is a layer of its own: no file below it includes
  // a project header outside it.
  std::vector<std::string> violations;
  for (const fs::directory_entry &entry : fs::recursive_directory_iterator(kSource / "core")) {
    std::string extension = entry.path().extension().string();
    if (extension != ".h" && extension != ".cpp") continue;
    std::string path = fs::relative(entry.path(), kSource).generic_string();
    std::ifstream in(entry.path());
    int lineNumber = 0;
    for (std::string line; std::getline(in, line);) {
      ++lineNumber;
      std::optional<std::string> header = quotedInclude(line);
      if (header && fs::exists(kSource / *header) && !under(*header, "core"))
        violations.push_back(path + ":" + std::to_string(lineNumber) + " includes " + *header);
    }
  }
  std::string list;
  for (const std::string &v : violations) list += "\n  " + v;
  CHECK_MESSAGE(violations.empty(), violations.size(), " include(s) of a layer above core/:", list);
}

} // TEST_SUITE("layering")
