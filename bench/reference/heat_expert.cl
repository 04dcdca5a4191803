// Heat 3D, 7 points, as a GPU programmer writes it (the "expert" reference of
// liftc bench): four consecutive outputs along x per work-item, float4 loads
// and stores in the interior with no index clamps, scalar with clamped
// indices in the border blocks. Same float operations per output as heat.cl.
// NDRange ((M + 3) / 4, N, O).
__kernel void heat_expert(__global const float *in, __global float *out, const int O, const int N, const int M) {
  const int x0 = get_global_id(0) * 4;
  const int y = get_global_id(1);
  const int z = get_global_id(2);
  if (x0 >= M || y >= N || z >= O) return;
  const int plane = N * M;
  if (x0 >= 1 && x0 + 4 < M && y >= 1 && y + 1 < N && z >= 1 && z + 1 < O) {
    const int i = (z * N + y) * M + x0;
    const float4 c = vload4(0, in + i);
    const float4 t = vload4(0, in + i + plane);
    const float4 b = vload4(0, in + i - plane);
    const float4 s = vload4(0, in + i + M);
    const float4 n = vload4(0, in + i - M);
    const float4 w = (float4)(in[i - 1], c.xyz);
    const float4 e = (float4)(c.yzw, in[i + 4]);
    vstore4(0.125f * (t - 2.0f * c + b) + 0.125f * (s - 2.0f * c + n) + 0.125f * (e - 2.0f * c + w) + c, 0, out + i);
    return;
  }
  for (int x = x0; x < min(x0 + 4, M); ++x) {
    const int i = (z * N + y) * M + x;
    const float c = in[i];
    const float t = in[min(z + 1, O - 1) * plane + y * M + x];
    const float b = in[max(z - 1, 0) * plane + y * M + x];
    const float s = in[z * plane + min(y + 1, N - 1) * M + x];
    const float n = in[z * plane + max(y - 1, 0) * M + x];
    const float e = in[z * plane + y * M + min(x + 1, M - 1)];
    const float w = in[z * plane + y * M + max(x - 1, 0)];
    out[i] = 0.125f * (t - 2.0f * c + b) + 0.125f * (s - 2.0f * c + n) + 0.125f * (e - 2.0f * c + w) + c;
  }
}
