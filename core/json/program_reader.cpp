// JSON -> IR. Every error names the JSON pointer of the offending value.
#include "core/ir/nd_forms.h"
#include "core/ir/stencil_form.h"
#include "core/json/derived_forms.h"
#include "core/json/program_json.h"

#include "core/cfun/reserved.h"
#include "core/input_limits.h"
#include "core/io/json_file.h"

#include "core/io/json.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

namespace liftcc {

namespace {

using json = nlohmann::json;

/// The kinds of the elements of a tuple's components, where known.
using ComponentKinds = std::vector<std::optional<ScalarKind>>;

class Reader {
public:
  Program read(const json &doc) {
    requireObject(doc, "");
    allowOnly(doc, "", {"liftcc", "sizes", "userFuns", "inputs", "body"});
    const json &version = field(doc, "", "liftcc");
    if (!version.is_number_integer() || version.get<int64_t>() != kProgramFormatVersion)
      fail("/liftcc",
           "unsupported format version (this liftcc reads version " + std::to_string(kProgramFormatVersion) + ")");
    readSizes(doc);
    readUserFuns(doc);
    std::vector<Expr> inputs = readInputs(doc);
    for (const Expr &in : inputs) scopes_.push_back({in.name(), in});
    Expr body = readExpr(field(doc, "", "body"), "/body", 0);
    return Program{sizes_, Expr::lambda(std::move(inputs), std::move(body))};
  }

private:
  [[noreturn]] static void fail(const std::string &pointer, const std::string &message) {
    throw JsonError(pointer, message);
  }

  static std::string escape(std::string_view key) {
    std::string out;
    for (char c : key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return out;
  }

  static void requireObject(const json &j, const std::string &p) {
    if (!j.is_object()) fail(p, std::string("expected an object, found ") + j.type_name());
  }
  static const json &field(const json &j, const std::string &p, const char *name) {
    auto it = j.find(name);
    if (it == j.end()) fail(p, std::string("missing field \"") + name + "\"");
    return *it;
  }
  static void allowOnly(const json &j, const std::string &p, std::initializer_list<std::string_view> names) {
    for (const auto &[key, value] : j.items()) {
      bool known = false;
      for (std::string_view n : names) known |= key == n;
      if (!known) {
        std::string expected;
        for (std::string_view n : names) expected += (expected.empty() ? "" : ", ") + std::string(n);
        fail(p + "/" + escape(key), "unknown field \"" + key + "\" (expected one of: " + expected + ")");
      }
    }
  }
  static std::string string(const json &j, const std::string &p) {
    if (!j.is_string()) fail(p, std::string("expected a string, found ") + j.type_name());
    return j.get<std::string>();
  }
  /// Kernel parameters may not hide a builtin the kernel calls
  /// (get_global_id, a math function) nor be a keyword or type.
  static std::optional<std::string> reservedParameterName(const std::string &name) {
    if (auto why = cfun::reservedVariableName(name)) return why;
    return cfun::reservedFunctionName(name);
  }
  static bool isIdentifier(const std::string &s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
  }

  void readSizes(const json &doc) {
    auto it = doc.find("sizes");
    if (it == doc.end()) return;
    if (!it->is_array()) fail("/sizes", "expected an array of size declarations");
    for (size_t i = 0; i < it->size(); ++i) {
      const json &s = (*it)[i];
      std::string p = "/sizes/" + std::to_string(i);
      std::string name;
      int64_t minimum = 1;
      if (s.is_string()) {
        name = s.get<std::string>();
      } else {
        requireObject(s, p);
        allowOnly(s, p, {"name", "min"});
        name = string(field(s, p, "name"), p + "/name");
        if (auto m = s.find("min"); m != s.end()) {
          if (!m->is_number_integer()) fail(p + "/min", "expected an integer");
          minimum = m->get<int64_t>();
          // Sizes are array lengths, at least 1 already: a lower minimum says nothing.
          if (minimum < 1) fail(p + "/min", "expected at least 1 (a size is an array length), found " + m->dump());
        }
      }
      if (!isIdentifier(name)) fail(p, "size name \"" + name + "\" is not an identifier");
      // Sizes and inputs become kernel parameters: a keyword or builtin name would break the kernel build.
      if (auto why = reservedParameterName(name)) fail(p, "size name " + *why);
      if (ranges_.count(name)) fail(p, "size \"" + name + "\" is declared twice");
      ranges_[name] = arith::Range::atLeast(minimum);
      sizes_.push_back(arith::Expr::var(name, ranges_[name]));
    }
  }

  void readUserFuns(const json &doc) {
    auto it = doc.find("userFuns");
    if (it == doc.end()) return;
    if (!it->is_object()) fail("/userFuns", "expected an object mapping names to user functions");
    for (const auto &[name, def] : it->items()) {
      std::string p = "/userFuns/" + escape(name);
      requireObject(def, p);
      allowOnly(def, p, {"params", "returns", "body"});
      if (!isIdentifier(name)) fail(p, "user function name \"" + name + "\" is not an identifier");
      if (ranges_.count(name)) fail(p, "user function \"" + name + "\" has the name of a size");
      const json &params = field(def, p, "params");
      if (!params.is_array()) fail(p + "/params", "expected an array of {\"name\", \"type\"}");
      std::vector<cfun::Param> ps;
      for (size_t i = 0; i < params.size(); ++i) {
        std::string pp = p + "/params/" + std::to_string(i);
        requireObject(params[i], pp);
        allowOnly(params[i], pp, {"name", "type"});
        std::string pname = string(field(params[i], pp, "name"), pp + "/name");
        ps.push_back({pname, scalarKind(field(params[i], pp, "type"), pp + "/type")});
      }
      ScalarKind result = scalarKind(field(def, p, "returns"), p + "/returns");
      std::string body = string(field(def, p, "body"), p + "/body");
      // A name liftcc generates is refused, unless this is the generated
      // function itself (a rewritten program written back by `liftc rewrite`).
      if (auto why = cfun::generatedName(name); why && !isGeneratedIdentity(name, ps, result, body))
        fail(p, "user function name " + *why);
      try {
        userFuns_.emplace(name, Expr::userFun(cfun::Function::compile(name, std::move(ps), result, body)));
      } catch (const cfun::CFunError &e) {
        fail(p + "/body", e.what());
      }
    }
  }

  /// The identity function the local and private memory rewrites insert.
  static bool isGeneratedIdentity(const std::string &name, const std::vector<cfun::Param> &params, ScalarKind result,
                                  const std::string &body) {
    return name == cfun::identityFunctionName(result) && params.size() == 1 &&
           params[0].name == cfun::kIdentityParameter && params[0].kind == result && body == cfun::kIdentityBody;
  }

  static ScalarKind scalarKind(const json &j, const std::string &p) {
    std::string s = string(j, p);
    auto kind = parseScalarKind(s);
    if (!kind) fail(p, "unknown scalar type \"" + s + "\" (expected bool, int, float or double)");
    return *kind;
  }

  std::vector<Expr> readInputs(const json &doc) {
    const json &inputs = field(doc, "", "inputs");
    if (!inputs.is_array()) fail("/inputs", "expected an array of {\"name\", \"type\"}");
    std::vector<Expr> out;
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string p = "/inputs/" + std::to_string(i);
      requireObject(inputs[i], p);
      allowOnly(inputs[i], p, {"name", "type"});
      std::string name = string(field(inputs[i], p, "name"), p + "/name");
      if (!isIdentifier(name)) fail(p + "/name", "input name \"" + name + "\" is not an identifier");
      if (auto why = reservedParameterName(name)) fail(p + "/name", "input name " + *why);
      if (userFuns_.count(name) || ranges_.count(name))
        fail(p + "/name",
             "input \"" + name + "\" has the name of a " + (ranges_.count(name) ? "size" : "user function"));
      for (const Expr &other : out)
        if (other.name() == name) fail(p + "/name", "input \"" + name + "\" is declared twice");
      out.push_back(Expr::param(name, type(field(inputs[i], p, "type"), p + "/type")));
    }
    return out;
  }

  Type type(const json &j, const std::string &p) {
    try {
      return parseType(string(j, p), ranges_);
    } catch (const std::invalid_argument &e) {
      fail(p, e.what());
    }
  }

  arith::Expr size(const json &j, const std::string &p) {
    std::string text;
    if (j.is_number_integer()) return arith::Expr(j.get<int64_t>());
    if (!j.is_string()) fail(p, std::string("expected an integer or a size expression string, found ") + j.type_name());
    text = j.get<std::string>();
    try {
      arith::Expr e = arith::parse(text, ranges_);
      for (const std::string &v : arith::freeVariables(e))
        if (!ranges_.count(v)) fail(p, "unknown size variable '" + v + "' (declare it in \"sizes\")");
      return e;
    } catch (const arith::ParseError &e) {
      fail(p, std::string("bad size expression: ") + e.what());
    }
  }

  static int integer(const json &j, const std::string &p) {
    if (!j.is_number_integer()) fail(p, std::string("expected an integer, found ") + j.type_name());
    int64_t v = j.get<int64_t>();
    if (v < -1000000 || v > 1000000) fail(p, "integer out of range");
    return static_cast<int>(v);
  }

  Expr readExpr(const json &j, const std::string &p, int depth) {
    if (depth > limits::kMaxProgramNesting)
      fail(p, "expression " + limits::nestedDeeperThan(limits::kMaxProgramNesting));
    requireObject(j, p);
    if (j.contains("param")) {
      allowOnly(j, p, {"param"});
      std::string name = string(j["param"], p + "/param");
      for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
        if (it->first == name) return it->second;
      fail(p + "/param", "unknown parameter \"" + name + "\"");
    }
    if (j.contains("literal")) {
      allowOnly(j, p, {"literal", "type"});
      return literal(j["literal"], scalarKind(field(j, p, "type"), p + "/type"), p + "/literal");
    }
    if (j.contains("lambda")) {
      allowOnly(j, p, {"lambda", "body"});
      const json &names = j["lambda"];
      if (!names.is_array() || names.empty()) fail(p + "/lambda", "expected a non-empty array of parameter names");
      std::vector<Expr> params;
      // Kinds of the parameters' elements where the caller knows them.
      std::vector<std::optional<ScalarKind>> kinds = std::exchange(nextLambdaKinds_, {});
      std::vector<ComponentKinds> components = std::exchange(nextLambdaComponents_, {});
      for (size_t i = 0; i < names.size(); ++i) {
        std::string name = string(names[i], p + "/lambda/" + std::to_string(i));
        if (!isIdentifier(name)) fail(p + "/lambda/" + std::to_string(i), "\"" + name + "\" is not an identifier");
        params.push_back(Expr::param(name));
        if (i < kinds.size() && kinds[i]) paramKinds_.emplace(params.back().id(), *kinds[i]);
        if (i < components.size() && !components[i].empty())
          paramComponentKinds_.emplace(params.back().id(), components[i]);
      }
      for (const Expr &param : params) scopes_.push_back({param.name(), param});
      Expr body = readExpr(field(j, p, "body"), p + "/body", depth + 1);
      for (size_t i = 0; i < params.size(); ++i) scopes_.pop_back();
      return Expr::lambda(std::move(params), std::move(body));
    }
    if (j.contains("userFun")) {
      allowOnly(j, p, {"userFun"});
      std::string name = string(j["userFun"], p + "/userFun");
      auto it = userFuns_.find(name);
      if (it == userFuns_.end())
        fail(p + "/userFun", "unknown user function \"" + name + "\" (define it in \"userFuns\")");
      return it->second;
    }
    if (j.contains("apply")) {
      allowOnly(j, p, {"apply", "args"});
      const json &args = field(j, p, "args");
      if (!args.is_array()) fail(p + "/args", "expected an array of arguments");
      // A lambda's arguments first: the kinds of their elements are those of
      // its parameters, which a stencil form in its body reads as grids.
      const bool lambda = j["apply"].is_object() && j["apply"].contains("lambda");
      std::vector<Expr> as;
      if (lambda) {
        for (size_t i = 0; i < args.size(); ++i)
          as.push_back(readExpr(args[i], p + "/args/" + std::to_string(i), depth + 1));
        for (const Expr &a : as) {
          nextLambdaKinds_.push_back(knownElementKind(a));
          nextLambdaComponents_.push_back(knownComponentKinds(a));
        }
      }
      Expr f = readExpr(j["apply"], p + "/apply", depth + 1);
      nextLambdaKinds_.clear();
      nextLambdaComponents_.clear();
      if (!lambda)
        for (size_t i = 0; i < args.size(); ++i)
          as.push_back(readExpr(args[i], p + "/args/" + std::to_string(i), depth + 1));
      return Expr::apply(std::move(f), std::move(as));
    }
    if (j.contains("op")) return readPrim(j, p, depth);
    fail(p,
         "expected an expression: an object with \"op\", \"param\", \"literal\", \"lambda\", \"userFun\" or \"apply\"");
  }

  static Expr literal(const json &v, ScalarKind kind, const std::string &p) {
    switch (kind) {
    case ScalarKind::Bool:
      if (!v.is_boolean()) fail(p, "expected true or false");
      return Expr::literal(Scalar::ofBool(v.get<bool>()));
    case ScalarKind::Int:
      if (!v.is_number_integer() || v.get<int64_t>() < INT32_MIN || v.get<int64_t>() > INT32_MAX)
        fail(p, "expected a 32-bit integer");
      return Expr::literal(Scalar::ofInt(static_cast<int32_t>(v.get<int64_t>())));
    case ScalarKind::Float:
      if (!v.is_number()) fail(p, "expected a number");
      // Converting an out-of-range double to float is undefined behaviour in C++.
      if (std::fabs(v.get<double>()) > double(std::numeric_limits<float>::max()))
        fail(p, "number out of the range of float");
      return Expr::literal(Scalar::ofFloat(v.get<float>()));
    case ScalarKind::Double:
      if (!v.is_number()) fail(p, "expected a number");
      return Expr::literal(Scalar::ofDouble(v.get<double>()));
    }
    fail(p, "bad literal");
  }

  Expr readPrim(const json &j, const std::string &p, int depth) {
    std::string name = string(j["op"], p + "/op");
    if (name == kStencilFormName) return readStencil(j, p, depth);
    if (auto form = derivedFormByName(name)) return readDerived(*form, j, p, depth);
    auto op = opByName(name);
    if (!op) fail(p + "/op", "unknown primitive \"" + name + "\"");
    const OpInfo &info = opInfo(*op);
    std::vector<std::string_view> allowed{"op"};
    allowed.insert(allowed.end(), info.sizeFields.begin(), info.sizeFields.end());
    allowed.insert(allowed.end(), info.funFields.begin(), info.funFields.end());
    allowed.insert(allowed.end(), info.argFields.begin(), info.argFields.end());
    if (info.attr == AttrKind::Dim) allowed.push_back("dim");
    if (info.attr == AttrKind::TupleIndex) allowed.push_back("index");
    if (info.hasPadMode) allowed.push_back("mode");
    for (const auto &[key, value] : j.items())
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        std::string list;
        for (size_t i = 1; i < allowed.size(); ++i) list += (i > 1 ? ", " : "") + std::string(allowed[i]);
        fail(p + "/" + escape(key), "unknown field \"" + key + "\" for " + name + " (expected: " + list + ")");
      }

    Expr::PrimOperands o;
    for (std::string_view f : info.sizeFields) {
      std::string key(f);
      o.sizes.push_back(size(field(j, p, key.c_str()), p + "/" + key));
    }
    if (info.attr == AttrKind::Dim) o.attr = j.contains("dim") ? integer(j["dim"], p + "/dim") : 0;
    if (info.attr == AttrKind::TupleIndex) o.attr = integer(field(j, p, "index"), p + "/index");
    if (info.hasPadMode) o.padMode = padMode(field(j, p, "mode"), p + "/mode");
    // iterate reads its array first: its elements' kind is that of the step's
    // parameter, which a stencil form in the step reads as a grid. (Two
    // phases in this frame, not helper calls: each level of a program is a
    // few frames of this recursion, and the nesting limit must fit the stack.)
    const bool argsFirst = *op == Op::Iterate;
    for (int phase = 0; phase < 2; ++phase) {
      if ((phase == 0) != argsFirst) {
        if (argsFirst && !o.args.empty()) {
          nextLambdaKinds_ = {knownElementKind(o.args.front())};
          nextLambdaComponents_ = {knownComponentKinds(o.args.front())};
        }
        for (std::string_view f : info.funFields) {
          std::string key(f);
          o.funs.push_back(readExpr(field(j, p, key.c_str()), p + "/" + key, depth + 1));
        }
        nextLambdaKinds_.clear();
        nextLambdaComponents_.clear();
      } else if (info.variadicArgs) {
        std::string key(info.argFields[0]);
        const json &list = field(j, p, key.c_str());
        if (!list.is_array() || list.empty()) fail(p + "/" + key, name + ": expected a non-empty array of inputs");
        for (size_t i = 0; i < list.size(); ++i)
          o.args.push_back(readExpr(list[i], p + "/" + key + "/" + std::to_string(i), depth + 1));
      } else {
        for (std::string_view f : info.argFields) {
          std::string key(f);
          o.args.push_back(readExpr(field(j, p, key.c_str()), p + "/" + key, depth + 1));
        }
      }
    }
    return Expr::prim(*op, std::move(o));
  }

  /// The scalar kind of the elements of `e` where it is known before type
  /// checking: a typed expression's (an input), a lambda parameter's given by
  /// its argument, a stencil's (its function's result), an iterate's input's.
  std::optional<ScalarKind> knownElementKind(const Expr &e) const {
    if (e.type()) {
      Type t = e.type()->innermost();
      return t.isScalar() ? std::optional<ScalarKind>(t.scalarKind()) : std::nullopt;
    }
    if (e.is(ExprKind::Param)) {
      auto it = paramKinds_.find(e.id());
      return it == paramKinds_.end() ? std::nullopt : std::optional<ScalarKind>(it->second);
    }
    if (e.isPrim(Op::Iterate) && !e.args().empty()) return knownElementKind(e.args().front());
    if (e.isPrim(Op::Get) && !e.args().empty()) {
      ComponentKinds components = knownComponentKinds(e.args().front());
      size_t index = static_cast<size_t>(e.attr());
      return index < components.size() ? components[index] : std::nullopt;
    }
    std::optional<nd::MapNParts> m = nd::largestMapN(e);
    if (!m) m = nd::matchMapN(e, 1);
    if (m && m->f.is(ExprKind::Lambda) && m->f.body().is(ExprKind::Apply) && m->f.body().fun().is(ExprKind::UserFun))
      return m->f.body().fun().userFun().result();
    return std::nullopt;
  }

  /// The kinds of the elements of each component of a tuple `e` where they
  /// are known before type checking: tuple(A, B) of inputs, a lambda
  /// parameter given such a tuple (an iterate's state), an iterate over one.
  /// Empty when `e` is not known to be a tuple.
  ComponentKinds knownComponentKinds(const Expr &e) const {
    ComponentKinds kinds;
    if (e.isPrim(Op::Tuple))
      for (const Expr &a : e.args()) kinds.push_back(knownElementKind(a));
    if (e.is(ExprKind::Param))
      if (auto it = paramComponentKinds_.find(e.id()); it != paramComponentKinds_.end()) kinds = it->second;
    if (e.isPrim(Op::Iterate) && !e.args().empty()) kinds = knownComponentKinds(e.args().front());
    return kinds;
  }

  static PadMode padMode(const json &j, const std::string &p) {
    std::string mode = string(j, p);
    auto m = parsePadMode(mode);
    if (!m) fail(p, "unknown pad mode \"" + mode + "\" (expected clamp, mirror or wrap)");
    return *m;
  }

  // The stencil form (core/ir/stencil_form.h): {"op": "stencil", "grids":
  // {"A": "clamp", ...}, "body": "return ... A[-1][0] ...;", "name": "f"}.
  // Its errors name the grid (/grids/A), the body or the name.
  Expr readStencil(const json &j, const std::string &p, int depth) {
    allowOnly(j, p, {"op", "grids", "scalars", "body", "name", "returns"});
    const json &grids = field(j, p, "grids");
    if (!grids.is_object() || grids.empty())
      fail(p + "/grids", "stencil: expected an object mapping grid names to boundaries, e.g. {\"A\": \"clamp\"}");
    stencil_form::Form form;
    for (const auto &[name, boundary] : grids.items()) {
      std::string gp = p + "/grids/" + escape(name);
      auto in = std::find_if(scopes_.rbegin(), scopes_.rend(), [&](const auto &s) { return s.first == name; });
      if (in == scopes_.rend()) fail(gp, "stencil: unknown grid \"" + name + "\" (not an input or parameter in scope)");
      form.grids.emplace_back(name, in->second, stencilBoundary(boundary, gp));
      if (auto kind = knownElementKind(in->second)) form.grids.back().kind = kind;
    }
    if (auto scalars = j.find("scalars"); scalars != j.end()) {
      if (!scalars->is_array()) fail(p + "/scalars", "stencil: expected an array of scalar input names");
      for (size_t i = 0; i < scalars->size(); ++i) {
        std::string sp = p + "/scalars/" + std::to_string(i), name = string((*scalars)[i], sp);
        auto in = std::find_if(scopes_.rbegin(), scopes_.rend(), [&](const auto &s) { return s.first == name; });
        if (in == scopes_.rend())
          fail(sp, "stencil: unknown scalar \"" + name + "\" (not an input or parameter in scope)");
        form.scalars.emplace_back(name, in->second);
      }
    }
    form.body = string(field(j, p, "body"), p + "/body");
    if (j.contains("returns")) form.returns = scalarKind(j["returns"], p + "/returns");
    if (j.contains("name")) {
      form.function = string(j["name"], p + "/name");
      if (!isIdentifier(form.function)) fail(p + "/name", "stencil: \"" + form.function + "\" is not an identifier");
      if (auto why = cfun::generatedName(form.function)) fail(p + "/name", "stencil function name " + *why);
    }
    Expr e = [&] {
      try {
        return stencil_form::build(form);
      } catch (const stencil_form::FormError &error) {
        if (error.aboutScalar()) {
          size_t i = 0;
          while (i + 1 < form.scalars.size() && form.scalars[i].name != error.grid()) ++i;
          fail(p + "/scalars/" + std::to_string(i), error.what());
        }
        fail(error.grid().empty() ? p + "/body" : p + "/grids/" + escape(error.grid()), error.what());
      }
    }();
    // One user function per name: a second stencil (or a userFuns entry) of
    // the same name and another body would give the kernel two definitions.
    Expr f = stencil_form::userFunction(e);
    for (const auto *known : {&userFuns_, &stencilFuns_})
      if (auto it = known->find(form.function); it != known->end() && it->second != f)
        fail(p + (j.contains("name") ? "/name" : ""),
             "stencil: the function name \"" + form.function + "\" is already used by " +
                 (known == &userFuns_ ? "a user function" : "another stencil") +
                 " with another body (give this stencil a \"name\")");
    stencilFuns_.emplace(form.function, f);
    // The expansion nests a map and a lambda per dimension, a zip, the
    // function and an `at` per dimension: counted as for the derived forms.
    auto map = nd::largestMapN(e);
    const int dims = map ? map->dims : 1;
    if (depth + 3 * dims + 2 > limits::kMaxProgramNesting)
      fail(p, "expression " + limits::nestedDeeperThan(limits::kMaxProgramNesting));
    return e;
  }

  static stencil_form::Boundary stencilBoundary(const json &b, const std::string &p) {
    if (b.is_object()) {
      allowOnly(b, p, {"constant"});
      const json &v = field(b, p, "constant");
      if (!v.is_number()) fail(p + "/constant", std::string("expected a number, found ") + v.type_name());
      // Converted to the grid's element type when the stencil is built.
      if (std::fabs(v.get<double>()) > double(std::numeric_limits<float>::max()))
        fail(p + "/constant", "number out of the range of float");
      return stencil_form::Boundary::constant(Scalar::ofDouble(v.get<double>()));
    }
    std::string mode = string(b, p);
    if (mode == "pointwise") return stencil_form::Boundary::pointWise();
    auto m = parsePadMode(mode);
    if (!m)
      fail(p, "stencil: unknown boundary \"" + mode +
                  "\" (expected clamp, mirror, wrap, pointwise or {\"constant\": value})");
    return stencil_form::Boundary::pad(*m);
  }

  // A derived form (mapN, padN, slideN, zipN) expands to the 1D primitives
  // exactly as the C++ API builds it; its errors name this node's pointer.
  Expr readDerived(DerivedForm form, const json &j, const std::string &p, int depth) {
    const DerivedFormInfo &info = derivedFormInfo(form);
    std::string name(info.name);
    for (const auto &[key, value] : j.items()) {
      if (key == "op" || std::find(info.fields.begin(), info.fields.end(), key) != info.fields.end()) continue;
      std::string list;
      for (std::string_view f : info.fields) list += (list.empty() ? "" : ", ") + std::string(f);
      fail(p + "/" + escape(key), "unknown field \"" + key + "\" for " + name + " (expected: " + list + ")");
    }
    int dims = integer(field(j, p, "dims"), p + "/dims");
    if (dims < 1 || dims > kMaxDerivedDims)
      fail(p + "/dims", name + ": dims must be between 1 and " + std::to_string(kMaxDerivedDims) + ", found " +
                            std::to_string(dims));
    // The form expands to up to two levels (a map and its lambda) per
    // dimension, which every later pass recurses through: they count.
    const int inner = depth + 2 * dims;
    switch (form) {
    case DerivedForm::MapN: {
      Expr f = readExpr(field(j, p, "f"), p + "/f", inner);
      return nd::mapN(dims, std::move(f), readExpr(field(j, p, "in"), p + "/in", inner));
    }
    case DerivedForm::SlideN: {
      arith::Expr n = size(field(j, p, "size"), p + "/size");
      arith::Expr step = size(field(j, p, "step"), p + "/step");
      return nd::slideN(dims, std::move(n), std::move(step), readExpr(field(j, p, "in"), p + "/in", inner));
    }
    case DerivedForm::PadN: {
      auto readSize = [&](const json &v, const std::string &vp) { return size(v, vp); };
      std::vector<arith::Expr> left = perDimension<arith::Expr>(j, p, "left", dims, readSize);
      std::vector<arith::Expr> right = perDimension<arith::Expr>(j, p, "right", dims, readSize);
      std::vector<PadMode> modes = perDimension<PadMode>(j, p, "mode", dims, padMode);
      Expr in = readExpr(field(j, p, "in"), p + "/in", inner);
      return nd::padN(std::move(left), std::move(right), std::move(modes), std::move(in));
    }
    case DerivedForm::ZipN: {
      const json &list = field(j, p, "in");
      if (!list.is_array() || list.empty()) fail(p + "/in", name + ": expected a non-empty array of inputs");
      std::vector<Expr> ins;
      for (size_t i = 0; i < list.size(); ++i) ins.push_back(readExpr(list[i], p + "/in/" + std::to_string(i), inner));
      return nd::zipN(dims, std::move(ins));
    }
    }
    fail(p + "/op", "unhandled derived form " + name);
  }

  // A padN boundary field: one value for every dimension, or an array with
  // one per dimension, outermost first.
  template <typename T, typename ReadOne>
  static std::vector<T> perDimension(const json &j, const std::string &p, const char *key, int dims, ReadOne readOne) {
    const json &value = field(j, p, key);
    std::string vp = p + "/" + key;
    if (!value.is_array()) return std::vector<T>(static_cast<size_t>(dims), readOne(value, vp));
    if (value.size() != static_cast<size_t>(dims))
      fail(vp, "padN: expected " + std::to_string(dims) + " entries (one per dimension, outermost first), found " +
                   std::to_string(value.size()));
    std::vector<T> out;
    for (size_t i = 0; i < value.size(); ++i) out.push_back(readOne(value[i], vp + "/" + std::to_string(i)));
    return out;
  }

  std::map<std::string, arith::Range> ranges_;
  std::vector<arith::Expr> sizes_;
  std::map<std::string, Expr> userFuns_;
  std::map<std::string, Expr> stencilFuns_; ///< the functions stencil forms generated, by name
  std::vector<std::pair<std::string, Expr>> scopes_;
  /// The element kinds of lambda parameters known from their arguments (by
  /// node): a stencil form reads such an untyped grid's elements as that kind.
  std::unordered_map<const void *, ScalarKind> paramKinds_;
  /// The same for parameters holding a tuple of arrays: one kind per component.
  std::unordered_map<const void *, ComponentKinds> paramComponentKinds_;
  /// The kinds for the parameters of the lambda read next (set by iterate and
  /// by the application of a lambda, consumed by the lambda).
  std::vector<std::optional<ScalarKind>> nextLambdaKinds_;
  std::vector<ComponentKinds> nextLambdaComponents_;
};

} // namespace

Program programFromJson(const nlohmann::json &document) { return Reader().read(document); }

namespace {

/// Follows the parser through the document, so that an error the parser
/// raises itself (a number out of range, 1e999) names the JSON pointer of
/// the value being read, not only a byte offset.
class PointerTracker {
public:
  bool operator()(int, nlohmann::json::parse_event_t event, nlohmann::json &parsed) {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
    case Event::object_start:
    case Event::array_start:
      // Refused before the document is built: every later pass over it recurses.
      if (frames_.size() >= size_t(limits::kMaxJsonNesting))
        throw JsonError(pointer(), "JSON " + limits::nestedDeeperThan(limits::kMaxJsonNesting));
      frames_.push_back({event == Event::array_start, 0, "", {}});
      break;
    case Event::key:
      if (!frames_.empty()) {
        Frame &object = frames_.back();
        object.key = parsed.is_string() ? parsed.get<std::string>() : std::string();
        // JSON parsers keep the last of repeated keys: a pasted or mistyped
        // second "body" would silently replace the first.
        if (!object.keys.insert(object.key).second)
          throw JsonError(pointer(), "duplicate key '" + object.key + "' in one object");
      }
      break;
    case Event::object_end:
    case Event::array_end:
      if (!frames_.empty()) frames_.pop_back();
      advance();
      break;
    case Event::value: advance(); break;
    }
    return true;
  }
  /// The pointer of the value the parser is reading now.
  std::string pointer() const {
    std::string p;
    for (const Frame &f : frames_) {
      p += "/";
      if (f.isArray)
        p += std::to_string(f.index);
      else
        for (char c : f.key) p += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return p;
  }

private:
  struct Frame {
    bool isArray;
    size_t index;
    std::string key;
    std::set<std::string> keys; ///< of an object, so far
  };
  void advance() {
    if (!frames_.empty() && frames_.back().isArray) ++frames_.back().index;
  }
  std::vector<Frame> frames_;
};

} // namespace

Program readProgram(const std::string &text) {
  nlohmann::json doc;
  PointerTracker tracker;
  try {
    doc = nlohmann::json::parse(text, std::ref(tracker));
  } catch (const nlohmann::json::exception &e) {
    const std::string what = io::withoutJsonLibraryPrefix(e.what());
    if (dynamic_cast<const nlohmann::json::out_of_range *>(&e))
      throw JsonError(tracker.pointer(), "the number is out of range: " + what);
    throw JsonError("", "malformed JSON: " + what); // the position names the place (the pointer may not exist yet)
  }
  return programFromJson(doc);
}

} // namespace liftcc
