#pragma once
// What the export suites share: whether exported OpenCL code can be compiled
// and run here, compiling C with the strict flags, raw float files, and the
// best-kernel directory of a results directory.

#include "tests/opencl_test_support.h"
#include "tests/shell_support.h"
#include "tests/test_support.h"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace liftcc::test {

/// C text of `open_first_device`, which the C drivers of the export suites
/// paste before their main: the first device of the first OpenCL platform,
/// a context and an in-order queue on it; 0 when any of them fails.
inline const char *const kOpenFirstDeviceC = R"C(
static int open_first_device(cl_device_id *device, cl_context *context, cl_command_queue *queue) {
  cl_platform_id platform;
  cl_int error;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS) return 0;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, device, NULL) != CL_SUCCESS) return 0;
  *context = clCreateContext(NULL, 1, device, NULL, NULL, &error);
  if (error != CL_SUCCESS) return 0;
  *queue = clCreateCommandQueue(*context, *device, 0, &error);
  return error == CL_SUCCESS;
}

)C";

/// True when the tests can compile and run exported OpenCL code here.
inline bool canRunExported() {
  if (cCompiler().empty()) {
    MESSAGE("no C compiler found by CMake: exported code not compiled");
    return false;
  }
  return ocl::test::testDevice().has_value();
}

/// Compiles C sources into `output` with the strict flags.
inline void compileC(const std::vector<std::filesystem::path> &sources, const std::filesystem::path &includeDir,
                     const std::filesystem::path &output, const std::string &libraries = "-lOpenCL") {
  std::string command = shellQuote(cCompiler()) + " " + strictCFlags() + " -I" + shellQuote(includeDir.string());
  for (const std::filesystem::path &s : sources) command += " " + shellQuote(s.string());
  command += " " + libraries + " -o " + shellQuote(output.string());
  ShellRun run = runShell(command);
  REQUIRE_MESSAGE(run.status == 0, command << "\n" << run.output);
}

inline void writeFile(const std::filesystem::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

inline std::vector<float> readFloats(const std::filesystem::path &path) {
  std::string bytes = readFile(path);
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

/// The one launch.json below `results` (a best-kernel directory).
inline std::filesystem::path bestKernelDirectory(const std::filesystem::path &results) {
  std::vector<std::filesystem::path> found;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(results / "best"))
    if (entry.path().filename() == "launch.json") found.push_back(entry.path().parent_path());
  REQUIRE(found.size() == 1);
  return found[0];
}

} // namespace liftcc::test
