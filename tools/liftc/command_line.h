#pragma once
// Parsing of liftc's command line: a verb, positional arguments and
// `--option value` / `--option=value` / `--flag` options. Every verb declares
// the options it accepts, so a typo is an error rather than silently ignored.

#include "core/error.h"
#include "tools/liftc/option_values.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc::cli {

/// A mistake on the command line; main prints it with a hint to --help and
/// exits with status 2.
struct UsageError : Error {
  using Error::Error;
};

struct OptionSpec {
  std::set<std::string> valued; ///< take a value, may repeat (e.g. --input)
  std::set<std::string> flags;  ///< take no value
};

class CommandLine {
public:
  /// Parses argv after the verb. Throws UsageError for unknown options,
  /// missing values and values given to flags.
  static CommandLine parse(const std::vector<std::string> &args, const OptionSpec &spec);

  const std::vector<std::string> &positional() const { return positional_; }
  /// The single positional argument the verb needs (e.g. the program file).
  const std::string &onlyPositional(const std::string &what) const;

  bool has(const std::string &option) const { return values_.count(option) != 0 || flags_.count(option) != 0; }
  /// The last value of an option given at most once; nullopt when absent.
  std::optional<std::string> value(const std::string &option) const;
  /// All values of a repeatable option, in order.
  std::vector<std::string> values(const std::string &option) const;

private:
  std::vector<std::string> positional_;
  std::multimap<std::string, std::string> values_;
  std::set<std::string> flags_;
};

/// Parses "N=64,M=32" (also accepts repeated --size options joined by the
/// caller). Values must be positive integers (parseCount, tools/liftc/option_values.h).
std::map<std::string, int64_t> parseSizeBindings(const std::string &text);

} // namespace liftcc::cli
