#include "core/typecheck/typecheck.h"

#include "core/error.h"
#include "core/typecheck/type_context.h"

#include <algorithm>
#include <unordered_map>

namespace liftcc {

namespace {

using rules::TypedFun;

// The node kinds; every primitive is typed by its family's rule
// (primitives/<family>.cpp), found through the primitive table.
class Checker final : public rules::TypeContext {
public:
  Expr check(const Expr &e, const std::string &path) override {
    switch (e.kind()) {
    case ExprKind::Param: {
      auto it = env_.find(e.id());
      if (it == env_.end()) fail(path, "parameter '" + e.name() + "' is used outside of the lambda that binds it");
      return it->second;
    }
    case ExprKind::Literal: return e;
    case ExprKind::Lambda:
    case ExprKind::UserFun: fail(path, "a function is used where a value is expected");
    case ExprKind::Apply: {
      std::vector<Expr> args;
      std::vector<Type> types;
      for (size_t i = 0; i < e.args().size(); ++i) {
        args.push_back(check(e.args()[i], path + "/args/" + std::to_string(i)));
        types.push_back(args.back().typeOrThrow());
      }
      TypedFun f = checkFun(e.fun(), types, path + "/apply", "apply");
      return Expr::apply(f.fun, std::move(args)).withType(f.result);
    }
    case ExprKind::Prim: return rules::typePrimitive(*this, e, path);
    }
    throw InternalError(path, "unknown node kind");
  }

  TypedFun checkFun(const Expr &f, const std::vector<Type> &argTypes, const std::string &path,
                    std::string_view context) override {
    switch (f.kind()) {
    case ExprKind::Lambda: {
      if (f.params().size() != argTypes.size())
        fail(path, std::string(context) + ": expected a function of " + std::to_string(argTypes.size()) +
                       " parameter(s), found a lambda of " + std::to_string(f.params().size()));
      std::vector<Expr> typedParams;
      for (size_t i = 0; i < argTypes.size(); ++i) {
        const Expr &p = f.params()[i];
        if (p.type() && *p.type() != argTypes[i])
          fail(path, std::string(context) + ": parameter '" + p.name() + "' is declared " + p.type()->str() +
                         " but receives " + argTypes[i].str());
        typedParams.push_back(Expr::param(p.name(), argTypes[i]));
        env_.insert_or_assign(p.id(), typedParams.back());
      }
      Expr body = check(f.body(), path + "/body");
      for (const Expr &p : f.params()) env_.erase(p.id());
      Type result = body.typeOrThrow();
      return {Expr::lambda(std::move(typedParams), std::move(body)).withType(result), result};
    }
    case ExprKind::UserFun: {
      const cfun::Function &uf = f.userFun();
      if (uf.params().size() != argTypes.size())
        fail(path, std::string(context) + ": user function '" + uf.name() + "' takes " +
                       std::to_string(uf.params().size()) + " argument(s) but receives " +
                       std::to_string(argTypes.size()));
      if (std::any_of(argTypes.begin(), argTypes.end(), [](const Type &t) { return t.isVector(); }))
        return checkLaneWise(f, argTypes, path, context);
      for (size_t i = 0; i < argTypes.size(); ++i) {
        Type expected = Type::scalar(uf.params()[i].kind);
        if (argTypes[i] != expected)
          fail(path, std::string(context) + ": user function '" + uf.name() + "' parameter '" + uf.params()[i].name +
                         "': expected " + expected.str() + ", found " + argTypes[i].str());
      }
      Type result = Type::scalar(uf.result());
      return {f.withType(result), result};
    }
    default: fail(path, std::string(context) + ": expected a function (lambda or user function), found a value");
    }
  }

  /// A scalar user function applied to vectors of one width runs lane-wise
  /// (Lift's vectorize): every argument is a vector of its parameter's kind,
  /// and the body must mean the same on OpenCL vectors (no lane conditions).
  rules::TypedFun checkLaneWise(const Expr &f, const std::vector<Type> &argTypes, const std::string &path,
                                std::string_view context) {
    const cfun::Function &uf = f.userFun();
    const int width =
        std::find_if(argTypes.begin(), argTypes.end(), [](const Type &t) { return t.isVector(); })->vectorWidth();
    if (std::string why = uf.laneWiseRefusal(); !why.empty())
      fail(path,
           std::string(context) + ": user function '" + uf.name() + "' cannot be applied lane-wise to vectors: " + why);
    for (size_t i = 0; i < argTypes.size(); ++i) {
      Type expected = Type::vector(uf.params()[i].kind, width); // float or double: laneWiseRefusal checked
      if (argTypes[i] != expected)
        fail(path, std::string(context) + ": user function '" + uf.name() + "' applied lane-wise to vectors of width " +
                       std::to_string(width) + ": parameter '" + uf.params()[i].name + "' expected " + expected.str() +
                       ", found " + argTypes[i].str());
    }
    Type result = Type::vector(uf.result(), width);
    return {f.withType(result), result};
  }

private:
  std::unordered_map<const void *, Expr> env_;
};

// Rebuilds an expression with every size operand and declared parameter type
// specialised; lambda parameters are re-created so that the body refers to
// the new binders.
class Specializer {
public:
  explicit Specializer(std::map<std::string, arith::Expr> b) : bindings_(std::move(b)) {}

  Expr run(const Expr &e) {
    switch (e.kind()) {
    case ExprKind::Param: {
      auto it = env_.find(e.id());
      return it == env_.end() ? e : it->second;
    }
    case ExprKind::Literal:
    case ExprKind::UserFun: return e;
    case ExprKind::Lambda: {
      std::vector<Expr> params;
      for (const Expr &p : e.params()) {
        std::optional<Type> t;
        if (p.type()) t = substitute(*p.type(), bindings_);
        params.push_back(Expr::param(p.name(), t));
        env_.insert_or_assign(p.id(), params.back());
      }
      return Expr::lambda(std::move(params), run(e.body()));
    }
    case ExprKind::Apply: {
      std::vector<Expr> args;
      for (const Expr &a : e.args()) args.push_back(run(a));
      return Expr::apply(run(e.fun()), std::move(args));
    }
    case ExprKind::Prim: {
      Expr::PrimOperands o{{}, e.attr(), e.padMode(), {}, {}};
      for (const arith::Expr &s : e.sizes()) o.sizes.push_back(arith::substitute(s, bindings_));
      for (const Expr &f : e.funs()) o.funs.push_back(run(f));
      for (const Expr &a : e.args()) o.args.push_back(run(a));
      return Expr::prim(e.op(), std::move(o));
    }
    }
    return e;
  }

private:
  std::map<std::string, arith::Expr> bindings_;
  std::unordered_map<const void *, Expr> env_;
};

} // namespace

Program typeCheck(const Program &program) {
  const Expr &fun = program.fun;
  if (!fun.is(ExprKind::Lambda)) throw TypeError("", "a program must be a lambda over its inputs");
  std::vector<Type> inputTypes;
  for (size_t i = 0; i < fun.params().size(); ++i) {
    const Expr &p = fun.params()[i];
    if (!p.type()) throw TypeError("/params/" + std::to_string(i), "input '" + p.name() + "' has no declared type");
    inputTypes.push_back(*p.type());
  }
  Checker checker;
  TypedFun typed = checker.checkFun(fun, inputTypes, "", "program");
  // checkFun reports body paths as "/body"; that is the JSON field too.
  return Program{program.sizes, typed.fun};
}

Program specialize(const Program &program, const std::map<std::string, int64_t> &sizes) {
  std::map<std::string, arith::Expr> bindings;
  for (const auto &[name, value] : sizes) bindings.emplace(name, arith::Expr(value));
  std::vector<arith::Expr> remaining;
  for (const arith::Expr &s : program.sizes)
    if (!sizes.count(s.varName())) remaining.push_back(s);
  return Program{std::move(remaining), Specializer(std::move(bindings)).run(program.fun)};
}

Program typeCheck(const Program &program, const std::map<std::string, int64_t> &sizes) {
  return typeCheck(specialize(program, sizes));
}

} // namespace liftcc
