// liftc check: type-check a program and print it with its types.

#include "core/ir/printer.h"
#include "core/typecheck/typecheck.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"

#include <ostream>

namespace liftcc::cli {

int runCheck(const CommandLine &cl, std::ostream &out) {
  const std::string &path = cl.onlyPositional("program file");
  Program program = loadProgram(path);
  std::map<std::string, int64_t> sizes = sizeBindings(cl);
  if (!sizes.empty()) checkSizeBindings(program, sizes);
  out << printProgram(typeCheckFile(path, program, sizes));
  return 0;
}

} // namespace liftcc::cli
