// The family table (issue #32 item 2; explore/families/, docs/architecture.md):
// every row's configurations print as strategies that parse back to the same
// configuration, the table's product is the enumeration the hard-coded loops
// gave before it (programs and candidates of two programs, recorded in
// tests/data/family_table/ from the commit before the table), and the rows
// are complete. A new family is its file and its row in families(): the
// round-trip case below covers its configurations without an edit; its own
// test checks what its kernels compute.

#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "examples/stencil_helpers.h"
#include "explore/families/family.h"
#include "explore/family_programs.h"
#include "explore/strategy_text.h"
#include "primitives/stencil.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>

namespace liftcc {
namespace {

using Sizes = std::map<std::string, int64_t>;
namespace families = explore::families;

Program typedExample(const std::string &name, int64_t extent) {
  const examples::Example &ex = examples::findExample(name);
  Sizes sizes;
  for (const std::string &size : ex.sizeNames) sizes[size] = extent;
  return typeCheck(ex.build(), sizes);
}

/// A 2D Jacobi with periodic borders iterated 4 times, at extent^2: the
/// examples' iterates clamp, and timeTiledLocal takes wrap and constant ones.
Program typedWrapIterate(int64_t extent) {
  Expr grid = examples::gridInput("A", examples::gridSizes(2, 3));
  Expr step = api::fn(
      [](Expr x) {
        return api::stencil({{x, PadMode::Wrap}}, "return 0.25f * (x[-1][0] + x[1][0] + x[0][-1] + x[0][1]);");
      },
      "x");
  Program program = api::program({grid}, api::iterate(4, step, grid));
  Sizes sizes;
  for (const arith::Expr &size : program.sizes) sizes[size.varName()] = extent;
  return typeCheck(program, sizes);
}

/// Every family of the table selected, with few values per parameter.
explore::SpaceOptions everyFamily() {
  explore::SpaceOptions options;
  for (const families::Family &family : families::families()) options.*family.include = true;
  options.tileSizes = {4, 8};
  options.coarsenFactors = {2, 4};
  options.vectorWidths = {4};
  options.groupExtents = {4, 16};
  options.streamRows = {8}; // rows that fit the 2D programs below
  options.threads = 1;
  return options;
}

/// The strategy of `c` parsed back, with the launch and codegen steps too.
void checkRoundTrip(explore::Configuration c, int dims) {
  INFO(explore::strategyText(c, dims));
  CHECK(explore::parseStrategy(explore::strategyText(c, dims)).configuration == c);
  c.local = {16, 4, 1};
  c.specialise = c.noinlineBorder = c.divToMul = true;
  c.fastMath = codegen::FastMath::Relaxed;
  CHECK(explore::parseStrategy(explore::strategyText(c, dims)).configuration == c);
}

TEST_CASE("family table: every row's strategies print and parse back to the same configuration") {
  std::set<std::string> covered;
  // 2D and 3D stencils, an iterate (timeTiled), a two-stage program (fused)
  // and a periodic iterate (timeTiledLocal).
  for (const auto &[name, extent] : std::vector<std::pair<std::string, int64_t>>{{"jacobi2d_5pt", 16},
                                                                                 {"heat", 8},
                                                                                 {"jacobi2d_5pt_iter16", 16},
                                                                                 {"srad_two_stage", 16},
                                                                                 {"wrap iterate", 64}}) {
    INFO(name);
    Program typed = name == "wrap iterate" ? typedWrapIterate(extent) : typedExample(name, extent);
    explore::LoweredPrograms lowered = explore::lowerPrograms(typed, everyFamily());
    CHECK(lowered.programs.size() > 10);
    for (const auto &[configuration, program] : lowered.programs) {
      checkRoundTrip(configuration, families::ndrangeDimensions(program));
      covered.insert(explore::familyOf(configuration));
    }
  }
  for (const families::Family &family : families::families()) {
    INFO(family.name);
    CHECK(covered.count(family.name) == 1);
  }
}

/// A recorded enumeration: "candidates N", then one program's strategy a line.
struct Recorded {
  size_t candidates = 0;
  std::vector<std::string> programs;
};

Recorded readRecorded(const std::string &file) {
  std::ifstream in(std::string(LIFTCC_SOURCE_DIR) + "/tests/data/family_table/" + file);
  REQUIRE(in.good());
  Recorded recorded;
  std::string word, line;
  in >> word >> recorded.candidates;
  std::getline(in, line);
  while (std::getline(in, line))
    if (!line.empty()) recorded.programs.push_back(line);
  return recorded;
}

TEST_CASE("family table: its product is the enumeration of the loops before it (programs and candidates)") {
  // The options of the recording: the ten families of then, no others (a
  // family added later is off here, so the recording stays valid).
  explore::SpaceOptions options;
  for (const families::Family &family : families::families()) options.*family.include = false;
  for (const char *name :
       {"plain", "stream", "streamLocal", "tiled", "local", "coarsened", "vector", "mapping", "fused", "timeTiled"})
    options.*families::findFamily(name)->include = true;
  options.tileSizes = {4, 8};
  options.coarsenFactors = {2, 4};
  options.vectorWidths = {4};
  options.vectorCoarsensOuter = false; // came later, as the split-border twins below
  options.streamVectorWidths = {};     // came later too
  options.streamRows = {};             // and a 2D program's rows
  options.groupExtents = {4, 16};
  options.threads = 1;
  for (const auto &[name, extent, file] : std::vector<std::tuple<std::string, int64_t, std::string>>{
           {"jacobi2d_5pt", 16, "jacobi2d_5pt_16.txt"}, {"heat", 8, "heat_8.txt"}}) {
    INFO(name);
    Recorded recorded = readRecorded(file);
    explore::SpaceDescription description = explore::describeSpace(typedExample(name, extent), {}, options);
    // Streams whose plane tile or chunk was narrowed to the output came later
    // too (before, a tile wider than the output was no program).
    auto narrowedStream = [&](const explore::Configuration &c) {
      if (c.recipe != rewrite::Recipe::StreamLocal) return false;
      bool listedTile =
          std::find(options.streamTiles.begin(), options.streamTiles.end(), c.tileShape) != options.streamTiles.end();
      bool listedChunk = std::find(options.streamChunks.begin(), options.streamChunks.end(), c.streamChunk) !=
                         options.streamChunks.end();
      return !listedTile || !listedChunk;
    };
    std::vector<std::string> programs;
    size_t narrowed = 0;
    for (const explore::DescribedProgram &p : description.programs)
      if (!narrowedStream(p.configuration)) programs.push_back(explore::strategyText(p.configuration, p.base.dims));
    CHECK(programs == recorded.programs);
    // The split-border twins came later: one per noinline-border candidate.
    size_t split = 0, noinline = 0;
    for (const explore::Candidate &c : description.candidates) {
      if (narrowedStream(c.configuration)) {
        ++narrowed;
        continue;
      }
      split += c.configuration.splitBorder;
      noinline += c.configuration.noinlineBorder && !c.configuration.splitBorder;
    }
    CHECK(narrowed > 0); // the heat's 8^3 and Jacobi's 16^2 grids are narrower than some plane tiles
    CHECK(split == noinline);
    CHECK(description.candidates.size() - split - narrowed == recorded.candidates);
  }
}

TEST_CASE("family table: stream rows, plane tiles and chunks wider than the output are narrowed to it") {
  explore::SpaceOptions options;
  for (const families::Family &family : families::families()) options.*family.include = false;
  options.includeStreamLocal = true;
  options.threads = 1;
  for (const auto &[name, extent] : std::vector<std::pair<std::string, int64_t>>{{"jacobi2d_5pt", 40}, {"heat", 12}}) {
    INFO(name);
    explore::SpaceDescription description = explore::describeSpace(typedExample(name, extent), {}, options);
    REQUIRE_FALSE(description.programs.empty()); // before: none (rows of 128 and 256, tiles 32 wide)
    std::set<int64_t> chunks;
    for (const explore::DescribedProgram &p : description.programs) {
      const explore::Configuration &c = p.configuration;
      CHECK(c.recipe == rewrite::Recipe::StreamLocal);
      CHECK(c.streamChunk <= extent);
      chunks.insert(c.streamChunk);
      if (name == "jacobi2d_5pt") CHECK(c.tile <= extent); // a row: tile(X)
      for (int d = 0; d < 2; ++d) CHECK(c.tileShape[d] <= extent);
    }
    CHECK(chunks.count(std::min<int64_t>(32, extent)) == 1); // chunks of 32 narrowed, not dropped
  }
}

TEST_CASE("family table: the rows are complete, named once, base families before derived ones") {
  std::set<std::string> names;
  bool derivedSeen = false;
  for (const families::Family &family : families::families()) {
    INFO(family.name);
    CHECK(names.insert(family.name).second);
    CHECK(family.include != nullptr);
    CHECK((family.parameters && family.configurations && family.member));
    CHECK_FALSE(family.lowering.empty());
    CHECK((family.stage == families::Stage::Base || family.remapped == families::Remapped::Never));
    if (family.stage == families::Stage::Derived) derivedSeen = true;
    CHECK((family.stage == families::Stage::Derived || !derivedSeen));
    CHECK(families::findFamily(family.name) == &family);
  }
  // familyNames() and --space's summaries follow the table.
  std::vector<std::string> fromTable(names.size());
  fromTable.clear();
  for (const families::Family &family : families::families()) fromTable.push_back(family.name);
  CHECK(explore::familyNames() == fromTable);
  std::vector<std::string> summarised;
  for (const explore::FamilySummary &summary : explore::familySummaries(everyFamily()))
    summarised.push_back(summary.name);
  CHECK(summarised == fromTable);
  CHECK(families::findFamily("derivations") == nullptr);
}

} // namespace
} // namespace liftcc
