// IR -> JSON. Deterministic: parameter names are made unique in traversal
// order (keeping the given name when it is free), user functions are
// collected by name, sizes are written as integers when constant, and the
// N-d compositions are written as the derived forms mapN, padN, slideN and
// zipN unless the options ask for the expanded form.
#include "core/ir/nd_forms.h"
#include "core/ir/stencil_form.h"
#include "core/json/derived_forms.h"
#include "core/json/program_json.h"

#include "core/io/json.h"
#include <optional>
#include <set>
#include <unordered_map>

namespace liftcc {

namespace {

using json = nlohmann::ordered_json;

class Writer {
public:
  explicit Writer(JsonWriteOptions options) : options_(options) {}

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
    case ExprKind::Literal: return json{{"literal", scalar(e.literal())}, {"type", scalarKindName(e.literal().kind())}};
    case ExprKind::Lambda: {
      json names = json::array();
      for (const Expr &p : e.params()) names.push_back(bind(p));
      return json{{"lambda", names}, {"body", expr(e.body())}};
    }
    case ExprKind::UserFun: defineUserFun(e.userFun()); return json{{"userFun", e.userFun().name()}};
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

  // The largest N-d form `e` is, tried in an order where no form's expansion
  // is a prefix of an earlier one's (slideN, padN and zipN are maps too).
  std::optional<json> derived(const Expr &e) {
    auto header = [](DerivedForm form, int dims) {
      json j;
      j["op"] = derivedFormInfo(form).name;
      j["dims"] = dims;
      return j;
    };
    if (auto m = nd::largestSlideN(e)) {
      json j = header(DerivedForm::SlideN, m->dims);
      j["size"] = size(m->size);
      j["step"] = size(m->step);
      j["in"] = expr(m->in);
      return j;
    }
    if (auto m = nd::largestPadN(e)) {
      json j = header(DerivedForm::PadN, static_cast<int>(m->left.size()));
      j["left"] = perDimension(m->left, [](const arith::Expr &s) { return size(s); });
      j["right"] = perDimension(m->right, [](const arith::Expr &s) { return size(s); });
      j["mode"] = perDimension(m->modes, [](PadMode mode) { return json(padModeName(mode)); });
      j["in"] = expr(m->in);
      return j;
    }
    if (auto m = nd::largestZipN(e)) {
      json j = header(DerivedForm::ZipN, m->dims);
      json list = json::array();
      for (const Expr &a : m->ins) list.push_back(expr(a));
      j["in"] = list;
      return j;
    }
    if (auto m = nd::largestMapN(e)) {
      json j = header(DerivedForm::MapN, m->dims);
      j["f"] = expr(m->f);
      j["in"] = expr(m->in);
      return j;
    }
    return std::nullopt;
  }

  // One value when every dimension has the same, else one per dimension.
  template <typename T, typename ToJson> static json perDimension(const std::vector<T> &values, ToJson toJson) {
    json first = toJson(values[0]);
    json all = json::array();
    bool uniform = true;
    for (const T &v : values) {
      all.push_back(toJson(v));
      uniform = uniform && all.back() == first;
    }
    return uniform ? first : all;
  }

  // The stencil form, when `e` is exactly the expansion of one whose grids
  // are parameters written under their own names.
  std::optional<json> stencilForm(const Expr &e) {
    auto nameOf = [&](const Expr &param) -> std::optional<std::string> {
      auto it = names_.find(param.id());
      if (it == names_.end()) return std::nullopt;
      return it->second;
    };
    auto form = stencil_form::match(e, nameOf);
    if (!form) return std::nullopt;
    json j;
    j["op"] = kStencilFormName;
    if (form->function != stencil_form::kDefaultFunctionName) j["name"] = form->function;
    json grids = json::object();
    for (const stencil_form::Grid &g : form->grids) {
      switch (g.boundary.kind) {
      case stencil_form::Boundary::Kind::Pad: grids[g.name] = padModeName(g.boundary.mode); break;
      case stencil_form::Boundary::Kind::Constant: grids[g.name] = json{{"constant", scalar(g.boundary.value)}}; break;
      case stencil_form::Boundary::Kind::PointWise: grids[g.name] = "pointwise"; break;
      }
    }
    j["grids"] = grids;
    if (!form->scalars.empty()) {
      json scalars = json::array();
      for (const stencil_form::ScalarParam &k : form->scalars) scalars.push_back(k.name);
      j["scalars"] = scalars;
    }
    if (form->returns) j["returns"] = std::string(scalarKindName(*form->returns));
    j["body"] = form->body;
    return j;
  }

  json prim(const Expr &e) {
    if (!options_.expanded) {
      if (auto j = stencilForm(e)) return *j;
      if (auto j = derived(e)) return *j;
    }
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

  JsonWriteOptions options_;
  std::set<std::string> used_;
  std::unordered_map<const void *, std::string> names_;
  json userFuns_ = json::object();
};

// Short objects and arrays on one line, so that a 2D stencil reads as a few
// dozen lines; the decision depends only on the text, so it is deterministic.
constexpr size_t kLineWidth = 100;

void writeOneLine(const json &j, std::string &out) {
  if (j.is_object() && !j.empty()) {
    out += '{';
    bool first = true;
    for (const auto &[key, value] : j.items()) {
      out += first ? "" : ", ";
      first = false;
      out += json(key).dump() + ": ";
      writeOneLine(value, out);
    }
    out += '}';
  } else if (j.is_array() && !j.empty()) {
    out += '[';
    for (size_t i = 0; i < j.size(); ++i) {
      out += i ? ", " : "";
      writeOneLine(j[i], out);
    }
    out += ']';
  } else {
    out += j.dump();
  }
}

// `column` is where the value starts on its line; a trailing comma may follow.
// A container that does not fit on the rest of the line gets one line per
// member, except that consecutive members that fit on one line are packed
// together up to the width (e.g. {"op": "at", "index": 1, then "in": ...).
void writeLaidOut(const json &j, size_t indent, size_t column, std::string &out) {
  std::string flat;
  writeOneLine(j, flat);
  if (!j.is_structured() || j.empty() || column + flat.size() + 1 <= kLineWidth) {
    out += flat;
    return;
  }
  const std::string inner(indent + 2, ' ');
  out += j.is_object() ? "{" : "[";
  size_t lineLength = 0; // of the current line of packed members; 0: none open
  size_t i = 0;
  for (const auto &[key, value] : j.items()) {
    const bool last = ++i == j.size();
    std::string prefix = j.is_object() ? json(key).dump() + ": " : "";
    std::string piece = prefix;
    writeOneLine(value, piece);
    if (!last) piece += ',';
    if (inner.size() + piece.size() <= kLineWidth) {
      if (lineLength > 0 && lineLength + 1 + piece.size() <= kLineWidth) {
        out += " " + piece;
        lineLength += 1 + piece.size();
      } else {
        out += "\n" + inner + piece;
        lineLength = inner.size() + piece.size();
      }
      continue;
    }
    out += "\n" + inner + prefix;
    writeLaidOut(value, indent + 2, inner.size() + prefix.size(), out);
    if (!last) out += ',';
    lineLength = 0;
  }
  out += "\n" + std::string(indent, ' ') + (j.is_object() ? "}" : "]");
}

} // namespace

nlohmann::json programToJson(const Program &program, JsonWriteOptions options) {
  return nlohmann::json::parse(Writer(options).write(program).dump());
}

std::string writeProgram(const Program &program, JsonWriteOptions options) {
  std::string out;
  writeLaidOut(Writer(options).write(program), 0, 0, out);
  return out + "\n";
}

} // namespace liftcc
