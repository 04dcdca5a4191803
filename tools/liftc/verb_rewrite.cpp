// liftc rewrite: apply one rule at one location, or list where rules apply.

#include "core/ir/printer.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"

#include "core/io/safe_file.h"

#include <ostream>

namespace liftcc::cli {

int runRewrite(const CommandLine &cl, std::ostream &out) {
  const Program typed = loadTypedProgram(cl, {.sizes = false, .kernels = false}).typed;

  if (cl.has("list")) {
    if (cl.value("rule") || cl.value("at")) throw UsageError("--list takes neither --rule nor --at");
    for (const rewrite::Rule &rule : rewrite::ruleCatalog()) {
      std::vector<std::string> locations = rewrite::applicableLocations(typed, rule);
      if (locations.empty()) continue;
      out << rule.name << "    " << rule.summary << "\n";
      for (const std::string &loc : locations) out << "    " << loc << "\n";
    }
    return 0;
  }
  JsonWriteOptions jsonOptions{.expanded = cl.has("expanded")};
  if (jsonOptions.expanded && !cl.has("json") && !cl.value("output")) throw UsageError("--expanded needs --json or -o");
  auto name = cl.value("rule");
  if (!name && !cl.has("json")) throw UsageError("missing --rule NAME (or --list, or --json to write the program)");
  if (!name && cl.value("at")) throw UsageError("--at needs --rule");
  Program rewritten = typed;
  if (name) {
    auto rule = rewrite::findRule(*name);
    if (!rule) throw UsageError("unknown rule '" + io::shown(*name) + "' (see 'liftc rewrite PROGRAM.json --list')");
    rewritten = rewrite::applyRule(typed, *rule, cl.value("at").value_or("/body"));
  }
  if (cl.has("json"))
    out << writeProgram(rewritten, jsonOptions);
  else
    out << printProgram(rewritten);
  // Written whole or not at all, so rewriting a program in place is safe.
  if (auto output = cl.value("output")) {
    io::refuseOverwritingInputs({{"--output", *output}}, {});
    io::writeFile(*output, writeProgram(rewritten, jsonOptions));
  }
  return 0;
}

} // namespace liftcc::cli
