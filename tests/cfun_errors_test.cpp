// Malformed bodies: every one must raise a CFunError whose message names the
// position and what was expected or found.

#include "tests/cfun_test_helpers.h"

#include "core/cfun/limits.h"

#include <string>

using namespace cfun_test;

namespace {

/// Parameters a: float, i: int, b: bool; result float; function name f.
std::string err(const std::string &body) { return errorOf({f32("a"), i32("i"), b8("b")}, ScalarKind::Float, body); }

struct Case {
  const char *body;
  const char *message;
};

// Full messages, so positions and wording are pinned down.
const Case kCases[] = {
    // syntax
    {"return a +;", "line 1, column 11: expected an expression, found ';'"},
    {"return a b;", "line 1, column 10: expected an operator between two operands, found 'b'"},
    {"return (a;", "line 1, column 10: expected ')' to close '(' at line 1, column 8, found ';'"},
    {"return a);", "line 1, column 9: expected ';' after the return value, found ')'"},
    {"{ return a;", "line 1, column 12: expected '}' to close the block opened at line 1, column 1, found end of body"},
    {"return a; }", "line 1, column 11: '}' without a matching '{'"},
    {"return a", "line 1, column 9: expected ';' after the return value, found end of body"},
    {"a = 1", "line 1, column 6: expected ';' after the assignment to 'a', found end of body"},
    {"return a ? i;",
     "line 1, column 13: expected ':' in the conditional expression started by '?' at line 1, column 10, found ';'"},
    {"return a ?: i;", "line 1, column 11: expected an expression, found ':'"},
    {"return;", "line 1, column 7: 'return' needs a value: user functions always return one"},
    {"else return a;", "line 1, column 1: 'else' without a matching 'if'"},
    {"if a > 0 return a; return 0;", "line 1, column 4: expected '(' after 'if', found 'a'"},
    {"if (a > 0 return a; return 0;",
     "line 1, column 11: expected ')' to close the condition opened at line 1, column 4, found 'return'"},
    {"  return a;\n  a = 1;\n", "line 2, column 3: unreachable statement: every path before it has already returned"},
    {"float x; return x;", "line 1, column 8: 'x' must be initialized: write float x = ...;"},
    {"float x = 1, y = 2; return x;", "line 1, column 12: declare one variable per statement (',' is not supported)"},
    {"if (a) float t = 1; return a;",
     "line 1, column 8: a declaration cannot be the body of 'if' or 'else' in C; put it in braces { }"},
    {"vec3 v = 1; return a;", "line 1, column 1: unknown type or keyword 'vec3'; statements start with bool, int, "
                              "float, double, const, if, return or a variable"},
    {"retrun a;", "line 1, column 1: unknown type or keyword 'retrun'; statements start with bool, int, float, double, "
                  "const, if, return or a variable"},
    {"return a; // done", "line 1, column 11: a '//' comment at the end of the body must be followed by a newline"},
    {"int float = 1; return a;", "line 1, column 5: expected a variable name after 'int', found type word 'float'"},
    {"float *p = 0; return a;", "line 1, column 7: pointers are not supported"},
    {"float v[2] = 0; return a;", "line 1, column 8: arrays are not supported"},
    {"sqrt(a); return a;", "line 1, column 5: a call on its own has no effect; use its value in an expression"},
    {"a + 1; return a;",
     "line 1, column 3: expected an assignment ('=', '+=', '-=', '*=' or '/=') after 'a', found '+'"},
    // operators outside the subset
    {"return a & i;", "line 1, column 10: bitwise operator '&' is not supported"},
    {"return a << 1;", "line 1, column 10: bitwise operator '<<' is not supported"},
    {"return ~i;", "line 1, column 8: bitwise operator '~' is not supported"},
    {"i++; return a;", "line 1, column 2: '++' is not supported; write x += 1 or x -= 1 as a statement"},
    {"--i; return a;", "line 1, column 1: '--' is not supported; write x += 1 or x -= 1"},
    {"return a--i;", "line 1, column 9: '--' is not supported; write x += 1 or x -= 1 as a statement"},
    {"i %= 2; return a;", "line 1, column 3: compound assignment '%=' is not supported"},
    {"return a = 1;",
     "line 1, column 10: assignment '=' is only allowed as a statement of its own, not inside an expression"},
    {"a = i = 1; return a;",
     "line 1, column 7: assignment '=' is only allowed as a statement of its own, not inside an expression"},
    {"if (i = 1) return a; return a;",
     "line 1, column 7: assignment '=' is only allowed as a statement of its own, not inside an expression"},
    {"return *a;", "line 1, column 8: pointers are not supported"},
    {"return a[1];", "line 1, column 9: arrays and subscripts are not supported"},
    {"return a.x;", "line 1, column 9: member access is not supported"},
    {"return (a, i);", "line 1, column 10: expected ')' to close '(' at line 1, column 8, found ','"},
    // keywords and types outside the subset
    {"for (int k = 0; k < 3; k++) {} return a;",
     "line 1, column 1: 'for' is not supported: user functions are loop-free (use if/else and ?:)"},
    {"while (b) {} return a;",
     "line 1, column 1: 'while' is not supported: user functions are loop-free (use if/else and ?:)"},
    {"unsigned u = 1; return a;", "line 1, column 1: type 'unsigned' is not supported; use bool, int, float or double"},
    {"return (unsigned)a;", "line 1, column 9: type 'unsigned' is not supported; use bool, int, float or double"},
    {"return (half)a;", "line 1, column 9: type 'half' is not supported; use bool, int, float or double"},
    {"return (const float)a;", "line 1, column 9: 'const' in a cast has no effect; remove it"},
    {"return sizeof(a);", "line 1, column 8: 'sizeof' is not supported in user functions"},
    {"static float s = 1; return s;", "line 1, column 1: 'static' is not supported in user functions"},
    // lexical
    {"return \"s\";", "line 1, column 8: string and character literals are not supported"},
    {"#define X 1\nreturn a;", "line 1, column 1: preprocessor directives and '#' are not allowed"},
    {"return 0x10;", "line 1, column 8: hexadecimal literal '0x10' is not supported; use a decimal literal"},
    {"return 010;", "line 1, column 8: '010' would be an octal literal in C; remove the leading zero"},
    {"return 1f;", "line 1, column 8: '1f' is not a valid C literal; write 1.0f"},
    {"return 1e;", "line 1, column 8: exponent of '1e' has no digits"},
    {"return 1.5l;", "line 1, column 8: long double literal '1.5l' is not supported"},
    {"return 1.0q;", "line 1, column 8: invalid suffix 'q' on floating literal '1.0q'"},
    {"return 10u;",
     "line 1, column 8: integer literal suffix in '10u' is not supported; only plain int literals are allowed"},
    {"return 2147483648;",
     "line 1, column 8: integer literal '2147483648' does not fit in int (for INT_MIN write (-2147483647 - 1))"},
    {"return 1e999;",
     "line 1, column 8: literal '1e999' is out of range for double (it would become infinity or zero)"},
    {"return 1e-999f;",
     "line 1, column 8: literal '1e-999f' is out of range for float (it would become infinity or zero)"},
    {"return a ?? i;", "line 1, column 10: '\?\?' is not allowed (C trigraphs could change the meaning of the text)"},
    {"return a /* unterminated", "line 1, column 10: unterminated /* comment"},
    {"return a; // ok \\\n", "line 1, column 17: backslash is not allowed (C would splice lines or start an escape)"},
    {"return a @ i;", "line 1, column 10: unexpected character '@'"},
    {"return a\r+ i;", "line 1, column 9: carriage return without line feed is not allowed"},
    {"return \xc3\xa4;", "line 1, column 8: non-ASCII byte 0xC3; user function text must be ASCII"},
    {"return a;\f", "line 1, column 10: control character 0x0C is not allowed"},
    {"return a <% i;", "line 1, column 10: expected ';' after the return value, found '<%'"},
    // names and types
    {"return sqr(a);", "line 1, column 8: unknown function 'sqr'; supported: sqrt, exp, log, pow, fabs, fmin, fmax, "
                       "floor, ceil, sin, cos, tan, min, max"},
    {"return y;", "line 1, column 8: unknown name 'y'"},
    {"x = 1; return a;", "line 1, column 1: unknown name 'x' (declare it first, e.g. float x = ...;)"},
    {"{ float t = 1; } return t;", "line 1, column 25: unknown name 't'"},
    {"int x = x; return a;", "line 1, column 9: unknown name 'x'"},
    {"return NAN;", "line 1, column 8: unknown name: 'NAN' is a predefined macro in OpenCL C or CUDA"},
    {"return sqrt;", "line 1, column 8: 'sqrt' is a function; call it with arguments, e.g. sqrt(x)"},
    {"return f(a);", "line 1, column 8: 'f' calls itself; recursion is not supported"},
    {"return i(a);", "line 1, column 8: 'i' is a variable, not a function"},
    {"const float w = 1.0f;\nw = 2.0f;\nreturn w;",
     "line 2, column 1: 'w' is const (declared at line 1, column 13) and cannot be assigned"},
    {"float x = 1; float x = 2; return x;", "line 1, column 20: 'x' is already declared at line 1, column 7 (shadowing "
                                            "is not supported); choose another name"},
    {"float a = 1; return a;", "line 1, column 7: 'a' is already a parameter; choose another name"},
    {"int if = 1; return a;", "line 1, column 5: invalid variable name: 'if' is a keyword"},
    {"int sqrt = 1; return a;", "line 1, column 5: invalid variable name: 'sqrt' is the name of a math function"},
    {"int __x = 1; return a;", "line 1, column 5: invalid variable name: '__x' is reserved for the implementation "
                               "(leading '__' or '_' plus capital)"},
    {"int a__b = 1; return a;",
     "line 1, column 5: invalid variable name: 'a__b' is reserved in C++ (it contains '__')"},
    {"int M_PI = 1; return a;",
     "line 1, column 5: invalid variable name: 'M_PI' looks like a predefined macro (prefix M_)"},
    {"int float4 = 1; return a;", "line 1, column 5: invalid variable name: 'float4' is a type name"},
    {"return i % a;",
     "line 1, column 10: '%' needs int operands, found int % float (there is no floating remainder in the subset)"},
    {"return min(a, i);",
     "line 1, column 12: 'min' takes int arguments, found float for argument 1; use fmin for float or double"},
    {"return max(i, b);", "line 1, column 15: 'max' takes int arguments, found bool for argument 2; add an (int) cast"},
    {"return sqrt(i);", "line 1, column 13: 'sqrt' takes float or double arguments, found int (OpenCL C has no int "
                        "overload); cast it, e.g. sqrt((float)x)"},
    {"return pow(a, 2.0);", "line 1, column 15: arguments of 'pow' must be all float or all double, found float and "
                            "double (OpenCL C and C++ resolve the mix differently); add a cast"},
    {"return pow(a);", "line 1, column 8: 'pow' takes 2 arguments, found 1"},
    {"return sqrt(a, a);", "line 1, column 8: 'sqrt' takes 1 argument, found 2"},
    {"return abs(i);", "line 1, column 8: 'abs' is not supported: OpenCL C's abs(int) returns unsigned int, so it "
                       "computes differently from CUDA; write (x < 0 ? -x : x), or fabs for float/double"},
    {"return sqrtf(a);", "line 1, column 8: 'sqrtf' does not exist in OpenCL C; use the overloaded 'sqrt', which "
                         "computes in float for a float argument"},
    // control flow
    {"", "line 1, column 1: the body is empty; a user function needs at least a return statement"},
    {"  // just a comment\n", "line 2, column 1: the body is empty; a user function needs at least a return statement"},
    {"float x = a;",
     "line 1, column 13: control can reach the end of the body without a return; every path must end in 'return'"},
    {"if (a > 0) return a;",
     "line 1, column 21: control can reach the end of the body without a return; every path must end in 'return'"},
    {"if (a > 0) return a;\nelse i = 1;\n",
     "line 3, column 1: control can reach the end of the body without a return; every path must end in 'return'"},
    {"if (a > 0) { return a; } else { return 1; }\nreturn 2;",
     "line 2, column 1: unreachable statement: every path before it has already returned"},
};

} // namespace

TEST_CASE("cfun errors: malformed bodies are rejected with position and reason") {
  for (const Case &c : kCases) {
    std::string body = c.body;
    CAPTURE(body);
    CHECK(err(c.body) == c.message);
  }
}

TEST_CASE("cfun errors: NUL bytes are rejected") {
  CHECK(err(std::string("return a;\0", 10)) == "line 1, column 10: control character 0x00 is not allowed");
  CHECK(err(std::string("return \0a;", 10)) == "line 1, column 8: control character 0x00 is not allowed");
}

TEST_CASE("cfun errors: CFunError carries line, column and reason separately") {
  try {
    compile({f32("a")}, ScalarKind::Float, "float x = a;\n  return sqr(x);");
    FAIL("expected CFunError");
  } catch (const CFunError &e) {
    CHECK(e.line == 2);
    CHECK(e.column == 10);
    CHECK(e.reason.starts_with("unknown function 'sqr'"));
    CHECK(std::string(e.what()) == "line 2, column 10: " + e.reason);
  }
}

TEST_CASE("cfun errors: accepted odd-but-valid forms") {
  for (const char *body :
       {"return a;;", "return (a > i) ? a : i;", "return (((((a)))));", "return -(-(-a));", "return !!a;", "return +a;",
        "return a- -i;", "{ return a; }", ";;{;} return a;", "return a; /* trailing */ // comment\n",
        "// leading\nreturn a;", "float const x = a; return x;", "if (b) ; else ; return a;", "return\ta\r\n;",
        "return 1.e1f + .5 + 5.;", "if (b) return 1; else if (i > 2) return 2; else { return 3; }"}) {
    std::string shown = body;
    CAPTURE(shown);
    CHECK(err(body) == "<accepted>");
  }
}

TEST_CASE("cfun errors: limits on nesting, expression depth and size") {
  std::string deepParens = "return " + std::string(1000, '(') + "a" + std::string(1000, ')') + ";";
  CHECK(err(deepParens).find("nesting is deeper than") != std::string::npos);
  std::string deepUnary = "return " + std::string(5000, '!') + "a;";
  CHECK(err(deepUnary).find("nesting is deeper than") != std::string::npos);
  std::string deepMinus;
  for (int k = 0; k < 3000; ++k) deepMinus += "- ";
  CHECK(err("return " + deepMinus + "a;").find("nesting is deeper than") != std::string::npos);
  std::string deepBlocks = std::string(500, '{') + "return a;" + std::string(500, '}');
  CHECK(err(deepBlocks).find("nesting is deeper than") != std::string::npos);
  std::string deepIf;
  for (int k = 0; k < 500; ++k) deepIf += "if (b) ";
  CHECK(err(deepIf + "return a; return a;").find("nesting is deeper than") != std::string::npos);
  std::string elseIfChain = "if (i == 0) return 0;";
  for (int k = 1; k < 500; ++k) elseIfChain += " else if (i == " + std::to_string(k) + ") return 1;";
  CHECK(err(elseIfChain + " return a;").find("nesting is deeper than") != std::string::npos);
  std::string deepTernary = "return ";
  for (int k = 0; k < 500; ++k) deepTernary += "b ? a : ";
  CHECK(err(deepTernary + "a;").find("nesting is deeper than") != std::string::npos);
  std::string deepCalls = "return ";
  for (int k = 0; k < 500; ++k) deepCalls += "fabs(";
  CHECK(err(deepCalls + "a" + std::string(500, ')') + ";").find("nesting is deeper than") != std::string::npos);

  // Long left-associative chains are fine up to kMaxTreeDepth operators...
  std::string chain = "return a";
  for (int k = 1; k < liftcc::cfun::kMaxTreeDepth; ++k) chain += " + a";
  Function f = compile({f32("a")}, ScalarKind::Float, chain + ";");
  CHECK(f.call({Scalar::ofFloat(1.0f)}) == Scalar::ofFloat(static_cast<float>(liftcc::cfun::kMaxTreeDepth)));
  // Comparison chains add an implicit bool->float conversion per level.
  std::string compareChain = "return a";
  for (int k = 1; k < liftcc::cfun::kMaxTreeDepth; ++k) compareChain += " < a";
  Function g = compile({f32("a")}, ScalarKind::Float, compareChain + ";");
  CHECK(g.call({Scalar::ofFloat(2.0f)}) == Scalar::ofFloat(1.0f)); // (2 < 2) < 2 ... is 1
  // ... and rejected beyond, without recursing deeply.
  std::string longChain = "return a";
  for (int k = 0; k < 20000; ++k) longChain += "+a";
  CHECK(err(longChain + ";").find("nested more than 1000 operators deep") != std::string::npos);

  std::string huge = "return a;" + std::string(liftcc::cfun::kMaxBodyBytes, ' ');
  CHECK(err(huge).find("the limit is 65536") != std::string::npos);
  std::string hugeLiteral = "return " + std::string(60000, '9') + ";";
  CHECK(err(hugeLiteral).find("does not fit in int") != std::string::npos);
  std::string hugeFloat = "return 0." + std::string(50000, '1') + "f;";
  CHECK(err(hugeFloat) == "<accepted>");
  std::string hugeName = "return " + std::string(50000, 'x') + ";";
  CHECK(err(hugeName).find("unknown name") != std::string::npos);
}
