#pragma once
// The search method of an exploration (exhaustive, random, annealing, model):
// `liftc explore --search` and `liftc bench --explore-search`. Its old name
// (`--strategy`, `--explore-strategy`) is accepted for one release with a
// deprecation note on stderr: "strategy" names a variant's strategy text
// everywhere else (compile --strategy, explore/strategy_text.h).

#include "search/search.h"
#include "tools/liftc/command_line.h"

#include <optional>
#include <ostream>
#include <string>

namespace liftcc::cli {

/// The search method given by `--<option>` or its deprecated `--<oldName>`
/// (a note on `notes`); nullopt when neither is given. Throws UsageError for
/// an unknown method or both names at once.
std::optional<search::SearchStrategy> searchMethodOf(const CommandLine &cl, const std::string &option,
                                                     const std::string &oldName, std::ostream &notes);

} // namespace liftcc::cli
