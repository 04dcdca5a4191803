// Jacobi 3D, 7 points, one work-item per output, clamped borders:
//   out = 0.161 E + 0.162 W + 0.163 S + 0.164 N + 0.165 T + 0.166 B - 1.670 C
// with E/W = x+1/x-1, S/N = y+1/y-1, T/B = z+1/z-1, as in
// examples/jacobi3d_7pt.cpp. Grid: O planes of N rows of M columns,
// row-major. NDRange (M, N, O).
// CUDA C version of jacobi3d_7pt.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void jacobi3d_7pt(const float *in, float *out, const int O, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x >= M || y >= N || z >= O) return;
  const int plane = N * M;
  const int row = z * plane + y * M;
  const float e = in[row + min(x + 1, M - 1)];
  const float w = in[row + max(x - 1, 0)];
  const float s = in[z * plane + min(y + 1, N - 1) * M + x];
  const float n = in[z * plane + max(y - 1, 0) * M + x];
  const float t = in[min(z + 1, O - 1) * plane + y * M + x];
  const float b = in[max(z - 1, 0) * plane + y * M + x];
  out[row + x] = 0.161f * e + 0.162f * w + 0.163f * s + 0.164f * n + 0.165f * t + 0.166f * b - 1.670f * in[row + x];
}
