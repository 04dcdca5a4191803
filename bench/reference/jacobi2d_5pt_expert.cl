// Jacobi 2D, 5 points, as a GPU programmer writes it (the "expert" reference
// of liftc bench, bench/reference/README.md): four consecutive outputs along
// x per work-item, loaded and stored as float4 in the interior with no index
// clamps, scalar with clamped indices in the border blocks. Same float
// operations per output as jacobi2d_5pt.cl. NDRange ((M + 3) / 4, N).
__kernel void jacobi2d_5pt_expert(__global const float *in, __global float *out, const int N, const int M) {
  const int x0 = get_global_id(0) * 4;
  const int y = get_global_id(1);
  if (x0 >= M || y >= N) return;
  if (x0 >= 1 && x0 + 4 < M && y >= 1 && y + 1 < N) {
    const int i = y * M + x0;
    const float4 c = vload4(0, in + i);
    const float4 n = vload4(0, in + i - M);
    const float4 s = vload4(0, in + i + M);
    const float4 w = (float4)(in[i - 1], c.xyz);
    const float4 e = (float4)(c.yzw, in[i + 4]);
    vstore4((5.0f * n + 12.0f * w + 15.0f * c + 12.0f * e + 5.0f * s) / 118.0f, 0, out + i);
    return;
  }
  const int yn = max(y - 1, 0), ys = min(y + 1, N - 1);
  for (int x = x0; x < min(x0 + 4, M); ++x) {
    const int xw = max(x - 1, 0), xe = min(x + 1, M - 1);
    out[y * M + x] = (5.0f * in[yn * M + x] + 12.0f * in[y * M + xw] + 15.0f * in[y * M + x] +
                      12.0f * in[y * M + xe] + 5.0f * in[ys * M + x]) / 118.0f;
  }
}
