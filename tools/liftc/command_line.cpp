#include "tools/liftc/command_line.h"

#include "core/io/safe_file.h"

#include <charconv>

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

uint64_t parseUnsigned(const std::string &option, const std::string &text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw UsageError("option '--" + option + "' expects a non-negative integer, found '" + io::shown(text) + "'");
  return value;
}

double parseDuration(const std::string &option, const std::string &text) {
  if (text.empty()) throw UsageError("--" + option + " expects a duration such as 10m, 90s or 1h");
  char unit = text.back();
  double scale = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : 0;
  std::string number = scale == 0 ? text : text.substr(0, text.size() - 1);
  if (scale == 0) scale = 1;
  try {
    size_t used = 0;
    double value = std::stod(number, &used);
    if (used != number.size() || value <= 0) throw std::invalid_argument(text);
    return value * scale;
  } catch (const std::logic_error &) {
    throw UsageError("--" + option + " expects a duration such as 10m, 90s or 1h, found '" + io::shown(text) + "'");
  }
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
    int64_t value = 0;
    auto [end, ec] = std::from_chars(valueText.data(), valueText.data() + valueText.size(), value);
    if (ec != std::errc() || end != valueText.data() + valueText.size() || valueText.empty() || value < 1)
      throw UsageError("size " + io::shown(name) + " must be a positive integer, found '" + io::shown(valueText) + "'");
    if (!sizes.emplace(name, value).second) throw UsageError("size " + io::shown(name) + " given twice");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return sizes;
}

} // namespace liftcc::cli
