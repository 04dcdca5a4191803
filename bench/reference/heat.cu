// Heat equation, 3D 7 points (PolyBench heat-3d, one time step), one
// work-item per output, clamped borders:
//   out = 0.125 (T - 2C + B) + 0.125 (S - 2C + N) + 0.125 (E - 2C + W) + C
// with T/B = z+1/z-1, S/N = y+1/y-1, E/W = x+1/x-1, as in examples/heat.cpp.
// Grid: O planes of N rows of M columns, row-major. NDRange (M, N, O).
// CUDA C version of heat.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void heat(const float *in, float *out, const int O, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x >= M || y >= N || z >= O) return;
  const int plane = N * M;
  const int i = (z * N + y) * M + x;
  const float c = in[i];
  const float t = in[min(z + 1, O - 1) * plane + y * M + x];
  const float b = in[max(z - 1, 0) * plane + y * M + x];
  const float s = in[z * plane + min(y + 1, N - 1) * M + x];
  const float n = in[z * plane + max(y - 1, 0) * M + x];
  const float e = in[z * plane + y * M + min(x + 1, M - 1)];
  const float w = in[z * plane + y * M + max(x - 1, 0)];
  out[i] = 0.125f * (t - 2.0f * c + b) + 0.125f * (s - 2.0f * c + n) + 0.125f * (e - 2.0f * c + w) + c;
}
