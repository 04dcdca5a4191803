#pragma once
// Best-kernel entries written by the export and best tests: a kernel file and
// its launch.json with the hashes explore records, so that what a test edits
// afterwards is the only thing wrong with an entry.

#include "explore/record_identity.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace liftcc::test {

/// `launch` with the kernelSourceHash and kernelHash explore writes for a
/// kernel `source` described by launch["kernel"] and launched with
/// launch["configuration"]["local"] (0x0x0 when absent).
inline nlohmann::json sealedLaunch(nlohmann::json launch, const std::string &source) {
  std::array<int64_t, 3> local{0, 0, 0};
  if (launch.contains("configuration") && launch["configuration"].contains("local"))
    local = launch["configuration"]["local"].get<std::array<int64_t, 3>>();
  launch["kernelSourceHash"] = explore::stableHash(source);
  launch["kernelHash"] = explore::kernelHash(source, launch["kernel"], local);
  return launch;
}

} // namespace liftcc::test
