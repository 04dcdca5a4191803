// Boundary specialisation (CodegenOptions::specialiseBoundaries): the
// interior code is the same generator run with narrower ranges for the
// mapGlb / mapWrg indices, so the range analysis that already drops clamps
// and constant-pad selects where it proves an index in bounds drops all of
// them there. The margins are found without lowering again: the general
// code's boundary facts (boundary_facts.h) say which boundary operations an
// interior would keep, and the interior is lowered once, at the margins found.

#include "codegen/generator.h"
#include "core/cfun/reserved.h"
#include "core/ir/operands.h"
#include "core/ir/transform.h"

namespace liftcc::codegen {

namespace {

/// Regeneration stops at this many work-items (work-groups) of margin: the
/// neighbourhoods of stencils reach a few elements, and a margin this wide
/// leaves little interior at the sizes where specialisation pays.
constexpr int64_t kMaxMargin = 64;

/// How far a neighbourhood can reach past the borders through views: at most
/// the sum of all pad widths (nullopt: some width is not a constant).
std::optional<int64_t> padReach(const Expr &body) {
  std::optional<int64_t> reach = 0;
  containsNode(body, [&](const Expr &e) {
    if (!e.isPrim(Op::Pad) && !e.isPrim(Op::PadConstant)) return false;
    const arith::Expr &left = padLeft(e), &right = padRight(e);
    if (reach && left.isConstant() && right.isConstant())
      reach = *reach + left.constant() + right.constant();
    else
      reach = std::nullopt;
    return false;
  });
  return reach;
}

} // namespace

// The liftcc_ prefix is reserved for generated names, so this cannot take a
// user's name.
std::string borderUserFunName(const std::string &name) {
  return std::string(cfun::kGeneratedPrefix) + "border_" + name;
}

kir::Stmts Generator::borderCode(const kir::Stmts &general) const {
  std::map<std::string, std::string> copies;
  for (const std::string &name : userFunOrder_) copies.emplace(name, borderUserFunName(name));
  return kir::renameCalls(general, copies);
}

std::optional<std::array<int64_t, 3>> Generator::knownLocalSize() const {
  bool given = options_.localSize != std::array<int64_t, 3>{0, 0, 0};
  bool workGroups = wrgExtent_[0] || wrgExtent_[1] || wrgExtent_[2];
  if (!given && !workGroups) return std::nullopt;
  // As a launch reads --local 64: the dimensions not given are 1.
  std::array<int64_t, 3> local{1, 1, 1};
  for (int d = 0; d < 3; ++d)
    if (options_.localSize[d] > 0) local[d] = options_.localSize[d];
  return local;
}

bool Generator::guardFree(Op op, int dim, const arith::Expr &extent) const {
  if (!options_.specialiseBoundaries) return false;
  // A mapWrg kernel is launched with exactly extent work-groups (Kernel::
  // globalSize) when launched with the work-group size it is generated for,
  // which specialisation makes a requirement.
  if (op == Op::MapWrg) return true;
  if (op != Op::MapGlb || !extent.isConstant()) return false;
  std::optional<std::array<int64_t, 3>> local = knownLocalSize();
  return local && extent.constant() % (*local)[dim] == 0;
}

std::string Generator::interiorCondition(const Kernel &general, const Kernel::Interior &margins) const {
  std::optional<std::array<int64_t, 3>> local = general.localSize;
  std::string condition;
  auto conjoin = [&](const std::string &term) { condition += (condition.empty() ? "" : " && ") + term; };
  for (int d = 0; d < 3; ++d) {
    if (margins.inWorkGroups) {
      if (!wrgExtent_[d]) continue;
      std::string group = indexBuiltin(&Dialect::groupId, d);
      if (margins.lo[d] > 0) conjoin(group + " >= " + std::to_string(margins.lo[d]));
      if (margins.hi[d] > 0) conjoin(group + " < " + arith::simplify(*wrgExtent_[d] - margins.hi[d]).str());
      continue;
    }
    if (!glbExtent_[d]) continue;
    // The first work-item of this work-group and the work-group size: uniform
    // across the work-group, so PoCL's work-group loops and warps agree.
    std::string size = local ? std::to_string((*local)[d]) : indexBuiltin(&Dialect::localSize, d);
    std::string first = "(" + indexBuiltin(&Dialect::groupId, d) + " * " + size + ")";
    if (margins.lo[d] > 0) conjoin(first + " >= " + std::to_string(margins.lo[d]));
    bool guarded = !(general.requiresLocalSize && guardFree(Op::MapGlb, d, *glbExtent_[d]));
    if (margins.hi[d] > 0 || guarded)
      conjoin(first + " + " + size + " <= " + arith::simplify(*glbExtent_[d] - margins.hi[d]).str());
  }
  return condition;
}

std::string Generator::itemInteriorCondition(const Kernel::Interior &margins) const {
  // mapGlb's index in dimension d is the work-item's global id (a guard, no
  // loop: generator_loops.cpp), so the interior code's ranges hold for it.
  std::string condition;
  auto conjoin = [&](const std::string &term) { condition += (condition.empty() ? "" : " && ") + term; };
  for (int d = 0; d < 3; ++d) {
    if (!glbExtent_[d]) continue;
    std::string id = indexBuiltin(&Dialect::globalId, d);
    if (margins.lo[d] > 0) conjoin(id + " >= " + std::to_string(margins.lo[d]));
    if (margins.hi[d] > 0) conjoin(id + " < " + arith::simplify(*glbExtent_[d] - margins.hi[d]).str());
  }
  return condition;
}

std::optional<Generator::InteriorCode> Generator::findInterior(const Kernel &general) {
  // OpenCL kernels with local tiles are not specialised: their barriers
  // would sit in the two branches, and PoCL 3.1 mishandles barriers under
  // conditionals (a crash, see the reproducer in
  // tests/codegen_opencl_test.cpp; and a specialised local hotspot2d kernel
  // gave wrong values in one exploration, not reproduced since). In CUDA C
  // the condition is uniform over a block (group ids only), so every thread
  // of a block meets the same __syncthreads calls.
  if (localBytes_ > 0 && dialect_.target() != Target::CUDA) return std::nullopt;
  std::optional<Kernel::Interior> margins = interiorMargins();
  if (!margins) return std::nullopt;
  const auto &extents = margins->inWorkGroups ? wrgExtent_ : glbExtent_;
  // An interior no work-group can lie in at these sizes is not emitted.
  for (int d = 0; d < 3; ++d) {
    if (!extents[d] || !extents[d]->isConstant()) continue;
    int64_t n = extents[d]->constant(), lo = margins->lo[d], hi = margins->hi[d];
    std::optional<std::array<int64_t, 3>> local = knownLocalSize();
    int64_t group = margins->inWorkGroups || !local ? 1 : (*local)[d];
    int64_t firstInterior = (lo + group - 1) / group * group;
    if (firstInterior + group > n - hi) return std::nullopt;
  }
  std::string condition = interiorCondition(general, *margins);
  if (condition.empty()) return std::nullopt; // the general code is already the interior code
  std::optional<kir::Stmts> body = lowerInterior(*margins);
  if (!body) return std::nullopt;
  return InteriorCode{*margins, *body, condition};
}

std::optional<Kernel::Interior> Generator::interiorMargins() const {
  // The boundary facts answer for each candidate what its interior would
  // keep, without lowering it (the bisection below tries a dozen).
  auto keepsNoBoundary = [this](const Kernel::Interior &m) {
    return kir::boundaryOperationsWithin(boundaryFacts_, m) == 0;
  };
  Kernel::Interior margins;
  margins.inWorkGroups = wrgExtent_[0] || wrgExtent_[1] || wrgExtent_[2];
  if (boundaryFacts_.reads.empty()) return margins;
  const auto &extents = margins.inWorkGroups ? wrgExtent_ : glbExtent_;
  std::optional<int64_t> reach = padReach(program_.body());
  int64_t cap = std::min(reach.value_or(kMaxMargin), kMaxMargin);
  if (cap == 0) return std::nullopt;
  // Both margins at the cap, but leaving a non-empty range (an empty one
  // proves nothing useful): a few work-groups of a mapWrg kernel cover
  // more elements than the reach of its pads.
  for (int d = 0; d < 3; ++d)
    if (extents[d])
      margins.lo[d] = margins.hi[d] =
          extents[d]->isConstant() ? std::min(cap, std::max<int64_t>(0, (extents[d]->constant() - 1) / 2)) : cap;
  if (!keepsNoBoundary(margins)) return std::nullopt;
  // Fewer boundary operations with wider margins (narrower ranges prove
  // more): a bisection per side, the others at their current (working) value.
  for (int d = 0; d < 3; ++d)
    for (int64_t *side : {&margins.lo[d], &margins.hi[d]}) {
      if (!extents[d]) continue;
      int64_t works = *side, fails = -1;
      while (works - fails > 1) {
        int64_t mid = fails + (works - fails) / 2;
        *side = mid;
        if (keepsNoBoundary(margins))
          works = mid;
        else
          fails = mid;
      }
      *side = works;
    }
  return margins;
}

std::optional<kir::Stmts> Generator::lowerInterior(const Kernel::Interior &margins) const {
  Generator interior(program_, dialect_.target(), options_, margins);
  try {
    interior.run();
  } catch (const CodegenError &) {
    return std::nullopt;
  }
  // A 32-bit kernel's interior must be 32-bit too (one width per kernel).
  if (!interior.boundaryFacts_.reads.empty() || (interior.needsWide_ && !needsWide_)) return std::nullopt;
  // Local tiles are declared once for both codes: they must be the same.
  if (interior.localDeclarations_ != localDeclarations_ || interior.localBytes_ != localBytes_) return std::nullopt;
  for (const std::string &name : interior.userFunOrder_)
    if (!userFuns_.count(name)) return std::nullopt;
  // Lane-wise user functions are emitted once, from the general code's names.
  for (const auto &[key, name] : interior.vectorUserFuns_)
    if (auto it = vectorUserFuns_.find(key); it == vectorUserFuns_.end() || it->second != name) return std::nullopt;
  return interior.body_.statements();
}

} // namespace liftcc::codegen
