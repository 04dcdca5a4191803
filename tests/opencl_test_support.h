#pragma once
// The one place the test suites learn whether they can run OpenCL: every
// suite that needs a device asks testDevice() (or testContext()).

#include "tuner/opencl/opencl_device.h"
#include "tuner/opencl/opencl_runtime.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace liftcc::ocl::test {

/// LIFTCC_REQUIRE_OPENCL=1 (set by CI): a machine without an OpenCL device
/// fails the device tests instead of skipping them, so a CI machine that lost
/// PoCL cannot pass.
inline bool openCLRequired() {
  const char *value = std::getenv("LIFTCC_REQUIRE_OPENCL");
  return value && std::string(value) == "1";
}

/// The device the OpenCL tests run on: $LIFTCC_OCL_DEVICE (any selectDevice
/// spec) if set, else the first device. Without any OpenCL platform this
/// fails the test under LIFTCC_REQUIRE_OPENCL=1, else prints a MESSAGE and
/// returns nullopt so that the suites pass on machines that have no OpenCL
/// at all; a broken installation always fails (listDevices throws).
inline std::optional<DeviceInfo> testDevice() {
  const auto devices = listDevices();
  if (devices.empty()) {
    if (openCLRequired()) FAIL("no OpenCL platform found, and LIFTCC_REQUIRE_OPENCL=1 requires one");
    MESSAGE("no OpenCL platform found; skipping this OpenCL test");
    return std::nullopt;
  }
  const char *spec = std::getenv("LIFTCC_OCL_DEVICE");
  return selectDevice(devices, spec ? spec : "");
}

/// A context on testDevice(), or nullopt where that skips.
inline std::optional<Context> testContext() {
  std::optional<DeviceInfo> device = testDevice();
  if (!device) return std::nullopt;
  return std::optional<Context>(std::in_place, *device);
}

} // namespace liftcc::ocl::test
