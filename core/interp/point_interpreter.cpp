#include "core/interp/point_interpreter.h"

#include "core/interp/eval_context.h"
#include "core/interp/value_io.h"
#include "core/ir/view_index.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace liftcc {

namespace {

/// One step into a value: an array index or a tuple component.
using Step = views::Step<int64_t>;
using Path = views::Path<int64_t>;

Step arrayIndex(int64_t i) { return Step::arrayIndex(i); }

Value select(Value value, const Path &path, size_t from = 0) {
  for (size_t i = from; i < path.size(); ++i) {
    const Step &step = path[i];
    value = value.elements().at(static_cast<size_t>(step.isTuple ? step.component : step.index));
  }
  return value;
}

/// An input as bytes: its elements are decoded when a point needs them.
struct RawInput {
  Type type;
  std::span<const std::byte> bytes;
};
/// A map's function parameter bound to element `path` of `expr`, evaluated
/// (through the pushing rules) only where the body uses it.
struct Deferred {
  Expr expr;
  Path path;
};
/// The argument of an applied lambda whose free variables are all inputs or
/// such arguments: an earlier stage of a multi-stage program, `(\s. B)(S)`.
/// Its elements are evaluated where B reads them, each path once (memoised
/// in `elements`), never the whole stage for every point asked.
struct Shared {
  Expr expr;
  std::shared_ptr<std::map<std::vector<int64_t>, Value>> elements;
  bool topLevel = false; ///< bound by an application where only the inputs were bound
};
using Binding = std::variant<Value, RawInput, Deferred, Shared>;

using ClosedKey = std::pair<const void *, const void *>;

class PointInterpreter final : public rules::EvalContext {
public:
  PointInterpreter(const std::map<std::string, int64_t> &sizes, std::optional<InterpretDeadline> deadline)
      : sizes_(sizes), deadline_(deadline) {}

  void bindInput(const Expr &param, RawInput input) {
    env_.insert_or_assign(param.id(), Binding(std::move(input)));
    inputs_ = env_.size();
  }

  Value eval(const Expr &e) override { return element(e, {}); }

  Value call(const Expr &f, const std::vector<Value> &args) override {
    deadline_.tick();
    if (f.is(ExprKind::UserFun)) return callUserFun(f, args);
    if (!f.is(ExprKind::Lambda)) throw InterpreterError("applying something that is not a function");
    std::vector<Binding> bindings(args.begin(), args.end());
    return withBindings(f, std::move(bindings), {});
  }

  int64_t size(const arith::Expr &s) const override {
    try {
      return arith::evaluate(s, sizes_);
    } catch (const std::exception &ex) {
      throw InterpreterError(std::string("cannot evaluate size ") + s.str() + ": " + ex.what());
    }
  }

  /// The element of e's value at `path` (the whole value for an empty path).
  Value element(const Expr &e, const Path &path) {
    deadline_.tick();
    switch (e.kind()) {
    case ExprKind::Param: return boundElement(e, path);
    case ExprKind::Prim: return primitiveElement(e, path);
    case ExprKind::Literal: return select(e.literal(), path);
    case ExprKind::Apply: {
      const Expr &f = e.fun();
      if (f.is(ExprKind::Lambda) && std::all_of(e.args().begin(), e.args().end(), [&](const Expr &a) {
            return readsOnly(a, /*topLevelStagesOnly=*/false);
          }))
        return stageElement(e, path);
      std::vector<Value> args;
      for (const Expr &a : e.args()) args.push_back(eval(a));
      return select(call(f, args), path);
    }
    case ExprKind::Lambda:
    case ExprKind::UserFun: throw InterpreterError("a function is not a value");
    }
    throw InternalError("point interpreter: unknown node kind");
  }

private:
  /// Element `path` of `(\s1 ... sk. B)(S1, ..., Sk)` where each Si reads
  /// only inputs and stages: B at `path`, each Si bound as a Shared
  /// stage. Applied where only the inputs are bound, the stages' elements
  /// are memoised across the points of this call (the same node always
  /// means the same value there); deeper, per application.
  Value stageElement(const Expr &e, const Path &path) {
    const bool topLevel = env_.size() == inputs_;
    std::vector<Binding> bindings;
    for (size_t i = 0; i < e.args().size(); ++i) {
      std::shared_ptr<std::map<std::vector<int64_t>, Value>> elements;
      if (topLevel) {
        auto &kept = topLevelStages_[{e.id(), i}];
        if (!kept) kept = std::make_shared<std::map<std::vector<int64_t>, Value>>();
        elements = kept;
      } else {
        elements = std::make_shared<std::map<std::vector<int64_t>, Value>>();
      }
      bindings.push_back(Shared{e.args()[i], std::move(elements), topLevel});
    }
    // While B is evaluated, the application its top-level stages belong to
    // (one at a time: another top-level application needs a scope without them).
    struct Scope {
      PointInterpreter &self;
      const void *previous;
      ~Scope() { self.topLevelApplication_ = previous; }
    } scope{*this, topLevelApplication_};
    if (topLevel) topLevelApplication_ = e.id();
    return withBindings(e.fun(), std::move(bindings), path);
  }

  /// The parameters occurring free in e, memoised by node.
  const std::vector<const void *> &freeParams(const Expr &e) {
    if (auto it = freeParams_.find(e.id()); it != freeParams_.end()) return it->second;
    std::vector<const void *> free;
    auto addFreeOf = [&](const Expr &child) {
      for (const void *p : freeParams(child))
        if (std::find(free.begin(), free.end(), p) == free.end()) free.push_back(p);
    };
    switch (e.kind()) {
    case ExprKind::Param: free.push_back(e.id()); break;
    case ExprKind::Literal:
    case ExprKind::UserFun: break;
    case ExprKind::Lambda:
      addFreeOf(e.body());
      for (const Expr &param : e.params()) std::erase(free, param.id());
      break;
    case ExprKind::Apply:
      addFreeOf(e.fun());
      for (const Expr &a : e.args()) addFreeOf(a);
      break;
    case ExprKind::Prim:
      for (const Expr &f : e.funs()) addFreeOf(f);
      for (const Expr &a : e.args()) addFreeOf(a);
      break;
    }
    return freeParams_.emplace(e.id(), std::move(free)).first->second;
  }

  /// Whether every parameter free in e is bound to an input or a stage (a
  /// top-level one only, with `topLevelStagesOnly`): never to a value bound
  /// per point or per application (a map's element, a lambda's argument).
  bool readsOnly(const Expr &e, bool topLevelStagesOnly) {
    for (const void *param : freeParams(e)) {
      auto it = env_.find(param);
      if (it == env_.end()) return false; // unbound: evaluating says so
      if (std::holds_alternative<RawInput>(it->second)) continue;
      const Shared *stage = std::get_if<Shared>(&it->second);
      if (!stage || (topLevelStagesOnly && !stage->topLevel)) return false;
    }
    return true;
  }

  /// (top-level application or nullptr, node): where e's value is the same
  /// for every point, its key in closedValues_; nullopt where it reads a
  /// parameter bound per point or per application, or a stage of a nested
  /// application.
  std::optional<ClosedKey> closedKey(const Expr &e) {
    if (!readsOnly(e, /*topLevelStagesOnly=*/true)) return std::nullopt;
    const bool readsStage = std::any_of(freeParams(e).begin(), freeParams(e).end(), [&](const void *param) {
      return std::holds_alternative<Shared>(env_.at(param));
    });
    return ClosedKey{readsStage ? topLevelApplication_ : nullptr, e.id()};
  }

  /// Element `path` of a stage, evaluated once per stage binding.
  Value sharedElement(const Shared &stage, const Path &path) {
    std::vector<int64_t> key;
    for (const Step &step : path) key.push_back(step.isTuple ? -1 - int64_t(step.component) : step.index);
    auto it = stage.elements->find(key);
    if (it != stage.elements->end()) return it->second;
    Expr expr = stage.expr;
    auto elements = stage.elements; // the binding may be replaced while evaluating
    Value value = element(expr, path);
    elements->emplace(std::move(key), value);
    return value;
  }

  /// Evaluates lambda f's body at `path` with its parameters bound.
  Value withBindings(const Expr &f, std::vector<Binding> bindings, const Path &path) {
    const std::vector<Expr> &params = f.params();
    if (bindings.size() != params.size()) throw InterpreterError("wrong number of arguments to a lambda");
    std::vector<std::optional<Binding>> saved;
    for (size_t i = 0; i < params.size(); ++i) {
      auto it = env_.find(params[i].id());
      saved.push_back(it == env_.end() ? std::nullopt : std::optional<Binding>(it->second));
      env_.insert_or_assign(params[i].id(), std::move(bindings[i]));
    }
    struct Restore {
      PointInterpreter &self;
      const std::vector<Expr> &params;
      std::vector<std::optional<Binding>> &saved;
      ~Restore() {
        for (size_t i = 0; i < params.size(); ++i) {
          if (saved[i])
            self.env_.insert_or_assign(params[i].id(), std::move(*saved[i]));
          else
            self.env_.erase(params[i].id());
        }
      }
    } restore{*this, params, saved};
    return element(f.body(), path);
  }

  Value boundElement(const Expr &param, const Path &path) {
    auto it = env_.find(param.id());
    if (it == env_.end()) throw InterpreterError("unbound parameter '" + param.name() + "'");
    if (const Value *value = std::get_if<Value>(&it->second)) return select(*value, path);
    if (const Shared *stage = std::get_if<Shared>(&it->second)) return sharedElement(*stage, path);
    if (const Deferred *deferred = std::get_if<Deferred>(&it->second)) {
      Path full = deferred->path;
      full.insert(full.end(), path.begin(), path.end());
      Expr expr = deferred->expr; // the binding may be replaced while evaluating
      return element(expr, full);
    }
    const RawInput &input = std::get<RawInput>(it->second);
    Type type = input.type;
    size_t offset = 0;
    for (size_t i = 0; i < path.size(); ++i) {
      const Step &step = path[i];
      if (step.isTuple) {
        const std::vector<Type> &components = type.tupleElements();
        for (int c = 0; c < step.component; ++c) offset += byteCount(components.at(size_t(c)), sizes_);
        type = components.at(size_t(step.component));
      } else if (type.isVector()) { // a lane (asScalar): the interpreter keeps a vector as its lanes
        size_t count = byteCount(type, sizes_);
        if (offset + count > input.bytes.size()) throw InternalError("point interpreter: element outside its input");
        return select(fromBytes(input.bytes.subspan(offset, count), type, sizes_), path, i);
      } else {
        Type inner = type.arrayElement();
        if (step.index < 0 || step.index >= size(type.arrayLength()))
          throw InternalError("point interpreter: index " + std::to_string(step.index) + " outside " + type.str());
        offset += size_t(step.index) * byteCount(inner, sizes_);
        type = inner;
      }
    }
    size_t count = byteCount(type, sizes_);
    if (offset + count > input.bytes.size()) throw InternalError("point interpreter: element outside its input");
    return fromBytes(input.bytes.subspan(offset, count), type, sizes_);
  }

  /// The concrete index algebra of the index rules (core/ir/view_index.h).
  struct Indices : views::ConcreteIndexOps {
    const PointInterpreter &interpreter;
    int64_t size(const arith::Expr &s) const { return interpreter.size(s); }
  };

  /// Element `path` of primitive e. Views are pushed through by their index
  /// rules (core/ir/view_index.h) and map-like primitives and generate by
  /// applying f to the one element; the whole value of e is evaluated by its
  /// family rule only when it is asked for (an empty path) or computed.
  Value primitiveElement(const Expr &e, const Path &path) {
    const Op op = e.op();
    const views::IndexRule rule = views::indexRule(op);
    bool pickOnly = rule.kind == views::RuleKind::Reindex && rule.steps == 0; // at, get
    if (rule.kind == views::RuleKind::DataIndex) return dataIndexElement(e, path);
    if (rule.kind == views::RuleKind::Computed) {
      if (std::optional<ClosedKey> key = closedKey(e)) {
        // e reads nothing but the inputs (and top-level stages), so its whole
        // value (an iterate's grid, a reduction) is the same for every point
        // asked: computed once. Before, each of a check's 256 points
        // evaluated an iterate again, and a sum read by every element
        // (`map(\x. x / sum(s), s)`) was summed again for each of them.
        auto it = closedValues_.find(*key);
        if (it == closedValues_.end()) it = closedValues_.emplace(*key, rules::evalPrimitive(*this, e)).first;
        return select(it->second, path);
      }
    }
    if (rule.kind == views::RuleKind::Computed || rule.kind == views::RuleKind::Scalar || (path.empty() && !pickOnly))
      return select(rules::evalPrimitive(*this, e), path);
    if (std::optional<size_t> missing = views::missingStep(op, path)) {
      if (*missing < path.size())
        throw InternalError("point interpreter: " + std::string(e.info().name) +
                            " indexed with a path of the wrong kind");
      return expand(e, path);
    }
    if (rule.kind == views::RuleKind::Function) return functionElement(e, path);
    views::Reindexed<int64_t> source = views::reindex(e, path, Indices{{}, *this});
    if (source.boundary && source.boundary->constant &&
        (source.boundary->index < 0 || source.boundary->index >= source.boundary->length)) {
      // padConstant outside its input: the padding value, shaped as an element.
      Scalar fill = eval(padValue(e)).scalar();
      const Type element = e.typeOrThrow().arrayElement();
      std::vector<Scalar> flat(size_t(scalarCount(element, sizes_)), fill);
      return select(element.isScalar() ? Value(fill) : Value::fromFlat(element, sizes_, flat), path, 1);
    }
    return element(e.args().at(source.operand), source.path);
  }

  /// Element `path` of atDynamic: its index operand evaluated and clamped
  /// into the array (as the interpreter's rule and the generated code do),
  /// then `path` into that element of `in`.
  Value dataIndexElement(const Expr &e, const Path &path) {
    int64_t i = element(dynamicIndexOf(e), {}).scalar().asInt();
    int64_t n = size(inputOf(e).typeOrThrow().arrayLength());
    Path into{arrayIndex(std::clamp<int64_t>(i, 0, n - 1))};
    into.insert(into.end(), path.begin(), path.end());
    return element(inputOf(e), into);
  }

  /// Element `path` of e whose index rule reads more steps than `path` has:
  /// built from its elements (a window, a column, a zip's tuple, a vector's lanes).
  Value expand(const Expr &e, const Path &path) {
    Type type = e.typeOrThrow();
    for (const Step &step : path)
      type = step.isTuple ? type.tupleElements().at(size_t(step.component))
                          : (type.isVector() ? Type::scalar(type.scalarKind()) : type.arrayElement());
    std::vector<Value> parts;
    Path longer = path;
    longer.push_back({});
    if (type.isTuple()) {
      for (size_t c = 0; c < type.tupleElements().size(); ++c) {
        longer.back() = Step::tupleComponent(static_cast<int>(c));
        parts.push_back(element(e, longer));
      }
      return Value::tuple(std::move(parts));
    }
    int64_t length = type.isVector() ? type.vectorWidth() : size(type.arrayLength());
    for (int64_t i = 0; i < length; ++i) {
      longer.back() = arrayIndex(i);
      parts.push_back(element(e, longer));
    }
    return Value::array(std::move(parts));
  }

  /// Element k of a map-like primitive (f applied to element k of its
  /// input) or of generate (f(k)), and `path`'s rest into it.
  Value functionElement(const Expr &e, const Path &path) {
    const Expr &f = funOf(e);
    const int64_t k = path.front().index;
    Path rest(path.begin() + 1, path.end());
    const bool unaryLambda = f.is(ExprKind::Lambda) && f.params().size() == 1;
    if (e.isPrim(Op::Generate)) {
      // Never the whole generated array (a 3D coefficient grid would be built
      // again for every point).
      Value index = Scalar::ofInt(static_cast<int32_t>(k));
      if (unaryLambda) return withBindings(f, {Binding(std::move(index))}, rest);
      return select(call(f, {std::move(index)}), rest);
    }
    if (unaryLambda) return withBindings(f, {Binding(Deferred{inputOf(e), {arrayIndex(k)}})}, rest);
    return select(call(f, {element(inputOf(e), {arrayIndex(k)})}), rest);
  }

  const std::map<std::string, int64_t> &sizes_;
  DeadlineCheck deadline_;
  std::unordered_map<const void *, Binding> env_;
  size_t inputs_ = 0; ///< bindings of env_ that are the program's inputs (bound first)
  /// Whole values of computed primitives that read only the inputs, by
  /// (nullptr, node), or the inputs and the stages of the top-level
  /// application, by (application, node): the same lambda node may be
  /// applied to different stages in two places.
  std::map<ClosedKey, Value> closedValues_;
  std::unordered_map<const void *, std::vector<const void *>> freeParams_;
  /// The top-level application whose body is being evaluated (none: nullptr).
  const void *topLevelApplication_ = nullptr;
  /// The stages applied where only the inputs are bound, by (apply node, argument).
  std::map<std::pair<const void *, size_t>, std::shared_ptr<std::map<std::vector<int64_t>, Value>>> topLevelStages_;
};

} // namespace

std::vector<Value> interpretPoints(const Program &program, const std::map<std::string, int64_t> &sizes,
                                   const std::vector<std::span<const std::byte>> &inputs,
                                   const std::vector<ResultPoint> &points, std::optional<InterpretDeadline> deadline) {
  const auto &params = program.inputs();
  if (inputs.size() != params.size())
    throw InterpreterError("expected " + std::to_string(params.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  PointInterpreter interpreter(sizes, deadline);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Type &type = params[i].typeOrThrow();
    if (inputs[i].size() != byteCount(type, sizes))
      throw InterpreterError("input '" + params[i].name() + "': expected " + std::to_string(byteCount(type, sizes)) +
                             " bytes, got " + std::to_string(inputs[i].size()));
    interpreter.bindInput(params[i], {type, inputs[i]});
  }
  std::vector<Value> values;
  for (const ResultPoint &point : points) {
    Path path;
    for (int64_t index : point) path.push_back(arrayIndex(index));
    values.push_back(interpreter.element(program.body(), path));
  }
  return values;
}

std::vector<ResultPoint> samplePoints(const Type &type, const std::map<std::string, int64_t> &sizes,
                                      size_t randomPoints, uint64_t seed) {
  std::vector<int64_t> lengths;
  for (Type t = type; t.isArray(); t = t.arrayElement()) lengths.push_back(arith::evaluate(t.arrayLength(), sizes));
  std::set<ResultPoint> points;
  if (std::find(lengths.begin(), lengths.end(), 0) != lengths.end()) return {};
  // Borders, corners and the middle: every combination (at most 5 per dimension).
  std::vector<std::vector<int64_t>> edges;
  for (int64_t n : lengths) {
    std::set<int64_t> e{0, 1, n / 2, n - 2, n - 1};
    std::erase_if(e, [n](int64_t i) { return i < 0 || i >= n; });
    edges.emplace_back(e.begin(), e.end());
  }
  ResultPoint point(lengths.size());
  auto combine = [&](auto &self, size_t d) -> void {
    if (points.size() >= 4096) return;
    if (d == lengths.size()) {
      points.insert(point);
      return;
    }
    for (int64_t i : edges[d]) {
      point[d] = i;
      self(self, d + 1);
    }
  };
  combine(combine, 0);
  std::mt19937_64 rng(seed);
  for (size_t r = 0; r < randomPoints; ++r) {
    for (size_t d = 0; d < lengths.size(); ++d)
      point[d] = std::uniform_int_distribution<int64_t>(0, lengths[d] - 1)(rng);
    points.insert(point);
  }
  return {points.begin(), points.end()};
}

PointLocation locatePoint(const Type &type, const std::map<std::string, int64_t> &sizes, const ResultPoint &point) {
  PointLocation location{0, type};
  for (int64_t index : point) {
    Type inner = location.type.arrayElement();
    location.byteOffset += size_t(index) * byteCount(inner, sizes);
    location.type = inner;
  }
  return location;
}

} // namespace liftcc
