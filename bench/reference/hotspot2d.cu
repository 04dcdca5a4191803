// Rodinia Hotspot (2D), one work-item per output, clamped borders (Rodinia's
// hotspot_kernel.cl without its pyramid tiling, one time step):
//   T' = c + stepDivCap (P + (s + n - 2c) ry1 + (e + w - 2c) rx1 + (amb - c) rz1)
// with N/S = y-1/y+1, W/E = x-1/x+1, constants and float operations as in
// examples/hotspot2d.cpp. Grids T (temperature) and P (power): N rows of M
// columns, row-major. NDRange (M, N).
// CUDA C version of hotspot2d.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void hotspot2d(const float *T, const float *P, float *out, const int N,
                        const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= M || y >= N) return;
  const float stepDivCap = 1.365333f;
  const float rx1 = 0.1f;
  const float ry1 = 0.1f;
  const float rz1 = 4.882813e-05f;
  const float ambTemp = 80.0f;
  const int yn = max(y - 1, 0), ys = min(y + 1, N - 1);
  const int xw = max(x - 1, 0), xe = min(x + 1, M - 1);
  const int i = y * M + x;
  const float power = P[i];
  const float c = T[i];
  const float n = T[yn * M + x];
  const float s = T[ys * M + x];
  const float w = T[y * M + xw];
  const float e = T[y * M + xe];
  out[i] = c + stepDivCap * (power + (s + n - 2.0f * c) * ry1 + (e + w - 2.0f * c) * rx1 + (ambTemp - c) * rz1);
}
