#pragma once
// What a result-store record was measured on, as stable hashes (FNV-1a, 64
// bits, 16 hex digits; the same in every build and run, unlike std::hash):
//   program hash: the high-level program as the deterministic JSON writer
//                 prints it (sizes, types, user functions, body) and the sizes;
//   kernel hash:  the generated source, its launch metadata (NDRange,
//                 work-group, arguments, build options), the target and the
//                 work-group the tuner launches it with.
// A resumed exploration reuses a record only when its key and both hashes are
// today's, so a code-generator change or another program stored under the
// same name is re-measured rather than paired with stale times.

#include "codegen/kernel.h"
#include "core/ir/expr.h"
#include "explore/configuration.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace liftcc::explore {

/// FNV-1a of `text` as 16 lower-case hex digits.
std::string stableHash(std::string_view text);

std::string programHash(const Program &program, const std::map<std::string, int64_t> &sizes);
std::string kernelHash(const codegen::Kernel &kernel, const Configuration &configuration);
/// The same from a kernel's source, its metadata (codegen::kernelMetadata, or
/// as a launch.json holds it) and the launch's work-group: how a best-kernel
/// entry's kernelHash is checked.
std::string kernelHash(std::string_view source, const nlohmann::json &metadata, const std::array<int64_t, 3> &local);

} // namespace liftcc::explore
