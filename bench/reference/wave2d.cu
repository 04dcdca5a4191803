// 2D wave equation, one leapfrog step over two time levels (wave2d.cl):
//   out_0 = 2 C - P + 0.25 (N + S + W + E - 4 C),  out_1 = C, zero boundary.
// CUDA C version of wave2d.cl (bench/reference/README.md): the same calling
// convention, indexing and float operations.
__device__ float wave2d_at(const float *u, const int y, const int x, const int N, const int M) {
  return (y < 0 || y >= N || x < 0 || x >= M) ? 0.0f : u[y * M + x];
}

extern "C" __global__ void wave2d(const float *U, const float *Uprev, float *out_0, float *out_1, const int N,
                                  const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  const float c = U[y * M + x];
  const float n = wave2d_at(U, y - 1, x, N, M), s = wave2d_at(U, y + 1, x, N, M);
  const float w = wave2d_at(U, y, x - 1, N, M), e = wave2d_at(U, y, x + 1, N, M);
  const float p = Uprev[y * M + x];
  out_0[y * M + x] = 2.0f * c - p + 0.25f * (n + s + w + e - 4.0f * c);
  out_1[y * M + x] = c;
}
