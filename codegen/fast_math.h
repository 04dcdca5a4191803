#pragma once
// Fast math as a tuning choice: how far the device compiler may depart from
// IEEE arithmetic when it builds a kernel, and the verification tolerance
// that departure needs.
//
//   level        OpenCL build option     NVRTC option
//   none         (none)                  (none; NVRTC contracts a*b+c by default, --fmad=true)
//   mad          -cl-mad-enable          --fmad=true (the same as none)
//   reassociate  (none)                  (none)
//   relaxed      -cl-fast-relaxed-math   --use_fast_math
//
// reassociate is liftcc's own relaxation, not the device compiler's: the user
// functions' long sums are regrouped into chains the compiler can overlap
// (cfun::Function::regroupedSums), and the kernel is built exactly. Under
// relaxed, which permits the compiler any reassociation, PoCL turned
// regrouped (and balanced-tree) sums into code 4-5x slower than C's order
// (docs/codegen.md, Fast math), so the two are separate levels.
//
// The option travels with the kernel (codegen::Kernel::buildOptions and the
// metadata's "buildOptions"), so the tuner, liftc run, a stored best kernel
// and an exported kernel are all built the way they were verified.

#include "codegen/dialect.h"
#include "core/interp/value_compare.h"

#include <optional>
#include <string>
#include <string_view>

namespace liftcc::codegen {

enum class FastMath { None, Mad, Reassociate, Relaxed };

/// "none", "mad", "reassociate", "relaxed".
std::string fastMathName(FastMath level);
std::optional<FastMath> parseFastMath(std::string_view text);
/// Every level's name, for messages: "none, mad, reassociate or relaxed"
/// with conjunction "or".
std::string fastMathNames(const std::string &conjunction);

/// The device compiler's options for `level` (empty for none).
std::string buildOptionsFor(FastMath level, Target target);

/// The tolerance a kernel built at `level` (and with divisions by constants
/// turned into multiplications, `divToMul`) is verified against the
/// interpreter with. Exact builds keep the tight default (1e-4 relative,
/// 1e-5 absolute). Relaxed levels add an error proportional to the largest
/// magnitude of the expected values: a contracted or reassociated sum of
/// terms of magnitude up to M changes by a few units in the last place of M
/// per operation, however small the sum itself (cancellation), so a bound
/// relative to each value alone would reject correct kernels. The factors
/// (docs/codegen.md, "Fast math"): 2^-13 of the magnitude for mad, reassociate and
/// division by multiplication, 2^-11 for relaxed, i.e. about 64 and 256 roundings of
/// 2^-24 each: room for the longest stencils (Poisson's 27 and Gaussian's 25
/// points, a few operations each), far below any real bug's error.
Tolerance fastMathTolerance(FastMath level, bool divToMul);

} // namespace liftcc::codegen
