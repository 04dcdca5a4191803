// Jacobi 1D, 3 points (PolyBench jacobi-1d), one work-item per output,
// clamped ends: out[i] = 0.33333 (A[i-1] + A[i] + A[i+1]), as in
// examples/jacobi1d_3pt.cpp. NDRange (N).
__kernel void jacobi1d_3pt(__global const float *in, __global float *out, const int N) {
  const int i = get_global_id(0);
  if (i >= N) return;
  out[i] = 0.33333f * (in[max(i - 1, 0)] + in[i] + in[min(i + 1, N - 1)]);
}
