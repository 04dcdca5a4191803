// liftc rewrite: apply one rule at one location, or list where rules apply.

#include "core/ir/printer.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "rewrite/apply.h"
#include "rewrite/catalog.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"

#include <fstream>
#include <ostream>

namespace liftcc::cli {

int runRewrite(const CommandLine &cl, std::ostream &out) {
  Program program = loadProgram(cl.onlyPositional("program file"));
  std::map<std::string, int64_t> sizes = sizeBindings(cl);
  if (!sizes.empty()) checkSizeBindings(program, sizes);
  Program typed = sizes.empty() ? typeCheck(program) : typeCheck(program, sizes);

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
    if (!rule) throw UsageError("unknown rule '" + *name + "' (see 'liftc rewrite PROGRAM.json --list')");
    rewritten = rewrite::applyRule(typed, *rule, cl.value("at").value_or("/body"));
  }
  if (cl.has("json")) out << writeProgram(rewritten, jsonOptions);
  else out << printProgram(rewritten);
  if (auto path = cl.value("output")) {
    std::ofstream file(*path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot open '" + *path + "' for writing");
    file << writeProgram(rewritten, jsonOptions);
  }
  return 0;
}

} // namespace liftcc::cli
