#include "tuner/opencl/opencl_error.h"

#include <CL/cl_ext.h>
#include <doctest/doctest.h>

#include <string>

using namespace liftcc::ocl;

TEST_CASE("errorName knows every OpenCL 1.2 status code") {
  CHECK(errorName(CL_SUCCESS) == "CL_SUCCESS");
  CHECK(errorName(CL_OUT_OF_RESOURCES) == "CL_OUT_OF_RESOURCES");
  CHECK(errorName(CL_BUILD_PROGRAM_FAILURE) == "CL_BUILD_PROGRAM_FAILURE");
  CHECK(errorName(CL_INVALID_WORK_GROUP_SIZE) == "CL_INVALID_WORK_GROUP_SIZE");
  CHECK(errorName(CL_INVALID_DEVICE_PARTITION_COUNT) == "CL_INVALID_DEVICE_PARTITION_COUNT");
  CHECK(errorName(CL_PLATFORM_NOT_FOUND_KHR) == "CL_PLATFORM_NOT_FOUND_KHR");
  // 1.2 defines -1..-19 and -30..-68 without gaps.
  for (cl_int code = -1; code >= -19; --code) CHECK_MESSAGE(errorName(code) != "CL_UNKNOWN_ERROR", code);
  for (cl_int code = -30; code >= -68; --code) CHECK_MESSAGE(errorName(code) != "CL_UNKNOWN_ERROR", code);
  CHECK(errorName(-20) == "CL_UNKNOWN_ERROR");
  CHECK(errorName(-9999) == "CL_UNKNOWN_ERROR");
}

TEST_CASE("check throws OpenCLError naming the call and the code") {
  CHECK_NOTHROW(check(CL_SUCCESS, "clFinish"));
  try {
    check(CL_INVALID_VALUE, "clGetDeviceInfo");
    FAIL("check did not throw");
  } catch (const OpenCLError &e) {
    CHECK(e.code() == CL_INVALID_VALUE);
    CHECK(e.name() == "CL_INVALID_VALUE");
    CHECK(e.call() == "clGetDeviceInfo");
    CHECK(std::string(e.what()) == "clGetDeviceInfo failed: CL_INVALID_VALUE (-30)");
  }
  const OpenCLError withDetail(-12345, "clFoo", "more context");
  CHECK(std::string(withDetail.what()) == "clFoo failed: CL_UNKNOWN_ERROR (-12345)\nmore context");
}
