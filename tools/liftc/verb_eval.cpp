// liftc eval: run a program in the reference interpreter.

#include "core/interp/components.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_io.h"
#include "core/io/safe_file.h"
#include "core/typecheck/typecheck.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/resource_limits.h"
#include "tools/liftc/standard_output.h"
#include "tools/liftc/verbs.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <ostream>

namespace liftcc::cli {

namespace {

std::string formatScalar(const Scalar &s) {
  char buffer[64];
  switch (s.kind()) {
  case ScalarKind::Bool: return s.asBool() ? "true" : "false";
  case ScalarKind::Int: return std::to_string(s.asInt());
  case ScalarKind::Float: std::snprintf(buffer, sizeof buffer, "%.9g", double(s.asFloat())); return buffer;
  case ScalarKind::Double: std::snprintf(buffer, sizeof buffer, "%.17g", s.asDouble()); return buffer;
  }
  return "?";
}

void printValue(const Value &v, std::ostream &out) {
  switch (v.kind()) {
  case Value::Kind::Scalar: out << formatScalar(v.scalar()); return;
  case Value::Kind::Tuple:
  case Value::Kind::Array: {
    bool tuple = v.kind() == Value::Kind::Tuple;
    out << (tuple ? '(' : '[');
    for (size_t i = 0; i < v.size(); ++i) {
      checkOutputStream(out); // a failed write ends the printing, not millions of formattings later
      if (i) out << ", ";
      printValue(v[i], out);
    }
    out << (tuple ? ')' : ']');
    return;
  }
  }
}

} // namespace

int runEval(const CommandLine &cl, std::ostream &out) {
  const std::string &path = cl.onlyPositional("program file");
  const uint64_t seed = cl.value("seed") ? parseCount("--seed", *cl.value("seed"), kSeedRange) : 1;
  auto [program, sizes, typed] = loadTypedProgram(cl, {.kernels = false});

  std::map<std::string, std::string> inputSources;
  for (const std::string &spec : cl.values("input")) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw UsageError("--input expects NAME=random or NAME=FILE, found '" + io::shown(spec) + "'");
    if (!inputSources.emplace(spec.substr(0, eq), spec.substr(eq + 1)).second)
      throw UsageError("input " + spec.substr(0, eq) + " given twice");
  }
  for (const auto &[name, source] : inputSources) {
    bool known =
        std::any_of(typed.inputs().begin(), typed.inputs().end(), [&](const Expr &p) { return p.name() == name; });
    if (!known) throw UsageError("the program has no input named " + name);
  }

  std::vector<std::string> inputFiles{path};
  for (const auto &[name, source] : inputSources)
    if (source != "random") inputFiles.push_back(source);
  if (auto output = cl.value("output")) io::refuseOverwritingInputs({{"--output", *output}}, inputFiles);

  checkInterpretable(typed, sizes);

  std::vector<Value> inputs = randomInputs(typed, sizes, seed);
  for (size_t i = 0; i < typed.inputs().size(); ++i) {
    const Expr &p = typed.inputs()[i];
    auto it = inputSources.find(p.name());
    if (it != inputSources.end() && it->second != "random")
      inputs[i] = readBinaryValue(it->second, p.typeOrThrow(), sizes);
  }

  Value result = interpret(typed, sizes, inputs);
  if (auto output = cl.value("output")) {
    // A result with tuples is written as its components one after another
    // (structure of arrays), the layout of a kernel's output buffers.
    const Type &type = typed.body().typeOrThrow();
    if (hasTuple(type)) {
      std::vector<std::byte> bytes;
      for (const std::vector<std::byte> &part : componentBytes(result, type, sizes))
        bytes.insert(bytes.end(), part.begin(), part.end());
      io::writeFile(*output, std::string_view(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
    } else {
      writeBinaryValue(*output, result);
    }
  }

  std::vector<Scalar> flat = result.flatten();
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
  for (const Scalar &s : flat) {
    double d = s.toDouble();
    lo = std::min(lo, d);
    hi = std::max(hi, d);
    sum += d;
  }
  out << "result: " << typed.body().typeOrThrow().str() << ", " << flat.size() << " values";
  if (!flat.empty()) out << ", min " << lo << ", max " << hi << ", sum " << sum;
  out << "\n";
  if (cl.has("print")) {
    printValue(result, out);
    out << "\n";
  }
  return 0;
}

} // namespace liftcc::cli
