#pragma once
// Mapping choices (issue #14 item 4): which dimensions of a parallel map nest
// go to NDRange dimensions (global ids, or work-groups and local ids), in
// which order, and which stay sequential inside a work-item. The lowering
// recipes take one as a parameter of their lowering rules (mapToGlb(k),
// mapToWrg(k)/mapToLcl(k), mapToSeq); rewrite/recipes.cpp applies it.

#include <optional>
#include <string>
#include <vector>

namespace liftcc::rewrite {

/// Nest dimensions are counted from the innermost map: 0 is x (the
/// consecutive elements), 1 is y, 2 is z.
struct Mapping {
  /// ndrange[k] is the nest dimension on NDRange dimension k. Nest dimensions
  /// not listed run sequentially in each work-item; they must be the
  /// innermost ones (a mapGlb cannot run inside a sequential loop). Empty:
  /// the default, nest dimension d on NDRange dimension d, all parallel.
  std::vector<int> ndrange;

  bool isDefault() const { return ndrange.empty(); }
  /// The NDRange dimension of nest dimension `dim`, or nullopt when it is
  /// sequential (the default maps every dimension to itself).
  std::optional<int> ndrangeDimensionOf(int dim) const;
  /// "x,y" style text of ndrange ("" for the default).
  std::string text() const;
  /// Throws RewriteError unless this mapping can lower a nest of `depth`
  /// dimensions (every listed dimension below depth, none twice, the
  /// sequential ones innermost).
  void checkFor(int depth) const;
  friend bool operator==(const Mapping &, const Mapping &) = default;
};

/// "x", "y" or "z" for nest dimension 0, 1, 2.
char dimensionLetter(int dim);
/// The default mapping written out for a nest of `depth` dimensions ("x,y").
std::string defaultMappingText(int depth);
/// Every mapping of a nest of `depth` (1..3) dimensions other than the
/// default: every order of the parallel dimensions, with 1 to depth of the
/// outermost dimensions parallel ("y,x" and "y" for depth 2; 8 for depth 3).
std::vector<Mapping> alternativeMappings(int depth);
/// A mapping whose list is the identity (x,y,...) is the default: made empty,
/// so that equal kernels have equal configurations.
Mapping canonicalMapping(Mapping mapping);

} // namespace liftcc::rewrite
