#pragma once
// The differences between OpenCL C and CUDA C, as data. The code generator
// is written once against this interface; only spellings differ.

#include "core/scalar.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::codegen {

enum class Target { OpenCL, CUDA };

/// "opencl" / "cuda": the spelling of --target and of kernel metadata.
std::string targetName(Target target);

class Dialect {
public:
  explicit Dialect(Target target) : target_(target) {}
  Target target() const { return target_; }

  /// "kernel void" / "extern \"C\" __global__ void"; with `requiredLocalSize`
  /// the attribute that makes the kernel refuse (OpenCL reqd_work_group_size)
  /// or be compiled for (CUDA __launch_bounds__) that work-group size.
  std::string kernelQualifier(const std::optional<std::array<int64_t, 3>> &requiredLocalSize = std::nullopt) const;
  std::string userFunQualifier() const; ///< "" / "__device__ "
  /// A user function the compiler should inline: "static inline " / "__device__ __forceinline__ ".
  std::string inlineUserFunQualifier() const;
  /// Whether the border code of a boundary-specialised kernel can call copies
  /// of the user functions that the compiler must not inline (OpenCL: see
  /// CodegenOptions::noinlineBorder), and their qualifier.
  bool separateBorderUserFuns() const { return target_ == Target::OpenCL; }
  std::string borderUserFunQualifier() const;
  std::string globalPointer(ScalarKind kind, bool readOnly) const; ///< parameter type of a buffer
  std::string localArray(ScalarKind kind, const std::string &name, const std::string &count) const;
  std::string privateArray(ScalarKind kind, const std::string &name, const std::string &count) const;
  std::string localBarrier() const;
  /// `operand` (a float or double expression) converted to int toward zero,
  /// NaN giving 0 and out-of-range values saturating to INT_MIN / INT_MAX, as
  /// the interpreter does (cfun::convertScalar).
  std::string saturatingToInt(ScalarKind from, const std::string &operand) const;

  /// The index type of kernels whose index arithmetic may exceed 32 bits:
  /// "long" (OpenCL C, 64-bit) / "long long" (CUDA).
  std::string wideIndexType() const;

  // Work-item functions for dimension 0..2, as values of `indexType` ("int"
  // or wideIndexType()).
  std::string globalId(int dim, const std::string &indexType = "int") const;
  std::string globalSize(int dim, const std::string &indexType = "int") const;
  std::string groupId(int dim, const std::string &indexType = "int") const;
  std::string numGroups(int dim, const std::string &indexType = "int") const;
  std::string localId(int dim, const std::string &indexType = "int") const;
  std::string localSize(int dim, const std::string &indexType = "int") const;

  // Vectors (float<4>): OpenCL C's vector types; CUDA has no vector
  // arithmetic, so there a vector is a struct of lanes and code is per lane.
  std::string vectorType(ScalarKind kind, int width) const; ///< "float4" / "liftcc_float4"
  /// The definition of vectorType before any user code ("" in OpenCL C).
  std::string vectorTypeDefinition(ScalarKind kind, int width) const;
  /// A vector of the given lane expressions.
  std::string vectorOf(ScalarKind kind, const std::vector<std::string> &lanes) const;
  /// Lane `lane` of the vector `vector` (an lvalue or a name).
  std::string vectorLane(const std::string &vector, int lane) const;
  /// Whether the dialect loads and stores consecutive lanes at once (vloadN / vstoreN).
  bool hasVectorLoads() const { return target_ == Target::OpenCL; }
  /// CUDA: the alignment (bytes) of vectorType's struct, its size up to 16
  /// (the widest global load and store, ld/st.global.v4.f32), when the size
  /// is a power of two; 0 otherwise and in OpenCL C (vloadN needs none).
  int vectorAlignment(ScalarKind kind, int width) const;
  /// CUDA: the vector at `buffer + offset` as one aligned access (an lvalue:
  /// load or store), for lanes that are consecutive elements of a global
  /// buffer from an offset that is a multiple of the width (so the address
  /// is a multiple of vectorAlignment: buffers are allocated aligned).
  std::string alignedVectorAccess(const std::string &vectorType, const std::string &buffer, bool readOnly,
                                  const std::string &offset) const;
  /// Whether user functions can be emitted with vector types (OpenCL C overloads arithmetic on vectors).
  bool hasVectorArithmetic() const { return target_ == Target::OpenCL; }

  /// Preamble before any user code (e.g. the fp64 pragma for OpenCL).
  std::string preamble(bool usesDouble) const;

private:
  Target target_;
};

} // namespace liftcc::codegen
