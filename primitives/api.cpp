#include "primitives/api.h"

#include "core/cfun/reserved.h"
#include "core/ir/nd_forms.h"

#include <algorithm>
#include <stdexcept>

namespace liftcc::api {

namespace {
Expr prim(Op op, std::vector<Size> sizes, std::vector<Expr> funs, std::vector<Expr> args, int attr = 0,
          PadMode mode = PadMode::Clamp) {
  return Expr::prim(op, {std::move(sizes), attr, mode, std::move(funs), std::move(args)});
}

void collectSizes(const Type &t, std::vector<Size> &out) {
  switch (t.kind()) {
  case TypeKind::Scalar:
  case TypeKind::Vector: return;
  case TypeKind::Tuple:
    for (const Type &e : t.tupleElements()) collectSizes(e, out);
    return;
  case TypeKind::Array: {
    std::vector<std::string> names = arith::freeVariables(t.arrayLength());
    // Recover the variable nodes (with their ranges) from the length itself.
    std::function<void(const Size &)> visit = [&](const Size &e) {
      if (e.kind() == arith::Kind::Variable) {
        bool known = std::any_of(out.begin(), out.end(), [&](const Size &s) { return s.varName() == e.varName(); });
        if (!known) out.push_back(e);
        return;
      }
      if (e.kind() != arith::Kind::Constant)
        for (const Size &o : e.operands()) visit(o);
    };
    visit(t.arrayLength());
    collectSizes(t.arrayElement(), out);
    return;
  }
  }
}
} // namespace

Size size(const std::string &name, int64_t minimum) { return Size::var(name, arith::Range::atLeast(minimum)); }

Expr input(const std::string &name, Type type) { return Expr::param(name, std::move(type)); }

Program program(std::vector<Expr> inputs, Expr body) {
  std::vector<Size> sizes;
  for (const Expr &in : inputs) {
    if (!in.is(ExprKind::Param) || !in.type()) throw std::invalid_argument("program inputs must be typed inputs");
    collectSizes(*in.type(), sizes);
  }
  return Program{std::move(sizes), Expr::lambda(std::move(inputs), std::move(body))};
}

Expr lit(float v) { return Expr::literal(Scalar::ofFloat(v)); }
Expr lit(double v) { return Expr::literal(Scalar::ofDouble(v)); }
Expr lit(int32_t v) { return Expr::literal(Scalar::ofInt(v)); }

Expr userFun(const std::string &name, std::vector<cfun::Param> params, ScalarKind result, const std::string &body) {
  return Expr::userFun(cfun::Function::compile(name, std::move(params), result, body));
}

Expr fn(const std::function<Expr(Expr)> &body, const std::string &name) {
  Expr x = Expr::param(name);
  return Expr::lambda({x}, body(x));
}

Expr fn2(const std::function<Expr(Expr, Expr)> &body, const std::string &a, const std::string &b) {
  Expr x = Expr::param(a), y = Expr::param(b);
  return Expr::lambda({x, y}, body(x, y));
}

Expr fn3(const std::function<Expr(Expr, Expr, Expr)> &body) {
  Expr x = Expr::param("x"), y = Expr::param("y"), z = Expr::param("z");
  return Expr::lambda({x, y, z}, body(x, y, z));
}

Expr apply(Expr f, std::vector<Expr> args) { return Expr::apply(std::move(f), std::move(args)); }

Expr compose(std::vector<Expr> functions) {
  return fn([&](Expr x) {
    for (auto it = functions.rbegin(); it != functions.rend(); ++it) x = apply(*it, {x});
    return x;
  });
}

Expr map(Expr f, Expr in) { return prim(Op::Map, {}, {std::move(f)}, {std::move(in)}); }
Expr reduce(Expr f, Expr init, Expr in) {
  return prim(Op::Reduce, {}, {std::move(f)}, {std::move(init), std::move(in)});
}
Expr zip(std::vector<Expr> ins) { return prim(Op::Zip, {}, {}, std::move(ins)); }
Expr split(Size n, Expr in) { return prim(Op::Split, {std::move(n)}, {}, {std::move(in)}); }
Expr take(Size n, Expr in) { return prim(Op::Take, {std::move(n)}, {}, {std::move(in)}); }
Expr join(Expr in) { return prim(Op::Join, {}, {}, {std::move(in)}); }
Expr slide(Size size, Size step, Expr in) {
  return prim(Op::Slide, {std::move(size), std::move(step)}, {}, {std::move(in)});
}
Expr pad(Size left, Size right, PadMode mode, Expr in) {
  return prim(Op::Pad, {std::move(left), std::move(right)}, {}, {std::move(in)}, 0, mode);
}
Expr padConstant(Size left, Size right, Expr value, Expr in) {
  return prim(Op::PadConstant, {std::move(left), std::move(right)}, {}, {std::move(value), std::move(in)});
}
Expr transpose(Expr in) { return prim(Op::Transpose, {}, {}, {std::move(in)}); }
Expr iterate(Size n, Expr f, Expr in) { return prim(Op::Iterate, {std::move(n)}, {std::move(f)}, {std::move(in)}); }
Expr at(Size index, Expr in) { return prim(Op::At, {std::move(index)}, {}, {std::move(in)}); }
Expr atDynamic(Expr index, Expr in) { return prim(Op::AtDynamic, {}, {}, {std::move(index), std::move(in)}); }
Expr asVector(Size width, Expr in) { return prim(Op::AsVector, {std::move(width)}, {}, {std::move(in)}); }
Expr asScalar(Expr in) { return prim(Op::AsScalar, {}, {}, {std::move(in)}); }
Expr get(int index, Expr in) { return prim(Op::Get, {}, {}, {std::move(in)}, index); }
Expr tuple(std::vector<Expr> elements) { return prim(Op::Tuple, {}, {}, std::move(elements)); }
Expr generate(Size n, Expr f) { return prim(Op::Generate, {std::move(n)}, {std::move(f)}, {}); }
Expr sizeValue(Size s) { return prim(Op::SizeValue, {std::move(s)}, {}, {}); }

// The N-d forms are defined in core/ir/nd_forms.cpp, shared with the JSON
// reader and writer.
Expr mapN(int dims, Expr f, Expr in) { return nd::mapN(dims, std::move(f), std::move(in)); }

Expr padN(int dims, Size left, Size right, PadMode mode, Expr in) {
  if (dims < 1) throw std::invalid_argument("padN: dims must be >= 1");
  size_t n = static_cast<size_t>(dims);
  return nd::padN(std::vector<Size>(n, left), std::vector<Size>(n, right), std::vector<PadMode>(n, mode),
                  std::move(in));
}

Expr padConstantN(int dims, Size left, Size right, Expr value, Expr in) {
  if (dims < 1) throw std::invalid_argument("padConstantN: dims must be >= 1");
  Expr outer = padConstant(left, right, value, std::move(in));
  if (dims == 1) return outer;
  return map(fn([&](Expr row) { return padConstantN(dims - 1, left, right, value, row); }), outer);
}

Expr slideN(int dims, Size size, Size step, Expr in) {
  return nd::slideN(dims, std::move(size), std::move(step), std::move(in));
}

Expr zipN(int dims, std::vector<Expr> ins) { return nd::zipN(dims, std::move(ins)); }

Expr joinN(int dims, Expr in) {
  for (int i = 1; i < dims; ++i) in = join(std::move(in));
  return in;
}

Expr mapGlb(int dim, Expr f, Expr in) { return prim(Op::MapGlb, {}, {std::move(f)}, {std::move(in)}, dim); }
Expr mapWrg(int dim, Expr f, Expr in) { return prim(Op::MapWrg, {}, {std::move(f)}, {std::move(in)}, dim); }
Expr mapLcl(int dim, Expr f, Expr in) { return prim(Op::MapLcl, {}, {std::move(f)}, {std::move(in)}, dim); }
Expr mapSeq(Expr f, Expr in) { return prim(Op::MapSeq, {}, {std::move(f)}, {std::move(in)}); }
Expr mapSeqUnroll(Expr f, Expr in) { return prim(Op::MapSeqUnroll, {}, {std::move(f)}, {std::move(in)}); }
Expr reduceSeq(Expr f, Expr init, Expr in) {
  return prim(Op::ReduceSeq, {}, {std::move(f)}, {std::move(init), std::move(in)});
}
Expr reduceSeqUnroll(Expr f, Expr init, Expr in) {
  return prim(Op::ReduceSeqUnroll, {}, {std::move(f)}, {std::move(init), std::move(in)});
}
Expr toGlobal(Expr f, Expr in) { return prim(Op::ToGlobal, {}, {std::move(f)}, {std::move(in)}); }
Expr toLocal(Expr f, Expr in) { return prim(Op::ToLocal, {}, {std::move(f)}, {std::move(in)}); }
Expr toPrivate(Expr f, Expr in) { return prim(Op::ToPrivate, {}, {std::move(f)}, {std::move(in)}); }
Expr slideSeq(Size size, Size step, Expr f, Expr in) {
  return prim(Op::SlideSeq, {std::move(size), std::move(step)}, {std::move(f)}, {std::move(in)});
}

Expr id(ScalarKind kind) {
  // Its name is reserved (core/cfun/reserved.h), so it never meets a user's.
  return userFun(cfun::identityFunctionName(kind), {{std::string(cfun::kIdentityParameter), kind}}, kind,
                 std::string(cfun::kIdentityBody));
}

} // namespace liftcc::api
