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

/// --families, --exclude-families and --param of explore into `options`.
void applySpaceSelection(const CommandLine &cl, explore::SpaceOptions &options);

/// `liftc explore --space`: each family with its parameters, low-level
/// programs and distinct kernels, and the total.
void printSpace(const explore::Space &space, std::ostream &out);

} // namespace liftcc::cli
