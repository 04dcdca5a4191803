#include "tuner/result_store.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace liftcc::tuner {

std::string outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::Ok: return "ok";
  case Outcome::Compile: return "compile";
  case Outcome::Runtime: return "runtime";
  case Outcome::Correctness: return "correctness";
  case Outcome::Constraints: return "constraints";
  case Outcome::Bug: return "bug";
  }
  return "?";
}

std::optional<Outcome> parseOutcome(const std::string &name) {
  for (Outcome o : {Outcome::Ok, Outcome::Compile, Outcome::Runtime, Outcome::Correctness, Outcome::Constraints, Outcome::Bug})
    if (outcomeName(o) == name) return o;
  return std::nullopt;
}

nlohmann::json Record::toJson() const {
  nlohmann::json j{{"key", key}, {"configuration", configuration}, {"outcome", outcomeName(outcome)}, {"timestamp", timestamp}};
  if (outcome == Outcome::Ok) {
    j["medianNs"] = medianNs;
    j["samplesNs"] = samplesNs;
  } else {
    j["error"] = error;
  }
  return j;
}

Record Record::fromJson(const nlohmann::json &j) {
  Record r;
  r.key = j.at("key").get<std::string>();
  r.configuration = j.at("configuration");
  auto outcome = parseOutcome(j.at("outcome").get<std::string>());
  if (!outcome) throw std::invalid_argument("unknown outcome " + j.at("outcome").dump());
  r.outcome = *outcome;
  r.timestamp = j.value("timestamp", "");
  if (r.outcome == Outcome::Ok) {
    r.medianNs = j.at("medianNs").get<double>();
    r.samplesNs = j.at("samplesNs").get<std::vector<uint64_t>>();
  } else {
    r.error = j.value("error", "");
  }
  return r;
}

ResultStore::ResultStore(std::string path) : path_(std::move(path)) {
  std::filesystem::path p(path_);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ifstream in(path_);
  std::string line;
  std::vector<std::string> lines;
  std::vector<std::streamoff> lineStarts; // byte offset of each line, to cut a truncated tail
  std::streamoff offset = 0;
  while (std::getline(in, line)) {
    lineStarts.push_back(offset);
    offset += static_cast<std::streamoff>(line.size()) + 1;
    lines.push_back(line);
  }
  in.close();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    try {
      Record r = Record::fromJson(nlohmann::json::parse(lines[i]));
      if (byKey_.emplace(r.key, records_.size()).second) records_.push_back(std::move(r));
    } catch (const std::exception &e) {
      if (i + 1 < lines.size())
        throw std::runtime_error(path_ + ":" + std::to_string(i + 1) + ": malformed record: " + e.what());
      // Only the last line can be cut short by a kill; it is re-measured.
      // Cut it off the file, or the next append would continue it and turn
      // it into a malformed line in the middle of the store.
      std::filesystem::resize_file(path_, static_cast<std::uintmax_t>(lineStarts[i]));
      return;
    }
  }
  // A complete last record without its newline (killed between the two
  // writes): terminate it before anything is appended.
  if (!lines.empty() && std::filesystem::file_size(path_) < static_cast<std::uintmax_t>(offset))
    std::ofstream(path_, std::ios::app) << "\n";
}

const Record *ResultStore::find(const std::string &key) const {
  auto it = byKey_.find(key);
  return it == byKey_.end() ? nullptr : &records_[it->second];
}

void ResultStore::append(const Record &record) {
  if (byKey_.count(record.key)) throw std::logic_error("result store already has " + record.key);
  std::ofstream out(path_, std::ios::app);
  if (!out) throw std::runtime_error("cannot append to " + path_);
  out << record.toJson().dump() << "\n";
  out.flush();
  if (!out) throw std::runtime_error("failed writing " + path_);
  byKey_.emplace(record.key, records_.size());
  records_.push_back(record);
}

const Record *ResultStore::best() const {
  const Record *best = nullptr;
  for (const Record &r : records_)
    if (r.outcome == Outcome::Ok && (!best || r.medianNs < best->medianNs)) best = &r;
  return best;
}

std::string isoTimestamp() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

nlohmann::json exportT4(const std::vector<Record> &records) {
  nlohmann::json results = nlohmann::json::array();
  for (const Record &r : records) {
    nlohmann::json runtimes = nlohmann::json::array();
    for (uint64_t ns : r.samplesNs) runtimes.push_back(double(ns) / 1e6);
    nlohmann::json entry{{"timestamp", r.timestamp},
                         {"configuration", r.configuration},
                         {"objectives", {"time"}},
                         {"times", {{"runtimes", runtimes}}},
                         // Kernel Tuner's T4 writer uses "correct" for valid results.
                         {"invalidity", r.outcome == Outcome::Ok ? std::string("correct") : outcomeName(r.outcome)},
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
    ResultStore store(source);
    for (const Record &r : store.records())
      if (!into.find(r.key)) {
        into.append(r);
        ++added;
      }
  }
  return added;
}

} // namespace liftcc::tuner
