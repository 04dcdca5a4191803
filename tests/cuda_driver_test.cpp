// DriverApi: loading libcuda.so.1 at run time. These tests need no GPU; they
// check that a missing or unusable driver is reported cleanly, never by a
// crash or a link error.

#include <doctest/doctest.h>

#include <string>

#include "tuner/cuda/driver_api.h"

using namespace liftcc::cuda;

namespace {
bool contains(const std::string &haystack, const std::string &needle) {
  return haystack.find(needle) != std::string::npos;
}
} // namespace

TEST_SUITE("cuda.driver") {
TEST_CASE("the default driver either loads completely or says why not") {
  const DriverLoadResult r = DriverApi::load();
  if (!r.available()) {
    MESSAGE("no usable CUDA driver here: " << r.error);
    CHECK_FALSE(r);
    CHECK(contains(r.error, "libcuda.so.1"));
    CHECK_THROWS_WITH_AS(DriverApi::loadOrThrow(), doctest::Contains("libcuda.so.1"), CudaUnavailable);
    return;
  }
  CHECK(r.error.empty());
  const DriverApi &api = *r.api;
  MESSAGE("CUDA driver " << api.driverVersion() << ", contexts via " << api.ctxCreateSymbol());
  CHECK(api.driverVersion() > 0);
  // doctest cannot print function pointers; compare as booleans.
  CHECK(static_cast<bool>(api.cuLaunchKernel));
  CHECK(static_cast<bool>(api.cuEventElapsedTime));
  CHECK((api.cuCtxCreate_v2 != nullptr || api.cuCtxCreate_v4 != nullptr));
  // The driver's own names for error codes.
  CHECK(api.errorName(drv::CUDA_ERROR_NO_DEVICE) == "CUDA_ERROR_NO_DEVICE");
  CHECK(api.errorName(999999) == "CUresult 999999"); // not a CUresult the driver knows
  CHECK_THROWS_WITH_AS(api.check(drv::CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc_v2"),
                       doctest::Contains("cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY"), CudaError);
  CHECK_NOTHROW(api.check(drv::CUDA_SUCCESS, "nothing"));
}

TEST_CASE("a driver library that does not exist: the dlopen error names it") {
  const char *name = "libliftcc-no-such-driver.so.1";
  const DriverLoadResult r = DriverApi::load(name);
  REQUIRE_FALSE(r.available());
  CHECK(contains(r.error, "no CUDA driver"));
  CHECK(contains(r.error, std::string("cannot load ") + name));
  try {
    (void)DriverApi::loadOrThrow(name);
    FAIL("loadOrThrow succeeded for a missing library");
  } catch (const CudaUnavailable &e) {
    CHECK(std::string(e.what()) == r.error);
  }
}

TEST_CASE("an empty library name is an error, not the main program") {
  CHECK_FALSE(DriverApi::load("").available());
  CHECK_FALSE(DriverApi::load(nullptr).available());
  CHECK(contains(DriverApi::load("").error, "empty library name"));
}

TEST_CASE("a library without the driver's entry points is rejected, naming them") {
  // libm is on every glibc system and exports none of cu*.
  const DriverLoadResult r = DriverApi::load("libm.so.6");
  REQUIRE_FALSE(r.available());
  CHECK(contains(r.error, "libm.so.6 is missing required entry points"));
  CHECK(contains(r.error, "cuInit"));
  CHECK(contains(r.error, "cuMemAlloc_v2"));
  CHECK(contains(r.error, "cuCtxCreate_v2 (or _v4)"));
  CHECK(contains(r.error, "cuEventElapsedTime_v2"));
}
} // TEST_SUITE("cuda.driver")
