// Rodinia Hotspot3D, one work-item per output, clamped borders (Rodinia's
// hotspotKernel.cl walks z in a loop per (x, y); here z is the third NDRange
// dimension, one time step):
//   T' = cc c + cw w + ce e + cs s + cn n + cb b + ct t + stepDivCap P + ct amb
// with W/E = x-1/x+1, N/S = y-1/y+1, B/T = z-1/z+1, constants and float
// operations as in examples/hotspot3d.cpp. Grids T and P: O planes of N rows
// of M columns, row-major. NDRange (M, N, O).
// CUDA C version of hotspot3d.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void hotspot3d(const float *T, const float *P, float *out, const int O,
                        const int N, const int M) {
  const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x >= M || y >= N || z >= O) return;
  const float cc = 0.86186665f;
  const float cw = 0.03413333f;
  const float ce = 0.03413333f;
  const float cs = 0.03413333f;
  const float cn = 0.03413333f;
  const float cb = 0.00053333f;
  const float ct = 0.00053333f;
  const float stepDivCap = 0.3413333f;
  const float ambTemp = 80.0f;
  const int plane = N * M;
  const int i = (z * N + y) * M + x;
  const float power = P[i];
  const float c = T[i];
  const float w = T[z * plane + y * M + max(x - 1, 0)];
  const float e = T[z * plane + y * M + min(x + 1, M - 1)];
  const float s = T[z * plane + min(y + 1, N - 1) * M + x];
  const float n = T[z * plane + max(y - 1, 0) * M + x];
  const float b = T[max(z - 1, 0) * plane + y * M + x];
  const float t = T[min(z + 1, O - 1) * plane + y * M + x];
  out[i] = cc * c + cw * w + ce * e + cs * s + cn * n + cb * b + ct * t + stepDivCap * power + ct * ambTemp;
}
