// Jacobi 1D, 3 points (PolyBench jacobi-1d), one work-item per output,
// clamped ends: out[i] = 0.33333 (A[i-1] + A[i] + A[i+1]), as in
// examples/jacobi1d_3pt.cpp. NDRange (N).
// CUDA C version of jacobi1d_3pt.cl (bench/reference/README.md): the same calling convention,
// indexing and float operations; thread (x, y, z) of the grid of blocks is
// work-item (x, y, z) of the OpenCL NDRange.
extern "C" __global__ void jacobi1d_3pt(const float *in, float *out, const int N) {
  const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= N) return;
  out[i] = 0.33333f * (in[max(i - 1, 0)] + in[i] + in[min(i + 1, N - 1)]);
}
