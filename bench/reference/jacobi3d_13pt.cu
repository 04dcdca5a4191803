// Jacobi 3D, 13 points (radius-2 star), one work-item per output, clamped
// borders:
//   out = 0.25 C + 0.1 (sum at distance 1) + 0.025 (sum at distance 2)
// each sum over z-d, z+d, y-d, y+d, x-d, x+d in that order, as in
// examples/jacobi3d_13pt.cpp. Grid: O planes of N rows of M columns,
// row-major. NDRange (M, N, O).
// CUDA C version of jacobi3d_13pt.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
__device__ static float star(const float *in, int x, int y, int z, int d, int O, int N, int M) {
  const int plane = N * M;
  return in[max(z - d, 0) * plane + y * M + x] + in[min(z + d, O - 1) * plane + y * M + x] +
         in[z * plane + max(y - d, 0) * M + x] + in[z * plane + min(y + d, N - 1) * M + x] +
         in[z * plane + y * M + max(x - d, 0)] + in[z * plane + y * M + min(x + d, M - 1)];
}

extern "C" __global__ void jacobi3d_13pt(const float *in, float *out, const int O, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x >= M || y >= N || z >= O) return;
  const int i = (z * N + y) * M + x;
  out[i] = 0.25f * in[i] + 0.1f * star(in, x, y, z, 1, O, N, M) + 0.025f * star(in, x, y, z, 2, O, N, M);
}
