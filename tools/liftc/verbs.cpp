#include "tools/liftc/verbs.h"

namespace liftcc::cli {

std::vector<Verb> allVerbs() {
  return {
      {"check", "type-check a program and print it with its types",
       "usage: liftc check PROGRAM.json [--size N=64,...]\n"
       "\n"
       "Reads a liftcc JSON program, infers and checks every type, and prints the\n"
       "typed program. Without --size the check is symbolic (e.g. split(4) of\n"
       "[float]N is rejected unless N is provably divisible by 4); with --size the\n"
       "program is specialised to the given sizes first.\n",
       {{"size"}, {}},
       runCheck},
      {"eval", "run a program in the reference interpreter",
       "usage: liftc eval PROGRAM.json --size N=64[,M=32...] [--input NAME=random|NAME=FILE]...\n"
       "                  [--seed S] [--output FILE] [--print]\n"
       "\n"
       "Evaluates the program on concrete inputs with the reference interpreter.\n"
       "Inputs default to uniform random values in [-1, 1) drawn from --seed\n"
       "(default 1); FILE is raw little-endian binary in row-major order (float:\n"
       "4 bytes, double: 8, int: 4, bool: 1). --output writes the result in the\n"
       "same format; --print prints every value. A one-line summary of the result\n"
       "(type, count, min, max, sum) is always printed.\n",
       {{"size", "input", "seed", "output"}, {"print"}},
       runEval},
  };
}

} // namespace liftcc::cli
