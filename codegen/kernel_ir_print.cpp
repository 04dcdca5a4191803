#include "codegen/kernel_ir_print.h"

#include "codegen/index_holes.h"
#include "core/error.h"

namespace liftcc::codegen::kir {

namespace {

class Printer {
public:
  explicit Printer(const Dialect &dialect) : dialect_(dialect) {}

  void statements(const Stmts &list, int depth) {
    for (const Stmt &s : list) statement(s, depth);
  }
  std::string text() const { return out_; }

private:
  // Index holes no pass named are spelled as the index text they stand for;
  // width choices only the index-width pass can spell.
  void line(int depth, const std::string &text) {
    if (hasWidthChoice(text))
      throw InternalError("/kernel", "the kernel IR is printed before the index width pass spelled its index texts");
    out_ += std::string(2 * depth, ' ') + spellHoles(text) + "\n";
  }
  void scope(int depth, const std::string &header, const Stmts &body) {
    line(depth, header.empty() ? "{" : header + " {");
    statements(body, depth + 1);
  }

  void statement(const Stmt &s, int depth) {
    std::visit([&](const auto &node) { print(node, depth); }, s.node);
  }

  void print(const Block &b, int depth) {
    scope(depth, "", b.body);
    line(depth, "}");
  }
  void print(const Let &l, int depth) {
    line(depth, (l.constant ? "const " : "") + l.type + " " + l.name + " = " + l.init + ";");
  }
  void print(const Assign &a, int depth) {
    std::string assignment = a.target + " = " + a.value + ";";
    line(depth, a.guard.empty() ? assignment : "if (" + a.guard + ") " + assignment);
  }
  void print(const VectorStore &v, int depth) {
    if (dialect_.hasVectorLoads())
      line(depth, "vstore" + std::to_string(v.width) + "(" + v.value + ", 0, " + v.buffer + " + (" + v.offset + "));");
    else
      line(depth, dialect_.alignedVectorAccess(v.vectorType, v.buffer, false, v.offset) + " = " + v.value + ";");
  }
  void print(const If &i, int depth) {
    scope(depth, "if (" + i.condition + ")", i.then);
    if (i.otherwise) {
      line(depth, "} else {");
      statements(*i.otherwise, depth + 1);
    }
    line(depth, "}");
  }
  void print(const For &f, int depth) {
    std::string step = f.step == "1" ? "++" : " += " + f.step;
    scope(depth,
          "for (" + f.type + " " + f.var + " = " + f.start + "; " + f.var + " < " + f.bound + "; " + f.var + step + ")",
          f.body);
    line(depth, "}");
  }
  void print(const Barrier &, int depth) { line(depth, dialect_.localBarrier()); }
  void print(const ArrayDecl &a, int depth) {
    line(depth, a.space == ArraySpace::Local ? dialect_.localArray(a.kind, a.name, a.count)
                                             : dialect_.privateArray(a.kind, a.name, a.count));
  }
  void print(const Raw &r, int depth) { line(depth, r.text); }

  const Dialect &dialect_;
  std::string out_;
};

} // namespace

std::string print(const Stmts &statements, const Dialect &dialect, int depth) {
  Printer printer(dialect);
  printer.statements(statements, depth);
  return printer.text();
}

} // namespace liftcc::codegen::kir
