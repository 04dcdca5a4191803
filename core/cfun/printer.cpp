#include "core/cfun/printer.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>

namespace liftcc::cfun {

namespace {

bool isFloatingSum(const ir::Expr &e) {
  return e.kind == ir::ExprKind::Arith && (e.arith == ir::ArithOp::Add || e.arith == ir::ArithOp::Sub) &&
         isFloating(e.type);
}

/// The number of terms of the sum rooted at `e` (1 for any other expression).
size_t sumTerms(const ir::Expr &e) {
  if (!isFloatingSum(e)) return 1;
  auto operandTerms = [&](const ir::Expr &operand) { return operand.type == e.type ? sumTerms(operand) : 1; };
  return operandTerms(*e.a) + operandTerms(*e.b);
}

class Printer {
public:
  Printer(const ir::Program &program, const std::vector<Param> &params,
          const std::function<std::string(ScalarKind, const std::string &)> &floatingToInt, PrintRewrites rewrites)
      : program_(program), floatingToInt_(floatingToInt), rewrites_(rewrites) {
    for (const Param &p : params) names_.push_back(p.name);
    // Locals get fresh names that no parameter has (parameters are
    // identifiers, so a trailing underscore keeps them apart).
    for (size_t slot = params.size(); slot < program.slotTypes.size(); ++slot) {
      std::string name = "local" + std::to_string(slot) + "_";
      for (const std::string &p : names_)
        if (p == name) name += "_";
      names_.push_back(name);
    }
    paramCount_ = params.size();
  }

  std::string body() {
    std::string out;
    // Every path assigns a local before reading it (the checker requires an
    // initialiser), so declaring all at the top with a zero is equivalent.
    for (size_t slot = paramCount_; slot < program_.slotTypes.size(); ++slot)
      out += std::string(scalarKindName(program_.slotTypes[slot])) + " " + names_[slot] + " = " +
             zero(program_.slotTypes[slot]) + ";\n";
    for (const ir::Stmt *s : program_.body->body) out += stmt(*s, "");
    return out;
  }

private:
  static std::string zero(ScalarKind kind) {
    switch (kind) {
    case ScalarKind::Bool: return "false";
    case ScalarKind::Int: return "0";
    case ScalarKind::Float: return "0.0f";
    case ScalarKind::Double: return "0.0";
    }
    return "0";
  }

  static std::string floating(double v, bool isFloat) {
    if (std::isnan(v)) return isFloat ? "(0.0f / 0.0f)" : "(0.0 / 0.0)";
    if (std::isinf(v)) return std::string(v < 0 ? "(-" : "(") + (isFloat ? "1.0f / 0.0f)" : "1.0 / 0.0)");
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, isFloat ? "%.9g" : "%.17g", v);
    std::string text = buffer;
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    return "(" + text + (isFloat ? "f" : "") + ")";
  }

  static std::string constant(const Scalar &s) {
    switch (s.kind()) {
    case ScalarKind::Bool: return s.asBool() ? "true" : "false";
    case ScalarKind::Int:
      if (s.asInt() == INT_MIN) return "(-2147483647 - 1)";
      return "(" + std::to_string(s.asInt()) + ")";
    case ScalarKind::Float: return floating(s.asFloat(), true);
    case ScalarKind::Double: return floating(s.asDouble(), false);
    }
    return "0";
  }

  static const char *arithOp(ir::ArithOp op) {
    switch (op) {
    case ir::ArithOp::Add: return " + ";
    case ir::ArithOp::Sub: return " - ";
    case ir::ArithOp::Mul: return " * ";
    case ir::ArithOp::Div: return " / ";
    case ir::ArithOp::Rem: return " % ";
    }
    return " ? ";
  }

  static const char *compareOp(ir::CompareOp op) {
    switch (op) {
    case ir::CompareOp::Lt: return " < ";
    case ir::CompareOp::Le: return " <= ";
    case ir::CompareOp::Gt: return " > ";
    case ir::CompareOp::Ge: return " >= ";
    case ir::CompareOp::Eq: return " == ";
    case ir::CompareOp::Ne: return " != ";
    }
    return " ? ";
  }

  static std::string builtinName(Builtin id) {
    for (std::string_view name :
         {"sqrt", "exp", "log", "pow", "fabs", "fmin", "fmax", "floor", "ceil", "sin", "cos", "tan", "min", "max"})
      if (const BuiltinInfo *b = findBuiltin(name); b && b->id == id) return std::string(name);
    return "?";
  }

  std::string expr(const ir::Expr &e) {
    switch (e.kind) {
    case ir::ExprKind::Const: return constant(e.value);
    case ir::ExprKind::Load: return names_[static_cast<size_t>(e.slot)];
    case ir::ExprKind::Neg: return "(-" + expr(*e.a) + ")";
    case ir::ExprKind::Not: return "(!" + expr(*e.a) + ")";
    case ir::ExprKind::Arith:
      if (regroups(e)) {
        std::vector<SignedTerm> terms;
        collectTerms(e, false, terms);
        return regrouped(terms);
      }
      return "(" + chain(e) + ")";
    case ir::ExprKind::Compare: return "(" + expr(*e.a) + compareOp(e.compare) + expr(*e.b) + ")";
    case ir::ExprKind::And: return "(" + expr(*e.a) + " && " + expr(*e.b) + ")";
    case ir::ExprKind::Or: return "(" + expr(*e.a) + " || " + expr(*e.b) + ")";
    case ir::ExprKind::Conditional: return "(" + expr(*e.a) + " ? " + expr(*e.b) + " : " + expr(*e.c) + ")";
    case ir::ExprKind::Convert: {
      ScalarKind from = e.a->type;
      if (e.type == ScalarKind::Int && isFloating(from)) return floatingToInt_(from, expr(*e.a));
      return "((" + std::string(scalarKindName(e.type)) + ")" + expr(*e.a) + ")";
    }
    case ir::ExprKind::Call: {
      std::string out = builtinName(e.builtin) + "(";
      for (size_t i = 0; i < e.args.size(); ++i) out += (i ? ", " : "") + expr(*e.args[i]);
      return out + ")";
    }
    }
    return "0";
  }

  bool regroups(const ir::Expr &e) const {
    return rewrites_.regroupSums && isFloatingSum(e) && sumTerms(e) >= kRegroupedSumTerms;
  }

  /// Additive or multiplicative.
  static int precedence(ir::ArithOp op) { return op == ir::ArithOp::Add || op == ir::ArithOp::Sub ? 1 : 2; }

  /// The arithmetic `e` without its outer parentheses. C groups operators of
  /// one precedence from the left (`a - b + c` is `(a - b) + c`), so a left
  /// operand of e's precedence is printed as a chain too: a sum of 729 terms
  /// (a radius-4 3D box) nests one level deep instead of 729, within what
  /// parsers allow (the C subset's 200 levels, Clang's 256 brackets).
  std::string chain(const ir::Expr &e) {
    const ir::Expr &left = *e.a;
    bool sameLevel = left.kind == ir::ExprKind::Arith && precedence(left.arith) == precedence(e.arith) &&
                     left.type == e.type && !regroups(left);
    std::string leftText = sameLevel ? chain(left) : expr(left);
    if (rewrites_.divisionsAsMultiplications && e.arith == ir::ArithOp::Div)
      if (std::optional<Scalar> inverse = inverseOfConstantDivisor(e)) return leftText + " * " + constant(*inverse);
    return leftText + arithOp(e.arith) + expr(*e.b);
  }

  /// A term of a sum: `negated` when it is subtracted.
  struct SignedTerm {
    const ir::Expr *expr;
    bool negated;
  };

  /// The terms of the chain of additions and subtractions of e's type
  /// rooted at `e`, left to right, with their signs.
  static void collectTerms(const ir::Expr &e, bool negated, std::vector<SignedTerm> &terms) {
    if (!isFloatingSum(e)) {
      terms.push_back({&e, negated});
      return;
    }
    auto sameSum = [&](const ir::Expr &operand) { return isFloatingSum(operand) && operand.type == e.type; };
    bool rightNegated = negated != (e.arith == ir::ArithOp::Sub);
    if (sameSum(*e.a))
      collectTerms(*e.a, negated, terms);
    else
      terms.push_back({e.a, negated});
    if (sameSum(*e.b))
      collectTerms(*e.b, rightNegated, terms);
    else
      terms.push_back({e.b, rightNegated});
  }

  /// The terms as left-to-right chains of ceil(sqrt(n)) consecutive terms,
  /// the chains' sums added left to right (25 terms: five chains of five). A
  /// chain that starts with a subtracted term is summed with its signs
  /// flipped and subtracted, so no negation is printed for a sum that had
  /// none.
  std::string regrouped(std::vector<SignedTerm> &terms) {
    const size_t n = terms.size();
    size_t chains = 1;
    while (chains * chains < n) ++chains;
    const size_t length = (n + chains - 1) / chains;
    std::string sum;
    for (size_t begin = 0; begin < n; begin += length) {
      const size_t end = std::min(n, begin + length);
      const bool subtracted = begin > 0 && terms[begin].negated;
      std::string chainText;
      for (size_t i = begin; i < end; ++i) {
        bool negated = terms[i].negated != subtracted;
        std::string term = expr(*terms[i].expr);
        if (i == begin)
          chainText = negated ? "(-" + term + ")" : term;
        else
          chainText += (negated ? " - " : " + ") + term;
      }
      // Chains after the first are parenthesised (that is the regrouping);
      // the first is the sum's left end, grouped first anyway.
      if (sum.empty())
        sum = chainText;
      else
        sum += (subtracted ? " - " : " + ") + (end - begin > 1 ? "(" + chainText + ")" : chainText);
    }
    return "(" + sum + ")";
  }

  std::string stmt(const ir::Stmt &s, const std::string &indent) {
    switch (s.kind) {
    case ir::StmtKind::Store: return indent + names_[static_cast<size_t>(s.slot)] + " = " + expr(*s.value) + ";\n";
    case ir::StmtKind::Return: return indent + "return " + expr(*s.value) + ";\n";
    case ir::StmtKind::Block: {
      std::string out = indent + "{\n";
      for (const ir::Stmt *inner : s.body) out += stmt(*inner, indent + "  ");
      return out + indent + "}\n";
    }
    case ir::StmtKind::If: {
      std::string out = indent + "if (" + expr(*s.cond) + ") {\n" + stmt(*s.thenStmt, indent + "  ") + indent + "}";
      if (s.elseStmt) out += " else {\n" + stmt(*s.elseStmt, indent + "  ") + indent + "}";
      return out + "\n";
    }
    }
    return "";
  }

  const ir::Program &program_;
  const std::function<std::string(ScalarKind, const std::string &)> &floatingToInt_;
  PrintRewrites rewrites_;
  std::vector<std::string> names_;
  size_t paramCount_ = 0;
};

} // namespace

std::string printBody(const ir::Program &program, const std::vector<Param> &params,
                      const std::function<std::string(ScalarKind from, const std::string &operand)> &floatingToInt,
                      PrintRewrites rewrites) {
  return Printer(program, params, floatingToInt, rewrites).body();
}

size_t longestFloatingSum(const ir::Program &program) {
  size_t longest = 1;
  for (const ir::Expr &e : program.exprs) longest = std::max(longest, sumTerms(e));
  return longest;
}

std::optional<Scalar> inverseOfConstantDivisor(const ir::Expr &division) {
  if (division.kind != ir::ExprKind::Arith || division.arith != ir::ArithOp::Div) return std::nullopt;
  // A literal, possibly negated (`-4.0f` is a negated constant) or converted
  // from another type (`x / 4`, a float literal in a double division);
  // converting the value below does what the conversion does.
  std::function<std::optional<double>(const ir::Expr &)> constantValue =
      [&](const ir::Expr &e) -> std::optional<double> {
    if (e.type == ScalarKind::Bool) return std::nullopt;
    if (e.kind == ir::ExprKind::Const) return e.value.toDouble();
    if (e.kind == ir::ExprKind::Convert) {
      // Only conversions the final rounding to the division's type repeats:
      // exact widenings, or conversions to that very type.
      bool exact = e.type == ScalarKind::Double && (e.a->type == ScalarKind::Int || e.a->type == ScalarKind::Float);
      if (!exact && e.type != division.type) return std::nullopt;
      return constantValue(*e.a);
    }
    if (e.kind == ir::ExprKind::Neg && e.type != ScalarKind::Int)
      if (std::optional<double> v = constantValue(*e.a)) return -*v;
    return std::nullopt;
  };
  std::optional<double> divisor = constantValue(*division.b);
  if (!divisor) return std::nullopt;
  const double value = *divisor;
  if (division.type == ScalarKind::Float) {
    float inverse = 1.0f / static_cast<float>(value);
    if (!std::isnormal(inverse)) return std::nullopt;
    return Scalar::ofFloat(inverse);
  }
  if (division.type == ScalarKind::Double) {
    double inverse = 1.0 / value;
    if (!std::isnormal(inverse)) return std::nullopt;
    return Scalar::ofDouble(inverse);
  }
  return std::nullopt; // integer division is exact and stays
}

} // namespace liftcc::cfun
