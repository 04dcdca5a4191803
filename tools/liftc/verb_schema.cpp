// liftc schema: the documentation generated from the primitive list
// (docs/program.schema.json and the tables of docs/program-format.md).

#include "core/io/safe_file.h"
#include "core/json/program_schema.h"
#include "tools/liftc/command_line.h"
#include "tools/liftc/verbs.h"

#include <filesystem>
#include <ostream>

namespace liftcc::cli {

int runSchema(const CommandLine &cl, std::ostream &out) {
  if (!cl.positional().empty())
    throw UsageError("schema takes no positional argument (found '" + cl.positional()[0] + "')");
  if (std::optional<std::string> dir = cl.value("update-docs")) {
    if (cl.has("markdown")) throw UsageError("--markdown and --update-docs exclude each other");
    std::filesystem::path docs(*dir);
    std::string formatPath = (docs / "program-format.md").string();
    // The format page is hand-written around its generated tables: only they change.
    std::string format = io::readFileCapped(formatPath, 1 << 20, "format documentation");
    io::writeFile((docs / "program.schema.json").string(), programSchemaText());
    io::writeFile(formatPath, withGeneratedSections(format));
    out << "wrote " << (docs / "program.schema.json").string() << " and the tables of " << formatPath << "\n";
    return 0;
  }
  if (cl.has("markdown"))
    out << "Primitives:\n\n" << primitivesMarkdown() << "\nDerived forms:\n\n" << derivedFormsMarkdown();
  else
    out << programSchemaText();
  return 0;
}

} // namespace liftcc::cli
