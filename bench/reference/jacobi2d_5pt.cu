// Jacobi 2D, 5 points, one work-item per output, clamped borders:
//   out[y][x] = (5 N + 12 W + 15 C + 12 E + 5 S) / 118
// Same float operations in the same order as examples/jacobi2d_5pt.cpp.
// Grid: N rows of M columns, row-major. NDRange (M, N).
// CUDA C version of jacobi2d_5pt.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void jacobi2d_5pt(const float *in, float *out, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  const int yn = max(y - 1, 0), ys = min(y + 1, N - 1);
  const int xw = max(x - 1, 0), xe = min(x + 1, M - 1);
  const float n = in[yn * M + x];
  const float w = in[y * M + xw];
  const float c = in[y * M + x];
  const float e = in[y * M + xe];
  const float s = in[ys * M + x];
  out[y * M + x] = (5.0f * n + 12.0f * w + 15.0f * c + 12.0f * e + 5.0f * s) / 118.0f;
}
