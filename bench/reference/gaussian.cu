// Gaussian blur, 5x5 binomial weights b[dy] b[dx] / 256 (b = 1 4 6 4 1), one
// work-item per output, clamped borders. The weighted sum runs in row-major
// order, as in examples/gaussian.cpp. Grid: N rows of M columns, row-major.
// NDRange (M, N).
// CUDA C version of gaussian.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.

// OpenCL C's clamp on ints.
__device__ static int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

__constant__ float weights[25] = {
    0.00390625f, 0.015625f, 0.0234375f, 0.015625f, 0.00390625f,
    0.015625f,   0.0625f,   0.09375f,   0.0625f,   0.015625f,
    0.0234375f,  0.09375f,  0.140625f,  0.09375f,  0.0234375f,
    0.015625f,   0.0625f,   0.09375f,   0.0625f,   0.015625f,
    0.00390625f, 0.015625f, 0.0234375f, 0.015625f, 0.00390625f};

extern "C" __global__ void gaussian(const float *in, float *out, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  float sum = 0.0f;
  for (int dy = -2; dy <= 2; ++dy) {
    const int yy = clampi(y + dy, 0, N - 1);
    for (int dx = -2; dx <= 2; ++dx) {
      const int xx = clampi(x + dx, 0, M - 1);
      // 0 + t == t exactly, so starting from 0 adds the terms in the
      // example's order with the same roundings.
      sum += weights[(dy + 2) * 5 + (dx + 2)] * in[yy * M + xx];
    }
  }
  out[y * M + x] = sum;
}
