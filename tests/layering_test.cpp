// The libraries' layering, checked on the sources: no file of a library
// includes a header of a library it does not depend on (directly or
// through its dependencies). The libraries, the folders they are built from
// and their dependencies are read from the liftcc_add_library calls of the
// CMakeLists.txt files (cmake/LiftccLibrary.cmake), so this test follows the
// build instead of a second list. Executables (tools/), the benchmark's
// replay tool and the tests may include anything.

#include "tests/library_sources.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace liftcc::test;

namespace {

const fs::path kSource = LIFTCC_SOURCE_DIR;

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
  for (const std::string &path : cppSourceFiles()) {
    std::string owner = libraryOwning(path, libraries);
    if (owner.empty()) continue;
    ++files;
    std::ifstream in(kSource / path);
    int lineNumber = 0;
    for (std::string line; std::getline(in, line);) {
      ++lineNumber;
      std::optional<std::string> quoted = quotedInclude(line);
      if (!quoted) continue;
      std::string header = *quoted;
      if (!fs::exists(kSource / header)) continue; // relative or generated
      ++includes;
      std::string headerOwner = libraryOwning(header, libraries);
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
      if (header && fs::exists(kSource / *header) && !isUnder(*header, "core"))
        violations.push_back(path + ":" + std::to_string(lineNumber) + " includes " + *header);
    }
  }
  std::string list;
  for (const std::string &v : violations) list += "\n  " + v;
  CHECK_MESSAGE(violations.empty(), violations.size(), " include(s) of a layer above core/:", list);
}

} // TEST_SUITE("layering")
