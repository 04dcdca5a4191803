#include "core/json/program_schema.h"

#include "core/error.h"
#include "core/ir/op.h"
#include "core/json/derived_forms.h"

#include "core/io/json.h"

namespace liftcc {

namespace {

// ordered_json keeps the members in the order written here, which is the
// order of the committed file (and of the primitive list).
using Json = nlohmann::ordered_json;

Json ref(const char *def) { return Json{{"$ref", std::string("#/$defs/") + def}}; }
Json identifier() { return Json{{"type", "string"}, {"pattern", "^[A-Za-z_][A-Za-z0-9_]*$"}}; }
Json scalarTypeName() { return Json{{"enum", {"bool", "int", "float", "double"}}}; }
Json padModeName() { return Json{{"enum", {"clamp", "mirror", "wrap"}}}; }
Json exprList() { return Json{{"type", "array"}, {"minItems", 1}, {"items", ref("expr")}}; }

/// An object with exactly `properties`, of which `required` are required.
Json closedObject(const Json &properties, const std::vector<std::string> &required) {
  return Json{{"type", "object"}, {"required", required}, {"additionalProperties", false}, {"properties", properties}};
}

Json documentSchema() {
  Json sizeDecl =
      closedObject(Json{{"name", identifier()}, {"min", Json{{"type", "integer"}, {"minimum", 1}}}}, {"name"});
  Json param = closedObject(Json{{"name", identifier()}, {"type", scalarTypeName()}}, {"name", "type"});
  Json userFun = closedObject(Json{{"params", Json{{"type", "array"}, {"items", param}}},
                                   {"returns", scalarTypeName()},
                                   {"body", Json{{"type", "string"}}}},
                              {"params", "returns", "body"});
  Json input = closedObject(Json{{"name", identifier()}, {"type", ref("type")}}, {"name", "type"});
  return Json{
      {"liftcc", Json{{"const", 1}}},
      {"sizes", Json{{"type", "array"}, {"items", Json{{"oneOf", {identifier(), sizeDecl}}}}}},
      {"userFuns", Json{{"type", "object"}, {"additionalProperties", userFun}}},
      {"inputs", Json{{"type", "array"}, {"items", input}}},
      {"body", ref("expr")},
  };
}

/// The expression forms other than primitives and derived forms.
Json expressionSchema() {
  auto titled = [](const char *title, Json object) {
    Json out{{"title", title}};
    out.update(object);
    return out;
  };
  Json lambdaParams = Json{{"type", "array"}, {"minItems", 1}, {"items", identifier()}};
  return Json{
      {"oneOf",
       {titled("param", closedObject(Json{{"param", identifier()}}, {"param"})),
        titled("literal",
               closedObject(Json{{"literal", Json{{"type", {"number", "boolean"}}}}, {"type", scalarTypeName()}},
                            {"literal", "type"})),
        titled("lambda", closedObject(Json{{"lambda", lambdaParams}, {"body", ref("expr")}}, {"lambda", "body"})),
        titled("userFun", closedObject(Json{{"userFun", identifier()}}, {"userFun"})),
        titled("apply",
               closedObject(Json{{"apply", ref("expr")}, {"args", Json{{"type", "array"}, {"items", ref("expr")}}}},
                            {"apply", "args"})),
        ref("primitive"), ref("derivedForm")}}};
}

/// One primitive's object: its fields from the table, in the table's order.
Json primitiveSchema(const OpInfo &info) {
  Json properties{{"op", Json{{"const", std::string(info.name)}}}};
  std::vector<std::string> required{"op"};
  auto add = [&](std::string_view field, Json schema, bool isRequired = true) {
    properties[std::string(field)] = std::move(schema);
    if (isRequired) required.emplace_back(field);
  };
  if (info.attr == AttrKind::Dim) add("dim", Json{{"type", "integer"}, {"minimum", 0}, {"maximum", 2}}, false);
  if (info.attr == AttrKind::TupleIndex) add("index", Json{{"type", "integer"}, {"minimum", 0}});
  for (std::string_view f : info.sizeFields) add(f, ref("size"));
  if (info.hasPadMode) add("mode", padModeName());
  for (std::string_view f : info.funFields) add(f, ref("expr"));
  for (std::string_view f : info.argFields) add(f, info.variadicArgs ? exprList() : ref("expr"));
  return Json{{"title", std::string(info.name)},
              {"description", std::string(info.summary) + ": " + std::string(info.typeScheme)},
              {"type", "object"},
              {"properties", properties},
              {"required", required},
              {"additionalProperties", false}};
}

Json derivedFieldSchema(std::string_view field) {
  const char *perDimension = "one value for every dimension, or one per dimension, outermost first (as many as dims)";
  if (field == "dims")
    return Json{{"type", "integer"},
                {"minimum", 1},
                {"maximum", kMaxDerivedDims},
                {"description", "number of dimensions; 1 is the plain primitive"}};
  if (field == "left" || field == "right")
    return Json{{"oneOf", {ref("size"), Json{{"type", "array"}, {"minItems", 1}, {"items", ref("size")}}}},
                {"description", perDimension}};
  if (field == "mode")
    return Json{{"oneOf", {padModeName(), Json{{"type", "array"}, {"minItems", 1}, {"items", padModeName()}}}},
                {"description", perDimension}};
  if (field == "size" || field == "step") return ref("size");
  return ref("expr");
}

Json derivedFormSchema(const DerivedFormInfo &info) {
  Json properties{{"op", Json{{"const", std::string(info.name)}}}};
  std::vector<std::string> required{"op"};
  for (std::string_view f : info.fields) {
    bool list = info.form == DerivedForm::ZipN && f == "in";
    properties[std::string(f)] = list ? exprList() : derivedFieldSchema(f);
    required.emplace_back(f);
  }
  return Json{{"title", std::string(info.name)},
              {"description", std::string(info.summary)},
              {"type", "object"},
              {"properties", properties},
              {"required", required},
              {"additionalProperties", false}};
}

/// The stencil form (core/ir/stencil_form.h), with the derived forms: it too is expanded by the reader.
Json stencilFormSchema() {
  Json boundary{{"oneOf",
                 {Json{{"enum", {"clamp", "mirror", "wrap", "pointwise"}}},
                  closedObject(Json{{"constant", Json{{"type", "number"}}}}, {"constant"})}}};
  Json properties{
      {"op", Json{{"const", std::string(kStencilFormName)}}},
      {"name", Json{{"type", "string"},
                    {"pattern", "^[A-Za-z_][A-Za-z0-9_]*$"},
                    {"description", "the generated user function's name (default stencil)"}}},
      {"grids", Json{{"type", "object"},
                     {"minProperties", 1},
                     {"description", "input or lambda parameter name -> boundary: a pad mode, pointwise (read at "
                                     "the centre only) or {\"constant\": value}"},
                     {"additionalProperties", boundary}}},
      {"returns", Json{{"enum", {"bool", "int", "float", "double"}},
                       {"description", "the function's result type (default: the element type of the grid the body "
                                       "reads first)"}}},
      {"scalars", Json{{"type", "array"},
                       {"items", identifier()},
                       {"description", "scalar inputs the body reads by name (parameters after the neighbours)"}}},
      {"body", Json{{"type", "string"},
                    {"description", "C-subset statements; a neighbour is GRID[o1][o2]... with integer literal "
                                    "offsets, one per dimension"}}}};
  return Json{{"title", std::string(kStencilFormName)},
              {"description", "a stencil with neighbours named by offsets: mapN of a generated user function over "
                              "zipN of slideN(padN(grid)) windows"},
              {"type", "object"},
              {"properties", properties},
              {"required", {"op", "grids", "body"}},
              {"additionalProperties", false}};
}

std::string code(std::string_view text) { return "`" + std::string(text) + "`"; }

std::string markdownFields(const OpInfo &info) {
  std::vector<std::string> fields;
  if (info.attr == AttrKind::Dim) fields.push_back(code("dim"));
  if (info.attr == AttrKind::TupleIndex) fields.push_back(code("index") + " (integer)");
  for (std::string_view f : info.sizeFields) fields.push_back(code(f));
  if (info.hasPadMode) fields.push_back(code("mode"));
  for (std::string_view f : info.funFields) fields.push_back(code(f));
  for (std::string_view f : info.argFields)
    fields.push_back(info.variadicArgs ? code(std::string(f) + ": [E, ...]") : code(f));
  std::string out;
  for (const std::string &f : fields) out += (out.empty() ? "" : ", ") + f;
  return out.empty() ? "-" : out;
}

} // namespace

std::string programSchemaText() {
  Json primitives = Json::array();
  for (Op op : allOps()) primitives.push_back(primitiveSchema(opInfo(op)));
  Json derived = Json::array();
  for (const DerivedFormInfo &info : derivedForms()) derived.push_back(derivedFormSchema(info));
  derived.push_back(stencilFormSchema());
  Json schema{
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"$id", "https://liftcc.dev/schemas/program-1.json"},
      {"title", "liftcc program, format version 1"},
      {"description", "See docs/program-format.md. Generated by `liftc schema` from the primitive list "
                      "(LIFTCC_PRIMITIVES in core/ir/op.h); a test checks that the two agree."},
      {"type", "object"},
      {"required", {"liftcc", "inputs", "body"}},
      {"additionalProperties", false},
      {"properties", documentSchema()},
      {"$defs",
       Json{{"type", Json{{"type", "string"},
                          {"description", "Lift type notation: float, (float, int), [[float]M]N, [float](N + 2)"}}},
            {"size", Json{{"oneOf",
                           {Json{{"type", "integer"}},
                            Json{{"type", "string"}, {"description", "integer expression over declared sizes"}}}}}},
            {"expr", expressionSchema()},
            {"primitive", Json{{"oneOf", primitives}}},
            {"derivedForm",
             Json{{"description", "Derived forms: not primitives, but the N-d compositions of the 1D primitives the "
                                  "C++ API builds (primitives/api.h), expanded by the reader. The writer uses them "
                                  "wherever the program has exactly that shape."},
                  {"oneOf", derived}}}}},
  };
  return schema.dump(2) + "\n";
}

std::string primitivesMarkdown() {
  std::string out = "| op | fields | type | meaning |\n|---|---|---|---|\n";
  for (Op op : allOps()) {
    const OpInfo &info = opInfo(op);
    out += "| " + code(info.name) + " | " + markdownFields(info) + " | " + code(info.typeScheme) + " | " +
           std::string(info.summary) + " |\n";
  }
  return out;
}

std::string derivedFormsMarkdown() {
  std::string out = "| op | fields | expands to (dims = 2) |\n|---|---|---|\n";
  for (const DerivedFormInfo &info : derivedForms()) {
    std::string fields;
    for (std::string_view f : info.fields) {
      bool list = info.form == DerivedForm::ZipN && f == "in";
      fields += (fields.empty() ? "" : ", ") + code(list ? std::string(f) + ": [E, ...]" : std::string(f));
    }
    out += "| " + code(info.name) + " | " + fields + " | " + code(info.expansion) + " |\n";
  }
  return out;
}

std::string withGeneratedSections(const std::string &formatMarkdown) {
  std::string text = formatMarkdown;
  const std::pair<const char *, std::string> sections[] = {{"primitives", primitivesMarkdown()},
                                                           {"derived forms", derivedFormsMarkdown()}};
  for (const auto &[name, table] : sections) {
    std::string begin = std::string("<!-- generated by liftc schema: ") + name + " -->\n";
    std::string end = std::string("<!-- end of generated: ") + name + " -->\n";
    size_t from = text.find(begin);
    if (from == std::string::npos)
      throw Error("program-format.md: missing the line " + begin.substr(0, begin.size() - 1));
    size_t to = text.find(end, from);
    if (to == std::string::npos) throw Error("program-format.md: missing the line " + end.substr(0, end.size() - 1));
    from += begin.size();
    text.replace(from, to - from, table);
  }
  return text;
}

} // namespace liftcc
