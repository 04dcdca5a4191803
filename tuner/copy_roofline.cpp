#include "tuner/copy_roofline.h"

#include "tuner/backend_error.h"
#include "tuner/median.h"

#include <chrono>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace liftcc::tuner {

std::string CopyCandidate::label() const {
  if (name == "device copy") return name;
  return name + " wg=" + (workGroup == 0 ? std::string("runtime") : std::to_string(workGroup));
}

std::vector<size_t> copyWorkGroups() { return {0, 64, 256, 1024}; }

float copyPattern(size_t i) { return static_cast<float>(i % (size_t{1} << 23)) + 0.5f; }

std::optional<std::string> copyMismatch(const std::vector<float> &copied) {
  for (size_t i = 0; i < copied.size(); ++i)
    if (copied[i] != copyPattern(i)) {
      std::ostringstream s;
      s << "element " << i << " of " << copied.size() << " is " << copied[i] << ", expected " << copyPattern(i);
      return s.str();
    }
  return std::nullopt;
}

size_t fastestCopy(const std::vector<CopyCandidate> &candidates) {
  std::optional<size_t> best;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i].error.empty() && candidates[i].bytesPerSecond > 0 &&
        (!best || candidates[i].bytesPerSecond > candidates[*best].bytesPerSecond))
      best = i;
  if (!best) {
    std::string why = candidates.empty() ? std::string("no candidates")
                                         : candidates.front().label() + ": " + candidates.front().error;
    throw BackendError("copy bandwidth: no copy could be measured (" + why + ")");
  }
  return *best;
}

double measureHostMemcpy(size_t bytes, int runs) {
  if (bytes == 0 || runs < 1) throw std::invalid_argument("measureHostMemcpy: bytes and runs must be positive");
  auto source = std::make_unique<char[]>(bytes);
  auto target = std::make_unique<char[]>(bytes);
  // Fault both in and give the source defined contents before timing.
  std::memset(source.get(), 1, bytes);
  std::memcpy(target.get(), source.get(), bytes);
  std::vector<double> seconds;
  for (int r = 0; r < runs; ++r) {
    source[static_cast<size_t>(r) % bytes] = static_cast<char>(r); // the copies differ: none can be elided
    auto start = std::chrono::steady_clock::now();
    std::memcpy(target.get(), source.get(), bytes);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (target[static_cast<size_t>(runs - 1) % bytes] != static_cast<char>(runs - 1))
    throw BackendError("measureHostMemcpy: the copy did not arrive");
  double m = median(seconds);
  return m > 0 ? 2.0 * static_cast<double>(bytes) / m : 0;
}

std::optional<std::string> hostMemcpyNote(const CopyBandwidth &bandwidth) {
  if (!bandwidth.hostMemcpyBytesPerSecond || *bandwidth.hostMemcpyBytesPerSecond <= 0 || bandwidth.bytesPerSecond <= 0)
    return std::nullopt;
  double ratio = bandwidth.bytesPerSecond / *bandwidth.hostMemcpyBytesPerSecond;
  if (ratio <= 2.0 && ratio >= 0.5) return std::nullopt;
  std::ostringstream s;
  s.precision(2);
  s << std::fixed << "the roof is " << ratio << "x the host memcpy: "
    << (ratio > 2 ? "the copy kernels may be served from caches, or memcpy is single-threaded"
                  : "no copy kernel reaches the host's bandwidth (the runtime's code generation, or a busy host)");
  return s.str();
}

} // namespace liftcc::tuner
