// liftc compile: generate an OpenCL C or CUDA C kernel from a low-level program.

#include "codegen/generate.h"
#include "core/typecheck/typecheck.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <ostream>

namespace liftcc::cli {

/// The program, type-checked, specialised to --size when given (concrete
/// sizes let the simplifier fold index expressions to constants).
static Program typedForCodegen(const CommandLine &cl) {
  Program program = loadProgram(cl.onlyPositional("program file"));
  std::map<std::string, int64_t> sizes = sizeBindings(cl);
  if (sizes.empty()) return lowerWithRecipe(cl, typeCheck(program));
  checkSizeBindings(program, sizes);
  return lowerWithRecipe(cl, typeCheck(program, sizes));
}

int runCompile(const CommandLine &cl, std::ostream &out) {
  Program typed = typedForCodegen(cl);
  codegen::Kernel kernel = codegen::generateKernel(typed, parseTarget(cl), parseCodegenOptions(cl));
  if (auto path = cl.value("output")) {
    std::ofstream file(*path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot open '" + *path + "' for writing");
    file << kernel.source;
  } else {
    out << kernel.source;
  }
  if (auto path = cl.value("ptx")) {
    if (kernel.target != codegen::Target::CUDA) throw UsageError("--ptx needs --target cuda");
    cuda::NvrtcOptions nvrtc;
    nvrtc.arch = cl.value("arch").value_or("sm_90");
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, nvrtc, kernel.name + ".cu");
    std::ofstream file(*path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot open '" + *path + "' for writing");
    file << ptx.ptx;
    for (const std::string &warning : ptx.warnings) std::cerr << "liftc: warning: " << warning << "\n";
  } else if (cl.value("arch")) {
    throw UsageError("--arch needs --ptx");
  }
  if (auto path = cl.value("metadata")) {
    std::ofstream file(*path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot open '" + *path + "' for writing");
    file << codegen::kernelMetadata(kernel).dump(2) << "\n";
  }
  return 0;
}

} // namespace liftcc::cli
