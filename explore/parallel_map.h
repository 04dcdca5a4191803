#pragma once
// parallelMap: the results of a pure function over 0..n-1, computed on a few
// threads and returned in index order, so that the result never depends on
// the number of threads or on scheduling. Used where the explorer generates
// thousands of kernels before it measures any (enumerateSpace).

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <optional>
#include <thread>
#include <vector>

namespace liftcc::explore {

/// The number of threads a `requested` of 0 means: the machine's hardware
/// threads (1 where the standard library cannot tell).
inline size_t defaultThreadCount(size_t requested) {
  if (requested > 0) return requested;
  return std::max<size_t>(1, std::thread::hardware_concurrency());
}

/// {fn(0), ..., fn(n-1)} computed on min(threads, n) threads (0: the
/// machine's). `fn` must not touch shared mutable state. An exception thrown
/// by fn(i) is rethrown here after every thread has stopped: the one of the
/// smallest such i, as a sequential loop would have thrown it.
template <typename Fn> auto parallelMap(size_t n, size_t threads, Fn fn) -> std::vector<decltype(fn(size_t{}))> {
  using Result = decltype(fn(size_t{}));
  std::vector<std::optional<Result>> slots(n);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) {
      try {
        slots[i].emplace(fn(i));
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  size_t count = std::min(defaultThreadCount(threads), n);
  std::vector<std::thread> pool;
  for (size_t t = 1; t < count; ++t) pool.emplace_back(work);
  work();
  for (std::thread &t : pool) t.join();
  std::vector<Result> results;
  results.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (errors[i]) std::rethrow_exception(errors[i]);
    results.push_back(std::move(*slots[i]));
  }
  return results;
}

} // namespace liftcc::explore
