#pragma once
// A results directory as a knowledge base (issue #36 item 3): before an
// exploration searches, it reads what other explorations in the same
// directory measured, namely
//   other sizes   the same program (its name, and its shape where the records
//                 have one) on this device, at other sizes;
//   other devices the same program on other devices;
//   same shape    other programs of the same shape (programShape) on any device,
// and turns them into (i) known winning strategies, ranked, which the search
// can measure first, and (ii) prior observations for the model search's
// surrogate (search::SearchSpace::prior). Both are relative to their own
// store (a time over that store's best): a record of another size, device
// or program is knowledge, never a timing of this exploration. Stores are
// only read (ResultStore::Access::Read); one that cannot be read is skipped
// with a note, never failing the exploration.

#include "core/ir/expr.h"
#include "search/result_store.h"
#include "search/search.h"

#include <string>
#include <vector>

namespace liftcc::explore {

/// The program's shape: what makes two stencils' spaces behave alike. Its
/// inputs (array rank and element type of each, scalars counted), the pads
/// in the order the body applies them (left, right, mode; or a constant),
/// the windows (slide size, step) and whether the body iterates, e.g.
///   in=[2]float pad=1:1:clamp,1:1:clamp slide=3:1,3:1
/// Taken from the high-level program's structure, not its user functions:
/// Jacobi's 5-point and a 3x3 box stencil on one clamped grid have one shape.
std::string programShape(const Program &program);

/// Where a piece of knowledge comes from, closest first.
enum class KnowledgeSource { OtherSize, OtherDevice, SameShape };
std::string knowledgeSourceName(KnowledgeSource source);

/// A strategy that won in another store: its store's best, or the best of
/// its family there.
struct KnownStrategy {
  /// explore/strategy_text.h; parses back to `key`'s configuration. Empty
  /// for records written before strategies existed (their key only).
  std::string strategy;
  std::string key;         ///< the configuration's key
  std::string family;      ///< familyOf its configuration
  double relativeTime = 1; ///< its time over its store's best (1: the store's best)
  KnowledgeSource source = KnowledgeSource::OtherSize;
  std::string store; ///< the store file it was read from
};

struct Knowledge {
  /// Ranked: by relative time in their store, then by source (closest first);
  /// one entry per strategy text, or key where it has none (its best rank). At most kMaxKnownStrategies.
  std::vector<KnownStrategy> strategies;
  /// Every Ok record of the stores read, as (features, relative time). At most kMaxPriorObservations.
  std::vector<search::PriorObservation> prior;
  std::vector<std::string> storesRead;
  /// Stores skipped (unreadable, another program under this name) and
  /// limits reached, one line each.
  std::vector<std::string> notes;
};

inline constexpr size_t kMaxKnownStrategies = 64;
inline constexpr size_t kMaxPriorObservations = 50000;
/// Store files read at most (a results directory of many programs).
inline constexpr size_t kMaxKnowledgeStores = 200;

struct KnowledgeQuery {
  std::string resultsDir;
  std::string programName;
  std::string shape;        ///< programShape of this program
  std::string deviceName;   ///< this device's resultsName()
  std::string currentStore; ///< this exploration's own store (never read as knowledge)
};

/// Reads the stores of <resultsDir>/<device>/<program>/<sizes>.jsonl that
/// are knowledge for the query (see above).
Knowledge gatherKnowledge(const KnowledgeQuery &query);

/// Adds one store's records to `knowledge` (its best and each family's best
/// as known strategies, its Ok records as prior observations); the strategy
/// list is ranked again. Used by gatherKnowledge and by the replay
/// (bench/search, --warm-from).
void addStoreKnowledge(const std::vector<search::Record> &records, const std::string &store, KnowledgeSource source,
                       Knowledge &knowledge);

} // namespace liftcc::explore
