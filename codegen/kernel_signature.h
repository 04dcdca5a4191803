#pragma once
// A kernel function's name and parameter list, derived from what its launch
// metadata records (target, name, arguments, index width): the generator
// asserts that every kernel it writes has exactly this signature, so a reader
// of a kernel file and its metadata (liftc best, liftc export) can check that
// the arguments it is told about are the kernel's own.

#include "codegen/kernel.h"

#include <string>

namespace liftcc::codegen {

/// "k(const global float *restrict A, global float *restrict out, int N)"
/// (CUDA: "const float *__restrict__ A, ..."): buffers in argument order,
/// inputs read-only, sizes as int (named wideSizeParameter in 64-bit kernels).
std::string kernelSignature(const Kernel &kernel);

/// The name of a size's int parameter in a 64-bit kernel, whose body
/// declares the size itself in the wide type. The liftcc_ prefix is reserved
/// for generated names (as liftcc_min/liftcc_max).
std::string wideSizeParameter(const std::string &size);

} // namespace liftcc::codegen
