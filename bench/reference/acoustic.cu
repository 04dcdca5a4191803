// Room acoustics FDTD (Webb & Bilbao), 3D 7 points, one work-item per
// output. Neighbours outside the room read 0 (no clamping); K, the number of
// neighbours inside the room, is computed from the index as the example's
// generated mask:
//   lb = 0.5 beta l (6 - K),  u' = ((2 - K l2) u + l2 S - (1 - lb) uprev) / (1 + lb)
// Constants and float operations as in examples/acoustic.cpp.
// Grids U (current) and Uprev: O planes of N rows of M columns, row-major.
// NDRange (M, N, O).
// CUDA C version of acoustic.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void acoustic(const float *U, const float *Uprev, float *out, const int O,
                       const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x >= M || y >= N || z >= O) return;
  const float l = 0.57735027f;
  const float l2 = 0.33333334f;
  const float beta = 0.1f;
  const int plane = N * M;
  const int i = (z * N + y) * M + x;
  const float c = U[i];
  const float b = z > 0 ? U[i - plane] : 0.0f;
  const float t = z < O - 1 ? U[i + plane] : 0.0f;
  const float n = y > 0 ? U[i - M] : 0.0f;
  const float s = y < N - 1 ? U[i + M] : 0.0f;
  const float w = x > 0 ? U[i - 1] : 0.0f;
  const float e = x < M - 1 ? U[i + 1] : 0.0f;
  int count = 6;
  if (z == 0 || z == O - 1) count -= 1;
  if (y == 0 || y == N - 1) count -= 1;
  if (x == 0 || x == M - 1) count -= 1;
  const float prev = Uprev[i];
  const float lb = 0.5f * beta * l * (float)(6 - count);
  const float sum = b + t + n + s + w + e;
  out[i] = ((2.0f - (float)count * l2) * c + l2 * sum - (1.0f - lb) * prev) / (1.0f + lb);
}
