#pragma once
// Everything the exported host code needs to know about one kernel, with
// every size already concrete: the exported code runs without liftcc, so it
// cannot evaluate size expressions; it checks the caller's sizes against the
// ones the kernel was generated (and tuned) for instead.

#include "codegen/kernel.h"
#include "core/ir/iterated_state.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace liftcc::exporter {

struct PlanArg {
  std::string name;
  codegen::KernelArg::Role role;
  ScalarKind kind;
  int64_t count = 1; ///< elements of a buffer; 1 for a size
};

/// A kernel parameter of one stage: a buffer (an index into the plan's
/// buffers: its arguments, then its temporaries) or a size (an index into
/// ExportPlan::sizes).
struct StageParam {
  bool isSize = false;
  size_t index = 0;
};

/// One kernel launch of the schedule: a kernel function of the source, its
/// parameters and its NDRange.
struct PlanStage {
  std::string kernelName;
  std::vector<StageParam> params; ///< in kernel parameter order
  int dims = 1;
  /// Work-items per dimension the kernel needs (before rounding to the work-group size).
  std::array<int64_t, 3> globalSize{1, 1, 1};
  /// The work-group size to launch with; nullopt leaves it to the OpenCL
  /// runtime, or the CUDA default block shape.
  std::optional<std::array<int64_t, 3>> localSize;

  /// The block shape CUDA launches use: localSize, or the CUDA runner's
  /// default (256 in 1D, 32 x 8 otherwise).
  std::array<int64_t, 3> cudaBlock() const;
  /// Work-items per dimension rounded up to a multiple of `local`.
  std::array<int64_t, 3> roundedGlobal(const std::array<int64_t, 3> &local) const;
};

struct ExportPlan {
  std::string programName; ///< default prefix of the exported names
  codegen::Target target = codegen::Target::OpenCL;
  std::string kernelName;
  std::string source;
  /// The program's interface: its inputs, outputs and sizes (for a single
  /// kernel in its parameter order).
  std::vector<PlanArg> args;
  /// Global buffers the stages of a multi-kernel program pass between them
  /// (role Output), allocated by the exported program at build.
  std::vector<PlanArg> temporaries;
  /// The kernels launched, in order: one for a single kernel, one per stage
  /// of a multi-kernel program (codegen::Kernel::stages).
  std::vector<PlanStage> stages;
  /// The program's size variables in declaration order, with their values.
  std::vector<std::pair<std::string, int64_t>> sizes;
  /// The last stage's NDRange and work-group size (the only one's, for a
  /// single kernel): the tuned (or required, for mapWrg kernels) work-group
  /// size; nullopt leaves it to the OpenCL runtime, or the CUDA default.
  int dims = 1;
  std::array<int64_t, 3> globalSize{1, 1, 1};
  std::optional<std::array<int64_t, 3>> localSize;
  int64_t localMemoryBytes = 0;
  /// The device compiler's options the kernel was verified with (fast math:
  /// codegen::Kernel::buildOptions); the exported build passes them.
  std::string buildOptions;
  struct Iteration {
    int64_t count = 0;
    /// The buffer (StageParam's index: in `args`, or a temporary after the
    /// args with a prologue) of each iterated input, paired in order with
    /// stateWritten(): one for iterate(n, f, A), one per component for
    /// iterate(n, f, tuple(A, B)).
    std::vector<size_t> inputArgs;
    /// codegen::Kernel::Iteration::phases: each launches its `stages`
    /// consecutive stages `count` times, one phase after the other; empty:
    /// every stage, `count` times.
    struct Phase {
      int64_t count = 0;
      size_t stages = 0;
      std::vector<std::optional<size_t>> carriedFrom; ///< this phase's (below)
    };
    std::vector<Phase> phases;
    /// codegen::Kernel::Iteration::carriedFrom: per component, the component
    /// it is carried over from (no kernel writes its output); empty: none.
    /// With phases, each phase has its own.
    std::vector<std::optional<size_t>> carriedFrom;
    /// Whether some launch carries a component (the state's buffers rotate).
    bool carries() const { return carriesSomewhere(*this); }
    /// The carriedFrom of phase `p` (of the one loop without phases).
    const std::vector<std::optional<size_t>> &carriedIn(size_t p) const {
      return phases.empty() ? carriedFrom : phases.at(p).carriedFrom;
    }
    /// codegen::Kernel::Iteration::epilogueStages: the last stages, launched
    /// once after the loop (whose launches cover the others), reading its
    /// result from `stateOutputs`; 0: none.
    size_t epilogueStages = 0;
    /// Where the loop writes each component of the state (buffer indices as
    /// StageParam's: temporaries, with a stage after the loop); empty: the
    /// output arguments.
    std::vector<size_t> stateOutputs{};
    /// codegen::Kernel::Iteration::prologueStages: the first stages, launched
    /// once before the loop, computing its initial state into the
    /// temporaries inputArgs then names; 0: none.
    size_t prologueStages = 0;
  };
  std::optional<Iteration> iteration;
  /// Where the kernel came from, for the comment heading the exported files.
  std::vector<std::string> provenance;

  /// The first output argument.
  size_t outputArg() const;
  /// Every output argument, in the order of the result's components.
  std::vector<size_t> outputArgs() const;
  /// A buffer of the plan by StageParam index: an argument or a temporary.
  const PlanArg &buffer(size_t index) const;
  /// The buffers (StageParam indices) the loop writes the state's components
  /// to, paired with Iteration::inputArgs: its stateOutputs, else outputArgs().
  std::vector<size_t> stateWritten() const;
  /// The stages the loop launches, [loopBegin(), loopEnd()): all but the
  /// prologue's and the epilogue's.
  size_t loopBegin() const;
  size_t loopEnd() const;
};

/// The plan of a best-kernel directory (launch.json and the kernel file it
/// names). Errors name the file and the JSON pointer of the bad field.
ExportPlan planFromBestKernel(const std::string &directory);

/// The plan of a launch.json document and kernel source; `where` names the
/// document in errors.
ExportPlan planFromLaunchJson(const nlohmann::json &launch, const std::string &source, const std::string &where);

/// The plan of a freshly generated kernel at concrete sizes (given in the
/// program's size order). `localSize`: the work-group size to launch with
/// (nullopt: the kernel's own, if any).
ExportPlan planFromKernel(const codegen::Kernel &kernel, const std::string &programName,
                          const std::vector<std::pair<std::string, int64_t>> &sizes,
                          const std::optional<std::array<int64_t, 3>> &localSize, std::vector<std::string> provenance);

} // namespace liftcc::exporter
