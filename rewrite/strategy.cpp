#include "rewrite/strategy.h"

#include "core/ir/transform.h"

namespace liftcc::rewrite {

Strategy::Strategy(const Rule &rule) : name_(rule.name), fn_(rule.apply) {}

Strategy identity() {
  return {"id", [](const Expr &e) -> std::optional<Expr> { return e; }};
}

Strategy failure() {
  return {"fail", [](const Expr &) -> std::optional<Expr> { return std::nullopt; }};
}

Strategy seq(Strategy first, Strategy second) {
  std::string name = "seq(" + first.name() + ", " + second.name() + ")";
  return {name, [first, second](const Expr &e) -> std::optional<Expr> {
            auto r = first(e);
            if (!r) return std::nullopt;
            return second(*r);
          }};
}

Strategy choice(Strategy first, Strategy second) {
  std::string name = "choice(" + first.name() + ", " + second.name() + ")";
  return {name, [first, second](const Expr &e) -> std::optional<Expr> {
            if (auto r = first(e)) return r;
            return second(e);
          }};
}

Strategy attempt(Strategy s) { return choice(std::move(s), identity()); }

Strategy repeat(Strategy s, int limit) {
  return {"repeat(" + s.name() + ")", [s, limit](const Expr &e) -> std::optional<Expr> {
            Expr cur = e;
            for (int i = 0; i < limit; ++i) {
              auto r = s(cur);
              if (!r) break;
              cur = *r;
            }
            return cur;
          }};
}

namespace {

/// Rebuilds `e` with child i replaced; keeps everything else.
Expr replaceChild(const Expr &e, size_t index, const Expr &replacement) {
  std::vector<Expr> children;
  std::vector<Child> cs = e.children();
  for (size_t i = 0; i < cs.size(); ++i) children.push_back(i == index ? replacement : *cs[i].expr);
  return e.withChildren(std::move(children));
}

} // namespace

Strategy all(Strategy s) {
  return {"all(" + s.name() + ")", [s](const Expr &e) -> std::optional<Expr> {
            std::vector<Child> cs = e.children();
            if (cs.empty()) return e;
            std::vector<Expr> children;
            for (const Child &c : cs) {
              auto r = s(*c.expr);
              if (!r) return std::nullopt;
              children.push_back(*r);
            }
            return e.withChildren(std::move(children));
          }};
}

Strategy one(Strategy s) {
  return {"one(" + s.name() + ")", [s](const Expr &e) -> std::optional<Expr> {
            std::vector<Child> cs = e.children();
            for (size_t i = 0; i < cs.size(); ++i)
              if (auto r = s(*cs[i].expr)) return replaceChild(e, i, *r);
            return std::nullopt;
          }};
}

Strategy some(Strategy s) {
  return {"some(" + s.name() + ")", [s](const Expr &e) -> std::optional<Expr> {
            std::vector<Child> cs = e.children();
            std::vector<Expr> children;
            bool any = false;
            for (const Child &c : cs) {
              auto r = s(*c.expr);
              any = any || r.has_value();
              children.push_back(r ? *r : *c.expr);
            }
            if (!any) return std::nullopt;
            return e.withChildren(std::move(children));
          }};
}

Strategy topDown(Strategy s) {
  // Recursive through a shared self-reference: topDown(s) = s <+ one(topDown(s)).
  auto self = std::make_shared<Strategy::Fn>();
  *self = [s, weak = std::weak_ptr<Strategy::Fn>(self)](const Expr &e) -> std::optional<Expr> {
    if (auto r = s(e)) return r;
    auto fn = weak.lock();
    std::vector<Child> cs = e.children();
    for (size_t i = 0; i < cs.size(); ++i)
      if (auto r = (*fn)(*cs[i].expr)) return replaceChild(e, i, *r);
    return std::nullopt;
  };
  return {"topDown(" + s.name() + ")", [self](const Expr &e) { return (*self)(e); }};
}

Strategy bottomUp(Strategy s) {
  auto self = std::make_shared<Strategy::Fn>();
  *self = [s, weak = std::weak_ptr<Strategy::Fn>(self)](const Expr &e) -> std::optional<Expr> {
    auto fn = weak.lock();
    std::vector<Child> cs = e.children();
    for (size_t i = 0; i < cs.size(); ++i)
      if (auto r = (*fn)(*cs[i].expr)) return replaceChild(e, i, *r);
    return s(e);
  };
  return {"bottomUp(" + s.name() + ")", [self](const Expr &e) { return (*self)(e); }};
}

Strategy normalize(Strategy s, int limit) { return repeat(topDown(std::move(s)), limit); }

Strategy everywhere(Strategy s) {
  auto self = std::make_shared<std::function<Expr(const Expr &)>>();
  *self = [s, weak = std::weak_ptr<std::function<Expr(const Expr &)>>(self)](const Expr &e) -> Expr {
    auto fn = weak.lock();
    Expr rebuilt = mapChildren(e, *fn);
    auto r = s(rebuilt);
    return r ? *r : rebuilt;
  };
  return {"everywhere(" + s.name() + ")", [self](const Expr &e) -> std::optional<Expr> { return (*self)(e); }};
}

Strategy guard(std::string name, std::function<bool(const Expr &)> holds) {
  return {std::move(name), [holds = std::move(holds)](const Expr &e) -> std::optional<Expr> {
            if (!holds(e)) return std::nullopt;
            return e;
          }};
}

Strategy recursive(std::string name, const std::function<Strategy(Strategy self)> &body) {
  // The strategy refers to itself through a weak reference, so the cycle
  // does not keep it alive (as in topDown).
  auto fn = std::make_shared<Strategy::Fn>();
  Strategy self(name, [weak = std::weak_ptr<Strategy::Fn>(fn)](const Expr &e) { return (*weak.lock())(e); });
  Strategy built = body(self);
  *fn = [built](const Expr &e) { return built(e); };
  return {std::move(name), [fn](const Expr &e) { return (*fn)(e); }};
}

Strategy at(const std::string &location, Strategy s) {
  return {"at(" + location + ", " + s.name() + ")", [location, s](const Expr &e) -> std::optional<Expr> {
            if (location.empty()) return s(e);
            std::vector<Child> cs = e.children();
            for (size_t i = 0; i < cs.size(); ++i) {
              const std::string &p = cs[i].path;
              // The child's path is a prefix of the location ending at a segment boundary.
              if (location.compare(0, p.size(), p) == 0 && (location.size() == p.size() || location[p.size()] == '/')) {
                auto r = at(location.substr(p.size()), s)(*cs[i].expr);
                if (!r) return std::nullopt;
                return replaceChild(e, i, *r);
              }
            }
            return std::nullopt;
          }};
}

} // namespace liftcc::rewrite
