// Gaussian blur 5x5 as a GPU programmer writes it (the "expert" reference of
// liftc bench): four consecutive outputs along x per work-item; in the
// interior each of the five rows is read as two float4 (x0-2..x0+5) with no
// index clamps and the four sums accumulate as one float4, term by term in
// gaussian.cl's row-major order; border blocks are scalar with clamped
// indices. NDRange ((M + 3) / 4, N).
__constant float expert_weights[25] = {
    0.00390625f, 0.015625f, 0.0234375f, 0.015625f, 0.00390625f,
    0.015625f,   0.0625f,   0.09375f,   0.0625f,   0.015625f,
    0.0234375f,  0.09375f,  0.140625f,  0.09375f,  0.0234375f,
    0.015625f,   0.0625f,   0.09375f,   0.0625f,   0.015625f,
    0.00390625f, 0.015625f, 0.0234375f, 0.015625f, 0.00390625f};

__kernel void gaussian_expert(__global const float *in, __global float *out, const int N, const int M) {
  const int x0 = get_global_id(0) * 4;
  const int y = get_global_id(1);
  if (x0 >= M || y >= N) return;
  if (x0 >= 2 && x0 + 6 <= M && y >= 2 && y + 2 < N) {
    float4 sum = (float4)(0.0f);
    for (int dy = -2; dy <= 2; ++dy) {
      __global const float *row = in + (y + dy) * M + x0;
      const float4 a = vload4(0, row - 2), b = vload4(0, row + 2);
      const int k = (dy + 2) * 5;
      sum += expert_weights[k + 0] * a;
      sum += expert_weights[k + 1] * (float4)(a.yzw, b.x);
      sum += expert_weights[k + 2] * (float4)(a.zw, b.xy);
      sum += expert_weights[k + 3] * (float4)(a.w, b.xyz);
      sum += expert_weights[k + 4] * b;
    }
    vstore4(sum, 0, out + y * M + x0);
    return;
  }
  for (int x = x0; x < min(x0 + 4, M); ++x) {
    float sum = 0.0f;
    for (int dy = -2; dy <= 2; ++dy) {
      const int yy = clamp(y + dy, 0, N - 1);
      for (int dx = -2; dx <= 2; ++dx) sum += expert_weights[(dy + 2) * 5 + (dx + 2)] * in[yy * M + clamp(x + dx, 0, M - 1)];
    }
    out[y * M + x] = sum;
  }
}
