#include "tuner/sass_summary.h"

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace liftcc::tuner {

namespace {

/// The counts of the summary with their JSON names, in the order written.
std::vector<std::pair<const char *, int64_t SassSummary::*>> counts() {
  return {{"registers", &SassSummary::registers},
          {"spillStoreBytes", &SassSummary::spillStoreBytes},
          {"spillLoadBytes", &SassSummary::spillLoadBytes},
          {"sharedBytes", &SassSummary::sharedBytes},
          {"barriers", &SassSummary::barriers},
          {"stackBytes", &SassSummary::stackBytes}};
}

} // namespace

std::string SassSummary::text() const {
  std::string spill = spills() ? "spills " + std::to_string(spillStoreBytes) + " B stored, " +
                                     std::to_string(spillLoadBytes) + " B loaded"
                               : "no spills";
  return arch + ": " + std::to_string(registers) + " registers, " + spill + ", " + std::to_string(sharedBytes) +
         " B shared, " + std::to_string(barriers) + " barriers, " + std::to_string(stackBytes) + " B stack";
}

nlohmann::json SassSummary::toJson() const {
  nlohmann::json j{{"arch", arch}};
  for (const auto &[name, field] : counts()) j[name] = this->*field;
  return j;
}

SassSummary SassSummary::fromJson(const nlohmann::json &j) {
  auto invalid = [](const std::string &message) { throw std::invalid_argument("sass" + message); };
  if (!j.is_object()) invalid(" must be an object, found " + j.dump().substr(0, 60));
  SassSummary s;
  if (!j.contains("arch") || !j.at("arch").is_string() || j.at("arch").get<std::string>().empty())
    invalid(".arch must be a non-empty string, found " +
            (j.contains("arch") ? j.at("arch").dump().substr(0, 60) : "nothing"));
  s.arch = j.at("arch").get<std::string>();
  for (const auto &[name, field] : counts()) {
    if (!j.contains(name)) invalid(std::string(".") + name + " is missing");
    const nlohmann::json &value = j.at(name);
    // -1, 1.5, "3" and integers beyond int64 (read back negative) are refused.
    if (!value.is_number_integer() || value.get<int64_t>() < 0)
      invalid(std::string(".") + name + " must be a non-negative integer, found " + value.dump().substr(0, 60));
    s.*field = value.get<int64_t>();
  }
  return s;
}

} // namespace liftcc::tuner
