#include "bench/kernel_tuner_peer.h"
#include "bench/reference_stages.h"

#include "bench/reference_kernels.h"
#include "core/io/safe_file.h"

#include "core/io/json.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace liftcc::bench {

namespace {

namespace fs = std::filesystem;

std::string shellQuote(const std::string &s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The peer's stderr, for its last line; a file that cannot be read (or is
/// absurdly long) leaves only the exit status to report.
std::string readStderr(const fs::path &path) {
  try {
    return io::readFileCapped(path.string(), uint64_t(16) << 20, "kernel tuner log");
  } catch (const io::FileError &) {
    return {};
  }
}

/// A private directory for one peer call's files, removed afterwards.
class ScratchDir {
public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "liftcc-kernel-tuner-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("kernel tuner: cannot create a temporary directory");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const fs::path &path() const { return path_; }

private:
  fs::path path_;
};

/// Runs the command; returns its stdout, or throws with the last line of its
/// stderr when it fails.
std::string runCommand(const std::string &command, const fs::path &stderrFile) {
  FILE *pipe = ::popen((command + " 2>" + shellQuote(stderrFile.string())).c_str(), "r");
  if (!pipe) throw std::runtime_error("kernel tuner: cannot start python3");
  std::string out;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  int status = ::pclose(pipe);
  if (status != 0) {
    std::string err = readStderr(stderrFile);
    while (!err.empty() && err.back() == '\n') err.pop_back();
    if (auto pos = err.rfind('\n'); pos != std::string::npos) err = err.substr(pos + 1);
    throw std::runtime_error("kernel tuner: " + (err.empty() ? "exit status " + std::to_string(status) : err));
  }
  return out;
}

PeerRun runKernelTuner(const KernelTunerSetup &setup, const examples::Example &example, std::string_view source,
                       const ocl::DeviceInfo &device, const std::vector<Grid> &inputs, const Sizes &sizes,
                       const ocl::TimingOptions &timing) {
  ScratchDir scratch;
  fs::path kernel = scratch.path() / (example.name + ".cl"), output = scratch.path() / "out.bin";
  std::ofstream(kernel, std::ios::binary) << source;
  std::string command = shellQuote(setup.python) + " " + shellQuote(setup.script) + " --kernel " +
                        shellQuote(kernel.string()) + " --name " + shellQuote(example.name) + " --output " +
                        shellQuote(output.string()) + " --device-name " + shellQuote(device.name) + " --iterations " +
                        std::to_string(std::max(1u, timing.timedRuns));
  std::string sizeList;
  int64_t count = 1;
  for (const std::string &name : example.sizeNames) {
    sizeList += (sizeList.empty() ? "" : ",") + name + "=" + std::to_string(sizes.at(name));
    count *= sizes.at(name);
  }
  command += " --sizes " + shellQuote(sizeList);
  for (size_t i = 0; i < inputs.size(); ++i) {
    fs::path in = scratch.path() / ("in" + std::to_string(i) + ".bin");
    std::ofstream(in, std::ios::binary)
        .write(reinterpret_cast<const char *>(inputs[i].data()),
               static_cast<std::streamsize>(inputs[i].size() * sizeof(float)));
    command += " --input " + shellQuote(in.string());
  }
  // The verification call is a single run at a small size: a reduced space
  // is enough to check that tuned configurations compute the right thing.
  if (setup.quick || timing.timedRuns <= 1) command += " --quick";

  std::string out = runCommand(command, scratch.path() / "stderr.txt");
  nlohmann::json result;
  try {
    result = nlohmann::json::parse(out);
  } catch (const nlohmann::json::exception &) {
    throw std::runtime_error("kernel tuner: unreadable result: " + out.substr(0, 200));
  }
  // Capped at the expected size: a wrong output is refused, never read on.
  std::string bytes = io::readFileCapped(output.string(), uint64_t(count) * sizeof(float), "kernel tuner output");
  if (bytes.size() != static_cast<size_t>(count) * sizeof(float))
    throw std::runtime_error("kernel tuner: output has " + std::to_string(bytes.size()) + " bytes, expected " +
                             std::to_string(count * 4));
  PeerRun run;
  run.output.resize(static_cast<size_t>(count));
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char *>(run.output.data()));
  run.medianNs = result.at("bestNs").get<double>();
  run.tuningSeconds = result.at("tuningSeconds").get<double>();
  std::string config;
  for (const auto &[key, value] : result.at("best").items())
    config += (config.empty() ? "" : " ") + key + "=" + value.dump();
  run.detail = config + ", best of " + std::to_string(result.at("configurations").get<int>()) + " configurations";
  return run;
}

} // namespace

std::optional<KernelTunerSetup> findKernelTuner(std::string &whyNot) {
  KernelTunerSetup setup;
  const char *script = std::getenv("LIFTCC_KERNEL_TUNER_PEER");
  setup.script = script && *script ? script : LIFTCC_KERNEL_TUNER_PEER_SCRIPT;
  if (!fs::exists(setup.script)) {
    whyNot = "no " + setup.script + " (set LIFTCC_KERNEL_TUNER_PEER)";
    return std::nullopt;
  }
  std::string probe = shellQuote(setup.python) + " -c 'import kernel_tuner, pyopencl' >/dev/null 2>&1";
  if (std::system(probe.c_str()) != 0) {
    whyNot = "python3 cannot import kernel_tuner and pyopencl (pip install kernel_tuner pyopencl)";
    return std::nullopt;
  }
  return setup;
}

std::optional<Peer> kernelTunerPeer(const KernelTunerSetup &setup, const examples::Example &example,
                                    const ocl::DeviceInfo &device) {
  // Kernel Tuner tunes one kernel with one output: not the multi-stage references.
  if (referenceSchedule(example.name)) return std::nullopt;
  std::optional<ReferenceKernel> reference = findReferenceKernel(example.name, codegen::Target::OpenCL);
  if (!reference || example.sizeNames.empty() || example.sizeNames.size() > 3) return std::nullopt;
  Peer peer;
  peer.variant = "kernel tuner";
  peer.timedOnce = true;
  peer.run = [setup, example, source = reference->source, device](const std::vector<Grid> &inputs, const Sizes &sizes,
                                                                  const ocl::TimingOptions &timing) {
    return runKernelTuner(setup, example, source, device, inputs, sizes, timing);
  };
  return peer;
}

} // namespace liftcc::bench
