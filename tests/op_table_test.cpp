// The primitive table (core/ir/op.cpp) is the single source of truth for
// names and JSON fields; these tests keep it, the enum and the published JSON
// Schema in agreement.

#include "core/ir/op.h"
#include "tests/test_support.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <set>

namespace liftcc {

TEST_CASE("op table: entries are indexed by the enum and names are unique") {
  std::set<std::string_view> names;
  for (Op op : allOps()) {
    CHECK(opInfo(op).op == op);
    CHECK(names.insert(opInfo(op).name).second);
    CHECK(opByName(opInfo(op).name) == op);
  }
  CHECK(!opByName("slide2")); // multi-dimensional forms are compositions, never primitives
}

TEST_CASE("op table: docs/program.schema.json lists every primitive with its fields") {
  auto schema = nlohmann::json::parse(test::readFile(test::sourceDir() / "docs" / "program.schema.json"));
  const auto &variants = schema["$defs"]["primitive"]["oneOf"];
  REQUIRE(variants.size() == allOps().size());
  for (Op op : allOps()) {
    const OpInfo &info = opInfo(op);
    CAPTURE(info.name);
    const nlohmann::json *found = nullptr;
    for (const auto &v : variants)
      if (v["properties"]["op"]["const"] == std::string(info.name)) found = &v;
    REQUIRE(found != nullptr);
    std::set<std::string> expected{"op"};
    for (auto f : info.sizeFields) expected.insert(std::string(f));
    for (auto f : info.funFields) expected.insert(std::string(f));
    for (auto f : info.argFields) expected.insert(std::string(f));
    if (info.attr == AttrKind::Dim) expected.insert("dim");
    if (info.attr == AttrKind::TupleIndex) expected.insert("index");
    if (info.hasPadMode) expected.insert("mode");
    std::set<std::string> actual;
    for (const auto &[key, value] : (*found)["properties"].items()) actual.insert(key);
    CHECK(actual == expected);
  }
}

} // namespace liftcc
