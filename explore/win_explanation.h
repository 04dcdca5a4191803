#pragma once
// Why the best variant of an exploration won: how many bytes each output
// needs to move at least, the bandwidth that variant reached with them and
// its fraction of the device's copy roof (tuner/copy_roofline.h), and how far
// ahead it is of the best variant of every other strategy family. Written to
// the best-kernel directory's launch.json ("why") and shown by `liftc explore`
// and `liftc best`.

#include "core/ir/expr.h"
#include "tuner/device.h"

#include <cstdint>
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::explore {

struct Evaluation;

/// Compulsory memory traffic per output element of a typed program: every
/// input read once and the result written once (their scalars' byte sizes),
/// divided by the result's scalars. A stencil that moves only that is at the
/// copy roof.
double compulsoryBytesPerOutput(const Program &typed, const std::map<std::string, int64_t> &sizes);

/// The copy roof an exploration measured for its explanation.
struct MeasuredRoof {
  double bytesPerSecond = 0;
  std::string copy;       ///< the fastest copy's label, e.g. "float8 wg=256"
  size_t bufferBytes = 0; ///< bytes of each of its two buffers
};

/// The buffer size the roof of a problem is measured with: the problem's
/// compulsory bytes split over the copy's two buffers, at least 1 MiB and at
/// most the default roof's buffers, so the copy sees the caches the stencil sees.
size_t roofBufferBytes(double bytesPerOutput, int64_t outputElements);

/// The best evaluation of another family than the winner's.
struct FamilyRunnerUp {
  std::string family;
  std::string key;
  double medianNs = 0;
};

struct WinExplanation {
  std::string family;        ///< the winner's strategy family (explore/strategy_text.h familyOf)
  double medianNs = 0;       ///< the winner's time
  double bytesPerOutput = 0; ///< compulsoryBytesPerOutput
  double achievedBytesPerSecond = 0;
  std::optional<MeasuredRoof> roof;
  /// The best of every other family that ran successfully, fastest first.
  std::vector<FamilyRunnerUp> runnersUp;

  std::optional<double> fractionOfRoof() const;
  nlohmann::json toJson() const;
  /// Reads what toJson wrote; std::invalid_argument naming the field otherwise.
  static WinExplanation fromJson(const nlohmann::json &j);
  /// One paragraph for people: traffic, bandwidth, roof fraction, lead over the other families.
  std::string summary() const;
};

/// The explanation of `evaluations[best]` (which must have run successfully).
WinExplanation explainWin(const std::vector<Evaluation> &evaluations, size_t best, double bytesPerOutput,
                          int64_t outputElements);

/// Measures the device's copy roof at roofBufferBytes (one warm-up, three runs each copy).
MeasuredRoof measureRoof(tuner::Device &device, double bytesPerOutput, int64_t outputElements);

} // namespace liftcc::explore
