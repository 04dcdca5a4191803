#pragma once
// The options about strategies (explore/strategy_text.h) and the space they
// generate: --strategy and --mapping of compile/run/tune, --space,
// --families, --exclude-families and --param of explore.

#include "explore/space.h"
#include "tools/liftc/command_line.h"

#include <optional>
#include <ostream>

namespace liftcc::cli {

/// --mapping D[,D[,D]] (nest dimensions x, y, z in NDRange order; the
/// default mapping when absent).
rewrite::Mapping parseMappingOption(const CommandLine &cl);

/// With --strategy TEXT, the variant it derives from `typed` (a one-line
/// UsageError naming the character position for malformed text); nullopt
/// without. Refuses the options the strategy replaces (--opt, --tile,
/// --coarsen, --window, --mapping, --local, --specialise-boundaries,
/// --fast-math, --div-to-mul, --kernel-name).
std::optional<explore::Variant> strategyVariant(const CommandLine &cl, const Program &typed, codegen::Target target);

/// The fast-math levels an exploration crosses every variant with unless
/// told otherwise (liftc explore --fast-math, and liftc bench's on-the-spot
/// explorations); mad differs from none only on some devices.
inline constexpr const char *kDefaultFastMathLevels = "none,reassociate,relaxed";

/// --fast-math LIST of explore (kDefaultFastMathLevels when absent).
std::vector<codegen::FastMath> fastMathLevelsOf(const CommandLine &cl);
/// A comma-separated list of fast-math level names, each once (UsageError
/// naming --fast-math otherwise).
std::vector<codegen::FastMath> parseFastMathLevels(const std::string &list);

/// --families, --exclude-families and --param of explore into `options`.
void applySpaceSelection(const CommandLine &cl, explore::SpaceOptions &options);

/// `liftc explore --space`: each family with its parameters, low-level
/// programs and distinct kernels, and the total.
void printSpace(const explore::Space &space, std::ostream &out);
/// The same of a space described, not built: candidates instead of distinct kernels.
void printSpaceDescription(const explore::SpaceDescription &space, std::ostream &out);

} // namespace liftcc::cli
