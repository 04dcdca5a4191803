#include "core/typecheck/typecheck.h"

#include <unordered_map>

namespace liftcc {

namespace {

using arith::provablyDivisible;
using arith::provablyLessEq;
using arith::provablyNonNegative;
using arith::provablyPositive;

struct TypedFun {
  Expr fun;    // typed Lambda or UserFun
  Type result;
};

class Checker {
public:
  Expr check(const Expr &e, const std::string &path) {
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
    case ExprKind::Prim: return checkPrim(e, path);
    }
    fail(path, "unknown node");
  }

  TypedFun checkFun(const Expr &f, const std::vector<Type> &argTypes, const std::string &path, std::string_view context) {
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
                       std::to_string(uf.params().size()) + " argument(s) but receives " + std::to_string(argTypes.size()));
      for (size_t i = 0; i < argTypes.size(); ++i) {
        Type expected = Type::scalar(uf.params()[i].kind);
        if (argTypes[i] != expected)
          fail(path, std::string(context) + ": user function '" + uf.name() + "' parameter '" + uf.params()[i].name +
                         "': expected " + expected.str() + ", found " + argTypes[i].str());
      }
      Type result = Type::scalar(uf.result());
      return {f.withType(result), result};
    }
    default:
      fail(path, std::string(context) + ": expected a function (lambda or user function), found a value");
    }
  }

private:
  [[noreturn]] static void fail(const std::string &path, const std::string &message) { throw TypeError(path, message); }

  static std::string field(const std::string &path, std::string_view name) { return path + "/" + std::string(name); }

  Expr arrayArg(const Expr &e, const std::string &path, size_t index, std::string_view op) {
    const OpInfo &info = e.info();
    std::string p = info.variadicArgs ? field(path, info.argFields[0]) + "/" + std::to_string(index)
                                      : field(path, info.argFields[index]);
    Expr typed = check(e.args()[index], p);
    if (!typed.typeOrThrow().isArray())
      fail(p, std::string(op) + ": expected an array, found " + typed.typeOrThrow().str());
    return typed;
  }

  void requirePositive(const arith::Expr &v, const std::string &path, std::string_view op, std::string_view what) {
    if (!provablyPositive(v))
      fail(path, std::string(op) + ": " + std::string(what) + " must be provably positive, found " + v.str());
  }
  void requireNonNegative(const arith::Expr &v, const std::string &path, std::string_view op, std::string_view what) {
    if (!provablyNonNegative(v))
      fail(path, std::string(op) + ": " + std::string(what) + " must be provably non-negative, found " + v.str());
  }

  static Expr rebuild(const Expr &e, std::vector<Expr> funs, std::vector<Expr> args, Type type) {
    return Expr::prim(e.op(), {e.sizes(), e.attr(), e.padMode(), std::move(funs), std::move(args)}).withType(std::move(type));
  }

  Expr checkPrim(const Expr &e, const std::string &path) {
    const std::string op(e.info().name);
    switch (e.op()) {
    case Op::Map:
    case Op::MapGlb:
    case Op::MapWrg:
    case Op::MapLcl:
    case Op::MapSeq:
    case Op::MapSeqUnroll: {
      if (e.info().attr == AttrKind::Dim && (e.attr() < 0 || e.attr() > 2))
        fail(path + "/dim", op + ": dimension must be 0, 1 or 2, found " + std::to_string(e.attr()));
      Expr in = arrayArg(e, path, 0, op);
      const Type &t = in.typeOrThrow();
      TypedFun f = checkFun(e.funs()[0], {t.arrayElement()}, field(path, "f"), op);
      return rebuild(e, {f.fun}, {in}, Type::array(f.result, t.arrayLength()));
    }
    case Op::Reduce:
    case Op::ReduceSeq:
    case Op::ReduceSeqUnroll: {
      Expr init = check(e.args()[0], field(path, "init"));
      Expr in = arrayArg(e, path, 1, op);
      const Type &acc = init.typeOrThrow();
      TypedFun f = checkFun(e.funs()[0], {acc, in.typeOrThrow().arrayElement()}, field(path, "f"), op);
      if (f.result != acc)
        fail(field(path, "f"), op + ": the function must return the accumulator type " + acc.str() + ", found " +
                                   f.result.str());
      return rebuild(e, {f.fun}, {init, in}, Type::array(acc, arith::Expr(1)));
    }
    case Op::Zip: {
      std::vector<Expr> ins;
      std::vector<Type> elements;
      for (size_t i = 0; i < e.args().size(); ++i) {
        ins.push_back(arrayArg(e, path, i, op));
        const Type &t = ins.back().typeOrThrow();
        const Type &first = ins.front().typeOrThrow();
        if (t.arrayLength() != first.arrayLength())
          fail(path + "/in/" + std::to_string(i), op + ": input " + std::to_string(i) + " has length " +
                                                      t.arrayLength().str() + " but input 0 has length " +
                                                      first.arrayLength().str());
        elements.push_back(t.arrayElement());
      }
      arith::Expr n = ins.front().typeOrThrow().arrayLength();
      return rebuild(e, {}, std::move(ins), Type::array(Type::tuple(std::move(elements)), n));
    }
    case Op::Split: {
      Expr in = arrayArg(e, path, 0, op);
      const Type &t = in.typeOrThrow();
      const arith::Expr &n = e.sizes()[0];
      requirePositive(n, field(path, "n"), op, "the chunk size");
      if (!provablyDivisible(t.arrayLength(), n))
        fail(path, op + "(" + n.str() + ") of " + t.str() + ": length " + t.arrayLength().str() +
                       " is not provably divisible by " + n.str() + " (give concrete sizes or pad the input)");
      return rebuild(e, {}, {in}, Type::array(Type::array(t.arrayElement(), n), t.arrayLength() / n));
    }
    case Op::Join: {
      Expr in = arrayArg(e, path, 0, op);
      const Type &t = in.typeOrThrow();
      if (!t.arrayElement().isArray()) fail(path, op + ": expected an array of arrays, found " + t.str());
      const Type &inner = t.arrayElement();
      return rebuild(e, {}, {in}, Type::array(inner.arrayElement(), t.arrayLength() * inner.arrayLength()));
    }
    case Op::Slide: {
      Expr in = arrayArg(e, path, 0, op);
      const Type &t = in.typeOrThrow();
      const arith::Expr &size = e.sizes()[0], &step = e.sizes()[1];
      requirePositive(size, field(path, "size"), op, "the window size");
      requirePositive(step, field(path, "step"), op, "the step");
      if (!arith::provablyLessEq(size, t.arrayLength()))
        fail(path, op + "(" + size.str() + ", " + step.str() + ") of " + t.str() +
                       ": the input is not provably at least one window long");
      arith::Expr count = (t.arrayLength() - size + step) / step;
      return rebuild(e, {}, {in}, Type::array(Type::array(t.arrayElement(), size), count));
    }
    case Op::Pad:
    case Op::PadConstant: {
      bool constant = e.op() == Op::PadConstant;
      std::optional<Expr> value;
      if (constant) value = check(e.args()[0], field(path, "value"));
      Expr in = arrayArg(e, path, constant ? 1 : 0, op);
      const Type &t = in.typeOrThrow();
      const arith::Expr &l = e.sizes()[0], &r = e.sizes()[1];
      requireNonNegative(l, field(path, "left"), op, "the left padding");
      requireNonNegative(r, field(path, "right"), op, "the right padding");
      if (constant && value->typeOrThrow() != t.innermost())
        fail(field(path, "value"), op + ": the padding value must have the element type " + t.innermost().str() +
                                       ", found " + value->typeOrThrow().str());
      if (!constant && e.padMode() != PadMode::Clamp &&
          !(provablyLessEq(l, t.arrayLength()) && provablyLessEq(r, t.arrayLength())))
        fail(path, op + " " + std::string(padModeName(e.padMode())) + ": padding (" + l.str() + ", " + r.str() +
                       ") must be provably at most the input length " + t.arrayLength().str());
      std::vector<Expr> args;
      if (constant) args.push_back(*value);
      args.push_back(in);
      return rebuild(e, {}, std::move(args), Type::array(t.arrayElement(), l + t.arrayLength() + r));
    }
    case Op::Transpose: {
      Expr in = arrayArg(e, path, 0, op);
      const Type &t = in.typeOrThrow();
      if (!t.arrayElement().isArray()) fail(path, op + ": expected a 2D array, found " + t.str());
      const Type &inner = t.arrayElement();
      return rebuild(e, {}, {in},
                     Type::array(Type::array(inner.arrayElement(), t.arrayLength()), inner.arrayLength()));
    }
    case Op::Iterate: {
      Expr in = check(e.args()[0], field(path, "in"));
      const Type &t = in.typeOrThrow();
      requireNonNegative(e.sizes()[0], field(path, "n"), op, "the iteration count");
      TypedFun f = checkFun(e.funs()[0], {t}, field(path, "f"), op);
      if (f.result != t)
        fail(field(path, "f"), op + ": the function must return its input type " + t.str() + ", found " + f.result.str());
      return rebuild(e, {f.fun}, {in}, t);
    }
    case Op::At: {
      Expr in = arrayArg(e, path, 0, op);
      const Type &t = in.typeOrThrow();
      const arith::Expr &i = e.sizes()[0];
      if (!provablyNonNegative(i) || !arith::provablyLess(i, t.arrayLength()))
        fail(field(path, "index"), op + ": index " + i.str() + " is not provably within [0, " +
                                       t.arrayLength().str() + ") of " + t.str());
      return rebuild(e, {}, {in}, t.arrayElement());
    }
    case Op::Get: {
      Expr in = check(e.args()[0], field(path, "in"));
      const Type &t = in.typeOrThrow();
      if (!t.isTuple()) fail(field(path, "in"), op + ": expected a tuple, found " + t.str());
      if (e.attr() < 0 || static_cast<size_t>(e.attr()) >= t.tupleElements().size())
        fail(field(path, "index"), op + ": index " + std::to_string(e.attr()) + " out of range for " + t.str());
      return rebuild(e, {}, {in}, t.tupleElements()[static_cast<size_t>(e.attr())]);
    }
    case Op::Tuple: {
      std::vector<Expr> ins;
      std::vector<Type> types;
      for (size_t i = 0; i < e.args().size(); ++i) {
        ins.push_back(check(e.args()[i], path + "/in/" + std::to_string(i)));
        types.push_back(ins.back().typeOrThrow());
      }
      return rebuild(e, {}, std::move(ins), Type::tuple(std::move(types)));
    }
    case Op::Generate: {
      requireNonNegative(e.sizes()[0], field(path, "size"), op, "the size");
      TypedFun f = checkFun(e.funs()[0], {i32()}, field(path, "f"), op);
      return rebuild(e, {f.fun}, {}, Type::array(f.result, e.sizes()[0]));
    }
    case Op::SizeValue: return rebuild(e, {}, {}, i32());
    case Op::ToGlobal:
    case Op::ToLocal:
    case Op::ToPrivate: {
      Expr in = check(e.args()[0], field(path, "in"));
      TypedFun f = checkFun(e.funs()[0], {in.typeOrThrow()}, field(path, "f"), op);
      return rebuild(e, {f.fun}, {in}, f.result);
    }
    }
    fail(path, "unknown primitive");
  }

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
