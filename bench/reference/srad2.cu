// Rodinia SRAD kernel 2 (srad2_kernel.cl), the image update, one work-item
// per output, clamped borders (Rodinia's iS/jE):
//   D = C[c] dN + C[S] dS + C[c] dW + C[E] dE,   J' = J + 0.25 lambda D
// with dN..dE recomputed from J (Rodinia reads them from kernel 1's
// buffers), lambda = 0.5, float operations as in examples/srad2.cpp.
// Grids J (image) and C (coefficients): N rows of M columns, row-major.
// NDRange (M, N).
// CUDA C version of srad2.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void srad2(const float *J, const float *C, float *out, const int N,
                    const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  const float lambda = 0.5f;
  const int yn = max(y - 1, 0), ys = min(y + 1, N - 1);
  const int xw = max(x - 1, 0), xe = min(x + 1, M - 1);
  const int i = y * M + x;
  const float jc = J[i];
  const float dN = J[yn * M + x] - jc;
  const float dS = J[ys * M + x] - jc;
  const float dW = J[y * M + xw] - jc;
  const float dE = J[y * M + xe] - jc;
  const float cc = C[i];
  const float cs = C[ys * M + x];
  const float ce = C[y * M + xe];
  const float d = cc * dN + cs * dS + cc * dW + ce * dE;
  out[i] = jc + 0.25f * lambda * d;
}
