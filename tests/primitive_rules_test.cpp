// One place per primitive: the named operand accessors, the flags the passes
// dispatch on, the rules registered through the table, and the error
// hierarchy (InternalError for liftcc's own invariants, recorded as `bug`).

#include "core/error.h"
#include "core/ir/operands.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/explorer.h"
#include "primitives/api.h"
#include "primitives/rules.h"
#include "rewrite/apply.h"
#include "tests/explore_test_support.h"
#include "tuner/backend_error.h"
#include "tuner/cuda/driver_api.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/device.h"
#include "tuner/opencl/opencl_device.h"
#include "tuner/opencl/opencl_error.h"
#include "tuner/opencl/opencl_runtime.h"

#include <doctest/doctest.h>

#include <type_traits>

namespace liftcc {

using namespace api;

TEST_CASE("operands: named accessors read the operands the table names") {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Expr add = userFun("add", {{"x", ScalarKind::Float}, {"y", ScalarKind::Float}}, ScalarKind::Float, "return x + y;");
  Expr r = reduce(add, lit(1.0f), a);
  CHECK(reduceInit(r) == lit(1.0f));
  CHECK(inputOf(r).sameNode(a));
  CHECK(funOf(r) == add);
  Expr s = slide(3, 2, a);
  CHECK(slideSize(s) == arith::Expr(3));
  CHECK(slideStep(s) == arith::Expr(2));
  Expr p = padConstant(1, 2, lit(0.0f), a);
  CHECK(padLeft(p) == arith::Expr(1));
  CHECK(padRight(p) == arith::Expr(2));
  CHECK(padValue(p) == lit(0.0f));
  CHECK(inputOf(p).sameNode(a));
  CHECK(splitSize(split(4, a)) == arith::Expr(4));
  CHECK(atIndex(at(5, a)) == arith::Expr(5));
  CHECK(getIndex(get(1, zip(a, a))) == 1);
  CHECK(inputsOf(zip(a, a)).size() == 2);
  CHECK(mapDim(mapLcl(2, id(ScalarKind::Float), a)) == 2);
  CHECK(iterateCount(iterate(
            7, [](Expr x) { return x; }, a)) == arith::Expr(7));
  CHECK(generateSize(generate(n, [](Expr i) { return i; })) == n);
  CHECK(sizeValueOf(sizeValue(n)) == n);
  CHECK(argPath(p, 0) == "/value");
  CHECK(argPath(p, 1) == "/in");
  CHECK(argPath(zip(a, a), 1) == "/in/1");
}

TEST_CASE("api: primitive() builds any primitive from its named operands, as the named helpers do") {
  Size n = size("N");
  Expr a = input("A", array(f32(), n));
  Expr idf = id(ScalarKind::Float);
  CHECK(primitive(Op::Slide, {{"size", 3}, {"step", 1}, {"in", a}}) == slide(3, 1, a));
  CHECK(primitive(Op::Split, {{"in", a}, {"n", n}}) == split(n, a)); // any order
  CHECK(primitive(Op::Pad, {{"left", 1}, {"right", 2}, {"mode", wrap}, {"in", a}}) == pad(1, 2, wrap, a));
  CHECK(primitive(Op::PadConstant, {{"left", 1}, {"right", 1}, {"value", lit(0.5f)}, {"in", a}}) ==
        padConstant(1, 1, lit(0.5f), a));
  CHECK(primitive(Op::ReduceSeq, {{"f", idf}, {"init", lit(0.0f)}, {"in", a}}) == reduceSeq(idf, lit(0.0f), a));
  CHECK(primitive(Op::MapLcl, {{"f", idf}, {"in", a}}) == mapLcl(0, idf, a)); // dim defaults to 0
  CHECK(primitive(Op::MapGlb, {{"dim", 1}, {"f", idf}, {"in", a}}) == mapGlb(1, idf, a));
  Expr zipped = primitive(Op::Zip, {{"in", std::vector<Expr>{a, a}}});
  CHECK(zipped == zip(a, a));
  CHECK(primitive(Op::Get, {{"index", 1}, {"in", zipped}}) == get(1, zipped));
  CHECK(primitive(Op::Generate, {{"size", n}, {"f", idf}}) == generate(n, idf));
  CHECK(primitive(Op::SizeValue, {{"of", n}}) == sizeValue(n));
}

TEST_CASE("api: primitive() names the primitive and the field of every mistake") {
  Expr a = input("A", array(f32(), size("N")));
  Expr idf = id(ScalarKind::Float);
  CHECK_THROWS_WITH_AS(primitive(Op::Slide, {{"sise", 3}, {"step", 1}, {"in", a}}),
                       "primitive slide: no field \"sise\" (its fields: size, step, in)", Error);
  CHECK_THROWS_WITH_AS(primitive(Op::Slide, {{"size", 3}, {"in", a}}),
                       "primitive slide: missing field \"step\" (a size (an integer or a size expression))", Error);
  CHECK_THROWS_WITH_AS(primitive(Op::Join, {{"in", a}, {"in", a}}), "primitive join: field \"in\" given twice", Error);
  CHECK_THROWS_WITH_AS(
      primitive(Op::Map, {{"f", a}, {"in", a}}),
      "primitive map: field \"f\" expects a function (a lambda or a user function), found an expression", Error);
  CHECK_THROWS_WITH_AS(primitive(Op::Map, {{"f", idf}, {"in", idf}}),
                       "primitive map: field \"in\" expects an expression, found a function", Error);
  CHECK_THROWS_WITH_AS(primitive(Op::Pad, {{"left", 1}, {"right", 1}, {"mode", 2}, {"in", a}}),
                       "primitive pad: field \"mode\" expects a pad mode, found an integer", Error);
  CHECK_THROWS_WITH_AS(primitive(Op::MapWrg, {{"dim", 3}, {"f", idf}, {"in", a}}),
                       "primitive mapWrg: field \"dim\" expects an integer dimension 0, 1 or 2, found an integer",
                       Error);
  CHECK_THROWS_WITH_AS(primitive(Op::Zip, {{"in", a}}),
                       "primitive zip: field \"in\" expects a non-empty list of expressions, found an expression",
                       Error);
  CHECK_THROWS_WITH_AS(
      primitive(Op::Tuple, {{"in", std::vector<Expr>{}}}),
      "primitive tuple: field \"in\" expects a non-empty list of expressions, found a list of expressions", Error);
  CHECK_THROWS_WITH_AS(primitive(Op::Transpose, {{"size", a}}),
                       "primitive transpose: no field \"size\" (its fields: in)", Error);
}

TEST_CASE("operands: an accessor on a primitive without that operand is an InternalError") {
  Expr a = input("A", array(f32(), size("N")));
  CHECK_THROWS_WITH_AS(slideSize(split(4, a)), "internal error: slideSize on primitive split", InternalError);
  CHECK_THROWS_AS(reduceInit(map(id(ScalarKind::Float), a)), InternalError);
  CHECK_THROWS_AS(inputOf(zip(a, a)), InternalError);
  CHECK_THROWS_AS(funOf(a), InternalError);
  CHECK_THROWS_AS(mapDim(mapSeq(id(ScalarKind::Float), a)), InternalError);
  CHECK_THROWS_AS(Expr::param("x").typeOrThrow(), InternalError); // not type-checked
}

TEST_CASE("op table: the flags the passes dispatch on") {
  for (Op op : allOps()) {
    const OpInfo &info = opInfo(op);
    CAPTURE(info.name);
    // A primitive is read as a view, or computes, or is map (which does either).
    CHECK(int(info.has(opflag::View)) + int(info.has(opflag::Compute)) + int(op == Op::Map) == 1);
    if (info.has(opflag::Parallel)) CHECK(info.attr == AttrKind::Dim);
    if (info.has(opflag::LowLevel)) CHECK(info.has(opflag::Compute));
    if (info.has(opflag::LayoutOnly)) CHECK(info.argFields == std::vector<std::string_view>{"in"});
    CHECK(bool(rules::primitiveRules(op).type));
    CHECK(bool(rules::primitiveRules(op).eval));
  }
  static_assert(isMapLike(Op::MapSeqUnroll) && !isMapLike(Op::Reduce) && isReduceLike(Op::ReduceSeq));
  static_assert(isAddressSpaceOp(Op::ToLocal) && !isAddressSpaceOp(Op::Map));
}

TEST_CASE("errors: every error about the input shares one base with its JSON pointer") {
  Expr a = input("A", array(f32(), size("N")));
  try {
    typeCheck(program({a}, join(a)));
    FAIL("join of a flat array type-checked");
  } catch (const Error &e) {
    REQUIRE(e.pointer());
    CHECK(*e.pointer() == "/body");
    CHECK(dynamic_cast<const TypeError *>(&e) != nullptr);
  }
  try {
    readProgram(R"({"liftcc": 1, "sizes": [], "inputs": [], "body": {"op": "nope"}})");
    FAIL("an unknown primitive was read");
  } catch (const Error &e) {
    REQUIRE(e.pointer());
    CHECK(e.pointer()->rfind("/body", 0) == 0);
    CHECK(dynamic_cast<const JsonError *>(&e) != nullptr);
  }
  CHECK_THROWS_AS(throw rewrite::RewriteError("x"), Error);
  CHECK(std::string(InternalError("/body/in", "unbound").what()) == "/body/in: internal error: unbound");
}

// The tuner's errors about the environment share the base too; their catch
// sites (explore/explorer.cpp) test the specific types first.
static_assert(std::is_base_of_v<Error, tuner::KernelBuildError>);
static_assert(std::is_base_of_v<Error, tuner::KernelLaunchError>);
static_assert(std::is_base_of_v<tuner::KernelLaunchError, tuner::KernelTimeoutError>);
static_assert(std::is_base_of_v<Error, tuner::BackendError>);
static_assert(std::is_base_of_v<tuner::BackendError, ocl::OpenCLError>);
static_assert(std::is_base_of_v<ocl::OpenCLError, ocl::BuildError>);
static_assert(std::is_base_of_v<tuner::BackendError, ocl::LaunchTimeout>);
static_assert(std::is_base_of_v<tuner::BackendError, ocl::DeviceSelectionError>);
static_assert(std::is_base_of_v<tuner::BackendError, cuda::CudaError>);
static_assert(std::is_base_of_v<tuner::BackendError, cuda::CudaUnavailable>);
static_assert(std::is_base_of_v<tuner::BackendError, cuda::NvrtcError>);
static_assert(!std::is_base_of_v<InternalError, tuner::BackendError>);

namespace {
/// A device whose compiler trips over an internal invariant, or (with a
/// backend message) fails in its backend outside the compile/launch wrappers.
class BuggyDevice final : public tuner::Device {
public:
  explicit BuggyDevice(std::string backendFailure = {}) : backendFailure_(std::move(backendFailure)) {}
  codegen::Target target() const override { return codegen::Target::OpenCL; }
  std::string name() const override { return "buggy device"; }
  std::string resultsName() const override { return name(); }
  tuner::DeviceLimits limits() const override { return {}; }
  std::unique_ptr<tuner::CompiledKernel> compile(const codegen::Kernel &) override {
    if (!backendFailure_.empty()) throw tuner::BackendError(backendFailure_);
    throw InternalError("a broken invariant");
  }
  tuner::CopyBandwidth measureCopyBandwidth(const tuner::CopyProbe &) override {
    throw tuner::KernelLaunchError("not measured in this test");
  }

private:
  std::string backendFailure_;
};
} // namespace

TEST_CASE("explore: an internal error is recorded as a bug, not as the variant's constraints") {
  test::TempDir dir;
  BuggyDevice device;
  explore::ExploreOptions options;
  options.programName = "jacobi2d_5pt";
  options.storeDir = dir.path().string();
  options.space.tileSizes = {4};
  options.space.groupExtents = {8};
  options.budget.maxEvaluations = 2;
  explore::ExploreResult result =
      explore::explore(examples::findExample("jacobi2d_5pt").build(), {{"N", 16}, {"M", 16}}, device, options);
  REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 2); // the baselines come uncharged
  for (const explore::Evaluation &e : result.evaluations) {
    CHECK(e.record.outcome == search::Outcome::Bug);
    CHECK(e.record.error == "internal error: a broken invariant");
  }
  CHECK(search::outcomeName(search::Outcome::Bug) == "bug");

  // A backend error that no wrapper turned into a build or launch error is
  // liftcc's failure too (not the variant's constraints, although it is an Error).
  test::TempDir other;
  BuggyDevice failing("CL_OUT_OF_HOST_MEMORY from clCreateKernel");
  options.storeDir = other.path().string();
  result = explore::explore(examples::findExample("jacobi2d_5pt").build(), {{"N", 16}, {"M", 16}}, failing, options);
  REQUIRE(result.evaluations.size() == result.baselinesEvaluated + 2); // the baselines come uncharged
  for (const explore::Evaluation &e : result.evaluations) {
    CHECK(e.record.outcome == search::Outcome::Bug);
    CHECK(e.record.error == "unexpected exception: CL_OUT_OF_HOST_MEMORY from clCreateKernel");
  }
  CHECK(search::parseOutcome("bug") == search::Outcome::Bug);
}

} // namespace liftcc
