// CUDA C twin of gaussian_expert.cl: four consecutive outputs along x per
// thread; in the interior each row's eight values (x0-2..x0+5) are read once
// (a float4 where rows are 16-byte aligned, M a multiple of 4) and the four
// sums accumulate term by term in gaussian.cu's row-major order; border
// blocks are scalar with clamped indices. Grid ((M + 3) / 4, N).
__constant__ float expert_weights[25] = {
    0.00390625f, 0.015625f, 0.0234375f, 0.015625f, 0.00390625f,
    0.015625f,   0.0625f,   0.09375f,   0.0625f,   0.015625f,
    0.0234375f,  0.09375f,  0.140625f,  0.09375f,  0.0234375f,
    0.015625f,   0.0625f,   0.09375f,   0.0625f,   0.015625f,
    0.00390625f, 0.015625f, 0.0234375f, 0.015625f, 0.00390625f};

extern "C" __global__ void gaussian_expert(const float *__restrict__ in, float *__restrict__ out, const int N,
                                           const int M) {
  const int x0 = (int)(blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (x0 >= M || y >= N) return;
  if (x0 >= 2 && x0 + 6 <= M && y >= 2 && y + 2 < N) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (int dy = -2; dy <= 2; ++dy) {
      const float *row = in + (y + dy) * M + x0;
      float v[8];
      v[0] = row[-2];
      v[1] = row[-1];
      if (M % 4 == 0) {
        const float4 c = *reinterpret_cast<const float4 *>(row);
        v[2] = c.x, v[3] = c.y, v[4] = c.z, v[5] = c.w;
      } else {
        v[2] = row[0], v[3] = row[1], v[4] = row[2], v[5] = row[3];
      }
      v[6] = row[4];
      v[7] = row[5];
      for (int dx = 0; dx < 5; ++dx) {
        const float w = expert_weights[(dy + 2) * 5 + dx];
        s0 += w * v[dx];
        s1 += w * v[dx + 1];
        s2 += w * v[dx + 2];
        s3 += w * v[dx + 3];
      }
    }
    float *o = out + y * M + x0;
    if (M % 4 == 0) {
      *reinterpret_cast<float4 *>(o) = make_float4(s0, s1, s2, s3);
    } else {
      o[0] = s0, o[1] = s1, o[2] = s2, o[3] = s3;
    }
    return;
  }
  for (int x = x0; x < min(x0 + 4, M); ++x) {
    float sum = 0.0f;
    for (int dy = -2; dy <= 2; ++dy) {
      const int yy = min(max(y + dy, 0), N - 1);
      for (int dx = -2; dx <= 2; ++dx)
        sum += expert_weights[(dy + 2) * 5 + (dx + 2)] * in[yy * M + min(max(x + dx, 0), M - 1)];
    }
    out[y * M + x] = sum;
  }
}
