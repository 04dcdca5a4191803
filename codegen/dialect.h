#pragma once
// The differences between OpenCL C and CUDA C, as data. The code generator
// is written once against this interface; only spellings differ.

#include "core/scalar.h"

#include <string>

namespace liftcc::codegen {

enum class Target { OpenCL, CUDA };

/// "opencl" / "cuda": the spelling of --target and of kernel metadata.
std::string targetName(Target target);

class Dialect {
public:
  explicit Dialect(Target target) : target_(target) {}
  Target target() const { return target_; }

  std::string kernelQualifier() const;             ///< "kernel void" / "extern \"C\" __global__ void"
  std::string userFunQualifier() const;            ///< "" / "__device__ "
  std::string globalPointer(ScalarKind kind, bool readOnly) const; ///< parameter type of a buffer
  std::string localArray(ScalarKind kind, const std::string &name, const std::string &count) const;
  std::string privateArray(ScalarKind kind, const std::string &name, const std::string &count) const;
  std::string localBarrier() const;

  // Work-item functions for dimension 0..2.
  std::string globalId(int dim) const;
  std::string globalSize(int dim) const;
  std::string groupId(int dim) const;
  std::string numGroups(int dim) const;
  std::string localId(int dim) const;
  std::string localSize(int dim) const;

  /// Preamble before any user code (e.g. the fp64 pragma for OpenCL).
  std::string preamble(bool usesDouble) const;

private:
  Target target_;
};

} // namespace liftcc::codegen
