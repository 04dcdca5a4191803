#pragma once
// The project's libraries as the build declares them, for the suites that
// check the sources themselves (layering_test, code_shape_test): the
// libraries, the folders they are built from and their dependencies are read
// from the liftcc_add_library calls of the CMakeLists.txt files
// (cmake/LiftccLibrary.cmake), so that the checks follow the build instead of
// a second list.

#include "tests/test_support.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace liftcc::test {

struct Library {
  std::string name;
  std::string directory;                ///< of its CMakeLists.txt, relative to the source root ("" for the root)
  std::vector<std::string> excluded;    ///< subfolders of `directory` built elsewhere
  std::vector<std::string> includeDirs; ///< other folders built into it
  std::vector<std::string> deps;        ///< liftcc_* dependencies only
};

/// Build trees, hidden folders (git's, the GPU bundle of third-party
/// headers tools/gpu-bundle.sh packs) and results directories: never sources.
inline bool isBuildOutput(const std::filesystem::path &relative) {
  std::string first = relative.begin()->string();
  return first.rfind("build", 0) == 0 || first.rfind(".", 0) == 0 || first == "results" || first == "gpu-check" ||
         first == "gpu-out";
}

/// Every liftcc_add_library(NAME DEPS ... EXCLUDE ... INCLUDE_DIRS ...) call.
inline std::vector<Library> readLibraries() {
  std::vector<Library> libraries;
  const std::string call = "liftcc_add_library(";
  for (const std::filesystem::directory_entry &entry : std::filesystem::recursive_directory_iterator(sourceDir())) {
    std::filesystem::path relative = std::filesystem::relative(entry.path(), sourceDir());
    if (isBuildOutput(relative) || entry.path().filename() != "CMakeLists.txt") continue;
    std::string text = readFile(entry.path());
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

inline bool isUnder(const std::string &path, const std::string &folder) {
  return folder.empty() || path.rfind(folder + "/", 0) == 0;
}

/// The library a source path (relative, generic) is built into, or "" for
/// none (tools, tests, the root's liftcc/version.h, ...).
inline std::string libraryOwning(const std::string &path, const std::vector<Library> &libraries) {
  for (const Library &l : libraries)
    for (const std::string &dir : l.includeDirs)
      if (isUnder(path, dir)) return l.name;
  std::string owner;
  size_t depth = 0;
  for (const Library &l : libraries) {
    if (!isUnder(path, l.directory)) continue;
    bool excluded = std::any_of(l.excluded.begin(), l.excluded.end(),
                                [&](const std::string &e) { return isUnder(path, l.directory + "/" + e); });
    if (!excluded && (owner.empty() || l.directory.size() > depth)) {
      owner = l.name;
      depth = l.directory.size();
    }
  }
  return owner;
}

/// Every C++ source and header of the tree (relative, generic paths), sorted.
inline std::vector<std::string> cppSourceFiles() {
  std::vector<std::string> files;
  for (const std::filesystem::directory_entry &entry : std::filesystem::recursive_directory_iterator(sourceDir())) {
    std::filesystem::path relative = std::filesystem::relative(entry.path(), sourceDir());
    std::string extension = entry.path().extension().string();
    if (isBuildOutput(relative) || (extension != ".h" && extension != ".cpp")) continue;
    files.push_back(relative.generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace liftcc::test
