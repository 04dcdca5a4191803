#pragma once
// Stages around an iterate. The host loop of `iterate(n, f, A)` launches f's
// kernels n times, exchanging A's buffer with the output after every launch,
// and a chain `iterate(m, g, iterate(n, f, A))` is launched in phases: n
// launches of f, then m of g, over the same buffers
// (codegen/generator_phases.cpp). So a stage that computes an array of the
// state's type before or after the loop is one more phase of one launch:
//
//   iterate(n, f, pre(A, B))      ->  iterate(n, f, iterate(1, \a. pre(a, B), A))
//   post(iterate(n, f, A), B)     ->  iterate(1, \s. post(s, B), iterate(n, f, A))
//
// where A is an input of the state's type that `pre` reads and nothing else
// does (its buffer becomes the loop's), and `post` reads the iterate's
// result wherever it does. The program's meaning is unchanged; the chain is what the recipes
// lower and the code generator launches.

#include "core/ir/expr.h"

#include <optional>
#include <vector>

namespace liftcc::rewrite {

/// The typed program with the stages around its iterates made phases of
/// one chain of iterates over its input (a chain over inputs: nothing left
/// to chain), or nullopt where nothing is to be done: no iterate, already a
/// chain over inputs, or no stage around a loop that is over something else
/// (a tuple holding an input twice, which the recipes refuse).
/// Throws RewriteError naming what stops it: a stage whose result is not
/// of the iterated array's type (a projection, a reduction, a restriction),
/// a state computed from no input of its type, two different iterates in
/// one stage, an iterate inside a per-element function, an iterate over a
/// tuple with stages around it.
std::optional<Program> iterateChain(const Program &typed);

/// Loops side by side, P(iterate(n, f, A), iterate(m, g, B)), of constant
/// counts, each an iterate over an array that reads nothing but the
/// program's inputs, as one loop over the tuple of their states:
/// P(get(0, L), get(1, L)) with L = iterate(d, \s. tuple(f^(n/d)(get(0, s)),
/// g^(m/d)(get(1, s))), tuple(A, B)), d = gcd(n, m) (each step function
/// composed with itself count/d times), which the splits of
/// core/ir/loop_split.h compile; nullopt otherwise (one loop, a count not
/// constant, a tuple state).
std::optional<Program> loopsSideBySide(const Program &typed);

/// The program as iterateChain makes it, else as it is (also where
/// iterateChain refuses it: no recipe compiles it then, and they say why).
/// What the explorer reads the loop of and interprets.
Program asChain(const Program &typed);

/// The chain of the program's loop: asChain, or for a program with a stage
/// after its loop that the loop cannot launch (core/ir/loop_split.h), the
/// chain of the loop alone. What the explorer's time tiles and fusion read.
Program loopChain(const Program &typed);

/// Fusion of the stages into the loop (the strategy step `fuse ;`): the
/// one-step levels next to the loop (the level with the most steps; a stage
/// before or after it) composed with one of its steps each, so [pre, f^n,
/// post] becomes [f . pre, f^(n-2), post . f] and the loop's first and last
/// launches recompute what they read of the stage, as fused stages of a
/// multi-kernel program do. Constant counts only; a loop left with no step
/// goes. Unchanged when nothing fuses.
std::vector<Expr> fusedStageLevels(const std::vector<Expr> &levels);

/// Whether the program's stages around its loop (rewrite::iterateChain)
/// give fusedStageLevels anything to fuse: the fused family applies.
bool fusesStagesIntoLoop(const Program &typed);

} // namespace liftcc::rewrite
