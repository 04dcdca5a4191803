#include "tools/liftc/option_values.h"

#include "core/io/safe_file.h"
#include "tools/liftc/command_line.h"

#include <charconv>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string_view>

namespace liftcc::cli {

namespace {

std::string number(double value) {
  std::ostringstream out;
  out << std::setprecision(15) << value;
  return out.str();
}

/// The whole of `text` as a finite double; nullopt for anything else (a
/// sign '+', spaces, hexadecimal, nan, inf, a value beyond double's range).
std::optional<double> finiteNumber(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::string found(const std::string &text) { return ", found '" + io::shown(text, 60) + "'"; }

} // namespace

uint64_t parseCount(const std::string &what, const std::string &text, CountRange range) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < range.min || value > range.max)
    throw UsageError(what + " expects an integer from " + std::to_string(range.min) + " to " +
                     std::to_string(range.max) + found(text));
  return value;
}

double parseFactor(const std::string &what, const std::string &text, FactorRange range) {
  std::optional<double> value = finiteNumber(text);
  if (!value || !(*value > range.above) || *value > range.max)
    throw UsageError(what + " expects a factor above " + number(range.above) + " and at most " + number(range.max) +
                     found(text));
  return *value;
}

std::string describeSeconds(double seconds) {
  if (seconds >= 3600 && std::fmod(seconds, 3600) == 0) return number(seconds / 3600) + " h";
  if (seconds >= 60 && std::fmod(seconds, 60) == 0) return number(seconds / 60) + " min";
  if (seconds >= 1) return number(seconds) + " s";
  return number(seconds * 1000) + " ms";
}

double parseDuration(const std::string &what, const std::string &text, DurationRange range) {
  std::string_view digits = text;
  double scale = 1;
  if (digits.ends_with("ms")) {
    scale = 0.001;
    digits.remove_suffix(2);
  } else if (!digits.empty() && (digits.back() == 's' || digits.back() == 'm' || digits.back() == 'h')) {
    scale = digits.back() == 's' ? 1 : digits.back() == 'm' ? 60 : 3600;
    digits.remove_suffix(1);
  }
  std::optional<double> value = finiteNumber(digits);
  double seconds = value ? *value * scale : 0;
  if (!value || !std::isfinite(seconds) || seconds < range.minSeconds || seconds > range.maxSeconds)
    throw UsageError(what + " expects a duration from " + describeSeconds(range.minSeconds) + " to " +
                     describeSeconds(range.maxSeconds) + " (e.g. 90s, 10m, 1h; plain numbers are seconds)" +
                     found(text));
  return seconds;
}

} // namespace liftcc::cli
