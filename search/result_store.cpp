#include "search/result_store.h"

#include "core/error.h"
#include "core/io/json_file.h"
#include "core/io/safe_file.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

namespace liftcc::search {

std::string outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::Ok: return "ok";
  case Outcome::Compile: return "compile";
  case Outcome::Runtime: return "runtime";
  case Outcome::Correctness: return "correctness";
  case Outcome::Constraints: return "constraints";
  case Outcome::Timeout: return "timeout";
  case Outcome::Bug: return "bug";
  }
  return "?";
}

std::optional<Outcome> parseOutcome(const std::string &name) {
  for (Outcome o : {Outcome::Ok, Outcome::Compile, Outcome::Runtime, Outcome::Correctness, Outcome::Constraints,
                    Outcome::Timeout, Outcome::Bug})
    if (outcomeName(o) == name) return o;
  return std::nullopt;
}

std::string Record::identityOf(const std::string &key, const std::string &programHash, const std::string &kernelHash,
                               const std::string &device) {
  std::string identity = key;
  if (!programHash.empty() || !kernelHash.empty()) identity += " @" + programHash + "/" + kernelHash;
  if (!device.empty()) identity += " on " + device;
  return identity;
}

bool Record::answersTimeout(double kernelTimeoutSeconds) const {
  return outcome != Outcome::Timeout || timeoutSeconds.value_or(kDefaultKernelTimeoutSeconds) >= kernelTimeoutSeconds;
}

nlohmann::json Record::toJson() const {
  nlohmann::json j{
      {"key", key}, {"configuration", configuration}, {"outcome", outcomeName(outcome)}, {"timestamp", timestamp}};
  if (!programHash.empty()) j["programHash"] = programHash;
  if (!kernelHash.empty()) j["kernelHash"] = kernelHash;
  if (!strategy.empty()) j["strategy"] = strategy;
  if (sass) j["sass"] = sass->toJson();
  if (!device.empty()) j["device"] = device;
  if (!driver.empty()) j["driver"] = driver;
  if (!liftccVersion.empty()) j["liftccVersion"] = liftccVersion;
  if (!shape.empty()) j["shape"] = shape;
  if (outcome == Outcome::Ok) {
    j["medianNs"] = medianNs;
    j["samplesNs"] = samplesNs;
    if (!verified.empty()) j["verified"] = verified;
    if (!roundsNs.empty()) j["roundsNs"] = roundsNs;
  } else {
    j["error"] = error;
    if (!buildLog.empty()) j["buildLog"] = buildLog;
    if (timeoutSeconds) j["timeoutSeconds"] = *timeoutSeconds;
  }
  return j;
}

Record Record::fromJson(const nlohmann::json &j) {
  auto invalid = [](const std::string &message) { throw std::invalid_argument(message); };
  if (!j.is_object()) invalid("a record must be a JSON object");
  Record r;
  r.key = j.at("key").get<std::string>();
  if (r.key.empty()) invalid("empty \"key\"");
  r.configuration = j.at("configuration");
  auto outcome = parseOutcome(j.at("outcome").get<std::string>());
  if (!outcome) invalid("unknown outcome " + j.at("outcome").dump().substr(0, 60));
  r.outcome = *outcome;
  r.timestamp = j.value("timestamp", "");
  r.programHash = j.value("programHash", "");
  r.kernelHash = j.value("kernelHash", "");
  // Records written before strategies existed have none.
  if (j.contains("strategy")) {
    if (!j.at("strategy").is_string()) invalid("\"strategy\" must be a string");
    r.strategy = j.at("strategy").get<std::string>();
  }
  if (j.contains("sass")) r.sass = tuner::SassSummary::fromJson(j.at("sass"));
  // Provenance and shape: absent from records written before them.
  for (auto [name, field] : {std::pair<const char *, std::string *>{"device", &r.device},
                             {"driver", &r.driver},
                             {"liftccVersion", &r.liftccVersion},
                             {"shape", &r.shape}})
    if (j.contains(name)) {
      if (!j.at(name).is_string()) invalid(std::string("\"") + name + "\" must be a string");
      *field = j.at(name).get<std::string>();
    }
  if (r.outcome == Outcome::Ok) {
    const nlohmann::json &median = j.at("medianNs");
    // Every consumer divides by it (elements per second, explainWin), so a
    // successful time is > 0: a kernel faster than the timer's 1 ns is
    // recorded as 1 ns (variant_evaluation.cpp).
    if (!median.is_number() || !std::isfinite(median.get<double>()) || median.get<double>() <= 0)
      invalid("\"medianNs\" must be a finite positive number, found " + median.dump().substr(0, 60));
    r.medianNs = median.get<double>();
    const nlohmann::json &samples = j.at("samplesNs");
    if (!samples.is_array()) invalid("\"samplesNs\" must be an array");
    for (const nlohmann::json &s : samples) {
      if (!s.is_number_unsigned())
        invalid("\"samplesNs\" must hold non-negative integers, found " + s.dump().substr(0, 60));
      r.samplesNs.push_back(s.get<uint64_t>());
    }
    r.verified = j.value("verified", "");
    if (j.contains("roundsNs")) {
      const nlohmann::json &rounds = j.at("roundsNs");
      if (!rounds.is_array() || rounds.empty()) invalid("\"roundsNs\" must be a non-empty array");
      for (const nlohmann::json &t : rounds) {
        if (!t.is_number() || !std::isfinite(t.get<double>()) || !(t.get<double>() > 0))
          invalid("\"roundsNs\" must hold finite positive numbers, found " + t.dump().substr(0, 60));
        r.roundsNs.push_back(t.get<double>());
      }
    }
  } else {
    if (j.contains("roundsNs")) invalid("\"roundsNs\" on a record that is not ok");
    r.error = j.value("error", "");
    r.buildLog = j.value("buildLog", "");
    if (j.contains("timeoutSeconds")) {
      const nlohmann::json &timeout = j.at("timeoutSeconds");
      if (!timeout.is_number() || !std::isfinite(timeout.get<double>()) || !(timeout.get<double>() > 0))
        invalid("\"timeoutSeconds\" must be a finite positive number, found " + timeout.dump().substr(0, 60));
      r.timeoutSeconds = timeout.get<double>();
    }
  }
  return r;
}

namespace {

std::string failure() { return std::strerror(errno); }

std::string readAll(int fd, const std::string &path) {
  std::string text;
  // The size was checked when the file was opened; a store still growing
  // past the cap (another process appending) is refused rather than read on.
  char buffer[65536];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error("cannot read result store " + path + ": " + failure());
    if (n == 0) return text;
    text.append(buffer, static_cast<size_t>(n));
    if (text.size() > io::kMaxStoreFileBytes)
      throw Error("result store " + path + " grew beyond " + std::to_string(io::kMaxStoreFileBytes) +
                  " bytes while being read");
  }
}

bool writeAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

} // namespace

ResultStore::ResultStore(std::string path, Access access, const std::optional<std::string> &root)
    : path_(std::move(path)) {
  std::filesystem::path p(path_);
  if (access == Access::Read) {
    fd_ = io::openRegularFile(path_, O_RDONLY, io::kMaxStoreFileBytes, "result store");
  } else {
    if (root)
      io::createDirectoriesBelow(*root, p.has_parent_path() ? p.parent_path() : std::filesystem::path(*root));
    else if (p.has_parent_path())
      std::filesystem::create_directories(p.parent_path());
    if (root) io::refuseSymlinksBelow(*root, p);
    // O_NOFOLLOW: a link planted as the store must not redirect appends.
    try {
      fd_ = io::openRegularFile(path_, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW, io::kMaxStoreFileBytes, "result store",
                                0666);
    } catch (const io::FileError &) {
      std::error_code ec;
      if (std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec)))
        throw Error("cannot open result store " + path_ + ": it is a symbolic link");
      throw;
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      int error = errno;
      ::close(fd_);
      fd_ = -1;
      if (error == EWOULDBLOCK)
        throw Error("result store " + path_ +
                    " is in use by another liftc run (explore/tune/merge into "
                    "the same directory); wait for it to finish or use another --out");
      throw Error("cannot lock result store " + path_ + ": " + std::strerror(error));
    }
  }
  try {
    std::string text = readAll(fd_, path_);
    size_t start = 0, lineNumber = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      bool complete = end != std::string::npos;
      std::string line = text.substr(start, complete ? end - start : std::string::npos);
      ++lineNumber;
      size_t next = complete ? end + 1 : text.size();
      if (!line.empty()) {
        try {
          Record r = Record::fromJson(io::parseJsonBounded(line));
          if (auto known = byIdentity_.find(r.identity()); known == byIdentity_.end()) {
            byIdentity_.emplace(r.identity(), records_.size());
            records_.push_back(std::move(r));
          } else if (supersedes(r, records_[known->second])) {
            records_[known->second] = std::move(r); // measured again: a longer timeout, or rounds
          }
          // A complete record whose newline was lost: terminate it before appending.
          if (!complete && access == Access::Append && !writeAll(fd_, "\n"))
            throw Error("failed writing " + path_ + ": " + failure());
        } catch (const std::exception &e) {
          if (complete) {
            throw Error(path_ + ":" + std::to_string(lineNumber) +
                        ": malformed record: " + io::shown(io::withoutJsonLibraryPrefix(e.what()), 200));
          }
          // Only a last line without its newline can have been cut short by a
          // kill; it is re-measured. It is cut off the file, or the next
          // append would continue it into a malformed line.
          if (access == Access::Append && ::ftruncate(fd_, static_cast<off_t>(start)) != 0)
            throw Error("cannot truncate " + path_ + ": " + failure());
        }
      }
      start = next;
    }
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
  if (access == Access::Read) {
    ::close(fd_);
    fd_ = -1;
  }
}

ResultStore::~ResultStore() {
  if (fd_ >= 0) ::close(fd_); // releases the lock
}

bool ResultStore::supersedes(const Record &later, const Record &earlier) {
  return earlier.outcome == Outcome::Timeout || (later.outcome == Outcome::Ok && !later.roundsNs.empty());
}

const Record *ResultStore::find(const std::string &identity) const {
  auto it = byIdentity_.find(identity);
  return it == byIdentity_.end() ? nullptr : &records_[it->second];
}

void ResultStore::append(const Record &record) {
  auto known = byIdentity_.find(record.identity());
  if (known != byIdentity_.end() && !supersedes(record, records_[known->second]))
    throw InternalError("result store already has " + record.identity());
  if (fd_ < 0) throw InternalError("result store " + path_ + " was opened for reading only");
  // Nothing is written that the next run would refuse to read (a medianNs of
  // 0 would make every later load of this store fail).
  try {
    Record::fromJson(record.toJson());
  } catch (const std::exception &e) {
    throw InternalError("result store " + path_ + ": refusing to append an invalid record (" + e.what() + ")");
  }
  // One write() of the whole line: a kill leaves at most that line cut short.
  if (!writeAll(fd_, record.toJson().dump() + "\n")) throw Error("failed writing " + path_ + ": " + failure());
  if (known != byIdentity_.end()) {
    records_[known->second] = record; // a timeout measured again, or a finalist re-timed
    return;
  }
  byIdentity_.emplace(record.identity(), records_.size());
  records_.push_back(record);
}

const Record *ResultStore::findMeasuredOn(const std::string &key, const std::string &programHash,
                                          const std::string &kernelHash, const std::string &device) const {
  if (!device.empty())
    if (const Record *own = find(Record::identityOf(key, programHash, kernelHash, device))) return own;
  return find(Record::identityOf(key, programHash, kernelHash));
}

const Record *ResultStore::best() const { return bestRecord(records_); }

const Record *bestRecord(const std::vector<Record> &records) {
  const Record *best = nullptr;
  const Record *bestInRounds = nullptr;
  for (const Record &r : records) {
    if (r.outcome != Outcome::Ok) continue;
    if (!best || fasterRecord(r, *best)) best = &r;
    if (!r.roundsNs.empty() && (!bestInRounds || fasterRecord(r, *bestInRounds))) bestInRounds = &r;
  }
  return bestInRounds ? bestInRounds : best;
}

bool fasterRecord(const Record &a, const Record &b) {
  return a.medianNs < b.medianNs || (a.medianNs == b.medianNs && a.key < b.key);
}

std::string isoTimestamp() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

namespace {
/// T4's invalidity categories. T4 has none for a failure of the tuner itself,
/// so a liftcc bug is exported as a runtime failure (the store keeps "bug").
std::string t4Invalidity(Outcome outcome) {
  switch (outcome) {
  case Outcome::Ok: return "correct"; // as Kernel Tuner's T4 writer
  case Outcome::Bug: return "runtime";
  case Outcome::Compile:
  case Outcome::Runtime:
  case Outcome::Correctness:
  case Outcome::Constraints:
  case Outcome::Timeout: return outcomeName(outcome);
  }
  return outcomeName(outcome);
}
} // namespace

nlohmann::json exportT4(const std::vector<Record> &records) {
  nlohmann::json results = nlohmann::json::array();
  for (const Record &r : records) {
    nlohmann::json runtimes = nlohmann::json::array();
    for (uint64_t ns : r.samplesNs) runtimes.push_back(double(ns) / 1e6);
    nlohmann::json entry{{"timestamp", r.timestamp},
                         {"configuration", r.configuration},
                         {"objectives", {"time"}},
                         {"times", {{"runtimes", runtimes}}},
                         {"invalidity", t4Invalidity(r.outcome)},
                         {"correctness", r.outcome == Outcome::Correctness ? 0 : 1},
                         {"measurements", nlohmann::json::array()}};
    if (r.outcome == Outcome::Ok)
      entry["measurements"].push_back({{"name", "time"}, {"value", r.medianNs / 1e6}, {"unit", "ms"}});
    results.push_back(entry);
  }
  return {{"schema_version", "1.0.0"}, {"results", results}};
}

size_t mergeStores(const std::vector<std::string> &sources, ResultStore &into) {
  size_t added = 0;
  for (const std::string &source : sources) {
    ResultStore store(source, ResultStore::Access::Read);
    for (const Record &r : store.records())
      if (!into.find(r.identity())) {
        into.append(r);
        ++added;
      }
  }
  return added;
}

} // namespace liftcc::search
