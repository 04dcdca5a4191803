// Randomised mutation fuzzing of the JSON reader, the type checker and the
// interpreter. Seeds are the example programs plus a few small programs;
// each mutant goes through read -> typeCheck -> (when small) interpret, and
// the only acceptable outcomes are success or a one-line liftcc error.
//
// The number of cases defaults to a few thousand (CI); set LIFTCC_FUZZ_CASES
// to run more locally.

#include "core/interp/interpreter.h"
#include "core/ir/operands.h"
#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"
#include "tests/test_support.h"

#include "core/io/json.h"
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

namespace liftcc {
namespace {

using json = nlohmann::json;

const char *kSmallSeed = R"json({
  "liftcc": 1,
  "sizes": [{"name": "N", "min": 3}, "M"],
  "userFuns": {"add": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"}],
                        "returns": "float", "body": "return a + b;"}},
  "inputs": [{"name": "A", "type": "[[float]M]N"}, {"name": "B", "type": "[float](N*M)"}],
  "body": {"op": "map",
           "f": {"lambda": ["t"], "body": {"apply": {"userFun": "add"}, "args": [
                   {"op": "get", "index": 1, "in": {"param": "t"}},
                   {"op": "at", "index": 0, "in": {"op": "reduce", "f": {"userFun": "add"},
                      "init": {"literal": 0.0, "type": "float"}, "in": {"op": "get", "index": 0, "in": {"param": "t"}}}}]}},
           "in": {"op": "zip", "in": [
              {"op": "slide", "size": 3, "step": 1, "in": {"op": "pad", "left": 1, "right": 1, "mode": "mirror",
                 "in": {"op": "join", "in": {"op": "transpose", "in": {"op": "split", "n": "N", "in": {"op": "join", "in": {"param": "A"}}}}}}},
              {"param": "B"}]}}
})json";

/// Every JSON value in a document, as pointers, so a mutation can target any node.
void collectPointers(const json &j, const json::json_pointer &here, std::vector<json::json_pointer> &out) {
  out.push_back(here);
  if (j.is_object())
    for (const auto &[key, value] : j.items()) collectPointers(value, here / key, out);
  else if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) collectPointers(j[i], here / i, out);
}

json randomReplacement(std::mt19937_64 &rng, const json &document, const std::vector<json::json_pointer> &pointers) {
  static const std::vector<json> atoms = {nullptr,
                                          true,
                                          false,
                                          0,
                                          1,
                                          -1,
                                          2,
                                          3,
                                          4,
                                          7,
                                          1000000000,
                                          -2147483649LL,
                                          9223372036854775807LL,
                                          1.5,
                                          -0.0,
                                          1e300,
                                          "",
                                          "N",
                                          "M",
                                          "N + 1",
                                          "N / 0",
                                          "N % 0",
                                          "2 * N",
                                          "(N < M ? N : M)",
                                          "min(N, M)",
                                          "x",
                                          "float",
                                          "int",
                                          "bool",
                                          "double",
                                          "[float]N",
                                          "[[float]M]N",
                                          "(float, int)",
                                          "[float]0",
                                          "[float](N - 5)",
                                          "[float",
                                          "clamp",
                                          "mirror",
                                          "wrap",
                                          "edge",
                                          "map",
                                          "reduce",
                                          "zip",
                                          "split",
                                          "join",
                                          "slide",
                                          "pad",
                                          "padConstant",
                                          "transpose",
                                          "iterate",
                                          "at",
                                          "get",
                                          "tuple",
                                          "generate",
                                          "sizeValue",
                                          "mapGlb",
                                          "mapSeq",
                                          "reduceSeq",
                                          "toLocal",
                                          "A",
                                          "B",
                                          "t",
                                          "add",
                                          "return a + b;",
                                          "return a / 0;",
                                          "return sqrt(a);",
                                          "return",
                                          json::array(),
                                          json::object(),
                                          json::array({1, 2}),
                                          json{{"param", "A"}},
                                          json{{"literal", 1.0}, {"type", "float"}},
                                          json{{"literal", 1}, {"type", "int"}},
                                          json{{"op", "join"}, {"in", {{"param", "A"}}}}};
  switch (rng() % 3) {
  case 0: return atoms[rng() % atoms.size()];
  case 1: return document.at(pointers[rng() % pointers.size()]); // a subtree from elsewhere
  default: return json(int64_t(rng() % 20) - 5);
  }
}

/// One structural mutation: replace, delete or duplicate a node, or rename a key.
void mutateStructure(json &document, std::mt19937_64 &rng) {
  std::vector<json::json_pointer> pointers;
  collectPointers(document, json::json_pointer(), pointers);
  json::json_pointer target = pointers[rng() % pointers.size()];
  if (target.empty()) return;
  json::json_pointer parent = target.parent_pointer();
  std::string last = target.back();
  json &container = document.at(parent);
  switch (rng() % 4) {
  case 0: document.at(target) = randomReplacement(rng, document, pointers); break;
  case 1:
    if (container.is_object())
      container.erase(last);
    else
      container.erase(container.begin() + std::stoll(last));
    break;
  case 2:
    if (container.is_array())
      container.push_back(document.at(target));
    else
      container["extra"] = document.at(target);
    break;
  default:
    if (container.is_object()) {
      json value = container[last];
      container.erase(last);
      container[last + (rng() % 2 ? "_" : "")] = value;
    }
    break;
  }
}

void mutateText(std::string &text, std::mt19937_64 &rng) {
  if (text.empty()) return;
  size_t pos = rng() % text.size();
  switch (rng() % 3) {
  case 0: text.erase(pos, 1 + rng() % 4); break;
  case 1: {
    static const char alphabet[] = "{}[]\",:0-9eE\\\x01\xff";
    text.insert(pos, 1, alphabet[rng() % (sizeof alphabet - 1)]);
    break;
  }
  default: text[pos] = static_cast<char>(rng() % 256); break;
  }
}

/// Iterate counts in the mutant multiply interpretation time; keep runs short.
bool cheapToInterpret(const Program &typed, const std::map<std::string, int64_t> &sizes) {
  int64_t work = 1;
  std::vector<const Expr *> stack{&typed.fun};
  while (!stack.empty()) {
    const Expr *e = stack.back();
    stack.pop_back();
    if (e->is(ExprKind::Prim) && e->op() == Op::Iterate) {
      int64_t n = arith::evaluate(iterateCount(*e), sizes);
      if (n > 8) return false;
      work *= std::max<int64_t>(n, 1);
    }
    for (const Child &c : e->children()) stack.push_back(c.expr);
  }
  for (const Expr &in : typed.inputs())
    if (scalarCount(in.typeOrThrow(), sizes) > 4096) return false;
  return work <= 64 && scalarCount(typed.body().typeOrThrow(), sizes) <= 4096;
}

/// Runs one mutant through the pipeline; returns which stage rejected it.
std::string runPipeline(const std::string &text) {
  try {
    Program program = readProgram(text);
    Program typed = typeCheck(program);
    std::map<std::string, int64_t> sizes;
    for (const arith::Expr &s : program.sizes) {
      int64_t lo = s.varRange().lo ? arith::evaluate(*s.varRange().lo, {}) : 1;
      sizes[s.varName()] = std::max<int64_t>(lo, 1) + 3;
    }
    Program concrete = typeCheck(program, sizes);
    if (!cheapToInterpret(concrete, sizes)) return "ok (not interpreted)";
    interpret(concrete, sizes, randomInputs(concrete, sizes, 7));
    return "ok";
  } catch (const JsonError &e) {
    CHECK_MESSAGE(std::string(e.what()).find('\n') == std::string::npos, e.what());
    return "json";
  } catch (const TypeError &e) {
    CHECK_MESSAGE(std::string(e.what()).find('\n') == std::string::npos, e.what());
    CHECK(!e.path().empty());
    return "type";
  } catch (const InterpreterError &) {
    return "runtime";
  } catch (const arith::EvalError &) {
    return "size"; // e.g. a size expression dividing by zero at these sizes
  } catch (const std::overflow_error &) {
    return "size";
  }
}

} // namespace

TEST_CASE("fuzz: mutated programs never crash the reader, type checker or interpreter") {
  std::vector<std::string> seeds{kSmallSeed};
  for (const auto &path : test::exampleJsonFiles()) seeds.push_back(test::readFile(path));

  int cases = 3000;
  if (const char *env = std::getenv("LIFTCC_FUZZ_CASES")) cases = std::max(1, std::atoi(env));
  std::mt19937_64 rng(20261123);
  std::map<std::string, int> outcomes;
  for (int i = 0; i < cases; ++i) {
    const std::string &seed = seeds[rng() % seeds.size()];
    std::string text;
    if (rng() % 4 == 0) {
      text = seed;
      for (int k = 1 + rng() % 3; k > 0; --k) mutateText(text, rng);
    } else {
      json document = json::parse(seed);
      for (int k = 1 + rng() % 3; k > 0; --k) mutateStructure(document, rng);
      text = document.dump();
    }
    CAPTURE(text);
    outcomes[runPipeline(text)]++;
  }
  std::string summary;
  for (const auto &[outcome, count] : outcomes) summary += outcome + ": " + std::to_string(count) + "  ";
  MESSAGE("fuzz outcomes over ", cases, " cases: ", summary);
  // The mutations must exercise every stage, not just the JSON syntax check.
  CHECK(outcomes["json"] > 0);
  CHECK(outcomes["type"] > 0);
  CHECK(outcomes["ok"] + outcomes["ok (not interpreted)"] > 0);
}

TEST_CASE("fuzz: the unmutated seeds are valid programs") {
  CHECK(runPipeline(kSmallSeed) == "ok");
  for (const auto &path : test::exampleJsonFiles()) {
    CAPTURE(path);
    std::string outcome = runPipeline(test::readFile(path));
    CHECK(outcome.rfind("ok", 0) == 0);
  }
}

} // namespace liftcc
