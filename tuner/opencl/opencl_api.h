#pragma once
// The one place that includes the OpenCL C API. Pinning the target version to
// 1.2 keeps the headers from warning about (or hiding) the 1.2 entry points we
// use, e.g. clCreateCommandQueue, which 2.0 deprecated. 1.2 is what PoCL,
// NVIDIA and every other vendor we care about still implement in full.

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
