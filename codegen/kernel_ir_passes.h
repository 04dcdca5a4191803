#pragma once
// The passes over the kernel IR, in the order simplify() applies them. Each
// maps a statement list to one with the same meaning.

#include "codegen/kernel_ir.h"

#include <string>
#include <vector>

namespace liftcc::codegen::kir {

struct Pass {
  std::string name;
  Stmts (*run)(const Stmts &);
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

/// Common index subexpressions: where two or more buffer accesses of one
/// statement list share an index base (index_holes.h), the base is declared
/// once as a named temporary before its first use (`const int idx_0 = ...;`)
/// and every access of that list and the lists nested in it reads
/// `idx_0 + offset`. Bases that read a variable some statement writes
/// (accumulators, registers) keep their text. Holes left unnamed are spelled
/// by the printer.
Stmts nameCommonIndices(const Stmts &statements);

/// The passes, in order.
const std::vector<Pass> &passes();
/// `statements` after every pass.
Stmts simplify(const Stmts &statements);

} // namespace liftcc::codegen::kir
