#pragma once
// Shared by the OpenCL suites: which device to run on, or why not to run.

#include "tuner/opencl_device.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>

namespace liftcc::ocl::test {

/// The device the OpenCL tests run on: $LIFTCC_OCL_DEVICE (any selectDevice
/// spec) if set, else the first device. Without any OpenCL platform this
/// prints a MESSAGE and returns nullopt so that the suites pass on machines
/// that have no OpenCL at all; a broken installation still fails (listDevices
/// throws).
inline std::optional<DeviceInfo> testDevice() {
  const auto devices = listDevices();
  if (devices.empty()) {
    MESSAGE("no OpenCL platform found; skipping this OpenCL test");
    return std::nullopt;
  }
  const char *spec = std::getenv("LIFTCC_OCL_DEVICE");
  return selectDevice(devices, spec ? spec : "");
}

} // namespace liftcc::ocl::test
