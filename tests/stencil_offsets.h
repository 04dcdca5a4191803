#pragma once
// The taps the tests' stencils of any radius share (stream_local_support.h,
// time_tile_support.h): the star, its centre and the box's corners, so that
// a misplaced halo in any dimension or corner shows.

#include "examples/stencil_helpers.h"

#include <vector>

namespace liftcc::test {

inline std::vector<examples::Offset> starCentreAndCorners(int dims, int radius) {
  std::vector<examples::Offset> offsets = examples::starOffsets(dims, radius);
  offsets.push_back(examples::centre(dims));
  for (const examples::Offset &o : examples::boxOffsets(dims, radius)) {
    bool corner = true;
    for (int c : o) corner = corner && (c == radius || c == -radius);
    if (corner) offsets.push_back(o);
  }
  return offsets;
}

} // namespace liftcc::test
