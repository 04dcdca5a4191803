#include "core/interp/interpreter.h"

#include "core/interp/value_io.h"

#include <algorithm>
#include <unordered_map>

namespace liftcc {

namespace {

class Interpreter {
public:
  explicit Interpreter(const std::map<std::string, int64_t> &sizes) : sizes_(sizes) {}

  Value eval(const Expr &e) {
    switch (e.kind()) {
    case ExprKind::Param: {
      auto it = env_.find(e.id());
      if (it == env_.end()) throw InterpreterError("unbound parameter '" + e.name() + "'");
      return it->second;
    }
    case ExprKind::Literal: return e.literal();
    case ExprKind::Lambda:
    case ExprKind::UserFun: throw InterpreterError("a function is not a value");
    case ExprKind::Apply: {
      std::vector<Value> args;
      for (const Expr &a : e.args()) args.push_back(eval(a));
      return call(e.fun(), args);
    }
    case ExprKind::Prim: return evalPrim(e);
    }
    throw InterpreterError("unknown node");
  }

  Value call(const Expr &f, const std::vector<Value> &args) {
    if (f.is(ExprKind::UserFun)) {
      std::vector<Scalar> scalars;
      for (const Value &a : args) scalars.push_back(a.scalar());
      try {
        return f.userFun().call(scalars);
      } catch (const std::exception &ex) {
        throw InterpreterError("user function '" + f.userFun().name() + "': " + ex.what());
      }
    }
    if (!f.is(ExprKind::Lambda)) throw InterpreterError("applying something that is not a function");
    for (size_t i = 0; i < args.size(); ++i) env_[f.params()[i].id()] = args[i];
    Value result = eval(f.body());
    for (const Expr &p : f.params()) env_.erase(p.id());
    return result;
  }

private:
  int64_t size(const arith::Expr &s) const {
    try {
      return arith::evaluate(s, sizes_);
    } catch (const std::exception &ex) {
      throw InterpreterError(std::string("cannot evaluate size ") + s.str() + ": " + ex.what());
    }
  }

  // A value of `type` with every scalar equal to `fill` (padConstant).
  Value broadcast(const Type &type, const Scalar &fill) const {
    if (type.isScalar()) return fill;
    if (!type.isArray()) throw InterpreterError("padConstant: cannot fill a tuple");
    std::vector<Value> elements(static_cast<size_t>(size(type.arrayLength())), broadcast(type.arrayElement(), fill));
    return Value::array(std::move(elements));
  }

  Value evalPrim(const Expr &e) {
    switch (e.op()) {
    case Op::Map:
    case Op::MapGlb:
    case Op::MapWrg:
    case Op::MapLcl:
    case Op::MapSeq:
    case Op::MapSeqUnroll: {
      Value in = eval(e.args()[0]);
      std::vector<Value> out;
      out.reserve(in.size());
      for (const Value &x : in.elements()) out.push_back(call(e.funs()[0], {x}));
      return Value::array(std::move(out));
    }
    case Op::Reduce:
    case Op::ReduceSeq:
    case Op::ReduceSeqUnroll: {
      Value acc = eval(e.args()[0]);
      Value in = eval(e.args()[1]);
      for (const Value &x : in.elements()) acc = call(e.funs()[0], {acc, x});
      return Value::array({acc});
    }
    case Op::Zip: {
      std::vector<Value> ins;
      for (const Expr &a : e.args()) ins.push_back(eval(a));
      std::vector<Value> out;
      for (size_t i = 0; i < ins.front().size(); ++i) {
        std::vector<Value> t;
        for (const Value &in : ins) t.push_back(in[i]);
        out.push_back(Value::tuple(std::move(t)));
      }
      return Value::array(std::move(out));
    }
    case Op::Split: {
      Value in = eval(e.args()[0]);
      size_t n = static_cast<size_t>(size(e.sizes()[0]));
      std::vector<Value> chunks;
      for (size_t i = 0; i + n <= in.size(); i += n)
        chunks.push_back(Value::array({in.elements().begin() + static_cast<std::ptrdiff_t>(i),
                                       in.elements().begin() + static_cast<std::ptrdiff_t>(i + n)}));
      return Value::array(std::move(chunks));
    }
    case Op::Join: {
      Value in = eval(e.args()[0]);
      std::vector<Value> out;
      for (const Value &row : in.elements()) out.insert(out.end(), row.elements().begin(), row.elements().end());
      return Value::array(std::move(out));
    }
    case Op::Slide: {
      Value in = eval(e.args()[0]);
      int64_t windowSize = size(e.sizes()[0]), step = size(e.sizes()[1]);
      int64_t count = (static_cast<int64_t>(in.size()) - windowSize + step) / step;
      std::vector<Value> windows;
      for (int64_t w = 0; w < count; ++w) {
        auto first = in.elements().begin() + w * step;
        windows.push_back(Value::array({first, first + windowSize}));
      }
      return Value::array(std::move(windows));
    }
    case Op::Pad: {
      Value in = eval(e.args()[0]);
      int64_t l = size(e.sizes()[0]), r = size(e.sizes()[1]);
      int64_t n = static_cast<int64_t>(in.size());
      std::vector<Value> out;
      for (int64_t i = -l; i < n + r; ++i) out.push_back(in[static_cast<size_t>(reindex(e.padMode(), i, n))]);
      return Value::array(std::move(out));
    }
    case Op::PadConstant: {
      Scalar fill = eval(e.args()[0]).scalar();
      Value in = eval(e.args()[1]);
      int64_t l = size(e.sizes()[0]), r = size(e.sizes()[1]);
      Value border = broadcast(e.args()[1].typeOrThrow().arrayElement(), fill);
      std::vector<Value> out(static_cast<size_t>(l), border);
      out.insert(out.end(), in.elements().begin(), in.elements().end());
      out.insert(out.end(), static_cast<size_t>(r), border);
      return Value::array(std::move(out));
    }
    case Op::Transpose: {
      Value in = eval(e.args()[0]);
      size_t rows = in.size();
      size_t cols = static_cast<size_t>(size(e.args()[0].typeOrThrow().arrayElement().arrayLength()));
      std::vector<Value> out;
      for (size_t j = 0; j < cols; ++j) {
        std::vector<Value> column;
        for (size_t i = 0; i < rows; ++i) column.push_back(in[i][j]);
        out.push_back(Value::array(std::move(column)));
      }
      return Value::array(std::move(out));
    }
    case Op::Iterate: {
      Value v = eval(e.args()[0]);
      for (int64_t i = 0, n = size(e.sizes()[0]); i < n; ++i) v = call(e.funs()[0], {v});
      return v;
    }
    case Op::At: return eval(e.args()[0])[static_cast<size_t>(size(e.sizes()[0]))];
    case Op::Get: return eval(e.args()[0])[static_cast<size_t>(e.attr())];
    case Op::Tuple: {
      std::vector<Value> elements;
      for (const Expr &a : e.args()) elements.push_back(eval(a));
      return Value::tuple(std::move(elements));
    }
    case Op::Generate: {
      std::vector<Value> out;
      for (int64_t i = 0, n = size(e.sizes()[0]); i < n; ++i)
        out.push_back(call(e.funs()[0], {Scalar::ofInt(static_cast<int32_t>(i))}));
      return Value::array(std::move(out));
    }
    case Op::SizeValue: return Scalar::ofInt(static_cast<int32_t>(size(e.sizes()[0])));
    case Op::ToGlobal:
    case Op::ToLocal:
    case Op::ToPrivate: return call(e.funs()[0], {eval(e.args()[0])});
    }
    throw InterpreterError("unknown primitive");
  }

public:
  /// Index into an array of length n for position i of its padded form.
  static int64_t reindex(PadMode mode, int64_t i, int64_t n) {
    switch (mode) {
    case PadMode::Clamp: return std::clamp<int64_t>(i, 0, n - 1);
    case PadMode::Mirror: return i < 0 ? -1 - i : (i >= n ? 2 * n - 1 - i : i);
    case PadMode::Wrap: return ((i % n) + n) % n;
    }
    return i;
  }

private:
  const std::map<std::string, int64_t> &sizes_;
  std::unordered_map<const void *, Value> env_;
};

} // namespace

Value interpret(const Program &program, const std::map<std::string, int64_t> &sizes, const std::vector<Value> &inputs) {
  const auto &params = program.inputs();
  if (inputs.size() != params.size())
    throw InterpreterError("expected " + std::to_string(params.size()) + " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    try {
      inputs[i].checkMatches(params[i].typeOrThrow(), sizes);
    } catch (const std::exception &ex) {
      throw InterpreterError("input '" + params[i].name() + "': " + ex.what());
    }
  }
  return Interpreter(sizes).call(program.fun, inputs);
}

std::vector<Value> randomInputs(const Program &program, const std::map<std::string, int64_t> &sizes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Value> inputs;
  for (const Expr &p : program.inputs()) inputs.push_back(Value::random(p.typeOrThrow(), sizes, rng));
  return inputs;
}

std::vector<std::vector<std::byte>> randomInputBytes(const Program &program, const std::map<std::string, int64_t> &sizes,
                                                     uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::byte>> inputs;
  for (const Expr &p : program.inputs()) inputs.push_back(randomBytes(p.typeOrThrow(), sizes, rng));
  return inputs;
}

} // namespace liftcc
