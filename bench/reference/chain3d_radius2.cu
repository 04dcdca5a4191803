// CUDA C version of chain3d_radius2.cl (bench/reference/README.md).
// A chain of two radius-2 stencils in 3D with both results (examples/chain3d_radius2.cpp),
// two kernels, one work-item per point, clamped borders:
//   chain3d_radius2_smooth:    out_0 = 0.5 C + 0.0625 (distance 1) + 0.0208333 (distance 2) of A
//   chain3d_radius2_laplacian: out_1 = -7.5 C + 1.3333334 (distance 1) - 0.083333336 (distance 2) of out_0
// Neighbours summed per distance as the example's user functions sum them:
// z - d, z + d, y - d, y + d, x - d, x + d. The host launches the smoothing
// kernel, then the Laplacian, which reads out_0 (bench/reference_stages.cpp).
// Grid: O planes of N rows of M columns, row-major. NDRange (M, N, O).
__device__ float chain3d_radius2_ring(const float *in, const int z, const int y, const int x, const int d, const int O,
                           const int N, const int M) {
  const int zl = max(z - d, 0), zh = min(z + d, O - 1);
  const int yl = max(y - d, 0), yh = min(y + d, N - 1);
  const int xl = max(x - d, 0), xh = min(x + d, M - 1);
  return in[(zl * N + y) * M + x] + in[(zh * N + y) * M + x] + in[(z * N + yl) * M + x] + in[(z * N + yh) * M + x] +
         in[(z * N + y) * M + xl] + in[(z * N + y) * M + xh];
}

extern "C" __global__ void chain3d_radius2_smooth(const float *A, float *out_0, const int O, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x >= M || y >= N || z >= O) return;
  const float c = A[(z * N + y) * M + x];
  out_0[(z * N + y) * M + x] = 0.5f * c + 0.0625f * chain3d_radius2_ring(A, z, y, x, 1, O, N, M) +
                              0.0208333f * chain3d_radius2_ring(A, z, y, x, 2, O, N, M);
}

extern "C" __global__ void chain3d_radius2_laplacian(const float *B, float *out_1, const int O, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x >= M || y >= N || z >= O) return;
  const float c = B[(z * N + y) * M + x];
  out_1[(z * N + y) * M + x] = -7.5f * c + 1.3333334f * chain3d_radius2_ring(B, z, y, x, 1, O, N, M) -
                              0.083333336f * chain3d_radius2_ring(B, z, y, x, 2, O, N, M);
}
