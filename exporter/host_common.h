#pragma once
// What the OpenCL and CUDA host-code emitters share: the names of the exported
// API for one kernel, the macros describing its sizes and buffers, and the
// comment that heads both files.

#include "exporter/export_plan.h"

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace liftcc::exporter {

/// One exported header + source pair.
struct ExportedPair {
  std::string headerFile, header;
  std::string sourceFile, source;
};

struct HostNames {
  std::string api;                    ///< prefix of every function and type, e.g. "jacobi2d_5pt_opencl"
  std::string API;                    ///< prefix of every macro and enum value, e.g. "JACOBI2D_5PT_OPENCL"
  std::vector<std::string> argParam;  ///< per plan argument: its C parameter name
  std::vector<std::string> argMacro;  ///< per plan argument: API_<NAME> (buffers)
  std::vector<std::string> sizeParam; ///< per plan size
  std::vector<std::string> sizeMacro; ///< per plan size: API_<NAME>

  /// "_ERROR_..." etc. with the API prefix.
  std::string enumValue(const std::string &suffix) const { return API + "_" + suffix; }
};

/// `reserved`: the other parameter names of the launch function (a program
/// input named like one of them gets a trailing '_').
HostNames hostNames(const ExportPlan &plan, const std::string &prefix, const std::string &target,
                    const std::set<std::string> &reserved);

/// "#define API_N 64" for every size and API_<BUF>_COUNT / _BYTES for every buffer.
std::string sizeAndBufferMacros(const ExportPlan &plan, const HostNames &names);

/// The buffer and size parameters of the launch function, each preceded by
/// ", ": buffers typed `bufferType`, sizes int64_t.
std::string launchParams(const ExportPlan &plan, const HostNames &names, const std::string &bufferType);

/// The statements that return SIZE_MISMATCH unless every size equals the exported one.
std::string sizeCheck(const ExportPlan &plan, const HostNames &names, const std::string &indent);

/// Statements that return INVALID_ARGUMENT when a buffer is null (`nullValue`)
/// or an output aliases another buffer.
std::string bufferArgumentChecks(const ExportPlan &plan, const HostNames &names, const std::string &nullValue,
                                 const std::string &indent);

/// How one target binds kernel parameters and launches a stage, for launchSchedule.
struct ScheduleHooks {
  /// Statements binding parameter `param` of stage `stage` to the C
  /// expression `value` (a buffer, or an int64_t size when `isSize`),
  /// returning the status on failure; `indent` starts each line.
  std::function<std::string(size_t stage, size_t param, bool isSize, const std::string &value,
                            const std::string &indent)>
      bind;
  /// An expression launching stage `stage` that yields the status; `event`
  /// is where the last launch's event goes ("done", or "NULL").
  std::function<std::string(size_t stage, const std::string &event)> enqueue;
  /// Statements copying `bytes` from buffer `from` to `to` (zero iterations),
  /// returning the status on failure; `event` as for enqueue.
  std::function<std::string(const std::string &from, const std::string &to, const std::string &bytes,
                            const std::string &event)>
      copy;
  /// Statements allocating program->scratch[slot] of `bytes` unless it
  /// exists, returning the status on failure.
  std::function<std::string(size_t slot, const std::string &bytes)> allocateScratch;
  /// The C type of a buffer handle (cl_mem, CUdeviceptr).
  std::string bufferType;
};

/// The body of the launch function after the checks: every stage's
/// parameters bound and the stages launched in order; for `iterate`, the
/// stages launched count times, each iterated input and the output it
/// becomes bound to a source and a target that alternate between the output
/// and a scratch buffer of their own so that the last launch writes the
/// outputs and the inputs are never written (temporaries are written and
/// read within one step).
std::string launchSchedule(const ExportPlan &plan, const HostNames &names, const ScheduleHooks &hooks);

/// The C expression of a stage parameter outside an iteration's swap: the
/// caller's buffer or size, or the program's temporary.
std::string paramValue(const ExportPlan &plan, const HostNames &names, const StageParam &param);

/// Whether the schedule launches any kernel (not for zero iterations).
bool launchesKernels(const ExportPlan &plan);

/// The scratch buffers of an iterate's launches. Without carried components:
/// one per component (the second buffer of each iterated array). With them
/// (ExportPlan::Iteration::carriedFrom): the state rotates through them, so
/// each size of component has as many as the components of that size plus
/// those computed, in a range of its own (`first`, `count` per component).
struct ScratchLayout {
  std::vector<size_t> slotComponent; ///< per slot: a component whose size it has
  std::vector<size_t> first, count;  ///< per component: its size's slots
};
ScratchLayout scratchLayout(const ExportPlan &plan);

/// What program->scratch holds, for the comment on its field.
std::string scratchNote(const ExportPlan &plan);

/// The definition of `<api>_kernel_source`: the kernel source as an array of
/// `<API>_KERNEL_SOURCE_PARTS` string literals (literalPieces).
std::string kernelSourceDefinition(const ExportPlan &plan, const HostNames &names);

/// The block comment heading the exported files.
std::string provenanceComment(const ExportPlan &plan, const std::string &what);

/// The C bytes of one element of a buffer argument.
int64_t elementBytes(ScalarKind kind);

/// "{64, 64, 1}"
std::string cArray(const std::array<int64_t, 3> &values);

} // namespace liftcc::exporter
