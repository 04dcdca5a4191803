// The index rules of the view primitives (core/ir/view_index.h), written once
// and used by the code generator (symbolic indices) and the point interpreter
// (concrete ones): every view has one, the two algebras agree, and through
// random chains of views the point interpreter equals the whole
// interpretation and the generated kernel (on the OpenCL test device).

#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/point_interpreter.h"
#include "core/interp/value_compare.h"
#include "core/interp/value_io.h"
#include "core/ir/printer.h"
#include "core/ir/transform.h"
#include "core/ir/view_index.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "tests/opencl_test_support.h"
#include "tests/point_check_support.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <functional>
#include <random>

namespace liftcc {
namespace {

using namespace api;
using Sizes = std::map<std::string, int64_t>;

Expr reverseOf(Expr in) { return primitive(Op::Reverse, {{"in", std::move(in)}}); }

TEST_CASE("view index: every view primitive has an index rule, and only views have one") {
  // Also a static_assert in core/ir/view_index.h; this names the primitive.
  for (Op op : allOps()) {
    CAPTURE(opInfo(op).name);
    views::RuleKind kind = views::indexRule(op).kind;
    bool view = opInfo(op).has(opflag::View);
    CHECK(view == (kind == views::RuleKind::Reindex || kind == views::RuleKind::Scalar ||
                   (kind == views::RuleKind::Function && op == Op::Generate) ||
                   (kind == views::RuleKind::DataIndex && op == Op::AtDynamic)));
    if (isMapLike(op)) CHECK(kind == views::RuleKind::Function);
  }
}

/// The concrete algebra at fixed sizes.
struct Concrete : views::ConcreteIndexOps {
  Sizes sizes;
  int64_t size(const arith::Expr &s) const { return arith::evaluate(s, sizes); }
};

TEST_CASE("view index: the symbolic rule evaluated at an index is the concrete rule at that index") {
  Size n = size("N");
  const Sizes sizes{{"N", 3}};
  Expr a = input("A", array(f32(), 4 * n));
  Expr grid = input("G", array(array(f32(), 3), n));
  std::vector<Expr> viewExprs{split(4, a),
                              join(grid),
                              slide(3, 2, a),
                              pad(2, 3, clamp, a),
                              pad(2, 3, mirror, a),
                              pad(2, 3, wrap, a),
                              padConstant(3, 1, lit(0.5f), a),
                              transpose(grid),
                              reverseOf(a),
                              take(3, a),
                              at(2, a),
                              get(1, tuple({a, grid})),
                              zip({a, reverseOf(a)}),
                              tuple({a, grid}),
                              asVector(4, a),
                              asScalar(asVector(4, a))};
  std::mt19937_64 rng(7);
  for (const Expr &untyped : viewExprs) {
    Expr view = typeCheck(program({a, grid}, untyped)).body();
    CAPTURE(view.info().name);
    const views::IndexRule rule = views::indexRule(view.op());
    REQUIRE(rule.kind == views::RuleKind::Reindex);
    // The lengths of the steps the rule reads, at N = 3.
    std::vector<int64_t> lengths;
    Type t = view.typeOrThrow();
    for (size_t s = 0; s < rule.steps; ++s) {
      if (rule.tupleStep[s]) {
        lengths.push_back(int64_t(t.tupleElements().size()));
        t = t.tupleElements().front();
      } else {
        lengths.push_back(t.isVector() ? t.vectorWidth() : arith::evaluate(t.arrayLength(), sizes));
        t = t.isVector() ? Type::scalar(t.scalarKind()) : t.arrayElement();
      }
    }
    for (int trial = 0; trial < 40; ++trial) {
      views::Path<int64_t> concrete;
      views::Path<arith::Expr> symbolic;
      std::map<std::string, int64_t> values = sizes;
      for (size_t s = 0; s < rule.steps; ++s) {
        int64_t i = std::uniform_int_distribution<int64_t>(0, lengths[s] - 1)(rng);
        if (rule.tupleStep[s]) {
          concrete.push_back(views::Step<int64_t>::tupleComponent(int(i)));
          symbolic.push_back(views::Step<arith::Expr>::tupleComponent(int(i)));
          continue;
        }
        // A symbolic index variable with the range the code generator gives it.
        std::string name = "i" + std::to_string(s);
        arith::Expr extent = s == 0 ? view.typeOrThrow().arrayLength() : arith::Expr(lengths[s]);
        concrete.push_back(views::Step<int64_t>::arrayIndex(i));
        symbolic.push_back(views::Step<arith::Expr>::arrayIndex(arith::Expr::index(name, extent)));
        values[name] = i;
      }
      views::Reindexed<int64_t> c = views::reindex(view, concrete, Concrete{{}, sizes});
      views::Reindexed<arith::Expr> s = views::reindex(view, symbolic, views::SymbolicIndices{});
      REQUIRE(c.operand == s.operand);
      REQUIRE(c.path.size() == s.path.size());
      for (size_t k = 0; k < c.path.size(); ++k) {
        CHECK(c.path[k].isTuple == s.path[k].isTuple);
        if (c.path[k].isTuple)
          CHECK(c.path[k].component == s.path[k].component);
        else
          CHECK(c.path[k].index == arith::evaluate(s.path[k].index, values));
      }
      REQUIRE(c.boundary.has_value() == s.boundary.has_value());
      if (c.boundary) CHECK(c.boundary->index == arith::evaluate(s.boundary->index, values));
    }
  }
}

TEST_CASE("view index: every layout primitive's write rule is the inverse of its read rule") {
  // The code generator writes a computed array through join, split,
  // transpose, take and asScalar by views::writeThrough: the element at p of
  // the operand must land where the read rule finds p again, for every p, in
  // both algebras; take writes only below its count.
  for (Op op : allOps()) {
    bool layout = opInfo(op).has(opflag::LayoutOnly);
    CHECK_MESSAGE((!layout || views::writeRuleSteps(op) > 0), opInfo(op).name);
  }
  Size n = size("N");
  const Sizes sizes{{"N", 3}};
  Expr a = input("A", array(f32(), 4 * n));
  Expr grid = input("G", array(array(f32(), 5), n));
  Expr vectors = input("V", array(Type::vector(ScalarKind::Float, 4), n));
  std::vector<Expr> viewExprs{split(4, a), join(grid), transpose(grid), take(5, a), asScalar(vectors)};
  size_t checked = 0;
  for (const Expr &untyped : viewExprs) {
    Expr view = typeCheck(program({a, grid, vectors}, untyped), sizes).body();
    CAPTURE(view.info().name);
    const size_t steps = views::writeRuleSteps(view.op());
    REQUIRE(steps > 0);
    // Every element path of the operand: its array extents at N = 3, a
    // vector's lanes written one at a time.
    std::vector<int64_t> extents;
    Type t = inputOf(view).typeOrThrow();
    for (size_t k = 0; k < steps; ++k, t = t.arrayElement()) extents.push_back(arith::evaluate(t.arrayLength(), sizes));
    int lanes = t.isVector() ? int(t.vectorWidth()) : 1;
    std::vector<int64_t> p(steps, 0);
    for (bool more = true; more;) {
      for (int lane = 0; lane < lanes; ++lane) {
        views::Path<int64_t> concrete;
        views::Path<arith::Expr> symbolic;
        for (int64_t i : p) {
          concrete.push_back(views::Step<int64_t>::arrayIndex(i));
          symbolic.push_back(views::Step<arith::Expr>::arrayIndex(arith::Expr(i)));
        }
        std::optional<int> written = t.isVector() ? std::optional<int>(lane) : std::nullopt;
        views::Written<int64_t> w = views::writeThrough(view, concrete, Concrete{{}, sizes}, written);
        views::Written<arith::Expr> ws = views::writeThrough(view, symbolic, views::SymbolicIndices{}, written);
        REQUIRE(w.path.size() == ws.path.size());
        for (size_t k = 0; k < w.path.size(); ++k) CHECK(w.path[k].index == arith::evaluate(ws.path[k].index, {}));
        if (w.bound && w.bound->first >= w.bound->second) continue; // beyond take's count: not written
        views::Reindexed<int64_t> back = views::reindex(view, w.path, Concrete{{}, sizes});
        CHECK(back.operand == 0);
        // Read back: the operand's path, and for a vector the lane written.
        std::vector<int64_t> expected = p;
        if (t.isVector()) expected.push_back(lane);
        REQUIRE(back.path.size() == expected.size());
        for (size_t k = 0; k < expected.size(); ++k) CHECK(back.path[k].index == expected[k]);
        ++checked;
      }
      // The next path, innermost step fastest.
      more = false;
      for (size_t k = steps; k-- > 0;) {
        if (++p[k] < extents[k]) {
          more = true;
          break;
        }
        p[k] = 0;
      }
    }
  }
  MESSAGE(checked, " elements written and read back");
  CHECK(checked == 12 + 15 + 15 + 5 + 12);
  // A path that stops short of the steps the rule reads is an internal error.
  Expr joined = typeCheck(program({grid}, join(grid)), sizes).body();
  CHECK_THROWS_AS(
      views::writeThrough(joined, views::Path<int64_t>{views::Step<int64_t>::arrayIndex(0)}, Concrete{{}, sizes}),
      InternalError);
}

/// A random chain of views over a 1D or 2D input of constant size, each step
/// one that types at the current shape.
struct Chain {
  Expr body;
  bool readable = true; ///< the code generator reads every view in it (no asVector/asScalar)
};

Chain randomChain(const Expr &input, std::mt19937_64 &rng, int length) {
  Chain chain{input};
  const std::vector<std::function<std::optional<Expr>(const Expr &, const Type &)>> steps = {
      [](const Expr &x, const Type &) { return reverseOf(x); },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        int64_t n = t.arrayLength().constant();
        if (n < 2) return std::nullopt;
        return take(n - 1, x);
      },
      [](const Expr &x, const Type &) { return pad(1, 2, clamp, x); },
      [](const Expr &x, const Type &) { return pad(2, 1, mirror, x); },
      [](const Expr &x, const Type &) { return pad(3, 2, wrap, x); },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        if (!t.arrayElement().isScalar()) return std::nullopt;
        return padConstant(2, 1, lit(0.25f), x);
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        if (t.arrayLength().constant() % 2 != 0 || !t.arrayElement().isScalar()) return std::nullopt;
        return split(2, x);
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        if (!t.arrayElement().isArray()) return std::nullopt;
        return join(x);
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        if (!t.arrayElement().isArray()) return std::nullopt;
        return transpose(x);
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        if (t.arrayLength().constant() < 3 || !t.arrayElement().isScalar()) return std::nullopt;
        return slide(3, 2, x);
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        if (!t.arrayElement().isArray()) return std::nullopt;
        return map(fn([](Expr row) { return pad(1, 1, wrap, reverseOf(row)); }), x); // views inside a map
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        if (!t.arrayElement().isArray()) return std::nullopt;
        return at(1, x);
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        if (!t.arrayElement().isScalar()) return std::nullopt;
        return map(fn([](Expr p) { return get(1, p); }), zip({reverseOf(x), x}));
      },
      // atDynamic at generate's own index (an index expression), and at
      // computed indices beyond both ends (clamped), with and without a
      // division in the index's user function (which keeps it unnamed).
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        return generate(t.arrayLength(), fn([&](Expr i) { return atDynamic(i, x); }, "i"));
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        Expr scramble = userFun("scramble", {{"i", ScalarKind::Int}}, ScalarKind::Int, "return (i * 7 + 3) % 11 - 2;");
        return generate(t.arrayLength(), fn([&](Expr i) { return atDynamic(apply(scramble, {i}), x); }, "i"));
      },
      [](const Expr &x, const Type &t) -> std::optional<Expr> {
        Expr stretch = userFun("stretch", {{"i", ScalarKind::Int}}, ScalarKind::Int, "return 3 * i - 4;");
        return generate(t.arrayLength() + 2, fn([&](Expr i) { return atDynamic(apply(stretch, {i}), x); }, "i"));
      },
  };
  for (int k = 0; k < length; ++k) {
    Type t = typeCheck(program({input}, chain.body)).body().typeOrThrow();
    for (int attempt = 0; attempt < 20; ++attempt) {
      auto next = steps[std::uniform_int_distribution<size_t>(0, steps.size() - 1)(rng)](chain.body, t);
      if (!next) continue;
      Type nextType = typeCheck(program({input}, *next)).body().typeOrThrow();
      // Small results: at most 2 dimensions of at most 40 elements.
      if (nextType.arrayElement().isArray() && nextType.arrayElement().arrayElement().isArray()) continue;
      if (nextType.arrayLength().constant() > 40) continue;
      chain.body = *next;
      break;
    }
  }
  return chain;
}

Expr identity() { return userFun("id", {{"x", ScalarKind::Float}}, ScalarKind::Float, "return x;"); }

TEST_CASE("view index: through random chains of views, point interpreter, interpreter and kernel agree") {
  std::mt19937_64 rng(2024);
  std::optional<ocl::Context> context = ocl::test::testContext();
  int kernels = 0, dynamicChains = 0, dynamicKernels = 0;
  for (int trial = 0; trial < 24; ++trial) {
    bool twoD = trial % 2 == 1;
    Expr a = input("A", twoD ? array(array(f32(), 4), 6) : array(f32(), 12));
    Chain chain = randomChain(a, rng, 4);
    Type chainType = typeCheck(program({a}, chain.body)).body().typeOrThrow();
    if (trial % 4 == 0 && chainType.arrayElement().isScalar() && chainType.arrayLength().constant() % 4 == 0)
      chain = {asScalar(asVector(4, chain.body)), false}; // lanes: the interpreter's rules only
    Program p = program({a}, chain.body);
    CAPTURE(printExpr(p.body()));
    const bool dynamic = containsNode(p.body(), [](const Expr &e) { return e.isPrim(Op::AtDynamic); });
    dynamicChains += dynamic ? 1 : 0;
    Program typed = typeCheck(p);
    const Sizes sizes;
    std::vector<Value> inputs = randomInputs(typed, sizes, uint64_t(trial));
    Value whole = interpret(typed, sizes, inputs);
    std::vector<std::byte> bytes = toBytes(inputs.front());
    const Type &type = typed.body().typeOrThrow();
    std::vector<ResultPoint> points = samplePoints(type, sizes, 2000, 1);
    std::vector<Value> values = interpretPoints(typed, sizes, {std::span<const std::byte>(bytes)}, points);
    if (auto i = test::firstPointDifferingFromWhole(type, sizes, points, values, whole))
      FAIL_CHECK("point " << *i << " differs from the whole interpretation");
    // The kernel reads the same chain through the same rules.
    if (!context || !chain.readable || kernels >= 6) continue;
    Expr kernelBody = type.arrayElement().isArray()
                          ? mapGlb(1, fn([](Expr row) { return mapGlb(0, identity(), row); }), chain.body)
                          : mapGlb(0, identity(), chain.body);
    Program kernelProgram = typeCheck(program({a}, kernelBody));
    codegen::Kernel kernel = codegen::generateKernel(kernelProgram, codegen::Target::OpenCL);
    tuner::OpenCLKernelRunner runner(*context, kernel);
    tuner::KernelRun run = runner.run(sizes, inputs, kernelProgram.body().typeOrThrow());
    auto mismatch = compareValues(whole, run.output);
    CAPTURE(kernel.source);
    CHECK_MESSAGE(!mismatch, *mismatch);
    ++kernels;
    dynamicKernels += dynamic ? 1 : 0;
  }
  MESSAGE(kernels, " kernels checked on the device (", dynamicKernels, " with atDynamic; ", dynamicChains,
          " of the chains)");
  CHECK(dynamicChains >= 4);
  if (context) CHECK(dynamicKernels >= 1);
}

} // namespace
} // namespace liftcc
