#pragma once
// What the OpenCL and CUDA host-code emitters share: the names of the exported
// API for one kernel, the macros describing its sizes and buffers, and the
// comment that heads both files.

#include "exporter/export_plan.h"

#include <cstdint>
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
/// or the output aliases an input.
std::string bufferArgumentChecks(const ExportPlan &plan, const HostNames &names, const std::string &nullValue,
                                 const std::string &indent);

/// The block comment heading the exported files.
std::string provenanceComment(const ExportPlan &plan, const std::string &what);

/// The C bytes of one element of a buffer argument.
int64_t elementBytes(ScalarKind kind);

/// "{64, 64, 1}"
std::string cArray(const std::array<int64_t, 3> &values);

} // namespace liftcc::exporter
