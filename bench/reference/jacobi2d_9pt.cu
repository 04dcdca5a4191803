// Jacobi 2D, 9 points, one work-item per output, clamped borders:
//   out = (7 NW + 5 N + 9 NE + 12 W + 15 C + 12 E + 9 SW + 5 S + 7 SE) / 118
// as in examples/jacobi2d_9pt.cpp. Grid: N rows of M columns, row-major.
// NDRange (M, N).
// CUDA C version of jacobi2d_9pt.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void jacobi2d_9pt(const float *in, float *out, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  const int yn = max(y - 1, 0), ys = min(y + 1, N - 1);
  const int xw = max(x - 1, 0), xe = min(x + 1, M - 1);
  const float nw = in[yn * M + xw], n = in[yn * M + x], ne = in[yn * M + xe];
  const float w = in[y * M + xw], c = in[y * M + x], e = in[y * M + xe];
  const float sw = in[ys * M + xw], s = in[ys * M + x], se = in[ys * M + xe];
  out[y * M + x] = (7.0f * nw + 5.0f * n + 9.0f * ne + 12.0f * w + 15.0f * c + 12.0f * e + 9.0f * sw + 5.0f * s +
                    7.0f * se) / 118.0f;
}
