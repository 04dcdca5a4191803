#pragma once
// Why the best variant of an exploration won: how many bytes each output
// needs to move at least, the bandwidth that variant reached with them and
// its fraction of the device's copy roof (tuner/copy_roofline.h), and how far
// ahead it is of the best variant of every other strategy family. Written to
// the best-kernel directory's launch.json ("why") and shown by `liftc explore`
// and `liftc best`.

#include "codegen/kernel.h"
#include "core/ir/expr.h"
#include "search/roof_rounds.h"
#include "tuner/device.h"

#include "core/io/json.h"
#include <cstdint>

#include <functional>
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

/// Modelled global-memory traffic per output element of a kernel: the
/// compulsory bytes plus, for a multi-kernel program, every global temporary
/// written once and read once (codegen::Kernel::temporaries), all of it once
/// per launch of an iterated kernel's host loop. Fusing an intermediate into
/// its readers removes its share (and recomputes it); a time tile of t steps
/// divides the launches by t.
double modelledBytesPerOutput(const codegen::Kernel &kernel, double compulsoryBytesPerOutput,
                              const std::map<std::string, int64_t> &sizes, int64_t outputScalars);

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
  double modelledBytesPerOutput = 0; ///< modelledBytesPerOutput of its kernel; 0: not known
};

struct WinExplanation {
  std::string family;        ///< the winner's strategy family (explore/strategy_text.h familyOf)
  double medianNs = 0;       ///< the winner's time
  double bytesPerOutput = 0; ///< compulsoryBytesPerOutput
  /// modelledBytesPerOutput of the winner's kernel (above the compulsory
  /// bytes for separate kernels of a multi-kernel program); 0: not known.
  double modelledBytesPerOutput = 0;
  double achievedBytesPerSecond = 0;
  /// The copy roof: measured once after the search, or, when the finalists
  /// were re-timed (explore/finalists.h), the fastest round's copy.
  std::optional<MeasuredRoof> roof;
  /// With the finalists' rounds: the winner's fraction of each round's copy
  /// roof, their median and spread (search/roof_rounds.h).
  std::optional<search::RoofFraction> roofInRounds;
  /// The best of every other family that ran successfully, fastest first.
  std::vector<FamilyRunnerUp> runnersUp;

  /// The winner's fraction of the roof: the median over rounds when measured
  /// in rounds, else against the roof measured once; nullopt without a roof
  /// and when it is above 1.0 (roofProblem: no kernel beats the copy of its
  /// own compulsory traffic, so it is a measurement problem, never a figure).
  std::optional<double> fractionOfRoof() const;
  /// The fraction above 1.0 that fractionOfRoof does not report, if any.
  std::optional<double> roofProblem() const;
  nlohmann::json toJson() const;
  /// Reads what toJson wrote; std::invalid_argument naming the field otherwise.
  static WinExplanation fromJson(const nlohmann::json &j);
  /// One paragraph for people: traffic, bandwidth, roof fraction, lead over the other families.
  std::string summary() const;
};

/// The explanation of `evaluations[best]` (which must have run successfully).
/// `modelledBytes` (optional): modelledBytesPerOutput of evaluation i's kernel.
WinExplanation explainWin(const std::vector<Evaluation> &evaluations, size_t best, double bytesPerOutput,
                          int64_t outputElements, const std::function<double(size_t)> &modelledBytes = {});

/// Measures the device's copy roof at roofBufferBytes (one warm-up, three runs each copy).
MeasuredRoof measureRoof(tuner::Device &device, double bytesPerOutput, int64_t outputElements);

} // namespace liftcc::explore
