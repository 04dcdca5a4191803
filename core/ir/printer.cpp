#include "core/ir/printer.h"

#include <map>
#include <set>
#include <unordered_map>

namespace liftcc {

namespace {

constexpr size_t kLineWidth = 100;

class Printer {
public:
  std::string print(const Expr &e, int indent) {
    std::string flat = render(e, indent, false);
    if (flat.size() + static_cast<size_t>(indent) <= kLineWidth) return flat;
    return render(e, indent, true);
  }

  std::string bindName(const Expr &p) {
    auto it = names_.find(p.id());
    if (it != names_.end()) return it->second;
    std::string name = p.name();
    for (int k = 1; used_.count(name); ++k) name = p.name() + std::to_string(k);
    used_.insert(name);
    return names_[p.id()] = name;
  }

  std::map<std::string, cfun::Function> userFuns;

private:
  std::string call(const std::string &head, const std::vector<std::string> &flatArgs,
                   const std::vector<const Expr *> &exprArgs, int indent, bool broken) {
    if (!broken) {
      std::string s = head + "(";
      for (size_t i = 0; i < flatArgs.size(); ++i) s += (i ? ", " : "") + flatArgs[i];
      return s + ")";
    }
    std::string pad(static_cast<size_t>(indent + 2), ' ');
    std::string s = head + "(\n";
    for (size_t i = 0; i < flatArgs.size(); ++i) {
      std::string arg = exprArgs[i] ? print(*exprArgs[i], indent + 2) : flatArgs[i];
      s += pad + arg + (i + 1 < flatArgs.size() ? ",\n" : ")");
    }
    return s;
  }

  std::string render(const Expr &e, int indent, bool broken) {
    switch (e.kind()) {
    case ExprKind::Param: return bindName(e);
    case ExprKind::Literal: return toCLiteral(e.literal());
    case ExprKind::UserFun: userFuns.emplace(e.userFun().name(), e.userFun()); return e.userFun().name();
    case ExprKind::Lambda: {
      std::string head = "\\";
      for (size_t i = 0; i < e.params().size(); ++i) {
        const Expr &p = e.params()[i];
        head += (i ? ", " : "") + bindName(p);
        if (p.type()) head += ": " + p.type()->str();
      }
      head += ". ";
      if (!broken) return head + render(e.body(), indent, false);
      return head + print(e.body(), indent + 2);
    }
    case ExprKind::Apply: {
      std::vector<std::string> flat;
      std::vector<const Expr *> exprs;
      for (const Expr &a : e.args()) {
        flat.push_back(render(a, indent, false));
        exprs.push_back(&a);
      }
      std::string f = render(e.fun(), indent, false);
      if (e.fun().is(ExprKind::Lambda)) f = "(" + f + ")";
      return call(f, flat, exprs, indent, broken);
    }
    case ExprKind::Prim: {
      const OpInfo &info = e.info();
      std::vector<std::string> flat;
      std::vector<const Expr *> exprs;
      if (info.attr == AttrKind::Dim) {
        flat.push_back(std::to_string(e.attr()));
        exprs.push_back(nullptr);
      }
      for (const arith::Expr &s : e.sizes()) {
        flat.push_back(s.str());
        exprs.push_back(nullptr);
      }
      if (info.attr == AttrKind::TupleIndex) {
        flat.push_back(std::to_string(e.attr()));
        exprs.push_back(nullptr);
      }
      if (info.hasPadMode) {
        flat.push_back(std::string(padModeName(e.padMode())));
        exprs.push_back(nullptr);
      }
      for (const Expr &f : e.funs()) {
        flat.push_back(render(f, indent, false));
        exprs.push_back(&f);
      }
      for (const Expr &a : e.args()) {
        flat.push_back(render(a, indent, false));
        exprs.push_back(&a);
      }
      return call(std::string(info.name), flat, exprs, indent, broken);
    }
    }
    return "?";
  }

  std::set<std::string> used_;
  std::unordered_map<const void *, std::string> names_;
};

} // namespace

std::string printExpr(const Expr &e) { return Printer().print(e, 0); }

std::string printProgram(const Program &program) {
  Printer printer;
  std::string signature = "fun(";
  for (size_t i = 0; i < program.inputs().size(); ++i) {
    const Expr &in = program.inputs()[i];
    signature += (i ? ", " : "") + printer.bindName(in) + (in.type() ? ": " + in.type()->str() : "");
  }
  signature += ")";
  if (program.body().type()) signature += " -> " + program.body().type()->str();
  std::string body = printer.print(program.body(), 2);
  std::string out;
  if (!program.sizes.empty()) {
    out += "sizes:";
    for (const arith::Expr &s : program.sizes) out += " " + s.varName();
    out += "\n";
  }
  for (const auto &[name, f] : printer.userFuns) out += "userFun " + f.signatureC() + " { " + f.body() + " }\n";
  return out + signature + " =\n  " + body + "\n";
}

} // namespace liftcc
