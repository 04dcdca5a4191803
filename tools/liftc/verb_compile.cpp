// liftc compile: generate an OpenCL C or CUDA C kernel from a low-level program.

#include "codegen/generate.h"
#include "core/io/safe_file.h"
#include "core/typecheck/typecheck.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace liftcc::cli {

/// The program, type-checked, specialised to --size when given (concrete
/// sizes let the simplifier fold index expressions to constants).
static Program typedForCodegen(const CommandLine &cl) {
  const std::string &path = cl.onlyPositional("program file");
  Program program = loadProgram(path);
  std::map<std::string, int64_t> sizes = sizeBindings(cl);
  if (!sizes.empty()) checkSizeBindings(program, sizes);
  return lowerWithRecipe(cl, typeCheckFile(path, program, sizes));
}

int runCompile(const CommandLine &cl, std::ostream &out) {
  // Refused before anything is generated: `-o p.json` must not destroy p.json.
  std::vector<std::pair<std::string, std::string>> outputs;
  for (const char *option : {"output", "ptx", "metadata"})
    if (auto path = cl.value(option)) outputs.emplace_back(std::string("--") + option, *path);
  io::refuseOverwritingInputs(outputs, {cl.onlyPositional("program file")});
  if (!cl.value("ptx") && cl.value("arch")) throw UsageError("--arch needs --ptx");

  Program typed = typedForCodegen(cl);
  codegen::Kernel kernel = codegen::generateKernel(typed, parseTarget(cl), parseCodegenOptions(cl));
  checkLocalOption(cl, kernel, /*launchOnly=*/false);
  if (auto path = cl.value("ptx")) {
    if (kernel.target != codegen::Target::CUDA) throw UsageError("--ptx needs --target cuda");
    cuda::NvrtcOptions nvrtc;
    nvrtc.arch = cl.value("arch").value_or("sm_90");
    // The kernel's own options (--fast-math), as the CUDA backend passes them.
    std::istringstream words(kernel.buildOptions);
    for (std::string word; words >> word;) nvrtc.extraOptions.push_back(word);
    cuda::PtxResult ptx = cuda::compileToPtx(kernel.source, nvrtc, kernel.name + ".cu");
    io::writeFile(*path, ptx.ptx);
    for (const std::string &warning : ptx.warnings) std::cerr << "liftc: warning: " << io::shown(warning, 240) << "\n";
  }
  if (auto path = cl.value("metadata")) io::writeFile(*path, codegen::kernelMetadata(kernel).dump(2) + "\n");
  if (auto path = cl.value("output"))
    io::writeFile(*path, kernel.source);
  else
    out << kernel.source;
  return 0;
}

} // namespace liftcc::cli
