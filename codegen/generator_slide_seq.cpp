// slideSeq: a sequential sliding window (Lift's mapSeqSlide, RISE's
// slideSeq with rotateValues). One work-item marches along its input; the
// window lives in private arrays indexed by constants only, so the OpenCL and
// CUDA compilers keep it in registers, and moving on by one step is a register
// rotation (w[0] = w[1]; w[1] = w[2]; ... unrolled), never a circular index.
// Each element of the input is loaded once: the first size-step elements
// before the loop, then `step` new elements per step. Boundary handling (pad)
// stays in the loads' index arithmetic.

#include "codegen/generator.h"
#include "core/ir/operands.h"

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

/// One private array of the window: a scalar, or an array of scalars, per
/// window element (a tuple element has one part per component).
struct WindowPart {
  std::string name;
  Type element; ///< the part of one window element
  ScalarKind kind;
  int64_t scalars = 0;          ///< scalars per window element
  std::optional<int> component; ///< the tuple component, for tuple elements
};

/// Every access path to a scalar of `type` (arrays of constant length), in row-major order.
void scalarPaths(const Type &type, AccessPath prefix, std::vector<AccessPath> &out) {
  if (!type.isArray()) {
    out.push_back(std::move(prefix));
    return;
  }
  for (int64_t i = 0; i < type.arrayLength().constant(); ++i) {
    AccessPath p = prefix;
    p.push_back(PathStep::arrayIndex(arith::Expr(i)));
    scalarPaths(type.arrayElement(), std::move(p), out);
  }
}

/// Scalars in one value of `type`, or nothing when it is not an array nest of
/// constant lengths over a scalar.
std::optional<int64_t> constantScalarCount(const Type &type) {
  int64_t count = 1;
  Type t = type;
  while (t.isArray()) {
    if (!t.arrayLength().isConstant() || t.arrayLength().constant() < 0) return std::nullopt;
    count *= t.arrayLength().constant();
    if (count > (int64_t{1} << 30)) return std::nullopt;
    t = t.arrayElement();
  }
  if (!t.isScalar()) return std::nullopt;
  return count;
}

/// The window's private arrays (names still empty): one per tuple component
/// of an element of `n` elements, within `maxScalars` in all.
std::vector<WindowPart> windowParts(const Type &element, int64_t n, int64_t maxScalars, const std::string &where) {
  std::vector<WindowPart> parts;
  auto addPart = [&](const Type &t, std::optional<int> component) {
    std::optional<int64_t> count = constantScalarCount(t);
    if (!count)
      fail(where + "/in", "slideSeq: a window element must be a scalar, an array of constant size or a tuple of "
                          "those, found " +
                              element.str());
    parts.push_back({"", t, t.innermost().scalarKind(), *count, component});
  };
  if (element.isTuple()) {
    for (size_t c = 0; c < element.tupleElements().size(); ++c)
      addPart(element.tupleElements()[c], static_cast<int>(c));
  } else {
    addPart(element, std::nullopt);
  }
  int64_t windowScalars = 0;
  for (const WindowPart &p : parts) windowScalars += n * p.scalars;
  if (windowScalars > maxScalars)
    fail(where, "slideSeq: the window holds " + std::to_string(windowScalars) + " scalars (" + std::to_string(n) +
                    " elements of " + element.str() + "); at most " + std::to_string(maxScalars) +
                    " fit in private memory: stream columns of smaller neighbourhoods");
  return parts;
}

/// The window as a value f can read: the private array, or a zip of the
/// components' arrays for tuple elements; `windowEnv` gets their bindings.
Expr windowValue(const std::vector<WindowPart> &parts, const Type &element, int64_t n, Env &windowEnv) {
  std::vector<Expr> partParams;
  for (const WindowPart &p : parts) {
    Type partType = Type::array(p.element, arith::Expr(n));
    Expr param = Expr::param(p.name, partType);
    windowEnv = windowEnv.bind(param, MemoryBinding{p.name, partType, AddressSpace::Private});
    partParams.push_back(param);
  }
  if (!element.isTuple()) return partParams.front();
  return Expr::prim(Op::Zip, {{}, 0, PadMode::Clamp, {}, partParams}).withType(Type::array(element, arith::Expr(n)));
}

/// Rotates the window by `step`: slot k takes slot k + step for k < keep, constant indices only.
void rotateWindow(kir::Builder &body, const std::vector<WindowPart> &parts, int64_t keep, int64_t step) {
  for (int64_t k = 0; k < keep; ++k)
    for (const WindowPart &p : parts)
      for (int64_t o = 0; o < p.scalars; ++o)
        body.assign(p.name + "[" + std::to_string(k * p.scalars + o) + "]",
                    p.name + "[" + std::to_string((k + step) * p.scalars + o) + "]");
}

} // namespace

void Generator::genSlideSeq(const Expr &e, const Env &env, const WriteTarget &target, const Scope &scope,
                            const std::string &where) {
  if (scope.workGroupUniform()) {
    genSlideSeqLocal(e, env, target, scope, where);
    return;
  }
  if (!slideSize(e).isConstant() || !slideStep(e).isConstant())
    fail(where, "slideSeq needs a constant window size and step to keep the window in registers, found " +
                    slideSize(e).str() + " and " + slideStep(e).str());
  const int64_t n = slideSize(e).constant(), s = slideStep(e).constant();
  const Expr &f = funOf(e);
  Env prepared = env;
  Expr in = prepare(inputOf(e), prepared, scope, where + "/in");
  const Type &inType = inputOf(e).typeOrThrow();
  const Type &element = inType.arrayElement();

  std::vector<WindowPart> parts = windowParts(element, n, kMaxWindowScalars, where);
  for (WindowPart &p : parts) {
    p.name = freshName("win");
    if (p.kind == ScalarKind::Double) usesDouble_ = true;
    body_.privateArray(p.kind, p.name, std::to_string(n * p.scalars));
  }
  std::vector<std::vector<AccessPath>> paths(parts.size());
  for (size_t c = 0; c < parts.size(); ++c) scalarPaths(parts[c].element, {}, paths[c]);

  // Element `index` of the input into window slot `slot`.
  auto load = [&](int64_t slot, const arith::Expr &index) {
    for (size_t c = 0; c < parts.size(); ++c) {
      for (size_t o = 0; o < paths[c].size(); ++o) {
        AccessPath path{PathStep::arrayIndex(index)};
        if (parts[c].component) path.push_back(PathStep::tupleComponent(*parts[c].component));
        path.insert(path.end(), paths[c][o].begin(), paths[c][o].end());
        body_.assign(parts[c].name + "[" + std::to_string(slot * parts[c].scalars + static_cast<int64_t>(o)) + "]",
                     read(in, prepared, path, where + "/in"));
      }
    }
  };

  // Slots [0, keep) carry over from one window to the next; with step >= size
  // nothing does and every step loads the whole window.
  const int64_t keep = std::max<int64_t>(n - s, 0);
  for (int64_t k = 0; k < keep; ++k) load(k, arith::Expr(k));

  Env windowEnv = prepared;
  Expr window = windowValue(parts, element, n, windowEnv);

  arith::Expr count = e.typeOrThrow().arrayLength();
  std::string w = freshName("w");
  Scope inner = scope;
  inner.sequential = true;
  arith::Expr step = arith::Expr::index(w, count);
  body_.forLoop(indexType(), w, "0", index(count), "1", [&] {
    for (int64_t k = keep; k < n; ++k) load(k, step * arith::Expr(s) + arith::Expr(k));
    WriteTarget elementTarget = [target, step](const AccessPath &p) {
      return target(prepend(PathStep::arrayIndex(step), p));
    };
    if (f.is(ExprKind::UserFun)) {
      store(elementTarget({}),
            callUserFun(f, {read(window, windowEnv, {}, where + "/f")}, e.typeOrThrow().arrayElement()));
    } else {
      Env bodyEnv = windowEnv.bind(f.params()[0], ViewBinding{window, share(windowEnv), {}});
      gen(f.body(), bodyEnv, elementTarget, inner, where + "/f/body");
    }
    rotateWindow(body_, parts, keep, s);
  });
}

} // namespace liftcc::codegen
