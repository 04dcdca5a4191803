#include "tuner/cuda/nvrtc_compiler.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <sstream>

#if defined(LIFTCC_HAVE_NVRTC) && LIFTCC_HAVE_NVRTC
#include <nvrtc.h>
#define LIFTCC_NVRTC_ENABLED 1
#else
#define LIFTCC_NVRTC_ENABLED 0
#endif

namespace liftcc::cuda {
namespace {

#if LIFTCC_NVRTC_ENABLED
// NVRTC's log size counts a terminating NUL and the log ends in newlines;
// neither is useful in an exception message.
std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  return s;
}

// Diagnostics look like "k.cu(3): warning #177-D: ..." or, for options,
// "nvrtc: warning : ...".
std::vector<std::string> warningLines(const std::string &log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.find(": warning") != std::string::npos) lines.push_back(line);
  return lines;
}

// The numeric part of "sm_90", "sm_90a" or "compute_90"; -1 if malformed.
int archNumber(const std::string &arch) {
  std::size_t pos = arch.find('_');
  if (pos == std::string::npos || pos + 1 >= arch.size()) return -1;
  int value = 0;
  bool any = false;
  for (std::size_t i = pos + 1; i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])); ++i) {
    value = value * 10 + (arch[i] - '0');
    any = true;
  }
  return any ? value : -1;
}

struct ProgramDeleter {
  void operator()(nvrtcProgram p) const { nvrtcDestroyProgram(&p); }
};
using Program = std::unique_ptr<_nvrtcProgram, ProgramDeleter>;

void checkNvrtc(nvrtcResult rc, const char *what) {
  if (rc != NVRTC_SUCCESS) throw NvrtcError(std::string(what) + " failed: " + nvrtcGetErrorString(rc), {});
}

std::string programLog(nvrtcProgram program) {
  std::size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size == 0) return {};
  std::string log(size, '\0');
  if (nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return {};
  return trimmed(std::move(log));
}
#else
constexpr const char *kWithoutNvrtc = "NVRTC not available: liftcc was built without it (the CUDA toolkit was "
                                      "not found or LIFTCC_NVRTC=OFF), so CUDA kernels cannot be compiled";
#endif

} // namespace

bool nvrtcAvailable() noexcept { return LIFTCC_NVRTC_ENABLED != 0; }

std::string nvrtcVersion() {
#if LIFTCC_NVRTC_ENABLED
  int major = 0, minor = 0;
  if (::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
#else
  return "built without NVRTC";
#endif
}

std::vector<std::string> nvrtcSupportedArchs() {
  std::vector<std::string> names;
#if LIFTCC_NVRTC_ENABLED
  int count = 0;
  if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) return names;
  std::vector<int> archs(static_cast<std::size_t>(count));
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return names;
  for (int a : archs) names.push_back("sm_" + std::to_string(a));
#endif
  return names;
}

std::vector<std::string> nvrtcCommandLine(const NvrtcOptions &options) {
  std::vector<std::string> args;
  args.push_back("--gpu-architecture=" + options.arch);
  args.push_back("--std=" + options.cppStandard);
  if (options.defaultDevice) args.push_back("--device-as-default-execution-space");
  if (options.restrictPointers) args.push_back("--restrict");
  if (options.fastMath) args.push_back("--use_fast_math");
  if (options.lineInfo) args.push_back("--generate-line-info");
  args.insert(args.end(), options.extraOptions.begin(), options.extraOptions.end());
  return args;
}

PtxResult compileToPtx(std::string_view source, const NvrtcOptions &options, std::string_view programName) {
#if LIFTCC_NVRTC_ENABLED
  // Check the architecture up front: NVRTC's own complaint ("invalid value for
  // --gpu-architecture") does not say which values would have been valid.
  std::vector<std::string> supported = nvrtcSupportedArchs();
  const int wanted = archNumber(options.arch);
  const bool known =
      std::any_of(supported.begin(), supported.end(), [&](const std::string &s) { return archNumber(s) == wanted; });
  if (wanted < 0 || !known) {
    std::string list;
    for (const std::string &s : supported) list += (list.empty() ? "" : " ") + s;
    throw NvrtcError("NVRTC " + nvrtcVersion() + " cannot target '" + options.arch + "'; supported: " + list, {});
  }

  PtxResult result;
  result.options = nvrtcCommandLine(options);

  // nvrtcCreateProgram needs NUL-terminated strings; string_views need not be.
  const std::string src(source);
  const std::string name(programName);
  nvrtcProgram raw = nullptr;
  checkNvrtc(nvrtcCreateProgram(&raw, src.c_str(), name.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
  Program program(raw);

  std::vector<const char *> argv;
  for (const std::string &o : result.options) argv.push_back(o.c_str());
  const nvrtcResult rc = nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
  result.log = programLog(program.get());
  result.warnings = warningLines(result.log);

  if (rc != NVRTC_SUCCESS) {
    throw NvrtcError("NVRTC failed to compile " + name + " for " + options.arch + " (" + nvrtcGetErrorString(rc) +
                         "):\n" + result.log,
                     result.log);
  }
  if (options.warningsAsErrors && !result.warnings.empty()) {
    throw NvrtcError("NVRTC reported " + std::to_string(result.warnings.size()) + " warning(s) compiling " + name +
                         " and warnings are treated as errors:\n" + result.log,
                     result.log);
  }

  std::size_t size = 0;
  checkNvrtc(nvrtcGetPTXSize(program.get(), &size), "nvrtcGetPTXSize");
  result.ptx.assign(size, '\0');
  checkNvrtc(nvrtcGetPTX(program.get(), result.ptx.data()), "nvrtcGetPTX");
  // The size includes the terminating NUL, which PTX consumers add themselves.
  while (!result.ptx.empty() && result.ptx.back() == '\0') result.ptx.pop_back();
  return result;
#else
  (void)source;
  (void)options;
  (void)programName;
  throw NvrtcError(kWithoutNvrtc, {});
#endif
}

PtxResult compileToPtx(std::string_view source, std::string_view programName, std::string arch,
                       std::vector<std::string> extraOptions) {
  NvrtcOptions options;
  options.arch = std::move(arch);
  options.extraOptions = std::move(extraOptions);
  return compileToPtx(source, options, programName);
}

} // namespace liftcc::cuda
