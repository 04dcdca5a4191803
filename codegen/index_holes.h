#pragma once
// Buffer indices inside the kernel IR's expression text. The Generator writes
// each global, local or private buffer index as a hole: the index's C text
// together with its base (the sum of its non-constant terms) and its
// constant offset, so that a pass over the IR (nameCommonIndices,
// kernel_ir_passes.h) can name a base that several accesses share
// (`const int idx_0 = gid0_0 + 4096*gid1_0;` then `A[idx_0 - 8194]`)
// without parsing C. The printer spells every hole no pass named as its
// original text, so a kernel means the same with or without the pass.

#include <cstdint>
#include <functional>
#include <string>

namespace liftcc::codegen::kir {

struct IndexHole {
  std::string name; ///< the temporary the base gets when it is named (fresh in the kernel)
  std::string type; ///< its C type (the kernel's index type)
  std::string base; ///< C text of the sum of the non-constant terms
  int64_t offset = 0;
  std::string full; ///< C text of the whole index, base + offset as the arithmetic printed it
  bool operator==(const IndexHole &) const = default;
};

/// The hole as text to embed in an expression (control characters delimit
/// it; none can occur in C text the Generator writes).
std::string holeText(const IndexHole &hole);

/// `text` with each hole replaced by `spell(hole)`.
std::string replaceHoles(const std::string &text, const std::function<std::string(const IndexHole &)> &spell);

/// Calls `visit` for each hole of `text`, in order.
void forEachHole(const std::string &text, const std::function<void(const IndexHole &)> &visit);

/// The hole's index through its named base: `idx_0`, `idx_0 + 2`, `idx_0 - 8194`.
std::string namedIndex(const IndexHole &hole);

/// `text` with every hole spelled as its original index text.
std::string spellHoles(const std::string &text);

} // namespace liftcc::codegen::kir
