// Gradient, 2D 5 points, one work-item per output, clamped borders:
//   out = C + 1 / sqrtf(0.0001 + (C-N)^2 + (C-S)^2 + (C-W)^2 + (C-E)^2)
// as in examples/gradient.cpp. Grid: N rows of M columns, row-major.
// NDRange (M, N).
// CUDA C version of gradient.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void gradient(const float *in, float *out, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  const float c = in[y * M + x];
  const float dn = c - in[max(y - 1, 0) * M + x];
  const float ds = c - in[min(y + 1, N - 1) * M + x];
  const float dw = c - in[y * M + max(x - 1, 0)];
  const float de = c - in[y * M + min(x + 1, M - 1)];
  out[y * M + x] = c + 1.0f / sqrtf(0.0001f + dn * dn + ds * ds + dw * dw + de * de);
}
