#pragma once
// Best-kernel entries written by the export and best tests: a kernel file and
// its launch.json with the hashes explore records, so that what a test edits
// afterwards is the only thing wrong with an entry.

#include "codegen/generate.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "explore/record_identity.h"
#include "rewrite/recipes.h"
#include "tests/iterated_program.h"
#include "tests/test_support.h"

#include "core/io/json.h"

#include <array>
#include <cstdint>
#include <map>
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

/// A kernel and its launch.json as explore writes them, before sealing.
struct UnsealedEntry {
  std::string source;
  nlohmann::json launch;
};

/// The entry of `programText` (JSON) named `name` at `sizes` (`sizesText`
/// as launch.json spells them) with the plain recipe in OpenCL, launched in
/// 8 x 8 work-groups, measured at `measured`.
inline UnsealedEntry plainEntry(const std::string &programText, const std::string &name,
                                const std::map<std::string, int64_t> &sizes, const std::string &sizesText,
                                const std::string &measured) {
  Program typed = typeCheck(readProgram(programText), sizes);
  codegen::Kernel kernel =
      codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain), codegen::Target::OpenCL);
  nlohmann::json launch = {{"liftcc", 1},
                           {"device", "test device"},
                           {"program", name},
                           {"sizes", sizesText},
                           {"configuration", {{"recipe", "plain"}, {"tile", 0}, {"local", {8, 8, 1}}}},
                           {"key", "plain wg=8x8x1"},
                           {"kernelFile", "kernel.cl"},
                           {"medianNs", 1000.0},
                           {"measured", measured},
                           {"kernel", codegen::kernelMetadata(kernel)}};
  return {kernel.source, std::move(launch)};
}

/// Jacobi2D (examples/json/jacobi2d_5pt.json) at 40 x 56: the entry the
/// export trust and fuzz tests edit.
inline UnsealedEntry jacobi2dPlainEntry() {
  return plainEntry(readFile(sourceDir() / "examples/json/jacobi2d_5pt.json"), "jacobi2d_5pt", {{"N", 40}, {"M", 56}},
                    "N=40,M=56", "2026-11-27T10:00:00Z");
}

/// The same for a wave iterated 4 times over (U, V): its launch.json has
/// /kernel/iterate with "inputs" and "carriedFrom".
inline UnsealedEntry waveTuplePlainEntry() {
  return plainEntry(waveTupleJson(4), "wave", {{"N", 13}, {"M", 11}}, "N=13,M=11", "2026-11-29T10:00:00Z");
}

} // namespace liftcc::test
