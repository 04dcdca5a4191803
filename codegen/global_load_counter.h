#pragma once
// Counting the global loads a kernel executes (CodegenOptions::countGlobalLoads):
// every read of a global buffer also adds its element count to a counter, an
// extra `uint` buffer passed as the kernel's last parameter. Instrumented
// kernels are for measurement only (tuner/global_load_count.h runs one and
// divides by the outputs); the atomics make them slow, so they are never
// explored, timed or exported.

#include "codegen/dialect.h"

#include <string>

namespace liftcc::codegen {

/// The counter parameter's name (liftcc_ is reserved for generated names).
inline constexpr const char *kGlobalLoadCounter = "liftcc_global_loads";

/// The counter's parameter declaration in the kernel's parameter list.
std::string globalLoadCounterParameter(Target target);

/// `load` (a C expression reading `elements` consecutive elements of a global
/// buffer: 1 for a scalar, the lanes of a vector load) that also adds
/// `elements` to the counter: a comma expression with the load's value.
std::string countedGlobalLoad(Target target, const std::string &load, int elements);

} // namespace liftcc::codegen
