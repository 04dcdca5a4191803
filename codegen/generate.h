#pragma once
// View-based code generation: a type-checked, low-level program (maps mapped
// to mapGlb / mapWrg+mapLcl / mapSeq, reductions to reduceSeq) becomes one
// OpenCL C or CUDA C kernel.
//
// Data-layout primitives (pad, slide, zip, split, join, transpose, at, get,
// generate) never allocate: reading through them pushes an access path down
// to memory and yields one simplified index expression. Only the results of
// user functions are written to memory: the program's output, and the
// intermediate arrays a program explicitly materialises with toLocal /
// toPrivate (e.g. local-memory tiles), which are the only temporaries.

#include "codegen/fast_math.h"
#include "codegen/kernel.h"
#include "core/error.h"
#include "core/ir/expr.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace liftcc::codegen {

struct CodegenOptions {
  std::string kernelName = "liftcc_kernel";
  /// Work-group size per dimension for programs using mapWrg/mapLcl; 0 picks
  /// a default from the extent of the mapLcl.
  std::array<int64_t, 3> localSize{0, 0, 0};
  /// Boundary specialisation (Halide's loop partitioning): work-groups whose
  /// indices the range analysis proves away from the borders run interior
  /// code with no bounds guard and no clamp / mirror / wrap / constant-pad
  /// arithmetic (Kernel::interior); and where the work-group size is known
  /// (localSize, or the one a mapWrg kernel is generated for) and divides the
  /// extent, the guard is dropped everywhere and the kernel requires that size
  /// (Kernel::requiresLocalSize). CPU OpenCL compilers vectorise across
  /// work-items only code without either.
  bool specialiseBoundaries = false;
  /// With specialiseBoundaries, in OpenCL: the border code calls copies of the
  /// user functions that are never inlined. Inlined into both codes, they let
  /// the device compiler merge the two into one whose every load is a gather
  /// (LLVM sinks the common arithmetic below the branch), which costs most for
  /// stencils with many loads per output; the copies keep the interior a
  /// loop of its own, at the price of a call per border element
  /// (docs/codegen.md, Boundary specialisation). No effect on CUDA or unspecialised kernels.
  bool noinlineBorder = false;
  /// With specialiseBoundaries: in the work-groups the interior condition
  /// leaves to the border code, each work-item whose own indices lie in the
  /// interior runs the interior code, the others the border code. A
  /// work-group is interior only when all its work-items are, so with wide
  /// work-groups a large share of the elements runs the (slow) border code
  /// for the few that need it: 2 x 64 of every 4096 columns for a radius-2
  /// stencil in 64-wide work-groups. No effect where the interior is decided
  /// per work-group of a mapWrg kernel (Kernel::Interior::inWorkGroups).
  bool splitBorder = false;
  /// How the device compiler may relax floating point (codegen/fast_math.h);
  /// recorded in Kernel::buildOptions.
  FastMath fastMath = FastMath::None;
  /// User functions divide by floating constants as multiplications by the
  /// inverse (cfun::Function::divisionsAsMultiplications): exact for powers
  /// of two, a relaxation otherwise.
  bool divToMul = false;
  /// Measurement only (codegen/global_load_counter.h): every global-buffer
  /// read also adds its element count (a vector load its lanes) to a `uint`
  /// counter, the kernel's last parameter (Kernel::countsGlobalLoads).
  /// Single-kernel programs only; never in explored or exported kernels.
  bool countGlobalLoads = false;
};

/// The program cannot be turned into a kernel (not lowered, illegal nesting
/// of parallel maps, a write through a non-invertible view, ...). `path` is
/// the JSON pointer of the offending node.
class CodegenError : public Error {
public:
  CodegenError(std::string path, const std::string &message)
      : Error((path.empty() ? std::string("/body") : path) + ": " + message,
              path.empty() ? std::string("/body") : path),
        path_(std::move(path)) {}
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// Why `name` cannot name a kernel (not a C identifier, a keyword, a builtin of
/// OpenCL C or CUDA), or nullopt when it can.
std::optional<std::string> invalidKernelName(const std::string &name);

/// Precondition: `typedProgram` comes from typeCheck.
Kernel generateKernel(const Program &typedProgram, Target target, const CodegenOptions &options = {});

} // namespace liftcc::codegen
