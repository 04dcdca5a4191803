#pragma once
// The tuner's append-only result store: one JSON object per line, one file
// per (program, sizes, device). Every evaluation is appended as soon as it is
// measured, so a run that is killed loses at most the evaluation in flight,
// and a new run over the same file resumes without measuring anything twice.

#include "tuner/sass_summary.h"

#include "core/io/json.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::search {

/// The launch timeout of explorations and tunings that set none (seconds),
/// and that of timeout records that do not say theirs.
inline constexpr double kDefaultKernelTimeoutSeconds = 60;

/// Constraints: the variant cannot be built for these sizes or this device
/// (a rewrite or codegen precondition). Timeout: a launch ran past the
/// per-kernel timeout (ExploreOptions). Bug: liftcc itself failed (an
/// InternalError or an unexpected exception): never the variant's fault, and
/// the test suite fails on any.
enum class Outcome { Ok, Compile, Runtime, Correctness, Constraints, Timeout, Bug };
std::string outcomeName(Outcome outcome);
std::optional<Outcome> parseOutcome(const std::string &name);

struct Record {
  std::string key;              ///< identifies the configuration within the store
  nlohmann::json configuration; ///< the tuning parameters, for people and exports
  /// What was measured (explore/record_identity.h): the high-level program
  /// with its sizes, and the kernel (source, launch, build options, target),
  /// each a 16-digit hash. A resumed run reuses a record only when all three
  /// of key and hashes match; records written before the hashes existed have
  /// none and are never reused.
  std::string programHash, kernelHash;
  Outcome outcome = Outcome::Ok;
  double medianNs = 0; ///< kernel time (Ok only)
  std::vector<uint64_t> samplesNs;
  /// Ok: what was compared with the interpreter (the small sizes, the points
  /// of the timed full-size run); empty in records written before it.
  std::string verified;
  std::string error;     ///< first line of the failure (not Ok)
  std::string buildLog;  ///< Compile: the compiler's log (capped)
  std::string timestamp; ///< ISO 8601, UTC
  /// The variant's strategy (explore/strategy_text.h), which `liftc compile
  /// --strategy` rebuilds; empty in records written before strategies existed.
  std::string strategy;
  /// Timeout: the launch timeout it ran past, in seconds. Records written
  /// before it was stored have none: they were measured with the default
  /// (kDefaultKernelTimeoutSeconds). A timeout says nothing about a longer
  /// timeout, so such a record is replayed only under one no longer than its own
  /// (answersTimeout).
  std::optional<double> timeoutSeconds;
  /// CUDA: the timed kernel's SASS figures (tuner/sass_summary.h), from its
  /// own compilation, whatever the outcome once it compiled; absent for
  /// OpenCL and in records written before them.
  std::optional<tuner::SassSummary> sass;
  /// Ok, re-timed as a finalist of an exploration (explore/finalists.h): the
  /// median of each interleaved round, in round order; medianNs is then their
  /// median, and their smallest and largest are the spread. Empty: timed once
  /// (samplesNs are that measurement's runs either way).
  std::vector<double> roundsNs;
  /// Provenance (issue #36 item 4): the device the record was measured on
  /// (tuner::Device::resultsName), its driver or platform version
  /// (Device::driverVersion) and the liftcc version that measured it. Records
  /// written before these existed have none (empty). A record is a timing
  /// only on its own device (ResultStore::findMeasuredOn); elsewhere it is
  /// knowledge (explore/knowledge.h).
  std::string device, driver, liftccVersion;
  /// The program's shape (explore::programShape: dimensions, pads, windows,
  /// grids, element type), which lets explorations of other programs of the
  /// same shape learn from this record; empty in older records.
  std::string shape;

  /// Whether this record stands for a measurement with launch timeout
  /// `kernelTimeoutSeconds`: every outcome but a timeout does; a timeout only
  /// when it was measured with at least that timeout.
  bool answersTimeout(double kernelTimeoutSeconds) const;

  /// The record's identity in its store: the key, followed by the hashes when
  /// it has them (two records of one key measured different kernels) and the
  /// device when it names one (a record merged from another device is a
  /// record of its own, never the same measurement as this device's).
  std::string identity() const { return identityOf(key, programHash, kernelHash, device); }
  static std::string identityOf(const std::string &key, const std::string &programHash, const std::string &kernelHash,
                                const std::string &device = "");

  nlohmann::json toJson() const;
  /// Validates as it reads (std::invalid_argument naming the field): a
  /// non-empty key, a known outcome, for Ok a finite positive median,
  /// non-negative integer samples and, when present, a non-empty roundsNs of
  /// finite positive numbers (only Ok records have rounds). A doctored
  /// `medianNs: -1000` would otherwise become the best kernel.
  static Record fromJson(const nlohmann::json &j);
};

class ResultStore {
public:
  enum class Access {
    /// Creates the file (and its directories) if needed, refuses symbolic
    /// links, and holds an exclusive lock (flock) until destroyed, so that two
    /// runs never measure into one store at once: the second is refused with
    /// a message naming the file. A last line cut short by a crash is cut off
    /// the file, a complete one without its newline is terminated.
    Append,
    /// Only reads: never creates, locks or modifies anything (merge sources,
    /// exports). A last line cut short is skipped.
    Read,
  };

  /// Opens the store file at `path` and loads its records. Only the last
  /// line, and only when it lacks its newline (a run killed mid-write), may
  /// be unparseable; any other malformed or invalid line is an error naming
  /// path:line. With `root`, no directory between it and the file, nor the
  /// file, may be a symbolic link (results directories are never written
  /// through links).
  explicit ResultStore(std::string path, Access access = Access::Append,
                       const std::optional<std::string> &root = std::nullopt);
  ~ResultStore();
  ResultStore(const ResultStore &) = delete;
  ResultStore &operator=(const ResultStore &) = delete;

  const std::string &path() const { return path_; }
  /// Whether a later line `later` of `earlier`'s identity replaces it (append's (a) and (b)).
  static bool supersedes(const Record &later, const Record &earlier);
  /// The record of an identity (Record::identity, Record::identityOf), if any.
  const Record *find(const std::string &identity) const;
  /// The record of (key, hashes) measured on `device`, or else one that names
  /// no device (written before records named theirs; a store lies in its
  /// device's directory): never one measured on another device, which is no
  /// timing here.
  const Record *findMeasuredOn(const std::string &key, const std::string &programHash, const std::string &kernelHash,
                               const std::string &device) const;
  /// Appends and flushes. Identities are unique: appending a known one is an
  /// error, and so is a record Record::fromJson would refuse on reading,
  /// except (a) over a timeout record (the variant measured again under a
  /// longer timeout) and (b) a record carrying roundsNs (a finalist re-timed
  /// in rounds, over its single timing or earlier rounds): the new record
  /// supersedes the old, here and when the store is read again (a later line
  /// of a timeout's identity, or a later line with rounds, replaces the
  /// earlier one; any other repeated identity keeps its first line).
  /// Lines are never rewritten: a re-measured configuration (its kernel
  /// changed) gets a record of its own, next to the stale one.
  void append(const Record &record);
  const std::vector<Record> &records() const { return records_; }
  /// The store's winner, if any Ok record: the fastest of the records timed
  /// in rounds when there are some (the finalists' decision: a single timing
  /// that came out below a finalist's median of rounds is not confirmed),
  /// else the fastest Ok record. The explorer's winner, so knowledge and
  /// replays rank by the same decision.
  const Record *best() const;

private:
  std::string path_;
  int fd_ = -1; ///< Append: the open, locked store file
  std::vector<Record> records_;
  std::map<std::string, size_t> byIdentity_;
};

/// ResultStore::best over any records (one line per identity).
const Record *bestRecord(const std::vector<Record> &records);

/// Whether `a` beats `b`: a lower median, or the same median and the smaller
/// key. Ties are broken this way wherever a best is chosen (the store's best,
/// the explorer's winner among its finalists), so the two always agree:
/// microsecond kernels often have equal medians.
bool fasterRecord(const Record &a, const Record &b);

/// Current time as ISO 8601 UTC ("2026-11-23T00:41:05Z").
std::string isoTimestamp();

/// The records in the T4 open autotuning results format
/// (https://github.com/odgaard/TuningSchema, results-schema.json).
nlohmann::json exportT4(const std::vector<Record> &records);

/// Union of several stores' records into `into` (first occurrence of an identity wins).
/// The sources are only read (Access::Read). Returns the number of records added.
size_t mergeStores(const std::vector<std::string> &sources, ResultStore &into);

} // namespace liftcc::search
