#include "rewrite/stages.h"

#include "core/error.h"
#include "core/ir/loop_split.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/rule.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace liftcc::rewrite {

namespace {

/// A map or reduce that computes values (not a layout map such as
/// map(transpose) or map(slide), which is a view).
bool computes(const Expr &e) {
  if (!e.is(ExprKind::Prim)) return false;
  if (e.isPrim(Op::Map)) return mapComputes(e);
  return e.isPrim(Op::Reduce);
}

Program programOf(const std::vector<arith::Expr> &sizes, std::vector<Expr> inputs, Expr body) {
  return Program{sizes, Expr::lambda(std::move(inputs), std::move(body))};
}

/// Hoists the intermediates of one program body into stages.
class Splitter {
public:
  explicit Splitter(const Program &typed) : typed_(typed) {
    for (const Expr &in : typed.inputs()) taken_.insert(in.name());
    for (const arith::Expr &s : typed.sizes) taken_.insert(s.varName());
    containsNode(typed.body(), [&](const Expr &e) {
      if (e.is(ExprKind::UserFun)) taken_.insert(e.userFun().name());
      if (e.is(ExprKind::Param)) taken_.insert(e.name());
      return false;
    });
  }

  /// `e` with every intermediate below a computation replaced by the
  /// parameter of its stage. `belowCompute`: `e` is read by a map or reduce.
  Expr hoist(const Expr &e, bool belowCompute) {
    if (!e.is(ExprKind::Prim)) return e;
    bool compute = computes(e);
    // Data operands are followed; a function's body is per element, and
    // only what it computes from the inputs alone is an intermediate there.
    size_t functions = e.funs().size();
    std::vector<Child> children = e.children();
    std::vector<Expr> rebuilt;
    bool changed = false;
    for (size_t i = 0; i < children.size(); ++i) {
      const Expr &child = *children[i].expr;
      rebuilt.push_back(i < functions ? hoistClosed(child) : hoist(child, belowCompute || compute));
      changed = changed || !rebuilt.back().sameNode(child);
    }
    Expr self = changed ? e.withChildren(std::move(rebuilt)) : e;
    if (!compute || !belowCompute) return self;
    return stageFor(self, e.typeOrThrow());
  }

  /// `f` (a function) with every array it computes from the program's
  /// inputs alone (the same for every element it is applied to, e.g. a
  /// coarser level read at a computed index: generate(2N, \i. atDynamic(i/2,
  /// map(g, slide(3, 2, A))))) replaced by the parameter of its stage: each
  /// application would otherwise compute the whole array again, in private
  /// memory. Arrays computed from constants alone (a small weight table)
  /// stay where they are.
  Expr hoistClosed(const Expr &f) {
    if (computes(f) && f.typeOrThrow().isArray() && readsOnlyInputs(typed_, f) &&
        std::any_of(typed_.inputs().begin(), typed_.inputs().end(), [&](const Expr &in) { return readsParam(f, in); }))
      return stageFor(hoist(f, false), f.typeOrThrow());
    return mapChildren(f, [&](const Expr &c) { return hoistClosed(c); });
  }

  /// The body of the last program: a result that is a tuple or zip of
  /// computed arrays has each computed by a stage of its own (its kernel
  /// writes that component's output buffers).
  Expr outputs(const Expr &e) {
    if (!e.isPrim(Op::Zip) && !e.isPrim(Op::Tuple)) return hoist(e, false);
    std::vector<Expr> rebuilt;
    bool changed = false;
    for (const Expr &in : e.args()) {
      if (in.isPrim(Op::Zip) || in.isPrim(Op::Tuple))
        rebuilt.push_back(outputs(in));
      else if (containsNode(in, computes))
        rebuilt.push_back(distinctOutput(stageFor(hoist(in, false), in.typeOrThrow())));
      else if (std::optional<Expr> copy = copyOf(in))
        rebuilt.push_back(stageFor(*copy, in.typeOrThrow()));
      else
        rebuilt.push_back(in);
      changed = changed || !rebuilt.back().sameNode(in);
    }
    return changed ? e.withChildren(std::move(rebuilt)) : e;
  }

  std::vector<StagedProgram::Stage> stages;

private:
  /// A stage already written to an output (the same array twice in the
  /// result, as composed time tiles of a tuple state make: (f(a), a, a)
  /// twice is (f(f(a)), f(a), f(a))) is copied by a stage of its own: each
  /// output buffer has its own writer.
  Expr distinctOutput(const Expr &temporary) {
    if (written_.insert(temporary.name()).second) return temporary;
    std::optional<Expr> copy = copyOf(temporary);
    return copy ? stageFor(*copy, temporary.typeOrThrow()) : temporary;
  }
  std::set<std::string> written_;

  /// A component that computes nothing (an input, or a view of one, as in
  /// `tuple(step(u), u)`) is copied by a stage of its own: its output
  /// buffer must be written like any other. Arrays of scalars only.
  static std::optional<Expr> copyOf(const Expr &in) {
    int dims = 0;
    Type element = in.typeOrThrow();
    for (; element.isArray(); element = element.arrayElement()) ++dims;
    if (dims == 0 || !element.isScalar()) return std::nullopt;
    return api::mapN(dims, api::id(element.scalarKind()), in);
  }

  /// The parameter of the stage computing `body` (one per distinct body).
  Expr stageFor(const Expr &body, const Type &type) {
    for (size_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i] == body) return stages[i].temporary;
    Expr temporary = Expr::param(freshName(), type);
    Program program = typeCheck(programOf(typed_.sizes, inputsRead(body), body));
    bodies_.push_back(body);
    stages.push_back({temporary, program});
    return temporary;
  }

public:
  /// The original inputs and the temporaries `body` reads, in that order.
  std::vector<Expr> inputsRead(const Expr &body) const {
    std::vector<Expr> inputs;
    auto reads = [&](const Expr &param) { return readsParam(body, param); };
    for (const Expr &in : typed_.inputs())
      if (reads(in)) inputs.push_back(in);
    for (const StagedProgram::Stage &s : stages)
      if (reads(s.temporary)) inputs.push_back(s.temporary);
    // A program must have an input; a stage that reads none (e.g. computes
    // from generate alone) takes the first one, unused.
    if (inputs.empty()) inputs.push_back(typed_.inputs().front());
    return inputs;
  }

private:
  /// tmp0, tmp1, ...: a name no input, size, user function or parameter has
  /// (they become the names of kernel parameters and metadata entries).
  std::string freshName() {
    for (;;) {
      std::string name = "tmp" + std::to_string(counter_++);
      if (taken_.insert(name).second) return name;
    }
  }

  const Program &typed_;
  std::set<std::string> taken_;
  std::vector<Expr> bodies_;
  int counter_ = 0;
};

/// Replaces parameters by expressions (by node identity).
Expr substitute(const Expr &e, const std::unordered_map<const void *, Expr> &by) {
  return transformBottomUp(e, [&](const Expr &n) {
    if (!n.is(ExprKind::Param)) return n;
    auto it = by.find(n.id());
    return it == by.end() ? n : it->second;
  });
}

/// An array, or a tuple with an array among its components (a tuple of
/// grids, as the state `(u, u_prev)` of a two-level step): bound by a
/// lambda, it is an intermediate to inline, not a per-element value.
bool holdsArray(const Type &type) {
  if (type.isArray()) return true;
  if (!type.isTuple()) return false;
  const std::vector<Type> &elements = type.tupleElements();
  return std::any_of(elements.begin(), elements.end(), holdsArray);
}

} // namespace

/// `e` with every application of a lambda to arrays, `(\x. B)(A)`, replaced
/// by B with x bound to A. This is how a program names an intermediate array
/// it reads more than once (the JSON form `{"apply": {"lambda": ["x"], ...},
/// "args": [A]}`); left applied, the whole of A would be computed inside the
/// kernel that reads it, by every work-item. Inlined, A is an intermediate
/// like any other and becomes a stage, computed once: stages are shared by
/// structural equality wherever B reads x. Scalar bindings (inside a
/// function's body, per element) stay as they are.
Expr inlineArrayBindings(const Expr &e) {
  return transformBottomUp(e, [](const Expr &n) {
    if (!n.is(ExprKind::Apply) || !n.fun().is(ExprKind::Lambda)) return n;
    const Expr &f = n.fun();
    if (f.params().size() != n.args().size()) return n;
    std::unordered_map<const void *, Expr> by;
    for (size_t i = 0; i < f.params().size(); ++i) {
      const Expr &param = f.params()[i];
      if (!param.type() || !holdsArray(*param.type())) return n;
      by.emplace(param.id(), n.args()[i]);
    }
    return substitute(f.body(), by);
  });
}

bool fusible(const StagedProgram::Stage &stage) {
  // The code generator reads a high-level map as a view (f applied to the
  // element read, nested maps included) but never a reduction or anything
  // else that must be computed into memory.
  return !containsNode(stage.program.body(),
                       [](const Expr &e) { return e.is(ExprKind::Prim) && e.info().has(opflag::Compute); });
}

std::optional<StagedProgram> splitStages(const Program &typed) {
  if (typed.inputs().empty()) return std::nullopt;
  if (containsNode(typed.body(), [](const Expr &e) { return e.isPrim(Op::Iterate); })) return std::nullopt;
  Expr inlined = inlineArrayBindings(typed.body());
  const Program program = inlined.sameNode(typed.body()) ? typed : typeCheck(withBody(typed, inlined));
  Splitter splitter(program);
  Expr last = splitter.outputs(program.body());
  if (splitter.stages.empty()) return std::nullopt;
  Program lastProgram = typeCheck(programOf(program.sizes, splitter.inputsRead(last), last));
  return StagedProgram{std::move(splitter.stages), lastProgram};
}

namespace {

/// The temporaries of stages that a last program computing nothing only
/// gathers (the components of a tuple result): they write output buffers,
/// so they are kernels of their own whatever the fusion.
std::set<std::string> gatheredTemporaries(const StagedProgram &staged) {
  std::set<std::string> gathered;
  if (!containsNode(staged.last.body(), computes))
    containsNode(staged.last.body(), [&](const Expr &e) {
      if (e.is(ExprKind::Param)) gathered.insert(e.name());
      return false;
    });
  return gathered;
}

} // namespace

bool hasFusibleStage(const Program &typed) {
  std::optional<StagedProgram> staged = splitStages(typed);
  if (!staged) return false;
  std::set<std::string> gathered = gatheredTemporaries(*staged);
  return std::any_of(staged->stages.begin(), staged->stages.end(),
                     [&](const StagedProgram::Stage &s) { return fusible(s) && !gathered.count(s.temporary.name()); });
}

Program lowerStages(const Program &typed, const StagedProgram &staged,
                    const std::function<Program(const Program &)> &lower,
                    const std::function<Program(const Program &)> &fallback, Fusion fusion) {
  // What each input and temporary stands for in the joined program.
  std::map<std::string, Expr> byName;
  for (const Expr &in : typed.inputs()) byName.emplace(in.name(), in);
  const bool lastComputes = containsNode(staged.last.body(), computes);
  const std::set<std::string> gathered = gatheredTemporaries(staged);
  auto fused = [&](const StagedProgram::Stage &stage) {
    return fusion == Fusion::Inline && fusible(stage) && !gathered.count(stage.temporary.name());
  };
  size_t kernels = static_cast<size_t>(std::count_if(staged.stages.begin(), staged.stages.end(),
                                                     [&](const auto &s) { return !fused(s); })) +
                   (lastComputes ? 1 : 0),
         lowered = 0, kernelIndex = 0;
  std::optional<RewriteError> firstError;
  // The expressions standing for the inputs of a stage program, matched by
  // name: type checking makes new parameter nodes, and names are unique
  // (temporaries get fresh ones).
  auto inputsOf = [&](const Program &stage) {
    std::unordered_map<const void *, Expr> by;
    for (const Expr &in : stage.inputs()) {
      auto it = byName.find(in.name());
      if (it == byName.end()) throw InternalError("stage input " + in.name() + " is neither an input nor a temporary");
      by.emplace(in.id(), it->second);
    }
    return by;
  };
  auto lowerStage = [&](const Program &stage, size_t index) {
    // A last program that only gathers the stages' results (a tuple or zip
    // of them) computes nothing to lower.
    Program low = stage;
    if (containsNode(stage.body(), computes)) {
      try {
        low = lower(stage);
        ++lowered;
      } catch (const RewriteError &e) {
        // A stage the recipe does not apply to (a pointwise map has nothing
        // to tile or stream) is lowered by the fallback; if it applies to
        // no stage, the recipe's error stands (below).
        if (!firstError)
          firstError = RewriteError("kernel " + std::to_string(index + 1) + " of " + std::to_string(kernels) +
                                    " (the program is split at its intermediate arrays): " + e.what());
        low = fallback(stage);
      }
    }
    return substitute(low.body(), inputsOf(low));
  };
  for (const StagedProgram::Stage &stage : staged.stages) {
    if (fused(stage)) {
      // Its readers recompute it: the high-level computation itself.
      byName.emplace(stage.temporary.name(), substitute(stage.program.body(), inputsOf(stage.program)));
      continue;
    }
    Expr body = lowerStage(stage.program, kernelIndex++);
    // toGlobal(f, x) is f(x) written to global memory; the body is closed,
    // so f ignores its parameter and x is any input.
    Expr unused = Expr::param("unused");
    byName.emplace(
        stage.temporary.name(),
        Expr::prim(Op::ToGlobal, {{}, 0, PadMode::Clamp, {Expr::lambda({unused}, body)}, {typed.inputs().front()}}));
  }
  Expr body = lowerStage(staged.last, kernelIndex);
  if (lowered == 0 && firstError) throw *firstError;
  return typeCheck(programOf(typed.sizes, typed.inputs(), body));
}

} // namespace liftcc::rewrite
