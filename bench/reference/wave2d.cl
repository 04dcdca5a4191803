// 2D wave equation, one leapfrog step over two time levels, one work-item
// per point, zero (Dirichlet) boundary:
//   out_0 = 2 C - P + 0.25 (N + S + W + E - 4 C),  out_1 = C
// (C, N, S, W, E from U, P from Uprev), as in examples/wave2d.cpp; out_0 and
// out_1 are the two time levels the next step reads.
// Grid: N rows of M columns, row-major. NDRange (M, N).
float wave2d_at(__global const float *u, const int y, const int x, const int N, const int M) {
  return (y < 0 || y >= N || x < 0 || x >= M) ? 0.0f : u[y * M + x];
}

__kernel void wave2d(__global const float *U, __global const float *Uprev, __global float *out_0,
                     __global float *out_1, const int N, const int M) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= M || y >= N) return;
  const float c = U[y * M + x];
  const float n = wave2d_at(U, y - 1, x, N, M), s = wave2d_at(U, y + 1, x, N, M);
  const float w = wave2d_at(U, y, x - 1, N, M), e = wave2d_at(U, y, x + 1, N, M);
  const float p = Uprev[y * M + x];
  out_0[y * M + x] = 2.0f * c - p + 0.25f * (n + s + w + e - 4.0f * c);
  out_1[y * M + x] = c;
}
