// api::primitive: any primitive from its operands named as in the primitive
// list, checked against the list (the generic form of the named helpers).

#include "core/error.h"
#include "primitives/api.h"

#include <algorithm>
#include <limits>

namespace liftcc::api {

namespace {

enum class FieldKind { Size, Dim, TupleIndex, PadMode, Function, Data, DataList };

std::string_view kindName(FieldKind kind) {
  switch (kind) {
  case FieldKind::Size: return "a size (an integer or a size expression)";
  case FieldKind::Dim: return "an integer dimension 0, 1 or 2";
  case FieldKind::TupleIndex: return "a non-negative integer";
  case FieldKind::PadMode: return "a pad mode";
  case FieldKind::Function: return "a function (a lambda or a user function)";
  case FieldKind::Data: return "an expression";
  case FieldKind::DataList: return "a non-empty list of expressions";
  }
  return "?";
}

std::string_view valueName(const Field &field) {
  switch (field.value.index()) {
  case 0: return "an integer";
  case 1: return "a size";
  case 2: return "a pad mode";
  case 3: {
    const Expr &e = std::get<Expr>(field.value);
    return e.is(ExprKind::Lambda) || e.is(ExprKind::UserFun) ? "a function" : "an expression";
  }
  default: return "a list of expressions";
  }
}

[[noreturn]] void fail(const OpInfo &info, const std::string &message) {
  throw Error("primitive " + std::string(info.name) + ": " + message);
}

[[noreturn]] void failKind(const OpInfo &info, const Field &given, FieldKind kind) {
  fail(info, "field \"" + std::string(given.name) + "\" expects " + std::string(kindName(kind)) + ", found " +
                 std::string(valueName(given)));
}

/// The fields of a primitive, in the order of its row (the JSON order).
std::vector<std::pair<std::string_view, FieldKind>> fieldsOf(const OpInfo &info) {
  std::vector<std::pair<std::string_view, FieldKind>> fields;
  if (info.attr == AttrKind::Dim) fields.emplace_back("dim", FieldKind::Dim);
  if (info.attr == AttrKind::TupleIndex) fields.emplace_back("index", FieldKind::TupleIndex);
  for (std::string_view f : info.sizeFields) fields.emplace_back(f, FieldKind::Size);
  if (info.hasPadMode) fields.emplace_back("mode", FieldKind::PadMode);
  for (std::string_view f : info.funFields) fields.emplace_back(f, FieldKind::Function);
  for (std::string_view f : info.argFields)
    fields.emplace_back(f, info.variadicArgs ? FieldKind::DataList : FieldKind::Data);
  return fields;
}

} // namespace

Expr primitive(Op op, std::vector<Field> fields) {
  const OpInfo &info = opInfo(op);
  const auto expected = fieldsOf(info);
  for (size_t i = 0; i < fields.size(); ++i) {
    auto known =
        std::find_if(expected.begin(), expected.end(), [&](const auto &f) { return f.first == fields[i].name; });
    if (known == expected.end()) {
      std::string names;
      for (const auto &f : expected) names += (names.empty() ? "" : ", ") + std::string(f.first);
      fail(info,
           "no field \"" + std::string(fields[i].name) + "\" (its fields: " + (names.empty() ? "none" : names) + ")");
    }
    for (size_t j = 0; j < i; ++j)
      if (fields[j].name == fields[i].name) fail(info, "field \"" + std::string(fields[i].name) + "\" given twice");
  }
  Expr::PrimOperands operands;
  operands.padMode = PadMode::Clamp;
  for (const auto &[name, kind] : expected) {
    auto given = std::find_if(fields.begin(), fields.end(), [&](const Field &f) { return f.name == name; });
    if (given == fields.end()) {
      if (kind == FieldKind::Dim) continue; // dim 0, as in the JSON format
      fail(info, "missing field \"" + std::string(name) + "\" (" + std::string(kindName(kind)) + ")");
    }
    const auto &value = given->value;
    const int64_t *integer = std::get_if<int64_t>(&value);
    const Expr *expr = std::get_if<Expr>(&value);
    switch (kind) {
    case FieldKind::Size:
      if (integer)
        operands.sizes.emplace_back(*integer);
      else if (const Size *s = std::get_if<Size>(&value))
        operands.sizes.push_back(*s);
      else
        failKind(info, *given, kind);
      break;
    case FieldKind::Dim:
      if (!integer || *integer < 0 || *integer > 2) failKind(info, *given, kind);
      operands.attr = static_cast<int>(*integer);
      break;
    case FieldKind::TupleIndex:
      if (!integer || *integer < 0 || *integer > std::numeric_limits<int>::max()) failKind(info, *given, kind);
      operands.attr = static_cast<int>(*integer);
      break;
    case FieldKind::PadMode:
      if (const PadMode *mode = std::get_if<PadMode>(&value))
        operands.padMode = *mode;
      else
        failKind(info, *given, kind);
      break;
    case FieldKind::Function:
      if (!expr || !(expr->is(ExprKind::Lambda) || expr->is(ExprKind::UserFun))) failKind(info, *given, kind);
      operands.funs.push_back(*expr);
      break;
    case FieldKind::Data:
      if (!expr || expr->is(ExprKind::Lambda) || expr->is(ExprKind::UserFun)) failKind(info, *given, kind);
      operands.args.push_back(*expr);
      break;
    case FieldKind::DataList: {
      const auto *list = std::get_if<std::vector<Expr>>(&value);
      if (!list || list->empty()) failKind(info, *given, kind);
      operands.args = *list;
      break;
    }
    }
  }
  return Expr::prim(op, std::move(operands));
}

} // namespace liftcc::api
