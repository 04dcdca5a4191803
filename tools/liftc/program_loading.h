#pragma once
// What several verbs share: reading a program file, binding its sizes and
// the pipeline's checks and type checking (driver/pipeline.h) before a verb
// does its own work.

#include "codegen/generate.h"
#include "codegen/launch_limits.h"
#include "core/ir/expr.h"
#include "driver/pipeline.h"
#include "rewrite/recipes.h"
#include "tools/liftc/command_line.h"

#include <cstdint>
#include <map>
#include <string>

namespace liftcc::cli {

/// Program files are read whole; a larger file (or /dev/zero) is refused.
inline constexpr uint64_t kMaxProgramFileBytes = uint64_t(16) << 20;

/// Reads and parses a JSON program; errors name the file and the JSON pointer.
/// Refuses directories, devices and files over kMaxProgramFileBytes.
Program loadProgram(const std::string &path);

/// Collects every --size option ("N=64,M=32", may repeat).
std::map<std::string, int64_t> sizeBindings(const CommandLine &cl);

/// What a verb needs of the program file before its own work.
struct ProgramNeeds {
  /// --size must bind every size variable; otherwise, without --size, the
  /// program is type-checked symbolically (check, compile, rewrite).
  bool sizes = true;
  /// It produces, launches or explores kernels: iterate counts are checked too.
  bool kernels = true;
};
/// A program file read, its sizes bound and the program typed at them.
struct LoadedProgram {
  Program program; ///< as read
  std::map<std::string, int64_t> sizes;
  Program typed;
};
/// The prologue of every verb that reads a program: the program file (the
/// one positional argument) read, --size bound, and the pipeline's first
/// passes (driver::typeCheckAtSizes, with driver::checkIterationCount when
/// `needs.kernels`): their limits as usage errors, type errors prefixed by
/// the file name.
LoadedProgram loadTypedProgram(const CommandLine &cl, ProgramNeeds needs);

/// --opt RECIPE, or nullopt without --opt.
std::optional<rewrite::Recipe> parseRecipeOption(const CommandLine &cl);
/// --time-tile T (1 to 64; default 1): steps of an iterate per kernel.
int64_t parseTimeTile(const CommandLine &cl);
/// --tile K (tileOutputs) or --tile X,Y[,Z] (tileExtents, x first).
void parseTile(const std::string &text, rewrite::RecipeOptions &options);
/// --coarsen X[,Y[,Z]] (outputs per work-item, innermost first; omitted ones
/// 1) and --window private|global into `options`; refused unless `recipe` is
/// coarsened.
void parseCoarsening(const CommandLine &cl, std::optional<rewrite::Recipe> recipe, rewrite::RecipeOptions &options);
/// --vector W (2, 4, 8 or 16) into options.vectorWidth; only with --opt plain or coarsened.
void parseVectorWidth(const CommandLine &cl, std::optional<rewrite::Recipe> recipe, rewrite::RecipeOptions &options);

/// The one translation of liftc's recipe and code generator options into a
/// strategy: --opt (plain without it), --tile, --coarsen, --window, --vector,
/// --mapping, --fuse, --time-tile, --local, --specialise-boundaries,
/// --noinline-border, --fast-math and --div-to-mul. compile, run and export
/// lower and generate by it (lowerWithRecipe, parseCodegenOptions), tune
/// measures it.
driver::Configuration strategyOfOptions(const CommandLine &cl);

/// With --opt RECIPE, the typed program lowered by strategyOfOptions (the
/// pipeline's driver::lower); otherwise `typed` itself, which must be
/// low-level already (options that only a recipe takes are refused).
Program lowerWithRecipe(const CommandLine &cl, const Program &typed);

/// --target opencl|cuda (default opencl).
codegen::Target parseTarget(const CommandLine &cl);
/// --local X[,Y[,Z]] (0 for the dimensions it leaves out; all 0 without it).
std::array<int64_t, 3> parseLocalOption(const CommandLine &cl);
/// The code generator's options of strategyOfOptions (driver::codegenOptions)
/// and --kernel-name.
codegen::CodegenOptions parseCodegenOptions(const CommandLine &cl);
/// --fast-math none|mad|relaxed and --div-to-mul into `options` (part of
/// parseCodegenOptions; explore/tune read them into the configuration).
void applyFastMathOptions(const CommandLine &cl, codegen::CodegenOptions &options);

/// Checks --local against the generated kernel: no more sizes than the kernel
/// has dimensions; `compile` (forLaunch false) takes it only for kernels with
/// work-groups (mapWrg/mapLcl), since a mapGlb kernel's work-group size is
/// chosen when it is launched. For run/tune (forLaunch true) returns the
/// work-group size to launch a mapGlb kernel with (nullopt: the runtime picks).
std::optional<std::array<size_t, 3>> checkLocalOption(const CommandLine &cl, const codegen::Kernel &kernel,
                                                      bool forLaunch);

} // namespace liftcc::cli
