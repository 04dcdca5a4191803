#include "tools/liftc/search_option.h"

#include "core/io/safe_file.h"
#include "tools/liftc/command_line.h"

namespace liftcc::cli {

std::optional<search::SearchStrategy> searchMethodOf(const CommandLine &cl, const std::string &option,
                                                     const std::string &oldName, std::ostream &notes) {
  const std::optional<std::string> current = cl.value(option);
  const std::optional<std::string> old = cl.value(oldName);
  if (current && old)
    throw UsageError("--" + option + " and --" + oldName + " (its old name) both given; give --" + option + " only");
  if (!current && !old) return std::nullopt;
  const std::string given = current ? option : oldName;
  auto method = search::parseStrategy(current ? *current : *old);
  if (!method)
    throw UsageError("--" + given + " must be exhaustive, random, annealing or model, found '" +
                     io::shown(current ? *current : *old) + "'");
  if (old)
    notes << "liftc: note: --" << oldName << " is deprecated and will be removed in the next release; use --" << option
          << " (\"strategy\" names a variant's strategy text)\n";
  return method;
}

} // namespace liftcc::cli
