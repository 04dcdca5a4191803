#pragma once
// What several verbs share: reading a program file and binding its sizes.

#include "codegen/generate.h"
#include "core/ir/expr.h"
#include "tools/liftc/command_line.h"

#include <map>
#include <string>

namespace liftcc::cli {

/// Reads and parses a JSON program; errors name the file and the JSON pointer.
Program loadProgram(const std::string &path);

/// Collects every --size option ("N=64,M=32", may repeat).
std::map<std::string, int64_t> sizeBindings(const CommandLine &cl);

/// Checks that `sizes` binds exactly the program's size variables and that
/// every value lies in the variable's declared range.
void checkSizeBindings(const Program &program, const std::map<std::string, int64_t> &sizes);

/// With --opt RECIPE (and --tile K), the typed program lowered by that
/// recipe; otherwise `typed` itself.
Program lowerWithRecipe(const CommandLine &cl, const Program &typed);

/// --target opencl|cuda (default opencl).
codegen::Target parseTarget(const CommandLine &cl);
/// --kernel-name and --local X[,Y[,Z]].
codegen::CodegenOptions parseCodegenOptions(const CommandLine &cl);

} // namespace liftcc::cli
