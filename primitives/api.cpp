#include "primitives/api.h"

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
  case TypeKind::Scalar: return;
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
Expr reduce(Expr f, Expr init, Expr in) { return prim(Op::Reduce, {}, {std::move(f)}, {std::move(init), std::move(in)}); }
Expr zip(std::vector<Expr> ins) { return prim(Op::Zip, {}, {}, std::move(ins)); }
Expr split(Size n, Expr in) { return prim(Op::Split, {std::move(n)}, {}, {std::move(in)}); }
Expr join(Expr in) { return prim(Op::Join, {}, {}, {std::move(in)}); }
Expr slide(Size size, Size step, Expr in) { return prim(Op::Slide, {std::move(size), std::move(step)}, {}, {std::move(in)}); }
Expr pad(Size left, Size right, PadMode mode, Expr in) {
  return prim(Op::Pad, {std::move(left), std::move(right)}, {}, {std::move(in)}, 0, mode);
}
Expr padConstant(Size left, Size right, Expr value, Expr in) {
  return prim(Op::PadConstant, {std::move(left), std::move(right)}, {}, {std::move(value), std::move(in)});
}
Expr transpose(Expr in) { return prim(Op::Transpose, {}, {}, {std::move(in)}); }
Expr iterate(Size n, Expr f, Expr in) { return prim(Op::Iterate, {std::move(n)}, {std::move(f)}, {std::move(in)}); }
Expr at(Size index, Expr in) { return prim(Op::At, {std::move(index)}, {}, {std::move(in)}); }
Expr get(int index, Expr in) { return prim(Op::Get, {}, {}, {std::move(in)}, index); }
Expr tuple(std::vector<Expr> elements) { return prim(Op::Tuple, {}, {}, std::move(elements)); }
Expr generate(Size n, Expr f) { return prim(Op::Generate, {std::move(n)}, {std::move(f)}, {}); }
Expr sizeValue(Size s) { return prim(Op::SizeValue, {std::move(s)}, {}, {}); }

Expr mapN(int dims, Expr f, Expr in) {
  if (dims < 1) throw std::invalid_argument("mapN: dims must be >= 1");
  if (dims == 1) return map(std::move(f), std::move(in));
  return map(fn([&](Expr row) { return mapN(dims - 1, f, row); }), std::move(in));
}

Expr padN(int dims, Size left, Size right, PadMode mode, Expr in) {
  if (dims < 1) throw std::invalid_argument("padN: dims must be >= 1");
  Expr outer = pad(left, right, mode, std::move(in));
  if (dims == 1) return outer;
  return map(fn([&](Expr row) { return padN(dims - 1, left, right, mode, row); }), outer);
}

Expr padConstantN(int dims, Size left, Size right, Expr value, Expr in) {
  if (dims < 1) throw std::invalid_argument("padConstantN: dims must be >= 1");
  Expr outer = padConstant(left, right, value, std::move(in));
  if (dims == 1) return outer;
  return map(fn([&](Expr row) { return padConstantN(dims - 1, left, right, value, row); }), outer);
}

Expr slideN(int dims, Size size, Size step, Expr in) {
  if (dims < 1) throw std::invalid_argument("slideN: dims must be >= 1");
  if (dims == 1) return slide(std::move(size), std::move(step), std::move(in));
  // Slide the inner dimensions of every row, then the rows themselves:
  // [count][size][p1..p(d-1)][w1..w(d-1)]. Moving the outer window extent
  // `size` past the d-1 inner window positions gives
  // [count][p1..p(d-1)][size][w1..w(d-1)].
  Expr slid = slide(size, step, map(fn([&](Expr row) { return slideN(dims - 1, size, step, row); }), std::move(in)));
  Expr reorder = fn([&](Expr window) {
    for (int k = 0; k < dims - 1; ++k)
      window = k == 0 ? transpose(window) : mapN(k, fn([](Expr w) { return transpose(w); }), window);
    return window;
  });
  return map(reorder, slid);
}

Expr zipN(int dims, std::vector<Expr> ins) {
  if (dims < 1) throw std::invalid_argument("zipN: dims must be >= 1");
  if (dims == 1) return zip(std::move(ins));
  size_t n = ins.size();
  return map(fn([&](Expr t) {
               std::vector<Expr> rows;
               for (size_t i = 0; i < n; ++i) rows.push_back(get(static_cast<int>(i), t));
               return zipN(dims - 1, rows);
             }),
             zip(std::move(ins)));
}

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

Expr id(ScalarKind kind) {
  std::string name = "id_" + std::string(scalarKindName(kind));
  return userFun(name, {{"x", kind}}, kind, "return x;");
}

} // namespace liftcc::api
