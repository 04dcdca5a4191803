// liftc eval: run a program in the reference interpreter.

#include "core/interp/interpreter.h"
#include "core/interp/value_io.h"
#include "core/typecheck/typecheck.h"
#include "tools/liftc/program_loading.h"
#include "tools/liftc/verbs.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <ostream>

namespace liftcc::cli {

namespace {

/// The interpreter is an oracle for small sizes (every scalar is a shared
/// handle); refusing larger runs up front beats being killed by the OOM killer.
constexpr int64_t kMaxInterpretedScalars = int64_t(1) << 24;

void checkInterpretable(const std::string &what, const Type &type, const std::map<std::string, int64_t> &sizes) {
  int64_t count = 0;
  try {
    count = scalarCount(type, sizes);
  } catch (const std::exception &e) {
    throw UsageError(what + ": " + e.what());
  }
  if (count > kMaxInterpretedScalars)
    throw UsageError(what + " of type " + type.str() + " has " + std::to_string(count) +
                     " values; the reference interpreter accepts at most " + std::to_string(kMaxInterpretedScalars) +
                     " (use smaller sizes)");
}

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
  Program program = loadProgram(cl.onlyPositional("program file"));
  std::map<std::string, int64_t> sizes = sizeBindings(cl);
  checkSizeBindings(program, sizes);
  Program typed = typeCheck(program, sizes);

  std::map<std::string, std::string> inputSources;
  for (const std::string &spec : cl.values("input")) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw UsageError("--input expects NAME=random or NAME=FILE, found '" + spec + "'");
    if (!inputSources.emplace(spec.substr(0, eq), spec.substr(eq + 1)).second)
      throw UsageError("input " + spec.substr(0, eq) + " given twice");
  }
  for (const auto &[name, source] : inputSources) {
    bool known = std::any_of(typed.inputs().begin(), typed.inputs().end(), [&](const Expr &p) { return p.name() == name; });
    if (!known) throw UsageError("the program has no input named " + name);
  }

  uint64_t seed = cl.value("seed") ? parseUnsigned("seed", *cl.value("seed")) : 1;
  for (const Expr &p : typed.inputs()) checkInterpretable("input " + p.name(), p.typeOrThrow(), sizes);
  checkInterpretable("the result", typed.body().typeOrThrow(), sizes);

  std::vector<Value> inputs = randomInputs(typed, sizes, seed);
  for (size_t i = 0; i < typed.inputs().size(); ++i) {
    const Expr &p = typed.inputs()[i];
    auto it = inputSources.find(p.name());
    if (it != inputSources.end() && it->second != "random")
      inputs[i] = readBinaryValue(it->second, p.typeOrThrow(), sizes);
  }

  Value result = interpret(typed, sizes, inputs);
  if (auto path = cl.value("output")) writeBinaryValue(*path, result);

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
