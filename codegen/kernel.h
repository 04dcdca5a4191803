#pragma once
// A generated kernel: its source and everything a host needs to launch it.
// Sizes are symbolic (expressions of the program's size variables), so one
// generated kernel serves every problem size the program allows.

#include "codegen/dialect.h"
#include "core/arith/expr.h"
#include "core/ir/iterated_state.h"
#include "core/scalar.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace liftcc::codegen {

struct KernelArg {
  enum class Role { Input, Output, Size };
  std::string name;
  Role role;
  ScalarKind kind;   ///< element kind of a buffer, or Int for a size
  arith::Expr count; ///< number of elements of a buffer (Input/Output)
};

struct Kernel {
  Target target;
  std::string name;
  std::string source;
  std::vector<KernelArg> args; ///< in parameter order
  int dims = 1;                ///< NDRange dimensions used (1..3)
  /// Work-items per dimension: the minimum the launch must provide (it may
  /// round up; extra work-items do nothing). For mapGlb the extent of the map;
  /// for mapWrg numGroups * localSize.
  std::array<arith::Expr, 3> globalSize{arith::Expr(1), arith::Expr(1), arith::Expr(1)};
  /// Work-group size when the kernel uses work-groups (mapWrg/mapLcl).
  std::optional<std::array<int64_t, 3>> localSize;
  int64_t localMemoryBytes = 0;
  /// 32: indices are int (the range analysis proved every index expression
  /// fits); 64: long / long long.
  int indexBits = 32;
  /// A program `iterate(n, f, A)` over one of its inputs is one kernel for
  /// `f`, launched n times by the host with the buffers of A and the output
  /// swapped between launches (double buffering: a global barrier between
  /// iterations cannot be had inside one OpenCL/CUDA kernel). Over a tuple
  /// of inputs, `iterate(n, f, tuple(A, B))`, each component's buffer is
  /// swapped with the output of that component.
  struct Iteration {
    arith::Expr count;
    /// Index in `args` of each iterated input, in the order of the state's
    /// components: the c-th Output argument (the c-th of stateBuffers, with
    /// a stage after the loop) replaces inputArgs[c]. Empty when the state is
    /// computed before the loop (prologueStages; stateInputs then).
    std::vector<size_t> inputArgs;
    /// The stages (Kernel::stages) in order, split into phases, each
    /// launched `count` times in turn, the buffers exchanging after every
    /// launch as in one loop; `count` above is then their sum. Time tiles
    /// whose depth does not divide the iteration count are two phases: the
    /// tiles, then one launch of the steps left. Empty: one phase, every
    /// stage (or the kernel itself).
    struct Phase {
      arith::Expr count;
      size_t stages = 0;
      /// carriedFrom (below) of this phase's step; a time tile of a tuple
      /// state and the launch of its steps left may carry different
      /// components.
      std::vector<std::optional<size_t>> carriedFrom;
    };
    std::vector<Phase> phases;
    /// Per component of the state, the component it is carried over from
    /// unchanged (core/ir/iterated_state.h: a wave's (prev, cur) -> (cur,
    /// f(prev, cur))): no stage writes its output, the host passes the
    /// buffer on, rotating the state's buffers instead of exchanging pairs.
    /// Empty: every component is computed. With phases, each phase's own.
    std::vector<std::optional<size_t>> carriedFrom;
    /// Whether some launch carries a component (the buffers rotate).
    bool carries() const { return carriesSomewhere(*this); }
    /// A stage after the loop (core/ir/loop_split.h): the last
    /// `epilogueStages` of `stages` are launched once after the loop's
    /// launches (which `phases` then cover), reading its result; the state's
    /// outputs are then `stateBuffers`, temporaries of the program named
    /// once per component (the c-th replaces inputArgs[c]), and the program's
    /// outputs are the stage's. The stage reads component c under the name
    /// stateBuffers[c]: the host binds that name to the buffer holding the
    /// loop's result. 0: none.
    size_t epilogueStages = 0;
    std::vector<std::string> stateBuffers{};
    /// The state computed before the loop (core/ir/loop_split.h): the first
    /// `prologueStages` of `stages` are launched once before the loop's
    /// launches, writing its initial state to `stateInputs`, temporaries of
    /// the program named once per component, which the loop then reads and
    /// writes its steps over instead of inputs (inputArgs is then empty).
    /// 0: none.
    size_t prologueStages = 0;
    std::vector<std::string> stateInputs{};
  };
  std::optional<Iteration> iteration;
  /// Options the device compiler must build the kernel with, in the target's
  /// spelling (e.g. "-cl-fast-relaxed-math", "--use_fast_math"), after the
  /// backend's own; empty: none (codegen/fast_math.h).
  std::string buildOptions;

  /// Boundary specialisation (CodegenOptions::specialiseBoundaries): work-groups
  /// lying wholly inside [lo[d], extent - hi[d]) of every dimension run interior
  /// code without bounds guard and without pad arithmetic (clamp, mirror, wrap,
  /// constant-pad selects); the others run the general code. The margins count
  /// work-items for mapGlb kernels and work-groups for mapWrg kernels.
  struct Interior {
    std::array<int64_t, 3> lo{0, 0, 0}, hi{0, 0, 0};
    bool inWorkGroups = false;
    bool operator==(const Interior &) const = default;
  };
  std::optional<Interior> interior;
  /// The kernel was generated for exactly `localSize` (bounds guards dropped
  /// because the work-group size divides the extent; OpenCL
  /// reqd_work_group_size): it must not be launched with another one.
  bool requiresLocalSize = false;
  /// CodegenOptions::countGlobalLoads: a counter of the global elements read,
  /// a `uint` buffer, is the last parameter, after `args`.
  bool countsGlobalLoads = false;

  /// Multi-kernel programs (rewrite/stages.h): an intermediate array must be
  /// complete before it is read, a global barrier, hence a kernel boundary.
  /// `source` then defines one kernel function per stage, launched in this
  /// order; each stage is a Kernel without source, with its own name, NDRange,
  /// work-group size and args, whose names are those of the program's buffers
  /// (`args`) or of `temporaries`. `args` is the program's interface (its
  /// inputs, output and sizes); dims, globalSize, localSize, interior and
  /// requiresLocalSize describe the last stage, localMemoryBytes and
  /// indexBits are the largest of any stage. Empty for single-kernel programs.
  std::vector<Kernel> stages;
  /// The global buffers the stages pass between them (role Output: each is
  /// written by one stage and read by later ones), allocated by the host.
  std::vector<KernelArg> temporaries;

  /// Concrete NDRange for given sizes: global rounded up to a multiple of local.
  std::array<size_t, 3> concreteGlobalSize(const std::map<std::string, int64_t> &sizes,
                                           const std::array<size_t, 3> &local) const;
};

/// Launch metadata as JSON (`liftc compile` writes it beside the kernel).
nlohmann::json kernelMetadata(const Kernel &kernel);

} // namespace liftcc::codegen
