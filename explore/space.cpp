#include "explore/space.h"

#include "codegen/generate.h"
#include "core/interp/deadline.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "driver/pipeline.h"
#include "explore/families/family.h"
#include "explore/family_programs.h"
#include "explore/parallel_map.h"
#include "explore/strategy_text.h"
#include "rewrite/stages.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <variant>

namespace liftcc::explore {

namespace {

/// Work-group shapes for a kernel of `dims` dimensions: dimension 0 the
/// widest (consecutive work-items, consecutive addresses), bounded by the
/// device and by the extent of the work (a larger group only idles).
std::vector<std::array<int64_t, 3>> groupShapes(int dims, const std::array<int64_t, 3> &extents,
                                                const DeviceLimits &limits, const SpaceOptions &options) {
  std::vector<std::array<int64_t, 3>> shapes;
  auto fits = [&](int d, int64_t g) { return g <= limits.maxWorkItemSizes[d] && (g == 1 || g / 2 < extents[d]); };
  for (int64_t x : options.groupExtents) {
    if (!fits(0, x)) continue;
    for (int64_t y : dims >= 2 ? options.groupExtents : std::vector<int64_t>{1}) {
      if (!fits(1, y) || x * y > limits.maxWorkGroupSize) continue;
      for (int64_t z : dims >= 3 ? options.groupExtents : std::vector<int64_t>{1}) {
        if (!fits(2, z) || x * y * z > limits.maxWorkGroupSize) continue;
        // Keep shapes with a reasonable amount of work per group.
        if (x * y * z < 16 && x * y * z < extents[0] * extents[1] * extents[2]) continue;
        shapes.push_back({x, y, z});
      }
    }
  }
  return shapes;
}

/// At most `count` of `shapes`, evenly spread over the list (which runs from
/// narrow to wide groups), for the programs that get fewer shapes.
std::vector<std::array<int64_t, 3>> spreadSample(const std::vector<std::array<int64_t, 3>> &shapes, size_t count) {
  if (shapes.size() <= count) return shapes;
  std::vector<std::array<int64_t, 3>> sample;
  for (size_t i = 0; i < count; ++i) sample.push_back(shapes[(2 * i + 1) * shapes.size() / (2 * count)]);
  return sample;
}

/// The shapes of `shapes` whose rows of consecutive work-items span whole
/// runs of consecutive addresses: x at least 32 work-items (a warp; the
/// whole extent where that is narrower) and at most 256 work-items in all
/// (or all shapes, when none is left). The coarsened and vector families
/// sample only a few shapes per program; spread over every shape, those
/// were mostly columns such as 1x32x8 or 8x2x256, and heat's coarsened
/// programs never met the 32-wide shapes that run them 1.6-2x faster on
/// PoCL (docs/rewriting.md, Families) and coalesce on GPUs.
std::vector<std::array<int64_t, 3>> wideRowShapes(const std::vector<std::array<int64_t, 3>> &shapes,
                                                  const std::array<int64_t, 3> &extents) {
  int64_t minimumRow = 1;
  while (minimumRow < std::min<int64_t>(32, extents[0])) minimumRow *= 2;
  std::vector<std::array<int64_t, 3>> wide;
  for (const auto &shape : shapes)
    if (shape[0] >= minimumRow && shape[0] * shape[1] * shape[2] <= 256) wide.push_back(shape);
  return wide.empty() ? shapes : wide;
}

/// The boundary-specialised twin of each variant whose kernel it changes
/// (same configuration with `specialise`, the kernel regenerated for the
/// variant's work-group size, so that a dividing size also drops the guard).
/// A list of its own, so the round-robin below reaches the twins as early as
/// the plain variants.
std::vector<Variant> specialisedTwins(const std::vector<Variant> &variants, const SpaceOptions &options) {
  const codegen::Target target = options.target;
  std::vector<Variant> twins;
  for (const Variant &v : variants) {
    checkSpaceDeadline(options);
    Configuration c = v.configuration;
    c.specialise = true;
    codegen::Kernel kernel = driver::generate(v.lowered, c, target);
    if (kernel.source != v.kernel.source) twins.push_back({c, v.lowered, std::move(kernel)});
  }
  return twins;
}

/// Whether a specialised kernel has a border code (an interior was found).
bool hasBorderCode(const codegen::Kernel &k) { return k.interior.has_value(); }

/// Whether a specialised kernel's interior is decided per work-item (mapGlb),
/// so its border work-groups can split per work-item.
bool hasItemInterior(const codegen::Kernel &k) { return k.interior && !k.interior->inWorkGroups; }

/// The twin, with `flag` set, of each of `variants` whose kernel `admits` it.
std::vector<Variant> twinsWith(const std::vector<Variant> &variants, const SpaceOptions &options,
                               bool Configuration::*flag, bool (*admits)(const codegen::Kernel &)) {
  std::vector<Variant> out;
  for (const Variant &v : variants) {
    if (!admits(v.kernel)) continue;
    checkSpaceDeadline(options);
    Configuration c = v.configuration;
    c.*flag = true;
    out.push_back({c, v.lowered, driver::generate(v.lowered, c, options.target)});
  }
  return out;
}

/// The twins of the specialised `twins` whose OpenCL border code calls
/// never-inlined copies of the user functions (noinlineBorder): which of the
/// two border codes is faster depends on the stencil (docs/codegen.md,
/// Boundary specialisation). Only kernels with an interior have a border code.
std::vector<Variant> noinlineBorderTwins(const std::vector<Variant> &twins, const SpaceOptions &options) {
  if (options.target != codegen::Target::OpenCL) return {};
  return twinsWith(twins, options, &Configuration::noinlineBorder, hasBorderCode);
}

/// The twins of the noinline-border `twins` whose border work-groups run the
/// interior code in their interior work-items (splitBorder): a border
/// work-group calls the never-inlined functions once per element, so PoCL
/// runs it several times slower than an interior one, and a 64-wide
/// work-group is a border one for the two elements of its row that need it.
/// With the border code inlined, PoCL merges the two codes again
/// (docs/codegen.md, Boundary specialisation), so that twin is not explored.
/// Only kernels whose interior is decided per work-item have the choice.
std::vector<Variant> splitBorderTwins(const std::vector<Variant> &twins, const SpaceOptions &options) {
  return twinsWith(twins, options, &Configuration::splitBorder, hasItemInterior);
}

/// Whether some user function of `program` has a sum that the reassociate
/// level regroups (cfun::Function::regroupedSums).
bool hasRegroupableSum(const Program &program) {
  return containsNode(program.body(), [](const Expr &e) {
    return e.is(ExprKind::UserFun) && e.userFun().regroupedSums().body() != e.userFun().body();
  });
}

/// A kernel's source with the launch it was generated for.
std::string launchedSource(const codegen::Kernel &kernel) {
  std::string text = kernel.source + "\n// global";
  for (const arith::Expr &g : kernel.globalSize) text += " " + g.str();
  if (kernel.localSize)
    for (int64_t l : *kernel.localSize) text += " local " + std::to_string(l);
  return text + (kernel.requiresLocalSize ? " exact" : "");
}

/// Every variant at every level of `levels`, interleaved (a variant's levels
/// next to each other), so that a budget cut short still sees each level.
/// Only the build options differ, which is all generateKernel changes for a
/// level, except reassociate, whose kernels are generated again (their user
/// functions differ; on `threads` threads) and left out where they would
/// equal the exact ones.
std::vector<Variant> crossWithFastMath(const std::vector<Variant> &variants, const SpaceOptions &options) {
  const std::vector<codegen::FastMath> &levels = options.fastMathLevels;
  const codegen::Target target = options.target;
  const size_t threads = options.threads;
  if (levels.size() == 1 && levels.front() == codegen::FastMath::None) return variants;
  // The regrouped kernel of each variant, once per distinct exact kernel and
  // launch (the unspecialised variants of a mapGlb program share one; a
  // mapWrg kernel is generated for its work-group, which its source need not
  // show: tiled 8x8 and 4x8 work-groups once shared a kernel made for 8x8);
  // none for programs without a regroupable sum.
  std::vector<std::optional<size_t>> regroupedOf(variants.size());
  std::vector<codegen::Kernel> regrouped;
  if (std::find(levels.begin(), levels.end(), codegen::FastMath::Reassociate) != levels.end()) {
    std::map<size_t, bool> regroupable; // by the lowered program's hash
    std::map<std::pair<size_t, std::string>, size_t> distinct;
    std::vector<size_t> representatives;
    for (size_t i = 0; i < variants.size(); ++i) {
      size_t hash = variants[i].lowered.body().hash();
      if (!regroupable.count(hash)) regroupable[hash] = hasRegroupableSum(variants[i].lowered);
      if (!regroupable[hash]) continue;
      auto [it, added] =
          distinct.emplace(std::make_pair(hash, launchedSource(variants[i].kernel)), representatives.size());
      if (added) representatives.push_back(i);
      regroupedOf[i] = it->second;
    }
    regrouped = parallelMap(representatives.size(), threads, [&](size_t k) {
      checkSpaceDeadline(options);
      Configuration c = variants[representatives[k]].configuration;
      c.fastMath = codegen::FastMath::Reassociate;
      return driver::generate(variants[representatives[k]].lowered, c, target);
    });
  }
  std::vector<Variant> crossed;
  for (size_t i = 0; i < variants.size(); ++i)
    for (codegen::FastMath level : levels) {
      if (level == codegen::FastMath::Reassociate && !regroupedOf[i]) continue;
      Variant w = variants[i];
      w.configuration.fastMath = level;
      if (level == codegen::FastMath::Reassociate)
        w.kernel = regrouped[*regroupedOf[i]];
      else
        w.kernel.buildOptions = codegen::buildOptionsFor(level, target);
      crossed.push_back(std::move(w));
    }
  return crossed;
}

/// A program's launches: the configurations of its variants before
/// specialisation and fast math (the default launch first), and how many
/// do not fit the device (its local memory, or a work-group shape too large).
struct ProgramLaunches {
  std::vector<Configuration> configurations;
  size_t dropped = 0;
};

ProgramLaunches programLaunches(const LoweredPrograms &lowered, size_t p, const codegen::Kernel &base,
                                const DeviceLimits &limits, const SpaceOptions &options) {
  ProgramLaunches result;
  const Configuration &config = lowered.programs[p].first;
  if (base.localMemoryBytes > limits.localMemoryBytes) {
    ++result.dropped;
    return result;
  }
  std::array<int64_t, 3> extents{1, 1, 1};
  for (int d = 0; d < base.dims; ++d) {
    const arith::Expr &g = base.globalSize[d];
    extents[d] = g.isConstant() ? g.constant() : 1 << 20;
  }
  if (base.localSize) {
    // Work-group kernels: the default shape from the tile, and shapes
    // with fewer work-items per group (each computes several outputs).
    std::array<int64_t, 3> def = *base.localSize;
    // streamLocal: one work-item per output of the plane tile (the widest
    // mapLcl, the default, is its copy: the tile plus halo).
    // With vectors, one work-item per vector of outputs along x.
    if ((config.recipe == rewrite::Recipe::StreamLocal || config.recipe == rewrite::Recipe::TimeTiledStream) &&
        base.dims >= 2)
      def = {(config.tileShape[0] > 0 ? config.tileShape[0] : config.tile) / std::max<int64_t>(1, config.vectorWidth),
             base.dims == 3 ? (config.tileShape[1] > 0 ? config.tileShape[1] : config.tile) : 1, 1};
    // timeTiledLocal: one work-item per output of the tile (the widest
    // mapLcl is the first copy: the tile plus every step's halo).
    if (config.recipe == rewrite::Recipe::TimeTiledLocal)
      for (int d = 0; d < base.dims && d < 3; ++d)
        def[static_cast<size_t>(d)] = config.tileShape[static_cast<size_t>(d)];
    std::vector<std::array<int64_t, 3>> shapes{def};
    for (int d = 0; d < base.dims; ++d)
      if (def[d] >= 4) {
        auto halved = def;
        halved[d] /= 2;
        shapes.push_back(halved);
      }
    // timeTiledLocal also with one work-item per element of its widest
    // buffer: every copy and step one pass of the group (a 32x8 group takes
    // 2x2 passes over a depth-4 tile's 40x16 copy and 38x14 first step).
    if (config.recipe == rewrite::Recipe::TimeTiledLocal && *base.localSize != def) shapes.push_back(*base.localSize);
    for (const auto &shape : shapes) {
      if (shape[0] * shape[1] * shape[2] > limits.maxWorkGroupSize) {
        ++result.dropped;
        continue;
      }
      Configuration c = config;
      c.local = shape;
      result.configurations.push_back(c);
    }
  } else {
    // mapGlb kernels: the runtime's choice first, then explicit shapes.
    result.configurations.push_back(config);
    std::vector<std::array<int64_t, 3>> shapes = groupShapes(base.dims, extents, limits, options);
    if (lowered.everyDimension.count(p))
      shapes = spreadSample(shapes, options.timeTiledGroupShapes);
    else if (config.recipe == rewrite::Recipe::Coarsened || config.vectorWidth > 0)
      shapes = spreadSample(wideRowShapes(shapes, extents), options.coarsenedGroupShapes);
    if (p >= lowered.unmappedPrograms && !config.mapping.isDefault())
      shapes = spreadSample(shapes, options.mappedGroupShapes);
    for (const auto &shape : shapes) {
      Configuration c = config;
      c.local = shape;
      result.configurations.push_back(c);
    }
  }
  return result;
}

/// Round-robin over `lists`, so that a budget cut short still covers every
/// low-level variant before it varies work-group sizes.
template <typename T> std::vector<T> roundRobin(std::vector<std::vector<T>> lists) {
  std::vector<T> ordered;
  for (size_t k = 0;; ++k) {
    bool any = false;
    for (auto &list : lists)
      if (k < list.size()) {
        ordered.push_back(std::move(list[k]));
        any = true;
      }
    if (!any) break;
  }
  return ordered;
}

} // namespace

const std::vector<std::string> &familyNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const families::Family &family : families::families()) out.push_back(family.name);
    return out;
  }();
  return names;
}

std::string kernelIdentity(const Variant &v) {
  std::string id = v.kernel.source + '\0' + v.kernel.buildOptions + '\0' + std::to_string(v.kernel.dims);
  for (const arith::Expr &g : v.kernel.globalSize) id += '\0' + g.str();
  for (int64_t l : v.configuration.local) id += '\0' + std::to_string(l);
  if (v.kernel.localSize)
    for (int64_t l : *v.kernel.localSize) id += "\0k" + std::to_string(l);
  return id;
}

Space enumerateSpace(const Program &typed, const DeviceLimits &limits, const SpaceOptions &options) {
  Space space;
  const LoweredPrograms lowered = lowerPrograms(typed, options);
  const auto &programs = lowered.programs;
  space.distinctPrograms = programs.size();

  // Per program: its variants, the kernel's default launch first, then its
  // specialised twins. Generating them is most of the enumeration's time
  // (thousands of kernels for a 3D stencil) and independent per program, so
  // it runs on SpaceOptions::threads threads; the order stays the programs'.
  struct ProgramVariants {
    std::vector<std::vector<Variant>> lists;
    size_t dropped = 0;
  };
  auto variantsOfProgram = [&](size_t p) {
    ProgramVariants result;
    const auto &[config, program] = programs[p];
    checkSpaceDeadline(options);
    codegen::Kernel base = codegen::generateKernel(program, options.target);
    ProgramLaunches launches = programLaunches(lowered, p, base, limits, options);
    result.dropped = launches.dropped;
    std::vector<Variant> variants;
    for (const Configuration &c : launches.configurations) {
      if (!base.localSize) {
        variants.push_back({c, program, base});
        continue;
      }
      checkSpaceDeadline(options);
      variants.push_back({c, program, driver::generate(program, c, options.target)});
    }
    if (variants.empty()) return result;
    std::vector<Variant> twins;
    if (options.includeSpecialised) twins = specialisedTwins(variants, options);
    result.lists.push_back(std::move(variants));
    if (!twins.empty()) {
      std::vector<Variant> noinline = noinlineBorderTwins(twins, options);
      std::vector<Variant> split = splitBorderTwins(noinline, options);
      result.lists.push_back(std::move(twins));
      for (std::vector<Variant> *list : {&noinline, &split})
        if (!list->empty()) result.lists.push_back(std::move(*list));
    }
    return result;
  };
  // A program codegen refuses (a time tile whose recomputation makes one
  // expression too long: codegen::kir::kMaxExpressionBytes) is dropped, not an
  // error of the whole exploration.
  auto variantsOf = [&](size_t p) {
    try {
      return variantsOfProgram(p);
    } catch (const codegen::CodegenError &) {
      ProgramVariants none;
      none.dropped = 1;
      return none;
    }
  };
  std::vector<std::vector<Variant>> perProgram;
  for (ProgramVariants &pv : parallelMap(programs.size(), options.threads, variantsOf)) {
    space.dropped += pv.dropped;
    for (std::vector<Variant> &list : pv.lists) perProgram.push_back(std::move(list));
  }
  std::vector<Variant> ordered = crossWithFastMath(roundRobin(std::move(perProgram)), options);

  // Distinct kernels only: two strategies that generate the same kernel and
  // launch it alike are one variant (the first, so the simpler family keeps it).
  space.families = selectedFamilies(typed, lowered, options);
  std::map<std::string, FamilySummary *> byName;
  for (FamilySummary &f : space.families) byName[f.name] = &f;
  std::set<std::string> seenKernels;
  for (Variant &v : ordered) {
    if (!seenKernels.insert(kernelIdentity(v)).second) {
      ++space.duplicates;
      continue;
    }
    if (auto it = byName.find(familyOf(v.configuration)); it != byName.end()) ++it->second->variants;
    space.variants.push_back(std::move(v));
  }
  return space;
}

SpaceDescription describeSpace(const Program &typed, const DeviceLimits &limits, const SpaceOptions &options) {
  SpaceDescription description;
  description.target = options.target;
  const std::vector<codegen::FastMath> &levels = options.fastMathLevels;
  description.crossedWithFastMath = !(levels.size() == 1 && levels.front() == codegen::FastMath::None);
  const bool reassociate = std::find(levels.begin(), levels.end(), codegen::FastMath::Reassociate) != levels.end();
  const LoweredPrograms lowered = lowerPrograms(typed, options);
  if (lowered.programs.empty()) description.firstRefusal = lowered.firstRefusal;
  // Per program, as enumerateSpace: its launches, its specialised twins and
  // their noinline-border twins, each a list of its own for the round-robin.
  // The programs' default kernels (most of the description's time), on
  // SpaceOptions::threads threads; none where codegen refuses the program.
  std::vector<std::variant<codegen::Kernel, codegen::CodegenError>> bases = parallelMap(
      lowered.programs.size(), options.threads, [&](size_t p) -> std::variant<codegen::Kernel, codegen::CodegenError> {
        checkSpaceDeadline(options);
        try {
          return codegen::generateKernel(lowered.programs[p].second, options.target);
        } catch (const codegen::CodegenError &e) {
          return e;
        }
      });
  description.kernelsGenerated = lowered.programs.size();
  std::vector<std::vector<Candidate>> lists;
  for (size_t p = 0; p < lowered.programs.size(); ++p) {
    const auto &[config, program] = lowered.programs[p];
    if (const auto *refusal = std::get_if<codegen::CodegenError>(&bases[p])) {
      ++description.dropped; // as enumerateSpace: a program codegen refuses is not part of the space
      if (description.refused++ == 0) description.firstRefusal = std::make_exception_ptr(*refusal);
      continue;
    }
    const codegen::Kernel *base = &std::get<codegen::Kernel>(bases[p]);
    ProgramLaunches launches = programLaunches(lowered, p, *base, limits, options);
    description.dropped += launches.dropped;
    if (launches.configurations.empty()) continue;
    const size_t index = description.programs.size();
    description.programs.push_back({config, program, *base, reassociate && hasRegroupableSum(program)});
    std::vector<Candidate> plain, twins, noinline, split;
    for (const Configuration &c : launches.configurations) {
      plain.push_back({c, index});
      if (!options.includeSpecialised) continue;
      Configuration twin = c;
      twin.specialise = true;
      twins.push_back({twin, index});
      if (options.target != codegen::Target::OpenCL) continue;
      twin.noinlineBorder = true;
      noinline.push_back({twin, index});
      twin.splitBorder = true;
      split.push_back({twin, index});
    }
    for (auto *list : {&plain, &twins, &noinline, &split})
      if (!list->empty()) lists.push_back(std::move(*list));
  }
  std::vector<Candidate> ordered = roundRobin(std::move(lists));
  if (!description.crossedWithFastMath) {
    description.candidates = std::move(ordered);
  } else {
    // Each candidate's levels next to each other (crossWithFastMath).
    for (const Candidate &candidate : ordered)
      for (codegen::FastMath level : levels) {
        if (level == codegen::FastMath::Reassociate && !description.programs[candidate.program].regroupable) continue;
        Candidate crossed = candidate;
        crossed.configuration.fastMath = level;
        description.candidates.push_back(crossed);
      }
  }
  description.families = selectedFamilies(typed, lowered, options);
  for (const Candidate &candidate : description.candidates)
    for (FamilySummary &f : description.families)
      if (f.name == familyOf(candidate.configuration)) ++f.variants;
  return description;
}

BuiltCandidate buildCandidate(const SpaceDescription &description, size_t index) {
  const Candidate &candidate = description.candidates.at(index);
  const DescribedProgram &program = description.programs.at(candidate.program);
  const Configuration &c = candidate.configuration;
  try {
    // The unspecialised kernel at the exact level, as enumerateSpace makes it.
    Configuration launch = c;
    launch.specialise = launch.noinlineBorder = launch.splitBorder = false;
    launch.fastMath = codegen::FastMath::None;
    codegen::Kernel kernel = program.base;
    if (program.base.localSize) kernel = driver::generate(program.lowered, launch, description.target);
    if (c.specialise) {
      Configuration twin = launch;
      twin.specialise = true;
      codegen::Kernel specialised = driver::generate(program.lowered, twin, description.target);
      if (specialised.source == kernel.source) return {std::nullopt, "its boundary specialisation changes no code"};
      if (c.noinlineBorder) {
        if (!hasBorderCode(specialised))
          return {std::nullopt, "its specialised kernel has no interior, so no border code"};
        twin.noinlineBorder = true;
        specialised = driver::generate(program.lowered, twin, description.target);
      }
      if (c.splitBorder) {
        if (!hasItemInterior(specialised))
          return {std::nullopt, "its specialised kernel has no interior decided per work-item"};
        twin.splitBorder = true;
        specialised = driver::generate(program.lowered, twin, description.target);
      }
      kernel = std::move(specialised);
    }
    if (c.fastMath == codegen::FastMath::Reassociate)
      kernel = driver::generate(program.lowered, c, description.target);
    else if (description.crossedWithFastMath)
      kernel.buildOptions = codegen::buildOptionsFor(c.fastMath, description.target);
    return {Variant{c, program.lowered, std::move(kernel)}, ""};
  } catch (const rewrite::RewriteError &e) {
    return {std::nullopt, std::string("rewriting refused it: ") + e.what()};
  } catch (const codegen::CodegenError &e) {
    return {std::nullopt, std::string("code generation refused it: ") + e.what()};
  }
}

Variant makeVariant(const Program &typed, const Configuration &configuration, codegen::Target target) {
  Program lowered = driver::lower(typed, configuration);
  return {configuration, lowered, driver::generate(lowered, configuration, target)};
}

NeighbourIndex::NeighbourIndex(std::vector<Configuration> configurations) : configurations_(std::move(configurations)) {
  // A tiled or local kernel's work-group shape derives from its tile (the
  // default shape, or that shape halved along a dimension), so a different
  // tile size or recipe always means a different shape as well, and
  // areNeighbours alone would leave every (recipe, tile) an island. Such
  // configurations are also neighbours when their shapes are the same
  // relative to their own program's default (the largest extent per
  // dimension among its configurations).
  for (const Configuration &c : configurations_) {
    auto &d = defaults_[{c.recipe, c.tile}];
    for (int k = 0; k < 3; ++k) d[k] = std::max(d[k], c.local[k]);
  }
}

bool NeighbourIndex::related(const Configuration &a, const Configuration &b) const {
  if (areNeighbours(a, b)) return true;
  // mapGlb programs (plain, stream) have no tile-derived shapes.
  auto mapGlb = [](const Configuration &c) {
    return c.recipe == rewrite::Recipe::Plain || c.recipe == rewrite::Recipe::Stream;
  };
  if (mapGlb(a) || mapGlb(b)) return false;
  bool oneProgramParameter =
      (a.recipe != b.recipe) + (a.tile != b.tile) == 1 && a.fastMath == b.fastMath && a.divToMul == b.divToMul;
  if (!oneProgramParameter) return false;
  auto shapeClass = [&](const Configuration &c) {
    const auto &d = defaults_.at({c.recipe, c.tile});
    return std::array<bool, 3>{c.local[0] < d[0], c.local[1] < d[1], c.local[2] < d[2]};
  };
  return shapeClass(a) == shapeClass(b);
}

std::vector<size_t> NeighbourIndex::of(size_t index) const {
  std::vector<size_t> list;
  for (size_t j = 0; j < configurations_.size(); ++j)
    if (j != index && related(configurations_[index], configurations_[j])) list.push_back(j);
  return list;
}

std::vector<std::vector<size_t>> neighbourLists(const std::vector<Configuration> &configurations) {
  NeighbourIndex index(configurations);
  std::vector<std::vector<size_t>> lists(configurations.size());
  for (size_t i = 0; i < configurations.size(); ++i) lists[i] = index.of(i);
  return lists;
}

std::vector<std::vector<size_t>> neighbourLists(const Space &space) {
  std::vector<Configuration> configurations;
  for (const Variant &v : space.variants) configurations.push_back(v.configuration);
  return neighbourLists(configurations);
}

} // namespace liftcc::explore
