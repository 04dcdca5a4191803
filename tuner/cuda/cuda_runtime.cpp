#include "tuner/cuda/cuda_runtime.h"

#include <array>
#include <stdexcept>

namespace liftcc::cuda {

namespace detail {

struct ContextState {
  DriverApi api;
  drv::CUcontext ctx = nullptr;
  DeviceInfo info;

  ContextState(DriverApi a, int deviceIndex) : api(std::move(a)) {
    info = queryDevice(api, deviceIndex);
    drv::CUdevice dev = 0;
    api.check(api.cuDeviceGet(&dev, deviceIndex), "cuDeviceGet");
    api.check(api.ctxCreate(&ctx, 0, dev),
              std::string(api.ctxCreateSymbol()) + " on device " + std::to_string(deviceIndex));
  }
  ContextState(const ContextState &) = delete;
  ContextState &operator=(const ContextState &) = delete;
  ~ContextState() {
    // Errors cannot be reported from a destructor; a failing destroy means the
    // context is already unusable, so there is nothing else to clean up.
    (void)api.cuCtxDestroy_v2(ctx);
  }

  void bind() const { api.check(api.cuCtxSetCurrent(ctx), "cuCtxSetCurrent"); }
};

struct ModuleState {
  std::shared_ptr<ContextState> ctx;
  drv::CUmodule module = nullptr;
  std::string jitLog;

  ModuleState(std::shared_ptr<ContextState> c, drv::CUmodule m, std::string log)
      : ctx(std::move(c)), module(m), jitLog(std::move(log)) {}
  ModuleState(const ModuleState &) = delete;
  ModuleState &operator=(const ModuleState &) = delete;
  ~ModuleState() {
    if (ctx->api.cuCtxSetCurrent(ctx->ctx) == drv::CUDA_SUCCESS) (void)ctx->api.cuModuleUnload(module);
  }
};

} // namespace detail

namespace {

int attribute(const DriverApi &api, drv::CUdevice dev, drv::CUdevice_attribute attr, const char *what) {
  int value = 0;
  api.check(api.cuDeviceGetAttribute(&value, attr, dev), what);
  return value;
}

int functionAttribute(const DriverApi &api, drv::CUfunction fn, drv::CUfunction_attribute attr, const char *what) {
  int value = 0;
  api.check(api.cuFuncGetAttribute(&value, attr, fn), what);
  return value;
}

// Device memory size overflow check shared by upload/download.
void checkRange(std::size_t offset, std::size_t bytes, std::size_t size, const char *what) {
  if (offset > size || bytes > size - offset)
    throw std::out_of_range(std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " +
                            std::to_string(offset) + " exceed the buffer's " + std::to_string(size) + " bytes");
}

} // namespace

std::string DeviceInfo::arch() const { return "sm_" + std::to_string(computeMajor) + std::to_string(computeMinor); }

int deviceCount(const DriverApi &api) {
  int count = 0;
  api.check(api.cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

DeviceInfo queryDevice(const DriverApi &api, int index) {
  drv::CUdevice dev = 0;
  api.check(api.cuDeviceGet(&dev, index), "cuDeviceGet(" + std::to_string(index) + ")");
  DeviceInfo info;
  info.index = index;
  std::array<char, 256> name{};
  api.check(api.cuDeviceGetName(name.data(), static_cast<int>(name.size()), dev), "cuDeviceGetName");
  info.name = name.data();
  using namespace drv;
  info.computeMajor = attribute(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)");
  info.computeMinor = attribute(api, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)");
  info.multiprocessorCount =
      attribute(api, dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
  info.maxThreadsPerBlock =
      attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "cuDeviceGetAttribute(MAX_THREADS_PER_BLOCK)");
  info.maxThreadsPerMultiprocessor = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
                                               "cuDeviceGetAttribute(MAX_THREADS_PER_MULTIPROCESSOR)");
  info.warpSize = attribute(api, dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE, "cuDeviceGetAttribute(WARP_SIZE)");
  info.sharedMemPerBlock = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
                                     "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK)");
  info.sharedMemPerBlockOptin = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                          "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)");
  info.sharedMemPerMultiprocessor = attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
                                              "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)");
  info.registersPerBlock =
      attribute(api, dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "cuDeviceGetAttribute(MAX_REGISTERS_PER_BLOCK)");
  info.l2CacheBytes = attribute(api, dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "cuDeviceGetAttribute(L2_CACHE_SIZE)");
  api.check(api.cuDeviceTotalMem_v2(&info.totalMemoryBytes, dev), "cuDeviceTotalMem_v2");
  return info;
}

// ---- Context ----

Context::Context(DriverApi api, int deviceIndex)
    : state_(std::make_shared<detail::ContextState>(std::move(api), deviceIndex)) {}

const DriverApi &Context::api() const { return state_->api; }
const DeviceInfo &Context::device() const { return state_->info; }
void Context::makeCurrent() const { state_->bind(); }

void Context::synchronize() const {
  state_->bind();
  state_->api.check(state_->api.cuCtxSynchronize(), "cuCtxSynchronize");
}

Module Context::loadModule(std::string_view ptx) const {
  state_->bind();
  const DriverApi &api = state_->api;
  // The driver needs a NUL-terminated image; the JIT logs say why a load failed
  // (e.g. PTX newer than the driver, or an arch the device does not have).
  const std::string image(ptx);
  std::array<char, 8192> errorLog{};
  std::array<char, 8192> infoLog{};
  std::array<drv::CUjit_option, 4> options = {drv::CU_JIT_ERROR_LOG_BUFFER, drv::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                                              drv::CU_JIT_INFO_LOG_BUFFER, drv::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  // Size options are passed by value in the pointer slot, as the driver API specifies.
  std::array<void *, 4> values = {
      errorLog.data(), reinterpret_cast<void *>(static_cast<std::uintptr_t>(errorLog.size())), infoLog.data(),
      reinterpret_cast<void *>(static_cast<std::uintptr_t>(infoLog.size()))};
  drv::CUmodule module = nullptr;
  const drv::CUresult rc = api.cuModuleLoadDataEx(&module, image.c_str(), static_cast<unsigned>(options.size()),
                                                  options.data(), values.data());
  if (rc != drv::CUDA_SUCCESS) {
    std::string what = "cuModuleLoadDataEx";
    if (rc == drv::CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      what += " (the PTX is newer than driver " + std::to_string(api.driverVersion()) +
              " supports; update the driver or compile with an older toolkit)";
    if (errorLog[0] != '\0') what += std::string(" [JIT log: ") + errorLog.data() + "]";
    api.check(rc, what);
  }
  return Module(std::make_shared<detail::ModuleState>(state_, module, infoLog.data()));
}

Buffer Context::allocate(std::size_t bytes) const {
  state_->bind();
  drv::CUdeviceptr ptr = 0;
  // cuMemAlloc rejects zero bytes; an empty Buffer is still useful (empty inputs).
  if (bytes > 0)
    state_->api.check(state_->api.cuMemAlloc_v2(&ptr, bytes), "cuMemAlloc_v2(" + std::to_string(bytes) + " bytes)");
  return Buffer(state_, ptr, bytes);
}

// ---- Module / Function ----

Function Module::function(const std::string &name) const {
  const std::shared_ptr<detail::ContextState> &ctx = state_->ctx;
  ctx->bind();
  const DriverApi &api = ctx->api;
  Function f;
  f.module_ = state_;
  f.name_ = name;
  api.check(api.cuModuleGetFunction(&f.fn_, state_->module, name.c_str()), "cuModuleGetFunction(\"" + name + "\")");
  using namespace drv;
  f.maxThreadsPerBlock_ = functionAttribute(api, f.fn_, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                            "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)");
  f.numRegisters_ = functionAttribute(api, f.fn_, CU_FUNC_ATTRIBUTE_NUM_REGS, "cuFuncGetAttribute(NUM_REGS)");
  f.staticSharedBytes_ =
      functionAttribute(api, f.fn_, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
  f.localBytes_ =
      functionAttribute(api, f.fn_, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "cuFuncGetAttribute(LOCAL_SIZE_BYTES)");
  return f;
}

const std::string &Module::jitLog() const { return state_->jitLog; }

Context Function::context() const { return Context(module_->ctx); }

// ---- Buffer ----

Buffer::Buffer(Buffer &&other) noexcept : ctx_(std::move(other.ctx_)), ptr_(other.ptr_), bytes_(other.bytes_) {
  other.ptr_ = 0;
  other.bytes_ = 0;
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    release();
    ctx_ = std::move(other.ctx_);
    ptr_ = other.ptr_;
    bytes_ = other.bytes_;
    other.ptr_ = 0;
    other.bytes_ = 0;
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() noexcept {
  if (ctx_ && ptr_ != 0 && ctx_->api.cuCtxSetCurrent(ctx_->ctx) == drv::CUDA_SUCCESS)
    (void)ctx_->api.cuMemFree_v2(ptr_);
  ptr_ = 0;
}

void Buffer::upload(const void *src, std::size_t bytes, std::size_t offset) {
  checkRange(offset, bytes, bytes_, "Buffer::upload");
  if (bytes == 0) return;
  ctx_->bind();
  ctx_->api.check(ctx_->api.cuMemcpyHtoD_v2(ptr_ + offset, src, bytes), "cuMemcpyHtoD_v2");
}

void Buffer::download(void *dst, std::size_t bytes, std::size_t offset) const {
  checkRange(offset, bytes, bytes_, "Buffer::download");
  if (bytes == 0) return;
  ctx_->bind();
  ctx_->api.check(ctx_->api.cuMemcpyDtoH_v2(dst, ptr_ + offset, bytes), "cuMemcpyDtoH_v2");
}

void Buffer::copyFrom(const Buffer &src) {
  if (src.bytes_ != bytes_)
    throw std::invalid_argument("Buffer::copyFrom: sizes differ (" + std::to_string(src.bytes_) + " vs " +
                                std::to_string(bytes_) + " bytes)");
  if (bytes_ == 0) return;
  ctx_->bind();
  ctx_->api.check(ctx_->api.cuMemcpyDtoD_v2(ptr_, src.ptr_, bytes_), "cuMemcpyDtoD_v2");
}

// ---- KernelArg / launch ----

const void *KernelArg::address() const {
  return std::visit([](const auto &v) -> const void * { return &v; }, value_);
}

std::size_t KernelArg::size() const {
  return std::visit([](const auto &v) { return sizeof(v); }, value_);
}

PreparedLaunch::PreparedLaunch(Function fn, const LaunchConfig &config, std::vector<KernelArg> args)
    : fn_(std::move(fn)), config_(config), args_(std::move(args)) {
  if (config_.grid.count() == 0 || config_.block.count() == 0)
    throw std::invalid_argument("launch of " + fn_.name() + ": grid and block must be non-empty");
  if (config_.block.count() > static_cast<std::uint64_t>(fn_.maxThreadsPerBlock()))
    throw std::invalid_argument("launch of " + fn_.name() + ": block of " + std::to_string(config_.block.count()) +
                                " threads exceeds the kernel's limit of " + std::to_string(fn_.maxThreadsPerBlock()));
  // cuLaunchKernel takes void** but only reads through it, so handing it the
  // addresses of our const argument values is safe. args_ is never resized
  // again, so the addresses stay valid.
  params_.reserve(args_.size());
  for (const KernelArg &a : args_) params_.push_back(const_cast<void *>(a.address()));
}

void PreparedLaunch::enqueue() const {
  const Context ctx = fn_.context();
  ctx.makeCurrent();
  const DriverApi &api = ctx.api();
  api.check(api.cuLaunchKernel(fn_.handle(), config_.grid.x, config_.grid.y, config_.grid.z, config_.block.x,
                               config_.block.y, config_.block.z, config_.dynamicSharedBytes, nullptr,
                               params_.empty() ? nullptr : const_cast<void **>(params_.data()), nullptr),
            "cuLaunchKernel(" + fn_.name() + ")");
}

void launch(const Function &fn, const LaunchConfig &config, const std::vector<KernelArg> &args) {
  PreparedLaunch(fn, config, args).enqueue();
}

} // namespace liftcc::cuda
