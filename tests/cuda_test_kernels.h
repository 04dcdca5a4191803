#pragma once
// CUDA C sources shared by the CUDA suites, written the way liftcc's CUDA
// dialect emits kernels: extern "C" (so the entry keeps its name), const
// __restrict__ inputs, a __shared__ tile and __syncthreads().

namespace liftcc::cuda::test {

// out[i] = (in[i-1] + in[i] + in[i+1]) / 3 with zero padding, through a
// shared-memory tile of one block plus a halo cell on each side.
// Launch with blockDim.x == kBlurBlock.
inline constexpr unsigned kBlurBlock = 256;
inline constexpr const char *kBlurSource = R"(
#define BLOCK 256
extern "C" __global__ void blur3(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[BLOCK + 2];
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int l = threadIdx.x + 1;
  tile[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x == 0) tile[0] = (g > 0 && g - 1 < n) ? in[g - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1) tile[l + 1] = g + 1 < n ? in[g + 1] : 0.0f;
  __syncthreads();
  if (g < n) out[g] = (tile[l - 1] + tile[l] + tile[l + 1]) / 3.0f;
}
)";

} // namespace liftcc::cuda::test
