// liftc variants: how many programs and low-level kernels a depth-limited
// derivation search reaches.

#include "core/typecheck/typecheck.h"
#include "explore/derivations.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"

#include <iomanip>
#include <ostream>

namespace liftcc::cli {

int runVariants(const CommandLine &cl, std::ostream &out) {
  // Above 4 the search explodes combinatorially.
  uint64_t depth = cl.value("depth") ? parseCount("--depth", *cl.value("depth"), {0, 4}) : 2;
  explore::DerivationStats stats =
      explore::searchDerivations(loadTypedProgram(cl, {.kernels = false}).typed, static_cast<int>(depth));
  for (size_t d = 0; d < stats.programsPerDepth.size(); ++d)
    out << "depth " << d << ": " << stats.programsPerDepth[d] << " new program(s)\n";
  out << "programs: " << stats.programs
      << ", distinct low-level kernels (plain, tiled, local; tiles 4, 8): " << stats.lowLevelVariants << ", "
      << std::fixed << std::setprecision(2) << stats.seconds << " s\n";
  return 0;
}

} // namespace liftcc::cli
