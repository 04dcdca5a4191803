#pragma once
// Small helpers shared by the test suites.

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace liftcc::test {

/// what() of the exception `f` throws, or "(no error)".
inline std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const std::exception &e) {
    return e.what();
  }
  return "(no error)";
}

inline std::filesystem::path sourceDir() { return LIFTCC_SOURCE_DIR; }

inline std::string readFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The committed example programs (examples/json/*.json), sorted by name.
inline std::vector<std::filesystem::path> exampleJsonFiles() {
  std::vector<std::filesystem::path> files;
  std::filesystem::path dir = sourceDir() / "examples" / "json";
  if (std::filesystem::exists(dir))
    for (const auto &entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace liftcc::test
