// SHOC Stencil2D: a 9-point weighted average, one work-item per output,
// clamped borders (SHOC keeps a fixed halo; examples/stencil2d.cpp clamps):
//   out = 0.25 C + 0.15 (N + S + W + E) + 0.05 (NW + NE + SW + SE)
// Grid: N rows of M columns, row-major. NDRange (M, N).
// CUDA C version of stencil2d.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void stencil2d(const float *in, float *out, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  const int yn = max(y - 1, 0), ys = min(y + 1, N - 1);
  const int xw = max(x - 1, 0), xe = min(x + 1, M - 1);
  const float cardinal = in[yn * M + x] + in[ys * M + x] + in[y * M + xw] + in[y * M + xe];
  const float diagonal = in[yn * M + xw] + in[yn * M + xe] + in[ys * M + xw] + in[ys * M + xe];
  out[y * M + x] = 0.25f * in[y * M + x] + 0.15f * cardinal + 0.05f * diagonal;
}
