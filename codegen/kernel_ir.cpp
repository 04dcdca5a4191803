#include "codegen/kernel_ir.h"

namespace liftcc::codegen::kir {

std::optional<std::string> Stmt::declaredName() const {
  if (const Let *let = as<Let>()) return let->name;
  if (const ArrayDecl *array = as<ArrayDecl>()) return array->name;
  return std::nullopt;
}

void Builder::let(std::string type, std::string name, std::string init, bool constant) {
  append({Let{std::move(type), std::move(name), std::move(init), constant}});
}

void Builder::assign(std::string target, std::string value, std::string guard) {
  append({Assign{std::move(target), std::move(value), std::move(guard)}});
}

void Builder::vectorStore(VectorStore store) { append({std::move(store)}); }

void Builder::barrier() { append({Barrier{}}); }

void Builder::privateArray(ScalarKind kind, std::string name, std::string count) {
  append({ArrayDecl{ArraySpace::Private, kind, std::move(name), std::move(count)}});
}

void Builder::raw(std::string text) { append({Raw{std::move(text)}}); }

Stmts Builder::nested(const std::function<void()> &emit) {
  open_.emplace_back();
  try {
    emit();
  } catch (...) {
    // The generator that threw is discarded; keep the builder consistent anyway.
    open_.pop_back();
    throw;
  }
  Stmts body = std::move(open_.back());
  open_.pop_back();
  return body;
}

void Builder::forLoop(std::string type, std::string var, std::string start, std::string bound, std::string step,
                      const std::function<void()> &body) {
  Stmts statements = nested(body);
  append({For{std::move(type), std::move(var), std::move(start), std::move(bound), std::move(step),
              std::move(statements)}});
}

void Builder::ifThen(std::string condition, const std::function<void()> &then) {
  Stmts statements = nested(then);
  append({If{std::move(condition), std::move(statements), std::nullopt}});
}

void Builder::scope(const std::function<void()> &body) { append({Block{nested(body)}}); }

} // namespace liftcc::codegen::kir
