// Poisson, 3D 19 points, one work-item per output, clamped borders:
//   out = 2.666 C - 0.166 (6 face neighbours) - 0.0833 (12 edge neighbours)
// Faces differ from the centre in one coordinate, edges in two; each group is
// summed in row-major order of the 3x3x3 box, as in examples/poisson.cpp.
// Grid: O planes of N rows of M columns, row-major. NDRange (M, N, O).
// CUDA C version of poisson.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.

// OpenCL C's clamp on ints.
__device__ static int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

extern "C" __global__ void poisson(const float *in, float *out, const int O, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x >= M || y >= N || z >= O) return;
  float faces = 0.0f, edges = 0.0f;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nonZero = (dz != 0) + (dy != 0) + (dx != 0);
        if (nonZero == 0 || nonZero == 3) continue;
        const float v = in[(clampi(z + dz, 0, O - 1) * N + clampi(y + dy, 0, N - 1)) * M + clampi(x + dx, 0, M - 1)];
        // 0 + v == v exactly: the sums round like the example's expressions.
        if (nonZero == 1) faces += v;
        else edges += v;
      }
  out[(z * N + y) * M + x] = 2.666f * in[(z * N + y) * M + x] - 0.166f * faces - 0.0833f * edges;
}
