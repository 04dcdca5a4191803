#include "core/interp/interpreter.h"

#include "core/error.h"
#include "core/interp/deadline.h"
#include "core/interp/eval_context.h"
#include "core/interp/value_io.h"

#include <utility>
#include <vector>

namespace liftcc {

namespace {

// The node kinds; every primitive is evaluated by its family's case
// (primitives/<family>.cpp), found through the primitive table.
class Interpreter final : public rules::EvalContext {
public:
  Interpreter(const std::map<std::string, int64_t> &sizes, std::optional<InterpretDeadline> deadline)
      : sizes_(sizes), deadline_(deadline) {}

  Value eval(const Expr &e) override {
    deadline_.tick();
    switch (e.kind()) {
    case ExprKind::Param: {
      for (auto it = env_.rbegin(); it != env_.rend(); ++it)
        if (it->first == e.id()) return it->second;
      throw InterpreterError("unbound parameter '" + e.name() + "'");
    }
    case ExprKind::Literal: return e.literal();
    case ExprKind::Lambda:
    case ExprKind::UserFun: throw InterpreterError("a function is not a value");
    case ExprKind::Apply: {
      std::vector<Value> args;
      args.reserve(e.args().size());
      for (const Expr &a : e.args()) args.push_back(eval(a));
      return call(e.fun(), args);
    }
    case ExprKind::Prim: return rules::evalPrimitive(*this, e);
    }
    throw InternalError("interpreter: unknown node kind");
  }

  Value call(const Expr &f, const std::vector<Value> &args) override {
    deadline_.tick();
    if (f.is(ExprKind::UserFun)) return callUserFun(f, args);
    if (!f.is(ExprKind::Lambda)) throw InterpreterError("applying something that is not a function");
    const size_t outer = env_.size();
    for (size_t i = 0; i < args.size(); ++i) env_.emplace_back(f.params()[i].id(), args[i]);
    Value result = eval(f.body());
    env_.resize(outer);
    return result;
  }

  int64_t size(const arith::Expr &s) const override {
    try {
      return arith::evaluate(s, sizes_);
    } catch (const std::exception &ex) {
      throw InterpreterError(std::string("cannot evaluate size ") + s.str() + ": " + ex.what());
    }
  }

private:
  const std::map<std::string, int64_t> &sizes_;
  DeadlineCheck deadline_;
  // The bound parameters, innermost last: a lambda's call pushes its
  // arguments and pops them on return (an inner binding of the same
  // parameter shadows the outer one and uncovers it again). Environments
  // are a few entries deep; a hash map allocated a node per binding.
  std::vector<std::pair<const void *, Value>> env_;
};

} // namespace

Value callUserFun(const Expr &f, const std::vector<Value> &args) {
  if (!args.empty() && !args.front().isScalar()) {
    // Lane-wise on vectors (the type checker allowed it): one call per lane.
    std::vector<Value> lanes;
    for (size_t l = 0; l < args.front().size(); ++l) {
      std::vector<Value> laneArgs;
      for (const Value &a : args) laneArgs.push_back(a[l]);
      lanes.push_back(callUserFun(f, laneArgs));
    }
    return Value::array(std::move(lanes));
  }
  std::vector<Scalar> scalars;
  for (const Value &a : args) scalars.push_back(a.scalar());
  try {
    return f.userFun().call(scalars);
  } catch (const std::exception &ex) {
    throw InterpreterError("user function '" + f.userFun().name() + "': " + ex.what());
  }
}

Value interpret(const Program &program, const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs) {
  return interpret(program, sizes, inputs, std::nullopt);
}

Value interpret(const Program &program, const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs,
                std::optional<InterpretDeadline> deadline) {
  const auto &params = program.inputs();
  if (inputs.size() != params.size())
    throw InterpreterError("expected " + std::to_string(params.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    try {
      inputs[i].checkMatches(params[i].typeOrThrow(), sizes);
    } catch (const std::exception &ex) {
      throw InterpreterError("input '" + params[i].name() + "': " + ex.what());
    }
  }
  return Interpreter(sizes, deadline).call(program.fun, inputs);
}

std::vector<Value> randomInputs(const Program &program, const std::map<std::string, int64_t> &sizes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Value> inputs;
  for (const Expr &p : program.inputs()) inputs.push_back(Value::random(p.typeOrThrow(), sizes, rng));
  return inputs;
}

std::vector<std::vector<std::byte>> randomInputBytes(const Program &program,
                                                     const std::map<std::string, int64_t> &sizes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::byte>> inputs;
  for (const Expr &p : program.inputs()) inputs.push_back(randomBytes(p.typeOrThrow(), sizes, rng));
  return inputs;
}

} // namespace liftcc
