// Jacobi 3D, 7 points, one work-item per output, clamped borders:
//   out = 0.161 E + 0.162 W + 0.163 S + 0.164 N + 0.165 T + 0.166 B - 1.670 C
// with E/W = x+1/x-1, S/N = y+1/y-1, T/B = z+1/z-1, as in
// examples/jacobi3d_7pt.cpp. Grid: O planes of N rows of M columns,
// row-major. NDRange (M, N, O).
__kernel void jacobi3d_7pt(__global const float *in, __global float *out, const int O, const int N, const int M) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  const int z = get_global_id(2);
  if (x >= M || y >= N || z >= O) return;
  const int plane = N * M;
  const int row = z * plane + y * M;
  const float e = in[row + min(x + 1, M - 1)];
  const float w = in[row + max(x - 1, 0)];
  const float s = in[z * plane + min(y + 1, N - 1) * M + x];
  const float n = in[z * plane + max(y - 1, 0) * M + x];
  const float t = in[min(z + 1, O - 1) * plane + y * M + x];
  const float b = in[max(z - 1, 0) * plane + y * M + x];
  out[row + x] = 0.161f * e + 0.162f * w + 0.163f * s + 0.164f * n + 0.165f * t + 0.166f * b - 1.670f * in[row + x];
}
