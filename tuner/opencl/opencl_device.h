#pragma once
// Discovery and selection of OpenCL devices. Everything here returns plain
// value structs so that callers (liftc run, the tuner, reports) can print,
// compare and store device properties without touching the C API.

#include "tuner/backend_error.h"
#include "tuner/opencl/opencl_api.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace liftcc::ocl {

enum class DeviceType { Cpu, Gpu, Accelerator, Custom, Other };

/// "CPU", "GPU", "Accelerator", "Custom", "Other".
std::string_view deviceTypeName(DeviceType type);

struct DeviceInfo {
  /// Position in the flat list over all platforms (what "0", "1" select).
  std::size_t index = 0;
  /// Position of the platform, and of the device within it ("0:1").
  std::size_t platformIndex = 0;
  std::size_t deviceIndex = 0;

  std::string platformName;
  std::string platformVendor;
  std::string name;
  std::string vendor;
  /// CL_DEVICE_VERSION, e.g. "OpenCL 1.2 pocl ..." or "OpenCL 3.0 CUDA".
  std::string version;
  /// CL_DRIVER_VERSION, e.g. PoCL's release ("6.0") or the vendor driver's.
  std::string driverVersion;
  DeviceType type = DeviceType::Other;

  std::uint64_t globalMemBytes = 0;
  std::uint64_t localMemBytes = 0;
  /// Largest single buffer the device accepts (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
  std::uint64_t maxAllocBytes = 0;
  std::size_t maxWorkGroupSize = 0;
  std::vector<std::size_t> maxWorkItemSizes;
  std::uint32_t computeUnits = 0;
  std::uint32_t maxClockMHz = 0;
  /// Whether command queues of this device can record timestamps. The runtime
  /// layer requires it: kernel times come from profiling events.
  bool profiling = false;
  /// cl_khr_fp64 (or a non-zero CL_DEVICE_DOUBLE_FP_CONFIG).
  bool doubles = false;

  /// Raw ids. Root platform/device ids are never released and stay valid for
  /// the whole process, so copying them around is safe.
  cl_platform_id platformId = nullptr;
  cl_device_id deviceId = nullptr;
};

/// One line: `0 (0:0) <device> [<platform>] CPU, 8 CUs, 2000 MHz, 16 GiB`.
std::string describe(const DeviceInfo &device);

/// All devices of all platforms, in platform order. An empty result means no
/// OpenCL platform is installed (the ICD loader found no vendor); that is not
/// an error. Other failures throw OpenCLError.
std::vector<DeviceInfo> listDevices();

/// The device selected by `spec` in `devices`, or nullopt:
///  - "N"      flat index over all platforms ("0" is the first device);
///  - "P:D"    device D of platform P ("0:1");
///  - anything else: case-insensitive substring of the device name, device
///    vendor, platform name or platform vendor ("pocl", "nvidia"); the first
///    match in flat order wins.
/// An empty spec selects the first device. Pure function: unit-testable
/// without any OpenCL platform.
std::optional<DeviceInfo> findDevice(std::span<const DeviceInfo> devices, std::string_view spec);

/// No device matched a selection, or there is no device at all. The message
/// says which and lists what is available.
class DeviceSelectionError : public tuner::BackendError {
public:
  using tuner::BackendError::BackendError;
};

/// findDevice over `devices`, throwing DeviceSelectionError when nothing
/// matches.
DeviceInfo selectDevice(std::span<const DeviceInfo> devices, std::string_view spec);
/// selectDevice over listDevices().
DeviceInfo selectDevice(std::string_view spec);

} // namespace liftcc::ocl
