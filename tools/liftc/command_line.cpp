#include "tools/liftc/command_line.h"

#include "core/io/safe_file.h"
#include "tools/liftc/option_values.h"

namespace liftcc::cli {

CommandLine CommandLine::parse(const std::vector<std::string> &args, const OptionSpec &spec) {
  CommandLine cl;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i] == "-o" ? "--output" : args[i];
    if (arg.size() < 2 || arg.rfind("--", 0) != 0) {
      if (arg.size() > 1 && arg[0] == '-' && arg != "-") throw UsageError("unknown option '" + io::shown(arg) + "'");
      cl.positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inlineValue;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      inlineValue = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (spec.flags.count(name)) {
      if (inlineValue) throw UsageError("option '--" + io::shown(name) + "' takes no value");
      cl.flags_.insert(name);
    } else if (spec.valued.count(name)) {
      if (!inlineValue) {
        if (i + 1 >= args.size()) throw UsageError("option '--" + name + "' needs a value");
        inlineValue = args[++i];
      }
      cl.values_.emplace(name, *inlineValue);
    } else {
      throw UsageError("unknown option '--" + io::shown(name) + "'");
    }
  }
  return cl;
}

const std::string &CommandLine::onlyPositional(const std::string &what) const {
  if (positional_.empty()) throw UsageError("missing " + what);
  if (positional_.size() > 1) throw UsageError("unexpected argument '" + io::shown(positional_[1]) + "'");
  return positional_[0];
}

std::optional<std::string> CommandLine::value(const std::string &option) const {
  auto [first, last] = values_.equal_range(option);
  if (first == last) return std::nullopt;
  if (std::next(first) != last) throw UsageError("option '--" + option + "' given more than once");
  return first->second;
}

std::vector<std::string> CommandLine::values(const std::string &option) const {
  std::vector<std::string> out;
  auto [first, last] = values_.equal_range(option);
  for (auto it = first; it != last; ++it) out.push_back(it->second);
  return out;
}

std::map<std::string, int64_t> parseSizeBindings(const std::string &text) {
  std::map<std::string, int64_t> sizes;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--size expects NAME=VALUE[,NAME=VALUE...], found '" + io::shown(item) + "'");
    std::string name = item.substr(0, eq), valueText = item.substr(eq + 1);
    int64_t value = static_cast<int64_t>(parseCount("size " + io::shown(name), valueText, {1, INT64_MAX}));
    if (!sizes.emplace(name, value).second) throw UsageError("size " + io::shown(name) + " given twice");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return sizes;
}

} // namespace liftcc::cli
