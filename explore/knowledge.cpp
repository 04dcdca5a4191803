#include "explore/knowledge.h"

#include "core/ir/transform.h"
#include "explore/configuration.h"
#include "explore/explorer.h"
#include "explore/strategy_text.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

namespace liftcc::explore {

namespace {

/// "[2]float": an input's array rank and element type.
std::string inputShape(const Type &type) {
  int rank = 0;
  Type element = type;
  while (element.isArray()) {
    ++rank;
    element = element.arrayElement();
  }
  return "[" + std::to_string(rank) + "]" + element.str();
}

/// The ranking of known strategies: relative time, then the closest source.
bool rankedBefore(const KnownStrategy &a, const KnownStrategy &b) {
  return std::tie(a.relativeTime, a.source, a.store, a.strategy) <
         std::tie(b.relativeTime, b.source, b.store, b.strategy);
}

/// One entry per strategy text (its best rank), ranked, at most kMaxKnownStrategies.
void rank(std::vector<KnownStrategy> &strategies) {
  std::sort(strategies.begin(), strategies.end(), rankedBefore);
  std::vector<KnownStrategy> distinct;
  std::map<std::string, bool> seen;
  for (KnownStrategy &s : strategies)
    if (seen.emplace(s.strategy.empty() ? "key " + s.key : s.strategy, true).second &&
        distinct.size() < kMaxKnownStrategies)
      distinct.push_back(std::move(s));
  strategies = std::move(distinct);
}

/// The shape the records of a store name (the first that names one), or empty.
std::string storeShape(const std::vector<search::Record> &records) {
  for (const search::Record &r : records)
    if (!r.shape.empty()) return r.shape;
  return {};
}

} // namespace

std::string programShape(const Program &program) {
  std::string inputs;
  size_t scalars = 0;
  for (const Expr &input : program.inputs()) {
    const std::optional<Type> &type = input.type();
    if (type && type->isArray())
      inputs += (inputs.empty() ? "" : ",") + inputShape(*type);
    else
      ++scalars;
  }
  std::string pads, slides;
  bool iterates = false;
  containsNode(program.body(), [&](const Expr &e) {
    if (e.isPrim(Op::Pad))
      pads += (pads.empty() ? "" : ",") + e.sizes()[0].str() + ":" + e.sizes()[1].str() + ":" +
              std::string(padModeName(e.padMode()));
    else if (e.isPrim(Op::PadConstant))
      pads += (pads.empty() ? "" : ",") + e.sizes()[0].str() + ":" + e.sizes()[1].str() + ":constant";
    else if (e.isPrim(Op::Slide))
      slides += (slides.empty() ? "" : ",") + e.sizes()[0].str() + ":" + e.sizes()[1].str();
    else if (e.isPrim(Op::Iterate))
      iterates = true;
    return false; // every node
  });
  std::string shape = "in=" + inputs;
  if (scalars > 0) shape += " scalars=" + std::to_string(scalars);
  if (!pads.empty()) shape += " pad=" + pads;
  if (!slides.empty()) shape += " slide=" + slides;
  if (iterates) shape += " iterate";
  return shape;
}

std::string knowledgeSourceName(KnowledgeSource source) {
  switch (source) {
  case KnowledgeSource::OtherSize: return "other size";
  case KnowledgeSource::OtherDevice: return "other device";
  case KnowledgeSource::SameShape: return "same shape";
  }
  return "?";
}

void addStoreKnowledge(const std::vector<search::Record> &records, const std::string &store, KnowledgeSource source,
                       Knowledge &knowledge) {
  // Relative to the store's winner (the finalists' decision when it has
  // one); a single timing below it was not confirmed in rounds and ranks
  // just after it, so the winner is what a store teaches first.
  const search::Record *winner = search::bestRecord(records);
  if (!winner || winner->medianNs <= 0) return; // nothing succeeded there: nothing to rank by
  const double best = winner->medianNs;
  const double unconfirmed = std::nextafter(1.0, 2.0);
  // Each family's fastest record (the store's best is one of them).
  std::map<std::string, KnownStrategy> familyBest;
  size_t skipped = 0;
  for (const search::Record &r : records) {
    if (r.outcome != search::Outcome::Ok) continue;
    Configuration configuration;
    try {
      configuration = Configuration::fromJson(r.configuration);
    } catch (const std::exception &) {
      ++skipped; // a configuration this build does not know: no knowledge
      continue;
    }
    const double relative = &r == winner ? 1.0 : std::max(r.medianNs / best, unconfirmed);
    if (knowledge.prior.size() < kMaxPriorObservations)
      knowledge.prior.push_back({searchFeatures(configuration), relative});
    const std::string family = familyOf(configuration);
    auto it = familyBest.find(family);
    if (it == familyBest.end() || relative < it->second.relativeTime)
      familyBest[family] = KnownStrategy{r.strategy, r.key, family, relative, source, store};
  }
  if (skipped > 0)
    knowledge.notes.push_back(store + ": " + std::to_string(skipped) + " record(s) of unknown configurations left out");
  for (auto &[family, strategy] : familyBest) knowledge.strategies.push_back(std::move(strategy));
  rank(knowledge.strategies);
}

Knowledge gatherKnowledge(const KnowledgeQuery &query) {
  namespace fs = std::filesystem;
  Knowledge knowledge;
  const std::string ownDevice = deviceSlug(query.deviceName);
  std::error_code ec;
  const fs::path current = fs::weakly_canonical(query.currentStore, ec);
  // <results>/<device>/<program>/<sizes>.jsonl, in a stable order; links are
  // not followed (results directories are never written through them).
  std::vector<fs::path> files;
  auto directoriesOf = [](const fs::path &dir) {
    std::vector<fs::path> out;
    std::error_code error;
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
      if (it->is_directory(error) && !it->is_symlink(error)) out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
  };
  for (const fs::path &device : directoriesOf(query.resultsDir))
    for (const fs::path &program : directoriesOf(device)) {
      std::error_code error;
      std::vector<fs::path> stores;
      for (fs::directory_iterator it(program, error), end; !error && it != end; it.increment(error))
        if (it->path().extension() == ".jsonl" && it->is_regular_file(error) && !it->is_symlink(error))
          stores.push_back(it->path());
      std::sort(stores.begin(), stores.end());
      files.insert(files.end(), stores.begin(), stores.end());
    }
  size_t opened = 0;
  for (const fs::path &file : files) {
    std::error_code error;
    if (fs::weakly_canonical(file, error) == current) continue;
    const bool sameProgram = file.parent_path().filename() == query.programName;
    const bool sameDevice = file.parent_path().parent_path().filename() == ownDevice;
    if (opened == kMaxKnowledgeStores) {
      knowledge.notes.push_back("read " + std::to_string(opened) + " stores, the most a search learns from; " +
                                file.string() + " and later ones left out");
      break;
    }
    ++opened;
    std::optional<search::ResultStore> store;
    try {
      store.emplace(file.string(), search::ResultStore::Access::Read);
    } catch (const std::exception &e) {
      knowledge.notes.push_back("skipped " + file.string() + ": " + e.what());
      continue;
    }
    const std::string shape = storeShape(store->records());
    KnowledgeSource source = sameDevice ? KnowledgeSource::OtherSize : KnowledgeSource::OtherDevice;
    if (sameProgram && !shape.empty() && shape != query.shape) {
      knowledge.notes.push_back("skipped " + file.string() + ": another program under this name (shape " + shape + ")");
      continue;
    }
    if (!sameProgram) {
      // Another program: knowledge only when its records name this shape.
      if (shape.empty() || shape != query.shape) continue;
      source = KnowledgeSource::SameShape;
    }
    knowledge.storesRead.push_back(file.string());
    addStoreKnowledge(store->records(), file.string(), source, knowledge);
  }
  if (knowledge.prior.size() == kMaxPriorObservations)
    knowledge.notes.push_back("prior observations capped at " + std::to_string(kMaxPriorObservations));
  return knowledge;
}

} // namespace liftcc::explore
