#include "opencl_test_support.h"
#include "tuner/opencl/opencl_device.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

using namespace liftcc::ocl;

namespace {

DeviceInfo fakeDevice(std::size_t index, std::size_t platform, std::size_t device, std::string name,
                      std::string platformName, std::string platformVendor) {
  DeviceInfo d;
  d.index = index;
  d.platformIndex = platform;
  d.deviceIndex = device;
  d.name = std::move(name);
  d.vendor = "Vendor " + d.name;
  d.platformName = std::move(platformName);
  d.platformVendor = std::move(platformVendor);
  d.type = DeviceType::Gpu;
  return d;
}

// Two platforms, the second with two devices; no OpenCL needed.
std::vector<DeviceInfo> fakeDevices() {
  return {fakeDevice(0, 0, 0, "pthread-skylake", "Portable Computing Language", "The pocl project"),
          fakeDevice(1, 1, 0, "NVIDIA H200", "NVIDIA CUDA", "NVIDIA Corporation"),
          fakeDevice(2, 1, 1, "NVIDIA A100", "NVIDIA CUDA", "NVIDIA Corporation")};
}

std::size_t indexOf(const std::vector<DeviceInfo> &devices, const char *spec) {
  auto found = findDevice(devices, spec);
  REQUIRE_MESSAGE(found.has_value(), spec);
  return found->index;
}

} // namespace

TEST_CASE("findDevice selects by flat index, platform:device and name") {
  const auto devices = fakeDevices();
  CHECK(indexOf(devices, "") == 0);
  CHECK(indexOf(devices, "0") == 0);
  CHECK(indexOf(devices, "2") == 2);
  CHECK(indexOf(devices, "1:0") == 1);
  CHECK(indexOf(devices, "1:1") == 2);
  CHECK(indexOf(devices, "0:0") == 0);
  // Substrings are case-insensitive and also match platform name/vendor.
  CHECK(indexOf(devices, "pocl") == 0);
  CHECK(indexOf(devices, "Portable") == 0);
  CHECK(indexOf(devices, "nvidia") == 1); // first match wins
  CHECK(indexOf(devices, "a100") == 2);

  CHECK_FALSE(findDevice(devices, "3").has_value());
  CHECK_FALSE(findDevice(devices, "0:1").has_value());
  CHECK_FALSE(findDevice(devices, "2:0").has_value());
  CHECK_FALSE(findDevice(devices, "amd").has_value());
  CHECK_FALSE(findDevice({}, "").has_value());
  CHECK_FALSE(findDevice({}, "0").has_value());
}

TEST_CASE("selectDevice lists the available devices when nothing matches") {
  const auto devices = fakeDevices();
  try {
    selectDevice(devices, "intel");
    FAIL("no exception");
  } catch (const DeviceSelectionError &e) {
    const std::string msg = e.what();
    CHECK(msg.find("\"intel\"") != std::string::npos);
    for (const auto &d : devices) CHECK(msg.find(describe(d)) != std::string::npos);
  }
  try {
    selectDevice(std::vector<DeviceInfo>{}, "0");
    FAIL("no exception");
  } catch (const DeviceSelectionError &e) {
    CHECK(std::string(e.what()).find("no OpenCL platform") != std::string::npos);
  }
}

TEST_CASE("describe shows indices, names and type") {
  auto d = fakeDevices()[2];
  d.computeUnits = 108;
  d.maxClockMHz = 1410;
  d.globalMemBytes = std::uint64_t{40} << 30;
  CHECK(describe(d) == "2 (1:1) NVIDIA A100 [NVIDIA CUDA] GPU, 108 CUs, 1410 MHz, 40 GiB");
}

TEST_CASE("listDevices enumerates the installed OpenCL devices") {
  if (!test::testDevice()) return;
  const auto devices = listDevices();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto &d = devices[i];
    INFO(describe(d));
    MESSAGE("OpenCL device " << describe(d) << ", " << d.version);
    CHECK(d.index == i);
    CHECK(d.deviceId != nullptr);
    CHECK(d.platformId != nullptr);
    CHECK_FALSE(d.name.empty());
    CHECK_FALSE(d.platformName.empty());
    CHECK(d.globalMemBytes > 0);
    CHECK(d.localMemBytes > 0);
    CHECK(d.maxAllocBytes > 0);
    CHECK(d.maxWorkGroupSize > 0);
    CHECK(d.maxWorkItemSizes.size() >= 1);
    CHECK(d.computeUnits > 0);
    // OpenCL 1.2 requires every device to support profiling.
    CHECK(d.profiling);
  }
}

TEST_CASE("selectDevice on the installed devices") {
  if (!test::testDevice()) {
    // Checking the no-device error only.
    CHECK_THROWS_AS(selectDevice("0"), DeviceSelectionError);
    return;
  }
  const auto devices = listDevices();
  const auto &first = devices.front();
  CHECK(selectDevice("0").deviceId == first.deviceId);
  CHECK(selectDevice(std::to_string(first.platformIndex) + ":" + std::to_string(first.deviceIndex)).deviceId ==
        first.deviceId);

  std::string upper = first.name;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  CHECK(selectDevice(upper).deviceId == first.deviceId);

  try {
    selectDevice("no-such-device-xyz");
    FAIL("no exception");
  } catch (const DeviceSelectionError &e) {
    CHECK(std::string(e.what()).find(first.name) != std::string::npos);
  }
  CHECK_THROWS_AS(selectDevice(std::to_string(devices.size())), DeviceSelectionError);
}
