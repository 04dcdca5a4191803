#pragma once
// Helpers of the results-directory file suites (results_files_test.cpp,
// fuzz_files_test.cpp): real best-kernel entries and stores made through
// the library, and a watchdog so that a reader that blocks (a FIFO read
// for ever) fails the run instead of hanging it.

#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "explore/best_kernels.h"
#include "explore/explorer.h"
#include "explore/record_identity.h"
#include "search/result_store.h"
#include "tests/explore_test_support.h"
#include "tests/liftc_process.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <string>

namespace liftcc::test {

/// The device name the entries are filed under (no device is opened).
inline const std::string kFilesDevice = "Files Test Device";

/// A successful record of `key` taking `ns`.
inline search::Record okRecordOf(const std::string &key, double ns) {
  search::Record r;
  r.key = key;
  r.configuration = {{"recipe", "plain"}};
  r.medianNs = ns;
  r.samplesNs = {uint64_t(ns)};
  r.timestamp = "2026-11-27T00:00:00Z";
  return r;
}

/// Writes a real best-kernel entry of examples/json/jacobi1d_3pt.json at N=n
/// under `resultsDir` (as an exploration would, with a record of `ns`), and
/// returns its directory.
inline std::filesystem::path writeEntry(const std::filesystem::path &resultsDir, int64_t n, double ns,
                                        const std::string &programName = "jacobi1d_3pt") {
  Program program = readProgram(readFile(sourceDir() / "examples" / "json" / "jacobi1d_3pt.json"));
  std::map<std::string, int64_t> sizes{{"N", n}};
  explore::Variant variant = explore::makeVariant(typeCheck(program, sizes), explore::Configuration{});
  search::Record record = okRecordOf(variant.configuration.key(), ns);
  record.configuration = variant.configuration.toJson();
  record.programHash = explore::programHash(program, sizes);
  record.kernelHash = explore::kernelHash(variant.kernel, variant.configuration);
  return explore::writeBestKernel(resultsDir.string(), kFilesDevice, programName, explore::sizesKey(program, sizes),
                                  variant, record, n);
}

/// Writes a store of `count` successful records at `path` (below `root`).
inline void writeStore(const std::filesystem::path &root, const std::filesystem::path &path, int count,
                       const std::string &prefix = "k") {
  search::ResultStore store(path.string(), search::ResultStore::Access::Append, root.string());
  for (int i = 0; i < count; ++i) store.append(okRecordOf(prefix + std::to_string(i), 100.0 + i));
}

/// Runs `f`, and ends the whole test run (exit status 3, naming `what`) when
/// it has not returned after `seconds`: a reader blocked on a FIFO cannot be
/// interrupted, and a hang must fail the suite, not stall it.
template <class F> auto withinSeconds(int seconds, const std::string &what, F f) {
  auto result = std::async(std::launch::async, std::move(f));
  if (result.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
    std::fprintf(stderr, "FATAL: %s did not return within %d s (a blocking read?)\n", what.c_str(), seconds);
    std::fflush(stderr);
    std::_Exit(3);
  }
  return result.get();
}

/// Runs liftc (arguments already quoted) under coreutils' timeout: a hang
/// becomes exit status 124, which no test accepts.
inline ProcessRun runLiftcWithin(int seconds, const std::string &commandLine) {
  return runShell("timeout -s KILL " + std::to_string(seconds) + " " + shellQuote(LIFTCC_LIFTC_PATH) + " " +
                  commandLine);
}

/// One line of liftc's error format.
inline bool isOneErrorLine(const std::string &output) {
  return output.rfind("liftc: error: ", 0) == 0 && output.find('\n') == output.size() - 1 && output.size() < 400;
}

} // namespace liftcc::test
