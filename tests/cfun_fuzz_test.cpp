// Robustness: randomly mutated bodies must only ever raise CFunError (or,
// when they still compile, evaluate with at most CFunEvalError). Run under
// ASan/UBSan this also checks that no mutation reaches undefined behaviour.

#include "tests/cfun_test_helpers.h"

#include <random>
#include <string>

using namespace cfun_test;
using liftcc::cfun::CFunEvalError;

namespace {

const char *const kSeeds[] = {
    "return n + s + e + w + c;",
    "const float wc = 0.6f;\nreturn wc * c + 0.1f * (n + s + e + w);",
    "float d = (n + s - 2.0f * c) / 1.5f; /* vertical */\nif (d > 0.0f) { return c + d; } else return c - d;",
    "float L = (n + s + e + w - 4 * c) / c;\nfloat coef = 1.0f / (1.0f + L * L);\n"
    "return coef < 0.0f ? 0.0f : coef > 1.0f ? 1.0f : coef * exp(-L);",
    "int k = (int)c % 3; k += min(k, 2) * max(1, k); // int work\nreturn k / 2 + sqrt(fabs(n)) + pow(s, 2.0f);",
    "double x = (double)n * 0.25 + e; bool p = x > 1e-3 && !(w < 0.0f) || s == c;\n"
    "return p ? (float)x : floor(c) + ceil(e) + sin(n) * cos(s) - tan(w) + log(fabs(c) + 1.0f);",
};

// Bytes that keep mutants close to C, so they get past the lexer often.
const std::string kAlphabet = "abcnsewxyz019.eEf+-*/%<>=!&|?:;,(){}[]#\"'\\ \t\n_ifelsereturnconstintfloat";

std::string mutate(std::string body, std::mt19937 &gen) {
  std::uniform_int_distribution<int> ops(1, 4);
  int count = ops(gen);
  for (int k = 0; k < count; ++k) {
    std::size_t at = std::uniform_int_distribution<std::size_t>(0, body.size())(gen);
    // One byte in four is arbitrary (non-ASCII, control characters, NUL).
    char c = std::uniform_int_distribution<int>(0, 3)(gen) == 0
                 ? static_cast<char>(std::uniform_int_distribution<int>(0, 255)(gen))
                 : kAlphabet[std::uniform_int_distribution<std::size_t>(0, kAlphabet.size() - 1)(gen)];
    switch (std::uniform_int_distribution<int>(0, 2)(gen)) {
    case 0: body.insert(at, 1, c); break;
    case 1:
      if (at < body.size()) body.erase(at, 1);
      break;
    case 2:
      if (at < body.size()) body[at] = c;
      break;
    }
  }
  return body;
}

} // namespace

TEST_CASE("cfun fuzz: mutated bodies raise only CFunError") {
  std::mt19937 gen(20240607);
  const std::vector<Param> params = {f32("n"), f32("s"), f32("e"), f32("w"), f32("c")};
  int accepted = 0, rejected = 0, evalErrors = 0;
  const int kCases = 4000;
  for (int k = 0; k < kCases; ++k) {
    std::string body = mutate(kSeeds[k % std::size(kSeeds)], gen);
    CAPTURE(body);
    try {
      Function f = Function::compile("f", params, ScalarKind::Float, body);
      ++accepted;
      for (float v : {0.0f, 1.5f, -3.0f}) {
        try {
          f.call({Scalar::ofFloat(v), Scalar::ofFloat(2), Scalar::ofFloat(-v), Scalar::ofFloat(0.5f),
                  Scalar::ofFloat(v * 7)});
        } catch (const CFunEvalError &) {
          ++evalErrors;
        }
      }
    } catch (const CFunError &e) {
      ++rejected;
      std::string what = e.what();
      CHECK(what.find('\n') == std::string::npos); // one-line messages
      CHECK(what.starts_with("line "));
      CHECK(e.line >= 1);
      CHECK(e.column >= 1);
    } catch (const std::exception &e) {
      FAIL("unexpected exception: " << e.what());
    }
  }
  MESSAGE("accepted " << accepted << ", rejected " << rejected << ", evaluation errors " << evalErrors);
  CHECK(accepted > 50);   // the mutations do exercise the evaluator...
  CHECK(rejected > 1000); // ... and the error paths
}

TEST_CASE("cfun fuzz: random token soup raises only CFunError") {
  std::mt19937 gen(7);
  const char *const tokens[] = {"n",    "s",     "1",    "2.5f", "0.5", "(",  ")",    "{",      "}",     "+",
                                "-",    "*",     "/",    "%",    "<",   ">=", "==",   "&&",     "||",    "!",
                                "?",    ":",     ";",    "=",    "+=",  "if", "else", "return", "float", "int",
                                "bool", "const", "sqrt", "min",  ",",   "x",  "true"};
  for (int k = 0; k < 2000; ++k) {
    std::string body;
    int len = std::uniform_int_distribution<int>(0, 40)(gen);
    for (int t = 0; t < len; ++t)
      body += std::string(tokens[std::uniform_int_distribution<std::size_t>(0, std::size(tokens) - 1)(gen)]) + " ";
    CAPTURE(body);
    try {
      Function f = Function::compile("f", {f32("n"), f32("s")}, ScalarKind::Float, body);
      try {
        f.call({Scalar::ofFloat(1), Scalar::ofFloat(0)});
      } catch (const CFunEvalError &) {}
    } catch (const CFunError &) {
    } catch (const std::exception &e) {
      FAIL("unexpected exception: " << e.what());
    }
  }
}
