#pragma once
// Index values inside the kernel IR's expression text. The Generator writes
// two kinds of hole into the text it emits, so that passes over the IR
// (kernel_ir_passes.h) can change how indices are spelled without parsing C:
//
// - an index hole: a buffer index's C text together with its base (the sum of
//   its non-constant terms) and its constant offset, so that nameCommonIndices
//   can name a base that several accesses share (`const int idx_0 = gid0_0 +
//   4096*gid1_0;` then `A[idx_0 - 8194]`);
// - a width choice: text spelled one way in a kernel whose indices are 32-bit
//   and another in a 64-bit one (the index type itself, a built-in id converted
//   to it, min/max of indices), with the range analysis' finding of whether the
//   index it spells was proved to fit 32 bits. chooseIndexWidth decides the
//   kernel's width from those findings and spells every choice.
//
// Holes nest (an index hole's texts hold width choices). The printer spells
// every index hole no pass named as its original text, so a kernel means the
// same with or without nameCommonIndices; a width choice must be spelled by
// chooseIndexWidth before printing.

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
  /// The base was proved to fit 32 bits: a 32-bit kernel may name it (the
  /// whole index fits where its base need not: `a*K - b*K`).
  bool baseFitsNarrow = true;
  bool operator==(const IndexHole &) const = default;
};

/// Text that depends on the kernel's index width.
struct WidthChoice {
  std::string narrow, wide;
  /// The index this text spells was proved to fit 32 bits (every
  /// subexpression: C evaluates each in the index type).
  bool fitsNarrow = true;
  bool operator==(const WidthChoice &) const = default;
};

/// The hole as text to embed in an expression (control characters delimit
/// it; none can occur in C text the Generator writes).
std::string holeText(const IndexHole &hole);
std::string choiceText(const WidthChoice &choice);

/// `text` with each outermost index hole replaced by `spell(hole)`; width
/// choices outside index holes are kept as they are.
std::string replaceHoles(const std::string &text, const std::function<std::string(const IndexHole &)> &spell);

/// Calls `visit` for each outermost index hole of `text`, in order.
void forEachHole(const std::string &text, const std::function<void(const IndexHole &)> &visit);

/// The hole's index through its named base: `idx_0`, `idx_0 + 2`, `idx_0 - 8194`.
std::string namedIndex(const IndexHole &hole);

/// `text` with every index hole spelled as its original index text (width
/// choices kept).
std::string spellHoles(const std::string &text);

/// Whether every width choice in `text` (index holes' texts included) fits 32 bits.
bool fitsNarrow(const std::string &text);

/// `text` with every width choice (index holes' texts included) spelled for a
/// 64-bit kernel (`wide`) or a 32-bit one. In a 32-bit kernel an index hole
/// whose base is not proved to fit becomes its full text (not nameable).
std::string spellWidth(const std::string &text, bool wide);

/// Whether `text` holds a width choice (anywhere).
bool hasWidthChoice(const std::string &text);

} // namespace liftcc::codegen::kir
