// Boundary specialisation (CodegenOptions::specialiseBoundaries): the interior
// code has no guard and no pad arithmetic, the margins are the smallest that
// achieve it, and every specialised kernel runs on the device and agrees with
// the interpreter, with work-group sizes that do and do not divide the extent.

#include "codegen/boundary_facts.h"
#include "codegen/generate.h"
#include "core/interp/interpreter.h"
#include "core/interp/value_compare.h"
#include "core/typecheck/typecheck.h"
#include "examples/example.h"
#include "explore/space.h"
#include "primitives/api.h"
#include "rewrite/recipes.h"
#include "tests/device_check_support.h"
#include "tests/nvrtc_test_support.h"
#include "tests/opencl_test_support.h"
#include "tuner/cuda/nvrtc_compiler.h"
#include "tuner/launch_plan.h"
#include "tuner/opencl/opencl_backend.h"

#include <doctest/doctest.h>

#include <cctype>
#include <set>

#include "core/io/json.h"

namespace liftcc {
namespace {

using namespace api;
using Local = std::optional<std::array<int64_t, 3>>;

Expr addF() {
  return userFun("add", {{"a", ScalarKind::Float}, {"b", ScalarKind::Float}}, ScalarKind::Float, "return a + b;");
}

/// Sum of a neighbourhood of `dims` dimensions.
Expr sumOf(int dims) {
  return fn([dims](Expr nbh) {
    for (int d = 1; d < dims; ++d) nbh = join(nbh);
    return reduce(addF(), lit(0.0f), nbh);
  });
}

Expr gridOf(const std::string &name, int dims) {
  static const char *names[] = {"N", "M", "O"};
  Type t = f32();
  for (int d = 0; d < dims; ++d) t = array(t, size(names[d]));
  return input(name, t);
}

/// mapN(dims, sum, slideN(dims, 3, 1, padN(dims, left, right, mode, A))): a
/// window of 3 per dimension, neighbours from -left to +right.
Program padded(int dims, int64_t left, int64_t right, PadMode mode) {
  Expr A = gridOf("A", dims);
  return program({A}, mapN(dims, sumOf(dims), slideN(dims, 3, 1, padN(dims, left, right, mode, A))));
}

/// 1D: neighbours i-1 .. i+1 of A, constant 0 outside.
Program constantPadded() {
  Expr A = gridOf("A", 1);
  return program({A}, map(sumOf(1), slide(3, 1, padConstant(1, 1, lit(0.0f), A))));
}

/// 1D, two inputs: the clamped 3-point sum of A plus B (zip of a stencil and a grid).
Program zipped() {
  Expr A = gridOf("A", 1), B = gridOf("B", 1);
  Expr f = fn([](Expr t) { return apply(addF(), {at(0, reduce(addF(), lit(0.0f), get(0, t))), get(1, t)}); });
  return program({A, B}, map(f, zip(slide(3, 1, pad(1, 1, PadMode::Clamp, A)), B)));
}

/// The interior code of a specialised kernel: between the top-level
/// `if (condition) {` of the kernel body and its `} else {`.
std::string interiorCode(const codegen::Kernel &kernel) {
  size_t signature = kernel.source.find(kernel.name + "(");
  size_t open = kernel.source.find("\n  if (", signature);
  size_t split = kernel.source.find("\n  } else {\n", open);
  REQUIRE(open != std::string::npos);
  REQUIRE(split != std::string::npos);
  size_t body = kernel.source.find("{\n", open) + 2;
  return kernel.source.substr(body, split - body);
}

/// The border code of a specialised kernel: after the top-level `} else {`.
std::string borderCode(const codegen::Kernel &kernel) {
  size_t split = kernel.source.find("\n  } else {\n", kernel.source.find(kernel.name + "("));
  REQUIRE(split != std::string::npos);
  return kernel.source.substr(split);
}

/// Whether `code` calls `name` itself (not a function whose name ends in it).
bool calls(const std::string &code, const std::string &name) {
  for (size_t at = code.find(name + "("); at != std::string::npos; at = code.find(name + "(", at + 1)) {
    char before = at == 0 ? ' ' : code[at - 1];
    if (!(std::isalnum(static_cast<unsigned char>(before)) || before == '_')) return true;
  }
  return false;
}

/// The user functions of a specialised OpenCL kernel (`static inline`) are
/// called by the interior only; the border code calls their never-inlined
/// copies, so that the compiler cannot merge the two codes into one that
/// selects its addresses (docs/codegen.md, Boundary specialisation).
void checkUserFunCopies(const codegen::Kernel &kernel) {
  std::string interior = interiorCode(kernel), border = borderCode(kernel);
  const std::string inlined = "static inline ";
  int functions = 0;
  for (size_t at = kernel.source.find(inlined); at != std::string::npos; at = kernel.source.find(inlined, at + 1)) {
    size_t nameStart = kernel.source.find(' ', at + inlined.size()) + 1;
    std::string name = kernel.source.substr(nameStart, kernel.source.find('(', nameStart) - nameStart);
    CAPTURE(name);
    ++functions;
    CHECK(!calls(border, name));
    CHECK(!calls(interior, "liftcc_border_" + name));
    // Defined (first mention) never inlined.
    size_t copy = kernel.source.find(" liftcc_border_" + name + "(");
    REQUIRE(copy != std::string::npos);
    size_t line = kernel.source.rfind('\n', copy) + 1;
    CHECK(kernel.source.compare(line, 26, "__attribute__((noinline)) ") == 0);
  }
  CHECK(functions > 0);
  CHECK(border.find("liftcc_border_") != std::string::npos);
}

/// No guard, no clamp (min/max), mirror or constant-pad select (?:), wrap (%).
void checkClean(const std::string &interior) {
  CAPTURE(interior);
  CHECK(interior.find("if (") == std::string::npos);
  CHECK(interior.find("min(") == std::string::npos);
  CHECK(interior.find("max(") == std::string::npos);
  CHECK(interior.find(" ? ") == std::string::npos);
  CHECK(interior.find(" % ") == std::string::npos);
}

struct Check {
  Program program;
  std::map<std::string, int64_t> sizes;
  Local local; ///< generated for (and launched with) this work-group size
  bool expectInterior;
  std::vector<std::pair<int64_t, int64_t>> margins{}; ///< expected per dimension, when given
};

codegen::Kernel specialised(const Program &lowered, codegen::Target target, const Local &local,
                            bool noinlineBorder = false, bool splitBorder = false) {
  codegen::CodegenOptions options;
  options.specialiseBoundaries = true;
  options.noinlineBorder = noinlineBorder;
  options.splitBorder = splitBorder;
  if (local) options.localSize = *local;
  return codegen::generateKernel(lowered, target, options);
}

/// Runs `kernel` of `typed` on the device and compares with the interpreter.
void checkOnDevice(ocl::Context &context, const codegen::Kernel &kernel, const Program &typed, const Check &c,
                   const test::DeviceReference &reference) {
  tuner::OpenCLKernelRunner runner(context, kernel);
  const std::vector<Value> &inputs = reference.inputs;
  const Value &expected = reference.expected;
  tuner::LaunchConfig launch;
  if (c.local)
    launch.localSize = std::array<size_t, 3>{size_t((*c.local)[0]), size_t((*c.local)[1]), size_t((*c.local)[2])};
  launch.poisonOutput = true; // an element neither code writes fails
  tuner::KernelRun run = runner.run(c.sizes, inputs, typed.body().typeOrThrow(), launch);
  auto mismatch = compareValues(expected, run.output, {1e-4, 1e-5});
  CHECK_MESSAGE(!mismatch, *mismatch);
}

/// Whether some margin of `kernel`'s interior is not zero (a work-item can be
/// outside it), where the interior is decided per work-item.
bool hasItemMargins(const codegen::Kernel &kernel) {
  if (!kernel.interior || kernel.interior->inWorkGroups) return false;
  for (int d = 0; d < 3; ++d)
    if (kernel.interior->lo[d] > 0 || kernel.interior->hi[d] > 0) return true;
  return false;
}

/// The split-border twin of `unsplit` (CodegenOptions::splitBorder): its
/// border work-groups test each work-item against the margins; nothing
/// changes without margins.
void checkSplit(const codegen::Kernel &split, const codegen::Kernel &unsplit) {
  CAPTURE(split.source);
  CHECK(split.interior == unsplit.interior);
  if (!hasItemMargins(unsplit)) {
    CHECK(split.source == unsplit.source);
    return;
  }
  const std::string item = split.target == codegen::Target::OpenCL ? "if ((int)get_global_id(" : "if ((int)(blockIdx.";
  CHECK(unsplit.source.find(item) == std::string::npos);
  // Once, inside the border code (after the work-group test's else).
  size_t at = split.source.find(item);
  REQUIRE(at != std::string::npos);
  CHECK(split.source.find(item, at + 1) == std::string::npos);
  CHECK(split.source.rfind("} else {", at) != std::string::npos);
}

/// Generates, inspects and (with a device) runs one specialised kernel, its
/// twin with never-inlined border calls (CodegenOptions::noinlineBorder), and
/// the split-border twins of both (CodegenOptions::splitBorder).
codegen::Kernel checkSpecialised(const Check &c, ocl::Context *context) {
  std::string sizes;
  for (const auto &[name, value] : c.sizes) sizes += name + "=" + std::to_string(value) + " ";
  CAPTURE(sizes);
  Program typed = typeCheck(c.program, c.sizes);
  Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {});
  codegen::Kernel kernel = specialised(lowered, codegen::Target::OpenCL, c.local);
  CAPTURE(kernel.source);
  CHECK(kernel.interior.has_value() == c.expectInterior);
  if (kernel.interior) {
    checkClean(interiorCode(kernel));
    nlohmann::json meta = codegen::kernelMetadata(kernel);
    REQUIRE(meta.contains("interior"));
    CHECK(meta["interior"]["unit"] == "work-items");
    for (size_t d = 0; d < c.margins.size(); ++d)
      CHECK(meta["interior"]["margins"][d] == nlohmann::json{c.margins[d].first, c.margins[d].second});
    // By default both codes call the inline functions.
    CHECK(kernel.source.find("static inline ") != std::string::npos);
    CHECK(kernel.source.find("liftcc_border_") == std::string::npos);
  } else {
    CHECK(kernel.source.find("} else {") == std::string::npos);
  }
  // A guard dropped (the size divides the extent of some dimension) makes
  // the size a requirement; where it divides every extent there is no guard.
  bool dividesAll = c.local.has_value(), dividesSome = false;
  for (int d = 0; d < kernel.dims && c.local; ++d) {
    bool divides = kernel.globalSize[d].isConstant() && kernel.globalSize[d].constant() % (*c.local)[d] == 0;
    dividesAll = dividesAll && divides;
    dividesSome = dividesSome || divides;
  }
  CHECK(kernel.requiresLocalSize == dividesSome);
  CHECK((kernel.source.find("reqd_work_group_size") != std::string::npos) == dividesSome);
  CHECK((kernel.source.find("if (gid") == std::string::npos) == dividesAll);

  // The CUDA variant compiles.
  codegen::Kernel cudaKernel = specialised(lowered, codegen::Target::CUDA, c.local);
  CHECK(cudaKernel.interior.has_value() == c.expectInterior);
  if (auto options = cuda::test::strictSm90()) {
    cuda::PtxResult ptx = cuda::compileToPtx(cudaKernel.source, *options, "specialised.cu");
    CHECK(ptx.warnings.empty());
    CHECK(ptx.ptx.find(".entry liftcc_kernel") != std::string::npos);
  }

  codegen::Kernel noinline = specialised(lowered, codegen::Target::OpenCL, c.local, true);
  CAPTURE(noinline.source);
  CHECK(noinline.interior.has_value() == c.expectInterior);
  if (noinline.interior)
    checkUserFunCopies(noinline);
  else
    CHECK(noinline.source == kernel.source); // no border code: nothing changes
  // Nothing changes in CUDA (no vectoriser to mislead).
  CHECK(specialised(lowered, codegen::Target::CUDA, c.local, true).source == cudaKernel.source);

  codegen::Kernel split = specialised(lowered, codegen::Target::OpenCL, c.local, false, true);
  codegen::Kernel splitNoinline = specialised(lowered, codegen::Target::OpenCL, c.local, true, true);
  checkSplit(split, kernel);
  checkSplit(splitNoinline, noinline);
  codegen::Kernel cudaSplit = specialised(lowered, codegen::Target::CUDA, c.local, false, true);
  checkSplit(cudaSplit, cudaKernel);
  if (auto options = cuda::test::strictSm90(); options && hasItemMargins(cudaKernel)) {
    cuda::PtxResult ptx = cuda::compileToPtx(cudaSplit.source, *options, "split.cu");
    CHECK(ptx.warnings.empty());
  }

  if (!context) return kernel;
  const test::DeviceReference reference = test::deviceReference(typed, c.sizes, 11);
  checkOnDevice(*context, kernel, typed, c, reference);
  if (noinline.interior) checkOnDevice(*context, noinline, typed, c, reference);
  if (hasItemMargins(kernel)) {
    checkOnDevice(*context, split, typed, c, reference);
    checkOnDevice(*context, splitNoinline, typed, c, reference);
  }
  return kernel;
}

std::optional<ocl::Context> maybeContext() { return ocl::test::testContext(); }

} // namespace

TEST_CASE("specialise: 1D clamp, mirror, wrap and constant padding, asymmetric pads, minimal margins") {
  auto context = maybeContext();
  ocl::Context *ctx = context ? &*context : nullptr;
  for (PadMode mode : {PadMode::Clamp, PadMode::Mirror, PadMode::Wrap}) {
    CAPTURE(static_cast<int>(mode));
    // Neighbours i-1..i+1: one element of margin on each side.
    checkSpecialised({padded(1, 1, 1, mode), {{"N", 200}}, Local{{8, 1, 1}}, true, {{1, 1}}}, ctx);
    // Asymmetric: neighbours i-2..i, two on the left, none on the right.
    checkSpecialised({padded(1, 2, 0, mode), {{"N", 203}}, Local{{16, 1, 1}}, true, {{2, 0}}}, ctx);
    // Neighbours i..i+2 with the runtime's work-group size.
    checkSpecialised({padded(1, 0, 2, mode), {{"N", 150}}, std::nullopt, true, {{0, 2}}}, ctx);
  }
  checkSpecialised({constantPadded(), {{"N", 96}}, Local{{32, 1, 1}}, true, {{1, 1}}}, ctx);
  checkSpecialised({constantPadded(), {{"N", 97}}, Local{{32, 1, 1}}, true, {{1, 1}}}, ctx);
}

TEST_CASE("specialise: the boundary facts say what an interior keeps, under the narrowed ranges") {
  // A mapGlb index i over 64 elements, with clamped and constant-padded
  // neighbours, as the lowering records them (Generator::readThrough).
  using arith::Expr;
  const Expr n(64), i = Expr::index("gid0_0", n);
  codegen::kir::BoundaryFacts facts;
  facts.maps.push_back({"gid0_0", 0, n});
  facts.reads.push_back({i - 1, n, arith::max(i - 1, 0)});  // clamp, left neighbour
  facts.reads.push_back({i + 2, n, std::nullopt});          // constant pad, two right
  facts.reads.push_back({i + 1, n, ((i + 1) % n + n) % n}); // wrap, right neighbour
  auto left = [&](int64_t lo, int64_t hi) {
    codegen::Kernel::Interior m;
    m.lo[0] = lo;
    m.hi[0] = hi;
    return codegen::kir::boundaryOperationsWithin(facts, m);
  };
  CHECK(left(0, 0) == 3);
  CHECK(left(1, 0) == 2); // the clamp goes with one element of margin on the left
  CHECK(left(1, 1) == 1); // the wrap with one on the right
  CHECK(left(1, 2) == 0); // the select with two
  CHECK(left(0, 2) == 1);
  // Dimensions the facts do not name are not narrowed.
  codegen::Kernel::Interior other;
  other.lo[1] = other.hi[1] = 8;
  CHECK(codegen::kir::boundaryOperationsWithin(facts, other) == 3);
}

TEST_CASE("specialise: 2D and 3D stencils and a zip of two inputs match on the device") {
  auto context = maybeContext();
  ocl::Context *ctx = context ? &*context : nullptr;
  checkSpecialised({padded(2, 1, 1, PadMode::Mirror), {{"N", 24}, {"M", 40}}, Local{{8, 4, 1}}, true, {{1, 1}, {1, 1}}},
                   ctx);
  checkSpecialised({padded(2, 2, 1, PadMode::Clamp), {{"N", 23}, {"M", 37}}, Local{{8, 4, 1}}, true, {{2, 1}, {2, 1}}},
                   ctx);
  checkSpecialised({padded(2, 1, 1, PadMode::Wrap), {{"N", 19}, {"M", 33}}, std::nullopt, true}, ctx);
  // (N is the innermost dimension, 0.)
  checkSpecialised({padded(3, 1, 1, PadMode::Wrap), {{"N", 24}, {"M", 10}, {"O", 9}}, Local{{8, 2, 1}}, true}, ctx);
  checkSpecialised({padded(3, 1, 1, PadMode::Clamp), {{"N", 21}, {"M", 10}, {"O", 17}}, Local{{4, 2, 2}}, true}, ctx);
  checkSpecialised({zipped(), {{"N", 128}}, Local{{16, 1, 1}}, true, {{1, 1}}}, ctx);
  checkSpecialised({zipped(), {{"N", 130}}, Local{{16, 1, 1}}, true, {{1, 1}}}, ctx);
}

TEST_CASE("specialise: no interior where no work-group can have one, and none needed without boundaries") {
  auto context = maybeContext();
  ocl::Context *ctx = context ? &*context : nullptr;
  // A single work-group touches both borders.
  checkSpecialised({padded(1, 1, 1, PadMode::Clamp), {{"N", 16}}, Local{{16, 1, 1}}, false}, ctx);
  // Two work-groups of 16 over 30 elements: each touches a border.
  checkSpecialised({padded(1, 1, 1, PadMode::Clamp), {{"N", 30}}, Local{{16, 1, 1}}, false}, ctx);
  // Fewer elements than the margins.
  checkSpecialised({padded(1, 1, 1, PadMode::Mirror), {{"N", 1}}, std::nullopt, false}, ctx);
  checkSpecialised({padded(2, 1, 1, PadMode::Clamp), {{"N", 2}, {"M", 64}}, Local{{16, 1, 1}}, false}, ctx);
  // No pad: a dividing work-group size leaves nothing to specialise (no
  // guard anywhere); a size that does not divide leaves an unguarded interior.
  // (3-point windows of the unpadded array: N - 2 outputs.)
  checkSpecialised({padded(1, 0, 0, PadMode::Clamp), {{"N", 66}}, Local{{16, 1, 1}}, false}, ctx);
  checkSpecialised({padded(1, 0, 0, PadMode::Clamp), {{"N", 72}}, Local{{16, 1, 1}}, true, {{0, 0}}}, ctx);
}

TEST_CASE("specialise: every example's plain kernel, with and without a dividing work-group size") {
  auto context = maybeContext();
  ocl::Context *ctx = context ? &*context : nullptr;
  for (const examples::Example &ex : examples::allExamples()) {
    CAPTURE(ex.name);
    // Extents large enough for an interior, one dividing the work-group sizes and one not.
    for (bool dividing : {true, false}) {
      std::vector<int64_t> extents = ex.dims == 1   ? std::vector<int64_t>{dividing ? 256 : 251}
                                     : ex.dims == 2 ? std::vector<int64_t>{dividing ? 32 : 29, dividing ? 48 : 45}
                                                    : std::vector<int64_t>{dividing ? 12 : 13, 12, dividing ? 24 : 27};
      std::map<std::string, int64_t> sizes;
      for (size_t i = 0; i < ex.sizeNames.size(); ++i) sizes[ex.sizeNames[i]] = extents[i % extents.size()];
      Local local = ex.dims == 1 ? Local{{32, 1, 1}} : ex.dims == 2 ? Local{{16, 4, 1}} : Local{{8, 2, 2}};
      // Every example has boundaries (pads), so every one specialises.
      codegen::Kernel kernel = checkSpecialised({ex.build(), sizes, local, true}, ctx);
      checkSpecialised({ex.build(), sizes, std::nullopt, true}, ctx);
      CHECK(kernel.interior);
    }
  }
}

TEST_CASE("specialise: a kernel generated for a work-group size refuses another one") {
  Program typed = typeCheck(padded(1, 1, 1, PadMode::Clamp), {{"N", 64}});
  Program lowered = rewrite::applyRecipe(typed, rewrite::Recipe::Plain, {});
  codegen::Kernel kernel = specialised(lowered, codegen::Target::OpenCL, Local{{16, 1, 1}});
  REQUIRE(kernel.requiresLocalSize);
  CHECK(codegen::kernelMetadata(kernel)["localSizeRequired"] == true);
  CHECK(tuner::planLaunch(kernel, {{"N", 64}}, std::nullopt, std::nullopt).local == std::array<size_t, 3>{16, 1, 1});
  CHECK(tuner::planLaunch(kernel, {{"N", 64}}, std::array<size_t, 3>{16, 1, 1}, std::nullopt).global[0] == 64);
  CHECK_THROWS_WITH_AS(tuner::planLaunch(kernel, {{"N", 64}}, std::array<size_t, 3>{32, 1, 1}, std::nullopt),
                       doctest::Contains("generated for work-groups of 16x1x1"), std::invalid_argument);
  // Without the option nothing changes.
  codegen::Kernel plain = codegen::generateKernel(lowered, codegen::Target::OpenCL);
  CHECK_FALSE(plain.requiresLocalSize);
  CHECK_FALSE(plain.interior);
  CHECK_FALSE(codegen::kernelMetadata(plain).contains("interior"));
}

TEST_CASE("specialise: the configuration field, the exploration space's twins and makeVariant") {
  explore::Configuration c;
  c.local = {16, 4, 1};
  // Off: key and JSON exactly as before the field existed (stored results stay valid).
  CHECK(c.key() == "plain wg=16x4x1");
  CHECK_FALSE(c.toJson().contains("specialise"));
  c.specialise = true;
  CHECK(c.key() == "plain wg=16x4x1 spec");
  CHECK(c.toJson()["specialise"] == true);
  CHECK(explore::Configuration::fromJson(c.toJson()) == c);
  c.noinlineBorder = true;
  CHECK(c.key() == "plain wg=16x4x1 spec noinline-border");
  CHECK(c.toJson()["noinlineBorder"] == true);
  CHECK(explore::Configuration::fromJson(c.toJson()) == c);
  c.splitBorder = true;
  CHECK(c.key() == "plain wg=16x4x1 spec noinline-border split-border");
  CHECK(c.toJson()["splitBorder"] == true);
  CHECK(explore::Configuration::fromJson(c.toJson()) == c);
  c.noinlineBorder = c.splitBorder = false;

  Program typed = typeCheck(padded(2, 1, 1, PadMode::Clamp), {{"N", 64}, {"M", 64}});
  explore::Variant v = explore::makeVariant(typed, c);
  CHECK(v.kernel.interior.has_value());
  CHECK(v.kernel.requiresLocalSize);

  explore::SpaceOptions without;
  without.includeSpecialised = false;
  explore::Space plain = explore::enumerateSpace(typed, {}, without), twinned = explore::enumerateSpace(typed, {});
  size_t twins = 0, noinline = 0, split = 0;
  std::set<std::string> keys;
  for (const explore::Variant &variant : twinned.variants) keys.insert(variant.configuration.key());
  for (const explore::Variant &variant : twinned.variants) {
    if (!variant.configuration.specialise) continue;
    CAPTURE(variant.configuration.key());
    CHECK((variant.kernel.interior || variant.kernel.requiresLocalSize));
    if (!variant.configuration.noinlineBorder) {
      CHECK_FALSE(variant.configuration.splitBorder); // explored only with a never-inlined border
      ++twins;
      continue;
    }
    if (variant.configuration.splitBorder) {
      // A twin of a noinline-border twin whose interior is decided per work-item.
      ++split;
      REQUIRE(variant.kernel.interior);
      CHECK_FALSE(variant.kernel.interior->inWorkGroups);
      CHECK(variant.kernel.source.find("if ((int)get_global_id(") != std::string::npos);
      explore::Configuration unsplit = variant.configuration;
      unsplit.splitBorder = false;
      CHECK(keys.count(unsplit.key()) == 1);
      CHECK(explore::makeVariant(typed, variant.configuration).kernel.source == variant.kernel.source);
      continue;
    }
    // A twin of a twin with a border code, which it calls never-inlined copies from.
    ++noinline;
    REQUIRE(variant.kernel.interior);
    CHECK(variant.kernel.source.find("liftcc_border_") != std::string::npos);
    explore::Configuration inlined = variant.configuration;
    inlined.noinlineBorder = false;
    CHECK(keys.count(inlined.key()) == 1);
    CHECK(explore::makeVariant(typed, variant.configuration).kernel.source == variant.kernel.source);
  }
  CHECK(twins > 0);
  CHECK(noinline > 0);
  CHECK(noinline <= twins);
  CHECK(split > 0);
  CHECK(split <= noinline);
  CHECK(twinned.variants.size() == plain.variants.size() + twins + noinline + split);
  CHECK(twinned.variants.size() <= 4 * plain.variants.size());
}

} // namespace liftcc
