#include "tuner/opencl/opencl_device.h"

#include "tuner/opencl/opencl_error.h"

#include <CL/cl_ext.h> // CL_PLATFORM_NOT_FOUND_KHR

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

namespace liftcc::ocl {

std::string_view deviceTypeName(DeviceType type) {
  switch (type) {
  case DeviceType::Cpu: return "CPU";
  case DeviceType::Gpu: return "GPU";
  case DeviceType::Accelerator: return "Accelerator";
  case DeviceType::Custom: return "Custom";
  case DeviceType::Other: break;
  }
  return "Other";
}

namespace {

std::string platformString(cl_platform_id platform, cl_platform_info param) {
  std::size_t size = 0;
  check(clGetPlatformInfo(platform, param, 0, nullptr, &size), "clGetPlatformInfo");
  std::string value(size, '\0');
  check(clGetPlatformInfo(platform, param, size, value.data(), nullptr), "clGetPlatformInfo");
  // The size includes the terminating NUL.
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

std::string deviceString(cl_device_id device, cl_device_info param) {
  std::size_t size = 0;
  check(clGetDeviceInfo(device, param, 0, nullptr, &size), "clGetDeviceInfo");
  std::string value(size, '\0');
  check(clGetDeviceInfo(device, param, size, value.data(), nullptr), "clGetDeviceInfo");
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

template <typename T> T deviceValue(cl_device_id device, cl_device_info param) {
  T value{};
  check(clGetDeviceInfo(device, param, sizeof value, &value, nullptr), "clGetDeviceInfo");
  return value;
}

DeviceType toDeviceType(cl_device_type bits) {
  // A device may report several bits (e.g. GPU | DEFAULT); the most specific
  // kind wins.
  if (bits & CL_DEVICE_TYPE_GPU) return DeviceType::Gpu;
  if (bits & CL_DEVICE_TYPE_ACCELERATOR) return DeviceType::Accelerator;
  if (bits & CL_DEVICE_TYPE_CPU) return DeviceType::Cpu;
  if (bits & CL_DEVICE_TYPE_CUSTOM) return DeviceType::Custom;
  return DeviceType::Other;
}

bool supportsDoubles(cl_device_id device) {
  // CL_DEVICE_DOUBLE_FP_CONFIG is 0 when fp64 is absent; the extension string
  // is the fallback for drivers that reject the query.
  cl_device_fp_config config = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof config, &config, nullptr) == CL_SUCCESS)
    return config != 0;
  return deviceString(device, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") != std::string::npos;
}

DeviceInfo queryDevice(cl_platform_id platform, cl_device_id device) {
  DeviceInfo info;
  info.platformId = platform;
  info.deviceId = device;
  info.platformName = platformString(platform, CL_PLATFORM_NAME);
  info.platformVendor = platformString(platform, CL_PLATFORM_VENDOR);
  info.name = deviceString(device, CL_DEVICE_NAME);
  info.vendor = deviceString(device, CL_DEVICE_VENDOR);
  info.version = deviceString(device, CL_DEVICE_VERSION);
  info.driverVersion = deviceString(device, CL_DRIVER_VERSION);
  info.type = toDeviceType(deviceValue<cl_device_type>(device, CL_DEVICE_TYPE));
  info.globalMemBytes = deviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.localMemBytes = deviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  info.maxAllocBytes = deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.maxWorkGroupSize = deviceValue<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  auto dims = deviceValue<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  info.maxWorkItemSizes.resize(dims);
  check(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(std::size_t), info.maxWorkItemSizes.data(),
                        nullptr),
        "clGetDeviceInfo");
  info.computeUnits = deviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.maxClockMHz = deviceValue<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  info.profiling =
      (deviceValue<cl_command_queue_properties>(device, CL_DEVICE_QUEUE_PROPERTIES) & CL_QUEUE_PROFILING_ENABLE) != 0;
  info.doubles = supportsDoubles(device);
  return info;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// The whole of `text` as a decimal number, or nullopt.
std::optional<std::size_t> parseIndex(std::string_view text) {
  std::size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string formatBytes(std::uint64_t bytes) {
  std::ostringstream out;
  out.precision(3);
  if (bytes >= (std::uint64_t{1} << 30))
    out << static_cast<double>(bytes) / double(1 << 30) << " GiB";
  else
    out << static_cast<double>(bytes) / double(1 << 20) << " MiB";
  return out.str();
}

} // namespace

std::string describe(const DeviceInfo &d) {
  std::ostringstream out;
  out << d.index << " (" << d.platformIndex << ':' << d.deviceIndex << ") " << d.name << " [" << d.platformName << "] "
      << deviceTypeName(d.type) << ", " << d.computeUnits << " CUs, " << d.maxClockMHz << " MHz, "
      << formatBytes(d.globalMemBytes);
  return out.str();
}

std::vector<DeviceInfo> listDevices() {
  cl_uint numPlatforms = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &numPlatforms);
  // The ICD loader reports "no vendor installed" as CL_PLATFORM_NOT_FOUND_KHR;
  // that is a normal situation (CI machines, containers), not a failure.
  if (status == CL_PLATFORM_NOT_FOUND_KHR) return {};
  check(status, "clGetPlatformIDs");
  if (numPlatforms == 0) return {};
  std::vector<cl_platform_id> platforms(numPlatforms);
  check(clGetPlatformIDs(numPlatforms, platforms.data(), nullptr), "clGetPlatformIDs");

  std::vector<DeviceInfo> devices;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    cl_uint numDevices = 0;
    status = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &numDevices);
    // A platform without devices keeps its index so that "P:D" matches the
    // numbering clinfo shows.
    if (status == CL_DEVICE_NOT_FOUND || numDevices == 0) continue;
    check(status, "clGetDeviceIDs");
    std::vector<cl_device_id> ids(numDevices);
    check(clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, numDevices, ids.data(), nullptr), "clGetDeviceIDs");
    for (std::size_t d = 0; d < ids.size(); ++d) {
      DeviceInfo info = queryDevice(platforms[p], ids[d]);
      info.index = devices.size();
      info.platformIndex = p;
      info.deviceIndex = d;
      devices.push_back(std::move(info));
    }
  }
  return devices;
}

std::optional<DeviceInfo> findDevice(std::span<const DeviceInfo> devices, std::string_view spec) {
  if (devices.empty()) return std::nullopt;
  if (spec.empty()) return devices.front();

  if (auto index = parseIndex(spec)) {
    for (const auto &d : devices)
      if (d.index == *index) return d;
    return std::nullopt;
  }

  if (auto colon = spec.find(':'); colon != std::string_view::npos) {
    auto platform = parseIndex(spec.substr(0, colon));
    auto device = parseIndex(spec.substr(colon + 1));
    if (platform && device) {
      for (const auto &d : devices)
        if (d.platformIndex == *platform && d.deviceIndex == *device) return d;
      return std::nullopt;
    }
    // Not "P:D": fall through and treat it as a name (names may contain ':').
  }

  const std::string needle = lower(spec);
  for (const auto &d : devices) {
    for (const std::string *field : {&d.name, &d.vendor, &d.platformName, &d.platformVendor})
      if (lower(*field).find(needle) != std::string::npos) return d;
  }
  return std::nullopt;
}

DeviceInfo selectDevice(std::span<const DeviceInfo> devices, std::string_view spec) {
  if (auto found = findDevice(devices, spec)) return *found;
  std::string msg = "no OpenCL device matches \"" + std::string(spec) + "\"";
  if (devices.empty()) {
    msg += ": no OpenCL platform found (no ICD vendor is installed; see "
           "/etc/OpenCL/vendors or OCL_ICD_VENDORS)";
  } else {
    msg += "; select by flat index (\"0\"), platform:device (\"0:0\") or a "
           "name substring. Available devices:";
    for (const auto &d : devices) msg += "\n  " + describe(d);
  }
  throw DeviceSelectionError(msg);
}

DeviceInfo selectDevice(std::string_view spec) {
  const auto devices = listDevices();
  return selectDevice(devices, spec);
}

} // namespace liftcc::ocl
