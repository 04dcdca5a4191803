// Assembling a kernel: signature, user functions, local declarations, the
// generated body and the launch configuration.

#include "codegen/generator.h"
#include "core/ir/operands.h"

#include <sstream>

namespace liftcc::codegen {

namespace {

[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }

ScalarKind elementKind(const Type &type, const std::string &what) {
  Type t = type;
  while (t.isArray()) t = t.arrayElement();
  if (!t.isScalar()) fail("", what + " of type " + type.str() + " is not an array of scalars");
  return t.scalarKind();
}

arith::Expr elementCount(const Type &type) {
  arith::Expr count(1);
  for (Type t = type; t.isArray(); t = t.arrayElement()) count = count * t.arrayLength();
  return count;
}

std::string indentBody(const std::string &body) {
  std::istringstream in(body);
  std::string line, out;
  while (std::getline(in, line)) out += "  " + line + "\n";
  return out;
}

/// Default work-group extent for a dimension: the mapLcl extent when it is a
/// small constant, otherwise a common size.
int64_t defaultLocalSize(const std::optional<arith::Expr> &extent, int dim) {
  int64_t cap = dim == 0 ? 64 : 8;
  if (!extent) return 1;
  if (extent->isConstant()) return std::clamp<int64_t>(extent->constant(), 1, cap);
  return cap;
}

} // namespace

Generator::Generator(const Program &program, Target target, const CodegenOptions &options)
    : program_(program), dialect_(target), options_(options) {
  for (const arith::Expr &s : program.sizes) takenNames_.insert(s.varName());
  for (const Expr &in : program.inputs()) takenNames_.insert(in.name());
  takenNames_.insert(options.kernelName);
}

std::string Generator::freshName(const std::string &base) {
  for (;;) {
    std::string name = base + "_" + std::to_string(nameCounters_[base]++);
    if (takenNames_.insert(name).second) return name;
  }
}

void Generator::useUserFun(const cfun::Function &f) {
  auto [it, inserted] = userFuns_.emplace(f.name(), f);
  if (inserted) {
    userFunOrder_.push_back(f.name());
    takenNames_.insert(f.name());
    if (f.usesDouble()) usesDouble_ = true;
    return;
  }
  const cfun::Function &known = it->second;
  if (known.signatureC() != f.signatureC() || known.body() != f.body())
    fail("", "two different user functions are both named '" + f.name() + "'");
}

Kernel Generator::run() {
  if (!program_.body().type()) fail("", "the program is not type-checked");
  Kernel kernel;
  kernel.target = dialect_.target();
  kernel.name = options_.kernelName;

  Env env;
  std::vector<std::string> params;
  for (const Expr &in : program_.inputs()) {
    const Type &type = in.typeOrThrow();
    ScalarKind kind = elementKind(type, "input " + in.name());
    if (kind == ScalarKind::Double) usesDouble_ = true;
    params.push_back(dialect_.globalPointer(kind, true) + " " + in.name());
    kernel.args.push_back({in.name(), KernelArg::Role::Input, kind, elementCount(type)});
    env = env.bind(in, MemoryBinding{in.name(), type, AddressSpace::Global});
  }
  const Type &resultType = program_.body().typeOrThrow();
  ScalarKind resultKind = elementKind(resultType, "the result");
  if (resultKind == ScalarKind::Double) usesDouble_ = true;
  std::string out = takenNames_.count("out") ? freshName("out") : "out";
  takenNames_.insert(out);
  params.push_back(dialect_.globalPointer(resultKind, false) + " " + out);
  kernel.args.push_back({out, KernelArg::Role::Output, resultKind, elementCount(resultType)});
  for (const arith::Expr &s : program_.sizes) {
    params.push_back("int " + s.varName());
    kernel.args.push_back({s.varName(), KernelArg::Role::Size, ScalarKind::Int, arith::Expr(1)});
  }

  Expr body = program_.body();
  std::string where = "/body";
  if (body.isPrim(Op::Iterate)) {
    // One kernel for f; the host iterates (see Kernel::Iteration).
    const Expr &over = inputOf(body);
    std::optional<size_t> input;
    for (size_t i = 0; i < program_.inputs().size(); ++i)
      if (over.is(ExprKind::Param) && over.sameNode(program_.inputs()[i])) input = i;
    if (!input) fail("/body/in", "iterate is supported over a program input (the host swaps its buffer with the output)");
    kernel.iteration = Kernel::Iteration{iterateCount(body), *input};
    body = Expr::apply(funOf(body), {over}).withType(resultType);
    where = "/body/f";
  }
  if (!producesData(body) && !resultType.isScalar())
    fail("/body", "the program computes nothing: apply a user function to the elements of its result (e.g. mapGlb(id))");
  WriteTarget target = [this, out, resultType](const AccessPath &path) {
    return out + "[" + index(linearize(resultType, path, "/body")) + "]";
  };
  gen(body, env, target, Scope{}, where);

  // Launch configuration.
  bool usesWorkGroups = false, usesGlobal = false;
  for (int d = 0; d < 3; ++d) {
    usesWorkGroups = usesWorkGroups || wrgExtent_[d].has_value();
    usesGlobal = usesGlobal || glbExtent_[d].has_value();
    if (glbExtent_[d] || wrgExtent_[d]) kernel.dims = d + 1;
  }
  if (usesWorkGroups && usesGlobal) fail("/body", "a kernel cannot mix mapGlb with mapWrg");
  if (usesWorkGroups) {
    std::array<int64_t, 3> local{1, 1, 1};
    for (int d = 0; d < 3; ++d) {
      local[d] = options_.localSize[d] > 0 ? options_.localSize[d] : defaultLocalSize(lclExtent_[d], d);
      if (!wrgExtent_[d]) local[d] = 1;
      kernel.globalSize[d] = (wrgExtent_[d] ? *wrgExtent_[d] : arith::Expr(1)) * local[d];
    }
    kernel.localSize = local;
  } else {
    for (int d = 0; d < 3; ++d)
      if (glbExtent_[d]) kernel.globalSize[d] = *glbExtent_[d];
  }
  kernel.localMemoryBytes = localBytes_;

  std::string source = "// Generated by liftcc.\n" + dialect_.preamble(usesDouble_);
  for (const std::string &name : userFunOrder_) {
    const cfun::Function &f = userFuns_.at(name);
    source += "\n" + dialect_.userFunQualifier() + f.signatureC() + " {\n" + indentBody(f.body()) + "}\n";
  }
  source += "\n" + dialect_.kernelQualifier() + " " + kernel.name + "(";
  for (size_t i = 0; i < params.size(); ++i) source += (i ? ", " : "") + params[i];
  source += ") {\n";
  for (const std::string &decl : localDeclarations_) source += "  " + decl + "\n";
  source += indentBody(body_.text());
  source += "}\n";
  kernel.source = source;
  return kernel;
}

Kernel generateKernel(const Program &typedProgram, Target target, const CodegenOptions &options) {
  return Generator(typedProgram, target, options).run();
}

} // namespace liftcc::codegen
