#include "rewrite/iterate_chain.h"

#include "core/ir/iterated_state.h"
#include "core/ir/loop_split.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"
#include "core/typecheck/typecheck.h"
#include "primitives/api.h"
#include "rewrite/apply.h"
#include "rewrite/stages.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace liftcc::rewrite {

namespace {

bool isIterate(const Expr &e) { return e.isPrim(Op::Iterate); }
bool hasIterate(const Expr &e) { return containsNode(e, isIterate); }

bool isInput(const Program &program, const Expr &e) {
  return e.is(ExprKind::Param) &&
         std::any_of(program.inputs().begin(), program.inputs().end(), [&](const Expr &in) { return e.sameNode(in); });
}

/// `e` with every subexpression structurally equal to `what` replaced by `by`.
Expr replaced(const Expr &e, const Expr &what, const Expr &by) {
  if (e == what) return by;
  return mapChildren(e, [&](const Expr &c) { return replaced(c, what, by); });
}

class Chainer {
public:
  explicit Chainer(const Program &program) : program_(program) {}

  /// `e` (holding an iterate) as a chain of iterates over an input.
  Expr chain(const Expr &e) const {
    if (!isIterate(e)) return stageAfter(e);
    const Expr &over = inputOf(e);
    Expr start = overInputs(over) ? over : hasIterate(over) ? chain(over) : stageBefore(over);
    if (start.sameNode(over)) return e;
    return api::iterate(iterateCount(e), funOf(e), start);
  }

private:
  bool overInputs(const Expr &over) const {
    if (isInput(program_, over)) return true;
    return over.isPrim(Op::Tuple) && std::all_of(inputsOf(over).begin(), inputsOf(over).end(),
                                                 [&](const Expr &c) { return isInput(program_, c); });
  }

  /// post(iterate(...)) -> iterate(1, \s. post(s), chain of the iterate).
  Expr stageAfter(const Expr &post) const {
    const std::vector<Expr> loops = outermostIterates(post);
    if (loops.size() != 1)
      throw RewriteError("iterate: a stage reads " + std::to_string(loops.size()) +
                         " different iterates; a program may hold one loop (a chain of iterates, each over the "
                         "last) with stages before and after it, or loops side by side of constant counts over arrays");
    const Expr &loop = loops.front();
    if (!readsOnlyInputs(program_, loop)) {
      // A state of scalars is a loop in the kernel (iterateAsReduction, applied first).
      if (!loop.typeOrThrow().isArray())
        throw RewriteError("iterate inside a per-element function over a state of type " + io(loop.typeOrThrow()) +
                           " is not compiled: a scalar or a tuple of scalars becomes a loop in the kernel");
      throw RewriteError("iterate inside a per-element function (it reads the element) is not compiled: the host "
                         "loop runs over whole arrays");
    }
    const Type &state = loop.typeOrThrow(), &result = post.typeOrThrow();
    if (state.isTuple())
      throw RewriteError("iterate over a tuple with a stage after it (here " + io(result) +
                         ") is not compiled yet: return the whole state, " + io(state));
    if (!(state == result))
      throw RewriteError("iterate: the stage after the loop computes " + io(result) + ", not the iterated " +
                         io(state) +
                         "; a stage around iterate must compute an array of the iterated type (it "
                         "runs as one more launch of the host loop)");
    Expr s = stateParam();
    Expr stage = replaced(post, loop, s);
    if (!appliesUserFunction(stage))
      throw RewriteError("iterate: the stage after the loop computes nothing (a view of its result, " + io(result) +
                         "): return the iterate itself");
    return api::iterate(arith::Expr(1), Expr::lambda({s}, stage), chain(loop));
  }

  /// iterate(n, f, pre(A, ...)) -> the start iterate(1, \a. pre(a, ...), A),
  /// A an input of pre's type that pre reads and nothing else does (the
  /// loop writes over its buffer).
  Expr stageBefore(const Expr &pre) const {
    const Type &state = pre.typeOrThrow();
    if (!appliesUserFunction(pre))
      throw RewriteError("iterate over a view of its input (" + io(state) +
                         ", no function applied) is not compiled: iterate over the input itself");
    if (state.isTuple())
      throw RewriteError("iterate over a computed tuple " + io(state) +
                         " is not compiled yet: iterate over a tuple of inputs");
    const Expr rest = replaced(program_.body(), pre, Expr::param("stage"));
    for (const Expr &in : program_.inputs())
      if (in.typeOrThrow() == state && readsParam(pre, in) && !readsParam(rest, in)) {
        Expr a = stateParam();
        return api::iterate(arith::Expr(1), Expr::lambda({a}, replaced(pre, in, a)), in);
      }
    throw RewriteError("iterate over a computed array " + io(state) +
                       " that reads no input of that type which nothing else reads (the host loop would take its "
                       "buffer); make the array an input, or compute it from one");
  }

  static std::string io(const Type &t) { return t.str(); }

  /// The new step's parameter (the lowered step's inputs are matched by name).
  Expr stateParam() const { return Expr::param(freshInputName(program_, "state")); }

  const Program &program_;
};

/// Whether `e` is a chain of iterates ending over an input or a tuple of them.
bool chainOverInputs(const Program &program, const Expr &e) {
  return isIterate(e) && chainedInputs(withBody(program, e)).has_value();
}

} // namespace

std::optional<Program> iterateChain(const Program &typed) {
  if (!hasIterate(typed.body()) || chainOverInputs(typed, typed.body())) return std::nullopt;
  Expr inlined = inlineArrayBindings(typed.body());
  const Program program = inlined.sameNode(typed.body()) ? typed : typeCheck(withBody(typed, inlined));
  if (chainOverInputs(program, program.body())) return program;
  // A loop over something else that needs no stage (a state holding an
  // input twice): nothing to chain; the recipes say why it is not compiled.
  Expr chained = Chainer(program).chain(program.body());
  if (chained.sameNode(program.body())) return std::nullopt;
  return typeCheck(withBody(program, chained));
}

std::optional<Program> loopsSideBySide(const Program &typed) {
  const std::vector<Expr> loops = outermostIterates(typed.body());
  if (loops.size() < 2) return std::nullopt;
  int64_t common = 0; // the counts' greatest common divisor
  for (const Expr &loop : loops) {
    const Expr &f = funOf(loop);
    if (!iterateCount(loop).isConstant() || iterateCount(loop).constant() < 0 || !f.is(ExprKind::Lambda) ||
        f.params().size() != 1 || !loop.type() || !loop.type()->isArray() || !readsOnlyInputs(typed, loop))
      return std::nullopt;
    common = std::gcd(common, iterateCount(loop).constant());
  }
  // A step of the merged loop applies each loop's step count/common times
  // (once each for one count; a loop of 0 steps never) to its component of
  // the tuple state: the same values as each loop on its own.
  if (common == 0) common = 1; // every count 0
  Expr state = Expr::param(freshInputName(typed, "loops"));
  std::vector<Expr> steps, starts;
  for (size_t i = 0; i < loops.size(); ++i) {
    const Expr &f = funOf(loops[i]);
    Expr step = api::get(static_cast<int>(i), state);
    for (int64_t k = 0; k < iterateCount(loops[i]).constant() / common; ++k)
      step = withParamReplaced(f.body(), f.params().front(), step);
    steps.push_back(step);
    starts.push_back(inputOf(loops[i]));
  }
  const Expr merged = api::iterate(arith::Expr(common), Expr::lambda({state}, api::tuple(steps)), api::tuple(starts));
  Expr body = transformBottomUp(typed.body(), [&](const Expr &n) {
    for (size_t i = 0; i < loops.size(); ++i)
      if (n == loops[i]) return api::get(static_cast<int>(i), merged);
    return n;
  });
  return typeCheck(withBody(typed, body));
}

Program asChain(const Program &typed) {
  try {
    if (std::optional<Program> chained = iterateChain(typed)) return *chained;
  } catch (const RewriteError &) {
    // Not a chain, nor compiled: the recipes say why.
  }
  return typed;
}

Program loopChain(const Program &typed) {
  Program chained = asChain(typed);
  if (chained.body().isPrim(Op::Iterate)) return chained;
  if (std::optional<Program> merged = loopsSideBySide(typed)) return loopChain(*merged);
  std::optional<AfterLoop> split = splitAfterLoop(typed);
  return split ? asChain(typeCheck(split->loop)) : chained;
}

namespace {

bool oneStep(const Expr &level) {
  return iterateCount(level).isConstant() && iterateCount(level).constant() == 1 && funOf(level).is(ExprKind::Lambda);
}
bool hasSteps(const Expr &level) {
  return iterateCount(level).isConstant() && iterateCount(level).constant() >= 1 && funOf(level).is(ExprKind::Lambda);
}

/// \x. g(f(x)), over f's (typed) parameter.
Expr composed(const Expr &g, const Expr &f) {
  return Expr::lambda({f.params().front()}, withParamReplaced(g.body(), g.params().front(), f.body()));
}

Expr withCount(const Expr &level, int64_t count, const Expr &f) {
  return api::iterate(arith::Expr(count), f, inputOf(level));
}

} // namespace

std::vector<Expr> fusedStageLevels(const std::vector<Expr> &levels) {
  // The loop: the level with the most steps (the first of equals).
  size_t loop = levels.size();
  for (size_t i = 0; i < levels.size(); ++i)
    if (hasSteps(levels[i]) &&
        (loop == levels.size() || iterateCount(levels[i]).constant() > iterateCount(levels[loop]).constant()))
      loop = i;
  if (loop == levels.size()) return levels;
  std::vector<Expr> out = levels;
  const Expr &f = funOf(levels[loop]);
  int64_t left = iterateCount(levels[loop]).constant();
  // The stage before the loop gives it its first step, the stage after it its last.
  if (loop > 0 && oneStep(levels[loop - 1]) && left >= 1) {
    out[loop - 1] = withCount(levels[loop - 1], 1, composed(f, funOf(levels[loop - 1])));
    --left;
  }
  if (loop + 1 < levels.size() && oneStep(levels[loop + 1]) && left >= 1) {
    out[loop + 1] = withCount(levels[loop + 1], 1, composed(funOf(levels[loop + 1]), f));
    --left;
  }
  if (left == iterateCount(levels[loop]).constant()) return levels;
  if (left == 0) {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(loop)); // every step went to the stages
  } else {
    out[loop] = withCount(levels[loop], left, f);
  }
  return out;
}

bool fusesStagesIntoLoop(const Program &typed) {
  const std::vector<Expr> levels = chainLevels(loopChain(typed).body());
  const std::vector<Expr> fused = fusedStageLevels(levels);
  return fused.size() != levels.size() || !std::equal(fused.begin(), fused.end(), levels.begin(),
                                                      [](const Expr &a, const Expr &b) { return a.sameNode(b); });
}

} // namespace liftcc::rewrite
