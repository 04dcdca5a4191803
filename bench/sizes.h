#pragma once
// Problem sizes of the benchmark: the timed sizes (a preset, optionally
// scaled) and the small sizes at which every contender is verified.

#include "bench/grids.h"
#include "examples/example.h"

#include <cstdint>
#include <optional>
#include <string>

namespace liftcc::bench {

enum class SizePreset {
  /// Large enough to stream from DRAM on a CPU, small enough that the whole
  /// benchmark runs in minutes on PoCL: 2^22 (1D), 2048^2 (2D), 128^3 (3D).
  Default,
  /// The CGO'18 Table 1 sizes (Example::paperSizes).
  Paper,
};

std::optional<SizePreset> parseSizePreset(const std::string &name);

/// The preset's sizes for `example`. A `scale` other than 1 multiplies every
/// extent and rounds it to a multiple of 32 (at least 32), so that the tile
/// sizes of the recipes (4 to 32) still divide it.
Sizes benchSizes(const examples::Example &example, SizePreset preset, double scale = 1.0);

/// Small, distinct extents (so that swapped dimensions show), each a multiple
/// of `multiple`: 24, 32, 40 for multiples of 8, outermost first.
Sizes verificationSizes(const examples::Example &example, int64_t multiple);

} // namespace liftcc::bench
