#include "codegen/dialect.h"

#include "core/interp/value_io.h"

#include <algorithm>

namespace liftcc::codegen {

std::string targetName(Target target) {
  switch (target) {
  case Target::OpenCL: return "opencl";
  case Target::CUDA: return "cuda";
  }
  return "?";
}

namespace {
const char *axis(int dim) { return dim == 0 ? "x" : dim == 1 ? "y" : "z"; }
} // namespace

std::string Dialect::kernelQualifier(const std::optional<std::array<int64_t, 3>> &requiredLocalSize) const {
  switch (target_) {
  case Target::OpenCL:
    if (!requiredLocalSize) return "kernel void";
    return "kernel __attribute__((reqd_work_group_size(" + std::to_string((*requiredLocalSize)[0]) + ", " +
           std::to_string((*requiredLocalSize)[1]) + ", " + std::to_string((*requiredLocalSize)[2]) + "))) void";
  case Target::CUDA:
    if (!requiredLocalSize) return "extern \"C\" __global__ void";
    return "extern \"C\" __global__ void __launch_bounds__(" +
           std::to_string((*requiredLocalSize)[0] * (*requiredLocalSize)[1] * (*requiredLocalSize)[2]) + ")";
  }
  return {};
}

std::string Dialect::userFunQualifier() const { return target_ == Target::CUDA ? "__device__ " : ""; }

// OpenCL C 1.2 allows static functions; a plain C99 `inline` would leave no
// external definition when the compiler declines to inline.
std::string Dialect::inlineUserFunQualifier() const {
  return target_ == Target::CUDA ? "__device__ __forceinline__ " : "static inline ";
}

// Only OpenCL separates them (separateBorderUserFuns); CUDA's border code
// calls the inline functions of the interior.
std::string Dialect::borderUserFunQualifier() const {
  return target_ == Target::CUDA ? inlineUserFunQualifier() : "__attribute__((noinline)) static ";
}

std::string Dialect::globalPointer(ScalarKind kind, bool readOnly) const {
  std::string type(scalarKindName(kind));
  switch (target_) {
  case Target::OpenCL: return (readOnly ? "const global " : "global ") + type + " *restrict";
  case Target::CUDA: return (readOnly ? "const " : "") + type + " *__restrict__";
  }
  return {};
}

std::string Dialect::localArray(ScalarKind kind, const std::string &name, const std::string &count) const {
  std::string decl = std::string(scalarKindName(kind)) + " " + name + "[" + count + "];";
  return (target_ == Target::OpenCL ? "local " : "__shared__ ") + decl;
}

std::string Dialect::privateArray(ScalarKind kind, const std::string &name, const std::string &count) const {
  return std::string(scalarKindName(kind)) + " " + name + "[" + count + "];";
}

std::string Dialect::localBarrier() const {
  return target_ == Target::OpenCL ? "barrier(CLK_LOCAL_MEM_FENCE);" : "__syncthreads();";
}

std::string Dialect::saturatingToInt(ScalarKind from, const std::string &operand) const {
  // OpenCL's _sat conversions map NaN to 0; so do CUDA's cvt.rzi.s32
  // intrinsics (PTX ISA: float-to-integer conversions saturate, NaN -> 0).
  if (target_ == Target::OpenCL) return "convert_int_sat_rtz(" + operand + ")";
  return std::string(from == ScalarKind::Double ? "__double2int_rz(" : "__float2int_rz(") + operand + ")";
}

std::string Dialect::wideIndexType() const { return target_ == Target::OpenCL ? "long" : "long long"; }

// CUDA's products of unsigned built-ins wrap at 2^32: a wide index converts
// the first factor before multiplying.
std::string Dialect::globalId(int d, const std::string &type) const {
  if (target_ == Target::OpenCL) return "(" + type + ")get_global_id(" + std::to_string(d) + ")";
  if (type != "int")
    return "((" + type + ")blockIdx." + axis(d) + " * blockDim." + axis(d) + " + threadIdx." + axis(d) + ")";
  return std::string("(int)(blockIdx.") + axis(d) + " * blockDim." + axis(d) + " + threadIdx." + axis(d) + ")";
}
std::string Dialect::globalSize(int d, const std::string &type) const {
  if (target_ == Target::OpenCL) return "(" + type + ")get_global_size(" + std::to_string(d) + ")";
  if (type != "int") return "((" + type + ")gridDim." + axis(d) + " * blockDim." + axis(d) + ")";
  return std::string("(int)(gridDim.") + axis(d) + " * blockDim." + axis(d) + ")";
}
std::string Dialect::groupId(int d, const std::string &type) const {
  if (target_ == Target::OpenCL) return "(" + type + ")get_group_id(" + std::to_string(d) + ")";
  return "(" + type + ")blockIdx." + axis(d);
}
std::string Dialect::numGroups(int d, const std::string &type) const {
  if (target_ == Target::OpenCL) return "(" + type + ")get_num_groups(" + std::to_string(d) + ")";
  return "(" + type + ")gridDim." + axis(d);
}
std::string Dialect::localId(int d, const std::string &type) const {
  if (target_ == Target::OpenCL) return "(" + type + ")get_local_id(" + std::to_string(d) + ")";
  return "(" + type + ")threadIdx." + axis(d);
}
std::string Dialect::localSize(int d, const std::string &type) const {
  if (target_ == Target::OpenCL) return "(" + type + ")get_local_size(" + std::to_string(d) + ")";
  return "(" + type + ")blockDim." + axis(d);
}

std::string Dialect::vectorType(ScalarKind kind, int width) const {
  std::string name = std::string(scalarKindName(kind)) + std::to_string(width);
  return target_ == Target::CUDA ? "liftcc_" + name : name;
}

std::string Dialect::vectorTypeDefinition(ScalarKind kind, int width) const {
  if (target_ == Target::OpenCL) return "";
  const int alignment = vectorAlignment(kind, width);
  const std::string aligned = alignment > 0 ? "__align__(" + std::to_string(alignment) + ") " : "";
  return "struct " + aligned + vectorType(kind, width) + " { " + std::string(scalarKindName(kind)) + " s[" +
         std::to_string(width) + "]; };\n";
}

int Dialect::vectorAlignment(ScalarKind kind, int width) const {
  if (target_ != Target::CUDA || width <= 0) return 0;
  const int bytes = static_cast<int>(scalarByteSize(kind)) * width; // bool: 1 byte, as C++ bool in CUDA
  if ((bytes & (bytes - 1)) != 0) return 0;                         // a size of no power of two: lanes one by one
  return std::min(bytes, 16);
}

std::string Dialect::alignedVectorAccess(const std::string &vectorType, const std::string &buffer, bool readOnly,
                                         const std::string &offset) const {
  return "*(" + std::string(readOnly ? "const " : "") + vectorType + " *)(" + buffer + " + (" + offset + "))";
}

std::string Dialect::vectorOf(ScalarKind kind, const std::vector<std::string> &lanes) const {
  std::string list;
  for (size_t l = 0; l < lanes.size(); ++l) list += (l ? ", " : "") + lanes[l];
  std::string type = vectorType(kind, static_cast<int>(lanes.size()));
  return target_ == Target::CUDA ? type + "{{" + list + "}}" : "(" + type + ")(" + list + ")";
}

std::string Dialect::vectorLane(const std::string &vector, int lane) const {
  if (target_ == Target::CUDA) return vector + ".s[" + std::to_string(lane) + "]";
  return vector + ".s" + std::string(1, "0123456789abcdef"[lane]);
}

std::string Dialect::preamble(bool usesDouble) const {
  if (target_ == Target::OpenCL && usesDouble) return "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  return {};
}

} // namespace liftcc::codegen
