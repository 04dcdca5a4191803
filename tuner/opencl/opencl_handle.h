#pragma once
// Owning handles for OpenCL objects. std::unique_ptr with a deleter that calls
// clRelease* gives exactly the move-only ownership the runtime classes want,
// without hand-written move constructors in every class.

#include "tuner/opencl/opencl_api.h"

#include <memory>
#include <type_traits>

namespace liftcc::ocl::detail {

template <typename Handle, cl_int (*Release)(Handle)> struct Releaser {
  void operator()(Handle h) const noexcept {
    // A failing release cannot be reported from a destructor; the handle is
    // gone either way.
    (void)Release(h);
  }
};

template <typename Handle, cl_int (*Release)(Handle)>
using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, Releaser<Handle, Release>>;

using OwnedContext = Owned<cl_context, clReleaseContext>;
using OwnedQueue = Owned<cl_command_queue, clReleaseCommandQueue>;
using OwnedProgram = Owned<cl_program, clReleaseProgram>;
using OwnedKernel = Owned<cl_kernel, clReleaseKernel>;
using OwnedMem = Owned<cl_mem, clReleaseMemObject>;
using OwnedEvent = Owned<cl_event, clReleaseEvent>;

} // namespace liftcc::ocl::detail
