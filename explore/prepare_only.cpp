#include "explore/prepare_only.h"

#include "core/interp/deadline.h"
#include "explore/parallel_map.h"
#include "explore/prefetch_pool.h"
#include "explore/variant_evaluation.h"

#include <algorithm>
#include <ctime>
#include <mutex>
#include <numeric>
#include <random>
#include <set>

namespace liftcc::explore {

namespace {

/// CPU seconds of the calling thread so far.
double threadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// One candidate as a worker left it.
struct PreparedCandidate {
  std::optional<Variant> variant; ///< unset: no variant of its own
  std::string identity;
  std::optional<PreparedVariant> prepared; ///< unset: a duplicate seen before preparing
  double cpuSeconds = 0;
};

constexpr size_t kRejectionsShown = 5;

} // namespace

PrepareOnlyResult prepareOnly(const Program &program, const Program &typed, const std::map<std::string, int64_t> &sizes,
                              tuner::Device &device, const PrepareOnlyOptions &options) {
  using Clock = std::chrono::steady_clock;
  PrepareOnlyResult result;
  auto start = Clock::now();
  SpaceOptions spaceOptions = options.space;
  spaceOptions.target = device.target();
  SpaceDescription space = describeSpace(typed, device.limits(), spaceOptions);
  result.describeSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.spaceSize = space.candidates.size();

  std::vector<size_t> order(space.candidates.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::mt19937_64 random(options.seed);
  std::shuffle(order.begin(), order.end(), random);

  const auto prepareStart = Clock::now();
  const InterpretDeadline deadline = prepareStart + std::chrono::duration_cast<Clock::duration>(options.budget);
  std::mutex seenMutex;
  std::set<std::string> seen; ///< kernels (with launches) taken so far
  auto isSeen = [&](const std::string &identity) {
    std::lock_guard lock(seenMutex);
    return seen.count(identity) != 0;
  };
  auto prepareOne = [&](size_t k) {
    PreparedCandidate out;
    double cpuStart = threadCpuSeconds();
    BuiltCandidate built = buildCandidate(space, k);
    if (built.variant) {
      out.identity = kernelIdentity(*built.variant);
      if (!isSeen(out.identity)) out.prepared = prepareVariant(program, *built.variant, sizes, device, deadline);
      out.variant = std::move(built.variant);
    }
    out.cpuSeconds = threadCpuSeconds() - cpuStart;
    return out;
  };
  result.threads = defaultThreadCount(options.threads);
  const size_t capacity = 2 * result.threads + 1;
  PrefetchPool<PreparedCandidate> pool(result.threads, capacity, prepareOne);
  for (size_t at = 0; at < order.size(); ++at) {
    if (result.prepared >= options.maxVariants || Clock::now() >= deadline) {
      result.cutByBudget = true;
      break;
    }
    pool.upcoming(std::vector<size_t>(order.begin() + at, order.begin() + std::min(order.size(), at + capacity)));
    PreparedCandidate c = pool.take(order[at]);
    ++result.visited;
    result.cpuSeconds += c.cpuSeconds;
    if (!c.variant) {
      ++result.skipped;
      continue;
    }
    {
      std::lock_guard lock(seenMutex);
      if (!c.prepared || !seen.insert(c.identity).second) {
        ++result.duplicates;
        continue;
      }
    }
    if (c.prepared->pastDeadline) {
      result.cutByBudget = true;
      break;
    }
    ++result.prepared;
    if (c.prepared->sass) result.sass.push_back(*c.prepared->sass);
    if (c.prepared->failure) {
      ++result.failed[search::outcomeName(c.prepared->failure->outcome)];
      continue;
    }
    if (std::optional<std::string> why = sassRejection(*c.prepared, *c.variant, sizes, options.sass)) {
      ++(c.prepared->sass->spills() && options.sass.dropSpills ? result.droppedSpills : result.droppedOccupancy);
      if (result.rejections.size() < kRejectionsShown)
        result.rejections.push_back(c.variant->configuration.key() + ": " + *why);
      continue;
    }
    ++result.toTime;
  }
  result.prepareSeconds = std::chrono::duration<double>(Clock::now() - prepareStart).count();
  return result;
}

} // namespace liftcc::explore
