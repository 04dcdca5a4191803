#include "explore/record_identity.h"

#include "core/json/program_json.h"

#include "core/io/json.h"

#include <cstdio>

namespace liftcc::explore {

std::string stableHash(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

std::string programHash(const Program &program, const std::map<std::string, int64_t> &sizes) {
  std::string text = writeProgram(program);
  for (const auto &[name, value] : sizes) text += "\n" + name + "=" + std::to_string(value);
  return stableHash(text);
}

std::string kernelHash(const codegen::Kernel &kernel, const Configuration &configuration) {
  // The metadata carries the target, NDRange, work-group, arguments and build
  // options; the launch's own work-group (mapGlb kernels take it at launch)
  // comes from the configuration.
  return kernelHash(kernel.source, codegen::kernelMetadata(kernel), configuration.local);
}

std::string kernelHash(std::string_view source, const nlohmann::json &metadata, const std::array<int64_t, 3> &local) {
  // nlohmann::json keeps object members sorted: metadata read back from a
  // launch.json prints as it did when written.
  std::string text = std::string(source) + "\n" + metadata.dump() + "\nlaunch " + std::to_string(local[0]) + "x" +
                     std::to_string(local[1]) + "x" + std::to_string(local[2]);
  return stableHash(text);
}

} // namespace liftcc::explore
