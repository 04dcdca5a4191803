#include "explore/best_kernels.h"

#include "core/error.h"
#include "core/io/safe_file.h"
#include "explore/best_kernel_trust.h"
#include "explore/explorer.h"
#include "explore/record_identity.h"
#include "explore/strategy_text.h"
#include "liftcc/version.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace liftcc::explore {

namespace fs = std::filesystem;

namespace {
std::string readText(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
} // namespace

std::string kernelFileName(codegen::Target target) {
  switch (target) {
  case codegen::Target::OpenCL: return "kernel.cl";
  case codegen::Target::CUDA: return "kernel.cu";
  }
  return "kernel.txt";
}

std::string kernelFileOf(const nlohmann::json &launch) {
  std::string file = launch.value("kernelFile", std::string("kernel.cl"));
  if (file != kernelFileName(codegen::Target::OpenCL) && file != kernelFileName(codegen::Target::CUDA))
    throw Error("launch.json names an unexpected kernel file '" + io::shown(file) + "'");
  return file;
}

std::string writeBestKernel(const std::string &resultsDir, const std::string &deviceName,
                            const std::string &programName, const std::string &sizesKey, const Variant &variant,
                            const tuner::Record &record, int64_t outputElements, const WinExplanation *why) {
  if (auto why = invalidProgramName(programName))
    throw std::invalid_argument("program name '" + programName + "' " + *why);
  if (sizesKey.empty() || sizesKey.find('/') != std::string::npos || sizesKey[0] == '.')
    throw std::invalid_argument("sizes '" + sizesKey + "' cannot name a directory");
  fs::path dir = fs::path(resultsDir) / "best" / deviceSlug(deviceName) / programName / sizesKey;
  io::createDirectoriesBelow(resultsDir, dir);
  fs::path launchPath = dir / "launch.json";
  io::refuseSymlinksBelow(resultsDir, launchPath);
  // The entry pairs a kernel with the record that timed it, never with
  // another kernel's time.
  if (!record.kernelHash.empty() && record.kernelHash != kernelHash(variant.kernel, variant.configuration))
    throw InternalError("best kernel: the record of " + record.key + " measured another kernel");
  if (fs::exists(launchPath)) {
    try {
      auto existing = nlohmann::json::parse(readText(launchPath));
      // Only a faster entry of the same program stays: one of another
      // program saved under this name, or from before programs were hashed,
      // is replaced.
      bool sameProgram = !record.programHash.empty() && existing.value("programHash", "") == record.programHash;
      if (sameProgram && existing.at("medianNs").get<double>() <= record.medianNs) return dir.string();
    } catch (const std::exception &) {
      // An unreadable entry is replaced.
    }
  }
  std::string kernelFile = kernelFileName(variant.kernel.target);
  // Each file is written whole or not at all (io::writeFile); the kernel
  // first, so a launch.json never names a kernel that is not there.
  io::writeFile((dir / kernelFile).string(), variant.kernel.source, fs::path(resultsDir));
  nlohmann::json launch{{"liftcc", LIFTCC_LAUNCH_FORMAT_VERSION},
                        {"device", deviceName},
                        {"program", programName},
                        {"sizes", sizesKey},
                        {"configuration", variant.configuration.toJson()},
                        {"key", record.key},
                        {"programHash", record.programHash},
                        {"kernelHash", record.kernelHash},
                        {"strategy", strategyText(variant)},
                        {"kernelFile", kernelFile},
                        {"kernelSourceHash", stableHash(variant.kernel.source)},
                        {"verified", record.verified},
                        {"medianNs", record.medianNs},
                        {"elementsPerSecond", double(outputElements) / (record.medianNs * 1e-9)},
                        {"kernel", codegen::kernelMetadata(variant.kernel)},
                        {"measured", record.timestamp}};
  if (why) launch["why"] = why->toJson();
  io::writeFile(launchPath.string(), launch.dump(2) + "\n", fs::path(resultsDir));
  return dir.string();
}

std::vector<BestKernel> findBestKernels(const std::string &resultsDir, const std::string &device) {
  std::vector<BestKernel> out;
  fs::path root = fs::path(resultsDir) / "best";
  if (!fs::exists(root)) return out;
  // No device given: every device. (deviceSlug("") is "device", which would
  // match almost nothing.)
  std::string wanted = device.empty() ? std::string() : deviceSlug(device);
  for (const auto &entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().filename() != "launch.json") continue;
    std::string deviceDir = fs::relative(entry.path(), root).begin()->string();
    if (!wanted.empty() && deviceDir.find(wanted) == std::string::npos) continue;
    BestKernel k;
    k.directory = entry.path().parent_path().string();
    k.launch = nlohmann::json::parse(readText(entry.path()));
    k.kernelFile = kernelFileOf(k.launch);
    k.source = readText(entry.path().parent_path() / k.kernelFile);
    // A kernel file replaced after its launch.json was written no longer
    // goes with that entry's time, nor edited arguments with its kernel.
    verifyBestKernel(k.launch, k.source, k.directory, EntryHashes::IfPresent);
    out.push_back(std::move(k));
  }
  std::sort(out.begin(), out.end(), [](const BestKernel &a, const BestKernel &b) { return a.directory < b.directory; });
  return out;
}

} // namespace liftcc::explore
