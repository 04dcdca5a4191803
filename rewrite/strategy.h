#pragma once
// Strategies as composable values, in the style of ELEVATE: a strategy maps
// an expression to its rewritten form or fails (nullopt). Rules are the
// atomic strategies; combinators build traversals and recipes from them.

#include "rewrite/rule.h"

#include <functional>
#include <optional>
#include <string>

namespace liftcc::rewrite {

class Strategy {
public:
  using Fn = std::function<std::optional<Expr>(const Expr &)>;
  Strategy(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  /// A rule used as a strategy.
  Strategy(const Rule &rule); // NOLINT: rules are strategies

  std::optional<Expr> operator()(const Expr &e) const { return fn_(e); }
  const std::string &name() const { return name_; }

private:
  std::string name_;
  Fn fn_;
};

Strategy identity();                              ///< always succeeds, unchanged
Strategy failure();                               ///< always fails
Strategy seq(Strategy first, Strategy second);    ///< first, then second on its result
Strategy choice(Strategy first, Strategy second); ///< first, or second if first fails
Strategy attempt(Strategy s);                     ///< s, or identity ("try")
Strategy repeat(Strategy s, int limit = 1000);    ///< s until it fails (always succeeds)
Strategy all(Strategy s);                         ///< s on every child; fails if one fails
Strategy one(Strategy s);                         ///< s on the first child where it succeeds
Strategy some(Strategy s);                        ///< s on every child where it succeeds; >= 1
Strategy topDown(Strategy s);                     ///< s at the first node, in pre-order, where it succeeds
Strategy bottomUp(Strategy s);                    ///< s at the first node, in post-order, where it succeeds
Strategy normalize(Strategy s, int limit = 1000); ///< topDown(s) until it fails everywhere
/// s at every node where it succeeds, children first, in one pass (always succeeds).
Strategy everywhere(Strategy s);
/// Succeeds unchanged where `holds` is true, fails elsewhere (a side condition as a strategy).
Strategy guard(std::string name, std::function<bool(const Expr &)> holds);
/// A strategy that refers to itself: body(self), where self stands for the result.
Strategy recursive(std::string name, const std::function<Strategy(Strategy self)> &body);
/// s at the node with the given location relative to the root ("" = the
/// root itself, "/in/f/body" = a descendant, segments as in JSON pointers).
Strategy at(const std::string &location, Strategy s);

} // namespace liftcc::rewrite
