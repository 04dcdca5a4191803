// C syntax with minimal parentheses. The output is valid OpenCL/CUDA index
// arithmetic and parse(e.str()) == e for canonical e.

#include "core/arith/internal.h"

namespace liftcc::arith {

namespace {

// Binding strength of what print() emits at the top of an expression.
enum Prec { kAdditive = 1, kMultiplicative = 2, kUnary = 3, kAtom = 4 };

Prec precedence(const Expr &e) {
  switch (e.kind()) {
  case Kind::Constant: return e.constant() < 0 ? kUnary : kAtom;
  case Kind::Sum: return kAdditive;
  case Kind::Product:
  case Kind::Div:
  case Kind::Mod: return kMultiplicative;
  case Kind::Variable:
  case Kind::Min:
  case Kind::Max:
  case Kind::Select: return kAtom;
  }
  return kAtom;
}

const char *cmpText(CmpOp op) {
  switch (op) {
  case CmpOp::Lt: return " < ";
  case CmpOp::Le: return " <= ";
  case CmpOp::Eq: return " == ";
  case CmpOp::Ne: return " != ";
  case CmpOp::Ge: return " >= ";
  case CmpOp::Gt: return " > ";
  }
  return " ? ";
}

/// How calls are spelled: `prefix` goes before min and max (the generator's
/// own 64-bit versions in wide kernels).
struct Style {
  std::string_view callPrefix;
};

void print(const Expr &e, const Style &style, std::string &out);

void printAtLeast(const Expr &e, Prec needed, const Style &style, std::string &out) {
  if (precedence(e) >= needed) return print(e, style, out);
  out += '(';
  print(e, style, out);
  out += ')';
}

/// coeff * factors. A Div/Mod factor needs parentheses unless it is the very
/// first thing printed: `a / b*x` is (a/b)*x, but `x*a / b` is (x*a)/b.
void printProduct(int64_t coeff, std::span<const Expr> factors, const Style &style, std::string &out) {
  bool first = true;
  if (coeff == -1) {
    out += '-';
    first = false;
  } else if (coeff != 1) {
    out += std::to_string(coeff);
    out += '*';
    first = false;
  }
  for (size_t i = 0; i < factors.size(); ++i) {
    if (i > 0) out += '*';
    printAtLeast(factors[i], first && i == 0 ? kMultiplicative : kUnary, style, out);
  }
}

void print(const Expr &e, const Style &style, std::string &out) {
  const std::vector<Expr> &ops = e.operands();
  switch (e.kind()) {
  case Kind::Constant: out += std::to_string(e.constant()); return;
  case Kind::Variable: out += e.varName(); return;
  case Kind::Sum:
    for (size_t i = 0; i < ops.size(); ++i) {
      const TermView v = viewTerm(ops[i]);
      if (i > 0 && v.coeff < 0) {
        // `a - 2*b` rather than `a + -2*b`.
        out += " - ";
        if (v.factors.empty())
          out += std::to_string(wrapNeg(v.coeff));
        else
          printProduct(wrapNeg(v.coeff), v.factors, style, out);
        continue;
      }
      if (i > 0) out += " + ";
      printAtLeast(ops[i], kMultiplicative, style, out);
    }
    return;
  case Kind::Product: {
    const TermView v = viewTerm(e);
    printProduct(v.coeff, v.factors, style, out);
    return;
  }
  case Kind::Div:
  case Kind::Mod:
    printAtLeast(ops[0], kMultiplicative, style, out);
    out += e.kind() == Kind::Div ? " / " : " % ";
    printAtLeast(ops[1], kUnary, style, out);
    return;
  case Kind::Min:
  case Kind::Max:
    out += style.callPrefix;
    out += e.kind() == Kind::Min ? "min(" : "max(";
    print(ops[0], style, out);
    out += ", ";
    print(ops[1], style, out);
    out += ')';
    return;
  case Kind::Select:
    // Always parenthesised: ?: binds weaker than everything else.
    out += '(';
    print(ops[0], style, out);
    out += cmpText(e.selectCmp());
    print(ops[1], style, out);
    out += " ? ";
    print(ops[2], style, out);
    out += " : ";
    print(ops[3], style, out);
    out += ')';
    return;
  }
}

} // namespace

std::string Expr::str() const { return str(""); }

std::string Expr::str(std::string_view callPrefix) const {
  std::string out;
  print(*this, Style{callPrefix}, out);
  return out;
}

} // namespace liftcc::arith
