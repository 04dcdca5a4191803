// liftc best and liftc merge: read and combine result directories.

#include "core/io/safe_file.h"
#include "explore/best_kernels.h"
#include "tools/liftc/verbs.h"
#include "tuner/result_store.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>

namespace liftcc::cli {

int runBest(const CommandLine &cl, std::ostream &out) {
  std::string dir = cl.onlyPositional("results directory");
  if (!std::filesystem::exists(dir)) throw std::runtime_error("no results directory '" + dir + "'");
  std::vector<explore::BestKernel> kernels = explore::findBestKernels(dir, cl.value("device").value_or(""));
  if (auto program = cl.value("program"))
    std::erase_if(kernels, [&](const explore::BestKernel &k) { return k.launch.value("program", "") != *program; });
  if (kernels.empty()) throw std::runtime_error("no best kernel recorded in '" + dir + "' for that device/program");
  for (const explore::BestKernel &k : kernels) {
    out << "// program " << k.launch.value("program", "?") << " at " << k.launch.value("sizes", "?") << " on "
        << k.launch.value("device", "?") << "\n";
    out << "// variant " << k.launch.value("key", "?") << ": " << std::fixed << std::setprecision(3)
        << k.launch.value("medianNs", 0.0) / 1e6 << " ms, " << std::setprecision(1)
        << k.launch.value("elementsPerSecond", 0.0) / 1e6 << " M elements/s\n";
    if (k.launch.contains("programHash"))
      out << "// program hash " << k.launch.value("programHash", "?") << ", kernel hash "
          << k.launch.value("kernelHash", "?") << " (the record that timed this kernel)\n";
    if (!k.launch.value("verified", "").empty())
      out << "// verified against the interpreter: " << k.launch.value("verified", "") << "\n";
    if (k.launch.contains("strategy")) out << "// strategy " << k.launch.value("strategy", "?") << "\n";
    if (k.launch.contains("why"))
      out << "// why it won: " << explore::WinExplanation::fromJson(k.launch["why"]).summary() << "\n";
    out << "// launch: " << k.launch["kernel"].dump() << "\n";
    out << k.source << "\n";
  }
  return 0;
}

int runMerge(const CommandLine &cl, std::ostream &out) {
  auto outDir = cl.value("out");
  if (!outDir || outDir->empty()) throw UsageError("missing --out DIRECTORY");
  if (cl.positional().empty()) throw UsageError("missing result directories to merge");
  namespace fs = std::filesystem;
  size_t added = 0, stores = 0;
  // Sources are only read (the stores with ResultStore::Access::Read); every
  // write goes below --out through io::writeFile / an Append store, which
  // refuse symbolic links there.
  auto readJson = [](const fs::path &p) {
    std::string text = io::readFileCapped(p.string(), uint64_t(64) << 20, "launch.json");
    try {
      return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &e) {
      throw std::runtime_error(p.string() + ": malformed JSON");
    }
  };
  for (const std::string &source : cl.positional()) {
    if (!fs::is_directory(source))
      throw std::runtime_error("'" + io::shown(source, 200) + "' is not a results directory");
    for (const auto &entry : fs::recursive_directory_iterator(source)) {
      if (!entry.is_regular_file() || entry.is_symlink()) continue;
      fs::path rel = fs::relative(entry.path(), source);
      if (entry.path().extension() == ".jsonl") {
        tuner::ResultStore into((fs::path(*outDir) / rel).string(), tuner::ResultStore::Access::Append, *outDir);
        if (io::sameFile(into.path(), entry.path().string())) continue; // merging a directory into itself
        added += tuner::mergeStores({entry.path().string()}, into);
        ++stores;
      } else if (entry.path().filename() == "launch.json") {
        // Keep the faster of the best kernels.
        fs::path target = fs::path(*outDir) / rel;
        io::refuseSymlinksBelow(*outDir, target);
        nlohmann::json incoming = readJson(entry.path());
        bool replace = !fs::exists(target);
        if (!replace) replace = incoming.value("medianNs", 1e300) < readJson(target).value("medianNs", 1e300);
        if (replace && !io::sameFile(target.string(), entry.path().string())) {
          io::createDirectoriesBelow(*outDir, target.parent_path());
          std::string kernelFile = explore::kernelFileOf(incoming);
          std::string kernel =
              io::readFileCapped((entry.path().parent_path() / kernelFile).string(), uint64_t(64) << 20, "kernel file");
          io::writeFile((target.parent_path() / kernelFile).string(), kernel, fs::path(*outDir));
          io::writeFile(target.string(), incoming.dump(2) + "\n", fs::path(*outDir));
        }
      }
    }
  }
  out << "merged " << added << " record(s) from " << stores << " store file(s) into " << *outDir << "\n";
  return 0;
}

} // namespace liftcc::cli
