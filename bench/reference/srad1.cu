// Rodinia SRAD kernel 1 (srad_kernel.cl), the diffusion coefficient, one
// work-item per output, clamped borders (Rodinia's iN/iS/jW/jE):
//   dN = J[N] - Jc, ...;  G2 = sum d^2 / Jc^2;  L = sum d / Jc
//   qsqr = (0.5 G2 - L^2 / 16) / (1 + L / 4)^2
//   c = 1 / (1 + (qsqr - q0sqr) / (q0sqr (1 + q0sqr))), clamped to [0, 1]
// q0sqr inlined as in examples/srad1.cpp (Rodinia recomputes it per
// iteration); float operations in the same order. Rodinia also stores dN..dE
// for kernel 2; srad2 recomputes them, so this kernel writes only c.
// Grid J: N rows of M columns, row-major. NDRange (M, N).
// CUDA C version of srad1.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void srad1(const float *J, float *out, const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  const float q0sqr = 0.053787220f;
  const int yn = max(y - 1, 0), ys = min(y + 1, N - 1);
  const int xw = max(x - 1, 0), xe = min(x + 1, M - 1);
  const float jc = J[y * M + x];
  const float dN = J[yn * M + x] - jc;
  const float dS = J[ys * M + x] - jc;
  const float dW = J[y * M + xw] - jc;
  const float dE = J[y * M + xe] - jc;
  const float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc);
  const float l = (dN + dS + dW + dE) / jc;
  const float num = 0.5f * g2 - 0.0625f * (l * l);
  float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float coeff = 1.0f / (1.0f + den);
  if (coeff < 0.0f) coeff = 0.0f;
  else if (coeff > 1.0f) coeff = 1.0f;
  out[y * M + x] = coeff;
}
