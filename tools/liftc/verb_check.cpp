// liftc check: type-check a program and print it with its types.

#include "core/ir/printer.h"
#include "core/typecheck/typecheck.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"

#include <ostream>

namespace liftcc::cli {

int runCheck(const CommandLine &cl, std::ostream &out) {
  out << printProgram(loadTypedProgram(cl, {.sizes = false, .kernels = false}).typed);
  return 0;
}

} // namespace liftcc::cli
