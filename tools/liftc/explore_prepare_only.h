#pragma once
// liftc explore --target cuda --prepare-only: the space's variants prepared
// on every core for a compile-only CUDA device (explore/prepare_only.h),
// reported as variants prepared per second per core and their SASS figures;
// nothing is written.

#include "core/ir/expr.h"
#include "explore/explorer.h"
#include "tools/liftc/command_line.h"

#include <cstdint>
#include <map>
#include <ostream>

namespace liftcc::cli {

/// `options` holds what runExplore parsed (name, budget, evals, seed, space, sass).
int runPrepareOnly(const CommandLine &cl, const Program &program, const Program &typed,
                   const std::map<std::string, int64_t> &sizes, const explore::ExploreOptions &options,
                   std::ostream &out);

} // namespace liftcc::cli
