#pragma once
// A stage after an iterate that the host loop cannot run as one more of its
// launches (rewrite/iterate_chain.h makes the others phases of the loop):
// one whose result is of another type than the state (a reduction over the
// final grid, a restriction), one component of a tuple state
// (get(k, iterate(n, f, tuple(U, V)))), a view of the state, or any stage
// after an iterate over a tuple. Such a program is two programs: the loop,
// over the inputs, and the stage after it, over the inputs and the loop's
// result, one input per component of the state. The host launches the
// loop, then the stage's kernels once, reading the state where the loop
// left it (codegen::Kernel::Iteration::epilogueStages).

#include "core/ir/expr.h"

#include <optional>
#include <string>
#include <vector>

namespace liftcc {

struct AfterLoop {
  Program loop;  ///< \inputs. iterate(...): the one iterate the body reads
  Program after; ///< \inputs, state... . the body, reading the loop's result from `state`
  /// The after program's last inputs: one per component of the loop's
  /// result (a tuple state has several), in order.
  std::vector<Expr> state;
};

/// The split of a typed program (or of a lowered one, whose stage after the
/// loop is lowered too) whose body is not an iterate but reads exactly one
/// (by structure) that reads nothing but the program's inputs, and whose
/// state is an array or a tuple of arrays; nullopt otherwise. get(k, loop)
/// reads the state's component k; the pieces are not type-checked.
std::optional<AfterLoop> splitAfterLoop(const Program &program);

/// The name of an input whose buffer the loop (a chain of iterates over
/// inputs, as lowered) writes its steps over and that the stage after it
/// (`after`) reads too: the host overwrites it, so the stage would read a
/// step where the program means the initial values. nullopt when none is.
std::optional<std::string> stateInputReadAfterLoop(const Program &loop, const Program &after);

/// The one-line message for stateInputReadAfterLoop's input `name`.
std::string stateInputReadAfterLoopMessage(const std::string &name);

} // namespace liftcc
