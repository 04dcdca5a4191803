// Assembling a kernel: signature, user functions, local declarations, the
// generated body and the launch configuration.

#include "codegen/generator.h"
#include "codegen/global_load_counter.h"
#include "codegen/index_holes.h"
#include "codegen/kernel_ir_passes.h"
#include "codegen/kernel_ir_print.h"
#include "codegen/kernel_signature.h"
#include "core/ir/iterated_state.h"
#include "core/ir/operands.h"

#include "core/cfun/reserved.h"
#include "core/interp/components.h"
#include "core/ir/transform.h"

#include <climits>
#include <functional>
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

/// The border code's copy of user function `f`: a wrapper calling it, which
/// the compiler inlines into and never inlines anywhere.
std::string borderUserFunDefinition(const cfun::Function &f, const Dialect &dialect) {
  std::string signature = f.signatureC(), arguments;
  signature = std::string(scalarKindName(f.result())) + " " + borderUserFunName(f.name()) +
              signature.substr(signature.find('('));
  for (const cfun::Param &p : f.params()) arguments += (arguments.empty() ? "" : ", ") + p.name;
  return "\n" + dialect.borderUserFunQualifier() + signature + " {\n  return " + f.name() + "(" + arguments + ");\n}\n";
}

} // namespace

Generator::Generator(const Program &program, Target target, const CodegenOptions &options,
                     std::optional<Kernel::Interior> interior)
    : program_(program), dialect_(target), options_(options), interior_(std::move(interior)) {
  // Programs built with the C++ API skip the JSON reader's checks of names,
  // so every name that becomes an identifier of the kernel is checked here.
  if (auto why = invalidKernelName(options.kernelName)) fail("", "kernel name '" + options.kernelName + "' " + *why);
  auto parameter = [&](const std::string &name, const std::string &what) {
    // reservedVariableName includes the names liftcc generates (cfun::generatedName).
    if (auto why = cfun::reservedVariableName(name)) fail("", what + " name " + *why);
    if (auto why = cfun::reservedFunctionName(name)) fail("", what + " name " + *why);
    if (!takenNames_.insert(name).second) fail("", what + " '" + name + "' has the name of another input or size");
  };
  for (const arith::Expr &s : program.sizes) parameter(s.varName(), "size");
  for (const Expr &in : program.inputs()) parameter(in.name(), "input");
  takenNames_.insert(options.kernelName);
  // User functions are reserved before any temporary is named, so a
  // generated name (gid0_0, acc_1) can never take a user function's.
  std::set<std::string> userFunNames;
  containsNode(program.body(), [&](const Expr &e) {
    if (e.is(ExprKind::UserFun)) userFunNames.insert(e.userFun().name());
    return false;
  });
  for (const std::string &name : userFunNames) {
    // Not cfun::generatedName: the identity functions the rewrites insert are
    // user functions here; a different one of that name fails in useUserFun.
    if (name.starts_with(cfun::kGeneratedPrefix))
      fail("", "the user function name '" + name + "' uses the prefix liftcc_, reserved for generated names");
    if (name == options.kernelName)
      fail("", "the user function '" + name + "' has the kernel's name: choose another kernel name (--kernel-name)");
    if (!takenNames_.insert(name).second) fail("", "the user function '" + name + "' has the name of an input or size");
  }
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
  if (known.signatureC() != f.signatureC() || known.body() != f.body()) {
    if (auto why = cfun::generatedName(f.name())) fail("", "a user function is named '" + f.name() + "': " + *why);
    fail("", "two different user functions are both named '" + f.name() + "'");
  }
}

Kernel Generator::run() {
  if (!program_.body().type()) fail("", "the program is not type-checked");
  Kernel kernel;
  kernel.target = dialect_.target();
  kernel.name = options_.kernelName;
  kernel.buildOptions = buildOptionsFor(options_.fastMath, kernel.target);

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
  // A result with tuples is written as a structure of arrays (core/interp/components.h).
  std::optional<WriteTarget> componentsTarget;
  std::string out;
  if (hasTuple(resultType)) {
    componentsTarget = outputComponents(resultType, kernel, params);
  } else {
    ScalarKind resultKind = elementKind(resultType, "the result");
    if (resultKind == ScalarKind::Double) usesDouble_ = true;
    out = takenNames_.count("out") ? freshName("out") : "out";
    takenNames_.insert(out);
    params.push_back(dialect_.globalPointer(resultKind, false) + " " + out);
    kernel.args.push_back({out, KernelArg::Role::Output, resultKind, elementCount(resultType)});
  }
  for (const arith::Expr &s : program_.sizes) {
    // Size arguments are passed as int; a 64-bit kernel widens them on entry
    // (kernelFunction), else a product of two sizes (N*M) would still be
    // computed, and overflow, in int.
    params.push_back("int " + kir::choiceText({s.varName(), wideSizeParameter(s.varName())}));
    kernel.args.push_back({s.varName(), KernelArg::Role::Size, ScalarKind::Int, arith::Expr(1)});
  }
  if (options_.countGlobalLoads) {
    params.push_back(globalLoadCounterParameter(kernel.target));
    kernel.countsGlobalLoads = true;
  }

  Expr body = program_.body();
  std::string where = "/body";
  if (body.isPrim(Op::Iterate)) {
    // One kernel for f; the host iterates (see Kernel::Iteration).
    const Expr &over = inputOf(body);
    kernel.iteration = Kernel::Iteration{iterateCount(body), {iteratedInput(program_)}, {}, {}};
    body = Expr::apply(funOf(body), {over}).withType(resultType);
    where = "/body/f";
  }
  bool highLevel = containsNode(body, [](const Expr &e) { return e.isPrim(Op::Map) || e.isPrim(Op::Reduce); });
  if (!producesData(body) && !resultType.isScalar() && highLevel)
    fail(where, "the program is not lowered: its map and reduce must become mapGlb, mapWrg/mapLcl or mapSeq and "
                "reduceSeq (liftc compile --opt plain, tiled or local lowers it)");
  if (!producesData(body) && !resultType.isScalar())
    fail("/body",
         "the program computes nothing: apply a user function to the elements of its result (e.g. mapGlb(id))");
  WriteTarget target = [this, out, resultType](const AccessPath &path) {
    arith::Expr offset = linearize(resultType, path, "/body");
    return bufferElement(out + "[" + bufferIndex(offset) + "]", out, offset);
  };
  if (componentsTarget) target = *componentsTarget;
  gen(body, env, target, Scope{}, where);

  setLaunchConfiguration(kernel);
  // Code written for the work-group size given (a stream's queues and copies).
  if (assumesLocalSize_) kernel.requiresLocalSize = true;
  // An interior code is spliced into its general kernel, which runs the
  // passes over it: only its statements are read (lowerInterior), so it
  // gets no source of its own.
  if (interior_) return kernel;
  assemble(kernel, params);
  return kernel;
}

void Generator::assemble(Kernel &kernel, const std::vector<std::string> &params) {
  parts_.usesDouble = usesDouble_;
  kir::Stmts statements = localDeclarations_;
  kir::Stmts kernelBody = specialisedBody(kernel);
  statements.insert(statements.end(), kernelBody.begin(), kernelBody.end());
  kir::Body simplified = kir::simplify(statements);
  parts_.wideIndices = simplified.width == kir::IndexWidth::Wide;
  kernel.indexBits = parts_.wideIndices ? 64 : 32;
  for (const std::string &name : userFunOrder_) parts_.userFuns.push_back(emittedUserFun(name));
  parts_.kernelFunction = kernelFunction(kernel, params, simplified);
  recordVectorSources();
  kernel.source = assembleSource(dialect_, {parts_});
}

void Generator::setLaunchConfiguration(Kernel &kernel) const {
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
}

kir::Stmts Generator::specialisedBody(Kernel &kernel) {
  const kir::Stmts &general = body_.statements();
  if (!options_.specialiseBoundaries || interior_) return general;
  if (droppedGuard_) {
    kernel.localSize = knownLocalSize();
    kernel.requiresLocalSize = true;
  }
  std::optional<InteriorCode> interior = findInterior(kernel);
  if (!interior) return general;
  kernel.interior = interior->margins;
  // The interior inlines the user functions (not inlined, PoCL vectorises
  // nothing); so does the border code, unless noinlineBorder asks for
  // copies that keep LLVM from merging the two codes (CodegenOptions).
  parts_.borderUserFuns = options_.noinlineBorder && dialect_.separateBorderUserFuns();
  parts_.inlineUserFuns = true;
  kir::Stmts border = parts_.borderUserFuns ? borderCode(general) : general;
  if (options_.splitBorder && !interior->margins.inWorkGroups) {
    // Work-groups at the border: their interior work-items run the interior code.
    std::string item = itemInteriorCondition(interior->margins);
    if (!item.empty()) border = kir::Stmts{kir::Stmt{kir::If{item, interior->body, border}}};
  }
  return kir::Stmts{kir::Stmt{kir::If{interior->condition, interior->body, border}}};
}

std::string Generator::kernelFunction(const Kernel &kernel, const std::vector<std::string> &params,
                                      const kir::Body &body) const {
  bool wide = body.width == kir::IndexWidth::Wide;
  std::optional<std::array<int64_t, 3>> required;
  if (kernel.requiresLocalSize) required = kernel.localSize;
  std::string function = dialect_.kernelQualifier(required) + " " + kernel.name + "(";
  for (size_t i = 0; i < params.size(); ++i) function += (i ? ", " : "") + kir::spellWidth(params[i], wide);
  function += ") {\n";
  kir::Stmts statements;
  if (wide)
    for (const arith::Expr &s : program_.sizes)
      statements.push_back({kir::Let{dialect_.wideIndexType(), s.varName(), wideSizeParameter(s.varName())}});
  statements.insert(statements.end(), body.statements.begin(), body.statements.end());
  return function + kir::print(statements, dialect_, 1) + "}\n";
}

std::string assembleSource(const Dialect &dialect, const std::vector<SourceParts> &kernels) {
  bool usesDouble = false, wide = false, inlineUserFuns = false, borderUserFuns = false;
  std::vector<const cfun::Function *> userFuns;
  std::set<std::string> defined;
  for (const SourceParts &k : kernels) {
    usesDouble = usesDouble || k.usesDouble;
    wide = wide || k.wideIndices;
    // Inlined wherever one kernel wants it (boundary specialisation).
    inlineUserFuns = inlineUserFuns || k.inlineUserFuns;
    borderUserFuns = borderUserFuns || k.borderUserFuns;
    for (const cfun::Function &f : k.userFuns)
      if (defined.insert(f.name()).second) userFuns.push_back(&f);
  }
  std::string source = "// Generated by liftcc.\n" + dialect.preamble(usesDouble);
  if (wide) {
    std::string type = dialect.wideIndexType(), qualifier = dialect.userFunQualifier();
    source += "\n" + qualifier + type + " liftcc_min(" + type + " a, " + type + " b) { return a < b ? a : b; }\n" +
              qualifier + type + " liftcc_max(" + type + " a, " + type + " b) { return a > b ? a : b; }\n";
  }
  for (const cfun::Function *f : userFuns) {
    // The verbatim body, unless it converts floating values to int: C leaves
    // NaN and out-of-range values undefined there, the interpreter saturates.
    std::string body = f->convertsFloatingToInt()
                           ? f->bodyWithConversions([&dialect](ScalarKind from, const std::string &operand) {
                               return dialect.saturatingToInt(from, operand);
                             })
                           : f->body();
    std::string qualifier = inlineUserFuns ? dialect.inlineUserFunQualifier() : dialect.userFunQualifier();
    source += "\n" + qualifier + f->signatureC() + " {\n" + indentBody(body) + "}\n";
    if (borderUserFuns) source += borderUserFunDefinition(*f, dialect);
  }
  // Vector types and lane-wise functions after the scalar user functions
  // they call; kernels sharing a source share them.
  std::set<std::string> vectorDefined;
  for (const SourceParts &k : kernels)
    for (const std::string &t : k.vectorTypes)
      if (vectorDefined.insert(t).second) source += t;
  std::string qualifier = inlineUserFuns ? dialect.inlineUserFunQualifier() : dialect.userFunQualifier();
  for (const SourceParts &k : kernels)
    for (const std::string &f : k.vectorUserFuns)
      if (vectorDefined.insert(f).second) source += "\n" + qualifier + f;
  for (const SourceParts &k : kernels) source += "\n" + k.kernelFunction;
  return source;
}

WriteTarget Generator::outputComponents(const Type &resultType, Kernel &kernel, std::vector<std::string> &params) {
  if (program_.body().isPrim(Op::Iterate))
    fail("/body", "iterate over a tuple is compiled over a tuple of distinct program inputs holding arrays of "
                  "scalars, each exchanged with its output between launches; found state of type " +
                      inputOf(program_.body()).typeOrThrow().str());
  std::vector<Type> parts = components(resultType);
  std::vector<std::string> names;
  for (const Type &part : parts) {
    ScalarKind kind = elementKind(part, "a component of the result");
    if (kind == ScalarKind::Double) usesDouble_ = true;
    names.push_back(freshName("out"));
    params.push_back(dialect_.globalPointer(kind, false) + " " + names.back());
    kernel.args.push_back({names.back(), KernelArg::Role::Output, kind, elementCount(part)});
  }
  // The tuple steps of a scalar's path pick its component, the array steps
  // index it.
  return [this, names, parts, resultType](const AccessPath &path) {
    size_t component = 0;
    AccessPath indices;
    Type type = resultType;
    for (const PathStep &step : path) {
      if (step.isTuple) {
        for (int k = 0; k < step.component; ++k) component += componentCount(type.tupleElements().at(k));
        type = type.tupleElements().at(step.component);
      } else {
        indices.push_back(step);
        type = type.arrayElement();
      }
    }
    arith::Expr offset = linearize(parts.at(component), indices, "/body");
    return bufferElement(names.at(component) + "[" + bufferIndex(offset) + "]", names.at(component), offset);
  };
}

std::string Generator::index(const arith::Expr &e) { return simplifiedIndex(arith::simplify(e)); }

std::string Generator::indexType() const { return kir::choiceText({"int", dialect_.wideIndexType()}); }

std::string Generator::indexBuiltin(std::string (Dialect::*builtin)(int, const std::string &) const, int d) const {
  return kir::choiceText({(dialect_.*builtin)(d, "int"), (dialect_.*builtin)(d, dialect_.wideIndexType())});
}

std::string Generator::spelledIndex(const arith::Expr &s, bool fitsNarrow) const {
  // min/max of an int literal and a 64-bit index are ambiguous overloads in
  // CUDA and OpenCL C: wide kernels call their own 64-bit versions.
  std::string narrow = s.str(), wide = s.str(cfun::kGeneratedPrefix);
  if (fitsNarrow && narrow == wide) return narrow;
  return kir::choiceText({narrow, wide, fitsNarrow});
}

std::string Generator::simplifiedIndex(const arith::Expr &s) {
  if (!needsWide_) {
    // C evaluates every subexpression in the index type, so each must fit,
    // not only the result (a*K - b*K can be small while a*K overflows).
    std::function<bool(const arith::Expr &)> fits = [&](const arith::Expr &x) {
      if (provenNarrow_.count(x)) return true;
      auto lo = arith::constantLowerBound(x), hi = arith::constantUpperBound(x);
      if (!lo || !hi || *lo < INT32_MIN || *hi > INT32_MAX) return false;
      for (const arith::Expr &operand : x.operands())
        if (!fits(operand)) return false;
      provenNarrow_.insert(x);
      return true;
    };
    if (!fits(s)) needsWide_ = true;
  }
  return spelledIndex(s, !needsWide_);
}

bool Generator::readsOpaqueIndex(const arith::Expr &e) const {
  if (e.kind() == arith::Kind::Variable) return opaqueIndices_.count(e.varName()) > 0;
  for (const arith::Expr &operand : e.operands())
    if (readsOpaqueIndex(operand)) return true;
  return false;
}

std::string Generator::bufferIndex(const arith::Expr &offset) {
  // Simplified once: the index, its terms and its base (a canonical sum
  // without its constant) are all canonical already.
  arith::Expr s = arith::simplify(offset);
  std::string full = simplifiedIndex(s);
  arith::Expr base = s;
  int64_t constant = 0;
  if (s.kind() == arith::Kind::Sum) {
    arith::Expr rest(0);
    for (const arith::Expr &term : s.operands()) {
      if (term.isConstant())
        constant = term.constant();
      else
        rest = rest + term;
    }
    base = rest;
  }
  // A lone variable needs no name; a base C could not evaluate in the
  // kernel's index type keeps the whole index (it fits where the base may not).
  if (base.kind() == arith::Kind::Variable || base.isConstant() || readsOpaqueIndex(base)) return full;
  if (constant < INT32_MIN || constant > INT32_MAX) return full;
  // A 32-bit kernel names only a base proved to fit (kir::spellWidth).
  auto lo = arith::constantLowerBound(base), hi = arith::constantUpperBound(base);
  bool baseFits = lo && hi && *lo >= INT32_MIN && *hi <= INT32_MAX;
  // The base's width decides nothing (it is named only where it fits or the
  // kernel is 64-bit): spelled as fitting.
  std::string baseText = spelledIndex(base, true);
  auto [named, fresh] = indexNames_.try_emplace(baseText);
  if (fresh) named->second = freshName("idx");
  return kir::holeText({named->second, indexType(), baseText, constant, full, baseFits});
}

cfun::Function Generator::emittedUserFun(const std::string &name) const {
  cfun::Function f = userFuns_.at(name);
  if (options_.divToMul) f = f.divisionsAsMultiplications();
  if (options_.fastMath == FastMath::Reassociate) f = f.regroupedSums();
  return f;
}

size_t iteratedInput(const Program &typedProgram) {
  const Expr &over = inputOf(typedProgram.body());
  for (size_t i = 0; i < typedProgram.inputs().size(); ++i)
    if (over.is(ExprKind::Param) && over.sameNode(typedProgram.inputs()[i])) return i;
  fail("/body/in", "iterate is supported over a program input (the host swaps its buffer with the output)");
}

Kernel generateKernel(const Program &typedProgram, Target target, const CodegenOptions &options) {
  if (std::optional<Expr> read = stateInputReadByStep(typedProgram)) fail("/body/f", stateInputReadMessage(*read));
  std::optional<AfterLoop> afterLoop = splitAfterLoop(typedProgram);
  if (options.countGlobalLoads &&
      (afterLoop || hasStages(typedProgram) || iteratesStages(typedProgram) || iteratesTuple(typedProgram)))
    fail("/body", "counting global loads (CodegenOptions::countGlobalLoads) supports single-kernel programs only, "
                  "not one with an intermediate array in global memory");
  if (afterLoop) return generateAfterLoop(*afterLoop, target, options);
  if (loopsOverComputedState(typedProgram))
    if (std::optional<BeforeLoop> split = splitBeforeLoop(typedProgram)) {
      if (options.countGlobalLoads)
        fail("/body", "counting global loads (CodegenOptions::countGlobalLoads) supports single-kernel programs "
                      "only, not a loop over a state computed before it");
      return generateBeforeLoop(*split, target, options);
    }
  if (iteratesTuple(typedProgram)) return generateIteratedTuple(typedProgram, target, options);
  if (iteratesInPhases(typedProgram)) return generatePhases(typedProgram, target, options);
  if (hasStages(typedProgram)) return generateStages(typedProgram, target, options);
  if (iteratesStages(typedProgram)) return generateIteratedStages(typedProgram, target, options);
  return generateOneKernel(typedProgram, target, options, nullptr);
}

} // namespace liftcc::codegen
