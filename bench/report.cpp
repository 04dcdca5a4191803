#include "bench/report.h"

#include "tuner/copy_roofline.h"

#include "core/io/json.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace liftcc::bench {

namespace {

std::string fixed(double value, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << value;
  return s.str();
}

/// "4.812-5.310": the fastest and slowest round median, empty for one round.
std::string roundRange(const BenchRow &r) {
  if (r.roundMediansNs.size() < 2) return "";
  auto [lo, hi] = std::minmax_element(r.roundMediansNs.begin(), r.roundMediansNs.end());
  return fixed(*lo / 1e6, 3) + "-" + fixed(*hi / 1e6, 3);
}

/// The round medians in ms, in timing order, separated by ';'.
std::string roundList(const BenchRow &r) {
  std::string list;
  for (double ns : r.roundMediansNs) list += (list.empty() ? "" : ";") + fixed(ns / 1e6, 6);
  return list;
}

/// "0.85", or "0.85 (0.80-0.90)" over several rounds; "above roof" when the
/// median is above 1.0 (a measurement problem, never a figure).
std::string roofCell(const BenchRow &r) {
  const search::RoofFraction &f = r.roofFraction;
  if (f.aboveRoof) return "above roof";
  if (f.perRound.empty()) return "";
  std::string cell = fixed(f.median, 2);
  if (f.perRound.size() > 1) cell += " (" + fixed(f.low, 2) + "-" + fixed(f.high, 2) + ")";
  return cell;
}

/// The row's fraction of each round's roof, separated by ';'.
std::string roofRoundList(const BenchRow &r) {
  std::string list;
  for (double f : r.roofFraction.perRound) list += (list.empty() ? "" : ";") + fixed(f, 4);
  return list;
}

/// The cells of one row, in column order; empty where not measured.
std::vector<std::string> cells(const ExampleReport &e, const BenchRow &r) {
  bool ok = r.status == Status::Ok;
  return {e.example,
          r.variant,
          ok ? fixed(r.medianNs / 1e6, 3) : "",
          ok ? roundRange(r) : "",
          ok ? fixed(r.elementsPerSecond / 1e9, 3) : "",
          ok && r.vsReference ? fixed(*r.vsReference, 2) : "",
          ok ? roofCell(r) : "",
          r.tuningSeconds ? fixed(*r.tuningSeconds, 1) : "",
          statusName(r.status) + (r.message.empty() ? "" : ": " + r.message) +
              (r.detail.empty() ? "" : " (" + r.detail + ")")};
}

const std::vector<std::string> kHeader{"example",         "variant",     "median ms", "rounds ms", "G elem/s",
                                       "vs hand-written", "vs roofline", "tuning s",  "status"};

/// "float8 wg=256: 61.20 GB/s (roof)", "guarded wg=1024: failed: ...".
std::string copyLine(const tuner::CopyBandwidth &bandwidth, size_t i) {
  const tuner::CopyCandidate &c = bandwidth.candidates[i];
  if (!c.error.empty()) return c.label() + ": failed: " + c.error.substr(0, c.error.find('\n'));
  return c.label() + ": " + fixed(c.bytesPerSecond / 1e9, 2) + " GB/s" + (i == bandwidth.roof ? " (roof)" : "");
}

std::string roofLabel(const tuner::CopyBandwidth &bandwidth) {
  return bandwidth.candidates.empty() ? std::string("?") : bandwidth.candidates[bandwidth.roof].label();
}

std::string summary(const BenchReport &report) {
  std::ostringstream s;
  s << "device: " << report.device << "\n";
  for (const tuner::CopyBandwidth &bw : report.bandwidths) {
    s << "copy bandwidth (roof) at " << bufferSizeText(bw.bufferBytes)
      << " per buffer: " << fixed(bw.bytesPerSecond / 1e9, 2) << " GB/s, " << roofLabel(bw) << ", the best of "
      << bw.candidates.size() << " copies (median of " << bw.runs << " each, read + write bytes)\n";
    for (size_t i = 0; i < bw.candidates.size(); ++i) s << "  copy " << copyLine(bw, i) << "\n";
    if (bw.hostMemcpyBytesPerSecond) {
      s << "  host memcpy: " << fixed(*bw.hostMemcpyBytesPerSecond / 1e9, 2) << " GB/s";
      if (auto note = tuner::hostMemcpyNote(bw)) s << "; NOTE: " << *note;
      s << "\n";
    }
  }
  for (const ExampleReport &e : report.examples)
    s << e.example << ": " << e.sizes << ", " << fixed(e.bytesPerElement, 0) << " B/element, roofline "
      << fixed(e.rooflineElementsPerSecond / 1e9, 3) << " G elem/s (the copy of "
      << bufferSizeText(report.bandwidths.at(e.roof).bufferBytes) << " buffers); verified at " << e.verifiedAt << "\n";
  if (report.explored > 0)
    s << "explored on the spot: " << report.explored << " example(s) in " << fixed(report.exploreSeconds, 1) << " s\n";
  if (report.rounds > 1)
    s << "each row: the median of its " << report.rounds
      << " round medians (the rounds time every row and the copy roof in turn); vs roofline: the median over rounds "
         "of the row vs that round's copy (lowest-highest)\n";
  s << "measurements: " << fixed(report.seconds, 1)
    << " s; total time: " << fixed(report.seconds + report.exploreSeconds, 1) << " s\n";
  return s.str();
}

std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

/// The copy candidates and the host memcpy as rows of kind "copy" (example
/// "(copy)", the buffer size as sizes, the figure in copy_bytes_per_s, "roof"
/// in detail for the roof); bench/plot.py skips them.
void writeCopyCsvRows(std::ostream &out, const BenchReport &report, const tuner::CopyBandwidth &bw) {
  const std::string sizes = std::to_string(bw.bufferBytes) + " B";
  auto row = [&](const std::string &variant, bool ok, double bytesPerSecond, const std::string &message,
                 const std::string &detail) {
    out << csvField(report.device) << ",(copy)," << csvField(sizes) << ',' << csvField(variant) << ','
        << (ok ? "ok" : "failed") << ",,,,,,,," << (ok ? fixed(bytesPerSecond, 0) : "") << ',' << csvField(message)
        << ",," << csvField(detail) << ",copy\n";
  };
  for (size_t i = 0; i < bw.candidates.size(); ++i) {
    const tuner::CopyCandidate &c = bw.candidates[i];
    row(c.label(), c.error.empty(), c.bytesPerSecond, c.error, i == bw.roof ? "roof" : "");
  }
  if (bw.hostMemcpyBytesPerSecond)
    row("host memcpy", true, *bw.hostMemcpyBytesPerSecond, "", tuner::hostMemcpyNote(bw).value_or(""));
}

} // namespace

std::string bufferSizeText(size_t bytes) {
  constexpr size_t kMiB = size_t{1} << 20, kKiB = size_t{1} << 10;
  if (bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= kMiB) return fixed(double(bytes) / double(kMiB), 1) + " MiB";
  return fixed(double(bytes) / double(kKiB), 0) + " KiB";
}

void printTable(std::ostream &out, const BenchReport &report) {
  std::vector<std::vector<std::string>> rows{kHeader};
  for (const ExampleReport &e : report.examples)
    for (const BenchRow &r : e.rows) rows.push_back(cells(e, r));
  std::vector<size_t> width(kHeader.size(), 0);
  for (const auto &row : rows)
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  out << summary(report) << "\n";
  for (const auto &row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      // Text columns left-aligned, numbers right-aligned; the last column unpadded.
      bool number = i >= 2 && i + 1 < row.size();
      if (i + 1 == row.size())
        out << row[i];
      else
        out << (number ? std::right : std::left) << std::setw(static_cast<int>(width[i])) << row[i] << "  ";
    }
    out << "\n";
  }
  out << std::left;
}

void writeCsv(std::ostream &out, const BenchReport &report) {
  out << "device,example,sizes,variant,status,median_ms,round_medians_ms,elements_per_s,vs_hand_written,vs_roofline,"
         "vs_roofline_rounds,roofline_elements_"
         "per_s,"
         "copy_bytes_per_s,message,tuning_s,detail,row_kind\n";
  for (const ExampleReport &e : report.examples)
    for (const BenchRow &r : e.rows) {
      bool ok = r.status == Status::Ok;
      out << csvField(report.device) << ',' << e.example << ',' << csvField(e.sizes) << ',' << csvField(r.variant)
          << ',' << statusName(r.status) << ',' << (ok ? fixed(r.medianNs / 1e6, 6) : "") << ','
          << (ok ? roundList(r) : "") << ',' << (ok ? fixed(r.elementsPerSecond, 0) : "") << ','
          << (ok && r.vsReference ? fixed(*r.vsReference, 4) : "") << ','
          << (ok && !r.roofFraction.aboveRoof ? fixed(r.vsRoofline, 4) : "") << ',' << (ok ? roofRoundList(r) : "")
          << ',' << fixed(e.rooflineElementsPerSecond, 0) << ','
          << fixed(report.bandwidths.at(e.roof).bytesPerSecond, 0) << ',' << csvField(r.message) << ','
          << (r.tuningSeconds ? fixed(*r.tuningSeconds, 3) : "") << ',' << csvField(r.detail) << ",variant\n";
    }
  for (const tuner::CopyBandwidth &bw : report.bandwidths) writeCopyCsvRows(out, report, bw);
}

void writeMarkdown(std::ostream &out, const BenchReport &report) {
  std::istringstream lines(summary(report));
  for (std::string line; std::getline(lines, line);) out << "- " << line << "\n";
  out << "\n|";
  for (const std::string &h : kHeader) out << ' ' << h << " |";
  out << "\n|";
  for (size_t i = 0; i < kHeader.size(); ++i) out << (i >= 2 && i + 1 < kHeader.size() ? "---:|" : "---|");
  out << "\n";
  for (const ExampleReport &e : report.examples)
    for (const BenchRow &r : e.rows) {
      out << "|";
      for (std::string cell : cells(e, r)) {
        std::replace(cell.begin(), cell.end(), '|', '/');
        out << ' ' << cell << " |";
      }
      out << "\n";
    }
}

namespace {

nlohmann::json bandwidthJson(const tuner::CopyBandwidth &bw) {
  nlohmann::json copies = nlohmann::json::array();
  for (size_t i = 0; i < bw.candidates.size(); ++i) {
    const tuner::CopyCandidate &c = bw.candidates[i];
    nlohmann::json j{{"name", c.name}, {"workGroup", c.workGroup}, {"label", c.label()}, {"roof", i == bw.roof}};
    if (c.error.empty())
      j["bytesPerSecond"] = c.bytesPerSecond;
    else
      j["error"] = c.error;
    copies.push_back(std::move(j));
  }
  nlohmann::json bandwidth{{"bytesPerSecond", bw.bytesPerSecond},
                           {"roof", bw.candidates.empty() ? "" : roofLabel(bw)},
                           {"bufferBytes", bw.bufferBytes},
                           {"runs", bw.runs},
                           {"candidates", copies}};
  if (bw.hostMemcpyBytesPerSecond) {
    bandwidth["hostMemcpyBytesPerSecond"] = *bw.hostMemcpyBytesPerSecond;
    if (auto note = tuner::hostMemcpyNote(bw)) bandwidth["hostMemcpyNote"] = *note;
  }
  return bandwidth;
}

} // namespace

void writeJson(std::ostream &out, const BenchReport &report) {
  nlohmann::json bandwidths = nlohmann::json::array();
  for (const tuner::CopyBandwidth &bw : report.bandwidths) bandwidths.push_back(bandwidthJson(bw));
  nlohmann::json examples = nlohmann::json::array();
  for (const ExampleReport &e : report.examples) {
    nlohmann::json rows = nlohmann::json::array();
    for (const BenchRow &r : e.rows) {
      nlohmann::json row{{"variant", r.variant}, {"status", statusName(r.status)}};
      if (!r.message.empty()) row["message"] = r.message;
      if (r.status == Status::Ok) {
        row["medianNs"] = r.medianNs;
        row["roundMediansNs"] = r.roundMediansNs;
        row["elementsPerSecond"] = r.elementsPerSecond;
        if (r.roofFraction.aboveRoof)
          row["roofProblem"] = "the median over rounds of this row vs the round's copy is above 1.0: a measurement "
                               "problem, not a fraction of the roof";
        else
          row["vsRoofline"] = r.vsRoofline;
        row["vsRooflineRounds"] = r.roofFraction.perRound;
        if (r.vsReference) row["vsHandWritten"] = *r.vsReference;
      }
      if (r.tuningSeconds) row["tuningSeconds"] = *r.tuningSeconds;
      if (!r.detail.empty()) row["detail"] = r.detail;
      rows.push_back(std::move(row));
    }
    examples.push_back({{"example", e.example},
                        {"sizes", e.sizes},
                        {"verifiedAt", e.verifiedAt},
                        {"outputElements", e.outputElements},
                        {"bytesPerElement", e.bytesPerElement},
                        {"roofBufferBytes", report.bandwidths.at(e.roof).bufferBytes},
                        {"rooflineElementsPerSecond", e.rooflineElementsPerSecond},
                        {"roundRoofBytesPerSecond", e.roundRoofBytesPerSecond},
                        {"rows", rows}});
  }
  nlohmann::json j{{"device", report.device},    {"copyBandwidths", bandwidths},
                   {"examples", examples},       {"rounds", report.rounds},
                   {"seconds", report.seconds},  {"exploreSeconds", report.exploreSeconds},
                   {"explored", report.explored}};
  out << j.dump(2) << "\n";
}

} // namespace liftcc::bench
