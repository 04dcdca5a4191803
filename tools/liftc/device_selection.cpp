#include "tools/liftc/device_selection.h"

#include "tools/liftc/program_loading.h"
#include "tuner/cuda/cuda_backend.h"
#include "tuner/opencl/opencl_backend.h"

namespace liftcc::cli {

std::unique_ptr<tuner::Device> openDevice(const CommandLine &cl, codegen::Target target) {
  switch (target) {
  case codegen::Target::OpenCL:
    return std::make_unique<tuner::OpenCLDevice>(ocl::selectDevice(cl.value("device").value_or("")));
  case codegen::Target::CUDA: {
    // The index is checked before the driver is loaded: a mistake is the command line's.
    int index = static_cast<int>(cl.value("device") ? parseCount("--device", *cl.value("device"), {0, 1023}) : 0);
    cuda::DriverApi api = cuda::DriverApi::loadOrThrow();
    return std::make_unique<tuner::CudaDevice>(std::move(api), index);
  }
  }
  throw std::logic_error("unknown target");
}

} // namespace liftcc::cli
