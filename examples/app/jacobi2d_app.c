/* jacobi2d_app: a plain C application that runs the Jacobi2D 5-point stencil
 * exported by `liftc export`, with nothing from liftcc but the exported pair.
 *
 *   liftc export results/best/<device>/jacobi2d_5pt/N=1024,M=1024 --out exported
 *     (or, untuned: liftc export examples/json/jacobi2d_5pt.json --target opencl
 *                    --size N=1024,M=1024 --opt plain --out exported)
 *   cc -std=c99 -O2 -I exported examples/app/jacobi2d_app.c exported/jacobi2d_5pt_opencl.c -lOpenCL -o jacobi2d_app
 *   ./jacobi2d_app INPUT.bin OUTPUT.bin [DEVICE]
 *
 * INPUT.bin holds the N x M grid A as raw float32, row-major (what
 * `liftc eval --input A=INPUT.bin` reads); OUTPUT.bin receives the result
 * the same way. DEVICE is the index of the OpenCL device, counting the
 * devices of every platform in order (default 0). The grid size is the one
 * the kernel was exported for (JACOBI2D_5PT_OPENCL_N x _M). */

#include "jacobi2d_5pt_opencl.h"

#include <stdio.h>
#include <stdlib.h>

/* The DEVICE-th OpenCL device over all platforms, or NULL. */
static cl_device_id pick_device(unsigned wanted) {
  cl_platform_id platforms[16];
  cl_uint platform_count = 0, p;
  if (clGetPlatformIDs(16, platforms, &platform_count) != CL_SUCCESS) return NULL;
  if (platform_count > 16) platform_count = 16;
  for (p = 0; p < platform_count; ++p) {
    cl_device_id devices[64];
    cl_uint count = 0;
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 64, devices, &count) != CL_SUCCESS) continue;
    if (count > 64) count = 64;
    if (wanted < count) return devices[wanted];
    wanted -= count;
  }
  return NULL;
}

static int read_file(const char *path, void *data, size_t bytes) {
  FILE *file = fopen(path, "rb");
  size_t got;
  int extra;
  if (!file) return 0;
  got = fread(data, 1, bytes, file);
  extra = fgetc(file);
  fclose(file);
  return got == bytes && extra == EOF;
}

static int write_file(const char *path, const void *data, size_t bytes) {
  FILE *file = fopen(path, "wb");
  int ok;
  if (!file) return 0;
  ok = fwrite(data, 1, bytes, file) == bytes;
  return fclose(file) == 0 && ok;
}

int main(int argc, char **argv) {
  cl_device_id device;
  cl_context context = NULL;
  cl_command_queue queue = NULL;
  cl_mem a = NULL, out = NULL;
  cl_event done = NULL;
  cl_int error;
  cl_ulong start = 0, end = 0;
  char name[256] = "?", log[4096];
  jacobi2d_5pt_opencl_program *program = NULL;
  jacobi2d_5pt_opencl_status status;
  float *grid = NULL, *result = NULL;
  int exit_code = 1;

  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin [DEVICE]\n", argv[0]);
    return 2;
  }
  device = pick_device(argc == 4 ? (unsigned)strtoul(argv[3], NULL, 10) : 0u);
  if (!device) {
    fprintf(stderr, "jacobi2d_app: no OpenCL device %s\n", argc == 4 ? argv[3] : "0");
    return 1;
  }
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
  name[sizeof name - 1] = '\0';

  grid = (float *)malloc(JACOBI2D_5PT_OPENCL_A_BYTES);
  result = (float *)malloc(JACOBI2D_5PT_OPENCL_OUT_BYTES);
  if (!grid || !result) {
    fprintf(stderr, "jacobi2d_app: out of memory\n");
    goto cleanup;
  }
  if (!read_file(argv[1], grid, JACOBI2D_5PT_OPENCL_A_BYTES)) {
    fprintf(stderr, "jacobi2d_app: %s must hold exactly %lu bytes (%d x %d floats)\n", argv[1],
            (unsigned long)JACOBI2D_5PT_OPENCL_A_BYTES, JACOBI2D_5PT_OPENCL_N, JACOBI2D_5PT_OPENCL_M);
    goto cleanup;
  }

  context = clCreateContext(NULL, 1, &device, NULL, NULL, &error);
  if (error == CL_SUCCESS) queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &error);
  if (error == CL_SUCCESS)
    a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, JACOBI2D_5PT_OPENCL_A_BYTES, grid, &error);
  if (error == CL_SUCCESS) out = clCreateBuffer(context, CL_MEM_WRITE_ONLY, JACOBI2D_5PT_OPENCL_OUT_BYTES, NULL, &error);
  if (error != CL_SUCCESS) {
    fprintf(stderr, "jacobi2d_app: setting up OpenCL failed (%d)\n", (int)error);
    goto cleanup;
  }

  /* Build once (per context and device), launch as often as needed. */
  status = jacobi2d_5pt_opencl_build(context, device, &program, log, sizeof log);
  if (status != JACOBI2D_5PT_OPENCL_OK) {
    fprintf(stderr, "jacobi2d_app: build: %s\n%s\n", jacobi2d_5pt_opencl_status_string(status), log);
    goto cleanup;
  }
  status = jacobi2d_5pt_opencl_launch(program, queue, a, out, JACOBI2D_5PT_OPENCL_N, JACOBI2D_5PT_OPENCL_M, &done);
  if (status != JACOBI2D_5PT_OPENCL_OK) {
    fprintf(stderr, "jacobi2d_app: launch: %s (OpenCL error %d)\n", jacobi2d_5pt_opencl_status_string(status),
            (int)jacobi2d_5pt_opencl_last_error(program));
    goto cleanup;
  }
  error = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, JACOBI2D_5PT_OPENCL_OUT_BYTES, result, 1, &done, NULL);
  if (error != CL_SUCCESS) {
    fprintf(stderr, "jacobi2d_app: reading the result failed (%d)\n", (int)error);
    goto cleanup;
  }
  clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  if (!write_file(argv[2], result, JACOBI2D_5PT_OPENCL_OUT_BYTES)) {
    fprintf(stderr, "jacobi2d_app: cannot write %s\n", argv[2]);
    goto cleanup;
  }
  printf("jacobi2d_5pt %d x %d on %s: kernel %.3f ms\n", JACOBI2D_5PT_OPENCL_N, JACOBI2D_5PT_OPENCL_M, name,
         (double)(end - start) * 1e-6);
  exit_code = 0;

cleanup:
  if (done) clReleaseEvent(done);
  jacobi2d_5pt_opencl_release(program);
  if (out) clReleaseMemObject(out);
  if (a) clReleaseMemObject(a);
  if (queue) clReleaseCommandQueue(queue);
  if (context) clReleaseContext(context);
  free(result);
  free(grid);
  return exit_code;
}
