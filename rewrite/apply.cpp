#include "rewrite/apply.h"

#include "core/typecheck/typecheck.h"

namespace liftcc::rewrite {

namespace {

void collect(const Expr &e, const std::string &path, const Rule &rule, std::vector<std::string> &out) {
  if (rule.apply(e)) out.push_back(path);
  for (const Child &c : e.children()) collect(*c.expr, path + c.path, rule, out);
}

} // namespace

Program withBody(const Program &program, Expr body) {
  return Program{program.sizes, Expr::lambda(program.inputs(), std::move(body))};
}

std::vector<std::string> applicableLocations(const Program &typed, const Rule &rule) {
  std::vector<std::string> matches, out;
  collect(typed.body(), "/body", rule, matches);
  // A match whose result does not type-check (a side condition the rule
  // cannot see locally) is not an application.
  for (const std::string &loc : matches) {
    try {
      applyRule(typed, rule, loc);
      out.push_back(loc);
    } catch (const RewriteError &) {}
  }
  return out;
}

Program applyRule(const Program &typed, const Rule &rule, const std::string &location) {
  if (location.rfind("/body", 0) != 0) throw RewriteError("location '" + location + "' must start with /body");
  auto body = at(location.substr(5), rule)(typed.body());
  if (!body) throw RewriteError("rule " + rule.name + " does not apply at " + location);
  try {
    return typeCheck(withBody(typed, *body));
  } catch (const TypeError &e) {
    throw RewriteError("rule " + rule.name + " at " + location + " gives an ill-typed program: " + e.what());
  }
}

Program normalizeProgram(const Program &typed, const Rule &rule, int limit) {
  Program current = typed;
  for (int i = 0; i < limit; ++i) {
    std::vector<std::string> locations = applicableLocations(current, rule);
    if (locations.empty()) break;
    current = applyRule(current, rule, locations.front());
  }
  return current;
}

std::optional<Program> applyStrategy(const Program &typed, const Strategy &strategy) {
  auto body = strategy(typed.body());
  if (!body) return std::nullopt;
  return typeCheck(withBody(typed, *body));
}

} // namespace liftcc::rewrite
