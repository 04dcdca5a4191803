#include "explore/sass_check.h"

#include <algorithm>
#include <map>

namespace liftcc::explore {

SmResources smResources(const std::string &arch) {
  // Shared memory per SM (the most a program can configure); registers,
  // threads and groups per SM as in NVIDIA's occupancy tables.
  static const std::map<std::string, SmResources> known{
      {"sm_70", {65536, 96 * 1024, 0, 2048, 32}},     {"sm_75", {65536, 64 * 1024, 0, 1024, 16}},
      {"sm_80", {65536, 164 * 1024, 1024, 2048, 32}}, {"sm_86", {65536, 100 * 1024, 1024, 1536, 16}},
      {"sm_87", {65536, 164 * 1024, 1024, 2048, 32}}, {"sm_89", {65536, 100 * 1024, 1024, 1536, 24}},
      {"sm_90", {65536, 228 * 1024, 1024, 2048, 32}}};
  auto it = known.find(arch);
  return it == known.end() ? known.at("sm_90") : it->second;
}

int64_t residentGroups(const tuner::SassSummary &sass, int64_t workGroupSize) {
  const SmResources sm = smResources(sass.arch);
  const int64_t threads = std::max<int64_t>(1, workGroupSize);
  const int64_t warps = (threads + 31) / 32;
  int64_t groups = std::min(sm.maxGroups, sm.maxThreads / threads);
  // Registers are allocated per warp, in units of 256.
  const int64_t registersPerWarp = (sass.registers * 32 + 255) / 256 * 256;
  if (registersPerWarp > 0) groups = std::min(groups, sm.registers / (registersPerWarp * warps));
  if (sass.sharedBytes > 0) groups = std::min(groups, sm.sharedBytes / (sass.sharedBytes + sm.sharedReservedPerGroup));
  return std::max<int64_t>(0, groups);
}

std::optional<std::string> sassRejection(const tuner::SassSummary &sass, int64_t workGroupSize,
                                         const SassRequirements &requirements) {
  if (requirements.dropSpills && sass.spills())
    return "spills " + std::to_string(std::max(sass.spillStoreBytes, sass.spillLoadBytes)) + " bytes (" + sass.arch +
           ": " + std::to_string(sass.spillStoreBytes) + " B spill stores, " + std::to_string(sass.spillLoadBytes) +
           " B spill loads per thread)";
  if (requirements.minGroupsPerSm > 0) {
    int64_t groups = residentGroups(sass, workGroupSize);
    if (groups < requirements.minGroupsPerSm)
      return std::to_string(groups) + " work-group" + (groups == 1 ? "" : "s") + " of " +
             std::to_string(workGroupSize) + " threads fit" + (groups == 1 ? "s" : "") + " per SM, fewer than " +
             std::to_string(requirements.minGroupsPerSm) + " (" + sass.arch + ": " + std::to_string(sass.registers) +
             " registers, " + std::to_string(sass.sharedBytes) + " B shared per group)";
  }
  return std::nullopt;
}

} // namespace liftcc::explore
