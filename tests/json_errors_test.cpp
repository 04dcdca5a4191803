// Bad JSON programs are rejected with the JSON pointer of the bad node and
// what was expected there.

#include "core/json/program_json.h"
#include "core/typecheck/typecheck.h"

#include <doctest/doctest.h>

#include <string>

namespace liftcc {
namespace {

/// A valid program around `body`, with sizes N (>= 3) and M, inputs A: [float]N
/// and B: [[float]M]N, and the user function add.
std::string programWith(const std::string &body, const std::string &inputs = "") {
  return R"({"liftcc": 1, "sizes": [{"name": "N", "min": 3}, "M"],
    "userFuns": {"add": {"params": [{"name": "a", "type": "float"}, {"name": "b", "type": "float"}],
                         "returns": "float", "body": "return a + b;"}},
    "inputs": [{"name": "A", "type": "[float]N"}, {"name": "B", "type": "[[float]M]N"})" +
         inputs + R"(], "body": )" + body + "}";
}

struct ErrorCase {
  const char *what;
  std::string text;
  std::string pointer;
  std::string message; ///< a substring of the message
};

void checkJsonError(const ErrorCase &c) {
  CAPTURE(c.what);
  CAPTURE(c.text);
  try {
    readProgram(c.text);
    FAIL("accepted");
  } catch (const JsonError &e) {
    CHECK(e.pointer() == c.pointer);
    CHECK_MESSAGE(std::string(e.what()).find(c.message) != std::string::npos, e.what());
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
}

void checkTypeError(const ErrorCase &c) {
  CAPTURE(c.what);
  Program p = readProgram(c.text);
  try {
    typeCheck(p);
    FAIL("type-checked");
  } catch (const TypeError &e) {
    CHECK(e.path() == c.pointer);
    CHECK_MESSAGE(std::string(e.what()).find(c.message) != std::string::npos, e.what());
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
}

} // namespace

TEST_CASE("json: malformed documents") {
  checkJsonError({"syntax", "{\"liftcc\": 1,", "", "malformed JSON"});
  checkJsonError({"not an object", "[1, 2]", "", "expected an object"});
  checkJsonError(
      {"version", R"({"liftcc": 2, "inputs": [], "body": {"param": "A"}})", "/liftcc", "unsupported format version"});
  checkJsonError({"missing body", R"({"liftcc": 1, "inputs": []})", "", "missing field \"body\""});
  checkJsonError({"unknown top-level field", R"({"liftcc": 1, "inputs": [], "body": {}, "boddy": 1})", "/boddy",
                  "unknown field \"boddy\""});
  // A repeated key would otherwise silently replace the earlier value.
  checkJsonError({"duplicate top-level key", R"({"liftcc": 1, "inputs": [], "body": {}, "body": {"param": "A"}})",
                  "/body", "duplicate key 'body' in one object"});
  checkJsonError({"duplicate nested key", programWith(R"({"op": "map", "op": "zip", "in": {"param": "A"}})"),
                  "/body/op", "duplicate key 'op'"});
}

TEST_CASE("json: bad declarations") {
  checkJsonError({"size minimum below 1",
                  R"({"liftcc": 1, "sizes": [{"name": "N", "min": -5}], "inputs": [], "body": {}})", "/sizes/0/min",
                  "expected at least 1 (a size is an array length), found -5"});
  checkJsonError(
      {"size name", R"({"liftcc": 1, "sizes": ["1N"], "inputs": [], "body": {}})", "/sizes/0", "not an identifier"});
  checkJsonError(
      {"size twice", R"({"liftcc": 1, "sizes": ["N", "N"], "inputs": [], "body": {}})", "/sizes/1", "declared twice"});
  checkJsonError({"input type", programWith(R"({"param": "A"})", R"(, {"name": "C", "type": "[float]K"})"),
                  "/inputs/2/type", "K"});
  checkJsonError({"input twice", programWith(R"({"param": "A"})", R"(, {"name": "A", "type": "float"})"),
                  "/inputs/2/name", "declared twice"});
  checkJsonError({"userFun body",
                  R"({"liftcc": 1, "userFuns": {"f": {"params": [], "returns": "float", "body": "return sqr(2.0f);"}},
                      "inputs": [], "body": {"literal": 1, "type": "int"}})",
                  "/userFuns/f/body", "sqr"});
  checkJsonError({"userFun param type",
                  R"({"liftcc": 1, "userFuns": {"f": {"params": [{"name": "a", "type": "half"}], "returns": "float",
                      "body": "return a;"}}, "inputs": [], "body": {"literal": 1, "type": "int"}})",
                  "/userFuns/f/params/0/type", "unknown scalar type \"half\""});
}

TEST_CASE("json: bad expressions") {
  checkJsonError({"unknown primitive", programWith(R"({"op": "slde", "in": {"param": "A"}})"), "/body/op",
                  "unknown primitive \"slde\""});
  checkJsonError({"missing field", programWith(R"({"op": "slide", "size": 3, "in": {"param": "A"}})"), "/body",
                  "missing field \"step\""});
  checkJsonError({"unknown field", programWith(R"({"op": "join", "in": {"param": "B"}, "n": 2})"), "/body/n",
                  "unknown field \"n\" for join"});
  // A key with a newline: the pointer keeps it, the one-line message escapes it.
  checkJsonError({"unknown field with a newline", programWith(R"({"op": "join", "in": {"param": "B"}, "i\ndex": 2})"),
                  "/body/i\ndex", "/body/i\\ndex: unknown field"});
  checkJsonError({"pad mode",
                  programWith(R"({"op": "pad", "left": 1, "right": 1, "mode": "edge", "in": {"param": "A"}})"),
                  "/body/mode", "unknown pad mode \"edge\""});
  checkJsonError({"unknown parameter", programWith(R"({"op": "join", "in": {"param": "X"}})"), "/body/in/param",
                  "unknown parameter \"X\""});
  checkJsonError({"unknown user function",
                  programWith(R"({"op": "map", "f": {"userFun": "mul"}, "in": {"param": "A"}})"), "/body/f/userFun",
                  "unknown user function \"mul\""});
  checkJsonError({"zip without inputs", programWith(R"({"op": "zip", "in": []})"), "/body/in", "non-empty array"});
  checkJsonError({"size expression", programWith(R"({"op": "split", "n": "N +", "in": {"param": "A"}})"), "/body/n",
                  "bad size expression"});
  checkJsonError({"unknown size", programWith(R"({"op": "split", "n": "K", "in": {"param": "A"}})"), "/body/n",
                  "unknown size variable 'K'"});
  checkJsonError(
      {"literal type", programWith(R"({"literal": "one", "type": "float"})"), "/body/literal", "expected a number"});
  checkJsonError(
      {"float range", programWith(R"({"literal": 1e300, "type": "float"})"), "/body/literal", "range of float"});
  checkJsonError({"not an expression", programWith(R"({"lambda": ["x"]})"), "/body", "missing field \"body\""});
  checkJsonError(
      {"nested pointer",
       programWith(R"({"op": "map", "f": {"lambda": ["w"], "body": {"op": "at", "index": 0, "in": {"parm": "w"}}},
                                 "in": {"op": "slide", "size": 3, "step": 1, "in": {"param": "A"}}})"),
       "/body/f/body/in", "expected an expression"});
}

TEST_CASE("json: type errors name the node, the primitive and the types") {
  checkTypeError(
      {"split divisibility", programWith(R"({"op": "split", "n": 4, "in": {"param": "A"}})"), "/body", "divisible"});
  checkTypeError({"join of a flat array", programWith(R"({"op": "join", "in": {"param": "A"}})"), "/body", "[float]N"});
  checkTypeError({"zip length mismatch",
                  programWith(R"({"op": "zip", "in": [{"param": "A"}, {"op": "join", "in": {"param": "B"}}]})"),
                  "/body/in/1", "zip"});
  checkTypeError({"user function arity", programWith(R"({"op": "map", "f": {"userFun": "add"}, "in": {"param": "A"}})"),
                  "/body/f", "add"});
  checkTypeError({"user function argument type",
                  programWith(R"({"op": "map", "f": {"lambda": ["r"], "body": {"apply": {"userFun": "add"},
                                 "args": [{"param": "r"}, {"param": "r"}]}}, "in": {"param": "B"}})"),
                  "/body/f/body/apply", "float"});
  checkTypeError({"at out of bounds", programWith(R"({"op": "at", "index": "N", "in": {"param": "A"}})"), "/body/index",
                  "not provably within [0, N)"});
  checkTypeError(
      {"get of an array", programWith(R"({"op": "get", "index": 0, "in": {"param": "A"}})"), "/body/in", "tuple"});
  checkTypeError({"slide larger than the array",
                  programWith(R"({"op": "slide", "size": "N + 1", "step": 1, "in": {"param": "A"}})"), "/body",
                  "slide"});
  checkTypeError({"iterate changes the type",
                  programWith(R"({"op": "iterate", "n": 2, "f": {"lambda": ["x"], "body": {"op": "slide", "size": 3,
                                 "step": 1, "in": {"param": "x"}}}, "in": {"param": "A"}})"),
                  "/body/f", "iterate"});
}

} // namespace liftcc
