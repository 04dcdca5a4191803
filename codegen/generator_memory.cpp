// Materialisation: the only places a kernel allocates memory besides its
// output are the intermediate arrays a program computes and then reads
// through a view (e.g. a local-memory tile read by slide).

#include "codegen/generator.h"
#include "primitives/api.h"

#include <algorithm>

namespace liftcc::codegen {

namespace {
[[noreturn]] void fail(const std::string &where, const std::string &message) { throw CodegenError(where, message); }
} // namespace

Expr Generator::prepare(const Expr &e, Env &env, const Scope &scope, const std::string &where) {
  PreparedNodes prepared;
  return prepareOnce(e, env, scope, where, prepared);
}

Expr Generator::prepareOnce(const Expr &e, Env &env, const Scope &scope, const std::string &where,
                            PreparedNodes &prepared) {
  // A computed value read several times in one expression (an iterate's
  // state read per component) is materialised once: equal expressions
  // (structurally, their free parameters the same nodes) over one
  // environment are the same value.
  if (!isCompute(e)) return prepareNode(e, env, scope, where, prepared);
  if (auto known = prepared.find(e); known != prepared.end()) return known->second;
  Expr out = prepareNode(e, env, scope, where, prepared);
  prepared.emplace(e, out);
  return out;
}

Expr Generator::prepareNode(const Expr &e, Env &env, const Scope &scope, const std::string &where,
                            PreparedNodes &prepared) {
  if (isCompute(e)) {
    const Type &type = e.typeOrThrow();
    if (type.isArray() && type.arrayElement().isTuple()) return materializeComponents(e, env, scope, where);
    MemoryBinding memory = materialize(e, env, scope, where);
    Expr param = Expr::param(memory.name, e.typeOrThrow());
    env = env.bind(param, memory);
    return param;
  }
  if (!e.is(ExprKind::Apply) && !e.is(ExprKind::Prim)) return e;
  // Rebuild with prepared data operands; functions stay as they are.
  size_t functionCount = e.is(ExprKind::Apply) ? 1 : e.funs().size();
  std::vector<Child> children = e.children();
  std::vector<Expr> rebuilt;
  bool changed = false;
  for (size_t i = 0; i < children.size(); ++i) {
    if (i < functionCount) {
      rebuilt.push_back(*children[i].expr);
      continue;
    }
    rebuilt.push_back(prepareOnce(*children[i].expr, env, scope, where + children[i].path, prepared));
    changed = changed || !rebuilt.back().sameNode(*children[i].expr);
  }
  if (!changed) return e;
  return e.withChildren(std::move(rebuilt)).withType(e.typeOrThrow());
}

Expr Generator::materializeComponents(const Expr &e, Env &env, const Scope &scope, const std::string &where) {
  const Type &type = e.typeOrThrow();
  const arith::Expr n = type.arrayLength();
  const std::vector<Type> &elements = type.arrayElement().tupleElements();
  if (e.isPrim(Op::ToLocal) || e.isPrim(Op::ToGlobal) || scope.workGroupUniform() || !n.isConstant() ||
      n.constant() * static_cast<int64_t>(elements.size()) > kMaxPrivateScalars ||
      !std::all_of(elements.begin(), elements.end(), [](const Type &t) { return t.isScalar(); }))
    fail(where, "cannot store an array of tuples (" + type.str() +
                    ") in memory, except a work-item's small array of tuples of scalars in private memory");
  // One private array per component, read through their zip: a structure of arrays.
  std::vector<MemoryBinding> parts;
  std::vector<Expr> params;
  for (const Type &element : elements) {
    if (element.scalarKind() == ScalarKind::Double) usesDouble_ = true;
    parts.push_back({freshName("priv"), Type::array(element, n), AddressSpace::Private});
    body_.privateArray(element.scalarKind(), parts.back().name, n.str());
    params.push_back(Expr::param(parts.back().name, parts.back().type));
    env = env.bind(params.back(), parts.back());
  }
  WriteTarget target = [this, parts, where](const AccessPath &path) {
    if (path.size() != 2 || path[0].isTuple || !path[1].isTuple)
      throw InternalError(where, "a tuple element written without its component");
    const MemoryBinding &part = parts.at(static_cast<size_t>(path[1].component));
    arith::Expr offset = linearize(part.type, {path[0]}, where);
    return bufferElement(part.name + "[" + bufferIndex(offset) + "]", part.name, offset, part.space);
  };
  gen(e, env, target, scope, where);
  Expr zipped = Expr::param(freshName("tuples"), type);
  env = env.bind(zipped, ViewBinding{api::zip(params).withType(type), share(env), {}});
  return zipped;
}

MemoryBinding Generator::materialize(const Expr &e, const Env &env, const Scope &scope, const std::string &where) {
  AddressSpace space = AddressSpace::Private;
  if (e.isPrim(Op::ToLocal))
    space = AddressSpace::Local;
  else if (e.isPrim(Op::ToGlobal))
    space = AddressSpace::Global;
  else if (!e.isPrim(Op::ToPrivate) && scope.workGroupUniform())
    fail(where, "an intermediate array computed by a work-group must be placed with toLocal");

  const Type &type = e.typeOrThrow();
  Type element = type;
  arith::Expr count(1);
  while (element.isArray()) {
    count = count * element.arrayLength();
    element = element.arrayElement();
  }
  if (!element.isScalar()) fail(where, "cannot store an array of tuples (" + type.str() + ") in memory");
  ScalarKind kind = element.scalarKind();
  if (kind == ScalarKind::Double) usesDouble_ = true;

  std::string name;
  switch (space) {
  case AddressSpace::Global:
    fail(where, "materialising an intermediate array in global memory needs a global barrier (a separate "
                "kernel), which is not supported; use toLocal or toPrivate");
  case AddressSpace::Local: {
    if (!scope.workGroupUniform())
      fail(where, "toLocal must be used by a whole work-group: inside mapWrg, outside mapLcl and sequential loops");
    if (!count.isConstant())
      fail(where, "the local array of type " + type.str() + " needs a constant size; choose constant tile sizes");
    name = freshName("tile");
    localDeclarations_.push_back({kir::ArrayDecl{kir::ArraySpace::Local, kind, name, count.str()}});
    localBytes_ += count.constant() * (kind == ScalarKind::Double ? 8 : kind == ScalarKind::Bool ? 1 : 4);
    break;
  }
  case AddressSpace::Private:
    if (scope.workGroupUniform())
      fail(where, "toPrivate inside mapWrg must be nested in mapLcl (each work-item owns its private memory)");
    if (!count.isConstant()) fail(where, "the private array of type " + type.str() + " needs a constant size");
    // An intermediate sized by the problem never goes to one work-item's
    // private memory (PoCL crashed at 2048 floats; GPUs spill far earlier):
    // it needs a kernel of its own, which the recipes make of every
    // intermediate outside a function (rewrite/stages.h).
    if (count.constant() > kMaxPrivateScalars)
      fail(where, "the intermediate array of type " + type.str() + " has " + count.str() +
                      " scalars, more than a work-item's private memory holds (" + std::to_string(kMaxPrivateScalars) +
                      "); compute it outside the per-element function so that it becomes a kernel of its own");
    name = freshName("priv");
    body_.privateArray(kind, name, count.str());
    break;
  }

  MemoryBinding memory{name, type, space};
  WriteTarget target = [this, memory, where](const AccessPath &path) {
    arith::Expr offset = linearize(memory.type, path, where);
    return bufferElement(memory.name + "[" + bufferIndex(offset) + "]", memory.name, offset, memory.space);
  };
  gen(e, env, target, scope, where);
  if (space == AddressSpace::Local) {
    // Every work-item must see the whole tile before anyone reads it; we are
    // in work-group-uniform code, so the barrier is reached by all.
    body_.barrier();
  }
  return memory;
}

} // namespace liftcc::codegen
