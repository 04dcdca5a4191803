#include "codegen/dialect.h"

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

std::string Dialect::kernelQualifier() const {
  switch (target_) {
  case Target::OpenCL: return "kernel void";
  case Target::CUDA: return "extern \"C\" __global__ void";
  }
  return {};
}

std::string Dialect::userFunQualifier() const { return target_ == Target::CUDA ? "__device__ " : ""; }

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

std::string Dialect::globalId(int d) const {
  if (target_ == Target::OpenCL) return "(int)get_global_id(" + std::to_string(d) + ")";
  return std::string("(int)(blockIdx.") + axis(d) + " * blockDim." + axis(d) + " + threadIdx." + axis(d) + ")";
}
std::string Dialect::globalSize(int d) const {
  if (target_ == Target::OpenCL) return "(int)get_global_size(" + std::to_string(d) + ")";
  return std::string("(int)(gridDim.") + axis(d) + " * blockDim." + axis(d) + ")";
}
std::string Dialect::groupId(int d) const {
  if (target_ == Target::OpenCL) return "(int)get_group_id(" + std::to_string(d) + ")";
  return std::string("(int)blockIdx.") + axis(d);
}
std::string Dialect::numGroups(int d) const {
  if (target_ == Target::OpenCL) return "(int)get_num_groups(" + std::to_string(d) + ")";
  return std::string("(int)gridDim.") + axis(d);
}
std::string Dialect::localId(int d) const {
  if (target_ == Target::OpenCL) return "(int)get_local_id(" + std::to_string(d) + ")";
  return std::string("(int)threadIdx.") + axis(d);
}
std::string Dialect::localSize(int d) const {
  if (target_ == Target::OpenCL) return "(int)get_local_size(" + std::to_string(d) + ")";
  return std::string("(int)blockDim.") + axis(d);
}

std::string Dialect::preamble(bool usesDouble) const {
  if (target_ == Target::OpenCL && usesDouble) return "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  return {};
}

} // namespace liftcc::codegen
