#pragma once
// Applying rules and strategies to whole programs. Every application is
// followed by type checking, so an application either yields a well-typed
// program or is rejected with a RewriteError.

#include "core/error.h"
#include "rewrite/strategy.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace liftcc::rewrite {

struct RewriteError : Error {
  using Error::Error;
};

/// The program with another body (untyped: type-check it).
Program withBody(const Program &program, Expr body);

/// Locations ("/body/in/f/body", JSON pointers as in TypeError) of the nodes
/// of a typed program where `rule` applies (matches and gives a well-typed
/// program), in pre-order.
std::vector<std::string> applicableLocations(const Program &typed, const Rule &rule);

/// Applies `rule` at `location` and type-checks the result. Throws
/// RewriteError when there is no node there, the rule does not match, or the
/// result does not type-check.
Program applyRule(const Program &typed, const Rule &rule, const std::string &location);

/// Applies `rule` at its first location, re-type-checks, and repeats until it
/// applies nowhere (at most `limit` times). One application at a time, so
/// side conditions always see a fully typed program.
Program normalizeProgram(const Program &typed, const Rule &rule, int limit = 1000);

/// Applies a strategy to the body; nullopt when it fails. The result is type-checked.
std::optional<Program> applyStrategy(const Program &typed, const Strategy &strategy);

} // namespace liftcc::rewrite
