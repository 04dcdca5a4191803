// liftc compile: generate an OpenCL C or CUDA C kernel from a low-level program.

#include "codegen/generate.h"
#include "core/io/safe_file.h"
#include "core/typecheck/typecheck.h"
#include "explore/strategy_text.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/resource_limits.h"
#include "tools/liftc/strategy_options.h"
#include "tools/liftc/verbs.h"
#include "tuner/cuda/nvrtc_compiler.h"

#include "core/io/json.h"
#include <fstream>
#include <iostream>
#include <ostream>
#include <sstream>

namespace liftcc::cli {

/// The program, type-checked, specialised to --size when given (concrete
/// sizes let the simplifier fold index expressions to constants).
static Program typedHighLevel(const CommandLine &cl) { return loadTypedProgram(cl, {.sizes = false}).typed; }

/// The same lowered by --opt when given.
static Program typedForCodegen(const CommandLine &cl) { return lowerWithRecipe(cl, typedHighLevel(cl)); }

int runCompile(const CommandLine &cl, std::ostream &out) {
  // Refused before anything is generated: `-o p.json` must not destroy p.json.
  std::vector<std::pair<std::string, std::string>> outputs;
  for (const char *option : {"output", "ptx", "metadata"})
    if (auto path = cl.value(option)) outputs.emplace_back(std::string("--") + option, *path);
  io::refuseOverwritingInputs(outputs, {cl.onlyPositional("program file")});
  if (!cl.value("ptx") && cl.value("arch")) throw UsageError("--arch needs --ptx");

  std::optional<explore::Variant> fromStrategy;
  codegen::Kernel kernel = [&] {
    if (cl.has("strategy")) {
      fromStrategy = strategyVariant(cl, typedHighLevel(cl), parseTarget(cl));
      return fromStrategy->kernel;
    }
    Program typed = typedForCodegen(cl);
    codegen::Kernel generated = codegen::generateKernel(typed, parseTarget(cl), parseCodegenOptions(cl));
    checkLocalOption(cl, generated, /*launchOnly=*/false);
    return generated;
  }();
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
  if (auto path = cl.value("metadata")) {
    nlohmann::json metadata = codegen::kernelMetadata(kernel);
    // The strategy's launch: a mapGlb kernel's work-group shape is chosen at launch.
    if (fromStrategy) {
      metadata["strategy"] = explore::strategyText(*fromStrategy);
      if (fromStrategy->configuration.local != std::array<int64_t, 3>{0, 0, 0})
        metadata["launchLocalSize"] = fromStrategy->configuration.local;
    }
    io::writeFile(*path, metadata.dump(2) + "\n");
  }
  if (auto path = cl.value("output"))
    io::writeFile(*path, kernel.source);
  else
    out << kernel.source;
  return 0;
}

} // namespace liftcc::cli
