// CUDA C twin of heat_expert.cl: four consecutive outputs along x per thread,
// float4 loads and stores in the interior where rows are 16-byte aligned (M a
// multiple of 4), scalar otherwise and in the border blocks. Grid
// ((M + 3) / 4, N, O).
__device__ __forceinline__ float heat_point(float t, float b, float s, float n, float e, float w, float c) {
  return 0.125f * (t - 2.0f * c + b) + 0.125f * (s - 2.0f * c + n) + 0.125f * (e - 2.0f * c + w) + c;
}

extern "C" __global__ void heat_expert(const float *__restrict__ in, float *__restrict__ out, const int O, const int N,
                                       const int M) {
  const int x0 = (int)(blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  const int z = (int)(blockIdx.z * blockDim.z + threadIdx.z);
  if (x0 >= M || y >= N || z >= O) return;
  const int plane = N * M;
  if (M % 4 == 0 && x0 >= 1 && x0 + 4 < M && y >= 1 && y + 1 < N && z >= 1 && z + 1 < O) {
    const int i = (z * N + y) * M + x0;
    const float4 c = *reinterpret_cast<const float4 *>(in + i);
    const float4 t = *reinterpret_cast<const float4 *>(in + i + plane);
    const float4 b = *reinterpret_cast<const float4 *>(in + i - plane);
    const float4 s = *reinterpret_cast<const float4 *>(in + i + M);
    const float4 n = *reinterpret_cast<const float4 *>(in + i - M);
    const float w = in[i - 1], e = in[i + 4];
    *reinterpret_cast<float4 *>(out + i) =
        make_float4(heat_point(t.x, b.x, s.x, n.x, c.y, w, c.x), heat_point(t.y, b.y, s.y, n.y, c.z, c.x, c.y),
                    heat_point(t.z, b.z, s.z, n.z, c.w, c.y, c.z), heat_point(t.w, b.w, s.w, n.w, e, c.z, c.w));
    return;
  }
  for (int x = x0; x < min(x0 + 4, M); ++x) {
    const int i = (z * N + y) * M + x;
    out[i] = heat_point(in[min(z + 1, O - 1) * plane + y * M + x], in[max(z - 1, 0) * plane + y * M + x],
                        in[z * plane + min(y + 1, N - 1) * M + x], in[z * plane + max(y - 1, 0) * M + x],
                        in[z * plane + y * M + min(x + 1, M - 1)], in[z * plane + y * M + max(x - 1, 0)], in[i]);
  }
}
