#pragma once
// PrefetchPool: computes, on worker threads, the results a consumer is told
// it will ask for next, so that the consumer's own thread only waits for what
// is not ready yet. The explorer uses it to compile and prepare the
// verification of the variants a search strategy will measure next
// (explore/variant_evaluation.h) while its one device thread times the
// current one.
//
// The consumer states its wishes with `upcoming(indices)` (most wanted
// first): queued work no longer wished for is dropped, and at most
// `capacity` results are queued, running or ready at once, so a search that
// changes its mind wastes little. `take(index)` returns the result for an
// index: the ready one, the running one when it ends, or, when the index is
// not being worked on, one computed on the calling thread. With no worker
// threads every result is computed by `take`, exactly as without a pool.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace liftcc::explore {

template <typename Result> class PrefetchPool {
public:
  /// `compute` runs on the worker threads (and on take's thread): it must be
  /// safe to call concurrently. An exception it throws is rethrown by take.
  PrefetchPool(size_t threads, size_t capacity, std::function<Result(size_t)> compute)
      : compute_(std::move(compute)), capacity_(std::max<size_t>(1, capacity)) {
    for (size_t t = 0; t < threads; ++t) workers_.emplace_back([this] { work(); });
  }
  PrefetchPool(const PrefetchPool &) = delete;
  PrefetchPool &operator=(const PrefetchPool &) = delete;
  /// Drops the queued work and waits for the running one.
  ~PrefetchPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      queue_.clear();
    }
    wake_.notify_all();
    for (std::thread &t : workers_) t.join();
  }

  size_t threads() const { return workers_.size(); }

  /// The indices the consumer expects to take next, most wanted first.
  void upcoming(const std::vector<size_t> &indices) {
    if (workers_.empty()) return;
    {
      std::lock_guard lock(mutex_);
      std::vector<size_t> wished(indices.begin(), indices.begin() + std::min(indices.size(), capacity_));
      auto isWished = [&](size_t i) { return std::find(wished.begin(), wished.end(), i) != wished.end(); };
      // Queued work nobody wishes for any more.
      std::erase_if(queue_, [&](size_t i) {
        if (isWished(i)) return false;
        entries_.erase(i);
        return true;
      });
      for (size_t i : wished) {
        if (entries_.count(i)) continue;
        if (entries_.size() >= capacity_ && !evictOneReady(isWished)) break;
        entries_[i] = Entry{};
        queue_.push_back(i);
      }
      // Most wanted first, whatever was queued before.
      std::stable_sort(queue_.begin(), queue_.end(),
                       [&](size_t a, size_t b) { return rank(wished, a) < rank(wished, b); });
    }
    wake_.notify_all();
  }

  /// The result for `index`.
  Result take(size_t index) {
    std::unique_lock lock(mutex_);
    auto it = entries_.find(index);
    if (it != entries_.end() && it->second.state == State::Queued) {
      std::erase(queue_, index);
      entries_.erase(it);
      it = entries_.end();
    }
    if (it == entries_.end()) {
      lock.unlock();
      ++computedByTake_;
      return compute_(index);
    }
    done_.wait(lock, [&] { return entries_.at(index).state == State::Ready; });
    Entry entry = std::move(entries_.at(index));
    entries_.erase(index);
    lock.unlock();
    ++takenFromWorkers_;
    if (entry.error) std::rethrow_exception(entry.error);
    return std::move(*entry.result);
  }

  /// Waits for the running work and forgets every result, queued or ready
  /// (e.g. when what they were computed against has changed).
  void discardAll() {
    std::unique_lock lock(mutex_);
    queue_.clear();
    done_.wait(lock, [&] {
      return std::none_of(entries_.begin(), entries_.end(),
                          [](const auto &e) { return e.second.state == State::Running; });
    });
    entries_.clear();
  }

  /// How many results take() computed itself, and how many came from the workers.
  size_t computedByTake() const { return computedByTake_; }
  size_t takenFromWorkers() const { return takenFromWorkers_; }

private:
  enum class State { Queued, Running, Ready };
  struct Entry {
    State state = State::Queued;
    std::optional<Result> result;
    std::exception_ptr error;
    size_t readySequence = 0;
  };

  static size_t rank(const std::vector<size_t> &wished, size_t i) {
    return size_t(std::find(wished.begin(), wished.end(), i) - wished.begin());
  }

  /// Makes room by forgetting the oldest ready result nobody wishes for.
  template <typename Wished> bool evictOneReady(const Wished &isWished) {
    auto victim = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->second.state == State::Ready && !isWished(it->first) &&
          (victim == entries_.end() || it->second.readySequence < victim->second.readySequence))
        victim = it;
    if (victim == entries_.end()) return false;
    entries_.erase(victim);
    return true;
  }

  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      size_t index = queue_.front();
      queue_.pop_front();
      entries_.at(index).state = State::Running;
      lock.unlock();
      std::optional<Result> result;
      std::exception_ptr error;
      try {
        result.emplace(compute_(index));
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      Entry &entry = entries_.at(index);
      entry.result = std::move(result);
      entry.error = error;
      entry.state = State::Ready;
      entry.readySequence = ++readySequence_;
      done_.notify_all();
    }
  }

  std::function<Result(size_t)> compute_;
  size_t capacity_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<size_t> queue_;
  std::map<size_t, Entry> entries_;
  size_t readySequence_ = 0;
  bool stopping_ = false;
  size_t computedByTake_ = 0, takenFromWorkers_ = 0;
  std::vector<std::thread> workers_; ///< last: started after everything above exists
};

} // namespace liftcc::explore
