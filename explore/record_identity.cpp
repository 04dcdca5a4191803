#include "explore/record_identity.h"

#include "core/json/program_json.h"

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
  std::string text = kernel.source + "\n" + codegen::kernelMetadata(kernel).dump() + "\nlaunch " +
                     std::to_string(configuration.local[0]) + "x" + std::to_string(configuration.local[1]) + "x" +
                     std::to_string(configuration.local[2]);
  return stableHash(text);
}

} // namespace liftcc::explore
