#pragma once
// One launch plan for every kernel liftcc runs: generated kernels, the
// hand-written references of `liftc bench`, on OpenCL and on CUDA. The plan is
// backend-neutral and computed once from a kernel, its sizes and its launch
// configuration: the device buffers with their byte sizes and contents, which
// buffer or integer each kernel parameter gets, the NDRange, and for
// `iterate` the host loop of launches with the buffers swapped in between.
// A backend only allocates, uploads, downloads, binds and launches
// (tuner/run_plan.h); everything else (warm-ups, repetitions, restoring the
// inputs `iterate` overwrites, the median) is runPlan's, so the backends
// cannot disagree about what a kernel time is.

#include "codegen/kernel.h"
#include "core/ir/iterated_state.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace liftcc::tuner {

struct PlanBuffer {
  std::string name; ///< the kernel parameter's, for messages
  size_t bytes = 0; ///< exact; backends allocate at least 1 byte
  /// Filled from the i-th input before the runs (and again before every
  /// repetition of an iterated kernel, which overwrites it).
  std::optional<size_t> input;
  bool readOnly = false;  ///< never written by the kernel
  bool writeOnly = false; ///< never read by the kernel
};

/// A kernel parameter: a device buffer (index into LaunchPlan::buffers) or an
/// int size.
struct BufferParam {
  size_t buffer;
};
struct IntParam {
  int32_t value;
};
using PlanParam = std::variant<BufferParam, IntParam>;

struct LaunchPlan {
  std::string kernelName;
  int dims = 1;
  std::vector<PlanBuffer> buffers;
  std::vector<PlanParam> params; ///< in parameter order
  size_t outputBuffer = 0;
  /// Every output buffer, in the order of the result's components
  /// (core/interp/components.h); a result without tuples has one, outputBuffer.
  std::vector<size_t> outputBuffers;
  /// Work-items per dimension, a multiple of `local` where it is given.
  std::array<size_t, 3> global{1, 1, 1};
  /// Work-group size; nullopt lets the OpenCL runtime choose.
  std::optional<std::array<size_t, 3>> local;
  /// `iterate(count, f, A)`: one kernel (or every stage, in order) launched
  /// `count` times with A's buffer and the output swapped between launches
  /// (a global barrier between iterations cannot be had inside one kernel).
  /// Over `tuple(A, B)`, A's buffer is swapped with the first output and B's
  /// with the second. A repetition is the whole sequence; zero launches leave
  /// the inputs as the result.
  struct Iteration {
    /// One per component of the state, paired with stateOutputs (else the
    /// program's outputs) in order: inputs, or the temporaries a prologue
    /// computes.
    std::vector<size_t> inputBuffers;
    int64_t count;
    /// codegen::Kernel::Iteration::phases: launches `count` times the stages
    /// [firstStage, endStage), one phase after the other; empty: every stage
    /// in every launch.
    struct Phase {
      int64_t count;
      size_t firstStage, endStage;
      std::vector<std::optional<size_t>> carriedFrom; ///< this phase's (below)
    };
    std::vector<Phase> phases;
    /// codegen::Kernel::Iteration::carriedFrom: per component, the component
    /// it is carried over from; empty: every component computed. Then the
    /// state's buffers rotate (rotationOfLaunch) instead of exchanging
    /// pairs. With phases, each phase has its own.
    std::vector<std::optional<size_t>> carriedFrom;
    /// Whether some launch carries a component.
    bool carries() const { return carriesSomewhere(*this); }
    /// codegen::Kernel::Iteration::epilogueStages: the last stages, launched
    /// once after the loop's launches (which its phases cover), reading the
    /// loop's result where they read `stateOutputs`; 0: none.
    size_t epilogueStages = 0;
    /// The buffers the state's components are written to, paired with
    /// inputBuffers (temporaries, with a stage after the loop); empty: the
    /// program's outputs (outputsOf).
    std::vector<size_t> stateOutputs{};
    /// codegen::Kernel::Iteration::prologueStages: the first stages, launched
    /// once before the loop's launches in every repetition, writing the
    /// state's initial buffers (inputBuffers, temporaries then); 0: none.
    size_t prologueStages = 0;
  };
  std::optional<Iteration> iteration;
  /// A multi-kernel program (codegen::Kernel::stages): its kernels, launched
  /// in this order in every repetition, each with its own parameters and
  /// NDRange (`params`, `global` and `local` above are then the last one's).
  /// Temporaries are buffers without input; empty for single kernels.
  struct Stage {
    std::string kernelName;
    int dims = 1;
    std::vector<PlanParam> params;
    std::array<size_t, 3> global{1, 1, 1};
    std::optional<std::array<size_t, 3>> local;
  };
  std::vector<Stage> stages;

  /// Launches per repetition.
  int64_t launches() const { return iteration ? iteration->count : 1; }
  /// The stages launch `k` of a repetition launches, [first, end).
  std::pair<size_t, size_t> stagesOfLaunch(int64_t k) const;
  /// The buffer of each parameter in launch `k` of a repetition (nullopt for
  /// int parameters): iterated kernels read what the previous launch wrote.
  std::vector<std::optional<size_t>> buffersOfLaunch(int64_t k) const;
  /// The same for stage `stage` of an iterated multi-kernel program: in odd
  /// steps every stage has the iterated input's and the output's buffers
  /// exchanged (temporaries are written and read within one step).
  std::vector<std::optional<size_t>> buffersOfStageLaunch(size_t stage, int64_t k) const;
  /// The buffer of each parameter of epilogue stage `stage` (an index into
  /// `stages`): the loop's result where it reads the state's outputs.
  std::vector<std::optional<size_t>> buffersOfEpilogueStage(size_t stage) const;
  /// The first stage the loop launches (0 without a prologue).
  size_t firstLoopStage() const { return iteration ? iteration->prologueStages : 0; }
  /// The first epilogue stage (stages.size() without one).
  size_t firstEpilogueStage() const { return stages.size() - (iteration ? iteration->epilogueStages : 0); }
  /// The buffer that holds the result after a repetition.
  size_t resultBuffer() const;
  /// The buffer of each component of the result after a repetition.
  std::vector<size_t> resultBuffers() const;
  /// The output buffers (plans built by hand may list none: then outputBuffer).
  std::vector<size_t> outputs() const;

  /// Where launch `k` of a repetition of a state with carried components
  /// reads each component (`state`) and writes each computed one (`target`;
  /// a carried component's entry is its unwritten output). A computed
  /// component is written to its own output buffer when free, else to the
  /// first free state input or output buffer of its size; a carried one
  /// takes over the buffer of the component it is carried from. So a wave's
  /// (prev, cur) -> (cur, f(prev, cur)) moves no data for `cur`.
  struct Rotation {
    std::vector<size_t> state, target;
    bool operator==(const Rotation &) const = default;
  };
  Rotation rotationOfLaunch(int64_t k) const;

private:
  /// The buffers the state's components are written to (Iteration::stateOutputs).
  std::vector<size_t> stateWritten() const;
  /// The buffer of each component of the state after the loop's launches.
  std::vector<size_t> loopResult() const;
  std::vector<std::optional<size_t>> swappedBuffers(const std::vector<PlanParam> &params, int64_t k) const;
  Rotation rotationOf(std::vector<size_t> state, const std::vector<std::optional<size_t>> &carried) const;
  /// The buffers of the state's components when launch `k` starts (k = count: the result's).
  std::vector<size_t> stateBeforeLaunch(int64_t k) const;
  /// The carriedFrom of launch `k`'s phase.
  const std::vector<std::optional<size_t>> &carriedOfLaunch(int64_t k) const;
  /// The state after `steps` launches carrying `carried`, from `state`.
  std::vector<size_t> advanced(std::vector<size_t> state, const std::vector<std::optional<size_t>> &carried,
                               int64_t steps) const;
};

/// The plan of a generated kernel at concrete sizes: `config.localSize`, else
/// the kernel's own work-group size (mapWrg kernels), else `defaultLocal`
/// (the backend's: nullopt for OpenCL's runtime choice, a fixed CUDA block).
/// Input buffers are filled from the kernel's inputs in order, the output
/// buffer is the Output argument. Throws std::invalid_argument for sizes the
/// kernel's int parameters cannot take and for a `config.localSize` other than
/// a mapWrg kernel's own (it has no guard on its group ids), and InternalError
/// for a kernel without an output. A kernel counting its global loads
/// (codegen::Kernel::countsGlobalLoads) takes one more input, the counter's
/// 4 initial bytes, and its output is followed by the counter's 4 bytes
/// (tuner/global_load_count.h).
LaunchPlan planLaunch(const codegen::Kernel &kernel, const std::map<std::string, int64_t> &sizes,
                      const std::optional<std::array<size_t, 3>> &requestedLocal,
                      const std::optional<std::array<size_t, 3>> &defaultLocal);

/// The plan of a multi-kernel program (launch_plan_stages.cpp): one buffer per
/// input, temporary and output, and each stage planned as planLaunch plans a
/// kernel, its parameters bound to those buffers by name.
LaunchPlan planStages(const codegen::Kernel &kernel, const std::map<std::string, int64_t> &sizes,
                      const std::optional<std::array<size_t, 3>> &requestedLocal,
                      const std::optional<std::array<size_t, 3>> &defaultLocal);

/// The block shape CUDA launches a kernel with when neither the kernel nor
/// the caller chose one (CUDA has no runtime choice).
std::array<size_t, 3> defaultCudaBlock(int dims);

} // namespace liftcc::tuner
