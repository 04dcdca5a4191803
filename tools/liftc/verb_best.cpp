// liftc best and liftc merge: read and combine result directories.

#include "core/io/safe_file.h"
#include "explore/best_kernels.h"
#include "search/result_store.h"
#include "tools/liftc/verbs.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>

namespace liftcc::cli {

namespace {

namespace fs = std::filesystem;

/// One entry as `liftc best` prints it. Built whole before it is printed, so
/// nothing of an entry is half-printed (readBestKernel has checked the type
/// of every field read here).
std::string describe(const explore::BestKernel &k) {
  std::ostringstream out;
  out << "// program " << k.launch.value("program", "?") << " at " << k.launch.value("sizes", "?") << " on "
      << k.launch.value("device", "?") << "\n";
  out << "// variant " << k.launch.value("key", "?") << ": " << std::fixed << std::setprecision(3)
      << k.launch.value("medianNs", 0.0) / 1e6 << " ms, " << std::setprecision(1)
      << k.launch.value("elementsPerSecond", 0.0) / 1e6 << " M elements/s\n";
  if (k.launch.contains("roundsNs")) {
    // readBestKernel checked it: a non-empty array of positive numbers.
    std::vector<double> rounds = k.launch.at("roundsNs").get<std::vector<double>>();
    auto [low, high] = std::minmax_element(rounds.begin(), rounds.end());
    out << "// decided by " << rounds.size() << " interleaved round" << (rounds.size() == 1 ? "" : "s")
        << " of the finalists: median of rounds, spread " << std::setprecision(3) << *low / 1e6 << "-" << *high / 1e6
        << " ms (" << std::setprecision(1) << (*high - *low) / *low * 100 << "%)\n";
  } else {
    out << "// timed once (not re-timed in rounds)\n";
  }
  if (k.launch.contains("programHash"))
    out << "// program hash " << k.launch.value("programHash", "?") << ", kernel hash "
        << k.launch.value("kernelHash", "?") << " (the record that timed this kernel)\n";
  if (!k.launch.value("verified", "").empty())
    out << "// verified against the interpreter: " << k.launch.value("verified", "") << "\n";
  if (k.launch.contains("strategy")) out << "// strategy " << k.launch.value("strategy", "?") << "\n";
  if (k.launch.contains("sass")) out << "// SASS " << tuner::SassSummary::fromJson(k.launch.at("sass")).text() << "\n";
  if (k.launch.contains("why"))
    out << "// why it won: " << explore::WinExplanation::fromJson(k.launch.at("why")).summary() << "\n";
  out << "// launch: " << k.launch.value("kernel", nlohmann::json()).dump() << "\n";
  out << k.source << "\n";
  return out.str();
}

} // namespace

int runBest(const CommandLine &cl, std::ostream &out) {
  std::string dir = cl.onlyPositional("results directory");
  if (!fs::exists(dir)) throw std::runtime_error("no results directory '" + io::shown(dir, 200) + "'");
  explore::BestKernelListing listing = explore::listBestKernels(dir, cl.value("device").value_or(""));
  if (auto program = cl.value("program"))
    std::erase_if(listing.kernels,
                  [&](const explore::BestKernel &k) { return k.launch.value("program", "") != *program; });
  if (listing.kernels.empty() && listing.problems.empty())
    throw std::runtime_error("no best kernel recorded in '" + io::shown(dir, 200) + "' for that device/program");
  for (const explore::BestKernel &k : listing.kernels) out << describe(k);
  out.flush();
  // A bad entry hides no good one: each is one error line, and the status says some were bad.
  for (const std::string &problem : listing.problems) std::cerr << "liftc: error: " << io::shown(problem, 260) << "\n";
  return listing.problems.empty() ? 0 : 1;
}

namespace {

/// What `liftc merge` will write, gathered (and checked) before anything is written.
struct MergePlan {
  /// Store file below --out -> the source records for it, in source order.
  std::map<fs::path, std::vector<search::Record>> records;
  size_t storeFiles = 0;
  /// Best-kernel directory below --out -> the fastest incoming entry.
  std::map<fs::path, explore::BestKernel> bests;
};

double medianOf(const explore::BestKernel &k) { return k.launch.value("medianNs", 1e300); }

void gatherSource(const std::string &source, const fs::path &outDir, MergePlan &plan) {
  std::error_code ec;
  if (!fs::is_directory(source, ec))
    throw std::runtime_error("'" + io::shown(source, 200) + "' is not a results directory");
  fs::recursive_directory_iterator it(source, ec), end;
  if (ec) throw std::runtime_error("cannot list '" + io::shown(source, 200) + "': " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) throw std::runtime_error("cannot list all of '" + io::shown(source, 200) + "': " + ec.message());
    const fs::directory_entry &entry = *it;
    // Temporaries of an interrupted write (io::writeDirectory) are no data.
    if (io::isHiddenName(entry.path())) {
      if (entry.is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    // Links in a source are not followed (as before); every other file the
    // merge reads must be a regular file, which the readers check.
    if (entry.is_symlink(ec)) continue;
    fs::path rel = fs::relative(entry.path(), source);
    if (entry.path().extension() == ".jsonl") {
      fs::path target = outDir / rel;
      if (io::sameFile(target.string(), entry.path().string())) continue; // merging a directory into itself
      search::ResultStore store(entry.path().string(), search::ResultStore::Access::Read);
      std::vector<search::Record> &into = plan.records[target];
      into.insert(into.end(), store.records().begin(), store.records().end());
      ++plan.storeFiles;
    } else if (entry.path().filename() == "launch.json") {
      fs::path target = outDir / rel.parent_path();
      if (io::sameFile((target / "launch.json").string(), entry.path().string())) continue;
      explore::BestKernel incoming = explore::readBestKernel(entry.path().parent_path());
      auto known = plan.bests.find(target);
      if (known == plan.bests.end())
        plan.bests.emplace(target, std::move(incoming));
      else if (medianOf(incoming) < medianOf(known->second))
        known->second = std::move(incoming);
    }
  }
}

/// Checks every output of the plan against what --out holds, writing nothing:
/// no links, no file where a directory must go, no unreadable store or entry
/// already there. Drops the entries --out already has a faster one of.
void checkDestination(const fs::path &outDir, MergePlan &plan) {
  std::error_code ec;
  if (fs::exists(outDir, ec) && !fs::is_directory(outDir, ec))
    throw std::runtime_error("--out '" + io::shown(outDir.string(), 200) + "' is not a directory");
  for (const auto &[target, records] : plan.records) {
    io::checkCreatableBelow(outDir, target.parent_path());
    io::refuseSymlinksBelow(outDir, target);
    if (fs::exists(fs::symlink_status(target, ec)))
      search::ResultStore(target.string(), search::ResultStore::Access::Read);
  }
  for (auto it = plan.bests.begin(); it != plan.bests.end();) {
    const fs::path &target = it->first;
    io::checkCreatableBelow(outDir, target.parent_path());
    io::refuseSymlinksBelow(outDir, target / "launch.json");
    bool keepExisting = false;
    if (fs::exists(fs::symlink_status(target / "launch.json", ec)))
      keepExisting = medianOf(explore::readBestKernel(target)) <= medianOf(it->second);
    it = keepExisting ? plan.bests.erase(it) : std::next(it);
  }
}

} // namespace

int runMerge(const CommandLine &cl, std::ostream &out) {
  auto outDir = cl.value("out");
  if (!outDir || outDir->empty()) throw UsageError("missing --out DIRECTORY");
  if (cl.positional().empty()) throw UsageError("missing result directories to merge");
  // All or nothing: every source is read and checked, and so is what --out
  // already holds, before the first write. Sources are only read; every write
  // goes below --out through an Append store or io::writeDirectory, which
  // refuse symbolic links there.
  MergePlan plan;
  for (const std::string &source : cl.positional()) gatherSource(source, *outDir, plan);
  checkDestination(*outDir, plan);
  // The stores are opened (and locked) before any record or entry is written,
  // so another run holding one stops the merge before it changed anything.
  std::vector<std::pair<std::unique_ptr<search::ResultStore>, const std::vector<search::Record> *>> stores;
  for (const auto &[target, records] : plan.records)
    stores.emplace_back(
        std::make_unique<search::ResultStore>(target.string(), search::ResultStore::Access::Append, *outDir), &records);
  size_t added = 0;
  for (auto &[store, records] : stores)
    for (const search::Record &r : *records)
      if (!store->find(r.identity())) {
        store->append(r);
        ++added;
      }
  for (const auto &[target, best] : plan.bests)
    io::writeDirectory(*outDir, target, {{best.kernelFile, best.source}, {"launch.json", best.launch.dump(2) + "\n"}});
  out << "merged " << added << " record(s) from " << plan.storeFiles << " store file(s) into " << *outDir << "\n";
  return 0;
}

} // namespace liftcc::cli
