#include "codegen/kernel_ir_passes.h"

#include <set>

namespace liftcc::codegen::kir {

namespace {

/// `statement` with `pass` applied to each statement list nested in it.
Stmt mapNested(const Stmt &statement, Stmts (*pass)(const Stmts &)) {
  if (const Block *b = statement.as<Block>()) return {Block{pass(b->body)}};
  if (const For *f = statement.as<For>()) {
    For copy = *f;
    copy.body = pass(f->body);
    return {copy};
  }
  if (const If *i = statement.as<If>()) {
    If copy = *i;
    copy.then = pass(i->then);
    if (i->otherwise) copy.otherwise = pass(*i->otherwise);
    return {copy};
  }
  return statement;
}

bool isTrue(const std::string &condition) { return condition == "1" || condition == "true"; }
bool isFalse(const std::string &condition) { return condition == "0" || condition == "false"; }

/// Whether a statement of `statements` declares a name (a Raw one may: its text is not read).
bool declaresAnything(const Stmts &statements) {
  for (const Stmt &s : statements)
    if (s.declaredName() || s.as<Raw>()) return true;
  return false;
}

} // namespace

Stmts foldConstantConditions(const Stmts &statements) {
  Stmts out;
  for (const Stmt &original : statements) {
    Stmt s = mapNested(original, foldConstantConditions);
    if (const If *i = s.as<If>()) {
      if (isTrue(i->condition)) {
        out.push_back({Block{i->then}});
        continue;
      }
      if (isFalse(i->condition)) {
        if (i->otherwise) out.push_back({Block{*i->otherwise}});
        continue;
      }
    }
    if (const Assign *a = s.as<Assign>(); a && isTrue(a->guard)) {
      out.push_back({Assign{a->target, a->value, ""}});
      continue;
    }
    if (const Assign *a = s.as<Assign>(); a && isFalse(a->guard)) continue;
    out.push_back(std::move(s));
  }
  return out;
}

Stmts flattenBlocks(const Stmts &statements) {
  Stmts out;
  std::set<std::string> declared; // by the statements of `out`, at this level
  for (size_t k = 0; k < statements.size(); ++k) {
    Stmt s = mapNested(statements[k], flattenBlocks);
    const Block *b = s.as<Block>();
    bool splice = false;
    if (b && !declaresAnything(b->body)) splice = true;
    if (b && k + 1 == statements.size()) {
      splice = true;
      for (const Stmt &inner : b->body)
        if (auto name = inner.declaredName(); (name && declared.count(*name)) || inner.as<Raw>()) splice = false;
    }
    if (!splice) {
      if (auto name = s.declaredName()) declared.insert(*name);
      out.push_back(std::move(s));
      continue;
    }
    for (const Stmt &inner : b->body) {
      if (auto name = inner.declaredName()) declared.insert(*name);
      out.push_back(inner);
    }
  }
  return out;
}

const std::vector<Pass> &passes() {
  static const std::vector<Pass> list{
      {"fold constant conditions", foldConstantConditions},
      {"flatten blocks", flattenBlocks},
  };
  return list;
}

Stmts simplify(const Stmts &statements) {
  Stmts current = statements;
  for (const Pass &pass : passes()) current = pass.run(current);
  return current;
}

} // namespace liftcc::codegen::kir
