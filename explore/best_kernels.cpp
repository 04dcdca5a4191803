#include "explore/best_kernels.h"

#include "core/error.h"
#include "core/io/json_file.h"
#include "core/io/safe_file.h"
#include "explore/best_kernel_trust.h"
#include "explore/explorer.h"
#include "explore/record_identity.h"
#include "explore/strategy_text.h"
#include "liftcc/version.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace liftcc::explore {

namespace fs = std::filesystem;

namespace {

std::string found(const nlohmann::json &value) { return io::shown(value.dump(), 40); }

/// One line naming the file and the field: "<file>: /medianNs: expected ...".
[[noreturn]] void badField(const std::string &where, const std::string &pointer, const std::string &message) {
  throw Error(where + ": " + pointer + ": " + message);
}

/// Every field liftc reads from a launch.json (liftc best, merge, a later
/// explore) has the type it is read as, so no reader fails half-way through
/// an entry with a library exception.
void checkLaunchFields(const nlohmann::json &launch, const std::string &where) {
  if (!launch.is_object()) throw Error(where + ": expected an object, found " + launch.type_name());
  for (const char *name : {"device", "program", "sizes", "key", "programHash", "kernelHash", "verified", "strategy",
                           "kernelFile", "kernelSourceHash", "measured"})
    if (launch.contains(name) && !launch[name].is_string())
      badField(where, std::string("/") + name, "expected a string, found " + found(launch[name]));
  // Both are divided by or compared; a successful kernel took some time.
  if (launch.contains("medianNs")) {
    const nlohmann::json &median = launch["medianNs"];
    if (!median.is_number() || !std::isfinite(median.get<double>()) || median.get<double>() <= 0)
      badField(where, "/medianNs", "expected a positive number, found " + found(median));
  }
  if (launch.contains("elementsPerSecond")) {
    const nlohmann::json &rate = launch["elementsPerSecond"];
    if (!rate.is_number() || !std::isfinite(rate.get<double>()) || rate.get<double>() < 0)
      badField(where, "/elementsPerSecond", "expected a non-negative number, found " + found(rate));
  }
  // The finalist's rounds (search::Record::roundsNs), shown by liftc best.
  if (launch.contains("roundsNs")) {
    const nlohmann::json &rounds = launch["roundsNs"];
    if (!rounds.is_array() || rounds.empty())
      badField(where, "/roundsNs", "expected a non-empty array, found " + found(rounds));
    for (size_t i = 0; i < rounds.size(); ++i)
      if (!rounds[i].is_number() || !std::isfinite(rounds[i].get<double>()) || rounds[i].get<double>() <= 0)
        badField(where, "/roundsNs/" + std::to_string(i), "expected a positive number, found " + found(rounds[i]));
  }
  if (launch.contains("kernel") && !launch["kernel"].is_object())
    badField(where, "/kernel", "expected an object, found " + found(launch["kernel"]));
  if (launch.contains("sass")) {
    try {
      (void)tuner::SassSummary::fromJson(launch["sass"]);
    } catch (const std::invalid_argument &e) {
      badField(where, "/sass", e.what());
    }
  }
  if (launch.contains("why")) {
    try {
      (void)WinExplanation::fromJson(launch["why"]).summary();
    } catch (const std::exception &e) {
      // WinExplanation::fromJson says "why: " first, then the library's message.
      std::string what = e.what();
      if (what.rfind("why: ", 0) == 0) what = what.substr(5);
      badField(where, "/why", io::shown(io::withoutJsonLibraryPrefix(what), 120));
    }
  }
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
                            const search::Record &record, int64_t outputElements, const WinExplanation *why) {
  if (auto why = invalidProgramName(programName))
    throw std::invalid_argument("program name '" + programName + "' " + *why);
  if (sizesKey.empty() || sizesKey.find('/') != std::string::npos || sizesKey[0] == '.')
    throw std::invalid_argument("sizes '" + sizesKey + "' cannot name a directory");
  fs::path dir = fs::path(resultsDir) / "best" / deviceSlug(deviceName) / programName / sizesKey;
  io::createDirectoriesBelow(resultsDir, dir.parent_path());
  fs::path launchPath = dir / "launch.json";
  io::refuseSymlinksBelow(resultsDir, launchPath);
  // The entry pairs a kernel with the record that timed it, never with
  // another kernel's time.
  if (!record.kernelHash.empty() && record.kernelHash != kernelHash(variant.kernel, variant.configuration))
    throw InternalError("best kernel: the record of " + record.key + " measured another kernel");
  std::error_code ec;
  if (fs::exists(fs::symlink_status(launchPath, ec))) {
    try {
      // Read like any entry (regular files only, capped): a FIFO or device
      // planted here is refused at once, never waited on.
      BestKernel existing = readBestKernel(dir);
      // Only a faster entry of the same program stays: one of another
      // program saved under this name, or from before programs were hashed,
      // is replaced.
      bool sameProgram = !record.programHash.empty() && existing.launch.value("programHash", "") == record.programHash;
      // The same kernel timed again in rounds replaces its earlier time,
      // faster or not: the rounds are the better measurement.
      bool retimed = !record.roundsNs.empty() && !record.kernelHash.empty() &&
                     existing.launch.value("kernelHash", "") == record.kernelHash;
      if (sameProgram && !retimed && existing.launch.contains("medianNs") &&
          existing.launch["medianNs"].get<double>() <= record.medianNs)
        return dir.string();
    } catch (const std::exception &) {
      // An unreadable entry (liftcc::Error, io::FileError) is replaced.
    }
  }
  std::string kernelFile = kernelFileName(variant.kernel.target);
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
  if (!record.roundsNs.empty()) launch["roundsNs"] = record.roundsNs;
  if (why) launch["why"] = why->toJson();
  if (record.sass) launch["sass"] = record.sass->toJson();
  // The kernel and its launch.json replace the old entry together.
  io::writeDirectory(resultsDir, dir, {{kernelFile, variant.kernel.source}, {"launch.json", launch.dump(2) + "\n"}});
  return dir.string();
}

BestKernel readBestKernel(const fs::path &directory) {
  BestKernel k;
  k.directory = directory.string();
  std::string where = (directory / "launch.json").string();
  k.launch = io::readJsonFile(where, io::kMaxResultsFileBytes, "launch.json");
  checkLaunchFields(k.launch, where);
  try {
    k.kernelFile = kernelFileOf(k.launch);
  } catch (const std::exception &e) {
    badField(where, "/kernelFile", e.what());
  }
  k.source = io::readFileCapped((directory / k.kernelFile).string(), io::kMaxResultsFileBytes, "kernel file");
  // A kernel file replaced after its launch.json was written no longer
  // goes with that entry's time, nor edited arguments with its kernel.
  verifyBestKernel(k.launch, k.source, k.directory, EntryHashes::IfPresent);
  return k;
}

BestKernelListing listBestKernels(const std::string &resultsDir, const std::string &device) {
  BestKernelListing listing;
  fs::path root = fs::path(resultsDir) / "best";
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(root, ec))) return listing;
  if (!fs::is_directory(root, ec)) throw Error("'" + io::shown(root.string(), 200) + "' is not a directory");
  // No device given: every device. (deviceSlug("") is "device", which would
  // match almost nothing.)
  std::string wanted = device.empty() ? std::string() : deviceSlug(device);
  fs::recursive_directory_iterator it(root, ec), end;
  if (ec) throw Error("cannot list '" + io::shown(root.string(), 200) + "': " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) {
      listing.problems.push_back("cannot list all of '" + io::shown(root.string(), 200) + "': " + ec.message());
      break;
    }
    const fs::directory_entry &entry = *it;
    // io::writeDirectory's temporaries (and other hidden names) are no entries.
    if (io::isHiddenName(entry.path())) {
      if (entry.is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (entry.path().filename() != "launch.json") continue;
    std::string deviceDir = fs::relative(entry.path(), root).begin()->string();
    if (!wanted.empty() && deviceDir.find(wanted) == std::string::npos) continue;
    try {
      listing.kernels.push_back(readBestKernel(entry.path().parent_path()));
    } catch (const std::exception &e) {
      listing.problems.push_back(e.what());
    }
  }
  std::sort(listing.kernels.begin(), listing.kernels.end(),
            [](const BestKernel &a, const BestKernel &b) { return a.directory < b.directory; });
  return listing;
}

std::vector<BestKernel> findBestKernels(const std::string &resultsDir, const std::string &device) {
  BestKernelListing listing = listBestKernels(resultsDir, device);
  if (!listing.problems.empty()) throw Error(listing.problems.front());
  return std::move(listing.kernels);
}

} // namespace liftcc::explore
