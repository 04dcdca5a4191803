#pragma once
// The tuner's append-only result store: one JSON object per line, one file
// per (program, sizes, device). Every evaluation is appended as soon as it is
// measured, so a run that is killed loses at most the evaluation in flight,
// and a new run over the same file resumes without measuring anything twice.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::tuner {

/// Constraints: the variant cannot be built for these sizes or this device
/// (a rewrite or codegen precondition). Bug: liftcc itself failed (an
/// InternalError or an unexpected exception): never the variant's fault, and
/// the test suite fails on any.
enum class Outcome { Ok, Compile, Runtime, Correctness, Constraints, Bug };
std::string outcomeName(Outcome outcome);
std::optional<Outcome> parseOutcome(const std::string &name);

struct Record {
  std::string key;                ///< identifies the configuration within the store
  nlohmann::json configuration;   ///< the tuning parameters, for people and exports
  Outcome outcome = Outcome::Ok;
  double medianNs = 0;            ///< kernel time (Ok only)
  std::vector<uint64_t> samplesNs;
  std::string error;              ///< first line of the failure (not Ok)
  std::string timestamp;          ///< ISO 8601, UTC

  nlohmann::json toJson() const;
  static Record fromJson(const nlohmann::json &j);
};

class ResultStore {
public:
  /// Opens (creating directories as needed) the store file at `path` and
  /// loads its records. A truncated last line (a run killed mid-write) is
  /// ignored; any other malformed line is an error naming the line.
  explicit ResultStore(std::string path);

  const std::string &path() const { return path_; }
  const Record *find(const std::string &key) const;
  /// Appends and flushes. Keys are unique: appending a known key is an error.
  void append(const Record &record);
  const std::vector<Record> &records() const { return records_; }
  /// The fastest Ok record, if any.
  const Record *best() const;

private:
  std::string path_;
  std::vector<Record> records_;
  std::map<std::string, size_t> byKey_;
};

/// Current time as ISO 8601 UTC ("2026-11-23T00:41:05Z").
std::string isoTimestamp();

/// The records in the T4 open autotuning results format
/// (https://github.com/odgaard/TuningSchema, results-schema.json).
nlohmann::json exportT4(const std::vector<Record> &records);

/// Union of several stores' records into `into` (first occurrence of a key wins).
/// Returns the number of records added.
size_t mergeStores(const std::vector<std::string> &sources, ResultStore &into);

} // namespace liftcc::tuner
