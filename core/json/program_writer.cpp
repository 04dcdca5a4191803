// IR -> JSON. Deterministic: parameter names are made unique in traversal
// order (keeping the given name when it is free), user functions are
// collected by name, sizes are written as integers when constant.
#include "core/json/program_json.h"

#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

namespace liftcc {

namespace {

using json = nlohmann::ordered_json;

class Writer {
public:
  json write(const Program &program) {
    json doc;
    doc["liftcc"] = kProgramFormatVersion;
    json sizes = json::array();
    for (const arith::Expr &s : program.sizes) {
      auto lo = s.varRange().lo;
      if (lo && lo->isConstant() && lo->constant() != 1)
        sizes.push_back(json{{"name", s.varName()}, {"min", lo->constant()}});
      else
        sizes.push_back(s.varName());
    }
    doc["sizes"] = sizes;
    // userFuns are collected while writing the body but must come first.
    json inputs = json::array();
    for (const Expr &in : program.inputs()) {
      inputs.push_back(json{{"name", bind(in)}, {"type", in.typeOrThrow().str()}});
    }
    json body = expr(program.body());
    if (!userFuns_.empty()) doc["userFuns"] = userFuns_;
    doc["inputs"] = inputs;
    doc["body"] = body;
    return doc;
  }

private:
  std::string bind(const Expr &param) {
    std::string name = param.name();
    for (int k = 1; used_.count(name); ++k) name = param.name() + std::to_string(k);
    used_.insert(name);
    names_[param.id()] = name;
    return name;
  }

  static json size(const arith::Expr &s) {
    if (s.isConstant()) return s.constant();
    return s.str();
  }

  static json scalar(const Scalar &v) {
    switch (v.kind()) {
    case ScalarKind::Bool: return v.asBool();
    case ScalarKind::Int: return v.asInt();
    case ScalarKind::Float: return v.asFloat();
    case ScalarKind::Double: return v.asDouble();
    }
    return nullptr;
  }

  void defineUserFun(const cfun::Function &f) {
    json params = json::array();
    for (const cfun::Param &p : f.params()) params.push_back(json{{"name", p.name}, {"type", scalarKindName(p.kind)}});
    json def{{"params", params}, {"returns", scalarKindName(f.result())}, {"body", f.body()}};
    auto it = userFuns_.find(f.name());
    if (it != userFuns_.end() && *it != def)
      throw JsonError("/userFuns/" + f.name(), "two different user functions are named \"" + f.name() + "\"");
    userFuns_[f.name()] = def;
  }

  json expr(const Expr &e) {
    switch (e.kind()) {
    case ExprKind::Param: {
      auto it = names_.find(e.id());
      if (it == names_.end()) throw JsonError("", "parameter '" + e.name() + "' is used outside its lambda");
      return json{{"param", it->second}};
    }
    case ExprKind::Literal:
      return json{{"literal", scalar(e.literal())}, {"type", scalarKindName(e.literal().kind())}};
    case ExprKind::Lambda: {
      json names = json::array();
      for (const Expr &p : e.params()) names.push_back(bind(p));
      return json{{"lambda", names}, {"body", expr(e.body())}};
    }
    case ExprKind::UserFun:
      defineUserFun(e.userFun());
      return json{{"userFun", e.userFun().name()}};
    case ExprKind::Apply: {
      json f = expr(e.fun());
      json args = json::array();
      for (const Expr &a : e.args()) args.push_back(expr(a));
      return json{{"apply", f}, {"args", args}};
    }
    case ExprKind::Prim: return prim(e);
    }
    return nullptr;
  }

  json prim(const Expr &e) {
    const OpInfo &info = e.info();
    json j;
    j["op"] = info.name;
    for (size_t i = 0; i < info.sizeFields.size(); ++i) j[std::string(info.sizeFields[i])] = size(e.sizes()[i]);
    if (info.attr == AttrKind::Dim) j["dim"] = e.attr();
    if (info.attr == AttrKind::TupleIndex) j["index"] = e.attr();
    if (info.hasPadMode) j["mode"] = padModeName(e.padMode());
    for (size_t i = 0; i < info.funFields.size(); ++i) j[std::string(info.funFields[i])] = expr(e.funs()[i]);
    if (info.variadicArgs) {
      json list = json::array();
      for (const Expr &a : e.args()) list.push_back(expr(a));
      j[std::string(info.argFields[0])] = list;
    } else {
      for (size_t i = 0; i < info.argFields.size(); ++i) j[std::string(info.argFields[i])] = expr(e.args()[i]);
    }
    return j;
  }

  std::set<std::string> used_;
  std::unordered_map<const void *, std::string> names_;
  json userFuns_ = json::object();
};

} // namespace

nlohmann::json programToJson(const Program &program) {
  return nlohmann::json::parse(Writer().write(program).dump());
}

std::string writeProgram(const Program &program) { return Writer().write(program).dump(2) + "\n"; }

} // namespace liftcc
