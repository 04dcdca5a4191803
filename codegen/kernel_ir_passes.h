#pragma once
// The passes over the kernel IR, in the order simplify() applies them. Each
// maps a statement list to one with the same meaning.

#include "codegen/kernel_ir.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace liftcc::codegen::kir {

/// The C type of a kernel's indices: int where the range analysis proved
/// every index to fit 32 bits (GPUs have 32-bit integer units; PoCL
/// vectorises int better), else 64 bits.
enum class IndexWidth { Narrow, Wide };

/// A kernel body as the passes see it: its statements and its index width
/// (chosen by chooseIndexWidth; Narrow before).
struct Body {
  Stmts statements;
  IndexWidth width = IndexWidth::Narrow;
};

struct Pass {
  std::string name;
  Body (*run)(const Body &);
};

/// `if (1)` (or `true`) becomes its then-branch in a block, `if (0)` its
/// else-branch or nothing; a guard of "1" on an assignment is dropped.
Stmts foldConstantConditions(const Stmts &statements);
/// Splices a block into the list around it where the braces scope nothing:
/// an empty block, a block that declares nothing, and a block that ends its
/// list (its names would go out of scope at the same brace) and declares no
/// name the list declares before it. A block holding a Raw statement keeps
/// its braces (its text may declare a name). Emitted kernels had three nested empty
/// braces around every statement (mapGlb without a guard, unrolled copies,
/// vector stores).
Stmts flattenBlocks(const Stmts &statements);

/// Chooses the kernel's index width from the findings the lowering attached
/// to each index (index_holes.h: WidthChoice::fitsNarrow): 32 bits where every
/// index was proved to fit, else 64; then spells every width choice in the
/// body (index type, built-in ids, min/max of indices) for that width. In a
/// 32-bit kernel an index whose base is not proved to fit keeps its full text.
Body chooseIndexWidth(const Body &body);

/// Common index subexpressions: where two or more buffer accesses of one
/// statement list share an index base (index_holes.h), the base is declared
/// once as a named temporary before its first use (`const int idx_0 = ...;`)
/// and every access of that list and the lists nested in it reads
/// `idx_0 + offset`. Bases that read a variable some statement writes
/// (accumulators, registers) keep their text. Holes left unnamed are spelled
/// by the printer.
Stmts nameCommonIndices(const Stmts &statements);

/// Every call `f(` of a function `names` maps (an identifier followed by its
/// parenthesis) calls `names.at(f)` instead: the border code of a
/// specialised kernel calls the never-inlined copies of the user functions
/// (CodegenOptions::noinlineBorder). Not in passes(): it makes one branch.
Stmts renameCalls(const Stmts &statements, const std::map<std::string, std::string> &names);

/// The longest expression text a kernel may contain (one statement's value,
/// target, condition, ... as printed); longer is a CodegenError. Fused steps
/// and time tiles inline a producer at every read of its result, so their
/// expressions grow as the product of the steps' taps.
constexpr size_t kMaxExpressionBytes = size_t{1} << 20;
/// The message of that error.
std::string expressionTooLongMessage();
/// Refuses (a CodegenError) a body with an expression longer than
/// kMaxExpressionBytes as printed. The Generator also checks a user
/// function's call as its arguments grow (Generator::checkExpressionSize),
/// so that it stops building such a text early; this pass holds every
/// emitted statement to the cap, however its text was built.
Body capExpressionSize(const Body &body);

/// The passes, in order.
const std::vector<Pass> &passes();
/// `statements` after every pass, with the index width chosen.
Body simplify(const Stmts &statements);

} // namespace liftcc::codegen::kir
