// Issue #34 (reliability), the files of a results directory: a FIFO, device
// or over-cap file in place of a kernel, launch.json or store is refused at
// once with one line naming it; `liftc best` reports each bad entry as one
// line (file and field) and still lists the good ones; best-kernel entries
// and `liftc merge` are written as a whole or not at all; and a store holds
// no successful record whose time the explorer cannot use (medianNs 0).

#include "core/error.h"
#include "core/io/safe_file.h"
#include "exporter/export_plan.h"
#include "tests/opencl_test_support.h"
#include "tests/results_files_support.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/stat.h>

namespace liftcc {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::string quote(const std::string &s) { return test::shellQuote(s); }
void write(const fs::path &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }
void makeFifo(const fs::path &path) {
  fs::remove(path);
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
}

/// Every path below `dir` with its content ("<dir>" for directories), to see
/// that a failed command changed nothing.
std::map<std::string, std::string> snapshot(const fs::path &dir) {
  std::map<std::string, std::string> files;
  for (const auto &entry : fs::recursive_directory_iterator(dir))
    files[fs::relative(entry.path(), dir).string()] =
        entry.is_directory() ? std::string("<dir>") : test::readFile(entry.path());
  return files;
}

/// The message of what `f` throws (liftcc::Error and io::FileError alike), "" when it returns.
template <class F> std::string errorOf(F f) {
  try {
    test::withinSeconds(10, "a reader", f);
  } catch (const std::exception &e) {
    return e.what();
  }
  return "";
}

TEST_CASE("results files: a FIFO in place of a kernel, launch.json or store is refused at once, naming it") {
  TempDir dir;
  fs::path good = test::writeEntry(dir.path(), 64, 1000), bad = test::writeEntry(dir.path(), 128, 2000);
  for (const char *name : {"launch.json", "kernel.cl"}) {
    CAPTURE(name);
    fs::path entryDir = dir.path() / "copy";
    fs::remove_all(entryDir);
    fs::copy(bad, entryDir);
    makeFifo(entryDir / name);
    std::string message = errorOf([&] { explore::readBestKernel(entryDir); });
    CHECK(message.find((entryDir / name).string()) != std::string::npos);
    CHECK(message.find("not a regular file") != std::string::npos);
    CHECK(errorOf([&] { exporter::planFromBestKernel(entryDir.string()); }).find("not a regular file") !=
          std::string::npos);
  }
  // In the best directory: the bad entry is one problem, the good one is still listed.
  makeFifo(bad / "launch.json");
  explore::BestKernelListing listing =
      test::withinSeconds(10, "listBestKernels", [&] { return explore::listBestKernels(dir.path().string(), ""); });
  REQUIRE(listing.kernels.size() == 1);
  CHECK(listing.kernels[0].directory == good.string());
  REQUIRE(listing.problems.size() == 1);
  CHECK(listing.problems[0].find((bad / "launch.json").string()) != std::string::npos);
  CHECK_THROWS_AS(explore::findBestKernels(dir.path().string(), ""), Error);
  // A later exploration replaces the unreadable entry instead of waiting on it.
  test::withinSeconds(10, "writeBestKernel", [&] { return test::writeEntry(dir.path(), 128, 3000); });
  CHECK(fs::is_regular_file(bad / "launch.json"));
  CHECK(explore::listBestKernels(dir.path().string(), "").problems.empty());

  // Stores, read or appended to (explore resumes by appending).
  fs::path store = dir.path() / "s.jsonl";
  makeFifo(store);
  for (auto access : {search::ResultStore::Access::Read, search::ResultStore::Access::Append}) {
    std::string message = errorOf([&] { search::ResultStore(store.string(), access, dir.path().string()); });
    CHECK(message.find(store.string()) != std::string::npos);
    CHECK(message.find("not a regular file") != std::string::npos);
  }
}

TEST_CASE("results files: liftc best, export and explore fail in one line, quickly, on a FIFO") {
  TempDir dir;
  fs::path good = test::writeEntry(dir.path(), 64, 1000), bad = test::writeEntry(dir.path(), 128, 2000);
  makeFifo(bad / "kernel.cl");
  test::ProcessRun best = test::runLiftcWithin(20, "best " + quote(dir.path().string()));
  CHECK_MESSAGE(best.status == 1, best.output);
  CHECK(best.output.find("// program jacobi1d_3pt at N=64") != std::string::npos);
  CHECK(best.output.find("N=128 on") == std::string::npos); // nothing of the bad entry
  CHECK(best.output.find("liftc: error: '" + (bad / "kernel.cl").string() + "' is not a regular file") !=
        std::string::npos);
  test::ProcessRun exported =
      test::runLiftcWithin(20, "export " + quote(bad.string()) + " --out " + quote((dir.path() / "x").string()));
  CHECK_MESSAGE(exported.status == 1, exported.output);
  CHECK_MESSAGE(test::isOneErrorLine(exported.output), exported.output);
  CHECK(exported.output.find((bad / "kernel.cl").string()) != std::string::npos);

  auto device = ocl::test::testDevice();
  if (!device) return;
  Program program = readProgram(test::readFile(test::sourceDir() / "examples" / "json" / "jacobi1d_3pt.json"));
  fs::path store =
      explore::storePathFor((dir.path() / "r").string(), device->name, "jacobi1d_3pt", program, {{"N", 64}});
  fs::create_directories(fs::path(store).parent_path());
  makeFifo(store);
  test::ProcessRun explored = test::runLiftcWithin(
      60, "explore " + quote((test::sourceDir() / "examples" / "json" / "jacobi1d_3pt.json").string()) +
              " --size N=64 --families plain --fast-math none --quiet --no-roofline --out " +
              quote((dir.path() / "r").string()));
  CHECK_MESSAGE(explored.status == 1, explored.output);
  CHECK_MESSAGE(test::isOneErrorLine(explored.output), explored.output);
  CHECK(explored.output.find("not a regular file") != std::string::npos);
}

TEST_CASE("results files: /dev/zero behind a link and sparse files over the cap are refused") {
  TempDir dir;
  fs::path entry = test::writeEntry(dir.path(), 64, 1000);
  fs::remove(entry / "kernel.cl");
  fs::create_symlink("/dev/zero", entry / "kernel.cl");
  CHECK(errorOf([&] { explore::readBestKernel(entry); }).find("not a regular file") != std::string::npos);
  fs::remove(entry / "kernel.cl");
  write(entry / "kernel.cl", "");
  fs::resize_file(entry / "kernel.cl", io::kMaxResultsFileBytes + 1); // sparse: nothing is written
  std::string message = errorOf([&] { explore::readBestKernel(entry); });
  CHECK(message.find("kernel.cl") != std::string::npos);
  CHECK(message.find("may have at most") != std::string::npos);
  fs::path store = dir.path() / "big.jsonl";
  write(store, "");
  fs::resize_file(store, io::kMaxStoreFileBytes + 1);
  message = errorOf([&] { search::ResultStore(store.string(), search::ResultStore::Access::Read); });
  CHECK(message.find("big.jsonl") != std::string::npos);
  CHECK(message.find("may have at most") != std::string::npos);
  fs::remove(store);
}

TEST_CASE("results files: liftc best names the file and field of each bad entry and lists every good one") {
  TempDir dir;
  std::vector<fs::path> entries;
  for (int64_t n : {16, 32, 64, 128, 256, 512, 1024}) entries.push_back(test::writeEntry(dir.path(), n, double(n)));
  auto launchOf = [](const fs::path &entry) { return nlohmann::json::parse(test::readFile(entry / "launch.json")); };
  write(entries[1] / "launch.json", "{\"program\": \"jacobi1d_3pt\", "); // cut short
  nlohmann::json wrongType = launchOf(entries[2]);
  wrongType["program"] = 5;
  write(entries[2] / "launch.json", wrongType.dump());
  fs::remove(entries[3] / "kernel.cl");
  nlohmann::json zeroTime = launchOf(entries[4]);
  zeroTime["medianNs"] = 0;
  write(entries[4] / "launch.json", zeroTime.dump());
  nlohmann::json badWhy = launchOf(entries[5]);
  badWhy["why"] = {{"family", 3}};
  write(entries[5] / "launch.json", badWhy.dump());

  test::ProcessRun run = test::runLiftcWithin(20, "best " + quote(dir.path().string()));
  CHECK(run.status == 1);
  CAPTURE(run.output);
  // The good entries, whole.
  for (const char *sizes : {"N=16 ", "N=1024 "})
    CHECK(run.output.find(std::string("// program jacobi1d_3pt at ") + sizes) != std::string::npos);
  CHECK(std::count(run.output.begin(), run.output.end(), '\n') > 10);
  // Each bad entry: one line, its file and field, nothing of it printed.
  auto errorLine = [&](const fs::path &file, const std::string &rest) {
    return run.output.find("liftc: error: " + file.string() + rest) != std::string::npos;
  };
  CHECK(errorLine(entries[1] / "launch.json", ": not JSON: "));
  CHECK(errorLine(entries[2] / "launch.json", ": /program: expected a string, found 5"));
  CHECK(run.output.find("'" + (entries[3] / "kernel.cl").string() + "'") != std::string::npos);
  CHECK(errorLine(entries[4] / "launch.json", ": /medianNs: expected a positive number, found 0"));
  CHECK(errorLine(entries[5] / "launch.json", ": /why: "));
  for (const char *sizes : {"N=32 ", "N=64 ", "N=128 ", "N=256 ", "N=512 "})
    CHECK(run.output.find(std::string("at ") + sizes) == std::string::npos);
  CHECK(run.output.find("json.exception") == std::string::npos);
}

TEST_CASE("results files: a best-kernel entry is replaced as a whole; temporaries are no entries") {
  TempDir dir;
  fs::path entry = test::writeEntry(dir.path(), 64, 1000);
  // A directory written whole: files of the old one that the new one lacks are gone.
  write(entry / "stale.txt", "old");
  test::writeEntry(dir.path(), 64, 500); // faster: replaces
  CHECK_FALSE(fs::exists(entry / "stale.txt"));
  CHECK(explore::readBestKernel(entry).launch["medianNs"] == 500);
  for (const auto &e : fs::directory_iterator(entry.parent_path()))
    CHECK_MESSAGE(e.path() == entry, e.path().string()); // no temporary left beside it
  // A write failing after the first file (here a name that cannot be a file)
  // leaves the old entry as it was, and no temporary.
  std::string kernelBefore = test::readFile(entry / "kernel.cl");
  CHECK_THROWS_WITH_AS(io::writeDirectory(dir.path(), entry, {{"kernel.cl", "new"}, {"a/b", "x"}}),
                       doctest::Contains("cannot name a file"), io::FileError);
  CHECK(test::readFile(entry / "kernel.cl") == kernelBefore);
  CHECK(explore::readBestKernel(entry).launch["medianNs"] == 500);
  CHECK(std::distance(fs::directory_iterator(entry.parent_path()), {}) == 1);
  // A crash's leftover temporary beside the entry is skipped by readers.
  fs::path leftover = entry.parent_path() / ("." + entry.filename().string() + ".liftc-new-abc123");
  fs::create_directories(leftover);
  write(leftover / "launch.json", "{");
  explore::BestKernelListing listing = explore::listBestKernels(dir.path().string(), "");
  CHECK(listing.kernels.size() == 1);
  CHECK(listing.problems.empty());
  // A file where the entry's directory must go: refused, nothing half-written.
  fs::path blocked = dir.path() / "blocked";
  write(blocked, "x");
  CHECK_THROWS_WITH_AS(io::writeDirectory(dir.path(), blocked, {{"a", "1"}}),
                       doctest::Contains("exists and is not a directory"), io::FileError);
  CHECK(test::readFile(blocked) == "x");
  CHECK_THROWS_AS(io::writeDirectory(dir.path(), blocked / "below", {{"a", "1"}}), io::FileError);
}

TEST_CASE("results files: liftc merge reads and checks everything before it writes anything") {
  TempDir dir;
  fs::path a = dir.path() / "a", b = dir.path() / "b", c = dir.path() / "c", out = dir.path() / "out";
  fs::path storeRel = fs::path("dev") / "p" / "N=8.jsonl";
  test::writeStore(a, a / storeRel, 2, "a");
  test::writeEntry(a, 64, 900);
  test::writeStore(b, b / storeRel, 2, "b");
  test::writeEntry(b, 128, 800);
  test::writeStore(c, c / storeRel, 1, "c");
  test::writeStore(out, out / storeRel, 1, "out");
  test::writeEntry(out, 64, 1000);
  // The third source has a record no reader accepts (a successful time of 0).
  nlohmann::json zero = test::okRecordOf("zero", 100).toJson();
  zero["medianNs"] = 0;
  {
    std::ofstream append(c / storeRel, std::ios::app);
    append << zero.dump() << "\n";
  }
  std::map<std::string, std::string> before = snapshot(out);
  std::string sources = quote(a.string()) + " " + quote(b.string()) + " " + quote(c.string());
  test::ProcessRun run = test::runLiftcWithin(20, "merge --out " + quote(out.string()) + " " + sources);
  CHECK(run.status == 1);
  CHECK_MESSAGE(test::isOneErrorLine(run.output), run.output);
  CHECK(run.output.find((c / storeRel).string() + ":2: malformed record: \"medianNs\"") != std::string::npos);
  CHECK(snapshot(out) == before);

  // A write that cannot succeed (a file where --out needs the best/
  // directory) is found before the stores are appended to.
  fs::remove(c / storeRel);
  test::writeStore(c, c / storeRel, 1, "c");
  fs::remove_all(out / "best");
  write(out / "best", "not a directory");
  before = snapshot(out);
  run = test::runLiftcWithin(20, "merge --out " + quote(out.string()) + " " + sources);
  CHECK(run.status == 1);
  CHECK_MESSAGE(test::isOneErrorLine(run.output), run.output);
  CHECK(run.output.find("is not a directory") != std::string::npos);
  CHECK(snapshot(out) == before);

  // Repaired, the merge writes it all: 5 new records, both best entries.
  fs::remove(out / "best");
  run = test::runLiftcWithin(20, "merge --out " + quote(out.string()) + " " + sources);
  CHECK_MESSAGE(run.status == 0, run.output);
  CHECK(run.output.find("merged 5 record(s) from 3 store file(s)") != std::string::npos);
  CHECK(search::ResultStore((out / storeRel).string(), search::ResultStore::Access::Read).records().size() == 6);
  CHECK(explore::findBestKernels(out.string(), "").size() == 2);
}

TEST_CASE("results files: a successful record's time is positive, in the store and for its consumers") {
  TempDir dir;
  fs::path path = dir.path() / "s.jsonl";
  nlohmann::json zero = test::okRecordOf("b", 100).toJson();
  zero["medianNs"] = 0;
  write(path, test::okRecordOf("a", 100).toJson().dump() + "\n" + zero.dump() + "\n");
  CHECK_THROWS_WITH_AS(search::ResultStore(path.string()),
                       doctest::Contains((path.string() + ":2: malformed record: \"medianNs\" must be a finite "
                                                          "positive number, found 0")
                                             .c_str()),
                       std::runtime_error);
  // Nothing the store would refuse is ever written to it.
  {
    search::ResultStore store((dir.path() / "t.jsonl").string());
    CHECK_THROWS_AS(store.append(test::okRecordOf("c", 0)), InternalError);
    CHECK(store.records().empty());
  }
  CHECK(test::readFile(dir.path() / "t.jsonl").empty());

  // An exploration into the directory refuses the store (before measuring),
  // and explores once the line is repaired.
  auto device = ocl::test::testDevice();
  if (!device) return;
  fs::path json = test::sourceDir() / "examples" / "json" / "jacobi1d_3pt.json";
  Program program = readProgram(test::readFile(json));
  fs::path store =
      explore::storePathFor((dir.path() / "r").string(), device->name, "jacobi1d_3pt", program, {{"N", 64}});
  fs::create_directories(store.parent_path());
  write(store, test::okRecordOf("a", 100).toJson().dump() + "\n" + zero.dump() + "\n");
  std::string args = "explore " + quote(json.string()) +
                     " --size N=64 --families plain --fast-math none --quiet --no-roofline --evals 1 --runs 1 --out " +
                     quote((dir.path() / "r").string());
  test::ProcessRun refused = test::runLiftcWithin(60, args);
  CHECK(refused.status == 1);
  CHECK_MESSAGE(test::isOneErrorLine(refused.output), refused.output);
  CHECK(refused.output.find(store.string() + ":2: malformed record") != std::string::npos);
  write(store, test::okRecordOf("a", 100).toJson().dump() + "\n");
  test::ProcessRun repaired = test::runLiftcWithin(120, args);
  CHECK_MESSAGE(repaired.status == 0, repaired.output);
  CHECK(repaired.output.find("best kernel: ") != std::string::npos);
}

} // namespace
} // namespace liftcc
