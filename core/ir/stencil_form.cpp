#include "core/ir/stencil_form.h"

#include "core/cfun/errors.h"
#include "core/ir/nd_forms.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

namespace liftcc::stencil_form {

namespace {

bool identifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// A piece of the body: an identifier (with its position) or other text.
/// Comments and numbers (1.5e3f) are other text, so nothing in them is
/// taken for a name.
struct Token {
  bool identifier;
  size_t begin, end;
};

std::vector<Token> tokenize(const std::string &s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t begin = i;
    if (s.compare(i, 2, "//") == 0) {
      i = s.find('\n', i);
      i = i == std::string::npos ? s.size() : i;
    } else if (s.compare(i, 2, "/*") == 0) {
      i = s.find("*/", i + 2);
      i = i == std::string::npos ? s.size() : i + 2;
    } else if (std::isdigit(static_cast<unsigned char>(s[i])) ||
               (s[i] == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < s.size() && (identifierChar(s[i]) || s[i] == '.')) ++i;
    } else if (identifierStart(s[i])) {
      while (i < s.size() && identifierChar(s[i])) ++i;
      out.push_back({true, begin, i});
      continue;
    } else {
      ++i;
    }
    out.push_back({false, begin, i});
  }
  return out;
}

using Offsets = std::vector<int>;

std::string spelled(const std::string &grid, const Offsets &offsets) {
  std::string out = grid;
  for (int o : offsets) out += "[" + std::to_string(o) + "]";
  return out;
}

/// GRID_m1_0 for GRID[-1][0].
std::string parameterName(const std::string &grid, const Offsets &offsets) {
  std::string out = grid;
  for (int o : offsets) out += "_" + (o < 0 ? "m" + std::to_string(-o) : std::to_string(o));
  return out;
}

/// One neighbour read in the body: where, which grid, which offsets.
struct Access {
  size_t begin, end; ///< the text GRID[..][..]
  size_t grid;
  Offsets offsets;
};

size_t skipSpace(const std::string &s, size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

/// The subscripts after a grid name at `i` (the first '['); `end` is set past the last ']'.
Offsets subscripts(const std::string &body, const std::string &grid, size_t i, size_t &end) {
  Offsets offsets;
  for (i = skipSpace(body, i); i < body.size() && body[i] == '['; i = skipSpace(body, i)) {
    size_t close = body.find(']', i);
    std::string inside = body.substr(i + 1, close == std::string::npos ? std::string::npos : close - i - 1);
    size_t k = skipSpace(inside, 0);
    bool negative = k < inside.size() && inside[k] == '-';
    if (k < inside.size() && (inside[k] == '-' || inside[k] == '+')) k = skipSpace(inside, k + 1);
    size_t digits = k;
    while (k < inside.size() && std::isdigit(static_cast<unsigned char>(inside[k]))) ++k;
    bool literal = close != std::string::npos && k > digits && k - digits <= 6 && skipSpace(inside, k) == inside.size();
    if (!literal) {
      std::string shown = inside.size() > 40 ? inside.substr(0, 40) + "..." : inside;
      throw FormError("", "offset " + spelled(grid, offsets) + "[" + shown + (close == std::string::npos ? "" : "]") +
                              " is not an integer literal (offsets are constants such as -1, 0, 2)");
    }
    int value = std::atoi(inside.substr(digits, k - digits).c_str());
    offsets.push_back(negative ? -value : value);
    i = close + 1;
    end = i;
  }
  return offsets;
}

struct Parsed {
  std::vector<Access> accesses;
  std::set<std::string> otherIdentifiers;
};

Parsed parseBody(const Form &form) {
  Parsed out;
  const std::string &body = form.body;
  std::vector<Token> tokens = tokenize(body);
  for (size_t t = 0; t < tokens.size(); ++t) {
    const Token &tok = tokens[t];
    if (!tok.identifier) continue;
    std::string name = body.substr(tok.begin, tok.end - tok.begin);
    size_t next = skipSpace(body, tok.end);
    bool subscripted = next < body.size() && body[next] == '[';
    auto grid = std::find_if(form.grids.begin(), form.grids.end(), [&](const Grid &g) { return g.name == name; });
    if (grid == form.grids.end()) {
      if (subscripted) {
        std::string known;
        for (const Grid &g : form.grids) known += (known.empty() ? "" : ", ") + g.name;
        throw FormError("", "unknown grid \"" + name + "\" in " + name + "[...] (the grids are: " + known + ")");
      }
      out.otherIdentifiers.insert(name);
      continue;
    }
    if (!subscripted)
      throw FormError("", "grid " + name + " is read without subscripts (a neighbour is " + name +
                              "[offset]..., the centre " + name + "[0]...)");
    size_t end = next;
    Offsets offsets = subscripts(body, name, next, end);
    out.accesses.push_back({tok.begin, end, static_cast<size_t>(grid - form.grids.begin()), offsets});
    while (t + 1 < tokens.size() && tokens[t + 1].begin < end) ++t;
  }
  return out;
}

/// The scalar kind of a grid's elements, checking its rank against the
/// subscripts; for an untyped grid (a lambda parameter) the kind its context
/// gave, else float.
ScalarKind elementKind(const Grid &grid, int dims) {
  if (!grid.in.type()) return grid.kind.value_or(ScalarKind::Float);
  const Type &t = *grid.in.type();
  if (t.rank() != dims)
    throw FormError(grid.name, grid.name + " is read with " + std::to_string(dims) + " subscript" +
                                   (dims == 1 ? "" : "s") + " but has " + std::to_string(t.rank()) + " dimension" +
                                   (t.rank() == 1 ? "" : "s") + " (" + t.str() + ")");
  Type e = t.innermost();
  if (!e.isScalar()) throw FormError(grid.name, grid.name + " has elements of type " + e.str() + ", not scalars");
  return e.scalarKind();
}

Expr padConstantN(int dims, const arith::Expr &n, const Expr &value, Expr in) {
  Expr::PrimOperands o;
  o.sizes = {n, n};
  o.args = {value, std::move(in)};
  Expr outer = Expr::prim(Op::PadConstant, std::move(o));
  if (dims == 1) return outer;
  Expr row = Expr::param("row");
  Expr::PrimOperands m;
  m.funs = {Expr::lambda({row}, padConstantN(dims - 1, n, value, row))};
  m.args = {outer};
  return Expr::prim(Op::Map, std::move(m));
}

Expr at(int index, Expr in) {
  Expr::PrimOperands o;
  o.sizes = {arith::Expr(index)};
  o.args = {std::move(in)};
  return Expr::prim(Op::At, std::move(o));
}

Expr get(int index, Expr in) {
  Expr::PrimOperands o;
  o.attr = index;
  o.args = {std::move(in)};
  return Expr::prim(Op::Get, std::move(o));
}

/// What the accesses say about the stencil: the grids in order of first use,
/// the dimension count, each grid's radius and the distinct neighbours in
/// order of first use.
struct Shape {
  std::vector<size_t> order;
  int dims = 0;
  std::vector<int> radius;
  std::vector<std::pair<size_t, Offsets>> neighbours;
};

/// Every grid is read, with one dimension count; offsets within the largest
/// radius, point-wise grids at their centre only.
Shape shapeOf(const Form &form, const Parsed &parsed) {
  Shape shape;
  std::string dimsFrom;
  for (const Access &a : parsed.accesses) {
    const std::string text = spelled(form.grids[a.grid].name, a.offsets);
    if (std::find(shape.order.begin(), shape.order.end(), a.grid) == shape.order.end()) shape.order.push_back(a.grid);
    if (shape.dims == 0) {
      shape.dims = static_cast<int>(a.offsets.size());
      dimsFrom = text;
    } else if (static_cast<int>(a.offsets.size()) != shape.dims) {
      throw FormError("", text + " has " + std::to_string(a.offsets.size()) + " subscripts but " + dimsFrom + " has " +
                              std::to_string(shape.dims) + " (every neighbour of a stencil has one per dimension)");
    }
  }
  for (const Grid &g : form.grids)
    if (std::none_of(parsed.accesses.begin(), parsed.accesses.end(),
                     [&](const Access &a) { return form.grids[a.grid].name == g.name; }))
      throw FormError(g.name, "grid " + g.name + " is declared but never read in the body");
  if (shape.dims > 16) throw FormError("", "more than 16 subscripts");

  shape.radius.assign(form.grids.size(), 0);
  for (const Access &a : parsed.accesses) {
    const Grid &g = form.grids[a.grid];
    for (int o : a.offsets) {
      if (std::abs(o) > kMaxRadius)
        throw FormError("", "offset " + spelled(g.name, a.offsets) + " exceeds the largest stencil radius " +
                                std::to_string(kMaxRadius));
      if (o != 0 && g.boundary.kind == Boundary::Kind::PointWise)
        throw FormError("", "offset " + spelled(g.name, a.offsets) + " of the point-wise grid " + g.name +
                                " (it is read at its centre only)");
      shape.radius[a.grid] = std::max(shape.radius[a.grid], std::abs(o));
    }
    std::pair<size_t, Offsets> n{a.grid, a.offsets};
    if (std::find(shape.neighbours.begin(), shape.neighbours.end(), n) == shape.neighbours.end())
      shape.neighbours.push_back(n);
  }
  return shape;
}

/// The scalar parameters after the neighbours': each read in the body, none
/// also a grid. Appends their parameters and returns their arguments.
std::vector<Expr> scalarParameters(const Form &form, const Parsed &parsed, std::vector<cfun::Param> &params) {
  std::vector<Expr> scalarArgs;
  for (const ScalarParam &k : form.scalars) {
    if (std::any_of(form.grids.begin(), form.grids.end(), [&](const Grid &g) { return g.name == k.name; }))
      throw FormError(k.name, k.name + " is both a grid and a scalar", true);
    if (!parsed.otherIdentifiers.count(k.name))
      throw FormError(k.name, "scalar " + k.name + " is declared but never read in the body", true);
    ScalarKind kind = ScalarKind::Float;
    if (k.in.type()) {
      if (!k.in.type()->isScalar())
        throw FormError(k.name, k.name + " is not a scalar (" + k.in.type()->str() + "): read it as a grid", true);
      kind = k.in.type()->scalarKind();
    }
    params.push_back({k.name, kind});
    scalarArgs.push_back(k.in);
  }
  return scalarArgs;
}

/// The generated user function: each neighbour a parameter, its text in the
/// body replaced by the parameter's name; the scalars last.
Expr generatedFunction(const Form &form, const Parsed &parsed, const Shape &shape, const std::vector<ScalarKind> &kinds,
                       std::vector<Expr> &scalarArgs) {
  std::vector<cfun::Param> params;
  std::map<std::string, std::string> spellingOf;
  for (const auto &[g, offsets] : shape.neighbours) {
    std::string name = parameterName(form.grids[g].name, offsets);
    if (parsed.otherIdentifiers.count(name))
      throw FormError("", "the body uses the name " + name + ", which is the parameter generated for " +
                              spelled(form.grids[g].name, offsets) + " (rename it)");
    if (spellingOf.count(name))
      throw FormError("", "two neighbours both make the parameter name " + name + " (" + spellingOf[name] + " and " +
                              spelled(form.grids[g].name, offsets) + ")");
    spellingOf[name] = spelled(form.grids[g].name, offsets);
    params.push_back({name, kinds[g]});
  }
  scalarArgs = scalarParameters(form, parsed, params);
  std::string body;
  size_t copied = 0;
  for (const Access &a : parsed.accesses) {
    body += form.body.substr(copied, a.begin - copied) + parameterName(form.grids[a.grid].name, a.offsets);
    copied = a.end;
  }
  body += form.body.substr(copied);
  // Without `returns`, the first grid's kind; but an int or bool grid read
  // first (a mask) does not truncate the floating value the body returns:
  // the function returns that value's kind.
  auto compile = [&](ScalarKind result) {
    try {
      return cfun::Function::compile(form.function, params, result, body);
    } catch (const cfun::CFunError &e) {
      throw FormError("", std::string("the generated function ") + form.function + ": " + e.what());
    }
  };
  if (form.returns) return Expr::userFun(compile(*form.returns));
  const ScalarKind first = kinds[shape.order[0]];
  cfun::Function f = compile(first);
  if (auto floating = f.widestFloatingReturn(); floating && !isFloating(first)) f = compile(*floating);
  return Expr::userFun(f);
}

/// mapN of f over the neighbourhoods (zipped when there are several grids; a
/// grid read at its centre only is zipped in as it is).
Expr composition(const Form &form, const Shape &shape, const std::vector<ScalarKind> &kinds, const Expr &f,
                 const std::vector<Expr> &scalarArgs) {
  const int dims = shape.dims;
  std::vector<Expr> components;
  for (size_t g : shape.order) {
    const Grid &grid = form.grids[g];
    int r = shape.radius[g];
    if (r == 0) {
      components.push_back(grid.in);
      continue;
    }
    arith::Expr n(r);
    Expr padded = grid.boundary.kind == Boundary::Kind::Constant
                      ? padConstantN(dims, n, Expr::literal(grid.boundary.value.convertTo(kinds[g])), grid.in)
                      : nd::padN(std::vector<arith::Expr>(dims, n), std::vector<arith::Expr>(dims, n),
                                 std::vector<PadMode>(dims, grid.boundary.mode), grid.in);
    components.push_back(nd::slideN(dims, arith::Expr(2 * r + 1), arith::Expr(1), padded));
  }
  const bool single = shape.order.size() == 1;
  Expr p = Expr::param(single ? "nbh" : "m");
  std::vector<Expr> args;
  for (const auto &[g, offsets] : shape.neighbours) {
    size_t position = std::find(shape.order.begin(), shape.order.end(), g) - shape.order.begin();
    Expr e = single ? p : get(static_cast<int>(position), p);
    if (shape.radius[g] > 0)
      for (int o : offsets) e = at(shape.radius[g] + o, e);
    args.push_back(e);
  }
  args.insert(args.end(), scalarArgs.begin(), scalarArgs.end());
  Expr lambda = Expr::lambda({p}, Expr::apply(f, std::move(args)));
  return nd::mapN(dims, lambda, single ? components[0] : nd::zipN(dims, components));
}

} // namespace

Expr build(const Form &form) {
  if (form.grids.empty()) throw FormError("", "a stencil needs at least one grid");
  for (size_t i = 0; i < form.grids.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (form.grids[i].name == form.grids[j].name)
        throw FormError(form.grids[i].name, "grid " + form.grids[i].name + " is given twice");
  Parsed parsed = parseBody(form);
  Shape shape = shapeOf(form, parsed);
  std::vector<ScalarKind> kinds(form.grids.size());
  for (size_t g : shape.order) kinds[g] = elementKind(form.grids[g], shape.dims);
  std::vector<Expr> scalarArgs;
  Expr f = generatedFunction(form, parsed, shape, kinds, scalarArgs);
  return composition(form, shape, kinds, f, scalarArgs);
}

namespace {

/// The grid under a neighbourhood: slideN(pad...(grid)) or the grid itself.
std::optional<Grid> gridOf(const Expr &component, int dims,
                           const std::function<std::optional<std::string>(const Expr &)> &nameOf) {
  auto named = [&](const Expr &param, Boundary b) -> std::optional<Grid> {
    if (!param.is(ExprKind::Param)) return std::nullopt;
    auto name = nameOf(param);
    if (!name) return std::nullopt;
    return Grid(*name, param, b);
  };
  if (component.is(ExprKind::Param)) return named(component, Boundary::pointWise());
  auto slid = nd::matchSlideN(component, dims);
  if (!slid) return std::nullopt;
  const Expr *cur = &slid->in;
  while (cur->isPrim(Op::Map)) cur = &cur->args()[0];
  if (cur->isPrim(Op::Pad)) return named(cur->args()[0], Boundary::pad(cur->padMode()));
  if (cur->isPrim(Op::PadConstant) && cur->args()[0].is(ExprKind::Literal))
    return named(cur->args()[1], Boundary::constant(cur->args()[0].literal()));
  return std::nullopt;
}

} // namespace

Expr userFunction(const Expr &built) {
  std::optional<nd::MapNParts> m = nd::largestMapN(built);
  if (!m) m = nd::matchMapN(built, 1);
  if (!m) throw std::invalid_argument("stencil_form::userFunction: not a stencil");
  return m->f.body().fun();
}

std::optional<Form> match(const Expr &e, const std::function<std::optional<std::string>(const Expr &)> &nameOf) {
  std::optional<nd::MapNParts> m = nd::largestMapN(e);
  if (!m) m = nd::matchMapN(e, 1);
  if (!m || !m->f.is(ExprKind::Lambda) || m->f.params().size() != 1) return std::nullopt;
  const Expr &apply = m->f.body();
  if (!apply.is(ExprKind::Apply) || !apply.fun().is(ExprKind::UserFun)) return std::nullopt;
  const cfun::Function &f = apply.fun().userFun();
  const Expr &p = m->f.params()[0];

  std::vector<Expr> components{m->in};
  if (auto z = nd::matchZipN(m->in, m->dims); z && z->ins.size() > 1) components = z->ins;
  Form form;
  form.function = f.name();
  std::vector<int> radius;
  for (const Expr &c : components) {
    auto grid = gridOf(c, m->dims, nameOf);
    if (!grid) return std::nullopt;
    int r = 0;
    if (auto s = nd::matchSlideN(c, m->dims); s && s->size.isConstant()) r = static_cast<int>(s->size.constant() / 2);
    radius.push_back(r);
    form.grids.push_back(*grid);
  }

  // Each argument names a neighbour: at(r + o_d, ... at(r + o_1, base)).
  if (apply.args().size() != f.params().size()) return std::nullopt;
  std::map<std::string, std::string> spellingOf;
  for (size_t i = 0; i < apply.args().size(); ++i) {
    const Expr *cur = &apply.args()[i];
    if (cur->is(ExprKind::Param) && !cur->sameNode(p)) { // a scalar, passed as it is
      auto name = nameOf(*cur);
      if (!name) return std::nullopt;
      form.scalars.emplace_back(*name, *cur);
      continue;
    }
    Offsets reversed;
    while (cur->isPrim(Op::At) && cur->sizes()[0].isConstant()) {
      reversed.push_back(static_cast<int>(cur->sizes()[0].constant()));
      cur = &cur->args()[0];
    }
    size_t g = 0;
    if (components.size() > 1) {
      if (!cur->isPrim(Op::Get)) return std::nullopt;
      g = static_cast<size_t>(cur->attr());
      cur = &cur->args()[0];
    }
    if (!cur->sameNode(p) || g >= components.size()) return std::nullopt;
    // An untyped grid's kind is its neighbours' (rebuilt, the same function).
    if (!form.grids[g].in.type()) form.grids[g].kind = f.params()[i].kind;
    Offsets offsets(reversed.rbegin(), reversed.rend());
    if (radius[g] == 0) offsets.assign(static_cast<size_t>(m->dims), 0);
    for (int &o : offsets) o -= radius[g];
    spellingOf[f.params()[i].name] = spelled(form.grids[g].name, offsets);
  }

  // The body with each parameter written back as the neighbour it names.
  const std::string &text = f.body();
  std::string body;
  size_t copied = 0;
  for (const Token &t : tokenize(text)) {
    if (!t.identifier) continue;
    auto it = spellingOf.find(text.substr(t.begin, t.end - t.begin));
    if (it == spellingOf.end()) continue;
    body += text.substr(copied, t.begin - copied) + it->second;
    copied = t.end;
  }
  form.body = body + text.substr(copied);
  try {
    if (build(form) == e) return form;
    // A result type other than the first grid's is written out.
    form.returns = f.result();
    if (build(form) == e) return form;
  } catch (const std::exception &) { // not a form build() accepts: the writer prints the composition
  }
  return std::nullopt;
}

} // namespace liftcc::stencil_form
