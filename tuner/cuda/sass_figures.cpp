#include "tuner/cuda/sass_figures.h"

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace liftcc::cuda {

namespace {

/// The integer just before `unit` in `line` ("12 bytes spill stores" for
/// " bytes spill stores"), or nullopt when `unit` is absent or no digits
/// precede it. (std::regex is avoided: GCC 12 reports maybe-uninitialized
/// inside <regex> under the sanitizers.)
std::optional<int64_t> numberBefore(std::string_view line, std::string_view unit) {
  size_t at = line.find(unit);
  if (at == std::string_view::npos) return std::nullopt;
  size_t begin = at;
  while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9') --begin;
  if (begin == at || at - begin > 15) return std::nullopt;
  return std::stoll(std::string(line.substr(begin, at - begin)));
}

/// The text between `open` and the next `close` after it, or nullopt.
std::optional<std::string> between(std::string_view line, std::string_view open, std::string_view close,
                                   size_t from = 0) {
  size_t begin = line.find(open, from);
  if (begin == std::string_view::npos) return std::nullopt;
  begin += open.size();
  size_t end = line.find(close, begin);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(line.substr(begin, end - begin));
}

} // namespace

std::vector<SassFigures> parsePtxasReport(std::string_view report) {
  // ptxas -v writes, per entry function:
  //   ptxas info    : Compiling entry function 'NAME' for 'sm_90'
  //   ptxas info    : Function properties for NAME
  //   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  //   ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem, 384 bytes cmem[0]
  const std::string_view entry = "Compiling entry function '";
  std::vector<SassFigures> figures;
  std::istringstream in{std::string(report)};
  for (std::string line; std::getline(in, line);) {
    if (size_t at = line.find(entry); at != std::string::npos) {
      std::optional<std::string> name = between(line, "'", "'", at + entry.size() - 1);
      std::optional<std::string> arch =
          name ? between(line, " for '", "'", at + entry.size() + name->size()) : std::nullopt;
      if (name && arch) figures.push_back({*name, *arch});
      continue;
    }
    if (figures.empty()) continue; // e.g. "0 bytes gmem" before the first function
    SassFigures &f = figures.back();
    if (line.find("Used ") != std::string::npos) {
      if (auto n = numberBefore(line, " registers")) f.registers = static_cast<int>(*n);
      if (auto n = numberBefore(line, " barriers")) f.barriers = static_cast<int>(*n);
      if (auto n = numberBefore(line, " bytes smem")) f.sharedBytes = *n;
    }
    if (auto n = numberBefore(line, " bytes stack frame")) f.stackFrameBytes = *n;
    if (auto n = numberBefore(line, " bytes spill stores")) f.spillStoreBytes = *n;
    if (auto n = numberBefore(line, " bytes spill loads")) f.spillLoadBytes = *n;
  }
  return figures;
}

std::vector<SassFigures> sassFigures(std::string_view source, NvrtcOptions options, std::string_view programName) {
  if (options.arch.rfind("sm_", 0) != 0)
    throw std::invalid_argument("SASS figures need a real architecture (sm_XY), found '" + options.arch + "'");
  options.extraOptions.push_back(kPtxasReportOption);
  return parsePtxasReport(compileToPtx(source, options, programName).log);
}

std::optional<tuner::SassSummary> summarize(const std::vector<SassFigures> &figures) {
  if (figures.empty()) return std::nullopt;
  tuner::SassSummary s;
  s.arch = figures.front().arch;
  for (const SassFigures &f : figures) {
    s.registers = std::max<int64_t>(s.registers, f.registers);
    s.spillStoreBytes = std::max(s.spillStoreBytes, f.spillStoreBytes);
    s.spillLoadBytes = std::max(s.spillLoadBytes, f.spillLoadBytes);
    s.sharedBytes = std::max(s.sharedBytes, f.sharedBytes);
    s.barriers = std::max<int64_t>(s.barriers, f.barriers);
    s.stackBytes = std::max(s.stackBytes, f.stackFrameBytes);
  }
  return s;
}

} // namespace liftcc::cuda
