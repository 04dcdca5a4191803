// Fuzz campaign of issue #34 over the files of a results directory: in a
// small results directory (two best-kernel entries, two stores) a random file
// is replaced by a FIFO, a directory, an empty file, truncated or garbled
// JSON, JSON nested too deep, a sparse file over the cap or a link to
// /dev/zero. Every reader (listing the best kernels, reading an entry,
// exporting it, reading a store, resuming into it as explore does, replacing
// an entry as explore does, and `liftc best`/`merge`/`export` through the
// binary) must return, and when it fails, fail with one line naming the file.
//
// Iterations are multiplied by LIFTCC_FUZZ_SCALE (default 1; e.g. 50 for the
// long mode); the seed is fixed, LIFTCC_FUZZ_SEED overrides it, and every
// failure message prints it.

#include "core/error.h"
#include "core/io/safe_file.h"
#include "exporter/export_plan.h"
#include "tests/results_files_support.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>

namespace liftcc {
namespace {

namespace fs = std::filesystem;

uint64_t envNumber(const char *name, uint64_t fallback) {
  const char *text = std::getenv(name);
  if (!text || !*text) return fallback;
  return std::strtoull(text, nullptr, 10);
}

uint64_t fuzzScale() { return std::max<uint64_t>(1, envNumber("LIFTCC_FUZZ_SCALE", 1)); }
uint64_t fuzzSeed() { return envNumber("LIFTCC_FUZZ_SEED", 34003); }

/// The files a mutation may hit, relative to the results directory.
std::vector<fs::path> candidateFiles(const fs::path &dir) {
  std::vector<fs::path> files;
  for (const auto &entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Replaces `file` by one of the damaged forms; returns what it did.
std::string damage(const fs::path &file, std::mt19937_64 &random) {
  std::string text = test::readFile(file);
  auto put = [&](const std::string &content) { std::ofstream(file, std::ios::binary | std::ios::trunc) << content; };
  switch (random() % 9) {
  case 0:
    fs::remove(file);
    if (::mkfifo(file.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
    return "fifo";
  case 1:
    fs::remove(file);
    fs::create_directory(file);
    return "directory";
  case 2: put(""); return "empty";
  case 3: put(text.substr(0, random() % (text.size() + 1))); return "truncated";
  case 4: {
    for (int i = 0; i < 4 && !text.empty(); ++i) text[random() % text.size()] = char(random() % 256);
    put(text);
    return "garbled";
  }
  case 5: put(std::string(5000, '[') + std::string(5000, ']')); return "nested";
  case 6:
    put("");
    fs::resize_file(file, (file.extension() == ".jsonl" ? io::kMaxStoreFileBytes : io::kMaxResultsFileBytes) + 1);
    return "sparse over the cap";
  case 7:
    fs::remove(file);
    fs::create_symlink("/dev/zero", file);
    return "link to /dev/zero";
  default: fs::remove(file); return "missing";
  }
}

/// One damaged file at random in a fresh copy of `pristine` at `work`.
struct DamagedCopy {
  fs::path file;
  std::string context; ///< the seed, `step`, the damage and the file, for failure messages
};

DamagedCopy damagedCopy(const fs::path &pristine, const fs::path &work, std::mt19937_64 &random, uint64_t seed,
                        const std::string &step) {
  fs::remove_all(work);
  fs::copy(pristine, work, fs::copy_options::recursive);
  std::vector<fs::path> files = candidateFiles(work);
  fs::path damaged = files[random() % files.size()];
  std::string what = damage(damaged, random);
  return {damaged, "seed " + std::to_string(seed) + " (LIFTCC_FUZZ_SEED), " + step + ": " + what + " " +
                       fs::relative(damaged, work).string()};
}

/// A failure of a reader: one line, naming the damaged file (or, when the
/// file is missing or not one any more, its directory).
void checkFailure(const std::string &message, const fs::path &damaged, const std::string &context) {
  CAPTURE(context);
  CAPTURE(message);
  CHECK(message.find('\n') == std::string::npos);
  CHECK(message.size() < 600);
  CHECK(message.find("json.exception") == std::string::npos);
  bool namesIt = message.find(damaged.filename().string()) != std::string::npos ||
                 message.find(damaged.parent_path().string()) != std::string::npos;
  CHECK(namesIt);
}

template <class F> void expectCleanly(const std::string &context, const fs::path &damaged, F f) {
  try {
    test::withinSeconds(20, context, f);
  } catch (const std::exception &e) {
    checkFailure(e.what(), damaged, context);
  }
}

/// The template directory: two entries and two stores, made once.
void makeResults(const fs::path &dir) {
  test::writeEntry(dir, 64, 1000);
  test::writeEntry(dir, 128, 2000);
  test::writeStore(dir, dir / "dev" / "jacobi1d_3pt" / "N=64.jsonl", 3, "a");
  test::writeStore(dir, dir / "dev" / "jacobi1d_3pt" / "N=128.jsonl", 2, "b");
}

TEST_CASE("fuzz/files: every reader of a damaged results directory returns, or fails in one line naming the file") {
  uint64_t seed = fuzzSeed();
  std::mt19937_64 random(seed);
  test::TempDir dir;
  fs::path pristine = dir.path() / "pristine";
  makeResults(pristine);
  size_t iterations = 40 * fuzzScale();
  for (size_t iteration = 0; iteration < iterations; ++iteration) {
    fs::path work = dir.path() / "work";
    const DamagedCopy copy = damagedCopy(pristine, work, random, seed, "iteration " + std::to_string(iteration));
    const fs::path &damaged = copy.file;
    const std::string &context = copy.context;
    CAPTURE(context);

    expectCleanly(context + ", listBestKernels", damaged, [&] {
      explore::BestKernelListing listing = explore::listBestKernels(work.string(), "");
      // One bad entry hides no other: two entries, each listed or a problem.
      CHECK(listing.kernels.size() + listing.problems.size() >= 1);
      for (const std::string &problem : listing.problems) checkFailure(problem, damaged, context);
    });
    for (const auto &launch : candidateFiles(pristine)) {
      fs::path rel = fs::relative(launch, pristine), inWork = work / rel;
      if (rel.filename() == "launch.json") {
        expectCleanly(context + ", readBestKernel", damaged, [&] { explore::readBestKernel(inWork.parent_path()); });
        expectCleanly(context + ", planFromBestKernel", damaged,
                      [&] { exporter::planFromBestKernel(inWork.parent_path().string()); });
      } else if (rel.extension() == ".jsonl") {
        expectCleanly(context + ", store read", damaged,
                      [&] { search::ResultStore(inWork.string(), search::ResultStore::Access::Read); });
        // explore resumes by appending to its store.
        expectCleanly(context + ", store resume", damaged, [&] {
          search::ResultStore store(inWork.string(), search::ResultStore::Access::Append, work.string());
          store.append(test::okRecordOf("resumed", 50));
        });
      }
    }
    // explore replaces an entry it beats, whatever state the old one is in.
    expectCleanly(context + ", writeBestKernel", damaged, [&] { test::writeEntry(work, 64, 10); });
  }
}

TEST_CASE("fuzz/files: liftc best, merge and export on damaged directories fail cleanly") {
  uint64_t seed = fuzzSeed() + 1;
  std::mt19937_64 random(seed);
  test::TempDir dir;
  fs::path pristine = dir.path() / "pristine";
  makeResults(pristine);
  size_t rounds = 2 * fuzzScale();
  for (size_t round = 0; round < rounds; ++round) {
    fs::path work = dir.path() / "work", out = dir.path() / "out";
    fs::remove_all(out);
    fs::remove_all(dir.path() / "x");
    const DamagedCopy copy = damagedCopy(pristine, work, random, seed, "round " + std::to_string(round));
    const fs::path &damaged = copy.file;
    const std::string &context = copy.context;
    CAPTURE(context);
    fs::path entry = work / "best" / "files-test-device" / "jacobi1d_3pt" / "N=64";
    for (const std::string &args :
         {"best " + test::shellQuote(work.string()),
          "merge --out " + test::shellQuote(out.string()) + " " + test::shellQuote(work.string()),
          "export " + test::shellQuote(entry.string()) + " --out " + test::shellQuote((dir.path() / "x").string())}) {
      test::ProcessRun run = test::runLiftcWithin(30, args);
      CAPTURE(args);
      CAPTURE(run.output);
      // 0, 1 (an error) or 2 (usage); not 137 (killed by the timeout), nor -1 (a signal).
      CHECK(run.status >= 0);
      CHECK(run.status <= 2);
      if (run.status != 0) {
        std::string errors;
        for (size_t start = 0; start < run.output.size();) {
          size_t end = run.output.find('\n', start);
          std::string line = run.output.substr(start, end - start);
          if (line.rfind("liftc: error: ", 0) == 0) errors += line;
          start = end == std::string::npos ? run.output.size() : end + 1;
        }
        CHECK_FALSE(errors.empty());
        checkFailure(errors, damaged, context);
      }
      if (args.rfind("merge", 0) == 0 && run.status != 0) CHECK_FALSE(fs::exists(out / "best")); // all or nothing
    }
  }
}

} // namespace
} // namespace liftcc
