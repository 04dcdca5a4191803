#pragma once
// Programs split where they meet their loop, so that the host launches each
// piece's kernels once around the loop's launches.
//
// After the loop: a stage that the host loop cannot run as one more of its
// launches (rewrite/iterate_chain.h makes the others phases of the loop):
// one whose result is of another type than the state (a reduction over the
// final grid, a restriction), one component of a tuple state
// (get(k, iterate(n, f, tuple(U, V)))), a view of the state, or any stage
// after an iterate over a tuple. The program is then the loop, over the
// inputs, and the stage after it, over the inputs and the loop's result, one
// input per component of the state; the host launches the loop, then the
// stage's kernels once, reading the state where the loop left it
// (codegen::Kernel::Iteration::epilogueStages).
//
// Before the loop: a state that no program input can stand for, whose
// buffers the host loop would write its steps over: computed from inputs of
// another type or read again elsewhere (a restriction of a fine grid, an
// input a step or a later stage also reads by name), a tuple holding one
// input twice or computed components (a wave starting at rest, (U, U)). The
// loop then iterates over fresh state inputs that the stage before it
// computes once into temporaries (codegen::Kernel::Iteration::prologueStages).

#include "core/ir/expr.h"

#include <optional>
#include <string>
#include <vector>

namespace liftcc {

/// The iterates of `e` not inside another one, each once (by structure).
std::vector<Expr> outermostIterates(const Expr &e);

/// Whether `e` reads no parameter but the program's inputs and those its own
/// lambdas bind (an iterate inside a per-element function reads the element:
/// it is no loop of its own).
bool readsOnlyInputs(const Program &program, const Expr &e);

/// `base`, or `base` followed by 1, 2, ...: the first that no input or size
/// of `program` is named, nor begins with followed by "_" (so that the name
/// with "_0", "_1", ... appended, one per tuple component, is free too).
/// The parameters the loop splits and the iterate chain add to a program
/// (its inputs are matched by name once lowered).
std::string freshInputName(const Program &program, const std::string &base);

/// Whether `e` applies a user function (a stage that applies none only
/// rearranges data: a view, which no kernel computes).
bool appliesUserFunction(const Expr &e);

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

struct BeforeLoop {
  Program before; ///< \inputs. the loop's initial state (an array, or a tuple of arrays)
  Program loop;   ///< \inputs, state... . the loop (a chain of iterates) over `state`
  /// The loop program's last inputs: one per component of the state, in order.
  std::vector<Expr> state;
};

/// The split of a typed program (or a lowered one) whose body is an iterate,
/// or a chain of them, into the computation of its initial state and the
/// loop over it; nullopt when the state is not an array or a tuple of arrays
/// of scalars. The pieces are not type-checked.
std::optional<BeforeLoop> splitBeforeLoop(const Program &program);

/// Whether the loop of `program` (a chain of iterates) needs its initial
/// state computed before it (splitBeforeLoop): its state is not program
/// inputs (distinct ones, for a tuple), or a step reads one of them by name.
bool needsStateBeforeLoop(const Program &program);

/// The name of an input whose buffer the loop (a chain of iterates over
/// inputs, as lowered) writes its steps over and that the stage after it
/// (`after`) reads too: the host overwrites it, so the stage would read a
/// step where the program means the initial values. nullopt when none is.
std::optional<std::string> stateInputReadAfterLoop(const Program &loop, const Program &after);

/// The one-line message for stateInputReadAfterLoop's input `name`.
std::string stateInputReadAfterLoopMessage(const std::string &name);

} // namespace liftcc
