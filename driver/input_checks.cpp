#include "driver/input_checks.h"

#include "core/io/safe_file.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/types.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace liftcc::driver {

namespace {

/// `e` at `sizes` in 128-bit arithmetic; nullopt when a value leaves
/// [-2^62, 2^62] (arith::evaluate wraps like C, which would hide it).
std::optional<__int128> evaluateWide(const arith::Expr &e, const Sizes &sizes) {
  constexpr __int128 kLimit = __int128(1) << 62;
  std::vector<__int128> ops;
  for (const arith::Expr &operand : e.operands()) {
    auto v = evaluateWide(operand, sizes);
    if (!v) return std::nullopt;
    ops.push_back(*v);
  }
  __int128 r = 0;
  switch (e.kind()) {
  case arith::Kind::Constant: r = e.constant(); break;
  case arith::Kind::Variable: {
    auto it = sizes.find(e.varName());
    if (it == sizes.end()) return std::nullopt;
    r = it->second;
    break;
  }
  case arith::Kind::Sum:
    for (__int128 v : ops) r += v;
    break;
  case arith::Kind::Product:
    r = 1;
    for (__int128 v : ops) {
      r *= v;
      if (r > kLimit || r < -kLimit) return std::nullopt;
    }
    break;
  default: return int64_t(arith::evaluate(e, sizes)); // div, mod, min, max, select: no growth beyond operands
  }
  if (r > kLimit || r < -kLimit) return std::nullopt;
  return r;
}

/// Every array length in `type` stays far from wrapping at `sizes`.
bool lengthsFit(const Type &type, const Sizes &sizes) {
  if (type.isTuple()) {
    for (const Type &t : type.tupleElements())
      if (!lengthsFit(t, sizes)) return false;
    return true;
  }
  if (!type.isArray()) return true;
  return evaluateWide(type.arrayLength(), sizes).has_value() && lengthsFit(type.arrayElement(), sizes);
}

void checkArray(const std::string &what, const Type &type, const Sizes &sizes) {
  int64_t count = 0;
  try {
    count = scalarCount(type, sizes);
  } catch (const std::exception &) {
    count = -1;
  }
  if (count < 0 || count > kMaxArrayScalars)
    throw InputError("at these sizes " + what + " (" + io::shown(type.str(), 80) + ") has more than 2^60 values, " +
                     "liftc's limit (its byte count must fit a signed 64-bit integer)");
}

} // namespace

void checkSizeBindings(const Program &program, const Sizes &sizes) {
  std::string missing;
  for (const arith::Expr &var : program.sizes) {
    auto it = sizes.find(var.varName());
    if (it == sizes.end()) {
      missing += (missing.empty() ? "" : ", ") + var.varName();
      continue;
    }
    // A range bound may mention other sizes, so it is evaluated with all of them.
    const arith::Range &range = var.varRange();
    auto bound = [&](const std::shared_ptr<const arith::Expr> &b) { return arith::evaluate(*b, sizes); };
    if (it->second > codegen::kMaxSizeValue)
      throw InputError("size " + var.varName() + " = " + std::to_string(it->second) +
                       " is above liftc's limit 2^40 = " + std::to_string(codegen::kMaxSizeValue));
    if (range.lo && it->second < bound(range.lo))
      throw InputError("size " + var.varName() + " = " + std::to_string(it->second) + " is below its minimum " +
                       std::to_string(bound(range.lo)));
    if (range.hi && it->second > bound(range.hi))
      throw InputError("size " + var.varName() + " = " + std::to_string(it->second) + " is above its maximum " +
                       std::to_string(bound(range.hi)));
  }
  if (!missing.empty()) throw InputError("missing --size for " + missing);
  for (const auto &[name, value] : sizes) {
    bool known = false;
    for (const arith::Expr &var : program.sizes) known = known || var.varName() == name;
    if (!known) {
      std::string declared;
      for (const arith::Expr &var : program.sizes) declared += (declared.empty() ? "" : ", ") + var.varName();
      throw InputError("the program has no size " + name + " (its sizes: " + (declared.empty() ? "none" : declared) +
                       ")");
    }
  }
}

void checkInputLengths(const Program &program, const Sizes &sizes) {
  for (const Expr &in : program.inputs())
    if (in.type() && !lengthsFit(*in.type(), sizes))
      throw InputError("at these sizes input " + in.name() + " (" + io::shown(in.type()->str(), 80) +
                       ") has a length beyond 2^62, liftc's limit");
}

void checkArrayScalars(const Program &typed, const Sizes &sizes) {
  for (const Expr &in : typed.inputs()) checkArray("input " + in.name(), in.typeOrThrow(), sizes);
  checkArray("the result", typed.body().typeOrThrow(), sizes);
}

int64_t iterationProduct(const Program &typed, const Sizes &sizes) {
  constexpr int64_t kLimit = codegen::kMaxIterations;
  int64_t product = 1;
  containsNode(typed.body(), [&](const Expr &e) {
    if (!e.isPrim(Op::Iterate)) return false;
    const arith::Expr &countExpr = iterateCount(e);
    for (const std::string &var : arith::freeVariables(countExpr))
      if (!sizes.count(var)) return false;
    // A negative count is a wrapped product of sizes: above the limit too.
    int64_t count = arith::evaluate(countExpr, sizes);
    if (count < 0 || count > kLimit || product * std::max<int64_t>(count, 1) > kLimit)
      product = kLimit + 1;
    else
      product *= std::max<int64_t>(count, 1);
    return false;
  });
  return product;
}

void checkIterationCount(const Program &typed, const Sizes &sizes) {
  codegen::checkIterations(iterationProduct(typed, sizes));
}

bool launchesNoKernel(const Program &typed, const Sizes &sizes) {
  const Expr &body = typed.body();
  if (!body.isPrim(Op::Iterate)) return false;
  const arith::Expr &count = iterateCount(body);
  for (const std::string &var : arith::freeVariables(count))
    if (!sizes.count(var)) return false;
  return arith::evaluate(count, sizes) == 0;
}

} // namespace liftcc::driver
