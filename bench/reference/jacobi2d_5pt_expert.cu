// CUDA C twin of jacobi2d_5pt_expert.cl: four consecutive outputs along x
// per thread, float4 loads and stores in the interior where rows are 16-byte
// aligned (M a multiple of 4), scalar otherwise and in the border blocks.
// Grid ((M + 3) / 4, N).
__device__ __forceinline__ float jacobi2d_5pt_point(float n, float w, float c, float e, float s) {
  return (5.0f * n + 12.0f * w + 15.0f * c + 12.0f * e + 5.0f * s) / 118.0f;
}

extern "C" __global__ void jacobi2d_5pt_expert(const float *__restrict__ in, float *__restrict__ out, const int N,
                                               const int M) {
  const int x0 = (int)(blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x0 >= M || y >= N) return;
  if (M % 4 == 0 && x0 >= 1 && x0 + 4 < M && y >= 1 && y + 1 < N) {
    const int i = y * M + x0;
    const float4 c = *reinterpret_cast<const float4 *>(in + i);
    const float4 n = *reinterpret_cast<const float4 *>(in + i - M);
    const float4 s = *reinterpret_cast<const float4 *>(in + i + M);
    const float w = in[i - 1], e = in[i + 4];
    *reinterpret_cast<float4 *>(out + i) =
        make_float4(jacobi2d_5pt_point(n.x, w, c.x, c.y, s.x), jacobi2d_5pt_point(n.y, c.x, c.y, c.z, s.y),
                    jacobi2d_5pt_point(n.z, c.y, c.z, c.w, s.z), jacobi2d_5pt_point(n.w, c.z, c.w, e, s.w));
    return;
  }
  const int yn = max(y - 1, 0), ys = min(y + 1, N - 1);
  for (int x = x0; x < min(x0 + 4, M); ++x) {
    const int xw = max(x - 1, 0), xe = min(x + 1, M - 1);
    out[y * M + x] = jacobi2d_5pt_point(in[yn * M + x], in[y * M + xw], in[y * M + x], in[y * M + xe], in[ys * M + x]);
  }
}
