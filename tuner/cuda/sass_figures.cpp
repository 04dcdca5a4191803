#include "tuner/cuda/sass_figures.h"

#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace liftcc::cuda {

namespace {

/// The number before `unit` in `line` ("12 bytes spill stores"), or nullopt.
std::optional<int64_t> numberBefore(const std::string &line, const std::regex &pattern) {
  std::smatch m;
  if (!std::regex_search(line, m, pattern)) return std::nullopt;
  return std::stoll(m[1].str());
}

} // namespace

std::vector<SassFigures> parsePtxasReport(std::string_view report) {
  // ptxas -v writes, per entry function:
  //   ptxas info    : Compiling entry function 'NAME' for 'sm_90'
  //   ptxas info    : Function properties for NAME
  //   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  //   ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem, 384 bytes cmem[0]
  static const std::regex entry(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const std::regex registers(R"(Used (\d+) registers)");
  static const std::regex barriers(R"(used (\d+) barriers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  static const std::regex stack(R"((\d+) bytes stack frame)");
  static const std::regex spillStores(R"((\d+) bytes spill stores)");
  static const std::regex spillLoads(R"((\d+) bytes spill loads)");
  std::vector<SassFigures> figures;
  std::istringstream in{std::string(report)};
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      figures.push_back({m[1].str(), m[2].str()});
      continue;
    }
    if (figures.empty()) continue; // e.g. "0 bytes gmem" before the first function
    SassFigures &f = figures.back();
    if (auto n = numberBefore(line, registers)) f.registers = static_cast<int>(*n);
    if (auto n = numberBefore(line, barriers)) f.barriers = static_cast<int>(*n);
    if (auto n = numberBefore(line, smem)) f.sharedBytes = *n;
    if (auto n = numberBefore(line, stack)) f.stackFrameBytes = *n;
    if (auto n = numberBefore(line, spillStores)) f.spillStoreBytes = *n;
    if (auto n = numberBefore(line, spillLoads)) f.spillLoadBytes = *n;
  }
  return figures;
}

std::vector<SassFigures> sassFigures(std::string_view source, NvrtcOptions options, std::string_view programName) {
  if (options.arch.rfind("sm_", 0) != 0)
    throw std::invalid_argument("SASS figures need a real architecture (sm_XY), found '" + options.arch + "'");
  options.extraOptions.push_back("--ptxas-options=-v");
  return parsePtxasReport(compileToPtx(source, options, programName).log);
}

} // namespace liftcc::cuda
