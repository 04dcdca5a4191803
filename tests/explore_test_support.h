#pragma once
// Helpers shared by the exploration and tuning suites.

#include "explore/explorer.h"
#include "search/result_store.h"
#include "tests/test_support.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace liftcc::test {

/// A fresh directory under the system temp directory, removed with
/// everything in it when the object goes out of scope.
class TempDir {
public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "liftcc_explore_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  ~TempDir() {
    std::error_code ignored; // never throw from a destructor; a leftover temp dir is harmless
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

/// An exploration of a handful of variants (one tile size, two work-group
/// extents), measured briefly, stored under `storeDir`.
inline explore::ExploreOptions tinyExploreOptions(const std::string &programName,
                                                  const std::filesystem::path &storeDir) {
  explore::ExploreOptions options;
  options.programName = programName;
  options.storeDir = storeDir.string();
  options.space.tileSizes = {4};
  options.space.groupExtents = {8, 16};
  options.space.includeMapping = false; // the mapping family has its own tests (strategy_test.cpp)
  options.warmups = 0;
  options.timedRuns = 2;
  return options;
}

/// A `bug` outcome is liftcc failing, never the variant: any fails the suite.
inline void checkNoBugs(const std::vector<search::Record> &records) {
  for (const search::Record &r : records) {
    CAPTURE(r.key);
    CHECK_MESSAGE(r.outcome != search::Outcome::Bug, r.error);
  }
}
inline void checkNoBugs(const explore::ExploreResult &result) {
  std::vector<search::Record> records;
  for (const explore::Evaluation &e : result.evaluations) records.push_back(e.record);
  checkNoBugs(records);
}

/// How many of an exploration's evaluations the result store answered.
inline size_t fromStoreCount(const explore::ExploreResult &result) {
  size_t n = 0;
  for (const auto &e : result.evaluations) n += e.fromStore;
  return n;
}

} // namespace liftcc::test
