#include "core/cfun/function.h"

#include "core/cfun/checker.h"
#include "core/cfun/convert.h"
#include "core/cfun/evaluator.h"
#include "core/cfun/ir.h"
#include "core/cfun/parser.h"
#include "core/cfun/printer.h"
#include "core/cfun/reserved.h"

#include <stdexcept>

namespace liftcc::cfun {

struct Function::Impl {
  std::string name;
  std::vector<Param> params;
  ScalarKind result;
  std::string body;
  std::unique_ptr<const ir::Program> program;
};

namespace {

/// Names outside the body have no position (line 0), so messages say which
/// name is meant.
void validateSignature(const std::string &name, const std::vector<Param> &params) {
  auto shown = [](const std::string &s) { return s.size() <= 40 ? s : s.substr(0, 37) + "..."; };
  if (!isIdentifier(name))
    throw CFunError(SourcePos{}, "function name '" + shown(name) + "' is not a valid C identifier");
  if (auto why = reservedFunctionName(name)) throw CFunError(SourcePos{}, "function name " + *why);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const std::string &p = params[i].name;
    std::string which = "parameter " + std::to_string(i + 1) + " of '" + name + "'";
    if (!isIdentifier(p)) throw CFunError(SourcePos{}, which + ": '" + shown(p) + "' is not a valid C identifier");
    if (auto why = reservedVariableName(p)) throw CFunError(SourcePos{}, which + ": " + *why);
    for (std::size_t j = 0; j < i; ++j)
      if (params[j].name == p)
        throw CFunError(SourcePos{},
                        which + ": duplicate name '" + p + "' (also parameter " + std::to_string(j + 1) + ")");
  }
}

} // namespace

Function Function::compile(std::string name, std::vector<Param> params, ScalarKind result, std::string body) {
  validateSignature(name, params);
  auto tree = parseBody(body);
  auto program = checkBody(*tree, name, params, result);
  auto impl = std::make_shared<Impl>();
  impl->name = std::move(name);
  impl->params = std::move(params);
  impl->result = result;
  impl->body = std::move(body);
  impl->program = std::move(program);
  return Function(std::move(impl));
}

const std::string &Function::name() const { return impl_->name; }
const std::vector<Param> &Function::params() const { return impl_->params; }
ScalarKind Function::result() const { return impl_->result; }
const std::string &Function::body() const { return impl_->body; }

std::string Function::signatureC() const {
  std::string s = std::string(scalarKindName(impl_->result)) + " " + impl_->name + "(";
  if (impl_->params.empty()) s += "void";
  for (std::size_t i = 0; i < impl_->params.size(); ++i) {
    if (i) s += ", ";
    s += std::string(scalarKindName(impl_->params[i].kind)) + " " + impl_->params[i].name;
  }
  return s + ")";
}

bool Function::usesDouble() const { return impl_->program->usesDouble; }

bool Function::convertsFloatingToInt() const { return impl_->program->convertsFloatingToInt; }
std::optional<ScalarKind> Function::widestFloatingReturn() const { return impl_->program->widestFloatingReturn; }

std::string Function::bodyWithConversions(
    const std::function<std::string(ScalarKind from, const std::string &operand)> &floatingToInt) const {
  return printBody(*impl_->program, impl_->params, floatingToInt);
}

Function Function::divisionsAsMultiplications() const {
  bool any = false;
  for (const ir::Expr &e : impl_->program->exprs) any = any || inverseOfConstantDivisor(e).has_value();
  if (!any) return *this;
  return reprinted(PrintRewrites{.divisionsAsMultiplications = true});
}

Function Function::regroupedSums() const {
  if (longestFloatingSum(*impl_->program) < kRegroupedSumTerms) return *this;
  return reprinted(PrintRewrites{.regroupSums = true});
}

Function Function::reprinted(const PrintRewrites &rewrites) const {
  // Printed with plain C casts: compiling the text again restores the
  // checked form, saturating float -> int conversions included.
  std::string body = printBody(
      *impl_->program, impl_->params, [](ScalarKind, const std::string &operand) { return "((int)" + operand + ")"; },
      rewrites);
  return compile(impl_->name, impl_->params, impl_->result, body);
}

namespace {
/// Why `e` (of a function computing on `kind`) does not vectorise lane-wise; empty when it does.
std::string laneWiseRefusal(const ir::Expr &e, ScalarKind kind) {
  auto at = [&](const std::string &what) {
    return what + " at line " + std::to_string(e.pos.line) + ", column " + std::to_string(e.pos.column);
  };
  if (e.kind == ir::ExprKind::Convert && e.a->kind == ir::ExprKind::Const && e.type == kind) return "";
  if (e.type != kind) return at(std::string("a value of type ") + std::string(scalarKindName(e.type)));
  switch (e.kind) {
  case ir::ExprKind::Const:
  case ir::ExprKind::Load: return "";
  case ir::ExprKind::Neg: return laneWiseRefusal(*e.a, kind);
  case ir::ExprKind::Arith: {
    if (e.arith == ir::ArithOp::Rem) return at("a remainder");
    std::string a = laneWiseRefusal(*e.a, kind);
    return a.empty() ? laneWiseRefusal(*e.b, kind) : a;
  }
  case ir::ExprKind::Call:
    if (e.builtin == Builtin::Pow || e.builtin == Builtin::Min || e.builtin == Builtin::Max)
      return at("a call of pow, min or max");
    for (const ir::Expr *arg : e.args)
      if (std::string why = laneWiseRefusal(*arg, kind); !why.empty()) return why;
    return "";
  case ir::ExprKind::Convert: return at("a conversion");
  case ir::ExprKind::Not:
  case ir::ExprKind::Compare:
  case ir::ExprKind::And:
  case ir::ExprKind::Or:
  case ir::ExprKind::Conditional: return at("a condition on a lane");
  }
  return at("an unsupported expression");
}

std::string laneWiseRefusal(const ir::Stmt &s, ScalarKind kind) {
  switch (s.kind) {
  case ir::StmtKind::Store:
  case ir::StmtKind::Return: return laneWiseRefusal(*s.value, kind);
  case ir::StmtKind::If: return "an if statement (a condition on a lane)";
  case ir::StmtKind::Block:
    for (const ir::Stmt *inner : s.body)
      if (std::string why = laneWiseRefusal(*inner, kind); !why.empty()) return why;
    return "";
  }
  return "an unsupported statement";
}
} // namespace

std::string Function::laneWiseRefusal() const {
  const ScalarKind kind = impl_->result;
  if (kind != ScalarKind::Float && kind != ScalarKind::Double)
    return "its result is " + std::string(scalarKindName(kind)) + " (vectors hold float or double)";
  for (const ScalarKind slot : impl_->program->slotTypes)
    if (slot != kind)
      return "it has a parameter or local of type " + std::string(scalarKindName(slot)) + " besides " +
             std::string(scalarKindName(kind));
  return cfun::laneWiseRefusal(*impl_->program->body, kind);
}

namespace {
/// `e` (int-valued) as an affine form of the parameters, into `out` scaled by `scale`.
bool addAffine(const ir::Expr &e, int64_t scale, size_t params, Function::Affine &out) {
  if (e.type != ScalarKind::Int) return false;
  switch (e.kind) {
  case ir::ExprKind::Const: out.constant += scale * e.value.asInt(); return true;
  case ir::ExprKind::Load:
    if (e.slot < 0 || static_cast<size_t>(e.slot) >= params) return false; // a local
    out.coefficients[static_cast<size_t>(e.slot)] += scale;
    return true;
  case ir::ExprKind::Neg: return addAffine(*e.a, -scale, params, out);
  case ir::ExprKind::Arith:
    if (e.arith == ir::ArithOp::Add || e.arith == ir::ArithOp::Sub)
      return addAffine(*e.a, scale, params, out) &&
             addAffine(*e.b, e.arith == ir::ArithOp::Add ? scale : -scale, params, out);
    if (e.arith != ir::ArithOp::Mul) return false;
    if (e.a->kind == ir::ExprKind::Const && e.a->type == ScalarKind::Int)
      return addAffine(*e.b, scale * e.a->value.asInt(), params, out);
    if (e.b->kind == ir::ExprKind::Const && e.b->type == ScalarKind::Int)
      return addAffine(*e.a, scale * e.b->value.asInt(), params, out);
    return false;
  default: return false;
  }
}
} // namespace

std::optional<Function::Affine> Function::affine() const {
  const ir::Program &program = *impl_->program;
  if (impl_->result != ScalarKind::Int) return std::nullopt;
  for (const Param &p : impl_->params)
    if (p.kind != ScalarKind::Int) return std::nullopt;
  const ir::Stmt *body = program.body;
  while (body && body->kind == ir::StmtKind::Block && body->body.size() == 1) body = body->body.front();
  if (!body || body->kind != ir::StmtKind::Return) return std::nullopt;
  Affine out;
  out.coefficients.assign(impl_->params.size(), 0);
  if (!addAffine(*body->value, 1, impl_->params.size(), out)) return std::nullopt;
  return out;
}

Scalar Function::call(std::span<const Scalar> args) const {
  const auto &params = impl_->params;
  if (args.size() != params.size())
    throw std::invalid_argument("user function '" + impl_->name + "' takes " + std::to_string(params.size()) +
                                " argument(s), called with " + std::to_string(args.size()));
  std::vector<Scalar> converted;
  converted.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) converted.push_back(convertScalar(args[i], params[i].kind));
  return evaluate(*impl_->program, impl_->name, converted);
}

} // namespace liftcc::cfun
