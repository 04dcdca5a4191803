#include "bench/report.h"

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

/// The cells of one row, in column order; empty where not measured.
std::vector<std::string> cells(const ExampleReport &e, const BenchRow &r) {
  bool ok = r.status == Status::Ok;
  return {e.example,
          r.variant,
          ok ? fixed(r.medianNs / 1e6, 3) : "",
          ok ? fixed(r.elementsPerSecond / 1e9, 3) : "",
          ok && r.vsReference ? fixed(*r.vsReference, 2) : "",
          ok ? fixed(r.vsRoofline, 2) : "",
          r.tuningSeconds ? fixed(*r.tuningSeconds, 1) : "",
          statusName(r.status) + (r.message.empty() ? "" : ": " + r.message) + (r.detail.empty() ? "" : " (" + r.detail + ")")};
}

const std::vector<std::string> kHeader{"example", "variant", "median ms", "G elem/s", "vs hand-written", "vs roofline",
                                       "tuning s", "status"};

std::string summary(const BenchReport &report) {
  std::ostringstream s;
  s << "device: " << report.device << "\n"
    << "copy bandwidth: " << fixed(report.bandwidth.bytesPerSecond / 1e9, 2) << " GB/s (median of "
    << report.bandwidth.timing.samplesNs.size() << ", " << report.bandwidth.elements * sizeof(float) / (1 << 20)
    << " MiB per buffer)\n";
  for (const ExampleReport &e : report.examples)
    s << e.example << ": " << e.sizes << ", " << fixed(e.bytesPerElement, 0) << " B/element, roofline "
      << fixed(e.rooflineElementsPerSecond / 1e9, 3) << " G elem/s; verified at " << e.verifiedAt << "\n";
  if (report.explored > 0)
    s << "explored on the spot: " << report.explored << " example(s) in " << fixed(report.exploreSeconds, 1) << " s\n";
  s << "measurements: " << fixed(report.seconds, 1) << " s; total time: " << fixed(report.seconds + report.exploreSeconds, 1)
    << " s\n";
  return s.str();
}

std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

} // namespace

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
      if (i + 1 == row.size()) out << row[i];
      else out << (number ? std::right : std::left) << std::setw(static_cast<int>(width[i])) << row[i] << "  ";
    }
    out << "\n";
  }
  out << std::left;
}

void writeCsv(std::ostream &out, const BenchReport &report) {
  out << "device,example,sizes,variant,status,median_ms,elements_per_s,vs_hand_written,vs_roofline,roofline_elements_per_s,"
         "copy_bytes_per_s,message,tuning_s,detail\n";
  for (const ExampleReport &e : report.examples)
    for (const BenchRow &r : e.rows) {
      bool ok = r.status == Status::Ok;
      out << csvField(report.device) << ',' << e.example << ',' << csvField(e.sizes) << ',' << csvField(r.variant) << ','
          << statusName(r.status) << ',' << (ok ? fixed(r.medianNs / 1e6, 6) : "") << ','
          << (ok ? fixed(r.elementsPerSecond, 0) : "") << ',' << (ok && r.vsReference ? fixed(*r.vsReference, 4) : "")
          << ',' << (ok ? fixed(r.vsRoofline, 4) : "") << ',' << fixed(e.rooflineElementsPerSecond, 0) << ','
          << fixed(report.bandwidth.bytesPerSecond, 0) << ',' << csvField(r.message) << ','
          << (r.tuningSeconds ? fixed(*r.tuningSeconds, 3) : "") << ',' << csvField(r.detail) << "\n";
    }
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

} // namespace liftcc::bench
