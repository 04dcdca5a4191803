// Uses an installed liftcc: builds a 1D Jacobi with the C++ API, type-checks
// it, evaluates it with the interpreter, writes it as JSON, generates its
// OpenCL kernel and exports its host code (from the templates compiled into
// the library). Prints what it got, for the install suite to check.

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "exporter/export.h"
#include "liftcc/version.h"
#include "primitives/api.h"
#include "rewrite/recipes.h"

#include <iostream>

int main() {
  using namespace liftcc;
  using namespace liftcc::api;
  Size n = size("N", 3);
  Expr a = input("A", array(f32(), n));
  Expr add3 = userFun("add3", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}, {"c", ScalarKind::Float}}, ScalarKind::Float,
                      "return a + b + c;");
  Program jacobi = program({a}, map([&](Expr w) { return apply(add3, {at(0, w), at(1, w), at(2, w)}); },
                                    slide(3, 1, pad(1, 1, clamp, a))));
  std::map<std::string, int64_t> sizes{{"N", 4}};
  Program typed = typeCheck(jacobi, sizes);
  Value result = interpret(typed, sizes, {Value::array({Value(Scalar::ofFloat(1)), Value(Scalar::ofFloat(2)),
                                                        Value(Scalar::ofFloat(3)), Value(Scalar::ofFloat(4))})});
  std::cout << "liftcc " << LIFTCC_VERSION_STRING << "\n";
  std::cout << "result:";
  for (const Value &v : result.elements()) std::cout << " " << v.scalar().toDouble();
  std::cout << "\n";
  std::cout << "json format: " << (writeProgram(jacobi).find("\"liftcc\": 1") != std::string::npos ? "1" : "?") << "\n";
  codegen::Kernel kernel = codegen::generateKernel(rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {}), codegen::Target::OpenCL);
  std::cout << "kernel: " << kernel.name << " (" << kernel.source.size() << " characters)\n";
  exporter::ExportedPair pair =
      exporter::exportPair(exporter::planFromKernel(kernel, "jacobi", {{"N", 4}}, std::nullopt, {}), "jacobi");
  bool launches = pair.source.find("jacobi_opencl_status jacobi_opencl_launch(") != std::string::npos;
  std::cout << "exported: " << pair.headerFile << ", " << pair.sourceFile << (launches ? " (launch)" : "") << "\n";
  return 0;
}
