// The tuner's append-only result store: what an interrupted exploration
// resumes from, and what is exported in the T4 format and merged across shards.

#include "core/error.h"
#include "search/result_store.h"
#include "tests/explore_test_support.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace liftcc {
namespace {

using search::Outcome;
using search::Record;
using search::ResultStore;
using test::readFile;
using test::TempDir;

Record okRecord(const std::string &key, double medianNs) {
  Record r;
  r.key = key;
  r.configuration = {{"name", key}};
  r.outcome = Outcome::Ok;
  r.medianNs = medianNs;
  r.samplesNs = {uint64_t(medianNs), uint64_t(medianNs) + 10, uint64_t(medianNs) - 10};
  r.timestamp = "2026-01-02T03:04:05Z";
  return r;
}

Record failedRecord(const std::string &key, Outcome outcome, const std::string &error) {
  Record r;
  r.key = key;
  r.configuration = {{"name", key}};
  r.outcome = outcome;
  r.error = error;
  r.timestamp = "2026-01-02T03:04:05Z";
  return r;
}

size_t lineCount(const std::filesystem::path &path) {
  std::string text = readFile(path);
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST_CASE("search/store: records are appended at once, found by key and reloaded") {
  TempDir dir;
  std::filesystem::path path = dir.path() / "device" / "program" / "N=64.jsonl";
  {
    ResultStore store(path.string());
    CHECK(store.records().empty());
    CHECK(store.find("a") == nullptr);
    CHECK(store.best() == nullptr);
    store.append(okRecord("a", 2000));
    // Flushed before append returns: a kill right after loses nothing.
    CHECK(lineCount(path) == 1);
    store.append(failedRecord("b", Outcome::Compile, "error: undeclared identifier"));
    store.append(okRecord("c", 1500));
    REQUIRE(store.find("b") != nullptr);
    CHECK(store.find("b")->outcome == Outcome::Compile);
    CHECK_THROWS_AS(store.append(okRecord("a", 1)), InternalError); // the callers check find() first
    CHECK(lineCount(path) == 3);
  }
  ResultStore reloaded(path.string());
  REQUIRE(reloaded.records().size() == 3);
  CHECK(reloaded.records()[0].key == "a");
  CHECK(reloaded.records()[2].key == "c");
  const Record *a = reloaded.find("a");
  REQUIRE(a != nullptr);
  CHECK(a->outcome == Outcome::Ok);
  CHECK(a->medianNs == 2000);
  CHECK(a->samplesNs == std::vector<uint64_t>{2000, 2010, 1990});
  CHECK(a->configuration == nlohmann::json{{"name", "a"}});
  CHECK(a->timestamp == "2026-01-02T03:04:05Z");
  const Record *b = reloaded.find("b");
  REQUIRE(b != nullptr);
  CHECK(b->error == "error: undeclared identifier");
  CHECK(b->samplesNs.empty());
}

TEST_CASE("search/store: best is the fastest successful record, the finalists' rounds first") {
  TempDir dir;
  ResultStore store((dir.path() / "s.jsonl").string());
  store.append(failedRecord("compile", Outcome::Compile, "x")); // medianNs 0, but not a result
  store.append(okRecord("slow", 3000));
  store.append(failedRecord("wrong", Outcome::Correctness, "mismatch"));
  store.append(okRecord("fast", 1000));
  store.append(okRecord("medium", 2000));
  REQUIRE(store.best() != nullptr);
  CHECK(store.best()->key == "fast");

  // Finalists re-timed in rounds decide: "fast"'s single timing was not
  // confirmed, "medium" won the rounds.
  Record fastInRounds = okRecord("medium", 2000);
  fastInRounds.roundsNs = {1500, 1600, 1550};
  fastInRounds.medianNs = 1550;
  store.append(fastInRounds);
  Record slowInRounds = okRecord("slow", 3000);
  slowInRounds.roundsNs = {1700, 1800, 1750};
  slowInRounds.medianNs = 1750;
  store.append(slowInRounds);
  REQUIRE(store.best() != nullptr);
  CHECK(store.best()->key == "medium");
  CHECK(ResultStore((dir.path() / "s.jsonl").string(), ResultStore::Access::Read).best()->key == "medium");

  ResultStore onlyFailures((dir.path() / "f.jsonl").string());
  onlyFailures.append(failedRecord("r", Outcome::Runtime, "CL_OUT_OF_RESOURCES"));
  CHECK(onlyFailures.best() == nullptr);

  // Equal medians (microsecond kernels often have them): the smaller key,
  // whatever the order of the records, as the explorer's winner
  // (search::fasterRecord). Before, the store took the first record and the
  // explorer the first finalist, and the two could crown different kernels.
  for (bool reversed : {false, true}) {
    ResultStore tied((dir.path() / (reversed ? "t2.jsonl" : "t1.jsonl")).string());
    std::vector<std::string> keys{"stream wg=4x4x1 spec", "stream wg=4x4x1"};
    if (reversed) std::swap(keys[0], keys[1]);
    for (const std::string &key : keys) tied.append(okRecord(key, 1000));
    REQUIRE(tied.best() != nullptr);
    CHECK(tied.best()->key == "stream wg=4x4x1");
  }
}

TEST_CASE("search/store: a truncated last line is dropped and the store stays appendable") {
  TempDir dir;
  std::filesystem::path path = dir.path() / "s.jsonl";
  {
    ResultStore store(path.string());
    store.append(okRecord("a", 100));
    store.append(okRecord("b", 200));
  }
  // A run killed while writing its third record.
  std::string partial = okRecord("c", 300).toJson().dump();
  std::ofstream(path, std::ios::app) << partial.substr(0, partial.size() / 2);
  {
    ResultStore store(path.string());
    CHECK(store.records().size() == 2);
    CHECK(store.find("c") == nullptr); // re-measured by the next run
    store.append(okRecord("c", 300));
    store.append(okRecord("d", 400));
  }
  // The resumed run's records must not have been glued to the partial line.
  ResultStore reloaded(path.string());
  CHECK(reloaded.records().size() == 4);
  CHECK(reloaded.find("c") != nullptr);
  CHECK(reloaded.find("d") != nullptr);
  CHECK(lineCount(path) == 4);
}

TEST_CASE("search/store: a complete last record without its newline is kept") {
  TempDir dir;
  std::filesystem::path path = dir.path() / "s.jsonl";
  std::ofstream(path) << okRecord("a", 100).toJson().dump() << "\n" << okRecord("b", 200).toJson().dump();
  {
    ResultStore store(path.string());
    CHECK(store.records().size() == 2);
    store.append(okRecord("c", 300));
  }
  ResultStore reloaded(path.string());
  CHECK(reloaded.records().size() == 3);
}

TEST_CASE("search/store: a malformed line before the last is an error naming the line") {
  TempDir dir;
  std::filesystem::path path = dir.path() / "s.jsonl";
  std::ofstream(path) << okRecord("a", 100).toJson().dump() << "\n"
                      << "{\"key\": \"b\", \"outcome\": \"ok\"\n" // cut short, then more records
                      << okRecord("c", 300).toJson().dump() << "\n";
  try {
    ResultStore store(path.string());
    FAIL("a malformed middle line must not be skipped silently");
  } catch (const std::runtime_error &e) {
    std::string message = e.what();
    CHECK_MESSAGE(message.find(path.string() + ":2:") != std::string::npos, message);
    CHECK_MESSAGE(message.find("malformed") != std::string::npos, message);
  }
  // An unknown outcome is malformed as well.
  std::ofstream(path) << "{\"key\": \"x\", \"configuration\": {}, \"outcome\": \"great\"}\n"
                      << okRecord("c", 300).toJson().dump() << "\n";
  CHECK_THROWS_WITH_AS(ResultStore(path.string()), doctest::Contains(":1: malformed"), std::runtime_error);
}

TEST_CASE("search/store: T4 export") {
  std::vector<Record> records{okRecord("fast", 2'000'000), failedRecord("broken", Outcome::Compile, "error"),
                              failedRecord("wrong", Outcome::Correctness, "mismatch at 3")};
  nlohmann::json t4 = search::exportT4(records);
  CHECK(t4.at("schema_version") == "1.0.0");
  const nlohmann::json &results = t4.at("results");
  REQUIRE(results.is_array());
  REQUIRE(results.size() == 3);
  for (const nlohmann::json &r : results) {
    CHECK(r.contains("timestamp"));
    CHECK(r.at("configuration").is_object());
    CHECK(r.at("times").at("runtimes").is_array());
    CHECK(r.at("measurements").is_array());
    CHECK(r.at("objectives") == nlohmann::json{"time"});
  }
  const nlohmann::json &ok = results[0];
  CHECK(ok.at("configuration") == nlohmann::json{{"name", "fast"}});
  CHECK(ok.at("invalidity") == "correct");
  CHECK(ok.at("correctness") == 1);
  CHECK(ok.at("times").at("runtimes").size() == 3);
  CHECK(ok.at("times").at("runtimes")[0].get<double>() == doctest::Approx(2.0)); // milliseconds
  REQUIRE(ok.at("measurements").size() == 1);
  CHECK(ok.at("measurements")[0].at("name") == "time");
  CHECK(ok.at("measurements")[0].at("unit") == "ms");
  CHECK(ok.at("measurements")[0].at("value").get<double>() == doctest::Approx(2.0));

  CHECK(results[1].at("invalidity") == "compile");
  CHECK(results[1].at("correctness") == 1);
  CHECK(results[1].at("measurements").empty());
  CHECK(results[1].at("times").at("runtimes").empty());
  CHECK(results[2].at("invalidity") == "correctness");
  CHECK(results[2].at("correctness") == 0);

  CHECK(search::exportT4({}).at("results").empty());
}

TEST_CASE("search/store: merging shards unions their records, the first of a key winning") {
  TempDir dir;
  std::string a = (dir.path() / "a.jsonl").string(), b = (dir.path() / "b.jsonl").string();
  {
    ResultStore shardA(a), shardB(b);
    shardA.append(okRecord("x", 100));
    shardA.append(okRecord("y", 200));
    shardB.append(okRecord("y", 999)); // measured twice: the first source wins
    shardB.append(failedRecord("z", Outcome::Runtime, "boom"));
  }
  ResultStore merged((dir.path() / "merged" / "m.jsonl").string());
  CHECK(search::mergeStores({a, b}, merged) == 3);
  REQUIRE(merged.records().size() == 3);
  CHECK(merged.find("y")->medianNs == 200);
  CHECK(merged.find("z")->outcome == Outcome::Runtime);
  // Merging again adds nothing, and the merged file reloads to the same union.
  CHECK(search::mergeStores({a, b}, merged) == 0);
  CHECK(ResultStore(merged.path(), ResultStore::Access::Read).records().size() == 3);
}

} // namespace liftcc
